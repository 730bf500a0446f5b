// Photonic crystal bands over a Bloch-periodic unit cell against MPB (issue 51, validation:
// "2D photonic crystal bands"): the square lattice of dielectric rods of Joannopoulos et
// al., Photonic Crystals: Molding the Flow of Light, 2nd ed. (2008), ch. 5 (eps 8.9,
// r = 0.2 a, air), TM polarization (E along the rods: TMz), one unit cell with "bloch"
// boundaries in x and y (validation/phc_rods_tm.glproj, a = 1 um, 32 cells per a), k at
// Gamma, X and M. Two off-symmetry Ez point pulses excite the bands; two time monitors
// with `resonances` (Harminv) give their frequencies. The reference is MPB 1.11's plane-wave
// eigensolver (validation/phc_rods_mpb.ctl -> validation/phc_rods_mpb_reference.csv, at
// 32 pixels per a, the same grid, and 128, converged).
//
// Units: a = 1 um, so a frequency f in c/a is f_Hz * a / c0 = f_Hz * 1e-6 m / c0, and a
// vacuum wavelength of 1/f um.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "golightly/project.hpp"
#include "golightly/resonance_finder.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "optional_features.hpp"

using namespace golightly;

namespace {

/// MPB's TM bands: (resolution, k point name, band 1..6) -> frequency in c/a.
std::map<std::tuple<int, std::string, int>, double> read_mpb_reference() {
    std::ifstream csv(std::string(GOLIGHTLY_SOURCE_DIR) + "/validation/phc_rods_mpb_reference.csv");
    REQUIRE(csv);
    std::string line;
    std::getline(csv, line);
    REQUIRE(line == "resolution,k_point,kx_2pi_per_a,ky_2pi_per_a,band,frequency_c_per_a");
    std::map<std::tuple<int, std::string, int>, double> ref;
    while (std::getline(csv, line)) {
        std::stringstream ss(line);
        std::string cell[6];
        for (std::string& c : cell) std::getline(ss, c, ',');
        ref[{std::stoi(cell[0]), cell[1], std::stoi(cell[4])}] = std::stod(cell[5]);
    }
    return ref;
}

struct KPoint {
    const char* name;
    double kx, ky;             ///< 2 pi / a
    std::vector<int> bands;    ///< MPB bands compared (one of each degenerate pair)
};

/// The distinct frequencies (c/a, a = 1 um) both probes found, by increasing frequency:
/// modes within 1e-4 relative of one another are the same band seen by two probes. Modes
/// below 1e-3 of the largest amplitude of their probe are left out (Harminv's fits of the
/// numerical noise floor).
std::vector<double> band_frequencies(const RunResult& r) {
    std::vector<double> f;
    for (const ResonanceResult& rr : r.resonances) {
        double amax = 0;
        for (const Resonance& m : rr.modes) amax = std::max(amax, std::abs(m.amplitude));
        for (const Resonance& m : rr.modes) {
            if (std::abs(m.amplitude) < 1e-3 * amax) continue;
            const double fa = m.frequency_hz * units::um / units::c0;
            bool seen = false;
            for (double g : f) seen = seen || std::abs(g - fa) < 1e-4 * fa;
            if (!seen) f.push_back(fa);
        }
    }
    std::sort(f.begin(), f.end());
    return f;
}

}  // namespace

