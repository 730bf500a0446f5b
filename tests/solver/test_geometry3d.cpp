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
#include "project_builders.hpp"

using namespace golightly;
using golightly::test::layer;
using golightly::test::material;
using golightly::test::rectangle;
using golightly::test::ring;

namespace {

constexpr double kPi = std::numbers::pi;

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

// ---------------------------------------------------------------- 3D

namespace {

Project project_3d(double lx, double ly, double lz, double dx) {
    Project p = project_2d(lx, ly, dx);
    p.domain.dimensions = 3;
    p.domain.size = {lx, ly, lz};
    return p;
}

SampleGrid3 grid_3d(double lx, double ly, double lz, double dx) {
    SampleGrid3 g;
    g.dx_um = dx;
    g.nx = int(std::lround(lx / dx));
    g.ny = int(std::lround(ly / dx));
    g.nz = int(std::lround(lz / dx));
    g.x0_um = g.y0_um = g.z0_um = 0.5 * dx;
    return g;
}

Shape sphere(Vec3 c, double r) {
    Shape s;
    s.type = ShapeType::Sphere;
    s.center_3d = c;
    s.radius = r;
    return s;
}

Shape box(Vec3 lo, Vec3 hi) {
    Shape s;
    s.type = ShapeType::Box;
    s.box_min = lo;
    s.box_max = hi;
    return s;
}

double overlap_1d(double a0, double a1, double b0, double b1) { return std::max(0.0, std::min(a1, b1) - std::max(a0, b0)); }

// Area of the disc x^2 + y^2 <= r^2 within [0, X] x [0, Y] (X, Y >= 0), closed form:
// integral_0^min(X, r) min(Y, sqrt(r^2 - x^2)) dx.
double quadrant_area(double X, double Y, double r) {
    if (X <= 0 || Y <= 0) return 0;
    auto F = [r](double x) { return 0.5 * (x * std::sqrt(std::max(r * r - x * x, 0.0)) + r * r * std::asin(std::min(x / r, 1.0))); };
    const double xm = std::min(X, r);
    const double xs = Y >= r ? 0.0 : std::sqrt(r * r - Y * Y);  // sqrt(r^2 - x^2) < Y beyond xs
    const double x_flat = std::min(xm, xs);
    return Y * x_flat + (F(xm) - F(x_flat));
}
double signed_quadrant(double X, double Y, double r) {
    const double s = (X < 0 ? -1.0 : 1.0) * (Y < 0 ? -1.0 : 1.0);
    return s * quadrant_area(std::abs(X), std::abs(Y), r);
}
// Area of the disc of radius r centred at the origin within [x0, x1] x [y0, y1].
double disc_rect_area(double x0, double x1, double y0, double y1, double r) {
    return signed_quadrant(x1, y1, r) - signed_quadrant(x0, y1, r) - signed_quadrant(x1, y0, r) +
           signed_quadrant(x0, y0, r);
}

// Reference volume fraction of a sphere in one cube: the disc-rectangle area integrated
// over z with 48 pieces x 8-point Gauss-Legendre (split at the poles).
double sphere_cube_reference(Vec3 c, double r, double x0, double y0, double z0, double dx) {
    static const double gx[8] = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
                                 0.1834346424956498,  0.5255324099163290,  0.7966664774136267,  0.9602898564975363};
    static const double gw[8] = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
                                 0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
    const double za = std::max(z0, c.z - r), zb = std::min(z0 + dx, c.z + r);
    if (!(zb > za)) return 0;
    const int pieces = 48;
    double v = 0;
    for (int p = 0; p < pieces; ++p) {
        const double a = za + (zb - za) * p / pieces, b = za + (zb - za) * (p + 1) / pieces;
        for (int q = 0; q < 8; ++q) {
            const double z = 0.5 * (a + b) + 0.5 * (b - a) * gx[q];
            const double rho = std::sqrt(std::max(r * r - (z - c.z) * (z - c.z), 0.0));
            v += 0.5 * (b - a) * gw[q] * disc_rect_area(x0 - c.x, x0 + dx - c.x, y0 - c.y, y0 + dx - c.y, rho);
        }
    }
    return v / (dx * dx * dx);
}

}  // namespace

