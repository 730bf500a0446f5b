// GoLightly IDE: the Tools menu and tool bar (one key per drawing tool), the File tool bar,
// and the Tool Options tool bar.
#include <QAction>
#include <QActionGroup>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPixmap>
#include <QStatusBar>
#include <QToolBar>

#include "main_window.hpp"
#include "canvas.hpp"
#include "main_window_actions.hpp"
#include "design_region.hpp"

namespace golightly::app {

namespace {
/// The mode monitor's icon (drawn: the resources hold the other tools' SVGs): the flux
/// monitor's dashed line with a forward and a backward arrow, the two amplitudes it gives.
QIcon modeMonitorIcon() {
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter g(&pm);
    g.setRenderHint(QPainter::Antialiasing);
    const QColor c(130, 60, 170);
    g.setPen(QPen(c, 3.2, Qt::DashLine, Qt::FlatCap));
    g.drawLine(QPointF(16, 3), QPointF(16, 29));
    g.setPen(QPen(c, 2.2));
    g.drawLine(QPointF(18, 10), QPointF(27, 10));
    g.drawLine(QPointF(5, 22), QPointF(14, 22));
    g.setPen(Qt::NoPen);
    g.setBrush(c);
    g.drawPolygon(QPolygonF({QPointF(31, 10), QPointF(25, 6), QPointF(25, 14)}));
    g.drawPolygon(QPolygonF({QPointF(1, 22), QPointF(7, 18), QPointF(7, 26)}));
    return QIcon(pm);
}

/// The design region's icon (drawn): a hatched square with a grey density inside.
QIcon designRegionIcon() {
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter g(&pm);
    const QColor c(120, 60, 200);
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) g.fillRect(QRect(5 + 6 * i, 5 + 6 * j, 6, 6), QColor::fromHsv(0, 0, ((i * 7 + j * 5) % 4) * 70 + 30));
    g.setPen(QPen(c, 2.2, Qt::DashLine));
    g.drawRect(QRectF(4, 4, 24, 24));
    return QIcon(pm);
}
}  // namespace

