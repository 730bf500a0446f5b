// 3D CUDA engine (cuda_engine3d.cu) against the 3D CPU engine, the oracle (scene.hpp "3D
// scenes"): random scenes (random initial fields in all six components, random dielectric
// and conductive materials per E component, CPML with random physical grading / kappa /
// alpha and unequal slab widths on some axes, periodic / PEC / PMC on the others, E and H
// point sources, DFT sets, time probes of every reduction, dispersive cells with Lorentz and
// Drude poles, tensor couplings of all three E components) give the same fields, DFT
// accumulators, probe samples, energy and slice samples after 100 steps on both backends. nx a multiple of 32 and odd. The GPU outputs are poisoned (NaN) before
// they are read, and the fields must have moved away from the initial ones, so a no-op or
// a missing copy fails.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "golightly/engine.hpp"
#include "env_set.hpp"
#include "golightly/errors.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

std::int32_t at3(const Scene& s, int i, int j, int k) { return std::int32_t((std::int64_t(k) * s.ny + j) * s.nx + i); }

struct Case3 {
    int nx, ny, nz;
    BoundaryKind b[3];
    int pml_lo[3], pml_hi[3];
    unsigned seed;
    bool dispersive = true;
    bool tensor = true;  ///< random sub-pixel tensor couplings (scene.hpp "Anisotropic cells", 8 slots)
    bool one_map = false;  ///< Ey and Ez take Ex's material map (the engine then stores one map)
};

