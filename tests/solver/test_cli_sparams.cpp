// golightly-cli sparams (cmd_sparams.cpp): usage and project errors (the S-parameter
// computation itself is tested through run_sparameters in test_sparams.cpp; the example
// examples/strip_sparams_3d.glproj runs it end to end).
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "golightly/project.hpp"

namespace fs = std::filesystem;

namespace {

struct Out {
    int code = -1;
    std::string err;
};

Out cli(const std::string& args, const fs::path& dir) {
    const fs::path err = dir / "err.txt";
    const std::string cmd = std::string("'") + GOLIGHTLY_CLI_PATH + "' " + args + " </dev/null >/dev/null 2>'" +
                            err.string() + "'";
    const int status = std::system(cmd.c_str());
    Out o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream f(err);
    std::stringstream ss;
    ss << f.rdbuf();
    o.err = ss.str();
    return o;
}

}  // namespace

TEST_CASE("cli: sparams exits 2 naming the ports entry of a bad project", "[cli][sparams]") {
    std::random_device rd;
    const fs::path dir = fs::temp_directory_path() / ("golightly_cli_sparams_" + std::to_string(rd()));
    fs::create_directories(dir);
    const fs::path example = fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "strip_sparams_3d.glproj";
    std::ifstream in(example);
    golightly::Json doc = golightly::Json::parse(in);
    doc["ports"][1]["direction"] = "+y";
    const fs::path bad = dir / "bad.glproj";
    std::ofstream(bad) << doc.dump(2);
    Out o = cli("sparams '" + bad.string() + "' --out '" + (dir / "o").string() + "'", dir);
    INFO(o.err);
    CHECK(o.code == 2);
    CHECK(o.err.find("ports[1].direction") != std::string::npos);
    doc.erase("ports");
    std::ofstream(bad) << doc.dump(2);
    o = cli("sparams '" + bad.string() + "'", dir);
    CHECK(o.code == 2);
    CHECK(o.err.find("ports") != std::string::npos);
    o = cli("sparams", dir);  // PROJECT is required
    CHECK(o.code == 1);
    fs::remove_all(dir);
}

namespace {

// A small 2D slab (eps 12, 0.3 um, TMz) between two line ports, 0.04 um cells, CPU.
golightly::Json slab2d_project() {
    return golightly::Json::parse(R"({
  "format": "golightly-project", "version": 1, "name": "slab between two ports",
  "domain": {"dimensions": 2, "size": [3.0, 2.0], "cell_size": 0.04, "polarization": "TMz",
             "boundaries": {"x": "pml", "y": "pml"}, "pml": {"cells": 10}, "background": "air"},
  "materials": [{"id": "si", "name": "eps 12", "epsilon_inf": 12.0}],
  "layers": [{"name": "wg", "material": "si", "shapes": [{"type": "rectangle", "min": [-1.0, 0.85], "max": [4.0, 1.15]}]}],
  "sources": [], "monitors": [],
  "ports": [{"name": "a", "center": [0.6, 1.0], "size": [0, 1.8], "direction": "+x"},
            {"name": "b", "center": [2.4, 1.0], "size": [0, 1.8], "direction": "-x"}],
  "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 3}, "courant": 0.5,
          "stop": {"decay_db": 40, "max_time_fs": 600}, "precision": "float64", "backend": "cpu"}
})");
}

std::string slurp(const fs::path& f) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

// --devices 2 on the CPU: the two port runs are child processes (sparams --port-mode J),
// queued over two workers; the Touchstone and CSV files equal those of one worker (the
// runs in this process, one after the other) byte for byte. `run` with run.sparameters
// and run.devices [0, 1] takes the same path.
TEST_CASE("cli: sparams --devices spreads the port runs over child processes, results identical", "[cli][sparams]") {
    std::random_device rd;
    const fs::path dir = fs::temp_directory_path() / ("golightly_cli_sparams_dev_" + std::to_string(rd()));
    fs::create_directories(dir);
    golightly::Json doc = slab2d_project();
    const fs::path proj = dir / "slab.glproj";
    std::ofstream(proj) << doc.dump(2);
    // (--concurrent applies to CUDA runs: on the CPU it warns and changes nothing)
    Out one = cli("sparams '" + proj.string() + "' --threads 1 --devices 1 --concurrent 2 --out '" +
                      (dir / "one").string() + "'",
                  dir);
    INFO(one.err);
    REQUIRE(one.code == 0);
    CHECK(one.err.find("warning: --concurrent applies to CUDA runs") != std::string::npos);
    Out two = cli("sparams '" + proj.string() + "' --threads 1 --devices 2 --out '" + (dir / "two").string() + "'", dir);
    INFO(two.err);
    REQUIRE(two.code == 0);
    CHECK(slurp(dir / "one" / "sparams.s2p") == slurp(dir / "two" / "sparams.s2p"));
    CHECK(slurp(dir / "one" / "sparams.csv") == slurp(dir / "two" / "sparams.csv"));
    CHECK(slurp(dir / "one" / "sparams.csv").size() > 200);
    // the children's logs and runs
    CHECK(fs::exists(dir / "two" / "port_1.log"));
    CHECK(fs::exists(dir / "two" / "port_2.json"));
    CHECK(!fs::exists(dir / "one" / "port_1.json"));
    // run.sparameters with run.devices [0, 1]
    doc["run"]["sparameters"] = true;
    doc["run"]["devices"] = golightly::Json::array({0, 1});
    std::ofstream(proj) << doc.dump(2);
    Out run = cli("run '" + proj.string() + "' --threads 1 --out '" + (dir / "run").string() + "'", dir);
    INFO(run.err);
    REQUIRE(run.code == 0);
    CHECK(fs::exists(dir / "run" / "port_2.json"));
    CHECK(slurp(dir / "one" / "sparams.s2p") == slurp(dir / "run" / "sparams.s2p"));
    // a bad --devices exits 1
    Out bad = cli("sparams '" + proj.string() + "' --devices x1 --out '" + (dir / "bad").string() + "'", dir);
    CHECK(bad.code == 1);
    CHECK(bad.err.find("--devices x1") != std::string::npos);
    Out bad_concurrent =
        cli("sparams '" + proj.string() + "' --concurrent 0 --out '" + (dir / "bad").string() + "'", dir);
    CHECK(bad_concurrent.code == 1);
    CHECK(bad_concurrent.err.find("--concurrent 0") != std::string::npos);
    fs::remove_all(dir);
}

