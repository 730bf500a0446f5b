// GoLightly editor: the canvas's view (canvas.hpp): world um <-> screen pixels (y up),
// zoom, fit, 1:1, the grid step and snapping.

#include "canvas.hpp"

#include <algorithm>
#include <cmath>

namespace golightly::editor {

void Canvas::setView(double pixelsPerUm, QPointF centerUm) {
    scale_ = std::clamp(pixelsPerUm, 1e-3, 1e6);
    center_ = centerUm;
    fittedOnce_ = true;
    update();
    Q_EMIT viewChanged();
}

QTransform Canvas::worldToScreen() const {
    QTransform t;
    t.translate(width() / 2.0, height() / 2.0);
    t.scale(scale_, -scale_);
    t.translate(-center_.x(), -center_.y());
    return t;
}

QPointF Canvas::toWorld(QPointF s) const {
    return {center_.x() + (s.x() - width() / 2.0) / scale_, center_.y() - (s.y() - height() / 2.0) / scale_};
}

QPointF Canvas::toScreen(QPointF w) const {
    return {(w.x() - center_.x()) * scale_ + width() / 2.0, (center_.y() - w.y()) * scale_ + height() / 2.0};
}

QRectF Canvas::toScreen(const QRectF& r) const { return QRectF(toScreen(r.topLeft()), toScreen(r.bottomRight())).normalized(); }

void Canvas::zoomBy(double factor, QPointF anchor) {
    const QPointF before = toWorld(anchor);
    scale_ = std::clamp(scale_ * factor, 1e-3, 1e6);
    const QPointF after = toWorld(anchor);
    center_ += before - after;
    update();
    Q_EMIT viewChanged();
}

QRectF Canvas::sceneRect() const {
    const auto& d = doc_->project().domain;
    double pml = 0;
    if (d.boundaries[0] == BoundaryKind::Pml || d.boundaries[1] == BoundaryKind::Pml) pml = d.pml.cells * d.cell_size;
    const double w = std::max(d.size[0], 1e-3), h = std::max(d.size[1], 1e-3);
    return QRectF(-pml, -pml, w + 2 * pml, h + 2 * pml);
}

void Canvas::zoomToFit() {
    const QRectF r = sceneRect();
    const double margin = 24, ruler = 18;
    const double sx = std::max(width() - ruler - 2 * margin, 10.0) / r.width();
    const double sy = std::max(height() - ruler - 2 * margin, 10.0) / r.height();
    const double s = std::min(sx, sy);
    // centred in the area right of and below the rulers
    setView(s, r.center() + QPointF(-ruler / 2 / s, ruler / 2 / s));
}

void Canvas::zoomOneToOne() {
    const double cell = doc_->project().domain.cell_size;
    setView(cell > 0 ? 1.0 / cell : 50.0, center_);
}

void Canvas::setGridVisible(bool on) {
    gridVisible_ = on;
    update();
}

double Canvas::gridStep() const {
    const double minUm = 16.0 / scale_;
    const double p = std::pow(10.0, std::floor(std::log10(minUm)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= minUm * (1 - 1e-9)) return m * p;
    return 10 * p;
}

QPointF Canvas::snap(QPointF w) const {
    if (!snap_) return w;
    // vertices of other shapes within 8 pixels
    const double radius = 8.0 / scale_;
    double best = radius * radius;
    std::optional<QPointF> hit;
    auto consider = [&](const Vec2& v) {
        const double d2 = (v.x - w.x()) * (v.x - w.x()) + (v.y - w.y()) * (v.y - w.y());
        if (d2 < best) { best = d2; hit = QPointF(v.x, v.y); }
    };
    for (const auto& layer : doc_->project().layers) {
        if (!layer.visible) continue;
        for (const auto& s : layer.shapes) {
            switch (s.type) {
            case ShapeType::Rectangle:
                if (s.rotation_deg == 0) {
                    consider(s.min); consider(s.max); consider({s.min.x, s.max.y}); consider({s.max.x, s.min.y});
                }
                break;
            case ShapeType::Polygon:
            case ShapeType::Path: for (const auto& v : s.points) consider(v); break;
            case ShapeType::Ellipse:
            case ShapeType::Ring: consider(s.center); break;
            default: break;
            }
        }
    }
    if (hit) return *hit;
    const double g = gridStep();
    auto r = [g](double v) { return std::round(v / g) * g; };
    return {r(w.x()), r(w.y())};
}

}  // namespace golightly::editor
