#include "layer_stack_dock.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "canvas.hpp"
#include "dimensions.hpp"

namespace golightly::editor {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
constexpr double kEdgePx = 6;  ///< grab distance of a band's edge
constexpr double kSelectionColumnPx = 40;  ///< width of the selected item's side view
}  // namespace

// ---------------------------------------------------------------- diagram

LayerStackDiagram::LayerStackDiagram(EditorDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    setObjectName(QStringLiteral("layerStackDiagram"));
    setMouseTracking(true);
    connect(doc_, &EditorDocument::changed, this, [this] { update(); });
    connect(doc_, &EditorDocument::currentLayerChanged, this, [this] { update(); });
    connect(doc_, &EditorDocument::selectionChanged, this, [this] { update(); });
}

std::array<double, 2> LayerStackDiagram::zRange(int layer) const {
    if (drag_ && drag_->layer == layer) return drag_->now;
    const Project& p = doc_->project();
    std::array<double, 2> solids;
    if (solids_only(p.layers[size_t(layer)], solids)) return solids;  // spheres, boxes: their own z
    return layer_z_range(p, p.layers[size_t(layer)]);
}

std::optional<std::array<double, 2>> LayerStackDiagram::selectedZ() const {
    if (drag_ && drag_->item) return drag_->now;
    return item_z_extent(doc_->project(), doc_->selection());
}

bool LayerStackDiagram::selectionDraggable() const {
    const ItemRef sel = doc_->selection();
    if (!item_z_extent(doc_->project(), sel)) return false;
    if (sel.kind == ItemRef::Kind::Shape) return !doc_->project().layers[size_t(sel.layer)].locked;
    return true;
}

QPoint LayerStackDiagram::selectionPointFor(int which) const {
    const_cast<LayerStackDiagram*>(this)->layout();
    const auto z = selectedZ();
    if (!z || selRect_.isEmpty()) return {};
    const double zz = which == 0 ? (*z)[0] : which == 1 ? (*z)[1] : 0.5 * ((*z)[0] + (*z)[1]);
    return QPointF(selRect_.center().x(), yAt(zz)).toPoint();
}

double LayerStackDiagram::snapStep() const {
    const double dx = doc_->project().domain.cell_size;
    return dx > 0 ? dx : 0.001;
}

void LayerStackDiagram::layout() {
    const Project& p = doc_->project();
    const double lz = p.domain.size[2] > 0 ? p.domain.size[2] : 1.0;
    zLo_ = 0;
    zHi_ = lz;
    for (size_t l = 0; l < p.layers.size(); ++l) {
        const auto z = zRange(int(l));
        zLo_ = std::min(zLo_, z[0]);
        zHi_ = std::max(zHi_, z[1]);
    }
    const auto sel = selectedZ();
    if (sel) {
        zLo_ = std::min(zLo_, (*sel)[0]);
        zHi_ = std::max(zHi_, (*sel)[1]);
    }
    const double pad = 0.05 * (zHi_ - zLo_);
    zLo_ -= pad;
    zHi_ += pad;
    plot_ = QRectF(52, 10, std::max(40.0, width() - 62.0), std::max(40.0, height() - 24.0));
    // the side view of the selected item: a column at the left of the lanes
    const double selW = sel ? std::min(kSelectionColumnPx, 0.3 * plot_.width()) : 0.0;
    selRect_ = sel ? QRectF(plot_.left(), plot_.top(), selW, plot_.height()) : QRectF();
    lanes_.clear();
    const int n = int(p.layers.size());
    const double w = n > 0 ? (plot_.width() - selW) / n : plot_.width() - selW;
    for (int l = 0; l < n; ++l) lanes_.push_back({l, QRectF(plot_.left() + selW + l * w, plot_.top(), w, plot_.height())});
}

double LayerStackDiagram::yAt(double z) const {
    return plot_.bottom() - (z - zLo_) / (zHi_ - zLo_) * plot_.height();
}

double LayerStackDiagram::zAt(double y) const {
    return zLo_ + (plot_.bottom() - y) / plot_.height() * (zHi_ - zLo_);
}

