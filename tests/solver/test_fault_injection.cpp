// Issue 19, fault injection: the disk fills while results are written and while a project
// is saved (simulated with RLIMIT_FSIZE: writes past the limit fail with EFBIG, the same
// error path as ENOSPC), and a run is killed (SIGKILL) halfway. Divergence (test_cli.cpp
// "an unstable run exits 3", test_run_driver.cpp "divergence stops the run and locates the
// non-finite cell", tests/gui/tst_run_errors.cpp) and GPU out of memory
// (tests/gpu/run_fallback.cpp, test_cli.cpp "--backend cuda without a usable device") have
// their tests already; the IDE's recovery after a crash is tests/gui/tst_document.cpp
// autosaveRecovery.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include "golightly/project.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;
using namespace golightly;

namespace {

using test::quote;
using test::slurp;
/// A scratch directory of this file's tests (test_files.hpp).
struct Scratch : test::Scratch {
    explicit Scratch(const std::string& tag) : test::Scratch("fault", tag) {}
};

/// A small TMz run (0.3 s) with a time probe and a DFT field map (an HDF5 file of a few KiB).
std::string small_project(double max_time_fs) {
    return R"JSON({
      "format": "golightly-project", "version": 1, "name": "fault",
      "domain": { "size": [2.0, 1.0, 0], "cell_size": 0.05, "pml": {"cells": 8},
                  "boundaries": {"x": "pml", "y": "periodic", "z": "pml"} },
      "materials": [ { "id": "glass", "name": "glass", "epsilon_inf": 2.25 } ],
      "layers": [ { "name": "slab", "material": "glass",
                    "shapes": [ { "type": "rectangle", "min": [1.2, 0.0], "max": [1.5, 1.0] } ] } ],
      "sources": [ { "name": "src", "type": "line", "from": [0.3, 0.0], "to": [0.3, 1.0],
                     "waveform": { "type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.6 } } ],
      "monitors": [
        { "name": "T", "type": "flux", "from": [1.8, 0.0], "to": [1.8, 1.0], "direction": "+x", "kind": "transmission" },
        { "name": "probe", "type": "time", "at": [1.0, 0.5] },
        { "name": "map", "type": "dft_field", "wavelengths": [1.55], "components": ["Ez"] } ],
      "run": { "spectrum": { "wavelength_min": 1.3, "wavelength_max": 1.8, "points": 11 },
               "stop": { "decay_db": 300, "max_time_fs": )JSON" +
           std::to_string(max_time_fs) + R"JSON( } }
    })JSON";
}

int shell(const std::string& cmd) {
    const int st = std::system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

TEST_CASE("fault: the disk fills while the results are written: exit 3, no torn file", "[fault][cli]") {
    Scratch dir("results");
    const fs::path project = dir.path / "p.glproj";
    std::ofstream(project) << small_project(100);
    const fs::path out = dir.path / "out";
    const fs::path err = dir.path / "err.txt";
    // ulimit -f 2: files stop at 2 KiB; SIGXFSZ ignored, so write() fails with EFBIG.
    const int rc = shell("(trap '' XFSZ; ulimit -f 2; exec " + quote(GOLIGHTLY_CLI_PATH) + " run " +
                         quote(project.string()) + " --backend cpu --out " + quote(out.string()) + ") </dev/null >/dev/null 2>" +
                         quote(err.string()));
    const std::string msg = slurp(err);
    INFO(msg);
    CHECK(rc == 3);
    CHECK(msg.find("cannot write the results") != std::string::npos);
    // every file there is complete: written to a temporary file and renamed, or absent
    for (const auto& e : fs::recursive_directory_iterator(out)) {
        INFO(e.path());
        CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
        if (e.path().extension() == ".json") CHECK_NOTHROW(Json::parse(slurp(e.path())));
    }
    // the project is untouched and a run with room on the disk succeeds
    CHECK(slurp(project) == small_project(100));
    CHECK(shell(quote(GOLIGHTLY_CLI_PATH) + " run " + quote(project.string()) + " --backend cpu --out " +
                quote(out.string()) + " >/dev/null 2>&1 </dev/null") == 0);
    CHECK(fs::exists(out / "spectra.csv"));
}

TEST_CASE("fault: the disk fills while a project is saved: the file on disk stays intact", "[fault][project]") {
    Scratch dir("save");
    const fs::path file = dir.path / "p.glproj";
    Project p = parse_project(small_project(100), "p.glproj");
    save_project(p, file);
    const std::string before = slurp(file);
    p.name = std::string(64 * 1024, 'n');  // the new version needs 64 KiB more
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {  // the child saves with a 16 KiB file size limit
        std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim {16 * 1024, 16 * 1024};
        ::setrlimit(RLIMIT_FSIZE, &lim);
        try {
            save_project(p, file);
            ::_exit(10);  // saved although the disk is "full"
        } catch (const std::runtime_error& e) {
            const std::string w = e.what();
            ::_exit(w.find("cannot write") != std::string::npos && w.find("unchanged") != std::string::npos ? 0 : 11);
        }
        ::_exit(12);
    }
    int st = 0;
    ::waitpid(pid, &st, 0);
    REQUIRE(WIFEXITED(st));
    CHECK(WEXITSTATUS(st) == 0);
    CHECK(slurp(file) == before);
    int entries = 0;
    for (const auto& e : fs::directory_iterator(dir.path)) entries += e.path().filename() == "p.glproj" ? 1 : 100;
    CHECK(entries == 1);  // no temporary file left behind
}

TEST_CASE("fault: a run killed halfway leaves the project intact, the next run works", "[fault][cli]") {
    Scratch dir("kill");
    const fs::path project = dir.path / "p.glproj";
    const std::string text = small_project(1e5);  // minutes: killed long before the end
    std::ofstream(project) << text;
    const fs::path out = dir.path / "out";
    const fs::path pid_file = dir.path / "pid";
    REQUIRE(shell(quote(GOLIGHTLY_CLI_PATH) + " run " + quote(project.string()) + " --backend cpu --threads 1 --out " +
                  quote(out.string()) + " </dev/null >/dev/null 2>&1 & echo $! > " + quote(pid_file.string())) == 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const pid_t pid = std::stoi(slurp(pid_file));
    REQUIRE(::kill(pid, SIGKILL) == 0);
    for (int k = 0; k < 100 && ::kill(pid, 0) == 0; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(slurp(project) == text);
    CHECK_NOTHROW(load_project(project));
    CHECK(shell(quote(GOLIGHTLY_CLI_PATH) + " run " + quote(project.string()) + " --backend cpu --max-steps 50 --out " +
                quote(out.string()) + " </dev/null >/dev/null 2>&1") == 0);
    const Json s = Json::parse(slurp(out / "summary.json"));
    CHECK(s["stop_reason"] == "max_steps");
}
