#include "editor_document.hpp"
#include "design_region.hpp"
#include "ports.hpp"

#include "dimensions.hpp"
#include "expressions.hpp"

#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QUndoCommand>

#include <cmath>
#include <exception>

namespace golightly::editor {

// ---------------------------------------------------------------- prompts

void MessageBoxPrompts::error(const QString& title, const QString& text) {
    QMessageBox::critical(parent_, title, text);
}

Prompts::SaveChoice MessageBoxPrompts::askSaveChanges(const QString& documentName) {
    const auto answer = QMessageBox::warning(
        parent_, QObject::tr("Unsaved changes"),
        QObject::tr("The project \"%1\" has unsaved changes. Save them?").arg(documentName),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return SaveChoice::Save;
    if (answer == QMessageBox::Discard) return SaveChoice::Discard;
    return SaveChoice::Cancel;
}

bool MessageBoxPrompts::askRecover(const QString& text) {
    return QMessageBox::question(parent_, QObject::tr("Recover unsaved work"), text,
                                 QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes;
}

std::optional<QString> MessageBoxPrompts::askText(const QString& title, const QString& label, const QString& proposal) {
    bool ok = false;
    const QString text = QInputDialog::getText(parent_, title, label, QLineEdit::Normal, proposal, &ok);
    if (!ok) return std::nullopt;
    return text;
}

bool MessageBoxPrompts::askProceed(const QString& title, const QString& text, const QString& action) {
    QMessageBox box(QMessageBox::Question, title, text, QMessageBox::NoButton, parent_);
    QPushButton* go = box.addButton(action, QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == go;
}

// ---------------------------------------------------------------- undo commands

namespace {

class ProjectCommand : public QUndoCommand {
public:
    ProjectCommand(EditorDocument* doc, Project before, Project after, const QString& text, bool mergeable,
                   std::uint64_t session = 0)
        : doc_(doc), before_(std::move(before)), after_(std::move(after)), mergeable_(mergeable), session_(session) {
        setText(text);
    }
    void redo() override { doc_->setProjectInternal(after_); }
    void undo() override { doc_->setProjectInternal(before_); }
    int id() const override { return mergeable_ ? 1 : -1; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = dynamic_cast<const ProjectCommand*>(other);
        if (!o || !o->mergeable_ || o->text() != text() || o->session_ != session_) return false;
        after_ = o->after_;
        setObsolete(after_ == before_);  // back where it started: no step at all
        return true;
    }

private:
    EditorDocument* doc_;
    Project before_, after_;
    bool mergeable_;
    std::uint64_t session_;  ///< replaceProjectInSession's key (0: the ordinary mergeable edits)
};

class LayerCommand : public QUndoCommand {
public:
    LayerCommand(EditorDocument* doc, int layer, Layer before, Layer after, const QString& text)
        : doc_(doc), layer_(layer), before_(std::move(before)), after_(std::move(after)) {
        setText(text);
    }
    void redo() override { doc_->setLayerInternal(layer_, after_); }
    void undo() override { doc_->setLayerInternal(layer_, before_); }

private:
    EditorDocument* doc_;
    int layer_;
    Layer before_, after_;
};

}  // namespace

// ---------------------------------------------------------------- geometry helpers

void translate_shape(Shape& s, double dx, double dy) {
    auto mv = [&](Vec2& p) { p.x += dx; p.y += dy; };
    mv(s.min);
    mv(s.max);
    for (auto& p : s.points) mv(p);
    mv(s.center);
    mv(s.origin);
    s.translate[0] += s.type == ShapeType::Step || s.type == ShapeType::Gds ? dx : 0;
    s.translate[1] += s.type == ShapeType::Step || s.type == ShapeType::Gds ? dy : 0;
    // 3D solids
    s.center_3d.x += dx;
    s.center_3d.y += dy;
    s.box_min.x += dx;
    s.box_min.y += dy;
    s.box_max.x += dx;
    s.box_max.y += dy;
}

void translate_source(Source& s, double dx, double dy) {
    s.at.x += dx; s.at.y += dy;
    s.from.x += dx; s.from.y += dy;
    s.to.x += dx; s.to.y += dy;
    s.center.x += dx; s.center.y += dy;    // plane (3D)
    s.box_min.x += dx; s.box_min.y += dy;  // tfsf
    s.box_max.x += dx; s.box_max.y += dy;
    if (s.shape) translate_shape(*s.shape, dx, dy);
}

void translate_monitor(Monitor& m, double dx, double dy) {
    m.from.x += dx; m.from.y += dy;
    m.to.x += dx; m.to.y += dy;
    m.center.x += dx; m.center.y += dy;  // flux plane (3D)
    if (m.min) { m.min->x += dx; m.min->y += dy; }
    if (m.max) { m.max->x += dx; m.max->y += dy; }
    if (m.at) { m.at->x += dx; m.at->y += dy; }
    if (m.shape) translate_shape(*m.shape, dx, dy);
}

void scale_shape(Shape& s, Vec2 a, double sx, double sy) {
    auto map = [&](Vec2& p) { p = {a.x + (p.x - a.x) * sx, a.y + (p.y - a.y) * sy}; };
    switch (s.type) {
    case ShapeType::Rectangle: {
        Vec2 lo = s.min, hi = s.max;
        map(lo);
        map(hi);
        s.min = {std::min(lo.x, hi.x), std::min(lo.y, hi.y)};
        s.max = {std::max(lo.x, hi.x), std::max(lo.y, hi.y)};
        break;
    }
    case ShapeType::Ellipse:
        map(s.center);
        s.radii = {s.radii.x * std::fabs(sx), s.radii.y * std::fabs(sy)};
        break;
    case ShapeType::Ring: {
        map(s.center);
        const double k = std::sqrt(std::fabs(sx * sy));
        s.inner_radius *= k;
        s.outer_radius *= k;
        break;
    }
    case ShapeType::Polygon:
    case ShapeType::Path:
        for (auto& p : s.points) map(p);
        break;
    default: break;
    }
}

void rotate_shape(Shape& s, Vec2 c, double deg) {
    const double r = deg * M_PI / 180, cs = std::cos(r), sn = std::sin(r);
    auto rot = [&](Vec2& p) {
        const double x = p.x - c.x, y = p.y - c.y;
        p = {c.x + cs * x - sn * y, c.y + sn * x + cs * y};
    };
    switch (s.type) {
    case ShapeType::Rectangle: {
        Vec2 mid{(s.min.x + s.max.x) / 2, (s.min.y + s.max.y) / 2};
        const Vec2 half{(s.max.x - s.min.x) / 2, (s.max.y - s.min.y) / 2};
        rot(mid);
        s.min = {mid.x - half.x, mid.y - half.y};
        s.max = {mid.x + half.x, mid.y + half.y};
        s.rotation_deg = std::remainder(s.rotation_deg + deg, 360.0);
        break;
    }
    case ShapeType::Ellipse:
        rot(s.center);
        s.rotation_deg = std::remainder(s.rotation_deg + deg, 360.0);
        break;
    case ShapeType::Ring: rot(s.center); break;
    case ShapeType::Polygon:
    case ShapeType::Path:
        for (auto& p : s.points) rot(p);
        break;
    case ShapeType::Step: {
        // p -> R_d (R_z(rz) R_y R_x (scale p) + t - c) + c: rz grows by d, (tx, ty) turns about c
        Vec2 t{s.translate[0], s.translate[1]};
        rot(t);
        s.translate[0] = t.x;
        s.translate[1] = t.y;
        s.rotate_deg[2] = std::remainder(s.rotate_deg[2] + deg, 360.0);
        break;
    }
    case ShapeType::Gds: {  // p -> R_d (R(rotate_deg) p + t - c) + c
        Vec2 t{s.translate[0], s.translate[1]};
        rot(t);
        s.translate[0] = t.x;
        s.translate[1] = t.y;
        s.rotation_deg = std::remainder(s.rotation_deg + deg, 360.0);
        break;
    }
    default: break;
    }
}

Project default_project() {
    Project p;
    p.name = "Untitled";
    p.domain.size = {10.0, 8.0, 0.0};
    p.domain.cell_size = 0.02;
    Material si;
    si.id = "si";
    si.name = "Silicon";
    si.epsilon_inf = 12.11;
    si.color = "#3b6fb6";
    Material sio2;
    sio2.id = "sio2";
    sio2.name = "Silica";
    sio2.epsilon_inf = 2.085;
    sio2.color = "#9fc5a8";
    p.materials = {si, sio2};
    Layer layer;
    layer.name = "Layer 1";
    layer.material = "si";
    p.layers.push_back(layer);
    return p;
}

// ---------------------------------------------------------------- document

EditorDocument::EditorDocument(QObject* parent) : QObject(parent), project_(default_project()) {
    connect(&undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
}

QString EditorDocument::displayName() const {
    return filePath_.isEmpty() ? tr("Untitled") : QFileInfo(filePath_).fileName();
}

void EditorDocument::setProjectInternal(const Project& project) {
    project_ = project;
    fixSelection();
    Q_EMIT changed();
}

void EditorDocument::setLayerInternal(int layer, const Layer& value) {
    if (layer < 0 || layer >= int(project_.layers.size())) return;
    project_.layers[size_t(layer)] = value;
    fixSelection();
    Q_EMIT changed();
}

void EditorDocument::fixSelection() {
    bool ok = true;
    switch (selection_.kind) {
    case ItemRef::Kind::None: break;
    case ItemRef::Kind::Shape:
        ok = selection_.layer >= 0 && selection_.layer < int(project_.layers.size()) && selection_.index >= 0 &&
             selection_.index < int(project_.layers[size_t(selection_.layer)].shapes.size());
        break;
    case ItemRef::Kind::Source: ok = selection_.index >= 0 && selection_.index < int(project_.sources.size()); break;
    case ItemRef::Kind::Monitor: ok = selection_.index >= 0 && selection_.index < int(project_.monitors.size()); break;
    case ItemRef::Kind::Port: ok = selection_.index >= 0 && selection_.index < port_count(project_); break;
    case ItemRef::Kind::Design: ok = design_region(project_) != nullptr; break;
    }
    if (!ok) {
        selection_ = {};
        Q_EMIT selectionChanged();
    }
    const int nl = int(project_.layers.size());
    if (currentLayer_ >= nl) {
        currentLayer_ = nl - 1;
        Q_EMIT currentLayerChanged(currentLayer_);
    } else if (currentLayer_ < 0 && nl > 0) {
        currentLayer_ = 0;
        Q_EMIT currentLayerChanged(currentLayer_);
    }
}

void EditorDocument::replaceProject(const Project& after, const QString& text, bool mergeable) {
    Project carried = after;
    carry_expressions(project_, carried);  // bindings follow their items (expressions.hpp)
    if (carried == project_) return;
    if (capture_) {
        *capture_ = std::make_pair(std::move(carried), text);
        return;
    }
    undo_.push(new ProjectCommand(this, project_, carried, text, mergeable));
}

void EditorDocument::replaceProjectInSession(const Project& after, const QString& text, std::uint64_t session) {
    Project carried = after;
    carry_expressions(project_, carried);
    if (carried == project_) return;
    if (capture_) {
        *capture_ = std::make_pair(std::move(carried), text);
        return;
    }
    undo_.push(new ProjectCommand(this, project_, carried, text, true, session));
}

void EditorDocument::replaceLayer(int layer, const Layer& after, const QString& text) {
    if (layer < 0 || layer >= int(project_.layers.size())) return;
    if (after == project_.layers[size_t(layer)]) return;
    if (!project_.expressions.empty() || capture_) {  // the expressions' paths may move with the shapes
        Project p = project_;
        p.layers[size_t(layer)] = after;
        replaceProject(p, text);
        return;
    }
    undo_.push(new LayerCommand(this, layer, project_.layers[size_t(layer)], after, text));
}

std::optional<std::pair<Project, QString>> EditorDocument::captureEdit(const std::function<void()>& edit) {
    std::optional<std::pair<Project, QString>> result;
    auto* saved = capture_;
    capture_ = &result;
    const ItemRef selection = selection_;
    try {
        edit();
    } catch (...) {
        capture_ = saved;
        throw;
    }
    capture_ = saved;
    if (!(selection_ == selection)) setSelection(selection);
    return result;
}

void EditorDocument::editProject(const QString& text, const std::function<void(Project&)>& edit, bool mergeable) {
    Project copy = project_;
    edit(copy);
    replaceProject(copy, text, mergeable);
}

void EditorDocument::editLayer(int layer, const QString& text, const std::function<void(Layer&)>& edit) {
    if (layer < 0 || layer >= int(project_.layers.size())) return;
    Layer copy = project_.layers[size_t(layer)];
    edit(copy);
    replaceLayer(layer, copy, text);
}

void EditorDocument::addShape(int layer, const Shape& shape, const QString& text, const std::vector<FieldExpression>& expressions) {
    if (layer < 0 || layer >= int(project_.layers.size())) return;
    if (expressions.empty()) {
        editLayer(layer, text, [&](Layer& l) { l.shapes.push_back(shape); });
    } else {
        editProject(text, [&](Project& p) {
            auto& shapes = p.layers[size_t(layer)].shapes;
            shapes.push_back(shape);
            add_item_expressions(p, {ItemRef::Kind::Shape, layer, int(shapes.size()) - 1}, expressions);
        });
    }
    setSelection({ItemRef::Kind::Shape, layer, int(project_.layers[size_t(layer)].shapes.size()) - 1});
}

void EditorDocument::addSource(const Source& source, const std::vector<FieldExpression>& expressions) {
    editProject(tr("Add source"), [&](Project& p) {
        p.sources.push_back(source);
        if (p.domain.dimensions == 3) source_to_3d(p.sources.back(), p.domain.size[2]);
        add_item_expressions(p, {ItemRef::Kind::Source, -1, int(p.sources.size()) - 1}, expressions);
    });
    setSelection({ItemRef::Kind::Source, -1, int(project_.sources.size()) - 1});
}

void EditorDocument::addMonitor(const Monitor& monitor, const std::vector<FieldExpression>& expressions) {
    editProject(tr("Add monitor"), [&](Project& p) {
        p.monitors.push_back(monitor);
        if (p.domain.dimensions == 3) monitor_to_3d(p.monitors.back(), p.domain.size[2]);
        add_item_expressions(p, {ItemRef::Kind::Monitor, -1, int(p.monitors.size()) - 1}, expressions);
    });
    setSelection({ItemRef::Kind::Monitor, -1, int(project_.monitors.size()) - 1});
}

void EditorDocument::addPort(const PortData& port, const std::vector<FieldExpression>& expressions) {
    int index = -1;
    editProject(tr("Add port"), [&](Project& p) {
        index = add_port(p, port);
        add_item_expressions(p, {ItemRef::Kind::Port, -1, index}, expressions);
    });
    setSelection({ItemRef::Kind::Port, -1, index});
}

void EditorDocument::removeItem(const ItemRef& item) {
    switch (item.kind) {
    case ItemRef::Kind::None: return;
    case ItemRef::Kind::Shape:
        editLayer(item.layer, tr("Delete shape"), [&](Layer& l) {
            if (item.index >= 0 && item.index < int(l.shapes.size())) l.shapes.erase(l.shapes.begin() + item.index);
        });
        break;
    case ItemRef::Kind::Source:
        editProject(tr("Delete source"), [&](Project& p) {
            if (item.index >= 0 && item.index < int(p.sources.size())) p.sources.erase(p.sources.begin() + item.index);
        });
        break;
    case ItemRef::Kind::Monitor:
        editProject(tr("Delete monitor"), [&](Project& p) {
            if (item.index >= 0 && item.index < int(p.monitors.size()))
                p.monitors.erase(p.monitors.begin() + item.index);
        });
        break;
    case ItemRef::Kind::Port:
        editProject(tr("Delete port"), [&](Project& p) { remove_port(p, item.index); });
        break;
    case ItemRef::Kind::Design:
        editProject(tr("Delete design region"), [&](Project& p) { remove_design(p); });
        break;
    }
    setSelection({});
}

void EditorDocument::duplicateItem(const ItemRef& item, double dx, double dy) {
    switch (item.kind) {
    case ItemRef::Kind::None: return;
    case ItemRef::Kind::Shape: {
        if (item.layer < 0 || item.layer >= int(project_.layers.size())) return;
        const auto& shapes = project_.layers[size_t(item.layer)].shapes;
        if (item.index < 0 || item.index >= int(shapes.size())) return;
        Shape copy = shapes[size_t(item.index)];
        translate_shape(copy, dx, dy);
        addShape(item.layer, copy, tr("Duplicate shape"), item_expressions(project_, item));
        break;
    }
    case ItemRef::Kind::Source: {
        if (item.index < 0 || item.index >= int(project_.sources.size())) return;
        Source copy = project_.sources[size_t(item.index)];
        translate_source(copy, dx, dy);
        copy.name = uniqueItemName(QString::fromStdString(copy.name)).toStdString();
        addSource(copy, item_expressions(project_, item));
        break;
    }
    case ItemRef::Kind::Monitor: {
        if (item.index < 0 || item.index >= int(project_.monitors.size())) return;
        Monitor copy = project_.monitors[size_t(item.index)];
        translate_monitor(copy, dx, dy);
        copy.name = uniqueItemName(QString::fromStdString(copy.name)).toStdString();
        addMonitor(copy, item_expressions(project_, item));
        break;
    }
    case ItemRef::Kind::Port: {
        auto copy = port_at(project_, item.index);
        if (!copy) return;
        copy->center.x += dx;
        copy->center.y += dy;
        copy->name = uniqueItemName(QString::fromStdString(copy->name)).toStdString();
        addPort(*copy, item_expressions(project_, item));
        break;
    }
    case ItemRef::Kind::Design: return;  // one region is what the solver takes
    }
}

void EditorDocument::translateItem(const ItemRef& item, double dx, double dy) {
    if (dx == 0 && dy == 0) return;
    switch (item.kind) {
    case ItemRef::Kind::None: return;
    case ItemRef::Kind::Shape:
        editLayer(item.layer, tr("Move shape"), [&](Layer& l) {
            if (item.index >= 0 && item.index < int(l.shapes.size())) translate_shape(l.shapes[size_t(item.index)], dx, dy);
        });
        break;
    case ItemRef::Kind::Source:
        editProject(tr("Move source"), [&](Project& p) {
            if (item.index >= 0 && item.index < int(p.sources.size())) translate_source(p.sources[size_t(item.index)], dx, dy);
        });
        break;
    case ItemRef::Kind::Monitor:
        editProject(tr("Move monitor"), [&](Project& p) {
            if (item.index >= 0 && item.index < int(p.monitors.size()))
                translate_monitor(p.monitors[size_t(item.index)], dx, dy);
        });
        break;
    case ItemRef::Kind::Port:
        editProject(tr("Move port"), [&](Project& p) {
            if (auto d = port_at(p, item.index)) {
                d->center.x += dx;
                d->center.y += dy;
                set_port(p, item.index, *d);
            }
        });
        break;
    case ItemRef::Kind::Design:
        editProject(tr("Move design region"), [&](Project& p) {
            if (!design_region(p)) return;
            Json& r = design_region_mut(p);
            auto shift = [dx, dy](Json& v) {
                if (v.is_array() && v.size() >= 2 && v[0].is_number() && v[1].is_number()) {
                    v[0] = v[0].get<double>() + dx;
                    v[1] = v[1].get<double>() + dy;
                }
            };
            for (const char* key : {"min", "max"}) shift(r[key]);
            if (r.contains("fixed") && r["fixed"].is_array())  // the fixed boxes move with the region
                for (Json& b : r["fixed"])
                    if (b.is_object())
                        for (const char* key : {"min", "max"})
                            if (b.contains(key)) shift(b[key]);
        });
        break;
    }
}

QString EditorDocument::uniqueItemName(const QString& prefix) const {
    QString base = prefix;
    // strip a trailing number so that duplicating "src2" gives "src3", not "src21"
    while (!base.isEmpty() && base.back().isDigit()) base.chop(1);
    if (base.isEmpty()) base = QStringLiteral("item");
    for (int n = 1;; ++n) {
        const std::string candidate = (base + QString::number(n)).toStdString();
        bool used = false;
        for (const auto& s : project_.sources) used |= s.name == candidate;
        for (const auto& m : project_.monitors) used |= m.name == candidate;
        for (const auto& n : port_names(project_)) used |= n == candidate;
        if (!used) return QString::fromStdString(candidate);
    }
}

void EditorDocument::newProject() {
    undo_.clear();
    selection_ = {};
    currentLayer_ = 0;
    project_ = default_project();
    filePath_.clear();
    undo_.setClean();
    Q_EMIT selectionChanged();
    Q_EMIT currentLayerChanged(0);
    Q_EMIT filePathChanged(filePath_);
    Q_EMIT changed();
}

bool EditorDocument::open(const QString& path, Prompts& prompts) {
    Project loaded;
    try {
        loaded = load_project(std::filesystem::path(path.toStdString()));
    } catch (const std::exception& e) {
        prompts.error(tr("Cannot open project"),
                      tr("The project file could not be opened:\n\n%1\n\n"
                         "The file was not changed, and this window keeps its current project.")
                          .arg(QString::fromStdString(e.what())));
        return false;
    }
    undo_.clear();
    selection_ = {};
    project_ = std::move(loaded);
    currentLayer_ = project_.layers.empty() ? -1 : 0;
    filePath_ = path;
    undo_.setClean();
    Q_EMIT selectionChanged();
    Q_EMIT currentLayerChanged(currentLayer_);
    Q_EMIT filePathChanged(filePath_);
    Q_EMIT changed();
    return true;
}

bool EditorDocument::save(Prompts& prompts) {
    if (filePath_.isEmpty()) return false;
    return saveAs(filePath_, prompts);
}

bool EditorDocument::saveAs(const QString& path, Prompts& prompts) {
    try {
        save_project(project_, std::filesystem::path(path.toStdString()));
    } catch (const std::exception& e) {
        prompts.error(tr("Cannot save project"),
                      tr("The project could not be saved:\n\n%1").arg(QString::fromStdString(e.what())));
        return false;
    }
    const bool pathChanged = path != filePath_;
    filePath_ = path;
    undo_.setClean();
    if (pathChanged) Q_EMIT filePathChanged(filePath_);
    return true;
}

void EditorDocument::adoptRecovered(const Project& recovered, const QString& originalPath) {
    undo_.clear();
    filePath_ = originalPath;
    undo_.setClean();
    Q_EMIT filePathChanged(filePath_);
    replaceProject(recovered, tr("Recover unsaved work"));
}

void EditorDocument::setSelection(const ItemRef& item) {
    if (item == selection_) return;
    selection_ = item;
    if (item.kind == ItemRef::Kind::Shape && item.layer != currentLayer_) setCurrentLayer(item.layer);
    Q_EMIT selectionChanged();
}

void EditorDocument::setCurrentLayer(int layer) {
    if (layer == currentLayer_ || layer < 0 || layer >= int(project_.layers.size())) return;
    currentLayer_ = layer;
    Q_EMIT currentLayerChanged(layer);
}

}  // namespace golightly::editor
