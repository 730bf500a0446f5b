// GDSII export (spec "GDSII layouts"): every layer's shapes on its gds_layer read back,
// polygons over the format's vertex limit split into pieces, the embedded files' database
// unit, and golightly-cli export-gds.
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

