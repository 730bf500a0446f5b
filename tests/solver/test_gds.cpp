// GDSII layouts (spec "GDSII layouts"): import of files written by an independent tool
// (gdspy; tests/data/gds/make_fixtures.py wrote layout.gds and its figures layout.json),
// the round trip import -> export -> import, `gds` shapes in 2D and 3D coverage, layer
// maps, the project format, malformed streams, and golightly-cli export-gds.
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/gds.hpp"
#include "golightly/geometry.hpp"
#include "golightly/image_io.hpp"
#include "golightly/project.hpp"
#include "optional_features.hpp"
#include "project_builders.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;
using namespace golightly;
using golightly::test::material;

namespace {

fs::path data_dir() { return fs::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "gds"; }

std::vector<std::uint8_t> read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

nlohmann::json figures() {
    std::ifstream in(data_dir() / "layout.json");
    REQUIRE(in);
    return nlohmann::json::parse(in);
}

double ring_area(const std::vector<Vec2>& r) {
    double a = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
        const Vec2 p = r[k], q = r[(k + 1) % r.size()];
        a += p.x * q.y - p.y * q.x;
    }
    return 0.5 * a;
}

/// Polygons of a flattened geometry: boundaries and path outlines.
std::vector<std::vector<Vec2>> polygons_of(const gds::Geometry& g) {
    std::vector<std::vector<Vec2>> out = g.polygons;
    for (const auto& p : g.paths) out.push_back(gds::path_polygon(p));
    return out;
}

std::array<int, 2> parse_key(const std::string& key) {
    const auto slash = key.find('/');
    return {std::stoi(key.substr(0, slash)), std::stoi(key.substr(slash + 1))};
}

Project base_project(double lx, double ly, double lz, double dx, int dims) {
    Project p;
    p.name = "gds test";
    p.domain.dimensions = dims;
    p.domain.size = {lx, ly, lz};
    p.domain.cell_size = dx;
    p.materials = {material("air", 1.0), material("si", 12.0), material("sin", 4.0)};
    return p;
}

Shape gds_shape(const std::string& cell, std::array<int, 2> layer, Vec2 translate = {0, 0}) {
    Shape s = make_gds_shape(data_dir() / "layout.gds", cell, layer);
    s.translate = {translate.x, translate.y, 0};
    return s;
}

/// The vertices of two flattened geometries agree within tol (um), element by element.
double max_vertex_deviation(const gds::Geometry& a, const gds::Geometry& b) {
    REQUIRE(a.polygons.size() == b.polygons.size());
    REQUIRE(a.paths.size() == b.paths.size());
    double dev = 0;
    for (std::size_t k = 0; k < a.polygons.size(); ++k) {
        REQUIRE(a.polygons[k].size() == b.polygons[k].size());
        for (std::size_t v = 0; v < a.polygons[k].size(); ++v)
            dev = std::max({dev, std::abs(a.polygons[k][v].x - b.polygons[k][v].x),
                            std::abs(a.polygons[k][v].y - b.polygons[k][v].y)});
    }
    for (std::size_t k = 0; k < a.paths.size(); ++k) {
        REQUIRE(a.paths[k].points.size() == b.paths[k].points.size());
        CHECK(a.paths[k].pathtype == b.paths[k].pathtype);
        dev = std::max({dev, std::abs(a.paths[k].width - b.paths[k].width),
                        std::abs(a.paths[k].begin_extension - b.paths[k].begin_extension),
                        std::abs(a.paths[k].end_extension - b.paths[k].end_extension)});
        for (std::size_t v = 0; v < a.paths[k].points.size(); ++v)
            dev = std::max({dev, std::abs(a.paths[k].points[v].x - b.paths[k].points[v].x),
                            std::abs(a.paths[k].points[v].y - b.paths[k].points[v].y)});
    }
    return dev;
}

/// Big-endian u16 at byte `at`.
void put16(std::vector<std::uint8_t>& b, std::size_t at, unsigned v) {
    b[at] = std::uint8_t(v >> 8);
    b[at + 1] = std::uint8_t(v & 0xFF);
}

/// Byte offsets of every record of type `rt` in a well-formed stream.
std::vector<std::size_t> records(const std::vector<std::uint8_t>& b, std::uint8_t rt) {
    std::vector<std::size_t> out;
    for (std::size_t pos = 0; pos + 4 <= b.size();) {
        const std::size_t len = (std::size_t(b[pos]) << 8) | b[pos + 1];
        if (b[pos + 2] == rt) out.push_back(pos);
        if (b[pos + 2] == 0x04 || len < 4) break;
        pos += len;
    }
    return out;
}

