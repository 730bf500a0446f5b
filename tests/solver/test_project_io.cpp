// Tests of the `.glproj` reader/writer and validator (spec/project-format.md).
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "golightly/errors.hpp"
#include "golightly/project.hpp"

namespace fs = std::filesystem;
using namespace golightly;

namespace {

const fs::path kSourceDir = GOLIGHTLY_SOURCE_DIR;

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in.good());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
    REQUIRE(out.good());
}

/// A fresh folder under the system temp folder, removed at the end of the scope.
struct TempDir {
    fs::path path;
    TempDir() {
        static std::atomic<int> counter{0};
        path = fs::temp_directory_path() /
               ("golightly_project_io_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path, ec);
    }
};

/// A small valid project touching most object kinds (TMz).
Json base_doc() {
    return Json::parse(R"({
      "format": "golightly-project", "version": 1, "name": "test",
      "domain": {"size": [4.0, 3.0, 0.0], "cell_size": 0.05},
      "materials": [
        {"id": "si", "epsilon_inf": 12.0},
        {"id": "au", "epsilon_inf": 1.0,
         "poles": [{"kind": "drude", "omega_p": 1.1959e16, "gamma": 8.05e13},
                   {"kind": "lorentz", "omega_p": 0.2125e16, "omega_0": 0.0630e16, "gamma": 0.3661e15}]}
      ],
      "layers": [
        {"name": "wg", "material": "si", "shapes": [
          {"type": "rectangle", "min": [0.0, 1.0], "max": [4.0, 1.3]},
          {"type": "ellipse", "center": [2.0, 2.0], "radii": [0.3, 0.2]},
          {"type": "ring", "center": [2.0, 2.0], "inner_radius": 0.5, "outer_radius": 0.7},
          {"type": "path", "points": [[0.0, 0.5], [2.0, 0.5], [2.0, 2.5]], "width": 0.2, "bend_radius": 0.5},
          {"type": "polygon", "points": [[0.0, 0.0], [1.0, 0.0], [0.5, 0.5]]},
          {"type": "raster", "origin": [0.0, 0.0], "pixel_size": 0.1, "width": 2, "height": 2, "png": "iVBORw0KGgo="},
          {"type": "step", "file_name": "part.step", "data": "SVNPLTEwMzAzLTIx", "scale": 1000.0,
           "rotate_deg": [90.0, 0.0, 0.0], "translate": [1.0, 2.0, 0.0]}
        ]},
        {"name": "ref", "material": "au", "reference_only": true, "z": [0.0, 0.22],
         "shapes": [{"type": "rectangle", "min": [0.0, 1.0], "max": [4.0, 1.3]}]}
      ],
      "sources": [
        {"name": "in", "type": "line", "from": [0.5, 0.5], "to": [0.5, 1.8], "profile": "mode",
         "mode_index": 0, "direction": "+x",
         "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.4}},
        {"name": "p", "type": "point", "at": [1.0, 1.0], "waveform": {"type": "cw", "wavelength": 1.3}},
        {"name": "painted", "type": "region", "component": "Hx",
         "shape": {"type": "ellipse", "center": [2.0, 2.0], "radii": [0.2, 0.1], "rotation_deg": 30.0}},
        {"name": "beam", "type": "line", "from": [0.2, 0.5], "to": [0.2, 2.5], "profile": "gaussian", "waist": 0.4}
      ],
      "monitors": [
        {"name": "T", "type": "flux", "from": [3.5, 0.5], "to": [3.5, 1.8], "direction": "+x", "kind": "transmission"},
        {"name": "R", "type": "flux", "from": [0.3, 0.5], "to": [0.3, 1.8], "direction": "-x", "kind": "reflection"},
        {"name": "probe", "type": "time", "at": [2.0, 1.1]},
        {"name": "box", "type": "flux_box", "min": [1.0, 1.0], "max": [2.0, 2.0], "kind": "absorption"},
        {"name": "maps", "type": "dft_field", "wavelengths": [1.55], "components": ["Ez", "Hx"]},
        {"name": "area", "type": "time", "shape": {"type": "rectangle", "min": [1.0, 1.0], "max": [1.5, 1.5]},
         "reduce": "sum_squares"},
        {"name": "window", "type": "dft_field", "wavelengths": [1.3, 1.55], "min": [0.5, 0.5], "max": [3.0, 2.5]}
      ],
      "run": {"normalization": {"enabled": true, "reference_layers": ["ref"], "incident_monitor": "R"},
              "stop": {"monitor": "probe"}}
    })");
}

/// The ProjectError parse_project throws for `doc` (fails the test if none is thrown).
ProjectError error_of(const std::string& text) {
    try {
        parse_project(text, "case.glproj");
    } catch (const ProjectError& e) {
        return e;
    }
    FAIL("no ProjectError thrown for:\n" << text);
    throw std::logic_error("unreachable");
}

ProjectError error_of_doc(const Json& doc) { return error_of(doc.dump(2)); }

std::string dumped(const Project& p) { return project_to_json(p).dump(2) + "\n"; }

}  // namespace

