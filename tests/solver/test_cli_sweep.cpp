// golightly-cli sweep / optimize and --param, end to end (exit codes, messages, outputs).
// Runs the built executable (GOLIGHTLY_CLI_PATH) through the shell.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "golightly/parameters.hpp"
#include "golightly/sweep.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;
using golightly::test::quote;
using golightly::test::slurp;

namespace {

struct Cli {
    int code = -1;
    std::string out, err;
};

Cli cli(const fs::path& dir, const std::string& args) {
    static int n = 0;
    const fs::path out = dir / ("out" + std::to_string(n) + ".txt"), err = dir / ("err" + std::to_string(n++) + ".txt");
    const std::string cmd = quote(GOLIGHTLY_CLI_PATH) + " " + args + " </dev/null >" + quote(out.string()) + " 2>" +
                            quote(err.string());
    const int status = std::system(cmd.c_str());
    Cli r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

/// A coarse 1D-like slab (0.05 um cells) whose thickness is the parameter d.
const char* kSlab = R"JSON({"format": "golightly-project", "version": 1, "name": "slab",
  "parameters": {"d": "300 nm"},
  "domain": {"size": [2.0, 0.25], "cell_size": 0.05, "boundaries": {"x": "pml", "y": "periodic"}, "pml": {"cells": 8}},
  "materials": [{"id": "glass", "epsilon_inf": 2.25}],
  "layers": [{"name": "slab", "material": "glass", "shapes": [{"type": "rectangle", "min": [1.0, 0], "max": ["1.0 + d", 0.25]}]}],
  "sources": [{"name": "src", "type": "line", "from": [0.3, 0], "to": [0.3, 0.25],
               "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.6}}],
  "monitors": [{"name": "R", "type": "flux", "from": [0.6, 0], "to": [0.6, 0.25], "direction": "-x", "kind": "reflection"},
               {"name": "T", "type": "flux", "from": [1.7, 0], "to": [1.7, 0.25], "direction": "+x", "kind": "transmission"}],
  "run": {"spectrum": {"wavelength_min": 1.3, "wavelength_max": 1.8, "points": 11},
          "stop": {"max_time_fs": 100}, "normalization": {"enabled": true}, "backend": "cpu"}})JSON";

}  // namespace

TEST_CASE("cli: --param overrides for check, sweep writes sweep.csv and resumes", "[cli][sweep]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(golightly::expressions_available());
    golightly::test::Scratch dir("cli", "sweep");
    const fs::path project = dir.path / "slab.glproj";
    std::ofstream(project) << kSlab;
    const std::string p = quote(project.string());

    CHECK(cli(dir.path, "check " + p + " --param d=0.4 --json").code == 0);
    const Cli unknown = cli(dir.path, "check " + p + " --param q=0.4");
    CHECK(unknown.code == 2);
    CHECK(unknown.err.find("parameters.q: is not a parameter of the project (it has: d)") != std::string::npos);
    const Cli bad_expr = cli(dir.path, "check " + p + " --param 'd=1/0'");
    CHECK(bad_expr.code == 2);
    CHECK(bad_expr.err.find("parameters.d: the expression \"1/0\": division by zero") != std::string::npos);
    CHECK(cli(dir.path, "check " + p + " --param 1d=2").code == 1);
    CHECK(cli(dir.path, "run " + p + " --param d").code == 1);

    const std::string out = quote((dir.path / "sw").string());
    const Cli first = cli(dir.path, "sweep " + p + " --param d=0.2:0.4:2 --at 1.55,1.4 --threads 1 --out " + out);
    INFO(first.out << first.err);
    REQUIRE(first.code == 0);
    CHECK(first.out.find("sweep: 2 designs: 2 run, 0 reused, 0 failed") != std::string::npos);
    const std::string csv = slurp(dir.path / "sw" / "sweep.csv");
    CHECK(csv.rfind("design,d,R@1.55,R@1.4,T@1.55,T@1.4,status\n0,0.2,", 0) == 0);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
    CHECK(slurp(dir.path / "sw" / "design_0001" / "design.glproj").find("\"1.0 + d\"") != std::string::npos);
    const Cli again = cli(dir.path, "sweep " + p + " --param d=0.2:0.4:2 --at 1.55,1.4 --threads 1 --out " + out);
    CHECK(again.code == 0);
    CHECK(again.out.find("sweep: 2 designs: 0 run, 2 reused, 0 failed") != std::string::npos);
    CHECK(slurp(dir.path / "sw" / "sweep.csv").find(",reused\n") != std::string::npos);

    // Units and expressions in the range: the same designs (all reused, none run).
    const Cli units = cli(dir.path, "sweep " + p + " --param 'd=200nm:d+100nm:2' --at 1.55,1.4 --out " + out);
    INFO(units.out << units.err);
    CHECK(units.code == 0);
    CHECK(units.out.find("sweep: 2 designs: 0 run, 2 reused, 0 failed") != std::string::npos);
    const Cli bad_unit = cli(dir.path, "sweep " + p + " --param 'd=200nm:0.4:x' --out " + out);
    CHECK(bad_unit.code == 1);
    CHECK(bad_unit.err.find("--param d=200nm:0.4:x: \"x\": ") != std::string::npos);

    // Two CPU workers (the project runs on the CPU): each design a child `golightly-cli run
    // --param ... --threads 1` (--threads 2 shared by 2 workers): the same values as in process.
    const std::string out2 = quote((dir.path / "sw2").string());
    const Cli two = cli(dir.path, "sweep " + p + " --param d=0.2:0.4:2 --at 1.55,1.4 --threads 2 --devices 2 --out " + out2);
    INFO(two.out << two.err);
    REQUIRE(two.code == 0);
    CHECK(two.out.find("sweep: 2 CPU workers, 1 thread each") != std::string::npos);
    std::string csv2 = slurp(dir.path / "sw2" / "sweep.csv");
    CHECK(csv2 == csv);
    CHECK(slurp(dir.path / "sw2" / "design_0001" / "run.log").find("results: ") != std::string::npos);

    const Cli outside = cli(dir.path, "sweep " + p + " --param d=0.2:0.4:2 --at 2.5 --out " + out);
    CHECK(outside.code == 1);
    CHECK(outside.err.find("outside the run's spectrum") != std::string::npos);
    CHECK(cli(dir.path, "sweep " + p + " --param d=0.2:0.4 --out " + out).code == 1);
    const Cli bad_objective = cli(dir.path, "optimize " + p + " --objective 'Q(1.55)' --param d=0.2..0.4 --out " + out);
    CHECK(bad_objective.code == 1);
    CHECK(bad_objective.err.find("monitor functions: R, T") != std::string::npos);
    std::printf("cli sweep: %s", first.out.c_str());
}

TEST_CASE("sweep --devices: the worker plan and the children's CUDA_VISIBLE_DEVICES", "[cli][sweep]") {
    using golightly::child_environment;
    using golightly::DevicePlan;
    using golightly::plan_devices;
    // CPU-only (or --backend cpu): one in-process worker with every thread; N workers share them.
    DevicePlan cpu = plan_devices("auto", 0, nullptr, false, 8);
    CHECK(cpu.workers() == 1);
    CHECK(cpu.in_process());
    CHECK(cpu.threads_per_worker == 8);
    cpu = plan_devices("3", 4, nullptr, false, 8);  // CUDA devices present but the runs use the CPU
    CHECK(cpu.workers() == 3);
    CHECK(cpu.cpu_workers == 3);
    CHECK(cpu.threads_per_worker == 2);
    CHECK_FALSE(cpu.in_process());
    const std::vector<std::string> parent = {"PATH=/usr/bin", "CUDA_VISIBLE_DEVICES=2,3", "HOME=/home/u"};
    CHECK(child_environment(parent, cpu, 2) == parent);  // CPU workers keep the environment
    CHECK(plan_devices("8", 0, nullptr, false, 2).threads_per_worker == 1);

    // The parent sees devices 2 and 3 (CUDA_VISIBLE_DEVICES=2,3): its ordinals 0 and 1 are
    // physical devices 2 and 3, and the children must get "2" and "3", not "0" and "1".
    const DevicePlan all = plan_devices("auto", 2, "2,3", true, 8);
    REQUIRE(all.workers() == 2);
    CHECK(all.devices == std::vector<std::string>{"2", "3"});
    CHECK(all.ordinals == std::vector<int>{0, 1});
    CHECK(child_environment(parent, all, 0) ==
          std::vector<std::string>{"PATH=/usr/bin", "HOME=/home/u", "CUDA_VISIBLE_DEVICES=2"});
    CHECK(child_environment(parent, all, 1) ==
          std::vector<std::string>{"PATH=/usr/bin", "HOME=/home/u", "CUDA_VISIBLE_DEVICES=3"});
    CHECK(plan_devices("all", 2, "2,3", true, 8).devices == all.devices);
    CHECK(plan_devices("1,0", 2, "2, 3", true, 8).devices == std::vector<std::string>{"3", "2"});
    const DevicePlan second = plan_devices("1,", 2, "2,3", true, 8);  // one device, not ordinal 0
    CHECK(second.devices == std::vector<std::string>{"3"});
    CHECK_FALSE(second.in_process());
    CHECK(plan_devices("1", 2, "2,3", true, 8).in_process());  // one worker on ordinal 0: in this process
    // UUIDs and MIG instances pass through; no parent mask: the ordinals themselves.
    CHECK(plan_devices("auto", 2, "GPU-6f1c,MIG-0a2b", true, 8).devices == std::vector<std::string>{"GPU-6f1c", "MIG-0a2b"});
    CHECK(plan_devices("0,2", 4, nullptr, true, 8).devices == std::vector<std::string>{"0", "2"});
    // An empty CUDA_VISIBLE_DEVICES hides every device: one CPU worker.
    CHECK(plan_devices("auto", 0, "", true, 8).cpu_workers == 1);

    CHECK_THROWS_WITH(plan_devices("3", 2, nullptr, true, 8), Catch::Contains("only 2 CUDA devices are visible"));
    CHECK_THROWS_WITH(plan_devices("0,5", 2, nullptr, true, 8), Catch::Contains("device 5 does not exist"));
    CHECK_THROWS_WITH(plan_devices("0,0", 2, nullptr, true, 8), Catch::Contains("named twice"));
    CHECK_THROWS_WITH(plan_devices("all", 0, nullptr, false, 8), Catch::Contains("--devices all: no CUDA device is visible"));
    CHECK_THROWS_WITH(plan_devices("0,1", 2, nullptr, false, 8), Catch::Contains("the runs use the CPU backend"));
    CHECK_THROWS_WITH(plan_devices("0", 2, nullptr, true, 8), Catch::Contains("1 to 64"));
    CHECK_THROWS_WITH(plan_devices("gpu", 2, nullptr, true, 8), Catch::Contains("expected auto, all"));
}

TEST_CASE("sweep --concurrent: several runs per device as threads, and auto's count", "[cli][sweep]") {
    using golightly::auto_concurrency;
    using golightly::DevicePlan;
    using golightly::parse_concurrent;
    using golightly::plan_devices;
    CHECK(parse_concurrent("auto") == 0);
    CHECK(parse_concurrent("") == 0);
    CHECK(parse_concurrent("4") == 4);
    CHECK_THROWS_WITH(parse_concurrent("0"), Catch::Contains("1 to 64"));
    CHECK_THROWS_WITH(parse_concurrent("65"), Catch::Contains("1 to 64"));
    CHECK_THROWS_WITH(parse_concurrent("x2"), Catch::Contains("--concurrent x2"));
    // Two devices seen as 2 and 3, three runs each: six workers in this process, worker w
    // on ordinal w mod 2; one run per device stays the child-process plan.
    DevicePlan p = plan_devices("auto", 2, "2,3", true, 8);
    CHECK_FALSE(p.threaded());
    CHECK_FALSE(p.in_process());
    p.concurrent = 3;
    CHECK(p.threaded());
    CHECK(p.in_process());
    CHECK(p.workers() == 6);
    CHECK(p.ordinal_of(0) == 0);
    CHECK(p.ordinal_of(3) == 1);
    CHECK(p.ordinal_of(4) == 0);
    DevicePlan cpu = plan_devices("auto", 0, nullptr, false, 8);
    cpu.concurrent = 4;  // CPU runs: no effect
    CHECK_FALSE(cpu.threaded());
    CHECK(cpu.workers() == 1);
    // auto: 80 % of the free memory over (state + context), at most 8 and the host's cores
    const std::size_t MiB = std::size_t(1) << 20, GiB = MiB << 10;
    CHECK(auto_concurrency(100 * MiB, 140 * GiB, 16) == 8);
    CHECK(auto_concurrency(100 * MiB, 140 * GiB, 3) == 3);
    CHECK(auto_concurrency(30 * GiB, 140 * GiB, 16) == 3);  // 112 GiB / (30 GiB + 64 MiB)
    CHECK(auto_concurrency(200 * GiB, 140 * GiB, 16) == 1);  // never 0
}

TEST_CASE("sweep --param: plain numbers need no expression support", "[cli][sweep]") {
    CHECK(golightly::parse_sweep_parameter("d=0.1:0.3:3").values == std::vector<double>{0.1, 0.2, 0.3});
}

TEST_CASE("sweep/optimize --param: units and expressions over the project's parameters", "[cli][sweep]" GOLIGHTLY_NEEDS_MUPARSER) {
    using golightly::parse_bound_parameter;
    using golightly::parse_sweep_parameter;
    REQUIRE(golightly::expressions_available());
    const std::vector<std::pair<std::string, double>> vars = {{"lambda", 1.6}, {"a", 0.2}, {"b", 0.25}};
    const auto w = parse_sweep_parameter("w=400nm:600nm:11", vars);
    REQUIRE(w.values.size() == 11);
    CHECK(w.values.front() == Approx(0.4).epsilon(1e-15));
    CHECK(w.values[5] == Approx(0.5).epsilon(1e-15));
    CHECK(w.values.back() == Approx(0.6).epsilon(1e-15));
    const auto q = parse_sweep_parameter("d=0:lambda/4:3", vars);
    CHECK(q.values == std::vector<double>{0, 0.2, 0.4});
    const auto list = parse_sweep_parameter("g=100nm, min(a,b), 0.3um", vars);  // the comma in min() does not split
    REQUIRE(list.values.size() == 3);
    CHECK(list.values[0] == Approx(0.1).epsilon(1e-15));
    CHECK(list.values[1] == 0.2);
    CHECK(list.values[2] == Approx(0.3).epsilon(1e-15));
    const auto tern = parse_sweep_parameter("t=a>0?1:2:3:2", vars);  // the ternary's ':' does not split
    CHECK(tern.values == std::vector<double>{1, 3});
    CHECK(parse_sweep_parameter("n=1:2:2*2", vars).values.size() == 4);
    const auto b = parse_bound_parameter("d=0.1..lambda/4", vars);
    CHECK(b.lo == 0.1);
    CHECK(b.hi == Approx(0.4).epsilon(1e-15));
    const auto u = parse_bound_parameter("w=300nm..0.7um", vars);
    CHECK(u.lo == Approx(0.3).epsilon(1e-15));
    CHECK(u.hi == Approx(0.7).epsilon(1e-15));
    CHECK_THROWS_WITH(parse_sweep_parameter("w=400nm:lam:3", vars),
                      Catch::Contains("--param w=400nm:lam:3: \"lam\": ") && Catch::Contains("lam"));
    CHECK_THROWS_WITH(parse_sweep_parameter("w=400nm:600nm:2.5", vars), Catch::Contains("N must be an integer"));
    CHECK_THROWS_WITH(parse_bound_parameter("d=lambda/4..0.1", vars), Catch::Contains("LO must be below HI"));
    CHECK_THROWS_WITH(parse_bound_parameter("d=0.1..", vars), Catch::Contains("a value is empty"));
}

namespace {
/// The cells of CSV `line` (RFC 4180 quotes).
std::vector<std::string> csv_cells(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) out.emplace_back();
        else out.back() += c;
    }
    return out;
}
}  // namespace

