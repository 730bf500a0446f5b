// 3D in the IDE (issue 16), the edits the first test (tst_ide3d) left out: point dipoles
// drawn along their component in the editor and the 3D structure mesh; the z fields of
// boxes, TF/SF boxes, points and probes in Properties; the layer table's z0 and GDS layer
// columns; bottom-edge and body drags in the layer stack diagram and drags of the selected
// item's z extent (its side view); the point, flux and probe tools in a 3D project; the
// Normal choice of plane sources and flux planes (how planes normal to z are made); the
// Run setup slice fields when idle; 3D view pan and zoom; ports (drawn, selected, edited,
// added and deleted). Every edit is checked to be one undo step that undo reverts exactly.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QTableWidget>
#include <QTest>
#include <QWheelEvent>

#include <cmath>

#include "canvas.hpp"
#include "dimensions.hpp"
#include "docks.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "gui_fixture.hpp"
#include "layer_stack_dock.hpp"
#include "main_window.hpp"
#include "run_controller.hpp"
#include "ports.hpp"
#include "structure_mesh.hpp"
#include "structure_view_3d.hpp"

using namespace golightly;
using golightly::editor::ItemRef;
using golightly::test::undoRedoRoundTrip;

namespace {

/// A 2 x 2 x 1 um air box (3D) with four point dipoles: Ex at (0.5, 0.5), Ey at (1.5, 0.5),
/// Ez at (0.5, 1.5), Hx at (1.5, 1.5), all at z = 0.5.
Project dipoles_project() {
    Project p;
    p.name = "dipoles (test)";
    p.domain.dimensions = 3;
    p.domain.size = {2.0, 2.0, 1.0};
    p.domain.cell_size = 0.05;
    const Component comps[4] = {Component::Ex, Component::Ey, Component::Ez, Component::Hx};
    const Vec2 at[4] = {{0.5, 0.5}, {1.5, 0.5}, {0.5, 1.5}, {1.5, 1.5}};
    for (int k = 0; k < 4; ++k) {
        Source s;
        s.name = std::string("d") + component_name(comps[k]);
        s.type = SourceType::Point;
        s.at = at[k];
        s.at_z = 0.5;
        s.component = comps[k];
        s.waveform.wavelength_center = 1.0;
        s.waveform.wavelength_span = 0.4;
        p.sources.push_back(s);
    }
    return p;
}

/// Pixels of the source colour (strong red) in the box of `from`..`to` (screen, inclusive).
int redPixels(const QImage& img, QPoint from, QPoint to) {
    int n = 0;
    for (int y = std::min(from.y(), to.y()); y <= std::max(from.y(), to.y()); ++y)
        for (int x = std::min(from.x(), to.x()); x <= std::max(from.x(), to.x()); ++x) {
            if (!img.rect().contains(x, y)) continue;
            const QColor c = img.pixelColor(x, y);
            n += c.red() > 170 && c.green() < 120 && c.blue() < 120;
        }
    return n;
}

bool near(double a, double b, double tol = 1e-5) { return std::abs(a - b) <= tol; }

}  // namespace

class TestIde3dEdits : public QObject, golightly::test::WindowFixture {
    Q_OBJECT
    bool openStrip() { return w_->openFile(copyExample(QStringLiteral("strip_waveguide_3d.glproj"))); }
    /// Selects an item and rebuilds the Properties dock for it.
    void select(const ItemRef& r) {
        w_->document()->setSelection(r);
        w_->propertiesDock()->rebuild();
    }
    QComboBox* combo(const QString& label) { return qobject_cast<QComboBox*>(w_->propertiesDock()->field(label)); }
    static void choose(QComboBox* c, int i) {
        c->setCurrentIndex(i);
        Q_EMIT c->activated(i);
    }

private Q_SLOTS:
    void initTestCase() {
        initFixture();
        showWindow(QSize(1500, 950));
    }
    void cleanupTestCase() { w_.reset(); }