TEST_CASE("sphere: volume fractions sum to 4/3 pi r^3 and cut cells match the exact integral", "[geometry3d]") {
    const Vec3 c{1.03, 0.97, 1.01};
    const double r = 0.71;
    std::vector<double> l1;
    for (double dx : {0.2, 0.1, 0.05}) {
        Project p = project_3d(2, 2, 2, dx);
        p.layers = {layer("ball", "a", {sphere(c, r)})};
        const SampleGrid3 g = grid_3d(2, 2, 2, dx);
        const Coverage cov = compute_coverage_3d(p, g, false);
        const auto& f = fraction_of(cov, "a");
        const auto& bg = fraction_of(cov, "air");
        double vol = 0, err = 0, worst = 0;
        for (int k = 0; k < g.nz; ++k)
            for (int j = 0; j < g.ny; ++j)
                for (int i = 0; i < g.nx; ++i) {
                    const std::size_t idx = (std::size_t(k) * g.ny + j) * g.nx + i;
                    REQUIRE(f[idx] + bg[idx] == Approx(1.0).margin(1e-6));
                    vol += f[idx];
                    if (f[idx] > 0 && f[idx] < 1) {
                        const double ref = sphere_cube_reference(c, r, i * dx, j * dx, k * dx, dx);
                        err += std::abs(f[idx] - ref);
                        worst = std::max(worst, std::abs(f[idx] - ref));
                    }
                }
        vol *= dx * dx * dx;
        const double exact = 4.0 / 3.0 * kPi * r * r * r;
        l1.push_back(err * dx * dx * dx);
        std::printf("[geometry3d] sphere r %.2f, dx %.3f: volume %.9f (exact %.9f, rel %.1e); cut cells: L1 volume error "
                    "%.2e um^3, worst cell %.1e\n",
                    r, dx, vol, exact, std::abs(vol / exact - 1), l1.back(), worst);
        // the section areas are exact (area-preserving discs) and polynomial in z, so the
        // z quadrature is exact on the total: the volume is exact at every dx (an error
        // order is not defined; a wrong section radius or weight shows here at once)
        CHECK(std::abs(vol / exact - 1) < 1e-8);
        // single cut cells: the z quadrature of a profile with kinks (where the disc's edge
        // crosses a cell corner), worst next to the poles
        CHECK(worst < 3e-2);
        CHECK(l1.back() < 2e-4 * exact);
    }
    // the misplaced volume of the cut cells does not grow as the cells shrink
    CHECK(l1[2] < l1[0]);
}

