// EditorDocument: undo/redo of each edit kind back to the identical Project, save/reload
// round trip, broken and newer files; MainWindow: recent files, settings, autosave and
// recovery, unsaved-changes prompt.
#include <QDoubleSpinBox>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "docks.hpp"
#include "editor_document.hpp"
#include "golightly/image_io.hpp"
#include "gui_fixture.hpp"
#include "main_window.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::StubPrompts;
using golightly::test::undoRedoRoundTrip;

namespace {

Shape rect(double x0, double y0, double x1, double y1) {
    Shape s;
    s.type = ShapeType::Rectangle;
    s.min = {x0, y0};
    s.max = {x1, y1};
    return s;
}

/// A project with every shape kind, a source and monitors of each kind the editor makes.
Project richProject() {
    Project p = default_project();
    p.name = "round trip";
    Layer& l = p.layers[0];
    l.shapes.push_back(rect(1, 1, 3, 2));
    Shape e;
    e.type = ShapeType::Ellipse;
    e.center = {5, 5};
    e.radii = {1, 0.5};
    e.rotation_deg = 30;
    l.shapes.push_back(e);
    Shape poly;
    poly.type = ShapeType::Polygon;
    poly.points = {{1, 5}, {2, 7}, {3, 5.5}};
    l.shapes.push_back(poly);
    Layer l2;
    l2.name = "ring layer";
    l2.material = "sio2";
    l2.z = std::array<double, 2>{0.0, 0.22};
    Shape ring;
    ring.type = ShapeType::Ring;
    ring.center = {7, 4};
    ring.inner_radius = 1;
    ring.outer_radius = 1.5;
    l2.shapes.push_back(ring);
    Shape path;
    path.type = ShapeType::Path;
    path.points = {{0, 1}, {4, 1}, {4, 6}};
    path.width = 0.4;
    path.bend_radius = 1.5;
    l2.shapes.push_back(path);
    Image8 img;
    img.width = 4;
    img.height = 3;
    img.pixels = {0, 255, 128, 0, 0, 255, 255, 0, 10, 20, 30, 40};
    Shape raster;
    raster.type = ShapeType::Raster;
    raster.origin = {0.5, 0.5};
    raster.pixel_size = 0.05;
    raster.width_px = 4;
    raster.height_px = 3;
    raster.png_base64 = base64_encode(encode_png(img));
    l2.shapes.push_back(raster);
    p.layers.push_back(l2);
    Source s;
    s.name = "in";
    s.type = SourceType::Line;
    s.from = {1, 3};
    s.to = {1, 5};
    s.profile = SourceProfile::Mode;
    p.sources.push_back(s);
    Source pt;
    pt.name = "pt";
    pt.at = {2, 2};
    p.sources.push_back(pt);
    Monitor m;
    m.name = "T";
    m.from = {9, 3};
    m.to = {9, 5};
    m.kind = "transmission";
    p.monitors.push_back(m);
    Monitor probe;
    probe.name = "probe1";
    probe.type = MonitorType::Time;
    probe.at = Vec2{5, 4};
    p.monitors.push_back(probe);
    return p;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

void writeAll(const QString& path, const QByteArray& data) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

}  // namespace

class TestDocument : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("GoLightlyTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_document"));
    }

    void undoRedoEachShapeEdit() {
        EditorDocument doc;
        doc.replaceProject(richProject(), QStringLiteral("setup"));
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.addShape(0, rect(6, 6, 7, 7), QStringLiteral("add")); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.translateItem({ItemRef::Kind::Shape, 0, 1}, 0.5, -0.25); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.duplicateItem({ItemRef::Kind::Shape, 1, 0}, 1, 1); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.removeItem({ItemRef::Kind::Shape, 0, 2}); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            doc.editLayer(1, QStringLiteral("edit"), [](Layer& l) { l.shapes[1].bend_radius.reset(); });
        }));
        // raster shapes move too (origin)
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.translateItem({ItemRef::Kind::Shape, 1, 2}, 1, 0); }));
    }

    void undoRedoSourcesMonitors() {
        EditorDocument doc;
        doc.replaceProject(richProject(), QStringLiteral("setup"));
        Source s;
        s.name = "new";
        s.at = {3, 3};
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.addSource(s); }));
        Monitor m;
        m.name = "R";
        m.from = {0.5, 1};
        m.to = {0.5, 2};
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.addMonitor(m); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.translateItem({ItemRef::Kind::Source, -1, 0}, 1, 0); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.translateItem({ItemRef::Kind::Monitor, -1, 1}, 0, 1); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.duplicateItem({ItemRef::Kind::Monitor, -1, 0}, 0.5, 0); }));
        QCOMPARE(QString::fromStdString(doc.project().monitors.back().name), QStringLiteral("T1"));
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.removeItem({ItemRef::Kind::Source, -1, 1}); }));
        QVERIFY(!doc.selection().valid());
    }

    void undoRedoStructuralEdits() {
        EditorDocument doc;
        doc.replaceProject(richProject(), QStringLiteral("setup"));
        StubPrompts prompts;
        LayersDock layers(&doc);
        MaterialsDock materials(&doc, &prompts);
        RunSetupDock run(&doc);
        doc.setCurrentLayer(0);
        QVERIFY(undoRedoRoundTrip(doc, [&] { layers.addLayer(); }));
        QCOMPARE(int(doc.project().layers.size()), 3);
        QVERIFY(undoRedoRoundTrip(doc, [&] { layers.moveCurrentLayer(+1); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { layers.toggleLock(); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { layers.deleteCurrentLayer(); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { materials.addMaterial(); }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { run.cellSize()->setValue(0.01); }));
        QCOMPARE(doc.project().domain.cell_size, 0.01);
        QVERIFY(prompts.errors.isEmpty());
    }

    void saveReloadRoundTrip() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rich.glproj"));
        StubPrompts prompts;
        EditorDocument doc;
        doc.replaceProject(richProject(), QStringLiteral("setup"));
        QVERIFY(doc.isModified());
        QVERIFY(doc.saveAs(path, prompts));
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.filePath(), path);
        EditorDocument reloaded;
        QVERIFY(reloaded.open(path, prompts));
        QVERIFY(prompts.errors.isEmpty());
        QVERIFY(reloaded.project() == doc.project());
        QVERIFY(!reloaded.isModified());
        // edit, undo back to the saved state: clean again
        reloaded.translateItem({ItemRef::Kind::Shape, 0, 0}, 1, 0);
        QVERIFY(reloaded.isModified());
        reloaded.undoStack()->undo();
        QVERIFY(!reloaded.isModified());
    }

    void openExample() {
        StubPrompts prompts;
        EditorDocument doc;
        QVERIFY(doc.open(QStringLiteral(GOLIGHTLY_SOURCE_DIR "/examples/waveguide_bend.glproj"), prompts));
        QVERIFY(!doc.project().layers.empty());
    }

    void brokenFileLeftUntouched() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.glproj"));
        const QByteArray broken = "{ \"format\": \"golightly-project\", \"version\": 1, \"domain\": { \"size\": [1,";
        writeAll(path, broken);
        StubPrompts prompts;
        EditorDocument doc;
        const Project before = doc.project();
        QVERIFY(!doc.open(path, prompts));
        QCOMPARE(prompts.errors.size(), 1);
        QVERIFY2(prompts.errors.front().contains(QStringLiteral("broken.glproj")), qPrintable(prompts.errors.front()));
        QVERIFY(doc.filePath().isEmpty());  // never adopted as the save target
        QVERIFY(doc.project() == before);
        QVERIFY(!doc.save(prompts));        // nothing to save to
        QCOMPARE(readAll(path), broken);
    }

    void newerFileLeftUntouched() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("newer.glproj"));
        QByteArray text = readAll(QStringLiteral(GOLIGHTLY_SOURCE_DIR "/examples/waveguide_bend.glproj"));
        text.replace("\"version\": 1", "\"version\": 7");
        writeAll(path, text);
        StubPrompts prompts;
        EditorDocument doc;
        QVERIFY(!doc.open(path, prompts));
        QCOMPARE(prompts.errors.size(), 1);
        QVERIFY2(prompts.errors.front().contains(QStringLiteral("newer")), qPrintable(prompts.errors.front()));
        QCOMPARE(readAll(path), text);
    }

    void saveFailureReported() {
        StubPrompts prompts;
        EditorDocument doc;
        doc.addShape(0, rect(1, 1, 2, 2), QStringLiteral("add"));
        QVERIFY(!doc.saveAs(QStringLiteral("/nonexistent-dir/x/y.glproj"), prompts));
        QCOMPARE(prompts.errors.size(), 1);
        QVERIFY(doc.isModified());
        QVERIFY(doc.filePath().isEmpty());
    }

    void mainWindowRecentFilesAndSettings() {
        QTemporaryDir dir;
        const QString org = test::testOrganization();
        QSettings(org, QStringLiteral("golightly")).clear();
        StubPrompts prompts;
        const app::MainWindowOptions o = test::windowOptions(dir, &prompts);
        const QString a = dir.filePath(QStringLiteral("a.glproj")), b = dir.filePath(QStringLiteral("b.glproj"));
        {
            app::MainWindow w(o);
            QVERIFY(w.saveFileAs(a));
            w.document()->addShape(0, rect(1, 1, 2, 2), QStringLiteral("add"));
            QVERIFY(w.saveFileAs(b));
            QCOMPARE(w.recentFiles(), QStringList({b, a}));
            w.action(QStringLiteral("view.grid"))->setChecked(false);
            w.close();  // saves settings
        }
        {
            app::MainWindow w(o);
            QCOMPARE(w.recentFiles(), QStringList({b, a}));
            QVERIFY(!w.canvas()->gridVisible());
            QVERIFY(w.openFile(a));
            QCOMPARE(w.recentFiles(), QStringList({a, b}));
            QCOMPARE(w.document()->filePath(), a);
            // unsaved-changes prompt: cancel keeps the window open, discard closes
            w.document()->addShape(0, rect(3, 3, 4, 4), QStringLiteral("add"));
            prompts.saveAnswer = Prompts::SaveChoice::Cancel;
            QVERIFY(!w.maybeSave());
            QCOMPARE(prompts.saveAsked, 1);
            prompts.saveAnswer = Prompts::SaveChoice::Save;
            QVERIFY(w.maybeSave());
            QVERIFY(!w.document()->isModified());
            EditorDocument check;
            QVERIFY(check.open(a, prompts));
            QCOMPARE(int(check.project().layers[0].shapes.size()), 1);
        }
        QSettings(org, QStringLiteral("golightly")).clear();
        QVERIFY(prompts.errors.isEmpty());
    }

    void autosaveRecovery() {
        QTemporaryDir dir;
        const QString org = test::testOrganization();
        StubPrompts prompts;
        const app::MainWindowOptions o = test::windowOptions(dir, &prompts);
        const QString saved = dir.filePath(QStringLiteral("work.glproj"));
        Project expected;
        {
            // a session that "crashes": edits after saving, autosaves, never closes cleanly
            auto* w = new app::MainWindow(o);
            QVERIFY(w->saveFileAs(saved));
            QVERIFY(!w->autosaveNow());  // nothing unsaved: no recovery file
            QVERIFY(!QFile::exists(w->recoveryFile()));
            w->document()->addShape(0, rect(2, 2, 5, 3), QStringLiteral("add"));
            QVERIFY(w->autosaveNow());
            QVERIFY(QFile::exists(w->recoveryFile()));
            expected = w->document()->project();
            // simulate the crash: the window goes away without closeEvent
            w->deleteLater();
        }
        QCoreApplication::processEvents();
        {
            app::MainWindow w(o);
            QVERIFY(w.offerRecovery());
            QCOMPARE(prompts.recoverAsked, 1);
            QVERIFY(prompts.recoverText.contains(QStringLiteral("work.glproj")));
            QVERIFY(w.document()->project() == expected);
            QVERIFY(w.document()->isModified());
            QCOMPARE(w.document()->filePath(), saved);
            QVERIFY(w.saveFile());
            QVERIFY(!QFile::exists(w.recoveryFile()));  // saved: nothing left to recover
        }
        {
            // declining removes the recovery file
            app::MainWindow w(o);
            w.document()->addShape(0, rect(1, 1, 2, 2), QStringLiteral("add"));
            QVERIFY(w.autosaveNow());
            prompts.recoverAnswer = false;
            app::MainWindow w2(o);
            QVERIFY(!w2.offerRecovery());
            QVERIFY(!QFile::exists(w2.recoveryFile()));
            QVERIFY(!w2.document()->isModified());
        }
        QSettings(org, QStringLiteral("golightly")).clear();
        QVERIFY(prompts.errors.isEmpty());
    }
};

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
