// GoLightly material library (material_library.hpp).
#include "golightly/material_library.hpp"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"

#ifndef GOLIGHTLY_SOURCE_RESOURCES
#define GOLIGHTLY_SOURCE_RESOURCES ""
#endif

namespace golightly {

std::vector<LibraryMaterial> load_material_library(const std::filesystem::path& file) {
    const std::string label = file.string();
    std::string text;
    try {  // regular files only, at most limits::kMaxLibraryFileBytes
        text = read_regular_file(file, limits::kMaxLibraryFileBytes);
    } catch (const FileReadError& e) {
        throw ProjectError(label, "", std::string("cannot read the material library file: ") + e.what());
    }
    Json j;
    try {
        j = Json::parse(text);
    } catch (const std::exception& e) {
        throw ProjectError(label, "", std::string("not valid JSON: ") + e.what());
    }
    if (!j.is_object() || !j.contains("materials") || !j["materials"].is_array())
        throw ProjectError(label, "materials", "a material library needs a \"materials\" array");
    std::vector<LibraryMaterial> out;
    std::set<std::string> ids;
    const Json& list = j["materials"];
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string path = "materials[" + std::to_string(i) + "]";
        LibraryMaterial lm;
        lm.material = material_from_json(list[i], path, label);
        if (lm.material.id.empty()) throw ProjectError(label, path + ".id", "must not be empty");
        if (!ids.insert(lm.material.id).second)
            throw ProjectError(label, path + ".id", "material id '" + lm.material.id + "' appears twice");
        auto it = lm.material.extra.find("source");
        if (it != lm.material.extra.end()) {
            if (!it->is_string()) throw ProjectError(label, path + ".source", "must be a string");
            lm.source = it->get<std::string>();
        }
        lm.library = file;
        out.push_back(std::move(lm));
    }
    return out;
}

std::filesystem::path bundled_material_library_path() {
    std::error_code ec;
    if (const char* env = std::getenv("GOLIGHTLY_MATERIAL_LIBRARY"); env && *env) return env;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto p = exe.parent_path().parent_path() / "share" / "golightly" / "materials" / "library.json";
        if (std::filesystem::exists(p, ec)) return p;
    }
    const std::string src = GOLIGHTLY_SOURCE_RESOURCES;
    if (!src.empty()) {
        const auto p = std::filesystem::path(src) / "materials" / "library.json";
        if (std::filesystem::exists(p, ec)) return p;
    }
    return {};
}

std::filesystem::path personal_material_library_path() {
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
        return std::filesystem::path(x) / "golightly" / "materials.json";
    if (const char* h = std::getenv("HOME"); h && *h)
        return std::filesystem::path(h) / ".local" / "share" / "golightly" / "materials.json";
    return {};
}

std::vector<LibraryMaterial> material_library() {
    const auto bundled = bundled_material_library_path();
    if (bundled.empty())
        throw ProjectError("library.json", "",
                           "the bundled material library was not found (set GOLIGHTLY_MATERIAL_LIBRARY)");
    std::vector<LibraryMaterial> out = load_material_library(bundled);
    const auto personal = personal_material_library_path();
    std::error_code ec;
    if (!personal.empty() && std::filesystem::exists(personal, ec)) {
        for (LibraryMaterial& lm : load_material_library(personal)) {
            lm.personal = true;
            bool replaced = false;
            for (LibraryMaterial& b : out)
                if (b.material.id == lm.material.id) {
                    b = lm;
                    replaced = true;
                }
            if (!replaced) out.push_back(std::move(lm));
        }
    }
    return out;
}

}  // namespace golightly
