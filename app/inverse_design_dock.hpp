// GoLightly IDE: the Inverse Design dock (issue 53 item 6). It edits the objective and the
// optimizer of the project's `design` section (the region itself, its robust design
// included: the Design region tool and Properties) and runs the adjoint topology
// optimization of the design region (golightly::adjoint::optimize_density on the problem
// of problem_from_project) on a BackgroundJob, never the GUI thread. After each
// iteration: the figure of merit vs
// iteration (beta steps marked), the projected density (in the dock and on the canvas over
// the design region), the forward or the adjoint field over the design region (|E|^2 or
// the real part of one E component at the objective's first wavelength, from the DFT
// fields the adjoint method stores there anyway: adjoint::RunSettings::on_fields; the
// field view's diverging colour map, scaled to the picture's maximum), iteration / beta /
// |grad| and an ETA (the mean wall time of an iteration times the iterations left).
//
// Pause and Stop set the solver's cancel flag (adjoint::RunSettings::cancel): the forward
// or adjoint run under way ends within a chunk of steps and the optimizer stops; the
// checkpoint (checkpoint.json in the output folder, written by the optimizer after every
// completed iteration) holds the last completed iteration's design. While paused the
// project may be edited; Resume starts optimize_density again from the same checkpoint on
// a snapshot of the project as it is then, so the iteration numbering continues (the
// interrupted iteration is made again). Stop keeps the last completed design for export.
// The normalization run before the first iteration (normalize_by) watches the same flag
// (adjoint::ProjectProblemOptions::cancel): Stop or Pause during it ends it within a chunk
// of steps, before any iteration (its progress shows in the status line). Errors of the
// solver show in the dock.
//
// The wavelengths combine as their mean, the worst one or a formula of F0, F1, ... (combine
// "expression"); a formula is checked by design_spec as it is typed (its message shown, the
// formula not applied), and L-BFGS is refused where the worst wavelength or a robust design
// needs constraints.
//
// With several wavelengths the plot also draws the figure of merit at each wavelength
// (adjoint::Iteration::objective_per_frequency, the `objective@<wavelength>` columns of
// history.csv): one thin curve per wavelength, named by its wavelength in um in the legend.
//
// Shape parameters (design.shape_parameters, the second kind of design variable): a table
// of the project parameters the optimizer moves (the parameter, chosen from the project's
// `parameters`; min; max; the optional step of the central difference), Add / Remove.
// Every applied edit is one undo step. Each row is read by the reader (design_spec, through
// editor::shape_parameter_problems): a row it refuses is marked red with its message (tool
// tip, and the list under the table); an edit that would make the file unreadable (max not
// above min, a step out of range, a parameter listed twice) is not applied, its row marked
// with the message, the typed values kept to be corrected. A design has one kind of
// variable: with a design region the table is disabled and says so (the Design Region tool
// replaces the shape parameters by a region; Undo brings them back). Removing the last row
// removes the design section.
//
// Start on a design of shape parameters runs the optimization `golightly-cli optimize
// --adjoint` runs on it (adjoint::shape_problem_from_project, then adjoint::optimize_shape
// with its checkpoint.json in the output folder; history.csv with the CLI's columns) on the
// same BackgroundJob. After each iteration: the figure of merit (and per wavelength) in the
// plot, the parameter values evaluated in the dock (where a density design shows its
// density) and in the project itself, so that the canvas and the Parameters dock show the
// structure being evaluated. These value changes are one undo step for the whole session
// (EditorDocument::replaceProjectInSession; an edit in between starts another step); when
// the run ends (done, paused, stopped) the parameters get the best values found (NLopt's
// optimum, as the CLI's final.glproj). The field picture shows the forward or adjoint field
// of each new evaluation (adjoint::ShapeProblem::on_fields) over the view box of
// adjoint::ShapeFields (the bounding box of the sites whose permittivity the parameters
// move, grown by a margin, clipped to the PML; 3D: its middle z plane), every E site of it,
// with the density path's colour map: the field inside and around the shapes. Sites
// holding a source are not sampled and stay blank (transparent); |E|² sums the components
// known at a cell. Where the view is capped away (a box of more than
// adjoint::kShapeViewMaxCells cells) the picture shows the moving sites only, blank
// between them. Pause and Stop set the
// cancel flag (adjoint::ProjectProblemOptions::cancel) as for densities. Resume with the
// project as the run left it (not edited while it ran; while paused at most Max
// iterations changed) continues exactly: the
// same problem is given the checkpoint again, whose evaluations NLopt replays
// (optimize_shape); after another edit the checkpoint is of another problem, so the
// optimizer starts again from the parameters' values now (a new normalization run; the
// iteration numbering goes on, MMA's memory of the earlier steps does not).
//
// Export: the final projected density as GDS (the binarized contours, holes cut in by
// keyholes, as `golightly-cli optimize --adjoint` writes final.gds) and as plain shapes
// in the document (adjoint::project_with_design_shapes, one undo step).
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QString>

