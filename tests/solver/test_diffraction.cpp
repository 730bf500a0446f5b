// Diffraction monitor (issue 51 item 4; golightly/diffraction.hpp, project-format.md
// "Diffraction monitors"):
// - the Floquet decomposition of a known sum of plane waves (3D plane, both polarizations,
//   staggered samples): each order's power, s/p split and angles exactly (round-off);
// - a flat SiO2 / air interface in a periodic 2D domain at normal incidence: all power in
//   order 0 with the Fresnel R and T (Born & Wolf sec. 1.5.3), TMz and TEz;
// - the binary grating of validation/meep_grating.glproj (Si ridge on SiO2, period 1 um)
//   against Meep (validation/meep_grating.py, validation/meep_grating_reference.csv);
// - `check` refuses a diffraction monitor in a domain that is not periodic along it.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include <filesystem>

#include "golightly/diffraction.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/results.hpp"
#include "golightly/units.hpp"
#include "cli_runner.hpp"
#include "test_files.hpp"

using namespace golightly;
using cplx = std::complex<double>;

namespace {

struct Wave {
    int m1, m2;        // order along x, y
    cplx a_s, a_p;     // s and p amplitudes (V/m s)
};

/// A cross b.
std::array<double, 3> cross(const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

}  // namespace

TEST_CASE("floquet_orders: a sum of plane waves on a 3D plane gives each order's power, s/p split and angles",
          "[diffraction]") {
    // Plane normal to z, positive direction +z, period 1.0 x 0.8 um, 10 x 8 samples, medium
    // n = 1.5, vacuum wavelength 0.6 um: n k0 = 15.7 rad/um; k_x = 2 pi m / 1, k_y = 2 pi m / 0.8.
    // Ex/Hy sit at (i + 1/2, j) dx, Ey/Hx at (i, j + 1/2) dy (Yee offsets of a z-normal
    // plane), so the phase reference by position matters for the s/p split.
    const double wl = 0.6, n = 1.5, k0 = 2 * units::pi / wl, nk0 = n * k0;
    const std::array<double, 2> period{1.0, 0.8};
    const std::array<int, 2> N{10, 8};
    const std::vector<Wave> waves = {{0, 0, {1.0, 0.2}, {0.0, 0.5}},
                                     {1, 0, {0.3, -0.1}, {0.0, 0.0}},
                                     {0, 1, {0.0, 0.0}, {0.4, 0.4}},
                                     {-1, 1, {0.2, 0.0}, {-0.1, 0.3}},
                                     {2, 1, {0.5, 0.0}, {0.0, 0.0}}};  // |k_par| = 14.9 < 15.7: propagating
    FloquetPlaneFields p;
    p.dimensions = 3;
    p.normal_axis = 2;
    p.direction = 1;
    p.n = N;
    p.period_um = period;
    const double d1 = period[0] / N[0], d2 = period[1] / N[1];
    p.origin_um = {{{0.5 * d1, 0.0}, {0.0, 0.5 * d2}}};  // pair 0 (Ex, Hy), pair 1 (Ey, Hx)
    for (int c = 0; c < 2; ++c) {
        p.e[c].assign(std::size_t(N[0] * N[1]), 0.0);
        p.h[c].assign(std::size_t(N[0] * N[1]), 0.0);
    }
    std::map<std::pair<int, int>, std::tuple<double, double, double, double>> expected;  // P_s, P_p, theta, phi
    const double area = period[0] * period[1] * units::um * units::um;
    for (const Wave& w : waves) {
        const double kx = 2 * units::pi * w.m1 / period[0], ky = 2 * units::pi * w.m2 / period[1];
        const double kp = std::hypot(kx, ky), kz = std::sqrt(nk0 * nk0 - kp * kp);
        const std::array<double, 3> up = kp > 0 ? std::array<double, 3>{kx / kp, ky / kp, 0} : std::array<double, 3>{1, 0, 0};
        const std::array<double, 3> us = cross({0, 0, 1}, up);
        const std::array<double, 3> khat{kx / nk0, ky / nk0, kz / nk0};
        const std::array<double, 3> ep = cross(us, khat);  // p: in the plane of k and z, normal to k
        std::array<cplx, 3> E{}, H{};
        for (int a = 0; a < 3; ++a) E[a] = w.a_s * us[a] + w.a_p * ep[a];
        // H~ = eta0 H = n khat x E
        for (int a = 0; a < 3; ++a) {
            const int b = (a + 1) % 3, c = (a + 2) % 3;
            H[a] = n * (khat[b] * E[c] - khat[c] * E[b]);
        }
        const double cos_t = kz / nk0;
        const double ps = 0.5 / units::eta0 * n * std::norm(w.a_s) * cos_t * area;
        const double pp = 0.5 / units::eta0 * n * std::norm(w.a_p) * cos_t * area;
        expected[{w.m1, w.m2}] = {ps, pp, std::acos(cos_t), kp > 0 ? std::atan2(ky, kx) : 0.0};
        for (int j = 0; j < N[1]; ++j)
            for (int i = 0; i < N[0]; ++i) {
                const std::size_t q = std::size_t(j * N[0] + i);
                for (int pair = 0; pair < 2; ++pair) {
                    const double x = p.origin_um[pair][0] + i * d1, y = p.origin_um[pair][1] + j * d2;
                    const cplx ph = std::polar(1.0, kx * x + ky * y);
                    if (pair == 0) {
                        p.e[0][q] += E[0] * ph;
                        p.h[1][q] += H[1] * ph;
                    } else {
                        p.e[1][q] += E[1] * ph;
                        p.h[0][q] += H[0] * ph;
                    }
                }
            }
    }
    double total = 0;
    const std::vector<FloquetOrder> orders = floquet_orders(p, wl, n, {0.0, 0.0}, &total);
    // the propagating orders of this lattice: |k_par| < n k0
    int n_prop = 0;
    for (int m2 = -N[1] / 2; m2 < N[1] - N[1] / 2; ++m2)
        for (int m1 = -N[0] / 2; m1 < N[0] - N[0] / 2; ++m1)
            if (std::hypot(2 * units::pi * m1 / period[0], 2 * units::pi * m2 / period[1]) < nk0) ++n_prop;
    CHECK(int(orders.size()) == n_prop);
    double p_sum = 0, scale = 0;
    for (const auto& [key, v] : expected) scale = std::max(scale, std::get<0>(v) + std::get<1>(v));
    for (const FloquetOrder& o : orders) {
        CHECK(o.order[2] == 0);
        const auto it = expected.find({o.order[0], o.order[1]});
        const double ps = it == expected.end() ? 0.0 : std::get<0>(it->second);
        const double pp = it == expected.end() ? 0.0 : std::get<1>(it->second);
        INFO("order (" << o.order[0] << ", " << o.order[1] << "): P " << o.power << " s " << o.power_s << " p "
                       << o.power_p << " expected s " << ps << " p " << pp);
        CHECK(o.power == Approx(ps + pp).margin(1e-12 * scale));
        CHECK(o.power_s == Approx(ps).margin(1e-12 * scale));
        CHECK(o.power_p == Approx(pp).margin(1e-12 * scale));
        CHECK(o.power_s + o.power_p == Approx(o.power).margin(1e-12 * scale));
        if (it != expected.end()) {
            CHECK(o.theta_rad == Approx(std::get<2>(it->second)).margin(1e-12));
            CHECK(o.phi_rad == Approx(std::get<3>(it->second)).margin(1e-12));
            CHECK(o.k_per_um[2] > 0);
        }
        p_sum += o.power;
    }
    // Parseval: the orders carry the whole discrete flux sum_k 0.5/eta0 Re(E x H~*).z dA
    double direct = 0;
    for (std::size_t q = 0; q < p.e[0].size(); ++q)
        direct += 0.5 / units::eta0 * (p.e[0][q] * std::conj(p.h[1][q]) - p.e[1][q] * std::conj(p.h[0][q])).real() *
                  d1 * d2 * units::um * units::um;
    CHECK(total == Approx(direct).epsilon(1e-12));
    CHECK(p_sum == Approx(direct).epsilon(1e-12));

    // the same fields seen by a monitor whose positive direction is -z: every power negated
    p.direction = -1;
    for (const FloquetOrder& o : floquet_orders(p, wl, n)) {
        const auto it = expected.find({o.order[0], o.order[1]});
        const double ps = it == expected.end() ? 0.0 : std::get<0>(it->second);
        const double pp = it == expected.end() ? 0.0 : std::get<1>(it->second);
        CHECK(o.power_s == Approx(-ps).margin(1e-12 * scale));
        CHECK(o.power_p == Approx(-pp).margin(1e-12 * scale));
    }
    CHECK_THROWS_AS(floquet_orders(p, -1.0, n), std::invalid_argument);
    p.e[0].pop_back();
    CHECK_THROWS_AS(floquet_orders(p, wl, n), std::invalid_argument);
}

namespace {

/// A periodic 2D domain (x period 1 um) with a SiO2 half-space below y = 1.5125 and air
/// above, a plane wave from inside the SiO2 (y = 0.5) going +y, diffraction monitors R
/// (y = 1.0, -y, reflection) and T (y = 2.5, +y, transmission), normalized by a run with
/// SiO2 everywhere. dx 0.025 um: 21 cells per wavelength in SiO2 at 0.75 um.
Project interface_project(Polarization pol) {
    const std::string text = R"({
      "format": "golightly-project", "version": 1, "name": "flat interface",
      "domain": {"size": [1, 3], "cell_size": 0.025, "polarization": "TMz",
                 "boundaries": {"x": "periodic", "y": "pml"}, "pml": {"cells": 40}},
      "materials": [{"id": "sio2", "name": "SiO2", "epsilon_inf": 2.1025}],
      "layers": [
        {"name": "substrate", "material": "sio2", "shapes": [{"type": "rectangle", "min": [0, 0], "max": [1, 1.5125]}]},
        {"name": "ref", "material": "sio2", "reference_only": true,
         "shapes": [{"type": "rectangle", "min": [0, 0], "max": [1, 3]}]}],
      "sources": [{"name": "pw", "type": "line", "from": [0, 0.5], "to": [1, 0.5], "component": "Ez",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 0.85, "wavelength_span": 0.3}}],
      "monitors": [
        {"name": "R", "type": "diffraction", "from": [0, 1.0], "to": [1, 1.0], "direction": "-y", "kind": "reflection"},
        {"name": "T", "type": "diffraction", "from": [0, 2.5], "to": [1, 2.5], "direction": "+y", "kind": "transmission"}],
      "run": {"spectrum": {"wavelength_min": 0.75, "wavelength_max": 0.95, "points": 11},
              "stop": {"decay_db": 80, "max_time_fs": 3000},
              "normalization": {"enabled": true, "reference_layers": ["ref"], "incident_monitor": "R"},
              "subpixel_averaging": false, "precision": "float64", "backend": "cpu"}
    })";
    Project p = parse_project(text, "interface.glproj");
    p.domain.polarization = pol;
    p.sources[0].component = pol == Polarization::TMz ? Component::Ez : Component::Ex;
    return p;
}

