// Start in the IDE for a design of shape parameters (issue 53 item 6), on the dielectric
// block of the shape-parameter adjoint tests (tests/common/shape_block_project.hpp: a block
// of width w between a point source and a point objective, 0.05 um cells, TMz) with w alone
// as the shape parameter and three MMA evaluations:
//  - the Inverse Design dock runs the optimization `golightly-cli optimize --adjoint` runs:
//    its history.csv holds the same evaluations as the CLI's for the same project (the same
//    solver call, one thread each: the same numbers up to rounding); one plot point per
//    iteration; the project's w follows the evaluated values while it runs (the block's
//    edges, bound to w, move with it) and ends at the best one; the session is one undo
//    step whose undo gives back the project as it was;
//  - Pause, then Resume on the unchanged project continue exactly (the checkpoint's
//    evaluations replayed): the same evaluations as the uninterrupted run, one undo step;
//    an edit while paused restarts the optimizer from the values then, the numbering going on;
//  - a solver refusal (run.subpixel_averaging off) shows in the dock, the project untouched;
//  - the Parameters dock lists the shape-parameter use of w ("design: shape parameter
//    [min, max]"), and deleting w asks and removes its shape parameter (undo restores both);
//  - the field view shows the last evaluation's forward or adjoint field over the box around
//    the block (adjoint::ShapeProblem::on_fields, ShapeFields' view), its inside included;
//  - the picture of the dock after a run (GOLIGHTLY_SCREENSHOT_DIR: shape-optimize.png).
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QTabBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

#include "qcustomplot_include.hpp"

#include "../common/shape_block_project.hpp"
#include "design_region.hpp"
#include "editor_document.hpp"
#include "golightly/project.hpp"
#include "gui_fixture.hpp"
#include "inverse_design_dock.hpp"
#include "parameters_dock.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::app::InverseDesignDock;

namespace {

/// The block project with w in [0.3, 1.0] as the only shape parameter, `iterations`
/// evaluations; `edit` changes its JSON first.
std::string blockText(int iterations, const std::function<void(Json&)>& edit = {}) {
    Json j = Json::parse(test::kShapeBlockTMz);
    j["design"]["shape_parameters"] = Json::array({Json{{"name", "w"}, {"min", 0.3}, {"max", 1.0}}});
    j["design"]["optimizer"]["max_iterations"] = iterations;
    if (edit) edit(j);
    return j.dump(2);
}
Project block(int iterations = 3, const std::function<void(Json&)>& edit = {}) {
    return parse_project(blockText(iterations, edit), "shape_block.glproj");
}

double parameter(const Project& p, const char* name) {
    for (const Parameter& prm : p.parameters)
        if (prm.name == name) return prm.value;
    return std::nan("");
}

/// history.csv's rows as numbers by column name.
struct History {
    QStringList header;
    std::vector<std::vector<double>> rows;
    std::vector<double> column(const QString& name) const {
        std::vector<double> out;
        const int c = int(header.indexOf(name));
        for (const auto& r : rows) out.push_back(c >= 0 && c < int(r.size()) ? r[size_t(c)] : std::nan(""));
        return out;
    }
};
History readHistory(const QString& file) {
    History h;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return h;
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.isEmpty()) return h;
    h.header = lines[0].split(QLatin1Char(','));
    for (int i = 1; i < lines.size(); ++i) {
        std::vector<double> r;
        for (const QString& v : lines[i].split(QLatin1Char(','))) r.push_back(v.toDouble());
        h.rows.push_back(r);
    }
    return h;
}

/// The value of `column` in the row with the largest objective (the goal is maximize).
double atBest(const History& h, const QString& column) {
    const auto f = h.column(QStringLiteral("objective")), v = h.column(column);
    std::size_t best = 0;
    for (std::size_t i = 1; i < f.size(); ++i)
        if (f[i] > f[best]) best = i;
    return v.empty() ? std::nan("") : v[best];
}

