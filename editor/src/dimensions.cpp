#include "dimensions.hpp"

#include "ports.hpp"

#include "golightly/compile.hpp"
#include "golightly/scene.hpp"
#include "golightly/step_limit.hpp"
#include "golightly/units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <string>

namespace golightly::editor {

namespace {

bool is_magnetic(Component c) { return c == Component::Hx || c == Component::Hy || c == Component::Hz; }

/// A plane through the 2D segment a-b spanning [0, lz] in z: centre and size, one zero
/// entry (the axis, x or y, along which the segment is shortest). Returns the normal axis.
int plane_through(Vec2 a, Vec2 b, double lz, Vec3& center, Vec3& size) {
    const double dx = std::fabs(b.x - a.x), dy = std::fabs(b.y - a.y);
    center = {0.5 * (a.x + b.x), 0.5 * (a.y + b.y), 0.5 * lz};
    if (dx <= dy) {
        size = {0.0, dy, lz};
        return 0;
    }
    size = {dx, 0.0, lz};
    return 1;
}

}  // namespace

std::array<double, 2> layer_z_range(const Project& p, const Layer& l) {
    if (l.z) return *l.z;
    return {0.0, p.domain.size[2]};
}

void source_to_3d(Source& s, double lz) {
    const double zc = 0.5 * lz;
    switch (s.type) {
    case SourceType::Point:
        if (!s.at_z) s.at_z = zc;
        break;
    case SourceType::Line: {
        const int normal = plane_through(s.from, s.to, lz, s.center, s.size);
        s.type = SourceType::Plane;
        if (s.profile != SourceProfile::Mode && (is_magnetic(s.component) || int(s.component) == normal))
            s.component = Component::Ez;
        break;
    }
    case SourceType::Tfsf:
        if (!(s.box_max.z > s.box_min.z)) {
            s.box_min.z = 0;
            s.box_max.z = lz;
        }
        break;
    default: break;
    }
}

void monitor_to_3d(Monitor& m, double lz) {
    switch (m.type) {
    case MonitorType::Flux:
        if (m.size == Vec3{}) plane_through(m.from, m.to, lz, m.center, m.size);
        break;
    case MonitorType::FluxBox:
    case MonitorType::DftField:
        if (m.min && m.max && (!m.min_z || !m.max_z)) {
            m.min_z = 0.0;
            m.max_z = lz;
        }
        break;
    case MonitorType::Time:
        if (m.at && !m.at_z) m.at_z = 0.5 * lz;
        break;
    }
}

bool plane_footprint(const Vec3& c, const Vec3& sz, Vec2& a, Vec2& b) {
    a = {c.x - 0.5 * sz.x, c.y - 0.5 * sz.y};
    b = {c.x + 0.5 * sz.x, c.y + 0.5 * sz.y};
    return sz.x == 0 || sz.y == 0;
}

bool solids_only(const Layer& l, std::array<double, 2>& range) {
    if (l.shapes.empty()) return false;
    range = {1e300, -1e300};
    for (const Shape& s : l.shapes) {
        if (s.type == ShapeType::Sphere) {
            range[0] = std::min(range[0], s.center_3d.z - s.radius);
            range[1] = std::max(range[1], s.center_3d.z + s.radius);
        } else if (s.type == ShapeType::Box) {
            range[0] = std::min(range[0], s.box_min.z);
            range[1] = std::max(range[1], s.box_max.z);
        } else {
            return false;
        }
    }
    return true;
}

namespace {

double layer_eps(const Project& p, const Layer& l) {
    const Material* m = p.find_material(l.material);
    return m ? m->epsilon_inf : 1.0;
}

bool name_has(const std::string& name, std::initializer_list<const char*> words) {
    std::string lower = name;
    for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (const char* w : words)
        if (lower.find(w) != std::string::npos) return true;
    return false;
}

/// True when a rectangle of the layer (not rotated) covers the whole interior in xy.
bool fills_domain(const Project& p, const Layer& l) {
    for (const Shape& s : l.shapes)
        if (s.type == ShapeType::Rectangle && s.rotation_deg == 0 && s.min.x <= 0 && s.min.y <= 0 &&
            s.max.x >= p.domain.size[0] && s.max.y >= p.domain.size[1])
            return true;
    return false;
}

std::array<double, 2> soi_core(double lz) {
    return {0.5 * lz - 0.5 * kSoiCoreThicknessUm, 0.5 * lz + 0.5 * kSoiCoreThicknessUm};
}

}  // namespace

std::vector<LayerRole> layer_roles(const Project& p) {
    double epsMax = -1e300;
    for (const Layer& l : p.layers) epsMax = std::max(epsMax, layer_eps(p, l));
    std::vector<LayerRole> roles;
    roles.reserve(p.layers.size());
    for (const Layer& l : p.layers) {
        std::array<double, 2> solids{};
        if (l.z || solids_only(l, solids)) roles.push_back(LayerRole::Kept);
        else if (layer_eps(p, l) >= epsMax) roles.push_back(LayerRole::Core);
        else if (fills_domain(p, l)) roles.push_back(LayerRole::Kept);
        else if (name_has(l.name, {"substrate", "box", "buried", "bottom", "handle"})) roles.push_back(LayerRole::Substrate);
        else if (name_has(l.name, {"clad", "top", "cover", "upper"})) roles.push_back(LayerRole::Cladding);
        else roles.push_back(LayerRole::Core);
    }
    return roles;
}

std::optional<std::array<double, 2>> core_z_range(const Project& p) {
    const Layer* best = nullptr;
    for (const Layer& l : p.layers) {
        std::array<double, 2> solids{};
        if (!l.z || solids_only(l, solids)) continue;
        // the highest index wins; between equals, a layer of the main run before a reference one
        if (!best || layer_eps(p, l) > layer_eps(p, *best) ||
            (layer_eps(p, l) == layer_eps(p, *best) && best->reference_only && !l.reference_only))
            best = &l;
    }
    if (best) return *best->z;
    if (p.domain.size[2] > 0) return soi_core(p.domain.size[2]);
    return std::nullopt;
}

Project to_3d(const Project& in, double depth) {
    Switch3dOptions o;
    o.depth_um = depth;
    return to_3d(in, o);
}

Project to_3d(const Project& in, const Switch3dOptions& o) {
    if (in.domain.dimensions == 3) return in;
    Project p = in;
    p.domain.dimensions = 3;
    if (!(p.domain.size[2] > 0)) p.domain.size[2] = o.depth_um > 0 ? o.depth_um : kDefault3dDepthUm;
    if (o.cell_size_um > 0) p.domain.cell_size = o.cell_size_um;
    const double lz = p.domain.size[2], zc = 0.5 * lz;
    if (p.run.courant >= 1.0 / std::sqrt(3.0)) p.run.courant = 0.5;
    if (o.soi_stack) {
        const std::array<double, 2> core = soi_core(lz);
        const std::vector<LayerRole> roles = layer_roles(p);
        for (size_t i = 0; i < p.layers.size(); ++i) {
            switch (roles[i]) {
            case LayerRole::Core: p.layers[i].z = core; break;
            case LayerRole::Substrate: p.layers[i].z = std::array<double, 2>{core[0] - lz, core[0]}; break;
            case LayerRole::Cladding: p.layers[i].z = std::array<double, 2>{core[1], core[1] + lz}; break;
            case LayerRole::Kept: break;
            }
        }
    }
    for (Source& s : p.sources) source_to_3d(s, lz);
    for (Monitor& m : p.monitors) monitor_to_3d(m, lz);
    // ports: the 2D line becomes a plane (port_from_line's orientation) around the core
    std::array<double, 2> span{0.0, lz};
    if (o.soi_stack)
        if (const auto core = core_z_range(p))
            span = {std::max(0.0, (*core)[0] - kPortMarginUm), std::min(lz, (*core)[1] + kPortMarginUm)};
    for (int i = 0; i < port_count(p); ++i) {
        auto d = port_at(p, i);
        if (!d || d->size.z != 0 || (d->size.x != 0 && d->size.y != 0)) continue;  // not a line
        const PortData plane = port_from_line(p, {d->center.x - 0.5 * d->size.x, d->center.y - 0.5 * d->size.y},
                                              {d->center.x + 0.5 * d->size.x, d->center.y + 0.5 * d->size.y}, d->name);
        d->center = {plane.center.x, plane.center.y, 0.5 * (span[0] + span[1])};
        d->size = {plane.size.x, plane.size.y, span[1] - span[0]};
        set_port(p, i, *d);  // keeps the direction, the modes and the entry's other members
    }
    p.run.frames.plane = "xy";
    p.run.frames.position = zc;
    return p;
}

Project to_2d(const Project& in) {
    if (in.domain.dimensions == 2) return in;
    Project p = in;
    p.domain.dimensions = 2;
    auto footprint = [](const Vec3& c, const Vec3& sz, Vec2& from, Vec2& to) {
        if (sz.x == 0) {
            from = {c.x, c.y - 0.5 * sz.y};
            to = {c.x, c.y + 0.5 * sz.y};
            return true;
        }
        if (sz.y == 0) {
            from = {c.x - 0.5 * sz.x, c.y};
            to = {c.x + 0.5 * sz.x, c.y};
            return true;
        }
        return false;  // an xy plane has no 2D line
    };
    for (Source& s : p.sources)
        if (s.type == SourceType::Plane && footprint(s.center, s.size, s.from, s.to)) {
            s.type = SourceType::Line;
            s.center = {};
            s.size = {};
        }
    for (Monitor& m : p.monitors)
        if (m.type == MonitorType::Flux && m.size != Vec3{} && footprint(m.center, m.size, m.from, m.to)) {
            m.center = {};
            m.size = {};
        }
    for (int i = 0; i < port_count(p); ++i) {
        auto d = port_at(p, i);
        Vec2 a, b;
        if (!d || !footprint(d->center, d->size, a, b)) continue;  // a port normal to z stays as it is
        d->center = {0.5 * (a.x + b.x), 0.5 * (a.y + b.y), 0.0};
        d->size = {std::fabs(b.x - a.x), std::fabs(b.y - a.y), 0.0};
        set_port(p, i, *d);  // two entries each in 2D
    }
    // the polarization the 3D objects' components belong to (a strip's Ey source: TEz), so
    // that the 2D project compiles; a mix of both leaves it as it is
    bool te = false, tm = false;
    auto note = [&](Component c) {
        const bool isTe = c == Component::Ex || c == Component::Ey || c == Component::Hz;
        te |= isTe;
        tm |= !isTe;
    };
    for (const Source& s : p.sources)
        if (s.profile != SourceProfile::Mode) note(s.component);
    for (const Monitor& m : p.monitors) {
        if (m.type == MonitorType::Time) note(m.component);
        if (m.type == MonitorType::DftField)
            for (Component c : m.components) note(c);
    }
    if (te != tm) p.domain.polarization = te ? Polarization::TEz : Polarization::TMz;
    // the 2D cut through the core: a 3D project's layers rarely contain z = 0
    if (const auto core = core_z_range(in)) p.domain.slice_z = 0.5 * ((*core)[0] + (*core)[1]);
    p.run.frames.plane = "xy";
    p.run.frames.position.reset();
    return p;
}

GridEstimate estimate_grid(const Project& p, int threads) {
    GridEstimate e;
    const Domain& d = p.domain;
    if (!(d.cell_size > 0)) return e;
    Scene s;
    s.dimensions = d.dimensions == 3 ? 3 : 2;
    s.polarization = d.polarization;
    const int axes = s.dimensions;
    double cells = 1;
    for (int a = 0; a < 3; ++a) {
        if (a >= axes) {
            e.n[size_t(a)] = 1;
            continue;
        }
        const int pml = d.boundaries[size_t(a)] == BoundaryKind::Pml ? d.pml.cells : 0;
        const double interior = std::max(1.0, std::round(d.size[size_t(a)] / d.cell_size));
        e.n[size_t(a)] = static_cast<long long>(std::min(interior + 2.0 * pml, 1e9));
        s.boundary[a] = d.boundaries[size_t(a)];
        s.pml_lo[a] = s.pml_hi[a] = pml;
        cells *= double(e.n[size_t(a)]);
    }
    e.cells = static_cast<long long>(std::min(cells, 9e18));
    // engine_state_bytes reads only the sizes; grids beyond int stay an estimate by scaling
    const bool fits = e.n[0] < (1LL << 30) && e.n[1] < (1LL << 30) && e.n[2] < (1LL << 30);
    if (fits) {
        s.nx = int(e.n[0]);
        s.ny = int(e.n[1]);
        s.nz = int(e.n[2]);
        e.state_bytes = engine_state_bytes(s, p.run.precision);
    }
    e.compile_bytes = e.state_bytes + std::size_t(48.0 * cells);
    e.compile_s = kCompileSecondsPerCell3d * cells;
    e.step_s = cells / (kCpuCellUpdatesPerCoreS * std::max(1, threads));
    const double courant = p.run.courant > 0 ? p.run.courant : 0.5;
    const double dt = courant * d.cell_size * units::um / units::c0;
    e.max_steps = stop_step_limit(p.run.stop, dt).steps;
    return e;
}

}  // namespace golightly::editor

