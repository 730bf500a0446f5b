// GoLightly editor: the canvas's hit testing and item bounds (canvas.hpp), in world um.

#include "canvas.hpp"
#include "canvas_internal.hpp"
#include "design_region.hpp"
#include "dimensions.hpp"
#include "ports.hpp"

#include <algorithm>
#include <cmath>

namespace golightly::editor {

ItemRef Canvas::hitTest(QPointF w) const {
    const Project& pr = doc_->project();
    const double tol = 6.0 / scale_;
    auto nearSegment = [&](const Vec2& a, const Vec2& b) {
        const QPointF d(b.x - a.x, b.y - a.y);
        const double len2 = d.x() * d.x() + d.y() * d.y();
        double t = len2 > 0 ? ((w.x() - a.x) * d.x() + (w.y() - a.y) * d.y()) / len2 : 0;
        t = std::clamp(t, 0.0, 1.0);
        return std::hypot(a.x + t * d.x() - w.x(), a.y + t * d.y() - w.y()) <= tol;
    };
    for (int i = port_count(pr) - 1; i >= 0; --i) {  // ports: their line or footprint
        const auto d = port_at(pr, i);
        if (!d) continue;
        Vec2 a, b;
        if (port_footprint(*d, a, b) ? nearSegment(a, b)
                                     : QRectF(qp(a), qp(b)).normalized().adjusted(-tol, -tol, tol, tol).contains(w))
            return {ItemRef::Kind::Port, -1, i};
    }
    for (int i = int(pr.monitors.size()) - 1; i >= 0; --i) {
        const Monitor& m = pr.monitors[size_t(i)];
        if (m.type == MonitorType::Flux && m.size != Vec3{}) {  // a plane (3D): its footprint
            Vec2 a, b;
            if (plane_footprint(m.center, m.size, a, b) ? nearSegment(a, b)
                                                          : QRectF(qp(a), qp(b)).normalized().adjusted(-tol, -tol, tol, tol).contains(w))
                return {ItemRef::Kind::Monitor, -1, i};
            continue;
        }
        if (m.type == MonitorType::Flux && nearSegment(m.from, m.to)) return {ItemRef::Kind::Monitor, -1, i};
        if (m.type == MonitorType::Time && m.at && nearSegment(*m.at, *m.at)) return {ItemRef::Kind::Monitor, -1, i};
        if ((m.type == MonitorType::FluxBox || m.type == MonitorType::DftField) && m.min && m.max &&
            QRectF(qp(*m.min), qp(*m.max)).normalized().adjusted(-tol, -tol, tol, tol).contains(w))
            return {ItemRef::Kind::Monitor, -1, i};
    }
    for (int i = int(pr.sources.size()) - 1; i >= 0; --i) {
        const Source& s = pr.sources[size_t(i)];
        if (s.type == SourceType::Point && nearSegment(s.at, s.at)) return {ItemRef::Kind::Source, -1, i};
        if (s.type == SourceType::Line && nearSegment(s.from, s.to)) return {ItemRef::Kind::Source, -1, i};
        if (s.type == SourceType::Plane) {
            Vec2 a, b;
            if (plane_footprint(s.center, s.size, a, b) ? nearSegment(a, b)
                                                          : QRectF(qp(a), qp(b)).normalized().adjusted(-tol, -tol, tol, tol).contains(w))
                return {ItemRef::Kind::Source, -1, i};
        }
        if (s.type == SourceType::Tfsf) {  // the box's edges (its inside stays free for the structure)
            const QRectF r = QRectF(QPointF(s.box_min.x, s.box_min.y), QPointF(s.box_max.x, s.box_max.y)).normalized();
            if (r.adjusted(-tol, -tol, tol, tol).contains(w) && !r.adjusted(tol, tol, -tol, -tol).contains(w))
                return {ItemRef::Kind::Source, -1, i};
        }
        if (s.type == SourceType::Region && s.shape && shape_painter_path(*s.shape, 0.5 / scale_).contains(w))
            return {ItemRef::Kind::Source, -1, i};
    }
    for (int l = int(pr.layers.size()) - 1; l >= 0; --l) {
        const Layer& layer = pr.layers[size_t(l)];
        if (!layer.visible || layer.locked) continue;
        for (int i = int(layer.shapes.size()) - 1; i >= 0; --i) {
            const Shape& s = layer.shapes[size_t(i)];
            if (s.type == ShapeType::Raster) continue;  // painted coverage is edited with the brush
            if (shape_painter_path(s, 0.5 / scale_, pr.domain.slice_z).contains(w)) return {ItemRef::Kind::Shape, l, i};
        }
    }
    Vec3 da, db;  // the design region last: the shapes inside it stay selectable
    if (design_box(pr, da, db) &&
        QRectF(QPointF(da[0], da[1]), QPointF(db[0], db[1])).normalized().adjusted(-tol, -tol, tol, tol).contains(w))
        return {ItemRef::Kind::Design, -1, 0};
    return {};
}

QRectF Canvas::itemBounds(const ItemRef& sel) const {
    const Project& pr = doc_->project();
    const double s = scale_;
    QRectF box;
    if (sel.kind == ItemRef::Kind::Shape && sel.layer >= 0 && sel.layer < int(pr.layers.size()) && sel.index >= 0 &&
        sel.index < int(pr.layers[size_t(sel.layer)].shapes.size())) {
        box = shape_painter_path(pr.layers[size_t(sel.layer)].shapes[size_t(sel.index)], 0.4 / s, pr.domain.slice_z)
                  .boundingRect();
    } else if (sel.kind == ItemRef::Kind::Source && sel.index >= 0 && sel.index < int(pr.sources.size())) {
        const Source& src = pr.sources[size_t(sel.index)];
        if (src.type == SourceType::Point) box = QRectF(qp(src.at), qp(src.at));
        else if (src.type == SourceType::Line) box = QRectF(qp(src.from), qp(src.to)).normalized();
        else if (src.type == SourceType::Plane) {
            Vec2 a, b;
            plane_footprint(src.center, src.size, a, b);
            box = QRectF(qp(a), qp(b)).normalized();
        } else if (src.type == SourceType::Tfsf)
            box = QRectF(QPointF(src.box_min.x, src.box_min.y), QPointF(src.box_max.x, src.box_max.y)).normalized();
        else if (src.shape) box = shape_painter_path(*src.shape, 0.4 / s).boundingRect();
    } else if (sel.kind == ItemRef::Kind::Design) {
        Vec3 a, b;
        if (design_box(pr, a, b)) box = QRectF(QPointF(a[0], a[1]), QPointF(b[0], b[1])).normalized();
    } else if (sel.kind == ItemRef::Kind::Port) {
        if (const auto d = port_at(pr, sel.index)) {
            Vec2 a, b;
            port_footprint(*d, a, b);
            box = QRectF(qp(a), qp(b)).normalized();
        }
    } else if (sel.kind == ItemRef::Kind::Monitor && sel.index >= 0 && sel.index < int(pr.monitors.size())) {
        const Monitor& m = pr.monitors[size_t(sel.index)];
        if (m.type == MonitorType::Flux && m.size != Vec3{}) {
            Vec2 a, b;
            plane_footprint(m.center, m.size, a, b);
            box = QRectF(qp(a), qp(b)).normalized();
        } else if (m.type == MonitorType::Flux) box = QRectF(qp(m.from), qp(m.to)).normalized();
        else if (m.at) box = QRectF(qp(*m.at), qp(*m.at));
        else if (m.shape) box = shape_painter_path(*m.shape, 0.4 / s).boundingRect();
        else if (m.min && m.max) box = QRectF(qp(*m.min), qp(*m.max)).normalized();
    }
    return box;
}

}  // namespace golightly::editor