std::string gds_error(const std::vector<std::uint8_t>& bytes) {
    try {
        const gds::Library lib = gds::read(bytes);
        for (const std::string& c : gds::top_cells(lib))
            for (const auto& l : gds::cell_layers(lib, c)) (void)polygons_of(gds::flatten(lib, c, l));
    } catch (const std::exception& e) {  // GdsError; std::invalid_argument from a degenerate path
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("GDS import: areas and bounding boxes match gdspy's own figures", "[gds]") {
    const nlohmann::json fig = figures();
    const gds::Library lib = gds::read(read_bytes(data_dir() / "layout.gds"));
    CHECK(lib.um_per_db() == Approx(1e-3).epsilon(1e-12));
    const auto tops = gds::top_cells(lib);
    REQUIRE(tops == std::vector<std::string>{"TOP"});
    double worst_area = 0, worst_bbox = 0;
    int checked = 0;
    for (const auto& [cell, layers] : fig["cells"].items()) {
        // the layer/datatype pairs found agree with the tool's
        std::vector<std::array<int, 2>> expected;
        for (const auto& [key, _] : layers.items()) expected.push_back(parse_key(key));
        std::sort(expected.begin(), expected.end());
        CHECK(gds::cell_layers(lib, cell) == expected);
        for (const auto& [key, f] : layers.items()) {
            const gds::Geometry g = gds::flatten(lib, cell, parse_key(key));
            const auto polys = polygons_of(g);
            double area = 0, x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
            for (const auto& r : polys) {
                area += std::abs(ring_area(r));
                for (const Vec2& v : r) x0 = std::min(x0, v.x), y0 = std::min(y0, v.y), x1 = std::max(x1, v.x), y1 = std::max(y1, v.y);
            }
            const double ref_area = f["area"].get<double>();
            const auto& bb = f["bbox"];
            const double diag = std::hypot(bb[1][0].get<double>() - bb[0][0].get<double>(), bb[1][1].get<double>() - bb[0][1].get<double>());
            const double area_err = std::abs(area - ref_area) / ref_area;
            const double bbox_err = std::max({std::abs(x0 - bb[0][0].get<double>()), std::abs(y0 - bb[0][1].get<double>()),
                                              std::abs(x1 - bb[1][0].get<double>()), std::abs(y1 - bb[1][1].get<double>())}) / diag;
            std::printf("gds %-5s %-4s (%-7s): %2zu elements, area %.9f (ref %.9f, rel err %.2e), bbox err %.2e of the diagonal\n",
                        cell.c_str(), key.c_str(), f["source"].get<std::string>().c_str(), polys.size(), area, ref_area,
                        area_err, bbox_err);
            CHECK(int(polys.size()) == f["count"].get<int>());
            CHECK(area_err < 1e-6);
            CHECK(bbox_err < 1e-6);
            worst_area = std::max(worst_area, area_err);
            worst_bbox = std::max(worst_bbox, bbox_err);
            ++checked;
        }
    }
    std::printf("gds import: %d cell/layer figures, worst area error %.2e, worst bbox error %.2e (relative)\n", checked,
                worst_area, worst_bbox);
    CHECK(checked >= 16);
}

TEST_CASE("GDS import: database units of 5 nm and 0.25 nm, ABSMAG/ABSANGLE references, against gdspy", "[gds]") {
    // tests/data/gds/units_*.gds and units.json (make_fixtures.py, units_fixture): user unit
    // 1 nm with a 5 nm database unit, and 1 um with 0.25 nm; an SREF with ABSMAG and
    // ABSANGLE inside a cell placed at 45 degrees and magnification 2 (a reader that
    // combined them would give UTOP's 1/0 area 37.5625 + 1.5025 instead of + 0.3756).
    std::ifstream in(data_dir() / "units.json");
    REQUIRE(in);
    const nlohmann::json all = nlohmann::json::parse(in);
    int checked = 0;
    double worst_area = 0, worst_bbox = 0;
    for (const auto& [file, fig] : all.items()) {
        const gds::Library lib = gds::read(read_bytes(data_dir() / file));
        CHECK(lib.um_per_db() == Approx(fig["um_per_db"].get<double>()).epsilon(1e-12));
        CHECK(lib.user_units_per_db == Approx(fig["precision"].get<double>() / fig["unit"].get<double>()).epsilon(1e-12));
        CHECK(gds::top_cells(lib) == std::vector<std::string>{"UTOP"});
        for (const auto& [cell, layers] : fig["cells"].items())
            for (const auto& [key, f] : layers.items()) {
                const auto polys = polygons_of(gds::flatten(lib, cell, parse_key(key)));
                double area = 0, x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
                for (const auto& r : polys) {
                    area += std::abs(ring_area(r));
                    for (const Vec2& v : r) x0 = std::min(x0, v.x), y0 = std::min(y0, v.y), x1 = std::max(x1, v.x), y1 = std::max(y1, v.y);
                }
                const auto& bb = f["bbox"];
                const double ref_area = f["area"].get<double>();
                const double area_err = std::abs(area - ref_area) / ref_area;
                const double diag = std::hypot(bb[1][0].get<double>() - bb[0][0].get<double>(), bb[1][1].get<double>() - bb[0][1].get<double>());
                const double bbox_err = std::max({std::abs(x0 - bb[0][0].get<double>()), std::abs(y0 - bb[0][1].get<double>()),
                                                  std::abs(x1 - bb[1][0].get<double>()), std::abs(y1 - bb[1][1].get<double>())}) / diag;
                std::printf("gds %-16s %-5s %-3s: %zu elements, area %.9f um^2 (gdspy %.9f, rel err %.1e), bbox err %.1e\n",
                            file.c_str(), cell.c_str(), key.c_str(), polys.size(), area, ref_area, area_err, bbox_err);
                CHECK(int(polys.size()) == f["count"].get<int>());
                CHECK(area_err < 1e-6);
                CHECK(bbox_err < 1e-6);
                worst_area = std::max(worst_area, area_err);
                worst_bbox = std::max(worst_bbox, bbox_err);
                ++checked;
            }
    }
    std::printf("gds units: %d figures, worst relative area error %.1e, bbox error %.1e\n", checked, worst_area, worst_bbox);
    CHECK(checked == 18);
}

TEST_CASE("GDS import: path end types and joins", "[gds]") {
    gds::Path p;
    p.points = {{0, 0}, {4, 0}, {4, 3}};
    p.width = 0.5;
    const double L = 7, w = 0.5;
    p.pathtype = 0;
    CHECK(ring_area(gds::path_polygon(p)) == Approx(w * L).epsilon(1e-14));
    p.pathtype = 2;  // square ends: w/2 added at each end
    CHECK(ring_area(gds::path_polygon(p)) == Approx(w * (L + w)).epsilon(1e-14));
    p.pathtype = 4;
    p.begin_extension = 0.3, p.end_extension = -0.1;
    CHECK(ring_area(gds::path_polygon(p)) == Approx(w * (L + 0.2)).epsilon(1e-14));
    p.pathtype = 1;  // round: half discs of exact area
    const double round_area = ring_area(gds::path_polygon(p));
    std::printf("round-ended path: area %.15f, exact %.15f\n", round_area, w * L + std::acos(-1.0) * w * w / 4);
    CHECK(round_area == Approx(w * L + std::acos(-1.0) * w * w / 4).epsilon(1e-13));
    p.points = {{0, 0}, {1, 0}, {0, 0}};
    CHECK_THROWS_AS(gds::path_polygon(p), std::invalid_argument);
}

TEST_CASE("GDS round trip: import -> export -> import keeps every vertex", "[gds]") {
    const gds::Library lib = gds::read(read_bytes(data_dir() / "layout.gds"));
    std::vector<gds::WriteLayer> layers;
    std::vector<gds::Geometry> first;
    for (const auto& l : gds::cell_layers(lib, "TOP")) {
        first.push_back(gds::flatten(lib, "TOP", l));
        layers.push_back({l[0], l[1], first.back().polygons, first.back().paths});
    }
    const auto bytes = gds::write("ROUNDTRIP", layers);
    const gds::Library back = gds::read(bytes);
    REQUIRE(gds::top_cells(back) == std::vector<std::string>{"ROUNDTRIP"});
    REQUIRE(gds::cell_layers(back, "ROUNDTRIP") == gds::cell_layers(lib, "TOP"));
    double dev = 0;
    std::size_t vertices = 0;
    std::vector<gds::WriteLayer> again;
    for (std::size_t k = 0; k < layers.size(); ++k) {
        const gds::Geometry g = gds::flatten(back, "ROUNDTRIP", {layers[k].layer, layers[k].datatype});
        dev = std::max(dev, max_vertex_deviation(first[k], g));
        for (const auto& r : g.polygons) vertices += r.size();
        for (const auto& p : g.paths) vertices += p.points.size();
        again.push_back({layers[k].layer, layers[k].datatype, g.polygons, g.paths});
    }
    std::printf("gds round trip: %zu vertices, largest deviation %.3e um (the 1 nm database grid: at most 5e-4)\n", vertices, dev);
    CHECK(dev <= 0.5e-3 + 1e-9);  // rotated references land off the nm grid: rounded once
    CHECK(vertices > 100);
    // A second trip changes nothing: the stream is reproduced byte for byte.
    CHECK(gds::write("ROUNDTRIP", again) == bytes);
}

TEST_CASE("GDS shapes: the project's coverage takes the flattened polygons, in 2D and 3D", "[gds][3d]") {
    const nlohmann::json fig = figures();
    const double ref = fig["cells"]["TOP"]["1/0"]["area"].get<double>();  // 52.375
    {  // 2D: exact areas through the polygon coverage (TOP spans x 10..41.5, y -20.4..14.6)
        Project p = base_project(50, 40, 0, 0.1, 2);
        Layer l;
        l.name = "wg";
        l.material = "si";
        l.gds_layer = std::array<int, 2>{1, 0};
        l.shapes = {gds_shape("TOP", {1, 0}, {0, 22})};
        p.layers = {l};
        const auto areas = material_areas_um2(p, 0.1, false);
        std::printf("gds 2D coverage: si area %.9f um^2, gdspy %.9f (rel err %.2e)\n", areas.at("si"), ref,
                    std::abs(areas.at("si") - ref) / ref);
        CHECK(areas.at("si") == Approx(ref).epsilon(1e-9));
        // a placement: rotated by 90 degrees about the origin, moved back into the domain
        p.layers[0].shapes[0].rotation_deg = 90;
        p.layers[0].shapes[0].translate = {25, -5, 0};
        CHECK(material_areas_um2(p, 0.1, false).at("si") == Approx(ref).epsilon(1e-9));
    }
    {  // 3D: extruded over the layer's z range; a second layer from the same file
        Project p = base_project(50, 40, 1.0, 0.25, 3);
        Layer a;
        a.name = "wg";
        a.material = "si";
        a.z = std::array<double, 2>{0.2, 0.42};
        a.shapes = {gds_shape("TOP", {1, 0}, {0, 22})};
        Layer b = a;
        b.name = "tri";
        b.material = "sin";
        b.z = std::array<double, 2>{0.5, 0.83};
        b.shapes = {gds_shape("TOP", {1, 5}, {0, 22})};
        p.layers = {a, b};
        const auto vol = material_volumes_um3(p, 0.25, false);
        const double ref5 = fig["cells"]["TOP"]["1/5"]["area"].get<double>();
        std::printf("gds 3D coverage: si %.9f um^3 (expected %.9f), sin %.9f um^3 (expected %.9f)\n", vol.at("si"),
                    ref * 0.22, vol.at("sin"), ref5 * 0.33);
        CHECK(vol.at("si") == Approx(ref * 0.22).epsilon(1e-6));
        CHECK(vol.at("sin") == Approx(ref5 * 0.33).epsilon(1e-6));
    }
}

TEST_CASE("GDS shapes in 3D: sloped sidewalls extrude frustums of the analytic volume", "[gds][3d]") {
    // A layer's sidewall_angle_deg moves every edge inward by (z - z0) tan(angle) (spec,
    // "Layers"): the section at height h of a polygon of area A and perimeter P has area
    //   A(d) = A - P d + d^2 sum_i cot(theta_i / 2),   d = h tan(angle)
    // (theta_i the interior angles; miter offsets, no edge collapsing). For a rectilinear
    // polygon sum cot(theta_i / 2) = (#convex - #reflex) = 4; for a triangle the section is
    // the triangle scaled about its incentre, A (1 - d / r)^2 with r = 2 A / P. So
    //   V_L = A H - P t H^2 / 2 + 4 t^2 H^3 / 3,   V_tri = A H (1 - t H / r + (t H / r)^2 / 3).
    // LEAF (tests/data/gds/layout.gds): the L of 1/0 (A = 1.5, P = 7) and the triangle of 1/5
    // (2,0) (3,0) (2.5,1.2) (A = 0.6, P = 3.6).
    const double H = 0.3, angle = 20, t = std::tan(angle * M_PI / 180);
    const double V_L = 1.5 * H - 7.0 * t * H * H / 2 + 4 * t * t * H * H * H / 3;
    const double r = 2 * 0.6 / 3.6, q = t * H / r;
    const double V_tri = 0.6 * H * (1 - q + q * q / 3);
    Project p = base_project(4, 3, 0.5, 0.05, 3);
    Layer a;
    a.name = "L";
    a.material = "si";
    a.z = std::array<double, 2>{0.1, 0.1 + H};
    a.sidewall_angle_deg = angle;
    a.shapes = {gds_shape("LEAF", {1, 0}, {0.5, 0.5})};
    Layer b = a;
    b.name = "triangle";
    b.material = "sin";
    b.shapes = {gds_shape("LEAF", {1, 5}, {0.5, 0.5})};
    p.layers = {a, b};
    const auto vol = material_volumes_um3(p, 0.05, false);
    std::printf("gds sidewalls %g deg: L %.9f um^3 (analytic %.9f, vertical walls %.3f), triangle %.9f (analytic %.9f, "
                "vertical %.3f)\n",
                angle, vol.at("si"), V_L, 1.5 * H, vol.at("sin"), V_tri, 0.6 * H);
    CHECK(vol.at("si") == Approx(V_L).epsilon(1e-6));
    CHECK(vol.at("sin") == Approx(V_tri).epsilon(1e-6));
    CHECK(std::abs(V_L - 1.5 * H) > 0.2 * V_L);  // the slope matters
}

TEST_CASE("GDS shapes: overlapping elements of one shape count once", "[gds]") {
    // two overlapping squares on one layer: the union's area, not the sum
    gds::WriteLayer w{7, 0, {{{0, 0}, {2, 0}, {2, 2}, {0, 2}}, {{1, 1}, {3, 1}, {3, 3}, {1, 3}}}, {}};
    const auto bytes = gds::write("OV", {w});
    Shape s;
    s.type = ShapeType::Gds;
    s.file_name = "overlap.gds";
    s.data_base64 = base64_encode(bytes);
    s.gds_layer = {7, 0};
    s.translate = {0.55, 0.45, 0};
    Project p = base_project(4, 4, 0, 0.1, 2);
    Layer l;
    l.name = "ov";
    l.material = "si";
    l.shapes = {s};
    p.layers = {l};
    const double a = material_areas_um2(p, 0.1, false).at("si");
    std::printf("overlapping GDS squares: area %.12f (union 7)\n", a);
    CHECK(a == Approx(7.0).epsilon(1e-12));
}

TEST_CASE("GDS: the project format keeps gds shapes and gds_layer", "[gds][project]") {
    const std::string b64 = base64_encode(read_bytes(data_dir() / "layout.gds"));
    const std::string text = R"({"format": "golightly-project", "version": 1, "name": "g",
      "domain": {"size": [50, 40, 0], "cell_size": 0.1},
      "materials": [{"id": "si", "epsilon_inf": 12}],
      "layers": [{"name": "wg", "material": "si", "gds_layer": [1, 0],
                  "shapes": [{"type": "gds", "file_name": "layout.gds", "data": ")" + b64 + R"(", "cell": "TOP",
                              "translate": [0, 22], "rotate_deg": 0}]},
                 {"name": "tri", "material": "si", "gds_layer": [1, 5],
                  "shapes": [{"type": "gds", "file_name": "layout.gds", "data": ")" + b64 + R"(", "layer": [1, 5]}]}],
      "sources": [], "monitors": [], "run": {}})";
    const Project p = parse_project(text, "g.glproj");
    REQUIRE(p.layers[0].shapes[0].type == ShapeType::Gds);
    CHECK(p.layers[0].shapes[0].gds_layer == std::array<int, 2>{1, 0});  // from the layer's gds_layer
    CHECK(p.layers[0].shapes[0].gds_cell == "TOP");
    CHECK(p.layers[0].shapes[0].translate[1] == 22);
    CHECK(p.layers[1].gds_layer == std::array<int, 2>{1, 5});
    const Project again = parse_project(project_to_json(p).dump(), "again.glproj");
    CHECK(again.layers == p.layers);
    check_gds_shapes(p, "g.glproj");  // no error

    // without `layer` and without the layer's gds_layer: the path names the shape's layer
    nlohmann::json j = project_to_json(p);
    j["layers"][0].erase("gds_layer");
    j["layers"][0]["shapes"][0].erase("layer");
    try {
        (void)parse_project(j.dump(), "g.glproj");
        FAIL("no error");
    } catch (const ProjectError& e) {
        CHECK(e.json_path() == "layers[0].shapes[0].layer");
    }
    // bad layer numbers
    j = project_to_json(p);
    j["layers"][1]["shapes"][0]["layer"] = {1, 70000};
    CHECK_THROWS_WITH(parse_project(j.dump(), "g.glproj"), Catch::Contains("layers[1].shapes[0].layer[1]"));
}

