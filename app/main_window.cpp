#include "main_window.hpp"
#include "ui_number.hpp"
#include "gds_import_dialog.hpp"
#include "expressions.hpp"
#include "parameters_dock.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QKeyEvent>
#include <QGuiApplication>
#include <QMimeData>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QProgressDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QFontMetrics>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QScrollBar>
#include <QComboBox>
#include <QHeaderView>
#include <QScreen>
#include <QStackedWidget>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <filesystem>

#include "bitmap_import.hpp"
#include "elided_label.hpp"
#include "sparams_dock.hpp"
#include "golightly/version_info.hpp"
#include "about_dialog.hpp"
#include "start_page.hpp"
#include "user_guide_viewer.hpp"
#include "number_spin_box.hpp"
#include "run_controller.hpp"
#include "field_view.hpp"
#include "monitors_dock.hpp"
#include "language.hpp"
#include "main_window_actions.hpp"

// The icons are compiled into the static editor library: pull them in explicitly.
static void init_golightly_resources() { Q_INIT_RESOURCE(golightly); }

namespace golightly::app {

QIcon icon(const QString& name) { return QIcon(QStringLiteral(":/icons/%1.svg").arg(name)); }

QDoubleSpinBox* option_spin(double lo, double hi, double value, double step, const QString& suffix, int decimals) {
    auto* s = new NumberSpinBox;
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setSingleStep(step);
    s->setValue(value);
    s->setSuffix(suffix);
    s->setKeyboardTracking(false);
    // the spin box sizes itself by its range's ends as shown, trailing zeros trimmed ("1"
    // for 0..1): leave room for every decimal ("0,75"), or a tool bar cuts the value off
    const QFontMetrics fm(s->font());
    const int shown = std::max(fm.horizontalAdvance(s->textFromValue(lo)), fm.horizontalAdvance(s->textFromValue(hi)));
    const int widest = std::max(fm.horizontalAdvance(golightly::ui_number(lo, 'f', decimals)),
                                fm.horizontalAdvance(golightly::ui_number(hi, 'f', decimals)));
    if (widest > shown) s->setMinimumWidth(s->sizeHint().width() + widest - shown);
    return s;
}

namespace {
constexpr int kMaxRecent = 8;

/// The mouse wheel changes spin boxes, combo boxes and sliders only when they have the
/// focus: otherwise it scrolls the dock they sit in (issue 20). Installed once on the
/// application.
class WheelGuard : public QObject {
public:
    using QObject::QObject;
    bool forwarding_ = false;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() != QEvent::Wheel && e->type() != QEvent::Polish) return false;
        auto* w = qobject_cast<QWidget*>(o);
        if (!w || qobject_cast<QScrollBar*>(w) ||  // scroll bars do scroll
            !(qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSlider*>(w)))
            return false;
        if (e->type() == QEvent::Polish) {
            if (w->focusPolicy() == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);  // the wheel gives no focus
            return false;
        }
        if (w->hasFocus() || forwarding_) return false;
        // not for this field: the scroll area around it (a dock's form) scrolls instead
        for (QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
            auto* area = qobject_cast<QAbstractScrollArea*>(p);
            if (!area || !area->viewport()) continue;
            const auto* we = static_cast<QWheelEvent*>(e);
            const QPointF pos = area->viewport()->mapFromGlobal(we->globalPosition());
            QWheelEvent forwarded(pos, we->globalPosition(), we->pixelDelta(), we->angleDelta(), we->buttons(),
                                  we->modifiers(), we->phase(), we->inverted(), we->source());
            forwarding_ = true;
            QCoreApplication::sendEvent(area->viewport(), &forwarded);
            forwarding_ = false;
            break;
        }
        return true;  // the field itself keeps its value
    }
};
}  // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent) : QMainWindow(parent), options_(std::move(options)) {
    setObjectName(QStringLiteral("MainWindow"));
    init_golightly_resources();
    setWindowIcon(icon(QStringLiteral("golightly")));
    if (qApp) qApp->installEventFilter(this);  // Esc in a dock gives the canvas the keys back (eventFilter)
    if (qApp && !qApp->findChild<QObject*>(QStringLiteral("golightlyWheelGuard"))) {
        auto* guard = new WheelGuard(qApp);
        guard->setObjectName(QStringLiteral("golightlyWheelGuard"));
        qApp->installEventFilter(guard);
    }
    if (options_.prompts) {
        prompts_ = options_.prompts;
    } else {
        ownPrompts_ = std::make_unique<MessageBoxPrompts>(this);
        prompts_ = ownPrompts_.get();
    }
    if (options_.recoveryDir.isEmpty())
        options_.recoveryDir =
            QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/recovery");
    doc_ = new EditorDocument(this);
    canvas_ = new Canvas(doc_, this);
    setCentralWidget(canvas_);
    setAcceptDrops(true);
    connect(canvas_, &Canvas::stepFileDropped, this, [this](const QString& path) { openStepImport(path); });
    connect(canvas_, &Canvas::reimportStepRequested, this, &MainWindow::reimportStep);
    createDocks();
    createActions();
    create3dUi();  // layer stack, 3D view, slice bar, 3D tools, Examples (main_window_3d.cpp)
    createToolsUi();  // S-parameters, Sweep / Optimize, Port Modes docks (main_window_tools.cpp)

    createStatusBarReadouts();

    connect(doc_, &EditorDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(doc_, &EditorDocument::filePathChanged, this, &MainWindow::updateTitle);
    updateTitle();

    autosaveTimer_ = new QTimer(this);
    autosaveTimer_->setInterval(options_.autosaveIntervalMs);
    connect(autosaveTimer_, &QTimer::timeout, this, &MainWindow::autosaveNow);
    autosaveTimer_->start();

    restoreSettings();
}

