#include "tools.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "canvas.hpp"
#include "golightly/image_io.hpp"

namespace golightly::editor {

namespace {
Vec2 v2(QPointF p) { return {p.x(), p.y()}; }
const QColor kPreview(255, 140, 0);
}  // namespace

EditorDocument* Tool::doc() const { return canvas_->document(); }

int Tool::editableLayer() {
    const Project& p = doc()->project();
    const int l = doc()->currentLayer();
    if (l < 0 || l >= int(p.layers.size())) {
        Q_EMIT message(tr("Add a layer first (Layers dock)."));
        return -1;
    }
    if (p.layers[size_t(l)].locked) {
        Q_EMIT message(tr("The current layer \"%1\" is locked.").arg(QString::fromStdString(p.layers[size_t(l)].name)));
        return -1;
    }
    if (!p.layers[size_t(l)].visible) {
        Q_EMIT message(tr("The current layer \"%1\" is hidden.").arg(QString::fromStdString(p.layers[size_t(l)].name)));
        return -1;
    }
    return l;
}

// ---------------------------------------------------------------- select

void SelectTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    const ItemRef sel = doc()->selection();
    // a corner handle of the selected shape: resize (rotate with Shift)
    if (sel.kind == ItemRef::Kind::Shape) {
        const Shape& s = doc()->project().layers[size_t(sel.layer)].shapes[size_t(sel.index)];
        const QRectF box = canvas_->itemBounds(sel);
        if (s.type != ShapeType::Raster && !box.isEmpty()) {
            const QRectF r = canvas_->toScreen(box).adjusted(-4, -4, 4, 4);
            const QPointF screen = canvas_->toScreen(w);
            const QPointF corners[4] = {r.topLeft(), r.topRight(), r.bottomLeft(), r.bottomRight()};
            const QPointF worldCorners[4] = {QPointF(box.left(), box.bottom()), QPointF(box.right(), box.bottom()),
                                             QPointF(box.left(), box.top()), QPointF(box.right(), box.top())};
            for (int i = 0; i < 4; ++i) {
                if (std::hypot(screen.x() - corners[i].x(), screen.y() - corners[i].y()) <= 7) {
                    original_ = s;
                    corner_ = worldCorners[i];
                    anchor_ = worldCorners[3 - i];
                    current_ = w;
                    start_ = w;
                    // a STEP part is placed, not reshaped: its handles always rotate it
                    mode_ = (e->modifiers() & Qt::ShiftModifier) || s.type == ShapeType::Step ? Mode::Rotate : Mode::Resize;
                    if (mode_ == Mode::Rotate) {  // about the shape's own centre where it has one
                        anchor_ = box.center();
                        if (s.type == ShapeType::Ellipse || s.type == ShapeType::Ring) anchor_ = QPointF(s.center.x, s.center.y);
                        if (s.type == ShapeType::Rectangle)
                            anchor_ = QPointF((s.min.x + s.max.x) / 2, (s.min.y + s.max.y) / 2);
                    }
                    return;
                }
            }
        }
    }
    const ItemRef hit = canvas_->hitTest(w);
    doc()->setSelection(hit);
    mode_ = hit.valid() ? Mode::Move : Mode::None;
    start_ = w;
    offset_ = {};
}

Shape SelectTool::transformedShape() const {
    Shape s = original_;
    if (mode_ == Mode::Resize) {
        const QPointF c = canvas_->snap(current_);
        const double dx = corner_.x() - anchor_.x(), dy = corner_.y() - anchor_.y();
        double sx = std::fabs(dx) > 1e-12 ? (c.x() - anchor_.x()) / dx : 1;
        double sy = std::fabs(dy) > 1e-12 ? (c.y() - anchor_.y()) / dy : 1;
        if (std::fabs(sx) < 1e-3) sx = 1e-3;
        if (std::fabs(sy) < 1e-3) sy = 1e-3;
        scale_shape(s, {anchor_.x(), anchor_.y()}, sx, sy);
    } else if (mode_ == Mode::Rotate) {
        rotate_shape(s, {anchor_.x(), anchor_.y()}, rotationDeg());
    }
    return s;
}

