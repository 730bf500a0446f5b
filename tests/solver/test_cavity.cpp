// PEC cavities: exact conservation of the discrete Yee energy, and resonance frequencies
// against the analytic rectangular-cavity modes.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdio>

#include "golightly/engine.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

// The discrete invariant of the lossless Yee scheme with walls that make the discrete
// curls adjoint (PEC, PMC, periodic):
//   W^n = sum eps_r (E^n)^2 + sum H^{n-1/2} . H^{n+1/2}
// (e.g. Taflove & Hagness 3rd ed. sec. 4.? / Gedney's "discrete energy"; follows from
// H^{n+1/2} - H^{n-1/2} = -S C E^n and E^{n+1} - E^n = (S/eps) C^T H^{n+1/2}).
// Evaluating it advances the engine by one step.
double discrete_invariant(Engine& e, const Scene& s) {
    double w = 0;
    for (Component c : electric_components(s.polarization)) {
        std::vector<double> v;
        e.get_field(c, v);
        const auto& idx = s.material_index[int(c)];
        for (std::size_t k = 0; k < v.size(); ++k) w += s.table[idx[k]].eps_r * v[k] * v[k];
    }
    const auto hc = magnetic_components(s.polarization);
    std::vector<std::vector<double>> before(hc.size());
    for (std::size_t q = 0; q < hc.size(); ++q) e.get_field(hc[q], before[q]);
    e.step(1);
    for (std::size_t q = 0; q < hc.size(); ++q) {
        std::vector<double> after;
        e.get_field(hc[q], after);
        for (std::size_t k = 0; k < after.size(); ++k) w += before[q][k] * after[k];
    }
    return w;
}

}  // namespace

TEST_CASE("PEC cavity conserves the discrete Yee energy over 10^4 steps", "[physics][cavity]") {
    for (auto pol : {Polarization::TMz, Polarization::TEz}) {
        // random eps_r in [1, 4] per cell, random initial fields
        Scene s = make_pec_cavity(40, 31, pol, 4.0, 17, 0.6);
        auto e = make_cpu_engine(s, Precision::Float64, 1);
        randomize_fields(*e, s, 23);
        e->step(1);  // enforces the wall conditions on the random state
        const double w0 = discrete_invariant(*e, s);
        const double naive0 = e->field_energy();
        double naive_min = naive0, naive_max = naive0;
        for (int block = 0; block < 20; ++block) {
            e->step(500);
            const double en = e->field_energy();
            naive_min = std::min(naive_min, en);
            naive_max = std::max(naive_max, en);
        }
        const double w1 = discrete_invariant(*e, s);
        const double rel = std::abs(w1 - w0) / w0;
        std::printf("[cavity] %s discrete invariant drift over 10^4 steps: %.2e (naive energy varies %.2e)\n",
                    pol == Polarization::TMz ? "TMz" : "TEz", rel, (naive_max - naive_min) / naive0);
        CHECK(e->steps_done() == 1 + 1 + 20 * 500 + 1);
        CHECK(w0 > 0);
        CHECK(rel < 1e-5);
        // the invariant is not trivially constant: the naive energy does move
        CHECK((naive_max - naive_min) / naive0 > 1e-4);
    }
}

namespace {

// |sum_n w_n x_n exp(-i 2 pi f n dt)| with a Hann window w_n, the spectrum of the record.
double windowed_spectrum(const std::vector<double>& x, double f, double dt) {
    const std::size_t n = x.size();
    std::complex<double> acc = 0;
    const std::complex<double> step = std::polar(1.0, -2 * units::pi * f * dt);
    std::complex<double> ph = 1;
    for (std::size_t k = 0; k < n; ++k) {
        const double w = 0.5 - 0.5 * std::cos(2 * units::pi * double(k) / double(n - 1));
        acc += w * x[k] * ph;
        ph *= step;
        if ((k & 255) == 255) ph /= std::abs(ph);
    }
    return std::abs(acc);
}

// The peak of the windowed spectrum within [lo, hi]: a scan on a grid finer than the
// window's main lobe, then golden-section search around the best grid point.
// Returns -1 when the maximum lies on the edge of the range (no peak inside).
double find_peak(const std::vector<double>& x, double dt, double lo, double hi) {
    const int n_grid = 200;
    int best = 0;
    double best_v = -1;
    for (int k = 0; k <= n_grid; ++k) {
        const double v = windowed_spectrum(x, lo + (hi - lo) * k / n_grid, dt);
        if (v > best_v) { best_v = v; best = k; }
    }
    if (best == 0 || best == n_grid) return -1;
    double a = lo + (hi - lo) * (best - 1) / n_grid, b = lo + (hi - lo) * (best + 1) / n_grid;
    const double g = (std::sqrt(5.0) - 1) / 2;
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = windowed_spectrum(x, c, dt), fd = windowed_spectrum(x, d, dt);
    for (int it = 0; it < 60; ++it) {
        if (fc > fd) { b = d; d = c; fd = fc; c = b - g * (b - a); fc = windowed_spectrum(x, c, dt); }
        else { a = c; c = d; fc = fd; d = a + g * (b - a); fd = windowed_spectrum(x, d, dt); }
    }
    return 0.5 * (a + b);
}

}  // namespace

