// Canvas and tools driven by QTest mouse and key events: each shape kind, select / move /
// delete / duplicate, snapping, zoom and pan, the Properties dock, sources and monitors,
// brush and eraser strokes (coverage sums), painting speed on a 4000 x 4000 raster.
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QTest>

#include <cmath>
#include <numeric>

#include "canvas.hpp"
#include "docks.hpp"
#include "editor_document.hpp"
#include "golightly/geometry.hpp"
#include "gui_test_util.hpp"
#include "tools.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::undoRedoRoundTrip;

namespace {

struct Fixture {
    EditorDocument doc;
    Canvas canvas{&doc};
    ToolSettings settings;
    Fixture() {
        canvas.resize(800, 600);
        canvas.show();
        (void)QTest::qWaitForWindowExposed(&canvas);
        // 50 px per um, domain centre (5, 4) in the middle: grid step 0.5 um
        canvas.setView(50, QPointF(5, 4));
    }
    QPoint at(double x, double y) const { return canvas.toScreen(QPointF(x, y)).toPoint(); }
    void drag(double x0, double y0, double x1, double y1) {
        QTest::mousePress(&canvas, Qt::LeftButton, Qt::NoModifier, at(x0, y0));
        QTest::mouseMove(&canvas, at((x0 + x1) / 2, (y0 + y1) / 2));
        QTest::mouseMove(&canvas, at(x1, y1));
        QTest::mouseRelease(&canvas, Qt::LeftButton, Qt::NoModifier, at(x1, y1));
    }
    void click(double x, double y) { QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier, at(x, y)); }
    const std::vector<Shape>& shapes(int layer = 0) const { return doc.project().layers[size_t(layer)].shapes; }
};

double rasterArea(const Shape& raster) {
    const auto c = decode_raster_coverage(raster);
    return std::accumulate(c.begin(), c.end(), 0.0) * raster.pixel_size * raster.pixel_size;
}

}  // namespace

class TestCanvasTools : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void viewTransformZoomPan() {
        Fixture f;
        QCOMPARE(f.canvas.gridStep(), 0.5);
        const QPointF w = f.canvas.toWorld(f.canvas.toScreen(QPointF(1.25, 7.5)));
        QVERIFY(std::abs(w.x() - 1.25) < 1e-9 && std::abs(w.y() - 7.5) < 1e-9);
        // y up: a larger y is higher on screen
        QVERIFY(f.at(5, 6).y() < f.at(5, 2).y());
        // wheel zoom keeps the point under the cursor fixed
        const QPoint anchor = f.at(2, 3);
        QWheelEvent wheel(anchor, f.canvas.mapToGlobal(anchor), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(&f.canvas, &wheel);
        QCOMPARE(f.canvas.pixelsPerUm(), 50 * 1.25);
        const QPointF still = f.canvas.toWorld(anchor);
        QVERIFY(std::abs(still.x() - 2) < 0.02 && std::abs(still.y() - 3) < 0.02);
        // middle-button pan by 100 px right moves the view centre 100/scale um left
        const QPointF c0 = f.canvas.viewCenter();
        QTest::mousePress(&f.canvas, Qt::MiddleButton, Qt::NoModifier, QPoint(300, 300));
        QTest::mouseMove(&f.canvas, QPoint(400, 300));
        QTest::mouseRelease(&f.canvas, Qt::MiddleButton, Qt::NoModifier, QPoint(400, 300));
        QVERIFY(std::abs(f.canvas.viewCenter().x() - (c0.x() - 100 / f.canvas.pixelsPerUm())) < 1e-9);
        f.canvas.zoomToFit();
        QVERIFY(f.canvas.toScreen(QRectF(0, 0, 10, 8)).width() < 800);
        f.canvas.zoomOneToOne();
        QCOMPARE(f.canvas.pixelsPerUm(), 1 / f.doc.project().domain.cell_size);
        // cursor readout
        f.canvas.setView(50, QPointF(5, 4));
        QPointF seen;
        QObject::connect(&f.canvas, &Canvas::cursorMoved, [&](QPointF p) { seen = p; });
        QTest::mouseMove(&f.canvas, f.at(3, 2));
        QVERIFY(std::abs(seen.x() - 3) < 0.02 && std::abs(seen.y() - 2) < 0.02);
    }

