// GUI tests of the GDS import and export (issue 22, IDE half): the dialog lists the cells
// and layers of tests/data/gds/layout.gds (written by gdspy), previews them, names layers
// from a layer map, imports ticked layers as ONE undo step (into new layers, or filling the
// existing layers whose gds_layer matches, in 3D keeping their z range, sidewall and
// material); bad files are refused with a message; File > Export GDS's function writes
// what the CLI writes.
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
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

/// Prompts whose askText answers from a list (nullopt: cancelled) and records the questions.
struct AnsweringPrompts : StubPrompts {
    QStringList questions;
    QList<std::optional<QString>> answers;
    std::optional<QString> askText(const QString&, const QString& label, const QString& proposal) override {
        questions << label + QStringLiteral(" [") + proposal + QStringLiteral("]");
        return answers.isEmpty() ? std::optional<QString>(proposal) : answers.takeFirst();
    }
};

Shape rectangle(Vec2 a, Vec2 b) {
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = a;
    r.max = b;
    return r;
}

/// [min, max] of a gds shape's placed polygons.
std::array<Vec2, 2> boundsOf(const Shape& s) {
    std::array<Vec2, 2> b{Vec2{1e300, 1e300}, Vec2{-1e300, -1e300}};
    for (const auto& ring : gds_shape_polygons(s))
        for (const Vec2& v : ring) {
            b[0] = {std::min(b[0].x, v.x), std::min(b[0].y, v.y)};
            b[1] = {std::max(b[1].x, v.x), std::max(b[1].y, v.y)};
        }
    return b;
}

