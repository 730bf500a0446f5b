// Bloch-periodic boundaries and complex fields (scene.hpp "Bloch-periodic axes and complex
// fields"; issue #51 items 2 and 3).
//
// Engine exactness: a Bloch run of period L with phase phi = 2 pi / N is, by linearity,
// the real part of a real run on the N L supercell whose copies m = 0..N-1 of the sources
// carry weights Re(w e^{i m phi}) (w the complex source weight): the supercell field obeys
// F(x + L) = e^{i phi} F(x) for the complex source, and the real run is its real part. So
// Re F(x) = supercell(x) and, from Re F(x + L) = cos(phi) Re F(x) - sin(phi) Im F(x),
// Im F(x) = (cos(phi) supercell(x) - supercell(x + L)) / sin(phi), both to rounding
// (the same arithmetic in another order): no tolerance from the method enters.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../common/bloch_cases.hpp"
#include "../common/test_scenes.hpp"
#include "cli_runner.hpp"
#include "engine3d_scenes.hpp"
#include "golightly/capabilities.hpp"
#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/partition.hpp"
#include "golightly/run.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"
#include "test_files.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

constexpr double kPi = 3.14159265358979323846;

double bloch_vs_supercell(const BlochCase& bc, Precision precision, int steps) {
    BlochPair pair = make_bloch_pair(bc);
    const Scene& cell1 = pair.cell;
    const Scene& super = pair.super;
    const std::vector<Component>& comps = pair.comps;
    const double phi = pair.phi;
    auto a = make_cpu_engine(cell1, precision, 1);
    auto b = make_cpu_engine(super, precision, 1);
    a->step(steps);
    b->step(steps);
    REQUIRE(a->steps_done() == steps);
    double rel = 0;  // the largest relative deviation of any component
    const std::complex<double> I(0, 1);
    for (std::size_t k = 0; k < comps.size(); ++k) {
        // Re F in the time domain
        double dev = 0, scale = 0;
        std::vector<double> re, sup;
        a->get_field(comps[k], re);
        b->get_field(comps[k], sup);
        for (int along = 0; along < bc.period; ++along)
            for (int across = 0; across < bc.across; ++across) {
                int i, j;
                ij(bc, along, across, i, j);
                const double s0 = sup[std::size_t(cell(super, i, j))];
                scale = std::max(scale, std::abs(s0));
                dev = std::max(dev, std::abs(re[std::size_t(cell(cell1, i, j))] - s0));
            }
        // the complex DFT: X = X_sup(x) + i (cos phi X_sup(x) - X_sup(x + L)) / sin phi
        const auto xa = a->dft(int(k)), xb = b->dft(int(k));
        const std::size_t nf = 2, per = std::size_t(bc.period);
        double dscale = 0, ddev = 0;
        for (std::size_t l = 0; l < 3; ++l)
            for (std::size_t q = 0; q < per; ++q)
                for (std::size_t f = 0; f < nf; ++f) {
                    const std::complex<double> s0 = xb[((l * 2 * per) + q) * nf + f];
                    const std::complex<double> s1 = xb[((l * 2 * per) + q + per) * nf + f];
                    const std::complex<double> want = s0 + I * (std::cos(phi) * s0 - s1) / std::sin(phi);
                    dscale = std::max(dscale, std::abs(want));
                    ddev = std::max(ddev, std::abs(xa[(l * per + q) * nf + f] - want));
                }
        REQUIRE(scale > 0);
        REQUIRE(dscale > 0);
        rel = std::max({rel, dev / scale, ddev / dscale});
    }
    return rel;
}

}  // namespace

TEST_CASE("Bloch phase the complex cell is the real part of the supercell run", "[bloch]") {
    for (const BlochCase& bc : all_2d_bloch_cases()) {
        INFO(describe(bc));
        // float64: the two runs differ only in rounding
        const double rel = bloch_vs_supercell(bc, Precision::Float64, 400);
        CHECK(rel < 1e-11);
        std::printf("Bloch vs supercell %s: largest relative deviation %.1e\n", describe(bc).c_str(), rel);
    }
}

