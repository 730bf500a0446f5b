// GoLightly IDE: the Edit menu (undo and redo of the document's undo stack, clipboard).
#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

#include "main_window.hpp"
#include "canvas.hpp"
#include "main_window_actions.hpp"

namespace golightly::app {

void MainWindow::createEditMenu() {
    // ---- Edit
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undoA = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
    undoA->setObjectName(QStringLiteral("edit.undo"));
    undoA->setShortcut(QKeySequence::Undo);
    undoA->setIcon(icon(QStringLiteral("undo")));
    QAction* redoA = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
    redoA->setObjectName(QStringLiteral("edit.redo"));
    redoA->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Y), QKeySequence::Redo});
    redoA->setIcon(icon(QStringLiteral("redo")));
    QAction* cutA = makeAction(QStringLiteral("edit.cut"), tr("Cu&t"), {}, QKeySequence::Cut);
    QAction* copyA = makeAction(QStringLiteral("edit.copy"), tr("&Copy"), {}, QKeySequence::Copy);
    QAction* pasteA = makeAction(QStringLiteral("edit.paste"), tr("&Paste"), {}, QKeySequence::Paste);
    QAction* deleteA = makeAction(QStringLiteral("edit.delete"), tr("&Delete"), {}, QKeySequence::Delete);
    QAction* dupA = makeAction(QStringLiteral("edit.duplicate"), tr("D&uplicate"), {}, QKeySequence(Qt::CTRL | Qt::Key_D));
    edit->addActions({undoA, redoA});
    edit->addSeparator();
    edit->addActions({cutA, copyA, pasteA, deleteA, dupA});
    connect(copyA, &QAction::triggered, this, &MainWindow::copySelection);
    connect(cutA, &QAction::triggered, this, [this] {
        copySelection();
        doc_->removeItem(doc_->selection());
    });
    connect(pasteA, &QAction::triggered, this, &MainWindow::paste);
    connect(deleteA, &QAction::triggered, this, [this] { doc_->removeItem(doc_->selection()); });
    connect(dupA, &QAction::triggered, this, [this] {
        const double g = canvas_->gridStep();
        doc_->duplicateItem(doc_->selection(), g, -g);
    });
}

}  // namespace golightly::app
