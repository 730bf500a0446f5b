// GoLightly editor: the Run setup dock. Every change made in it is one undoable
// EditorDocument edit; it refreshes itself from the document's signals.
#pragma once

#include <QDockWidget>

#include <functional>

#include "editor_document.hpp"

class QListWidget;
class QComboBox;
class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;

namespace golightly::editor {

/// Run setup: domain size, cell size (with cells per wavelength for the highest index and
/// the shortest wavelength), polarization, boundaries, PML cells, spectrum, stop criteria,
/// normalization, backend and precision.
class RunSetupDock : public QDockWidget {
    Q_OBJECT
public:
    explicit RunSetupDock(EditorDocument* doc, QWidget* parent = nullptr);
    /// Cells per shortest wavelength in the highest-index material: lambda_min / (n_max dx).
    static double cellsPerWavelength(const Project& p, double* nMax = nullptr);
    QLabel* resolutionLabel() const { return resolution_; }
    /// Check list of the layers of the normalization (reference) run.
    QListWidget* referenceLayers() const { return referenceLayers_; }
    QComboBox* incidentMonitor() const { return incident_; }
    /// The "Normalize with a reference run" switch: ticking it sets up normalization with
    /// its reference structure in one undo step (set_up_normalization) and emits
    /// statusMessage with what the reference run will contain.
    QCheckBox* normalization() const { return normalization_; }
    QDoubleSpinBox* cellSize() const { return cell_; }
    /// 2D / 3D switch (issue 16): index 0 = 2D, 1 = 3D; one undo step (dimensions.hpp).
    QComboBox* dimensions() const { return dims_; }
    QDoubleSpinBox* sizeZ() const { return sizeZ_; }
    QComboBox* boundaryZ() const { return boundZ_; }
    /// run.frames (3D): the slice plane (xy, xz, yz) and its position along the normal.
    QComboBox* framesPlane() const { return framesPlane_; }
    QDoubleSpinBox* framesPosition() const { return framesPos_; }
    /// Switches the project to `dims` (2 or 3) in one undo step (to_3d / to_2d).
    void setDimensions(int dims);
    /// Called when the slice fields change (plane index 0 xy, 1 xz, 2 yz; position um;
    /// whether the plane was changed): returning true takes the change (a running run's
    /// live slice, the main window's setSlice) and the project is left alone; false (or
    /// no handler): the change is an undoable edit of run.frames.
    void setLiveSliceHandler(std::function<bool(int planeIndex, double positionUm, bool planeChanged)> handler) {
        liveSliceHandler_ = std::move(handler);
    }
    /// Shows a slice in the fields without editing the project (the live slice of a run).
    void showSlice(int planeIndex, double positionUm);

Q_SIGNALS:
    /// A sentence for the status bar (what switching normalization on set up).
    void statusMessage(const QString& text);

private:
    void refresh();
    void edit(const QString& text, const std::function<void(Project&)>& f);
    /// A numeric field that takes an expression (issue 53): its undo text, how it sets the
    /// project, its JSON path (found once by setting another value) and its "= value" label.
    struct ExprField {
        class NumberSpinBox* spin;
        QString text;
        std::function<void(Project&, double)> set;
        std::string path;
        QLabel* valueLabel = nullptr;
    };
    const std::string& fieldPath(ExprField& f);
    void enterField(ExprField& f);
    std::vector<ExprField> exprFields_;
    EditorDocument* doc_;
    QComboBox *dims_ = nullptr, *boundZ_ = nullptr, *framesPlane_ = nullptr;
    QComboBox* symmetry_[3] = {nullptr, nullptr, nullptr};  ///< domain.symmetry per axis
    QDoubleSpinBox *sizeZ_ = nullptr, *framesPos_ = nullptr;
    QDoubleSpinBox *sizeX_, *sizeY_, *cell_, *wlMin_, *wlMax_, *decay_, *maxTime_, *courant_;
    QSpinBox *pml_, *points_;
    QComboBox *polarization_, *boundX_, *boundY_, *backend_, *precision_, *incident_, *metal_ = nullptr;
    QListWidget* referenceLayers_;
    QCheckBox *normalization_, *subpixel_;
    QLabel* resolution_;
    QLabel* warnings_ = nullptr;
    std::function<bool(int, double, bool)> liveSliceHandler_;
    bool updating_ = false;
};

}  // namespace golightly::editor