// ------------------------------------------------------------------------------------
// Oblique Fresnel through the whole chain (compile_project -> CPU engine -> run driver
// with a vacuum reference run): a one-way line (2D) or plane (3D) source at angle theta_c
// (at its centre wavelength lambda_c = 1 um) over a Bloch-periodic x axis (period 0.04 um),
// a dielectric half-space (eps 2.25) beyond 1.5 um along the propagation axis. The Bloch k
// is fixed across the band, so at vacuum wavelength lambda the angle is
// theta(lambda) = asin(k_par lambda / (2 pi)) (as Meep and Tidy3D).
// Fresnel (Born & Wolf sec. 1.5.2, eqs. 20-21), n1 = 1, n2 = 1.5, cos(theta_t) from Snell:
//   r_s = (cos(theta) - n2 cos(theta_t)) / (cos(theta) + n2 cos(theta_t))   (2D TMz: E normal
//   to the plane of incidence), r_p = (n2 cos(theta) - cos(theta_t)) / (n2 cos(theta) +
//   cos(theta_t)) (2D TEz), R = |r|^2, T = 1 - R (lossless; the monitors take the flux
//   normal to the interface).
// Band: 0.95-1.05 um from a pulse of span 0.2 um; a broader pulse puts power near the
// fixed-k cutoff (lambda = 2 pi / k_par, 1.155 um at 60 degrees), whose grazing waves
// leave the cell slowly (in the vacuum reference run most) and ring in the DFTs long
// after the in-band power has gone.
// Tolerances: the issue asks for 0.5 % (absolute, as test_fresnel.cpp) at 30 and 60
// degrees. That the deviation is the method's discretisation error is checked by
// refining the grid (30 degrees, and the slow [.bloch-slow] cases): the Yee scheme is
// second order, so the error at h/2 must be at most the Richardson estimate
// |R(h) - R(h/2)| / 3 of it (times 2 for the estimate's own uncertainty) plus a floor of
// 2e-4 for what does not shrink with h (CPML reflection at oblique incidence, the DFTs'
// truncation); a wrong angle, phase or sheet impedance gives errors that do not fall off
// with h and fails it. Energy: |R + T - 1| <= 1e-3 (the scheme conserves it; what is
// left is truncation and CPML).

namespace {

struct ObliqueResult {
    std::vector<double> wavelength_um, R, T;
};

/// The 2D (dims 2; pol TMz = s, TEz = p) or 3D (pol3 "s" / "p") half-space project.
Project oblique_project(int dims, Polarization pol, const char* pol3, double angle_deg, double dx,
                        double max_time_fs) {
    const double Lx = 0.04, Ly = 0.04, Lz = 3.0;  // 2D: x, then y = propagation (Lz)
    Project p;
    p.name = "oblique fresnel";
    p.domain.dimensions = dims;
    p.domain.cell_size = dx;
    p.domain.pml.cells = int(std::lround(0.4 / dx));
    p.domain.bloch = {true, false, false};
    if (dims == 2) {
        p.domain.size = {Lx, Lz, 0.0};
        p.domain.polarization = pol;
        p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Pml, BoundaryKind::Pml};
    } else {
        p.domain.size = {Lx, Ly, Lz};
        p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Periodic, BoundaryKind::Pml};
    }
    Material m;
    m.id = "glass";
    m.name = "glass";
    m.epsilon_inf = 2.25;
    p.materials.push_back(m);
    Layer layer;
    layer.name = "half-space";
    layer.material = "glass";
    Shape half;
    // the interface off the E nodes of both resolutions (their positions are multiples of dx/2)
    const double z_i = 1.5 + 0.25 * dx;
    if (dims == 2) {
        half.type = ShapeType::Rectangle;
        half.min = {0.0, z_i};
        half.max = {Lx, Lz};
    } else {
        half.type = ShapeType::Box;
        half.box_min = {-1.0, -1.0, z_i};
        half.box_max = {Lx + 1, Ly + 1, Lz + 1};
    }
    layer.shapes.push_back(half);
    p.layers.push_back(layer);
    Source s;
    s.name = "oblique plane wave";
    if (dims == 2) {
        s.type = SourceType::Line;
        s.from = {0.0, 0.5};
        s.to = {Lx, 0.5};
        s.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
        s.extra["direction"] = "+y";
    } else {
        s.type = SourceType::Plane;
        s.center = {0.5 * Lx, 0.5 * Ly, 0.5};
        s.size = {Lx, Ly, 0.0};
        s.component = Component::Ex;
        s.polarization = pol3;
        s.extra["direction"] = "+z";
    }
    s.profile = SourceProfile::Uniform;
    s.angle_deg = angle_deg;
    s.waveform.type = WaveformType::GaussianPulse;
    s.waveform.wavelength_center = 1.0;
    s.waveform.wavelength_span = 0.2;
    p.sources.push_back(s);
    Monitor r;
    r.name = "R";
    r.type = MonitorType::Flux;
    r.kind = "reflection";
    Monitor t = r;
    t.name = "T";
    t.kind = "transmission";
    if (dims == 2) {
        r.from = {0.0, 1.0};
        r.to = {Lx, 1.0};
        r.direction = "-y";
        t.from = {0.0, 2.2};
        t.to = {Lx, 2.2};
        t.direction = "+y";
    } else {
        r.center = {0.5 * Lx, 0.5 * Ly, 1.0};
        r.size = {Lx, Ly, 0.0};
        r.direction = "-z";
        t.center = {0.5 * Lx, 0.5 * Ly, 2.2};
        t.size = r.size;
        t.direction = "+z";
    }
    p.monitors.push_back(r);
    p.monitors.push_back(t);
    p.run.spectrum.wavelength_min = 0.95;
    p.run.spectrum.wavelength_max = 1.05;
    p.run.spectrum.points = 11;
    p.run.courant = 0.5;
    p.run.stop.decay_db = 80;
    p.run.stop.max_time_fs = max_time_fs;
    p.run.normalization.enabled = true;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    return p;
}

