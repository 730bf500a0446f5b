// GoLightly material library: writing the personal library (material_library.hpp).
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "golightly/atomic_file.hpp"
#include "golightly/errors.hpp"
#include "golightly/material_library.hpp"

namespace golightly {

std::filesystem::path save_to_personal_material_library(const Material& material, const std::string& source) {
    const auto file = personal_material_library_path();
    if (file.empty())
        throw ProjectError("materials.json", "", "no personal library folder: neither XDG_DATA_HOME nor HOME is set");
    const std::string label = file.string();
    if (material.id.empty()) throw ProjectError(label, "id", "a library material needs an id");
    std::error_code ec;
    Json doc;
    if (std::filesystem::exists(file, ec)) {
        load_material_library(file);  // throws ProjectError when the existing file is broken
        std::ifstream in(file, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        doc = Json::parse(ss.str());
    } else {
        doc = Json::object();
        doc["format"] = "golightly-material-library";
        doc["version"] = 1;
        doc["units"] = "omega_p, omega_0, gamma in rad/s (1 eV = 1.519267e15 rad/s); conductivity in S/m";
        doc["materials"] = Json::array();
    }
    Json entry = material_to_json(material);
    if (!source.empty()) entry["source"] = source;
    else if (entry.contains("source") && !entry["source"].is_string()) entry.erase("source");
    bool replaced = false;
    for (auto& m : doc["materials"])
        if (m.is_object() && m.value("id", std::string()) == material.id) {
            m = entry;
            replaced = true;
        }
    if (!replaced) doc["materials"].push_back(entry);

    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) throw ProjectError(label, "", "cannot create the folder: " + ec.message());
    try {
        write_file_atomic(file, doc.dump(1) + "\n");
    } catch (const std::exception& e) {
        throw ProjectError(label, "", std::string("cannot write the personal material library: ") + e.what());
    }
    return file;
}

}  // namespace golightly
