// GoLightly: ports and S-parameters (spec project-format.md "Ports and S-parameters",
// cli.md `sparams`): one run per excited port and mode, mode expansion at every port,
// Touchstone and CSV output, reciprocity and passivity checks.
#pragma once

#include <complex>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/sweep.hpp"

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
    /// `mode_boundary` (3D only; mode_plane.hpp mode_window_boundaries): the walls of the
    /// port's mode window, handed to its mode source and mode monitor; null when absent.
    Json mode_boundary;
    /// `target_neff` (> 0; 0 when absent) and `filter` ("te" | "tm"; empty when absent or
    /// "none"), 3D only (mode_plane.hpp parse_mode_selection): handed to the port's mode
    /// source and mode monitor, so `modes` index the filtered modes near the target.
    double target_neff = 0;
    std::string filter;
    /// `bend_radius` (um, signed; 0 when absent) and `bend_axis` ("x" | "y" | "z"; empty
    /// when straight; 3D only) (mode_plane.hpp parse_mode_selection): the port is the
    /// cross-section of a bend; handed to its mode source and mode monitor. A 2D port's
    /// line takes bend_radius alone (it bends about z: its bent slab modes,
    /// mode_solver_bend.hpp; R > 0 puts the centre of curvature on the line's low side).
    double bend_radius_um = 0;
    std::string bend_axis;
};

/// Reads project.extra["ports"]. Throws ProjectError (file_label, "ports[i].field") for a
/// missing or malformed entry, a direction not along the plane's normal, fewer than one
/// port, a duplicate name, or a bad `mode_boundary`, `target_neff`, `filter`, `bend_radius`
/// or `bend_axis` (or, on a 2D project's port, any of them but `bend_radius`).
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

/// One excited port-mode: port index (into parse_ports' list) and mode index.
struct PortMode {
    int port = 0, mode = 0;
};

/// The port-modes in port order, then mode order (the S-matrix's index k), and their
/// labels "<port name>:<mode>".
std::vector<PortMode> port_modes(const std::vector<Port>& ports);
std::vector<std::string> port_mode_labels(const std::vector<Port>& ports);

/// The simulation of port-mode j (0 <= j < port_modes(...).size()): the project with its
/// sources replaced by a mode source (3D: mode_plane.hpp add_mode_plane_source; 2D: a
/// `mode` line source) on port j's plane, launching mode m_j along the port's direction
/// (the waveform of the project's first source, else a gaussian pulse covering the
/// spectrum), normalization off, and its monitors replaced by a mode monitor 2 cells
/// inside every port (along its direction, clear of the source's TF/SF sheets; named
/// "port_<name>", in port order) followed by the project's own `flux` and `flux_box`
/// monitors that are not mode monitors (their raw spectra in the run's `spectra`, after
/// the ports'). Throws ProjectError (parse_ports) and std::out_of_range for a bad j.
Project port_mode_project(const Project& project, const std::string& file_label, std::size_t j);

/// Validates the ports as the port-mode runs use them, before any run (golightly-cli run
/// and sparams call it before the runs, check calls it too: the same refusals in the same
/// words): parse_ports, then for each port the compile (compile_project) of its mode source
/// (of its highest listed mode) and its mode monitor, as in port_mode_project: the plane
/// inside the domain, its direction along its normal, the mode solver's window and options
/// (bend_radius / bend_axis included) and the listed modes found. A ProjectError of the
/// derived project's source or monitor is re-thrown naming the port: json_path
/// "ports[i]" + the field's suffix (the source's / monitor's `mode_index` and `modes` as
/// the port's `modes`), message "port '<name>': " + the original message.
/// Throws ProjectError (file_label, "ports[i].field"); cost: one compile per port (its mode
/// solves over the spectrum).
void validate_ports(const Project& project, const std::string& file_label);

