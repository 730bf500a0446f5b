#include "bench_adapter.hpp"

#include "golightly/errors.hpp"

namespace golightly::cli {

Json run_bench_adapter(const BenchRequest& request) {
    (void)request;
    throw RunError("bench is not available in this build yet (the benchmark lands with the CUDA backend)");
}

}  // namespace golightly::cli
