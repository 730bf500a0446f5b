// The engines' knobs: every GOLIGHTLY_* environment variable that solver/engine reads is
// parsed here and nowhere else (docs/performance.md "Engine knobs" lists them: name, values,
// default, what each selects). Defaults are what the engines run without the variable; the
// knobs exist for tests (force a path, shrink memory) and for measurements (compare paths).
//
// Each engine parses the environment when it is constructed, not once per process: the
// tests set a variable, build an engine and unset it again, and a knob applies to the
// engines made while it is set. The parsers are header-only so that the CUDA library (which
// the engine library links, not the other way round) uses the same code.
//
// Read elsewhere on purpose (`grep -rn getenv solver` finds them; docs/performance.md lists
// them under "Outside the engines"): variables of layers below solver/engine, which cannot
// include this header (solver/scene partition.cpp GOLIGHTLY_PARTITION_PLANES;
// solver/model/types isolate.cpp and safe_read.cpp, the STEP import's isolation and the host
// memory cap; solver/model material_library.cpp, the library path, XDG_DATA_HOME and HOME;
// solver/compile mode_cache.cpp, the mode cache's GOLIGHTLY_MODE_CACHE*), and the
// environment of other programs, which is no knob: the MPI launcher's variables
// (mpi_session.cpp, cli/main.cpp) and CUDA_VISIBLE_DEVICES (cli/cmd_sparams.cpp,
// cmd_sweep.cpp: the devices CUDA shows the process).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>

namespace golightly {

namespace tuning_detail {
inline const char* env(const char* name) { return std::getenv(name); }
inline bool env_is(const char* name, const char* value) {
    const char* v = env(name);
    return v && std::string(v) == value;
}
/// The variable as std::strtoull reads it (0 for text that is no number), none when unset.
inline std::optional<std::size_t> env_bytes(const char* name) {
    const char* v = env(name);
    if (!v) return std::nullopt;
    return std::size_t(std::strtoull(v, nullptr, 10));
}
/// The variable as std::atoi reads it, `fallback` when unset.
inline int env_int(const char* name, int fallback) {
    const char* v = env(name);
    return v ? std::atoi(v) : fallback;
}
}  // namespace tuning_detail

/// A path a knob can force: Auto (unset, or a value it does not name) lets the engine
/// choose, Off keeps the path out, On forces it, Require forces it and makes the engine
/// throw RunError (naming the reason) where the path cannot run (tests).
enum class KnobSwitch { Auto, Off, On, Require };

/// The CPU engines' knobs (engine_cpu.cpp, engine_cpu3d.cpp, cpu_common.hpp).
struct CpuTuning {
    /// GOLIGHTLY_CPU_KERNELS=generic: the baseline x86-64 row kernels even where AVX2 + FMA run.
    bool generic_kernels = false;
    /// GOLIGHTLY_CPU_UNFUSED=1: two passes over the rows per step (all H, then all E) instead
    /// of the fused H/E sweep (the plain reading of scene.hpp; the tests' reference).
    bool unfused = false;
    /// GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES: caps the host memory counted as available.
    std::optional<std::size_t> memory_limit_bytes;

