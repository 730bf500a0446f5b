// TF/SF cross-sections (run.hpp tfsf_incident_intensity, FluxSpectrumResult::normalized):
// - the Mie series of the tests (mie_series.hpp) against their Rayleigh limits;
// - an empty 3D TF/SF box: scattering and absorption cross-sections ~0, and the plane-wave
//   power through a plane inside the box equals I_inc times its area (times the flux
//   plane's lattice factor cos(k~ dx/2));
// - 2D: a dielectric cylinder (TMz) against the cylinder Mie series;
// - 3D [slow]: a dielectric sphere (project shape) against the Mie series at two
//   resolutions, and against a sphere averaged by the test itself.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <string>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/run.hpp"
#include "mie_series.hpp"
#include "test_3d_projects.hpp"

using namespace golightly;
using namespace golightly::test3d;

TEST_CASE("Mie series: Rayleigh limits of the sphere and the cylinder", "[mie3d][mie2d]") {
    const double m = 2.0, x = 0.01;
    const double ratio = (m * m - 1) / (m * m + 2);
    CHECK(mie::sphere_qsca(x, m) == Approx(8.0 / 3.0 * std::pow(x, 4) * ratio * ratio).epsilon(1e-3));
    CHECK(mie::cylinder_qsca_tm(x, m) ==
          Approx(units::pi * units::pi * std::pow(x, 3) * (m * m - 1) * (m * m - 1) / 8).epsilon(5e-3));
    // large spheres: extinction paradox, Q_sca -> 2 (lossless), within the ripple (the
    // cylinder's interference ripple decays slowly: 1.85 at x = 200, m = 1.33)
    CHECK(mie::sphere_qsca(200.0, 1.33) == Approx(2.0).margin(0.1));
    CHECK(mie::cylinder_qsca_tm(200.0, 1.33) == Approx(2.0).margin(0.25));
}

TEST_CASE("3D TF/SF in an empty domain: zero cross-sections, plane-wave power = I_inc * area", "[tfsf3d][3d]") {
    const double dx = 0.05, wl_min = 0.8, wl_max = 1.6;
    Project p = vacuum_project(1.6, 1.6, 1.6, dx, 10, wl_min, wl_max, 5);
    p.sources.push_back(tfsf("pw", {0.4, 0.4, 0.4}, {1.2, 1.2, 1.2}, "+x", Component::Ey, pulse_for(wl_min, wl_max)));
    p.monitors.push_back(flux_box("sca", {0.25, 0.25, 0.25}, {1.35, 1.35, 1.35}, "scattering"));
    p.monitors.push_back(flux_box("abs", {0.55, 0.55, 0.55}, {1.05, 1.05, 1.05}, "absorption"));
    // a plane inside the total-field box, normal to the propagation, 0.4 x 0.4 um
    p.monitors.push_back(flux_plane("through", {0.8, 0.8, 0.8}, {0, 0.4, 0.4}, "+x"));
    const RunResult r = run_project(p, "tfsf3d.glproj");
    REQUIRE(r.spectra.size() == 3);
    CHECK(r.dimensions == 3);
    CHECK(r.tfsf_cross_sections);
    CHECK(r.backend == "cpu");
    const CompiledProject cp = compile_project(p, "tfsf3d.glproj");
    const auto i_inc = tfsf_incident_intensity(cp.scene, r.frequency_hz, r.steps);
    const double face = 0.8 * 0.8;  // um^2, the TF box's cross-section
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        const double sca = r.spectra[0].normalized[f], absn = r.spectra[1].normalized[f];
        const double through = r.spectra[2].flux[f] / (i_inc[f] * 0.4 * 0.4 * units::um * units::um);
        std::printf("tfsf3d: wl %.3f um  sigma_sca %.3e um^2 (%.2e of the box face)  sigma_abs %.3e um^2  "
                    "P_plane / (I_inc A) %.5f\n",
                    units::hz_to_wavelength_um(r.frequency_hz[f]), sca, sca / face, absn, through);
        CHECK(std::abs(sca) < 1e-4 * face);
        CHECK(std::abs(absn) < 1e-3 * face);
        // the flux plane measures |E|^2 cos(k~ dx/2) / (2 eta0) (test_3d_projects.hpp)
        CHECK(through == Approx(half_cell_cos(r.frequency_hz[f], dx, 0.5)).margin(0.002));
        CHECK(r.spectra[2].normalized.empty());  // flux planes are not normalized without a reference run
    }
}