void MainWindow::createStatusBarReadouts() {
    cursorLabel_ = new QLabel;
    cursorLabel_->setMinimumWidth(230);
    zoomLabel_ = new QLabel;
    toolHint_ = new ElidedLabel;  // shares the status bar with the run status: neither hides the other
    toolHint_->setObjectName(QStringLiteral("toolHint"));
    toolHint_->setStyleSheet(QStringLiteral("QLabel { color: #1d4f91; }"));
    statusBar()->addWidget(toolHint_, 3);  // the larger share: it says how to use the tool in hand
    // QStatusBar hides a widget added while a message shows (the window's set-up posts some)
    // as if the program had hidden it, and never shows it again: the hint must come back
    // when the message goes
    toolHint_->setAttribute(Qt::WA_WState_ExplicitShowHide, false);
    statusBar()->addPermanentWidget(cursorLabel_);
    statusBar()->addPermanentWidget(zoomLabel_);
    toolHint_->setText(canvas_->tool() ? canvas_->tool()->hint() : QString());
    connect(canvas_, &Canvas::cursorMoved, this, [this](QPointF w) {
        cursorLabel_->setText(tr("x = %1 µm   y = %2 µm").arg(golightly::ui_number(w.x(), 'f', 3)).arg(golightly::ui_number(w.y(), 'f', 3)));
    });
    auto updateZoom = [this] {
        zoomLabel_->setText(tr("%1 px/µm   grid %2 µm").arg(golightly::ui_number(canvas_->pixelsPerUm(), 'g', 4)).arg(golightly::ui_number(canvas_->gridStep(), 'g', 6)));
    };
    connect(canvas_, &Canvas::viewChanged, this, updateZoom);
    updateZoom();
}

void MainWindow::restoreSettings() {
    auto s = settings();
    // default layout (issue 20: roomy at 1600 x 1000): Layers over Materials at the left,
    // Properties and Run setup as tabs at the right, the Monitors dock under the canvas
    resize(1560, 960);
    applyDefaultLayout();
    defaultState_ = saveState();
    restoreGeometry(s->value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s->value(QStringLiteral("window/state")).toByteArray());
    canvas_->setGridVisible(s->value(QStringLiteral("view/grid"), true).toBool());
    canvas_->setSnapEnabled(s->value(QStringLiteral("view/snap"), true).toBool());
    action(QStringLiteral("view.grid"))->setChecked(canvas_->gridVisible());
    action(QStringLiteral("view.snap"))->setChecked(canvas_->snapEnabled());
    rebuildRecentMenu();
}

void MainWindow::applyDefaultLayout() {
    // the side docks run the full height; the Monitors dock sits under the canvas only
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    for (QDockWidget* d : {static_cast<QDockWidget*>(layersDock_), static_cast<QDockWidget*>(materialsDock_),
                           static_cast<QDockWidget*>(propertiesDock_), static_cast<QDockWidget*>(runDock_),
                           static_cast<QDockWidget*>(monitorsDock_)}) {
        d->setFloating(false);
        d->show();
    }
    addDockWidget(Qt::LeftDockWidgetArea, layersDock_);
    splitDockWidget(layersDock_, materialsDock_, Qt::Vertical);
    addDockWidget(Qt::RightDockWidgetArea, propertiesDock_);
    tabifyDockWidget(propertiesDock_, runDock_);
    if (auto* parameters = findChild<ParametersDock*>()) {
        parameters->setFloating(false);
        parameters->show();
        tabifyDockWidget(runDock_, parameters);
    }
    propertiesDock_->raise();
    addDockWidget(Qt::BottomDockWidgetArea, monitorsDock_);
    resizeDocks({layersDock_, propertiesDock_}, {360, 370}, Qt::Horizontal);
    resizeDocks({layersDock_, materialsDock_}, {420, 420}, Qt::Vertical);
    resizeDocks({monitorsDock_}, {290}, Qt::Vertical);
    if (layerStackDock_) apply3dLayout();
    applyToolsLayout();
}