/// The same with x and y exchanged (period along y, light along +x, monitors normal to x).
Project transposed(Project p) {
    auto swap = [](Vec2& v) { std::swap(v.x, v.y); };
    std::swap(p.domain.size[0], p.domain.size[1]);
    std::swap(p.domain.boundaries[0], p.domain.boundaries[1]);
    for (Layer& l : p.layers)
        for (Shape& sh : l.shapes) {
            swap(sh.min);
            swap(sh.max);
        }
    for (Source& s : p.sources) {
        swap(s.from);
        swap(s.to);
        if (s.component == Component::Ex) s.component = Component::Ey;
    }
    for (Monitor& m : p.monitors) {
        swap(m.from);
        swap(m.to);
        m.direction[1] = 'x';
    }
    return p;
}

RunResult run_cpu(const Project& p, const std::string& label) {
    RunOptions opts;
    opts.backend = BackendChoice::Cpu;
    opts.threads = 2;
    return run_project(p, label, opts);
}

const DiffractionResult& diffraction_named(const RunResult& r, const std::string& name) {
    for (const DiffractionResult& d : r.diffraction)
        if (d.name == name) return d;
    FAIL("no diffraction result " << name);
    throw std::logic_error("unreachable");
}

const FluxSpectrumResult& spectrum_named(const RunResult& r, const std::string& name) {
    for (const FluxSpectrumResult& s : r.spectra)
        if (s.name == name) return s;
    FAIL("no spectrum " << name);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("diffraction monitor: a flat interface puts all power in order 0 with the Fresnel R and T",
          "[diffraction]") {
    // Fresnel at normal incidence from n1 = 1.45 into n2 = 1: R = ((n1 - n2) / (n1 + n2))^2,
    // T = 1 - R. Tolerance 0.005 absolute, the Fresnel test's (test_fresnel.cpp) for the same
    // chain of line source, flux DFTs and normalization run; the other orders of a uniform
    // field are round-off (1e-9 of P_inc).
    // Also with x and y exchanged: monitors normal to x, orders along y.
    const double n1 = 1.45, r_f = std::pow((n1 - 1) / (n1 + 1), 2), t_f = 1 - r_f;
    for (const bool swap_xy : {false, true})
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const Project project = swap_xy ? transposed(interface_project(pol)) : interface_project(pol);
        const int along = swap_xy ? 1 : 0;  // the axis of the period
        const RunResult res = run_cpu(project, "interface.glproj");
        REQUIRE(res.normalized);
        const DiffractionResult& R = diffraction_named(res, "R");
        const DiffractionResult& T = diffraction_named(res, "T");
        CHECK(R.index == Approx(n1).epsilon(1e-9));
        CHECK(T.index == Approx(1.0).epsilon(1e-9));
        CHECK(R.reference_subtracted);
        REQUIRE(R.orders.size() == 11);
        double max_dr = 0, max_dt = 0;
        for (std::size_t f = 0; f < R.orders.size(); ++f) {
            double r0 = 0, t0 = 0, others = 0;
            for (std::size_t o = 0; o < R.orders[f].size(); ++o) {
                const FloquetOrder& q = R.orders[f][o];
                CHECK(q.order[1 - along] == 0);
                CHECK(q.order[2] == 0);
                (q.order[along] == 0 ? r0 : others) += std::abs(R.power_fraction(f, o));
            }
            for (std::size_t o = 0; o < T.orders[f].size(); ++o) {
                const FloquetOrder& q = T.orders[f][o];
                CHECK(q.order[1 - along] == 0);
                (q.order[along] == 0 ? t0 : others) += std::abs(T.power_fraction(f, o));
                if (q.order[along] == 0) CHECK(q.theta_rad == Approx(0.0).margin(1e-12));
                if (q.order[along] == 1) CHECK(q.phi_rad == Approx(0.0).margin(1e-12));
                if (q.order[along] == -1) CHECK(std::abs(q.phi_rad) == Approx(units::pi).epsilon(1e-12));
                // the wave vector points along the monitor's direction, +y (+x swapped)
                CHECK(q.k_per_um[1 - along] > 0);
            }
            // SiO2 carries orders 0, +-1 (1.45 / lambda > 1), air 0 and +-1 below 1 um
            CHECK(R.orders[f].size() == 3);
            CHECK(T.orders[f].size() == (R.wavelength_um[f] < 1.0 ? 3u : 1u));
            INFO(to_string(pol) << " lambda " << R.wavelength_um[f] << ": R0 " << r0 << " T0 " << t0);
            CHECK(r0 == Approx(r_f).margin(0.005));
            CHECK(t0 == Approx(t_f).margin(0.005));
            CHECK(others < 1e-9);
            // s / p: TMz (E along z, normal to the plane of incidence xy) is s, TEz is p
            const FloquetOrder& o0 = T.orders[f][T.orders[f].size() / 2];
            CHECK(std::abs(pol == Polarization::TMz ? o0.power_p : o0.power_s) < 1e-9 * std::abs(o0.power));
            max_dr = std::max(max_dr, std::abs(r0 - r_f));
            max_dt = std::max(max_dt, std::abs(t0 - t_f));
        }
        std::printf("diffraction flat interface %s%s: R_fresnel %.5f, max|R0-R| %.2e, max|T0-T| %.2e (%.2f s)\n",
                    to_string(pol).c_str(), swap_xy ? " (x, y exchanged)" : "", r_f, max_dr, max_dt, res.wall_s);
    }
}

