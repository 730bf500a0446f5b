#include "gds_import_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
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
    std::vector<QPainterPath> paths;  ///< one per ticked layer, in the file's um
    std::vector<QColor> colors;
    int polygons = 0;
    QTransform place;  ///< the file's um to the project's (database unit, then translate)
    QRectF domain;     ///< the project's domain (um), drawn dashed

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), QColor(250, 250, 252));
        p.setRenderHint(QPainter::Antialiasing, true);
        QRectF world, cell;
        for (const auto& path : paths)
            if (!path.isEmpty()) cell = cell.isNull() ? place.map(path).boundingRect() : cell.united(place.map(path).boundingRect());
        if (!cell.isNull()) world = domain.isEmpty() ? cell : cell.united(domain);
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
        if (!domain.isEmpty()) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(QColor(120, 120, 120), 1.0, Qt::DashLine));
            p.drawPolygon(t.map(QPolygonF(domain)));
        }
        for (size_t k = 0; k < paths.size(); ++k) {
            QColor fill = colors[k];
            fill.setAlpha(140);
            p.setBrush(fill);
            p.setPen(QPen(colors[k].darker(160), 1.0));
            p.drawPath(t.map(place.map(paths[k])));
        }
        p.setPen(QColor(60, 60, 60));
        p.drawText(QRectF(rect()).adjusted(8, 4, -8, 0), Qt::AlignTop | Qt::AlignLeft,
                   GdsImportDialog::tr("%1 polygons, %2 x %3 µm (dashed: the domain)")
                       .arg(polygons)
                       .arg(cell.width(), 0, 'g', 5)
                       .arg(cell.height(), 0, 'g', 5));
    }
};

