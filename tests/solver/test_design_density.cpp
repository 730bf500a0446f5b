// Design densities (golightly/design_density.hpp, issue 53 item 3): filters and their exact
// transposes, the tanh projection, the minimum length scale constraints, the morphological
// check and the contours of a binarized design.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "golightly/design_density.hpp"

using namespace golightly::design;

namespace {

std::vector<double> random_vector(std::size_t n, unsigned seed, double lo = 0.0, double hi = 1.0) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (double& x : v) x = u(gen);
    return v;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

double norm(const std::vector<double>& a) { return std::sqrt(dot(a, a)); }

DensityGrid make_grid(int nx, int ny, int nz, double dx_um, std::vector<double> rho) {
    DensityGrid g;
    g.nx = nx;
    g.ny = ny;
    g.nz = nz;
    g.dx_um = dx_um;
    g.rho = std::move(rho);
    return g;
}

}  // namespace

TEST_CASE("design density filters are exact transposes of their adjoints", "[design]") {
    struct Case {
        int nx, ny, nz;
        FilterKind kind;
        double radius_um;
    };
    // 2D and 3D, both kernels, radii reaching across the edges (clamped offsets).
    const Case cases[] = {
        {23, 17, 1, FilterKind::Conic, 0.055},
        {23, 17, 1, FilterKind::Gaussian, 0.03},
        {9, 8, 7, FilterKind::Conic, 0.035},
        {9, 8, 7, FilterKind::Gaussian, 0.015},
        {30, 1, 1, FilterKind::Conic, 0.1},
    };
    unsigned seed = 1;
    for (const Case& c : cases) {
        const std::size_t n = static_cast<std::size_t>(c.nx) * c.ny * c.nz;
        DensityGrid g = make_grid(c.nx, c.ny, c.nz, 0.01, random_vector(n, seed++));
        const std::vector<double> y = random_vector(n, seed++, -1.0, 1.0);
        const std::vector<double> ax = filter(g, c.kind, c.radius_um);
        const std::vector<double> aty = filter_adjoint(g, c.kind, c.radius_um, y);
        REQUIRE(ax.size() == n);
        REQUIRE(aty.size() == n);
        // <A x, y> = <x, A^T y>: the two sums differ by round-off only (each term below 1).
        const double lhs = dot(ax, y), rhs = dot(g.rho, aty);
        INFO("grid " << c.nx << "x" << c.ny << "x" << c.nz << " lhs " << lhs << " rhs " << rhs);
        CHECK(std::abs(lhs - rhs) <= 1e-12 * norm(ax) * norm(y));
        CHECK(std::abs(lhs - rhs) <= 1e-12);
    }
}

TEST_CASE("design density filters keep a uniform density and have the stated kernels", "[design]") {
    for (FilterKind kind : {FilterKind::Conic, FilterKind::Gaussian}) {
        // Uniform in, uniform out (normalized weights, edge replication).
        DensityGrid u = make_grid(12, 10, 1, 0.02, std::vector<double>(120, 0.37));
        for (double v : filter(u, kind, 0.07)) CHECK(std::abs(v - 0.37) < 1e-14);
        DensityGrid u3 = make_grid(6, 5, 4, 0.02, std::vector<double>(120, 0.81));
        for (double v : filter(u3, kind, 0.05)) CHECK(std::abs(v - 0.81) < 1e-14);
    }
    // An impulse far from the edges: the filtered density is the normalized kernel, so it
    // sums to 1 and its ratios are those of w(r).
    const int n = 41, c = 20;
    const double dx = 0.01;
    std::vector<double> rho(n * n, 0.0);
    rho[c * n + c] = 1.0;
    DensityGrid g = make_grid(n, n, 1, dx, rho);
    const double R = 0.083, sigma = 0.04;
    const std::vector<double> cone = filter(g, FilterKind::Conic, R);
    const std::vector<double> gauss = filter(g, FilterKind::Gaussian, sigma);
    double sc = 0, sg = 0;
    for (int p = 0; p < n * n; ++p) {
        sc += cone[p];
        sg += gauss[p];
    }
    CHECK(std::abs(sc - 1.0) < 1e-13);
    CHECK(std::abs(sg - 1.0) < 1e-13);
    const double w0 = cone[c * n + c];
    CHECK(cone[c * n + c + 3] / w0 == Approx(1.0 - 3 * dx / R).epsilon(1e-13));
    CHECK(cone[(c + 3) * n + c + 4] / w0 == Approx(1.0 - 5 * dx / R).epsilon(1e-13));
    CHECK(cone[c * n + c + 9] == 0.0);  // r = 0.09 um > R
    const double g0 = gauss[c * n + c];
    CHECK(gauss[(c + 2) * n + c + 1] / g0 == Approx(std::exp(-5 * dx * dx / (sigma * sigma))).epsilon(1e-13));
    CHECK(gauss[c * n + c + 12] > 0.0);   // r = 3 sigma: inside the truncation
    CHECK(gauss[c * n + c + 13] == 0.0);  // beyond 3 sigma
    CHECK(gauss[(c + 12) * n + c + 12] > 0.0);  // the box's corner: truncated per axis
    // The same impulse extruded along z (a 3D grid uniform along z): every layer is the 3D
    // kernel summed over dz, which again sums to 1 (normalization with edge replication).
    std::vector<double> rho3(n * n * 3);
    for (int k = 0; k < 3; ++k)
        for (int p = 0; p < n * n; ++p) rho3[k * n * n + p] = rho[p];
    DensityGrid g3 = make_grid(n, n, 3, dx, rho3);
    const std::vector<double> cone3 = filter(g3, FilterKind::Conic, R);
    double s3 = 0;
    for (int p = 0; p < n * n; ++p) s3 += cone3[n * n + p];
    CHECK(std::abs(s3 - 1.0) < 1e-13);
}

