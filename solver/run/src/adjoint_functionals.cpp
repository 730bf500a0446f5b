// GoLightly adjoint (adjoint.hpp): field functionals (a point's E, a mode's amplitude in 2D
// and 3D) and the intensity objective.
#include "golightly/adjoint.hpp"
#include "golightly/adjoint_tensor.hpp"
#include "adjoint_internal.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_set>

#include "golightly/dispersion.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/grid.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

namespace golightly::adjoint {

using namespace internal;

FieldFunctional point_functional(const Scene& scene, Component component, const Vec3& position_um,
                                 const std::string& name) {
    const auto comps = scene_e_components(scene);
    if (!is_electric(component) || std::find(comps.begin(), comps.end(), component) == comps.end())
        throw std::invalid_argument(std::string("point functional: the scene has no ") + component_name(component));
    const auto n = grid_n(scene);
    const Vec3 off = yee_offset(component);
    std::int64_t ijk[3] = {0, 0, 0};
    const int dims = scene.dimensions == 3 ? 3 : 2;
    for (int a = 0; a < dims; ++a) {
        ijk[a] = std::llround(position_um[a] / scene.dx_um + scene.pml_lo[a] - off[a]);
        if (ijk[a] < 0 || ijk[a] >= n[a]) throw std::invalid_argument("point functional: the point lies outside the grid");
    }
    FieldFunctional f;
    f.name = name;
    f.component = {component};
    f.cell = {(ijk[2] * n[1] + ijk[1]) * n[0] + ijk[0]};
    f.weights = {1.0};
    return f;
}

namespace {

/// mode_functional of a 3D mode plane: mode_amplitudes' (dims 3) expansion written out per
/// sample. With the mode's transverse e, h (VectorMode, on the sets' nodes), dA = dx^2,
/// c = cos(beta_l dx / 2) and N = dA sum (e_u h_v - e_v h_u):
///   a+- = s [c J1 +- J2],  s = sqrt(c 1e-12 / eta0) / (2 c N),
///   J1 = dA sum (E_u h_v - E_v h_u),  J2 = dA sum (e_u H~_v - e_v H~_u),
/// so the weight of an E_u sample is s c dA h_v, of E_v -s c dA h_u, of H~_v +-s dA e_u and of
/// H~_u -+s dA e_v (upper signs: a+ in the plane's w direction), each times the set's w0 or
/// w1 for the two h nodes that H~ averages.
template <class SetOf>
FieldFunctional mode_functional_3d(const ModeMonitorPlan& plan, const SetOf& set_of, std::size_t mode, bool forward,
                                   const std::vector<std::size_t>& frequency_indices, const std::string& name) {
    // roles: 0 E_u, 1 E_v, 2 H~_u (E_v's nodes), 3 H~_v (E_u's nodes)
    const DftSet* sets[4] = {&set_of(plan.set_e[0]), &set_of(plan.set_e[1]), &set_of(plan.set_h[0]), &set_of(plan.set_h[1])};
    const std::size_t n_eu = sets[0]->cell0.size(), n_ev = sets[1]->cell0.size();
    if (sets[2]->cell0.size() != n_ev || sets[3]->cell0.size() != n_eu)
        throw std::invalid_argument("mode functional: the plane's E and H sets differ in size");
    FieldFunctional fn;
    fn.name = name;
    struct Slot {
        int role;
        std::size_t k;
        double w;
    };
    std::vector<Slot> slots;
    for (int r = 0; r < 4; ++r) {
        const DftSet& s = *sets[r];
        for (std::size_t k = 0; k < s.cell0.size(); ++k) {
            fn.component.push_back(s.component), fn.cell.push_back(s.cell0[k]), slots.push_back({r, k, s.w0[k]});
            if (s.cell1[k] >= 0)
                fn.component.push_back(s.component), fn.cell.push_back(s.cell1[k]), slots.push_back({r, k, s.w1[k]});
        }
    }
    fn.weights.assign(fn.cell.size(), 0.0);
    const double dA = plan.cs.grid.dx_um * plan.cs.grid.dx_um;
    const double pm = (plan.sign > 0) == forward ? 1.0 : -1.0;
    for (std::size_t f : frequency_indices) {
        if (f >= plan.frequencies_hz.size() || f >= plan.modes.size())
            throw std::invalid_argument("mode functional: frequency index out of range");
        std::vector<std::complex<double>> row(fn.cell.size(), 0.0);
        const VectorMode& vm = plan.modes[f][mode];
        if (vm.e[0].size() == n_eu && vm.h[1].size() == n_eu && vm.e[1].size() == n_ev && vm.h[0].size() == n_ev) {
            const double half = 0.5 * vm.beta_per_um * plan.cs.grid.dx_um;
            const double c = std::sqrt(std::max(1.0 - half * half, 1e-12));
            std::complex<double> nn = 0;
            for (std::size_t k = 0; k < n_eu; ++k) nn += vm.e[0][k] * vm.h[1][k];
            for (std::size_t k = 0; k < n_ev; ++k) nn -= vm.e[1][k] * vm.h[0][k];
            nn *= dA;
            if (std::abs(nn) != 0.0) {
                const std::complex<double> s = std::sqrt(c * 1e-12 / units::eta0) / (2 * c * nn) * dA;
                for (std::size_t q = 0; q < slots.size(); ++q) {
                    const Slot& sl = slots[q];
                    std::complex<double> v;
                    switch (sl.role) {
                        case 0: v = c * vm.h[1][sl.k]; break;
                        case 1: v = -c * vm.h[0][sl.k]; break;
                        case 2: v = -pm * vm.e[1][sl.k]; break;
                        default: v = pm * vm.e[0][sl.k]; break;
                    }
                    row[q] = s * v * sl.w;
                }
            }
        }
        fn.weights_per_frequency.push_back(std::move(row));
    }
    return fn;
}

}  // namespace

FieldFunctional mode_functional(const Scene& compiled, const ModeMonitorPlan& plan, std::size_t mode, bool forward,
                                const std::vector<std::size_t>& frequency_indices, const std::string& name) {
    if (mode >= plan.mode_indices.size()) throw std::invalid_argument("mode functional: mode slot out of range");
    const auto set_of = [&](int k) -> const DftSet& {
        if (k < 0 || std::size_t(k) >= compiled.dft_sets.size())
            throw std::invalid_argument("mode functional: the plan's DFT sets are not in the scene");
        return compiled.dft_sets[std::size_t(k)];
    };
    if (plan.dims == 3) return mode_functional_3d(plan, set_of, mode, forward, frequency_indices, name);
    const DftSet& es = set_of(plan.set_e[0]);
    const DftSet& hs = set_of(plan.set_h[0]);
    const std::size_t nn = es.cell0.size();
    if (hs.cell0.size() != nn) throw std::invalid_argument("mode functional: E and H sets differ in size");
    // entries: E sample k's cells, then H sample k's cells (w0 and, where averaged, w1)
    FieldFunctional fn;
    fn.name = name;
    struct Slot {
        bool e;
        std::size_t k;
        double w;
    };
    std::vector<Slot> slots;
    for (std::size_t k = 0; k < nn; ++k) {
        fn.component.push_back(es.component), fn.cell.push_back(es.cell0[k]), slots.push_back({true, k, es.w0[k]});
        if (es.cell1[k] >= 0)
            fn.component.push_back(es.component), fn.cell.push_back(es.cell1[k]), slots.push_back({true, k, es.w1[k]});
        fn.component.push_back(hs.component), fn.cell.push_back(hs.cell0[k]), slots.push_back({false, k, hs.w0[k]});
        if (hs.cell1[k] >= 0)
            fn.component.push_back(hs.component), fn.cell.push_back(hs.cell1[k]), slots.push_back({false, k, hs.w1[k]});
    }
    fn.weights.assign(fn.cell.size(), 0.0);
    // mode_amplitudes (dims 2): a+- = (J1 +- J2 / c) scale, J1 = sg sum E_k h_k, J2 = sg sum e_k H_k
    const bool plus = (plan.sign > 0) == forward;
    for (std::size_t f : frequency_indices) {
        if (f >= plan.frequencies_hz.size()) throw std::invalid_argument("mode functional: frequency index out of range");
        std::vector<std::complex<double>> row(fn.cell.size(), 0.0);
        const auto& e = plan.line_e[f][mode];
        const auto& h = plan.line_h[f][mode];
        if (e.size() == nn && h.size() == nn) {
            const double ne = plan.line_neff[f][mode];
            const double w = 2 * units::pi * plan.frequencies_hz[f];
            const double k0n = 2.0 / (units::c0 * plan.dt_s) * std::sin(0.5 * w * plan.dt_s) * units::um;
            const double half = 0.5 * ne * k0n * plan.dx_um;
            const double c = std::sqrt(std::max(1.0 - half * half, 1e-12));
            const double sg = plan.line_flux_sign * plan.dx_um;
            double nrm = 0;
            for (std::size_t k = 0; k < nn; ++k) nrm += e[k] * h[k];
            nrm *= sg;
            if (nrm > 0) {
                const double scale = std::sqrt(0.5 * c * nrm * 1e-6 / units::eta0) / (2 * nrm);
                for (std::size_t q = 0; q < slots.size(); ++q) {
                    const Slot& sl = slots[q];
                    row[q] = sl.e ? sg * h[sl.k] * scale * sl.w : (plus ? 1.0 : -1.0) * sg * e[sl.k] / c * scale * sl.w;
                }
            }
        }
        fn.weights_per_frequency.push_back(std::move(row));
    }
    return fn;
}

Objective intensity_objective(std::vector<std::vector<double>> weights) {
    return [weights](const Amplitudes& a, Amplitudes* g) {
        double F = 0;
        if (g) *g = a;
        for (std::size_t m = 0; m < a.size(); ++m)
            for (std::size_t f = 0; f < a[m].size(); ++f) {
                const double w = weights.empty() ? 1.0 : weights.at(m).at(f);
                F += w * std::norm(a[m][f]);
                if (g) (*g)[m][f] = 2.0 * w * a[m][f];
            }
        return F;
    };
}

}  // namespace golightly::adjoint