TEST_CASE("diffraction monitor in 3D: a flat interface under a 2D lattice of orders", "[diffraction][3d]") {
    // Lattice 1.0 um along x and 0.8 um along the other tangential axis (periodic), CPML
    // along the normal; glass (eps 2.25) beyond 1.02 um (halfway between two E-node planes)
    // along the normal, an x-polarized plane wave from 0.4 um going +normal; the reference
    // run is vacuum. Normal z, and normal y (where x, z is left-handed about the normal).
    // Fresnel from vacuum into n = 1.5: R = 0.04, T = 0.96 in order (0, 0), the other
    // propagating orders (the 2D lattice |k_par| < n k0) empty; at normal incidence E along x
    // (the first tangential axis) is p (diffraction.hpp). Tolerance 0.005 as in the 2D case
    // (dx 0.04 um: 14 cells per wavelength in the glass at 0.85 um, where the grid's
    // dispersion, (n k0 dx)^2 / 24 = 0.8 % in the index, moves R by about 3e-3). Order (0, 0)
    // also carries exactly the plane's flux (Parseval, 1e-9).
    const std::string z_normal = R"({
      "format": "golightly-project", "version": 1, "name": "flat interface 3D",
      "domain": {"dimensions": 3, "size": [1.0, 0.8, 2.0], "cell_size": 0.04,
                 "boundaries": {"x": "periodic", "y": "periodic", "z": "pml"}, "pml": {"cells": 12}},
      "materials": [{"id": "glass", "name": "glass", "epsilon_inf": 2.25}],
      "layers": [{"name": "glass", "material": "glass", "z": [1.02, 2.0],
                  "shapes": [{"type": "rectangle", "min": [0, 0], "max": [1.0, 0.8]}]}],
      "sources": [{"name": "pw", "type": "plane", "center": [0.5, 0.4, 0.4], "size": [1.0, 0.8, 0], "component": "Ex",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.0, "wavelength_span": 0.4}}],
      "monitors": [
        {"name": "R", "type": "diffraction", "center": [0.5, 0.4, 0.7], "size": [1.0, 0.8, 0], "direction": "-z",
         "kind": "reflection"},
        {"name": "T", "type": "diffraction", "center": [0.5, 0.4, 1.6], "size": [1.0, 0.8, 0], "direction": "+z",
         "kind": "transmission"}],
      "run": {"spectrum": {"wavelength_min": 0.85, "wavelength_max": 1.2, "points": 5},
              "stop": {"decay_db": 60, "max_time_fs": 1000},
              "normalization": {"enabled": true, "incident_monitor": "R"},
              "subpixel_averaging": false, "precision": "float64", "backend": "cpu"}
    })";
    const std::string y_normal = R"({
      "format": "golightly-project", "version": 1, "name": "flat interface 3D, normal y",
      "domain": {"dimensions": 3, "size": [1.0, 2.0, 0.8], "cell_size": 0.04,
                 "boundaries": {"x": "periodic", "y": "pml", "z": "periodic"}, "pml": {"cells": 12}},
      "materials": [{"id": "glass", "name": "glass", "epsilon_inf": 2.25}],
      "layers": [{"name": "glass", "material": "glass",
                  "shapes": [{"type": "rectangle", "min": [0, 1.02], "max": [1.0, 2.0]}]}],
      "sources": [{"name": "pw", "type": "plane", "center": [0.5, 0.4, 0.4], "size": [1.0, 0, 0.8], "component": "Ex",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.0, "wavelength_span": 0.4}}],
      "monitors": [
        {"name": "R", "type": "diffraction", "center": [0.5, 0.7, 0.4], "size": [1.0, 0, 0.8], "direction": "-y",
         "kind": "reflection"},
        {"name": "T", "type": "diffraction", "center": [0.5, 1.6, 0.4], "size": [1.0, 0, 0.8], "direction": "+y",
         "kind": "transmission"}],
      "run": {"spectrum": {"wavelength_min": 0.85, "wavelength_max": 1.2, "points": 5},
              "stop": {"decay_db": 60, "max_time_fs": 1000},
              "normalization": {"enabled": true, "incident_monitor": "R"},
              "subpixel_averaging": false, "precision": "float64", "backend": "cpu"}
    })";
    const double n2 = 1.5, r_f = std::pow((n2 - 1) / (n2 + 1), 2), t_f = 1 - r_f;
    for (const int normal : {2, 1}) {
        const int t2 = normal == 2 ? 1 : 2;  // the second tangential axis (period 0.8 um)
        const RunResult res =
            run_cpu(parse_project(normal == 2 ? z_normal : y_normal, "interface3d.glproj"), "interface3d.glproj");
        REQUIRE(res.normalized);
        double max_dr = 0, max_dt = 0;
        for (const char* name : {"R", "T"}) {
            const DiffractionResult& d = diffraction_named(res, name);
            const bool refl = d.kind == "reflection";
            CHECK(d.index == Approx(refl ? 1.0 : n2).epsilon(1e-9));
            REQUIRE(d.orders.size() == 5);
            for (std::size_t f = 0; f < d.orders.size(); ++f) {
                const double nk = (refl ? 1.0 : n2) / d.wavelength_um[f];  // |k_par| / 2 pi bound, 1/um
                std::size_t expect = 0;
                for (int m = -20; m <= 20; ++m)
                    for (int q = -16; q <= 16; ++q)
                        if (std::hypot(m / 1.0, q / 0.8) < nk) ++expect;
                CHECK(d.orders[f].size() == expect);
                double p0 = 0, others = 0;
                for (std::size_t o = 0; o < d.orders[f].size(); ++o) {
                    const FloquetOrder& q = d.orders[f][o];
                    CHECK(q.order[std::size_t(normal)] == 0);
                    CHECK(q.k_per_um[std::size_t(normal)] * (refl ? -1 : 1) > 0);
                    if (q.order[0] == 0 && q.order[std::size_t(t2)] == 0) {
                        p0 = d.power_fraction(f, o);
                        CHECK(std::abs(q.power_s) < 1e-6 * std::abs(q.power));  // Ex: p at normal incidence
                    } else {
                        others += std::abs(d.power_fraction(f, o));
                        // sin theta = |k_par| / (n k0), phi = atan2(k_t2, k_x)
                        const double kx = 2 * units::pi * q.order[0] / 1.0;
                        const double k2 = 2 * units::pi * q.order[std::size_t(t2)] / 0.8;
                        CHECK(std::sin(q.theta_rad) == Approx(std::hypot(kx, k2) / (2 * units::pi * nk)).epsilon(1e-12));
                        CHECK(q.phi_rad == Approx(std::atan2(k2, kx)).margin(1e-12));
                    }
                }
                INFO("normal " << "xyz"[normal] << ", " << name << " at " << d.wavelength_um[f] << " um: order (0,0) "
                               << p0 << ", others " << others);
                CHECK(p0 == Approx(spectrum_named(res, name).normalized[f]).margin(1e-9));
                CHECK(p0 == Approx(refl ? r_f : t_f).margin(0.005));
                CHECK(others < 1e-9);
                (refl ? max_dr : max_dt) = std::max(refl ? max_dr : max_dt, std::abs(p0 - (refl ? r_f : t_f)));
            }
        }
        std::printf("diffraction flat interface 3D, normal %c: max|R00-R| %.2e, max|T00-T| %.2e (%.2f s)\n",
                    "xyz"[normal], max_dr, max_dt, res.wall_s);
    }
}