namespace {

QString pair_text(std::array<int, 2> l) { return QStringLiteral("%1/%2").arg(l[0]).arg(l[1]); }

QColor layer_color(int k) { return QColor::fromHsv((k * 67) % 360, 150, 210); }

QString z_text(std::array<double, 2> z) { return QStringLiteral("%1, %2").arg(z[0], 0, 'g', 6).arg(z[1], 0, 'g', 6); }

/// "z0, z1" (or "z0 z1", "z0..z1") in um; nullopt unless two finite numbers with z0 < z1.
std::optional<std::array<double, 2>> parse_z(QString text) {
    text.replace(QStringLiteral(".."), QStringLiteral(" ")).replace(QLatin1Char(','), QLatin1Char(' '));
    const QStringList parts = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (parts.size() != 2) return std::nullopt;
    bool ok0 = false, ok1 = false;
    const double a = parts[0].toDouble(&ok0), b = parts[1].toDouble(&ok1);
    if (!ok0 || !ok1 || !std::isfinite(a) || !std::isfinite(b) || !(a < b)) return std::nullopt;
    return std::array<double, 2>{a, b};
}

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
    auto* place = new QHBoxLayout;
    place->addWidget(new QLabel(tr("Place"), this));
    placement_ = new QComboBox(this);
    placement_->addItem(tr("Centred in the domain"), int(Placement::Centre));
    placement_->addItem(tr("At an offset"), int(Placement::Offset));
    placement_->setToolTip(tr("Centre the cell's bounding box in the domain, or move the file's coordinates by an offset "
                              "(0, 0 keeps them)"));
    place->addWidget(placement_);
    const auto coord = [this] {
        auto* b = new QDoubleSpinBox(this);
        b->setRange(-1e6, 1e6);
        b->setDecimals(4);
        b->setSuffix(QStringLiteral(" µm"));
        return b;
    };
    offsetX_ = coord();
    offsetY_ = coord();
    place->addWidget(new QLabel(QStringLiteral("x"), this));
    place->addWidget(offsetX_);
    place->addWidget(new QLabel(QStringLiteral("y"), this));
    place->addWidget(offsetY_);
    place->addSpacing(16);
    place->addWidget(new QLabel(tr("Database unit"), this));
    dbUnit_ = new QDoubleSpinBox(this);
    dbUnit_->setRange(1e-3, 1e6);  // 1 pm to 1 mm, in nm
    dbUnit_->setDecimals(6);
    dbUnit_->setSuffix(QStringLiteral(" nm"));
    dbUnit_->setToolTip(tr("The length of one database unit: the file's UNITS record by default; change it only for a "
                           "file written with a wrong unit (the shapes then keep the unit chosen)"));
    dbUnit_->setValue(1);
    place->addWidget(dbUnit_);
    placeLabel_ = new QLabel(this);
    place->addWidget(placeLabel_, 1);
    outer->addLayout(place);
    auto* split = new QSplitter(this);
    table_ = new QTableWidget(0, ColCount, split);
    table_->setHorizontalHeaderLabels(
        {tr("Layer/datatype"), tr("Elements"), tr("Into"), tr("Layer name"), tr("Material"), tr("z (µm)")});
    table_->horizontalHeaderItem(ColTarget)->setToolTip(
        tr("A new layer, or an existing layer (it keeps its z range, sidewall and material)"));
    table_->horizontalHeaderItem(ColZ)->setToolTip(tr("The z range of a new layer in a 3D project: z0, z1"));
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    preview_ = new GdsPreview(split);
    split->addWidget(table_);
    split->addWidget(preview_);
    split->setStretchFactor(0, 3);  // the table (six columns in 3D) gets most of the width
    split->setStretchFactor(1, 2);
    split->setSizes({620, 380});
    outer->addWidget(split, 1);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    bb->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    outer->addWidget(bb);
    connect(bb, &QDialogButtonBox::accepted, this, &GdsImportDialog::accept);
    connect(bb, &QDialogButtonBox::rejected, this, &GdsImportDialog::reject);
    connect(cell_, &QComboBox::currentIndexChanged, this, [this] { fillLayers(); });
    connect(placement_, &QComboBox::currentIndexChanged, this, [this] { updatePlacement(); });
    connect(offsetX_, &QDoubleSpinBox::valueChanged, this, [this] { updatePlacement(); });
    connect(offsetY_, &QDoubleSpinBox::valueChanged, this, [this] { updatePlacement(); });
    connect(dbUnit_, &QDoubleSpinBox::valueChanged, this, [this] { updatePlacement(); });
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* it) {
        if (it->column() == ColLayer) updatePreview();
    });
    connect(mapButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Layer map"), QFileInfo(path_).path(),
                                                          tr("Layer maps (*.lyp *.yaml *.yml);;All files (*)"));
        if (!path.isEmpty()) loadLayerMap(path);
    });
    resize(1040, 520);
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
    {
        const QSignalBlocker b(dbUnit_);
        dbUnit_->setValue(lib_->um_per_db() * 1000);
    }
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
        if (r < 0) continue;
        QTableWidgetItem* item = table_->item(r, ColName);
        // a row filling an existing layer shows that layer's name: keep the map's for "New layer"
        if (item->flags() & Qt::ItemIsEditable) item->setText(QString::fromStdString(n.name));
        else item->setData(Qt::UserRole, QString::fromStdString(n.name));
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
    hasBounds_ = false;
    const auto grow = [this](Vec2 v) {
        if (!hasBounds_) bounds_ = {v, v}, hasBounds_ = true;
        bounds_[0] = {std::min(bounds_[0].x, v.x), std::min(bounds_[0].y, v.y)};
        bounds_[1] = {std::max(bounds_[1].x, v.x), std::max(bounds_[1].y, v.y)};
    };
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
            for (const auto& ring : g.polygons)
                for (const Vec2& v : ring) grow(v);
            for (const auto& path : g.paths)
                if (path.width > 0) {
                    try {
                        for (const Vec2& v : gds::path_polygon(path)) grow(v);
                    } catch (const std::exception&) {
                    }
                }
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
        table_->setItem(r, ColZ, new QTableWidgetItem(z_text(defaultZ())));
        // the target: a new layer, or an existing one (default: the first with this gds_layer)
        auto* target = new QComboBox(table_);
        target->addItem(tr("New layer"), -1);
        int match = -1;
        for (size_t i = 0; i < pr.layers.size(); ++i) {
            const Layer& L = pr.layers[i];
            QString label = QString::fromStdString(L.name);
            if (L.gds_layer) label += QStringLiteral(" (%1)").arg(pair_text(*L.gds_layer));
            target->addItem(label, int(i));
            if (match < 0 && L.gds_layer && *L.gds_layer == layers_[k]) match = int(i);
        }
        target->setCurrentIndex(target->findData(match));
        table_->setCellWidget(r, ColTarget, target);
        connect(target, &QComboBox::currentIndexChanged, this, [this, target] {
            for (int row = 0; row < table_->rowCount(); ++row)
                if (table_->cellWidget(row, ColTarget) == target) updateRowTarget(row);
        });
        updateRowTarget(r);
    }
    table_->setColumnHidden(ColZ, pr.domain.dimensions != 3);
    table_->resizeColumnsToContents();
    // default placement: where the file puts the cell when that is inside the domain (a
    // layout drawn for this domain, or a GoLightly export read back), else centred
    {
        const QSignalBlocker b1(placement_), b2(offsetX_), b3(offsetY_);
        const double f = unitScale();
        const bool inside = hasBounds_ && f * bounds_[0].x >= 0 && f * bounds_[0].y >= 0 &&
                            f * bounds_[1].x <= pr.domain.size[0] && f * bounds_[1].y <= pr.domain.size[1];
        placement_->setCurrentIndex(placement_->findData(int(inside ? Placement::Offset : Placement::Centre)));
        offsetX_->setValue(0);
        offsetY_->setValue(0);
    }
    updatePlacement();
}

