#include "gds_import_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "golightly/errors.hpp"
#include "golightly/image_io.hpp"
#include "golightly/limits.hpp"

namespace golightly::editor {

/// Draws the flattened polygons of the ticked layers, fitted to the widget, y up.
class GdsPreview : public QWidget {
public:
    explicit GdsPreview(QWidget* parent) : QWidget(parent) { setMinimumSize(300, 240); }
    std::vector<QPainterPath> paths;  ///< one per ticked layer
    std::vector<QColor> colors;
    int polygons = 0;

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), QColor(250, 250, 252));
        p.setRenderHint(QPainter::Antialiasing, true);
        QRectF world;
        for (const auto& path : paths)
            if (!path.isEmpty()) world = world.isNull() ? path.boundingRect() : world.united(path.boundingRect());
        if (world.width() <= 0 || world.height() <= 0) {
            p.setPen(QColor(90, 90, 90));
            p.drawText(rect(), Qt::AlignCenter, GdsImportDialog::tr("No polygons on the ticked layers"));
            return;
        }
        const QRectF target = QRectF(rect()).adjusted(10, 24, -10, -10);
        const double s = std::min(target.width() / world.width(), target.height() / world.height());
        QTransform t;
        t.translate(target.center().x(), target.center().y());
        t.scale(s, -s);
        t.translate(-world.center().x(), -world.center().y());
        for (size_t k = 0; k < paths.size(); ++k) {
            QColor fill = colors[k];
            fill.setAlpha(140);
            p.setBrush(fill);
            p.setPen(QPen(colors[k].darker(160), 1.0));
            p.drawPath(t.map(paths[k]));
        }
        p.setPen(QColor(60, 60, 60));
        p.drawText(QRectF(rect()).adjusted(8, 4, -8, 0), Qt::AlignTop | Qt::AlignLeft,
                   GdsImportDialog::tr("%1 polygons, %2 x %3 µm")
                       .arg(polygons)
                       .arg(world.width(), 0, 'g', 5)
                       .arg(world.height(), 0, 'g', 5));
    }
};

namespace {

QString pair_text(std::array<int, 2> l) { return QStringLiteral("%1/%2").arg(l[0]).arg(l[1]); }

QColor layer_color(int k) { return QColor::fromHsv((k * 67) % 360, 150, 210); }

}  // namespace

GdsImportDialog::GdsImportDialog(EditorDocument* doc, Prompts* prompts, QWidget* parent)
    : QDialog(parent), doc_(doc), prompts_(prompts) {
    setWindowTitle(tr("Import GDS"));
    auto* outer = new QVBoxLayout(this);
    fileLabel_ = new QLabel(this);
    outer->addWidget(fileLabel_);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Cell"), this));
    cell_ = new QComboBox(this);
    row->addWidget(cell_, 1);
    auto* mapButton = new QPushButton(tr("Layer map..."), this);
    mapButton->setToolTip(tr("Name the layers from a KLayout .lyp or a gdsfactory YAML layer map"));
    row->addWidget(mapButton);
    outer->addLayout(row);
    auto* split = new QSplitter(this);
    table_ = new QTableWidget(0, ColCount, split);
    table_->setHorizontalHeaderLabels({tr("Layer/datatype"), tr("Elements"), tr("New layer"), tr("Material")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    preview_ = new GdsPreview(split);
    split->addWidget(table_);
    split->addWidget(preview_);
    outer->addWidget(split, 1);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    bb->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    outer->addWidget(bb);
    connect(bb, &QDialogButtonBox::accepted, this, &GdsImportDialog::accept);
    connect(bb, &QDialogButtonBox::rejected, this, &GdsImportDialog::reject);
    connect(cell_, &QComboBox::currentIndexChanged, this, [this] { fillLayers(); });
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* it) {
        if (it->column() == ColLayer) updatePreview();
    });
    connect(mapButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Layer map"), QFileInfo(path_).path(),
                                                          tr("Layer maps (*.lyp *.yaml *.yml);;All files (*)"));
        if (!path.isEmpty()) loadLayerMap(path);
    });
    resize(820, 480);
}

GdsImportDialog::~GdsImportDialog() = default;

