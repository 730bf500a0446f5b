// GoLightly: the hooks through which project_io.cpp reads and writes parameters and
// expression strings (parameters.cpp; not public).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "golightly/parameters.hpp"
#include "golightly/project.hpp"

namespace golightly::detail {

/// The parameters of one document being read and the expression strings met in it: the
/// reader of the document (project_io.cpp) makes one after reading `parameters` and hands
/// it to the readers of the fields (no global or thread-local state: each parse has its
/// own). Throws ProjectError naming "parameters.NAME" for a bad parameter or override.
class ExpressionScope {
public:
    /// `parameters`: the document's `parameters` member, or null (then a string in a
    /// numeric field stays an error); `overrides` replace the named parameters' values
    /// before any is evaluated (parse_project(text, label, overrides)).
    ExpressionScope(const Json* parameters, const std::string& file, const ParameterOverrides& overrides);

    /// The value of the expression string `j` at `path` (recorded for save); std::nullopt
    /// when `j` is not a string (the caller then reports a type error as before).
    /// `integer`: the value must be an integer (within 1e-9 relative); the rounded value
    /// is returned. Throws ProjectError naming the file, the path and the expression's
    /// problem, and when the document has no `parameters`.
    std::optional<double> field(const Json& j, const std::string& path, bool integer = false);

    /// Stores the parameters and the expressions read so far in the project.
    void finish(Project& project) const;

private:
    std::string file_;
    bool enabled_ = false;  ///< the project has a `parameters` member: strings are expressions
    std::vector<Parameter> parameters_;
    std::vector<std::pair<std::string, double>> variables_;
    std::vector<FieldExpression> expressions_;
};

/// `scope->field(j, path, integer)`, or std::nullopt without a scope (a value read
/// outside a document, as material_from_json reads one: numbers only).
std::optional<double> field_expression(ExpressionScope* scope, const Json& j, const std::string& path,
                                       bool integer = false);

/// The `parameters` object as save_project writes it (numbers, or the expression text).
Json parameters_json(const std::vector<Parameter>& parameters);

/// Puts each expression's text back at its path in the written document while the number
/// there still equals its recorded value (FieldExpression::value).
void restore_expressions(Json& document, const std::vector<FieldExpression>& expressions);

}  // namespace golightly::detail
