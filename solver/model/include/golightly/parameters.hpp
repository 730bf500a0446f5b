// GoLightly: project parameters and numeric expressions (issue 23; project-format.md,
// "Parameters and expressions").
//
// A project may declare `"parameters": {"w": 0.45, "t": "220 nm", "d": "1.55 / (4 * n)"}`;
// every numeric field of the project may then hold a JSON string instead of a number: an
// expression over the parameters, e.g. `"size": ["L", "w + 2 * gap", 0]`. Without a
// `parameters` member (even an empty one) a string in a numeric field stays an error, as
// in format 1 before parameters. Expressions
// are evaluated by muparser (a math-expression parser: numbers, + - * / ^, parentheses,
// the functions sin cos tan asin acos atan sinh cosh tanh sqrt exp ln log log2 log10 abs
// sign rint min max sum avg and the ternary `a > b ? x : y`; no assignment to
// parameters, no code execution). Unit suffixes scale to the file's base units: lengths
// in um (`nm` 1e-3, `um` 1, `mm` 1e3), times in fs (`fs` 1, `ps` 1e3); a unit is a
// multiplier, dimensions are not checked. `pi` is a constant.
//
// The model keeps each expression's text beside its value (Project::expressions, keyed by
// the field's JSON path): save_project writes the text back, and with_parameters()
// re-evaluates every expression for other parameter values.
//
// Without muparser (GOLIGHTLY_HAVE_MUPARSER undefined) a project with an expression
// string is refused with a ProjectError saying so; plain numeric parameters still work.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace golightly {

struct Project;

/// One entry of the project's `parameters` object, in file order.
struct Parameter {
    std::string name;   ///< [A-Za-z_][A-Za-z0-9_]*, at most 64 characters, not a unit/function name
    std::string text;   ///< the expression as written ("220 nm"); empty when the file has a plain number
    double value = 0;   ///< evaluated value in base units (um, fs, or dimensionless)
    bool operator==(const Parameter&) const = default;
};

/// A numeric field of the project given by an expression.
struct FieldExpression {
    std::string path;   ///< JSON path as in ProjectError, e.g. "layers[0].shapes[1].size[0]"
    std::string text;   ///< the expression as written
    /// Its value when the project was read or re-evaluated; the model holds the same number
    /// at `path`. save_project writes `text` back only while the field still holds this
    /// value (a field edited to another number keeps the number and drops the expression).
    double value = 0;
    bool operator==(const FieldExpression&) const = default;
};

/// NAME -> expression text, e.g. {"w", "0.45"} or {"t", "250 nm"}; applied in order.
using ParameterOverrides = std::vector<std::pair<std::string, std::string>>;

/// True when this build evaluates expression strings (muparser compiled in).
bool expressions_available();

/// True for a valid parameter name (see Parameter::name).
bool valid_parameter_name(const std::string& name);

/// Evaluates one expression. `variables`: name -> value (parameters); `functions`: name ->
/// one-argument function (the optimizer's monitor functions "T(1.55)"). Returns a finite
/// value. Throws std::invalid_argument with the problem (syntax error at position N,
/// unknown parameter "x", division by zero or another non-finite result, expression too
/// long (> 1000 characters), no expression support in this build).
double evaluate_expression(const std::string& text, const std::vector<std::pair<std::string, double>>& variables,
                           const std::vector<std::pair<std::string, std::function<double(double)>>>& functions = {});

/// Parses command-line assignments "NAME=EXPR" (`--param`). Throws std::invalid_argument
/// naming the bad argument (no '=', invalid name).
ParameterOverrides parse_parameter_assignments(const std::vector<std::string>& args);

/// parse_project / load_project with parameter overrides: each override replaces the
/// named parameter's value before the expressions are evaluated (later parameters and all
/// fields see it). Throws ProjectError ("parameters.NAME": not a parameter of the
/// project) for an unknown name, and as parse_project does.
Project parse_project(const std::string& text, const std::string& file_label, const ParameterOverrides& overrides);
Project load_project_with(const std::filesystem::path& file, const ParameterOverrides& overrides);

/// The project with every expression re-evaluated for the given overrides (the project's
/// own parameter values for the rest): the model is written to its JSON document (the
/// expressions kept) and read back in memory, so the result is validated as a loaded
/// project is. Throws ProjectError as parse_project does.
Project with_parameters(const Project& project, const ParameterOverrides& overrides, const std::string& file_label);

/// A number as an override text ("%.17g", so it reads back exactly).
std::string parameter_text(double value);

}  // namespace golightly
