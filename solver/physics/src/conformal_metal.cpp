// GoLightly: partial fractions of a metal's cut-cell permittivity (conformal_metal.hpp).
#include "golightly/conformal_metal.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

#include <Eigen/Dense>

namespace golightly {

namespace {

using Mat = Eigen::MatrixXd;
using Vec = Eigen::VectorXd;
using cd = std::complex<double>;

/// A single-input single-output state-space system G(s) = D + C (s I - A)^-1 B.
struct Ss {
    Mat A;
    Vec B, C;  // C as a column (the row is C^T)
    double D = 0;
};

/// eps_m(s) of the metal's poles with s scaled by 1 / w_ref: each pole
/// c / (s^2 + g s + w0^2) a block x1' = x2, x2' = -w0^2 x1 - g x2 + u, y = c x1.
Ss metal_system(const Material& m, double w_ref) {
    const int n = 2 * int(m.poles.size());
    Ss s;
    s.A = Mat::Zero(n, n);
    s.B = Vec::Zero(n);
    s.C = Vec::Zero(n);
    s.D = m.epsilon_inf;
    for (std::size_t q = 0; q < m.poles.size(); ++q) {
        const Pole& p = m.poles[q];
        const double w0 = (p.kind == PoleKind::Drude ? 0.0 : p.omega_0) / w_ref, g = p.gamma / w_ref,
                     wp = p.omega_p / w_ref;
        const int k = 2 * int(q);
        s.A(k, k + 1) = 1.0;
        s.A(k + 1, k) = -w0 * w0;
        s.A(k + 1, k + 1) = -g;
        s.B(k + 1) = 1.0;
        s.C(k) = wp * wp;
    }
    return s;
}

/// 1 / G(s): (A - B C^T / D, B / D, -C / D, 1 / D).
Ss inverse(const Ss& g) {
    Ss r;
    r.A = g.A - g.B * g.C.transpose() / g.D;
    r.B = g.B / g.D;
    r.C = -g.C / g.D;
    r.D = 1.0 / g.D;
    return r;
}

/// k G(s) + c.
Ss scaled(const Ss& g, double k, double c) {
    Ss r = g;
    r.C *= k;
    r.D = k * g.D + c;
    return r;
}

/// G1(s) + G2(s) (states side by side).
Ss sum(const Ss& a, const Ss& b) {
    const int na = int(a.A.rows()), nb = int(b.A.rows());
    Ss r;
    r.A = Mat::Zero(na + nb, na + nb);
    r.A.topLeftCorner(na, na) = a.A;
    r.A.bottomRightCorner(nb, nb) = b.A;
    r.B.resize(na + nb);
    r.B << a.B, b.B;
    r.C.resize(na + nb);
    r.C << a.C, b.C;
    r.D = a.D + b.D;
    return r;
}

}  // namespace

CutCellResponse cut_cell_response(const Material& metal, double f, double p, double h, double a) {
    if (!(f > 0.0 && f <= 1.0)) throw std::invalid_argument("cut_cell_response: fraction f must lie in (0, 1]");
    if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("cut_cell_response: p = n_d^2 must lie in [0, 1]");
    if (f < 1.0 && !(h > 0.0 && a > 0.0))
        throw std::invalid_argument("cut_cell_response: h and a of the other materials must be > 0");
    if (metal.conductivity != 0.0)
        throw std::invalid_argument("cut_cell_response: material '" + metal.id + "' has a conductivity");
    if (metal.poles.empty()) throw std::invalid_argument("cut_cell_response: material '" + metal.id + "' has no poles");
    if (f >= 1.0) {
        h = 0.0;
        a = 0.0;
    }
    CutCellResponse out;
    if (p <= 1e-12 || f >= 1.0) {  // the arithmetic mean: the poles weighted by f
        out.epsilon_inf = f * metal.epsilon_inf + a;
        for (const Pole& q : metal.poles) {
            GeneralizedPole t;
            t.b0 = f * q.omega_p * q.omega_p;
            t.gamma = q.gamma;
            const double w0 = q.kind == PoleKind::Drude ? 0.0 : q.omega_0;
            t.omega_0_sq = w0 * w0;
            out.terms.push_back(t);
        }
        return out;
    }
    double w_ref = 0;
    for (const Pole& q : metal.poles) w_ref = std::max({w_ref, q.omega_p, q.omega_0, q.gamma});
    if (!(w_ref > 0)) throw std::invalid_argument("cut_cell_response: material '" + metal.id + "' has null poles");
    const Ss em = metal_system(metal, w_ref);
    // (1): 1/eps_dd = p (f / eps_m + h) + (1 - p) / (f eps_m + a)
    Ss g = scaled(inverse(em), p * f, p * h);
    if (p < 1.0 - 1e-12) g = sum(g, scaled(inverse(scaled(em, f, a)), 1.0 - p, 0.0));
    const Ss e = inverse(g);
    out.epsilon_inf = e.D;
    Eigen::EigenSolver<Mat> es(e.A, true);
    if (es.info() != Eigen::Success) throw std::runtime_error("cut_cell_response: eigenvalues did not converge");
    const Eigen::VectorXcd lam = es.eigenvalues();
    const Eigen::MatrixXcd V = es.eigenvectors();
    const Eigen::MatrixXcd Vinv = V.inverse();
    const Eigen::VectorXcd left = V.transpose() * e.C.cast<cd>();  // C^T v_k
    const Eigen::VectorXcd right = Vinv * e.B.cast<cd>();          // (V^-1 B)_k
    const int n = int(lam.size());
    std::vector<cd> res(n);
    double total = 0;
    for (int k = 0; k < n; ++k) {
        res[k] = left(k) * right(k);
        total += std::abs(res[k]);
    }
    struct Root {
        cd lambda, residue;
    };
    std::vector<Root> complex_roots, real_roots;
    for (int k = 0; k < n; ++k) {
        if (std::abs(res[k]) <= 1e-13 * total) continue;  // a state the cell's response does not see
        if (!(lam(k).real() < 0.0))
            throw std::runtime_error("cut_cell_response: material '" + metal.id + "' gives an unstable pole (f = " +
                                     std::to_string(f) + ", p = " + std::to_string(p) + ")");
        const double im = lam(k).imag();
        if (std::abs(im) > 1e-9 * std::abs(lam(k))) {
            if (im > 0) complex_roots.push_back({lam(k), res[k]});
        } else {
            real_roots.push_back({cd(lam(k).real(), 0.0), cd(res[k].real(), 0.0)});
        }
    }
    // r / (s - l) + conj(r) / (s - conj(l)) = (2 Re r s - 2 Re(r conj(l))) / (s^2 - 2 Re l s + |l|^2)
    for (const Root& r : complex_roots) {
        GeneralizedPole t;
        const cd l = r.lambda * w_ref, q = r.residue * w_ref;
        t.b1 = 2.0 * q.real();
        t.b0 = -2.0 * (q * std::conj(l)).real();
        t.gamma = -2.0 * l.real();
        t.omega_0_sq = std::norm(l);
        out.terms.push_back(t);
    }
    std::sort(real_roots.begin(), real_roots.end(),
              [](const Root& x, const Root& y) { return x.lambda.real() < y.lambda.real(); });
    for (std::size_t k = 0; k < real_roots.size(); k += 2) {
        const double l1 = real_roots[k].lambda.real() * w_ref, r1 = real_roots[k].residue.real() * w_ref;
        GeneralizedPole t;
        if (k + 1 < real_roots.size()) {
            // r1 / (s - l1) + r2 / (s - l2) = ((r1 + r2) s - (r1 l2 + r2 l1)) / ((s - l1)(s - l2))
            const double l2 = real_roots[k + 1].lambda.real() * w_ref, r2 = real_roots[k + 1].residue.real() * w_ref;
            t.b1 = r1 + r2;
            t.b0 = -(r1 * l2 + r2 * l1);
            t.gamma = -(l1 + l2);
            t.omega_0_sq = l1 * l2;
        } else {  // r / (s - l) = r (s - l) / (s - l)^2
            t.b1 = r1;
            t.b0 = -r1 * l1;
            t.gamma = -2.0 * l1;
            t.omega_0_sq = l1 * l1;
        }
        out.terms.push_back(t);
    }
    return out;
}

std::complex<double> evaluate(const CutCellResponse& r, double omega) {
    const cd s(0.0, -omega);
    cd eps = r.epsilon_inf;
    for (const GeneralizedPole& t : r.terms) eps += (t.b0 + t.b1 * s) / (s * s + t.gamma * s + t.omega_0_sq);
    return eps;
}

CutCellPoles cut_cell_poles(const CutCellResponse& r, double dt) {
    CutCellPoles out;
    for (const GeneralizedPole& t : r.terms) {
        const double den = 1.0 + 0.5 * t.gamma * dt;
        PoleCoeffs c;
        c.c1 = (2.0 - t.omega_0_sq * dt * dt) / den;
        c.c2 = -(1.0 - 0.5 * t.gamma * dt) / den;
        if (t.b1 == 0.0 && t.b0 > 0.0) {  // an ordinary pole, wp^2 = b0
            c.c3 = t.b0 * dt * dt / den;
        } else {
            const double sigma = std::hypot(t.b0, t.b1 * std::sqrt(t.omega_0_sq));
            if (!(sigma > 0)) continue;  // a null term
            c.c3 = sigma * dt * dt / den;
            c.m1 = t.b1 / (sigma * dt * den);
            c.m0 = t.b0 / sigma - 0.5 * c.m1 * dt * dt * t.omega_0_sq;
            out.eps_inf_shift += 0.5 * sigma * c.m1 * dt * dt;
        }
        out.poles.poles.push_back(c);
    }
    return out;
}

}  // namespace golightly
