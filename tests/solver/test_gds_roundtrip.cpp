// Layout round trips (issue 55, items 13 and 14): an embedded GDS (or STEP) file is stored
// once in the project however many layers use it, the old per-shape form still reads, a
// save never writes a file the loader refuses; GDS export leaves out reference-only layers,
// refuses a layer without a GDS layer (naming it), writes 3D boxes and spheres as their
// footprint within each layer's z range, and honours a shape's database unit override.
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>

#include "golightly/errors.hpp"
#include "golightly/gds.hpp"
#include "golightly/geometry.hpp"
#include "golightly/image_io.hpp"
#include "golightly/limits.hpp"
#include "golightly/project.hpp"
#include "project_builders.hpp"
#include "gds_test_files.hpp"

namespace fs = std::filesystem;
using namespace golightly;
using golightly::test::material;
using golightly::test::gds_files::data_dir;
using golightly::test::gds_files::ring_area;
namespace gds_files = golightly::test::gds_files;

namespace {

struct TmpDir {
    fs::path path;
    TmpDir() {
        path = fs::temp_directory_path() / ("golightly_gds_rt_" + std::to_string(std::random_device{}()));
        fs::create_directories(path);
    }
    ~TmpDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
    return n;
}

Project base_project(double lx, double ly, double lz, double dx, int dims) {
    return gds_files::base_project(lx, ly, lz, dx, dims, "gds round trip");
}

double area_of(const std::vector<std::vector<Vec2>>& rings) {
    double a = 0;
    for (const auto& r : rings) a += std::abs(ring_area(r));
    return a;
}

/// A GDSII stream of `layers` layers (1/0 .. layers/0) of `per_layer` 1 x 1 um squares each.
std::vector<std::uint8_t> big_layout(int layers, int per_layer) {
    std::vector<gds::WriteLayer> out;
    for (int l = 1; l <= layers; ++l) {
        gds::WriteLayer w;
        w.layer = l;
        for (int k = 0; k < per_layer; ++k) {
            const double x = 2.0 * (k % 500), y = 2.0 * (k / 500) + 0.001 * l;
            w.polygons.push_back({{x, y}, {x + 1, y}, {x + 1, y + 1}, {x, y + 1}});
        }
        out.push_back(std::move(w));
    }
    return gds::write("BIG", out);
}

}  // namespace