    /// Point dipoles show their component: in the editor an arrow along x (Ex, Hx) or y
    /// (Ey), a circled dot for z (Ez); in the 3D mesh an arrow along the component's axis
    /// (no longer a three-axis cross), a ring for magnetic ones, and a label.
    void dipolesShowTheirComponent() {
        app::MainWindow& w = *w_;
        w.document()->replaceProject(dipoles_project(), QStringLiteral("test"));
        w.document()->setSelection({});
        editor::Canvas* c = w.canvas();
        c->setView(150, QPointF(1.0, 1.0));
        QTest::qWait(30);
        const QImage img = c->grab().toImage();
        auto at = [&](double x, double y) { return c->toScreen(QPointF(x, y)).toPoint(); };
        struct Counts {
            int right, left, up, down, ring;
        };
        auto counts = [&](QPoint p) {
            // beyond the circle of a z dipole (7 px, pen 2), within an arrow (11 px)
            return Counts{redPixels(img, p + QPoint(9, -1), p + QPoint(10, 1)), redPixels(img, p + QPoint(-10, -1), p + QPoint(-9, 1)),
                          redPixels(img, p + QPoint(-1, -10), p + QPoint(1, -9)), redPixels(img, p + QPoint(-1, 9), p + QPoint(1, 10)),
                          redPixels(img, p + QPoint(6, -1), p + QPoint(7, 1))};
        };
        const Counts ex = counts(at(0.5, 0.5)), ey = counts(at(1.5, 0.5)), ez = counts(at(0.5, 1.5)), hx = counts(at(1.5, 1.5));
        std::printf("dipole pixels (right, left, up, down): Ex %d %d %d %d, Ey %d %d %d %d, Ez %d %d %d %d (ring %d), "
                    "Hx %d %d %d %d\n",
                    ex.right, ex.left, ex.up, ex.down, ey.right, ey.left, ey.up, ey.down, ez.right, ez.left, ez.up, ez.down,
                    ez.ring, hx.right, hx.left, hx.up, hx.down);
        QVERIFY(ex.right >= 2 && ex.left >= 2);
        QCOMPARE(ex.up + ex.down, 0);
        QVERIFY(ey.up >= 2 && ey.down >= 2);
        QCOMPARE(ey.right + ey.left, 0);
        QCOMPARE(ez.right + ez.left + ez.up + ez.down, 0);
        QVERIFY(ez.ring >= 1);
        QVERIFY(hx.right >= 2);
        QCOMPARE(hx.up + hx.down, 0);

        // the 3D mesh: Ey's arrow runs along y through its point, nothing along x or z
        const Project p = dipoles_project();
        const viewport::StructureMesh m = viewport::build_structure_mesh(p);
        auto through = [&](const Vec3& q, int axis) {  // a segment along `axis`, centred on q
            for (size_t k = 0; k + 1 < m.lines.size(); k += 2) {
                const auto& a = m.lines[k].p;
                const auto& b = m.lines[k + 1].p;
                bool ok = std::abs(a[axis] - b[axis]) > 1e-4 && near(0.5 * (a[axis] + b[axis]), q[axis]);
                for (int o = 0; o < 3 && ok; ++o)
                    if (o != axis) ok = near(a[o], q[o]) && near(b[o], q[o]);
                if (ok) return std::abs(double(a[axis] - b[axis]));
            }
            return 0.0;
        };
        const Vec3 ey3{1.5, 0.5, 0.5}, hx3{1.5, 1.5, 0.5}, ez3{0.5, 1.5, 0.5};
        const double len = through(ey3, 1);
        QVERIFY(len > 0);
        QCOMPARE(through(ey3, 0), 0.0);
        QCOMPARE(through(ey3, 2), 0.0);
        QVERIFY(through(ez3, 2) > 0 && through(ez3, 0) == 0.0);
        QVERIFY(through(hx3, 0) > 0 && through(hx3, 1) == 0.0);
        // Hx: its ring in the yz plane (radius len / 4, x = 1.5)
        int ring = 0;
        for (size_t k = 0; k + 1 < m.lines.size(); k += 2) {
            const auto& a = m.lines[k].p;
            if (near(a[0], 1.5) && near(m.lines[k + 1].p[0], 1.5) && near(std::hypot(a[1] - 1.5, a[2] - 0.5), len / 4, 1e-4)) ++ring;
        }
        QCOMPARE(ring, 16);
        // one label per dipole, its component, at the arrow's tip
        QCOMPARE(int(m.labels.size()), 4);
        bool eyLabel = false;
        for (const auto& l : m.labels)
            if (l.text == "Ey") eyLabel = near(l.p[0], 1.5) && near(l.p[1], 0.5 + len / 2) && near(l.p[2], 0.5);
        QVERIFY(eyLabel);
        std::printf("3D dipole arrow length %.4f um, Hx ring segments %d\n", len, ring);
        // the 3D view draws them (labels over the picture)
        w.structure3dDock()->show();
        w.structure3dDock()->raise();
        QTRY_VERIFY(!w.structureView3d()->mesh().labels.empty());
    }