ObliqueResult run_oblique(int dims, Polarization pol, const char* pol3, double angle_deg, double dx,
                          double max_time_fs = 1500, Precision precision = Precision::Float64, int threads = 2) {
    Project p = oblique_project(dims, pol, pol3, angle_deg, dx, max_time_fs);
    p.run.precision = precision;
    if (const char* dump = std::getenv("BLOCH_DUMP")) save_project(p, dump);
    RunOptions opts;
    opts.backend = BackendChoice::Cpu;
    opts.threads = threads;
    const RunResult res = run_project(p, "oblique_fresnel", opts);
    if (std::getenv("BLOCH_VERBOSE"))
        std::printf("run %dD %s %.2f deg dx %.3f: %lld steps (reference %lld), stop %s, %.2f s\n", dims,
                    dims == 2 ? (pol == Polarization::TMz ? "s" : "p") : pol3, angle_deg, dx, (long long)res.steps,
                    (long long)res.reference_steps, to_string(res.stop_reason).c_str(), res.wall_s);
    REQUIRE(res.normalized);
    REQUIRE(res.spectra.size() == 2);
    ObliqueResult out;
    for (std::size_t f = 0; f < res.frequency_hz.size(); ++f)
        out.wavelength_um.push_back(units::hz_to_wavelength_um(res.frequency_hz[f]));
    out.R = res.spectra[0].normalized;
    out.T = res.spectra[1].normalized;
    return out;
}

/// Fresnel R of vacuum -> n2 at the fixed-k angle of vacuum wavelength wl (um); s: true
/// for s polarization.
double fresnel_R(bool s_pol, double angle_c_deg, double wl_um, double n2) {
    const double s = std::sin(angle_c_deg * kPi / 180) * wl_um / 1.0;  // sin(theta(lambda)), lambda_c = 1 um
    const double ci = std::sqrt(1 - s * s), ct = std::sqrt(1 - s * s / (n2 * n2));
    const double r = s_pol ? (ci - n2 * ct) / (ci + n2 * ct) : (n2 * ci - ct) / (n2 * ci + ct);
    return r * r;
}

/// The 0.5 % and energy checks of one run; returns the largest |R - R_F|, |T - T_F|.
double check_against_fresnel(const ObliqueResult& r, bool s_pol, double angle_deg, const std::string& what) {
    double worst = 0;
    for (std::size_t f = 0; f < r.R.size(); ++f) {
        const double wl = r.wavelength_um[f];
        const double Rf = fresnel_R(s_pol, angle_deg, wl, 1.5), Tf = 1 - Rf;
        INFO(what << ", lambda " << wl << " um (theta " << std::asin(std::sin(angle_deg * kPi / 180) * wl) * 180 / kPi
                  << " deg): R " << r.R[f] << " vs Fresnel " << Rf << ", T " << r.T[f] << " vs " << Tf);
        CHECK(std::abs(r.R[f] - Rf) < 0.005);
        CHECK(std::abs(r.T[f] - Tf) < 0.005);
        CHECK(std::abs(r.R[f] + r.T[f] - 1) < 1e-3);
        worst = std::max({worst, std::abs(r.R[f] - Rf), std::abs(r.T[f] - Tf)});
    }
    return worst;
}

