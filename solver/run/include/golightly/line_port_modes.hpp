#pragma once
// A 2D project's port line compiled alone as a mode monitor: the slab modes the port's
// mode source and S-parameter runs see (`golightly-cli modes` and the IDE's Port Modes dock).

#include <string>

#include "golightly/compile.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"  // Port

namespace golightly {

/// Compiles `project` with its sources and monitors replaced by one `mode` flux monitor on
/// the 2D port's line (as run_sparameters places its monitors: `port.center` +- `port.size`
/// / 2, `port.direction`, the port's `bend_radius` when set), listing modes 0 .. count - 1,
/// over three wavelengths wl_um (1 +- 1e-3) (the middle one wl_um; the others give the
/// group index), normalization off. The result's monitors[0].mode_plan holds the line's
/// modes (mode_plane.hpp ModeMonitorPlan: line_neff[f][m], line_e / line_h [f][m][node]).
/// Throws ProjectError for an invalid project or port (file named), std::runtime_error when
/// the line gives no mode plan.
CompiledProject compile_line_port_modes(const Project& project, const std::string& file, const Port& port,
                                        double wl_um, int count);

}  // namespace golightly