void MainWindow::resetLayout() {
    applyDefaultLayout();
    restoreState(defaultState_);
}

MainWindow::~MainWindow() {
    if (qApp) qApp->removeEventFilter(this);
    canvas_->setTool(nullptr);
}

bool MainWindow::eventFilter(QObject* o, QEvent* e) {
    // A field being typed into keeps every key: a tool shortcut (V, R, E, D, ...) never
    // fires from it, or typing "2*d" into a number field of the Properties dock would switch
    // to the DFT field tool halfway through. A spin box swallows the letters it cannot hold;
    // the status bar says where the tool keys work instead. (The line edit's own
    // ShortcutOverride handling accepts printable keys; nothing here may ignore them.)
    if (e->type() == QEvent::ShortcutOverride) {
        auto* ke = static_cast<QKeyEvent*>(e);
        auto* w = qobject_cast<QWidget*>(o);
        const bool letter = ke->key() >= Qt::Key_A && ke->key() <= Qt::Key_Z &&
                            (ke->modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier)) == Qt::NoModifier;
        if (letter && w && w->window() == this &&
            (qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QAbstractSpinBox*>(w->parentWidget()))) {
            for (QAction* a : toolGroup_->actions())
                if (a->shortcut() == QKeySequence(ke->key())) {
                    statusBar()->showMessage(tr("Tool keys work on the canvas: Esc returns the keys to it."), 4000);
                    break;
                }
        }
    }
    // Esc in a dock (not in a popup or dialog) returns the focus to the canvas, where the
    // tool keys and the tools' own keys work
    if (e->type() == QEvent::KeyPress && static_cast<QKeyEvent*>(e)->key() == Qt::Key_Escape &&
        static_cast<QKeyEvent*>(e)->modifiers() == Qt::NoModifier) {
        auto* w = qobject_cast<QWidget*>(o);
        if (w && w->window() == this && w != canvas_) {
            for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
                if (qobject_cast<QDockWidget*>(p)) {
                    canvas_->setFocus(Qt::ShortcutFocusReason);
                    return true;
                }
        }
    }
    return QMainWindow::eventFilter(o, e);
}

MainWindow* MainWindow::recreate() {
    auto* w = new MainWindow(options_);
    w->restoreGeometry(saveGeometry());
    w->restoreState(startPageShown() ? stateBeforeStartPage_ : saveState());
    const QString path = doc_->filePath();
    if (doc_->isModified()) w->doc_->adoptRecovered(doc_->project(), path);  // unsaved: still unsaved
    else if (!path.isEmpty()) w->openFile(path);
    w->canvas_->setView(canvas_->pixelsPerUm(), canvas_->viewCenter());
    if (startPageShown()) w->showStartPage();
    autosaveTimer_->stop();
    return w;
}  // the RunController (a child) stops its run

std::unique_ptr<QSettings> MainWindow::settings() const {
    return std::make_unique<QSettings>(options_.settingsOrganization, options_.settingsApplication);
}

QAction* MainWindow::action(const QString& name) const { return findChild<QAction*>(name); }

void MainWindow::createDocks() {
    layersDock_ = new LayersDock(doc_, this);
    materialsDock_ = new MaterialsDock(doc_, prompts_, this);
    propertiesDock_ = new PropertiesDock(doc_, this);
    runDock_ = new RunSetupDock(doc_, this);
    addDockWidget(Qt::LeftDockWidgetArea, layersDock_);
    addDockWidget(Qt::LeftDockWidgetArea, materialsDock_);
    addDockWidget(Qt::RightDockWidgetArea, propertiesDock_);
    connect(propertiesDock_, &PropertiesDock::reimportStepRequested, this, &MainWindow::reimportStep);
    addDockWidget(Qt::RightDockWidgetArea, runDock_);
    auto* parameters = new ParametersDock(doc_, prompts_, this);  // found by type (findChild)
    addDockWidget(Qt::RightDockWidgetArea, parameters);
}

