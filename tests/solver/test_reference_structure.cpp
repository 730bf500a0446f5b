// The normalization run's structure for mode sources (reference_structure.hpp): a bend drawn
// from scratch with a mode source and Normalize on, no reference layer named. The reference
// run used to take the background alone, where the mode source finds no guide ("no guided
// mode 0 at 1.55 um"); now the input waveguide under the source is derived and extended
// through the domain, as Lumerical and Meep users build it by hand.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"

#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "golightly/reference_structure.hpp"
#include "golightly/run.hpp"
#include "golightly/run_phases.hpp"

using namespace golightly;

namespace {

constexpr double kCell = 0.05;
constexpr double kW = 0.25, kYc = 1.2;  // the input arm: y in [1.075, 1.325]

// The quickstart's 90-degree bend (eps 12, width 0.25 um, radius 0.8 um) on a coarse grid,
// its mode source at x = 0.5 launching along +x, normalization on, no reference layer.
Project bend() {
    Project p;
    p.name = "bend";
    p.domain.dimensions = 2;
    p.domain.size = {4.0, 4.0, 0.0};
    p.domain.cell_size = kCell;
    p.domain.pml.cells = 10;
    Material core;
    core.id = "core";
    core.epsilon_inf = 12;
    p.materials = {core};
    Layer l;
    l.name = "waveguide";
    l.material = "core";
    Shape path;
    path.type = ShapeType::Path;
    path.points = {{-1.0, kYc}, {2.8, kYc}, {2.8, 5.0}};
    path.width = kW;
    path.bend_radius = 0.8;
    l.shapes.push_back(path);
    p.layers.push_back(l);
    Source s;
    s.name = "src";
    s.type = SourceType::Line;
    s.from = {0.5, 0.5};
    s.to = {0.5, 1.9};
    s.profile = SourceProfile::Mode;
    s.direction = "+x";
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.3;
    p.sources.push_back(s);
    Monitor in;
    in.name = "incident";
    in.type = MonitorType::Flux;
    in.from = {0.9, 0.5};
    in.to = {0.9, 1.9};
    in.direction = "+x";
    in.kind = "transmission";
    Monitor t = in;
    t.name = "T";
    t.from = {2.2, 3.3};
    t.to = {3.4, 3.3};
    t.direction = "+y";
    p.monitors = {in, t};
    p.run.spectrum.wavelength_min = 1.45;
    p.run.spectrum.wavelength_max = 1.65;
    p.run.spectrum.points = 5;
    p.run.stop.decay_db = 30;
    p.run.stop.max_time_fs = 600;
    p.run.normalization.enabled = true;
    p.run.normalization.incident_monitor = "incident";
    return p;
}

}  // namespace

TEST_CASE("Reference structure: the derived guide of a 2D bend's mode source covers the input arm along the whole axis",
          "[reference]") {
    const Project p = bend();
    SourceSection sec;
    REQUIRE(mode_source_section(p, 0, sec));
    CHECK(sec.axis == 0);
    CHECK(sec.position_um == 0.5);
    CHECK_FALSE(section_has_guide(p, sec, true));  // the background alone: what used to fail
    CHECK(section_has_guide(p, sec, false));

    const std::vector<Layer> layers = derive_reference_layers(p, 0);
    REQUIRE(layers.size() == 1);
    const Layer& l = layers[0];
    CHECK(l.name == "Reference: src guide");
    CHECK(l.material == "core");
    CHECK(l.reference_only);
    CHECK(l.visible);
    REQUIRE(l.shapes.size() == 1);
    const Shape& r = l.shapes[0];
    CHECK(r.type == ShapeType::Rectangle);
    // the full axis, PML included: x from below -10 cells to above 4 um + 10 cells
    const double pml = p.domain.pml.cells * kCell;
    CHECK(r.min.x <= -pml);
    CHECK(r.max.x >= p.domain.size[0] + pml);
    // the arm's edges from the boundary samples' exact (float) coverage fractions:
    // float rounding of a fraction of one 0.05 um sample, far below 1e-6 um
    CHECK(r.min.y == Approx(kYc - kW / 2).margin(1e-6));
    CHECK(r.max.y == Approx(kYc + kW / 2).margin(1e-6));

    // not a mode source: nothing to derive
    Project q = p;
    q.sources[0].profile = SourceProfile::Gaussian;
    CHECK(derive_reference_layers(q, 0).empty());
    CHECK_FALSE(mode_source_section(q, 0, sec));
}