/// Equal up to the rounding of the same float64 computation: the runs are the same code
/// on the same grid, one thread each; 1e-12 relative leaves room for the last digits only.
bool sameValues(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size() || a.empty()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(std::abs(a[i] - b[i]) <= 1e-12 * std::max(std::abs(a[i]), std::abs(b[i])))) return false;
    return true;
}

QString list(const std::vector<double>& v) {
    QStringList s;
    for (double x : v) s << QString::number(x, 'g', 17);
    return s.join(QStringLiteral(", "));
}

/// A shape design's field picture: the view box around the block (adjoint::ShapeFields):
/// the bounding box of the sites w moves (the cells the block's side edges x = 1.5 -+ w / 2
/// cross, 0.05 um cells: 8 to 22 cells edge to edge for w in [0.3, 1.0], over the block's
/// height, 0.54 um: about 12 cells) grown by 8 cells on each side (a quarter of 22 cells is
/// less), every cell sampled (the source at x = 0.62 um lies left of it): opaque throughout,
/// unmasked as the density path's picture, the block's inside coloured by its field.
void checkShapeFieldImage(const QImage& img) {
    QVERIFY(!img.isNull());
    QCOMPARE(img.format(), QImage::Format_RGB32);  // no transparent (blank) cell
    QVERIFY2(img.height() >= 24 && img.height() <= 32, qPrintable(QString::number(img.height())));
    QVERIFY2(img.width() >= 22 && img.width() <= 40, qPrintable(QString::number(img.width())));
    int red = 0, inside = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            QCOMPARE(qAlpha(c), 255);
            if (qRed(c) > qGreen(c) + 40) ++red;  // away from white (0): a field value
        }
    // the middle column (inside the block, between its edges 8 cells in from the box's
    // sides), over the block's height (the middle 8 rows): the field drawn, not white
    const int mid = img.width() / 2;
    for (int y = img.height() / 2 - 4; y < img.height() / 2 + 4; ++y)
        if (img.pixel(mid, y) != qRgb(255, 255, 255)) ++inside;
    QVERIFY2(red > 0 && inside >= 4 && test::distinctColours(img) >= 16,
             qPrintable(QStringLiteral("%1 red, %2 of 8 coloured inside, %3 colours")
                            .arg(red)
                            .arg(inside)
                            .arg(test::distinctColours(img))));
}

}  // namespace

class TestShapeOptimize : public QObject {
    Q_OBJECT
    std::vector<double> uninterruptedObjective_, uninterruptedW_;

private Q_SLOTS:
    void startRunsTheCliOptimization() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        QTemporaryDir dir;
        EditorDocument doc;
        doc.adoptRecovered(block(), QString());
        const Project start = doc.project();
        const int steps = doc.undoStack()->count();
        InverseDesignDock dock(&doc);
        dock.setOutputDir(dir.filePath(QStringLiteral("ide")));
        dock.setThreads(1);
        // the values the project holds while the run goes on (each an evaluated one)
        std::vector<double> seen;
        connect(&doc, &EditorDocument::changed, this, [&] {
            if (dock.isRunning()) seen.push_back(parameter(doc.project(), "w"));
        });
        QVERIFY(dock.start());
        QCOMPARE(dock.state(), InverseDesignDock::State::Running);
        QVERIFY(dock.waitForFinished(60000));
        QVERIFY2(dock.state() == InverseDesignDock::State::Finished, qPrintable(dock.statusText()));
        QVERIFY(dock.shapeSession());
        QCOMPARE(dock.plottedIndices(), (std::vector<int>{0, 1, 2}));