void MainWindow::createActions() {
    // One function per menu, each in its own file (main_window_<menu>_menu.cpp); the order
    // is the menu bar's and the tool bars' (saved window states name the tool bars).
    QMenu* file = createFileMenu();
    createEditMenu();
    createViewMenu();
    createToolsMenu();
    createRunUi(file);  // Run menu and tool bar, field view, Monitors dock (main_window_run.cpp)
    createHelpMenu();
    createToolOptionsBar();
}

QAction* MainWindow::makeAction(const QString& name, const QString& text, const QString& iconName, QKeySequence key) {
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    if (!iconName.isEmpty()) a->setIcon(icon(iconName));
    if (!key.isEmpty()) a->setShortcut(key);
    return a;
}

void MainWindow::setTool(Tool* tool) {
    canvas_->setTool(tool);
    statusBar()->showMessage(tr("Tool: %1").arg(tool->name()), 3000);
    if (toolHint_) toolHint_->setText(tool->hint());
}

void MainWindow::showStartPage() {
    startPage_->setRecentFiles(recentFiles());
    if (!startPageShown()) {
        // the start page has the whole window; the docks come back when it is left
        stateBeforeStartPage_ = saveState();
        for (QDockWidget* d : findChildren<QDockWidget*>()) d->hide();
    }
    centralStack_->setCurrentIndex(2);
    if (QAction* a = action(QStringLiteral("view.field")); a && a->isChecked()) {
        const QSignalBlocker block(a);
        a->setChecked(false);
    }
}

bool MainWindow::startPageShown() const { return centralStack_->currentWidget() == startPage_; }

QUrl MainWindow::userGuideUrl() const {
    const QString path = userGuidePath();
    return path.isEmpty() ? QUrl(QStringLiteral("https://github.com/golightly/golightly/blob/main/docs/user-guide.md"))
                          : QUrl::fromLocalFile(path);
}

void MainWindow::openUserGuide() {
    // in a window of the IDE (Qt renders Markdown): a desktop without a program for .md
    // files shows it all the same
    auto* viewer = findChild<UserGuideViewer*>(QStringLiteral("userGuide"), Qt::FindDirectChildrenOnly);
    if (!viewer) {
        viewer = new UserGuideViewer(this);
        viewer->openGuide(userGuidePath());
    }
    viewer->show();
    viewer->raise();
    viewer->activateWindow();
}

QList<QPair<QString, QString>> MainWindow::shortcutList() const {
    QList<QPair<QString, QString>> out;
    QSet<QString> seen;
    for (QAction* a : findChildren<QAction*>()) {
        if (a->shortcut().isEmpty() || a->objectName().isEmpty() || seen.contains(a->objectName())) continue;
        seen.insert(a->objectName());
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        out.append({QString(a->text()).remove(QLatin1Char('&')), keys.join(QStringLiteral(", "))});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first.localeAwareCompare(b.first) < 0; });
    return out;
}

void MainWindow::showShortcuts() {
    auto* dlg = new QDialog(this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setObjectName(QStringLiteral("shortcutsDialog"));
    dlg->setWindowTitle(tr("Keyboard Shortcuts"));
    auto* v = new QVBoxLayout(dlg);
    const auto list = shortcutList();
    auto* table = new QTableWidget(int(list.size()), 2, dlg);
    table->setHorizontalHeaderLabels({tr("Command"), tr("Keys")});
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int r = 0; r < list.size(); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(list[r].first));
        table->setItem(r, 1, new QTableWidgetItem(list[r].second));
    }
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    v->addWidget(table);
    v->addWidget(new QLabel(tr("Tool keys work wherever the focus is, except while typing in a field; "
                               "Esc in a dock returns to the canvas. Space + drag or the middle button pans.")));
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Close, dlg);
    connect(bb, &QDialogButtonBox::rejected, dlg, &QDialog::reject);
    v->addWidget(bb);
    dlg->resize(520, 600);
    dlg->show();
}

void MainWindow::updateTitle() {
    setWindowTitle(tr("%1%2 - GoLightly").arg(doc_->displayName(), doc_->isModified() ? QStringLiteral("*") : QString()));
}

// ---------------------------------------------------------------- files

bool MainWindow::openFile(const QString& path) {
    if (run_ && run_->isRunning()) run_->stopAndWait(10000);  // the run belongs to the previous project
    if (!doc_->open(path, *prompts_)) return false;
    removeRecoveryFile();  // the previous document's changes were saved or discarded
    resetRunView();
    canvas_->zoomToFit();
    addRecentFile(path);
    statusBar()->showMessage(tr("Opened %1").arg(path), 4000);
    return true;
}

