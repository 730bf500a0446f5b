// Normalize in one click on a user's own design (issue 55 item 5): a bend with a mode
// source and no reference layer (as drawn from scratch). Ticking "Normalize with a
// reference run" in Run setup derives the input waveguide under the source as a
// reference-only layer in the same undo step, says so in the status bar, and the run that
// follows (reference run, then main run) ends without "no guided mode" and normalized.
// With GOLIGHTLY_SHOTS=DIR set the test saves the editor with the derived layer there.
#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

#include <algorithm>

#include "canvas.hpp"
#include "docks.hpp"
#include "golightly/project.hpp"
#include "gui_fixture.hpp"
#include "main_window.hpp"
#include "run_controller.hpp"

using namespace golightly;

namespace {

const QString kExample = QStringLiteral(GOLIGHTLY_SOURCE_DIR "/examples/quickstart.glproj");
const std::string kDerived = "Reference: mode source guide";

/// The quickstart bend without its straight reference layer and with normalization off, on
/// a coarser grid and a short spectrum: a user's own bend.
Project ownBend() {
    Project p = load_project(kExample.toStdString());
    p.layers.erase(std::remove_if(p.layers.begin(), p.layers.end(), [](const Layer& l) { return l.reference_only; }),
                   p.layers.end());
    p.run.normalization.enabled = false;
    p.run.normalization.reference_layers.clear();
    p.domain.cell_size = 0.05;
    p.domain.pml.cells = 10;
    p.run.spectrum.points = 5;
    p.run.stop.max_time_fs = 500;
    return p;
}

int countLayers(const Project& p, const std::string& name) {
    return int(std::count_if(p.layers.begin(), p.layers.end(), [&](const Layer& l) { return l.name == name; }));
}

}  // namespace