    void drawRectangle() {
        Fixture f;
        DragShapeTool tool(&f.canvas, &f.settings, DragShapeTool::Kind::Rectangle);
        f.canvas.setTool(&tool);
        QVERIFY(undoRedoRoundTrip(f.doc, [&] { f.drag(1.02, 1.01, 3.48, 2.03); }));  // snaps to the 0.5 um grid
        QCOMPARE(int(f.shapes().size()), 1);
        const Shape& s = f.shapes()[0];
        QCOMPARE(s.type, ShapeType::Rectangle);
        QCOMPARE(s.min, (Vec2{1.0, 1.0}));
        QCOMPARE(s.max, (Vec2{3.5, 2.0}));
        // a click without a drag draws nothing
        f.click(6, 6);
        QCOMPARE(int(f.shapes().size()), 1);
        // the new shape is selected
        f.drag(5, 5, 6, 6);
        QCOMPARE(f.doc.selection(), (ItemRef{ItemRef::Kind::Shape, 0, 1}));
        f.canvas.setTool(nullptr);
    }

    void drawEllipseAndRing() {
        Fixture f;
        DragShapeTool ellipse(&f.canvas, &f.settings, DragShapeTool::Kind::Ellipse);
        f.canvas.setTool(&ellipse);
        f.drag(2, 2, 5, 4);
        QCOMPARE(f.shapes().back().type, ShapeType::Ellipse);
        QCOMPARE(f.shapes().back().center, (Vec2{3.5, 3.0}));
        QCOMPARE(f.shapes().back().radii, (Vec2{1.5, 1.0}));
        DragShapeTool ring(&f.canvas, &f.settings, DragShapeTool::Kind::Ring);
        f.settings.ringInnerRatio = 0.5;
        f.canvas.setTool(&ring);
        f.drag(7, 6, 9, 6);
        const Shape& r = f.shapes().back();
        QCOMPARE(r.type, ShapeType::Ring);
        QCOMPARE(r.center, (Vec2{7, 6}));
        QCOMPARE(r.outer_radius, 2.0);
        QCOMPARE(r.inner_radius, 1.0);
        f.canvas.setTool(nullptr);
    }

    void drawPolygonAndPath() {
        Fixture f;
        f.canvas.setSnapEnabled(false);
        PointsTool poly(&f.canvas, &f.settings, PointsTool::Kind::Polygon);
        f.canvas.setTool(&poly);
        f.click(1, 1);
        f.click(3, 1);
        f.click(2, 3);
        QTest::keyClick(&f.canvas, Qt::Key_Return);
        QCOMPARE(int(f.shapes().size()), 1);
        QCOMPARE(f.shapes()[0].type, ShapeType::Polygon);
        QCOMPARE(int(f.shapes()[0].points.size()), 3);
        QVERIFY(std::abs(f.shapes()[0].points[2].x - 2) < 0.02 && std::abs(f.shapes()[0].points[2].y - 3) < 0.02);
        // Escape cancels, Backspace removes the last point; two points are not a polygon
        f.click(5, 5);
        f.click(6, 5);
        QTest::keyClick(&f.canvas, Qt::Key_Backspace);
        QTest::keyClick(&f.canvas, Qt::Key_Return);
        QCOMPARE(int(f.shapes().size()), 1);

        f.canvas.setSnapEnabled(true);
        PointsTool path(&f.canvas, &f.settings, PointsTool::Kind::Path);
        f.settings.pathWidthUm = 0.45;
        f.settings.bendRadiusUm = 1.5;
        f.canvas.setTool(&path);
        f.click(0.5, 2);
        f.click(5, 2);
        QTest::mouseDClick(&f.canvas, Qt::LeftButton, Qt::NoModifier, f.at(5, 7));
        QCOMPARE(int(f.shapes().size()), 2);
        const Shape& p = f.shapes()[1];
        QCOMPARE(p.type, ShapeType::Path);
        QCOMPARE(int(p.points.size()), 3);
        QCOMPARE(p.points[0], (Vec2{0.5, 2}));
        QCOMPARE(p.points[2], (Vec2{5, 7}));
        QCOMPARE(p.width, 0.45);
        QVERIFY(p.bend_radius && *p.bend_radius == 1.5);
        QVERIFY(!shape_painter_path(p, 0.01).isEmpty());
        f.canvas.setTool(nullptr);
    }

