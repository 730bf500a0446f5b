// GoLightly: layer maps naming GDSII layers (gds.hpp, read_layer_map): KLayout layer
// properties (.lyp, XML, read with pugixml) and gdsfactory's YAML files (LayerViews and
// plain layer maps, read with yaml-cpp).
//
// Formats (as the tools write them):
// - KLayout .lyp (https://www.klayout.de/lyp_format.html): <layer-properties> holding
//   <properties> entries, each with <name> and <source>; a group is a <properties> whose
//   <group-members> children are entries of the same form (nested to any depth). Several
//   tabs: <layer-properties-tabs> around several <layer-properties>. A source is a layer
//   specification ("1/0", "POLY 2/0", "POLY (2/0)", "17" = 17/0) optionally followed by
//   "@N" (the layout index) and selectors/transformations ("(r90)", "#1..3", "[...]"); "*"
//   leaves a layer or datatype to the group parent (klayout.de/doc/about/layer_sources.html).
//   gdsfactory writes the name as "NAME l/d" when layer_in_name is set, and "*/*@*" as a
//   group's own source.
// - gdsfactory LayerViews YAML (gdsfactory/generic_tech/layer_views.yaml): a top-level
//   "LayerViews" mapping of NAME -> {layer: [l, d], color, hatch_pattern, ..., and for a
//   group group_members: {NAME: {...}}}; "CustomDitherPatterns" and "CustomLineStyles" hold
//   no layers.
// - gdsfactory-style plain layer maps: NAME: [l, d] (or "l/d", "(l, d)") at the top or in a
//   nested mapping such as "layers:".
#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "golightly/gds.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"

#ifdef GOLIGHTLY_HAVE_PUGIXML
#include <pugixml.hpp>
#endif
#ifdef GOLIGHTLY_HAVE_YAML_CPP
#include <yaml-cpp/yaml.h>
#endif

namespace golightly::gds {

namespace {

constexpr std::uint64_t kMaxLayerMapBytes = 16u << 20;
constexpr int kMaxDepth = 32;
constexpr std::size_t kMaxEntries = 100000;

std::string trim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t i = 0;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(i);
}

/// A layer specification as in a KLayout source: an optional name, then layer[/datatype]
/// (either may be "*"), then anything (layout index, selectors) ignored.
struct Spec {
    std::string name;
    std::optional<int> layer, datatype;  ///< nullopt: "*" (inherited) or absent
    bool numbers = false;                ///< layer/datatype numbers (or wildcards) were given
    bool valid = true;                   ///< false: a form this reader does not take (ranges)
};

bool parse_number(const std::string& s, std::size_t& i, std::optional<int>& out, bool& ok) {
    if (i < s.size() && s[i] == '*') {
        ++i;
        out.reset();
        return true;
    }
    const std::size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start) return false;
    if (i - start > 6) {
        ok = false;
        return true;
    }
    out = std::stoi(s.substr(start, i - start));
    if (*out > 65535) ok = false;
    return true;
}

Spec parse_spec(const std::string& text) {
    Spec sp;
    const std::string s = trim(text);
    std::size_t i = 0;
    auto skip_ws = [&] {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    };
    if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
        const char q = s[i];
        const auto end = s.find(q, i + 1);
        if (end == std::string::npos) {
            sp.valid = false;
            return sp;
        }
        sp.name = s.substr(i + 1, end - i - 1);
        i = end + 1;
    } else if (i < s.size() && (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_')) {
        const std::size_t start = i;
        while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '.' ||
                                s[i] == '$' || s[i] == '-'))
            ++i;
        sp.name = s.substr(start, i - start);
    }
    skip_ws();
    const bool paren = i < s.size() && s[i] == '(';
    const std::size_t save = i;
    if (paren) {
        ++i;
        skip_ws();
    }
    std::optional<int> layer, datatype = 0;
    if (!parse_number(s, i, layer, sp.valid)) {
        i = save;  // no numbers: a named layer only, or "(r90)" after a name
        return sp;
    }
    skip_ws();
    if (i < s.size() && s[i] == '/') {
        ++i;
        skip_ws();
        if (!parse_number(s, i, datatype, sp.valid)) sp.valid = false;
    }
    skip_ws();
    if (i < s.size() && s[i] == '-') sp.valid = false;  // a range "1-10/0" or "1/0-10"
    if (paren) {
        if (i < s.size() && s[i] == ')') ++i;
        else sp.valid = false;
    }
    sp.numbers = true;
    sp.layer = layer;
    sp.datatype = datatype;
    return sp;
}

