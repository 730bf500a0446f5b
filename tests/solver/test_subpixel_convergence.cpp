// Sub-pixel averaging convergence (Farjadpour et al., Opt. Lett. 31, 2972 (2006)): the
// resonance frequency of a dielectric disc in a PEC box, through the whole chain (project
// -> compile_project -> CPU engine), at many resolutions, fitted orders asserted.
//   TEz (Hz monopole, E in the plane): the staircase is first order (E normal to the steps
//   sees a laminate with the wrong effective eps in an O(h) band), the diagonal entries of
//   the tensor alone are first order too, and the full tensor (scene.hpp "Anisotropic
//   cells") second order: the issue's <= 1.3 / >= 1.8 are asserted here.
//   TMz (Ez parallel to every interface): the mean of eps converges at second order, the
//   staircase at about 1.5 (a lattice-point count error of the circle, not a first-order
//   bias), so there the staircase bound is a band around 1.5.
// Also: tensor entries against the disc's normal, and long-run energy boundedness.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/geometry.hpp"
#include "golightly/image_io.hpp"
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
    // Source and probe: small discs at the disc's centre (coverage-weighted region source,
    // mean over a region), so that the monopole (m = 0) family dominates the record.
    Shape core;
    core.type = ShapeType::Ellipse;
    core.center = d.centre;
    core.radii = {0.3 * d.radius_um, 0.3 * d.radius_um};
    Source src;
    src.name = "kick";
    src.type = SourceType::Region;
    src.shape = core;
    src.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    src.waveform.type = WaveformType::GaussianPulse;
    src.waveform.wavelength_center = lambda_um;
    src.waveform.wavelength_span = 0.5 * lambda_um;
    p.sources.push_back(src);
    Monitor t;
    t.name = "probe";
    t.type = MonitorType::Time;
    t.shape = core;
    t.reduce = Reduce::Mean;
    t.component = src.component;
    p.monitors.push_back(t);
    p.run.courant = 0.5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    return p;
}