TEST_CASE("box: exact volume fractions of partial cells, later layers override", "[geometry3d]") {
    const double dx = 0.25;
    Project p = project_3d(2, 2, 2, dx);
    const Vec3 lo{0.13, 0.27, 0.41}, hi{1.58, 1.11, 1.93};
    // a slab layer z in [0.6, 1.0] under the box (drawn first), the box on top
    Layer slab = layer("slab", "b", {rectangle({-1, -1}, {3, 3})});
    slab.z = std::array<double, 2>{0.6, 1.0};
    p.layers = {slab, layer("box", "a", {box(lo, hi)})};
    const SampleGrid3 g = grid_3d(2, 2, 2, dx);
    const Coverage cov = compute_coverage_3d(p, g, false);
    const auto& fa = fraction_of(cov, "a");
    const auto& fb = fraction_of(cov, "b");
    double vol_a = 0;
    for (int k = 0; k < g.nz; ++k)
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) {
                const std::size_t idx = (std::size_t(k) * g.ny + j) * g.nx + i;
                const double ox = overlap_1d(i * dx, (i + 1) * dx, lo.x, hi.x) / dx;
                const double oy = overlap_1d(j * dx, (j + 1) * dx, lo.y, hi.y) / dx;
                const double oz = overlap_1d(k * dx, (k + 1) * dx, lo.z, hi.z) / dx;
                const double sz = overlap_1d(k * dx, (k + 1) * dx, 0.6, 1.0) / dx;
                // per z the box's section covers ox*oy of the window over the slab: the slab
                // keeps (1 - ox oy) on the z share where both are present, all of it elsewhere
                const double both = overlap_1d(k * dx, (k + 1) * dx, std::max(lo.z, 0.6), std::min(hi.z, 1.0)) / dx;
                CHECK(fa[idx] == Approx(ox * oy * oz).margin(1e-6));
                CHECK(fb[idx] == Approx(sz - both * ox * oy).margin(1e-6));
                vol_a += fa[idx];
            }
    CHECK(vol_a * dx * dx * dx == Approx((hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z)).epsilon(1e-6));
    // 2D: the box cut at slice_z is its rectangle; a sphere a disc
    Project p2 = project_2d(2, 2, dx);
    p2.domain.slice_z = 1.2;
    p2.layers = {layer("box", "a", {box(lo, hi)}), layer("ball", "b", {sphere({1.0, 1.6, 1.0}, 0.3)})};
    const Coverage c2 = compute_coverage(p2, grid_2d(2, 2, 0.01), false);
    CHECK(sum_of(fraction_of(c2, "b")) * 1e-4 == Approx(kPi * (0.09 - 0.04)).epsilon(1e-6));
    CHECK(sum_of(fraction_of(c2, "a")) * 1e-4 == Approx((hi.x - lo.x) * (hi.y - lo.y)).epsilon(1e-6));
    CHECK(shape_outline_at(box(lo, hi), 1.0, 1e-5).size() == 1);
    CHECK(shape_outline_at(box(lo, hi), 2.0, 1e-5).empty());
    CHECK(shape_outline_at(sphere({1, 1, 1}, 0.5), 1.6, 1e-5).empty());
    CHECK_THROWS_AS(shape_outline(sphere({1, 1, 1}, 0.5), 1e-5), std::invalid_argument);
    p2.domain.slice_z = 0.2;  // below the box, through neither
    const Coverage c3 = compute_coverage(p2, grid_2d(2, 2, 0.1), false);
    CHECK(c3.material_ids.size() == 1);
}

TEST_CASE("sidewall: an extruded rectangle shrinks with height (trapezoid volumes per layer of cells)", "[geometry3d]") {
    const double dx = 0.1;
    for (double angle : {10.0, -8.0}) {
        Project p = project_3d(3, 3, 2, dx);
        Layer wg = layer("wg", "a", {rectangle({0.52, 0.61}, {2.37, 1.43})});
        wg.z = std::array<double, 2>{0.33, 1.57};
        wg.sidewall_angle_deg = angle;
        p.layers = {wg};
        const SampleGrid3 g = grid_3d(3, 3, 2, dx);
        const Coverage cov = compute_coverage_3d(p, g, false);
        const auto& f = fraction_of(cov, "a");
        const double w = 2.37 - 0.52, h = 1.43 - 0.61, t = std::tan(angle * kPi / 180);
        // section area A(z) = (w - 2 d)(h - 2 d), d = (z - z0) t; its integral over [a, b]:
        auto prim = [&](double z) {
            const double s = z - 0.33;
            return w * h * s - (w + h) * t * s * s + 4.0 / 3.0 * t * t * s * s * s;
        };
        double total = 0;
        for (int k = 0; k < g.nz; ++k) {
            double s = 0;
            for (std::size_t i = 0; i < std::size_t(g.nx) * g.ny; ++i) s += f[std::size_t(k) * g.nx * g.ny + i];
            const double a = std::max(k * dx, 0.33), b = std::min((k + 1) * dx, 1.57);
            const double exact = b > a ? (prim(b) - prim(a)) / dx : 0.0;
            CHECK(s * dx * dx == Approx(exact).margin(1e-6));
            total += s * dx * dx * dx;
        }
        const double exact_total = prim(1.57) - prim(0.33);
        std::printf("[geometry3d] sidewall %+.0f deg: volume %.9f um^3, analytic %.9f (vertical walls %.9f)\n", angle,
                    total, exact_total, w * h * (1.57 - 0.33));
        CHECK(total == Approx(exact_total).epsilon(1e-6));
        // one cut cell at the top: the section at z is the rectangle shrunk by d on each side;
        // the cell at the left wall (x window [0.5, 0.6]), middle y, top layer z [1.5, 1.6]:
        // covered x in [0.52 + d(z), 0.6] for z in [1.5, 1.57]
        const double d0 = (1.5 - 0.33) * t, d1 = (1.57 - 0.33) * t;
        const int i = int(std::floor((0.52 + 0.5 * (d0 + d1)) / dx)), j = 10, k = 15;
        REQUIRE(i == int(std::floor((0.52 + d0) / dx)));
        REQUIRE(i == int(std::floor((0.52 + d1) / dx)));
        // covered x in [0.52 + d(z), (i + 1) dx] for z in [1.5, 1.57], d linear in z
        const double exact_cell = (((i + 1) * dx - 0.52) * 0.07 - 0.07 * 0.5 * (d0 + d1)) / (dx * dx);
        CHECK(f[(std::size_t(k) * g.ny + j) * g.nx + i] == Approx(exact_cell).margin(1e-6));
    }
}

