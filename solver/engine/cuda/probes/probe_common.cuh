// The GPU probes' shared preamble (engine/cuda/probes): their name in messages, exit 1 on a
// CUDA error, SKIPPED and exit 2 where no device is present.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace golightly::probes {

/// The probe's name at the start of its messages (set first thing in main).
inline const char* probe_name = "golightly-probe";

/// Exits 1, naming the call and the CUDA error, where e is not cudaSuccess.
inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s: %s\n", probe_name, what, cudaGetErrorString(e));
        std::exit(1);
    }
}

/// True where a CUDA device is present; else prints "<name>: SKIPPED (no CUDA device)" and
/// returns false (the probe then exits 2).
inline bool have_device() {
    int count = 0;
    if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) return true;
    std::printf("%s: SKIPPED (no CUDA device)\n", probe_name);
    return false;
}

}  // namespace golightly::probes
