#include "field_view.hpp"

#include <QLocale>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLBuffer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLTextureBlitter>
#include <QOpenGLWidget>
#include <QVBoxLayout>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "golightly/colormap.hpp"

namespace golightly {
namespace {
/// A number as the IDE shows it (plots/src/ui_number.hpp, which this library does not see):
/// the default locale's decimal separator, never a group separator.
QString ui_number(double value, char format, int precision) {
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
    return locale.toString(value, format, precision);
}
}  // namespace
}  // namespace golightly

namespace golightly::viewport {

namespace {
/// The 3D structure picture: mean eps_r of the three E maps on the slice plane.
StructureImage structure_image_3d(const Scene& sc, const FrameSlice& slice) {
    StructureImage s;
    const auto [ax, ay] = slice_axes(slice.normal_axis);
    const int n[3] = {sc.nx, sc.ny, sc.nz};
    const int W = n[ax], H = n[ay], na = std::clamp(slice.normal_axis, 0, 2);
    const std::int64_t k0 = std::clamp<std::int64_t>(slice.index, 0, n[na] - 1);
    std::vector<double> eps(std::size_t(W) * std::size_t(H), 1.0);
    double epsMax = 1.0;
    for (int r = 0; r < H; ++r)
        for (int c = 0; c < W; ++c) {
            std::int64_t ijk[3];
            ijk[ax] = c;
            ijk[ay] = r;
            ijk[na] = k0;
            const std::size_t flat = std::size_t((ijk[2] * sc.ny + ijk[1]) * sc.nx + ijk[0]);
            double e = 0;
            int used = 0;
            for (int m = 0; m < 3; ++m)
                if (flat < sc.material_index[m].size()) {
                    e += sc.table[sc.material_index[m][flat]].eps_r;
                    ++used;
                }
            e = used ? e / used : 1.0;
            eps[std::size_t(r) * W + c] = e;
            epsMax = std::max(epsMax, e);
        }
    s.epsMax = epsMax;
    s.image = QImage(W, H, QImage::Format_RGB32);
    for (int r = 0; r < H; ++r) {
        auto* row = reinterpret_cast<QRgb*>(s.image.scanLine(H - 1 - r));
        for (int c = 0; c < W; ++c) {
            const double t = epsMax > 1 ? std::clamp((eps[std::size_t(r) * W + c] - 1) / (epsMax - 1), 0.0, 1.0) : 0;
            const int g = int(235 - 150 * t);
            row[c] = qRgb(g, g, g + int(10 * t));
        }
    }
    const double dx = sc.dx_um;
    s.worldRect = QRectF((-sc.pml_lo[ax] - 0.5) * dx, (-sc.pml_lo[ay] - 0.5) * dx, W * dx, H * dx);
    s.interiorRect = QRectF(-0.5 * dx, -0.5 * dx, (W - sc.pml_lo[ax] - sc.pml_hi[ax]) * dx,
                            (H - sc.pml_lo[ay] - sc.pml_hi[ay]) * dx);
    return s;
}
}  // namespace

StructureImage make_structure_image(const Scene& sc, const FrameSlice& slice) {
    if (sc.dimensions == 3) return structure_image_3d(sc, slice);
    StructureImage s;
    const int nx = sc.nx, ny = sc.ny;
    double epsMax = 1.0;
    const std::vector<double> eps = permittivity_picture(sc, &epsMax);
    s.epsMax = epsMax;
    s.image = QImage(nx, ny, QImage::Format_RGB32);
    for (int j = 0; j < ny; ++j) {
        auto* row = reinterpret_cast<QRgb*>(s.image.scanLine(ny - 1 - j));
        for (int i = 0; i < nx; ++i) {
            const double t = epsMax > 1 ? std::clamp((eps[std::size_t(j) * nx + i] - 1) / (epsMax - 1), 0.0, 1.0) : 0;
            // white (air) .. dark grey (highest eps): the field's colours stay readable on top
            const int g = int(235 - 150 * t);
            row[i] = qRgb(g, g, g + int(10 * t));
        }
    }
    const double dx = sc.dx_um;
    s.worldRect = QRectF((-sc.pml_lo[0] - 0.5) * dx, (-sc.pml_lo[1] - 0.5) * dx, nx * dx, ny * dx);
    s.interiorRect = QRectF(-0.5 * dx, -0.5 * dx, (nx - sc.pml_lo[0] - sc.pml_hi[0]) * dx,
                            (ny - sc.pml_lo[1] - sc.pml_hi[1]) * dx);
    return s;
}

namespace {
/// GL surface: QPainter on a QOpenGLWidget uses the OpenGL paint engine, which uploads the
/// frame image as a texture (the host upload path). When the context runs on a CUDA device
/// (CUDA-OpenGL interop, gl_interop.hpp) it also owns the pixel buffer object and texture
/// that device frames (FieldFrame::on_device) are copied into and blits them, between the
/// structure and the outlines, with QOpenGLTextureBlitter.
class GlSurface : public QOpenGLWidget {
public:
    explicit GlSurface(FieldView* view) : QOpenGLWidget(view), view_(view) {}
    ~GlSurface() override {
        if (!initialized_) return;
        makeCurrent();
        if (auto ex = view_->interopExchange()) {
            try { ex->unregister_gl_buffer(); } catch (const std::exception&) {}
        }
        view_->setInterop(nullptr, view_->interopStatus());
        if (texture_) context()->functions()->glDeleteTextures(1, &texture_);
        if (pbo_.isCreated()) pbo_.destroy();
        if (blitter_.isCreated()) blitter_.destroy();
        doneCurrent();
    }

protected:
    void initializeGL() override {
        initialized_ = true;
        if (!cuda_gl_interop_compiled()) {
            view_->setInterop(nullptr, FieldView::tr("host frame upload (this build has no CUDA-OpenGL interop)"));
            return;
        }
        std::string why;
        if (!cuda_gl_context_on_cuda_device(&why)) {
            view_->setInterop(nullptr, FieldView::tr("host frame upload (%1)").arg(QString::fromStdString(why)));
            return;
        }
        try {
            auto ex = std::make_shared<CudaGlFrameExchange>();
            view_->setInterop(std::move(ex), FieldView::tr("CUDA-OpenGL interop (%1)").arg(QString::fromStdString(why)));
            view_->deviceFramePainter = [this](QPainter& p, const QRectF& target) { drawDeviceFrame(p, target); };
        } catch (const std::exception& e) {
            view_->setInterop(nullptr, FieldView::tr("host frame upload (%1)").arg(QString::fromUtf8(e.what())));
        }
    }
    void paintGL() override {
        QPainter p(this);
        view_->paintScene(p, size());
    }

private:
    // Copies the newest device frame into the PBO and the texture (GPU to GPU), then draws
    // the texture into `target` (widget pixels) with straight-alpha blending.
    void drawDeviceFrame(QPainter& p, const QRectF& target) {
        auto ex = view_->interopExchange();
        if (!ex) return;
        p.beginNativePainting();
        QOpenGLFunctions* f = context()->functions();
        try {
            if (!pbo_.isCreated()) {
                pbo_ = QOpenGLBuffer(QOpenGLBuffer::PixelUnpackBuffer);
                pbo_.setUsagePattern(QOpenGLBuffer::StreamDraw);
                pbo_.create();
            }
            int w = 0, h = 0;
            pbo_.bind();
            bool copied = ex->copy_to_gl_buffer(pbo_.bufferId(), std::size_t(std::max(0, pbo_.size())), w, h, serial_);
            if (!copied && w > 0 && h > 0 && std::size_t(std::max(0, pbo_.size())) < std::size_t(w) * h * 4) {
                pbo_.allocate(w * h * 4);  // grow, then copy again
                copied = ex->copy_to_gl_buffer(pbo_.bufferId(), std::size_t(pbo_.size()), w, h, serial_);
            }
            if (copied) {
                if (!texture_) {
                    f->glGenTextures(1, &texture_);
                    f->glBindTexture(GL_TEXTURE_2D, texture_);
                    f->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
                    f->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
                    f->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
                    f->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
                }
                f->glBindTexture(GL_TEXTURE_2D, texture_);
                f->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
                if (w != texW_ || h != texH_) {
                    f->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
                    texW_ = w, texH_ = h;
                }
                // source = the bound pixel unpack buffer: stays on the GPU
                f->glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
                view_->countInteropFrame();
            }
            pbo_.release();
            if (texture_) {
                if (!blitter_.isCreated()) blitter_.create();
                const qreal dpr = devicePixelRatioF();
                const QRect viewport(0, 0, int(width() * dpr), int(height() * dpr));
                const QRect dst = QRectF(target.x() * dpr, target.y() * dpr, target.width() * dpr, target.height() * dpr)
                                      .toAlignedRect();
                f->glViewport(0, 0, viewport.width(), viewport.height());
                f->glEnable(GL_BLEND);
                f->glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
                blitter_.bind();
                blitter_.blit(texture_, QOpenGLTextureBlitter::targetTransform(dst, viewport),
                              QOpenGLTextureBlitter::OriginTopLeft);
                blitter_.release();
            }
        } catch (const std::exception& e) {
            // interop failed (driver, context moved to another GPU): the solver goes back to
            // host frames (the exchange is off), the view drops it after this paint
            ex->set_enabled(false);
            qWarning("GoLightly viewport: CUDA-OpenGL interop failed, using host frames: %s", e.what());
            const QString status = FieldView::tr("host frame upload (interop failed: %1)").arg(QString::fromUtf8(e.what()));
            QPointer<FieldView> view(view_);
            QMetaObject::invokeMethod(view_, [view, status] { if (view) view->setInterop(nullptr, status); },
                                      Qt::QueuedConnection);
        }
        p.endNativePainting();
    }

