// The mode solver with dispersive and lossy materials (mode_plane.hpp cross_section_medium,
// mode_solver2d.hpp complex path): a Si strip written as a constant eps and as a Lorentz
// model with the same eps at the solve wavelength gives the same n_eff; the complex
// (non-Hermitian) path reproduces the real one on a lossless cross-section; the surface
// plasmon of a single gold-air interface and the gap plasmon of a gold/air/gold slot
// against their analytic dispersion relations; the 2D slab solver of a 2D project's mode
// monitor with a Lorentz core.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>

#include "golightly/compile.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "golightly/units.hpp"
#include "optional_features.hpp"
#include "project_builders.hpp"

using namespace golightly;
using cd = std::complex<double>;

namespace {

constexpr double kNSi = 3.476, kNOx = 1.444;

double omega_of(double wl_um) { return 2 * M_PI * units::wavelength_um_to_hz(wl_um); }

using test::lorentz_material;  // project_builders.hpp

Material constant_material(const std::string& id, double eps) {
    Material m;
    m.id = id;
    m.epsilon_inf = eps;
    return m;
}

// The 500 x 220 nm strip along x (y [0.75, 1.25], z [0.70, 0.92]) in oxide, 3D project.
Project strip_project(double dx, const Material& si, const Material& ox) {
    Project p = test::project_3d("strip", {1.0, 2.0, 1.6}, dx, 8, ox.id);
    p.materials = {ox, si};
    p.layers.push_back(test::strip_core_layer(2.0, si.id));
    return p;
}

std::vector<VectorMode> strip_modes(const Project& p, double wl) {
    const CrossSection cs =
        sample_cross_section(p, {0.5, 1.0, 0.8}, {0.0, 2.0, 1.6}, false, "ports[0]", "strip.glproj", Json::object(), wl);
    ModeSolveOptions o;
    o.num_modes = 2;
    return solve_modes_2d(cs.grid, cs.medium, wl, o);
}

// A layered cross-section along v (invariant along u: periodic, one cell), PEC walls on v:
// eps_of(v) on [0, L]; components sampled as the FDTD's sub-pixel rule for interfaces
// normal to v (E_v: harmonic mean over the cell window, E_u, E_w: arithmetic mean); the
// interfaces in `faces` (positions) lie on integer nodes or anywhere, windows split there.
ModeMedium2D layered_v(const ModeGrid2D& g, const std::vector<double>& faces, const std::vector<cd>& eps_layers) {
    auto layer_of = [&](double v) {
        std::size_t k = 0;
        while (k < faces.size() && v > faces[k]) ++k;
        return k;
    };
    ModeMedium2D m;
    for (int d = 0; d < 3; ++d) {
        const auto s = mode_component_shape_e(g, d);
        m.eps[d].resize(std::size_t(s[0] * s[1]));
        m.eps_imag[d].resize(std::size_t(s[0] * s[1]));
        for (int j = 0; j < s[1]; ++j)
            for (int i = 0; i < s[0]; ++i) {
                const double v = mode_node_position(g, d, false, i, j)[1];
                // window [v - dx/2, v + dx/2] split at the faces inside it
                std::vector<double> cuts = {v - 0.5 * g.dx_um};
                for (double f : faces)
                    if (f > v - 0.5 * g.dx_um && f < v + 0.5 * g.dx_um) cuts.push_back(f);
                cuts.push_back(v + 0.5 * g.dx_um);
                cd mean = 0, inv = 0;
                for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
                    const double f = (cuts[c + 1] - cuts[c]) / g.dx_um;
                    const cd e = eps_layers[layer_of(0.5 * (cuts[c] + cuts[c + 1]))];
                    mean += f * e;
                    inv += f / e;
                }
                const cd e = d == 1 ? 1.0 / inv : mean;
                m.eps[d][std::size_t(j * s[0] + i)] = e.real();
                m.eps_imag[d][std::size_t(j * s[0] + i)] = e.imag();
            }
    }
    return m;
}

ModeGrid2D column_grid(double L, double dx) {
    ModeGrid2D g;
    g.dx_um = dx;
    g.nu = 1;
    g.nv = static_cast<int>(std::lround(L / dx));
    g.boundary_u = ModeBoundary::periodic;
    g.boundary_v = ModeBoundary::pec;
    return g;
}

