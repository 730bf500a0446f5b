// GoLightly: the GDSII cell hierarchy: top cells, the layers under a cell, and flattening
// one layer/datatype of a cell with the SREF/AREF transformations (gds.hpp gives the
// transformation rules).
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <numbers>
#include <set>

#include "golightly/gds.hpp"
#include "gds_internal.hpp"

namespace golightly::gds {

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

using detail::kMaxDepth;

constexpr double kMaxVertices = 2e7;

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

}  // namespace golightly::gds