bool GdsImportDialog::loadFile(const QString& path) {
    std::vector<std::uint8_t> bytes;
    {
        std::ifstream in(path.toStdString(), std::ios::binary);
        if (!in) {
            prompts_->error(tr("Import GDS"), tr("Cannot read %1.").arg(path));
            return false;
        }
        in.seekg(0, std::ios::end);
        const auto size = std::uint64_t(in.tellg());
        if (size > limits::kMaxStepBytes) {
            prompts_->error(tr("Import GDS"), tr("%1 is larger than %2: too large to embed in a project.")
                                                  .arg(path, QString::fromStdString(limits::format_bytes(double(limits::kMaxStepBytes)))));
            return false;
        }
        in.seekg(0);
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    try {
        lib_ = std::make_shared<const gds::Library>(gds::read(bytes));
    } catch (const std::exception& e) {
        lib_.reset();
        prompts_->error(tr("Import GDS"), tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(e.what())));
        return false;
    }
    if (lib_->cells.empty()) {
        lib_.reset();
        prompts_->error(tr("Import GDS"), tr("%1 holds no cell.").arg(QFileInfo(path).fileName()));
        return false;
    }
    path_ = path;
    dataBase64_ = base64_encode(bytes);
    fileLabel_->setText(tr("%1: %2 cells, database unit %3 nm")
                            .arg(QFileInfo(path).fileName())
                            .arg(lib_->cells.size())
                            .arg(lib_->um_per_db() * 1000, 0, 'g', 6));
    const QSignalBlocker block(cell_);
    cell_->clear();
    const auto tops = gds::top_cells(*lib_);
    for (const auto& c : tops) cell_->addItem(QString::fromStdString(c));
    for (const auto& c : lib_->cells)
        if (std::find(tops.begin(), tops.end(), c.name) == tops.end()) cell_->addItem(QString::fromStdString(c.name));
    cell_->setCurrentIndex(0);
    fillLayers();
    return true;
}

bool GdsImportDialog::loadLayerMap(const QString& path) {
    try {
        names_ = gds::read_layer_map(path.toStdString());
    } catch (const std::exception& e) {
        prompts_->error(tr("Layer map"), QString::fromStdString(e.what()));
        return false;
    }
    for (const auto& n : names_) {
        const int r = rowOf({n.layer, n.datatype});
        if (r >= 0) table_->item(r, ColName)->setText(QString::fromStdString(n.name));
    }
    return true;
}

QString GdsImportDialog::cell() const { return cell_->currentText(); }

void GdsImportDialog::setCell(const QString& name) {
    const int i = cell_->findText(name);
    if (i >= 0) cell_->setCurrentIndex(i);
}

int GdsImportDialog::rowOf(std::array<int, 2> layer) const {
    for (size_t k = 0; k < layers_.size(); ++k)
        if (layers_[k] == layer) return int(k);
    return -1;
}

void GdsImportDialog::fillLayers() {
    const QSignalBlocker block(table_);
    table_->setRowCount(0);
    layers_.clear();
    if (!lib_) return;
    const std::string cell = cell_->currentText().toStdString();
    try {
        layers_ = gds::cell_layers(*lib_, cell);
    } catch (const std::exception& e) {
        prompts_->error(tr("Import GDS"), QString::fromStdString(e.what()));
        return;
    }
    const Project& pr = doc_->project();
    table_->setRowCount(int(layers_.size()));
    for (size_t k = 0; k < layers_.size(); ++k) {
        const int r = int(k);
        auto* check = new QTableWidgetItem(pair_text(layers_[k]));
        check->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        check->setCheckState(Qt::Checked);
        table_->setItem(r, ColLayer, check);
        QString count;
        try {
            const gds::Geometry g = gds::flatten(*lib_, cell, layers_[k]);
            count = QString::number(g.polygons.size() + g.paths.size());
        } catch (const std::exception& e) {
            count = QString::fromStdString(e.what());
            check->setCheckState(Qt::Unchecked);
        }
        auto* n = new QTableWidgetItem(count);
        n->setFlags(Qt::ItemIsEnabled);
        table_->setItem(r, ColElements, n);
        QString name = tr("GDS %1").arg(pair_text(layers_[k]));
        for (const auto& m : names_)
            if (m.layer == layers_[k][0] && m.datatype == layers_[k][1]) name = QString::fromStdString(m.name);
        table_->setItem(r, ColName, new QTableWidgetItem(name));
        auto* mat = new QComboBox(table_);
        for (const Material& m : pr.materials) mat->addItem(QString::fromStdString(m.name.empty() ? m.id : m.name), QString::fromStdString(m.id));
        // default: the first material that is not air
        for (int i = 0; i < mat->count(); ++i)
            if (mat->itemData(i).toString() != QStringLiteral("air")) {
                mat->setCurrentIndex(i);
                break;
            }
        table_->setCellWidget(r, ColMaterial, mat);
    }
    table_->resizeColumnsToContents();
    updatePreview();
}

void GdsImportDialog::updatePreview() {
    preview_->paths.clear();
    preview_->colors.clear();
    preview_->polygons = 0;
    if (lib_) {
        const std::string cell = cell_->currentText().toStdString();
        for (size_t k = 0; k < layers_.size(); ++k) {
            if (!layerIncluded(layers_[k])) continue;
            QPainterPath path;
            path.setFillRule(Qt::WindingFill);
            try {
                const gds::Geometry g = gds::flatten(*lib_, cell, layers_[k]);
                auto add = [&](const std::vector<Vec2>& ring) {
                    if (ring.size() < 3) return;
                    QPolygonF q;
                    for (const Vec2& v : ring) q << QPointF(v.x, v.y);
                    path.addPolygon(q);
                    path.closeSubpath();
                    ++preview_->polygons;
                };
                for (const auto& r : g.polygons) add(r);
                for (const auto& p : g.paths)
                    if (p.width > 0) add(gds::path_polygon(p));
            } catch (const std::exception&) {
                continue;  // the table shows the error
            }
            preview_->paths.push_back(path);
            preview_->colors.push_back(layer_color(int(k)));
        }
    }
    preview_->update();
}