    FieldView* view_;
    bool initialized_ = false;
    QOpenGLBuffer pbo_;
    QOpenGLTextureBlitter blitter_;
    GLuint texture_ = 0;
    int texW_ = 0, texH_ = 0;
    std::uint64_t serial_ = 0;
};

class RasterSurface : public QWidget {
public:
    explicit RasterSurface(FieldView* view) : QWidget(view), view_(view) { setAttribute(Qt::WA_OpaquePaintEvent); }
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        view_->paintScene(p, size());
    }

private:
    FieldView* view_;
};

bool openGLUsable() {
    const QString platform = QGuiApplication::platformName();
    if (platform == QStringLiteral("offscreen") || platform == QStringLiteral("minimal") || qEnvironmentVariableIsSet("GOLIGHTLY_NO_GL"))
        return false;
    QOpenGLContext ctx;
    if (!ctx.create()) return false;
    QOffscreenSurface surface;
    surface.create();
    const bool ok = ctx.makeCurrent(&surface);
    if (ok) ctx.doneCurrent();
    return ok;
}
}  // namespace

FieldView::FieldView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("FieldView"));
    openGL_ = openGLUsable();
    surface_ = openGL_ ? static_cast<QWidget*>(new GlSurface(this)) : static_cast<QWidget*>(new RasterSurface(this));
    surface_->setMouseTracking(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(surface_);
    setMouseTracking(true);
    setMinimumSize(200, 150);
    connect(&pollTimer_, &QTimer::timeout, this, &FieldView::poll);
    setFramesPerSecond(30);
}