// A Drude gold in the near infrared (plasma frequency 1.37e16 rad/s = 9.0 eV, damping
// 1.0e14 rad/s; close to Johnson & Christy's gold between 0.7 and 2 um). At 0.8 um:
// eps = -32.7 + 1.4i.
Material drude_gold() {
    Material m;
    m.id = "gold";
    m.epsilon_inf = 1.0;
    Pole p;
    p.kind = PoleKind::Drude;
    p.omega_p = 1.37e16;
    p.gamma = 1.0e14;
    m.poles.push_back(p);
    return m;
}

}  // namespace

TEST_CASE("mode solver: a Si strip as a constant eps and as a Lorentz model with the same eps(1.55 um) agree",
          "[modes2d][mode][modes_dispersive]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const double wl = 1.55, dx = 0.04;  // faces of the strip cut cells at this dx (0.70 / 0.04 = 17.5)
    const auto t0 = std::chrono::steady_clock::now();
    // Both materials as Lorentz models with epsilon_inf 1: the solver that reads only
    // epsilon_inf sees a uniform vacuum and finds no strip mode.
    const auto cst = strip_modes(strip_project(dx, constant_material("si", kNSi * kNSi), constant_material("sio2", kNOx * kNOx)), wl);
    const auto lor = strip_modes(
        strip_project(dx, lorentz_material("si", kNSi * kNSi, wl), lorentz_material("sio2", kNOx * kNOx, wl)), wl);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(cst.size() == 2);
    REQUIRE(lor.size() == 2);
    std::printf("strip dx %.2f: constant TE0 %.6f TM0 %.6f; Lorentz TE0 %.6f TM0 %.6f (%.2f s)\n", dx, cst[0].n_eff,
                cst[1].n_eff, lor[0].n_eff, lor[1].n_eff, s);
    // issue criterion: within 1e-4 (the media are the same; the difference is rounding)
    CHECK(std::abs(lor[0].n_eff - cst[0].n_eff) < 1e-4);
    CHECK(std::abs(lor[1].n_eff - cst[1].n_eff) < 1e-4);
    CHECK(lor[0].n_eff_imag == 0.0);  // lossless: the real path
    // a guided strip mode (between the oxide and silicon indices), TE0 first
    CHECK(cst[0].n_eff > 2.3);
    CHECK(cst[0].te_fraction > 0.9);
}

TEST_CASE("mode solver: n_group of a Lorentz strip includes material dispersion (n_eff - lambda dn_eff/dlambda)",
          "[modes2d][mode][modes_dispersive]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const double wl = 1.55, dx = 0.04, h = 0.005;
    const Project pl = strip_project(dx, lorentz_material("si", kNSi * kNSi, wl), lorentz_material("sio2", kNOx * kNOx, wl));
    const Project pc = strip_project(dx, constant_material("si", kNSi * kNSi), constant_material("sio2", kNOx * kNOx));
    const auto m = strip_modes(pl, wl), mc = strip_modes(pc, wl);
    // the materials disperse with wavelength here: n_eff(lambda +- h) of the Lorentz strip
    const double np = strip_modes(pl, wl + h)[0].n_eff, nm = strip_modes(pl, wl - h)[0].n_eff;
    const double ng_fd = m[0].n_eff - wl * (np - nm) / (2 * h);
    std::printf("Lorentz strip TE0: n_g energy %.6f, finite difference %.6f; constant-eps strip n_g %.6f\n", m[0].n_group,
                ng_fd, mc[0].n_group);
    // as the non-dispersive group-index test (test_mode_solver2d.cpp): the central
    // difference's truncation and the grid's discrete energy sums, 2e-3
    CHECK(std::abs(m[0].n_group - ng_fd) < 2e-3);
    // the Lorentz pole at 0.3 um raises the material group index of Si by ~0.12
    CHECK(m[0].n_group - mc[0].n_group > 0.05);
}