TEST_CASE("cli: sweep --objective adds a column per objective equal to the flux read directly", "[cli][sweep][objective]" GOLIGHTLY_NEEDS_MUPARSER) {
    golightly::test::Scratch dir("cli", "objective");
    const fs::path project = dir.path / "slab.glproj";
    std::ofstream(project) << kSlab;
    const std::string p = quote(project.string());
    const std::string out = quote((dir.path / "sw").string());

    // Checked before any run: an unknown function, a wavelength outside the spectrum.
    const Cli unknown = cli(dir.path, "sweep " + p + " --param d=0.2:0.4:2 --objective 'Q(1.55)' --out " + out);
    CHECK(unknown.code == 1);
    CHECK(unknown.err.find("--objective \"Q(1.55)\"") != std::string::npos);
    CHECK(unknown.err.find("monitor functions: R, T, R_flux, T_flux") != std::string::npos);
    const Cli outside = cli(dir.path, "sweep " + p + " --param d=0.2:0.4:2 --objective 'min(T(wl), wl=1.5:1.9:3)' --out " + out);
    CHECK(outside.code == 1);
    CHECK(outside.err.find("T(1.9): 1.9 um is outside the run's spectrum (1.3 to 1.8 um)") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path / "sw" / "design_0000" / "summary.json"));

    const Cli r = cli(dir.path, "sweep " + p + " --param d=0.2:0.4:2 --at 1.55,1.4 --threads 1 --objective 'T(1.55)' "
                                "--objective 'mean(T(wl) + R(wl), wl=1.4,1.55)' --out " + out);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const std::string csv = slurp(dir.path / "sw" / "sweep.csv");
    INFO(csv);
    CHECK(csv.rfind("design,d,R@1.55,R@1.4,T@1.55,T@1.4,T(1.55),\"mean(T(wl) + R(wl), wl=1.4,1.55)\",status\n", 0) == 0);
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    int rows = 0;
    while (std::getline(in, line)) {
        const auto c = csv_cells(line);
        REQUIRE(c.size() == 9);
        CHECK(c[8] == "ok");
        const double r155 = std::stod(c[2]), r14 = std::stod(c[3]), t155 = std::stod(c[4]), t14 = std::stod(c[5]);
        // The same spectra.csv values through two interpolation formulas, printed with 10 digits.
        CHECK(std::stod(c[6]) == Approx(t155).epsilon(1e-9));
        CHECK(std::stod(c[7]) == Approx(0.5 * (t14 + r14 + t155 + r155)).epsilon(1e-9));
        ++rows;
    }
    CHECK(rows == 2);

    // optimize takes the same objectives; optimize.csv keeps its format.
    const std::string oout = quote((dir.path / "opt").string());
    const Cli o = cli(dir.path, "optimize " + p + " --param d=0.2..0.4 --objective 'min(T(wl), wl=1.4,1.6)' "
                                "--algorithm cobyla --max-evals 2 --threads 1 --out " + oout);
    INFO(o.out << o.err);
#ifdef GOLIGHTLY_TEST_HAVE_NLOPT
    CHECK(o.code == 0);
    CHECK(slurp(dir.path / "opt" / "optimize.csv").rfind("evaluation,d,objective,status\n0,", 0) == 0);
#else
    CHECK(o.code != 0);
#endif
}
