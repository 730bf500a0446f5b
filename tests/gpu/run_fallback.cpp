// backend auto: a grid that does not fit in GPU memory runs on the CPU, with a warning
// that ends up in summary.json (issue: CUDA backend, "Correctness"). The memory cap comes
// from GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES (cuda_engine.cu), so no huge grid is needed.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"

using namespace golightly;

TEST_CASE("backend auto falls back to the CPU when the grid does not fit on the GPU", "[fallback]") {
    Project p = load_project(std::string(GOLIGHTLY_SOURCE_DIR) + "/examples/quickstart.glproj");
    p.run.backend = BackendChoice::Auto;
    RunOptions options;
    options.max_steps = 200;

    ::setenv("GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES", "1000", 1);  // far below any grid
    const RunResult capped = run_project(p, "quickstart.glproj", options);
    ::unsetenv("GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES");
    CHECK(capped.backend == "cpu");
    bool warned = false;
    for (const auto& w : capped.warnings) warned |= w.find("does not fit in GPU memory") != std::string::npos;
    CHECK(warned);

    // Explicit cuda with the same cap: an error naming the bytes, not a silent fall-back.
    p.run.backend = BackendChoice::Cuda;
    ::setenv("GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES", "1000", 1);
    CHECK_THROWS_AS(run_project(p, "quickstart.glproj", options), OutOfMemoryError);
    ::unsetenv("GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES");

    // Without the cap the same project runs on the GPU.
    p.run.backend = BackendChoice::Auto;
    const RunResult free_run = run_project(p, "quickstart.glproj", options);
    CHECK(free_run.backend == "cuda");
}
