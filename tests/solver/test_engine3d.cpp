// 3D CPU engine (scene.hpp "3D scenes", issue 14): reduction to 2D, PEC cavity resonance,
// CPML reflection on faces, edges and corners, float32 vs float64, the fused sweep against
// the two-pass step with periodic wrap, frames of a slice, memory model, CUDA refusal
// (Mur faces: test_mur3d.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "engine3d_scenes.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::test;


TEST_CASE("3D engine with nz = 1 and periodic z reduces to TMz and TEz (CPML x, periodic y, dielectric, "
          "dispersive cells, sources, probes)", "[engine3d]") {
    const int nx = 40, ny = 24;
    auto eps_of = [](int c, int i, int j) { return (i - 20) * (i - 20) + (j - 12) * (j - 12) < 30 ? 3.0 + c : 1.0; };
    // 3D scene: x CPML, y periodic, z periodic with one cell.
    Spec3 p;
    p.nx = nx; p.ny = ny; p.nz = 1;
    p.b[0] = BoundaryKind::Pml; p.b[1] = BoundaryKind::Periodic; p.b[2] = BoundaryKind::Periodic;
    p.pml = 8;
    p.eps = [&](int c, int i, int j, int) { return eps_of(c, i, j); };
    Scene s3 = make3(p);
    // A Lorentz pole on a few cells of every E component (scene.hpp "Dispersive cells").
    const double dt = s3.dt_s, w0 = 2 * units::pi * 200e12, wp = w0, g = 0.1 * w0;
    PoleCoeffs pc;
    pc.c1 = (2 - w0 * w0 * dt * dt) / (1 + g * dt / 2);
    pc.c2 = -(1 - g * dt / 2) / (1 + g * dt / 2);
    pc.c3 = wp * wp * dt * dt / (1 + g * dt / 2);
    s3.pole_sets.push_back(PoleSet{{pc}});
    for (int c = 0; c < 3; ++c)
        for (int i = 18; i < 23; ++i) {
            s3.dispersive[c].cells.push_back(cell3(s3, i, 12, 0));
            s3.dispersive[c].pole_set.push_back(0);
            s3.dispersive[c].weight.push_back(0.7);
        }
    const CompiledWaveform w = gaussian_pulse(150e12, 4e-15);
    add_point_sources(s3, {Component::Ez, Component::Hz, Component::Ex}, cell3(s3, 15, 7, 0), w);
    for (Component c : {Component::Ez, Component::Hy, Component::Ey}) {
        TimeProbe pr;
        pr.component = c;
        pr.cells = {cell3(s3, 25, 15, 0), cell3(s3, 9, 3, 0)};
        pr.weights = {1.0, 0.5};
        s3.time_probes.push_back(pr);
    }
    auto e3 = make_cpu_engine(s3, Precision::Float64, 1);
    const std::size_t n = s3.cells();
    for (int c = 0; c < 6; ++c) e3->set_field(Component(c), random_vector(n, 10 + c));

    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        SceneSpec sp;
        sp.nx = nx; sp.ny = ny; sp.polarization = pol;
        sp.boundary_x = BoundaryKind::Pml; sp.boundary_y = BoundaryKind::Periodic;
        sp.pml_cells = 8;
        sp.eps_r = [&](Component c, int i, int j) { return eps_of(int(c), i, j); };
        sp.pml_target_reflection = 1e-8;
        Scene s2 = make_scene(sp);
        s2.pole_sets = s3.pole_sets;
        for (Component c : electric_components(pol)) s2.dispersive[int(c)] = s3.dispersive[int(c)];
        for (const SourceTerm& t : s3.sources)
            if (t.component == (pol == Polarization::TMz ? Component::Ez : Component::Hz) ||
                (pol == Polarization::TEz && t.component == Component::Ex))
                s2.sources.push_back(t);
        s2.time_probes.push_back(s3.time_probes[pol == Polarization::TMz ? 0 : 2]);
        s2.time_probes.push_back(s3.time_probes[1]);
        if (pol == Polarization::TEz) s2.time_probes.pop_back();
        auto e2 = make_cpu_engine(s2, Precision::Float64, 1);
        std::vector<Component> comps = electric_components(pol);
        for (Component c : magnetic_components(pol)) comps.push_back(c);
        for (Component c : comps) e2->set_field(c, random_vector(n, 10 + int(c)));
        if (pol == Polarization::TMz) e3->step(120);  // once: both 2D runs compare with it
        e2->step(120);
        for (Component c : comps) {
            std::vector<double> a, b;
            e2->get_field(c, a);
            e3->get_field(c, b);
            INFO(component_name(c));
            const double d = max_abs_diff(a, b), m = max_abs(a);
            std::printf("[engine3d] nz=1 vs 2D %s: max diff %.3e of %.3e\n", component_name(c), d, m);
            REQUIRE(m > 0.1);
            CHECK(d <= 1e-12 * m);
        }
        const auto p2 = e2->time_samples(0);
        const auto p3 = e3->time_samples(pol == Polarization::TMz ? 0 : 2);
        REQUIRE(p2.size() == 120);
        CHECK(max_abs_diff(p2, p3) <= 1e-12 * max_abs(p2));
    }
}

