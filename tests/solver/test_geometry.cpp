// Tests of the geometry compile: outlines, exact coverage, layer compositing, rasters and
// averaged permittivity (geometry.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "golightly/errors.hpp"
#include "golightly/geometry.hpp"
#include "golightly/image_io.hpp"
#include "project_builders.hpp"

using namespace golightly;
using golightly::test::ellipse;
using golightly::test::layer;
using golightly::test::material;
using golightly::test::polygon;
using golightly::test::rectangle;

namespace {

constexpr double kPi = std::numbers::pi;

SampleGrid grid_over(double lx, double ly, double dx) {
    SampleGrid g;
    g.dx_um = dx;
    g.nx = int(std::lround(lx / dx));
    g.ny = int(std::lround(ly / dx));
    g.x0_um = 0.5 * dx;
    g.y0_um = 0.5 * dx;
    return g;
}

double covered_area(const Shape& s, const SampleGrid& g, double tol = 1e-5) {
    const auto cov = outline_coverage({shape_outline(s, tol)}, g);
    double sum = 0;
    for (double c : cov) {
        REQUIRE(c >= 0.0);
        REQUIRE(c <= 1.0);
        sum += c;
    }
    return sum * g.dx_um * g.dx_um;
}

Project base_project(double lx, double ly, double dx) {
    Project p;
    p.name = "geometry test";
    p.domain.size = {lx, ly, 0};
    p.domain.cell_size = dx;
    p.materials = {material("air", 1.0), material("a", 4.0, 0.5), material("b", 9.0, 2.0), material("c", 2.0)};
    return p;
}

const std::vector<float>* fraction_of(const Coverage& cov, const std::string& id) {
    for (std::size_t q = 0; q < cov.material_ids.size(); ++q)
        if (cov.material_ids[q] == id) return &cov.fraction[q];
    return nullptr;
}

}  // namespace

TEST_CASE("coverage sums to the exact area of curved and straight shapes", "[geometry]") {
    const SampleGrid g = grid_over(4.0, 4.0, 0.05);
    SECTION("disc, off-grid centre") {
        CHECK(covered_area(ellipse({2.013, 1.987}, 1.3, 1.3), g) == Approx(kPi * 1.3 * 1.3).epsilon(1e-4));
    }
    SECTION("ellipse rotated 30 degrees") {
        CHECK(covered_area(ellipse({1.97, 2.04}, 1.6, 0.7, 30), g) == Approx(kPi * 1.6 * 0.7).epsilon(1e-4));
    }
    SECTION("ring") {
        Shape s;
        s.type = ShapeType::Ring;
        s.center = {2.011, 1.993};
        s.inner_radius = 0.8;
        s.outer_radius = 1.5;
        CHECK(covered_area(s, g) == Approx(kPi * (1.5 * 1.5 - 0.8 * 0.8)).epsilon(1e-4));
        // The hole is empty: the sample at the centre sees nothing.
        const auto cov = outline_coverage({shape_outline(s, 1e-5)}, g);
        CHECK(cov[std::size_t(40) * g.nx + 40] == 0.0);
    }
    SECTION("rectangle rotated 17 degrees (polygon: exact to rounding)") {
        CHECK(covered_area(rectangle({0.913, 1.207}, {3.117, 2.561}, 17), g) ==
              Approx((3.117 - 0.913) * (2.561 - 1.207)).epsilon(1e-10));
    }
    SECTION("concave polygon in clockwise order") {
        const double ox = 0.0137, oy = 0.0291;
        // An L: [0.5,1.0]x[0.5,2.5] plus [1.0,2.5]x[0.5,1.0], listed clockwise.
        const Shape s = polygon({{0.5 + ox, 0.5 + oy}, {0.5 + ox, 2.5 + oy}, {1.0 + ox, 2.5 + oy},
                                 {1.0 + ox, 1.0 + oy}, {2.5 + ox, 1.0 + oy}, {2.5 + ox, 0.5 + oy}});
        CHECK(covered_area(s, g) == Approx(1.75).epsilon(1e-10));
    }
    SECTION("L-shaped path with bend_radius: width x centre-line length") {
        Shape s;
        s.type = ShapeType::Path;
        s.points = {{0.513, 0.521}, {3.507, 0.521}, {3.507, 3.519}};
        s.width = 0.3;
        s.bend_radius = 1.0;
        const double centre_line = (3.507 - 0.513 - 1.0) + (3.519 - 0.521 - 1.0) + kPi / 2 * 1.0;
        CHECK(covered_area(s, g) == Approx(0.3 * centre_line).epsilon(1e-4));
        // The corner is rounded: the sharp outer corner point is not covered.
        const auto cov = outline_coverage({shape_outline(s, 1e-5)}, g);
        const int i = int((3.507 + 0.1 - 0.025) / 0.05), j = int((0.521 - 0.1 - 0.025) / 0.05);
        CHECK(cov[std::size_t(j) * g.nx + i] == 0.0);
    }
    SECTION("S-bend and 45-degree bend paths") {
        Shape s;
        s.type = ShapeType::Path;
        s.width = 0.3;
        s.bend_radius = 0.5;
        s.points = {{0.5, 0.5}, {2.0, 0.5}, {2.0, 2.0}, {3.5, 2.0}};  // left turn, then right turn
        CHECK(covered_area(s, g) == Approx(0.3 * (1.0 + 0.5 + 1.0 + kPi / 2)).epsilon(1e-4));
        s.bend_radius = 1.0;
        s.points = {{0.5, 0.5}, {2.0, 0.5}, {3.5, 2.0}};
        const double t = std::tan(kPi / 8);  // tangent length R tan(turn / 2)
        CHECK(covered_area(s, g) == Approx(0.3 * ((1.5 - t) + (1.5 * std::sqrt(2.0) - t) + kPi / 4)).epsilon(1e-4));
    }
    SECTION("paths without bend radius (miter joins)") {
        Shape s;
        s.type = ShapeType::Path;
        s.points = {{0.5, 1.0}, {3.2, 1.7}};
        s.width = 0.3;
        CHECK(covered_area(s, g) == Approx(0.3 * std::hypot(2.7, 0.7)).epsilon(1e-10));
        s.points = {{0.513, 0.521}, {3.507, 0.521}, {3.507, 3.519}};
        CHECK(covered_area(s, g) == Approx(0.3 * ((3.507 - 0.513) + (3.519 - 0.521))).epsilon(1e-10));
    }
}

