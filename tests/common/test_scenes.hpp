// Hand-built Scenes for engine tests (CPU physics tests, CPU-vs-CUDA comparisons).
// Header-only; everything in namespace golightly::test.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "golightly/engine.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"

namespace golightly::test {

/// What a hand-built scene looks like. Boundaries per axis (x, y); pml_cells is used on
/// both sides of every axis whose boundary is Pml (0 elsewhere).
struct SceneSpec {
    int nx = 64, ny = 64;                 ///< total cells, PML included
    Polarization polarization = Polarization::TMz;
    BoundaryKind boundary_x = BoundaryKind::Pml, boundary_y = BoundaryKind::Pml;
    int pml_cells = 16;
    double dx_um = 0.02;
    double courant = 0.5;                 ///< S = c0 dt / dx
    double pml_grading_order = 3, pml_target_reflection = 1e-8;
    /// Optional per-cell materials, called with (component, i, j) of each E component:
    /// eps_r and sigma (S/m). Empty: vacuum.
    std::function<double(Component, int, int)> eps_r;
    std::function<double(Component, int, int)> sigma_s_per_m;
};

/// Builds the scene: grid, dt from the Courant number, material table, CPML profiles
/// (build_cpml with its default kappa/alpha). No sources or monitors.
inline Scene make_scene(const SceneSpec& s) {
    Scene sc;
    sc.polarization = s.polarization;
    sc.nx = s.nx;
    sc.ny = s.ny;
    sc.dx_um = s.dx_um;
    sc.courant = s.courant;
    sc.dt_s = s.courant * s.dx_um * units::um / units::c0;
    sc.boundary[0] = s.boundary_x;
    sc.boundary[1] = s.boundary_y;
    for (int a = 0; a < 2; ++a) {
        const bool pml = sc.boundary[a] == BoundaryKind::Pml;
        sc.pml_lo[a] = sc.pml_hi[a] = pml ? s.pml_cells : 0;
    }
    const auto comps = electric_components(s.polarization);
    std::vector<std::vector<double>> eps(comps.size()), sig(comps.size());
    for (std::size_t k = 0; k < comps.size(); ++k) {
        eps[k].assign(sc.cells(), 1.0);
        sig[k].assign(sc.cells(), 0.0);
        for (int j = 0; j < s.ny; ++j)
            for (int i = 0; i < s.nx; ++i) {
                const std::size_t c = std::size_t(j) * s.nx + i;
                if (s.eps_r) eps[k][c] = s.eps_r(comps[k], i, j);
                if (s.sigma_s_per_m) sig[k][c] = s.sigma_s_per_m(comps[k], i, j);
            }
    }
    build_material_table(sc, eps, sig);
    build_cpml(sc, s.pml_grading_order, s.pml_target_reflection);
    return sc;
}

/// Vacuum box with PML (pml_cells) on all four sides.
inline Scene make_vacuum_pml_scene(int nx, int ny, Polarization p, int pml_cells = 16, double courant = 0.5) {
    SceneSpec s;
    s.nx = nx; s.ny = ny; s.polarization = p; s.pml_cells = pml_cells; s.courant = courant;
    return make_scene(s);
}

/// Closed cavity with PEC walls on all sides (walls at e positions 0 and n; scene.hpp).
/// Optional random eps_r in [1, eps_max] per E cell (seeded), lossless.
inline Scene make_pec_cavity(int nx, int ny, Polarization p, double eps_max = 1.0, unsigned seed = 1,
                             double courant = 0.5) {
    SceneSpec s;
    s.nx = nx; s.ny = ny; s.polarization = p; s.courant = courant;
    s.boundary_x = s.boundary_y = BoundaryKind::Pec;
    if (eps_max > 1.0) {
        auto rng = std::make_shared<std::mt19937>(seed);
        s.eps_r = [rng, eps_max](Component, int, int) {
            return 1.0 + (eps_max - 1.0) * std::uniform_real_distribution<double>(0, 1)(*rng);
        };
    }
    return make_scene(s);
}

/// Slab of eps_r slab_eps between rows [j0, j1) in a domain periodic along x and PML
/// (pml_cells) along y.
inline Scene make_periodic_slab(int nx, int ny, Polarization p, int j0, int j1, double slab_eps,
                                int pml_cells = 16) {
    SceneSpec s;
    s.nx = nx; s.ny = ny; s.polarization = p; s.pml_cells = pml_cells;
    s.boundary_x = BoundaryKind::Periodic;
    s.boundary_y = BoundaryKind::Pml;
    s.eps_r = [=](Component, int, int j) { return (j >= j0 && j < j1) ? slab_eps : 1.0; };
    return make_scene(s);
}

/// Random materials: eps_r in [1, eps_max] (256 levels), conductivity in [0, sigma_max]
/// (S/m, 16 levels) per cell and component, seeded; boundaries and PML as given.
inline Scene make_random_material_scene(int nx, int ny, Polarization p, unsigned seed,
                                        BoundaryKind bx = BoundaryKind::Pml, BoundaryKind by = BoundaryKind::Pml,
                                        int pml_cells = 8, double eps_max = 12.0, double sigma_max = 2e4) {
    SceneSpec s;
    s.nx = nx; s.ny = ny; s.polarization = p; s.pml_cells = pml_cells;
    s.boundary_x = bx; s.boundary_y = by;
    auto rng = std::make_shared<std::mt19937>(seed);
    // 256 eps levels x 16 sigma levels: at most 4096 table entries whatever the grid size
    s.eps_r = [rng, eps_max](Component, int, int) {
        return 1.0 + (eps_max - 1.0) * std::uniform_int_distribution<int>(0, 255)(*rng) / 255.0;
    };
    auto rng2 = std::make_shared<std::mt19937>(seed + 7919);
    s.sigma_s_per_m = [rng2, sigma_max](Component, int, int) {
        return sigma_max * std::uniform_int_distribution<int>(0, 15)(*rng2) / 15.0;
    };
    return make_scene(s);
}

/// Flat index of cell (i, j).
inline CellIndex cell(const Scene& s, int i, int j) { return CellIndex(j) * s.nx + i; }

/// A gaussian-pulse waveform with carrier f0 (Hz) and 1/e^(1/2) half-width tau_s (s),
/// centred at t0 = 6 tau (so it starts from ~1e-8 of its peak).
inline CompiledWaveform gaussian_pulse(double f0_hz, double tau_s, double amplitude = 1.0) {
    CompiledWaveform w;
    w.type = WaveformType::GaussianPulse;
    w.omega = 2.0 * units::pi * f0_hz;
    w.tau_s = tau_s;
    w.t0_s = 6.0 * tau_s;
    w.amplitude = amplitude;
    return w;
}

/// Adds a soft point source on component c at (i, j); returns its index.
inline int add_point_source(Scene& s, Component c, int i, int j, const CompiledWaveform& w, double weight = 1.0) {
    SourceTerm t;
    t.component = c;
    t.cells = {cell(s, i, j)};
    t.weights = {weight};
    t.waveform = w;
    s.sources.push_back(t);
    return int(s.sources.size()) - 1;
}

/// Adds a single-cell time probe (Reduce::Value) of component c at (i, j); returns its index.
inline int add_point_probe(Scene& s, Component c, int i, int j) {
    TimeProbe p;
    p.component = c;
    p.cells = {cell(s, i, j)};
    p.weights = {1.0};
    s.time_probes.push_back(p);
    return int(s.time_probes.size()) - 1;
}

/// Fills every field component of the engine's polarization with uniform random values in
/// [-1, 1] (seeded); `mask(i, j)` may restrict the cells that get a value (others 0).
inline void randomize_fields(Engine& e, const Scene& s, unsigned seed,
                             const std::function<bool(int, int)>& mask = {}) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    auto comps = electric_components(s.polarization);
    for (auto c : magnetic_components(s.polarization)) comps.push_back(c);
    for (Component c : comps) {
        std::vector<double> v(s.cells());
        for (int j = 0; j < s.ny; ++j)
            for (int i = 0; i < s.nx; ++i) {
                const double r = u(rng);
                v[std::size_t(j) * s.nx + i] = (!mask || mask(i, j)) ? r : 0.0;
            }
        e.set_field(c, v);
    }
}