TEST_CASE("Example projects load, save and reload identically", "[project]") {
    const std::vector<std::string> names = {"quickstart", "fresnel_slab", "waveguide_bend", "ring_resonator",
                                            "gold_grating", "grating_20deg_2d"};
    TempDir tmp;
    for (const auto& name : names) {
        INFO(name);
        const fs::path src = kSourceDir / "examples" / (name + ".glproj");
        const Project p = load_project(src);
        CHECK_FALSE(p.name.empty());
        CHECK(p.domain.dimensions == 2);
        CHECK(p.run.backend == BackendChoice::Auto);
        CHECK(p.run.precision == Precision::Float32);
        CHECK(p.run.normalization.enabled);
        CHECK_FALSE(p.sources.empty());
        CHECK_FALSE(p.monitors.empty());
        for (const auto& m : p.materials) {
            CHECK_FALSE(m.name.empty());
            CHECK(m.color.size() == 7);
        }
        CHECK_NOTHROW(check_runnable(p, src.string()));
        // The file is exactly what save_project writes.
        CHECK(dumped(p) == read_text(src));

        const fs::path out = tmp.path / (name + ".glproj");
        save_project(p, out);
        const std::string first = read_text(out);
        CHECK(first == read_text(src));
        const Project q = load_project(out);
        CHECK(q == p);
        save_project(q, out);
        CHECK(read_text(out) == first);
    }
}

TEST_CASE("Example projects have the geometry their description promises", "[project]") {
    const Project fresnel = load_project(kSourceDir / "examples" / "fresnel_slab.glproj");
    CHECK(fresnel.domain.boundaries[1] == BoundaryKind::Periodic);
    CHECK(std::lround(fresnel.domain.size[0] / fresnel.domain.cell_size) == 800);
    CHECK(std::lround(fresnel.domain.size[1] / fresnel.domain.cell_size) == 40);
    REQUIRE(fresnel.find_material(fresnel.layers.at(0).material));
    CHECK(fresnel.find_material(fresnel.layers.at(0).material)->epsilon_inf == 9.0);
    // The plane-wave source spans the periodic axis from boundary to boundary.
    CHECK(fresnel.sources.at(0).from.y == 0.0);
    CHECK(fresnel.sources.at(0).to.y == fresnel.domain.size[1]);

    const Project ring = load_project(kSourceDir / "examples" / "ring_resonator.glproj");
    const Shape& bus = ring.layers.at(0).shapes.at(0);
    const Shape& r = ring.layers.at(1).shapes.at(0);
    REQUIRE(r.type == ShapeType::Ring);
    CHECK(r.center.y - r.outer_radius - bus.max.y == Approx(0.15));  // the coupling gap
    CHECK(r.outer_radius - r.inner_radius == Approx(0.4));
    CHECK(ring.run.normalization.reference_layers == std::vector<std::string>{"bus"});
}

TEST_CASE("Absent optional fields get the spec's defaults", "[project]") {
    const Project p = parse_project(R"({"format": "golightly-project", "version": 1,
        "domain": {"size": [2, 1], "cell_size": 0.05},
        "sources": [{"type": "line", "from": [0.5, 0], "to": [0.5, 1]}],
        "monitors": [{"name": "m", "type": "time", "at": [1, 0.5]},
                     {"name": "f", "type": "flux", "from": [1.5, 0], "to": [1.5, 1]}]})",
                                    "defaults.glproj");
    CHECK(p.name.empty());
    CHECK(p.domain.dimensions == 2);
    CHECK(p.domain.size == std::array<double, 3>{2, 1, 0});
    CHECK(p.domain.polarization == Polarization::TMz);
    CHECK(p.domain.slice_z == 0.0);
    CHECK(p.domain.boundaries ==
          std::array<BoundaryKind, 3>{BoundaryKind::Pml, BoundaryKind::Pml, BoundaryKind::Pml});
    CHECK(p.domain.pml.cells == 16);
    CHECK(p.domain.pml.grading_order == 3.0);
    CHECK(p.domain.pml.target_reflection == 1e-8);
    CHECK(p.domain.background == "air");
    CHECK(p.materials.empty());
    CHECK(p.layers.empty());

    const Source& s = p.sources.at(0);
    CHECK(s.component == Component::Ez);
    CHECK(s.profile == SourceProfile::Uniform);
    CHECK(s.amplitude == 1.0);
    CHECK(s.phase_deg == 0.0);
    CHECK(s.waveform.type == WaveformType::GaussianPulse);
    CHECK(s.waveform.wavelength_center == 1.55);
    CHECK(s.waveform.wavelength_span == 0.4);

    CHECK(p.monitors.at(0).component == Component::Ez);
    CHECK(p.monitors.at(0).reduce == Reduce::Value);
    CHECK(p.monitors.at(1).direction == "+x");
    CHECK(p.monitors.at(1).kind == "flux");

    const RunSettings& r = p.run;
    CHECK(r.spectrum.wavelength_min == 1.3);
    CHECK(r.spectrum.wavelength_max == 1.8);
    CHECK(r.spectrum.points == 101);
    CHECK(r.courant == 0.5);
    CHECK(r.stop.decay_db == 40.0);
    CHECK(r.stop.max_time_fs == 10000.0);
    CHECK_FALSE(r.stop.max_steps);
    CHECK_FALSE(r.stop.monitor);
    CHECK_FALSE(r.normalization.enabled);
    CHECK(r.normalization.reference_layers.empty());
    CHECK_FALSE(r.normalization.incident_monitor);
    CHECK(r.subpixel_averaging);
    CHECK(r.precision == Precision::Float32);
    CHECK(r.backend == BackendChoice::Auto);
    CHECK(r.frames.every_steps == 20);
    CHECK(r.frames.component == Component::Ez);

    // TEz: components default to Hz, the out-of-plane field of that polarization.
    const Project te = parse_project(R"({"format": "golightly-project", "version": 1,
        "domain": {"size": [2, 1], "cell_size": 0.05, "polarization": "TEz"},
        "sources": [{"type": "point", "at": [0.5, 0.5]}],
        "monitors": [{"name": "m", "type": "time", "at": [1, 0.5]}]})",
                                     "te.glproj");
    CHECK(te.sources.at(0).component == Component::Hz);
    CHECK(te.monitors.at(0).component == Component::Hz);
    CHECK(te.run.frames.component == Component::Hz);
}