TEST_CASE("Photonic crystal: the rod lattice's TM bands at Gamma, X and M within 1 % of MPB",
          "[bloch][bands][resonances]" GOLIGHTLY_NEEDS_HARMINV) {
    REQUIRE(resonance_finder_available());
    const auto mpb = read_mpb_reference();
    REQUIRE(mpb.size() == 36);  // 2 resolutions x 3 k points x 6 bands

    // Tolerance from the method (issue 51 asks for 1 %):
    // - the Yee scheme's numerical dispersion: a plane wave in a medium of index n has the
    //   relative frequency error (k dx)^2 (1 - (S/n)^2) / 24 along an axis (from the
    //   dispersion relation sin(w dt / 2) = (S/n) sin(k dx / 2); Taflove & Hagness,
    //   Computational Electrodynamics, 3rd ed., sec. 4.6; less off-axis), S = c dt / dx =
    //   0.5. The highest band compared, M's band 4 at 0.694 c/a, has k dx = 2 pi n f dx =
    //   0.41 rad inside the rod (n = sqrt(8.9), dx = a/32, S/n = 0.17): 0.67 %, if all its
    //   energy were in the rod; in the air k dx is 3 times smaller (0.06 %). So at most
    //   0.67 %, O(dx^2), and GoLightly's frequencies lie low;
    // - the rod's staircase: E is parallel to the rod's surface everywhere (TM), so both
    //   codes give a cut pixel its mean eps (GoLightly's sub-pixel averaging, the default;
    //   MPB's anisotropic averaging for E tangential); what remains is O(dx^2): MPB's own
    //   spread between 32 and 128 pixels per a is below 0.25 % (checked below).
    // Together below 0.92 %, so 1 % against both MPB figures, at the same 32 pixels per a
    // and converged (128).
    const double tol = 0.01;
    for (const std::string& kp : {std::string("Gamma"), std::string("X"), std::string("M")})
        for (int b = 1; b <= 6; ++b) {
            const double f32 = mpb.at({32, kp, b}), f128 = mpb.at({128, kp, b});
            CHECK(std::abs(f32 - f128) <= 2.5e-3 * std::max(f128, 1e-9) + 1e-9);
        }

    // Bands in the monitors' window (1.4..4.5 um, 0.222..0.714 c/a). Gamma's band 1 is 0
    // (a uniform Ez) and not a resonance; Gamma's bands 3, 4 and M's bands 2, 3 are
    // degenerate pairs (the 2D irreducible representation of C4v), one frequency each.
    const std::vector<KPoint> kpoints{{"Gamma", 0.0, 0.0, {2, 3}}, {"X", 0.5, 0.0, {1, 2, 3}}, {"M", 0.5, 0.5, {1, 2, 4}}};

    std::ifstream in(std::string(GOLIGHTLY_SOURCE_DIR) + "/validation/phc_rods_tm.glproj");
    REQUIRE(in);
    const Json base = Json::parse(in);
    REQUIRE(base["domain"]["cell_size"].get<double>() == 0.03125);  // 32 cells per a, MPB's resolution 32
    // The largest |error| against the converged MPB bands at 32 cells per a (the project)
    // and at 16: the errors above are O(dx^2), so halving dx must cut the largest at least
    // by half (4 expected; the two codes' O(dx^2) terms are not of one sign, hence the
    // margin). A grid-independent mistake (a wrong unit, k or source) would not shrink.
    double max_err32 = 0, max_err128 = 0, max_err16_128 = 0;
    std::string table;
    for (const double cell : {0.03125, 0.0625}) {
        const bool main_grid = cell == 0.03125;
        for (const KPoint& k : kpoints) {
            Json j = base;
            j["domain"]["bloch_k"] = Json::array({k.kx, k.ky});
            j["domain"]["bloch_k_unit"] = "2pi/a";
            j["domain"]["cell_size"] = cell;
            const Project p = parse_project(j.dump(), std::string("phc_rods_") + k.name + ".glproj");
            RunOptions o;
            o.threads = 1;
            const auto t0 = std::chrono::steady_clock::now();
            const RunResult r = run_project(p, "phc_rods.glproj", o);
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            REQUIRE(r.resonances.size() == 2);
            const std::vector<double> found = band_frequencies(r);
            std::string list;
            for (double f : found) list += " " + std::to_string(f);
            INFO("k point " << k.name << ", cell " << cell << " um: GoLightly's frequencies (c/a)" << list << "; stop "
                            << int(r.stop_reason) << " at " << r.time_fs << " fs");
            for (int b : k.bands) {
                const double f32 = mpb.at({32, k.name, b}), f128 = mpb.at({128, k.name, b});
                double best = -1;
                for (double f : found)
                    if (best < 0 || std::abs(f - f128) < std::abs(best - f128)) best = f;
                INFO("band " << b << ": MPB " << f32 << " (32/a), " << f128 << " (128/a)");
                REQUIRE(best > 0);
                const double e32 = (best - f32) / f32, e128 = (best - f128) / f128;
                char row[200];
                if (main_grid) {
                    CHECK(std::abs(e32) < tol);
                    CHECK(std::abs(e128) < tol);
                    max_err32 = std::max(max_err32, std::abs(e32));
                    max_err128 = std::max(max_err128, std::abs(e128));
                    std::snprintf(row, sizeof row,
                                  "  32/a %-5s band %d: GoLightly %.5f, MPB %.5f (32/a) %+.3f %%, %.5f (128/a) %+.3f %%\n",
                                  k.name, b, best, f32, 100 * e32, f128, 100 * e128);
                } else {
                    CHECK(std::abs(e128) < 0.05);  // the same band, coarser
                    max_err16_128 = std::max(max_err16_128, std::abs(e128));
                    std::snprintf(row, sizeof row, "  16/a %-5s band %d: GoLightly %.5f, MPB %.5f (128/a) %+.3f %%\n",
                                  k.name, b, best, f128, 100 * e128);
                }
                table += row;
            }
            // Every frequency found is one of MPB's bands (no spurious resonance): the first
            // six bands reach 0.89 c/a at least, above the window.
            for (double f : found) {
                double nearest = 1e9;
                for (int b = 1; b <= 6; ++b) nearest = std::min(nearest, std::abs(f - mpb.at({128, k.name, b})) / f);
                INFO("frequency " << f << " c/a");
                CHECK(nearest < (main_grid ? tol : 0.05));
            }
            char row[120];
            std::snprintf(row, sizeof row, "  %2.0f/a %s: %.1f fs simulated, %.2f s wall\n", 1 / cell, k.name,
                          r.time_fs, wall);
            table += row;
        }
    }
    INFO("largest |error| vs MPB at 128/a: " << max_err128 << " (32 cells per a), " << max_err16_128 << " (16)");
    CHECK(max_err128 <= 0.5 * max_err16_128);
    std::printf("photonic crystal TM bands vs MPB (max |error| at 32/a: %.3f %% vs MPB 32/a, %.3f %% vs MPB 128/a; "
                "at 16/a: %.3f %% vs MPB 128/a):\n%s",
                100 * max_err32, 100 * max_err128, 100 * max_err16_128, table.c_str());
}