TEST_CASE("design density filters refuse bad input naming the field", "[design]") {
    DensityGrid g = make_grid(4, 4, 1, 0.01, std::vector<double>(15, 0.5));
    CHECK_THROWS_WITH(filter(g, FilterKind::Conic, 0.02), Catch::Contains("rho"));
    g.rho.push_back(0.5);
    CHECK_THROWS_WITH(filter(g, FilterKind::Conic, -1.0), Catch::Contains("filter radius"));
    CHECK_THROWS_WITH(filter(g, FilterKind::Gaussian, 0.0), Catch::Contains("filter sigma"));
    CHECK_THROWS_WITH(filter_adjoint(g, FilterKind::Conic, 0.02, std::vector<double>(3)),
                      Catch::Contains("dF_dfiltered"));
    g.dx_um = 0;
    CHECK_THROWS_WITH(filter(g, FilterKind::Conic, 0.02), Catch::Contains("dx_um"));
    g.dx_um = 0.01;
    g.rho[2] = std::nan("");
    CHECK_THROWS_WITH(filter(g, FilterKind::Conic, 0.02), Catch::Contains("not finite"));
}

TEST_CASE("tanh projection derivative matches central differences", "[design]") {
    // Near the threshold, where P varies: x = eta + t / beta. The central difference with
    // h = 2e-4 / beta has a truncation error of (h beta)^2 P''' / (6 beta^2 P') ~ 1e-8
    // relative and a round-off error below 1e-10 relative there.
    for (double beta : {1.0, 8.0, 64.0, 256.0, 4096.0})
        for (double eta : {0.3, 0.5, 0.75})
            for (double t : {-3.0, -1.3, -0.2, 0.0, 0.4, 1.7, 3.0}) {
                const double x = eta + t / beta;
                const double h = 2e-4 / beta;
                const double fd = (project_tanh(x + h, beta, eta) - project_tanh(x - h, beta, eta)) / (2 * h);
                const double d = project_tanh_derivative(x, beta, eta);
                INFO("beta " << beta << " eta " << eta << " x " << x);
                CHECK(std::abs(fd - d) <= 1e-6 * std::abs(d));
            }
    // At a small beta the whole of [0, 1] (and beyond) is smooth.
    for (double x = -0.2; x <= 1.2; x += 0.1) {
        const double h = 1e-4;
        const double fd = (project_tanh(x + h, 2.0, 0.4) - project_tanh(x - h, 2.0, 0.4)) / (2 * h);
        CHECK(std::abs(fd - project_tanh_derivative(x, 2.0, 0.4)) <= 1e-6 * std::abs(fd));
    }
    // The vector form and its adjoint: elementwise, as the scalar ones.
    const std::vector<double> x = random_vector(50, 7);
    const std::vector<double> g = random_vector(50, 8, -1, 1);
    const std::vector<double> px = project_tanh(x, 16.0, 0.5);
    const std::vector<double> ax = project_tanh_adjoint(x, 16.0, 0.5, g);
    for (std::size_t p = 0; p < x.size(); ++p) {
        CHECK(px[p] == project_tanh(x[p], 16.0, 0.5));
        CHECK(ax[p] == g[p] * project_tanh_derivative(x[p], 16.0, 0.5));
    }
    CHECK_THROWS_WITH(project_tanh_adjoint(x, 16.0, 0.5, std::vector<double>(3)), Catch::Contains("dF_dprojected"));
}

