// GoLightly: project parameters and expression strings (parameters.hpp).
#include "golightly/parameters.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"
#include "project_expressions_internal.hpp"
#include "project_io_internal.hpp"

#ifdef GOLIGHTLY_HAVE_MUPARSER
#include <muParser.h>
#endif

namespace golightly {

namespace {

constexpr std::size_t kMaxExpressionChars = 1000;
constexpr std::size_t kMaxNameChars = 64;
constexpr std::size_t kMaxParameters = 1000;

/// Unit suffixes (postfix operators) and their scale to the base unit (um, fs).
struct Unit {
    const char* name;
    double scale;
};
constexpr Unit kUnits[] = {{"nm", 1e-3}, {"um", 1.0}, {"mm", 1e3}, {"fs", 1.0}, {"ps", 1e3}};

/// Names a parameter may not take: units, muparser's built-in functions and constants.
const std::set<std::string>& reserved_names() {
    static const std::set<std::string> names = {
        "nm",   "um",    "mm",    "fs",   "ps",   "pi",   "_pi",  "_e",   "sin",  "cos",  "tan",
        "asin", "acos",  "atan",  "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "log2", "log10",
        "log",  "ln",    "exp",   "sqrt", "sign", "rint", "abs",  "min",  "max",  "sum",  "avg"};
    return names;
}

/// A plain number (strtod reads all of it, surrounding blanks allowed).
bool plain_number(const std::string& s, double& out) {
    const char* b = s.c_str();
    char* end = nullptr;
    const double v = std::strtod(b, &end);
    if (end == b) return false;
    while (*end == ' ' || *end == '\t') ++end;
    if (*end != '\0') return false;
    out = v;
    return std::isfinite(v);
}

#ifdef GOLIGHTLY_HAVE_MUPARSER
template <int I>
double unit_scale(double v) {
    return v * kUnits[I].scale;
}
using UnitFn = double (*)(double);
constexpr UnitFn kUnitFns[] = {unit_scale<0>, unit_scale<1>, unit_scale<2>, unit_scale<3>, unit_scale<4>};
static_assert(sizeof(kUnitFns) / sizeof(kUnitFns[0]) == sizeof(kUnits) / sizeof(kUnits[0]));

double call_function(void* data, double x) { return (*static_cast<const std::function<double(double)>*>(data))(x); }
#endif

}  // namespace

bool expressions_available() {
#ifdef GOLIGHTLY_HAVE_MUPARSER
    return true;
#else
    return false;
#endif
}

bool valid_parameter_name(const std::string& name) {
    if (name.empty() || name.size() > kMaxNameChars) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
        const bool digit = c >= '0' && c <= '9';
        if (!(alpha || (i > 0 && digit))) return false;
    }
    return reserved_names().count(name) == 0;
}

double evaluate_expression(const std::string& text, const std::vector<std::pair<std::string, double>>& variables,
                           const std::vector<std::pair<std::string, std::function<double(double)>>>& functions) {
    if (text.size() > kMaxExpressionChars)
        throw std::invalid_argument("the expression is longer than " + std::to_string(kMaxExpressionChars) +
                                    " characters");
    double number = 0;
    if (plain_number(text, number)) return number;  // "0.45": no parser needed
#ifndef GOLIGHTLY_HAVE_MUPARSER
    (void)variables;
    (void)functions;
    throw std::invalid_argument(
        "this build of GoLightly has no expression support (built without muparser); write a number");
#else
    double value = 0;
    try {
        mu::Parser p;
        p.DefineConst("pi", 3.14159265358979323846);
        for (std::size_t u = 0; u < sizeof(kUnits) / sizeof(kUnits[0]); ++u)
            p.DefinePostfixOprt(kUnits[u].name, kUnitFns[u]);
        for (const auto& [name, v] : variables) p.DefineConst(name, v);
        for (const auto& [name, fn] : functions)
            p.DefineFunUserData(name, call_function, const_cast<void*>(static_cast<const void*>(&fn)));
        p.SetExpr(text);
        value = p.Eval();
    } catch (const mu::Parser::exception_type& e) {
        const std::string token = limits::cap_text(e.GetToken());
        if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN && valid_parameter_name(token)) {
            std::string known;
            for (const auto& [name, v] : variables) known += (known.empty() ? "" : ", ") + name;
            throw std::invalid_argument("unknown parameter \"" + token + "\" (" +
                                        (known.empty() ? std::string("no parameter is defined here")
                                                       : "defined here: " + limits::cap_text(known)) +
                                        ")");
        }
        std::string msg = limits::cap_text(e.GetMsg(), limits::kMaxMessageChars / 2);
        if (e.GetPos() >= 0 && msg.find("position") == std::string::npos)
            msg += " (at character " + std::to_string(e.GetPos() + 1) + ")";
        throw std::invalid_argument(msg);
    }
    if (std::isinf(value)) throw std::invalid_argument("division by zero or overflow: the value is infinite");
    if (std::isnan(value))
        throw std::invalid_argument("the value is not a number (0/0, the root or logarithm of a negative number ...)");
    return value;
