// Sub-pixel averaging of dispersive materials (run.subpixel_metal; project.hpp
// SubpixelMetal, compile_common.cpp DispersionBuilder::classify):
// - the pole weights per E component: "tangential" (default) staircases the component
//   normal to a metal surface and weights the tangential ones by the covered fraction;
//   "fraction" weights every component by the fraction; "staircase" staircases the cut
//   cells whole (eps_inf too); Ez in 2D is tangential to every interface;
// - the project field: default, round trip, a bad value named;
// - physics: a 2D gold cylinder (B-CALM's gold, r = 40 nm) in TEz and TMz against the
//   cylinder series (Bohren & Huffman ch. 8.4) with the default scheme, the fill-fraction
//   weighting shown to be the wrong one for the normal field; Rakic's silver (the bundled
//   library's "ag") the same way, with one builder for both metals;
// - [.study]: both metals, every scheme, 5 / 2.5 / 1.25 nm, the observed convergence
//   orders.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/material_library.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "gold_bcalm.hpp"
#include "metal_scenes.hpp"
#include "mie_series.hpp"
#include "test_3d_projects.hpp"

using namespace golightly;
using namespace golightly::test3d;

namespace {

/// B-CALM's gold (Drude + 5 Lorentz poles) as the bundled example writes it.
Material bcalm_gold() { return gold_bcalm::example_gold(); }

/// Rakic's silver (Lorentz-Drude, Appl. Opt. 37, 5271 (1998)): the bundled library's "ag".
/// Its fit covers 0.1-5 eV (0.25-12 um), so the band 0.4-1.0 um of the cylinder runs.
/// Throws std::runtime_error when the library lacks it.
Material rakic_silver() {
    for (const LibraryMaterial& lm : load_material_library(bundled_material_library_path()))
        if (lm.material.id == "ag") return lm.material;
    throw std::runtime_error("the bundled material library " + bundled_material_library_path().string() +
                             " has no material \"ag\"");
}

/// 2D: a gold half-plane x >= x0 (all y) over glass (eps 2.25) in a 0.4 x 0.4 um periodic
/// domain, dx 0.01 um, or a gold disc when `disc` (radius 0.123 um, centred off the grid).
Project gold_edge_project(Polarization pol, SubpixelMetal scheme, bool disc) {
    Project p;
    p.name = "gold edge";
    p.domain.dimensions = 2;
    p.domain.polarization = pol;
    p.domain.size = {0.4, 0.4, 0};
    p.domain.cell_size = 0.01;
    p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Periodic, BoundaryKind::Periodic};
    p.domain.background = "glass";
    Material glass;
    glass.id = "glass";
    glass.epsilon_inf = 2.25;
    p.materials = {glass, bcalm_gold()};
    Layer l;
    l.name = "gold";
    l.material = p.materials[1].id;
    Shape s;
    if (disc) {
        s.type = ShapeType::Ellipse;
        s.center = {0.2031, 0.1987};
        s.radii = {0.123, 0.123};
    } else {
        s.type = ShapeType::Rectangle;
        s.min = {0.2037, -0.1};
        s.max = {0.6, 0.5};
    }
    l.shapes = {s};
    p.layers = {l};
    p.run.subpixel_metal = scheme;
    p.run.frames.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    p.run.spectrum.wavelength_min = 0.5;
    p.run.spectrum.wavelength_max = 1.0;
    p.run.spectrum.points = 3;
    return p;
}

/// The dispersive weights of component c, and how many are strictly between 0 and 1.
struct Weights {
    std::vector<double> w;
    std::size_t partial = 0;
};
Weights weights_of(const Scene& s, int c) {
    Weights out;
    out.w = s.dispersive[c].weight;
    for (double w : out.w) out.partial += (w > 1e-9 && w < 1 - 1e-9);
    return out;
}

}  // namespace