TEST_CASE("single-cell coverage is exact", "[geometry]") {
    SampleGrid g;
    g.dx_um = 0.1;
    g.nx = 5;
    g.ny = 3;
    g.x0_um = 0.05;
    g.y0_um = 0.05;
    SECTION("vertical half-plane edge at a known offset") {
        const Shape s = polygon({{0.1234, -10}, {10, -10}, {10, 10}, {0.1234, 10}});
        const auto cov = outline_coverage({shape_outline(s, 1e-5)}, g);
        for (int j = 0; j < 3; ++j) {
            CHECK(cov[j * 5 + 0] == 0.0);
            CHECK(cov[j * 5 + 1] == Approx(0.766).margin(1e-12));
            CHECK(cov[j * 5 + 2] == 1.0);
            CHECK(cov[j * 5 + 4] == 1.0);
        }
    }
    SECTION("slanted half-plane edge") {
        // Region below y = 0.12 + 0.3 (x - 0.2): in window [0.2,0.3] x [0.1,0.2] the edge
        // runs from y = 0.12 to y = 0.15; covered = mean height above 0.1 = 0.035 / 0.1.
        const Shape s = polygon({{-10, -10}, {10, -10}, {10, 0.12 + 0.3 * 9.8}, {-10, 0.12 - 0.3 * 10.2}});
        const auto cov = outline_coverage({shape_outline(s, 1e-5)}, g);
        CHECK(cov[1 * 5 + 2] == Approx(0.35).margin(1e-12));
        CHECK(cov[0 * 5 + 2] == 1.0);
        CHECK(cov[2 * 5 + 2] == 0.0);
    }
    SECTION("tiny triangle inside one cell") {
        const Shape s = polygon({{0.212, 0.113}, {0.281, 0.131}, {0.237, 0.187}});
        const double area = 0.5 * std::abs((0.281 - 0.212) * (0.187 - 0.113) - (0.237 - 0.212) * (0.131 - 0.113));
        const auto cov = outline_coverage({shape_outline(s, 1e-5)}, g);
        for (int k = 0; k < 15; ++k) {
            if (k == 1 * 5 + 2)
                CHECK(cov[k] == Approx(area / 0.01).margin(1e-12));
            else
                CHECK(cov[k] == 0.0);
        }
    }
    SECTION("shape cut by the grid edges: only the part inside counts") {
        const Shape s = rectangle({-3.0, 0.1}, {0.237, 0.2});
        const auto cov = outline_coverage({shape_outline(s, 1e-5)}, g);
        double sum = 0;
        for (double c : cov) sum += c;
        CHECK(sum * 0.01 == Approx(0.237 * 0.1).epsilon(1e-12));
        CHECK(cov[1 * 5 + 2] == Approx(0.37).margin(1e-12));
        // right edge beyond the grid
        const Shape r = rectangle({0.3, 0.1}, {7.0, 0.2});
        const auto cr = outline_coverage({shape_outline(r, 1e-5)}, g);
        CHECK(cr[1 * 5 + 3] == 1.0);
        CHECK(cr[1 * 5 + 4] == 1.0);
        CHECK(cr[1 * 5 + 2] == 0.0);
        // Far-away vertices: a huge triangle whose inside covers the whole grid.
        const Shape huge = polygon({{-1e15, -1e15}, {1e15, -1e15}, {0.0, 1e15}});
        for (double c : outline_coverage({shape_outline(huge, 1e-5)}, g)) CHECK(c == 1.0);
    }
    SECTION("overlapping outlines add and clamp") {
        const Shape a = rectangle({0.2, 0.1}, {0.26, 0.2});
        const Shape b = rectangle({0.22, 0.1}, {0.28, 0.2});
        const auto cov = outline_coverage({shape_outline(a, 1e-5), shape_outline(b, 1e-5)}, g);
        CHECK(cov[1 * 5 + 2] == Approx(1.0).margin(1e-12));  // 0.6 + 0.6 clamped
        const Shape c = rectangle({0.2, 0.1}, {0.23, 0.2});
        const auto cov2 = outline_coverage({shape_outline(c, 1e-5), shape_outline(b, 1e-5)}, g);
        CHECK(cov2[1 * 5 + 2] == Approx(0.9).margin(1e-12));  // 0.3 + 0.6 (overlap counted twice)
    }
}

