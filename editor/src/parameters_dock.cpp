// GoLightly editor: the Parameters dock (parameters_dock.hpp).
#include "parameters_dock.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <system_error>

#include "design_region.hpp"
#include "dock_util.hpp"
#include "editor_document.hpp"
#include "expressions.hpp"
#include "golightly/parameters.hpp"

namespace golightly::editor {

namespace {

/// A cell's text as a parameter: a plain number (C locale, as in the file) or an expression.
Parameter parameter_from(const std::string& name, const QString& text) {
    Parameter prm;
    prm.name = name;
    const std::string t = text.trimmed().toStdString();
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (!t.empty() && end && *end == '\0') prm.value = v;
    else prm.text = t;
    return prm;
}

/// The shortest decimal text that reads back (strtod, the reader) as exactly `value`
/// (std::to_chars' shortest round trip): 0.35 rather than parameter_text's
/// 0.34999999999999998, and 0.35000000000000003 only for that other double.
std::string shortest_text(double value) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    return r.ec == std::errc() ? std::string(buf, r.ptr) : parameter_text(value);
}

/// What the Expression column shows: an expression as written; a plain number (none
/// written, or one the reader took as a number, e.g. an optimizer's or a sweep's pushed
/// value with 17 digits) in its shortest exact form, so that the stored value is unchanged
/// when the text is typed back.
QString expression_text(const Parameter& prm) {
    if (!prm.text.empty()) {
        char* end = nullptr;
        const double v = std::strtod(prm.text.c_str(), &end);
        if (!(end && *end == '\0' && v == prm.value)) return qs(prm.text);
    }
    return qs(shortest_text(prm.value));
}

/// The text that stands for `value` in an expression (negative numbers in parentheses).
std::string value_text(double value) {
    const std::string t = parameter_text(value);
    return value < 0 ? "(" + t + ")" : t;
}

}  // namespace

ParametersDock::ParametersDock(EditorDocument* doc, Prompts* prompts, QWidget* parent)
    : QDockWidget(tr("Parameters"), parent), doc_(doc), prompts_(prompts) {
    setObjectName(QStringLiteral("ParametersDock"));
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    table_ = new QTableWidget(0, ColCount);
    table_->setObjectName(QStringLiteral("parametersTable"));
    table_->setHorizontalHeaderLabels({tr("Name"), tr("Expression"), tr("Value"), tr("Used by")});
    table_->horizontalHeaderItem(ColExpression)
        ->setToolTip(tr("A number (µm, fs or no unit) or an expression over the parameters above, e.g. 250 nm or 2 * w"));
    table_->horizontalHeaderItem(ColUses)->setToolTip(tr("How many fields and parameters use it (the list is below)"));
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(ColName, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(ColUses, QHeaderView::ResizeToContents);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    v->addWidget(table_, 1);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"));
    add->setObjectName(QStringLiteral("parametersAdd"));
    add->setToolTip(tr("Add a parameter (then type its name and value in the table)"));
    delete_ = new QPushButton(tr("Delete"));
    delete_->setObjectName(QStringLiteral("parametersDelete"));
    delete_->setToolTip(tr("Delete the selected parameter; its uses get its value"));
    buttons->addWidget(add);
    buttons->addWidget(delete_);
    buttons->addStretch(1);
    v->addLayout(buttons);
    uses_ = new QLabel;
    uses_->setObjectName(QStringLiteral("parametersUses"));
    uses_->setWordWrap(true);
    uses_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(uses_);
    message_ = new QLabel;
    message_->setObjectName(QStringLiteral("parametersMessage"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("QLabel { color: #b00000; }"));
    message_->setVisible(false);
    v->addWidget(message_);
    setWidget(w);

    connect(add, &QPushButton::clicked, this, [this] {
        const Project& p = doc_->project();
        for (int n = int(p.parameters.size()) + 1;; ++n) {
            const QString name = QStringLiteral("p%1").arg(n);
            if (std::none_of(p.parameters.begin(), p.parameters.end(),
                             [&](const Parameter& prm) { return prm.name == name.toStdString(); })) {
                if (addParameter(name, QStringLiteral("1")).isEmpty()) {
                    table_->setCurrentCell(table_->rowCount() - 1, ColName);
                    table_->editItem(table_->item(table_->rowCount() - 1, ColName));
                }
                return;
            }
        }
    });
    connect(delete_, &QPushButton::clicked, this, [this] {
        const int row = table_->currentRow();
        if (row >= 0 && table_->item(row, ColName)) deleteParameter(table_->item(row, ColName)->text());
    });
    connect(table_, &QTableWidget::cellChanged, this, &ParametersDock::cellEdited);
    connect(table_, &QTableWidget::itemSelectionChanged, this, &ParametersDock::showUses);
    connect(doc_, &EditorDocument::changed, this, &ParametersDock::refresh);
    refresh();
}

QString ParametersDock::message() const { return message_->isHidden() ? QString() : message_->text(); }

void ParametersDock::showMessage(const QString& problem) {
    message_->setText(problem);
    message_->setVisible(!problem.isEmpty());
}

void ParametersDock::refresh() {
    updating_ = true;
    const Project& p = doc_->project();
    const int current = table_->currentRow();
    table_->setRowCount(int(p.parameters.size()));
    for (int r = 0; r < int(p.parameters.size()); ++r) {
        const Parameter& prm = p.parameters[size_t(r)];
        const auto uses = uses_of(p, prm.name);
        QStringList where;
        for (const auto& u : uses) where << describe_path(p, u);
        // the items are updated, not replaced: this runs inside the edit of one of them
        const auto cell = [this, r](int column, const QString& text, bool editable) {
            QTableWidgetItem* item = table_->item(r, column);
            if (!item) {
                item = new QTableWidgetItem;
                if (!editable) item->setFlags(item->flags() & ~Qt::ItemIsEditable);
                table_->setItem(r, column, item);
            }
            if (item->text() != text) item->setText(text);
            return item;
        };
        cell(ColName, qs(prm.name), true);
        cell(ColExpression, expression_text(prm), true);
        cell(ColValue, trimmed_number(prm.value, 12), false);
        cell(ColUses, QString::number(uses.size()), false)->setToolTip(where.join(QLatin1Char('\n')));
    }
    if (current >= 0 && current < table_->rowCount()) table_->setCurrentCell(current, ColName);
    updating_ = false;
    showUses();
}

void ParametersDock::showUses() {
    const int row = table_->currentRow();
    delete_->setEnabled(row >= 0);
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.parameters.size())) {
        uses_->setText(p.parameters.empty()
                           ? tr("No parameters. Add one, then type its name in any numeric field of Properties "
                                "or Run setup, e.g. 2 * w + 10nm.")
                           : QString());
        return;
    }
    const std::string& name = p.parameters[size_t(row)].name;
    QStringList where;
    for (const auto& u : uses_of(p, name)) where << QStringLiteral("• ") + describe_path(p, u);
    uses_->setText(where.isEmpty() ? tr("%1 is not used.").arg(qs(name))
                                   : tr("%1 is used by:\n%2").arg(qs(name), where.join(QLatin1Char('\n'))));
}

