// Run errors through the GUI path (issue 5): a divergence (a project whose check passes:
// epsilon_inf = 0.05 < 1 only warns, but breaks the Courant limit sqrt(eps/2) there) and
// an out-of-memory (the CPU engine's memory check, capped with
// GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES) stop the run with a clear message (the divergence says
// where and when it started, in which material and layer, and the likely cause, and the
// canvas marks the region until the next run), the GUI stays usable (another run starts and finishes), and
// the document is unchanged and not marked modified.
#include <QAction>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include "golightly/project.hpp"
#include "gui_fixture.hpp"
#include "main_window.hpp"
#include "structure_view_3d.hpp"
#include "run_controller.hpp"

using namespace golightly;

namespace {

const QString kExample = QStringLiteral(GOLIGHTLY_SOURCE_DIR "/examples/quickstart.glproj");

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// With GOLIGHTLY_TEST_SHOTS=DIR set, saves a picture for checking by eye.
void shot(const QString& name, QWidget* w) {
    const QString dir = qEnvironmentVariable("GOLIGHTLY_TEST_SHOTS");
    if (!dir.isEmpty()) w->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

Project shortExample() {
    Project p = load_project(kExample.toStdString());
    p.run.normalization.enabled = false;
    p.run.stop.max_time_fs = 200;
    return p;
}

}  // namespace

class TestRunErrors : public QObject, golightly::test::WindowFixture {
    Q_OBJECT
    QString write(const Project& p, const QString& name) {
        const QString path = dir_.filePath(name);
        save_project(p, path.toStdString());
        return path;
    }

    /// One CPU thread: the runs of these tests are small.
    static app::SolverSettings cpuSettings() {
        app::SolverSettings s;
        s.threads = 1;
        s.backend = BackendChoice::Cpu;
        return s;
    }

    /// Runs the open project with `settings` and waits up to `timeout_ms` for the run to end;
    /// returns the finished signal's arguments (ok, message), empty when it did not start or end.
    QList<QVariant> runOpenProject(const app::SolverSettings& settings, int timeout_ms = 60000) {
        QSignalSpy finished(w_->runController(), &app::RunController::finished);
        app::SolverSettings st = settings;
        if (!w_->startRun(&st)) return {};
        if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, timeout_ms)) return {};
        return finished.front();
    }

    /// After an error: the GUI can start another run of the example, which finishes.
    void anotherRunWorks() {
        app::MainWindow& w = *w_;
        QVERIFY(w.openFile(write(shortExample(), QStringLiteral("ok.glproj"))));
        QVERIFY(w.action(QStringLiteral("run.start"))->isEnabled());
        const QList<QVariant> end = runOpenProject(cpuSettings());
        QVERIFY2(!end.isEmpty(), "the run did not start or end");
        QVERIFY2(end.at(0).toBool(), qPrintable(end.at(1).toString()));
        QVERIFY(prompts_.errors.isEmpty());
    }