// Rectangular PEC cavity a x b (walls at e positions 0 and n: a = nx dx, b = ny dx):
// TMz (Ez) and TEz (Hz) modes at f_mn = c/2 sqrt((m/a)^2 + (n/b)^2) (Pozar, Microwave
// Engineering, eq. 6.40). Every tested mode has >= 60 cells per wavelength, where the
// Yee dispersion error is ~3e-4.
TEST_CASE("PEC cavity resonances match the analytic modes", "[physics][cavity]") {
    const int nx = 90, ny = 68;
    for (auto pol : {Polarization::TMz, Polarization::TEz}) {
        Scene s = make_pec_cavity(nx, ny, pol);
        const double a = nx * s.dx_um * units::um, b = ny * s.dx_um * units::um;
        auto f_mn = [&](int m, int n) { return units::c0 / 2 * std::sqrt(std::pow(m / a, 2) + std::pow(n / b, 2)); };
        struct Mode { int m, n; };
        const std::vector<Mode> modes = pol == Polarization::TMz
                                            ? std::vector<Mode>{{1, 1}, {2, 1}, {1, 2}}
                                            : std::vector<Mode>{{1, 0}, {0, 1}, {1, 1}, {2, 0}};
        double fmin = 1e300, fmax = 0;
        for (auto md : modes) { fmin = std::min(fmin, f_mn(md.m, md.n)); fmax = std::max(fmax, f_mn(md.m, md.n)); }
        const double fc = 0.5 * (fmin + fmax);
        const auto w = gaussian_pulse(fc, 3.0 / (2 * units::pi * fc));  // broadband, little DC
        const Component c = pol == Polarization::TMz ? Component::Ez : Component::Hz;
        add_point_source(s, c, 17, 13, w);
        add_point_probe(s, c, 71, 50);
        auto e = make_cpu_engine(s, Precision::Float64, 2);
        const int skip = int(std::ceil(w.end_time_s() / s.dt_s));
        e->step(skip + 16384);
        auto ts = e->time_samples(0);
        std::vector<double> x(ts.begin() + skip, ts.end());
        double mean = 0;
        for (double v : x) mean += v;
        mean /= double(x.size());
        for (double& v : x) v -= mean;  // TEz: the static TE00 mode
        for (auto md : modes) {
            const double fa = f_mn(md.m, md.n);
            const double fp = find_peak(x, s.dt_s, 0.97 * fa, 1.03 * fa);
            const double err = (fp - fa) / fa;
            std::printf("[cavity] %s mode (%d,%d): %.1f cells/wavelength, relative frequency error %.2e\n",
                        pol == Polarization::TMz ? "TMz" : "TEz", md.m, md.n, units::c0 / fa / (s.dx_um * units::um), err);
            INFO("mode " << md.m << "," << md.n << " analytic " << fa << " found " << fp);
            CHECK(fp > 0);
            CHECK(std::abs(err) < 1e-3);
        }
        // a non-mode (halfway between two modes) carries far less spectral weight than a mode
        const double f1 = f_mn(modes[0].m, modes[0].n), f2 = f_mn(modes[1].m, modes[1].n);
        CHECK(windowed_spectrum(x, 0.5 * (f1 + f2), s.dt_s) < 0.05 * windowed_spectrum(x, f1, s.dt_s));
    }
}