#include <array>
#include <atomic>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "background_job.hpp"
#include "editor_document.hpp"

#include "golightly/adjoint_project.hpp"
#include "golightly/adjoint_shape.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSettings;
class QSpinBox;
class QTableWidget;

namespace golightly::editor { class Canvas; }

namespace golightly::app {

class InverseDesignDock : public QDockWidget {
    Q_OBJECT
public:
    enum class State { Idle, Running, Pausing, Paused, Stopping, Finished };

    explicit InverseDesignDock(editor::EditorDocument* doc, QWidget* parent = nullptr);
    /// Cancels a run and waits for its thread (within a chunk of steps).
    ~InverseDesignDock() override;

    /// The canvas that shows the projected density over the design region.
    void setCanvas(editor::Canvas* canvas) { canvas_ = canvas; }
    /// Where checkpoint.json, history.csv and density.csv go (created at Start).
    void setOutputDir(const QString& dir) { outDir_ = dir; }
    QString outputDir() const { return outDir_; }
    /// CPU threads of the runs (0: all cores).
    void setThreads(int threads) { threads_ = threads; }
    /// Where the field picture's choices (forward / adjoint, the quantity) are remembered
    /// (keys inverseDesign/fieldSource, inverseDesign/fieldQuantity); read at once.
    void setSettingsStore(std::function<std::unique_ptr<QSettings>()> store);

    /// Starts a fresh optimization of the document's design: its design region's density or
    /// its shape parameters (an old checkpoint in the output folder is removed). False,
    /// with the reason in the dock, when it cannot.
    bool start();
    /// Stops now (the iteration under way is dropped), keeping the checkpoint of the last
    /// completed iteration for Resume.
    void pause();
    /// Continues a paused optimization from its checkpoint with the project as it is now.
    bool resume();
    /// Ends the run now (the iteration under way is dropped; no resume).
    void stop();
    State state() const { return state_; }
    bool isRunning() const { return job_.isRunning(); }
    /// Processes events until the job has ended; true when it did within `ms`.
    bool waitForFinished(int ms) { return job_.waitForFinished(ms); }

    /// Points in the figure-of-merit plot (one per iteration of this session) and their
    /// iteration numbers.
    int plottedIterations() const;
    std::vector<int> plottedIndices() const;
    /// The iterations where beta grew (marked in the plot).
    std::vector<int> betaSteps() const { return betaSteps_; }
    /// The wavelengths (um, ascending frequency) of the per-wavelength curves of the plot
    /// (graphs 1 .. N after the figure of merit, graph 0); empty with one wavelength.
    std::vector<double> curveWavelengths() const { return curveWavelengths_; }
    QCustomPlot* plot() const { return plot_; }
    /// The projected density of the last iteration (Grayscale8; null before one).
    QImage densityImage() const { return density_; }
    /// Which field the field picture shows.
    enum class FieldSource { Forward, Adjoint };
    void setFieldSource(FieldSource source);
    FieldSource fieldSource() const;
    /// The field picture of the last iteration, one pixel per Yee cell of the design
    /// region (null before the first iteration). Shape designs: over the bounding box of
    /// the sites the parameters move, Format_ARGB32, transparent where no site was sampled.
    QImage fieldImage() const { return fieldImage_; }
    QString statusText() const;
    QString iterationText() const;

    /// Writes the last design's binarized contours to `path` as GDS (2D). False, with the
    /// reason in the dock, when there is no design or it cannot be written.
    bool exportGds(const QString& path);
    /// Replaces the design region of the document by the last design as plain shapes (one
    /// undo step). False, with the reason in the dock, when there is no design.
    bool applyAsShapes();
    /// Another project was opened or created: a run of the previous one ends (waiting for
    /// its iteration), and its plot, density and design are dropped.
    void projectReplaced();
    /// True when a finished, paused or stopped run left a design to export.
    bool hasDesign() const { return bool(last_); }
    /// True when the last Start optimized shape parameters (not a density).
    bool shapeSession() const { return shapeRun_; }
    /// The shape parameters' names and the values of the last iteration shown (the last
    /// evaluation; after the run, the best), in design.shape_parameters' order; empty before.
    std::vector<std::string> shapeNames() const { return shapeNames_; }
    std::vector<double> shapeValues() const { return shapeValues_; }
    /// The text beside the plot that lists the shape parameters' values (shape designs).
    QString shapeValuesText() const;