        const History ide = readHistory(dir.filePath(QStringLiteral("ide/history.csv")));
        QCOMPARE(ide.rows.size(), std::size_t(3));
        QVERIFY2(ide.header.size() > 2 && ide.header[0] == QStringLiteral("iteration") &&
                     ide.header[1] == QStringLiteral("objective"),
                 qPrintable(ide.header.join(QLatin1Char(','))));
        QVERIFY(ide.header.contains(QStringLiteral("w")) && ide.header.contains(QStringLiteral("dF/dw")));
        // the optimizer moved w, within its bounds
        const auto w = ide.column(QStringLiteral("w"));
        QCOMPARE(w[0], 0.63);
        QVERIFY2(w[1] != w[0] && w[2] != w[1], qPrintable(list(w)));
        for (double v : w) QVERIFY(v >= 0.3 && v <= 1.0);
        // the plot's points are the history's figures of merit
        std::vector<double> plotted;
        for (auto it = dock.plot()->graph(0)->data()->constBegin(); it != dock.plot()->graph(0)->data()->constEnd(); ++it)
            plotted.push_back(it->value);
        QVERIFY2(sameValues(plotted, ide.column(QStringLiteral("objective"))), qPrintable(list(plotted)));
        // the axis spans the values at their scale (1e-29 here: an objective in DFT units)
        const auto [lo, hi] = std::minmax_element(plotted.begin(), plotted.end());
        const QCPRange y = dock.plot()->yAxis->range();
        QVERIFY2(y.lower <= *lo && y.upper >= *hi && y.size() < 2 * (*hi - *lo),
                 qPrintable(QStringLiteral("%1 .. %2 for %3 .. %4").arg(y.lower).arg(y.upper).arg(*lo).arg(*hi)));
        // live: the project held evaluated values while the run went on
        QVERIFY(!seen.empty());
        for (double v : seen) QVERIFY2(std::find(w.begin(), w.end(), v) != w.end(), qPrintable(QString::number(v, 'g', 17)));
        // after it: the best value, the block's edges (bound to w) with it, and in the dock
        const double best = atBest(ide, QStringLiteral("w"));
        QCOMPARE(parameter(doc.project(), "w"), best);
        QVERIFY(std::abs(doc.project().layers[0].shapes[0].max.x - (1.5 + best / 2)) < 1e-12);
        QCOMPARE(dock.shapeValues(), std::vector<double>{best});
        QVERIFY2(dock.shapeValuesText().startsWith(QStringLiteral("w = %1").arg(best, 0, 'g', 6)),
                 qPrintable(dock.shapeValuesText()));
        QVERIFY2(dock.statusText().startsWith(QStringLiteral("Done: 3 iteration(s)")), qPrintable(dock.statusText()));
        // the field view: the last evaluation's field over the box around the block (its
        // inside included), with the density path's colour map; forward and adjoint fields
        // differ
        checkShapeFieldImage(dock.fieldImage());
        const QImage forward = dock.fieldImage();
        dock.setFieldSource(InverseDesignDock::FieldSource::Adjoint);
        checkShapeFieldImage(dock.fieldImage());
        QVERIFY(dock.fieldImage() != forward);
        dock.setFieldSource(InverseDesignDock::FieldSource::Forward);
        QVERIFY(dock.fieldImage() == forward);
        // the session is one undo step; undo gives back the project as it was
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        doc.undoStack()->undo();
        QVERIFY(doc.project() == start);
        doc.undoStack()->redo();
        QCOMPARE(parameter(doc.project(), "w"), best);

