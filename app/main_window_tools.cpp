// MainWindow: the S-parameters, Sweep / Optimize and Port Modes docks (issues 21 and 23):
// their actions (Run > Compute S-parameters, Ctrl+F5; View > the docks' toggles), the
// default layout (tabs beside the Monitors dock, hidden until used), the results folders
// and opening a design of a sweep.
#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include "results_folder.hpp"
#include "main_window.hpp"
#include "mode_viewer.hpp"
#include "monitors_dock.hpp"
#include "run_controller.hpp"
#include "sparams_dock.hpp"
#include "inverse_design_dock.hpp"
#include "sweep_dock.hpp"

namespace golightly::app {

namespace {
QMenu* menuOf(QAction* a) {
    if (!a) return nullptr;
    for (QObject* o : a->associatedObjects())
        if (auto* m = qobject_cast<QMenu*>(o)) return m;
    return nullptr;
}
}  // namespace

void MainWindow::createToolsUi() {
    createToolsDocks();
    createToolsActions();
}

void MainWindow::createToolsDocks() {
    sparamsDock_ = new SParamsDock(this);
    sweepDock_ = new SweepDock(doc_, this);
    modeViewer_ = new ModeViewerDock(doc_, this);
    designDock_ = new InverseDesignDock(doc_, this);
    designDock_->setCanvas(canvas_);
    for (QDockWidget* d : {static_cast<QDockWidget*>(sparamsDock_), static_cast<QDockWidget*>(sweepDock_),
                           static_cast<QDockWidget*>(modeViewer_), static_cast<QDockWidget*>(designDock_)}) {
        addDockWidget(Qt::BottomDockWidgetArea, d);
        d->hide();
    }
    // the docks' choices are remembered with the window's settings
    auto store = [this] { return settings(); };
    sweepDock_->setSettingsStore(store);
    modeViewer_->setSettingsStore(store);
    designDock_->setSettingsStore(store);
    connect(designDock_, &InverseDesignDock::finished, this, [this](const QString& message) {
        statusBar()->showMessage(message, 8000);
    });
    auto designFolder = [this] {
        // a paused or running optimization keeps its checkpoint's folder
        if (designDock_->isRunning() || designDock_->state() == InverseDesignDock::State::Paused) return;
        designDock_->setOutputDir(designDirectory());
    };
    connect(doc_, &EditorDocument::filePathChanged, this, designFolder);
    designFolder();

    // a design of a sweep: the current document after the unsaved-changes prompt
    connect(sweepDock_, &SweepDock::openDesignRequested, this, &MainWindow::openDesign);
    // the S-parameters shown are labelled when they are not of the project as it is now
    // (another project opened by resetRunView: its saved S-parameters, if any)
    auto current = [this] { sparamsDock_->setCurrentProject(doc_->project(), doc_->filePath()); };
    connect(doc_, &EditorDocument::changed, this, current);
    connect(doc_, &EditorDocument::filePathChanged, this, current);
    current();
}

void MainWindow::createToolsActions() {
    auto* computeA = new QAction(tr("Compute &S-parameters"), this);
    computeA->setObjectName(QStringLiteral("run.sparams"));
    computeA->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
    computeA->setToolTip(tr("One run per port and mode of the project's ports; |S_ij| and phase in the S-parameters "
                            "dock (%1)").arg(computeA->shortcut().toString(QKeySequence::NativeText)));
    auto* cancelA = new QAction(tr("Cancel S-parameters"), this);
    cancelA->setObjectName(QStringLiteral("run.sparamsCancel"));
    cancelA->setEnabled(false);
    connect(computeA, &QAction::triggered, this, [this] { computeSParameters(); });
    connect(cancelA, &QAction::triggered, sparamsDock_, &SParamsDock::cancel);
    connect(sparamsDock_, &SParamsDock::computeRequested, computeA, &QAction::trigger);
    auto running = [computeA, cancelA](bool on) {
        computeA->setEnabled(!on);
        cancelA->setEnabled(on);
    };
    connect(sparamsDock_, &SParamsDock::finished, this, [this, running](bool, const QString& message) {
        running(false);
        statusBar()->showMessage(message, 8000);
    });

    QAction* sweepToggle = sweepDock_->toggleViewAction();
    sweepToggle->setObjectName(QStringLiteral("view.sweepDock"));
    sweepToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    QAction* sparamsToggle = sparamsDock_->toggleViewAction();
    sparamsToggle->setObjectName(QStringLiteral("view.sparamsDock"));
    QAction* modesToggle = modeViewer_->toggleViewAction();
    modesToggle->setObjectName(QStringLiteral("view.modeViewer"));
    modesToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_M));

    // inverse design (issue 53): the dock's Start, from the Run menu too
    auto* optimizeA = new QAction(tr("Optimize (&adjoint)"), this);
    optimizeA->setObjectName(QStringLiteral("run.optimizeAdjoint"));
    optimizeA->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    optimizeA->setToolTip(tr("Optimize the design (a design region's density or the shape parameters) with adjoint "
                             "gradients; live in the Inverse Design dock (%1)")
                              .arg(optimizeA->shortcut().toString(QKeySequence::NativeText)));
    connect(optimizeA, &QAction::triggered, this, [this] { optimizeAdjoint(); });
    QAction* designToggle = designDock_->toggleViewAction();
    designToggle->setObjectName(QStringLiteral("view.inverseDesignDock"));
    designToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_I));

    if (QMenu* runMenu = menuOf(action(QStringLiteral("run.start")))) {
        runMenu->addSeparator();
        runMenu->addAction(computeA);
        runMenu->addAction(cancelA);
        runMenu->addAction(sparamsToggle);
        runMenu->addAction(modesToggle);
        runMenu->addAction(sweepToggle);
        runMenu->addSeparator();
        runMenu->addAction(optimizeA);
        runMenu->addAction(designToggle);
    } else {
        addAction(computeA);
        addAction(optimizeA);
    }
    if (QMenu* viewMenu = menuOf(action(QStringLiteral("view.resetLayout")))) {
        QAction* before = action(QStringLiteral("view.resetLayout"));
        viewMenu->insertActions(before, {sparamsToggle, modesToggle, sweepToggle, designToggle});
    }
}

