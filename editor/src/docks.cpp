#include "docks.hpp"
#include "switch_3d_dialog.hpp"
#include "dimensions.hpp"
#include "ports.hpp"

#include <QAbstractItemModel>
#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "canvas.hpp"
#include "dock_util.hpp"
#include "expressions.hpp"
#include "material_editor.hpp"
#include "number_spin_box.hpp"
#include "run_checks.hpp"

namespace golightly::editor {

namespace {

QIcon swatch(const QColor& c) {
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setPen(c.darker(160));
    p.setBrush(c);
    p.drawRoundedRect(QRectF(0.5, 0.5, 13, 13), 2, 2);
    return QIcon(pm);
}

}  // namespace

// ---------------------------------------------------------------- layers

LayersDock::LayersDock(EditorDocument* doc, QWidget* parent) : QDockWidget(tr("Layers"), parent), doc_(doc) {
    setObjectName(QStringLiteral("LayersDock"));
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    list_ = new QListWidget;
    list_->setDragDropMode(QAbstractItemView::InternalMove);
    list_->setDefaultDropAction(Qt::MoveAction);
    list_->setToolTip(tr("Layers, topmost first: a layer wins where it overlaps the ones below it.\n"
                         "Check box: show/hide. Double-click: rename. Drag: reorder."));
    v->addWidget(list_);

    auto* buttons = new QHBoxLayout;
    auto mk = [&](const QString& text, const QString& tip) {
        auto* b = new QPushButton(text);
        b->setToolTip(tip);
        b->setMaximumWidth(56);
        buttons->addWidget(b);
        return b;
    };
    QPushButton* add = mk(tr("Add"), tr("Add a layer above the current one"));
    QPushButton* del = mk(tr("Delete"), tr("Delete the current layer"));
    QPushButton* up = mk(tr("Up"), tr("Move the current layer up (drawn later, wins overlaps)"));
    QPushButton* down = mk(tr("Down"), tr("Move the current layer down"));
    lock_ = mk(tr("Lock"), tr("Lock or unlock the current layer"));
    lock_->setCheckable(true);
    v->addLayout(buttons);

    auto* form = new QFormLayout;
    material_ = new QComboBox;
    form->addRow(tr("Material"), material_);
    zEnabled_ = new QCheckBox(tr("Limit z range"));
    form->addRow(QString(), zEnabled_);
    auto* zRow = new QHBoxLayout;
    zMin_ = make_spin(-1e4, 1e4, 3, 0.01, tr(" µm"));
    zMax_ = make_spin(-1e4, 1e4, 3, 0.01, tr(" µm"));
    zRow->addWidget(zMin_);
    zRow->addWidget(new QLabel(tr("to")));
    zRow->addWidget(zMax_);
    form->addRow(tr("z"), zRow);
    referenceOnly_ = new QCheckBox(tr("Reference run only"));
    referenceOnly_->setToolTip(tr("Left out of the main run; used by the normalization run"));
    form->addRow(QString(), referenceOnly_);
    v->addLayout(form);
    setWidget(w);

    connect(add, &QPushButton::clicked, this, &LayersDock::addLayer);
    connect(del, &QPushButton::clicked, this, &LayersDock::deleteCurrentLayer);
    connect(up, &QPushButton::clicked, this, [this] { moveCurrentLayer(+1); });
    connect(down, &QPushButton::clicked, this, [this] { moveCurrentLayer(-1); });
    connect(lock_, &QPushButton::clicked, this, &LayersDock::toggleLock);
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!updating_ && row >= 0) doc_->setCurrentLayer(layerForRow(row));
    });
    connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (updating_) return;
        const int layer = item->data(Qt::UserRole).toInt();
        QString text = item->text().trimmed();
        if (text.endsWith(tr("(reference)"))) text = text.left(text.size() - tr("(reference)").size()).trimmed();
        const std::string name = text.toStdString();
        const bool visible = item->checkState() == Qt::Checked;
        if (layer < 0 || layer >= int(doc_->project().layers.size())) return;
        const std::string oldName = doc_->project().layers[size_t(layer)].name;
        if (!name.empty() && name != oldName) {  // rename: references by name follow
            doc_->editProject(tr("Rename layer"), [&](Project& p) {
                p.layers[size_t(layer)].name = name;
                p.layers[size_t(layer)].visible = visible;
                for (auto& r : p.run.normalization.reference_layers)
                    if (r == oldName) r = name;
            });
            return;
        }
        doc_->editLayer(layer, visible ? tr("Show layer") : tr("Hide layer"), [&](Layer& l) { l.visible = visible; });
    });
    connect(list_->model(), &QAbstractItemModel::rowsMoved, this, [this] {
        if (!updating_) QTimer::singleShot(0, this, &LayersDock::applyListOrder);
    });
    connect(material_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        const std::string id = material_->itemData(i).toString().toStdString();
        doc_->editLayer(doc_->currentLayer(), tr("Set layer material"), [&](Layer& l) { l.material = id; });
    });
    auto applyZ = [this] {
        if (updating_) return;
        const bool on = zEnabled_->isChecked();
        const std::array<double, 2> z{zMin_->value(), zMax_->value()};
        doc_->editLayer(doc_->currentLayer(), tr("Set layer z range"), [&](Layer& l) {
            if (on) l.z = z;
            else l.z.reset();
        });
    };
    connect(zEnabled_, &QCheckBox::toggled, this, applyZ);
    connect(zMin_, &QDoubleSpinBox::valueChanged, this, applyZ);
    connect(zMax_, &QDoubleSpinBox::valueChanged, this, applyZ);
    connect(referenceOnly_, &QCheckBox::toggled, this, [this](bool on) {
        if (updating_) return;
        doc_->editLayer(doc_->currentLayer(), tr("Set reference-only"), [&](Layer& l) { l.reference_only = on; });
    });
    connect(doc_, &EditorDocument::changed, this, &LayersDock::refresh);
    connect(doc_, &EditorDocument::currentLayerChanged, this, &LayersDock::refresh);
    refresh();
}

int LayersDock::layerForRow(int row) const { return int(doc_->project().layers.size()) - 1 - row; }
int LayersDock::rowForLayer(int layer) const { return int(doc_->project().layers.size()) - 1 - layer; }