/// A random 3D scene (file comment). PML axes get pml_lo / pml_hi cells; the CPML grading,
/// kappa_max and alpha_max are drawn at random (build_cpml).
Scene random_scene(const Case3& c) {
    std::mt19937 rng(c.seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Scene s;
    s.dimensions = 3;
    s.nx = c.nx; s.ny = c.ny; s.nz = c.nz;
    s.dx_um = 0.02;
    s.courant = 0.5;
    s.dt_s = s.courant * s.dx_um * units::um / units::c0;
    for (int a = 0; a < 3; ++a) {
        s.boundary[a] = c.b[a];
        s.pml_lo[a] = c.b[a] == BoundaryKind::Pml ? c.pml_lo[a] : 0;
        s.pml_hi[a] = c.b[a] == BoundaryKind::Pml ? c.pml_hi[a] : 0;
    }
    // Materials: eps_r from 8 values, sigma from 4 (0 on half the cells), per E component.
    const double eps_list[8] = {1.0, 1.0, 1.44, 2.1, 3.5, 6.0, 9.0, 12.0};
    const double sig_list[4] = {0.0, 0.0, 2e3, 4e4};
    std::vector<std::vector<double>> eps(3, std::vector<double>(s.cells())), sig(3, std::vector<double>(s.cells()));
    for (int comp = 0; comp < 3; ++comp)
        for (std::size_t q = 0; q < s.cells(); ++q) {
            eps[comp][q] = eps_list[rng() % 8];
            sig[comp][q] = sig_list[rng() % 4];
        }
    build_material_table(s, eps, sig);
    build_cpml(s, 2.0 + 2.0 * u(rng), 1e-6 * (0.1 + u(rng)), 1.0 + 4.0 * u(rng), 2e8 * u(rng));
    // Point sources on E and H components (some on the outer lines, where PEC/PMC zeroing wins).
    const CompiledWaveform w = gaussian_pulse(200e12, 3e-15);
    for (int q = 0; q < 6; ++q) {
        SourceTerm t;
        t.component = Component(q);
        for (int m = 0; m < 3; ++m) {
            const int i = m == 0 ? 0 : int(rng() % c.nx), j = m == 1 ? c.ny - 1 : int(rng() % c.ny), k = int(rng() % c.nz);
            t.cells.push_back(at3(s, i, j, k));
            t.weights.push_back(0.5 + u(rng));
        }
        t.waveform = w;
        t.waveform.t0_s = 2e-15 * q;  // different times
        s.sources.push_back(t);
    }
    // DFT sets: Ex single cells, Hz averaged over two cells (as flux planes do), Ey, Hx.
    const std::vector<double> freqs = {150e12, 190e12, 230e12, 300e12, 420e12};
    for (Component comp : {Component::Ex, Component::Hz, Component::Ey, Component::Hx}) {
        DftSet d;
        d.component = comp;
        const int j = c.ny / 2;
        for (int k = 1; k < c.nz - 1; k += 2)
            for (int i = 0; i < c.nx; i += 3) {
                d.cell0.push_back(at3(s, i, j, k));
                d.w0.push_back(comp == Component::Hz ? 0.5 : 1.0);
                d.cell1.push_back(comp == Component::Hz ? at3(s, i, j - 1, k) : -1);
                d.w1.push_back(comp == Component::Hz ? 0.5 : 0.0);
            }
        d.frequencies_hz = freqs;
        s.dft_sets.push_back(std::move(d));
    }
    // Time probes: one per reduction, on different components.
    const Reduce reds[4] = {Reduce::Value, Reduce::Mean, Reduce::Rms, Reduce::SumSquares};
    for (int r = 0; r < 4; ++r) {
        TimeProbe p;
        p.component = Component((r * 2 + 1) % 6);
        for (int m = 0; m < (r == 0 ? 1 : 40); ++m) {
            p.cells.push_back(at3(s, int(rng() % c.nx), int(rng() % c.ny), int(rng() % c.nz)));
            p.weights.push_back(r == 0 ? 1.0 : 0.2 + u(rng));
        }
        p.reduce = reds[r];
        s.time_probes.push_back(std::move(p));
    }
    if (c.dispersive) {
        // Two Lorentz poles and a Drude pole (w0 = 0; scene.hpp "Dispersive cells") on random
        // interior cells (off the outer lines, where PEC zeroing would follow the correction);
        // pole sets {L, L, D}, {L} and {D}.
        PoleSet ps;
        for (double f0 : {180e12, 320e12, 0.0}) {
            const double dt = s.dt_s, w0 = 2 * units::pi * f0, wp = f0 > 0 ? 0.8 * w0 : 2 * units::pi * 250e12,
                         g = f0 > 0 ? 0.05 * w0 : 2 * units::pi * 10e12;
            PoleCoeffs pc;
            pc.c1 = (2 - w0 * w0 * dt * dt) / (1 + g * dt / 2);
            pc.c2 = -(1 - g * dt / 2) / (1 + g * dt / 2);
            pc.c3 = wp * wp * dt * dt / (1 + g * dt / 2);
            ps.poles.push_back(pc);
        }
        s.pole_sets.push_back(ps);
        s.pole_sets.push_back(PoleSet{{ps.poles[0]}});
        s.pole_sets.push_back(PoleSet{{ps.poles[2]}});
        for (int comp = 0; comp < 3; ++comp) {
            std::vector<std::int32_t> cells;
            for (int m = 0; m < 200; ++m)
                cells.push_back(at3(s, 1 + int(rng() % (c.nx - 2)), 1 + int(rng() % (c.ny - 2)), 1 + int(rng() % (c.nz - 2))));
            std::sort(cells.begin(), cells.end());
            cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
            DispersiveCells& d = s.dispersive[comp];
            for (std::int32_t cell : cells) {
                d.cells.push_back(cell);
                d.pole_set.push_back(std::uint32_t(rng() % 3));
                d.weight.push_back(0.3 + 0.7 * u(rng));
            }
        }
    }
    if (c.tensor) {
        // Tensor couplings: ~150 random interior sites per E component, every slot naming a
        // random site of its partner component (or none) with a small random weight; the
        // engines need no geometric consistency to agree.
        std::vector<CellIndex> sites[3];
        for (int comp = 0; comp < 3; ++comp) {
            for (int m = 0; m < 150; ++m)
                sites[comp].push_back(at3(s, 1 + int(rng() % (c.nx - 2)), 1 + int(rng() % (c.ny - 2)), 1 + int(rng() % (c.nz - 2))));
            std::sort(sites[comp].begin(), sites[comp].end());
            sites[comp].erase(std::unique(sites[comp].begin(), sites[comp].end()), sites[comp].end());
        }
        AnisotropicCells& an = s.anisotropic;
        for (int comp = 0; comp < 3; ++comp) {
            an.cells[comp] = sites[comp];
            for (std::size_t k = 0; k < sites[comp].size(); ++k)
                for (int slot = 0; slot < 8; ++slot) {
                    const int partner = anisotropic_partner(comp, slot / 4, 3);
                    const bool none = rng() % 5 == 0;
                    an.neighbour[comp].push_back(none ? -1 : std::int32_t(rng() % sites[partner].size()));
                    an.weight[comp].push_back(0.06 * (u(rng) - 0.5));
                }
        }
    }
    return s;
}

std::vector<double> random_vector(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> v(n);
    for (double& x : v) x = u(rng);
    return v;
}

double rel_l2(const std::vector<double>& a, const std::vector<double>& b, bool& finite) {
    double num = 0, den = 0;
    for (std::size_t q = 0; q < a.size(); ++q) {
        if (!std::isfinite(b[q])) finite = false;
        num += (a[q] - b[q]) * (a[q] - b[q]);
        den += a[q] * a[q];
    }
    return std::sqrt(num / std::max(den, 1e-300));
}

const char* kind_name(BoundaryKind k) {
    switch (k) {
        case BoundaryKind::Pml: return "pml";
        case BoundaryKind::Periodic: return "periodic";
        case BoundaryKind::Pec: return "pec";
        case BoundaryKind::Pmc: return "pmc";
        default: return "other";
    }
}

/// Runs the case on both backends and checks every output against the CPU (tol relative).
void compare(const Case3& c, Precision prec, double tol) {
    Scene s = random_scene(c);
    if (c.one_map) {
        s.material_index[1] = s.material_index[0];
        s.material_index[2] = s.material_index[0];
        // The dispersive corrections carry cb of their cell's entry: keep the lists, whose
        // coefficients the engines derive from the (now shared) map.
    }
    auto cpu = make_cpu_engine(s, prec, 1);
    auto gpu = make_cuda_engine(s, prec);
    REQUIRE(gpu->backend() == "cuda");
    std::vector<std::vector<double>> init(6);
    for (int q = 0; q < 6; ++q) {
        init[q] = random_vector(s.cells(), c.seed * 10 + q);
        cpu->set_field(Component(q), init[q]);
        gpu->set_field(Component(q), init[q]);
    }
    // 100 steps (37: a run longer than one graph of 32, then a remainder; then 63), divided
    // by GOLIGHTLY_TEST_STEP_DIVISOR under racecheck (gpu-check.sh --sanitize3d; at least 10).
    const char* div_env = std::getenv("GOLIGHTLY_TEST_STEP_DIVISOR");
    const int div = div_env ? std::max(1, std::atoi(div_env)) : 1;
    const int steps = std::max(10, 100 / div), first = steps * 37 / 100;
    cpu->step(first);
    gpu->step(first);
    cpu->step(steps - first);
    gpu->step(steps - first);
    double worst = 0, moved = 1e300;
    for (int q = 0; q < 6; ++q) {
        std::vector<double> a, b(s.cells(), std::numeric_limits<double>::quiet_NaN());
        cpu->get_field(Component(q), a);
        gpu->get_field(Component(q), b);
        REQUIRE(b.size() == s.cells());
        bool finite = true;
        const double r = rel_l2(a, b, finite);
        bool f2 = true;
        moved = std::min(moved, rel_l2(a, init[q], f2));
        worst = std::max(worst, r);
        INFO(component_name(Component(q)) << " rel L2 diff " << r);
        CHECK(finite);
        CHECK(r < tol);
    }
    double dft_worst = 0;
    for (std::size_t set = 0; set < s.dft_sets.size(); ++set) {
        const auto x = cpu->dft(int(set)), y = gpu->dft(int(set));
        REQUIRE(x.size() == y.size());
        double num = 0, den = 0;
        for (std::size_t q = 0; q < x.size(); ++q) { num += std::norm(x[q] - y[q]); den += std::norm(x[q]); }
        REQUIRE(den > 0);
        dft_worst = std::max(dft_worst, std::sqrt(num / den));
    }
    CHECK(dft_worst < tol);
    double probe_worst = 0;
    for (std::size_t p = 0; p < s.time_probes.size(); ++p) {
        const auto x = cpu->time_samples(int(p)), y = gpu->time_samples(int(p));
        REQUIRE(x.size() == std::size_t(steps));
        REQUIRE(y.size() == x.size());
        bool finite = true;
        probe_worst = std::max(probe_worst, rel_l2(x, y, finite));
        CHECK(finite);
    }
    CHECK(probe_worst < tol);
    const double ea = cpu->field_energy(), eb = gpu->field_energy();
    CHECK(ea > 0);
    CHECK(std::abs(ea - eb) / ea < tol);
    CHECK(gpu->fields_finite());
    // Slice samples: an xz plane and a yz plane, both backends the same boxes.
    double slice_worst = 0;
    for (FrameSlice sl : {FrameSlice{1, c.ny / 3}, FrameSlice{0, c.nx - 1}, FrameSlice{2, 0}}) {
        cpu->frames().set_frame_slice(sl);
        gpu->frames().set_frame_slice(sl);
        for (bool squared : {false, true}) {
            const auto x = cpu->frames().sample_field(Component::Hy, 16, 16, squared), y = gpu->frames().sample_field(Component::Hy, 16, 16, squared);
            REQUIRE(x.width == y.width);
            REQUIRE(x.height == y.height);
            REQUIRE(x.factor == y.factor);
            std::vector<double> xa(x.values.begin(), x.values.end()), ya(y.values.begin(), y.values.end());
            bool finite = true;
            slice_worst = std::max(slice_worst, rel_l2(xa, ya, finite));
        }
        const Image8 fa = cpu->frames().frame({Component::Ez, 24, 24, 0, false}), fb = gpu->frames().frame({Component::Ez, 24, 24, 0, false});
        CHECK(fa.width == fb.width);
        CHECK(fa.height == fb.height);
    }
    CHECK(slice_worst < std::max(tol, 2e-6));  // the samples are float on both backends
    CHECK(moved > 1e-2);  // the fields really evolved
    std::printf("cuda3d %dx%dx%d %s/%s/%s pml %d+%d,%d+%d,%d+%d %s: fields %.3g, dft %.3g, probes %.3g, energy %.3g, "
                "slices %.3g (tol %.0e)\n",
                c.nx, c.ny, c.nz, kind_name(c.b[0]), kind_name(c.b[1]), kind_name(c.b[2]), s.pml_lo[0], s.pml_hi[0],
                s.pml_lo[1], s.pml_hi[1], s.pml_lo[2], s.pml_hi[2], prec == Precision::Float32 ? "float32" : "float64",
                worst, dft_worst, probe_worst, std::abs(ea - eb) / ea, slice_worst, tol);
}

const BoundaryKind PML = BoundaryKind::Pml, PER = BoundaryKind::Periodic, PEC = BoundaryKind::Pec, PMC = BoundaryKind::Pmc;

const Case3 kCases[] = {
    {32, 20, 18, {PML, PER, PEC}, {5, 0, 0}, {7, 0, 0}, 11},
    {33, 17, 21, {PMC, PML, PER}, {0, 4, 0}, {0, 6, 0}, 12},
    {64, 24, 20, {PER, PEC, PML}, {0, 0, 6}, {0, 0, 5}, 13},
    {31, 19, 23, {PML, PML, PML}, {5, 6, 4}, {6, 4, 5}, 14},
    {33, 18, 17, {PEC, PMC, PMC}, {0, 0, 0}, {0, 0, 0}, 15},
};

}  // namespace

