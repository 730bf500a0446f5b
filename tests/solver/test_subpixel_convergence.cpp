// Sub-pixel averaging convergence (Farjadpour et al., Opt. Lett. 31, 2972 (2006)): the
// resonance frequency of a dielectric disc in a PEC box (TMz), through the whole chain
// (project -> compile_project -> CPU engine), at several resolutions. With averaging the
// error falls at second order; with a staircased grid at first order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <cstdlib>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/units.hpp"

using namespace golightly;

namespace {

constexpr double kPi = std::numbers::pi;

struct DiscSetup {
    double radius_um = 0.5;
    double eps = 12.0;
    double box_um = 2.0;           ///< PEC box side
    Vec2 centre{1.0, 1.0};
};

Project disc_project(const DiscSetup& d, double dx_um, double lambda_um, Polarization pol) {
    Project p;
    p.name = "disc";
    p.domain.dimensions = 2;
    p.domain.size = {d.box_um, d.box_um, 0.0};
    p.domain.cell_size = dx_um;
    p.domain.polarization = pol;
    p.domain.boundaries = {BoundaryKind::Pec, BoundaryKind::Pec, BoundaryKind::Pec};
    Material m;
    m.id = "core";
    m.epsilon_inf = d.eps;
    p.materials.push_back(m);
    Layer l;
    l.name = "disc";
    l.material = "core";
    Shape s;
    s.type = ShapeType::Ellipse;
    s.center = d.centre;
    s.radii = {d.radius_um, d.radius_um};
    l.shapes.push_back(s);
    p.layers.push_back(l);
    Source src;
    src.name = "kick";
    src.type = SourceType::Point;
    src.at = {d.centre.x + 0.13 * d.radius_um, d.centre.y + 0.07 * d.radius_um};
    src.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    src.waveform.type = WaveformType::GaussianPulse;
    src.waveform.wavelength_center = lambda_um;
    src.waveform.wavelength_span = 0.5 * lambda_um;
    p.sources.push_back(src);
    Monitor t;
    t.name = "probe";
    t.type = MonitorType::Time;
    t.at = Vec2{d.centre.x - 0.21 * d.radius_um, d.centre.y + 0.11 * d.radius_um};
    t.component = src.component;
    p.monitors.push_back(t);
    p.run.courant = 0.5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    return p;
}

// Hann-windowed DFT magnitude of a record at frequency f.
double windowed_spectrum(const std::vector<double>& x, double f, double dt) {
    const std::size_t n = x.size();
    std::complex<double> acc = 0;
    const std::complex<double> step = std::polar(1.0, -2 * kPi * f * dt);
    std::complex<double> ph = 1;
    for (std::size_t k = 0; k < n; ++k) {
        const double w = 0.5 - 0.5 * std::cos(2 * kPi * double(k) / double(n - 1));
        acc += w * x[k] * ph;
        ph *= step;
        if ((k & 255) == 255) ph /= std::abs(ph);
    }
    return std::abs(acc);
}

// The peak of the windowed spectrum in [lo, hi]: a grid scan (finer than the window's
// main lobe, like a zero-padded DFT), then golden-section refinement. -1: on the edge.
double find_peak(const std::vector<double>& x, double dt, double lo, double hi, int n_grid) {
    int best = 0;
    double best_v = -1;
    for (int k = 0; k <= n_grid; ++k) {
        const double v = windowed_spectrum(x, lo + (hi - lo) * k / n_grid, dt);
        if (v > best_v) best_v = v, best = k;
    }
    if (best == 0 || best == n_grid) return -1;
    double a = lo + (hi - lo) * (best - 1) / n_grid, b = lo + (hi - lo) * (best + 1) / n_grid;
    const double g = (std::sqrt(5.0) - 1) / 2;
    double c = b - g * (b - a), e = a + g * (b - a);
    double fc = windowed_spectrum(x, c, dt), fe = windowed_spectrum(x, e, dt);
    for (int it = 0; it < 50; ++it) {
        if (fc > fe) { b = e; e = c; fe = fc; c = b - g * (b - a); fc = windowed_spectrum(x, c, dt); }
        else { a = c; c = e; fc = fe; e = a + g * (b - a); fe = windowed_spectrum(x, e, dt); }
    }
    return 0.5 * (a + b);
}

/// Runs the disc at cell size dx and returns the probe record after the source and dt.
std::vector<double> run_disc(const DiscSetup& d, double dx, double lambda_um, bool subpixel, double periods,
                             double& dt_s, Polarization pol = Polarization::TMz) {
    const Project p = disc_project(d, dx, lambda_um, pol);
    CompileOptions o;
    o.subpixel_averaging = subpixel;
    const CompiledProject cp = compile_project(p, "disc", o);
    dt_s = cp.scene.dt_s;
    auto e = make_cpu_engine(cp.scene, Precision::Float64, 2);
    const int skip = int(std::ceil(cp.sources_end_s / dt_s));
    const double period_s = lambda_um * units::um / units::c0;
    const int n = int(std::ceil(periods * period_s / dt_s));
    e->step(skip + n);
    auto ts = e->time_samples(cp.monitors[0].time_probe);
    std::vector<double> x(ts.end() - n, ts.end());
    double mean = 0;
    for (double v : x) mean += v;
    mean /= double(x.size());
    for (double& v : x) v -= mean;  // TEz: static Hz
    return x;
}

/// Least-squares fit of err = C h^p in log space: returns p.
double loglog_slope(const std::vector<double>& h, const std::vector<double>& err) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = double(h.size());
    for (std::size_t k = 0; k < h.size(); ++k) {
        const double x = std::log(h[k]), y = std::log(err[k]);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/// Fit f(h) = f0 + a h^p (least squares; p scanned, f0 and a linear): returns {f0, p}.
std::pair<double, double> fit_power(const std::vector<double>& h, const std::vector<double>& f) {
    double best_r = 1e300, best_p = 0, best_f0 = 0;
    for (double p = 0.5; p <= 4.0 + 1e-9; p += 0.001) {
        double s1 = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (std::size_t k = 0; k < h.size(); ++k) {
            const double x = std::pow(h[k], p);
            s1 += 1, sx += x, sy += f[k], sxx += x * x, sxy += x * f[k];
        }
        const double a = (s1 * sxy - sx * sy) / (s1 * sxx - sx * sx), f0 = (sy - a * sx) / s1;
        double r = 0;
        for (std::size_t k = 0; k < h.size(); ++k) r += std::pow(f0 + a * std::pow(h[k], p) - f[k], 2);
        if (r < best_r) best_r = r, best_p = p, best_f0 = f0;
    }
    return {best_f0, best_p};
}

}  // namespace

TEST_CASE("sub-pixel averaging converges at second order, staircasing at first (TMz disc)", "[physics][subpixel]") {
    const auto t0 = std::chrono::steady_clock::now();
    // eps 12 disc of radius 0.5 um in a 2 um PEC box. Its lowest TMz mode (monopole) lies
    // near lambda0 ~ 4.9 um (k0 n R ~ 2.2); found once on a broad scan, then tracked.
    const std::vector<int> cells_per_radius = {8, 10, 12, 14, 16, 20};
    // off-grid centres: the staircase error depends on where the grid cuts the circle
    const std::vector<Vec2> centres = {{1.0123, 0.9871}, {0.9937, 1.0311}, {1.0271, 1.0057}};
    const double periods = 80;

    DiscSetup d;
    // locate the mode (coarse, averaged)
    double lambda_guess = 4.9, f_mode = 0;
    {
        double dt;
        d.centre = centres[0];
        const double dx = d.radius_um / 16;
        const auto x = run_disc(d, dx, lambda_guess, true, periods, dt);
        const double fg = units::c0 / (lambda_guess * units::um);
        f_mode = find_peak(x, dt, 0.6 * fg, 1.6 * fg, 2000);
        REQUIRE(f_mode > 0);
        lambda_guess = units::c0 / f_mode / units::um;
        std::printf("[subpixel] disc mode at lambda0 = %.4f um\n", lambda_guess);
    }

    std::vector<double> h;
    for (int n : cells_per_radius) h.push_back(d.radius_um / n);
    double order_avg_sum = 0;
    std::vector<double> stair_err_mean(h.size(), 0.0), avg_err_mean(h.size(), 0.0);
    for (const Vec2& c : centres) {
        d.centre = c;
        std::vector<double> f_avg, f_stair;
        for (double dx : h) {
            double dt;
            for (bool sub : {true, false}) {
                const auto x = run_disc(d, dx, lambda_guess, sub, periods, dt);
                const double f = find_peak(x, dt, 0.9 * f_mode, 1.1 * f_mode, 400);
                REQUIRE(f > 0);
                (sub ? f_avg : f_stair).push_back(f);
            }
        }
        const auto [f0, p_avg] = fit_power(h, f_avg);
        order_avg_sum += p_avg;
        for (std::size_t k = 0; k < h.size(); ++k) {
            avg_err_mean[k] += std::abs(f_avg[k] - f0) / f0 / double(centres.size());
            stair_err_mean[k] += std::abs(f_stair[k] - f0) / f0 / double(centres.size());
            std::printf("[subpixel] centre (%.4f, %.4f) R/dx = %2d: averaged %.8e Hz (err %+.3e), staircase %.8e Hz (err %+.3e)\n",
                        c.x, c.y, cells_per_radius[k], f_avg[k], (f_avg[k] - f0) / f0, f_stair[k], (f_stair[k] - f0) / f0);
        }
        std::printf("[subpixel] centre (%.4f, %.4f): fitted f0 = %.8e Hz, order with averaging %.3f\n", c.x, c.y, f0, p_avg);
    }
    const double p_avg = order_avg_sum / double(centres.size());
    const double p_avg_mean = loglog_slope(h, avg_err_mean);
    const double p_stair = loglog_slope(h, stair_err_mean);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("[subpixel] fitted orders: averaged %.3f (mean of per-centre fits; %.3f from the mean error), "
                "staircase %.3f (mean error over %zu centres); %.1f s\n",
                p_avg, p_avg_mean, p_stair, centres.size(), secs);
    CHECK(p_avg >= 1.8);
    CHECK(p_stair <= 1.3);
    // and averaging is the more accurate at every resolution
    for (std::size_t k = 0; k < h.size(); ++k) CHECK(avg_err_mean[k] < stair_err_mean[k]);
}

// Exploration (hidden): GL_POL=TEz|TMz GL_N="8,10,..." GL_CENTRES=k GL_PERIODS=p
TEST_CASE("sub-pixel convergence exploration", "[.explore]") {
    auto env = [](const char* k, const char* def) { const char* v = std::getenv(k); return std::string(v ? v : def); };
    const Polarization pol = env("GL_POL", "TMz") == "TEz" ? Polarization::TEz : Polarization::TMz;
    std::vector<int> Ns;
    {
        std::string s = env("GL_N", "8,10,12,14,16,20");
        std::size_t a = 0;
        while (a < s.size()) { std::size_t b = s.find(',', a); if (b == std::string::npos) b = s.size(); Ns.push_back(std::stoi(s.substr(a, b - a))); a = b + 1; }
    }
    const int nc = std::stoi(env("GL_CENTRES", "3"));
    const double periods = std::stod(env("GL_PERIODS", "40"));
    DiscSetup d;
    d.eps = std::stod(env("GL_EPS", "12"));
    d.box_um = std::stod(env("GL_BOX", "2"));
    d.centre = {0.5 * d.box_um + 0.0123, 0.5 * d.box_um - 0.0129};
    double lambda = std::stod(env("GL_LAMBDA", "8.0")), dt;
    const auto x0 = run_disc(d, d.radius_um / 16, lambda, true, periods, dt, pol);
    const double fg = units::c0 / (lambda * units::um);
    const double fm = find_peak(x0, dt, 0.6 * fg, 1.6 * fg, 2000);
    std::printf("mode lambda0 %.4f\n", units::c0 / fm / units::um);
    std::mt19937 rng(5);
    for (int c = 0; c < nc; ++c) {
        d.centre = {0.5 * d.box_um + 0.05 * (std::uniform_real_distribution<double>(-1, 1)(rng)),
                    0.5 * d.box_um + 0.05 * (std::uniform_real_distribution<double>(-1, 1)(rng))};
        for (int n : Ns) {
            double fa = 0, fs = 0;
            for (bool sub : {true, false}) {
                const auto x = run_disc(d, d.radius_um / n, lambda, sub, periods, dt, pol);
                (sub ? fa : fs) = find_peak(x, dt, 0.85 * fm, 1.15 * fm, 400);
            }
            std::printf("C %d N %d avg %.10e stair %.10e\n", c, n, fa, fs);
            std::fflush(stdout);
        }
    }
}