void LayersDock::refresh() {
    updating_ = true;
    const Project& p = doc_->project();
    list_->clear();
    for (int l = int(p.layers.size()) - 1; l >= 0; --l) {
        const Layer& layer = p.layers[size_t(l)];
        QString text = qs(layer.name);
        if (layer.reference_only) text += tr("  (reference)");
        auto* item = new QListWidgetItem(swatch(material_color(p, layer.material)), text);
        item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable | Qt::ItemIsUserCheckable |
                       Qt::ItemIsDragEnabled);
        item->setCheckState(layer.visible ? Qt::Checked : Qt::Unchecked);
        item->setData(Qt::UserRole, l);
        QString tip = tr("Material: %1").arg(qs(layer.material));
        if (layer.locked) {
            QFont f = item->font();
            f.setItalic(true);
            item->setFont(f);
            item->setForeground(QColor(110, 110, 110));
            tip += tr(" (locked)");
        }
        item->setToolTip(tip);
        list_->addItem(item);
    }
    if (doc_->currentLayer() >= 0) list_->setCurrentRow(rowForLayer(doc_->currentLayer()));
    material_->clear();
    material_->addItem(swatch(material_color(p, "air")), tr("air (eps 1)"), QStringLiteral("air"));
    for (const auto& m : p.materials) {
        if (m.id == "air") continue;
        material_->addItem(swatch(material_color(p, m.id)),
                           QStringLiteral("%1 (%2)").arg(qs(m.id), qs(m.name)), qs(m.id));
    }
    updating_ = false;
    refreshDetails();
}

void LayersDock::refreshDetails() {
    updating_ = true;
    const Project& p = doc_->project();
    const int l = doc_->currentLayer();
    const bool valid = l >= 0 && l < int(p.layers.size());
    material_->setEnabled(valid);
    zEnabled_->setEnabled(valid);
    referenceOnly_->setEnabled(valid);
    lock_->setEnabled(valid);
    if (valid) {
        const Layer& layer = p.layers[size_t(l)];
        material_->setCurrentIndex(std::max(0, material_->findData(qs(layer.material))));
        zEnabled_->setChecked(layer.z.has_value());
        zMin_->setValue(layer.z ? (*layer.z)[0] : 0.0);
        zMax_->setValue(layer.z ? (*layer.z)[1] : 0.22);
        referenceOnly_->setChecked(layer.reference_only);
        lock_->setChecked(layer.locked);
    }
    zMin_->setEnabled(valid && zEnabled_->isChecked());
    zMax_->setEnabled(valid && zEnabled_->isChecked());
    updating_ = false;
}

void LayersDock::addLayer() {
    const Project& p = doc_->project();
    const int at = doc_->currentLayer() + 1;
    Layer layer;
    for (int n = int(p.layers.size()) + 1;; ++n) {
        const std::string name = tr("Layer %1").arg(n).toStdString();
        bool used = false;
        for (const auto& l : p.layers) used |= l.name == name;
        if (!used) { layer.name = name; break; }
    }
    layer.material = p.materials.empty() ? "air" : p.materials.front().id;
    if (doc_->currentLayer() >= 0 && doc_->currentLayer() < int(p.layers.size()))
        layer.material = p.layers[size_t(doc_->currentLayer())].material;
    doc_->editProject(tr("Add layer"), [&](Project& pr) {
        pr.layers.insert(pr.layers.begin() + std::clamp(at, 0, int(pr.layers.size())), layer);
    });
    doc_->setCurrentLayer(std::clamp(at, 0, int(doc_->project().layers.size()) - 1));
}

void LayersDock::deleteCurrentLayer() {
    const int l = doc_->currentLayer();
    if (l < 0 || l >= int(doc_->project().layers.size())) return;
    doc_->setSelection({});
    doc_->editProject(tr("Delete layer"), [&](Project& pr) { pr.layers.erase(pr.layers.begin() + l); });
}

void LayersDock::moveCurrentLayer(int delta) {
    const int l = doc_->currentLayer();
    const int to = l + delta;
    if (l < 0 || to < 0 || to >= int(doc_->project().layers.size())) return;
    doc_->setSelection({});
    doc_->editProject(tr("Reorder layers"), [&](Project& pr) { std::swap(pr.layers[size_t(l)], pr.layers[size_t(to)]); });
    doc_->setCurrentLayer(to);
}

void LayersDock::toggleLock() {
    const int l = doc_->currentLayer();
    if (l < 0 || l >= int(doc_->project().layers.size())) return;
    const bool locked = !doc_->project().layers[size_t(l)].locked;
    if (locked && doc_->selection().kind == ItemRef::Kind::Shape && doc_->selection().layer == l) doc_->setSelection({});
    doc_->editLayer(l, locked ? tr("Lock layer") : tr("Unlock layer"), [&](Layer& layer) { layer.locked = locked; });
}

void LayersDock::applyListOrder() {
    const Project& p = doc_->project();
    const int n = list_->count();
    if (n != int(p.layers.size())) return;
    std::vector<Layer> order;  // project order = reversed list order
    int newCurrent = doc_->currentLayer();
    for (int row = n - 1; row >= 0; --row) {
        const int old = list_->item(row)->data(Qt::UserRole).toInt();
        if (old < 0 || old >= n) return;
        if (old == doc_->currentLayer()) newCurrent = int(order.size());
        order.push_back(p.layers[size_t(old)]);
    }
    doc_->setSelection({});
    doc_->editProject(tr("Reorder layers"), [&](Project& pr) { pr.layers = order; });
    doc_->setCurrentLayer(newCurrent);
    refresh();
}

// ---------------------------------------------------------------- materials