TEST_CASE("GDS: malformed streams give a clear error, never a crash", "[gds][hardening]") {
    const std::vector<std::uint8_t> good = read_bytes(data_dir() / "layout.gds");
    REQUIRE(gds_error(good).empty());

    // every truncation
    int truncated = 0;
    for (std::size_t n = 0; n < good.size(); ++n) {
        const std::string e = gds_error({good.begin(), good.begin() + std::ptrdiff_t(n)});
        CHECK(!e.empty());
        truncated += e.find("truncated") != std::string::npos || e.find("empty") != std::string::npos;
    }
    std::printf("gds: %zu truncations refused (%d say 'truncated')\n", good.size(), truncated);

    // bad record lengths: below 4, odd, past the end
    const std::size_t xy = records(good, 0x10).at(0);
    for (unsigned len : {0u, 2u, 7u, 65534u}) {
        auto b = good;
        put16(b, xy, len);
        const std::string e = gds_error(b);
        INFO(e);
        CHECK(e.find("at byte") != std::string::npos);
    }
    // not GDSII at all
    CHECK(gds_error({'I', 'S', 'O', '-', '1', '0', '3', '0', '3'}).find("HEADER") != std::string::npos);

    // a reference to a cell the file lacks
    {
        auto b = good;
        const std::size_t sname = records(b, 0x12).at(0);
        b[sname + 4] = 'Q';  // "LEAF" -> "QEAF"
        CHECK(gds_error(b).find("does not define") != std::string::npos);
    }
    // huge counts: an AREF of 32767 x 32767 instances is refused before it is expanded
    {
        auto b = good;
        const std::size_t colrow = records(b, 0x13).at(0);
        put16(b, colrow + 4, 32767);
        put16(b, colrow + 6, 32767);
        const std::string e = gds_error(b);
        INFO(e);
        CHECK(e.find("limit of 20 million") != std::string::npos);
    }
    // a reference cycle: A -> B -> A
    {
        auto a = gds::write("A", {});
        // rebuild by hand: two cells referencing each other
        std::vector<std::uint8_t> b(a.begin(), a.end() - 8);  // drop ENDSTR, ENDLIB
        const auto rec = [&](std::uint8_t rt, std::uint8_t dt, std::vector<std::uint8_t> data) {
            const std::size_t len = data.size() + 4;
            b.push_back(std::uint8_t(len >> 8)), b.push_back(std::uint8_t(len)), b.push_back(rt), b.push_back(dt);
            b.insert(b.end(), data.begin(), data.end());
        };
        rec(0x0A, 0, {}), rec(0x12, 6, {'B', 0}), rec(0x10, 3, {0, 0, 0, 0, 0, 0, 0, 0}), rec(0x11, 0, {});
        rec(0x07, 0, {});
        rec(0x05, 2, std::vector<std::uint8_t>(24, 0)), rec(0x06, 6, {'B', 0});
        rec(0x0A, 0, {}), rec(0x12, 6, {'A', 0}), rec(0x10, 3, {0, 0, 0, 0, 0, 0, 0, 0}), rec(0x11, 0, {});
        rec(0x07, 0, {}), rec(0x04, 0, {});
        const gds::Library lib = gds::read(b);
        CHECK(gds::top_cells(lib).empty());
        CHECK_THROWS_WITH(gds::flatten(lib, "A", {1, 0}), Catch::Contains("cycle"));
    }
    // random byte corruption: an error or a result, never a crash
    std::mt19937 rng(22);
    int refused = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        auto b = good;
        for (int k = 0; k < 3; ++k) b[rng() % b.size()] = std::uint8_t(rng());
        refused += !gds_error(b).empty();
    }
    std::printf("gds: 2000 corrupted streams, %d refused with a message, the rest read\n", refused);

    // through a project: the JSON path of the shape's member, and the file's name
    Project p = base_project(50, 40, 0, 0.1, 2);
    Layer l;
    l.name = "wg";
    l.material = "si";
    l.shapes = {gds_shape("TOP", {1, 0})};
    p.layers = {l, l};
    p.layers[1].shapes[0].data_base64 = base64_encode(std::vector<std::uint8_t>(good.begin(), good.begin() + 500));
    const auto path_of = [&](const Project& q) {
        try {
            check_gds_shapes(q, "bad.glproj");
        } catch (const ProjectError& e) {
            CHECK(e.file() == "bad.glproj");
            CHECK(std::string(e.what()).find("layout.gds") != std::string::npos);
            return e.json_path();
        }
        return std::string("no error");
    };
    CHECK(path_of(p) == "layers[1].shapes[0].data");
    {  // a database unit of 0.5 m: the vertices lie beyond the spec's +-1e6 um
        auto b = good;
        const std::size_t units = records(b, 0x03).at(0);
        const std::uint8_t half[8] = {0x40, 0x80, 0, 0, 0, 0, 0, 0};  // 0.5 as a GDSII real
        std::copy(half, half + 8, b.begin() + std::ptrdiff_t(units + 12));
        REQUIRE(gds::read(b).metres_per_db == 0.5);
        p.layers[1].shapes[0].data_base64 = base64_encode(b);
        CHECK(path_of(p) == "layers[1].shapes[0].data");
    }
    p.layers[1].shapes[0] = gds_shape("TOP", {9, 0});  // missing layer
    CHECK(path_of(p) == "layers[1].shapes[0].layer");
    p.layers[1].shapes[0].gds_cell = "NOPE";  // unknown cell
    CHECK(path_of(p) == "layers[1].shapes[0].cell");
    p.layers[1].shapes[0].data_base64 = base64_encode(read_bytes(data_dir() / "two_tops.gds"));  // which top cell?
    p.layers[1].shapes[0].gds_cell = "";
    p.layers[1].shapes[0].gds_layer = {1, 0};
    CHECK(path_of(p) == "layers[1].shapes[0].cell");
    p.layers[1].shapes[0].gds_cell = "B";
    CHECK(path_of(p) == "no error");
    CHECK_THROWS_AS(make_gds_shape(data_dir() / "layout.gds", "NOPE", {1, 0}), gds::GdsError);
}

