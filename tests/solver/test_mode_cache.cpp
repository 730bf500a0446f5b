// Solve once, use everywhere (mode_cache.hpp, docs/modes-cache.md): the Chebyshev-Lobatto
// interpolation itself; interpolated n_eff and fields against exact solves at the spectrum
// frequencies between the nodes, on a plain and a dispersive (Lorentz) Si strip, within the
// rule's stated tolerances; the in-memory and disk caches (bitwise the solver's modes; a
// corrupt or mismatching file ignored, never trusted); a port-mode project compiled twice
// solves nothing the second time; run.mode_interpolation read and refused by name.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/mode_cache.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "golightly/units.hpp"
#include "cli_runner.hpp"
#include "env_set.hpp"
#include "optional_features.hpp"
#include "project_builders.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

constexpr double kNSi = 3.476, kNOx = 1.444;

// A lossless Lorentz material (project_builders.hpp lorentz_material) whose eps at wl_um
// is Si's: Si's dispersion over 1.5-1.6 um within ~10 %.
Material lorentz_si(double wl_um) { return test::lorentz_material("si", kNSi * kNSi, wl_um); }

Material constant(const std::string& id, double eps) {
    Material m;
    m.id = id;
    m.epsilon_inf = eps;
    return m;
}

// The 500 x 220 nm strip along x in oxide (3D), cells of dx.
Project strip(double dx, const Material& si) {
    Project p = test::project_3d("strip", {2.0, 2.0, 1.6}, dx, 6, "sio2");
    p.materials = {constant("sio2", kNOx * kNOx), si};
    p.layers.push_back(test::strip_core_layer(3.0));
    p.run.spectrum.wavelength_min = 1.5;
    p.run.spectrum.wavelength_max = 1.6;
    return p;
}

CrossSection strip_section(const Project& p) {
    return sample_cross_section(p, {0.5, 1.0, 0.81}, {0.0, 1.6, 1.2}, false, "monitors[0]", "strip.glproj");
}

std::vector<double> band_hz(double wl_lo, double wl_hi, int n) {
    std::vector<double> f;
    for (int k = 0; k < n; ++k) f.push_back(units::wavelength_um_to_hz(wl_hi + (wl_lo - wl_hi) * k / (n - 1)));
    return f;
}

// relative L2 difference of the transverse E (no phase freedom: both follow the solver's
// phase convention, largest transverse E entry real positive)
double field_difference(const VectorMode& a, const VectorMode& b) {
    double num = 0, den = 0;
    for (int d = 0; d < 2; ++d) {
        REQUIRE(a.e[d].size() == b.e[d].size());
        for (std::size_t k = 0; k < a.e[d].size(); ++k) {
            num += std::norm(a.e[d][k] - b.e[d][k]);
            den += std::norm(b.e[d][k]);
        }
    }
    return std::sqrt(num / den);
}

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("golightly_mode_cache_test_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

}  // namespace