TEST_CASE("the filter then projection chain matches finite differences", "[design]") {
    // F = sum_p a_p rho^_p^2 with random a: dF/drho^ = 2 a rho^, chained back to rho.
    for (int variant = 0; variant < 3; ++variant) {
        const FilterKind kind = variant == 1 ? FilterKind::Gaussian : FilterKind::Conic;
        const DensityGrid grid = make_grid(15, 11, 1, 0.02, random_vector(165, 40));
        DesignMapping m;
        m.kind = kind;
        m.radius_um = kind == FilterKind::Conic ? 0.07 : 0.03;
        m.beta = 16;
        m.smoothed = variant == 2;
        const std::vector<double> a = random_vector(165, 41, -1, 1);
        auto F = [&](const DensityGrid& d) {
            const std::vector<double> p = map_density(d, m);
            double s = 0;
            for (std::size_t q = 0; q < p.size(); ++q) s += a[q] * p[q] * p[q];
            return s;
        };
        const std::vector<double> p = map_density(grid, m);
        std::vector<double> dF(p.size());
        for (std::size_t q = 0; q < p.size(); ++q) dF[q] = 2 * a[q] * p[q];
        const std::vector<double> grad = map_density_adjoint(grid, m, dF);
        const std::vector<double> v = random_vector(165, 42, -1, 1);
        DensityGrid plus = grid, minus = grid;
        const double h = 1e-6;
        for (std::size_t q = 0; q < v.size(); ++q) {
            plus.rho[q] += h * v[q];
            minus.rho[q] -= h * v[q];
        }
        const double fd = (F(plus) - F(minus)) / (2 * h), analytic = dot(grad, v);
        INFO("variant " << variant << " fd " << fd << " analytic " << analytic);
        CHECK(std::abs(fd - analytic) <= 1e-6 * std::abs(analytic));
    }
    // radius 0: no filter.
    const DensityGrid grid = make_grid(4, 3, 1, 0.1, random_vector(12, 43));
    DesignMapping none;
    none.beta = 0;
    CHECK(map_density(grid, none) == grid.rho);
    CHECK(map_density_adjoint(grid, none, grid.rho) == grid.rho);
}

TEST_CASE("smoothed projection gradient matches finite differences up to beta infinity", "[design]") {
    const double inf = std::numeric_limits<double>::infinity();
    // A smooth filtered field (a random density through a conic filter of 4 cells), 2D and 3D.
    for (int dim : {2, 3}) {
        const int nx = dim == 2 ? 30 : 10, ny = dim == 2 ? 24 : 9, nz = dim == 2 ? 1 : 8;
        const std::size_t n = static_cast<std::size_t>(nx) * ny * nz;
        DensityGrid f = make_grid(nx, ny, nz, 0.02, random_vector(n, 60 + dim));
        f.rho = filter(f, FilterKind::Conic, 0.08);
        const std::vector<double> a = random_vector(n, 70 + dim, -1, 1);
        const std::vector<double> v = random_vector(n, 80 + dim, -1, 1);
        for (double beta : {8.0, 64.0, inf}) {
            const std::vector<double> out = project_smoothed(f, beta, 0.5);
            int interface_cells = 0;
            for (double x : out) {
                CHECK(x >= 0.0);
                CHECK(x <= 1.0);
                interface_cells += x > 1e-3 && x < 1 - 1e-3;
            }
            CHECK(interface_cells > 0);
            const std::vector<double> grad = project_smoothed_adjoint(f, beta, 0.5, a);
            auto F = [&](double h) {
                DensityGrid d = f;
                for (std::size_t p = 0; p < n; ++p) d.rho[p] += h * v[p];
                return dot(a, project_smoothed(d, beta, 0.5));
            };
            const double h = 1e-7;
            const double fd = (F(h) - F(-h)) / (2 * h), analytic = dot(grad, v);
            INFO(dim << "D beta " << beta << " fd " << fd << " analytic " << analytic);
            CHECK(std::abs(analytic) > 0.0);
            CHECK(std::abs(fd - analytic) <= 1e-6 * std::abs(analytic));
        }
    }
    // A ramp along x at beta = infinity: binary away from the 1/2 level, the fill fraction
    // F(u) within 0.55 cells of it (F = 1/2 exactly on it), monotone.
    std::vector<double> ramp(41);
    for (int i = 0; i < 41; ++i) ramp[i] = 0.3 + 0.01 * i;  // 1/2 at i = 20
    const DensityGrid r = make_grid(41, 1, 1, 0.01, ramp);
    const std::vector<double> out = project_smoothed(r, inf, 0.5);
    CHECK(out[20] == Approx(0.5).epsilon(1e-12));
    for (int i = 0; i < 41; ++i) {
        if (i < 20) CHECK(out[i] == 0.0);
        if (i > 20) CHECK(out[i] == 1.0);
    }
    // No interface in a cell (a uniform field): the plain tanh projection.
    const DensityGrid u = make_grid(5, 4, 1, 0.01, std::vector<double>(20, 0.43));
    for (double x : project_smoothed(u, 16.0, 0.5)) CHECK(x == project_tanh(0.43, 16.0, 0.5));
}

