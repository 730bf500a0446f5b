// GoLightly editor: the Properties dock (properties_dock.hpp): the numeric fields
// with their rules, the undoable edits of the selected item, and rebuild(), which asks the
// builder of the selected item's kind for its rows (properties_shape.cpp,
// properties_source.cpp, properties_monitor.cpp, properties_port.cpp).
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QTimer>

#include <algorithm>

#include "dock_util.hpp"
#include "properties_dock.hpp"
#include "expressions.hpp"
#include "ports.hpp"
#include "design_region.hpp"

namespace golightly::editor {

PropertiesDock::PropertiesDock(EditorDocument* doc, QWidget* parent) : QDockWidget(tr("Properties"), parent), doc_(doc) {
    setObjectName(QStringLiteral("PropertiesDock"));
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    body_ = new QWidget;
    form_ = new QFormLayout(body_);
    scroll->setWidget(body_);
    setWidget(scroll);
    connect(doc_, &EditorDocument::selectionChanged, this, &PropertiesDock::scheduleRebuild);
    connect(doc_, &EditorDocument::changed, this, &PropertiesDock::scheduleRebuild);
    rebuild();
}

void PropertiesDock::scheduleRebuild() {
    if (pending_) return;
    pending_ = true;
    QTimer::singleShot(0, this, &PropertiesDock::rebuild);
}

QWidget* PropertiesDock::field(const QString& label) const {
    for (int r = 0; r < form_->rowCount(); ++r) {
        auto* l = form_->itemAt(r, QFormLayout::LabelRole);
        auto* f = form_->itemAt(r, QFormLayout::FieldRole);
        if (l && f && l->widget() && qobject_cast<QLabel*>(l->widget()) &&
            qobject_cast<QLabel*>(l->widget())->text() == label)
            return f->widget();
    }
    return nullptr;
}

QDoubleSpinBox* PropertiesDock::addDouble(const QString& label, double value, const QString& suffix,
                                          std::function<void(double)> apply, std::function<QString(double)> rule) {
    auto* s = make_spin(-1e6, 1e6, 4, 0.05, suffix);
    auto* ns = static_cast<NumberSpinBox*>(s);
    s->setValue(value);
    s->setProperty("fieldLabel", label);
    s->setProperty("defaultToolTip", s->toolTip());
    // every field takes an expression over the project's parameters (expressions.hpp)
    ns->setEvaluator([this](const QString& text) { return evaluate_in(doc_->project(), text); });
    std::string path;  // the field's JSON path: looked for only where the item has expressions
    if (!item_expressions(doc_->project(), doc_->selection()).empty()) {
        path = fieldPath(apply, value);
        if (const FieldExpression* e = path.empty() ? nullptr : expression_at(doc_->project(), path)) {
            ns->setExpression(qs(e->text), e->value);
            form_->addRow(label, s);
            ensureValueLabel(s);
            s->setProperty("expressionPath", qs(path));
        }
    }
    auto enter = [this, s, ns, apply, rule, label] {
        const QString expr = ns->expression();
        const QString exprError = ns->expressionError();
        const double v = expr.isEmpty() ? s->value() : ns->expressionValue();
        invalid_.erase(std::remove_if(invalid_.begin(), invalid_.end(), [&](const Invalid& i) { return i.label == label; }),
                       invalid_.end());
        const auto reject = [&](const QString& broken) {
            if (!expr.isEmpty() || !exprError.isEmpty())
                invalid_.push_back({label, v, broken, true, ns->enteredText()});
            else
                invalid_.push_back({label, v, broken});
            invalidItem_ = doc_->selection();
            markInvalid(s, broken);
        };
        if (!exprError.isEmpty()) {
            ensureValueLabel(s);
            return reject(exprError);
        }
        const QString broken = rule ? rule(v) : QString();
        if (!broken.isEmpty()) return reject(broken);
        markInvalid(s, QString());
        if (!expr.isEmpty()) {
            const QString problem = applyExpression(apply, expr, v);
            if (!problem.isEmpty()) reject(problem);
            return;
        }
        // a number replaces the field's expression
        const std::string bound = s->property("expressionPath").toString().toStdString();
        if (!bound.empty() && expression_at(doc_->project(), bound)) {
            const auto captured = doc_->captureEdit([&] { apply(v); });
            Project after = captured ? captured->first : doc_->project();
            remove_expression(after, bound);
            doc_->replaceProject(after, captured ? captured->second : tr("Remove expression"));
            return;
        }
        apply(v);
    };
    connect(s, &QDoubleSpinBox::editingFinished, this, enter);
    if (form_->indexOf(s) < 0) form_->addRow(label, s);
    // An entry rejected before this rebuild stays visible (red) with the value typed. Its
    // rule is checked again: the edit that caused the rebuild may have made it valid (a
    // rectangle's min x above its max x, then a larger max x), and then it is applied.
    if (doc_->selection() == invalidItem_)
        for (auto it = invalid_.begin(); it != invalid_.end(); ++it)
            if (it->label == label) {
                if (it->isText) {  // an expression: shown again as typed, entered again when the user does
                    const QSignalBlocker block(s);
                    ns->setEnteredText(it->text);
                    ensureValueLabel(s);
                    markInvalid(s, it->rule);
                    break;
                }
                const double v = it->value;
                const QString broken = rule ? rule(v) : QString();
                if (broken.isEmpty()) {
                    invalid_.erase(it);
                    // after the rebuild: the edit rebuilds the dock again
                    QTimer::singleShot(0, this, [this, apply, v, sel = doc_->selection()] {
                        if (doc_->selection() == sel) apply(v);
                    });
                } else {
                    it->rule = broken;
                    const QSignalBlocker block(s);
                    s->setValue(v);
                    markInvalid(s, broken);
                }
                break;
            }
    return s;
}

std::string PropertiesDock::fieldPath(const std::function<void(double)>& apply, double current) {
    const Project& before = doc_->project();
    for (const double probe : {current + 1.0, current * 2.0 + 3.0}) {
        const auto captured = doc_->captureEdit([&] { apply(probe); });
        if (!captured) continue;
        if (const auto path = changed_field(before, captured->first)) return *path;
    }
    return {};
}

QString PropertiesDock::applyExpression(const std::function<void(double)>& apply, const QString& text, double value) {
    const Project before = doc_->project();
    const auto captured = doc_->captureEdit([&] { apply(value); });
    Project after = captured ? captured->first : before;
    std::string path;
    if (captured) {
        if (const auto changed = changed_field(before, after)) path = *changed;
    } else {
        path = fieldPath(apply, value);  // the field holds the value already
    }
    if (path.empty()) return tr("this field sets more than one value of the project: it takes a number only");
    const auto stored = number_at(after, path);
    if (!stored || *stored != value)
        return tr("this field is stored in another unit than it shows: it takes a number only");
    set_expression(after, path, text.toStdString(), value);
    doc_->replaceProject(after, captured ? captured->second : tr("Set expression"));
    return {};
}

void PropertiesDock::ensureValueLabel(QDoubleSpinBox* s) {
    auto* ns = static_cast<NumberSpinBox*>(s);
    if (s->property("valueLabel").value<QObject*>()) return;
    int row = -1;
    QFormLayout::ItemRole role;
    form_->getWidgetPosition(s, &row, &role);
    if (row < 0) return;
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setObjectName(s->property("fieldLabel").toString() + QStringLiteral(".value"));
    form_->insertRow(row + 1, QString(), label);
    s->setProperty("valueLabel", QVariant::fromValue<QObject*>(label));
    ns->setValueLabel(label);
}

void PropertiesDock::markInvalid(QDoubleSpinBox* s, const QString& rule) {
    s->setProperty("invalid", !rule.isEmpty());
    if (rule.isEmpty()) {
        s->setStyleSheet(QString());
        s->setToolTip(s->property("defaultToolTip").toString());
    } else {
        s->setStyleSheet(QStringLiteral("QDoubleSpinBox { background: #ffd9d9; color: #8a0000; border: 1px solid #d00000; }"));
        s->setToolTip(tr("Not applied: %1").arg(rule));
    }
}

QString PropertiesDock::enterValue(const QString& label, double value) {
    auto* s = qobject_cast<QDoubleSpinBox*>(field(label));
    if (!s) return tr("no field \"%1\"").arg(label);
    s->setValue(value);
    Q_EMIT s->editingFinished();
    for (const Invalid& i : invalid_)
        if (i.label == label) return i.rule;
    return {};
}

QString PropertiesDock::enterText(const QString& label, const QString& text) {
    auto* s = qobject_cast<QDoubleSpinBox*>(field(label));
    if (!s) return tr("no field \"%1\"").arg(label);
    static_cast<NumberSpinBox*>(s)->setEnteredText(text);
    Q_EMIT s->editingFinished();
    for (const Invalid& i : invalid_)
        if (i.label == label) return i.rule;
    return {};
}

QStringList PropertiesDock::problems() const {
    QStringList out;
    if (!(doc_->selection() == invalidItem_)) return out;
    for (const Invalid& i : invalid_)
        out << tr("%1: %2: %3 (entered %4)")
                   .arg(itemTitle_, i.label, i.rule, i.isText ? QStringLiteral("\"%1\"").arg(i.text) : QString::number(i.value, 'g', 6));
    return out;
}

void PropertiesDock::addText(const QString& label, const QString& value, std::function<void(const QString&)> apply) {
    auto* e = new QLineEdit(value);
    connect(e, &QLineEdit::editingFinished, this, [e, apply] { apply(e->text()); });
    form_->addRow(label, e);
}

void PropertiesDock::addCheckedText(const QString& label, const QString& value, std::function<void(const QString&)> apply,
                                    std::function<QString(const QString&)> rule) {
    auto* e = new QLineEdit(value);
    e->setProperty("fieldLabel", label);
    const auto mark = [e](const QString& broken) {
        e->setProperty("invalid", !broken.isEmpty());
        e->setStyleSheet(broken.isEmpty()
                             ? QString()
                             : QStringLiteral("QLineEdit { background: #ffd9d9; color: #8a0000; border: 1px solid #d00000; }"));
        e->setToolTip(broken.isEmpty() ? QString() : tr("Not applied: %1").arg(broken));
    };
    connect(e, &QLineEdit::editingFinished, this, [this, e, apply, rule, label, mark] {
        const QString t = e->text().trimmed();
        const QString broken = rule ? rule(t) : QString();
        invalid_.erase(std::remove_if(invalid_.begin(), invalid_.end(), [&](const Invalid& i) { return i.label == label; }),
                       invalid_.end());
        if (!broken.isEmpty()) {
            invalid_.push_back({label, 0.0, broken, true, t});
            invalidItem_ = doc_->selection();
            mark(broken);
            return;
        }
        mark(QString());
        apply(t);
    });
    form_->addRow(label, e);
    // a rejected entry stays visible (red, with the text typed) across rebuilds, as addDouble's
    if (doc_->selection() == invalidItem_)
        for (const Invalid& i : invalid_)
            if (i.label == label && i.isText) {
                e->setText(i.text);
                mark(i.rule);
                break;
            }
}

void PropertiesDock::addCombo(const QString& label, const QStringList& items, int current,
                              std::function<void(int)> apply) {
    auto* c = new QComboBox;
    c->addItems(items);
    c->setCurrentIndex(current);
    connect(c, qOverload<int>(&QComboBox::activated), this, [apply](int i) { apply(i); });
    form_->addRow(label, c);
}

void PropertiesDock::addInfo(const QString& label, const QString& text) { form_->addRow(label, new QLabel(text)); }

void PropertiesDock::editShape(const std::function<void(Shape&)>& f) {
    const ItemRef sel = doc_->selection();
    if (sel.kind != ItemRef::Kind::Shape) return;
    doc_->editLayer(sel.layer, tr("Edit shape"), [&](Layer& l) {
        if (sel.index < int(l.shapes.size())) f(l.shapes[size_t(sel.index)]);
    });
}

void PropertiesDock::editSource(const std::function<void(Source&)>& f) {
    const ItemRef sel = doc_->selection();
    if (sel.kind != ItemRef::Kind::Source) return;
    doc_->editProject(tr("Edit source"), [&](Project& p) {
        if (sel.index < int(p.sources.size())) f(p.sources[size_t(sel.index)]);
    });
}

void PropertiesDock::editMonitor(const std::function<void(Monitor&)>& f) {
    const ItemRef sel = doc_->selection();
    if (sel.kind != ItemRef::Kind::Monitor) return;
    doc_->editProject(tr("Edit monitor"), [&](Project& p) {
        if (sel.index < int(p.monitors.size())) f(p.monitors[size_t(sel.index)]);
    });
}

void PropertiesDock::editPort(const std::function<void(PortData&)>& f) {
    const ItemRef sel = doc_->selection();
    if (sel.kind != ItemRef::Kind::Port) return;
    doc_->editProject(tr("Edit port"), [&](Project& p) {
        if (auto d = port_at(p, sel.index)) {
            f(*d);
            set_port(p, sel.index, *d);
        }
    });
}

void PropertiesDock::rebuild() {
    pending_ = false;
    while (form_->rowCount() > 0) form_->removeRow(0);
    const ItemRef sel = doc_->selection();
    const Project& p = doc_->project();
    if (!(sel == invalidItem_)) {  // the rejected entries of another item were never applied
        invalid_.clear();
        invalidItem_ = sel;
    }
    itemTitle_.clear();
    // one builder per item kind, each in its own file (properties_<kind>.cpp)
    if (sel.kind == ItemRef::Kind::Shape && sel.layer >= 0 && sel.layer < int(p.layers.size()) &&
        sel.index < int(p.layers[size_t(sel.layer)].shapes.size())) {
        shapeRows(p, sel);
    } else if (sel.kind == ItemRef::Kind::Source && sel.index >= 0 && sel.index < int(p.sources.size())) {
        sourceRows(p, sel);
    } else if (sel.kind == ItemRef::Kind::Monitor && sel.index >= 0 && sel.index < int(p.monitors.size())) {
        monitorRows(p, sel);
    } else if (sel.kind == ItemRef::Kind::Port && port_at(p, sel.index)) {
        portRows(p, sel);
    } else if (sel.kind == ItemRef::Kind::Design && design_region(p)) {
        designRows(p, sel);
    } else {
        auto* hint = new QLabel(tr("Select a shape, source or monitor on the canvas to edit it here."));
        hint->setWordWrap(true);
        form_->addRow(hint);
    }
    // Rows added while the dock is hidden (a tab behind Run setup, say) would stay hidden
    // when it is shown: QLayout only schedules the show of a new child when its parent is
    // visible. Mark them shown: they appear with the dock.
    for (QWidget* c : body_->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (c->isHidden()) c->show();
}


// ---- the fields the builders share

QStringList PropertiesDock::directionNames(int dims) {
    QStringList d{QStringLiteral("+x"), QStringLiteral("-x"), QStringLiteral("+y"), QStringLiteral("-y")};
    if (dims == 3) d << QStringLiteral("+z") << QStringLiteral("-z");
    return d;
}

QStringList PropertiesDock::componentNames() {
    return {QStringLiteral("Ex"), QStringLiteral("Ey"), QStringLiteral("Ez"),
            QStringLiteral("Hx"), QStringLiteral("Hy"), QStringLiteral("Hz")};
}

QString PropertiesDock::positive(double v) { return v > 0 ? QString() : tr("must be greater than 0"); }

void PropertiesDock::vecFields(const QString& name, Vec2 v, std::function<void(Vec2)> apply, AxisRule rule) {
    const QString um = tr(" µm");
    auto axisRule = [rule](int a) -> std::function<QString(double)> {
        if (!rule) return {};
        return [rule, a](double x) { return rule(a, x); };
    };
    addDouble(name + tr(" x"), v.x, um, [v, apply](double x) { apply({x, v.y}); }, axisRule(0));
    addDouble(name + tr(" y"), v.y, um, [v, apply](double y) { apply({v.x, y}); }, axisRule(1));
}

void PropertiesDock::vec3Fields(const QString& name, Vec3 v, std::function<void(Vec3)> apply, AxisRule rule) {
    const QString um = tr(" µm");
    const char* axes[3] = {" x", " y", " z"};
    for (int a = 0; a < 3; ++a)
        addDouble(name + tr(axes[a]), v[a], um, [v, a, apply](double x) {
            Vec3 w = v;
            w[a] = x;
            apply(w);
        }, rule ? std::function<QString(double)>([rule, a](double x) { return rule(a, x); }) : std::function<QString(double)>());
}

void PropertiesDock::zField(const QString& name, double z, std::function<void(double)> apply) {
    addDouble(name + tr(" z"), z, tr(" µm"), std::move(apply));
}

PropertiesDock::AxisRule PropertiesDock::minRule(Vec3 max, int axes) {
    return [max, axes](int a, double v) {
        return a >= axes || v < max[a] ? QString()
                                       : tr("must be less than max %1 (%2)").arg(QLatin1Char("xyz"[a])).arg(max[a], 0, 'g', 6);
    };
}

PropertiesDock::AxisRule PropertiesDock::maxRule(Vec3 min, int axes) {
    return [min, axes](int a, double v) {
        return a >= axes || v > min[a] ? QString()
                                       : tr("must be greater than min %1 (%2)").arg(QLatin1Char("xyz"[a])).arg(min[a], 0, 'g', 6);
    };
}

}  // namespace golightly::editor
