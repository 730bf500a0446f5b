// GoLightly editor: the layer stack dock (issue 16): per layer its material, z0, z1 and
// sidewall angle, in a table and as a cross-section diagram (z to scale, the materials'
// colours, sloped sidewalls) whose layer edges can be dragged. Every change is one
// undoable EditorDocument edit; undo gives back the project as it was.
#pragma once

#include <QDockWidget>
#include <QWidget>

#include <array>
#include <optional>

#include "editor_document.hpp"

class QTableWidget;
class QLabel;
class QPushButton;

namespace golightly::editor {

/// The cross-section diagram: the z axis upwards, the domain [0, Lz] as a dashed frame,
/// each layer a band (a trapezoid when its sidewall angle is not 0) in its own lane, left
/// to right in project order (so overlapping layers stay visible). Dragging a band's top
/// or bottom edge changes z1 or z0, dragging its body moves both; the release makes one
/// undo step ("Set layer z range"). A click selects the layer (current layer). The selected
/// item's own z extent (solids, 3D sources and monitors) is a bar in a column left of the
/// lanes, dragged the same way ("Set z extent").
class LayerStackDiagram : public QWidget {
    Q_OBJECT
public:
    explicit LayerStackDiagram(EditorDocument* doc, QWidget* parent = nullptr);
    QSize sizeHint() const override { return {300, 240}; }
    QSize minimumSizeHint() const override { return {160, 140}; }
    /// Widget point of a layer's edge: which 0 = bottom (z0), 1 = top (z1), 2 = middle.
    QPoint pointFor(int layer, int which) const;
    /// z (um) at widget y, and back.
    double zAt(double y) const;
    double yAt(double z) const;
    /// Snap step of drags (um): a cell, else 1 nm.
    double snapStep() const;
    /// The z extent of the selected item when it has its own (a sphere, a box; in 3D a
    /// plane, a TF/SF or flux box, a point; dimensions.hpp item_z_extent), with the drag
    /// preview: drawn as a bar (a line for a point) in a column left of the layer lanes.
    /// Dragging the bar's top or bottom edge changes z1 or z0 (a sphere's radius and centre
    /// with the other edge fixed), its body moves it (points and planes normal to z only
    /// move); snapped to the cell size; the release is one undo step ("Set z extent").
    std::optional<std::array<double, 2>> selectedZ() const;
    /// Widget point of the selected item's side view: which 0 = bottom (z0), 1 = top (z1),
    /// 2 = middle; a null point when the selection has no z extent of its own.
    QPoint selectionPointFor(int which) const;

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;

private:
    struct Lane {
        int layer;
        QRectF rect;  ///< the lane's column (full height)
    };
    void layout();
    std::array<double, 2> zRange(int layer) const;  ///< with the drag preview
    bool selectionDraggable() const;                ///< has a z extent and is not locked
    QRectF selRect_;                                ///< the selection's column (empty: none)
    EditorDocument* doc_;
    double zLo_ = 0, zHi_ = 1;  ///< shown z range
    QRectF plot_;
    std::vector<Lane> lanes_;
    struct Drag {
        bool item = false;  ///< the selected item's z extent (ref), else a layer's
        ItemRef ref;
        int layer = -1;
        int which = 2;
        double startZ = 0;
        std::array<double, 2> original{0, 0}, now{0, 0};
    };
    std::optional<Drag> drag_;
};

class LayerStackDock : public QDockWidget {
    Q_OBJECT
public:
    enum Column { ColName, ColMaterial, ColZ0, ColZ1, ColAngle, ColGds, ColCount };
    explicit LayerStackDock(EditorDocument* doc, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    LayerStackDiagram* diagram() const { return diagram_; }

    /// One undo step each ("Set layer z range", "Set sidewall angle", "Set layer material").
    /// z1 must be > z0 (else nothing happens and false is returned).
    bool setLayerZ(int layer, double z0, double z1);
    bool setSidewallAngle(int layer, double degrees);
    void setLayerMaterial(int layer, const std::string& materialId);
    /// The layer's GDSII layer/datatype (`gds_layer`, the pair a GDS export writes it to):
    /// one undo step ("Set GDS layer"); nullopt removes it. Numbers must be 0..65535 (else
    /// false, nothing changes).
    bool setGdsLayer(int layer, std::optional<std::array<int, 2>> gds);
    /// The table's text for a gds_layer: "layer/datatype", empty for none; and back:
    /// "L/D", "L;D", "L,D", "L D" or "L" (datatype 0); empty = none; nullopt in `ok` false
    /// for anything else or numbers outside 0..65535.
    static QString gdsText(const std::optional<std::array<int, 2>>& gds);
    static std::optional<std::array<int, 2>> parseGds(const QString& text, bool* ok);
    /// Adds a background (substrate or cladding) layer: one rectangle that covers the whole
    /// xy domain, PML included, extruded over [z0, z1], of `materialId`; the format needs no
    /// extra member for it (a layer like any other). Returns its layer index.
    int addBackgroundLayer(const std::string& materialId, double z0, double z1);
    /// Entries of the table that break a rule (z1 not above z0, a sidewall of 90 degrees or
    /// more, not a number, a bad GDS layer): shown red with the rule as tool tip and the
    /// text typed, not applied, as the Properties dock's; "<layer>: <column>: <rule>
    /// (entered <text>)". Run refuses to start while there are any.
    QStringList problems() const;
    /// The rule that the entry in (row, column) breaks; empty when it was applied or none is marked.
    QString invalidRule(int row, int column) const;

private:
    void refresh();
    void cellEdited(int row, int column);
    /// The rule that `text` in (row, column) breaks, empty when it is valid.
    QString cellRule(int row, int column, const QString& text) const;
    EditorDocument* doc_;
    LayerStackDiagram* diagram_;
    QTableWidget* table_;
    QLabel* note_;
    bool updating_ = false;
    struct Invalid {
        int row = 0, column = 0;
        std::string layer;  ///< the layer's name when entered: dropped when the row holds another one
        QString text, rule;
    };
    std::vector<Invalid> invalid_;
};

}  // namespace golightly::editor