/// Runs at h and h/2 and applies the Richardson criterion (top of this section) to h/2.
void check_refined(int dims, Polarization pol, const char* pol3, double angle_deg, double max_time_fs) {
    const bool s_pol = dims == 2 ? pol == Polarization::TMz : std::string(pol3) == "s";
    const std::string what = std::to_string(dims) + "D " + (s_pol ? "s" : "p") + " at " +
                             std::to_string(int(angle_deg)) + " deg";
    const double h = 0.02;
    const ObliqueResult coarse = run_oblique(dims, pol, pol3, angle_deg, h, max_time_fs);
    const ObliqueResult fine = run_oblique(dims, pol, pol3, angle_deg, h / 2, max_time_fs);
    REQUIRE(coarse.R.size() == fine.R.size());
    const double worst_h = check_against_fresnel(coarse, s_pol, angle_deg, what + ", h"),
                 worst = check_against_fresnel(fine, s_pol, angle_deg, what + ", h/2");
    double max_est = 0;
    for (std::size_t f = 0; f < fine.R.size(); ++f) {
        const double Rf = fresnel_R(s_pol, angle_deg, fine.wavelength_um[f], 1.5), Tf = 1 - Rf;
        const double est_r = std::abs(coarse.R[f] - fine.R[f]) / 3, est_t = std::abs(coarse.T[f] - fine.T[f]) / 3;
        if (std::getenv("BLOCH_VERBOSE"))
            std::printf("  %.4f um: R %.6f (h %.6f) F %.6f | T %.6f (h %.6f) | R+T-1 %.1e (h %.1e)\n",
                        fine.wavelength_um[f], fine.R[f], coarse.R[f], Rf, fine.T[f], coarse.T[f],
                        fine.R[f] + fine.T[f] - 1, coarse.R[f] + coarse.T[f] - 1);
        INFO(what << ", lambda " << fine.wavelength_um[f] << ": R " << fine.R[f] << " (h: " << coarse.R[f]
                  << ") vs Fresnel " << Rf << ", T " << fine.T[f] << " (h: " << coarse.T[f] << ")");
        CHECK(std::abs(fine.R[f] - Rf) <= 2 * est_r + 2e-4);
        CHECK(std::abs(fine.T[f] - Tf) <= 2 * est_t + 2e-4);
        max_est = std::max({max_est, est_r, est_t});
    }
    std::printf("oblique Fresnel %s: max |R-R_F|, |T-T_F| %.2e at h = 0.02 um, %.2e at h/2 (Richardson estimate "
                "up to %.2e)\n",
                what.c_str(), worst_h, worst, max_est);
}

/// One run at h = 0.02 um against Fresnel (the 0.5 % and energy checks).
void check_single(int dims, Polarization pol, const char* pol3, double angle_deg, double max_time_fs = 1500,
                  int threads = 2) {
    const bool s_pol = dims == 2 ? pol == Polarization::TMz : std::string(pol3) == "s";
    const std::string what = std::to_string(dims) + "D " + (s_pol ? "s" : "p") + " at " +
                             std::to_string(int(angle_deg)) + " deg";
    const ObliqueResult r = run_oblique(dims, pol, pol3, angle_deg, 0.02, max_time_fs, Precision::Float64, threads);
    const double worst = check_against_fresnel(r, s_pol, angle_deg, what);
    std::printf("oblique Fresnel %s: max |R-R_F|, |T-T_F| %.2e at h = 0.02 um\n", what.c_str(), worst);
}

}  // namespace

TEST_CASE("Bloch oblique Fresnel 2D s and p at 30 degrees with grid refinement", "[bloch][physics]") {
    check_refined(2, Polarization::TMz, "", 30, 1500);
    check_refined(2, Polarization::TEz, "", 30, 1500);
}

// [slow]: out of the sanitized suite (its longest case there, 3000 fs of complex fields: 259 s
// under ASan on a busy 2-core machine); the 30 degree cases below take the same code path.
//
// One engine thread: the 2D cell is 2 columns by 190 rows (microseconds of work per step),
// and two threads meet at barriers several times in each of the tens of thousands of steps
// of the 3000 fs runs, so on a busy machine each barrier waits for a core: with two threads
// this case took 585 s on a 2-core machine at load 11, with one 67 s (the same figures).
// The 30 degree cases keep two threads on the same path.
TEST_CASE("Bloch oblique Fresnel 2D s and p at 60 degrees", "[bloch][physics][slow]") {
    check_single(2, Polarization::TMz, "", 60, 3000, 1);  // the reference run's 80 dB decay takes ~2 ps
    check_single(2, Polarization::TEz, "", 60, 3000, 1);
}