// Windowed DFT magnitude of a record at frequency f: 4-term Blackman-Harris window
// (sidelobes below -92 dB, Harris, Proc. IEEE 66, 51 (1978)), so that other modes leak
// next to nothing into the peak.
double windowed_spectrum(const std::vector<double>& x, double f, double dt) {
    const std::size_t n = x.size();
    std::complex<double> acc = 0;
    const std::complex<double> step = std::polar(1.0, -2 * kPi * f * dt);
    std::complex<double> ph = 1;
    for (std::size_t k = 0; k < n; ++k) {
        const double a = 2 * kPi * double(k) / double(n - 1);
        const double w = 0.35875 - 0.48829 * std::cos(a) + 0.14128 * std::cos(2 * a) - 0.01168 * std::cos(3 * a);
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
/// diagonal_only: drops the TEz off-diagonal coupling (the diagonal tensor entries stay).
std::vector<double> run_disc(const DiscSetup& d, double dx, double lambda_um, bool subpixel, double periods,
                             double& dt_s, Polarization pol = Polarization::TMz, bool diagonal_only = false) {
    const Project p = disc_project(d, dx, lambda_um, pol);
    CompileOptions o;
    o.subpixel_averaging = subpixel;
    CompiledProject cp = compile_project(p, "disc", o);
    if (diagonal_only) cp.scene.anisotropic = AnisotropicCells{};
    dt_s = cp.scene.dt_s;
    // one thread: these grids are small (<= 72 x 72), and a second thread only adds
    // barrier waits (badly so on a shared, loaded machine)
    auto e = make_cpu_engine(cp.scene, Precision::Float64, 1);
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

}  // namespace

namespace {

/// Upper envelope of |error| per bin of resolution: bins [edges[b], edges[b+1]) of cells
/// per radius; returns (geometric-mean cell size, max |error|) of the non-empty bins.
std::vector<std::pair<double, double>> envelope(const std::vector<double>& cells_per_radius,
                                                const std::vector<double>& err, const std::vector<double>& edges,
                                                double radius_um) {
    std::vector<std::pair<double, double>> out;
    for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
        double lh = 0, emax = 0;
        int n = 0;
        for (std::size_t k = 0; k < err.size(); ++k)
            if (cells_per_radius[k] >= edges[b] && cells_per_radius[k] < edges[b + 1]) {
                lh += std::log(radius_um / cells_per_radius[k]);
                emax = std::max(emax, std::abs(err[k]));
                ++n;
            }
        if (n > 0) out.emplace_back(std::exp(lh / n), emax);
    }
    return out;
}

double envelope_order(const std::vector<std::pair<double, double>>& env) {
    std::vector<double> h, e;
    for (const auto& [hh, ee] : env) h.push_back(hh), e.push_back(ee);
    return loglog_slope(h, e);
}

}  // namespace

// The lowest TMz mode (monopole) of an eps = 12 disc of radius R = 0.5 um in a 1.4 x 1.4
// um PEC box, on M x M grids (M cells across the box), for three off-grid disc centres.
// Ez is parallel to the disc's boundary, so the sub-pixel average is the plain mean of eps
// (Farjadpour et al., Opt. Lett. 31, 2972 (2006)). As M changes the grid cuts the circle
// differently, so the error of a single grid is erratic (as in 1D, where it is
// h^p g(offset of the interface in its cell)): the orders are fitted (least squares in
// log-log) to the upper envelope of |error| over bins of resolution, pooled over the
// centres. Reference per centre: the mean of three fine averaged grids.
TEST_CASE("sub-pixel averaging converges at second order, staircasing slower (TMz disc)", "[physics][subpixel][slow]") {
    const auto t0 = std::chrono::steady_clock::now();
    const double periods = 32;
    const std::vector<Vec2> centres = {{0.7123, 0.6829}, {0.6712, 0.7234}, {0.7277, 0.7061}};
    DiscSetup d;
    d.box_um = 1.4;
    const double cells_per_radius_per_m = d.radius_um / d.box_um;  // R/dx = M R / L
    std::vector<double> n_avg, e_avg, n_st, e_st;
    for (const Vec2& c : centres) {
        d.centre = c;
        double dt;
        // locate the mode: broad scan on an averaged 48 x 48 grid
        double lambda = 6.0;
        const double fg = units::c0 / (lambda * units::um);
        const auto x48 = run_disc(d, d.box_um / 48, lambda, true, periods, dt);
        const double f_mode = find_peak(x48, dt, 0.5 * fg, 1.5 * fg, 2000);
        REQUIRE(f_mode > 0);
        lambda = units::c0 / f_mode / units::um;
        auto frequency = [&](int m, bool sub) {
            const auto x = run_disc(d, d.box_um / m, lambda, sub, periods, dt);  // (sets dt)
            const double f = find_peak(x, dt, 0.85 * f_mode, 1.15 * f_mode, 400);
            REQUIRE(f > 0);
            return f;
        };
        std::vector<double> f_ref;
        for (int m : {56, 64, 72}) f_ref.push_back(frequency(m, true));
        const double f0 = (f_ref[0] + f_ref[1] + f_ref[2]) / 3;
        const double spread =
            (*std::max_element(f_ref.begin(), f_ref.end()) - *std::min_element(f_ref.begin(), f_ref.end())) / f0;
        std::printf("[subpixel] centre (%.4f, %.4f): lambda0 = %.4f um, reference f0 = %.9e Hz (spread %.1e)\n", c.x,
                    c.y, lambda, f0, spread);
        CHECK(spread < 5e-5);
        for (int m = 11; m <= 45; m += (m < 30 ? 1 : 2)) {
            const double n = m * cells_per_radius_per_m;
            char avg[32] = "-";
            if (n <= 8.01) {
                n_avg.push_back(n);
                e_avg.push_back((frequency(m, true) - f0) / f0);
                std::snprintf(avg, sizeof avg, "%+.2e", e_avg.back());
            }
            if (n < 4) continue;
            n_st.push_back(n);
            e_st.push_back((frequency(m, false) - f0) / f0);
            std::printf("[subpixel]   R/dx = %5.2f: relative error averaged %9s, staircase %+.2e\n", n, avg, e_st.back());
        }
    }
    // Averaged errors fall towards the references' own level (~1e-5) beyond R/dx ~ 10: the
    // fit uses R/dx 4..8, where they stay far above it.
    const auto env_avg = envelope(n_avg, e_avg, {3.9, 5, 6, 7, 8.01}, d.radius_um);
    const auto env_st = envelope(n_st, e_st, {3.9, 5, 6.5, 8.5, 11, 13.5, 16.2}, d.radius_um);
    const double p_avg = envelope_order(env_avg), p_st = envelope_order(env_st);
    for (const auto& [h, e] : env_avg) std::printf("[subpixel] averaged envelope: h = %.4f um, max |error| %.2e\n", h, e);
    for (const auto& [h, e] : env_st) std::printf("[subpixel] staircase envelope: h = %.4f um, max |error| %.2e\n", h, e);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("[subpixel] fitted orders (envelope, %zu centres): averaged %.2f (R/dx 4..8), staircase %.2f (R/dx 4..16); %.1f s\n",
                centres.size(), p_avg, p_st, secs);
    // Averaged: second order. Staircase: for Ez (parallel to the boundary) the staircase
    // error is the lattice-point count error of the disc, which for a circle does not
    // scale as h but as about h^1.5 (Kendall, Q. J. Math. 19, 1 (1948): the count's
    // variance over random offsets grows as the radius in cells), erratically; measured
    // 1.45 over these centres, 1.2..1.5 over single ones. So the TMz staircase is checked
    // in a band around 1.5 (first order, <= 1.3, is the TEz case below), well below the
    // averaged order.
    CHECK(p_avg >= 1.8);
    CHECK(p_st >= 1.1);
    CHECK(p_st <= 1.75);
    CHECK(p_avg - p_st >= 0.3);
    // and averaging is far more accurate wherever both ran (same bins)
    const auto env_st_same = envelope(n_st, e_st, {3.9, 5, 6, 7, 8.01}, d.radius_um);
    REQUIRE(env_st_same.size() == env_avg.size());
    for (std::size_t b = 0; b < env_avg.size(); ++b) CHECK(env_avg[b].second * 5 < env_st_same[b].second);
}


// ---------------------------------------------------------------------------- TEz tensor

namespace {

/// Compiles the disc project (TEz, PEC box) without its source and probe.
CompiledProject tez_disc_scene(const DiscSetup& d, double dx, bool subpixel) {
    Project p = disc_project(d, dx, 3.0, Polarization::TEz);
    p.sources.clear();
    p.monitors.clear();
    CompileOptions o;
    o.subpixel_averaging = subpixel;
    return compile_project(p, "disc", o);
}

}  // namespace

// The Farjadpour tensor at a circle's cut cells, from the exact normals: the off-diagonal
// entry of the inverse permittivity against nx ny (<1/eps> - 1/<eps>) with n the radial
// direction at the sample (the normal turns by dx/R across a window, so 5 % of a - b).
TEST_CASE("TEz sub-pixel tensor: off-diagonal entries follow the disc's normal", "[physics][subpixel]") {
    DiscSetup d;
    d.centre = {1.0123, 0.9871};
    const double dx = d.radius_um / 20;
    const Project p = disc_project(d, dx, 3.0, Polarization::TEz);
    SampleGrid g;
    g.nx = g.ny = int(d.box_um / dx);
    g.dx_um = dx;
    g.x0_um = 0.5 * dx;  // Ex-like samples
    g.y0_um = 0.0;
    const AveragedMedium m = average_medium(p, g, Component::Ex, true, false);
    const AveragedMedium st = average_medium(p, g, Component::Ex, false, false);
    REQUIRE(m.inv_eps_offdiag.size() == m.eps_r.size());
    CHECK(st.inv_eps_offdiag.empty());
    const Coverage cov = compute_coverage(p, g, false);
    int cut = 0, checked = 0;
    double worst = 0;
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            const std::size_t k = std::size_t(j) * g.nx + i;
            const double f = cov.fraction[cov.material_ids[0] == "core" ? 0 : 1][k];
            if (f <= 0.02 || f >= 0.98) {
                if (f == 0.0 || f == 1.0) CHECK(m.inv_eps_offdiag[k] == 0.0);
                continue;
            }
            ++cut;
            const double x = g.x0_um + i * dx - d.centre.x, y = g.y0_um + j * dx - d.centre.y, r = std::hypot(x, y);
            const double nx = x / r, ny = y / r;
            const double a = f / d.eps + (1 - f), b = 1.0 / (f * d.eps + (1 - f));
            const double expect = nx * ny * (a - b);
            worst = std::max(worst, std::abs(m.inv_eps_offdiag[k] - expect) / (a - b));
            const double ixx = nx * nx * a + (1 - nx * nx) * b;
            CHECK(1.0 / m.eps_r[k] == Approx(ixx).margin(0.05 * (a - b)));
            ++checked;
        }
    std::printf("[subpixel] tensor check: %d cut samples, worst off-diagonal deviation %.3f (a - b)\n", checked, worst);
    CHECK(cut > 100);
    CHECK(worst < 0.05);
}