TEST_CASE("tanh projection limits and the beta schedule", "[design]") {
    const double inf = std::numeric_limits<double>::infinity();
    for (double beta : {0.5, 8.0, 64.0, 1e4})
        for (double eta : {0.0, 0.25, 0.5, 1.0}) {
            CHECK(std::abs(project_tanh(0.0, beta, eta)) < 1e-15);
            CHECK(std::abs(project_tanh(1.0, beta, eta) - 1.0) < 1e-15);
            const double a = std::tanh(beta * eta), b = std::tanh(beta * (1 - eta));
            CHECK(project_tanh(eta, beta, eta) == Approx(a / (a + b)).margin(1e-15));
        }
    // eta = 0.5: P(eta) = 1/2 by symmetry, and P(1 - x) = 1 - P(x).
    CHECK(project_tanh(0.5, 32.0, 0.5) == Approx(0.5).epsilon(1e-15));
    CHECK(project_tanh(0.3, 5.0, 0.5) == Approx(1.0 - project_tanh(0.7, 5.0, 0.5)).epsilon(1e-14));
    // beta = 0: the identity; beta -> infinity: the step.
    CHECK(project_tanh(0.37, 0.0, 0.5) == 0.37);
    CHECK(project_tanh_derivative(0.37, 0.0, 0.5) == 1.0);
    CHECK(project_tanh(0.6, 1e4, 0.5) == Approx(1.0).margin(1e-15));
    CHECK(project_tanh(0.4, 1e4, 0.5) == Approx(0.0).margin(1e-15));
    CHECK(project_tanh(0.5, inf, 0.5) == 0.0);
    CHECK(project_tanh(0.5 + 1e-12, inf, 0.5) == 1.0);
    CHECK(project_tanh(0.0, inf, 0.5) == 0.0);
    CHECK(project_tanh(1.0, inf, 0.5) == 1.0);
    for (double x : {0.0, 0.2, 0.5, 0.9, 1.0}) CHECK(project_tanh_derivative(x, inf, 0.5) == 0.0);
    CHECK(project_tanh_derivative(0.9, 1e4, 0.5) == 0.0);  // sech^2 underflows, no NaN
    CHECK_THROWS_WITH(project_tanh(0.5, -1.0, 0.5), Catch::Contains("beta"));
    CHECK_THROWS_WITH(project_tanh(0.5, 8.0, 1.5), Catch::Contains("eta"));

    // beta0 = 8 doubled every 25 iterations up to 256.
    CHECK(beta_schedule(0, 8, 256, 25) == 8);
    CHECK(beta_schedule(24, 8, 256, 25) == 8);
    CHECK(beta_schedule(25, 8, 256, 25) == 16);
    CHECK(beta_schedule(124, 8, 256, 25) == 128);
    CHECK(beta_schedule(125, 8, 256, 25) == 256);
    CHECK(beta_schedule(100000, 8, 256, 25) == 256);
    CHECK(beta_schedule(60, 4, 1000, 20, 1.5) == Approx(4 * 1.5 * 1.5 * 1.5).epsilon(1e-15));
    CHECK(beta_schedule(100000, 8, inf, 25) == inf);  // grows past every finite value
    CHECK(beta_schedule(250, 8, inf, 25) == 8 * 1024);
    CHECK_THROWS_WITH(beta_schedule(-1, 8, 256, 25), Catch::Contains("iteration"));
    CHECK_THROWS_WITH(beta_schedule(0, 8, 256, 0), Catch::Contains("interval"));
    CHECK_THROWS_WITH(beta_schedule(0, 8, 4, 10), Catch::Contains("beta_max"));
}

namespace {

/// The directional derivative of a constraint along `v` by central differences.
template <class F>
double central_difference(F g, DensityGrid grid, const std::vector<double>& v, double h) {
    const std::vector<double> rho = grid.rho;
    for (std::size_t p = 0; p < rho.size(); ++p) grid.rho[p] = rho[p] + h * v[p];
    const double plus = g(grid).value;
    for (std::size_t p = 0; p < rho.size(); ++p) grid.rho[p] = rho[p] - h * v[p];
    const double minus = g(grid).value;
    return (plus - minus) / (2 * h);
}

/// A density grid with a solid line of `width` cells along y, centered in x, in void.
DensityGrid line_design(int nx, int ny, double dx, int width) {
    std::vector<double> rho(static_cast<std::size_t>(nx) * ny, 0.0);
    const int i0 = (nx - width) / 2;
    for (int j = 0; j < ny; ++j)
        for (int i = i0; i < i0 + width; ++i) rho[static_cast<std::size_t>(j) * nx + i] = 1.0;
    return make_grid(nx, ny, 1, dx, rho);
}

}  // namespace

TEST_CASE("length scale constraint gradients match finite differences", "[design]") {
    struct Case {
        int nx, ny, nz;
        FilterKind kind;
        double radius_um, beta, c_um2;
    };
    const Case cases[] = {
        {24, 20, 1, FilterKind::Conic, 0.07, 8.0, 0.05},
        {24, 20, 1, FilterKind::Gaussian, 0.03, 32.0, 0.02},
        {9, 8, 7, FilterKind::Conic, 0.05, 8.0, 0.05},
    };
    unsigned seed = 100;
    for (const Case& c : cases) {
        const std::size_t n = static_cast<std::size_t>(c.nx) * c.ny * c.nz;
        const DensityGrid grid = make_grid(c.nx, c.ny, c.nz, 0.02, random_vector(n, seed++));
        LengthScaleConstraint params;
        params.kind = c.kind;
        params.radius_um = c.radius_um;
        params.beta = c.beta;
        params.c_um2 = c.c_um2;
        const std::vector<double> v = random_vector(n, seed++, -1.0, 1.0);
        for (bool solid : {true, false}) {
            auto g = [&](const DensityGrid& d) { return solid ? constraint_solid(d, params) : constraint_void(d, params); };
            const ConstraintValue at = g(grid);
            REQUIRE(at.gradient.size() == n);
            const double analytic = dot(at.gradient, v);
            const double fd = central_difference(g, grid, v, 1e-6);
            INFO("solid " << solid << " value " << at.value << " analytic " << analytic << " fd " << fd);
            CHECK(at.value > 1e-3);  // every term contributes: the test sees the whole chain
            CHECK(std::abs(fd - analytic) <= 1e-4 * std::abs(analytic));
        }
    }
}