TEST_CASE("Bloch oblique Fresnel 3D s and p at 30 degrees", "[bloch][physics][3d]") {
    check_single(3, Polarization::TMz, "s", 30);
    check_single(3, Polarization::TMz, "p", 30);
}

TEST_CASE("Bloch Brewster angle p (TEz) at atan(1.5)", "[bloch][physics]") {
    const double theta_b = std::atan(1.5) * 180 / kPi;  // 56.31 degrees
    const ObliqueResult r = run_oblique(2, Polarization::TEz, "", theta_b, 0.02);
    std::size_t mid = 0;  // the spectrum point nearest lambda_c = 1 um, where theta = theta_B
    for (std::size_t f = 0; f < r.R.size(); ++f)
        if (std::abs(r.wavelength_um[f] - 1.0) < std::abs(r.wavelength_um[mid] - 1.0)) mid = f;
    INFO("lambda " << r.wavelength_um[mid] << " um: R_p " << r.R[mid]);
    CHECK(std::abs(r.wavelength_um[mid] - 1.0) < 0.005);
    CHECK(r.R[mid] < 1e-4);
    // off the centre the fixed k moves the angle off Brewster's, and R_p follows Fresnel
    CHECK(r.R.front() == Approx(fresnel_R(false, theta_b, r.wavelength_um.front(), 1.5)).margin(0.005));
    CHECK(r.R.back() == Approx(fresnel_R(false, theta_b, r.wavelength_um.back(), 1.5)).margin(0.005));
    std::printf("Brewster %.2f deg (2D p, h = 0.02 um): R_p %.2e at %.4f um (Fresnel %.2e); %.2e at %.3f um "
                "(Fresnel %.2e)\n",
                theta_b, r.R[mid], r.wavelength_um[mid], fresnel_R(false, theta_b, r.wavelength_um[mid], 1.5),
                r.R.back(), r.wavelength_um.back(), fresnel_R(false, theta_b, r.wavelength_um.back(), 1.5));
}

TEST_CASE("Bloch float32 oblique run", "[bloch][physics]") {
    const ObliqueResult r =
        run_oblique(2, Polarization::TMz, "", 30, 0.02, 1500, Precision::Float32);
    const double worst = check_against_fresnel(r, true, 30, "2D s at 30 deg, float32");
    std::printf("oblique Fresnel 2D s at 30 deg, float32: max |R-R_F|, |T-T_F| %.2e at h = 0.02 um\n", worst);
}

// The slow cases (the 60 degree reference runs ring near the fixed-k cutoff for ~2 ps):
// refinement at 60 degrees in 2D and 3D. Hidden; run with "[.bloch-slow]".
TEST_CASE("Bloch oblique Fresnel at 60 degrees with grid refinement", "[.bloch-slow][physics]") {
    check_refined(2, Polarization::TMz, "", 60, 3000);
    check_refined(2, Polarization::TEz, "", 60, 3000);
}

TEST_CASE("Bloch oblique Fresnel 3D s and p at 60 degrees", "[.bloch-slow][physics][3d]") {
    check_single(3, Polarization::TMz, "s", 60, 3000);
    check_single(3, Polarization::TMz, "p", 60, 3000);
}

TEST_CASE("Bloch k = 0 forced complex gives the real run R and T", "[bloch]") {
    // Normal incidence through compile_project; the same scene stepped with real and with
    // complex fields (Scene::complex_fields, no Bloch phase): the imaginary copy stays 0,
    // so the complex DFTs, and every flux from them, equal the real ones exactly.
    Project p = oblique_project(2, Polarization::TMz, "", 0.0, 0.02, 1500);
    const CompiledProject cp = compile_project(p, "k0");
    REQUIRE_FALSE(cp.scene.complex_fields);
    Scene cs = cp.scene;
    cs.complex_fields = true;
    auto real = make_cpu_engine(cp.scene, Precision::Float64, 1);
    auto cplx = make_cpu_engine(cs, Precision::Float64, 1);
    real->step(3000);
    cplx->step(3000);
    REQUIRE(cp.scene.dft_sets.size() >= 2);
    for (std::size_t k = 0; k < cp.scene.dft_sets.size(); ++k) {
        const auto a = real->dft(int(k)), b = cplx->dft(int(k));
        REQUIRE(a.size() == b.size());
        double peak = 0;
        for (std::size_t q = 0; q < a.size(); ++q) {
            CHECK(b[q] == a[q]);
            peak = std::max(peak, std::abs(a[q]));
        }
        CHECK(peak > 0);
    }
    CHECK(cplx->field_energy() == Approx(real->field_energy()).epsilon(1e-14));
}

