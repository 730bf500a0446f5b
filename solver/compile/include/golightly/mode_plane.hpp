// GoLightly: the cross-section of a 3D project on a plane (a mode source's, mode monitor's
// or port's plane), sampled for the full-vector mode solver (mode_solver2d.hpp) with the
// same sub-pixel averaged permittivity as the FDTD run.
#pragma once

#include <vector>

#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"

namespace golightly {

/// A plane's cross-section on the project's Yee grid. Local axes (u, v, w) are a cyclic
/// permutation of (x, y, z) with w the plane's normal: normal x -> (y, z, x), normal y ->
/// (z, x, y), normal z -> (x, y, z), so (u, v, w) is right-handed and the mode's E_u is the
/// FDTD's E along axis_u at the same Yee nodes.
struct CrossSection {
    ModeGrid2D grid;      ///< the window, in cells of domain.cell_size
    ModeMedium2D medium;  ///< eps at the E_u, E_v, E_w nodes (mode_solver2d.hpp shapes)
    int axis_u = 0, axis_v = 1, axis_w = 2;
    /// Project coordinates (um) of the window's corner (u = 0, v = 0) along axis_u,
    /// axis_v, and the plane's position along axis_w (an integer node of the grid: the
    /// E_u, E_v nodes; E_w is sampled half a cell further, at its own Yee node).
    double u0_um = 0, v0_um = 0, w_um = 0;
    /// Grid index (interior numbering, node 0 at the domain's lower corner) of the window
    /// corner along axis_u, axis_v, and of the plane along axis_w.
    int i0_u = 0, i0_v = 0, i_w = 0;
};

/// Samples the cross-section of a 3D project (domain.dimensions 3) on the plane `center`,
/// `size` (um; exactly one entry of size is 0: the normal). The window is snapped to the
/// grid: corner at the nearest node of (center - size/2), N = round(size / dx) cells per
/// axis (at least 2), the plane at the nearest node of center along the normal.
/// Permittivity: average_medium_3d (geometry.hpp, the FDTD's sub-pixel averaging when
/// run.subpixel_averaging, else staircase) of the main run's layers (reference_run false)
/// or the reference run's, for E_u, E_v at the plane's nodes and E_w half a cell above.
/// Window walls: `boundary` on both axes (PEC by default: a guided mode must have decayed
/// at the window's edge). Throws ProjectError (json_path) for a 2D project, a size without
/// exactly one zero entry, or a window of fewer than 2 cells along an axis.
CrossSection sample_cross_section(const Project& project, const Vec3& center, const Vec3& size, bool reference_run,
                                  const std::string& json_path, const std::string& file_label,
                                  ModeBoundary boundary = ModeBoundary::pec);

}  // namespace golightly