TEST_CASE("length scale constraint flags a line narrower than the length scale", "[design]") {
    // Length scale b = 150 nm at eta_e = 0.75: the conic radius R = b / (2 - 2 sqrt(1/4)) =
    // 150 nm. A solid line of width w in void has its filtered middle (where the gradient
    // vanishes) at about eta_e_from_conic(w, R): below eta_e for w < b. The decay rate c must
    // silence the edges, whose filtered slope is about 3 / (pi R) = 6.4 / um (the marginal of
    // the 2D cone at its center): c = 1 um^2 gives exp(-c |grad|^2) ~ exp(-41) there.
    const double dx = 0.01, b = 0.15, eta_e = 0.75, tolerance = 1e-8;  // Meep examples' tolerance
    LengthScaleConstraint params;
    params.radius_um = conic_radius_from_eta_e(b, eta_e);
    CHECK(params.radius_um == Approx(0.15).epsilon(1e-15));
    params.eta_e = eta_e;
    params.eta_d = 1 - eta_e;
    params.beta = 64;
    params.c_um2 = 1.0;
    for (int w : {9, 13, 17, 25}) {  // 90, 130 nm violate; 170, 250 nm satisfy
        const DensityGrid line = line_design(81, 10, dx, w);
        const double gs = constraint_solid(line, params).value;
        const double gv_line = constraint_void(line, params).value;
        // The complementary design (a gap of w between two solids): eta_i = 1/2 and
        // eta_d = 1 - eta_e make its void constraint the line's solid one.
        DensityGrid gap = line;
        for (double& r : gap.rho) r = 1.0 - r;
        const double gv = constraint_void(gap, params).value;
        INFO("w " << w * dx << " um: g_s " << gs << ", g_v(gap) " << gv << ", g_v(line) " << gv_line);
        CHECK(gv == Approx(gs).epsilon(1e-12).margin(1e-30));
        if (w * dx < b) {
            CHECK(gs > 100 * tolerance);
        } else {
            CHECK(gs < tolerance);
            CHECK(gv_line < tolerance);  // the void around the line is wide as well
        }
    }
}

TEST_CASE("conic radius and eroded threshold are inverse", "[design]") {
    for (double eta_e : {0.55, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0}) {
        const double r = conic_radius_from_eta_e(0.08, eta_e);
        CHECK(eta_e_from_conic(0.08, r) == Approx(eta_e).epsilon(1e-14));
    }
    CHECK(conic_radius_from_eta_e(0.1, 0.75) == Approx(0.1).epsilon(1e-15));
    CHECK(conic_radius_from_eta_e(0.1, 1.0) == Approx(0.05).epsilon(1e-15));
    CHECK(eta_e_from_conic(0.0, 0.1) == 0.5);
    CHECK(eta_e_from_conic(0.3, 0.1) == 1.0);
    CHECK_THROWS_WITH(conic_radius_from_eta_e(0.1, 0.5), Catch::Contains("eta_e"));
    CHECK_THROWS_WITH(conic_radius_from_eta_e(-0.1, 0.7), Catch::Contains("length scale"));
    LengthScaleConstraint bad;
    bad.radius_um = 0.05;
    bad.c_um2 = -1;
    DensityGrid g = make_grid(4, 4, 1, 0.01, std::vector<double>(16, 0.5));
    CHECK_THROWS_WITH(constraint_solid(g, bad), Catch::Contains("c_um2"));
    bad.c_um2 = 1;
    bad.eta_e = 2;
    CHECK_THROWS_WITH(constraint_solid(g, bad), Catch::Contains("eta_e"));
}

