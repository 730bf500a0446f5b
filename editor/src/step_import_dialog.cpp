// GoLightly editor: the STEP import dialog (step_import_dialog.hpp) and its section
// preview. The file reader and default placement are step_import_dialog_reader.cpp,
// re-import step_import_dialog_reimport.cpp.
#include "step_import_dialog.hpp"

#include "number_spin_box.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "canvas.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"
#include "golightly/image_io.hpp"
#include "step_import_dialog_internal.hpp"

namespace golightly::editor {

using namespace step_import_detail;

// ---------------------------------------------------------------- preview

/// The domain and the sections of the solids at slice_z: included ones filled in their
/// file colour, left-out ones dashed.
class StepSectionPreview : public QWidget {
public:
    explicit StepSectionPreview(QWidget* parent) : QWidget(parent) { setMinimumSize(260, 220); }
    QRectF domain;
    double sliceZ = 0;
    std::vector<QPainterPath> paths;
    std::vector<QColor> colors;
    std::vector<bool> included;

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), QColor(250, 250, 252));
        p.setRenderHint(QPainter::Antialiasing, true);
        QRectF world = domain;
        for (const auto& path : paths)
            if (!path.isEmpty()) world = world.united(path.boundingRect());
        if (world.width() <= 0 || world.height() <= 0) return;
        const QRectF target = QRectF(rect()).adjusted(10, 24, -10, -10);
        const double s = std::min(target.width() / world.width(), target.height() / world.height());
        QTransform t;
        t.translate(target.center().x(), target.center().y());
        t.scale(s, -s);
        t.translate(-world.center().x(), -world.center().y());
        p.setPen(QPen(QColor(40, 40, 40), 1.2));
        p.setBrush(QColor(235, 240, 245));
        p.drawRect(t.mapRect(domain));
        for (size_t k = 0; k < paths.size(); ++k) {
            if (paths[k].isEmpty()) continue;
            const QColor c = k < colors.size() ? colors[k] : QColor(120, 120, 200);
            const bool on = k < included.size() && included[k];
            QColor fill = c;
            fill.setAlpha(on ? 170 : 0);
            p.setBrush(fill);
            p.setPen(QPen(on ? c.darker(160) : QColor(130, 130, 130), 1.0, on ? Qt::SolidLine : Qt::DashLine));
            p.drawPath(t.map(paths[k]));
        }
        p.setPen(QColor(60, 60, 60));
        p.drawText(QRectF(rect()).adjusted(8, 4, -8, 0), Qt::AlignTop | Qt::AlignLeft,
                   StepImportDialog::tr("Section at z = %1 µm").arg(fmt_um(sliceZ)));
    }
};

// ---------------------------------------------------------------- dialog

