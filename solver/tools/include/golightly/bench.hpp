// GoLightly benchmark: times the update loop of one engine on a synthetic 2D or 3D scene and
// relates the achieved memory traffic to a copy kernel measured in the same run
// (golightly-cli bench, spec/cli.md).
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "golightly/engine.hpp"
#include "golightly/project.hpp"

namespace golightly {

struct BenchOptions {
    std::string backend = "cuda";  ///< "cuda" or "cpu"
    int dims = 2;                  ///< 2, or 3 (CPU backend: the CUDA engine refuses 3D)
    int nx = 1024, ny = 1024;      ///< total cells, CPML of 16 cells on every side included
    int nz = 128;                  ///< total cells along z (dims = 3 only)
    int steps = 1000;              ///< timed steps (after an untimed warm-up)
    Precision precision = Precision::Float32;
    Polarization polarization = Polarization::TMz;
    int threads = 0;               ///< CPU backend threads (<= 0: all cores)
    int poles = 0;                 ///< synthetic Lorentz poles per dispersive cell (0: none)
    /// A material of the library (material_library.hpp), e.g. "Au" (Rakic 1998, 6 poles),
    /// filling the dispersive cells instead of the synthetic poles ("": synthetic).
    std::string dispersive_material;
    /// Fraction of the cells that are dispersive, in [0, 1], as 8 x 8 blobs (default 1:
    /// every cell). Applies when poles > 0 or dispersive_material is set.
    double dispersive_fraction = 1.0;
    /// > 0: during the timed steps, publish a viewport frame (FrameSource::sample_field of the
    /// E component, at most frame_size samples a side) whenever 1/frames_per_s s of wall
    /// time have passed, stepping in batches of about 2 ms with a wait after each, as the
    /// IDE's solver thread does; the report then gives the frame rate and cost.
    double frames_per_s = 0;
    int frame_size = 512;
    /// > 1: one grid over this many devices (the distributed engine, distributed.hpp):
    /// CUDA devices 0..devices-1, or CPU subdomains in one process on the CPU backend.
    int devices = 1;
    /// With devices > 1 on CUDA: every slab on CUDA device 0 (`--same-device`), so that one
    /// GPU measures what the split and the halo exchange cost against one engine (the
    /// exchange is then a device-local copy, not a peer copy; the copy yardstick is one
    /// device's).
    bool same_device = false;
    /// Mirror symmetry planes (symmetry.hpp) per axis, -1, 0 or +1: the engine steps the
    /// reduced scene (SymmetricEngine); the synthetic scene is not symmetric, which the
    /// timing does not mind. -1 needs an even, +1 an odd interior cell count (size - 32).
    std::array<int, 3> symmetry{0, 0, 0};
    /// false: the synthetic scene without its flux plane and flux box (no DFT sets), to
    /// separate the bulk update's cost from the monitors' (`--no-monitors`).
    bool monitors = true;
};

/// The fields of the `bench --json` object of spec/cli.md.
struct BenchReport {
    std::string backend, device;
    std::string kernel;            ///< Engine::kernel ("" where the engine names none)
    int dims = 2;
    int nx = 0, ny = 0;
    int nz = 1;                    ///< 3D only ("size" is [nx, ny, nz] then)
    int steps = 0;
    std::string precision;         ///< "float32" or "float64"
    std::string polarization;      ///< "TMz" or "TEz" (extra field)
    double seconds = 0;            ///< wall time of the timed steps
    double cells_per_s = 0;        ///< cell updates per second (nx * ny * steps / seconds)
    /// With symmetry planes: the cells the engine stepped (nx * ny * nz / 2, 4, 8) and their
    /// updates per second; bandwidth and fraction of copy use these (extra fields).
    std::array<int, 3> symmetry{0, 0, 0};
    bool monitors = true;  ///< false: the run left out the flux plane and box (extra field)
    double simulated_cells = 0;
    double simulated_cells_per_s = 0;
    double steps_per_s = 0;
    double bytes_per_cell_update = 0;  ///< bytes the implementation moves per cell and step (model)
    /// Memory the engine holds per cell, bytes: CUDA, the device memory in use after its
    /// construction minus before (cuda_memory_used, summed over the devices); CPU, the
    /// memory model engine_state_bytes (an upper bound).
    double state_bytes_per_cell = 0;
    double bandwidth_gbs = 0;          ///< cells_per_s * bytes_per_cell_update / 1e9
    double copy_bandwidth_gbs = 0;     ///< copy kernel, (read + write bytes) / time / 1e9; the better of a run before the engine is made and one after it is freed
    double fraction_of_copy = 0;       ///< bandwidth_gbs / copy_bandwidth_gbs
    double dx_um = 0;                  ///< cell size (extra field; smaller for stiff pole sets)
    int poles = 0;                     ///< poles per dispersive cell (extra field)
    std::string dispersive_material;   ///< library id or "" (extra field)
    double dispersive_cell_fraction = 0;  ///< fraction of E sites that are dispersive (extra field)
    double frames_per_s = 0;           ///< frames published per second of the timed run (extra field)
    double frame_ms = 0;               ///< mean wall time per frame, ms (extra field)
    double frame_time_fraction = 0;    ///< share of the timed run spent making frames (extra field)
    // Several devices (extra fields, devices > 1)
    int devices = 1;
    std::string transport;             ///< halo exchange: "cuda-peer", "memcpy"
    double exchange_bytes_per_step = 0;
    double exchange_s = 0;             ///< one halo exchange on its own, s (median)
    double compute_s_per_step = 0;     ///< a step with the exchange switched off, s
    double exchange_exposed_s = 0;     ///< per step: timed step - compute step (>= 0), s
    double exchange_hidden_s = 0;      ///< per step: exchange_s - exposed (>= 0), s
};

/// The synthetic benchmark scene: vacuum with a pseudo-random map of four dielectrics
/// (eps_r 1, 2.1, 4, 12; one lossy entry), CPML of 16 cells on every side (Roden & Gedney
/// 2000, cubic grading, R = 1e-6), Courant number 0.5, one Ez (TMz) / Ey (TEz) line
/// source with a Gaussian pulse at 193 THz, and two flux monitors: DFT sets of the
/// tangential E and the (averaged) tangential H on two lines across the domain, 101
/// frequencies each. Cell size 0.02 um. poles > 0: every cell of every E component is
/// dispersive with `poles` Lorentz poles (one pole set; scene.hpp "Dispersive cells").
Scene make_bench_scene(int nx, int ny, Polarization polarization, int poles = 0);

/// The benchmark scene with dispersive blobs: a fraction `dispersive_fraction` of the 8 x 8
/// cell blobs (pseudo-random, the same pattern for every run) is filled with `material`
/// (its eps_inf, conductivity and poles), or with `poles` synthetic weak Lorentz poles when
/// material is null. The cell size is 0.02 um, or smaller when the material's poles need it
/// for a stable explicit update (sum_m omega_p,m^2 dt^2 + 8 S^2 < 3.2 eps_inf, a 20 % margin
/// on the bound of scene.hpp). Throws RunError for a fraction outside [0, 1].
Scene make_bench_scene(int nx, int ny, Polarization polarization, int poles, double dispersive_fraction,
                       const Material* material);

/// The 3D benchmark scene: nx * ny * nz cells (16 CPML cells on every face included, cubic
/// grading, R = 1e-6), vacuum with pseudo-random 8 x 8 x 8 blobs of the same four dielectrics
/// and one lossy entry (the same map for Ex, Ey, Ez), Courant number 0.5, one Ey plane
/// source across x and z at y = ny / 4 (Gaussian pulse at 193 THz), and one flux plane at
/// y = ny / 2: DFT sets of Ex and of Hz averaged onto Ex's positions, 101 frequencies, and
/// one flux box of side (nx/8, ny/8, nz/8) cells at the centre: the two tangential E and the
/// two tangential H components (H averaged along the normal) of each of its six faces, the
/// same 101 frequencies. Cell size 0.02 um. poles > 0: the E cells of a `fraction` (in [0, 1]) of 8 x 8 x 8 blobs
/// get `poles` weak synthetic Lorentz poles (every cell at fraction 1). `material` (a library
/// material with poles, e.g. Au: Drude + 5 Lorentz) instead: those cells get its
/// eps_inf, conductivity and poles, and the cell shrinks (10 % steps) until its explicit
/// update is stable with margin at Courant 0.5 in 3D.
/// Throws RunError for fewer than 40 cells along an axis or a fraction outside [0, 1].
Scene make_bench_scene3(int nx, int ny, int nz, int poles = 0, double fraction = 1.0,
                        const Material* material = nullptr);

/// Runs the benchmark. Throws RunError for an unknown backend, dims not 2 or 3, or when the
/// backend cannot run (no CUDA device; OutOfMemoryError when the grid does not fit).
BenchReport run_bench(const BenchOptions& options);

/// The bench report as the JSON object of spec/cli.md (one line).
std::string bench_report_json(const BenchReport& report);


}  // namespace golightly
