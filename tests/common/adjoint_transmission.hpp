// The transmission objective of the 2D inverse-design benchmarks (tests/common/adjoint_bend.hpp,
// adjoint_converter.hpp): an adjoint::Problem over a square design box whose objective is the
// mean over the frequencies of functional 0's power over functional 1's at the first
// evaluation (the input monitor's forward power: the one-way source launches it whatever the
// design). Header-only, namespace golightly::test.
#pragma once

#include <cmath>
#include <complex>
#include <memory>
#include <vector>

#include "golightly/adjoint.hpp"
#include "golightly/compile.hpp"

namespace golightly::test {

/// The problem of `cp` (its scene and frequencies_hz) over the box [lo_um, hi_um]^2 of
/// pixel_um pixels between eps_min and eps_max, with `functionals` (0: the transmitted
/// amplitude, 1: the incident one) and T = mean_f |a0_f|^2 / P_f, P_f = |a1_f|^2 of the first
/// evaluation (shared by every copy of the problem); decay 1e-8.
inline adjoint::Problem transmission_problem(const CompiledProject& cp, std::vector<double> frequencies_hz, double lo_um,
                                             double hi_um, double pixel_um, double eps_min, double eps_max,
                                             std::vector<adjoint::FieldFunctional> functionals, BackendChoice backend,
                                             Precision precision) {
    adjoint::Problem p;
    p.scene = cp.scene;
    p.region.lo_um = {lo_um, lo_um, 0};
    p.region.hi_um = {hi_um, hi_um, 0};
    const int n = int(std::lround((hi_um - lo_um) / pixel_um));
    p.region.n = {n, n, 1};
    p.region.eps_min = eps_min;
    p.region.eps_max = eps_max;
    p.functionals = std::move(functionals);
    p.frequencies_hz = std::move(frequencies_hz);
    auto incident = std::make_shared<std::vector<double>>();
    p.objective = [incident](const adjoint::Amplitudes& a, adjoint::Amplitudes* g) {
        const std::size_t nf = a[0].size();
        if (incident->empty())
            for (std::size_t f = 0; f < nf; ++f) incident->push_back(std::norm(a[1][f]));
        double T = 0;
        if (g) *g = adjoint::Amplitudes(a.size(), std::vector<std::complex<double>>(nf, 0.0));
        for (std::size_t f = 0; f < nf; ++f) {
            T += std::norm(a[0][f]) / (*incident)[f] / double(nf);
            if (g) (*g)[0][f] = 2.0 * a[0][f] / (*incident)[f] / double(nf);
        }
        return T;
    };
    p.settings.backend = backend;
    p.settings.precision = precision;
    p.settings.decay = 1e-8;
    return p;
}

}  // namespace golightly::test