TEST_CASE("morphological length scale check of binarized designs", "[design]") {
    const double dx = 0.01, inf = std::numeric_limits<double>::infinity();
    // A 100 nm line (10 cells) in void: fails 150 nm, passes 80 nm; exactly 100 nm.
    const DensityGrid line = line_design(60, 20, dx, 10);
    CHECK(solid_passes_length_scale(line, 0.08));
    CHECK(solid_passes_length_scale(line, 0.10));
    CHECK_FALSE(solid_passes_length_scale(line, 0.11));
    CHECK_FALSE(solid_passes_length_scale(line, 0.15));
    CHECK(void_passes_length_scale(line, 0.15));  // the void continues beyond the edges
    CHECK(minimum_solid_feature_um(line) == Approx(0.10).epsilon(1e-12));
    CHECK(minimum_void_feature_um(line, 0.3) == inf);  // searched up to 300 nm only
    CHECK(minimum_feature_um(line, 0.3) == Approx(0.10).epsilon(1e-12));
    CHECK(minimum_solid_feature_um(line, 0.08) == inf);  // passes all it was asked
    // The complement, a 100 nm gap between solids: the same numbers for the void.
    DensityGrid gap = line_design(60, 20, dx, 6);
    for (double& r : gap.rho) r = 1.0 - r;
    CHECK(void_passes_length_scale(gap, 0.06));
    CHECK_FALSE(void_passes_length_scale(gap, 0.07));
    CHECK(minimum_void_feature_um(gap) == Approx(0.06).epsilon(1e-12));
    CHECK(minimum_solid_feature_um(gap, 0.3) == inf);
    CHECK(minimum_feature_um(gap, 0.3) == Approx(0.06).epsilon(1e-12));
    // Gray values are binarized at 1/2.
    DensityGrid gray = line;
    for (double& r : gray.rho) r = r > 0.5 ? 0.62 : 0.31;
    CHECK(minimum_solid_feature_um(gray) == Approx(0.10).epsilon(1e-12));

    // A digital disc of diameter 15 cells (cell centers within 7.5 cells of its center) is
    // open with respect to itself and to nothing larger.
    const int n = 41, c = 20;
    std::vector<double> rho(n * n, 0.0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            if ((i - c) * (i - c) + (j - c) * (j - c) <= 7.5 * 7.5) rho[j * n + i] = 1.0;
    const DensityGrid dot_design = make_grid(n, n, 1, dx, rho);
    CHECK(solid_passes_length_scale(dot_design, 0.15));
    CHECK_FALSE(solid_passes_length_scale(dot_design, 0.16));

    // A 3-cell strip along the right edge continues beyond it (edge replication): it passes
    // any length scale, as the half-plane it stands for.
    std::vector<double> strip(30 * 10, 0.0);
    for (int j = 0; j < 10; ++j)
        for (int i = 27; i < 30; ++i) strip[j * 30 + i] = 1.0;
    const DensityGrid edge_strip = make_grid(30, 10, 1, dx, strip);
    CHECK(solid_passes_length_scale(edge_strip, 0.09));
    CHECK(minimum_solid_feature_um(edge_strip) == inf);

    // 3D: a slab 6 cells thick along z passes 6 cells and fails 7 (a ball then).
    std::vector<double> slab(8 * 8 * 16, 0.0);
    for (int k = 5; k < 11; ++k)
        for (int p = 0; p < 64; ++p) slab[k * 64 + p] = 1.0;
    const DensityGrid slab3 = make_grid(8, 8, 16, 0.02, slab);
    CHECK(solid_passes_length_scale(slab3, 0.12));
    CHECK_FALSE(solid_passes_length_scale(slab3, 0.14));
    CHECK(minimum_solid_feature_um(slab3) == Approx(0.12).epsilon(1e-12));
    CHECK(minimum_void_feature_um(slab3) == inf);

    CHECK_THROWS_WITH(solid_passes_length_scale(line, 0.0), Catch::Contains("length scale"));
}

TEST_CASE("imageruler length scale of binarized 2D designs (Chen et al. 2024)", "[design]") {
    const double dx = 0.01;
    // A vertical line of w cells running off the top and bottom: the solid measures w (no
    // brush wider than the line fits in it), the void continues beyond the grid (outside
    // counts as the phase measured) and measures the grid's largest dimension.
    for (int w : {1, 3, 6, 10}) {
        INFO("line of " << w << " cells");
        const MeasuredLengthScale m = measure_length_scale(line_design(60, 40, dx, w));
        CHECK(m.solid_um == Approx(w * dx).epsilon(1e-12));
        CHECK(m.void_um == Approx(60 * dx).epsilon(1e-12));
        CHECK(m.min_um() == Approx(w * dx).epsilon(1e-12));
    }
    // Its complement: a gap of w cells between two solids.
    for (int w : {2, 7}) {
        DensityGrid gap = line_design(60, 40, dx, w);
        for (double& r : gap.rho) r = 1.0 - r;
        const MeasuredLengthScale m = measure_length_scale(gap);
        CHECK(m.void_um == Approx(w * dx).epsilon(1e-12));
        CHECK(m.solid_um == Approx(60 * dx).epsilon(1e-12));
    }
    // A pixelated disc of diameter d (cell centers strictly within d / 2 of its center) is
    // the brush of that size: it measures exactly d, although the strict opening test fails
    // it for every larger disc and counts its stair steps.
    for (int d : {5, 8, 15}) {
        INFO("disc of " << d << " cells");
        const int n = 41;
        std::vector<double> rho(n * n, 0.0);
        const double c = d % 2 ? 20.0 : 19.5;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                if ((i - c) * (i - c) + (j - c) * (j - c) < 0.25 * d * d) rho[j * n + i] = 1.0;
        CHECK(measure_length_scale(make_grid(n, n, 1, dx, rho)).solid_um == Approx(d * dx).epsilon(1e-12));
    }
    // Gray values are binarized at 1/2; a thin spur on a wide feature is not ignored as an
    // edge step: a 20-cell line with a 2-cell tooth measures 2.
    DensityGrid tooth = line_design(60, 40, dx, 20);
    for (double& r : tooth.rho) r = r > 0.5 ? 0.7 : 0.2;
    for (int j = 18; j < 20; ++j)
        for (int i = 40; i < 48; ++i) tooth.rho[static_cast<std::size_t>(j) * 60 + i] = 0.9;
    CHECK(measure_length_scale(tooth).solid_um == Approx(2 * dx).epsilon(1e-12));
    // 1D: the shortest interior run of each phase.
    const DensityGrid row = make_grid(12, 1, 1, dx, {1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1});
    CHECK(measure_length_scale(row).solid_um == Approx(4 * dx).epsilon(1e-12));
    CHECK(measure_length_scale(row).void_um == Approx(2 * dx).epsilon(1e-12));
    CHECK_THROWS_WITH(measure_length_scale(make_grid(4, 4, 2, dx, std::vector<double>(32, 1.0))),
                      Catch::Contains("2D designs only"));
}

namespace {

/// A density of `n` x `n` cells of dx centered on the origin (lower-left corner at
/// -n dx / 2), with the value f(r) at the cell centers.
template <class F>
DensityGrid radial_design(int n, double dx, F f) {
    std::vector<double> rho(static_cast<std::size_t>(n) * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const double x = (i + 0.5 - 0.5 * n) * dx, y = (j + 0.5 - 0.5 * n) * dx;
            rho[static_cast<std::size_t>(j) * n + i] = f(std::hypot(x, y));
        }
    return make_grid(n, n, 1, dx, rho);
}

/// The sum of a loop's turning angles: +2 pi for a simple counter-clockwise closed loop,
/// -2 pi clockwise; anything else when the loop is not a closed simple curve.
double turning(const ContourLoop& loop) {
    const auto& p = loop.xy_um;
    double total = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const auto& a = p[(i + p.size() - 1) % p.size()];
        const auto& b = p[i];
        const auto& c = p[(i + 1) % p.size()];
        total += std::atan2((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]),
                            (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]));
    }
    return total;
}

