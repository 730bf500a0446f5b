// GoLightly: a cross-section's modes over a band from a few solves (mode_cache.hpp
// solve_modes_band; the method and its error rule: docs/modes-cache.md).
#include <algorithm>
#include <cmath>
#include <complex>
#include <map>

#include "golightly/mode_cache.hpp"
#include "golightly/units.hpp"

namespace golightly {

using cd = std::complex<double>;

std::vector<double> chebyshev_lobatto_nodes(double lo, double hi, int k) {
    std::vector<double> x(std::size_t(std::max(k, 2)));
    const int n = int(x.size()) - 1;
    // j pi / n with n a power of two is exact in binary, so a node of level K and the same
    // node of level 2K - 1 are the same double (the cache then hits).
    for (int j = 0; j <= n; ++j) x[std::size_t(j)] = lo + (hi - lo) * 0.5 * (1.0 - std::cos(j * M_PI / n));
    return x;
}

std::vector<double> chebyshev_lobatto_weights(const std::vector<double>& nodes, double x) {
    const std::size_t k = nodes.size();
    std::vector<double> l(k, 0.0);
    for (std::size_t j = 0; j < k; ++j)
        if (x == nodes[j]) {
            l[j] = 1.0;
            return l;
        }
    double sum = 0;
    for (std::size_t j = 0; j < k; ++j) {
        double w = (j % 2 == 0) ? 1.0 : -1.0;
        if (j == 0 || j + 1 == k) w *= 0.5;
        l[j] = w / (x - nodes[j]);
        sum += l[j];
    }
    for (double& v : l) v /= sum;
    return l;
}

namespace {

double numerical_k0_per_um(double f_hz, double dt_s) {
    const double w = 2 * M_PI * f_hz;
    return 2.0 / (units::c0 * dt_s) * std::sin(0.5 * w * dt_s) * units::um;
}

bool empty_mode(const VectorMode& m) { return m.e[0].empty(); }

/// sum (x.e x y.h)_w, unconjugated (mode_overlap's product); `conjugated`: y.h* (the
/// complex Bloch modes of a window along a Bloch axis, mode_plane.hpp mode_overlap)
cd cross_w(const VectorMode& x, const VectorMode& y, bool conjugated) {
    auto h = [conjugated](const cd& v) { return conjugated ? std::conj(v) : v; };
    cd s = 0;
    for (std::size_t k = 0; k < x.e[0].size(); ++k) s += x.e[0][k] * h(y.h[1][k]);
    for (std::size_t k = 0; k < x.e[1].size(); ++k) s -= x.e[1][k] * h(y.h[0][k]);
    return s;
}

void scale_fields(VectorMode& m, cd s) {
    for (int d = 0; d < 3; ++d) {
        for (cd& v : m.e[std::size_t(d)]) v *= s;
        for (cd& v : m.h[std::size_t(d)]) v *= s;
    }
}

/// solve_modes_2d's conventions: the largest transverse E entry real positive, power
/// (1/2) Re sum (E_u H~_v* - E_v H~_u*) dA = 1; TE fraction from the fields.
void normalize_like_solver(VectorMode& m, double dx_um) {
    double amax = -1;
    cd at = 1;
    for (int d = 0; d < 2; ++d)
        for (const cd& v : m.e[std::size_t(d)])
            if (std::abs(v) > amax) amax = std::abs(v), at = v;
    if (amax > 0) scale_fields(m, std::conj(at) / std::abs(at));
    double p = 0;
    for (std::size_t k = 0; k < m.e[0].size(); ++k) p += (m.e[0][k] * std::conj(m.h[1][k])).real();
    for (std::size_t k = 0; k < m.e[1].size(); ++k) p -= (m.e[1][k] * std::conj(m.h[0][k])).real();
    p *= 0.5 * dx_um * dx_um;
    if (p > 0) scale_fields(m, 1.0 / std::sqrt(p));
    double eu2 = 0, ev2 = 0;
    for (const cd& v : m.e[0]) eu2 += std::norm(v);
    for (const cd& v : m.e[1]) ev2 += std::norm(v);
    m.te_fraction = eu2 + ev2 > 0 ? eu2 / (eu2 + ev2) : 0.0;
}

/// The mode at weights l over the (phase-aligned) node modes; empty when any node's is.
VectorMode combine(const std::vector<const VectorMode*>& nodes, const std::vector<double>& l, double k0_per_um,
                   const ModeSolveOptions& o, double dx_um) {
    VectorMode out;
    for (const VectorMode* n : nodes)
        if (empty_mode(*n)) return out;
    const VectorMode& first = *nodes[0];
    out.outer_window_um = first.outer_window_um;  // the window's, the same at every node
    for (int d = 0; d < 3; ++d) {
        out.e[std::size_t(d)].assign(first.e[std::size_t(d)].size(), 0.0);
        out.h[std::size_t(d)].assign(first.h[std::size_t(d)].size(), 0.0);
    }
    for (std::size_t j = 0; j < nodes.size(); ++j) {
        const VectorMode& n = *nodes[j];
        const double w = l[j];
        if (w == 0.0) continue;
        out.n_eff += w * n.n_eff;
        out.n_eff_imag += w * n.n_eff_imag;
        out.n_group += w * n.n_group;
        out.pml_energy_fraction += w * n.pml_energy_fraction;
        out.bend_loss_resolved = out.bend_loss_resolved && n.bend_loss_resolved;
        for (int d = 0; d < 3; ++d) {
            auto& e = out.e[std::size_t(d)];
            auto& h = out.h[std::size_t(d)];
            const auto& ne = n.e[std::size_t(d)];
            const auto& nh = n.h[std::size_t(d)];
            for (std::size_t k = 0; k < e.size(); ++k) e[k] += w * ne[k];
            for (std::size_t k = 0; k < h.size(); ++k) h[k] += w * nh[k];
        }
    }
    out.beta_per_um = out.n_eff * k0_per_um;
    const double im_beta = out.n_eff_imag * k0_per_um;
    out.loss_db_per_cm = 20.0 / std::log(10.0) * im_beta * 1e4;
    if (o.bend_radius_um != 0) out.loss_db_per_90deg = 20.0 / std::log(10.0) * im_beta * (M_PI * std::abs(o.bend_radius_um) / 2.0);
    normalize_like_solver(out, dx_um);
    return out;
}

/// Relative L2 distance of the transverse E of a and b, minimized over a global phase.
double field_distance(const VectorMode& a, const VectorMode& b) {
    double aa = 0, bb = 0;
    cd ab = 0;
    for (int d = 0; d < 2; ++d) {
        const auto& x = a.e[std::size_t(d)];
        const auto& y = b.e[std::size_t(d)];
        if (x.size() != y.size()) return 1.0;
        for (std::size_t k = 0; k < x.size(); ++k) {
            aa += std::norm(x[k]);
            bb += std::norm(y[k]);
            ab += std::conj(x[k]) * y[k];
        }
    }
    if (!(bb > 0)) return aa > 0 ? 1.0 : 0.0;
    return std::sqrt(std::max(0.0, aa + bb - 2 * std::abs(ab)) / bb);
}

}  // namespace

ModeBandResult solve_modes_band(const CrossSection& cs, const ModeSolveOptions& o, ModeFilter filter,
                                const std::vector<int>& mode_indices, const std::vector<double>& freqs,
                                double dt_s, const ModeBandOptions& band, const std::string& label) {
    ModeBandResult r;
    const std::size_t nf = freqs.size();
    if (nf == 0) return r;
    const double dx = cs.grid.dx_um;
    const bool bloch = cs.grid.bloch_phase_u != 0 || cs.grid.bloch_phase_v != 0;
    auto solve_at = [&](double f) {
        const double k0 = numerical_k0_per_um(f, dt_s);
        const auto raw = cached_solve_modes_2d(cs.grid, cross_section_medium(cs, 2 * M_PI * f), 2 * M_PI / k0, o);
        return filter_modes(cs, *raw, filter, o.target_neff);
    };
    auto exact = [&]() {
        ModeBandResult e;
        std::vector<std::vector<VectorMode>> cand;
        cand.reserve(nf);
        for (double f : freqs) cand.push_back(solve_at(f));
        e.modes = track_modes(cand, mode_indices, nf / 2, freqs, label, e.warnings, bloch);
        e.node_hz = freqs;
        return e;
    };
    const double lo = *std::min_element(freqs.begin(), freqs.end());
    const double hi = *std::max_element(freqs.begin(), freqs.end());
    if (band.interpolation == ModeInterpolation::exact || nf <= 5 || !(hi > lo)) return exact();

    std::map<double, std::vector<VectorMode>> solved;  // by node frequency
    int k = 3;
    for (;;) {
        const int kn = 2 * k - 1;
        if (std::size_t(kn) >= nf || kn > band.max_nodes) {
            ModeBandResult e = exact();
            e.checks = std::move(r.checks);
            return e;
        }
        const std::vector<double> nodes = chebyshev_lobatto_nodes(lo, hi, kn);
        std::vector<std::vector<VectorMode>> cand;
        for (double f : nodes) {
            auto it = solved.find(f);
            if (it == solved.end()) it = solved.emplace(f, solve_at(f)).first;
            cand.push_back(it->second);
        }
        std::vector<std::string> warnings;
        std::vector<std::vector<VectorMode>> picked =
            track_modes(cand, mode_indices, std::size_t(kn / 2), nodes, label, warnings, bloch);
        const std::size_t nm = mode_indices.size();
        // A mode found at some nodes and not at others (a cutoff inside the band) cannot be
        // interpolated: solve every frequency.
        for (std::size_t m = 0; m < nm; ++m) {
            int found = 0;
            for (int j = 0; j < kn; ++j) found += empty_mode(picked[std::size_t(j)][m]) ? 0 : 1;
            if (found != 0 && found != kn) {
                ModeBandResult e = exact();
                e.checks = std::move(r.checks);
                return e;
            }
        }
        // align each node's phase to its lower neighbour's (the overlap real > 0: unconjugated,
        // conjugated for Bloch modes)
        for (std::size_t m = 0; m < nm; ++m)
            for (int j = 1; j < kn; ++j) {
                VectorMode& cur = picked[std::size_t(j)][m];
                if (empty_mode(cur)) continue;
                const cd c = cross_w(picked[std::size_t(j) - 1][m], cur, bloch);
                // cur = prev e^{i phi}: c = N e^{i phi} unconjugated, N e^{-i phi} conjugated
                if (std::abs(c) > 0) scale_fields(cur, (bloch ? c : std::conj(c)) / std::abs(c));
            }
        // the coarse level (even j) against the new nodes (odd j)
        std::vector<double> coarse;
        for (int j = 0; j < kn; j += 2) coarse.push_back(nodes[std::size_t(j)]);
        double en = 0, ef = 0;
        for (std::size_t m = 0; m < nm; ++m) {
            if (empty_mode(picked[0][m])) continue;
            std::vector<const VectorMode*> cn;
            for (int j = 0; j < kn; j += 2) cn.push_back(&picked[std::size_t(j)][m]);
            for (int j = 1; j < kn; j += 2) {
                const double f = nodes[std::size_t(j)];
                const VectorMode p = combine(cn, chebyshev_lobatto_weights(coarse, f), numerical_k0_per_um(f, dt_s), o, dx);
                VectorMode s = picked[std::size_t(j)][m];
                normalize_like_solver(s, dx);
                en = std::max(en, std::abs(p.n_eff - s.n_eff) + std::abs(p.n_eff_imag - s.n_eff_imag));
                ef = std::max(ef, field_distance(p, s));
            }
        }
        r.checks.push_back({double(kn), en, ef});
        if (en <= band.neff_tol && ef <= band.field_tol) {
            r.interpolated = true;
            r.node_hz = nodes;
            r.neff_error = en;
            r.field_error = ef;
            r.warnings = std::move(warnings);
            r.modes.assign(nf, std::vector<VectorMode>(nm));
            for (std::size_t m = 0; m < nm; ++m) {
                if (empty_mode(picked[0][m])) continue;
                std::vector<const VectorMode*> pn;
                for (int j = 0; j < kn; ++j) pn.push_back(&picked[std::size_t(j)][m]);
                for (std::size_t fi = 0; fi < nf; ++fi)
                    r.modes[fi][m] = combine(pn, chebyshev_lobatto_weights(nodes, freqs[fi]),
                                             numerical_k0_per_um(freqs[fi], dt_s), o, dx);
            }
            return r;
        }
        k = kn;
    }
}

}  // namespace golightly