namespace golightly::editor {

int plane_normal(const Vec3& size) {
    int axis = -1, zeros = 0;
    for (int a = 0; a < 3; ++a)
        if (size[a] == 0) {
            axis = a;
            ++zeros;
        }
    return zeros == 1 ? axis : -1;
}

namespace {

/// "+x" on the old axis -> "+z" on the new one (the sign kept); empty stays empty.
std::string turned_direction(const std::string& d, int axis) {
    if (d.size() != 2) return d;
    return std::string(1, d[0]) + "xyz"[axis];
}

/// Moves the zero of `size` from its normal to `axis`; false when not a plane or no change.
bool turn_plane(Vec3& size, int axis, int& oldAxis) {
    oldAxis = plane_normal(size);
    if (oldAxis < 0 || axis < 0 || axis > 2 || oldAxis == axis) return false;
    size[oldAxis] = size[axis];
    size[axis] = 0;
    return true;
}

}  // namespace

bool set_plane_normal(Source& s, int axis) {
    int old = -1;
    if (s.type != SourceType::Plane || !turn_plane(s.size, axis, old)) return false;
    if (s.profile == SourceProfile::Mode) {
        s.direction = turned_direction(s.direction, axis);
    } else if (auto it = s.extra.find("direction"); it != s.extra.end() && it->is_string()) {
        *it = turned_direction(it->get<std::string>(), axis);
    }
    const int c = int(s.component);
    if (c < 3 && c == axis) s.component = Component(old);  // the E polarization stays in the plane
    return true;
}

bool set_plane_normal(Monitor& m, int axis) {
    int old = -1;
    if (m.type != MonitorType::Flux || !turn_plane(m.size, axis, old)) return false;
    m.direction = turned_direction(m.direction, axis);
    return true;
}

std::optional<std::array<double, 2>> item_z_extent(const Project& p, const ItemRef& sel) {
    using Z = std::array<double, 2>;
    if (sel.kind == ItemRef::Kind::Shape && sel.layer >= 0 && sel.layer < int(p.layers.size()) && sel.index >= 0 &&
        sel.index < int(p.layers[size_t(sel.layer)].shapes.size())) {
        const Shape& s = p.layers[size_t(sel.layer)].shapes[size_t(sel.index)];
        if (s.type == ShapeType::Sphere) return Z{s.center_3d.z - s.radius, s.center_3d.z + s.radius};
        if (s.type == ShapeType::Box) return Z{s.box_min.z, s.box_max.z};
        return std::nullopt;  // 2D shapes: the layer's band shows their z
    }
    if (p.domain.dimensions != 3) return std::nullopt;
    if (sel.kind == ItemRef::Kind::Source && sel.index >= 0 && sel.index < int(p.sources.size())) {
        const Source& s = p.sources[size_t(sel.index)];
        if (s.type == SourceType::Point && s.at_z) return Z{*s.at_z, *s.at_z};
        if (s.type == SourceType::Plane) return Z{s.center.z - s.size.z / 2, s.center.z + s.size.z / 2};
        if (s.type == SourceType::Tfsf) return Z{s.box_min.z, s.box_max.z};
    }
    if (sel.kind == ItemRef::Kind::Port) {
        const auto d = port_at(p, sel.index);
        if (d) return Z{d->center.z - d->size.z / 2, d->center.z + d->size.z / 2};
        return std::nullopt;
    }
    if (sel.kind == ItemRef::Kind::Monitor && sel.index >= 0 && sel.index < int(p.monitors.size())) {
        const Monitor& m = p.monitors[size_t(sel.index)];
        if (m.type == MonitorType::Flux && m.size != Vec3{}) return Z{m.center.z - m.size.z / 2, m.center.z + m.size.z / 2};
        if (m.min_z && m.max_z) return Z{*m.min_z, *m.max_z};
        if (m.at_z) return Z{*m.at_z, *m.at_z};
    }
    return std::nullopt;
}

bool set_item_z_extent(Project& p, const ItemRef& sel, double z0, double z1) {
    const auto now = item_z_extent(p, sel);
    if (!now || !(z1 >= z0)) return false;
    const bool point = (*now)[0] == (*now)[1];  // points, planes normal to z: moved only
    if (point) z1 = z0;
    else if (!(z1 > z0)) return false;
    if (sel.kind == ItemRef::Kind::Shape) {
        Shape& s = p.layers[size_t(sel.layer)].shapes[size_t(sel.index)];
        if (s.type == ShapeType::Sphere) {
            s.center_3d.z = 0.5 * (z0 + z1);
            s.radius = 0.5 * (z1 - z0);
        } else {
            s.box_min.z = z0;
            s.box_max.z = z1;
        }
    } else if (sel.kind == ItemRef::Kind::Source) {
        Source& s = p.sources[size_t(sel.index)];
        if (s.type == SourceType::Point) s.at_z = z0;
        else if (s.type == SourceType::Plane) {
            s.center.z = 0.5 * (z0 + z1);
            s.size.z = z1 - z0;
        } else {
            s.box_min.z = z0;
            s.box_max.z = z1;
        }
    } else if (sel.kind == ItemRef::Kind::Port) {
        auto d = port_at(p, sel.index);
        d->center.z = 0.5 * (z0 + z1);
        d->size.z = z1 - z0;
        set_port(p, sel.index, *d);
    } else {
        Monitor& m = p.monitors[size_t(sel.index)];
        if (m.type == MonitorType::Flux) {
            m.center.z = 0.5 * (z0 + z1);
            m.size.z = z1 - z0;
        } else if (m.min_z && m.max_z) {
            m.min_z = z0;
            m.max_z = z1;
        } else {
            m.at_z = z0;
        }
    }
    return true;
}

}  // namespace golightly::editor