    /// The shape-parameter table: one row per design.shape_parameters entry, columns
    /// parameter (a QComboBox, item data the name), min, max, step (QLineEdits).
    QTableWidget* shapeTable() const { return shapes_; }
    /// The message row `row` of the shape-parameter table is marked with (the reader's,
    /// naming the file and the field; "Not applied: ..." for a refused edit); empty when the
    /// row is valid or does not exist.
    QString shapeRowProblem(int row) const;
    /// The text under the shape-parameter table (the rows' problems, or what the table is for).
    QString shapeNote() const;
    /// Adds a row for the first project parameter not listed yet (editor::new_shape_parameter;
    /// creates the design section with a default objective when there is none). One undo
    /// step. False, with the reason in the dock, in a density design or without a free parameter.
    bool addShapeParameter();
    /// Removes row `row` (one undo step; the last row: the whole design section). False when
    /// there is no such row.
    bool removeShapeParameter(int row);
    /// Types `text` into cell (row, column) of the shape-parameter table (column 0: a
    /// parameter name, 1: min, 2: max, 3: step; an empty step: the reader's default) and
    /// applies the row as its editingFinished does. True when the project changed.
    bool editShapeParameter(int row, int column, const QString& text);

Q_SIGNALS:
    /// The run ended (finished, paused, stopped, failed); `message` says how.
    void finished(const QString& message);
    /// The state changed (the main window enables its actions).
    void stateChanged(golightly::app::InverseDesignDock::State state);

private:
    struct Point {
        int index = 0;
        double beta = 0, objective = 0, gradient_norm = 0, wall_s = 0;
        std::vector<double> per_wavelength;  ///< F_f, in the order of News::wavelengths_um
        std::vector<double> p;               ///< shape designs: the parameter values evaluated
    };
    /// The design region's E fields of an iteration at one frequency, on the union of the
    /// E components' Yee cell ranges (w x h, index j * w + i, y up; a component missing at
    /// an edge cell takes its nearest site; 3D: the middle z plane).
    struct FieldSlice {
        int w = 0, h = 0;
        std::vector<Component> components;
        std::vector<std::vector<std::complex<float>>> forward, adjoint;  ///< [component][j * w + i]
        /// shape designs: [component][j * w + i] 1 where the field is known (a sampled
        /// site), 0 elsewhere (blank in the picture); empty: known everywhere
        std::vector<std::vector<std::uint8_t>> known;
        double wavelength_um = 0;
        /// shape designs: the dense box around the shapes (adjoint::ShapeFields' view), not
        /// the sparse sites the parameters move
        bool shapeView = false;
    };
    struct News {
        std::vector<Point> points;          ///< every iteration (not latest-wins)
        std::shared_ptr<const FieldSlice> fields;  ///< of the last iteration (latest wins)
        std::vector<double> rho_projected;  ///< of the last iteration
        QString stage;                      ///< what the worker does now
        bool hasRho = false;
        long long normalizationSteps = -1;  ///< the normalization run's steps so far (-1: none)
        std::vector<double> wavelengths_um; ///< the objective's wavelengths, once the problem is built
        /// shape designs, once the problem is built: the parameters, their bounds
        std::vector<std::string> shapeNames;
        std::vector<double> shapeLo, shapeHi, shapeP0;
    };
    struct Result {
        std::shared_ptr<const adjoint::ProjectProblem> problem;
        std::vector<double> rho, rho_projected;
        std::string stop;
        int next_iteration = 0;
        bool cancelledInNormalization = false;  ///< no problem, no design: ended before its first iteration
        /// shape designs: the problem (for an exact Resume; no cancel flag, no progress
        /// hook), the best values found and the figure of merit there
        std::shared_ptr<const adjoint::ShapeProblem> shape;
        std::vector<double> best_p;
        double best_objective = 0;
    };
    using Job = editor::BackgroundJob<Result, News>;
    bool launch(bool fresh);
    bool launchShapes(bool fresh, const Project& snapshot, const std::string& label,
                      const std::filesystem::path& projectDir, const std::filesystem::path& out);
    /// Sets the shape parameters' values in the document (the session's undo step).
    void pushShapeValues(const std::vector<double>& p);
    void showShapeValues();
    void takeNews(News& news);
    void jobFinished(editor::JobOutcome<Result>& outcome);
    void setState(State s);
    void setStatus(const QString& text, bool error = false);
    void rebuildEditor();
    void scheduleRebuild();
    void editObjective(const QString& text, const std::function<void(Json&)>& f);
    void editOptimizer(const QString& text, const std::function<void(Json&)>& f);
    /// What the reader (design_spec) says of `expression` as the project's
    /// design.objective.expression (with combine "expression"): its message naming the file
    /// and the field, or empty when it takes it.
    QString expressionProblem(const std::string& expression) const;
    /// Marks the formula field red with `problem` as tool tip (empty: unmarked).
    void markExpression(const QString& problem);
    void showDensity(const std::vector<double>& rho_projected);
    /// The per-wavelength curves for these wavelengths (none for one), replacing the old ones.
    void setCurveWavelengths(const std::vector<double>& wavelengths_um);
    void clearPlot();
    /// Places the legend below the axes (or removes it: its row goes).
    void showLegend(bool show);
    void showFields();
    static std::shared_ptr<const FieldSlice> fieldSlice(const adjoint::DesignFields& fields, const Scene& scene,
                                                        double wavelength_um);
    /// The fields of a shape design's evaluation (adjoint::ShapeProblem::on_fields) over its
    /// view box (adjoint::ShapeFields: the sites' bounding box grown by a margin; 3D: its
    /// middle z plane), every site known but those holding a source. Without a view (capped
    /// away) over the bounding box of its sites (3D: the z plane of the box holding the most
    /// sites), each component known at its sites only.
    static std::shared_ptr<const FieldSlice> shapeFieldSlice(const adjoint::ShapeFields& fields, double wavelength_um);
    void updateButtons();
    /// The label design_spec's messages name: the file, else the document's name.
    std::string fileLabel() const;
    /// True when the project has a design (a density region or shape parameters).
    bool hasDesignSection() const;
    /// Applies `edit` to a copy of the project and pushes it (one undo step) unless, in a
    /// design of shape parameters, the reader refuses the design of the copy while it takes
    /// the current one: then nothing is
    /// applied and the message shows in the status line; with `problem` it is returned
    /// there and the caller shows it, else the dock's fields are rebuilt from the project.
    bool commitDesign(const QString& text, const std::function<void(Project&)>& edit, QString* problem = nullptr);
    void rebuildShapeParameters(const Project& p, bool region);
    /// Reads row `row`'s widgets into design.shape_parameters[row] and applies it.
    bool applyShapeRow(int row);
    void markShapeRow(int row, const QString& problem);