// kCases[0] and [1] run the in-place pair (a periodic y face; nx = 33 with a PMC x face is not
// padded), kCases[3] the fused step of update_he3_tma (the default where it applies).
TEST_CASE("CUDA 3D engine matches the CPU 3D engine on random scenes (float32, 100 steps)", "[cuda3d][sanitize]") {
    compare(kCases[0], Precision::Float32, 1e-5);
    compare(kCases[1], Precision::Float32, 1e-5);
    compare(kCases[3], Precision::Float32, 1e-5);
}

TEST_CASE("CUDA 3D engine matches the CPU 3D engine on random scenes (float32 and float64, all boundary mixes)",
          "[cuda3d]") {
    for (const Case3& c : kCases) {
        compare(c, Precision::Float32, 1e-5);
        compare(c, Precision::Float64, 1e-11);
    }
}

// Every form of the bulk step (the fused step with or without tensor copies, the in-place
// pair) must give the same fields as the CPU engine on every case.
// The fused step (the default where update_he3_tma applies; GOLIGHTLY_CUDA3D_FUSED=1 forces it,
// =0 the in-place pair) runs update_he3_tma wherever it applies (x and y not periodic, nx a multiple
// of 8 after the CUDA engine's row padding to 32 cells: kCases[3] and kCases[4] among these);
// GOLIGHTLY_CUDA3D_TMA=require makes the engine throw where it does not, so the cases below
// that must run it are known to; GOLIGHTLY_CUDA3D_TMA=0 keeps update_he3 everywhere.
namespace {
// The same random initial fields (random_vector(cells, seed + component)) in two engines.
void same_random_fields(Engine& a, Engine& b, std::size_t cells, unsigned seed) {
    for (int q = 0; q < 6; ++q) {
        const auto v = random_vector(cells, seed + q);
        a.set_field(Component(q), v);
        b.set_field(Component(q), v);
    }
}
// Largest relative L2 difference of the six fields between two engines (poisoned reads;
// every field must be finite).
double worst_field_diff(Engine& cpu, Engine& gpu, std::size_t cells) {
    double worst = 0;
    for (int q = 0; q < 6; ++q) {
        std::vector<double> a, b(cells, std::numeric_limits<double>::quiet_NaN());
        cpu.get_field(Component(q), a);
        gpu.get_field(Component(q), b);
        bool finite = true;
        worst = std::max(worst, rel_l2(a, b, finite));
        CHECK(finite);
    }
    return worst;
}
// z periodic, x and y not, nx a multiple of 8: update_he3_tma wraps its plane coordinate.
const Case3 kTmaPeriodicZ = {40, 18, 19, {PML, PMC, PER}, {4, 0, 0}, {5, 0, 0}, 16};
}  // namespace