FieldView::~FieldView() {
    // The GL child's destructor releases the CUDA-OpenGL interop through this view
    // (interopExchange, setInterop): delete it while this view's members are alive, not in
    // ~QWidget after them (a double free when a window with a GL field view closed).
    QWidget* surface = surface_;
    surface_ = nullptr;
    delete surface;
}

void FieldView::setFrameSource(FrameSource* source) {
    source_ = source;
    serial_ = 0;
    if (source_) pollTimer_.start();
    else pollTimer_.stop();
}

void FieldView::setFramesPerSecond(double fps) {
    fps_ = std::clamp(fps, 0.5, 120.0);
    pollTimer_.setInterval(int(std::lround(1000.0 / fps_)));
}

void FieldView::setProject(const Project& project) {
    project_ = project;
    refresh();
}

void FieldView::setStructure(const StructureImage& structure) {
    // another plane of a 3D grid (another world rectangle): fit it again
    const bool otherRect = !structure_.worldRect.isEmpty() && structure.worldRect != structure_.worldRect;
    structure_ = structure;
    if ((!fitted_ || otherRect) && !structure_.worldRect.isEmpty()) zoomToFit();
    refresh();
}

void FieldView::poll() {
    if (!source_) return;
    if (auto f = source_->takeLatest(serial_)) showFrame(std::move(f));
}