bool MainWindow::saveFile() {
    if (doc_->filePath().isEmpty()) {
        QString path = QFileDialog::getSaveFileName(this, tr("Save project"), QString(), tr("GoLightly projects (*.glproj)"));
        if (path.isEmpty()) return false;
        if (!path.endsWith(QStringLiteral(".glproj"))) path += QStringLiteral(".glproj");
        return saveFileAs(path);
    }
    if (!doc_->save(*prompts_)) return false;
    removeRecoveryFile();
    addRecentFile(doc_->filePath());
    statusBar()->showMessage(tr("Saved %1").arg(doc_->filePath()), 4000);
    return true;
}

bool MainWindow::saveFileAs(const QString& path) {
    const bool untitled = doc_->filePath().isEmpty();
    const QString oldResults = resultsDirectory(), oldSparams = sparamsDirectory();
    // a project still under the default name takes the file's, so that results and
    // messages name it (one undo step, taken back when the save fails)
    bool named = false;
    if (untitled && doc_->project().name == default_project().name) {
        const std::string stem = QFileInfo(path).completeBaseName().toStdString();
        if (!stem.empty()) {
            const int before = doc_->undoStack()->count();
            doc_->editProject(tr("Name the project"), [&](Project& p) { p.name = stem; });
            named = doc_->undoStack()->count() > before;
        }
    }
    if (!doc_->saveAs(path, *prompts_)) {
        if (named) doc_->undoStack()->undo();
        return false;
    }
    removeRecoveryFile();
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    if (untitled) adoptUntitledResults(oldResults, oldSparams);
    return true;
}

bool MainWindow::moveFolder(const QString& from, const QString& to) {
    if (QDir().rename(from, to)) return true;
    std::error_code ec;
    std::filesystem::copy(from.toStdString(), to.toStdString(), std::filesystem::copy_options::recursive, ec);
    if (ec) {
        QDir(to).removeRecursively();
        return false;
    }
    QDir(from).removeRecursively();
    return true;
}

void MainWindow::adoptUntitledResults(const QString& oldResults, const QString& oldSparams) {
    QStringList moved, kept;
    auto adopt = [&](const QString& from, const QString& to) -> bool {
        if (from.isEmpty() || !QFileInfo::exists(from) || QFileInfo(from).absoluteFilePath() == QFileInfo(to).absoluteFilePath())
            return false;
        if (QFileInfo::exists(to) || !moveFolder(from, to)) {  // never over another run's results
            kept << QDir::toNativeSeparators(from);
            return false;
        }
        moved << QDir::toNativeSeparators(to);
        return true;
    };
    const QString results = resultsDirectory();
    if (!runResultsOfDocument_.isEmpty() && runResultsOfDocument_ == oldResults) {
        if (run_->isRunning()) {
            pendingResultsMove_ = results;  // when the run has written its files
        } else if (adopt(oldResults, results)) {
            runResultsOfDocument_ = results;
            run_->setResultsDir(results);
            if (monitorsDock_->loadResults(results))
                monitorsDock_->setSummaryPrefix(tr("Results of %1 (run before the first save). ")
                                                    .arg(QFileInfo(doc_->filePath()).fileName()));
            runLabel_->setText(tr("Results: %1").arg(QDir::toNativeSeparators(results)));
        }
    }
    if (!sparamsOfDocument_.isEmpty() && sparamsOfDocument_ == oldSparams && !sparamsDock_->isRunning() &&
        adopt(oldSparams, sparamsDirectory())) {
        sparamsOfDocument_ = sparamsDirectory();
        sparamsDock_->setOutputDir(sparamsDirectory());
    }
    if (!moved.isEmpty())
        statusBar()->showMessage(tr("Saved %1 with the results made before the first save: %2")
                                     .arg(QDir::toNativeSeparators(doc_->filePath()), moved.join(QStringLiteral(", "))),
                                 10000);
    else if (!kept.isEmpty())
        statusBar()->showMessage(tr("Saved %1; the results made before the first save stay in %2 (the project's results "
                                    "folder exists already)")
                                     .arg(QDir::toNativeSeparators(doc_->filePath()), kept.join(QStringLiteral(", "))),
                                 10000);
}

bool MainWindow::maybeSave() {
    if (!doc_->isModified()) return true;
    switch (prompts_->askSaveChanges(doc_->displayName())) {
    case Prompts::SaveChoice::Save: return saveFile();
    case Prompts::SaveChoice::Discard: return true;
    case Prompts::SaveChoice::Cancel: return false;
    }
    return false;
}

QStringList MainWindow::recentFiles() const { return settings()->value(QStringLiteral("recentFiles")).toStringList(); }