TEST_CASE("layers composite in order, excluded layers do not count", "[geometry]") {
    Project p = base_project(2.0, 1.0, 0.1);
    p.layers.push_back(layer("base", "a", {rectangle({-1, -1}, {3, 3})}));
    p.layers.push_back(layer("top", "b", {rectangle({1.025, -1}, {3, 3})}));  // edge at x = 1.025
    Layer hidden = layer("hidden", "c", {rectangle({-1, -1}, {3, 3})});
    hidden.visible = false;
    Layer ref = layer("reference", "c", {rectangle({-1, -1}, {3, 3})});
    ref.reference_only = true;
    Layer other_z = layer("other z", "c", {rectangle({-1, -1}, {3, 3})});
    other_z.z = std::array<double, 2>{0.5, 1.0};
    p.layers.push_back(hidden);
    p.layers.push_back(ref);
    p.layers.push_back(other_z);
    p.run.normalization.reference_layers = {"reference"};

    const SampleGrid g = grid_over(2.0, 1.0, 0.1);
    const Coverage cov = compute_coverage(p, g, false);
    REQUIRE(cov.material_ids.front() == "air");
    const auto* fa = fraction_of(cov, "a");
    const auto* fb = fraction_of(cov, "b");
    REQUIRE(fa);
    REQUIRE(fb);
    const auto* fc = fraction_of(cov, "c");
    if (fc)
        for (float f : *fc) REQUIRE(f == 0.0f);
    const std::size_t row = 4 * g.nx;
    CHECK((*fa)[row + 3] == 1.0f);
    CHECK((*fb)[row + 3] == 0.0f);
    CHECK((*fa)[row + 15] == 0.0f);
    CHECK((*fb)[row + 15] == 1.0f);
    // Window [1.0, 1.1]: b covers 0.75 of it, a the rest, no air left.
    CHECK((*fb)[row + 10] == Approx(0.75).margin(1e-6));
    CHECK((*fa)[row + 10] == Approx(0.25).margin(1e-6));
    CHECK(cov.fraction[0][row + 10] == 0.0f);

    // The layer z range contains slice_z once slice_z moves into it.
    p.domain.slice_z = 0.7;
    const Coverage cov_z = compute_coverage(p, g, false);
    REQUIRE(fraction_of(cov_z, "c"));
    CHECK((*fraction_of(cov_z, "c"))[row + 3] == 1.0f);
    p.domain.slice_z = 0.0;

    // The reference run takes only the named reference layers.
    const auto sel = select_layers(p, true);
    REQUIRE(sel.size() == 1);
    CHECK(sel[0]->name == "reference");
    const Coverage cref = compute_coverage(p, g, true);
    REQUIRE(fraction_of(cref, "c"));
    CHECK((*fraction_of(cref, "c"))[row + 3] == 1.0f);
    CHECK(fraction_of(cref, "a") == nullptr);

    // Areas per material for `check`.
    const auto areas = material_areas_um2(p, 0.1, false);
    CHECK(areas.at("a") == Approx(1.025).epsilon(1e-6));
    CHECK(areas.at("b") == Approx(2.0 - 1.025).epsilon(1e-6));
    CHECK(areas.at("air") == Approx(0.0).margin(1e-9));
}

