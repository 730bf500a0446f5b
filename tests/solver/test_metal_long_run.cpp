// Long runs of metals with every run.subpixel_metal scheme (issue 49, Validation: "a long
// run (10^6 steps, float32 and float64) of a gold sphere with each scheme stays bounded").
//
// The scenes: B-CALM's gold (Drude + 5 Lorentz poles, tests/common/gold_bcalm.hpp) in air,
// in a closed PEC box (no PML: a passive box whose only loss is the metal's), 2.5 nm cells,
// CPU engine, one thread:
//   3D  a sphere of radius 3.8 cells, centre off the grid, in a 10^3 box: cut cells of every
//       kind (the surface crosses each E component's cells at every angle), small enough
//       for 10^6 steps of each scene and precision in about 30 s of CPU (the 3D engine
//       does 30-40 Mcells/s on rows this short);
//   2D  TEz (E in the plane, normal to the wire's surface: where the schemes differ most) a
//       cylinder of radius 5.3 cells and a gold slab (its own material) whose faces are
//       normal to x, in a 24 x 16 box. The slab makes every scheme compile to its own scene:
//       on the cylinder "tangential" and "conformal" are the staircase (every cut cell has an
//       oblique normal), on the slab "tangential" weights Ey (tangential) by the fill
//       fraction and "conformal" gives its cut cells their own generalized poles.
// Schemes that compile to the same scene (on the sphere alone: staircase, tangential and
// conformal, since gold's eps_inf is air's, 1) are checked to be identical (up to the
// float32 rounding of one cell's eps_inf average, 6e-8) and run once.
//
// The "short source" is an impulse: at t = 0 the H field is random (uniform in [-1, 1] per
// cell and component) under a Gaussian envelope centred on the metal, E = 0 and every pole
// at rest (P = dP = 0). All wavenumbers up to the grid's Nyquist are excited, where the
// explicit pole update and the Courant limit would first go unstable. Then 10^6 steps in all.
//
// The bound. Leapfrog (Yee) updates in the normalized units of scene.hpp conserve, in a
// lossless box, the discrete energy
//   W^n = sum_E eps_r (E^n)^2 + sum_H H^{n-1/2} . H^{n+1/2}
// (Taflove & Hagness 3rd ed. sec. 4.7; H^{n+1/2} = H^{n-1/2} - S curl E^n). A passive metal
// (gamma >= 0, omega_p^2 >= 0: every pole here) only takes energy out of the field: the
// total energy W + (energy of the poles, >= 0) cannot grow, so W^n <= W^0 as long as the
// scheme is stable. W^0 = sum_H (H^{-1/2})^2 = N^0, the engine's field_energy() at t = 0,
// since E^0 = 0 leaves H^{1/2} = H^{-1/2}. Asserted:
//   (a) W^n <= (1 + delta) W^0, with W^n computed from the fields (get_field) every
//       5000 steps (and at steps 16, 32, .., 4096 for the early transient);
//   (b) the engine's read-back N^n = field_energy() = sum eps_r E^2 + sum H^2 (same units)
//       obeys N^n <= (1 + delta) N^0 / (1 - q): W^n differs from N^n by
//       -S <curl E^n, H^{n-1/2}>, and |S <curl E, H>| <= q N with q = S sqrt(D) /
//       sqrt(min eps_r) (the Yee curl's norm is 2 sqrt(D) / dx; Cauchy-Schwarz), so
//       (1 - q) N^n <= W^n. D = 2 or 3, S the Courant number; q < 1 is the Courant limit;
//   (c) the fields stay finite.
// delta = 1e-3: the explicit pole coupling (P^{n+1} from E^n) makes the discrete pole
// energy differ from the continuous one by terms of order (omega_p dt)^2 / 4 = 6e-4
// (B-CALM's Drude omega_p = 1.2e16 rad/s, dt = 4.2e-18 s in 3D), and float32 rounding adds
// a random walk of about 6e-8 sqrt(steps) = 6e-5 of the energy over 10^6 steps. Measured:
// W never above 0.995 W^0 at any read-back; N up to 1.43 N^0 right after the impulse (the
// random field's Nyquist part, where the cross term is largest), so a bound N <= N^0 would
// be wrong. A growing mode exceeds either bound within a few
// hundred e-foldings (the unstable variants below: a negative-damping pole).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/project.hpp"
#include "golightly/scene.hpp"
#include "gold_bcalm.hpp"
#include "metal_scenes.hpp"

