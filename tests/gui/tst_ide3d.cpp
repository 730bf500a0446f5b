// 3D in the IDE (issue 16): the 2D / 3D switch and the z settings (one undo step each,
// undo gives back the identical project), the layer stack dock (table edits, a drag in the
// cross-section diagram, background layers), the 3D tools (sphere, box, TF/SF box, flux
// box) and their z fields in the Properties dock, the 3D structure mesh (triangulation
// areas, sidewall angle, picking) and selection from the 3D view, the Examples menu, and a
// 3D run whose slice moves from xy to xz (slice bar) and to yz (Run setup's fields) while it
// runs, with cross-sections plotted during the run. STEP import in 3D through the
// Translation z spin box. (More edits: tst_ide3d_edits.)
//
// With GOLIGHTLY_SHOTS set to a folder, the test also saves pictures of the new docks and
// of the 3D run there (run it under Xvfb with QT_QPA_PLATFORM=xcb for the OpenGL view).
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <cmath>
#include <filesystem>

#include "qcustomplot_include.hpp"

#include "canvas.hpp"
#include "dimensions.hpp"
#include "docks.hpp"
#include "field_view.hpp"
#include "frame_source.hpp"
#include "golightly/compile.hpp"
#include "golightly/geometry.hpp"
#include "golightly/project.hpp"
#include "gui_fixture.hpp"
#include "layer_stack_dock.hpp"
#include "main_window.hpp"
#include "monitors_dock.hpp"
#include "run_controller.hpp"
#include "structure_mesh.hpp"
#include "structure_view_3d.hpp"
#include "step_import_dialog.hpp"
#include "golightly/step_import.hpp"

using namespace golightly;
using golightly::test::kSourceDir;
using golightly::test::StubPrompts;
using golightly::test::undoRedoRoundTrip;
using golightly::editor::ItemRef;

namespace {

QString shotsDir() { return qEnvironmentVariable("GOLIGHTLY_SHOTS"); }

void saveShot(QWidget* w, const QString& name) {
    const QString dir = shotsDir();
    if (dir.isEmpty() || !w) return;
    QDir().mkpath(dir);
    QImage img;
    if (auto* v3 = qobject_cast<viewport::StructureView3D*>(w)) img = v3->grabImage();
    else img = w->grab().toImage();
    const bool ok = img.save(QDir(dir).filePath(name));
    std::printf("shot %s: %s (%dx%d)\n", qPrintable(name), ok ? "saved" : "NOT saved", img.width(), img.height());
}

/// A small 3D TF/SF scattering project: an eps 4 sphere (r = 0.15 um) in a 0.8 x 0.8 x 0.96 um box at
/// dx = 0.04 um, a plane wave along +x (Ez), a scattering flux box, a time probe.
Project small_3d_project() {
    Project p;
    p.name = "tfsf sphere (test)";
    p.domain.dimensions = 3;
    p.domain.size = {0.8, 0.8, 0.96};  // not a cube: the xz frame is taller than the xy one
    p.domain.cell_size = 0.04;
    p.domain.pml.cells = 8;
    Material d;
    d.id = "d";
    d.name = "eps 4";
    d.epsilon_inf = 4;
    d.color = "#5b8fd6";
    p.materials = {d};
    Layer l;
    l.name = "sphere";
    l.material = "d";
    Shape s;
    s.type = ShapeType::Sphere;
    s.center_3d = {0.4, 0.4, 0.4};
    s.radius = 0.15;
    l.shapes.push_back(s);
    p.layers.push_back(l);
    Source t;
    t.name = "wave";
    t.type = SourceType::Tfsf;
    t.box_min = {0.2, 0.2, 0.2};
    t.box_max = {0.6, 0.6, 0.6};
    t.direction = "+x";
    t.component = Component::Ez;
    t.waveform.wavelength_center = 0.9;
    t.waveform.wavelength_span = 0.6;
    p.sources.push_back(t);
    Monitor box;
    box.name = "sca";
    box.type = MonitorType::FluxBox;
    box.kind = "scattering";
    box.min = Vec2{0.1, 0.1};
    box.max = Vec2{0.7, 0.7};
    box.min_z = 0.1;
    box.max_z = 0.7;
    p.monitors.push_back(box);
    Monitor probe;
    probe.name = "probe";
    probe.type = MonitorType::Time;
    probe.at = Vec2{0.7, 0.4};
    probe.at_z = 0.4;
    p.monitors.push_back(probe);
    p.run.spectrum = {0.7, 1.2, 11, Json::object()};
    p.run.stop.decay_db = 30;
    p.run.stop.max_time_fs = 40;
    p.run.backend = BackendChoice::Cpu;
    p.run.frames.every_steps = 5;
    p.run.frames.component = Component::Ez;
    p.run.frames.plane = "xy";
    p.run.frames.position = 0.4;
    return p;
}

double triangle_area(const std::vector<Vec2>& pts, const std::vector<std::array<int, 3>>& tris) {
    double a = 0;
    for (const auto& t : tris) {
        const Vec2 p = pts[size_t(t[0])], q = pts[size_t(t[1])], r = pts[size_t(t[2])];
        a += 0.5 * std::abs((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x));
    }
    return a;
}

}  // namespace