// Composited layers: a later air rectangle covers the left part of the disc. Its edge
// x = xe crosses the disc: there the windows see a flat vertical interface (normal x:
// Ex normal, Ey parallel, no off-diagonal entry), and the disc's edge under the
// rectangle is gone (uniform air windows).
TEST_CASE("TEz sub-pixel tensor: a later layer's edge replaces what it covers", "[physics][subpixel]") {
    DiscSetup d;
    d.centre = {1.0123, 0.9871};
    const double dx = d.radius_um / 20, xe = 1.0063;
    Project p = disc_project(d, dx, 3.0, Polarization::TEz);
    Layer cover;
    cover.name = "cover";
    cover.material = "air";
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {-1.0, -1.0};
    r.max = {xe, 3.0};
    cover.shapes.push_back(r);
    p.layers.push_back(cover);
    for (Component c : {Component::Ex, Component::Ey}) {
        SampleGrid g;
        g.nx = g.ny = int(d.box_um / dx);
        g.dx_um = dx;
        g.x0_um = c == Component::Ex ? 0.5 * dx : 0.0;
        g.y0_um = c == Component::Ex ? 0.0 : 0.5 * dx;
        const AveragedMedium m = average_medium(p, g, c, true, false);
        const Coverage cov = compute_coverage(p, g, false);
        const std::size_t core = std::size_t(std::find(cov.material_ids.begin(), cov.material_ids.end(), "core") -
                                             cov.material_ids.begin());
        REQUIRE(core < cov.material_ids.size());
        int on_edge = 0, covered = 0;
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) {
                const std::size_t k = std::size_t(j) * g.nx + i;
                const double x = g.x0_um + i * dx, y = g.y0_um + j * dx;
                const double f = cov.fraction[core][k];
                if (std::abs(x - xe) < 0.5 * dx && std::abs(y - d.centre.y) < 0.8 * d.radius_um) {
                    ++on_edge;  // cut by the rectangle's edge only (deep inside the disc)
                    REQUIRE(f > 0.01);
                    REQUIRE(f < 0.99);
                    const double a = f / d.eps + (1 - f), b = 1.0 / (f * d.eps + (1 - f));
                    CHECK(std::abs(m.inv_eps_offdiag[k]) < 1e-4 * (a - b));
                    CHECK(m.eps_r[k] == Approx(c == Component::Ex ? 1.0 / a : 1.0 / b).epsilon(1e-5));
                }
                if (x < xe - dx && std::hypot(x - d.centre.x, y - d.centre.y) > d.radius_um - dx &&
                    std::hypot(x - d.centre.x, y - d.centre.y) < d.radius_um + dx) {
                    ++covered;  // the disc's edge under the rectangle: plain air
                    CHECK(m.eps_r[k] == 1.0);
                    CHECK(m.inv_eps_offdiag[k] == 0.0);
                }
            }
        CHECK(on_edge > 20);
        CHECK(covered > 20);
    }
}

