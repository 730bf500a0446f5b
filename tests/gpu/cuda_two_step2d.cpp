// The 2D CUDA engine's two steps per pass (cuda_twostep2d.cuh, GOLIGHTLY_CUDA_TWO_STEP=require)
// against its one step per pass (GOLIGHTLY_CUDA_TWO_STEP=0): TMz and TEz, float32 and float64,
// on the gold grating (CPML, a line source, two flux lines, Rakic gold with Lorentz and Drude
// poles) with an E and an H point source and a time probe added, and on random fields and
// materials with PEC, PMC and CPML faces. Fields, DFT accumulators and probe samples are
// compared after an odd number of steps (graphs of pairs, then pairs and one single step).
//
// Tolerance: both paths do the same operations per cell in the same order (cuda_twostep2d.cuh),
// but the compiler may contract a different set of them into FMAs and the adds of sources
// that share a cell may come in either order, so each update may differ by a few units of
// rounding u (2^-24 float32, 2^-53 float64) of the local magnitude. The update is linear and
// stable (no amplification under the Courant limit), so such differences are carried, not
// grown: after N steps at most about N * 8 u of the largest value (8 rounded operations per
// update), and the same bound holds for a DFT or a probe, sums of the fields with weights of
// modulus 1 against their largest value. A missing source, correction or halo cell gives
// differences of the order of the field itself.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "env_set.hpp"
#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

constexpr int kSteps = 301;  // 9 graphs of 32 steps, graphs of 8 and 4 steps, one single step

double unit_roundoff(Precision p) { return p == Precision::Float32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53); }

struct Pair {
    std::unique_ptr<Engine> two, one;
};

Pair make_pair(const Scene& s, Precision prec) {
    Pair p;
    {
        EnvSet on("GOLIGHTLY_CUDA_TWO_STEP", "require");
        p.two = make_cuda_engine(s, prec);
    }
    {
        EnvSet off("GOLIGHTLY_CUDA_TWO_STEP", "0");
        p.one = make_cuda_engine(s, prec);
    }
    CHECK(p.two->kernel() == "two steps per pass (update_two2d)");
    CHECK(p.one->kernel().rfind("one step per pass", 0) == 0);
    return p;
}

/// Fields, DFT sets and probes of the two engines after kSteps steps (stepped by the
/// caller), within N * 8 u of the largest value of each (file comment).
void compare_stepped(Pair& p, const Scene& s, Precision prec) {
    REQUIRE(p.two->steps_done() == kSteps);
    REQUIRE(p.one->steps_done() == kSteps);
    const double tol = kSteps * 8 * unit_roundoff(prec);
    auto comps = electric_components(s.polarization);
    for (Component c : magnetic_components(s.polarization)) comps.push_back(c);
    for (Component c : comps) {
        std::vector<double> a, b(s.cells(), std::numeric_limits<double>::quiet_NaN());
        p.one->get_field(c, a);
        p.two->get_field(c, b);
        const double ref = max_abs(a), d = max_abs_diff(a, b);
        bool finite = true;
        for (double v : b) finite = finite && std::isfinite(v);
        INFO(to_string(s.polarization) << " " << to_string(prec) << " " << to_string(c) << ": max |diff| " << d
                                       << " of max |F| " << ref << " (tol " << tol << ")");
        CHECK(finite);
        CHECK(ref > 0);
        CHECK(d <= tol * ref);
    }
    for (std::size_t set = 0; set < s.dft_sets.size(); ++set) {
        const auto a = p.one->dft(int(set)), b = p.two->dft(int(set));
        REQUIRE(a.size() == b.size());
        double ref = 0, d = 0;
        for (std::size_t k = 0; k < a.size(); ++k) {
            ref = std::max(ref, std::abs(a[k]));
            d = std::max(d, std::abs(a[k] - b[k]));
        }
        std::printf("two steps per pass vs one, %s %s, DFT set %zu: max |diff| / max |X| = %.3g (tol %.3g)\n",
                    to_string(s.polarization).c_str(), to_string(prec).c_str(), set, d / ref, tol);
        INFO(to_string(s.polarization) << " " << to_string(prec) << " DFT set " << set << ": max |diff| " << d
                                       << " of max |X| " << ref << " (relative " << d / ref << ", tol " << tol << ")");
        CHECK(ref > 0);
        CHECK(d <= tol * ref);
    }
    for (std::size_t q = 0; q < s.time_probes.size(); ++q) {
        const auto a = p.one->time_samples(int(q)), b = p.two->time_samples(int(q));
        REQUIRE(a.size() == b.size());
        REQUIRE(a.size() == std::size_t(kSteps));
        const double ref = max_abs(a), d = max_abs_diff(a, b);
        INFO("probe " << q << ": max |diff| " << d << " of " << ref);
        CHECK(ref > 0);
        CHECK(d <= tol * ref);
    }
}

/// compare_stepped after step(kSteps) on both engines.
void compare(Pair& p, const Scene& s, Precision prec) {
    p.two->step(kSteps);
    p.one->step(kSteps);
    compare_stepped(p, s, prec);
}