TEST_CASE("3D PEC cavity: the (1,1,1) mode rings at the Yee frequency and within the dispersion bound of "
          "f = c/2 sqrt((m/a)^2 + (n/b)^2 + (p/d)^2)", "[engine3d][physics]") {
    Spec3 p;
    p.nx = 36; p.ny = 32; p.nz = 28;
    for (auto& b : p.b) b = BoundaryKind::Pec;
    p.courant = 0.5;
    Scene s = make3(p);
    // Walls at e positions 0 and n: a = nx dx etc. A broadband Ez pulse off every symmetry
    // plane, then a probe that projects Ez on the TM_111 profile sin(pi i/nx) sin(pi j/ny)
    // cos(pi (k+1/2)/nz): only modes with that Ez pattern remain (all at one frequency).
    const double a = p.nx * s.dx_um * 1e-6, b = p.ny * s.dx_um * 1e-6, d = p.nz * s.dx_um * 1e-6;
    const double f_exact = units::c0 / 2 * std::sqrt(1 / (a * a) + 1 / (b * b) + 1 / (d * d));
    const double pi = units::pi;
    SourceTerm src;
    src.component = Component::Ez;
    src.cells = {cell3(s, 11, 9, 5)};
    src.weights = {1.0};
    src.waveform = gaussian_pulse(f_exact, 2.0 / (2 * pi * f_exact));
    src.waveform.phase_rad = pi / 2;  // odd in t - t0: no net charge, so no static field
    s.sources.push_back(src);
    TimeProbe pr;
    pr.component = Component::Ez;
    for (int k = 0; k < p.nz; ++k)
        for (int j = 0; j < p.ny; ++j)
            for (int i = 0; i < p.nx; ++i) {
                pr.cells.push_back(cell3(s, i, j, k));
                pr.weights.push_back(std::sin(pi * i / p.nx) * std::sin(pi * j / p.ny) * std::cos(pi * (k + 0.5) / p.nz));
            }
    s.time_probes.push_back(pr);
    auto e = make_cpu_engine(s, Precision::Float64);
    const int steps = 1500;
    e->step(steps);
    const auto x0 = e->time_samples(0);
    std::vector<double> x(x0.size() - 1);  // differences: a constant (static) part drops out
    for (std::size_t q = 0; q + 1 < x0.size(); ++q) x[q] = x0[q + 1] - x0[q];
    // After the source: x[n+1] + x[n-1] = 2 cos(w dt) x[n] for a single frequency.
    const int first = int(std::ceil(src.waveform.end_time_s() / s.dt_s)) + 2;
    double num = 0, den = 0;
    for (int q = first; q + 1 < int(x.size()); ++q) {
        num += x[q] * (x[q + 1] + x[q - 1]);
        den += 2 * x[q] * x[q];
    }
    REQUIRE(den > 0);
    const double f_meas = std::acos(num / den) / (2 * pi * s.dt_s);
    // Yee cavity: sin^2(w dt / 2) = S^2 sum_a sin^2(pi m_a / (2 n_a)).
    const double S = s.courant;
    const double s2 = S * S * (std::pow(std::sin(pi / (2 * p.nx)), 2) + std::pow(std::sin(pi / (2 * p.ny)), 2) +
                               std::pow(std::sin(pi / (2 * p.nz)), 2));
    const double f_yee = 2 * std::asin(std::sqrt(s2)) / (2 * pi * s.dt_s);
    // Dispersion bound: the Yee frequency lies below f by (f - f_yee) / f ~ (1 - S^2) (k dx)^2 / 24
    // (k dx = pi / ~30 here: ~4e-4); its exact distance from f is the bound, and must be small.
    const double bound = std::abs(f_yee - f_exact) / f_exact;
    std::printf("[engine3d] cavity (1,1,1): f_meas %.9e Hz, f_yee %.9e, f_exact %.9e; |meas-yee|/f %.2e, "
                "|meas-exact|/f %.2e (dispersion bound %.2e)\n",
                f_meas, f_yee, f_exact, std::abs(f_meas - f_yee) / f_yee, std::abs(f_meas - f_exact) / f_exact, bound);
    CHECK(std::abs(f_meas - f_yee) / f_yee < 1e-7);
    CHECK(std::abs(f_meas - f_exact) / f_exact <= bound * 1.001 + 1e-7);
    CHECK(bound < 5e-4);
}

