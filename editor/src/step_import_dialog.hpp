// GoLightly editor: STEP import (issue 7, editor half). File > Import STEP... and a
// .step/.stp file dropped on the canvas open StepImportDialog: the file is read off the GUI
// thread (StepFileReader, read_step with progress, cancellable), its solids are listed
// (name, colour, bounds, section area at domain.slice_z), the user picks the unit scale,
// the placement and each solid's layer and material, and OK adds everything as ONE undo
// step: one `step` shape per target layer, each carrying its solid selection
// (Shape::solids), all embedding the same file. Re-import (reimport_step) swaps the
// embedded file of a step shape (and its siblings from the same import) for a new one,
// matching solids by name.
#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <QObject>
#include <QPainterPath>
#include <QString>

#include <array>
#include <optional>
#include <utility>
#include <cstdint>
#include <memory>
#include <vector>

#include "editor_document.hpp"
#include "background_job.hpp"
#include "golightly/step_import.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace golightly::editor {

/// Reads a STEP file (read_regular_file + read_step) in a worker thread (a BackgroundJob).
/// progress() is emitted on the GUI thread with the latest report; cancel() makes read_step
/// stop at its next progress report. The object may be destroyed while reading (it cancels
/// and waits).
class StepFileReader : public QObject {
    Q_OBJECT
public:
    explicit StepFileReader(QObject* parent = nullptr);
    ~StepFileReader() override;
    /// Starts reading `path` (nothing if a read is going).
    void start(const QString& path);
    void cancel();
    bool isRunning() const { return job_.isRunning(); }
    /// Processes events until the read has finished (tests, re-import); false on timeout.
    bool waitForFinished(int timeoutMs = 120000);

    bool ok() const { return ok_; }
    bool cancelled() const { return cancelled_; }
    /// The error message (names the file) when !ok().
    QString error() const { return error_; }
    QString path() const { return path_; }
    const StepModel& model() const { return model_; }
    const std::vector<std::uint8_t>& bytes() const { return bytes_; }
    /// Wall time of the last read (file + read_step), seconds.
    double seconds() const { return seconds_; }

Q_SIGNALS:
    void progress(double fraction, const QString& stage);
    void finished(bool ok);

private:
    /// What the worker returns: the model and the file's bytes (kept for the project).
    struct Read {
        StepModel model;
        std::vector<std::uint8_t> bytes;
    };
    /// The latest progress report (latest wins: the bar shows where the reader is).
    struct News {
        std::optional<std::pair<double, QString>> progress;
    };
    void done(JobOutcome<Read>& outcome);
    bool ok_ = false, cancelled_ = false;
    QString path_, error_;
    StepModel model_;
    std::vector<std::uint8_t> bytes_;
    double seconds_ = 0;
    QElapsedTimer timer_;
    BackgroundJob<Read, News> job_{20};  ///< last: cancelled and joined first
};

/// The placement the import dialog proposes for a part (um, degrees): scale = the file's
/// unit in um, no rotation, the x-y centre of the part's bounds at the domain's centre and
/// the slice plane (domain.slice_z) through the middle of its z range.
struct StepPlacement {
    double scale = 1000;
    std::array<double, 3> rotate_deg{0, 0, 0};
    std::array<double, 3> translate{0, 0, 0};
};
StepPlacement default_step_placement(const StepModel& model, const Project& project, double scale);

class StepImportDialog : public QDialog {
    Q_OBJECT
public:
    enum Column { ColName, ColColor, ColBounds, ColArea, ColLayer, ColMaterial, ColCount };
    StepImportDialog(EditorDocument* doc, Prompts* prompts, QWidget* parent = nullptr);
    ~StepImportDialog() override;

    /// Starts reading `path`; the dialog fills in when it is read. A read error goes to the
    /// prompts (naming the file) and rejects the dialog.
    void loadFile(const QString& path);
    /// Processes events until loading has finished; true when the file loaded.
    bool waitForLoaded(int timeoutMs = 120000);
    bool isLoaded() const { return loaded_; }
    bool isLoading() const;
    QString filePath() const { return path_; }
    const StepModel& model() const { return model_; }
    /// Seconds the last load took (reading + first sections), and the read alone.
    double loadSeconds() const { return loadSeconds_; }
    double readSeconds() const;

