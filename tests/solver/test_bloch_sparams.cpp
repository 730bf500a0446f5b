// 2D S-parameter ports whose lines span a Bloch axis with nonzero k (issue 51): a periodic
// array of slab guides, Bloch along x (k L = pi / 2), two ports across the period along y.
// Each port's source launches the array's Bloch supermode one way and each port's monitor
// projects on it with the conjugated overlap (mode_plane.hpp mode_amplitudes_bloch_line),
// so a straight section transmits everything in that mode and reflects nothing.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/sparams.hpp"
#include "bloch_array_project.hpp"
#include "golightly/units.hpp"

using namespace golightly;

namespace {

/// One 1 um period of a strongly coupled array (a guide of eps 4 on x in [0.15, 0.85] um in
/// eps 2.25, along y: its Bloch supermodes' phase varies across the period, so that the
/// unconjugated product of their real parts would mix modes 0 and 1 by 0.2 in power,
/// test_bloch_mode_source.cpp), domain 1 x 4 um, Bloch k 0.25 (2 pi / a) along x, PML along
/// y; ports "a" at y = 1 (+y) and "b" at y = 3 (-y), both across the period, modes 0 and 1.
Project bloch_port_array(Polarization pol, double dx) {
    Project p = test::bloch_coupled_array(2, pol, dx);
    p.name = "bloch ports";
    p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Pml, BoundaryKind::Pml};
    p.run.frames.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    p.extra["ports"] = Json::parse(R"([
        {"name": "a", "center": [0.5, 1.0], "size": [1.0, 0], "direction": "+y", "modes": [0, 1]},
        {"name": "b", "center": [0.5, 3.0], "size": [1.0, 0], "direction": "-y", "modes": [0, 1]}])");
    p.run.stop.max_time_fs = 2000;
    return p;
}

}  // namespace

// Tolerances as the 2D slab's ports (test_sparams.cpp "a straight 2D slab between two line
// ports") and the Bloch mode source's (test_bloch_mode_source.cpp): |S_ba| of each mode
// within 1 % of 1, reflections |S_aa| < 1e-3 (the one-way source's backward wave and the
// PML's reflection), S_ab = S_ba to 1e-2 (reciprocity of the mirror-symmetric period), and
// the phase of S_ba the lattice wavenumber of the mode times the port distance (2 um)
// within 1e-2 rad. The source injects the profile of its centre wavelength, so at the
// band's ends (+-3 %) each port-mode run also launches ~1.5e-4 of the other supermode
// (zero at the centre). S = B A^-1 (sparams.hpp sparameter_matrix) takes that incident
// amplitude into account, so the cross terms S_b'a between the supermodes are what a
// straight, uniform section scatters between them: nothing, up to the scale of the
// reflections (the same PML and one-way sheets, < 1e-3 in amplitude). So |S_b'a|,
// |S_a'a| < 1e-3 (power < 1e-6), the cross pairs' reciprocity |S14 - S41|, |S23 - S32| <
// 2e-3, and no reciprocity or passivity warning at all. Dividing by the driven amplitude
// alone measured ~1e-2 in those cross terms at the band's ends (the impurity's amplitude)
// and warned on S14 / S41.
TEST_CASE("Bloch S-parameters: a straight section of a coupled guide array between ports across the period",
          "[bloch][sparams]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const double dx = 0.025;
        const Project p = bloch_port_array(pol, dx);
        RunOptions o;
        o.threads = 2;
        const SParameters s = run_sparameters(p, "bloch_ports.glproj", o);
        REQUIRE(s.labels.size() == 4);  // a:0, a:1, b:0, b:1
        for (const auto& w : s.warnings) std::printf("warning: %s\n", w.c_str());
        const double dt = p.run.courant * dx * units::um / units::c0;
        for (std::size_t f = 0; f < s.frequency_hz.size(); ++f) {
            const double w = 2 * M_PI * s.frequency_hz[f];
            const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;
            for (int m = 0; m < 2; ++m) {
                const std::size_t a = std::size_t(m), b = std::size_t(2 + m), a_other = std::size_t(1 - m),
                                  b_other = std::size_t(3 - m);
                const auto s_ba = s.s[b][a][f], s_ab = s.s[a][b][f];
                const double n_eff = s.runs[a].mode_coefficients[a].n_eff[f];
                const double beta_l = 2.0 / dx * std::asin(0.5 * n_eff * k0n * dx);
                const double dphi = std::arg(s_ba * std::polar(1.0, -beta_l * 2.0));
                std::printf("Bloch ports %s wl %.4f mode %d: n_eff %.5f |S_aa| %.2e |S_bb| %.2e |S_ba|^2 %.5f "
                            "|S_ba-S_ab| %.2e | other mode |S_b'a|^2 %.2e |S_a'a|^2 %.2e | S_ba phase - beta_l L "
                            "%+.2e rad\n",
                            pol == Polarization::TMz ? "TMz" : "TEz", units::hz_to_wavelength_um(s.frequency_hz[f]), m,
                            n_eff, std::abs(s.s[a][a][f]), std::abs(s.s[b][b][f]), std::norm(s_ba), std::abs(s_ba - s_ab),
                            std::norm(s.s[b_other][a][f]), std::norm(s.s[a_other][a][f]), dphi);
                CHECK(std::abs(s_ba) > 0.99);
                CHECK(std::abs(s_ba) < 1.01);
                CHECK(std::abs(s.s[a][a][f]) < 1e-3);
                CHECK(std::abs(s.s[b][b][f]) < 1e-3);
                CHECK(std::norm(s.s[b_other][a][f]) < 1e-6);
                CHECK(std::norm(s.s[a_other][a][f]) < 1e-6);
                CHECK(std::abs(s_ba - s_ab) < 1e-2);
                CHECK(std::abs(dphi) < 1e-2);
            }
        }
        CHECK(s.warnings.empty());
        for (std::size_t f = 0; f < s.frequency_hz.size(); ++f) {
            CHECK(std::abs(s.s[0][3][f] - s.s[3][0][f]) < 2e-3);
            CHECK(std::abs(s.s[1][2][f] - s.s[2][1][f]) < 2e-3);
        }
    }
}

