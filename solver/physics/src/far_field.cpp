#include "golightly/far_field.hpp"

#include <cmath>
#include <stdexcept>

#include "golightly/units.hpp"

namespace golightly {

using cplx = std::complex<double>;

std::vector<FarFieldSample> project_far_field(const SurfaceCurrents& s,
                                              const std::vector<std::array<double, 2>>& directions,
                                              const RadiationVectorsFn& radiation_vectors) {
    const std::size_t n = s.position_m.size();
    if (s.j.size() != n || s.m.size() != n || s.ds.size() != n)
        throw std::invalid_argument("project_far_field: positions, currents and ds differ in length");
    if (!(s.frequency_hz > 0)) throw std::invalid_argument("project_far_field: the frequency must be positive");
    const double k = 2 * units::pi * s.frequency_hz / units::c0, eta = units::eta0;
    const bool two_d = s.dimensions == 2;
    std::vector<std::array<double, 3>> unit(directions.size());
    for (std::size_t d = 0; d < directions.size(); ++d) {
        const double th = two_d ? 0.5 * units::pi : directions[d][0], ph = directions[d][1];
        unit[d] = {std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), two_d ? 0.0 : std::cos(th)};
    }
    std::vector<RadiationVectors> nl;
    if (radiation_vectors) {
        nl = radiation_vectors(s, unit);
        if (!nl.empty() && nl.size() != unit.size())
            throw std::invalid_argument("project_far_field: the radiation vectors are not one per direction");
    }
    if (nl.empty()) {
        nl.assign(unit.size(), RadiationVectors{});
        for (std::size_t d = 0; d < unit.size(); ++d) {
            const auto& u = unit[d];
            RadiationVectors& acc = nl[d];
            for (std::size_t q = 0; q < n; ++q) {
                const Vec3& r = s.position_m[q];
                const double phase = -k * (u[0] * r.x + u[1] * r.y + (two_d ? 0.0 : u[2] * r.z));
                const cplx w = std::polar(s.ds[q], phase);
                for (std::size_t a = 0; a < 3; ++a) {
                    acc[a] += s.j[q][a] * w;
                    acc[3 + a] += s.m[q][a] * w;
                }
            }
        }
    }
    std::vector<FarFieldSample> out;
    out.reserve(directions.size());
    for (std::size_t d = 0; d < directions.size(); ++d) {
        const double th = two_d ? 0.5 * units::pi : directions[d][0], ph = directions[d][1];
        const double st = std::sin(th), ct = std::cos(th), sp = std::sin(ph), cp = std::cos(ph);
        const cplx* N = nl[d].data();
        const cplx* L = nl[d].data() + 3;
        FarFieldSample f;
        f.theta_rad = th;
        f.phi_rad = ph;
        if (!two_d) {
            // theta = (ct cp, ct sp, -st), phi = (-sp, cp, 0)
            const cplx n_th = N[0] * (ct * cp) + N[1] * (ct * sp) - N[2] * st;
            const cplx n_ph = -N[0] * sp + N[1] * cp;
            const cplx l_th = L[0] * (ct * cp) + L[1] * (ct * sp) - L[2] * st;
            const cplx l_ph = -L[0] * sp + L[1] * cp;
            const cplx pre = cplx(0, k / (4 * units::pi));
            f.e_theta = pre * (eta * n_th + l_ph);
            f.e_phi = pre * (eta * n_ph - l_th);
        } else {
            const cplx g2 = cplx(0, 0.25) * std::sqrt(2 / (units::pi * k)) * std::polar(1.0, -0.25 * units::pi);
            const cplx pre = cplx(0, k) * g2;
            if (s.polarization == Polarization::TMz)
                f.e_theta = pre * (eta * N[2] - (cp * L[1] - sp * L[0]));
            else
                f.e_phi = pre * (eta * (-sp * N[0] + cp * N[1]) + L[2]);
        }
        f.intensity = (std::norm(f.e_theta) + std::norm(f.e_phi)) / (2 * eta);
        out.push_back(f);
    }
    return out;
}

double radiated_power(const std::vector<FarFieldSample>& grid, int n_theta, int n_phi) {
    if (n_phi < 1 || n_theta < 1 || grid.size() != std::size_t(n_theta) * std::size_t(n_phi))
        throw std::invalid_argument("radiated_power: the grid is not n_theta x n_phi");
    const double dphi = 2 * units::pi / n_phi;
    if (n_theta == 1) {
        double p = 0;
        for (const auto& g : grid) p += g.intensity;
        return p * dphi;
    }
    if (n_theta < 2) throw std::invalid_argument("radiated_power: 3D needs n_theta >= 2");
    const double dth = units::pi / (n_theta - 1);
    double p = 0;
    for (int i = 0; i < n_theta; ++i) {
        const double w = (i == 0 || i == n_theta - 1 ? 0.5 : 1.0) * std::sin(i * dth) * dth;
        for (int jj = 0; jj < n_phi; ++jj) p += w * grid[std::size_t(i) * std::size_t(n_phi) + std::size_t(jj)].intensity;
    }
    return p * dphi;
}

}  // namespace golightly