/// The longest edge of a loop, the closing one included, um.
double longest_edge(const ContourLoop& loop) {
    const auto& p = loop.xy_um;
    double m = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
        m = std::max(m, std::hypot(p[(i + 1) % p.size()][0] - p[i][0], p[(i + 1) % p.size()][1] - p[i][1]));
    return m;
}

}  // namespace

TEST_CASE("contours of a binarized disc and a ring close with the right area", "[design]") {
    const double pi = std::acos(-1.0), dx = 0.02, r = 0.5;
    // A binary disc: the staircase of cell centers inside r, cut at 45 degrees by the
    // interpolation between 0 and 1; its area differs from pi r^2 by the digitization.
    const DensityGrid disc = radial_design(60, dx, [&](double d) { return d <= r ? 1.0 : 0.0; });
    const std::vector<ContourLoop> loops = density_contours(disc, -0.6, -0.6);
    REQUIRE(loops.size() == 1);
    CHECK_FALSE(loops[0].hole);
    CHECK(turning(loops[0]) == Approx(2 * pi).epsilon(1e-12));
    CHECK(longest_edge(loops[0]) < 0.5 * r);  // the closing edge is one of the loop's own
    CHECK(std::abs(signed_area_um2(loops[0]) - pi * r * r) < 0.02 * pi * r * r);
    double xmax = -1;
    for (const auto& p : loops[0].xy_um) {
        CHECK(std::hypot(p[0], p[1]) < r + dx);  // centered: the origin is honoured
        xmax = std::max(xmax, p[0]);
    }
    CHECK(xmax > r - dx);

    // A smooth density whose 1/2 level is the circle: the loop is a polygon inscribed in it
    // with edges of at most sqrt(2) dx, short by at most pi s^2 / 6 (the segments' area).
    const DensityGrid smooth = radial_design(60, dx, [&](double d) { return std::clamp(0.5 + (r - d) / (4 * dx), 0.0, 1.0); });
    const std::vector<ContourLoop> sl = density_contours(smooth, -0.6, -0.6);
    REQUIRE(sl.size() == 1);
    const double s = std::sqrt(2.0) * dx;
    CHECK(signed_area_um2(sl[0]) <= pi * r * r);
    CHECK(signed_area_um2(sl[0]) >= pi * r * r - pi * s * s / 6);

    // A ring: an outer loop counter-clockwise and a hole clockwise; the solid area is their sum.
    const double r1 = 0.25;
    const DensityGrid ring = radial_design(60, dx, [&](double d) { return d <= r && d >= r1 ? 1.0 : 0.0; });
    const std::vector<ContourLoop> rl = density_contours(ring, -0.6, -0.6);
    REQUIRE(rl.size() == 2);
    int holes = 0;
    double area = 0;
    for (const ContourLoop& l : rl) {
        holes += l.hole;
        CHECK(turning(l) == Approx(l.hole ? -2 * pi : 2 * pi).epsilon(1e-12));
        area += signed_area_um2(l);
    }
    CHECK(holes == 1);
    CHECK(std::abs(area - pi * (r * r - r1 * r1)) < 0.02 * pi * (r * r - r1 * r1));
}

