// GoLightly: the field-driven JSON reader behind parse_project (project_io.cpp; not
// public): a SAX builder that names the JSON path of a bad number, the conversions of one
// value (numbers, integers, enums, expression strings through ExpressionScope) and
// ObjectReader, which remembers the members asked for so that the rest go to `extra`.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/project.hpp"
#include "project_expressions_internal.hpp"
#include "project_io_internal.hpp"

namespace golightly::detail {

inline std::string describe(const Json& j) {
    switch (j.type()) {
        case Json::value_t::null: return "null";
        case Json::value_t::boolean: return "a boolean";
        case Json::value_t::string: return "a string";
        case Json::value_t::array: return "an array";
        case Json::value_t::object: return "an object";
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned:
        case Json::value_t::number_float: return "a number";
        default: return "an unsupported value";
    }
}

/// Reports the first non-finite number anywhere in the document (nlohmann parses 1e999
/// as inf; a file with it cannot be written back, so it is rejected like any bad value).
inline void reject_non_finite(const Json& j, const std::string& path, const std::string& file) {
    if (j.is_number_float()) {
        const double v = j.get<double>();
        if (!std::isfinite(v))
            throw ProjectError(file, path,
                               "must be a finite number (found " + std::string(std::isnan(v) ? "NaN" : "an out-of-range value that reads as infinity") + ")");
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) reject_non_finite(*it, key_path(path, it.key()), file);
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) reject_non_finite(j[i], index_path(path, i), file);
    }
}


/// SAX handler that builds the document like nlohmann's own DOM parser and, on an error,
/// remembers the JSON path of the value being read (for numbers out of range, which
/// nlohmann reports without a path).
struct DomBuilder {
    Json root;
    std::vector<Json*> stack;         ///< open containers, outermost first
    std::vector<std::string> keys;    ///< current key of each open container (objects)
    bool failed = false;
    int error_id = 0;
    std::size_t error_position = 0;
    std::string error_token, error_what, error_path;

    Json* add(Json&& v) {
        if (stack.empty()) {
            root = std::move(v);
            return &root;
        }
        Json& parent = *stack.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        Json& slot = parent[keys.back()];
        slot = std::move(v);
        return &slot;
    }
    bool null() { add(Json(nullptr)); return true; }
    bool boolean(bool b) { add(Json(b)); return true; }
    bool number_integer(Json::number_integer_t v) { add(Json(v)); return true; }
    bool number_unsigned(Json::number_unsigned_t v) { add(Json(v)); return true; }
    bool number_float(Json::number_float_t v, const Json::string_t&) { add(Json(v)); return true; }
    bool string(Json::string_t& v) { add(Json(std::move(v))); return true; }
    bool binary(Json::binary_t& v) { add(Json(std::move(v))); return true; }
    static constexpr std::size_t kMaxDepth = 256;
    /// Refuses absurd nesting (the readers and the validator recurse over the document).
    bool too_deep() {
        if (stack.size() < kMaxDepth) return false;
        failed = true;
        error_what = "the document is nested more than " + std::to_string(kMaxDepth) + " levels deep";
        return true;
    }
    bool start_object(std::size_t) {
        if (too_deep()) return false;
        stack.push_back(add(Json::object()));
        keys.emplace_back();
        return true;
    }
    bool key(Json::string_t& k) { keys.back() = k; return true; }
    bool end_object() { stack.pop_back(); keys.pop_back(); return true; }
    bool start_array(std::size_t) {
        if (too_deep()) return false;
        stack.push_back(add(Json::array()));
        keys.emplace_back();
        return true;
    }
    bool end_array() { stack.pop_back(); keys.pop_back(); return true; }
    bool parse_error(std::size_t position, const std::string& last_token, const Json::exception& ex) {
        failed = true;
        error_id = ex.id;
        error_position = position;
        error_token = last_token;
        error_what = ex.what();
        std::string path;
        // An open array's last element is the open child; the innermost array's failing
        // element is not added yet.
        for (std::size_t i = 0; i < stack.size(); ++i) {
            const bool innermost = i + 1 == stack.size();
            path = stack[i]->is_array() ? index_path(path, stack[i]->size() - (innermost ? 0 : 1))
                                        : key_path(path, keys[i]);
        }
        error_path = path;
        return false;
    }
};

/// 1-based line and column of a character offset.
inline std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t position) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < position && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

/// The document being read: its label in errors and, once its `parameters` are read, the
/// scope that evaluates expression strings (nullptr before that, and for a single object
/// read on its own as material_from_json reads one: numeric fields then take numbers only).
struct ReadContext {
    const std::string& label;
    ExpressionScope* expressions = nullptr;
    /// The document's `embedded_files` (id -> base64 data), read before the layers; nullptr
    /// for an object read on its own.
    const std::map<std::string, std::string>* embedded = nullptr;
};