/// Runs port_mode_project(project, file_label, j) (run_project with `options`). Throws as
/// run_project; a run that does not end by decay, max time or max steps is a RunError
/// naming the port.
RunResult run_port_mode(const Project& project, const std::string& file_label, const RunOptions& options,
                        std::size_t j);

/// Column j of the scattering matrix from the run of port-mode j: col[i][f] =
///   S_ij(f) = b_i(f) / a_j(f) * exp(i (beta_i + beta_j) d),
/// a_j the amplitude of the launched mode entering the device at port j's monitor, b_i
/// the amplitude of mode m_i leaving through port i's monitor (its backward amplitude,
/// monitors point into the device), d = 2 cells, beta the lattice wavenumber
/// (2/dx) asin(n_eff k0~ dx / 2) of each mode (n_eff from the run's mode monitors): the
/// reference planes are moved back onto the port planes. Throws RunError when the run
/// does not hold one mode monitor entry per port-mode.
std::vector<std::vector<std::complex<double>>> sparameter_column(const Project& project, const std::string& file_label,
                                                                 const RunResult& run, std::size_t j);

/// The scattering matrix of all port-mode runs (runs[j]: the run of port-mode j), s[i][j][f],
/// as S = B A^-1 per frequency: A[k][j] = a_k of run j (the amplitude of port-mode k
/// entering the device at its port's monitor, its forward amplitude), B[i][j] = b_i of run j
/// (port-mode i leaving, its backward amplitude), both moved back onto the port planes by
/// exp(i beta d) as in sparameter_column. Each run's fields are the response to all the
/// modes it launches, so dividing by the driven amplitude alone (sparameter_column) counts
/// as scattering what the source put into another mode of the driven port (a mode source
/// of the centre wavelength launches some of the port's other modes at the band's ends)
/// and what the other ports reflect back in; S = B A^-1 removes both (the multi-mode
/// extraction of, e.g., Meep's and Tidy3D's mode-solver ports). With one mode per port and
/// no incident wave at the other ports it reduces to sparameter_column. Port-modes whose
/// driven amplitude is 0 at a frequency (beyond their cutoff) are left out there (their
/// rows and columns 0); where A is singular (a pivot below 1e-12 of its largest entry) the
/// columns fall back to sparameter_column's b_i / a_j and one line is appended to
/// `warnings` (when given). Throws RunError when runs.size() is not the port-mode count, a
/// run lacks a mode monitor entry per port-mode, or the runs' spectra differ.
std::vector<std::vector<std::vector<std::complex<double>>>> sparameter_matrix(const Project& project,
                                                                             const std::string& file_label,
                                                                             const std::vector<RunResult>& runs,
                                                                             std::vector<std::string>* warnings = nullptr);

/// Runs one port-mode simulation (how: `runner`, see run_sparameters).
/// Returns the run of port-mode j; `worker` is the job queue's worker index (0..workers-1).
using PortModeRunner = std::function<RunResult(std::size_t j, int worker)>;

/// Runs one simulation per port-mode j (port_mode_project, run_port_mode) and assembles
/// the matrix from all of them (sparameter_matrix: S = B A^-1). The runs go through sweep.hpp's
/// run_job_queue on `workers` workers (at most one run per worker at a time); `runner`
/// (null: run_port_mode with `options` in this process) runs port-mode j on a worker,
/// e.g. as a child process on its own device (golightly-cli sparams --devices). The
/// result does not depend on the workers or the order in which the runs finish.
/// Warnings (SParameters::warnings, in port-mode order): each run's, a run that stopped
/// before its fields decayed, then max_f |S_ij - S_ji| above `reciprocity_tol` and a
/// column's power sum_i |S_ij|^2 above 1 + `passivity_tol` (sparameter_warnings).
/// Validates the ports first (validate_ports).
/// Throws ProjectError (parse_ports, validate_ports, compile) and RunError as run_project; the first
/// exception of a run stops the queue and is rethrown after the running runs end.
SParameters run_sparameters(const Project& project, const std::string& file_label, const RunOptions& options,
                            double reciprocity_tol = 0.02, double passivity_tol = 0.02,
                            const PortModeRunner& runner = {}, int workers = 1);