TEST_CASE("Reference structure: completing it twice adds the derived guide once, reference-only layers come first",
          "[reference]") {
    Project p = bend();
    const ReferenceSetup a = complete_reference_structure(p);
    REQUIRE(a.added_layers == std::vector<std::string>{"Reference: src guide"});
    CHECK(a.reference_layers == std::vector<std::string>{"Reference: src guide"});
    CHECK(a.unguided_sources.empty());
    CHECK(p.layers.size() == 2);
    const ReferenceSetup b = complete_reference_structure(p);
    CHECK(b.added_layers.empty());
    CHECK(p.layers.size() == 2);
    CHECK(p.run.normalization.reference_layers.size() == 1);

    // a reference-only straight guide drawn by the user is named, nothing derived
    Project u = bend();
    Layer ref;
    ref.name = "straight";
    ref.material = "core";
    ref.reference_only = true;
    Shape rect;
    rect.type = ShapeType::Rectangle;
    rect.min = {-1.0, kYc - kW / 2};
    rect.max = {5.0, kYc + kW / 2};
    ref.shapes.push_back(rect);
    u.layers.push_back(ref);
    const ReferenceSetup c = complete_reference_structure(u);
    CHECK(c.added_layers.empty());
    CHECK(c.reference_layers == std::vector<std::string>{"straight"});

    // no guide under the source in the structure itself: nothing to derive from
    Project e = bend();
    e.sources[0].from = {3.5, 0.2};
    e.sources[0].to = {3.5, 0.9};
    const ReferenceSetup d = complete_reference_structure(e);
    CHECK(d.added_layers.empty());
    CHECK(d.unguided_sources == std::vector<std::string>{"src"});
}

TEST_CASE("Reference structure: named reference layers without a guide under the mode source are refused, saying so",
          "[reference]") {
    Project p = bend();
    Layer clad;
    clad.name = "cladding";
    clad.material = "core";
    clad.reference_only = true;
    Shape rect;
    rect.type = ShapeType::Rectangle;
    rect.min = {3.0, 3.0};
    rect.max = {3.5, 3.5};
    clad.shapes.push_back(rect);
    p.layers.push_back(clad);
    p.run.normalization.reference_layers = {"cladding"};
    try {
        compile_phases(p, "bend.glproj");
        FAIL("the reference run compiled without a guide under the mode source");
    } catch (const ProjectError& e) {
        CHECK(e.file() == "bend.glproj");
        CHECK(e.json_path() == "run.normalization.reference_layers");
        const std::string m = e.message();
        CHECK(m.find("reference (normalization) run") != std::string::npos);
        CHECK(m.find("mode source 'src' at x = 0.5 um") != std::string::npos);
        CHECK(m.find("'cladding'") != std::string::npos);
    }
}

TEST_CASE("Reference structure: a normalized run of a bend with no reference layer named succeeds, 0 < T <= 1",
          "[reference]") {
    const Project p = bend();
    RunOptions o;
    o.threads = 1;  // the grid is small: one thread, no barrier waits on a busy machine
    const RunResult r = run_project(p, "bend.glproj", o);
    REQUIRE(r.normalized);
    CHECK(r.incident_monitor == "incident");
    const bool noted = std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string& w) {
        return w.find("'Reference: src guide'") != std::string::npos;
    });
    CHECK(noted);
    const auto it = std::find_if(r.spectra.begin(), r.spectra.end(), [](const auto& s) { return s.name == "T"; });
    REQUIRE(it != r.spectra.end());
    REQUIRE(it->normalized.size() == 5);
    for (double t : it->normalized) {
        INFO("T = " << t);
        // a lossless bend: T <= 1 by the grid's energy conservation, up to what the 30 dB
        // decay stop leaves out of the DFTs (1e-3 of the energy, ~3e-2 of an amplitude)
        CHECK(t > 0.5);
        CHECK(t <= 1.0 + 3e-2);
    }
}