MaterialsDock::MaterialsDock(EditorDocument* doc, Prompts* prompts, QWidget* parent)
    : QDockWidget(tr("Materials"), parent), doc_(doc), prompts_(prompts) {
    setObjectName(QStringLiteral("MaterialsDock"));
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    table_ = new QTableWidget(0, ColCount);
    table_->setHorizontalHeaderLabels({tr("ID"), tr("Name"), tr("eps_inf"), tr("sigma (S/m)"), tr("Poles"), tr("Colour")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    v->addWidget(table_);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"));
    auto* del = new QPushButton(tr("Delete"));
    auto* editB = new QPushButton(tr("Edit..."));
    editB->setToolTip(tr("Material editor: poles in rad/s, eV or THz, plot of eps, fit to measured n,k"));
    auto* libB = new QPushButton(tr("Add from library..."));
    buttons->addWidget(add);
    buttons->addWidget(del);
    buttons->addWidget(libB);
    buttons->addStretch();
    v->addLayout(buttons);
    polesLabel_ = new QLabel;
    v->addWidget(polesLabel_);
    poles_ = new QTableWidget(0, PoleColCount);
    poles_->setHorizontalHeaderLabels({tr("Kind"), tr("omega_p (rad/s)"), tr("omega_0 (rad/s)"), tr("gamma (rad/s)")});
    poles_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    poles_->verticalHeader()->hide();
    poles_->setToolTip(tr("eps(w) = eps_inf + sum omega_p^2 / (omega_0^2 - w^2 - i w gamma); omega_0 = 0 for Drude poles.\n"
                          "Kind: type drude or lorentz."));
    poles_->setMaximumHeight(120);
    v->addWidget(poles_);
    auto* poleButtons = new QHBoxLayout;
    auto* addPoleB = new QPushButton(tr("Add pole"));
    auto* delPoleB = new QPushButton(tr("Remove pole"));
    poleButtons->addWidget(addPoleB);
    poleButtons->addWidget(delPoleB);
    poleButtons->addWidget(editB);
    poleButtons->addStretch();
    v->addLayout(poleButtons);
    setWidget(w);
    connect(addPoleB, &QPushButton::clicked, this, &MaterialsDock::addPole);
    connect(delPoleB, &QPushButton::clicked, this, &MaterialsDock::removeSelectedPole);
    connect(poles_, &QTableWidget::cellChanged, this, &MaterialsDock::poleEdited);
    connect(table_, &QTableWidget::currentCellChanged, this, [this] {
        if (!updating_) refreshPoles();
    });
    connect(add, &QPushButton::clicked, this, &MaterialsDock::addMaterial);
    connect(del, &QPushButton::clicked, this, &MaterialsDock::deleteSelectedMaterial);
    connect(table_, &QTableWidget::cellChanged, this, &MaterialsDock::cellEdited);
    connect(editB, &QPushButton::clicked, this, &MaterialsDock::editSelectedMaterial);
    connect(libB, &QPushButton::clicked, this, &MaterialsDock::addFromLibrary);
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int col) {
        if (col == ColPoles && row >= 0 && row < int(doc_->project().materials.size())) {
            editSelectedMaterial();
            return;
        }
        if (col != ColColor || row < 0 || row >= int(doc_->project().materials.size())) return;
        const QColor start = material_color(doc_->project(), doc_->project().materials[size_t(row)].id);
        const QColor c = QColorDialog::getColor(start, this, tr("Material colour"));
        if (!c.isValid()) return;
        doc_->editProject(tr("Set material colour"),
                          [&](Project& p) { p.materials[size_t(row)].color = c.name().toStdString(); });
    });
    connect(doc_, &EditorDocument::changed, this, &MaterialsDock::refresh);
    refresh();
}

void MaterialsDock::refresh() {
    updating_ = true;
    const Project& p = doc_->project();
    const int current = table_->currentRow();
    table_->setRowCount(int(p.materials.size()));
    for (int r = 0; r < int(p.materials.size()); ++r) {
        const Material& m = p.materials[size_t(r)];
        auto set = [&](int col, const QString& text, bool editable) {
            auto* item = new QTableWidgetItem(text);
            if (!editable) item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            table_->setItem(r, col, item);
            return item;
        };
        set(ColId, qs(m.id), true);
        set(ColName, qs(m.name), true);
        set(ColEps, QString::number(m.epsilon_inf, 'g', 8), true);
        set(ColSigma, QString::number(m.conductivity, 'g', 8), true);
        set(ColPoles, QString::number(m.poles.size()), false)->setToolTip(tr("Dispersion poles: double-click to open the material editor"));
        auto* c = set(ColColor, qs(m.color), false);
        c->setIcon(swatch(material_color(p, m.id)));
        c->setToolTip(tr("Double-click to choose the colour"));
    }
    if (current >= 0 && current < table_->rowCount()) table_->setCurrentCell(current, 0);
    else if (table_->rowCount() > 0) table_->setCurrentCell(0, 0);
    updating_ = false;
    refreshPoles();
}

void MaterialsDock::refreshPoles() {
    updating_ = true;
    const Project& p = doc_->project();
    const int row = table_->currentRow();
    const bool valid = row >= 0 && row < int(p.materials.size());
    poles_->setRowCount(0);
    poles_->setEnabled(valid);
    if (valid) {
        const Material& m = p.materials[size_t(row)];
        polesLabel_->setText(tr("Dispersion poles of \"%1\"").arg(qs(m.id)));
        poles_->setRowCount(int(m.poles.size()));
        for (int r = 0; r < int(m.poles.size()); ++r) {
            const Pole& pole = m.poles[size_t(r)];
            poles_->setItem(r, PoleKind, new QTableWidgetItem(pole.kind == golightly::PoleKind::Drude ? QStringLiteral("drude")
                                                                                                 : QStringLiteral("lorentz")));
            poles_->setItem(r, PoleOmegaP, new QTableWidgetItem(QString::number(pole.omega_p, 'g', 8)));
            poles_->setItem(r, PoleOmega0, new QTableWidgetItem(QString::number(pole.omega_0, 'g', 8)));
            poles_->setItem(r, PoleGamma, new QTableWidgetItem(QString::number(pole.gamma, 'g', 8)));
        }
    } else {
        polesLabel_->setText(tr("Dispersion poles (select a material)"));
    }
    updating_ = false;
}

