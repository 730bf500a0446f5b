// golightly-cli end to end: exit codes, error messages, check --json, run outputs.
// Runs the built executable (GOLIGHTLY_CLI_PATH) through the shell.
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "test_files.hpp"

namespace fs = std::filesystem;

namespace {

struct CliResult {
    int exit_code = -1;
    std::string out, err;
};

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'') q += "'\\''";
        else q += c;
    }
    return q + "'";
}

fs::path scratch_dir(const std::string& tag) {
    std::random_device rd;
    const fs::path d = fs::temp_directory_path() / ("golightly_cli_" + tag + "_" + std::to_string(rd()));
    fs::create_directories(d);
    return d;
}

/// Runs golightly-cli with `args` (already shell-quoted where needed), stdin closed.
CliResult run_cli(const std::string& args) {
    static const fs::path dir = scratch_dir("io");
    static int counter = 0;
    const fs::path out = dir / ("out" + std::to_string(counter) + ".txt");
    const fs::path err = dir / ("err" + std::to_string(counter++) + ".txt");
    const std::string cmd = shell_quote(GOLIGHTLY_CLI_PATH) + " " + args + " </dev/null >" +
                            shell_quote(out.string()) + " 2>" + shell_quote(err.string());
    const int status = std::system(cmd.c_str());
    CliResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
}

/// A small TMz project: 2 x 1 um, 0.05 um cells, a Gaussian-pulse line source, a
/// dielectric block, transmission / reflection monitors, a time probe, a DFT field map.
const char* kSmallProject = R"JSON({
  "format": "golightly-project",
  "version": 1,
  "name": "cli test",
  "domain": { "dimensions": 2, "size": [2.0, 1.0, 0], "cell_size": 0.05, "polarization": "TMz",
              "boundaries": {"x": "pml", "y": "periodic", "z": "pml"}, "pml": {"cells": 8} },
  "materials": [ { "id": "glass", "name": "glass", "epsilon_inf": 2.25 } ],
  "layers": [ { "name": "slab", "material": "glass",
                "shapes": [ { "type": "rectangle", "min": [1.2, 0.0], "max": [1.5, 1.0] } ] } ],
  "sources": [ { "name": "src", "type": "line", "from": [0.3, 0.0], "to": [0.3, 1.0], "component": "Ez",
                 "profile": "uniform",
                 "waveform": { "type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.6 } } ],
  "monitors": [
    { "name": "R", "type": "flux", "from": [0.6, 0.0], "to": [0.6, 1.0], "direction": "-x", "kind": "reflection" },
    { "name": "T", "type": "flux", "from": [1.8, 0.0], "to": [1.8, 1.0], "direction": "+x", "kind": "transmission" },
    { "name": "probe", "type": "time", "at": [1.0, 0.5], "component": "Ez", "reduce": "value" },
    { "name": "map", "type": "dft_field", "wavelengths": [1.55], "components": ["Ez"] }
  ],
  "run": { "spectrum": { "wavelength_min": 1.3, "wavelength_max": 1.8, "points": 11 },
           "courant": 0.5, "stop": { "decay_db": 30, "max_time_fs": 150 },
           "normalization": { "enabled": true } }
})JSON";

fs::path write_small_project(const fs::path& dir) {
    const fs::path p = dir / "small.glproj";
    std::ofstream(p) << kSmallProject;
    return p;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            parts.push_back(cur);
            cur.clear();
        } else if (c != '\r') {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

}  // namespace

TEST_CASE("cli: --version prints the version and the CUDA status", "[cli]") {
    const CliResult r = run_cli("--version");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("golightly-cli 0.") != std::string::npos);
    CHECK(r.out.find("CUDA") != std::string::npos);
}

TEST_CASE("cli: bad usage exits 1", "[cli]") {
    CHECK(run_cli("").exit_code == 1);
    CHECK(run_cli("frobnicate").exit_code == 1);
    CHECK(run_cli("run").exit_code == 1);  // PROJECT missing
    CHECK(run_cli("run x.glproj --backend opencl").exit_code == 1);
    CHECK(run_cli("run x.glproj --precision float16").exit_code == 1);
    CHECK(run_cli("check x.glproj --bogus").exit_code == 1);
    CHECK(run_cli("bench --size 12x12").exit_code == 1);
    const CliResult help = run_cli("run --help");
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("--max-steps") != std::string::npos);
}

TEST_CASE("cli: a missing project file exits 2 naming the file", "[cli]") {
    const fs::path dir = scratch_dir("missing");
    const std::string missing = (dir / "no_such_project.glproj").string();
    for (const char* cmd : {"run", "check"}) {
        const CliResult r = run_cli(std::string(cmd) + " " + shell_quote(missing));
        INFO(cmd << ": " << r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("no_such_project.glproj") != std::string::npos);
    }
    fs::remove_all(dir);
}

