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

/// Floquet amplitudes (header eq. 1) of one component: out[q2 * n1 + q1] for the orders
/// order_of_bin(q1, n1), order_of_bin(q2, n2). Separable: along t1 for every row, then
/// along t2. The phase uses the samples' positions, so amplitudes of different Yee
/// components refer to the same origin.
std::vector<cplx> floquet_amplitudes(const std::vector<cplx>& f, const std::array<int, 2>& n,
                                     const std::array<double, 2>& origin, const std::array<double, 2>& period,
                                     const std::array<double, 2>& kb) {
    const int n1 = n[0], n2 = n[1];
    std::vector<cplx> row(std::size_t(n1) * n2);
    std::vector<cplx> ph1(std::size_t(n1) * n1), ph2(std::size_t(n2) * n2);
    for (int q = 0; q < n1; ++q) {
        const double k = kb[0] + 2 * units::pi * order_of_bin(q, n1) / period[0];
        for (int i = 0; i < n1; ++i) ph1[std::size_t(q) * n1 + i] = std::polar(1.0, -k * (origin[0] + i * period[0] / n1));
    }
    for (int q = 0; q < n2; ++q) {
        const double k = kb[1] + 2 * units::pi * order_of_bin(q, n2) / period[1];
        for (int j = 0; j < n2; ++j) ph2[std::size_t(q) * n2 + j] = std::polar(1.0, -k * (origin[1] + j * period[1] / n2));
    }
    for (int j = 0; j < n2; ++j)
        for (int q = 0; q < n1; ++q) {
            cplx s = 0;
            for (int i = 0; i < n1; ++i) s += f[std::size_t(j) * n1 + i] * ph1[std::size_t(q) * n1 + i];
            row[std::size_t(j) * n1 + q] = s;
        }
    std::vector<cplx> out(std::size_t(n1) * n2);
    const double norm = 1.0 / (double(n1) * double(n2));
    for (int q2 = 0; q2 < n2; ++q2)
        for (int q1 = 0; q1 < n1; ++q1) {
            cplx s = 0;
            for (int j = 0; j < n2; ++j) s += row[std::size_t(j) * n1 + q1] * ph2[std::size_t(q2) * n2 + j];
            out[std::size_t(q2) * n1 + q1] = s * norm;
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
    // Pair 0 = (E_t1, H~_t2), pair 1 = (E_t2, H~_t1); an absent component is zero.
    std::array<std::vector<cplx>, 2> E, H;
    for (int c = 0; c < 2; ++c) {
        const auto& org_e = p.origin_um[c];      // E_tc belongs to pair c
        const auto& org_h = p.origin_um[1 - c];  // H_tc belongs to pair 1 - c
        E[c] = p.e[c].empty() ? std::vector<cplx>(ns) : floquet_amplitudes(p.e[c], p.n, org_e, period, k_b);
        H[c] = p.h[c].empty() ? std::vector<cplx>(ns) : floquet_amplitudes(p.h[c], p.n, org_h, period, k_b);
    }
    // t1 x t2 = +normal for normal x and z, -normal for normal y.
    const double hand = p.normal_axis == 1 ? -1.0 : 1.0;
    const double ds = hand * p.direction;  // u_s = ds * (-p2, p1) in (t1, t2) components
    const double area = period[0] * (n_active == 2 ? period[1] : 1.0) * std::pow(units::um, n_active);
    const double c = 0.5 / units::eta0 * area;
    const double nk0 = n_medium * 2 * units::pi / wavelength_um;
    int t[2];
    for (int a = 0, k = 0; a < 3; ++a)
        if (a != p.normal_axis) t[k++] = a;

    std::vector<FloquetOrder> out;
    double total = 0;
    for (int q2 = 0; q2 < p.n[1]; ++q2)
        for (int q1 = 0; q1 < p.n[0]; ++q1) {
            const std::size_t q = std::size_t(q2) * p.n[0] + q1;
            const double k1 = k_b[0] + 2 * units::pi * order_of_bin(q1, p.n[0]) / period[0];
            const double k2 = n_active == 2 ? k_b[1] + 2 * units::pi * order_of_bin(q2, p.n[1]) / period[1] : 0.0;
            const double power = c * ds * (E[0][q] * std::conj(H[1][q]) - E[1][q] * std::conj(H[0][q])).real();
            total += power;
            const double kpar = std::hypot(k1, k2);
            if (!(kpar < nk0)) continue;  // evanescent
            FloquetOrder o;
            o.order[t[0]] = order_of_bin(q1, p.n[0]);
            o.order[t[1]] = n_active == 2 ? order_of_bin(q2, p.n[1]) : 0;
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
            o.power = power;
            out.push_back(o);
        }
    if (total_power) *total_power = total;
    return out;
}

}  // namespace golightly
