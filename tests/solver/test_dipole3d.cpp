// 3D point dipole in vacuum (compile_3d.cpp, "Point source"): the power radiated through a
// closed flux box equals the analytic dipole power
//   P(omega) = eta0 k^2 |I l(omega)|^2 / (12 pi) = mu0 omega^4 |p|^2 / (12 pi c0)
// (Jackson, Classical Electrodynamics 3rd ed., eq. 9.24), I l = dp/dt the current moment
// -(2/eta0) A f(t) (1 um)^2 of the compiler's convention, to about 1 % at dx = 0.04 um, and
// the error falls with second order in dx.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "golightly/compile.hpp"
#include "golightly/run.hpp"
#include "test_3d_projects.hpp"

using namespace golightly;
using namespace golightly::test3d;

namespace {

struct DipoleRun {
    std::vector<double> wavelength_um, relative_error;
    double max_abs_error = 0, rms_error = 0;
};

/// A dipole `c` near the centre of a 1.28 um vacuum cube, flux box 0.32..0.96 um around it.
DipoleRun run_dipole(double dx, Component c) {
    const double wl_min = 0.8, wl_max = 1.25;
    Project p = vacuum_project(1.28, 1.28, 1.28, dx, 12, wl_min, wl_max, 5);
    const Waveform w = pulse_for(wl_min, wl_max);
    p.sources.push_back(point_dipole("dipole", c, 0.64, 0.64, 0.66, w));
    p.monitors.push_back(flux_box("box", {0.32, 0.32, 0.32}, {0.96, 0.96, 0.96}, "flux"));
    const CompiledProject cp = compile_project(p, "dipole.glproj");
    RunOptions o;
    o.backend = BackendChoice::Cpu;
    const RunResult r = run_project(p, "dipole.glproj", o);
    REQUIRE(r.spectra.size() == 1);
    REQUIRE(r.stop_reason == StopReason::Decay);
    const SourceTerm& st = cp.scene.sources.at(0);
    // E sources act at t = (n + 1/2) dt (scene.hpp step order)
    const auto F = waveform_dft(st.waveform, st.delay_s, cp.scene.dt_s, 0.5, r.frequency_hz, r.steps);
    DipoleRun out;
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        const double k = 2 * units::pi * r.frequency_hz[f] / units::c0;
        const double il = 2.0 / units::eta0 * std::abs(F[f]) * units::um * units::um;  // |I l|, A m s (DFT)
        const double p_an = units::eta0 * k * k * il * il / (12 * units::pi);
        const double err = r.spectra[0].flux[f] / p_an - 1.0;
        out.wavelength_um.push_back(units::hz_to_wavelength_um(r.frequency_hz[f]));
        out.relative_error.push_back(err);
        out.max_abs_error = std::max(out.max_abs_error, std::abs(err));
        out.rms_error += err * err;
    }
    out.rms_error = std::sqrt(out.rms_error / double(r.frequency_hz.size()));
    return out;
}

}  // namespace

TEST_CASE("3D dipole in vacuum: radiated power vs the analytic dipole power, second order in dx",
          "[dipole3d][3d]") {
    const DipoleRun coarse = run_dipole(0.08, Component::Ez);
    const DipoleRun fine = run_dipole(0.04, Component::Ez);
    for (std::size_t f = 0; f < fine.wavelength_um.size(); ++f)
        std::printf("dipole3d: wl %.3f um  error dx 0.08: %+.4f %%  dx 0.04: %+.4f %%\n", fine.wavelength_um[f],
                    100 * coarse.relative_error[f], 100 * fine.relative_error[f]);
    const double order = std::log(coarse.rms_error / fine.rms_error) / std::log(2.0);
    std::printf("dipole3d: rms error %.4f %% -> %.4f %%, order %.2f\n", 100 * coarse.rms_error, 100 * fine.rms_error,
                order);
    CHECK(fine.max_abs_error < 0.015);
    CHECK(order > 1.6);
    CHECK(order < 3.0);
}

TEST_CASE("3D magnetic dipole (Hz) radiates the same power as the electric one", "[dipole3d][3d]") {
    // Duality: H~ = eta0 H carries the same convention, so a magnetic dipole of the same
    // amplitude radiates the same power (to the discretization error).
    const DipoleRun e = run_dipole(0.08, Component::Ex);
    const DipoleRun h = run_dipole(0.08, Component::Hz);
    for (std::size_t f = 0; f < e.wavelength_um.size(); ++f) {
        std::printf("dipole3d: wl %.3f um  Ex error %+.3f %%  Hz error %+.3f %%\n", e.wavelength_um[f],
                    100 * e.relative_error[f], 100 * h.relative_error[f]);
        CHECK(std::abs(h.relative_error[f]) < 0.06);
        CHECK(std::abs(e.relative_error[f]) < 0.06);
    }
}