namespace {

/// Ez probes at three interior points 2 cells from the CPML (a face, an edge, a corner) of
/// a vacuum cube of `interior` cells, pml cells per side, with `margin` extra cells per side
/// (the reference run), under an Ez point pulse at the centre.
std::vector<std::vector<double>> cube_probes(int interior, int pml, int margin, int steps, Precision prec) {
    Spec3 p;
    const int n = interior + 2 * pml + 2 * margin;
    p.nx = p.ny = p.nz = n;
    p.pml = pml;
    Scene s = make3(p);
    const int o = pml + margin, c = o + interior / 2;
    // 14 cells per wavelength, a pulse of 1.5 / (2 pi f0) half-width: little content near the
    // grid's cutoff (5 cells per wavelength and below lingers at the source and reflects from
    // any PML: with 10 cells and 1 / (2 pi f0) the same CPML measures -78 / -75 / -72 dB).
    const double f0 = units::c0 / (14 * s.dx_um * units::um);
    const double tauf = 1.5;
    SourceTerm src;
    src.component = Component::Ez;
    src.cells = {cell3(s, c, c, c)};
    src.weights = {1.0};
    src.waveform = gaussian_pulse(f0, tauf / (2 * units::pi * f0));
    src.waveform.phase_rad = units::pi / 2;  // odd pulse: no net charge left at the source
    s.sources.push_back(src);
    const int q = interior / 2 - 2;  // 2 cells inside the PML interface
    for (auto ijk : {std::array<int, 3>{q, 0, 0}, std::array<int, 3>{q, q, 0}, std::array<int, 3>{q, q, q}}) {
        TimeProbe pr;
        pr.component = Component::Ez;
        pr.cells = {cell3(s, c + ijk[0], c + ijk[1], c + ijk[2])};
        pr.weights = {1.0};
        s.time_probes.push_back(pr);
    }
    auto e = make_cpu_engine(s, prec);
    e->step(steps);
    return {e->time_samples(0), e->time_samples(1), e->time_samples(2)};
}

}  // namespace

TEST_CASE("3D CPML (16 cells) reflects a point pulse below -95 / -90 / -90 dB at a face / edge / corner",
          "[engine3d][physics][cpml][slow]") {
    const int interior = 20, pml = 16, steps = 190;
    // The reference's boundary is so far that nothing returns within `steps` (S = 0.5: 95
    // cells of travel; source -> boundary -> face probe is 2 * margin + 12 cells and more).
    const int margin = 44;
    const auto ref = cube_probes(interior, pml, margin, steps, Precision::Float32);
    const auto small = cube_probes(interior, pml, 0, steps, Precision::Float32);
    const char* names[3] = {"face", "edge", "corner"};
    const double limit_db[3] = {-95, -90, -90};
    for (int k = 0; k < 3; ++k) {
        const double r = max_abs_diff(small[k], ref[k]) / max_abs(ref[k]);
        std::printf("[engine3d] CPML 16 cells, %s: %.1f dB\n", names[k], 20 * std::log10(r));
        INFO(names[k] << " reflection " << r);
        CHECK(20 * std::log10(r) < limit_db[k]);
    }
}

