// golightly-cli farfield RESULTS --monitor NAME [--theta LIST] [--phi LIST] [--wavelength UM] [--json]
//                               [--backend auto|cpu|cuda]
// (spec cli.md): a flux_box's far field in any directions, from the equivalent currents a
// run saved (results far_field/<name>_surface.csv), without a new run.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace golightly::cli {

struct FarFieldCommand {
    CLI::App* sub = nullptr;
    std::string results;  ///< a results folder or a far_field/<name>_surface.csv
    std::string monitor;
    std::string theta = "0:180:37";  ///< degrees: a list "0,30,90" or a range "START:STOP:POINTS"
    std::string phi = "0";
    double wavelength_um = 0;        ///< 0: every wavelength saved
    bool json = false;
    /// where the projection's sums run: "auto" (the CUDA device when one is present and the
    /// samples x directions exceed kFarFieldGpuWork), "cpu", or "cuda" (exit 1 without a device)
    std::string backend = "auto";
};

/// samples x directions from which `--backend auto` sums on the GPU (below, the copies cost
/// more than the CPU loop's ~10 ns per term)
constexpr double kFarFieldGpuWork = 1e6;

/// Adds the `farfield` sub-command to `app`; the returned object lives as long as the program.
FarFieldCommand* add_farfield_command(CLI::App& app);

/// Runs it: reads the surface currents (far_field/<monitor>_surface.csv: frequency_hz,
/// x_m, y_m, z_m, ds, J and M as re/im pairs; its first line "# dimensions D
/// polarization P"), projects them (golightly/far_field.hpp) to every (theta, phi) of the
/// lists (2D: phi only, theta is 90) at each saved wavelength (or the one nearest
/// --wavelength) and prints wavelength_um, theta_deg, phi_deg, intensity, e_theta re/im,
/// e_phi re/im per line, or with --json {"dimensions", "directions": [{"wavelength_um",
/// "theta_deg", "phi_deg", "intensity", "e_theta": [re, im], "e_phi": [re, im]}]}.
/// The sums N, L run on the GPU per `backend` (golightly/cuda_far_field.hpp); results equal
/// the CPU's to rounding.
/// Returns 0; 1 for bad arguments (no such monitor or file, an unreadable list or file,
/// `--backend cuda` without a CUDA device).
int run_farfield_command(const FarFieldCommand& c);

}  // namespace golightly::cli
