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

#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/sparams.hpp"
#include "golightly/sweep.hpp"
#include "project_builders.hpp"

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

// The S-parameter port-mode runs share the device the same way (sparams --concurrent,
// in_process_port_mode_runner): a 2D slab between two line ports, each port-mode run's
// S-matrix column, both runs at once against one at a time, equal to the last bit.
TEST_CASE("CUDA: S-parameter port-mode runs two at a time on one device equal one at a time",
          "[gpu][cuda][sparams]") {
    Project p = test::slab_guide_2d(3.0, 2.0, 0.04, Polarization::TMz, 10, 0.85, 1.15, 40, 600);
    p.run.backend = BackendChoice::Cuda;
    p.extra["ports"] = Json::parse(R"([
        {"name": "a", "center": [0.6, 1.0], "size": [0, 1.8], "direction": "+x"},
        {"name": "b", "center": [2.4, 1.0], "size": [0, 1.8], "direction": "-x"}])");
    RunOptions ro;
    ro.backend = BackendChoice::Cuda;
    auto sparams = [&](int concurrent) {
        DevicePlan plan = plan_devices("1", cuda_device_count(), nullptr, true, 0);
        plan.concurrent = concurrent;
        const PortModeRunner runner = in_process_port_mode_runner(p, "slab2d.glproj", ro, plan);
        return run_sparameters(p, "slab2d.glproj", ro, 0.02, 0.02, runner, plan.workers());
    };
    const SParameters one = sparams(1);
    const SParameters two = sparams(2);
    REQUIRE(one.s.size() == 2);
    REQUIRE(one.runs.size() == 2);
    CHECK(one.runs[0].backend == "cuda");
    CHECK(two.runs[1].backend == "cuda");
    CHECK(one.frequency_hz == two.frequency_hz);
    for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t j = 0; j < 2; ++j) {
            INFO("S" << i + 1 << j + 1);
            CHECK(two.s[i][j] == one.s[i][j]);
        }
    CHECK(std::abs(one.s[1][0][1]) > 0.98);  // as on the CPU (test_sparams.cpp): the guide carries the power
    std::printf("[concurrent] S-parameters, 2 port-mode runs at a time on one device: |S21| %.4f, "
                "equal to one at a time\n",
                std::abs(one.s[1][0][1]));
}
