// The 2D <-> 3D switch (issue 55, item 8). 2D -> 3D from Run setup's combo first shows
// what the 3D grid costs (cells, memory, compile and step time; Switch3dDialog) and
// changes nothing on Cancel; the switch gives the layers the z ranges of a 220 nm SOI stack
// (core, substrate below, cladding above) instead of the whole height, and ports (2D
// lines) planes around the core; one undo step. 3D -> 2D puts the cut plane (slice_z)
// through the core, so that the strip example's silicon stays in the 2D run.
//
// With GOLIGHTLY_TEST_SHOTS set to a folder, pictures of the dialog and of the canvas are
// saved there.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QSettings>
#include <QTest>
#include <QTimer>

#include <cmath>

#include "canvas.hpp"
#include "dimensions.hpp"
#include "docks.hpp"
#include "golightly/compile.hpp"
#include "golightly/limits.hpp"
#include "golightly/project.hpp"
#include "golightly/scene.hpp"
#include "gui_fixture.hpp"
#include "main_window.hpp"
#include "ports.hpp"
#include "switch_3d_dialog.hpp"

using namespace golightly;
using golightly::test::undoRedoRoundTrip;

namespace {

const QString kExamples = QStringLiteral(GOLIGHTLY_SOURCE_DIR "/examples");

void shot(const QString& name, QWidget* w) {
    const QString dir = qEnvironmentVariable("GOLIGHTLY_TEST_SHOTS");
    if (!dir.isEmpty()) w->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

Project example(const char* name) { return load_project((kExamples + QLatin1Char('/') + QLatin1String(name)).toStdString()); }

/// The quick-start example with two ports (2D lines), as a 2D S-parameter project has them.
Project quickstartWithPorts() {
    Project p = example("quickstart.glproj");
    editor::PortData a;
    a.name = "a";
    a.center = {0.7, 1.2, 0};
    a.size = {0, 1.4, 0};
    a.direction = "+x";
    editor::add_port(p, a);
    editor::PortData b;
    b.name = "b";
    b.center = {2.8, 3.1, 0};
    b.size = {1.2, 0, 0};
    b.direction = "+y";
    editor::add_port(p, b);
    return p;
}

const double kTol = 1e-12;  // the z ranges are sums of the given numbers

}  // namespace

class TestSwitch3d : public QObject, golightly::test::WindowFixture {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        initFixture();
    }

    /// Layers get the SOI stack, ports become planes around the core; the result validates.
    void layersAndPortsIn3d() {
        Project two = quickstartWithPorts();
        // a buried oxide and a cladding, named so (lower index than the core)
        Layer box;
        box.name = "buried oxide";
        box.material = "core";
        Layer clad = box;
        clad.name = "top cladding";
        Material sio2;
        sio2.id = "sio2_test";
        sio2.name = "SiO2";
        sio2.epsilon_inf = 2.085;
        two.materials.push_back(sio2);
        box.material = clad.material = "sio2_test";
        Shape r;
        r.type = ShapeType::Rectangle;
        r.min = {-1, 2.5};
        r.max = {1.5, 3.5};
        box.shapes = clad.shapes = {r};
        two.layers.insert(two.layers.begin(), box);
        two.layers.push_back(clad);
        validate_project(two, "2d");
        const std::vector<editor::LayerRole> roles = editor::layer_roles(two);
        QCOMPARE(int(roles.size()), 4);
        QVERIFY(roles[0] == editor::LayerRole::Substrate);
        QVERIFY(roles[1] == editor::LayerRole::Core);  // waveguide
        QVERIFY(roles[2] == editor::LayerRole::Core);  // its reference
        QVERIFY(roles[3] == editor::LayerRole::Cladding);

        const Project p = editor::to_3d(two);
        QCOMPARE(p.domain.dimensions, 3);
        const double lz = editor::kDefault3dDepthUm, t = editor::kSoiCoreThicknessUm;
        QCOMPARE(p.domain.size[2], lz);
        const double c0 = lz / 2 - t / 2, c1 = lz / 2 + t / 2;
        auto z = [&](int l) { return *p.layers[size_t(l)].z; };
        for (int l = 0; l < 4; ++l) QVERIFY(p.layers[size_t(l)].z.has_value());
        QVERIFY(std::abs(z(1)[0] - c0) < kTol && std::abs(z(1)[1] - c1) < kTol);
        QVERIFY(z(2) == z(1));
        QVERIFY(std::abs(z(0)[1] - c0) < kTol && z(0)[0] < 0);   // through the lower PML
        QVERIFY(std::abs(z(3)[0] - c1) < kTol && z(3)[1] > lz);  // through the upper PML
        for (int l = 0; l < 4; ++l) QVERIFY(p.layers[size_t(l)].shapes == two.layers[size_t(l)].shapes);
        // ports: planes normal to x / y, core +- the margin, JSON with three entries
        QCOMPARE(editor::port_count(p), 2);
        const auto a = editor::port_at(p, 0), b = editor::port_at(p, 1);
        QVERIFY(a && b);
        const double h = t + 2 * editor::kPortMarginUm;
        QVERIFY(std::abs(a->size.z - h) < kTol && std::abs(a->center.z - lz / 2) < kTol);
        QCOMPARE(a->size.x, 0.0);
        QCOMPARE(a->size.y, 1.4);
        QCOMPARE(a->center.x, 0.7);
        QCOMPARE(a->direction, std::string("+x"));
        QVERIFY(std::abs(b->size.z - h) < kTol);
        QCOMPARE(b->size.y, 0.0);
        QCOMPARE(b->size.x, 1.2);
        QCOMPARE(b->direction, std::string("+y"));
        QCOMPARE(int(p.extra.at("ports")[0]["center"].size()), 3);
        validate_project(p, "switched");
        // without the stack: the whole height, as before
        editor::Switch3dOptions flat;
        flat.soi_stack = false;
        const Project f = editor::to_3d(two, flat);
        for (const Layer& l : f.layers) QVERIFY(!l.z.has_value());
        QCOMPARE(editor::port_at(f, 0)->size.z, lz);
        // and back: ports are lines again (two entries), the cut through the core
        const Project back = editor::to_2d(p);
        QCOMPARE(back.domain.dimensions, 2);
        QVERIFY(std::abs(back.domain.slice_z - lz / 2) < kTol);
        QCOMPARE(int(back.extra.at("ports")[0]["center"].size()), 2);
        QCOMPARE(editor::port_at(back, 0)->size.y, 1.4);
        QCOMPARE(editor::port_at(back, 1)->size.x, 1.2);
        validate_project(back, "back");
    }