TEST_CASE("cli: every invalid project exits 2 naming the file and the JSON path", "[cli]") {
    // a results folder no run may create (its own: the Release and ASan suites may run at once)
    const golightly::test::Scratch scratch("cli", "never");
    const fs::path never = scratch.path / "out";
    const fs::path dir = fs::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "invalid";
    const fs::path table = dir / "EXPECTED.tsv";
    REQUIRE(fs::exists(table));
    std::istringstream lines(read_file(table));
    std::string line;
    int checked = 0;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto cols = split(line, '\t');
        if (cols.size() < 2) continue;
        const fs::path file = dir / cols[0];
        const std::string expected_path = cols[1];
        for (const char* cmd : {"check", "run"}) {
            std::string args = std::string(cmd) + " " + shell_quote(file.string());
            if (std::string(cmd) == "run")
                args += " --out " + shell_quote(never.string());
            const CliResult r = run_cli(args);
            INFO(cmd << " " << cols[0] << " -> exit " << r.exit_code << ", stderr: " << r.err);
            CHECK(r.exit_code == 2);
            CHECK(r.err.find(cols[0]) != std::string::npos);
            CHECK(r.err.find(expected_path) != std::string::npos);
            CHECK(r.err.rfind("error: ", 0) == 0);
        }
        ++checked;
    }
    CHECK(checked >= 5);
    CHECK_FALSE(fs::exists(never));
}

TEST_CASE("cli: broken embedded STEP data and absurd values exit 2 naming the file and the field", "[cli]") {
    // a results folder no run may create (its own: the Release and ASan suites may run at once)
    const golightly::test::Scratch scratch("cli", "never");
    const fs::path never = scratch.path / "out";
    // tests/data/invalid_check: projects that parse but fail on their way to a run (the 3D
    // compile reads the STEP data; the 2D mode monitor solves its slab modes). A fuzz
    // campaign found each of them exiting 3, a run failure, instead.
    const fs::path dir = fs::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "invalid_check";
    std::istringstream lines(read_file(dir / "EXPECTED.tsv"));
    std::string line;
    int checked = 0;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto cols = split(line, '\t');
        REQUIRE(cols.size() >= 2);
        const fs::path file = dir / cols[0];
        for (const char* cmd : {"check", "run"}) {
            std::string args = std::string(cmd) + " " + shell_quote(file.string());
            if (std::string(cmd) == "run")
                args += " --out " + shell_quote(never.string());
            const CliResult r = run_cli(args);
            INFO(cmd << " " << cols[0] << " -> exit " << r.exit_code << ", stderr: " << r.err);
            if (cols[0].rfind("step_", 0) == 0 && r.err.find("no STEP support") != std::string::npos) continue;
            CHECK(r.exit_code == 2);
            CHECK(r.err.find(cols[0]) != std::string::npos);
            CHECK(r.err.find(cols[1]) != std::string::npos);
        }
        ++checked;
    }
    CHECK(checked >= 5);
    CHECK_FALSE(fs::exists(never));
}

