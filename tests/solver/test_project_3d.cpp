// Tests of the 3D project fields (spec/project-format.md "3D projects"): reading, writing
// (round trip), validation messages naming file and JSON path, the 2D reading of 3D
// objects, check_runnable's list of what the 3D CPU path cannot run yet, and the CLI's
// exit code 2 for those.
//
// Not covered here: `golightly-cli check` output for a 3D project (cells [nx, ny, nz],
// volume_um3): it needs the 3D compiler and geometry (material_volumes_um3), which are
// tested with them.
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "golightly/errors.hpp"
#include "golightly/project.hpp"

namespace fs = std::filesystem;
using namespace golightly;

namespace {

const fs::path kSourceDir = GOLIGHTLY_SOURCE_DIR;

/// A 3D project touching every field of the spec section "3D projects".
/// sources[2] is a plane source (the brief's example path `sources[2].size`).
Json doc3d() {
    return Json::parse(R"({
      "format": "golightly-project", "version": 1, "name": "3d test",
      "domain": {"dimensions": 3, "size": [3.0, 2.0, 1.5], "cell_size": 0.05,
                 "boundaries": {"x": "pml", "y": "periodic", "z": "mur"}, "pml": {"cells": 8}},
      "materials": [
        {"id": "si", "epsilon_inf": 12.0},
        {"id": "sio2", "epsilon_inf": 2.085},
        {"id": "au", "epsilon_inf": 1.0, "poles": [{"kind": "drude", "omega_p": 1.1959e16, "gamma": 8.05e13}]}
      ],
      "layers": [
        {"name": "oxide", "material": "sio2", "z": [0.0, 0.5],
         "shapes": [{"type": "rectangle", "min": [-1.0, -1.0], "max": [4.0, 3.0]}]},
        {"name": "strip", "material": "si", "z": [0.5, 0.72], "sidewall_angle_deg": 8.0,
         "shapes": [{"type": "rectangle", "min": [-1.0, 0.775], "max": [4.0, 1.225]}]},
        {"name": "solids", "material": "si", "shapes": [
          {"type": "sphere", "center": [2.0, 1.0, 1.1], "radius": 0.2},
          {"type": "box", "min": [0.2, 0.2, 0.9], "max": [0.5, 0.4, 1.2]},
          {"type": "step", "file_name": "part.step", "data": "SVNPLTEwMzAzLTIx", "scale": 0.001,
           "rotate_deg": [0.0, 90.0, 0.0], "translate": [1.0, 1.0, 0.6], "solids": [0]}
        ]}
      ],
      "sources": [
        {"name": "dipole", "type": "point", "at": [1.0, 1.0, 0.61], "component": "Hx",
         "waveform": {"type": "cw", "wavelength": 1.55}},
        {"name": "wave", "type": "tfsf", "min": [1.5, 0.5, 0.8], "max": [2.5, 1.5, 1.4], "direction": "-z",
         "component": "Ey"},
        {"name": "beam", "type": "plane", "center": [0.5, 1.0, 0.61], "size": [0.0, 1.2, 1.0],
         "profile": "gaussian", "waist": 0.4, "component": "Ey"},
        {"name": "flat", "type": "plane", "center": [0.6, 1.0, 0.61], "size": [0.0, 1.2, 1.0],
         "profile": "uniform", "component": "Ez"}
      ],
      "monitors": [
        {"name": "in", "type": "flux", "center": [1.0, 1.0, 0.61], "size": [0.0, 1.5, 1.2], "direction": "+x",
         "kind": "transmission"},
        {"name": "top", "type": "flux", "center": [1.5, 1.0, 1.3], "size": [2.0, 1.5, 0.0], "direction": "+z"},
        {"name": "net", "type": "flux_box", "min": [1.4, 0.4, 0.7], "max": [2.6, 1.6, 1.45], "kind": "flux"},
        {"name": "abs", "type": "flux_box", "min": [1.7, 0.7, 0.85], "max": [2.3, 1.3, 1.35], "kind": "absorption"},
        {"name": "sca", "type": "flux_box", "min": [1.4, 0.4, 0.7], "max": [2.6, 1.6, 1.45], "kind": "scattering"},
        {"name": "vol", "type": "dft_field", "wavelengths": [1.55], "components": ["Ex", "Hz"],
         "min": [0.5, 0.5, 0.5], "max": [2.5, 1.5, 1.0]},
        {"name": "slice", "type": "dft_field", "wavelengths": [1.3, 1.55], "components": ["Ey"],
         "min": [0.0, 0.0, 0.61], "max": [3.0, 2.0, 0.61]},
        {"name": "probe", "type": "time", "at": [2.0, 1.0, 0.61], "component": "Ey"}
      ],
      "run": {"courant": 0.5, "backend": "cpu", "stop": {"decay_db": 30, "max_time_fs": 200},
              "frames": {"every_steps": 10, "component": "Ey", "plane": "xz", "position": 1.0}}
    })");
}

