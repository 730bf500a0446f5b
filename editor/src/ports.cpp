#include "ports.hpp"

#include <cmath>

#include "dimensions.hpp"

namespace golightly::editor {

namespace {

const Json* ports_array(const Project& p) {
    const auto it = p.extra.find("ports");
    return it != p.extra.end() && it->is_array() ? &*it : nullptr;
}

Vec3 read_vec(const Json& o, const char* key) {
    Vec3 v{0, 0, 0};
    const auto it = o.find(key);
    if (it == o.end() || !it->is_array()) return v;
    for (size_t a = 0; a < 3 && a < it->size(); ++a)
        if ((*it)[a].is_number()) v[int(a)] = (*it)[a].get<double>();
    return v;
}

Json vec_json(const Vec3& v, int dims) {
    Json a = Json::array({v.x, v.y});
    if (dims == 3) a.push_back(v.z);
    return a;
}

}  // namespace

int port_count(const Project& p) {
    const Json* a = ports_array(p);
    return a ? int(a->size()) : 0;
}

std::optional<PortData> port_at(const Project& p, int index) {
    const Json* a = ports_array(p);
    if (!a || index < 0 || index >= int(a->size()) || !(*a)[size_t(index)].is_object()) return std::nullopt;
    const Json& o = (*a)[size_t(index)];
    PortData d;
    if (auto it = o.find("name"); it != o.end() && it->is_string()) d.name = it->get<std::string>();
    d.center = read_vec(o, "center");
    d.size = read_vec(o, "size");
    if (auto it = o.find("direction"); it != o.end() && it->is_string()) d.direction = it->get<std::string>();
    if (auto it = o.find("modes"); it != o.end() && it->is_array()) {
        d.modes.clear();
        for (const Json& m : *it)
            if (m.is_number_integer()) d.modes.push_back(m.get<int>());
    }
    return d;
}

bool set_port(Project& p, int index, const PortData& d) {
    auto it = p.extra.find("ports");
    if (it == p.extra.end() || !it->is_array() || index < 0 || index >= int(it->size())) return false;
    Json& o = (*it)[size_t(index)];
    if (!o.is_object()) o = Json::object();
    const int dims = p.domain.dimensions == 3 ? 3 : 2;
    o["name"] = d.name;
    o["center"] = vec_json(d.center, dims);
    o["size"] = vec_json(d.size, dims);
    o["direction"] = d.direction;
    o["modes"] = d.modes;
    return true;
}

int add_port(Project& p, const PortData& d) {
    auto it = p.extra.find("ports");
    if (it == p.extra.end() || !it->is_array()) {
        p.extra["ports"] = Json::array();
        it = p.extra.find("ports");
    }
    it->push_back(Json::object());
    const int index = int(it->size()) - 1;
    set_port(p, index, d);
    return index;
}

bool remove_port(Project& p, int index) {
    auto it = p.extra.find("ports");
    if (it == p.extra.end() || !it->is_array() || index < 0 || index >= int(it->size())) return false;
    it->erase(it->begin() + index);
    if (it->empty()) p.extra.erase("ports");
    return true;
}

std::vector<std::string> port_names(const Project& p) {
    std::vector<std::string> names;
    for (int i = 0; i < port_count(p); ++i)
        if (const auto d = port_at(p, i)) names.push_back(d->name);
    return names;
}

PortData port_from_line(const Project& p, Vec2 a, Vec2 b, const std::string& name) {
    PortData d;
    d.name = name;
    const double dx = std::fabs(b.x - a.x), dy = std::fabs(b.y - a.y);
    const bool three = p.domain.dimensions == 3;
    const double lz = three ? p.domain.size[2] : 0.0;
    d.center = {0.5 * (a.x + b.x), 0.5 * (a.y + b.y), 0.5 * lz};
    if (dx <= dy) {
        d.size = {0.0, dy, lz};
        d.direction = "+x";
    } else {
        d.size = {dx, 0.0, lz};
        d.direction = "+y";
    }
    return d;
}

bool port_footprint(const PortData& d, Vec2& a, Vec2& b) {
    a = {d.center.x - 0.5 * d.size.x, d.center.y - 0.5 * d.size.y};
    b = {d.center.x + 0.5 * d.size.x, d.center.y + 0.5 * d.size.y};
    return d.size.x == 0 || d.size.y == 0;
}

}  // namespace golightly::editor