TEST_CASE("cli: check --json prints the object of cli.md", "[cli]") {
    const fs::path dir = scratch_dir("check");
    const fs::path project = write_small_project(dir);
    const CliResult r = run_cli("check " + shell_quote(project.string()) + " --json");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j.contains("cells"));
    REQUIRE(j["cells"].size() == 3);
    // 2 um / 0.05 um = 40 interior cells + 2 x 8 PML cells; y periodic: 20 cells.
    CHECK(j["cells"][0].get<int>() == 40 + 16);
    CHECK(j["cells"][1].get<int>() == 20);
    CHECK(j["cells"][2].get<int>() == 1);
    // dt = S dx / c0 = 0.5 * 0.05 um / c0 = 0.0834 fs
    CHECK(j["dt_fs"].get<double>() == Approx(0.5 * 0.05e-6 / 299792458.0 / 1e-15).epsilon(1e-6));
    CHECK(j["courant"].get<double>() == Approx(0.5));
    REQUIRE(j.contains("materials"));
    REQUIRE(j["materials"].contains("glass"));
    // the slab: 0.3 x 1.0 um
    CHECK(j["materials"]["glass"]["area_um2"].get<double>() == Approx(0.3).margin(0.02));
    CHECK(j["memory_bytes"].get<double>() > 0);
    CHECK(j["warnings"].is_array());
    const CliResult text = run_cli("check " + shell_quote(project.string()));
    CHECK(text.exit_code == 0);
    CHECK(text.out.find("56 x 20") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("cli: run writes spectra.csv, summary.json and monitors/*.csv", "[cli]") {
    const fs::path dir = scratch_dir("run");
    const fs::path project = write_small_project(dir);
    const fs::path out = dir / "results";
    const CliResult r = run_cli("run " + shell_quote(project.string()) + " --backend cpu --threads 1 --out " +
                                shell_quote(out.string()));
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find('\r') == std::string::npos);  // stderr is not a terminal: plain lines

    // spectra.csv
    const auto rows = split(read_file(out / "spectra.csv"), '\n');
    REQUIRE(rows.size() >= 12);
    CHECK(rows[0] == "wavelength_um,frequency_thz,R,T,R_flux,T_flux");
    double last_f = 0;
    for (int k = 1; k <= 11; ++k) {
        const auto cols = split(rows[k], ',');
        REQUIRE(cols.size() == 6);
        const double wl = std::stod(cols[0]), f = std::stod(cols[1]);
        CHECK(wl * f == Approx(299.792458).epsilon(1e-6));  // um * THz = c0 / 1e6
        CHECK(f > last_f);  // increasing frequency
        last_f = f;
        const double R = std::stod(cols[2]), T = std::stod(cols[3]);
        CHECK(R > 0.0);
        CHECK(R < 0.5);
        CHECK(T > 0.5);
        CHECK(R + T == Approx(1.0).margin(0.05));  // lossless slab (coarse grid)
    }
    CHECK(std::stod(split(rows[1], ',')[0]) == Approx(1.8).epsilon(1e-6));
    CHECK(std::stod(split(rows[11], ',')[0]) == Approx(1.3).epsilon(1e-6));

    // summary.json
    const auto s = nlohmann::json::parse(read_file(out / "summary.json"));
    for (const char* key : {"steps", "time_fs", "wall_s", "cells", "mcells_per_s", "backend", "device", "precision",
                            "stop_reason", "warnings"})
        CHECK(s.contains(key));
    CHECK(s["backend"] == "cpu");
    CHECK(s["precision"] == "float32");
    CHECK(s["cells"].get<long long>() == 56 * 20);
    CHECK((s["stop_reason"] == "decay" || s["stop_reason"] == "max_time"));
    CHECK(s["steps"].get<long long>() > 0);

    // monitors/probe.csv
    const auto probe = split(read_file(out / "monitors" / "probe.csv"), '\n');
    REQUIRE(probe.size() > 10);
    CHECK(probe[0] == "time_fs,probe");
    CHECK(std::stod(split(probe[1], ',')[0]) == Approx(0.5 * 0.05e-6 / 299792458.0 / 1e-15).epsilon(1e-6));
    CHECK(long(probe.size()) - 2 == s["steps"].get<long>());  // header + trailing empty line

    CHECK(fs::exists(out / "fields" / "final_frame.png"));
    CHECK(fs::exists(out / "fields" / "map.png"));
    fs::remove_all(dir);
}

TEST_CASE("cli: run --max-steps stops at the limit, default output folder", "[cli]") {
    const fs::path dir = scratch_dir("maxsteps");
    const fs::path project = write_small_project(dir);
    const CliResult r = run_cli("run " + shell_quote(project.string()) + " --backend cpu --max-steps 30");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const fs::path out = dir / "small_results";
    REQUIRE(fs::exists(out / "summary.json"));
    const auto s = nlohmann::json::parse(read_file(out / "summary.json"));
    CHECK(s["stop_reason"] == "max_steps");
    CHECK(s["steps"].get<long long>() == 30);
    fs::remove_all(dir);
}

TEST_CASE("cli: an unstable run exits 3 and still writes its results", "[cli]") {
    // eps_r = 0.05 in the block: the local wave speed c0/sqrt(0.05) = 4.5 c0 puts the
    // effective Courant number at 2.2, far beyond the 2D limit 0.707: the fields blow up.
    const fs::path dir = scratch_dir("diverge");
    std::string text = kSmallProject;
    const std::string from = "\"epsilon_inf\": 2.25";
    text.replace(text.find(from), from.size(), "\"epsilon_inf\": 0.05");
    const fs::path project = dir / "unstable.glproj";
    std::ofstream(project) << text;
    const fs::path out = dir / "results";
    const CliResult r = run_cli("run " + shell_quote(project.string()) + " --backend cpu --out " + shell_quote(out.string()));
    INFO(r.err);
    REQUIRE(r.exit_code == 3);
    CHECK(r.err.find("diverged") != std::string::npos);
    const auto s = nlohmann::json::parse(read_file(out / "summary.json"));
    CHECK(s["stop_reason"] == "diverged");
    REQUIRE(s.contains("divergence"));
    // the instability starts in the block (x in [1.2, 1.5] um); NaNs spread from there
    const double x = s["divergence"]["position_um"][0].get<double>();
    CHECK(x > 0.0);
    CHECK(x < 2.0);
    CHECK(fs::exists(out / "spectra.csv"));
    fs::remove_all(dir);
}

