// GoLightly: the GDSII stream writer (gds::write): one cell of boundaries and paths.
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "golightly/gds.hpp"
#include "gds_internal.hpp"

namespace golightly::gds {

namespace {

using namespace detail;

struct Writer {
    std::vector<std::uint8_t> b;
    void rec(std::uint8_t rt, std::uint8_t dt, std::size_t n) {
        const std::size_t len = n + 4;
        b.push_back(std::uint8_t(len >> 8));
        b.push_back(std::uint8_t(len & 0xFF));
        b.push_back(rt);
        b.push_back(dt);
    }
    void i2(std::uint8_t rt, std::initializer_list<int> v) {
        rec(rt, INT2, 2 * v.size());
        for (int x : v) {
            b.push_back(std::uint8_t((x >> 8) & 0xFF));
            b.push_back(std::uint8_t(x & 0xFF));
        }
    }
    void put4(std::int32_t x) {
        const std::uint32_t u = std::uint32_t(x);
        for (int s = 24; s >= 0; s -= 8) b.push_back(std::uint8_t((u >> s) & 0xFF));
    }
    void i4(std::uint8_t rt, std::int32_t x) {
        rec(rt, INT4, 4);
        put4(x);
    }
    void str(std::uint8_t rt, const std::string& s) {
        std::string t = s;
        if (t.size() % 2) t.push_back('\0');
        rec(rt, ASCII, t.size());
        b.insert(b.end(), t.begin(), t.end());
    }
    void none(std::uint8_t rt) { rec(rt, NODATA, 0); }
    void xy(const std::vector<std::array<std::int32_t, 2>>& pts) {
        rec(XY, INT4, 8 * pts.size());
        for (const auto& q : pts) put4(q[0]), put4(q[1]);
    }
};

/// um -> database units (rounded to the nearest).
std::int64_t to_db(double um, double db_um) {
    const double v = std::round(um / db_um);
    if (!(std::abs(v) <= 2147483647.0)) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "coordinate %g um is outside GDSII's 32-bit range (+-%g um at a database unit of %g um)", um,
                      2147483647.0 * db_um, db_um);
        throw std::runtime_error(buf);
    }
    return std::int64_t(v);
}

}  // namespace

std::vector<std::uint8_t> write(const std::string& cell, const std::vector<WriteLayer>& layers, double db_unit_um) {
    if (cell.empty()) throw std::runtime_error("the GDSII cell name is empty");
    if (!(db_unit_um >= 1e-6 && db_unit_um <= 1.0))
        throw std::runtime_error("the database unit " + std::to_string(db_unit_um) + " um is outside 1e-6 (1 pm) to 1 um");
    Writer w;
    w.i2(HEADER, {600});
    w.i2(BGNLIB, {2000, 1, 1, 0, 0, 0, 2000, 1, 1, 0, 0, 0});  // fixed dates: reproducible files
    w.str(LIBNAME, "GOLIGHTLY");
    w.rec(UNITS, REAL8, 16);
    put_real8(w.b, db_unit_um);         // user units (1 um) per database unit
    put_real8(w.b, db_unit_um * 1e-6);  // metres per database unit
    w.i2(BGNSTR, {2000, 1, 1, 0, 0, 0, 2000, 1, 1, 0, 0, 0});
    w.str(STRNAME, cell);
    auto boundary = [&](const WriteLayer& L, const Ring64& ring) {
        std::vector<std::array<std::int32_t, 2>> pts;
        pts.reserve(ring.size() + 1);
        for (const auto& q : ring) pts.push_back({std::int32_t(q[0]), std::int32_t(q[1])});
        pts.push_back(pts.front());
        w.none(BOUNDARY);
        w.i2(LAYER, {L.layer});
        w.i2(DATATYPE, {L.datatype});
        w.xy(pts);
        w.none(ENDEL);
    };
    auto polygon = [&](const WriteLayer& L, const std::vector<Vec2>& poly) {
        Ring64 ring;
        ring.reserve(poly.size());
        for (const Vec2& q : poly) ring.push_back({to_db(q.x, db_unit_um), to_db(q.y, db_unit_um)});
        ring = dedupe(std::move(ring));
        if (ring.size() < 3) return;
        if (ring.size() <= kMaxBoundaryVertices) {
            boundary(L, ring);
            return;
        }
        std::vector<Ring64> pieces;
        try {
            pieces = split_polygon(ring, kMaxBoundaryVertices);
        } catch (const std::runtime_error& e) {
            throw std::runtime_error("GDSII layer " + std::to_string(L.layer) + "/" + std::to_string(L.datatype) + ": a polygon of " +
                                     std::to_string(ring.size()) + " vertices (more than a boundary's " +
                                     std::to_string(kMaxBoundaryVertices) + ") could not be split: " + e.what());
        }
        for (const auto& piece : pieces) boundary(L, piece);
    };
    for (const WriteLayer& L : layers) {
        for (const auto& poly : L.polygons) {
            if (poly.size() < 3) continue;
            polygon(L, poly);
        }
        for (const Path& p : L.paths) {
            if (p.points.size() > 8191) {  // the XY record's limit: its outline, split
                polygon(L, path_polygon(p));
                continue;
            }
            std::vector<std::array<std::int32_t, 2>> pts;
            for (const Vec2& q : p.points) pts.push_back({std::int32_t(to_db(q.x, db_unit_um)), std::int32_t(to_db(q.y, db_unit_um))});
            w.none(PATH);
            w.i2(LAYER, {L.layer});
            w.i2(DATATYPE, {L.datatype});
            w.i2(PATHTYPE, {p.pathtype});
            w.i4(WIDTH, std::int32_t(to_db(p.width, db_unit_um)));
            if (p.pathtype == 4) {
                w.i4(BGNEXTN, std::int32_t(to_db(p.begin_extension, db_unit_um)));
                w.i4(ENDEXTN, std::int32_t(to_db(p.end_extension, db_unit_um)));
            }
            w.xy(pts);
            w.none(ENDEL);
        }
    }
    w.none(ENDSTR);
    w.none(ENDLIB);
    return std::move(w.b);
}

}  // namespace golightly::gds
