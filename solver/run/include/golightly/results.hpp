// GoLightly results folder (project-format.md, "Outputs of a run").
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "golightly/project.hpp"
#include "golightly/run.hpp"

namespace golightly {

/// Writes a run's results under `dir` (created if missing):
///   spectra.csv          wavelength_um,frequency_thz,<monitor>...,<monitor>_flux... one row
///                        per spectrum point, increasing frequency; <monitor> is the normalized
///                        value when normalization ran, else the raw flux again
///   monitors/<name>.csv  time_fs,<name> per time monitor
///   fields/<name>.h5     per dft_field monitor (when HDF5 is compiled in): datasets "ez.r",
///                        "ez.i" (component lower-case) of shape [n_wavelengths][ny][nx]
///                        (3D runs: [n_wavelengths][nz][ny][nx]), attributes
///                        wavelengths_um, dx_um, origin (um; x, y, z in 3D)
///   fields/<name>.png    preview: |E|^2 (sum over the monitor's components) at its first
///                        wavelength, grey, rows top (max y) first
///   fields/final_frame.png
///   summary.json         steps, time_fs, wall_s, cells (nx*ny*nz), dimensions, mcells_per_s, backend, device,
///                        precision, stop_reason, warnings, plus version, project, normalization,
///                        reference run and divergence details, and kernel (RunResult::kernel)
///                        where the engine names one
/// Files are written to a temporary name and renamed. `extra_warnings` go into
/// summary.json too. Returns the warnings the writer itself added (e.g. no HDF5).
/// Throws std::runtime_error naming the file on I/O failure.
std::vector<std::string> write_results(const std::filesystem::path& dir, const Project& project,
                                       const RunResult& result,
                                       const std::vector<std::string>& extra_warnings = {});

/// summary.json for a run that failed before producing results (RunError): stop_reason
/// "failed" and the error message. Throws std::runtime_error on I/O failure.
void write_failure_summary(const std::filesystem::path& dir, const Project& project, const std::string& error,
                           const std::vector<std::string>& warnings);

/// The file name used for a monitor's outputs: the name with characters outside
/// [A-Za-z0-9._-] replaced by '_'.
std::string sanitize_file_name(const std::string& name);

}  // namespace golightly