QPoint LayerStackDiagram::pointFor(int layer, int which) const {
    const_cast<LayerStackDiagram*>(this)->layout();
    if (layer < 0 || layer >= int(lanes_.size())) return {};
    const auto z = zRange(layer);
    const double zz = which == 0 ? z[0] : which == 1 ? z[1] : 0.5 * (z[0] + z[1]);
    return QPointF(lanes_[size_t(layer)].rect.center().x(), yAt(zz)).toPoint();
}

void LayerStackDiagram::paintEvent(QPaintEvent*) {
    layout();
    const Project& p = doc_->project();
    QPainter g(this);
    g.setRenderHint(QPainter::Antialiasing);
    g.fillRect(rect(), palette().base());
    // background material and the domain [0, Lz]
    const QColor bg = material_color(p, p.domain.background);
    g.fillRect(plot_, bg.lighter(170));
    g.setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
    g.setBrush(Qt::NoBrush);
    g.drawRect(QRectF(plot_.left(), yAt(p.domain.size[2]), plot_.width(), yAt(0) - yAt(p.domain.size[2])));
    // z axis ticks
    g.setPen(palette().text().color());
    QFont f = font();
    f.setPixelSize(10);
    g.setFont(f);
    const double span = zHi_ - zLo_;
    double step = std::pow(10.0, std::floor(std::log10(span / 4)));
    if (span / step > 8) step *= 2;
    if (span / step > 8) step *= 2.5;
    for (double z = std::ceil(zLo_ / step) * step; z <= zHi_; z += step) {
        const double y = yAt(z);
        g.drawLine(QPointF(plot_.left() - 4, y), QPointF(plot_.left(), y));
        g.drawText(QRectF(0, y - 7, plot_.left() - 6, 14), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(std::abs(z) < 1e-12 ? 0.0 : z, 'g', 4));
    }
    g.drawText(QRectF(0, 0, plot_.left() - 6, 12), Qt::AlignRight | Qt::AlignTop, tr("z µm"));
    // the layers
    for (const Lane& lane : lanes_) {
        const Layer& L = p.layers[size_t(lane.layer)];
        const auto z = zRange(lane.layer);
        const double y0 = yAt(z[0]), y1 = yAt(z[1]);
        const double margin = std::min(10.0, lane.rect.width() * 0.15);
        const double left = lane.rect.left() + margin, right = lane.rect.right() - margin;
        // sidewall: each edge moves inward by (z - z0) tan(angle), on the z scale
        const double pxPerUm = plot_.height() / (zHi_ - zLo_);
        double inset = (z[1] - z[0]) * std::tan(L.sidewall_angle_deg * M_PI / 180) * pxPerUm;
        inset = std::clamp(inset, -margin, 0.45 * (right - left));
        QPainterPath band;
        band.moveTo(left, y0);
        band.lineTo(right, y0);
        band.lineTo(right - inset, y1);
        band.lineTo(left + inset, y1);
        band.closeSubpath();
        QColor c = material_color(p, L.material);
        if (!L.visible) c.setAlpha(90);
        std::array<double, 2> solidRange;
        const bool solids = solids_only(L, solidRange);
        g.setPen(QPen(lane.layer == doc_->currentLayer() ? QColor(20, 90, 200) : c.darker(170),
                      lane.layer == doc_->currentLayer() ? 2.5 : 1));
        g.setBrush(L.reference_only ? QBrush(c, Qt::BDiagPattern) : solids ? QBrush(c, Qt::Dense4Pattern) : QBrush(c));
        g.drawPath(band);
        g.setPen(palette().text().color());
        const QString label = qs(L.name) + (solids ? tr(" (solids)") : L.z ? QString() : tr(" (all z)"));
        g.drawText(QRectF(lane.rect.left() + 2, std::min(y1, y0) - 14, lane.rect.width() - 4, 12),
                   Qt::AlignHCenter | Qt::AlignBottom, g.fontMetrics().elidedText(label, Qt::ElideRight, int(lane.rect.width() - 4)));
    }
    if (p.layers.empty()) g.drawText(plot_, Qt::AlignCenter, tr("No layers"));
    // side view of the selected item's z extent (a solid, a plane, a box, a point): a bar
    // (a line for a point or a plane normal to z) in the column left of the lanes; its
    // edges and body are dragged like a layer's
    if (const auto z = selectedZ(); z && !selRect_.isEmpty()) {
        const QColor blue(20, 90, 200);
        const double ya = yAt((*z)[0]), yb = yAt((*z)[1]);
        const double left = selRect_.left() + 7, right = selRect_.right() - 7;
        g.setPen(QPen(QColor(150, 150, 150), 1, Qt::DotLine));
        g.drawLine(QPointF(selRect_.right(), plot_.top()), QPointF(selRect_.right(), plot_.bottom()));
        if (std::abs(ya - yb) < 2) {
            g.setPen(QPen(blue, 2.5));
            g.drawLine(QPointF(left - 3, ya), QPointF(right + 3, ya));
            g.setBrush(blue);
            g.drawEllipse(QPointF(0.5 * (left + right), ya), 3.5, 3.5);
        } else {
            g.setPen(QPen(blue, 2));
            g.setBrush(QColor(20, 90, 200, 70));
            g.drawRect(QRectF(QPointF(left, yb), QPointF(right, ya)));
        }
        g.setBrush(Qt::NoBrush);
        g.setPen(blue);
        const QString what = (*z)[0] == (*z)[1] ? tr("selection z %1").arg((*z)[0], 0, 'g', 4)
                                                : tr("selection z %1 .. %2").arg((*z)[0], 0, 'g', 4).arg((*z)[1], 0, 'g', 4);
        g.drawText(QRectF(selRect_.left() + 2, plot_.bottom() - 14, plot_.width() - 4, 14), Qt::AlignLeft | Qt::AlignBottom, what);
    }
    if (drag_) {
        g.setPen(QColor(20, 90, 200));
        g.drawText(QRectF(plot_.left() + 4, plot_.top() + 2, plot_.width() - 8, 14), Qt::AlignRight,
                   tr("z %1 .. %2 µm").arg(drag_->now[0], 0, 'f', 3).arg(drag_->now[1], 0, 'f', 3));
    }
}