TEST_CASE("subpixel_metal: a straight gold edge normal to x, TEz: Ex (normal) staircased, Ey (tangential) "
          "fraction-weighted, fraction weights both, staircase staircases eps_inf too",
          "[subpixel_metal][dispersive]") {
    const Scene tan = compile_project(gold_edge_project(Polarization::TEz, SubpixelMetal::Tangential, false), "t").scene;
    const Scene fra = compile_project(gold_edge_project(Polarization::TEz, SubpixelMetal::Fraction, false), "f").scene;
    const Scene sta = compile_project(gold_edge_project(Polarization::TEz, SubpixelMetal::Staircase, false), "s").scene;
    // The edge at x = 0.2037 um cuts one column of Ex windows and one of Ey windows
    // (fraction 0.63 or 0.37 of the window, depending on the component's x offset).
    const Weights tx = weights_of(tan, 0), ty = weights_of(tan, 1);
    const Weights fx = weights_of(fra, 0), fy = weights_of(fra, 1);
    const Weights sx = weights_of(sta, 0), sy = weights_of(sta, 1);
    CHECK(tx.partial == 0);  // normal component: 0 or 1
    CHECK(ty.partial == std::size_t(tan.ny));
    CHECK(fx.partial == std::size_t(fra.ny));
    CHECK(fy.partial == std::size_t(fra.ny));
    CHECK(sx.partial == 0);
    CHECK(sy.partial == 0);
    // the tangential weights are the fill fraction: the same as the fraction scheme's
    CHECK(ty.w == fy.w);
    // staircase: every cell's eps_inf is one of the two materials' (no averaged value)
    for (int c = 0; c < 2; ++c)
        for (std::uint16_t m : sta.material_index[c]) {
            const double e = sta.table[m].eps_r;
            CHECK((e == Approx(2.25) || e == Approx(bcalm_gold().epsilon_inf)));
        }
    // the other schemes keep the averaged eps_inf at the cut cells
    bool averaged = false;
    for (std::uint16_t m : tan.material_index[0]) {
        const double e = tan.table[m].eps_r;
        averaged = averaged || (std::abs(e - 2.25) > 1e-6 && std::abs(e - bcalm_gold().epsilon_inf) > 1e-6);
    }
    CHECK(averaged);
}

TEST_CASE("subpixel_metal: Ez in TMz is tangential to every interface: tangential and fraction give the same "
          "weights, a disc in TEz is staircased (each component has a normal part on the circle)",
          "[subpixel_metal][dispersive]") {
    const Scene tz = compile_project(gold_edge_project(Polarization::TMz, SubpixelMetal::Tangential, true), "t").scene;
    const Scene fz = compile_project(gold_edge_project(Polarization::TMz, SubpixelMetal::Fraction, true), "f").scene;
    CHECK(tz.dispersive[2].cells == fz.dispersive[2].cells);
    CHECK(tz.dispersive[2].weight == fz.dispersive[2].weight);
    CHECK(weights_of(tz, 2).partial > 50);
    // A disc in TEz: Ex and Ey each have a normal part somewhere on the circle, so the
    // default staircases every cut cell of both (no partial weight, the staircase scheme's
    // weights); the fraction scheme keeps many partial weights.
    const Scene td = compile_project(gold_edge_project(Polarization::TEz, SubpixelMetal::Tangential, true), "t").scene;
    const Scene fd = compile_project(gold_edge_project(Polarization::TEz, SubpixelMetal::Fraction, true), "f").scene;
    const Scene sd = compile_project(gold_edge_project(Polarization::TEz, SubpixelMetal::Staircase, true), "s").scene;
    for (int c = 0; c < 2; ++c) {
        const Weights t = weights_of(td, c), f = weights_of(fd, c);
        INFO("component " << c << ": partial weights tangential " << t.partial << ", fraction " << f.partial);
        CHECK(t.partial == 0);
        CHECK(f.partial > 50);
        CHECK(td.dispersive[c].cells == sd.dispersive[c].cells);
    }
    // Along the row through the disc's centre, the Ex samples at the left and right edges
    // are cut with the normal along x: weight 1 where listed (0 is not listed).
    const int j = int(std::lround(0.1987 / 0.01 + td.pml_lo[1]));
    const auto& dx = td.dispersive[0];
    for (std::size_t k = 0; k < dx.cells.size(); ++k)
        if (dx.cells[k] / CellIndex(td.nx) == CellIndex(j)) CHECK((dx.weight[k] == 1.0));
}

TEST_CASE("subpixel_metal: project field default, round trip, only written when chosen, a bad value named",
          "[subpixel_metal][project]") {
    Project p = gold_edge_project(Polarization::TEz, SubpixelMetal::Tangential, false);
    CHECK(project_to_json(p)["run"].count("subpixel_metal") == 0);
    for (SubpixelMetal m : {SubpixelMetal::Staircase, SubpixelMetal::Fraction, SubpixelMetal::Conformal,
                             SubpixelMetal::Tangential}) {
        p.run.subpixel_metal = m;
        const Json j = project_to_json(p);
        const Project back = parse_project(j.dump(), "rt.glproj");
        CHECK(back.run.subpixel_metal == m);
        if (m != SubpixelMetal::Tangential) CHECK(j["run"]["subpixel_metal"] == to_string(m));
    }
    Json bad = project_to_json(p);
    bad["run"]["subpixel_metal"] = "conformal-ish";
    try {
        parse_project(bad.dump(), "bad.glproj");
        FAIL("accepted a bad subpixel_metal");
    } catch (const ProjectError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("bad.glproj") != std::string::npos);
        CHECK(what.find("run.subpixel_metal") != std::string::npos);
    }
}