void SelectTool::mouseMove(QMouseEvent*, QPointF w) {
    if (mode_ == Mode::Resize || mode_ == Mode::Rotate) {
        current_ = w;
        canvas_->update();
        return;
    }
    if (mode_ != Mode::Move) return;
    QPointF d = w - start_;
    if (canvas_->snapEnabled()) {
        const double g = canvas_->gridStep();
        d = QPointF(std::round(d.x() / g) * g, std::round(d.y() / g) * g);
    }
    offset_ = d;
    canvas_->setPreviewOffset(offset_);
}

void SelectTool::mouseRelease(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    if (mode_ == Mode::Resize || mode_ == Mode::Rotate) {
        current_ = w;
        const Shape s = transformedShape();
        const bool rotate = mode_ == Mode::Rotate;
        mode_ = Mode::None;
        canvas_->update();
        const ItemRef sel = doc()->selection();
        if (sel.kind != ItemRef::Kind::Shape) return;
        doc()->editLayer(sel.layer, rotate ? tr("Rotate shape") : tr("Resize shape"), [&](Layer& l) {
            if (sel.index < int(l.shapes.size())) l.shapes[size_t(sel.index)] = s;
        });
        return;
    }
    if (mode_ != Mode::Move) return;
    mouseMove(e, w);
    mode_ = Mode::None;
    canvas_->setPreviewOffset({});
    doc()->translateItem(doc()->selection(), offset_.x(), offset_.y());
    offset_ = {};
}

double SelectTool::rotationDeg() const {
    double deg = (std::atan2(current_.y() - anchor_.y(), current_.x() - anchor_.x()) -
                  std::atan2(start_.y() - anchor_.y(), start_.x() - anchor_.x())) * 180 / M_PI;
    if (canvas_->snapEnabled()) deg = std::round(deg / 15) * 15;
    return deg;
}

void SelectTool::paintOverlay(QPainter& p) {
    if (mode_ != Mode::Resize && mode_ != Mode::Rotate) return;
    QPainterPath path;
    if (original_.type == ShapeType::Step) {
        // the section turns with the part (rotation about z): no new cut while dragging
        QTransform r;
        r.translate(anchor_.x(), anchor_.y());
        r.rotate(rotationDeg());
        r.translate(-anchor_.x(), -anchor_.y());
        path = r.map(step_painter_path(original_, doc()->project().domain.slice_z));
    } else {
        path = shape_painter_path(transformedShape(), 0.5 / canvas_->pixelsPerUm());
    }
    QTransform t;
    const QPointF o = canvas_->toScreen(QPointF(0, 0));
    t.translate(o.x(), o.y());
    t.scale(canvas_->pixelsPerUm(), -canvas_->pixelsPerUm());
    p.setPen(QPen(kPreview, 1.5, Qt::DashLine));
    p.setBrush(QColor(255, 140, 0, 50));
    p.drawPath(t.map(path));
}

bool SelectTool::keyPress(QKeyEvent* e) {
    const ItemRef sel = doc()->selection();
    if (e->key() == Qt::Key_Escape) {
        cancel();
        doc()->setSelection({});
        return true;
    }
    if (!sel.valid()) return false;
    const double g = canvas_->gridStep();
    switch (e->key()) {
    case Qt::Key_Left: doc()->translateItem(sel, -g, 0); return true;
    case Qt::Key_Right: doc()->translateItem(sel, g, 0); return true;
    case Qt::Key_Up: doc()->translateItem(sel, 0, g); return true;
    case Qt::Key_Down: doc()->translateItem(sel, 0, -g); return true;
    default: return false;
    }
}

void SelectTool::cancel() {
    mode_ = Mode::None;
    canvas_->setPreviewOffset({});
}

// ---------------------------------------------------------------- rectangle, ellipse, ring

QString DragShapeTool::name() const {
    switch (kind_) {
    case Kind::Rectangle: return tr("Rectangle");
    case Kind::Ellipse: return tr("Ellipse");
    case Kind::Ring: return tr("Ring");
    }
    return {};
}