TEST_CASE("3D engine: float32 agrees with float64, the fused sweep on several threads equals the two-pass "
          "step with periodic y and z", "[engine3d]") {
    Spec3 p;
    p.nx = 20; p.ny = 14; p.nz = 12;
    p.b[0] = BoundaryKind::Pml; p.b[1] = BoundaryKind::Periodic; p.b[2] = BoundaryKind::Periodic;
    p.pml = 5;
    p.eps = [](int c, int i, int j, int k) { return (i + 2 * j + 3 * k + c) % 7 == 0 ? 4.0 : 1.0; };
    Scene s = make3(p);
    SourceTerm src;
    src.component = Component::Ey;
    src.cells = {cell3(s, 10, 7, 6)};
    src.weights = {1.0};
    src.waveform = gaussian_pulse(200e12, 3e-15);
    s.sources.push_back(src);
    auto run = [&](Precision prec, int threads, bool unfused) {
        if (unfused) setenv("GOLIGHTLY_CPU_UNFUSED", "1", 1);
        auto e = make_cpu_engine(s, prec, threads);
        unsetenv("GOLIGHTLY_CPU_UNFUSED");
        for (int c = 0; c < 6; ++c) e->set_field(Component(c), random_vector(s.cells(), 40 + c));
        e->step(60);
        std::vector<std::vector<double>> f(6);
        for (int c = 0; c < 6; ++c) e->get_field(Component(c), f[c]);
        return f;
    };
    const auto ref = run(Precision::Float64, 1, true);
    const auto fused1 = run(Precision::Float64, 1, false);
    const auto fused3 = run(Precision::Float64, 3, false);
    const auto f32 = run(Precision::Float32, 2, false);
    for (int c = 0; c < 6; ++c) {
        INFO(component_name(Component(c)));
        const double m = max_abs(ref[c]);
        REQUIRE(m > 0.1);
        CHECK(max_abs_diff(ref[c], fused1[c]) == 0.0);
        CHECK(max_abs_diff(ref[c], fused3[c]) == 0.0);
        const double d32 = max_abs_diff(ref[c], f32[c]) / m;
        CHECK(d32 < 1e-5);
        CHECK(d32 > 0.0);  // really single precision
    }
}