void LayerStackDiagram::mousePressEvent(QMouseEvent* e) {
    layout();
    if (e->button() != Qt::LeftButton) return;
    const QPointF pos = e->position();
    if (const auto z = selectedZ(); z && selRect_.contains(pos)) {
        const double ya = yAt((*z)[0]), yb = yAt((*z)[1]);
        if (pos.y() > ya + kEdgePx || pos.y() < yb - kEdgePx || !selectionDraggable()) return;
        Drag d;
        d.item = true;
        d.ref = doc_->selection();
        const bool point = (*z)[0] == (*z)[1];
        const double dTop = std::abs(pos.y() - yb), dBottom = std::abs(pos.y() - ya);
        d.which = point ? 2 : dTop <= kEdgePx && dTop <= dBottom ? 1 : dBottom <= kEdgePx ? 0 : 2;
        d.startZ = zAt(pos.y());
        d.original = d.now = *z;
        drag_ = d;
        update();
        return;
    }
    for (const Lane& lane : lanes_) {
        if (!lane.rect.contains(pos)) continue;
        const auto z = zRange(lane.layer);
        const double y0 = yAt(z[0]), y1 = yAt(z[1]);
        doc_->setCurrentLayer(lane.layer);
        if (pos.y() > y0 + kEdgePx || pos.y() < y1 - kEdgePx) return;  // outside the band: select only
        std::array<double, 2> solids;
        if (doc_->project().layers[size_t(lane.layer)].locked ||
            solids_only(doc_->project().layers[size_t(lane.layer)], solids))
            return;  // locked, or spheres / boxes with their own z (edited in Properties)
        Drag d;
        d.layer = lane.layer;
        d.which = std::abs(pos.y() - y1) <= kEdgePx ? 1 : std::abs(pos.y() - y0) <= kEdgePx ? 0 : 2;
        d.startZ = zAt(pos.y());
        d.original = d.now = z;
        drag_ = d;
        update();
        return;
    }
}

