// golightly-cli modes PROJECT [--port NAME] [--wavelength UM] [--count N] [--out DIR]
// (spec cli.md): the waveguide modes of a project's ports as the mode solver sees them (3D:
// the ports' cross-sections; 2D: the ports' lines, 1D slab modes).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace golightly::cli {

struct ModesCommand {
    CLI::App* sub = nullptr;
    std::string project, port, out;
    double wavelength_um = 0;  ///< 0: the spectrum's centre (wavelength_min + wavelength_max) / 2
    int count = 0;             ///< 0: max(port modes) + 1
};

/// Adds the `modes` sub-command to `app`; the returned object lives as long as the program.
ModesCommand* add_modes_command(CLI::App& app);

/// Runs it. For each port (or only --port NAME) of a 3D project: the port's cross-section
/// (mode_plane.hpp sample_cross_section, the window walls of the port's `mode_boundary`)
/// and its modes at the wavelength (solve_modes_2d at k0 = 2 pi / wavelength; the runs
/// solve at the Yee scheme's numerical k0, which differs by (omega dt)^2 / 24 relative).
/// Writes into DIR (default <project stem>_modes next to the project):
///   modes.csv   port,mode,wavelength_um,n_eff,n_group,te_fraction,dominant,n_eff_imag,
///               loss_db_per_cm
///   modes.json  {"project", "wavelength_um", "ports": [{"name", "normal", "axes",
///               "window": {"cells", "dx_um", "origin_um", "boundary"}, "modes": [{"mode",
///               "n_eff", "n_eff_imag", "loss_db_per_cm", "n_group", "te_fraction",
///               "dominant", "csv", "png_abs", "png_dominant"}]}]}
/// The materials are evaluated at the wavelength (eps(omega) with poles and conductivity,
/// mode_plane.hpp cross_section_medium); a lossy cross-section gives complex n_eff:
/// n_eff_imag = Im beta / k0 (> 0: decay along the port's normal), loss_db_per_cm the
/// power loss (VectorMode); both 0 for lossless ones.
///   <port>_mode<k>.csv          <u>_um,<v>_um,abs_E,Ex,Ey,Ez on the window's cell centres
///                               (u fastest), max |E| = 1, the longitudinal component as
///                               its imaginary part (it is 90 degrees ahead)
///   <port>_mode<k>_absE.png     |E| (white 0 .. red 1), u to the right, v up, the
///                               structure's outline in grey
///   <port>_mode<k>_<Ec>.png     the dominant component Ec (blue - white - red)
/// A port's `target_neff` and `filter` apply (mode_plane.hpp parse_mode_selection): the
/// modes listed are the filtered ones nearest the target, by decreasing n_eff.
/// te_fraction: the share of the transverse sum |E|^2 along the wafer-plane axis across
/// the port (y for an x-normal port, x for a y-normal or z-normal one). Prints one line
/// per mode. A window beyond the mode solver's limits (mode_cache.hpp
/// check_mode_solve_limits) is refused before solving (ProjectError ports[i].size).
/// 2D projects: each port line's slab modes as the `mode` line source and the S-parameter
/// runs see them (compile_project of the line as a mode monitor at wavelength (1 +- 1e-3):
/// n_eff at the Yee scheme's numerical k0, n_group = n_eff + f dn_eff/df); the same
/// modes.csv columns (te_fraction empty, the loss columns 0), modes.json with
/// "dimensions": 2 and "polarization", and per guided mode <port>_mode<k>.csv
/// (<t>_um,<E>,eta0_<H> along the line); no pictures.
/// Returns 0; 1 for an unknown --port; 3 when the solver fails or a file cannot be
/// written. Throws ProjectError (exit 2): invalid project, no ports.
int run_modes_command(const ModesCommand& c);

}  // namespace golightly::cli
