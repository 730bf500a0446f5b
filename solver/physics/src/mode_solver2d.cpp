// GoLightly: full-vector finite-difference eigenmodes of a 2D cross-section (method in
// mode_solver2d.hpp).
#include "golightly/mode_solver2d.hpp"

#include <Eigen/Sparse>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

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

// Forward difference of one axis: half nodes (rows, n) x integer nodes (columns), 1/dx.
SpMat forward_difference(int n, ModeBoundary b, double dx) {
    const int ni = integer_nodes(n, b);
    std::vector<Trip> t;
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
        if (chi >= 0) t.emplace_back(r, chi, s);
        if (clo >= 0) t.emplace_back(r, clo, -s);
    }
    SpMat m(n, std::max(ni, 0));
    m.setFromTriplets(t.begin(), t.end());  // sums duplicates (periodic n = 1: 0)
    return m;
}

SpMat identity(int n) {
    SpMat m(n, n);
    m.setIdentity();
    return m;
}

// Kronecker product of sparse matrices (a outer, b inner): (a (x) b)[(ia*rb+ib),(ja*cb+jb)].
SpMat kron(const SpMat& a, const SpMat& b) {
    std::vector<Trip> t;
    t.reserve(static_cast<size_t>(a.nonZeros()) * static_cast<size_t>(b.nonZeros()));
    for (int ka = 0; ka < a.outerSize(); ++ka)
        for (SpMat::InnerIterator ia(a, ka); ia; ++ia)
            for (int kb = 0; kb < b.outerSize(); ++kb)
                for (SpMat::InnerIterator ib(b, kb); ib; ++ib)
                    t.emplace_back(ia.row() * b.rows() + ib.row(), ia.col() * b.cols() + ib.col(),
                                   ia.value() * ib.value());
    SpMat m(a.rows() * b.rows(), a.cols() * b.cols());
    m.setFromTriplets(t.begin(), t.end());
    return m;
}

SpMat diag(const std::vector<double>& d) {
    SpMat m(static_cast<int>(d.size()), static_cast<int>(d.size()));
    std::vector<Trip> t;
    for (size_t i = 0; i < d.size(); ++i) t.emplace_back(static_cast<int>(i), static_cast<int>(i), d[i]);
    m.setFromTriplets(t.begin(), t.end());
    return m;
}

void put_block(std::vector<Trip>& t, const SpMat& b, int r0, int c0) {
    for (int k = 0; k < b.outerSize(); ++k)
        for (SpMat::InnerIterator it(b, k); it; ++it) t.emplace_back(r0 + it.row(), c0 + it.col(), it.value());
}

// The operators of the cross-section (header comment), for one grid.
struct Operators {
    int nu = 0, nv = 0, niu = 0, niv = 0;
    SpMat duf_nv, duf_niv, dvf_nu, dvf_niu;  // forward: Du_f(v count), Dv_f(u count)
    SpMat dub_nv, dub_niv, dvb_nu, dvb_niu;  // backward
};