void MaterialsDock::poleEdited(int r, int col) {
    if (updating_) return;
    const int row = table_->currentRow();
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.materials.size()) || r < 0 || r >= int(p.materials[size_t(row)].poles.size())) return;
    const QString text = poles_->item(r, col)->text().trimmed();
    Pole pole = p.materials[size_t(row)].poles[size_t(r)];
    bool ok = true;
    if (col == PoleKind) {
        if (text.compare(QStringLiteral("drude"), Qt::CaseInsensitive) == 0) {
            pole.kind = golightly::PoleKind::Drude;
            pole.omega_0 = 0;
        } else if (text.compare(QStringLiteral("lorentz"), Qt::CaseInsensitive) == 0) {
            pole.kind = golightly::PoleKind::Lorentz;
        } else {
            ok = false;
        }
    } else {
        const double v = text.toDouble(&ok);
        ok = ok && std::isfinite(v) && v >= 0;
        if (ok) (col == PoleOmegaP ? pole.omega_p : col == PoleOmega0 ? pole.omega_0 : pole.gamma) = v;
    }
    if (!ok) {
        prompts_->error(tr("Pole"), tr("\"%1\" is not a valid value here.").arg(text));
        QTimer::singleShot(0, this, &MaterialsDock::refreshPoles);
        return;
    }
    doc_->editProject(tr("Edit pole"), [&](Project& pr) { pr.materials[size_t(row)].poles[size_t(r)] = pole; });
}

void MaterialsDock::addPole() {
    const int row = table_->currentRow();
    if (row < 0 || row >= int(doc_->project().materials.size())) return;
    Pole pole;
    pole.kind = golightly::PoleKind::Lorentz;
    pole.omega_p = 1e15;
    pole.omega_0 = 2e15;
    pole.gamma = 1e13;
    doc_->editProject(tr("Add pole"), [&](Project& pr) { pr.materials[size_t(row)].poles.push_back(pole); });
}

void MaterialsDock::removeSelectedPole() {
    const int row = table_->currentRow();
    const int r = poles_->currentRow();
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.materials.size()) || r < 0 || r >= int(p.materials[size_t(row)].poles.size())) return;
    doc_->editProject(tr("Remove pole"), [&](Project& pr) {
        auto& poles = pr.materials[size_t(row)].poles;
        poles.erase(poles.begin() + r);
    });
}

void MaterialsDock::cellEdited(int row, int col) {
    if (updating_) return;
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.materials.size())) return;
    const QString text = table_->item(row, col)->text().trimmed();
    const std::string oldId = p.materials[size_t(row)].id;
    bool ok = true;
    switch (col) {
    case ColId: {
        const std::string id = text.toStdString();
        bool clash = id.empty() || id == "air";
        for (int i = 0; i < int(p.materials.size()); ++i) clash |= (i != row && p.materials[size_t(i)].id == id);
        if (clash) {
            prompts_->error(tr("Material id"), tr("The id \"%1\" is empty or already used.").arg(text));
            refresh();
            return;
        }
        // rename the references too
        doc_->editProject(tr("Rename material"), [&](Project& pr) {
            pr.materials[size_t(row)].id = id;
            for (auto& l : pr.layers)
                if (l.material == oldId) l.material = id;
            if (pr.domain.background == oldId) pr.domain.background = id;
        });
        return;
    }
    case ColName:
        doc_->editProject(tr("Rename material"), [&](Project& pr) { pr.materials[size_t(row)].name = text.toStdString(); });
        return;
    case ColEps: {
        const double v = text.toDouble(&ok);
        if (!ok || !(v >= 1e-6) || !std::isfinite(v)) break;
        doc_->editProject(tr("Edit eps_inf"), [&](Project& pr) { pr.materials[size_t(row)].epsilon_inf = v; });
        return;
    }
    case ColSigma: {
        const double v = text.toDouble(&ok);
        if (!ok || !(v >= 0) || !std::isfinite(v)) break;
        doc_->editProject(tr("Edit conductivity"), [&](Project& pr) { pr.materials[size_t(row)].conductivity = v; });
        return;
    }
    default: return;
    }
    prompts_->error(tr("Material"), tr("\"%1\" is not a valid value here.").arg(text));
    QTimer::singleShot(0, this, &MaterialsDock::refresh);
}

void MaterialsDock::addMaterial() {
    const Project& p = doc_->project();
    Material m;
    for (int n = 1;; ++n) {
        const std::string id = "material" + std::to_string(n);
        bool used = false;
        for (const auto& x : p.materials) used |= x.id == id;
        if (!used) { m.id = id; break; }
    }
    m.name = tr("New material").toStdString();
    m.epsilon_inf = 2.25;
    m.color = QColor::fromHsv(int(p.materials.size() * 67 % 360), 150, 210).name().toStdString();
    doc_->editProject(tr("Add material"), [&](Project& pr) { pr.materials.push_back(m); });
    table_->setCurrentCell(table_->rowCount() - 1, 0);
}

MaterialEditorDialog* MaterialsDock::editSelectedMaterial() {
    const int row = table_->currentRow();
    if (row < 0 || row >= int(doc_->project().materials.size())) return nullptr;
    if (editor_ && editor_->materialIndex() != row) {
        editor_->close();
        editor_->deleteLater();
        editor_ = nullptr;
    }
    if (!editor_) editor_ = new MaterialEditorDialog(doc_, prompts_, row, this);
    editor_->show();
    editor_->raise();
    editor_->activateWindow();
    return editor_;
}

void MaterialsDock::addFromLibrary() {
    MaterialLibraryDialog dialog(this);
    if (!dialog.error().isEmpty()) {
        prompts_->error(tr("Material library"), dialog.error());
        return;
    }
    if (dialog.exec() != QDialog::Accepted) return;
    if (const auto lm = dialog.selected()) addLibraryMaterial(lm->material);
}