namespace {

/// Cross-sections per unit length (um) of a metal cylinder (radius a um, centre offset by
/// (ox, oy) um from the grid) under a TF/SF plane wave along +x, against the cylinder
/// series of the same material's analytic eps(omega).
struct CylinderRun {
    std::vector<double> wl, sca, abs, sca_series, abs_series;
    double worst_sca = 0, worst_abs = 0;
};

constexpr double kCylWlMin = 0.4, kCylWlMax = 1.0;
constexpr int kCylPoints = 7;  // 1/lambda = 1, 1.25, .., 2.5 /um

/// The cylinder project of run_cylinder: a TF/SF plane wave along +x on a cylinder of
/// `metal` (its first material), radius a (um), centred at the domain's centre + (ox, oy)
/// um, flux boxes "sca" (a + 40 nm) and "abs" (a + 10 nm), float64, CPU.
Project cylinder_project(const Material& metal, Polarization pol, double dx, double a, SubpixelMetal scheme, double ox,
                         double oy) {
    const double wl_min = kCylWlMin, wl_max = kCylWlMax;
    const int points = kCylPoints;
    Project p;
    p.name = metal.id + " cylinder";
    p.domain.dimensions = 2;
    p.domain.polarization = pol;
    const double L = 2 * a + 0.16;
    p.domain.size = {L, L, 0};
    p.domain.cell_size = dx;
    p.domain.boundaries = {BoundaryKind::Pml, BoundaryKind::Pml, BoundaryKind::Periodic};
    p.domain.pml.cells = std::max(12, int(std::lround(0.04 / dx)));
    p.materials = {metal};
    Layer layer;
    layer.name = "cylinder";
    layer.material = metal.id;
    Shape disc;
    disc.type = ShapeType::Ellipse;
    const double c = L / 2;
    disc.center = {c + ox, c + oy};
    disc.radii = {a, a};
    layer.shapes.push_back(disc);
    p.layers.push_back(layer);
    const double tf = a + 0.02, sc = a + 0.04, ab = a + 0.01;
    p.sources.push_back(tfsf("pw", {c - tf, c - tf, 0}, {c + tf, c + tf, 0}, "+x",
                             pol == Polarization::TMz ? Component::Ez : Component::Ey, pulse_for(wl_min, wl_max)));
    // A sine carrier: no DC part. In TMz a metal wire carries the DC part of a cosine
    // pulse as a current along the wire that dies away over hundreds of fs (the 2D wire's
    // inductance grows with ln(ct/a)); a window cut before that leaks the tail into the
    // band (sca -3.5 %, abs +40 % at 150 fs, not shrinking with the cell size).
    p.sources.back().phase_deg = 90;
    auto box = [&](const std::string& name, double h, const std::string& kind) {
        Monitor m;
        m.name = name;
        m.type = MonitorType::FluxBox;
        m.kind = kind;
        m.min = Vec2{c - h, c - h};
        m.max = Vec2{c + h, c + h};
        return m;
    };
    p.monitors = {box("sca", sc, "scattering"), box("abs", ab, "absorption")};
    p.run.courant = 0.5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    p.run.subpixel_metal = scheme;
    p.run.spectrum.wavelength_min = wl_min;
    p.run.spectrum.wavelength_max = wl_max;
    p.run.spectrum.points = points;
    p.run.stop.decay_db = 100;
    p.run.stop.max_time_fs = 1000;
    return p;
}

/// Runs `p` (a cylinder_project) against the cylinder series; `opts` the run options.
CylinderRun run_cylinder_project(const Project& p, const RunOptions& opts = {}) {
    const Material metal = p.materials[0];
    const double a = p.layers.at(0).shapes.at(0).radii.x;
    const Polarization pol = p.domain.polarization;
    const RunResult r = run_project(p, metal.id + "_cylinder.glproj", opts);
    REQUIRE(r.spectra.size() == 2);
    CHECK(r.stop_reason == StopReason::Decay);  // not cut off by the time limit
    CylinderRun out;
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        const double wl = units::hz_to_wavelength_um(r.frequency_hz[f]);
        const std::complex<double> m = std::sqrt(analytic_epsilon(metal, 2 * units::pi * r.frequency_hz[f]));
        const auto q = mie::cylinder_efficiencies(2 * units::pi * a / wl, m, pol == Polarization::TMz);
        out.wl.push_back(wl);
        out.sca.push_back(r.spectra[0].normalized[f]);
        out.abs.push_back(r.spectra[1].normalized[f]);
        out.sca_series.push_back(q.sca * 2 * a);
        out.abs_series.push_back(q.abs() * 2 * a);
        out.worst_sca = std::max(out.worst_sca, std::abs(out.sca.back() / out.sca_series.back() - 1));
        out.worst_abs = std::max(out.worst_abs, std::abs(out.abs.back() / out.abs_series.back() - 1));
    }
    return out;
}

CylinderRun run_cylinder(const Material& metal, Polarization pol, double dx, double a, SubpixelMetal scheme, double ox,
                         double oy) {
    return run_cylinder_project(cylinder_project(metal, pol, dx, a, scheme, ox, oy));
}

CylinderRun run_gold_cylinder(Polarization pol, double dx, double a, SubpixelMetal scheme, double ox, double oy) {
    return run_cylinder(bcalm_gold(), pol, dx, a, scheme, ox, oy);
}

