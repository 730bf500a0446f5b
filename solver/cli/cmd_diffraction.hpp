// golightly-cli diffraction RESULTS [--monitor NAME] [--wavelength UM] [--json] (spec
// cli.md): the Floquet (diffraction) orders a run's diffraction monitors recorded
// (diffraction/<name>.csv, project-format.md "Diffraction monitors") as a table.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace golightly::cli {

struct DiffractionCommand {
    CLI::App* sub = nullptr;
    std::string results;      ///< a results folder (its diffraction/*.csv) or one such CSV
    std::string monitor;      ///< only this monitor
    double wavelength_um = 0; ///< > 0: only the spectrum point nearest it
    bool json = false;
};

/// Adds the `diffraction` sub-command to `app`; the returned object lives as long as the program.
DiffractionCommand* add_diffraction_command(CLI::App& app);

/// Runs it: per monitor (sorted by name) and wavelength, one line per propagating order
/// (order_x, order_y, order_z, theta_deg, phi_deg, power_fraction, s and p fractions) and
/// the wavelength's total; with --json one object {monitor: [{wavelength_um, total,
/// orders: [{order: [mx, my, mz], theta_deg, phi_deg, power_fraction, power_s_fraction,
/// power_p_fraction}]}]}. Returns 0; 1 for no such folder, file or monitor, or a CSV
/// without the expected header.
int run_diffraction_command(const DiffractionCommand& c);

}  // namespace golightly::cli