TEST_CASE("A rich project round-trips: every shape, pole, source and monitor kind", "[project]") {
    const Project p = parse_project(base_doc().dump(), "base.glproj");
    CHECK(p.layers.at(0).shapes.size() == 7);
    CHECK(p.layers.at(0).shapes.at(3).bend_radius == 0.5);
    CHECK(p.layers.at(0).shapes.at(5).width_px == 2);
    CHECK(p.layers.at(0).shapes.at(5).png_base64 == "iVBORw0KGgo=");
    CHECK(p.layers.at(1).z == std::array<double, 2>{0.0, 0.22});
    CHECK(p.materials.at(1).poles.at(0).kind == PoleKind::Drude);
    CHECK(p.materials.at(1).poles.at(0).omega_0 == 0.0);
    CHECK(p.materials.at(1).poles.at(1).omega_0 == 0.0630e16);
    CHECK(p.sources.at(1).waveform.type == WaveformType::Cw);
    CHECK(p.sources.at(1).waveform.wavelength == 1.3);
    CHECK(p.sources.at(1).waveform.ramp_periods == 5.0);
    CHECK(p.monitors.at(4).components == std::vector<Component>{Component::Ez, Component::Hx});
    CHECK(p.run.stop.monitor == std::string("probe"));
    const Shape& step = p.layers.at(0).shapes.at(6);
    CHECK(step.type == ShapeType::Step);
    CHECK(step.scale == 1000.0);
    CHECK(step.rotate_deg == std::array<double, 3>{90.0, 0.0, 0.0});
    CHECK(step.translate == std::array<double, 3>{1.0, 2.0, 0.0});
    REQUIRE(p.sources.at(2).shape);
    CHECK(p.sources.at(2).shape->rotation_deg == 30.0);
    CHECK(p.sources.at(2).component == Component::Hx);
    CHECK(p.sources.at(3).profile == SourceProfile::Gaussian);
    CHECK(p.sources.at(3).waist == 0.4);
    REQUIRE(p.monitors.at(5).shape);
    CHECK(p.monitors.at(5).reduce == Reduce::SumSquares);
    CHECK_FALSE(p.monitors.at(5).at);
    CHECK(p.monitors.at(6).components == std::vector<Component>{Component::Ez});  // default: TMz's Ez
    CHECK(p.monitors.at(6).min == Vec2{0.5, 0.5});

    const std::string first = dumped(p);
    const Project q = parse_project(first, "again.glproj");
    CHECK(q == p);
    CHECK(dumped(q) == first);

    // 3D projects (spec "3D projects"): tests/solver/test_project_3d.cpp.
}

