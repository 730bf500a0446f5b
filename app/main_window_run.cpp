// MainWindow: running from the IDE (issue 5): Run / Pause / Resume / Stop, the field
// view in the centre, the Monitors dock, the progress bar in the status bar.
#include <QAction>
#include <algorithm>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QLocale>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>

#include "results_folder.hpp"
#include "ui_number.hpp"
#include "elided_label.hpp"
#include "mode_viewer.hpp"
#include "sparams_dock.hpp"
#include "inverse_design_dock.hpp"
#include "structure_view_3d.hpp"
#include "field_view.hpp"
#include "layer_stack_dock.hpp"
#include "main_window.hpp"
#include "monitors_dock.hpp"
#include "run_checks.hpp"
#include "run_controller.hpp"
#include "start_page.hpp"

#include <QMouseEvent>

namespace golightly::app {

void MainWindow::createRunUi(QMenu* fileMenu) {
    // The order is the signals' connection order and the status bar's widget order.
    run_ = new RunController(this);
    createCentralStack();

    // ---- Monitors dock
    monitorsDock_ = new plots::MonitorsDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, monitorsDock_);

    const RunActions actions = createRunActions(fileMenu);
    createRunToolBar(actions);
    createRunStatus();
    connectLiveEdit(actions.liveEdit);
    createResonancePicture();
    connectRunProgress();
    connectRunFinished();
    updateRunActions();
}

void MainWindow::createCentralStack() {
    // ---- centre: the canvas or the field view, registered in world coordinates
    fieldView_ = new viewport::FieldView;
    QWidget* canvas = takeCentralWidget();
    centralStack_ = new QStackedWidget;
    centralStack_->addWidget(canvas);
    centralStack_->addWidget(fieldView_);
    startPage_ = new StartPage;
    centralStack_->addWidget(startPage_);  // index 2
    setCentralWidget(centralStack_);
    connect(startPage_, &StartPage::newProjectRequested, this, [this] { action(QStringLiteral("file.new"))->trigger(); showFieldView(false); });
    connect(startPage_, &StartPage::openRequested, this, [this] { action(QStringLiteral("file.open"))->trigger(); });
    connect(startPage_, &StartPage::openFileRequested, this, [this](const QString& path) {
        if (maybeSave()) openFile(path);
    });
    connect(startPage_, &StartPage::userGuideRequested, this, &MainWindow::openUserGuide);
    // Live edit: with a drawing tool, the left button paints or draws on the field view as on
    // the canvas (same world coordinates); the middle button pans.
    fieldView_->editHandler = [this](QMouseEvent* e, QPointF world) {
        QAction* live = action(QStringLiteral("run.liveEdit"));
        Tool* tool = canvas_->tool();
        if (!live || !live->isChecked() || !tool || tool == tools_.front()) return false;  // Select: pan
        switch (e->type()) {
        case QEvent::MouseButtonPress: tool->mousePress(e, world); break;
        case QEvent::MouseMove: tool->mouseMove(e, world); break;
        case QEvent::MouseButtonRelease: tool->mouseRelease(e, world); break;
        default: return false;
        }
        return true;
    };
    connect(canvas_, &Canvas::viewChanged, this,
            [this] { fieldView_->setView(canvas_->pixelsPerUm(), canvas_->viewCenter()); });
    connect(fieldView_, &viewport::FieldView::viewChanged, this,
            [this](double s, QPointF c) { canvas_->setView(s, c); });
    connect(fieldView_, &viewport::FieldView::cursorMoved, canvas_, &Canvas::cursorMoved);
    fieldView_->setFrameSource(run_->frameSource());
}