// The bulk step's variants, one test case each (so that compute-sanitizer can run them one
// process at a time: gpu-check.sh --sanitize3d).
TEST_CASE("CUDA 3D engine, fused step where it runs (GOLIGHTLY_CUDA3D_FUSED=1), matches the CPU 3D engine", "[cuda3d]") {
    EnvSet fused("GOLIGHTLY_CUDA3D_FUSED", "1");
    EnvSet tma("GOLIGHTLY_CUDA3D_TMA", "auto");
    for (const Case3& c : kCases) {
        compare(c, Precision::Float32, 1e-5);
        compare(c, Precision::Float64, 1e-11);
    }
}

TEST_CASE("CUDA 3D engine, fused step fed by tensor copies (GOLIGHTLY_CUDA3D_TMA=require), matches the CPU 3D engine",
          "[cuda3d]") {
    EnvSet fused("GOLIGHTLY_CUDA3D_FUSED", "1");
    EnvSet tma("GOLIGHTLY_CUDA3D_TMA", "require");
    for (const Case3& c : {kCases[3], kCases[4], kTmaPeriodicZ}) {
        compare(c, Precision::Float32, 1e-5);
        compare(c, Precision::Float64, 1e-11);
    }
    Case3 one = kTmaPeriodicZ;  // one material map: one uint16 tensor map
    one.one_map = true;
    compare(one, Precision::Float32, 1e-5);
}

