// golightly-cli: the RunOptions that the --backend, --precision, --threads and --max-steps
// flags of `sweep`, `optimize` and `sparams` give (spec/cli.md). An empty or unknown
// backend / precision keeps the RunOptions default (the project's own setting).
#pragma once

#include <string>

#include "golightly/run.hpp"

namespace golightly::cli {

inline RunOptions run_options_from_flags(const std::string& backend, const std::string& precision, int threads,
                                         long long max_steps) {
    RunOptions o;
    if (backend == "auto") o.backend = BackendChoice::Auto;
    if (backend == "cpu") o.backend = BackendChoice::Cpu;
    if (backend == "cuda") o.backend = BackendChoice::Cuda;
    if (precision == "float32") o.precision = Precision::Float32;
    if (precision == "float64") o.precision = Precision::Float64;
    o.threads = threads;
    if (max_steps >= 0) o.max_steps = max_steps;
    return o;
}

}  // namespace golightly::cli
