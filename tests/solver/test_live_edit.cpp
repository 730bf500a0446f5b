// Live edit (issue 5; engine.hpp Engine::update_materials, run.hpp poll_material_update):
// an engine whose materials are replaced mid-run steps exactly like an engine built with
// the edited scene and fed the same fields; refused updates throw and leave the engine
// as it was; the run driver applies edits to the main run only and counts them.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <stdexcept>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "test_scenes.hpp"

using namespace golightly;

namespace {

Project quickstart() {
    return load_project(std::filesystem::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "quickstart.glproj");
}

/// The quickstart with a lossy eps = 12 block next to the bend (what a user paints).
Project edited_quickstart(double sigma_s_per_m = 0) {
    Project p = quickstart();
    Material m;
    m.id = "painted";
    m.name = "painted";
    m.epsilon_inf = 12.0;
    m.conductivity = sigma_s_per_m;
    p.materials.push_back(m);
    Layer l;
    l.name = "painted";
    l.material = "painted";
    Shape s;
    s.type = ShapeType::Rectangle;
    s.min = {1.2, 0.4};
    s.max = {1.9, 2.0};
    l.shapes.push_back(s);
    p.layers.push_back(l);
    return p;
}

/// A periodic grid (no PML, no psi) with materials from a per-cell eps / sigma function.
template <class F>
Scene periodic_scene(Polarization pol, F eps_sigma) {
    // the shared builder (tests/common/test_scenes.hpp) with eps / sigma from eps_sigma(i, j)
    test::SceneSpec spec;
    spec.polarization = pol;
    spec.nx = 48;
    spec.ny = 40;
    spec.dx_um = 0.04;
    spec.courant = 0.5;
    spec.boundary_x = spec.boundary_y = BoundaryKind::Periodic;
    spec.eps_r = [&](Component, int i, int j) { return eps_sigma(i, j).first; };
    spec.sigma_s_per_m = [&](Component, int i, int j) { return eps_sigma(i, j).second; };
    return test::make_scene(spec);
}

std::vector<Component> components(Polarization pol) {
    auto c = electric_components(pol);
    for (Component h : magnetic_components(pol)) c.push_back(h);
    return c;
}

void randomize(Engine& e, Polarization pol, unsigned seed, std::size_t n = 48 * 40) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    for (Component c : components(pol)) {
        std::vector<double> v(n);
        for (double& x : v) x = u(rng);
        e.set_field(c, v);
    }
}

void copy_fields(Engine& from, Engine& to, Polarization pol) {
    std::vector<double> v;
    for (Component c : components(pol)) {
        from.get_field(c, v);
        to.set_field(c, v);
    }
}

void require_equal_fields(Engine& a, Engine& b, Polarization pol) {
    std::vector<double> va, vb;
    for (Component c : components(pol)) {
        a.get_field(c, va);
        b.get_field(c, vb);
        REQUIRE(va.size() == vb.size());
        std::size_t diff = 0;
        for (std::size_t k = 0; k < va.size(); ++k) diff += va[k] != vb[k];
        INFO("component " << to_string(c));
        CHECK(diff == 0);
    }
}

}  // namespace

TEST_CASE("live edit: an engine updated mid-run equals one started with the edited materials",
          "[live_edit][engine]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        for (Precision prec : {Precision::Float64, Precision::Float32}) {
            INFO(to_string(pol) << " " << to_string(prec));
            // A: lossless eps = 4 block; B: the block moved and a lossy eps = 2 block (ca != 1
            // appears only after the edit).
            const Scene a = periodic_scene(pol, [](int i, int j) {
                return std::pair<double, double>{(i >= 10 && i < 20 && j >= 8 && j < 30) ? 4.0 : 1.0, 0.0};
            });
            const Scene b = periodic_scene(pol, [](int i, int j) {
                if (i >= 24 && i < 34 && j >= 8 && j < 30) return std::pair<double, double>{4.0, 0.0};
                if (i >= 5 && i < 12 && j >= 2 && j < 12) return std::pair<double, double>{2.0, 2.0e4};
                return std::pair<double, double>{1.0, 0.0};
            });
            REQUIRE(!same_materials(a, b));
            auto edited = make_cpu_engine(a, prec, 1);
            randomize(*edited, pol, 7);
            edited->step(40);
            auto fresh = make_cpu_engine(b, prec, 1);
            copy_fields(*edited, *fresh, pol);
            edited->update_materials(b);
            CHECK(edited->steps_done() == 40);  // the step count stays
            edited->step(60);
            fresh->step(60);
            require_equal_fields(*edited, *fresh, pol);
            CHECK(edited->field_energy() == fresh->field_energy());  // the energy's eps follows

            // and the edit changes the field (a check that can fail)
            auto unedited = make_cpu_engine(a, prec, 1);
            randomize(*unedited, pol, 7);
            unedited->step(100);
            std::vector<double> x, y;
            edited->get_field(electric_components(pol)[0], x);
            unedited->get_field(electric_components(pol)[0], y);
            double d = 0;
            for (std::size_t k = 0; k < x.size(); ++k) d = std::max(d, std::abs(x[k] - y[k]));
            CHECK(d > 1e-3);
        }
    }
}