TEST_CASE("a z-invariant 3D stack gives exactly the 2D coverage and medium on every z", "[geometry3d]") {
    const double dx = 0.05;
    Project p2 = project_2d(2, 1.5, dx);
    Shape poly;
    poly.type = ShapeType::Polygon;
    poly.points = {{0.21, 0.33}, {1.47, 0.52}, {1.13, 1.29}, {0.62, 1.07}};
    Shape ell;
    ell.type = ShapeType::Ellipse;
    ell.center = {1.2, 0.8};
    ell.radii = {0.43, 0.29};
    ell.rotation_deg = 17;
    p2.layers = {layer("sub", "b", {rectangle({0.0, 0.0}, {2.0, 0.41})}),
                 layer("core", "a", {poly, rectangle({1.0, 0.2}, {1.9, 0.63}, 12.0)}), layer("hole", "air", {ell})};
    Project p3 = p2;
    p3.domain.dimensions = 3;
    p3.domain.size = {2, 1.5, 0.6};
    SampleGrid g2 = grid_2d(2, 1.5, dx);
    SampleGrid3 g3 = grid_3d(2, 1.5, 0.6, dx);
    g2.x0_um = g3.x0_um = 0.013;  // a staggered (Yee) position
    const std::size_t n2 = std::size_t(g2.nx) * g2.ny;
    const Coverage c2 = compute_coverage(p2, g2, false);
    const Coverage c3 = compute_coverage_3d(p3, g3, false);
    REQUIRE(c2.material_ids == c3.material_ids);
    for (std::size_t q = 0; q < c2.material_ids.size(); ++q)
        for (int k = 0; k < g3.nz; ++k)
            REQUIRE(std::equal(c2.fraction[q].begin(), c2.fraction[q].end(), c3.fraction[q].begin() + k * n2));
    for (bool subpixel : {true, false}) {
        for (Component comp : {Component::Ex, Component::Ey, Component::Ez}) {
            const AveragedMedium m2 = average_medium(p2, g2, comp, subpixel, false);
            const AveragedMedium m3 = average_medium_3d(p3, g3, comp, subpixel, false);
            REQUIRE(m3.eps_r.size() == n2 * g3.nz);
            int mismatches = 0, mixed = 0;
            for (int k = 0; k < g3.nz; ++k)
                for (std::size_t i = 0; i < n2; ++i) {
                    mismatches += m3.eps_r[k * n2 + i] != m2.eps_r[i] || m3.sigma[k * n2 + i] != m2.sigma[i];
                    mixed += m2.eps_r[i] != 1.0 && m2.eps_r[i] != 4.0 && m2.eps_r[i] != 9.0;
                }
            CHECK(mismatches == 0);
            if (subpixel) CHECK(mixed > 0);
        }
    }
}

