// GoLightly editor: canvas tools, one class per tool. A tool receives the canvas's mouse
// and key events in world coordinates (um) and turns a finished gesture into one
// EditorDocument edit (one undo step).
#pragma once

#include <QCursor>
#include <QObject>
#include <QPointF>
#include <QRect>

#include <memory>
#include <vector>

#include "editor_document.hpp"

class QMouseEvent;
class QKeyEvent;
class QPainter;

namespace golightly::editor {

class Canvas;

/// Options shared by the tools (shown in the tool-options bar).
struct ToolSettings {
    double pathWidthUm = 0.5;
    double bendRadiusUm = 2.0;  ///< 0 = sharp corners
    double ringInnerRatio = 0.7;
    double brushSizeUm = 1.0;   ///< brush diameter
    double brushHardness = 0.7; ///< 1 = hard edge; 0 = coverage falls off from the centre
};

class Tool : public QObject {
    Q_OBJECT
public:
    Tool(Canvas* canvas, ToolSettings* settings) : canvas_(canvas), settings_(settings) {}
    virtual QString name() const = 0;
    virtual void activate() {}
    virtual void deactivate() { cancel(); }
    virtual void mousePress(QMouseEvent*, QPointF) {}
    virtual void mouseMove(QMouseEvent*, QPointF) {}
    virtual void mouseRelease(QMouseEvent*, QPointF) {}
    virtual void mouseDoubleClick(QMouseEvent*, QPointF) {}
    /// Returns true when the key was used.
    virtual bool keyPress(QKeyEvent*) { return false; }
    /// Draws the gesture preview in screen coordinates.
    virtual void paintOverlay(QPainter&) {}
    virtual void cancel() {}
    virtual QCursor cursor() const { return QCursor(Qt::CrossCursor); }
    /// How to use the tool now (shown in the status bar while it is active).
    virtual QString hint() const { return {}; }

Q_SIGNALS:
    /// A message for the status bar (e.g. "the current layer is locked").
    void message(const QString& text);
    /// hint() changed (e.g. a path got a point).
    void hintChanged();

protected:
    EditorDocument* doc() const;
    /// The current layer when it can take a new shape; -1 (and a message) otherwise.
    int editableLayer();
    Canvas* canvas_;
    ToolSettings* settings_;
};

/// Select and move (drag; arrow keys move by one grid step). Dragging a corner handle of a
/// selected shape resizes it about the opposite corner; Shift+drag on a handle rotates it
/// about its centre (15-degree steps while snapping). A step (STEP import) shape's handles
/// always rotate it (about z, through rotate_deg[2] and translate).
class SelectTool : public Tool {
    Q_OBJECT
public:
    using Tool::Tool;
    QString name() const override { return tr("Select"); }
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseRelease(QMouseEvent*, QPointF) override;
    bool keyPress(QKeyEvent*) override;
    void cancel() override;
    void paintOverlay(QPainter&) override;
    QCursor cursor() const override { return QCursor(Qt::ArrowCursor); }
    QString hint() const override {
        return tr("Click to select; drag to move; drag a corner handle to resize, Shift+drag it to rotate; Del deletes, Ctrl+D duplicates");
    }

private:
    enum class Mode { None, Move, Resize, Rotate };
    /// The shape as the current resize / rotate gesture would leave it.
    Shape transformedShape() const;
    /// The rotation (degrees, CCW) of the current rotate gesture.
    double rotationDeg() const;
    Mode mode_ = Mode::None;
    QPointF start_;
    QPointF offset_;
    QPointF anchor_, corner_, current_;
    Shape original_;
};

/// Rectangle, ellipse (bounding box corner to corner) and ring (centre, then outer radius;
/// inner radius = ringInnerRatio * outer) drawn by dragging.
class DragShapeTool : public Tool {
    Q_OBJECT
public:
    enum class Kind { Rectangle, Ellipse, Ring };
    DragShapeTool(Canvas* c, ToolSettings* s, Kind kind) : Tool(c, s), kind_(kind) {}
    QString name() const override;
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseRelease(QMouseEvent*, QPointF) override;
    void paintOverlay(QPainter&) override;
    void cancel() override { active_ = false; }
    QString hint() const override { return tr("Drag from corner to corner to draw; the current layer's material fills it"); }
    /// The shape for a drag from a to b (um).
    Shape shapeFor(QPointF a, QPointF b) const;

private:
    Kind kind_;
    bool active_ = false;
    QPointF a_, b_;
};

/// Polygon and waveguide path: click points; double-click or Enter finishes, Backspace
/// removes the last point, Escape cancels. Paths take width and bend radius from settings.
class PointsTool : public Tool {
    Q_OBJECT
public:
    enum class Kind { Polygon, Path };
    PointsTool(Canvas* c, ToolSettings* s, Kind kind) : Tool(c, s), kind_(kind) {}
    QString name() const override { return kind_ == Kind::Polygon ? tr("Polygon") : tr("Waveguide path"); }
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseDoubleClick(QMouseEvent*, QPointF) override;
    bool keyPress(QKeyEvent*) override;
    void paintOverlay(QPainter&) override;
    void cancel() override;
    void finish();
    QString hint() const override;
    int pointCount() const { return int(points_.size()); }

private:
    Kind kind_;
    std::vector<QPointF> points_;
    QPointF hover_;
};

/// Round brush (or eraser) painting coverage into the current layer's raster shape.
/// The raster is created on first use over the domain at pixel size cell/4. While a
/// stroke is painted only the in-memory image (and the dirty screen rectangle) changes;
/// releasing the button commits one undo step with the new PNG.
class BrushTool : public Tool {
    Q_OBJECT
public:
    BrushTool(Canvas* c, ToolSettings* s, bool erase) : Tool(c, s), erase_(erase) {}
    QString name() const override { return erase_ ? tr("Eraser") : tr("Brush"); }
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseRelease(QMouseEvent*, QPointF) override;
    void paintOverlay(QPainter&) override;
    void cancel() override;

