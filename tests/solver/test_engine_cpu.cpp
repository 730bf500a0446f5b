// CPU engine: consistency (float32 vs float64, bookkeeping, field access, NaN check),
// DFT timing against an analytic transform, frames, and the periodic / PEC / PMC
// boundary semantics of scene.hpp checked through exact symmetry equivalences.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <complex>
#include <cstdlib>
#include <limits>

#include "golightly/colormap.hpp"
#include "golightly/engine.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

std::vector<Component> all_components(Polarization p) {
    auto c = electric_components(p);
    for (auto h : magnetic_components(p)) c.push_back(h);
    return c;
}

}  // namespace

TEST_CASE("CPU engine: float32 and float64 agree on random fields and materials", "[physics][engine]") {
    for (auto pol : {Polarization::TMz, Polarization::TEz}) {
        Scene s = make_random_material_scene(48, 40, pol, 11, BoundaryKind::Pml, BoundaryKind::Periodic, 8);
        const double f0 = units::c0 / (20 * s.dx_um * units::um);
        add_point_source(s, electric_components(pol)[0], 20, 17, gaussian_pulse(f0, 1.0 / f0));
        add_point_source(s, magnetic_components(pol)[0], 30, 25, gaussian_pulse(f0, 1.0 / f0));
        auto e32 = make_cpu_engine(s, Precision::Float32, 2);
        auto e64 = make_cpu_engine(s, Precision::Float64, 2);
        CHECK(e32->precision() == Precision::Float32);
        CHECK(e64->precision() == Precision::Float64);
        CHECK(e64->backend() == "cpu");
        randomize_fields(*e32, s, 5);
        randomize_fields(*e64, s, 5);
        e32->step(60);
        e64->step(40);
        CHECK(e32->steps_done() == 60);
        CHECK(e64->steps_done() == 40);
        e64->step(20);
        CHECK(e64->steps_done() == 60);
        e32->step(40);
        e64->step(40);
        for (Component c : all_components(pol)) {
            std::vector<double> a, b;
            e32->get_field(c, a);
            e64->get_field(c, b);
            const double rel = max_abs_diff(a, b) / max_abs(b);
            std::printf("[engine] float32 vs float64 after 100 steps, %s component %d: relative difference %.1e\n",
                        pol == Polarization::TMz ? "TMz" : "TEz", int(c), rel);
            INFO("polarization " << int(pol) << " component " << int(c) << " rel diff " << rel);
            CHECK(max_abs(b) > 0.05);   // the fields are still alive after 100 steps
            CHECK(rel < 1e-5);
        }
        const double w32 = e32->field_energy(), w64 = e64->field_energy();
        CHECK(w64 > 0);
        CHECK(std::abs(w32 - w64) / w64 < 1e-5);
    }
}

TEST_CASE("CPU engine: set/get round trip, missing components, NaN detection", "[physics][engine]") {
    Scene s = make_vacuum_pml_scene(30, 20, Polarization::TEz, 4);
    for (auto prec : {Precision::Float32, Precision::Float64}) {
        auto e = make_cpu_engine(s, prec, 1);
        std::vector<double> v(s.cells()), out;
        for (std::size_t k = 0; k < v.size(); ++k) v[k] = std::sin(0.37 * double(k)) * 3.0;
        e->set_field(Component::Ey, v);
        e->get_field(Component::Ey, out);
        REQUIRE(out.size() == v.size());
        const double tol = prec == Precision::Float32 ? 3.0 * 6e-8 : 0.0;
        CHECK(max_abs_diff(out, v) <= tol);
        e->get_field(Component::Ex, out);
        CHECK(max_abs(out) == 0.0);
        CHECK_THROWS_AS(e->get_field(Component::Ez, out), std::invalid_argument);
        CHECK_THROWS_AS(e->set_field(Component::Hx, v), std::invalid_argument);
        CHECK_THROWS_AS(e->set_field(Component::Hz, std::vector<double>(5)), std::invalid_argument);
        CHECK(e->fields_finite());
        e->step(3);
        CHECK(e->fields_finite());
        std::vector<double> h;
        e->get_field(Component::Hz, h);
        h[137] = std::numeric_limits<double>::quiet_NaN();
        e->set_field(Component::Hz, h);
        CHECK_FALSE(e->fields_finite());
        h[137] = 0;
        e->set_field(Component::Hz, h);
        CHECK(e->fields_finite());
        v[5] = std::numeric_limits<double>::infinity();
        e->set_field(Component::Ey, v);
        CHECK_FALSE(e->fields_finite());
    }
}