int MaterialsDock::addLibraryMaterial(const Material& material) {
    Material m = material;
    auto used = [this](const QString& id) {
        if (id == QLatin1String("air")) return true;
        return doc_->project().find_material(id.toStdString()) != nullptr;
    };
    QString id = qs(m.id);
    if (used(id)) {  // a second copy: the user names it (no silent "_2")
        QString proposal = id;
        for (int n = 2; used(proposal); ++n) proposal = QStringLiteral("%1_%2").arg(id).arg(n);
        QString question = tr("The project already has a material \"%1\". Id of the new copy:").arg(id);
        bool named = false;
        for (int attempt = 0; attempt < 5 && !named; ++attempt) {
            const std::optional<QString> answer = prompts_->askText(tr("Add material"), question, proposal);
            if (!answer) return -1;
            const QString name = answer->trimmed();
            if (!name.isEmpty() && !used(name) && !name.contains(QLatin1Char('"'))) {
                id = name;
                named = true;
                break;
            }
            question = name.isEmpty() ? tr("The id must not be empty. Id of the new copy:")
                                      : tr("\"%1\" is taken too. Id of the new copy:").arg(name);
        }
        if (!named) return -1;
    }
    m.id = id.toStdString();
    const int row = add_library_material(doc_, m);
    table_->setCurrentCell(row, 0);
    return row;
}

void MaterialsDock::deleteSelectedMaterial() {
    const int row = table_->currentRow();
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.materials.size())) return;
    const std::string id = p.materials[size_t(row)].id;
    bool used = p.domain.background == id;
    for (const auto& l : p.layers) used |= l.material == id;
    if (used) {
        prompts_->error(tr("Delete material"),
                        tr("The material \"%1\" is used by a layer or as the background.").arg(qs(id)));
        return;
    }
    doc_->editProject(tr("Delete material"), [&](Project& pr) { pr.materials.erase(pr.materials.begin() + row); });
}

// ---------------------------------------------------------------- run setup