TEST_CASE("GDS export: every layer's shapes on its gds_layer, read back", "[gds]") {
    Project p = base_project(20, 20, 0, 0.05, 2);
    Layer a;
    a.name = "shapes";
    a.material = "si";
    a.gds_layer = std::array<int, 2>{10, 2};
    Shape rect;
    rect.type = ShapeType::Rectangle;
    rect.min = {1, 1}, rect.max = {3, 2};
    Shape poly;
    poly.type = ShapeType::Polygon;
    poly.points = {{5, 5}, {7.125, 5}, {6, 6.5}};
    Shape path;
    path.type = ShapeType::Path;
    path.points = {{1, 10}, {8, 10}, {8, 15}};
    path.width = 0.45;
    Shape ring;
    ring.type = ShapeType::Ring;
    ring.center = {14, 14};
    ring.inner_radius = 1;
    ring.outer_radius = 2;
    a.shapes = {rect, poly, path, ring};
    Layer g;  // a gds shape, and no gds_layer: refused until it has one
    g.name = "from gds";
    g.material = "sin";
    g.shapes = {gds_shape("PATHS", {2, 2})};
    Layer r;  // a painted raster: 8 x 4 pixels of 0.1 um, the left half painted
    r.name = "painted";
    r.material = "si";
    r.gds_layer = std::array<int, 2>{11, 0};
    Shape ras;
    ras.type = ShapeType::Raster;
    ras.origin = {10, 1};
    ras.pixel_size = 0.1;
    ras.width_px = 8, ras.height_px = 4;
    Image8 img;
    img.width = 8, img.height = 4, img.channels = 1;
    img.pixels.assign(32, 0);
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) img.pixels[std::size_t(j * 8 + i)] = 255;
    ras.png_base64 = base64_encode(encode_png(img));
    r.shapes = {ras};
    p.layers = {a, g, r};

    CHECK_THROWS_WITH(export_gds(p, "EXPORT", "e.glproj"), Catch::Contains("layers[1].gds_layer") && Catch::Contains("'from gds'"));
    p.layers[1].gds_layer = std::array<int, 2>{2, 0};
    const GdsExport ex = export_gds(p, "EXPORT", "e.glproj");
    CHECK(ex.polygons == 4);  // rectangle, polygon, ring (keyhole), 1 raster rectangle
    CHECK(ex.paths == 2);
    CHECK(ex.warnings.empty());
    const gds::Library lib = gds::read(ex.bytes);
    CHECK(gds::cell_layers(lib, "EXPORT") == std::vector<std::array<int, 2>>{{2, 0}, {10, 2}, {11, 0}});
    const gds::Geometry s = gds::flatten(lib, "EXPORT", {10, 2});
    REQUIRE(s.polygons.size() == 3);
    const auto same = [](const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t k = 0; k < a.size(); ++k)
            if (std::abs(a[k].x - b[k].x) > 1e-12 || std::abs(a[k].y - b[k].y) > 1e-12) return false;
        return true;
    };
    CHECK(same(s.polygons[1], poly.points));  // on the nm grid: kept (to the double rounding of the unit)
    REQUIRE(s.paths.size() == 1);
    CHECK(same(s.paths[0].points, path.points));
    CHECK(s.paths[0].width == Approx(0.45).epsilon(1e-12));
    const double ring_exact = std::abs(ring_area(shape_outline(ring, 1e-3 * 0.05)[0])) -
                              std::abs(ring_area(shape_outline(ring, 1e-3 * 0.05)[1]));
    // vertices rounded to the nm: the area moves by at most perimeter * 0.5 nm * sqrt(2)
    const double bound = 2 * std::acos(-1.0) * (1 + 2) * 0.5e-3 * std::sqrt(2.0);
    std::printf("exported ring (keyhole polygon): area %.9f, outline %.9f (difference %.2e, nm-rounding bound %.2e)\n",
                ring_area(s.polygons[2]), ring_exact, std::abs(ring_area(s.polygons[2]) - ring_exact), bound);
    CHECK(std::abs(ring_area(s.polygons[2]) - ring_exact) < bound);
    CHECK(s.polygons[2].size() == shape_outline(ring, 1e-3 * 0.05)[0].size() + shape_outline(ring, 1e-3 * 0.05)[1].size() + 2);
    const gds::Geometry gg = gds::flatten(lib, "EXPORT", {2, 0});
    REQUIRE(gg.paths.size() == 1);
    CHECK(gg.paths[0].pathtype == 4);
    CHECK(gg.paths[0].begin_extension == Approx(0.3).epsilon(1e-12));
    const gds::Geometry rr = gds::flatten(lib, "EXPORT", {11, 0});
    REQUIRE(rr.polygons.size() == 1);
    std::printf("traced raster: %zu rectangle, area %.6f um^2 (painted 0.4 x 0.4)\n", rr.polygons.size(), ring_area(rr.polygons[0]));
    CHECK(std::abs(ring_area(rr.polygons[0])) == Approx(0.16).epsilon(1e-9));
}