int GdsImportDialog::previewPolygons() const { return preview_->polygons; }

void GdsImportDialog::setLayerIncluded(std::array<int, 2> layer, bool on) {
    const int r = rowOf(layer);
    if (r >= 0) table_->item(r, ColLayer)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

bool GdsImportDialog::layerIncluded(std::array<int, 2> layer) const {
    const int r = rowOf(layer);
    return r >= 0 && table_->item(r, ColLayer) && table_->item(r, ColLayer)->checkState() == Qt::Checked;
}

void GdsImportDialog::setLayerName(std::array<int, 2> layer, const QString& name) {
    const int r = rowOf(layer);
    if (r >= 0) table_->item(r, ColName)->setText(name);
}

QString GdsImportDialog::layerName(std::array<int, 2> layer) const {
    const int r = rowOf(layer);
    return r >= 0 ? table_->item(r, ColName)->text() : QString();
}

void GdsImportDialog::setLayerMaterial(std::array<int, 2> layer, const QString& materialId) {
    const int r = rowOf(layer);
    if (r < 0) return;
    auto* c = qobject_cast<QComboBox*>(table_->cellWidget(r, ColMaterial));
    const int i = c ? c->findData(materialId) : -1;
    if (i >= 0) c->setCurrentIndex(i);
}

QString GdsImportDialog::layerMaterial(std::array<int, 2> layer) const {
    const int r = rowOf(layer);
    auto* c = r >= 0 ? qobject_cast<QComboBox*>(table_->cellWidget(r, ColMaterial)) : nullptr;
    return c ? c->currentData().toString() : QString();
}

bool GdsImportDialog::importIntoDocument() {
    if (!lib_) {
        prompts_->error(tr("Import GDS"), tr("No GDS file is loaded."));
        return false;
    }
    std::vector<Layer> added;
    for (const auto& l : layers_) {
        if (!layerIncluded(l)) continue;
        const QString name = layerName(l).trimmed();
        const QString material = layerMaterial(l);
        if (name.isEmpty() || material.isEmpty()) {
            prompts_->error(tr("Import GDS"), tr("Layer %1 needs a name and a material.").arg(pair_text(l)));
            return false;
        }
        Shape s;
        s.type = ShapeType::Gds;
        s.file_name = QFileInfo(path_).fileName().toStdString();
        s.data_base64 = dataBase64_;
        // name the cell unless it is the file's only top cell (the default)
        const auto tops = gds::top_cells(*lib_);
        s.gds_cell = tops.size() == 1 && tops[0] == cell().toStdString() ? std::string() : cell().toStdString();
        s.gds_layer = l;
        try {
            (void)gds_shape_polygons(s);
        } catch (const std::exception& e) {
            prompts_->error(tr("Import GDS"), QString::fromStdString(e.what()));
            return false;
        }
        Layer layer;
        layer.name = name.toStdString();
        layer.material = material.toStdString();
        layer.gds_layer = l;
        layer.shapes = {s};
        added.push_back(std::move(layer));
    }
    if (added.empty()) {
        prompts_->error(tr("Import GDS"), tr("Tick at least one layer."));
        return false;
    }
    const int first = int(doc_->project().layers.size());
    doc_->editProject(tr("Import GDS %1").arg(QFileInfo(path_).fileName()), [&](Project& p) {
        for (const Layer& l : added) p.layers.push_back(l);
    });
    doc_->setCurrentLayer(first);
    return true;
}

void GdsImportDialog::accept() {
    if (importIntoDocument()) QDialog::accept();
}

bool export_gds_file(const Project& project, const QString& path, const QString& cell, Prompts& prompts,
                     QStringList* warnings) {
    GdsExport ex;
    try {
        ex = export_gds(project, cell.toStdString(), QFileInfo(path).fileName().toStdString());
    } catch (const std::exception& e) {
        prompts.error(GdsImportDialog::tr("Export GDS"), QString::fromStdString(e.what()));
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(reinterpret_cast<const char*>(ex.bytes.data()), qint64(ex.bytes.size())) != qint64(ex.bytes.size())) {
        prompts.error(GdsImportDialog::tr("Export GDS"), GdsImportDialog::tr("Cannot write %1.").arg(path));
        return false;
    }
    if (warnings)
        for (const auto& w : ex.warnings) *warnings << QString::fromStdString(w);
    return true;
}

}  // namespace golightly::editor