RunSetupDock::RunSetupDock(EditorDocument* doc, QWidget* parent) : QDockWidget(tr("Run setup"), parent), doc_(doc) {
    setObjectName(QStringLiteral("RunSetupDock"));
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    auto* body = new QWidget;
    auto* form = new QFormLayout(body);
    const QString um = tr(" µm");
    sizeX_ = make_spin(0.01, 1e5, 3, 0.5, um);
    sizeY_ = make_spin(0.01, 1e5, 3, 0.5, um);
    cell_ = make_spin(0.0001, 10, 4, 0.005, um);
    resolution_ = new QLabel;
    resolution_->setWordWrap(true);
    polarization_ = new QComboBox;
    polarization_->addItems({tr("TMz (Ez, Hx, Hy)"), tr("TEz (Hz, Ex, Ey)")});
    const QStringList bounds{tr("PML"), tr("periodic"), tr("PEC"), tr("PMC"), tr("Mur")};
    boundX_ = new QComboBox;
    boundX_->addItems(bounds);
    boundY_ = new QComboBox;
    boundY_->addItems(bounds);
    pml_ = new QSpinBox;
    pml_->setRange(1, 200);
    pml_->setKeyboardTracking(false);
    wlMin_ = make_spin(0.01, 1000, 4, 0.05, um);
    wlMax_ = make_spin(0.01, 1000, 4, 0.05, um);
    points_ = new QSpinBox;
    points_->setRange(1, 100000);
    points_->setKeyboardTracking(false);
    courant_ = make_spin(0.01, 0.99, 3, 0.05, QString());
    decay_ = make_spin(1, 300, 1, 5, tr(" dB"));
    maxTime_ = make_spin(1, 1e9, 0, 500, tr(" fs"));
    normalization_ = new QCheckBox(tr("Normalize with a reference run"));
    referenceLayers_ = new QListWidget;
    referenceLayers_->setMaximumHeight(80);
    referenceLayers_->setToolTip(tr("Layers of the reference (normalization) run, e.g. the straight waveguide"));
    incident_ = new QComboBox;
    incident_->setToolTip(tr("Monitor that measures the incident flux (default: the first reflection, else transmission monitor)"));
    subpixel_ = new QCheckBox(tr("Sub-pixel averaging"));
    // run.subpixel_metal, in SubpixelMetal's order
    metal_ = new QComboBox;
    metal_->setObjectName(QStringLiteral("runSetup.subpixelMetal"));
    metal_->addItems({tr("Tangential (default)"), tr("Staircase"), tr("Fill fraction")});
    metal_->setItemData(0, tr("Metal poles averaged for E along the surface, staircased for E normal to it: "
                              "never worse than staircasing"), Qt::ToolTipRole);
    metal_->setItemData(1, tr("Cells cut by a metal take the material that fills most of the cell, as "
                              "Lumerical does"), Qt::ToolTipRole);
    metal_->setItemData(2, tr("Metal poles weighted by the fill fraction for every component: absorbs "
                              "spuriously at curved surfaces (for comparison)"), Qt::ToolTipRole);
    metal_->setToolTip(tr("How cells cut by a dispersive (Lorentz/Drude) material are averaged"));
    backend_ = new QComboBox;
    backend_->addItems({tr("auto"), tr("CUDA"), tr("CPU")});
    precision_ = new QComboBox;
    precision_->addItems({tr("float32"), tr("float64")});

    // 3D (issue 16): the dimensions switch, the z size and boundary, the live slice
    dims_ = new QComboBox;
    dims_->setObjectName(QStringLiteral("runSetup.dimensions"));
    dims_->addItems({tr("2D"), tr("3D")});
    dims_->setToolTip(tr("2D (one cell in z, TMz or TEz) or 3D (all six field components); switching keeps "
                         "the drawing: layers become extrusions over their z range"));
    sizeZ_ = make_spin(0.01, 1e5, 3, 0.5, um);
    sizeZ_->setObjectName(QStringLiteral("runSetup.sizeZ"));
    boundZ_ = new QComboBox;
    boundZ_->setObjectName(QStringLiteral("runSetup.boundaryZ"));
    boundZ_->addItems(bounds);
    // Mirror symmetry per axis (project-format.md "Symmetry"): index 0 none, 1 even (+1),
    // 2 odd (-1).
    const QStringList syms{tr("none"), tr("even (+1, PMC plane)"), tr("odd (-1, PEC plane)")};
    for (int a = 0; a < 3; ++a) {
        symmetry_[a] = new QComboBox;
        symmetry_[a]->setObjectName(QStringLiteral("runSetup.symmetry") + QChar("xyz"[a]));
        symmetry_[a]->addItems(syms);
        symmetry_[a]->setToolTip(tr("Mirror symmetry through the domain's centre plane normal to %1: the run "
                                    "simulates the upper half only (half the cost) and reports the whole domain. "
                                    "Even: E tangential to the plane is even (a z dipole is even in x and y); "
                                    "odd: it is odd (a z dipole is odd in z).")
                                     .arg(QChar("xyz"[a])));
    }
    framesPlane_ = new QComboBox;
    framesPlane_->setObjectName(QStringLiteral("runSetup.framesPlane"));
    framesPlane_->addItems({QStringLiteral("xy"), QStringLiteral("xz"), QStringLiteral("yz")});
    framesPlane_->setToolTip(tr("The slice of the 3D grid the field view shows when a run starts "
                                "(changeable while running in the Run tool bar)"));
    framesPos_ = make_spin(-1e5, 1e5, 3, 0.05, um);
    framesPos_->setObjectName(QStringLiteral("runSetup.framesPosition"));
    framesPos_->setToolTip(tr("Position of the slice along its normal"));
    form->addRow(tr("Dimensions"), dims_);
    form->addRow(tr("Domain x"), sizeX_);
    form->addRow(tr("Domain y"), sizeY_);
    form->addRow(tr("Domain z"), sizeZ_);
    form->addRow(tr("Cell size"), cell_);
    form->addRow(QString(), resolution_);
    form->addRow(tr("Polarization"), polarization_);
    form->addRow(tr("Boundary x"), boundX_);
    form->addRow(tr("Boundary y"), boundY_);
    form->addRow(tr("Boundary z"), boundZ_);
    form->addRow(tr("Symmetry x"), symmetry_[0]);
    form->addRow(tr("Symmetry y"), symmetry_[1]);
    form->addRow(tr("Symmetry z"), symmetry_[2]);
    form->addRow(tr("Slice plane"), framesPlane_);
    form->addRow(tr("Slice position"), framesPos_);
    form->addRow(tr("PML cells"), pml_);
    form->addRow(tr("Shortest wavelength"), wlMin_);
    form->addRow(tr("Longest wavelength"), wlMax_);
    form->addRow(tr("Spectrum points"), points_);
    form->addRow(tr("Courant number"), courant_);
    form->addRow(tr("Stop at decay"), decay_);
    form->addRow(tr("Max time"), maxTime_);
    form->addRow(QString(), normalization_);
    form->addRow(tr("Reference layers"), referenceLayers_);
    form->addRow(tr("Incident monitor"), incident_);
    // set-up mistakes that spoil the results (run_checks.hpp), e.g. a reflection monitor behind the source
    warnings_ = new QLabel;
    warnings_->setObjectName(QStringLiteral("runWarnings"));
    warnings_->setWordWrap(true);
    warnings_->setStyleSheet(QStringLiteral("QLabel { color: #9a4a00; }"));
    warnings_->setVisible(false);
    form->addRow(warnings_);
    form->addRow(QString(), subpixel_);
    form->addRow(tr("Metals at cut cells"), metal_);
    form->addRow(tr("Backend"), backend_);
    form->addRow(tr("Precision"), precision_);
    scroll->setWidget(body);
    setWidget(scroll);

    // Each numeric field takes a number or an expression over the parameters
    // (expressions.hpp): a number is applied as it changes, an expression when entered.
    exprFields_.reserve(16);
    auto dbl = [this, form](QDoubleSpinBox* s, const QString& text, std::function<void(Project&, double)> f) {
        auto* ns = static_cast<NumberSpinBox*>(s);
        ns->setEvaluator([this](const QString& t) { return evaluate_in(doc_->project(), t); });
        auto* label = new QLabel;
        label->setWordWrap(true);
        label->setVisible(false);
        int row = -1;
        QFormLayout::ItemRole role;
        form->getWidgetPosition(s, &row, &role);
        if (row >= 0) form->insertRow(row + 1, label);
        ns->setValueLabel(label);
        exprFields_.push_back({ns, text, f, {}, label});
        const std::size_t index = exprFields_.size() - 1;
        connect(s, &QDoubleSpinBox::valueChanged, this, [this, ns, text, f](double v) {
            if (!ns->expression().isEmpty() || !ns->expressionError().isEmpty()) return;  // enterField binds it
            edit(text, [&](Project& p) { f(p, v); });
        });
        connect(s, &QDoubleSpinBox::editingFinished, this, [this, index] { enterField(exprFields_[index]); });
    };
    dbl(sizeX_, tr("Set domain size"), [](Project& p, double v) { p.domain.size[0] = v; });
    dbl(sizeY_, tr("Set domain size"), [](Project& p, double v) { p.domain.size[1] = v; });
    dbl(cell_, tr("Set cell size"), [](Project& p, double v) { p.domain.cell_size = v; });
    dbl(wlMin_, tr("Set spectrum"), [](Project& p, double v) { p.run.spectrum.wavelength_min = v; });
    dbl(wlMax_, tr("Set spectrum"), [](Project& p, double v) { p.run.spectrum.wavelength_max = v; });
    dbl(courant_, tr("Set Courant number"), [](Project& p, double v) { p.run.courant = v; });
    dbl(decay_, tr("Set stop criterion"), [](Project& p, double v) { p.run.stop.decay_db = v; });
    dbl(maxTime_, tr("Set stop criterion"), [](Project& p, double v) { p.run.stop.max_time_fs = v; });
    connect(pml_, &QSpinBox::valueChanged, this, [this](int v) { edit(tr("Set PML cells"), [v](Project& p) { p.domain.pml.cells = v; }); });
    connect(points_, &QSpinBox::valueChanged, this, [this](int v) { edit(tr("Set spectrum"), [v](Project& p) { p.run.spectrum.points = v; }); });
    auto combo = [this](QComboBox* c, const QString& text, std::function<void(Project&, int)> f) {
        connect(c, qOverload<int>(&QComboBox::activated), this, [this, text, f](int i) { edit(text, [&](Project& p) { f(p, i); }); });
    };
    combo(polarization_, tr("Set polarization"), [](Project& p, int i) { p.domain.polarization = Polarization(i); });
    combo(boundX_, tr("Set boundaries"), [](Project& p, int i) { p.domain.boundaries[0] = BoundaryKind(i); });
    combo(boundY_, tr("Set boundaries"), [](Project& p, int i) { p.domain.boundaries[1] = BoundaryKind(i); });
    combo(boundZ_, tr("Set boundaries"), [](Project& p, int i) { p.domain.boundaries[2] = BoundaryKind(i); });
    for (int a = 0; a < 3; ++a)
        combo(symmetry_[a], tr("Set symmetry"),
              [a](Project& p, int i) { p.domain.symmetry[std::size_t(a)] = i == 0 ? 0 : i == 1 ? 1 : -1; });
    dbl(sizeZ_, tr("Set domain size"), [](Project& p, double v) { p.domain.size[2] = v; });
    // 2D -> 3D from the combo asks first: the 3D grid's cost and z layout (Switch3dDialog)
    connect(dims_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        if (i != 1 || doc_->project().domain.dimensions == 3) return setDimensions(i == 1 ? 3 : 2);
        Switch3dDialog dialog(doc_->project(), this);
        if (dialog.exec() == QDialog::Accepted) doc_->replaceProject(dialog.result(), tr("Switch to 3D"));
        refresh();  // the combo shows what the project is (2D after Cancel)
    });
    // the slice: run.frames when idle; during a run the live slice (liveSliceHandler_)
    connect(framesPlane_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        if (updating_) return;
        if (liveSliceHandler_ && liveSliceHandler_(i, framesPos_->value(), true)) return;
        edit(tr("Set slice"), [&](Project& p) {
            static const char* planes[3] = {"xy", "xz", "yz"};
            p.run.frames.plane = planes[std::clamp(i, 0, 2)];
        });
    });
    connect(framesPos_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (updating_) return;
        if (liveSliceHandler_ && liveSliceHandler_(framesPlane_->currentIndex(), v, false)) return;
        edit(tr("Set slice"), [&](Project& p) { p.run.frames.position = v; });
    });
    combo(backend_, tr("Set backend"), [](Project& p, int i) { p.run.backend = BackendChoice(i); });
    combo(metal_, tr("Set metal averaging"), [](Project& p, int i) { p.run.subpixel_metal = SubpixelMetal(i); });
    combo(precision_, tr("Set precision"), [](Project& p, int i) { p.run.precision = Precision(i); });
    connect(normalization_, &QCheckBox::toggled, this, [this](bool on) {
        if (updating_) return;
        // on: the reference structure with it, in one undo step (run_checks.hpp)
        if (on) Q_EMIT statusMessage(set_up_normalization(doc_));
        else edit(tr("Set normalization"), [](Project& p) { p.run.normalization.enabled = false; });
    });
    connect(referenceLayers_, &QListWidget::itemChanged, this, [this] {
        if (updating_) return;
        std::vector<std::string> names;
        for (int r = 0; r < referenceLayers_->count(); ++r)
            if (referenceLayers_->item(r)->checkState() == Qt::Checked) names.push_back(referenceLayers_->item(r)->text().toStdString());
        edit(tr("Set reference layers"), [&](Project& p) { p.run.normalization.reference_layers = names; });
    });
    connect(incident_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        const QString name = incident_->itemData(i).toString();
        edit(tr("Set incident monitor"), [&](Project& p) {
            if (name.isEmpty()) p.run.normalization.incident_monitor.reset();
            else p.run.normalization.incident_monitor = name.toStdString();
        });
    });
    connect(subpixel_, &QCheckBox::toggled, this, [this](bool on) { edit(tr("Set sub-pixel averaging"), [on](Project& p) { p.run.subpixel_averaging = on; }); });
    connect(doc_, &EditorDocument::changed, this, &RunSetupDock::refresh);
    refresh();
}