void print_run(const char* label, const CylinderRun& r) {
    for (std::size_t f = 0; f < r.wl.size(); ++f)
        std::printf("%s: wl %.3f um  sca %.4e (series %.4e, %+6.2f %%)  abs %.4e (series %.4e, %+6.2f %%)\n", label,
                    r.wl[f], r.sca[f], r.sca_series[f], 100 * (r.sca[f] / r.sca_series[f] - 1), r.abs[f],
                    r.abs_series[f], 100 * (r.abs[f] / r.abs_series[f] - 1));
    std::printf("%s: worst |error| sca %.2f %%, abs %.2f %%\n", label, 100 * r.worst_sca, 100 * r.worst_abs);
    std::fflush(stdout);
}

}  // namespace

TEST_CASE("cylinder series with complex index: Rayleigh limits (TMz and TEz), real index as the real-m series",
          "[mie2d][subpixel_metal]") {
    // Quasi-static limits (x -> 0), eps = m^2: the dipole per unit length p = eps0 alpha E0
    // with alpha = pi a^2 (eps - 1) (TMz: the inside field is E0) or 2 pi a^2 (eps - 1) /
    // (eps + 1) (TEz: inside 2 E0 / (eps + 1)); scattering k^3 |alpha|^2 / 4 (TMz) and half
    // that (TEz, the cos^2 pattern), absorption k Im(alpha):
    //   TMz: Q_sca = pi^2 x^3 |eps - 1|^2 / 8,            Q_abs = pi x Im(eps) / 2
    //   TEz: Q_sca = pi^2 x^3 |(eps-1)/(eps+1)|^2 / 4,    Q_abs = pi x Im((eps-1)/(eps+1))
    const double x = 1e-3;
    const std::complex<double> m(0.2, 3.0), e = m * m;
    const auto tm = mie::cylinder_efficiencies(x, m, true);
    const auto te = mie::cylinder_efficiencies(x, m, false);
    CHECK(tm.sca == Approx(units::pi * units::pi * std::pow(x, 3) * std::norm(e - 1.0) / 8).epsilon(1e-3));
    CHECK(te.sca == Approx(units::pi * units::pi * std::pow(x, 3) * std::norm((e - 1.0) / (e + 1.0)) / 4).epsilon(1e-3));
    CHECK(tm.abs() == Approx(units::pi * x * e.imag() / 2).epsilon(1e-3));
    CHECK(te.abs() == Approx(units::pi * x * ((e - 1.0) / (e + 1.0)).imag()).epsilon(1e-3));
    // a real index reproduces the real-m TMz series
    CHECK(mie::cylinder_efficiencies(1.7, 1.5, true).sca == Approx(mie::cylinder_qsca_tm(1.7, 1.5)).epsilon(1e-10));
    CHECK(mie::cylinder_efficiencies(1.7, 1.5, true).abs() == Approx(0).margin(1e-12));
}

namespace {

/// The cylinder study of `metal` (r = 40 nm): TEz and TMz, every scheme, 5 / 2.5 / 1.25 nm,
/// three sub-cell offsets of the centre; prints each grid's worst error over the band and
/// the offsets against the cylinder series, then per scheme the observed convergence order
/// between successive cells, p = log2(err(dx) / err(dx/2)), for scattering and absorption.
/// A scheme that compiles to the same scene as an earlier one (same_metal_scene: on a
/// cylinder in air, TEz: tangential and conformal are the staircase; TMz: tangential,
/// fraction and conformal are one) takes that one's figures without a run (said so).
/// One engine thread per run: run two studies side by side on a shared machine.
void cylinder_study(const Material& metal, const std::string& name) {
    const double a = 0.04;
    const double offsets[3][2] = {{0.37, -0.21}, {0.0, 0.0}, {0.5, 0.25}};
    const double dxs[3] = {0.005, 0.0025, 0.00125};
    RunOptions opts;
    opts.threads = 1;
    for (Polarization pol : {Polarization::TEz, Polarization::TMz}) {
        const char* pn = pol == Polarization::TMz ? "TMz" : "TEz";
        double ws[4][3] = {}, wa[4][3] = {};
        std::string same_as[4];
        for (int d = 0; d < 3; ++d) {
            const double dx = dxs[d];
            for (const auto& o : offsets) {
                Scene scenes[4];
                CylinderRun runs[4];
                for (int s = 0; s < 4; ++s) {
                    const SubpixelMetal scheme = SubpixelMetal(s);
                    const Project p = cylinder_project(metal, pol, dx, a, scheme, o[0] * dx, o[1] * dx);
                    scenes[s] = compile_project(p, name + "_cylinder.glproj").scene;
                    int twin = -1;
                    for (int t = 0; t < s && twin < 0; ++t)
                        if (metal_scenes::same_metal_scene(scenes[s], scenes[t])) twin = t;
                    if (twin >= 0) {
                        runs[s] = runs[twin];
                        const std::string note = "same scene as " + to_string(SubpixelMetal(twin));
                        if (same_as[s].empty()) same_as[s] = note;
                        if (same_as[s] != note) same_as[s] = "mixed";
                    } else {
                        runs[s] = run_cylinder_project(p, opts);
                        if (same_as[s].empty()) same_as[s] = "run";
                        if (same_as[s] != "run") same_as[s] = "mixed";
                    }
                    ws[s][d] = std::max(ws[s][d], runs[s].worst_sca);
                    wa[s][d] = std::max(wa[s][d], runs[s].worst_abs);
                    CHECK(std::isfinite(runs[s].worst_sca));
                    CHECK(std::isfinite(runs[s].worst_abs));
                }
            }
            for (int s = 0; s < 4; ++s)
                std::printf("study %s %s %-10s dx %.5f: worst over offsets sca %6.2f %%  abs %6.2f %%  (%s)\n",
                            name.c_str(), pn, to_string(SubpixelMetal(s)).c_str(), dx, 100 * ws[s][d], 100 * wa[s][d],
                            same_as[s].c_str());
            std::fflush(stdout);
        }
        for (int s = 0; s < 4; ++s)
            std::printf("order %s %s %-10s: sca p(5 -> 2.5 nm) %5.2f, p(2.5 -> 1.25 nm) %5.2f;  abs %5.2f, %5.2f\n",
                        name.c_str(), pn, to_string(SubpixelMetal(s)).c_str(), std::log2(ws[s][0] / ws[s][1]),
                        std::log2(ws[s][1] / ws[s][2]), std::log2(wa[s][0] / wa[s][1]), std::log2(wa[s][1] / wa[s][2]));
        std::fflush(stdout);
    }
}

}  // namespace