TEST_CASE("mode cache: Chebyshev-Lobatto nodes nest and interpolate polynomials exactly", "[mode_cache]") {
    const auto n3 = chebyshev_lobatto_nodes(1.0, 2.0, 3), n5 = chebyshev_lobatto_nodes(1.0, 2.0, 5),
               n9 = chebyshev_lobatto_nodes(1.0, 2.0, 9);
    REQUIRE(n5.size() == 5);
    CHECK(n5.front() == 1.0);
    for (std::size_t j = 0; j < n3.size(); ++j) CHECK(n5[2 * j] == n3[j]);  // the same doubles: cache hits
    for (std::size_t j = 0; j < n5.size(); ++j) CHECK(n9[2 * j] == n5[j]);
    for (std::size_t j = 1; j < n5.size(); ++j) CHECK(n5[j] > n5[j - 1]);
    // degree 4 through 5 nodes: exact to rounding, anywhere in the band
    auto poly = [](double x) { return 3 - 2 * x + 0.5 * x * x * x - 0.25 * x * x * x * x; };
    std::vector<double> v;
    for (double x : n5) v.push_back(poly(x));
    for (double x : {1.0, 1.013, 1.37, 1.5, 1.999}) {
        const auto l = chebyshev_lobatto_weights(n5, x);
        double p = 0;
        for (std::size_t j = 0; j < l.size(); ++j) p += l[j] * v[j];
        CHECK(std::abs(p - poly(x)) < 1e-13);
    }
    // exp on 9 nodes of [1, 2]: the interpolation remainder max|f^(9)| / 9! max|prod (x - x_j)|,
    // whose node polynomial on Chebyshev-Lobatto points of [-1, 1] is (x^2 - 1) U_7(x) / 2^7,
    // at most 2^-7 in size, times (h/2)^9 on an interval of length h = 1: 3.1e-10
    std::vector<double> e9;
    for (double x : n9) e9.push_back(std::exp(x));
    const double bound = std::exp(2.0) / (std::pow(2.0, 8) * 362880.0) * std::pow(0.5, 9) * 2;
    for (double x : {1.05, 1.31, 1.77, 1.93}) {
        const auto l = chebyshev_lobatto_weights(n9, x);
        double p = 0;
        for (std::size_t j = 0; j < l.size(); ++j) p += l[j] * e9[j];
        CHECK(std::abs(p - std::exp(x)) < bound);
    }
}

TEST_CASE("mode cache: the file round trip is bitwise, corrupt or mismatching files are refused", "[mode_cache]") {
    TempDir tmp;
    ModeGrid2D g;
    g.nu = 3;
    g.nv = 2;
    g.dx_um = 0.1;
    std::vector<VectorMode> modes(2);
    double x = 0.1;
    for (VectorMode& m : modes) {
        m.n_eff = 2.4 + x;
        m.beta_per_um = 9.7 + x;
        m.n_group = 4.1;
        m.te_fraction = 0.97;
        m.n_eff_imag = 1e-7;
        for (int d = 0; d < 3; ++d) {
            const auto se = mode_component_shape_e(g, d), sh = mode_component_shape_h(g, d);
            for (int k = 0; k < se[0] * se[1]; ++k) m.e[d].push_back({x += 0.37, -x / 3});
            for (int k = 0; k < sh[0] * sh[1]; ++k) m.h[d].push_back({-x, x += 0.11});
        }
    }
    const std::string key = std::string(32, 'a'), other = std::string(31, 'a') + "b";
    const std::string file = (tmp.path / (key + ".bin")).string();
    std::string why;
    REQUIRE(write_mode_cache_file(file, key, g, modes, why));
    auto back = read_mode_cache_file(file, key, g, why);
    REQUIRE(back);
    REQUIRE(back->size() == 2);
    for (std::size_t m = 0; m < 2; ++m) {
        CHECK((*back)[m].n_eff == modes[m].n_eff);
        CHECK((*back)[m].n_eff_imag == modes[m].n_eff_imag);
        for (int d = 0; d < 3; ++d) {
            CHECK((*back)[m].e[d] == modes[m].e[d]);
            CHECK((*back)[m].h[d] == modes[m].h[d]);
        }
    }
    // another key, another window
    CHECK_FALSE(read_mode_cache_file(file, other, g, why));
    CHECK(why.find("key") != std::string::npos);
    ModeGrid2D g2 = g;
    g2.nv = 3;
    CHECK_FALSE(read_mode_cache_file(file, key, g2, why));
    // one byte flipped in the fields, and a truncated file
    std::string bytes;
    {
        std::ifstream f(file, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(f), {});
    }
    std::string bad = bytes;
    bad[bad.size() / 2] ^= 0x10;
    { std::ofstream(file, std::ios::binary | std::ios::trunc) << bad; }
    CHECK_FALSE(read_mode_cache_file(file, key, g, why));
    CHECK(why.find("checksum") != std::string::npos);
    { std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 9); }
    CHECK_FALSE(read_mode_cache_file(file, key, g, why));
    { std::ofstream(file, std::ios::binary | std::ios::trunc) << "not a cache file"; }
    CHECK_FALSE(read_mode_cache_file(file, key, g, why));
    CHECK_FALSE(read_mode_cache_file((tmp.path / "absent.bin").string(), key, g, why));
    CHECK(why == "missing");
    // no temporary file left behind by the atomic write
    int others = 0;
    for (const auto& e : fs::directory_iterator(tmp.path)) others += e.path().extension() == ".tmp";
    CHECK(others == 0);
}

