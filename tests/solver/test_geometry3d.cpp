// Tests of the 3D geometry compile (geometry.hpp, "3D"): volume fractions of spheres, boxes,
// extruded and sidewall layers and STEP solids, the averaged medium per E component, and
// the union of overlapping shapes of one layer (2D and 3D).
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "golightly/errors.hpp"
#include "golightly/geometry.hpp"

using namespace golightly;

namespace {

constexpr double kPi = std::numbers::pi;

Shape rectangle(Vec2 lo, Vec2 hi, double rot = 0) {
    Shape s;
    s.type = ShapeType::Rectangle;
    s.min = lo;
    s.max = hi;
    s.rotation_deg = rot;
    return s;
}

Shape ring(Vec2 c, double r_in, double r_out) {
    Shape s;
    s.type = ShapeType::Ring;
    s.center = c;
    s.inner_radius = r_in;
    s.outer_radius = r_out;
    return s;
}

Material material(const std::string& id, double eps, double sigma = 0) {
    Material m;
    m.id = id;
    m.name = id;
    m.epsilon_inf = eps;
    m.conductivity = sigma;
    return m;
}

Layer layer(const std::string& name, const std::string& mat, std::vector<Shape> shapes) {
    Layer l;
    l.name = name;
    l.material = mat;
    l.shapes = std::move(shapes);
    return l;
}

Project project_2d(double lx, double ly, double dx) {
    Project p;
    p.domain.dimensions = 2;
    p.domain.size = {lx, ly, 0};
    p.domain.cell_size = dx;
    p.materials = {material("air", 1.0), material("a", 4.0, 0.5), material("b", 9.0, 1.0)};
    return p;
}

SampleGrid grid_2d(double lx, double ly, double dx) {
    SampleGrid g;
    g.dx_um = dx;
    g.nx = int(std::lround(lx / dx));
    g.ny = int(std::lround(ly / dx));
    g.x0_um = 0.5 * dx;
    g.y0_um = 0.5 * dx;
    return g;
}

// Corners of a rotated rectangle, CCW (as shape_outline places them).
std::vector<Vec2> corners(const Shape& r) {
    return shape_outline(r, 1e-6)[0];
}

double polygon_area(const std::vector<Vec2>& p) {
    double a = 0;
    for (std::size_t k = 0; k < p.size(); ++k) {
        const Vec2& u = p[k];
        const Vec2& v = p[(k + 1) % p.size()];
        a += 0.5 * (u.x * v.y - v.x * u.y);
    }
    return a;
}

// Intersection of two convex CCW polygons (Sutherland-Hodgman clipping).
std::vector<Vec2> clip_convex(std::vector<Vec2> subject, const std::vector<Vec2>& clip) {
    for (std::size_t k = 0; k < clip.size() && !subject.empty(); ++k) {
        const Vec2 a = clip[k], b = clip[(k + 1) % clip.size()];
        auto side = [&](Vec2 p) { return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x); };
        std::vector<Vec2> out;
        for (std::size_t i = 0; i < subject.size(); ++i) {
            const Vec2 p = subject[i], q = subject[(i + 1) % subject.size()];
            const double sp = side(p), sq = side(q);
            if (sp >= 0) out.push_back(p);
            if ((sp >= 0) != (sq >= 0)) {
                const double t = sp / (sp - sq);
                out.push_back({p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)});
            }
        }
        subject = std::move(out);
    }
    return subject;
}

double sum_of(const std::vector<float>& v) {
    double s = 0;
    for (float f : v) s += f;
    return s;
}

const std::vector<float>& fraction_of(const Coverage& c, const std::string& id) {
    for (std::size_t q = 0; q < c.material_ids.size(); ++q)
        if (c.material_ids[q] == id) return c.fraction[q];
    FAIL("material " << id << " not in the coverage");
    static std::vector<float> none;
    return none;
}

}  // namespace

// ---------------------------------------------------------------- 2D: union of one layer

