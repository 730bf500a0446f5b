// The S-parameters, Sweep / Optimize and Port Modes docks (issues 21 and 23) on a tiny 2D
// project (tests/gui/data/slab2d_tools.glproj: a slab with a wider section of width w2
// between two line ports; each run takes well under a second on one core):
//  - Run > Compute S-parameters fills the plots column by column, and the matrix equals
//    golightly::run_sparameters' (the solver's own) to the last bit; Cancel stops it;
//    the written sparams.csv reads back;
//  - the parameters editor: add / set / remove are one undo step each, undo restores;
//  - a 1-parameter sweep plots the solver's values (each design's spectra.csv), a click
//    on a point opens that design; a 2-parameter sweep fills a colour map; cancel;
//  - the optimizer's points are optimize.csv's;
//  - the Port Modes dock: a 2D port's slab modes (n_eff against the S-parameter run's
//    mode monitor and against the analytic slab), a 3D port's (the strip example) against
//    solve_modes_2d.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QMenu>
#include <QSpinBox>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QTest>
#include <QTextStream>

#include "qcustomplot_include.hpp"

#include <cmath>

#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "golightly/sweep.hpp"
#include "golightly/units.hpp"
#include "gui_fixture.hpp"
#include "main_window.hpp"
#include "mode_viewer.hpp"
#include "sparams_dock.hpp"
#include "sparams_view.hpp"
#include "sweep_dock.hpp"

using namespace golightly;
using golightly::test::StubPrompts;