void FieldView::showFrame(std::shared_ptr<const FieldFrame> frame) {
    frame_ = std::move(frame);
    ++framesShown_;
    rebuildFieldImage();
    refresh();
    if (frame_) Q_EMIT frameShown(frame_->step, frame_->time_fs);
}

void FieldView::setInterop(std::shared_ptr<CudaGlFrameExchange> exchange, const QString& status) {
    interop_ = std::move(exchange);
    interopStatus_ = status;
    if (!interop_) deviceFramePainter = nullptr;
}

void FieldView::clearFrames() {
    frame_.reset();
    fieldImage_ = QImage();
    framesShown_ = 0;
    interopFramesShown_ = 0;
    serial_ = 0;
    refresh();
}

void FieldView::reset() {
    clearFrames();
    structure_ = StructureImage();
    project_.reset();
    phaseLabel_.clear();
    fitted_ = false;
    refresh();
}

void FieldView::setPhaseLabel(const QString& label) {
    if (label == phaseLabel_) return;
    phaseLabel_ = label;
    refresh();
}

void FieldView::setAutoScale(bool on) {
    autoScale_ = on;
    rebuildFieldImage();
    refresh();
}

void FieldView::setFixedScale(double halfRange) {
    fixedScale_ = halfRange > 0 ? halfRange : 1;
    rebuildFieldImage();
    refresh();
}

double FieldView::scale() const {
    if (!autoScale_) return fixedScale_;
    return frame_ && frame_->max_abs > 0 ? double(frame_->max_abs) : 1.0;
}

void FieldView::rebuildFieldImage() {
    if (!frame_ || frame_->width <= 0 || frame_->height <= 0 || frame_->on_device) {
        fieldImage_ = QImage();
        return;
    }
    const FieldFrame& f = *frame_;
    const float inv = float(1.0 / scale());
    fieldImage_ = QImage(f.width, f.height, QImage::Format_ARGB32_Premultiplied);
    for (int j = 0; j < f.height; ++j) {
        auto* row = reinterpret_cast<QRgb*>(fieldImage_.scanLine(f.height - 1 - j));
        const float* v = f.values.data() + std::size_t(j) * std::size_t(f.width);
        for (int i = 0; i < f.width; ++i) {
            // |E|^2 uses the upper (white..red) half of the diverging map
            const float t = f.signed_values ? v[i] * inv : std::min(1.f, v[i] * inv);
            std::uint8_t r, g, b;
            diverging_rgb(t, r, g, b);
            // weak field shows the structure through it
            row[i] = qPremultiply(qRgba(r, g, b, viewport_alpha_byte(t)));  // colormap.hpp
        }
    }
}

// ---------------------------------------------------------------- view transform

void FieldView::setView(double pixelsPerUm, QPointF centerUm) {
    if (!(pixelsPerUm > 0)) return;
    fitted_ = true;
    scale_ = std::clamp(pixelsPerUm, 1e-3, 1e6);
    center_ = centerUm;
    refresh();
}

QTransform FieldView::worldToScreen(QSize size) const {
    QTransform t;
    t.translate(size.width() / 2.0, size.height() / 2.0);
    t.scale(scale_, -scale_);
    t.translate(-center_.x(), -center_.y());
    return t;
}