TEST_CASE("mode solver: the complex path on a lossless slab equals the real path",
          "[modes2d][mode][modes_dispersive]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    // 300 nm Si slab in oxide; with Im eps = 1e-9 in the core the complex path runs; the
    // first-order perturbation of n_eff is ~1e-10, below the eigen-solvers' tolerance.
    const double wl = 1.55, dx = 0.01;
    const ModeGrid2D g = column_grid(3.0, dx);
    const cd eo = kNOx * kNOx, es = kNSi * kNSi;
    ModeMedium2D real = layered_v(g, {1.3037, 1.6037}, {eo, es, eo});
    for (auto& v : real.eps_imag) v.clear();
    ModeMedium2D lossy = layered_v(g, {1.3037, 1.6037}, {eo, es + cd(0, 1e-9), eo});
    ModeSolveOptions o;
    o.num_modes = 2;
    const auto mr = solve_modes_2d(g, real, wl, o);
    const auto mc = solve_modes_2d(g, lossy, wl, o);
    REQUIRE(mr.size() == 2);
    REQUIRE(mc.size() == 2);
    for (int k = 0; k < 2; ++k) {
        std::printf("slab mode %d: real %.10f, complex %.10f%+.3ei\n", k, mr[k].n_eff, mc[k].n_eff, mc[k].n_eff_imag);
        CHECK(std::abs(mc[k].n_eff - mr[k].n_eff) < 1e-8);
        CHECK(mc[k].n_eff_imag > 0);
        CHECK(mc[k].n_eff_imag < 1e-8);
        CHECK(std::abs(mc[k].te_fraction - mr[k].te_fraction) < 1e-6);
    }
}

