#include "golightly/resonance_finder.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "golightly/errors.hpp"
#include "golightly/units.hpp"

#ifdef GOLIGHTLY_HAVE_HARMINV
#include <harminv.h>
#endif

namespace golightly {

bool resonance_finder_available() {
#ifdef GOLIGHTLY_HAVE_HARMINV
    return true;
#else
    return false;
#endif
}

namespace {

using cplx = std::complex<double>;

/// The front end of find_resonances: the band shifted to zero frequency, low-pass
/// filtered and decimated (resonance_finder.hpp). Each complex exponential
/// a exp(-i w n dt) of the input leaves as a H(w - w_c) exp(-i (w - w_c) m D dt): a
/// finite impulse response applied only where it covers input samples keeps every complex
/// frequency, decay included, exactly.
struct Baseband {
    std::vector<cplx> samples;  ///< y_m, m D dt after the first input sample
    std::vector<double> taps;   ///< h_j, j = 0 .. N-1
    int decimation = 1;         ///< D
    double centre_hz = 0;       ///< f_c
    /// H(w') = sum_j h_j exp(-i w' j dt) for the complex shifted frequency w' (rad/s).
    cplx response(cplx w_shifted, double dt_s) const {
        cplx h = 0;
        const cplx step = std::exp(cplx(0, -1) * w_shifted * dt_s);
        cplx ph = 1;
        for (double t : taps) {
            h += t * ph;
            ph *= step;
        }
        return h;
    }
};

/// Kaiser-windowed sinc low-pass (Oppenheim & Schafer, Discrete-Time Signal Processing,
/// 3rd ed., sec. 7.6: beta and length from the stop-band attenuation A and the transition
/// width), unit gain at zero frequency.
std::vector<double> kaiser_lowpass(double cutoff_cycles, double transition_cycles, double attenuation_db) {
    const double a = attenuation_db;
    const double beta = a > 50 ? 0.1102 * (a - 8.7) : a >= 21 ? 0.5842 * std::pow(a - 21, 0.4) + 0.07886 * (a - 21) : 0;
    int len = int(std::ceil((a - 8) / (2.285 * 2 * units::pi * transition_cycles))) + 1;
    len |= 1;  // odd: a symmetric filter with an integer delay
    std::vector<double> h(static_cast<std::size_t>(len));
    const double mid = 0.5 * (len - 1), i0b = std::cyl_bessel_i(0.0, beta);
    double sum = 0;
    for (int j = 0; j < len; ++j) {
        const double x = j - mid;
        const double sinc = x == 0 ? 2 * cutoff_cycles : std::sin(2 * units::pi * cutoff_cycles * x) / (units::pi * x);
        const double r = x / mid;
        const double w = std::cyl_bessel_i(0.0, beta * std::sqrt(std::max(0.0, 1 - r * r))) / i0b;
        h[std::size_t(j)] = sinc * w;
        sum += h[std::size_t(j)];
    }
    for (double& v : h) v /= sum;
    return h;
}

/// The band [f_min, f_max] moved to baseband: pass band to 1.1 half-widths B, stop band
/// (120 dB down) from 2 B, decimated so that the new Nyquist limit still lies beyond 2 B
/// (nothing between the bands aliases into the window). An empty result when the record
/// is too short for the filter (the caller then fits the raw samples).
Baseband to_baseband(const std::vector<double>& x, double dt_s, double f_min, double f_max) {
    Baseband b;
    const double half = 0.5 * (f_max - f_min);
    b.centre_hz = 0.5 * (f_max + f_min);
    b.decimation = std::max(1, int(std::floor(1.0 / (dt_s * 4.4 * half))));
    b.taps = kaiser_lowpass(1.55 * half * dt_s, 0.9 * half * dt_s, 120);
    const std::size_t n = x.size(), len = b.taps.size(), d = std::size_t(b.decimation);
    if (n < len + 64 * d) return {};
    const std::size_t m_count = (n - len) / d + 1;
    // exp(+i 2 pi f_c n dt), evaluated from the reduced phase of each sample (exact to
    // round-off over any record length)
    const double cycles_per_sample = b.centre_hz * dt_s;
    std::vector<cplx> shifted(n);
    for (std::size_t k = 0; k < n; ++k) {
        const double turns = std::fmod(cycles_per_sample * double(k), 1.0);
        shifted[k] = x[k] * std::polar(1.0, 2 * units::pi * turns);
    }
    b.samples.resize(m_count);
    for (std::size_t m = 0; m < m_count; ++m) {
        cplx acc = 0;
        const cplx* s = shifted.data() + m * d;
        for (std::size_t j = 0; j < len; ++j) acc += b.taps[j] * s[j];
        b.samples[m] = acc;
    }
    return b;
}

}  // namespace

std::vector<Resonance> find_resonances(const std::vector<double>& signal, double dt_s, const ResonanceOptions& o) {
    if (!(dt_s > 0) || !std::isfinite(dt_s))
        throw std::invalid_argument("find_resonances: the sample spacing must be positive");
    const double nyquist_hz = 0.5 / dt_s;
    if (!(o.f_min_hz > 0) || !(o.f_max_hz > o.f_min_hz) || !(o.f_max_hz < nyquist_hz))
        throw std::invalid_argument("find_resonances: the frequency window [" + std::to_string(o.f_min_hz) + ", " +
                                    std::to_string(o.f_max_hz) + "] Hz must satisfy 0 < f_min < f_max < 1/(2 dt) = " +
                                    std::to_string(nyquist_hz) + " Hz");
    for (double v : signal)
        if (!std::isfinite(v)) throw std::invalid_argument("find_resonances: the signal has a NaN or infinite sample");
    if (!resonance_finder_available())
        throw RunError("this build has no Harminv (Debian libharminv-dev): resonances cannot be found");
    std::vector<Resonance> out;
    if (signal.size() < 8 || std::all_of(signal.begin(), signal.end(), [](double v) { return v == 0.0; }))
        return out;
#ifdef GOLIGHTLY_HAVE_HARMINV
    // Fit the band-passed, decimated record when it is long enough for the filter, else
    // the raw samples (their negative-frequency images are then paired off below).
    const double half = 0.5 * (o.f_max_hz - o.f_min_hz);
    const bool widest = 4.4 * half * dt_s >= 1.0;  // the band covers most of the sampled spectrum
    const Baseband base = widest ? Baseband{} : to_baseband(signal, dt_s, o.f_min_hz, o.f_max_hz);
    const bool filtered = !base.samples.empty();
    std::vector<cplx> data = filtered ? base.samples : std::vector<cplx>(signal.begin(), signal.end());
    const double step_s = filtered ? dt_s * base.decimation : dt_s;      // fitted sample spacing
    const double shift_hz = filtered ? base.centre_hz : 0.0;             // fitted frequency + shift = f
    const double lo = (o.f_min_hz - shift_hz) * step_s, hi = (o.f_max_hz - shift_hz) * step_s;  // cycles/sample
    // Basis size: about 1.1 functions per Fourier resolution element 1/(n step) of the
    // window (Meep's spectral_density). A basis smaller than that loses the modes'
    // accuracy (a lossless cavity's Q fell from 1e11 to 1e6 with 300 functions for 435
    // elements), so a record longer than kMaxElements elements is cut to its first
    // kMaxElements instead: the eigenproblem stays below 500 x 500.
    constexpr double kMaxElements = 450;
    const double width = std::fabs(hi - lo);  // cycles per fitted sample
    std::size_t keep = std::min(data.size(), std::size_t(std::numeric_limits<int>::max()));
    if (double(keep) * width > kMaxElements) keep = std::size_t(kMaxElements / width);
    data.resize(keep);
    const int n = int(data.size());
    int basis = std::clamp(int(width * n * 1.1), 2, 500);
    basis = std::max(basis, std::min(o.max_modes, 500));
    std::unique_ptr<harminv_data_struct, void (*)(harminv_data)> hd(
        harminv_data_create(n, data.data(), lo, hi, basis), harminv_data_destroy);
    if (!hd) throw RunError("Harminv could not set up the resonance fit (out of memory?)");
    harminv_solve(hd.get());
    const int nf = harminv_get_num_freqs(hd.get());
    struct Found {
        Resonance r;
        double error;
        bool negative;  // raw samples fitted at -f: the conjugate image of a real signal's mode
    };
    std::vector<Found> found;
    for (int k = 0; k < nf; ++k) {
        cplx omega, amp;  // omega in radians per fitted sample
        harminv_get_omega(&omega, hd.get(), k);
        harminv_get_amplitude(&amp, hd.get(), k);
        const double err = harminv_get_freq_error(hd.get(), k);
        const cplx w = omega / step_s;  // rad/s, shifted
        const bool negative = !filtered && w.real() < 0;
        if (filtered) amp /= base.response(w, dt_s);  // the filter's gain at this complex frequency
        Resonance r;
        r.frequency_hz = std::fabs(w.real() / (2 * units::pi) + shift_hz);
        r.decay_per_s = -w.imag();
        r.q = r.decay_per_s != 0 ? units::pi * r.frequency_hz / r.decay_per_s
                                 : std::numeric_limits<double>::infinity();
        // s holds A cos(2 pi f t + phi) e^{-alpha t} = A/2 e^{i phi} e^{-i(-omega) t} + A/2 e^{-i phi} e^{-i omega t}:
        // the complex amplitude at +f is A/2 e^{-i phi}, at -f it is A/2 e^{+i phi}.
        r.amplitude = 2 * std::abs(amp);
        r.phase_rad = negative ? std::arg(amp) : -std::arg(amp);
        r.error = err;
        if (!(r.frequency_hz >= o.f_min_hz && r.frequency_hz <= o.f_max_hz)) continue;
        if (!(std::fabs(r.q) > o.q_min) || !(err < o.error_max) || !std::isfinite(r.amplitude)) continue;
        r.wavelength_um = units::hz_to_wavelength_um(r.frequency_hz);
        found.push_back({r, err, negative});
    }
    // A real signal's mode at f has a conjugate image at -f that the raw fit can still pick
    // up near the window; a negative-frequency mode within two resolution elements
    // 2 / (n dt) of a positive one is the same mode: keep the one with the smaller error.
    const double same_hz = 2.0 / (double(n) * step_s);
    std::vector<bool> drop(found.size(), false);
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (!found[i].negative) continue;
        std::size_t best = i;
        double best_df = same_hz;
        for (std::size_t k = 0; k < found.size(); ++k) {
            if (found[k].negative || drop[k]) continue;
            const double df = std::fabs(found[k].r.frequency_hz - found[i].r.frequency_hz);
            if (df < best_df) best = k, best_df = df;
        }
        if (best != i) (found[i].error < found[best].error ? drop[best] : drop[i]) = true;
    }
    std::vector<Found> kept;
    for (std::size_t i = 0; i < found.size(); ++i)
        if (!drop[i]) kept.push_back(found[i]);
    std::sort(kept.begin(), kept.end(), [](const Found& a, const Found& b) { return a.error < b.error; });
    if (int(kept.size()) > o.max_modes) kept.resize(std::size_t(std::max(0, o.max_modes)));
    for (const Found& f : kept) out.push_back(f.r);
    std::sort(out.begin(), out.end(),
              [](const Resonance& a, const Resonance& b) { return a.frequency_hz < b.frequency_hz; });
#endif
    return out;
}

}  // namespace golightly
