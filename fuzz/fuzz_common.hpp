// Shared set-up of the GoLightly fuzz targets (fuzz/README.md).
#pragma once

#include <cstdlib>

namespace golightly::fuzz {

/// Limits that keep one input well below the fuzzer's 10 s / 2 GB budget: the compile
/// refuses grids above 256 MB (as it refuses what the machine cannot hold), the STEP
/// worker process gets 5 s and 1 GiB.
inline void set_limits() {
    ::setenv("GOLIGHTLY_HOST_MEMORY_BYTES", "268435456", 0);
    ::setenv("GOLIGHTLY_STEP_TIME_LIMIT_S", "5", 0);
    ::setenv("GOLIGHTLY_STEP_MEMORY_LIMIT_MB", "1024", 0);
}

}  // namespace golightly::fuzz