TEST_CASE("Embedded files: a 6 MB GDS imported into 9 layers is stored once and the project reopens", "[gds][project]") {
    TmpDir tmp;
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<std::uint8_t> bytes = big_layout(9, 10000);  // 9 x 10000 boundaries of 64 bytes
    {
        std::ofstream f(tmp.path / "big.gds", std::ios::binary);
        f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    std::printf("layout: %.2f MB\n", bytes.size() / 1e6);
    REQUIRE(bytes.size() > 5'500'000);
    Project p = base_project(2000, 100, 0, 0.5, 2);
    for (int l = 1; l <= 9; ++l) {
        Layer L;
        L.name = "gds " + std::to_string(l);
        L.material = "si";
        L.gds_layer = std::array<int, 2>{l, 0};
        L.shapes = {make_gds_shape(tmp.path / "big.gds", "", {l, 0})};
        p.layers.push_back(L);
    }
    const std::string& b64 = p.layers[0].shapes[0].data_base64;
    // Stored inline per shape, as before the table, the file would be 9 copies: more than
    // the loader reads.
    REQUIRE(9 * b64.size() > limits::kMaxProjectFileBytes);
    CHECK(save_size_problem(p).empty());
    save_project(p, tmp.path / "big.glproj");
    const std::string text = read_text(tmp.path / "big.glproj");
    std::printf("saved project: %.2f MB (the base64 file %.2f MB)\n", text.size() / 1e6, b64.size() / 1e6);
    CHECK(count_of(text, b64) == 1);
    CHECK(text.size() < b64.size() + 100'000);
    CHECK(saved_project_bytes(p) == text.size());
    const Project q = load_project(tmp.path / "big.glproj");  // reopens
    CHECK(q.layers == p.layers);
    // a second save is byte-identical
    save_project(q, tmp.path / "again.glproj");
    CHECK(read_text(tmp.path / "again.glproj") == text);
    std::printf("6 MB x 9 layers: %.2f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

TEST_CASE("Embedded files: the table's JSON, the old per-shape form, and bad references", "[gds][project]") {
    Project p = base_project(60, 60, 0, 0.1, 2);
    Layer a;
    a.name = "wg";
    a.material = "si";
    a.gds_layer = std::array<int, 2>{1, 0};
    a.shapes = {make_gds_shape(data_dir() / "layout.gds", "TOP", {1, 0})};
    Layer b = a;
    b.name = "trench";
    b.gds_layer = std::array<int, 2>{1, 5};
    b.shapes = {make_gds_shape(data_dir() / "layout.gds", "TOP", {1, 5})};
    Layer c = a;
    c.name = "units";
    c.gds_layer = std::array<int, 2>{2, 0};
    c.shapes = {make_gds_shape(data_dir() / "units_5nm.gds", "ULEAF", {1, 0})};
    p.layers = {a, b, c};
    const Json j = project_to_json(p);
    REQUIRE(j.contains("embedded_files"));
    const Json& files = j["embedded_files"];
    REQUIRE(files.size() == 2);  // two distinct files for three shapes
    CHECK(files[0]["file_name"] == "layout.gds");
    CHECK(files[0]["data"] == a.shapes[0].data_base64);
    CHECK(files[0]["id"].get<std::string>().size() == 16);
    CHECK(files[1]["file_name"] == "units_5nm.gds");
    const Json& s0 = j["layers"][0]["shapes"][0];
    CHECK(!s0.contains("data"));
    CHECK(s0["file"] == files[0]["id"]);
    CHECK(j["layers"][1]["shapes"][0]["file"] == files[0]["id"]);
    CHECK(j["layers"][2]["shapes"][0]["file"] == files[1]["id"]);
    CHECK(parse_project(j.dump(), "t.glproj").layers == p.layers);

    // the old form: data in every shape, still read (and written back in the new form)
    Json old = j;
    old.erase("embedded_files");
    for (auto& L : old["layers"])
        for (auto& s : L["shapes"]) {
            const std::string id = s["file"].get<std::string>();
            s.erase("file");
            for (const auto& f : files)
                if (f["id"] == id) s["data"] = f["data"];
        }
    CHECK(parse_project(old.dump(), "old.glproj").layers == p.layers);

    const auto error_of = [](const Json& doc) -> std::string {
        try {
            (void)parse_project(doc.dump(), "bad.glproj");
        } catch (const ProjectError& e) {
            return e.what();
        }
        return "no error";
    };
    {  // a `file` the table does not hold
        Json d = j;
        d["layers"][1]["shapes"][0]["file"] = "nope";
        const std::string e = error_of(d);
        CHECK(e.find("bad.glproj") != std::string::npos);
        CHECK(e.find("layers[1].shapes[0].file") != std::string::npos);
        CHECK(e.find("nope") != std::string::npos);
    }
    {  // both data and file
        Json d = j;
        d["layers"][0]["shapes"][0]["data"] = files[0]["data"];
        CHECK(error_of(d).find("layers[0].shapes[0].data") != std::string::npos);
    }
    {  // neither
        Json d = j;
        d["layers"][0]["shapes"][0].erase("file");
        const std::string e = error_of(d);
        CHECK(e.find("layers[0].shapes[0].data") != std::string::npos);
        CHECK(e.find("required") != std::string::npos);
    }
    {  // an id twice
        Json d = j;
        d["embedded_files"][1]["id"] = files[0]["id"];
        CHECK(error_of(d).find("embedded_files[1].id") != std::string::npos);
    }
    {  // an entry over the embedded-file limit is refused before anything is decoded
        Json d = j;
        d["embedded_files"][1]["data"] = std::string(limits::kMaxStepBytes / 3 * 4 + 8, 'A');
        CHECK(error_of(d).find("embedded_files[1].data") != std::string::npos);
    }
    // STEP shapes share the table
    Layer st;
    st.name = "part";
    st.material = "si";
    Shape step;
    step.type = ShapeType::Step;
    step.file_name = "p.step";
    step.data_base64 = "SVNPLTEwMzAzLTIxOw==";
    st.shapes = {step, step};
    p.layers.push_back(st);
    const Json k = project_to_json(p);
    CHECK(k["embedded_files"].size() == 3);
    CHECK(k["layers"][3]["shapes"][0]["file"] == k["layers"][3]["shapes"][1]["file"]);
    CHECK(parse_project(k.dump(), "t.glproj").layers == p.layers);
}

TEST_CASE("Saving refuses a project larger than the loader reads, naming its embedded files", "[gds][project]") {
    TmpDir tmp;
    Project p = base_project(60, 60, 0, 0.1, 2);
    // two different 33 MiB (base64) files: 66 MiB together, over the 64 MiB a project may have
    for (int k = 0; k < 2; ++k) {
        Layer L;
        L.name = "big " + std::to_string(k);
        L.material = "si";
        L.gds_layer = std::array<int, 2>{k + 1, 0};
        Shape s;
        s.type = ShapeType::Gds;
        s.file_name = "chip" + std::to_string(k) + ".gds";
        s.data_base64 = std::string(33u << 20, char('A' + k));
        s.gds_layer = {k + 1, 0};
        L.shapes = {s};
        p.layers.push_back(std::move(L));
    }
    std::string what;
    try {
        save_project(p, tmp.path / "too_big.glproj");
    } catch (const std::runtime_error& e) {
        what = e.what();
    }
    INFO(what);
    CHECK(what.find("too_big.glproj") != std::string::npos);
    CHECK(what.find("more than the 64.0 MiB GoLightly opens") != std::string::npos);
    CHECK(what.find("chip0.gds") != std::string::npos);
    CHECK(what.find("'big 1'") != std::string::npos);
    CHECK(what.find("Remove the shapes") != std::string::npos);
    CHECK(!fs::exists(tmp.path / "too_big.glproj"));
    CHECK(std::distance(fs::directory_iterator(tmp.path), fs::directory_iterator{}) == 0);  // no temporary left
    // the same file in both layers: stored once, it fits
    p.layers[1].shapes[0].data_base64 = p.layers[0].shapes[0].data_base64;
    CHECK(save_size_problem(p).empty());
}

TEST_CASE("GDS export leaves out reference-only layers and refuses a layer without a GDS layer", "[gds]") {
    Project p = base_project(20, 20, 0, 0.05, 2);
    Shape rect;
    rect.type = ShapeType::Rectangle;
    rect.min = {1, 1}, rect.max = {3, 2};
    Layer wg;
    wg.name = "wg";
    wg.material = "si";
    wg.gds_layer = std::array<int, 2>{1, 0};
    wg.shapes = {rect};
    Layer ref = wg;  // the normalization's straight guide: not part of the layout
    ref.name = "straight reference";
    ref.reference_only = true;
    ref.gds_layer = std::array<int, 2>{9, 0};
    Layer empty;  // nothing to write: needs no number
    empty.name = "empty";
    empty.material = "si";
    p.layers = {wg, ref, empty};
    const GdsExport ex = export_gds(p, "TOP", "r.glproj");
    const gds::Library lib = gds::read(ex.bytes);
    CHECK(gds::cell_layers(lib, "TOP") == std::vector<std::array<int, 2>>{{1, 0}});
    REQUIRE(ex.warnings.size() == 1);
    CHECK(ex.warnings[0].find("'straight reference'") != std::string::npos);
    CHECK(gds_export_layers(p) == std::vector<std::size_t>{0});

    // a reference-only layer without a number is no obstacle either
    p.layers[1].gds_layer.reset();
    CHECK_NOTHROW(export_gds(p, "TOP", "r.glproj"));
    // a layer with shapes and no gds_layer: refused, naming the layer (never 1/0 silently)
    Layer drawn = wg;
    drawn.name = "heater";
    drawn.gds_layer.reset();
    p.layers.push_back(drawn);
    CHECK(gds_layers_without_number(p) == std::vector<std::size_t>{3});
    std::string what, field;
    try {
        (void)export_gds(p, "TOP", "r.glproj");
    } catch (const ProjectError& e) {
        what = e.what();
    }
    INFO(what);
    CHECK(what.find("r.glproj") != std::string::npos);
    CHECK(what.find("layers[3].gds_layer") != std::string::npos);
    CHECK(what.find("'heater'") != std::string::npos);
    p.layers[3].gds_layer = std::array<int, 2>{2, 0};
    CHECK(gds::cell_layers(gds::read(export_gds(p, "TOP", "r.glproj").bytes), "TOP") ==
          std::vector<std::array<int, 2>>{{1, 0}, {2, 0}});
}

TEST_CASE("GDS export in 3D: boxes and spheres as their footprint within the layer's z range", "[gds][3d]") {
    Project p = base_project(20, 20, 4, 0.05, 3);
    p.domain.slice_z = 0;  // the old export cut every solid here
    const double dx = p.domain.cell_size, tol = std::max(1e-3 * dx, 1e-6);
    Layer slab;
    slab.name = "slab";
    slab.material = "si";
    slab.z = std::array<double, 2>{1.0, 1.22};
    slab.gds_layer = std::array<int, 2>{1, 0};
    Shape sphere;  // centre below the slab: its largest section in [1, 1.22] is at z = 1
    sphere.type = ShapeType::Sphere;
    sphere.center_3d = {5, 5, 0.7};
    sphere.radius = 1.0;
    Shape box;  // z 0.9..1.1: overlaps the slab
    box.type = ShapeType::Box;
    box.box_min = {10, 10, 0.9};
    box.box_max = {12, 11, 1.1};
    Shape above;  // z 2..3: outside the slab
    above.type = ShapeType::Box;
    above.box_min = {14, 14, 2};
    above.box_max = {15, 15, 3};
    slab.shapes = {sphere, box, above};
    Layer whole;  // no z: the domain's height, 0..4; the sphere's equator lies inside
    whole.name = "whole";
    whole.material = "sin";
    whole.gds_layer = std::array<int, 2>{2, 0};
    whole.shapes = {sphere};
    p.layers = {slab, whole};
    const GdsExport ex = export_gds(p, "TOP", "s3.glproj");
    std::string warnings;
    for (const auto& w : ex.warnings) warnings += w + "\n";
    INFO(warnings);
    CHECK(warnings.find("layers[0].shapes[2]: the box lies outside its layer's z range") != std::string::npos);
    CHECK(warnings.find("layers[0].shapes[0]: a sphere has no GDSII form; written as its largest section") != std::string::npos);
    const gds::Library lib = gds::read(ex.bytes);
    const gds::Geometry g1 = gds::flatten(lib, "TOP", {1, 0});
    REQUIRE(g1.polygons.size() == 2);  // the sphere's disc and the box's rectangle
    // the disc at z = 1: radius sqrt(1 - 0.3^2) = 0.954 (the cut at z = 0 has 0.714)
    const double r1 = std::sqrt(1.0 - 0.3 * 0.3);
    // discretized to the sagitta tol and rounded to 1 nm: area within perimeter * (tol + nm)
    const auto disc_ok = [&](const std::vector<Vec2>& ring, double r) {
        const double a = std::abs(ring_area(ring)), want = std::numbers::pi * r * r;
        const double bound = 2 * std::numbers::pi * r * (tol + 0.5e-3 * std::sqrt(2.0));
        std::printf("sphere section: area %.6f, pi r^2 %.6f (r %.6f), bound %.2e\n", a, want, r, bound);
        return std::abs(a - want) <= bound;
    };
    CHECK(disc_ok(g1.polygons[0], r1));
    CHECK(std::abs(ring_area(g1.polygons[1])) == Approx(2.0).epsilon(1e-9));  // 2 x 1 um
    const gds::Geometry g2 = gds::flatten(lib, "TOP", {2, 0});
    REQUIRE(g2.polygons.size() == 1);
    CHECK(disc_ok(g2.polygons[0], 1.0));  // the equator, not the cut at z = 0
    // a slab through the centre: the equator
    p.layers[0].z = std::array<double, 2>{0.6, 0.8};
    CHECK(disc_ok(gds::flatten(gds::read(export_gds(p, "TOP", "s3.glproj").bytes), "TOP", {1, 0}).polygons[0], 1.0));
    // in 2D the cut the run sees stays: slice_z
    Project flat = p;
    flat.domain.dimensions = 2;
    flat.domain.size[2] = 0;
    flat.domain.slice_z = 0.7;
    flat.layers[0].z.reset();
    flat.layers[0].shapes = {sphere};
    const gds::Geometry g2d = gds::flatten(gds::read(export_gds(flat, "TOP", "s2.glproj").bytes), "TOP", {1, 0});
    REQUIRE(g2d.polygons.size() == 1);
    CHECK(disc_ok(g2d.polygons[0], 1.0));
}

TEST_CASE("GDS shapes: db_unit_um reads a file with another database unit", "[gds][project]") {
    Project p = base_project(200, 200, 0, 0.1, 2);
    Layer l;
    l.name = "wg";
    l.material = "si";
    l.gds_layer = std::array<int, 2>{1, 0};
    l.shapes = {make_gds_shape(data_dir() / "layout.gds", "TOP", {1, 0})};  // 1 nm units
    p.layers = {l};
    const double a1 = area_of(gds_shape_polygons(p.layers[0].shapes[0]));
    p.layers[0].shapes[0].gds_db_unit_um = 2e-3;  // a file whose coordinates are in 2 nm
    const double a2 = area_of(gds_shape_polygons(p.layers[0].shapes[0]));
    CHECK(a2 == Approx(4 * a1).epsilon(1e-12));
    const Json j = project_to_json(p);
    CHECK(j["layers"][0]["shapes"][0]["db_unit_um"] == 2e-3);
    CHECK(parse_project(j.dump(), "u.glproj").layers == p.layers);
    // export: the override is the shape's unit
    CHECK(export_gds(p, "TOP", "u.glproj").db_unit_um == Approx(2e-3).epsilon(1e-12));
    Json bad = j;
    bad["layers"][0]["shapes"][0]["db_unit_um"] = 0;
    try {
        (void)parse_project(bad.dump(), "u.glproj");
        FAIL("no error");
    } catch (const ProjectError& e) {
        CHECK(std::string(e.what()).find("layers[0].shapes[0].db_unit_um") != std::string::npos);
    }
}

TEST_CASE("golightly-cli export-gds refuses a layer without gds_layer, naming it", "[gds][cli]") {
    TmpDir tmp;
    Project p = base_project(20, 20, 0, 0.05, 2);
    Shape rect;
    rect.type = ShapeType::Rectangle;
    rect.min = {1, 1}, rect.max = {3, 2};
    Layer l;
    l.name = "heater";
    l.material = "si";
    l.shapes = {rect};
    p.layers = {l};
    save_project(p, tmp.path / "nolayer.glproj");
    const std::string cmd = std::string("'") + GOLIGHTLY_CLI_PATH + "' export-gds '" + (tmp.path / "nolayer.glproj").string() +
                            "' --out '" + (tmp.path / "o.gds").string() + "' >'" + (tmp.path / "out.txt").string() + "' 2>'" +
                            (tmp.path / "err.txt").string() + "' </dev/null";
    const int status = std::system(cmd.c_str());
    const std::string err = read_text(tmp.path / "err.txt");
    INFO(err);
    CHECK((WIFEXITED(status) ? WEXITSTATUS(status) : -1) == 2);
    CHECK(err.find("layers[0].gds_layer") != std::string::npos);
    CHECK(err.find("'heater'") != std::string::npos);
    CHECK(!fs::exists(tmp.path / "o.gds"));
}