        // golightly-cli optimize --adjoint on the same project: the same evaluations
        const QString file = dir.filePath(QStringLiteral("shape_block.glproj"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(blockText(3)));
        }
        QProcess cli;
        cli.start(QStringLiteral(GOLIGHTLY_CLI), {QStringLiteral("optimize"), QStringLiteral("--adjoint"), file,
                                                  QStringLiteral("--out"), dir.filePath(QStringLiteral("cli")),
                                                  QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const History ref = readHistory(dir.filePath(QStringLiteral("cli/history.csv")));
        QCOMPARE(ref.header, ide.header);
        for (const char* column : {"objective", "gradient_norm", "w", "dF/dw", "steps"})
            QVERIFY2(sameValues(ide.column(QLatin1String(column)), ref.column(QLatin1String(column))),
                     qPrintable(QStringLiteral("%1: %2 against the CLI's %3")
                                    .arg(QLatin1String(column), list(ide.column(QLatin1String(column))),
                                         list(ref.column(QLatin1String(column))))));
        uninterruptedObjective_ = ide.column(QStringLiteral("objective"));
        uninterruptedW_ = w;
    }

    void pauseAndResumeContinueExactly() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        QVERIFY2(!uninterruptedObjective_.empty(), "startRunsTheCliOptimization first");
        QTemporaryDir dir;
        EditorDocument doc;
        doc.adoptRecovered(block(), QString());
        const Project start = doc.project();
        const int steps = doc.undoStack()->count();
        InverseDesignDock dock(&doc);
        dock.setOutputDir(dir.path());
        dock.setThreads(1);
        QVERIFY(dock.start());
        QVERIFY(QTest::qWaitFor([&] { return dock.plottedIterations() >= 1 || !dock.isRunning(); }, 60000));
        dock.pause();
        QVERIFY(dock.waitForFinished(60000));
        QVERIFY2(dock.state() == InverseDesignDock::State::Paused, qPrintable(dock.statusText()));
        const int paused = dock.plottedIterations();
        QVERIFY2(paused >= 1 && paused < 3, qPrintable(dock.statusText()));
        // paused: the project holds the best value so far
        const History before = readHistory(QDir(dir.path()).filePath(QStringLiteral("history.csv")));
        QCOMPARE(int(before.rows.size()), paused);
        QCOMPARE(parameter(doc.project(), "w"), atBest(before, QStringLiteral("w")));
        QVERIFY(!dock.fieldImage().isNull());  // the last evaluation's field around the block
        QVERIFY(QFile::exists(QDir(dir.path()).filePath(QStringLiteral("checkpoint.json"))));
        QVERIFY(dock.resume());
        QVERIFY(dock.waitForFinished(60000));
        QVERIFY2(dock.state() == InverseDesignDock::State::Finished, qPrintable(dock.statusText()));
        QCOMPARE(dock.plottedIndices(), (std::vector<int>{0, 1, 2}));
        const History after = readHistory(QDir(dir.path()).filePath(QStringLiteral("history.csv")));
        QVERIFY2(sameValues(after.column(QStringLiteral("objective")), uninterruptedObjective_),
                 qPrintable(list(after.column(QStringLiteral("objective")))));
        QVERIFY(sameValues(after.column(QStringLiteral("w")), uninterruptedW_));
        QCOMPARE(parameter(doc.project(), "w"), atBest(after, QStringLiteral("w")));
        // Start, Pause, Resume without an edit between: one undo step
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        doc.undoStack()->undo();
        QVERIFY(doc.project() == start);
        doc.undoStack()->redo();

        // a new session is a step of its own; an edit while paused restarts the optimizer
        // from the values then, the numbering going on
        doc.editProject(QStringLiteral("Edit optimizer"), [](Project& p) { p.name = "shape block, again"; });
        QVERIFY(dock.start());
        QVERIFY(QTest::qWaitFor([&] { return dock.plottedIterations() >= 1 || !dock.isRunning(); }, 60000));
        dock.pause();
        QVERIFY(dock.waitForFinished(60000));
        QCOMPARE(dock.state(), InverseDesignDock::State::Paused);
        const int first = dock.plottedIterations();
        const double wPaused = parameter(doc.project(), "w");
        doc.editProject(QStringLiteral("edit"), [](Project& p) { p.name = "shape block, edited"; });
        QVERIFY(dock.resume());
        QVERIFY2(dock.statusText().contains(QStringLiteral("edited since the run started")), qPrintable(dock.statusText()));
        QVERIFY(dock.waitForFinished(60000));
        QCOMPARE(dock.state(), InverseDesignDock::State::Finished);
        QCOMPARE(dock.plottedIndices(), (std::vector<int>{0, 1, 2}));
        const History restarted = readHistory(QDir(dir.path()).filePath(QStringLiteral("history.csv")));
        QCOMPARE(int(restarted.rows.size()), 3);
        QCOMPARE(restarted.column(QStringLiteral("iteration")), (std::vector<double>{0, 1, 2}));
        QCOMPARE(restarted.column(QStringLiteral("w"))[size_t(first)], wPaused);  // its new start
        QCOMPARE(doc.project().name, std::string("shape block, edited"));
        QCOMPARE(parameter(doc.project(), "w"), atBest(restarted, QStringLiteral("w")));

        // an edit while the run goes on (not in its problem): Resume restarts too
        QVERIFY(dock.start());
        QVERIFY(QTest::qWaitFor([&] { return dock.plottedIterations() >= 1 || !dock.isRunning(); }, 60000));
        doc.editProject(QStringLiteral("edit"), [](Project& p) { p.name = "shape block, edited while running"; });
        dock.pause();
        QVERIFY(dock.waitForFinished(60000));
        QCOMPARE(dock.state(), InverseDesignDock::State::Paused);
        QCOMPARE(doc.project().name, std::string("shape block, edited while running"));  // kept by the value pushes
        QVERIFY(dock.resume());
        QVERIFY2(dock.statusText().contains(QStringLiteral("edited since the run started")), qPrintable(dock.statusText()));
        QVERIFY(dock.waitForFinished(60000));
        QCOMPARE(dock.plottedIndices(), (std::vector<int>{0, 1, 2}));
    }