namespace {

/// The binary grating of `project` (validation/) against Meep's `reference` CSV (same
/// structure, resolution 40 pixels/um, pulse and spectrum; validation/meep_grating.py),
/// `rows` the CSV's (side, wavelength, order) rows. The orders compared at each wavelength
/// and side are Meep's propagating ones, which GoLightly's monitor must list exactly: at
/// normal incidence 0 and +-1 on both sides; at oblique incidence (fixed Bloch k) the
/// orders k_x + m / period are asymmetric and their number changes across the band.
/// Issue 51: efficiency per order within 1 % absolute of Meep. Meep gives two per-order
/// figures:
/// - `efficiency`: its mode decomposition on DiffractedPlanewave orders (forward
///   coefficients on the transmission plane, backward on the reflection plane);
/// - `efficiency_poynting`: the Poynting flux of each Floquet order of its DFT fields on the
///   plane (reflection: of the fields minus the reference run's), its incident power from
///   the same fields of the reference run.
/// Each is known only as well as it keeps Meep's own sum rule: its orders should add up to
/// Meep's Poynting flux through the plane (`flux_total`). They do not exactly: the backward
/// mode coefficients miss the reflected flux by up to 5 % at this resolution (4x less at 80
/// pixels/um: a discretization error of the decomposition), the per-order Poynting figure
/// from Meep's interpolated DFT arrays exceeds the transmitted flux by up to 1 %. So an
/// order is held to 1 % plus its reference's defect at that wavelength and side; for the
/// transmitted orders' mode coefficients (defect below 1e-5) that is the issue's 1 %, for
/// the reflected orders' Poynting figure (defect below 4e-3) nearly so.
void check_grating_against_meep(const std::string& project, const std::string& reference, const char* label,
                                std::size_t rows) {
    const std::string dir = std::string(GOLIGHTLY_SOURCE_DIR) + "/validation/";
    std::ifstream csv(dir + reference);
    REQUIRE(csv);
    std::string line;
    std::getline(csv, line);
    REQUIRE(line == "wavelength_um,frequency_c_per_um,side,order,efficiency,efficiency_poynting,flux_total");
    struct Ref {
        double mode = 0, poynting = 0, flux = 0;
    };
    // (side, wavelength in 1e-5 um, order) -> Meep's figures
    std::map<std::tuple<std::string, long, int>, Ref> meep;
    while (std::getline(csv, line)) {
        std::stringstream ss(line);
        std::string cell[7];
        for (std::string& c : cell) std::getline(ss, c, ',');
        meep[{cell[2], std::lround(std::stod(cell[0]) * 1e5), std::stoi(cell[3])}] = {
            std::stod(cell[4]), std::stod(cell[5]), std::stod(cell[6])};
    }
    REQUIRE(meep.size() == rows);
    // per (side, wavelength): |sum of the orders - Meep's flux| of each figure, and Meep's
    // number of propagating orders
    std::map<std::pair<std::string, long>, Ref> defect;
    std::map<std::pair<std::string, long>, std::size_t> n_orders;
    for (const auto& [k, v] : meep) {
        ++n_orders[{std::get<0>(k), std::get<1>(k)}];
        Ref& d = defect[{std::get<0>(k), std::get<1>(k)}];
        d.mode += v.mode;
        d.poynting += v.poynting;
        d.flux = v.flux;
    }
    for (auto& [k, d] : defect) {
        d.mode = std::abs(d.mode - d.flux);
        d.poynting = std::abs(d.poynting - d.flux);
    }

    const Project p = load_project(dir + project);
    const RunResult res = run_cpu(p, project);
    REQUIRE(res.normalized);
    std::map<std::string, double> max_mode, max_poynting, max_total, max_defect_mode, max_defect_poynting;
    double max_parseval = 0;
    std::size_t compared = 0;
    for (const char* name : {"T", "R"}) {
        const DiffractionResult& d = diffraction_named(res, name);
        const FluxSpectrumResult& s = spectrum_named(res, name);
        const std::string side = d.kind;
        REQUIRE(d.orders.size() == 11);
        for (std::size_t f = 0; f < d.orders.size(); ++f) {
            const long key = std::lround(d.wavelength_um[f] * 1e5);
            const Ref& dr = defect.at({side, key});
            max_defect_mode[side] = std::max(max_defect_mode[side], dr.mode);
            max_defect_poynting[side] = std::max(max_defect_poynting[side], dr.poynting);
            INFO(label << " " << side << " at " << d.wavelength_um[f] << " um");
            REQUIRE(d.orders[f].size() == n_orders.at({side, key}));
            double sum = 0;
            for (std::size_t o = 0; o < d.orders[f].size(); ++o) {
                const FloquetOrder& q = d.orders[f][o];
                const auto it = meep.find({side, key, q.order[0]});
                REQUIRE(it != meep.end());
                const double ours = d.power_fraction(f, o);
                sum += ours;
                INFO(label << " " << side << " order " << q.order[0] << " at " << d.wavelength_um[f] << " um: " << ours
                           << " vs Meep's mode decomposition " << it->second.mode << " (defect " << dr.mode
                           << "), its Poynting per order " << it->second.poynting << " (defect " << dr.poynting << ")");
                CHECK(ours == Approx(it->second.mode).margin(0.01 + dr.mode));
                CHECK(ours == Approx(it->second.poynting).margin(0.01 + dr.poynting));
                max_mode[side] = std::max(max_mode[side], std::abs(ours - it->second.mode));
                max_poynting[side] = std::max(max_poynting[side], std::abs(ours - it->second.poynting));
                ++compared;
            }
            // The orders carry the plane's whole flux (Parseval; the evanescent orders'
            // share is below 1e-4 at these distances from the grating).
            CHECK(sum == Approx(s.normalized[f]).margin(1e-4));
            max_parseval = std::max(max_parseval, std::abs(sum - s.normalized[f]));
            // The total against Meep's Poynting flux through the plane
            CHECK(sum == Approx(dr.flux).margin(0.01));
            max_total[side] = std::max(max_total[side], std::abs(sum - dr.flux));
        }
    }
    CHECK(compared == rows);
    std::printf("diffraction grating %s vs Meep, max |difference| (Meep's own defect): transmitted orders %.2e (%.1e) "
                "mode decomposition, %.2e (%.1e) Poynting per order; reflected orders %.2e (%.1e) mode "
                "decomposition, %.2e (%.1e) Poynting per order; totals vs Meep's flux T %.2e, R %.2e; orders vs "
                "our flux %.1e (%.2f s)\n",
                label, max_mode["transmission"], max_defect_mode["transmission"], max_poynting["transmission"],
                max_defect_poynting["transmission"], max_mode["reflection"], max_defect_mode["reflection"],
                max_poynting["reflection"], max_defect_poynting["reflection"], max_total["transmission"],
                max_total["reflection"], max_parseval, res.wall_s);
}

}  // namespace

