// GoLightly editor: the canvas's painting (canvas.hpp): the domain, PML band, grid,
// layers and rasters, symmetry planes, the design region, the selection, the divergence
// region and the rulers. Sources, monitors and ports: canvas_markers.cpp.

#include "canvas.hpp"
#include "design_region.hpp"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "tools.hpp"

namespace golightly::editor {

namespace {

const QColor kSelectColor(255, 140, 0);

}  // namespace

void Canvas::drawGrid(QPainter& p, const QTransform& w2d, double s, const QRectF& vis) {
    const double minUm = 16.0 / s;
    const double base = std::pow(10.0, std::floor(std::log10(minUm)));
    double g = 10 * base;
    for (double m : {1.0, 2.0, 5.0})
        if (m * base >= minUm * (1 - 1e-9)) { g = m * base; break; }
    const double major = g * 5;
    p.save();
    p.setTransform(QTransform());
    const long long i0 = (long long)std::floor(vis.left() / g), i1 = (long long)std::ceil(vis.right() / g);
    const long long j0 = (long long)std::floor(vis.top() / g), j1 = (long long)std::ceil(vis.bottom() / g);
    if ((i1 - i0) < 2000 && (j1 - j0) < 2000) {
        const QPen minorPen(QColor(0, 0, 0, 22), 0), majorPen(QColor(0, 0, 0, 50), 0);
        for (long long i = i0; i <= i1; ++i) {
            const double x = double(i) * g;
            const bool isMajor = std::fabs(std::remainder(x, major)) < g * 1e-3;
            p.setPen(isMajor ? majorPen : minorPen);
            p.drawLine(w2d.map(QPointF(x, vis.top())), w2d.map(QPointF(x, vis.bottom())));
        }
        for (long long j = j0; j <= j1; ++j) {
            const double y = double(j) * g;
            const bool isMajor = std::fabs(std::remainder(y, major)) < g * 1e-3;
            p.setPen(isMajor ? majorPen : minorPen);
            p.drawLine(w2d.map(QPointF(vis.left(), y)), w2d.map(QPointF(vis.right(), y)));
        }
    }
    p.restore();
}

void Canvas::drawScene(QPainter& p, const QTransform& w2d, double s, const QRectF& vis, bool withGrid,
                       bool withSelection) {
    const Project& pr = doc_->project();
    const auto& d = pr.domain;
    const QRectF domain(0, 0, d.size[0], d.size[1]);
    p.setRenderHint(QPainter::Antialiasing, true);

    // domain background (background material) and PML band
    const QRectF scene = sceneRect();
    p.setTransform(w2d);
    if (scene != domain) {
        p.setPen(Qt::NoPen);
        p.setBrush(QBrush(QColor(120, 130, 150, 90), Qt::BDiagPattern));
        QPainterPath band;
        band.addRect(scene);
        band.addRect(domain);
        band.setFillRule(Qt::OddEvenFill);
        p.setBrush(QColor(205, 210, 222));
        p.drawPath(band);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(material_color(pr, d.background).lighter(d.background == "air" ? 100 : 130));
    p.drawRect(domain);
    if (withGrid) drawGrid(p, w2d, s, vis);

    // layers, in order: later layers drawn over earlier ones
    const double tol = 0.4 / s;
    const ItemRef sel = doc_->selection();
    if (preview_) {
        updatePreview();
        if (!previewImage_.isNull()) {
            p.setTransform(w2d);
            p.save();
            p.translate(previewRect_.left(), previewRect_.bottom());
            p.scale(previewRect_.width() / previewNx_, -previewRect_.height() / previewNy_);
            p.setRenderHint(QPainter::SmoothPixmapTransform, false);
            p.drawImage(QPointF(0, 0), previewImage_);
            p.restore();
        }
    }
    p.save();
    p.setTransform(w2d);
    p.setClipRect(scene);  // geometry continues through the PML, not beyond
    for (int l = 0; l < int(pr.layers.size()); ++l) {
        const Layer& layer = pr.layers[size_t(l)];
        if (!layer.visible || (preview_ && !previewImage_.isNull())) continue;
        QColor c = material_color(pr, layer.material);
        for (int i = 0; i < int(layer.shapes.size()); ++i) {
            const Shape& shape = layer.shapes[size_t(i)];
            QTransform t = w2d;
            if (sel.kind == ItemRef::Kind::Shape && sel.layer == l && sel.index == i && !previewOffset_.isNull())
                t = QTransform::fromTranslate(previewOffset_.x(), previewOffset_.y()) * w2d;
            p.setTransform(t);
            if (shape.type == ShapeType::Raster) {
                RasterImage* r = rasterImage(l, i);
                if (!r) continue;
                const QRectF target(shape.origin.x, shape.origin.y, shape.width_px * shape.pixel_size,
                                    shape.height_px * shape.pixel_size);
                // world y is up; the image's row 0 is the top: flip inside the target
                p.save();
                p.translate(target.left(), target.bottom());
                p.scale(shape.pixel_size, -shape.pixel_size);
                p.setRenderHint(QPainter::SmoothPixmapTransform, s * shape.pixel_size < 1.0);
                p.drawImage(QPointF(0, 0), r->display);
                p.restore();
                continue;
            }
            bool crosses = true;
            const QPainterPath path = shape.type == ShapeType::Step ? step_painter_path(shape, pr.domain.slice_z, &crosses)
                                                                    : shape_painter_path(shape, tol);
            QColor fill = c;
            fill.setAlpha(layer.reference_only ? 45 : layer.locked ? 140 : 200);
            if (!crosses) fill.setAlpha(0);  // a step part the slice plane misses: its dashed x-y bounds
            p.setBrush(fill);
            QPen pen(c.darker(150), 1.2);
            pen.setCosmetic(true);
            if (layer.locked) pen.setStyle(Qt::DashLine);
            if (layer.reference_only) pen.setStyle(Qt::DashDotLine);
            if (!crosses) pen.setStyle(Qt::DotLine);
            p.setPen(pen);
            p.drawPath(path);
        }
        if (pending_ && pending_->isNew && pending_->layer == l) {
            const Shape& shape = pending_->shape;
            p.setTransform(w2d);
            p.save();
            p.translate(shape.origin.x, shape.origin.y + shape.height_px * shape.pixel_size);
            p.scale(shape.pixel_size, -shape.pixel_size);
            p.drawImage(QPointF(0, 0), pending_->image.display);
            p.restore();
        }
    }
    p.restore();
    p.setTransform(w2d);

    // Symmetry planes: the lower half of each symmetric axis is not simulated (it is the
    // mirror image of the upper half): veiled grey, the plane dashed.
    if (d.symmetry[0] != 0 || d.symmetry[1] != 0) {
        QPainterPath veil;
        if (d.symmetry[0] != 0) veil.addRect(QRectF(scene.left(), scene.top(), d.size[0] / 2 - scene.left(), scene.height()));
        if (d.symmetry[1] != 0) veil.addRect(QRectF(scene.left(), scene.top(), scene.width(), d.size[1] / 2 - scene.top()));
        veil.setFillRule(Qt::WindingFill);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(90, 90, 100, 70));
        p.drawPath(veil.simplified());
        QPen plane(QColor(60, 60, 160), 1.5, Qt::DashLine);
        plane.setCosmetic(true);
        p.setPen(plane);
        if (d.symmetry[0] != 0) p.drawLine(QPointF(d.size[0] / 2, scene.top()), QPointF(d.size[0] / 2, scene.bottom()));
        if (d.symmetry[1] != 0) p.drawLine(QPointF(scene.left(), d.size[1] / 2), QPointF(scene.right(), d.size[1] / 2));
    }

    // domain border
    QPen border(QColor(40, 40, 40), 1.5);
    border.setCosmetic(true);
    p.setPen(border);
    p.setBrush(Qt::NoBrush);
    p.drawRect(domain);

    drawDesignRegion(p, w2d);
    drawSourcesMonitors(p, w2d, s);
    if (withSelection) drawSelection(p, w2d, s);
}

void Canvas::setDesignDensity(const QImage& image) {
    designDensity_ = image;
    update();
}

void Canvas::drawDesignRegion(QPainter& p, const QTransform& w2d) {
    Vec3 a, b;
    if (!design_box(doc_->project(), a, b)) return;
    QRectF box = QRectF(QPointF(a[0], a[1]), QPointF(b[0], b[1])).normalized();
    const ItemRef sel = doc_->selection();
    if (sel.kind == ItemRef::Kind::Design) box.translate(previewOffset_);
    p.save();
    p.setTransform(w2d);
    QImage density = designDensity_;
    if (density.isNull()) density = design_rho_image(doc_->project());
    if (!density.isNull()) {
        p.save();
        p.translate(box.left(), box.bottom());
        p.scale(box.width() / density.width(), -box.height() / density.height());
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.setOpacity(0.85);
        p.drawImage(QPointF(0, 0), density);
        p.restore();
    }
    QPen pen(QColor(120, 60, 200), 1.6, Qt::DashLine);
    pen.setCosmetic(true);
    p.setPen(pen);
    p.setBrush(density.isNull() ? QBrush(QColor(120, 60, 200, 110), Qt::BDiagPattern) : QBrush(Qt::NoBrush));
    p.drawRect(box);
    // the fixed boxes over the density and the region's hatch: solid dark, void light with
    // an orange hatch (the density's own greys must not hide them)
    for (const FixedDensityBox& f : design_fixed_boxes(doc_->project())) {
        QRectF fr = QRectF(QPointF(f.min[0], f.min[1]), QPointF(f.max[0], f.max[1])).normalized();
        if (sel.kind == ItemRef::Kind::Design) fr.translate(previewOffset_);
        QPen edge(f.rho ? QColor(20, 20, 20) : QColor(210, 100, 20), 1.2);
        edge.setCosmetic(true);
        p.setPen(edge);
        p.setBrush(f.rho ? QColor(40, 40, 40, 200) : QColor(255, 255, 255, 180));
        p.drawRect(fr);
        p.setBrush(QBrush(f.rho ? QColor(0, 0, 0) : QColor(210, 100, 20), Qt::DiagCrossPattern));
        p.drawRect(fr);
    }
    p.restore();
    // its name above the box
    const Json* r = design_region(doc_->project());
    const QString name = r && r->contains("name") && (*r)["name"].is_string() ? QString::fromStdString((*r)["name"].get<std::string>())
                                                                             : QStringLiteral("design");
    const QPointF at = w2d.map(QPointF(box.left(), box.bottom()));
    p.save();
    p.setTransform(QTransform());
    p.setPen(QColor(90, 40, 160));
    p.drawText(at + QPointF(2, -4), name);
    p.restore();
}

void Canvas::drawSelection(QPainter& p, const QTransform& w2d, double) {
    const ItemRef sel = doc_->selection();
    if (!sel.valid()) return;
    const QRectF box = itemBounds(sel);
    p.save();
    p.setTransform(QTransform());
    const QRectF r = w2d.mapRect(box.translated(previewOffset_)).adjusted(-4, -4, 4, 4);
    p.setPen(QPen(kSelectColor, 1.5, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
    p.setPen(QPen(kSelectColor.darker(130), 1));
    p.setBrush(Qt::white);
    for (QPointF c : {r.topLeft(), r.topRight(), r.bottomLeft(), r.bottomRight()}) p.drawRect(QRectF(c - QPointF(3, 3), QSizeF(6, 6)));
    p.restore();
}

void Canvas::renderScene(QPainter& p, const QRectF& target, bool withGrid) {
    const QRectF r = sceneRect();
    const double s = std::min(target.width() / r.width(), target.height() / r.height());
    QTransform t;
    t.translate(target.center().x(), target.center().y());
    t.scale(s, -s);
    t.translate(-r.center().x(), -r.center().y());
    p.save();
    p.fillRect(target, QColor(250, 250, 252));
    drawScene(p, t, s, r, withGrid, false);
    p.restore();
}

void Canvas::paintEvent(QPaintEvent*) {
    if (!fittedOnce_) zoomToFit();
    QPainter p(this);
    p.fillRect(rect(), QColor(236, 238, 242));
    const QRectF vis = QRectF(toWorld(QPointF(0, height())), toWorld(QPointF(width(), 0))).normalized();
    const QTransform w2s = worldToScreen();
    drawScene(p, w2s, scale_, vis, gridVisible_, true);
    drawDivergenceRegion(p);
    if (tool_) {
        p.setTransform(QTransform());
        p.setRenderHint(QPainter::Antialiasing, true);
        tool_->paintOverlay(p);
    }
    p.setTransform(QTransform());
    drawRulers(p);
}

void Canvas::setDivergenceRegion(const QRectF& rectUm, const QString& label) {
    const bool valid = rectUm.isValid() && std::isfinite(rectUm.x()) && std::isfinite(rectUm.y()) &&
                       std::isfinite(rectUm.width()) && std::isfinite(rectUm.height());
    divergenceRect_ = valid ? rectUm.normalized() : QRectF();
    divergenceLabel_ = valid ? label : QString();
    update();
}

void Canvas::drawDivergenceRegion(QPainter& p) {
    if (divergenceRect_.isNull()) return;
    p.save();
    p.setTransform(QTransform());
    p.setRenderHint(QPainter::Antialiasing, true);
    QRectF r = toScreen(divergenceRect_).normalized();
    constexpr double kMinPx = 8;  // a box of one cell stays visible at any zoom
    if (r.width() < kMinPx) r.adjust(-(kMinPx - r.width()) / 2, 0, (kMinPx - r.width()) / 2, 0);
    if (r.height() < kMinPx) r.adjust(0, -(kMinPx - r.height()) / 2, 0, (kMinPx - r.height()) / 2);
    const QColor red(215, 30, 30);
    p.fillRect(r, QColor(215, 30, 30, 40));
    p.setPen(QPen(red, 2.0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
    if (!divergenceLabel_.isEmpty()) {
        QFont f = p.font();
        f.setBold(true);
        p.setFont(f);
        const QFontMetricsF fm(f);
        const QRectF text = fm.boundingRect(divergenceLabel_).adjusted(-4, -2, 4, 2);
        QPointF at(r.left(), r.top() - 4 - text.height());
        if (at.y() < 20) at.setY(r.bottom() + 4);  // below the box when the rulers would hide it
        at.setX(std::max(20.0, std::min(at.x(), width() - text.width() - 2)));  // inside the widget
        const QRectF box(at, text.size());
        p.fillRect(box, QColor(255, 255, 255, 225));
        p.setPen(red);
        p.drawText(box, Qt::AlignCenter, divergenceLabel_);
    }
    p.restore();
}

void Canvas::drawRulers(QPainter& p) {
    constexpr int kRuler = 18;
    const double g = gridStep();
    const double major = g * 5;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    const QColor bg(248, 248, 250, 235), fg(70, 70, 80);
    p.fillRect(QRect(0, 0, width(), kRuler), bg);
    p.fillRect(QRect(0, 0, kRuler, height()), bg);
    p.setPen(QColor(170, 170, 180));
    p.drawLine(0, kRuler, width(), kRuler);
    p.drawLine(kRuler, 0, kRuler, height());
    QFont f = p.font();
    f.setPointSizeF(7.5);
    p.setFont(f);
    auto label = [&](double v) {
        v = std::round(v / g) * g;
        return QString::number(std::abs(v) < g * 1e-6 ? 0.0 : v, 'g', 10);
    };
    // x ruler
    const double x0 = toWorld(QPointF(kRuler, 0)).x(), x1 = toWorld(QPointF(width(), 0)).x();
    for (long long i = (long long)std::ceil(x0 / g); double(i) * g <= x1; ++i) {
        const double x = double(i) * g;
        const int sx = int(std::lround(toScreen(QPointF(x, 0)).x()));
        const bool isMajor = std::fabs(std::remainder(x, major)) < g * 1e-3;
        p.setPen(fg);
        p.drawLine(sx, kRuler, sx, kRuler - (isMajor ? 9 : 4));
        if (isMajor) p.drawText(QPoint(sx + 2, 9), label(x));
    }
    // y ruler (labels rotated)
    const double y0 = toWorld(QPointF(0, height())).y(), y1 = toWorld(QPointF(0, kRuler)).y();
    for (long long j = (long long)std::ceil(y0 / g); double(j) * g <= y1; ++j) {
        const double y = double(j) * g;
        const int sy = int(std::lround(toScreen(QPointF(0, y)).y()));
        const bool isMajor = std::fabs(std::remainder(y, major)) < g * 1e-3;
        p.setPen(fg);
        p.drawLine(kRuler, sy, kRuler - (isMajor ? 9 : 4), sy);
        if (isMajor) {
            p.save();
            p.translate(9, sy - 2);
            p.rotate(-90);
            p.drawText(QPoint(0, 0), label(y));
            p.restore();
        }
    }
    // cursor marks
    if (std::isfinite(lastCursor_.x())) {
        const QPointF c = toScreen(lastCursor_);
        p.setPen(QPen(QColor(220, 60, 30), 1));
        p.drawLine(QPointF(c.x(), 0), QPointF(c.x(), kRuler));
        p.drawLine(QPointF(0, c.y()), QPointF(kRuler, c.y()));
    }
    p.fillRect(QRect(0, 0, kRuler, kRuler), QColor(236, 236, 240));
    p.setPen(fg);
    p.drawText(QRect(0, 0, kRuler, kRuler), Qt::AlignCenter, tr("µm"));
    p.restore();
}

}  // namespace golightly::editor
