// Issue 55 ("The first hour"): what a new user met in the Properties dock, the layer stack
// and the STEP import, one test per item:
// 6  typing into a Properties field never triggers a tool shortcut;
// 7  zero-width or inverted boxes and a layer's z1 below z0 are marked, as a width of 0 is;
// 15 a mode monitor shows its kind and keeps it when the Kind field is touched;
// 9  STEP import leaves the solids that miss the slice plane unticked, and says so in words;
// 10 after Open or an edit, the Port Modes, S-parameters, Sweep and 3D view panels clear or
//    label what they show as stale;
// 11 a run made before the first save is attached after Save As (its folder moves next to
//    the file, the project takes the file's name); the progress text says why the time
//    limit, not the decay, is expected to end a run;
// 12 the Eraser says why it leaves drawn shapes alone; tool hints show in the status bar
//    at 1560 px wide.
// (Item 4, a slice changed during the reference run: tst_ide3d.)
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSettings>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>

#include <array>
#include <filesystem>

#include "canvas.hpp"
#include "docks.hpp"
#include "mode_viewer.hpp"
#include "pole_fit_dialog.hpp"
#include "monitors_dock.hpp"
#include "run_controller.hpp"
#include "run_progress.hpp"
#include "sparams_dock.hpp"
#include "sparams_view.hpp"
#include "structure_view_3d.hpp"
#include "sweep_dock.hpp"
#include "qcustomplot_include.hpp"
#include "editor_document.hpp"
#include "golightly/step_import.hpp"
#include "gui_fixture.hpp"
#include "layer_stack_dock.hpp"
#include "main_window.hpp"
#include "step_import_dialog.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::kSourceDir;
using golightly::test::StubPrompts;

namespace {

/// With GOLIGHTLY_TEST_SHOTS=DIR set, saves a picture for checking by eye.
void shot(const QString& name, QWidget* w) {
    const QString dir = qEnvironmentVariable("GOLIGHTLY_TEST_SHOTS");
    if (!dir.isEmpty()) w->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

QComboBox* combo(PropertiesDock* d, const QString& label) { return qobject_cast<QComboBox*>(d->field(label)); }

/// Moves the first shape of the first layer by 0.1 um (a geometry edit, one undo step).
void nudgeGeometry(EditorDocument* doc) {
    doc->editLayer(0, QStringLiteral("nudge"), [](Layer& l) { translate_shape(l.shapes.at(0), 0.1, 0.0); });
}

}  // namespace

class TestFirstHour : public QObject, golightly::test::WindowFixture {
    Q_OBJECT
    /// A rectangle (1, 1)..(3, 2) on layer 0, selected, with the Properties dock built.
    static void selectRectangle(app::MainWindow& w) {
        EditorDocument* doc = w.document();
        Shape r;
        r.type = ShapeType::Rectangle;
        r.min = {1, 1};
        r.max = {3, 2};
        doc->addShape(0, r, QStringLiteral("rectangle"));
        doc->setSelection({ItemRef::Kind::Shape, 0, int(doc->project().layers[0].shapes.size()) - 1});
        w.propertiesDock()->rebuild();
    }
    static const Shape& selectedShape(app::MainWindow& w) {
        const ItemRef s = w.document()->selection();
        return w.document()->project().layers[size_t(s.layer)].shapes[size_t(s.index)];
    }

private Q_SLOTS:
    void initTestCase() {
        initFixture();
    }

