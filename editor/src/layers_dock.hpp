// GoLightly editor: the Layers dock. Every change made in it is one undoable
// EditorDocument edit; it refreshes itself from the document's signals.
#pragma once

#include <QDockWidget>

#include "editor_document.hpp"

class QListWidget;
class QComboBox;
class QCheckBox;
class QDoubleSpinBox;
class QPushButton;

namespace golightly::editor {

/// Layers: add, delete, rename (double-click), reorder (drag or the arrow buttons),
/// show/hide (check box), lock; the current layer's material, z range and reference-only
/// flag. The list shows the topmost layer (last in the project, wins overlaps) first.
class LayersDock : public QDockWidget {
    Q_OBJECT
public:
    explicit LayersDock(EditorDocument* doc, QWidget* parent = nullptr);
    QListWidget* list() const { return list_; }
    /// Row in the list <-> layer index.
    int layerForRow(int row) const;
    int rowForLayer(int layer) const;

    void addLayer();
    void deleteCurrentLayer();
    void moveCurrentLayer(int delta);  ///< +1 = up (towards the top, later in the project)
    void toggleLock();
    /// Applies the order shown in the list (after a drag) to the project.
    void applyListOrder();

private:
    void refresh();
    void refreshDetails();
    EditorDocument* doc_;
    QListWidget* list_;
    QComboBox* material_;
    QCheckBox* zEnabled_;
    QDoubleSpinBox* zMin_;
    QDoubleSpinBox* zMax_;
    QCheckBox* referenceOnly_;
    QPushButton* lock_;
    bool updating_ = false;
};

}  // namespace golightly::editor
