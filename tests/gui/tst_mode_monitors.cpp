// Mode monitors in the IDE (issue 50, item 6):
//  - drawn with the mode monitor tool in 2D (a line along an axis) and 3D (the plane
//    through the line), one undo step, kind "mode", modes [0];
//  - edited in the Properties dock: modes, target n_eff, filter, bend radius and (3D) bend
//    axis, one undo step each; broken entries red with the rule, listed by problems() and
//    not applied;
//  - their forward / backward mode power plotted live during a run (the Monitors dock's
//    "Mode amplitudes" tab, legend naming the monitor and the mode), the main run's last
//    snapshot equal to the final result; the plot picture for the docs
//    (docs/screenshots/mode-amplitudes-live.png when GOLIGHTLY_SCREENSHOT_DIR is set);
//  - a 2D project's bent port line in the Port Modes dock: Im n_eff and the bend loss per
//    90 degrees shown.
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "canvas.hpp"
#include "docks.hpp"
#include "editor_document.hpp"
#include "golightly/compile.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "gui_fixture.hpp"
#include "main_window.hpp"
#include "mode_viewer.hpp"
#include "monitors_dock.hpp"
#include "qcustomplot_include.hpp"
#include "run_controller.hpp"
#include "tools.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::StubPrompts;
using golightly::test::undoRedoRoundTrip;

namespace {

/// A silicon slab (eps 12, 0.3 um wide along x) in air, TMz, 0.04 um cells, with a one-way
/// mode source, a transmission monitor (normalization's incident monitor) and a mode
/// monitor "amp" (modes 0 and 1).
const char* kSlab = R"({"format": "golightly-project", "version": 1, "name": "slab modes",
  "domain": {"dimensions": 2, "size": [4.0, 3.0, 0.0], "cell_size": 0.04, "polarization": "TMz",
             "boundaries": {"x": "pml", "y": "pml", "z": "pml"}, "pml": {"cells": 10}, "background": "air"},
  "materials": [{"id": "si", "epsilon_inf": 12.0}],
  "layers": [{"name": "wg", "material": "si", "shapes": [{"type": "rectangle", "min": [-1.0, 1.35], "max": [5.0, 1.65]}]}],
  "sources": [{"name": "in", "type": "line", "from": [0.9, 0.3], "to": [0.9, 2.7], "component": "Ez",
               "profile": "mode", "mode_index": 0, "direction": "+x",
               "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.3}}],
  "monitors": [{"name": "T", "type": "flux", "kind": "transmission", "from": [1.4, 0.3], "to": [1.4, 2.7], "direction": "+x"},
               {"name": "amp", "type": "flux", "kind": "mode", "from": [2.8, 0.3], "to": [2.8, 2.7], "direction": "+x",
                "modes": [0, 1]}],
  "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 21},
          "normalization": {"enabled": true}, "stop": {"decay_db": 30, "max_time_fs": 800}, "backend": "cpu"}})";

Project slab() { return parse_project(kSlab, "slab.glproj"); }

/// The same in 3D: a 3 um tall domain, the mode monitor a plane normal to x.
Project slab3d() {
    Project p = slab();
    p.domain.dimensions = 3;
    p.domain.size = {4.0, 3.0, 1.0};
    p.domain.cell_size = 0.05;
    p.sources.clear();
    Monitor& m = p.monitors[1];
    m.center = {2.8, 1.5, 0.5};
    m.size = {0, 2.4, 0.8};
    p.monitors = {m};
    return p;
}

Json extraOf(const Monitor& m, const char* key) { return m.extra.contains(key) ? m.extra.at(key) : Json(); }

}  // namespace

class TestModeMonitors : public QObject {
    Q_OBJECT

