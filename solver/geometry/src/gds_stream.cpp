// GoLightly: the GDSII stream reader, flattener and writer (gds.hpp says why not libGDSII).
//
// Record layout (GDSII Stream Format Manual 6.0): u16 total length (>= 4, even), u8 record
// type, u8 data type, then the data, big-endian. Reals: 8-byte excess-64 base-16 floats,
// value = (-1)^s * (mantissa / 2^56) * 16^(exponent - 64).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <stdexcept>

#include "golightly/gds.hpp"

namespace golightly::gds {

namespace {

enum Rec : std::uint8_t {
    HEADER = 0x00, BGNLIB = 0x01, LIBNAME = 0x02, UNITS = 0x03, ENDLIB = 0x04, BGNSTR = 0x05, STRNAME = 0x06,
    ENDSTR = 0x07, BOUNDARY = 0x08, PATH = 0x09, SREF = 0x0A, AREF = 0x0B, TEXT = 0x0C, LAYER = 0x0D,
    DATATYPE = 0x0E, WIDTH = 0x0F, XY = 0x10, ENDEL = 0x11, SNAME = 0x12, COLROW = 0x13, NODE = 0x15,
    STRANS = 0x1A, MAG = 0x1B, ANGLE = 0x1C, PATHTYPE = 0x21, BOX = 0x2D, BOXTYPE = 0x2E, BGNEXTN = 0x30,
    ENDEXTN = 0x31
};
enum DType : std::uint8_t { NODATA = 0, BITARRAY = 1, INT2 = 2, INT4 = 3, REAL4 = 4, REAL8 = 5, ASCII = 6 };

constexpr std::size_t kMaxBytes = 64ull << 20;
constexpr double kMaxVertices = 2e7;
constexpr int kMaxDepth = 64;

std::string hex2(unsigned v) {
    const char* d = "0123456789ABCDEF";
    return std::string("0x") + d[(v >> 4) & 15] + d[v & 15];
}

double real8(const std::uint8_t* p) {
    const int sign = (p[0] & 0x80) ? -1 : 1;
    const int exponent = (p[0] & 0x7F) - 64;
    std::uint64_t mant = 0;
    for (int k = 1; k < 8; ++k) mant = (mant << 8) | p[k];
    return sign * std::ldexp(double(mant), 4 * exponent - 56);
}

void put_real8(std::vector<std::uint8_t>& out, double v) {
    std::uint8_t b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (v != 0 && std::isfinite(v)) {
        const bool neg = v < 0;
        double a = std::abs(v);
        int e = 0;  // a = f * 16^e with 1/16 <= f < 1
        while (a >= 1) { a /= 16; ++e; }
        while (a < 1.0 / 16) { a *= 16; --e; }
        std::uint64_t mant = std::uint64_t(std::llround(std::ldexp(a, 56)));
        if (mant >= (std::uint64_t(1) << 56)) { mant >>= 4; ++e; }
        b[0] = std::uint8_t((neg ? 0x80 : 0) | ((e + 64) & 0x7F));
        for (int k = 7; k >= 1; --k) { b[k] = std::uint8_t(mant & 0xFF); mant >>= 8; }
    }
    out.insert(out.end(), b, b + 8);
}

/// cos and sin of an angle in degrees, exact at multiples of 90.
std::pair<double, double> cos_sin_deg(double deg) {
    const double r = std::fmod(deg, 360.0);
    const double q = r < 0 ? r + 360 : r;
    if (q == 0) return {1, 0};
    if (q == 90) return {0, 1};
    if (q == 180) return {-1, 0};
    if (q == 270) return {0, -1};
    const double a = deg * std::numbers::pi / 180;
    return {std::cos(a), std::sin(a)};
}

}  // namespace

// ----------------------------------------------------------------------------- reading

Library read(const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() > kMaxBytes) throw GdsError("the GDSII file is larger than 64 MiB", "data");
    Library lib;
    enum State { Start, Header, Lib, Str, El, Done } state = Start;
    Element el;
    bool el_skip = false;      // TEXT / NODE: read and dropped
    bool el_has_layer = false, el_has_colrow = false;
    std::set<std::string> names;
    std::size_t pos = 0;
    const auto fail = [&](std::size_t at, const std::string& msg) -> void {
        throw GdsError("not a valid GDSII stream at byte " + std::to_string(at) + ": " + msg, "data");
    };
    if (bytes.size() < 4) fail(0, "the file is empty or truncated (" + std::to_string(bytes.size()) + " bytes)");
    while (state != Done) {
        if (pos + 4 > bytes.size()) fail(pos, "truncated: the stream ends before ENDLIB");
        const std::size_t len = (std::size_t(bytes[pos]) << 8) | bytes[pos + 1];
        const std::uint8_t rt = bytes[pos + 2], dt = bytes[pos + 3];
        if (state == Start && (rt != HEADER || len != 6)) fail(pos, "no HEADER record: not a GDSII stream");
        if (len < 4 || len % 2) fail(pos, "bad record length " + std::to_string(len) + " (record type " + hex2(rt) + ")");
        if (pos + len > bytes.size())
            fail(pos, "truncated: record " + hex2(rt) + " of " + std::to_string(len) + " bytes runs past the end of the file");
        const std::uint8_t* d = bytes.data() + pos + 4;
        const std::size_t n = len - 4;
        const std::size_t at = pos;
        pos += len;
        const auto need = [&](DType want, std::size_t min_bytes) {
            if (dt != want) fail(at, "record " + hex2(rt) + " has data type " + std::to_string(dt) + ", expected " + std::to_string(want));
            if (n < min_bytes) fail(at, "record " + hex2(rt) + " is too short (" + std::to_string(n) + " data bytes)");
        };
        const auto i2 = [&](std::size_t k) { return int(std::int16_t((d[2 * k] << 8) | d[2 * k + 1])); };
        const auto i4 = [&](std::size_t k) {
            return std::int32_t((std::uint32_t(d[4 * k]) << 24) | (std::uint32_t(d[4 * k + 1]) << 16) |
                                (std::uint32_t(d[4 * k + 2]) << 8) | std::uint32_t(d[4 * k + 3]));
        };
        const auto str = [&]() {
            if (dt != ASCII) fail(at, "record " + hex2(rt) + " should hold a string");
            std::string s(reinterpret_cast<const char*>(d), n);
            while (!s.empty() && s.back() == '\0') s.pop_back();
            return s;
        };
        const auto in_el = [&](const char* what) {
            if (state != El) fail(at, std::string(what) + " outside an element");
        };
        switch (rt) {
            case HEADER:
                if (state != Start) fail(at, "HEADER twice");
                state = Header;
                break;
            case BGNLIB:
                if (state != Header) fail(at, "BGNLIB out of place");
                state = Lib;
                break;
            case LIBNAME:
                if (state != Lib) fail(at, "LIBNAME out of place");
                lib.name = str();
                break;
            case UNITS:
                if (state != Lib) fail(at, "UNITS out of place");
                need(REAL8, 16);
                lib.user_units_per_db = real8(d);
                lib.metres_per_db = real8(d + 8);
                if (!(lib.metres_per_db > 0) || !(lib.metres_per_db < 1) || !std::isfinite(lib.user_units_per_db))
                    fail(at, "invalid UNITS (database unit " + std::to_string(lib.metres_per_db) + " m)");
                break;
            case ENDLIB:
                if (state != Lib) fail(at, "ENDLIB inside a structure");
                state = Done;
                break;
            case BGNSTR:
                if (state != Lib) fail(at, "BGNSTR inside a structure (missing ENDSTR)");
                lib.cells.emplace_back();
                state = Str;
                break;
            case STRNAME: {
                if (state != Str) fail(at, "STRNAME out of place");
                std::string name = str();
                if (name.empty()) fail(at, "empty structure name");
                if (!names.insert(name).second) fail(at, "structure '" + name + "' is defined twice");
                lib.cells.back().name = std::move(name);
                break;
            }
            case ENDSTR:
                if (state != Str) fail(at, "ENDSTR out of place");
                if (lib.cells.back().name.empty()) fail(at, "structure without STRNAME");
                state = Lib;
                break;
            case BOUNDARY: case PATH: case SREF: case AREF: case BOX: case TEXT: case NODE:
                if (state != Str) fail(at, "element " + hex2(rt) + " outside a structure or inside another element");
                el = Element{};
                el_skip = rt == TEXT || rt == NODE;
                el_has_layer = el_has_colrow = false;
                el.kind = rt == BOUNDARY ? Element::Boundary
                        : rt == PATH     ? Element::PathEl
                        : rt == SREF     ? Element::Sref
                        : rt == AREF     ? Element::Aref
                                         : Element::Box;
                state = El;
                break;
            case LAYER:
                in_el("LAYER");
                need(INT2, 2);
                el.layer = i2(0) & 0xFFFF;
                el_has_layer = true;
                break;
            case DATATYPE: case BOXTYPE:
                in_el("DATATYPE");
                need(INT2, 2);
                el.datatype = i2(0) & 0xFFFF;
                break;
            case WIDTH:
                in_el("WIDTH");
                need(INT4, 4);
                el.width = i4(0);
                break;
            case PATHTYPE:
                in_el("PATHTYPE");
                need(INT2, 2);
                el.pathtype = i2(0);
                break;
            case BGNEXTN:
                in_el("BGNEXTN");
                need(INT4, 4);
                el.bgnextn = i4(0);
                break;
            case ENDEXTN:
                in_el("ENDEXTN");
                need(INT4, 4);
                el.endextn = i4(0);
                break;
            case XY: {
                in_el("XY");
                need(INT4, 8);
                if (n % 8) fail(at, "XY record of " + std::to_string(n) + " bytes (not whole points)");
                for (std::size_t k = 0; k < n / 8; ++k) el.xy.push_back({i4(2 * k), i4(2 * k + 1)});
                break;
            }
            case SNAME:
                in_el("SNAME");
                el.sname = str();
                break;
            case COLROW:
                in_el("COLROW");
                need(INT2, 4);
                el.columns = i2(0);
                el.rows = i2(1);
                if (el.columns < 1 || el.rows < 1)
                    fail(at, "COLROW " + std::to_string(el.columns) + " x " + std::to_string(el.rows) + " (must be 1..32767)");
                el_has_colrow = true;
                break;
            case STRANS: {
                in_el("STRANS");
                need(BITARRAY, 2);
                const unsigned bits = (unsigned(d[0]) << 8) | d[1];
                el.reflect = bits & 0x8000;
                el.absmag = bits & 0x0004;
                el.absangle = bits & 0x0002;
                break;
            }
            case MAG:
                in_el("MAG");
                need(REAL8, 8);
                el.mag = real8(d);
                if (!(el.mag > 0) || !(el.mag < 1e9)) fail(at, "MAG " + std::to_string(el.mag) + " (must be > 0)");
                break;
            case ANGLE:
                in_el("ANGLE");
                need(REAL8, 8);
                el.angle_deg = real8(d);
                if (!std::isfinite(el.angle_deg) || std::abs(el.angle_deg) > 1e6) fail(at, "ANGLE out of range");
                break;
            case ENDEL: {
                if (state != El) fail(at, "ENDEL outside an element");
                state = Str;
                if (el_skip) break;
                const std::size_t np = el.xy.size();
                const char* kind = el.kind == Element::Boundary ? "BOUNDARY"
                                 : el.kind == Element::PathEl   ? "PATH"
                                 : el.kind == Element::Box      ? "BOX"
                                 : el.kind == Element::Sref     ? "SREF"
                                                                : "AREF";
                switch (el.kind) {
                    case Element::Boundary:
                        if (np && el.xy.front() == el.xy.back()) el.xy.pop_back();
                        if (el.xy.size() < 3) fail(at, std::string(kind) + " with " + std::to_string(np) + " points");
                        break;
                    case Element::Box:
                        if (np < 4) fail(at, std::string(kind) + " with " + std::to_string(np) + " points");
                        el.xy.resize(4);
                        break;
                    case Element::PathEl:
                        if (np < 2) fail(at, std::string(kind) + " with " + std::to_string(np) + " points");
                        if (el.pathtype != 0 && el.pathtype != 1 && el.pathtype != 2 && el.pathtype != 4)
                            fail(at, "PATHTYPE " + std::to_string(el.pathtype) + " (must be 0, 1, 2 or 4)");
                        break;
                    case Element::Sref:
                        if (np < 1) fail(at, "SREF without XY");
                        el.xy.resize(1);
                        break;
                    case Element::Aref:
                        if (np < 3) fail(at, "AREF with " + std::to_string(np) + " points (needs 3)");
                        if (!el_has_colrow) fail(at, "AREF without COLROW");
                        el.xy.resize(3);
                        break;
                }
                if ((el.kind == Element::Sref || el.kind == Element::Aref) && el.sname.empty())
                    fail(at, std::string(kind) + " without SNAME");
                if (el.kind != Element::Sref && el.kind != Element::Aref && !el_has_layer)
                    fail(at, std::string(kind) + " without LAYER");
                lib.cells.back().elements.push_back(std::move(el));
                el = Element{};
                break;
            }
            default:
                // properties, text records, library records GoLightly does not need
                if (state == Start || state == Header) fail(at, "record " + hex2(rt) + " before BGNLIB");
                break;
        }
    }
    for (const Cell& c : lib.cells)
        for (const Element& e : c.elements)
            if ((e.kind == Element::Sref || e.kind == Element::Aref) && !names.count(e.sname))
                throw GdsError("cell '" + c.name + "' references cell '" + e.sname + "', which the file does not define", "data");
    return lib;
}