TEST_CASE("2D gold cylinder study: every scheme, TEz and TMz, 5 / 2.5 / 1.25 nm, three centre offsets, orders "
          "(prints)",
          "[.study][subpixel_metal][gold_cylinder_study]") {
    cylinder_study(bcalm_gold(), "gold");
}

TEST_CASE("2D silver cylinder study: every scheme, TEz and TMz, 5 / 2.5 / 1.25 nm, three centre offsets, orders "
          "(prints)",
          "[.study][subpixel_metal][silver_cylinder_study]") {
    cylinder_study(rakic_silver(), "silver");
}

TEST_CASE("2D gold cylinder (B-CALM gold, r = 40 nm) in TEz vs the cylinder series with the default scheme: "
          "5 and 2.5 nm cells, never worse than staircasing, first-order convergence",
          "[subpixel_metal][mie2d][dispersive][physics]") {
    // TEz puts E normal to the metal's surface around the whole cylinder: the case that the
    // fill-fraction weighting got wrong (absorption up to +440 % at 2.5 nm, the study
    // above). The default staircases every cut cell whose surface normal has a part along
    // the component, so it converges as staircasing does, at first order in dx (the
    // surface displaced by up to dx/2): 2 x finer cells must cut the worst error by at
    // least 1.5 x. At 2.5 nm (16 cells per radius) the scattering must be within the
    // issue's 5 %; the absorption, a few % of the extinction at the long wavelengths,
    // within 12 % (staircasing's first-order error, the study gives 9.4 % worst over centre
    // offsets; the 5 % needs the conformal scheme).
    const double a = 0.04, ox = 0.37, oy = -0.21;
    const CylinderRun c5 = run_gold_cylinder(Polarization::TEz, 0.005, a, SubpixelMetal::Tangential, ox * 0.005, oy * 0.005);
    print_run("gold cylinder TEz default, 5 nm", c5);
    const CylinderRun c25 = run_gold_cylinder(Polarization::TEz, 0.0025, a, SubpixelMetal::Tangential, ox * 0.0025, oy * 0.0025);
    print_run("gold cylinder TEz default, 2.5 nm", c25);
    const CylinderRun s25 = run_gold_cylinder(Polarization::TEz, 0.0025, a, SubpixelMetal::Staircase, ox * 0.0025, oy * 0.0025);
    print_run("gold cylinder TEz staircase, 2.5 nm", s25);
    const CylinderRun f25 = run_gold_cylinder(Polarization::TEz, 0.0025, a, SubpixelMetal::Fraction, ox * 0.0025, oy * 0.0025);
    print_run("gold cylinder TEz fraction, 2.5 nm", f25);
    CHECK(c25.worst_sca < 0.05);
    CHECK(c25.worst_abs < 0.12);
    CHECK(c25.worst_abs * 1.5 < c5.worst_abs);
    // never worse than staircasing (to the last percent), and far better than the fraction
    CHECK(c25.worst_abs < s25.worst_abs + 0.01);
    CHECK(c25.worst_sca < s25.worst_sca + 0.01);
    CHECK(f25.worst_abs > 3 * c25.worst_abs);
}

