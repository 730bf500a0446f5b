// Physics: plane wave at normal incidence on a dielectric half-space, through the whole
// chain (compile_project -> CPU engine -> run driver with normalization).
//
// Fresnel (Born & Wolf, sec. 1.5.3, normal incidence from vacuum onto index n):
//   R = |(1 - n) / (1 + n)|^2,  T = 1 - R  (lossless).
// Set-up: x from 0 to 3 um with 20-cell CPML on both x faces, y periodic (5 cells), a
// uniform line source spanning y (a plane wave), a reflection monitor between the source
// and the interface (direction -x), a transmission monitor inside the dielectric (+x).
// The reference run is all vacuum. Resolution: dx = 0.01 um, so the shortest wavelength
// of the spectrum (1.2 um) has 1.2 / (3 * 0.01) = 40 cells per wavelength inside n = 3
// (60 in n = 2). The interface lies halfway between two rows of E samples (x = 1.505 um),
// so no sample straddles it.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdio>

#include "golightly/run.hpp"
#include "golightly/units.hpp"

using namespace golightly;

namespace {

constexpr double kDx = 0.01;

Project fresnel_project(Polarization pol, double eps_r) {
    Project p;
    p.name = "fresnel";
    p.domain.dimensions = 2;
    p.domain.size = {3.0, 5 * kDx, 0.0};
    p.domain.cell_size = kDx;
    p.domain.polarization = pol;
    p.domain.boundaries = {BoundaryKind::Pml, BoundaryKind::Periodic, BoundaryKind::Pml};
    p.domain.pml.cells = 20;

    Material m;
    m.id = "dielectric";
    m.name = "dielectric";
    m.epsilon_inf = eps_r;
    p.materials.push_back(m);

    Layer layer;
    layer.name = "half-space";
    layer.material = "dielectric";
    Shape half;
    half.type = ShapeType::Rectangle;
    half.min = {1.505, 0.0};
    half.max = {3.0, 5 * kDx};  // touches the boundary: continues through the PML
    layer.shapes.push_back(half);
    p.layers.push_back(layer);

    Source s;
    s.name = "plane wave";
    s.type = SourceType::Line;
    s.from = {0.4, 0.0};
    s.to = {0.4, 5 * kDx};
    s.component = pol == Polarization::TMz ? Component::Ez : Component::Ey;
    s.profile = SourceProfile::Uniform;
    s.waveform.type = WaveformType::GaussianPulse;
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 1.0;
    p.sources.push_back(s);

    Monitor r;
    r.name = "R";
    r.type = MonitorType::Flux;
    r.from = {0.9, 0.0};
    r.to = {0.9, 5 * kDx};
    r.direction = "-x";
    r.kind = "reflection";
    p.monitors.push_back(r);
    Monitor t = r;
    t.name = "T";
    t.from = {2.3, 0.0};
    t.to = {2.3, 5 * kDx};
    t.direction = "+x";
    t.kind = "transmission";
    p.monitors.push_back(t);

    p.run.spectrum.wavelength_min = 1.2;
    p.run.spectrum.wavelength_max = 2.0;
    p.run.spectrum.points = 21;
    p.run.courant = 0.5;
    p.run.stop.decay_db = 60;
    p.run.stop.max_time_fs = 400;
    p.run.normalization.enabled = true;  // vacuum reference, incident monitor: R
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    return p;
}

void check_fresnel(Polarization pol, double eps_r) {
    const Project p = fresnel_project(pol, eps_r);
    RunOptions opts;
    opts.backend = BackendChoice::Cpu;
    opts.threads = 2;
    const RunResult res = run_project(p, "fresnel", opts);
    REQUIRE(res.normalized);
    CHECK(res.stop_reason == StopReason::Decay);
    REQUIRE(res.spectra.size() == 2);
    const auto& R = res.spectra[0];
    const auto& T = res.spectra[1];
    REQUIRE(R.name == "R");
    REQUIRE(T.name == "T");
    REQUIRE(R.normalized.size() == 21);
    REQUIRE(T.normalized.size() == 21);

    const double n = std::sqrt(eps_r);
    const double r_fresnel = std::pow((1 - n) / (1 + n), 2);
    const double t_fresnel = 1 - r_fresnel;
    double max_dr = 0, max_dt = 0, max_sum = 0;
    for (std::size_t f = 0; f < 21; ++f) {
        INFO("f = " << res.frequency_hz[f] * 1e-12 << " THz: R = " << R.normalized[f] << ", T = " << T.normalized[f]);
        CHECK(R.normalized[f] == Approx(r_fresnel).margin(0.005));
        CHECK(T.normalized[f] == Approx(t_fresnel).margin(0.005));
        CHECK(R.normalized[f] + T.normalized[f] == Approx(1.0).margin(0.005));
        max_dr = std::max(max_dr, std::abs(R.normalized[f] - r_fresnel));
        max_dt = std::max(max_dt, std::abs(T.normalized[f] - t_fresnel));
        max_sum = std::max(max_sum, std::abs(R.normalized[f] + T.normalized[f] - 1));
    }
    std::printf("fresnel %s eps %.2f: R_fresnel %.5f, max|R-R_f| %.2e, max|T-T_f| %.2e, max|R+T-1| %.2e "
                "(%lld steps, %.2f s)\n",
                pol == Polarization::TMz ? "TMz" : "TEz", eps_r, r_fresnel, max_dr, max_dt, max_sum,
                (long long)res.steps, res.wall_s);
}

}  // namespace