    QLineEdit* line(PropertiesDock& d, const QString& label) { return qobject_cast<QLineEdit*>(d.field(label)); }
    QComboBox* combo(PropertiesDock& d, const QString& label) { return qobject_cast<QComboBox*>(d.field(label)); }
    /// Types `text` into a line edit of the dock and finishes the entry.
    void enterText(PropertiesDock& d, const QString& label, const QString& text) {
        QLineEdit* e = line(d, label);
        QVERIFY2(e, qPrintable(label));
        e->setText(text);
        Q_EMIT e->editingFinished();
    }
    void choose(PropertiesDock& d, const QString& label, int index) {
        QComboBox* c = combo(d, label);
        QVERIFY2(c, qPrintable(label));
        c->setCurrentIndex(index);
        Q_EMIT c->activated(index);
    }

private Q_SLOTS:
    /// The mode monitor tool: a drag gives a mode line along the drag's dominant axis in
    /// 2D and the plane through it in 3D; one undo step each.
    void drawModeMonitor() {
        for (int dims : {2, 3}) {
            EditorDocument doc;
            Project p = slab();
            p.monitors.clear();
            if (dims == 3) {
                p.domain.dimensions = 3;
                p.domain.size[2] = 1.0;
            }
            doc.replaceProject(p, QStringLiteral("slab"));
            Canvas canvas(&doc);
            ToolSettings settings;
            canvas.resize(800, 600);
            canvas.show();
            QVERIFY(QTest::qWaitForWindowExposed(&canvas));
            canvas.setView(100, QPointF(2, 1.5));
            canvas.setSnapEnabled(false);  // the drag's own end points (to the pixel: 0.01 um)
            MonitorTool tool(&canvas, &settings, MonitorType::Flux, true);
            QCOMPARE(tool.name(), QStringLiteral("Mode monitor"));
            canvas.setTool(&tool);
            auto at = [&](double x, double y) { return canvas.toScreen(QPointF(x, y)).toPoint(); };
            QVERIFY(undoRedoRoundTrip(doc, [&] {
                // a slightly slanted drag: the line keeps its dominant axis (y)
                QTest::mousePress(&canvas, Qt::LeftButton, Qt::NoModifier, at(2.0, 0.4));
                QTest::mouseMove(&canvas, at(2.05, 1.5));
                QTest::mouseMove(&canvas, at(2.1, 2.6));
                QTest::mouseRelease(&canvas, Qt::LeftButton, Qt::NoModifier, at(2.1, 2.6));
            }));
            canvas.setTool(nullptr);
            QCOMPARE(int(doc.project().monitors.size()), 1);
            const Monitor& m = doc.project().monitors[0];
            QCOMPARE(m.type, MonitorType::Flux);
            QCOMPARE(QString::fromStdString(m.kind), QStringLiteral("mode"));
            QVERIFY(QString::fromStdString(m.name).startsWith(QStringLiteral("mode")));
            QCOMPARE(QString::fromStdString(m.direction), QStringLiteral("+x"));
            QVERIFY(extraOf(m, "modes") == Json::array({0}));
            QCOMPARE(m.from.x, m.to.x);  // along y
            QVERIFY(std::abs(m.to.y - m.from.y - 2.2) < 0.03);
            if (dims == 3) {  // the plane through the line, over the domain's height
                QCOMPARE(m.size.x, 0.0);
                QVERIFY(std::abs(m.size.y - 2.2) < 0.03);
                QCOMPARE(m.size.z, 1.0);
            }
            // the project compiles with it (a mode monitor the solver takes)
            if (dims == 2) QVERIFY(compile_project(doc.project(), "slab").monitors[0].mode_plan);
        }
    }

