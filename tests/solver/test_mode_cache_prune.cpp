// The mode cache's disk cap (least recently used files removed beyond
// ModeCacheSettings::disk_bytes, GOLIGHTLY_MODE_CACHE_DISK_MB), the automatic solver
// revision (a hash of the mode solver's sources computed by CMake, recomputed here with
// sha256sum), and the mode solver's limits (a window too large for the sparse solve, or for
// this machine's memory, refused before solving, naming the object and the size; the
// solve's peak counted in the compile's memory estimate). docs/modes-cache.md.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/mode_cache.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "cli_runner.hpp"
#include "env_set.hpp"
#include "optional_features.hpp"
#include "project_builders.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& tag) {
        path = fs::temp_directory_path() / ("golightly_mode_prune_" + tag + "_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string hex_key(int k) {
    char b[40];
    std::snprintf(b, sizeof b, "%032x", k + 0xa0);
    return b;
}

/// A file of `bytes` bytes at `path`, its modification time `age_s` seconds in the past.
void file_of(const fs::path& path, std::size_t bytes, int age_s) {
    { std::ofstream(path, std::ios::binary) << std::string(bytes, 'x'); }
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(age_s));
}

std::string run(const std::string& cmd) {
    std::string out;
    FILE* p = ::popen(cmd.c_str(), "r");
    REQUIRE(p);
    char buf[256];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    REQUIRE(::pclose(p) == 0);
    return out;
}

// A 3D strip (500 x 220 nm Si in oxide) along x at 50 nm cells, and the cross-section of the
// plane x = 0.5.
Project strip() {
    Project p = test::project_3d("strip", {2.0, 2.0, 1.6}, 0.05, 6, "sio2");
    p.materials = test::oxide_and_silicon();
    p.layers.push_back(test::strip_core_layer(3.0));
    p.run.spectrum.wavelength_min = 1.5;
    p.run.spectrum.wavelength_max = 1.6;
    p.run.spectrum.points = 3;
    p.run.stop.max_time_fs = 5;
    return p;
}

}  // namespace

TEST_CASE("mode cache: the disk cap removes the least recently used files, and only the cache's", "[mode_cache]") {
    TempDir tmp("lru");
    // five cache files of 1000 bytes, used 50, 40, 30, 20, 10 s ago; two files that are not
    // the cache's (another name, a temporary file), older than all
    for (int k = 0; k < 5; ++k) file_of(tmp.path / (hex_key(k) + ".bin"), 1000, 50 - 10 * k);
    file_of(tmp.path / "notes.txt", 5000, 100);
    file_of(tmp.path / ("." + hex_key(9) + ".bin.1.0.tmp"), 5000, 100);
    // under the cap: nothing goes
    CHECK(prune_mode_cache_dir(tmp.path.string(), 5000) == 0);
    // a cap of 3 files: the two least recently used go
    CHECK(prune_mode_cache_dir(tmp.path.string(), 3000) == 2);
    CHECK_FALSE(fs::exists(tmp.path / (hex_key(0) + ".bin")));
    CHECK_FALSE(fs::exists(tmp.path / (hex_key(1) + ".bin")));
    for (int k = 2; k < 5; ++k) CHECK(fs::exists(tmp.path / (hex_key(k) + ".bin")));
    CHECK(fs::exists(tmp.path / "notes.txt"));
    CHECK(fs::exists(tmp.path / ("." + hex_key(9) + ".bin.1.0.tmp")));
    // `keep` (the file just written) stays even when it is the oldest
    CHECK(prune_mode_cache_dir(tmp.path.string(), 1000, hex_key(2) + ".bin") == 2);
    CHECK(fs::exists(tmp.path / (hex_key(2) + ".bin")));
    CHECK_FALSE(fs::exists(tmp.path / (hex_key(3) + ".bin")));
    CHECK_FALSE(fs::exists(tmp.path / (hex_key(4) + ".bin")));
    // a missing directory: nothing to do
    CHECK(prune_mode_cache_dir((tmp.path / "absent").string(), 0) == 0);
}

TEST_CASE("mode cache: the disk cap and its environment variable", "[mode_cache]") {
    CHECK(ModeCacheSettings{}.disk_bytes == (std::uint64_t(1) << 30));
    {
        const test::EnvSet on("GOLIGHTLY_MODE_CACHE", "on");
        const test::EnvSet cap("GOLIGHTLY_MODE_CACHE_DISK_MB", "5");
        CHECK(mode_cache_settings_from_environment().disk_bytes == 5u * 1024u * 1024u);
    }
    {
        const test::EnvSet on("GOLIGHTLY_MODE_CACHE", "on");
        const test::EnvSet cap("GOLIGHTLY_MODE_CACHE_DISK_MB", "lots");  // refused: the default, with a warning
        CHECK(mode_cache_settings_from_environment().disk_bytes == kModeCacheDiskBytesDefault);
    }
}