TEST_CASE("Unknown members at every level survive load and save", "[project]") {
    Json doc = base_doc();
    doc["future_top"] = {{"a", 1}};
    doc["domain"]["future_domain"] = "d";
    doc["domain"]["boundaries"] = {{"x", "periodic"}, {"future_boundary", true}};
    doc["domain"]["pml"] = {{"cells", 12}, {"future_pml", 1.5}};
    doc["materials"][0]["future_material"] = Json::array({1, 2});
    doc["materials"][1]["poles"][1]["future_pole"] = "p";
    doc["layers"][0]["future_layer"] = nullptr;
    doc["layers"][0]["shapes"][1]["future_shape"] = 7;
    doc["layers"][0]["shapes"][0]["center"] = Json::array({9, 9});  // not a rectangle field: kept as is
    doc["sources"][0]["future_source"] = "s";
    doc["sources"][0]["waveform"]["future_waveform"] = 3;
    doc["sources"][1]["waist"] = 0.7;  // a point source has no profile: kept as is
    doc["monitors"][2]["future_monitor"] = {{"nested", {1, 2, 3}}};
    doc["run"]["future_run"] = "r";
    doc["run"]["spectrum"] = {{"future_spectrum", 1}};
    doc["run"]["stop"]["future_stop"] = 2;
    doc["run"]["normalization"]["future_normalization"] = 3;
    doc["run"]["frames"] = {{"future_frames", 4}};

    const Project p = parse_project(doc.dump(2), "future.glproj");
    CHECK(p.extra.at("future_top").at("a") == 1);
    CHECK(p.domain.extra.at("future_domain") == "d");
    CHECK(p.domain.boundaries[0] == BoundaryKind::Periodic);
    CHECK(p.domain.boundaries_extra.at("future_boundary") == true);
    CHECK(p.domain.pml.cells == 12);
    CHECK(p.domain.pml.extra.at("future_pml") == 1.5);
    CHECK(p.materials.at(0).extra.at("future_material") == Json::array({1, 2}));
    CHECK(p.materials.at(1).poles.at(1).extra.at("future_pole") == "p");
    CHECK(p.layers.at(0).extra.at("future_layer").is_null());
    CHECK(p.layers.at(0).shapes.at(1).extra.at("future_shape") == 7);
    CHECK(p.layers.at(0).shapes.at(0).extra.at("center") == Json::array({9, 9}));
    CHECK(p.layers.at(0).shapes.at(0).center == Vec2{});
    CHECK(p.sources.at(0).extra.at("future_source") == "s");
    CHECK(p.sources.at(0).waveform.extra.at("future_waveform") == 3);
    CHECK(p.sources.at(1).extra.at("waist") == 0.7);
    CHECK(p.monitors.at(2).extra.at("future_monitor").at("nested") == Json::array({1, 2, 3}));
    CHECK(p.run.extra.at("future_run") == "r");
    CHECK(p.run.spectrum.extra.at("future_spectrum") == 1);
    CHECK(p.run.stop.extra.at("future_stop") == 2);
    CHECK(p.run.normalization.extra.at("future_normalization") == 3);
    CHECK(p.run.frames.extra.at("future_frames") == 4);

    // Written back after the known members, and identical after a second cycle.
    const Json out = project_to_json(p);
    CHECK(out.at("future_top") == doc.at("future_top"));
    CHECK(out.at("domain").at("boundaries").at("future_boundary") == true);
    CHECK(out.at("monitors").at(2).at("future_monitor") == doc.at("monitors").at(2).at("future_monitor"));
    CHECK((--out.end()).key() == "future_top");
    CHECK((--out.at("run").end()).key() == "future_run");
    CHECK(out.at("layers").at(0).at("shapes").at(0).at("center") == Json::array({9, 9}));

    TempDir tmp;
    save_project(p, tmp.path / "a.glproj");
    const Project q = load_project(tmp.path / "a.glproj");
    CHECK(q == p);
    save_project(q, tmp.path / "b.glproj");
    CHECK(read_text(tmp.path / "a.glproj") == read_text(tmp.path / "b.glproj"));
}

TEST_CASE("Each invalid file of tests/data/invalid names the offending JSON path", "[project]") {
    const fs::path dir = kSourceDir / "tests" / "data" / "invalid";
    std::ifstream tsv(dir / "EXPECTED.tsv");
    REQUIRE(tsv.good());
    std::string line;
    int count = 0;
    while (std::getline(tsv, line)) {
        if (line.empty()) continue;
        const auto tab = line.find('\t');
        REQUIRE(tab != std::string::npos);
        const std::string file = line.substr(0, tab), expected = line.substr(tab + 1);
        INFO(file << " expecting " << expected);
        ++count;
        try {
            load_project(dir / file);
            FAIL("no error");
        } catch (const ProjectError& e) {
            INFO(e.what());
            CHECK(e.file() == (dir / file).string());
            CHECK(std::string(e.what()).find(expected) != std::string::npos);
            if (file == "bad_json.glproj" || file == "truncated.glproj") {
                CHECK(e.json_path().empty());
                CHECK(e.message().find("not valid JSON") != std::string::npos);
            } else {
                CHECK(e.json_path() == expected);
            }
        }
    }
    CHECK(count == 8);
}

