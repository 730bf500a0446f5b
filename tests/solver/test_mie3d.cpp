// TF/SF cross-sections (run.hpp tfsf_incident_intensity, FluxSpectrumResult::normalized):
// - the Mie series of the tests (mie_series.hpp) against their Rayleigh limits;
// - an empty 3D TF/SF box: scattering and absorption cross-sections ~0, and the plane-wave
//   power through a plane inside the box equals I_inc times its area (times the flux
//   plane's lattice factor cos(k~ dx/2));
// - 2D: a dielectric cylinder (TMz) against the cylinder Mie series;
// - 3D [slow]: a dielectric sphere (project shape) against the Mie series at two
//   resolutions (mie_sphere_check.hpp; the r = 0.5 um sphere runs in the GPU suite).
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
#include "mie_sphere_check.hpp"
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

TEST_CASE("3D TF/SF: dielectric sphere (eps 4, r = 0.3 um) scattering cross-section vs the Mie series at two "
          "resolutions", "[mie3d][slow][3d]") {
    // issue 14's case: x = 1.9 .. 4.7 over 0.4 .. 1.0 um; dx 0.025 / 0.0125 um (24 cells per
    // radius). Seen (full sub-pixel tensor; float32, CUDA and CPU alike): at dx 0.0125 within
    // 1.5 % from 0.4 to 1.0 um (+1.49 % at 0.4 um, -1.18 % at 0.667 um) except the narrow
    // resonance near 0.444 um (+2.79 %, 0.03 % with a 0.3 % wavelength shift); rms 5.29 % ->
    // 1.31 %, order 2.01. (With the tensor's diagonal entries only, as before the couplings
    // existed in 3D: rms 6.5 % -> 2.6 %, order 1.3.) On 2 cores 174 s on half the domain
    // (run_sphere's symmetry plane; the same figures as the whole domain's 4 minutes).
    // Now on a quarter of the domain (the planes x = centre, -1, and y = centre, +1; the
    // domain one cell longer in y and the sphere at a cell centre there: run_sphere's
    // y_plane): every sigma within 0.1 % of the half-domain run's (rms 5.29 % -> 1.31 %,
    // order 2.01, as above); the two run side by side on the busy 2-core machine: 208 s
    // against 280 s (the stepping is about half of the time; the DFT boxes and the TF/SF
    // faces the rest).
    check_sphere_vs_mie(0.3, 2.0, 0.025, 0.0125, 1.8, 0, BackendChoice::Cpu, true);
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
          "resolutions", "[.][mie3d_r05]") {
    // Hidden in the CPU suite (3.5 minutes of CI's 2 cores): the GPU suite runs this case
    // on the CUDA engine (tests/gpu/cuda_mie_sphere.cpp, scripts/gpu-check.sh); run it here
    // with `golightly_solver_tests "[mie3d_r05]"`. The r = 0.3 um case above keeps the CPU
    // engine's sphere against the series in CI.
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
