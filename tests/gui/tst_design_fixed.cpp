// Fixed boxes of the design region in the IDE (issue 53 item 6, "Pause, edit (e.g. paint a
// fixed region), Resume"), on the tiny 2D guide of tst_inverse_design (a 0.6 x 0.6 um region
// of 0.1 um pixels, 6 x 6):
//  - the Design Region tool paints a fixed solid box (Shift+drag) and a fixed void box
//    (Ctrl+drag) inside the region, snapped to its pixel edges; each one undo step;
//  - the canvas draws them hatched over the region (solid dark, void light);
//  - Properties lists them (a count of fixed pixels, per box solid / void, Delete and its
//    corners); every edit one undo step, a corner outside the region refused;
//  - moving or redrawing the region keeps the boxes inside it;
//  - save and reopen keep them, and the optimizer's reader takes them;
//  - Pause, paint a fixed box, Resume: the resumed iterations hold its pixels at the value.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QTabBar>
#include <QTest>

#include "canvas.hpp"
#include "design_canvas.hpp"
#include "design_guide.hpp"
#include "design_region.hpp"
#include "docks.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/project.hpp"
#include "gui_fixture.hpp"
#include "inverse_design_dock.hpp"

using namespace golightly;
using namespace golightly::editor;


namespace {
using golightly::test::kDesignGuide;


void drag(Canvas& c, QPointF a, QPointF b, Qt::KeyboardModifiers mods) {
    const QPoint sa = c.toScreen(a).toPoint(), sb = c.toScreen(b).toPoint();
    QTest::mousePress(&c, Qt::LeftButton, mods, sa);
    QMouseEvent move(QEvent::MouseMove, QPointF(sb), c.mapToGlobal(QPointF(sb)), Qt::NoButton, Qt::LeftButton, mods);
    QApplication::sendEvent(&c, &move);
    QTest::mouseRelease(&c, Qt::LeftButton, mods, sb);
}

Json fixedOf(const Project& p) {
    const Json* r = design_region(p);
    return r && r->contains("fixed") ? (*r)["fixed"] : Json();
}

Json box(double x0, double y0, double x1, double y1, int rho) {
    return Json{{"min", Json::array({x0, y0})}, {"max", Json::array({x1, y1})}, {"rho", rho}};
}

/// The fixed pixels (index, rho) the optimizer takes from `p`.
std::vector<std::pair<std::size_t, double>> fixedPixels(const Project& p) {
    const auto spec = design_spec(p, "guide.glproj");
    return spec ? spec->regions[0].fixed_pixels() : std::vector<std::pair<std::size_t, double>>{};
}

/// The mean grey of the 9 x 9 screen pixels around `at` (the hatch lines included).
double grey(const QImage& img, QPointF at) {
    double sum = 0;
    for (int dy = -4; dy <= 4; ++dy)
        for (int dx = -4; dx <= 4; ++dx) sum += qGray(img.pixel(at.toPoint() + QPoint(dx, dy)));
    return sum / 81;
}
}  // namespace

class TestDesignFixed : public QObject, public golightly::test::WindowFixture {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { initFixture(); }