/// The runner of `sparams --concurrent`: port-mode j runs in this process (run_port_mode
/// with `options`) on the CUDA device plan.ordinal_of(worker), the devices selected per
/// worker (DeviceSelection list of one ordinal). Hand run_sparameters plan.workers()
/// workers: with plan.concurrent > 1 several port-mode runs are threads sharing each
/// device, each engine on its own stream (engine.hpp), as sweep.hpp's in_process_runner
/// does for designs. The results equal one run at a time bit for bit (each run is
/// deterministic on its stream). A plan without devices runs every port-mode with
/// `options` unchanged. Throws nothing itself; the runner throws as run_port_mode.
PortModeRunner in_process_port_mode_runner(const Project& project, const std::string& file_label,
                                           const RunOptions& options, const DevicePlan& plan);

/// The device state of one port-mode run (engine_state_bytes of port-mode 0's compiled
/// scene at `precision`, bytes), what `--concurrent auto` divides the free device memory
/// by (sweep.hpp auto_concurrency). Cost: one compile (port 0's mode solves). Throws as
/// compile_project.
std::size_t port_mode_state_bytes(const Project& project, const std::string& file_label, Precision precision);

/// The matrix of all port-mode runs (runs[j]: the run of port-mode j, as run_port_mode
/// returns it): labels, frequencies, the matrix (sparameter_matrix), the runs' warnings and
/// sparameter_warnings. Throws RunError when runs.size() is not the port-mode count or the
/// runs' spectra differ.
SParameters assemble_sparameters(const Project& project, const std::string& file_label, std::vector<RunResult> runs,
                                 double reciprocity_tol = 0.02, double passivity_tol = 0.02);

/// The reciprocity and passivity checks of a matrix `s` (s[i][j][f], labels and
/// frequencies as SParameters): one warning per pair i < j with
/// max_f |S_ij - S_ji| > reciprocity_tol ("reciprocity: |S12 - S21| = ... at ... um
/// (tolerance ...)"), one per column j with max_f sum_i |S_ij|^2 > 1 + passivity_tol
/// ("passivity: sum_i |S_i1|^2 = ... at ... um (above 1 + ...)"). Indices are 1-based.
std::vector<std::string> sparameter_warnings(const SParameters& s, double reciprocity_tol, double passivity_tol);

/// One port-mode run as a JSON document (what a child process hands back to
/// run_sparameters' runner): stop reason, steps, time, wall time, backend, device,
/// warnings, frequencies, the flux spectra (name, raw flux) and the mode coefficients
/// (monitor, mode, fwd, bwd as [re, im] pairs, n_eff, and n_eff_imag where the run has
/// it). Doubles are written so that they
/// read back bit for bit. port_mode_run_from_json throws std::runtime_error on a
/// malformed document.
Json port_mode_run_to_json(const RunResult& run);
RunResult port_mode_run_from_json(const Json& doc);

/// Touchstone 1.1 (`# Hz S RI R 50`): one data block per frequency: N = 1: S11;
/// N = 2: S11 S21 S12 S22 on one line; N >= 3: row i (S_i1 .. S_iN) on its own lines, at
/// most 4 pairs per line. Comment lines name the port-modes. Throws std::runtime_error
/// when the file cannot be written.
void write_touchstone(const std::filesystem::path& file, const SParameters& s);

/// CSV: wavelength_um,frequency_thz,S<i><j>_re,S<i><j>_im,... (i receiving, j exciting,
/// 1-based; for N > 9 the indices are separated: S<i>_<j>), rows by increasing frequency.
void write_sparams_csv(const std::filesystem::path& file, const SParameters& s);

}  // namespace golightly