TEST_CASE("mode solver: surface plasmon of a single gold-air interface against sqrt(eps_m eps_d / (eps_m + eps_d))",
          "[modes2d][mode][modes_plasmonic]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const double wl = 0.8;
    const cd em = analytic_epsilon(drude_gold(), omega_of(wl)), ed = 1.0;
    const cd n_spp = std::sqrt(em * ed / (em + ed));  // Raether, Surface Plasmons (1988), eq. 2.2
    // gold below v = 0.2 um (about 9 skin depths of 22 nm), air above to 6.2 um (8 decay
    // lengths of the field in air, 0.72 um), dx 2 nm: the second-order discretization error
    // of (n - 1) is ~(dx / skin depth)^2 ~ 1 % of 0.016, i.e. ~1e-4.
    const double dx = 0.002;
    const ModeGrid2D g = column_grid(6.2, dx);
    const ModeMedium2D m = layered_v(g, {0.2}, {em, ed});
    ModeSolveOptions o;
    o.num_modes = 1;
    o.target_neff = 1.05;  // above the light line of air: the plasmon is the only mode there
    const auto t0 = std::chrono::steady_clock::now();
    const auto modes = solve_modes_2d(g, m, wl, o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(modes.size() >= 1);
    const VectorMode& spp = modes[0];
    std::printf("gold eps(0.8 um) = %.4f%+.4fi; SPP analytic %.6f%+.6fi, solver %.6f%+.6fi, %.3f dB/cm (%.2f s)\n", em.real(),
                em.imag(), n_spp.real(), n_spp.imag(), spp.n_eff, spp.n_eff_imag, spp.loss_db_per_cm, s);
    CHECK(std::abs(cd(spp.n_eff, spp.n_eff_imag) - n_spp) < 1e-3);  // issue criterion
    CHECK(spp.te_fraction < 1e-6);                                  // E normal to the interface (v): TM
    // loss: 20 log10(e) Im(beta) in 1/cm
    CHECK(spp.loss_db_per_cm == Approx(20 / std::log(10.0) * spp.n_eff_imag * 2 * M_PI / wl * 1e4).epsilon(1e-12));
}

TEST_CASE("mode solver: gap plasmon of a gold/air/gold slot against the MIM dispersion relation",
          "[modes2d][mode][modes_plasmonic]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const double wl = 0.8, gap = 0.1;
    const cd em = analytic_epsilon(drude_gold(), omega_of(wl)), ed = 1.0;
    const double k0 = 2 * M_PI / wl;
    // Symmetric (even H) gap mode of metal/insulator/metal: tanh(k_d d / 2) = -(eps_d k_m) /
    // (eps_m k_d), k_i = k0 sqrt(n^2 - eps_i) (Economou, Phys. Rev. 182, 539 (1969);
    // Maier, Plasmonics: Fundamentals and Applications (2007), eq. 2.28). Newton in complex n.
    auto f = [&](cd n) {
        const cd kd = k0 * std::sqrt(n * n - ed), km = k0 * std::sqrt(n * n - em);
        return em * kd * std::tanh(0.5 * kd * gap) + ed * km;
    };
    cd n = 1.3;
    for (int it = 0; it < 60; ++it) {
        const cd h = 1e-7, df = (f(n + h) - f(n - h)) / (2.0 * h);
        const cd step = f(n) / df;
        n -= step;
        if (std::abs(step) < 1e-14) break;
    }
    REQUIRE(std::abs(f(n)) < 1e-8 * k0 * std::abs(em));
    // gold 0.2 um on each side (9 skin depths), the gap's faces on nodes, dx 2 nm (20 cells in the gap)
    const double dx = 0.002;
    const ModeGrid2D g = column_grid(0.4 + gap, dx);
    const ModeMedium2D m = layered_v(g, {0.2, 0.2 + gap}, {em, ed, em});
    ModeSolveOptions o;
    o.num_modes = 1;
    o.target_neff = n.real();
    const auto modes = solve_modes_2d(g, m, wl, o);
    REQUIRE(modes.size() >= 1);
    std::printf("MIM gap %.3f um: analytic %.6f%+.6fi, solver %.6f%+.6fi, %.1f dB/cm\n", gap, n.real(), n.imag(),
                modes[0].n_eff, modes[0].n_eff_imag, modes[0].loss_db_per_cm);
    CHECK(std::abs(cd(modes[0].n_eff, modes[0].n_eff_imag) - n) < 1e-3);
}

TEST_CASE("cross_section_medium: a Drude metal gives complex eps, conductivity adds i sigma / (omega eps0)",
          "[modes2d][mode][modes_dispersive]") {
    // a gold slab in a lossy (conductive) oxide, 3D project; the uniform samples carry the
    // materials' analytic eps(omega) exactly
    const double wl = 1.55, dx = 0.05;
    Material ox = constant_material("sio2", kNOx * kNOx);
    ox.conductivity = 10.0;  // S/m
    Project p = strip_project(dx, drude_gold(), ox);
    const CrossSection cs =
        sample_cross_section(p, {0.5, 1.0, 0.8}, {0.0, 2.0, 1.6}, false, "ports[0]", "strip.glproj", Json::object(), wl);
    const ModeMedium2D& m = cs.medium;
    REQUIRE(m.eps_imag[0].size() == m.eps[0].size());
    const cd e_ox = analytic_epsilon(ox, omega_of(wl)), e_au = analytic_epsilon(drude_gold(), omega_of(wl));
    CHECK(e_ox.imag() == Approx(10.0 / (units::eps0 * omega_of(wl))).epsilon(1e-12));
    // corner sample (oxide) and the strip's centre (gold) of E_u
    const auto s0 = mode_component_shape_e(cs.grid, 0);
    CHECK(m.eps[0][0] == Approx(e_ox.real()).epsilon(1e-12));
    CHECK(m.eps_imag[0][0] == Approx(e_ox.imag()).epsilon(1e-12));
    // centre of the strip: y = 1.0 (u), z = 0.81 (v) -> i = 1.0/dx - 0.5, j = 0.8/dx - 1 (PEC: first node 1)
    const int ic = static_cast<int>(std::lround(1.0 / dx - 0.5)), jc = static_cast<int>(std::lround(0.8 / dx)) - 1;
    const std::size_t kc = std::size_t(jc) * std::size_t(s0[0]) + std::size_t(ic);
    CHECK(m.eps[0][kc] == Approx(e_au.real()).epsilon(1e-12));
    CHECK(m.eps_imag[0][kc] == Approx(e_au.imag()).epsilon(1e-12));
    // the medium at another frequency, from the makeup
    const ModeMedium2D m2 = cross_section_medium(cs, omega_of(1.3));
    CHECK(m2.eps[0][kc] == Approx(analytic_epsilon(drude_gold(), omega_of(1.3)).real()).epsilon(1e-12));
}

namespace {

// 2D TMz slab (eps 12, 0.3 um thick along y) with a mode monitor line across it.
Project slab2d(const Material& core) {
    Project p;
    p.name = "slab2d";
    p.domain.size = {4.0, 3.0, 0};
    p.domain.cell_size = 0.02;
    p.domain.polarization = Polarization::TMz;
    p.domain.pml.cells = 12;
    p.materials = {core};
    Layer wg;
    wg.name = "wg";
    wg.material = core.id;
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {-1.0, 1.35};
    r.max = {5.0, 1.65};
    wg.shapes = {r};
    p.layers = {wg};
    Source s;
    s.name = "in";
    s.type = SourceType::Line;
    s.from = {1.0, 0.3};
    s.to = {1.0, 2.7};
    s.component = Component::Ez;
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.3;
    p.sources = {s};
    Monitor m;
    m.name = "A";
    m.type = MonitorType::Flux;
    m.kind = "mode";
    m.from = {2.0, 0.3};
    m.to = {2.0, 2.7};
    m.direction = "+x";
    p.monitors = {m};
    p.run.spectrum.wavelength_min = 1.45;
    p.run.spectrum.wavelength_max = 1.65;
    p.run.spectrum.points = 3;
    return p;
}

}  // namespace

TEST_CASE("mode solver 2D project: a Lorentz slab core gives the constant core's n_eff at the matching frequency",
          "[mode][modes_dispersive]") {
    const CompiledProject c0 = compile_project(slab2d(constant_material("si", 12.0)), "slab2d.glproj");
    REQUIRE(c0.monitors.size() == 1);
    REQUIRE(c0.monitors[0].mode_plan);
    const std::size_t f = 1;
    const double wl = units::hz_to_wavelength_um(c0.spectrum_hz[f]);
    const CompiledProject cl = compile_project(slab2d(lorentz_material("si", 12.0, wl)), "slab2d.glproj");
    const double n0 = c0.monitors[0].mode_plan->line_neff[f][0], nl = cl.monitors[0].mode_plan->line_neff[f][0];
    std::printf("2D slab at %.4f um: constant core n_eff %.6f, Lorentz core %.6f\n", wl, n0, nl);
    CHECK(n0 > 2.5);
    // the FDTD's discrete susceptibility differs from the analytic one by the factor
    // 1 / (1 - w^2 ((w dt)^2 / 12) / (w0^2 - w^2)) ~ 1 + 5e-6 here: far below 1e-4
    CHECK(std::abs(nl - n0) < 1e-4);
}

TEST_CASE("mode solver: the gold-air surface plasmon from a 3D project's port plane (Drude material, eps at 0.8 um)",
          "[modes2d][mode][modes_plasmonic]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    // A gold half-space below z = 0.2 um, air above to 6.2 um; the plane x = 0.01 spans the
    // domain along y (periodic: the window's u axis is periodic) and z (PEC walls).
    const double wl = 0.8, dx = 0.002;
    Project p;
    p.name = "spp";
    p.domain.dimensions = 3;
    p.domain.size = {0.02, 2 * dx, 6.2};
    p.domain.cell_size = dx;
    p.domain.boundaries = {BoundaryKind::Pml, BoundaryKind::Periodic, BoundaryKind::Pml};
    p.domain.background = "air";
    p.materials = {drude_gold()};
    Layer l;
    l.name = "metal";
    l.material = "gold";
    Shape b;
    b.type = ShapeType::Box;
    b.box_min = {-1.0, -1.0, -1.0};
    b.box_max = {1.0, 1.0, 0.2};
    l.shapes.push_back(b);
    p.layers.push_back(l);
    const CrossSection cs =
        sample_cross_section(p, {0.01, dx, 3.1}, {0, 2 * dx, 6.2}, false, "ports[0]", "spp.glproj", Json::object(), wl);
    REQUIRE(cs.grid.boundary_u == ModeBoundary::periodic);
    const cd em = analytic_epsilon(drude_gold(), omega_of(wl));
    const cd n_spp = std::sqrt(em / (em + 1.0));
    ModeSolveOptions o;
    o.num_modes = 1;
    o.target_neff = 1.05;
    const auto modes = solve_modes_2d(cs.grid, cs.medium, wl, o);
    REQUIRE(modes.size() == 1);
    std::printf("SPP from the project: analytic %.6f%+.6fi, solver %.6f%+.6fi, %.1f dB/cm\n", n_spp.real(), n_spp.imag(),
                modes[0].n_eff, modes[0].n_eff_imag, modes[0].loss_db_per_cm);
    CHECK(std::abs(cd(modes[0].n_eff, modes[0].n_eff_imag) - n_spp) < 1e-3);
}