    /// The estimate is the grid the 3D compiler makes (cells exactly; memory a lower bound
    /// of the compiled scene's, which adds the sources' and monitors' lists).
    void estimateIsTheCompiledGrid() {
        editor::Switch3dOptions o;
        o.cell_size_um = 0.1;
        Project p = editor::to_3d(example("quickstart.glproj"), o);
        for (Source& s : p.sources) s.profile = SourceProfile::Uniform;  // no mode solver needed here
        const editor::GridEstimate e = editor::estimate_grid(p, 2);
        const long long pml = 2LL * p.domain.pml.cells;
        QCOMPARE(e.n[0], 40 + pml);
        QCOMPARE(e.n[1], 40 + pml);
        QCOMPARE(e.n[2], 20 + pml);
        QElapsedTimer t;
        t.start();
        const CompiledProject cp = compile_project(p, "quickstart3d");
        const double compileS = t.elapsed() * 1e-3;
        QCOMPARE(e.cells, (long long)cp.scene.cells());
        QCOMPARE(e.n[2], (long long)cp.scene.nz);
        QVERIFY(e.state_bytes > 0 && e.state_bytes <= cp.memory_bytes);
        QVERIFY(e.compile_bytes > e.state_bytes);
        QVERIFY(std::abs(e.step_s - double(e.cells) / (2 * editor::kCpuCellUpdatesPerCoreS)) < 1e-15);
        QCOMPARE(e.max_steps, cp.max_steps);
        std::printf("3D quickstart at 0.1 um: %lld cells, compiled in %.2f s (%.2f us per cell; estimate %.2f us)\n",
                    e.cells, compileS, 1e6 * compileS / double(e.cells), 1e6 * editor::kCompileSecondsPerCell3d);
    }

