// Layers, Materials and Run setup docks (each change one undo step); import of a
// generated GoLightly bitmap model (exact source / monitor pixel counts and eps values);
// canvas export as PNG and SVG; the main window's tool shortcuts.
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>
#include <QFile>
#include <QImage>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "bitmap_import.hpp"
#include "canvas.hpp"
#include "docks.hpp"
#include "editor_document.hpp"
#include "golightly/geometry.hpp"
#include "gui_fixture.hpp"
#include "main_window.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::StubPrompts;
using golightly::test::undoRedoRoundTrip;

namespace {
int countFull(const Shape& raster) {
    int n = 0;
    for (float c : decode_raster_coverage(raster)) {
        if (c == 1.0f) ++n;
        else if (c != 0.0f) return -1;  // only exact 0 / 1 allowed
    }
    return n;
}
}  // namespace

class TestDocksImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layersDock() {
        EditorDocument doc;
        LayersDock dock(&doc);
        QCOMPARE(dock.list()->count(), 1);
        dock.addLayer();
        dock.addLayer();
        QCOMPARE(int(doc.project().layers.size()), 3);
        QCOMPARE(doc.currentLayer(), 2);
        QCOMPARE(dock.list()->count(), 3);
        // the list shows the topmost (last) layer first
        QCOMPARE(dock.list()->item(0)->text(), QString::fromStdString(doc.project().layers[2].name));
        // rename and hide through the list item: one undo step each
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.list()->item(0)->setText(QStringLiteral("cladding")); }));
        QCOMPARE(doc.project().layers[2].name, std::string("cladding"));
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.list()->item(2)->setCheckState(Qt::Unchecked); }));
        QVERIFY(!doc.project().layers[0].visible);
        // reorder by dragging: move the bottom row to the top of the list
        const std::string bottomName = doc.project().layers[0].name;
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            QListWidgetItem* item = dock.list()->takeItem(2);
            dock.list()->insertItem(0, item);
            dock.applyListOrder();
        }));
        QCOMPARE(doc.project().layers[2].name, bottomName);
        // the same through the model's row move (what a drag-and-drop in the list does)
        const std::string topName = doc.project().layers[2].name;
        QVERIFY(dock.list()->model()->moveRow(QModelIndex(), 0, QModelIndex(), 3));
        QTRY_COMPARE(doc.project().layers[0].name, topName);
        // material and z range
        doc.setCurrentLayer(1);
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            doc.editLayer(1, QStringLiteral("m"), [](Layer& l) { l.material = "sio2"; });
        }));
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.toggleLock(); }));
        QVERIFY(doc.project().layers[1].locked);
        dock.deleteCurrentLayer();
        QCOMPARE(int(doc.project().layers.size()), 2);
    }

    void materialsDock() {
        EditorDocument doc;
        StubPrompts prompts;
        MaterialsDock dock(&doc, &prompts);
        QCOMPARE(dock.table()->rowCount(), 2);
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.table()->item(0, MaterialsDock::ColEps)->setText(QStringLiteral("11.5")); }));
        QCOMPARE(doc.project().materials[0].epsilon_inf, 11.5);
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.table()->item(1, MaterialsDock::ColSigma)->setText(QStringLiteral("1000")); }));
        QCOMPARE(doc.project().materials[1].conductivity, 1000.0);
        // renaming the id renames the layer's reference too
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.table()->item(0, MaterialsDock::ColId)->setText(QStringLiteral("silicon")); }));
        QCOMPARE(doc.project().layers[0].material, std::string("silicon"));
        // invalid value: error, no change
        const Project before = doc.project();
        dock.table()->item(0, MaterialsDock::ColEps)->setText(QStringLiteral("-3"));
        QCOMPARE(prompts.errors.size(), 1);
        QVERIFY(doc.project() == before);
        // dispersion poles of the selected material
        dock.table()->setCurrentCell(1, 0);
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.addPole(); }));
        QCOMPARE(dock.polesTable()->rowCount(), 1);
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.polesTable()->item(0, MaterialsDock::PoleGamma)->setText(QStringLiteral("3.5e14")); }));
        QCOMPARE(doc.project().materials[1].poles[0].gamma, 3.5e14);
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.polesTable()->item(0, MaterialsDock::PoleKind)->setText(QStringLiteral("drude")); }));
        QCOMPARE(doc.project().materials[1].poles[0].kind, PoleKind::Drude);
        QCOMPARE(doc.project().materials[1].poles[0].omega_0, 0.0);
        QCOMPARE(dock.table()->item(1, MaterialsDock::ColPoles)->text(), QStringLiteral("1"));
        dock.polesTable()->setCurrentCell(0, 0);
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.removeSelectedPole(); }));
        QVERIFY(doc.project().materials[1].poles.empty());
        QCOMPARE(prompts.errors.size(), 1);
        // a material in use cannot be deleted; an unused one can
        dock.table()->setCurrentCell(0, 0);
        dock.deleteSelectedMaterial();
        QCOMPARE(prompts.errors.size(), 2);
        dock.table()->setCurrentCell(1, 0);
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.deleteSelectedMaterial(); }));
        QCOMPARE(int(doc.project().materials.size()), 1);
    }

    void runSetupDock() {
        EditorDocument doc;
        RunSetupDock dock(&doc);
        // silicon eps 12.11 (n = 3.48), 1.3 um, 20 nm cells: 18.7 cells per wavelength
        double n = 0;
        const double cpw = RunSetupDock::cellsPerWavelength(doc.project(), &n);
        QVERIFY(std::abs(n - std::sqrt(12.11)) < 1e-12);
        QVERIFY(std::abs(cpw - 1.3 / (std::sqrt(12.11) * 0.02)) < 1e-9);
        QVERIFY(dock.resolutionLabel()->text().contains(QStringLiteral("18.7")));
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.cellSize()->setValue(0.04); }));
        QVERIFY(dock.resolutionLabel()->text().contains(QStringLiteral("9.3")));
        // holding a spin box arrow: consecutive edits of one field are one undo step
        const int steps = doc.undoStack()->count();
        const double before = doc.project().domain.size[0];
        for (int i = 0; i < 5; ++i) dock.findChildren<QDoubleSpinBox*>().front()->stepUp();
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QVERIFY(doc.project().domain.size[0] > before);
        doc.undoStack()->undo();
        QCOMPARE(doc.project().domain.size[0], before);
        // normalization: reference layers by name, renamed with the layer
        doc.editProject(QStringLiteral("n"), [](Project& p) { p.run.normalization.enabled = true; });
        QCOMPARE(dock.referenceLayers()->count(), 1);
        QVERIFY(undoRedoRoundTrip(doc, [&] { dock.referenceLayers()->item(0)->setCheckState(Qt::Checked); }));
        QCOMPARE(doc.project().run.normalization.reference_layers, std::vector<std::string>{"Layer 1"});
        LayersDock layers(&doc);
        QVERIFY(undoRedoRoundTrip(doc, [&] { layers.list()->item(0)->setText(QStringLiteral("straight")); }));
        QCOMPARE(doc.project().run.normalization.reference_layers, std::vector<std::string>{"straight"});
        validate_project(doc.project(), "normalization");
    }

    void importBitmapModel() {
        // 40 x 30 model: background green 64, a block of green 255, a 3 x 5 source (red 255),
        // monitor 1 (7 pixels) and monitor 2 (4 pixels)
        QImage img(40, 30, QImage::Format_RGB32);
        img.fill(qRgb(0, 64, 0));
        for (int y = 10; y < 20; ++y)
            for (int x = 5; x < 35; ++x) img.setPixel(x, y, qRgb(0, 255, 0));
        for (int y = 12; y < 17; ++y)
            for (int x = 6; x < 9; ++x) img.setPixel(x, y, qRgb(200, 255, 0));
        for (int x = 30; x < 37; ++x) img.setPixel(x, 15, qRgb(0, qGreen(img.pixel(x, 15)), 1));
        for (int y = 0; y < 4; ++y) img.setPixel(20, y, qRgb(100, 64, 2));  // red 100: not a source
        BitmapImportOptions o;
        o.epsMax = 12.0;
        o.widthUm = 8.0;
        const Project p = import_bitmap_model(img, o);
        validate_project(p, "imported");
        QCOMPARE(p.domain.size[0], 8.0);
        QCOMPARE(p.domain.size[1], 6.0);
        QCOMPARE(p.domain.cell_size, 0.2);
        QCOMPARE(int(p.materials.size()), 2);
        const Material* bg = p.find_material(p.domain.background);
        QVERIFY(bg);
        QCOMPARE(bg->epsilon_inf, 12.0 * 64 / 255);
        QCOMPARE(int(p.layers.size()), 1);
        const Material* core = p.find_material(p.layers[0].material);
        QVERIFY(core);
        QCOMPARE(core->epsilon_inf, 12.0);
        QCOMPARE(countFull(p.layers[0].shapes[0]), 30 * 10);
        QCOMPARE(int(p.sources.size()), 1);
        QCOMPARE(p.sources[0].type, SourceType::Region);
        QCOMPARE(countFull(*p.sources[0].shape), 15);
        QCOMPARE(int(p.monitors.size()), 2);
        QCOMPARE(p.monitors[0].name, std::string("monitor_1"));
        QCOMPARE(countFull(*p.monitors[0].shape), 7);
        QCOMPARE(countFull(*p.monitors[1].shape), 4);
        // row 0 of the raster is the top of the image and the top of the domain (y = 6 um):
        // monitor 2 occupies image rows 0..3 at x = 20
        const auto m2 = decode_raster_coverage(*p.monitors[1].shape);
        QCOMPARE(m2[0 * 40 + 20], 1.0f);
        QCOMPARE(m2[29 * 40 + 20], 0.0f);
        // the imported project opens in the editor and draws
        EditorDocument doc;
        doc.replaceProject(p, QStringLiteral("import"));
        Canvas canvas(&doc);
        canvas.resize(400, 300);
        const QImage imported = canvas.grab().toImage();
        QVERIFY(golightly::test::distinctColours(imported) >= 3);
        // the same domain without the painted layer, source and monitors draws differently
        Project empty = p;
        empty.layers[0].shapes.clear();
        empty.sources.clear();
        empty.monitors.clear();
        doc.replaceProject(empty, QStringLiteral("empty"));
        QVERIFY(canvas.grab().toImage() != imported);
    }

    void exportPngSvg() {
        QTemporaryDir dir;
        EditorDocument doc;
        Shape s;
        s.type = ShapeType::Ellipse;
        s.center = {5, 4};
        s.radii = {2, 1};
        doc.addShape(0, s, QStringLiteral("add"));
        Canvas canvas(&doc);
        canvas.resize(400, 300);
        const QString svgPath = dir.filePath(QStringLiteral("c.svg"));
        {
            QSvgGenerator gen;
            gen.setFileName(svgPath);
            gen.setSize(QSize(500, 400));
            gen.setViewBox(QRect(0, 0, 500, 400));
            QPainter p(&gen);
            canvas.renderScene(p, QRectF(0, 0, 500, 400), false);
        }
        QFile f(svgPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray svg = f.readAll();
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains("<path"));
        QImage img(500, 400, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        {
            QPainter p(&img);
            canvas.renderScene(p, QRectF(0, 0, 500, 400), false);
        }
        // the ellipse (silicon colour) is at the centre of the picture
        const QColor centre = img.pixelColor(250, 200);
        const QColor si = material_color(doc.project(), "si");
        QVERIFY2(std::abs(centre.blue() - si.blue()) < 60 && centre.blue() > centre.red(), qPrintable(centre.name()));
    }

    void mainWindowToolShortcuts() {
        QTemporaryDir dir;
        StubPrompts prompts;
        const app::MainWindowOptions o = test::windowOptions(dir, &prompts);
        app::MainWindow w(o);
        const QStringList tools{QStringLiteral("select"), QStringLiteral("rectangle"), QStringLiteral("ellipse"),
                                QStringLiteral("polygon"), QStringLiteral("ring"), QStringLiteral("path"),
                                QStringLiteral("brush"), QStringLiteral("eraser"), QStringLiteral("pointSource"),
                                QStringLiteral("lineSource"), QStringLiteral("regionSource"), QStringLiteral("flux"),
                                QStringLiteral("modeMonitor"), QStringLiteral("probe"), QStringLiteral("dftField")};
        QSet<QString> keys;
        for (const QString& t : tools) {
            QAction* a = w.action(QStringLiteral("tool.") + t);
            QVERIFY2(a, qPrintable(t));
            QVERIFY(!a->shortcut().isEmpty());
            QVERIFY(!a->icon().pixmap(24, 24).isNull());
            keys.insert(a->shortcut().toString());
            a->trigger();
            QVERIFY(w.canvas()->tool());
        }
        QCOMPARE(keys.size(), tools.size());  // one distinct key per tool
        QCOMPARE(w.action(QStringLiteral("edit.undo"))->shortcut(), QKeySequence(QKeySequence::Undo));
        QCOMPARE(w.action(QStringLiteral("file.save"))->shortcut(), QKeySequence(QKeySequence::Save));
        // cut / copy / paste / duplicate / delete through the Edit actions
        Shape r;
        r.type = ShapeType::Rectangle;
        r.min = {1, 1};
        r.max = {2, 2};
        w.document()->addShape(0, r, QStringLiteral("add"));
        w.canvas()->setView(50, QPointF(5, 4));  // grid 0.5 um
        auto& shapes = w.document()->project().layers[0].shapes;
        w.action(QStringLiteral("edit.copy"))->trigger();
        w.action(QStringLiteral("edit.paste"))->trigger();
        QCOMPARE(int(shapes.size()), 2);
        QCOMPARE(shapes[1].min, (Vec2{1.5, 0.5}));
        w.action(QStringLiteral("edit.cut"))->trigger();  // the pasted copy is selected
        QCOMPARE(int(shapes.size()), 1);
        // the cut item is on the system clipboard as a one-item project
        QVERIFY(QGuiApplication::clipboard()->mimeData()->hasFormat(QStringLiteral("application/x-golightly-project+json")));
        const Project clip = parse_project(QGuiApplication::clipboard()->text().toStdString(), "clipboard");
        QCOMPARE(clip.layers.at(0).shapes.at(0).min, (Vec2{1.5, 0.5}));
        w.action(QStringLiteral("edit.paste"))->trigger();
        QCOMPARE(int(shapes.size()), 2);
        QCOMPARE(shapes[1].min, (Vec2{2.0, 0.0}));
        w.action(QStringLiteral("edit.duplicate"))->trigger();
        QCOMPARE(int(shapes.size()), 3);
        w.action(QStringLiteral("edit.delete"))->trigger();
        QCOMPARE(int(shapes.size()), 2);
        for (int i = 0; i < 5; ++i) w.action(QStringLiteral("edit.undo"))->trigger();
        QCOMPARE(int(shapes.size()), 1);
        w.action(QStringLiteral("edit.undo"))->trigger();
        QVERIFY(shapes.empty());
        // export through the window: PNG and SVG files that read back
        const QString png = dir.filePath(QStringLiteral("canvas.png")), svg = dir.filePath(QStringLiteral("canvas.svg"));
        QVERIFY(w.exportCanvas(png));
        QVERIFY(w.exportCanvas(svg));
        QVERIFY(!QImage(png).isNull());
        QVERIFY(QImage(png).width() >= 1000);
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly) && svgFile.readAll().contains("<svg"));
        QVERIFY(!w.exportCanvas(dir.filePath(QStringLiteral("no/such/dir/x.png"))));
        QCOMPARE(prompts.errors.size(), 1);
        // import a bitmap model through the window: one undo step, unsaved-changes prompt
        QImage model(20, 10, QImage::Format_RGB32);
        model.fill(qRgb(0, 0, 0));
        model.setPixel(3, 4, qRgb(255, 255, 0));
        const QString bmp = dir.filePath(QStringLiteral("model.png"));
        QVERIFY(model.save(bmp));
        prompts.saveAnswer = Prompts::SaveChoice::Discard;
        BitmapImportOptions bo;
        bo.widthUm = 2;
        QVERIFY(w.importBitmapFile(bmp, bo));
        QCOMPARE(w.document()->project().domain.size[0], 2.0);
        QCOMPARE(int(w.document()->project().sources.size()), 1);
        QCOMPARE(w.document()->undoStack()->count(), 1);
        QVERIFY(!w.importBitmapFile(dir.filePath(QStringLiteral("missing.png")), bo));
        QCOMPARE(prompts.errors.size(), 2);
        w.document()->undoStack()->undo();
        // window title marks unsaved changes
        w.action(QStringLiteral("tool.rectangle"))->trigger();
        w.document()->addShape(0, Shape{}, QStringLiteral("add"));
        QVERIFY(w.windowTitle().contains(QLatin1Char('*')));
        w.action(QStringLiteral("edit.undo"))->trigger();
        QVERIFY(!w.windowTitle().contains(QLatin1Char('*')));
    }
};

QTEST_MAIN(TestDocksImport)
#include "tst_docks_import.moc"