    // ---- choices (also the widgets' state, for tests)
    QTableWidget* solidsTable() const { return table_; }
    QDoubleSpinBox* scaleSpin() const { return scale_; }
    /// The slice plane (domain.slice_z) the sections are cut at; Import stores it in the project.
    QDoubleSpinBox* sliceZSpin() const { return sliceZ_; }
    double sliceZ() const;
    QDoubleSpinBox* translateSpin(int axis) const { return translate_[size_t(axis)]; }
    QDoubleSpinBox* rotateSpin(int axis) const { return rotate_[size_t(axis)]; }
    void setPlacement(const StepPlacement& p);
    StepPlacement placement() const;
    /// Ticks or unticks a solid (as a click on its box does): a choice made by hand, which
    /// the slice plane no longer changes. Until then (2D projects) a solid is ticked
    /// exactly when the slice plane crosses it, following the placement and the plane.
    void setSolidIncluded(int solid, bool on);
    bool solidIncluded(int solid) const;
    /// Target layer by name: an existing layer's name, or a new layer's.
    void setSolidLayer(int solid, const QString& layerName);
    QString solidLayer(int solid) const;
    /// Material id (an existing material), or the proposed new material's id.
    void setSolidMaterial(int solid, const QString& materialId);
    QString solidMaterial(int solid) const;
    /// The default name of the new layer (the file's base name, made unique).
    QString newLayerName() const { return newLayer_; }
    /// The id of the material the import can create (eps 2.25, the first solid's colour unless it is very light).
    QString newMaterialId() const { return newMaterialId_; }
    /// Section area (um^2) of each solid at domain.slice_z for the current placement;
    /// 0 for a solid the plane misses.
    std::vector<double> sectionAreas() const { return areas_; }
    /// The status line under the table (what crosses, what does not).
    QString statusText() const;

    /// Adds the chosen solids to the document: ONE undo step; false (message to the
    /// prompts in words and µm, project unchanged) when nothing is loaded, no solid is
    /// included, a chosen solid does not cross the slice plane (2D), or the choices conflict.
    bool importIntoDocument();
    /// Cuts the included solids now with the current placement (normally 250 ms after a
    /// change) and refreshes areas, status and preview.
    void updateSections();

public Q_SLOTS:
    void accept() override;
    void reject() override;

Q_SIGNALS:
    void loaded(bool ok);

private:
    void readerFinished(bool ok);
    void fillTable();
    Shape baseShape() const;
    void scheduleSections();
    EditorDocument* doc_;
    Prompts* prompts_;
    StepFileReader* reader_;
    QString path_;
    bool loaded_ = false;
    StepModel model_;
    std::string dataBase64_;
    QString newLayer_, newMaterialId_;
    std::vector<double> areas_;
    std::vector<QPainterPath> sections_;
    /// Solids ticked or unticked by hand (else their tick follows the slice plane).
    std::vector<char> chosen_;
    double loadSeconds_ = 0;
    QElapsedTimer loadTimer_;
    // widgets
    QLabel* fileLabel_;
    QLabel* unitLabel_;
    QProgressBar* progress_;
    QPushButton* cancelRead_;
    QTableWidget* table_;
    QDoubleSpinBox* scale_;
    std::array<QDoubleSpinBox*, 3> translate_{};
    std::array<QDoubleSpinBox*, 3> rotate_{};
    QDoubleSpinBox* sliceZ_ = nullptr;
    QPushButton* centreButton_ = nullptr;
    QPushButton* fitButton_ = nullptr;
    QLabel* status_;
    class StepSectionPreview* preview_;
    class QTimer* sectionTimer_;
    QPushButton* okButton_;
    bool updating_ = false;
};

/// Re-import: replaces the embedded STEP file of the step shape `item` and of every other
/// step shape embedding the same data (the shapes of one import) with the file read by
/// `reader` (already finished) or, when `reader` is null, read now from `path`. Placement,
/// layers and materials stay; solid selections are mapped by name (the k-th solid named N
/// in the old file -> the k-th named N in the new one); a shape none of whose solids is in
/// the new file is removed; solids the old file did not have join the shape `item` when the
/// slice plane cuts them (solids it had but no shape used stay out). ONE undo step;
/// false (message to `prompts`, project unchanged) on read errors or when a kept solid
/// does not cross the slice plane.
bool reimport_step(EditorDocument* doc, const ItemRef& item, const QString& path, Prompts& prompts,
                   const StepFileReader* reader = nullptr);

}  // namespace golightly::editor
