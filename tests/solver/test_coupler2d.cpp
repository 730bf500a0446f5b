// The validation of mode expansion in 2D: a directional coupler (two parallel
// slabs, eps 12, 0.2 um wide, 0.3 um apart, in oxide; TMz) fed in one guide by the one-way
// mode source whose line ends in the middle of the gap (so it launches guide 1's own
// mode); the power in guide 2 (the flux through the half of the cross-section above the
// gap's middle) over the total, against coupled-mode theory:
//   P2 / P = sin^2(dbeta L / 2),  dbeta = beta_even - beta_odd
// from the coupled cross-section's supermodes (the 1D slab solver, mode_solver.hpp,
// lattice wavenumbers (2/dx) asin(beta dx/2) at the numerical k0 of the Yee scheme);
// L the distance from the source to the monitor. At L = Lc/4, Lc/2 and 3Lc/4 (Lc = pi /
// dbeta) the theory gives 0.146, 0.5 and 0.854. Also the even/odd supermode amplitudes of
// a mode monitor spanning both guides carry half the power each.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "golightly/mode_solver.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

using namespace golightly;

namespace {

constexpr double kEpsCore = 12.0, kEpsClad = 1.444 * 1.444;
constexpr double kG1lo = 1.0, kG1hi = 1.2, kG2lo = 1.5, kG2hi = 1.7, kMid = 1.35, kLy = 2.7;

double frac(double y, double dx, double a, double b) {
    const double lo = std::max(y - dx / 2, a), hi = std::min(y + dx / 2, b);
    return std::max(hi - lo, 0.0) / dx;
}

// Lattice dbeta (1/um) of the coupled cross-section's even and odd TMz supermodes at f.
double lattice_dbeta(double f_hz, double dx, double dt) {
    std::vector<double> eps;
    for (double y = 0.2; y <= kLy - 0.2 + 1e-9; y += dx) {
        const double c = frac(y, dx, kG1lo, kG1hi) + frac(y, dx, kG2lo, kG2hi);
        eps.push_back(c * kEpsCore + (1 - c) * kEpsClad);
    }
    const double w = 2 * M_PI * f_hz;
    const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;
    const auto modes = solve_slab_modes(eps, dx, 2 * M_PI / k0n, Polarization::TMz, 2);
    REQUIRE(modes.size() == 2);
    auto lattice = [dx](double b) { return 2.0 / dx * std::asin(0.5 * b * dx); };
    return lattice(modes[0].beta_per_um) - lattice(modes[1].beta_per_um);
}

Monitor flux_line(const std::string& name, double x, double y0, double y1, const std::string& kind = "flux") {
    Monitor m;
    m.name = name;
    m.type = MonitorType::Flux;
    m.kind = kind;
    m.from = {x, y0};
    m.to = {x, y1};
    m.direction = "+x";
    return m;
}

}  // namespace

TEST_CASE("2D directional coupler: power split against coupled-mode theory", "[modes2dmon][coupler][slow]") {
    const double dx = 0.02, courant = 0.5;
    const double dt = courant * dx * units::um / units::c0;
    const double f0 = units::wavelength_um_to_hz(1.55);
    const double lc = M_PI / lattice_dbeta(f0, dx, dt);
    std::printf("coupler: coupling length Lc %.3f um at 1.55 um\n", lc);
    REQUIRE(lc > 2.0);
    REQUIRE(lc < 60.0);
    const double xs = 1.0;
    const double lengths[3] = {0.25 * lc, 0.5 * lc, 0.75 * lc};
    Project p;
    p.name = "coupler";
    p.domain.size = {xs + lengths[2] + 1.0, kLy, 0};
    p.domain.cell_size = dx;
    p.domain.polarization = Polarization::TMz;
    p.domain.pml.cells = 12;
    p.domain.background = "ox";
    Material ox, si;
    ox.id = "ox";
    ox.epsilon_inf = kEpsClad;
    si.id = "si";
    si.epsilon_inf = kEpsCore;
    p.materials = {ox, si};
    Layer l;
    l.name = "guides";
    l.material = "si";
    Shape a, b;
    a.type = b.type = ShapeType::Rectangle;
    a.min = {-1.0, kG1lo};
    a.max = {p.domain.size[0] + 1, kG1hi};
    b.min = {-1.0, kG2lo};
    b.max = {p.domain.size[0] + 1, kG2hi};
    l.shapes = {a, b};
    p.layers = {l};
    Source s;
    s.name = "in";
    s.type = SourceType::Line;
    s.from = {xs, 0.2};
    s.to = {xs, kMid};
    s.component = Component::Ez;
    s.profile = SourceProfile::Mode;
    s.direction = "+x";
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.1;
    p.sources = {s};
    for (int k = 0; k < 3; ++k) {
        const double x = xs + lengths[k];
        p.monitors.push_back(flux_line("g1_" + std::to_string(k), x, 0.2, kMid));
        p.monitors.push_back(flux_line("g2_" + std::to_string(k), x, kMid, kLy - 0.2));
    }
    Monitor sm = flux_line("super", xs + lengths[1], 0.2, kLy - 0.2, "mode");
    sm.extra["modes"] = Json::array({0, 1});
    p.monitors.push_back(sm);
    p.run.spectrum.wavelength_min = 1.54;
    p.run.spectrum.wavelength_max = 1.56;
    p.run.spectrum.points = 3;
    p.run.courant = courant;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    p.run.stop.decay_db = 50;
    p.run.stop.max_time_fs = 4000;
    RunOptions o;
    o.threads = 2;
    const RunResult r = run_project(p, "coupler.glproj", o);
    std::printf("coupler run: %lld steps, stop %s\n", (long long)r.steps, to_string(r.stop_reason).c_str());
    REQUIRE(r.spectra.size() == 7);
    REQUIRE(r.mode_coefficients.size() == 2);
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        const double dbeta = lattice_dbeta(r.frequency_hz[f], dx, dt);
        for (int k = 0; k < 3; ++k) {
            const double p1 = r.spectra[std::size_t(2 * k)].flux[f], p2 = r.spectra[std::size_t(2 * k + 1)].flux[f];
            const double split = p2 / (p1 + p2);
            const double cmt = std::pow(std::sin(0.5 * dbeta * lengths[k]), 2);
            std::printf("coupler wl %.4f L %.3f um: P2/P %.4f, CMT %.4f (diff %+.4f)\n",
                        units::hz_to_wavelength_um(r.frequency_hz[f]), lengths[k], split, cmt, split - cmt);
            CHECK(std::abs(split - cmt) < 0.01);
        }
        const double pe = std::norm(r.mode_coefficients[0].fwd[f]), po = std::norm(r.mode_coefficients[1].fwd[f]);
        const double total = r.spectra[2].flux[f] + r.spectra[3].flux[f];
        std::printf("coupler wl %.4f: even %.4f odd %.4f of the flux (sum %.5f)\n",
                    units::hz_to_wavelength_um(r.frequency_hz[f]), pe / total, po / total, (pe + po) / total);
        CHECK(std::abs(pe / total - 0.5) < 0.01);
        CHECK(std::abs(po / total - 0.5) < 0.01);
        CHECK((pe + po) / total > 0.999);
    }
}