namespace {

/// 2D TMz: a dielectric cylinder (index n, radius a) in a TF/SF box; returns the scattering
/// cross-section per unit length (um) at each wavelength and the wavelengths.
RunResult run_cylinder(double dx, double a, double n, double wl_min, double wl_max, int points) {
    Project p;
    p.name = "cylinder";
    p.domain.dimensions = 2;
    p.domain.polarization = Polarization::TMz;
    const double L = 2 * a + 1.0;
    p.domain.size = {L, L, 0};
    p.domain.cell_size = dx;
    p.domain.boundaries = {BoundaryKind::Pml, BoundaryKind::Pml, BoundaryKind::Periodic};
    p.domain.pml.cells = 16;
    Material glass;
    glass.id = "glass";
    glass.epsilon_inf = n * n;
    p.materials.push_back(glass);
    Layer layer;
    layer.name = "cylinder";
    layer.material = "glass";
    Shape disc;
    disc.type = ShapeType::Ellipse;
    disc.center = {L / 2, L / 2};
    disc.radii = {a, a};
    layer.shapes.push_back(disc);
    p.layers.push_back(layer);
    const double c = L / 2;
    p.sources.push_back(tfsf("pw", {c - a - 0.2, c - a - 0.2, 0}, {c + a + 0.2, c + a + 0.2, 0}, "+x", Component::Ez,
                             pulse_for(wl_min, wl_max)));
    Monitor m;
    m.name = "sca";
    m.type = MonitorType::FluxBox;
    m.kind = "scattering";
    m.min = Vec2{c - a - 0.35, c - a - 0.35};
    m.max = Vec2{c + a + 0.35, c + a + 0.35};
    p.monitors.push_back(m);
    p.run.courant = 0.5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Auto;
    p.run.spectrum.wavelength_min = wl_min;
    p.run.spectrum.wavelength_max = wl_max;
    p.run.spectrum.points = points;
    p.run.stop.decay_db = 60;
    p.run.stop.max_time_fs = 2000;
    return run_project(p, "cylinder.glproj");
}

}  // namespace

TEST_CASE("2D TF/SF: dielectric cylinder (TMz) scattering width vs the Mie series", "[mie2d][tfsf]") {
    const double a = 0.4, n = 1.5;
    const RunResult coarse = run_cylinder(0.02, a, n, 0.5, 1.5, 11);
    const RunResult r = run_cylinder(0.01, a, n, 0.5, 1.5, 11);
    REQUIRE(r.spectra.size() == 1);
    REQUIRE(r.spectra[0].normalized.size() == r.frequency_hz.size());
    CHECK(r.backend == "cpu");
    CHECK(r.tfsf_cross_sections);
    double worst = 0, rms_c = 0, rms_f = 0;
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        const double wl = units::hz_to_wavelength_um(r.frequency_hz[f]);
        const double x = 2 * units::pi * a / wl;
        const double exact = mie::cylinder_qsca_tm(x, n) * 2 * a;
        const double e_c = coarse.spectra[0].normalized[f] / exact - 1, e_f = r.spectra[0].normalized[f] / exact - 1;
        std::printf("mie2d: wl %.3f um  x %.3f  Mie %.5f um  dx 0.02: %.5f (%+.3f %%)  dx 0.01: %.5f (%+.3f %%)\n", wl,
                    x, exact, coarse.spectra[0].normalized[f], 100 * e_c, r.spectra[0].normalized[f], 100 * e_f);
        worst = std::max(worst, std::abs(e_f));
        rms_c += e_c * e_c;
        rms_f += e_f * e_f;
    }
    const double order = 0.5 * std::log(rms_c / rms_f) / std::log(2.0);
    std::printf("mie2d: rms error %.3f %% -> %.3f %%, order %.2f\n", 100 * std::sqrt(rms_c / 11),
                100 * std::sqrt(rms_f / 11), order);
    CHECK(worst < 0.01);
    CHECK(order > 1.0);
}