void ParametersDock::cellEdited(int row, int column) {
    if (updating_) return;
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.parameters.size())) return;
    const QString name = qs(p.parameters[size_t(row)].name);
    const QString text = table_->item(row, column) ? table_->item(row, column)->text() : QString();
    if (column == ColName) {
        if (text.trimmed() != name) renameParameter(name, text.trimmed());
    } else if (column == ColExpression) {
        setParameterText(name, text);
    }
    // a refused edit: the table shows the document again
    QMetaObject::invokeMethod(this, &ParametersDock::refresh, Qt::QueuedConnection);
}

QString ParametersDock::apply(const std::vector<Parameter>& parameters, const std::vector<FieldExpression>& expressions,
                              const QString& undoText, const std::function<void(Project&)>& also) {
    try {
        Project after = with_parameter_list(doc_->project(), parameters, expressions);
        if (also) also(after);
        showMessage(QString());
        doc_->replaceProject(after, undoText);
        return {};
    } catch (const std::exception& e) {
        const QString problem = QString::fromStdString(e.what());
        showMessage(tr("Not applied: %1").arg(problem));
        return problem;
    }
}

QString ParametersDock::addParameter(const QString& name, const QString& text) {
    const Project& p = doc_->project();
    const std::string n = name.trimmed().toStdString();
    QString problem;
    if (!valid_parameter_name(n))
        problem = tr("\"%1\" is not a valid parameter name (letters, digits and _, not starting with a digit; not a "
                     "unit, pi or a function name)").arg(name);
    else if (std::any_of(p.parameters.begin(), p.parameters.end(), [&](const Parameter& prm) { return prm.name == n; }))
        problem = tr("the project has a parameter %1 already").arg(name);
    if (!problem.isEmpty()) {
        showMessage(tr("Not applied: %1").arg(problem));
        return problem;
    }
    auto parameters = p.parameters;
    parameters.push_back(parameter_from(n, text));
    return apply(parameters, p.expressions, tr("Add parameter %1").arg(name));
}

