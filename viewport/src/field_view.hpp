// GoLightly viewport: the live field view. A widget whose drawing surface is a
// QOpenGLWidget (a plain raster widget where the platform has no OpenGL, e.g. the
// offscreen platform of the tests); it draws, in the editor's
// world coordinates (um, y up), the structure's permittivity, the latest field frame with
// the diverging colour map (symmetric scale, auto or fixed) blended over it, the PML
// boundary, sources and monitors, and a colour bar. Frames come from a FrameSource polled
// at a chosen rate (latest frame wins).
#pragma once

#include <QImage>
#include <QWidget>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

#include "frame_source.hpp"
#include "golightly/gl_interop.hpp"
#include "golightly/project.hpp"

namespace golightly::viewport {

/// The structure under the field: eps_r per cell as an image (row 0 = top) and its world
/// rectangle (um), from the compiled scene.
struct StructureImage {
    QImage image;
    QRectF worldRect;       ///< whole grid, PML included
    QRectF interiorRect;    ///< the domain without the PML band
    double epsMax = 1;
};
/// Builds the structure image of a compiled scene (TMz: eps at Ez; TEz: mean of Ex, Ey).
/// 3D scenes: the plane `slice` (mean eps of the Ex, Ey, Ez maps), axes as FieldFrame's
/// (frame_source.hpp slice_axes).
StructureImage make_structure_image(const Scene& scene, const FrameSlice& slice = {});

class FieldView : public QWidget {
    Q_OBJECT
public:
    explicit FieldView(QWidget* parent = nullptr);
    ~FieldView() override;

    /// The frames to show; polled at framesPerSecond() while set (nullptr: none).
    void setFrameSource(FrameSource* source);
    void setFramesPerSecond(double fps);
    double framesPerSecond() const { return fps_; }
    /// Project whose sources and monitors are outlined.
    void setProject(const Project& project);
    void setStructure(const StructureImage& structure);
    /// Shows a frame now (also what the poll does with a new frame).
    void showFrame(std::shared_ptr<const FieldFrame> frame);
    std::shared_ptr<const FieldFrame> currentFrame() const { return frame_; }
    /// Frames shown since the last clearFrames().
    int framesShown() const { return framesShown_; }
    void clearFrames();
    /// Forgets the frames, the structure and the project (another project was opened):
    /// the view shows "No field yet" and fits the next structure.
    void reset();
    /// Names the phase the frames come from ("reference run", "main run"), shown above the field.
    void setPhaseLabel(const QString& label);
    QString phaseLabel() const { return phaseLabel_; }

    /// Width of the strip at the right edge that holds the colour bar (px): the field and
    /// the structure are never drawn under it.
    static constexpr int kBarStrip = 96;
    /// Editing in the field view (live edit): when set and it returns true for a mouse
    /// press (left button), that press and its moves and release go to it instead of
    /// panning. `type` is QEvent::MouseButtonPress/MouseMove/MouseButtonRelease.
    std::function<bool(QMouseEvent* event, QPointF worldUm)> editHandler;
    /// Colour scale: auto (max |value| of each frame) or a fixed half range.
    void setAutoScale(bool on);
    void setFixedScale(double halfRange);
    bool autoScale() const { return autoScale_; }
    /// The half range in use for the current frame.
    double scale() const;

    // ---- view transform, the same as the editor canvas (Canvas::setView)
    void setView(double pixelsPerUm, QPointF centerUm);
    double pixelsPerUm() const { return scale_; }
    QPointF viewCenter() const { return center_; }
    QPointF toWorld(QPointF screen) const;
    QPointF toScreen(QPointF world) const;
    void zoomToFit();

    /// Renders what the widget shows into an image (tests, screenshots; no GL needed).
    QImage renderToImage(QSize size);
    /// Draws the view into `p` (the surfaces call it).
    void paintScene(QPainter& p, QSize size);
    /// True when the drawing surface is a QOpenGLWidget.
    bool usesOpenGL() const { return openGL_; }

    // ---- CUDA-OpenGL interop (gl_interop.hpp, frame_source.hpp)
    /// The exchange through which a CUDA engine can hand frames to this view without a
    /// host copy; null unless the view's OpenGL context runs on a CUDA device (decided when
    /// the GL surface initializes) and interop has not failed since.
    std::shared_ptr<CudaGlFrameExchange> interopExchange() const { return interop_; }
    /// Why interop is or is not in use (for the status bar and the log).
    QString interopStatus() const { return interopStatus_; }
    /// The colour scale the solver should colour device frames with (0: auto).
    double requestedScale() const { return autoScale_ ? 0.0 : fixedScale_; }
    /// Frames shown through the interop path since the last clearFrames().
    int interopFramesShown() const { return interopFramesShown_; }
    /// Internal (the GL surface): sets the exchange and the status; a null exchange after a
    /// failure turns interop off for this view.
    void setInterop(std::shared_ptr<CudaGlFrameExchange> exchange, const QString& status);
    /// Internal (the GL surface): draws on_device frames in the current native GL context.
    std::function<void(QPainter&, const QRectF&)> deviceFramePainter;
    void countInteropFrame() { ++interopFramesShown_; }

Q_SIGNALS:
    /// The user zoomed or panned (so the canvas can follow).
    void viewChanged(double pixelsPerUm, QPointF centerUm);
    void cursorMoved(QPointF worldUm);
    void frameShown(qint64 step, double timeFs);

protected:
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;

private:
    void poll();
    void refresh();
    void rebuildFieldImage();
    QTransform worldToScreen(QSize size) const;

    QWidget* surface_ = nullptr;
    bool openGL_ = false;
    FrameSource* source_ = nullptr;
    std::uint64_t serial_ = 0;
    QTimer pollTimer_;
    double fps_ = 30;
    std::optional<Project> project_;
    StructureImage structure_;
    std::shared_ptr<const FieldFrame> frame_;
    QImage fieldImage_;
    int framesShown_ = 0;
    int interopFramesShown_ = 0;
    std::shared_ptr<CudaGlFrameExchange> interop_;
    QString interopStatus_;
    bool autoScale_ = true;
    double fixedScale_ = 1;
    double scale_ = 50;
    QPointF center_{2, 2};
    bool fitted_ = false;
    bool panning_ = false;
    bool editing_ = false;
    QPoint lastPan_;
    QString phaseLabel_;
};

}  // namespace golightly::viewport
