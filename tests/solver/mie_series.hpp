// Mie series for the tests (test_mie3d.cpp): the cross-sections of a homogeneous sphere
// (relative index m, complex for absorbing spheres) and of an infinite circular cylinder
// (real or complex m) lit by a plane wave in a background of index 1.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace golightly::mie {

/// Efficiencies of a sphere (sigma / (pi a^2)).
struct SphereEfficiencies {
    double sca = 0, ext = 0;
    double abs() const { return ext - sca; }
};

/// Scattering and extinction efficiencies of a sphere of size parameter x = k a and complex
/// relative index m (Im m >= 0 absorbs, exp(-i w t)). Bohren & Huffman, "Absorption and
/// Scattering of Light by Small Particles" (1983): coefficients a_n, b_n in the form of
/// eq. 4.88 with the logarithmic derivative D_n(mx) = psi_n'(mx) / psi_n(mx) (downward
/// recurrence, eq. 4.89), the Riccati-Bessel functions psi_n(x) = x j_n(x) and
/// xi_n(x) = psi_n(x) - i chi_n(x), chi_n = -x y_n(x) (upward recurrence), and
///   Q_sca = (2 / x^2) sum_n (2n + 1) (|a_n|^2 + |b_n|^2)            (eq. 4.61)
///   Q_ext = (2 / x^2) sum_n (2n + 1) Re(a_n + b_n)                  (eq. 4.62)
/// summed to n_stop = x + 4 x^(1/3) + 2 (B&H appendix A).
/// The coefficients a_n, b_n (n = 1 .. n_stop; index n - 1) of sphere_efficiencies.
inline void sphere_coefficients(double x, std::complex<double> m, std::vector<std::complex<double>>& a,
                                std::vector<std::complex<double>>& b) {
    using cd = std::complex<double>;
    const int nstop = int(std::ceil(x + 4.0 * std::cbrt(x) + 2.0));
    const cd mx = m * x;
    const int nmx = int(std::max<double>(nstop, std::abs(mx))) + 16;
    std::vector<cd> D(std::size_t(nmx) + 1, cd(0.0));
    for (int n = nmx; n >= 1; --n) D[std::size_t(n - 1)] = double(n) / mx - 1.0 / (D[std::size_t(n)] + double(n) / mx);
    double psi_m1 = std::cos(x), psi_0 = std::sin(x);   // psi_{-1}, psi_0
    double chi_m1 = -std::sin(x), chi_0 = std::cos(x);  // chi_{-1}, chi_0
    a.clear();
    b.clear();
    for (int n = 1; n <= nstop; ++n) {
        const double psi = (2.0 * n - 1.0) / x * psi_0 - psi_m1;
        const double chi = (2.0 * n - 1.0) / x * chi_0 - chi_m1;
        const cd xi(psi, -chi), xi_prev(psi_0, -chi_0);
        const cd da = D[std::size_t(n)] / m + double(n) / x;
        const cd db = m * D[std::size_t(n)] + double(n) / x;
        a.push_back((da * psi - psi_0) / (da * xi - xi_prev));
        b.push_back((db * psi - psi_0) / (db * xi - xi_prev));
        psi_m1 = psi_0, psi_0 = psi;
        chi_m1 = chi_0, chi_0 = chi;
    }
}

inline SphereEfficiencies sphere_efficiencies(double x, std::complex<double> m) {
    std::vector<std::complex<double>> a, b;
    sphere_coefficients(x, m, a, b);
    SphereEfficiencies q;
    for (std::size_t k = 0; k < a.size(); ++k) {
        const double n = double(k + 1);
        q.sca += (2.0 * n + 1.0) * (std::norm(a[k]) + std::norm(b[k]));
        q.ext += (2.0 * n + 1.0) * (a[k] + b[k]).real();
    }
    q.sca *= 2.0 / (x * x);
    q.ext *= 2.0 / (x * x);
    return q;
}