    void toolPaintsFixedBoxesWithUndo() {
        EditorDocument doc;
        doc.adoptRecovered(golightly::test::design_guide_with_region(3), QString());
        test::DesignCanvas dc(&doc, 200, QPointF(1.8, 1.2));
        Canvas& canvas = dc.canvas;
        DesignRegionTool& tool = dc.tool;
        ToolSettings& ts = dc.settings;
        const Project before = doc.project();
        const int steps = doc.undoStack()->count();
        // Shift+drag: a solid box, its edges rounded to the pixel edges (0.1 um from 1.5, 0.9)
        drag(canvas, QPointF(1.52, 1.02), QPointF(1.71, 1.38), Qt::ShiftModifier);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        COMPARE_JSON(fixedOf(doc.project()), Json::array({box(1.5, 1.0, 1.7, 1.4, 1)}));
        QCOMPARE(doc.selection().kind, ItemRef::Kind::Design);
        // Ctrl+drag: a void box, clipped to the region (the drag runs past its top)
        drag(canvas, QPointF(1.5, 1.41), QPointF(2.3, 1.7), Qt::ControlModifier);
        QCOMPARE(doc.undoStack()->count(), steps + 2);
        const Json two = Json::array({box(1.5, 1.0, 1.7, 1.4, 1), box(1.5, 1.4, 2.1, 1.5, 0)});
        COMPARE_JSON(fixedOf(doc.project()), two);
        // the optimizer's reading: 2 x 4 solid, the top row (6) void
        const auto pixels = fixedPixels(doc.project());
        QCOMPARE(pixels.size(), size_t(14));
        int solid = 0;
        for (const auto& [index, rho] : pixels) solid += rho == 1.0;
        QCOMPARE(solid, 8);
        // a drag smaller than a pixel changes nothing
        drag(canvas, QPointF(1.81, 1.11), QPointF(1.83, 1.12), Qt::ShiftModifier);
        QCOMPARE(doc.undoStack()->count(), steps + 2);

        // drawn hatched over the region: the solid box dark, the void box light, the rest of
        // the region in between (its purple hatch on white)
        const QImage img = canvas.grab().toImage();
        const double inSolid = grey(img, canvas.toScreen(QPointF(1.6, 1.2))), inVoid = grey(img, canvas.toScreen(QPointF(1.9, 1.45)));
        QVERIFY2(inSolid < 110, qPrintable(QString::number(inSolid)));
        QVERIFY2(inVoid > 170, qPrintable(QString::number(inVoid)));

        doc.undoStack()->undo();
        COMPARE_JSON(fixedOf(doc.project()), Json::array({box(1.5, 1.0, 1.7, 1.4, 1)}));
        doc.undoStack()->undo();
        QVERIFY(doc.project() == before);
        doc.undoStack()->redo();
        doc.undoStack()->redo();
        COMPARE_JSON(fixedOf(doc.project()), two);

        // moving the region moves its boxes; redrawing it smaller clips them
        doc.translateItem({ItemRef::Kind::Design, -1, 0}, 0.1, 0.0);
        QCOMPARE(fixedOf(doc.project())[0]["min"][0].get<double>(), 1.6);
        QCOMPARE(fixedOf(doc.project())[1]["max"][0].get<double>(), 2.2);
        QVERIFY(design_spec(doc.project(), "guide.glproj"));
        doc.undoStack()->undo();
        tool.drawBox(QPointF(1.6, 0.9), QPointF(2.1, 1.3));
        COMPARE_JSON(fixedOf(doc.project()), Json::array({box(1.6, 1.0, 1.7, 1.3, 1)}));  // the void box left the region
        QVERIFY(design_spec(doc.project(), "guide.glproj"));
        doc.undoStack()->undo();
        COMPARE_JSON(fixedOf(doc.project()), two);

        // without a region a fixed box is refused with a message
        EditorDocument empty;
        empty.adoptRecovered(parse_project(kDesignGuide, "guide.glproj"), QString());
        Canvas c2(&empty);
        c2.resize(720, 480);
        c2.setView(200, QPointF(1.8, 1.2));
        DesignRegionTool t2(&c2, &ts);
        QString said;
        connect(&t2, &Tool::message, this, [&](const QString& m) { said = m; });
        t2.drawFixedBox(QPointF(1.5, 1.0), QPointF(1.7, 1.4), 1);
        QVERIFY(said.contains(QStringLiteral("design region")));
        QVERIFY(!design_region(empty.project()));
    }

