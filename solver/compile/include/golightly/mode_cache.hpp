// GoLightly: solve a cross-section's modes once and use them everywhere (issue 50, item 3).
//
// Two layers over solve_modes_2d (mode_solver2d.hpp):
//  - a cache of solves, keyed by a 128-bit hash of everything the solve reads (the window
//    grid, the eps arrays at the solve frequency, the wavelength, the options and
//    mode_solver_revision()): in memory for the process (the session: `check`, every port run
//    of `sparams` in one process, sweeps whose designs keep the cross-section, the IDE's
//    runs) and, where a directory is set, one file per solve on disk (a second run of the
//    same project solves nothing). Identical cross-sections share entries whatever object
//    asked (a port's mode source and a mode monitor on the same straight guide).
//  - interpolation over a band (solve_modes_band): modes solved at a few Chebyshev-Lobatto
//    nodes of the spectrum's band and interpolated at every spectrum frequency (n_eff and
//    the other scalars by barycentric Chebyshev interpolation, fields after aligning each
//    node's phase to its neighbour's by overlap, then normalized to unit power).
//    Method and error rule: docs/modes-cache.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"

namespace golightly {

/// The disk cache's default size cap (1 GiB; GOLIGHTLY_MODE_CACHE_DISK_MB).
inline constexpr std::uint64_t kModeCacheDiskBytesDefault = std::uint64_t(1) << 30;

/// Where and whether solves are cached.
struct ModeCacheSettings {
    bool enabled = true;  ///< false: every call solves (no memory, no disk)
    /// Directory of the disk cache (one `<key>.bin` per solve); empty: no disk cache.
    std::string disk_dir;
    /// Memory budget of the in-process cache (bytes of field data); the least recently used
    /// entries go first beyond it.
    std::size_t session_bytes = std::size_t(1) << 30;
    /// Size cap of the disk cache directory (bytes of `<key>.bin` files): after each file
    /// written, the least recently used files (by modification time, which a disk hit
    /// refreshes) are removed until the directory's files total at most this. 0: no cap.
    std::uint64_t disk_bytes = kModeCacheDiskBytesDefault;
};

/// The process-wide settings (thread-safe). The library's default: memory cache on, no disk
/// cache (so that tests and embedders never read another build's files unless asked);
/// golightly-cli calls set_mode_cache_settings(mode_cache_settings_from_environment()).
void set_mode_cache_settings(const ModeCacheSettings& s);
ModeCacheSettings mode_cache_settings();

/// The command-line tools' settings: GOLIGHTLY_MODE_CACHE=off (or 0, no, false) disables
/// both caches; else the disk cache lives in GOLIGHTLY_MODE_CACHE_DIR, else
/// $XDG_CACHE_HOME/golightly/modes, else $HOME/.cache/golightly/modes (none when neither
/// is set); GOLIGHTLY_MODE_CACHE_MB sets the memory budget, GOLIGHTLY_MODE_CACHE_DISK_MB
/// the disk cap (0: none).
ModeCacheSettings mode_cache_settings_from_environment();

/// The mode solver's revision: the first 16 hex digits of a SHA-256 of its sources
/// (mode_solver2d.cpp and .hpp), computed by CMake at configure time
/// (solver/CMakeLists.txt). Part of every key and disk file, so a file written by another
/// solver is never read.
std::string mode_solver_revision();

/// Removes the least recently used `<32 hex digits>.bin` files of `dir` (oldest
/// modification time first; `keep`, a file name, never) until those files total at most
/// max_bytes. Other files are left alone. Returns the number of files removed.
std::size_t prune_mode_cache_dir(const std::string& dir, std::uint64_t max_bytes, const std::string& keep = "");

/// The mode solver's limits (docs/modes-cache.md, "Limits"): a cross-section window of
/// more than kModeSolveMaxCells cells, or whose solve needs more memory
/// (mode_solve_peak_bytes) than the machine has (limits::host_memory_bytes), is refused
/// before solving.
inline constexpr long long kModeSolveMaxCells = 4000000;
/// The peak model's constants, real path: bytes per unknown and log2 of the unknowns, and
/// per unknown (measured peaks of the 500 x 220 nm strip's port, 2 x 1.6 um window, 2 modes:
/// 4000 to 131000 unknowns, 3000 to 5900 bytes per unknown above the process' baseline,
/// slope 600 per log2; the model with 400 n log2 n + 64 MiB lies 15 to 50 % above every
/// one of them, the complex path measured at 1.9 to 2 times the real one;
/// docs/modes-cache.md "Limits").
inline constexpr double kModeSolvePeakBytesPerLogUnknown = 400;
inline constexpr double kModeSolvePeakBytesPerUnknown = 0;
/// The peak memory (bytes) of solve_modes_2d on this window: the sparse LU factors of the
/// 2N x 2N operator (N = nu nv; nested-dissection fill ~ N log2 N), the operator's
/// assembly and the Arnoldi basis, doubled for the complex (lossy, PML, bent) path.
/// An upper bound fitted to measured peaks (docs/modes-cache.md).
std::uint64_t mode_solve_peak_bytes(const ModeGrid2D& grid, const ModeMedium2D& medium, const ModeSolveOptions& options);
/// Throws ProjectError(file_label, json_path, "<what>: ...") naming the window's size when
/// the solve is beyond the limits above; `what` names the object ("port 'in'", "mode
/// monitor 'out'").
void check_mode_solve_limits(const ModeGrid2D& grid, const ModeMedium2D& medium, const ModeSolveOptions& options,
                             const std::string& what, const std::string& file_label, const std::string& json_path);

/// Counters since the start or the last clear_mode_cache().
struct ModeCacheStats {
    long solves = 0;         ///< solve_modes_2d calls made
    double solve_seconds = 0;  ///< wall time inside those calls (summed over threads)
    long session_hits = 0;   ///< answered from memory (or by waiting for the same solve in flight)
    long disk_hits = 0;      ///< answered from a disk file
    long disk_writes = 0;    ///< files written
    long disk_rejected = 0;  ///< files found but ignored (corrupt, truncated, other key or shape)
    long disk_pruned = 0;    ///< files removed by the disk cap (ModeCacheSettings::disk_bytes)
};
ModeCacheStats mode_cache_stats();
/// Drops the in-memory entries and zeroes the counters (the disk files stay).
void clear_mode_cache();

/// The solve's key: 32 hex digits (two independent 64-bit hashes of the grid, eps / eps_imag
/// / eps_group arrays, wavelength, options and mode_solver_revision(); the grid's Bloch
/// phases where either is nonzero).
std::string mode_solve_key(const ModeGrid2D& grid, const ModeMedium2D& medium, double wavelength_um,
                           const ModeSolveOptions& options);

/// solve_modes_2d through the caches: the same modes as a fresh solve (bitwise: the
/// cached vectors are the solve's, and the disk file stores every bit). Exceptions of
/// the solve pass through (nothing is cached then).
std::shared_ptr<const std::vector<VectorMode>> cached_solve_modes_2d(const ModeGrid2D& grid,
                                                                     const ModeMedium2D& medium,
                                                                     double wavelength_um,
                                                                     const ModeSolveOptions& options);

/// The disk format (docs/modes-cache.md): written to a temporary file in the same directory
/// and renamed over `path` (atomic). Returns false (and says why in `why`) when it cannot.
bool write_mode_cache_file(const std::string& path, const std::string& key, const ModeGrid2D& grid,
                           const std::vector<VectorMode>& modes, std::string& why);
/// Reads a file written by write_mode_cache_file; nullopt (with the reason in `why`) when it
/// is missing, truncated, corrupt (checksum), of another format, key or field shape.
std::optional<std::vector<VectorMode>> read_mode_cache_file(const std::string& path, const std::string& key,
                                                            const ModeGrid2D& grid, std::string& why);

/// `run.mode_interpolation` (spec "Mode sources and monitors", additive): "auto" (default)
/// or "exact" (solve at every spectrum frequency).
enum class ModeInterpolation { automatic, exact };
/// Reads project.run.extra["mode_interpolation"]; throws ProjectError(file_label,
/// "run.mode_interpolation") for another value.
ModeInterpolation parse_mode_interpolation(const Project& project, const std::string& file_label);

/// Interpolation tolerances (docs/modes-cache.md, "The rule").
inline constexpr double kModeInterpNeffTol = 1e-4;   ///< |n_eff error| at the check nodes
inline constexpr double kModeInterpFieldTol = 1e-3;  ///< relative L2 error of E_t at the check nodes
inline constexpr int kModeInterpMaxNodes = 33;       ///< 2^5 + 1: beyond, solve every frequency

struct ModeBandOptions {
    ModeInterpolation interpolation = ModeInterpolation::automatic;
    double neff_tol = kModeInterpNeffTol;
    double field_tol = kModeInterpFieldTol;
    int max_nodes = kModeInterpMaxNodes;
};

struct ModeBandResult {
    /// modes[f][m]: mode mode_indices[m] at frequencies_hz[f] (an empty VectorMode where the
    /// cross-section has no such mode), as ModeMonitorPlan::modes
    std::vector<std::vector<VectorMode>> modes;
    std::vector<std::string> warnings;  ///< track_modes' warnings
    bool interpolated = false;          ///< false: solved at every frequency
    std::vector<double> node_hz;        ///< the frequencies solved (interpolated: the nodes)
    /// interpolated: the largest |n_eff| difference between the coarser interpolant and the
    /// solves at the last check nodes (the error estimate); else 0
    double neff_error = 0;
    double field_error = 0;  ///< likewise, the relative L2 error of E_t
    /// every check made, in order: {nodes of the level checked against, n_eff error, field error}
    std::vector<std::array<double, 3>> checks;
};

/// The modes mode_indices (of the filtered list) of `cs` at every frequency of
/// frequencies_hz, each solved (or interpolated) at the Yee scheme's numerical vacuum
/// wavenumber k0~ = (2 / (c0 dt)) sin(omega dt / 2) in the medium cross_section_medium(cs,
/// omega), options `o` (num_modes: candidates to solve), `filter` applied before the
/// indices count. Exact: every frequency solved, the indices picked at frequencies_hz[n/2]
/// and followed by overlap (track_modes). Automatic: exact when there are at most 5
/// frequencies, the band is one frequency, or the rule needs as many nodes as frequencies
/// (or more than max_nodes); else interpolated from K = 3, 5, 9, ... Chebyshev-Lobatto
/// nodes of [min f, max f] (nested: each level adds the midpoints in angle), the indices
/// picked at the band's centre node and tracked over the nodes, until the previous level's
/// interpolant matches the new nodes' solves within neff_tol and field_tol for every
/// wanted mode (the finer interpolant is then used). Solves go through
/// cached_solve_modes_2d. Exceptions of the solver pass through.
ModeBandResult solve_modes_band(const CrossSection& cs, const ModeSolveOptions& o, ModeFilter filter,
                                const std::vector<int>& mode_indices, const std::vector<double>& frequencies_hz,
                                double dt_s, const ModeBandOptions& band, const std::string& label);

/// Chebyshev-Lobatto (second kind) nodes of [lo, hi], ascending: lo + (hi - lo) (1 - cos(j pi
/// / (k - 1))) / 2, j = 0..k-1 (k >= 2).
std::vector<double> chebyshev_lobatto_nodes(double lo, double hi, int k);
/// The barycentric weights l_j(x) of those nodes at x (Berrut & Trefethen, SIAM Rev. 46, 501
/// (2004), eq. 5.2 with w_j = (-1)^j, halved at the ends): p(x) = sum_j l_j(x) f_j.
std::vector<double> chebyshev_lobatto_weights(const std::vector<double>& nodes, double x);

}  // namespace golightly
