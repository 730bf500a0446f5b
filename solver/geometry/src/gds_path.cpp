// GoLightly: the filled outline of a GDSII path (gds::path_polygon): miter joins and the
// PATHTYPE end caps.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "golightly/gds.hpp"

namespace golightly::gds {

std::vector<Vec2> path_polygon(const Path& path) {
    std::vector<Vec2> p;
    for (const Vec2& q : path.points)
        if (p.empty() || std::hypot(q.x - p.back().x, q.y - p.back().y) > 1e-12) p.push_back(q);
    if (p.size() < 2) throw std::invalid_argument("path needs at least two distinct points");
    if (!(path.width > 0)) throw std::invalid_argument("path width must be > 0");
    const double h = 0.5 * path.width;
    const std::size_t ns = p.size() - 1;
    std::vector<Vec2> dir(ns);
    for (std::size_t k = 0; k < ns; ++k) {
        const double l = std::hypot(p[k + 1].x - p[k].x, p[k + 1].y - p[k].y);
        dir[k] = {(p[k + 1].x - p[k].x) / l, (p[k + 1].y - p[k].y) / l};
    }
    double ext0 = 0, ext1 = 0;
    if (path.pathtype == 2) ext0 = ext1 = h;
    if (path.pathtype == 4) ext0 = path.begin_extension, ext1 = path.end_extension;
    p[0] = {p[0].x - ext0 * dir[0].x, p[0].y - ext0 * dir[0].y};
    p[ns] = {p[ns].x + ext1 * dir[ns - 1].x, p[ns].y + ext1 * dir[ns - 1].y};
    const auto lnorm = [](Vec2 d) { return Vec2{-d.y, d.x}; };
    std::vector<Vec2> left, right;
    const auto push = [&](Vec2 q, Vec2 m) {
        left.push_back({q.x + m.x, q.y + m.y});
        right.push_back({q.x - m.x, q.y - m.y});
    };
    push(p[0], {h * lnorm(dir[0]).x, h * lnorm(dir[0]).y});
    for (std::size_t i = 1; i < ns; ++i) {
        const Vec2 n0 = lnorm(dir[i - 1]), n1 = lnorm(dir[i]);
        const double cr = dir[i - 1].x * dir[i].y - dir[i - 1].y * dir[i].x;
        const double dt = dir[i - 1].x * dir[i].x + dir[i - 1].y * dir[i].y;
        if (std::abs(std::atan2(cr, dt)) < 1e-12) continue;
        const double denom = 1.0 + n0.x * n1.x + n0.y * n1.y;
        if (denom < 1e-9) throw std::invalid_argument("path reverses on itself (180 degree corner)");
        push(p[i], {h / denom * (n0.x + n1.x), h / denom * (n0.y + n1.y)});
    }
    push(p[ns], {h * lnorm(dir[ns - 1]).x, h * lnorm(dir[ns - 1]).y});

    // Round caps: m chords; end points at radius h, the m - 1 inner points at radius R with
    // (1/2) sin(pi/m) [2 h R + (m - 2) R^2] = pi h^2 / 2 (the half disc's exact area).
    constexpr int m = 256;
    const double sd = std::sin(std::numbers::pi / m);
    const double qa = 0.5 * (m - 2) * sd, qb = h * sd, qc = -0.5 * std::numbers::pi * h * h;
    const double R = (-qb + std::sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
    const auto cap = [&](Vec2 c, double from_angle, std::vector<Vec2>& ring) {
        for (int k = 1; k < m; ++k) {
            const double a = from_angle - std::numbers::pi * k / m;
            ring.push_back({c.x + R * std::cos(a), c.y + R * std::sin(a)});
        }
    };
    std::vector<Vec2> ring = left;
    if (path.pathtype == 1) {
        const Vec2 n = lnorm(dir[ns - 1]);
        cap(p[ns], std::atan2(n.y, n.x), ring);
    }
    ring.insert(ring.end(), right.rbegin(), right.rend());
    if (path.pathtype == 1) {
        const Vec2 n = lnorm(dir[0]);
        cap(p[0], std::atan2(-n.y, -n.x), ring);
    }
    double area = 0;
    for (std::size_t k = 0; k < ring.size(); ++k) {
        const Vec2 a = ring[k], b = ring[(k + 1) % ring.size()];
        area += a.x * b.y - a.y * b.x;
    }
    if (area < 0) std::reverse(ring.begin(), ring.end());
    return ring;
}

}  // namespace golightly::gds
