// The 2D cross-section mode solver with a Bloch-periodic axis (issue 51, the solver side of
// 3D mode planes along a Bloch axis; mode_solver2d.hpp ModeGrid2D::bloch_phase_u): a slab
// array, periodic along u with the phase k L and uniform along v (a short periodic v
// axis), has cross-section modes that are the 1D Bloch modes of the array. On the Yee
// grid of the cross-section they are exactly those of the 1D solver (mode_solver_bloch.hpp)
// given the same permittivities: E along v (parallel to the slabs) obeys the TMz line
// operator with eps_v at the integer u nodes; E along u (normal to the slabs) obeys the
// TEz line operator with eps_u at the half nodes and eps_w between them. So their n_eff
// agree to the eigen-solvers' tolerance, at k L = pi / 2 as at 0, and differ between the two
// k (the phase is not ignored).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "golightly/mode_solver2d.hpp"
#include "golightly/mode_solver_bloch.hpp"
#include "golightly/project.hpp"
#include "golightly/units.hpp"
#include "optional_features.hpp"

using namespace golightly;

namespace {

constexpr double kWl = 1.55, kDx = 0.025;
constexpr int kNu = 40, kNv = 4;  // a 1 um period along u; 0.1 um along v (its harmonics evanescent)

double eps_at(double u) { return u > 0.3 && u < 0.7 ? 12.0 : 2.25; }

ModeGrid2D array_grid(double phase) {
    ModeGrid2D g;
    g.nu = kNu;
    g.nv = kNv;
    g.dx_um = kDx;
    g.boundary_u = g.boundary_v = ModeBoundary::periodic;
    g.bloch_phase_u = phase;
    return g;
}

ModeMedium2D array_medium(const ModeGrid2D& g) {
    ModeMedium2D m;
    for (int d = 0; d < 3; ++d) {
        const auto sh = mode_component_shape_e(g, d);
        m.eps[std::size_t(d)].resize(std::size_t(sh[0]) * std::size_t(sh[1]));
        for (int j = 0; j < sh[1]; ++j)
            for (int i = 0; i < sh[0]; ++i)
                m.eps[std::size_t(d)][std::size_t(j) * std::size_t(sh[0]) + std::size_t(i)] =
                    eps_at(mode_node_position(g, d, false, i, j)[0]);
    }
    return m;
}

}  // namespace

TEST_CASE("Bloch cross-section modes: a slab array gives the 1D Bloch modes (E along and across the slabs)",
          "[bloch][mode]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    double first_neff[2] = {0, 0};
    for (double kfrac : {0.25, 0.0}) {
        const double phase = 2 * units::pi * kfrac;  // k L
        const ModeGrid2D g = array_grid(phase);
        const ModeMedium2D med = array_medium(g);
        ModeSolveOptions o;
        o.num_modes = 6;
        const auto modes = solve_modes_2d(g, med, kWl, o);
        REQUIRE(modes.size() >= 4);
        // the line operators' permittivities, read from the cross-section's first row
        std::vector<double> eps_tm(kNu), eps_te(kNu), mid_te(kNu);
        for (int i = 0; i < kNu; ++i) {
            eps_tm[std::size_t(i)] = med.eps[1][std::size_t(i)];  // E_v at (n, h): u integer nodes
            eps_te[std::size_t(i)] = med.eps[0][std::size_t(i)];  // E_u at (h, n): u half nodes
            mid_te[std::size_t(i)] = med.eps[2][std::size_t(i)];  // E_w at (n, n): between half nodes i-1, i
        }
        const double k = phase / (kNu * kDx);
        const auto tm = solve_bloch_slab_modes(eps_tm, kDx, kWl, Polarization::TMz, 2, k);
        const auto te = solve_bloch_slab_modes(eps_te, kDx, kWl, Polarization::TEz, 2, k, mid_te);
        REQUIRE(tm.size() == 2);
        REQUIRE(te.size() == 2);
        for (int pol = 0; pol < 2; ++pol)
            for (std::size_t m = 0; m < 2; ++m) {
                const double n1 = (pol == 0 ? tm : te)[m].n_eff;
                // the cross-section's mode of that n_eff and its polarization (te_fraction:
                // the share of |E_u|^2, 0 for E along v, 1 for E along u)
                double best = 1e9, frac = -1;
                for (const VectorMode& v : modes)
                    if (std::abs(v.n_eff - n1) < best) best = std::abs(v.n_eff - n1), frac = v.te_fraction;
                std::printf("Bloch cross-section k L = %.4f: %s mode %zu: 1D n_eff %.10f, 2D within %.2e, te_fraction "
                            "%.6f\n",
                            phase, pol == 0 ? "E along v (TMz line)" : "E along u (TEz line)", m, n1, best, frac);
                CHECK(best < 1e-8);
                if (pol == 0) CHECK(frac < 1e-6);
                else CHECK(frac > 1 - 1e-6);
                if (m == 0 && pol == 0) first_neff[kfrac == 0.0 ? 1 : 0] = n1;
            }
        for (const VectorMode& v : modes) CHECK(std::abs(v.n_eff_imag) < 1e-8);  // lossless: real beta
    }
    // the Bloch phase moves the band (not ignored): k L = pi / 2 against 0
    CHECK(std::abs(first_neff[0] - first_neff[1]) > 1e-4);
    // a phase on a wall axis is refused
    ModeGrid2D bad = array_grid(0.5);
    bad.boundary_u = ModeBoundary::pec;
    CHECK_THROWS_AS(solve_modes_2d(bad, array_medium(bad), kWl, ModeSolveOptions{}), std::invalid_argument);
    bad.bloch_phase_u = 0;  // the same grid without the phase solves
    CHECK_NOTHROW(solve_modes_2d(bad, array_medium(bad), kWl, ModeSolveOptions{}));
}