TEST_CASE("mode cache: a repeated solve comes from memory, then from disk, bitwise the solver's", "[mode_cache]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    TempDir tmp;
    const ModeCacheSettings saved = mode_cache_settings();
    const Project p = strip(0.05, constant("si", kNSi * kNSi));
    const CrossSection cs = strip_section(p);
    ModeSolveOptions o;
    o.num_modes = 2;
    const auto fresh = solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    ModeCacheSettings s;
    s.disk_dir = tmp.path.string();
    set_mode_cache_settings(s);
    clear_mode_cache();
    const auto a = cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    const auto b = cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    ModeCacheStats st = mode_cache_stats();
    CHECK(st.solves == 1);
    CHECK(st.session_hits == 1);
    CHECK(st.disk_writes == 1);
    CHECK(a == b);  // the same entry
    REQUIRE(a->size() == fresh.size());
    for (std::size_t m = 0; m < fresh.size(); ++m) {
        CHECK((*a)[m].n_eff == fresh[m].n_eff);
        CHECK((*a)[m].e[0] == fresh[m].e[0]);
    }
    // another wavelength or option is another key
    const std::string key = mode_solve_key(cs.grid, cs.medium, 1.55, o);
    CHECK(mode_solve_key(cs.grid, cs.medium, 1.55 + 1e-12, o) != key);
    ModeSolveOptions o3 = o;
    o3.num_modes = 3;
    CHECK(mode_solve_key(cs.grid, cs.medium, 1.55, o3) != key);
    ModeMedium2D m2 = cs.medium;
    m2.eps[1][7] += 1e-12;
    CHECK(mode_solve_key(cs.grid, m2, 1.55, o) != key);
    // a new session: from the disk file, bitwise
    clear_mode_cache();
    const auto c = cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    st = mode_cache_stats();
    CHECK(st.solves == 0);
    CHECK(st.disk_hits == 1);
    REQUIRE(c->size() == fresh.size());
    for (std::size_t m = 0; m < fresh.size(); ++m) {
        CHECK((*c)[m].n_eff == fresh[m].n_eff);
        CHECK((*c)[m].n_group == fresh[m].n_group);
        for (int d = 0; d < 3; ++d) CHECK((*c)[m].h[d] == fresh[m].h[d]);
    }
    // a corrupt file: ignored (warning), solved again and rewritten
    const fs::path file = tmp.path / (key + ".bin");
    REQUIRE(fs::exists(file));
    {
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(200);
        f.put('\x7f');
    }
    clear_mode_cache();
    const auto d = cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    st = mode_cache_stats();
    CHECK(st.disk_rejected == 1);
    CHECK(st.solves == 1);
    CHECK((*d)[0].n_eff == fresh[0].n_eff);
    clear_mode_cache();
    cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    CHECK(mode_cache_stats().disk_hits == 1);  // the rewritten file
    // disabled: every call solves
    ModeCacheSettings off;
    off.enabled = false;
    set_mode_cache_settings(off);
    clear_mode_cache();
    cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    CHECK(mode_cache_stats().solves == 2);
    set_mode_cache_settings(saved);
    clear_mode_cache();
}