void LayerStackDiagram::mouseMoveEvent(QMouseEvent* e) {
    if (!drag_) {
        // the cursor tells what a press would do
        layout();
        Qt::CursorShape shape = Qt::ArrowCursor;
        if (const auto z = selectedZ(); z && selRect_.contains(e->position()) && selectionDraggable()) {
            const double y = e->position().y(), ya = yAt((*z)[0]), yb = yAt((*z)[1]);
            if ((*z)[0] != (*z)[1] && (std::abs(y - ya) <= kEdgePx || std::abs(y - yb) <= kEdgePx)) shape = Qt::SizeVerCursor;
            else if (y <= ya + kEdgePx && y >= yb - kEdgePx) shape = Qt::OpenHandCursor;
        }
        for (const Lane& lane : lanes_) {
            if (!lane.rect.contains(e->position())) continue;
            const auto z = zRange(lane.layer);
            const double y = e->position().y(), y0 = yAt(z[0]), y1 = yAt(z[1]);
            if (std::abs(y - y0) <= kEdgePx || std::abs(y - y1) <= kEdgePx) shape = Qt::SizeVerCursor;
            else if (y < y0 && y > y1) shape = Qt::OpenHandCursor;
        }
        setCursor(shape);
        return;
    }
    const double step = snapStep();
    const double dz = std::round((zAt(e->position().y()) - drag_->startZ) / step) * step;
    auto z = drag_->original;
    if (drag_->which == 2) {
        z[0] += dz;
        z[1] += dz;
    } else if (drag_->which == 1) {
        z[1] = std::max(z[0] + step, z[1] + dz);
    } else {
        z[0] = std::min(z[1] - step, z[0] + dz);
    }
    drag_->now = z;
    update();
}

void LayerStackDiagram::mouseReleaseEvent(QMouseEvent* e) {
    if (!drag_ || e->button() != Qt::LeftButton) return;
    const Drag d = *drag_;
    drag_.reset();
    if (d.now != d.original) {
        if (d.item) {
            if (doc_->selection() == d.ref)
                doc_->editProject(tr("Set z extent"), [&](Project& q) { set_item_z_extent(q, d.ref, d.now[0], d.now[1]); });
        } else {
            doc_->editLayer(d.layer, tr("Set layer z range"), [&](Layer& l) { l.z = d.now; });
        }
    }
    update();
}

// ---------------------------------------------------------------- dock

LayerStackDock::LayerStackDock(EditorDocument* doc, QWidget* parent)
    : QDockWidget(tr("Layer stack"), parent), doc_(doc) {
    setObjectName(QStringLiteral("LayerStackDock"));
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    diagram_ = new LayerStackDiagram(doc_);
    diagram_->setToolTip(tr("Cross-section of the layer stack (z to scale). Drag a layer's top or bottom edge "
                            "to change its z range, its body to move it."));
    v->addWidget(diagram_, 3);
    table_ = new QTableWidget(0, ColCount);
    table_->setObjectName(QStringLiteral("layerStackTable"));
    table_->setHorizontalHeaderLabels(
        {tr("Layer"), tr("Material"), tr("z0 (µm)"), tr("z1 (µm)"), tr("Sidewall (°)"), tr("GDS layer")});
    table_->horizontalHeaderItem(ColGds)->setToolTip(
        tr("GDSII layer/datatype the layer's shapes are exported to (File > Export GDS), e.g. 1/0; empty: none"));
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    v->addWidget(table_, 2);
    auto* row = new QHBoxLayout;
    auto* addBg = new QPushButton(tr("Add background layer"));
    addBg->setObjectName(QStringLiteral("layerStack.addBackground"));
    addBg->setToolTip(tr("A substrate or cladding: the current layer's material over the whole xy domain, "
                         "from z = 0 to half the domain height (edit z0, z1 below)"));
    row->addWidget(addBg);
    row->addStretch(1);
    v->addLayout(row);
    note_ = new QLabel;
    note_->setWordWrap(true);
    note_->setStyleSheet(QStringLiteral("QLabel { color: #666; }"));
    v->addWidget(note_);
    setWidget(w);

    connect(table_, &QTableWidget::cellChanged, this, &LayerStackDock::cellEdited);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int r) {
        if (!updating_ && r >= 0) doc_->setCurrentLayer(r);
    });
    connect(addBg, &QPushButton::clicked, this, [this] {
        const Project& p = doc_->project();
        std::string mat = p.materials.empty() ? std::string("air") : p.materials.front().id;
        if (doc_->currentLayer() >= 0 && doc_->currentLayer() < int(p.layers.size()))
            mat = p.layers[size_t(doc_->currentLayer())].material;
        const double lz = p.domain.size[2] > 0 ? p.domain.size[2] : 1.0;
        addBackgroundLayer(mat, 0.0, 0.5 * lz);
    });
    connect(doc_, &EditorDocument::changed, this, &LayerStackDock::refresh);
    connect(doc_, &EditorDocument::currentLayerChanged, this, &LayerStackDock::refresh);
    refresh();
}