TEST_CASE("CPU engine: field energy formula", "[physics][engine]") {
    SceneSpec spec;
    spec.nx = 10; spec.ny = 6; spec.polarization = Polarization::TMz;
    spec.boundary_x = spec.boundary_y = BoundaryKind::Periodic;
    spec.eps_r = [](Component, int i, int) { return i < 5 ? 2.0 : 1.0; };
    Scene s = make_scene(spec);
    auto e = make_cpu_engine(s, Precision::Float64, 1);
    e->set_field(Component::Ez, std::vector<double>(s.cells(), 2.0));   // eps E^2: 8 or 4
    e->set_field(Component::Hx, std::vector<double>(s.cells(), 1.0));   // H~^2: 1
    const double dx = s.dx_um * units::um;
    const double expect = 0.5 * units::eps0 * dx * dx * (30 * 8.0 + 30 * 4.0 + 60 * 1.0);
    CHECK(e->field_energy() == Approx(expect).epsilon(1e-12));
}

// A field that is uniform over a periodic grid has zero curl, so a uniform source J(t)
// added to every cell gives F(t_s + dt) = F(t_s) + w g(t_s + dt/2) exactly, t_s the sample
// times. With the engine's DFT convention X = sum_s F(t_s) exp(+i w t_s) dt, summing by
// parts over the N recorded samples gives
//   X(w) = [w G(w) - F_last exp(i w (t_last + dt/2)) dt] / (-2 i sin(w dt / 2)),
//   G(w) = int g(t) exp(+i w t) dt (analytic for the gaussian pulse),
// F_last = F(t_last) the final value (the pulse's DC part leaves a constant field).
// E is sampled at t = (n+1) dt with sources at (n+1/2) dt, H at (n+1/2) dt with sources
// at n dt; a half-step slip in either shows as a phase error of w dt / 2 (~8% here).
TEST_CASE("CPU engine: DFT of a uniform field equals the analytic transform", "[physics][engine]") {
    for (auto pol : {Polarization::TMz, Polarization::TEz}) {
        SceneSpec spec;
        spec.nx = 8; spec.ny = 8; spec.polarization = pol;
        spec.boundary_x = spec.boundary_y = BoundaryKind::Periodic;
        Scene s = make_scene(spec);
        const Component c = pol == Polarization::TMz ? Component::Ez : Component::Hz;
        const double dt = s.dt_s;
        const double f0 = 1.0 / (40.0 * dt);  // 40 steps per period
        const double tau = 2.5 / (2 * units::pi * f0);
        SourceTerm src;
        src.component = c;
        src.waveform = gaussian_pulse(f0, tau, 1.0);
        src.waveform.phase_rad = 0.3;
        const double wgt = 0.75;
        for (int k = 0; k < 64; ++k) {
            src.cells.push_back(k);
            src.weights.push_back(wgt);
        }
        s.sources.push_back(src);
        DftSet d;
        d.component = c;
        d.cell0 = {9, 50};
        d.w0 = {1.0, 0.5};
        d.cell1 = {-1, 3};
        d.w1 = {0.0, 0.5};
        d.frequencies_hz = {0.6 * f0, f0, 1.3 * f0};
        s.dft_sets.push_back(d);
        add_point_probe(s, c, 3, 4);
        auto e = make_cpu_engine(s, Precision::Float64, 1);
        const int steps = int(std::ceil(src.waveform.end_time_s() / dt)) + 40;
        e->step(steps);
        const auto X = e->dft(0);
        REQUIRE(X.size() == 6);
        CHECK(e->time_samples(0).size() == std::size_t(steps));
        const CompiledWaveform& w = src.waveform;
        for (int q = 0; q < 3; ++q) {
            const double om = 2 * units::pi * d.frequencies_hz[q];
            const std::complex<double> I(0, 1);
            const std::complex<double> G =
                w.amplitude * std::exp(I * om * w.t0_s) * 0.5 * std::sqrt(2 * units::pi) * w.tau_s *
                (std::exp(I * w.phase_rad) * std::exp(-0.5 * std::pow((om + w.omega) * w.tau_s, 2)) +
                 std::exp(-I * w.phase_rad) * std::exp(-0.5 * std::pow((om - w.omega) * w.tau_s, 2)));
            std::vector<double> fin;
            e->get_field(c, fin);
            const double t_last = (double(steps) - (pol == Polarization::TMz ? 0.0 : 0.5)) * dt;
            const std::complex<double> expect =
                (wgt * G - fin[9] * std::exp(I * om * (t_last + dt / 2)) * dt) / (-2.0 * I * std::sin(om * dt / 2));
            INFO("pol " << int(pol) << " f/f0 " << d.frequencies_hz[q] / f0 << " got " << X[q] << " expect " << expect);
            CHECK(std::abs(X[q] - expect) < 1e-6 * std::abs(expect));
            CHECK(std::abs(X[3 + q] - expect) < 1e-6 * std::abs(expect));  // 0.5 F + 0.5 F
        }
        // The probe holds the same field: its own DFT (sample times per component) matches.
        const auto ts = e->time_samples(0);
        const double t_off = pol == Polarization::TMz ? 1.0 : 0.5;
        std::complex<double> Xp = 0;
        for (std::size_t n = 0; n < ts.size(); ++n)
            Xp += ts[n] * std::polar(dt, 2 * units::pi * f0 * (double(n) + t_off) * dt);
        CHECK(std::abs(Xp - X[1]) < 1e-9 * std::abs(X[1]));
    }
}