QPointF FieldView::toWorld(QPointF s) const { return worldToScreen(size()).inverted().map(s); }
QPointF FieldView::toScreen(QPointF w) const { return worldToScreen(size()).map(w); }

void FieldView::zoomToFit() {
    QRectF r = structure_.worldRect;
    if (r.isEmpty() && project_) r = QRectF(0, 0, project_->domain.size[0], project_->domain.size[1]);
    if (r.isEmpty()) return;
    const double margin = 36;  // the colour bar has its own strip (kBarStrip) at the right
    const double s = std::min((width() - 2 * margin - kBarStrip) / r.width(), (height() - 2 * margin) / r.height());
    scale_ = std::max(1e-3, s);
    center_ = r.center() + QPointF(kBarStrip / 2.0 / scale_, 0);
    fitted_ = true;
    refresh();
    Q_EMIT viewChanged(scale_, center_);
}

void FieldView::wheelEvent(QWheelEvent* e) {
    const double factor = std::pow(1.0015, e->angleDelta().y());
    const QPointF anchor = e->position();
    const QPointF before = toWorld(anchor);
    scale_ = std::clamp(scale_ * factor, 1e-3, 1e6);
    const QPointF after = toWorld(anchor);
    center_ += before - after;
    refresh();
    Q_EMIT viewChanged(scale_, center_);
}

void FieldView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton && editHandler && editHandler(e, toWorld(e->position()))) {
        editing_ = true;  // live edit: the press paints; middle button still pans
        return;
    }
    panning_ = true;
    lastPan_ = e->position().toPoint();
}

void FieldView::mouseMoveEvent(QMouseEvent* e) {
    Q_EMIT cursorMoved(toWorld(e->position()));
    if (editing_ || (!panning_ && editHandler)) {
        if (editHandler) editHandler(e, toWorld(e->position()));
        return;
    }
    if (!panning_) return;
    const QPoint d = e->position().toPoint() - lastPan_;
    lastPan_ = e->position().toPoint();
    center_ -= QPointF(d.x() / scale_, -d.y() / scale_);
    refresh();
    Q_EMIT viewChanged(scale_, center_);
}

void FieldView::mouseReleaseEvent(QMouseEvent* e) {
    if (editing_) {
        editing_ = false;
        if (editHandler) editHandler(e, toWorld(e->position()));
        return;
    }
    panning_ = false;
}

// ---------------------------------------------------------------- painting

void FieldView::refresh() {
    if (surface_) surface_->update();
}

QImage FieldView::renderToImage(QSize size) {
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&img);
    paintScene(p, size);
    return img;
}

namespace {
/// Draws the part of `image` (covering world rectangle `world`) that falls inside `clip`
/// (screen): only the visible source pixels are scaled, so that a deep zoom never asks the
/// paint engine for a target millions of pixels wide.
void draw_clipped(QPainter& p, const QTransform& w2s, const QRectF& world, const QImage& image, const QRectF& clip) {
    if (image.isNull() || world.isEmpty()) return;
    const QRectF target = w2s.mapRect(world);
    const QRectF visible = target.intersected(clip);
    if (visible.isEmpty()) return;
    const double sx = image.width() / target.width(), sy = image.height() / target.height();
    QRectF source((visible.left() - target.left()) * sx, (visible.top() - target.top()) * sy, visible.width() * sx,
                  visible.height() * sy);
    // whole source pixels, and the target grown to match, so that cells stay registered
    const QRect src = source.toAlignedRect().intersected(image.rect());
    const QRectF tgt(target.left() + src.left() / sx, target.top() + src.top() / sy, src.width() / sx, src.height() / sy);
    p.drawImage(tgt, image, src);
}

/// Text with a dark outline: readable over any field colour.
void outlined_text(QPainter& p, QPointF at, const QString& text, const QColor& color) {
    p.setPen(QColor(0, 0, 0, 200));
    for (const QPointF d : {QPointF(-1, 0), QPointF(1, 0), QPointF(0, -1), QPointF(0, 1)}) p.drawText(at + d, text);
    p.setPen(color);
    p.drawText(at, text);
}
}  // namespace