// Painted rasters keep the coverage-gradient normal: a half-plane at 30 degrees painted
// as a raster (5 pixels per cell) and drawn as a polygon: the drawn one's off-diagonal
// entries are nx ny (<1/eps> - 1/<eps>) to rounding (exact normals), the painted one's
// close to it (central differences of the coverage).
TEST_CASE("TEz sub-pixel tensor: raster normals from the coverage gradient", "[physics][subpixel]") {
    const double th = 30.0 * 3.14159265358979 / 180, nxv = std::cos(th), nyv = std::sin(th);
    const Vec2 p0{1.003, 0.987};
    auto inside = [&](double x, double y) { return (x - p0.x) * nxv + (y - p0.y) * nyv < 0; };
    auto base = [] {
        Project p;
        p.domain.dimensions = 2;
        p.domain.size = {2.0, 2.0, 0.0};
        p.domain.cell_size = 0.05;
        p.domain.polarization = Polarization::TEz;
        Material m;
        m.id = "core";
        m.epsilon_inf = 12.0;
        p.materials.push_back(m);
        return p;
    };
    Project pr = base(), pv = base();
    Image8 img;
    img.width = img.height = 200;
    img.pixels.resize(200 * 200);
    for (int r = 0; r < 200; ++r)  // row 0 = top
        for (int c = 0; c < 200; ++c)
            img.pixels[std::size_t(r) * 200 + c] = inside((c + 0.5) * 0.01, (199 - r + 0.5) * 0.01) ? 255 : 0;
    Shape ras;
    ras.type = ShapeType::Raster;
    ras.origin = {0, 0};
    ras.pixel_size = 0.01;
    ras.width_px = ras.height_px = 200;
    ras.png_base64 = base64_encode(encode_png(img));
    Layer lr;
    lr.name = "painted";
    lr.material = "core";
    lr.shapes.push_back(ras);
    pr.layers.push_back(lr);
    // the same half-plane clipped to the raster's square, as a polygon
    Shape poly;
    poly.type = ShapeType::Polygon;
    const double t = 3.0;
    const Vec2 dir{-nyv, nxv};
    std::vector<Vec2> big = {{p0.x + t * dir.x, p0.y + t * dir.y},
                             {p0.x + t * dir.x - t * nxv, p0.y + t * dir.y - t * nyv},
                             {p0.x - t * dir.x - t * nxv, p0.y - t * dir.y - t * nyv},
                             {p0.x - t * dir.x, p0.y - t * dir.y}};
    poly.points = big;
    Layer lv;
    lv.name = "drawn";
    lv.material = "core";
    lv.shapes.push_back(poly);
    pv.layers.push_back(lv);
    SampleGrid g;
    g.nx = g.ny = 40;
    g.dx_um = 0.05;
    g.x0_um = 0.025;
    g.y0_um = 0.0;
    const AveragedMedium mr = average_medium(pr, g, Component::Ex, true, false);
    const AveragedMedium mv = average_medium(pv, g, Component::Ex, true, false);
    const Coverage cov = compute_coverage(pv, g, false);
    int n = 0;
    double worst_r = 0, worst_v = 0;
    for (int j = 3; j < g.ny - 3; ++j)
        for (int i = 3; i < g.nx - 3; ++i) {
            const std::size_t k = std::size_t(j) * g.nx + i;
            const double f = cov.fraction[1][k];
            if (f < 0.05 || f > 0.95) continue;
            const double a = f / 12 + (1 - f), b = 1.0 / (12 * f + (1 - f));
            const double expect = nxv * nyv * (a - b);
            worst_v = std::max(worst_v, std::abs(mv.inv_eps_offdiag[k] - expect) / (a - b));
            worst_r = std::max(worst_r, std::abs(mr.inv_eps_offdiag[k] - expect) / (a - b));
            ++n;
        }
    std::printf("[subpixel] 30-degree half-plane, %d cut samples: worst off-diagonal deviation %.1e (a - b) drawn, "
                "%.3f painted\n", n, worst_v, worst_r);
    CHECK(n > 30);
    CHECK(worst_v < 1e-4);  // exact normals of a straight edge
    // coverage gradient of the painted edge: windows whose neighbours saturate (f near 0
    // or 1) see it tilted (measured 0.13 (a - b)), the reason vector shapes use exact normals
    CHECK(worst_r < 0.2);
}