TEST_CASE("diffraction monitor: the binary grating's orders against Meep, TMz", "[diffraction][meep]") {
    // 11 wavelengths x (3 transmitted + 3 reflected orders)
    check_grating_against_meep("meep_grating.glproj", "meep_grating_reference.csv", "TMz", 66);
}

TEST_CASE("diffraction monitor: the binary grating's orders against Meep, TEz", "[diffraction][meep]") {
    // the same grating with every interface a quarter cell off the E nodes (Ex and Ey sit
    // half a cell apart), so that both codes point-sample the same structure
    check_grating_against_meep("meep_grating_te.glproj", "meep_grating_te_reference.csv", "TEz", 66);
}

TEST_CASE("diffraction monitor: the binary grating's orders at 20 degrees against Meep, TMz",
          "[diffraction][meep][bloch]") {
    // validation/meep_grating_20deg.glproj: the same grating lit from the SiO2 at 20 degrees
    // at 0.85 um, Bloch x with the fixed k_x = n_SiO2 sin(20 deg) 2 pi / 0.85 um (Meep's
    // k_point, meep_grating.py --angle 20). k_x / (2 pi) = 0.583 per um: air carries orders
    // -1 and 0, SiO2 -2, -1, 0 and, below 0.916 um (the order's Rayleigh anomaly, between
    // two spectrum points), +1: 11 x 2 transmitted and 9 x 4 + 2 x 3 reflected orders.
    check_grating_against_meep("meep_grating_20deg.glproj", "meep_grating_20deg_reference.csv", "TMz 20 deg", 64);
}

