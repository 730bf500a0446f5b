#include "tools_3d.hpp"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>

#include "canvas.hpp"
#include "dimensions.hpp"
#include "ports.hpp"

namespace golightly::editor {

namespace {
const QColor kPreview3d(255, 140, 0);
}

Shape SolidTool::shapeFor(const Project& p, int layer, QPointF a, QPointF b) const {
    std::array<double, 2> z{0.0, p.domain.size[2] > 0 ? p.domain.size[2] : 1.0};
    if (layer >= 0 && layer < int(p.layers.size())) z = layer_z_range(p, p.layers[size_t(layer)]);
    if (!(z[1] > z[0])) z[1] = z[0] + std::max(p.domain.cell_size, 1e-3);
    Shape s;
    if (kind_ == Kind::Sphere) {
        s.type = ShapeType::Sphere;
        s.center_3d = {a.x(), a.y(), 0.5 * (z[0] + z[1])};
        s.radius = std::hypot(b.x() - a.x(), b.y() - a.y());
    } else {
        s.type = ShapeType::Box;
        s.box_min = {std::min(a.x(), b.x()), std::min(a.y(), b.y()), z[0]};
        s.box_max = {std::max(a.x(), b.x()), std::max(a.y(), b.y()), z[1]};
    }
    return s;
}

void SolidTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    a_ = b_ = canvas_->snap(w);
    active_ = true;
}

void SolidTool::mouseMove(QMouseEvent*, QPointF w) {
    if (!active_) return;
    b_ = canvas_->snap(w);
    canvas_->update();
}

void SolidTool::mouseRelease(QMouseEvent* e, QPointF w) {
    if (!active_ || e->button() != Qt::LeftButton) return;
    b_ = canvas_->snap(w);
    active_ = false;
    canvas_->update();
    if (kind_ == Kind::Sphere ? a_ == b_ : (a_.x() == b_.x() || a_.y() == b_.y())) return;
    const int layer = editableLayer();
    if (layer < 0) return;
    doc()->addShape(layer, shapeFor(doc()->project(), layer, a_, b_), kind_ == Kind::Sphere ? tr("Draw sphere") : tr("Draw box"));
}

void SolidTool::paintOverlay(QPainter& p) {
    if (!active_) return;
    p.setPen(QPen(kPreview3d, 1.5, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    if (kind_ == Kind::Sphere) {
        const QPointF c = canvas_->toScreen(a_);
        const double r = QLineF(c, canvas_->toScreen(b_)).length();
        p.drawEllipse(c, r, r);
        p.drawEllipse(c, r, r * 0.3);  // the equator, for a solid look
    } else {
        p.drawRect(QRectF(canvas_->toScreen(a_), canvas_->toScreen(b_)).normalized());
    }
}

void BoxItemTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    a_ = b_ = canvas_->snap(w);
    active_ = true;
}

void BoxItemTool::mouseMove(QMouseEvent*, QPointF w) {
    if (!active_) return;
    b_ = canvas_->snap(w);
    canvas_->update();
}

void BoxItemTool::mouseRelease(QMouseEvent* e, QPointF w) {
    if (!active_ || e->button() != Qt::LeftButton) return;
    b_ = canvas_->snap(w);
    active_ = false;
    canvas_->update();
    if (a_.x() == b_.x() || a_.y() == b_.y()) return;
    const Project& p = doc()->project();
    const bool three = p.domain.dimensions == 3;
    const double lz = p.domain.size[2];
    const Vec3 lo{std::min(a_.x(), b_.x()), std::min(a_.y(), b_.y()), three ? 0.25 * lz : 0.0};
    const Vec3 hi{std::max(a_.x(), b_.x()), std::max(a_.y(), b_.y()), three ? 0.75 * lz : 0.0};
    if (kind_ == Kind::Tfsf) {
        Source s;
        s.type = SourceType::Tfsf;
        s.name = doc()->uniqueItemName(QStringLiteral("tfsf")).toStdString();
        s.box_min = lo;
        s.box_max = hi;
        s.direction = "+x";
        s.component = three || p.domain.polarization == Polarization::TMz ? Component::Ez : Component::Ey;
        const auto& sp = p.run.spectrum;
        s.waveform.wavelength_center = 0.5 * (sp.wavelength_min + sp.wavelength_max);
        s.waveform.wavelength_span = std::min(1.9 * s.waveform.wavelength_center, sp.wavelength_max - sp.wavelength_min);
        doc()->addSource(s);
    } else {
        Monitor m;
        m.type = MonitorType::FluxBox;
        m.name = doc()->uniqueItemName(QStringLiteral("fluxbox")).toStdString();
        m.min = Vec2{lo.x, lo.y};
        m.max = Vec2{hi.x, hi.y};
        if (three) {
            m.min_z = lo.z;
            m.max_z = hi.z;
        }
        m.kind = "flux";
        doc()->addMonitor(m);
    }
}

void BoxItemTool::paintOverlay(QPainter& p) {
    if (!active_) return;
    p.setPen(QPen(kPreview3d, 1.5, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(canvas_->toScreen(a_), canvas_->toScreen(b_)).normalized());
}

void PortTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    a_ = b_ = canvas_->snap(w);
    active_ = true;
}

void PortTool::mouseMove(QMouseEvent*, QPointF w) {
    if (!active_) return;
    b_ = canvas_->snap(w);
    canvas_->update();
}

void PortTool::mouseRelease(QMouseEvent* e, QPointF w) {
    if (!active_ || e->button() != Qt::LeftButton) return;
    b_ = canvas_->snap(w);
    active_ = false;
    canvas_->update();
    if (a_ == b_) return;
    const std::string name = doc()->uniqueItemName(QStringLiteral("port")).toStdString();
    doc()->addPort(port_from_line(doc()->project(), {a_.x(), a_.y()}, {b_.x(), b_.y()}, name));
}

void PortTool::paintOverlay(QPainter& p) {
    if (!active_) return;
    p.setPen(QPen(kPreview3d, 3, Qt::DashLine));
    p.drawLine(canvas_->toScreen(a_), canvas_->toScreen(b_));
}

}  // namespace golightly::editor