TEST_CASE("Bloch complex fields: partitions cut across the Bloch axis and need a periodic cut axis for one along "
          "it, CUDA engines take them",
          "[bloch]") {
    Scene sc = make_periodic_slab(16, 40, Polarization::TMz, 20, 24, 4.0, 8);
    sc.complex_fields = true;
    sc.bloch_phase[0] = 0.3;
    // the CUDA engines step complex fields (tests/gpu/cuda_bloch.cpp); here, without a GPU,
    // the only refusal is the missing device, in 2D and 3D
    for (int dims : {2, 3}) {
        Scene s = sc;
        s.dimensions = dims;
        const auto why = cuda_cannot_run(s, Precision::Float32);
        if (why) CHECK(why->kind == Unsupported::Kind::NoDevice);
    }
    CHECK_FALSE(cpu_cannot_run(sc, Precision::Float32).has_value());
    // the cut runs along y (2D): a Bloch phase along x is cut like real fields; one along y
    // needs y periodic (here PML), naming the axis (test_partition.cpp and
    // test_distributed_bloch.cpp compare cut runs with one domain)
    CHECK(partition_scene(sc, 2).subs.at(1).scene.complex_fields);
    Scene along_cut = sc;
    along_cut.bloch_phase[1] = 0.2;
    CHECK_THROWS_WITH(partition_scene(along_cut, 2), Catch::Contains("a Bloch phase along y") &&
                                                         Catch::Contains("periodic boundary"));
    // the CPU engine refuses a Bloch phase on an axis that is not periodic, and one without complex fields
    Scene bad = sc;
    bad.bloch_phase[1] = 0.2;  // y is PML
    CHECK_THROWS_WITH(make_cpu_engine(bad, Precision::Float64, 1), Catch::Contains("periodic"));
    Scene real = sc;
    real.complex_fields = false;
    CHECK_THROWS_WITH(make_cpu_engine(real, Precision::Float64, 1), Catch::Contains("complex fields"));
    // the memory estimate counts the second copy
    Scene r2 = sc;
    r2.complex_fields = false;
    r2.bloch_phase[0] = 0;
    CHECK(engine_state_bytes(sc, Precision::Float64) > engine_state_bytes(r2, Precision::Float64));
}

TEST_CASE("Bloch project fields: the example, round trip, bloch_k units and errors", "[bloch]") {
    namespace fs = std::filesystem;
    const Project ex = load_project(fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "oblique_slab.glproj");
    CHECK(ex.domain.bloch[0]);
    CHECK(ex.domain.boundaries[0] == BoundaryKind::Periodic);
    const CompiledProject c = compile_project(ex, "oblique_slab.glproj");
    // k_par = n k0 sin(30 deg) = pi rad/um at lambda_c = 1 um; the phase over the 0.2 um period
    CHECK(c.scene.complex_fields);
    CHECK(c.scene.bloch_phase[0] == Approx(kPi * 0.2).epsilon(1e-12));
    CHECK(c.scene.bloch_phase[1] == 0);
    // save / load keeps "bloch", bloch_k and the source's angle
    Project q = ex;
    q.domain.bloch_k = std::array<double, 3>{0.1, 0.0, 0.0};
    q.sources[0].angle_deg = 0;
    const Project back = parse_project(project_to_json(q).dump(), "q");
    CHECK(back.domain.bloch == q.domain.bloch);
    CHECK(back.domain.bloch_k == q.domain.bloch_k);
    CHECK(back.sources[0].angle_deg == 0);
    CHECK(project_to_json(ex)["domain"]["boundaries"]["x"] == "bloch");
    Project ended = ex;  // an editor setting another boundary kind ends the Bloch axis
    ended.domain.boundaries[0] = BoundaryKind::Pml;
    CHECK_FALSE(ended.domain.is_bloch(0));
    CHECK(project_to_json(ended)["domain"]["boundaries"]["x"] == "pml");
    // bloch_k in 2 pi / a: 0.1 of the zone -> phase 0.2 pi; in 1/um: k L
    CHECK(compile_project(q, "q").scene.bloch_phase[0] == Approx(2 * kPi * 0.1).epsilon(1e-12));
    q.domain.bloch_k_unit = "1/um";
    CHECK(compile_project(q, "q").scene.bloch_phase[0] == Approx(0.1 * 0.2).epsilon(1e-12));
    // errors name the file and the field
    Project bad = ex;
    bad.domain.bloch_k = std::array<double, 3>{0.0, 0.1, 0.0};
    CHECK_THROWS_WITH(compile_project(bad, "bad.glproj"), Catch::Contains("domain.bloch_k") && Catch::Contains("y"));
    bad = ex;
    bad.domain.bloch = {false, false, false};
    CHECK_THROWS_WITH(compile_project(bad, "bad.glproj"), Catch::Contains("sources[0].angle_deg"));
    bad = ex;
    bad.domain.bloch_k = std::array<double, 3>{0.3, 0.0, 0.0};  // not the source's k
    CHECK_THROWS_WITH(compile_project(bad, "bad.glproj"), Catch::Contains("differs from domain.bloch_k"));
    Json j = project_to_json(ex);
    j["domain"]["bloch_k_unit"] = "rad";
    CHECK_THROWS_WITH(parse_project(j.dump(), "bad.glproj"), Catch::Contains("domain.bloch_k_unit"));
}

