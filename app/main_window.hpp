// GoLightly IDE main window: menus, tool bars, the canvas and the docks around one
// EditorDocument; file handling (New/Open/Save/Save As, recent files, unsaved-changes
// prompt), settings (QSettings), autosave to a recovery file offered at the next start.
#pragma once

#include <QMainWindow>
#include <QKeySequence>
#include <QPointer>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>
#include <variant>

#include "bitmap_import.hpp"
#include "canvas.hpp"
#include "docks.hpp"
#include "layer_stack_dock.hpp"
#include "editor_document.hpp"
#include "step_import_dialog.hpp"
#include "tools.hpp"

namespace golightly::viewport { class FieldView; class StructureView3D; }
namespace golightly::plots { class MonitorsDock; }

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QTimer;
class QSettings;
class QStackedWidget;
class QProgressBar;
class QComboBox;
class QCheckBox;
class QDoubleSpinBox;
class QDockWidget;
class QToolBar;

namespace golightly::app {

using namespace golightly::editor;
class RunController;
class StartPage;
class SParamsDock;
class SweepDock;
class ModeViewerDock;
class InverseDesignDock;
struct SolverSettings;

/// Where the main window keeps settings and recovery files (tests use their own).
struct MainWindowOptions {
    QString settingsOrganization = QStringLiteral("GoLightly");
    QString settingsApplication = QStringLiteral("golightly");
    QString recoveryDir;             ///< empty: <AppLocalDataLocation>/recovery
    int autosaveIntervalMs = 3 * 60 * 1000;
    Prompts* prompts = nullptr;      ///< nullptr: message boxes
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;
    /// A new window built in the current language (after View > Language) holding this
    /// window's project (file, unsaved changes: marked modified), layout and view; the
    /// caller shows it and deletes this one (main.cpp does on languageChanged()).
    MainWindow* recreate();

Q_SIGNALS:
    /// A language was chosen and its translators installed: rebuild the window (recreate()).
    void languageChanged();

public:

    EditorDocument* document() const { return doc_; }
    Canvas* canvas() const { return canvas_; }
    ToolSettings& toolSettings() { return toolSettings_; }
    LayersDock* layersDock() const { return layersDock_; }
    MaterialsDock* materialsDock() const { return materialsDock_; }
    PropertiesDock* propertiesDock() const { return propertiesDock_; }
    RunSetupDock* runSetupDock() const { return runDock_; }
    // ---- 3D (issue 16, main_window_3d.cpp)
    LayerStackDock* layerStackDock() const { return layerStackDock_; }
    QDockWidget* structure3dDock() const { return structure3dDock_; }
    viewport::StructureView3D* structureView3d() const { return structureView3d_; }
    /// The live slice of a 3D run (Run tool bar): plane 0 = xy, 1 = xz, 2 = yz; position um.
    /// While a run is going it moves the field view's slice without restarting; otherwise it
    /// sets run.frames (one undo step).
    void setSlice(int planeIndex, double positionUm);
    /// The action of a tool by its object name ("tool.rectangle", ...), or any action by name.
    QAction* action(const QString& objectName) const;
    QStringList recentFiles() const;

    bool openFile(const QString& path);
    bool saveFile();
    bool saveFileAs(const QString& path);
    /// Asks whether to save unsaved changes; false when the user cancels.
    bool maybeSave();

    /// Writes the canvas (whole domain and PML band, no grid) to `path`: SVG when it ends in
    /// .svg, else PNG (about 1600 pixels on the long side). Errors go to the prompts.
    bool exportCanvas(const QString& path);
    /// Replaces the document (after the unsaved-changes prompt) with an imported bitmap
    /// model; one undo step. Errors go to the prompts.
    bool importBitmapFile(const QString& path, const BitmapImportOptions& options);
    /// Opens the STEP import dialog (window-modal, not blocking) reading `path`; File >
    /// Import STEP and a .step/.stp file dropped on the window or the canvas come here.
    StepImportDialog* openStepImport(const QString& path);
    /// The open STEP import dialog, if any.
    StepImportDialog* stepImportDialog() const { return stepDialog_; }
    /// Asks for a STEP file and re-imports the step shape `item` from it (reimport_step),
    /// reading it with a progress dialog.
    void reimportStep(const ItemRef& item);

    // ---- autosave and recovery
    QString recoveryFile() const;
    /// Writes the recovery file now when the document has unsaved changes.
    bool autosaveNow();
    /// If a recovery file from an earlier session exists, offers it (Prompts::askRecover)
    /// and loads it into the document when accepted. Returns true when recovered.
    bool offerRecovery();
    void removeRecoveryFile();