    /// Properties: the z fields of a box, a TF/SF box, a flux box, a point source and a time
    /// probe; one undo step each.
    void propertiesZFields() {
        app::MainWindow& w = *w_;
        QVERIFY(openStrip());
        editor::EditorDocument& doc = *w.document();
        editor::PropertiesDock* pd = w.propertiesDock();
        // add a box (layer 1), a TF/SF box, a flux box and a point source (one step each)
        doc.editProject(QStringLiteral("test items"), [](Project& p) {
            Shape b;
            b.type = ShapeType::Box;
            b.box_min = {1.0, 0.5, 0.6};
            b.box_max = {1.5, 1.0, 0.82};
            p.layers[1].shapes.push_back(b);
            Source t;
            t.name = "tf";
            t.type = SourceType::Tfsf;
            t.box_min = {1.2, 0.6, 0.4};
            t.box_max = {2.2, 1.4, 1.2};
            t.direction = "+x";
            t.component = Component::Ey;
            p.sources.push_back(t);
            Source d;
            d.name = "dip";
            d.type = SourceType::Point;
            d.at = {1.0, 1.0};
            d.at_z = 0.7;
            d.component = Component::Ez;
            p.sources.push_back(d);
            Monitor fb;
            fb.name = "fb";
            fb.type = MonitorType::FluxBox;
            fb.kind = "flux";
            fb.min = Vec2{1.1, 0.5};
            fb.max = Vec2{2.3, 1.5};
            fb.min_z = 0.3;
            fb.max_z = 1.3;
            p.monitors.push_back(fb);
        });
        const Project& p = doc.project();
        const int box = int(p.layers[1].shapes.size()) - 1, tf = int(p.sources.size()) - 2, dip = int(p.sources.size()) - 1;
        const int fb = int(p.monitors.size()) - 1;
        int probe = -1;
        for (int i = 0; i < int(p.monitors.size()); ++i)
            if (p.monitors[size_t(i)].name == "probe") probe = i;
        QVERIFY(probe >= 0);
        auto enter = [&](const QString& label, double v) {
            return undoRedoRoundTrip(doc, [&] { QVERIFY2(pd->enterValue(label, v).isEmpty(), qPrintable(label)); });
        };
        select({ItemRef::Kind::Shape, 1, box});
        QVERIFY(enter(QStringLiteral("Min z"), 0.5));
        QCOMPARE(p.layers[1].shapes[size_t(box)].box_min.z, 0.5);
        pd->rebuild();
        QVERIFY(enter(QStringLiteral("Max z"), 1.0));
        QCOMPARE(p.layers[1].shapes[size_t(box)].box_max.z, 1.0);
        select({ItemRef::Kind::Source, -1, tf});
        QVERIFY(enter(QStringLiteral("Min z"), 0.3));
        QCOMPARE(p.sources[size_t(tf)].box_min.z, 0.3);
        pd->rebuild();
        QVERIFY(enter(QStringLiteral("Max z"), 1.3));
        QCOMPARE(p.sources[size_t(tf)].box_max.z, 1.3);
        select({ItemRef::Kind::Monitor, -1, fb});
        QVERIFY(enter(QStringLiteral("Min z"), 0.2));
        QCOMPARE(*p.monitors[size_t(fb)].min_z, 0.2);
        pd->rebuild();
        QVERIFY(enter(QStringLiteral("Max z"), 1.4));
        QCOMPARE(*p.monitors[size_t(fb)].max_z, 1.4);
        select({ItemRef::Kind::Source, -1, dip});
        QVERIFY(enter(QStringLiteral("At z"), 0.9));
        QCOMPARE(*p.sources[size_t(dip)].at_z, 0.9);
        select({ItemRef::Kind::Monitor, -1, probe});
        QVERIFY(enter(QStringLiteral("At z"), 0.4));
        QCOMPARE(*p.monitors[size_t(probe)].at_z, 0.4);
        validate_project(p, "after the z fields");
    }