TEST_CASE("CPU engine: frames are downsampled, oriented and colour mapped", "[engine]") {
    SceneSpec spec;
    spec.nx = 300; spec.ny = 200; spec.polarization = Polarization::TMz;
    spec.boundary_x = spec.boundary_y = BoundaryKind::Periodic;
    Scene s = make_scene(spec);
    auto e = make_cpu_engine(s, Precision::Float32, 2);
    FrameRequest req;
    req.component = Component::Ez;
    req.max_width = 100;
    req.max_height = 100;
    Image8 img = e->frames().frame(req);  // zero field: all white
    CHECK(img.width == 100);
    CHECK(img.height == 67);     // factor 3, ceil(200 / 3)
    CHECK(img.channels == 4);
    REQUIRE(img.pixels.size() == std::size_t(100 * 67 * 4));
    bool all_white = true;
    for (std::size_t k = 0; k < img.pixels.size(); ++k) all_white &= img.pixels[k] == 255;
    CHECK(all_white);
    // +2 in the top rows (j >= 150), -1 in the left columns of the bottom rows (j < 30, i < 60).
    std::vector<double> v(s.cells(), 0.0);
    for (int j = 0; j < 200; ++j)
        for (int i = 0; i < 300; ++i) {
            if (j >= 150) v[j * 300 + i] = 2.0;
            if (j < 30 && i < 60) v[j * 300 + i] = -1.0;
        }
    e->set_field(Component::Ez, v);
    img = e->frames().frame(req);
    auto px = [&](int x, int y, int ch) { return int(img.pixels[(std::size_t(y) * img.width + x) * 4 + ch]); };
    std::uint8_t r, g, b;
    diverging_rgb(1.0f, r, g, b);  // auto scale: max |value| = 2 -> +1
    CHECK(px(10, 0, 0) == r);      // top row of the image = top of the domain
    CHECK(px(10, 0, 1) == g);
    CHECK(px(10, 0, 2) == b);
    CHECK(px(10, 0, 3) == 255);
    diverging_rgb(-0.5f, r, g, b);
    CHECK(px(5, 66, 0) == r);      // bottom-left: -1 / 2
    CHECK(px(5, 66, 2) == b);
    CHECK(px(50, 40, 0) == 255);   // zero -> white
    CHECK(px(50, 40, 1) == 255);
    CHECK(px(50, 40, 2) == 255);
    // fixed scale, and a factor of 1 when the grid fits
    req.scale = 4.0;
    req.max_width = 300;
    req.max_height = 200;
    img = e->frames().frame(req);
    CHECK(img.width == 300);
    CHECK(img.height == 200);
    diverging_rgb(0.5f, r, g, b);
    CHECK(px(0, 0, 1) == g);
    CHECK_THROWS_AS(e->frames().frame(FrameRequest{Component::Hz, 10, 10, 0}), std::invalid_argument);
}

