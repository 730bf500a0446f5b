#include "golightly/diffraction.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "golightly/units.hpp"

namespace golightly {

namespace {

using cplx = std::complex<double>;

/// Order index of DFT bin q of n bins: the n consecutive integers centred on 0.
int order_of_bin(int q, int n) { return q - n / 2; }

/// Floquet amplitudes (header eq. 1) of one component for the DFT bins `q1` (along t1)
/// and `q2` (along t2) only: out[b2 * q1.size() + b1] is the order (order_of_bin(q1[b1],
/// n1), order_of_bin(q2[b2], n2)). Separable: along t1 for every row, then along t2, so
/// O(N (|q1| + |q2|)) for N samples. The phase uses the samples' positions, so amplitudes
/// of different Yee components refer to the same origin.
std::vector<cplx> floquet_amplitudes(const std::vector<cplx>& f, const std::array<int, 2>& n,
                                     const std::array<double, 2>& origin, const std::array<double, 2>& period,
                                     const std::array<double, 2>& kb, const std::vector<int>& q1,
                                     const std::vector<int>& q2) {
    const int n1 = n[0], n2 = n[1];
    const std::size_t m1 = q1.size(), m2 = q2.size();
    std::vector<cplx> ph1(m1 * std::size_t(n1)), ph2(m2 * std::size_t(n2));
    for (std::size_t b = 0; b < m1; ++b) {
        const double k = kb[0] + 2 * units::pi * order_of_bin(q1[b], n1) / period[0];
        for (int i = 0; i < n1; ++i) ph1[b * n1 + std::size_t(i)] = std::polar(1.0, -k * (origin[0] + i * period[0] / n1));
    }
    for (std::size_t b = 0; b < m2; ++b) {
        const double k = kb[1] + 2 * units::pi * order_of_bin(q2[b], n2) / period[1];
        for (int j = 0; j < n2; ++j) ph2[b * n2 + std::size_t(j)] = std::polar(1.0, -k * (origin[1] + j * period[1] / n2));
    }
    std::vector<cplx> row(std::size_t(n2) * m1);  // [j * m1 + b1]
    for (int j = 0; j < n2; ++j)
        for (std::size_t b = 0; b < m1; ++b) {
            cplx s = 0;
            for (int i = 0; i < n1; ++i) s += f[std::size_t(j) * n1 + std::size_t(i)] * ph1[b * n1 + std::size_t(i)];
            row[std::size_t(j) * m1 + b] = s;
        }
    std::vector<cplx> out(m1 * m2);
    const double norm = 1.0 / (double(n1) * double(n2));
    for (std::size_t b2 = 0; b2 < m2; ++b2)
        for (std::size_t b1 = 0; b1 < m1; ++b1) {
            cplx s = 0;
            for (int j = 0; j < n2; ++j) s += row[std::size_t(j) * m1 + b1] * ph2[b2 * n2 + std::size_t(j)];
            out[b2 * m1 + b1] = s * norm;
        }
    return out;
}

}  // namespace

std::vector<FloquetOrder> floquet_orders(const FloquetPlaneFields& p, double wavelength_um, double n_medium,
                                         std::array<double, 2> kb, double* total_power) {
    if (!(wavelength_um > 0)) throw std::invalid_argument("floquet_orders: the wavelength must be > 0");
    if (!(n_medium > 0)) throw std::invalid_argument("floquet_orders: the medium index must be > 0");
    if (p.normal_axis < 0 || p.normal_axis > 2 || (p.direction != 1 && p.direction != -1))
        throw std::invalid_argument("floquet_orders: bad normal axis or direction");
    if (p.dimensions == 2 && (p.normal_axis == 2 || p.n[1] != 1))
        throw std::invalid_argument("floquet_orders: a 2D line lies in the xy plane, one sample along z");
    if (p.n[0] < 1 || p.n[1] < 1) throw std::invalid_argument("floquet_orders: no samples");
    const int n_active = p.dimensions == 2 ? 1 : 2;  // tangential axes that are periodic
    for (int a = 0; a < n_active; ++a)
        if (!(p.period_um[a] > 0)) throw std::invalid_argument("floquet_orders: the period must be > 0");
    const std::size_t ns = std::size_t(p.n[0]) * std::size_t(p.n[1]);
    for (int c = 0; c < 2; ++c)
        if ((!p.e[c].empty() && p.e[c].size() != ns) || (!p.h[c].empty() && p.h[c].size() != ns))
            throw std::invalid_argument("floquet_orders: a field has " + std::to_string(p.e[c].size()) + " or " +
                                        std::to_string(p.h[c].size()) + " samples, expected " + std::to_string(ns));

    const std::array<double, 2> period{p.period_um[0], n_active == 2 ? p.period_um[1] : 1.0};
    const std::array<double, 2> k_b{kb[0], n_active == 2 ? kb[1] : 0.0};
    // t1 x t2 = +normal for normal x and z, -normal for normal y.
    const double hand = p.normal_axis == 1 ? -1.0 : 1.0;
    const double ds = hand * p.direction;  // u_s = ds * (-p2, p1) in (t1, t2) components
    const double area = period[0] * (n_active == 2 ? period[1] : 1.0) * std::pow(units::um, n_active);
    const double c = 0.5 / units::eta0 * area;
    const double nk0 = n_medium * 2 * units::pi / wavelength_um;
    int t[2];
    for (int a = 0, k = 0; a < 3; ++a)
        if (a != p.normal_axis) t[k++] = a;
    auto k_of = [&](int axis, int q) { return k_b[axis] + 2 * units::pi * order_of_bin(q, p.n[axis]) / period[axis]; };

    // The whole discrete flux, directly (eq. 2's left side: the sum over every order).
    if (total_power) {
        double sum = 0;
        for (std::size_t q = 0; q < ns; ++q) {
            const cplx e0 = p.e[0].empty() ? cplx{} : p.e[0][q], e1 = p.e[1].empty() ? cplx{} : p.e[1][q];
            const cplx h0 = p.h[0].empty() ? cplx{} : p.h[0][q], h1 = p.h[1].empty() ? cplx{} : p.h[1][q];
            sum += (e0 * std::conj(h1) - e1 * std::conj(h0)).real();
        }
        *total_power = c * ds * sum / double(ns);
    }
    // Only the bins that can hold a propagating order along each axis are transformed.
    std::vector<int> q1, q2;
    for (int q = 0; q < p.n[0]; ++q)
        if (std::abs(k_of(0, q)) < nk0) q1.push_back(q);
    for (int q = 0; q < p.n[1]; ++q)
        if (n_active == 1 || std::abs(k_of(1, q)) < nk0) q2.push_back(q);
    // Pair 0 = (E_t1, H~_t2), pair 1 = (E_t2, H~_t1); an absent component is zero.
    const std::size_t nq = q1.size() * q2.size();
    std::array<std::vector<cplx>, 2> E, H;
    for (int cc = 0; cc < 2; ++cc) {
        const auto& org_e = p.origin_um[cc];      // E_tc belongs to pair c
        const auto& org_h = p.origin_um[1 - cc];  // H_tc belongs to pair 1 - c
        E[cc] = p.e[cc].empty() ? std::vector<cplx>(nq) : floquet_amplitudes(p.e[cc], p.n, org_e, period, k_b, q1, q2);
        H[cc] = p.h[cc].empty() ? std::vector<cplx>(nq) : floquet_amplitudes(p.h[cc], p.n, org_h, period, k_b, q1, q2);
    }

    std::vector<FloquetOrder> out;
    for (std::size_t b2 = 0; b2 < q2.size(); ++b2)
        for (std::size_t b1 = 0; b1 < q1.size(); ++b1) {
            const std::size_t q = b2 * q1.size() + b1;
            const double k1 = k_of(0, q1[b1]);
            const double k2 = n_active == 2 ? k_of(1, q2[b2]) : 0.0;
            const double kpar = std::hypot(k1, k2);
            if (!(kpar < nk0)) continue;  // evanescent
            FloquetOrder o;
            o.order[t[0]] = order_of_bin(q1[b1], p.n[0]);
            o.order[t[1]] = n_active == 2 ? order_of_bin(q2[b2], p.n[1]) : 0;
            o.k_per_um[t[0]] = k1;
            o.k_per_um[t[1]] = k2;
            o.k_per_um[p.normal_axis] = p.direction * std::sqrt(nk0 * nk0 - kpar * kpar);
            o.theta_rad = std::asin(std::min(1.0, kpar / nk0));
            o.phi_rad = kpar > 0 ? std::atan2(k2, k1) : 0.0;
            // s / p split (header): u_p along k_par (t1 at k_par = 0), u_s = n x u_p
            const double p1 = kpar > 0 ? k1 / kpar : 1.0, p2 = kpar > 0 ? k2 / kpar : 0.0;
            const cplx Ep = E[0][q] * p1 + E[1][q] * p2, Hp = H[0][q] * p1 + H[1][q] * p2;
            const cplx Es = ds * (-E[0][q] * p2 + E[1][q] * p1), Hs = ds * (-H[0][q] * p2 + H[1][q] * p1);
            o.power_p = c * (Ep * std::conj(Hs)).real();
            o.power_s = -c * (Es * std::conj(Hp)).real();
            o.power = c * ds * (E[0][q] * std::conj(H[1][q]) - E[1][q] * std::conj(H[0][q])).real();
            out.push_back(o);
        }
    return out;
}

}  // namespace golightly