TEST_CASE("mode cache: solves beyond the disk cap prune the least recently used file", "[mode_cache]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    TempDir tmp("solves");
    const ModeCacheSettings saved = mode_cache_settings();
    const CrossSection cs = sample_cross_section(strip(), {0.5, 1.0, 0.81}, {0.0, 1.6, 1.2}, false, "monitors[0]",
                                                 "strip.glproj");
    ModeSolveOptions o;
    o.num_modes = 1;
    auto file = [&](double wl) { return tmp.path / (mode_solve_key(cs.grid, cs.medium, wl, o) + ".bin"); };
    ModeCacheSettings s;
    s.disk_dir = tmp.path.string();
    set_mode_cache_settings(s);
    clear_mode_cache();
    cached_solve_modes_2d(cs.grid, cs.medium, 1.50, o);
    REQUIRE(fs::exists(file(1.50)));
    const std::uint64_t one = fs::file_size(file(1.50));
    // room for two files and a half: A and B stay, then a disk hit makes A the more recently used
    s.disk_bytes = one * 5 / 2;
    set_mode_cache_settings(s);
    // (file times a second apart, whatever the file system's time resolution)
    fs::last_write_time(file(1.50), fs::file_time_type::clock::now() - std::chrono::seconds(20));
    cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    fs::last_write_time(file(1.55), fs::file_time_type::clock::now() - std::chrono::seconds(10));
    CHECK(mode_cache_stats().disk_pruned == 0);
    clear_mode_cache();  // a new session: 1.50 comes from disk, and its file's time is now
    cached_solve_modes_2d(cs.grid, cs.medium, 1.50, o);
    CHECK(mode_cache_stats().disk_hits == 1);
    cached_solve_modes_2d(cs.grid, cs.medium, 1.60, o);  // the third file: 1.55, least recently used, goes
    CHECK(mode_cache_stats().disk_pruned == 1);
    CHECK(fs::exists(file(1.50)));
    CHECK_FALSE(fs::exists(file(1.55)));
    CHECK(fs::exists(file(1.60)));
    set_mode_cache_settings(saved);
    clear_mode_cache();
}

TEST_CASE("mode cache: the solver revision is the hash of the mode solver's sources", "[mode_cache]") {
    const std::string rev = mode_solver_revision();
    REQUIRE(rev.size() == 16);
    CHECK(rev.find_first_not_of("0123456789abcdef") == std::string::npos);
    // as solver/CMakeLists.txt: SHA-256 of the concatenated hex SHA-256 of each source
    const std::string src = std::string(GOLIGHTLY_SOURCE_DIR) + "/solver/physics/";
    std::string concat;
    for (const char* f : {"src/mode_solver2d.cpp", "include/golightly/mode_solver2d.hpp"}) {
        std::istringstream line(run("sha256sum '" + src + f + "'"));
        std::string h;
        line >> h;
        REQUIRE(h.size() == 64);
        concat += h;
    }
    std::istringstream all(run("printf '%s' '" + concat + "' | sha256sum"));
    std::string h;
    all >> h;
    CHECK(rev == h.substr(0, 16));
    // a file written under another revision is refused
    TempDir tmp("rev");
    ModeGrid2D g;
    g.nu = 2;
    g.nv = 2;
    g.dx_um = 0.1;
    const std::string key(32, 'c');
    const fs::path file = tmp.path / (key + ".bin");
    std::string why;
    REQUIRE(write_mode_cache_file(file.string(), key, g, {}, why));
    REQUIRE(read_mode_cache_file(file.string(), key, g, why));
    std::string bytes;
    {
        std::ifstream f(file, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(f), {});
    }
    const std::size_t at = bytes.find(rev);
    REQUIRE(at != std::string::npos);
    bytes[at] = bytes[at] == '0' ? '1' : '0';
    { std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes; }
    CHECK_FALSE(read_mode_cache_file(file.string(), key, g, why));
}