TEST_CASE("Reference structure: a 3D strip's mode plane gives the section extruded as boxes along the axis",
          "[reference]") {
    Project p;
    p.domain.dimensions = 3;
    p.domain.size = {2.0, 2.0, 1.0};
    p.domain.cell_size = 0.05;
    p.domain.pml.cells = 6;
    p.domain.background = "sio2";
    Material ox, si;
    ox.id = "sio2", ox.epsilon_inf = 2.085;
    si.id = "si", si.epsilon_inf = 12.1;
    p.materials = {ox, si};
    Layer l;
    l.name = "strip";
    l.material = "si";
    l.z = std::array<double, 2>{0.4, 0.6};
    Shape path;  // an L-shaped strip: the input arm along x at y in [0.75, 1.25]
    path.type = ShapeType::Polygon;
    path.points = {{-1, 0.75}, {1.25, 0.75}, {1.25, 3}, {0.75, 3}, {0.75, 1.25}, {-1, 1.25}};
    l.shapes.push_back(path);
    p.layers.push_back(l);
    Source s;
    s.name = "in";
    s.type = SourceType::Plane;
    s.profile = SourceProfile::Mode;
    s.center = {0.3, 1.0, 0.5};
    s.size = {0, 1.5, 0.8};
    s.direction = "+x";
    p.sources.push_back(s);
    const std::vector<Layer> layers = derive_reference_layers(p, 0);
    REQUIRE(layers.size() == 1);
    CHECK(layers[0].name == "Reference: in guide");
    CHECK(layers[0].material == "si");
    REQUIRE(layers[0].shapes.size() == 1);
    const Shape& b = layers[0].shapes[0];
    CHECK(b.type == ShapeType::Box);
    CHECK(b.box_min.x < -0.3);
    CHECK(b.box_max.x > 2.3);
    // faces to one cell: the section's samples on a 0.05 um grid from its corner
    CHECK(b.box_min.y == Approx(0.75).margin(0.05));
    CHECK(b.box_max.y == Approx(1.25).margin(0.05));
    CHECK(b.box_min.z == Approx(0.4).margin(0.05));
    CHECK(b.box_max.z == Approx(0.6).margin(0.05));
    SourceSection sec;
    REQUIRE(mode_source_section(p, 0, sec));
    Project q = p;
    q.layers.push_back(layers[0]);
    q.run.normalization.reference_layers = {layers[0].name};
    CHECK(section_has_guide(q, sec, true));
}

TEST_CASE("Reference structure: golightly-cli check derives the guide (a warning names it) or exits 2 naming the field",
          "[reference][cli]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("golightly_refstruct_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    Project p = bend();
    save_project(p, (dir / "bend.glproj").string());
    const test::CliOut ok = test::run_cli("check '" + (dir / "bend.glproj").string() + "'", dir);
    CHECK(ok.code == 0);
    CHECK((ok.out + ok.err).find("'Reference: src guide'") != std::string::npos);  // check prints its warnings on stdout

    Layer stray;
    stray.name = "stray";
    stray.material = "core";
    stray.reference_only = true;
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {3.0, 3.0};
    r.max = {3.5, 3.5};
    stray.shapes.push_back(r);
    p.layers.push_back(stray);
    p.run.normalization.reference_layers = {"stray"};
    save_project(p, (dir / "stray.glproj").string());
    const test::CliOut bad = test::run_cli("check '" + (dir / "stray.glproj").string() + "'", dir);
    CHECK(bad.code == 2);
    INFO(bad.err);
    CHECK(bad.err.find("stray.glproj: run.normalization.reference_layers: the reference (normalization) run has no "
                       "guide under mode source 'src' at x = 0.5 um") != std::string::npos);
    fs::remove_all(dir);
}
