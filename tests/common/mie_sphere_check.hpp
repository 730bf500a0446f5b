// The 3D dielectric sphere under a TF/SF plane wave against the Mie series, shared by the
// CPU suite (tests/solver/test_mie3d.cpp) and the GPU suite (tests/gpu/cuda_mie_sphere.cpp):
// run_sphere runs one grid; check_sphere_vs_mie judges two grids (convergence order, the
// accuracy at a reference dx by second-order extrapolation, the far field of the scattering
// box against the series' S1 and S2).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../solver/mie_series.hpp"
#include "../solver/test_3d_projects.hpp"
#include "golightly/far_field.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

namespace golightly::test3d {

struct SphereRun {
    std::vector<double> wavelength_um, sigma, exact, sigma_abs;
    double wall_s = 0;
    long long steps = 0, cells = 0, simulated_cells = 0;  ///< the whole domain's cells, those stepped
    std::string backend;
    /// the scattering box's far field (FarFieldResult: 37 polar x 8 azimuthal angles) at
    /// the spectrum points nearest 0.5, 0.667 and 1.0 um
    FarFieldResult far;
    std::vector<double> flux_sigma_at_far;  ///< the box's sigma_sca at those points (um^2)
};

/// 3D: a dielectric sphere (index n, radius a) in a TF/SF box (propagation +z, E along x),
/// scattering box around it; float32. The sphere is a `sphere` shape of the project
/// (compile_3d.cpp: average_medium_3d, the full sub-pixel tensor) and run_project runs it.
/// The plane x = centre is always a symmetry plane (-1); with `y_plane` the plane y = centre
/// is one too (+1), so the run steps a quarter of the whole domain's cells instead of half.
inline SphereRun run_sphere(double dx, double a, double n, double wl_min, double wl_max, int points, double max_time_fs,
                            BackendChoice backend, bool y_plane = false) {
    const double L = 2 * a + 0.5;  // 0.25 um to the PML (0.5 um and 16 PML cells change sigma by < 1e-3 at dx 0.04)
    const double c = L / 2;
    // With E along x the plane y = centre is a +1 (PMC) mirror plane of the sphere and the
    // wave; a +1 plane lies at a cell centre (an odd number of cells across), so the domain
    // is one cell longer in y (L + dx) and the sphere sits at a cell centre in y (at a node in
    // x and z). The boxes' faces in y are taken half a cell in (hy = h - dx / 2), so that
    // they fall on grid planes that are mirror images of each other, as the TF/SF box must
    // (symmetry.cpp) and the absorption box's faces should (check_sphere_vs_mie).
    const double ly = y_plane ? L + dx : L, cy = ly / 2, shrink_y = y_plane ? dx / 2 : 0.0;
    // A PML of constant physical thickness (0.25 um: 10 cells at dx 0.025, 20 at 0.0125), so
    // that a convergence study refines the scatterer, not the absorber's reflection too (a
    // fixed 10 cells put a floor of ~1 % under the long-wavelength end at dx 0.01).
    const int pml = std::max(10, int(std::lround(0.25 / dx)));
    Project p = vacuum_project(L, ly, L, dx, pml, wl_min, wl_max, points);
    p.run.precision = Precision::Float32;
    p.run.stop.decay_db = 40;
    p.run.stop.max_time_fs = max_time_fs;
    // E along x: the plane x = c is a -1 (PEC) mirror plane of the sphere and the wave (an
    // even number of cells across, the TF/SF box centred on it), so the run steps half the
    // cells and reports the whole domain's spectra and far field (test_symmetry.cpp: equal
    // to the whole-domain run to float rounding).
    p.domain.symmetry = {-1, y_plane ? 1 : 0, 0};
    const double tf = a + 0.1, sc = a + 0.175;
    const double tfy = tf - shrink_y, scy = sc - shrink_y;
    p.sources.push_back(tfsf("pw", {c - tf, cy - tfy, c - tf}, {c + tf, cy + tfy, c + tf}, "+z", Component::Ex,
                             pulse_for(wl_min, wl_max)));
    p.monitors.push_back(flux_box("sca", {c - sc, cy - scy, c - sc}, {c + sc, cy + scy, c + sc}, "scattering"));
    // its far field: 8 azimuths integrate the cos^2 / sin^2 phi dependence of a sphere's
    // pattern exactly (radiated_power's rectangle rule)
    FarFieldSettings ff;
    ff.wavelengths = {0.5, 0.667, 1.0};
    ff.theta_points = 37;
    ff.phi_points = 8;
    p.monitors.back().far_field = ff;
    // lossless sphere: the total field's net flux through a box inside the TF region is ~0
    const double ab = a + 0.05, aby = ab - shrink_y;
    p.monitors.push_back(flux_box("abs", {c - ab, cy - aby, c - ab}, {c + ab, cy + aby, c + ab}, "absorption"));
    const auto t0 = std::chrono::steady_clock::now();
    Material glass;
    glass.id = "glass";
    glass.epsilon_inf = n * n;
    p.materials.push_back(glass);
    Layer layer;
    layer.name = "sphere";
    layer.material = "glass";
    Shape sphere;
    sphere.type = ShapeType::Sphere;
    sphere.center_3d = {c, cy, c};
    sphere.radius = a;
    layer.shapes.push_back(sphere);
    p.layers.push_back(layer);
    // GOLIGHTLY_TEST_BACKEND=cuda|auto runs the CPU suite's runs on the GPU (the convergence
    // study on grids the CPU needs minutes for); unset: the caller's backend.
    p.run.backend = backend;
    if (const char* b = std::getenv("GOLIGHTLY_TEST_BACKEND"))
        p.run.backend = std::string(b) == "cuda" ? BackendChoice::Cuda
                        : std::string(b) == "auto" ? BackendChoice::Auto
                                                   : BackendChoice::Cpu;
    const RunResult r = run_project(p, "sphere.glproj");
    SphereRun out;
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.steps = r.steps;
    out.cells = r.cells;
    out.simulated_cells = r.simulated_cells;
    out.backend = r.backend;
    REQUIRE(r.spectra.size() == 2);
    REQUIRE(r.far_fields.size() == 1);
    out.far = r.far_fields[0];
    for (double f : out.far.frequency_hz)
        for (std::size_t q = 0; q < r.frequency_hz.size(); ++q)
            if (r.frequency_hz[q] == f) out.flux_sigma_at_far.push_back(r.spectra[0].normalized[q]);
    REQUIRE(r.spectra[0].normalized.size() == r.frequency_hz.size());
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        const double wl = units::hz_to_wavelength_um(r.frequency_hz[f]);
        out.wavelength_um.push_back(wl);
        out.sigma.push_back(r.spectra[0].normalized[f]);
        out.sigma_abs.push_back(r.spectra[1].normalized[f]);
        out.exact.push_back(mie::sphere_qsca(2 * units::pi * a / wl, n) * units::pi * a * a);
    }
    return out;
}