TEST_CASE("mode interpolation: n_eff and fields between the nodes match exact solves, plain and Lorentz Si strips",
          "[mode_cache]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    clear_mode_cache();
    for (const bool dispersive : {false, true}) {
        const Material si = dispersive ? lorentz_si(1.55) : constant("si", kNSi * kNSi);
        const Project p = strip(0.05, si);
        const CrossSection cs = strip_section(p);
        ModeSolveOptions o;
        o.num_modes = 4;
        const std::vector<int> wanted = {0, 1};  // TE0, TM0
        const std::vector<double> f = band_hz(1.5, 1.6, 21);
        const double dt = 0.5 * 0.05 * units::um / units::c0;
        ModeBandOptions exact_opt;
        exact_opt.interpolation = ModeInterpolation::exact;
        const ModeBandResult ex = solve_modes_band(cs, o, ModeFilter::none, wanted, f, dt, exact_opt, "test");
        const ModeBandResult in = solve_modes_band(cs, o, ModeFilter::none, wanted, f, dt, ModeBandOptions{}, "test");
        CHECK_FALSE(ex.interpolated);
        CHECK(ex.node_hz.size() == f.size());
        REQUIRE(in.interpolated);
        CHECK(in.node_hz.size() < f.size());
        REQUIRE(in.modes.size() == f.size());
        double en = 0, ef = 0, eg = 0, spread = 0;
        for (std::size_t k = 0; k < f.size(); ++k)
            for (std::size_t m = 0; m < wanted.size(); ++m) {
                const VectorMode &a = in.modes[k][m], &b = ex.modes[k][m];
                REQUIRE(!b.e[0].empty());
                REQUIRE(!a.e[0].empty());
                en = std::max(en, std::abs(a.n_eff - b.n_eff));
                ef = std::max(ef, field_difference(a, b));
                eg = std::max(eg, std::abs(a.n_group - b.n_group));
                CHECK(std::abs(a.beta_per_um - b.beta_per_um) < 1e-4);
                CHECK(std::abs(a.te_fraction - b.te_fraction) < 1e-3);
                spread = std::max(spread, std::abs(b.n_eff - ex.modes[0][m].n_eff));
            }
        std::printf("%s strip: %zu solves for %zu frequencies; max |dn_eff| %.2e (estimate %.2e), field %.2e "
                    "(estimate %.2e), n_group %.2e; n_eff moves %.3f over the band\n",
                    dispersive ? "Lorentz Si" : "plain Si", in.node_hz.size(), f.size(), en, in.neff_error, ef,
                    in.field_error, eg, spread);
        for (const auto& c : in.checks)
            std::printf("  check against %g nodes: n_eff %.2e, field %.2e\n", c[0], c[1], c[2]);
        // the rule's tolerances (docs/modes-cache.md), and the premise of the rule: the
        // interpolant of all solved nodes is no worse than the coarser one it checked
        CHECK(en <= kModeInterpNeffTol);
        CHECK(ef <= kModeInterpFieldTol);
        CHECK(en <= in.neff_error);
        CHECK(ef <= in.field_error);
        CHECK(eg <= kModeInterpNeffTol);
        CHECK(spread > 100 * kModeInterpNeffTol);  // the check is not trivial: n_eff moves over the band
    }
    clear_mode_cache();
}