    static CpuTuning from_environment() {
        using namespace tuning_detail;
        CpuTuning t;
        t.generic_kernels = env_is("GOLIGHTLY_CPU_KERNELS", "generic");
        t.unfused = env_is("GOLIGHTLY_CPU_UNFUSED", "1");
        t.memory_limit_bytes = env_bytes("GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES");
        return t;
    }
};

/// The CUDA engines' knobs (cuda_engine.cu, cuda_engine3d.cu, cuda_bulk3d.cuh). The 3D
/// step strategies and their measurements: docs/performance.md.
struct CudaTuning {
    /// GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES: caps the device memory counted as free (2D and 3D).
    std::optional<std::size_t> memory_limit_bytes;
    /// GOLIGHTLY_CUDA_PAD=0 / GOLIGHTLY_CUDA3D_PAD=0: rows not padded to 32 cells (2D / 3D).
    bool pad_2d = true;
    bool pad_3d = true;
    /// GOLIGHTLY_CUDA3D_FUSED: On (1) the fused H + E step, Off (0) the in-place pair,
    /// Auto: fused where the tensor-copy kernel runs.
    KnobSwitch fused_3d = KnobSwitch::Auto;
    /// GOLIGHTLY_CUDA3D_TMA: Off (0) update_he3 instead of update_he3_tma in the fused step,
    /// Require (require) throws where the tensor-copy kernel cannot run.
    KnobSwitch tma_3d = KnobSwitch::Auto;
    /// GOLIGHTLY_CUDA3D_TWO_STEP: Off (0) one step per pass, Require (require) throws where
    /// two steps per pass cannot run.
    KnobSwitch two_step_3d = KnobSwitch::Auto;
    /// GOLIGHTLY_CUDA_TWO_STEP: the 2D engine's two steps per pass (cuda_twostep2d.cuh); Off
    /// (0) one step per pass, Require (require) throws where two steps per pass cannot run.
    KnobSwitch two_step_2d = KnobSwitch::Auto;
    /// GOLIGHTLY_CUDA3D_CHUNK: z planes per chunk of every 3D kernel (tests: chunk edges
    /// everywhere); 0 lets the engine choose.
    int chunk_3d = 0;
    /// GOLIGHTLY_CUDA3D_TMA_CFG: tile rows of update_he3_tma (0: 8 rows, 1: 16 rows; the
    /// bulk takes other values as 0).
    int tma_cfg_3d = 0;
    /// GOLIGHTLY_CUDA3D_TMA_CHUNK: z planes per chunk of update_he3_tma (>= 1).
    int tma_chunk_3d = 24;
    /// GOLIGHTLY_CUDA3D_PSI_AHEAD: planes of CPML psi prefetched into L2 ahead (0: none).
    int psi_ahead_3d = 1;
    /// GOLIGHTLY_CUDA3D_TWO_STEP_CHUNK: z planes per chunk of update_he3_two (>= 1; the
    /// kernel takes at most kTsMaxChunk).
    int two_step_chunk_3d = 48;
    /// GOLIGHTLY_CUDA3D_TWO_STEP_SKEW: blocks of update_he3_two that run the loop with two
    /// barriers per plane: 0 none, 1 the inner blocks, 2 also those at one axis's slabs/faces.
    int two_step_skew_3d = 2;
    /// GOLIGHTLY_CUDA3D_TWO_STEP_ROWS=8: float32 tiles of update_he3_two 8 rows high instead
    /// of 7 (float64 always 8).
    int two_step_rows_f32 = 7;
    /// GOLIGHTLY_CUDA_GRAPH_REMAINDER=0: steps below a whole 32-step graph are enqueued
    /// kernel by kernel instead of as graphs of 16, 8 and 4 steps (cuda_engine_common.cuh
    /// enqueue_steps_graphed; the comparison in benchmarks).
    bool graph_remainder = true;