MainWindow::RunActions MainWindow::createRunActions(QMenu* fileMenu) {
    auto make = [this](const QString& name, const QString& text, QKeySequence key) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setShortcut(key);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(QString(text).remove(QLatin1Char('&')), key.toString()));
        return a;
    };
    QAction* runA = make(QStringLiteral("run.start"), tr("&Run"), QKeySequence(Qt::Key_F5));
    QAction* pauseA = make(QStringLiteral("run.pause"), tr("&Pause"), QKeySequence(Qt::Key_F6));
    QAction* resumeA = make(QStringLiteral("run.resume"), tr("Res&ume"), QKeySequence(Qt::Key_F7));
    QAction* stopA = make(QStringLiteral("run.stop"), tr("&Stop"), QKeySequence(Qt::SHIFT | Qt::Key_F5));
    runA->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    pauseA->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    resumeA->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    stopA->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    QAction* fieldA = make(QStringLiteral("view.field"), tr("Show &Field View"), QKeySequence(Qt::Key_F8));
    fieldA->setCheckable(true);
    QAction* resultsA = new QAction(tr("Open Run &Results..."), this);
    resultsA->setObjectName(QStringLiteral("file.openResults"));

    // Live edit: while a run is going, edits of the structure reach the solver.
    QAction* liveA = new QAction(tr("&Live Edit"), this);
    liveA->setObjectName(QStringLiteral("run.liveEdit"));
    liveA->setCheckable(true);
    liveA->setChecked(settings()->value(QStringLiteral("run/liveEdit"), false).toBool());
    liveA->setToolTip(tr("Live edit: while a run is going, painting or moving shapes updates the solver's "
                         "materials and the wave responds (the spectra are then not comparable)"));

    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addActions({runA, pauseA, resumeA, stopA});
    runMenu->addSeparator();
    runMenu->addAction(liveA);
    runMenu->addAction(fieldA);
    runMenu->addAction(monitorsDock_->toggleViewAction());
    fileMenu->insertAction(fileMenu->actions().value(3), resultsA);

    connect(runA, &QAction::triggered, this, [this] { startRun(); });
    connect(pauseA, &QAction::triggered, run_, &RunController::pause);
    connect(resumeA, &QAction::triggered, run_, &RunController::resume);
    connect(stopA, &QAction::triggered, run_, &RunController::stop);
    connect(fieldA, &QAction::toggled, this, &MainWindow::showFieldView);
    connect(resultsA, &QAction::triggered, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open run results"), resultsDirectory());
        if (!dir.isEmpty()) openResults(dir);
    });
    return {runA, pauseA, resumeA, stopA, fieldA, liveA};
}