using namespace golightly;

namespace {

constexpr double kDx = 0.0025;            // um
constexpr std::int64_t kSteps = 1000000;  // the 10^6 steps
constexpr int kEvery = 5000;              // energy read-back every kEvery steps
constexpr double kDelta = 1e-3;           // header comment: pole coupling and rounding

const SubpixelMetal kSchemes[4] = {SubpixelMetal::Staircase, SubpixelMetal::Tangential, SubpixelMetal::Fraction,
                                   SubpixelMetal::Conformal};

/// Common settings: PEC on every face, 2.5 nm cells, Courant 0.5, the band 0.4-1.0 um (gold
/// is a metal there: Re eps < 0), no sources (the impulse is set on the engine).
Project closed_box(int dims, double lx, double ly, double lz, SubpixelMetal scheme) {
    Project p;
    p.name = "metal long run";
    p.domain.dimensions = dims;
    p.domain.polarization = Polarization::TEz;
    p.domain.size = {lx, ly, lz};
    p.domain.cell_size = kDx;
    p.domain.boundaries = {BoundaryKind::Pec, BoundaryKind::Pec, BoundaryKind::Pec};
    p.domain.pml.cells = 0;
    p.domain.background = "air";
    p.run.courant = 0.5;
    p.run.subpixel_metal = scheme;
    p.run.backend = BackendChoice::Cpu;
    p.run.spectrum.wavelength_min = 0.4;
    p.run.spectrum.wavelength_max = 1.0;
    p.run.spectrum.points = 3;
    p.run.frames.component = dims == 3 ? Component::Ez : Component::Hz;
    return p;
}

/// 3D: a gold sphere of radius 3.8 cells in a 10^3-cell PEC box, its centre (0.37, -0.21,
/// 0.13) cells off the box's centre.
Project sphere_project(SubpixelMetal scheme) {
    const double L = 10 * kDx;
    Project p = closed_box(3, L, L, L, scheme);
    const Material au = gold_bcalm::example_gold();
    p.materials = {au};
    Layer l;
    l.name = "sphere";
    l.material = au.id;
    Shape s;
    s.type = ShapeType::Sphere;
    s.center_3d = {L / 2 + 0.37 * kDx, L / 2 - 0.21 * kDx, L / 2 + 0.13 * kDx};
    s.radius = 3.8 * kDx;
    l.shapes = {s};
    p.layers = {l};
    return p;
}

/// 2D TEz: a gold cylinder (radius 5.3 cells, centre (7.37, 7.79) cells) and a gold slab
/// (its own material, x from 15.6 to 19.0 cells, spanning y through the walls) in a 24 x 16
/// PEC box.
Project cylinder_slab_project(SubpixelMetal scheme) {
    Project p = closed_box(2, 24 * kDx, 16 * kDx, 0, scheme);
    const Material au = gold_bcalm::example_gold();
    Material slab_au = au;
    slab_au.id = au.id + "_slab";
    slab_au.name = au.name + " (slab)";
    p.materials = {au, slab_au};
    Layer cyl;
    cyl.name = "cylinder";
    cyl.material = au.id;
    Shape d;
    d.type = ShapeType::Ellipse;
    d.center = {7.37 * kDx, 7.79 * kDx};
    d.radii = {5.3 * kDx, 5.3 * kDx};
    cyl.shapes = {d};
    Layer slab;
    slab.name = "slab";
    slab.material = slab_au.id;
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {15.6 * kDx, -10 * kDx};
    r.max = {19.0 * kDx, 30 * kDx};
    slab.shapes = {r};
    p.layers = {cyl, slab};
    return p;
}

using metal_scenes::same_metal_scene;

std::vector<Component> e_components(const Scene& s) {
    return s.dimensions == 3 ? std::vector<Component>{Component::Ex, Component::Ey, Component::Ez}
                             : electric_components(s.polarization);
}
std::vector<Component> h_components(const Scene& s) {
    return s.dimensions == 3 ? std::vector<Component>{Component::Hx, Component::Hy, Component::Hz}
                             : magnetic_components(s.polarization);
}

/// q = S sqrt(D) / sqrt(min eps_r) of the header comment (the smallest table eps_r of any E
/// cell of the scene).
double courant_q(const Scene& s) {
    double eps_min = 1e300;
    for (Component c : e_components(s))
        for (std::uint16_t m : s.material_index[int(c)]) eps_min = std::min(eps_min, s.table[m].eps_r);
    return s.courant * std::sqrt(double(s.dimensions)) / std::sqrt(eps_min);
}

/// Flips the damping of every Drude pole (pole_restoring 0) of the scene: the pole of
/// gamma becomes the pole of -gamma (c1, c2, c3 of scene.hpp with g dt -> -g dt), an active
/// medium. The deliberately unstable variant.
void negate_drude_damping(Scene& s) {
    for (PoleSet& ps : s.pole_sets)
        for (PoleCoeffs& c : ps.poles) {
            if (pole_restoring(c) != 0.0 || c.m1 != 0.0) continue;
            const double kd = pole_damping(c);  // g dt / (1 + g dt/2)
            const double gdt = kd / (1 - kd / 2);
            const double wp2dt2 = c.c3 * (1 + gdt / 2);
            c.c1 = 2 / (1 - gdt / 2);
            c.c2 = -(1 + gdt / 2) / (1 - gdt / 2);
            c.c3 = wp2dt2 / (1 - gdt / 2);
        }
}

struct LongRun {
    double max_w = 0;       ///< max over read-backs of W^n / W^0
    double max_n = 0;       ///< max of N^n / N^0 (field_energy)
    double last_n = 0;      ///< N / N^0 at the end
    bool finite = true;
    std::int64_t steps = 0;
    std::int64_t first_over = -1;  ///< first step where a bound was exceeded (-1: never)
    double mcells_per_s = 0;      ///< cell updates per second of wall time
    double mcells_per_cpu_s = 0;  ///< per second of the process's CPU time (one engine thread)
};

/// The long run of the header comment on `scene` in `precision`: the impulse, then `steps`
/// steps with W and N read every kEvery steps against the bounds (max W/W0 <= w_bound, max
/// N/N0 <= n_bound). With stop_when_over, returns at the first read-back over a bound.
LongRun long_run(const Scene& scene, Precision precision, std::int64_t steps, double w_bound, double n_bound,
                 bool stop_when_over) {
    auto eng = make_cpu_engine(scene, precision, 1);
    const std::size_t n = scene.cells();
    const double dims = double(scene.dimensions);
    // the metal's centre: the mean position of the dispersive cells of the first E component
    double centre[3] = {0, 0, 0};
    {
        const auto& cells = scene.dispersive[int(e_components(scene)[0])].cells;
        REQUIRE(!cells.empty());
        for (CellIndex k : cells) {
            centre[0] += double(k % scene.nx);
            centre[1] += double((k / scene.nx) % scene.ny);
            centre[2] += double(k / (CellIndex(scene.nx) * scene.ny));
        }
        for (double& x : centre) x /= double(cells.size());
    }
    const double width = 6.0;  // cells, 1/e of the envelope's amplitude
    std::mt19937 rng(49);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    for (Component c : h_components(scene)) {
        std::vector<double> h(n);
        for (std::size_t k = 0; k < n; ++k) {
            const double x = double(k % std::size_t(scene.nx)) - centre[0];
            const double y = double((k / std::size_t(scene.nx)) % std::size_t(scene.ny)) - centre[1];
            const double z = dims == 3 ? double(k / (std::size_t(scene.nx) * std::size_t(scene.ny))) - centre[2] : 0.0;
            h[k] = U(rng) * std::exp(-(x * x + y * y + z * z) / (width * width));
        }
        eng->set_field(c, h);
    }
    // W^n from the fields: E^n and H^{n-1/2} now, one step, then H^{n+1/2}
    std::vector<std::vector<double>> h_old;
    std::vector<double> buf;
    auto leapfrog_energy = [&]() {
        double w = 0;
        for (Component c : e_components(scene)) {
            eng->get_field(c, buf);
            const auto& mi = scene.material_index[int(c)];
            for (std::size_t k = 0; k < n; ++k) w += scene.table[mi[k]].eps_r * buf[k] * buf[k];
        }
        h_old.clear();
        for (Component c : h_components(scene)) {
            h_old.emplace_back();
            eng->get_field(c, h_old.back());
        }
        eng->step(1);
        std::size_t q = 0;
        for (Component c : h_components(scene)) {
            eng->get_field(c, buf);
            for (std::size_t k = 0; k < n; ++k) w += h_old[q][k] * buf[k];
            ++q;
        }
        return w;
    };
    const double n0 = eng->field_energy();
    const double w0 = leapfrog_energy();
    REQUIRE(n0 > 0);
    REQUIRE(w0 / (n0 / (0.5 * 8.8541878128e-12 * std::pow(scene.dx_um * 1e-6, dims))) == Approx(1.0).epsilon(1e-9));
    LongRun out;
    double stepping_s = 0, cpu_s = 0;
    while (eng->steps_done() < steps) {
        // read-backs at 16, 32, .., 4096 steps, then every kEvery steps
        const std::int64_t next = std::min<std::int64_t>(std::max<std::int64_t>(eng->steps_done(), 16), kEvery);
        const int batch = int(std::min<std::int64_t>(next - 1, steps - eng->steps_done() - 1));
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        if (batch > 0) eng->step(batch);
        cpu_s += double(std::clock() - c0) / CLOCKS_PER_SEC;
        stepping_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        out.finite = eng->fields_finite();
        const double nn = eng->field_energy() / n0;
        const double ww = out.finite ? leapfrog_energy() / w0 : HUGE_VAL;
        out.max_w = std::max(out.max_w, out.finite ? ww : HUGE_VAL);
        out.max_n = std::max(out.max_n, out.finite ? nn : HUGE_VAL);
        out.last_n = nn;
        if (out.first_over < 0 && (!out.finite || ww > w_bound || nn > n_bound)) out.first_over = eng->steps_done();
        if (!out.finite || (stop_when_over && out.first_over >= 0)) break;
    }
    out.steps = eng->steps_done();
    out.mcells_per_s = double(n) * double(out.steps) / std::max(stepping_s, 1e-9) / 1e6;
    out.mcells_per_cpu_s = double(n) * double(out.steps) / std::max(cpu_s, 1e-9) / 1e6;
    return out;
}

/// Runs `scene` in float32 and float64 and asserts the bounds; `label` names it.
void check_long_runs(const Scene& scene, const std::string& label) {
    const double q = courant_q(scene);
    REQUIRE(q < 1);
    REQUIRE(scene.is_dispersive());
    REQUIRE(!scene.is_anisotropic());  // the bound's diagonal eps_r (gold's eps_inf is air's)
    const double w_bound = 1 + kDelta, n_bound = (1 + kDelta) / (1 - q);
    for (Precision prec : {Precision::Float32, Precision::Float64}) {
        const LongRun r = long_run(scene, prec, kSteps, w_bound, n_bound, false);
        std::printf("%s %s: %lld steps, %zu cells, %.1f Mcells/s (wall), %.1f (CPU): max W/W0 %.6g (bound %.4f), max N/N0 %.6g "
                    "(bound %.3f, q %.3f), final N/N0 %.3e%s\n",
                    label.c_str(), prec == Precision::Float32 ? "float32" : "float64", (long long)r.steps,
                    scene.cells(), r.mcells_per_s, r.mcells_per_cpu_s, r.max_w, w_bound, r.max_n, n_bound, q, r.last_n,
                    r.finite ? "" : ", NOT FINITE");
        std::fflush(stdout);
        INFO(label << (prec == Precision::Float32 ? " float32" : " float64") << ": first over the bound at step "
                   << r.first_over);
        CHECK(r.steps == kSteps);
        CHECK(r.finite);
        CHECK(r.max_w <= w_bound);
        CHECK(r.max_n <= n_bound);
    }
}

}  // namespace

