// Inverse design in the IDE (issue 53 item 6) on a tiny 2D project (a silicon slab guide,
// a one-way mode source, an input and an output mode monitor, 0.05 um cells; one
// iteration, a forward and an adjoint run, takes well under a second on one core):
//  - the Design region tool draws design.regions[0] (with a default objective), its
//    Properties edit the section, each edit one undo step; undo / redo restore it;
//  - save and reopen keep the section, and it is what the optimizer reads;
//  - the Inverse Design dock runs the optimization on a worker thread: one plot point per
//    iteration, the projected density in the dock and on the canvas, the forward and the
//    adjoint field over the design region; Pause ends the iteration under way (the
//    checkpoint keeps the last completed one), Resume continues from the checkpoint with
//    the numbering going on; Stop during an iteration returns within a chunk of steps,
//    not at the iteration's end; a solver error shows in the dock;
//  - Apply design as shapes replaces the region by polygons in one undo step; Export
//    design as GDS writes a GDS file;
//  - the main window has the tool and the Run > Optimize (adjoint) action;
//  - Properties edit the projection's kind and its beta list (checked as the reader checks
//    it: "inf" last and only with the smoothed projection), each edit one undo step, and
//    save / reopen keep them;
//  - with several wavelengths the plot draws one curve per wavelength beside the figure of
//    merit (their mean), and history.csv gets the objective@<wavelength> columns;
//  - Stop and Pause during the normalization run end it (before any iteration).
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>

#include "qcustomplot_include.hpp"

#include "canvas.hpp"
#include "design_canvas.hpp"
#include "design_region.hpp"
#include "docks.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/project.hpp"
#include "gui_test_util.hpp"
#include "inverse_design_dock.hpp"
#include "main_window.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::StubPrompts;