TEST_CASE("diffraction monitor: the binary grating's orders at 20 degrees against Meep, TEz",
          "[diffraction][meep][bloch]") {
    // the TEz grating (interfaces a quarter cell off the E nodes) at 20 degrees, p polarized
    check_grating_against_meep("meep_grating_te_20deg.glproj", "meep_grating_te_20deg_reference.csv", "TEz 20 deg",
                               64);
}

TEST_CASE("the grating examples are the validated set-ups, saved as GoLightly saves them", "[diffraction]") {
    // examples/grating_normal_2d.glproj: validation/meep_grating.glproj with the defaults a
    // new project has (float32, sub-pixel averaging: no E node is cut, so the same grid);
    // examples/grating_20deg_2d.glproj: the same for validation/meep_grating_20deg.glproj
    // (Bloch x, the source at 20 degrees).
    const std::string root = std::string(GOLIGHTLY_SOURCE_DIR);
    for (const auto& [example, validated] :
         {std::pair<std::string, std::string>{"grating_normal_2d", "meep_grating"}, {"grating_20deg_2d", "meep_grating_20deg"}}) {
        INFO(example);
        const Project ex = load_project(root + "/examples/" + example + ".glproj");
        Project val = load_project(root + "/validation/" + validated + ".glproj");
        std::ifstream in(root + "/examples/" + example + ".glproj");
        std::stringstream text;
        text << in.rdbuf();
        CHECK(project_to_json(ex).dump(2) + "\n" == text.str());
        CHECK(ex.run.precision == Precision::Float32);
        CHECK(ex.run.backend == BackendChoice::Auto);
        val.name = ex.name;
        val.materials = ex.materials;  // colours
        val.run.precision = ex.run.precision;
        val.run.subpixel_averaging = ex.run.subpixel_averaging;
        val.run.backend = ex.run.backend;
        CHECK(project_to_json(val) == project_to_json(ex));
    }
}

