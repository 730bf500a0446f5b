// GoLightly: `gds` shapes (embedded GDSII streams) as polygons and the project's GDSII
// export (gds.hpp); layer maps are in gds_layer_map.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <sstream>

#include "golightly/errors.hpp"
#include "golightly/gds.hpp"
#include "golightly/image_io.hpp"
#include "golightly/limits.hpp"

namespace golightly {

namespace {

std::string label(const Shape& s) { return "GDS file '" + (s.file_name.empty() ? std::string("(embedded)") : s.file_name) + "'"; }

/// Parsed libraries per embedded data (hash and size of the base64 text), most recent first.
struct LibEntry {
    std::size_t hash = 0, size = 0;
    std::shared_ptr<const gds::Library> lib;
};
std::mutex g_mutex;
std::list<LibEntry> g_libs;
struct GeoEntry {
    std::size_t hash = 0, size = 0;
    std::string cell;
    std::array<int, 2> layer{0, 0};
    std::shared_ptr<const gds::Geometry> geo;  ///< unplaced
};
std::list<GeoEntry> g_geos;

std::shared_ptr<const gds::Library> library_of(const Shape& s) {
    const std::size_t h = std::hash<std::string>{}(s.data_base64), n = s.data_base64.size();
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        for (auto it = g_libs.begin(); it != g_libs.end(); ++it)
            if (it->hash == h && it->size == n) {
                g_libs.splice(g_libs.begin(), g_libs, it);
                return g_libs.front().lib;
            }
    }
    std::vector<std::uint8_t> bytes;
    try {
        bytes = base64_decode(s.data_base64);
    } catch (const std::exception& e) {
        throw gds::GdsError(label(s) + ": the embedded data is not base64: " + e.what(), "data");
    }
    std::shared_ptr<const gds::Library> lib;
    try {
        lib = std::make_shared<const gds::Library>(gds::read(bytes));
    } catch (const gds::GdsError& e) {
        throw gds::GdsError(label(s) + ": " + e.what(), e.field);
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    g_libs.push_front({h, n, lib});
    if (g_libs.size() > 8) g_libs.pop_back();
    return lib;
}

/// The cell a shape names, or the file's only top cell.
std::string cell_of(const Shape& s, const gds::Library& lib) {
    if (!s.gds_cell.empty()) return s.gds_cell;
    const auto tops = gds::top_cells(lib);
    if (tops.size() == 1) return tops[0];
    std::string names;
    for (std::size_t k = 0; k < tops.size() && k < 10; ++k) names += (k ? ", " : "") + tops[k];
    throw gds::GdsError(label(s) + ": the file has " + std::to_string(tops.size()) + " top cells (" + names +
                            "): name one in `cell`",
                        "cell");
}

std::shared_ptr<const gds::Geometry> geometry_of(const Shape& s) {
    const std::size_t h = std::hash<std::string>{}(s.data_base64), n = s.data_base64.size();
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        for (auto it = g_geos.begin(); it != g_geos.end(); ++it)
            if (it->hash == h && it->size == n && it->cell == s.gds_cell && it->layer == s.gds_layer) {
                g_geos.splice(g_geos.begin(), g_geos, it);
                return g_geos.front().geo;
            }
    }
    const auto lib = library_of(s);
    const std::string cell = cell_of(s, *lib);
    std::shared_ptr<const gds::Geometry> geo;
    try {
        geo = std::make_shared<const gds::Geometry>(gds::flatten(*lib, cell, s.gds_layer));
    } catch (const gds::GdsError& e) {
        throw gds::GdsError(label(s) + ": " + e.what(), e.field);
    }
    if (geo->polygons.empty() && geo->paths.empty()) {
        std::string have;
        const auto layers = gds::cell_layers(*lib, cell);
        for (std::size_t k = 0; k < layers.size() && k < 20; ++k)
            have += (k ? ", " : "") + std::to_string(layers[k][0]) + "/" + std::to_string(layers[k][1]);
        throw gds::GdsError(label(s) + ": cell '" + cell + "' has nothing on layer " + std::to_string(s.gds_layer[0]) + "/" +
                                std::to_string(s.gds_layer[1]) + " (it has " + (have.empty() ? "no layers" : have) + ")",
                            "layer");
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    g_geos.push_front({h, n, s.gds_cell, s.gds_layer, geo});
    if (g_geos.size() > 32) g_geos.pop_back();
    return geo;
}

/// p -> R(rotation_deg) p + translate
struct Place {
    double c = 1, s = 0, tx = 0, ty = 0;
    explicit Place(const Shape& sh) : tx(sh.translate[0]), ty(sh.translate[1]) {
        const double r = std::fmod(sh.rotation_deg, 360.0), q = r < 0 ? r + 360 : r;
        if (q == 90) c = 0, s = 1;
        else if (q == 180) c = -1, s = 0;
        else if (q == 270) c = 0, s = -1;
        else if (q != 0) c = std::cos(sh.rotation_deg * std::numbers::pi / 180), s = std::sin(sh.rotation_deg * std::numbers::pi / 180);
    }
    bool identity() const { return c == 1 && s == 0 && tx == 0 && ty == 0; }
    Vec2 operator()(Vec2 p) const { return {tx + c * p.x - s * p.y, ty + s * p.x + c * p.y}; }
};

double signed_area(const std::vector<Vec2>& r) {
    double a = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
        const Vec2 p = r[k], q = r[(k + 1) % r.size()];
        a += p.x * q.y - p.y * q.x;
    }
    return 0.5 * a;
}

}  // namespace

