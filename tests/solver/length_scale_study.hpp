// A fast study of the minimum length scale constraints (design_density.hpp constraint_solid /
// constraint_void) at several pixel sizes, with no FDTD: MMA (NLopt) moves a density whose
// projection should match a target pattern with features thinner than the length scale,
// under the constraints, with the schedule of adjoint_optimize.cpp (a beta continuation, the
// constraints joining at a beta with their bound relaxed from the design's values to epsilon
// in four steps, each its own NLopt run, NLopt seeing g / b - 1 <= 0). The same physical
// pattern, filter radius and length scale at each pixel size, so that the measured length
// scale of the result should not depend on the pixels.
#pragma once

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "golightly/design_density.hpp"
#include "length_scale_resampled.hpp"

// adjoint_optimize.hpp (golightly_run); declared alone so that the study needs no FDTD headers
namespace golightly::adjoint {
double relaxed_constraint_bound(double start, double end, int k, int evaluations);
}

namespace golightly::test {

struct LengthScaleStudy {
    double dx_um = 0.02;
    double region_um = 0.8;          ///< square region, side
    double length_um = 0.08;         ///< b
    double radius_um = 0.16;         ///< conic R (eta_e from b and R)
    double epsilon = 1e-6;           ///< the final bound
    std::vector<double> betas{8, 16, 32, 64};
    int beta_every = 25;
    double constraint_beta = 16;
    int relax_evaluations = 40;
};

struct LengthScaleStudyResult {
    double solid_um = 0, void_um = 0;          ///< measure_length_scale of rho^ >= 1/2, native pixels
    double fine_solid_um = 0, fine_void_um = 0; ///< of rho~ >= eta interpolated onto 5 nm pixels
    double g_solid = 0, g_void = 0, bound = 0; ///< the constraints at the end and their final bound
    double mismatch = 0;                       ///< mean (rho^ - target)^2 at the end
    int evaluations = 0;
};

/// The target: across x (nm, from the left edge of a 0.8 um region, scaled to region_um):
/// void 160, solid 40, void 200, solid 160, void 40, solid 200, over the middle half in y
/// (void above and below): an isolated 40 nm line and an isolated 40 nm gap, half the 80 nm
/// length scale, beside wide features.
inline std::vector<double> study_target(int n, double dx_um, double region_um) {
    const double edges_nm[] = {160, 200, 400, 560, 600};  // phase changes
    std::vector<double> t(std::size_t(n) * n, 0.0);
    const double s = region_um / 0.8;
    for (int j = 0; j < n; ++j) {
        const double y = (j + 0.5) * dx_um;
        if (y < 0.25 * region_um || y > 0.75 * region_um) continue;
        for (int i = 0; i < n; ++i) {
            const double x_nm = (i + 0.5) * dx_um * 1000 / s;
            int changes = 0;
            for (double e : edges_nm) changes += x_nm > e;
            t[std::size_t(j) * n + i] = changes % 2 ? 1.0 : 0.0;
        }
    }
    return t;
}

inline LengthScaleStudyResult run_length_scale_study(const LengthScaleStudy& s) {
    const int n = int(std::lround(s.region_um / s.dx_um));
    design::DensityGrid grid;
    grid.nx = grid.ny = n;
    grid.dx_um = s.dx_um;
    const std::vector<double> target = study_target(n, s.dx_um, s.region_um);
    grid.rho.resize(target.size());
    for (std::size_t p = 0; p < target.size(); ++p) grid.rho[p] = 0.25 + 0.5 * target[p];

    design::DesignMapping mapping;
    mapping.kind = design::FilterKind::Conic;
    mapping.radius_um = s.radius_um;
    mapping.eta = 0.5;
    design::LengthScaleConstraint ls;
    ls.kind = design::FilterKind::Conic;
    ls.radius_um = s.radius_um;
    ls.eta_i = 0.5;
    ls.eta_e = design::eta_e_from_conic(s.length_um, s.radius_um);
    ls.eta_d = 1 - ls.eta_e;
    ls.c_um2 = 64 * s.radius_um * s.radius_um;
    const double epsilon = s.epsilon;

    struct Ctx {
        design::DensityGrid* grid;
        const std::vector<double>* target;
        design::DesignMapping* mapping;
        design::LengthScaleConstraint* ls;
        double scale = 0;
        int evaluations = 0;
        double bound_solid = 0, bound_void = 0;
    } ctx{&grid, &target, &mapping, &ls};

    auto objective = [](unsigned nn, const double* x, double* grad, void* data) -> double {
        auto& c = *static_cast<Ctx*>(data);
        c.grid->rho.assign(x, x + nn);
        const std::vector<double> p = design::map_density(*c.grid, *c.mapping);
        std::vector<double> d(nn);
        double f = 0;
        for (unsigned q = 0; q < nn; ++q) {
            const double r = p[q] - (*c.target)[q];
            f += r * r / nn;
            d[q] = 2 * r / nn;
        }
        if (c.scale == 0) c.scale = f > 0 ? f : 1.0;
        ++c.evaluations;
        if (grad) {
            const std::vector<double> g = design::map_density_adjoint(*c.grid, *c.mapping, d);
            for (unsigned q = 0; q < nn; ++q) grad[q] = g[q] / c.scale;
        }
        return f / c.scale;
    };
    struct Con {
        Ctx* ctx;
        bool solid;
    };
    auto constraint = [](unsigned nn, const double* x, double* grad, void* data) -> double {
        const auto& k = *static_cast<Con*>(data);
        design::DensityGrid g = *k.ctx->grid;
        g.rho.assign(x, x + nn);
        design::LengthScaleConstraint l = *k.ctx->ls;
        l.beta = k.ctx->mapping->beta;
        const design::ConstraintValue v = k.solid ? design::constraint_solid(g, l) : design::constraint_void(g, l);
        const double b = k.solid ? k.ctx->bound_solid : k.ctx->bound_void;
        if (grad)
            for (unsigned q = 0; q < nn; ++q) grad[q] = v.gradient[q] / b;
        return v.value / b - 1;
    };
    Con solid{&ctx, true}, voids{&ctx, false};

    std::vector<double> rho = grid.rho;
    int iteration = 0, join = -1;
    double start_s = 0, start_v = 0;
    for (std::size_t e = 0; e < s.betas.size(); ++e) {
        mapping.beta = s.betas[e];
        int done = 0;
        while (done < s.beta_every) {
            int evals = s.beta_every - done;
            const bool on = mapping.beta >= s.constraint_beta;
            if (on) {
                ls.beta = mapping.beta;
                if (join < 0) {
                    join = iteration;
                    grid.rho = rho;
                    start_s = std::max(design::constraint_solid(grid, ls).value, epsilon);
                    start_v = std::max(design::constraint_void(grid, ls).value, epsilon);
                }
                const int k = iteration - join;
                ctx.bound_solid = adjoint::relaxed_constraint_bound(start_s, epsilon, k, s.relax_evaluations);
                ctx.bound_void = adjoint::relaxed_constraint_bound(start_v, epsilon, k, s.relax_evaluations);
                if (k < s.relax_evaluations)
                    evals = std::min(evals, std::min(s.relax_evaluations - k, std::max(1, (s.relax_evaluations + 3) / 4)));
            }
            nlopt_opt opt = nlopt_create(NLOPT_LD_MMA, unsigned(rho.size()));
            nlopt_set_lower_bounds1(opt, 0.0);
            nlopt_set_upper_bounds1(opt, 1.0);
            nlopt_set_min_objective(opt, objective, &ctx);
            if (on) {
                nlopt_add_inequality_constraint(opt, constraint, &solid, 0.0);
                nlopt_add_inequality_constraint(opt, constraint, &voids, 0.0);
            }
            nlopt_set_maxeval(opt, evals);
            const int before = ctx.evaluations;
            double f = 0;
            nlopt_optimize(opt, rho.data(), &f);
            nlopt_destroy(opt);
            const int made = ctx.evaluations - before;
            if (made == 0) throw std::runtime_error("length scale study: NLopt made no evaluation");
            iteration += made;
            done += made;
            if (made < evals && !(on && iteration - join < s.relax_evaluations)) break;  // converged
        }
    }

    LengthScaleStudyResult r;
    r.evaluations = iteration;
    grid.rho = rho;
    ls.beta = mapping.beta;
    r.g_solid = design::constraint_solid(grid, ls).value;
    r.g_void = design::constraint_void(grid, ls).value;
    r.bound = epsilon;
    const std::vector<double> p = design::map_density(grid, mapping);
    for (std::size_t q = 0; q < p.size(); ++q) r.mismatch += (p[q] - target[q]) * (p[q] - target[q]) / double(p.size());
    design::DensityGrid b = grid;
    b.rho = p;
    const design::MeasuredLengthScale m = design::measure_length_scale(b);
    r.solid_um = m.solid_um;
    r.void_um = m.void_um;
    // the same design measured on one common grid, so that the measure's own pixel
    // allowances are alike for every dx
    const design::MeasuredLengthScale mf =
        measure_resampled(design::filter(grid, mapping.kind, mapping.radius_um), n, s.dx_um, 0.005, mapping.eta);
    r.fine_solid_um = mf.solid_um;
    r.fine_void_um = mf.void_um;
    return r;
}

}  // namespace golightly::test
