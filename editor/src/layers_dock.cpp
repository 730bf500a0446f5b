// GoLightly editor: the Layers dock (layers_dock.hpp).
#include "layers_dock.hpp"

#include <QAbstractItemModel>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

#include "canvas.hpp"
#include "dock_util.hpp"

namespace golightly::editor {

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

}  // namespace golightly::editor