TEST_CASE("a disc layer through compute_coverage covers its exact area", "[geometry]") {
    Project p = base_project(4.0, 4.0, 0.05);
    p.layers.push_back(layer("disc", "b", {ellipse({2.013, 1.987}, 1.3, 1.3)}));
    const auto areas = material_areas_um2(p, 0.05, false);
    CHECK(areas.at("b") == Approx(kPi * 1.3 * 1.3).epsilon(1e-4));
    CHECK(areas.at("air") + areas.at("b") == Approx(16.0).epsilon(1e-6));
}

TEST_CASE("raster shapes resample by area at coarser and finer cells", "[geometry]") {
    const int W = 9, H = 6;
    Image8 img;
    img.width = W;
    img.height = H;
    img.channels = 1;
    img.pixels.resize(W * H);
    double pixel_sum = 0;
    for (int q = 0; q < H; ++q)
        for (int p = 0; p < W; ++p) {
            const std::uint8_t v = std::uint8_t((p * 37 + q * 91 + 11) % 256);
            img.pixels[q * W + p] = v;
            pixel_sum += v / 255.0;
        }
    Shape r;
    r.type = ShapeType::Raster;
    r.origin = {0.31, 0.27};
    r.pixel_size = 0.13;
    r.width_px = W;
    r.height_px = H;
    r.png_base64 = base64_encode(encode_png(img));
    const double exact = pixel_sum * 0.13 * 0.13;

    for (double dx : {0.37, 0.05}) {
        const SampleGrid g = grid_over(2.0, 1.5, dx);
        const auto cov = raster_coverage(r, g);
        double s = 0;
        for (double c : cov) s += c;
        CHECK(s * dx * dx == Approx(exact).epsilon(1e-6));
    }
    // Windows that subdivide the pixels see the pixel value; row 0 of the PNG is the top.
    SampleGrid g;
    g.dx_um = 0.13 / 4;
    g.nx = W * 4;
    g.ny = H * 4;
    g.x0_um = 0.31 + g.dx_um / 2;
    g.y0_um = 0.27 + g.dx_um / 2;
    const auto cov = raster_coverage(r, g);
    for (int j = 0; j < g.ny; j += 3)
        for (int i = 0; i < g.nx; i += 5)
            CHECK(cov[std::size_t(j) * g.nx + i] ==
                  Approx(img.pixels[(H - 1 - j / 4) * W + i / 4] / 255.0).margin(1e-6));

    // Through a layer: same area.
    Project proj = base_project(2.0, 1.5, 0.05);
    proj.layers.push_back(layer("painted", "b", {r}));
    CHECK(material_areas_um2(proj, 0.05, false).at("b") == Approx(exact).epsilon(1e-6));

    // A PNG of the wrong size is an error.
    r.width_px = W + 1;
    CHECK_THROWS(raster_coverage(r, g));
}

