// GoLightly: 1D Bloch eigenmodes of one period on the Yee grid (see mode_solver_bloch.hpp).
#include "golightly/mode_solver_bloch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include "golightly/units.hpp"

namespace golightly {

namespace {

using cd = std::complex<double>;

/// The period's Hermitian operator (scaled by dx^2, eigenvalues beta^2 dx^2): diagonal d[j],
/// real coupling c[j] between nodes j and j+1 (c[n-1]: node n-1 to node n = exp(i k L)
/// node 0), the profile's scale sqrt_eps (TEz: H = diag(sqrt(eps)) g; 1 for TMz).
struct BlochOperator {
    int n = 0;
    std::vector<double> d, c, sqrt_eps;
    cd bloch{1.0, 0.0};  // exp(i k L)
    /// The same operator as a potential and differences (for a Rayleigh quotient without
    /// the cancellation of d against c: d ~ -2 while the eigenvalues are ~ (beta dx)^2):
    /// x^H C x = sum_j pot[j] |x_j|^2 - sum_j wgt[j] |s_{j+1} f_j x_{j+1} - s_j x_j|^2,
    /// pot = k0^2 dx^2 eps, s = sqrt_eps, wgt = 1 (TMz) or m[j+1] (TEz), f_j = 1 except
    /// f_{n-1} = exp(i k L).
    std::vector<double> pot, wgt;
};

BlochOperator bloch_operator(const std::vector<double>& eps_r, double dx_um, double wavelength_um, Polarization pol,
                             double bloch_k_per_um, const std::vector<double>& eps_r_midpoints) {
    const int n = static_cast<int>(eps_r.size());
    if (n == 0) throw std::invalid_argument("solve_bloch_slab_modes: empty cross-section");
    if (!(dx_um > 0) || !(wavelength_um > 0))
        throw std::invalid_argument("solve_bloch_slab_modes: dx and wavelength must be > 0");
    if (!std::isfinite(bloch_k_per_um))
        throw std::invalid_argument("solve_bloch_slab_modes: the Bloch k must be finite");
    if (!eps_r_midpoints.empty() && static_cast<int>(eps_r_midpoints.size()) != n)
        throw std::invalid_argument("solve_bloch_slab_modes: eps_r_midpoints must have n entries (one period)");
    for (double e : eps_r)
        if (!(e > 0)) throw std::invalid_argument("solve_bloch_slab_modes: eps_r must be > 0");
    const double k0dx = 2.0 * units::pi / wavelength_um * dx_um;
    const double k0dx2 = k0dx * k0dx;
    BlochOperator op;
    op.n = n;
    op.bloch = std::polar(1.0, bloch_k_per_um * n * dx_um);
    op.d.resize(n);
    op.c.resize(n);
    op.sqrt_eps.assign(n, 1.0);
    op.pot.resize(n);
    op.wgt.assign(n, 1.0);
    for (int j = 0; j < n; ++j) op.pot[j] = k0dx2 * eps_r[j];
    if (pol == Polarization::TMz) {
        for (int j = 0; j < n; ++j) op.d[j] = -2.0 + k0dx2 * eps_r[j];
        std::fill(op.c.begin(), op.c.end(), 1.0);
    } else {
        std::vector<double> m(n);  // 1 / eps between nodes j-1 and j (periodic)
        for (int j = 0; j < n; ++j)
            m[j] = 1.0 / (eps_r_midpoints.empty() ? 0.5 * (eps_r[(j + n - 1) % n] + eps_r[j]) : eps_r_midpoints[j]);
        for (int j = 0; j < n; ++j) op.sqrt_eps[j] = std::sqrt(eps_r[j]);
        for (int j = 0; j < n; ++j) op.d[j] = eps_r[j] * (-(m[j] + m[(j + 1) % n]) + k0dx2);
        for (int j = 0; j < n; ++j) op.c[j] = op.sqrt_eps[j] * op.sqrt_eps[(j + 1) % n] * m[(j + 1) % n];
        for (int j = 0; j < n; ++j) op.wgt[j] = m[(j + 1) % n];
    }
    return op;
}

/// The returned modes from the eigenpairs (lambda decreasing, positive): beta, n_eff and the
/// profile scaled back (TEz) and divided by its value at the peak of |.|.
BlochSlabMode make_mode(const BlochOperator& op, double lam, const std::vector<cd>& vec, double dx_um,
                        double wavelength_um) {
    const double k0dx = 2.0 * units::pi / wavelength_um * dx_um;
    BlochSlabMode mode;
    mode.beta_per_um = std::sqrt(lam) / dx_um;
    mode.n_eff = std::sqrt(lam) / k0dx;
    mode.profile.resize(std::size_t(op.n));
    for (int j = 0; j < op.n; ++j) mode.profile[std::size_t(j)] = vec[std::size_t(j)] * op.sqrt_eps[std::size_t(j)];
    std::size_t peak = 0;
    for (std::size_t j = 0; j < mode.profile.size(); ++j)
        if (std::abs(mode.profile[j]) > std::abs(mode.profile[peak])) peak = j;
    const cd p = mode.profile[peak];
    if (p != cd(0))
        for (cd& v : mode.profile) v /= p;
    return mode;
}

/// Number of eigenvalues of the cyclic operator below sigma (Sylvester's law of inertia):
/// the negative pivots of the LDL^H factorization of C - sigma I in node order, nodes
/// 0..n-2 a tridiagonal block (the Sturm sequence q_j = a_j - c_{j-1}^2 / q_{j-1}) bordered
/// by node n-1, coupled to node 0 (the Bloch corner) and node n-2; w_j is the border's
/// entry after eliminating nodes 0..j-1, and the last pivot the Schur complement
/// a_{n-1} - sum_j |w_j|^2 / q_j. A pivot that vanishes is replaced by -pivmin (LAPACK's
/// dstebz does the same in its Sturm count). n >= 3.
int count_below(const BlochOperator& op, double sigma, double pivmin) {
    const int n = op.n;
    int neg = 0;
    double q = 0;
    cd w = op.c[std::size_t(n - 1)] * std::conj(op.bloch);  // A(0, n-1)
    double schur = op.d[std::size_t(n - 1)] - sigma;
    for (int j = 0; j <= n - 2; ++j) {
        const std::size_t jj = std::size_t(j);
        if (j == 0) {
            q = op.d[0] - sigma;
        } else {
            const double l = op.c[jj - 1] / q;  // L(j, j-1)
            q = op.d[jj] - sigma - l * op.c[jj - 1];
            w = (j == n - 2 ? cd(op.c[jj]) : cd(0.0)) - l * w;
        }
        if (std::abs(q) < pivmin) q = -pivmin;
        if (q < 0) ++neg;
        schur -= std::norm(w) / q;
    }
    if (schur < 0) ++neg;
    return neg;
}

/// LU factorization with partial pivoting of C - sigma I in the interleaved node order
/// 0, n-1, 1, n-2, 2, ... (position 2i holds node i, 2i+1 node n-1-i), in which the cyclic
/// operator is banded with two sub- and two super-diagonals (every node's two neighbours,
/// the Bloch corner included, lie within two positions); LAPACK's zgbtrf layout: O(n) time
/// and memory. A vanishing pivot is replaced by pivmin (inverse iteration at an eigenvalue).
class BandLU {
public:
    static constexpr int kl = 2, ku = 2, ld = 2 * kl + ku + 1;