TEST_CASE("2D gold cylinder (B-CALM gold, r = 40 nm) in TMz vs the cylinder series: Ez is tangential to the "
          "whole surface, so the default averages the poles, second order, and beats staircasing",
          "[subpixel_metal][mie2d][dispersive][physics][slow]") {
    // Ez parallel to every interface sees the arithmetic mean of eps exactly (the fill
    // fraction of the poles): the error is the second-order error of the averaged medium,
    // far below the staircase's first-order one (the surface displaced by up to dx/2).
    // Bounds: 1 % for both cross-sections at 2.5 nm (16 cells per radius), a fifth of the
    // issue's 5 % at that cell size; staircasing must be the worse of the two.
    const double a = 0.04, dx = 0.0025, ox = 0.37 * dx, oy = -0.21 * dx;
    const CylinderRun t = run_gold_cylinder(Polarization::TMz, dx, a, SubpixelMetal::Tangential, ox, oy);
    print_run("gold cylinder TMz default, 2.5 nm", t);
    const CylinderRun st = run_gold_cylinder(Polarization::TMz, dx, a, SubpixelMetal::Staircase, ox, oy);
    print_run("gold cylinder TMz staircase, 2.5 nm", st);
    CHECK(t.worst_sca < 0.01);
    CHECK(t.worst_abs < 0.01);
    CHECK(t.worst_sca < st.worst_sca);
}

namespace {
/// The worst |relative error| of a run's scattering (sca) or absorption over the spectrum
/// points with wavelength in [wl_lo, wl_hi] um.
double worst_in(const CylinderRun& r, bool sca, double wl_lo, double wl_hi) {
    double w = 0;
    for (std::size_t f = 0; f < r.wl.size(); ++f)
        if (r.wl[f] >= wl_lo - 1e-9 && r.wl[f] <= wl_hi + 1e-9)
            w = std::max(w, std::abs(sca ? r.sca[f] / r.sca_series[f] - 1 : r.abs[f] / r.abs_series[f] - 1));
    return w;
}
}  // namespace

TEST_CASE("2D silver cylinder (Rakic silver, r = 40 nm) in TEz vs the cylinder series with the default scheme: "
          "the staircase's scene, first order in dx, the gold case's bounds from 0.5 um",
          "[subpixel_metal][mie2d][dispersive][physics][silver]") {
    // The gold TEz case above with Rakic's silver (cylinder_project takes the material). E
    // is normal to the surface around the whole cylinder, so the default is the staircase
    // (checked: the same scene; silver's eps_inf is air's) and converges at first order in
    // dx. From 0.5 um up (Re eps < -9) the gold case's reasoning and bounds hold: 2 x finer
    // cells cut the worst error by at least 1.5 x, and at 2.5 nm (16 cells per radius) the
    // scattering is within the 5 % and the absorption within staircasing's 12 %.
    // Below 0.5 um silver nears its TEz plasmon (Re eps = -1 at about 0.35 um): the fields
    // crowd at the staircased surface and the error is several times larger (study: up to
    // +47 % absorption at 0.4 um and 2.5 nm, +36 % at 1.25 nm, worst over centre offsets);
    // there the test asks only that each point's error falls from 5 to 2.5 nm. Silver's
    // absorption is a few % of its extinction, so its relative error is the large one.
    const Material ag = rakic_silver();
    const double a = 0.04, ox = 0.37, oy = -0.21;
    const Scene t = compile_project(cylinder_project(ag, Polarization::TEz, 0.0025, a, SubpixelMetal::Tangential,
                                                     ox * 0.0025, oy * 0.0025), "ag.glproj").scene;
    const Scene st = compile_project(cylinder_project(ag, Polarization::TEz, 0.0025, a, SubpixelMetal::Staircase,
                                                      ox * 0.0025, oy * 0.0025), "ag.glproj").scene;
    CHECK(metal_scenes::same_metal_scene(t, st));
    const CylinderRun c5 = run_cylinder(ag, Polarization::TEz, 0.005, a, SubpixelMetal::Tangential, ox * 0.005, oy * 0.005);
    print_run("silver cylinder TEz default, 5 nm", c5);
    const CylinderRun c25 =
        run_cylinder(ag, Polarization::TEz, 0.0025, a, SubpixelMetal::Tangential, ox * 0.0025, oy * 0.0025);
    print_run("silver cylinder TEz default, 2.5 nm", c25);
    REQUIRE(c25.wl.size() == c5.wl.size());
    CHECK(worst_in(c25, true, 0.5, 1.0) < 0.05);
    CHECK(worst_in(c25, false, 0.5, 1.0) < 0.12);
    CHECK(worst_in(c25, true, 0.5, 1.0) * 1.5 < worst_in(c5, true, 0.5, 1.0));
    CHECK(worst_in(c25, false, 0.5, 1.0) * 1.5 < worst_in(c5, false, 0.5, 1.0));
    for (std::size_t f = 0; f < c25.wl.size(); ++f) {
        if (c25.wl[f] >= 0.5) continue;
        INFO("wavelength " << c25.wl[f] << " um");
        CHECK(std::abs(c25.sca[f] / c25.sca_series[f] - 1) < std::abs(c5.sca[f] / c5.sca_series[f] - 1));
        CHECK(std::abs(c25.abs[f] / c25.abs_series[f] - 1) < std::abs(c5.abs[f] / c5.abs_series[f] - 1));
    }
}