void MainWindow::addRecentFile(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = recentFiles();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent) list.removeLast();
    settings()->setValue(QStringLiteral("recentFiles"), list);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = recentFiles();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = list[i];
        QAction* a = recentMenu_->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (maybeSave()) openFile(path);
        });
    }
    recentMenu_->setEnabled(!list.isEmpty());
    if (!list.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear List"), this, [this] {
            settings()->remove(QStringLiteral("recentFiles"));
            rebuildRecentMenu();
        });
    }
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!maybeSave()) {
        e->ignore();
        return;
    }
    auto s = settings();
    s->setValue(QStringLiteral("window/geometry"), saveGeometry());
    s->setValue(QStringLiteral("window/state"), startPageShown() ? stateBeforeStartPage_ : saveState());
    s->setValue(QStringLiteral("view/grid"), canvas_->gridVisible());
    s->setValue(QStringLiteral("view/snap"), canvas_->snapEnabled());
    removeRecoveryFile();  // a clean exit leaves nothing to recover
    e->accept();
}

// ---------------------------------------------------------------- autosave and recovery

QString MainWindow::recoveryFile() const { return options_.recoveryDir + QStringLiteral("/recovery.glproj"); }

bool MainWindow::autosaveNow() {
    if (!doc_->isModified()) return false;
    QDir().mkpath(options_.recoveryDir);
    try {
        save_project(doc_->project(), std::filesystem::path(recoveryFile().toStdString()));
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Autosave failed: %1").arg(QString::fromStdString(e.what())), 8000);
        return false;
    }
    QSaveFile info(options_.recoveryDir + QStringLiteral("/recovery.json"));
    if (info.open(QIODevice::WriteOnly)) {
        QJsonObject o;
        o[QStringLiteral("original")] = doc_->filePath();
        info.write(QJsonDocument(o).toJson());
        info.commit();
    }
    return true;
}

void MainWindow::removeRecoveryFile() {
    QFile::remove(recoveryFile());
    QFile::remove(options_.recoveryDir + QStringLiteral("/recovery.json"));
}

bool MainWindow::offerRecovery() {
    const QString file = recoveryFile();
    if (!QFileInfo::exists(file)) return false;
    QString original;
    QFile info(options_.recoveryDir + QStringLiteral("/recovery.json"));
    if (info.open(QIODevice::ReadOnly))
        original = QJsonDocument::fromJson(info.readAll()).object().value(QStringLiteral("original")).toString();
    const QString when = QLocale().toString(QFileInfo(file).lastModified(), QLocale::LongFormat);
    const QString text =
        tr("GoLightly did not shut down cleanly. Unsaved work of \"%1\" was autosaved at %2.\n\nRecover it?")
            .arg(original.isEmpty() ? tr("Untitled") : QFileInfo(original).fileName(), when);
    if (!prompts_->askRecover(text)) {
        removeRecoveryFile();
        return false;
    }
    Project recovered;
    try {
        recovered = load_project(std::filesystem::path(file.toStdString()));
    } catch (const std::exception& e) {
        prompts_->error(tr("Recovery failed"), tr("The recovery file could not be read:\n\n%1")
                                                   .arg(QString::fromStdString(e.what())));
        return false;
    }
    doc_->adoptRecovered(recovered, original);
    resetRunView();
    return true;
}

// ---------------------------------------------------------------- clipboard

namespace {
const QString kClipboardMime = QStringLiteral("application/x-golightly-project+json");
}

void MainWindow::copySelection() {
    const ItemRef sel = doc_->selection();
    const Project& p = doc_->project();
    // the item travels as a one-item project (the .glproj format), so that it can be
    // pasted into another window or instance
    Project clip;
    clip.name = "clipboard";
    clip.domain = p.domain;
    clip.materials = p.materials;
    if (sel.kind == ItemRef::Kind::Shape) {
        Layer l;
        l.name = "clipboard";
        l.material = p.layers[size_t(sel.layer)].material;
        l.shapes = {p.layers[size_t(sel.layer)].shapes[size_t(sel.index)]};
        clip.layers = {l};
        clipboard_ = l.shapes.front();
    } else if (sel.kind == ItemRef::Kind::Source) {
        clip.sources = {p.sources[size_t(sel.index)]};
        clipboard_ = clip.sources.front();
    } else if (sel.kind == ItemRef::Kind::Monitor) {
        clip.monitors = {p.monitors[size_t(sel.index)]};
        clipboard_ = clip.monitors.front();
    } else {
        return;
    }
    // its expressions travel with it, with the parameters that evaluate them
    clip.parameters = p.parameters;
    const ItemRef inClip = sel.kind == ItemRef::Kind::Shape ? ItemRef{sel.kind, 0, 0} : ItemRef{sel.kind, -1, 0};
    add_item_expressions(clip, inClip, item_expressions(p, sel));
    auto* mime = new QMimeData;
    const QByteArray json = QByteArray::fromStdString(project_to_json(clip).dump(1));
    mime->setData(kClipboardMime, json);
    mime->setText(QString::fromUtf8(json));
    QGuiApplication::clipboard()->setMimeData(mime);
}

