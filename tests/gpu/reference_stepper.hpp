// A deliberately plain host implementation of the update equations, step order and
// boundary semantics of scene.hpp, in double precision, used by the GPU tests as an
// independent reference: full-grid psi arrays (zero where b = c = 0), explicit ghost
// values beyond the array, no shared code with the CUDA kernels.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "golightly/colormap.hpp"
#include "golightly/engine.hpp"
#include "golightly/units.hpp"

namespace golightly::test {

class ReferenceStepper {
public:
    explicit ReferenceStepper(const Scene& s) : s_(s) {
        for (auto& f : F_) f.assign(s.cells(), 0.0);
        for (auto& p : psi_) p.assign(s.cells(), 0.0);
        for (const auto& d : s.dft_sets) dft_.emplace_back(d.cell0.size() * d.frequencies_hz.size());
        probes_.resize(s.time_probes.size());
    }

    std::vector<double>& field(Component c) { return F_[int(c)]; }

    void step() {
        const Scene& s = s_;
        const int nx = s.nx, ny = s.ny;
        const double S = s.courant;
        const double tH = double(n_) * s.dt_s, tE = (double(n_) + 0.5) * s.dt_s;
        const bool px = s.boundary[0] == BoundaryKind::Periodic, py = s.boundary[1] == BoundaryKind::Periodic;
        auto at = [&](const std::vector<double>& f, int i, int j) -> double {
            if (i < 0 || i >= nx) { if (!px) return 0.0; i = (i + nx) % nx; }
            if (j < 0 || j >= ny) { if (!py) return 0.0; j = (j + ny) % ny; }
            return f[std::size_t(j) * nx + i];
        };
        const CpmlAxis& cx = s.cpml[0];
        const CpmlAxis& cy = s.cpml[1];
        const bool tmz = s.polarization == Polarization::TMz;
        auto& Ex = F_[int(Component::Ex)]; auto& Ey = F_[int(Component::Ey)]; auto& Ez = F_[int(Component::Ez)];
        auto& Hx = F_[int(Component::Hx)]; auto& Hy = F_[int(Component::Hy)]; auto& Hz = F_[int(Component::Hz)];
        // 1. H
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const std::size_t id = std::size_t(j) * nx + i;
                if (tmz) {
                    const double dy = at(Ez, i, j + 1) - at(Ez, i, j);
                    psi_[0][id] = cy.b_h[j] * psi_[0][id] + cy.c_h[j] * dy;
                    Hx[id] -= S * (dy * cy.inv_kappa_h[j] + psi_[0][id]);
                    const double dx = at(Ez, i + 1, j) - at(Ez, i, j);
                    psi_[1][id] = cx.b_h[i] * psi_[1][id] + cx.c_h[i] * dx;
                    Hy[id] += S * (dx * cx.inv_kappa_h[i] + psi_[1][id]);
                } else {
                    const double dx = at(Ey, i + 1, j) - at(Ey, i, j);
                    psi_[1][id] = cx.b_h[i] * psi_[1][id] + cx.c_h[i] * dx;
                    const double dy = at(Ex, i, j + 1) - at(Ex, i, j);
                    psi_[0][id] = cy.b_h[j] * psi_[0][id] + cy.c_h[j] * dy;
                    Hz[id] -= S * (dx * cx.inv_kappa_h[i] + psi_[1][id] - dy * cy.inv_kappa_h[j] - psi_[0][id]);
                }
            }
        add_sources(true, tH);
        if (s.boundary[0] == BoundaryKind::Pmc)
            for (int j = 0; j < ny; ++j) F_[int(tmz ? Component::Hy : Component::Hz)][std::size_t(j) * nx + nx - 1] = 0;
        if (s.boundary[1] == BoundaryKind::Pmc)
            for (int i = 0; i < nx; ++i) F_[int(tmz ? Component::Hx : Component::Hz)][std::size_t(ny - 1) * nx + i] = 0;
        // 2. E
        const std::vector<double> E_old_x = Ex, E_old_y = Ey, E_old_z = Ez;
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const std::size_t id = std::size_t(j) * nx + i;
                if (tmz) {
                    const double dx = at(Hy, i, j) - at(Hy, i - 1, j);
                    psi_[2][id] = cx.b_e[i] * psi_[2][id] + cx.c_e[i] * dx;
                    const double dy = at(Hx, i, j) - at(Hx, i, j - 1);
                    psi_[3][id] = cy.b_e[j] * psi_[3][id] + cy.c_e[j] * dy;
                    const EUpdateCoeffs& m = s.table[s.material_index[2][id]];
                    Ez[id] = m.ca * Ez[id] + m.cb * (dx * cx.inv_kappa_e[i] + psi_[2][id] - dy * cy.inv_kappa_e[j] - psi_[3][id]);
                } else {
                    const double dy = at(Hz, i, j) - at(Hz, i, j - 1);
                    psi_[3][id] = cy.b_e[j] * psi_[3][id] + cy.c_e[j] * dy;
                    const EUpdateCoeffs& ma = s.table[s.material_index[0][id]];
                    Ex[id] = ma.ca * Ex[id] + ma.cb * (dy * cy.inv_kappa_e[j] + psi_[3][id]);
                    const double dx = at(Hz, i, j) - at(Hz, i - 1, j);
                    psi_[2][id] = cx.b_e[i] * psi_[2][id] + cx.c_e[i] * dx;
                    const EUpdateCoeffs& mb = s.table[s.material_index[1][id]];
                    Ey[id] = mb.ca * Ey[id] - mb.cb * (dx * cx.inv_kappa_e[i] + psi_[2][id]);
                }
            }
        add_sources(false, tE);
        if (s.boundary[0] == BoundaryKind::Pec)
            for (int j = 0; j < ny; ++j) F_[int(tmz ? Component::Ez : Component::Ey)][std::size_t(j) * nx] = 0;
        if (s.boundary[1] == BoundaryKind::Pec)
            for (int i = 0; i < nx; ++i) F_[int(tmz ? Component::Ez : Component::Ex)][i] = 0;
        const double k = (S - 1) / (S + 1);
        if (s.boundary[0] == BoundaryKind::Mur) {
            auto& E = tmz ? Ez : Ey;
            const auto& Eo = tmz ? E_old_z : E_old_y;
            for (int j = 0; j < ny; ++j) {
                const std::size_t r = std::size_t(j) * nx;
                E[r] = Eo[r + 1] + k * (E[r + 1] - Eo[r]);
                E[r + nx - 1] = Eo[r + nx - 2] + k * (E[r + nx - 2] - Eo[r + nx - 1]);
            }
        }
        if (s.boundary[1] == BoundaryKind::Mur) {
            auto& E = tmz ? Ez : Ex;
            const auto& Eo = tmz ? E_old_z : E_old_x;
            const std::size_t top = std::size_t(ny - 1) * nx, below = std::size_t(ny - 2) * nx;
            for (int i = 0; i < nx; ++i) {
                E[i] = Eo[nx + i] + k * (E[nx + i] - Eo[i]);
                E[top + i] = Eo[below + i] + k * (E[below + i] - Eo[top + i]);
            }
        }
        // 3. monitors
        for (std::size_t q = 0; q < s.dft_sets.size(); ++q) {
            const DftSet& d = s.dft_sets[q];
            const auto& f = F_[int(d.component)];
            const bool h = d.component == Component::Hx || d.component == Component::Hy || d.component == Component::Hz;
            const double t = (double(n_) + (h ? 0.5 : 1.0)) * s.dt_s;
            for (std::size_t kk = 0; kk < d.cell0.size(); ++kk) {
                double v = d.w0[kk] * f[d.cell0[kk]];
                if (!d.cell1.empty() && d.cell1[kk] >= 0) v += d.w1[kk] * f[d.cell1[kk]];
                for (std::size_t fi = 0; fi < d.frequencies_hz.size(); ++fi)
                    dft_[q][kk * d.frequencies_hz.size() + fi] +=
                        v * std::polar(1.0, 2 * units::pi * d.frequencies_hz[fi] * t) * s.dt_s;
            }
        }
        for (std::size_t q = 0; q < s.time_probes.size(); ++q) {
            const TimeProbe& p = s.time_probes[q];
            const auto& f = F_[int(p.component)];
            double s1 = 0, s2 = 0, sw = 0;
            for (std::size_t kk = 0; kk < p.cells.size(); ++kk) {
                const double v = f[p.cells[kk]];
                s1 += p.weights[kk] * v; s2 += p.weights[kk] * v * v; sw += p.weights[kk];
            }
            double r = s1;
            if (p.reduce == Reduce::Mean) r = s1 / sw;
            else if (p.reduce == Reduce::Rms) r = std::sqrt(s2 / sw);
            else if (p.reduce == Reduce::SumSquares) r = s2;
            probes_[q].push_back(r);
        }
        ++n_;
    }

    double field_energy() const {
        double sum = 0;
        for (std::size_t id = 0; id < s_.cells(); ++id) {
            if (s_.polarization == Polarization::TMz)
                sum += s_.table[s_.material_index[2][id]].eps_r * sq(F_[int(Component::Ez)][id]) +
                       sq(F_[int(Component::Hx)][id]) + sq(F_[int(Component::Hy)][id]);
            else
                sum += s_.table[s_.material_index[0][id]].eps_r * sq(F_[int(Component::Ex)][id]) +
                       s_.table[s_.material_index[1][id]].eps_r * sq(F_[int(Component::Ey)][id]) +
                       sq(F_[int(Component::Hz)][id]);
        }
        const double dx = s_.dx_um * 1e-6;
        return 0.5 * units::eps0 * dx * dx * sum;
    }

    /// The frame as documented in docs/performance.md ("Frames").
    Image8 frame(const FrameRequest& r) const {
        const int nx = s_.nx, ny = s_.ny;
        const int f = std::max({1, (nx + r.max_width - 1) / r.max_width, (ny + r.max_height - 1) / r.max_height});
        const int w = (nx + f - 1) / f, h = (ny + f - 1) / f;
        std::vector<float> avg(std::size_t(w) * h);
        float mx = 0;
        const auto& F = F_[int(r.component)];
        for (int py = 0; py < h; ++py)
            for (int px = 0; px < w; ++px) {
                double sum = 0;
                int cnt = 0;
                for (int j = py * f; j < std::min(ny, py * f + f); ++j)
                    for (int i = px * f; i < std::min(nx, px * f + f); ++i) { sum += F[std::size_t(j) * nx + i]; ++cnt; }
                avg[std::size_t(py) * w + px] = float(sum / cnt);
                mx = std::max(mx, std::abs(avg[std::size_t(py) * w + px]));
            }
        float scale = r.scale > 0 ? float(r.scale) : (mx > 0 ? mx : 1.f);
        Image8 img;
        img.width = w; img.height = h; img.channels = 4;
        img.pixels.resize(std::size_t(w) * h * 4);
        for (int py = 0; py < h; ++py)
            for (int px = 0; px < w; ++px) {
                std::uint8_t* o = &img.pixels[(std::size_t(h - 1 - py) * w + px) * 4];
                diverging_rgb(avg[std::size_t(py) * w + px] / scale, o[0], o[1], o[2]);
                o[3] = 255;
            }
        return img;
    }

    const std::vector<std::complex<double>>& dft(int q) const { return dft_[q]; }
    const std::vector<double>& time_samples(int q) const { return probes_[q]; }

private:
    static double sq(double v) { return v * v; }
    void add_sources(bool magnetic, double t) {
        for (const SourceTerm& src : s_.sources) {
            const bool h = src.component == Component::Hx || src.component == Component::Hy || src.component == Component::Hz;
            if (h != magnetic) continue;
            auto& f = F_[int(src.component)];
            const double v = src.waveform.value(t - src.delay_s);
            for (std::size_t k = 0; k < src.cells.size(); ++k) f[src.cells[k]] += src.weights[k] * v;
        }
    }

    Scene s_;
    std::vector<double> F_[6];
    std::vector<double> psi_[4];  // 0: H y-derivative, 1: H x-derivative, 2: E x-derivative, 3: E y-derivative
    std::vector<std::vector<std::complex<double>>> dft_;
    std::vector<std::vector<double>> probes_;
    std::int64_t n_ = 0;
};

}  // namespace golightly::test