/// The 3D objects in a 2D (TEz) project: they read and are cut at slice_z.
Json doc2d_with_3d_objects() {
    Json d = doc3d();
    d["domain"]["dimensions"] = 2;
    d["domain"]["polarization"] = "TEz";
    d["domain"]["slice_z"] = 0.61;
    d["sources"][0]["component"] = "Hz";
    d["sources"][3]["component"] = "Ey";
    d["sources"][1] = Json::parse(R"({"name": "wave", "type": "tfsf", "min": [1.5, 0.5], "max": [2.5, 1.5],
                                      "direction": "+x", "component": "Ey"})");
    d["monitors"].erase(1);  // "top": a z-normal plane has no line at slice_z
    d["run"]["frames"].erase("plane");
    d["run"]["frames"].erase("position");
    return d;
}

std::string dumped(const Project& p) { return project_to_json(p).dump(2) + "\n"; }

ProjectError error_of_doc(const Json& doc) {
    try {
        parse_project(doc.dump(2), "case3d.glproj");
    } catch (const ProjectError& e) {
        return e;
    }
    FAIL("no ProjectError thrown for:\n" << doc.dump(2));
    throw std::logic_error("unreachable");
}

/// The ProjectError check_runnable throws for a (valid) `doc`; fails the test if none.
ProjectError refusal_of(const Json& doc) {
    const Project p = parse_project(doc.dump(), "run3d.glproj");
    try {
        check_runnable(p, "run3d.glproj");
    } catch (const ProjectError& e) {
        return e;
    }
    FAIL("check_runnable accepted:\n" << doc.dump(2));
    throw std::logic_error("unreachable");
}