void MainWindow::paste() {
    // an item copied by any GoLightly window (system clipboard), else the last copy here
    std::vector<FieldExpression> expressions;  // the copied item's, where they give the same value here
    if (const QMimeData* mime = QGuiApplication::clipboard()->mimeData(); mime && mime->hasFormat(kClipboardMime)) {
        try {
            const Project clip = parse_project(mime->data(kClipboardMime).toStdString(), "clipboard");
            ItemRef inClip;
            if (!clip.layers.empty() && !clip.layers.front().shapes.empty()) {
                clipboard_ = clip.layers.front().shapes.front();
                inClip = {ItemRef::Kind::Shape, 0, 0};
            } else if (!clip.sources.empty()) {
                clipboard_ = clip.sources.front();
                inClip = {ItemRef::Kind::Source, -1, 0};
            } else if (!clip.monitors.empty()) {
                clipboard_ = clip.monitors.front();
                inClip = {ItemRef::Kind::Monitor, -1, 0};
            }
            for (const FieldExpression& e : item_expressions(clip, inClip)) try {
                    if (evaluate_in(doc_->project(), QString::fromStdString(e.text)) == e.value) expressions.push_back(e);
                } catch (const std::exception&) {
                    // names a parameter this project lacks: the pasted field keeps the number
                }
        } catch (const std::exception&) {
            // not a usable item: keep the internal copy
        }
    }
    if (!clipboard_) return;
    const double g = canvas_->gridStep();
    // each paste lands one grid step further down-right
    std::visit([&](auto& item) {
        using T = std::decay_t<decltype(item)>;
        if constexpr (std::is_same_v<T, Shape>) translate_shape(item, g, -g);
        else if constexpr (std::is_same_v<T, Source>) translate_source(item, g, -g);
        else translate_monitor(item, g, -g);
    }, *clipboard_);
    if (auto* s = std::get_if<Shape>(&*clipboard_)) {
        const int layer = doc_->currentLayer();
        if (layer < 0 || layer >= int(doc_->project().layers.size()) || doc_->project().layers[size_t(layer)].locked) return;
        doc_->addShape(layer, *s, tr("Paste shape"), expressions);
    } else if (auto* src = std::get_if<Source>(&*clipboard_)) {
        Source copy = *src;
        copy.name = doc_->uniqueItemName(QString::fromStdString(copy.name)).toStdString();
        doc_->addSource(copy, expressions);
    } else if (auto* m = std::get_if<Monitor>(&*clipboard_)) {
        Monitor copy = *m;
        copy.name = doc_->uniqueItemName(QString::fromStdString(copy.name)).toStdString();
        doc_->addMonitor(copy, expressions);
    }
    copySelection();  // the clipboard now holds the shifted copy: the next paste steps on
}

// ---------------------------------------------------------------- import / export

void MainWindow::exportImage(bool svg) {
    const QString filter = svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)");
    QString path = QFileDialog::getSaveFileName(this, svg ? tr("Export canvas as SVG") : tr("Export canvas as PNG"),
                                                QString(), filter);
    if (path.isEmpty()) return;
    const QString suffix = svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    if (!path.endsWith(suffix, Qt::CaseInsensitive)) path += suffix;
    if (exportCanvas(path)) statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
}

bool MainWindow::exportCanvas(const QString& path) {
    const bool svg = path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive);
    const QRectF scene = canvas_->sceneRect();
    const double pxPerUm = std::clamp(1600.0 / std::max(scene.width(), scene.height()), 1.0, 400.0);
    const QSize size(int(std::ceil(scene.width() * pxPerUm)), int(std::ceil(scene.height() * pxPerUm)));
    if (svg) {
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(size);
        gen.setViewBox(QRect(QPoint(0, 0), size));
        gen.setTitle(QString::fromStdString(doc_->project().name));
        gen.setDescription(tr("GoLightly canvas export, %1 px per µm").arg(pxPerUm));
        QPainter p;
        if (!p.begin(&gen)) {
            prompts_->error(tr("Export"), tr("Could not write %1").arg(path));
            return false;
        }
        canvas_->renderScene(p, QRectF(QPointF(0, 0), size), false);
        return true;
    }
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    canvas_->renderScene(p, QRectF(QPointF(0, 0), size), false);
    p.end();
    if (!img.save(path, "PNG")) {
        prompts_->error(tr("Export"), tr("Could not write %1").arg(path));
        return false;
    }
    return true;
}

