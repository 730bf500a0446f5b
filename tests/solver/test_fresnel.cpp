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
#include <cstdio>

#include "golightly/run.hpp"

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