TEST_CASE("3D engine: frames show the frame slice, memory model counts six fields, Mur runs on the CPU",
          "[engine3d]") {
    Spec3 p;
    p.nx = 12; p.ny = 10; p.nz = 8;
    for (auto& b : p.b) b = BoundaryKind::Periodic;
    Scene s = make3(p);
    auto e = make_cpu_engine(s, Precision::Float64, 1);
    std::vector<double> v(s.cells());
    for (int k = 0; k < p.nz; ++k)
        for (int j = 0; j < p.ny; ++j)
            for (int i = 0; i < p.nx; ++i) v[std::size_t(cell3(s, i, j, k))] = 100.0 * i + 10.0 * j + k;
    e->set_field(Component::Hy, v);
    e->frames().set_frame_slice(FrameSlice{1, 3});  // xz plane at j = 3: columns x, rows z
    const auto f = e->frames().sample_field(Component::Hy, 64, 64);
    REQUIRE(f.width == p.nx);
    REQUIRE(f.height == p.nz);
    CHECK(f.values[std::size_t(5) * f.width + 7] == Approx(100.0 * 7 + 30 + 5));
    e->frames().set_frame_slice(FrameSlice{0, 99});  // yz plane, index clamped to nx - 1
    const auto g = e->frames().sample_field(Component::Hy, 64, 64);
    REQUIRE(g.width == p.ny);
    CHECK(g.values[std::size_t(2) * g.width + 4] == Approx(100.0 * 11 + 40 + 2));
    const Image8 img = e->frames().frame({Component::Hy, 64, 64, 0, false});
    CHECK(img.width == p.ny);
    CHECK(img.height == p.nz);

    const std::size_t n = s.cells();
    CHECK(engine_state_bytes(s, Precision::Float32) >= n * (6 * 4 + 3 * (2 + 8)));
    CHECK(engine_state_bytes(s, Precision::Float64) >= n * (6 * 8 + 3 * (2 + 16)));

    Scene mur = s;
    mur.boundary[2] = BoundaryKind::Mur;
    CHECK_NOTHROW(make_cpu_engine(mur, Precision::Float32, 1));  // test_mur3d.cpp
    // The CUDA backend steps 3D grids (cuda_engine3d.cu, compared with this engine in
    // tests/gpu/test_cuda3d.cpp) where a device is present; it refuses Mur as the CPU does.
    if (cuda_available()) {
        CHECK(make_cuda_engine(s, Precision::Float32)->backend() == "cuda");
        CHECK_THROWS_AS(make_cuda_engine(mur, Precision::Float32), RunError);
    } else {
        CHECK_THROWS_AS(make_cuda_engine(s, Precision::Float32), RunError);
    }
}

