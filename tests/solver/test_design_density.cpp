// Design densities (golightly/design_density.hpp, issue 53 item 3): filters and their exact
// transposes, the tanh projection, the minimum length scale constraints, the morphological
// check and the contours of a binarized design.
#include <catch2/catch.hpp>

#include <cmath>
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
