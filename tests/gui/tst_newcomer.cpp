// Issue 20: the IDE as a newcomer meets it. One test per item of the first-hour
// walkthrough, each asserting the behaviour the user sees; here the run and its checks: a
// fresh view after File > Open, the reference run shown live with its own progress,
// validation at entry, readable field overlays at any zoom, progress from the stop rule,
// the start page and Help menu, one-click normalization. Editing, the look and the
// language are tst_newcomer_editing.cpp.
#include <QAbstractScrollArea>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QTranslator>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>

#include "qcustomplot_include.hpp"

#include <cmath>

#include "docks.hpp"
#include "field_view.hpp"
#include "golightly/colormap.hpp"
#include "golightly/compile.hpp"
#include "golightly/project.hpp"
#include "gui_test_util.hpp"
#include "language.hpp"
#include "main_window.hpp"
#include "far_field_view.hpp"
#include "monitors_dock.hpp"
#include "number_spin_box.hpp"
#include "run_checks.hpp"
#include "run_controller.hpp"
#include "run_progress.hpp"
#include "start_page.hpp"
#include "step_import_dialog.hpp"
#include "tools.hpp"
#include "newcomer_fixture.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::kExamplesDir;
using golightly::test::StubPrompts;
using namespace golightly::test::newcomer;