/// The scattering amplitudes S1, S2 of a sphere at the scattering angle theta (mu =
/// cos theta): Bohren & Huffman eq. 4.74,
///   S1 = sum_n (2n + 1) / (n (n + 1)) (a_n pi_n + b_n tau_n),
///   S2 = sum_n (2n + 1) / (n (n + 1)) (a_n tau_n + b_n pi_n),
/// with pi_n = (2n - 1)/(n - 1) mu pi_{n-1} - n/(n - 1) pi_{n-2} (pi_0 = 0, pi_1 = 1) and
/// tau_n = n mu pi_n - (n + 1) pi_{n-1} (eq. 4.47); a_n, b_n as in sphere_efficiencies.
/// For incident light polarized along x and travelling along +z, the differential
/// scattering cross-section at polar angle theta and azimuth phi (from x) is
///   dsigma/dOmega = (|S2|^2 cos^2 phi + |S1|^2 sin^2 phi) / k^2      (B&H eq. 3.16, 4.77).
struct SphereAmplitudes {
    std::complex<double> s1, s2;
};
inline SphereAmplitudes sphere_amplitudes(double x, std::complex<double> m, double mu) {
    std::vector<std::complex<double>> a, b;
    sphere_coefficients(x, m, a, b);
    double pi_m1 = 0.0, pi_0 = 1.0;  // pi_{n-1}, pi_n at n = 1
    SphereAmplitudes out;
    for (std::size_t k = 0; k < a.size(); ++k) {
        const double n = double(k + 1);
        const double taun = n * mu * pi_0 - (n + 1) * pi_m1;
        const double f = (2.0 * n + 1.0) / (n * (n + 1.0));
        out.s1 += f * (a[k] * pi_0 + b[k] * taun);
        out.s2 += f * (a[k] * taun + b[k] * pi_0);
        const double pi_next = ((2.0 * n + 1.0) * mu * pi_0 - (n + 1.0) * pi_m1) / n;
        pi_m1 = pi_0, pi_0 = pi_next;
    }
    return out;
}

/// Scattering efficiency Q_sca = sigma_sca / (pi a^2) of a lossless sphere (real m).
inline double sphere_qsca(double x, double m) { return sphere_efficiencies(x, m).sca; }

/// Scattering efficiency per unit length Q_sca = sigma_sca / (2 a) of an infinite circular
/// cylinder (size parameter x = k a, relative index m real) at normal incidence with E
/// parallel to the axis (TMz: Ez). Bohren & Huffman eqs. 8.30 (case I, b_n) and 8.32:
///   b_n = [J_n(mx) J_n'(x) - m J_n'(mx) J_n(x)] / [J_n(mx) H_n'(x) - m J_n'(mx) H_n(x)],
///   Q_sca = (2 / x) [|b_0|^2 + 2 sum_{n >= 1} |b_n|^2],  H_n = J_n + i Y_n.
inline double cylinder_qsca_tm(double x, double m) {
    const int nstop = int(std::ceil(x + 4.0 * std::cbrt(x) + 2.0));
    const double mx = m * x;
    auto J = [](int n, double z) { return std::cyl_bessel_j(double(n), z); };
    auto Y = [](int n, double z) { return std::cyl_neumann(double(n), z); };
    // derivative of order n from orders n-1 and n+1 (J_{-1} = -J_1)
    auto dJ = [&](int n, double z) { return n == 0 ? -J(1, z) : 0.5 * (J(n - 1, z) - J(n + 1, z)); };
    auto dY = [&](int n, double z) { return n == 0 ? -Y(1, z) : 0.5 * (Y(n - 1, z) - Y(n + 1, z)); };
    double q = 0;
    for (int n = 0; n <= nstop; ++n) {
        const std::complex<double> H(J(n, x), Y(n, x)), dH(dJ(n, x), dY(n, x));
        const std::complex<double> b = (J(n, mx) * dJ(n, x) - m * dJ(n, mx) * J(n, x)) /
                                       (J(n, mx) * dH - m * dJ(n, mx) * H);
        q += (n == 0 ? 1.0 : 2.0) * std::norm(b);
    }
    return 2.0 / x * q;
}

/// J_n(z) of complex argument by its power series, sum_k (-1)^k (z/2)^(2k+n) / (k! (n+k)!)
/// (Abramowitz & Stegun 9.1.10); for the small |z| (< 20) of the tests' metal cylinders,
/// where the series converges without loss (terms until they fall below 1e-17 of the sum).
inline std::complex<double> bessel_j(int n, std::complex<double> z) {
    if (n < 0) return (n % 2 ? -1.0 : 1.0) * bessel_j(-n, z);
    const std::complex<double> h = 0.5 * z, h2 = -h * h;
    std::complex<double> term = 1.0;
    for (int k = 1; k <= n; ++k) term *= h / double(k);  // (z/2)^n / n!
    std::complex<double> sum = term;
    for (int k = 1; k < 200; ++k) {
        term *= h2 / (double(k) * double(n + k));
        sum += term;
        if (std::abs(term) < 1e-17 * std::abs(sum)) break;
    }
    return sum;
}

