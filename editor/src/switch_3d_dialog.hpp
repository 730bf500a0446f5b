// GoLightly editor: the 2D -> 3D switch's confirmation (issue 55): what the 3D grid will
// cost (cells, memory, compile and step time) and the z layout the layers and ports get,
// shown before anything changes. A cell size and the SOI stack can be changed here; the
// estimate follows as they are edited. Accept applies to_3d with these options (the
// caller pushes it as one undo step); Cancel leaves the project alone.
#pragma once

#include <QDialog>

#include "dimensions.hpp"
#include "golightly/project.hpp"

class QCheckBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;

namespace golightly::editor {

class Switch3dDialog : public QDialog {
    Q_OBJECT
public:
    /// `project`: the 2D project to switch; `threads`: CPU threads of the time estimate
    /// (<= 0: QThread::idealThreadCount()).
    explicit Switch3dDialog(const Project& project, QWidget* parent = nullptr, int threads = 0);
    Switch3dOptions options() const;
    /// The project in 3D with options() (to_3d).
    Project result() const;
    /// The estimate of result() shown now.
    GridEstimate estimate() const { return estimate_; }
    QDoubleSpinBox* cellSize() const { return cell_; }
    QCheckBox* soiStack() const { return soi_; }
    /// The cost lines (cells, memory, time) and the layer/port z list.
    QLabel* costLabel() const { return cost_; }
    QLabel* layersLabel() const { return layers_; }
    /// The cost as text, in the words the dialog shows (also the status line after a switch).
    static QString costText(const GridEstimate& e, int threads);

private:
    void update();
    Project project_;
    int threads_ = 1;
    GridEstimate estimate_;
    QDoubleSpinBox* cell_ = nullptr;
    QCheckBox* soi_ = nullptr;
    QLabel *cost_ = nullptr, *layers_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace golightly::editor
