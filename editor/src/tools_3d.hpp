// GoLightly editor: the 3D drawing tools (issue 16). In the xy editor a drag gives the
// footprint; the z extent comes from the current layer's z range (solids) or the middle
// of the domain (TF/SF and flux boxes), and is edited in the Properties dock.
#pragma once

#include "tools.hpp"

namespace golightly::editor {

/// Sphere (drag from the centre to the radius) and box (corner to corner): 3D solids of
/// the current layer (project-format "3D projects": they carry their own z). Their z: the
/// layer's z range (its middle for a sphere's centre, the range for a box), else the
/// domain's.
class SolidTool : public Tool {
    Q_OBJECT
public:
    enum class Kind { Sphere, Box };
    SolidTool(Canvas* c, ToolSettings* s, Kind kind) : Tool(c, s), kind_(kind) {}
    QString name() const override { return kind_ == Kind::Sphere ? tr("Sphere") : tr("Box"); }
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseRelease(QMouseEvent*, QPointF) override;
    void paintOverlay(QPainter&) override;
    void cancel() override { active_ = false; }
    QString hint() const override {
        return kind_ == Kind::Sphere
                   ? tr("Drag from the centre outwards to draw a sphere (3D); its z centre is the middle of the layer's z range")
                   : tr("Drag from corner to corner to draw a box (3D) over the layer's z range; z in the Properties dock");
    }
    /// The solid a drag from a to b (um) gives in `project` on `layer`.
    Shape shapeFor(const Project& project, int layer, QPointF a, QPointF b) const;

private:
    Kind kind_;
    bool active_ = false;
    QPointF a_, b_;
};

/// TF/SF source box and flux box monitor, corner to corner; z over the middle half of the
/// domain in 3D. The TF/SF wave travels +x with Ez polarization (change in Properties);
/// the flux box measures the net outward flux (kind: absorption or scattering in Properties).
class BoxItemTool : public Tool {
    Q_OBJECT
public:
    enum class Kind { Tfsf, FluxBox };
    BoxItemTool(Canvas* c, ToolSettings* s, Kind kind) : Tool(c, s), kind_(kind) {}
    QString name() const override { return kind_ == Kind::Tfsf ? tr("TF/SF Box") : tr("Flux Box"); }
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseRelease(QMouseEvent*, QPointF) override;
    void paintOverlay(QPainter&) override;
    void cancel() override { active_ = false; }
    QString hint() const override {
        return kind_ == Kind::Tfsf ? tr("Drag a box: total field inside, scattered field outside (plane wave along +x)")
                                   : tr("Drag a box: net outward flux, or absorption / scattering cross-sections");
    }

private:
    Kind kind_;
    bool active_ = false;
    QPointF a_, b_;
};

/// Port (top-level `ports`, ports.hpp): drag a line across the waveguide. 2D: that line;
/// 3D: a plane through it normal to the axis along which it is shortest, spanning the
/// domain in z. Direction + that axis (into the device: flip it in Properties for a port on
/// the right or top side); mode 0.
class PortTool : public Tool {
    Q_OBJECT
public:
    PortTool(Canvas* c, ToolSettings* s) : Tool(c, s) {}
    QString name() const override { return tr("Port"); }
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseRelease(QMouseEvent*, QPointF) override;
    void paintOverlay(QPainter&) override;
    void cancel() override { active_ = false; }
    QString hint() const override {
        return tr("Drag a line across the waveguide to place a port (S-parameters); direction and modes in Properties");
    }

private:
    bool active_ = false;
    QPointF a_, b_;
};

}  // namespace golightly::editor
