#include "canvas.hpp"
#include "design_region.hpp"
#include "dimensions.hpp"
#include "ports.hpp"

#include <QContextMenuEvent>
#include <QDragEnterEvent>
#include <QMenu>
#include <QDropEvent>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <functional>
#include <mutex>

#include "golightly/compile.hpp"
#include "golightly/geometry.hpp"
#include "golightly/image_io.hpp"
#include "golightly/step_import.hpp"
#include "tools.hpp"

namespace golightly::editor {

namespace {
const QColor kSourceColor(220, 40, 40);
const QColor kFluxColor(30, 110, 230);
const QColor kTimeColor(20, 160, 60);
const QColor kSelectColor(255, 140, 0);
const QColor kPortColor(0, 140, 150);

QPointF qp(const Vec2& v) { return {v.x, v.y}; }

/// Arrow head at `tip` pointing along `dir` (screen coordinates).
void draw_arrow(QPainter& p, QPointF from, QPointF tip, const QColor& c) {
    p.setPen(QPen(c, 2));
    p.drawLine(from, tip);
    const QPointF d = tip - from;
    const double len = std::hypot(d.x(), d.y());
    if (len < 1e-9) return;
    const QPointF u = d / len, n(-u.y(), u.x());
    QPolygonF head;
    head << tip << tip - 9 * u + 5 * n << tip - 9 * u - 5 * n;
    p.setBrush(c);
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
}

QPointF direction_vector(const std::string& dir) {
    if (dir == "-x") return {-1, 0};
    if (dir == "+y") return {0, 1};
    if (dir == "-y") return {0, -1};
    return {1, 0};
}

}  // namespace

/// A point dipole of `component` at screen point `c` (the xy editor's view, y up): Ex / Hx an
/// arrow along +x, Ey / Hy along +y (up), Ez / Hz out of the screen (a circled dot, the
/// arrow's tip seen head-on). Electric dipoles have a filled head and a solid shaft, magnetic
/// ones an open head and a dashed shaft; a small disc marks the position.
void draw_dipole(QPainter& p, QPointF c, Component component, const QColor& colour) {
    p.save();
    const int axis = int(component) % 3;
    const bool magnetic = int(component) >= 3;
    const QColor fill(colour.red(), colour.green(), colour.blue(), 70);
    if (axis == 2) {
        p.setPen(QPen(colour, 2, magnetic ? Qt::DashLine : Qt::SolidLine));
        p.setBrush(fill);
        p.drawEllipse(c, 7, 7);
        p.setPen(Qt::NoPen);
        p.setBrush(magnetic ? QBrush(Qt::white) : QBrush(colour));
        p.drawEllipse(c, 2.6, 2.6);
        if (magnetic) {
            p.setPen(QPen(colour, 1.2));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(c, 2.6, 2.6);
        }
    } else {
        const QPointF u = axis == 0 ? QPointF(1, 0) : QPointF(0, -1), n(-u.y(), u.x());
        const QPointF tail = c - 11 * u, tip = c + 11 * u;
        p.setPen(QPen(colour, 2, magnetic ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap));
        p.drawLine(tail, tip - 6 * u);
        QPolygonF head;
        head << tip << tip - 8 * u + 4.5 * n << tip - 8 * u - 4.5 * n;
        p.setPen(QPen(colour, 1.5));
        p.setBrush(magnetic ? QBrush(Qt::white) : QBrush(colour));
        p.drawPolygon(head);
        p.setPen(Qt::NoPen);
        p.setBrush(colour);
        p.drawEllipse(c, 2.2, 2.2);
    }
    p.restore();
}

namespace {

void draw_label(QPainter& p, QPointF at, const QString& text, const QColor& c, bool below = false) {
    QFont f = p.font();
    f.setPointSizeF(8.5);
    f.setBold(true);
    p.setFont(f);
    const QRectF r = p.fontMetrics().boundingRect(text).adjusted(-3, -1, 3, 1);
    const QRectF box(at + QPointF(6, below ? 4 : -r.height() - 4), r.size());
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(255, 255, 255, 210));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(c);
    p.drawText(box, Qt::AlignCenter, text);
    p.setBrush(Qt::NoBrush);
}
}  // namespace