void MainWindow::createToolsMenu() {
    // ---- Tools (one key each)
    QMenu* toolsMenu = menuBar()->addMenu(tr("&Tools"));
    toolGroup_ = new QActionGroup(this);
    QToolBar* toolBar = addToolBar(tr("Tools"));
    toolBar->setObjectName(QStringLiteral("ToolsToolBar"));
    QToolBar* fileBar = addToolBar(tr("File"));
    fileBar->setObjectName(QStringLiteral("FileToolBar"));
    // the actions of the File, Edit and View menus (made before this), by name
    for (const char* name : {"file.new", "file.open", "file.save", "edit.undo", "edit.redo", "view.zoomIn",
                             "view.zoomOut", "view.fit", "view.structurePreview"})
        fileBar->addAction(action(QString::fromLatin1(name)));
    struct Def {
        const char* id;
        Tool* tool;
        QString text;
        Qt::Key key;
    };
    ToolSettings* ts = &toolSettings_;
    const std::vector<Def> defs{
        {"select", new SelectTool(canvas_, ts), tr("Select / Move"), Qt::Key_V},
        {"rectangle", new DragShapeTool(canvas_, ts, DragShapeTool::Kind::Rectangle), tr("Rectangle"), Qt::Key_R},
        {"ellipse", new DragShapeTool(canvas_, ts, DragShapeTool::Kind::Ellipse), tr("Ellipse"), Qt::Key_E},
        {"polygon", new PointsTool(canvas_, ts, PointsTool::Kind::Polygon), tr("Polygon"), Qt::Key_P},
        {"ring", new DragShapeTool(canvas_, ts, DragShapeTool::Kind::Ring), tr("Ring"), Qt::Key_O},
        {"path", new PointsTool(canvas_, ts, PointsTool::Kind::Path), tr("Waveguide Path"), Qt::Key_W},
        {"brush", new BrushTool(canvas_, ts, false), tr("Brush"), Qt::Key_B},
        {"eraser", new BrushTool(canvas_, ts, true), tr("Eraser"), Qt::Key_X},
        {"pointSource", new SourceTool(canvas_, ts, SourceType::Point), tr("Point Source"), Qt::Key_S},
        {"lineSource", new SourceTool(canvas_, ts, SourceType::Line), tr("Line Source"), Qt::Key_L},
        {"regionSource", new SourceTool(canvas_, ts, SourceType::Region), tr("Region Source"), Qt::Key_A},
        {"flux", new MonitorTool(canvas_, ts, MonitorType::Flux), tr("Flux Monitor"), Qt::Key_F},
        {"modeMonitor", new MonitorTool(canvas_, ts, MonitorType::Flux, true), tr("Mode Monitor"), Qt::Key_M},
        {"probe", new MonitorTool(canvas_, ts, MonitorType::Time), tr("Time Probe"), Qt::Key_T},
        {"dftField", new MonitorTool(canvas_, ts, MonitorType::DftField), tr("DFT Field Region"), Qt::Key_D},
        {"designRegion", new DesignRegionTool(canvas_, ts), tr("Design Region"), Qt::Key_I},
    };
    for (const Def& d : defs) {
        d.tool->setParent(this);
        tools_.push_back(d.tool);
        const QString id = QString::fromLatin1(d.id);
        // no SVG in the resources for these
        const bool drawn = id == QStringLiteral("modeMonitor") || id == QStringLiteral("designRegion");
        QAction* a = makeAction(QStringLiteral("tool.") + id, d.text, drawn ? QString() : id, QKeySequence(d.key));
        if (drawn) a->setIcon(id == QStringLiteral("modeMonitor") ? modeMonitorIcon() : designRegionIcon());
        a->setToolTip(QStringLiteral("%1 (%2)").arg(d.text, QKeySequence(d.key).toString(QKeySequence::NativeText)));
        a->setCheckable(true);
        toolGroup_->addAction(a);
        toolsMenu->addAction(a);
        toolBar->addAction(a);
        Tool* tool = d.tool;
        connect(a, &QAction::triggered, this, [this, tool] { setTool(tool); });
        connect(tool, &Tool::message, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
        connect(tool, &Tool::hintChanged, this, [this, tool] {
            if (canvas_->tool() == tool && toolHint_) toolHint_->setText(tool->hint());
        });
    }
    toolGroup_->actions().front()->setChecked(true);
    setTool(tools_.front());
}

void MainWindow::createToolOptionsBar() {
    ToolSettings* ts = &toolSettings_;
    // ---- tool options
    addToolBarBreak();
    QToolBar* opts = addToolBar(tr("Tool Options"));
    opts->setObjectName(QStringLiteral("ToolOptionsToolBar"));
    auto addOpt = [&](const QString& label, QDoubleSpinBox* spin, double* target) {
        opts->addWidget(new QLabel(QStringLiteral(" %1 ").arg(label)));
        opts->addWidget(spin);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [target](double v) { *target = v; });
    };
    addOpt(tr("Path width"), option_spin(0.001, 100, ts->pathWidthUm, 0.05, tr(" µm")), &ts->pathWidthUm);
    addOpt(tr("Bend radius"), option_spin(0, 1000, ts->bendRadiusUm, 0.5, tr(" µm")), &ts->bendRadiusUm);
    addOpt(tr("Ring inner/outer"), option_spin(0, 0.99, ts->ringInnerRatio, 0.05, QString(), 2), &ts->ringInnerRatio);
    addOpt(tr("Brush"), option_spin(0.001, 100, ts->brushSizeUm, 0.1, tr(" µm")), &ts->brushSizeUm);
    addOpt(tr("Hardness"), option_spin(0, 1, ts->brushHardness, 0.1, QString(), 2), &ts->brushHardness);
}

}  // namespace golightly::app