TEST_CASE("3D engine is invariant under the cyclic permutation of axes x -> y -> z (CPML, PEC, PMC and periodic "
          "faces on every axis, dispersive cells)", "[engine3d]") {
    // Scene A on (nx, ny, nz) with boundary kinds (bx, by, bz); its permutation B on
    // (nz, nx, ny) with (bz, bx, by): old x becomes new y, y -> z, z -> x, and the components
    // follow (Ex -> Ey -> Ez -> Ex, H likewise). The Yee update is symmetric under this map,
    // so B must reproduce A's fields, permuted.
    Spec3 a;
    a.nx = 22; a.ny = 16; a.nz = 13;
    a.b[0] = BoundaryKind::Pml; a.b[1] = BoundaryKind::Pec; a.b[2] = BoundaryKind::Pmc;
    a.pml = 6;
    auto eps_a = [](int c, int i, int j, int k) { return (3 * i + 5 * j + 7 * k + c) % 11 == 0 ? 3.0 : 1.0; };
    a.eps = eps_a;
    for (int rot = 0; rot < 3; ++rot) {
        // r applications of the permutation: n and b rotate right r times.
        auto perm_axis = [&](int ax) { return (ax + rot) % 3; };  // old axis -> new axis
        Spec3 b = a;
        int nb[3];
        const int na[3] = {a.nx, a.ny, a.nz};
        for (int ax = 0; ax < 3; ++ax) {
            nb[perm_axis(ax)] = na[ax];
            b.b[perm_axis(ax)] = a.b[ax];
        }
        b.nx = nb[0]; b.ny = nb[1]; b.nz = nb[2];
        auto to_b = [&](int i, int j, int k) {  // old (i, j, k) -> new flat index
            int o[3] = {i, j, k}, q[3];
            for (int ax = 0; ax < 3; ++ax) q[perm_axis(ax)] = o[ax];
            return (std::size_t(q[2]) * nb[1] + q[1]) * nb[0] + q[0];
        };
        b.eps = [&](int c, int i, int j, int k) {  // new component c, new (i, j, k)
            int q[3] = {i, j, k}, o[3];
            for (int ax = 0; ax < 3; ++ax) o[ax] = q[perm_axis(ax)];
            return eps_a((c + 3 - rot) % 3, o[0], o[1], o[2]);
        };
        Scene sa = make3(a), sb = make3(b);
        // Dispersive cells on a small block of every E component (rows of several slabs), the
        // same pole in both scenes, listed by increasing flat index in each.
        const double dt = sa.dt_s, w0 = 2 * units::pi * 300e12, g = 0.2 * w0;
        PoleCoeffs pc;
        pc.c1 = (2 - w0 * w0 * dt * dt) / (1 + g * dt / 2);
        pc.c2 = -(1 - g * dt / 2) / (1 + g * dt / 2);
        pc.c3 = w0 * w0 * dt * dt / (1 + g * dt / 2);
        for (Scene* sc : {&sa, &sb}) sc->pole_sets.push_back(PoleSet{{pc}});
        for (int c = 0; c < 3; ++c) {
            std::vector<CellIndex> ca, cbv;
            for (int k = 4; k < 9; ++k)
                for (int j = 5; j < 9; ++j)
                    for (int i = 8; i < 12; ++i) {
                        ca.push_back(cell3(sa, i, j, k));
                        cbv.push_back(CellIndex(to_b(i, j, k)));
                    }
            std::sort(cbv.begin(), cbv.end());
            const int c_b = (c + rot) % 3;
            sa.dispersive[c] = DispersiveCells{ca, std::vector<std::uint32_t>(ca.size(), 0), std::vector<double>(ca.size(), 0.8)};
            sb.dispersive[c_b] = DispersiveCells{cbv, std::vector<std::uint32_t>(cbv.size(), 0), std::vector<double>(cbv.size(), 0.8)};
        }
        auto ea = make_cpu_engine(sa, Precision::Float64, 1);
        auto eb = make_cpu_engine(sb, Precision::Float64, 2);
        for (int c = 0; c < 6; ++c) {
            const auto v = random_vector(sa.cells(), 70 + c);
            std::vector<double> w(v.size());
            for (int k = 0; k < a.nz; ++k)
                for (int j = 0; j < a.ny; ++j)
                    for (int i = 0; i < a.nx; ++i) w[to_b(i, j, k)] = v[(std::size_t(k) * a.ny + j) * a.nx + i];
            ea->set_field(Component(c), v);
            const int cb = (c / 3) * 3 + (c % 3 + rot) % 3;
            eb->set_field(Component(cb), w);
        }
        ea->step(50);
        eb->step(50);
        for (int c = 0; c < 6; ++c) {
            std::vector<double> fa, fb;
            ea->get_field(Component(c), fa);
            eb->get_field(Component((c / 3) * 3 + (c % 3 + rot) % 3), fb);
            double d = 0;
            for (int k = 0; k < a.nz; ++k)
                for (int j = 0; j < a.ny; ++j)
                    for (int i = 0; i < a.nx; ++i)
                        d = std::max(d, std::abs(fa[(std::size_t(k) * a.ny + j) * a.nx + i] - fb[to_b(i, j, k)]));
            INFO("rotation " << rot << ", component " << component_name(Component(c)));
            REQUIRE(max_abs(fa) > 0.1);
            CHECK(d <= 1e-12 * max_abs(fa));
        }
    }
}

namespace {

/// The leapfrog invariant of the Yee scheme in a lossless cavity (PEC / PMC / periodic
/// faces), in the normalized fields of scene.hpp (E in V/m, H~ = eta0 H):
///   W^n = sum_cells eps_r |E^n|^2 + H~^{n-1/2} . H~^{n+1/2}
/// (Taflove & Hagness 3rd ed. sec. 4.6 / the energy argument for the Yee update: with
/// E^{n+1} - E^n = (S / eps_r) C H^{n+1/2} and H^{n+1/2} - H^{n-1/2} = -S C^T E^n, C the
/// discrete curl whose transpose is the H curl, W^{n+1} - W^n = 0 exactly). Reads E^n and
/// H^{n-1/2}, steps once and reads H^{n+1/2}; returns W^n (the engine is then at n+1).
double discrete_energy(Engine& e, const Scene& s) {
    std::vector<double> f, h_old[3], h_new[3];
    double w = 0;
    for (int c = 0; c < 3; ++c) {
        e.get_field(Component(c), f);
        const auto& idx = s.material_index[c];
        for (std::size_t q = 0; q < f.size(); ++q) w += s.table[idx[q]].eps_r * f[q] * f[q];
        e.get_field(Component(3 + c), h_old[c]);
    }
    e.step(1);
    for (int c = 0; c < 3; ++c) {
        e.get_field(Component(3 + c), h_new[c]);
        for (std::size_t q = 0; q < h_new[c].size(); ++q) w += h_old[c][q] * h_new[c][q];
    }
    return w;
}

}  // namespace