bool LayerStackDock::setLayerZ(int layer, double z0, double z1) {
    if (layer < 0 || layer >= int(doc_->project().layers.size()) || !(z1 > z0)) return false;
    doc_->editLayer(layer, tr("Set layer z range"), [&](Layer& l) { l.z = std::array<double, 2>{z0, z1}; });
    return true;
}

bool LayerStackDock::setSidewallAngle(int layer, double degrees) {
    if (layer < 0 || layer >= int(doc_->project().layers.size()) || !(std::abs(degrees) < 90)) return false;
    doc_->editLayer(layer, tr("Set sidewall angle"), [&](Layer& l) { l.sidewall_angle_deg = degrees; });
    return true;
}

bool LayerStackDock::setGdsLayer(int layer, std::optional<std::array<int, 2>> gds) {
    if (layer < 0 || layer >= int(doc_->project().layers.size())) return false;
    if (gds && ((*gds)[0] < 0 || (*gds)[0] > 65535 || (*gds)[1] < 0 || (*gds)[1] > 65535)) return false;
    doc_->editLayer(layer, tr("Set GDS layer"), [&](Layer& l) { l.gds_layer = gds; });
    return true;
}

QString LayerStackDock::gdsText(const std::optional<std::array<int, 2>>& gds) {
    return gds ? QStringLiteral("%1/%2").arg((*gds)[0]).arg((*gds)[1]) : QString();
}

std::optional<std::array<int, 2>> LayerStackDock::parseGds(const QString& text, bool* ok) {
    *ok = true;
    const QString t = text.trimmed();
    if (t.isEmpty()) return std::nullopt;
    const QStringList parts = t.split(QRegularExpression(QStringLiteral("\\s*[/;,\\s]\\s*")), Qt::SkipEmptyParts);
    std::array<int, 2> v{0, 0};
    bool good = !parts.isEmpty() && parts.size() <= 2;
    for (int k = 0; good && k < int(parts.size()); ++k) {
        bool num = false;
        v[size_t(k)] = parts[k].toInt(&num);
        good = num && v[size_t(k)] >= 0 && v[size_t(k)] <= 65535;
    }
    *ok = good;
    if (!good) return std::nullopt;
    return v;
}

void LayerStackDock::setLayerMaterial(int layer, const std::string& id) {
    doc_->editLayer(layer, tr("Set layer material"), [&](Layer& l) { l.material = id; });
}

int LayerStackDock::addBackgroundLayer(const std::string& materialId, double z0, double z1) {
    const Project& p = doc_->project();
    const double pml = p.domain.pml.cells * p.domain.cell_size + p.domain.cell_size;
    Layer l;
    int n = 1;
    auto taken = [&](const std::string& name) {
        for (const auto& x : p.layers)
            if (x.name == name) return true;
        return false;
    };
    do l.name = tr("background %1").arg(n++).toStdString();
    while (taken(l.name));
    l.material = materialId;
    l.z = std::array<double, 2>{z0, std::max(z1, z0 + p.domain.cell_size)};
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {-pml, -pml};
    r.max = {p.domain.size[0] + pml, p.domain.size[1] + pml};
    l.shapes.push_back(r);
    // first in the project: drawn first, the structure's layers win where they overlap it
    doc_->editProject(tr("Add background layer"), [&](Project& q) { q.layers.insert(q.layers.begin(), l); });
    doc_->setCurrentLayer(0);
    return 0;
}