// Long-run stability of the symmetrized tensor coupling: an eps = 12 disc in a PEC box,
// random initial Ex, Ey, Hz, float64, 2e4 steps at Courant 0.5. Leapfrog with E = K D and K
// symmetric positive definite conserves a discrete energy; an indefinite or unsymmetric K
// lets high-frequency modes grow exponentially (they would show within a few thousand
// steps from random fields). Checked: the field energy stays below 3x its initial value
// over the whole run (it oscillates, as E^n and H^{n+1/2} are staggered), and its late
// maximum does not exceed the early maximum by more than 5 %.
TEST_CASE("TEz sub-pixel tensor: energy stays bounded over 2e4 steps (eps 12 disc)", "[physics][subpixel]") {
    DiscSetup d;
    d.box_um = 1.4;
    d.centre = {0.7123, 0.6829};
    for (double cells_per_radius : {4.3, 9.7}) {
        const CompiledProject cp = tez_disc_scene(d, d.radius_um / cells_per_radius, true);
        const Scene& s = cp.scene;
        REQUIRE(s.is_anisotropic());
        for (const std::string& w : cp.warnings) CHECK(w.find("damped") == std::string::npos);
        std::printf("[subpixel] R/dx = %.1f: %zu Ex + %zu Ey anisotropic sites\n", cells_per_radius,
                    s.anisotropic.cells[0].size(), s.anisotropic.cells[1].size());
        auto e = make_cpu_engine(s, Precision::Float64, 1);
        std::uint64_t state = 12345;
        auto rnd = [&] {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return double(state >> 11) / double(1ULL << 53) * 2 - 1;
        };
        for (Component c : {Component::Ex, Component::Ey, Component::Hz}) {
            std::vector<double> v(s.cells());
            for (double& x : v) x = rnd();
            e->set_field(c, v);
        }
        const double e0 = e->field_energy();
        double early = 0, late = 0, peak = 0;
        const int chunks = 200, per = 100;  // 2e4 steps
        for (int k = 0; k < chunks; ++k) {
            e->step(per);
            const double en = e->field_energy();
            REQUIRE(std::isfinite(en));
            peak = std::max(peak, en);
            if (k < 20) early = std::max(early, en);
            if (k >= chunks - 20) late = std::max(late, en);
        }
        std::printf("[subpixel] energy over 2e4 steps: initial %.4e, early max %.4e, late max %.4e, peak %.4e\n", e0,
                    early, late, peak);
        CHECK(peak < 3 * e0);
        CHECK(late <= 1.05 * early);
    }
}

