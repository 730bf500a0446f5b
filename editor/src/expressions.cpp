// GoLightly editor: parameters and expression bindings (expressions.hpp).
#include "expressions.hpp"

#include <QCoreApplication>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include "design_region.hpp"
#include "editor_document.hpp"
#include "golightly/parameters.hpp"
#include "ports.hpp"

namespace golightly::editor {

namespace {

/// One step of a JSON path: a key, or an array index (key empty).
struct Step {
    std::string key;
    long index = -1;
};

std::vector<Step> parse_path(const std::string& path) {
    std::vector<Step> out;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '[') {
            const auto close = path.find(']', i);
            if (close == std::string::npos) return {};
            try {
                out.push_back({{}, std::stol(path.substr(i + 1, close - i - 1))});
            } catch (const std::exception&) {
                return {};
            }
            i = close + 1;
        } else {
            if (path[i] == '.') ++i;
            const auto end = path.find_first_of(".[", i);
            out.push_back({path.substr(i, end == std::string::npos ? std::string::npos : end - i), -1});
            i = end == std::string::npos ? path.size() : end;
        }
    }
    return out;
}

std::string format_path(const std::vector<Step>& steps, std::size_t from = 0) {
    std::string out;
    for (std::size_t i = from; i < steps.size(); ++i) {
        if (steps[i].key.empty()) {
            out += '[';
            out += std::to_string(steps[i].index);
            out += ']';
        } else {
            if (!out.empty()) out += '.';
            out += steps[i].key;
        }
    }
    return out;
}

const Json* resolve(const Json& doc, const std::string& path) {
    const Json* cur = &doc;
    for (const Step& s : parse_path(path)) {
        if (s.key.empty()) {
            if (!cur->is_array() || s.index < 0 || std::size_t(s.index) >= cur->size()) return nullptr;
            cur = &(*cur)[std::size_t(s.index)];
        } else {
            if (!cur->is_object()) return nullptr;
            const auto it = cur->find(s.key);
            if (it == cur->end()) return nullptr;
            cur = &*it;
        }
    }
    return cur;
}

Json plain_json(Project p) {
    p.expressions.clear();
    return project_to_json(p);
}

std::string join(const std::string& base, const std::string& key) { return base.empty() ? key : base + "." + key; }

void diff(const Json& a, const Json& b, const std::string& path, std::vector<std::string>& out, bool& structural) {
    if (a.is_number() && b.is_number()) {
        if (a.get<double>() != b.get<double>()) out.push_back(path);
        return;
    }
    if (a.type() != b.type()) {
        structural = true;
        return;
    }
    if (a.is_object()) {
        for (auto it = a.begin(); it != a.end(); ++it) {
            const auto other = b.find(it.key());
            if (other == b.end()) {
                if (it->is_number()) out.push_back(join(path, it.key()));
                else structural = true;
            } else {
                diff(*it, *other, join(path, it.key()), out, structural);
            }
        }
        for (auto it = b.begin(); it != b.end(); ++it)
            if (a.find(it.key()) == a.end()) {
                if (it->is_number()) out.push_back(join(path, it.key()));
                else structural = true;
            }
    } else if (a.is_array()) {
        if (a.size() != b.size()) {
            structural = true;
            return;
        }
        for (std::size_t i = 0; i < a.size(); ++i) diff(a[i], b[i], path + "[" + std::to_string(i) + "]", out, structural);
    } else if (a != b) {
        structural = true;
    }
}

/// Where each of `before`'s items went in `after` (-1: deleted): the equal item at the same
/// index, else the first unclaimed equal one, else (same count) the same index.
template <class T>
std::vector<long> match_items(const std::vector<T>& before, const std::vector<T>& after) {
    std::vector<long> map(before.size(), -1);
    std::vector<char> used(after.size(), 0);
    for (std::size_t i = 0; i < before.size() && i < after.size(); ++i)
        if (before[i] == after[i]) {
            map[i] = long(i);
            used[i] = 1;
        }
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (map[i] >= 0) continue;
        for (std::size_t j = 0; j < after.size(); ++j)
            if (!used[j] && before[i] == after[j]) {
                map[i] = long(j);
                used[j] = 1;
                break;
            }
    }
    if (before.size() == after.size())
        for (std::size_t i = 0; i < before.size(); ++i)
            if (map[i] < 0 && !used[i]) {
                map[i] = long(i);
                used[i] = 1;
            }
    return map;
}

std::vector<Json> port_items(const Project& p) {
    std::vector<Json> out;
    const auto it = p.extra.find("ports");
    if (it != p.extra.end() && it->is_array())
        for (const auto& e : *it) out.push_back(e);
    return out;
}

long mapped(const std::vector<long>& map, long i) { return i >= 0 && std::size_t(i) < map.size() ? map[std::size_t(i)] : -1; }