    void lockedLayerRefusesShapes() {
        Fixture f;
        f.doc.editLayer(0, QStringLiteral("lock"), [](Layer& l) { l.locked = true; });
        DragShapeTool tool(&f.canvas, &f.settings, DragShapeTool::Kind::Rectangle);
        QString msg;
        QObject::connect(&tool, &Tool::message, [&](const QString& m) { msg = m; });
        f.canvas.setTool(&tool);
        f.drag(1, 1, 2, 2);
        QVERIFY(f.shapes().empty());
        QVERIFY(msg.contains(QStringLiteral("locked")));
        f.canvas.setTool(nullptr);
    }

    void selectMoveDeleteDuplicate() {
        Fixture f;
        Shape s;
        s.type = ShapeType::Rectangle;
        s.min = {1, 1};
        s.max = {3, 2};
        f.doc.addShape(0, s, QStringLiteral("add"));
        f.doc.setSelection({});
        SelectTool select(&f.canvas, &f.settings);
        f.canvas.setTool(&select);
        f.click(6, 6);
        QVERIFY(!f.doc.selection().valid());
        // drag the rectangle by (+1.5, +1) um (snapped to the grid)
        QVERIFY(undoRedoRoundTrip(f.doc, [&] { f.drag(2, 1.5, 3.52, 2.49); }));
        QCOMPARE(f.doc.selection(), (ItemRef{ItemRef::Kind::Shape, 0, 0}));
        QCOMPARE(f.shapes()[0].min, (Vec2{2.5, 2.0}));
        QCOMPARE(f.shapes()[0].max, (Vec2{4.5, 3.0}));
        // arrow key: one grid step
        QTest::keyClick(&f.canvas, Qt::Key_Left);
        QCOMPARE(f.shapes()[0].min, (Vec2{2.0, 2.0}));
        // duplicate and delete
        f.doc.duplicateItem(f.doc.selection(), 0.5, -0.5);
        QCOMPARE(int(f.shapes().size()), 2);
        QCOMPARE(f.shapes()[1].min, (Vec2{2.5, 1.5}));
        QCOMPARE(f.doc.selection().index, 1);
        f.doc.removeItem(f.doc.selection());
        QCOMPARE(int(f.shapes().size()), 1);
        f.canvas.setTool(nullptr);
    }

    void resizeAndRotateWithHandles() {
        Fixture f;
        Shape s;
        s.type = ShapeType::Rectangle;
        s.min = {1, 1};
        s.max = {3, 2};
        f.doc.addShape(0, s, QStringLiteral("add"));
        SelectTool select(&f.canvas, &f.settings);
        f.canvas.setTool(&select);
        // drag the top-right handle to (4, 3): scaled about the bottom-left corner
        const QPoint handle = f.at(3, 2) + QPoint(4, -4);
        QVERIFY(undoRedoRoundTrip(f.doc, [&] {
            QTest::mousePress(&f.canvas, Qt::LeftButton, Qt::NoModifier, handle);
            QTest::mouseMove(&f.canvas, f.at(3.6, 2.7));
            QTest::mouseRelease(&f.canvas, Qt::LeftButton, Qt::NoModifier, f.at(4, 3));
        }));
        QCOMPARE(f.shapes()[0].min, (Vec2{1, 1}));
        QCOMPARE(f.shapes()[0].max, (Vec2{4, 3}));
        // Shift+drag a handle of an ellipse by a quarter turn about its centre
        Shape e;
        e.type = ShapeType::Ellipse;
        e.center = {6, 5};
        e.radii = {1, 0.5};
        f.doc.addShape(0, e, QStringLiteral("add"));
        const QPointF corner = f.canvas.toWorld(f.at(7, 5.5) + QPoint(4, -4));
        const QPointF v = corner - QPointF(6, 5);
        const QPointF turned = QPointF(6, 5) + QPointF(-v.y(), v.x());
        QTest::mousePress(&f.canvas, Qt::LeftButton, Qt::ShiftModifier, f.at(7, 5.5) + QPoint(4, -4));
        QTest::mouseMove(&f.canvas, f.canvas.toScreen(turned).toPoint());
        QTest::mouseRelease(&f.canvas, Qt::LeftButton, Qt::ShiftModifier, f.canvas.toScreen(turned).toPoint());
        QCOMPARE(f.shapes()[1].rotation_deg, 90.0);
        QCOMPARE(f.shapes()[1].center, (Vec2{6, 5}));
        QCOMPARE(f.shapes()[1].radii, (Vec2{1, 0.5}));
        f.canvas.setTool(nullptr);
    }

