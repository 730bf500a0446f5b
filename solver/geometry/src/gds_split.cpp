// GoLightly: splitting a polygon into pieces a GDSII boundary can hold (gds::split_polygon;
// the writer's limit of kMaxBoundaryVertices per XY record).
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "golightly/gds.hpp"
#include "gds_internal.hpp"

namespace golightly::gds {

namespace detail {

Ring64 dedupe(Ring64 r) {
    Ring64 out;
    for (const auto& p : r)
        if (out.empty() || out.back() != p) out.push_back(p);
    while (out.size() > 1 && out.back() == out.front()) out.pop_back();
    return out;
}

}  // namespace detail

namespace {

using detail::dedupe;
using detail::Ring64;

/// An integer strictly inside (lo, hi) that no vertex has as coordinate `axis`, closest to
/// the median coordinate; nullopt when every integer there is taken.
std::optional<std::int64_t> free_cut(const Ring64& r, int axis) {
    std::vector<std::int64_t> v;
    v.reserve(r.size());
    for (const auto& p : r) v.push_back(p[std::size_t(axis)]);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    if (v.size() < 2) return std::nullopt;
    // Gaps between consecutive distinct values hold free integers; take the one nearest the
    // median vertex (by count), searching outward over the gaps.
    const std::size_t mid = v.size() / 2;
    for (std::size_t d = 0; d < v.size(); ++d) {
        for (int sgn : {-1, 1}) {
            const std::ptrdiff_t g = std::ptrdiff_t(mid) + sgn * std::ptrdiff_t(d) - (sgn < 0 ? 1 : 0);
            if (g < 0 || std::size_t(g) + 1 >= v.size()) continue;
            const std::int64_t a = v[std::size_t(g)], b = v[std::size_t(g) + 1];
            if (b - a >= 2) return a + (b - a) / 2;
        }
    }
    return std::nullopt;
}

/// Splits a simple ring at the line coord[axis] = c (no vertex on it) into the pieces on
/// each side: the boundary is cut into chains at its crossings, the crossings are paired
/// along the line by increasing position (the inside intervals), and each piece follows a
/// chain to its end crossing, the line to the paired crossing, and the chain that starts
/// there. Crossing points are rounded to integers (shared by the pieces on both sides).
std::vector<Ring64> cut_ring(const Ring64& r, int axis, std::int64_t c) {
    const int o = 1 - axis;  // the coordinate along the line
    const std::size_t n = r.size();
    struct Crossing {
        std::size_t edge;   // crosses between r[edge] and r[edge + 1]
        long double t;      // exact position along the line
        std::array<std::int64_t, 2> p;
        bool up;            // r[edge + 1] is on the side coord[axis] > c: chain `k` lies there
        std::size_t partner = 0;
    };
    std::vector<Crossing> xs;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& a = r[i];
        const auto& b = r[(i + 1) % n];
        if ((a[std::size_t(axis)] < c) == (b[std::size_t(axis)] < c)) continue;
        const long double f = (long double)(c - a[std::size_t(axis)]) / (long double)(b[std::size_t(axis)] - a[std::size_t(axis)]);
        const long double t = (long double)a[std::size_t(o)] + f * (long double)(b[std::size_t(o)] - a[std::size_t(o)]);
        std::array<std::int64_t, 2> p{};
        p[std::size_t(axis)] = c;
        p[std::size_t(o)] = std::int64_t(std::llround(t));
        xs.push_back({i, t, p, b[std::size_t(axis)] > c});
    }
    if (xs.size() < 2 || xs.size() % 2) throw std::runtime_error("internal error: odd crossings while splitting a polygon");
    std::vector<std::size_t> order(xs.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return xs[a].t < xs[b].t; });
    // Along the line, the crossings of a simple ring alternate in direction (entering and
    // leaving it). Crossings at the same position (edges that touch, as in a keyhole
    // polygon's slit) are ordered so that they alternate where they can.
    for (std::size_t i = 1; i < order.size(); ++i) {
        const bool want = xs[order[0]].up != (i % 2 == 1);
        if (xs[order[i]].up == want) continue;
        for (std::size_t j = i + 1; j < order.size() && xs[order[j]].t == xs[order[i]].t; ++j)
            if (xs[order[j]].up == want) {
                std::swap(order[i], order[j]);
                break;
            }
    }
    for (std::size_t k = 0; k + 1 < order.size(); k += 2) {
        xs[order[k]].partner = order[k + 1];
        xs[order[k + 1]].partner = order[k];
    }
    // Chain k runs from crossing k along the boundary to crossing k + 1 (cyclically); xs is in edge order.
    const std::size_t m = xs.size();
    std::vector<bool> used(m, false);
    std::vector<Ring64> pieces;
    for (std::size_t start = 0; start < m; ++start) {
        if (used[start]) continue;
        Ring64 piece;
        std::size_t k = start;
        for (std::size_t guard = 0; guard <= m; ++guard) {
            // The pieces of a simple ring each lie on one side of the line; a piece that
            // takes chains from both sides means the ring crosses itself (its pieces would
            // not shrink and the splitting would not end).
            if (xs[k].up != xs[start].up)
                throw std::runtime_error("the polygon crosses itself (its boundary at (" + std::to_string(xs[start].p[0]) + ", " +
                                         std::to_string(xs[start].p[1]) + ") and at (" + std::to_string(xs[k].p[0]) + ", " +
                                         std::to_string(xs[k].p[1]) +
                                         ") database units bounds one piece from both sides of a cut): a GDSII boundary must be simple");
            used[k] = true;
            const std::size_t next = (k + 1) % m;
            piece.push_back(xs[k].p);
            for (std::size_t e = xs[k].edge; e != xs[next].edge;) {
                e = (e + 1) % n;
                piece.push_back(r[e]);
            }
            piece.push_back(xs[next].p);
            k = xs[next].partner;  // along the line to the paired crossing: the chain starting there
            if (k == start) break;
        }
        if (k != start) throw std::runtime_error("internal error: an unclosed piece while splitting a polygon");
        piece = dedupe(std::move(piece));
        if (piece.size() >= 3) pieces.push_back(std::move(piece));
    }
    return pieces;
}

}  // namespace

