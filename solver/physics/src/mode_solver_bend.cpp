// GoLightly: modes of a bent slab through the cross-section solver (mode_solver_bend.hpp).
#include "golightly/mode_solver_bend.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "golightly/mode_solver.hpp"
#include "golightly/mode_solver2d.hpp"

namespace golightly {

std::vector<BentSlabMode> solve_bent_slab_modes(const std::vector<double>& eps_r, double dx, double wl,
                                                Polarization pol, int max_modes, double R, double reference_um,
                                                int pml_cells, double target_neff,
                                                const std::vector<double>& eps_mid_in) {
    const int n = static_cast<int>(eps_r.size());
    if (n < 3) throw std::invalid_argument("solve_bent_slab_modes: the line needs at least 3 nodes");
    if (!(dx > 0) || !(wl > 0)) throw std::invalid_argument("solve_bent_slab_modes: dx and the wavelength must be > 0");
    if (R == 0 || !std::isfinite(R)) throw std::invalid_argument("solve_bent_slab_modes: the bend radius must be finite and nonzero");
    if (max_modes < 1) throw std::invalid_argument("solve_bent_slab_modes: max_modes must be >= 1");
    if (pml_cells < 0 || 2 * pml_cells >= n) throw std::invalid_argument("solve_bent_slab_modes: 2 pml_cells must be below the node count");
    std::vector<double> mid = eps_mid_in;
    if (mid.empty()) {
        mid.resize(std::size_t(n) + 1);
        mid[0] = eps_r[0];
        mid[std::size_t(n)] = eps_r[std::size_t(n) - 1];
        for (int k = 1; k < n; ++k) mid[std::size_t(k)] = 0.5 * (eps_r[std::size_t(k) - 1] + eps_r[std::size_t(k)]);
    }
    if (mid.size() != std::size_t(n) + 1)
        throw std::invalid_argument("solve_bent_slab_modes: eps_r_midpoints must have n + 1 values");
    // The window: u along the line (PEC ends, inside the PML), v = z one periodic cell.
    // TMz: the line's nodes are the integer nodes 1..n (E_v = Ez, E_w there; E_u at the
    // half nodes between them: the midpoints). TEz: the nodes are the half nodes 0..n-1
    // (E_u = the tangential E; E_v, E_w at the integer nodes 1..n-1: the inner midpoints).
    const bool tm = pol == Polarization::TMz;
    ModeGrid2D g;
    g.nu = tm ? n + 1 : n;
    g.nv = 1;
    g.dx_um = dx;
    g.boundary_u = ModeBoundary::pec;
    g.boundary_v = ModeBoundary::periodic;
    ModeMedium2D med;
    for (int d = 0; d < 3; ++d) {
        const auto sh = mode_component_shape_e(g, d);
        auto& e = med.eps[std::size_t(d)];
        e.resize(std::size_t(sh[0]) * std::size_t(sh[1]));
        for (int i = 0; i < sh[0]; ++i) {
            // d == 0: half node i; else integer node i + 1 (PEC: the array starts at node 1)
            double v;
            if (tm) v = d == 0 ? mid[std::size_t(i)] : eps_r[std::size_t(i)];
            else v = d == 0 ? eps_r[std::size_t(i)] : mid[std::size_t(i) + 1];
            e[std::size_t(i)] = v;
        }
    }
    ModeSolveOptions o;
    o.bend_radius_um = R;
    o.bend_axis = 0;
    o.bend_reference_um = reference_um + (tm ? dx : 0.5 * dx);  // node 0's window coordinate
    o.pml_cells = {pml_cells, 0};
    if (target_neff > 0) {
        o.target_neff = target_neff;
    } else {
        const auto straight = solve_slab_modes(eps_r, dx, wl, pol, 1, eps_mid_in);
        if (straight.empty()) throw std::runtime_error("solve_bent_slab_modes: the straight slab has no mode");
        o.target_neff = straight[0].n_eff;
    }
    const auto [lo, hi] = std::minmax_element(eps_r.begin(), eps_r.end());
    const double split = 0.5 * (*lo + *hi);
    const int pol_comp = tm ? 1 : 0;  // the tangential E: E_v = Ez (TMz), E_u (TEz)
    auto keep_modes = [&](const std::vector<VectorMode>& modes) {
        std::vector<BentSlabMode> kept;
        for (const VectorMode& m : modes) {
            if ((m.te_fraction > 0.5) == tm) continue;  // the other polarization
            const auto& e = m.e[std::size_t(pol_comp)];
            // the PML's own modes: most of |E|^2 inside the layers (TMz: integer nodes 1..n
            // are array 0..n-1; TEz: half nodes 0..n-1; the PML is pml_cells cells at each
            // end), and the waves along the window's outer wall: less than 5 % of |E|^2 in
            // the guide (the nodes of eps above the middle of the line's range)
            double all = 0, in_pml = 0, in_core = 0;
            for (std::size_t i = 0; i < e.size(); ++i) {
                const double pos = tm ? double(i) + 1.0 : double(i) + 0.5;  // cells from the window's start
                const double a2 = std::norm(e[i]);
                all += a2;
                if (pos < pml_cells || pos > g.nu - pml_cells) in_pml += a2;
                if (i < eps_r.size() && eps_r[i] > split) in_core += a2;
            }
            if (!(all > 0) || in_pml > 0.5 * all || in_core < 0.05 * all) continue;
            BentSlabMode b;
            b.n_eff = m.n_eff;
            b.n_eff_imag = m.n_eff_imag;
            b.loss_db_per_90deg = m.loss_db_per_90deg;
            b.n_group = m.n_group;
            b.e = e;
            // the partner H~: TMz E_v with H_u (n, h); TEz E_u with H_v (h, n): same nodes
            b.h = m.h[std::size_t(tm ? 0 : 1)];
            kept.push_back(std::move(b));
        }
        return kept;
    };
    // Both polarizations come out of the vector solver: first as many modes as wanted
    // nearest the target (the straight slab's mode of this polarization: its bent mode is
    // the nearest; the shift-invert iteration converges best on a few well separated
    // eigenvalues, and asking for more pulls in the PML's clustered ones, on which it may
    // not converge), then more when too few of this polarization were kept.
    std::vector<BentSlabMode> out;
    const int asks[3] = {max_modes, max_modes + 2, 2 * max_modes + 6};
    for (int a = 0; a < 3; ++a) {
        o.num_modes = std::min(asks[a], 2 * n - 3);
        std::vector<VectorMode> modes;
        try {
            modes = solve_modes_2d(g, med, wl, o);
        } catch (const std::runtime_error&) {
            if (a == 2) throw;
            continue;
        }
        out = keep_modes(modes);
        if (int(out.size()) >= max_modes) break;
    }
    if (int(out.size()) > max_modes) out.resize(std::size_t(max_modes));
    return out;
}

}  // namespace golightly