void LayerStackDock::refresh() {
    updating_ = true;
    const Project& p = doc_->project();
    table_->setRowCount(int(p.layers.size()));
    // items are updated in place (refresh may run inside the table's own cellChanged)
    auto cell = [this](int r, int c) {
        QTableWidgetItem* it = table_->item(r, c);
        if (!it) {
            it = new QTableWidgetItem;
            table_->setItem(r, c, it);
        }
        return it;
    };
    for (int r = 0; r < int(p.layers.size()); ++r) {
        const Layer& L = p.layers[size_t(r)];
        const auto z = layer_z_range(p, L);
        QTableWidgetItem* name = cell(r, ColName);
        name->setText(qs(L.name));
        name->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        // the row's material combo is kept and refilled (a replaced index widget lingers,
        // visible at the table's top left, until its deferred deletion)
        auto* combo = qobject_cast<QComboBox*>(table_->cellWidget(r, ColMaterial));
        const bool fresh = combo == nullptr;
        if (fresh) combo = new QComboBox;
        const QSignalBlocker block(combo);
        combo->clear();
        combo->addItem(tr("air"), QStringLiteral("air"));
        for (const auto& m : p.materials)
            if (m.id != "air") combo->addItem(qs(m.id), qs(m.id));
        for (int k = 0; k < combo->count(); ++k) {
            QPixmap pm(12, 12);
            pm.fill(material_color(p, combo->itemData(k).toString().toStdString()));
            combo->setItemIcon(k, QIcon(pm));
        }
        combo->setCurrentIndex(std::max(0, combo->findData(qs(L.material))));
        if (fresh) {
            connect(combo, qOverload<int>(&QComboBox::activated), this, [this, r, combo](int i) {
                setLayerMaterial(r, combo->itemData(i).toString().toStdString());
            });
            table_->setCellWidget(r, ColMaterial, combo);
        }
        std::array<double, 2> solidRange;
        const bool solids = solids_only(L, solidRange);
        for (int c : {ColZ0, ColZ1}) {
            QTableWidgetItem* item = cell(r, c);
            item->setText(QString::number((solids ? solidRange : z)[c == ColZ0 ? 0 : 1], 'g', 6));
            item->setForeground(L.z && !solids ? palette().text().color() : QColor(120, 120, 120));
            item->setFlags(solids ? Qt::ItemIsSelectable | Qt::ItemIsEnabled
                                  : Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable);
            item->setToolTip(solids ? tr("Spheres and boxes carry their own z (Properties dock); the layer's range does not apply")
                             : L.z  ? QString()
                                    : tr("No z range: the layer spans the whole domain in z; type a value to set one"));
        }
        cell(r, ColAngle)->setText(QString::number(L.sidewall_angle_deg, 'g', 6));
        QTableWidgetItem* gds = cell(r, ColGds);
        gds->setText(gdsText(L.gds_layer));
        gds->setToolTip(L.gds_layer ? QString()
                                    : tr("No GDS layer: an export writes this layer on layer %1, datatype 0").arg(r + 1));
    }
    // Rejected entries stay as typed, red, with their rule; each is checked again, as the
    // edit that caused this refresh may have made it valid (z0 above z1, then a higher z1)
    // or removed its layer. One made valid is applied after the refresh.
    for (int r = 0; r < table_->rowCount(); ++r) {
        for (int c : {ColZ0, ColZ1, ColAngle, ColGds}) {
            cell(r, c)->setBackground(QBrush());
            cell(r, c)->setIcon(QIcon());
        }
        for (int c : {ColAngle, ColGds}) cell(r, c)->setForeground(palette().text().color());
        cell(r, ColAngle)->setToolTip(QString());
    }
    for (auto it = invalid_.begin(); it != invalid_.end();) {
        std::array<double, 2> solidRange;
        if (it->row >= int(p.layers.size()) || p.layers[size_t(it->row)].name != it->layer ||
            ((it->column == ColZ0 || it->column == ColZ1) && solids_only(p.layers[size_t(it->row)], solidRange))) {
            it = invalid_.erase(it);
            continue;
        }
        it->rule = cellRule(it->row, it->column, it->text);
        if (it->rule.isEmpty()) {
            QMetaObject::invokeMethod(this, [this, r = it->row, c = it->column, t = it->text] {
                if (r < table_->rowCount() && !updating_) {
                    table_->item(r, c)->setText(t);  // cellEdited applies it
                }
            }, Qt::QueuedConnection);
            it = invalid_.erase(it);
            continue;
        }
        QTableWidgetItem* item = cell(it->row, it->column);
        item->setText(it->text);
        item->setBackground(QColor(0xff, 0xd9, 0xd9));
        // the current layer's row is drawn selected, over the background: the icon shows there too
        item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
        item->setForeground(QColor(0x8a, 0, 0));
        item->setToolTip(tr("Not applied: %1").arg(it->rule));
        ++it;
    }
    if (doc_->currentLayer() >= 0 && doc_->currentLayer() < table_->rowCount())
        table_->setCurrentCell(doc_->currentLayer(), std::max(0, table_->currentColumn()));
    note_->setText(p.domain.dimensions == 3
                       ? tr("3D: the layers are extruded over [z0, z1]; a positive sidewall angle narrows them upwards.")
                       : tr("2D project: z ranges apply when you switch to 3D (Run setup > Dimensions)."));
    updating_ = false;
}