    /// The layer table: z0 and the GDS layer column (layer/datatype), one undo step each;
    /// bad entries are refused without a step.
    void layerTableZ0AndGdsLayer() {
        app::MainWindow& w = *w_;
        QVERIFY(openStrip());
        editor::EditorDocument& doc = *w.document();
        QTableWidget* t = w.layerStackDock()->table();
        using LS = editor::LayerStackDock;
        QCOMPARE(t->columnCount(), int(LS::ColCount));
        QCOMPARE(t->horizontalHeaderItem(LS::ColGds)->text(), QStringLiteral("GDS layer"));
        QVERIFY(undoRedoRoundTrip(doc, [&] { t->item(1, LS::ColZ0)->setText(QStringLiteral("0.5")); }));
        QCOMPARE((*doc.project().layers[1].z)[0], 0.5);
        QCOMPARE((*doc.project().layers[1].z)[1], 0.82);
        QCOMPARE(t->item(1, LS::ColGds)->text(), QString());
        QVERIFY(!doc.project().layers[1].gds_layer);
        QVERIFY(undoRedoRoundTrip(doc, [&] { t->item(1, LS::ColGds)->setText(QStringLiteral("3/7")); }));
        QVERIFY(doc.project().layers[1].gds_layer == (std::array<int, 2>{3, 7}));
        QVERIFY(undoRedoRoundTrip(doc, [&] { t->item(1, LS::ColGds)->setText(QStringLiteral("12")); }));  // datatype 0
        QVERIFY(doc.project().layers[1].gds_layer == (std::array<int, 2>{12, 0}));
        QTRY_COMPARE(t->item(1, LS::ColGds)->text(), QStringLiteral("12/0"));
        // refused: no undo step, the layer keeps its GDS layer; the entry stays as typed,
        // marked with its rule (issue 55)
        const int steps = doc.undoStack()->count();
        for (const char* bad : {"70000/0", "a/b", "1/2/3", "-1"}) {
            t->item(1, LS::ColGds)->setText(QString::fromLatin1(bad));
            QCOMPARE(doc.undoStack()->count(), steps);
            QApplication::processEvents();
            QCOMPARE(t->item(1, LS::ColGds)->text(), QString::fromLatin1(bad));
            QVERIFY(!w.layerStackDock()->invalidRule(1, LS::ColGds).isEmpty());
            QVERIFY(doc.project().layers[1].gds_layer == (std::array<int, 2>{12, 0}));
        }
        // cleared: no gds_layer
        QVERIFY(undoRedoRoundTrip(doc, [&] { t->item(1, LS::ColGds)->setText(QString()); }));
        QVERIFY(!doc.project().layers[1].gds_layer);
        // the file keeps it
        doc.undoStack()->undo();
        const QString saved = dir_.filePath(QStringLiteral("gds_layer.glproj"));
        QVERIFY(doc.saveAs(saved, prompts_));
        QVERIFY(load_project(saved.toStdString()).layers[1].gds_layer == (std::array<int, 2>{12, 0}));
    }

    /// The layer stack diagram: a layer's bottom edge and its body; the selected item's z
    /// extent (sphere: top edge = radius; box: bottom edge; plane source, point, probe:
    /// moved; flux box: top edge), each one undo step.
    void layerStackDrags() {
        app::MainWindow& w = *w_;
        QVERIFY(openStrip());
        editor::EditorDocument& doc = *w.document();
        editor::LayerStackDock* ls = w.layerStackDock();
        ls->setFloating(true);
        ls->resize(460, 620);
        ls->show();
        ls->raise();
        QTest::qWait(50);
        editor::LayerStackDiagram* dg = ls->diagram();
        QVERIFY(dg->height() > 150);
        auto drag = [&](QPoint from, int dy) {
            QTest::mousePress(dg, Qt::LeftButton, Qt::NoModifier, from);
            QTest::mouseMove(dg, from + QPoint(0, dy / 2));
            QTest::mouseMove(dg, from + QPoint(0, dy));
            QTest::mouseRelease(dg, Qt::LeftButton, Qt::NoModifier, from + QPoint(0, dy));
        };
        auto snapped = [&](QPoint from, int dy) {
            return std::round((dg->zAt(from.y() + dy) - dg->zAt(from.y())) / dg->snapStep()) * dg->snapStep();
        };
        doc.setSelection({});
        // the taper's bottom edge down: z0 lower, z1 kept
        const int layer = 1;
        auto z = *doc.project().layers[layer].z;
        QPoint from = dg->pointFor(layer, 0);
        double dz = snapped(from, 24);
        QVERIFY(undoRedoRoundTrip(doc, [&] { drag(from, 24); }));
        auto after = *doc.project().layers[layer].z;
        std::printf("bottom edge: z0 %.3f -> %.3f (dz %.3f), z1 %.3f\n", z[0], after[0], dz, after[1]);
        QVERIFY(dz < 0 && near(after[0], z[0] + dz, 1e-9) && after[1] == z[1]);
        // its body up: both move by the same
        z = after;
        from = dg->pointFor(layer, 2);
        dz = snapped(from, -20);
        QVERIFY(undoRedoRoundTrip(doc, [&] { drag(from, -20); }));
        after = *doc.project().layers[layer].z;
        std::printf("body: z %.3f..%.3f -> %.3f..%.3f (dz %.3f)\n", z[0], z[1], after[0], after[1], dz);
        QVERIFY(dz > 0 && near(after[0], z[0] + dz, 1e-9) && near(after[1], z[1] + dz, 1e-9));

        // the selected item's side view
        doc.editProject(QStringLiteral("test items"), [](Project& p) {
            Shape s;
            s.type = ShapeType::Sphere;
            s.center_3d = {1.5, 1.0, 0.7};
            s.radius = 0.2;
            p.layers[1].shapes.push_back(s);
            Shape b;
            b.type = ShapeType::Box;
            b.box_min = {1.0, 0.5, 0.6};
            b.box_max = {1.5, 1.0, 0.9};
            p.layers[1].shapes.push_back(b);
            Monitor fb;
            fb.name = "fb";
            fb.type = MonitorType::FluxBox;
            fb.kind = "flux";
            fb.min = Vec2{1.1, 0.5};
            fb.max = Vec2{2.3, 1.5};
            fb.min_z = 0.3;
            fb.max_z = 1.1;
            p.monitors.push_back(fb);
        });
        const Project& p = doc.project();
        const int sphere = int(p.layers[1].shapes.size()) - 2, box = sphere + 1;
        int launch = -1, probe = -1, fb = int(p.monitors.size()) - 1;
        for (int i = 0; i < int(p.sources.size()); ++i)
            if (p.sources[size_t(i)].name == "launch") launch = i;
        for (int i = 0; i < int(p.monitors.size()); ++i)
            if (p.monitors[size_t(i)].name == "probe") probe = i;
        struct Case {
            ItemRef ref;
            int which;  // 0 bottom, 1 top, 2 body
            int dy;
        };
        const Case cases[] = {{{ItemRef::Kind::Shape, 1, sphere}, 1, -20},  {{ItemRef::Kind::Shape, 1, box}, 0, 16},
                              {{ItemRef::Kind::Source, -1, launch}, 2, -18}, {{ItemRef::Kind::Monitor, -1, probe}, 2, 22},
                              {{ItemRef::Kind::Monitor, -1, fb}, 1, -14}};
        for (const Case& c : cases) {
            doc.setSelection(c.ref);
            QTest::qWait(20);
            const auto before = *editor::item_z_extent(p, c.ref);
            const QPoint at = dg->selectionPointFor(c.which);
            QVERIFY(!at.isNull());
            const double d = snapped(at, c.dy);
            QVERIFY(undoRedoRoundTrip(doc, [&] { drag(at, c.dy); }));
            const auto now = *editor::item_z_extent(p, c.ref);
            std::printf("side view drag (kind %d, %s): z %.3f..%.3f -> %.3f..%.3f (dz %.3f)\n", int(c.ref.kind),
                        c.which == 0 ? "bottom" : c.which == 1 ? "top" : "body", before[0], before[1], now[0], now[1], d);
            QVERIFY(d != 0);
            QVERIFY(near(now[0], before[0] + (c.which != 1 ? d : 0), 1e-9));
            QVERIFY(near(now[1], before[1] + (c.which != 0 ? d : 0), 1e-9));
        }
        // the sphere's top edge changed its radius and centre, its bottom stayed
        const Shape& s = p.layers[1].shapes[size_t(sphere)];
        QVERIFY(near(s.center_3d.z - s.radius, 0.5, 1e-9) && s.radius > 0.2);
        QVERIFY(near(p.sources[size_t(launch)].size.z, 1.2, 1e-9));  // a body drag keeps the size
        validate_project(p, "after the side-view drags");
        saveShot(ls);
        ls->setFloating(false);
    }