TEST_CASE("metal long run: a 3D gold sphere, every subpixel_metal scheme, 10^6 steps in float32 and float64, "
          "the energy never above its initial value",
          "[subpixel_metal][dispersive][long_run][slow]") {
    Scene scenes[4];
    for (int s = 0; s < 4; ++s) scenes[s] = compile_project(sphere_project(kSchemes[s]), "sphere.glproj").scene;
    // On a sphere every component has a normal part somewhere: tangential is the staircase,
    // and conformal (oblique cut cells) keeps the tangential rule; gold's eps_inf is air's,
    // so the eps_inf average differs only by the float32 rounding of the coverage fractions
    // (one cell at 1 - 6e-8: tolerance 1e-6). Fraction is its own scene.
    CHECK(same_metal_scene(scenes[1], scenes[0], 1e-6));
    CHECK(same_metal_scene(scenes[3], scenes[0], 1e-6));
    CHECK(!same_metal_scene(scenes[2], scenes[0], 1e-6));
    std::size_t partial = 0;
    for (double w : scenes[2].dispersive[0].weight) partial += w < 1;
    CHECK(partial > 50);  // the fraction scheme's cut cells
    check_long_runs(scenes[0], "3D sphere staircase = tangential = conformal");
    check_long_runs(scenes[2], "3D sphere fraction");
}

