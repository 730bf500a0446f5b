// The k = 0 mode of a uniform dispersive medium (scene.hpp "Dispersive cells", PoleCoeffs):
// a 4 x 4 x 4 periodic box filled with one pole, a uniform E = 1 at step 0, no H. curl H
// stays 0, so D = E + P is conserved and every cell steps the scalar recursion
//   P^{n+1} = c1 P^n + c2 P^{n-1} + c3 E^n,   E^{n+1} = E^n - (P^{n+1} - P^n),
// which the reference below steps in double. What it catches: stored in float32, c1 ~ 2 and
// c2 ~ -1 lose g dt and w0^2 dt^2 (ulp(2) = 2.4e-7); the Drude root z = 1 then moves by up
// to 1.2e-7 / (g dt) per step (B-CALM's gold at 1 nm cells: up to 9e-4), so the static
// polarization P -> D grows without bound or decays to 0, and a Lorentz pole with
// w0 dt ~ 3e-4 loses its w0^2 dt^2 (its static eps 1 + wp^2 / w0^2) altogether. The engines
// step the difference form of PoleCoeffs, which keeps both.
// Shared by tests/solver/test_pole_rounding.cpp (CPU) and tests/gpu/cuda_pole_rounding.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "golightly/dispersion.hpp"
#include "golightly/engine.hpp"
#include "golightly/project.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"

namespace golightly::test {

/// The periodic 4^3 box of cubic cells dx_um at Courant number 0.5, every E component of
/// every cell carrying `pole` (weight 1), eps_inf 1, no loss. The material table has one
/// entry (ca 1, cb = S, so that the correction weight cb / S is 1).
inline Scene uniform_pole_box(const Pole& pole, double dx_um) {
    Scene s;
    s.dimensions = 3;
    s.nx = s.ny = s.nz = 4;
    s.dx_um = dx_um;
    s.courant = 0.5;
    s.dt_s = s.courant * dx_um * units::um / units::c0;
    for (int a = 0; a < 3; ++a) s.boundary[a] = BoundaryKind::Periodic;
    std::vector<std::vector<double>> eps(3, std::vector<double>(s.cells(), 1.0)), sig(3);
    build_material_table(s, eps, sig);
    s.pole_sets.push_back(PoleSet{{pole_coefficients(pole, s.dt_s)}});
    for (int c = 0; c < 3; ++c) {
        DispersiveCells& d = s.dispersive[c];
        for (std::size_t k = 0; k < s.cells(); ++k) {
            d.cells.push_back(CellIndex(k));
            d.pole_set.push_back(0);
            d.weight.push_back(1.0);
        }
    }
    return s;
}

/// E^n of the k = 0 mode (E^0 = 1, P^0 = P^{-1} = 0) at steps checkpoints[0], ... (increasing),
/// stepped in double from the scene's coefficients.
inline std::vector<double> uniform_pole_reference(const Scene& s, const std::vector<int>& checkpoints) {
    const PoleCoeffs& c = s.pole_sets.at(0).poles.at(0);
    double e = 1, p = 0, pm = 0;
    std::vector<double> out;
    int n = 0;
    for (int stop : checkpoints) {
        for (; n < stop; ++n) {
            const double pn = c.c1 * p + c.c2 * pm + c.c3 * e;
            e -= pn - p;
            pm = p;
            p = pn;
        }
        out.push_back(e);
    }
    return out;
}

/// Steps `engine` (made from `s`) from E = 1 on every E component and returns, at each
/// checkpoint, the largest |E_c - reference| over the cells and the three components.
inline std::vector<double> uniform_pole_errors(const Scene& s, Engine& engine, const std::vector<int>& checkpoints) {
    const std::vector<double> ref = uniform_pole_reference(s, checkpoints);
    for (Component c : {Component::Ex, Component::Ey, Component::Ez})
        engine.set_field(c, std::vector<double>(s.cells(), 1.0));
    std::vector<double> worst, f;
    int done = 0;
    for (std::size_t i = 0; i < checkpoints.size(); ++i) {
        engine.step(checkpoints[i] - done);
        done = checkpoints[i];
        double w = 0;
        for (Component c : {Component::Ex, Component::Ey, Component::Ez}) {
            engine.get_field(c, f);
            for (double v : f) w = std::max(w, std::abs(v - ref[i]));
        }
        worst.push_back(w);
    }
    return worst;
}

/// B-CALM's gold (Table 1): the Drude pole and the first (lowest w0) Lorentz pole.
inline Pole drude_bcalm() { return Pole{PoleKind::Drude, 1.1959e16, 0.0, 8.05e13}; }
inline Pole lorentz_bcalm_1() { return Pole{PoleKind::Lorentz, 2.125e15, 6.30e14, 3.661e14}; }

}  // namespace golightly::test