void prune(Project& p) {
    if (p.expressions.empty()) return;
    const Json j = plain_json(p);
    std::vector<FieldExpression> kept;
    for (const auto& e : p.expressions) {
        const Json* slot = resolve(j, e.path);
        if (slot && slot->is_number() && slot->get<double>() == e.value) kept.push_back(e);
    }
    p.expressions = std::move(kept);
}

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Calls `f(begin, length)` for every identifier of an expression (numbers skipped, so the
/// exponent of "1e5" is no identifier; a unit after a number is one, but never a parameter).
template <class F>
void for_each_identifier(const std::string& t, F f) {
    std::size_t i = 0;
    while (i < t.size()) {
        const char c = t[i];
        if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[i + 1])))) {
            while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.')) ++i;
            if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
                std::size_t k = i + 1;
                if (k < t.size() && (t[k] == '+' || t[k] == '-')) ++k;
                if (k < t.size() && std::isdigit(static_cast<unsigned char>(t[k]))) {
                    i = k;
                    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
                }
            }
        } else if (ident_start(c)) {
            const std::size_t b = i;
            while (i < t.size() && ident_char(t[i])) ++i;
            f(b, i - b);
        } else {
            ++i;
        }
    }
}

}  // namespace

std::vector<std::pair<std::string, double>> parameter_values(const Project& project) {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& prm : project.parameters) out.emplace_back(prm.name, prm.value);
    return out;
}

double evaluate_in(const Project& project, const QString& text) {
    return evaluate_expression(text.trimmed().toStdString(), parameter_values(project));
}

const FieldExpression* expression_at(const Project& project, const std::string& path) {
    for (const auto& e : project.expressions)
        if (e.path == path) return &e;
    return nullptr;
}

void set_expression(Project& project, const std::string& path, const std::string& text, double value) {
    remove_expression(project, path);
    project.expressions.push_back(FieldExpression{path, text, value});
}

void remove_expression(Project& project, const std::string& path) {
    auto& v = project.expressions;
    v.erase(std::remove_if(v.begin(), v.end(), [&](const FieldExpression& e) { return e.path == path; }), v.end());
}

std::optional<double> number_at(const Project& project, const std::string& path) {
    const Json j = plain_json(project);
    const Json* slot = resolve(j, path);
    if (slot && slot->is_number()) return slot->get<double>();
    return std::nullopt;
}

std::optional<std::string> changed_field(const Project& before, const Project& after) {
    std::vector<std::string> out;
    bool structural = false;
    diff(plain_json(before), plain_json(after), std::string(), out, structural);
    if (structural || out.size() != 1) return std::nullopt;
    return out.front();
}

void carry_expressions(const Project& before, Project& after) {
    if (before.expressions.empty() && after.expressions.empty()) return;
    if (after.expressions == before.expressions) {
        const auto layers = match_items(before.layers, after.layers);
        std::vector<std::vector<long>> shapes(before.layers.size());
        for (std::size_t l = 0; l < before.layers.size(); ++l)
            if (layers[l] >= 0)
                shapes[l] = match_items(before.layers[l].shapes, after.layers[std::size_t(layers[l])].shapes);
        const auto sources = match_items(before.sources, after.sources);
        const auto monitors = match_items(before.monitors, after.monitors);
        const auto ports = match_items(port_items(before), port_items(after));
        std::vector<FieldExpression> moved;
        for (FieldExpression e : before.expressions) {
            auto steps = parse_path(e.path);
            bool keep = true;
            if (steps.size() >= 2 && steps[1].key.empty()) {
                const std::string& head = steps[0].key;
                const long i = steps[1].index;
                if (head == "layers") {
                    const long to = mapped(layers, i);
                    if (to >= 0 && steps.size() >= 4 && steps[2].key == "shapes" && steps[3].key.empty()) {
                        steps[3].index = mapped(shapes[std::size_t(i)], steps[3].index);
                        keep = steps[3].index >= 0;
                    }
                    steps[1].index = to;
                    keep = keep && to >= 0;
                } else if (head == "sources" || head == "monitors" || head == "ports") {
                    steps[1].index = mapped(head == "sources" ? sources : head == "monitors" ? monitors : ports, i);
                    keep = steps[1].index >= 0;
                }
            }
            if (!keep) continue;
            e.path = format_path(steps);
            moved.push_back(std::move(e));
        }
        after.expressions = std::move(moved);
    }
    prune(after);
}

std::string item_path(const ItemRef& item) {
    switch (item.kind) {
    case ItemRef::Kind::Shape: return "layers[" + std::to_string(item.layer) + "].shapes[" + std::to_string(item.index) + "]";
    case ItemRef::Kind::Source: return "sources[" + std::to_string(item.index) + "]";
    case ItemRef::Kind::Monitor: return "monitors[" + std::to_string(item.index) + "]";
    case ItemRef::Kind::Port: return "ports[" + std::to_string(item.index) + "]";
    case ItemRef::Kind::Design:  // the design section takes numbers only
    case ItemRef::Kind::None: break;
    }
    return {};
}

