// Absorbing boundaries: CPML reflection of a point-source pulse (falls as the PML grows)
// and first-order Mur at normal incidence, each against a reference run in a domain so
// large that nothing returns from its boundary within the time window.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "golightly/engine.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

struct ProbePoint { int i, j; };  // interior cell coordinates (0 = first interior cell)

/// Records probes (interior coordinates) of the source component for `steps` steps in a
/// vacuum domain of `interior` x `interior` cells plus `pml` cells per side, with `margin`
/// extra interior cells on every side (margin > 0: the reference run).
std::vector<std::vector<double>> run_point_source(Polarization pol, int interior, int pml, int margin,
                                                  const std::vector<ProbePoint>& probes, int steps) {
    const int n = interior + 2 * margin + 2 * pml;
    Scene s = make_vacuum_pml_scene(n, n, pol, pml);
    const Component c = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    const double f0 = units::c0 / (20 * s.dx_um * units::um);  // 20 cells per wavelength
    const int o = pml + margin;
    add_point_source(s, c, o + interior / 2 - 3, o + interior / 2 + 2, gaussian_pulse(f0, 3.0 / (2 * units::pi * f0)));
    for (auto p : probes) add_point_probe(s, c, o + p.i, o + p.j);
    auto e = make_cpu_engine(s, Precision::Float64, 1);
    e->step(steps);
    std::vector<std::vector<double>> out;
    for (std::size_t k = 0; k < probes.size(); ++k) out.push_back(e->time_samples(int(k)));
    return out;
}

/// Largest over probes of max_t |F - F_ref| / max_t |F_ref|.
double reflection(const std::vector<std::vector<double>>& f, const std::vector<std::vector<double>>& ref) {
    double r = 0;
    for (std::size_t k = 0; k < f.size(); ++k) r = std::max(r, max_abs_diff(f[k], ref[k]) / max_abs(ref[k]));
    return r;
}

}  // namespace

TEST_CASE("CPML reflection of a point-source pulse is below -50 dB and falls with thickness",
          "[physics][cpml]") {
    const int interior = 60, steps = 560, margin = 150;
    // 2 cells inside the interface: middle of the left, right, bottom and top sides, and
    // near the top-right and bottom-left corners.
    const std::vector<ProbePoint> probes = {{2, 30}, {interior - 3, 30}, {30, 2}, {30, interior - 3},
                                            {interior - 3, interior - 3}, {2, 2}};
    for (auto pol : {Polarization::TMz, Polarization::TEz}) {
        const auto ref = run_point_source(pol, interior, 16, margin, probes, steps);
        double prev = 1e300;
        for (int pml : {8, 16, 24}) {
            const double r = reflection(run_point_source(pol, interior, pml, 0, probes, steps), ref);
            std::printf("[cpml] %s, %2d cells: reflection %.3e (%.1f dB)\n", pol == Polarization::TMz ? "TMz" : "TEz",
                        pml, r, 20 * std::log10(r));
            INFO("pml " << pml << " reflection " << r);
            CHECK(r < prev);
            if (pml >= 16) CHECK(r < 3.16e-3);
            prev = r;
        }
    }
}

namespace {

/// A plane pulse travelling along `axis` from a line source across a domain periodic in
/// the other axis, Mur on `axis`: records the source component at a probe 6 cells before
/// the far wall. `extra` cells added at both ends (reference run).
std::vector<double> run_plane_pulse(Polarization pol, int axis, int length, int extra, int steps) {
    SceneSpec spec;
    spec.polarization = pol;
    const int n = length + 2 * extra, w = 4;
    spec.nx = axis == 0 ? n : w;
    spec.ny = axis == 0 ? w : n;
    spec.boundary_x = axis == 0 ? BoundaryKind::Mur : BoundaryKind::Periodic;
    spec.boundary_y = axis == 0 ? BoundaryKind::Periodic : BoundaryKind::Mur;
    Scene s = make_scene(spec);
    // the E component tangential to the wall: TMz Ez; TEz Ey (x walls) or Ex (y walls)
    const Component c = pol == Polarization::TMz ? Component::Ez : (axis == 0 ? Component::Ey : Component::Ex);
    const double f0 = units::c0 / (20 * s.dx_um * units::um);
    SourceTerm src;
    src.component = c;
    src.waveform = gaussian_pulse(f0, 3.0 / (2 * units::pi * f0));
    const int src_pos = extra + length / 3, probe_pos = extra + length - 7;
    for (int k = 0; k < w; ++k) {
        src.cells.push_back(axis == 0 ? cell(s, src_pos, k) : cell(s, k, src_pos));
        src.weights.push_back(1.0);
    }
    s.sources.push_back(src);
    add_point_probe(s, c, axis == 0 ? probe_pos : 1, axis == 0 ? 1 : probe_pos);
    auto e = make_cpu_engine(s, Precision::Float64, 1);
    e->step(steps);
    return e->time_samples(0);
}

}  // namespace

TEST_CASE("Mur boundary absorbs a normally incident plane pulse", "[physics][boundary]") {
    const int length = 120, steps = 700, extra = 400;
    for (auto pol : {Polarization::TMz, Polarization::TEz})
        for (int axis : {0, 1}) {
            const auto f = run_plane_pulse(pol, axis, length, 0, steps);
            const auto ref = run_plane_pulse(pol, axis, length, extra, steps);
            const double r = max_abs_diff(f, ref) / max_abs(ref);
            std::printf("[mur] %s axis %d: amplitude reflection %.2e\n", pol == Polarization::TMz ? "TMz" : "TEz", axis, r);
            INFO("pol " << int(pol) << " axis " << axis << " reflection " << r);
            CHECK(max_abs(ref) > 0.1);
            CHECK(r < 0.05);
        }
}