// The check above can fail: the same disc with its couplings scaled by 12 (K no longer
// positive definite) blows up within 2e4 steps.
TEST_CASE("TEz sub-pixel tensor: an indefinite coupling is caught by the energy check", "[physics][subpixel]") {
    DiscSetup d;
    d.box_um = 1.4;
    d.centre = {0.7123, 0.6829};
    CompiledProject cp = tez_disc_scene(d, d.radius_um / 4.3, true);
    for (double scale : {12.0}) {
        Scene s = cp.scene;
        for (int c = 0; c < 2; ++c)
            for (double& w : s.anisotropic.weight[c]) w *= scale;
        auto e = make_cpu_engine(s, Precision::Float64, 1);
        std::vector<double> v(s.cells());
        for (std::size_t k = 0; k < v.size(); ++k) v[k] = std::sin(0.7 * double(k)) + std::cos(1.3 * double(k * k % 97));
        e->set_field(Component::Ex, v);
        e->set_field(Component::Hz, v);
        const double e0 = e->field_energy();
        e->step(20000);
        const double e1 = e->field_energy();
        std::printf("[subpixel] couplings x%.0f: energy %.3e -> %.3e after 2e4 steps\n", scale, e0, e1);
        CHECK(!(e1 < 3 * e0));  // grows (or overflows to inf / nan)
    }
}