    void snapToVertices() {
        Fixture f;
        Shape s;
        s.type = ShapeType::Polygon;
        s.points = {{1.13, 1.07}, {3, 1}, {2, 3}};
        f.doc.addShape(0, s, QStringLiteral("add"));
        // within 8 px of a vertex: the vertex wins over the grid
        const QPointF snapped = f.canvas.snap(QPointF(1.2, 1.1));
        QCOMPARE(snapped, QPointF(1.13, 1.07));
        QCOMPARE(f.canvas.snap(QPointF(4.1, 4.2)), QPointF(4.0, 4.0));
        f.canvas.setSnapEnabled(false);
        QCOMPARE(f.canvas.snap(QPointF(4.1, 4.2)), QPointF(4.1, 4.2));
    }

    void propertiesDockEditsShape() {
        Fixture f;
        PropertiesDock dock(&f.doc);
        Shape s;
        s.type = ShapeType::Ellipse;
        s.center = {2, 2};
        s.radii = {1, 1};
        f.doc.addShape(0, s, QStringLiteral("add"));
        dock.rebuild();
        auto* rx = qobject_cast<QDoubleSpinBox*>(dock.field(QStringLiteral("Radius x")));
        QVERIFY(rx);
        QVERIFY(undoRedoRoundTrip(f.doc, [&] {
            rx->setValue(1.75);
            Q_EMIT rx->editingFinished();
        }));
        QCOMPARE(f.shapes()[0].radii.x, 1.75);
        dock.rebuild();
        auto* cx = qobject_cast<QDoubleSpinBox*>(dock.field(QStringLiteral("Centre x")));
        QVERIFY(cx);
        QCOMPARE(cx->value(), 2.0);
        // a source's name
        Source src;
        src.name = "a";
        f.doc.addSource(src);
        dock.rebuild();
        auto* name = qobject_cast<QLineEdit*>(dock.field(QStringLiteral("Name")));
        QVERIFY(name);
        name->setText(QStringLiteral("input"));
        Q_EMIT name->editingFinished();
        QCOMPARE(f.doc.project().sources[0].name, std::string("input"));
    }

    void sourceAndMonitorTools() {
        Fixture f;
        SourceTool point(&f.canvas, &f.settings, SourceType::Point);
        f.canvas.setTool(&point);
        f.click(1, 4);
        SourceTool line(&f.canvas, &f.settings, SourceType::Line);
        f.canvas.setTool(&line);
        f.drag(2, 3, 2, 5);
        MonitorTool flux(&f.canvas, &f.settings, MonitorType::Flux);
        f.canvas.setTool(&flux);
        f.drag(8, 3, 8, 5);
        f.drag(3, 7, 6, 7);
        MonitorTool probe(&f.canvas, &f.settings, MonitorType::Time);
        f.canvas.setTool(&probe);
        f.click(5, 4);
        MonitorTool dft(&f.canvas, &f.settings, MonitorType::DftField);
        f.canvas.setTool(&dft);
        f.drag(6, 1, 9, 2.5);
        SourceTool region(&f.canvas, &f.settings, SourceType::Region);
        f.canvas.setTool(&region);
        f.drag(0.5, 6, 1.5, 7.5);
        const Project& p = f.doc.project();
        QCOMPARE(int(p.sources.size()), 3);
        QCOMPARE(p.sources[2].type, SourceType::Region);
        QVERIFY(p.sources[2].shape && p.sources[2].shape->min == (Vec2{0.5, 6}) && p.sources[2].shape->max == (Vec2{1.5, 7.5}));
        QCOMPARE(p.sources[0].type, SourceType::Point);
        QCOMPARE(p.sources[0].at, (Vec2{1, 4}));
        QCOMPARE(p.sources[1].type, SourceType::Line);
        QCOMPARE(p.sources[1].from, (Vec2{2, 3}));
        QCOMPARE(p.sources[1].to, (Vec2{2, 5}));
        QVERIFY(p.sources[0].name != p.sources[1].name);
        QCOMPARE(int(p.monitors.size()), 4);
        QCOMPARE(p.monitors[3].type, MonitorType::DftField);
        QVERIFY(p.monitors[3].min && *p.monitors[3].min == (Vec2{6, 1}) && *p.monitors[3].max == (Vec2{9, 2.5}));
        QCOMPARE(int(p.monitors[3].wavelengths.size()), 1);
        validate_project(p, "drawn");
        QCOMPARE(p.monitors[0].direction, std::string("+x"));
        QCOMPARE(p.monitors[1].direction, std::string("+y"));
        QCOMPARE(p.monitors[2].type, MonitorType::Time);
        QVERIFY(p.monitors[2].at && *p.monitors[2].at == (Vec2{5, 4}));
        // hit test finds them; everything is drawn without trouble
        QCOMPARE(f.canvas.hitTest(QPointF(8, 4)), (ItemRef{ItemRef::Kind::Monitor, -1, 0}));
        QCOMPARE(f.canvas.hitTest(QPointF(2, 4)), (ItemRef{ItemRef::Kind::Source, -1, 1}));
        const QImage drawn = f.canvas.grab().toImage();
        QVERIFY(golightly::test::distinctColours(drawn) >= 3);
        f.doc.undoStack()->setIndex(0);  // without the sources and monitors the picture differs
        QVERIFY(f.canvas.grab().toImage() != drawn);
        f.doc.undoStack()->setIndex(f.doc.undoStack()->count());
        f.canvas.setTool(nullptr);
    }