TEST_CASE("2D silver cylinder (Rakic silver, r = 40 nm) in TMz vs the cylinder series: the default averages the "
          "poles (Ez tangential), within 1 %, beats staircasing",
          "[subpixel_metal][mie2d][dispersive][physics][silver][slow]") {
    // The gold TMz case with Rakic's silver: Ez along the whole surface sees the fill
    // fraction of eps exactly, the error is the averaged medium's second-order one. Bounds as
    // for gold: 1 % for both cross-sections at 2.5 nm, a fifth of the 5 %, and the
    // staircase worse (study: 0.10 % / 0.26 % at 5 nm against 4.5 % / 2.0 % staircased).
    const Material ag = rakic_silver();
    const double a = 0.04, dx = 0.0025, ox = 0.37 * dx, oy = -0.21 * dx;
    const CylinderRun t = run_cylinder(ag, Polarization::TMz, dx, a, SubpixelMetal::Tangential, ox, oy);
    print_run("silver cylinder TMz default, 2.5 nm", t);
    const CylinderRun st = run_cylinder(ag, Polarization::TMz, dx, a, SubpixelMetal::Staircase, ox, oy);
    print_run("silver cylinder TMz staircase, 2.5 nm", st);
    CHECK(t.worst_sca < 0.01);
    CHECK(t.worst_abs < 0.01);
    CHECK(t.worst_sca < st.worst_sca);
}

TEST_CASE("subpixel_metal: a dispersive dielectric (Re eps > 0 over the band) keeps the fill fraction under every "
          "scheme, gold is a metal in the visible, a Lorentz dielectric is not",
          "[subpixel_metal][dispersive]") {
    // A Lorentz dielectric: eps(0) = 1 + 3 = 4, its resonance far above the band (the
    // shape of a fitted silicon or glass).
    Material lor;
    lor.id = "lorentz";
    lor.epsilon_inf = 1;
    Pole pl;
    pl.omega_0 = 2 * units::pi * units::c0 / 0.15e-6;
    pl.omega_p = std::sqrt(3.0) * pl.omega_0;
    pl.gamma = 0.01 * pl.omega_0;
    lor.poles = {pl};
    Project p = gold_edge_project(Polarization::TEz, SubpixelMetal::Tangential, true);
    auto re_eps_at = [](const Material& m, double wl_um) {
        return analytic_epsilon(m, 2 * units::pi * units::c0 / (wl_um * units::um)).real();
    };
    CHECK(re_eps_at(p.materials[1], 0.75) < 0);  // gold: a metal in the band 0.5 - 1.0 um
    CHECK(re_eps_at(lor, 0.5) > 0);
    CHECK(re_eps_at(lor, 1.0) > 0);
    p.materials[1] = lor;
    p.layers[0].material = lor.id;
    const Scene t = compile_project(p, "t").scene;
    p.run.subpixel_metal = SubpixelMetal::Staircase;
    const Scene st = compile_project(p, "s").scene;
    p.run.subpixel_metal = SubpixelMetal::Fraction;
    const Scene f = compile_project(p, "f").scene;
    for (int c = 0; c < 2; ++c) {
        CHECK(t.dispersive[c].weight == f.dispersive[c].weight);
        CHECK(st.dispersive[c].weight == f.dispersive[c].weight);
        CHECK(weights_of(f, c).partial > 20);
    }
}

TEST_CASE("subpixel_metal: \"conformal\" on a disc in TEz (oblique cut cells) is the tangential rule, on a "
          "straight edge it gives the cut cells their own poles",
          "[subpixel_metal][conformal_metal][dispersive]") {
    // conformal_metal.hpp realizes the diagonal entry of the averaged tensor; on an oblique
    // surface its off-diagonal part matters and is not carried, so a metal with any oblique
    // cut cell keeps the tangential rule (DispersionBuilder::classify).
    const Scene cd = compile_project(gold_edge_project(Polarization::TEz, SubpixelMetal::Conformal, true), "c").scene;
    const Scene td = compile_project(gold_edge_project(Polarization::TEz, SubpixelMetal::Tangential, true), "t").scene;
    for (int c = 0; c < 2; ++c) {
        CHECK(cd.dispersive[c].cells == td.dispersive[c].cells);
        CHECK(cd.dispersive[c].weight == td.dispersive[c].weight);
    }
    CHECK(cd.pole_sets.size() == td.pole_sets.size());
    const Scene ce = compile_project(gold_edge_project(Polarization::TEz, SubpixelMetal::Conformal, false), "c").scene;
    std::size_t generalized = 0;
    for (const PoleSet& ps : ce.pole_sets)
        for (const PoleCoeffs& q : ps.poles) generalized += !plain_pole(q);
    CHECK(generalized > 0);  // Ex, normal to the edge: the harmonic mean's poles
    CHECK(ce.pole_sets.size() > 2);
}