Shape DragShapeTool::shapeFor(QPointF a, QPointF b) const {
    Shape s;
    switch (kind_) {
    case Kind::Rectangle:
        s.type = ShapeType::Rectangle;
        s.min = {std::min(a.x(), b.x()), std::min(a.y(), b.y())};
        s.max = {std::max(a.x(), b.x()), std::max(a.y(), b.y())};
        break;
    case Kind::Ellipse:
        s.type = ShapeType::Ellipse;
        s.center = v2((a + b) / 2);
        s.radii = {std::fabs(b.x() - a.x()) / 2, std::fabs(b.y() - a.y()) / 2};
        break;
    case Kind::Ring: {
        s.type = ShapeType::Ring;
        s.center = v2(a);
        s.outer_radius = std::hypot(b.x() - a.x(), b.y() - a.y());
        s.inner_radius = s.outer_radius * std::clamp(settings_->ringInnerRatio, 0.0, 0.99);
        break;
    }
    }
    return s;
}

void DragShapeTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    a_ = b_ = canvas_->snap(w);
    active_ = true;
}

void DragShapeTool::mouseMove(QMouseEvent*, QPointF w) {
    if (!active_) return;
    b_ = canvas_->snap(w);
    canvas_->update();
}

void DragShapeTool::mouseRelease(QMouseEvent* e, QPointF w) {
    if (!active_ || e->button() != Qt::LeftButton) return;
    b_ = canvas_->snap(w);
    active_ = false;
    canvas_->update();
    const Shape s = shapeFor(a_, b_);
    const bool degenerate = (kind_ == Kind::Ring) ? s.outer_radius <= 0
                                                  : (kind_ == Kind::Rectangle ? (s.max.x <= s.min.x || s.max.y <= s.min.y)
                                                                              : (s.radii.x <= 0 || s.radii.y <= 0));
    if (degenerate) return;
    const int layer = editableLayer();
    if (layer < 0) return;
    doc()->addShape(layer, s, tr("Draw %1").arg(name().toLower()));
}

void DragShapeTool::paintOverlay(QPainter& p) {
    if (!active_) return;
    const Shape s = shapeFor(a_, b_);
    const QPainterPath path = shape_painter_path(s, 0.5 / canvas_->pixelsPerUm());
    QTransform t;
    t.translate(canvas_->toScreen(QPointF(0, 0)).x(), canvas_->toScreen(QPointF(0, 0)).y());
    t.scale(canvas_->pixelsPerUm(), -canvas_->pixelsPerUm());
    p.setPen(QPen(kPreview, 1.5, Qt::DashLine));
    p.setBrush(QColor(255, 140, 0, 50));
    p.drawPath(t.map(path));
}

// ---------------------------------------------------------------- polygon, path

QString PointsTool::hint() const {
    const bool path = kind_ == Kind::Path;
    if (points_.empty())
        return path ? tr("Waveguide path: click to place the first point (width and bend radius in the tool options)")
                    : tr("Polygon: click to place the first corner");
    const size_t needed = path ? 2 : 3;
    if (points_.size() < needed)
        return path ? tr("Click the next point; Backspace removes the last one, Esc cancels")
                    : tr("%n corner(s) placed: click the next one; Backspace removes the last one, Esc cancels", "",
                         int(points_.size()));
    return path ? tr("%n point(s): click to go on; double-click, Enter or right-click finishes; Backspace removes the "
                     "last point, Esc cancels", "", int(points_.size()))
                : tr("%n corner(s): click to go on; double-click, Enter or right-click closes the polygon; Backspace "
                     "removes the last corner, Esc cancels", "", int(points_.size()));
}

void PointsTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() == Qt::RightButton) {
        finish();
        return;
    }
    if (e->button() != Qt::LeftButton) return;
    const QPointF p = canvas_->snap(w);
    if (!points_.empty() && points_.back() == p) return;
    points_.push_back(p);
    hover_ = p;
    canvas_->update();
    Q_EMIT hintChanged();
}

