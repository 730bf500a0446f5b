#include "dimensions.hpp"

#include "ports.hpp"

#include <algorithm>
#include <cmath>

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

Project to_3d(const Project& in, double depth) {
    if (in.domain.dimensions == 3) return in;
    Project p = in;
    p.domain.dimensions = 3;
    if (!(p.domain.size[2] > 0)) p.domain.size[2] = depth > 0 ? depth : kDefault3dDepthUm;
    const double lz = p.domain.size[2], zc = 0.5 * lz;
    if (p.run.courant >= 1.0 / std::sqrt(3.0)) p.run.courant = 0.5;
    for (Source& s : p.sources) source_to_3d(s, lz);
    for (Monitor& m : p.monitors) monitor_to_3d(m, lz);
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
    p.run.frames.plane = "xy";
    p.run.frames.position.reset();
    return p;
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
