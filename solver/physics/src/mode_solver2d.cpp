// GoLightly: full-vector finite-difference eigenmodes of a 2D cross-section (method in
// mode_solver2d.hpp).
#include "golightly/mode_solver2d.hpp"

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <Eigen/SparseLU>
#include <algorithm>
#include <complex>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#if GOLIGHTLY_HAVE_SPECTRA
#include <Spectra/GenEigsRealShiftSolver.h>
#include <Spectra/MatOp/SparseGenRealShiftSolve.h>
#endif

namespace golightly {

namespace {

using SpMat = Eigen::SparseMatrix<double>;
using Trip = Eigen::Triplet<double>;

int integer_nodes(int n, ModeBoundary b) {
    switch (b) {
        case ModeBoundary::pec: return n - 1;
        case ModeBoundary::pmc: return n + 1;
        case ModeBoundary::periodic: return n;
    }
    return n;
}

int first_integer_node(ModeBoundary b) { return b == ModeBoundary::pec ? 1 : 0; }

using cd = std::complex<double>;
using SpMatC = Eigen::SparseMatrix<cd>;
using TripC = Eigen::Triplet<cd>;

// Forward difference of one axis: half nodes (rows, n) x integer nodes (columns), 1/dx.
// Periodic with a Bloch phase: node n is exp(i phase) times node 0.
SpMatC forward_difference(int n, ModeBoundary b, double dx, double phase) {
    const int ni = integer_nodes(n, b);
    std::vector<TripC> t;
    const double s = 1.0 / dx;
    for (int r = 0; r < n; ++r) {
        // half node r sits between integer nodes r and r + 1 (absolute numbering)
        const int lo = r, hi = r + 1;
        auto col = [&](int node) -> int {  // column of absolute integer node, -1 = zero
            switch (b) {
                case ModeBoundary::pec: return (node >= 1 && node <= n - 1) ? node - 1 : -1;
                case ModeBoundary::pmc: return node;
                case ModeBoundary::periodic: return node % n;
            }
            return -1;
        };
        const int chi = col(hi), clo = col(lo);
        const cd wrap = b == ModeBoundary::periodic && hi >= n ? std::polar(1.0, phase) : cd(1.0);
        if (chi >= 0) t.emplace_back(r, chi, s * wrap);
        if (clo >= 0) t.emplace_back(r, clo, cd(-s));
    }
    SpMatC m(n, std::max(ni, 0));
    m.setFromTriplets(t.begin(), t.end());  // sums duplicates (periodic n = 1: exp(i phase) - 1)
    return m;
}

SpMatC identity(int n) {
    SpMatC m(n, n);
    m.setIdentity();
    return m;
}

// Kronecker product of sparse matrices (a outer, b inner): (a (x) b)[(ia*rb+ib),(ja*cb+jb)].
SpMatC kron(const SpMatC& a, const SpMatC& b) {
    std::vector<TripC> t;
    t.reserve(static_cast<size_t>(a.nonZeros()) * static_cast<size_t>(b.nonZeros()));
    for (int ka = 0; ka < a.outerSize(); ++ka)
        for (SpMatC::InnerIterator ia(a, ka); ia; ++ia)
            for (int kb = 0; kb < b.outerSize(); ++kb)
                for (SpMatC::InnerIterator ib(b, kb); ib; ++ib)
                    t.emplace_back(ia.row() * b.rows() + ib.row(), ia.col() * b.cols() + ib.col(),
                                   ia.value() * ib.value());
    SpMatC m(a.rows() * b.rows(), a.cols() * b.cols());
    m.setFromTriplets(t.begin(), t.end());
    return m;
}

// The operators of the cross-section (header comment), for one grid.
// Complex (a Bloch phase's wrap entries); real when both phases are 0.
struct Operators {
    int nu = 0, nv = 0, niu = 0, niv = 0;
    SpMatC duf_nv, duf_niv, dvf_nu, dvf_niu;  // forward: Du_f(v count), Dv_f(u count)
    SpMatC dub_nv, dub_niv, dvb_nu, dvb_niu;  // backward
};

Operators make_operators(const ModeGrid2D& g) {
    Operators o;
    o.nu = g.nu;
    o.nv = g.nv;
    o.niu = integer_nodes(g.nu, g.boundary_u);
    o.niv = integer_nodes(g.nv, g.boundary_v);
    const SpMatC dfu = forward_difference(g.nu, g.boundary_u, g.dx_um, g.bloch_phase_u);
    const SpMatC dfv = forward_difference(g.nv, g.boundary_v, g.dx_um, g.bloch_phase_v);
    const SpMatC dbu = -SpMatC(dfu.adjoint());
    const SpMatC dbv = -SpMatC(dfv.adjoint());
    o.duf_nv = kron(identity(o.nv), dfu);
    o.duf_niv = kron(identity(o.niv), dfu);
    o.dub_nv = kron(identity(o.nv), dbu);
    o.dub_niv = kron(identity(o.niv), dbu);
    o.dvf_nu = kron(dfv, identity(o.nu));
    o.dvf_niu = kron(dfv, identity(o.niu));
    o.dvb_nu = kron(dbv, identity(o.nu));
    o.dvb_niu = kron(dbv, identity(o.niu));
    return o;
}

}  // namespace

std::array<int, 2> mode_component_shape_e(const ModeGrid2D& g, int comp) {
    const int niu = integer_nodes(g.nu, g.boundary_u), niv = integer_nodes(g.nv, g.boundary_v);
    switch (comp) {
        case 0: return {g.nu, niv};
        case 1: return {niu, g.nv};
        case 2: return {niu, niv};
    }
    throw std::invalid_argument("mode_component_shape_e: component must be 0, 1 or 2");
}

std::array<int, 2> mode_component_shape_h(const ModeGrid2D& g, int comp) {
    switch (comp) {
        case 0: return mode_component_shape_e(g, 1);
        case 1: return mode_component_shape_e(g, 0);
        case 2: return {g.nu, g.nv};
    }
    throw std::invalid_argument("mode_component_shape_h: component must be 0, 1 or 2");
}

std::array<double, 2> mode_node_position(const ModeGrid2D& g, int comp, bool h, int i, int j) {
    // half-node axes: E_u: u; E_v: v; E_w: none; H_u: v; H_v: u; H_w: both.
    bool half_u = false, half_v = false;
    if (!h) {
        half_u = comp == 0;
        half_v = comp == 1;
    } else {
        half_u = comp == 1 || comp == 2;
        half_v = comp == 0 || comp == 2;
    }
    const double u = half_u ? (i + 0.5) : (i + first_integer_node(g.boundary_u));
    const double v = half_v ? (j + 0.5) : (j + first_integer_node(g.boundary_v));
    return {u * g.dx_um, v * g.dx_um};
}

#if GOLIGHTLY_HAVE_SPECTRA
bool have_mode_solver_2d() { return true; }
#else
bool have_mode_solver_2d() { return false; }
#endif

namespace {

/// An operator of the cross-section as scalars S: the real part when S is double (the
/// phases are 0 then and the operators real).
template <class S>
Eigen::SparseMatrix<S> as_scalar(const SpMatC& m) {
    if constexpr (std::is_same_v<S, double>) return Eigen::SparseMatrix<double>(m.real());
    else return m;
}

template <class S>
Eigen::SparseMatrix<S> diag_of(const std::vector<S>& d) {
    Eigen::SparseMatrix<S> m(static_cast<int>(d.size()), static_cast<int>(d.size()));
    std::vector<Eigen::Triplet<S>> t;
    for (size_t i = 0; i < d.size(); ++i) t.emplace_back(static_cast<int>(i), static_cast<int>(i), d[i]);
    m.setFromTriplets(t.begin(), t.end());
    return m;
}

template <class S>
void put_block_t(std::vector<Eigen::Triplet<S>>& t, const Eigen::SparseMatrix<S>& b, int r0, int c0) {
    for (int k = 0; k < b.outerSize(); ++k)
        for (typename Eigen::SparseMatrix<S>::InnerIterator it(b, k); it; ++it)
            t.emplace_back(r0 + it.row(), c0 + it.col(), it.value());
}

/// P (rows [E_u; E_v], columns [H_u; H_v]), Q (rows [H_u; H_v], columns [E_u; E_v]) and
/// eps_w^-1 of the header comment, for eps given per node as scalars S (double or complex).
template <class S>
struct PQ {
    Eigen::SparseMatrix<S> P, Q, iew, imuw;
};

/// mu: relative permeability at the H nodes (mu[0] at H_u, mu[1] at H_v, mu[2] at H_w);
/// all empty: mu = 1.
template <class S>
PQ<S> build_pq(const Operators& o, const std::array<std::vector<S>, 3>& eps, const std::array<std::vector<S>, 3>& mu,
               double k0) {
    using M = Eigen::SparseMatrix<S>;
    const int neu = o.nu * o.niv, nev = o.niu * o.nv, n = neu + nev;
    // the difference operators: real without a Bloch phase (S = double), complex with one
    const M duf_niv = as_scalar<S>(o.duf_niv), dvb_niu = as_scalar<S>(o.dvb_niu), dub_niv = as_scalar<S>(o.dub_niv),
            dvf_niu = as_scalar<S>(o.dvf_niu), dub_nv = as_scalar<S>(o.dub_nv), dvf_nu = as_scalar<S>(o.dvf_nu),
            duf_nv = as_scalar<S>(o.duf_nv), dvb_nu = as_scalar<S>(o.dvb_nu);
    std::vector<S> inv(eps[2].size());
    for (size_t i = 0; i < inv.size(); ++i) inv[i] = S(1.0) / eps[2][i];
    PQ<S> r;
    r.iew = diag_of(inv);
    const M eu = diag_of(eps[0]), ev = diag_of(eps[1]);
    M Iu(neu, neu), Iv(nev, nev), imuw(o.nu * o.nv, o.nu * o.nv);
    if (mu[0].empty()) {
        Iu.setIdentity();  // mu_v at H_v (E_u's nodes)
        Iv.setIdentity();  // mu_u at H_u (E_v's nodes)
        imuw.setIdentity();
    } else {
        Iu = diag_of(mu[1]);
        Iv = diag_of(mu[0]);
        std::vector<S> im(mu[2].size());
        for (size_t i = 0; i < im.size(); ++i) im[i] = S(1.0) / mu[2][i];
        imuw = diag_of(im);
    }
    const S ik0 = S(1.0 / k0), sk0 = S(k0);
    r.imuw = imuw;
    r.P.resize(n, n);
    r.Q.resize(n, n);
    {
        std::vector<Eigen::Triplet<S>> t;
        put_block_t(t, M(-ik0 * (duf_niv * r.iew * dvb_niu)), 0, 0);
        put_block_t(t, M(sk0 * Iu + ik0 * (duf_niv * r.iew * dub_niv)), 0, nev);
        put_block_t(t, M(-sk0 * Iv - ik0 * (dvf_niu * r.iew * dvb_niu)), neu, 0);
        put_block_t(t, M(ik0 * (dvf_niu * r.iew * dub_niv)), neu, nev);
        r.P.setFromTriplets(t.begin(), t.end());
    }
    {
        std::vector<Eigen::Triplet<S>> t;
        put_block_t(t, M(ik0 * (dub_nv * imuw * dvf_nu)), 0, 0);
        put_block_t(t, M(-sk0 * ev - ik0 * (dub_nv * imuw * duf_nv)), 0, neu);
        put_block_t(t, M(sk0 * eu + ik0 * (dvb_nu * imuw * dvf_nu)), nev, 0);
        put_block_t(t, M(-ik0 * (dvb_nu * imuw * duf_nv)), nev, neu);
        r.Q.setFromTriplets(t.begin(), t.end());
    }
    return r;
}

/// Shift-invert Arnoldi for the `want` eigenvalues of the complex sparse A closest to
/// sigma: Krylov space of (A - sigma I)^-1 (Eigen SparseLU, factored once) with
/// two-pass classical Gram-Schmidt, Ritz pairs from the Hessenberg matrix (Eigen
/// ComplexEigenSolver), explicit restart from the sum of the wanted Ritz vectors until
/// each wanted pair has |h_{m+1,m} y_m| <= tol |theta| (Saad 2nd ed. sec. 6.2, 7.2;
/// lambda = sigma + 1/theta). Returns (eigenvalues, eigenvectors as columns), unsorted.
/// Throws std::runtime_error when the LU fails or the iteration does not converge.
std::pair<std::vector<cd>, std::vector<Eigen::VectorXcd>> shift_invert_arnoldi(const SpMatC& A, cd sigma, int want) {
    const int n = static_cast<int>(A.rows());
    SpMatC I(n, n);
    I.setIdentity();
    SpMatC B = A - sigma * I;
    B.makeCompressed();
    Eigen::SparseLU<SpMatC> lu;
    lu.compute(B);
    if (lu.info() != Eigen::Success)
        throw std::runtime_error("solve_modes_2d: the sparse LU of the shifted complex operator failed (shift on an eigenvalue?)");
    const int m = std::min(n, std::max(2 * want + 20, 40));
    const double tol = 1e-11;
    Eigen::VectorXcd v0(n);
    for (int i = 0; i < n; ++i) v0[i] = cd(1.0 + 0.3 * std::sin(0.37 * i), 0.2 * std::cos(0.11 * i));
    for (int restart = 0; restart < 60; ++restart) {
        Eigen::MatrixXcd V = Eigen::MatrixXcd::Zero(n, m + 1);
        Eigen::MatrixXcd H = Eigen::MatrixXcd::Zero(m + 1, m);
        V.col(0) = v0 / v0.norm();
        int mm = m;
        double hlast = 0;
        for (int j = 0; j < m; ++j) {
            Eigen::VectorXcd w = lu.solve(V.col(j));
            for (int pass = 0; pass < 2; ++pass) {
                const Eigen::VectorXcd h = V.leftCols(j + 1).adjoint() * w;
                w -= V.leftCols(j + 1) * h;
                H.col(j).head(j + 1) += h;
            }
            const double beta = w.norm();
            H(j + 1, j) = beta;
            hlast = beta;
            if (beta < 1e-14 * H.col(j).head(j + 1).norm()) {  // invariant subspace: exact Ritz pairs
                mm = j + 1;
                hlast = 0;
                break;
            }
            V.col(j + 1) = w / beta;
        }
        Eigen::ComplexEigenSolver<Eigen::MatrixXcd> es(H.topLeftCorner(mm, mm));
        if (es.info() != Eigen::Success) throw std::runtime_error("solve_modes_2d: Hessenberg eigen-solve failed");
        std::vector<int> idx(static_cast<size_t>(mm));
        for (int k = 0; k < mm; ++k) idx[static_cast<size_t>(k)] = k;
        std::sort(idx.begin(), idx.end(),
                  [&](int a, int b) { return std::abs(es.eigenvalues()[a]) > std::abs(es.eigenvalues()[b]); });
        const int k_want = std::min(want, mm);
        bool done = true;
        Eigen::VectorXcd next = Eigen::VectorXcd::Zero(n);
        std::vector<cd> lam;
        std::vector<Eigen::VectorXcd> vec;
        for (int q = 0; q < k_want; ++q) {
            const int k = idx[static_cast<size_t>(q)];
            const cd theta = es.eigenvalues()[k];
            const Eigen::VectorXcd y = es.eigenvectors().col(k);
            const double res = hlast * std::abs(y[mm - 1]) / y.norm();
            if (res > tol * std::abs(theta)) done = false;
            Eigen::VectorXcd x = V.leftCols(mm) * y;
            x /= x.norm();
            next += x;
            lam.push_back(sigma + 1.0 / theta);
            vec.push_back(std::move(x));
        }
        if (done || mm < m) return {lam, vec};
        v0 = next;
    }
    throw std::runtime_error("solve_modes_2d: the complex shift-invert Arnoldi iteration did not converge");
}

}  // namespace

namespace {

/// Offset (in n_eff) of the bent solves' shift from the straight modes' n_eff: well above
/// the Arnoldi iteration's resolution, well below the spacing of a guide's modes (~0.1) and
/// of the order of the shift a bend of a few um gives (+0.01 for the 500 x 220 nm strip at
/// R = 2 um).
constexpr double kBendTargetOffset = 1e-3;

/// |<a, b>| / (|a| |b|) over the transverse E components of two modes on the same grid.
double transverse_overlap(const VectorMode& a, const VectorMode& b) {
    std::complex<double> dot = 0;
    double na = 0, nb = 0;
    for (int d = 0; d < 2; ++d) {
        const auto& ea = a.e[static_cast<size_t>(d)];
        const auto& eb = b.e[static_cast<size_t>(d)];
        if (ea.size() != eb.size()) return 0;
        for (size_t i = 0; i < ea.size(); ++i) {
            dot += std::conj(ea[i]) * eb[i];
            na += std::norm(ea[i]);
            nb += std::norm(eb[i]);
        }
    }
    return na > 0 && nb > 0 ? std::abs(dot) / std::sqrt(na * nb) : 0.0;
}

}  // namespace

std::vector<VectorMode> solve_modes_2d(const ModeGrid2D& g, const ModeMedium2D& medium, double wavelength_um,
                                       const ModeSolveOptions& options) {
    if (options.bend_radius_um != 0 && !(options.target_neff > 0) && options.num_modes >= 1) {
        // A bent guide without a target: continued from the straight guide of the same
        // cross-section. In a window wide on the bend's outer side the transformed index
        // sqrt(eps) h grows outward, so the highest Re n_eff belong to waves along the outer
        // wall or in the PML rather than the guide; the guide's bent modes lie near its
        // straight ones (the bend shifts n_eff by ~n (w / R)^2). So: solve the straight guide
        // (no PML: real and fast), solve the bend near the straight fundamental's n_eff with
        // two spares (and again near the first straight mode still unmatched, at most three
        // solves), and order the bent modes by field overlap with the straight modes (mode
        // k of the bend is the one most like straight mode k, as a Tidy3D or MODE user tracks
        // a mode from R = infinity), the unmatched ones after them by Re n_eff.
        ModeSolveOptions straight = options;
        straight.bend_radius_um = 0;
        straight.pml_cells = {0, 0};
        std::vector<VectorMode> ref;
        try {
            ref = solve_modes_2d(g, medium, wavelength_um, straight);
        } catch (const std::runtime_error&) {
            ref.clear();  // no straight reference: the bend is solved from the medium's top index
        }
        if (!ref.empty()) {
            // Candidates from solves near the first straight mode not yet matched (the
            // fundamental first; a mode far below it, e.g. the TM0 under a strip's TE0, needs
            // its own shift), at most three solves.
            std::vector<VectorMode> pool;
            std::vector<int> match(ref.size(), -1);
            for (int solve = 0; solve < 3; ++solve) {
                size_t next = 0;
                while (next < ref.size() && match[next] >= 0) ++next;
                if (next == ref.size()) break;
                ModeSolveOptions bent = options;
                // just above the straight n_eff, not on it: a large radius leaves the bent
                // eigenvalue there, and a shift on an eigenvalue makes the shift-invert
                // operator singular (inaccurate vectors, no convergence)
                bent.target_neff = ref[next].n_eff + kBendTargetOffset;
                bent.num_modes = std::max(1, options.num_modes - static_cast<int>(next)) + 2;
                for (VectorMode& m : solve_modes_2d(g, medium, wavelength_um, bent)) {
                    bool known = false;  // the same eigenpair from an earlier solve
                    for (const VectorMode& q : pool)
                        known = known || std::abs(q.n_eff - m.n_eff) + std::abs(q.n_eff_imag - m.n_eff_imag) <
                                             1e-9 * std::max(1.0, std::abs(m.n_eff));
                    if (!known) pool.push_back(std::move(m));
                }
                // straight mode k takes the unclaimed candidate most like it (overlap > 0.5)
                std::vector<bool> taken(pool.size(), false);
                for (size_t r = 0; r < ref.size(); ++r) {
                    match[r] = -1;
                    double best = 0.5;
                    for (size_t k = 0; k < pool.size(); ++k) {
                        if (taken[k]) continue;
                        const double ov = transverse_overlap(ref[r], pool[k]);
                        if (ov > best) best = ov, match[r] = static_cast<int>(k);
                    }
                    if (match[r] >= 0) taken[static_cast<size_t>(match[r])] = true;
                }
                if (next == 0 && match[0] < 0) break;  // the fundamental has no bent partner: no continuation
            }
            std::vector<VectorMode> out;
            std::vector<bool> used(pool.size(), false);
            for (int k : match)
                if (k >= 0) {
                    used[static_cast<size_t>(k)] = true;
                    out.push_back(pool[static_cast<size_t>(k)]);
                }
            std::vector<size_t> rest;
            for (size_t k = 0; k < pool.size(); ++k)
                if (!used[k]) rest.push_back(k);
            std::sort(rest.begin(), rest.end(), [&](size_t a, size_t b) { return pool[a].n_eff > pool[b].n_eff; });
            for (size_t k : rest) out.push_back(pool[k]);
            if (out.size() > static_cast<size_t>(options.num_modes)) out.resize(static_cast<size_t>(options.num_modes));
            return out;
        }
    }
    if (g.nu < 1 || g.nv < 1) throw std::invalid_argument("solve_modes_2d: empty cross-section grid");
    if (!(g.dx_um > 0)) throw std::invalid_argument("solve_modes_2d: dx must be > 0");
    if (!std::isfinite(g.bloch_phase_u) || !std::isfinite(g.bloch_phase_v) ||
        (g.bloch_phase_u != 0 && g.boundary_u != ModeBoundary::periodic) ||
        (g.bloch_phase_v != 0 && g.boundary_v != ModeBoundary::periodic))
        throw std::invalid_argument("solve_modes_2d: a Bloch phase needs a periodic axis and must be finite");
    if (!(wavelength_um > 0)) throw std::invalid_argument("solve_modes_2d: wavelength must be > 0");
    if (options.num_modes < 1) throw std::invalid_argument("solve_modes_2d: num_modes must be >= 1");
    const bool has_imag = !medium.eps_imag[0].empty() || !medium.eps_imag[1].empty() || !medium.eps_imag[2].empty();
    for (int d = 0; d < 3; ++d) {
        const auto s = mode_component_shape_e(g, d);
        if (s[0] < 1 || s[1] < 1) throw std::invalid_argument("solve_modes_2d: a field component has no nodes (PEC axis of one cell)");
        if (medium.eps[d].size() != static_cast<size_t>(s[0]) * static_cast<size_t>(s[1]))
            throw std::invalid_argument("solve_modes_2d: eps[" + std::to_string(d) + "] has " +
                                        std::to_string(medium.eps[d].size()) + " entries, expected " +
                                        std::to_string(s[0] * s[1]));
        if (!medium.eps_group[d].empty() && medium.eps_group[d].size() != medium.eps[d].size())
            throw std::invalid_argument("solve_modes_2d: eps_group[" + std::to_string(d) + "] has " +
                                        std::to_string(medium.eps_group[d].size()) + " entries, expected " +
                                        std::to_string(medium.eps[d].size()));
        if (has_imag && medium.eps_imag[d].size() != medium.eps[d].size())
            throw std::invalid_argument("solve_modes_2d: eps_imag[" + std::to_string(d) + "] has " +
                                        std::to_string(medium.eps_imag[d].size()) + " entries, expected " +
                                        std::to_string(medium.eps[d].size()));
    }
#if !GOLIGHTLY_HAVE_SPECTRA
    throw std::runtime_error("solve_modes_2d: this build has no sparse eigen-solver (Spectra); install libspectra-dev");
#else
    const Operators o = make_operators(g);
    const double k0 = 2.0 * M_PI / wavelength_um;
    const int neu = o.nu * o.niv;  // E_u (h, n); also H_v
    const int nev = o.niu * o.nv;  // E_v (n, h); also H_u
    const int n = neu + nev;
    if (n < 3) throw std::invalid_argument("solve_modes_2d: cross-section too small for the eigen-solver (< 3 unknowns)");

    // Bend (metric factor h along w) and PML (complex stretches s_u, s_v) as equivalent
    // anisotropic eps' and mu' (header: ModeSolveOptions): the factor of component a is
    // s_u s_v s_w / s_a^2 at the component's own node, s_w = h.
    const double R = options.bend_radius_um;
    const bool bent = R != 0;
    if (bent && options.bend_axis != 0 && options.bend_axis != 1)
        throw std::invalid_argument("solve_modes_2d: bend_axis must be 0 (u) or 1 (v)");
    if (!std::isfinite(R)) throw std::invalid_argument("solve_modes_2d: bend_radius_um must be finite");
    const int ncell[2] = {g.nu, g.nv};
    for (int a = 0; a < 2; ++a)
        if (options.pml_cells[a] < 0 || 2 * options.pml_cells[a] >= ncell[a])
            throw std::invalid_argument(std::string("solve_modes_2d: pml_cells along ") + (a == 0 ? "u" : "v") +
                                        " must be >= 0 and leave cells between the layers (" +
                                        std::to_string(options.pml_cells[a]) + " of " + std::to_string(ncell[a]) + ")");
    const bool has_pml = options.pml_cells[0] > 0 || options.pml_cells[1] > 0;
    auto stretch = [&](int a, double x) -> cd {  // PML stretch of axis a at coordinate x (um)
        const int np = options.pml_cells[a];
        if (np == 0) return cd(1.0, 0.0);
        const double L = np * g.dx_um, len = ncell[a] * g.dx_um;
        const double d = std::max({0.0, L - x, x - (len - L)});  // depth into the layer
        const double smax = 4.0 * std::log(1e8) / (2.0 * k0 * L);
        return cd(1.0, smax * std::pow(d / L, 3));
    };
    auto metric = [&](double pos_u, double pos_v) -> double {  // bend metric h at (u, v)
        if (!bent) return 1.0;
        const double x = (options.bend_axis == 0 ? pos_u : pos_v) - options.bend_reference_um;
        return 1.0 + x / R;
    };
    // factor[a] of E component a (e) or H component a (h) at each of its nodes
    auto factors = [&](bool hfield, int comp, std::vector<cd>& f, std::vector<double>& hw) {
        const auto sh = hfield ? mode_component_shape_h(g, comp) : mode_component_shape_e(g, comp);
        f.resize(static_cast<size_t>(sh[0]) * static_cast<size_t>(sh[1]));
        hw.resize(f.size());
        for (int j = 0; j < sh[1]; ++j)
            for (int i = 0; i < sh[0]; ++i) {
                const auto pos = mode_node_position(g, comp, hfield, i, j);
                const double h = metric(pos[0], pos[1]);
                if (!(h > 0))
                    throw std::invalid_argument("solve_modes_2d: the bend's centre of curvature lies inside the "
                                                "cross-section window (1 + x/R <= 0 at a node; |bend_radius_um| too "
                                                "small for the window)");
                const cd su = stretch(0, pos[0]), sv = stretch(1, pos[1]);
                const cd sa = comp == 0 ? su : comp == 1 ? sv : cd(h, 0.0);
                const size_t k = static_cast<size_t>(j) * static_cast<size_t>(sh[0]) + static_cast<size_t>(i);
                f[k] = su * sv * h / (sa * sa);
                hw[k] = h;
            }
    };
    const bool transformed = bent || has_pml;
    // E nodes inside a PML layer (depth > 0 along u or v), for the PML-mode filter below
    std::array<std::vector<char>, 3> e_in_pml;
    if (has_pml)
        for (int d = 0; d < 3; ++d) {
            const auto sh = mode_component_shape_e(g, d);
            e_in_pml[d].resize(static_cast<size_t>(sh[0]) * static_cast<size_t>(sh[1]));
            for (int j = 0; j < sh[1]; ++j)
                for (int i = 0; i < sh[0]; ++i) {
                    const auto pos = mode_node_position(g, d, false, i, j);
                    e_in_pml[d][static_cast<size_t>(j) * static_cast<size_t>(sh[0]) + static_cast<size_t>(i)] =
                        stretch(0, pos[0]).imag() > 0 || stretch(1, pos[1]).imag() > 0;
                }
        }
    // Bent windows with PML on the outer side of the bend: the largest local index of the
    // equivalent straight guide, sqrt|eps| h, on the E nodes within one cell inside that
    // layer's inner edge (VectorMode::bend_loss_resolved compares it with n_eff).
    const int ba = options.bend_axis;
    const bool outer_pml = bent && options.pml_cells[ba] > 0;
    double n_outer_edge = 0;
    double outer_edge_um = 0;  // from the reference line, on the outer side
    if (outer_pml) {
        const double L = options.pml_cells[ba] * g.dx_um, len = ncell[ba] * g.dx_um;
        const double edge = R > 0 ? len - L : L;  // the outer layer's inner edge (window coordinate)
        outer_edge_um = std::abs(edge - options.bend_reference_um);
        for (int d = 0; d < 3; ++d) {
            const auto sh = mode_component_shape_e(g, d);
            for (int j = 0; j < sh[1]; ++j)
                for (int i = 0; i < sh[0]; ++i) {
                    const auto pos = mode_node_position(g, d, false, i, j);
                    const double x = pos[static_cast<size_t>(ba)];
                    const double inside = R > 0 ? edge - x : x - edge;  // distance inside the interior
                    if (inside < -1e-9 * g.dx_um || inside > g.dx_um * (1 + 1e-9)) continue;
                    const size_t k = static_cast<size_t>(j) * static_cast<size_t>(sh[0]) + static_cast<size_t>(i);
                    const double h = metric(pos[0], pos[1]);
                    n_outer_edge = std::max(n_outer_edge, std::sqrt(std::abs(medium.eps[d][k])) * h);
                }
        }
    }
    std::array<std::vector<cd>, 3> feps, fmu;
    std::array<std::vector<double>, 3> heps, hmu;
    if (transformed)
        for (int d = 0; d < 3; ++d) {
            factors(false, d, feps[d], heps[d]);
            factors(true, d, fmu[d], hmu[d]);
        }
    // eps' (complex) and mu' at their nodes
    std::array<std::vector<cd>, 3> ec, muc;
    double emax = 0, imax_abs = 0, nmax = 0;
    for (int d = 0; d < 3; ++d) {
        ec[d].resize(medium.eps[d].size());
        for (size_t i = 0; i < ec[d].size(); ++i) {
            const double im = has_imag ? medium.eps_imag[d][i] : 0.0;
            nmax = std::max(nmax, std::sqrt(std::max(medium.eps[d][i], 0.0)));
            ec[d][i] = cd(medium.eps[d][i], im) * (transformed ? feps[d][i] : cd(1.0, 0.0));
            emax = std::max(emax, std::abs(ec[d][i]));
            imax_abs = std::max(imax_abs, std::abs(ec[d][i].imag()));
        }
        if (transformed) {
            muc[d] = fmu[d];
            for (const cd& x : muc[d]) imax_abs = std::max(imax_abs, std::abs(x.imag()));
        }
    }
    // a Bloch phase makes the operator complex: the complex path, as for a lossy medium
    const bool bloch = g.bloch_phase_u != 0 || g.bloch_phase_v != 0;
    const bool lossy = imax_abs > kLosslessImagRatio * emax || bloch;
    const double ntarget = options.target_neff > 0 ? options.target_neff : nmax;
    // A target taken from a solved mode (the Port Modes dock's double-click writes the
    // picked mode's n_eff) puts the shift on an eigenvalue to the last bit: A - sigma I is
    // then singular and the shift-invert solve returns nothing or NaN. 1e-8 relative in
    // beta^2 moves it off the eigenvalue (its modes still come out nearest the target;
    // the converged values do not depend on the shift).
    const double sigma = k0 * k0 * ntarget * ntarget * (options.target_neff > 0 ? 1.0 + 1e-8 : 1.0);
    // With PML, modes of the absorbing layers themselves (most of their energy inside a
    // layer) come out of the shift-invert iteration beside the guide's and are dropped
    // (below); when none remains, the eigen-solve is repeated once asking for twice as many
    // more as were dropped. Not whenever fewer than num_modes remain, nor for many more: the
    // restarted Arnoldi converges more slowly the more pairs it must hold (the strip test's
    // four modes at R = 2 um: 80 s, 250 s with that retry); a second solve that does not
    // converge leaves the first's modes.
    std::vector<VectorMode> modes;
    int dropped = 0;  // modes of the PML in the last solve
    for (int attempt = 0; attempt < (has_pml ? 2 : 1); ++attempt) {
        // the second solve: room for twice the dropped ones (at most kPmlSpareModes more)
        const int spare = attempt > 0 ? std::min(2 * dropped, kPmlSpareModes) : 0;
        const int want = std::min(options.num_modes + spare, n - 2);  // Spectra: nev < n - 1
        dropped = 0;
        try {

            // Eigenpairs of P Q (lambda = beta^2), as complex values / vectors for both paths.
            std::vector<cd> lambdas;
            std::vector<Eigen::VectorXcd> vecs;
            SpMatC Qc, iewc, imuwc;
            if (!lossy) {
                std::array<std::vector<double>, 3> er, mr;
                for (int d = 0; d < 3; ++d) {
                    er[d].resize(ec[d].size());
                    for (size_t i = 0; i < er[d].size(); ++i) er[d][i] = ec[d][i].real();
                    mr[d].resize(muc[d].size());
                    for (size_t i = 0; i < mr[d].size(); ++i) mr[d][i] = muc[d][i].real();
                }
                const PQ<double> pq = build_pq<double>(o, er, mr, k0);
                SpMat A = pq.P * pq.Q;
                A.makeCompressed();
                const int ncv = std::min(n, std::max(2 * want + 1, 20));
                Spectra::SparseGenRealShiftSolve<double> op(A);
                Spectra::GenEigsRealShiftSolver<Spectra::SparseGenRealShiftSolve<double>> eigs(op, want, ncv, sigma);
                eigs.init();
                eigs.compute(Spectra::SortRule::LargestMagn, 2000, 1e-12);
                if (eigs.info() != Spectra::CompInfo::Successful)
                    throw std::runtime_error("solve_modes_2d: the shift-invert eigen-solver did not converge");
                const Eigen::VectorXcd ls = eigs.eigenvalues();
                const Eigen::MatrixXcd vs = eigs.eigenvectors();
                for (Eigen::Index k = 0; k < ls.size(); ++k) {
                    // a real operator: its eigenvalues of interest are real; the eigenvector is
                    // real up to a phase (rotate the largest entry to 0 and keep the real part)
                    lambdas.push_back(cd(ls[k].real(), 0.0));
                    Eigen::VectorXcd vc = vs.col(k);
                    Eigen::Index im = 0;
                    vc.cwiseAbs().maxCoeff(&im);
                    vc *= std::conj(vc[im]) / std::abs(vc[im]);
                    vecs.push_back(vc.real().cast<cd>());
                }
                Qc = pq.Q.cast<cd>();
                iewc = pq.iew.cast<cd>();
                imuwc = pq.imuw.cast<cd>();
            } else {
                const PQ<cd> pq = build_pq<cd>(o, ec, muc, k0);
                SpMatC A = pq.P * pq.Q;
                A.makeCompressed();
                auto r = shift_invert_arnoldi(A, cd(sigma, 0.0), want);
                lambdas = std::move(r.first);
                vecs = std::move(r.second);
                Qc = pq.Q;
                iewc = pq.iew;
                imuwc = pq.imuw;
            }

            std::vector<int> order;
            for (int k = 0; k < static_cast<int>(lambdas.size()); ++k)
                if (lambdas[static_cast<size_t>(k)].real() > 0) order.push_back(k);
            std::sort(order.begin(), order.end(), [&](int a, int b) {
                return std::sqrt(lambdas[static_cast<size_t>(a)]).real() > std::sqrt(lambdas[static_cast<size_t>(b)]).real();
            });

            const SpMatC &dub_niv = o.dub_niv, &dvb_niu = o.dvb_niu, &duf_nv = o.duf_nv, &dvf_nu = o.dvf_nu;
            const double dA = g.dx_um * g.dx_um;
            const cd I(0.0, 1.0);
            std::vector<VectorMode> found;
            for (int k : order) {
                VectorMode m;
                const cd beta = std::sqrt(lambdas[static_cast<size_t>(k)]);  // principal root: Re beta > 0
                m.beta_per_um = beta.real();
                m.n_eff = beta.real() / k0;
                m.n_eff_imag = beta.imag() / k0;
                m.loss_db_per_cm = 20.0 / std::log(10.0) * beta.imag() * 1e4;  // Im beta: 1/um -> 1/cm
                if (bent) m.loss_db_per_90deg = 20.0 / std::log(10.0) * beta.imag() * (M_PI * std::abs(R) / 2.0);
                if (bent) {
                    // The bend radiates beyond the caustic, where the equivalent index n h reaches n_eff
                    // (Marcuse, Light Transmission Optics, ch. 9: x_c = |R| (n_eff / n_clad - 1)).
                    m.bend_loss_resolved = outer_pml && n_outer_edge >= m.n_eff;
                    m.outer_window_um = outer_pml ? outer_edge_um : 0.0;
                }
                Eigen::VectorXcd e = vecs[static_cast<size_t>(k)];
                {
                    Eigen::Index imx = 0;
                    e.cwiseAbs().maxCoeff(&imx);
                    e *= std::conj(e[imx]) / std::abs(e[imx]);
                }
                const Eigen::VectorXcd hvec = (Qc * e) / beta;  // [H_u; H_v]
                const Eigen::VectorXcd Eu = e.head(neu), Ev = e.tail(nev);
                const Eigen::VectorXcd Hu = hvec.head(nev), Hv = hvec.tail(neu);
                // E_w = (i/k0) eps_w^-1 (Db_u H_v - Db_v H_u); H_w = (-i/k0) (Df_u E_v - Df_v E_u).
                Eigen::VectorXcd ew = (I / k0) * (iewc * (dub_niv * Hv - dvb_niu * Hu));
                Eigen::VectorXcd hw = (-I / k0) * (imuwc * (duf_nv * Ev - dvf_nu * Eu));
                if (bent) {  // transformed E'_w = h E_w, H'_w = h H_w: back to the physical fields
                    for (Eigen::Index i = 0; i < ew.size(); ++i) ew[i] /= heps[2][static_cast<size_t>(i)];
                    for (Eigen::Index i = 0; i < hw.size(); ++i) hw[i] /= hmu[2][static_cast<size_t>(i)];
                }
                // (1/2) Re sum (E x H*)_w dA
                const double power = 0.5 * (Hv.dot(Eu) - Hu.dot(Ev)).real() * dA;  // dot conjugates its first argument
                if (!(power > 0)) continue;  // h = Q e / beta with Re beta > 0: a forward mode carries power > 0
                const double sc = 1.0 / std::sqrt(power);
                auto to_v = [sc](const Eigen::VectorXcd& v) {
                    std::vector<cd> out(static_cast<size_t>(v.size()));
                    for (Eigen::Index i = 0; i < v.size(); ++i) out[static_cast<size_t>(i)] = sc * v[i];
                    return out;
                };
                m.e[0] = to_v(Eu);
                m.e[1] = to_v(Ev);
                m.e[2] = to_v(ew);
                m.h[0] = to_v(Hu);
                m.h[1] = to_v(Hv);
                m.h[2] = to_v(hw);
                // Energy and power for n_group; TE fraction.
                double we = 0, wh = 0, eu2 = 0, ev2 = 0;
                for (int d = 0; d < 3; ++d) {
                    for (size_t i = 0; i < m.e[d].size(); ++i) {
                        const double a2 = std::norm(m.e[d][i]);
                        // transformed problem's energy: eps' |E'|^2, E'_w = h E_w (physical E stored)
                        const double fe = transformed ? feps[d][i].real() * (d == 2 ? heps[2][i] * heps[2][i] : 1.0) : 1.0;
                        we += fe * (medium.eps_group[d].empty() ? medium.eps[d][i] : medium.eps_group[d][i]) * a2;
                        if (d == 0) eu2 += a2;
                        if (d == 1) ev2 += a2;
                    }
                    for (size_t i = 0; i < m.h[d].size(); ++i) {
                        const double fh = transformed ? fmu[d][i].real() * (d == 2 ? hmu[2][i] * hmu[2][i] : 1.0) : 1.0;
                        wh += fh * std::norm(m.h[d][i]);
                    }
                }
                m.n_group = 0.5 * (we + wh) * dA / 2.0;  // / Re sum (E x H*)_w dA = 2 (power 1)
                m.te_fraction = eu2 / (eu2 + ev2);
                if (has_pml) {
                    // electric energy sum |eps| |E|^2 inside the layers over the whole window's
                    double in = 0, all = 0;
                    for (int d = 0; d < 3; ++d)
                        for (size_t i = 0; i < m.e[d].size(); ++i) {
                            const double w = std::abs(medium.eps[d][i]) * std::norm(m.e[d][i]);
                            all += w;
                            if (e_in_pml[d][i]) in += w;
                        }
                    m.pml_energy_fraction = all > 0 ? in / all : 0.0;
                    if (m.pml_energy_fraction > kMaxPmlEnergyFraction) {  // a mode of the absorber
                        ++dropped;
                        continue;
                    }
                }
                found.push_back(std::move(m));
                if (static_cast<int>(found.size()) == options.num_modes) break;
            }
            if (!found.empty() || dropped == 0 || attempt > 0) {
                if (found.size() > modes.size()) modes = std::move(found);
                break;
            }
            modes = std::move(found);
        } catch (const std::runtime_error&) {
            if (attempt == 0) throw;
            break;  // the spares did not converge: the first solve's modes stand
        }
    }
    return modes;
#endif
}

}  // namespace golightly