TEST_CASE("mode cache: port-mode projects share the port planes' solves, run.mode_interpolation by name",
          "[mode_cache][sparams]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    Project p = strip(0.05, constant("si", kNSi * kNSi));
    p.domain.size = {2.4, 2.0, 1.6};
    p.run.spectrum.points = 11;
    p.extra["ports"] = Json::parse(R"([
        {"name": "in", "center": [0.6, 1.0, 0.8], "size": [0, 1.6, 1.2], "direction": "+x"},
        {"name": "out", "center": [1.8, 1.0, 0.8], "size": [0, 1.6, 1.2], "direction": "-x"}])");
    clear_mode_cache();
    const Project q0 = port_mode_project(p, "strip.glproj", 0), q1 = port_mode_project(p, "strip.glproj", 1);
    const CompiledProject c0 = compile_project(q0, "strip.glproj");
    const long first = mode_cache_stats().solves;
    CHECK(first > 0);
    REQUIRE(c0.monitors.size() >= 2);
    REQUIRE(c0.monitors[0].mode_plan);
    CHECK(c0.monitors[0].mode_plan->interpolated);
    CHECK(c0.monitors[0].mode_plan->solved_frequencies_hz.size() < 11);
    // the other port's run: the same monitor planes; at most its source's solve is new
    const CompiledProject c1 = compile_project(q1, "strip.glproj");
    CHECK(mode_cache_stats().solves - first <= 1);
    REQUIRE(c1.monitors[1].mode_plan);
    CHECK(c1.monitors[1].mode_plan->modes[3][0].n_eff == c0.monitors[1].mode_plan->modes[3][0].n_eff);
    // again: nothing solved
    const long second = mode_cache_stats().solves;
    compile_project(q1, "strip.glproj");
    CHECK(mode_cache_stats().solves == second);
    // exact: every frequency solved
    Project qe = q0;
    qe.run.extra["mode_interpolation"] = "exact";
    const CompiledProject ce = compile_project(qe, "strip.glproj");
    CHECK_FALSE(ce.monitors[0].mode_plan->interpolated);
    CHECK(ce.monitors[0].mode_plan->solved_frequencies_hz.size() == 11);
    qe.run.extra["mode_interpolation"] = "fast";
    try {
        compile_project(qe, "strip.glproj");
        FAIL("no error");
    } catch (const ProjectError& e) {
        CHECK(e.file() == "strip.glproj");
        CHECK(e.json_path() == "run.mode_interpolation");
    }
    clear_mode_cache();
}

TEST_CASE("mode cache: golightly-cli solves once, a second run reads the disk cache, --no-mode-cache solves",
          "[cli][mode_cache]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    TempDir tmp;
    const test::EnvSet dir("GOLIGHTLY_MODE_CACHE_DIR", (tmp.path / "modes").c_str());
    const test::EnvSet stats("GOLIGHTLY_MODE_CACHE_STATS", "1");
    const test::EnvSet on("GOLIGHTLY_MODE_CACHE", "on");
    const fs::path example = fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "strip_sparams_3d.glproj";
    const std::string args = "modes '" + example.string() + "' --wavelength 1.55 --out '" + (tmp.path / "m").string() + "'";
    // the two ports' planes cut the same straight guide: one solve, one memory hit
    const test::CliOut first = test::run_cli(args, tmp.path);
    INFO(first.err);
    REQUIRE(first.code == 0);
    CHECK(first.err.find("mode cache: 1 solves") != std::string::npos);
    CHECK(first.err.find("1 written") != std::string::npos);
    const test::CliOut second = test::run_cli(args, tmp.path);
    INFO(second.err);
    REQUIRE(second.code == 0);
    CHECK(second.err.find("mode cache: 0 solves") != std::string::npos);
    CHECK(second.err.find("1 from disk") != std::string::npos);
    CHECK(second.out == first.out);  // the same n_eff, printed
    const test::CliOut off = test::run_cli(args + " --no-mode-cache", tmp.path);
    INFO(off.err);
    REQUIRE(off.code == 0);
    CHECK(off.err.find("mode cache: 2 solves") != std::string::npos);
    CHECK(off.out == first.out);
}

TEST_CASE("mode cache: threads asking for the same solve at once share one solve", "[mode_cache]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const ModeCacheSettings saved = mode_cache_settings();
    set_mode_cache_settings(ModeCacheSettings{});  // memory only
    clear_mode_cache();
    const Project p = strip(0.05, constant("si", kNSi * kNSi));
    const CrossSection cs = strip_section(p);
    ModeSolveOptions o;
    o.num_modes = 2;
    std::shared_ptr<const std::vector<VectorMode>> r[4];
    std::vector<std::thread> ts;
    for (int k = 0; k < 4; ++k) ts.emplace_back([&, k] { r[k] = cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o); });
    for (auto& t : ts) t.join();
    const ModeCacheStats st = mode_cache_stats();
    CHECK(st.solves == 1);
    CHECK(st.session_hits == 3);
    for (int k = 1; k < 4; ++k) CHECK(r[k] == r[0]);
    set_mode_cache_settings(saved);
    clear_mode_cache();
}