/// Conversions of one JSON value; `path` names it in errors.
struct Conv {
    const ReadContext& file;

    [[noreturn]] void fail(const std::string& path, const std::string& msg) const {
        throw ProjectError(file.label, path, msg);
    }

    double number(const Json& j, const std::string& path) const {
        if (const auto e = field_expression(file.expressions, j, path)) return *e;  // an expression string (parameters.hpp)
        if (!j.is_number()) fail(path, "must be a number (found " + describe(j) + ")");
        const double v = j.get<double>();
        if (!std::isfinite(v)) fail(path, "must be a finite number");
        return v;
    }

    long long integer(const Json& j, const std::string& path, long long lo, long long hi) const {
        long long v = 0;
        if (const auto e = field_expression(file.expressions, j, path, true)) {  // an expression string (parameters.hpp)
            v = static_cast<long long>(*e);
        } else if (j.is_number_integer()) {
            v = j.get<long long>();
        } else if (j.is_number_unsigned()) {
            const auto u = j.get<unsigned long long>();
            if (u > static_cast<unsigned long long>(hi)) fail(path, "must be at most " + std::to_string(hi));
            v = static_cast<long long>(u);
        } else if (j.is_number_float()) {
            const double d = j.get<double>();
            if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15)
                fail(path, "must be an integer");
            v = static_cast<long long>(d);
        } else {
            fail(path, "must be an integer (found " + describe(j) + ")");
        }
        if (v < lo || v > hi)
            fail(path, "must be an integer between " + std::to_string(lo) + " and " + std::to_string(hi) +
                           " (found " + std::to_string(v) + ")");
        return v;
    }

    bool boolean(const Json& j, const std::string& path) const {
        if (!j.is_boolean()) fail(path, "must be true or false (found " + describe(j) + ")");
        return j.get<bool>();
    }

    std::string string(const Json& j, const std::string& path) const {
        if (!j.is_string()) fail(path, "must be a string (found " + describe(j) + ")");
        return j.get<std::string>();
    }

    const Json& array(const Json& j, const std::string& path) const {
        if (!j.is_array()) fail(path, "must be an array (found " + describe(j) + ")");
        return j;
    }

    Vec2 vec2(const Json& j, const std::string& path) const {
        if (!j.is_array() || j.size() != 2)
            fail(path, "must be a point [x, y] of two numbers (found " +
                           (j.is_array() ? "an array of " + std::to_string(j.size()) + " elements" : describe(j)) + ")");
        return {number(j[0], index_path(path, 0)), number(j[1], index_path(path, 1))};
    }

    std::array<double, 3> array3(const Json& j, const std::string& path) const {
        if (!j.is_array() || j.size() != 3)
            fail(path, "must be an array of three numbers [x, y, z] (found " +
                           (j.is_array() ? "an array of " + std::to_string(j.size()) + " elements" : describe(j)) + ")");
        return {number(j[0], index_path(path, 0)), number(j[1], index_path(path, 1)),
                number(j[2], index_path(path, 2))};
    }

    Vec3 vec3(const Json& j, const std::string& path) const {
        const auto a = array3(j, path);
        return {a[0], a[1], a[2]};
    }

    /// A point [x, y] or [x, y, z] (3D objects read in 2D too); the z entry when given.
    std::pair<Vec2, std::optional<double>> point23(const Json& j, const std::string& path) const {
        if (!j.is_array() || j.size() < 2 || j.size() > 3)
            fail(path, "must be a point [x, y] or [x, y, z] of numbers (found " +
                           (j.is_array() ? "an array of " + std::to_string(j.size()) + " elements" : describe(j)) + ")");
        const Vec2 xy{number(j[0], index_path(path, 0)), number(j[1], index_path(path, 1))};
        if (j.size() == 2) return {xy, std::nullopt};
        return {xy, number(j[2], index_path(path, 2))};
    }

    std::vector<Vec2> points(const Json& j, const std::string& path) const {
        array(j, path);
        std::vector<Vec2> out;
        out.reserve(j.size());
        for (std::size_t i = 0; i < j.size(); ++i) out.push_back(vec2(j[i], index_path(path, i)));
        return out;
    }

    template <class E, std::size_t N>
    E enumeration(const EnumEntry<E> (&table)[N], const Json& j, const std::string& path) const {
        const std::string s = string(j, path);
        for (const auto& e : table)
            if (s == e.name) return e.value;
        std::string allowed;
        for (std::size_t i = 0; i < N; ++i) allowed += std::string(i ? ", " : "") + "\"" + table[i].name + "\"";
        fail(path, "unknown value \"" + limits::cap_text(s) + "\"; expected one of " + allowed);
    }
};