// ---------------------------------------------------------------- helpers

QString step_file_from_urls(const QList<QUrl>& urls) {
    for (const QUrl& u : urls) {
        if (!u.isLocalFile()) continue;
        const QString suffix = QFileInfo(u.toLocalFile()).suffix().toLower();
        if (suffix == QLatin1String("step") || suffix == QLatin1String("stp")) return u.toLocalFile();
    }
    return {};
}

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

void RasterImage::refreshDisplay(const QRect& rect) {
    const QRect r = rect.intersected(coverage.rect());
    const int cr = qRed(color), cg = qGreen(color), cb = qBlue(color);
    for (int y = r.top(); y <= r.bottom(); ++y) {
        const uchar* src = coverage.constScanLine(y);
        auto* dst = reinterpret_cast<QRgb*>(display.scanLine(y));
        for (int x = r.left(); x <= r.right(); ++x) {
            const int a = src[x] * 200 / 255;  // same translucency as vector shapes
            dst[x] = qRgba(cr * a / 255, cg * a / 255, cb * a / 255, a);
        }
    }
}

// ---------------------------------------------------------------- canvas

Canvas::Canvas(EditorDocument* document, QWidget* parent) : QWidget(parent), doc_(document) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 150);
    setAcceptDrops(true);
    connect(doc_, &EditorDocument::changed, this, qOverload<>(&QWidget::update));
    connect(doc_, &EditorDocument::selectionChanged, this, qOverload<>(&QWidget::update));
    connect(doc_, &EditorDocument::filePathChanged, this, [this] { zoomToFit(); });
}

Canvas::~Canvas() = default;

void Canvas::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls() && !step_file_from_urls(e->mimeData()->urls()).isEmpty()) e->acceptProposedAction();
}

void Canvas::contextMenuEvent(QContextMenuEvent* e) {
    const ItemRef hit = hitTest(toWorld(QPointF(e->pos())));
    const Project& pr = doc_->project();
    if (hit.kind != ItemRef::Kind::Shape || pr.layers[size_t(hit.layer)].shapes[size_t(hit.index)].type != ShapeType::Step)
        return;
    doc_->setSelection(hit);
    QMenu menu(this);
    QAction* reimport = menu.addAction(tr("Re-import STEP..."));
    QAction* remove = menu.addAction(tr("Delete"));
    QAction* chosen = menu.exec(e->globalPos());
    if (chosen == reimport) Q_EMIT reimportStepRequested(hit);
    else if (chosen == remove) doc_->removeItem(hit);
}

void Canvas::dropEvent(QDropEvent* e) {
    const QString path = e->mimeData()->hasUrls() ? step_file_from_urls(e->mimeData()->urls()) : QString();
    if (path.isEmpty()) return;
    e->acceptProposedAction();
    Q_EMIT stepFileDropped(path);
}

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

void Canvas::setTool(Tool* tool) {
    if (tool_ == tool) return;
    if (tool_) tool_->deactivate();
    tool_ = tool;
    if (tool_) {
        tool_->activate();
        setCursor(tool_->cursor());
    } else {
        unsetCursor();
    }
    update();
}

void Canvas::setPreviewOffset(QPointF offset) {
    previewOffset_ = offset;
    update();
}

RasterImage* Canvas::rasterImage(int layer, int index) {
    const auto& layers = doc_->project().layers;
    if (layer < 0 || layer >= int(layers.size())) return nullptr;
    const auto& shapes = layers[size_t(layer)].shapes;
    if (index < 0 || index >= int(shapes.size()) || shapes[size_t(index)].type != ShapeType::Raster) return nullptr;
    const Shape& s = shapes[size_t(index)];
    RasterImage& r = rasters_[{layer, index}];
    const QRgb color = material_color(doc_->project(), layers[size_t(layer)].material).rgb();
    const bool sizeOk = r.coverage.width() == s.width_px && r.coverage.height() == s.height_px;
    if (!sizeOk || r.png_base64 != s.png_base64) {
        r.png_base64 = s.png_base64;
        r.coverage = QImage(std::max(s.width_px, 1), std::max(s.height_px, 1), QImage::Format_Grayscale8);
        r.coverage.fill(0);
        try {
            if (!s.png_base64.empty()) {
                const Image8 img = decode_png_gray(base64_decode(s.png_base64));
                if (img.width == s.width_px && img.height == s.height_px)
                    for (int y = 0; y < img.height; ++y)
                        std::copy_n(img.pixels.data() + size_t(y) * size_t(img.width), img.width, r.coverage.scanLine(y));
            }
        } catch (const std::exception&) {
            // unreadable raster data: shown empty; the file keeps it as it was
        }
        r.display = QImage(r.coverage.size(), QImage::Format_ARGB32_Premultiplied);
        r.color = color;
        r.refreshDisplay(r.coverage.rect());
    } else if (r.color != color) {
        r.color = color;
        r.refreshDisplay(r.coverage.rect());
    }
    return &r;
}