/// `name` without a trailing " l/d", " (l/d)" or " l/d@N" naming the same layer (gdsfactory's
/// layer_in_name, KLayout's "NAME (l/d)").
std::string strip_layer_suffix(const std::string& name, int l, int d) {
    const auto pos = name.find_last_of(" \t");
    if (pos == std::string::npos) return name;
    std::string rest = trim(name.substr(pos + 1));
    if (rest.size() >= 2 && rest.front() == '(' && rest.back() == ')') rest = trim(rest.substr(1, rest.size() - 2));
    const auto at = rest.find('@');
    if (at != std::string::npos) rest = rest.substr(0, at);
    if (rest == std::to_string(l) + "/" + std::to_string(d)) return trim(name.substr(0, pos));
    return name;
}

struct Collector {
    std::vector<LayerName> out;
    std::set<std::tuple<std::string, int, int>> seen;
    void add(const std::string& raw_name, int l, int d) {
        if (l < 0 || l > 65535 || d < 0 || d > 65535) return;
        std::string name = trim(strip_layer_suffix(trim(raw_name), l, d));
        if (name.empty()) name = std::to_string(l) + "/" + std::to_string(d);
        if (!seen.insert({name, l, d}).second) return;
        if (out.size() >= kMaxEntries) throw std::runtime_error("more than 100000 layers");
        out.push_back({name, l, d});
    }
};

#ifdef GOLIGHTLY_HAVE_PUGIXML
/// One <properties> or <group-members> entry and its members; `parent` gives the wildcards.
void lyp_entry(const pugi::xml_node& node, const Spec& parent, Collector& c, int depth) {
    if (depth > kMaxDepth) throw std::runtime_error("groups nested deeper than 32");
    Spec src = parse_spec(node.child("source").text().as_string());
    if (!src.numbers) {  // "*/*@*" parses as numbers with wildcards; no source at all: the parent's
        src.layer = parent.layer;
        src.datatype = parent.datatype;
    } else {
        if (!src.layer) src.layer = parent.layer;
        if (!src.datatype) src.datatype = parent.datatype;
    }
    const std::string name = node.child("name").text().as_string();
    bool has_members = false;
    for (const pugi::xml_node& m : node.children("group-members")) {
        has_members = true;
        lyp_entry(m, src, c, depth + 1);
    }
    if (src.valid && src.layer && src.datatype && (src.numbers || !has_members)) {
        // No name: the source's layer name ("POLY 2/0@1"), else "l/d" (KLayout shows the source).
        c.add(trim(name).empty() ? src.name : name, *src.layer, *src.datatype);
    }
}

std::vector<LayerName> read_lyp(const std::string& text, const std::string& file) {
    pugi::xml_document doc;
    const pugi::xml_parse_result r = doc.load_buffer(text.data(), text.size(), pugi::parse_default);
    if (!r)
        throw std::runtime_error("the layer map " + file + " is not valid XML: " + r.description() + " at byte " +
                                 std::to_string(r.offset));
    Collector c;
    std::vector<pugi::xml_node> tabs;
    const pugi::xml_node root = doc.document_element();
    if (std::string(root.name()) == "layer-properties") tabs.push_back(root);
    for (const pugi::xml_node& t : root.children("layer-properties")) tabs.push_back(t);  // layer-properties-tabs
    if (tabs.empty())
        throw std::runtime_error("the layer map " + file + " is not a KLayout layer-properties file (root <" +
                                 limits::cap_text(root.name()) + ">)");
    for (const pugi::xml_node& tab : tabs)
        for (const pugi::xml_node& p : tab.children("properties")) lyp_entry(p, Spec{}, c, 0);
    return c.out;
}
#endif

#ifdef GOLIGHTLY_HAVE_YAML_CPP
/// [l, d] (a sequence of two integers) or a scalar "l/d", "(l, d)", "l, d".
std::optional<std::array<int, 2>> yaml_pair(const YAML::Node& n) {
    if (n.IsSequence() && n.size() == 2 && n[0].IsScalar() && n[1].IsScalar()) {
        try {
            return std::array<int, 2>{n[0].as<int>(), n[1].as<int>()};
        } catch (const YAML::Exception&) {
            return std::nullopt;
        }
    }
    if (!n.IsScalar()) return std::nullopt;
    std::string s = trim(n.Scalar());
    if (s.size() >= 2 && (s.front() == '(' || s.front() == '[') && (s.back() == ')' || s.back() == ']'))
        s = s.substr(1, s.size() - 2);
    std::replace(s.begin(), s.end(), ',', '/');
    const Spec sp = parse_spec(s);
    if (!sp.valid || !sp.numbers || !sp.name.empty() || !sp.layer || !sp.datatype) return std::nullopt;
    // nothing may follow the numbers
    std::string compact;
    for (char ch : s)
        if (!std::isspace(static_cast<unsigned char>(ch))) compact += ch;
    if (compact != std::to_string(*sp.layer) + "/" + std::to_string(*sp.datatype)) return std::nullopt;
    return std::array<int, 2>{*sp.layer, *sp.datatype};
}