double GdsImportDialog::fileDbUnitUm() const { return lib_ ? lib_->um_per_db() : 1e-3; }

void GdsImportDialog::setDbUnitUm(double um) { dbUnit_->setValue(um * 1000); }

double GdsImportDialog::dbUnitUm() const {
    // the spin box rounds to its decimals: the file's own unit exactly when it shows that
    const double shown = dbUnit_->value() * 1e-3, file = fileDbUnitUm();
    return std::abs(shown - file) <= 0.5e-6 * 1e-3 ? file : shown;
}

double GdsImportDialog::unitScale() const { return dbUnitUm() / fileDbUnitUm(); }

std::array<Vec2, 2> GdsImportDialog::cellBounds() const {
    const double f = unitScale();
    return {Vec2{f * bounds_[0].x, f * bounds_[0].y}, Vec2{f * bounds_[1].x, f * bounds_[1].y}};
}

void GdsImportDialog::setPlacement(Placement p) { placement_->setCurrentIndex(placement_->findData(int(p))); }

GdsImportDialog::Placement GdsImportDialog::placement() const { return Placement(placement_->currentData().toInt()); }

void GdsImportDialog::setOffset(Vec2 o) {
    {
        const QSignalBlocker b1(offsetX_), b2(offsetY_);
        offsetX_->setValue(o.x);
        offsetY_->setValue(o.y);
    }
    updatePlacement();
}

Vec2 GdsImportDialog::offset() const { return {offsetX_->value(), offsetY_->value()}; }

Vec2 GdsImportDialog::translate() const {
    if (placement() == Placement::Offset || !hasBounds_) return offset();
    const auto b = cellBounds();
    const auto& size = doc_->project().domain.size;
    return {0.5 * size[0] - 0.5 * (b[0].x + b[1].x), 0.5 * size[1] - 0.5 * (b[0].y + b[1].y)};
}

void GdsImportDialog::updatePlacement() {
    const bool centre = placement() == Placement::Centre;
    offsetX_->setEnabled(!centre);
    offsetY_->setEnabled(!centre);
    const Vec2 t = translate();
    if (hasBounds_) {
        const auto b = cellBounds();
        placeLabel_->setText(tr("cell %1 x %2 µm, moved by (%3, %4) µm")
                                 .arg(b[1].x - b[0].x, 0, 'g', 5)
                                 .arg(b[1].y - b[0].y, 0, 'g', 5)
                                 .arg(t.x, 0, 'g', 6)
                                 .arg(t.y, 0, 'g', 6));
    } else {
        placeLabel_->clear();
    }
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
    const Vec2 t = translate();
    const double f = unitScale();
    preview_->place = QTransform(f, 0, 0, f, t.x, t.y);
    const auto& size = doc_->project().domain.size;
    preview_->domain = QRectF(0, 0, size[0], size[1]);
    preview_->update();
}

void GdsImportDialog::updateRowTarget(int r) {
    auto* target = qobject_cast<QComboBox*>(table_->cellWidget(r, ColTarget));
    auto* mat = qobject_cast<QComboBox*>(table_->cellWidget(r, ColMaterial));
    QTableWidgetItem* name = table_->item(r, ColName);
    QTableWidgetItem* z = table_->item(r, ColZ);
    if (!target || !mat || !name || !z) return;
    const int existing = target->currentData().toInt();
    const Project& pr = doc_->project();
    const QSignalBlocker block(table_);
    const Qt::ItemFlags editable = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable;
    if (existing >= 0 && existing < int(pr.layers.size())) {
        // an existing layer: its name, material and z range, shown and kept
        const Layer& L = pr.layers[size_t(existing)];
        if (name->flags() & Qt::ItemIsEditable) name->setData(Qt::UserRole, name->text());  // the new layer's name, for later
        name->setText(QString::fromStdString(L.name));
        name->setFlags(Qt::ItemIsSelectable);
        const int mi = mat->findData(QString::fromStdString(L.material));
        if (mi >= 0) mat->setCurrentIndex(mi);
        mat->setEnabled(false);
        if (z->flags() & Qt::ItemIsEditable) z->setData(Qt::UserRole, z->text());
        z->setText(L.z ? z_text(*L.z) : tr("whole domain"));
        z->setFlags(Qt::ItemIsSelectable);
    } else {
        if (!(name->flags() & Qt::ItemIsEditable)) {
            const QString saved = name->data(Qt::UserRole).toString();
            if (!saved.isEmpty()) name->setText(saved);
            const QString savedZ = z->data(Qt::UserRole).toString();
            z->setText(savedZ.isEmpty() ? z_text(defaultZ()) : savedZ);
        }
        name->setFlags(editable);
        z->setFlags(editable);
        mat->setEnabled(true);
    }
}