void MainWindow::createRunToolBar(const RunActions& actions) {
    QAction* liveA = actions.liveEdit;
    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("RunToolBar"));
    bar->addActions({actions.start, actions.pause, actions.resume, actions.stop, actions.fieldView});
    auto* liveBox = new QCheckBox(tr("Live edit"));
    liveBox->setObjectName(QStringLiteral("run.liveEditBox"));
    liveBox->setToolTip(liveA->toolTip());
    liveBox->setChecked(liveA->isChecked());
    connect(liveBox, &QCheckBox::toggled, liveA, &QAction::setChecked);
    connect(liveA, &QAction::toggled, liveBox, &QCheckBox::setChecked);
    bar->addWidget(liveBox);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Field ")));
    quantityCombo_ = new QComboBox;
    quantityCombo_->setObjectName(QStringLiteral("run.quantity"));
    using viewport::FieldQuantity;
    for (FieldQuantity q : {FieldQuantity::Ez, FieldQuantity::Hx, FieldQuantity::Hy, FieldQuantity::Hz,
                            FieldQuantity::Ex, FieldQuantity::Ey, FieldQuantity::E2})
        quantityCombo_->addItem(QString::fromStdString(viewport::to_string(q)), int(q));
    quantityCombo_->setToolTip(tr("Field quantity shown while running"));
    bar->addWidget(quantityCombo_);
    auto* autoScale = new QCheckBox(tr("Auto scale"));
    autoScale->setObjectName(QStringLiteral("run.autoScale"));
    autoScale->setChecked(true);
    auto* scaleSpin = new QDoubleSpinBox;
    scaleSpin->setObjectName(QStringLiteral("run.scale"));
    scaleSpin->setRange(1e-9, 1e9);
    scaleSpin->setDecimals(4);
    scaleSpin->setValue(1.0);
    scaleSpin->setEnabled(false);
    scaleSpin->setToolTip(tr("Fixed colour scale: half range (symmetric)"));
    bar->addWidget(autoScale);
    bar->addWidget(scaleSpin);
    bar->addWidget(new QLabel(tr(" Frames/s ")));
    fpsSpin_ = new QDoubleSpinBox;
    fpsSpin_->setObjectName(QStringLiteral("run.fps"));
    fpsSpin_->setRange(0, 120);
    fpsSpin_->setDecimals(0);
    fpsSpin_->setValue(30);
    fpsSpin_->setToolTip(tr("Frames per second sent by the solver (0: none)"));
    bar->addWidget(fpsSpin_);
    connect(autoScale, &QCheckBox::toggled, this, [this, scaleSpin](bool on) {
        scaleSpin->setEnabled(!on);
        fieldView_->setAutoScale(on);
        if (!on) fieldView_->setFixedScale(scaleSpin->value());
        run_->setFrameScale(fieldView_->requestedScale());
    });
    connect(scaleSpin, &QDoubleSpinBox::valueChanged, fieldView_, &viewport::FieldView::setFixedScale);
    connect(scaleSpin, &QDoubleSpinBox::valueChanged, this, [this] { run_->setFrameScale(fieldView_->requestedScale()); });
    connect(quantityCombo_, &QComboBox::currentIndexChanged, this, [this] {
        run_->setQuantity(viewport::FieldQuantity(quantityCombo_->currentData().toInt()));
    });
    connect(fpsSpin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (v > 0) fieldView_->setFramesPerSecond(v);
    });
}

void MainWindow::createRunStatus() {
    // ---- status bar: progress
    runLabel_ = new ElidedLabel;  // a results path never pushes the tool hint out
    runLabel_->setObjectName(QStringLiteral("run.status"));
    runProgress_ = new QProgressBar;
    runProgress_->setObjectName(QStringLiteral("run.progress"));
    runProgress_->setMaximumWidth(240);
    runProgress_->setMinimumWidth(200);  // room for "Reference run 100%"
    runProgress_->setRange(0, 1000);
    runProgress_->setVisible(false);
    // permanent (left of the cursor read-out): temporary status messages do not hide them
    statusBar()->insertPermanentWidget(0, runLabel_, 2);
    statusBar()->insertPermanentWidget(1, runProgress_);

    // Normalize ticked in Run setup: what the reference run will contain (run_checks.hpp)
    connect(runDock_, &RunSetupDock::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 10000); });
    connect(monitorsDock_, &plots::MonitorsDock::normalizationRequested, this, [this] {
        const QString what = set_up_normalization(doc_);
        monitorsDock_->setNormalizationOffer(false);
        statusBar()->showMessage(what, 10000);
    });
}

void MainWindow::connectLiveEdit(QAction* liveA) {
    // ---- live edit: every document change during a run goes to the solver (compiled off
    // the GUI thread, latest wins); off: the run keeps its snapshot.
    connect(liveA, &QAction::toggled, this, [this](bool on) {
        settings()->setValue(QStringLiteral("run/liveEdit"), on);
        if (on && run_->isRunning()) run_->submitLiveEdit(doc_->project());  // edits made while off
    });
    connect(doc_, &EditorDocument::changed, this, [this, liveA] {
        if (liveA->isChecked() && run_->isRunning()) run_->submitLiveEdit(doc_->project());
    });
    connect(run_, &RunController::liveEditApplied, this, [this](double ms, bool changed, int edits) {
        if (!changed) return;
        monitorsDock_->setSpectraComparable(false);
        fieldView_->setProject(doc_->project());
        statusBar()->showMessage(tr("Live edit %1 applied to the run %2 ms after the edit").arg(edits).arg(golightly::ui_number(ms, 'f', 0)),
                                 3000);
    });
    connect(run_, &RunController::liveEditRefused, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Live edit not applied: %1").arg(message), 8000);
    });
}

