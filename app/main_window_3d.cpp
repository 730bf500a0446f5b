// GoLightly IDE: the 3D parts of the main window (issue 16): the layer stack dock, the 3D
// structure view dock, the slice tool bar of 3D runs, the 3D drawing tools and the
// Examples menu. Kept apart from main_window.cpp; MainWindow calls create3dUi() once.
#include "main_window.hpp"
#include "ui_number.hpp"

#include <QLocale>
#include <QActionGroup>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QPolygonF>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

#include <algorithm>

#include "dimensions.hpp"
#include "monitors_dock.hpp"
#include "run_controller.hpp"
#include "start_page.hpp"
#include "structure_view_3d.hpp"
#include "tools_3d.hpp"

namespace golightly::app {

namespace {
const char* kPlanes[3] = {"xy", "xz", "yz"};
/// run.frames.plane -> the normal axis (xy: z = 2, xz: y = 1, yz: x = 0).
int normal_of(const std::string& plane) { return plane == "yz" ? 0 : plane == "xz" ? 1 : 2; }
int plane_index(const std::string& plane) { return plane == "yz" ? 2 : plane == "xz" ? 1 : 0; }
/// Icons without a file in the resources: the port tool's, drawn (a bar with an arrow,
/// the canvas's port colour).
QIcon drawnIcon(const QString& id) {
    if (id != QStringLiteral("port")) return {};
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter g(&pm);
    g.setRenderHint(QPainter::Antialiasing);
    const QColor c(0, 140, 150);
    g.setPen(QPen(c, 4, Qt::SolidLine, Qt::FlatCap));
    g.drawLine(QPointF(11, 4), QPointF(11, 28));
    g.setPen(QPen(c, 2.5));
    g.drawLine(QPointF(13, 16), QPointF(24, 16));
    g.setBrush(c);
    g.drawPolygon(QPolygonF({QPointF(29, 16), QPointF(22, 11.5), QPointF(22, 20.5)}));
    return QIcon(pm);
}
}  // namespace

void MainWindow::create3dUi() {
    create3dDocks();
    createSliceToolBar();
    create3dTools();

    // ---- View menu: the new docks
    if (QAction* reset = action(QStringLiteral("view.resetLayout")))
        for (QObject* o : reset->associatedObjects())
            if (auto* m = qobject_cast<QMenu*>(o)) {
                QAction* a3 = structure3dDock_->toggleViewAction();
                a3->setObjectName(QStringLiteral("view.structure3d"));
                a3->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_3));
                a3->setIcon(QIcon(QStringLiteral(":/icons/view3d.svg")));
                QAction* ls = layerStackDock_->toggleViewAction();
                ls->setObjectName(QStringLiteral("view.layerStack"));
                m->insertActions(reset, {ls, a3, sliceBar_->toggleViewAction()});
            }

    createExamplesMenu();

    connect(doc_, &EditorDocument::changed, this, &MainWindow::sync3dUi);
    sync3dUi();
}

void MainWindow::create3dDocks() {
    // ---- layer stack dock (tabbed with Materials)
    layerStackDock_ = new LayerStackDock(doc_, this);
    addDockWidget(Qt::LeftDockWidgetArea, layerStackDock_);

    // ---- 3D structure view dock (bottom, right of the Monitors dock)
    structure3dDock_ = new QDockWidget(tr("3D view"), this);
    structure3dDock_->setObjectName(QStringLiteral("Structure3DDock"));
    structureView3d_ = new viewport::StructureView3D;
    structure3dDock_->setWidget(structureView3d_);
    addDockWidget(Qt::BottomDockWidgetArea, structure3dDock_);
    connect(structureView3d_, &viewport::StructureView3D::itemClicked, this, [this](int kind, int layer, int index) {
        ItemRef r;
        r.kind = kind == 1   ? ItemRef::Kind::Shape
                 : kind == 2 ? ItemRef::Kind::Source
                 : kind == 3 ? ItemRef::Kind::Monitor
                 : kind == 4 ? ItemRef::Kind::Port
                             : ItemRef::Kind::None;
        r.layer = kind == 1 ? layer : -1;
        r.index = kind == 0 ? -1 : index;
        doc_->setSelection(r);
    });
    connect(doc_, &EditorDocument::selectionChanged, this, [this] {
        const ItemRef s = doc_->selection();
        structureView3d_->setSelection(int(s.kind), s.layer, s.index);
    });
    connect(structure3dDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) structureView3d_->setProject(doc_->project());
    });
}