    editor::EditorDocument* doc_;
    editor::Canvas* canvas_ = nullptr;
    QString outDir_;
    int threads_ = 0;
    State state_ = State::Idle;
    std::shared_ptr<std::atomic<bool>> pauseFlag_;
    bool stopRequested_ = false;
    int totalIterations_ = 0, nextIteration_ = 0, sessionIterations_ = 0;
    double wallSum_ = 0;
    double lastBeta_ = 0;
    std::array<int, 3> pixels_{0, 0, 0};
    std::vector<int> betaSteps_;
    std::vector<double> curveWavelengths_;
    std::shared_ptr<const Result> last_;
    // shape designs
    bool shapeRun_ = false;
    std::shared_ptr<const adjoint::ShapeProblem> shapeProblem_;  ///< of the last run (exact Resume)
    std::vector<std::string> shapeNames_;
    std::vector<double> shapeValues_, shapeLo_, shapeHi_;
    int shapeOffset_ = 0;            ///< the plot's index of the shape problem's evaluation 0
    std::uint64_t undoSession_ = 0;  ///< replaceProjectInSession's key of this session
    Project lastPushed_;             ///< the document as the run last left it
    bool pushing_ = false;           ///< pushShapeValues is changing the document
    bool editedDuringRun_ = false;   ///< another change of the document while a shape run ran
    QImage density_;
    std::shared_ptr<const FieldSlice> fields_;
    QImage fieldImage_;
    /// The chosen quantity: "" for |E|², else a component's name (kept while the list of
    /// components changes).
    QString fieldQuantityKey_;
    std::function<std::unique_ptr<QSettings>()> settings_;
    QElapsedTimer clock_;
    bool rebuildPending_ = false;

    QPushButton *startButton_, *pauseButton_, *resumeButton_, *stopButton_, *gdsButton_, *applyButton_;
    QLabel *status_, *iteration_, *densityLabel_, *noRegion_, *fieldLabel_;
    QComboBox *fieldSource_, *fieldQuantity_;
    QCustomPlot* plot_;
    QWidget* editor_;
    QTableWidget* terms_;
    QPushButton *addTerm_, *removeTerm_;
    QComboBox *normalize_, *goal_, *algorithm_, *combine_;
    QLineEdit *wavelengths_, *expression_;  ///< expression_: the combine formula (F0, F1, ...)
    QLabel* expressionLabel_;
    QSpinBox* maxIterations_;
    QWidget* shapeBox_;
    QTableWidget* shapes_;
    QPushButton *addShape_, *removeShape_;
    QLabel* shapeNote_;
    std::vector<QString> shapeProblems_;  ///< per row of shapes_: its marked message
    QString idleHint_;  ///< the status line's hint while nothing has happened yet
    Job job_{80};  ///< last: cancelled and joined first
};

}  // namespace golightly::app