// sample_field: the viewport's host path averages in the engine; it must equal the box
// mean of get_field (and of its square), with frame()'s factor, rows bottom first.
TEST_CASE("CPU engine: sample_field equals the box mean of get_field", "[engine]") {
    SceneSpec spec;
    spec.nx = 301; spec.ny = 197; spec.polarization = Polarization::TEz;
    spec.boundary_x = spec.boundary_y = BoundaryKind::Periodic;
    Scene s = make_scene(spec);
    for (int threads : {1, 2}) {
        auto e = make_cpu_engine(s, Precision::Float64, threads);
        std::vector<double> v(s.cells());
        for (std::size_t k = 0; k < v.size(); ++k) v[k] = std::sin(0.37 * double(k % 301)) - 0.01 * double(k / 301);
        e->set_field(Component::Ey, v);
        for (bool squared : {false, true}) {
            const auto fs = e->frames().sample_field(Component::Ey, 100, 100, squared);
            CHECK(fs.factor == 4);               // max(ceil(301/100), ceil(197/100)) = 4
            CHECK(fs.width == 76);               // ceil(301 / 4)
            CHECK(fs.height == 50);              // ceil(197 / 4)
            REQUIRE(fs.values.size() == std::size_t(76 * 50));
            double worst = 0;
            for (int by = 0; by < fs.height; ++by)
                for (int bx = 0; bx < fs.width; ++bx) {
                    double sum = 0;
                    int count = 0;
                    for (int j = by * 4; j < std::min(197, by * 4 + 4); ++j)
                        for (int i = bx * 4; i < std::min(301, bx * 4 + 4); ++i, ++count)
                            sum += squared ? v[j * 301 + i] * v[j * 301 + i] : v[j * 301 + i];
                    worst = std::max(worst, std::abs(sum / count - double(fs.values[std::size_t(by) * fs.width + bx])));
                }
            CHECK(worst < 1e-6);  // float output of a double mean
        }
        CHECK_THROWS_AS(e->frames().sample_field(Component::Ez, 10, 10), std::invalid_argument);
    }
}

// Periodic boundaries: the update on a torus commutes with cyclic shifts, so a shifted
// initial state gives the shifted result (fails if any wrap neighbour is wrong).
TEST_CASE("CPU engine: periodic boundaries commute with cyclic shifts", "[physics][boundary]") {
    for (auto pol : {Polarization::TMz, Polarization::TEz}) {
        SceneSpec spec;
        spec.nx = 37; spec.ny = 23; spec.polarization = pol;
        spec.boundary_x = spec.boundary_y = BoundaryKind::Periodic;
        Scene s = make_scene(spec);
        auto a = make_cpu_engine(s, Precision::Float64, 1);
        auto b = make_cpu_engine(s, Precision::Float64, 1);
        randomize_fields(*a, s, 3);
        const int sx = 11, sy = 7;
        auto shift = [&](const std::vector<double>& v) {
            std::vector<double> o(v.size());
            for (int j = 0; j < s.ny; ++j)
                for (int i = 0; i < s.nx; ++i)
                    o[((j + sy) % s.ny) * s.nx + (i + sx) % s.nx] = v[j * s.nx + i];
            return o;
        };
        for (Component c : all_components(pol)) {
            std::vector<double> v;
            a->get_field(c, v);
            b->set_field(c, shift(v));
        }
        a->step(50);
        b->step(50);
        for (Component c : all_components(pol)) {
            std::vector<double> va, vb;
            a->get_field(c, va);
            b->get_field(c, vb);
            INFO("pol " << int(pol) << " component " << int(c));
            CHECK(max_abs(va) > 0.05);
            CHECK(max_abs_diff(shift(va), vb) < 1e-12);
        }
    }
}

namespace {

// Image of index i (component at e or h positions along an axis of n cells) in the doubled
// periodic domain of 2n cells, for walls of kind k (scene.hpp):
//   PEC walls at e positions 0, n:       e: i -> 2n - i      h: i -> 2n - 1 - i
//   PMC walls at h positions -1/2, n-1/2: e: i -> 2n - 1 - i  h: i -> 2n - 2 - i
int mirror(int i, int n, bool h_position, BoundaryKind k) {
    const int m = k == BoundaryKind::Pec ? (h_position ? 2 * n - 1 - i : 2 * n - i)
                                         : (h_position ? 2 * n - 2 - i : 2 * n - 1 - i);
    return ((m % (2 * n)) + 2 * n) % (2 * n);
}

// Sign of a component's image under the reflection at a wall normal to `axis`: PEC keeps
// normal E and tangential H, flips tangential E and normal H; PMC the reverse.
double mirror_sign(Component c, int axis, BoundaryKind k) {
    const bool electric = c == Component::Ex || c == Component::Ey || c == Component::Ez;
    const bool normal = (axis == 0 && (c == Component::Ex || c == Component::Hx)) ||
                        (axis == 1 && (c == Component::Ey || c == Component::Hy));
    const bool flips = (k == BoundaryKind::Pec) == (electric != normal);
    return flips ? -1.0 : 1.0;
}

}  // namespace