    /// The point, flux and probe tools in a 3D project make their 3D forms at mid-height
    /// (one undo step each).
    void pointFluxProbeToolsIn3d() {
        app::MainWindow& w = *w_;
        QVERIFY(openStrip());
        editor::EditorDocument& doc = *w.document();
        editor::Canvas* c = w.canvas();
        c->setSnapEnabled(false);
        c->setView(150, QPointF(1.5, 1.0));
        auto at = [&](double x, double y) { return c->toScreen(QPointF(x, y)).toPoint(); };
        auto click = [&](double x, double y) { QTest::mouseClick(c, Qt::LeftButton, Qt::NoModifier, at(x, y)); };
        auto drag = [&](double x0, double y0, double x1, double y1) {
            QTest::mousePress(c, Qt::LeftButton, Qt::NoModifier, at(x0, y0));
            QTest::mouseMove(c, at(0.5 * (x0 + x1), 0.5 * (y0 + y1)));
            QTest::mouseMove(c, at(x1, y1));
            QTest::mouseRelease(c, Qt::LeftButton, Qt::NoModifier, at(x1, y1));
        };
        const double lz = doc.project().domain.size[2];
        w.action(QStringLiteral("tool.pointSource"))->trigger();
        QVERIFY(undoRedoRoundTrip(doc, [&] { click(1.2, 0.7); }));
        const Source pt = doc.project().sources.back();
        QCOMPARE(int(pt.type), int(SourceType::Point));
        QVERIFY(pt.at_z && near(*pt.at_z, 0.5 * lz, 1e-12));
        QVERIFY(near(pt.at.x, 1.2, 0.01) && near(pt.at.y, 0.7, 0.01));
        w.action(QStringLiteral("tool.flux"))->trigger();
        QVERIFY(undoRedoRoundTrip(doc, [&] { drag(2.0, 0.4, 2.0, 1.6); }));
        const Monitor fl = doc.project().monitors.back();
        QCOMPARE(int(fl.type), int(MonitorType::Flux));
        QCOMPARE(fl.size.x, 0.0);
        QVERIFY(near(fl.size.y, 1.2, 0.02) && near(fl.size.z, lz, 1e-12) && near(fl.center.z, 0.5 * lz, 1e-12));
        QCOMPARE(fl.direction.substr(1), std::string("x"));
        w.action(QStringLiteral("tool.probe"))->trigger();
        QVERIFY(undoRedoRoundTrip(doc, [&] { click(2.2, 1.1); }));
        const Monitor pr = doc.project().monitors.back();
        QCOMPARE(int(pr.type), int(MonitorType::Time));
        QVERIFY(pr.at_z && near(*pr.at_z, 0.5 * lz, 1e-12));
        validate_project(doc.project(), "after the point, flux and probe tools in 3D");
        w.action(QStringLiteral("tool.select"))->trigger();
    }