// Two steps per pass (cuda_twostep3d.cuh): the default where it applies (float32 and float64,
// update_he3_tma's conditions, z not periodic);
// GOLIGHTLY_CUDA3D_TWO_STEP=require throws where it does not. The scenes keep their E and H
// point sources (some in the CPML slabs), DFT sets and probes, which the pass handles between
// its two steps; 37 and 63 steps give graphs of pairs and single steps after them. Each scene
// runs without and with random sub-pixel tensor couplings (formed from the captured first
// step and carried into the second: two_step_aniso_couple), and with dispersive cells (the
// first step's correction subtracted in the pass, the second step's poles advanced from the
// captured E1), alone and with the couplings.
TEST_CASE("CUDA 3D engine, two steps per pass (GOLIGHTLY_CUDA3D_TWO_STEP=require), matches the CPU 3D engine",
          "[cuda3d]") {
    EnvSet two("GOLIGHTLY_CUDA3D_TWO_STEP", "require");
    const Case3 cases[] = {kCases[3], kCases[4], {40, 18, 19, {PML, PMC, PEC}, {4, 0, 0}, {5, 0, 0}, 17},
                           {64, 27, 20, {PEC, PML, PML}, {0, 3, 6}, {0, 5, 5}, 18}};
    for (Case3 c : cases) {
        c.dispersive = false;
        c.tensor = false;
        compare(c, Precision::Float32, 1e-5);
        compare(c, Precision::Float64, 1e-11);
        c.one_map = true;
        compare(c, Precision::Float32, 1e-5);
        c.one_map = false;
        c.tensor = true;
        INFO("tensor couplings, seed " << c.seed);
        compare(c, Precision::Float32, 1e-5);
        compare(c, Precision::Float64, 1e-11);
        c.dispersive = true;
        INFO("dispersive cells and tensor couplings");
        compare(c, Precision::Float32, 1e-5);
        compare(c, Precision::Float64, 1e-11);
        c.tensor = false;
        INFO("dispersive cells");
        compare(c, Precision::Float32, 1e-5);
        c.one_map = true;
        compare(c, Precision::Float32, 1e-5);
    }
    {
        EnvSet chunk("GOLIGHTLY_CUDA3D_CHUNK", "3");  // every chunk edge: planes k0 - 2 .. k1 + 1 of each
        Case3 c = kCases[3];
        c.dispersive = false;
        c.tensor = false;
        compare(c, Precision::Float32, 1e-5);
    }
    // Grids with inner blocks (windows away from the faces and the CPML slabs: the tile at
    // i0 = 32, rows j0 = 7, 14 with the float32 default of 7 rows per tile, j0 = 8, 16 with 8)
    // and blocks that meet the slabs or faces of one axis only
    // (tile 0 or row 0 with a middle chunk; the inner tiles in the first or last chunk), which
    // run the skewed loop (GOLIGHTLY_CUDA3D_TWO_STEP_SKEW=2, the default; 1: the inner blocks
    // only; 0: none, the three-barrier order), and z chunks split at the slab edges
    // (ts_chunks: segments [0, 5), [5, 25), [25, 30) with CPML in z; [0, 3), [3, 28), [28, 30)
    // without), in chunks of 48 and of 7 planes (uneven: 6, 7, 7). PEC and PMC on both
    // sides of each axis. float32 tiles of 7 rows (the default) and 8
    // (GOLIGHTLY_CUDA3D_TWO_STEP_ROWS=8); float64 tiles of 8 rows.
    const Case3 inner[] = {{72, 28, 30, {PML, PML, PML}, {4, 3, 3}, {4, 3, 4}, 19},
                           {72, 28, 30, {PEC, PMC, PEC}, {0, 0, 0}, {0, 0, 0}, 20},
                           {72, 28, 30, {PMC, PEC, PMC}, {0, 0, 0}, {0, 0, 0}, 21}};
    for (const char* chunk : {"0", "7"})
        for (const char* skew : {"2", "1", "0"})
            for (Case3 c : inner) {
                EnvSet ch("GOLIGHTLY_CUDA3D_CHUNK", chunk);
                EnvSet sk("GOLIGHTLY_CUDA3D_TWO_STEP_SKEW", skew);
                c.dispersive = false;
                c.tensor = false;
                INFO("chunk " << chunk << ", skew " << skew << ", seed " << c.seed);
                compare(c, Precision::Float32, 1e-5);
                compare(c, Precision::Float64, 1e-11);
                c.dispersive = true;  // the correction in every loop (the inner, one-axis and general ones)
                INFO("dispersive cells");
                compare(c, Precision::Float32, 1e-5);
                compare(c, Precision::Float64, 1e-11);
                c.dispersive = false;
                EnvSet ro("GOLIGHTLY_CUDA3D_TWO_STEP_ROWS", "8");
                INFO("rows 8");
                compare(c, Precision::Float32, 1e-5);
                c.dispersive = true;
                compare(c, Precision::Float32, 1e-5);
            }
    // A larger grid with the default chunks and tiles: several tiles along x (the last one 8
    // columns wide) and y (the last one partial), two chunks in the middle z segment
    // (ts_chunks: [12, 101) in chunks of 48 at most), CPML slabs of unequal widths on all faces.
    // Not under compute-sanitizer (gpu-check.sh --sanitize3d sets GOLIGHTLY_TEST_STEP_DIVISOR):
    // the small scenes above take the same code paths there.
    if (!std::getenv("GOLIGHTLY_TEST_STEP_DIVISOR")) {
        Case3 big = {136, 61, 110, {PML, PML, PML}, {8, 6, 10}, {7, 9, 8}, 31};
        big.dispersive = false;
        big.tensor = false;
        compare(big, Precision::Float32, 1e-5);
        compare(big, Precision::Float64, 1e-11);
        big.tensor = true;
        compare(big, Precision::Float32, 1e-5);
        big.dispersive = true;
        compare(big, Precision::Float32, 1e-5);
    }
    // The traffic model counts two updates per pass: less than half of one step's 12 s + 6 B.
    Case3 c = kCases[3];
    c.dispersive = false;
    c.tensor = false;
    const double two_bytes = make_cuda_engine(random_scene(c), Precision::Float32)->bytes_per_cell_update();
    double one_bytes = 0;
    {
        EnvSet off("GOLIGHTLY_CUDA3D_TWO_STEP", "0");
        one_bytes = make_cuda_engine(random_scene(c), Precision::Float32)->bytes_per_cell_update();
    }
    CHECK(two_bytes < 0.7 * one_bytes);
    // The engine names its bulk kernel (Engine::kernel: summary.json "kernel", bench).
    CHECK(make_cuda_engine(random_scene(c), Precision::Float32)->kernel() == "two steps per pass (update_he3_two)");
    {
        EnvSet off("GOLIGHTLY_CUDA3D_TWO_STEP", "0");
        CHECK(make_cuda_engine(random_scene(c), Precision::Float32)->kernel() == "one step per pass, fused (update_he3_tma)");
        EnvSet pair("GOLIGHTLY_CUDA3D_FUSED", "0");
        CHECK(make_cuda_engine(random_scene(c), Precision::Float32)->kernel() ==
              "one step per pass, in place (update_h3, update_e3)");
    }
    // float64 too, with twice float32's bytes.
    const double two_bytes64 = make_cuda_engine(random_scene(c), Precision::Float64)->bytes_per_cell_update();
    CHECK(two_bytes64 > 1.9 * two_bytes);
    CHECK(two_bytes64 < 0.7 * 2 * one_bytes);
    // Dispersive cells run it too (kCases[3] has them); their pole kernels and corrections add
    // to the model, which stays below one step per pass's.
    {
        const Scene d = random_scene(kCases[3]);
        REQUIRE(!d.dispersive[0].cells.empty());
        auto two_d = make_cuda_engine(d, Precision::Float32);
        CHECK(two_d->kernel() == "two steps per pass (update_he3_two)");
        EnvSet off("GOLIGHTLY_CUDA3D_TWO_STEP", "0");
        const double one_d = make_cuda_engine(d, Precision::Float32)->bytes_per_cell_update();
        CHECK(two_d->bytes_per_cell_update() > two_bytes);
        CHECK(two_d->bytes_per_cell_update() < one_d);
    }
    // Where it does not apply, require names the reason.
    CHECK_THROWS_WITH(make_cuda_engine(random_scene(kTmaPeriodicZ), Precision::Float32), Catch::Contains("z is periodic"));
}