std::vector<std::vector<std::array<std::int64_t, 2>>> split_polygon(const std::vector<std::array<std::int64_t, 2>>& ring,
                                                                    std::size_t max_vertices) {
    if (max_vertices < 8) throw std::invalid_argument("split_polygon: max_vertices must be at least 8");
    std::vector<Ring64> done, todo{dedupe(ring)};
    // A bound on the work: each cut adds its crossings twice, so the pieces hold more
    // vertices than the ring (tests: a disc in 8-vertex pieces about 2 times, the comb of
    // test_gds.cpp in 16-vertex pieces over 10 times); 64 times means no progress.
    const std::size_t max_total = 64 * (ring.size() + max_vertices);
    std::size_t done_total = 0;  // vertices in `done`
    for (int round = 0; !todo.empty(); ++round) {
        std::size_t total = done_total;
        for (const auto& r : todo) total += r.size();
        if (round > 64 || total > max_total)
            throw std::runtime_error("a polygon of " + std::to_string(ring.size()) + " vertices could not be split into pieces of at most " +
                                     std::to_string(max_vertices));
        std::vector<Ring64> next;
        for (auto& r : todo) {
            if (r.size() < 3) continue;
            if (r.size() <= max_vertices) {
                done_total += r.size();
                done.push_back(std::move(r));
                continue;
            }
            // Cut across the longer extent of the bounding box first.
            std::int64_t lo[2] = {r[0][0], r[0][1]}, hi[2] = {r[0][0], r[0][1]};
            for (const auto& p : r)
                for (int a = 0; a < 2; ++a) lo[a] = std::min(lo[a], p[std::size_t(a)]), hi[a] = std::max(hi[a], p[std::size_t(a)]);
            const int first = hi[0] - lo[0] >= hi[1] - lo[1] ? 0 : 1;
            bool cut = false;
            for (int axis : {first, 1 - first}) {
                if (const auto c = free_cut(r, axis)) {
                    for (auto& piece : cut_ring(r, axis, *c)) next.push_back(std::move(piece));
                    cut = true;
                    break;
                }
            }
            if (!cut)
                throw std::runtime_error("a polygon of " + std::to_string(r.size()) +
                                         " vertices has a vertex on every database-unit line of its box: cannot split it");
        }
        todo = std::move(next);
    }
    return done;
}

}  // namespace golightly::gds