TEST_CASE("metal long run: a 2D gold cylinder and slab in TEz, every subpixel_metal scheme (four scenes), 10^6 "
          "steps in float32 and float64, the energy never above its initial value",
          "[subpixel_metal][dispersive][conformal_metal][long_run][slow]") {
    Scene scenes[4];
    for (int s = 0; s < 4; ++s) scenes[s] = compile_project(cylinder_slab_project(kSchemes[s]), "cyl.glproj").scene;
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
            INFO(to_string(kSchemes[a]) << " vs " << to_string(kSchemes[b]));
            CHECK(!same_metal_scene(scenes[a], scenes[b], 1e-6));
        }
    std::size_t generalized = 0;
    for (const PoleSet& ps : scenes[3].pole_sets)
        for (const PoleCoeffs& c : ps.poles) generalized += !plain_pole(c);
    CHECK(generalized > 0);  // conformal: the slab's cut cells have their own poles
    for (int s = 0; s < 4; ++s) check_long_runs(scenes[s], "2D TEz cylinder + slab " + to_string(kSchemes[s]));
}

TEST_CASE("metal long run: the bound trips on an unstable variant (a Drude pole with negative damping)",
          "[subpixel_metal][dispersive][long_run][slow]") {
    // The same check as above on the 2D scene (default scheme) with gold's Drude pole made
    // active (gamma -> -gamma, negate_drude_damping): the energy must exceed the bounds
    // well before 10^6 steps, so the long runs above can fail.
    Scene s = compile_project(cylinder_slab_project(SubpixelMetal::Tangential), "cyl.glproj").scene;
    negate_drude_damping(s);
    const double q = courant_q(s);
    for (Precision prec : {Precision::Float32, Precision::Float64}) {
        const LongRun r = long_run(s, prec, kSteps, 1 + kDelta, (1 + kDelta) / (1 - q), true);
        std::printf("unstable variant %s: over the bound at step %lld (max W/W0 %.3e, N/N0 %.3e)\n",
                    prec == Precision::Float32 ? "float32" : "float64", (long long)r.first_over, r.max_w, r.max_n);
        std::fflush(stdout);
        CHECK(r.first_over > 0);
        CHECK(r.first_over < kSteps);
    }
}
