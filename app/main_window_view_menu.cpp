// GoLightly IDE: the View menu (zoom, grid, structure preview, docks, layout, language).
#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

#include "parameters_dock.hpp"

#include "main_window.hpp"
#include "canvas.hpp"
#include "language.hpp"
#include "main_window_actions.hpp"
#include "run_controller.hpp"

namespace golightly::app {

void MainWindow::createViewMenu() {
    // ---- View
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* zin = makeAction(QStringLiteral("view.zoomIn"), tr("Zoom &In"), QStringLiteral("zoom-in"), QKeySequence::ZoomIn);
    QAction* zout = makeAction(QStringLiteral("view.zoomOut"), tr("Zoom &Out"), QStringLiteral("zoom-out"), QKeySequence::ZoomOut);
    QAction* fit = makeAction(QStringLiteral("view.fit"), tr("&Fit to Window"), QStringLiteral("zoom-fit"), QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* one = makeAction(QStringLiteral("view.oneToOne"), tr("&1:1 (one cell per pixel)"), {}, QKeySequence(Qt::CTRL | Qt::Key_1));
    QAction* grid = makeAction(QStringLiteral("view.grid"), tr("Show &Grid"), {}, QKeySequence(Qt::CTRL | Qt::Key_G));
    grid->setCheckable(true);
    QAction* snap = makeAction(QStringLiteral("view.snap"), tr("&Snap to Grid and Vertices"), {}, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    snap->setCheckable(true);
    view->addActions({zin, zout, fit, one});
    view->addSeparator();
    QAction* preview = makeAction(QStringLiteral("view.structurePreview"), tr("Structure &Preview (as the solver sees it)"),
                            {}, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    preview->setCheckable(true);
    preview->setIcon(icon(QStringLiteral("preview")));
    view->addActions({grid, snap, preview});
    connect(preview, &QAction::toggled, canvas_, &Canvas::setStructurePreview);
    connect(canvas_, &Canvas::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 6000); });
    view->addSeparator();
    for (QDockWidget* d : {static_cast<QDockWidget*>(layersDock_), static_cast<QDockWidget*>(materialsDock_),
                           static_cast<QDockWidget*>(propertiesDock_), static_cast<QDockWidget*>(runDock_)})
        view->addAction(d->toggleViewAction());
    if (auto* parameters = findChild<ParametersDock*>()) {
        parameters->toggleViewAction()->setObjectName(QStringLiteral("view.parametersDock"));
        view->addAction(parameters->toggleViewAction());
    }
    QAction* resetLayoutA = makeAction(QStringLiteral("view.resetLayout"), tr("&Reset Layout"), {});
    view->addAction(resetLayoutA);
    connect(resetLayoutA, &QAction::triggered, this, &MainWindow::resetLayout);
    view->addSeparator();
    addLanguageMenu(view, this, options_.settingsOrganization, options_.settingsApplication, [this] {
        if (run_ && run_->isRunning()) {
            statusBar()->showMessage(tr("The language changes when the run ends (or is stopped)."), 8000);
            connect(run_, &RunController::finished, this, [this] { Q_EMIT languageChanged(); }, Qt::SingleShotConnection);
            return;
        }
        Q_EMIT languageChanged();
    });
    connect(zin, &QAction::triggered, this, [this] { canvas_->zoomBy(1.25, canvas_->rect().center()); });
    connect(zout, &QAction::triggered, this, [this] { canvas_->zoomBy(0.8, canvas_->rect().center()); });
    connect(fit, &QAction::triggered, canvas_, &Canvas::zoomToFit);
    connect(one, &QAction::triggered, canvas_, &Canvas::zoomOneToOne);
    connect(grid, &QAction::toggled, canvas_, &Canvas::setGridVisible);
    connect(snap, &QAction::toggled, canvas_, &Canvas::setSnapEnabled);
}

}  // namespace golightly::app