// The lowest TEz mode with an Hz monopole (E azimuthal, Hz probe) of an eps = 12 disc of
// radius R = 0.5 um in a 1.4 x 1.4 um PEC box, as the TMz case above. Here E lies in the
// plane, normal to the staircase's steps wherever the circle is oblique to the grid: a
// staircased band is a laminate with the wrong effective permittivity at O(h) (first
// order), while the full Farjadpour tensor (off-diagonal coupling, scene.hpp "Anisotropic
// cells") gives second order. (With the diagonal entries only, the dropped off-diagonal
// term is O(1) in an O(h) band: first order again.)
TEST_CASE("sub-pixel tensor converges at second order, staircasing at first order (TEz disc)", "[physics][subpixel][slow]") {
    const auto t0 = std::chrono::steady_clock::now();
    const double periods = 24;
    const char* env_c = std::getenv("GOLIGHTLY_SUBPIXEL_CENTRES");
    const int n_centres = env_c ? std::atoi(env_c) : 3;
    std::vector<Vec2> centres = {{0.7123, 0.6829}, {0.6712, 0.7234}, {0.7277, 0.7061}, {0.6934, 0.6688}};
    centres.resize(std::min<std::size_t>(centres.size(), std::size_t(n_centres)));
    DiscSetup d;
    d.box_um = 1.4;
    const double cells_per_radius_per_m = d.radius_um / d.box_um;
    std::vector<double> n_avg, e_avg, n_st, e_st, e_diag;
    for (const Vec2& c : centres) {
        d.centre = c;
        double dt;
        double lambda = 3.0;
        const double fg = units::c0 / (lambda * units::um);
        const auto x48 = run_disc(d, d.box_um / 48, lambda, true, periods, dt, Polarization::TEz);
        const double f_mode = find_peak(x48, dt, 0.4 * fg, 1.6 * fg, 2000);
        REQUIRE(f_mode > 0);
        lambda = units::c0 / f_mode / units::um;
        auto frequency = [&](int m, bool sub, bool diagonal_only = false) {
            const auto x = run_disc(d, d.box_um / m, lambda, sub, periods, dt, Polarization::TEz, diagonal_only);
            const double f = find_peak(x, dt, 0.85 * f_mode, 1.15 * f_mode, 400);
            REQUIRE(f > 0);
            return f;
        };
        // Reference: the Yee grid's own dispersion error, O(h^2) and negative, is ~5e-4 at
        // these resolutions (lambda in the disc ~ 1.1 um, 40+ cells), far above what the
        // TMz references show: so the references are Richardson-extrapolated, a least-
        // squares fit f = f0 + C h^2 over three fine averaged grids, whose residual is
        // checked.
        std::vector<double> f_ref, h2;
        for (int m : {56, 64, 72}) {
            f_ref.push_back(frequency(m, true));
            h2.push_back(std::pow(1.0 / m, 2));
        }
        double mh = 0, mf = 0;
        for (int k = 0; k < 3; ++k) mh += h2[k] / 3, mf += f_ref[k] / 3;
        double shh = 0, shf = 0;
        for (int k = 0; k < 3; ++k) shh += (h2[k] - mh) * (h2[k] - mh), shf += (h2[k] - mh) * (f_ref[k] - mf);
        const double slope = shf / shh, f0 = mf - slope * mh;
        double resid = 0;
        for (int k = 0; k < 3; ++k) resid = std::max(resid, std::abs(f_ref[k] - f0 - slope * h2[k]) / f0);
        const double spread =
            (*std::max_element(f_ref.begin(), f_ref.end()) - *std::min_element(f_ref.begin(), f_ref.end())) / f0;
        std::printf("[subpixel-te] centre (%.4f, %.4f): lambda0 = %.4f um, reference f0 = %.9e Hz (fine grids "
                    "spread %.1e, extrapolation %.1e, fit residual %.1e)\n",
                    c.x, c.y, lambda, f0, spread, (f_ref[2] - f0) / f0, resid);
        CHECK(resid < 5e-5);
        for (int m = 11; m <= 45; m += (m < 30 ? 1 : 2)) {
            const double n = m * cells_per_radius_per_m;
            char avg[32] = "-";
            char diag[32] = "-";
            if (n <= 8.01) {
                n_avg.push_back(n);
                e_avg.push_back((frequency(m, true) - f0) / f0);
                e_diag.push_back((frequency(m, true, true) - f0) / f0);
                std::snprintf(avg, sizeof avg, "%+.2e", e_avg.back());
                std::snprintf(diag, sizeof diag, "%+.2e", e_diag.back());
            }
            if (n < 4) continue;
            n_st.push_back(n);
            e_st.push_back((frequency(m, false) - f0) / f0);
            std::printf("[subpixel-te]   R/dx = %5.2f: relative error tensor %9s, diagonal only %9s, staircase %+.2e\n",
                        n, avg, diag, e_st.back());
        }
    }
    const auto env_avg = envelope(n_avg, e_avg, {3.9, 5, 6, 7, 8.01}, d.radius_um);
    const auto env_diag = envelope(n_avg, e_diag, {3.9, 5, 6, 7, 8.01}, d.radius_um);
    const auto env_st = envelope(n_st, e_st, {3.9, 5, 6.5, 8.5, 11, 13.5, 16.2}, d.radius_um);
    const double p_avg = envelope_order(env_avg), p_st = envelope_order(env_st), p_diag = envelope_order(env_diag);
    for (const auto& [h, e] : env_diag) std::printf("[subpixel-te] diagonal-only envelope: h = %.4f um, max |error| %.2e\n", h, e);
    for (const auto& [h, e] : env_avg) std::printf("[subpixel-te] averaged envelope: h = %.4f um, max |error| %.2e\n", h, e);
    for (const auto& [h, e] : env_st) std::printf("[subpixel-te] staircase envelope: h = %.4f um, max |error| %.2e\n", h, e);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("[subpixel-te] fitted orders (envelope, %zu centres): tensor %.2f (R/dx 4..8), diagonal only %.2f, "
                "staircase %.2f (R/dx 4..16); %.1f s\n",
                centres.size(), p_avg, p_diag, p_st, secs);
    CHECK(p_avg >= 1.8);
    CHECK(p_st <= 1.3);
    CHECK(p_diag <= 1.3);  // the off-diagonal coupling is what buys the second order
}