TEST_CASE("averaged permittivity: arithmetic, harmonic and uniform cells", "[geometry]") {
    Project p = base_project(1.0, 1.0, 0.1);
    // eps 9 right of x = 0.57: the window [0.5, 0.6] of sample i = 5 is 0.3 covered.
    p.layers.push_back(layer("right", "b", {rectangle({0.57, -1}, {2, 2})}));
    const SampleGrid g = grid_over(1.0, 1.0, 0.1);
    const double mean = 0.7 * 1 + 0.3 * 9, harmonic = 1.0 / (0.7 / 1 + 0.3 / 9);
    const std::size_t k = 5 * g.nx + 5;
    const auto ez = average_medium(p, g, Component::Ez, true, false);
    const auto ex = average_medium(p, g, Component::Ex, true, false);
    const auto ey = average_medium(p, g, Component::Ey, true, false);
    CHECK(ez.eps_r[k] == Approx(mean).epsilon(1e-6));
    CHECK(ex.eps_r[k] == Approx(harmonic).epsilon(1e-6));  // field normal to the interface
    CHECK(ey.eps_r[k] == Approx(mean).epsilon(1e-6));      // field parallel to it
    CHECK(ez.sigma[k] == Approx(0.3 * 2.0).epsilon(1e-6));
    for (const auto* m : {&ez, &ex, &ey}) {
        CHECK(m->eps_r[5 * g.nx + 2] == 1.0);
        CHECK(m->eps_r[5 * g.nx + 8] == 9.0);
        CHECK(m->sigma[5 * g.nx + 8] == 2.0);
        CHECK(m->sigma[5 * g.nx + 2] == 0.0);
    }
    // Staircase: the larger fraction (air, 0.7) wins.
    const auto st = average_medium(p, g, Component::Ex, false, false);
    CHECK(st.eps_r[k] == 1.0);
    CHECK(st.eps_r[5 * g.nx + 6] == 9.0);

    // An interface at 45 degrees: p = (n.x)^2 = 1/2 for Ex and Ey alike.
    Project d = base_project(1.0, 1.0, 0.1);
    d.layers.push_back(layer("diag", "b", {polygon({{-2, -1.97}, {3, 3.03}, {3, -2}})}));  // below y = x + 0.03
    const auto dx_ = average_medium(d, g, Component::Ex, true, false);
    const auto dy_ = average_medium(d, g, Component::Ey, true, false);
    const auto cov = compute_coverage(d, g, false);
    const auto* fb = fraction_of(cov, "b");
    REQUIRE(fb);
    const std::size_t kd = 5 * g.nx + 5;  // sample on the diagonal
    const double f = (*fb)[kd];
    REQUIRE(f > 0.05);
    REQUIRE(f < 0.95);
    const double m = (1 - f) * 1 + f * 9, inv = (1 - f) / 1 + f / 9;
    const double expected = 1.0 / (0.5 * inv + 0.5 / m);
    CHECK(dx_.eps_r[kd] == Approx(expected).epsilon(1e-5));
    CHECK(dy_.eps_r[kd] == Approx(expected).epsilon(1e-5));
    CHECK(expected < m * 0.9);  // distinct from the plain mean
}

TEST_CASE("a step shape without valid data and bad shapes raise errors", "[geometry]") {
    Project p = base_project(1.0, 1.0, 0.1);
    Shape step;
    step.type = ShapeType::Step;
    step.file_name = "part.step";
    step.data_base64 = "SVNPLTEwMzAzLTIx";  // "ISO-10303-21": truncated
    p.layers.push_back(layer("cad", "b", {step}));
    try {
        compute_coverage(p, grid_over(1.0, 1.0, 0.1), false);
        FAIL("no error for a truncated STEP file");
    } catch (const ProjectError& e) {
        CHECK(e.json_path() == "layers[0].shapes[0]");
        CHECK(std::string(e.what()).find("part.step") != std::string::npos);
    }
    CHECK_THROWS_AS(shape_outline(step, 1e-5), std::invalid_argument);
    Shape bad_path;
    bad_path.type = ShapeType::Path;
    bad_path.points = {{0.1, 0.1}};
    bad_path.width = 0.2;
    p.layers[0].shapes = {bad_path};
    CHECK_THROWS(compute_coverage(p, grid_over(1.0, 1.0, 0.1), false));
}

TEST_CASE("coverage of a large grid stays fast and exact", "[geometry]") {
    Project p = base_project(204.8, 204.8, 0.05);  // 4096 x 4096 samples
    p.layers.push_back(layer("disc", "b", {ellipse({102.41, 102.37}, 80.0, 80.0)}));
    p.layers.push_back(layer("bar", "a", {rectangle({10.013, 50.0}, {190.0, 60.0}, 3.0)}));
    const auto areas = material_areas_um2(p, 0.05, false);
    const double bar = (190.0 - 10.013) * 10.0;
    // The bar is drawn over the disc: the disc keeps its area minus the overlap.
    CHECK(areas.at("a") == Approx(bar).epsilon(1e-5));
    CHECK(areas.at("air") + areas.at("a") + areas.at("b") == Approx(204.8 * 204.8).epsilon(1e-6));
    CHECK(areas.at("b") < kPi * 80.0 * 80.0);
    CHECK(areas.at("b") > kPi * 80.0 * 80.0 - bar);
}