void PointsTool::mouseMove(QMouseEvent*, QPointF w) {
    hover_ = canvas_->snap(w);
    if (!points_.empty()) canvas_->update();
}

void PointsTool::mouseDoubleClick(QMouseEvent*, QPointF w) {
    const QPointF p = canvas_->snap(w);
    if (points_.empty() || points_.back() != p) points_.push_back(p);
    finish();
}

bool PointsTool::keyPress(QKeyEvent* e) {
    switch (e->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter: finish(); return true;
    case Qt::Key_Escape: cancel(); return true;
    case Qt::Key_Backspace:
        if (!points_.empty()) points_.pop_back();
        canvas_->update();
        Q_EMIT hintChanged();
        return true;
    default: return false;
    }
}

void PointsTool::cancel() {
    points_.clear();
    canvas_->update();
    Q_EMIT hintChanged();
}

void PointsTool::finish() {
    std::vector<QPointF> pts = std::move(points_);
    points_.clear();
    canvas_->update();
    Q_EMIT hintChanged();
    const size_t needed = kind_ == Kind::Polygon ? 3 : 2;
    if (pts.size() < needed) return;
    const int layer = editableLayer();
    if (layer < 0) return;
    Shape s;
    s.type = kind_ == Kind::Polygon ? ShapeType::Polygon : ShapeType::Path;
    for (const auto& p : pts) s.points.push_back(v2(p));
    if (kind_ == Kind::Path) {
        s.width = settings_->pathWidthUm;
        if (settings_->bendRadiusUm > 0 && pts.size() > 2) s.bend_radius = settings_->bendRadiusUm;
    }
    doc()->addShape(layer, s, kind_ == Kind::Polygon ? tr("Draw polygon") : tr("Draw waveguide path"));
}

void PointsTool::paintOverlay(QPainter& p) {
    if (points_.empty()) return;
    QPolygonF poly;
    for (const auto& q : points_) poly << canvas_->toScreen(q);
    poly << canvas_->toScreen(hover_);
    if (kind_ == Kind::Path) {
        QPen wide(QColor(255, 140, 0, 70), std::max(1.0, settings_->pathWidthUm * canvas_->pixelsPerUm()),
                  Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin);
        p.setPen(wide);
        p.drawPolyline(poly);
    }
    p.setPen(QPen(kPreview, 1.5, Qt::DashLine));
    p.setBrush(kind_ == Kind::Polygon ? QColor(255, 140, 0, 40) : QColor(Qt::transparent));
    if (kind_ == Kind::Polygon) p.drawPolygon(poly);
    else p.drawPolyline(poly);
    p.setBrush(kPreview);
    for (const auto& q : points_) p.drawEllipse(canvas_->toScreen(q), 3, 3);
}

// ---------------------------------------------------------------- brush, eraser

double BrushTool::dabProfile(double r, double R, double h) {
    h = std::clamp(h, 0.0, 1.0);
    if (r >= R) return 0;
    const double inner = h * R;
    if (r <= inner) return 1;
    const double t = (r - inner) / (R - inner);
    return 1 - t * t * (3 - 2 * t);
}

bool BrushTool::ensureRaster() {
    const int layer = editableLayer();
    if (layer < 0) return false;
    layer_ = layer;
    const Project& p = doc()->project();
    const auto& shapes = p.layers[size_t(layer)].shapes;
    for (int i = 0; i < int(shapes.size()); ++i) {
        if (shapes[size_t(i)].type == ShapeType::Raster && shapes[size_t(i)].width_px > 0 &&
            shapes[size_t(i)].height_px > 0) {
            shape_ = i;
            rasterShape_ = shapes[size_t(i)];
            createdRaster_ = false;
            return true;
        }
    }
    if (erase_) return false;  // nothing painted on this layer: nothing to erase
    // new raster over the domain, pixels a quarter of a cell (at most 8192 on a side)
    const double cell = p.domain.cell_size > 0 ? p.domain.cell_size : 0.02;
    double px = cell / 4;
    const double lx = std::max(p.domain.size[0], 1e-3), ly = std::max(p.domain.size[1], 1e-3);
    while (lx / px > 8192 || ly / px > 8192) px *= 2;
    Shape s;
    s.type = ShapeType::Raster;
    s.origin = {0, 0};
    s.pixel_size = px;
    s.width_px = int(std::ceil(lx / px - 1e-9));
    s.height_px = int(std::ceil(ly / px - 1e-9));
    rasterShape_ = s;
    shape_ = int(shapes.size());
    createdRaster_ = true;
    // paint into a raster held by the canvas cache under the index it will get
    return true;
}