#endif
}

ParameterOverrides parse_parameter_assignments(const std::vector<std::string>& args) {
    ParameterOverrides out;
    for (const auto& a : args) {
        const auto eq = a.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("--param " + limits::cap_text(a) + ": expected NAME=VALUE");
        std::string name = a.substr(0, eq);
        while (!name.empty() && name.back() == ' ') name.pop_back();
        if (!valid_parameter_name(name))
            throw std::invalid_argument("--param " + limits::cap_text(a) + ": \"" + limits::cap_text(name) +
                                        "\" is not a valid parameter name");
        const std::string value = a.substr(eq + 1);
        if (value.find_first_not_of(" \t") == std::string::npos)
            throw std::invalid_argument("--param " + limits::cap_text(a) + ": the value is empty");
        out.emplace_back(name, value);
    }
    return out;
}

std::string parameter_text(double value) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", value);
    return buf;
}

// ------------------------------------------------------------------ scope (project_io hooks)

namespace detail {

namespace {
std::string quote_text(const std::string& text) { return "\"" + limits::cap_text(text) + "\""; }
}  // namespace

ExpressionScope::ExpressionScope(const Json* parameters, const std::string& file, const ParameterOverrides& overrides)
    : file_(file), enabled_(parameters != nullptr) {
    if (parameters) {
        if (!parameters->is_object())
            throw ProjectError(file, "parameters", "must be a JSON object {\"name\": value} (found a " +
                                                       std::string(parameters->type_name()) + ")");
        if (parameters->size() > kMaxParameters)
            throw ProjectError(file, "parameters", "more than " + std::to_string(kMaxParameters) + " parameters");
        for (auto it = parameters->begin(); it != parameters->end(); ++it) {
            const std::string path = key_path("parameters", it.key());
            if (!valid_parameter_name(it.key()))
                throw ProjectError(file, path,
                                   "invalid parameter name: use letters, digits and '_' (not first a digit), "
                                   "at most 64 characters, not a unit (nm um mm fs ps), pi or a function name");
            Parameter prm;
            prm.name = it.key();
            if (it->is_number()) {
                prm.value = it->get<double>();
                if (!std::isfinite(prm.value)) throw ProjectError(file, path, "must be a finite number");
            } else if (it->is_string()) {
                prm.text = it->get<std::string>();
            } else {
                throw ProjectError(file, path, "must be a number or an expression string (found a " +
                                                   std::string(it->type_name()) + ")");
            }
            parameters_.push_back(std::move(prm));
        }
    }
    if (!overrides.empty()) {
        for (const auto& [name, text] : overrides) {
            Parameter* target = nullptr;
            for (auto& prm : parameters_)
                if (prm.name == name) target = &prm;
            if (!target) {
                std::string known;
                for (const auto& prm : parameters_) known += (known.empty() ? "" : ", ") + prm.name;
                throw ProjectError(file, key_path("parameters", name),
                                   "is not a parameter of the project (" +
                                       (known.empty() ? std::string("it has none") : "it has: " + limits::cap_text(known)) +
                                       ")");
            }
            double v = 0;
            if (plain_number(text, v)) {
                target->text.clear();
                target->value = v;
            } else {
                target->text = text;
            }
        }
    }
    for (auto& prm : parameters_) {
        if (!prm.text.empty()) {
            try {
                prm.value = evaluate_expression(prm.text, variables_);
            } catch (const std::invalid_argument& e) {
                throw ProjectError(file, key_path("parameters", prm.name),
                                   "the expression " + quote_text(prm.text) + ": " + e.what());
            }
        }
        variables_.emplace_back(prm.name, prm.value);
    }
}

void ExpressionScope::finish(Project& project) const {
    project.parameters = parameters_;
    project.expressions = expressions_;
}

std::optional<double> ExpressionScope::field(const Json& j, const std::string& path, bool integer) {
    if (!j.is_string()) return std::nullopt;
    if (!enabled_)  // a project without `parameters` keeps the strict number fields of format 1
        throw ProjectError(file_, path, std::string(integer ? "must be an integer" : "must be a number") +
                                           " (found a string; expression strings need a top-level \"parameters\" "
                                           "object, e.g. \"parameters\": {})");
    const std::string& text = j.get_ref<const std::string&>();
    double v = 0;
    try {
        v = evaluate_expression(text, variables_);
    } catch (const std::invalid_argument& e) {
        throw ProjectError(file_, path, "the expression " + quote_text(text) + ": " + e.what());
    }
    if (integer) {
        const double r = std::round(v);
        if (std::fabs(v - r) > 1e-9 * std::max(1.0, std::fabs(v)) || std::fabs(r) > 9.0e15)
            throw ProjectError(file_, path, "the expression " + quote_text(text) + " must give an integer (it gives " +
                                               parameter_text(v) + ")");
        v = r;
    }
    expressions_.push_back(FieldExpression{path, text, v});
    return v;
}

std::optional<double> field_expression(ExpressionScope* scope, const Json& j, const std::string& path, bool integer) {
    if (!scope) return std::nullopt;
    return scope->field(j, path, integer);
}

Json parameters_json(const std::vector<Parameter>& parameters) {
    Json j = Json::object();
    for (const auto& prm : parameters) {
        if (prm.text.empty())
            j[prm.name] = prm.value;
        else
            j[prm.name] = prm.text;
    }
    return j;
}

namespace {
/// The element at a JSON path "a.b[2].c" of `doc`, or null.
Json* element_at(Json& doc, const std::string& path) {
    Json* cur = &doc;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '[') {
            const auto close = path.find(']', i);
            if (close == std::string::npos || !cur->is_array()) return nullptr;
            const std::string digits = path.substr(i + 1, close - i - 1);
            if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return nullptr;
            const std::size_t index = std::stoul(digits);
            if (index >= cur->size()) return nullptr;
            cur = &(*cur)[index];
            i = close + 1;
        } else {
            if (path[i] == '.') ++i;
            const auto end = path.find_first_of(".[", i);
            const std::string key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
            if (!cur->is_object()) return nullptr;
            auto it = cur->find(key);
            if (it == cur->end()) return nullptr;
            cur = &*it;
            i = end == std::string::npos ? path.size() : end;
        }
    }
    return cur;
}
}  // namespace

void restore_expressions(Json& document, const std::vector<FieldExpression>& expressions) {
    for (const auto& e : expressions) {
        Json* slot = element_at(document, e.path);
        if (slot && slot->is_number() && slot->get<double>() == e.value) *slot = e.text;
    }
}

}  // namespace detail

// ------------------------------------------------------------------ public entry points

Project with_parameters(const Project& project, const ParameterOverrides& overrides, const std::string& file_label) {
    return parse_project(project_to_json(project).dump(), file_label, overrides);
}

}  // namespace golightly
