// golightly-cli bench -> run_bench (golightly/bench.hpp, from the `cuda` branch). Until
// that header is merged, the benchmark is reported as unavailable (RunError, exit 3).
#include "bench_adapter.hpp"

#include "golightly/errors.hpp"

#if __has_include("golightly/bench.hpp")
#include "golightly/bench.hpp"
#define GOLIGHTLY_CLI_HAVE_BENCH 1
#endif

namespace golightly::cli {

Json run_bench_adapter(const BenchRequest& request) {
#ifdef GOLIGHTLY_CLI_HAVE_BENCH
    BenchOptions o;
    o.backend = request.backend;
    o.dims = request.dims;
    o.nx = request.nx;
    o.ny = request.ny;
    o.steps = int(request.steps);
    o.precision = request.precision;
    const BenchReport report = run_bench(o);
    return Json::parse(bench_report_json(report));
#else
    (void)request;
    throw RunError("bench is not available in this build yet (the benchmark lands with the CUDA backend)");
#endif
}

}  // namespace golightly::cli
