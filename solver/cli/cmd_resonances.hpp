// golightly-cli resonances RESULTS [--monitor NAME] [--band MIN:MAX] [--after FS] [--q-min Q] [--json]
// (spec cli.md): the resonances (frequency, Q, amplitude, phase) of a run's time-monitor
// signals, found by Harminv's filter diagonalization (golightly/resonance_finder.hpp).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace golightly::cli {

struct ResonancesCommand {
    CLI::App* sub = nullptr;
    std::string results;  ///< a results folder (its monitors/*.csv) or one monitor CSV
    std::string monitor;  ///< only this monitor
    std::string band;     ///< "MIN:MAX", vacuum wavelengths in um
    double after_fs = -1; ///< analyse the samples after this time; < 0: the run's choice (summary.json), else all
    double q_min = 50;
    bool json = false;
};

/// Adds the `resonances` sub-command to `app`; the returned object lives as long as the program.
ResonancesCommand* add_resonances_command(CLI::App& app);

/// Runs it. For each time monitor of RESULTS (a folder written by `run`: monitors/<name>.csv
/// with time_fs,<value> rows; or one such CSV): its samples (uniform in time: a CSV whose
/// times are not is refused), cut to t > --after (default: the run's own analysis start
/// from summary.json "resonances" for that monitor, else every sample), searched over
/// --band (default: the band the run used for that monitor, else the error asks for
/// --band). Prints a table (monitor, frequency_thz, wavelength_um, Q, decay_per_fs,
/// amplitude, phase_rad, error) or with --json one object {monitor: {t0_fs, samples,
/// band_um, modes: [...]}} in summary.json's "resonances" form.
/// Returns 0; 1 for bad arguments (no such monitor, no band, unreadable CSV); 3 when the
/// build has no Harminv.
int run_resonances_command(const ResonancesCommand& c);

}  // namespace golightly::cli
