#pragma once
// Resonances of a time signal by filter diagonalization (Harminv).
//
// The signal is fitted, over a frequency window, as a sum of exponentially decaying
// complex sinusoids
//     s(t_n) = sum_k a_k exp(-i omega_k (t_n - t_0)),   omega_k = 2 pi f_k - i alpha_k,
// by Harminv's filter-diagonalization method (Mandelshtam & Taylor, J. Chem. Phys. 107,
// 6756 (1997), with Wall & Neuhauser's filtering; V. A. Mandelshtam, Prog. NMR Spectrosc.
// 38, 159 (2001)); Debian libharminv-dev. The library is optional at build time
// (GOLIGHTLY_HAVE_HARMINV): without it find_resonances throws.
//
// The choice of basis size and the filters follow Meep's do_harminv (meep/src/bands.cpp):
// a basis of about 1.1 functions per Fourier resolution element of the window (clamped to
// [2, 150]), re-solved while spurious solutions drop out, then modes kept only inside the
// window, with |Q| above q_min and Harminv's frequency error below error_max, and a mode
// fitted at -f dropped for its twin at +f. The signals are real: each mode is reported as
// the real sinusoid A cos(2 pi f (t - t_0) + phi) exp(-alpha (t - t_0)) (Meep reports
// Harminv's complex amplitude, A/2 exp(-i phi)).
#include <vector>

namespace golightly {

/// One resonance: s(t) contains A cos(2 pi f (t - t_0) + phi) exp(-alpha (t - t_0)).
struct Resonance {
    double frequency_hz = 0;  ///< f (> 0)
    double wavelength_um = 0; ///< vacuum wavelength c / f
    /// alpha, 1/s: the amplitude decays as exp(-alpha t) (the energy twice as fast);
    /// negative when it grows.
    double decay_per_s = 0;
    /// Quality factor omega / (2 alpha) = pi f / alpha; +inf for alpha = 0, negative for a
    /// growing mode.
    double q = 0;
    double amplitude = 0;  ///< A, at t_0 (the first sample analysed), signal units
    double phase_rad = 0;  ///< phi, radians, at t_0
    /// Harminv's error estimate of the frequency (relative; small is good: < 1e-6 means a
    /// clean resonance, > 1e-2 is discarded)
    double error = 0;
};

/// Options of find_resonances. Frequencies in Hz.
struct ResonanceOptions {
    double f_min_hz = 0;  ///< window, 0 < f_min < f_max < 1 / (2 dt)
    double f_max_hz = 0;
    /// Modes with |Q| at or below this are dropped (Meep's Q_thresh: low-Q fits are mostly
    /// the transient of the source, not resonances).
    double q_min = 50;
    double error_max = 0.01;  ///< Harminv frequency error above which a mode is dropped (Meep's err_thresh)
    int max_modes = 100;      ///< at most this many, the smallest errors first
};

/// True when this build has Harminv.
bool resonance_finder_available();

/// Resonances of `signal` (samples every dt_s seconds, the first at t_0) inside the window
/// of `options`, sorted by frequency.
/// Returns no modes for a signal of fewer than 8 samples or all zeros.
/// Throws std::invalid_argument (dt_s <= 0, a window outside (0, 1/(2 dt)) or with
/// f_min >= f_max, a non-finite sample) and RunError (a build without Harminv).
std::vector<Resonance> find_resonances(const std::vector<double>& signal, double dt_s, const ResonanceOptions& options);

}  // namespace golightly