void Canvas::beginRasterEdit(int layer, int index, const Shape* newShape) {
    PendingRaster pr;
    pr.layer = layer;
    pr.index = index;
    if (newShape) {
        pr.isNew = true;
        pr.shape = *newShape;
        pr.image.coverage = QImage(newShape->width_px, newShape->height_px, QImage::Format_Grayscale8);
        pr.image.coverage.fill(0);
        pr.image.display = QImage(pr.image.coverage.size(), QImage::Format_ARGB32_Premultiplied);
        pr.image.display.fill(0);
        pr.image.color = material_color(doc_->project(), doc_->project().layers[size_t(layer)].material).rgb();
    }
    pending_ = std::move(pr);
}

RasterImage* Canvas::pendingRaster(int layer, int index) {
    if (pending_ && pending_->isNew && pending_->layer == layer && pending_->index == index) return &pending_->image;
    return rasterImage(layer, index);
}

void Canvas::endRasterEdit(bool commit) {
    if (!pending_) return;
    if (pending_->isNew) {
        if (commit) rasters_[{pending_->layer, pending_->index}] = std::move(pending_->image);
    } else if (!commit) {
        auto it = rasters_.find({pending_->layer, pending_->index});
        if (it != rasters_.end()) it->second.png_base64 = "\x01stale";
    }
    pending_.reset();
    update();
}

void Canvas::setStructurePreview(bool on) {
    preview_ = on;
    if (on) updatePreview();
    update();
}

void Canvas::updatePreview() {
    const Project& pr = doc_->project();
    if (previewOf_ && *previewOf_ == pr) return;
    previewOf_ = pr;
    previewImage_ = QImage();
    previewEps_.clear();
    previewError_.clear();
    try {
        const CompiledProject cp = compile_project(pr, doc_->displayName().toStdString());
        const Scene& sc = cp.scene;
        const int nx = sc.nx, ny = sc.ny;
        previewNx_ = nx;
        previewNy_ = ny;
        double epsMax = 1.0;
        previewEps_ = permittivity_picture(sc, &epsMax);
        previewImage_ = QImage(nx, ny, QImage::Format_RGB32);
        const QColor lo(255, 255, 255), hi(25, 45, 110);
        for (int j = 0; j < ny; ++j) {
            auto* row = reinterpret_cast<QRgb*>(previewImage_.scanLine(ny - 1 - j));  // row 0 = top
            const bool pmlY = j < sc.pml_lo[1] || j >= ny - sc.pml_hi[1];
            for (int i = 0; i < nx; ++i) {
                const double t = epsMax > 1 ? std::clamp((previewEps_[size_t(j) * nx + i] - 1) / (epsMax - 1), 0.0, 1.0) : 0;
                int r = int(lo.red() + t * (hi.red() - lo.red())), g = int(lo.green() + t * (hi.green() - lo.green())),
                    b = int(lo.blue() + t * (hi.blue() - lo.blue()));
                if (pmlY || i < sc.pml_lo[0] || i >= nx - sc.pml_hi[0]) {  // PML: tinted
                    r = r * 3 / 4 + 255 / 4 * 1;
                    g = g * 3 / 4 + 140 / 4;
                    b = b * 3 / 4;
                }
                row[i] = qRgb(r, g, b);
            }
        }
        // Ez sample (i, j) sits at ((i - pml_lo) dx, (j - pml_lo) dx); its cell spans +-dx/2
        const double dx = sc.dx_um;
        previewRect_ = QRectF((-sc.pml_lo[0] - 0.5) * dx, (-sc.pml_lo[1] - 0.5) * dx, nx * dx, ny * dx);
        Q_EMIT statusMessage(tr("Structure preview: %1 x %2 cells, eps_r up to %3").arg(nx).arg(ny).arg(epsMax, 0, 'g', 4));
    } catch (const std::exception& e) {
        previewError_ = QString::fromStdString(e.what());
        Q_EMIT statusMessage(tr("Structure preview unavailable: %1").arg(previewError_));
    }
}