std::string yaml_key(const YAML::Node& k) { return k.IsScalar() ? k.Scalar() : std::string(); }

void yaml_walk(const YAML::Node& node, const std::string& name, Collector& c, int depth);

/// A gdsfactory LayerView: {layer: [l, d] | gds_layer + gds_datatype, name?, group_members?}.
bool yaml_view(const YAML::Node& view, const std::string& key, Collector& c, int depth) {
    std::optional<std::array<int, 2>> ld;
    if (view["layer"]) ld = yaml_pair(view["layer"]);
    if (!ld && view["gds_layer"] && view["gds_datatype"]) {
        try {
            ld = std::array<int, 2>{view["gds_layer"].as<int>(), view["gds_datatype"].as<int>()};
        } catch (const YAML::Exception&) {
        }
    }
    const YAML::Node members = view["group_members"];
    if (!ld && !(members && members.IsMap())) return false;
    if (ld) {
        std::string name = key;
        if (view["name"] && view["name"].IsScalar() && !trim(view["name"].Scalar()).empty()) name = view["name"].Scalar();
        c.add(name, (*ld)[0], (*ld)[1]);
    }
    if (members && members.IsMap())
        for (const auto& kv : members) yaml_walk(kv.second, yaml_key(kv.first), c, depth + 1);
    return true;
}

void yaml_walk(const YAML::Node& node, const std::string& name, Collector& c, int depth) {
    if (depth > kMaxDepth) throw std::runtime_error("mappings nested deeper than 32");
    if (node.IsMap()) {
        if (depth > 0 && yaml_view(node, name, c, depth)) return;
        for (const auto& kv : node) {
            const std::string key = yaml_key(kv.first);
            if (const auto ld = yaml_pair(kv.second)) c.add(key, (*ld)[0], (*ld)[1]);
            else if (kv.second.IsMap() || kv.second.IsSequence()) yaml_walk(kv.second, key, c, depth + 1);
        }
    } else if (node.IsSequence()) {
        for (const auto& item : node)  // a list of views: [{name: WG, layer: [1, 0]}, ...]
            if (item.IsMap() && item["name"] && item["name"].IsScalar()) yaml_view(item, item["name"].Scalar(), c, depth + 1);
    }
}

std::vector<LayerName> read_yaml(const std::string& text, const std::string& file) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw std::runtime_error("the layer map " + file + " is not valid YAML: " + e.msg + " at line " +
                                 std::to_string(e.mark.line + 1) + ", column " + std::to_string(e.mark.column + 1));
    }
    Collector c;
    try {
        yaml_walk(root, "", c, 0);
    } catch (const YAML::Exception& e) {
        throw std::runtime_error("the layer map " + file + ": " + e.msg);
    }
    return c.out;
}
#endif

}  // namespace

bool lyp_layer_maps_available() {
#ifdef GOLIGHTLY_HAVE_PUGIXML
    return true;
#else
    return false;
#endif
}

bool yaml_layer_maps_available() {
#ifdef GOLIGHTLY_HAVE_YAML_CPP
    return true;
#else
    return false;
#endif
}

std::vector<LayerName> read_layer_map(const std::filesystem::path& file) {
    std::string text;
    try {
        text = read_regular_file(file, kMaxLayerMapBytes);
    } catch (const std::exception& e) {
        throw std::runtime_error("cannot read the layer map " + file.string() + ": " + e.what());
    }
    std::string ext = file.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    std::size_t first = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;  // UTF-8 byte order mark
    while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first]))) ++first;
    const bool xml = ext == ".lyp" || ext == ".xml" || (ext != ".yaml" && ext != ".yml" && first < text.size() && text[first] == '<');
    std::vector<LayerName> out;
    try {
        if (xml) {
#ifdef GOLIGHTLY_HAVE_PUGIXML
            out = read_lyp(text, file.string());
#else
            throw std::runtime_error("this build of GoLightly reads no KLayout .lyp files (built without pugixml, "
                                     "Debian libpugixml-dev)");
#endif
        } else {
#ifdef GOLIGHTLY_HAVE_YAML_CPP
            out = read_yaml(text, file.string());
#else
            throw std::runtime_error("this build of GoLightly reads no YAML layer maps (built without yaml-cpp, "
                                     "Debian libyaml-cpp-dev)");
#endif
        }
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        if (what.find(file.string()) != std::string::npos) throw;
        throw std::runtime_error("the layer map " + file.string() + ": " + what);
    }
    if (out.empty())
        throw std::runtime_error("the layer map " + file.string() +
                                 " names no layer (expected a KLayout .lyp with <properties>/<source> l/d, a gdsfactory "
                                 "layer_views.yaml with layer: [l, d], or NAME: [layer, datatype] entries)");
    return out;
}

}  // namespace golightly::gds