void GdsImportDialog::setLayerTarget(std::array<int, 2> layer, int existingLayer) {
    const int r = rowOf(layer);
    auto* c = r >= 0 ? qobject_cast<QComboBox*>(table_->cellWidget(r, ColTarget)) : nullptr;
    const int i = c ? c->findData(existingLayer) : -1;
    if (i >= 0) c->setCurrentIndex(i);
}

int GdsImportDialog::layerTarget(std::array<int, 2> layer) const {
    const int r = rowOf(layer);
    auto* c = r >= 0 ? qobject_cast<QComboBox*>(table_->cellWidget(r, ColTarget)) : nullptr;
    return c ? c->currentData().toInt() : -1;
}

void GdsImportDialog::setLayerZ(std::array<int, 2> layer, std::array<double, 2> z) {
    const int r = rowOf(layer);
    if (r >= 0 && layerTarget(layer) < 0) table_->item(r, ColZ)->setText(z_text(z));
}

std::optional<std::array<double, 2>> GdsImportDialog::layerZ(std::array<int, 2> layer) const {
    const int r = rowOf(layer);
    if (r < 0 || doc_->project().domain.dimensions != 3 || layerTarget(layer) >= 0) return std::nullopt;
    return parse_z(table_->item(r, ColZ)->text());
}

