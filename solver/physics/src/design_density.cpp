#include "golightly/design_density.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace golightly::design {

namespace {

std::string field(const char* name) { return std::string("design density: ") + name; }

void check_radius(double radius_um, const char* what) {
    if (!(radius_um > 0) || !std::isfinite(radius_um))
        throw std::invalid_argument(field(what) + " must be positive and finite, got " +
                                    std::to_string(radius_um));
}

/// One kernel offset with its (normalized) weight.
struct Tap {
    int di, dj, dk;
    double w;
};

/// The taps of `kind` on the grid's active axes (those with more than one cell), weights
/// normalized to sum 1.
std::vector<Tap> kernel(const DensityGrid& g, FilterKind kind, double radius_um) {
    check_radius(radius_um, kind == FilterKind::Conic ? "filter radius (um)" : "filter sigma (um)");
    const double reach_um = kind == FilterKind::Conic ? radius_um : 3.0 * radius_um;
    const int reach = static_cast<int>(std::floor(reach_um / g.dx_um));
    const int ri = g.nx > 1 ? reach : 0, rj = g.ny > 1 ? reach : 0, rk = g.nz > 1 ? reach : 0;
    std::vector<Tap> taps;
    double sum = 0;
    for (int dk = -rk; dk <= rk; ++dk)
        for (int dj = -rj; dj <= rj; ++dj)
            for (int di = -ri; di <= ri; ++di) {
                const double r = g.dx_um * std::sqrt(double(di * di + dj * dj + dk * dk));
                double w = 0;
                if (kind == FilterKind::Conic)
                    w = r < radius_um ? 1.0 - r / radius_um : 0.0;
                else
                    w = r <= reach_um ? std::exp(-(r * r) / (radius_um * radius_um)) : 0.0;
                if (w > 0) {
                    taps.push_back({di, dj, dk, w});
                    sum += w;
                }
            }
    for (Tap& t : taps) t.w /= sum;  // the center tap has w = 1: sum >= 1
    return taps;
}

inline int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

/// out[p] = sum_taps w rho[clamp(p + tap)] (transpose = false), or its transpose
/// out[clamp(p + tap)] += w in[p] (transpose = true).
std::vector<double> apply(const DensityGrid& g, const std::vector<Tap>& taps,
                          const std::vector<double>& in, bool transpose) {
    std::vector<double> out(g.size(), 0.0);
    const int nx = g.nx, ny = g.ny, nz = g.nz;
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const std::size_t p = (static_cast<std::size_t>(k) * ny + j) * nx + i;
                double acc = 0;
                const double v = in[p];
                for (const Tap& t : taps) {
                    const std::size_t q =
                        (static_cast<std::size_t>(clamp_index(k + t.dk, nz)) * ny +
                         clamp_index(j + t.dj, ny)) * nx + clamp_index(i + t.di, nx);
                    if (transpose)
                        out[q] += t.w * v;
                    else
                        acc += t.w * in[q];
                }
                if (!transpose) out[p] = acc;
            }
    return out;
}

}  // namespace

void validate(const DensityGrid& g) {
    if (g.nx < 1 || g.ny < 1 || g.nz < 1)
        throw std::invalid_argument(field("grid dimensions nx, ny, nz") + " must be >= 1, got " +
                                    std::to_string(g.nx) + " x " + std::to_string(g.ny) + " x " +
                                    std::to_string(g.nz));
    if (!(g.dx_um > 0) || !std::isfinite(g.dx_um))
        throw std::invalid_argument(field("cell size dx_um") + " must be positive and finite, got " +
                                    std::to_string(g.dx_um));
    if (g.rho.size() != g.size())
        throw std::invalid_argument(field("rho") + " has " + std::to_string(g.rho.size()) +
                                    " values, the grid " + std::to_string(g.size()) + " cells");
    for (std::size_t p = 0; p < g.rho.size(); ++p)
        if (!std::isfinite(g.rho[p]))
            throw std::invalid_argument(field("rho") + " value " + std::to_string(p) + " is not finite");
}

