// Several runs on one GPU (#54 item 3): a sweep whose designs run as threads of this process,
// several at a time on each device (DevicePlan::concurrent, each engine on its own stream),
// gives the same sweep.csv values as one design at a time. The runs are independent and each
// is deterministic on its stream, so the values must be equal to the last bit (the status
// column aside: the decay stop's energy sums are the only atomics, and an equal stop step is
// part of the check through the spectra).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "golightly/engine.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/sweep.hpp"

using namespace golightly;
namespace fs = std::filesystem;

TEST_CASE("CUDA: a sweep with four runs at a time on one device equals the sweep one run at a time",
          "[gpu][cuda][sweep]") {
    const fs::path file = fs::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "bench" / "bend_1m_cells.glproj";
    Project p = load_project(file);
    p.domain.cell_size = 0.1;  // the example's own grid (160 x 320): a quick sweep
    p.domain.pml.cells = 10;
    const std::vector<SweepParameter> params = {{"eps", {11.0, 11.5, 12.0, 12.5, 13.0, 13.5}}};
    RunOptions ro;
    ro.backend = BackendChoice::Cuda;
    auto sweep = [&](int concurrent, const fs::path& out) {
        DevicePlan plan = plan_devices("1", cuda_device_count(), nullptr, true, 0);
        plan.concurrent = concurrent;
        SweepOptions o;
        o.out = out;
        o.workers = plan.workers();
        o.runner = in_process_runner(ro, plan);
        fs::remove_all(out);
        return run_sweep(p, file.string(), params, o);
    };
    const fs::path tmp = fs::temp_directory_path() / "golightly_gpu_concurrent";
    const SweepReport one = sweep(1, tmp / "one");
    const SweepReport four = sweep(4, tmp / "four");
    REQUIRE(one.failed == 0);
    REQUIRE(four.failed == 0);
    REQUIRE(one.rows.size() == params[0].values.size());
    REQUIRE(four.rows.size() == one.rows.size());
    for (std::size_t d = 0; d < one.rows.size(); ++d) {
        REQUIRE(four.rows[d].size() == one.rows[d].size());
        for (std::size_t k = 0; k < one.rows[d].size(); ++k) {
            INFO("design " << d << ", column " << one.columns[k]);
            CHECK(std::isfinite(one.rows[d][k]));
            CHECK(four.rows[d][k] == one.rows[d][k]);
        }
    }
    std::printf("[concurrent] %zu designs, 4 at a time on one device: sweep.csv values equal to one at a time\n",
                one.rows.size());
    fs::remove_all(tmp);
}