std::vector<std::string> top_cells(const Library& lib) {
    std::set<std::string> referenced;
    for (const Cell& c : lib.cells)
        for (const Element& e : c.elements)
            if (e.kind == Element::Sref || e.kind == Element::Aref) referenced.insert(e.sname);
    std::vector<std::string> out;
    for (const Cell& c : lib.cells)
        if (!referenced.count(c.name)) out.push_back(c.name);
    return out;
}

namespace {

const Cell& find_cell(const Library& lib, const std::string& name) {
    for (const Cell& c : lib.cells)
        if (c.name == name) return c;
    std::string known;
    for (std::size_t k = 0; k < lib.cells.size() && k < 20; ++k) known += (k ? ", " : "") + lib.cells[k].name;
    throw GdsError("the file has no cell '" + name + "' (cells: " + known + (lib.cells.size() > 20 ? ", ..." : "") + ")",
                   "cell");
}

/// x -> origin + R(angle) mag F^reflect x.
struct Placement {
    double tx = 0, ty = 0, angle = 0, mag = 1;
    bool reflect = false;
    double c = 1, s = 0;  // cos, sin of angle
    Vec2 apply(double x, double y) const {
        if (reflect) y = -y;
        x *= mag, y *= mag;
        return {tx + c * x - s * y, ty + s * x + c * y};
    }
    /// The placement of a child placed by (origin o, angle, mag, reflect) in this one.
    Placement child(double ox, double oy, const Element& e) const {
        Placement p;
        const Vec2 o = apply(ox, oy);
        p.tx = o.x, p.ty = o.y;
        p.mag = e.absmag ? e.mag : mag * e.mag;
        p.angle = e.absangle ? e.angle_deg : angle + (reflect ? -e.angle_deg : e.angle_deg);
        p.reflect = reflect != e.reflect;
        std::tie(p.c, p.s) = cos_sin_deg(p.angle);
        return p;
    }
};

struct Flattener {
    const Library& lib;
    std::array<int, 2> layer;
    double um;
    std::map<std::string, double> counts;  // vertices per cell (this layer, flattened); -1 = being counted
    Geometry out;