TEST_CASE("GDS layer maps: gdsfactory's layer_views.yaml (nested views, groups)", "[gds]" GOLIGHTLY_NEEDS_YAML_CPP) {
    REQUIRE(gds::yaml_layer_maps_available());
    // tests/data/gds/layer_views.yaml is in LayerViews.to_yaml's layout: every view a mapping
    // with `layer: [l, d]`, groups under group_members, CustomDitherPatterns at the end. A
    // line-based reader named every entry "layer".
    const auto yaml = gds::read_layer_map(data_dir() / "layer_views.yaml");
    CHECK(yaml == std::vector<gds::LayerName>{{"WG", 1, 0},
                                              {"SLAB150", 2, 0},
                                              {"SHALLOW_ETCH", 2, 6},
                                              {"N", 20, 0},
                                              {"P", 21, 0},
                                              {"M1", 41, 0},
                                              {"PinRec", 1, 10}});
}

TEST_CASE("GDS layer maps: a KLayout .lyp with groups, sources with names and entities", "[gds]" GOLIGHTLY_NEEDS_PUGIXML) {
    REQUIRE(gds::lyp_layer_maps_available());
    // tests/data/gds/klayout.lyp: the element layout KLayout and gdsfactory's to_lyp write
    // (every property element present), a "NAME l/d" name (layer_in_name), "&amp;" and a
    // character reference, a group ("*/*@*") of two members, a group "*/5" whose member "1/*"
    // is layer 1/5, an unnamed entry whose source is "POLY 2/0@1", a transformed source.
    const auto lyp = gds::read_layer_map(data_dir() / "klayout.lyp");
    CHECK(lyp == std::vector<gds::LayerName>{{"WG", 1, 0},
                                             {"Slab & rib", 3, 0},
                                             {"POLY", 2, 0},
                                             {"N", 20, 0},
                                             {"P+", 21, 0},
                                             {"WG pins", 1, 5},
                                             {"M1 rotated", 41, 0}});
}