std::array<double, 2> GdsImportDialog::defaultZ() const {
    const Project& pr = doc_->project();
    for (auto it = pr.layers.rbegin(); it != pr.layers.rend(); ++it)
        if (it->z && it->gds_layer) return *it->z;
    for (auto it = pr.layers.rbegin(); it != pr.layers.rend(); ++it)
        if (it->z) return *it->z;
    const double lz = pr.domain.size[2] > 0 ? pr.domain.size[2] : 1.0;
    const double t = std::min(0.22, lz / 3), mid = 0.5 * lz;
    return {mid - 0.5 * t, mid + 0.5 * t};
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
    const Project& pr = doc_->project();
    const bool is3d = pr.domain.dimensions == 3;
    std::vector<Layer> added;
    std::vector<std::pair<int, Shape>> filled;  // existing layer index, its new shape
    const auto tops = gds::top_cells(*lib_);
    for (const auto& l : layers_) {
        if (!layerIncluded(l)) continue;
        const int target = layerTarget(l);
        Shape s;
        s.type = ShapeType::Gds;
        s.file_name = QFileInfo(path_).fileName().toStdString();
        s.data_base64 = dataBase64_;
        // name the cell unless it is the file's only top cell (the default)
        s.gds_cell = tops.size() == 1 && tops[0] == cell().toStdString() ? std::string() : cell().toStdString();
        s.gds_layer = l;
        const Vec2 t = translate();
        s.translate = {t.x, t.y, 0};
        if (dbUnitUm() != fileDbUnitUm()) s.gds_db_unit_um = dbUnitUm();
        try {
            (void)gds_shape_polygons(s);
        } catch (const std::exception& e) {
            prompts_->error(tr("Import GDS"), QString::fromStdString(e.what()));
            return false;
        }
        if (target >= 0 && target < int(pr.layers.size())) {
            filled.emplace_back(target, std::move(s));
            continue;
        }
        const QString name = layerName(l).trimmed();
        const QString material = layerMaterial(l);
        if (name.isEmpty() || material.isEmpty()) {
            prompts_->error(tr("Import GDS"), tr("Layer %1 needs a name and a material.").arg(pair_text(l)));
            return false;
        }
        Layer layer;
        layer.name = name.toStdString();
        layer.material = material.toStdString();
        layer.gds_layer = l;
        if (is3d) {
            const auto z = layerZ(l);
            if (!z) {
                prompts_->error(tr("Import GDS"), tr("Layer %1: the z range \"%2\" is not two numbers z0, z1 (µm) with z0 < z1.")
                                                      .arg(pair_text(l), table_->item(rowOf(l), ColZ)->text()));
                return false;
            }
            layer.z = *z;
        }
        layer.shapes = {s};
        added.push_back(std::move(layer));
    }
    if (added.empty() && filled.empty()) {
        prompts_->error(tr("Import GDS"), tr("Tick at least one layer."));
        return false;
    }
    const int first = int(pr.layers.size());
    const int firstFilled = filled.empty() ? -1 : filled.front().first;
    const auto apply = [&](Project& p) {
        for (const auto& [index, shape] : filled) {
            Layer& L = p.layers[size_t(index)];
            // a re-import of the same file and layer/datatype replaces the earlier shape
            const auto same = [&](const Shape& old) {
                return old.type == ShapeType::Gds && old.gds_layer == shape.gds_layer && old.file_name == shape.file_name;
            };
            L.shapes.erase(std::remove_if(L.shapes.begin(), L.shapes.end(), same), L.shapes.end());
            L.shapes.push_back(shape);
            if (!L.gds_layer) L.gds_layer = shape.gds_layer;
        }
        for (const Layer& l : added) p.layers.push_back(l);
    };
    {  // warn now rather than at the save: a project GoLightly could not open again is not made
        Project trial = pr;
        apply(trial);
        const std::string problem = save_size_problem(trial);
        if (!problem.empty()) {
            prompts_->error(tr("Import GDS"), tr("Not imported: with %1 %2.")
                                                  .arg(QFileInfo(path_).fileName(), QString::fromStdString(problem)));
            return false;
        }
    }
    doc_->editProject(tr("Import GDS %1").arg(QFileInfo(path_).fileName()), apply);
    doc_->setCurrentLayer(added.empty() ? firstFilled : first);
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

std::optional<std::array<int, 2>> parse_gds_layer(const QString& text) {
    QString t = text;
    t.replace(QLatin1Char('/'), QLatin1Char(' ')).replace(QLatin1Char(','), QLatin1Char(' '));
    const QStringList parts = t.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (parts.isEmpty() || parts.size() > 2) return std::nullopt;
    std::array<int, 2> out{0, 0};
    for (int k = 0; k < int(parts.size()); ++k) {
        bool ok = false;
        const int v = parts[k].toInt(&ok);
        if (!ok || v < 0 || v > 65535) return std::nullopt;
        out[size_t(k)] = v;
    }
    return out;
}

bool assign_missing_gds_layers(EditorDocument& doc, Prompts& prompts) {
    const Project& pr = doc.project();
    const std::vector<std::size_t> missing = gds_layers_without_number(pr);
    if (missing.empty()) return true;
    std::vector<std::array<int, 2>> used;
    for (const Layer& L : pr.layers)
        if (L.gds_layer) used.push_back(*L.gds_layer);
    std::vector<std::pair<std::size_t, std::array<int, 2>>> chosen;
    for (std::size_t i : missing) {
        int proposal = 1;
        while (std::any_of(used.begin(), used.end(), [&](const std::array<int, 2>& u) { return u[0] == proposal; })) ++proposal;
        const QString name = QString::fromStdString(pr.layers[i].name);
        const auto answer = prompts.askText(
            GdsImportDialog::tr("Export GDS"),
            GdsImportDialog::tr("Layer \"%1\" has no GDS layer. Write it on layer/datatype (kept with the layer, so "
                                "that importing the file again fills this layer):")
                .arg(name),
            QStringLiteral("%1/0").arg(proposal));
        if (!answer) return false;
        const auto pair = parse_gds_layer(*answer);
        if (!pair) {
            prompts.error(GdsImportDialog::tr("Export GDS"),
                          GdsImportDialog::tr("Layer \"%1\": \"%2\" is not a GDS layer/datatype such as 3/0 (each 0 to 65535).")
                              .arg(name, *answer));
            return false;
        }
        used.push_back(*pair);
        chosen.emplace_back(i, *pair);
    }
    doc.editProject(GdsImportDialog::tr("Set GDS layers"), [&](Project& p) {
        for (const auto& [i, pair] : chosen) p.layers[i].gds_layer = pair;
    });
    return true;
}

bool export_gds_document(EditorDocument& doc, const QString& path, const QString& cell, Prompts& prompts,
                         QStringList* warnings) {
    if (!assign_missing_gds_layers(doc, prompts)) return false;
    return export_gds_file(doc.project(), path, cell, prompts, warnings);
}

}  // namespace golightly::editor