    double count(const Cell& cell, int depth) {
        if (depth > kMaxDepth) throw GdsError("references nested deeper than " + std::to_string(kMaxDepth) + " levels", "data");
        auto it = counts.find(cell.name);
        if (it != counts.end()) {
            if (it->second < 0) throw GdsError("cell '" + cell.name + "' references itself (a reference cycle)", "data");
            return it->second;
        }
        counts[cell.name] = -1;
        double v = 0;
        for (const Element& e : cell.elements) {
            if (e.kind == Element::Sref || e.kind == Element::Aref)
                v += double(e.columns) * double(e.rows) * count(find_cell(lib, e.sname), depth + 1);
            else if (e.layer == layer[0] && e.datatype == layer[1])
                v += e.kind == Element::PathEl ? 2.0 * double(e.xy.size()) + 520 : double(e.xy.size());
            v = std::min(v, 1e300);
        }
        counts[cell.name] = v;
        return v;
    }

    void add(const Cell& cell, const Placement& P) {
        for (const Element& e : cell.elements) {
            if (e.kind == Element::Sref || e.kind == Element::Aref) {
                const Cell& ref = find_cell(lib, e.sname);
                // count() has visited every cell below the top one: a cell with nothing on
                // this layer is not walked (a huge array of such cells would take forever).
                if (counts.at(ref.name) <= 0) continue;
                if (e.kind == Element::Sref) {
                    add(ref, P.child(e.xy[0][0], e.xy[0][1], e));
                    continue;
                }
                const double x0 = e.xy[0][0], y0 = e.xy[0][1];
                const double cx = (e.xy[1][0] - x0) / e.columns, cy = (e.xy[1][1] - y0) / e.columns;
                const double rx = (e.xy[2][0] - x0) / e.rows, ry = (e.xy[2][1] - y0) / e.rows;
                for (int c = 0; c < e.columns; ++c)
                    for (int r = 0; r < e.rows; ++r) add(ref, P.child(x0 + c * cx + r * rx, y0 + c * cy + r * ry, e));
            } else if (e.layer == layer[0] && e.datatype == layer[1]) {
                std::vector<Vec2> pts;
                pts.reserve(e.xy.size());
                for (const auto& q : e.xy) {
                    const Vec2 v = P.apply(q[0], q[1]);
                    pts.push_back({v.x * um, v.y * um});
                }
                if (e.kind == Element::PathEl) {
                    Path p;
                    p.points = std::move(pts);
                    p.width = e.width < 0 ? -double(e.width) * um : double(e.width) * P.mag * um;
                    p.pathtype = e.pathtype;
                    if (e.pathtype == 4) {
                        p.begin_extension = e.bgnextn * P.mag * um;
                        p.end_extension = e.endextn * P.mag * um;
                    }
                    out.paths.push_back(std::move(p));
                } else {
                    out.polygons.push_back(std::move(pts));
                }
            }
        }
    }
};

}  // namespace