// PEC / PMC walls: a closed box of n x m cells with walls of kind (kx, ky) equals the
// corner quarter of a periodic box of 2n x 2m cells holding the mirror images of the
// source (image method); the equality is exact on the discrete grid.
TEST_CASE("CPU engine: PEC and PMC walls equal mirror-symmetric periodic domains", "[physics][boundary]") {
    const int n = 29, m = 21;
    for (auto pol : {Polarization::TMz, Polarization::TEz})
        for (auto kx : {BoundaryKind::Pec, BoundaryKind::Pmc})
            for (auto ky : {BoundaryKind::Pec, BoundaryKind::Pmc}) {
                SceneSpec spec;
                spec.nx = n; spec.ny = m; spec.polarization = pol;
                spec.boundary_x = kx; spec.boundary_y = ky;
                Scene box = make_scene(spec);
                spec.nx = 2 * n; spec.ny = 2 * m;
                spec.boundary_x = spec.boundary_y = BoundaryKind::Periodic;
                Scene torus = make_scene(spec);
                const Component c = pol == Polarization::TMz ? Component::Ez : Component::Hz;
                const Vec3 off = yee_offset(c);
                const double f0 = units::c0 / (12 * box.dx_um * units::um);
                const auto w = gaussian_pulse(f0, 0.6 / f0);
                const int i0 = 9, j0 = 6;
                add_point_source(box, c, i0, j0, w);
                const int ii[2] = {i0, mirror(i0, n, off.x > 0, kx)};
                const int jj[2] = {j0, mirror(j0, m, off.y > 0, ky)};
                for (int a = 0; a < 2; ++a)
                    for (int b = 0; b < 2; ++b) {
                        const double sg = (a ? mirror_sign(c, 0, kx) : 1.0) * (b ? mirror_sign(c, 1, ky) : 1.0);
                        add_point_source(torus, c, ii[a], jj[b], w, sg);
                    }
                auto eb = make_cpu_engine(box, Precision::Float64, 1);
                auto et = make_cpu_engine(torus, Precision::Float64, 1);
                eb->step(150);
                et->step(150);
                for (Component f : all_components(pol)) {
                    std::vector<double> vb, vt, vq(box.cells());
                    eb->get_field(f, vb);
                    et->get_field(f, vt);
                    for (int j = 0; j < m; ++j)
                        for (int i = 0; i < n; ++i) vq[j * n + i] = vt[j * 2 * n + i];
                    INFO("pol " << int(pol) << " x " << int(kx) << " y " << int(ky) << " component " << int(f));
                    CHECK(max_abs(vb) > 1e-3);
                    CHECK(max_abs_diff(vb, vq) < 1e-12 * max_abs(vb));
                }
            }
}