double Canvas::previewEpsAt(QPointF w) {
    if (!preview_) return std::nan("");
    updatePreview();
    if (previewEps_.empty()) return std::nan("");
    const double dx = previewRect_.width() / previewNx_;
    const int i = int(std::floor((w.x() - previewRect_.left()) / dx));
    const int j = int(std::floor((w.y() - previewRect_.top()) / dx));
    if (i < 0 || j < 0 || i >= previewNx_ || j >= previewNy_) return std::nan("");
    return previewEps_[size_t(j) * size_t(previewNx_) + size_t(i)];
}

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

void Canvas::drawSourcesMonitors(QPainter& p, const QTransform& w2d, double s) {
    const Project& pr = doc_->project();
    const ItemRef sel = doc_->selection();
    p.save();
    p.setTransform(QTransform());
    auto offsetFor = [&](ItemRef::Kind k, int i) {
        return (sel.kind == k && sel.index == i) ? previewOffset_ : QPointF();
    };
    for (int i = 0; i < int(pr.sources.size()); ++i) {
        const Source& src = pr.sources[size_t(i)];
        const QPointF off = offsetFor(ItemRef::Kind::Source, i);
        auto m = [&](const Vec2& v) { return w2d.map(qp(v) + off); };
        QString name = QString::fromStdString(src.name);
        QPointF labelAt;
        bool labelBelow = false;
        if (src.type == SourceType::Point) {
            const QPointF c = m(src.at);
            draw_dipole(p, c, src.component, kSourceColor);
            labelAt = c + QPointF(8, -6);
            name += QStringLiteral(" (%1)").arg(QLatin1String(component_name(src.component)));
        } else if (src.type == SourceType::Line) {
            const QPointF a = m(src.from), b = m(src.to);
            p.setPen(QPen(kSourceColor, 3, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(a, b);
            if (src.profile == SourceProfile::Mode) {  // one-way source: arrow along its direction
                const QPointF mid = (a + b) / 2, dv = direction_vector(src.direction);
                draw_arrow(p, mid, mid + QPointF(dv.x(), -dv.y()) * 26, kSourceColor);
            }
            labelAt = a.y() > b.y() ? a : b;
            labelBelow = true;
        } else if (src.type == SourceType::Plane) {  // 3D: the footprint, z extent in the inspector
            Vec2 fa, fb;
            if (plane_footprint(src.center, src.size, fa, fb)) {
                const QPointF a = m(fa), b = m(fb);
                p.setPen(QPen(kSourceColor, 3, Qt::SolidLine, Qt::RoundCap));
                p.drawLine(a, b);
                labelAt = a.y() > b.y() ? a : b;
                labelBelow = true;
            } else {
                const QRectF r = QRectF(m(fa), m(fb)).normalized();
                p.setPen(QPen(kSourceColor, 2));
                p.setBrush(QBrush(kSourceColor, Qt::Dense6Pattern));
                p.drawRect(r);
                labelAt = r.topLeft();
            }
            const std::string dir = one_way_direction(src);
            if (!dir.empty() && dir[1] != 'z') {
                const QPointF mid = (m(fa) + m(fb)) / 2, dv = direction_vector(dir);
                draw_arrow(p, mid, mid + QPointF(dv.x(), -dv.y()) * 26, kSourceColor);
            }
        } else if (src.type == SourceType::Tfsf) {
            const QRectF r = QRectF(m({src.box_min.x, src.box_min.y}), m({src.box_max.x, src.box_max.y})).normalized();
            p.setPen(QPen(kSourceColor, 2, Qt::DashDotLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r);
            if (src.direction.size() == 2 && src.direction[1] != 'z') {
                const QPointF dv = direction_vector(src.direction);
                draw_arrow(p, r.center(), r.center() + QPointF(dv.x(), -dv.y()) * 26, kSourceColor);
            }
            labelAt = r.topLeft();
        } else if (src.type == SourceType::Region && src.shape) {
            const QPainterPath path = (QTransform::fromTranslate(off.x(), off.y()) * w2d).map(shape_painter_path(*src.shape, 0.4 / s));
            p.setPen(QPen(kSourceColor, 1.5));
            p.setBrush(QBrush(kSourceColor, Qt::Dense5Pattern));
            p.drawPath(path);
            labelAt = path.boundingRect().topLeft();
        }
        draw_label(p, labelAt, name, kSourceColor, labelBelow);
    }
    for (int i = 0; i < int(pr.monitors.size()); ++i) {
        const Monitor& mon = pr.monitors[size_t(i)];
        const QPointF off = offsetFor(ItemRef::Kind::Monitor, i);
        auto m = [&](const Vec2& v) { return w2d.map(qp(v) + off); };
        const QString name = QString::fromStdString(mon.name);
        QPointF labelAt;
        QColor c = mon.type == MonitorType::Time       ? kTimeColor
                   : mon.type == MonitorType::DftField ? QColor(150, 60, 200)
                                                       : kFluxColor;
        Vec2 flA = mon.from, flB = mon.to;
        const bool xyPlane = mon.type == MonitorType::Flux && mon.size != Vec3{} && !plane_footprint(mon.center, mon.size, flA, flB);
        if (xyPlane) {  // a flux plane normal to z: its rectangle
            const QRectF r = QRectF(m(flA), m(flB)).normalized();
            p.setPen(QPen(c, 2.5, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r);
            labelAt = r.topLeft();
        } else if (mon.type == MonitorType::Flux) {
            const QPointF a = m(flA), b = m(flB);
            p.setPen(QPen(c, 2.5, Qt::DashLine, Qt::FlatCap));
            p.drawLine(a, b);
            const QPointF mid = (a + b) / 2, dv = direction_vector(mon.direction);
            draw_arrow(p, mid, mid + QPointF(dv.x(), -dv.y()) * 22, c);
            labelAt = a.y() < b.y() ? a : b;
        } else if (mon.type == MonitorType::Time && mon.at) {
            const QPointF a = m(*mon.at);
            QPolygonF diamond;
            diamond << a + QPointF(0, -7) << a + QPointF(7, 0) << a + QPointF(0, 7) << a + QPointF(-7, 0);
            p.setPen(QPen(c.darker(130), 1.5));
            p.setBrush(c);
            p.drawPolygon(diamond);
            labelAt = a;
        } else if (mon.type == MonitorType::Time && mon.shape) {
            const QPainterPath path =
                (QTransform::fromTranslate(off.x(), off.y()) * w2d).map(shape_painter_path(*mon.shape, 0.4 / s));
            p.setPen(QPen(c, 1.5));
            p.setBrush(QBrush(c, Qt::Dense6Pattern));
            p.drawPath(path);
            labelAt = path.boundingRect().topLeft();
        } else if (mon.min && mon.max) {
            const QRectF r = QRectF(m(*mon.min), m(*mon.max)).normalized();
            p.setPen(QPen(c, 2, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r);
            labelAt = r.topLeft() + QPointF(0, 14);
        }
        p.setBrush(Qt::NoBrush);
        draw_label(p, labelAt, name, c);
    }
    // ports: a line (2D, or a 3D plane normal to x or y) or the footprint rectangle (a 3D
    // plane normal to z), an arrow along the direction (into the device), the name
    for (int i = 0; i < port_count(pr); ++i) {
        const auto d = port_at(pr, i);
        if (!d) continue;
        const QPointF off = offsetFor(ItemRef::Kind::Port, i);
        auto m = [&](const Vec2& v) { return w2d.map(qp(v) + off); };
        Vec2 fa, fb;
        QPointF labelAt;
        if (port_footprint(*d, fa, fb)) {
            const QPointF a = m(fa), b = m(fb);
            p.setPen(QPen(kPortColor, 3.5, Qt::SolidLine, Qt::FlatCap));
            p.drawLine(a, b);
            p.setPen(QPen(kPortColor, 1.5));  // end ticks: a port, not a flux line
            const QPointF t = b - a;
            const double len = std::hypot(t.x(), t.y());
            if (len > 1e-9) {
                const QPointF n = QPointF(-t.y(), t.x()) / len * 6;
                p.drawLine(a - n, a + n);
                p.drawLine(b - n, b + n);
            }
            labelAt = a.y() < b.y() ? a : b;
        } else {
            const QRectF r = QRectF(m(fa), m(fb)).normalized();
            p.setPen(QPen(kPortColor, 2.5));
            p.setBrush(QBrush(kPortColor, Qt::BDiagPattern));
            p.drawRect(r);
            p.setBrush(Qt::NoBrush);
            labelAt = r.topLeft();
        }
        if (d->direction.size() == 2 && d->direction[1] != 'z') {
            const QPointF mid = (m(fa) + m(fb)) / 2, dv = direction_vector(d->direction);
            draw_arrow(p, mid, mid + QPointF(dv.x(), -dv.y()) * 24, kPortColor);
        }
        draw_label(p, labelAt, tr("port %1").arg(QString::fromStdString(d->name)), kPortColor);
    }
    p.restore();
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

void Canvas::resizeEvent(QResizeEvent*) {
    if (!fittedOnce_ && width() > 0) zoomToFit();
}

void Canvas::mousePressEvent(QMouseEvent* e) {
    setFocus(Qt::MouseFocusReason);
    if (e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && spaceDown_)) {
        panning_ = true;
        lastPan_ = e->position().toPoint();
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    if (tool_) tool_->mousePress(e, toWorld(e->position()));
}

void Canvas::mouseMoveEvent(QMouseEvent* e) {
    if (panning_) {
        const QPoint d = e->position().toPoint() - lastPan_;
        lastPan_ = e->position().toPoint();
        center_ -= QPointF(d.x() / scale_, -d.y() / scale_);
        update();
        Q_EMIT viewChanged();
        return;
    }
    const QPointF w = toWorld(e->position());
    // repaint the old and new cursor marks on the rulers
    if (std::isfinite(lastCursor_.x())) {
        const QPointF o = toScreen(lastCursor_);
        update(QRect(int(o.x()) - 1, 0, 3, 19));
        update(QRect(0, int(o.y()) - 1, 19, 3));
    }
    lastCursor_ = w;
    update(QRect(int(e->position().x()) - 1, 0, 3, 19));
    update(QRect(0, int(e->position().y()) - 1, 19, 3));
    Q_EMIT cursorMoved(w);
    if (tool_) tool_->mouseMove(e, w);
}

void Canvas::mouseReleaseEvent(QMouseEvent* e) {
    if (panning_ && (e->button() == Qt::MiddleButton || e->button() == Qt::LeftButton)) {
        panning_ = false;
        setCursor(spaceDown_ ? QCursor(Qt::OpenHandCursor) : (tool_ ? tool_->cursor() : QCursor()));
        return;
    }
    if (tool_) tool_->mouseRelease(e, toWorld(e->position()));
}

void Canvas::mouseDoubleClickEvent(QMouseEvent* e) {
    if (tool_ && e->button() == Qt::LeftButton) tool_->mouseDoubleClick(e, toWorld(e->position()));
}

void Canvas::wheelEvent(QWheelEvent* e) {
    const double steps = e->angleDelta().y() / 120.0;
    if (steps != 0) zoomBy(std::pow(1.25, steps), e->position());
    e->accept();
}

void Canvas::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Space && !e->isAutoRepeat()) {
        spaceDown_ = true;
        setCursor(Qt::OpenHandCursor);
        return;
    }
    if (tool_ && tool_->keyPress(e)) return;
    QWidget::keyPressEvent(e);
}

void Canvas::keyReleaseEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Space && !e->isAutoRepeat()) {
        spaceDown_ = false;
        setCursor(tool_ ? tool_->cursor() : QCursor());
        return;
    }
    QWidget::keyReleaseEvent(e);
}

}  // namespace golightly::editor