    void solverErrorShowsInTheDock() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        QTemporaryDir dir;
        EditorDocument doc;
        doc.adoptRecovered(block(3, [](Json& j) { j["run"]["subpixel_averaging"] = false; }), QString());
        const Project start = doc.project();
        InverseDesignDock dock(&doc);
        dock.setOutputDir(dir.path());
        dock.setThreads(1);
        QVERIFY(dock.start());
        QVERIFY(dock.waitForFinished(60000));
        QCOMPARE(dock.state(), InverseDesignDock::State::Idle);
        QVERIFY2(dock.statusText().startsWith(QStringLiteral("The optimization failed: ")) &&
                     dock.statusText().contains(QStringLiteral("run.subpixel_averaging")),
                 qPrintable(dock.statusText()));
        QCOMPARE(dock.plottedIterations(), 0);
        QVERIFY(doc.project() == start);
        QVERIFY(!dock.isRunning());
    }

    void parametersDockListsShapeUses() {
        struct Prompts : test::StubPrompts {
            int asked = 0;
            bool proceed = false;
            QString text;
            bool askProceed(const QString&, const QString& t, const QString&) override {
                ++asked;
                text = t;
                return proceed;
            }
        } prompts;
        EditorDocument doc;
        doc.adoptRecovered(block(), QString());
        ParametersDock dock(&doc, &prompts);
        // w: the block's two edges and the design; yc: the two edges
        QCOMPARE(dock.table()->item(0, ParametersDock::ColName)->text(), QStringLiteral("w"));
        QCOMPARE(dock.table()->item(0, ParametersDock::ColUses)->text(), QStringLiteral("3"));
        QCOMPARE(dock.table()->item(1, ParametersDock::ColUses)->text(), QStringLiteral("2"));
        QVERIFY2(dock.table()->item(0, ParametersDock::ColUses)->toolTip().contains(QStringLiteral("design: shape parameter [0.3, 1]")),
                 qPrintable(dock.table()->item(0, ParametersDock::ColUses)->toolTip()));
        dock.table()->setCurrentCell(0, ParametersDock::ColName);
        QVERIFY2(dock.usesLabel()->text().contains(QStringLiteral("• design: shape parameter [0.3, 1]")),
                 qPrintable(dock.usesLabel()->text()));
        // deleting it asks, naming the use; cancel keeps everything
        const Project before = doc.project();
        QCOMPARE(dock.deleteParameter(QStringLiteral("w")), QStringLiteral("cancelled"));
        QCOMPARE(prompts.asked, 1);
        QVERIFY2(prompts.text.contains(QStringLiteral("design: shape parameter [0.3, 1]")) &&
                     prompts.text.contains(QStringLiteral("stops optimizing it")),
                 qPrintable(prompts.text));
        QVERIFY(doc.project() == before);
        // proceed: the edges get its value, the design (w was its only shape parameter) goes
        prompts.proceed = true;
        QVERIFY(test::undoRedoRoundTrip(doc, [&] { QCOMPARE(dock.deleteParameter(QStringLiteral("w")), QString()); }));
        QCOMPARE(doc.project().parameters.size(), std::size_t(1));
        QVERIFY(!has_shape_parameters(doc.project()));
        QVERIFY(std::abs(doc.project().layers[0].shapes[0].max.x - (1.5 + 0.63 / 2)) < 1e-12);
        doc.undoStack()->undo();
        QVERIFY(doc.project() == before);
        // with two shape parameters, deleting one keeps the other's
        doc.editProject(QStringLiteral("two"), [](Project& p) {
            set_shape_parameters(p, Json::array({Json{{"name", "w"}, {"min", 0.3}, {"max", 1.0}},
                                                 Json{{"name", "yc"}, {"min", 1.3}, {"max", 1.7}}}));
        });
        QCOMPARE(dock.table()->item(1, ParametersDock::ColUses)->text(), QStringLiteral("3"));
        QCOMPARE(dock.deleteParameter(QStringLiteral("w")), QString());
        QCOMPARE(shape_parameters(doc.project()), Json::array({Json{{"name", "yc"}, {"min", 1.3}, {"max", 1.7}}}));
    }

    void screenshot() {
        // the dock after a shape optimization in the main window (saved with
        // GOLIGHTLY_SCREENSHOT_DIR): not blank, the plot's three points, the values beside it
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        QTemporaryDir dir;
        test::StubPrompts prompts;
        app::MainWindow w(test::windowOptions(dir, &prompts));
        w.resize(1560, 1000);
        w.show();
        const QString file = dir.filePath(QStringLiteral("shape_block.glproj"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(blockText(3)));
        }
        QVERIFY(w.openFile(file));
        if (w.structure3dDock()) w.structure3dDock()->hide();
        InverseDesignDock* dock = w.inverseDesignDock();
        dock->setThreads(1);
        QVERIFY(w.optimizeAdjoint());
        QVERIFY(dock->waitForFinished(60000));
        // the dock's tab in front of the Monitors', the Parameters dock's (w's value) in
        // front of Properties
        for (QTabBar* bar : w.findChildren<QTabBar*>())
            for (int i = 0; i < bar->count(); ++i)
                if (bar->tabText(i) == dock->windowTitle() || bar->tabText(i) == QStringLiteral("Parameters"))
                    bar->setCurrentIndex(i);
        w.resizeDocks({dock}, {430}, Qt::Vertical);
        QVERIFY2(dock->state() == InverseDesignDock::State::Finished, qPrintable(dock->statusText()));
        QCOMPARE(dock->plottedIterations(), 3);
        QTest::qWait(400);
        const QImage img = w.grab().toImage();
        QVERIFY(!img.isNull());
        QVERIFY(test::distinctColours(img) >= 16);
        const QString shots = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QVERIFY(QDir().mkpath(shots));
            QVERIFY(img.save(QDir(shots).filePath(QStringLiteral("shape-optimize.png"))));
        }
    }
};

QTEST_MAIN(TestShapeOptimize)
#include "tst_shape_optimize.moc"