const std::string& RunSetupDock::fieldPath(ExprField& f) {
    if (f.path.empty()) {
        const Project& p = doc_->project();
        for (const double probe : {1.2345, 2.3456}) {
            Project q = p;
            f.set(q, probe);
            if (const auto path = changed_field(p, q)) {
                f.path = *path;
                break;
            }
        }
    }
    return f.path;
}

void RunSetupDock::enterField(ExprField& f) {
    if (updating_) return;
    NumberSpinBox* s = f.spin;
    const auto mark = [s](const QString& problem) {
        s->setProperty("invalid", !problem.isEmpty());
        s->setStyleSheet(problem.isEmpty() ? QString()
                                           : QStringLiteral("QDoubleSpinBox { background: #ffd9d9; color: #8a0000; border: 1px solid #d00000; }"));
        s->setToolTip(problem.isEmpty() ? QString() : tr("Not applied: %1").arg(problem));
    };
    if (!s->expressionError().isEmpty()) return mark(s->expressionError());
    mark(QString());
    const Project& p = doc_->project();
    const QString expr = s->expression();
    const std::string& path = fieldPath(f);
    if (expr.isEmpty()) {  // a number: it replaces the field's expression
        if (!path.empty() && expression_at(p, path)) {
            Project after = p;
            f.set(after, s->value());
            remove_expression(after, path);
            doc_->replaceProject(after, f.text);
        }
        return;
    }
    if (path.empty()) return mark(tr("this field takes a number only"));
    Project after = p;
    f.set(after, s->expressionValue());
    set_expression(after, path, expr.toStdString(), s->expressionValue());
    doc_->replaceProject(after, f.text);
}

void RunSetupDock::showSlice(int planeIndex, double positionUm) {
    const bool was = updating_;
    updating_ = true;
    framesPlane_->setCurrentIndex(std::clamp(planeIndex, 0, 2));
    framesPos_->setValue(positionUm);
    updating_ = was;
}

void RunSetupDock::setDimensions(int dims) {
    if (updating_ || dims == doc_->project().domain.dimensions) return;
    const Project after = dims == 3 ? to_3d(doc_->project()) : to_2d(doc_->project());
    doc_->replaceProject(after, dims == 3 ? tr("Switch to 3D") : tr("Switch to 2D"));
}

