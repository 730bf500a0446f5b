// GoLightly geometry: vector shapes -> closed outlines (rings of vertices, um).
//
// Curves are discretized into chords whose sagitta is below the requested tolerance:
// a chord spanning angle a on a circle of radius r has sagitta r (1 - cos(a/2)).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "geometry_internal.hpp"
#include "golightly/gds.hpp"

namespace golightly {

namespace {

constexpr double kPi = std::numbers::pi;

Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
Vec2 operator*(double s, Vec2 a) { return {s * a.x, s * a.y}; }
double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
double norm(Vec2 a) { return std::hypot(a.x, a.y); }
Vec2 left_normal(Vec2 d) { return {-d.y, d.x}; }

/// Number of chords for an arc of `sweep_rad` on radius `radius_um` with sagitta <= tol.
int arc_segments(double radius_um, double sweep_rad, double tolerance_um) {
    sweep_rad = std::abs(sweep_rad);
    if (radius_um <= 0 || sweep_rad <= 0) return 1;
    const double c = 1.0 - std::min(tolerance_um / radius_um, 1.0);
    const double max_step = std::max(2.0 * std::acos(c), 1e-6);
    const double n = std::ceil(sweep_rad / max_step);
    return int(std::clamp(n, 1.0, 1e7));
}

/// Signed area (shoelace), positive for CCW.
double signed_area(const std::vector<Vec2>& ring) {
    double a = 0;
    const std::size_t n = ring.size();
    for (std::size_t k = 0; k < n; ++k) a += cross(ring[k], ring[(k + 1) % n]);
    return 0.5 * a;
}

std::vector<Vec2> ellipse_ring(Vec2 c, double rx, double ry, double rotation_deg, double tol) {
    const int n = std::max(8, arc_segments(std::max(rx, ry), 2 * kPi, tol));
    const double ca = std::cos(rotation_deg * kPi / 180), sa = std::sin(rotation_deg * kPi / 180);
    std::vector<Vec2> ring(n);
    for (int k = 0; k < n; ++k) {
        const double t = 2 * kPi * k / n;
        const double x = rx * std::cos(t), y = ry * std::sin(t);
        ring[k] = {c.x + ca * x - sa * y, c.y + sa * x + ca * y};
    }
    return ring;
}

/// Path outline: one simple polygon, left offset curve forward then right offset back.
std::vector<Vec2> path_ring(const Shape& s, double tol) {
    // Drop repeated points (zero-length segments have no direction).
    std::vector<Vec2> p;
    for (const Vec2& q : s.points)
        if (p.empty() || norm(q - p.back()) > 1e-12) p.push_back(q);
    if (p.size() < 2) throw std::invalid_argument("path needs at least two distinct points");
    if (!(s.width > 0)) throw std::invalid_argument("path width must be > 0");
    const double h = 0.5 * s.width;
    const std::size_t ns = p.size() - 1;  // segments
    std::vector<Vec2> dir(ns);
    std::vector<double> len(ns);
    for (std::size_t k = 0; k < ns; ++k) {
        len[k] = norm(p[k + 1] - p[k]);
        dir[k] = (1.0 / len[k]) * (p[k + 1] - p[k]);
    }
    std::vector<Vec2> left, right;
    left.push_back(p[0] + h * left_normal(dir[0]));
    right.push_back(p[0] - h * left_normal(dir[0]));
    for (std::size_t i = 1; i < ns + 0; ++i) {  // interior vertex i joins segments i-1 and i
        const Vec2 d0 = dir[i - 1], d1 = dir[i];
        const Vec2 n0 = left_normal(d0), n1 = left_normal(d1);
        const double turn = std::atan2(cross(d0, d1), dot(d0, d1));  // CCW turning angle
        if (std::abs(turn) < 1e-12) continue;                        // collinear: no corner
        bool rounded = s.bend_radius.has_value() && *s.bend_radius > 0;
        if (rounded) {
            // Tangent length t = R tan(|turn|/2), limited by the segment lengths available
            // (a segment shared by two corners gives each half of it).
            const double half = 0.5 * std::abs(turn);
            const double avail0 = (i - 1 == 0) ? len[i - 1] : 0.5 * len[i - 1];
            const double avail1 = (i == ns - 1) ? len[i] : 0.5 * len[i];
            double t = *s.bend_radius * std::tan(half);
            t = std::min({t, avail0, avail1});
            const double R = t / std::tan(half);
            const double side = turn > 0 ? 1.0 : -1.0;  // centre on the left for a left turn
            const Vec2 start = p[i] - t * d0;
            const Vec2 centre = start + (side * R) * n0;
            // Angles of the radius vectors from the centre to the centre line at start/end.
            const double a0 = std::atan2(start.y - centre.y, start.x - centre.x);
            const int n = arc_segments(R + h, turn, tol);
            const double r_left = R - side * h, r_right = R + side * h;
            for (int k = 0; k <= n; ++k) {
                const double a = a0 + turn * k / n;
                const Vec2 u{std::cos(a), std::sin(a)};
                // u points from the centre to the centre line; the left offset lies towards
                // the centre for a left turn.
                left.push_back(centre + std::max(r_left, 0.0) * u);
                right.push_back(centre + std::max(r_right, 0.0) * u);
            }
        } else {
            // Miter join: intersection of the offset lines, p + h (n0 + n1) / (1 + n0.n1).
            const double denom = 1.0 + dot(n0, n1);
            if (denom < 1e-9) throw std::invalid_argument("path reverses on itself (180 degree corner)");
            const Vec2 m = (h / denom) * (n0 + n1);
            left.push_back(p[i] + m);
            right.push_back(p[i] - m);
        }
    }
    left.push_back(p[ns] + h * left_normal(dir[ns - 1]));
    right.push_back(p[ns] - h * left_normal(dir[ns - 1]));
    std::vector<Vec2> ring = left;
    ring.insert(ring.end(), right.rbegin(), right.rend());
    return ring;
}

}  // namespace

Outline shape_outline(const Shape& shape, double tolerance_um) {
    if (!(tolerance_um > 0)) throw std::invalid_argument("shape_outline: tolerance must be > 0");
    Outline out;
    switch (shape.type) {
        case ShapeType::Rectangle: {
            const Vec2 c{0.5 * (shape.min.x + shape.max.x), 0.5 * (shape.min.y + shape.max.y)};
            const double hx = 0.5 * std::abs(shape.max.x - shape.min.x), hy = 0.5 * std::abs(shape.max.y - shape.min.y);
            const double ca = std::cos(shape.rotation_deg * kPi / 180), sa = std::sin(shape.rotation_deg * kPi / 180);
            const Vec2 corners[4] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
            std::vector<Vec2> ring;
            for (const Vec2& q : corners) ring.push_back({c.x + ca * q.x - sa * q.y, c.y + sa * q.x + ca * q.y});
            out.push_back(std::move(ring));
            break;
        }
        case ShapeType::Polygon:
            if (shape.points.size() < 3) throw std::invalid_argument("polygon needs at least three points");
            out.push_back(shape.points);
            break;
        case ShapeType::Ellipse:
            out.push_back(ellipse_ring(shape.center, std::abs(shape.radii.x), std::abs(shape.radii.y),
                                       shape.rotation_deg, tolerance_um));
            break;
        case ShapeType::Ring: {
            out.push_back(ellipse_ring(shape.center, shape.outer_radius, shape.outer_radius, 0, tolerance_um));
            if (shape.inner_radius > 0) {
                std::vector<Vec2> inner = ellipse_ring(shape.center, shape.inner_radius, shape.inner_radius, 0, tolerance_um);
                std::reverse(inner.begin(), inner.end());  // hole: CW
                out.push_back(std::move(inner));
            }
            break;
        }
        case ShapeType::Path:
            out.push_back(path_ring(shape, tolerance_um));
            break;
        case ShapeType::Raster:
            throw std::invalid_argument("raster shapes have no outline");
        case ShapeType::Step:
            throw std::invalid_argument("step shapes have no outline");
        case ShapeType::Gds:
            return gds_shape_polygons(shape);  // one CCW ring per GDSII element (gds.hpp)
        case ShapeType::Sphere:
        case ShapeType::Box:
            throw std::invalid_argument(to_string(shape.type) + " shapes are solids: they have a section at each z, no outline");
    }
    // Orientation: filled region positive (outer CCW, holes CW).
    double area = 0;
    for (const auto& ring : out) area += signed_area(ring);
    if (area < 0)
        for (auto& ring : out) std::reverse(ring.begin(), ring.end());
    return out;
}

Outline shape_outline_at(const Shape& shape, double z_um, double tolerance_um) {
    if (shape.type == ShapeType::Sphere || shape.type == ShapeType::Box) {
        if (!(tolerance_um > 0)) throw std::invalid_argument("shape_outline: tolerance must be > 0");
        return detail::solid_section_outline(shape, z_um, tolerance_um);
    }
    return shape_outline(shape, tolerance_um);
}

namespace detail {

Outline offset_outline(const Outline& outline, double d_um) {
    if (d_um == 0) return outline;
    Outline out;
    for (const auto& ring_in : outline) {
        std::vector<Vec2> ring;
        for (const Vec2& q : ring_in)
            if (ring.empty() || norm(q - ring.back()) > 1e-12) ring.push_back(q);
        while (ring.size() > 1 && norm(ring.back() - ring.front()) <= 1e-12) ring.pop_back();
        const std::size_t n = ring.size();
        if (n < 3) continue;
        const double a0 = signed_area(ring);
        if (a0 == 0) continue;
        std::vector<Vec2> dir(n);
        for (std::size_t k = 0; k < n; ++k) {
            const Vec2 e = ring[(k + 1) % n] - ring[k];
            dir[k] = (1.0 / norm(e)) * e;
        }
        // The filled side is on the left of every ring (outer CCW, holes CW): moving an
        // edge towards it is a shift by +d along its left normal.
        std::vector<Vec2> moved;
        moved.reserve(n);
        for (std::size_t k = 0; k < n; ++k) {
            const Vec2 n0 = left_normal(dir[(k + n - 1) % n]), n1 = left_normal(dir[k]);
            const double denom = 1.0 + dot(n0, n1);
            if (denom < 1e-9) continue;  // a spike folding back on itself: no miter point
            moved.push_back(ring[k] + (d_um / denom) * (n0 + n1));
        }
        if (moved.size() < 3) continue;
        const double a1 = signed_area(moved);
        if (!(a1 * a0 > 0) || std::abs(a1) < 1e-12 * std::abs(a0)) continue;  // collapsed or inverted
        out.push_back(std::move(moved));
    }
    return out;
}

Outline solid_section_outline(const Shape& shape, double z_um, double tolerance_um) {
    if (shape.type == ShapeType::Sphere) {
        if (!(shape.radius > 0)) throw std::invalid_argument("sphere radius must be > 0");
        const double dz = z_um - shape.center_3d.z;
        const double r2 = shape.radius * shape.radius - dz * dz;
        if (!(r2 > 0)) return {};
        // A regular n-gon of circumradius R has area (n/2) R^2 sin(2 pi / n): R chosen so that
        // it equals pi rho^2, so the section areas (and the sphere's volume) are exact.
        const double rho = std::sqrt(r2);
        // n a multiple of 4: the polygon (vertices at angles 2 pi k / n) is then its own
        // mirror image through the x and y planes of the centre, so that a sphere centred on
        // a symmetry plane averages to mirror-image cells (symmetry.hpp) to rounding.
        const int n = 4 * ((std::max(8, arc_segments(rho, 2 * kPi, tolerance_um)) + 3) / 4);
        const double R = rho * std::sqrt(2 * kPi / (n * std::sin(2 * kPi / n)));
        std::vector<Vec2> ring(n);
        for (int k = 0; k < n; ++k) {
            const double t = 2 * kPi * k / n;
            ring[k] = {shape.center_3d.x + R * std::cos(t), shape.center_3d.y + R * std::sin(t)};
        }
        return {std::move(ring)};
    }
    if (shape.type == ShapeType::Box) {
        const double z0 = std::min(shape.box_min.z, shape.box_max.z), z1 = std::max(shape.box_min.z, shape.box_max.z);
        if (z_um < z0 || z_um > z1) return {};
        const double x0 = std::min(shape.box_min.x, shape.box_max.x), x1 = std::max(shape.box_min.x, shape.box_max.x);
        const double y0 = std::min(shape.box_min.y, shape.box_max.y), y1 = std::max(shape.box_min.y, shape.box_max.y);
        if (!(x1 > x0) || !(y1 > y0) || !(z1 > z0)) return {};
        return {{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}};
    }
    throw std::invalid_argument("solid_section_outline: not a sphere or box");
}

}  // namespace detail

}  // namespace golightly