gds::Geometry gds_shape_geometry(const Shape& shape) {
    const auto geo = geometry_of(shape);
    gds::Geometry out = *geo;
    if (shape.gds_db_unit_um) {  // read with another database unit than the file's UNITS record
        const double f = *shape.gds_db_unit_um / library_of(shape)->um_per_db();
        if (f != 1) {
            for (auto& poly : out.polygons)
                for (Vec2& v : poly) v = {v.x * f, v.y * f};
            for (auto& path : out.paths) {
                for (Vec2& v : path.points) v = {v.x * f, v.y * f};
                path.width *= f;
                path.begin_extension *= f;
                path.end_extension *= f;
            }
        }
    }
    const Place P(shape);
    // the spec's coordinate bound (limits.hpp): a huge database unit or magnification
    // must not reach the coverage's cell arithmetic
    const auto place = [&](Vec2& v) {
        if (!P.identity()) v = P(v);
        if (!(std::abs(v.x) <= limits::kMaxCoordinateUm) || !(std::abs(v.y) <= limits::kMaxCoordinateUm))
            throw gds::GdsError(label(shape) + ": a vertex at (" + std::to_string(v.x) + ", " + std::to_string(v.y) +
                                    ") um lies beyond +-1e6 um (check the file's database unit and magnifications)",
                                "data");
    };
    for (auto& poly : out.polygons)
        for (Vec2& v : poly) place(v);
    for (auto& path : out.paths) {
        for (Vec2& v : path.points) place(v);
        if (!(path.width <= limits::kMaxCoordinateUm))
            throw gds::GdsError(label(shape) + ": a path is wider than 1e6 um", "data");
    }
    return out;
}

Outline gds_shape_polygons(const Shape& shape) {
    const gds::Geometry g = gds_shape_geometry(shape);
    Outline out;
    out.reserve(g.polygons.size() + g.paths.size());
    for (const auto& poly : g.polygons) {
        std::vector<Vec2> ring = poly;
        const double a = signed_area(ring);
        if (a == 0) continue;  // degenerate: no area
        if (a < 0) std::reverse(ring.begin(), ring.end());
        out.push_back(std::move(ring));
    }
    for (const auto& path : g.paths) {
        if (!(path.width > 0)) continue;  // zero-width paths have no area
        try {
            out.push_back(gds::path_polygon(path));
        } catch (const std::invalid_argument& e) {
            throw gds::GdsError(label(shape) + ": a path " + e.what(), "data");
        }
    }
    return out;
}

