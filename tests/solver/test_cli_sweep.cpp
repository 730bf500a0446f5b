// golightly-cli sweep / optimize and --param, end to end (exit codes, messages, outputs).
// Runs the built executable (GOLIGHTLY_CLI_PATH) through the shell.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "golightly/parameters.hpp"
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

TEST_CASE("cli: --param overrides for check; sweep writes sweep.csv and resumes", "[cli][sweep]") {
    if (!golightly::expressions_available()) { WARN("SKIPPED: built without muparser"); return; }
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

    // Two "devices": each design a child `golightly-cli run --param ...` (CUDA_VISIBLE_DEVICES
    // 0 or 1; the project runs on the CPU): the same values as in process.
    const std::string out2 = quote((dir.path / "sw2").string());
    const Cli two = cli(dir.path, "sweep " + p + " --param d=0.2:0.4:2 --at 1.55,1.4 --threads 1 --devices 2 --out " + out2);
    INFO(two.out << two.err);
    REQUIRE(two.code == 0);
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