// A live edit that brings sub-pixel tensor cells to an engine running two steps per pass: the
// engine stays on two steps per pass and captures the new sites' tile-planes.
TEST_CASE("CUDA 3D engine, two steps per pass: a live edit that brings tensor cells gives the CPU engine's fields",
          "[cuda3d]") {
    EnvSet two("GOLIGHTLY_CUDA3D_TWO_STEP", "require");  // the run starts on two steps per pass
    Case3 c = kCases[3];
    c.dispersive = false;
    c.tensor = false;
    const Scene s = random_scene(c);
    Case3 c2 = c;
    c2.seed = 98;
    c2.tensor = true;
    Scene e = random_scene(c2);
    e.sources = s.sources; e.dft_sets = s.dft_sets; e.time_probes = s.time_probes;
    REQUIRE(!e.anisotropic.empty());
    auto cpu = make_cpu_engine(s, Precision::Float32, 1);
    auto gpu = make_cuda_engine(s, Precision::Float32);
    same_random_fields(*cpu, *gpu, s.cells(), 700);
    cpu->step(40);
    gpu->step(40);
    cpu->update_materials(e);
    gpu->update_materials(e);
    {  // still two steps per pass: about 12 s per cell update less than one step per pass would be
        EnvSet off("GOLIGHTLY_CUDA3D_TWO_STEP", "0");
        const double one_step = make_cuda_engine(e, Precision::Float32)->bytes_per_cell_update();
        CHECK(gpu->bytes_per_cell_update() < one_step - 20.0);
    }
    CHECK(gpu->kernel() == "two steps per pass (update_he3_two)");
    cpu->step(60);
    gpu->step(60);
    const double worst = worst_field_diff(*cpu, *gpu, s.cells());
    std::printf("cuda3d two steps per pass, live edit with tensor cells: fields %.3g (tol 1e-05)\n", worst);
    CHECK(worst < 1e-5);
}

TEST_CASE("CUDA 3D engine, fused step without tensor copies (GOLIGHTLY_CUDA3D_TMA=0), matches the CPU 3D engine",
          "[cuda3d]") {
    EnvSet fused("GOLIGHTLY_CUDA3D_FUSED", "1");
    EnvSet tma("GOLIGHTLY_CUDA3D_TMA", "0");
    for (const Case3& c : kCases) {
        compare(c, Precision::Float32, 1e-5);
        compare(c, Precision::Float64, 1e-11);
    }
}

TEST_CASE("CUDA 3D engine, in-place pair (GOLIGHTLY_CUDA3D_FUSED=0), matches the CPU 3D engine", "[cuda3d]") {
    EnvSet pair("GOLIGHTLY_CUDA3D_FUSED", "0");
    for (const Case3& c : kCases) {
        compare(c, Precision::Float32, 1e-5);
        compare(c, Precision::Float64, 1e-11);
    }
}