TEST_CASE("Invalid values give ProjectError with a precise JSON path", "[project]") {
    struct Case {
        const char* what;
        std::function<void(Json&)> edit;
        const char* path;
        const char* message_part;
    };
    const std::vector<Case> cases = {
        {"format", [](Json& d) { d["format"] = "something-else"; }, "format", "golightly-project"},
        {"missing format", [](Json& d) { d.erase("format"); }, "format", ""},
        {"newer version", [](Json& d) { d["version"] = 2; }, "version", "newer"},
        {"version type", [](Json& d) { d["version"] = "1"; }, "version", "integer"},
        {"missing domain", [](Json& d) { d.erase("domain"); }, "domain", "required"},
        {"missing size", [](Json& d) { d["domain"].erase("size"); }, "domain.size", "required"},
        {"zero size", [](Json& d) { d["domain"]["size"][1] = 0.0; }, "domain.size[1]", "> 0"},
        {"zero cell", [](Json& d) { d["domain"]["cell_size"] = 0.0; }, "domain.cell_size", "> 0"},
        {"cell type", [](Json& d) { d["domain"]["cell_size"] = "0.05"; }, "domain.cell_size", "number"},
        {"cell larger than domain", [](Json& d) { d["domain"]["cell_size"] = 3.5; }, "domain.cell_size", "exceed"},
        {"dimensions", [](Json& d) { d["domain"]["dimensions"] = 4; }, "domain.dimensions", "2 or 3"},
        {"polarization", [](Json& d) { d["domain"]["polarization"] = "TM"; }, "domain.polarization", "\"TMz\""},
        {"boundary", [](Json& d) { d["domain"]["boundaries"] = {{"y", "absorbing"}}; }, "domain.boundaries.y", "unknown value"},
        {"pml cells 0", [](Json& d) { d["domain"]["pml"] = {{"cells", 0}}; }, "domain.pml.cells", "between 1 and 200"},
        {"pml cells 201", [](Json& d) { d["domain"]["pml"] = {{"cells", 201}}; }, "domain.pml.cells", "between 1 and 200"},
        {"pml reflection", [](Json& d) { d["domain"]["pml"] = {{"target_reflection", 2.0}}; }, "domain.pml.target_reflection", ""},
        {"background", [](Json& d) { d["domain"]["background"] = "glass"; }, "domain.background", "unknown material"},
        {"material id missing", [](Json& d) { d["materials"][0].erase("id"); }, "materials[0].id", "required"},
        {"duplicate id", [](Json& d) { d["materials"][1]["id"] = "si"; }, "materials[1].id", "duplicate"},
        {"mu_r", [](Json& d) { d["materials"][0]["mu_r"] = 2.0; }, "materials[0].mu_r", "magnetic materials are not supported yet"},
        {"conductivity", [](Json& d) { d["materials"][0]["conductivity"] = -1.0; }, "materials[0].conductivity", ">= 0"},
        {"eps_inf", [](Json& d) { d["materials"][0]["epsilon_inf"] = 0.0; }, "materials[0].epsilon_inf", "> 0"},
        {"pole omega_p missing", [](Json& d) { d["materials"][1]["poles"][0].erase("omega_p"); }, "materials[1].poles[0].omega_p", "required"},
        {"pole gamma", [](Json& d) { d["materials"][1]["poles"][1]["gamma"] = -1e14; }, "materials[1].poles[1].gamma", ">= 0"},
        {"pole omega_0", [](Json& d) { d["materials"][1]["poles"][1]["omega_0"] = -1e14; }, "materials[1].poles[1].omega_0", ">= 0"},
        {"pole kind", [](Json& d) { d["materials"][1]["poles"][0]["kind"] = "debye"; }, "materials[1].poles[0].kind", "unknown value"},
        {"color", [](Json& d) { d["materials"][0]["color"] = "red"; }, "materials[0].color", "#rrggbb"},
        {"layer material", [](Json& d) { d["layers"][1]["material"] = "glass"; }, "layers[1].material", "unknown material"},
        {"layer z", [](Json& d) { d["layers"][1]["z"] = {0.3, 0.1}; }, "layers[1].z[1]", ""},
        {"shape type", [](Json& d) { d["layers"][0]["shapes"][0]["type"] = "circle"; }, "layers[0].shapes[0].type", "unknown value"},
        {"rect max", [](Json& d) { d["layers"][0]["shapes"][0]["max"] = {4.0, 0.5}; }, "layers[0].shapes[0].max[1]", ""},
        {"rect missing max", [](Json& d) { d["layers"][0]["shapes"][0].erase("max"); }, "layers[0].shapes[0].max", "required"},
        {"null coordinate", [](Json& d) { d["layers"][0]["shapes"][0]["min"][0] = nullptr; }, "layers[0].shapes[0].min[0]", "number"},
        {"point arity", [](Json& d) { d["layers"][0]["shapes"][0]["min"] = {1.0}; }, "layers[0].shapes[0].min", "[x, y]"},
        {"ellipse radius", [](Json& d) { d["layers"][0]["shapes"][1]["radii"][1] = -0.2; }, "layers[0].shapes[1].radii[1]", "> 0"},
        {"ring radii", [](Json& d) { d["layers"][0]["shapes"][2]["inner_radius"] = 0.7; }, "layers[0].shapes[2].inner_radius", "outer_radius"},
        {"ring missing", [](Json& d) { d["layers"][0]["shapes"][2].erase("outer_radius"); }, "layers[0].shapes[2].outer_radius", "required"},
        {"path width", [](Json& d) { d["layers"][0]["shapes"][3]["width"] = 0.0; }, "layers[0].shapes[3].width", "> 0"},
        {"path bend", [](Json& d) { d["layers"][0]["shapes"][3]["bend_radius"] = -1.0; }, "layers[0].shapes[3].bend_radius", "> 0"},
        {"path point", [](Json& d) { d["layers"][0]["shapes"][3]["points"][1] = {0.0, 0.5}; }, "layers[0].shapes[3].points[1]", "repeats"},
        {"polygon points", [](Json& d) { d["layers"][0]["shapes"][4]["points"].erase(0); }, "layers[0].shapes[4].points", "at least 3"},
        {"raster width", [](Json& d) { d["layers"][0]["shapes"][5]["width"] = 0; }, "layers[0].shapes[5].width", "between 1"},
        {"raster pixel", [](Json& d) { d["layers"][0]["shapes"][5]["pixel_size"] = -0.1; }, "layers[0].shapes[5].pixel_size", "> 0"},
        {"raster fractional", [](Json& d) { d["layers"][0]["shapes"][5]["height"] = 2.5; }, "layers[0].shapes[5].height", "integer"},
        {"source type", [](Json& d) { d["sources"][0]["type"] = "beam"; }, "sources[0].type", "unknown value"},
        {"plane source without center", [](Json& d) { d["sources"][0]["type"] = "plane"; }, "sources[0].center", "required"},
        {"region shape", [](Json& d) { d["sources"][2]["shape"]["radii"][0] = 0.0; }, "sources[2].shape.radii[0]", "> 0"},
        {"region missing shape", [](Json& d) { d["sources"][2].erase("shape"); }, "sources[2].shape", "required"},
        {"gaussian waist", [](Json& d) { d["sources"][3]["waist"] = 0.0; }, "sources[3].waist", "> 0"},
        {"step scale", [](Json& d) { d["layers"][0]["shapes"][6]["scale"] = 0.0; }, "layers[0].shapes[6].scale", "> 0"},
        {"step data", [](Json& d) { d["layers"][0]["shapes"][6].erase("data"); }, "layers[0].shapes[6].data", "required"},
        {"step rotation", [](Json& d) { d["layers"][0]["shapes"][6]["rotate_deg"] = {1.0, 2.0}; }, "layers[0].shapes[6].rotate_deg", "three"},
        {"time at and shape", [](Json& d) { d["monitors"][5]["at"] = {1.0, 1.0}; }, "monitors[5].shape", "not both"},
        {"dft region half", [](Json& d) { d["monitors"][6].erase("max"); }, "monitors[6].max", "together"},
        {"too deep", [](Json& d) { Json v = 1; for (int i = 0; i < 300; ++i) v = Json::array({v}); d["deep"] = v; }, "", "nested"},
        {"source profile", [](Json& d) { d["sources"][0]["profile"] = "flat"; }, "sources[0].profile", "unknown value"},
        {"source component", [](Json& d) { d["sources"][0]["component"] = "Hz"; }, "sources[0].component", "TMz"},
        {"source component name", [](Json& d) { d["sources"][0]["component"] = "Ew"; }, "sources[0].component", "unknown value"},
        {"source direction", [](Json& d) { d["sources"][0]["direction"] = "+z"; }, "sources[0].direction", "unknown direction"},
        {"source mode index", [](Json& d) { d["sources"][0]["mode_index"] = -1; }, "sources[0].mode_index", ">= 0"},
        {"source line", [](Json& d) { d["sources"][0]["to"] = {0.5, 0.5}; }, "sources[0].to", "differ"},
        {"source point missing", [](Json& d) { d["sources"][1].erase("at"); }, "sources[1].at", "required"},
        {"waveform span", [](Json& d) { d["sources"][0]["waveform"]["wavelength_span"] = -0.4; }, "sources[0].waveform.wavelength_span", "> 0"},
        {"waveform span wide", [](Json& d) { d["sources"][0]["waveform"]["wavelength_span"] = 3.2; }, "sources[0].waveform.wavelength_span", "2 x"},
        {"waveform type", [](Json& d) { d["sources"][0]["waveform"]["type"] = "chirp"; }, "sources[0].waveform.type", "unknown value"},
        {"cw wavelength", [](Json& d) { d["sources"][1]["waveform"]["wavelength"] = 0.0; }, "sources[1].waveform.wavelength", "> 0"},
        {"monitor name missing", [](Json& d) { d["monitors"][0].erase("name"); }, "monitors[0].name", "required"},
        {"duplicate monitor", [](Json& d) { d["monitors"][1]["name"] = "T"; }, "monitors[1].name", "duplicate"},
        {"monitor type", [](Json& d) { d["monitors"][0]["type"] = "energy"; }, "monitors[0].type", "unknown value"},
        {"monitor kind", [](Json& d) { d["monitors"][0]["kind"] = "absorption"; }, "monitors[0].kind", "unknown kind"},
        {"box kind", [](Json& d) { d["monitors"][3]["kind"] = "reflection"; }, "monitors[3].kind", "unknown kind"},
        {"monitor direction", [](Json& d) { d["monitors"][0]["direction"] = "x"; }, "monitors[0].direction", "unknown direction"},
        {"monitor parallel", [](Json& d) { d["monitors"][0]["direction"] = "+y"; }, "monitors[0].direction", "parallel"},
        {"monitor component", [](Json& d) { d["monitors"][2]["component"] = "Ex"; }, "monitors[2].component", "TMz"},
        {"monitor reduce", [](Json& d) { d["monitors"][2]["reduce"] = "max"; }, "monitors[2].reduce", "unknown value"},
        {"time without point", [](Json& d) { d["monitors"][2].erase("at"); }, "monitors[2].at", "required"},
        {"dft component", [](Json& d) { d["monitors"][4]["components"][1] = "Hz"; }, "monitors[4].components[1]", "TMz"},
        {"dft wavelength", [](Json& d) { d["monitors"][4]["wavelengths"][0] = -1.0; }, "monitors[4].wavelengths[0]", "> 0"},
        {"box max", [](Json& d) { d["monitors"][3]["max"] = {0.5, 2.0}; }, "monitors[3].max[0]", ""},
        {"spectrum order", [](Json& d) { d["run"]["spectrum"] = {{"wavelength_min", 1.6}, {"wavelength_max", 1.5}}; }, "run.spectrum.wavelength_max", "wavelength_min"},
        {"spectrum points", [](Json& d) { d["run"]["spectrum"] = {{"points", 0}}; }, "run.spectrum.points", ">= 1"},
        {"courant", [](Json& d) { d["run"]["courant"] = 0.71; }, "run.courant", "1/sqrt(2)"},
        {"courant zero", [](Json& d) { d["run"]["courant"] = 0.0; }, "run.courant", "> 0"},
        {"decay", [](Json& d) { d["run"]["stop"]["decay_db"] = -3.0; }, "run.stop.decay_db", "> 0"},
        {"max steps", [](Json& d) { d["run"]["stop"]["max_steps"] = 0; }, "run.stop.max_steps", ""},
        {"stop monitor", [](Json& d) { d["run"]["stop"]["monitor"] = "T"; }, "run.stop.monitor", "not a time monitor"},
        {"stop monitor unknown", [](Json& d) { d["run"]["stop"]["monitor"] = "nope"; }, "run.stop.monitor", "unknown monitor"},
        {"reference layer", [](Json& d) { d["run"]["normalization"]["reference_layers"] = {"ref", "straight"}; }, "run.normalization.reference_layers[1]", "unknown layer"},
        {"incident monitor", [](Json& d) { d["run"]["normalization"]["incident_monitor"] = "X"; }, "run.normalization.incident_monitor", "unknown monitor"},
        {"incident monitor type", [](Json& d) { d["run"]["normalization"]["incident_monitor"] = "probe"; }, "run.normalization.incident_monitor", "not a flux"},
        {"normalization type", [](Json& d) { d["run"]["normalization"]["enabled"] = 1; }, "run.normalization.enabled", "true or false"},
        {"precision", [](Json& d) { d["run"]["precision"] = "float16"; }, "run.precision", "unknown value"},
        {"backend", [](Json& d) { d["run"]["backend"] = "opencl"; }, "run.backend", "unknown value"},
        {"frames component", [](Json& d) { d["run"]["frames"] = {{"component", "Hz"}}; }, "run.frames.component", "TMz"},
        {"frames steps", [](Json& d) { d["run"]["frames"] = {{"every_steps", 0}}; }, "run.frames.every_steps", ">= 1"},
        {"layers type", [](Json& d) { d["layers"] = {{"name", "x"}}; }, "layers", "array"},
        {"3D courant", [](Json& d) {
             d["domain"]["dimensions"] = 3; d["domain"]["size"][2] = 1.0; d["run"]["courant"] = 0.6;
             d["sources"] = Json::array(); d["monitors"] = Json::array(); d["run"].erase("normalization"); d["run"].erase("stop");
         }, "run.courant", "1/sqrt(3)"},
        {"3D zero Lz", [](Json& d) { d["domain"]["dimensions"] = 3; }, "domain.size[2]", "> 0"},
    };
    // The base document itself is valid.
    REQUIRE_NOTHROW(parse_project(base_doc().dump(), "base.glproj"));
    for (const auto& c : cases) {
        INFO("case: " << c.what);
        Json doc = base_doc();
        c.edit(doc);
        const ProjectError e = error_of_doc(doc);
        INFO(e.what());
        CHECK(e.json_path() == c.path);
        CHECK(e.file() == "case.glproj");
        CHECK(e.message().find(c.message_part) != std::string::npos);
        const std::string prefix = std::string(c.path).empty() ? "case.glproj: " : "case.glproj: " + std::string(c.path) + ": ";
        CHECK(std::string(e.what()) == prefix + e.message());
    }
}