class TestNewcomer : public QObject, public Fixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initFixture(); }

    // ---- 2 and 1: the reference run is shown live, labelled, with its own progress; File >
    // Open then clears the run's field, plots and status
    void referenceRunLiveThenOpenClears() {
        app::MainWindow w(options());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString quick = copyExample(QStringLiteral("quickstart.glproj"));
        QVERIFY(w.openFile(quick));
        QVERIFY(w.document()->project().run.normalization.enabled);
        QVERIFY(w.startRun());
        // frames arrive while the reference (normalization) run is going
        QTRY_VERIFY_WITH_TIMEOUT(w.runController()->currentPhase() == QStringLiteral("reference") &&
                                     w.fieldView()->framesShown() > 0 &&
                                     statusText(w).startsWith(QStringLiteral("Reference run")),
                                 60000);
        w.runController()->pause();  // hold it in the reference run while we look
        QVERIFY2(w.fieldView()->phaseLabel().contains(QStringLiteral("Reference run")), qPrintable(w.fieldView()->phaseLabel()));
        QVERIFY2(progressBar(w)->format().startsWith(QStringLiteral("Reference run")), qPrintable(progressBar(w)->format()));
        QVERIFY(progressBar(w)->isVisible());
        // the status names the stop rule (the example stops on its energy decay)
        QVERIFY2(statusText(w).contains(QStringLiteral("dB energy decay")), qPrintable(statusText(w)));
        const QImage shown = w.fieldView()->renderToImage(QSize(900, 600));
        QVERIFY(!shown.isNull());
        shot(QStringLiteral("reference-run-field"), shown);
        QTest::qWait(300);
        QVERIFY2(w.monitorsDock()->summaryText().startsWith(QStringLiteral("Reference run")), qPrintable(w.monitorsDock()->summaryText()));
        shot(QStringLiteral("reference-run-window"), &w);

        // 1: opening another project stops the run and clears what belonged to it
        const QString slab = copyExample(QStringLiteral("fresnel_slab.glproj"));
        QVERIFY(w.openFile(slab));
        QVERIFY(!w.runController()->isRunning());
        QVERIFY(!w.fieldView()->currentFrame());
        QCOMPARE(w.fieldView()->framesShown(), 0);
        QCOMPARE(plots::MonitorsDock::pointCount(w.monitorsDock()->energyPlot()), 0);
        QCOMPARE(plots::MonitorsDock::pointCount(w.monitorsDock()->spectraPlot()), 0);
        QCOMPARE(w.monitorsDock()->summaryText(), QStringLiteral("No run yet."));
        QVERIFY2(statusText(w).isEmpty(), qPrintable(statusText(w)));
        shot(QStringLiteral("after-open"), &w);
        QVERIFY(!progressBar(w)->isVisible());
        QVERIFY(!w.action(QStringLiteral("view.field"))->isChecked());  // back to the editor canvas
        QVERIFY(w.action(QStringLiteral("run.start"))->isEnabled());

        // a project with saved results shows them, labelled as the saved results
        const QString saved = copyExample(QStringLiteral("fresnel_slab.glproj"), QStringLiteral("saved.glproj"));
        QDir(dir_.path()).mkpath(QStringLiteral("saved_results"));
        {
            QFile csv(dir_.filePath(QStringLiteral("saved_results/spectra.csv")));
            QVERIFY(csv.open(QIODevice::WriteOnly));
            csv.write("wavelength_um,frequency_thz,T,T_flux\n1.0,299.8,0.75,1e-38\n1.1,272.5,0.74,1e-38\n");
            QFile sum(dir_.filePath(QStringLiteral("saved_results/summary.json")));
            QVERIFY(sum.open(QIODevice::WriteOnly));
            sum.write(R"({"stop_reason":"decay","steps":100,"time_fs":10,"mcells_per_s":5,"backend":"cpu","normalization":{"ran":true}})");
        }
        QVERIFY(w.openFile(saved));
        QVERIFY2(w.monitorsDock()->summaryText().startsWith(QStringLiteral("Saved results of saved.glproj")),
                 qPrintable(w.monitorsDock()->summaryText()));
        QCOMPARE(plots::MonitorsDock::pointCount(w.monitorsDock()->spectraPlot()), 2);
        shot(QStringLiteral("saved-results"), &w);
        // File > New clears them again
        w.action(QStringLiteral("file.new"))->trigger();
        QCOMPARE(plots::MonitorsDock::pointCount(w.monitorsDock()->spectraPlot()), 0);
        QCOMPARE(w.monitorsDock()->summaryText(), QStringLiteral("No run yet."));
    }

    // ---- 3: invalid entries are red with the rule, are not applied, and block Run with the list
    void invalidEntriesAreRedAndBlockRun() {
        StubPrompts prompts;
        app::MainWindow w(options(&prompts));
        w.show();
        EditorDocument* doc = w.document();
        Shape path;
        path.type = ShapeType::Path;
        path.points = {{1, 4}, {8, 4}};
        path.width = 0.5;
        doc->addShape(0, path, QStringLiteral("path"));
        doc->setSelection({ItemRef::Kind::Shape, 0, int(doc->project().layers[0].shapes.size()) - 1});
        w.propertiesDock()->rebuild();
        const ItemRef sel = doc->selection();
        const int undoCount = doc->undoStack()->count();
        for (double bad : {0.0, -2.0}) {
            const QString rule = w.propertiesDock()->enterValue(QStringLiteral("Width"), bad);
            QVERIFY2(rule.contains(QStringLiteral("greater than 0")), qPrintable(rule));
            auto* field = w.propertiesDock()->field(QStringLiteral("Width"));
            QVERIFY(field->property("invalid").toBool());
            QVERIFY2(field->toolTip().contains(QStringLiteral("must be greater than 0")), qPrintable(field->toolTip()));
            QVERIFY(!field->styleSheet().isEmpty());  // red
            QCOMPARE(doc->project().layers[0].shapes[size_t(sel.index)].width, 0.5);  // not applied
            QCOMPARE(doc->undoStack()->count(), undoCount);
        }
        w.resize(1300, 800);
        QTest::qWait(150);
        shot(QStringLiteral("invalid-width"), &w);
        // it stays red after a rebuild of the dock (e.g. another edit elsewhere)
        w.propertiesDock()->rebuild();
        QVERIFY(w.propertiesDock()->field(QStringLiteral("Width"))->property("invalid").toBool());
        // Run refuses with the list of problems; nothing says "Running..."
        QVERIFY(!w.startRun());
        QVERIFY(!w.runController()->isRunning());
        QVERIFY(!prompts.errors.isEmpty());
        QVERIFY2(prompts.errors.last().contains(QStringLiteral("Width: must be greater than 0 (entered -2)")),
                 qPrintable(prompts.errors.last()));
        QVERIFY2(!w.monitorsDock()->summaryText().contains(QStringLiteral("Running")), qPrintable(w.monitorsDock()->summaryText()));
        QVERIFY2(statusText(w).startsWith(QStringLiteral("Not started")), qPrintable(statusText(w)));
        QVERIFY(w.action(QStringLiteral("run.start"))->isEnabled());
        // a valid value clears the mark and is applied (one undo step)
        QVERIFY(w.propertiesDock()->enterValue(QStringLiteral("Width"), 0.4).isEmpty());
        QVERIFY(!w.propertiesDock()->field(QStringLiteral("Width"))->property("invalid").toBool());
        QCOMPARE(doc->project().layers[0].shapes[size_t(sel.index)].width, 0.4);
        QVERIFY(w.propertiesDock()->problems().isEmpty());
        // a problem outside the inspector (made by a file or a script) is listed by item, too
        doc->editProject(QStringLiteral("bad span"), [](Project& p) {
            Source s;
            s.name = "src";
            s.type = SourceType::Line;
            s.from = {1, 1};
            s.to = {1, 7};
            s.waveform.wavelength_center = 1.0;
            s.waveform.wavelength_span = 3.0;
            p.sources.push_back(s);
        });
        const QStringList problems = run_problems(doc->project());
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.front().startsWith(QStringLiteral("source \"src\": wavelength_span")), qPrintable(problems.front()));
        QVERIFY(!w.startRun());
        QVERIFY2(prompts.errors.last().contains(QStringLiteral("source \"src\"")), qPrintable(prompts.errors.last()));
        QVERIFY(!w.monitorsDock()->summaryText().contains(QStringLiteral("Running")));
    }

    // ---- 4: overlays keep their size and contrast at any zoom and stay outside the domain
    void fieldOverlaysReadableAtAnyZoom() {
        viewport::FieldView view;
        view.resize(800, 500);
        const Project p = load_project((kExamplesDir + QStringLiteral("/quickstart.glproj")).toStdString());
        const CompiledProject cp = compile_project(p, "quickstart");
        view.setProject(p);
        view.setStructure(viewport::make_structure_image(cp.scene));
        auto frame = std::make_shared<viewport::FieldFrame>();
        frame->width = frame->height = 32;
        frame->values.assign(32 * 32, 0.f);  // zero field: white-ish and see-through
        frame->max_abs = 1;
        frame->x0_um = 0;
        frame->y0_um = 0;
        frame->width_um = frame->height_um = 4;
        frame->time_fs = 12.5;
        frame->step = 100;
        view.showFrame(frame);
        const QSize size(800, 500);
        const int stripX = size.width() - viewport::FieldView::kBarStrip;
        std::vector<QImage> images;
        for (double zoom : {0.0, 3000.0}) {
            if (zoom > 0) view.setView(zoom, QPointF(2, 2));  // deep inside the domain
            else view.zoomToFit();
            images.push_back(view.renderToImage(size));
            shot(QStringLiteral("field-zoom-%1").arg(zoom), images.back());
        }
        std::uint8_t r, g, b;
        golightly::diverging_rgb(0.f, r, g, b);
        for (const QImage& img : images) {
            // the strip is the strip, not the domain, at every zoom
            QCOMPARE(QColor(img.pixel(size.width() - 6, size.height() - 6)), QColor(38, 40, 44));
            QCOMPARE(QColor(img.pixel(stripX + 2, size.height() / 2)), QColor(38, 40, 44));
            // the colour bar's middle is the colour of 0
            QCOMPARE(QColor(img.pixel(stripX + 22, 44 + (size.height() - 90) / 2)), QColor(r, g, b));
            // the time stamp sits on a dark plate, readable over a white field
            QVERIFY2(luminance(img.pixel(9, 14)) < 60, "no dark plate behind the time stamp");
        }
        // the numbers of the colour bar have the same pixels at both zooms (fixed size)
        const QRect numbers(stripX + 36, 30, viewport::FieldView::kBarStrip - 36, size.height() - 60);
        QCOMPARE(images[0].copy(numbers), images[1].copy(numbers));
        int bright = 0;
        for (int y = numbers.top(); y <= numbers.bottom(); ++y)
            for (int x = numbers.left(); x <= numbers.right(); ++x) bright += luminance(images[1].pixel(x, y)) > 150;
        QVERIFY2(bright > 20, "the colour-bar numbers are not drawn");
        // the text of the time stamp is there at the deep zoom
        int text = 0;
        for (int y = 8; y < 28; ++y)
            for (int x = 14; x < 200; ++x) text += luminance(images[1].pixel(x, y)) > 200;
        QVERIFY2(text > 30, "the time stamp vanished when zoomed");
    }

    // ---- 5: progress and ETA from the stop rule that ends the run
    void progressFollowsTheStopRule() {
        app::ProgressModel m;
        app::StopPlan plan;
        plan.sourcesEndFs = 100;
        plan.decayDb = 30;
        plan.maxTimeFs = 6000;
        m.reset(plan);
        ProgressInfo p;
        p.phase = "main";
        p.max_steps = 100000;
        p.steps_per_s = 50;  // the time limit is 33 min away
        double wall = 0;
        app::ProgressEstimate e;
        // before the sources end: the decay rule is armed, the ETA is an upper bound
        p.step = 1000;
        p.time_fs = 50;
        p.energy_db = 0;
        e = m.update(p, wall);
        QCOMPARE(e.rule, app::ProgressEstimate::Rule::Decay);
        QVERIFY(e.fraction > 0 && e.fraction <= 0.1);
        QVERIFY(e.etaIsUpperBound);
        QVERIFY2(e.ruleText.contains(QStringLiteral("after the sources end")), qPrintable(e.ruleText));
        // the energy decays 1 dB per wall second after the sources end
        for (int k = 0; k <= 27; ++k) {
            wall = 10 + k;
            p.step = 3000 + 50 * k;
            p.time_fs = 150 + 2 * k;
            p.energy_db = k;
            e = m.update(p, wall);
        }
        QCOMPARE(e.rule, app::ProgressEstimate::Rule::Decay);
        // 27 of 30 dB: about 93 % although only 4 % of the time limit is used
        QVERIFY2(e.fraction > 0.9 && e.fraction < 0.95, qPrintable(QString::number(e.fraction)));
        QVERIFY2(std::abs(e.etaS - 3.0) < 0.3, qPrintable(QString::number(e.etaS)));  // not 31 min
        QVERIFY(!e.etaIsUpperBound);
        QVERIFY2(e.ruleText.contains(QStringLiteral("30 dB energy decay (now 27.0 dB)")), qPrintable(e.ruleText));
        // a dip in the level does not move the bar back
        p.energy_db = 20;
        QVERIFY(m.update(p, wall + 0.5).fraction >= e.fraction);
        // a run without a decay rule reports the time limit
        plan.decayDb = 0;
        m.reset(plan);
        p.step = 25000;
        e = m.update(p, 1);
        QCOMPARE(e.rule, app::ProgressEstimate::Rule::Limit);
        QCOMPARE(e.fraction, 0.25);
        QVERIFY2(e.ruleText.contains(QStringLiteral("time limit (6000 fs)")), qPrintable(e.ruleText));
        QCOMPARE(e.etaS, 1500.0);
    }

    // ---- 6: start page and Help menu
    void startPageAndHelpMenu() {
        app::MainWindow w(options());
        w.resize(1300, 850);
        w.show();
        w.showStartPage();
        QVERIFY(w.startPageShown());
        QVERIFY(!w.layersDock()->isVisible());  // the start page has the whole window
        const QStringList examples = w.startPage()->examples();
        QVERIFY2(examples.size() >= 5, qPrintable(examples.join(',')));
        QVERIFY(examples.front().endsWith(QStringLiteral("quickstart.glproj")));
        // every example has a picture that is not blank
        const QImage pic = app::StartPage::renderExample(examples.front(), QSize(200, 130));
        QSet<QRgb> colours;
        for (int y = 0; y < pic.height(); y += 3)
            for (int x = 0; x < pic.width(); x += 3) colours.insert(pic.pixel(x, y));
        QVERIFY2(colours.size() > 3, "the example picture is blank");
        QTRY_VERIFY(!w.startPage()->findChild<QToolButton*>(QStringLiteral("example.quickstart"))->icon().isNull());
        QTest::qWait(400);  // all the pictures
        shot(QStringLiteral("start-page"), &w);
        // recent files are listed
        const QString quick = copyExample(QStringLiteral("quickstart.glproj"), QStringLiteral("recent.glproj"));
        QVERIFY(w.openFile(quick));
        QVERIFY(!w.startPageShown());
        QVERIFY(w.layersDock()->isVisible());  // the docks are back
        w.showStartPage();
        bool listed = false;
        for (QLabel* l : w.startPage()->findChildren<QLabel*>(QStringLiteral("recentFile"))) listed |= l->text().contains(QStringLiteral("recent.glproj"));
        QVERIFY(listed);
        // "New Project" leaves the start page for the canvas with a new project
        w.startPage()->findChild<QPushButton*>(QStringLiteral("startNew"))->click();
        QVERIFY(!w.startPageShown());
        QVERIFY(w.document()->filePath().isEmpty());
        // Help: the user guide exists and opens with F1; shortcuts and About
        QCOMPARE(w.action(QStringLiteral("help.guide"))->shortcut(), QKeySequence(QKeySequence::HelpContents));
        QVERIFY(w.userGuideUrl().isLocalFile());
        QVERIFY2(QFileInfo::exists(w.userGuideUrl().toLocalFile()), qPrintable(w.userGuideUrl().toString()));
        const auto keys = w.shortcutList();
        auto keyOf = [&](const QString& command) {
            for (const auto& k : keys)
                if (k.first == command) return k.second;
            return QString();
        };
        QCOMPARE(keyOf(QStringLiteral("Rectangle")), QStringLiteral("R"));
        QCOMPARE(keyOf(QStringLiteral("Run")), QStringLiteral("F5"));
        QCOMPARE(keyOf(QStringLiteral("Waveguide Path")), QStringLiteral("W"));
        w.showShortcuts();
        auto* dlg = w.findChild<QDialog*>(QStringLiteral("shortcutsDialog"));
        QVERIFY(dlg);
        QCOMPARE(dlg->findChild<QTableWidget*>()->rowCount(), int(keys.size()));
        dlg->close();
        QVERIFY(w.action(QStringLiteral("help.about")));
    }

    // ---- 7: one-click normalization; a reflection monitor behind the source is flagged
    void normalizationInOneClickAndBackwardMonitor() {
        app::MainWindow w(options());
        w.show();
        EditorDocument* doc = w.document();
        doc->editProject(QStringLiteral("setup"), [](Project& p) {
            p.run.normalization = {};
            Layer ref;
            ref.name = "reference";
            ref.material = p.layers.front().material;
            ref.reference_only = true;
            p.layers.push_back(ref);
            Source s;
            s.name = "src";
            s.type = SourceType::Line;
            s.from = {2, 1};
            s.to = {2, 7};
            s.direction = "+x";
            p.sources = {s};
            Monitor t;
            t.name = "T";
            t.type = MonitorType::Flux;
            t.from = {8, 1};
            t.to = {8, 7};
            t.kind = "transmission";
            Monitor r = t;
            r.name = "R";
            r.kind = "reflection";
            r.direction = "-x";
            r.from = {1, 1};  // behind the source
            r.to = {1, 7};
            p.monitors = {t, r};
        });
        QVERIFY(offers_normalization(doc->project()));
        QStringList warnings = setup_warnings(doc->project());
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.front().contains(QStringLiteral("\"R\" is behind the source \"src\"")), qPrintable(warnings.front()));
        auto* label = w.runSetupDock()->findChild<QLabel*>(QStringLiteral("runWarnings"));
        QVERIFY(label && !label->isHidden());
        QVERIFY(label->text().contains(QStringLiteral("\"R\" is behind")));
        w.runSetupDock()->raise();
        shot(QStringLiteral("backward-monitor-warning"), w.runSetupDock());
        // between the source and the device: no warning
        doc->editProject(QStringLiteral("move"), [](Project& p) {
            p.monitors[1].from.x = 3;
            p.monitors[1].to.x = 3;
        });
        QVERIFY(setup_warnings(doc->project()).isEmpty());
        QVERIFY(label->isHidden());
        // the offer in the Monitors dock turns normalization on in one undo step
        w.monitorsDock()->setNormalizationOffer(true);
        QVERIFY(w.monitorsDock()->normalizationOffered());
        shot(QStringLiteral("normalize-offer"), w.monitorsDock());
        const int count = doc->undoStack()->count();
        w.monitorsDock()->findChild<QPushButton*>(QStringLiteral("normalizeButton"))->click();
        QVERIFY(doc->project().run.normalization.enabled);
        QCOMPARE(doc->project().run.normalization.reference_layers, std::vector<std::string>{"reference"});
        QCOMPARE(doc->undoStack()->count(), count + 1);
        QVERIFY(!w.monitorsDock()->normalizationOffered());
        QVERIFY(!offers_normalization(doc->project()));
        QVERIFY(incident_monitor_index(doc->project(), "") >= 0);  // the solver accepts it
        doc->undoStack()->undo();
        QVERIFY(!doc->project().run.normalization.enabled);
    }

};

QTEST_MAIN(TestNewcomer)
#include "tst_newcomer.moc"