void BrushTool::dab(QPointF w) {
    RasterImage* r = canvas_->pendingRaster(layer_, shape_);
    if (!r) return;
    const Shape& s = rasterShape_;
    const double px = (w.x() - s.origin.x) / s.pixel_size;
    const double py = (s.origin.y + s.height_px * s.pixel_size - w.y()) / s.pixel_size;
    const double R = settings_->brushSizeUm / 2 / s.pixel_size;
    const int x0 = std::max(0, int(std::floor(px - R))), x1 = std::min(s.width_px - 1, int(std::ceil(px + R)));
    const int y0 = std::max(0, int(std::floor(py - R))), y1 = std::min(s.height_px - 1, int(std::ceil(py + R)));
    if (x0 > x1 || y0 > y1) return;
    for (int y = y0; y <= y1; ++y) {
        uchar* row = r->coverage.scanLine(y);
        for (int x = x0; x <= x1; ++x) {
            const double c = dabProfile(std::hypot(x + 0.5 - px, y + 0.5 - py), R, settings_->brushHardness);
            if (c <= 0) continue;
            const int v = int(std::lround(c * 255));
            if (erase_) row[x] = uchar(std::min<int>(row[x], 255 - v));
            else row[x] = uchar(std::max<int>(row[x], v));
        }
    }
    const QRect pixRect(QPoint(x0, y0), QPoint(x1, y1));
    r->refreshDisplay(pixRect);
    dirty_ = dirty_.united(pixRect);
    // screen rectangle of the touched pixels
    const QPointF tl(s.origin.x + x0 * s.pixel_size, s.origin.y + (s.height_px - y0) * s.pixel_size);
    const QPointF br(s.origin.x + (x1 + 1) * s.pixel_size, s.origin.y + (s.height_px - y1 - 1) * s.pixel_size);
    canvas_->update(QRectF(canvas_->toScreen(tl), canvas_->toScreen(br)).normalized().toAlignedRect().adjusted(-2, -2, 2, 2));
}

void BrushTool::strokeTo(QPointF w) {
    const double spacing = std::max(settings_->brushSizeUm * 0.1, rasterShape_.pixel_size * 0.5);
    const QPointF d = w - last_;
    const double len = std::hypot(d.x(), d.y());
    const int n = int(std::floor(len / spacing));
    for (int i = 1; i <= n; ++i) dab(last_ + d * (i * spacing / len));
    if (n > 0) last_ = last_ + d * (n * spacing / len);
}

void BrushTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    // The Eraser takes coverage out of the layer's painted raster; it never cuts drawn
    // shapes (rectangles, paths...), whose geometry is exact. Say so where it would
    // otherwise seem to do nothing.
    bool onDrawnShape = false;
    if (erase_) {
        const ItemRef hit = canvas_->hitTest(w);
        const Project& p = doc()->project();
        onDrawnShape = hit.kind == ItemRef::Kind::Shape &&
                       p.layers[size_t(hit.layer)].shapes[size_t(hit.index)].type != ShapeType::Raster;
        if (onDrawnShape)
            Q_EMIT message(tr("The Eraser erases painted material only. To remove this drawn shape, select it "
                              "(Select tool, V) and press Delete."));
    }
    if (!ensureRaster()) {
        const int l = doc()->currentLayer();
        const Project& p = doc()->project();
        if (erase_ && !onDrawnShape && l >= 0 && l < int(p.layers.size()) && !p.layers[size_t(l)].locked &&
            p.layers[size_t(l)].visible)
            Q_EMIT message(tr("Nothing is painted on layer \"%1\": the Eraser erases Brush strokes. To remove a drawn "
                              "shape, select it (Select tool, V) and press Delete.")
                               .arg(QString::fromStdString(p.layers[size_t(l)].name)));
        return;
    }
    canvas_->beginRasterEdit(layer_, shape_, createdRaster_ ? &rasterShape_ : nullptr);
    painting_ = true;
    dirty_ = {};
    last_ = w;
    dab(w);
}