/// Efficiencies per unit length of an infinite circular cylinder (sigma / (2 a), sigma the
/// cross-section per unit length) of size parameter x = k a and complex relative index m
/// (Im m >= 0 absorbs, exp(-i w t)) at normal incidence. Bohren & Huffman ch. 8.4:
///   case I (E parallel to the axis, TMz), eq. 8.30:
///     b_n = [J_n(mx) J_n'(x) - m J_n'(mx) J_n(x)] / [J_n(mx) H_n'(x) - m J_n'(mx) H_n(x)]
///   case II (E perpendicular to the axis, TEz), eq. 8.31:
///     a_n = [m J_n(mx) J_n'(x) - J_n'(mx) J_n(x)] / [m J_n(mx) H_n'(x) - J_n'(mx) H_n(x)]
///   Q_sca = (2/x) [|c_0|^2 + 2 sum_{n>=1} |c_n|^2], Q_ext = (2/x) Re[c_0 + 2 sum c_n]
///   (eqs. 8.32, 8.36), c = b (I) or a (II), H_n = J_n + i Y_n; summed to
///   n_stop = x + 4 x^(1/3) + 2 plus a margin for the near field of |m x|.
/// cylinder_coefficients gives the c_n (n = 0 .. n_stop), cylinder_efficiencies the sums.
inline std::vector<std::complex<double>> cylinder_coefficients(double x, std::complex<double> m, bool e_parallel) {
    using cd = std::complex<double>;
    const int nstop = int(std::ceil(std::max(x, std::abs(m) * x) + 4.0 * std::cbrt(x) + 6.0));
    const cd mx = m * x;
    auto Jr = [](int n, double z) { return n < 0 ? ((-n) % 2 ? -1.0 : 1.0) * std::cyl_bessel_j(double(-n), z)
                                                 : std::cyl_bessel_j(double(n), z); };
    auto Yr = [](int n, double z) { return n < 0 ? ((-n) % 2 ? -1.0 : 1.0) * std::cyl_neumann(double(-n), z)
                                                 : std::cyl_neumann(double(n), z); };
    std::vector<cd> c;
    for (int n = 0; n <= nstop; ++n) {
        const cd H(Jr(n, x), Yr(n, x));
        const cd dH(0.5 * (Jr(n - 1, x) - Jr(n + 1, x)), 0.5 * (Yr(n - 1, x) - Yr(n + 1, x)));
        const double j = Jr(n, x), dj = 0.5 * (Jr(n - 1, x) - Jr(n + 1, x));
        const cd jm = bessel_j(n, mx), djm = 0.5 * (bessel_j(n - 1, mx) - bessel_j(n + 1, mx));
        c.push_back(e_parallel ? (jm * dj - m * djm * j) / (jm * dH - m * djm * H)
                               : (m * jm * dj - djm * j) / (m * jm * dH - djm * H));
    }
    return c;
}

inline SphereEfficiencies cylinder_efficiencies(double x, std::complex<double> m, bool e_parallel) {
    SphereEfficiencies q;
    const std::vector<std::complex<double>> c = cylinder_coefficients(x, m, e_parallel);
    for (std::size_t n = 0; n < c.size(); ++n) {
        const double w = n == 0 ? 1.0 : 2.0;
        q.sca += w * std::norm(c[n]);
        q.ext += w * c[n].real();
    }
    q.sca *= 2.0 / x;
    q.ext *= 2.0 / x;
    return q;
}

/// The cylinder's scattering amplitude at scattering angle phi (rad, from the forward
/// direction) in the plane normal to its axis, Bohren & Huffman eq. 8.29 (T_1, case I) and
/// 8.31 (T_2, case II): T(phi) = c_0 + 2 sum_{n>=1} c_n cos(n phi) with the coefficients
/// of cylinder_coefficients. The differential scattering width per unit length is
/// d sigma / d phi = 2 / (pi k) |T(phi)|^2 (its integral over phi is sigma_sca =
/// Q_sca 2a).
inline std::complex<double> cylinder_amplitude(double x, std::complex<double> m, bool e_parallel, double phi) {
    const std::vector<std::complex<double>> c = cylinder_coefficients(x, m, e_parallel);
    std::complex<double> t = c[0];
    for (std::size_t n = 1; n < c.size(); ++n) t += 2.0 * c[n] * std::cos(double(n) * phi);
    return t;
}

}  // namespace golightly::mie
