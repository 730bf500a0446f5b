// GoLightly design densities (design_density.hpp): the filters, projections, the mapping to
// eps, the length scale constraints and the density contours; the measured length scales of a
// binarized design are in design_length_scale.cpp.
#include "golightly/design_density.hpp"
#include "design_density_internal.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace golightly::design {

namespace {

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

/// The conic filter's taps on the grid's active axes (those with more than one cell),
/// weights normalized to sum 1.
std::vector<Tap> conic_kernel(const DensityGrid& g, double radius_um) {
    check_radius(radius_um, "filter radius (um)");
    const int reach = static_cast<int>(std::floor(radius_um / g.dx_um));
    const int ri = g.nx > 1 ? reach : 0, rj = g.ny > 1 ? reach : 0, rk = g.nz > 1 ? reach : 0;
    std::vector<Tap> taps;
    double sum = 0;
    for (int dk = -rk; dk <= rk; ++dk)
        for (int dj = -rj; dj <= rj; ++dj)
            for (int di = -ri; di <= ri; ++di) {
                const double r = g.dx_um * std::sqrt(double(di * di + dj * dj + dk * dk));
                const double w = r < radius_um ? 1.0 - r / radius_um : 0.0;
                if (w > 0) {
                    taps.push_back({di, dj, dk, w});
                    sum += w;
                }
            }
    for (Tap& t : taps) t.w /= sum;  // the center tap has w = 1: sum >= 1
    return taps;
}

/// The Gaussian's 1D weights exp(-(t dx)^2 / sigma^2), t = -reach..reach with
/// reach = floor(3 sigma / dx), normalized to sum 1 (the 3D kernel is their product).
std::vector<double> gaussian_weights(const DensityGrid& g, double sigma_um) {
    check_radius(sigma_um, "filter sigma (um)");
    const int reach = static_cast<int>(std::floor(3.0 * sigma_um / g.dx_um));
    std::vector<double> w(2 * reach + 1);
    double sum = 0;
    for (int t = -reach; t <= reach; ++t) {
        const double x = t * g.dx_um;
        w[t + reach] = std::exp(-(x * x) / (sigma_um * sigma_um));
        sum += w[t + reach];
    }
    for (double& v : w) v /= sum;
    return w;
}


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

/// numpy.gradient of `f` along one axis (stride `stride`, `n` cells of `dx` um): central
/// differences inside, first-order one-sided on the two end cells. Requires n >= 2.
/// transpose = true applies the transpose instead (accumulating into out).
void gradient_axis(const DensityGrid& g, int axis, double dx, const std::vector<double>& in,
                   std::vector<double>& out, bool transpose) {
    const int n = axis == 0 ? g.nx : (axis == 1 ? g.ny : g.nz);
    const std::size_t stride = axis == 0 ? 1 : (axis == 1 ? static_cast<std::size_t>(g.nx)
                                                          : static_cast<std::size_t>(g.nx) * g.ny);
    const std::size_t total = g.size();
    for (std::size_t base = 0; base < total; ++base) {
        // `base` runs over the cells whose coordinate along `axis` is 0.
        if ((base / stride) % n != 0) continue;
        auto at = [&](int i) { return base + static_cast<std::size_t>(i) * stride; };
        for (int i = 0; i < n; ++i) {
            int lo = i - 1, hi = i + 1;
            double h = 2 * dx;
            if (i == 0) {
                lo = 0;
                h = dx;
            }
            if (i == n - 1) {
                hi = n - 1;
                h = dx;
            }
            if (transpose) {
                out[at(hi)] += in[at(i)] / h;
                out[at(lo)] -= in[at(i)] / h;
            } else {
                out[at(i)] = (in[at(hi)] - in[at(lo)]) / h;
            }
        }
    }
}

/// The 1D filter `w` (odd length, centered) along `axis` with clamped reads, or its
/// transpose.
std::vector<double> apply_axis(const DensityGrid& g, int axis, const std::vector<double>& w,
                               const std::vector<double>& in, bool transpose) {
    const int n = axis == 0 ? g.nx : (axis == 1 ? g.ny : g.nz);
    const std::size_t stride = axis == 0 ? 1 : (axis == 1 ? static_cast<std::size_t>(g.nx)
                                                          : static_cast<std::size_t>(g.nx) * g.ny);
    const int reach = static_cast<int>(w.size() / 2);
    std::vector<double> out(in.size(), 0.0);
    for (std::size_t base = 0; base < in.size(); ++base) {
        if ((base / stride) % n != 0) continue;  // the cells at coordinate 0 along `axis`
        for (int i = 0; i < n; ++i) {
            double acc = 0;
            for (int t = -reach; t <= reach; ++t) {
                const std::size_t q = base + static_cast<std::size_t>(clamp_index(i + t, n)) * stride;
                if (transpose)
                    out[q] += w[t + reach] * in[base + static_cast<std::size_t>(i) * stride];
                else
                    acc += w[t + reach] * in[q];
            }
            if (!transpose) out[base + static_cast<std::size_t>(i) * stride] = acc;
        }
    }
    return out;
}

/// filter() (transpose = false) or filter_adjoint() of `in`. The Gaussian, a product of 1D
/// Gaussians on a box, runs as one 1D pass per active axis (clamping acts per coordinate,
/// so the passes equal the 3D convolution; they commute, and the transpose is the product
/// of the transposed passes).
std::vector<double> convolve(const DensityGrid& g, FilterKind kind, double radius_um,
                             const std::vector<double>& in, bool transpose) {
    if (kind == FilterKind::Conic) return apply(g, conic_kernel(g, radius_um), in, transpose);
    const std::vector<double> w = gaussian_weights(g, radius_um);
    std::vector<double> out = in;
    const int dims[3] = {g.nx, g.ny, g.nz};
    for (int a = 0; a < 3; ++a)
        if (dims[a] > 1) out = apply_axis(g, a, w, out, transpose);
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
    return convolve(grid, kind, radius_um, grid.rho, false);
}

std::vector<double> filter_adjoint(const DensityGrid& grid, FilterKind kind, double radius_um,
                                   const std::vector<double>& dF_dfiltered) {
    if (grid.nx < 1 || grid.ny < 1 || grid.nz < 1 || !(grid.dx_um > 0) || !std::isfinite(grid.dx_um))
        validate(grid);
    if (dF_dfiltered.size() != grid.size())
        throw std::invalid_argument(field("dF_dfiltered") + " has " + std::to_string(dF_dfiltered.size()) +
                                    " values, the grid " + std::to_string(grid.size()) + " cells");
    return convolve(grid, kind, radius_um, dF_dfiltered, true);
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

namespace {

/// Meep's smoothing radius: 0.55 cells.
constexpr double kSmoothingCells = 0.55;

/// The subpixel-smoothed projection of the filtered densities `f` on grid `g`, and with
/// `dF_dprojected` its transpose-chained gradient (returned in `grad`).
std::vector<double> smoothed(const DensityGrid& g, const std::vector<double>& f, double beta, double eta,
                             const std::vector<double>* dF_dprojected, std::vector<double>* grad) {
    check_projection(beta, eta);
    const std::size_t n = g.size();
    const int dims[3] = {g.nx, g.ny, g.nz};
    std::vector<int> axes;
    std::vector<std::vector<double>> G;
    std::vector<double> m(n, 0.0);
    for (int a = 0; a < 3; ++a) {
        if (dims[a] < 2) continue;
        axes.push_back(a);
        G.emplace_back(n);
        gradient_axis(g, a, g.dx_um, f, G.back(), false);
        for (std::size_t p = 0; p < n; ++p) m[p] += G.back()[p] * G.back()[p];
    }
    const double rs = kSmoothingCells * g.dx_um;
    std::vector<double> out(n), dnorm;
    if (grad) {
        grad->assign(n, 0.0);
        dnorm.assign(n, 0.0);
    }
    for (std::size_t p = 0; p < n; ++p) {
        const double norm = std::sqrt(m[p]);
        const double d = m[p] > 0 ? (eta - f[p]) / norm : 0.0;
        if (!(m[p] > 0) || !(std::abs(d) < rs)) {  // no interface within the cell
            out[p] = project_tanh(f[p], beta, eta);
            if (grad) (*grad)[p] = (*dF_dprojected)[p] * project_tanh_derivative(f[p], beta, eta);
            continue;
        }
        const double u = d / rs, u2 = u * u;
        const double fill = 0.5 - 15.0 / 16.0 * u + 5.0 / 8.0 * u * u2 - 3.0 / 16.0 * u * u2 * u2;
        const double dfill = -15.0 / 16.0 * (1 - u2) * (1 - u2);  // d fill / d u
        const double lo = f[p] - rs * norm * fill, hi = f[p] + rs * norm * (1 - fill);
        const double plo = project_tanh(lo, beta, eta), phi = project_tanh(hi, beta, eta);
        out[p] = (1 - fill) * plo + fill * phi;
        if (!grad) continue;
        const double dplo = project_tanh_derivative(lo, beta, eta), dphi = project_tanh_derivative(hi, beta, eta);
        const double du_df = -1.0 / (norm * rs), du_dn = -u / norm;
        const double d_df = (phi - plo) * dfill * du_df + ((1 - fill) * dplo + fill * dphi) * (1 + dfill);
        const double d_dn = (phi - plo) * dfill * du_dn + (1 - fill) * dplo * rs * (dfill * u - fill) +
                            fill * dphi * rs * (1 - fill + dfill * u);
        (*grad)[p] = (*dF_dprojected)[p] * d_df;
        dnorm[p] = (*dF_dprojected)[p] * d_dn / norm;  // times G_a gives d F / d G_a
    }
    if (grad)
        for (std::size_t a = 0; a < axes.size(); ++a) {
            std::vector<double> w(n);
            for (std::size_t p = 0; p < n; ++p) w[p] = dnorm[p] * G[a][p];
            gradient_axis(g, axes[a], g.dx_um, w, *grad, true);
        }
    return out;
}

}  // namespace

std::vector<double> project_smoothed(const DensityGrid& filtered, double beta, double eta) {
    validate(filtered);
    return smoothed(filtered, filtered.rho, beta, eta, nullptr, nullptr);
}

std::vector<double> project_smoothed_adjoint(const DensityGrid& filtered, double beta, double eta,
                                             const std::vector<double>& dF_dprojected) {
    validate(filtered);
    if (dF_dprojected.size() != filtered.size())
        throw std::invalid_argument(field("dF_dprojected") + " has " + std::to_string(dF_dprojected.size()) +
                                    " values, the grid " + std::to_string(filtered.size()) + " cells");
    std::vector<double> grad;
    smoothed(filtered, filtered.rho, beta, eta, &dF_dprojected, &grad);
    return grad;
}

namespace {

std::vector<double> mapped_filter(const DensityGrid& grid, const DesignMapping& m) {
    validate(grid);
    if (m.radius_um == 0) return grid.rho;
    return filter(grid, m.kind, m.radius_um);
}

}  // namespace

std::vector<double> map_density(const DensityGrid& grid, const DesignMapping& mapping) {
    if (mapping.smoothed) {
        DensityGrid f = grid;
        f.rho = mapped_filter(grid, mapping);
        return project_smoothed(f, mapping.beta, mapping.eta);
    }
    return project_tanh(mapped_filter(grid, mapping), mapping.beta, mapping.eta);
}

std::vector<double> map_density_adjoint(const DensityGrid& grid, const DesignMapping& mapping,
                                        const std::vector<double>& dF_dprojected) {
    if (dF_dprojected.size() != grid.size())
        throw std::invalid_argument(field("dF_dprojected") + " has " + std::to_string(dF_dprojected.size()) +
                                    " values, the grid " + std::to_string(grid.size()) + " cells");
    std::vector<double> g;
    if (mapping.smoothed) {
        DensityGrid f = grid;
        f.rho = mapped_filter(grid, mapping);
        g = project_smoothed_adjoint(f, mapping.beta, mapping.eta, dF_dprojected);
    } else {
        g = project_tanh_adjoint(mapped_filter(grid, mapping), mapping.beta, mapping.eta, dF_dprojected);
    }
    if (mapping.radius_um == 0) return g;
    return filter_adjoint(grid, mapping.kind, mapping.radius_um, g);
}

namespace {

ConstraintValue length_scale_constraint(const DensityGrid& grid, const LengthScaleConstraint& c, bool solid) {
    validate(grid);
    check_radius(c.radius_um, c.kind == FilterKind::Conic ? "filter radius (um)" : "filter sigma (um)");
    check_projection(c.beta, c.eta_i);
    if (!(c.eta_e >= 0 && c.eta_e <= 1))
        throw std::invalid_argument(field("length scale eta_e") + " must lie in [0, 1], got " + std::to_string(c.eta_e));
    if (!(c.eta_d >= 0 && c.eta_d <= 1))
        throw std::invalid_argument(field("length scale eta_d") + " must lie in [0, 1], got " + std::to_string(c.eta_d));
    if (!(c.c_um2 >= 0) || !std::isfinite(c.c_um2))
        throw std::invalid_argument(field("length scale decay rate c_um2") + " must be >= 0 and finite, got " +
                                    std::to_string(c.c_um2));
    const std::size_t n = grid.size();
    const std::vector<double> f = convolve(grid, c.kind, c.radius_um, grid.rho, false);

    // |grad rho~|^2 and the gradient components along the axes with more than one cell.
    const int dims[3] = {grid.nx, grid.ny, grid.nz};
    std::vector<std::vector<double>> grad;
    std::vector<int> axes;
    std::vector<double> m(n, 0.0);
    for (int a = 0; a < 3; ++a) {
        if (dims[a] < 2) continue;
        axes.push_back(a);
        grad.emplace_back(n);
        gradient_axis(grid, a, grid.dx_um, f, grad.back(), false);
        for (std::size_t p = 0; p < n; ++p) m[p] += grad.back()[p] * grad.back()[p];
    }

    const double inv_n = 1.0 / static_cast<double>(n);
    double value = 0;
    std::vector<double> df(n, 0.0);                  // d g / d rho~, direct part
    std::vector<double> dm(n, 0.0);                  // d g / d |grad rho~|^2
    for (std::size_t p = 0; p < n; ++p) {
        const double proj = project_tanh(f[p], c.beta, c.eta_i);
        const double dproj = project_tanh_derivative(f[p], c.beta, c.eta_i);
        const double e = std::exp(-c.c_um2 * m[p]);
        const double t = solid ? proj : 1.0 - proj;      // the phase's indicator before decay
        const double dt = solid ? dproj : -dproj;
        const double d = solid ? std::min(f[p] - c.eta_e, 0.0) : std::min(c.eta_d - f[p], 0.0);
        const double h = d * d;
        const double dh = solid ? 2 * d : -2 * d;       // d h / d rho~
        value += t * e * h;
        df[p] = inv_n * (dt * e * h + t * e * dh);
        dm[p] = -c.c_um2 * inv_n * t * e * h;
    }
    // Through |grad rho~|^2 = sum_a (D_a rho~)^2: d g / d rho~ += sum_a D_a^T (2 G_a dm).
    for (std::size_t a = 0; a < axes.size(); ++a) {
        std::vector<double> w(n);
        for (std::size_t p = 0; p < n; ++p) w[p] = 2 * grad[a][p] * dm[p];
        gradient_axis(grid, axes[a], grid.dx_um, w, df, true);
    }
    ConstraintValue out;
    out.value = value * inv_n;
    out.gradient = convolve(grid, c.kind, c.radius_um, df, true);
    return out;
}

}  // namespace

ConstraintValue constraint_solid(const DensityGrid& grid, const LengthScaleConstraint& params) {
    return length_scale_constraint(grid, params, true);
}

ConstraintValue constraint_void(const DensityGrid& grid, const LengthScaleConstraint& params) {
    return length_scale_constraint(grid, params, false);
}

double conic_radius_from_eta_e(double length_um, double eta_e) {
    if (!(length_um > 0) || !std::isfinite(length_um))
        throw std::invalid_argument(field("length scale (um)") + " must be positive and finite, got " +
                                    std::to_string(length_um));
    if (eta_e > 0.5 && eta_e < 0.75) return length_um / (2 * std::sqrt(eta_e - 0.5));
    if (eta_e >= 0.75 && eta_e <= 1) return length_um / (2 - 2 * std::sqrt(1 - eta_e));
    throw std::invalid_argument(field("eroded threshold eta_e") + " must lie in (0.5, 1], got " +
                                std::to_string(eta_e));
}

double eta_e_from_conic(double length_um, double radius_um) {
    if (!(length_um >= 0))
        throw std::invalid_argument(field("length scale (um)") + " must be >= 0, got " + std::to_string(length_um));
    check_radius(radius_um, "filter radius (um)");
    const double q = length_um / radius_um;
    if (q < 1) return 0.25 * q * q + 0.5;
    if (q < 2) return -0.25 * q * q + q;
    return 1.0;
}

namespace {

/// The marching-squares grid: the density padded by one cell of 0 on each side, W x H
/// samples. Crossing points are identified by the sample edge they lie on:
/// 2 (J W + I) for the edge (I, J)-(I+1, J), 2 (J W + I) + 1 for (I, J)-(I, J+1).
struct Samples {
    int w, h;
    std::vector<double> v;
    double level = 0.5;
    double at(int i, int j) const { return v[static_cast<std::size_t>(j) * w + i]; }
    bool solid(int i, int j) const { return at(i, j) >= level; }
    long long hedge(int i, int j) const { return 2LL * (static_cast<long long>(j) * w + i); }
    long long vedge(int i, int j) const { return 2LL * (static_cast<long long>(j) * w + i) + 1; }
};

/// The crossing on edge `id`, in padded sample units (sample (I, J) at (I, J)).
std::array<double, 2> crossing(const Samples& s, long long id) {
    const bool vertical = id % 2;
    const long long cell = id / 2;
    const int i = static_cast<int>(cell % s.w), j = static_cast<int>(cell / s.w);
    const double a = s.at(i, j), b = vertical ? s.at(i, j + 1) : s.at(i + 1, j);
    const double t = (s.level - a) / (b - a);  // a and b lie on opposite sides of the level: b != a
    return vertical ? std::array<double, 2>{double(i), j + t} : std::array<double, 2>{i + t, double(j)};
}

}  // namespace

std::vector<ContourLoop> density_contours(const DensityGrid& grid, double origin_x_um, double origin_y_um, double level) {
    validate(grid);
    if (!(level > 0 && level < 1))
        throw std::invalid_argument(field("contour level") + " must be in (0, 1), got " + std::to_string(level));
    if (grid.nz != 1)
        throw std::invalid_argument(field("contours") + " need a 2D grid (nz = 1), got nz = " + std::to_string(grid.nz));
    if (!std::isfinite(origin_x_um) || !std::isfinite(origin_y_um))
        throw std::invalid_argument(field("contour origin (um)") + " must be finite");
    Samples s{grid.nx + 2, grid.ny + 2, {}, level};
    s.v.assign(static_cast<std::size_t>(s.w) * s.h, 0.0);
    for (int j = 0; j < grid.ny; ++j)
        for (int i = 0; i < grid.nx; ++i)
            s.v[static_cast<std::size_t>(j + 1) * s.w + i + 1] = grid.rho[static_cast<std::size_t>(j) * grid.nx + i];
    // The padding beside a solid edge sample v is 2 level - v (just below the level), so that
    // its crossing lies half a cell out, on the region's edge, whatever v is: a design's
    // solid that touches the box meets what continues it outside (a guide) without a gap.
    // (For 0/1 densities at level 1/2 that is the 0 of the plain padding.)
    auto pad = [&](double v) { return v >= level ? std::min(2 * level - v, std::nextafter(level, 0.0)) : 0.0; };
    for (int i = 1; i + 1 < s.w; ++i) {
        s.v[static_cast<std::size_t>(i)] = pad(s.at(i, 1));
        s.v[static_cast<std::size_t>(s.h - 1) * s.w + i] = pad(s.at(i, s.h - 2));
    }
    for (int j = 1; j + 1 < s.h; ++j) {
        s.v[static_cast<std::size_t>(j) * s.w] = pad(s.at(1, j));
        s.v[static_cast<std::size_t>(j) * s.w + s.w - 1] = pad(s.at(s.w - 2, j));
    }

    // Directed segments, solid on the left: next[start] = end. Walking a cell's boundary
    // counter-clockwise, a crossing from solid to void "leaves" and one from void to solid
    // "enters"; the solid part of the cell, bounded counter-clockwise, runs from a leaving
    // crossing along the contour to an entering one.
    std::vector<std::pair<long long, long long>> segments;
    for (int j = 0; j + 1 < s.h; ++j)
        for (int i = 0; i + 1 < s.w; ++i) {
            const int ci[4] = {i, i + 1, i + 1, i}, cj[4] = {j, j, j + 1, j + 1};
            const long long edges[4] = {s.hedge(i, j), s.vedge(i + 1, j), s.hedge(i, j + 1), s.vedge(i, j)};
            long long id[4];
            bool leaves[4];
            int count = 0;
            for (int e = 0; e < 4; ++e) {
                const bool a = s.solid(ci[e], cj[e]), b = s.solid(ci[(e + 1) % 4], cj[(e + 1) % 4]);
                if (a == b) continue;
                id[count] = edges[e];
                leaves[count] = a;
                ++count;
            }
            if (count == 2) {
                segments.emplace_back(leaves[0] ? id[0] : id[1], leaves[0] ? id[1] : id[0]);
            } else if (count == 4) {
                const double mean = 0.25 * (s.at(i, j) + s.at(i + 1, j) + s.at(i + 1, j + 1) + s.at(i, j + 1));
                const int step = mean >= level ? 1 : 3;  // joined: the next entering; split: the previous
                for (int k = 0; k < 4; ++k)
                    if (leaves[k]) segments.emplace_back(id[k], id[(k + step) % 4]);
            }
        }
    std::sort(segments.begin(), segments.end());

    const double dx = grid.dx_um;
    const double eps = 1e-12;  // in cells: coincident vertices and collinearity
    std::vector<ContourLoop> loops;
    std::vector<char> used(segments.size(), 0);
    auto find = [&](long long start) {
        auto it = std::lower_bound(segments.begin(), segments.end(), std::make_pair(start, LLONG_MIN));
        return static_cast<std::size_t>(it - segments.begin());
    };
    for (std::size_t first = 0; first < segments.size(); ++first) {
        if (used[first]) continue;
        std::vector<std::array<double, 2>> pts;  // padded sample units
        std::size_t k = first;
        while (!used[k]) {
            used[k] = 1;
            const std::array<double, 2> p = crossing(s, segments[k].first);
            if (pts.empty() || std::hypot(p[0] - pts.back()[0], p[1] - pts.back()[1]) > eps) pts.push_back(p);
            const long long next_id = segments[k].second;
            k = find(next_id);
            if (k >= segments.size() || segments[k].first != next_id)
                throw std::logic_error(field("contours") + ": an open contour (internal error)");
        }
        while (pts.size() > 1 && std::hypot(pts.front()[0] - pts.back()[0], pts.front()[1] - pts.back()[1]) <= eps)
            pts.pop_back();
        // Drop middle vertices of straight runs (cyclically).
        for (bool changed = true; changed && pts.size() > 3;) {
            changed = false;
            std::vector<std::array<double, 2>> kept;
            kept.reserve(pts.size());
            const std::size_t n = pts.size();
            for (std::size_t m = 0; m < n; ++m) {
                const auto& a = kept.empty() ? pts[n - 1] : kept.back();
                const auto& b = pts[m];
                const auto& c = pts[(m + 1) % n];
                const double ux = b[0] - a[0], uy = b[1] - a[1], vx = c[0] - b[0], vy = c[1] - b[1];
                if (std::abs(ux * vy - uy * vx) <= eps && ux * vx + uy * vy > 0 && n - (m - kept.size()) > 3)
                    changed = true;  // b is the middle of a straight run
                else
                    kept.push_back(b);
            }
            pts.swap(kept);
        }
        if (pts.size() < 3) continue;
        ContourLoop loop;
        loop.xy_um.reserve(pts.size());
        for (const auto& p : pts)  // padded sample I is cell I - 1, centered at (I - 1/2) dx
            loop.xy_um.push_back({origin_x_um + (p[0] - 0.5) * dx, origin_y_um + (p[1] - 0.5) * dx});
        loop.hole = signed_area_um2(loop) < 0;
        loops.push_back(std::move(loop));
    }
    return loops;
}

double signed_area_um2(const ContourLoop& loop) {
    const auto& p = loop.xy_um;
    double a = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const auto& u = p[i];
        const auto& v = p[(i + 1) % p.size()];
        a += u[0] * v[1] - v[0] * u[1];
    }
    return 0.5 * a;
}

}  // namespace golightly::design
