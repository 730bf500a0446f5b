// GoLightly: reading and writing `.glproj` project files (spec/project-format.md, v1).
//
// Parsing is field-driven: for every JSON object the reader asks for the members it knows
// (which ones depends on the object's `type`, a source's `profile` ...); every member it
// did not ask for is kept, in file order, in the struct's `extra` and written back after
// the known members. The writer writes exactly the members the reader asks for (optional
// members only when set), so load -> save -> load gives an equal Project and a second save
// is byte-identical to the first.
#include "project_io_internal.hpp"
#include "project_expressions_internal.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <sstream>
#include <tuple>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"

namespace golightly {

// ------------------------------------------------------------------ enum names

namespace detail {

const EnumEntry<Component> kComponents[6] = {{Component::Ex, "Ex"}, {Component::Ey, "Ey"},
                                             {Component::Ez, "Ez"}, {Component::Hx, "Hx"},
                                             {Component::Hy, "Hy"}, {Component::Hz, "Hz"}};
const EnumEntry<Polarization> kPolarizations[2] = {{Polarization::TMz, "TMz"},
                                                   {Polarization::TEz, "TEz"}};
const EnumEntry<BoundaryKind> kBoundaries[5] = {{BoundaryKind::Pml, "pml"},
                                                {BoundaryKind::Periodic, "periodic"},
                                                {BoundaryKind::Pec, "pec"},
                                                {BoundaryKind::Pmc, "pmc"},
                                                {BoundaryKind::Mur, "mur"}};
const EnumEntry<Precision> kPrecisions[2] = {{Precision::Float32, "float32"},
                                             {Precision::Float64, "float64"}};
const EnumEntry<BackendChoice> kBackends[3] = {
    {BackendChoice::Auto, "auto"}, {BackendChoice::Cuda, "cuda"}, {BackendChoice::Cpu, "cpu"}};
const EnumEntry<SubpixelMetal> kSubpixelMetals[3] = {{SubpixelMetal::Tangential, "tangential"},
                                                    {SubpixelMetal::Staircase, "staircase"},
                                                    {SubpixelMetal::Fraction, "fraction"}};
const EnumEntry<ShapeType> kShapeTypes[10] = {
    {ShapeType::Rectangle, "rectangle"}, {ShapeType::Polygon, "polygon"},
    {ShapeType::Ellipse, "ellipse"},     {ShapeType::Ring, "ring"},
    {ShapeType::Path, "path"},           {ShapeType::Raster, "raster"},
    {ShapeType::Step, "step"},           {ShapeType::Sphere, "sphere"},
    {ShapeType::Box, "box"},             {ShapeType::Gds, "gds"}};
const EnumEntry<PoleKind> kPoleKinds[2] = {{PoleKind::Drude, "drude"},
                                           {PoleKind::Lorentz, "lorentz"}};
const EnumEntry<WaveformType> kWaveformTypes[2] = {{WaveformType::GaussianPulse, "gaussian_pulse"},
                                                   {WaveformType::Cw, "cw"}};
const EnumEntry<SourceType> kSourceTypes[5] = {{SourceType::Point, "point"},
                                               {SourceType::Line, "line"},
                                               {SourceType::Region, "region"},
                                               {SourceType::Plane, "plane"},
                                               {SourceType::Tfsf, "tfsf"}};
const EnumEntry<SourceProfile> kProfiles[3] = {{SourceProfile::Uniform, "uniform"},
                                               {SourceProfile::Gaussian, "gaussian"},
                                               {SourceProfile::Mode, "mode"}};
const EnumEntry<MonitorType> kMonitorTypes[4] = {{MonitorType::Flux, "flux"},
                                                 {MonitorType::FluxBox, "flux_box"},
                                                 {MonitorType::Time, "time"},
                                                 {MonitorType::DftField, "dft_field"}};
const EnumEntry<Reduce> kReduces[4] = {{Reduce::Value, "value"},
                                       {Reduce::Mean, "mean"},
                                       {Reduce::Rms, "rms"},
                                       {Reduce::SumSquares, "sum_squares"}};

std::string key_path(const std::string& base, std::string_view key) {
    if (base.empty()) return std::string(key);
    return base + "." + std::string(key);
}

std::string index_path(const std::string& base, std::size_t i) {
    return base + "[" + std::to_string(i) + "]";
}

Component default_component(Polarization p) {
    return p == Polarization::TEz ? Component::Hz : Component::Ez;
}

Component default_tfsf_component(int dimensions, Polarization p, const std::string& direction) {
    const bool along_z = direction.size() == 2 && direction[1] == 'z';
    if (dimensions == 3) return along_z ? Component::Ex : Component::Ez;
    if (p == Polarization::TMz) return Component::Ez;
    const bool along_y = direction.size() == 2 && direction[1] == 'y';
    return along_y ? Component::Ex : Component::Ey;
}

int plane_normal_axis(const Vec3& size) {
    int zeros = 0, axis = -1;
    for (int a = 0; a < 3; ++a)
        if (size[a] == 0) {
            ++zeros;
            axis = a;
        }
    return zeros == 1 ? axis : -1;
}

}  // namespace detail

using namespace detail;

std::string to_string(Component c) { return enum_name(kComponents, c); }
std::string to_string(Polarization p) { return enum_name(kPolarizations, p); }
std::string to_string(BoundaryKind b) { return enum_name(kBoundaries, b); }
std::string to_string(Precision p) { return enum_name(kPrecisions, p); }
std::string to_string(BackendChoice b) { return enum_name(kBackends, b); }
std::string to_string(SubpixelMetal m) { return enum_name(kSubpixelMetals, m); }
std::string to_string(ShapeType t) { return enum_name(kShapeTypes, t); }
std::string to_string(PoleKind k) { return enum_name(kPoleKinds, k); }
std::string to_string(WaveformType t) { return enum_name(kWaveformTypes, t); }
std::string to_string(SourceType t) { return enum_name(kSourceTypes, t); }
std::string to_string(SourceProfile p) { return enum_name(kProfiles, p); }
std::string to_string(MonitorType t) { return enum_name(kMonitorTypes, t); }
std::string to_string(Reduce r) { return enum_name(kReduces, r); }

// ------------------------------------------------------------------ reading

namespace {

constexpr const char* kFormatName = "golightly-project";
constexpr int kFormatVersion = 1;

std::string describe(const Json& j) {
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
void reject_non_finite(const Json& j, const std::string& path, const std::string& file) {
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
std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t position) {
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

/// A GDSII [layer, datatype] pair (each 0..65535; GDSII stores them as 16-bit integers).
std::array<int, 2> gds_layer_pair(ObjectReader& r, std::string_view key) {
    const Json& v = r.require(key);
    const std::string p = r.path(key);
    if (!v.is_array() || v.size() != 2)
        r.conv().fail(p, "must be [layer, datatype], two integers (found " + describe(v) + ")");
    return {int(r.conv().integer(v[0], index_path(p, 0), 0, 65535)), int(r.conv().integer(v[1], index_path(p, 1), 0, 65535))};
}

/// The base64 data of a step or gds shape: its own `data` (every writer before the
/// `embedded_files` table, and still accepted), or the `embedded_files` entry its `file`
/// names (spec "Embedded files").
std::string embedded_data(ObjectReader& r, const ReadContext& file) {
    if (!r.find("file")) {
        if (r.find("data")) return r.string("data");
        r.conv().fail(r.path("data"), "is required but missing (the base64 file, or `file`: the id of an entry of the "
                                      "project's embedded_files)");
    }
    const std::string id = r.string("file");
    if (r.find("data"))
        r.conv().fail(r.path("data"), "and `file` are both given: a shape holds its data or names an embedded_files entry, "
                                      "not both");
    if (file.embedded) {
        const auto it = file.embedded->find(id);
        if (it != file.embedded->end()) return it->second;
    }
    std::string have;
    if (file.embedded)
        for (const auto& [k, v] : *file.embedded) have += (have.empty() ? "" : ", ") + k;
    r.conv().fail(r.path("file"), "names \"" + limits::cap_text(id) + "\", which the project's embedded_files does not hold (" +
                                      (have.empty() ? std::string("it is empty or missing") : "it holds: " + limits::cap_text(have)) +
                                      ")");
}

/// The top-level `embedded_files`: [{"id", "file_name", "data"}], ids unique and not empty,
/// each decoded file within limits::kMaxStepBytes.
std::map<std::string, std::string> parse_embedded_files(ObjectReader& top, const ReadContext& file) {
    std::map<std::string, std::string> out;
    const Json* v = top.find("embedded_files");
    if (!v) return out;
    top.conv().array(*v, "embedded_files");
    for (std::size_t i = 0; i < v->size(); ++i) {
        const std::string path = index_path("embedded_files", i);
        ObjectReader e((*v)[i], path, file);
        const std::string id = e.string("id");
        if (id.empty()) e.conv().fail(e.path("id"), "must not be empty");
        (void)e.string("file_name", "");
        std::string data = e.string("data");
        if (data.size() / 4 * 3 > limits::kMaxStepBytes)
            e.conv().fail(e.path("data"), "holds " + limits::format_bytes(double(data.size() / 4 * 3)) +
                                              ", larger than the limit of " + limits::format_bytes(double(limits::kMaxStepBytes)) +
                                              " for an embedded file");
        if (!out.emplace(id, std::move(data)).second)
            e.conv().fail(e.path("id"), "\"" + limits::cap_text(id) + "\" is used by an earlier entry too (ids must be unique)");
    }
    return out;
}

Shape parse_shape(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Shape s;
    s.type = r.enumeration(kShapeTypes, "type");
    switch (s.type) {
        case ShapeType::Rectangle:
            s.min = r.vec2("min");
            s.max = r.vec2("max");
            s.rotation_deg = r.number("rotation_deg", 0.0);
            break;
        case ShapeType::Polygon:
            s.points = r.points("points");
            break;
        case ShapeType::Ellipse:
            s.center = r.vec2("center");
            s.radii = r.vec2("radii");
            s.rotation_deg = r.number("rotation_deg", 0.0);
            break;
        case ShapeType::Ring:
            s.center = r.vec2("center");
            s.inner_radius = r.number("inner_radius");
            s.outer_radius = r.number("outer_radius");
            break;
        case ShapeType::Path:
            s.points = r.points("points");
            s.width = r.number("width");
            s.bend_radius = r.optional_number("bend_radius");
            break;
        case ShapeType::Raster:
            s.origin = r.vec2("origin");
            s.pixel_size = r.number("pixel_size");
            s.width_px = r.integer("width");
            s.height_px = r.integer("height");
            s.png_base64 = r.string("png");
            break;
        case ShapeType::Step:
            s.file_name = r.string("file_name", "");
            s.data_base64 = embedded_data(r, file);
            s.scale = r.number("scale", 1.0);
            s.rotate_deg = r.array3("rotate_deg", {0, 0, 0});
            s.translate = r.array3("translate", {0, 0, 0});
            if (const Json* sj = r.find("solids")) {
                if (!sj->is_array()) r.conv().fail(r.path("solids"), "must be an array of solid indices");
                for (std::size_t k = 0; k < sj->size(); ++k)
                    s.solids.push_back(static_cast<int>(
                        r.conv().integer((*sj)[k], r.path("solids") + "[" + std::to_string(k) + "]", 0, 1000000000)));
            }
            break;
        case ShapeType::Sphere:
            s.center_3d = r.vec3("center");
            s.radius = r.number("radius");
            break;
        case ShapeType::Box:
            s.box_min = r.vec3("min");
            s.box_max = r.vec3("max");
            break;
        case ShapeType::Gds: {
            s.file_name = r.string("file_name", "");
            s.data_base64 = embedded_data(r, file);
            s.gds_cell = r.string("cell", "");
            // layer: [layer, datatype]; absent = the layer's gds_layer (parse_layer), -1 here
            s.gds_layer = {-1, -1};
            if (r.find("layer")) s.gds_layer = gds_layer_pair(r, "layer");
            const Vec2 t = r.optional_vec2("translate").value_or(Vec2{0, 0});
            s.translate = {t.x, t.y, 0};
            s.rotation_deg = r.number("rotate_deg", 0.0);
            s.gds_db_unit_um = r.optional_number("db_unit_um");
            break;
        }
    }
    s.extra = r.extras();
    return s;
}

Pole parse_pole(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Pole p;
    p.kind = r.enumeration(kPoleKinds, "kind");
    p.omega_p = r.number("omega_p");
    if (p.kind == PoleKind::Lorentz) {
        p.omega_0 = r.number("omega_0");
    } else {
        p.omega_0 = r.number("omega_0", 0.0);
        if (p.omega_0 != 0.0)
            r.conv().fail(r.path("omega_0"), "a drude pole has omega_0 = 0; use \"kind\": \"lorentz\" for a resonance");
    }
    p.gamma = r.number("gamma", 0.0);
    p.extra = r.extras();
    return p;
}

Material parse_material(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Material m;
    m.id = r.string("id");
    m.name = r.string("name", "");
    m.epsilon_inf = r.number("epsilon_inf", 1.0);
    m.mu_r = r.number("mu_r", 1.0);
    m.conductivity = r.number("conductivity", 0.0);
    if (const Json* poles = r.find("poles")) {
        r.conv().array(*poles, r.path("poles"));
        for (std::size_t i = 0; i < poles->size(); ++i)
            m.poles.push_back(parse_pole((*poles)[i], index_path(r.path("poles"), i), file));
    }
    m.color = r.string("color", "");
    m.extra = r.extras();
    return m;
}

Layer parse_layer(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Layer l;
    l.name = r.string("name", "");
    l.material = r.string("material");
    l.visible = r.boolean("visible", true);
    l.locked = r.boolean("locked", false);
    if (const Json* z = r.find("z")) {
        const Vec2 zz = r.conv().vec2(*z, r.path("z"));
        l.z = std::array<double, 2>{zz.x, zz.y};
    }
    l.sidewall_angle_deg = r.number("sidewall_angle_deg", 0.0);
    l.reference_only = r.boolean("reference_only", false);
    if (r.find("gds_layer")) l.gds_layer = gds_layer_pair(r, "gds_layer");
    if (const Json* shapes = r.find("shapes")) {
        r.conv().array(*shapes, r.path("shapes"));
        for (std::size_t i = 0; i < shapes->size(); ++i) {
            l.shapes.push_back(parse_shape((*shapes)[i], index_path(r.path("shapes"), i), file));
            Shape& s = l.shapes.back();
            if (s.type == ShapeType::Gds && s.gds_layer[0] < 0) {  // `layer` absent: the layer's gds_layer
                if (!l.gds_layer)
                    r.conv().fail(index_path(r.path("shapes"), i) + ".layer",
                                  "is required (a gds shape needs [layer, datatype], or its layer a gds_layer)");
                s.gds_layer = *l.gds_layer;
            }
        }
    }
    l.extra = r.extras();
    return l;
}

Waveform parse_waveform(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Waveform w;
    w.type = r.enumeration(kWaveformTypes, "type", WaveformType::GaussianPulse);
    if (w.type == WaveformType::GaussianPulse) {
        w.wavelength_center = r.number("wavelength_center", w.wavelength_center);
        w.wavelength_span = r.number("wavelength_span", w.wavelength_span);
    } else {
        w.wavelength = r.number("wavelength", w.wavelength);
        w.ramp_periods = r.number("ramp_periods", w.ramp_periods);
    }
    w.extra = r.extras();
    return w;
}

Source parse_source(const Json& j, const std::string& path, const ReadContext& file, const Domain& domain) {
    const Polarization pol = domain.polarization;
    ObjectReader r(j, path, file);
    Source s;
    s.name = r.string("name", "");
    s.type = r.enumeration(kSourceTypes, "type");
    Component default_comp = default_component(pol);
    switch (s.type) {
        case SourceType::Point: std::tie(s.at, s.at_z) = r.point23("at"); break;
        case SourceType::Line:
            s.from = r.vec2("from");
            s.to = r.vec2("to");
            break;
        case SourceType::Region:
            s.shape = parse_shape(r.require("shape"), r.path("shape"), file);
            break;
        case SourceType::Plane:
            s.center = r.vec3("center");
            s.size = r.vec3("size");
            break;
        case SourceType::Tfsf: {
            // min/max: [x, y] or [x, y, z] (z entries 0 when absent: a 2D box).
            const auto [lo, lo_z] = r.point23("min");
            const auto [hi, hi_z] = r.point23("max");
            s.box_min = {lo.x, lo.y, lo_z.value_or(0.0)};
            s.box_max = {hi.x, hi.y, hi_z.value_or(0.0)};
            s.direction = r.string("direction", "+x");
            default_comp = default_tfsf_component(domain.dimensions, pol, s.direction);
            break;
        }
    }
    s.component = r.enumeration(kComponents, "component", default_comp);
    if (s.type == SourceType::Line || s.type == SourceType::Plane) {
        s.profile = r.enumeration(kProfiles, "profile", SourceProfile::Uniform);
        if (s.profile == SourceProfile::Gaussian) s.waist = r.number("waist", s.waist);
        if (s.profile == SourceProfile::Mode) {
            s.mode_index = r.integer("mode_index", 0);
            s.direction = r.string("direction", "+x");
        }
    }
    s.amplitude = r.number("amplitude", 1.0);
    s.phase_deg = r.number("phase_deg", 0.0);
    if (s.type == SourceType::Line || s.type == SourceType::Plane) {  // oblique plane waves
        s.angle_deg = r.number("angle_deg", 0.0);
        s.azimuth_deg = r.number("azimuth_deg", 0.0);
        s.polarization = r.string("polarization", "");
        if (!s.polarization.empty() && s.polarization != "s" && s.polarization != "p")
            r.conv().fail(r.path("polarization"), "must be \"s\" or \"p\" (found \"" + s.polarization + "\")");
    }
    {
        const Json* w = r.find("waveform");
        s.waveform = parse_waveform(w ? *w : Json::object(), r.path("waveform"), file);
    }
    s.extra = r.extras();
    return s;
}

/// A monitor's `far_field` object (flux_box; flux lines and planes also take `periods`: a
/// number (2D) or [n1, n2] (3D)).
FarFieldSettings parse_far_field(ObjectReader& r, const ReadContext& file, bool plane) {
    FarFieldSettings ff;
    with_object(r, "far_field", file, [&](ObjectReader& o) {
        if (const Json* wl = o.find("wavelengths")) {
            o.conv().array(*wl, o.path("wavelengths"));
            for (std::size_t i = 0; i < wl->size(); ++i)
                ff.wavelengths.push_back(o.conv().number((*wl)[i], index_path(o.path("wavelengths"), i)));
        }
        ff.theta_points = o.integer("theta_points", ff.theta_points);
        ff.phi_points = o.integer("phi_points", ff.phi_points);
        if (const Json* per = plane ? o.find("periods") : nullptr) {
            if (per->is_array()) {
                if (per->size() < 1 || per->size() > 2)
                    throw ProjectError(file.label, o.path("periods"), "expected a number or [n1, n2]");
                for (std::size_t i = 0; i < per->size(); ++i)
                    ff.periods[i] = int(o.conv().number((*per)[i], index_path(o.path("periods"), i)));
            } else {
                ff.periods[0] = int(o.conv().number(*per, o.path("periods")));
            }
        }
        ff.extra = o.extras();
    });
    return ff;
}

Monitor parse_monitor(const Json& j, const std::string& path, const ReadContext& file, const Domain& domain) {
    const Polarization pol = domain.polarization;
    ObjectReader r(j, path, file);
    Monitor m;
    m.name = r.string("name");
    // "diffraction" is a flux monitor with its Floquet orders (DiffractionSettings)
    const Json* type_json = r.find("type");
    if (type_json && type_json->is_string() && type_json->get<std::string>() == "diffraction") {
        m.type = MonitorType::Flux;
        m.diffraction = DiffractionSettings{r.optional_number("index")};
    } else {
        try {
            m.type = r.enumeration(kMonitorTypes, "type");
        } catch (const ProjectError& e) {  // the list of types names "diffraction" too
            if (e.message().find("unknown value") != 0) throw;
            throw ProjectError(e.file(), e.json_path(), e.message() + ", \"diffraction\"");
        }
    }
    switch (m.type) {
        case MonitorType::Flux:
            // A plane (`center`, `size`: 3D, read in 2D too) or a 2D line (`from`, `to`); the
            // validator says which one the domain needs.
            if (r.find("center") || r.find("size")) {
                m.center = r.vec3("center");
                m.size = r.vec3("size");
            } else {
                m.from = r.vec2("from");
                m.to = r.vec2("to");
            }
            m.direction = r.string("direction", "+x");
            m.kind = r.string("kind", "flux");
            if (r.find("far_field")) m.far_field = parse_far_field(r, file, true);
            break;
        case MonitorType::FluxBox:
            std::tie(m.min, m.min_z) = r.point23("min");
            std::tie(m.max, m.max_z) = r.point23("max");
            m.kind = r.string("kind", "flux");
            if (r.find("far_field")) m.far_field = parse_far_field(r, file, false);
            break;
        case MonitorType::Time:
            std::tie(m.at, m.at_z) = r.optional_point23("at");
            if (const Json* shape = r.find("shape")) m.shape = parse_shape(*shape, r.path("shape"), file);
            m.component = r.enumeration(kComponents, "component", default_component(pol));
            m.reduce = r.enumeration(kReduces, "reduce", Reduce::Value);
            if (r.find("resonances")) {
                ResonanceSettings rs;
                with_object(r, "resonances", file, [&](ObjectReader& o) {
                    if (const Json* band = o.find("band")) {
                        const std::string bp = o.path("band");
                        if (!band->is_array() || band->size() != 2)
                            o.conv().fail(bp, "must be [wavelength_min, wavelength_max] in um, two numbers (found " +
                                                  describe(*band) + ")");
                        rs.wavelength_min = o.conv().number((*band)[0], index_path(bp, 0));
                        rs.wavelength_max = o.conv().number((*band)[1], index_path(bp, 1));
                    }
                    rs.after_source = o.boolean("after_source", rs.after_source);
                    rs.q_min = o.number("q_min", rs.q_min);
                    rs.extra = o.extras();
                });
                m.resonances = rs;
            }
            break;
        case MonitorType::DftField: {
            const Json& wl = r.conv().array(r.require("wavelengths"), r.path("wavelengths"));
            for (std::size_t i = 0; i < wl.size(); ++i)
                m.wavelengths.push_back(r.conv().number(wl[i], index_path(r.path("wavelengths"), i)));
            if (const Json* comps = r.find("components")) {
                r.conv().array(*comps, r.path("components"));
                for (std::size_t i = 0; i < comps->size(); ++i)
                    m.components.push_back(
                        r.conv().enumeration(kComponents, (*comps)[i], index_path(r.path("components"), i)));
            } else {
                m.components = {default_component(pol)};
            }
            std::tie(m.min, m.min_z) = r.optional_point23("min");
            std::tie(m.max, m.max_z) = r.optional_point23("max");
            break;
        }
    }
    m.extra = r.extras();
    return m;
}

Domain parse_domain(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Domain d;
    d.dimensions = r.integer("dimensions", 2);
    {
        const Json& size = r.require("size");
        const std::string sp = r.path("size");
        if (!size.is_array() || size.size() < 2 || size.size() > 3)
            r.conv().fail(sp, "must be an array [Lx, Ly, Lz] of numbers (um)");
        if (size.size() == 2 && d.dimensions == 3) r.conv().fail(sp, "a 3D domain needs [Lx, Ly, Lz]");
        for (std::size_t i = 0; i < size.size(); ++i) d.size[i] = r.conv().number(size[i], index_path(sp, i));
    }
    d.cell_size = r.number("cell_size");
    d.polarization = r.enumeration(kPolarizations, "polarization", Polarization::TMz);
    d.slice_z = r.number("slice_z", 0.0);
    if (const Json* b = r.find("boundaries")) {
        ObjectReader br(*b, r.path("boundaries"), file);
        static const char* const axes[3] = {"x", "y", "z"};
        for (int a = 0; a < 3; ++a) {
            // "bloch": a periodic axis with the Bloch wave vector domain.bloch_k
            const Json* v = br.find(axes[a]);
            d.bloch[a] = v && v->is_string() && v->get<std::string>() == "bloch";
            d.boundaries[a] = d.bloch[a] ? BoundaryKind::Periodic : br.enumeration(kBoundaries, axes[a], BoundaryKind::Pml);
        }
        d.boundaries_extra = br.extras();
    }
    if (const Json* sy = r.find("symmetry")) {
        const std::string sp = r.path("symmetry");
        if (!sy->is_array() || sy->size() < 2 || sy->size() > 3)
            r.conv().fail(sp, "must be an array [sx, sy, sz] of -1, 0 or 1 (the parity of E under each mirror)");
        for (std::size_t i = 0; i < sy->size(); ++i) {
            const long long v = r.conv().integer((*sy)[i], index_path(sp, i), -1, 1);
            d.symmetry[i] = int(v);
        }
    }
    if (const Json* k = r.find("bloch_k")) {
        const std::string kp = r.path("bloch_k");
        if (!k->is_array() || k->size() < 2 || k->size() > 3)
            r.conv().fail(kp, "must be an array [kx, ky] or [kx, ky, kz] of numbers");
        std::array<double, 3> kv{0, 0, 0};
        for (std::size_t i = 0; i < k->size(); ++i) kv[i] = r.conv().number((*k)[i], index_path(kp, i));
        d.bloch_k = kv;
    }
    d.bloch_k_unit = r.string("bloch_k_unit", "2pi/a");
    if (d.bloch_k_unit != "2pi/a" && d.bloch_k_unit != "1/um")
        r.conv().fail(r.path("bloch_k_unit"), "must be \"2pi/a\" or \"1/um\" (found \"" + d.bloch_k_unit + "\")");
    if (const Json* p = r.find("pml")) {
        ObjectReader pr(*p, r.path("pml"), file);
        d.pml.cells = pr.integer("cells", 16);
        d.pml.grading_order = pr.number("grading_order", 3.0);
        d.pml.target_reflection = pr.number("target_reflection", 1e-8);
        d.pml.extra = pr.extras();
    }
    d.background = r.string("background", "air");
    d.extra = r.extras();
    return d;
}

RunSettings parse_run(const Json& j, const std::string& path, const ReadContext& file, Polarization pol) {
    ObjectReader r(j, path, file);
    RunSettings run;
    with_object(r, "spectrum", file, [&](ObjectReader& s) {
        run.spectrum.wavelength_min = s.number("wavelength_min", run.spectrum.wavelength_min);
        run.spectrum.wavelength_max = s.number("wavelength_max", run.spectrum.wavelength_max);
        run.spectrum.points = s.integer("points", run.spectrum.points);
        run.spectrum.extra = s.extras();
    });
    run.courant = r.number("courant", run.courant);
    with_object(r, "stop", file, [&](ObjectReader& s) {
        run.stop.decay_db = s.number("decay_db", run.stop.decay_db);
        run.stop.max_time_fs = s.number("max_time_fs", run.stop.max_time_fs);
        if (const Json* ms = s.find("max_steps"))
            run.stop.max_steps = s.conv().integer(*ms, s.path("max_steps"), 1, std::numeric_limits<long long>::max());
        run.stop.monitor = s.optional_string("monitor");
        run.stop.resonances = s.boolean("resonances", false);
        run.stop.extra = s.extras();
    });
    with_object(r, "normalization", file, [&](ObjectReader& n) {
        run.normalization.enabled = n.boolean("enabled", false);
        if (const Json* refs = n.find("reference_layers")) {
            n.conv().array(*refs, n.path("reference_layers"));
            for (std::size_t i = 0; i < refs->size(); ++i)
                run.normalization.reference_layers.push_back(
                    n.conv().string((*refs)[i], index_path(n.path("reference_layers"), i)));
        }
        run.normalization.incident_monitor = n.optional_string("incident_monitor");
        run.normalization.extra = n.extras();
    });
    run.subpixel_averaging = r.boolean("subpixel_averaging", true);
    run.subpixel_metal = r.enumeration(kSubpixelMetals, "subpixel_metal", SubpixelMetal::Tangential);
    run.precision = r.enumeration(kPrecisions, "precision", Precision::Float32);
    run.backend = r.enumeration(kBackends, "backend", BackendChoice::Auto);
    with_object(r, "frames", file, [&](ObjectReader& f) {
        run.frames.every_steps = f.integer("every_steps", run.frames.every_steps);
        run.frames.component = f.enumeration(kComponents, "component", default_component(pol));
        run.frames.plane = f.string("plane", "xy");
        run.frames.position = f.optional_number("position");
        run.frames.extra = f.extras();
    });
    run.extra = r.extras();
    return run;
}

template <class T, class Fn>
std::vector<T> parse_list(ObjectReader& r, std::string_view key, Fn&& fn) {
    std::vector<T> out;
    const Json* v = r.find(key);
    if (!v) return out;
    r.conv().array(*v, r.path(key));
    for (std::size_t i = 0; i < v->size(); ++i) out.push_back(fn((*v)[i], index_path(r.path(key), i)));
    return out;
}

Project parse_document(const Json& doc, const std::string& file_label, const ParameterOverrides& overrides) {
    ReadContext file{file_label};
    reject_non_finite(doc, "", file_label);
    ObjectReader r(doc, "", file);
    {
        const Json* f = r.find("format");
        if (!f)
            r.conv().fail("format", "is missing: this is not a GoLightly project (expected \"format\": \"golightly-project\")");
        if (!f->is_string() || f->get<std::string>() != kFormatName)
            r.conv().fail("format", "must be \"golightly-project\" (this is not a GoLightly project file)");
    }
    {
        const Json& v = r.require("version");
        const long long version = r.conv().integer(v, "version", std::numeric_limits<int>::min(),
                                                   std::numeric_limits<int>::max());
        if (version > kFormatVersion)
            r.conv().fail("version", "the file has format version " + std::to_string(version) +
                                         ", written by a newer GoLightly; this version reads format version " +
                                         std::to_string(kFormatVersion) + " (update GoLightly)");
        if (version < 1)
            r.conv().fail("version", "unsupported format version " + std::to_string(version) + " (expected 1)");
    }
    ExpressionScope expressions(r.find("parameters"), file_label, overrides);  // parameters first: fields may use them
    file.expressions = &expressions;
    Project p;
    p.name = r.string("name", "");
    const std::map<std::string, std::string> embedded = parse_embedded_files(r, file);  // before the shapes naming them
    file.embedded = &embedded;
    p.domain = parse_domain(r.require("domain"), "domain", file);
    const Polarization pol = p.domain.polarization;
    p.materials = parse_list<Material>(r, "materials", [&](const Json& j, const std::string& path) {
        return parse_material(j, path, file);
    });
    p.layers = parse_list<Layer>(r, "layers", [&](const Json& j, const std::string& path) {
        return parse_layer(j, path, file);
    });
    p.sources = parse_list<Source>(r, "sources", [&](const Json& j, const std::string& path) {
        return parse_source(j, path, file, p.domain);
    });
    p.monitors = parse_list<Monitor>(r, "monitors", [&](const Json& j, const std::string& path) {
        return parse_monitor(j, path, file, p.domain);
    });
    if (const Json* run = r.find("run"))
        p.run = parse_run(*run, "run", file, pol);
    else
        p.run = parse_run(Json::object(), "run", file, pol);
    p.extra = r.extras();
    expressions.finish(p);
    return p;
}

// ------------------------------------------------------------------ writing

Json vec2_json(const Vec2& v) { return Json::array({v.x, v.y}); }

Json array3_json(const std::array<double, 3>& a) { return Json::array({a[0], a[1], a[2]}); }

Json vec3_json(const Vec3& v) { return Json::array({v.x, v.y, v.z}); }

/// [x, y] or, with a z entry, [x, y, z].
Json point23_json(const Vec2& v, const std::optional<double>& z) {
    return z ? Json::array({v.x, v.y, *z}) : vec2_json(v);
}

/// Appends the kept unknown members after the known ones (a known member wins on a clash).
void append_extra(Json& j, const Json& extra) {
    if (!extra.is_object()) return;
    for (auto it = extra.begin(); it != extra.end(); ++it)
        if (!j.contains(it.key())) j[it.key()] = *it;
}

/// The embedded files of a project being written: each distinct base64 text of its layers'
/// step and gds shapes once, in order of first use, with its id (16 hex digits of the
/// FNV-1a 64-bit hash of the text; "-2", "-3" ... appended in the unlikely case that two
/// different files hash alike).
class EmbeddedTable {
public:
    explicit EmbeddedTable(const Project& p) {
        for (const Layer& l : p.layers)
            for (const Shape& s : l.shapes)
                if ((s.type == ShapeType::Step || s.type == ShapeType::Gds) && !s.data_base64.empty()) add(s);
    }
    /// The id of a shape's data; nullptr when the table does not hold it (shapes outside layers).
    const std::string* id_of(const Shape& s) const {
        const auto it = by_text_.find(std::string_view(s.data_base64));
        return it == by_text_.end() ? nullptr : &entries_[it->second].id;
    }
    Json json() const {
        Json out = Json::array();
        for (const Entry& e : entries_) {
            Json j = Json::object();
            j["id"] = e.id;
            j["file_name"] = e.shape->file_name;
            j["data"] = e.shape->data_base64;
            out.push_back(std::move(j));
        }
        return out;
    }
    bool empty() const { return entries_.empty(); }

private:
    struct Entry {
        std::string id;
        const Shape* shape;  ///< the first shape holding the text (its file_name names the entry)
    };
    static std::uint64_t fnv1a(std::string_view t) {
        std::uint64_t h = 14695981039346656037ull;
        for (const char c : t) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        return h;
    }
    void add(const Shape& s) {
        const std::string_view text(s.data_base64);
        if (by_text_.count(text)) return;
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
        std::string id = buf;
        for (int k = 2; ids_.count(id); ++k) id = std::string(buf) + "-" + std::to_string(k);
        ids_.insert(id);
        by_text_.emplace(text, entries_.size());
        entries_.push_back({id, &s});
    }
    std::vector<Entry> entries_;
    std::unordered_map<std::string_view, std::size_t> by_text_;  ///< views into the project's shapes
    std::set<std::string> ids_;
};

/// A step or gds shape's data: `file` (its embedded_files id) when the table holds it, else inline.
void embedded_json(Json& j, const Shape& s, const EmbeddedTable* table) {
    if (const std::string* id = table ? table->id_of(s) : nullptr)
        j["file"] = *id;
    else
        j["data"] = s.data_base64;
}

Json shape_json(const Shape& s, const EmbeddedTable* table = nullptr) {
    Json j = Json::object();
    j["type"] = to_string(s.type);
    switch (s.type) {
        case ShapeType::Rectangle:
            j["min"] = vec2_json(s.min);
            j["max"] = vec2_json(s.max);
            j["rotation_deg"] = s.rotation_deg;
            break;
        case ShapeType::Polygon: {
            Json pts = Json::array();
            for (const auto& p : s.points) pts.push_back(vec2_json(p));
            j["points"] = pts;
            break;
        }
        case ShapeType::Ellipse:
            j["center"] = vec2_json(s.center);
            j["radii"] = vec2_json(s.radii);
            j["rotation_deg"] = s.rotation_deg;
            break;
        case ShapeType::Ring:
            j["center"] = vec2_json(s.center);
            j["inner_radius"] = s.inner_radius;
            j["outer_radius"] = s.outer_radius;
            break;
        case ShapeType::Path: {
            Json pts = Json::array();
            for (const auto& p : s.points) pts.push_back(vec2_json(p));
            j["points"] = pts;
            j["width"] = s.width;
            if (s.bend_radius) j["bend_radius"] = *s.bend_radius;
            break;
        }
        case ShapeType::Raster:
            j["origin"] = vec2_json(s.origin);
            j["pixel_size"] = s.pixel_size;
            j["width"] = s.width_px;
            j["height"] = s.height_px;
            j["png"] = s.png_base64;
            break;
        case ShapeType::Step:
            j["file_name"] = s.file_name;
            embedded_json(j, s, table);
            j["scale"] = s.scale;
            j["rotate_deg"] = array3_json(s.rotate_deg);
            j["translate"] = array3_json(s.translate);
            if (!s.solids.empty()) j["solids"] = s.solids;
            break;
        case ShapeType::Sphere:
            j["center"] = vec3_json(s.center_3d);
            j["radius"] = s.radius;
            break;
        case ShapeType::Box:
            j["min"] = vec3_json(s.box_min);
            j["max"] = vec3_json(s.box_max);
            break;
        case ShapeType::Gds:
            j["file_name"] = s.file_name;
            embedded_json(j, s, table);
            if (!s.gds_cell.empty()) j["cell"] = s.gds_cell;
            j["layer"] = Json::array({s.gds_layer[0], s.gds_layer[1]});
            if (s.translate[0] != 0 || s.translate[1] != 0) j["translate"] = Json::array({s.translate[0], s.translate[1]});
            if (s.rotation_deg != 0) j["rotate_deg"] = s.rotation_deg;
            if (s.gds_db_unit_um) j["db_unit_um"] = *s.gds_db_unit_um;
            break;
    }
    append_extra(j, s.extra);
    return j;
}

Json material_json(const Material& m) {
    Json j = Json::object();
    j["id"] = m.id;
    j["name"] = m.name;
    j["epsilon_inf"] = m.epsilon_inf;
    j["mu_r"] = m.mu_r;
    j["conductivity"] = m.conductivity;
    Json poles = Json::array();
    for (const auto& p : m.poles) {
        Json pj = Json::object();
        pj["kind"] = to_string(p.kind);
        pj["omega_p"] = p.omega_p;
        if (p.kind == PoleKind::Lorentz) pj["omega_0"] = p.omega_0;
        pj["gamma"] = p.gamma;
        append_extra(pj, p.extra);
        poles.push_back(pj);
    }
    j["poles"] = poles;
    j["color"] = m.color;
    append_extra(j, m.extra);
    return j;
}

Json layer_json(const Layer& l, const EmbeddedTable& table) {
    Json j = Json::object();
    j["name"] = l.name;
    j["material"] = l.material;
    j["visible"] = l.visible;
    j["locked"] = l.locked;
    if (l.z) j["z"] = Json::array({(*l.z)[0], (*l.z)[1]});
    if (l.sidewall_angle_deg != 0) j["sidewall_angle_deg"] = l.sidewall_angle_deg;
    j["reference_only"] = l.reference_only;
    if (l.gds_layer) j["gds_layer"] = Json::array({(*l.gds_layer)[0], (*l.gds_layer)[1]});
    Json shapes = Json::array();
    for (const auto& s : l.shapes) shapes.push_back(shape_json(s, &table));
    j["shapes"] = shapes;
    append_extra(j, l.extra);
    return j;
}

Json waveform_json(const Waveform& w) {
    Json j = Json::object();
    j["type"] = to_string(w.type);
    if (w.type == WaveformType::GaussianPulse) {
        j["wavelength_center"] = w.wavelength_center;
        j["wavelength_span"] = w.wavelength_span;
    } else {
        j["wavelength"] = w.wavelength;
        j["ramp_periods"] = w.ramp_periods;
    }
    append_extra(j, w.extra);
    return j;
}

Json source_json(const Source& s) {
    Json j = Json::object();
    j["name"] = s.name;
    j["type"] = to_string(s.type);
    switch (s.type) {
        case SourceType::Point: j["at"] = point23_json(s.at, s.at_z); break;
        case SourceType::Line:
            j["from"] = vec2_json(s.from);
            j["to"] = vec2_json(s.to);
            break;
        case SourceType::Region:
            j["shape"] = s.shape ? shape_json(*s.shape) : Json::object();
            break;
        case SourceType::Plane:
            j["center"] = vec3_json(s.center);
            j["size"] = vec3_json(s.size);
            break;
        case SourceType::Tfsf:
            j["min"] = vec3_json(s.box_min);
            j["max"] = vec3_json(s.box_max);
            j["direction"] = s.direction;
            break;
    }
    j["component"] = to_string(s.component);
    if (s.type == SourceType::Line || s.type == SourceType::Plane) {
        j["profile"] = to_string(s.profile);
        if (s.profile == SourceProfile::Gaussian) j["waist"] = s.waist;
        if (s.profile == SourceProfile::Mode) {
            j["mode_index"] = s.mode_index;
            j["direction"] = s.direction;
        }
    }
    j["amplitude"] = s.amplitude;
    j["phase_deg"] = s.phase_deg;
    if (s.angle_deg != 0) j["angle_deg"] = s.angle_deg;
    if (s.azimuth_deg != 0) j["azimuth_deg"] = s.azimuth_deg;
    if (!s.polarization.empty()) j["polarization"] = s.polarization;
    j["waveform"] = waveform_json(s.waveform);
    append_extra(j, s.extra);
    return j;
}

/// A `far_field` object; `plane3d`: a 3D flux plane (periods as [n1, n2]).
Json far_field_json(const FarFieldSettings& s, bool plane3d) {
    Json ff = Json::object();
    if (!s.wavelengths.empty()) {
        Json wl = Json::array();
        for (double w : s.wavelengths) wl.push_back(w);
        ff["wavelengths"] = wl;
    }
    ff["theta_points"] = s.theta_points;
    if (s.phi_points > 0) ff["phi_points"] = s.phi_points;
    if (s.periods[0] != 1 || s.periods[1] != 1)
        ff["periods"] = plane3d ? Json::array({s.periods[0], s.periods[1]}) : Json(s.periods[0]);
    append_extra(ff, s.extra);
    return ff;
}

Json monitor_json(const Monitor& m) {
    Json j = Json::object();
    j["name"] = m.name;
    j["type"] = to_string(m.type);
    switch (m.type) {
        case MonitorType::Flux:
            if (m.size != Vec3{}) {  // a plane (a valid plane has a nonzero extent)
                j["center"] = vec3_json(m.center);
                j["size"] = vec3_json(m.size);
            } else {
                j["from"] = vec2_json(m.from);
                j["to"] = vec2_json(m.to);
            }
            j["direction"] = m.direction;
            j["kind"] = m.kind;
            if (m.far_field) j["far_field"] = far_field_json(*m.far_field, m.size != Vec3{});
            if (m.diffraction) {
                j["type"] = "diffraction";
                if (m.diffraction->index) j["index"] = *m.diffraction->index;
            }
            break;
        case MonitorType::FluxBox:
            j["min"] = point23_json(m.min.value_or(Vec2{}), m.min_z);
            j["max"] = point23_json(m.max.value_or(Vec2{}), m.max_z);
            j["kind"] = m.kind;
            if (m.far_field) j["far_field"] = far_field_json(*m.far_field, false);
            break;
        case MonitorType::Time:
            if (m.at) j["at"] = point23_json(*m.at, m.at_z);
            if (m.shape) j["shape"] = shape_json(*m.shape);
            j["component"] = to_string(m.component);
            j["reduce"] = to_string(m.reduce);
            if (m.resonances) {
                Json rs = Json::object();
                if (m.resonances->wavelength_min || m.resonances->wavelength_max)
                    rs["band"] = Json::array({m.resonances->wavelength_min.value_or(0.0),
                                              m.resonances->wavelength_max.value_or(0.0)});
                rs["after_source"] = m.resonances->after_source;
                rs["q_min"] = m.resonances->q_min;
                append_extra(rs, m.resonances->extra);
                j["resonances"] = rs;
            }
            break;
        case MonitorType::DftField: {
            Json wl = Json::array();
            for (double w : m.wavelengths) wl.push_back(w);
            j["wavelengths"] = wl;
            Json comps = Json::array();
            for (Component c : m.components) comps.push_back(to_string(c));
            j["components"] = comps;
            if (m.min) j["min"] = point23_json(*m.min, m.min_z);
            if (m.max) j["max"] = point23_json(*m.max, m.max_z);
            break;
        }
    }
    append_extra(j, m.extra);
    return j;
}

Json domain_json(const Domain& d) {
    Json j = Json::object();
    j["dimensions"] = d.dimensions;
    j["size"] = array3_json(d.size);
    j["cell_size"] = d.cell_size;
    j["polarization"] = to_string(d.polarization);
    j["slice_z"] = d.slice_z;
    Json b = Json::object();
    b["x"] = d.is_bloch(0) ? "bloch" : to_string(d.boundaries[0]);
    b["y"] = d.is_bloch(1) ? "bloch" : to_string(d.boundaries[1]);
    b["z"] = d.is_bloch(2) ? "bloch" : to_string(d.boundaries[2]);
    append_extra(b, d.boundaries_extra);
    j["boundaries"] = b;
    if (d.symmetry != std::array<int, 3>{0, 0, 0}) {  // written only when set: older files stay byte-identical
        Json sy = Json::array();
        for (int a = 0; a < (d.dimensions == 3 ? 3 : 2); ++a) sy.push_back(d.symmetry[std::size_t(a)]);
        j["symmetry"] = sy;
    }
    if (d.bloch_k) j["bloch_k"] = Json::array({(*d.bloch_k)[0], (*d.bloch_k)[1], (*d.bloch_k)[2]});
    if (d.bloch_k_unit != "2pi/a") j["bloch_k_unit"] = d.bloch_k_unit;
    Json pml = Json::object();
    pml["cells"] = d.pml.cells;
    pml["grading_order"] = d.pml.grading_order;
    pml["target_reflection"] = d.pml.target_reflection;
    append_extra(pml, d.pml.extra);
    j["pml"] = pml;
    j["background"] = d.background;
    append_extra(j, d.extra);
    return j;
}

Json run_json(const RunSettings& r, int dimensions) {
    Json j = Json::object();
    Json spectrum = Json::object();
    spectrum["wavelength_min"] = r.spectrum.wavelength_min;
    spectrum["wavelength_max"] = r.spectrum.wavelength_max;
    spectrum["points"] = r.spectrum.points;
    append_extra(spectrum, r.spectrum.extra);
    j["spectrum"] = spectrum;
    j["courant"] = r.courant;
    Json stop = Json::object();
    stop["decay_db"] = r.stop.decay_db;
    stop["max_time_fs"] = r.stop.max_time_fs;
    if (r.stop.max_steps) stop["max_steps"] = *r.stop.max_steps;
    if (r.stop.monitor) stop["monitor"] = *r.stop.monitor;
    if (r.stop.resonances) stop["resonances"] = true;
    append_extra(stop, r.stop.extra);
    j["stop"] = stop;
    Json norm = Json::object();
    norm["enabled"] = r.normalization.enabled;
    norm["reference_layers"] = r.normalization.reference_layers;
    if (r.normalization.incident_monitor) norm["incident_monitor"] = *r.normalization.incident_monitor;
    append_extra(norm, r.normalization.extra);
    j["normalization"] = norm;
    j["subpixel_averaging"] = r.subpixel_averaging;
    // written only when chosen, so projects saved before the field existed stay byte-identical
    if (r.subpixel_metal != SubpixelMetal::Tangential) j["subpixel_metal"] = to_string(r.subpixel_metal);
    j["precision"] = to_string(r.precision);
    j["backend"] = to_string(r.backend);
    Json frames = Json::object();
    frames["every_steps"] = r.frames.every_steps;
    frames["component"] = to_string(r.frames.component);
    if (dimensions == 3 || r.frames.plane != "xy") frames["plane"] = r.frames.plane;
    if (r.frames.position) frames["position"] = *r.frames.position;
    append_extra(frames, r.frames.extra);
    j["frames"] = frames;
    append_extra(j, r.extra);
    return j;
}

[[noreturn]] void save_failure(const std::filesystem::path& file, const std::string& what, int err) {
    std::string msg = "cannot save \"" + file.string() + "\": " + what;
    if (err) msg += ": " + std::string(std::strerror(err));
    throw std::runtime_error(msg + " (the existing file, if any, is unchanged)");
}

}  // namespace

// ------------------------------------------------------------------ public API

Project parse_project(const std::string& text, const std::string& file_label) {
    return parse_project(text, file_label, ParameterOverrides{});
}

Project parse_project(const std::string& text, const std::string& file_label, const ParameterOverrides& overrides) {
    std::string_view body(text);
    if (body.size() >= 3 && body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);  // UTF-8 BOM
    DomBuilder builder;
    const bool ok = Json::sax_parse(body.begin(), body.end(), &builder);
    if (!ok || builder.failed) {
        if (builder.error_id == 406) {
            // A number too large for a double (1e999): nlohmann refuses it; name its place.
            const auto [line, column] = line_column(body, builder.error_position);
            throw ProjectError(file_label, builder.error_path,
                               "number out of range: " + builder.error_token + " (line " + std::to_string(line) +
                                   ", column " + std::to_string(column) + ") must be a finite number");
        }
        // builder.error_what: "[json.exception.parse_error.101] parse error at line L, column C: ..."
        std::string what = builder.error_what.empty() ? std::string("parse error") : builder.error_what;
        if (what.rfind("[json.exception.", 0) == 0)
            if (const auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
        throw ProjectError(file_label, "", "not valid JSON: " + what);
    }
    Project p = parse_document(builder.root, file_label, overrides);
    validate_project(p, file_label);
    return p;
}

Project load_project(const std::filesystem::path& file) { return load_project_with(file, ParameterOverrides{}); }

Project load_project_with(const std::filesystem::path& file, const ParameterOverrides& overrides) {
    const std::string label = file.string();
    std::string text;
    try {  // regular files only, at most limits::kMaxProjectFileBytes (a FIFO or /dev/zero is refused)
        text = read_regular_file(file, limits::kMaxProjectFileBytes);
    } catch (const FileReadError& e) {
        std::error_code ec;
        if (std::filesystem::is_directory(file, ec))
            throw ProjectError(label, "", "cannot read the project: it is a directory");
        throw ProjectError(label, "", std::string("cannot read the project: ") + e.what());
    }
    return parse_project(text, label, overrides);
}

Json project_to_json(const Project& project) {
    Json j = Json::object();
    j["format"] = kFormatName;
    j["version"] = kFormatVersion;
    j["name"] = project.name;
    if (!project.parameters.empty()) j["parameters"] = parameters_json(project.parameters);
    j["domain"] = domain_json(project.domain);
    Json materials = Json::array();
    for (const auto& m : project.materials) materials.push_back(material_json(m));
    j["materials"] = materials;
    const EmbeddedTable table(project);  // each embedded file once, however many shapes use it
    Json layers = Json::array();
    for (const auto& l : project.layers) layers.push_back(layer_json(l, table));
    j["layers"] = layers;
    Json sources = Json::array();
    for (const auto& s : project.sources) sources.push_back(source_json(s));
    j["sources"] = sources;
    Json monitors = Json::array();
    for (const auto& m : project.monitors) monitors.push_back(monitor_json(m));
    j["monitors"] = monitors;
    j["run"] = run_json(project.run, project.domain.dimensions);
    if (!table.empty()) j["embedded_files"] = table.json();  // last: the bulk of the file after what people read
    append_extra(j, project.extra);
    restore_expressions(j, project.expressions);  // expression strings back where the model keeps them
    return j;
}

namespace {

std::string project_text(const Project& project) { return project_to_json(project).dump(2) + "\n"; }

/// save_size_problem's message for a file of `bytes`.
std::string size_problem_text(const Project& project, std::uint64_t bytes) {
    if (bytes <= limits::kMaxProjectFileBytes) return {};
    // the embedded files, largest first, with the layers that use them
    struct File {
        std::string name;
        std::size_t bytes = 0;
        std::vector<std::string> layers;
    };
    std::vector<File> files;
    std::unordered_map<std::string_view, std::size_t> index;
    for (const Layer& l : project.layers)
        for (const Shape& s : l.shapes) {
            if ((s.type != ShapeType::Step && s.type != ShapeType::Gds) || s.data_base64.empty()) continue;
            auto [it, added] = index.emplace(std::string_view(s.data_base64), files.size());
            if (added) files.push_back({s.file_name.empty() ? std::string("(unnamed)") : s.file_name, s.data_base64.size(), {}});
            auto& names = files[it->second].layers;
            if (std::find(names.begin(), names.end(), l.name) == names.end()) names.push_back(l.name);
        }
    std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.bytes > b.bytes; });
    std::string msg = "the project would be " + limits::format_bytes(double(bytes)) + ", more than the " +
                      limits::format_bytes(double(limits::kMaxProjectFileBytes)) +
                      " GoLightly opens, so it is not saved (the file on disk, if any, is unchanged)";
    if (!files.empty()) {
        msg += ". Embedded files (each stored once, base64):";
        for (std::size_t k = 0; k < files.size() && k < 5; ++k) {
            std::string layers;
            for (std::size_t i = 0; i < files[k].layers.size() && i < 6; ++i)
                layers += (i ? ", " : "") + ("'" + files[k].layers[i] + "'");
            if (files[k].layers.size() > 6) layers += ", ...";
            msg += (k ? "; " : " ") + files[k].name + " " + limits::format_bytes(double(files[k].bytes)) + " (layers " + layers + ")";
        }
        msg += ". Remove the shapes of a file you no longer need, or import a smaller cell of a layout (or a STEP "
               "file with fewer parts) instead of the whole file";
    } else {
        msg += ". Make painted rasters, polygons and paths smaller, or split the project";
    }
    return msg;
}

}  // namespace

std::uint64_t saved_project_bytes(const Project& project) { return project_text(project).size(); }

std::string save_size_problem(const Project& project) { return size_problem_text(project, saved_project_bytes(project)); }

void save_project(const Project& project, const std::filesystem::path& file) {
    std::string text;
    try {
        text = project_text(project);
    } catch (const Json::exception& e) {
        save_failure(file, std::string("cannot write the project as JSON: ") + e.what(), 0);
    }
    // never write a file load_project refuses (limits::kMaxProjectFileBytes)
    if (const std::string problem = size_problem_text(project, text.size()); !problem.empty()) {
        text.clear();
        text.shrink_to_fit();
        throw std::runtime_error("cannot save \"" + file.string() + "\": " + problem);
    }

    const std::filesystem::path dir = file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
    std::string tmpl = (dir / ("." + file.filename().string() + ".tmp-XXXXXX")).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) save_failure(file, "cannot create a temporary file in \"" + dir.string() + "\"", errno);
    const std::string tmp(name.data());
    auto abandon = [&](const std::string& what, int err) {
        ::close(fd);
        ::unlink(tmp.c_str());
        save_failure(file, what, err);
    };