std::vector<double> filter(const DensityGrid& grid, FilterKind kind, double radius_um) {
    validate(grid);
    return apply(grid, kernel(grid, kind, radius_um), grid.rho, false);
}

std::vector<double> filter_adjoint(const DensityGrid& grid, FilterKind kind, double radius_um,
                                   const std::vector<double>& dF_dfiltered) {
    if (grid.nx < 1 || grid.ny < 1 || grid.nz < 1 || !(grid.dx_um > 0) || !std::isfinite(grid.dx_um))
        validate(grid);
    if (dF_dfiltered.size() != grid.size())
        throw std::invalid_argument(field("dF_dfiltered") + " has " + std::to_string(dF_dfiltered.size()) +
                                    " values, the grid " + std::to_string(grid.size()) + " cells");
    return apply(grid, kernel(grid, kind, radius_um), dF_dfiltered, true);
}

namespace {

void check_projection(double beta, double eta) {
    if (!(beta >= 0))
        throw std::invalid_argument(field("projection beta") + " must be >= 0, got " + std::to_string(beta));
    if (!(eta >= 0 && eta <= 1))
        throw std::invalid_argument(field("projection eta") + " must lie in [0, 1], got " + std::to_string(eta));
}

}  // namespace

double project_tanh(double x, double beta, double eta) {
    check_projection(beta, eta);
    if (std::isinf(beta)) return x > eta ? 1.0 : 0.0;
    if (beta == 0) return x;
    const double a = std::tanh(beta * eta);
    return (a + std::tanh(beta * (x - eta))) / (a + std::tanh(beta * (1.0 - eta)));
}

double project_tanh_derivative(double x, double beta, double eta) {
    check_projection(beta, eta);
    if (std::isinf(beta)) return 0.0;
    if (beta == 0) return 1.0;
    const double c = std::cosh(beta * (x - eta));  // overflows to inf far from eta: sech^2 -> 0
    return beta / (c * c) / (std::tanh(beta * eta) + std::tanh(beta * (1.0 - eta)));
}

std::vector<double> project_tanh(const std::vector<double>& x, double beta, double eta) {
    std::vector<double> out(x.size());
    for (std::size_t p = 0; p < x.size(); ++p) out[p] = project_tanh(x[p], beta, eta);
    return out;
}

std::vector<double> project_tanh_adjoint(const std::vector<double>& x, double beta, double eta,
                                         const std::vector<double>& dF_dprojected) {
    if (x.size() != dF_dprojected.size())
        throw std::invalid_argument(field("dF_dprojected") + " has " + std::to_string(dF_dprojected.size()) +
                                    " values, the densities " + std::to_string(x.size()));
    std::vector<double> out(x.size());
    for (std::size_t p = 0; p < x.size(); ++p)
        out[p] = dF_dprojected[p] * project_tanh_derivative(x[p], beta, eta);
    return out;
}

double beta_schedule(int iteration, double beta0, double beta_max, int every, double factor) {
    if (iteration < 0)
        throw std::invalid_argument(field("beta schedule iteration") + " must be >= 0, got " +
                                    std::to_string(iteration));
    if (every < 1)
        throw std::invalid_argument(field("beta schedule interval (iterations)") + " must be >= 1, got " +
                                    std::to_string(every));
    if (!(beta0 > 0) || !std::isfinite(beta0))
        throw std::invalid_argument(field("beta schedule beta0") + " must be positive and finite, got " +
                                    std::to_string(beta0));
    if (!(factor >= 1))
        throw std::invalid_argument(field("beta schedule factor") + " must be >= 1, got " + std::to_string(factor));
    if (!(beta_max >= beta0))
        throw std::invalid_argument(field("beta schedule beta_max") + " must be >= beta0, got " +
                                    std::to_string(beta_max));
    const int steps = iteration / every;
    double beta = beta0;
    for (int s = 0; s < steps && beta < beta_max; ++s) beta *= factor;  // stops once capped: no overflow
    return std::min(beta, beta_max);
}

}  // namespace golightly::design