// One material map for Ex, Ey and Ez (no sub-pixel averaging): the CUDA engine stores and
// reads it once (2 B per cell instead of 6; per cell update 4 B less with one step per pass,
// 2 B with two).
TEST_CASE("CUDA 3D engine with one material map for the three E components matches the CPU engine", "[cuda3d]") {
    for (Case3 c : {kCases[0], kCases[3]}) {
        c.one_map = true;
        compare(c, Precision::Float32, 1e-5);
        compare(c, Precision::Float64, 1e-11);
        Scene s = random_scene(c);
        s.material_index[1] = s.material_index[2] = s.material_index[0];
        auto one_map = make_cuda_engine(s, Precision::Float32);
        const double saved = one_map->kernel().rfind("two steps", 0) == 0 ? 2.0 : 4.0;
        CHECK(one_map->bytes_per_cell_update() <
              make_cuda_engine(random_scene(c), Precision::Float32)->bytes_per_cell_update() - (saved - 0.1));
    }
}

// z chunks of 3 or 4 planes (GOLIGHTLY_CUDA3D_CHUNK): every chunk of the fused kernel starts by
// recomputing H of the plane below it, and the in-place kernels carry their z neighbour across
// chunk edges; small grids otherwise run as one chunk.
TEST_CASE("CUDA 3D engine matches the CPU 3D engine with short z chunks", "[cuda3d]") {
    for (const char* fused : {"0", "1"})
        for (const char* chunk : {"3", "4"}) {
            setenv("GOLIGHTLY_CUDA3D_FUSED", fused, 1);
            setenv("GOLIGHTLY_CUDA3D_CHUNK", chunk, 1);
            compare(kCases[3], Precision::Float64, 1e-11);
            compare(kCases[2], Precision::Float32, 1e-5);
        }
    unsetenv("GOLIGHTLY_CUDA3D_CHUNK");
    unsetenv("GOLIGHTLY_CUDA3D_FUSED");
}

TEST_CASE("CUDA 3D engine: a live edit of the materials mid-run gives the CPU engine's fields", "[cuda3d]") {
    for (Precision prec : {Precision::Float32, Precision::Float64}) {
        const Case3& c = kCases[3];
        const Scene s = random_scene(c);
        // The edit: every E component's map re-drawn (another seed), table rebuilt; the
        // dispersive cells and pole sets stay (check_material_update).
        Case3 c2 = c;
        c2.seed = 99;
        Scene e = random_scene(c2);
        e.dispersive[0] = s.dispersive[0]; e.dispersive[1] = s.dispersive[1]; e.dispersive[2] = s.dispersive[2];
        e.pole_sets = s.pole_sets;
        e.sources = s.sources; e.dft_sets = s.dft_sets; e.time_probes = s.time_probes;
        auto cpu = make_cpu_engine(s, prec, 1);
        auto gpu = make_cuda_engine(s, prec);
        same_random_fields(*cpu, *gpu, s.cells(), 500);
        cpu->step(40);
        gpu->step(40);
        cpu->update_materials(e);
        gpu->update_materials(e);
        cpu->step(60);
        gpu->step(60);
        const double worst = worst_field_diff(*cpu, *gpu, s.cells());
        // The edit mattered: without it the CPU fields differ by far more than the tolerance.
        auto ref = make_cpu_engine(s, prec, 1);
        for (int q = 0; q < 6; ++q) ref->set_field(Component(q), random_vector(s.cells(), 500 + q));
        ref->step(100);
        std::vector<double> a, r;
        cpu->get_field(Component::Ez, a);
        ref->get_field(Component::Ez, r);
        bool finite = true;
        const double effect = rel_l2(a, r, finite);
        const double tol = prec == Precision::Float32 ? 1e-5 : 1e-11;
        std::printf("cuda3d live edit %s: fields %.3g (tol %.0e), effect of the edit %.3g\n",
                    prec == Precision::Float32 ? "float32" : "float64", worst, tol, effect);
        CHECK(worst < tol);
        CHECK(effect > 1e-2);
    }
}

TEST_CASE("CUDA 3D engine refuses a TF/SF box in the PML and Mur clearly, traffic model", "[cuda3d]") {
    Scene s = random_scene(kCases[0]);
    Scene t = s;
    TfsfSource src;
    src.lo = {3, 4, 4};  // x PML: 5 cells
    src.hi = {20, 14, 12};
    t.tfsf.push_back(src);
    try {
        (void)make_cuda_engine(t, Precision::Float32);
        FAIL("a TF/SF box in the PML accepted");
    } catch (const RunError& e) {
        CHECK(std::string(e.what()).find("tfsf[0]") != std::string::npos);
        CHECK(std::string(e.what()).find("outside the PML") != std::string::npos);
    }
    Scene m = s;
    m.boundary[2] = BoundaryKind::Mur;
    CHECK_THROWS_AS(make_cuda_engine(m, Precision::Float32), RunError);
    // Bulk model 12 s + 6 B (fused, the default), plus psi and extension traffic on top.
    const auto e32 = make_cuda_engine(s, Precision::Float32), e64 = make_cuda_engine(s, Precision::Float64);
    std::printf("cuda3d traffic model: %.2f B/cell float32, %.2f B/cell float64\n", e32->bytes_per_cell_update(),
                e64->bytes_per_cell_update());
    CHECK(e32->bytes_per_cell_update() > 54.0);
    CHECK(e64->bytes_per_cell_update() > 102.0);
}

