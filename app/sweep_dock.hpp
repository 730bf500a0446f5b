// GoLightly IDE: the Sweep / Optimize dock (issue 23).
//
// - Parameters: the project's `parameters` (name, value or expression), editable here:
//   add, remove and change a value, each one undo step of the document (the expressions of
//   the project re-evaluated by with_parameters, parameters.hpp). Per parameter: Vary and
//   a range From..To with Points (sweep: Points values from From to To inclusive, as
//   `golightly-cli sweep --param NAME=FROM:TO:POINTS`; optimize: the bounds FROM..TO).
// - Quantity: a flux / flux_box monitor at a wavelength (um) for sweeps; for optimization
//   an objective expression as `golightly-cli optimize --objective` takes it, e.g. T(1.55),
//   maximized unless Minimize, at most Max runs, NLopt algorithm.
// - Sweep / Optimize run run_sweep / run_optimize (sweep.hpp) on a worker thread, never the
//   GUI thread, into <project stem>_sweep/ or <project stem>_optimize/ next to the
//   project (the CLI's folders; a re-run reuses the finished designs), with progress and
//   ETA; Cancel stops the running design at its next chunk and starts no other.
// - The plot fills as designs finish (re-read from sweep.csv / optimize.csv after each):
//   one varied parameter: the quantity against it; two: a colour map over both; the
//   optimizer: the objective against its parameter (one) or the evaluation number. A
//   click on a point asks to open that design (its design.glproj): openDesignRequested.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "background_job.hpp"
#include "editor_document.hpp"
#include "golightly/project.hpp"

class QCheckBox;
class QComboBox;
class QSettings;
class QCPColorMap;
class QCPColorScale;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMouseEvent;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace golightly::app {

class SweepDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SweepDock(editor::EditorDocument* doc, QWidget* parent = nullptr);
    ~SweepDock() override;

    // ---- project parameters (each call one undo step; false with a message when refused)
    /// Adds parameter `name` = `valueText` (a number in base units or an expression).
    bool addParameter(const QString& name, const QString& valueText);
    /// Removes a parameter (refused while an expression uses it).
    bool removeParameter(const QString& name);
    /// Sets a parameter's value (number or expression); the project's expressions follow.
    bool setParameterValue(const QString& name, const QString& valueText);

    // ---- the sweep / optimization setup
    struct Range {
        bool vary = false;
        double from = 0, to = 1;
        int points = 5;
    };
    void setRange(const QString& name, const Range& range);
    Range range(const QString& name) const;
    /// The monitor and wavelength of the sweep's quantity.
    void setQuantity(const QString& monitor, double wavelengthUm);
    void setObjective(const QString& expression, bool minimize, int maxRuns, const QString& algorithm);

    /// Starts a sweep of the varied parameters (folder `outDir`; empty: the default next to
    /// the project). `threads`: CPU threads per run (0: all cores). False with a message.
    bool startSweep(const QString& outDir = {}, int threads = 0);
    bool startOptimize(const QString& outDir = {}, int threads = 0);
    bool isRunning() const { return job_.isRunning(); }
    void cancel();
    bool waitForFinished(int ms);

    /// The results folder of the last (or running) sweep / optimization.
    QString outputDir() const { return outDir_; }
    /// Points shown: (design or evaluation index, parameter values, quantity) as read from
    /// sweep.csv / optimize.csv (the quantity NaN for a failed design).
    struct Point {
        int index = 0;
        std::vector<double> params;
        double value = 0;
        QString status;
    };
    const std::vector<Point>& points() const { return points_; }
    bool optimizing() const { return optimizing_; }
    /// The design.glproj of point `index` (design_NNNN or eval_NNNN), empty if absent.
    QString designFile(int index) const;
    QCustomPlot* plot() const { return plot_; }
    QCPColorMap* colorMap() const { return map_; }
    QTableWidget* table() const { return table_; }
    QString statusText() const;
    QProgressBar* progressBar() const { return progress_; }
    /// Where the dock remembers its choices (monitor, wavelength, objective, Minimize, Max
    /// runs, algorithm; group "sweep/"): read now, written on every change.
    void setSettingsStore(std::function<std::unique_ptr<QSettings>()> store);
    /// What the plot shows is not of the open project as it is now (another project was
    /// opened, or the design was edited since the sweep): the label above the plot says
    /// which; empty when the points are current or there are none.
    QString staleText() const;

Q_SIGNALS:
    /// A point of the plot was clicked: open this design (the main window asks to save first).
    void openDesignRequested(const QString& glproj);
    void finished(bool ok, const QString& message);

private:
    void rebuildTable();
    void rebuildMonitors();
    void tableEdited(int row, int column);
    bool applyEdit(const Project& edited, const QString& undoText);
    QString label() const;
    QString defaultOutDir(const QString& suffix) const;
    bool startWorker(bool optimize, const QString& outDir, int threads);
    void rebuildPlot();
    void plotClicked(QMouseEvent* e);
    void setStatus(const QString& text);

    void saveSettings() const;
    std::function<std::unique_ptr<QSettings>()> settings_;
    editor::EditorDocument* doc_;
    QMap<QString, Range> ranges_;
    bool rebuilding_ = false;

    // the run
    /// What the worker posts (each poll takes what came since the last one).
    struct News {
        std::optional<std::vector<Point>> rows;  ///< latest table read after a design
        std::optional<double> designFraction;    ///< progress of the running design, 0..1
    };
    /// What the worker returns: all designs done without failures, and the summary.
    struct Outcome {
        bool ok = false;
        QString message;
    };
    using Job = editor::BackgroundJob<Outcome, News>;
    void takeNews(News& news);
    void jobFinished(editor::JobOutcome<Outcome>& outcome);
    double designFraction_ = 0;
    QElapsedTimer clock_;
    bool optimizing_ = false;
    QString outDir_;
    QStringList varied_;                 ///< names of the varied parameters
    std::vector<Range> variedRanges_;
    int total_ = 0;                      ///< designs (sweep) or max evaluations
    QString quantityName_;               ///< the plotted quantity's label
    std::vector<Point> points_;
    /// The project swept (its file and, with the varied parameters at the values of the
    /// start, as with_parameters evaluates it), to tell when the open one is another.
    QString sweptFile_;
    std::shared_ptr<const Project> sweptFrom_;
    QStringList sweptOverrides_;  ///< NAME=value of the varied parameters at the start
    /// The open project with the varied parameters as at the sweep's start, as
    /// with_parameters evaluates it (null when it cannot be evaluated).
    std::shared_ptr<const Project> comparable(const Project& p) const;
    void updateStale();
    QLabel* stale_ = nullptr;

    QTableWidget* table_;
    QComboBox* monitor_;
    QDoubleSpinBox* wavelength_;
    QLineEdit* objective_;
    QCheckBox* minimize_;
    QSpinBox* maxRuns_;
    QComboBox* algorithm_;
    QPushButton *sweepButton_, *optimizeButton_, *cancelButton_;
    QProgressBar* progress_;
    QLabel* status_;
    QCustomPlot* plot_;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    Job job_{100};  ///< last: cancelled and joined first
};

}  // namespace golightly::app