void BrushTool::mouseMove(QMouseEvent*, QPointF w) {
    const QPointF oldHover = hover_;
    hover_ = w;
    hoverValid_ = true;
    const double rPx = settings_->brushSizeUm / 2 * canvas_->pixelsPerUm() + 3;
    for (QPointF c : {oldHover, w}) {
        const QPointF s = canvas_->toScreen(c);
        canvas_->update(QRectF(s - QPointF(rPx, rPx), s + QPointF(rPx, rPx)).toAlignedRect());
    }
    if (painting_) strokeTo(w);
}

void BrushTool::mouseRelease(QMouseEvent* e, QPointF w) {
    if (!painting_ || e->button() != Qt::LeftButton) return;
    strokeTo(w);
    dab(w);
    painting_ = false;
    if (dirty_.isEmpty()) {
        canvas_->endRasterEdit(false);
        return;
    }
    RasterImage* r = canvas_->pendingRaster(layer_, shape_);
    Image8 img;
    img.width = r->coverage.width();
    img.height = r->coverage.height();
    img.channels = 1;
    img.pixels.resize(size_t(img.width) * size_t(img.height));
    for (int y = 0; y < img.height; ++y)
        std::copy_n(r->coverage.constScanLine(y), img.width, img.pixels.data() + size_t(y) * size_t(img.width));
    rasterShape_.png_base64 = base64_encode(encode_png(img));
    r->png_base64 = rasterShape_.png_base64;  // the cache already shows this data
    canvas_->endRasterEdit(true);
    const Shape s = rasterShape_;
    const int index = shape_;
    const bool created = createdRaster_;
    doc()->editLayer(layer_, erase_ ? tr("Erase") : tr("Paint"), [&](Layer& l) {
        if (created) l.shapes.push_back(s);
        else if (index < int(l.shapes.size())) l.shapes[size_t(index)] = s;
    });
}

void BrushTool::cancel() {
    if (painting_) canvas_->endRasterEdit(false);
    painting_ = false;
}

void BrushTool::paintOverlay(QPainter& p) {
    if (!hoverValid_) return;
    const QPointF c = canvas_->toScreen(hover_);
    const double R = settings_->brushSizeUm / 2 * canvas_->pixelsPerUm();
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0, 0, 0, 160), 1));
    p.drawEllipse(c, R, R);
    if (settings_->brushHardness < 1) {
        p.setPen(QPen(QColor(0, 0, 0, 90), 1, Qt::DotLine));
        p.drawEllipse(c, R * settings_->brushHardness, R * settings_->brushHardness);
    }
}

// ---------------------------------------------------------------- sources, monitors

void SourceTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    a_ = b_ = canvas_->snap(w);
    active_ = true;
}

void SourceTool::mouseMove(QMouseEvent*, QPointF w) {
    if (!active_) return;
    b_ = canvas_->snap(w);
    canvas_->update();
}