QString LayerStackDock::cellRule(int row, int column, const QString& text) const {
    const Project& p = doc_->project();
    if (column == ColGds) {
        bool good = false;
        parseGds(text, &good);
        return good ? QString() : tr("must be a GDS layer/datatype such as 1/0 (numbers 0 to 65535), or empty");
    }
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v)) return tr("must be a number");
    const auto z = layer_z_range(p, p.layers[size_t(row)]);
    if (column == ColZ0 && !(v < z[1])) return tr("must be less than z1 (%1 µm)").arg(z[1], 0, 'g', 6);
    if (column == ColZ1 && !(v > z[0])) return tr("must be greater than z0 (%1 µm)").arg(z[0], 0, 'g', 6);
    if (column == ColAngle && !(std::abs(v) < 90)) return tr("must be between -90 and 90 degrees (not included)");
    return {};
}

void LayerStackDock::cellEdited(int row, int column) {
    if (updating_) return;
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.layers.size())) return;
    const QString text = table_->item(row, column)->text();
    invalid_.erase(std::remove_if(invalid_.begin(), invalid_.end(),
                                  [&](const Invalid& i) { return i.row == row && i.column == column; }),
                   invalid_.end());
    const QString rule = cellRule(row, column, text);
    if (!rule.isEmpty()) {
        // marked red with the text typed (refresh shows it), not applied
        invalid_.push_back({row, column, p.layers[size_t(row)].name, text, rule});
        QMetaObject::invokeMethod(this, &LayerStackDock::refresh, Qt::QueuedConnection);
        return;
    }
    const double v = text.toDouble();
    auto z = layer_z_range(p, p.layers[size_t(row)]);
    bool applied = false;
    if (column == ColZ0) applied = setLayerZ(row, v, z[1]);
    else if (column == ColZ1) applied = setLayerZ(row, z[0], v);
    else if (column == ColAngle) applied = setSidewallAngle(row, v);
    else if (column == ColGds) {
        bool good = false;
        const auto gds = parseGds(text, &good);
        applied = good && (gds == p.layers[size_t(row)].gds_layer || setGdsLayer(row, gds));
        if (applied) QMetaObject::invokeMethod(this, &LayerStackDock::refresh, Qt::QueuedConnection);  // "1" -> "1/0"
    }
    if (!applied) QMetaObject::invokeMethod(this, &LayerStackDock::refresh, Qt::QueuedConnection);  // show the model again
}

QString LayerStackDock::invalidRule(int row, int column) const {
    for (const Invalid& i : invalid_)
        if (i.row == row && i.column == column) return i.rule;
    return {};
}

QStringList LayerStackDock::problems() const {
    QStringList out;
    const Project& p = doc_->project();
    const QStringList columns{tr("Layer"), tr("Material"), tr("z0"), tr("z1"), tr("Sidewall"), tr("GDS layer")};
    for (const Invalid& i : invalid_)
        if (i.row < int(p.layers.size()) && p.layers[size_t(i.row)].name == i.layer)
            out << tr("Layer stack: layer \"%1\": %2: %3 (entered %4)")
                       .arg(qs(i.layer), columns.value(i.column), i.rule, i.text);
    return out;
}

}  // namespace golightly::editor