TEST_CASE("GDS layer maps: plain YAML maps, tabs, and bad files", "[gds]" GOLIGHTLY_NEEDS_PUGIXML GOLIGHTLY_NEEDS_YAML_CPP) {
    REQUIRE(gds::lyp_layer_maps_available());
    REQUIRE(gds::yaml_layer_maps_available());
    test::Scratch dir("gds", "map");
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream f(dir.path / name);
        f << text;
        return dir.path / name;
    };
    // gdsfactory-style LayerMap YAML: NAME: [l, d] at the top or in a mapping; "l/d" and "(l, d)" strings.
    const auto plain = gds::read_layer_map(write("layers.yaml",
        "# gdsfactory layer map\nlayers:\n  WG: [1, 0]\n  SLAB150: [2, 0]\n  M1: 41/0\n  HEATER: (47, 0)  # heater\n"
        "  note: text\n  width: 1\n"));
    CHECK(plain == std::vector<gds::LayerName>{{"WG", 1, 0}, {"SLAB150", 2, 0}, {"M1", 41, 0}, {"HEATER", 47, 0}});
    // A view whose `name` member differs from its key: the name wins.
    CHECK(gds::read_layer_map(write("named.yml", "LayerViews:\n  core:\n    name: Core\n    layer: [1, 0]\n")) ==
          std::vector<gds::LayerName>{{"Core", 1, 0}});
    // KLayout layer-properties tabs.
    CHECK(gds::read_layer_map(write("tabs.lyp",
              "<?xml version=\"1.0\"?>\n<layer-properties-tabs>\n <layer-properties><name>a</name>"
              "<properties><name>WG</name><source>1/0</source></properties></layer-properties>\n"
              " <layer-properties><properties><name>M2</name><source>45/0@1</source></properties>"
              "<properties><name>WG</name><source>1/0</source></properties></layer-properties>\n"
              "</layer-properties-tabs>\n")) == std::vector<gds::LayerName>{{"WG", 1, 0}, {"M2", 45, 0}});
    CHECK_THROWS_WITH(gds::read_layer_map(write("empty.yaml", "nothing: here\n")), Catch::Contains("names no layer"));
    CHECK_THROWS_WITH(gds::read_layer_map(write("bad.lyp", "<layer-properties><properties><name>WG</name>")),
                      Catch::Contains("bad.lyp is not valid XML"));
    CHECK_THROWS_WITH(gds::read_layer_map(write("bad.yaml", "LayerViews:\n  WG: [1, 0\n")),
                      Catch::Contains("bad.yaml is not valid YAML") && Catch::Contains("line"));
    CHECK_THROWS_WITH(gds::read_layer_map(write("other.lyp", "<html><body/></html>")),
                      Catch::Contains("not a KLayout layer-properties file"));
    CHECK_THROWS_WITH(gds::read_layer_map(dir.path / "missing.yaml"), Catch::Contains("cannot read the layer map"));
}

namespace {

using Ring64 = std::vector<std::array<std::int64_t, 2>>;

double area64(const Ring64& r) {
    long double a = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
        const auto& p = r[k];
        const auto& q = r[(k + 1) % r.size()];
        a += (long double)p[0] * q[1] - (long double)p[1] * q[0];
    }
    return double(0.5L * a);
}

bool inside64(const Ring64& r, double x, double y) {  // even-odd
    bool in = false;
    for (std::size_t i = 0, j = r.size() - 1; i < r.size(); j = i++) {
        const double xi = double(r[i][0]), yi = double(r[i][1]), xj = double(r[j][0]), yj = double(r[j][1]);
        if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) in = !in;
    }
    return in;
}

/// The pieces tile the ring: each has 3..max vertices and the ring's orientation, the areas
/// add up (to `area_tol`, relative), and 4000 random points lie in exactly one piece when
/// inside the ring and in none outside.
void check_tiling(const Ring64& ring, const std::vector<Ring64>& pieces, std::size_t max, double area_tol) {
    const double a = area64(ring);
    double sum = 0;
    std::size_t most = 0;
    for (const auto& p : pieces) {
        CHECK(p.size() >= 3);
        CHECK(p.size() <= max);
        most = std::max(most, p.size());
        const double pa = area64(p);
        CHECK(pa * a > 0);
        sum += pa;
    }
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (const auto& v : ring) x0 = std::min(x0, double(v[0])), x1 = std::max(x1, double(v[0])), y0 = std::min(y0, double(v[1])), y1 = std::max(y1, double(v[1]));
    std::mt19937_64 rng(20261126);
    std::uniform_real_distribution<double> ux(x0, x1), uy(y0, y1);
    int wrong = 0, in = 0;
    for (int k = 0; k < 4000; ++k) {
        const double x = ux(rng), y = uy(rng);
        int n = 0;
        for (const auto& p : pieces) n += inside64(p, x, y);
        const bool want = inside64(ring, x, y);
        in += want;
        wrong += n != (want ? 1 : 0);
    }
    std::printf("split: %zu vertices -> %zu pieces (largest %zu), area %.6e vs %.6e (rel diff %.1e), %d of 4000 samples "
                "inside, %d misplaced\n",
                ring.size(), pieces.size(), most, sum, a, std::abs(sum - a) / std::abs(a), in, wrong);
    CHECK(std::abs(sum - a) <= area_tol * std::abs(a));
    CHECK(wrong == 0);
    CHECK(in > 400);
}