TEST_CASE("contours put vertices at the interpolated crossings in um from the origin", "[design]") {
    // One solid cell (3, 2) of 0.1 um at origin (1, 2): its center (1.35, 2.25); the contour
    // crosses halfway to each neighbour's center, a diamond of area 2 (dx / 2)^2.
    std::vector<double> rho(6 * 5, 0.0);
    rho[2 * 6 + 3] = 1.0;
    const std::vector<ContourLoop> one = density_contours(make_grid(6, 5, 1, 0.1, rho), 1.0, 2.0);
    REQUIRE(one.size() == 1);
    REQUIRE(one[0].xy_um.size() == 4);
    CHECK(signed_area_um2(one[0]) == Approx(0.005).epsilon(1e-12));
    for (const auto& p : one[0].xy_um)
        CHECK(std::abs(p[0] - 1.35) + std::abs(p[1] - 2.25) == Approx(0.05).epsilon(1e-12));
    // Linear interpolation: 0.8 beside 0.2 crosses at (0.8 - 0.5) / (0.8 - 0.2) = 1/2 of the way.
    rho[2 * 6 + 3] = 0.8;
    rho[2 * 6 + 4] = 0.2;
    const std::vector<ContourLoop> two = density_contours(make_grid(6, 5, 1, 0.1, rho), 1.0, 2.0);
    REQUIRE(two.size() == 1);
    double xmax = 0;
    for (const auto& p : two[0].xy_um) xmax = std::max(xmax, p[0]);
    CHECK(xmax == Approx(1.40).epsilon(1e-12));
    // A fully solid region: its rectangle, each corner cut by half a cell's diagonal.
    const std::vector<ContourLoop> full = density_contours(make_grid(7, 4, 1, 0.1, std::vector<double>(28, 1.0)), 0.0, 0.0);
    REQUIRE(full.size() == 1);
    CHECK(full[0].xy_um.size() == 8);  // straight runs merged
    CHECK(signed_area_um2(full[0]) == Approx(0.7 * 0.4 - 4 * 0.5 * 0.05 * 0.05).epsilon(1e-12));
    // Saddle: two diagonal solid cells with a mean of 1/2 are joined into one loop; with a
    // mean below 1/2 they stay apart.
    std::vector<double> sad(4 * 4, 0.0);
    sad[1 * 4 + 1] = 1.0;
    sad[2 * 4 + 2] = 1.0;
    CHECK(density_contours(make_grid(4, 4, 1, 0.1, sad), 0, 0).size() == 1);
    sad[1 * 4 + 1] = 0.9;
    sad[2 * 4 + 2] = 0.9;
    CHECK(density_contours(make_grid(4, 4, 1, 0.1, sad), 0, 0).size() == 2);
    CHECK_THROWS_WITH(density_contours(make_grid(2, 2, 2, 0.1, std::vector<double>(8, 1.0)), 0, 0),
                      Catch::Contains("2D"));
}

TEST_CASE("contours at another level, and solid edge samples bounded on the region's edge", "[design]") {
    // A ramp along x, rho_i = 0.8 i / 9 on 10 x 4 cells of 0.1 um: the level 0.2 lies at
    // i = 2.25, x = (2.25 + 1/2) dx = 0.275 um; the solid (x beyond it) reaches the region's
    // right edge (1.0 um) and its top and bottom (0 and 0.4 um) although its edge samples are
    // 0.8 or less (with a plain 0 beside them the right edge would fall at t = 0.2 / 0.8 of
    // the way from the last center: 0.95 + 0.0375 um)
    std::vector<double> rho(10 * 4);
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 10; ++i) rho[std::size_t(j * 10 + i)] = 0.8 * i / 9.0;
    const std::vector<ContourLoop> loops = density_contours(make_grid(10, 4, 1, 0.1, rho), 0.0, 0.0, 0.2);
    REQUIRE(loops.size() == 1);
    double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
    for (const auto& p : loops[0].xy_um) {
        xmin = std::min(xmin, p[0]), xmax = std::max(xmax, p[0]);
        ymin = std::min(ymin, p[1]), ymax = std::max(ymax, p[1]);
    }
    CHECK(xmin == Approx(0.275).epsilon(1e-12));
    CHECK(xmax == Approx(1.0).epsilon(1e-12));
    CHECK(ymin == Approx(0.0).margin(1e-12));
    CHECK(ymax == Approx(0.4).epsilon(1e-12));
    CHECK_FALSE(loops[0].hole);
    CHECK_THROWS_WITH(density_contours(make_grid(10, 4, 1, 0.1, rho), 0.0, 0.0, 1.0), Catch::Contains("contour level"));
    CHECK_THROWS_WITH(density_contours(make_grid(10, 4, 1, 0.1, rho), 0.0, 0.0, 0.0), Catch::Contains("contour level"));
}