TEST_CASE("Directions and components follow the dimensions and polarization", "[project]") {
    Json doc = base_doc();
    // No PML used: the PML settings are not checked.
    doc["domain"]["boundaries"] = {{"x", "periodic"}, {"y", "pec"}, {"z", "pml"}};
    doc["domain"]["pml"] = {{"cells", 0}};
    CHECK_NOTHROW(parse_project(doc.dump(), "nopml.glproj"));

    // TEz: Hz, Ex, Ey are valid, Ez is not.
    Json te = base_doc();
    te["domain"]["polarization"] = "TEz";
    te["sources"][0]["component"] = "Hz";
    te["sources"][2]["component"] = "Ex";
    te["monitors"][2]["component"] = "Ey";
    te["monitors"][4]["components"] = {"Hz", "Ex"};
    CHECK_NOTHROW(parse_project(te.dump(), "te.glproj"));
    te["monitors"][2]["component"] = "Ez";
    CHECK(error_of_doc(te).json_path() == "monitors[2].component");

    // A listed "air" is accepted and wins over the implicit one.
    Json air = base_doc();
    air["materials"].push_back({{"id", "air"}, {"name", "Air"}, {"epsilon_inf", 1.0}});
    const Project p = parse_project(air.dump(), "air.glproj");
    REQUIRE(p.find_material("air"));
    CHECK(p.find_material("air")->name == "Air");
    CHECK(p.find_material("air") == &p.materials.back());
}