double RunSetupDock::cellsPerWavelength(const Project& p, double* nMaxOut) {
    double epsMax = 1.0;
    if (const Material* bg = p.find_material(p.domain.background)) epsMax = std::max(epsMax, bg->epsilon_inf);
    for (const auto& l : p.layers)
        if (const Material* m = p.find_material(l.material)) epsMax = std::max(epsMax, m->epsilon_inf);
    const double nMax = std::sqrt(epsMax);
    if (nMaxOut) *nMaxOut = nMax;
    if (p.domain.cell_size <= 0) return 0;
    return p.run.spectrum.wavelength_min / (nMax * p.domain.cell_size);
}

void RunSetupDock::edit(const QString& text, const std::function<void(Project&)>& f) {
    if (updating_) return;
    doc_->editProject(text, f, /*mergeable=*/true);
}

void RunSetupDock::refresh() {
    updating_ = true;
    const Project& p = doc_->project();
    const QStringList warnings = setup_warnings(p);
    warnings_->setText(warnings.isEmpty() ? QString() : QStringLiteral("\u26a0 ") + warnings.join(QStringLiteral("\n\u26a0 ")));
    warnings_->setVisible(!warnings.isEmpty());
    sizeX_->setValue(p.domain.size[0]);
    sizeY_->setValue(p.domain.size[1]);
    cell_->setValue(p.domain.cell_size);
    polarization_->setCurrentIndex(int(p.domain.polarization));
    const bool three = p.domain.dimensions == 3;
    dims_->setCurrentIndex(three ? 1 : 0);
    polarization_->setEnabled(!three);  // 3D runs all six components
    sizeZ_->setValue(p.domain.size[2] > 0 ? p.domain.size[2] : kDefault3dDepthUm);
    sizeZ_->setEnabled(three);
    boundZ_->setCurrentIndex(int(p.domain.boundaries[2]));
    boundZ_->setEnabled(three);
    framesPlane_->setCurrentIndex(std::max(0, framesPlane_->findText(qs(p.run.frames.plane))));
    framesPlane_->setEnabled(three);
    {
        const int normal = p.run.frames.plane == "yz" ? 0 : p.run.frames.plane == "xz" ? 1 : 2;
        framesPos_->setValue(p.run.frames.position.value_or(0.5 * p.domain.size[size_t(normal)]));
    }
    framesPos_->setEnabled(three);
    boundX_->setCurrentIndex(int(p.domain.boundaries[0]));
    boundY_->setCurrentIndex(int(p.domain.boundaries[1]));
    for (int a = 0; a < 3; ++a) {
        const int sgn = p.domain.symmetry[std::size_t(a)];
        symmetry_[a]->setCurrentIndex(sgn == 0 ? 0 : sgn > 0 ? 1 : 2);
    }
    symmetry_[2]->setEnabled(three);
    pml_->setValue(p.domain.pml.cells);
    wlMin_->setValue(p.run.spectrum.wavelength_min);
    wlMax_->setValue(p.run.spectrum.wavelength_max);
    points_->setValue(p.run.spectrum.points);
    courant_->setValue(p.run.courant);
    decay_->setValue(p.run.stop.decay_db);
    maxTime_->setValue(p.run.stop.max_time_fs);
    normalization_->setChecked(p.run.normalization.enabled);
    referenceLayers_->clear();
    for (const auto& l : p.layers) {
        auto* item = new QListWidgetItem(qs(l.name));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        const auto& refs = p.run.normalization.reference_layers;
        item->setCheckState(std::find(refs.begin(), refs.end(), l.name) != refs.end() ? Qt::Checked : Qt::Unchecked);
        referenceLayers_->addItem(item);
    }
    referenceLayers_->setEnabled(p.run.normalization.enabled);
    incident_->clear();
    incident_->addItem(tr("(default)"), QString());
    for (const auto& m : p.monitors)
        if (m.type == MonitorType::Flux) incident_->addItem(qs(m.name), qs(m.name));
    incident_->setCurrentIndex(
        std::max(0, incident_->findData(qs(p.run.normalization.incident_monitor.value_or(std::string())))));
    incident_->setEnabled(p.run.normalization.enabled);
    subpixel_->setChecked(p.run.subpixel_averaging);
    metal_->setCurrentIndex(int(p.run.subpixel_metal));
    metal_->setEnabled(p.run.subpixel_averaging);
    backend_->setCurrentIndex(int(p.run.backend));
    precision_->setCurrentIndex(int(p.run.precision));
    double nMax = 1;
    const double cpw = cellsPerWavelength(p, &nMax);
    const long long nx = p.domain.cell_size > 0 ? (long long)std::ceil(p.domain.size[0] / p.domain.cell_size) : 0;
    const long long ny = p.domain.cell_size > 0 ? (long long)std::ceil(p.domain.size[1] / p.domain.cell_size) : 0;
    const long long nz = p.domain.cell_size > 0 ? (long long)std::ceil(p.domain.size[2] / p.domain.cell_size) : 0;
    resolution_->setText(three ? tr("%1 cells per wavelength (n = %2 at %3 µm); grid %4 x %5 x %6 cells")
                                     .arg(cpw, 0, 'f', 1)
                                     .arg(nMax, 0, 'f', 3)
                                     .arg(p.run.spectrum.wavelength_min)
                                     .arg(nx)
                                     .arg(ny)
                                     .arg(nz)
                               : tr("%1 cells per wavelength (n = %2 at %3 µm); grid %4 x %5 cells")
                                     .arg(cpw, 0, 'f', 1)
                                     .arg(nMax, 0, 'f', 3)
                                     .arg(p.run.spectrum.wavelength_min)
                                     .arg(nx)
                                     .arg(ny));
    resolution_->setStyleSheet(cpw < 10 ? QStringLiteral("color: #c0392b;") : QStringLiteral("color: #2e7d32;"));
    resolution_->setToolTip(tr("At least 10 cells per wavelength in the densest material are recommended; 20+ for accurate phase."));
    for (ExprField& f : exprFields_) {  // the fields bound to expressions show them
        const FieldExpression* e = p.expressions.empty() || fieldPath(f).empty() ? nullptr : expression_at(p, f.path);
        if (e) f.spin->setExpression(qs(e->text), e->value);
        else if (f.spin->expressionError().isEmpty()) f.spin->clearExpression();
    }
    updating_ = false;
}

}  // namespace golightly::editor