namespace {
const char* kGuide = R"JSON({"format": "golightly-project", "version": 1, "name": "guide",
  "domain": {"size": [3.6, 2.4], "cell_size": 0.05, "polarization": "TMz", "pml": {"cells": 12}},
  "materials": [{"id": "si", "epsilon_inf": 12.0},
                {"id": "fastpole", "epsilon_inf": 1.0,
                 "poles": [{"kind": "lorentz", "omega_p": 1e15, "omega_0": 1e17, "gamma": 1e13}]}],
  "layers": [{"name": "wg", "material": "si", "shapes": [{"type": "rectangle", "min": [-1.0, 1.05], "max": [5.0, 1.35]}]}],
  "sources": [{"name": "in", "type": "line", "from": [0.8, 0.2], "to": [0.8, 2.2], "component": "Ez", "profile": "mode",
               "direction": "+x", "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.3}}],
  "monitors": [{"name": "input", "type": "flux", "kind": "mode", "from": [1.2, 0.2], "to": [1.2, 2.2], "direction": "+x"},
               {"name": "output", "type": "flux", "kind": "mode", "from": [2.7, 0.2], "to": [2.7, 2.2], "direction": "+x"}],
  "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 5}, "precision": "float64", "backend": "cpu"}})JSON";

Project guide() { return parse_project(kGuide, "guide.glproj"); }

/// Enters `text` into the Properties line edit labelled `label` (as a user typing and
/// pressing Enter); false when there is no such field.
bool enterLine(PropertiesDock& props, const QString& label, const QString& text) {
    auto* e = qobject_cast<QLineEdit*>(props.field(label));
    if (!e) return false;
    e->setText(text);
    Q_EMIT e->editingFinished();
    return true;
}

/// Picks item `index` of the Properties combo labelled `label` (as a user would).
bool pickCombo(PropertiesDock& props, const QString& label, int index) {
    auto* c = qobject_cast<QComboBox*>(props.field(label));
    if (!c) return false;
    c->setCurrentIndex(index);
    Q_EMIT c->activated(index);
    return true;
}

/// The guide with a 0.6 x 0.6 um design region across it (0.1 um pixels: 6 x 6), three
/// iterations, the beta schedule stepping after two.
Project guideWithRegion() {
    Project p = guide();
    set_design_box(p, QPointF(1.5, 0.9), QPointF(2.1, 1.5));
    Json& r = design_region_mut(p);
    r["pixel_um"] = 0.1;
    r["filter"]["radius_um"] = 0.15;
    r["projection"]["beta"] = 2;
    r["projection"]["beta_every"] = 2;
    design_objective_mut(p)["wavelengths_um"] = Json::array({1.55});
    design_optimizer_mut(p)["max_iterations"] = 3;
    return p;
}

void drag(Canvas& c, QPointF a, QPointF b) {
    const QPoint sa = c.toScreen(a).toPoint(), sb = c.toScreen(b).toPoint();
    QTest::mousePress(&c, Qt::LeftButton, {}, sa);
    QMouseEvent move(QEvent::MouseMove, QPointF(sb), c.mapToGlobal(QPointF(sb)), Qt::NoButton, Qt::LeftButton, {});
    QApplication::sendEvent(&c, &move);
    QTest::mouseRelease(&c, Qt::LeftButton, {}, sb);
}
}  // namespace

class TestInverseDesign : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void toolDrawsRegionAndPropertiesUndo() {
        EditorDocument doc;
        doc.adoptRecovered(guide(), QString());
        test::DesignCanvas dc(&doc, 100, QPointF(1.8, 1.2));
        Canvas& canvas = dc.canvas;
        const Project before = doc.project();
        drag(canvas, QPointF(1.5, 0.9), QPointF(2.1, 1.5));
        QVERIFY(design_region(doc.project()));
        QCOMPARE(doc.selection().kind, ItemRef::Kind::Design);
        Vec3 a, b;
        QVERIFY(design_box(doc.project(), a, b));
        // the drag's corners within a screen pixel (0.01 um), the box whole pixels of 0.05 um
        QVERIFY(std::abs(a[0] - 1.5) <= 0.011 && std::abs(a[1] - 0.9) <= 0.011);
        const auto n = design_pixels(doc.project());
        QCOMPARE(n[0], 12);
        QCOMPARE(n[1], 12);
        // a default objective on the mode monitors: output, normalized by input
        const auto spec = design_spec(doc.project(), "guide.glproj");
        QVERIFY(spec);
        QCOMPARE(spec->objective.terms.size(), size_t(1));
        QCOMPARE(spec->objective.terms[0].monitor, std::string("output"));
        QCOMPARE(spec->objective.normalize_by, std::string("input"));
        QCOMPARE(spec->regions[0].materials[1], std::string("si"));
        // the canvas hit test finds it (inside, where no shape is)
        QCOMPARE(canvas.hitTest(QPointF(1.6, 1.0)).kind, ItemRef::Kind::Design);

        PropertiesDock props(&doc);
        props.rebuild();
        QVERIFY(props.field(QStringLiteral("Pixel")));
        const int steps = doc.undoStack()->count();
        // a pixel that does not divide the box is refused (red), not applied
        QVERIFY(!props.enterValue(QStringLiteral("Pixel"), 0.07).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps);
        props.rebuild();
        QVERIFY(props.enterValue(QStringLiteral("Pixel"), 0.1).isEmpty());
        props.rebuild();
        QVERIFY(props.enterValue(QStringLiteral("Beta"), 4).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps + 2);
        QCOMPARE(design_region(doc.project())->at("pixel_um").get<double>(), 0.1);
        QCOMPARE(design_region(doc.project())->at("projection").at("beta").get<double>(), 4.0);
        const Project edited = doc.project();
        doc.undoStack()->undo();
        QCOMPARE(design_region(doc.project())->at("projection").at("beta").get<double>(), 8.0);
        doc.undoStack()->undo();
        QCOMPARE(design_region(doc.project())->at("pixel_um").get<double>(), 0.05);
        doc.undoStack()->undo();  // the drawing
        QVERIFY(doc.project() == before);
        doc.undoStack()->redo();
        doc.undoStack()->redo();
        doc.undoStack()->redo();
        QVERIFY(doc.project() == edited);
        // the dock's objective edits are undo steps too
        app::InverseDesignDock dock(&doc);
        dock.findChild<QSpinBox*>(QStringLiteral("designMaxIterations"))->setValue(7);
        Q_EMIT dock.findChild<QSpinBox*>(QStringLiteral("designMaxIterations"))->editingFinished();
        QCOMPARE(doc.project().extra.at("design").at("optimizer").at("max_iterations").get<int>(), 7);
        doc.undoStack()->undo();
        QVERIFY(doc.project() == edited);
        // the wavelengths' combination: the worst wavelength, one undo step
        auto* combine = dock.findChild<QComboBox*>(QStringLiteral("designCombine"));
        QVERIFY(combine);
        QCOMPARE(combine->currentData().toString(), QStringLiteral("mean"));
        combine->setCurrentIndex(combine->findData(QStringLiteral("min")));
        Q_EMIT combine->activated(combine->currentIndex());
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->objective.combine, std::string("min"));
        doc.undoStack()->undo();
        QVERIFY(doc.project() == edited);
        doc.undoStack()->redo();
        QTRY_COMPARE(combine->currentData().toString(), QStringLiteral("min"));  // the editor follows the document
        doc.undoStack()->undo();
        QTRY_COMPARE(combine->currentData().toString(), QStringLiteral("mean"));
        // with L-BFGS chosen, the worst wavelength switches to MMA in the same step (the
        // project stays valid), and L-BFGS is refused while it is chosen
        auto* algorithm = dock.findChild<QComboBox*>(QStringLiteral("designAlgorithm"));
        QVERIFY(algorithm);
        algorithm->setCurrentIndex(algorithm->findText(QStringLiteral("lbfgs")));
        Q_EMIT algorithm->activated(algorithm->currentIndex());
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->algorithm, std::string("lbfgs"));
        const int before_min = doc.undoStack()->count();
        combine->setCurrentIndex(combine->findData(QStringLiteral("min")));
        Q_EMIT combine->activated(combine->currentIndex());
        QCOMPARE(doc.undoStack()->count(), before_min + 1);
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->algorithm, std::string("mma"));
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->objective.combine, std::string("min"));
        algorithm->setCurrentIndex(algorithm->findText(QStringLiteral("lbfgs")));
        Q_EMIT algorithm->activated(algorithm->currentIndex());
        QCOMPARE(doc.undoStack()->count(), before_min + 1);  // refused
        QTRY_COMPARE(algorithm->currentText(), QStringLiteral("mma"));
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(doc.project() == edited);
        // Delete removes the whole section in one step
        doc.removeItem({ItemRef::Kind::Design, -1, 0});
        QVERIFY(!design_region(doc.project()));
        doc.undoStack()->undo();
        QVERIFY(doc.project() == edited);
    }

    void saveReopenRoundTrip() {
        QTemporaryDir dir;
        StubPrompts prompts;
        EditorDocument doc;
        doc.adoptRecovered(guideWithRegion(), QString());
        const QString file = dir.filePath(QStringLiteral("guide.glproj"));
        QVERIFY(doc.saveAs(file, prompts));
        EditorDocument back;
        QVERIFY(back.open(file, prompts));
        QVERIFY(back.project() == doc.project());
        const auto spec = design_spec(back.project(), file.toStdString());
        QVERIFY(spec);
        QCOMPARE(spec->regions[0].pixels, (std::array<int, 3>{6, 6, 1}));
        QCOMPARE(spec->max_iterations, 3);
    }

    void dockRunsPausesResumesAndApplies() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        QTemporaryDir dir;
        EditorDocument doc;
        doc.adoptRecovered(guideWithRegion(), QString());
        Canvas canvas(&doc);
        app::InverseDesignDock dock(&doc);
        dock.setCanvas(&canvas);
        dock.setOutputDir(dir.path());
        dock.setThreads(1);
        QVERIFY(dock.start());
        QCOMPARE(dock.state(), app::InverseDesignDock::State::Running);
        QVERIFY(QTest::qWaitFor([&] { return dock.plottedIterations() >= 1 || !dock.isRunning(); }, 60000));
        dock.pause();
        QVERIFY(dock.waitForFinished(60000));
        QCOMPARE(dock.state(), app::InverseDesignDock::State::Paused);
        const int paused = dock.plottedIterations();
        QVERIFY2(paused >= 1 && paused < 3, qPrintable(dock.statusText()));
        QVERIFY(QFile::exists(QDir(dir.path()).filePath(QStringLiteral("checkpoint.json"))));
        QVERIFY(dock.iterationText().contains(QStringLiteral("ETA")));
        QCOMPARE(dock.densityImage().size(), QSize(6, 6));
        QCOMPARE(canvas.designDensity().size(), QSize(6, 6));
        // the checkpoint holds the last completed iteration (a pause inside the next one
        // drops it)
        {
            QFile cp(QDir(dir.path()).filePath(QStringLiteral("checkpoint.json")));
            QVERIFY(cp.open(QIODevice::ReadOnly));
            const Json j = Json::parse(cp.readAll().toStdString());
            QCOMPARE(j.at("next_iteration").get<int>(), paused);
        }
        // the fields over the design region (0.6 um / 0.05 um cells: 12 Yee cells a side),
        // forward and adjoint, each a picture, not a blank or uniform one
        QCOMPARE(dock.fieldSource(), app::InverseDesignDock::FieldSource::Forward);
        const QImage forward = dock.fieldImage();
        QVERIFY(forward.width() >= 12 && forward.width() <= 13 && forward.height() >= 12 && forward.height() <= 13);
        QVERIFY2(test::distinctColours(forward) >= 8, qPrintable(QString::number(test::distinctColours(forward))));
        dock.setFieldSource(app::InverseDesignDock::FieldSource::Adjoint);
        const QImage adjointField = dock.fieldImage();
        QCOMPARE(adjointField.size(), forward.size());
        QVERIFY(test::distinctColours(adjointField) >= 8);
        QVERIFY(adjointField != forward);
        // a component (Ez in TMz) instead of |E|^2: the whole diverging map, another picture
        auto* quantity = dock.findChild<QComboBox*>(QStringLiteral("designFieldQuantity"));
        QVERIFY(quantity);
        QCOMPARE(quantity->count(), 2);  // |E|^2, Re Ez
        quantity->setCurrentIndex(1);
        QVERIFY(test::distinctColours(dock.fieldImage()) >= 8);
        QVERIFY(dock.fieldImage() != adjointField);
        // the choices are remembered: a new dock with the same settings starts with them
        const QString ini = dir.filePath(QStringLiteral("settings.ini"));
        const auto store = [ini] { return std::make_unique<QSettings>(ini, QSettings::IniFormat); };
        dock.setSettingsStore(store);  // reads the defaults: forward, |E|^2
        QCOMPARE(dock.fieldSource(), app::InverseDesignDock::FieldSource::Forward);
        QCOMPARE(quantity->currentIndex(), 0);
        dock.setFieldSource(app::InverseDesignDock::FieldSource::Adjoint);
        quantity->setCurrentIndex(1);
        {
            app::InverseDesignDock other(&doc);
            other.setSettingsStore(store);
            QCOMPARE(other.fieldSource(), app::InverseDesignDock::FieldSource::Adjoint);
            QCOMPARE(store()->value(QStringLiteral("inverseDesign/fieldQuantity")).toString(), QStringLiteral("Ez"));
        }
        quantity->setCurrentIndex(0);
        dock.setFieldSource(app::InverseDesignDock::FieldSource::Forward);
        // edit while paused (an undoable edit elsewhere), then Resume: the numbering goes on
        doc.editProject(QStringLiteral("edit"), [](Project& p) { p.name = "guide, edited"; });
        QVERIFY(dock.resume());
        QVERIFY(dock.waitForFinished(60000));
        QCOMPARE(dock.state(), app::InverseDesignDock::State::Finished);
        QCOMPARE(dock.plottedIndices(), (std::vector<int>{0, 1, 2}));
        QCOMPARE(dock.betaSteps(), std::vector<int>{2});  // beta doubles after beta_every = 2
        QVERIFY(dock.hasDesign());

        // export as GDS: a GDSII stream (its HEADER record first)
        const QString gds = dir.filePath(QStringLiteral("final.gds"));
        QVERIFY2(dock.exportGds(gds), qPrintable(dock.statusText()));
        QFile f(gds);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(4);
        QCOMPARE(head, QByteArray::fromHex("00060002"));

        // apply as shapes: the region replaced by layers, one undo step
        const Project before = doc.project();
        const int steps = doc.undoStack()->count();
        QVERIFY2(dock.applyAsShapes(), qPrintable(dock.statusText()));
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QVERIFY(!design_region(doc.project()));
        QVERIFY(doc.project().layers.size() > before.layers.size());
        doc.undoStack()->undo();
        QVERIFY(doc.project() == before);

        // another project: nothing of this optimization stays
        dock.projectReplaced();
        QVERIFY(!dock.hasDesign());
        QCOMPARE(dock.plottedIterations(), 0);
        QVERIFY(canvas.designDensity().isNull());
        QCOMPARE(dock.state(), app::InverseDesignDock::State::Idle);
    }

    void stopDuringIterationReturnsPromptly() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        // the guide at 0.015 um cells, so that an iteration (a forward and an adjoint run)
        // lasts far longer than a stop may take (a chunk of 20 steps and a poll of the job)
        Project p = guideWithRegion();
        p.domain.cell_size = 0.015;
        p.domain.pml.cells = 27;
        design_optimizer_mut(p)["max_iterations"] = 1;
        EditorDocument doc;
        doc.adoptRecovered(p, QString());
        const auto iterating = [](const app::InverseDesignDock& d) {
            return d.statusText().startsWith(QStringLiteral("Iterating")) || !d.isRunning();
        };
        // one whole iteration, timed from the same point as the stop below
        qint64 iterationMs = 0;
        {
            QTemporaryDir dir;
            app::InverseDesignDock dock(&doc);
            dock.setOutputDir(dir.path());
            dock.setThreads(1);
            QVERIFY(dock.start());
            QTRY_VERIFY_WITH_TIMEOUT(iterating(dock), 120000);
            QElapsedTimer t;
            t.start();
            QVERIFY(dock.waitForFinished(120000));
            iterationMs = t.elapsed();
            QCOMPARE(dock.plottedIterations(), 1);
        }
        QTemporaryDir dir;
        app::InverseDesignDock dock(&doc);
        dock.setOutputDir(dir.path());
        dock.setThreads(1);
        QVERIFY(dock.start());
        QTRY_VERIFY_WITH_TIMEOUT(iterating(dock), 120000);
        QVERIFY2(dock.isRunning(), qPrintable(dock.statusText()));
        QElapsedTimer t;
        t.start();
        dock.stop();
        // well before the iteration would have ended (measured: 100 ms against 1.3 s)
        QTRY_VERIFY_WITH_TIMEOUT(!dock.isRunning(), int(std::max<qint64>(iterationMs * 3 / 4, 1)));
        const qint64 stopMs = t.elapsed();
        qInfo("an iteration: %lld ms; Stop during it returned after %lld ms", iterationMs, stopMs);
        QCOMPARE(dock.plottedIterations(), 0);  // the iteration was not finished
        QCOMPARE(dock.state(), app::InverseDesignDock::State::Finished);
        QVERIFY2(dock.statusText().startsWith(QStringLiteral("Stopped")), qPrintable(dock.statusText()));
        // no completed iteration: no checkpoint (a Resume would start over)
        QVERIFY(!QFile::exists(QDir(dir.path()).filePath(QStringLiteral("checkpoint.json"))));
    }

    void projectionKindAndBetaList() {
        QTemporaryDir dir;
        StubPrompts prompts;
        EditorDocument doc;
        doc.adoptRecovered(guideWithRegion(), QString());
        doc.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock props(&doc);
        props.rebuild();
        auto* kind = qobject_cast<QComboBox*>(props.field(QStringLiteral("Projection")));
        auto* list = qobject_cast<QLineEdit*>(props.field(QStringLiteral("Beta list")));
        QVERIFY(kind && list);
        QCOMPARE(kind->currentIndex(), 0);  // tanh: the default
        QVERIFY(list->text().isEmpty());    // no list: the geometric schedule
        const Project start = doc.project();
        const int steps = doc.undoStack()->count();
        const auto region = [&] { return design_spec(doc.project(), "guide.glproj")->regions[0]; };

        // "inf" with the tanh projection: refused with the reader's rule, nothing applied
        QVERIFY(enterLine(props, QStringLiteral("Beta list"), QStringLiteral("4, 8, inf")));
        QCOMPARE(doc.undoStack()->count(), steps);
        QCOMPARE(props.problems().size(), 1);
        QVERIFY2(props.problems()[0].contains(QStringLiteral("smoothed")), qPrintable(props.problems()[0]));
        QVERIFY(props.problems()[0].contains(QStringLiteral("Beta list")));
        // a list without it is applied: one step, numbers in the file
        QVERIFY(enterLine(props, QStringLiteral("Beta list"), QStringLiteral("4 8, 16")));
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QVERIFY(props.problems().isEmpty());
        QCOMPARE(region().betas, (std::vector<double>{4, 8, 16}));
        props.rebuild();
        QCOMPARE(qobject_cast<QLineEdit*>(props.field(QStringLiteral("Beta list")))->text(), QStringLiteral("4, 8, 16"));

        // the smoothed projection: one step; then "inf" last is accepted
        QVERIFY(pickCombo(props, QStringLiteral("Projection"), 1));
        QCOMPARE(doc.undoStack()->count(), steps + 2);
        QCOMPARE(region().projection_kind, std::string("smoothed"));
        props.rebuild();
        // the reader's other rules, each refused with its own message
        const std::pair<const char*, const char*> refused[] = {
            {"4, inf, 8", "last"}, {"8, 4", "below"}, {"4, 0", "greater than 0"}, {"4, abc", "not a number"}};
        for (const auto& [text, rule] : refused) {
            QVERIFY(enterLine(props, QStringLiteral("Beta list"), QLatin1String(text)));
            QCOMPARE(doc.undoStack()->count(), steps + 2);
            QCOMPARE(props.problems().size(), 1);
            QVERIFY2(props.problems()[0].contains(QLatin1String(rule)), qPrintable(props.problems()[0]));
        }
        QVERIFY(enterLine(props, QStringLiteral("Beta list"), QStringLiteral("4, 8, 16, 32, inf")));
        QCOMPARE(doc.undoStack()->count(), steps + 3);
        QVERIFY(props.problems().isEmpty());
        QCOMPARE(region().betas.size(), size_t(5));
        QVERIFY(std::isinf(region().betas[4]));
        QCOMPARE(doc.project().extra.at("design").at("regions")[0].at("projection").at("betas")[4], Json("inf"));
        const Project withList = doc.project();

        // back to tanh: the final "inf" goes in the same step (the file stays readable)
        props.rebuild();
        QVERIFY(pickCombo(props, QStringLiteral("Projection"), 0));
        QCOMPARE(doc.undoStack()->count(), steps + 4);
        QCOMPARE(region().projection_kind, std::string("tanh"));
        QCOMPARE(region().betas, (std::vector<double>{4, 8, 16, 32}));
        doc.undoStack()->undo();
        QVERIFY(doc.project() == withList);
        // an empty list removes it: the geometric schedule again
        props.rebuild();
        QVERIFY(enterLine(props, QStringLiteral("Beta list"), QString()));
        QCOMPARE(doc.undoStack()->count(), steps + 4);
        QVERIFY(region().betas.empty());
        QVERIFY(!doc.project().extra.at("design").at("regions")[0].at("projection").contains("betas"));
        doc.undoStack()->undo();
        QVERIFY(doc.project() == withList);
        // undo all: the start; redo all: the list
        for (int k = 0; k < 3; ++k) doc.undoStack()->undo();
        QVERIFY(doc.project() == start);
        for (int k = 0; k < 3; ++k) doc.undoStack()->redo();
        QVERIFY(doc.project() == withList);

        // save and reopen: the same section, the same fields
        const QString file = dir.filePath(QStringLiteral("guide.glproj"));
        QVERIFY(doc.saveAs(file, prompts));
        EditorDocument back;
        QVERIFY(back.open(file, prompts));
        QVERIFY(back.project() == doc.project());
        const auto spec = design_spec(back.project(), file.toStdString());
        QVERIFY(spec);
        QCOMPARE(spec->regions[0].projection_kind, std::string("smoothed"));
        QCOMPARE(spec->regions[0].betas.size(), size_t(5));
        back.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock reopened(&back);
        reopened.rebuild();
        QCOMPARE(qobject_cast<QComboBox*>(reopened.field(QStringLiteral("Projection")))->currentIndex(), 1);
        QCOMPARE(qobject_cast<QLineEdit*>(reopened.field(QStringLiteral("Beta list")))->text(),
                 QStringLiteral("4, 8, 16, 32, inf"));

        // the picture of these rows (saved with GOLIGHTLY_SCREENSHOT_DIR): not blank
        reopened.resize(460, 1000);
        reopened.show();
        QTest::qWait(100);
        const QImage shot = reopened.grab().toImage();
        QVERIFY(test::distinctColours(shot) >= 4);
        const QString shots = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        if (!shots.isEmpty()) QVERIFY(shot.save(QDir(shots).filePath(QStringLiteral("design_projection_properties.png"))));
    }

    void perWavelengthCurves() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        QTemporaryDir dir;
        EditorDocument doc;
        Project p = guideWithRegion();
        design_objective_mut(p)["wavelengths_um"] = Json::array({1.5, 1.55, 1.6});
        design_optimizer_mut(p)["max_iterations"] =
            std::max(2, qEnvironmentVariableIntValue("GOLIGHTLY_SCREENSHOT_ITERATIONS"));
        doc.adoptRecovered(p, QString());
        app::InverseDesignDock dock(&doc);
        dock.setOutputDir(dir.path());
        dock.setThreads(1);
        QVERIFY(dock.start());
        QVERIFY(dock.waitForFinished(120000));
        QVERIFY2(dock.state() == app::InverseDesignDock::State::Finished, qPrintable(dock.statusText()));
        const int n = dock.plottedIterations();
        QVERIFY(n >= 2);
        // one curve per wavelength, in ascending frequency (the history's order)
        const std::vector<double> wl = dock.curveWavelengths();
        QCOMPARE(wl.size(), size_t(3));
        // three points uniform in frequency from 1.5 to 1.6 um: the middle one at
        // 2 / (1/1.5 + 1/1.6) um
        QVERIFY(std::abs(wl[0] - 1.6) < 1e-9);
        QVERIFY(std::abs(wl[1] - 2 / (1 / 1.5 + 1 / 1.6)) < 1e-9);
        QVERIFY(std::abs(wl[2] - 1.5) < 1e-9);
        QCustomPlot* plot = dock.plot();
        QCOMPARE(plot->graphCount(), 4);
        QVERIFY(plot->legend->visible());
        QCOMPARE(plot->graph(1)->name(), QStringLiteral("1.6 µm"));
        QCOMPARE(plot->graph(2)->name(), QStringLiteral("1.54839 µm"));
        QCOMPARE(plot->graph(3)->name(), QStringLiteral("1.5 µm"));
        QVERIFY(plot->graph(1)->pen().widthF() < plot->graph(0)->pen().widthF());  // thin beside the figure of merit
        // the figure of merit is the mean over the wavelengths (combine "mean"): the same
        // numbers summed, so equal to rounding
        for (int i = 0; i < n; ++i) {
            double sum = 0;
            for (int k = 1; k <= 3; ++k) {
                QCOMPARE(plot->graph(k)->dataCount(), n);
                QCOMPARE(plot->graph(k)->data()->at(i)->key, plot->graph(0)->data()->at(i)->key);
                sum += plot->graph(k)->data()->at(i)->value;
            }
            const double f = plot->graph(0)->data()->at(i)->value;
            QVERIFY2(std::abs(sum / 3 - f) <= 1e-12 * std::abs(f), qPrintable(QStringLiteral("%1 vs %2").arg(sum / 3).arg(f)));
        }
        // history.csv: the CLI's objective@<wavelength> columns after the dock's own
        QFile h(QDir(dir.path()).filePath(QStringLiteral("history.csv")));
        QVERIFY(h.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(h.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), n + 1);
        QCOMPARE(lines[0], QStringLiteral("iteration,beta,objective,gradient_norm,wall_s,objective@1.6,objective@1.54839,objective@1.5"));
        QCOMPARE(lines[1].split(QLatin1Char(',')).size(), 8);
        // the picture (saved with GOLIGHTLY_SCREENSHOT_DIR): not blank
        dock.resize(1100, 430);
        dock.show();
        QTest::qWait(200);
        const QImage shot = dock.grab().toImage();
        QVERIFY(test::distinctColours(shot) >= 16);
        const QString shots = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        if (!shots.isEmpty()) QVERIFY(shot.save(QDir(shots).filePath(QStringLiteral("inverse_design_wavelengths.png"))));
        // a new start with one wavelength: no curves, no legend
        design_objective_mut(p)["wavelengths_um"] = Json::array({1.55});
        design_optimizer_mut(p)["max_iterations"] = 1;
        QTemporaryDir other;
        doc.adoptRecovered(p, QString());
        dock.setOutputDir(other.path());
        QVERIFY(dock.start());
        QVERIFY(dock.waitForFinished(120000));
        QCOMPARE(dock.plottedIterations(), 1);
        QVERIFY(dock.curveWavelengths().empty());
        QCOMPARE(plot->graphCount(), 1);
        QVERIFY(!plot->legend->visible());
    }

    void stopAndPauseDuringNormalization() {
        // the guide at 0.01 um cells: the normalization run (one forward run) lasts far
        // longer than a poll of the job, so that Stop / Pause come during it
        Project p = guideWithRegion();
        p.domain.cell_size = 0.01;
        p.domain.pml.cells = 40;
        design_optimizer_mut(p)["max_iterations"] = 1;
        EditorDocument doc;
        doc.adoptRecovered(p, QString());
        const auto normalizing = [](const app::InverseDesignDock& d) {
            return d.statusText().startsWith(QStringLiteral("Normalization run")) || !d.isRunning();
        };
        for (const bool pause : {false, true}) {
            QTemporaryDir dir;
            app::InverseDesignDock dock(&doc);
            dock.setOutputDir(dir.path());
            dock.setThreads(1);
            QVERIFY(dock.start());
            QTRY_VERIFY_WITH_TIMEOUT(normalizing(dock), 120000);
            QVERIFY2(dock.isRunning(), qPrintable(dock.statusText()));
            // the dock's buttons, as a user presses them (enabled during the normalization run)
            auto* button = dock.findChild<QPushButton*>(pause ? QStringLiteral("designPause") : QStringLiteral("designStop"));
            QVERIFY(button);
            QVERIFY(button->isEnabled());
            button->click();
            QVERIFY(dock.waitForFinished(120000));
            // the solver said where it ended: in the normalization run, no iteration made
            QVERIFY2(dock.statusText().startsWith(pause ? QStringLiteral("Paused during the normalization run")
                                                        : QStringLiteral("Stopped during the normalization run")),
                     qPrintable(dock.statusText()));
            QCOMPARE(dock.plottedIterations(), 0);
            QVERIFY(!dock.hasDesign());
            QVERIFY(!QFile::exists(QDir(dir.path()).filePath(QStringLiteral("checkpoint.json"))));
            QCOMPARE(dock.state(), pause ? app::InverseDesignDock::State::Paused : app::InverseDesignDock::State::Finished);
            if (pause) {  // a paused run may end there
                dock.stop();
                QCOMPARE(dock.state(), app::InverseDesignDock::State::Finished);
            }
        }
    }

    void solverErrorShowsInDock() {
        EditorDocument doc;
        Project p = guideWithRegion();
        // a pole with omega_0 dt > 2, unstable at the run's time step: the optimizer refuses it
        design_region_mut(p)["materials"] = Json::array({"air", "fastpole"});
        doc.adoptRecovered(p, QString());
        QTemporaryDir dir;
        app::InverseDesignDock dock(&doc);
        dock.setOutputDir(dir.path());
        QVERIFY(dock.start());
        QVERIFY(dock.waitForFinished(30000));
        QVERIFY2(dock.statusText().contains(QStringLiteral("fastpole")), qPrintable(dock.statusText()));
        QCOMPARE(dock.state(), app::InverseDesignDock::State::Idle);
        // no region: Start refuses with a message
        EditorDocument empty;
        empty.adoptRecovered(guide(), QString());
        app::InverseDesignDock idle(&empty);
        idle.setOutputDir(dir.path());
        QVERIFY(!idle.start());
        QVERIFY(idle.statusText().contains(QStringLiteral("design region")));
    }

    void mainWindowHasToolAndAction() {
        QTemporaryDir dir;
        StubPrompts prompts;
        app::MainWindowOptions o;
        o.settingsOrganization = QStringLiteral("GoLightlyTest-%1").arg(QCoreApplication::applicationPid());
        o.recoveryDir = dir.filePath(QStringLiteral("recovery"));
        o.prompts = &prompts;
        app::MainWindow w(o);
        QAction* tool = w.action(QStringLiteral("tool.designRegion"));
        QVERIFY(tool);
        QVERIFY(!tool->icon().pixmap(24, 24).isNull());
        QVERIFY(w.action(QStringLiteral("run.optimizeAdjoint")));
        QVERIFY(w.action(QStringLiteral("view.inverseDesignDock")));
        QVERIFY(w.inverseDesignDock());
        // no region yet: Optimize says so in the dock
        QVERIFY(!w.optimizeAdjoint());
        QVERIFY(w.inverseDesignDock()->statusText().contains(QStringLiteral("design region")));

        // docs/screenshots/inverse_design.png (GOLIGHTLY_SCREENSHOT_DIR set): the bend
        // example at 40 nm cells and pixels, a picture mid-run after a few iterations
        const QString shots = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        if (shots.isEmpty()) return;
        Project bend = load_project(GOLIGHTLY_SOURCE_DIR "/examples/inverse_design_bend_2d.glproj");
        bend.domain.cell_size = 0.04;
        bend.domain.pml.cells = 10;
        design_region_mut(bend)["pixel_um"] = 0.04;
        const QString file = dir.filePath(QStringLiteral("inverse_design_bend_2d.glproj"));
        save_project(bend, file.toStdString());
        QVERIFY(w.openFile(file));
        if (w.structure3dDock()) w.structure3dDock()->hide();
        w.resize(1560, 1000);
        w.show();
        QVERIFY(w.optimizeAdjoint());
        w.resizeDocks({w.inverseDesignDock()}, {430}, Qt::Vertical);
        const int iterations = qEnvironmentVariableIntValue("GOLIGHTLY_SCREENSHOT_ITERATIONS");
        QVERIFY(QTest::qWaitFor([&] { return w.inverseDesignDock()->plottedIterations() >= std::max(iterations, 3); }, 600000));
        w.inverseDesignDock()->show();
        w.inverseDesignDock()->raise();
        for (QTabBar* bar : w.findChildren<QTabBar*>())  // the dock's tab in front of the Monitors'
            for (int i = 0; i < bar->count(); ++i)
                if (bar->tabText(i) == w.inverseDesignDock()->windowTitle()) bar->setCurrentIndex(i);
        w.resizeDocks({w.inverseDesignDock()}, {430}, Qt::Vertical);
        QTest::qWait(400);
        QVERIFY(w.grab().save(QDir(shots).filePath(QStringLiteral("inverse_design.png"))));
        w.inverseDesignDock()->stop();
        QVERIFY(w.inverseDesignDock()->waitForFinished(600000));
    }
};

QTEST_MAIN(TestInverseDesign)
#include "tst_inverse_design.moc"