    BandLU(const BlochOperator& op, double sigma, double pivmin) : n_(op.n), a_(std::size_t(op.n) * ld), piv_(op.n) {
        pos_.resize(std::size_t(n_));
        for (int p = 0; p < n_; ++p) pos_[std::size_t(node(p))] = p;
        for (int j = 0; j < n_; ++j) {
            at(pos(j), pos(j)) += op.d[std::size_t(j)] - sigma;
            const int r = (j + 1) % n_;
            const cd f = j + 1 == n_ ? op.bloch : cd(1.0);
            at(pos(j), pos(r)) += op.c[std::size_t(j)] * f;
            at(pos(r), pos(j)) += op.c[std::size_t(j)] * std::conj(f);
        }
        for (int k = 0; k < n_; ++k) {
            const int last = std::min(n_ - 1, k + kl);
            int p = k;
            for (int r = k + 1; r <= last; ++r)
                if (std::abs(at(r, k)) > std::abs(at(p, k))) p = r;
            piv_[std::size_t(k)] = p;
            const int jmax = std::min(n_ - 1, k + kl + ku);
            if (p != k)
                for (int j = k; j <= jmax; ++j) std::swap(at(k, j), at(p, j));
            if (std::abs(at(k, k)) < pivmin) at(k, k) = pivmin;
            for (int r = k + 1; r <= last; ++r) {
                const cd l = at(r, k) / at(k, k);
                at(r, k) = l;
                if (l != cd(0))
                    for (int j = k + 1; j <= jmax; ++j) at(r, j) -= l * at(k, j);
            }
        }
    }