void SourceTool::mouseRelease(QMouseEvent* e, QPointF w) {
    if (!active_ || e->button() != Qt::LeftButton) return;
    active_ = false;
    b_ = canvas_->snap(w);
    canvas_->update();
    Source s;
    s.type = type_;
    s.name = doc()->uniqueItemName(type_ == SourceType::Point  ? QStringLiteral("point")
                                   : type_ == SourceType::Line ? QStringLiteral("line")
                                                               : QStringLiteral("region"))
                 .toStdString();
    if (type_ == SourceType::Point) {
        s.at = v2(a_);
    } else if (type_ == SourceType::Region) {
        if (a_.x() == b_.x() || a_.y() == b_.y()) return;
        Shape r;
        r.type = ShapeType::Rectangle;
        r.min = {std::min(a_.x(), b_.x()), std::min(a_.y(), b_.y())};
        r.max = {std::max(a_.x(), b_.x()), std::max(a_.y(), b_.y())};
        s.shape = r;
    } else {
        if (a_ == b_) return;
        s.from = v2(a_);
        s.to = v2(b_);
        const bool vertical = std::fabs(b_.x() - a_.x()) < std::fabs(b_.y() - a_.y());
        s.direction = vertical ? "+x" : "+y";
    }
    doc()->addSource(s);
}

void SourceTool::paintOverlay(QPainter& p) {
    if (!active_ || type_ == SourceType::Point) return;
    p.setPen(QPen(kPreview, type_ == SourceType::Line ? 3 : 1.5, Qt::DashLine));
    if (type_ == SourceType::Line) p.drawLine(canvas_->toScreen(a_), canvas_->toScreen(b_));
    else p.drawRect(QRectF(canvas_->toScreen(a_), canvas_->toScreen(b_)).normalized());
}

void MonitorTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    a_ = b_ = canvas_->snap(w);
    active_ = true;
}

void MonitorTool::mouseMove(QMouseEvent*, QPointF w) {
    if (!active_) return;
    b_ = canvas_->snap(w);
    canvas_->update();
}

void MonitorTool::mouseRelease(QMouseEvent* e, QPointF w) {
    if (!active_ || e->button() != Qt::LeftButton) return;
    active_ = false;
    b_ = canvas_->snap(w);
    canvas_->update();
    Monitor m;
    m.type = type_;
    if (type_ == MonitorType::Time) {
        m.name = doc()->uniqueItemName(QStringLiteral("probe")).toStdString();
        m.at = v2(a_);
    } else if (type_ == MonitorType::DftField) {
        if (a_.x() == b_.x() || a_.y() == b_.y()) return;
        m.name = doc()->uniqueItemName(QStringLiteral("field")).toStdString();
        m.min = Vec2{std::min(a_.x(), b_.x()), std::min(a_.y(), b_.y())};
        m.max = Vec2{std::max(a_.x(), b_.x()), std::max(a_.y(), b_.y())};
        const auto& sp = doc()->project().run.spectrum;
        m.wavelengths = {0.5 * (sp.wavelength_min + sp.wavelength_max)};
        m.components = {doc()->project().domain.polarization == Polarization::TMz ? Component::Ez : Component::Hz};
    } else {
        if (a_ == b_) return;
        m.name = doc()->uniqueItemName(mode_ ? QStringLiteral("mode") : QStringLiteral("flux")).toStdString();
        const bool vertical = std::fabs(b_.x() - a_.x()) < std::fabs(b_.y() - a_.y());
        m.from = v2(a_);
        m.to = v2(b_);
        if (mode_) {
            // a mode line lies along an axis (its cross-section): the drag's dominant one
            if (vertical) m.to.x = m.from.x;
            else m.to.y = m.from.y;
            if (m.from == m.to) return;
        }
        m.direction = vertical ? "+x" : "+y";
        m.kind = mode_ ? "mode" : "transmission";
        if (mode_) m.extra["modes"] = std::vector<int>{0};
    }
    doc()->addMonitor(m);
}

void MonitorTool::paintOverlay(QPainter& p) {
    if (!active_ || type_ == MonitorType::Time) return;
    p.setPen(QPen(kPreview, type_ == MonitorType::Flux ? 2.5 : 1.5, Qt::DashLine));
    if (type_ == MonitorType::Flux) p.drawLine(canvas_->toScreen(a_), canvas_->toScreen(b_));
    else p.drawRect(QRectF(canvas_->toScreen(a_), canvas_->toScreen(b_)).normalized());
}

}  // namespace golightly::editor
