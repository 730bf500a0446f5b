// GoLightly editor: parameters and expression bindings of the edited project (issue 53).
//
// The model keeps each numeric field given by an expression as Project::expressions (JSON
// path, text, value; solver/model parameters.hpp), and the writer puts the text back
// where the field still holds that value. The editor's edits address items by index, so a
// path such as "layers[1].shapes[2].width" must follow its shape when shapes or layers are
// deleted or reordered: carry_expressions() does that for every document edit. Every
// evaluation goes through the solver's evaluate_expression / parse_project, so the IDE
// and `golightly-cli run` give the same values.
#pragma once

#include <QString>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "golightly/project.hpp"

namespace golightly::editor {

struct ItemRef;

/// The parameters as the variables of an expression (name -> value, file order).
std::vector<std::pair<std::string, double>> parameter_values(const Project& project);

/// Evaluates `text` over the project's parameters (solver/model evaluate_expression).
/// Throws std::invalid_argument with the problem.
double evaluate_in(const Project& project, const QString& text);

/// The expression of the field at `path`, or nullptr.
const FieldExpression* expression_at(const Project& project, const std::string& path);
/// Binds the field at `path` to `text` (which gives `value`, the number the field holds).
void set_expression(Project& project, const std::string& path, const std::string& text, double value);
void remove_expression(Project& project, const std::string& path);

/// The number at a JSON path of the project as written without expressions, if any.
std::optional<double> number_at(const Project& project, const std::string& path);

/// The JSON path of the one numeric field whose value differs between `before` and
/// `after` (nullopt: none, several, or a structural change).
std::optional<std::string> changed_field(const Project& before, const Project& after);

/// `after` is `before` after one edit. When the edit left the expressions as they were,
/// their paths are moved with their items (layers, shapes, sources, monitors, ports
/// deleted, inserted or reordered; an item matched by equality, else by position when the
/// count is unchanged) and those of deleted items dropped. Then every expression whose
/// field no longer holds its value is dropped (the field was set to a number).
void carry_expressions(const Project& before, Project& after);

/// "layers[L].shapes[I]", "sources[I]", "monitors[I]", "ports[I]" (empty: no item).
std::string item_path(const ItemRef& item);
/// The expressions of one item, their paths relative to the item (".width", ".size[0]").
std::vector<FieldExpression> item_expressions(const Project& project, const ItemRef& item);
/// Binds the item's fields to `relative` (item_expressions of a copy); those whose field
/// does not hold the value are left out.
void add_item_expressions(Project& project, const ItemRef& item, const std::vector<FieldExpression>& relative);

/// True when the expression `text` names `name` (a whole identifier, not a unit suffix of
/// a number such as the "nm" of "10nm").
bool uses_name(const std::string& text, const std::string& name);
/// `text` with the identifier `from` replaced by `to`.
std::string rename_in(const std::string& text, const std::string& from, const std::string& to);

/// Where a parameter is used: the JSON paths of the fields and "parameters.NAME" of the
/// parameters whose expressions name it, then "design.shape_parameters[K]" of the design's
/// shape parameters that name it (the optimizer moves it).
std::vector<std::string> uses_of(const Project& project, const std::string& name);

/// A readable name of a JSON path: "layers[0].shapes[1].width" -> "Core / shape 2: width";
/// "design.shape_parameters[K]" -> "design: shape parameter [min, max]".
QString describe_path(const Project& project, const std::string& path);

/// The project with these parameters and field expressions, every expression evaluated
/// again: written to its JSON document and read back (the solver's reader and
/// validation, as a load). Throws ProjectError (the file label "parameters") or
/// std::exception.
Project with_parameter_list(const Project& project, const std::vector<Parameter>& parameters,
                            const std::vector<FieldExpression>& expressions);

}  // namespace golightly::editor