TEST_CASE("mode solver limits: a window too large is refused before solving, naming the object and the size",
          "[mode_cache]") {
    ModeGrid2D g;
    g.nu = 2500;
    g.nv = 2000;  // 5e6 cells
    g.dx_um = 0.01;
    try {
        check_mode_solve_limits(g, {}, {}, "port 'in'", "chip.glproj", "ports[0].size");
        FAIL("not refused");
    } catch (const ProjectError& e) {
        const std::string m = e.what();
        CHECK(m.find("chip.glproj") != std::string::npos);
        CHECK(m.find("ports[0].size") != std::string::npos);
        CHECK(m.find("port 'in'") != std::string::npos);
        CHECK(m.find("2500 x 2000 cells") != std::string::npos);
        CHECK(m.find("4000000") != std::string::npos);
    }
    // within the cell limit but beyond the machine's memory
    ModeGrid2D h = g;
    h.nu = h.nv = 1000;
    const std::uint64_t need = mode_solve_peak_bytes(h, {}, {});
    {
        const test::EnvSet host("GOLIGHTLY_HOST_MEMORY_BYTES", std::to_string(need - 1).c_str());
        CHECK_THROWS_WITH(check_mode_solve_limits(h, {}, {}, "mode monitor 'out'", "chip.glproj", "monitors[1].size"),
                          Catch::Contains("mode monitor 'out'") && Catch::Contains("1000 x 1000 cells") &&
                              Catch::Contains("memory"));
    }
    {
        const test::EnvSet host("GOLIGHTLY_HOST_MEMORY_BYTES", std::to_string(need).c_str());
        CHECK_NOTHROW(check_mode_solve_limits(h, {}, {}, "mode monitor 'out'", "chip.glproj", "monitors[1].size"));
    }
    // the model: grows faster than the unknowns, doubles on the complex (PML, bend) path
    ModeGrid2D h2 = h;
    h2.nu = 2000;
    CHECK(mode_solve_peak_bytes(h2, {}, {}) > 2 * mode_solve_peak_bytes(h, {}, {}) - (std::uint64_t(64) << 20));
    ModeSolveOptions pml;
    pml.pml_cells = {12, 0};
    CHECK(mode_solve_peak_bytes(h, {}, pml) > mode_solve_peak_bytes(h, {}, {}));
}

TEST_CASE("mode solver limits: a mode monitor beyond the memory is refused by the compile, and the estimate counts "
          "the solve",
          "[mode_cache]" GOLIGHTLY_NEEDS_SPECTRA) {
    Project p = strip();
    Monitor m;
    m.name = "out";
    m.type = MonitorType::Flux;
    m.kind = "mode";
    m.center = {1.5, 1.0, 0.81};
    m.size = {0.0, 1.6, 1.2};
    m.direction = "+x";
    p.monitors.push_back(m);
    const CompiledProject c = compile_project(p, "strip.glproj");
    REQUIRE(c.monitors[0].mode_plan);
    const CrossSection& cs = c.monitors[0].mode_plan->cs;
    CHECK(c.mode_solver_peak_bytes == c.monitors[0].mode_plan->solve_peak_bytes);
    CHECK(c.mode_solver_peak_bytes >= mode_solve_peak_bytes(cs.grid, cs.medium, {}));
    CHECK(c.memory_bytes >= c.mode_solver_peak_bytes + engine_state_bytes(c.scene, p.run.precision, 0));
    // golightly-cli check reports it: --json mode_solver_bytes, counted in memory_bytes
    {
        const fs::path dir = fs::temp_directory_path() / ("golightly_mode_limits_" + std::to_string(::getpid()));
        fs::create_directories(dir);
        save_project(p, dir / "strip.glproj");
        const test::CliOut o = test::run_cli("check '" + (dir / "strip.glproj").string() + "' --json", dir);
        INFO(o.out << o.err);
        REQUIRE(o.code == 0);
        const Json j = Json::parse(o.out);
        CHECK(j.at("mode_solver_bytes").get<std::uint64_t>() == c.mode_solver_peak_bytes);
        CHECK(j.at("memory_bytes").get<std::uint64_t>() == c.memory_bytes);
        const test::CliOut t = test::run_cli("check '" + (dir / "strip.glproj").string() + "'", dir);
        CHECK(t.out.find("of which the largest mode solve:") != std::string::npos);
        fs::remove_all(dir);
    }
    // a machine with less memory than that solve needs: refused before solving
    const test::EnvSet host("GOLIGHTLY_HOST_MEMORY_BYTES", std::to_string(c.mode_solver_peak_bytes - 1).c_str());
    CHECK_THROWS_WITH(compile_project(p, "strip.glproj"),
                      Catch::Contains("strip.glproj") && Catch::Contains("monitors[0].size") &&
                          Catch::Contains("mode monitor 'out'") && Catch::Contains("32 x 24 cells"));
}
