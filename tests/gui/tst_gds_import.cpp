// GUI tests of the GDS import and export (issue 22, IDE half): the dialog lists the cells
// and layers of tests/data/gds/layout.gds (written by gdspy), previews them, names layers
// from a layer map, imports ticked layers as ONE undo step (into new layers, or filling the
// existing layers whose gds_layer matches, in 3D keeping their z range, sidewall and
// material); bad files are refused with a message; File > Export GDS's function writes
// what the CLI writes.
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <fstream>
#include <optional>

#include "canvas.hpp"
#include "editor_document.hpp"
#include "gds_import_dialog.hpp"
#include "golightly/gds.hpp"
#include "golightly/geometry.hpp"
#include "gui_test_util.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::StubPrompts;

namespace {

QString fixture(const char* name) { return QStringLiteral(GOLIGHTLY_SOURCE_DIR "/tests/data/gds/") + QLatin1String(name); }

/// With GOLIGHTLY_SHOTS=DIR set, saves a picture of `w` as DIR/name (to look at by eye).
void saveShot(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("GOLIGHTLY_SHOTS");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    w->show();
    QApplication::processEvents();
    w->grab().save(QDir(dir).filePath(name));
}

}  // namespace

class TestGdsImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void importTwoLayersOneUndoStep() {
        EditorDocument doc;
        StubPrompts prompts;
        const Project before = doc.project();
        GdsImportDialog dlg(&doc, &prompts);
        QVERIFY(dlg.loadFile(fixture("layout.gds")));
        // top cell first, then the others
        QCOMPARE(dlg.cell(), QStringLiteral("TOP"));
        QCOMPARE(dlg.cellCombo()->count(), 4);
        const auto layers = dlg.layers();
        QCOMPARE(int(layers.size()), 7);  // 1/0 1/5 2/0 2/1 2/2 3/0 4/0
        QCOMPARE(dlg.layersTable()->rowCount(), 7);
        QCOMPARE(dlg.layersTable()->item(0, GdsImportDialog::ColElements)->text(), QStringLiteral("14"));
        QVERIFY(dlg.previewPolygons() >= 14 + 13 + 5);
        for (const auto& l : layers) dlg.setLayerIncluded(l, false);
        QCOMPARE(dlg.previewPolygons(), 0);
        dlg.setLayerIncluded({1, 0}, true);
        dlg.setLayerIncluded({1, 5}, true);
        QCOMPARE(dlg.previewPolygons(), 27);
        // names from a gdsfactory-style YAML layer map
        QTemporaryDir dir;
        {
            std::ofstream f((dir.path() + QStringLiteral("/map.yaml")).toStdString());
            f << "WG: [1, 0]\nTRENCH: [1, 5]\n";
        }
        if (gds::yaml_layer_maps_available()) {  // else the build says so (no yaml-cpp)
            QVERIFY(dlg.loadLayerMap(dir.path() + QStringLiteral("/map.yaml")));
        } else {
            dlg.setLayerName({1, 0}, QStringLiteral("WG"));
            dlg.setLayerName({1, 5}, QStringLiteral("TRENCH"));
        }
        QCOMPARE(dlg.layerName({1, 0}), QStringLiteral("WG"));
        QCOMPARE(dlg.layerName({1, 5}), QStringLiteral("TRENCH"));
        dlg.setLayerMaterial({1, 5}, QStringLiteral("sio2"));
        QCOMPARE(dlg.layerMaterial({1, 5}), QStringLiteral("sio2"));
        QCOMPARE(dlg.layerMaterial({1, 0}), QStringLiteral("si"));  // the first material that is not air

        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { QVERIFY(dlg.importIntoDocument()); }));
        QVERIFY2(prompts.errors.isEmpty(), qPrintable(prompts.errors.join(QLatin1Char('\n'))));
        const Project& after = doc.project();
        QCOMPARE(after.layers.size(), before.layers.size() + 2);
        const Layer& wg = after.layers[before.layers.size()];
        const Layer& tr = after.layers[before.layers.size() + 1];
        QCOMPARE(QString::fromStdString(wg.name), QStringLiteral("WG"));
        QCOMPARE(wg.material, std::string("si"));
        QVERIFY(wg.gds_layer && *wg.gds_layer == (std::array<int, 2>{1, 0}));
        QCOMPARE(tr.material, std::string("sio2"));
        QCOMPARE(wg.shapes.size(), size_t(1));
        QCOMPARE(wg.shapes[0].type, ShapeType::Gds);
        QCOMPARE(QString::fromStdString(wg.shapes[0].file_name), QStringLiteral("layout.gds"));
        QVERIFY(wg.shapes[0].gds_cell.empty());  // the only top cell: the default
        QCOMPARE(tr.shapes[0].gds_layer, (std::array<int, 2>{1, 5}));
        // the shape's polygons are the file's: gdspy's area for TOP 1/0 is 52.375 um^2
        double area = 0;
        for (const auto& ring : gds_shape_polygons(wg.shapes[0])) {
            double a = 0;
            for (size_t k = 0; k < ring.size(); ++k)
                a += ring[k].x * ring[(k + 1) % ring.size()].y - ring[k].y * ring[(k + 1) % ring.size()].x;
            area += 0.5 * a;
        }
        QVERIFY2(std::abs(area - 52.375) < 1e-9, qPrintable(QString::number(area, 'g', 15)));
        // the canvas draws it (and the project still saves and loads)
        Canvas canvas(&doc);
        canvas.resize(400, 300);
        QVERIFY(!shape_painter_path(wg.shapes[0], 1e-3).isEmpty());
        QTemporaryDir d2;
        QVERIFY(doc.saveAs(d2.path() + QStringLiteral("/g.glproj"), prompts));
        QVERIFY(load_project((d2.path() + QStringLiteral("/g.glproj")).toStdString()).layers == after.layers);
    }

    void fillExistingLayersIn3d() {
        // A 3D project with a layer stack: "core" (gds 1/0, z 0..0.22, 8 degree sidewalls, si)
        // and a cladding without gds_layer. Importing 1/0 and 1/5 fills "core" (its z, sidewall
        // and material kept) and makes one new layer for 1/5 with core's z range; one undo step.
        EditorDocument doc;
        StubPrompts prompts;
        doc.editProject(QStringLiteral("3D stack"), [](Project& p) {
            p.domain.dimensions = 3;
            p.domain.size = {50, 40, 2.0};
            Layer clad;
            clad.name = "cladding";
            clad.material = p.materials.front().id;
            clad.z = std::array<double, 2>{-0.5, 1.0};
            Layer core;
            core.name = "core";
            core.material = "si";
            core.z = std::array<double, 2>{0.0, 0.22};
            core.sidewall_angle_deg = 8;
            core.gds_layer = std::array<int, 2>{1, 0};
            Shape r;
            r.type = ShapeType::Rectangle;
            r.min = {0, 0};
            r.max = {1, 1};
            core.shapes = {r};
            p.layers.push_back(clad);
            p.layers.push_back(core);
        });
        const int coreIndex = int(doc.project().layers.size()) - 1;
        const size_t nLayers = doc.project().layers.size();
        GdsImportDialog dlg(&doc, &prompts);
        QVERIFY(dlg.loadFile(fixture("layout.gds")));
        QVERIFY(!dlg.layersTable()->isColumnHidden(GdsImportDialog::ColZ));
        for (const auto& l : dlg.layers()) dlg.setLayerIncluded(l, l == std::array<int, 2>{1, 0} || l == std::array<int, 2>{1, 5});
        QCOMPARE(dlg.layerTarget({1, 0}), coreIndex);  // the layer whose gds_layer matches
        QCOMPARE(dlg.layerTarget({1, 5}), -1);         // none: a new layer
        QCOMPARE(dlg.layerName({1, 0}), QStringLiteral("core"));
        QVERIFY(!(dlg.layersTable()->item(0, GdsImportDialog::ColName)->flags() & Qt::ItemIsEditable));
        QCOMPARE(dlg.defaultZ(), (std::array<double, 2>{0.0, 0.22}));  // the last layer with z and gds_layer
        QVERIFY(dlg.layerZ({1, 5}) && *dlg.layerZ({1, 5}) == (std::array<double, 2>{0.0, 0.22}));
        QCOMPARE(dlg.layersTable()->item(1, GdsImportDialog::ColZ)->text(), QStringLiteral("0, 0.22"));
        QVERIFY(!dlg.layerZ({1, 0}));  // an existing target keeps its own z
        QCOMPARE(dlg.layersTable()->item(0, GdsImportDialog::ColZ)->text(), QStringLiteral("0, 0.22"));
        // switching a row to "New layer" and back restores its own name
        dlg.setLayerTarget({1, 0}, -1);
        QCOMPARE(dlg.layerName({1, 0}), QStringLiteral("GDS 1/0"));
        dlg.setLayerTarget({1, 0}, coreIndex);
        QCOMPARE(dlg.layerName({1, 0}), QStringLiteral("core"));
        dlg.setLayerZ({1, 5}, {0.22, 0.5});
        saveShot(&dlg, QStringLiteral("gds-import-3d.png"));

        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { QVERIFY(dlg.importIntoDocument()); }));
        QVERIFY2(prompts.errors.isEmpty(), qPrintable(prompts.errors.join(QLatin1Char('\n'))));
        const Project& after = doc.project();
        QCOMPARE(after.layers.size(), nLayers + 1);
        const Layer& core = after.layers[size_t(coreIndex)];
        QCOMPARE(core.name, std::string("core"));
        QCOMPARE(core.material, std::string("si"));
        QVERIFY(core.z && *core.z == (std::array<double, 2>{0.0, 0.22}));
        QCOMPARE(core.sidewall_angle_deg, 8.0);
        QCOMPARE(core.shapes.size(), size_t(2));  // its rectangle kept, the gds shape added
        QCOMPARE(core.shapes[1].type, ShapeType::Gds);
        QCOMPARE(core.shapes[1].gds_layer, (std::array<int, 2>{1, 0}));
        const Layer& added = after.layers.back();
        QCOMPARE(added.gds_layer, (std::optional<std::array<int, 2>>{{1, 5}}));
        QVERIFY(added.z && *added.z == (std::array<double, 2>{0.22, 0.5}));
        QCOMPARE(added.shapes.size(), size_t(1));

        // Importing the same file's 1/0 again replaces core's gds shape (no duplicate).
        GdsImportDialog again(&doc, &prompts);
        QVERIFY(again.loadFile(fixture("layout.gds")));
        for (const auto& l : again.layers()) again.setLayerIncluded(l, l == std::array<int, 2>{1, 0});
        QCOMPARE(again.layerTarget({1, 0}), coreIndex);
        QVERIFY(again.importIntoDocument());
        QCOMPARE(doc.project().layers[size_t(coreIndex)].shapes.size(), size_t(2));
        QCOMPARE(doc.project().layers.size(), nLayers + 1);
        // a z range that does not parse: a message, nothing changed
        GdsImportDialog badZ(&doc, &prompts);
        QVERIFY(badZ.loadFile(fixture("layout.gds")));
        for (const auto& l : badZ.layers()) badZ.setLayerIncluded(l, l == std::array<int, 2>{2, 0});
        badZ.layersTable()->item(2, GdsImportDialog::ColZ)->setText(QStringLiteral("0.5, 0.1"));
        const Project before = doc.project();
        QVERIFY(!badZ.importIntoDocument());
        QVERIFY(prompts.errors.last().contains(QStringLiteral("z0 < z1")));
        QVERIFY(doc.project() == before);
    }

    void otherCellAndBadFiles() {
        EditorDocument doc;
        StubPrompts prompts;
        GdsImportDialog dlg(&doc, &prompts);
        QVERIFY(dlg.loadFile(fixture("layout.gds")));
        dlg.setCell(QStringLiteral("PATHS"));
        QCOMPARE(dlg.cell(), QStringLiteral("PATHS"));
        QCOMPARE(int(dlg.layers().size()), 5);  // 2/0 2/1 2/2 3/0 4/0
        for (const auto& l : dlg.layers()) dlg.setLayerIncluded(l, l == std::array<int, 2>{4, 0});
        QVERIFY(dlg.importIntoDocument());
        QCOMPARE(doc.project().layers.back().shapes[0].gds_cell, std::string("PATHS"));  // not the top cell: named
        // nothing ticked
        for (const auto& l : dlg.layers()) dlg.setLayerIncluded(l, false);
        const Project p = doc.project();
        QVERIFY(!dlg.importIntoDocument());
        QVERIFY(doc.project() == p);
        QCOMPARE(prompts.errors.size(), 1);
        // a truncated file and a file that is no GDS: a message naming it, no crash
        QTemporaryDir dir;
        QFile good(fixture("layout.gds"));
        QVERIFY(good.open(QIODevice::ReadOnly));
        const QByteArray bytes = good.readAll();
        QFile cut(dir.path() + QStringLiteral("/cut.gds"));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(bytes.left(300));
        cut.close();
        GdsImportDialog bad(&doc, &prompts);
        QVERIFY(!bad.loadFile(cut.fileName()));
        QVERIFY(prompts.errors.last().contains(QStringLiteral("cut.gds")));
        QVERIFY(prompts.errors.last().contains(QStringLiteral("truncated")));
        QVERIFY(!bad.loadFile(fixture("make_fixtures.py")));
        QVERIFY(prompts.errors.last().contains(QStringLiteral("HEADER")));
        QVERIFY(!bad.isLoaded());
    }

    void exportWritesTheLayers() {
        EditorDocument doc;
        StubPrompts prompts;
        GdsImportDialog dlg(&doc, &prompts);
        QVERIFY(dlg.loadFile(fixture("layout.gds")));
        for (const auto& l : dlg.layers()) dlg.setLayerIncluded(l, l == std::array<int, 2>{1, 0});
        QVERIFY(dlg.importIntoDocument());
        QTemporaryDir dir;
        const QString out = dir.path() + QStringLiteral("/out.gds");
        QStringList warnings;
        QVERIFY(export_gds_file(doc.project(), out, QStringLiteral("CHIP"), prompts, &warnings));
        std::ifstream in(out.toStdString(), std::ios::binary);
        const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        const gds::Library lib = gds::read(bytes);
        QCOMPARE(gds::top_cells(lib), std::vector<std::string>{"CHIP"});
        QCOMPARE(gds::flatten(lib, "CHIP", {1, 0}).polygons.size(), size_t(14));
        // the default project's first layer has no gds_layer: a warning says where it went
        QVERIFY2(warnings.join(QLatin1Char(' ')).contains(QStringLiteral("gds_layer")), qPrintable(warnings.join(QLatin1Char(' '))));
        // an unwritable path: a message, false
        QVERIFY(!export_gds_file(doc.project(), dir.path() + QStringLiteral("/no/such/dir/x.gds"), QStringLiteral("CHIP"), prompts));
    }
};

QTEST_MAIN(TestGdsImport)
#include "tst_gds_import.moc"