class TestNormalizeReference : public QObject, golightly::test::WindowFixture {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        initFixture();
        showWindow(QSize(1280, 800));
    }
    void cleanupTestCase() {
        if (w_) w_->runController()->stopAndWait(5000);
        w_.reset();
    }

    void normalizeDerivesTheInputGuideAndRuns() {
        app::MainWindow& w = *w_;
        const QString path = dir_.filePath(QStringLiteral("bend.glproj"));
        save_project(ownBend(), path.toStdString());
        QVERIFY(w.openFile(path));
        editor::EditorDocument& doc = *w.document();
        const Project before = doc.project();
        QCOMPARE(countLayers(before, kDerived), 0);

        // one click: Normalize on, the reference structure with it, one undo step
        QCheckBox* normalize = w.runSetupDock()->normalization();
        QVERIFY(normalize && !normalize->isChecked());
        const int steps = doc.undoStack()->count();
        normalize->setChecked(true);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        {
            const Project& p = doc.project();
            QVERIFY(p.run.normalization.enabled);
            QCOMPARE(countLayers(p, kDerived), 1);
            const Layer& l = p.layers.back();
            QCOMPARE(l.name, kDerived);
            QVERIFY(l.reference_only);
            QCOMPARE(l.material, std::string("core"));
            QCOMPARE(p.run.normalization.reference_layers, std::vector<std::string>{kDerived});
        }
        const QString told = w.statusBar()->currentMessage();
        QVERIFY2(told.contains(QString::fromStdString(kDerived)), qPrintable(told));
        // the Run setup's reference list shows it ticked
        QListWidget* refs = w.runSetupDock()->referenceLayers();
        const auto items = refs->findItems(QString::fromStdString(kDerived), Qt::MatchExactly);
        QCOMPARE(items.size(), 1);
        QCOMPARE(items.front()->checkState(), Qt::Checked);

        // one undo takes the layer and the switch back; redo restores both
        doc.undoStack()->undo();
        QVERIFY(doc.project() == before);
        QVERIFY(!normalize->isChecked());
        doc.undoStack()->redo();
        QCOMPARE(countLayers(doc.project(), kDerived), 1);
        QVERIFY(normalize->isChecked());

        // off and on again: the derived layer is not added a second time
        normalize->setChecked(false);
        QVERIFY(!doc.project().run.normalization.enabled);
        normalize->setChecked(true);
        QVERIFY(doc.project().run.normalization.enabled);
        QCOMPARE(countLayers(doc.project(), kDerived), 1);
        QVERIFY(w.runSetupDock()->findChild<QLabel*>(QStringLiteral("runWarnings"))->text().isEmpty());

        const QString shots = qEnvironmentVariable("GOLIGHTLY_SHOTS");
        if (!shots.isEmpty()) {
            // the editor as the user sees it after the click: the derived layer selected in
            // Layers, drawn faint with a dash-dot outline, ticked under Reference layers
            w.resize(1500, 900);
            if (auto* view3d = w.structure3dDock()) view3d->hide();
            doc.setCurrentLayer(int(doc.project().layers.size()) - 1);
            w.runSetupDock()->show();
            w.runSetupDock()->raise();
            QTest::qWait(100);
            w.canvas()->zoomToFit();
            w.statusBar()->showMessage(told);
            QTest::qWait(100);
            w.grab().save(shots + QStringLiteral("/normalize-reference-layer.png"));
        }

        // the run: reference run with the derived guide, then the main run, no error
        app::SolverSettings st;
        st.threads = 1;
        st.backend = BackendChoice::Cpu;
        QSignalSpy finished(w.runController(), &app::RunController::finished);
        QVERIFY(w.startRun(&st));
        QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 90000));
        const QList<QVariant> end = finished.front();
        QVERIFY2(end.at(0).toBool(), qPrintable(end.at(1).toString()));
        QVERIFY2(prompts_.errors.isEmpty(), qPrintable(prompts_.errors.join(QLatin1Char('\n'))));
        const auto result = w.runController()->lastResult();
        QVERIFY(result);
        QVERIFY(result->normalized);
        const auto t = std::find_if(result->spectra.begin(), result->spectra.end(),
                                    [](const auto& s) { return s.name == "T"; });
        QVERIFY(t != result->spectra.end());
        QVERIFY(!t->normalized.empty());
        for (double v : t->normalized) QVERIFY2(v > 0 && v <= 1.03, qPrintable(QString::number(v)));
    }

    void namedLayersWithoutAGuideAreExplained() {
        // the reference layers named by hand miss the source: the warning says so before
        // the run, and the run's error says it is the reference (normalization) run
        app::MainWindow& w = *w_;
        Project p = ownBend();
        p.run.normalization.enabled = true;
        Layer stray;
        stray.name = "stray";
        stray.material = "core";
        stray.reference_only = true;
        Shape r;
        r.type = ShapeType::Rectangle;
        r.min = {3.0, 3.0};
        r.max = {3.5, 3.5};
        stray.shapes.push_back(r);
        p.layers.push_back(stray);
        p.run.normalization.reference_layers = {"stray"};
        const QString path = dir_.filePath(QStringLiteral("stray.glproj"));
        save_project(p, path.toStdString());
        QVERIFY(w.openFile(path));
        const QString warning = w.runSetupDock()->findChild<QLabel*>(QStringLiteral("runWarnings"))->text();
        QVERIFY2(warning.contains(QStringLiteral("mode source \"mode source\"")), qPrintable(warning));
        app::SolverSettings st;
        st.threads = 1;
        st.backend = BackendChoice::Cpu;
        prompts_.errors.clear();
        QSignalSpy finished(w.runController(), &app::RunController::finished);
        if (w.startRun(&st)) QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 30000));
        const QString all = prompts_.errors.join(QLatin1Char('\n')) +
                            (finished.isEmpty() ? QString() : finished.front().at(1).toString());
        QVERIFY2(all.contains(QStringLiteral("reference (normalization) run")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("mode source 'mode source'")), qPrintable(all));
        prompts_.errors.clear();
    }
};

QTEST_MAIN(TestNormalizeReference)
#include "tst_normalize_reference.moc"