std::vector<FieldExpression> item_expressions(const Project& project, const ItemRef& item) {
    std::vector<FieldExpression> out;
    const std::string prefix = item_path(item);
    if (prefix.empty()) return out;
    for (const auto& e : project.expressions)
        if (e.path.size() > prefix.size() && e.path.compare(0, prefix.size(), prefix) == 0 &&
            (e.path[prefix.size()] == '.' || e.path[prefix.size()] == '['))
            out.push_back(FieldExpression{e.path.substr(prefix.size()), e.text, e.value});
    return out;
}

void add_item_expressions(Project& project, const ItemRef& item, const std::vector<FieldExpression>& relative) {
    const std::string prefix = item_path(item);
    if (prefix.empty() || relative.empty()) return;
    for (const auto& e : relative) set_expression(project, prefix + e.path, e.text, e.value);
    prune(project);
}

bool uses_name(const std::string& text, const std::string& name) {
    bool found = false;
    for_each_identifier(text, [&](std::size_t b, std::size_t n) { found |= text.compare(b, n, name) == 0 && n == name.size(); });
    return found;
}

std::string rename_in(const std::string& text, const std::string& from, const std::string& to) {
    std::string out;
    std::size_t last = 0;
    for_each_identifier(text, [&](std::size_t b, std::size_t n) {
        if (n == from.size() && text.compare(b, n, from) == 0) {
            out += text.substr(last, b - last) + to;
            last = b + n;
        }
    });
    return out + text.substr(last);
}

std::vector<std::string> uses_of(const Project& project, const std::string& name) {
    std::vector<std::string> out;
    for (const auto& prm : project.parameters)
        if (prm.name != name && !prm.text.empty() && uses_name(prm.text, name)) out.push_back("parameters." + prm.name);
    for (const auto& e : project.expressions)
        if (uses_name(e.text, name)) out.push_back(e.path);
    // the design's shape parameters that name it (the optimizer moves it)
    const Json list = shape_parameters(project);
    for (std::size_t k = 0; k < list.size(); ++k)
        if (list[k].is_object() && list[k].contains("name") && list[k]["name"].is_string() &&
            list[k]["name"].get<std::string>() == name)
            out.push_back("design.shape_parameters[" + std::to_string(k) + "]");
    return out;
}

QString describe_path(const Project& project, const std::string& path) {
    if (const std::string head = "design.shape_parameters["; path.rfind(head, 0) == 0) {
        const std::size_t k = std::size_t(std::strtoul(path.c_str() + head.size(), nullptr, 10));
        const Json list = shape_parameters(project);
        const auto bound = [&](const char* key) {
            return k < list.size() && list[k].is_object() && list[k].contains(key) && list[k][key].is_number()
                       ? QString::number(list[k][key].get<double>(), 'g', 12)
                       : QStringLiteral("?");
        };
        return QCoreApplication::translate("golightly::editor::ParametersDock", "design: shape parameter [%1, %2]")
            .arg(bound("min"), bound("max"));
    }
    const auto steps = parse_path(path);
    const auto qs = [](const std::string& s) { return QString::fromStdString(s); };
    if (steps.size() >= 3 && steps[1].key.empty()) {
        const std::size_t i = std::size_t(std::max(0L, steps[1].index));
        const std::string& head = steps[0].key;
        if (head == "layers" && i < project.layers.size()) {
            const Layer& l = project.layers[i];
            if (steps.size() >= 5 && steps[2].key == "shapes" && steps[3].key.empty())
                return QCoreApplication::translate("golightly::editor::ParametersDock", "layer \"%1\", shape %2: %3").arg(qs(l.name)).arg(steps[3].index + 1).arg(qs(format_path(steps, 4)));
            return QCoreApplication::translate("golightly::editor::ParametersDock", "layer \"%1\": %2").arg(qs(l.name), qs(format_path(steps, 2)));
        }
        if (head == "sources" && i < project.sources.size())
            return QCoreApplication::translate("golightly::editor::ParametersDock", "source \"%1\": %2").arg(qs(project.sources[i].name), qs(format_path(steps, 2)));
        if (head == "monitors" && i < project.monitors.size())
            return QCoreApplication::translate("golightly::editor::ParametersDock", "monitor \"%1\": %2").arg(qs(project.monitors[i].name), qs(format_path(steps, 2)));
        if (head == "ports")
            if (const auto port = port_at(project, int(i)))
                return QCoreApplication::translate("golightly::editor::ParametersDock", "port \"%1\": %2").arg(qs(port->name), qs(format_path(steps, 2)));
    }
    if (steps.size() == 2 && steps[0].key == "parameters") return QCoreApplication::translate("golightly::editor::ParametersDock", "parameter %1").arg(qs(steps[1].key));
    return qs(path);
}

Project with_parameter_list(const Project& project, const std::vector<Parameter>& parameters,
                            const std::vector<FieldExpression>& expressions) {
    Project p = project;
    p.parameters = parameters;
    p.expressions = expressions;
    Json j = project_to_json(p);
    Json params = Json::object();
    for (const auto& prm : parameters) {
        if (prm.text.empty()) params[prm.name] = prm.value;
        else params[prm.name] = prm.text;
    }
    j["parameters"] = params;
    return parse_project(j.dump(), "parameters", ParameterOverrides{});
}

}  // namespace golightly::editor