/// Largest |a - b| over two equally long vectors.
inline double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
    double m = 0;
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) m = std::max(m, std::abs(a[k] - b[k]));
    return m;
}
/// Largest |a|.
inline double max_abs(const std::vector<double>& a) {
    double m = 0;
    for (double v : a) m = std::max(m, std::abs(v));
    return m;
}

}  // namespace golightly::test

namespace golightly::test {

/// A deliberately plain, cell-by-cell double-precision stepper written straight from the
/// scene.hpp header comment (update equations, CPML psi with b = c = 0 outside the slabs,
/// boundary kinds, step order). Slow; for checking engines on small grids. Supports
/// sources; no DFT sets or probes.
class ReferenceYee {
public:
    explicit ReferenceYee(const Scene& s) : s_(s) {
        for (auto& f : f_) f.assign(s.cells(), 0.0);
        for (auto& p : psi_) p.assign(s.cells(), 0.0);
    }
    std::vector<double>& field(Component c) { return f_[int(c)]; }
    std::int64_t steps_done() const { return n_; }

    void step(int n_steps) {
        for (int k = 0; k < n_steps; ++k) one_step();
    }

private:
    enum Psi { HxY, HyX, EzX, EzY, HzX, HzY, ExY, EyX, NPsi };
    double get(Component c, int i, int j) const {
        if (i < 0 || i >= s_.nx) {
            if (s_.boundary[0] != BoundaryKind::Periodic) return 0.0;
            i = (i + s_.nx) % s_.nx;
        }
        if (j < 0 || j >= s_.ny) {
            if (s_.boundary[1] != BoundaryKind::Periodic) return 0.0;
            j = (j + s_.ny) % s_.ny;
        }
        return f_[int(c)][std::size_t(j) * s_.nx + i];
    }
    double& at(Component c, int i, int j) { return f_[int(c)][std::size_t(j) * s_.nx + i]; }
    double& psi(Psi p, int i, int j) { return psi_[p][std::size_t(j) * s_.nx + i]; }
    const EUpdateCoeffs& co(Component c, int i, int j) const {
        return s_.table[s_.material_index[int(c)][std::size_t(j) * s_.nx + i]];
    }
    /// d * inv_kappa + psi, psi updated first: axis 0/1, e or h position kind, index.
    double cpml_term(Psi p, int i, int j, int axis, bool e_pos, double d) {
        const CpmlAxis& ax = s_.cpml[axis];
        const int q = axis == 0 ? i : j;
        const double b = e_pos ? ax.b_e[q] : ax.b_h[q], c = e_pos ? ax.c_e[q] : ax.c_h[q];
        const double ik = e_pos ? ax.inv_kappa_e[q] : ax.inv_kappa_h[q];
        double& ps = psi(p, i, j);
        ps = b * ps + c * d;
        return d * ik + ps;
    }
    void sources(bool electric, double t) {
        for (const auto& src : s_.sources) {
            const bool e = src.component == Component::Ex || src.component == Component::Ey ||
                           src.component == Component::Ez;
            if (e != electric) continue;
            const double v = src.waveform.value(t - src.delay_s);
            for (std::size_t k = 0; k < src.cells.size(); ++k) f_[int(src.component)][src.cells[k]] += src.weights[k] * v;
        }
    }
    void one_step() {
        const int nx = s_.nx, ny = s_.ny;
        const double S = s_.courant, dt = s_.dt_s, tn = double(n_) * dt;
        const bool tm = s_.polarization == Polarization::TMz;
        using C = Component;
        // 1. H
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                if (tm) {
                    at(C::Hx, i, j) -= S * cpml_term(HxY, i, j, 1, false, get(C::Ez, i, j + 1) - get(C::Ez, i, j));
                    at(C::Hy, i, j) += S * cpml_term(HyX, i, j, 0, false, get(C::Ez, i + 1, j) - get(C::Ez, i, j));
                } else {
                    const double x = cpml_term(HzX, i, j, 0, false, get(C::Ey, i + 1, j) - get(C::Ey, i, j));
                    const double y = cpml_term(HzY, i, j, 1, false, get(C::Ex, i, j + 1) - get(C::Ex, i, j));
                    at(C::Hz, i, j) -= S * (x - y);
                }
            }
        sources(false, tn);
        const C th[2] = {tm ? C::Hy : C::Hz, tm ? C::Hx : C::Hz};
        const C te[2] = {tm ? C::Ez : C::Ey, tm ? C::Ez : C::Ex};
        if (s_.boundary[0] == BoundaryKind::Pmc)
            for (int j = 0; j < ny; ++j) at(th[0], nx - 1, j) = 0;
        if (s_.boundary[1] == BoundaryKind::Pmc)
            for (int i = 0; i < nx; ++i) at(th[1], i, ny - 1) = 0;
        // 2. E
        const std::vector<double> e_old_x = f_[int(te[0])], e_old_y = f_[int(te[1])];
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                if (tm) {
                    const auto& m = co(C::Ez, i, j);
                    const double x = cpml_term(EzX, i, j, 0, true, get(C::Hy, i, j) - get(C::Hy, i - 1, j));
                    const double y = cpml_term(EzY, i, j, 1, true, get(C::Hx, i, j) - get(C::Hx, i, j - 1));
                    at(C::Ez, i, j) = m.ca * at(C::Ez, i, j) + m.cb * (x - y);
                } else {
                    const auto& mx = co(C::Ex, i, j);
                    const auto& my = co(C::Ey, i, j);
                    const double y = cpml_term(ExY, i, j, 1, true, get(C::Hz, i, j) - get(C::Hz, i, j - 1));
                    const double x = cpml_term(EyX, i, j, 0, true, get(C::Hz, i, j) - get(C::Hz, i - 1, j));
                    at(C::Ex, i, j) = mx.ca * at(C::Ex, i, j) + mx.cb * y;
                    at(C::Ey, i, j) = my.ca * at(C::Ey, i, j) - my.cb * x;
                }
            }
        sources(true, tn + 0.5 * dt);
        if (s_.boundary[0] == BoundaryKind::Pec)
            for (int j = 0; j < ny; ++j) at(te[0], 0, j) = 0;
        if (s_.boundary[1] == BoundaryKind::Pec)
            for (int i = 0; i < nx; ++i) at(te[1], i, 0) = 0;
        const double k = (S - 1) / (S + 1);
        if (s_.boundary[0] == BoundaryKind::Mur)
            for (int j = 0; j < ny; ++j) {
                auto old = [&](int i) { return e_old_x[std::size_t(j) * nx + i]; };
                at(te[0], 0, j) = old(1) + k * (at(te[0], 1, j) - old(0));
                at(te[0], nx - 1, j) = old(nx - 2) + k * (at(te[0], nx - 2, j) - old(nx - 1));
            }
        if (s_.boundary[1] == BoundaryKind::Mur)
            for (int i = 0; i < nx; ++i) {
                auto old = [&](int j) { return e_old_y[std::size_t(j) * nx + i]; };
                at(te[1], i, 0) = old(1) + k * (at(te[1], i, 1) - old(0));
                at(te[1], i, ny - 1) = old(ny - 2) + k * (at(te[1], i, ny - 2) - old(ny - 1));
            }
        ++n_;
    }

    Scene s_;
    std::vector<double> f_[6];
    std::vector<double> psi_[NPsi];
    std::int64_t n_ = 0;
};

}  // namespace golightly::test