private Q_SLOTS:
    void initTestCase() {
        initFixture();
        showWindow(QSize(1000, 700));
    }
    void cleanupTestCase() { w_.reset(); }
    void cleanup() {
        if (w_) QVERIFY(w_->runController()->stopAndWait(5000));
        qunsetenv("GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES");
        QTest::qWait(50);
    }

    void divergence() {
        app::MainWindow& w = *w_;
        Project p = shortExample();
        Material m;
        m.id = "unstable";
        m.name = "epsilon_inf below 1";
        m.epsilon_inf = 0.05;  // 2D Courant limit sqrt(0.05 / 2) = 0.16 < 0.5
        p.materials.push_back(m);
        Layer l;
        l.name = "unstable";
        l.material = "unstable";
        Shape s;
        s.type = ShapeType::Rectangle;
        s.min = {1.8, 1.8};
        s.max = {2.4, 2.4};
        l.shapes.push_back(s);
        p.layers.push_back(l);
        try {
            validate_project(p, "diverge");  // the check passes (compile only warns)
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(w.openFile(write(p, QStringLiteral("diverge.glproj"))));
        const Project before = w.document()->project();
        QVERIFY(!w.document()->isModified());
        const app::SolverSettings st = cpuSettings();
        const QList<QVariant> end = runOpenProject(st);
        QVERIFY2(!end.isEmpty(), "the run did not start or end");
        const QString msg = end.at(1).toString();
        qInfo("divergence message: %s", qPrintable(msg));
        QVERIFY(msg.contains(QStringLiteral("diverged")));
        QVERIFY(msg.contains(QStringLiteral("step")));
        QVERIFY(msg.contains(QStringLiteral("fs")));
        QVERIFY(msg.contains(QStringLiteral("cell (")));
        QVERIFY(msg.contains(QStringLiteral("x = ")));
        const auto r = w.runController()->lastResult();
        QVERIFY(r);
        QCOMPARE(r->stop_reason, StopReason::Diverged);
        QVERIFY(r->divergence);
        // it started inside the unstable block (cells of the block, PML offset 16, 0.04 um)
        QVERIFY2(r->divergence->x_um > 1.6 && r->divergence->x_um < 2.6 && r->divergence->y_um > 1.6 &&
                     r->divergence->y_um < 2.6,
                 qPrintable(QStringLiteral("%1, %2").arg(r->divergence->x_um).arg(r->divergence->y_um)));
        // the region and the cause (issue 49 item 5): the block's material and layer, the
        // time step too large for epsilon_inf 0.05
        QCOMPARE(QString::fromStdString(r->divergence->region_kind), QStringLiteral("material"));
        QCOMPARE(QString::fromStdString(r->divergence->region_name), QStringLiteral("unstable"));
        QCOMPARE(QString::fromStdString(r->divergence->layer), QStringLiteral("unstable"));
        QCOMPARE(QString::fromStdString(r->divergence->cause), QStringLiteral("courant"));
        QVERIFY(msg.contains(QStringLiteral("material 'unstable' (layer 'unstable')")));
        QVERIFY(msg.contains(QStringLiteral("Likely cause: the time step is too large")));
        // the canvas marks the cell box, and it meets the block; the canvas is shown
        const QRectF box = w.canvas()->divergenceRegion();
        QVERIFY(!box.isNull());
        QVERIFY2(box.intersects(QRectF(QPointF(1.8, 1.8), QPointF(2.4, 2.4))),
                 qPrintable(QStringLiteral("%1 %2 %3 %4").arg(box.left()).arg(box.top()).arg(box.right()).arg(box.bottom())));
        QVERIFY(box.contains(QPointF(r->divergence->x_um, r->divergence->y_um)));
        QVERIFY(w.canvas()->divergenceLabel().contains(QStringLiteral("unstable")));
        QVERIFY(w.canvas()->isVisible());
        shot(QStringLiteral("divergence_canvas"), &w);
        QCOMPARE(prompts_.errors.size(), 1);
        QVERIFY(prompts_.errors.front().contains(QStringLiteral("diverged")));
        prompts_.errors.clear();
        QCOMPARE(readJson(w.resultsDirectory() + QStringLiteral("/summary.json")).value(QStringLiteral("stop_reason")).toString(),
                 QStringLiteral("diverged"));
        QVERIFY(w.document()->project() == before);
        QVERIFY(!w.document()->isModified());
        QVERIFY(!w.runController()->isRunning());
        anotherRunWorks();
        QVERIFY(w.canvas()->divergenceRegion().isNull());  // cleared (another project, its run)
    }

    /// 3D: the unstable box's region is outlined in the 3D view too, and cleared by the next run.
    void divergence3d() {
        app::MainWindow& w = *w_;
        Project p;
        p.name = "diverge 3d";
        p.domain.dimensions = 3;
        p.domain.size = {1.2, 1.2, 1.2};
        p.domain.cell_size = 0.05;
        p.domain.pml.cells = 6;
        Material m;
        m.id = "unstable";
        m.name = "epsilon_inf below 1";
        m.epsilon_inf = 0.05;  // 3D Courant limit sqrt(0.05 / 3) = 0.13 < 0.5
        p.materials = {m};
        Layer l;
        l.name = "unstable box";
        l.material = "unstable";
        Shape b;
        b.type = ShapeType::Box;
        b.box_min = {0.5, 0.5, 0.5};
        b.box_max = {0.8, 0.8, 0.8};
        l.shapes.push_back(b);
        p.layers.push_back(l);
        Source src;
        src.name = "dipole";
        src.type = SourceType::Point;
        src.at = {0.3, 0.6};
        src.at_z = 0.6;
        src.component = Component::Ez;
        src.waveform.wavelength_center = 1.0;
        src.waveform.wavelength_span = 0.4;
        p.sources.push_back(src);
        p.run.spectrum.wavelength_min = 0.8;
        p.run.spectrum.wavelength_max = 1.2;
        p.run.spectrum.points = 3;
        p.run.stop.max_time_fs = 60;
        try {
            validate_project(p, "diverge3d");
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(w.openFile(write(p, QStringLiteral("diverge3d.glproj"))));
        app::SolverSettings st = cpuSettings();
        QVERIFY2(!runOpenProject(st).isEmpty(), "the run did not start or end");
        const auto r = w.runController()->lastResult();
        QVERIFY(r && r->divergence);
        QCOMPARE(r->stop_reason, StopReason::Diverged);
        QCOMPARE(QString::fromStdString(r->divergence->region_name), QStringLiteral("unstable"));
        QCOMPARE(QString::fromStdString(r->divergence->cause), QStringLiteral("courant"));
        const auto hl = w.structureView3d()->highlight();
        QVERIFY(hl);
        // the box holds the located cell's position and meets the unstable box
        const DivergenceInfo& d = *r->divergence;
        QVERIFY(hl->lo.x <= d.x_um && d.x_um <= hl->hi.x && hl->lo.z <= d.z_um && d.z_um <= hl->hi.z);
        QVERIFY(hl->lo.x < 0.8 && hl->hi.x > 0.5 && hl->lo.y < 0.8 && hl->hi.y > 0.5 && hl->lo.z < 0.8 && hl->hi.z > 0.5);
        QVERIFY(!w.canvas()->divergenceRegion().isNull());
        shot(QStringLiteral("divergence_3d"), &w);
        prompts_.errors.clear();
        // the next run clears both marks
        QSignalSpy again(w.runController(), &app::RunController::finished);
        QVERIFY(w.startRun(&st));
        QVERIFY(!w.structureView3d()->highlight());
        QVERIFY(w.canvas()->divergenceRegion().isNull());
        QTRY_VERIFY_WITH_TIMEOUT(!again.isEmpty(), 60000);
        prompts_.errors.clear();
    }

    void outOfMemory() {
        app::MainWindow& w = *w_;
        QVERIFY(w.openFile(write(shortExample(), QStringLiteral("oom.glproj"))));
        const Project before = w.document()->project();
        qputenv("GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES", "100000");  // the example needs about 0.4 MB
        const QList<QVariant> end = runOpenProject(cpuSettings(), 30000);
        QVERIFY2(!end.isEmpty(), "the run did not start or end");
        QVERIFY(!end.at(0).toBool());
        const QString msg = end.at(1).toString();
        qInfo("out-of-memory message: %s", qPrintable(msg));
        QVERIFY(msg.contains(QStringLiteral("Out of memory")));
        QVERIFY(msg.contains(QStringLiteral("bytes")));
        QVERIFY(msg.contains(QStringLiteral("100000")));  // what is available
        QCOMPARE(prompts_.errors.size(), 1);
        prompts_.errors.clear();
        QVERIFY(w.document()->project() == before);
        QVERIFY(!w.document()->isModified());
        QVERIFY(!w.runController()->isRunning());
        qunsetenv("GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES");
        anotherRunWorks();
    }
};

QTEST_MAIN(TestRunErrors)
#include "tst_run_errors.moc"