    /// Run setup's 2D -> 3D: the dialog shows the cost first; Cancel changes nothing; a
    /// coarser cell there lowers the cost and is applied, in one undo step.
    void switchAsksFirst() {
        app::MainWindow w(options());
        w.resize(1300, 850);
        w.show();
        QVERIFY(w.openFile(kExamples + QStringLiteral("/quickstart.glproj")));
        editor::EditorDocument& doc = *w.document();
        const Project before = doc.project();
        editor::RunSetupDock* rd = w.runSetupDock();
        const int undoBefore = doc.undoStack()->count();

        // 1: Cancel
        bool seen = false;
        QString costText;
        editor::GridEstimate shown;
        QTimer::singleShot(0, this, [&] {
            auto* d = qobject_cast<editor::Switch3dDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            seen = true;
            costText = d->costLabel()->text();
            shown = d->estimate();
            d->reject();
        });
        rd->dimensions()->setCurrentIndex(1);
        Q_EMIT rd->dimensions()->activated(1);
        QVERIFY2(seen, "no confirmation before the switch to 3D");
        QVERIFY(doc.project() == before);
        QCOMPARE(doc.undoStack()->count(), undoBefore);
        QCOMPARE(rd->dimensions()->currentIndex(), 0);
        // the cost it showed: the 3D grid at the project's cell (0.04 um, Lz 2 um, 16 PML cells)
        const long long n[3] = {100 + 32, 100 + 32, 50 + 32};
        QCOMPARE(shown.n[0], n[0]);
        QCOMPARE(shown.n[1], n[1]);
        QCOMPARE(shown.n[2], n[2]);
        QCOMPARE(shown.cells, n[0] * n[1] * n[2]);
        QVERIFY2(costText.contains(QStringLiteral("1.4 M cells")), qPrintable(costText));
        QVERIFY(costText.contains(QStringLiteral("132 \u00d7 132 \u00d7 82")));
        QVERIFY(costText.contains(QString::fromStdString(limits::format_bytes(double(shown.state_bytes)))));
        QVERIFY(costText.contains(QStringLiteral("compiling about")));
        QVERIFY(costText.contains(QStringLiteral("1000 time steps about")));

        // 2: a coarser cell, then Switch
        editor::GridEstimate coarse;
        bool stackOn = false;
        QString layersText;
        seen = false;
        QTimer::singleShot(0, this, [&] {
            auto* d = qobject_cast<editor::Switch3dDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            seen = true;
            d->resize(640, d->sizeHint().height());
            shot(QStringLiteral("switch-3d-dialog"), d);
            stackOn = d->soiStack()->isChecked();
            layersText = d->layersLabel()->text();
            d->cellSize()->setValue(0.08);
            coarse = d->estimate();
            d->accept();
        });
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            rd->dimensions()->setCurrentIndex(1);
            Q_EMIT rd->dimensions()->activated(1);
        }));
        QVERIFY(seen);
        QVERIFY(stackOn);
        QVERIFY2(layersText.contains(QStringLiteral("0.89 \u2013 1.11 \u00b5m, core")), qPrintable(layersText));
        QCOMPARE(coarse.cells, (50LL + 32) * (50 + 32) * (25 + 32));
        const Project& p = doc.project();
        QCOMPARE(p.domain.dimensions, 3);
        QCOMPARE(p.domain.cell_size, 0.08);
        QCOMPARE(rd->dimensions()->currentIndex(), 1);
        for (const Layer& l : p.layers) QVERIFY(l.z && std::abs((*l.z)[1] - (*l.z)[0] - editor::kSoiCoreThicknessUm) < kTol);
        doc.undoStack()->undo();
        QVERIFY(doc.project() == before);
    }

    /// 3D -> 2D: the cut goes through the strip example's silicon (0.6 - 0.82 um), which a
    /// cut at z = 0 (inside the oxide) leaves out.
    void toTwoDCutsThroughTheCore() {
        app::MainWindow w(options());
        w.resize(1300, 850);
        w.show();
        QVERIFY(w.openFile(kExamples + QStringLiteral("/strip_waveguide_3d.glproj")));
        editor::EditorDocument& doc = *w.document();
        QCOMPARE(doc.project().domain.slice_z, 0.0);
        editor::RunSetupDock* rd = w.runSetupDock();
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            rd->dimensions()->setCurrentIndex(0);
            Q_EMIT rd->dimensions()->activated(0);
        }));
        const Project& p = doc.project();
        QCOMPARE(p.domain.dimensions, 2);
        QVERIFY(std::abs(p.domain.slice_z - 0.71) < kTol);
        QVERIFY(p.domain.polarization == Polarization::TEz);  // the strip's Ey source and probes
        validate_project(p, "strip2d");
        // the 2D run sees silicon (eps 12.11) where the strip is
        Project two = p;
        const CompiledProject cp = compile_project(two, "strip2d");
        double epsMax = 0;
        permittivity_picture(cp.scene, &epsMax);
        QVERIFY2(std::abs(epsMax - 12.11) < 1e-9, qPrintable(QString::number(epsMax)));
        w.canvas()->zoomToFit();
        QTest::qWait(50);
        shot(QStringLiteral("switch-2d-strip"), w.canvas());
    }
};

QTEST_MAIN(TestSwitch3d)
#include "tst_switch_3d.moc"