StepImportDialog::StepImportDialog(EditorDocument* doc, Prompts* prompts, QWidget* parent)
    : QDialog(parent), doc_(doc), prompts_(prompts), reader_(new StepFileReader(this)) {
    setWindowTitle(tr("Import STEP"));
    setObjectName(QStringLiteral("stepImportDialog"));
    auto* top = new QVBoxLayout(this);
    fileLabel_ = new QLabel(this);
    fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(fileLabel_);
    auto* progressRow = new QHBoxLayout;
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setFormat(tr("Reading... %p%"));
    cancelRead_ = new QPushButton(tr("Cancel reading"), this);
    progressRow->addWidget(progress_, 1);
    progressRow->addWidget(cancelRead_);
    top->addLayout(progressRow);

    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);

    auto* placementBox = new QGroupBox(tr("Placement"), left);
    auto* form = new QFormLayout(placementBox);
    unitLabel_ = new QLabel(placementBox);
    form->addRow(tr("File unit"), unitLabel_);
    auto spin = [&](double lo, double hi, int decimals, const QString& suffix) {
        auto* s = new NumberSpinBox(placementBox);
        s->setRange(lo, hi);
        s->setDecimals(decimals);
        s->setSuffix(suffix);
        s->setKeyboardTracking(false);
        connect(s, &QDoubleSpinBox::valueChanged, this, [this] {
            if (!updating_) scheduleSections();
        });
        return s;
    };
    scale_ = spin(1e-9, 1e12, 6, tr(" µm per unit"));
    scale_->setToolTip(tr("Length of one file unit in µm (the file's own unit is proposed: mm = 1000)"));
    form->addRow(tr("Unit scale"), scale_);
    const char* axes[3] = {"x", "y", "z"};
    auto* trRow = new QHBoxLayout;
    auto* rotRow = new QHBoxLayout;
    for (int a = 0; a < 3; ++a) {
        translate_[size_t(a)] = spin(-1e12, 1e12, 4, tr(" µm"));
        translate_[size_t(a)]->setPrefix(QStringLiteral("%1 ").arg(QLatin1String(axes[a])));
        trRow->addWidget(translate_[size_t(a)]);
        rotate_[size_t(a)] = spin(-360, 360, 3, tr(" deg"));
        rotate_[size_t(a)]->setPrefix(QStringLiteral("%1 ").arg(QLatin1String(axes[a])));
        rotRow->addWidget(rotate_[size_t(a)]);
    }
    form->addRow(tr("Translation"), trRow);
    form->addRow(tr("Rotation"), rotRow);
    // the 2D cut: where the solids are sliced (the project's domain.slice_z, set on Import)
    sliceZ_ = spin(-1e12, 1e12, 4, tr(" µm"));
    sliceZ_->setObjectName(QStringLiteral("stepSliceZ"));
    sliceZ_->setToolTip(tr("Height of the slice plane: the 2D simulation uses the section of the solids at this z "
                           "(the project's slice plane, changed on Import)"));
    const bool three = doc_->project().domain.dimensions == 3;
    {
        const QSignalBlocker block(sliceZ_);
        sliceZ_->setValue(three ? 0.5 * doc_->project().domain.size[2] : doc_->project().domain.slice_z);
    }
    if (three)  // 3D: the solids are placed in z by Translation z; the plane only previews a section
        sliceZ_->setToolTip(tr("3D project: the solids keep their 3D shape, placed in z by the translation's z; "
                               "this plane only chooses the section shown here (and \"Centre in domain\" puts the "
                               "part's middle on it)"));
    form->addRow(three ? tr("Section z (preview)") : tr("Slice plane z"), sliceZ_);
    auto* centre = new QPushButton(tr("Centre in domain"), placementBox);
    centreButton_ = centre;
    centre->setToolTip(tr("Centre the part in x and y in the domain and put the slice plane through the middle of its z range"));
    auto* fit = new QPushButton(tr("Fit into domain"), placementBox);
    fitButton_ = fit;
    fit->setObjectName(QStringLiteral("stepFit"));
    fit->setToolTip(tr("Choose the scale so that the part spans 80 % of the domain, then centre it"));
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addWidget(centre);
    buttonRow->addWidget(fit);
    form->addRow(QString(), buttonRow);
    connect(fit, &QPushButton::clicked, this, [this, centre] {
        if (!loaded_) return;
        const double w = model_.bbox_max[0] - model_.bbox_min[0], h = model_.bbox_max[1] - model_.bbox_min[1];
        const auto& d = doc_->project().domain;
        const double s = 0.8 * std::min(d.size[0] / std::max(w, 1e-12), d.size[1] / std::max(h, 1e-12));
        if (!(s > 0) || !std::isfinite(s)) return;
        updating_ = true;
        scale_->setValue(s);
        updating_ = false;
        centre->click();
    });
    connect(centre, &QPushButton::clicked, this, [this] {
        if (!loaded_) return;
        try {
            Shape s = baseShape();
            s.translate = {0, 0, 0};
            const auto b = step_bounds_um(s);
            const auto& d = doc_->project().domain;
            updating_ = true;
            translate_[0]->setValue(0.5 * d.size[0] - 0.5 * (b[0] + b[3]));
            translate_[1]->setValue(0.5 * d.size[1] - 0.5 * (b[1] + b[4]));
            translate_[2]->setValue(sliceZ() - 0.5 * (b[2] + b[5]));
            updating_ = false;
            updateSections();
        } catch (const std::exception&) {
            updating_ = false;
        }
    });
    leftLayout->addWidget(placementBox);

    table_ = new QTableWidget(0, ColCount, left);
    table_->setHorizontalHeaderLabels({tr("Solid"), tr("Colour"), tr("Size (µm)"), tr("Section area (µm²)"), tr("Layer"),
                                       tr("Material")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setVisible(false);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* it) {
        if (updating_ || it->column() != ColName) return;
        if (it->row() >= 0 && it->row() < int(chosen_.size())) chosen_[size_t(it->row())] = 1;  // by hand: kept
        updateSections();
    });
    leftLayout->addWidget(table_, 1);
    status_ = new QLabel(left);
    status_->setWordWrap(true);
    status_->setObjectName(QStringLiteral("stepImportStatus"));
    leftLayout->addWidget(status_);
    preview_ = new StepSectionPreview(split);
    split->addWidget(left);
    split->addWidget(preview_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    top->addWidget(split, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    okButton_ = buttons->button(QDialogButtonBox::Ok);
    okButton_->setText(tr("Import"));
    okButton_->setEnabled(false);
    // keyboard order: placement top to bottom (x, y, z before the rotations), the table, the buttons
    QWidget* order[] = {scale_, translate_[0], translate_[1], translate_[2], rotate_[0], rotate_[1], rotate_[2],
                        sliceZ_, centreButton_, fitButton_, table_, okButton_, buttons->button(QDialogButtonBox::Cancel)};
    for (size_t k = 1; k < std::size(order); ++k) setTabOrder(order[k - 1], order[k]);
    connect(buttons, &QDialogButtonBox::accepted, this, &StepImportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &StepImportDialog::reject);
    top->addWidget(buttons);

    sectionTimer_ = new QTimer(this);
    sectionTimer_->setSingleShot(true);
    sectionTimer_->setInterval(250);
    connect(sectionTimer_, &QTimer::timeout, this, &StepImportDialog::updateSections);
    connect(reader_, &StepFileReader::progress, this, [this](double f, const QString& stage) {
        progress_->setValue(int(std::lround(1000 * std::clamp(f, 0.0, 1.0))));
        const QString st = stage == QLatin1String("reading")        ? tr("reading")
                           : stage == QLatin1String("transferring") ? tr("transferring")
                           : stage == QLatin1String("solids")       ? tr("solids")
                                                                    : stage;
        progress_->setFormat(tr("Reading (%1)... %p%").arg(st));
    });
    connect(reader_, &StepFileReader::finished, this, &StepImportDialog::readerFinished);
    connect(cancelRead_, &QPushButton::clicked, reader_, &StepFileReader::cancel);
    resize(1000, 560);
}

StepImportDialog::~StepImportDialog() = default;

double StepImportDialog::sliceZ() const { return sliceZ_ ? sliceZ_->value() : doc_->project().domain.slice_z; }

bool StepImportDialog::isLoading() const { return reader_->isRunning(); }
double StepImportDialog::readSeconds() const { return reader_->seconds(); }

void StepImportDialog::loadFile(const QString& path) {
    path_ = path;
    loaded_ = false;
    okButton_->setEnabled(false);
    fileLabel_->setText(tr("File: %1").arg(QDir::toNativeSeparators(path)));
    progress_->setValue(0);
    progress_->setVisible(true);
    cancelRead_->setVisible(true);
    status_->setText(tr("Reading the file..."));
    loadTimer_.start();
    reader_->start(path);
}

bool StepImportDialog::waitForLoaded(int timeoutMs) {
    reader_->waitForFinished(timeoutMs);
    QCoreApplication::processEvents();
    return loaded_;
}

void StepImportDialog::readerFinished(bool ok) {
    progress_->setVisible(false);
    cancelRead_->setVisible(false);
    if (!ok) {
        if (!reader_->cancelled() && prompts_) prompts_->error(tr("Import STEP"), reader_->error());
        Q_EMIT loaded(false);
        QDialog::reject();
        return;
    }
    model_ = reader_->model();
    dataBase64_ = base64_encode(reader_->bytes());
    const QString base = QFileInfo(path_).completeBaseName();
    // the new layer and material: named after the file, unique
    const Project& p = doc_->project();
    auto layerExists = [&](const QString& n) {
        return std::any_of(p.layers.begin(), p.layers.end(), [&](const Layer& l) { return qs(l.name) == n; });
    };
    newLayer_ = base.isEmpty() ? tr("STEP import") : base;
    for (int k = 2; layerExists(newLayer_); ++k) newLayer_ = QStringLiteral("%1 %2").arg(base).arg(k);
    QString id = base.toLower();
    for (QChar& c : id)
        if (!c.isLetterOrNumber()) c = QLatin1Char('_');
    if (id.isEmpty()) id = QStringLiteral("step");
    newMaterialId_ = id;
    for (int k = 2; p.find_material(newMaterialId_.toStdString()); ++k) newMaterialId_ = QStringLiteral("%1_%2").arg(id).arg(k);

    unitLabel_->setText(tr("%1 (1 unit = %2 µm)")
                            .arg(model_.length_unit.empty() ? tr("not given") : qs(model_.length_unit))
                            .arg(model_.unit_um, 0, 'g', 8));
    updating_ = true;
    setPlacement(default_step_placement(model_, p, model_.unit_um));
    updating_ = false;
    fillTable();
    loaded_ = true;
    okButton_->setEnabled(true);
    updateSections();
    loadSeconds_ = loadTimer_.elapsed() / 1000.0;
    Q_EMIT loaded(true);
}

void StepImportDialog::fillTable() {
    updating_ = true;
    const Project& p = doc_->project();
    const int n = int(model_.solids.size());
    table_->setRowCount(n);
    chosen_.assign(size_t(n), 0);
    QString defaultMaterial = newMaterialId_;
    for (const Material& m : p.materials)
        if (m.id != p.domain.background) {
            defaultMaterial = qs(m.id);
            break;
        }
    for (int k = 0; k < n; ++k) {
        const StepSolid& s = model_.solids[size_t(k)];
        auto* name = new QTableWidgetItem(qs(s.name));
        name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        name->setCheckState(Qt::Checked);
        name->setToolTip(tr("Include this solid"));
        table_->setItem(k, ColName, name);
        auto* color = new QTableWidgetItem(s.has_color ? solid_color(s).name() : tr("none"));
        color->setFlags(Qt::ItemIsEnabled);
        if (s.has_color) color->setBackground(solid_color(s));
        table_->setItem(k, ColColor, color);
        for (int c : {int(ColBounds), int(ColArea)}) {
            auto* it = new QTableWidgetItem;
            it->setFlags(Qt::ItemIsEnabled);
            table_->setItem(k, c, it);
        }
        auto* layer = new QComboBox(table_);
        layer->setEditable(true);
        layer->addItem(newLayer_);
        for (const Layer& l : p.layers) layer->addItem(qs(l.name));
        layer->setCurrentIndex(0);
        layer->setToolTip(tr("An existing layer, or type the name of a new one"));
        table_->setCellWidget(k, ColLayer, layer);
        auto* material = new QComboBox(table_);
        for (const Material& m : p.materials)
            material->addItem(m.name.empty() || m.name == m.id ? qs(m.id) : QStringLiteral("%1 (%2)").arg(qs(m.id), qs(m.name)),
                              qs(m.id));
        material->addItem(tr("new: %1 (eps 2.25)").arg(newMaterialId_), newMaterialId_);
        material->setCurrentIndex(std::max(0, material->findData(defaultMaterial)));
        material->setToolTip(tr("The material of a new layer (an existing layer keeps its own)"));
        table_->setCellWidget(k, ColMaterial, material);
        auto syncMaterial = [this, layer, material] {
            // an existing layer has its material: show it, fixed
            const Project& pr = doc_->project();
            const QString name = layer->currentText().trimmed();
            const Layer* hit = nullptr;
            for (const Layer& l : pr.layers)
                if (qs(l.name) == name) hit = &l;
            if (hit) {
                const int i = material->findData(qs(hit->material));
                if (i >= 0) material->setCurrentIndex(i);
            }
            material->setEnabled(!hit);
        };
        connect(layer, &QComboBox::currentTextChanged, this, syncMaterial);
        syncMaterial();
    }
    updating_ = false;
}

void StepImportDialog::setPlacement(const StepPlacement& pl) {
    const bool was = updating_;
    updating_ = true;
    scale_->setValue(pl.scale);
    for (int a = 0; a < 3; ++a) {
        translate_[size_t(a)]->setValue(pl.translate[size_t(a)]);
        rotate_[size_t(a)]->setValue(pl.rotate_deg[size_t(a)]);
    }
    updating_ = was;
    if (!updating_ && loaded_) updateSections();
}

StepPlacement StepImportDialog::placement() const {
    StepPlacement pl;
    pl.scale = scale_->value();
    for (int a = 0; a < 3; ++a) {
        pl.translate[size_t(a)] = translate_[size_t(a)]->value();
        pl.rotate_deg[size_t(a)] = rotate_[size_t(a)]->value();
    }
    return pl;
}

void StepImportDialog::setSolidIncluded(int solid, bool on) {
    if (auto* it = table_->item(solid, ColName)) it->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

bool StepImportDialog::solidIncluded(int solid) const {
    auto* it = table_->item(solid, ColName);
    return it && it->checkState() == Qt::Checked;
}

void StepImportDialog::setSolidLayer(int solid, const QString& name) {
    if (auto* c = qobject_cast<QComboBox*>(table_->cellWidget(solid, ColLayer))) c->setCurrentText(name);
}

QString StepImportDialog::solidLayer(int solid) const {
    auto* c = qobject_cast<QComboBox*>(table_->cellWidget(solid, ColLayer));
    const QString t = c ? c->currentText().trimmed() : QString();
    return t.isEmpty() ? newLayer_ : t;
}

void StepImportDialog::setSolidMaterial(int solid, const QString& id) {
    if (auto* c = qobject_cast<QComboBox*>(table_->cellWidget(solid, ColMaterial))) {
        const int i = c->findData(id);
        if (i >= 0) c->setCurrentIndex(i);
    }
}

QString StepImportDialog::solidMaterial(int solid) const {
    auto* c = qobject_cast<QComboBox*>(table_->cellWidget(solid, ColMaterial));
    return c ? c->currentData().toString() : QString();
}

QString StepImportDialog::statusText() const { return status_->text(); }

Shape StepImportDialog::baseShape() const {
    Shape s;
    s.type = ShapeType::Step;
    s.file_name = QFileInfo(path_).fileName().toStdString();
    s.data_base64 = dataBase64_;
    const StepPlacement pl = placement();
    s.scale = pl.scale;
    s.rotate_deg = pl.rotate_deg;
    s.translate = pl.translate;
    return s;
}

void StepImportDialog::scheduleSections() {
    if (loaded_) sectionTimer_->start();
}

void StepImportDialog::updateSections() {
    sectionTimer_->stop();
    if (!loaded_) return;
    const int n = int(model_.solids.size());
    const double z = sliceZ();
    areas_.assign(size_t(n), 0.0);
    sections_.assign(size_t(n), QPainterPath());
    QString error;
    const Shape all = baseShape();
    try {
        for (const StepSolidSection& sec : step_section_solids(all, z, section_tolerance(all))) {
            if (sec.solid < 0 || sec.solid >= n) continue;
            areas_[size_t(sec.solid)] = sec.area_um2;
            QPainterPath& path = sections_[size_t(sec.solid)];
            path.setFillRule(Qt::WindingFill);
            for (const auto& ring : sec.outline) {
                QPolygonF poly;
                for (const auto& v : ring) poly << QPointF(v.x, v.y);
                if (!poly.isEmpty()) poly << poly.front();
                path.addPolygon(poly);
                path.closeSubpath();
            }
        }
    } catch (const std::exception& e) {
        error = qs(e.what());
    }
    const double sc = scale_->value();
    QStringList missing;
    int included = 0, crossing = 0, leftOut = 0;
    // 2D: a solid not ticked or unticked by hand is included exactly when the slice plane
    // crosses it, so that the defaults import (a part whose pins end above the plane is
    // not refused for them). 3D keeps every solid: it is placed whole, not cut.
    const bool follow = doc_->project().domain.dimensions != 3 && error.isEmpty();
    updating_ = true;
    for (int k = 0; k < n; ++k) {
        const StepSolid& s = model_.solids[size_t(k)];
        if (follow && k < int(chosen_.size()) && !chosen_[size_t(k)]) {
            const bool cuts = !sections_[size_t(k)].isEmpty();
            table_->item(k, ColName)->setCheckState(cuts ? Qt::Checked : Qt::Unchecked);
            leftOut += !cuts;
        }
        table_->item(k, ColBounds)
            ->setText(QStringLiteral("%1 x %2 x %3")
                          .arg(fmt_um(sc * (s.bbox_max[0] - s.bbox_min[0])), fmt_um(sc * (s.bbox_max[1] - s.bbox_min[1])),
                               fmt_um(sc * (s.bbox_max[2] - s.bbox_min[2]))));
        QTableWidgetItem* area = table_->item(k, ColArea);
        if (areas_[size_t(k)] > 0 || !sections_[size_t(k)].isEmpty()) {
            area->setText(fmt_um(areas_[size_t(k)]));
            area->setForeground(QBrush());
        } else {
            area->setText(tr("misses the slice plane"));
            area->setForeground(QColor(180, 30, 30));
        }
        if (solidIncluded(k)) {
            ++included;
            if (sections_[size_t(k)].isEmpty()) missing << qs(s.name);
            else ++crossing;
        }
    }
    updating_ = false;
    QString text;
    if (!error.isEmpty()) text = tr("Cannot cut the solids: %1").arg(error);
    else if (included == 0 && leftOut > 0)
        text = tr("No solid crosses the slice plane z = %1 µm. Move the part (translation z) or change the slice plane.")
                   .arg(fmt_um(z));
    else if (included == 0) text = tr("No solid is included.");
    else if (!missing.isEmpty())
        text = tr("%n chosen solid(s) do not cross the slice plane z = %1 µm: %2. Move the part (translation z), "
                  "change the slice plane or leave them out.", "", int(missing.size()))
                   .arg(fmt_um(z), missing.join(QStringLiteral(", ")));
    else if (leftOut > 0)
        text = tr("%n solid(s) cross the slice plane z = %1 µm; %2 that miss it are left out (tick one to include it).",
                  "", crossing)
                   .arg(fmt_um(z))
                   .arg(leftOut);
    else
        text = tr("%n solid(s) cross the slice plane z = %1 µm.", "", crossing).arg(fmt_um(z));
    status_->setText(text);
    status_->setStyleSheet(error.isEmpty() && missing.isEmpty() && included > 0 ? QString()
                                                                                  : QStringLiteral("color: #b41e1e;"));
    const auto& d = doc_->project().domain;
    preview_->domain = QRectF(0, 0, d.size[0], d.size[1]);
    preview_->sliceZ = z;
    preview_->paths = sections_;
    preview_->colors.clear();
    preview_->included.clear();
    for (int k = 0; k < n; ++k) {
        const StepSolid& s = model_.solids[size_t(k)];
        // the file's colour, unless it is too light to see on the preview's background
        preview_->colors.push_back(s.has_color && solid_color(s).lightnessF() < 0.8 ? solid_color(s) : QColor(110, 130, 200));
        preview_->included.push_back(solidIncluded(k));
    }
    preview_->update();
}

bool StepImportDialog::importIntoDocument() {
    const QString title = tr("Import STEP");
    const QString file = QDir::toNativeSeparators(path_);
    if (!loaded_) {
        if (prompts_) prompts_->error(title, tr("No STEP file is loaded."));
        return false;
    }
    const Project& p = doc_->project();
    // group the included solids by target layer, in first-use order
    std::vector<QString> layerOrder;
    std::map<QString, std::vector<int>> groups;
    std::map<QString, QString> materialOf;
    const int n = int(model_.solids.size());
    for (int k = 0; k < n; ++k) {
        if (!solidIncluded(k)) continue;
        const QString layer = solidLayer(k);
        if (!groups.count(layer)) layerOrder.push_back(layer);
        groups[layer].push_back(k);
        const QString m = solidMaterial(k);
        auto it = materialOf.find(layer);
        if (it == materialOf.end()) materialOf[layer] = m;
        else if (it->second != m) {
            bool existing = false;
            for (const Layer& l : p.layers) existing = existing || qs(l.name) == layer;
            if (!existing) {
                if (prompts_)
                    prompts_->error(title, tr("Cannot import %1: the solids on the new layer \"%2\" have different "
                                              "materials (%3, %4); a layer has one material.")
                                               .arg(file, layer, it->second, m));
                return false;
            }
        }
    }
    // 2D: a ticked solid that the slice plane misses would give the layer no geometry;
    // refuse in words and µm (the solver's own message names JSON keys)
    if (doc_->project().domain.dimensions != 3) {
        if (sectionTimer_->isActive()) updateSections();
        QStringList missing;
        for (int k = 0; k < n; ++k)
            if (solidIncluded(k) && k < int(sections_.size()) && sections_[size_t(k)].isEmpty()) {
                const StepSolid& s = model_.solids[size_t(k)];
                const StepPlacement pl = placement();
                // its z range where the part is not rotated (else the table's size tells)
                if (pl.rotate_deg == std::array<double, 3>{0, 0, 0})
                    missing << tr("%1 (z %2 to %3 µm)")
                                   .arg(qs(s.name), fmt_um(pl.scale * s.bbox_min[2] + pl.translate[2]),
                                        fmt_um(pl.scale * s.bbox_max[2] + pl.translate[2]));
                else
                    missing << qs(s.name);
            }
        if (!missing.isEmpty()) {
            if (prompts_)
                prompts_->error(title, tr("Cannot import %1: %n ticked solid(s) do not cross the slice plane at z = %2 µm: "
                                          "%3.\n\nMove the part up or down (Translation z), change the slice plane, or "
                                          "untick those solids.", "", int(missing.size()))
                                           .arg(file, fmt_um(sliceZ()), missing.join(QStringLiteral(", "))));
            return false;
        }
    }
    if (layerOrder.empty()) {
        if (prompts_) {
            int miss = 0;
            for (int k = 0; k < n && k < int(sections_.size()); ++k) miss += sections_[size_t(k)].isEmpty();
            if (doc_->project().domain.dimensions != 3 && miss == n)
                prompts_->error(title, tr("Cannot import %1: no solid is ticked; none of them cross the slice plane at "
                                          "z = %2 µm. Move the part up or down (Translation z) or change the slice plane.")
                                           .arg(file, fmt_um(sliceZ())));
            else
                prompts_->error(title, tr("Cannot import %1: no solid is included.").arg(file));
        }
        return false;
    }
    const Shape base = baseShape();
    std::vector<std::pair<QString, Shape>> shapes;
    for (const QString& layer : layerOrder) {
        Shape s = base;
        const auto& g = groups[layer];
        if (!(layerOrder.size() == 1 && int(g.size()) == n)) s.solids = g;  // empty = all solids
        try {
            if (doc_->project().domain.dimensions == 3) step_bounds_um(s);  // 3D: placed anywhere in z
            else checked_sections(s, sliceZ());
        } catch (const std::exception& e) {
            if (prompts_) prompts_->error(title, tr("Cannot import %1:\n%2").arg(file, qs(e.what())));
            return false;
        }
        shapes.emplace_back(layer, std::move(s));
    }
    int firstLayer = -1;
    const double sliceZValue = sliceZ();
    const auto apply = [&](Project& pr) {
        if (pr.domain.dimensions != 3) pr.domain.slice_z = sliceZValue;  // ignored in 3D
        bool materialAdded = false;
        for (auto& [layer, shape] : shapes) {
            int li = -1;
            for (int l = 0; l < int(pr.layers.size()); ++l)
                if (qs(pr.layers[size_t(l)].name) == layer) {
                    li = l;
                    break;
                }
            if (li < 0) {
                Layer nl;
                nl.name = layer.toStdString();
                nl.material = materialOf[layer].toStdString();
                if (materialOf[layer] == newMaterialId_ && !pr.find_material(nl.material) && !materialAdded) {
                    Material m;
                    m.id = nl.material;
                    m.name = QFileInfo(path_).completeBaseName().toStdString();
                    m.epsilon_inf = 2.25;
                    const int first = groups[layer].front();
                    const StepSolid& s = model_.solids[size_t(first)];
                    // the file's colour, unless it is too light to see on the canvas
                    if (s.has_color && solid_color(s).lightnessF() < 0.8) m.color = solid_color(s).name().toStdString();
                    pr.materials.push_back(m);
                    materialAdded = true;
                }
                pr.layers.push_back(nl);
                li = int(pr.layers.size()) - 1;
            }
            pr.layers[size_t(li)].shapes.push_back(shape);
            if (firstLayer < 0) firstLayer = li;
        }
    };
    {  // refuse now rather than at the save: a project GoLightly could not open again is not made
        Project trial = doc_->project();
        apply(trial);
        if (const std::string problem = save_size_problem(trial); !problem.empty()) {
            if (prompts_)
                prompts_->error(title, tr("Not imported: with %1 %2.").arg(QFileInfo(path_).fileName(), qs(problem)));
            return false;
        }
        firstLayer = -1;
    }
    doc_->editProject(tr("Import STEP %1").arg(QFileInfo(path_).fileName()), apply);
    if (firstLayer >= 0) {
        doc_->setCurrentLayer(firstLayer);
        doc_->setSelection({ItemRef::Kind::Shape, firstLayer, int(doc_->project().layers[size_t(firstLayer)].shapes.size()) - 1});
    }
    return true;
}

void StepImportDialog::accept() {
    if (importIntoDocument()) QDialog::accept();
}

void StepImportDialog::reject() {
    if (reader_->isRunning()) reader_->cancel();
    QDialog::reject();
}

}  // namespace golightly::editor