class TestIde3d : public QObject, golightly::test::WindowFixture {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        initFixture();
        showWindow(QSize(1500, 950));
    }
    void cleanupTestCase() { w_.reset(); }
    void cleanup() {
        if (w_) QVERIFY(w_->runController()->stopAndWait(10000));
        QTest::qWait(30);
    }

    /// A 3D example opens as 3D: the run dock shows 3D, its z size and boundary, the slice;
    /// the plane source and flux planes are drawn and selectable in the xy editor.
    void opensA3dExample() {
        app::MainWindow& w = *w_;
        const QString path = copyExample(QStringLiteral("strip_waveguide_3d.glproj"));
        QVERIFY(w.openFile(path));
        const Project& p = w.document()->project();
        QCOMPARE(p.domain.dimensions, 3);
        editor::RunSetupDock* rd = w.runSetupDock();
        QCOMPARE(rd->dimensions()->currentIndex(), 1);
        QCOMPARE(rd->sizeZ()->value(), 1.6);
        QVERIFY(rd->sizeZ()->isEnabled() && rd->boundaryZ()->isEnabled());
        QCOMPARE(rd->framesPlane()->currentText(), QStringLiteral("xy"));
        QCOMPARE(rd->framesPosition()->value(), 0.71);
        rd->show();
        rd->raise();
        QTest::qWait(50);
        saveShot(rd, QStringLiteral("run_setup_3d.png"));
        // the plane source "launch" (x = 0.5) is hit in the editor at its footprint (after
        // the "top view" DFT region, which covers it, is deleted: one undo step)
        for (int i = 0; i < int(p.monitors.size()); ++i)
            if (p.monitors[size_t(i)].name == "top view") w.document()->removeItem({ItemRef::Kind::Monitor, -1, i});
        const ItemRef hit = w.canvas()->hitTest(QPointF(0.5, 1.0));
        QCOMPARE(int(hit.kind), int(ItemRef::Kind::Source));
        QCOMPARE(p.sources[size_t(hit.index)].name, std::string("launch"));
        // its inspector has the 3D centre and size (z extent)
        w.document()->setSelection(hit);
        w.propertiesDock()->rebuild();
        QVERIFY(w.propertiesDock()->field(QStringLiteral("Centre z")));
        QVERIFY(w.propertiesDock()->field(QStringLiteral("Size z")));
        w.propertiesDock()->raise();
        QTest::qWait(50);
        QVERIFY(!w.propertiesDock()->field(QStringLiteral("From x")));  // a plane has no 2D line
        // the one-way direction of a gaussian plane source: "+x" (in extra), then two-way
        auto* dir = qobject_cast<QComboBox*>(w.propertiesDock()->field(QStringLiteral("Direction")));
        QVERIFY(dir);
        QCOMPARE(dir->currentText(), QStringLiteral("+x"));
        QVERIFY(undoRedoRoundTrip(*w.document(), [&] {
            dir->setCurrentIndex(0);
            Q_EMIT dir->activated(0);
        }));
        QCOMPARE(one_way_direction(w.document()->project().sources[size_t(hit.index)]), std::string());
        w.propertiesDock()->rebuild();
        // the fields were made while the dock was a hidden tab: they show with it
        QTRY_VERIFY(w.propertiesDock()->field(QStringLiteral("Centre z"))->isVisible());
        saveShot(w.propertiesDock(), QStringLiteral("properties_plane_source.png"));
        QVERIFY(undoRedoRoundTrip(*w.document(), [&] {
            QVERIFY(w.propertiesDock()->enterValue(QStringLiteral("Size z"), 1.0).isEmpty());
        }));
        QCOMPARE(w.document()->project().sources[size_t(hit.index)].size.z, 1.0);
        // the flux plane "out" (x = 2.5) likewise
        const ItemRef out = w.canvas()->hitTest(QPointF(2.5, 1.3));
        QCOMPARE(int(out.kind), int(ItemRef::Kind::Monitor));
        QCOMPARE(p.monitors[size_t(out.index)].name, std::string("out"));
        // undo all: the file as opened
        while (w.document()->undoStack()->canUndo()) w.document()->undoStack()->undo();
        QVERIFY(w.document()->project() == load_project(path.toStdString()));
        QCOMPARE(w.document()->project().monitors.size(), size_t(4));
    }

    /// 2D -> 3D keeps the drawing, gives the 2D-only objects their 3D form (the result
    /// validates), in one undo step; the z size and z boundary are undoable edits.
    void dimensionsSwitchAndZSettings() {
        app::MainWindow& w = *w_;
        QVERIFY(w.openFile(copyExample(QStringLiteral("quickstart.glproj"))));
        editor::EditorDocument& doc = *w.document();
        const Project before = doc.project();
        QCOMPARE(before.domain.dimensions, 2);
        editor::RunSetupDock* rd = w.runSetupDock();
        QVERIFY(!rd->sizeZ()->isEnabled());
        QVERIFY(undoRedoRoundTrip(doc, [&] { rd->setDimensions(3); }));
        const Project& p = doc.project();
        QCOMPARE(p.domain.dimensions, 3);
        QCOMPARE(p.domain.size[2], editor::kDefault3dDepthUm);
        QCOMPARE(p.layers.size(), before.layers.size());
        for (size_t l = 0; l < p.layers.size(); ++l) QVERIFY(p.layers[l].shapes == before.layers[l].shapes);
        for (const Source& s : p.sources) QVERIFY(s.type != SourceType::Line);
        for (const Monitor& m : p.monitors)
            if (m.type == MonitorType::Flux) QVERIFY(m.size != Vec3{});
        validate_project(p, "switched");  // throws when the switch left a 2D-only object
        QCOMPARE(rd->dimensions()->currentIndex(), 1);
        QVERIFY(rd->sizeZ()->isEnabled());
        // the z size and boundary
        QVERIFY(undoRedoRoundTrip(doc, [&] { rd->sizeZ()->setValue(3.5); }));
        QCOMPARE(doc.project().domain.size[2], 3.5);
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            rd->boundaryZ()->setCurrentIndex(1);
            Q_EMIT rd->boundaryZ()->activated(1);
        }));
        QCOMPARE(doc.project().domain.boundaries[2], BoundaryKind::Periodic);
        // and back to 2D: the flux planes are lines again; undo restores the 3D project
        const Project three = doc.project();
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            rd->dimensions()->setCurrentIndex(0);
            Q_EMIT rd->dimensions()->activated(0);
        }));
        QCOMPARE(doc.project().domain.dimensions, 2);
        validate_project(doc.project(), "back to 2D");
        doc.undoStack()->undo();
        QVERIFY(doc.project() == three);
        // all the way back
        while (doc.undoStack()->canUndo()) doc.undoStack()->undo();
        QVERIFY(doc.project() == before);
    }

    /// Layer stack: z0, z1, sidewall angle, material from the table, a background layer,
    /// each one undo step; a drag of a layer's top edge in the diagram sets z1.
    void layerStackEdits() {
        app::MainWindow& w = *w_;
        QVERIFY(w.openFile(copyExample(QStringLiteral("strip_waveguide_3d.glproj"))));
        editor::EditorDocument& doc = *w.document();
        editor::LayerStackDock* ls = w.layerStackDock();
        ls->setFloating(true);  // room for the diagram and the table's columns, whatever the window's layout
        ls->resize(560, 620);
        ls->show();
        ls->raise();
        QTest::qWait(50);
        QTableWidget* t = ls->table();
        QCOMPARE(t->rowCount(), 3);
        // the picture of the docs (docs/screenshots/layer-stack.png): the example as shipped,
        // the taper current, nothing selected
        doc.setSelection({});
        doc.setCurrentLayer(1);
        QTest::qWait(50);
        QVERIFY(doc.project() == load_project(dir_.filePath(QStringLiteral("strip_waveguide_3d.glproj")).toStdString()));
        saveShot(ls, QStringLiteral("layer_stack_dock.png"));
        QCOMPARE(t->item(1, editor::LayerStackDock::ColZ0)->text(), QStringLiteral("0.6"));
        QCOMPARE(t->item(1, editor::LayerStackDock::ColAngle)->text(), QStringLiteral("10"));
        QVERIFY(undoRedoRoundTrip(doc, [&] { t->item(1, editor::LayerStackDock::ColZ1)->setText(QStringLiteral("0.9")); }));
        QCOMPARE((*doc.project().layers[1].z)[1], 0.9);
        QVERIFY(undoRedoRoundTrip(doc, [&] { t->item(1, editor::LayerStackDock::ColAngle)->setText(QStringLiteral("5")); }));
        QCOMPARE(doc.project().layers[1].sidewall_angle_deg, 5.0);
        // a z1 below z0 is refused: no undo step; the entry stays as typed, marked with its
        // rule (issue 55), until a valid one replaces it
        const int steps = doc.undoStack()->count();
        t->item(1, editor::LayerStackDock::ColZ1)->setText(QStringLiteral("0.1"));
        QCOMPARE(doc.undoStack()->count(), steps);
        QApplication::processEvents();
        QCOMPARE(t->item(1, editor::LayerStackDock::ColZ1)->text(), QStringLiteral("0.1"));
        QVERIFY(ls->invalidRule(1, editor::LayerStackDock::ColZ1).contains(QStringLiteral("greater than z0")));
        t->item(1, editor::LayerStackDock::ColZ1)->setText(QStringLiteral("0.9"));
        QVERIFY(ls->problems().isEmpty());
        QCOMPARE((*doc.project().layers[1].z)[1], 0.9);
        QVERIFY(undoRedoRoundTrip(doc, [&] { ls->setLayerMaterial(1, "sio2"); }));
        QCOMPARE(doc.project().layers[1].material, std::string("sio2"));
        QVERIFY(undoRedoRoundTrip(doc, [&] { ls->addBackgroundLayer("sio2", 0.0, 0.4); }));
        const Layer& bg = doc.project().layers.front();
        QCOMPARE(bg.z->at(1), 0.4);
        QCOMPARE(bg.shapes.size(), size_t(1));
        QVERIFY(bg.shapes[0].min.x < 0 && bg.shapes[0].max.x > doc.project().domain.size[0]);
        validate_project(doc.project(), "with a background layer");

        // drag the top edge of the "taper" layer (index 2 now) up in the diagram
        editor::LayerStackDiagram* dg = ls->diagram();
        QVERIFY(dg->height() > 150);
        const int layer = 2;
        const auto zBefore = *doc.project().layers[size_t(layer)].z;
        const QPoint top = dg->pointFor(layer, 1);
        const QPoint to = top - QPoint(0, 30);
        const double expected = zBefore[1] + std::round((dg->zAt(to.y()) - dg->zAt(top.y())) / dg->snapStep()) * dg->snapStep();
        const Project beforeDrag = doc.project();
        const int count = doc.undoStack()->count();
        QTest::mousePress(dg, Qt::LeftButton, Qt::NoModifier, top);
        QTest::mouseMove(dg, top - QPoint(0, 15));
        QTest::mouseMove(dg, to);
        QTest::mouseRelease(dg, Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(doc.undoStack()->count(), count + 1);
        const auto zAfter = *doc.project().layers[size_t(layer)].z;
        std::printf("layer stack drag: z1 %.3f -> %.3f um (expected %.3f), z0 stays %.3f\n", zBefore[1], zAfter[1], expected,
                    zAfter[0]);
        QVERIFY(std::abs(zAfter[1] - expected) < 1e-9);
        QVERIFY(zAfter[1] > zBefore[1]);
        QCOMPARE(zAfter[0], zBefore[0]);
        // one visible material combo per row, in its row (no stale one at the top left)
        int visibleCombos = 0;
        for (QComboBox* cb : t->viewport()->findChildren<QComboBox*>())
            if (cb->isVisible()) {
                ++visibleCombos;
                QVERIFY(cb->x() > 0);
            }
        QCOMPARE(visibleCombos, t->rowCount());
        saveShot(ls, QStringLiteral("layer_stack_dock_edited.png"));
        doc.undoStack()->undo();
        QVERIFY(doc.project() == beforeDrag);
        ls->setFloating(false);
    }

    /// The 3D tools: sphere, box, TF/SF box and flux box drawn on the canvas; z from the
    /// layer / the domain, edited in the Properties dock; the project stays valid.
    void tools3d() {
        app::MainWindow& w = *w_;
        QVERIFY(w.openFile(copyExample(QStringLiteral("strip_waveguide_3d.glproj"))));
        editor::EditorDocument& doc = *w.document();
        editor::Canvas* c = w.canvas();
        c->setSnapEnabled(false);
        c->setView(150, QPointF(1.5, 1.0));
        auto at = [&](double x, double y) { return c->toScreen(QPointF(x, y)).toPoint(); };
        auto drag = [&](double x0, double y0, double x1, double y1) {
            QTest::mousePress(c, Qt::LeftButton, Qt::NoModifier, at(x0, y0));
            QTest::mouseMove(c, at(0.5 * (x0 + x1), 0.5 * (y0 + y1)));
            QTest::mouseMove(c, at(x1, y1));
            QTest::mouseRelease(c, Qt::LeftButton, Qt::NoModifier, at(x1, y1));
        };
        doc.setCurrentLayer(1);  // "taper", z [0.6, 0.82]
        w.action(QStringLiteral("tool.sphere"))->trigger();
        QVERIFY(undoRedoRoundTrip(doc, [&] { drag(1.5, 1.0, 1.8, 1.0); }));
        const Shape sphere = doc.project().layers[1].shapes.back();
        QCOMPARE(int(sphere.type), int(ShapeType::Sphere));
        QVERIFY(std::abs(sphere.radius - 0.3) < 0.01);
        QVERIFY(std::abs(sphere.center_3d.z - 0.71) < 1e-9);
        // the inspector edits its z
        doc.setSelection({ItemRef::Kind::Shape, 1, int(doc.project().layers[1].shapes.size()) - 1});
        w.propertiesDock()->rebuild();
        QVERIFY(undoRedoRoundTrip(doc, [&] { QVERIFY(w.propertiesDock()->enterValue(QStringLiteral("Centre z"), 0.5).isEmpty()); }));
        QCOMPARE(doc.project().layers[1].shapes.back().center_3d.z, 0.5);
        // the layer stack's side view shows the selected sphere's z extent
        const auto sz = w.layerStackDock()->diagram()->selectedZ();
        QVERIFY(sz && std::abs((*sz)[0] - (0.5 - sphere.radius)) < 1e-12 && std::abs((*sz)[1] - (0.5 + sphere.radius)) < 1e-12);
        QVERIFY(!w.propertiesDock()->enterValue(QStringLiteral("Radius"), -1).isEmpty());  // refused, marked red

        w.action(QStringLiteral("tool.box"))->trigger();
        QVERIFY(undoRedoRoundTrip(doc, [&] { drag(0.5, 0.4, 1.0, 0.8); }));
        const Shape box = doc.project().layers[1].shapes.back();
        QCOMPARE(int(box.type), int(ShapeType::Box));
        QCOMPARE(box.box_min.z, 0.6);
        QCOMPARE(box.box_max.z, 0.82);
        QVERIFY(std::abs(box.box_max.x - box.box_min.x - 0.5) < 0.01);

        w.action(QStringLiteral("tool.tfsfBox"))->trigger();
        QVERIFY(undoRedoRoundTrip(doc, [&] { drag(1.2, 0.6, 2.2, 1.4); }));
        const Source tf = doc.project().sources.back();
        QCOMPARE(int(tf.type), int(SourceType::Tfsf));
        QVERIFY(std::abs(tf.box_min.z - 0.4) < 1e-9 && std::abs(tf.box_max.z - 1.2) < 1e-9);  // middle half of Lz = 1.6
        w.action(QStringLiteral("tool.fluxBox"))->trigger();
        QVERIFY(undoRedoRoundTrip(doc, [&] { drag(1.1, 0.5, 2.3, 1.5); }));
        const Monitor fb = doc.project().monitors.back();
        QCOMPARE(int(fb.type), int(MonitorType::FluxBox));
        QVERIFY(fb.min_z && fb.max_z && *fb.max_z > *fb.min_z);
        validate_project(doc.project(), "after the 3D tools");
        // a line source drawn in a 3D project becomes a plane spanning the domain in z
        w.action(QStringLiteral("tool.lineSource"))->trigger();
        drag(2.6, 0.3, 2.6, 1.7);
        const Source plane = doc.project().sources.back();
        QCOMPARE(int(plane.type), int(SourceType::Plane));
        QCOMPARE(plane.size.x, 0.0);
        QCOMPARE(plane.size.z, 1.6);
        validate_project(doc.project(), "after a line source in 3D");
        w.action(QStringLiteral("tool.select"))->trigger();
    }

    /// The structure mesh: triangulated caps have the outline's area, a sidewall angle
    /// shrinks the top cap by (z1 - z0) tan(angle) per edge, every item can be picked.
    void structureMesh() {
        // a ring (outer 1.0, inner 0.6): the bridged ear clipping covers pi (1 - 0.36)
        Shape ring;
        ring.type = ShapeType::Ring;
        ring.center = {0, 0};
        ring.outer_radius = 1.0;
        ring.inner_radius = 0.6;
        const auto outline = shape_outline(ring, 1e-4);
        double polyArea = 0;
        for (const auto& r : outline) {
            double a = 0;
            for (size_t i = 0; i < r.size(); ++i) a += r[i].x * r[(i + 1) % r.size()].y - r[(i + 1) % r.size()].x * r[i].y;
            polyArea += 0.5 * a;
        }
        std::vector<Vec2> pts;
        const auto tris = viewport::triangulate_outline(outline, pts);
        const double area = triangle_area(pts, tris);
        std::printf("ring triangulation: %zu triangles, area %.6f (outline %.6f, analytic %.6f)\n", tris.size(), area,
                    polyArea, M_PI * (1 - 0.36));
        QVERIFY(std::abs(area / polyArea - 1) < 1e-9);
        QVERIFY(std::abs(area / (M_PI * 0.64) - 1) < 1e-3);

        // the strip example: the taper's top cap is inset by 0.22 tan(10 deg) = 0.0388 um
        const Project p = load_project((kSourceDir + QStringLiteral("/examples/strip_waveguide_3d.glproj")).toStdString());
        const viewport::StructureMesh m = viewport::build_structure_mesh(p);
        QVERIFY(m.warnings.empty());
        QVERIFY(m.triangles.size() > 30);
        // the right-angle corner (4.0, 0.5) of the taper's wide end: the top cap's corner is
        // at (4.0 - d, 0.5 + d), d = (z1 - z0) tan(angle) (the compiler's inward edge offset)
        const double inset = 0.22 * std::tan(10 * M_PI / 180);
        double topMinY = 1e9, botMinY = 1e9;
        for (const auto& v : m.triangles) {
            const double x = v.p[0], y = v.p[1], z = v.p[2];
            if (y > 0.3 && y < 1.0) {
                if (std::abs(z - 0.82) < 1e-5 && std::abs(x - (4.0 - inset)) < 1e-5) topMinY = std::min(topMinY, y);
                if (std::abs(z - 0.6) < 1e-5 && std::abs(x - 4.0) < 1e-5) botMinY = std::min(botMinY, y);
            }
        }
        std::printf("sidewall: bottom edge y %.5f, top edge y %.5f, inset %.5f um (expected %.5f)\n", botMinY, topMinY,
                    topMinY - botMinY, inset);
        QVERIFY(std::abs(botMinY - 0.5) < 1e-6);
        QVERIFY(std::abs((topMinY - botMinY) - inset) < 1e-6);
        int shapes = 0;
        for (const auto& l : p.layers) shapes += int(l.shapes.size());
        QCOMPARE(int(m.picks.size()), shapes + int(p.sources.size()) + int(p.monitors.size()));
        // a slice plane adds two translucent triangles
        viewport::StructureMeshOptions o;
        o.slice_normal = 1;
        o.slice_position = 1.0;
        QCOMPARE(viewport::build_structure_mesh(p, o).translucent.size(), size_t(6));
        // symmetry planes: each veils the half it does not simulate (a box, 12 triangles) and
        // shows its mirror plane (2); the simulated part is outlined (12 more lines). Two
        // planes (x and z): the veil of z covers only x's upper half.
        Project sym = p;
        sym.domain.symmetry = {1, 0, -1};
        const viewport::StructureMesh ms = viewport::build_structure_mesh(sym);
        QCOMPARE(ms.translucent.size(), size_t(3 * 2 * 14));
        QCOMPARE(ms.lines.size(), m.lines.size() + size_t(2 * (2 * 4 + 12)));
        const double cx = 0.5 * p.domain.size[0], cz = 0.5 * p.domain.size[2];
        bool zVeilStartsAtCx = false;
        for (const auto& v : ms.translucent)
            if (std::abs(v.p[2] - cz) < 1e-5 && std::abs(v.p[0] - cx) < 1e-5) zVeilStartsAtCx = true;
        QVERIFY(zVeilStartsAtCx);
        for (const auto& v : ms.translucent) QVERIFY(v.c[3] < 0.5f);  // see-through
        {
            viewport::StructureView3D view;
            view.resize(640, 420);
            view.setProject(sym);
            QTRY_VERIFY(!view.mesh().translucent.empty());
            view.resetCamera();
            saveShot(&view, QStringLiteral("view3d-symmetry.png"));
        }
    }

    /// The 3D view dock shows the project; a click on the sphere selects it in the editor,
    /// a click on empty space clears the selection; the slice bar moves the slice plane.
    void view3dSelects() {
        app::MainWindow& w = *w_;
        QVERIFY(w.openFile(copyExample(QStringLiteral("gold_nanosphere_3d.glproj"))));
        w.structure3dDock()->show();
        w.structure3dDock()->raise();
        QTRY_VERIFY(w.structure3dDock()->isVisible());
        viewport::StructureView3D* v = w.structureView3d();
        v->resize(420, 320);
        QTRY_VERIFY(!v->mesh().triangles.empty());
        v->resetCamera();
        w.document()->setSelection({});
        // the sphere is at the centre of the domain, the camera looks at the centre of the PML box
        const QPoint centre(v->width() / 2, v->height() / 2);
        const viewport::MeshPick pk = v->pickAt(centre);
        QCOMPARE(pk.kind, 1);
        QTest::mouseClick(v, Qt::LeftButton, Qt::NoModifier, centre);
        QCOMPARE(int(w.document()->selection().kind), int(ItemRef::Kind::Shape));
        QCOMPARE(w.document()->selection().layer, 0);
        QTest::mouseClick(v, Qt::LeftButton, Qt::NoModifier, QPoint(3, 3));
        QVERIFY(!w.document()->selection().valid());
        // orbit by a drag: no pick, the camera turned
        const double yaw = v->yaw();
        QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, centre);
        QTest::mouseMove(v, centre + QPoint(40, 0));
        QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, centre + QPoint(40, 0));
        QVERIFY(std::abs(v->yaw() - yaw) > 5);
        QVERIFY(!w.document()->selection().valid());
        v->resetCamera();
        // the slice bar (idle): sets run.frames, one undo step
        QVERIFY(undoRedoRoundTrip(*w.document(), [&] { w.setSlice(1, 0.1); }));
        QCOMPARE(w.document()->project().run.frames.plane, std::string("xz"));
        QCOMPARE(*w.document()->project().run.frames.position, 0.1);
        w.document()->setSelection({ItemRef::Kind::Shape, 0, 0});
        QTest::qWait(100);
        std::printf("3D view GL: %s\n", qPrintable(v->glInfo()));
        saveShot(v, QStringLiteral("view3d_nanosphere.png"));
        QVERIFY(w.openFile(copyExample(QStringLiteral("strip_waveguide_3d.glproj"))));
        QTest::qWait(100);
        saveShot(v, QStringLiteral("view3d_strip.png"));
        saveShot(w.structure3dDock(), QStringLiteral("view3d_dock.png"));
    }

    /// STEP import into a 3D project: the part is centred in z in the domain (not at
    /// slice_z), the import leaves slice_z alone, and the 3D view meshes the solid.
    void stepImportIn3d() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_OCCT, step_import_available(), "occt");
        editor::EditorDocument doc;
        doc.replaceProject(small_3d_project(), QStringLiteral("3D"));
        StubPrompts prompts;
        editor::StepImportDialog dlg(&doc, &prompts);
        dlg.loadFile(kSourceDir + QStringLiteral("/examples/step_ring.step"));
        QVERIFY(dlg.waitForLoaded(120000));
        const auto& m = dlg.model();
        const double across = std::max(m.bbox_max[0] - m.bbox_min[0], m.bbox_max[1] - m.bbox_min[1]);
        const editor::StepPlacement pl = editor::default_step_placement(m, doc.project(), 0.5 / across);
        const double zMid = pl.translate[2] + pl.scale * 0.5 * (m.bbox_min[2] + m.bbox_max[2]);
        std::printf("STEP in 3D: part z centre %.4f um (domain z centre %.4f um)\n", zMid, 0.5 * doc.project().domain.size[2]);
        QVERIFY(std::abs(zMid - 0.48) < 1e-9);
        QCOMPARE(dlg.sliceZSpin()->value(), 0.48);
        dlg.setPlacement(pl);
        // the Translation z spin box, typed into: the part's z moves by as much
        QDoubleSpinBox* tz = dlg.translateSpin(2);
        QVERIFY(tz);
        const double typedZ = std::round((pl.translate[2] + 0.05) * 1e4) / 1e4;
        tz->setFocus();
        tz->selectAll();
        QTest::keyClicks(tz, QString::number(typedZ, 'f', 4));
        tz->interpretText();
        QCOMPARE(tz->value(), typedZ);
        QCOMPARE(dlg.placement().translate[2], typedZ);
        for (int k = 0; k < int(m.solids.size()); ++k) dlg.setSolidIncluded(k, true);
        const double sliceBefore = doc.project().domain.slice_z;
        QVERIFY(undoRedoRoundTrip(doc, [&] { QVERIFY(dlg.importIntoDocument()); }));
        QCOMPARE(doc.project().domain.slice_z, sliceBefore);
        for (const auto& l : doc.project().layers)
            for (const auto& sh : l.shapes)
                if (sh.type == ShapeType::Step) QCOMPARE(sh.translate[2], typedZ);
        int stepLayer = -1;
        for (int l = 0; l < int(doc.project().layers.size()); ++l)
            for (const auto& sh : doc.project().layers[size_t(l)].shapes)
                if (sh.type == ShapeType::Step) stepLayer = l;
        QVERIFY(stepLayer >= 0);
        validate_project(doc.project(), "STEP in 3D");
        const viewport::StructureMesh mesh = viewport::build_structure_mesh(doc.project());
        QVERIFY2(mesh.warnings.empty(), mesh.warnings.empty() ? "" : mesh.warnings.front().c_str());
        double zlo = 1e9, zhi = -1e9;
        for (const auto& pk : mesh.picks)
            if (pk.kind == 1 && pk.layer == stepLayer) {
                zlo = pk.bounds.lo.z;
                zhi = pk.bounds.hi.z;
            }
        std::printf("STEP solid meshed over z %.4f .. %.4f um\n", zlo, zhi);
        QVERIFY(zlo < 0.48 + 0.05 && zhi > 0.48 + 0.05);  // the part's centre, moved up 0.05 um
    }

    /// The field view of a 3D run outlines sources and monitors where they cut the slice:
    /// the strip's plane source (normal to x) is a line in the xy and in the xz slice.
    void fieldViewOutlines3d() {
        const Project p = load_project((kSourceDir + QStringLiteral("/examples/strip_waveguide_3d.glproj")).toStdString());
        viewport::FieldView view;
        view.resize(700, 450);
        view.setProject(p);
        auto frame = [&](int normal) {
            auto fr = std::make_shared<viewport::FieldFrame>();
            fr->three_d = true;
            fr->slice_normal = normal;
            fr->width = fr->height = 4;
            fr->x0_um = -0.5;
            fr->y0_um = -0.5;
            fr->width_um = fr->height_um = 4;
            fr->values.assign(16, 0.f);
            return fr;
        };
        auto orangeNear = [&](const QImage& img, QPointF at) {
            int n = 0;
            for (int dy = -3; dy <= 3; ++dy)
                for (int dx = -3; dx <= 3; ++dx) {
                    const QPoint q = at.toPoint() + QPoint(dx, dy);
                    if (!img.rect().contains(q)) continue;
                    const QColor c = img.pixelColor(q);
                    n += c.red() > 230 && c.green() > 120 && c.green() < 180 && c.blue() < 90;
                }
            return n;
        };
        view.setView(120, QPointF(1.5, 1.0));
        view.showFrame(frame(2));
        const QImage xy = view.renderToImage(QSize(700, 450));
        const int xyHits = orangeNear(xy, view.toScreen(QPointF(0.5, 1.0)));
        view.showFrame(frame(1));  // xz: the plane spans z 0.11 .. 1.31 at x = 0.5
        const QImage xz = view.renderToImage(QSize(700, 450));
        const int xzHits = orangeNear(xz, view.toScreen(QPointF(0.5, 0.71)));
        const int offHits = orangeNear(xz, view.toScreen(QPointF(1.5, 0.71)));
        std::printf("plane source outline pixels: xy %d, xz %d, away from it %d\n", xyHits, xzHits, offHits);
        QVERIFY(xyHits >= 3);
        QVERIFY(xzHits >= 3);
        QCOMPARE(offHits, 0);
    }

    /// Examples menu: the two 3D examples are there and open.
    void examplesMenu() {
        app::MainWindow& w = *w_;
        for (const char* name : {"examples.strip_waveguide_3d", "examples.gold_nanosphere_3d", "examples.quickstart"})
            QVERIFY2(w.action(QString::fromLatin1(name)), name);
        w.action(QStringLiteral("examples.gold_nanosphere_3d"))->trigger();
        QVERIFY(w.document()->filePath().endsWith(QStringLiteral("gold_nanosphere_3d.glproj")));
        QCOMPARE(w.document()->project().domain.dimensions, 3);
    }

    /// A 3D run from the IDE: frames of the xy slice, then (paused, then resumed) of the xz
    /// slice chosen in the slice bar, without a restart; the structure image follows; the
    /// scattering cross-section (um^2) of the flux box is plotted.
    void run3dLiveSlice() {
        app::MainWindow& w = *w_;
        const QString path = dir_.filePath(QStringLiteral("small3d.glproj"));
        save_project(small_3d_project(), path.toStdString());
        QVERIFY(w.openFile(path));
        w.showFieldView(true);
        app::SolverSettings s;
        s.threads = 1;
        s.framesPerSecond = 60;
        s.liveEverySteps = 50;
        s.pauseAtMainTimeFs = 6;
        QSignalSpy finished(w.runController(), &app::RunController::finished);
        QSignalSpy paused(w.runController(), &app::RunController::pausedChanged);
        QVERIFY(w.startRun(&s));
        QTRY_VERIFY_WITH_TIMEOUT(w.runController()->isPaused() || !finished.isEmpty(), 60000);
        QVERIFY2(finished.isEmpty(), "the run ended before it paused");
        QTRY_VERIFY_WITH_TIMEOUT(w.fieldView()->currentFrame() != nullptr, 10000);
        auto fr = w.fieldView()->currentFrame();
        QVERIFY(fr->three_d);
        QCOMPARE(fr->slice_normal, 2);
        QVERIFY(std::abs(fr->slice_position_um - 0.4) < 0.021);
        const CompiledProject cp = compile_project(small_3d_project(), "small3d");
        QCOMPARE(fr->width, cp.scene.nx);   // 36 cells, no box averaging at 512
        QCOMPARE(fr->height, cp.scene.ny);
        std::printf("3D run paused at step %lld: xy frame %dx%d at z = %.3f um\n", (long long)fr->step, fr->width,
                    fr->height, fr->slice_position_um);
        saveShot(&w, QStringLiteral("run3d_xy_paused.png"));
        // the slice bar while running: xz at y = 0.4 (no restart: the step count goes on)
        const std::int64_t stepAtSwitch = fr->step;
        w.setSlice(1, 0.4);
        QCOMPARE(w.document()->project().run.frames.plane, std::string("xy"));  // the project is untouched
        w.runController()->resume();
        QTRY_VERIFY_WITH_TIMEOUT(w.fieldView()->currentFrame() && w.fieldView()->currentFrame()->slice_normal == 1, 20000);
        fr = w.fieldView()->currentFrame();
        QVERIFY(fr->step > stepAtSwitch);
        QCOMPARE(fr->width, cp.scene.nx);
        QCOMPARE(fr->height, cp.scene.nz);
        QVERIFY(std::abs(fr->slice_position_um - 0.4) < 0.021);
        double mx = 0;
        for (float v : fr->values) mx = std::max(mx, double(std::abs(v)));
        QVERIFY(mx > 0);  // the wave crosses the xz plane through the sphere
        std::printf("after the switch: xz frame %dx%d at y = %.3f um, step %lld (> %lld), max |Ez| %.3g\n", fr->width,
                    fr->height, fr->slice_position_um, (long long)fr->step, (long long)stepAtSwitch, mx);
        saveShot(&w, QStringLiteral("run3d_xz_running.png"));

        // the Run setup dock's slice fields move the live slice too (the bar's path), and
        // leave the project alone: paused, the plane to yz (at the domain's x centre), then
        // the position to x = 0.3 um
        w.runController()->pause();
        QTRY_VERIFY_WITH_TIMEOUT(w.runController()->isPaused() || !finished.isEmpty(), 20000);
        QVERIFY2(finished.isEmpty(), "the run ended before the Run setup slice was changed");
        // the cross-section plot has data during the run, not only at its end
        QCustomPlot* cross = w.monitorsDock()->crossSectionPlot();
        QTRY_VERIFY_WITH_TIMEOUT(plots::MonitorsDock::pointCount(cross) > 0, 10000);
        QVERIFY(w.runController()->isRunning());
        std::printf("cross-section plot during the run: %d points at step %lld\n", plots::MonitorsDock::pointCount(cross),
                    (long long)w.fieldView()->currentFrame()->step);
        editor::RunSetupDock* rd = w.runSetupDock();
        const Project projectBefore = w.document()->project();
        const int undoBefore = w.document()->undoStack()->count();
        std::int64_t stepAtYz = w.fieldView()->currentFrame()->step;  // (a new slice clears the frames)
        rd->framesPlane()->setCurrentIndex(2);
        Q_EMIT rd->framesPlane()->activated(2);
        QVERIFY(w.document()->project() == projectBefore);
        QCOMPARE(w.document()->undoStack()->count(), undoBefore);
        QCOMPARE(w.findChild<QComboBox*>(QStringLiteral("run.slicePlane"))->currentIndex(), 2);  // the bar follows
        QCOMPARE(rd->framesPosition()->value(), 0.4);  // x centre of the 0.8 um domain
        w.runController()->resume();
        QTRY_VERIFY_WITH_TIMEOUT(w.fieldView()->currentFrame() && w.fieldView()->currentFrame()->slice_normal == 0, 20000);
        fr = w.fieldView()->currentFrame();
        QVERIFY(fr->step > stepAtYz);
        QCOMPARE(fr->width, cp.scene.ny);
        QCOMPARE(fr->height, cp.scene.nz);
        QVERIFY(std::abs(fr->slice_position_um - 0.4) < 0.021);
        std::printf("Run setup -> yz: frame %dx%d at x = %.3f um, step %lld\n", fr->width, fr->height, fr->slice_position_um,
                    (long long)fr->step);
        w.runController()->pause();
        QTRY_VERIFY_WITH_TIMEOUT(w.runController()->isPaused() || !finished.isEmpty(), 20000);
        QVERIFY2(finished.isEmpty(), "the run ended before the Run setup position was changed");
        stepAtYz = w.fieldView()->currentFrame() ? w.fieldView()->currentFrame()->step : 0;
        rd->framesPosition()->setValue(0.3);
        QVERIFY(w.document()->project() == projectBefore);
        QCOMPARE(w.findChild<QDoubleSpinBox*>(QStringLiteral("run.slicePosition"))->value(), 0.3);
        w.runController()->resume();
        QTRY_VERIFY_WITH_TIMEOUT(w.fieldView()->currentFrame() && w.fieldView()->currentFrame()->slice_normal == 0 &&
                                     std::abs(w.fieldView()->currentFrame()->slice_position_um - 0.3) < 0.021,
                                 20000);
        QVERIFY(w.fieldView()->currentFrame()->step > stepAtYz);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        // the run setup shows run.frames again; the cross-section of the eps 4 sphere, um^2:
        // between 0 and a few times pi r^2
        QCOMPARE(rd->framesPlane()->currentText(), QStringLiteral("xy"));
        QVERIFY(plots::MonitorsDock::pointCount(cross) >= 11);
        QVERIFY(cross->yAxis->label().contains(QStringLiteral("µm²")));
        const auto result = w.runController()->lastResult();
        QVERIFY(result && !result->spectra.empty());
        const double geo = M_PI * 0.15 * 0.15;
        double lo = 1e9, hi = -1e9;
        for (double v : result->spectra[0].normalized) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        std::printf("sigma_sca over 0.7-1.2 um: %.4f .. %.4f um^2 (geometric pi r^2 = %.4f um^2)\n", lo, hi, geo);
        QVERIFY(lo > 0.005 * geo && hi < 4 * geo);
        w.monitorsDock()->tabs()->setCurrentWidget(cross);
        QTest::qWait(300);
        saveShot(w.monitorsDock(), QStringLiteral("monitors_cross_sections.png"));
        w.showFieldView(false);
    }

    /// Issue 55 item 4: a slice changed while the reference run goes (xy to xz) is the one
    /// the main run's frames show; the run finishes. (The run driver sets run.frames'
    /// slice on each phase's engine, and the frames were made for the GUI's slice: "the
    /// engine's samples do not match the frame size" ended the run when the main run
    /// started.) Then yz during the main run.
    void sliceChangeDuringReferenceRun() {
        app::MainWindow& w = *w_;
        Project p = load_project(std::filesystem::path((kSourceDir + QStringLiteral("/examples/strip_waveguide_3d.glproj")).toStdString()));
        p.domain.cell_size = 0.1;  // a cheap grid: what matters is the planes' sizes
        p.domain.pml.cells = 6;
        p.run.stop.max_time_fs = 30;
        p.run.frames.every_steps = 2;
        QVERIFY(p.run.normalization.enabled);
        const QString path = dir_.filePath(QStringLiteral("strip3d_slices.glproj"));
        save_project(p, path.toStdString());
        QVERIFY(w.openFile(path));
        QCOMPARE(w.document()->project().run.frames.plane, std::string("xy"));
        app::SolverSettings s;
        s.threads = 1;
        s.framesPerSecond = 120;
        s.liveEverySteps = 50;
        s.pauseAtMainTimeFs = 3;
        s.pausePhase = "reference";
        QSignalSpy finished(w.runController(), &app::RunController::finished);
        QVERIFY(w.startRun(&s));
        QTRY_VERIFY_WITH_TIMEOUT(w.runController()->isPaused() || !finished.isEmpty(), 60000);
        QVERIFY2(finished.isEmpty(), "the run ended before the reference run paused");
        QCOMPARE(w.runController()->currentPhase(), QStringLiteral("reference"));
        w.setSlice(1, 1.0);  // xz through the strip's axis
        w.runController()->resume();
        // the main run's frames show xz (or the run failed: its message)
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() ||
                                     (w.runController()->currentPhase() == QStringLiteral("main") &&
                                      w.fieldView()->currentFrame() && w.fieldView()->currentFrame()->slice_normal == 1 &&
                                      w.fieldView()->currentFrame()->step > 0),
                                 60000);
        if (!finished.isEmpty()) QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        const CompiledProject cp = compile_project(p, "strip3d");
        auto fr = w.fieldView()->currentFrame();
        QVERIFY(fr && fr->slice_normal == 1);
        QCOMPARE(fr->width, cp.scene.nx);
        QCOMPARE(fr->height, cp.scene.nz);
        std::printf("main run after an xz slice chosen in the reference run: frame %dx%d, step %lld\n", fr->width,
                    fr->height, (long long)fr->step);
        if (finished.isEmpty()) {
            w.setSlice(0, 2.0);  // yz during the main run
            QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() ||
                                         (w.fieldView()->currentFrame() && w.fieldView()->currentFrame()->slice_normal == 0),
                                     60000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        QVERIFY(w.runController()->lastResult() && w.runController()->lastResult()->normalized);
        w.showFieldView(false);
    }
};

QTEST_MAIN(TestIde3d)
#include "tst_ide3d.moc"