// sparameter_matrix on constructed runs: incident amplitudes A with off-diagonal entries
// (each run launching some of the other port-modes) and outgoing ones B = S A for a known S
// give S back to rounding (1e-12: a 4 x 4 elimination with partial pivoting of a
// well-conditioned A); the driven amplitude alone (sparameter_column) does not. A singular A
// falls back to b_i / a_j with a warning.
TEST_CASE("Bloch S-parameters: S = B A^-1 recovers a known matrix from runs that launch several modes",
          "[bloch][sparams]") {
    using cd = std::complex<double>;
    const Project p = bloch_port_array(Polarization::TMz, 0.025);
    const std::size_t n = 4, nf = 2;
    const double dx = p.domain.cell_size, dt = p.run.courant * dx * units::um / units::c0;
    const double freqs[nf] = {units::wavelength_um_to_hz(1.6), units::wavelength_um_to_hz(1.5)};
    const double neff[n] = {1.87, 1.41, 1.87, 1.41};
    cd S[n][n], A[n][n];
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            S[i][j] = std::polar(0.1 + 0.2 * double((3 * i + j) % 5), 0.7 * double(i) - 1.3 * double(j));
            A[i][j] = i == j ? std::polar(1.0 + 0.1 * double(i), 0.4 * double(j))
                             : std::polar(0.05 + 0.02 * double(i + j), 1.1 * double(i * j + 1));
        }
    auto beta_d = [&](std::size_t k, std::size_t f) {
        const double w = 2 * M_PI * freqs[f];
        const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;
        return 2.0 / dx * std::asin(0.5 * neff[k] * k0n * dx) * 2 * dx;  // the monitors 2 cells inside
    };
    auto make_runs = [&](bool singular) {
        std::vector<RunResult> runs(n);
        for (std::size_t j = 0; j < n; ++j) {
            RunResult& r = runs[j];
            r.frequency_hz = {freqs[0], freqs[1]};
            r.stop_reason = StopReason::Decay;
            r.mode_coefficients.resize(n);
            for (std::size_t k = 0; k < n; ++k) {
                auto& mc = r.mode_coefficients[k];
                mc.fwd.resize(nf);
                mc.bwd.resize(nf);
                mc.n_eff.assign(nf, neff[k]);
                for (std::size_t f = 0; f < nf; ++f) {
                    // singular: run 1 launches what run 0 does
                    const std::size_t jj = singular && j == 1 ? 0 : j;
                    cd b = 0;
                    for (std::size_t q = 0; q < n; ++q) b += S[k][q] * A[q][jj];
                    mc.fwd[f] = A[k][jj] * std::polar(1.0, beta_d(k, f));  // a = fwd exp(-i beta d)
                    mc.bwd[f] = b * std::polar(1.0, -beta_d(k, f));        // b = bwd exp(+i beta d)
                }
            }
        }
        return runs;
    };
    const std::vector<RunResult> runs = make_runs(false);
    std::vector<std::string> warnings;
    const auto s = sparameter_matrix(p, "known.glproj", runs, &warnings);
    CHECK(warnings.empty());
    double worst = 0, worst_column = 0;
    for (std::size_t f = 0; f < nf; ++f)
        for (std::size_t j = 0; j < n; ++j) {
            const auto col = sparameter_column(p, "known.glproj", runs[j], j);
            for (std::size_t i = 0; i < n; ++i) {
                worst = std::max(worst, std::abs(s[i][j][f] - S[i][j]));
                worst_column = std::max(worst_column, std::abs(col[i][f] - S[i][j]));
            }
        }
    std::printf("S = B A^-1 on constructed runs: max |S - S_known| %.2e; the driven amplitude alone %.2e\n", worst,
                worst_column);
    CHECK(worst < 1e-12);
    CHECK(worst_column > 1e-2);  // the off-diagonal incident amplitudes matter
    const auto s1 = sparameter_matrix(p, "known.glproj", make_runs(true), &warnings);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("singular matrix at 2 frequencies") != std::string::npos);
    // the fallback: b_i / a_j of each run
    const std::vector<RunResult> sing = make_runs(true);
    const auto col1 = sparameter_column(p, "known.glproj", sing[1], 1);
    for (std::size_t i = 0; i < n; ++i) CHECK(std::abs(s1[i][1][0] - col1[i][0]) < 1e-12);
    CHECK_THROWS_AS(sparameter_matrix(p, "known.glproj", std::vector<RunResult>(3)), RunError);
}