TEST_CASE("check refuses a diffraction monitor across a non-periodic axis", "[diffraction]") {
    const std::string good = R"({
      "format": "golightly-project", "version": 1, "name": "x",
      "domain": {"size": [1, 3], "cell_size": 0.05, "boundaries": {"x": "periodic", "y": "pml"}},
      "monitors": [{"name": "T", "type": "diffraction", "from": [0, 2.5], "to": [1, 2.5], "direction": "+y",
                    "kind": "transmission", "index": 1.0}]
    })";
    const Project p = parse_project(good, "good.glproj");
    REQUIRE(p.monitors.size() == 1);
    REQUIRE(p.monitors[0].diffraction);
    CHECK(p.monitors[0].type == MonitorType::Flux);
    CHECK(*p.monitors[0].diffraction->index == 1.0);
    // written back as type "diffraction"
    const Json j = project_to_json(p);
    CHECK(j["monitors"][0]["type"] == "diffraction");
    CHECK(parse_project(j.dump(), "again.glproj") == p);

    // each edit of `good` is refused with a ProjectError naming the file and the field
    auto refusal = [&](const std::string& from, const std::string& to, const std::string& file) {
        std::string text = good;
        text.replace(text.find(from), from.size(), to);
        try {
            parse_project(text, file);
        } catch (const ProjectError& e) {
            CHECK(e.file() == file);
            return std::make_pair(e.json_path(), std::string(e.what()));
        }
        FAIL("no ProjectError for " << to);
        return std::make_pair(std::string(), std::string());
    };
    auto [path, what] = refusal("\"x\": \"periodic\"", "\"x\": \"pml\"", "bad.glproj");
    CHECK(path == "monitors[0].type");
    CHECK(what.find("periodic") != std::string::npos);
    std::tie(path, what) = refusal("\"diffraction\"", "\"difraction\"", "typo.glproj");
    CHECK(path == "monitors[0].type");
    CHECK(what.find("\"dft_field\", \"diffraction\"") != std::string::npos);
    std::tie(path, what) = refusal("\"to\": [1, 2.5]", "\"to\": [0.5, 2.5]", "short.glproj");
    CHECK(path == "monitors[0].to");
}