/// The gold grating example with CPML on both axes (its y axis is periodic, which two steps
/// per pass refuse), polarization `pol`, an E and an H point source beside the first gold
/// cell and a probe of E there.
Scene gold_scene(Polarization pol) {
    Project p = load_project(std::string(GOLIGHTLY_SOURCE_DIR) + "/examples/gold_grating.glproj");
    p.domain.polarization = pol;
    p.domain.boundaries[1] = BoundaryKind::Pml;
    const Component e = pol == Polarization::TMz ? Component::Ez : Component::Ey;
    const Component h = pol == Polarization::TMz ? Component::Hx : Component::Hz;
    for (auto& src : p.sources) src.component = e;
    const CompiledProject c = compile_project(p, "gold_grating.glproj");
    Scene s = c.scene;
    REQUIRE(s.is_dispersive());
    REQUIRE(s.dft_sets.size() >= 2);
    const auto& gold = s.dispersive[int(e)].cells;
    REQUIRE(!gold.empty());
    const int i = int(gold.front() % s.nx), j = int(gold.front() / s.nx);
    REQUIRE(i >= 6);
    // A pulse short enough to reach the gold within kSteps steps (dt about 8 as).
    const CompiledWaveform w = gaussian_pulse(400e12, 0.25e-15);
    add_point_source(s, e, i - 3, j, w, 10.0);
    add_point_source(s, h, i - 5, j + 1, w, 5.0);
    add_point_probe(s, e, i, j);
    return s;
}

}  // namespace

TEST_CASE("CUDA 2D engine, two steps per pass equal one step per pass on the gold grating (CPML, sources, flux lines, Lorentz poles)",
          "[two_step2d]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz})
        for (Precision prec : {Precision::Float32, Precision::Float64}) {
            const Scene s = gold_scene(pol);
            Pair p = make_pair(s, prec);
            compare(p, s, prec);
            // The poles were driven: E at the gold cells is not zero.
            const Component e = pol == Polarization::TMz ? Component::Ez : Component::Ey;
            std::vector<double> f;
            p.two->get_field(e, f);
            double inside = 0;
            for (CellIndex k : s.dispersive[int(e)].cells) inside = std::max(inside, std::abs(f[std::size_t(k)]));
            CHECK(inside > 0);
        }
}

TEST_CASE("CUDA 2D engine, two steps per pass equal one step per pass on random fields and materials (PEC, PMC, CPML faces)",
          "[two_step2d]") {
    struct Case {
        BoundaryKind bx, by;
        int nx, ny;
    };
    // nx not a multiple of the 64-column tiles (and 201 not of 32: padded rows).
    const Case cases[] = {{BoundaryKind::Pml, BoundaryKind::Pec, 201, 77}, {BoundaryKind::Pmc, BoundaryKind::Pml, 256, 131}};
    for (const Case& cs : cases)
        for (Polarization pol : {Polarization::TMz, Polarization::TEz})
            for (Precision prec : {Precision::Float32, Precision::Float64}) {
                Scene s = make_random_material_scene(cs.nx, cs.ny, pol, 11, cs.bx, cs.by, 10);
                const CompiledWaveform w = gaussian_pulse(300e12, 2e-15);
                const auto e = electric_components(pol), h = magnetic_components(pol);
                add_point_source(s, e.front(), cs.nx / 2, cs.ny / 2, w);
                add_point_source(s, e.back(), 0, cs.ny - 1, w);  // on the faces: zeroing wins where it applies
                add_point_source(s, h.front(), cs.nx - 1, 1, w);
                add_point_probe(s, e.back(), cs.nx / 3, cs.ny / 3);
                add_point_probe(s, h.back(), 1, cs.ny - 2);
                Pair p = make_pair(s, prec);
                randomize_fields(*p.two, s, 5);
                randomize_fields(*p.one, s, 5);
                compare(p, s, prec);
            }
}

TEST_CASE("CUDA 2D engine, GOLIGHTLY_CUDA_TWO_STEP=require names why two steps per pass cannot run",
          "[two_step2d]") {
    EnvSet on("GOLIGHTLY_CUDA_TWO_STEP", "require");
    const Scene periodic = make_periodic_slab(64, 64, Polarization::TMz, 20, 30, 4.0);
    try {
        make_cuda_engine(periodic, Precision::Float32);
        FAIL("a periodic scene ran two steps per pass");
    } catch (const RunError& e) {
        CHECK(std::string(e.what()).find("periodic") != std::string::npos);
    }
    EnvSet unset("GOLIGHTLY_CUDA_TWO_STEP", "auto");
    CHECK(make_cuda_engine(periodic, Precision::Float32)->kernel().rfind("one step per pass", 0) == 0);
}

TEST_CASE("CUDA 2D engine: the step graphs of 16, 8 and 4 steps equal the same steps enqueued kernel by kernel",
          "[two_step2d][graphs]") {
    // The run driver's chunks of 50 steps: 32 + 16 + 2 with the remainder graphs, 32 + 18
    // enqueued directly without them (GOLIGHTLY_CUDA_GRAPH_REMAINDER=0); then 1 step. Both
    // engines take two steps per pass (dispersive gold: the pole kernels merged between passes
    // inside one enqueue, split at a graph's end), so the comparison is against the same path.
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const Scene s = gold_scene(pol);
        Pair p;
        {
            EnvSet on("GOLIGHTLY_CUDA_TWO_STEP", "require");
            p.two = make_cuda_engine(s, Precision::Float32);
            EnvSet direct("GOLIGHTLY_CUDA_GRAPH_REMAINDER", "0");
            p.one = make_cuda_engine(s, Precision::Float32);
        }
        for (int chunk = 0; chunk < kSteps / 50; ++chunk) {
            p.two->step(50);
            p.one->step(50);
        }
        p.two->step(kSteps % 50);
        p.one->step(kSteps % 50);
        compare_stepped(p, s, Precision::Float32);
    }
}