namespace {
/// CPU and CUDA engines on `s` (zero initial fields), `steps` steps: the largest relative L2
/// difference over the given components (GPU outputs poisoned first), and the CPU fields'
/// largest L2 norm (the wave really entered).
std::pair<double, double> tfsf_cpu_vs_cuda(const Scene& s, Precision prec, int steps, const std::vector<Component>& comps) {
    auto cpu = make_cpu_engine(s, prec, 1);
    auto gpu = make_cuda_engine(s, prec);
    cpu->step(steps);
    gpu->step(steps);
    double worst = 0, norm = 0;
    for (Component c : comps) {
        std::vector<double> a, b(s.cells(), std::numeric_limits<double>::quiet_NaN());
        cpu->get_field(c, a);
        gpu->get_field(c, b);
        bool finite = true;
        worst = std::max(worst, rel_l2(a, b, finite));
        CHECK(finite);
        double n2 = 0;
        for (double v : a) n2 += v * v;
        norm = std::max(norm, std::sqrt(n2));
    }
    return {worst, norm};
}
}  // namespace

// TF/SF on the CUDA engines (cuda_tfsf.cuh, the CPU engine's plan): 3D random scenes with two
// boxes (+z with Ex, -x with Ey; edges and corners of both), and 2D TMz / TEz scenes.
TEST_CASE("CUDA engines run TF/SF plane waves as the CPU engines (3D and 2D, float32 and float64)",
          "[cuda3d][tfsf][sanitize]") {
    const CompiledWaveform w = gaussian_pulse(250e12, 2.5e-15);
    for (Precision prec : {Precision::Float32, Precision::Float64}) {
        const double tol = prec == Precision::Float32 ? 1e-5 : 1e-11;
        Scene s = random_scene(kCases[3]);  // 31 x 19 x 23, PML on every face
        TfsfSource a;
        a.lo = {8, 8, 7};
        a.hi = {20, 12, 14};
        a.axis = 2;
        a.sign = +1;
        a.e_component = Component::Ex;
        a.waveform = w;
        TfsfSource b = a;
        b.lo = {9, 7, 6};
        b.hi = {22, 13, 16};
        b.axis = 0;
        b.sign = -1;
        b.e_component = Component::Ey;
        b.delay_s = 1e-15;
        s.tfsf = {a, b};
        const auto [d3, n3] = tfsf_cpu_vs_cuda(s, prec, 120, {Component::Ex, Component::Ey, Component::Ez, Component::Hx,
                                                              Component::Hy, Component::Hz});
        std::printf("cuda tfsf 3D %s: fields %.3g (tol %.0e), norm %.3g\n",
                    prec == Precision::Float32 ? "float32" : "float64", d3, tol, n3);
        CHECK(d3 < tol);
        CHECK(n3 > 1e-3);
        // The same boxes with two steps per pass, without and with dispersive cells: the E and H
        // corrections between the pass's two steps carried into its output (two_step_tfsf);
        // 121 steps: pairs, then one single step.
        // With dispersive cells and no tensor couplings, consecutive passes share one pole
        // kernel (disp_step_advance_corr), after the TF/SF corrections.
        for (const int variant : {0, 1, 2}) {
            EnvSet two("GOLIGHTLY_CUDA3D_TWO_STEP", "require");
            Case3 c = kCases[3];
            const bool dispersive = variant > 0;
            c.dispersive = dispersive;
            c.tensor = variant < 2;
            Scene u = random_scene(c);
            u.tfsf = s.tfsf;
            INFO("dispersive cells: " << dispersive << ", tensor couplings: " << c.tensor);
            for (int steps : {120, 121}) {
                const auto [d, n] = tfsf_cpu_vs_cuda(u, prec, steps, {Component::Ex, Component::Ey, Component::Ez,
                                                                      Component::Hx, Component::Hy, Component::Hz});
                std::printf("cuda tfsf 3D two steps per pass%s %s, %d steps: fields %.3g (tol %.0e), norm %.3g\n",
                            variant == 1 ? " with dispersive cells" : variant == 2 ? " with dispersive cells, no tensor" : "",
                            prec == Precision::Float32 ? "float32" : "float64", steps, d, tol, n);
                CHECK(d < tol);
                CHECK(n > 1e-3);
            }
        }
        for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
            SceneSpec sp;
            sp.nx = 64;
            sp.ny = 48;
            sp.polarization = pol;
            sp.pml_cells = 8;
            sp.eps_r = [](Component c, int i, int j) { return (i - 30) * (i - 30) + (j - 24) * (j - 24) < 40 ? 3.0 + int(c) : 1.0; };
            Scene t = make_scene(sp);
            TfsfSource src;
            src.lo = {15, 12, 0};
            src.hi = {45, 35, 0};
            src.axis = 0;
            src.sign = +1;
            src.e_component = pol == Polarization::TMz ? Component::Ez : Component::Ey;
            src.waveform = w;
            t.tfsf = {src};
            const std::vector<Component> comps = pol == Polarization::TMz
                                                     ? std::vector<Component>{Component::Ez, Component::Hx, Component::Hy}
                                                     : std::vector<Component>{Component::Ex, Component::Ey, Component::Hz};
            const auto [d2, n2] = tfsf_cpu_vs_cuda(t, prec, 300, comps);
            std::printf("cuda tfsf 2D %s %s: fields %.3g (tol %.0e), norm %.3g\n", pol == Polarization::TMz ? "TMz" : "TEz",
                        prec == Precision::Float32 ? "float32" : "float64", d2, tol, n2);
            CHECK(d2 < tol);
            CHECK(n2 > 1e-3);
        }
    }
}