TEST_CASE("cli: --backend cuda without a usable device exits 3 with a summary", "[cli]") {
    const CliResult v = run_cli("--version");
    const bool has_device = v.out.find("CUDA device: none") == std::string::npos;
    const fs::path dir = scratch_dir("cuda");
    const fs::path project = write_small_project(dir);
    const fs::path out = dir / "results";
    const CliResult r = run_cli("run " + shell_quote(project.string()) + " --backend cuda --max-steps 100 --out " +
                                shell_quote(out.string()));
    INFO(r.err);
    const auto s = nlohmann::json::parse(read_file(out / "summary.json"));
    if (has_device) {
        CHECK(r.exit_code == 0);
        CHECK(s["backend"] == "cuda");
    } else {
        CHECK(r.exit_code == 3);
        CHECK(r.err.find("CUDA") != std::string::npos);
        CHECK(s["stop_reason"] == "failed");
        CHECK(s["error"].get<std::string>().find("CUDA") != std::string::npos);
    }
    fs::remove_all(dir);
}

TEST_CASE("cli: bench --json prints the object of cli.md, unsupported options exit 3", "[cli]") {
    const CliResult r = run_cli("bench --backend cpu --size 64,48 --steps 10 --json");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"backend", "device", "dims", "size", "steps", "precision", "cells_per_s",
                            "bytes_per_cell_update", "bandwidth_gbs", "copy_bandwidth_gbs", "fraction_of_copy"})
        CHECK(j.contains(key));
    CHECK(j["backend"] == "cpu");
    CHECK(j["size"] == nlohmann::json::array({64, 48}));
    CHECK(j["steps"].get<int>() == 10);
    CHECK(j["cells_per_s"].get<double>() > 0);
    // Dispersive poles on every cell (CPU): more bytes per cell update.
    const CliResult rp = run_cli("bench --backend cpu --size 64,48 --steps 10 --poles 2 --json");
    INFO(rp.err);
    REQUIRE(rp.exit_code == 0);
    const auto jp = nlohmann::json::parse(rp.out);
    CHECK(jp["bytes_per_cell_update"].get<double>() > j["bytes_per_cell_update"].get<double>());
    // 3D (CPU): size [nx, ny, nz]; the CUDA backend refuses 3D (exit 3); a 2D size is a usage error.
    const CliResult r3 = run_cli("bench --backend cpu --dims 3 --size 48,44,40 --steps 4 --json");
    INFO(r3.err);
    REQUIRE(r3.exit_code == 0);
    const auto j3 = nlohmann::json::parse(r3.out);
    CHECK(j3["dims"].get<int>() == 3);
    CHECK(j3["size"] == nlohmann::json::array({48, 44, 40}));
    CHECK(j3["bytes_per_cell_update"].get<double>() >= 12 * 4);
    CHECK_FALSE(j3.contains("monitors"));
    // --no-monitors: the same scene without its flux plane and box, whose DFT traffic the
    // model no longer counts
    const CliResult rn = run_cli("bench --backend cpu --dims 3 --size 48,44,40 --steps 4 --no-monitors --json");
    INFO(rn.err);
    REQUIRE(rn.exit_code == 0);
    const auto jn = nlohmann::json::parse(rn.out);
    CHECK(jn["monitors"] == false);
    CHECK(jn["bytes_per_cell_update"].get<double>() < j3["bytes_per_cell_update"].get<double>());
    CHECK(jn["bytes_per_cell_update"].get<double>() >= 12 * 4);
    // 3D with a library material on 10 % of the cells (Au: Drude + 5 Lorentz poles): the
    // cell shrinks until the 3D update is stable, and the poles cost bytes.
    const CliResult ra = run_cli("bench --backend cpu --dims 3 --size 48,44,40 --steps 4 --dispersive-material Au "
                                 "--dispersive-fraction 0.1 --json");
    INFO(ra.err);
    REQUIRE(ra.exit_code == 0);
    const auto ja = nlohmann::json::parse(ra.out);
    CHECK(ja["poles"].get<int>() == 6);
    CHECK(ja["dispersive_material"] == "Au");
    CHECK(ja["dispersive_cell_fraction"].get<double>() > 0.05);
    CHECK(ja["dispersive_cell_fraction"].get<double>() < 0.2);
    CHECK(ja["dx_um"].get<double>() < 0.02);
    CHECK(ja["bytes_per_cell_update"].get<double>() > j3["bytes_per_cell_update"].get<double>() + 5);
    CHECK(run_cli("bench --backend cuda --dims 3 --size 48,48,48 --steps 4").exit_code == 3);
    CHECK(run_cli("bench --backend cpu --dims 3 --size 48,48").exit_code == 1);
}
