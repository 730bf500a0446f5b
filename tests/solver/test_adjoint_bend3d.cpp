// The 3D SOI strip bend of issue 53's validation (tests/common/adjoint_bend3d.hpp) on the
// CPU at a coarse grid (0.1 um cells, 10 PML cells): the set-up (TE0 guided and in-plane
// polarized at every wavelength on both monitors; the straight reference carries the TE0
// power from "in" to "out"), the adjoint gradient of the extruded design against finite
// differences, and a hidden 5-iteration optimization smoke case. The optimization at the
// fine grid runs on the GPU (tests/gpu/cuda_adjoint_bend3d.cpp, [bend3d]).
#include <catch2/catch.hpp>

#include <cstdio>
#include <limits>

#include "adjoint_bend3d.hpp"
#include "adjoint_problems.hpp"
#include "golightly/adjoint_optimize.hpp"
#include "golightly/run.hpp"
#include "optional_features.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

constexpr double kCoarseDx = 0.1;
constexpr int kCoarsePml = 10;

const ModeCoefficientsResult& coefficients(const RunResult& r, const std::string& monitor) {
    for (const ModeCoefficientsResult& m : r.mode_coefficients)
        if (m.name == monitor && m.mode_index == 0) return m;
    FAIL("no TE0 coefficients of monitor " << monitor);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("adjoint bend3d: TE0 is guided and in-plane polarized at every wavelength on both monitors, and the straight "
          "reference carries it from in to out",
          "[adjoint][3d]" GOLIGHTLY_NEEDS_SPECTRA) {
    const CompiledProject cp =
        compile_project(bend3d_project(kCoarseDx, BackendChoice::Cpu, Precision::Float64, kCoarsePml), "bend3d.glproj");
    const ModeMonitorPlan& pin = *cp.monitors.at(0).mode_plan;
    const ModeMonitorPlan& pout = *cp.monitors.at(1).mode_plan;
    REQUIRE(pin.dims == 3);
    REQUIRE(pin.frequencies_hz.size() == 3);
    // the plane's in-plane axes are u = (normal + 1) % 3, v = (normal + 2) % 3: "in" (normal x)
    // has u = y, the wafer-plane axis across the strip; "out" (normal y) has u = z, v = x.
    // TE0 (E across the strip, in the wafer plane) is mode 0: it has the highest n_eff, above
    // the oxide's 1.444 and below silicon's 3.48
    for (std::size_t f = 0; f < 3; ++f) {
        const VectorMode &mi = pin.modes.at(f).at(0), &mo = pout.modes.at(f).at(0);
        INFO("frequency " << f << ": in n_eff " << mi.n_eff << " te " << mi.te_fraction << ", out n_eff " << mo.n_eff
                          << " te " << mo.te_fraction);
        CHECK(mi.n_eff > std::sqrt(kBend3dEpsOx));
        CHECK(mi.n_eff < std::sqrt(kBend3dEpsSi));
        CHECK(mo.n_eff > std::sqrt(kBend3dEpsOx));
        CHECK(mo.n_eff < std::sqrt(kBend3dEpsSi));
        CHECK(mi.te_fraction > 0.9);
        CHECK(mo.te_fraction < 0.1);
        // the two planes cut the same staircased strip, turned by 90 degrees about z (the
        // Yee lattice maps onto itself under x <-> y), so the modes agree to the
        // eigen-solver's convergence
        CHECK(mo.n_eff == Approx(mi.n_eff).epsilon(1e-8));
    }
    // The straight reference: a lossless uniform guide from "in" to "out" with the same
    // cross-section at both planes, so the forward TE0 power is the same at both. Its error
    // budget: the runs stop at 80 dB (1e-8) of the peak energy, leaving ~1e-4 of the
    // amplitude out of the DFTs (~2e-4 in |a|^2); the source's light outside TE0 (a
    // semi-discrete profile on a fully discrete grid) reaches "in" 0.2 um after it and "out"
    // 3 um after it, and projects onto TE0 only through the overlap's non-orthogonality.
    // 1e-3 bounds both; a wrong normalization or direction is an O(1) change. The backward
    // TE0 at "in" is what the far CPML reflects of the guided mode: its target 1e-8 is a
    // plane wave's in a uniform medium, and the 10 cells grade over only 1 um (0.65
    // wavelength in silicon); 1e-5 bounds it (6 cells reflected 3e-4 .. 8e-4, so the check
    // sees a PML too thin for the guide).
    {
        const RunResult r = run_project(
            bend3d_project(kCoarseDx, BackendChoice::Cpu, Precision::Float64, kCoarsePml, true), "straight.glproj");
        const ModeCoefficientsResult &in = coefficients(r, "in"), &out = coefficients(r, "out");
        std::printf("bend3d straight reference: %lld steps, %.1f s\n", (long long)r.steps, r.wall_s);
        for (std::size_t f = 0; f < in.fwd.size(); ++f) {
            const double inc = std::norm(in.fwd[f]);
            const double T = std::norm(out.fwd[f]) / inc, R = std::norm(in.bwd[f]) / inc;
            std::printf("bend3d straight reference: frequency %zu T %.6f R %.2e\n", f, T, R);
            INFO("frequency " << f << ": T " << T << " R " << R);
            CHECK(T == Approx(1.0).margin(1e-3));
            CHECK(R < 1e-5);
        }
    }
}

TEST_CASE("adjoint bend3d: the gradient of the extruded design matches finite differences on a random direction",
          "[adjoint][3d]" GOLIGHTLY_NEEDS_SPECTRA) {
    // one wavelength (1.55 um) keeps the adjoint run short; 0.22 um pixels, one through the
    // core (10 x 10 x 1); the runs stop at 1e-12 of the peak energy, so that the truncation
    // (~1e-6 of the amplitudes) stays far below the central difference's change
    adjoint::Problem p = bend3d_problem(kCoarseDx, 0.22, BackendChoice::Cpu, Precision::Float64, true, {1}, kCoarsePml);
    REQUIRE(p.region.n == std::array<int, 3>{10, 10, 1});
    p.settings.decay = 1e-12;
    const std::vector<double> rho = random_density(p.region.pixels(), 531, 0.3, 0.7);
    const adjoint::Evaluation ev = adjoint::evaluate_with_gradient(p, rho);
    const Check c = directional(p, rho, ev.gradient, random_density(p.region.pixels(), 532, -1.0, 1.0));
    std::printf("bend3d gradient: T %.4f, fd %.6e adjoint %.6e (steps forward %lld adjoint %lld, %.1f + %.1f s)\n",
                ev.objective, c.fd, c.adj, ev.forward_steps, ev.adjoint_steps, ev.forward_s, ev.adjoint_s);
    INFO("fd " << c.fd << " adjoint " << c.adj);
    REQUIRE(std::abs(c.fd) > 1e-3 * std::abs(ev.objective));
    CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
}

TEST_CASE("adjoint bend3d: 5 MMA iterations at the coarse grid raise the transmission",
          "[.][bend3d_cpu][adjoint][3d]" GOLIGHTLY_NEEDS_NLOPT GOLIGHTLY_NEEDS_SPECTRA) {
    // the GPU case's pipeline (optimize_bend3d: the extruded design, the verifying runs) at
    // 0.1 um cells and 0.11 um pixels (20 x 20 x 1), the runs stopped at 1e-6; beta 4, then
    // infinity on the smoothed projection for the last two iterations
    adjoint::OptimizerSettings s;
    s.max_iterations = 5;
    s.mapping.radius_um = 0.2;
    s.mapping.smoothed = true;
    s.betas = {4, std::numeric_limits<double>::infinity()};
    s.beta_every = 3;
    const Bend3dOptimization o =
        optimize_bend3d("bend3d_cpu", kCoarseDx, 0.11, BackendChoice::Cpu, Precision::Float64, s, kCoarsePml, 1e-6);
    REQUIRE(o.result.history.size() == 5);
    CHECK(o.result.history[2].objective > o.result.history.front().objective);
}