namespace {
const QString kProject = QStringLiteral(GOLIGHTLY_SOURCE_DIR "/tests/gui/data/slab2d_tools.glproj");

/// n_eff of the fundamental even mode of a symmetric slab (index n1, width d, cladding n2)
/// with the field parallel to the interfaces (2D TMz: Ez): kx tan(kx d / 2) = gamma,
/// kx = k0 sqrt(n1^2 - n^2), gamma = k0 sqrt(n^2 - n2^2); bisection on n.
double slabNeff(double n1, double n2, double d, double wl) {
    const double k0 = 2 * M_PI / wl;
    auto f = [&](double n) {
        const double kx = k0 * std::sqrt(n1 * n1 - n * n), g = k0 * std::sqrt(n * n - n2 * n2);
        return kx * std::tan(kx * d / 2) - g;
    };
    // the fundamental: kx d / 2 in (0, pi / 2)
    double lo = std::max(n2, std::sqrt(std::max(0.0, n1 * n1 - std::pow(M_PI / (k0 * d), 2)))) + 1e-12, hi = n1 - 1e-12;
    for (int k = 0; k < 200; ++k) {
        const double mid = 0.5 * (lo + hi);
        (f(mid) > 0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

std::vector<std::vector<QString>> readCsvCells(const QString& path) {
    std::vector<std::vector<QString>> rows;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return rows;
    QTextStream in(&f);
    while (!in.atEnd()) {
        const QString l = in.readLine();
        if (!l.isEmpty()) rows.push_back([&] {
            std::vector<QString> c;
            for (const QString& s : l.split(QLatin1Char(','))) c.push_back(s);
            return c;
        }());
    }
    return rows;
}
}  // namespace

class TestSparamsSweep : public QObject, golightly::test::WindowFixture {
    Q_OBJECT
    QString project_;

    /// With GOLIGHTLY_SCREENSHOT_DIR set (docs/screenshots, taken under Xvfb), saves the
    /// window with `dock` raised and tall.
    void shot(QDockWidget* dock, const QString& name) {
        const QString dir = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        if (dir.isEmpty()) return;
        if (w_->structure3dDock()) w_->structure3dDock()->hide();  // room for the dock
        w_->resize(1560, 960);
        dock->show();
        dock->raise();
        w_->resizeDocks({dock}, {470}, Qt::Vertical);
        QTest::qWait(400);
        QVERIFY(w_->grab().save(QDir(dir).filePath(name)));
    }
    void reopen() {
        prompts_.saveAnswer = StubPrompts::SaveChoice::Discard;
        QVERIFY(w_->maybeSave());
        QVERIFY(w_->openFile(project_));
    }

private Q_SLOTS:
    void initTestCase() {
        // the test projects use parameter expressions (CTest registers this test disabled,
        // labelled optional and muparser, in a build without muparser)
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, expressions_available(), "muparser");
        initFixture();
        project_ = test::copyWritable(kProject, dir_.filePath(QStringLiteral("slab2d_tools.glproj")));
        QVERIFY(!project_.isEmpty());
        showWindow(QSize(1400, 900));
        QVERIFY(w_->openFile(project_));
    }
    void cleanupTestCase() { w_.reset(); }

    /// Run > Compute S-parameters: columns arrive one by one; the matrix is the solver's.
    void sparametersMatchSolver() {
        app::MainWindow& w = *w_;
        app::SParamsDock* dock = w.sparamsDock();
        QVERIFY(dock);
        QVERIFY(w.action(QStringLiteral("run.sparams")));
        QCOMPARE(w.action(QStringLiteral("run.sparams"))->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F5));
        QVector<int> graphsAtColumn;
        const auto watch = connect(dock, &app::SParamsDock::columnFinished, this,
                                   [&](int, int) { graphsAtColumn << dock->view()->magnitudePlot()->graphCount(); });
        QSignalSpy finished(dock, &app::SParamsDock::finished);
        QElapsedTimer t;
        t.start();
        w.action(QStringLiteral("run.sparams"))->trigger();
        QVERIFY(dock->isRunning());
        QVERIFY(dock->isVisible());
        QVERIFY(!w.action(QStringLiteral("run.sparams"))->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        qInfo("S-parameters of 2 ports through the GUI: %.2f s", t.elapsed() / 1000.0);
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        QVERIFY(w.action(QStringLiteral("run.sparams"))->isEnabled());
        disconnect(watch);
        // live: after port a's run the plots held its column (S11, S21), then all four
        QCOMPARE(graphsAtColumn, (QVector<int>{2, 4}));
        QCOMPARE(dock->view()->magnitudePlot()->graphCount(), 4);
        QCOMPARE(dock->view()->phasePlot()->graphCount(), 4);
        QCOMPARE(dock->progressBar()->value(), 1000);
        shot(dock, QStringLiteral("sparams-dock.png"));

        // the solver's own run_sparameters on the same project
        const Project p = load_project(project_.toStdString());
        RunOptions o;
        o.threads = 0;
        const SParameters ref = run_sparameters(p, project_.toStdString(), o);
        auto got = dock->lastResult();
        QVERIFY(got);
        QCOMPARE(got->labels, ref.labels);
        QCOMPARE(got->frequency_hz, ref.frequency_hz);
        for (std::size_t i = 0; i < 2; ++i)
            for (std::size_t j = 0; j < 2; ++j)
                for (std::size_t f = 0; f < ref.frequency_hz.size(); ++f)
                    QVERIFY2(std::abs(got->s[i][j][f] - ref.s[i][j][f]) <= 1e-12 * std::max(1.0, std::abs(ref.s[i][j][f])),
                             qPrintable(QStringLiteral("S%1%2 f%3").arg(i + 1).arg(j + 1).arg(f)));
        QCOMPARE(got->warnings, ref.warnings);
        // the plotted dB and phase are the matrix's
        auto* view = dock->view();
        QCPGraph* s21 = nullptr;
        for (int g = 0; g < view->magnitudePlot()->graphCount(); ++g)
            if (view->magnitudePlot()->graph(g)->name().startsWith(QStringLiteral("S21"))) s21 = view->magnitudePlot()->graph(g);
        QVERIFY(s21);
        QCOMPARE(s21->dataCount(), int(ref.frequency_hz.size()));
        for (std::size_t f = 0; f < ref.frequency_hz.size(); ++f) {
            const double wl = units::hz_to_wavelength_um(ref.frequency_hz[f]);
            auto it = s21->data()->findBegin(wl - 1e-9, false);
            QVERIFY(std::abs(it->key - wl) < 1e-12);
            QVERIFY(std::abs(it->value - 20 * std::log10(std::abs(ref.s[1][0][f]))) < 1e-9);
        }
        // the physics is sane: the step to the wider section reflects a little, most
        // passes, nothing gains power, and the device is reciprocal
        for (std::size_t f = 0; f < ref.frequency_hz.size(); ++f) {
            const double s11 = std::abs(ref.s[0][0][f]), s21 = std::abs(ref.s[1][0][f]);
            QVERIFY2(s11 > 0.01 && s11 < 0.3 && s21 > 0.8 && s11 * s11 + s21 * s21 < 1.01,
                     qPrintable(QStringLiteral("f%1: |S11| %2 |S21| %3").arg(f).arg(s11).arg(s21)));
            QVERIFY(std::abs(ref.s[1][0][f] - ref.s[0][1][f]) < 0.02);
        }

        // the files beside the project (golightly-cli sparams' layout) read back
        const QString csv = QDir(w.sparamsDirectory()).filePath(QStringLiteral("sparams.csv"));
        QVERIFY(QFile::exists(csv));
        QVERIFY(QFile::exists(QDir(w.sparamsDirectory()).filePath(QStringLiteral("sparams.s2p"))));
        plots::SParamsTable table;
        QString error;
        QVERIFY2(plots::readSparamsCsv(csv, table, &error), qPrintable(error));
        QCOMPARE(table.labels, (QStringList{QStringLiteral("a:0"), QStringLiteral("b:0")}));
        for (std::size_t f = 0; f < ref.frequency_hz.size(); ++f) {
            QVERIFY(std::abs(table.frequency_hz[f] / ref.frequency_hz[f] - 1) < 1e-9);
            QVERIFY(std::abs(table.s[1][0][f] - ref.s[1][0][f]) < 1e-9);  // %.10g
        }
        QVERIFY(dock->loadCsv(csv));
        QCOMPARE(dock->view()->magnitudePlot()->graphCount(), 4);
        // a malformed file is refused with its name and line
        const QString bad = dir_.filePath(QStringLiteral("bad.csv"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("wavelength_um,frequency_thz,S11_re,S11_im\n1.5,199.8,0.1\n");
        }
        QVERIFY(!plots::readSparamsCsv(bad, table, &error));
        QVERIFY2(error.contains(QStringLiteral("bad.csv")) && error.contains(QStringLiteral("line 2")), qPrintable(error));
        // filters
        dock->view()->setFilter(plots::SParamsView::Filter::Reflection);
        QCOMPARE(dock->view()->magnitudePlot()->graphCount(), 2);
        dock->view()->setFilter(plots::SParamsView::Filter::All);
        // reopening the project shows its saved S-parameters
        reopen();
        QCOMPARE(dock->view()->magnitudePlot()->graphCount(), 4);
    }

    /// Cancel stops the computation at the running port's next chunk.
    void sparametersCancel() {
        app::SParamsDock* dock = w_->sparamsDock();
        QSignalSpy finished(dock, &app::SParamsDock::finished);
        QVERIFY(w_->computeSParameters(1));
        QVERIFY(!w_->computeSParameters(1));  // one at a time
        QTest::qWait(30);
        QElapsedTimer t;
        t.start();
        w_->action(QStringLiteral("run.sparamsCancel"))->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 10000);
        QVERIFY(t.elapsed() < 3000);
        QVERIFY(!finished.back().at(0).toBool());
        QVERIFY(!dock->isRunning());
        QVERIFY2(dock->statusText().contains(QStringLiteral("Cancelled")), qPrintable(dock->statusText()));
        QVERIFY(dock->columnsDone() < 2);
        // a project without ports says so
        w_->document()->editProject(QStringLiteral("drop ports"), [](Project& p) { p.extra.erase("ports"); });
        QVERIFY(!w_->computeSParameters());
        QVERIFY2(dock->statusText().contains(QStringLiteral("ports")), qPrintable(dock->statusText()));
        w_->document()->undoStack()->undo();
    }

    /// Parameters: add / set / remove are one undo step each; the expressions follow.
    void parameterEdits() {
        reopen();
        app::SweepDock* dock = w_->sweepDock();
        editor::EditorDocument& doc = *w_->document();
        QCOMPARE(dock->table()->rowCount(), 2);
        QCOMPARE(dock->table()->item(0, 0)->text(), QStringLiteral("w2"));
        auto wideMinY = [&] { return doc.project().layers[0].shapes[1].min.y; };
        QVERIFY(std::abs(wideMinY() - 0.775) < 1e-12);  // 1 - w2 / 2, w2 = 0.45
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { QVERIFY(dock->setParameterValue(QStringLiteral("w2"), QStringLiteral("0.8"))); }));
        QVERIFY(std::abs(wideMinY() - 0.6) < 1e-12);  // 1 - w2 / 2
        // through the table's Value cell
        const int before = doc.undoStack()->count();
        dock->table()->item(0, 1)->setText(QStringLiteral("500 nm"));
        QTRY_VERIFY(std::abs(doc.project().parameters[0].value - 0.5) < 1e-12);
        QCOMPARE(doc.undoStack()->count(), before + 1);
        QCOMPARE(dock->table()->item(0, 1)->text(), QStringLiteral("500 nm"));
        QVERIFY(std::abs(wideMinY() - 0.75) < 1e-12);
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { QVERIFY(dock->addParameter(QStringLiteral("g"), QStringLiteral("2 * w2"))); }));
        QCOMPARE(dock->table()->rowCount(), 3);
        QVERIFY(std::abs(doc.project().parameters[2].value - 1.0) < 1e-12);
        // refused: a bad name, a duplicate, a bad expression, removing a used parameter
        const int steps = doc.undoStack()->count();
        QVERIFY(!dock->addParameter(QStringLiteral("2x"), QStringLiteral("1")));
        QVERIFY(!dock->addParameter(QStringLiteral("g"), QStringLiteral("1")));
        QVERIFY(!dock->setParameterValue(QStringLiteral("w2"), QStringLiteral("1 / (")));
        QVERIFY(!dock->removeParameter(QStringLiteral("w2")));
        QVERIFY2(dock->statusText().contains(QStringLiteral("w2")), qPrintable(dock->statusText()));
        QCOMPARE(doc.undoStack()->count(), steps);
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { QVERIFY(dock->removeParameter(QStringLiteral("g"))); }));
        QCOMPARE(dock->table()->rowCount(), 2);
        reopen();
    }

    /// A sweep of w2: the plot holds each design's T at 1.55 um from its spectra.csv;
    /// clicking a point opens that design.
    void sweepOneParameter() {
        reopen();
        app::SweepDock* dock = w_->sweepDock();
        dock->setRange(QStringLiteral("w2"), {true, 0.3, 0.9, 5});
        dock->setQuantity(QStringLiteral("T"), 1.55);
        QSignalSpy finished(dock, &app::SweepDock::finished);
        QVector<int> seen;
        QTimer watch;
        connect(&watch, &QTimer::timeout, this, [&] {
            const int n = dock->plot()->graphCount() ? dock->plot()->graph(0)->dataCount() : 0;
            if (seen.isEmpty() || seen.back() != n) seen << n;
        });
        watch.start(20);
        const QString out = dir_.filePath(QStringLiteral("sweep1"));
        QElapsedTimer t;
        t.start();
        QVERIFY(dock->startSweep(out, 1));
        QVERIFY(!dock->startSweep(out, 1));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        watch.stop();
        qInfo("sweep of 5 designs: %.2f s; plot points seen: %s", t.elapsed() / 1000.0,
              qPrintable([&] { QStringList s; for (int n : seen) s << QString::number(n); return s.join(QLatin1Char(' ')); }()));
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        for (int k = 1; k < seen.size(); ++k) QVERIFY(seen[k] >= seen[k - 1]);  // fills, never loses points
        QCPGraph* g = dock->plot()->graph(0);
        QCOMPARE(g->dataCount(), 5);
        QCOMPARE(dock->points().size(), std::size_t(5));
        shot(dock, QStringLiteral("sweep-dock.png"));
        for (int d = 0; d < 5; ++d) {
            const QString dir = QDir(out).filePath(QStringLiteral("design_%1").arg(d, 4, 10, QLatin1Char('0')));
            const double solver = read_spectra_csv((dir + QStringLiteral("/spectra.csv")).toStdString()).at("T", 1.55);
            const double w2 = 0.3 + 0.15 * d;
            auto it = g->data()->findBegin(w2 - 1e-9, false);
            QVERIFY(std::abs(it->key - w2) < 1e-12);
            QVERIFY2(std::abs(it->value - solver) < 1e-9 * std::abs(solver),
                     qPrintable(QStringLiteral("design %1: plot %2, spectra.csv %3").arg(d).arg(it->value).arg(solver)));
            QVERIFY2(solver > 0.05 && solver < 1.01, qPrintable(QStringLiteral("design %1: T %2").arg(d).arg(solver)));
            // w2 = 0.3 is the straight reference waveguide itself: T = 1
            if (d == 0) QVERIFY2(std::abs(solver - 1) < 0.01, qPrintable(QString::number(solver)));
        }
        // click the middle point: that design opens (after the save prompt)
        prompts_.saveAsked = 0;
        w_->document()->editProject(QStringLiteral("touch"), [](Project& p) { p.name += " (edited)"; });
        const QPoint px(int(dock->plot()->xAxis->coordToPixel(0.45)),
                        int(dock->plot()->yAxis->coordToPixel(dock->points()[1].value)));
        QTest::mouseClick(dock->plot(), Qt::LeftButton, Qt::NoModifier, px);
        QCOMPARE(prompts_.saveAsked, 1);
        QCOMPARE(QDir::cleanPath(w_->document()->filePath()),
                 QDir::cleanPath(QDir(out).filePath(QStringLiteral("design_0001/design.glproj"))));
        QVERIFY(std::abs(w_->document()->project().parameters[0].value - 0.45) < 1e-12);
        reopen();
    }

    /// Two parameters: a colour map filled with sweep.csv's values; cancel.
    void sweepTwoParametersAndCancel() {
        reopen();
        app::SweepDock* dock = w_->sweepDock();
        QVERIFY(dock->addParameter(QStringLiteral("unused"), QStringLiteral("1")));
        dock->setRange(QStringLiteral("w2"), {true, 0.4, 0.8, 2});
        dock->setRange(QStringLiteral("unused"), {true, 1, 2, 2});
        dock->setQuantity(QStringLiteral("T"), 1.5);
        QSignalSpy finished(dock, &app::SweepDock::finished);
        const QString out = dir_.filePath(QStringLiteral("sweep2"));
        QVERIFY(dock->startSweep(out, 1));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        QCPColorMap* map = dock->colorMap();
        QVERIFY(map);
        QCOMPARE(map->data()->keySize(), 2);
        QCOMPARE(map->data()->valueSize(), 2);
        const auto rows = readCsvCells(QDir(out).filePath(QStringLiteral("sweep.csv")));
        QCOMPARE(int(rows.size()), 5);
        const auto col = std::find(rows[0].begin(), rows[0].end(), QStringLiteral("T@1.5")) - rows[0].begin();
        QVERIFY(col < long(rows[0].size()));
        for (int d = 0; d < 4; ++d) {
            const double v = rows[std::size_t(d + 1)][std::size_t(col)].toDouble();
            QVERIFY(std::abs(map->data()->cell(d / 2, d % 2) - v) < 1e-12);  // the last parameter fastest
        }
        // the unused parameter changes nothing: equal columns of the map
        QVERIFY(std::abs(map->data()->cell(0, 0) - map->data()->cell(0, 1)) < 1e-9);
        QVERIFY(std::abs(map->data()->cell(0, 0) - map->data()->cell(1, 0)) > 1e-4);
        if (!qEnvironmentVariableIsEmpty("GOLIGHTLY_SCREENSHOT_DIR")) {
            // the picture for the user guide: width and length of the wider section, 7 x 7 designs
            dock->setRange(QStringLiteral("unused"), {false, 1, 2, 2});
            dock->setRange(QStringLiteral("w2"), {true, 0.3, 0.9, 7});
            dock->setRange(QStringLiteral("L"), {true, 0.2, 1.4, 7});
            finished.clear();
            QVERIFY(dock->startSweep(dir_.filePath(QStringLiteral("sweep-map")), 0));
            QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 300000);
            shot(dock, QStringLiteral("sweep-map.png"));
            dock->setRange(QStringLiteral("L"), {false, 0.2, 1.4, 7});
        }

        // cancel a longer sweep after its first design
        dock->setRange(QStringLiteral("unused"), {true, 1, 20, 20});
        dock->setRange(QStringLiteral("w2"), {false, 0.4, 0.8, 2});
        finished.clear();
        QVERIFY(dock->startSweep(dir_.filePath(QStringLiteral("sweep3")), 1));
        QTRY_VERIFY_WITH_TIMEOUT(!dock->points().empty(), 30000);
        QElapsedTimer t;
        t.start();
        dock->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 10000);
        QVERIFY(t.elapsed() < 5000);
        QVERIFY(!finished.front().at(0).toBool());
        QVERIFY(!dock->isRunning());
        QVERIFY(dock->points().size() < 20);
        reopen();
    }

    /// The optimizer's points are optimize.csv's; the best is ringed.
    void optimizeOneParameter() {
        // without NLopt run_optimize says "this build has no optimizer": with it, it must work
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        reopen();
        app::SweepDock* dock = w_->sweepDock();
        dock->setRange(QStringLiteral("w2"), {true, 0.3, 0.9, 3});
        dock->setObjective(QStringLiteral("T(1.55)"), false, 4, QStringLiteral("cobyla"));
        QSignalSpy finished(dock, &app::SweepDock::finished);
        const QString out = dir_.filePath(QStringLiteral("opt"));
        QVERIFY(dock->startOptimize(out, 1));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        const QString msg = finished.front().at(1).toString();
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(msg));
        const auto rows = readCsvCells(QDir(out).filePath(QStringLiteral("optimize.csv")));
        QVERIFY(rows.size() >= 2 && rows.size() <= 5);
        QCOMPARE(dock->points().size(), rows.size() - 1);
        double best = -1;
        for (std::size_t k = 1; k < rows.size(); ++k) {
            QCOMPARE(dock->points()[k - 1].value, rows[k][2].toDouble());
            best = std::max(best, rows[k][2].toDouble());
        }
        QCOMPARE(dock->plot()->graphCount(), 2);  // the evaluations and the best
        QCOMPARE(dock->plot()->graph(1)->data()->begin()->value, best);
        QVERIFY(!dock->designFile(0).isEmpty());
        QVERIFY(QFile::exists(QDir(out).filePath(QStringLiteral("best.glproj"))));
        shot(dock, QStringLiteral("optimize-dock.png"));
    }

    /// The menus carry the actions; the docks' choices are remembered by a new window.
    void menusAndRememberedSettings() {
        reopen();
        QAction* compute = w_->action(QStringLiteral("run.sparams"));
        QMenu* runMenu = nullptr;
        for (QObject* o : compute->associatedObjects())
            if (auto* m = qobject_cast<QMenu*>(o)) runMenu = m;
        QVERIFY(runMenu);
        QVERIFY(runMenu->actions().contains(w_->action(QStringLiteral("run.start"))));
        for (const char* name : {"view.sweepDock", "view.sparamsDock", "view.modeViewer"}) {
            QAction* toggle = w_->action(QString::fromLatin1(name));
            QVERIFY2(toggle && toggle->isCheckable(), name);
            QVERIFY(runMenu->actions().contains(toggle));
        }
        QCOMPARE(w_->action(QStringLiteral("view.sweepDock"))->shortcut(), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
        w_->sweepDock()->hide();
        w_->action(QStringLiteral("view.sweepDock"))->trigger();
        QVERIFY(w_->sweepDock()->isVisible());
        w_->sweepDock()->setObjective(QStringLiteral("T(1.6) - T(1.5)"), true, 7, QStringLiteral("sbplx"));
        w_->modeViewerDock()->setModeCount(3);
        app::MainWindow other(options());
        QVERIFY(other.openFile(project_));
        auto* objective = other.sweepDock()->findChild<QLineEdit*>(QStringLiteral("sweepObjective"));
        QVERIFY(objective);
        QCOMPARE(objective->text(), QStringLiteral("T(1.6) - T(1.5)"));
        QVERIFY(other.sweepDock()->findChild<QCheckBox*>(QStringLiteral("sweepMinimize"))->isChecked());
        QCOMPARE(other.sweepDock()->findChild<QSpinBox*>(QStringLiteral("sweepMaxRuns"))->value(), 7);
        QCOMPARE(other.sweepDock()->findChild<QComboBox*>(QStringLiteral("sweepAlgorithm"))->currentText(), QStringLiteral("sbplx"));
        QCOMPARE(other.modeViewerDock()->findChild<QSpinBox*>(QStringLiteral("modeCount"))->value(), 3);
    }

    /// A 2D port's modes: the S-parameter run's n_eff and the analytic slab's.
    void modeViewer2d() {
        reopen();
        app::ModeViewerDock* dock = w_->modeViewerDock();
        const Project p = load_project(project_.toStdString());
        // the middle wavelength of the run's spectrum (uniform in frequency)
        const double f = 0.5 * (units::wavelength_um_to_hz(1.45) + units::wavelength_um_to_hz(1.65));
        const double wl = units::hz_to_wavelength_um(f);
        dock->setPort(0);
        dock->setWavelength(wl);
        dock->setModeCount(2);
        QSignalSpy solved(dock, &app::ModeViewerDock::solved);
        QVERIFY(dock->solve());
        QTRY_VERIFY_WITH_TIMEOUT(!solved.isEmpty(), 20000);
        QVERIFY2(solved.front().at(0).toBool(), qPrintable(solved.front().at(1).toString()));
        auto r = dock->result();
        QVERIFY(r && r->modes.size() == 2);
        const double neff = r->modes[0].n_eff;
        // the solver's mode monitor in an S-parameter run sees the same mode
        RunOptions o;
        o.max_steps = 10;
        Project q = p;
        const SParameters s = run_sparameters(q, project_.toStdString(), o);
        const auto& mc = s.runs[0].mode_coefficients[0];
        const std::size_t mid = mc.n_eff.size() / 2;
        QVERIFY(std::abs(units::hz_to_wavelength_um(s.frequency_hz[mid]) - wl) < 1e-12);
        QVERIFY2(std::abs(neff - mc.n_eff[mid]) < 1e-6, qPrintable(QStringLiteral("%1 vs %2").arg(neff).arg(mc.n_eff[mid])));
        // the analytic slab (eps 12, 0.3 um, air) within the 20-cells-per-wavelength grid's error
        const double exact = slabNeff(std::sqrt(12.0), 1.0, 0.3, wl);
        qInfo("2D port mode 0 at %.4f um: n_eff %.5f (analytic slab %.5f), n_group %.4f", wl, neff, exact, r->modes[0].n_group);
        QVERIFY(std::abs(neff - exact) < 5e-3);
        QVERIFY(r->modes[0].n_group > neff);  // a dielectric slab's group index exceeds its phase index
        QVERIFY(r->modes[0].n_group < 4.0);
        // the table and the profile
        QCOMPARE(dock->table()->rowCount(), 2);
        QCOMPARE(dock->table()->item(0, 1)->text(), QString::number(neff, 'f', 5));
        QCOMPARE(dock->plot()->graphCount(), 2);  // E and H~ along the line
        QVERIFY(dock->plot()->graph(0)->dataCount() > 20);
        shot(dock, QStringLiteral("port-modes-2d.png"));
    }

    /// A 3D port's modes (the strip example): the full-vector solver's, with a |E| map.
    void modeViewer3d() {
        // the 3D port modes come from the Spectra eigensolver: with it, they must solve
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_SPECTRA, true, "spectra");
        const QString strip = copyExample(QStringLiteral("strip_sparams_3d.glproj"), QStringLiteral("strip.glproj"));
        QVERIFY(!strip.isEmpty());
        prompts_.saveAnswer = StubPrompts::SaveChoice::Discard;
        QVERIFY(w_->maybeSave());
        QVERIFY(w_->openFile(strip));
        app::ModeViewerDock* dock = w_->modeViewerDock();
        // a window as wide as the screenshots' (the 3D view's dock closed, as there): the
        // mode table beside the picture
        if (w_->structure3dDock()) w_->structure3dDock()->hide();
        w_->resize(1560, 960);
        dock->show();
        dock->raise();
        QApplication::processEvents();
        dock->setPort(0);
        dock->setWavelength(1.55);
        dock->setModeCount(2);
        QSignalSpy solved(dock, &app::ModeViewerDock::solved);
        QElapsedTimer t;
        t.start();
        QVERIFY(dock->solve());
        QTRY_VERIFY_WITH_TIMEOUT(!solved.isEmpty(), 60000);
        QVERIFY2(solved.front().at(0).toBool(), qPrintable(solved.front().at(1).toString()));
        qInfo("3D port modes: %.2f s", t.elapsed() / 1000.0);
        // every column of the table is in view (issue 55 item 16: n_group and the TE
        // fraction were cut off behind a scroll bar), the picture keeps its minimum width
        QApplication::processEvents();
        qInfo("mode table %d px (columns %d px), picture %d px", dock->table()->width(),
              dock->table()->horizontalHeader()->length(), dock->plot()->width());
        QCOMPARE(dock->table()->horizontalScrollBar()->maximum(), 0);
        QVERIFY(dock->plot()->width() >= dock->plot()->minimumWidth());
        auto r = dock->result();
        const Project p = load_project(strip.toStdString());
        const auto ports = parse_ports(p, "strip");
        const CrossSection cs = sample_cross_section(p, ports[0].center, ports[0].size, false, "ports[0]", "strip");
        ModeSolveOptions mo;
        mo.num_modes = 2;
        const auto modes = solve_modes_2d(cs.grid, cs.medium, 1.55, mo);
        QCOMPARE(r->modes.size(), modes.size());
        for (std::size_t k = 0; k < modes.size(); ++k) {
            QCOMPARE(r->modes[k].n_eff, modes[k].n_eff);
            QCOMPARE(r->modes[k].n_group, modes[k].n_group);
            QCOMPARE(r->modes[k].te_fraction, modes[k].te_fraction);
        }
        QVERIFY(modes[0].n_eff > std::sqrt(2.085136) && modes[0].n_eff < std::sqrt(12.0826));
        QCPColorMap* map = dock->colorMap();
        QVERIFY(map);
        QCOMPARE(map->data()->keySize(), cs.grid.nu);
        QCOMPARE(map->data()->valueSize(), cs.grid.nv);
        // |E| peaks inside the strip, near the window's centre
        double peak = 0;
        int pi = 0, pj = 0;
        for (int j = 0; j < cs.grid.nv; ++j)
            for (int i = 0; i < cs.grid.nu; ++i)
                if (map->data()->cell(i, j) > peak) peak = map->data()->cell(i, j), pi = i, pj = j;
        QVERIFY(std::abs(pi - cs.grid.nu / 2) < cs.grid.nu / 4 && std::abs(pj - cs.grid.nv / 2) < cs.grid.nv / 4);
        shot(dock, QStringLiteral("port-modes-3d.png"));
        dock->setComponent(4);  // the permittivity
        QVERIFY(dock->colorMap());
        QVERIFY(std::abs(dock->colorMap()->data()->cell(0, 0) - 2.085136) < 1e-6);
        reopen();
    }
};

QTEST_MAIN(TestSparamsSweep)
#include "tst_sparams_sweep.moc"