    // ---- 6: "d" typed into an expression in a Properties field switched to the DFT field tool
    void typingInPropertiesKeepsTheTool() {
        app::MainWindow w(options());
        w.resize(1200, 800);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        selectRectangle(w);
        w.action(QStringLiteral("tool.select"))->trigger();
        QVERIFY(w.action(QStringLiteral("tool.select"))->isChecked());
        auto* spin = qobject_cast<QDoubleSpinBox*>(w.propertiesDock()->field(QStringLiteral("Max x")));
        QVERIFY(spin);
        QLineEdit* edit = spin->findChild<QLineEdit*>();
        QVERIFY(edit);
        spin->setFocus();
        edit->selectAll();
        // letters that are tool keys (D: DFT field, R: rectangle, E: ellipse, W: path, P: polygon)
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("2dwerp"));
        for (const char* tool : {"tool.dftField", "tool.rectangle", "tool.ellipse", "tool.path", "tool.polygon"})
            QVERIFY2(!w.action(QString::fromLatin1(tool))->isChecked(), tool);
        QVERIFY(w.action(QStringLiteral("tool.select"))->isChecked());
        QVERIFY(spin->hasFocus());
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("canvas")), qPrintable(w.statusBar()->currentMessage()));
        // a text field of the dock takes every letter
        Monitor m;
        m.name = "probe";
        m.type = MonitorType::Time;
        m.at = Vec2{2, 2};
        w.document()->editProject(QStringLiteral("add monitor"), [&](Project& p) { p.monitors.push_back(m); });
        w.document()->setSelection({ItemRef::Kind::Monitor, -1, int(w.document()->project().monitors.size()) - 1});
        w.propertiesDock()->rebuild();
        auto* name = qobject_cast<QLineEdit*>(w.propertiesDock()->field(QStringLiteral("Name")));
        QVERIFY(name);
        name->setFocus();
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("dft probe"));
        QCOMPARE(name->text(), QStringLiteral("dft probe"));
        QVERIFY(!w.action(QStringLiteral("tool.dftField"))->isChecked());
        QVERIFY(w.action(QStringLiteral("tool.select"))->isChecked());
    }

    // ---- 7: inverted or zero-width boxes are marked like a width of 0, and not applied
    void invalidBoxesAreMarked() {
        StubPrompts prompts;
        app::MainWindow w(options(&prompts));
        w.resize(1300, 800);
        w.show();
        selectRectangle(w);
        PropertiesDock* props = w.propertiesDock();
        EditorDocument* doc = w.document();
        const int undo = doc->undoStack()->count();
        // zero width (max x = min x) and inverted (min y above max y)
        QString rule = props->enterValue(QStringLiteral("Max x"), 1.0);
        QVERIFY2(rule.contains(QStringLiteral("greater than min x")), qPrintable(rule));
        rule = props->enterValue(QStringLiteral("Min y"), 5.0);
        QVERIFY2(rule.contains(QStringLiteral("less than max y")), qPrintable(rule));
        for (const char* label : {"Max x", "Min y"}) {
            QWidget* f = props->field(QString::fromLatin1(label));
            QVERIFY2(f->property("invalid").toBool(), label);
            QVERIFY(f->toolTip().startsWith(QStringLiteral("Not applied")));
        }
        QCOMPARE(selectedShape(w).max.x, 3.0);
        QCOMPARE(selectedShape(w).min.y, 1.0);
        QCOMPARE(doc->undoStack()->count(), undo);
        QCOMPARE(props->problems().size(), 2);
        QTest::qWait(100);
        shot(QStringLiteral("invalid-rectangle"), &w);
        QVERIFY(!w.startRun());
        QVERIFY2(prompts.errors.last().contains(QStringLiteral("Max x: must be greater than min x (1)")),
                 qPrintable(prompts.errors.last()));
        // a larger max y makes the min y typed before valid: it is applied then (one step)
        QVERIFY(props->enterValue(QStringLiteral("Max y"), 6.0).isEmpty());
        QTRY_COMPARE(selectedShape(w).min.y, 5.0);
        QCOMPARE(selectedShape(w).max.y, 6.0);
        QTRY_VERIFY(!props->field(QStringLiteral("Min y"))->property("invalid").toBool());
        QCOMPARE(props->problems().size(), 1);  // max x still
        QVERIFY(props->enterValue(QStringLiteral("Max x"), 4.0).isEmpty());
        QVERIFY(props->problems().isEmpty());
        QCOMPARE(selectedShape(w).max.x, 4.0);
        doc->undoStack()->undo();
        QCOMPARE(selectedShape(w).max.x, 3.0);
    }

    // ---- 7: a layer's z1 below z0 in the layer stack is marked, not silently reverted
    void invalidLayerRangeIsMarked() {
        EditorDocument doc;
        doc.editLayer(0, QStringLiteral("z"), [](Layer& l) { l.z = std::array<double, 2>{0.0, 0.5}; });
        LayerStackDock dock(&doc);
        dock.resize(700, 500);
        dock.show();
        QTableWidget* t = dock.table();
        const int undo = doc.undoStack()->count();
        t->item(0, LayerStackDock::ColZ1)->setText(QStringLiteral("-0.25"));
        QApplication::processEvents();
        QApplication::processEvents();
        QCOMPARE(t->item(0, LayerStackDock::ColZ1)->text(), QStringLiteral("-0.25"));  // kept as typed
        const QString rule = dock.invalidRule(0, LayerStackDock::ColZ1);
        QVERIFY2(rule.contains(QStringLiteral("greater than z0 (0 µm)")), qPrintable(rule));
        QVERIFY(t->item(0, LayerStackDock::ColZ1)->toolTip().contains(rule));
        QCOMPARE(t->item(0, LayerStackDock::ColZ1)->background().color(), QColor(0xff, 0xd9, 0xd9));
        QVERIFY(doc.project().layers[0].z == (std::array<double, 2>{0.0, 0.5}));
        QCOMPARE(doc.undoStack()->count(), undo);
        QCOMPARE(dock.problems().size(), 1);
        QVERIFY2(dock.problems().front().contains(QStringLiteral("z1: must be greater than z0")), qPrintable(dock.problems().front()));
        // a sidewall of 90 degrees and a GDS layer that is not one are marked too
        t->item(0, LayerStackDock::ColAngle)->setText(QStringLiteral("90"));
        t->item(0, LayerStackDock::ColGds)->setText(QStringLiteral("1/x"));
        QApplication::processEvents();
        QVERIFY(!dock.invalidRule(0, LayerStackDock::ColAngle).isEmpty());
        QVERIFY(!dock.invalidRule(0, LayerStackDock::ColGds).isEmpty());
        QCOMPARE(dock.problems().size(), 3);
        shot(QStringLiteral("invalid-layer-z"), &dock);
        // a lower z0 makes the typed z1 valid: applied
        t->item(0, LayerStackDock::ColZ0)->setText(QStringLiteral("-1"));
        QTRY_VERIFY(doc.project().layers[0].z == (std::array<double, 2>{-1.0, -0.25}));
        QVERIFY(dock.invalidRule(0, LayerStackDock::ColZ1).isEmpty());
        QCOMPARE(dock.problems().size(), 2);
        // a valid entry clears its mark
        t->item(0, LayerStackDock::ColAngle)->setText(QStringLiteral("10"));
        t->item(0, LayerStackDock::ColGds)->setText(QStringLiteral("2/0"));
        QApplication::processEvents();
        QVERIFY(dock.problems().isEmpty());
        QCOMPARE(doc.project().layers[0].sidewall_angle_deg, 10.0);
    }

    // ---- 15: a mode monitor is shown as one, and touching Kind keeps its kind and modes
    void modeMonitorKeepsItsKind() {
        app::MainWindow w(options());
        w.show();
        EditorDocument* doc = w.document();
        Monitor m;
        m.name = "modes";
        m.type = MonitorType::Flux;
        m.from = {2, 1};
        m.to = {2, 3};
        m.direction = "+x";
        m.kind = "mode";
        m.extra["modes"] = std::vector<int>{0, 1};
        doc->editProject(QStringLiteral("add monitor"), [&](Project& p) { p.monitors.push_back(m); });
        const int index = int(doc->project().monitors.size()) - 1;
        doc->setSelection({ItemRef::Kind::Monitor, -1, index});
        w.resize(1300, 800);
        QTest::qWait(100);
        w.propertiesDock()->rebuild();
        shot(QStringLiteral("mode-monitor-properties"), &w);
        QComboBox* kind = combo(w.propertiesDock(), QStringLiteral("Kind"));
        QVERIFY(kind);
        QVERIFY2(kind->currentText().startsWith(QStringLiteral("mode")), qPrintable(kind->currentText()));
        auto* modes = qobject_cast<QLineEdit*>(w.propertiesDock()->field(QStringLiteral("Modes")));
        QVERIFY(modes);
        QCOMPARE(modes->text(), QStringLiteral("0, 1"));
        // touching the field (choosing what it shows) changes nothing
        kind = combo(w.propertiesDock(), QStringLiteral("Kind"));  // the dock may have been rebuilt
        Q_EMIT kind->activated(kind->currentIndex());
        QApplication::processEvents();
        QCOMPARE(doc->project().monitors[size_t(index)].kind, std::string("mode"));
        QVERIFY(doc->project().monitors[size_t(index)].extra.at("modes") == Json(std::vector<int>{0, 1}));
        // the mode indices are edited in their field (one undo step)
        w.propertiesDock()->rebuild();
        modes = qobject_cast<QLineEdit*>(w.propertiesDock()->field(QStringLiteral("Modes")));
        QVERIFY(modes);
        QVERIFY(golightly::test::undoRedoRoundTrip(*doc, [&] {
            modes->setText(QStringLiteral("0, 2"));
            Q_EMIT modes->editingFinished();
        }));
        QVERIFY(doc->project().monitors[size_t(index)].extra.at("modes") == Json(std::vector<int>{0, 2}));
        // another kind is one undo step; undo brings the mode monitor back whole
        w.propertiesDock()->rebuild();
        kind = combo(w.propertiesDock(), QStringLiteral("Kind"));
        const Monitor before = doc->project().monitors[size_t(index)];
        kind = combo(w.propertiesDock(), QStringLiteral("Kind"));
        Q_EMIT kind->activated(kind->findText(QStringLiteral("transmission")));
        QCOMPARE(doc->project().monitors[size_t(index)].kind, std::string("transmission"));
        QVERIFY(!doc->project().monitors[size_t(index)].extra.contains("modes"));
        doc->undoStack()->undo();
        QVERIFY(doc->project().monitors[size_t(index)] == before);
        // a 3D flux plane of kind mode, too
        doc->editProject(QStringLiteral("plane"), [&](Project& p) {
            Monitor& x = p.monitors[size_t(index)];
            x.center = {2, 2, 0.5};
            x.size = {0, 2, 1};
        });
        w.propertiesDock()->rebuild();
        kind = combo(w.propertiesDock(), QStringLiteral("Kind"));
        QVERIFY2(kind->currentText().startsWith(QStringLiteral("mode")), qPrintable(kind->currentText()));
    }

    // ---- 9: solids that miss the slice plane start unticked; a refusal is in words and µm
    void stepImportUnticksSolidsOffThePlane() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_OCCT, step_import_available(), "occt");
        EditorDocument doc;
        StubPrompts prompts;
        StepImportDialog dlg(&doc, &prompts);
        dlg.loadFile(QStringLiteral(GOLIGHTLY_SOURCE_DIR "/fuzz/corpus/step/Crystal_SMD_4P_2520.step"));
        QVERIFY(dlg.waitForLoaded(120000));
        const int n = int(dlg.model().solids.size());
        QVERIFY(n >= 3);
        // the slice plane at file z = -0.6 mm: the body and two of the pads (the others miss it)
        StepPlacement pl = default_step_placement(dlg.model(), doc.project(), 1.0);
        pl.translate[2] = doc.project().domain.slice_z + 0.6;
        dlg.setPlacement(pl);
        dlg.updateSections();
        int crossing = 0;
        for (int k = 0; k < n; ++k) {
            const bool cuts = dlg.sectionAreas()[size_t(k)] > 0;
            crossing += cuts;
            QCOMPARE(dlg.solidIncluded(k), cuts);
        }
        QVERIFY(crossing >= 1 && crossing < n);
        QVERIFY2(dlg.statusText().contains(QStringLiteral("left out")), qPrintable(dlg.statusText()));
        dlg.resize(1150, 560);
        dlg.show();
        QTest::qWait(100);
        shot(QStringLiteral("step-import-defaults"), &dlg);
        // a solid ticked by hand stays ticked; the refusal names it in words and µm
        int miss = 0;
        while (dlg.sectionAreas()[size_t(miss)] > 0) ++miss;
        dlg.setSolidIncluded(miss, true);
        dlg.updateSections();
        QVERIFY(dlg.solidIncluded(miss));
        QVERIFY(!dlg.importIntoDocument());
        QCOMPARE(prompts.errors.size(), 1);
        const QString e = prompts.errors.front();
        QVERIFY2(e.contains(QStringLiteral("do not cross the slice plane at z = 0 µm")) ||
                     e.contains(QStringLiteral("does not cross the slice plane at z = 0 µm")),
                 qPrintable(e));
        QVERIFY2(e.contains(QString::fromStdString(dlg.model().solids[size_t(miss)].name)), qPrintable(e));
        QVERIFY2(e.contains(QStringLiteral("Translation z")), qPrintable(e));
        for (const char* key : {" um", "slice_z", "translate z", "domain."})
            QVERIFY2(!e.contains(QString::fromLatin1(key)), qPrintable(e));
        // untick it again: the defaults import
        dlg.setSolidIncluded(miss, false);
        QVERIFY(dlg.importIntoDocument());
        QCOMPARE(prompts.errors.size(), 1);
        // the plane moved: solids not chosen by hand follow it, the hand-picked one stays
        pl.translate[2] += 1e6;
        dlg.setPlacement(pl);
        dlg.updateSections();
        for (int k = 0; k < n; ++k)
            if (k != miss) QVERIFY(!dlg.solidIncluded(k));
        QVERIFY2(dlg.statusText().contains(QStringLiteral("No solid crosses")), qPrintable(dlg.statusText()));
    }

    // ---- 10: panels that showed the previous project's or geometry's results unlabelled
    void panelsClearOrLabelStaleResults() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, expressions_available(), "muparser");
        app::MainWindow w(options());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Port Modes: the new project has no ports; a project with two says so after Open
        app::ModeViewerDock* modes = w.modeViewerDock();
        QVERIFY2(modes->statusText().contains(QStringLiteral("no ports")), qPrintable(modes->statusText()));
        const QString slab = test::copyWritable(kSourceDir + QStringLiteral("/tests/gui/data/slab2d_tools.glproj"),
                                                dir_.filePath(QStringLiteral("slab10.glproj")));
        QVERIFY(w.openFile(slab));
        QVERIFY2(!modes->statusText().contains(QStringLiteral("no ports")), qPrintable(modes->statusText()));
        QVERIFY2(modes->statusText().contains(QStringLiteral("2 port")), qPrintable(modes->statusText()));
        // solved modes, then an edit: labelled; undone: current again
        QVERIFY(modes->solve());
        QVERIFY(modes->waitForFinished(60000));
        QVERIFY2(modes->result() && !modes->isStale(), qPrintable(modes->statusText()));
        nudgeGeometry(w.document());
        QVERIFY(modes->isStale());
        QVERIFY2(modes->statusText().contains(QStringLiteral("before the last edit")), qPrintable(modes->statusText()));
        modes->show();
        modes->raise();
        QTest::qWait(50);
        shot(QStringLiteral("port_modes_stale"), modes);
        w.document()->undoStack()->undo();
        QVERIFY(!modes->isStale());

        // S-parameters: computed, then an edit labels them
        app::SParamsDock* sp = w.sparamsDock();
        QSignalSpy spDone(sp, &app::SParamsDock::finished);
        QVERIFY(w.computeSParameters(1));
        QTRY_VERIFY_WITH_TIMEOUT(!spDone.isEmpty(), 120000);
        QVERIFY2(spDone.front().at(0).toBool(), qPrintable(spDone.front().at(1).toString()));
        QVERIFY2(sp->staleText().isEmpty(), qPrintable(sp->staleText()));
        nudgeGeometry(w.document());
        QVERIFY2(sp->staleText().contains(QStringLiteral("before the last edit")), qPrintable(sp->staleText()));
        sp->show();
        sp->raise();
        QTest::qWait(50);
        shot(QStringLiteral("sparams_stale"), sp);
        w.document()->undoStack()->undo();
        QVERIFY2(sp->staleText().isEmpty(), qPrintable(sp->staleText()));

        // Sweep: two designs of w2; a geometry edit labels the points, a new value of the
        // swept parameter does not (the sweep covers it)
        app::SweepDock* sweep = w.sweepDock();
        sweep->setRange(QStringLiteral("w2"), {true, 0.4, 0.6, 2});
        sweep->setQuantity(QStringLiteral("T"), 1.55);
        QVERIFY(sweep->startSweep(dir_.filePath(QStringLiteral("sweep10")), 1));
        QVERIFY(sweep->waitForFinished(180000));
        QCOMPARE(int(sweep->points().size()), 2);
        QVERIFY2(sweep->staleText().isEmpty(), qPrintable(sweep->staleText()));
        QVERIFY(sweep->setParameterValue(QStringLiteral("w2"), QStringLiteral("0.5")));
        QVERIFY2(sweep->staleText().isEmpty(), qPrintable(sweep->staleText()));
        nudgeGeometry(w.document());
        QVERIFY2(sweep->staleText().contains(QStringLiteral("before the last edit")), qPrintable(sweep->staleText()));
        shot(QStringLiteral("sweep_stale"), sweep);

        // another project: the port modes and S-parameters go, the sweep says whose it is
        prompts_.saveAnswer = StubPrompts::SaveChoice::Discard;
        const QString quick = copyExample(QStringLiteral("quickstart.glproj"), QStringLiteral("quick10.glproj"));
        QVERIFY(w.openFile(quick));
        QVERIFY(!modes->result());
        QCOMPARE(modes->table()->rowCount(), 0);
        QVERIFY2(modes->statusText().contains(QStringLiteral("no ports")), qPrintable(modes->statusText()));
        QCOMPARE(sp->view()->magnitudePlot()->graphCount(), 0);
        QVERIFY2(sweep->staleText().contains(QStringLiteral("slab10.glproj")) &&
                     sweep->staleText().contains(QStringLiteral("not of the open project")),
                 qPrintable(sweep->staleText()));
        // back to the slab: its saved S-parameters, current; after Save As under another
        // name they are still the project's
        QVERIFY(w.openFile(slab));
        QVERIFY(sp->view()->magnitudePlot()->graphCount() > 0);
        QVERIFY2(sp->staleText().isEmpty(), qPrintable(sp->staleText()));
        QVERIFY(w.saveFileAs(dir_.filePath(QStringLiteral("slab10b.glproj"))));
        QVERIFY2(sp->staleText().isEmpty(), qPrintable(sp->staleText()));
    }

    /// 10: the 3D view frames an opened project, whatever the camera of the previous one
    /// (two projects with the same domain).
    void view3dFramesAnOpenedProject() {
        app::MainWindow w(options());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString a = copyExample(QStringLiteral("strip_waveguide_3d.glproj"), QStringLiteral("strip_a.glproj"));
        const QString b = copyExample(QStringLiteral("strip_waveguide_3d.glproj"), QStringLiteral("strip_b.glproj"));
        QVERIFY(w.openFile(a));
        w.structure3dDock()->show();
        w.structure3dDock()->raise();
        QTest::qWait(50);
        viewport::StructureView3D* v = w.structureView3d();
        const double yaw0 = v->yaw(), pitch0 = v->pitch(), distance0 = v->distance();
        v->orbit(40, 15);
        v->zoom(0.5);
        QVERIFY(std::abs(v->yaw() - yaw0) > 1);
        QVERIFY(w.openFile(b));
        QTest::qWait(50);
        QCOMPARE(v->yaw(), yaw0);
        QCOMPARE(v->pitch(), pitch0);
        QCOMPARE(v->distance(), distance0);
        // hidden while another project opens: framed when shown again
        v->orbit(40, 15);
        w.structure3dDock()->hide();
        QVERIFY(w.openFile(a));
        w.structure3dDock()->show();
        QTest::qWait(50);
        QCOMPARE(v->yaw(), yaw0);
    }

    /// 10: the Monitors header never says "Finished" (the previous run's) once a run starts.
    void monitorsHeaderDuringRunStart() {
        app::MainWindow w(options());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString quick = copyExample(QStringLiteral("quickstart.glproj"), QStringLiteral("quick_hdr.glproj"));
        QVERIFY(w.openFile(quick));
        app::SolverSettings s;
        s.threads = 1;
        QSignalSpy done(w.runController(), &app::RunController::finished);
        QVERIFY(w.startRun(&s));
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        QVERIFY2(w.monitorsDock()->summaryText().startsWith(QStringLiteral("Finished")),
                 qPrintable(w.monitorsDock()->summaryText()));
        // the second run: "Finished" never shows while it goes
        done.clear();
        QStringList seen;
        QVERIFY(w.startRun(&s));
        w.monitorsDock()->show();
        w.monitorsDock()->raise();
        QTest::qWait(100);
        shot(QStringLiteral("run_start_100ms"), &w);
        while (done.isEmpty()) {
            seen << w.monitorsDock()->summaryText();
            QTest::qWait(20);
            QVERIFY(seen.size() < 20000);
        }
        for (const QString& t : seen) QVERIFY2(!t.startsWith(QStringLiteral("Finished")), qPrintable(t));
    }

    // ---- 11: a run before the first save, Save As; the stop rule's words
    void runBeforeFirstSaveIsAttached() {
        // the untitled results folder lies in the temporary folder: this test's own
        const QByteArray tmpBefore = qgetenv("TMPDIR");
        QDir().mkpath(dir_.filePath(QStringLiteral("tmp")));
        qputenv("TMPDIR", dir_.filePath(QStringLiteral("tmp")).toUtf8());
        app::MainWindow w(options());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.document()->filePath().isEmpty());
        Project p = load_project((kSourceDir + QStringLiteral("/examples/quickstart.glproj")).toStdString());
        p.name = w.document()->project().name;  // the new project's name ("Untitled")
        w.document()->replaceProject(p, QStringLiteral("set up"));
        QVERIFY(w.document()->filePath().isEmpty());
        app::SolverSettings s;
        s.threads = 1;
        QSignalSpy done(w.runController(), &app::RunController::finished);
        QVERIFY(w.startRun(&s));
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        QVERIFY2(done.front().at(0).toBool(), qPrintable(done.front().at(1).toString()));
        const QString untitledResults = w.resultsDirectory();
        QVERIFY(QFileInfo::exists(untitledResults + QStringLiteral("/summary.json")));
        const QString path = dir_.filePath(QStringLiteral("first_save.glproj"));
        QVERIFY(w.saveFileAs(path));
        // the run's folder is the project's now; the temporary one is gone
        QCOMPARE(w.resultsDirectory(), dir_.filePath(QStringLiteral("first_save_results")));
        QVERIFY(QFileInfo::exists(w.resultsDirectory() + QStringLiteral("/summary.json")));
        QVERIFY(!QFileInfo::exists(untitledResults));
        QCOMPARE(w.runController()->resultsDir(), w.resultsDirectory());
        QVERIFY2(w.monitorsDock()->summaryText().contains(QStringLiteral("first_save.glproj")),
                 qPrintable(w.monitorsDock()->summaryText()));
        // the project is named after its file, not "Untitled"; saved, not modified
        QCOMPARE(w.document()->project().name, std::string("first_save"));
        QVERIFY(!w.document()->isModified());
        QCOMPARE(load_project(path.toStdString()).name, std::string("first_save"));
        QVERIFY(!w.statusBar()->currentMessage().contains(QStringLiteral("Untitled")));
        // Open finds them: the saved results of the project
        prompts_.saveAnswer = StubPrompts::SaveChoice::Discard;
        QVERIFY(w.openFile(copyExample(QStringLiteral("quickstart.glproj"), QStringLiteral("other11.glproj"))));
        QVERIFY(w.openFile(path));
        QVERIFY2(w.monitorsDock()->summaryText().startsWith(QStringLiteral("Saved results of first_save.glproj")),
                 qPrintable(w.monitorsDock()->summaryText()));
        if (tmpBefore.isNull()) qunsetenv("TMPDIR");
        else qputenv("TMPDIR", tmpBefore);
    }

    /// 11: Save As while the first run goes: its folder joins the file when it ends.
    void runGoingDuringFirstSaveIsAttached() {
        const QByteArray tmpBefore = qgetenv("TMPDIR");
        QDir().mkpath(dir_.filePath(QStringLiteral("tmp2")));
        qputenv("TMPDIR", dir_.filePath(QStringLiteral("tmp2")).toUtf8());
        app::MainWindow w(options());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        Project p = load_project((kSourceDir + QStringLiteral("/examples/quickstart.glproj")).toStdString());
        p.name = w.document()->project().name;
        w.document()->replaceProject(p, QStringLiteral("set up"));
        app::SolverSettings s;
        s.threads = 1;
        s.pauseAtMainTimeFs = 5;
        QSignalSpy done(w.runController(), &app::RunController::finished);
        QVERIFY(w.startRun(&s));
        QTRY_VERIFY_WITH_TIMEOUT(w.runController()->isPaused() || !done.isEmpty(), 60000);
        QVERIFY2(done.isEmpty(), "the run ended before it paused");
        const QString untitledResults = w.resultsDirectory();
        const QString path = dir_.filePath(QStringLiteral("saved_while_running.glproj"));
        QVERIFY(w.saveFileAs(path));
        QVERIFY(w.runController()->isRunning());
        w.runController()->resume();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        QVERIFY2(done.front().at(0).toBool(), qPrintable(done.front().at(1).toString()));
        QCOMPARE(w.runController()->resultsDir(), dir_.filePath(QStringLiteral("saved_while_running_results")));
        QVERIFY(QFileInfo::exists(w.runController()->resultsDir() + QStringLiteral("/summary.json")));
        QVERIFY(!QFileInfo::exists(untitledResults));
        if (tmpBefore.isNull()) qunsetenv("TMPDIR");
        else qputenv("TMPDIR", tmpBefore);
    }

    /// 11: when the time limit is expected to end a run that has a decay rule (the energy
    /// falls too slowly, as after a live edit), the progress text says why.
    void limitRuleSaysWhy() {
        app::ProgressModel m;
        app::StopPlan plan;
        plan.sourcesEndFs = 10;
        plan.decayDb = 30;
        plan.maxTimeFs = 200;
        m.reset(plan);
        ProgressInfo p;
        p.phase = "main";
        p.max_steps = 20000;
        p.steps_per_s = 1000;
        // decaying 1 dB per wall second from 20 fs on: 30 dB would take ~ 25 s more, the
        // limit comes in ~ 10 s
        app::ProgressEstimate e;
        for (int k = 0; k <= 10; ++k) {
            p.step = 10000 + 100 * k;
            p.time_fs = 100 + k;
            p.energy_db = 5 + 0.1 * k;
            e = m.update(p, 0.1 * k);
        }
        QCOMPARE(int(e.rule), int(app::ProgressEstimate::Rule::Limit));
        QVERIFY2(e.ruleText.contains(QStringLiteral("time limit")), qPrintable(e.ruleText));
        QVERIFY2(e.ruleText.contains(QStringLiteral("30 dB")) && e.ruleText.contains(QStringLiteral("too slowly")),
                 qPrintable(e.ruleText));
        // a live edit: the rate is measured again (no ETA from the old structure's decay)
        m.restartRate();
        p.step += 100;
        p.time_fs += 1;
        e = m.update(p, 2.0);
        QCOMPARE(int(e.rule), int(app::ProgressEstimate::Rule::Decay));
    }

    // ---- 16: the pole-fit plot before data: a plot of the band, not a squashed strip
    void poleFitPlotBeforeData() {
        PoleFitDialog d(0.4, 1.0);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QTest::qWait(500);
        shot(QStringLiteral("pole_fit_empty"), &d);
        QCustomPlot* p = d.plot();
        const QRect axes = p->axisRect()->rect();
        std::printf("pole-fit plot %dx%d, axes %dx%d, y %g..%g\n", p->width(), p->height(), axes.width(), axes.height(),
                    p->yAxis->range().lower, p->yAxis->range().upper);
        QVERIFY2(axes.height() > p->height() / 2 && axes.width() > p->width() / 2,
                 qPrintable(QStringLiteral("axes %1x%2 px of %3x%4").arg(axes.width()).arg(axes.height()).arg(p->width()).arg(p->height())));
        QVERIFY(p->yAxis->range().size() > 0.5);
    }

    // ---- 12: the Eraser on drawn shapes; tool hints at 1560 px
    void eraserOnDrawnShapesSaysWhy() {
        app::MainWindow w(options());
        w.resize(1560, 900);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        selectRectangle(w);
        w.document()->setSelection({});
        const Project before = w.document()->project();
        w.action(QStringLiteral("tool.eraser"))->trigger();
        Canvas* c = w.canvas();
        QTest::mouseClick(c, Qt::LeftButton, {}, c->toScreen(QPointF(2, 1.5)).toPoint());
        QVERIFY(w.document()->project() == before);  // drawn shapes are exact: not cut
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Delete")), qPrintable(w.statusBar()->currentMessage()));
        // off the shape, nothing painted on the layer: said too
        w.statusBar()->clearMessage();
        QTest::mouseClick(c, Qt::LeftButton, {}, c->toScreen(QPointF(6, 6)).toPoint());
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Nothing is painted")),
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(w.document()->project() == before);
    }

    void toolHintsShowAt1560() {
        app::MainWindow w(options());
        w.resize(1560, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* hint = w.findChild<QLabel*>(QStringLiteral("toolHint"));
        QVERIFY(hint);
        // a run's long status (its results folder) is in the status bar too
        const QString quick = copyExample(QStringLiteral("quickstart.glproj"), QStringLiteral("quick_hint.glproj"));
        QVERIFY(w.openFile(quick));
        app::SolverSettings s;
        s.threads = 1;
        QSignalSpy done(w.runController(), &app::RunController::finished);
        QVERIFY(w.startRun(&s));
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        w.showFieldView(false);
        for (const char* tool : {"tool.rectangle", "tool.path", "tool.eraser"}) {
            w.action(QString::fromLatin1(tool))->trigger();
            QTest::qWait(20);
            w.statusBar()->clearMessage();  // (the "Tool: ..." message hides it for 3 s)
            QTest::qWait(20);
            QVERIFY2(!hint->text().isEmpty(), tool);
            const int needed = hint->fontMetrics().horizontalAdvance(hint->text());  // the whole hint
            QVERIFY2(hint->isVisible() && hint->width() >= needed,
                     qPrintable(QStringLiteral("%1: hint %2 px wide, needs %3; status bar %4 px")
                                    .arg(QString::fromLatin1(tool))
                                    .arg(hint->isVisible() ? hint->width() : -1)
                                    .arg(needed)
                                    .arg(w.statusBar()->width())));
        }
        shot(QStringLiteral("status_bar_hint_1560"), w.statusBar());
    }

    // ---- #51: Run setup's symmetry rows edit domain.symmetry with undo; the canvas veils
    // the half that is not simulated
    void symmetryRowsEditWithUndo() {
        app::MainWindow w(options());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString strip =
            copyExample(QStringLiteral("strip_symmetry_3d.glproj"), QStringLiteral("strip_sym.glproj"));
        QVERIFY(w.openFile(strip));
        auto* sy = w.findChild<QComboBox*>(QStringLiteral("runSetup.symmetryy"));
        auto* sx = w.findChild<QComboBox*>(QStringLiteral("runSetup.symmetryx"));
        QVERIFY(sy && sx);
        QCOMPARE(sy->currentIndex(), 2);  // odd (-1), as the file says
        QCOMPARE(sx->currentIndex(), 0);
        sx->activated(2);                 // as a user picking "odd" for x
        QVERIFY((w.document()->project().domain.symmetry == std::array<int, 3>{-1, -1, 0}));
        w.action(QStringLiteral("edit.undo"))->trigger();
        QVERIFY((w.document()->project().domain.symmetry == std::array<int, 3>{0, -1, 0}));
        QCOMPARE(sx->currentIndex(), 0);
        shot(QStringLiteral("symmetry_canvas"), &w);
    }
};

QTEST_MAIN(TestFirstHour)
#include "tst_first_hour.moc"