    // Keep the permissions of the file being replaced; a new file gets rw-r--r--.
    struct stat st {};
    const mode_t mode = ::stat(file.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
    if (::fchmod(fd, mode) != 0) abandon("cannot set the permissions of the temporary file", errno);

    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            abandon("cannot write the temporary file \"" + tmp + "\"", errno);
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) abandon("cannot flush the temporary file \"" + tmp + "\" to disk", errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        save_failure(file, "cannot close the temporary file \"" + tmp + "\"", err);
    }
    if (::rename(tmp.c_str(), file.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        save_failure(file, "cannot replace the file with the temporary file", err);
    }
    // Make the rename itself durable (best effort: some file systems refuse fsync on a folder).
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

Material material_from_json(const Json& j, const std::string& json_path, const std::string& file_label) {
    return parse_material(j, json_path, ReadContext{file_label});
}
Json material_to_json(const Material& m) { return material_json(m); }

const Material* Project::find_material(const std::string& id) const {
    for (const auto& m : materials)
        if (m.id == id) return &m;
    if (id == "air") {
        static const Material kAir = [] {
            Material m;
            m.id = "air";
            m.name = "Air";
            m.epsilon_inf = 1.0;
            m.color = "#ffffff";
            return m;
        }();
        return &kAir;
    }
    return nullptr;
}

}  // namespace golightly