    /// The Properties dock of a 2D mode line: modes, bend radius; no target n_eff / filter
    /// (a 2D line's modes are its polarization's, from the highest index).
    void properties2d() {
        EditorDocument doc;
        doc.replaceProject(slab(), QStringLiteral("slab"));
        PropertiesDock dock(&doc);
        doc.setSelection({ItemRef::Kind::Monitor, -1, 1});
        dock.rebuild();
        const Project& p = doc.project();
        QVERIFY(line(dock, QStringLiteral("Modes")));
        QCOMPARE(line(dock, QStringLiteral("Modes"))->text(), QStringLiteral("0, 1"));
        QVERIFY(!dock.field(QStringLiteral("Target n_eff")));
        QVERIFY(!dock.field(QStringLiteral("Filter")));
        QVERIFY(!dock.field(QStringLiteral("Bend axis")));
        QVERIFY(undoRedoRoundTrip(doc, [&] { enterText(dock, QStringLiteral("Modes"), QStringLiteral("0, 2")); }));
        QVERIFY(extraOf(p.monitors[1], "modes") == Json::array({0, 2}));
        // a broken list: red, named by problems(), not applied, no undo step
        dock.rebuild();
        const int steps = doc.undoStack()->count();
        for (const QString& bad : {QStringLiteral("zero"), QStringLiteral("0, -1"), QStringLiteral("100"), QString()}) {
            enterText(dock, QStringLiteral("Modes"), bad);
            QCOMPARE(doc.undoStack()->count(), steps);
            QCOMPARE(dock.problems().size(), 1);
            QVERIFY2(dock.problems()[0].contains(QStringLiteral("mode indices from 0 to 99")), qPrintable(dock.problems()[0]));
            QVERIFY(line(dock, QStringLiteral("Modes"))->property("invalid").toBool());
        }
        QVERIFY(extraOf(p.monitors[1], "modes") == Json::array({0, 2}));
        enterText(dock, QStringLiteral("Modes"), QStringLiteral("1"));  // a good entry clears it
        QVERIFY(dock.problems().isEmpty());
        QVERIFY(extraOf(p.monitors[1], "modes") == Json::array({1}));
        // bend radius: the line is 2.4 um long, the centre of curvature must lie outside it
        dock.rebuild();
        QVERIFY(undoRedoRoundTrip(doc, [&] { QVERIFY(dock.enterValue(QStringLiteral("Bend radius"), 3.0).isEmpty()); }));
        QCOMPARE(extraOf(p.monitors[1], "bend_radius").get<double>(), 3.0);
        QVERIFY(!p.monitors[1].extra.contains("bend_axis"));  // a 2D line bends about z
        dock.rebuild();
        const QString rule = dock.enterValue(QStringLiteral("Bend radius"), -1.0);
        QVERIFY2(rule.contains(QStringLiteral("half the monitor's extent along y (1.2 µm)")), qPrintable(rule));
        QCOMPARE(extraOf(p.monitors[1], "bend_radius").get<double>(), 3.0);
        QVERIFY(dock.enterValue(QStringLiteral("Bend radius"), 0.0).isEmpty());  // straight again: the key goes
        QVERIFY(!p.monitors[1].extra.contains("bend_radius"));
        // the kind: another one drops the mode keys in the same step
        dock.rebuild();
        QVERIFY(dock.enterValue(QStringLiteral("Bend radius"), -2.5).isEmpty());
        dock.rebuild();
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(dock, QStringLiteral("Kind"), 2); }));
        QCOMPARE(QString::fromStdString(p.monitors[1].kind), QStringLiteral("flux"));
        QVERIFY(!p.monitors[1].extra.contains("modes"));
        QVERIFY(!p.monitors[1].extra.contains("bend_radius"));
    }

    /// The Properties dock of a 3D mode plane: target n_eff, filter, bend radius and axis.
    void properties3d() {
        EditorDocument doc;
        doc.replaceProject(slab3d(), QStringLiteral("slab3d"));
        PropertiesDock dock(&doc);
        doc.setSelection({ItemRef::Kind::Monitor, -1, 0});
        dock.rebuild();
        const Project& p = doc.project();
        const Monitor& m = p.monitors[0];
        QVERIFY(undoRedoRoundTrip(doc, [&] { QVERIFY(dock.enterValue(QStringLiteral("Target n_eff"), 2.4).isEmpty()); }));
        QCOMPARE(extraOf(m, "target_neff").get<double>(), 2.4);
        dock.rebuild();
        QVERIFY(!dock.enterValue(QStringLiteral("Target n_eff"), -1.0).isEmpty());
        QCOMPARE(dock.problems().size(), 1);
        QVERIFY2(dock.problems()[0].contains(QStringLiteral("Target n_eff")), qPrintable(dock.problems()[0]));
        QCOMPARE(extraOf(m, "target_neff").get<double>(), 2.4);
        QVERIFY(dock.enterValue(QStringLiteral("Target n_eff"), 0.0).isEmpty());  // none: the key goes
        QVERIFY(!m.extra.contains("target_neff"));
        dock.rebuild();
        QCOMPARE(combo(dock, QStringLiteral("Filter"))->count(), 3);
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(dock, QStringLiteral("Filter"), 2); }));
        QCOMPARE(extraOf(m, "filter").get<std::string>(), std::string("tm"));
        dock.rebuild();
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(dock, QStringLiteral("Filter"), 0); }));
        QVERIFY(!m.extra.contains("filter"));  // none: written only when set
        // bend: radius and its axis in one step (the wafer-plane axis y for an x-normal plane)
        dock.rebuild();
        QVERIFY(!dock.field(QStringLiteral("Bend axis")));  // straight: no axis
        QVERIFY(undoRedoRoundTrip(doc, [&] { QVERIFY(dock.enterValue(QStringLiteral("Bend radius"), 5.0).isEmpty()); }));
        QCOMPARE(extraOf(m, "bend_radius").get<double>(), 5.0);
        QCOMPARE(extraOf(m, "bend_axis").get<std::string>(), std::string("y"));
        dock.rebuild();
        QComboBox* axis = combo(dock, QStringLiteral("Bend axis"));
        QVERIFY(axis);
        QCOMPARE(axis->count(), 2);  // y and z: not the normal x
        QCOMPARE(axis->currentText(), QStringLiteral("y"));
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(dock, QStringLiteral("Bend axis"), 1); }));
        QCOMPARE(extraOf(m, "bend_axis").get<std::string>(), std::string("z"));
        // along z the plane is 0.8 um (16 cells): too short for the bend's absorbing layers
        dock.rebuild();
        const QString rule = dock.enterValue(QStringLiteral("Bend radius"), 3.0);
        QVERIFY2(rule.contains(QStringLiteral("longer than 24 cells along z")), qPrintable(rule));
        QCOMPARE(extraOf(m, "bend_radius").get<double>(), 5.0);
        QVERIFY(dock.enterValue(QStringLiteral("Bend radius"), 0.0).isEmpty());
        QVERIFY(!m.extra.contains("bend_radius"));
        QVERIFY(!m.extra.contains("bend_axis"));
    }

    /// A run of the slab in the IDE: the mode amplitudes plot fills while it runs (legend:
    /// the monitor and the mode), and the last live values are the result's.
    void liveAmplitudes() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("slab_modes.glproj"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kSlab);
        }
        StubPrompts prompts;
        const app::MainWindowOptions o = test::windowOptions(dir, &prompts);
        app::MainWindow w(o);
        w.resize(1400, 900);
        w.show();
        QVERIFY(w.openFile(file));
        plots::MonitorsDock* md = w.monitorsDock();
        QCustomPlot* plot = md->modeAmplitudePlot();
        QVERIFY(plot);
        app::RunController* rc = w.runController();
        std::shared_ptr<const LiveMonitors> last;
        int liveWithModes = 0;
        connect(rc, &app::RunController::liveMonitors, this, [&](std::shared_ptr<const LiveMonitors> l) {
            last = l;
            if (l->mode_coefficients.size() == 2) ++liveWithModes;
        });
        QSignalSpy paused(rc, &app::RunController::pausedChanged);
        QSignalSpy finished(rc, &app::RunController::finished);
        app::SolverSettings s;
        s.threads = 1;
        const QString shots = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        s.framesPerSecond = shots.isEmpty() ? 0 : 30;  // the picture shows the field too
        s.liveEverySteps = 100;
        // the pulse (peak at 71 fs at the source) is half through the monitor 1.9 um on
        s.pauseAtMainTimeFs = 95;
        QVERIFY(w.startRun(&s));
        QTRY_VERIFY_WITH_TIMEOUT(!paused.isEmpty() && rc->isPaused(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(last && last->phase == "main" && last->normalized, 5000);
        // live, while paused: four curves (modes 0 and 1, forward and backward) named by the monitor
        md->show();
        md->tabs()->setCurrentWidget(plot);
        QTRY_COMPARE(plot->graphCount(), 4);
        QStringList names;
        for (int g = 0; g < plot->graphCount(); ++g) names << plot->graph(g)->name();
        QVERIFY2(names.contains(QStringLiteral("amp mode 0 forward")), qPrintable(names.join(QLatin1Char('|'))));
        QVERIFY(names.contains(QStringLiteral("amp mode 0 backward")));
        QVERIFY(names.contains(QStringLiteral("amp mode 1 forward")));
        QVERIFY(plot->yAxis->label().contains(QStringLiteral("incident power")));
        QCOMPARE(plot->graph(0)->dataCount(), 21);
        const double liveMid = plot->graph(0)->data()->at(10)->value;
        if (!shots.isEmpty()) {
            if (w.structure3dDock()) w.structure3dDock()->hide();  // room for the plot (a 2D project)
            w.resize(1500, 950);
            w.resizeDocks({md}, {450}, Qt::Vertical);
            QTest::qWait(600);
            QVERIFY(w.grab().save(QDir(shots).filePath(QStringLiteral("mode-amplitudes-live.png"))));
        }
        rc->resume();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        QTest::qWait(100);  // the last news
        const auto r = rc->lastResult();
        QVERIFY(r);
        QVERIFY(liveWithModes > 1);
        QVERIFY(last && last->phase == "main");
        QCOMPARE(last->step, r->steps);
        QCOMPARE(int(last->mode_coefficients.size()), int(r->mode_coefficients.size()));
        for (std::size_t k = 0; k < r->mode_coefficients.size(); ++k)
            for (std::size_t f = 0; f < r->frequency_hz.size(); ++f) {
                const auto a = last->mode_coefficients[k].fwd[f], b = r->mode_coefficients[k].fwd[f];
                QVERIFY(std::abs(a - b) <= 1e-12 * std::abs(b) + 1e-300);
            }
        // the final curve: |a+|^2 of the result (wavelength keys sorted: f index 10 is the middle)
        QCPGraph* fwd0 = nullptr;
        for (int g = 0; g < plot->graphCount(); ++g)
            if (plot->graph(g)->name() == QStringLiteral("amp mode 0 forward")) fwd0 = plot->graph(g);
        QVERIFY(fwd0);
        const double finalMid = fwd0->data()->at(10)->value;
        QVERIFY(std::abs(finalMid - std::norm(r->mode_coefficients[0].fwd[10])) <= 1e-12 * finalMid);
        std::printf("mode 0 forward power at 1.55 um: %.4f live at 95 fs, %.4f final\n", liveMid, finalMid);
        QVERIFY(finalMid > 0.8 && finalMid < 1.2);  // the source launches the one mode
        QVERIFY(std::abs(liveMid - finalMid) > 0.01);  // the plot did change while the run went on
        // the results folder reopened: the mode columns of spectra.csv go to this plot, not
        // to the spectra (10 significant digits in the file)
        plots::MonitorsDock reopened;
        QVERIFY(reopened.loadResults(dir.filePath(QStringLiteral("slab_modes_results"))));
        QCOMPARE(reopened.modeAmplitudePlot()->graphCount(), 4);
        QCOMPARE(reopened.spectraPlot()->graphCount(), 2);  // the flux of T and of amp (a mode monitor keeps its flux)
        for (int g = 0; g < 2; ++g) QVERIFY(!reopened.spectraPlot()->graph(g)->name().contains(QStringLiteral("_m0_")));
        QCPGraph* back = nullptr;
        for (int g = 0; g < 4; ++g)
            if (reopened.modeAmplitudePlot()->graph(g)->name() == QStringLiteral("amp mode 0 forward"))
                back = reopened.modeAmplitudePlot()->graph(g);
        QVERIFY(back);
        QCOMPARE(back->dataCount(), 21);
        QVERIFY(std::abs(back->data()->at(10)->value / finalMid - 1) < 1e-8);
    }

    /// A 2D project's bent port line: the Port Modes dock reports Im n_eff and the bend loss.
    void bentLinePortModes() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_SPECTRA, have_mode_solver_2d(), "spectra");
        // Meep's ring slab (test_mode_bend.cpp): 200 nm Si in oxide, TE, bent at R = 2 um
        // (0.84 dB/90deg there at 5 nm cells), here on a 20 nm grid
        const Project p = parse_project(R"({"format": "golightly-project", "version": 1, "name": "ring slab",
          "domain": {"dimensions": 2, "size": [1.0, 3.4, 0.0], "cell_size": 0.02, "polarization": "TEz",
                     "boundaries": {"x": "pml", "y": "pml", "z": "pml"}, "pml": {"cells": 10}, "background": "sio2"},
          "materials": [{"id": "sio2", "epsilon_inf": 2.085136}, {"id": "si", "epsilon_inf": 12.082576}],
          "layers": [{"name": "core", "material": "si", "shapes": [{"type": "rectangle", "min": [-1.0, 1.6], "max": [2.0, 1.8]}]}],
          "ports": [{"name": "bent", "center": [0.5, 1.7], "size": [0, 3.2], "direction": "+x", "bend_radius": 2.0}],
          "run": {"spectrum": {"wavelength_min": 1.5, "wavelength_max": 1.56, "points": 3}}})",
                                        "ring.glproj");
        EditorDocument doc;
        doc.replaceProject(p, QStringLiteral("bent"));
        app::ModeViewerDock dock(&doc);
        dock.setWavelength(1.5281842);
        dock.setModeCount(1);
        QSignalSpy solved(&dock, &app::ModeViewerDock::solved);
        QVERIFY(dock.solve());
        QVERIFY(solved.wait(60000) || !solved.isEmpty());
        QVERIFY2(solved.front().at(0).toBool(), qPrintable(solved.front().at(1).toString()));
        const auto r = dock.result();
        QVERIFY(r && r->bent && !r->modes.empty());
        const auto& m = r->modes[0];
        std::printf("2D Si slab bent at 2 um: n_eff %.6f%+.3ei, %.4g dB/90deg\n", m.n_eff, m.n_eff_imag, m.loss_db_per_90deg);
        QVERIFY(m.n_eff > 1 && m.n_eff_imag > 0);
        QVERIFY(m.loss_db_per_90deg > 0.4 && m.loss_db_per_90deg < 1.6);  // Meep's 0.84 within a factor 2 at 20 nm
        // dB/cm and dB/90deg are one Im beta
        QVERIFY(std::abs(m.loss_db_per_cm * (M_PI * 2.0 / 2) * 1e-4 / m.loss_db_per_90deg - 1) < 1e-9);
        QTableWidget* t = dock.table();
        QVERIFY(!t->isColumnHidden(6));
        QCOMPARE(t->item(0, 6)->text(), QString::number(m.loss_db_per_90deg, 'g', 4));
        QCOMPARE(t->item(0, 2)->text(), QString::number(m.n_eff_imag, 'g', 4));
    }
};

QTEST_MAIN(TestModeMonitors)
#include "tst_mode_monitors.moc"