TEST_CASE("3D averaging: a horizontal interface is normal to z (Ez harmonic, Ex arithmetic)", "[geometry3d]") {
    const double dx = 0.1;
    Project p = project_3d(1, 1, 1, dx);
    Layer top = layer("film", "b", {rectangle({-1, -1}, {2, 2})});
    top.z = std::array<double, 2>{0.537, 5.0};
    p.layers = {top};
    SampleGrid3 g = grid_3d(1, 1, 1, dx);
    const int k = 5;  // window z in [0.5, 0.6]: film share f
    const double f = (0.6 - 0.537) / dx;
    const std::size_t idx = (std::size_t(k) * g.ny + 4) * g.nx + 4;
    const AveragedMedium ez = average_medium_3d(p, g, Component::Ez, true, false);
    const AveragedMedium ex = average_medium_3d(p, g, Component::Ex, true, false);
    const AveragedMedium st = average_medium_3d(p, g, Component::Ex, false, false);
    CHECK(ez.eps_r[idx] == Approx(1.0 / (f / 9.0 + (1 - f) / 1.0)).epsilon(1e-6));
    CHECK(ex.eps_r[idx] == Approx(f * 9.0 + (1 - f) * 1.0).epsilon(1e-6));
    CHECK(ez.sigma[idx] == Approx(f * 1.0).epsilon(1e-6));
    REQUIRE(f > 0.5);
    CHECK(st.eps_r[idx] == 9.0);  // staircase: the film holds the larger share
    CHECK(st.eps_r[idx - g.nx * g.ny] == 1.0);
    CHECK(ez.eps_r[idx + 2 * g.nx * g.ny] == 9.0);
    // a sphere: Ex at the cube on the +x pole sees the interface normal along x (harmonic)
    Project ps = project_3d(1, 1, 1, dx);
    ps.layers = {layer("ball", "b", {sphere({0.5, 0.5, 0.5}, 0.33)})};
    // sample cube centred at (0.83, 0.5, 0.5): the pole sits in its middle
    SampleGrid3 gs = g;
    gs.x0_um = 0.03;
    const std::size_t pole = (std::size_t(5) * gs.ny + 5) * gs.nx + 8;  // x = 0.83, y = z = 0.55 - 0.05
    gs.y0_um = gs.z0_um = 0.0;
    const Coverage cs = compute_coverage_3d(ps, gs, false);
    const double fs = fraction_of(cs, "b")[pole];
    REQUIRE(fs > 0.05);
    REQUIRE(fs < 0.95);
    const double sx = average_medium_3d(ps, gs, Component::Ex, true, false).eps_r[pole];
    const double sy = average_medium_3d(ps, gs, Component::Ey, true, false).eps_r[pole];
    CHECK(sx == Approx(1.0 / (fs / 9.0 + (1 - fs))).epsilon(0.02));
    CHECK(sy == Approx(fs * 9.0 + (1 - fs)).epsilon(0.02));
}

TEST_CASE("material volumes add up to the domain volume", "[geometry3d]") {
    Project p = project_3d(3, 2, 1.5, 0.1);
    Layer wg = layer("wg", "a", {rectangle({0.3, 0.4}, {2.6, 0.9}), rectangle({1.5, 0.2}, {2.0, 1.8})});
    wg.z = std::array<double, 2>{0.2, 0.62};
    wg.sidewall_angle_deg = 5;
    p.layers = {wg, layer("ball", "b", {sphere({1.2, 1.1, 0.7}, 0.45)}), layer("cap", "a", {box({2.2, 1.0, 0.9}, {3.5, 2.5, 1.3})})};
    const auto vols = material_volumes_um3(p, 0.1, false);
    double total = 0;
    for (const auto& [id, v] : vols) total += v;
    CHECK(total == Approx(3 * 2 * 1.5).epsilon(1e-6));
    CHECK(vols.at("b") == Approx(4.0 / 3.0 * kPi * std::pow(0.45, 3)).epsilon(1e-6));  // drawn over wg, under cap
    const double cap = 0.8 * 1.0 * 0.4;  // inside the domain
    CHECK(vols.at("a") > cap);
    CHECK(vols.at("a") < cap + 2.3 * 0.5 * 0.42 + 0.5 * 1.6 * 0.42);
}