bool MainWindow::importBitmapFile(const QString& path, const BitmapImportOptions& options) {
    QImage image(path);
    if (image.isNull()) {
        prompts_->error(tr("Import"), tr("%1 is not a readable image.").arg(path));
        return false;
    }
    if (!maybeSave()) return false;
    try {
        const Project p = import_bitmap_model(image, options);
        doc_->newProject();
        removeRecoveryFile();
        doc_->replaceProject(p, tr("Import bitmap model"));
        resetRunView();
        canvas_->zoomToFit();
    } catch (const std::exception& e) {
        prompts_->error(tr("Import"), QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

StepImportDialog* MainWindow::openStepImport(const QString& path) {
    if (stepDialog_) stepDialog_->close();
    auto* dlg = new StepImportDialog(doc_, prompts_, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    stepDialog_ = dlg;
    dlg->loadFile(path);
    dlg->open();
    return dlg;
}

void MainWindow::reimportStep(const ItemRef& item) {
    const Project& p = doc_->project();
    if (item.kind != ItemRef::Kind::Shape || item.layer < 0 || item.layer >= int(p.layers.size()) || item.index < 0 ||
        item.index >= int(p.layers[size_t(item.layer)].shapes.size()) ||
        p.layers[size_t(item.layer)].shapes[size_t(item.index)].type != ShapeType::Step) {
        prompts_->error(tr("Re-import STEP"), tr("Select an imported STEP part first."));
        return;
    }
    const QString path = QFileDialog::getOpenFileName(this, tr("Re-import STEP"), QFileInfo(doc_->filePath()).path(),
                                                      tr("STEP files (*.step *.stp *.STEP *.STP);;All files (*)"));
    if (path.isEmpty()) return;
    auto* reader = new StepFileReader(this);
    auto* progress = new QProgressDialog(tr("Reading %1...").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1000, this);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    connect(reader, &StepFileReader::progress, progress, [progress](double f, const QString&) { progress->setValue(int(1000 * f)); });
    connect(progress, &QProgressDialog::canceled, reader, &StepFileReader::cancel);
    connect(reader, &StepFileReader::finished, this, [this, reader, progress, item, path](bool) {
        progress->deleteLater();
        if (!reader->cancelled()) reimport_step(doc_, item, path, *prompts_, reader);
        reader->deleteLater();
    });
    reader->start(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls() && !step_file_from_urls(e->mimeData()->urls()).isEmpty()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QString path = e->mimeData()->hasUrls() ? step_file_from_urls(e->mimeData()->urls()) : QString();
    if (path.isEmpty()) return;
    e->acceptProposedAction();
    openStepImport(path);
}

void MainWindow::importBitmap() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import GoLightly bitmap model"), QString(),
                                                      tr("Images (*.png *.bmp *.tif *.tiff);;All files (*)"));
    if (path.isEmpty()) return;
    QImage image(path);
    if (image.isNull()) {
        prompts_->error(tr("Import"), tr("%1 is not a readable image.").arg(path));
        return;
    }
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Bitmap model"));
    auto* form = new QFormLayout(&dlg);
    auto* epsMax = option_spin(1, 1000, 12.11, 0.1, QString(), 4);
    auto* width = option_spin(0.001, 1e5, image.width() * 0.02, 0.1, tr(" µm"), 4);
    auto* height = new QLabel;
    auto updateH = [&] { height->setText(tr("%1 µm").arg(golightly::ui_number(width->value() * image.height() / image.width(), 'g', 6))); };
    connect(width, &QDoubleSpinBox::valueChanged, &dlg, updateH);
    updateH();
    form->addRow(tr("Image"), new QLabel(tr("%1 x %2 pixels").arg(image.width()).arg(image.height())));
    form->addRow(tr("eps at green = 255"), epsMax);
    form->addRow(tr("Physical width"), width);
    form->addRow(tr("Physical height"), height);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(bb);
    connect(bb, &QDialogButtonBox::accepted, &dlg, &QDialog::accept);
    connect(bb, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    if (dlg.exec() != QDialog::Accepted) return;
    BitmapImportOptions o;
    o.epsMax = epsMax->value();
    o.widthUm = width->value();
    o.name = QFileInfo(path).completeBaseName().toStdString();
    importBitmapFile(path, o);
}

}  // namespace golightly::app
