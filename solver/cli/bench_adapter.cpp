// golightly-cli bench -> run_bench (golightly/bench.hpp, from the `cuda` branch).
#include "bench_adapter.hpp"

#include "golightly/bench.hpp"
#include "golightly/errors.hpp"

namespace golightly::cli {

Json run_bench_adapter(const BenchRequest& request) {
    BenchOptions o;
    o.backend = request.backend;
    o.dims = request.dims;
    o.nx = request.nx;
    o.ny = request.ny;
    o.steps = int(request.steps);
    o.precision = request.precision;
    if (request.poles > 0) throw RunError("bench: dispersive poles are not supported yet");
    const BenchReport report = run_bench(o);
    return Json::parse(bench_report_json(report));
}

}  // namespace golightly::cli
