// golightly-cli: a results folder that cannot be written is found before the run, not after
// it (issue 55): run, sweep and sparams exit 2 with the folder and the OS error, having
// compiled and run nothing. The folder is a path under a regular file ("<file>/sub"), which
// no one can create, root included (tests may run as root, where permissions do not stop
// writes).
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Cli {
    int code = -1;
    std::string out, err;
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

Cli cli(const fs::path& dir, const std::string& args) {
    static int n = 0;
    const fs::path out = dir / ("out" + std::to_string(n) + ".txt"), err = dir / ("err" + std::to_string(n++) + ".txt");
    const int status = std::system((quote(GOLIGHTLY_CLI_PATH) + " " + args + " </dev/null >" + quote(out.string()) + " 2>" +
                                    quote(err.string()))
                                       .c_str());
    Cli r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

/// A coarse slab with a plain-number parameter d (a sweep needs no expression support).
const char* kSlab = R"JSON({"format": "golightly-project", "version": 1, "name": "slab",
  "parameters": {"d": 0.3},
  "domain": {"size": [2.0, 0.25], "cell_size": 0.05, "boundaries": {"x": "pml", "y": "periodic"}, "pml": {"cells": 8}},
  "materials": [{"id": "glass", "epsilon_inf": 2.25}],
  "layers": [{"name": "slab", "material": "glass", "shapes": [{"type": "rectangle", "min": [1.0, 0], "max": [1.3, 0.25]}]}],
  "sources": [{"name": "src", "type": "line", "from": [0.3, 0], "to": [0.3, 0.25],
               "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.6}}],
  "monitors": [{"name": "T", "type": "flux", "from": [1.7, 0], "to": [1.7, 0.25], "direction": "+x", "kind": "transmission"}],
  "run": {"spectrum": {"wavelength_min": 1.3, "wavelength_max": 1.8, "points": 11},
          "stop": {"max_time_fs": 100}, "backend": "cpu"}})JSON";

}  // namespace

TEST_CASE("cli: an unwritable results folder exits 2 before run or sweep or sparams start", "[cli]") {
    std::random_device rd;
    const fs::path dir = fs::temp_directory_path() / ("golightly_cli_outdir_" + std::to_string(rd()));
    fs::create_directories(dir);
    const fs::path project = dir / "slab.glproj";
    std::ofstream(project) << kSlab;
    const fs::path blocker = dir / "blocker";
    std::ofstream(blocker) << "a regular file, not a folder\n";
    const fs::path out = blocker / "sub";
    const std::string ports = std::string(GOLIGHTLY_SOURCE_DIR) + "/examples/strip_sparams_3d.glproj";
    const std::vector<std::string> commands = {
        "run " + quote(project.string()) + " --out " + quote(out.string()),
        "sweep " + quote(project.string()) + " --param d=0.2:0.4:2 --threads 1 --out " + quote(out.string()),
        "sparams " + quote(ports) + " --out " + quote(out.string()),
    };
    for (const std::string& c : commands) {
        INFO(c);
        const Cli r = cli(dir, c);
        INFO(r.err);
        CHECK(r.code == 2);
        // the folder and the OS's reason, in one line
        CHECK(r.err.find("error: cannot write the results folder " + out.string() + ": Not a directory") != std::string::npos);
        // nothing ran: no progress lines (stderr), no run failure, no results anywhere
        CHECK(r.err.find("run failed") == std::string::npos);
        CHECK(r.err.find("step") == std::string::npos);
        CHECK(r.out.find("step") == std::string::npos);
        CHECK_FALSE(fs::exists(dir / "slab_results"));
        CHECK_FALSE(fs::exists(dir / "slab_sweep"));
    }
    // a writable --out that does not exist yet is created (with its parents) and left
    // without the probe file
    const fs::path fresh = dir / "a" / "b";
    const Cli ok = cli(dir, "run " + quote(project.string()) + " --max-steps 10 --out " + quote(fresh.string()));
    INFO(ok.err);
    CHECK(ok.code == 0);
    CHECK(fs::exists(fresh / "summary.json"));
    for (const auto& e : fs::directory_iterator(fresh))
        CHECK(e.path().filename().string().rfind(".golightly-write-check", 0) != 0);
    fs::remove_all(dir);
}