void MainWindow::createSliceToolBar() {
    // ---- slice tool bar (3D runs): plane and position, changeable while running
    sliceBar_ = addToolBar(tr("Slice"));
    sliceBar_->setObjectName(QStringLiteral("SliceToolBar"));
    sliceBar_->addWidget(new QLabel(tr(" Slice ")));
    slicePlane_ = new QComboBox;
    slicePlane_->setObjectName(QStringLiteral("run.slicePlane"));
    for (const char* p : kPlanes) slicePlane_->addItem(QString::fromLatin1(p));
    slicePlane_->setToolTip(tr("The plane of the 3D grid the field view shows (changes a running run at once)"));
    sliceBar_->addWidget(slicePlane_);
    slicePosition_ = new QDoubleSpinBox;
    slicePosition_->setObjectName(QStringLiteral("run.slicePosition"));
    slicePosition_->setRange(-1e5, 1e5);
    slicePosition_->setDecimals(3);
    slicePosition_->setSingleStep(0.05);
    slicePosition_->setSuffix(tr(" µm"));
    slicePosition_->setKeyboardTracking(false);
    slicePosition_->setToolTip(tr("Position of the slice along its normal"));
    sliceBar_->addWidget(slicePosition_);
    auto applySlice = [this] {
        if (!syncing3d_) setSlice(slicePlane_->currentIndex(), slicePosition_->value());
    };
    connect(slicePlane_, &QComboBox::activated, this, [this, applySlice] {
        // a new plane starts at the domain centre along its normal
        const Project& p = doc_->project();
        syncing3d_ = true;
        slicePosition_->setValue(0.5 * p.domain.size[size_t(2 - slicePlane_->currentIndex())]);
        syncing3d_ = false;
        applySlice();
    });
    connect(slicePosition_, &QDoubleSpinBox::valueChanged, this, applySlice);
    QAction* slicePrev = new QAction(tr("Slice Back"), this);
    slicePrev->setObjectName(QStringLiteral("run.sliceBack"));
    slicePrev->setShortcut(QKeySequence(Qt::ALT | Qt::Key_PageDown));
    QAction* sliceNext = new QAction(tr("Slice Forward"), this);
    sliceNext->setObjectName(QStringLiteral("run.sliceForward"));
    sliceNext->setShortcut(QKeySequence(Qt::ALT | Qt::Key_PageUp));
    connect(slicePrev, &QAction::triggered, this, [this] {
        slicePosition_->setValue(slicePosition_->value() - std::max(doc_->project().domain.cell_size, 1e-3));
    });
    connect(sliceNext, &QAction::triggered, this, [this] {
        slicePosition_->setValue(slicePosition_->value() + std::max(doc_->project().domain.cell_size, 1e-3));
    });
    sliceBar_->addAction(slicePrev);
    sliceBar_->addAction(sliceNext);
    // the Run setup dock's slice fields move the live slice while a run goes (as this bar)
    runDock_->setLiveSliceHandler([this](int planeIndex, double positionUm, bool planeChanged) {
        if (!run_->isRunning()) return false;
        if (planeChanged)  // a new plane starts at the domain centre along its normal, as in the bar
            positionUm = 0.5 * doc_->project().domain.size[size_t(2 - std::clamp(planeIndex, 0, 2))];
        setSlice(planeIndex, positionUm);
        return true;
    });
    connect(run_, &RunController::finished, this, [this] {
        run_->clearFrameSlice();  // the next run starts at run.frames' slice
        sync3dUi();
    });
}

void MainWindow::create3dTools() {
    // ---- 3D drawing tools (after the 2D ones; Shift + the 2D tool's key)
    QMenu* toolsMenu = nullptr;
    if (QAction* rect = action(QStringLiteral("tool.rectangle")))
        for (QObject* o : rect->associatedObjects())
            if (auto* m = qobject_cast<QMenu*>(o)) toolsMenu = m;
    auto* toolBar = findChild<QToolBar*>(QStringLiteral("ToolsToolBar"));
    struct Def {
        const char* id;
        Tool* tool;
        QString text;
        QKeySequence key;
    };
    ToolSettings* ts = &toolSettings_;
    const std::vector<Def> defs{
        {"sphere", new SolidTool(canvas_, ts, SolidTool::Kind::Sphere), tr("Sphere (3D)"), QKeySequence(Qt::SHIFT | Qt::Key_E)},
        {"box", new SolidTool(canvas_, ts, SolidTool::Kind::Box), tr("Box (3D)"), QKeySequence(Qt::SHIFT | Qt::Key_R)},
        {"tfsfBox", new BoxItemTool(canvas_, ts, BoxItemTool::Kind::Tfsf), tr("TF/SF Source Box"), QKeySequence(Qt::SHIFT | Qt::Key_A)},
        {"fluxBox", new BoxItemTool(canvas_, ts, BoxItemTool::Kind::FluxBox), tr("Flux Box Monitor"), QKeySequence(Qt::SHIFT | Qt::Key_F)},
        {"port", new PortTool(canvas_, ts), tr("Port"), QKeySequence(Qt::SHIFT | Qt::Key_P)},
    };
    if (toolsMenu) toolsMenu->addSeparator();
    if (toolBar) toolBar->addSeparator();
    for (const Def& d : defs) {
        d.tool->setParent(this);
        tools_.push_back(d.tool);
        const QString id = QString::fromLatin1(d.id);
        const QString iconPath = QStringLiteral(":/icons/%1.svg").arg(id);
        auto* a = new QAction(QFile::exists(iconPath) ? QIcon(iconPath) : drawnIcon(id), d.text, this);
        a->setObjectName(QStringLiteral("tool.") + id);
        a->setShortcut(d.key);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(d.text, d.key.toString()));
        a->setCheckable(true);
        toolGroup_->addAction(a);
        if (toolsMenu) toolsMenu->addAction(a);
        if (toolBar) toolBar->addAction(a);
        Tool* tool = d.tool;
        connect(a, &QAction::triggered, this, [this, tool] { setTool(tool); });
        connect(tool, &Tool::message, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    }
}