Operators make_operators(const ModeGrid2D& g) {
    Operators o;
    o.nu = g.nu;
    o.nv = g.nv;
    o.niu = integer_nodes(g.nu, g.boundary_u);
    o.niv = integer_nodes(g.nv, g.boundary_v);
    const SpMat dfu = forward_difference(g.nu, g.boundary_u, g.dx_um);
    const SpMat dfv = forward_difference(g.nv, g.boundary_v, g.dx_um);
    const SpMat dbu = -SpMat(dfu.transpose());
    const SpMat dbv = -SpMat(dfv.transpose());
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

std::vector<VectorMode> solve_modes_2d(const ModeGrid2D& g, const ModeMedium2D& medium, double wavelength_um,
                                       const ModeSolveOptions& options) {
    if (g.nu < 1 || g.nv < 1) throw std::invalid_argument("solve_modes_2d: empty cross-section grid");
    if (!(g.dx_um > 0)) throw std::invalid_argument("solve_modes_2d: dx must be > 0");
    if (!(wavelength_um > 0)) throw std::invalid_argument("solve_modes_2d: wavelength must be > 0");
    if (options.num_modes < 1) throw std::invalid_argument("solve_modes_2d: num_modes must be >= 1");
    for (int d = 0; d < 3; ++d) {
        const auto s = mode_component_shape_e(g, d);
        if (s[0] < 1 || s[1] < 1) throw std::invalid_argument("solve_modes_2d: a field component has no nodes (PEC axis of one cell)");
        if (medium.eps[d].size() != static_cast<size_t>(s[0]) * static_cast<size_t>(s[1]))
            throw std::invalid_argument("solve_modes_2d: eps[" + std::to_string(d) + "] has " +
                                        std::to_string(medium.eps[d].size()) + " entries, expected " +
                                        std::to_string(s[0] * s[1]));
    }
#if !GOLIGHTLY_HAVE_SPECTRA
    throw std::runtime_error("solve_modes_2d: this build has no sparse eigen-solver (Spectra); install libspectra-dev");
#else
    const Operators o = make_operators(g);
    const double k0 = 2.0 * M_PI / wavelength_um;
    const int neu = o.nu * o.niv;  // E_u (h, n); also H_v
    const int nev = o.niu * o.nv;  // E_v (n, h); also H_u
    const int n = neu + nev;

    std::vector<double> inv_eps_w(medium.eps[2].size());
    for (size_t i = 0; i < inv_eps_w.size(); ++i) inv_eps_w[i] = 1.0 / medium.eps[2][i];
    const SpMat iew = diag(inv_eps_w);
    const SpMat eu = diag(medium.eps[0]), ev = diag(medium.eps[1]);

    // P: rows [E_u; E_v], columns [H_u; H_v].
    SpMat P(n, n), Q(n, n);
    {
        std::vector<Trip> t;
        put_block(t, SpMat(-(1.0 / k0) * (o.duf_niv * iew * o.dvb_niu)), 0, 0);
        put_block(t, SpMat(k0 * identity(neu) + (1.0 / k0) * (o.duf_niv * iew * o.dub_niv)), 0, nev);
        put_block(t, SpMat(-k0 * identity(nev) - (1.0 / k0) * (o.dvf_niu * iew * o.dvb_niu)), neu, 0);
        put_block(t, SpMat((1.0 / k0) * (o.dvf_niu * iew * o.dub_niv)), neu, nev);
        P.setFromTriplets(t.begin(), t.end());
    }
    // Q: rows [H_u; H_v], columns [E_u; E_v].
    {
        std::vector<Trip> t;
        put_block(t, SpMat((1.0 / k0) * (o.dub_nv * o.dvf_nu)), 0, 0);
        put_block(t, SpMat(-k0 * ev - (1.0 / k0) * (o.dub_nv * o.duf_nv)), 0, neu);
        put_block(t, SpMat(k0 * eu + (1.0 / k0) * (o.dvb_nu * o.dvf_nu)), nev, 0);
        put_block(t, SpMat(-(1.0 / k0) * (o.dvb_nu * o.duf_nv)), nev, neu);
        Q.setFromTriplets(t.begin(), t.end());
    }
    SpMat A = P * Q;
    A.makeCompressed();

    double nmax = 0;
    for (const auto& e : medium.eps)
        for (double x : e) nmax = std::max(nmax, std::sqrt(std::max(x, 0.0)));
    const double ntarget = options.target_neff > 0 ? options.target_neff : nmax;
    const double sigma = k0 * k0 * ntarget * ntarget;

    if (n < 3) throw std::invalid_argument("solve_modes_2d: cross-section too small for the eigen-solver (< 3 unknowns)");
    const int want = std::min(options.num_modes, n - 2);  // Spectra: nev < n - 1
    const int ncv = std::min(n, std::max(2 * want + 1, 20));
    Spectra::SparseGenRealShiftSolve<double> op(A);
    Spectra::GenEigsRealShiftSolver<Spectra::SparseGenRealShiftSolve<double>> eigs(op, want, ncv, sigma);
    eigs.init();
    eigs.compute(Spectra::SortRule::LargestMagn, 2000, 1e-12);
    if (eigs.info() != Spectra::CompInfo::Successful)
        throw std::runtime_error("solve_modes_2d: the shift-invert eigen-solver did not converge");
    const Eigen::VectorXcd lambdas = eigs.eigenvalues();
    const Eigen::MatrixXcd vecs = eigs.eigenvectors();

    std::vector<int> order;
    for (int k = 0; k < lambdas.size(); ++k)
        if (lambdas[k].real() > 0) order.push_back(k);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return lambdas[a].real() > lambdas[b].real(); });

    const double dA = g.dx_um * g.dx_um;
    std::vector<VectorMode> modes;
    for (int k : order) {
        VectorMode m;
        const double beta = std::sqrt(lambdas[k].real());
        m.beta_per_um = beta;
        m.n_eff = beta / k0;
        // Real eigenvector: rotate the phase of the largest entry to 0, keep the real part.
        Eigen::VectorXcd vc = vecs.col(k);
        Eigen::Index imax = 0;
        vc.cwiseAbs().maxCoeff(&imax);
        vc *= std::conj(vc[imax]) / std::abs(vc[imax]);
        const Eigen::VectorXd e = vc.real();
        const Eigen::VectorXd hvec = (Q * e) / beta;  // [H_u; H_v]
        const Eigen::VectorXd Eu = e.head(neu), Ev = e.tail(nev);
        const Eigen::VectorXd Hu = hvec.head(nev), Hv = hvec.tail(neu);
        // E_w = (i/k0) eps_w^-1 (Db_u H_v - Db_v H_u); H_w = (-i/k0) (Df_u E_v - Df_v E_u).
        const Eigen::VectorXd ew_im = (1.0 / k0) * (iew * (o.dub_niv * Hv - o.dvb_niu * Hu));
        const Eigen::VectorXd hw_im = (-1.0 / k0) * (o.duf_nv * Ev - o.dvf_nu * Eu);
        const double power = 0.5 * (Eu.dot(Hv) - Ev.dot(Hu)) * dA;
        if (!(power > 0)) continue;  // h = Q e / beta with beta > 0: a forward mode carries power > 0
        const double sc = 1.0 / std::sqrt(power);
        auto to_c = [sc](const Eigen::VectorXd& v, bool imag) {
            std::vector<std::complex<double>> out(static_cast<size_t>(v.size()));
            for (Eigen::Index i = 0; i < v.size(); ++i)
                out[static_cast<size_t>(i)] = imag ? std::complex<double>(0, sc * v[i]) : std::complex<double>(sc * v[i], 0);
            return out;
        };
        m.e[0] = to_c(Eu, false);
        m.e[1] = to_c(Ev, false);
        m.e[2] = to_c(ew_im, true);
        m.h[0] = to_c(Hu, false);
        m.h[1] = to_c(Hv, false);
        m.h[2] = to_c(hw_im, true);
        // Energy and power for n_group; TE fraction.
        double we = 0, wh = 0, eu2 = 0, ev2 = 0;
        for (int d = 0; d < 3; ++d) {
            for (size_t i = 0; i < m.e[d].size(); ++i) {
                const double a2 = std::norm(m.e[d][i]);
                we += medium.eps[d][i] * a2;
                if (d == 0) eu2 += a2;
                if (d == 1) ev2 += a2;
            }
            for (const auto& x : m.h[d]) wh += std::norm(x);
        }
        m.n_group = 0.5 * (we + wh) * dA / 2.0;  // / Re sum (E x H*)_w dA = 2 (power 1)
        m.te_fraction = eu2 / (eu2 + ev2);
        modes.push_back(std::move(m));
    }
    return modes;
#endif
}

}  // namespace golightly