TEST_CASE("Bloch oblique one-way source: no backward power at the centre wavelength", "[bloch][physics]") {
    // The sheet pair uses the grid's normal index n_perp = sqrt(eps k0~^2 - kx~^2) / k0~
    // (compile_bloch.cpp), exact for the discrete plane wave at the centre frequency, so the
    // power radiated backwards vanishes there (up to the spectrum point's offset from
    // lambda_c: ((n_perp(l) - n_perp(l_c)) / (2 n_perp))^2 ~ 1e-6). With the normal-incidence
    // impedance instead (n), it would be ((cos(theta) - 1) / (cos(theta) + 1))^2 = 5e-3 at
    // 30 degrees.
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        Project p = oblique_project(2, pol, "", 30, 0.02, 1500);
        p.layers.clear();
        p.run.normalization.enabled = false;
        p.monitors[0].name = "back";
        p.monitors[0].from.y = p.monitors[0].to.y = 0.25;  // behind the source (y = 0.5)
        p.monitors[0].kind = "flux";
        p.monitors[0].direction = "-y";
        p.monitors[1].name = "forward";
        p.monitors[1].kind = "flux";
        RunOptions opts;
        opts.backend = BackendChoice::Cpu;
        opts.threads = 2;
        const RunResult res = run_project(p, "oneway", opts);
        REQUIRE(res.spectra.size() == 2);
        std::size_t mid = 0;
        for (std::size_t f = 0; f < res.frequency_hz.size(); ++f)
            if (std::abs(units::hz_to_wavelength_um(res.frequency_hz[f]) - 1.0) <
                std::abs(units::hz_to_wavelength_um(res.frequency_hz[mid]) - 1.0))
                mid = f;
        const double ratio = res.spectra[0].flux[mid] / res.spectra[1].flux[mid];
        INFO((pol == Polarization::TMz ? "s" : "p") << ": backward / forward power " << ratio);
        CHECK(res.spectra[1].flux[mid] > 0);
        CHECK(std::abs(ratio) < 1e-4);
        std::printf("oblique one-way source %s at 30 deg: backward / forward power %.1e at %.4f um\n",
                    pol == Polarization::TMz ? "s" : "p", ratio, units::hz_to_wavelength_um(res.frequency_hz[mid]));
    }
}

// 3D: the supercell identity of the first test case for a Bloch phase along x, y and z in
// turn (the x edge value, the y and z ghost planes of engine_cpu3d.cpp), all six components.

TEST_CASE("Bloch phase 3D the complex cell is the real part of the supercell run", "[bloch][3d]") {
    for (int a = 0; a < 3; ++a) {
        const BlochPair pair = make_bloch_pair3(a);
        const Scene& cell1 = pair.cell;
        const Scene& super = pair.super;
        const int period = kBloch3Period;
        const double phi = pair.phi;
        auto ea = make_cpu_engine(cell1, Precision::Float64, 1);
        auto eb = make_cpu_engine(super, Precision::Float64, 1);
        ea->step(200);
        eb->step(200);
        double rel = 0;
        const std::complex<double> I(0, 1);
        for (int c = 0; c < 6; ++c) {
            const auto xa = ea->dft(c), xb = eb->dft(c);
            double scale = 0, dev = 0;
            for (std::size_t l = 0; l < 3; ++l)
                for (std::size_t q = 0; q < std::size_t(period); ++q) {
                    const std::complex<double> s0 = xb[l * 2 * period + q], s1 = xb[l * 2 * period + q + period];
                    const std::complex<double> want = s0 + I * (std::cos(phi) * s0 - s1) / std::sin(phi);
                    scale = std::max(scale, std::abs(want));
                    dev = std::max(dev, std::abs(xa[l * period + q] - want));
                }
            REQUIRE(scale > 0);
            rel = std::max(rel, dev / scale);
        }
        INFO("Bloch axis " << "xyz"[a]);
        CHECK(rel < 1e-11);
        std::printf("Bloch vs supercell 3D, axis %c: largest relative deviation %.1e\n", "xyz"[a], rel);
    }
}