void MainWindow::applyToolsLayout() {
    if (!sparamsDock_ || !monitorsDock_) return;
    for (QDockWidget* d : {static_cast<QDockWidget*>(sparamsDock_), static_cast<QDockWidget*>(sweepDock_),
                           static_cast<QDockWidget*>(modeViewer_), static_cast<QDockWidget*>(designDock_)}) {
        d->setFloating(false);
        tabifyDockWidget(monitorsDock_, d);
        d->hide();
    }
    monitorsDock_->raise();
}

QString MainWindow::sparamsDirectory() const {
    const QString path = doc_->filePath();
    if (path.isEmpty())
        return QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation)).filePath(QStringLiteral("golightly-untitled_sparams"));
    return resultsFolderFor(path, QStringLiteral("_sparams"));
}

QString MainWindow::designDirectory() const {
    const QString path = doc_->filePath();
    if (path.isEmpty())
        return QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation)).filePath(QStringLiteral("golightly-untitled_design"));
    return resultsFolderFor(path, QStringLiteral("_design"));
}

bool MainWindow::optimizeAdjoint() {
    designDock_->show();
    designDock_->raise();
    if (!designDock_->isRunning() && designDock_->state() != InverseDesignDock::State::Paused)
        designDock_->setOutputDir(designDirectory());
    const bool ok = designDock_->start();
    if (!ok) statusBar()->showMessage(designDock_->statusText(), 8000);
    return ok;
}

bool MainWindow::computeSParameters(int threads) {
    sparamsDock_->show();
    sparamsDock_->raise();
    const QString label = doc_->filePath().isEmpty() ? doc_->displayName() : doc_->filePath();
    if (!sparamsDock_->start(doc_->project(), label, sparamsDirectory(), threads)) {
        statusBar()->showMessage(sparamsDock_->statusText(), 8000);
        return false;
    }
    sparamsOfDocument_ = sparamsDirectory();
    action(QStringLiteral("run.sparams"))->setEnabled(false);
    action(QStringLiteral("run.sparamsCancel"))->setEnabled(true);
    return true;
}

bool MainWindow::openDesign(const QString& glproj) {
    if (!maybeSave()) return false;
    if (!openFile(glproj)) return false;
    statusBar()->showMessage(tr("Opened the design %1").arg(QDir::toNativeSeparators(glproj)), 8000);
    return true;
}

}  // namespace golightly::app