void FieldView::paintScene(QPainter& p, QSize size) {
    p.fillRect(QRect(QPoint(0, 0), size), QColor(60, 63, 68));
    if (!fitted_ && !structure_.worldRect.isEmpty()) zoomToFit();
    const QTransform w2s = worldToScreen(size);
    // the domain is drawn left of the colour-bar strip, never under it
    const QRectF domainClip(0, 0, std::max(0, size.width() - kBarStrip), size.height());
    p.save();
    p.setClipRect(domainClip);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    draw_clipped(p, w2s, structure_.worldRect, structure_.image, domainClip);
    if (frame_ && frame_->on_device && deviceFramePainter) {
        const QRectF wr(frame_->x0_um, frame_->y0_um, frame_->width_um, frame_->height_um);
        deviceFramePainter(p, w2s.mapRect(wr));
    } else if (!fieldImage_.isNull() && frame_) {
        const QRectF wr(frame_->x0_um, frame_->y0_um, frame_->width_um, frame_->height_um);
        p.setRenderHint(QPainter::SmoothPixmapTransform, true);
        draw_clipped(p, w2s, wr, fieldImage_, domainClip);
    }
    // PML boundary
    if (!structure_.interiorRect.isEmpty()) {
        p.setPen(QPen(QColor(150, 90, 20), 1.5, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(w2s.mapRect(structure_.interiorRect).intersected(domainClip.adjusted(-4, -4, 4, 4)));
        p.setPen(QPen(QColor(90, 90, 90), 1));
        p.drawRect(w2s.mapRect(structure_.worldRect).intersected(domainClip.adjusted(-4, -4, 4, 4)));
    }
    // overlay text: a fixed pixel size whatever the zoom, outlined for contrast
    QFont font = p.font();
    font.setPixelSize(12);
    p.setFont(font);
    // sources and monitors
    if (project_ && project_->domain.dimensions == 3) {
        // 3D: every source and monitor as its box (a plane: a line or a rectangle; a point:
        // a dot) projected on the slice's in-plane axes (frame_source.hpp slice_axes)
        const auto [ax, ay] = slice_axes(frame_ ? frame_->slice_normal : 2);
        auto pt = [&](double x, double y, double z) {
            const double v[3] = {x, y, z};
            return QPointF(v[ax], v[ay]);
        };
        auto boxRect = [&](Vec3 lo, Vec3 hi) { return QRectF(pt(lo.x, lo.y, lo.z), pt(hi.x, hi.y, hi.z)).normalized(); };
        auto drawBox = [&](const QRectF& world, const QString& name, QColor c, Qt::PenStyle style) {
            p.setPen(QPen(c, 2, style));
            p.setBrush(Qt::NoBrush);
            // (a plane seen edge-on is a line: a zero-width rectangle, which intersected()
            // would drop, so clamp its corners instead)
            const QRectF box = domainClip.adjusted(-1e4, -1e4, 1e4, 1e4);
            const QRectF m = w2s.mapRect(world);
            auto clampPt = [&](QPointF q) {
                return QPointF(std::clamp(q.x(), box.left(), box.right()), std::clamp(q.y(), box.top(), box.bottom()));
            };
            const QRectF r(clampPt(m.topLeft()), clampPt(m.bottomRight()));
            if (r.width() < 1 || r.height() < 1) p.drawLine(r.topLeft(), r.bottomRight());
            else p.drawRect(r);
            outlined_text(p, r.topRight() + QPointF(4, -4), name, c);
        };
        auto drawPoint = [&](QPointF world, const QString& name, QColor c, bool cross) {
            p.setPen(QPen(c, 2.5));
            p.setBrush(Qt::NoBrush);
            const QPointF q = w2s.map(world);
            if (cross) {
                p.drawLine(q - QPointF(5, 5), q + QPointF(5, 5));
                p.drawLine(q - QPointF(5, -5), q + QPointF(5, -5));
            } else {
                p.drawEllipse(q, 4, 4);
            }
            outlined_text(p, q + QPointF(4, -4), name, c);
        };
        const QColor srcColor(255, 150, 40), monColor(60, 220, 110);
        for (const Source& s : project_->sources) {
            const QString name = QString::fromStdString(s.name);
            if (s.type == SourceType::Point)
                drawPoint(pt(s.at.x, s.at.y, s.at_z.value_or(0)), name + QStringLiteral(" (") + QString::fromStdString(golightly::to_string(s.component)) + QStringLiteral(")"), srcColor, false);
            else if (s.type == SourceType::Plane)
                drawBox(boxRect({s.center.x - s.size.x / 2, s.center.y - s.size.y / 2, s.center.z - s.size.z / 2},
                                {s.center.x + s.size.x / 2, s.center.y + s.size.y / 2, s.center.z + s.size.z / 2}),
                        name, srcColor, Qt::SolidLine);
            else if (s.type == SourceType::Tfsf)
                drawBox(boxRect(s.box_min, s.box_max), name, srcColor, Qt::DashLine);
        }
        for (const Monitor& m : project_->monitors) {
            const QString name = QString::fromStdString(m.name);
            if (m.type == MonitorType::Flux)
                drawBox(boxRect({m.center.x - m.size.x / 2, m.center.y - m.size.y / 2, m.center.z - m.size.z / 2},
                                {m.center.x + m.size.x / 2, m.center.y + m.size.y / 2, m.center.z + m.size.z / 2}),
                        name, monColor, Qt::SolidLine);
            else if ((m.type == MonitorType::FluxBox || m.type == MonitorType::DftField) && m.min && m.max)
                drawBox(boxRect({m.min->x, m.min->y, m.min_z.value_or(0)}, {m.max->x, m.max->y, m.max_z.value_or(0)}), name,
                        monColor, m.type == MonitorType::FluxBox ? Qt::SolidLine : Qt::DotLine);
            else if (m.type == MonitorType::Time && m.at)
                drawPoint(pt(m.at->x, m.at->y, m.at_z.value_or(0)), name, monColor, true);
        }
    } else if (project_) {
        auto label = [&](QPointF at, const QString& text, QColor c) { outlined_text(p, at + QPointF(4, -4), text, c); };
        const QColor srcColor(255, 150, 40), monColor(60, 220, 110);
        auto clampLine = [&](QPointF& a, QPointF& b) {
            // keep far-off end points within reach of the paint engine at deep zoom
            const QRectF box = domainClip.adjusted(-1e4, -1e4, 1e4, 1e4);
            auto c = [&](QPointF& q) { q = QPointF(std::clamp(q.x(), box.left(), box.right()), std::clamp(q.y(), box.top(), box.bottom())); };
            c(a);
            c(b);
        };
        for (const Source& s : project_->sources) {
            p.setPen(QPen(srcColor, 2.5));
            if (s.type == SourceType::Point) {
                const QPointF c = w2s.map(QPointF(s.at.x, s.at.y));
                p.drawEllipse(c, 4, 4);
                label(c, QString::fromStdString(s.name), srcColor);
            } else if (s.type == SourceType::Line || s.type == SourceType::Plane) {
                QPointF a = w2s.map(QPointF(s.from.x, s.from.y)), b = w2s.map(QPointF(s.to.x, s.to.y));
                clampLine(a, b);
                p.drawLine(a, b);
                label(a.y() > b.y() ? a + QPointF(0, 14) : b + QPointF(0, 14), QString::fromStdString(s.name), srcColor);
            }
        }
        for (const Monitor& m : project_->monitors) {
            p.setPen(QPen(monColor, 2));
            p.setBrush(Qt::NoBrush);
            if (m.type == MonitorType::Flux) {
                QPointF a = w2s.map(QPointF(m.from.x, m.from.y)), b = w2s.map(QPointF(m.to.x, m.to.y));
                clampLine(a, b);
                p.drawLine(a, b);
                label(b, QString::fromStdString(m.name), monColor);
            } else if ((m.type == MonitorType::FluxBox || m.type == MonitorType::DftField) && m.min && m.max) {
                const QRectF r = w2s.mapRect(QRectF(QPointF(m.min->x, m.min->y), QPointF(m.max->x, m.max->y)).normalized())
                                     .intersected(domainClip.adjusted(-1e4, -1e4, 1e4, 1e4));
                p.drawRect(r);
                label(r.topRight(), QString::fromStdString(m.name), monColor);
            } else if (m.type == MonitorType::Time && m.at) {
                const QPointF c = w2s.map(QPointF(m.at->x, m.at->y));
                p.drawLine(c - QPointF(5, 5), c + QPointF(5, 5));
                p.drawLine(c - QPointF(5, -5), c + QPointF(5, -5));
                label(c, QString::fromStdString(m.name), monColor);
            }
        }
    }
    p.restore();
    p.setFont(font);

    // colour bar in its own strip at the right edge
    const QRect strip(size.width() - kBarStrip, 0, kBarStrip, size.height());
    p.fillRect(strip, QColor(38, 40, 44));
    p.setPen(QColor(80, 82, 88));
    p.drawLine(strip.topLeft(), strip.bottomLeft());
    const int barW = 16, barH = std::max(60, size.height() - 90);
    const QRect bar(strip.left() + 14, 44, barW, barH);
    const bool signedValues = !frame_ || frame_->signed_values;
    for (int y = 0; y < barH; ++y) {
        const float t = 1.f - float(y) / float(barH - 1);  // 1 at the top
        const float v = signedValues ? 2.f * t - 1.f : t;
        std::uint8_t r, g, b;
        diverging_rgb(v, r, g, b);
        p.setPen(QColor(r, g, b));
        p.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    p.setPen(QColor(230, 230, 230));
    p.setBrush(Qt::NoBrush);
    p.drawRect(bar);
    const double s = scale();
    p.drawText(QPointF(bar.right() + 5, bar.top() + 9), golightly::ui_number(s, 'g', 3));
    p.drawText(QPointF(bar.right() + 5, bar.center().y() + 5), signedValues ? QStringLiteral("0") : golightly::ui_number(s / 2, 'g', 3));
    p.drawText(QPointF(bar.right() + 5, bar.bottom()), signedValues ? golightly::ui_number(-s, 'g', 3) : QStringLiteral("0"));
    const QString qname = frame_ ? QString::fromStdString(to_string(frame_->quantity)) : QString();
    p.drawText(QRect(strip.left() + 4, 8, kBarStrip - 8, 30), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               tr("%1 %2").arg(qname, autoScale_ ? tr("(auto)") : tr("(fixed)")).trimmed());
    // time stamp (and the phase) on a dark plate at the top left
    QString text;
    if (frame_) {
        text = tr("%1   t = %2 fs   step %3").arg(qname).arg(golightly::ui_number(frame_->time_fs, 'f', 1)).arg(frame_->step);
        if (frame_->three_d) {
            static const char* planes[3] = {"yz", "xz", "xy"};
            text += tr("   slice %1 at %2 = %3 µm")
                        .arg(QLatin1String(planes[std::clamp(frame_->slice_normal, 0, 2)]))
                        .arg(QChar("xyz"[std::clamp(frame_->slice_normal, 0, 2)]))
                        .arg(golightly::ui_number(frame_->slice_position_um, 'f', 3));
        }
        if (!phaseLabel_.isEmpty()) text = phaseLabel_ + QStringLiteral(":   ") + text;
    } else {
        text = phaseLabel_.isEmpty() ? tr("No field yet: Run (F5) to start the simulation")
                                     : tr("%1: waiting for the first field...").arg(phaseLabel_);
    }
    const QRect plate = p.fontMetrics().boundingRect(text).adjusted(-8, -5, 8, 5).translated(14, 22);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(20, 22, 26, 215));
    p.drawRoundedRect(plate, 4, 4);
    p.setPen(QColor(245, 245, 245));
    p.drawText(QPointF(14, 22), text);
}

}  // namespace golightly::viewport