    /// Normal (x, y, z) of a plane source and a flux plane: one undo step; the size turns
    /// with it, the direction too; a line source drawn in 3D becomes a plane normal to z.
    void planeNormalChoice() {
        app::MainWindow& w = *w_;
        QVERIFY(openStrip());
        editor::EditorDocument& doc = *w.document();
        const Project& p = doc.project();
        for (int i = 0; i < int(p.monitors.size()); ++i)  // the "top view" DFT region covers the whole xy domain
            if (p.monitors[size_t(i)].name == "top view") doc.removeItem({ItemRef::Kind::Monitor, -1, i});
        int launch = -1, out = -1;
        for (int i = 0; i < int(p.sources.size()); ++i)
            if (p.sources[size_t(i)].name == "launch") launch = i;
        for (int i = 0; i < int(p.monitors.size()); ++i)
            if (p.monitors[size_t(i)].name == "out") out = i;
        select({ItemRef::Kind::Source, -1, launch});
        QComboBox* normal = combo(QStringLiteral("Normal"));
        QVERIFY(normal);
        QCOMPARE(normal->currentText(), QStringLiteral("x"));
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(normal, 2); }));
        const Source& s = p.sources[size_t(launch)];
        QVERIFY(s.size == (Vec3{1.2, 1.6, 0.0}));
        QCOMPARE(one_way_direction(s), std::string("+z"));
        QCOMPARE(int(s.component), int(Component::Ey));
        validate_project(p, "plane source normal to z");
        // drawn as its rectangle, hit inside
        const ItemRef hit = w.canvas()->hitTest(QPointF(0.5 + 0.4, 1.0 + 0.5));
        QCOMPARE(int(hit.kind), int(ItemRef::Kind::Source));
        QCOMPARE(hit.index, launch);
        // y: the Ey polarization would be along the normal: it becomes Ez (the old normal's... z)
        select({ItemRef::Kind::Source, -1, launch});
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(combo(QStringLiteral("Normal")), 1); }));
        QVERIFY(s.size == (Vec3{1.2, 0.0, 1.6}));
        QCOMPARE(int(s.component), int(Component::Ez));
        QCOMPARE(one_way_direction(s), std::string("+y"));
        validate_project(p, "plane source normal to y");
        // the flux plane
        select({ItemRef::Kind::Monitor, -1, out});
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(combo(QStringLiteral("Normal")), 2); }));
        QVERIFY(p.monitors[size_t(out)].size == (Vec3{1.2, 1.6, 0.0}));
        QCOMPARE(p.monitors[size_t(out)].direction, std::string("+z"));
        validate_project(p, "flux plane normal to z");
        // the same choice again: no step
        const int steps = doc.undoStack()->count();
        w.propertiesDock()->rebuild();
        choose(combo(QStringLiteral("Normal")), 2);
        QCOMPARE(doc.undoStack()->count(), steps);
        // a line source drawn in 3D, turned to z
        editor::Canvas* c = w.canvas();
        c->setSnapEnabled(false);
        c->setView(150, QPointF(1.5, 1.0));
        w.action(QStringLiteral("tool.lineSource"))->trigger();
        const QPoint a = c->toScreen(QPointF(1.8, 0.4)).toPoint(), b = c->toScreen(QPointF(1.8, 1.6)).toPoint();
        QTest::mousePress(c, Qt::LeftButton, Qt::NoModifier, a);
        QTest::mouseMove(c, (a + b) / 2);
        QTest::mouseMove(c, b);
        QTest::mouseRelease(c, Qt::LeftButton, Qt::NoModifier, b);
        w.action(QStringLiteral("tool.select"))->trigger();
        select({ItemRef::Kind::Source, -1, int(p.sources.size()) - 1});
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(combo(QStringLiteral("Normal")), 2); }));
        QCOMPARE(p.sources.back().size.z, 0.0);
        QVERIFY(p.sources.back().size.x > 0 && p.sources.back().size.y > 0);
        validate_project(p, "a drawn plane turned normal to z");
    }

    /// Run setup's slice fields (idle): run.frames, one undo step each.
    void runSetupSliceFieldsIdle() {
        app::MainWindow& w = *w_;
        QVERIFY(openStrip());
        editor::EditorDocument& doc = *w.document();
        editor::RunSetupDock* rd = w.runSetupDock();
        QVERIFY(!w.runController()->isRunning());
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(rd->framesPlane(), 2); }));
        QCOMPARE(doc.project().run.frames.plane, std::string("yz"));
        // (consecutive slice edits merge into one step: another edit in between)
        doc.editLayer(0, QStringLiteral("test: rename"), [](Layer& l) { l.name += " (renamed)"; });
        QVERIFY(undoRedoRoundTrip(doc, [&] { rd->framesPosition()->setValue(0.33); }));
        QCOMPARE(*doc.project().run.frames.position, 0.33);
        // the slice bar follows the project
        QCOMPARE(w.findChild<QDoubleSpinBox*>(QStringLiteral("run.slicePosition"))->value(), 0.33);
    }

    /// The 3D view: right drag pans (the target moves), the wheel zooms (the distance
    /// shrinks); neither changes the project.
    void view3dPanAndZoom() {
        app::MainWindow& w = *w_;
        QVERIFY(openStrip());
        w.structure3dDock()->show();
        w.structure3dDock()->raise();
        viewport::StructureView3D* v = w.structureView3d();
        v->resize(420, 320);
        QTRY_VERIFY(!v->mesh().triangles.empty());
        v->resetCamera();
        const Project before = w.document()->project();
        const int steps = w.document()->undoStack()->count();
        const QVector3D target = v->target();
        const QPoint c(v->width() / 2, v->height() / 2);
        QTest::mousePress(v, Qt::RightButton, Qt::NoModifier, c);
        QTest::mouseMove(v, c + QPoint(30, 0));
        QTest::mouseMove(v, c + QPoint(60, 10));
        QTest::mouseRelease(v, Qt::RightButton, Qt::NoModifier, c + QPoint(60, 10));
        const double moved = (v->target() - target).length();
        std::printf("3D view pan: target moved %.3f um\n", moved);
        QVERIFY(moved > 0.05);
        QVERIFY(!w.document()->selection().valid());
        const double d0 = v->distance();
        QWheelEvent wheel(QPointF(c), v->mapToGlobal(QPointF(c)), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(v, &wheel);
        std::printf("3D view zoom: distance %.3f -> %.3f um\n", d0, v->distance());
        QVERIFY(std::abs(v->distance() / d0 - std::pow(1.0015, -240)) < 1e-6);
        QVERIFY(w.document()->project() == before);
        QCOMPARE(w.document()->undoStack()->count(), steps);
    }

    /// Ports (top-level `ports`): drawn in the editor and the 3D view, selected there,
    /// edited in Properties, added with the port tool and deleted; one undo step each.
    void ports() {
        app::MainWindow& w = *w_;
        QVERIFY(openStrip());
        editor::EditorDocument& doc = *w.document();
        const Project& p = doc.project();
        editor::Canvas* c = w.canvas();
        c->setSnapEnabled(false);
        c->setView(150, QPointF(1.5, 1.0));
        // the port tool: a drag across the strip gives a plane normal to x spanning the
        // domain's height, direction +x (into the device, like the flux tool)
        QVERIFY(w.action(QStringLiteral("tool.port")));
        w.action(QStringLiteral("tool.port"))->trigger();
        const QPoint a = c->toScreen(QPointF(0.8, 0.4)).toPoint(), b = c->toScreen(QPointF(0.8, 1.6)).toPoint();
        const Project noPorts = p;
        const int steps = doc.undoStack()->count();
        QTest::mousePress(c, Qt::LeftButton, Qt::NoModifier, a);
        QTest::mouseMove(c, (a + b) / 2);
        QTest::mouseMove(c, b);
        QTest::mouseRelease(c, Qt::LeftButton, Qt::NoModifier, b);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QCOMPARE(int(doc.selection().kind), int(ItemRef::Kind::Port));  // the new port is selected
        const Project onePort = p;
        doc.undoStack()->undo();
        QVERIFY(p == noPorts);
        doc.undoStack()->redo();
        QVERIFY(p == onePort);
        w.action(QStringLiteral("tool.select"))->trigger();
        QCOMPARE(editor::port_count(p), 1);
        editor::PortData port = *editor::port_at(p, 0);
        std::printf("port drawn: %s centre (%.3f, %.3f, %.3f) size (%.3f, %.3f, %.3f) %s\n", port.name.c_str(), port.center.x,
                    port.center.y, port.center.z, port.size.x, port.size.y, port.size.z, port.direction.c_str());
        QCOMPARE(port.size.x, 0.0);
        QVERIFY(near(port.size.y, 1.2, 0.02) && near(port.size.z, p.domain.size[2], 1e-12));
        QCOMPARE(port.direction, std::string("+x"));
        QVERIFY(port.modes == std::vector<int>{0});
        // the canvas hits it; the 3D mesh outlines and picks it
        doc.setSelection({});
        const ItemRef hit = c->hitTest(QPointF(0.8, 1.3));
        QCOMPARE(int(hit.kind), int(ItemRef::Kind::Port));
        QCOMPARE(hit.index, 0);
        const viewport::StructureMesh m = viewport::build_structure_mesh(p);
        int portPicks = 0;
        for (const auto& pk : m.picks) portPicks += pk.kind == 4;
        QCOMPARE(portPicks, 1);
        // Properties: name, centre, size, direction, modes
        select(hit);
        QVERIFY(w.propertiesDock()->field(QStringLiteral("Centre z")));
        auto* name = qobject_cast<QLineEdit*>(w.propertiesDock()->field(QStringLiteral("Name")));
        QVERIFY(name);
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            name->setText(QStringLiteral("in"));
            Q_EMIT name->editingFinished();
        }));
        QCOMPARE(editor::port_at(p, 0)->name, std::string("in"));
        select(hit);
        QVERIFY(undoRedoRoundTrip(doc, [&] { QVERIFY(w.propertiesDock()->enterValue(QStringLiteral("Centre x"), 0.9).isEmpty()); }));
        QCOMPARE(editor::port_at(p, 0)->center.x, 0.9);
        select(hit);
        QVERIFY(undoRedoRoundTrip(doc, [&] { QVERIFY(w.propertiesDock()->enterValue(QStringLiteral("Size z"), 1.0).isEmpty()); }));
        QCOMPARE(editor::port_at(p, 0)->size.z, 1.0);
        select(hit);
        QVERIFY(undoRedoRoundTrip(doc, [&] { choose(combo(QStringLiteral("Direction")), 1); }));
        QCOMPARE(editor::port_at(p, 0)->direction, std::string("-x"));
        select(hit);
        auto* modes = qobject_cast<QLineEdit*>(w.propertiesDock()->field(QStringLiteral("Modes")));
        QVERIFY(modes);
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            modes->setText(QStringLiteral("0, 1"));
            Q_EMIT modes->editingFinished();
        }));
        QVERIFY(editor::port_at(p, 0)->modes == (std::vector<int>{0, 1}));
        // a second port by duplication, then delete one (one step each); the file keeps them
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.duplicateItem(hit, 1.5, 0); }));
        QCOMPARE(editor::port_count(p), 2);
        QCOMPARE(editor::port_at(p, 1)->name, std::string("in1"));  // a unique name
        // a move (what the select tool's drag and the arrow keys do)
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.translateItem({ItemRef::Kind::Port, -1, 1}, 0.1, 0.05); }));
        QVERIFY(near(editor::port_at(p, 1)->center.x, 0.9 + 1.5 + 0.1, 1e-9));
        QVERIFY(undoRedoRoundTrip(doc, [&] { doc.removeItem({ItemRef::Kind::Port, -1, 0}); }));
        QCOMPARE(editor::port_count(p), 1);
        doc.undoStack()->undo();
        const QString saved = dir_.filePath(QStringLiteral("ports.glproj"));
        QVERIFY(doc.saveAs(saved, prompts_));
        const Project back = load_project(saved.toStdString());
        QCOMPARE(editor::port_count(back), 2);
        QCOMPARE(editor::port_at(back, 0)->name, std::string("in"));
        QVERIFY(*editor::port_at(back, 1) == *editor::port_at(p, 1));
        // what the editor writes is what the S-parameter runs read (sparams.hpp parse_ports)
        const std::vector<Port> parsed = parse_ports(back, "ports.glproj");
        QCOMPARE(int(parsed.size()), 2);
        QCOMPARE(parsed[0].name, std::string("in"));
        QVERIFY(parsed[0].modes == (std::vector<int>{0, 1}));
        QCOMPARE(parsed[0].direction, std::string("-x"));
        QCOMPARE(parsed[0].size.z, 1.0);
        saveShot(c);
    }

private:
    static void saveShot(QWidget* wdg) {
        const QString dir = qEnvironmentVariable("GOLIGHTLY_SHOTS");
        if (dir.isEmpty() || !wdg) return;
        const QString name = wdg->objectName().isEmpty() ? QStringLiteral("widget") : wdg->objectName();
        wdg->grab().save(dir + QStringLiteral("/edits_") + name + QStringLiteral(".png"));
    }
};

QTEST_MAIN(TestIde3dEdits)
#include "tst_ide3d_edits.moc"
