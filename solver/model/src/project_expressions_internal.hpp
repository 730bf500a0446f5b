// GoLightly: the hooks through which project_io.cpp reads and writes parameters and
// expression strings (parameters.cpp; not public).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "golightly/parameters.hpp"
#include "golightly/project.hpp"

namespace golightly::detail {

/// While alive (on this thread), numeric fields read by project_io.cpp may be expression
/// strings over the parameters read from `parameters` (the document's `parameters` member,
/// or null), with the overrides of a pending parse_project(text, label, overrides) call
/// applied. Throws ProjectError naming "parameters.NAME" for a bad parameter.
class ExpressionScope {
public:
    ExpressionScope(const Json* parameters, const std::string& file);
    ~ExpressionScope();
    ExpressionScope(const ExpressionScope&) = delete;
    ExpressionScope& operator=(const ExpressionScope&) = delete;
    /// Stores the parameters and the expressions read so far in the project.
    void finish(Project& project);

    struct State;

private:
    State* state_;
    State* previous_;
};

/// The value of the expression string `j` at `path` when an ExpressionScope is active
/// (recorded for save); std::nullopt when `j` is not a string or no scope is active (the
/// caller then reports a type error as before). `integer`: the value must be an integer
/// (within 1e-9 relative); the rounded value is returned. Throws ProjectError naming the
/// file, the path and the expression's problem.
std::optional<double> field_expression(const Json& j, const std::string& path, const std::string& file,
                                       bool integer = false);

/// The `parameters` object as save_project writes it (numbers, or the expression text).
Json parameters_json(const std::vector<Parameter>& parameters);

/// Puts each expression's text back at its path in the written document while the number
/// there still equals its recorded value (FieldExpression::value).
void restore_expressions(Json& document, const std::vector<FieldExpression>& expressions);

}  // namespace golightly::detail
