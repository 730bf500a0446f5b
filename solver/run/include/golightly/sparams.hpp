// GoLightly: ports and S-parameters (spec project-format.md "Ports and S-parameters",
// cli.md `sparams`): one run per excited port and mode, mode expansion at every port,
// Touchstone and CSV output, reciprocity and passivity checks.
#pragma once

#include <complex>
#include <filesystem>
#include <string>
#include <vector>

#include "golightly/project.hpp"
#include "golightly/run.hpp"

namespace golightly {

/// One port of the top-level `ports` list: a plane across a waveguide (center, size with
/// one zero entry; in 2D projects a line: center [x, y], size [sx, sy] with one zero),
/// `direction` along its normal pointing into the device, the mode indices it carries
/// (`modes`, default [0]). 3D ports use the cross-section mode solver, 2D ports the 1D
/// slab solver of the `mode` line source.
struct Port {
    std::string name;
    Vec3 center, size;
    std::string direction;
    std::vector<int> modes;
};

/// Reads project.extra["ports"]. Throws ProjectError (file_label, "ports[i].field") for a
/// missing or malformed entry, a direction not along the plane's normal, fewer than one
/// port, or a duplicate name.
std::vector<Port> parse_ports(const Project& project, const std::string& file_label);

/// The scattering matrix over the run spectrum. Port-modes are numbered in port order,
/// then mode order: label k = "<port name>:<mode>".
struct SParameters {
    std::vector<double> frequency_hz;  ///< increasing
    std::vector<std::string> labels;   ///< N port-modes
    /// s[i][j][f]: wave leaving through port-mode i when port-mode j is excited, reference
    /// planes at the port planes (see run_sparameters)
    std::vector<std::vector<std::vector<std::complex<double>>>> s;
    std::vector<std::string> warnings;  ///< reciprocity / passivity, and the runs' warnings
    std::vector<RunResult> runs;        ///< one per excited port-mode (spectra, summary)
};

/// Runs one simulation per port-mode j (the project's sources replaced by a mode source
/// (3D: mode_plane.hpp add_mode_plane_source; 2D: a `mode` line source) on port j's plane, launching mode m_j along the
/// port's direction; the waveform of the project's first source, else a gaussian pulse
/// covering the spectrum; normalization off) with a mode monitor 2 cells inside every
/// port (along its direction, clear of the source's TF/SF sheets). Then
///   S_ij(f) = b_i(f) / a_j(f) * exp(i (beta_i + beta_j) d),
/// a_j the amplitude of the launched mode entering the device at port j's monitor, b_i
/// the amplitude of mode m_i leaving through port i's monitor (its backward amplitude,
/// monitors point into the device), d = 2 cells, beta the lattice wavenumber
/// (2/dx) asin(n_eff k0~ dx / 2) of each mode: the reference planes are moved back onto
/// the port planes. Warnings (SParameters::warnings) when max_f |S_ij - S_ji| exceeds
/// `reciprocity_tol` or a column's power sum_i |S_ij|^2 exceeds 1 + `passivity_tol`.
/// Throws ProjectError (parse_ports, compile) and RunError as run_project; a run that
/// does not end by decay or max time is a RunError naming the port.
SParameters run_sparameters(const Project& project, const std::string& file_label, const RunOptions& options,
                            double reciprocity_tol = 0.02, double passivity_tol = 0.02);

/// Touchstone 1.1 (`# Hz S RI R 50`): one data block per frequency: N = 1: S11;
/// N = 2: S11 S21 S12 S22 on one line; N >= 3: row i (S_i1 .. S_iN) on its own lines, at
/// most 4 pairs per line. Comment lines name the port-modes. Throws std::runtime_error
/// when the file cannot be written.
void write_touchstone(const std::filesystem::path& file, const SParameters& s);

/// CSV: wavelength_um,frequency_thz,S<i><j>_re,S<i><j>_im,... (i receiving, j exciting,
/// 1-based; for N > 9 the indices are separated: S<i>_<j>), rows by increasing frequency.
void write_sparams_csv(const std::filesystem::path& file, const SParameters& s);

}  // namespace golightly