// The absorbed-power audit of issue 49: the absorption that the flux box measures (the net
// inward Poynting flux, 1/2 Re(E x conj H) over its sides) equals the Ohmic loss of the pole
// currents inside it, 1/2 omega eps0 sum over E sites of Im chi_cell(omega) |E(omega)|^2 dx^2
// (per unit length; chi_cell the susceptibility the cell's poles realize,
// cell_pole_susceptibility, and E the DFT field at the site): Poynting's theorem in the
// frequency domain. The discrete leapfrog holds it up to the time-centring of E against the
// pole current and of E against H, factors like cos(omega dt / 2), 1 - (omega dt)^2 / 8 =
// 1 - 2e-4 at 0.4 um here (no other loss: gold has no conductivity, eps_inf is real). The
// bound is 2e-3, ten times that and five times below the 1 %, so a wrong pole
// weight, a missing component or a cell left out fails it (measured: within 6e-5). Default
// scheme, TMz (Ez tangential: the poles weighted by the fill fraction) and TEz (Ex, Ey:
// staircased where normal), 5 nm cells, three wavelengths of the run's spectrum.
TEST_CASE("gold cylinder: the flux box's absorption equals the Ohmic loss of the pole currents within 0.2 % "
          "(TMz and TEz, default scheme)",
          "[subpixel_metal][dispersive][physics]") {
    const double a = 0.04, dx = 0.005;
    const std::vector<double> wl = {0.8, 0.5, 0.4};  // on the spectrum's grid (1/lambda = 1.25, 2, 2.5)
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        Project p = cylinder_project(bcalm_gold(), pol, dx, a, SubpixelMetal::Tangential, 0.37 * dx, -0.21 * dx);
        Monitor map;
        map.name = "map";
        map.type = MonitorType::DftField;
        map.min = p.monitors[1].min;  // the absorption box: the whole cylinder inside
        map.max = p.monitors[1].max;
        map.wavelengths = wl;
        map.components = electric_components(pol);
        p.monitors.push_back(map);
        const CompiledProject c = compile_project(p, "gold_cylinder.glproj");
        const RunResult r = run_project(p, "gold_cylinder.glproj");
        REQUIRE(r.stop_reason == StopReason::Decay);
        REQUIRE(r.dft_fields.size() == 1);
        const DftFieldResult& d = r.dft_fields[0];
        const CompiledMonitor* cm = nullptr;
        for (const CompiledMonitor& m : c.monitors)
            if (m.name == "map") cm = &m;
        REQUIRE(cm);
        REQUIRE(d.frequency_hz.size() == wl.size());
        for (std::size_t f = 0; f < wl.size(); ++f) {
            const double omega = 2 * units::pi * d.frequency_hz[f];
            double ohmic = 0;
            for (std::size_t k = 0; k < cm->dft_field_sets.size(); ++k) {
                const DftSet& set = c.scene.dft_sets[std::size_t(cm->dft_field_sets[k])];
                const std::size_t ns = set.cell0.size();
                REQUIRE(d.values[k].size() == ns * wl.size());
                for (std::size_t q = 0; q < ns; ++q) {
                    REQUIRE(set.cell1[q] < 0);  // E on its own node
                    const double chi_im =
                        cell_pole_susceptibility(c.scene, set.component, set.cell0[q], omega).imag();
                    if (chi_im == 0.0) continue;
                    ohmic += 0.5 * omega * units::eps0 * chi_im * std::norm(d.values[k][f * ns + q]) *
                             std::pow(dx * units::um, 2);
                }
            }
            // the flux spectrum's point at this frequency
            std::size_t at = 0;
            for (std::size_t g = 1; g < r.frequency_hz.size(); ++g)
                if (std::abs(r.frequency_hz[g] - d.frequency_hz[f]) < std::abs(r.frequency_hz[at] - d.frequency_hz[f]))
                    at = g;
            REQUIRE(std::abs(r.frequency_hz[at] / d.frequency_hz[f] - 1) < 1e-9);
            const double absorbed = -r.spectra[1].flux[at];  // net inward flux
            std::printf("%s, %.3f um: absorbed (flux box) %.6e, Ohmic loss %.6e W/m per (V/m s)^2, ratio %.5f\n",
                        pol == Polarization::TMz ? "TMz" : "TEz", wl[f], absorbed, ohmic, ohmic / absorbed);
            CHECK(absorbed > 0);
            CHECK(ohmic / absorbed == Approx(1.0).epsilon(2e-3));
        }
    }
}