TEST_CASE("3D lossless cavity conserves the discrete Yee energy to rounding (PEC box, PEC / PMC / periodic "
          "faces, dielectric)", "[engine3d][physics]") {
    // A pulse from a dipole fills the cavity; once the source is off the invariant must stay
    // at its value to rounding (float64) over 1500 steps, while the plain field energy
    // (field_energy) moves with the H half-step offset. A wrong curl sign, Courant factor or
    // 1/eps_r anywhere breaks it by orders of magnitude.
    struct Case {
        const char* name;
        BoundaryKind b[3];
    };
    const Case cases[] = {{"pec", {BoundaryKind::Pec, BoundaryKind::Pec, BoundaryKind::Pec}},
                          {"pec/pmc/periodic", {BoundaryKind::Pec, BoundaryKind::Pmc, BoundaryKind::Periodic}}};
    for (const Case& cs : cases) {
        Spec3 p;
        p.nx = 18; p.ny = 15; p.nz = 13;
        for (int a = 0; a < 3; ++a) p.b[a] = cs.b[a];
        p.eps = [](int c, int i, int j, int k) { return (i > 5 && i < 12 && j > 3 && k < 8) ? 6.0 + c : 1.0; };
        Scene s = make3(p);
        const double f0 = units::c0 / (12 * s.dx_um * units::um);
        SourceTerm src;
        src.component = Component::Ey;
        src.cells = {cell3(s, 4, 7, 6)};
        src.weights = {1.0};
        src.waveform = gaussian_pulse(f0, 1.0 / (2 * units::pi * f0));
        s.sources.push_back(src);
        auto e = make_cpu_engine(s, Precision::Float64, 2);
        // the pulse's value is exactly 0 only past t0 + 12 tau (CompiledWaveform::value)
        const int first = int(std::ceil((src.waveform.t0_s + 12 * src.waveform.tau_s) / s.dt_s)) + 2;
        e->step(first);
        const double w0 = discrete_energy(*e, s);
        REQUIRE(w0 > 0);
        double worst = 0, plain_lo = INFINITY, plain_hi = 0;
        for (int block = 0; block < 15; ++block) {
            e->step(99);
            const double plain = e->field_energy();
            plain_lo = std::min(plain_lo, plain);
            plain_hi = std::max(plain_hi, plain);
            worst = std::max(worst, std::abs(discrete_energy(*e, s) / w0 - 1));
        }
        std::printf("[engine3d] %s cavity: discrete energy drift %.2e over 1500 steps; plain field energy varies "
                    "%.2e\n", cs.name, worst, plain_hi / plain_lo - 1);
        INFO(cs.name);
        CHECK(worst < 1e-12);
        CHECK(plain_hi / plain_lo - 1 > 1e3 * worst);  // the invariant is not the plain energy
    }
}

TEST_CASE("3D CPML reflection falls with the thickness (6, 10, 16 cells) at a face, an edge and a corner",
          "[engine3d][physics][cpml][slow]") {
    // Same probes as the 16-cell test above. The default (16 cells) must be far below
    // -60 dB; each thinner layer reflects more, at every probe.
    const int interior = 20, steps = 190, margin = 44;
    const char* names[3] = {"face", "edge", "corner"};
    const int thickness[3] = {6, 10, 16};
    double db[3][3];
    for (int t = 0; t < 3; ++t) {
        const auto ref = cube_probes(interior, thickness[t], margin, steps, Precision::Float32);
        const auto small = cube_probes(interior, thickness[t], 0, steps, Precision::Float32);
        for (int k = 0; k < 3; ++k) db[t][k] = 20 * std::log10(max_abs_diff(small[k], ref[k]) / max_abs(ref[k]));
        std::printf("[engine3d] CPML %2d cells: face %.1f dB, edge %.1f dB, corner %.1f dB\n", thickness[t],
                    db[t][0], db[t][1], db[t][2]);
    }
    for (int k = 0; k < 3; ++k) {
        INFO(names[k]);
        CHECK(db[1][k] < db[0][k] - 6);
        CHECK(db[2][k] < db[1][k] - 6);
        CHECK(db[2][k] < -60);
    }
}

