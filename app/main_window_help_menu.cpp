// GoLightly IDE: the Help menu (user guide, shortcuts, start page, about).
#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

#include "main_window.hpp"
#include "about_dialog.hpp"
#include "main_window_actions.hpp"

namespace golightly::app {

void MainWindow::createHelpMenu() {
    // ---- Help
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guideA = makeAction(QStringLiteral("help.guide"), tr("&User Guide"), {}, QKeySequence::HelpContents);
    QAction* keysA = makeAction(QStringLiteral("help.shortcuts"), tr("&Keyboard Shortcuts"), {}, QKeySequence(Qt::CTRL | Qt::Key_Slash));
    QAction* startA = makeAction(QStringLiteral("help.startPage"), tr("&Start Page"), {});
    QAction* aboutA = makeAction(QStringLiteral("help.about"), tr("&About GoLightly"), {});
    help->addActions({guideA, keysA, startA});
    help->addSeparator();
    help->addAction(aboutA);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    connect(guideA, &QAction::triggered, this, &MainWindow::openUserGuide);
    connect(keysA, &QAction::triggered, this, [this] { showShortcuts(); });
    connect(startA, &QAction::triggered, this, &MainWindow::showStartPage);
    connect(aboutA, &QAction::triggered, this, [this] { AboutDialog(this).exec(); });
}

}  // namespace golightly::app
