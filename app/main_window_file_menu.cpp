// GoLightly IDE: the File menu (new, open, recent, save, import and export).
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

#include "main_window.hpp"
#include "canvas.hpp"
#include "gds_import_dialog.hpp"
#include "main_window_actions.hpp"

namespace golightly::app {

QMenu* MainWindow::createFileMenu() {
    // ---- File
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newA = makeAction(QStringLiteral("file.new"), tr("&New"), QStringLiteral("new"), QKeySequence::New);
    QAction* openA = makeAction(QStringLiteral("file.open"), tr("&Open..."), QStringLiteral("open"), QKeySequence::Open);
    QAction* saveA = makeAction(QStringLiteral("file.save"), tr("&Save"), QStringLiteral("save"), QKeySequence::Save);
    QAction* saveAsA = makeAction(QStringLiteral("file.saveAs"), tr("Save &As..."), {}, QKeySequence::SaveAs);
    file->addAction(newA);
    file->addAction(openA);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(saveA);
    file->addAction(saveAsA);
    file->addSeparator();
    createImportExportActions(file);
    file->addSeparator();
    QAction* quitA = makeAction(QStringLiteral("file.quit"), tr("&Quit"), {}, QKeySequence::Quit);
    file->addAction(quitA);
    connect(newA, &QAction::triggered, this, [this] {
        if (!maybeSave()) return;
        doc_->newProject();
        removeRecoveryFile();  // nothing unsaved any more
        resetRunView();
        canvas_->zoomToFit();
    });
    connect(openA, &QAction::triggered, this, [this] {
        if (!maybeSave()) return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), QFileInfo(doc_->filePath()).path(),
                                                          tr("GoLightly projects (*.glproj);;All files (*)"));
        if (!path.isEmpty()) openFile(path);
    });
    connect(saveA, &QAction::triggered, this, &MainWindow::saveFile);
    connect(saveAsA, &QAction::triggered, this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Save project as"), doc_->filePath(),
                                                    tr("GoLightly projects (*.glproj)"));
        if (path.isEmpty()) return;
        if (!path.endsWith(QStringLiteral(".glproj"))) path += QStringLiteral(".glproj");
        saveFileAs(path);
    });
    connect(quitA, &QAction::triggered, this, &QWidget::close);
    return file;
}

void MainWindow::createImportExportActions(QMenu* file) {
    QAction* importA = makeAction(QStringLiteral("file.importBitmap"), tr("&Import GoLightly Bitmap Model..."), {});
    QAction* importStepA = makeAction(QStringLiteral("file.importStep"), tr("Import S&TEP..."), {},
                                QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    QAction* reimportStepA = makeAction(QStringLiteral("file.reimportStep"), tr("Re-import STEP of the Selected Part..."), {});
    QAction* importGdsA = makeAction(QStringLiteral("file.importGds"), tr("Import &GDS..."), {});
    QAction* exportGdsA = makeAction(QStringLiteral("file.exportGds"), tr("&Export GDS..."), {});
    QAction* exportPng = makeAction(QStringLiteral("file.exportPng"), tr("Export Canvas as &PNG..."), {});
    QAction* exportSvg = makeAction(QStringLiteral("file.exportSvg"), tr("Export Canvas as S&VG..."), {});
    file->addAction(importA);
    file->addAction(importStepA);
    file->addAction(reimportStepA);
    file->addAction(importGdsA);
    file->addAction(exportGdsA);
    file->addAction(exportPng);
    file->addAction(exportSvg);
    connect(importA, &QAction::triggered, this, &MainWindow::importBitmap);
    connect(importStepA, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import STEP"), QFileInfo(doc_->filePath()).path(),
                                                          tr("STEP files (*.step *.stp *.STEP *.STP);;All files (*)"));
        if (!path.isEmpty()) openStepImport(path);
    });
    connect(reimportStepA, &QAction::triggered, this, [this] { reimportStep(doc_->selection()); });
    connect(importGdsA, &QAction::triggered, this, [this] {  // gds_import_dialog.hpp
        const QString path = QFileDialog::getOpenFileName(this, tr("Import GDS"), QFileInfo(doc_->filePath()).path(),
                                                          tr("GDSII files (*.gds *.gds2 *.gdsii *.GDS);;All files (*)"));
        if (path.isEmpty()) return;
        auto* dlg = new editor::GdsImportDialog(doc_, prompts_, this);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        if (dlg->loadFile(path)) dlg->open();
        else dlg->deleteLater();
    });
    connect(exportGdsA, &QAction::triggered, this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Export GDS"), QFileInfo(doc_->filePath()).path(),
                                                    tr("GDSII files (*.gds)"));
        if (path.isEmpty()) return;
        if (!path.endsWith(QStringLiteral(".gds"), Qt::CaseInsensitive)) path += QStringLiteral(".gds");
        const auto cell = prompts_->askText(tr("Export GDS"), tr("Cell name"), QStringLiteral("TOP"));
        if (!cell || cell->trimmed().isEmpty()) return;
        QStringList warnings;
        // layers without a GDS layer are asked for one first (set on the layers, undoable)
        if (editor::export_gds_document(*doc_, path, cell->trimmed(), *prompts_, &warnings))
            statusBar()->showMessage(tr("Wrote %1").arg(path) + (warnings.isEmpty() ? QString() : QStringLiteral(" (") + warnings.join(QStringLiteral("; ")) + QStringLiteral(")")), 8000);
    });
    connect(exportPng, &QAction::triggered, this, [this] { exportImage(false); });
    connect(exportSvg, &QAction::triggered, this, [this] { exportImage(true); });
}

}  // namespace golightly::app
