// GoLightly: the structure of the normalization (reference) run for mode sources.
//
// A mode source launches the guided mode of the structure under it. The reference run of
// run.normalization takes only the layers named in run.normalization.reference_layers, so a
// project whose reference structure has no guide under a mode source cannot launch that
// mode there ("no guided mode 0"). What Lumerical and Meep users build by hand for a bend
// or a splitter is the straight input waveguide: the cross-section under the source,
// extended through the whole domain along the source's propagation axis. These functions
// derive it, so that the CLI's run and the IDE's Normalize use one rule.
//
// Only mode sources have a section here: plane-wave, point, region and TF/SF sources keep
// the background (or the named layers) as their reference. Ports need none: their runs
// (S-parameters) are never normalized.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "golightly/project.hpp"

namespace golightly {

/// The cross-section under a mode source: the line (2D) or plane (3D) the mode solver
/// sees. axis: the propagation axis (the line's or plane's normal, 0 x, 1 y, 2 z);
/// position_um: its coordinate along that axis; u (and v in 3D): the in-section axes with
/// their ranges, um.
struct SourceSection {
    std::size_t source_index = 0;
    int axis = 0;
    double position_um = 0;
    int u_axis = 1, v_axis = -1;  ///< v_axis -1 in 2D
    double u0 = 0, u1 = 0, v0 = 0, v1 = 0;
};

/// The section of sources[index] when it is a mode source (2D: a `line` with profile
/// `mode`, axis-aligned; 3D: a `plane` with profile `mode`); false otherwise.
bool mode_source_section(const Project& project, std::size_t index, SourceSection& out);

/// True when the structure of the chosen run (reference_run: the layers named in
/// run.normalization.reference_layers; else the main run's layers) guides light under the
/// section: somewhere inside it the permittivity (epsilon_inf, coverage-weighted on a
/// grid of the project's cell size) exceeds the largest value on the section's ends (2D)
/// or border (3D) by more than 1e-9 relative. A necessary condition for a guided mode
/// (the slab and cross-section solvers need n_eff above the cladding's index).
/// Errors: ProjectError from the coverage (bad shapes, unknown materials).
bool section_has_guide(const Project& project, const SourceSection& section, bool reference_run);

/// The straight input waveguide under mode source sources[index], taken from the main
/// run's structure: one layer per material other than the background found in the
/// section, flagged reference_only, visible, without z range, named
/// "Reference: <source name> guide" (with " (<material id>)" appended when the section
/// holds several materials). 2D: a rectangle per run of that material along the line, its
/// ends placed by the boundary samples' coverage fractions (exact for one interface per
/// cell), spanning the domain along the axis, PML included. 3D: the section on a grid of
/// the cell size, each sample given the material covering most of it, merged into
/// rectangles, each a `box` spanning the domain along the axis (the 2D section extruded;
/// faces to one cell). Empty when the source is not a mode source or its section holds
/// only the background. Errors: as section_has_guide.
std::vector<Layer> derive_reference_layers(const Project& project, std::size_t index);

/// What complete_reference_structure did.
struct ReferenceSetup {
    std::vector<std::string> added_layers;       ///< derived layers appended to project.layers
    std::vector<std::string> reference_layers;   ///< run.normalization.reference_layers after it
    /// Mode sources whose reference structure still has no guide (their main structure has
    /// none either: the main run fails there too), by name.
    std::vector<std::string> unguided_sources;
};

/// The one-click reference structure (the IDE's Normalize, and `run` when no reference
/// layer is named): when run.normalization.reference_layers is empty it becomes the
/// project's reference-only layers; then, for each mode source whose reference structure
/// has no guide under it (section_has_guide), the layers of derive_reference_layers are
/// appended (a layer of the same name that exists already is named instead of added
/// again, so a second call adds nothing) and named in reference_layers. Does not touch
/// run.normalization.enabled. Errors: as section_has_guide.
ReferenceSetup complete_reference_structure(Project& project);

/// The project the normalization run compiles (compile_phases, `check`): `project` itself
/// when every mode source has a guide in its reference structure; when none is named in
/// run.normalization.reference_layers, the project completed by
/// complete_reference_structure (notes gets one line naming the derived layers). Throws
/// ProjectError(file_label, "run.normalization.reference_layers", ...) saying that the
/// reference (normalization) run has no guide under mode source '<name>' at <axis> = ..
/// um, what its reference structure is and what to do, when layers are named but none
/// guides there, or when the main structure has no guide there to derive from.
Project reference_run_project(const Project& project, const std::string& file_label,
                              std::vector<std::string>* notes = nullptr);

}  // namespace golightly