TEST_CASE("material table: more than 65535 distinct averaged eps_r (a large sub-pixel averaged 3D grid) "
          "coarsen the rounding instead of failing", "[engine3d][compile3d]") {
    // 48^3 cells with 110 592 distinct eps_r per component spread over [1, 4] (what sub-pixel
    // averaging of a large STEP part gives): 1e-7 rounding leaves them all distinct, so the
    // table is rebuilt with coarser rounding; every cell keeps its eps_r within that rounding.
    Spec3 p;
    p.nx = p.ny = p.nz = 48;
    for (auto& b : p.b) b = BoundaryKind::Periodic;
    Scene s = make3(p);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(1.0, 4.0);
    std::vector<std::vector<double>> eps(3, std::vector<double>(s.cells())), sig(3);
    for (auto& e : eps)
        for (double& v : e) v = u(rng);
    REQUIRE_NOTHROW(build_material_table(s, eps, sig));
    CHECK(s.table.size() <= 65535);
    CHECK(s.table.size() > 1000);
    double worst = 0;
    for (int c = 0; c < 3; ++c)
        for (std::size_t q = 0; q < s.cells(); ++q)
            worst = std::max(worst, std::abs(s.table[s.material_index[c][q]].eps_r / eps[c][q] - 1));
    std::printf("[engine3d] %zu distinct eps_r per component -> %zu table entries, worst relative change %.2e\n",
                s.cells(), s.table.size(), worst);
    CHECK(worst < 1.1e-4);
    CHECK(worst > 0);
    // cb follows the entry's eps_r exactly (S / eps_r, lossless)
    double cb_err = 0;
    for (const auto& t : s.table) cb_err = std::max(cb_err, std::abs(t.cb * t.eps_r / s.courant - 1));
    CHECK(cb_err < 1e-14);
}

TEST_CASE("3D CPU engine: a live edit of the materials equals an engine built with them, a changed z grid or map "
          "size is refused", "[engine3d][live_edit]") {
    Spec3 p;
    p.nx = 20; p.ny = 16; p.nz = 14;
    p.pml = 4;
    const Scene a = make3(p);
    Spec3 q = p;
    q.eps = [](int, int i, int j, int k) { return (i > 6 && i < 12 && j > 5 && k > 4 && k < 10) ? 6.0 : 1.0; };
    const Scene b = make3(q);
    auto edited = make_cpu_engine(a, Precision::Float64, 2);
    auto fresh = make_cpu_engine(b, Precision::Float64, 2);
    for (int c = 0; c < 6; ++c) {
        const auto v = random_vector(a.cells(), 90 + c);
        edited->set_field(Component(c), v);
        fresh->set_field(Component(c), v);
    }
    edited->update_materials(b);
    edited->step(30);
    fresh->step(30);
    for (int c = 0; c < 6; ++c) {
        std::vector<double> fe, ff;
        edited->get_field(Component(c), fe);
        fresh->get_field(Component(c), ff);
        INFO(component_name(Component(c)));
        REQUIRE(max_abs(ff) > 0.1);
        CHECK(max_abs_diff(fe, ff) == 0.0);
    }
    Spec3 r = q;
    r.nz = 15;  // another z extent
    try {
        edited->update_materials(make3(r));
        FAIL("a changed nz was accepted");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("20 x 16 x 15 cells") != std::string::npos);
        CHECK(std::string(e.what()).find("restart the run") != std::string::npos);
    }
    Scene short_map = b;
    short_map.material_index[1].pop_back();
    try {
        edited->update_materials(short_map);
        FAIL("a short Ey map was accepted");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("Ey") != std::string::npos);
        CHECK(std::string(e.what()).find("nx*ny*nz") != std::string::npos);
    }
}