TEST_CASE("live edit: compiled quickstart with PML and sources, edit at step 0 equals the edited run",
          "[live_edit][engine]") {
    const CompiledProject a = compile_project(quickstart(), "quickstart");
    const CompiledProject b = compile_project(edited_quickstart(5e4), "edited");
    REQUIRE(!same_materials(a.scene, b.scene));
    REQUIRE_NOTHROW(check_material_update(a.scene, b.scene));
    auto edited = make_cpu_engine(a.scene, Precision::Float64, 1);
    auto fresh = make_cpu_engine(b.scene, Precision::Float64, 1);
    edited->update_materials(b.scene);
    edited->step(300);
    fresh->step(300);
    require_equal_fields(*edited, *fresh, Polarization::TMz);
    for (std::size_t s = 0; s < a.scene.dft_sets.size(); ++s) CHECK(edited->dft(int(s)) == fresh->dft(int(s)));
}

// TEz with sub-pixel averaging: the tensor couplings (scene.hpp "Anisotropic cells") sit
// on the interfaces, so moving a shape must move them too. Periodic box without sources
// or PML, so that an engine built from the edited scene and given the same fields has the
// whole state of the edited one.
TEST_CASE("live edit: TEz tensor couplings follow a moved shape", "[live_edit][engine][subpixel]") {
    auto disc_project = [](Vec2 centre) {
        Project p;
        p.name = "disc";
        p.domain.dimensions = 2;
        p.domain.size = {2.0, 2.0, 0.0};
        p.domain.cell_size = 0.05;
        p.domain.polarization = Polarization::TEz;
        p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Periodic, BoundaryKind::Periodic};
        Material m;
        m.id = "disc";
        m.epsilon_inf = 6.0;
        p.materials.push_back(m);
        Layer l;
        l.name = "disc";
        l.material = "disc";
        Shape s;
        s.type = ShapeType::Ellipse;
        s.center = centre;
        s.radii = {0.33, 0.33};
        l.shapes.push_back(s);
        p.layers.push_back(l);
        p.run.courant = 0.5;
        p.run.precision = Precision::Float64;
        return p;
    };
    const CompiledProject a = compile_project(disc_project({0.83, 0.91}), "a");
    const CompiledProject b = compile_project(disc_project({1.21, 1.07}), "b");
    REQUIRE(!a.scene.anisotropic.empty());
    REQUIRE(!same_anisotropic(a.scene.anisotropic, b.scene.anisotropic));
    REQUIRE(!same_materials(a.scene, b.scene));
    auto edited = make_cpu_engine(a.scene, Precision::Float64, 1);
    randomize(*edited, Polarization::TEz, 11, a.scene.cells());
    edited->step(40);
    auto fresh = make_cpu_engine(b.scene, Precision::Float64, 1);
    copy_fields(*edited, *fresh, Polarization::TEz);
    edited->update_materials(b.scene);
    edited->step(80);
    fresh->step(80);
    require_equal_fields(*edited, *fresh, Polarization::TEz);
    // without the coupling update the result differs (a check that can fail): the same
    // table and maps as b but a's couplings
    Scene mixed = b.scene;
    mixed.anisotropic = a.scene.anisotropic;
    auto wrong = make_cpu_engine(mixed, Precision::Float64, 1);
    auto start = make_cpu_engine(a.scene, Precision::Float64, 1);
    randomize(*start, Polarization::TEz, 11, a.scene.cells());
    start->step(40);
    copy_fields(*start, *wrong, Polarization::TEz);
    wrong->step(80);
    std::vector<double> x, y;
    edited->get_field(Component::Ex, x);
    wrong->get_field(Component::Ex, y);
    double d = 0;
    for (std::size_t k = 0; k < x.size(); ++k) d = std::max(d, std::abs(x[k] - y[k]));
    CHECK(d > 1e-9);
}

