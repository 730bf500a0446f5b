// GoLightly editor: project shapes as Qt painter paths in world um (vector outlines,
// 3D solids' footprints, step sections) and material colours (canvas.hpp).

#include "canvas.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <mutex>

#include "golightly/geometry.hpp"
#include "golightly/step_import.hpp"

namespace golightly::editor {

QPainterPath step_painter_path(const Shape& shape, double slice_z_um, bool* crosses) {
    struct Entry {
        QPainterPath path;
        bool crosses = false;
    };
    static std::mutex mutex;
    static std::map<std::string, Entry> cache;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%zu:%zu|%.17g|%.17g,%.17g,%.17g|%.17g,%.17g,%.17g|z%.17g|",
                  std::hash<std::string>{}(shape.data_base64), shape.data_base64.size(), shape.scale, shape.rotate_deg[0],
                  shape.rotate_deg[1], shape.rotate_deg[2], shape.translate[0], shape.translate[1], shape.translate[2],
                  slice_z_um);
    std::string key = buf;
    for (int k : shape.solids) key += std::to_string(k) + ",";
    {
        std::lock_guard<std::mutex> lock(mutex);
        auto it = cache.find(key);
        if (it != cache.end()) {
            if (crosses) *crosses = it->second.crosses;
            return it->second.path;
        }
    }
    Entry e;
    e.path.setFillRule(Qt::WindingFill);
    try {
        const std::array<double, 6> b = step_bounds_um(shape);
        const double extent = std::max({b[3] - b[0], b[4] - b[1], 1e-6});
        for (const StepSolidSection& sec : step_section_solids(shape, slice_z_um, 2e-4 * extent)) {
            for (const auto& ring : sec.outline) {
                if (ring.size() < 2) continue;
                QPolygonF poly;
                poly.reserve(int(ring.size()) + 1);
                for (const auto& v : ring) poly << QPointF(v.x, v.y);
                poly << poly.front();
                e.path.addPolygon(poly);
                e.path.closeSubpath();
            }
        }
        e.crosses = !e.path.isEmpty();
        if (!e.crosses) e.path.addRect(QRectF(QPointF(b[0], b[1]), QPointF(b[3], b[4])).normalized());
    } catch (const std::exception&) {
        e = Entry{};
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (cache.size() > 64) cache.clear();
    cache[key] = e;
    if (crosses) *crosses = e.crosses;
    return e.path;
}

QPainterPath shape_painter_path(const Shape& shape, double tolerance_um, double slice_z_um) {
    if (shape.type == ShapeType::Step) return step_painter_path(shape, slice_z_um);
    QPainterPath path;
    path.setFillRule(Qt::WindingFill);
    // 3D solids in the xy editor: their footprints (the sphere's equator, the box's xy rectangle)
    if (shape.type == ShapeType::Sphere) {
        if (shape.radius > 0)
            path.addEllipse(QPointF(shape.center_3d.x, shape.center_3d.y), shape.radius, shape.radius);
        return path;
    }
    if (shape.type == ShapeType::Box) {
        path.addRect(QRectF(QPointF(shape.box_min.x, shape.box_min.y), QPointF(shape.box_max.x, shape.box_max.y)).normalized());
        return path;
    }
    if (shape.type == ShapeType::Raster) {
        if (shape.type == ShapeType::Raster)
            path.addRect(QRectF(shape.origin.x, shape.origin.y, shape.width_px * shape.pixel_size,
                                shape.height_px * shape.pixel_size));
        return path;
    }
    Outline outline;
    try {
        outline = shape_outline(shape, std::max(tolerance_um, 1e-5));
    } catch (const std::exception&) {
        return path;
    }
    for (const auto& ring : outline) {
        if (ring.size() < 2) continue;
        QPolygonF poly;
        poly.reserve(int(ring.size()) + 1);
        for (const auto& v : ring) poly << QPointF(v.x, v.y);
        poly << poly.front();
        path.addPolygon(poly);
        path.closeSubpath();
    }
    return path;
}

QColor material_color(const Project& project, const std::string& id) {
    if (const Material* m = project.find_material(id); m && !m->color.empty()) {
        QColor c(QString::fromStdString(m->color));
        if (c.isValid()) return c;
    }
    if (id == "air") return QColor(235, 240, 245);
    const size_t h = std::hash<std::string>{}(id);
    return QColor::fromHsv(int(h % 360), 140, 200);
}

}  // namespace golightly::editor