    /// Solves (C - sigma I) x = b in place (b and x in node order).
    void solve(std::vector<cd>& b) const {
        std::vector<cd> y(static_cast<std::size_t>(n_));
        for (int p = 0; p < n_; ++p) y[std::size_t(p)] = b[std::size_t(node(p))];
        for (int k = 0; k < n_; ++k) {
            const int p = piv_[std::size_t(k)];
            if (p != k) std::swap(y[std::size_t(k)], y[std::size_t(p)]);
            for (int r = k + 1; r <= std::min(n_ - 1, k + kl); ++r) y[std::size_t(r)] -= at(r, k) * y[std::size_t(k)];
        }
        for (int k = n_ - 1; k >= 0; --k) {
            cd s = y[std::size_t(k)];
            for (int j = k + 1; j <= std::min(n_ - 1, k + kl + ku); ++j) s -= at(k, j) * y[std::size_t(j)];
            y[std::size_t(k)] = s / at(k, k);
        }
        for (int p = 0; p < n_; ++p) b[std::size_t(node(p))] = y[std::size_t(p)];
    }

private:
    int node(int p) const { return p % 2 == 0 ? p / 2 : n_ - 1 - (p - 1) / 2; }
    int pos(int j) const { return pos_[std::size_t(j)]; }
    // (i, j) with j - kl - ku <= i <= j + kl, column-major band storage
    cd& at(int i, int j) { return a_[std::size_t(j) * ld + std::size_t(kl + ku + i - j)]; }
    const cd& at(int i, int j) const { return a_[std::size_t(j) * ld + std::size_t(kl + ku + i - j)]; }