/// Reads the members of one JSON object; remembers which member names were asked for, so
/// that the rest go to `extra`.
class ObjectReader {
public:
    ObjectReader(const Json& j, std::string path, const ReadContext& file)
        : j_(j), path_(std::move(path)), c_{file} {
        if (!j.is_object()) c_.fail(path_, "must be a JSON object (found " + describe(j) + ")");
    }

    const Conv& conv() const { return c_; }
    std::string path(std::string_view key) const { return key_path(path_, key); }
    const std::string& path() const { return path_; }

    const Json* find(std::string_view key) {
        known_.insert(std::string(key));
        auto it = j_.find(key);
        return it == j_.end() ? nullptr : &*it;
    }
    const Json& require(std::string_view key) {
        const Json* v = find(key);
        if (!v) c_.fail(path(key), "is required but missing");
        return *v;
    }

    double number(std::string_view key, double def) {
        const Json* v = find(key);
        return v ? c_.number(*v, path(key)) : def;
    }
    double number(std::string_view key) { return c_.number(require(key), path(key)); }
    std::optional<double> optional_number(std::string_view key) {
        const Json* v = find(key);
        if (!v) return std::nullopt;
        return c_.number(*v, path(key));
    }
    int integer(std::string_view key, int def, int lo = std::numeric_limits<int>::min(),
                int hi = std::numeric_limits<int>::max()) {
        const Json* v = find(key);
        return v ? static_cast<int>(c_.integer(*v, path(key), lo, hi)) : def;
    }
    int integer(std::string_view key) {
        return static_cast<int>(c_.integer(require(key), path(key), std::numeric_limits<int>::min(),
                                           std::numeric_limits<int>::max()));
    }
    bool boolean(std::string_view key, bool def) {
        const Json* v = find(key);
        return v ? c_.boolean(*v, path(key)) : def;
    }
    std::string string(std::string_view key, const std::string& def) {
        const Json* v = find(key);
        return v ? c_.string(*v, path(key)) : def;
    }
    std::string string(std::string_view key) { return c_.string(require(key), path(key)); }
    std::optional<std::string> optional_string(std::string_view key) {
        const Json* v = find(key);
        if (!v) return std::nullopt;
        return c_.string(*v, path(key));
    }
    Vec2 vec2(std::string_view key) { return c_.vec2(require(key), path(key)); }
    std::optional<Vec2> optional_vec2(std::string_view key) {
        const Json* v = find(key);
        if (!v) return std::nullopt;
        return c_.vec2(*v, path(key));
    }
    std::array<double, 3> array3(std::string_view key, std::array<double, 3> def) {
        const Json* v = find(key);
        return v ? c_.array3(*v, path(key)) : def;
    }
    std::vector<Vec2> points(std::string_view key) { return c_.points(require(key), path(key)); }
    Vec3 vec3(std::string_view key) { return c_.vec3(require(key), path(key)); }
    std::pair<Vec2, std::optional<double>> point23(std::string_view key) {
        return c_.point23(require(key), path(key));
    }
    /// An optional [x, y] or [x, y, z] member: (absent, absent) when missing.
    std::pair<std::optional<Vec2>, std::optional<double>> optional_point23(std::string_view key) {
        const Json* v = find(key);
        if (!v) return {std::nullopt, std::nullopt};
        auto [xy, z] = c_.point23(*v, path(key));
        return {xy, z};
    }

    template <class E, std::size_t N>
    E enumeration(const EnumEntry<E> (&table)[N], std::string_view key, E def) {
        const Json* v = find(key);
        return v ? c_.enumeration(table, *v, path(key)) : def;
    }
    template <class E, std::size_t N>
    E enumeration(const EnumEntry<E> (&table)[N], std::string_view key) {
        return c_.enumeration(table, require(key), path(key));
    }

    /// The members not asked for, in file order.
    Json extras() const {
        Json out = Json::object();
        for (auto it = j_.begin(); it != j_.end(); ++it)
            if (!known_.count(it.key())) out[it.key()] = *it;
        return out;
    }

private:
    const Json& j_;
    std::string path_;
    Conv c_;
    std::set<std::string> known_;
};

/// The object member `key` (default: empty object) read by `fn(ObjectReader&)`.
template <class Fn>
void with_object(ObjectReader& parent, std::string_view key, const ReadContext& file, Fn&& fn) {
    static const Json kEmpty = Json::object();
    const Json* v = parent.find(key);
    ObjectReader r(v ? *v : kEmpty, parent.path(key), file);
    fn(r);
}

}  // namespace golightly::detail