// The fused single-sweep step (row blocks per thread, one barrier) must give the same
// numbers as the plain two-pass step, for any thread count (block edges, periodic wrap
// across the first and last block, sources, every boundary kind).
TEST_CASE("CPU engine: fused sweep equals the two-pass step for 1..3 threads and both kernel sets", "[physics][engine]") {
    struct Case { Polarization pol; BoundaryKind bx, by; };
    const Case cases[] = {{Polarization::TMz, BoundaryKind::Pml, BoundaryKind::Periodic},
                          {Polarization::TEz, BoundaryKind::Periodic, BoundaryKind::Pml},
                          {Polarization::TMz, BoundaryKind::Mur, BoundaryKind::Pec},
                          {Polarization::TEz, BoundaryKind::Pmc, BoundaryKind::Mur}};
    for (const Case& cs : cases) {
        Scene s = make_random_material_scene(190, 181, cs.pol, 3, cs.bx, cs.by, 10);  // > 32768 cells: threaded
        const double f0 = units::c0 / (20 * s.dx_um * units::um);
        for (Component c : all_components(cs.pol)) add_point_source(s, c, 60, 90, gaussian_pulse(f0, 1.0 / f0, 3.0));
        setenv("GOLIGHTLY_CPU_UNFUSED", "1", 1);
        auto ref = make_cpu_engine(s, Precision::Float64, 1);
        unsetenv("GOLIGHTLY_CPU_UNFUSED");
        randomize_fields(*ref, s, 9);
        ref->step(30);
        for (int threads : {1, 2, 3}) {
            if (threads == 3) setenv("GOLIGHTLY_CPU_KERNELS", "generic", 1);  // also the non-AVX2 kernels
            auto e = make_cpu_engine(s, Precision::Float64, threads);
            unsetenv("GOLIGHTLY_CPU_KERNELS");
            randomize_fields(*e, s, 9);
            e->step(30);
            for (Component c : all_components(cs.pol)) {
                std::vector<double> a, b;
                e->get_field(c, a);
                ref->get_field(c, b);
                INFO("pol " << int(cs.pol) << " boundaries " << int(cs.bx) << "," << int(cs.by) << " threads "
                            << threads << " component " << int(c));
                CHECK(max_abs_diff(a, b) <= 1e-13 * max_abs(b));
            }
        }
    }
}

// The engine against ReferenceYee (test_scenes.hpp), a cell-by-cell transcription of the
// scene.hpp equations: random fields and lossy random materials, uneven PML on the four
// sides, every boundary kind, sources on E and H.
TEST_CASE("CPU engine matches the plain transcription of scene.hpp", "[physics][engine]") {
    struct Case { BoundaryKind bx, by; };
    const Case cases[] = {{BoundaryKind::Pml, BoundaryKind::Pml}, {BoundaryKind::Periodic, BoundaryKind::Pml},
                          {BoundaryKind::Pec, BoundaryKind::Mur}, {BoundaryKind::Mur, BoundaryKind::Pmc},
                          {BoundaryKind::Pmc, BoundaryKind::Periodic}};
    for (auto pol : {Polarization::TMz, Polarization::TEz})
        for (const Case& cs : cases)
        for (bool block : {false, true}) {
            Scene s = make_random_material_scene(41, 36, pol, 5, cs.bx, cs.by, 0);
            if (block) {  // random only inside a block: uniform (lossy) rows and segments elsewhere
                SceneSpec spec;
                spec.nx = 41; spec.ny = 36; spec.polarization = pol; spec.pml_cells = 0;
                spec.boundary_x = cs.bx; spec.boundary_y = cs.by;
                auto rng = std::make_shared<std::mt19937>(77);
                spec.eps_r = [rng](Component, int i, int j) {
                    const bool in = i >= 12 && i < 30 && j >= 9 && j < 27;
                    return in ? 1.0 + std::uniform_int_distribution<int>(0, 50)(*rng) * 0.1 : 2.25;
                };
                spec.sigma_s_per_m = [](Component, int i, int) { return i < 20 ? 1e4 : 0.0; };
                s = make_scene(spec);
            }
            // uneven PML thicknesses on the PML axes
            if (cs.bx == BoundaryKind::Pml) { s.pml_lo[0] = 5; s.pml_hi[0] = 7; }
            if (cs.by == BoundaryKind::Pml) { s.pml_lo[1] = 6; s.pml_hi[1] = 4; }
            build_cpml(s, 3, 1e-6, 2.0);  // kappa_max 2 exercises inv_kappa
            const double f0 = units::c0 / (15 * s.dx_um * units::um);
            for (Component c : all_components(pol)) add_point_source(s, c, 3, 33, gaussian_pulse(f0, 1.0 / f0, 2.0));
            auto e = make_cpu_engine(s, Precision::Float64, 2);
            ReferenceYee ref(s);
            randomize_fields(*e, s, 13);
            for (Component c : all_components(pol)) e->get_field(c, ref.field(c));
            e->step(40);
            ref.step(40);
            for (Component c : all_components(pol)) {
                std::vector<double> a;
                e->get_field(c, a);
                INFO("pol " << int(pol) << " boundaries " << int(cs.bx) << "," << int(cs.by) << " block " << block
                                << " component " << int(c));
                CHECK(max_abs(a) > 1e-2);
                CHECK(max_abs_diff(a, ref.field(c)) <= 1e-12 * max_abs(a));
            }
        }
}