/// The far field of the scattering box (issue 52): the differential scattering
/// cross-section U / I_inc against the Mie series (|S2|^2 cos^2 phi + |S1|^2 sin^2 phi) / k^2
/// in the E plane (phi = 0) and the H plane (phi = 90 degrees) from 0 to 180 degrees, within
/// the 3 % of the cut's peak (the grid's own error: the projection adds little
/// beyond the surface sampling, which the dipole test bounds at 0.35 %; seen at dx 0.0125:
/// 2.65 % at 0.5 um, 1.83 % at 0.667 um, 0.12 % at 1.0 um), and its integral over the
/// sphere equal to the box's sigma_sca within the 1 % (both come from the same
/// surface fields; seen -0.15 .. -0.35 %).
inline void check_far_field_vs_mie(const SphereRun& run, double a, double n) {
    const FarFieldResult& f = run.far;
    REQUIRE(f.i_inc.size() == f.samples.size());
    REQUIRE(run.flux_sigma_at_far.size() == f.samples.size());
    for (std::size_t w = 0; w < f.samples.size(); ++w) {
        const double wl = f.wavelength_um[w], k = 2 * units::pi / wl, x = k * a;
        double worst = 0, peak = 0;
        for (const int j : {0, 2}) {  // phi = 0 and 90 degrees (8 azimuths)
            for (int i = 0; i < f.n_theta; ++i) {
                const FarFieldSample& s = f.samples[w][std::size_t(i) * std::size_t(f.n_phi) + std::size_t(j)];
                const auto m = mie::sphere_amplitudes(x, n, std::cos(s.theta_rad));
                peak = std::max(peak, (j == 0 ? std::norm(m.s2) : std::norm(m.s1)) / (k * k));
            }
            for (int i = 0; i < f.n_theta; ++i) {
                const FarFieldSample& s = f.samples[w][std::size_t(i) * std::size_t(f.n_phi) + std::size_t(j)];
                const auto m = mie::sphere_amplitudes(x, n, std::cos(s.theta_rad));
                const double exact = (j == 0 ? std::norm(m.s2) : std::norm(m.s1)) / (k * k);  // um^2/sr
                const double got = s.intensity / f.i_inc[w] * 1e12;                             // m^2 -> um^2
                worst = std::max(worst, std::fabs(got - exact));
            }
        }
        const double integral = f.power[w] / f.i_inc[w] * 1e12;
        // at a narrow resonance (the series' sigma changing by more than 2 % within 0.3 % of
        // the wavelength, check_sphere_vs_mie's criterion) the pattern is judged as sigma
        // is there: through the resonance's position, which this one run cannot shift; only
        // the integral is held (seen at the r = 0.5 um sphere's resonance near 0.5 um: 6 %
        // of the peak, with sigma itself within tolerance only after a 0.3 % shift)
        double variation = 0;
        const double s0 = mie::sphere_qsca(x, n);
        for (int q = -30; q <= 30; ++q)
            variation = std::max(variation, std::abs(mie::sphere_qsca(2 * units::pi * a / (wl * (1 + 1e-4 * q)), n) / s0 - 1));
        const bool resonant = variation > 0.02;
        std::printf("mie3d far field: wl %.3f um: worst |dsigma/dOmega - Mie| %.2f %% of the peak %.4f um^2/sr%s; "
                    "integral %.5f um^2, flux box %.5f um^2 (%+.2f %%)\n",
                    wl, 100 * worst / peak, peak, resonant ? " (narrow resonance)" : "", integral,
                    run.flux_sigma_at_far[w], 100 * (integral / run.flux_sigma_at_far[w] - 1));
        if (!resonant) CHECK(worst < 0.03 * peak);
        CHECK(integral == Approx(run.flux_sigma_at_far[w]).epsilon(0.01));
    }
}

