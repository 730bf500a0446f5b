// GUI tests of the STEP import (issue 7, editor half): the import dialog's accept path,
// drag and drop, bad files, move / rotate / delete of a step shape and re-import.
// The STEP files: GOLIGHTLY_SHARED_DIR/data/step, else <source>/../shared/data/step (shared
// test data, absent from a plain clone: the tests that need those files say so when they
// skip, and otherwise use examples/step_ring.step). The executable needs OpenCASCADE
// (CTest registers it disabled, labelled optional and occt, in a build without it).
#include <QDir>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMimeData>
#include <QPushButton>
#include <QTableWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QElapsedTimer>
#include <QTest>

#include <sys/stat.h>
#include <QUrl>

#include <cmath>

#include "canvas.hpp"
#include "docks.hpp"
#include "editor_document.hpp"
#include "golightly/limits.hpp"
#include "golightly/step_import.hpp"
#include "gui_fixture.hpp"
#include "main_window.hpp"
#include "step_import_dialog.hpp"
#include "tools.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::StubPrompts;

namespace {

QString sharedStepDir() {
    const QByteArray env = qgetenv("GOLIGHTLY_SHARED_DIR");
    const QString base = env.isEmpty() ? QStringLiteral(GOLIGHTLY_SOURCE_DIR "/../shared") : QString::fromLocal8Bit(env);
    return base + QStringLiteral("/data/step");
}

/// A shared STEP file, or the repository's example when the shared folder is absent.
QString stepFile(const QString& name) {
    const QString shared = sharedStepDir() + QLatin1Char('/') + name;
    if (QFileInfo::exists(shared)) return shared;
    return QStringLiteral(GOLIGHTLY_SOURCE_DIR "/examples/step_ring.step");
}

#define REQUIRE_OCCT()                                                                  \
    do {                                                                                \
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_OCCT, step_import_available(), "occt"); \
    } while (0)

/// Loads `path` into a dialog; QVERIFY-style failures return false.
bool load(StepImportDialog& dlg, const QString& path) {
    dlg.loadFile(path);
    return dlg.waitForLoaded(120000);
}

/// Imports `path` with the dialog's defaults (only the solids that cross the slice plane).
bool importDefault(EditorDocument& doc, StubPrompts& prompts, const QString& path) {
    StepImportDialog dlg(&doc, &prompts);
    if (!load(dlg, path)) return false;
    const auto areas = dlg.sectionAreas();
    for (int k = 0; k < int(areas.size()); ++k) dlg.setSolidIncluded(k, areas[size_t(k)] > 0);
    return dlg.importIntoDocument();
}

ItemRef firstStepShape(const Project& p) {
    for (int l = 0; l < int(p.layers.size()); ++l)
        for (int i = 0; i < int(p.layers[size_t(l)].shapes.size()); ++i)
            if (p.layers[size_t(l)].shapes[size_t(i)].type == ShapeType::Step) return {ItemRef::Kind::Shape, l, i};
    return {};
}

}  // namespace

class TestStepImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void importSphereOneUndoStep() {
        REQUIRE_OCCT();
        EditorDocument doc;
        StubPrompts prompts;
        const Project before = doc.project();
        const QString file = stepFile(QStringLiteral("unit_sphere.stp"));
        StepImportDialog dlg(&doc, &prompts);
        QVERIFY(load(dlg, file));
        QVERIFY(dlg.model().solids.size() >= 1);
        QCOMPARE(dlg.solidsTable()->rowCount(), int(dlg.model().solids.size()));
        // the file's unit is offered as the scale; the part is centred in the domain at slice_z
        QCOMPARE(dlg.scaleSpin()->value(), dlg.model().unit_um);
        const StepPlacement pl = dlg.placement();
        const auto& m = dlg.model();
        QVERIFY(std::abs(pl.translate[0] + pl.scale * 0.5 * (m.bbox_min[0] + m.bbox_max[0]) - 5.0) < 1e-3);
        // put a 2 um sphere in the 10 x 8 um domain: scale so that the part is 2 um across
        const double across = m.bbox_max[0] - m.bbox_min[0];
        StepPlacement p2 = default_step_placement(m, doc.project(), 2.0 / across);
        dlg.setPlacement(p2);
        dlg.updateSections();
        QVERIFY(dlg.sectionAreas()[0] > 0);
        const double expected = M_PI * 1.0 * 1.0;  // the equator of a 1 um radius sphere
        if (file.endsWith(QStringLiteral("unit_sphere.stp")))  // (the fallback file is no sphere)
            QVERIFY2(std::abs(dlg.sectionAreas()[0] - expected) < 0.02 * expected, qPrintable(QString::number(dlg.sectionAreas()[0])));
        const int undo = doc.undoStack()->count();
        QVERIFY(dlg.importIntoDocument());
        QVERIFY2(prompts.errors.isEmpty(), qPrintable(prompts.errors.join(QLatin1Char('\n'))));
        QCOMPARE(doc.undoStack()->count(), undo + 1);
        const Project& after = doc.project();
        QCOMPARE(after.layers.size(), before.layers.size() + 1);
        const Layer& l = after.layers.back();
        QCOMPARE(QString::fromStdString(l.name), QFileInfo(file).completeBaseName());
        QCOMPARE(l.shapes.size(), size_t(1));
        QCOMPARE(l.shapes[0].type, ShapeType::Step);
        QCOMPARE(QString::fromStdString(l.shapes[0].file_name), QFileInfo(file).fileName());
        // default material: the first one that is not the background
        std::string firstMat;
        for (const Material& mat : before.materials)
            if (mat.id != before.domain.background) {
                firstMat = mat.id;
                break;
            }
        QCOMPARE(l.material, firstMat);
        // the canvas draws (and hits) the section
        Canvas canvas(&doc);
        canvas.resize(600, 500);
        // a point inside the section (the centre for the sphere; the fallback ring has a hole)
        const QPainterPath section = step_painter_path(l.shapes[0], after.domain.slice_z);
        QPointF inside(5.0, 4.0);
        for (int k = 0; k < 400 && !section.contains(inside); ++k) {
            const QRectF b = section.boundingRect();
            inside = QPointF(b.left() + b.width() * ((k % 20) + 0.5) / 20, b.top() + b.height() * ((k / 20) + 0.5) / 20);
        }
        QVERIFY(section.contains(inside));
        const ItemRef hit = canvas.hitTest(inside);
        QCOMPARE(hit.kind, ItemRef::Kind::Shape);
        QCOMPARE(hit.layer, int(after.layers.size()) - 1);
        const QRectF box = canvas.itemBounds(hit);
        if (file.endsWith(QStringLiteral("unit_sphere.stp")))
            QVERIFY2(std::abs(box.width() - 2.0) < 0.05, qPrintable(QString::number(box.width())));
        doc.undoStack()->undo();
        QVERIFY(doc.project() == before);
    }

    void solidsOnTwoLayers() {
        REQUIRE_OCCT();
        EditorDocument doc;
        StubPrompts prompts;
        StepImportDialog dlg(&doc, &prompts);
        const QString file = stepFile(QStringLiteral("Crystal_SMD_4P_2520.step"));
        // the repository's fallback (step_ring.step) is one solid: this needs the shared part
        if (!file.startsWith(sharedStepDir())) QSKIP("needs the shared STEP data (GOLIGHTLY_SHARED_DIR/data/step), absent here");
        QVERIFY(load(dlg, file));
        const int n = int(dlg.model().solids.size());
        QVERIFY2(n >= 2, "the shared crystal part has several solids");
        // scale so that the part fits the domain, then keep the solids that cross
        const auto& m = dlg.model();
        const double across = std::max(m.bbox_max[0] - m.bbox_min[0], m.bbox_max[1] - m.bbox_min[1]);
        StepPlacement pl = default_step_placement(m, doc.project(), 6.0 / across);
        // a z (file units) where the most solids overlap: the middle of one solid's range
        double bestZ = 0;
        int best = -1;
        for (const StepSolid& a : m.solids) {
            const double z = 0.5 * (a.bbox_min[2] + a.bbox_max[2]);
            int c = 0;
            for (const StepSolid& b : m.solids) c += b.bbox_min[2] < z && z < b.bbox_max[2];
            if (c > best) best = c, bestZ = z;
        }
        pl.translate[2] = doc.project().domain.slice_z - pl.scale * bestZ;
        dlg.setPlacement(pl);
        dlg.updateSections();
        std::vector<int> crossing;
        for (int k = 0; k < n; ++k) {
            const bool c = dlg.sectionAreas()[size_t(k)] > 0;
            dlg.setSolidIncluded(k, c);
            if (c) crossing.push_back(k);
        }
        QVERIFY2(crossing.size() >= 2, "two or more of the part's solids cross the slice plane");
        // the first crossing solid onto the existing layer, the others onto the new one
        const QString existing = QString::fromStdString(doc.project().layers[0].name);
        dlg.setSolidLayer(crossing[0], existing);
        const Project before = doc.project();
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { QVERIFY(dlg.importIntoDocument()); }));
        const Project& p = doc.project();
        QCOMPARE(p.layers.size(), before.layers.size() + 1);
        QCOMPARE(p.layers[0].shapes.size(), before.layers[0].shapes.size() + 1);
        const Shape& a = p.layers[0].shapes.back();
        const Shape& b = p.layers.back().shapes.back();
        QCOMPARE(a.solids, std::vector<int>{crossing[0]});
        QCOMPARE(b.solids, std::vector<int>(crossing.begin() + 1, crossing.end()));
        QVERIFY(a.data_base64 == b.data_base64);
        // the selection survives a save / load round trip of the project
        const Project reread = parse_project(project_to_json(p).dump(), "mem.glproj");
        QCOMPARE(reread.layers[0].shapes.back().solids, a.solids);
    }

    void dropOpensImport() {
        QTemporaryDir dir;
        StubPrompts prompts;
        const app::MainWindowOptions o = test::windowOptions(dir, &prompts);
        app::MainWindow w(o);
        QVERIFY(w.action(QStringLiteral("file.importStep")));
        QCOMPARE(w.action(QStringLiteral("file.importStep"))->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
        const QString file = stepFile(QStringLiteral("unit_sphere.stp"));
        auto dropOn = [&](QWidget* target, const QString& path) {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(path)});
            QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(target, &enter);
            QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(target, &drop);
            return enter.isAccepted();
        };
        // a text file is not taken
        QFile txt(dir.filePath(QStringLiteral("notes.txt")));
        QVERIFY(txt.open(QIODevice::WriteOnly));
        txt.write("hello");
        txt.close();
        QVERIFY(!dropOn(w.canvas(), txt.fileName()));
        QVERIFY(!w.stepImportDialog());
        QVERIFY(dropOn(w.canvas(), file));
        QVERIFY(w.stepImportDialog());
        QCOMPARE(w.stepImportDialog()->filePath(), file);
        if (step_import_available()) {
            QVERIFY(w.stepImportDialog()->waitForLoaded());
            QVERIFY(w.stepImportDialog()->isLoaded());
        }
        w.stepImportDialog()->reject();
        QCOMPARE(w.document()->undoStack()->count(), 0);
    }

    void badFilesLeaveProjectUnchanged() {
        REQUIRE_OCCT();
        QTemporaryDir dir;
        EditorDocument doc;
        const Project before = doc.project();
        // a text file renamed .step
        const QString fake = dir.filePath(QStringLiteral("fake.step"));
        {
            QFile f(fake);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("This is not a STEP file.\nJust text.\n");
        }
        // a truncated copy of a real file
        const QString truncated = dir.filePath(QStringLiteral("truncated.stp"));
        {
            QFile src(stepFile(QStringLiteral("unit_sphere.stp")));
            QVERIFY(src.open(QIODevice::ReadOnly));
            const QByteArray all = src.readAll();
            QFile f(truncated);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(all.left(all.size() / 2));
        }
        // a FIFO named .step (issue 19): refused at once instead of blocking the reader
        const QString fifo = dir.filePath(QStringLiteral("pipe.step"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QElapsedTimer fifoTimer;
        fifoTimer.start();
        for (const QString& path : {fake, truncated, dir.filePath(QStringLiteral("missing.step")), fifo}) {
            StubPrompts prompts;
            StepImportDialog dlg(&doc, &prompts);
            QVERIFY(!load(dlg, path));
            QCOMPARE(prompts.errors.size(), 1);
            QVERIFY2(prompts.errors[0].contains(QFileInfo(path).fileName()), qPrintable(prompts.errors[0]));
            QVERIFY(!dlg.importIntoDocument());  // nothing loaded: refused
            QVERIFY(doc.project() == before);
            QCOMPARE(doc.undoStack()->count(), 0);
        }
        QVERIFY2(fifoTimer.elapsed() < 60000, "a FIFO must not block the STEP reader");
        // a part whose solid misses the slice plane
        StubPrompts prompts;
        StepImportDialog dlg(&doc, &prompts);
        QVERIFY(load(dlg, stepFile(QStringLiteral("unit_sphere.stp"))));
        StepPlacement pl = dlg.placement();
        pl.translate[2] += 1e7;
        dlg.setPlacement(pl);
        dlg.updateSections();
        QVERIFY2(dlg.statusText().contains(QStringLiteral("z = ")), qPrintable(dlg.statusText()));
        QVERIFY(!dlg.importIntoDocument());
        QCOMPARE(prompts.errors.size(), 1);
        QVERIFY2(prompts.errors[0].contains(QStringLiteral("cross the slice plane")), qPrintable(prompts.errors[0]));
        QVERIFY(prompts.errors[0].contains(QStringLiteral("unit_sphere")) || prompts.errors[0].contains(QStringLiteral("step_ring")));
        // nothing included
        for (int k = 0; k < int(dlg.model().solids.size()); ++k) dlg.setSolidIncluded(k, false);
        QVERIFY(!dlg.importIntoDocument());
        QVERIFY(doc.project() == before);
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void importThatWouldBeTooLargeIsRefused() {
        // a project just under the size GoLightly opens (limits::kMaxProjectFileBytes, here
        // padded with an unknown top-level key, which a save keeps): the STEP file's base64
        // would take it over, so the dialog refuses before importing, as the save would
        REQUIRE_OCCT();
        EditorDocument doc;
        StubPrompts prompts;
        const QString file = stepFile(QStringLiteral("unit_sphere.stp"));
        const std::uint64_t base64 = 4 * ((std::uint64_t(QFileInfo(file).size()) + 2) / 3);
        Project padded = doc.project();
        const std::uint64_t text = project_to_json(padded).dump(2).size() + 1;
        padded.extra["padding"] = std::string(golightly::limits::kMaxProjectFileBytes - text - base64 / 2, 'x');
        QVERIFY(save_size_problem(padded).empty());
        doc.replaceProject(padded, QStringLiteral("pad"));
        const int undo = doc.undoStack()->count();
        StepImportDialog dlg(&doc, &prompts);
        QVERIFY(load(dlg, file));
        for (int k = 0; k < int(dlg.model().solids.size()); ++k) dlg.setSolidIncluded(k, dlg.sectionAreas()[size_t(k)] > 0);
        QVERIFY(!dlg.importIntoDocument());
        QCOMPARE(prompts.errors.size(), 1);
        const QString& msg = prompts.errors[0];
        // the file, the size the project would have and the limit, in words
        QVERIFY2(msg.contains(QStringLiteral("Not imported")) && msg.contains(QFileInfo(file).fileName()), qPrintable(msg));
        QVERIFY2(msg.contains(QString::fromStdString(golightly::limits::format_bytes(double(golightly::limits::kMaxProjectFileBytes)))), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("the project would be ")), qPrintable(msg));
        QCOMPARE(doc.undoStack()->count(), undo);
        QVERIFY(doc.project() == padded);
    }

    void moveRotateDeleteUndoable() {
        REQUIRE_OCCT();
        EditorDocument doc;
        StubPrompts prompts;
        QVERIFY(importDefault(doc, prompts, stepFile(QStringLiteral("unit_sphere.stp"))));
        const ItemRef item = firstStepShape(doc.project());
        QVERIFY(item.valid());
        doc.setSelection(item);
        Canvas canvas(&doc);
        canvas.resize(600, 500);
        ToolSettings settings;
        SelectTool select(&canvas, &settings);
        canvas.setTool(&select);
        // arrow key: one grid step, one undo step
        const Shape s0 = doc.project().layers[size_t(item.layer)].shapes[size_t(item.index)];
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { QTest::keyClick(&canvas, Qt::Key_Right); }));
        const Shape s1 = doc.project().layers[size_t(item.layer)].shapes[size_t(item.index)];
        QVERIFY(std::abs(s1.translate[0] - s0.translate[0] - canvas.gridStep()) < 1e-9);
        QCOMPARE(s1.translate[1], s0.translate[1]);
        // drag-move
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { doc.translateItem(item, 0.5, -0.25); }));
        // rotate 90 degrees about a point: rz and the translation turn
        Shape r = doc.project().layers[size_t(item.layer)].shapes[size_t(item.index)];
        const Shape r0 = r;
        rotate_shape(r, {5, 4}, 90);
        QVERIFY(std::abs(r.rotate_deg[2] - r0.rotate_deg[2] - 90) < 1e-9);
        QVERIFY(std::abs(r.translate[0] - (5 - (r0.translate[1] - 4))) < 1e-9);
        QVERIFY(std::abs(r.translate[1] - (4 + (r0.translate[0] - 5))) < 1e-9);
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] {
            doc.editLayer(item.layer, QStringLiteral("Rotate shape"), [&](Layer& l) { l.shapes[size_t(item.index)] = r; });
        }));
        // the section follows the rotation: a bounds check at the rotated position
        const QRectF box = canvas.itemBounds(item);
        QVERIFY(!box.isEmpty());
        // rotate with the mouse: drag a corner handle a quarter turn about the box centre
        {
            const QRectF b = canvas.itemBounds(item);
            const QPointF c = b.center();
            const QRectF r = canvas.toScreen(b).adjusted(-4, -4, 4, 4);
            const QPoint handle = r.topRight().toPoint();
            const QPointF hw = canvas.toWorld(QPointF(handle));
            // the handle turned by +90 degrees about c (CCW, world y up)
            const QPointF turned(c.x() - (hw.y() - c.y()), c.y() + (hw.x() - c.x()));
            const Shape beforeRot = doc.project().layers[size_t(item.layer)].shapes[size_t(item.index)];
            QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] {
                QTest::mousePress(&canvas, Qt::LeftButton, Qt::NoModifier, handle);
                QTest::mouseMove(&canvas, canvas.toScreen(turned).toPoint());
                QTest::mouseRelease(&canvas, Qt::LeftButton, Qt::NoModifier, canvas.toScreen(turned).toPoint());
            }));
            const Shape afterRot = doc.project().layers[size_t(item.layer)].shapes[size_t(item.index)];
            const double turnedDeg = std::remainder(afterRot.rotate_deg[2] - beforeRot.rotate_deg[2], 360.0);
            QVERIFY2(std::abs(turnedDeg - 90) < 1e-6, qPrintable(QString::number(turnedDeg)));
        }
        // delete
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { doc.removeItem(item); }));
    }

    void propertiesDockEditsStepShape() {
        REQUIRE_OCCT();
        EditorDocument doc;
        StubPrompts prompts;
        QVERIFY(importDefault(doc, prompts, stepFile(QStringLiteral("unit_sphere.stp"))));
        const ItemRef item = firstStepShape(doc.project());
        doc.setSelection(item);
        PropertiesDock dock(&doc);
        dock.rebuild();
        QVERIFY(dock.field(QStringLiteral("File")));
        auto* tz = qobject_cast<QDoubleSpinBox*>(dock.field(QStringLiteral("Translate z")));
        QVERIFY(tz);
        auto* scale = qobject_cast<QDoubleSpinBox*>(dock.field(QStringLiteral("Unit scale")));
        QVERIFY(scale);
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] {
            tz->setValue(tz->value() + 0.125);
            Q_EMIT tz->editingFinished();
        }));
        QVERIFY(dock.findChild<QPushButton*>(QStringLiteral("stepReimport")));
    }

    void reimportReplacesData() {
        REQUIRE_OCCT();
        QTemporaryDir dir;
        EditorDocument doc;
        StubPrompts prompts;
        const QString file = stepFile(QStringLiteral("unit_sphere.stp"));
        QVERIFY(importDefault(doc, prompts, file));
        ItemRef item = firstStepShape(doc.project());
        // move it, so that the placement is not the default
        doc.translateItem(item, 0.5, 0);
        const Shape before = doc.project().layers[size_t(item.layer)].shapes[size_t(item.index)];
        // a changed copy of the file (same solids, a comment line more)
        const QString changed = dir.filePath(QStringLiteral("sphere_v2.stp"));
        {
            QFile src(file);
            QVERIFY(src.open(QIODevice::ReadOnly));
            QByteArray all = src.readAll();
            all.replace("DATA;", "DATA;\n/* revision 2 */");
            QFile f(changed);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(all);
        }
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { QVERIFY(reimport_step(&doc, item, changed, prompts)); }));
        QVERIFY2(prompts.errors.isEmpty(), qPrintable(prompts.errors.join(QLatin1Char('\n'))));
        const Shape after = doc.project().layers[size_t(item.layer)].shapes[size_t(item.index)];
        QVERIFY(after.data_base64 != before.data_base64);
        QCOMPARE(after.file_name, std::string("sphere_v2.stp"));
        QCOMPARE(after.translate, before.translate);
        QCOMPARE(after.scale, before.scale);
        QCOMPARE(after.solids, before.solids);
        QCOMPARE(doc.project().layers[size_t(item.layer)].material, doc.project().layers[size_t(item.layer)].material);
        // a bad file: message, nothing changes
        const Project p = doc.project();
        const int count = doc.undoStack()->count();
        QVERIFY(!reimport_step(&doc, item, dir.filePath(QStringLiteral("missing.step")), prompts));
        QCOMPARE(prompts.errors.size(), 1);
        QVERIFY(doc.project() == p);
        QCOMPARE(doc.undoStack()->count(), count);
    }

    /// README screenshots (into GOLIGHTLY_SCREENSHOT_DIR when set, else a temporary folder:
    /// the path that makes them runs either way): the dialog with a shared STEP file
    /// loaded, and the main window after the import.
    void screenshots() {
        REQUIRE_OCCT();
        QTemporaryDir dir;
        const QString env = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        const QString out = env.isEmpty() ? dir.filePath(QStringLiteral("shots")) : env;
        QVERIFY(QDir().mkpath(out));
        const QString file = stepFile(QStringLiteral("Crystal_SMD_4P_2520.step"));
        StubPrompts prompts;
        const app::MainWindowOptions o = test::windowOptions(dir, &prompts);
        app::MainWindow w(o);
        w.resize(1400, 860);
        w.show();
        StepImportDialog* dlg = w.openStepImport(file);
        QVERIFY(dlg->waitForLoaded());
        dlg->findChild<QPushButton*>(QStringLiteral("stepFit"))->click();
        // the slice plane through the pads (file z -0.6 mm), the pads on their own layer
        const auto& m = dlg->model();
        StepPlacement pl = dlg->placement();
        pl.translate[2] = w.document()->project().domain.slice_z - pl.scale * -0.6;
        dlg->setPlacement(pl);
        dlg->updateSections();
        // the solids that miss the plane are unticked by default
        for (int k = 1; k < int(m.solids.size()); ++k)
            if (dlg->sectionAreas()[size_t(k)] > 0) {
                dlg->setSolidLayer(k, QStringLiteral("pads"));
                dlg->setSolidMaterial(k, QStringLiteral("si"));
            } else {
                QVERIFY(!dlg->solidIncluded(k));
            }
        dlg->setSolidMaterial(0, dlg->newMaterialId());
        dlg->updateSections();
        dlg->resize(1150, 560);
        dlg->solidsTable()->setFocus();
        QTest::qWait(50);
        QVERIFY(dlg->grab().save(out + QStringLiteral("/step-import.png")));
        dlg->accept();
        QVERIFY2(prompts.errors.isEmpty(), qPrintable(prompts.errors.join(QLatin1Char('\n'))));
        w.canvas()->zoomToFit();
        QTest::qWait(50);
        QVERIFY(w.grab().save(out + QStringLiteral("/step-import-canvas.png")));
    }

    void cancelWhileReading() {
        REQUIRE_OCCT();
        QDir d(sharedStepDir());
        const QFileInfoList files = d.entryInfoList({QStringLiteral("*.step"), QStringLiteral("*.stp")}, QDir::Files, QDir::Size);
        const QString file = files.isEmpty() ? stepFile(QStringLiteral("x")) : files.front().absoluteFilePath();
        EditorDocument doc;
        StubPrompts prompts;
        StepImportDialog dlg(&doc, &prompts);
        QSignalSpy loaded(&dlg, &StepImportDialog::loaded);
        dlg.loadFile(file);
        QVERIFY(dlg.isLoading());
        dlg.reject();  // Cancel: stops the reader at its next progress report
        QVERIFY(loaded.wait(60000) || loaded.count() == 1);
        QCOMPARE(loaded.count(), 1);
        // a read that finished before the cancel landed loads; otherwise nothing is shown
        if (!loaded.at(0).at(0).toBool()) QVERIFY2(prompts.errors.isEmpty(), qPrintable(prompts.errors.join(QLatin1Char('\n'))));
        QVERIFY(!dlg.isLoading());
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void reimportKeepsPerLayerSelections() {
        REQUIRE_OCCT();
        const QString file = sharedStepDir() + QStringLiteral("/Crystal_SMD_4P_2520.step");
        if (!QFileInfo::exists(file)) QSKIP("needs the shared STEP data (GOLIGHTLY_SHARED_DIR/data/step), absent here");
        QTemporaryDir dir;
        EditorDocument doc;
        StubPrompts prompts;
        StepImportDialog dlg(&doc, &prompts);
        QVERIFY(load(dlg, file));
        const auto& m = dlg.model();
        StepPlacement pl = default_step_placement(m, doc.project(), 1.0);
        pl.translate[2] = doc.project().domain.slice_z + 0.6;  // file z = -0.6: the body and two pads
        dlg.setPlacement(pl);
        dlg.updateSections();
        std::vector<int> crossing;
        for (int k = 0; k < int(m.solids.size()); ++k) {
            dlg.setSolidIncluded(k, dlg.sectionAreas()[size_t(k)] > 0);
            if (dlg.sectionAreas()[size_t(k)] > 0) crossing.push_back(k);
        }
        QVERIFY(crossing.size() >= 2);
        for (size_t k = 1; k < crossing.size(); ++k) dlg.setSolidLayer(crossing[k], QStringLiteral("pads"));
        QVERIFY(dlg.importIntoDocument());
        const Project imported = doc.project();
        ItemRef body = firstStepShape(imported);
        const QString changed = dir.filePath(QStringLiteral("crystal_v2.step"));
        {
            QFile src(file);
            QVERIFY(src.open(QIODevice::ReadOnly));
            QByteArray all = src.readAll();
            all.replace("DATA;", "DATA;\n/* revision 2 */");
            QFile f(changed);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(all);
        }
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] {
            QVERIFY2(reimport_step(&doc, body, changed, prompts), qPrintable(prompts.errors.join(QLatin1Char('\n'))));
        }));
        // both shapes (body layer, pads layer) got the new data and kept their solids
        int n = 0;
        for (size_t l = 0; l < imported.layers.size(); ++l)
            for (size_t i = 0; i < imported.layers[l].shapes.size(); ++i) {
                const Shape& a = imported.layers[l].shapes[i];
                if (a.type != ShapeType::Step) continue;
                const Shape& b = doc.project().layers[l].shapes[i];
                QCOMPARE(b.file_name, std::string("crystal_v2.step"));
                QVERIFY(b.data_base64 != a.data_base64);
                QCOMPARE(b.solids, a.solids);
                QCOMPARE(b.translate, a.translate);
                ++n;
            }
        QCOMPARE(n, 2);
    }

    void largestFileTiming() {
        REQUIRE_OCCT();
        // the largest file of the shared folder, through the dialog's path (read in the
        // worker thread + the first sections + OK)
        QDir d(sharedStepDir());
        const QFileInfoList files = d.entryInfoList({QStringLiteral("*.step"), QStringLiteral("*.stp")}, QDir::Files, QDir::Size);
        if (files.isEmpty()) QSKIP("needs the shared STEP data (GOLIGHTLY_SHARED_DIR/data/step), absent here");
        const QString largest = files.front().absoluteFilePath();
        EditorDocument doc;
        StubPrompts prompts;
        QElapsedTimer t;
        t.start();
        StepImportDialog dlg(&doc, &prompts);
        QVERIFY(load(dlg, largest));
        const auto areas = dlg.sectionAreas();
        int crossing = 0;
        for (int k = 0; k < int(areas.size()); ++k) {
            dlg.setSolidIncluded(k, areas[size_t(k)] > 0);
            crossing += areas[size_t(k)] > 0;
        }
        const bool ok = crossing > 0 && dlg.importIntoDocument();
        const double total = t.elapsed() / 1000.0;
        qInfo("STEP import of %s (%lld bytes, %d solids, %d crossing): read %.2f s, loaded (read + sections) %.2f s, "
              "total with OK %.2f s",
              qPrintable(files.front().fileName()), (long long)files.front().size(), int(dlg.model().solids.size()), crossing,
              dlg.readSeconds(), dlg.loadSeconds(), total);
        QVERIFY(ok);
        QVERIFY2(total < 20.0, "the import should take well under 10 s on two cores");
    }
};

QTEST_MAIN(TestStepImport)
#include "tst_step_import.moc"