TEST_CASE("check prints the Bloch k: rad/um, 2pi/a and the oblique source's angle", "[bloch][cli]") {
    namespace fs = std::filesystem;
    const test::Scratch scratch("test", "check_bloch");  // its own folder: the Release and ASan suites may run at once
    const fs::path dir = scratch.path;
    const std::string root = std::string(GOLIGHTLY_SOURCE_DIR);
    // The 20-degree grating: a line source in SiO2 (n 1.45) at 20 degrees at 0.85 um sets
    // k_x = n 2 pi sin(20 deg) / 0.85 um (project-format.md "Oblique plane waves"); the
    // period is 1 um, so k_x a / (2 pi) = 1.45 sin(20 deg) / 0.85.
    const double kx = 1.45 * 2 * units::pi * std::sin(20 * units::pi / 180) / 0.85;
    const test::CliOut j = test::run_cli("check '" + root + "/validation/meep_grating_20deg.glproj' --json", dir);
    INFO(j.err);
    REQUIRE(j.code == 0);
    const nlohmann::json c = nlohmann::json::parse(j.out);
    REQUIRE(c.contains("bloch"));
    const nlohmann::json& b = c["bloch"];
    CHECK(b["axes"] == nlohmann::json::array({"x"}));
    CHECK(b["k_per_um"][0].get<double>() == Approx(kx).epsilon(1e-9));
    CHECK(b["k_per_um"][1].get<double>() == 0.0);
    CHECK(b["k_2pi_per_a"][0].get<double>() == Approx(kx / (2 * units::pi)).epsilon(1e-9));
    CHECK(b["period_um"][0].get<double>() == Approx(1.0).epsilon(1e-12));
    CHECK(b["period_um"][1].is_null());
    CHECK(b["complex_fields"] == true);
    CHECK(b["source"] == "plane wave");
    CHECK(b["angle_deg_at_center"].get<double>() == 20.0);
    CHECK(b["wavelength_center_um"].get<double>() == 0.85);
    const test::CliOut t = test::run_cli("check '" + root + "/validation/meep_grating_20deg.glproj'", dir);
    REQUIRE(t.code == 0);
    char expect[200];
    std::snprintf(expect, sizeof expect, "Bloch k: x %.6g rad/um (%.6g 2pi/a, a = 1 um); complex fields\n", kx,
                  kx / (2 * units::pi));
    CHECK(t.out.find(expect) != std::string::npos);
    CHECK(t.out.find("Bloch source \"plane wave\": angle 20 deg at its centre wavelength 0.85 um\n") !=
          std::string::npos);

    // The photonic crystal cell at M: bloch_k [0.5, 0.5] 2pi/a over a 1 um period is pi rad/um
    // on both axes; no oblique source. A project without "bloch" axes has no "bloch" member.
    const test::CliOut m = test::run_cli("check '" + root + "/validation/phc_rods_tm.glproj' --json", dir);
    REQUIRE(m.code == 0);
    const nlohmann::json cm = nlohmann::json::parse(m.out);
    REQUIRE(cm.contains("bloch"));
    CHECK(cm["bloch"]["axes"] == nlohmann::json::array({"x", "y"}));
    CHECK(cm["bloch"]["k_2pi_per_a"][0].get<double>() == Approx(0.5).epsilon(1e-12));
    CHECK(cm["bloch"]["k_per_um"][1].get<double>() == Approx(units::pi).epsilon(1e-12));
    CHECK_FALSE(cm["bloch"].contains("source"));
    const test::CliOut n = test::run_cli("check '" + root + "/validation/meep_grating.glproj' --json", dir);
    REQUIRE(n.code == 0);
    CHECK_FALSE(nlohmann::json::parse(n.out).contains("bloch"));
}
