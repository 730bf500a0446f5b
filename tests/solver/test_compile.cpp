// Tests of compile_project: grid, PML placement, dt, monitor sample layout, flux signs,
// error paths.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/units.hpp"
#include "project_builders.hpp"

using namespace golightly;
using golightly::test::flux_line;

namespace {

Project base_project(double lx, double ly, double cell, Polarization pol = Polarization::TMz) {
    Project p;
    p.name = "test";
    p.domain.size = {lx, ly, 0};
    p.domain.cell_size = cell;
    p.domain.polarization = pol;
    p.domain.pml.cells = 10;
    p.run.spectrum.wavelength_min = 1.4;
    p.run.spectrum.wavelength_max = 1.7;
    p.run.spectrum.points = 11;
    return p;
}

std::string error_path(const Project& p) {
    try {
        compile_project(p, "t.glproj");
    } catch (const ProjectError& e) {
        return e.json_path();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("compile: grid size, PML placement, time step", "[compile]") {
    Project p = base_project(2.0, 1.0, 0.02);
    p.domain.boundaries = {BoundaryKind::Pml, BoundaryKind::Periodic, BoundaryKind::Pml};
    p.run.courant = 0.6;
    p.run.stop.max_time_fs = 100;
    const CompiledProject cp = compile_project(p, "t.glproj");
    const Scene& s = cp.scene;
    CHECK(s.nx == 100 + 20);
    CHECK(s.ny == 50);
    CHECK(s.pml_lo[0] == 10);
    CHECK(s.pml_hi[0] == 10);
    CHECK(s.pml_lo[1] == 0);
    CHECK(s.pml_hi[1] == 0);
    CHECK(s.boundary[0] == BoundaryKind::Pml);
    CHECK(s.boundary[1] == BoundaryKind::Periodic);
    CHECK(s.dx_um == 0.02);
    CHECK(s.courant == 0.6);
    CHECK(s.dt_s == Approx(0.6 * 0.02e-6 / units::c0).epsilon(1e-12));
    CHECK(s.position_um(0, 10.0) == Approx(0.0).margin(1e-12));
    CHECK(s.position_um(0, 110.0) == Approx(2.0));
    CHECK(s.material_index[2].size() == s.cells());
    CHECK(s.cpml[0].b_e.size() == 120u);
    CHECK(cp.max_steps == static_cast<long long>(std::ceil(100e-15 / s.dt_s - 1e-9)));
    CHECK(cp.memory_bytes > 3 * s.cells() * 4);
    // Spectrum: increasing, uniform in frequency, ends at the two wavelengths.
    REQUIRE(cp.spectrum_hz.size() == 11);
    CHECK(cp.spectrum_hz.front() == Approx(units::wavelength_um_to_hz(1.7)));
    CHECK(cp.spectrum_hz.back() == Approx(units::wavelength_um_to_hz(1.4)));
    for (int k = 1; k < 11; ++k)
        CHECK(cp.spectrum_hz[k] - cp.spectrum_hz[k - 1] ==
              Approx((cp.spectrum_hz.back() - cp.spectrum_hz.front()) / 10));
    // A domain size that is not a multiple of the cell is rounded, with a warning.
    Project q = base_project(2.013, 1.0, 0.02);
    const CompiledProject cq = compile_project(q, "t.glproj");
    CHECK(cq.scene.nx == 101 + 20);
    REQUIRE_FALSE(cq.warnings.empty());
    // the grid's warning (the first one) names the axis, the size asked for, the cell and
    // what is simulated instead: round(2.013 / 0.02) = 101 cells = 2.02 um
    CHECK_THAT(cq.warnings.front(), Catch::Contains("domain size along x (2.013 um)") &&
                                        Catch::Contains("not a multiple of the cell size 0.02 um") &&
                                        Catch::Contains("using 101 cells (2.02 um)"));
}

TEST_CASE("compile: permittivity on the Yee positions, continued through the PML", "[compile]") {
    Project p = base_project(2.0, 2.0, 0.1);
    p.materials = {test::material("si", 12.0)};
    // a waveguide from the left edge to the right edge, y in [0.8, 1.2]
    p.layers = {test::layer("wg", "si", {test::rectangle({0.0, 0.8}, {2.0, 1.2})})};
    const CompiledProject cp = compile_project(p, "t.glproj");
    const Scene& s = cp.scene;
    auto eps = [&](int i, int j) { return s.table[s.material_index[2][std::size_t(j) * s.nx + i]].eps_r; };
    // Ez node j = 10 + 10 is y = 1.0 (core); j = 10 + 5 is y = 0.5 (air); PML columns too.
    for (int i : {0, 5, 10, 15, 29, 39}) {
        CHECK(eps(i, 20) == Approx(12.0));
        CHECK(eps(i, 15) == Approx(1.0));
    }
    // Interface at y = 0.8 = node 18: half covered (mean of eps, Ez parallel).
    CHECK(eps(15, 18) == Approx(6.5));
    CHECK(eps(0, 18) == Approx(6.5));
    CHECK(cp.material_area_um2.at("si") == Approx(0.8).epsilon(1e-6));
}

TEST_CASE("compile: flux monitor samples, co-located H, signs", "[compile]") {
    Project p = base_project(2.0, 1.0, 0.02);
    p.monitors = {flux_line("T", {1.0, 0.2}, {1.0, 0.8}, "+x"),
                  flux_line("B", {1.0, 0.2}, {1.0, 0.8}, "-x"),
                  flux_line("U", {0.5, 0.5}, {1.5, 0.5}, "+y")};
    const CompiledProject cp = compile_project(p, "t.glproj");
    const Scene& s = cp.scene;
    REQUIRE(cp.monitors.size() == 3);
    const CompiledMonitor& T = cp.monitors[0];
    REQUIRE(T.flux_terms.size() == 1);
    const FluxTerm& ft = T.flux_terms[0];
    const DftSet& e = s.dft_sets[ft.e_set];
    const DftSet& h = s.dft_sets[ft.h_set];
    CHECK(e.component == Component::Ez);
    CHECK(h.component == Component::Hy);
    CHECK(ft.sign == -1.0);  // Sx = -Ez Hy
    CHECK(ft.ds_um == 0.02);
    // Nodes y = 0.2 .. 0.8: j = 10 + 10 .. 10 + 40 (31 nodes), the end nodes half covered.
    REQUIRE(e.cell0.size() == 31u);
    const int i_line = 10 + 50;
    for (std::size_t k = 0; k < e.cell0.size(); ++k) {
        const int j = 20 + int(k);
        CHECK(e.cell0[k] == j * s.nx + i_line);
        CHECK(h.cell0[k] == j * s.nx + i_line - 1);  // Hy at x - dx/2
        CHECK(h.cell1[k] == j * s.nx + i_line);      // Hy at x + dx/2
        CHECK(h.w0[k] == 0.5);
        CHECK(h.w1[k] == 0.5);
        CHECK(e.w0[k] == Approx((k == 0 || k == 30) ? 0.5 : 1.0));
    }
    CHECK(e.frequencies_hz == cp.spectrum_hz);
    // The -x monitor: same samples, opposite sign.
    const FluxTerm& fb = cp.monitors[1].flux_terms[0];
    CHECK(fb.sign == 1.0);
    CHECK(s.dft_sets[fb.e_set].cell0 == e.cell0);
    // +y line: Ez and Hx (Sy = Ez Hx), Hx averaged from rows j-1 and j.
    const FluxTerm& fu = cp.monitors[2].flux_terms[0];
    CHECK(fu.sign == 1.0);
    CHECK(s.dft_sets[fu.h_set].component == Component::Hx);
    CHECK(s.dft_sets[fu.h_set].cell0[0] == (25 + 10 - 1) * s.nx + 25 + 10);
    CHECK(s.dft_sets[fu.h_set].cell1[0] == (25 + 10) * s.nx + 25 + 10);

    // TEz: Sx = Ey Hz (+), Sy = -Ex Hz (-).
    Project q = base_project(2.0, 1.0, 0.02, Polarization::TEz);
    q.monitors = {flux_line("T", {1.0, 0.2}, {1.0, 0.8}, "+x"), flux_line("U", {0.5, 0.5}, {1.5, 0.5}, "+y")};
    const CompiledProject cq = compile_project(q, "t.glproj");
    CHECK(cq.monitors[0].flux_terms[0].sign == 1.0);
    CHECK(cq.scene.dft_sets[cq.monitors[0].flux_terms[0].e_set].component == Component::Ey);
    CHECK(cq.scene.dft_sets[cq.monitors[0].flux_terms[0].h_set].component == Component::Hz);
    CHECK(cq.monitors[1].flux_terms[0].sign == -1.0);
    CHECK(cq.scene.dft_sets[cq.monitors[1].flux_terms[0].e_set].component == Component::Ex);
}

TEST_CASE("compile: flux_box, time and dft_field monitors", "[compile]") {
    Project p = base_project(2.0, 1.0, 0.02);
    Monitor box;
    box.name = "box";
    box.type = MonitorType::FluxBox;
    box.min = Vec2{0.5, 0.3};
    box.max = Vec2{1.5, 0.7};
    Monitor t;
    t.name = "t";
    t.type = MonitorType::Time;
    t.at = Vec2{1.0, 0.5};
    t.component = Component::Hy;
    Monitor f;
    f.name = "f";
    f.type = MonitorType::DftField;
    f.wavelengths = {1.55};
    p.monitors = {box, t, f};
    const CompiledProject cp = compile_project(p, "t.glproj");
    const Scene& s = cp.scene;
    REQUIRE(cp.monitors[0].flux_terms.size() == 4);
    CHECK(cp.monitors[0].flux_terms[0].sign == 1.0);   // left edge, outward -x: +Ez Hy
    CHECK(cp.monitors[0].flux_terms[1].sign == -1.0);  // right edge, +x
    CHECK(cp.monitors[0].flux_terms[2].sign == -1.0);  // bottom, -y: -Ez Hx
    CHECK(cp.monitors[0].flux_terms[3].sign == 1.0);   // top, +y
    const TimeProbe& tp = s.time_probes.at(cp.monitors[1].time_probe);
    CHECK(tp.component == Component::Hy);
    // Hy at (i + 1/2, j): x = 1.0 -> i + 0.5 = 60 -> nearest i = 60 (round half away) or 59.
    REQUIRE(tp.cells.size() == 1u);
    const int i = tp.cells[0] % s.nx, j = tp.cells[0] / s.nx;
    CHECK(j == 35);
    CHECK(std::abs(s.position_um(0, i + 0.5) - 1.0) <= 0.0100001);
    const CompiledMonitor& fm = cp.monitors[2];
    CHECK(fm.region_nx == 100);
    CHECK(fm.region_ny == 50);
    REQUIRE(fm.dft_field_sets.size() == 1u);
    const DftSet& d = s.dft_sets[fm.dft_field_sets[0]];
    CHECK(d.component == Component::Ez);
    CHECK(d.cell0.size() == 5000u);
    CHECK(d.cell0[0] == 10 * s.nx + 10);
    CHECK(d.cell0[101] == 11 * s.nx + 11);
    CHECK(d.frequencies_hz[0] == Approx(units::wavelength_um_to_hz(1.55)));
}

TEST_CASE("compile: errors name the JSON path", "[compile]") {
    Project p = base_project(2.0, 1.0, 0.02);
    Material au;
    au.id = "au";
    au.poles = {Pole{PoleKind::Drude, 1.2e16, 0, 8e13}};
    p.materials = {au};
    p.domain.background = "au";
    CHECK(error_path(p) == "(no error)");  // dispersive materials compile (test_dispersive.cpp)
    p.domain.background = "air";
    CHECK(error_path(p) == "(no error)");

    Project q = base_project(2.0, 1.0, 0.02);
    q.monitors = {flux_line("T", {3.0, 0.2}, {3.0, 0.8}, "+x")};
    CHECK(error_path(q) == "monitors[0].from");
    q.monitors = {flux_line("T", {0.5, 0.2}, {1.0, 0.8}, "+x")};
    CHECK(error_path(q) == "monitors[0].to");  // oblique
    q.monitors = {flux_line("T", {0.5, 0.2}, {0.5, 0.8}, "+y")};
    CHECK(error_path(q) == "monitors[0].direction");

    Project r = base_project(2.0, 1.0, 0.02);
    Source src;
    src.name = "in";
    src.type = SourceType::Line;
    src.from = {0.5, 0.1};
    src.to = {0.5, 0.9};
    src.profile = SourceProfile::Mode;
    src.direction = "+x";
    r.sources = {src};
    CHECK(error_path(r) == "sources[0].mode_index");  // vacuum: no guided mode
    r.sources[0].to = {0.7, 0.9};
    CHECK(error_path(r) == "sources[0].to");  // oblique mode line
    r.sources[0].type = SourceType::Point;
    r.sources[0].at = {-1.0, 0.5};
    CHECK(error_path(r) == "sources[0].at");
}

TEST_CASE("compile: point and line source weights do not depend on the resolution", "[compile]") {
    for (double dx : {0.02, 0.01}) {
        Project p = base_project(2.0, 1.0, dx);
        Source line;
        line.type = SourceType::Line;
        line.from = {1.0, 0.0};
        line.to = {1.0, 1.0};
        Source point;
        point.type = SourceType::Point;
        point.at = {1.0, 0.5};
        p.sources = {line, point};
        const CompiledProject cp = compile_project(p, "t.glproj");
        const Scene& s = cp.scene;
        REQUIRE(s.sources.size() == 2u);
        const double cb = s.table[0].cb;
        CHECK(cb == Approx(0.5));
        // line: 2 cb per node; point: 2 cb (1 um / dx)
        CHECK(s.sources[0].weights[10] == Approx(2 * cb));
        CHECK(s.sources[1].weights[0] == Approx(2 * cb / dx));
        CHECK(s.sources[0].waveform.omega == Approx(2 * units::pi * units::wavelength_um_to_hz(1.55)));
    }
}

TEST_CASE("compile: +x and -x flux monitors at one place give opposite spectra", "[compile][physics]") {
    Project p = base_project(2.0, 1.0, 0.025);
    Source src;
    src.type = SourceType::Point;
    src.at = {0.6, 0.5};
    p.sources = {src};
    p.monitors = {flux_line("A", {1.2, 0.2}, {1.2, 0.8}, "+x"), flux_line("B", {1.2, 0.2}, {1.2, 0.8}, "-x")};
    const CompiledProject cp = compile_project(p, "t.glproj");
    auto eng = make_cpu_engine(cp.scene, Precision::Float64, 1);
    eng->step(static_cast<int>(cp.sources_end_s / cp.scene.dt_s) + 400);
    const std::size_t nf = cp.spectrum_hz.size();
    auto flux = [&](const CompiledMonitor& m) {
        std::vector<double> out(nf, 0.0);
        for (const FluxTerm& t : m.flux_terms) {
            const auto E = eng->dft(t.e_set), H = eng->dft(t.h_set);
            for (std::size_t k = 0; k < E.size() / nf; ++k)
                for (std::size_t f = 0; f < nf; ++f)
                    out[f] += t.sign * 0.5 / units::eta0 * std::real(E[k * nf + f] * std::conj(H[k * nf + f])) *
                              t.ds_um * 1e-6;
        }
        return out;
    };
    const auto a = flux(cp.monitors[0]), b = flux(cp.monitors[1]);
    for (std::size_t f = 0; f < nf; ++f) {
        CHECK(a[f] > 0);  // the source is on the -x side: power flows +x
        CHECK(b[f] == Approx(-a[f]).epsilon(1e-12));
    }
}

TEST_CASE("compile: warnings for coarse cells and sources in the PML, one-way line direction", "[compile]") {
    Project p = base_project(2.0, 1.0, 0.05);
    p.materials = {test::material("si", 12.0)};
    p.layers = {test::layer("si", "si", {test::rectangle({0.5, 0.4}, {1.5, 0.6})})};
    Source s;
    s.type = SourceType::Point;
    s.at = {-0.1, 0.5};  // in the left PML (10 cells of 0.05 um)
    p.sources = {s};
    const CompiledProject cp = compile_project(p, "t.glproj");
    bool coarse = false, pml = false;
    for (const std::string& w : cp.warnings) {
        coarse |= w.find("cells per wavelength") != std::string::npos;
        pml |= w.find("inside the PML") != std::string::npos;
    }
    CHECK(coarse);  // 1.4 um / 3.46 / 0.05 um = 8 cells per wavelength
    CHECK(pml);

    // A uniform line with a `direction` along the line is rejected; normal to it is one-way
    // (an E term and an H term), without it two-way (E only).
    Project q = base_project(2.0, 1.0, 0.02);
    Source line;
    line.type = SourceType::Line;
    line.from = {1.0, 0.2};
    line.to = {1.0, 0.8};
    q.sources = {line};
    CHECK(compile_project(q, "t.glproj").scene.sources.size() == 1u);
    q.sources[0].extra["direction"] = "-x";
    const CompiledProject c2 = compile_project(q, "t.glproj");
    REQUIRE(c2.scene.sources.size() == 2u);
    CHECK(c2.scene.sources[0].component == Component::Ez);
    CHECK(c2.scene.sources[1].component == Component::Hy);
    CHECK(c2.scene.sources[1].delay_s > 0);
    q.sources[0].extra["direction"] = "+y";
    CHECK(error_path(q) == "sources[0].direction");
}