    // ---- running (main_window_run.cpp)
    RunController* runController() const { return run_; }
    viewport::FieldView* fieldView() const { return fieldView_; }
    plots::MonitorsDock* monitorsDock() const { return monitorsDock_; }
    /// Runs a snapshot of the document (Run action). False (with a message) when a run is
    /// going or the project cannot start. `settings` null: the GUI's settings.
    bool startRun(const SolverSettings* settings = nullptr);
    /// The results folder of the document: <project stem>_results next to the project
    /// (as golightly-cli run), or a temporary folder for an unsaved project.
    QString resultsDirectory() const;
    /// Shows the field view (true) or the editor canvas (false) in the centre.
    void showFieldView(bool on);
    /// Reopens a results folder in the Monitors dock.
    bool openResults(const QString& dir);
    /// Screenshot of a run in progress (README): starts a run, pauses it once the main run
    /// has reached `atTimeFs`, saves the window to `path` (PNG), stops the run and calls
    /// `done(ok)`.
    void runScreenshot(const QString& path, double atTimeFs, std::function<void(bool)> done,
                       const QString& phase = QStringLiteral("main"));

protected:
    bool eventFilter(QObject* o, QEvent* e) override;
    void closeEvent(QCloseEvent*) override;
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;

private:
    void createActions();
    // one per menu, each in its own file (main_window_<menu>_menu.cpp)
    QMenu* createFileMenu();
    /// Import (bitmap model, STEP, GDS) and export (GDS, PNG, SVG) actions, appended to `file`.
    void createImportExportActions(QMenu* file);
    void createEditMenu();
    void createViewMenu();
    void createToolsMenu();
    void createToolOptionsBar();
    void createHelpMenu();
    /// A new action named `name` ("menu.command") with text, icon and shortcut.
    QAction* makeAction(const QString& name, const QString& text, const QString& iconName, QKeySequence key = {});
    void createDocks();
    /// The status bar's tool hint (left), cursor position and zoom / grid read-outs (right).
    void createStatusBarReadouts();
    /// The default layout (kept for View > Reset Layout), then the saved geometry, dock
    /// state, grid and snap, and the recent-files menu.
    void restoreSettings();
    void setTool(Tool* tool);
    void updateTitle();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void exportImage(bool svg);
    void importBitmap();
    void copySelection();
    void paste();
    std::unique_ptr<QSettings> settings() const;
    // ---- the run UI (main_window_run.cpp): createRunUi calls the rest in this order, which
    // is the order of the signal connections and of the status bar's widgets
    void createRunUi(QMenu* fileMenu);
    /// The actions of the Run menu that the tool bar and live edit use too.
    struct RunActions {
        QAction* start;
        QAction* pause;
        QAction* resume;
        QAction* stop;
        QAction* fieldView;  ///< "view.field", checkable
        QAction* liveEdit;   ///< "run.liveEdit", checkable, remembered in the settings
    };
    /// The centre: a stack of the canvas, the field view (registered with the canvas in
    /// world coordinates, live edit on it) and the start page.
    void createCentralStack();
    /// Run / Pause / Resume / Stop, Show Field View, Live Edit: the Run menu; File > Open Run
    /// Results inserted into `fileMenu`.
    RunActions createRunActions(QMenu* fileMenu);
    /// The Run tool bar: the actions, the live-edit box, field quantity, colour scale, frames/s.
    void createRunToolBar(const RunActions& actions);
    /// The run label and progress bar in the status bar; the docks' messages go there too.
    void createRunStatus();
    /// Document changes during a run reach the solver while `liveA` is checked.
    void connectLiveEdit(QAction* liveA);
    /// The field picture of a resonance (a second short run) and its Stop button.
    void createResonancePicture();
    /// The RunController's frames, energy, live monitors and progress to the view and docks.
    void connectRunProgress();
    /// The end of a run: results, pending results move, divergence marks, errors.
    void connectRunFinished();
    void updateRunActions();
    /// A run did not start: the status bar and the Monitors dock say why, nothing shows "Running...".
    void setRunIdle(const QString& message);
    /// Save As of a project never saved before: the results of its runs and S-parameters
    /// made since (in temporary folders) move next to the file, where Open finds them.
    void adoptUntitledResults(const QString& oldResults, const QString& oldSparams);
    /// The results folder of the last run of this document (empty after Open / New) and
    /// the S-parameters folder of its last computation: what Save As may adopt.
    QString runResultsOfDocument_, sparamsOfDocument_;
    /// A run going during Save As: its folder moves here when it ends.
    QString pendingResultsMove_;
    /// Moves folder `from` to `to` (which must not exist): a rename, else (another file
    /// system, e.g. /tmp to the home folder) a copy and the removal of `from`. False, with
    /// `to` not created, when it fails.
    static bool moveFolder(const QString& from, const QString& to);
public:
    /// Another project was opened or created: stops a run of the previous one, clears the
    /// field view, the plots and the run status; shows the new project's saved results
    /// (labelled "Saved results of ...") when its results folder has them.
    void resetRunView();