void MainWindow::createResonancePicture() {
    // a double-click on a resonance: its field picture from a second short run (Meep users'
    // narrow-band run), in the field view when done; a Stop button in the status bar meanwhile
    auto* picture = new ResonancePictureRun(this);
    picture->setObjectName(QStringLiteral("resonancePicture"));
    auto* busy = new QWidget;
    busy->setObjectName(QStringLiteral("resonancePictureBusy"));
    auto* row = new QHBoxLayout(busy);
    row->setContentsMargins(0, 0, 0, 0);
    auto* text = new QLabel;
    auto* stop = new QPushButton(tr("Stop picture"));
    stop->setObjectName(QStringLiteral("resonancePictureStop"));
    row->addWidget(text);
    row->addWidget(stop);
    busy->setVisible(false);
    statusBar()->addPermanentWidget(busy);
    connect(stop, &QPushButton::clicked, picture, &ResonancePictureRun::cancel);
    connect(picture, &ResonancePictureRun::progressText, text, &QLabel::setText);
    connect(monitorsDock_, &plots::MonitorsDock::resonancePictureRequested, this,
            [this, picture, busy, text](double f, double q, const QString& monitor) {
                if (run_->isRunning()) {
                    statusBar()->showMessage(tr("The field picture is a second run: wait for this run to end."), 8000);
                    return;
                }
                const QString dir = QDir(resultsDirectory()).filePath(QStringLiteral("resonance_%1THz").arg(f * 1e-12, 0, 'f', 4));
                const QString label = doc_->filePath().isEmpty() ? doc_->displayName() : doc_->filePath();
                if (!picture->start(doc_->project(), f, q, monitor, label, dir)) return;  // failed() says why
                text->setText(tr("%1: compiling...").arg(picture->title()));
                busy->setVisible(true);
            });
    connect(picture, &ResonancePictureRun::pictureReady, this,
            [this, busy](std::shared_ptr<const viewport::FieldFrame> frame, const QString& title) {
                busy->setVisible(false);
                fieldView_->clearFrames();
                fieldView_->showFrame(std::move(frame));
                fieldView_->setPhaseLabel(title);
                action(QStringLiteral("view.field"))->setChecked(true);
                statusBar()->showMessage(tr("Field picture of %1 (the real part at its frequency)").arg(title), 10000);
            });
    connect(picture, &ResonancePictureRun::stopped, this, [this, busy](const QString& message) {
        busy->setVisible(false);
        statusBar()->showMessage(message, 10000);
    });
    connect(picture, &ResonancePictureRun::failed, this, [this, busy](const QString& message) {
        busy->setVisible(false);
        statusBar()->showMessage(message, 10000);
        prompts_->error(tr("Resonance field picture"), message);
    });
}