TEST_CASE("Non-finite numbers are rejected wherever they are", "[project]") {
    const std::string base = base_doc().dump(2);
    auto with = [&](const std::string& old, const std::string& repl) {
        std::string s = base;
        const auto pos = s.find(old);
        REQUIRE(pos != std::string::npos);
        s.replace(pos, old.size(), repl);
        return s;
    };
    CHECK(error_of(with("\"cell_size\": 0.05", "\"cell_size\": 1e999")).json_path() == "domain.cell_size");
    CHECK(error_of(with("\"cell_size\": 0.05", "\"cell_size\": -1e999")).json_path() == "domain.cell_size");
    CHECK(error_of(with("\"name\": \"test\"", "\"name\": \"test\", \"future\": [1, 2e400]")).json_path() == "future[1]");
    CHECK(error_of(with("\"omega_p\": 1.1959e+16", "\"omega_p\": 1.1959e316")).json_path() == "materials[1].poles[0].omega_p");
    const ProjectError e = error_of(with("\"cell_size\": 0.05", "\"cell_size\": NaN"));
    CHECK(e.json_path().empty());
    CHECK(e.message().find("line") != std::string::npos);

    // A model built in memory (the editor) is checked too.
    Project p = parse_project(base, "base.glproj");
    p.layers.at(0).shapes.at(1).center.y = std::nan("");
    try {
        validate_project(p, "edited.glproj");
        FAIL("NaN accepted");
    } catch (const ProjectError& err) {
        CHECK(err.json_path() == "layers[0].shapes[1].center[1]");
    }
    p = parse_project(base, "base.glproj");
    p.run.spectrum.wavelength_max = INFINITY;
    try {
        validate_project(p, "edited.glproj");
        FAIL("inf accepted");
    } catch (const ProjectError& err) {
        CHECK(err.json_path() == "run.spectrum.wavelength_max");
    }
}