    void structurePreview() {
        Fixture f;
        Shape s;
        s.type = ShapeType::Rectangle;
        s.min = {2.0, 2.0};
        s.max = {6.0, 5.0};
        f.doc.addShape(0, s, QStringLiteral("add"));  // silicon, eps 12.11
        f.canvas.setStructurePreview(true);
        QVERIFY2(f.canvas.previewError().isEmpty(), qPrintable(f.canvas.previewError()));
        QCOMPARE(f.canvas.previewEpsAt(QPointF(4.0, 3.5)), 12.11);
        QCOMPARE(f.canvas.previewEpsAt(QPointF(1.0, 1.0)), 1.0);
        // the E sample on the rectangle's edge (x = 2.0) has half its cell covered: mean eps
        QVERIFY(std::abs(f.canvas.previewEpsAt(QPointF(2.0, 3.5)) - (1 + 12.11) / 2) < 1e-6);
        // PML cells are part of the preview (outside the interior)
        QCOMPARE(f.canvas.previewEpsAt(QPointF(-0.1, 3.5)), 1.0);
        const QImage with = f.canvas.grab().toImage();
        // it follows edits
        f.doc.undoStack()->undo();
        QCOMPARE(f.canvas.previewEpsAt(QPointF(4.0, 3.5)), 1.0);
        const QImage without = f.canvas.grab().toImage();
        // the eps 12 block is drawn darker than the vacuum that replaces it
        const QPoint inside = f.canvas.toScreen(QPointF(4.0, 3.5)).toPoint();
        QVERIFY(QColor(with.pixel(inside)).lightness() + 40 < QColor(without.pixel(inside)).lightness());
        f.canvas.setStructurePreview(false);
        QVERIFY(std::isnan(f.canvas.previewEpsAt(QPointF(4.0, 3.5))));
    }