void MainWindow::connectRunProgress() {
    connect(run_, &RunController::structureReady, fieldView_, &viewport::FieldView::setStructure);
    connect(run_, &RunController::energy, this, [this](const EnergyPoint& e) {
        monitorsDock_->addEnergyPoint(e.phase, e.timeFs, e.db);
    });
    connect(run_, &RunController::liveMonitors, this,
            [this](std::shared_ptr<const LiveMonitors> live) { monitorsDock_->setLive(*live); });
    connect(run_, &RunController::progress, this, [this](const ProgressInfo& p) {
        // progress of this phase from the stop rule expected to end it (run_progress.hpp)
        const ProgressEstimate e = run_->estimate();
        const bool reference = p.phase == "reference";
        const QString phase = reference ? tr("Reference run") : tr("Main run");
        runProgress_->setValue(int(1000 * std::clamp(e.fraction, 0.0, 1.0)));
        runProgress_->setFormat(QStringLiteral("%1 %p%").arg(phase));
        runProgress_->setToolTip(e.ruleText);
        fieldView_->setPhaseLabel(reference ? tr("Reference run (normalization)") : tr("Main run"));
        const QString eta = e.etaS < 0 ? QStringLiteral("?")
                            : (e.etaIsUpperBound && e.etaS >= 1) ? tr("at most %1").arg(formatEta(e.etaS))
                                                                 : formatEta(e.etaS);
        runLabel_->setText(tr("%1: %2 fs, step %3; %4; ETA %5; %6 Mcells/s%7")
                               .arg(phase)
                               .arg(golightly::ui_number(p.time_fs, 'f', 1))
                               .arg(p.step)
                               .arg(e.ruleText)
                               .arg(eta)
                               .arg(golightly::ui_number(p.mcells_per_s, 'f', 1))
                               .arg(run_->isPaused() ? tr(" (paused)") : QString()));
    });
    connect(run_, &RunController::pausedChanged, this, [this](bool paused) {
        updateRunActions();
        const QString suffix = tr(" (paused)");
        QString t = runLabel_->text();
        if (paused && !t.endsWith(suffix)) runLabel_->setText(t + suffix);
        if (!paused && t.endsWith(suffix)) runLabel_->setText(t.chopped(suffix.size()));
    });
}

void MainWindow::connectRunFinished() {
    connect(run_, &RunController::finished, this, [this](bool ok, const QString& message) {
        runProgress_->setVisible(false);
        fieldView_->setPhaseLabel(QString());
        if (auto r = run_->lastResult()) monitorsDock_->setFinal(*r);
        else monitorsDock_->reset(message);  // a failed run: why, never "Running..."
        monitorsDock_->setNormalizationOffer(offers_normalization(doc_->project()));
        // saved (Save As) while it ran: the results join the project's file now
        if (!pendingResultsMove_.isEmpty()) {
            const QString to = pendingResultsMove_;
            pendingResultsMove_.clear();
            const QString from = run_->resultsDir();
            if (!QFileInfo::exists(to) && QFileInfo::exists(from) && moveFolder(from, to)) {
                run_->setResultsDir(to);
                runResultsOfDocument_ = to;
            }
        }
        runLabel_->setText(ok ? tr("%1 Results: %2").arg(message, QDir::toNativeSeparators(run_->resultsDir()))
                              : message);
        updateRunActions();
        const bool bad = !ok || (run_->lastResult() && run_->lastResult()->stop_reason == StopReason::Diverged);
        // a divergence: the canvas marks where the fields grew first (cleared at the next run)
        if (const auto r = run_->lastResult(); r && r->stop_reason == StopReason::Diverged && r->divergence &&
                                                r->divergence->box_max[0] >= r->divergence->box_min[0]) {
            const DivergenceInfo& d = *r->divergence;
            canvas_->setDivergenceRegion(QRectF(QPointF(d.box_min_um[0], d.box_min_um[1]),
                                                QPointF(d.box_max_um[0], d.box_max_um[1])),
                                         tr("The fields diverged here: %1").arg(QString::fromStdString(d.region_name)));
            if (structureView3d_ && r->dimensions == 3)
                structureView3d_->setHighlight(Box3{{d.box_min_um[0], d.box_min_um[1], d.box_min_um[2]},
                                                    {d.box_max_um[0], d.box_max_um[1], d.box_max_um[2]}});
            showFieldView(false);
        }
        if (bad) prompts_->error(tr("Run failed"), message);
    });
}

void MainWindow::updateRunActions() {
    const bool running = run_->isRunning();
    const bool paused = run_->isPaused();
    action(QStringLiteral("run.start"))->setEnabled(!running);
    action(QStringLiteral("run.pause"))->setEnabled(running && !paused);
    action(QStringLiteral("run.resume"))->setEnabled(running && paused);
    action(QStringLiteral("run.stop"))->setEnabled(running);
}