    /// Coverage of a brush dab at distance r from its centre, radius R, hardness h:
    /// 1 inside h*R, a smoothstep down to 0 at R.
    static double dabProfile(double r, double R, double hardness);
    QString hint() const override {
        return erase_ ? tr("Drag to erase Brush strokes (size and hardness in the tool options). Drawn shapes: select "
                           "and Delete")
                      : tr("Drag to paint the current layer's material (size and hardness in the tool options)");
    }

private:
    void dab(QPointF world);
    void strokeTo(QPointF world);
    bool ensureRaster();
    bool erase_;
    bool painting_ = false;
    int layer_ = -1, shape_ = -1;
    QPointF last_, hover_;
    bool hoverValid_ = false;
    Shape rasterShape_;  ///< geometry of the raster being painted
    bool createdRaster_ = false;
    QRect dirty_;
};

/// Point source (click), line source (drag) or region source (drag a rectangle).
class SourceTool : public Tool {
    Q_OBJECT
public:
    SourceTool(Canvas* c, ToolSettings* s, SourceType type) : Tool(c, s), type_(type) {}
    QString name() const override {
        return type_ == SourceType::Point ? tr("Point source") : type_ == SourceType::Line ? tr("Line source") : tr("Region source");
    }
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseRelease(QMouseEvent*, QPointF) override;
    void paintOverlay(QPainter&) override;
    void cancel() override { active_ = false; }

private:
    SourceType type_;
    bool active_ = false;
    QPointF a_, b_;
};

/// Flux line monitor (drag; positive direction perpendicular to the line, to the right of
/// the drag for vertical lines: +x, upwards for horizontal ones: +y), time probe (click) or
/// DFT field region (drag a rectangle; the spectrum's centre wavelength, Ez or Hz). With
/// `mode`, a flux line of kind "mode" (a mode monitor: forward / backward amplitudes of
/// mode 0; in 3D the plane through the line, as every flux monitor).
class MonitorTool : public Tool {
    Q_OBJECT
public:
    MonitorTool(Canvas* c, ToolSettings* s, MonitorType type, bool mode = false)
        : Tool(c, s), type_(type), mode_(mode && type == MonitorType::Flux) {}
    QString name() const override {
        if (mode_) return tr("Mode monitor");
        return type_ == MonitorType::Flux ? tr("Flux monitor") : type_ == MonitorType::Time ? tr("Time probe") : tr("DFT field region");
    }
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseRelease(QMouseEvent*, QPointF) override;
    void paintOverlay(QPainter&) override;
    void cancel() override { active_ = false; }

private:
    MonitorType type_;
    bool mode_ = false;
    bool active_ = false;
    QPointF a_, b_;
};

}  // namespace golightly::editor