double polygonsArea(const Outline& rings) {
    double area = 0;
    for (const auto& ring : rings) {
        double a = 0;
        for (size_t k = 0; k < ring.size(); ++k)
            a += ring[k].x * ring[(k + 1) % ring.size()].y - ring[k].y * ring[(k + 1) % ring.size()].x;
        area += 0.5 * a;
    }
    return area;
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
        // the default project's first layer is empty: not written, no number needed
        QCOMPARE(gds::cell_layers(lib, "CHIP"), (std::vector<std::array<int, 2>>{{1, 0}}));
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char(' '))));
        // an unwritable path: a message, false
        QVERIFY(!export_gds_file(doc.project(), dir.path() + QStringLiteral("/no/such/dir/x.gds"), QStringLiteral("CHIP"), prompts));
    }

    void exportAsksForGdsLayersAndReimportFillsTheSameLayers() {
        // A drawn layer without gds_layer and a reference-only layer: File > Export GDS asks
        // for the drawn layer's number (one undo step), leaves the reference out, and
        // importing the file again fills the same layer instead of adding one.
        EditorDocument doc;
        AnsweringPrompts prompts;
        doc.editProject(QStringLiteral("draw"), [](Project& p) {
            p.layers[0].shapes = {rectangle({1, 1}, {4, 2})};
            Layer ref;
            ref.name = "reference";
            ref.material = "si";
            ref.reference_only = true;
            ref.shapes = {rectangle({0, 3}, {10, 3.5})};
            p.layers.push_back(ref);
        });
        const size_t nLayers = doc.project().layers.size();
        QCOMPARE(gds_layers_without_number(doc.project()), std::vector<std::size_t>{0});
        QTemporaryDir dir;
        const QString out = dir.path() + QStringLiteral("/chip.gds");
        QStringList warnings;
        const int undoBefore = doc.undoStack()->count();
        prompts.answers = {QStringLiteral("5/0")};
        QVERIFY(export_gds_document(doc, out, QStringLiteral("TOP"), prompts, &warnings));
        QVERIFY2(prompts.errors.isEmpty(), qPrintable(prompts.errors.join(QLatin1Char('\n'))));
        QCOMPARE(prompts.questions.size(), 1);
        QVERIFY2(prompts.questions[0].contains(QStringLiteral("Layer 1")) && prompts.questions[0].endsWith(QStringLiteral("[1/0]")),
                 qPrintable(prompts.questions[0]));
        QCOMPARE(doc.project().layers[0].gds_layer, (std::optional<std::array<int, 2>>{{5, 0}}));
        QVERIFY(!doc.project().layers[1].gds_layer);
        QCOMPARE(doc.undoStack()->count(), undoBefore + 1);
        QVERIFY(warnings.join(QLatin1Char(' ')).contains(QStringLiteral("'reference'")));
        {
            std::ifstream in(out.toStdString(), std::ios::binary);
            const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
            const gds::Library lib = gds::read(bytes);
            QCOMPARE(gds::cell_layers(lib, "TOP"), (std::vector<std::array<int, 2>>{{5, 0}}));  // no reference layer
        }
        // a second export asks nothing
        prompts.questions.clear();
        QVERIFY(export_gds_document(doc, out, QStringLiteral("TOP"), prompts));
        QVERIFY(prompts.questions.isEmpty());

        // re-import: the file's 5/0 goes into "Layer 1", where it came from, at its own place
        GdsImportDialog dlg(&doc, &prompts);
        QVERIFY(dlg.loadFile(out));
        QCOMPARE(dlg.layers(), (std::vector<std::array<int, 2>>{{5, 0}}));
        QCOMPARE(dlg.layerTarget({5, 0}), 0);
        QCOMPARE(dlg.placement(), GdsImportDialog::Placement::Offset);  // inside the domain: kept where it is
        QCOMPARE(dlg.translate().x, 0.0);
        QCOMPARE(dlg.translate().y, 0.0);
        QVERIFY(dlg.importIntoDocument());
        QCOMPARE(doc.project().layers.size(), nLayers);
        const Layer& l0 = doc.project().layers[0];
        QCOMPARE(l0.shapes.size(), size_t(2));
        QVERIFY(std::abs(polygonsArea(gds_shape_polygons(l0.shapes[1])) - 3.0) < 1e-9);  // the 3 x 1 rectangle
        QVERIFY(std::abs(boundsOf(l0.shapes[1])[0].x - 1.0) < 1e-9);                    // where it was drawn

        // a cancelled question or an answer that is not a layer: nothing changes, no file
        doc.editProject(QStringLiteral("another"), [](Project& p) {
            Layer heater;
            heater.name = "heater";
            heater.material = "si";
            heater.shapes = {rectangle({6, 6}, {7, 7})};
            p.layers.push_back(heater);
        });
        const Project before = doc.project();
        const QString out2 = dir.path() + QStringLiteral("/chip2.gds");
        prompts.answers = {std::nullopt};
        QVERIFY(!export_gds_document(doc, out2, QStringLiteral("TOP"), prompts));
        QVERIFY(doc.project() == before);
        QVERIFY(!QFile::exists(out2));
        prompts.answers = {QStringLiteral("five")};
        QVERIFY(!export_gds_document(doc, out2, QStringLiteral("TOP"), prompts));
        QVERIFY(prompts.errors.last().contains(QStringLiteral("heater")));
        QVERIFY(doc.project() == before);
        QVERIFY(!QFile::exists(out2));
        // the proposal skips the numbers in use (5 and 1 free: 1)
        prompts.answers = {};
        prompts.questions.clear();
        QVERIFY(export_gds_document(doc, out2, QStringLiteral("TOP"), prompts));
        QVERIFY(prompts.questions[0].endsWith(QStringLiteral("[1/0]")));
        QCOMPARE(parse_gds_layer(QStringLiteral("3")), (std::optional<std::array<int, 2>>{{3, 0}}));
        QCOMPARE(parse_gds_layer(QStringLiteral("3, 7")), (std::optional<std::array<int, 2>>{{3, 7}}));
        QVERIFY(!parse_gds_layer(QStringLiteral("70000/0")));
    }

    void importPlacesTheCellAndOffersTheDatabaseUnit() {
        EditorDocument doc;  // a 10 x 8 um domain; layout.gds's TOP lies outside it
        StubPrompts prompts;
        GdsImportDialog dlg(&doc, &prompts);
        QVERIFY(dlg.loadFile(fixture("layout.gds")));
        QCOMPARE(dlg.fileDbUnitUm(), 1e-3);
        QCOMPARE(dlg.dbUnitUm(), 1e-3);
        QCOMPARE(dlg.dbUnitSpin()->value(), 1.0);  // shown in nm
        QCOMPARE(dlg.placement(), GdsImportDialog::Placement::Centre);
        // gdspy's bounding box of TOP over all its layers (layout.json): x -0.4..30, y -21..70.4;
        // a round path end's chords lie outside its circle by < 3e-5 um
        const auto b = dlg.cellBounds();
        QVERIFY2(std::abs(b[0].x + 0.4) < 1e-4 && std::abs(b[1].x - 30) < 1e-9 && std::abs(b[0].y + 21) < 1e-9 &&
                     std::abs(b[1].y - 70.4) < 1e-9,
                 qPrintable(QStringLiteral("%1 %2 %3 %4").arg(b[0].x).arg(b[0].y).arg(b[1].x).arg(b[1].y)));
        const Vec2 t = dlg.translate();
        QVERIFY(std::abs(t.x - (5 - 14.8)) < 1e-4 && std::abs(t.y - (4 - 24.7)) < 1e-9);
        QVERIFY(!dlg.findChildren<QDoubleSpinBox*>().isEmpty());
        QVERIFY(golightly::test::undoRedoRoundTrip(doc, [&] { QVERIFY(dlg.importIntoDocument()); }));
        // every imported layer moved alike: their union is centred in the domain
        double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
        for (const Layer& L : doc.project().layers)
            for (const Shape& s : L.shapes)
                if (s.type == ShapeType::Gds) {
                    QCOMPARE(s.translate[0], t.x);
                    QVERIFY(!s.gds_db_unit_um);  // the file's own unit: nothing stored
                    const auto r = boundsOf(s);
                    x0 = std::min(x0, r[0].x), y0 = std::min(y0, r[0].y), x1 = std::max(x1, r[1].x), y1 = std::max(y1, r[1].y);
                }
        QVERIFY(std::abs(0.5 * (x0 + x1) - 5) < 1e-4 && std::abs(0.5 * (y0 + y1) - 4) < 1e-9);

        // an offset instead, and a database unit of 2 nm (the file's coordinates doubled)
        EditorDocument doc2;
        GdsImportDialog at(&doc2, &prompts);
        QVERIFY(at.loadFile(fixture("layout.gds")));
        for (const auto& l : at.layers()) at.setLayerIncluded(l, l == std::array<int, 2>{1, 0});
        at.setPlacement(GdsImportDialog::Placement::Offset);
        at.setOffset({1.5, -2});
        at.setDbUnitUm(2e-3);
        QCOMPARE(at.translate().x, 1.5);
        QCOMPARE(at.translate().y, -2.0);
        QVERIFY(std::abs(at.cellBounds()[1].x - 60) < 1e-9);
        QVERIFY(at.importIntoDocument());
        const Shape& s = doc2.project().layers.back().shapes[0];
        QCOMPARE(s.gds_db_unit_um, (std::optional<double>{2e-3}));
        QCOMPARE(s.translate[0], 1.5);
        QVERIFY(std::abs(polygonsArea(gds_shape_polygons(s)) - 4 * 52.375) < 1e-9);  // gdspy's area, doubled lengths
        QVERIFY(std::abs(boundsOf(s)[0].x - (2 * 10 + 1.5)) < 1e-9);
    }

    void importAndSaveRefuseAProjectTooLargeToOpen() {
        // The project already embeds 66 MiB (base64) in a STEP shape: importing layout.gds
        // would leave a project larger than GoLightly opens, so the import is refused with a
        // message saying what to do, and so is a save (the file on disk stays as it was).
        EditorDocument doc;
        StubPrompts prompts;
        QTemporaryDir dir;
        const QString file = dir.path() + QStringLiteral("/p.glproj");
        QVERIFY(doc.saveAs(file, prompts));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray saved = f.readAll();
        f.close();
        doc.editProject(QStringLiteral("big part"), [](Project& p) {
            Shape part;
            part.type = ShapeType::Step;
            part.file_name = "huge.step";
            part.data_base64 = std::string(66u << 20, 'A');
            p.layers[0].shapes = {part};
        });
        GdsImportDialog dlg(&doc, &prompts);
        QVERIFY(dlg.loadFile(fixture("layout.gds")));
        const Project before = doc.project();
        QVERIFY(!dlg.importIntoDocument());
        QVERIFY(doc.project() == before);
        QVERIFY2(prompts.errors.last().contains(QStringLiteral("more than the 64.0 MiB GoLightly opens")) &&
                     prompts.errors.last().contains(QStringLiteral("huge.step")) &&
                     prompts.errors.last().contains(QStringLiteral("Remove the shapes")),
                 qPrintable(prompts.errors.last()));
        QVERIFY(!doc.save(prompts));
        QVERIFY(prompts.errors.last().contains(QStringLiteral("more than the 64.0 MiB GoLightly opens")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), saved);
    }
};

QTEST_MAIN(TestGdsImport)
#include "tst_gds_import.moc"