Ring64 flower(std::size_t n, double r0, double amp, int petals) {
    Ring64 r;
    for (std::size_t k = 0; k < n; ++k) {
        const double t = 2 * M_PI * double(k) / double(n), rad = r0 + amp * std::sin(petals * t);
        r.push_back({std::llround(rad * std::cos(t)), std::llround(rad * std::sin(t))});
    }
    return r;
}

}  // namespace

TEST_CASE("GDS export: split_polygon tiles a polygon with pieces of at most N vertices", "[gds]") {
    // A non-convex 20000-vertex flower (nm): cut lines cross it up to 14 times.
    const Ring64 f = flower(20000, 10000, 4000, 7);
    const auto pieces = gds::split_polygon(f, gds::kMaxBoundaryVertices);
    CHECK(pieces.size() >= 3);
    check_tiling(f, pieces, gds::kMaxBoundaryVertices, 1e-7);
    // A comb of 40 teeth, clockwise, cut into pieces of at most 16 vertices: every cut
    // crosses teeth; axis-parallel edges cross cut lines at integer points, so the areas
    // add up exactly.
    Ring64 comb = {{0, 0}, {4000, 0}, {4000, 500}};
    for (int t = 39; t >= 0; --t) {
        const std::int64_t x = 100 * t, h = 3000 + 37 * t;
        comb.push_back({x + 60, 500});
        comb.push_back({x + 60, h});
        comb.push_back({x, h});
        if (t > 0) comb.push_back({x, 500});
    }
    std::reverse(comb.begin(), comb.end());
    const auto teeth = gds::split_polygon(comb, 16);
    CHECK(teeth.size() >= 10);
    check_tiling(comb, teeth, 16, 0);
    CHECK_THROWS_WITH(gds::split_polygon(comb, 4), Catch::Contains("at least 8"));
    // A keyhole (a square with a square hole joined to the outside by a zero-width slit,
    // as GDSII writes holes) is weakly simple: the slit's two edges cross cut lines at the
    // same point, and the pieces still tile it.
    Ring64 keyhole = {{500, 0}, {1000, 0}, {1000, 1000}};
    for (int i = 1; i < 10; ++i) keyhole.push_back({1000 - 100 * i, 1000 + (i % 2) * 10});
    for (const auto& v : Ring64{{0, 1000}, {0, 0}, {500, 0}, {500, 400}, {400, 400}, {400, 600}, {600, 600}, {600, 400}, {500, 400}})
        keyhole.push_back(v);
    const auto keyhole_pieces = gds::split_polygon(keyhole, 8);
    CHECK(keyhole_pieces.size() >= 3);
    check_tiling(keyhole, keyhole_pieces, 8, 0);
    // A ring that crosses itself (the star polygon {13/5}) is refused with a message, not
    // split without end (fuzz_gds timed out on such a ring in CI).
    Ring64 star;
    for (int i = 0; i < 13; ++i) {
        const double t = 2 * std::numbers::pi * ((i * 5) % 13) / 13;
        star.push_back({std::llround(1e4 * std::cos(t)), std::llround(1e4 * std::sin(t))});
    }
    CHECK_THROWS_WITH(gds::split_polygon(star, 8), Catch::Contains("crosses itself"));
}

TEST_CASE("GDS export: a polygon over 8190 vertices is written as valid pieces of the same area", "[gds]") {
    const Ring64 f = flower(30000, 10000, 4000, 7);
    std::vector<Vec2> poly;
    for (const auto& v : f) poly.push_back({double(v[0]) * 1e-3, double(v[1]) * 1e-3});  // um, on the nm grid
    gds::WriteLayer L;
    L.layer = 7;
    L.polygons = {poly};
    const gds::Library lib = gds::read(gds::write("BIG", {L}));
    const gds::Geometry g = gds::flatten(lib, "BIG", {7, 0});
    std::vector<Ring64> pieces;
    double area = 0;
    for (const auto& r : g.polygons) {
        Ring64 p;
        for (const Vec2& v : r) p.push_back({std::llround(v.x * 1e3), std::llround(v.y * 1e3)});
        pieces.push_back(p);
        area += ring_area(r);
    }
    std::printf("export split: %zu boundaries, area %.9f um^2 (polygon %.9f)\n", g.polygons.size(), area, area64(f) * 1e-6);
    CHECK(g.polygons.size() >= 4);
    check_tiling(f, pieces, gds::kMaxBoundaryVertices, 1e-7);
    // The project's export: a ring of radius 200 um at 0.01 um cells is discretized to more
    // than 8190 vertices per circle; it is written (it was refused) and its area kept.
    Project p = base_project(500, 500, 0, 0.01, 2);
    Layer ring_layer;
    ring_layer.name = "ring";
    ring_layer.material = "si";
    ring_layer.gds_layer = std::array<int, 2>{3, 0};
    Shape ring;
    ring.type = ShapeType::Ring;
    ring.center = {250, 250};
    ring.inner_radius = 199.5;
    ring.outer_radius = 200;
    ring_layer.shapes = {ring};
    p.layers = {ring_layer};
    const GdsExport ex = export_gds(p, "TOP", "ring.glproj");
    const gds::Library back = gds::read(ex.bytes);
    const gds::Geometry rg = gds::flatten(back, "TOP", {3, 0});
    double ra = 0;
    std::size_t most = 0;
    for (const auto& r : rg.polygons) ra += ring_area(r), most = std::max(most, r.size());
    const double want = M_PI * (200.0 * 200.0 - 199.5 * 199.5);
    std::printf("export ring: %zu boundaries (largest %zu vertices), area %.6f um^2 (annulus %.6f)\n", rg.polygons.size(), most,
                ra, want);
    CHECK(rg.polygons.size() >= 3);
    CHECK(most <= gds::kMaxBoundaryVertices);
    CHECK(ra == Approx(want).epsilon(1e-5));
    // A polygon over the limit that crosses itself (the star polygon {9001/4000}) cannot be
    // split into boundaries: the error names the layer and the vertex count.
    gds::WriteLayer star;
    star.layer = 5;
    star.datatype = 2;
    star.polygons.emplace_back();
    for (int i = 0; i < 9001; ++i) {
        const double t = 2 * std::numbers::pi * double((std::int64_t(i) * 4000) % 9001) / 9001;
        star.polygons.back().push_back({1000 * std::cos(t), 1000 * std::sin(t)});
    }
    CHECK_THROWS_WITH(gds::write("STAR", {star}),
                      Catch::Contains("layer 5/2") && Catch::Contains("9001 vertices") && Catch::Contains("crosses itself"));
}