Shape make_gds_shape(const std::filesystem::path& file, const std::string& cell, std::array<int, 2> layer) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Shape s;
    s.type = ShapeType::Gds;
    s.file_name = file.filename().string();
    s.data_base64 = base64_encode(bytes);
    s.gds_cell = cell;
    s.gds_layer = layer;
    const auto lib = library_of(s);
    (void)gds::cell_layers(*lib, cell_of(s, *lib));  // the cell exists
    return s;
}

void check_gds_shapes(const Project& project, const std::string& file_label) {
    for (std::size_t i = 0; i < project.layers.size(); ++i)
        for (std::size_t k = 0; k < project.layers[i].shapes.size(); ++k) {
            const Shape& s = project.layers[i].shapes[k];
            if (s.type != ShapeType::Gds) continue;
            const std::string path = "layers[" + std::to_string(i) + "].shapes[" + std::to_string(k) + "]";
            try {
                (void)gds_shape_polygons(s);
            } catch (const gds::GdsError& e) {
                throw ProjectError(file_label, path + "." + e.field, e.what());
            } catch (const std::exception& e) {
                throw ProjectError(file_label, path + ".data", label(s) + ": " + e.what());
            }
        }
}

// ----------------------------------------------------------------------------- export

namespace {

/// Outer rings (area > 0) with their holes (area < 0) joined in by a zero-width cut from
/// the hole's vertex nearest to a vertex of the outer ring that contains it (the outer
/// ring of largest area when none does).
std::vector<std::vector<Vec2>> keyhole(const Outline& o) {
    std::vector<std::vector<Vec2>> outers, holes;
    for (const auto& r : o) {
        if (r.size() < 3) continue;
        (signed_area(r) >= 0 ? outers : holes).push_back(r);
    }
    if (outers.empty()) return {};
    for (auto& h : holes) {
        std::size_t best_o = 0, best_i = 0, best_j = 0;
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t oi = 0; oi < outers.size(); ++oi)
            for (std::size_t i = 0; i < outers[oi].size(); ++i)
                for (std::size_t j = 0; j < h.size(); ++j) {
                    const double d = std::hypot(outers[oi][i].x - h[j].x, outers[oi][i].y - h[j].y);
                    if (d < best) best = d, best_o = oi, best_i = i, best_j = j;
                }
        auto& out = outers[best_o];
        std::vector<Vec2> merged(out.begin(), out.begin() + std::ptrdiff_t(best_i) + 1);
        for (std::size_t k = 0; k <= h.size(); ++k) merged.push_back(h[(best_j + k) % h.size()]);
        merged.insert(merged.end(), out.begin() + std::ptrdiff_t(best_i), out.end());
        out = std::move(merged);
    }
    return outers;
}

/// A raster's coverage on the cell grid, covered windows (>= 1/2) as rectangles.
std::vector<std::vector<Vec2>> trace_raster(const Shape& r, double dx) {
    const double w = r.width_px * r.pixel_size, h = r.height_px * r.pixel_size;
    SampleGrid g;
    g.dx_um = dx;
    g.nx = std::max(1, int(std::ceil(w / dx - 1e-9)));
    g.ny = std::max(1, int(std::ceil(h / dx - 1e-9)));
    g.x0_um = r.origin.x + 0.5 * dx;
    g.y0_um = r.origin.y + 0.5 * dx;
    const std::vector<double> cov = raster_coverage(r, g);
    std::vector<std::vector<Vec2>> out;
    // open rectangles: run [i0, i1) -> first row
    std::map<std::pair<int, int>, int> open;
    const auto close = [&](std::pair<int, int> run, int j0, int j1) {
        const double x0 = r.origin.x + run.first * dx, x1 = r.origin.x + run.second * dx;
        const double y0 = r.origin.y + j0 * dx, y1 = r.origin.y + j1 * dx;
        out.push_back({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
    };
    for (int j = 0; j <= g.ny; ++j) {
        std::map<std::pair<int, int>, int> next;
        if (j < g.ny) {
            for (int i = 0; i < g.nx;) {
                if (cov[std::size_t(j) * g.nx + i] < 0.5) { ++i; continue; }
                int e = i;
                while (e < g.nx && cov[std::size_t(j) * g.nx + e] >= 0.5) ++e;
                const auto run = std::make_pair(i, e);
                auto it = open.find(run);
                next[run] = it == open.end() ? j : it->second;
                i = e;
            }
        }
        for (const auto& [run, j0] : open)
            if (!next.count(run)) close(run, j0, j);
        open = std::move(next);
    }
    return out;
}

}  // namespace

std::vector<std::size_t> gds_export_layers(const Project& project) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < project.layers.size(); ++i) {
        const Layer& L = project.layers[i];
        if (L.reference_only) continue;
        if (std::any_of(L.shapes.begin(), L.shapes.end(), [](const Shape& s) { return s.type != ShapeType::Step; }))
            out.push_back(i);
    }
    return out;
}