TEST_CASE("fresnel: TMz normal incidence on eps 4 and eps 9", "[physics][fresnel]") {
    check_fresnel(Polarization::TMz, 4.0);
    check_fresnel(Polarization::TMz, 9.0);
}

TEST_CASE("fresnel: TEz normal incidence on eps 4 and eps 9", "[physics][fresnel]") {
    check_fresnel(Polarization::TEz, 4.0);
    check_fresnel(Polarization::TEz, 9.0);
}

TEST_CASE("lossy slab: R, T (Airy formulas) and the flux_box absorption cross-section", "[physics][fresnel]") {
    // A 0.3 um slab of eps_inf 4 with conductivity sigma in vacuum, TMz, normal incidence.
    // eps(w) = 4 + i sigma / (eps0 w) (exp(-i w t)); n = sqrt(eps), Im n > 0.
    // Airy (Born & Wolf sec. 1.6.4): r12 = (1-n)/(1+n), r23 = -r12, t12 t23 = 4n/(1+n)^2,
    //   r = (r12 + r23 e^{2i d}) / (1 + r12 r23 e^{2i d}),  t = t12 t23 e^{i d} / (1 + r12 r23 e^{2i d}),
    //   d = k0 n L.  R = |r|^2, T = |t|^2, A = 1 - R - T.
    // The absorption box spans 0.03 um of the 0.05 um period: cross-section = A * 0.03 um.
    const double sigma = 5000.0;  // S/m: Im eps = 0.5 at 1.4 um
    const double thickness = 0.3;
    Project p = fresnel_project(Polarization::TMz, 4.0);
    p.materials[0].conductivity = sigma;
    p.layers[0].shapes[0].max = {1.505 + thickness, 5 * kDx};
    Monitor box;
    box.name = "A";
    box.type = MonitorType::FluxBox;
    box.kind = "absorption";
    box.min = Vec2{1.4, 0.01};
    box.max = Vec2{1.9, 0.04};
    p.monitors.push_back(box);
    p.monitors[1].from.x = p.monitors[1].to.x = 2.3;  // T monitor in vacuum behind the slab
    RunOptions opts;
    opts.backend = BackendChoice::Cpu;
    opts.threads = 2;
    const RunResult res = run_project(p, "lossy_slab", opts);
    REQUIRE(res.normalized);
    REQUIRE(res.spectra.size() == 3);
    double max_dr = 0, max_dt = 0, max_da = 0;
    for (std::size_t f = 0; f < res.frequency_hz.size(); ++f) {
        const double w = 2 * units::pi * res.frequency_hz[f];
        const std::complex<double> eps(4.0, sigma / (units::eps0 * w));
        const std::complex<double> n = std::sqrt(eps);
        const std::complex<double> i(0, 1);
        const std::complex<double> r12 = (1.0 - n) / (1.0 + n), r23 = -r12;
        const std::complex<double> ph = std::exp(i * (w / units::c0) * n * (thickness * units::um));
        const std::complex<double> den = 1.0 + r12 * r23 * ph * ph;
        const double R = std::norm((r12 + r23 * ph * ph) / den);
        const double T = std::norm(4.0 * n / ((1.0 + n) * (1.0 + n)) * ph / den);
        const double A = 1 - R - T;
        const double R_fd = res.spectra[0].normalized[f], T_fd = res.spectra[1].normalized[f];
        const double sigma_abs = res.spectra[2].normalized[f];
        INFO("f = " << res.frequency_hz[f] * 1e-12 << " THz: R " << R_fd << " vs " << R << ", T " << T_fd << " vs " << T
                    << ", A*0.03 " << sigma_abs << " vs " << A * 0.03);
        CHECK(R_fd == Approx(R).margin(0.01));
        CHECK(T_fd == Approx(T).margin(0.01));
        CHECK(A > 0.1);  // the loss matters
        CHECK(sigma_abs == Approx(A * 0.03).margin(0.01 * 0.03));
        CHECK(sigma_abs == Approx((1 - R_fd - T_fd) * 0.03).margin(0.003 * 0.03));
        max_dr = std::max(max_dr, std::abs(R_fd - R));
        max_dt = std::max(max_dt, std::abs(T_fd - T));
        max_da = std::max(max_da, std::abs(sigma_abs / 0.03 - A));
    }
    std::printf("lossy slab: max|R-R_airy| %.2e, max|T-T_airy| %.2e, max|A_box-A| %.2e\n", max_dr, max_dt, max_da);
}