QString ParametersDock::renameParameter(const QString& from, const QString& to) {
    const Project& p = doc_->project();
    const std::string a = from.toStdString(), b = to.trimmed().toStdString();
    QString problem;
    if (!valid_parameter_name(b))
        problem = tr("\"%1\" is not a valid parameter name (letters, digits and _, not starting with a digit; not a "
                     "unit, pi or a function name)").arg(to);
    else if (std::any_of(p.parameters.begin(), p.parameters.end(), [&](const Parameter& prm) { return prm.name == b; }))
        problem = tr("the project has a parameter %1 already").arg(to);
    else if (std::none_of(p.parameters.begin(), p.parameters.end(), [&](const Parameter& prm) { return prm.name == a; }))
        problem = tr("the project has no parameter %1").arg(from);
    if (!problem.isEmpty()) {
        showMessage(tr("Not applied: %1").arg(problem));
        return problem;
    }
    // the expressions that use it are rewritten with the new name
    auto parameters = p.parameters;
    for (auto& prm : parameters) {
        if (prm.name == a) prm.name = b;
        if (!prm.text.empty()) prm.text = rename_in(prm.text, a, b);
    }
    auto expressions = p.expressions;
    for (auto& e : expressions) e.text = rename_in(e.text, a, b);
    // and the shape parameters of the design that name it (design.shape_parameters[k].name)
    const auto renameShapes = [&](Project& q) {
        Json list = shape_parameters(q);
        bool renamed = false;
        for (Json& e : list)
            if (e.is_object() && e.contains("name") && e["name"].is_string() && e["name"].get<std::string>() == a) {
                e["name"] = b;
                renamed = true;
            }
        if (renamed) set_shape_parameters(q, list);
    };
    return apply(parameters, expressions, tr("Rename parameter %1 to %2").arg(from, to), renameShapes);
}

QString ParametersDock::setParameterText(const QString& name, const QString& text) {
    const Project& p = doc_->project();
    auto parameters = p.parameters;
    for (auto& prm : parameters)
        if (prm.name == name.toStdString()) {
            if (text.trimmed().isEmpty()) {
                showMessage(tr("Not applied: %1").arg(tr("the value of %1 is empty").arg(name)));
                return tr("the value of %1 is empty").arg(name);
            }
            prm = parameter_from(prm.name, text);
            return apply(parameters, p.expressions, tr("Set parameter %1").arg(name));
        }
    return tr("the project has no parameter %1").arg(name);
}

QString ParametersDock::deleteParameter(const QString& name) {
    const Project& p = doc_->project();
    const std::string n = name.toStdString();
    const auto it = std::find_if(p.parameters.begin(), p.parameters.end(), [&](const Parameter& prm) { return prm.name == n; });
    if (it == p.parameters.end()) return tr("the project has no parameter %1").arg(name);
    const double value = it->value;
    const auto uses = uses_of(p, n);
    const bool optimized = std::any_of(uses.begin(), uses.end(), [](const std::string& u) {
        return u.rfind("design.shape_parameters[", 0) == 0;
    });
    if (!uses.empty()) {
        QStringList where;
        for (const auto& u : uses) where << QStringLiteral("• ") + describe_path(p, u);
        QString question = tr("%1 is used by:\n%2\n\nDelete it and put its value (%3) in its place?")
                               .arg(name, where.join(QLatin1Char('\n')), qs(parameter_text(value)));
        if (optimized)
            question += QLatin1Char(' ') + tr("The design stops optimizing it (its shape parameter is removed; "
                                              "without shape parameters the design section goes).");
        if (prompts_ && !prompts_->askProceed(tr("Delete parameter"), question, tr("Replace uses by the value")))
            return QStringLiteral("cancelled");
    }
    // the design's shape parameters that name it go with it (nothing left to optimize)
    const auto unlistShapes = [&](Project& q) {
        if (!optimized) return;
        Json list = shape_parameters(q), kept = Json::array();
        for (const Json& e : list)
            if (!(e.is_object() && e.contains("name") && e["name"].is_string() && e["name"].get<std::string>() == n))
                kept.push_back(e);
        set_shape_parameters(q, kept);
    };
    // its uses get its value: other names in the same expressions stay bound
    std::vector<Parameter> parameters;
    for (const auto& prm : p.parameters) {
        if (prm.name == n) continue;
        Parameter q = prm;
        if (!q.text.empty()) q.text = rename_in(q.text, n, value_text(value));
        parameters.push_back(q);
    }
    auto expressions = p.expressions;
    for (auto& e : expressions) e.text = rename_in(e.text, n, value_text(value));
    return apply(parameters, expressions, tr("Delete parameter %1").arg(name), unlistShapes);
}

}  // namespace golightly::editor