TEST_CASE("3D: overlapping solids of one layer count once, 2D cuts of sidewalls, errors name the shape", "[geometry3d]") {
    // two spheres of radius r, centres d apart, in one layer: the union's volume is
    // 2 V - lens, lens = pi (4 r + d) (2 r - d)^2 / 12
    const double r = 0.4, d = 0.5;
    Project p = project_3d(2, 2, 2, 0.1);
    p.layers = {layer("pair", "a", {sphere({0.73, 1.02, 0.98}, r), sphere({0.73 + d, 1.02, 0.98}, r)})};
    const auto vols = material_volumes_um3(p, 0.1, false);
    const double lens = kPi * (4 * r + d) * (2 * r - d) * (2 * r - d) / 12;
    // (the lens area is not polynomial in z: z quadrature error, plus the discs' chords)
    CHECK(vols.at("a") == Approx(2 * 4.0 / 3.0 * kPi * r * r * r - lens).epsilon(1e-5));

    // 2D: a sidewall layer cut at slice_z is its outline shrunk by (slice_z - z0) tan(angle)
    Project p2 = project_2d(3, 3, 0.01);
    Layer wg = layer("wg", "a", {rectangle({0.5, 0.5}, {2.5, 1.5})});
    wg.z = std::array<double, 2>{0.2, 1.2};
    wg.sidewall_angle_deg = 30;
    p2.layers = {wg};
    p2.domain.slice_z = 0.7;
    const double sh = 0.5 * std::tan(kPi / 6);
    const Coverage c2 = compute_coverage(p2, grid_2d(3, 3, 0.01), false);
    CHECK(sum_of(fraction_of(c2, "a")) * 1e-4 == Approx((2 - 2 * sh) * (1 - 2 * sh)).epsilon(1e-6));

    // errors: the layer and shape are named
    Project bad = project_3d(1, 1, 1, 0.1);
    bad.layers = {layer("ok", "a", {box({0, 0, 0}, {1, 1, 1})}), layer("ball", "b", {box({0, 0, 0}, {1, 1, 1}), sphere({0.5, 0.5, 0.5}, 0.0)})};
    CHECK_THROWS_WITH(compute_coverage_3d(bad, grid_3d(1, 1, 1, 0.1), false), Catch::Contains("layers[1].shapes[1]"));
    bad.layers[1].shapes.pop_back();
    bad.layers[1].material = "nope";
    CHECK_THROWS_WITH(material_volumes_um3(bad, 0.1, false), Catch::Contains("layers[1].material"));
}

TEST_CASE("3D averaging: a 45 degree sidewall tilts the normal half way to z", "[geometry3d]") {
    const double dx = 0.1;
    Project p = project_3d(2, 1, 1, dx);
    Layer wg = layer("wg", "b", {rectangle({0.52, -1.0}, {5.0, 2.0})});
    wg.z = std::array<double, 2>{0.0, 1.0};
    wg.sidewall_angle_deg = 45;  // the left wall at x = 0.52 + z
    p.layers = {wg};
    const SampleGrid3 g = grid_3d(2, 1, 1, dx);
    const std::size_t idx = (std::size_t(5) * g.ny + 5) * g.nx + 10;  // window x [1.0, 1.1], z [0.5, 0.6]
    const double f = fraction_of(compute_coverage_3d(p, g, false), "b")[idx];
    REQUIRE(f > 0.1);
    REQUIRE(f < 0.9);
    const double ex = average_medium_3d(p, g, Component::Ex, true, false).eps_r[idx];
    const double ey = average_medium_3d(p, g, Component::Ey, true, false).eps_r[idx];
    const double ez = average_medium_3d(p, g, Component::Ez, true, false).eps_r[idx];
    // n = (-1, 0, 1)/sqrt(2): Ex and Ez see half the harmonic and half the arithmetic
    // inverse; Ey is parallel to the wall (arithmetic mean)
    const double a = f / 9.0 + (1 - f), b = 1.0 / (9.0 * f + (1 - f));
    // (g_z is exact; g_x is the z quadrature of the 2D normals, which step where the wall
    // leaves the window through its side: that z is a break of the quadrature, so exact)
    const double harmonic = 1.0 / a, arithmetic = 1.0 / b, half = 1.0 / (0.5 * a + 0.5 * b);
    std::printf("[geometry3d] 45 degree wall, f = %.4f: Ex %.4f, Ez %.4f, expected %.4f (harmonic %.4f, arithmetic %.4f)\n",
                f, ex, ez, half, harmonic, arithmetic);
    CHECK(ex == Approx(half).epsilon(1e-6));
    CHECK(ez == Approx(half).epsilon(1e-6));
    // covered part of the xz window [1.0, 1.1] x [0.5, 0.6]: x > 0.52 + z, a right
    // triangle with legs 0.08
    CHECK(f == Approx(0.08 * 0.08 / 2 / 0.01).epsilon(1e-6));
    CHECK(ey == Approx(9.0 * f + (1 - f)).epsilon(1e-9));
}