QString MainWindow::resultsDirectory() const {
    const QString path = doc_->filePath();
    if (path.isEmpty())
        return QStandardPaths::writableLocation(QStandardPaths::TempLocation) + QStringLiteral("/golightly_untitled_results");
    return resultsFolderFor(path, QStringLiteral("_results"));  // the user's documents for an installed example
}

bool MainWindow::startRun(const SolverSettings* settings) {
    if (run_->isRunning()) {
        statusBar()->showMessage(tr("A run is going already."), 4000);
        return false;
    }
    // problems first, all of them, in the user's words; the run dock stays idle
    QStringList problems = propertiesDock_->problems();
    if (layerStackDock_) problems << layerStackDock_->problems();
    problems << run_problems(doc_->project());
    if (!problems.isEmpty()) {
        const QString list = QStringLiteral("\u2022 ") + problems.join(QStringLiteral("\n\u2022 "));
        setRunIdle(tr("Not started: %n problem(s) to fix.", "", int(problems.size())));
        prompts_->error(tr("Cannot run"), tr("The run cannot start until these are fixed:\n\n%1").arg(list));
        return false;
    }
    SolverSettings s = settings ? *settings : SolverSettings{};
    if (!settings) s.framesPerSecond = fpsSpin_->value();
    const Project snapshot = doc_->project();  // immutable copy: the editor stays free
    for (const QString& w : setup_warnings(snapshot)) statusBar()->showMessage(w, 12000);
    monitorsDock_->clear();
    monitorsDock_->setNormalizationOffer(offers_normalization(snapshot));
    fieldView_->clearFrames();
    fieldView_->setProject(snapshot);
    fieldView_->setView(canvas_->pixelsPerUm(), canvas_->viewCenter());
    const QString label = doc_->filePath().isEmpty() ? doc_->displayName() : doc_->filePath();
    // CUDA-OpenGL interop when the field view's GL context is on the CUDA device
    if (!s.interop) s.interop = fieldView_->interopExchange();
    if (s.interop) s.interop->set_enabled(true);
    run_->setFrameScale(fieldView_->requestedScale());
    if (!run_->start(snapshot, label, resultsDirectory(), s)) {
        setRunIdle(tr("The run could not start."));
        return false;
    }
    runResultsOfDocument_ = resultsDirectory();
    pendingResultsMove_.clear();
    bool away = false;
    if (!doc_->filePath().isEmpty()) resultsFolderFor(doc_->filePath(), QString(), &away);
    if (away)
        statusBar()->showMessage(tr("%1 is read-only (an installed example): the results go to %2")
                                     .arg(QDir::toNativeSeparators(QFileInfo(doc_->filePath()).absolutePath()),
                                          QDir::toNativeSeparators(runResultsOfDocument_)),
                                 15000);
    if (!fieldView_->interopStatus().isEmpty())
        statusBar()->showMessage(tr("Field frames: %1").arg(fieldView_->interopStatus()), 6000);
    // the field view shows the quantity chosen in the tool bar when the polarization has it
    const auto def = snapshot.domain.dimensions == 3 ? viewport::FieldQuantity(int(snapshot.run.frames.component))
                                                     : viewport::default_quantity(snapshot.domain.polarization);
    const int idx = quantityCombo_->findData(int(def));
    if (quantityCombo_->currentIndex() != idx) quantityCombo_->setCurrentIndex(idx);
    else run_->setQuantity(def);
    runProgress_->setValue(0);
    runProgress_->setFormat(tr("Compiling..."));
    runProgress_->setVisible(true);
    runLabel_->setText(tr("Compiling..."));
    canvas_->clearDivergenceRegion();
    if (structureView3d_) structureView3d_->setHighlight(std::nullopt);
    action(QStringLiteral("view.field"))->setChecked(true);
    updateRunActions();
    return true;
}

void MainWindow::setRunIdle(const QString& message) {
    runProgress_->setVisible(false);
    runLabel_->setText(message);
    fieldView_->setPhaseLabel(QString());
    monitorsDock_->reset(message.isEmpty() ? QString() : message);
    updateRunActions();
}