TEST_CASE("live edit: refused updates throw and leave the engine as it was", "[live_edit][engine]") {
    const Scene a = periodic_scene(Polarization::TMz, [](int i, int) {
        return std::pair<double, double>{i < 20 ? 2.0 : 1.0, 0.0};
    });
    auto engine = make_cpu_engine(a, Precision::Float64, 1);
    auto reference = make_cpu_engine(a, Precision::Float64, 1);
    randomize(*engine, Polarization::TMz, 3);
    randomize(*reference, Polarization::TMz, 3);

    Scene grid = a;  // another cell size: a new grid
    grid.dx_um = 0.05;
    try {
        engine->update_materials(grid);
        FAIL("a changed grid was accepted");
    } catch (const std::invalid_argument& e) {
        CHECK_THAT(e.what(), Catch::Contains("grid") && Catch::Contains("restart the run"));
    }
    Scene pml = a;
    pml.pml_lo[0] = 4;
    CHECK_THROWS_AS(engine->update_materials(pml), std::invalid_argument);
    Scene pol = periodic_scene(Polarization::TEz, [](int, int) { return std::pair<double, double>{1.0, 0.0}; });
    CHECK_THROWS_AS(engine->update_materials(pol), std::invalid_argument);

    Scene disp = a;  // a new dispersive cell
    disp.pole_sets.push_back(PoleSet{{PoleCoeffs{1.9, -0.95, 0.01}}});
    disp.dispersive[2].cells = {5};
    disp.dispersive[2].pole_set = {0};
    disp.dispersive[2].weight = {1.0};
    try {
        engine->update_materials(disp);
        FAIL("a new dispersive cell was accepted");
    } catch (const std::invalid_argument& e) {
        CHECK_THAT(e.what(), Catch::Contains("dispersive"));
    }
    Scene bad_index = a;
    bad_index.material_index[2][10] = std::uint16_t(bad_index.table.size());
    CHECK_THROWS_AS(engine->update_materials(bad_index), std::invalid_argument);
    Scene short_map = a;
    short_map.material_index[2].pop_back();
    CHECK_THROWS_AS(engine->update_materials(short_map), std::invalid_argument);

    engine->step(50);
    reference->step(50);
    require_equal_fields(*engine, *reference, Polarization::TMz);
}

TEST_CASE("live edit: the run driver applies edits to the main run only and counts them", "[live_edit][driver]") {
    Project p = quickstart();
    p.run.stop.max_time_fs = 60;  // a short run: 900 steps per phase
    p.run.stop.decay_db = 400;
    const CompiledProject main = compile_project(p, "quickstart");
    CompileOptions ro;
    ro.reference_run = true;
    const CompiledProject ref = compile_project(p, "quickstart", ro);
    Project e = edited_quickstart();
    e.run = p.run;
    auto edited = std::make_shared<const Scene>(compile_project(e, "edited").scene);
    Project g = p;
    g.domain.cell_size = 0.05;  // a new grid: refused
    auto regrid = std::make_shared<const Scene>(compile_project(g, "regrid").scene);

    std::string phase;
    EngineFactory factory = [&](const Scene& s, const std::string& ph) {
        phase = ph;
        return make_cpu_engine(s, Precision::Float32, 1);
    };
    std::vector<std::string> poll_phases;
    std::vector<MaterialUpdateOutcome> outcomes;
    RunOptions o;
    int polls = 0;
    o.poll_material_update = [&]() -> std::shared_ptr<const Scene> {
        poll_phases.push_back(phase);
        ++polls;
        if (polls == 3) return regrid;
        if (polls == 4) return edited;
        if (polls == 6) return edited;  // the same materials again: applied, not counted
        return nullptr;
    };
    o.material_update_done = [&](const MaterialUpdateOutcome& m) { outcomes.push_back(m); };
    const RunResult r = run_compiled(p, main, &ref, o, factory);
    REQUIRE(r.normalized);
    for (const auto& ph : poll_phases) CHECK(ph == "main");
    CHECK(polls >= int(r.steps / 50));
    REQUIRE(outcomes.size() == 3);
    CHECK(!outcomes[0].applied);
    CHECK_THAT(outcomes[0].message, Catch::Contains("restart the run"));
    CHECK(outcomes[1].applied);
    CHECK(outcomes[1].changed);
    CHECK(outcomes[1].step > 0);
    CHECK(outcomes[2].applied);
    CHECK(!outcomes[2].changed);
    CHECK(r.live_edits == 1);
    bool warned = false, refused = false;
    for (const auto& w : r.warnings) {
        warned |= w.find("not comparable") != std::string::npos;
        refused |= w.find("was not applied") != std::string::npos;
    }
    CHECK(warned);
    CHECK(refused);

    // the edit changes the spectra (a check that can fail); without a poll nothing changes
    RunOptions plain;
    const RunResult r0 = run_compiled(p, main, &ref, plain, factory);
    CHECK(r0.live_edits == 0);
    double d = 0;
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f)
        d = std::max(d, std::abs(r.spectra[1].flux[f] - r0.spectra[1].flux[f]));
    CHECK(d > 0);
}