    // ---- help and the start page
    /// Shows the start page in the centre (new project, examples, recent files, guide).
    void showStartPage();
    bool startPageShown() const;
    StartPage* startPage() const { return startPage_; }
    QUrl userGuideUrl() const;
    void openUserGuide();
    /// (command, keys) of every action with a shortcut, sorted by command.
    QList<QPair<QString, QString>> shortcutList() const;
    void showShortcuts();
    /// Puts the docks back where they start (View > Reset Layout).
    void resetLayout();

    // ---- S-parameters, sweeps and port modes (issues 21, 23; main_window_tools.cpp)
    SParamsDock* sparamsDock() const { return sparamsDock_; }
    SweepDock* sweepDock() const { return sweepDock_; }
    ModeViewerDock* modeViewerDock() const { return modeViewer_; }
    /// Run > Compute S-parameters: starts the S-parameter runs of the document's ports (off
    /// the GUI thread) into sparamsDirectory(); false (message in the dock) when it cannot.
    bool computeSParameters(int threads = 0);
    /// <project stem>_sparams next to the project (golightly-cli sparams' default), or a
    /// temporary folder for an unsaved project.
    QString sparamsDirectory() const;
    // ---- inverse design (issue 53; main_window_tools.cpp)
    InverseDesignDock* inverseDesignDock() const { return designDock_; }
    /// Run > Optimize (adjoint): shows the Inverse Design dock and starts a fresh
    /// optimization of the design region; false (message in the dock) when it cannot.
    bool optimizeAdjoint();
    /// <project stem>_design next to the project (checkpoint.json, history.csv,
    /// density.csv), or a temporary folder for an unsaved project.
    QString designDirectory() const;
    /// Opens a design of a sweep (its design.glproj) as the document, after the
    /// unsaved-changes prompt.
    bool openDesign(const QString& glproj);
private:
    void createToolsUi();
    /// The S-parameters, Sweep / Optimize, Port Modes and Inverse Design docks (hidden),
    /// their settings and results folders, following the document.
    void createToolsDocks();
    /// Compute / Cancel S-parameters and Optimize (Run menu), the docks' toggles (Run and
    /// View menus); called after createToolsDocks.
    void createToolsActions();
    void applyToolsLayout();
    SParamsDock* sparamsDock_ = nullptr;
    SweepDock* sweepDock_ = nullptr;
    ModeViewerDock* modeViewer_ = nullptr;
    InverseDesignDock* designDock_ = nullptr;
    void applyDefaultLayout();
    void create3dUi();
    /// The layer stack dock and the 3D structure view dock (selection shared with the canvas).
    void create3dDocks();
    /// The Slice tool bar of 3D runs (plane, position, back / forward), also the Run setup
    /// dock's live slice.
    void createSliceToolBar();
    /// The 3D drawing tools after the 2D ones in the Tools menu and tool bar.
    void create3dTools();
    /// The Examples menu before Help: every bundled example.
    void createExamplesMenu();
    void apply3dLayout();
    void sync3dUi();
    LayerStackDock* layerStackDock_ = nullptr;
    QDockWidget* structure3dDock_ = nullptr;
    viewport::StructureView3D* structureView3d_ = nullptr;
    QComboBox* slicePlane_ = nullptr;
    QDoubleSpinBox* slicePosition_ = nullptr;
    QToolBar* sliceBar_ = nullptr;
    bool syncing3d_ = false;
    QByteArray defaultState_;
    QByteArray stateBeforeStartPage_;

    MainWindowOptions options_;
    std::unique_ptr<Prompts> ownPrompts_;
    Prompts* prompts_;
    EditorDocument* doc_;
    Canvas* canvas_;
    ToolSettings toolSettings_;
    std::vector<Tool*> tools_;
    QActionGroup* toolGroup_ = nullptr;
    LayersDock* layersDock_ = nullptr;
    MaterialsDock* materialsDock_ = nullptr;
    PropertiesDock* propertiesDock_ = nullptr;
    RunSetupDock* runDock_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* cursorLabel_ = nullptr;
    QLabel* zoomLabel_ = nullptr;
    QTimer* autosaveTimer_ = nullptr;
    std::optional<std::variant<Shape, Source, Monitor>> clipboard_;
    // running
    RunController* run_ = nullptr;
    viewport::FieldView* fieldView_ = nullptr;
    plots::MonitorsDock* monitorsDock_ = nullptr;
    QStackedWidget* centralStack_ = nullptr;
    QProgressBar* runProgress_ = nullptr;
    QLabel* runLabel_ = nullptr;
    QComboBox* quantityCombo_ = nullptr;
    QDoubleSpinBox* fpsSpin_ = nullptr;
    QPointer<StepImportDialog> stepDialog_;
    StartPage* startPage_ = nullptr;
    QLabel* toolHint_ = nullptr;
};

}  // namespace golightly::app