    void regionReplacesShapeParameters() {
        // a design of shape parameters: drawing a region makes it a density design (the
        // reader refuses both kinds in one design, so the saved project would not reopen)
        Json j = Json::parse(kDesignGuide);
        j["parameters"] = Json{{"w", 0.3}};
        j["design"] = Json::parse(R"({"shape_parameters": [{"name": "w", "min": 0.2, "max": 0.5}],
            "objective": {"terms": [{"point": [2.5, 1.2], "component": "Ez"}], "wavelengths_um": [1.55]}})");
        Project p = parse_project(j.dump(), "shapes.glproj");
        QVERIFY(design_spec(p, "shapes.glproj", false));
        QVERIFY(set_design_box(p, QPointF(1.5, 0.9), QPointF(2.1, 1.5)));
        QVERIFY(!p.extra["design"].contains("shape_parameters"));
        QVERIFY(design_region(p));
        QCOMPARE(p.extra["design"]["objective"]["terms"][0]["component"].get<std::string>(), std::string("Ez"));
        const Project again = parse_project(project_to_json(p).dump(), "shapes.glproj");  // reopens
        const auto spec = design_spec(again, "shapes.glproj", false);
        QVERIFY(spec);
        QCOMPARE(spec->regions.size(), size_t(1));
    }

    void threeDBoxSpansRegionHeight() {
        // in 3D a painted box spans the region's z extent, and the reader counts its pixels
        // through the whole height
        Project p = parse_project(kDesignGuide, "guide.glproj");
        p.domain.dimensions = 3;
        p.domain.size[2] = 0.4;
        p.monitors.clear();  // the default objective: a point term at the domain's centre
        QVERIFY(set_design_box(p, QPointF(1.5, 0.9), QPointF(2.1, 1.5)));
        design_region_mut(p)["pixel_um"] = 0.1;
        Vec3 lo, hi;
        QVERIFY(design_box(p, lo, hi));
        QVERIFY(add_design_fixed_box(p, QPointF(1.5, 1.0), QPointF(1.7, 1.4), 1));
        const Json b = fixedOf(p)[0];
        QCOMPARE(b["min"].size(), size_t(3));
        QCOMPARE(b["min"][2].get<double>(), lo.z);
        QCOMPARE(b["max"][2].get<double>(), hi.z);
        const auto spec = design_spec(p, "guide.glproj", false);
        QVERIFY(spec);
        const int nz = spec->regions[0].pixels[2];
        QVERIFY(nz >= 1);
        QCOMPARE(spec->regions[0].fixed_pixels().size(), size_t(2 * 4 * nz));
    }

    void propertiesShowBuiltinAir() {
        // the region's low material is the built-in "air" (not in the project's list): the
        // combo shows it, not the list's first material
        EditorDocument doc;
        doc.adoptRecovered(golightly::test::design_guide_with_region(3), QString());
        doc.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock props(&doc);
        props.rebuild();
        auto* low = qobject_cast<QComboBox*>(props.field(QStringLiteral("Material (rho = 0)")));
        QVERIFY(low);
        QCOMPARE(low->currentText(), QStringLiteral("air"));
        QCOMPARE(qobject_cast<QComboBox*>(props.field(QStringLiteral("Material (rho = 1)")))->currentText(), QStringLiteral("si"));
    }

    void propertiesListAndEditFixedBoxes() {
        EditorDocument doc;
        Project p = golightly::test::design_guide_with_region(3);
        design_region_mut(p)["fixed"] = Json::array({box(1.5, 1.0, 1.7, 1.4, 1), box(1.5, 1.4, 2.1, 1.5, 0)});
        doc.adoptRecovered(p, QString());
        doc.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock props(&doc);
        props.rebuild();
        auto* count = qobject_cast<QLabel*>(props.field(QStringLiteral("Fixed pixels")));
        QVERIFY(count);
        QCOMPARE(count->text(), QStringLiteral("8 solid, 6 void"));
        QVERIFY(props.field(QStringLiteral("Fixed box 2")));
        const int steps = doc.undoStack()->count();
        // a corner: one undo step; outside the region or past the other corner: refused
        QVERIFY(props.enterValue(QStringLiteral("Fixed box 1 max x"), 1.8).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QCOMPARE(fixedOf(doc.project())[0]["max"][0].get<double>(), 1.8);
        props.rebuild();
        QVERIFY(!props.enterValue(QStringLiteral("Fixed box 1 max x"), 2.3).isEmpty());
        QVERIFY(!props.enterValue(QStringLiteral("Fixed box 1 min y"), 1.4).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        props.rebuild();
        // solid -> void
        auto* kind = props.field(QStringLiteral("Fixed box 1"))->findChild<QComboBox*>(QStringLiteral("designFixedKind"));
        QVERIFY(kind);
        QCOMPARE(kind->currentIndex(), 0);
        kind->setCurrentIndex(1);
        Q_EMIT kind->activated(1);
        QCOMPARE(fixedOf(doc.project())[0]["rho"].get<int>(), 0);
        QCOMPARE(doc.undoStack()->count(), steps + 2);
        props.rebuild();
        // Delete: the first box goes, the second becomes "Fixed box 1"
        auto* del = props.field(QStringLiteral("Fixed box 1"))->findChild<QPushButton*>(QStringLiteral("designFixedDelete"));
        QVERIFY(del);
        del->click();
        QCOMPARE(doc.undoStack()->count(), steps + 3);
        COMPARE_JSON(fixedOf(doc.project()), Json::array({box(1.5, 1.4, 2.1, 1.5, 0)}));
        props.rebuild();
        QVERIFY(!props.field(QStringLiteral("Fixed box 2")));
        props.field(QStringLiteral("Fixed box 1"))->findChild<QPushButton*>(QStringLiteral("designFixedDelete"))->click();
        QVERIFY(!design_region(doc.project())->contains("fixed"));  // no empty list left behind
        props.rebuild();
        QVERIFY(qobject_cast<QLabel*>(props.field(QStringLiteral("Fixed pixels")))->text().startsWith(QStringLiteral("none")));
        // the region's own corner edited in Properties clips the boxes (none left outside)
        for (int k = 0; k < 4; ++k) doc.undoStack()->undo();
        QCOMPARE(doc.undoStack()->index(), steps);
        props.rebuild();
        QVERIFY(props.enterValue(QStringLiteral("Max y"), 1.3).isEmpty());
        COMPARE_JSON(fixedOf(doc.project()), Json::array({box(1.5, 1.0, 1.7, 1.3, 1)}));
        QVERIFY(design_spec(doc.project(), "guide.glproj"));
    }

    void saveAndReopenKeepBoxes() {
        EditorDocument doc;
        Project p = golightly::test::design_guide_with_region(3);
        design_region_mut(p)["fixed"] = Json::array({box(1.5, 1.0, 1.7, 1.4, 1), box(1.5, 1.4, 2.1, 1.5, 0)});
        doc.adoptRecovered(p, QString());
        const QString file = dir_.filePath(QStringLiteral("fixed.glproj"));
        QVERIFY(doc.saveAs(file, prompts_));
        EditorDocument back;
        QVERIFY(back.open(file, prompts_));
        QVERIFY(back.project() == doc.project());
        QCOMPARE(fixedOf(back.project()).size(), size_t(2));
        const auto spec = design_spec(back.project(), file.toStdString());
        QVERIFY(spec);
        QCOMPARE(spec->regions[0].fixed.size(), size_t(2));
        QCOMPARE(spec->regions[0].fixed[1].rho, 0.0);
    }

    void pauseAddFixedBoxResume() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        EditorDocument doc;
        // 5 evaluations: a pause after the 2nd or 3rd leaves at least two, and NLopt's first
        // evaluation of the resumed run is at the paused design itself (only the second moves)
        doc.adoptRecovered(golightly::test::design_guide_with_region(5), QString());
        test::DesignCanvas dc(&doc, 200, QPointF(1.8, 1.2));
        Canvas& canvas = dc.canvas;
        const QString out = dir_.filePath(QStringLiteral("pause_resume"));
        app::InverseDesignDock dock(&doc);
        dock.setCanvas(&canvas);
        dock.setOutputDir(out);
        dock.setThreads(1);
        QVERIFY(dock.start());
        QVERIFY(QTest::qWaitFor([&] { return dock.plottedIterations() >= 2 || !dock.isRunning(); }, 60000));
        dock.pause();
        QVERIFY(dock.waitForFinished(60000));
        QCOMPARE(dock.state(), app::InverseDesignDock::State::Paused);
        const int paused = dock.plottedIterations();
        QVERIFY2(paused >= 2 && paused < 4, qPrintable(dock.statusText()));
        const auto checkpointRho = [&] {
            QFile cp(QDir(out).filePath(QStringLiteral("checkpoint.json")));
            if (!cp.open(QIODevice::ReadOnly)) return std::vector<double>{};
            return Json::parse(cp.readAll().toStdString()).at("rho").get<std::vector<double>>();
        };
        // the paused design (the checkpoint: the last completed iteration's)
        const std::vector<double> before = checkpointRho();
        QCOMPARE(before.size(), size_t(36));
        // while paused: a solid box over the guide's continuation, a void one at the top
        drag(canvas, QPointF(1.5, 1.0), QPointF(1.7, 1.4), Qt::ShiftModifier);
        drag(canvas, QPointF(1.5, 1.4), QPointF(2.1, 1.5), Qt::ControlModifier);
        const auto fixed = fixedPixels(doc.project());
        QCOMPARE(fixed.size(), size_t(14));
        // the paused design does not hold all those values yet (else the check below tells nothing)
        std::size_t differ = 0;
        std::vector<bool> pinned(36, false);
        for (const auto& [index, rho] : fixed) differ += before.at(index) != rho, pinned[index] = true;
        QVERIFY(differ > 0);
        QVERIFY(dock.resume());
        QVERIFY(dock.waitForFinished(60000));
        QCOMPARE(dock.state(), app::InverseDesignDock::State::Finished);
        QCOMPARE(dock.plottedIndices().back(), 4);
        // the resumed iterations' design (the checkpoint: the last one's) holds the boxes
        const std::vector<double> after = checkpointRho();
        QCOMPARE(after.size(), size_t(36));
        for (const auto& [index, rho] : fixed) QCOMPARE(after.at(index), rho);
        // and the free pixels went on from the paused design
        std::size_t moved = 0;
        for (std::size_t i = 0; i < after.size(); ++i) moved += !pinned[i] && after[i] != before[i];
        QVERIFY(moved > 0);
    }

    void screenshot() {
        // The bend example with the input and output guides' continuations held solid and a
        // void border, its region selected (Properties lists the boxes), iterations run and
        // paused: the window draws it (not blank); with GOLIGHTLY_SCREENSHOT_DIR set it is
        // docs/screenshots/design_fixed.png, after a few iterations (one otherwise)
        const QString shots = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        Project bend = load_project(GOLIGHTLY_SOURCE_DIR "/examples/inverse_design_bend_2d.glproj");
        bend.domain.cell_size = 0.04;
        bend.domain.pml.cells = 10;
        design_region_mut(bend)["pixel_um"] = 0.04;
        design_region_mut(bend)["fixed"] = Json::array({box(1.7, 2.26, 1.9, 2.74, 1), box(2.26, 3.1, 2.74, 3.3, 1),
                                                       box(1.7, 1.7, 3.3, 1.82, 0), box(3.18, 1.82, 3.3, 3.3, 0)});
        const QString file = dir_.filePath(QStringLiteral("inverse_design_bend_2d.glproj"));
        save_project(bend, file.toStdString());
        showWindow(QSize(1560, 1000));
        QVERIFY(w_->openFile(file));
        if (w_->structure3dDock()) w_->structure3dDock()->hide();
        w_->document()->setSelection({ItemRef::Kind::Design, -1, 0});
        w_->canvas()->setView(190, QPointF(2.5, 2.55));  // the region large
        QVERIFY(w_->optimizeAdjoint());
        const int iterations =
            shots.isEmpty() ? 1 : std::max(qEnvironmentVariableIntValue("GOLIGHTLY_SCREENSHOT_ITERATIONS"), 3);
        QVERIFY(QTest::qWaitFor([&] { return w_->inverseDesignDock()->plottedIterations() >= iterations; }, 600000));
        w_->inverseDesignDock()->pause();
        QVERIFY(w_->inverseDesignDock()->waitForFinished(600000));
        w_->propertiesDock()->show();
        w_->propertiesDock()->raise();
        for (QTabBar* bar : w_->findChildren<QTabBar*>())  // Properties' tab in front
            for (int i = 0; i < bar->count(); ++i)
                if (bar->tabText(i) == w_->propertiesDock()->windowTitle()) bar->setCurrentIndex(i);
        QTest::qWait(400);
        const QImage shot = w_->grab().toImage();
        QVERIFY(test::distinctColours(shot) >= 16);
        if (!shots.isEmpty()) QVERIFY(shot.save(QDir(shots).filePath(QStringLiteral("design_fixed.png"))));
        w_->inverseDesignDock()->stop();
    }
};

QTEST_MAIN(TestDesignFixed)
#include "tst_design_fixed.moc"