std::vector<std::array<int, 2>> cell_layers(const Library& lib, const std::string& cell) {
    std::set<std::array<int, 2>> found;
    std::set<std::string> seen;
    std::function<void(const Cell&, int)> visit = [&](const Cell& c, int depth) {
        if (depth > kMaxDepth) throw GdsError("references nested deeper than " + std::to_string(kMaxDepth) + " levels", "data");
        if (!seen.insert(c.name).second) return;
        for (const Element& e : c.elements) {
            if (e.kind == Element::Sref || e.kind == Element::Aref) visit(find_cell(lib, e.sname), depth + 1);
            else found.insert({e.layer, e.datatype});
        }
    };
    visit(find_cell(lib, cell), 0);
    return {found.begin(), found.end()};
}

Geometry flatten(const Library& lib, const std::string& cell, std::array<int, 2> layer, double max_vertices) {
    Flattener f{lib, layer, lib.um_per_db(), {}, {}};
    const Cell& top = find_cell(lib, cell);
    const double v = f.count(top, 0);
    if (v > max_vertices) {
        char msg[200];
        std::snprintf(msg, sizeof msg, "flattens to about %.3g vertices on layer %d/%d, more than the limit of %s", v,
                      layer[0], layer[1], max_vertices == kMaxVertices ? "20 million" : std::to_string(max_vertices).c_str());
        throw GdsError("cell '" + cell + "' " + msg, "cell");
    }
    f.add(top, Placement{});
    return std::move(f.out);
}

// ----------------------------------------------------------------------------- paths

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

// ----------------------------------------------------------------------------- writing

namespace {

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

using Ring64 = std::vector<std::array<std::int64_t, 2>>;

/// Consecutive repeats (and a closing repeat of the first point) removed.
Ring64 dedupe(Ring64 r) {
    Ring64 out;
    for (const auto& p : r)
        if (out.empty() || out.back() != p) out.push_back(p);
    while (out.size() > 1 && out.back() == out.front()) out.pop_back();
    return out;
}

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
