// GoLightly material library: the bundled library (resources/materials/library.json,
// every parameter set with its published source) plus the user's personal library.
//
// File format (JSON): {"format": "golightly-material-library", "version": 1,
//   "units": "...", "materials": [MATERIAL, ...]} where MATERIAL is a material object of
// the project format (project-format.md: rad/s, S/m) with an extra "source" string citing
// where its parameters come from. Other keys are kept in Material::extra.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "golightly/project.hpp"

namespace golightly {

struct LibraryMaterial {
    Material material;
    std::string source;                ///< citation of the parameters ("" if the file gives none)
    std::filesystem::path library;     ///< the file it came from
    bool personal = false;             ///< from the personal library
};

/// Reads one library file. Throws ProjectError (file, JSON path) when the file cannot be
/// read, is not JSON, lacks "materials", or a material is invalid or repeats an id.
std::vector<LibraryMaterial> load_material_library(const std::filesystem::path& file);

/// The bundled library file: $GOLIGHTLY_MATERIAL_LIBRARY if set, else
/// <executable dir>/../share/golightly/materials/library.json, else the source tree's
/// resources/materials/library.json. Returns the first that exists ("" if none).
std::filesystem::path bundled_material_library_path();

/// The personal library file: $XDG_DATA_HOME/golightly/materials.json, or
/// $HOME/.local/share/golightly/materials.json when XDG_DATA_HOME is unset ("" when
/// neither variable is set). It need not exist.
std::filesystem::path personal_material_library_path();

/// Bundled materials, then personal ones; a personal material with the id of a bundled
/// one replaces it (in place). A missing personal file is not an error; a missing
/// bundled library throws ProjectError. Errors in either file throw ProjectError.
std::vector<LibraryMaterial> material_library();

/// Adds `material` (with `source` as its "source" string; "" writes none) to the personal
/// library file (personal_material_library_path()), replacing a material with the same id
/// and keeping the others and every other key of the file; creates the file and its
/// folders when absent. Written atomically (temporary file, then rename). Returns the file.
/// Throws ProjectError when there is no personal library path, the existing file is not a
/// library, or it cannot be written.
std::filesystem::path save_to_personal_material_library(const Material& material, const std::string& source);

}  // namespace golightly