namespace {

struct SphereRun {
    std::vector<double> wavelength_um, sigma, exact, sigma_abs;
    double wall_s = 0;
    long long steps = 0, cells = 0;
    std::string backend;
    /// the scattering box's far field (FarFieldResult: 37 polar x 8 azimuthal angles) at
    /// the spectrum points nearest 0.5, 0.667 and 1.0 um
    FarFieldResult far;
    std::vector<double> flux_sigma_at_far;  ///< the box's sigma_sca at those points (um^2)
};

/// 3D: a dielectric sphere (index n, radius a) in a TF/SF box (propagation +z, E along x),
/// scattering box around it; float32. The sphere is a `sphere` shape of the project
/// (compile_3d.cpp: average_medium_3d, the full sub-pixel tensor) and run_project runs it.
SphereRun run_sphere(double dx, double a, double n, double wl_min, double wl_max, int points, double max_time_fs) {
    const double L = 2 * a + 0.5;  // 0.25 um to the PML (0.5 um and 16 PML cells change sigma by < 1e-3 at dx 0.04)
    const double c = L / 2;
    // A PML of constant physical thickness (0.25 um: 10 cells at dx 0.025, 20 at 0.0125), so
    // that a convergence study refines the scatterer, not the absorber's reflection too (a
    // fixed 10 cells put a floor of ~1 % under the long-wavelength end at dx 0.01).
    const int pml = std::max(10, int(std::lround(0.25 / dx)));
    Project p = vacuum_project(L, L, L, dx, pml, wl_min, wl_max, points);
    p.run.precision = Precision::Float32;
    p.run.stop.decay_db = 40;
    p.run.stop.max_time_fs = max_time_fs;
    // E along x: the plane x = c is a -1 (PEC) mirror plane of the sphere and the wave (an
    // even number of cells across, the TF/SF box centred on it), so the run steps half the
    // cells and reports the whole domain's spectra and far field (test_symmetry.cpp: equal
    // to the whole-domain run to float rounding).
    p.domain.symmetry = {-1, 0, 0};
    const double tf = a + 0.1, sc = a + 0.175;
    p.sources.push_back(tfsf("pw", {c - tf, c - tf, c - tf}, {c + tf, c + tf, c + tf}, "+z", Component::Ex,
                             pulse_for(wl_min, wl_max)));
    p.monitors.push_back(flux_box("sca", {c - sc, c - sc, c - sc}, {c + sc, c + sc, c + sc}, "scattering"));
    // its far field: 8 azimuths integrate the cos^2 / sin^2 phi dependence of a sphere's
    // pattern exactly (radiated_power's rectangle rule)
    FarFieldSettings ff;
    ff.wavelengths = {0.5, 0.667, 1.0};
    ff.theta_points = 37;
    ff.phi_points = 8;
    p.monitors.back().far_field = ff;
    // lossless sphere: the total field's net flux through a box inside the TF region is ~0
    const double ab = a + 0.05;
    p.monitors.push_back(flux_box("abs", {c - ab, c - ab, c - ab}, {c + ab, c + ab, c + ab}, "absorption"));
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
    sphere.center_3d = {c, c, c};
    sphere.radius = a;
    layer.shapes.push_back(sphere);
    p.layers.push_back(layer);
    // GOLIGHTLY_TEST_BACKEND=cuda|auto runs these runs on the GPU (the convergence study on
    // grids the CPU needs minutes for); unset: the CPU, as everywhere in CI.
    if (const char* b = std::getenv("GOLIGHTLY_TEST_BACKEND"))
        p.run.backend = std::string(b) == "cuda" ? BackendChoice::Cuda
                        : std::string(b) == "auto" ? BackendChoice::Auto
                                                   : BackendChoice::Cpu;
    const RunResult r = run_project(p, "sphere.glproj");
    SphereRun out;
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.steps = r.steps;
    out.cells = r.cells;
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
void check_far_field_vs_mie(const SphereRun& run, double a, double n) {
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
void check_sphere_vs_mie(double a, double n, double dx1, double dx2, double min_order, double dx_ref = 0) {
    if (!(dx_ref > 0)) dx_ref = dx2;
    const SphereRun coarse = run_sphere(dx1, a, n, 0.4, 1.0, 7, 200);
    const SphereRun fine = run_sphere(dx2, a, n, 0.4, 1.0, 7, 200);
    std::printf("mie3d: dx %.4f: %lld cells, %lld steps, %.1f s; dx %.4f: %lld cells, %lld steps, %.1f s (%s)\n", dx1,
                coarse.cells, coarse.steps, coarse.wall_s, dx2, fine.cells, fine.steps, fine.wall_s, fine.backend.c_str());
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

}  // namespace

TEST_CASE("3D TF/SF: dielectric sphere (eps 4, r = 0.3 um) scattering cross-section vs the Mie series at two "
          "resolutions", "[mie3d][slow][3d]") {
    // issue 14's case: x = 1.9 .. 4.7 over 0.4 .. 1.0 um; dx 0.025 / 0.0125 um (24 cells per
    // radius). Seen (full sub-pixel tensor; float32, CUDA and CPU alike): at dx 0.0125 within
    // 1.5 % from 0.4 to 1.0 um (+1.49 % at 0.4 um, -1.18 % at 0.667 um) except the narrow
    // resonance near 0.444 um (+2.79 %, 0.03 % with a 0.3 % wavelength shift); rms 5.29 % ->
    // 1.31 %, order 2.01. (With the tensor's diagonal entries only, as before the couplings
    // existed in 3D: rms 6.5 % -> 2.6 %, order 1.3.) On 2 cores 174 s on half the domain
    // (run_sphere's symmetry plane; the same figures as the whole domain's 4 minutes).
    check_sphere_vs_mie(0.3, 2.0, 0.025, 0.0125, 1.8);
}

TEST_CASE("3D TF/SF: dielectric sphere (eps 4, r = 0.3 um) vs the Mie series at dx 0.0125 / 0.00625 um (a "
          "convergence study: 17 M cells, minutes on 16 cores)", "[.][mie3d_fine]") {
    // Not in CI (hidden): the case on grids where the whole band, 0.4 um included,
    // holds at least 32 cells per wavelength inside the sphere at the finer dx. Seen
    // (GOLIGHTLY_TEST_BACKEND=cuda on an H100: 22.5 s for the 17 M-cell grid; 16 CPU threads
    // take about 7 minutes): at dx 0.00625 within 0.73 % over 0.4-1.0 um (+0.73 % at the
    // resonance near 0.444 um, +0.36 % at 0.4 um, -0.30 % at 0.667 um); rms 1.31 % -> 0.34 %,
    // order 1.96. (With the diagonal entries only the errors at 0.67-0.8 um fell at order
    // ~1: rms 2.64 % -> 1.11 %, order 1.25; the off-diagonal couplings were the missing
    // second order.)
    check_sphere_vs_mie(0.3, 2.0, 0.0125, 0.00625, 1.8);
}

TEST_CASE("3D TF/SF: dielectric sphere (eps 4, r = 0.5 um) scattering cross-section vs the Mie series at two "
          "resolutions", "[mie3d][slow][3d]") {
    // x = 3.1 .. 7.9 (narrow resonances). Run at dx 0.025 and 0.015 um and judged at dx
    // 0.0125 through second-order convergence (check_sphere_vs_mie): the dx 0.0125 run
    // itself (4.1 M cells, 9594 steps) took 827 s of the test's 869 s on a busy 2-core
    // machine; the dx 0.015 one (2.4 M cells, 7995 steps) takes half the cell updates (307 s
    // there). Seen: rms 5.32 % -> 1.70 %, order 2.23; sigma at dx 0.0125 from the two runs
    // against the dx 0.0125 run itself: -0.34 / -0.33 % at 1.0 um, -1.49 / -1.63 % and
    // -2.17 / -2.57 % at the narrow resonances near 0.8 and 0.571 um (0.05 % / 0.08 %
    // within 0.3 % of wl), +0.47 / +0.49 % at 0.667 um, -0.99 / -0.91 % at 0.444 um. (dx
    // 0.025 / 1.5 was cheaper still but off the trend: its scattering box falls between
    // grid planes, order 1.5.)
    check_sphere_vs_mie(0.5, 2.0, 0.025, 0.015, 1.8, 0.0125);
}

TEST_CASE("3D TF/SF: absorbing sphere (conductivity) absorption and scattering vs the Mie series",
          "[mie3d][3d][slow]") {
    // eps(w) = 4 + i sigma / (eps0 w), sigma = 1e4 S/m (m ~ 2 + 0.1i at 0.6 um), a = 0.3 um,
    // dx = 0.015 um: the absorption box (total field, inside the TF region) and the scattering
    // box (outside it) against Q_abs = Q_ext - Q_sca and Q_sca of the complex-index series.
    // Measured (0.5-1.0 um): sigma_abs within 1.4 %, sigma_sca within 1.2 % (dx 0.03: abs
    // +2.8..+6.6 %, dx 0.02: abs +0.3..+2.7 %: second order). About 11 s on 2 cores.
    const double a = 0.3, eps_inf = 4.0, sigma = 1e4, dx = 0.015;
    Material m;
    m.id = "lossy";
    m.epsilon_inf = eps_inf;
    m.conductivity = sigma;
    const Project p = tfsf_sphere_project(m, a, dx, 0.5, 1.0, 6);
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = run_project(p, "lossy.glproj");
    std::printf("lossy sphere: %lld cells, %lld steps (%s), %.1f s\n", (long long)r.cells, (long long)r.steps,
                to_string(r.stop_reason).c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    REQUIRE(r.spectra.size() == 2);
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        const double wl = units::hz_to_wavelength_um(r.frequency_hz[f]);
        const double w = 2 * units::pi * r.frequency_hz[f];
        const std::complex<double> eps(eps_inf, sigma / (units::eps0 * w));
        const auto q = mie::sphere_efficiencies(2 * units::pi * a / wl, std::sqrt(eps));
        const double area = units::pi * a * a;
        const double e_sca = r.spectra[0].normalized[f] / (q.sca * area) - 1;
        const double e_abs = r.spectra[1].normalized[f] / (q.abs() * area) - 1;
        std::printf("lossy sphere: wl %.3f um  m %.3f%+.3fi  sigma_sca %.5f (Mie %.5f, %+.2f %%)  sigma_abs %.5f "
                    "(Mie %.5f, %+.2f %%) um^2\n",
                    wl, std::sqrt(eps).real(), std::sqrt(eps).imag(), r.spectra[0].normalized[f], q.sca * area,
                    100 * e_sca, r.spectra[1].normalized[f], q.abs() * area, 100 * e_abs);
        CHECK(std::abs(e_sca) < 0.02);
        CHECK(std::abs(e_abs) < 0.02);
    }
}