TEST_CASE("diffraction results: the CSV, summary.json and golightly-cli diffraction", "[diffraction][cli]") {
    namespace fs = std::filesystem;
    const Project p = interface_project(Polarization::TMz);
    const RunResult res = run_cpu(p, "interface.glproj");
    const test::Scratch scratch("test", "diffraction");  // its own folder: the Release and ASan suites may run at once
    const fs::path dir = scratch.path;
    write_results(dir / "out", p, res);
    std::ifstream csv(dir / "out" / "diffraction" / "T.csv");
    REQUIRE(csv);
    std::string header;
    std::getline(csv, header);
    CHECK(header == "wavelength_um,order_x,order_y,order_z,theta_deg,phi_deg,power_fraction,power_s_fraction,"
                    "power_p_fraction,kx_per_um,ky_per_um,kz_per_um,power");
    std::ifstream sf(dir / "out" / "summary.json");
    const Json summary = Json::parse(sf);
    REQUIRE(summary.contains("diffraction"));
    const DiffractionResult& T = diffraction_named(res, "T");
    const Json& js = summary["diffraction"]["T"];
    CHECK(js["kind"] == "transmission");
    CHECK(js["normalized"] == true);
    REQUIRE(js["total"].size() == T.orders.size());
    for (std::size_t f = 0; f < T.orders.size(); ++f) {
        double sum = 0;
        for (std::size_t o = 0; o < T.orders[f].size(); ++o) sum += T.power_fraction(f, o);
        CHECK(js["total"][f].get<double>() == Approx(sum).epsilon(1e-9));
        CHECK(js["orders"][f].get<std::size_t>() == T.orders[f].size());
    }

    const std::string out = "'" + (dir / "out").string() + "'";
    const test::CliOut all = test::run_cli("diffraction " + out + " --json", dir);
    REQUIRE(all.code == 0);
    const Json j = Json::parse(all.out);
    REQUIRE(j.contains("R"));
    REQUIRE(j.contains("T"));
    REQUIRE(j["T"].size() == T.orders.size());
    for (std::size_t f = 0; f < T.orders.size(); ++f) {
        CHECK(j["T"][f]["total"].get<double>() == Approx(js["total"][f].get<double>()).epsilon(1e-9));
        CHECK(j["T"][f]["orders"].size() == T.orders[f].size());
    }
    const test::CliOut one = test::run_cli("diffraction " + out + " --monitor T --wavelength 0.8", dir);
    CHECK(one.code == 0);
    CHECK(one.out.find("monitor T") != std::string::npos);
    CHECK(one.out.find("monitor R") == std::string::npos);
    CHECK(one.out.find(" total ") != std::string::npos);
    std::size_t totals = 0;
    for (std::size_t at = one.out.find(" total "); at != std::string::npos; at = one.out.find(" total ", at + 1)) ++totals;
    CHECK(totals == 1);  // only the spectrum point nearest 0.8 um
    CHECK(test::run_cli("diffraction " + out + " --monitor nope", dir).code == 1);
    CHECK(test::run_cli("diffraction '" + (dir / "missing").string() + "'", dir).code == 1);
}

TEST_CASE("diffraction monitor over a Bloch cell: an oblique wave's order 0 carries the flux monitor's R and T at "
          "the fixed-k angle",
          "[diffraction][bloch]") {
    // examples/oblique_slab.glproj (a glass slab at 30 degrees, s, Bloch x with a 0.2 um
    // period, so over its 0.9-1.1 um band only order 0 propagates) with diffraction
    // monitors on its R and T lines. Same DFT data as the flux monitors, so order 0 equals
    // their normalized R and T to rounding (Parseval over the period); its angle is the
    // fixed-k one, sin(theta) = k_par lambda / (2 pi) = sin(30 deg) lambda / 1 um, in air.
    std::ifstream in(std::string(GOLIGHTLY_SOURCE_DIR) + "/examples/oblique_slab.glproj");
    std::stringstream text;
    text << in.rdbuf();
    Json j = Json::parse(text.str());
    for (const char* name : {"R", "T"}) {
        for (const Json& m : j["monitors"])
            if (m["name"] == name) {
                Json d = m;
                d["name"] = std::string(name) + "_orders";
                d["type"] = "diffraction";
                j["monitors"].push_back(d);
                break;
            }
    }
    const Project p = parse_project(j.dump(), "oblique_orders.glproj");
    RunOptions o;
    o.threads = 2;
    const RunResult r = run_project(p, "oblique_orders.glproj", o);
    REQUIRE(r.diffraction.size() == 2);
    REQUIRE(r.normalized);
    for (int k = 0; k < 2; ++k) {
        const DiffractionResult& d = r.diffraction[std::size_t(k)];
        const FluxSpectrumResult& f = r.spectra[std::size_t(k)];
        INFO(d.name);
        for (std::size_t w = 0; w < d.wavelength_um.size(); ++w) {
            REQUIRE(d.orders[w].size() == 1);  // period 0.2 um: order 0 alone propagates
            CHECK(d.power_fraction(w, 0) == Approx(f.normalized[w]).epsilon(1e-6).margin(1e-9));
            const double theta = std::asin(0.5 * d.wavelength_um[w] / 1.0);
            CHECK(d.orders[w][0].theta_rad == Approx(theta).margin(1e-6));
        }
    }
}