void MainWindow::resetRunView() {
    if (run_->isRunning()) run_->stopAndWait(10000);  // the run belongs to the previous project
    runResultsOfDocument_.clear();
    sparamsOfDocument_.clear();
    pendingResultsMove_.clear();
    fieldView_->reset();
    fieldView_->setProject(doc_->project());
    runProgress_->setVisible(false);
    runLabel_->clear();
    canvas_->clearDivergenceRegion();
    if (structureView3d_) structureView3d_->setHighlight(std::nullopt);
    showFieldView(false);
    monitorsDock_->reset();
    // the panels that show results of a project: nothing of the previous one, unlabelled
    if (sparamsDock_)
        sparamsDock_->showProjectResults(doc_->filePath().isEmpty()
                                             ? QString()  // a new project: not an older untitled one's
                                             : QDir(sparamsDirectory()).filePath(QStringLiteral("sparams.csv")));
    if (modeViewer_) modeViewer_->projectReplaced();
    if (designDock_) {  // an optimization of the previous project ends; its folder was that project's
        designDock_->projectReplaced();
        designDock_->setOutputDir(designDirectory());
    }
    if (structureView3d_) structureView3d_->frameNextProject();
    // the project's saved results, if it has any, labelled as such
    const QString dir = resultsDirectory();
    if (!doc_->filePath().isEmpty() && QFileInfo::exists(dir + QStringLiteral("/summary.json"))) {
        if (monitorsDock_->loadResults(dir)) {
            const QDateTime when = QFileInfo(dir + QStringLiteral("/summary.json")).lastModified();
            monitorsDock_->setSummaryPrefix(tr("Saved results of %1 (%2). ")
                                                .arg(QFileInfo(doc_->filePath()).fileName(),
                                                     QLocale().toString(when, QLocale::ShortFormat)));
        }
    }
    updateRunActions();
}

void MainWindow::showFieldView(bool on) {
    const bool leavingStartPage = centralStack_->currentWidget() == startPage_;
    centralStack_->setCurrentIndex(on ? 1 : 0);
    if (leavingStartPage) restoreState(stateBeforeStartPage_);  // the docks again
    // QStackedLayout lays out only the current page: give both pages the stack's rectangle
    // now, so that the canvas and the field view (registered through the same view
    // transform, which depends on the widget size) have the same size whichever is shown.
    const QRect r = centralStack_->contentsRect();
    for (int k = 0; k < centralStack_->count(); ++k) centralStack_->widget(k)->setGeometry(r);
    if (QAction* a = action(QStringLiteral("view.field")); a && a->isChecked() != on) a->setChecked(on);
}

bool MainWindow::openResults(const QString& dir) {
    QString error;
    if (!monitorsDock_->loadResults(dir, &error)) {
        prompts_->error(tr("Open run results"), error);
        return false;
    }
    monitorsDock_->show();
    monitorsDock_->raise();
    return true;
}

void MainWindow::runScreenshot(const QString& path, double atTimeFs, std::function<void(bool)> done, const QString& phase) {
    auto taken = std::make_shared<bool>(false);
    connect(run_, &RunController::pausedChanged, this, [=, this](bool paused) {
        if (*taken || !paused) return;
        *taken = true;
        // let the last frame and the live plots arrive, then take the picture
        QTimer::singleShot(900, this, [=, this] {
            const bool ok = grab().save(path, "PNG");
            run_->stopAndWait(5000);
            done(ok);
        });
    });
    connect(run_, &RunController::finished, this, [=] {
        if (!*taken) {
            *taken = true;
            done(false);
        }
    });
    SolverSettings s;
    s.framesPerSecond = fpsSpin_->value();
    s.pauseAtMainTimeFs = atTimeFs;
    s.pausePhase = phase.toStdString();
    if (!startRun(&s)) done(false);
}

}  // namespace golightly::app