    static CudaTuning from_environment() {
        using namespace tuning_detail;
        CudaTuning t;
        t.memory_limit_bytes = env_bytes("GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES");
        t.pad_2d = !env_is("GOLIGHTLY_CUDA_PAD", "0");
        t.pad_3d = !env_is("GOLIGHTLY_CUDA3D_PAD", "0");
        t.fused_3d = env_is("GOLIGHTLY_CUDA3D_FUSED", "1")   ? KnobSwitch::On
                     : env_is("GOLIGHTLY_CUDA3D_FUSED", "0") ? KnobSwitch::Off
                                                             : KnobSwitch::Auto;
        t.tma_3d = env_is("GOLIGHTLY_CUDA3D_TMA", "0")         ? KnobSwitch::Off
                   : env_is("GOLIGHTLY_CUDA3D_TMA", "require") ? KnobSwitch::Require
                                                               : KnobSwitch::Auto;
        t.two_step_3d = env_is("GOLIGHTLY_CUDA3D_TWO_STEP", "0")         ? KnobSwitch::Off
                        : env_is("GOLIGHTLY_CUDA3D_TWO_STEP", "require") ? KnobSwitch::Require
                                                                         : KnobSwitch::Auto;
        t.two_step_2d = env_is("GOLIGHTLY_CUDA_TWO_STEP", "0")         ? KnobSwitch::Off
                        : env_is("GOLIGHTLY_CUDA_TWO_STEP", "require") ? KnobSwitch::Require
                                                                       : KnobSwitch::Auto;
        t.chunk_3d = env_int("GOLIGHTLY_CUDA3D_CHUNK", 0);
        t.tma_cfg_3d = env_int("GOLIGHTLY_CUDA3D_TMA_CFG", 0);
        t.tma_chunk_3d = std::max(1, env_int("GOLIGHTLY_CUDA3D_TMA_CHUNK", 24));
        t.psi_ahead_3d = std::max(0, env_int("GOLIGHTLY_CUDA3D_PSI_AHEAD", 1));
        t.two_step_chunk_3d = std::max(1, env_int("GOLIGHTLY_CUDA3D_TWO_STEP_CHUNK", 48));
        t.two_step_skew_3d = std::clamp(env_int("GOLIGHTLY_CUDA3D_TWO_STEP_SKEW", 2), 0, 2);
        t.two_step_rows_f32 = env_int("GOLIGHTLY_CUDA3D_TWO_STEP_ROWS", 7) == 8 ? 8 : 7;
        t.graph_remainder = !env_is("GOLIGHTLY_CUDA_GRAPH_REMAINDER", "0");
        return t;
    }
};

/// The distributed engine's knobs (distributed.cpp).
struct DistributedTuning {
    /// GOLIGHTLY_HALO_MODE: overlap, threads, events or sync instead of the engine's choice.
    std::optional<std::string> halo_mode;
    /// GOLIGHTLY_DIST_PROFILE (any value): threads mode prints each subdomain's time per step
    /// (enqueue, wait, barrier, copy) to stderr.
    bool profile = false;
    /// GOLIGHTLY_DIST_NOCOPY (any value): threads mode skips the halo copies (diagnosis of
    /// the exchange's cost only: the fields are wrong).
    bool no_copy = false;
    /// GOLIGHTLY_DIST_TWO_STEP: Auto (the default: unset, auto or any other value) pairs
    /// where every subdomain engine runs two steps per pass (distributed.hpp "Two steps per
    /// pass"); Off (0) one halo exchange per step, the subdomains one step per pass (the CUDA
    /// subdomains do not even set up two steps per pass); On (1) steps in pairs with an
    /// exchange every second step on any subdomain engines (tests: the CPU engines then step
    /// twice between exchanges).
    KnobSwitch two_step = KnobSwitch::Auto;

    static DistributedTuning from_environment() {
        using namespace tuning_detail;
        DistributedTuning t;
        if (const char* m = env("GOLIGHTLY_HALO_MODE")) t.halo_mode = std::string(m);
        t.profile = env("GOLIGHTLY_DIST_PROFILE") != nullptr;
        t.no_copy = env("GOLIGHTLY_DIST_NOCOPY") != nullptr;
        t.two_step = env_is("GOLIGHTLY_DIST_TWO_STEP", "1")   ? KnobSwitch::On
                     : env_is("GOLIGHTLY_DIST_TWO_STEP", "0") ? KnobSwitch::Off
                                                              : KnobSwitch::Auto;
        return t;
    }
};

/// The MPI library's knobs (engine/mpi, built with GOLIGHTLY_MPI; docs/cluster.md). Which
/// launcher started the process (OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK) is the
/// launcher's environment, not a knob: mpi_session.cpp reads it.
struct MpiTuning {
    /// GOLIGHTLY_MPI_CUDA_AWARE (non-empty): 1 hands MPI device buffers, 0 stages through the
    /// host; mpi_halo.cpp refuses other values (RunError). Unset: the library's answer.
    std::optional<std::string> cuda_aware;
    /// GOLIGHTLY_MPI_FAIL_RANK (non-empty): the rank whose engine setup throws RunError
    /// (std::atoi of the value; a test of the failure path).
    std::optional<std::string> fail_rank;

    static MpiTuning from_environment() {
        using namespace tuning_detail;
        MpiTuning t;
        if (const char* v = env("GOLIGHTLY_MPI_CUDA_AWARE"); v && *v) t.cuda_aware = std::string(v);
        if (const char* v = env("GOLIGHTLY_MPI_FAIL_RANK"); v && *v) t.fail_rank = std::string(v);
        return t;
    }
};

}  // namespace golightly