void require_runnable(const Json& doc) {
    const Project p = parse_project(doc.dump(), "run3d.glproj");
    try {
        check_runnable(p, "run3d.glproj");
    } catch (const ProjectError& e) {
        FAIL("check_runnable refused: " << e.what());
    }
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct TempDir {
    fs::path path;
    TempDir() {
        std::random_device rd;
        path = fs::temp_directory_path() / ("golightly_project_3d_" + std::to_string(rd()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

}  // namespace

TEST_CASE("3D project: every field of the spec section reads into the model", "[project][3d]") {
    const Project p = parse_project(doc3d().dump(), "a.glproj");
    CHECK(p.domain.dimensions == 3);
    CHECK(p.domain.size == std::array<double, 3>{3.0, 2.0, 1.5});
    CHECK(p.domain.boundaries[2] == BoundaryKind::Mur);
    CHECK(p.domain.boundaries[1] == BoundaryKind::Periodic);
    CHECK(p.domain.pml.cells == 8);

    REQUIRE(p.layers.size() == 3);
    CHECK(p.layers[1].z == std::array<double, 2>{0.5, 0.72});
    CHECK(p.layers[1].sidewall_angle_deg == 8.0);
    CHECK(p.layers[0].sidewall_angle_deg == 0.0);
    const Shape& sphere = p.layers[2].shapes.at(0);
    CHECK(sphere.type == ShapeType::Sphere);
    CHECK(sphere.center_3d == Vec3{2.0, 1.0, 1.1});
    CHECK(sphere.radius == 0.2);
    const Shape& box = p.layers[2].shapes.at(1);
    CHECK(box.type == ShapeType::Box);
    CHECK(box.box_min == Vec3{0.2, 0.2, 0.9});
    CHECK(box.box_max == Vec3{0.5, 0.4, 1.2});
    const Shape& step = p.layers[2].shapes.at(2);
    CHECK(step.type == ShapeType::Step);
    CHECK(step.rotate_deg == std::array<double, 3>{0.0, 90.0, 0.0});
    CHECK(step.translate == std::array<double, 3>{1.0, 1.0, 0.6});
    CHECK(step.solids == std::vector<int>{0});

    REQUIRE(p.sources.size() == 4);
    CHECK(p.sources[0].at == Vec2{1.0, 1.0});
    CHECK(p.sources[0].at_z == 0.61);
    CHECK(p.sources[0].component == Component::Hx);
    const Source& tfsf = p.sources[1];
    CHECK(tfsf.type == SourceType::Tfsf);
    CHECK(tfsf.box_min == Vec3{1.5, 0.5, 0.8});
    CHECK(tfsf.box_max == Vec3{2.5, 1.5, 1.4});
    CHECK(tfsf.direction == "-z");
    CHECK(tfsf.component == Component::Ey);
    CHECK(one_way_direction(tfsf).empty());
    const Source& beam = p.sources[2];
    CHECK(beam.type == SourceType::Plane);
    CHECK(beam.center == Vec3{0.5, 1.0, 0.61});
    CHECK(beam.size == Vec3{0.0, 1.2, 1.0});
    CHECK(beam.profile == SourceProfile::Gaussian);
    CHECK(beam.waist == 0.4);
    CHECK(one_way_direction(beam).empty());  // two-way: no `direction`
    CHECK(p.sources[3].profile == SourceProfile::Uniform);
    CHECK(p.sources[3].component == Component::Ez);

    REQUIRE(p.monitors.size() == 8);
    CHECK(p.monitors[0].center == Vec3{1.0, 1.0, 0.61});
    CHECK(p.monitors[0].size == Vec3{0.0, 1.5, 1.2});
    CHECK(p.monitors[0].kind == "transmission");
    CHECK(p.monitors[1].direction == "+z");
    CHECK(p.monitors[1].kind == "flux");
    CHECK(p.monitors[2].min == Vec2{1.4, 0.4});
    CHECK(p.monitors[2].min_z == 0.7);
    CHECK(p.monitors[2].max_z == 1.45);
    CHECK(p.monitors[3].kind == "absorption");
    CHECK(p.monitors[4].kind == "scattering");
    CHECK(p.monitors[5].components == std::vector<Component>{Component::Ex, Component::Hz});
    CHECK(p.monitors[5].max_z == 1.0);
    CHECK(p.monitors[6].min_z == 0.61);
    CHECK(p.monitors[6].max_z == 0.61);
    CHECK(p.monitors[7].at == Vec2{2.0, 1.0});
    CHECK(p.monitors[7].at_z == 0.61);

    CHECK(p.run.frames.plane == "xz");
    CHECK(p.run.frames.position == 1.0);
    CHECK(p.run.frames.component == Component::Ey);
}

TEST_CASE("3D project: load, save and reload give an equal model and identical text", "[project][3d]") {
    Json doc = doc3d();
    doc["sources"][3]["direction"] = "+x";  // a one-way uniform plane: kept (read from extra)
    doc["sources"].push_back(Json::parse(R"({"name": "mode", "type": "plane", "center": [0.4, 1.0, 0.61],
        "size": [0.0, 1.2, 1.0], "profile": "mode", "mode_index": 1, "direction": "+x"})"));
    doc["sources"].push_back(Json::parse(R"({"name": "tfsf default", "type": "tfsf",
        "min": [1.5, 0.5, 0.8], "max": [2.5, 1.5, 1.4], "direction": "+z"})"));
    const Project p = parse_project(doc.dump(), "a.glproj");
    CHECK(one_way_direction(p.sources[3]) == "+x");
    CHECK(one_way_direction(p.sources[4]) == "+x");
    CHECK(p.sources[4].mode_index == 1);
    CHECK(p.sources[5].component == Component::Ex);  // default E polarization of a wave along z

    const std::string first = dumped(p);
    const Project q = parse_project(first, "b.glproj");
    CHECK(q == p);
    CHECK(dumped(q) == first);

    // What the writer writes: 3D points and boxes with three entries, the frame plane.
    const Json out = Json::parse(first);
    CHECK(out["sources"][0]["at"] == Json::array({1.0, 1.0, 0.61}));
    CHECK(out["sources"][3]["direction"] == "+x");
    CHECK(out["monitors"][0].contains("center"));
    CHECK_FALSE(out["monitors"][0].contains("from"));
    CHECK(out["monitors"][2]["min"] == Json::array({1.4, 0.4, 0.7}));
    CHECK(out["layers"][1]["sidewall_angle_deg"] == 8.0);
    CHECK_FALSE(out["layers"][0].contains("sidewall_angle_deg"));  // default 0 is not written
    CHECK(out["run"]["frames"]["plane"] == "xz");

    TempDir tmp;
    save_project(p, tmp.path / "a.glproj");
    const Project r = load_project(tmp.path / "a.glproj");
    CHECK(r == p);
    save_project(r, tmp.path / "b.glproj");
    CHECK(read_text(tmp.path / "a.glproj") == read_text(tmp.path / "b.glproj"));

    // Every model field changed from the doc's value survives the round trip too.
    Project e = p;
    e.layers[0].sidewall_angle_deg = -3.5;
    e.layers[2].shapes[0].center_3d = Vec3{1.5, 0.5, 0.25};
    e.layers[2].shapes[0].radius = 0.125;
    e.layers[2].shapes[1].box_max = Vec3{0.6, 0.5, 1.3};
    e.sources[0].at_z = 0.7;
    e.sources[1].box_min = Vec3{1.25, 0.25, 0.75};
    e.sources[1].direction = "+y";
    e.sources[1].component = Component::Ez;
    e.sources[2].center = Vec3{0.45, 0.9, 0.6};
    e.sources[2].size = Vec3{0.0, 1.1, 0.9};
    e.monitors[0].center = Vec3{1.1, 1.0, 0.6};
    e.monitors[2].max_z = 1.5;
    e.monitors[7].at_z = 0.65;
    e.run.frames.plane = "yz";
    e.run.frames.position = 1.25;
    const Project f = parse_project(dumped(e), "e.glproj");
    CHECK(f == e);
}

TEST_CASE("3D objects read in a 2D project (cut at slice_z) and round-trip", "[project][3d]") {
    const Project p = parse_project(doc2d_with_3d_objects().dump(), "two.glproj");
    CHECK(p.domain.dimensions == 2);
    CHECK(p.layers[2].shapes[0].type == ShapeType::Sphere);
    CHECK(p.sources[1].type == SourceType::Tfsf);
    CHECK(p.sources[1].box_min == Vec3{1.5, 0.5, 0.0});  // 2D box: z entries 0
    CHECK(p.sources[2].type == SourceType::Plane);
    CHECK(p.monitors[0].size == Vec3{0.0, 1.5, 1.2});
    CHECK(p.monitors[1].min_z == 0.7);
    const std::string first = dumped(p);
    const Project q = parse_project(first, "two.glproj");
    CHECK(q == p);
    CHECK(dumped(q) == first);
    CHECK_FALSE(Json::parse(first)["run"]["frames"].contains("plane"));  // 2D default: not written

    // TF/SF in 2D: default E polarization is the polarization's own (TMz: Ez; TEz: normal to direction).
    Json tm = doc2d_with_3d_objects();
    tm["domain"]["polarization"] = "TMz";
    tm["sources"] = Json::parse(R"([{"name": "w", "type": "tfsf", "min": [1, 0.5], "max": [2, 1.5], "direction": "-y"}])");
    tm["monitors"] = Json::array();
    tm["run"]["frames"]["component"] = "Ez";
    CHECK(parse_project(tm.dump(), "tm.glproj").sources[0].component == Component::Ez);
    Json te = doc2d_with_3d_objects();
    te["sources"] = tm["sources"];
    CHECK(parse_project(te.dump(), "te.glproj").sources[0].component == Component::Ex);
}

TEST_CASE("3D fields: invalid values name the file and the JSON path", "[project][3d]") {
    struct Case {
        const char* what;
        std::function<void(Json&)> edit;
        const char* path;
        const char* message_part;
    };
    const std::vector<Case> cases = {
        {"plane source with two zero entries", [](Json& d) { d["sources"][2]["size"] = {0.0, 0.0, 1.0}; },
         "sources[2].size", "a plane source needs exactly one zero entry"},
        {"plane source without zero entry", [](Json& d) { d["sources"][2]["size"] = {0.1, 1.0, 1.0}; },
         "sources[2].size", "exactly one zero entry"},
        {"plane source negative size", [](Json& d) { d["sources"][2]["size"] = {0.0, -1.0, 1.0}; },
         "sources[2].size[1]", ">= 0"},
        {"plane source size not 3 numbers", [](Json& d) { d["sources"][2]["size"] = {0.0, 1.0}; },
         "sources[2].size", "three numbers"},
        {"plane source center missing", [](Json& d) { d["sources"][2].erase("center"); },
         "sources[2].center", "required"},
        {"one-way plane along the plane", [](Json& d) { d["sources"][2]["direction"] = "+y"; },
         "sources[2].direction", "normal to it (+x or -x)"},
        {"one-way plane bad direction", [](Json& d) { d["sources"][2]["direction"] = "up"; },
         "sources[2].direction", "unknown direction"},
        {"mode plane along the plane",
         [](Json& d) { d["sources"][2]["profile"] = "mode"; d["sources"][2]["direction"] = "+z"; },
         "sources[2].direction", "normal to it"},
        {"plane polarization along the normal", [](Json& d) { d["sources"][2]["component"] = "Ex"; },
         "sources[2].component", "Ey or Ez"},
        {"plane polarization magnetic", [](Json& d) { d["sources"][3]["component"] = "Hy"; },
         "sources[3].component", "E polarization"},
        {"line source in 3D",
         [](Json& d) { d["sources"][3] = {{"name", "l"}, {"type", "line"}, {"from", {0.5, 0.5}}, {"to", {0.5, 1.5}}}; },
         "sources[3].type", "plane source"},
        {"3D point without z", [](Json& d) { d["sources"][0]["at"] = {1.0, 1.0}; }, "sources[0].at", "[x, y, z]"},
        {"point with 4 entries", [](Json& d) { d["sources"][0]["at"] = {1.0, 1.0, 0.5, 0.5}; }, "sources[0].at",
         "[x, y, z]"},
        {"tfsf inverted z", [](Json& d) { d["sources"][1]["max"][2] = 0.5; }, "sources[1].max[2]", "> min z"},
        {"tfsf polarization along direction", [](Json& d) { d["sources"][1]["component"] = "Ez"; },
         "sources[1].component", "normal to z (Ex or Ey"},
        {"tfsf bad direction", [](Json& d) { d["sources"][1]["direction"] = "z"; }, "sources[1].direction",
         "unknown direction"},
        {"tfsf missing min", [](Json& d) { d["sources"][1].erase("min"); }, "sources[1].min", "required"},
        {"sphere radius", [](Json& d) { d["layers"][2]["shapes"][0]["radius"] = 0.0; }, "layers[2].shapes[0].radius",
         "> 0"},
        {"sphere center 2 entries", [](Json& d) { d["layers"][2]["shapes"][0]["center"] = {1.0, 1.0}; },
         "layers[2].shapes[0].center", "three numbers"},
        {"box inverted", [](Json& d) { d["layers"][2]["shapes"][1]["max"][2] = 0.9; }, "layers[2].shapes[1].max[2]",
         "> min z"},
        {"sidewall angle 90", [](Json& d) { d["layers"][1]["sidewall_angle_deg"] = 90.0; },
         "layers[1].sidewall_angle_deg", "between -90 and 90"},
        {"sidewall angle type", [](Json& d) { d["layers"][1]["sidewall_angle_deg"] = "8"; },
         "layers[1].sidewall_angle_deg", "number"},
        {"flux as a 2D line in 3D",
         [](Json& d) { d["monitors"][0] = {{"name", "in"}, {"type", "flux"}, {"from", {1, 0}}, {"to", {1, 2}}}; },
         "monitors[0].size", "a flux monitor in a 3D domain is a plane"},
        {"flux plane with no zero entry", [](Json& d) { d["monitors"][0]["size"] = {0.1, 1.5, 1.2}; },
         "monitors[0].size", "a flux plane needs exactly one zero entry"},
        {"flux plane direction parallel", [](Json& d) { d["monitors"][1]["direction"] = "+x"; },
         "monitors[1].direction", "+z or -z"},
        {"flux box without z", [](Json& d) { d["monitors"][2]["min"] = {1.4, 0.4}; }, "monitors[2].min",
         "a 3D domain needs a box corner [x, y, z]"},
        {"flux box flat in z", [](Json& d) { d["monitors"][3]["max"][2] = 0.85; }, "monitors[3].max[2]", "> min z"},
        {"flux box kind", [](Json& d) { d["monitors"][4]["kind"] = "extinction"; }, "monitors[4].kind",
         "\"scattering\""},
        {"dft region a line", [](Json& d) { d["monitors"][6]["max"][1] = 0.0; }, "monitors[6].max",
         "a volume or a plane"},
        {"dft region inverted", [](Json& d) { d["monitors"][5]["max"][2] = 0.4; }, "monitors[5].max[2]", ">= min z"},
        {"dft region without z", [](Json& d) { d["monitors"][5]["max"] = {2.5, 1.5}; }, "monitors[5].max",
         "[x, y, z]"},
        {"time probe without z", [](Json& d) { d["monitors"][7]["at"] = {2.0, 1.0}; }, "monitors[7].at", "[x, y, z]"},
        {"frame plane", [](Json& d) { d["run"]["frames"]["plane"] = "xw"; }, "run.frames.plane", "\"xz\""},
        {"frame position type", [](Json& d) { d["run"]["frames"]["position"] = "mid"; }, "run.frames.position",
         "number"},
        {"3D zero Lz", [](Json& d) { d["domain"]["size"][2] = 0.0; }, "domain.size[2]", "> 0"},
        {"3D courant", [](Json& d) { d["run"]["courant"] = 0.58; }, "run.courant", "1/sqrt(3)"},
        {"z boundary", [](Json& d) { d["domain"]["boundaries"]["z"] = "open"; }, "domain.boundaries.z", "\"mur\""},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        Json doc = doc3d();
        c.edit(doc);
        const ProjectError e = error_of_doc(doc);
        INFO(e.what());
        CHECK(e.file() == "case3d.glproj");
        CHECK(e.json_path() == c.path);
        CHECK(e.message().find(c.message_part) != std::string::npos);
        CHECK(std::string(e.what()).find("case3d.glproj") != std::string::npos);
    }
}

TEST_CASE("Each file of tests/data/invalid3d gives its message naming the field", "[project][3d]") {
    const fs::path dir = kSourceDir / "tests" / "data" / "invalid3d";
    std::ifstream tsv(dir / "EXPECTED.tsv");
    REQUIRE(tsv.good());
    std::string line;
    int count = 0;
    while (std::getline(tsv, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cols;
        std::stringstream row(line);
        for (std::string col; std::getline(row, col, '\t');) cols.push_back(col);
        REQUIRE(cols.size() == 3);
        INFO(cols[0] << " expecting " << cols[1] << ": " << cols[2]);
        ++count;
        try {
            load_project(dir / cols[0]);
            FAIL("no error");
        } catch (const ProjectError& e) {
            INFO(e.what());
            CHECK(e.file() == (dir / cols[0]).string());
            CHECK(e.json_path() == cols[1]);
            CHECK(e.message().find(cols[2]) != std::string::npos);
        }
    }
    CHECK(count == 12);
    // The base of the fixtures is valid (each fixture differs from it in one field).
    CHECK_NOTHROW(load_project(dir / "valid_base.glproj"));
}

TEST_CASE("check_runnable refuses exactly its list in 3D and accepts TF/SF in 2D and 3D", "[project][3d]") {
    SECTION("the full 3D project (tfsf, two-way plane sources, point dipoles, sphere/box/STEP) runs") {
        require_runnable(doc3d());
        Json d = doc3d();
        d["run"]["backend"] = "auto";
        require_runnable(d);
        d["layers"][1]["material"] = "sio2";  // poles defined but unused: fine
        require_runnable(d);
        d["sources"] = Json::array({doc3d()["sources"][1]});  // TF/SF alone
        require_runnable(d);
    }
    SECTION("CUDA backend in 3D") {
        Json d = doc3d();
        d["run"]["backend"] = "cuda";
        const ProjectError e = refusal_of(d);
        CHECK(e.file() == "run3d.glproj");
        CHECK(e.json_path() == "run.backend");
        CHECK(e.message().find("use the CPU backend") != std::string::npos);
    }
    SECTION("3D mode plane source: runnable (GoLightly 0.3, test_mode_monitor3d.cpp)") {
        Json d = doc3d();
        d["sources"][2]["profile"] = "mode";
        d["sources"][2]["direction"] = "+x";
        require_runnable(d);
    }
    SECTION("3D region source") {
        Json d = doc3d();
        d["sources"].push_back(Json::parse(R"({"name": "paint", "type": "region", "component": "Ez",
            "shape": {"type": "rectangle", "min": [1, 1], "max": [1.2, 1.2]}})"));
        const ProjectError e = refusal_of(d);
        CHECK(e.json_path() == "sources[4].type");
        CHECK(e.message().find("region sources are not supported in 3D yet") != std::string::npos);
    }
    SECTION("3D one-way uniform/gaussian plane source: runnable (test_oneway3d.cpp)") {
        for (int k : {2, 3}) {
            Json d = doc3d();
            d["sources"][k]["direction"] = "-x";
            require_runnable(d);
        }
    }
    SECTION("2D: none of the 3D refusals apply; TF/SF runs") {
        Json d = doc2d_with_3d_objects();
        d["run"]["backend"] = "cuda";
        d["layers"][2]["material"] = "au";
        d["sources"][2]["profile"] = "mode";
        d["sources"][2]["direction"] = "+x";
        d["sources"][3]["direction"] = "+x";
        d["sources"].push_back(Json::parse(R"({"name": "paint", "type": "region", "component": "Hz",
            "shape": {"type": "rectangle", "min": [1, 1], "max": [1.2, 1.2]}})"));
        require_runnable(d);
        CHECK(parse_project(d.dump(), "x").sources[1].type == SourceType::Tfsf);
    }
}

TEST_CASE("cli: check and run exit 2 for an invalid 3D file and for what 3D cannot run", "[cli][3d]") {
    TempDir tmp;
    auto cli = [&](const std::string& args, std::string& err) {
        const fs::path err_file = tmp.path / "err.txt";
        const std::string cmd = shell_quote(GOLIGHTLY_CLI_PATH) + " " + args + " </dev/null >/dev/null 2>" +
                                shell_quote(err_file.string());
        const int status = std::system(cmd.c_str());
        err = read_text(err_file);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    std::string err;
    const fs::path bad = kSourceDir / "tests" / "data" / "invalid3d" / "plane_source_two_zero_entries.glproj";
    CHECK(cli("check " + shell_quote(bad.string()), err) == 2);
    CHECK(err.find(bad.string()) != std::string::npos);
    CHECK(err.find("sources[2].size: a plane source needs exactly one zero entry") != std::string::npos);

    // A valid 3D project with backend cuda: refused before compiling, by check and run.
    Json d = doc3d();
    d["run"]["backend"] = "cuda";
    const fs::path cuda = tmp.path / "cuda3d.glproj";
    std::ofstream(cuda) << d.dump(2);
    CHECK(cli("check " + shell_quote(cuda.string()), err) == 2);
    CHECK(err.find("run.backend") != std::string::npos);
    CHECK(err.find("use the CPU backend") != std::string::npos);
    CHECK(cli("run " + shell_quote(cuda.string()) + " --out " + shell_quote((tmp.path / "out").string()), err) == 2);
    CHECK(err.find("use the CPU backend") != std::string::npos);
    // The command line's backend counts: --backend cuda on a cpu project is refused too.
    const fs::path cpu = tmp.path / "cpu3d.glproj";
    Json c = doc3d();
    c["layers"][2]["material"] = "si";
    std::ofstream(cpu) << c.dump(2);
    CHECK(cli("run " + shell_quote(cpu.string()) + " --backend cuda --out " + shell_quote((tmp.path / "o3").string()),
              err) == 2);
    CHECK(err.find("run.backend") != std::string::npos);
}

TEST_CASE("3D examples load, are runnable, and are written exactly as GoLightly saves them", "[project][3d]") {
    for (const char* name : {"strip_waveguide_3d", "sphere_scattering_3d", "strip_symmetry_3d"}) {
        INFO(name);
        const fs::path file = kSourceDir / "examples" / (std::string(name) + ".glproj");
        const Project p = load_project(file);
        CHECK(p.domain.dimensions == 3);
        CHECK(p.run.backend == BackendChoice::Cpu);
        CHECK_NOTHROW(check_runnable(p, file.string()));
        CHECK(dumped(p) == read_text(file));
    }
    // the strip: a taper with sloped sidewalls fed by a one-way gaussian plane source, its
    // normalization a straight reference-only strip
    const Project strip = load_project(kSourceDir / "examples" / "strip_waveguide_3d.glproj");
    CHECK(strip.sources.at(0).type == SourceType::Plane);
    CHECK(strip.sources.at(0).profile == SourceProfile::Gaussian);
    CHECK(one_way_direction(strip.sources.at(0)) == "+x");
    CHECK(strip.layers.at(1).sidewall_angle_deg == 10.0);
    CHECK(strip.layers.at(2).reference_only);
    CHECK(strip.run.frames.plane == "xy");
    const Project sphere = load_project(kSourceDir / "examples" / "sphere_scattering_3d.glproj");
    CHECK(sphere.sources.at(0).type == SourceType::Tfsf);
    CHECK(sphere.monitors.at(0).kind == "scattering");
    CHECK(sphere.monitors.at(1).kind == "absorption");
    // the strip on half the domain: the same project but for its symmetry plane
    Project sym = load_project(kSourceDir / "examples" / "strip_symmetry_3d.glproj");
    CHECK(sym.domain.symmetry == std::array<int, 3>{0, -1, 0});
    sym.domain.symmetry = {0, 0, 0};
    sym.name = strip.name;
    CHECK(sym == strip);
}