void MainWindow::createExamplesMenu() {
    // ---- Examples menu (before Help): every bundled example, the 3D ones marked
    const QString dir = examplesDirectory();
    if (!dir.isEmpty()) {
        QMenu* examples = new QMenu(tr("E&xamples"), this);
        examples->setObjectName(QStringLiteral("examplesMenu"));
        const QStringList files = QDir(dir).entryList({QStringLiteral("*.glproj")}, QDir::Files, QDir::Name);
        for (const QString& f : files) {
            const QString path = QDir(dir).filePath(f);
            const QString base = QFileInfo(f).completeBaseName();
            QAction* a = examples->addAction(exampleTitle(path));  // the start page's titles
            a->setObjectName(QStringLiteral("examples.") + base);
            a->setToolTip(QDir::toNativeSeparators(path));
            connect(a, &QAction::triggered, this, [this, path] {
                if (maybeSave()) openFile(path);
            });
        }
        QAction* helpMenu = nullptr;
        for (QAction* a : menuBar()->actions())
            if (a->menu() && a->menu()->actions().contains(action(QStringLiteral("help.guide")))) helpMenu = a;
        menuBar()->insertMenu(helpMenu, examples);
    }
}

void MainWindow::apply3dLayout() {
    layerStackDock_->setFloating(false);
    layerStackDock_->show();
    structure3dDock_->setFloating(false);
    structure3dDock_->show();
    tabifyDockWidget(materialsDock_, layerStackDock_);
    materialsDock_->raise();
    addDockWidget(Qt::BottomDockWidgetArea, structure3dDock_);
    splitDockWidget(monitorsDock_, structure3dDock_, Qt::Horizontal);
    resizeDocks({monitorsDock_, structure3dDock_}, {560, 420}, Qt::Horizontal);
}

void MainWindow::sync3dUi() {
    const Project& p = doc_->project();
    const bool three = p.domain.dimensions == 3;
    syncing3d_ = true;
    slicePlane_->setEnabled(three);
    slicePosition_->setEnabled(three);
    if (!run_->isRunning()) {  // while running the bar (and Run setup) hold the live slice
        const int normal = normal_of(p.run.frames.plane);
        slicePlane_->setCurrentIndex(plane_index(p.run.frames.plane));
        slicePosition_->setValue(p.run.frames.position.value_or(0.5 * p.domain.size[size_t(normal)]));
    }
    runDock_->showSlice(slicePlane_->currentIndex(), slicePosition_->value());
    syncing3d_ = false;
    if (monitorsDock_) {
        monitorsDock_->setDimensions(p.domain.dimensions);
        monitorsDock_->showPagesFor(p);  // the tabs of the pages this project's monitors fill
    }
    if (structure3dDock_->isVisible()) structureView3d_->setProject(p);
    structureView3d_->setSlice(three ? 2 - slicePlane_->currentIndex() : -1, slicePosition_->value());
}

void MainWindow::setSlice(int planeIndex, double positionUm) {
    planeIndex = std::clamp(planeIndex, 0, 2);
    const int normal = 2 - planeIndex;  // xy -> z, xz -> y, yz -> x
    syncing3d_ = true;
    slicePlane_->setCurrentIndex(planeIndex);
    slicePosition_->setValue(positionUm);
    syncing3d_ = false;
    if (run_->isRunning()) {
        run_->setFrameSlice(normal, positionUm);
        runDock_->showSlice(planeIndex, positionUm);
        fieldView_->clearFrames();
        statusBar()->showMessage(tr("Slice %1 at %2 = %3 µm").arg(QLatin1String(kPlanes[planeIndex]))
                                     .arg(QChar("xyz"[normal]))
                                     .arg(golightly::ui_number(positionUm, 'g', 5)),
                                 4000);
    } else {
        doc_->editProject(tr("Set slice"), [&](Project& p) {
            p.run.frames.plane = kPlanes[planeIndex];
            p.run.frames.position = positionUm;
        }, /*mergeable=*/true);
    }
    structureView3d_->setSlice(doc_->project().domain.dimensions == 3 ? normal : -1, positionUm);
}

}  // namespace golightly::app