TEST_CASE("GDS export keeps the embedded files' database unit", "[gds]") {
    Project p = base_project(50, 40, 0, 0.1, 2);
    Layer l;
    l.name = "leaf";
    l.material = "si";
    l.gds_layer = std::array<int, 2>{1, 0};
    l.shapes = {make_gds_shape(data_dir() / "units_5nm.gds", "ULEAF", {1, 0})};
    p.layers = {l};
    const GdsExport ex = export_gds(p, "TOP", "units.glproj");
    CHECK(ex.db_unit_um == Approx(5e-3).epsilon(1e-12));
    const gds::Library back = gds::read(ex.bytes);
    CHECK(back.um_per_db() == Approx(5e-3).epsilon(1e-12));
    const gds::Geometry want = gds_shape_geometry(l.shapes[0]);
    CHECK(max_vertex_deviation(want, gds::flatten(back, "TOP", {1, 0})) <= 1e-9);  // on the 5 nm grid: exact
    // Several files: the finest unit (0.25 nm divides 5 nm: no warning); an explicit unit wins.
    Layer q = l;
    q.gds_layer = std::array<int, 2>{2, 0};
    q.shapes = {make_gds_shape(data_dir() / "units_0p25nm.gds", "ULEAF", {1, 0})};
    p.layers.push_back(q);
    const GdsExport both = export_gds(p, "TOP", "units.glproj");
    CHECK(both.db_unit_um == Approx(0.25e-3).epsilon(1e-12));
    CHECK(both.warnings.empty());
    CHECK(export_gds(p, "TOP", "units.glproj", 1e-3).db_unit_um == 1e-3);
    CHECK(gds::read(export_gds(p, "TOP", "units.glproj", 1e-3).bytes).um_per_db() == Approx(1e-3).epsilon(1e-12));
}

TEST_CASE("golightly-cli export-gds writes the layers, bad projects exit 2", "[gds][cli]") {
    const fs::path dir = fs::temp_directory_path() / ("golightly_gds_cli_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    Project p = base_project(50, 40, 0, 0.1, 2);
    Layer l;
    l.name = "wg";
    l.material = "si";
    l.gds_layer = std::array<int, 2>{1, 0};
    l.shapes = {gds_shape("TOP", {1, 0}, {0, 22})};
    p.layers = {l};
    save_project(p, dir / "good.glproj");
    const auto run = [&](const std::string& args) {
        const std::string cmd = std::string("'") + GOLIGHTLY_CLI_PATH + "' " + args + " >'" + (dir / "out.txt").string() +
                                "' 2>'" + (dir / "err.txt").string() + "' </dev/null";
        const int status = std::system(cmd.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    const auto text = [&](const char* name) {
        std::ifstream in(dir / name);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    };
    const fs::path out = dir / "out.gds";
    CHECK(run("export-gds '" + (dir / "good.glproj").string() + "' --out '" + out.string() + "' --cell CHIP") == 0);
    INFO(text("out.txt") << text("err.txt"));
    CHECK(text("out.txt").find("cell CHIP, 14 polygons, 0 paths") != std::string::npos);
    const gds::Library lib = gds::read(read_bytes(out));
    const gds::Geometry g = gds::flatten(lib, "CHIP", {1, 0});
    const gds::Geometry want = gds_shape_geometry(p.layers[0].shapes[0]);
    const double dev = max_vertex_deviation(want, g);
    std::printf("export-gds: %zu polygons read back, largest vertex deviation %.3e um\n", g.polygons.size(), dev);
    CHECK(dev <= 0.5e-3 + 1e-9);
    CHECK(text("out.txt").find("database unit 0.001 um") != std::string::npos);  // layout.gds's 1 nm
    // --db-unit: a quarter nm, written as UNITS and used for the coordinates
    CHECK(run("export-gds '" + (dir / "good.glproj").string() + "' --out '" + out.string() + "' --db-unit 0.25nm") == 0);
    CHECK(text("out.txt").find("database unit 0.00025 um") != std::string::npos);
    const gds::Library quarter = gds::read(read_bytes(out));
    CHECK(quarter.um_per_db() == Approx(0.25e-3).epsilon(1e-12));
    CHECK(max_vertex_deviation(want, gds::flatten(quarter, "TOP", {1, 0})) <= 0.125e-3 + 1e-9);
    CHECK(run("export-gds '" + (dir / "good.glproj").string() + "' --out '" + out.string() + "' --db-unit 2m") == 1);
    CHECK(text("err.txt").find("--db-unit 2m: expected a length") != std::string::npos);

    // an embedded file cut short: exit 2, the message names the file and the JSON path
    p.layers[0].shapes[0].data_base64 = p.layers[0].shapes[0].data_base64.substr(0, 400);
    save_project(p, dir / "bad.glproj");
    CHECK(run("export-gds '" + (dir / "bad.glproj").string() + "' --out '" + (dir / "bad.gds").string() + "'") == 2);
    CHECK(text("err.txt").find("layers[0].shapes[0].data") != std::string::npos);
    CHECK(text("err.txt").find("bad.glproj") != std::string::npos);
    CHECK(!fs::exists(dir / "bad.gds"));
    CHECK(run("check '" + (dir / "bad.glproj").string() + "'") == 2);
    CHECK(text("err.txt").find("layers[0].shapes[0].data") != std::string::npos);
    CHECK(run("export-gds '" + (dir / "good.glproj").string() + "'") == 1);  // --out is required
    fs::remove_all(dir);
}

TEST_CASE("GDS: the hardening corpus (tests/data/hardening/gds_*.gds) names file, path and cause", "[gds][hardening]") {
    const fs::path dir = fs::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "hardening";
    const struct {
        const char* file;
        const char* field;
        const char* says;
    } cases[] = {{"gds_truncated.gds", "data", "truncated"},
                 {"gds_bad_record_length.gds", "data", "bad record length 2"},
                 {"gds_huge_aref.gds", "cell", "more than the limit of 20 million"},
                 {"gds_unknown_cell.gds", "data", "does not define"}};
    for (const auto& c : cases) {
        Project p = base_project(50, 40, 0, 0.1, 2);
        Layer l;
        l.name = "wg";
        l.material = "si";
        Shape s;
        s.type = ShapeType::Gds;
        s.file_name = c.file;
        s.data_base64 = base64_encode(read_bytes(dir / c.file));
        s.gds_layer = {1, 0};
        l.shapes = {s};
        p.layers = {l};
        try {
            check_gds_shapes(p, "h.glproj");
            FAIL(c.file << ": no error");
        } catch (const ProjectError& e) {
            std::printf("%s -> %s\n", c.file, e.what());
            CHECK(e.json_path() == std::string("layers[0].shapes[0].") + c.field);
            CHECK(std::string(e.what()).find(c.file) != std::string::npos);
            CHECK(std::string(e.what()).find(c.says) != std::string::npos);
        }
    }
}