    int n_;
    std::vector<cd> a_;
    std::vector<int> piv_, pos_;
};

/// x^H C x (real: C is Hermitian), in the difference form of BlochOperator::pot / wgt.
double rayleigh(const BlochOperator& op, const std::vector<cd>& x) {
    const int n = op.n;
    double r = 0;
    for (int j = 0; j < n; ++j) {
        const std::size_t jj = std::size_t(j), jn = std::size_t((j + 1) % n);
        const cd next = (j + 1 == n ? op.bloch : cd(1.0)) * op.sqrt_eps[jn] * x[jn];
        r += op.pot[jj] * std::norm(x[jj]) - op.wgt[jj] * std::norm(next - op.sqrt_eps[jj] * x[jj]);
    }
    return r;
}

/// || C x - lambda x ||_2 of the cyclic operator.
double residual(const BlochOperator& op, const std::vector<cd>& x, double lam) {
    const int n = op.n;
    double r2 = 0;
    for (int j = 0; j < n; ++j) {
        const cd next = j + 1 == n ? op.bloch * x[0] : x[std::size_t(j + 1)];
        const cd prev = j == 0 ? std::conj(op.bloch) * x[std::size_t(n - 1)] : x[std::size_t(j - 1)];
        const cd prev_c = j == 0 ? op.c[std::size_t(n - 1)] : op.c[std::size_t(j - 1)];
        const cd r = (op.d[std::size_t(j)] - lam) * x[std::size_t(j)] + op.c[std::size_t(j)] * next + prev_c * prev;
        r2 += std::norm(r);
    }
    return std::sqrt(r2);
}

double norm2(const std::vector<cd>& x) {
    double s = 0;
    for (const cd& v : x) s += std::norm(v);
    return std::sqrt(s);
}

}  // namespace

std::vector<BlochSlabMode> solve_bloch_slab_modes_dense(const std::vector<double>& eps_r, double dx_um,
                                                        double wavelength_um, Polarization pol, int max_modes,
                                                        double bloch_k_per_um,
                                                        const std::vector<double>& eps_r_midpoints) {
    const BlochOperator op = bloch_operator(eps_r, dx_um, wavelength_um, pol, bloch_k_per_um, eps_r_midpoints);
    const int n = op.n;
    Eigen::MatrixXcd C = Eigen::MatrixXcd::Zero(n, n);
    for (int j = 0; j < n; ++j) {
        C(j, j) += op.d[std::size_t(j)];
        // row j reads node j+1 (wrapping: exp(i k L) times node 0) and, by Hermitian
        // symmetry, row j+1 reads node j with the conjugate factor
        const int r = (j + 1) % n;
        const cd f = j + 1 == n ? op.bloch : cd(1.0);
        C(j, r) += op.c[std::size_t(j)] * f;
        C(r, j) += op.c[std::size_t(j)] * std::conj(f);
    }
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXcd> solver(C, Eigen::ComputeEigenvectors);
    if (solver.info() != Eigen::Success)
        throw std::runtime_error("solve_bloch_slab_modes: eigenvalue iteration failed");
    const Eigen::VectorXd& lambda = solver.eigenvalues();  // increasing
    std::vector<BlochSlabMode> modes;
    for (int idx = n - 1; idx >= 0 && static_cast<int>(modes.size()) < max_modes; --idx) {
        const double lam = lambda[idx];
        if (!(lam > 0)) break;
        std::vector<cd> v(static_cast<std::size_t>(n));
        for (int j = 0; j < n; ++j) v[std::size_t(j)] = solver.eigenvectors()(j, idx);
        modes.push_back(make_mode(op, lam, v, dx_um, wavelength_um));
    }
    return modes;
}

std::vector<BlochSlabMode> solve_bloch_slab_modes(const std::vector<double>& eps_r, double dx_um,
                                                  double wavelength_um, Polarization pol, int max_modes,
                                                  double bloch_k_per_um,
                                                  const std::vector<double>& eps_r_midpoints) {
    const BlochOperator op = bloch_operator(eps_r, dx_um, wavelength_um, pol, bloch_k_per_um, eps_r_midpoints);
    const int n = op.n;
    // one or two nodes: the corner and the neighbour coincide; the dense solver is exact there
    if (n < 3) return solve_bloch_slab_modes_dense(eps_r, dx_um, wavelength_um, pol, max_modes, bloch_k_per_um,
                                                   eps_r_midpoints);
    std::vector<BlochSlabMode> modes;
    if (max_modes <= 0) return modes;
    // Gershgorin: every eigenvalue lies in [lo, hi]; norm bounds max(|lo|, |hi|)
    double hi = -std::numeric_limits<double>::infinity(), lo = std::numeric_limits<double>::infinity(), cmax = 0;
    for (int j = 0; j < n; ++j) {
        const double rad = std::abs(op.c[std::size_t(j)]) + std::abs(op.c[std::size_t((j + n - 1) % n)]);
        hi = std::max(hi, op.d[std::size_t(j)] + rad);
        lo = std::min(lo, op.d[std::size_t(j)] - rad);
        cmax = std::max(cmax, std::abs(op.c[std::size_t(j)]));
    }
    const double norm = std::max(std::abs(lo), std::abs(hi));
    const double eps = std::numeric_limits<double>::epsilon();
    const double pivmin = std::numeric_limits<double>::min() / eps * std::max(1.0, cmax * cmax);
    if (!(hi > 0)) return modes;
    // the positive eigenvalues: n - (those below 0); take the largest max_modes of them
    const int positive = n - count_below(op, 0.0, pivmin);
    const int want = std::min(max_modes, positive);
    std::vector<double> lambda;
    double top = hi;
    for (int t = 0; t < want; ++t) {
        // bisection for the t-th largest eigenvalue: count_below(x) <= n - 1 - t <=> x <= it
        double a = 0.0, b = top;
        while (b - a > 2 * eps * std::max(std::abs(a), std::abs(b)) + pivmin) {
            const double mid = 0.5 * (a + b);
            if (mid <= a || mid >= b) break;
            (count_below(op, mid, pivmin) <= n - 1 - t ? a : b) = mid;
        }
        const double lam = 0.5 * (a + b);
        if (!(lam > 0)) break;
        lambda.push_back(lam);
        top = b;
    }
    // Inverse iteration (LAPACK's zstein scheme): the LU of C - lambda I with partial
    // pivoting, a real start vector (so that a real operator, k = 0, keeps a real mode),
    // Gram-Schmidt against the modes of the same cluster (eigenvalues within 1e-3 |C| of
    // each other: a degenerate pair's second vector), until the residual is at rounding.
    std::vector<std::vector<cd>> vecs;
    std::vector<double> rqs;
    const double cluster = 1e-3 * norm, tol = 64 * eps * norm * std::sqrt(double(n));
    std::uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (std::size_t t = 0; t < lambda.size(); ++t) {
        const double lam = lambda[t];
        // a shift a little off a multiple eigenvalue keeps the pivots of the cluster apart
        double shift = lam;
        if (t > 0 && std::abs(lambda[t - 1] - lam) < 10 * eps * norm) shift = lam - 10 * eps * norm * double(t);
        const BandLU lu(op, shift, pivmin * norm + eps * eps * norm);
        std::vector<cd> x(static_cast<std::size_t>(n));
        for (auto& v : x) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            v = cd(double(seed >> 11) / double(1ull << 53) - 0.5, 0.0);
        }
        double res = 0, rq = lam;
        for (int it = 0; it < 8; ++it) {
            lu.solve(x);
            for (std::size_t s = 0; s < t; ++s) {
                if (std::abs(lambda[s] - lam) > cluster) continue;
                cd dot = 0;
                for (int j = 0; j < n; ++j) dot += std::conj(vecs[s][std::size_t(j)]) * x[std::size_t(j)];
                for (int j = 0; j < n; ++j) x[std::size_t(j)] -= dot * vecs[s][std::size_t(j)];
            }
            const double nx = norm2(x);
            if (!(nx > 0) || !std::isfinite(nx)) throw std::runtime_error("solve_bloch_slab_modes: inverse iteration failed");
            for (cd& v : x) v /= nx;
            rq = rayleigh(op, x);
            res = residual(op, x, rq);
            if (it >= 1 && res <= tol) break;
        }
        if (!(res <= 1e3 * tol))
            throw std::runtime_error("solve_bloch_slab_modes: inverse iteration did not converge (residual " +
                                     std::to_string(res) + ")");
        vecs.push_back(x);
        rqs.push_back(rq);
    }
    // The Rayleigh quotients (accurate to rounding: the error is the square of the vector's)
    // are the eigenvalues; bisection alone loses digits at a multiple eigenvalue, where the
    // bordered block's pivots and the Schur complement cancel.
    std::vector<std::size_t> order(vecs.size());
    for (std::size_t t = 0; t < order.size(); ++t) order[t] = t;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rqs[a] > rqs[b]; });
    for (std::size_t t : order) {
        if (!(rqs[t] > 0)) break;
        modes.push_back(make_mode(op, rqs[t], vecs[t], dx_um, wavelength_um));
    }
    return modes;
}

}  // namespace golightly
