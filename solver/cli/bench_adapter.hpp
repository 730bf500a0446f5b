// golightly-cli: the one place that calls the benchmark (golightly/bench.hpp, written on
// the `cuda` branch).
#pragma once

#include <string>

#include "golightly/project.hpp"

namespace golightly::cli {

struct BenchRequest {
    std::string backend;   ///< "cpu" or "cuda"
    int dims = 2;
    int nx = 4096, ny = 4096;
    long long steps = 200;
    Precision precision = Precision::Float32;
    int poles = 0;
};

/// Runs the benchmark; returns the object of cli.md ("backend", "device", "dims", "size",
/// "steps", "precision", "cells_per_s", "bytes_per_cell_update", "bandwidth_gbs",
/// "copy_bandwidth_gbs", "fraction_of_copy"). Throws RunError when the benchmark cannot run.
Json run_bench_adapter(const BenchRequest& request);

}  // namespace golightly::cli