TEST_CASE("JSON syntax errors report line and column", "[project]") {
    const ProjectError e = error_of("{\n  \"format\": \"golightly-project\",\n  \"version\": 1,,\n}");
    CHECK(e.json_path().empty());
    CHECK(e.message().find("line 3, column 16") != std::string::npos);
    CHECK(std::string(e.what()).rfind("case.glproj: not valid JSON", 0) == 0);

    const ProjectError empty = error_of(std::string());
    CHECK(empty.message().find("line 1") != std::string::npos);

    const ProjectError top = error_of("[1, 2]");
    CHECK(top.json_path().empty());
    CHECK(top.message().find("JSON object") != std::string::npos);

    const std::string good = base_doc().dump(2);
    const ProjectError cut = error_of(good.substr(0, good.size() / 2));
    CHECK(cut.message().find("unexpected end of input") != std::string::npos);

    CHECK_THROWS_AS(load_project("/nonexistent/folder/x.glproj"), ProjectError);
}

TEST_CASE("save_project is atomic: a failed save leaves the old file untouched", "[project]") {
    TempDir tmp;
    const Project p = parse_project(base_doc().dump(), "base.glproj");
    const fs::path file = tmp.path / "project.glproj";
    save_project(p, file);
    const std::string before = read_text(file);
    CHECK(parse_project(before, "x") == p);

    // A folder that does not exist: nothing is written, the message names the file.
    const fs::path missing = tmp.path / "no_such_folder" / "project.glproj";
    try {
        save_project(p, missing);
        FAIL("save into a missing folder succeeded");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find(missing.string()) != std::string::npos);
    }
    CHECK_FALSE(fs::exists(missing));

    // The JSON cannot be written (invalid UTF-8 in a name): the existing file is unchanged.
    Project bad = p;
    bad.name = std::string("broken \xff\xfe name");
    CHECK_THROWS_AS(save_project(bad, file), std::runtime_error);
    CHECK(read_text(file) == before);

    // The rename fails (the target is a non-empty folder): no temporary file is left.
    const fs::path folder = tmp.path / "taken.glproj";
    fs::create_directories(folder / "inside");
    try {
        save_project(p, folder);
        FAIL("save over a folder succeeded");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find(folder.string()) != std::string::npos);
    }
    CHECK(fs::is_directory(folder / "inside"));

    // A read-only folder (not enforced for root, which may write anyway).
    if (::geteuid() != 0) {
        fs::permissions(tmp.path, fs::perms::owner_read | fs::perms::owner_exec, fs::perm_options::replace);
        Project changed = p;
        changed.name = "changed";
        CHECK_THROWS_AS(save_project(changed, file), std::runtime_error);
        fs::permissions(tmp.path, fs::perms::owner_all, fs::perm_options::replace);
        CHECK(read_text(file) == before);
    }

    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(tmp.path)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"project.glproj", "taken.glproj"});

    // A successful save replaces the content and keeps the file's permissions.
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read,
                    fs::perm_options::replace);
    Project changed = p;
    changed.name = "changed";
    save_project(changed, file);
    CHECK(load_project(file).name == "changed");
    CHECK(fs::status(file).permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
}

TEST_CASE("Enum names match the file format", "[project]") {
    CHECK(to_string(Component::Hz) == "Hz");
    CHECK(to_string(Polarization::TEz) == "TEz");
    CHECK(to_string(BoundaryKind::Mur) == "mur");
    CHECK(to_string(Precision::Float64) == "float64");
    CHECK(to_string(BackendChoice::Cuda) == "cuda");
    CHECK(to_string(ShapeType::Raster) == "raster");
    CHECK(to_string(PoleKind::Drude) == "drude");
    CHECK(to_string(WaveformType::Cw) == "cw");
    CHECK(to_string(SourceType::Region) == "region");
    CHECK(to_string(SourceProfile::Mode) == "mode");
    CHECK(to_string(MonitorType::DftField) == "dft_field");
    CHECK(to_string(Reduce::SumSquares) == "sum_squares");

    Project p;
    CHECK(p.find_material("air"));
    CHECK(p.find_material("air")->epsilon_inf == 1.0);
    CHECK(p.find_material("si") == nullptr);
}