TEST_CASE("overlapping shapes of one layer cover a partial cell once (union)", "[geometry][geometry3d]") {
    Project p = project_2d(4, 4, 1);
    const SampleGrid g = grid_2d(4, 4, 1);
    SECTION("two rectangles, one inside the other's partial cell") {
        // cell (0, 0) = [0, 1]^2: A covers x in [0.5, 1], B x in [0.3, 1]: union 0.7 (the sum
        // of the two, clamped, would be 1)
        p.layers = {layer("L", "a", {rectangle({0.5, 0}, {5, 5}), rectangle({0.3, 0}, {5, 5})})};
        const Coverage c = compute_coverage(p, g, false);
        CHECK(fraction_of(c, "a")[0] == Approx(0.7).margin(1e-6));
        CHECK(fraction_of(c, "air")[0] == Approx(0.3).margin(1e-6));
    }
    SECTION("an L of two overlapping rectangles (the bend of a waveguide)") {
        p.layers = {layer("L", "a", {rectangle({0.25, 0.25}, {4, 1.5}), rectangle({0.25, 0.25}, {1.5, 4})})};
        const Coverage c = compute_coverage(p, g, false);
        const auto& f = fraction_of(c, "a");
        CHECK(f[1 * 4 + 1] == Approx(0.75).margin(1e-6));  // corner cell [1,2]^2: 0.5 + 0.5 - 0.25
        CHECK(f[0] == Approx(0.75 * 0.75).margin(1e-6));
        const double union_area = 3.75 * 1.25 + 1.25 * 2.5;  // clipped to the 4 x 4 domain
        CHECK(sum_of(f) == Approx(union_area).margin(1e-5));
    }
    SECTION("two rotated rectangles: union area exact, partial cells against sampling") {
        const Shape ra = rectangle({0.7, 0.9}, {3.1, 2.2}, 23.0), rb = rectangle({1.3, 0.4}, {2.6, 3.3}, -38.0);
        p.layers = {layer("L", "a", {ra, rb})};
        const Coverage c = compute_coverage(p, g, false);
        const auto& f = fraction_of(c, "a");
        const auto pa = corners(ra), pb = corners(rb);
        const double exact = polygon_area(pa) + polygon_area(pb) - polygon_area(clip_convex(pa, pb));
        REQUIRE(polygon_area(clip_convex(pa, pb)) > 0.3);  // they do overlap
        CHECK(sum_of(f) == Approx(exact).epsilon(1e-6));
        // per cell: 400 x 400 point sampling of each window
        auto inside = [](const std::vector<Vec2>& poly, double x, double y) {
            for (std::size_t k = 0; k < poly.size(); ++k) {
                const Vec2 a = poly[k], b = poly[(k + 1) % poly.size()];
                if ((b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) < 0) return false;
            }
            return true;
        };
        for (int j = 0; j < 4; ++j)
            for (int i = 0; i < 4; ++i) {
                int hit = 0;
                const int n = 400;
                for (int b = 0; b < n; ++b)
                    for (int a = 0; a < n; ++a) {
                        const double x = i + (a + 0.5) / n, y = j + (b + 0.5) / n;
                        hit += inside(pa, x, y) || inside(pb, x, y);
                    }
                CHECK(f[j * 4 + i] == Approx(double(hit) / (n * n)).margin(4e-3));
            }
    }
    SECTION("a rectangle across the hole of a ring") {
        // ring r in [0.6, 1.6] centred (2, 2); bar y in [1.8, 2.2] across it: the union is
        // the annulus plus the bar's part inside the hole
        p.layers = {layer("L", "a", {ring({2, 2}, 0.6, 1.6), rectangle({0.0, 1.8}, {4.0, 2.2})})};
        const Coverage c = compute_coverage(p, g, false);
        const double annulus = kPi * (1.6 * 1.6 - 0.6 * 0.6);
        // bar minus its overlap with the annulus: the bar outside the outer circle, plus the
        // chord strip inside the hole; strip area of a circle of radius r between y = -h..h:
        auto strip = [](double r, double h) { return 2 * (h * std::sqrt(r * r - h * h) + r * r * std::asin(h / r)); };
        const double bar_outside = 4.0 * 0.4 - strip(1.6, 0.2);
        const double exact = annulus + bar_outside + strip(0.6, 0.2);
        CHECK(sum_of(fraction_of(c, "a")) == Approx(exact).epsilon(1e-5));
    }
}