    void brushAndEraserStroke() {
        Fixture f;
        f.settings.brushSizeUm = 1.0;
        f.settings.brushHardness = 1.0;
        BrushTool brush(&f.canvas, &f.settings, false);
        f.canvas.setTool(&brush);
        // one stroke from (2, 4) to (6, 4): a 4 x 1 um band with round caps
        QVERIFY(undoRedoRoundTrip(f.doc, [&] {
            QTest::mousePress(&f.canvas, Qt::LeftButton, Qt::NoModifier, f.at(2, 4));
            for (int i = 1; i <= 8; ++i) QTest::mouseMove(&f.canvas, f.at(2 + 0.5 * i, 4));
            QTest::mouseRelease(&f.canvas, Qt::LeftButton, Qt::NoModifier, f.at(6, 4));
        }));
        QCOMPARE(int(f.shapes().size()), 1);
        const Shape r = f.shapes()[0];
        QCOMPARE(r.type, ShapeType::Raster);
        QCOMPARE(r.pixel_size, f.doc.project().domain.cell_size / 4);
        QCOMPARE(r.width_px, 2000);
        QCOMPARE(r.height_px, 1600);
        const double painted = rasterArea(r);
        const double expected = 4.0 * 1.0 + M_PI * 0.25;
        QVERIFY2(std::abs(painted - expected) < 0.01 * expected, qPrintable(QString::number(painted)));
        // erase a vertical 1 um band through the middle: removes 1 x 1 um
        BrushTool eraser(&f.canvas, &f.settings, true);
        f.canvas.setTool(&eraser);
        QVERIFY(undoRedoRoundTrip(f.doc, [&] {
            QTest::mousePress(&f.canvas, Qt::LeftButton, Qt::NoModifier, f.at(4, 2));
            for (int i = 1; i <= 8; ++i) QTest::mouseMove(&f.canvas, f.at(4, 2 + 0.5 * i));
            QTest::mouseRelease(&f.canvas, Qt::LeftButton, Qt::NoModifier, f.at(4, 6));
        }));
        QCOMPARE(int(f.shapes().size()), 1);
        const double left = rasterArea(f.shapes()[0]);
        QVERIFY2(std::abs(left - (expected - 1.0)) < 0.01 * expected, qPrintable(QString::number(left)));
        // soft brush: partial coverage at the edge
        f.settings.brushHardness = 0.0;
        f.canvas.setTool(&brush);
        f.click(8, 6);
        const auto cov = decode_raster_coverage(f.shapes()[0]);
        int partial = 0;
        for (float c : cov) partial += (c > 0.05f && c < 0.95f) ? 1 : 0;
        QVERIFY(partial > 1000);
        const double soft = rasterArea(f.shapes()[0]) - left;
        // integral of the smoothstep profile 1 - t^2 (3 - 2t) over the disc: 3 pi R^2 / 10
        QVERIFY2(std::abs(soft - 0.3 * M_PI * 0.25) < 0.03 * 0.3 * M_PI * 0.25, qPrintable(QString::number(soft)));
        if (const QByteArray dir = qgetenv("GOLIGHTLY_TEST_GRAB_DIR"); !dir.isEmpty())  // for looking at it
            f.canvas.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/brush.png"));
        f.canvas.setTool(nullptr);
    }

    void brushIsFluidOn4000Raster() {
        Fixture f;
        f.doc.editProject(QStringLiteral("big"), [](Project& p) {
            p.domain.size = {20, 20, 0};
            p.domain.cell_size = 0.02;
        });
        f.canvas.setView(40, QPointF(10, 10));
        f.settings.brushSizeUm = 0.5;
        f.settings.brushHardness = 0.7;
        BrushTool brush(&f.canvas, &f.settings, false);
        f.canvas.setTool(&brush);
        QTest::mousePress(&f.canvas, Qt::LeftButton, Qt::NoModifier, f.at(1, 1));
        QElapsedTimer t;
        t.start();
        const int moves = 200;
        for (int i = 1; i <= moves; ++i) {
            QTest::mouseMove(&f.canvas, f.at(1 + 0.09 * i, 1 + 0.05 * i));
            QCoreApplication::processEvents();  // includes the dirty-rectangle repaints
        }
        const double perMoveMs = double(t.elapsed()) / moves;
        t.restart();
        QTest::mouseRelease(&f.canvas, Qt::LeftButton, Qt::NoModifier, f.at(1 + 0.09 * moves, 1 + 0.05 * moves));
        const double commitMs = double(t.elapsed());
        qInfo("4000x4000 raster: %.2f ms per mouse move (with repaint), %.0f ms to commit the stroke", perMoveMs,
              commitMs);
        QCOMPARE(f.shapes()[0].width_px, 4000);
        QCOMPARE(f.shapes()[0].height_px, 4000);
        QVERIFY2(perMoveMs < 30, "painting a 4000 x 4000 raster is not fluid");
        f.canvas.setTool(nullptr);
    }
};

QTEST_MAIN(TestCanvasTools)
#include "tst_canvas_tools.moc"