std::vector<std::size_t> gds_layers_without_number(const Project& project) {
    std::vector<std::size_t> out;
    for (std::size_t i : gds_export_layers(project))
        if (!project.layers[i].gds_layer) out.push_back(i);
    return out;
}

GdsExport export_gds(const Project& project, const std::string& cell, const std::string& file_label, double db_unit_um) {
    GdsExport ex;
    const std::vector<std::size_t> written = gds_export_layers(project);
    // every layer written needs its GDS layer: a number made up here would come back as a
    // new layer on re-import
    for (std::size_t i : written) {
        const Layer& L = project.layers[i];
        if (L.gds_layer) continue;
        std::string others;
        for (std::size_t k : gds_layers_without_number(project))
            if (k != i) others += (others.empty() ? "" : ", ") + ("'" + project.layers[k].name + "'");
        throw ProjectError(file_label, "layers[" + std::to_string(i) + "].gds_layer",
                           "layer '" + L.name + "' has shapes but no gds_layer: give it the GDSII [layer, datatype] to "
                           "write it on (\"gds_layer\": [1, 0] in the project, or the GDS layer column of the IDE's Layer stack dock)" +
                               (others.empty() ? std::string() : "; so do " + others));
    }
    if (db_unit_um > 0) {
        ex.db_unit_um = db_unit_um;
    } else {  // the finest database unit of the embedded files
        std::vector<double> units;
        for (std::size_t i : written)
            for (std::size_t k = 0; k < project.layers[i].shapes.size(); ++k) {
                const Shape& s = project.layers[i].shapes[k];
                if (s.type != ShapeType::Gds) continue;
                try {
                    units.push_back(s.gds_db_unit_um ? *s.gds_db_unit_um : library_of(s)->um_per_db());
                } catch (const gds::GdsError& e) {
                    throw ProjectError(file_label, "layers[" + std::to_string(i) + "].shapes[" + std::to_string(k) + "]." + e.field,
                                       e.what());
                }
            }
        if (!units.empty()) {
            ex.db_unit_um = *std::min_element(units.begin(), units.end());
            for (double u : units) {
                const double ratio = u / ex.db_unit_um;
                if (std::abs(ratio - std::round(ratio)) > 1e-9 * ratio) {
                    char buf[200];
                    std::snprintf(buf, sizeof buf,
                                  "the embedded GDS files have database units %g and %g um; written at %g um, so some "
                                  "coordinates are rounded (--db-unit chooses another)",
                                  ex.db_unit_um, u, ex.db_unit_um);
                    ex.warnings.push_back(buf);
                    break;
                }
            }
        }
    }
    std::vector<gds::WriteLayer> layers;
    const double dx = project.domain.cell_size;
    const double tol = std::max(1e-3 * dx, 1e-6);
    std::string reference;
    for (const Layer& L : project.layers)
        if (L.reference_only) reference += (reference.empty() ? "" : ", ") + ("'" + L.name + "'");
    if (!reference.empty()) ex.warnings.push_back("reference-only layers left out: " + reference);
    const bool is3d = project.domain.dimensions == 3;
    for (std::size_t i : written) {
        const Layer& L = project.layers[i];
        gds::WriteLayer W;
        W.layer = (*L.gds_layer)[0], W.datatype = (*L.gds_layer)[1];
        // 3D: the layer's z range (default the domain's height) is what its GDS layer stands for
        const double z0 = L.z ? std::min((*L.z)[0], (*L.z)[1]) : 0.0;
        const double z1 = L.z ? std::max((*L.z)[0], (*L.z)[1]) : project.domain.size[2];
        char zr[96];
        std::snprintf(zr, sizeof zr, "[%g, %g] um", z0, z1);
        for (std::size_t k = 0; k < L.shapes.size(); ++k) {
            const Shape& s = L.shapes[k];
            const std::string path = "layers[" + std::to_string(i) + "].shapes[" + std::to_string(k) + "]";
            try {
                switch (s.type) {
                    case ShapeType::Path:
                        if (!s.bend_radius || !(*s.bend_radius > 0)) {
                            W.paths.push_back({s.points, s.width, 0, 0, 0});
                            break;
                        }
                        [[fallthrough]];
                    case ShapeType::Rectangle:
                    case ShapeType::Polygon:
                    case ShapeType::Ellipse:
                    case ShapeType::Ring:
                        for (auto& r : keyhole(shape_outline(s, tol))) W.polygons.push_back(std::move(r));
                        break;
                    case ShapeType::Sphere:
                    case ShapeType::Box: {
                        // 2D: the cut the run sees (slice_z). 3D: the footprint of the part within the
                        // layer's z range: a box's rectangle where the two overlap, a sphere's largest
                        // section there (at the z of the range nearest its centre)
                        double z = project.domain.slice_z;
                        if (is3d) {
                            const bool sphere = s.type == ShapeType::Sphere;
                            const double lo = sphere ? s.center_3d.z - s.radius : std::min(s.box_min.z, s.box_max.z);
                            const double hi = sphere ? s.center_3d.z + s.radius : std::max(s.box_min.z, s.box_max.z);
                            if (!(std::min(hi, z1) > std::max(lo, z0))) {
                                ex.warnings.push_back(path + ": the " + (sphere ? "sphere" : "box") +
                                                      " lies outside its layer's z range " + zr + "; left out");
                                break;
                            }
                            if (sphere) {
                                z = std::clamp(s.center_3d.z, z0, z1);
                                const double r = std::sqrt(std::max(0.0, s.radius * s.radius - (z - s.center_3d.z) * (z - s.center_3d.z)));
                                char buf[400];
                                std::snprintf(buf, sizeof buf,
                                              ": a sphere has no GDSII form; written as its largest section in the layer's z "
                                              "range %s (the disc at z = %g um, radius %g um)",
                                              zr, z, r);
                                ex.warnings.push_back(path + buf);
                            } else {
                                z = 0.5 * (std::max(lo, z0) + std::min(hi, z1));
                            }
                        }
                        for (auto& r : keyhole(shape_outline_at(s, z, tol))) W.polygons.push_back(std::move(r));
                        break;
                    }
                    case ShapeType::Gds: {
                        gds::Geometry g = gds_shape_geometry(s);
                        for (auto& r : g.polygons) W.polygons.push_back(std::move(r));
                        for (auto& p : g.paths) W.paths.push_back(std::move(p));
                        break;
                    }
                    case ShapeType::Raster:
                        for (auto& r : trace_raster(s, dx)) W.polygons.push_back(std::move(r));
                        break;
                    case ShapeType::Step:
                        ex.warnings.push_back(path + ": a STEP shape has no GDSII form; left out");
                        break;
                }
            } catch (const gds::GdsError& e) {
                throw ProjectError(file_label, path + "." + e.field, e.what());
            } catch (const std::exception& e) {
                throw ProjectError(file_label, path, e.what());
            }
        }
        ex.polygons += int(W.polygons.size());
        ex.paths += int(W.paths.size());
        layers.push_back(std::move(W));
    }
    try {
        ex.bytes = gds::write(cell, layers, ex.db_unit_um);
    } catch (const std::exception& e) {
        throw ProjectError(file_label, "layers", e.what());
    }
    return ex;
}

}  // namespace golightly