/// The sphere (index n, radius a um) at dx1 and a finer dx2 against the Mie series over
/// 0.4 .. 1.0 um (7 wavelengths), 200 fs (300 fs changes sigma by < 0.1 %). The rms error
/// against the series must fall at order > min_order from dx1 to dx2. The accuracy is
/// judged at dx_ref <= dx2: sigma(dx_ref) is what second-order convergence through the
/// two runs gives, sigma2 + (sigma2 - sigma1) (dx2^2 - dx_ref^2) / (dx1^2 - dx2^2) (the
/// order check is what licenses it; dx_ref = dx2 is the run itself). Pass: within 2 % of
/// the series where the wavelength inside the sphere spans at least 18 cells of dx_ref
/// (wl / (n dx_ref) >= 18), within 3 % below that, or, at a narrow resonance (sigma
/// changing by more than 2 % over 0.3 % of wavelength), within that tolerance of the series
/// at a wavelength shifted by at most 0.3 % (the resonance position converges at second
/// order too). Judging a run at dx_ref itself costs (dx2 / dx_ref)^4 times the dx2 run.
inline void check_sphere_vs_mie(double a, double n, double dx1, double dx2, double min_order, double dx_ref = 0,
                                BackendChoice backend = BackendChoice::Cpu, bool y_plane = false) {
    if (!(dx_ref > 0)) dx_ref = dx2;
    const SphereRun coarse = run_sphere(dx1, a, n, 0.4, 1.0, 7, 200, backend, y_plane);
    const SphereRun fine = run_sphere(dx2, a, n, 0.4, 1.0, 7, 200, backend, y_plane);
    std::printf("mie3d: dx %.4f: %lld cells (%lld stepped), %lld steps, %.1f s; dx %.4f: %lld cells (%lld stepped), %lld "
                "steps, %.1f s (%s)\n",
                dx1, coarse.cells, coarse.simulated_cells, coarse.steps, coarse.wall_s, dx2, fine.cells,
                fine.simulated_cells, fine.steps, fine.wall_s, fine.backend.c_str());
    if (backend == BackendChoice::Cuda) {  // a GPU case that quietly ran on the CPU would prove nothing
        CHECK(coarse.backend == "cuda");
        CHECK(fine.backend == "cuda");
    }
    const double carry = (dx2 * dx2 - dx_ref * dx_ref) / (dx1 * dx1 - dx2 * dx2);
    double rms1 = 0, rms2 = 0;
    for (std::size_t f = 0; f < fine.wavelength_um.size(); ++f) {
        const double wl = fine.wavelength_um[f];
        const double e1 = coarse.sigma[f] / coarse.exact[f] - 1, e2 = fine.sigma[f] / fine.exact[f] - 1;
        rms1 += e1 * e1;
        rms2 += e2 * e2;
        const double order = std::log(std::abs(e1) / std::abs(e2)) / std::log(dx1 / dx2);
        const double sigma = fine.sigma[f] - (coarse.sigma[f] - fine.sigma[f]) * carry;  // at dx_ref
        const double e = sigma / fine.exact[f] - 1;
        // smallest error against the series over wavelengths within 0.3 %, and how much the
        // series itself changes there (narrow resonance: more than 2 %)
        double e_shift = std::abs(e), variation = 0;
        for (int q = -30; q <= 30; ++q) {
            const double wq = wl * (1 + 1e-4 * q);
            const double sq = mie::sphere_qsca(2 * units::pi * a / wq, n) * units::pi * a * a;
            e_shift = std::min(e_shift, std::abs(sigma / sq - 1));
            variation = std::max(variation, std::abs(sq / fine.exact[f] - 1));
        }
        const bool resonant = variation > 0.02;
        std::printf("mie3d: wl %.3f um  x %.3f  Mie %.5f um^2  dx %.4f: %.5f (%+.2f %%)  dx %.4f: %.5f (%+.2f %%)  "
                    "dx %.4f: %.5f (%+.2f %%; %.2f %% within 0.3 %% of wl%s)  order %.2f\n",
                    wl, 2 * units::pi * a / wl, fine.exact[f], dx1, coarse.sigma[f], 100 * e1, dx2, fine.sigma[f],
                    100 * e2, dx_ref, sigma, 100 * e, 100 * e_shift, resonant ? ", narrow resonance" : "", order);
        const double tol = wl / (n * dx_ref) >= 18 ? 0.02 : 0.03;
        CHECK((resonant ? e_shift : std::abs(e)) < tol);
        std::printf("mie3d: wl %.3f um  sigma_abs / sigma_sca (lossless sphere): dx %.4f: %+.2e  dx %.4f: %+.2e\n", wl,
                    dx1, coarse.sigma_abs[f] / coarse.sigma[f], dx2, fine.sigma_abs[f] / fine.sigma[f]);
        // off the narrow resonances ~0; on them the sphere still holds energy when the 200 fs
        // window closes, which the truncated DFT sees as net inward (or outward) flux (seen
        // up to 3.0e-2 at the r = 0.5 um sphere's resonance near 0.5 um). Checked on the
        // grid whose planes hold the absorption box's faces (0.05 um outside the sphere):
        // dx2 when it is dx1 / 2, else dx1 (at dx 0.015 the faces fall between grid planes,
        // and the residual grew to 8e-3 of sigma off resonance; at dx 0.025 and 0.0125 it
        // stays below 2e-3).
        const SphereRun& on_grid = std::abs(dx1 / dx2 - 2) < 1e-9 ? fine : coarse;
        CHECK(std::abs(on_grid.sigma_abs[f]) < (resonant ? 0.04 : 0.006) * on_grid.sigma[f]);
    }
    check_far_field_vs_mie(fine, a, n);
    const double order = 0.5 * std::log(rms1 / rms2) / std::log(dx1 / dx2);
    std::printf("mie3d: a %.2f um: rms error %.2f %% -> %.2f %%, order %.2f\n", a, 100 * std::sqrt(rms1 / 7),
                100 * std::sqrt(rms2 / 7), order);
    CHECK(order > min_order);
}

}  // namespace golightly::test3d