namespace {

// The first line of `err` that names `field`, without the "error: " prefix (empty if none).
std::string line_naming(const std::string& err, const std::string& field) {
    std::stringstream ss(err);
    std::string line;
    while (std::getline(ss, line))
        if (line.find(field) != std::string::npos) return line;
    return {};
}

}  // namespace

// check validates the ports as run does (sparams.hpp validate_ports): each bad port is
// refused by check, run (run.sparameters) and sparams with exit 2 and the same line, naming
// the project file, ports[i].<field> and the port's name where the refusal comes from its
// compiled mode plane.
TEST_CASE("cli: check refuses a bad port as run and sparams do, in the same words", "[cli][sparams][check]") {
    std::random_device rd;
    const fs::path dir = fs::temp_directory_path() / ("golightly_cli_check_ports_" + std::to_string(rd()));
    fs::create_directories(dir);
    const fs::path example = fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "strip_sparams_3d.glproj";
    std::ifstream in(example);
    const golightly::Json good = golightly::Json::parse(in);
    struct Case {
        std::string what, field, port_name;
        std::function<void(golightly::Json&)> edit;
    };
    const std::vector<Case> cases = {
        {"outside the domain", "ports[1].center", "out",
         [](golightly::Json& d) { d["ports"][1]["center"] = {5.5, 1.0, 0.8}; }},
        {"not normal to an axis", "ports[0].size", "",
         [](golightly::Json& d) { d["ports"][0]["size"] = {0.5, 2.0, 1.6}; }},
        {"direction off the normal", "ports[1].direction", "",
         [](golightly::Json& d) { d["ports"][1]["direction"] = "+y"; }},
        {"no such mode (a 0.4 um window cuts off all but the lowest modes)", "ports[0].modes", "in",
         [](golightly::Json& d) {
             d["ports"][0]["size"] = {0, 0.4, 0.4};
             d["ports"][0]["modes"] = {0, 3};
         }},
        {"bend axis along the normal", "ports[0].bend_axis", "in",
         [](golightly::Json& d) {
             d["ports"][0]["bend_radius"] = 5.0;
             d["ports"][0]["bend_axis"] = "x";
         }},
        {"bend without an axis", "ports[0].bend_axis", "",
         [](golightly::Json& d) { d["ports"][0]["bend_radius"] = 5.0; }},
    };
    const fs::path bad = dir / "bad.glproj";
    {  // the example itself passes check
        std::ofstream(bad) << good.dump(2);
        const Out o = cli("check '" + bad.string() + "'", dir);
        INFO(o.err);
        CHECK(o.code == 0);
    }
    for (const Case& c : cases) {
        golightly::Json doc = good;
        c.edit(doc);
        doc["run"]["sparameters"] = true;
        std::ofstream(bad) << doc.dump(2);
        const Out oc = cli("check '" + bad.string() + "'", dir);
        const Out orun = cli("run '" + bad.string() + "' --out '" + (dir / "r").string() + "'", dir);
        const Out osp = cli("sparams '" + bad.string() + "' --out '" + (dir / "s").string() + "'", dir);
        INFO(c.what << "\ncheck: " << oc.err << "\nrun: " << orun.err << "\nsparams: " << osp.err);
        CHECK(oc.code == 2);
        CHECK(orun.code == 2);
        CHECK(osp.code == 2);
        const std::string lc = line_naming(oc.err, c.field);
        CHECK(!lc.empty());
        CHECK(lc.find(bad.string()) != std::string::npos);
        if (!c.port_name.empty()) CHECK(lc.find("port '" + c.port_name + "'") != std::string::npos);
        CHECK(line_naming(orun.err, c.field) == lc);
        CHECK(line_naming(osp.err, c.field) == lc);
        CHECK(!fs::exists(dir / "r" / "sparams.csv"));
    }
    fs::remove_all(dir);
}
