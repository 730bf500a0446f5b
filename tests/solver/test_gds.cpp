// GDSII layouts (spec "GDSII layouts"): import of files written by an independent tool
// (gdspy; tests/data/gds/make_fixtures.py wrote layout.gds and its figures layout.json),
// the round trip import -> export -> import, `gds` shapes in 2D and 3D coverage, layer
// maps and the project format. Export is test_gds_export.cpp, malformed streams
// test_gds_hardening.cpp.
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
#include "gds_test_files.hpp"

namespace fs = std::filesystem;
using namespace golightly;
using golightly::test::material;
using namespace golightly::test::gds_files;

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

