// GoLightly compiler: dispersive materials (compile_internal.hpp "DispersionBuilder"): which
// materials are dispersive or metals in the band, the pole sets of whole and cut cells
// (run.subpixel_metal: staircase, tangential, fraction, conformal) and their warnings. Shared
// by the 2D and the 3D compiler.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "compile_internal.hpp"
#include "golightly/conformal_metal.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/units.hpp"

namespace golightly::detail {

bool any_dispersive(const Project& project, const std::set<std::string>& used) {
    for (const std::string& id : used) {
        const Material* m = project.find_material(id);
        if (m && !m->poles.empty()) return true;
    }
    return false;
}

bool is_metal_in_band(const Project& project, const Material& m) {
    if (m.poles.empty()) return false;
    const double f_lo = units::c0 / (project.run.spectrum.wavelength_max * units::um),
                 f_hi = units::c0 / (project.run.spectrum.wavelength_min * units::um);
    constexpr int kSamples = 33;
    for (int k = 0; k < kSamples; ++k) {
        const double f = f_lo + (f_hi - f_lo) * k / (kSamples - 1);
        if (analytic_epsilon(m, 2 * units::pi * f).real() < 0) return true;
    }
    return false;
}

std::vector<std::string> staircased_metals(const Project& project, const std::set<std::string>& used) {
    std::vector<std::string> out;
    if (project.run.subpixel_metal != SubpixelMetal::Staircase) return out;
    for (const std::string& id : used) {
        const Material* m = project.find_material(id);
        if (m && is_metal_in_band(project, *m)) out.push_back(id);
    }
    return out;
}

std::uint32_t DispersionBuilder::add_set(PoleSet ps) {
    if (scene_.pole_sets.size() >= std::size_t(std::numeric_limits<std::int32_t>::max()))
        throw RunError("too many distinct dispersive pole sets (more than 2^31 - 1)");
    scene_.pole_sets.push_back(std::move(ps));
    return static_cast<std::uint32_t>(scene_.pole_sets.size() - 1);
}

std::uint32_t DispersionBuilder::material_set(const Material& m) {
    auto it = pure_set_.find(m.id);
    if (it != pure_set_.end()) return it->second;
    PoleSet ps;
    for (const Pole& p : m.poles) ps.poles.push_back(pole_coefficients(p, scene_.dt_s));
    return pure_set_[m.id] = add_set(std::move(ps));
}

std::pair<std::uint32_t, double> DispersionBuilder::conformal_set(const Material& metal, double f, double p, double h,
                                                                  double a) {
    auto mi = metal_index_.find(metal.id);
    if (mi == metal_index_.end()) mi = metal_index_.emplace(metal.id, double(metal_index_.size())).first;
    const std::vector<double> key{mi->second, f, p, h, a};
    auto it = conformal_set_.find(key);
    if (it != conformal_set_.end()) return it->second;
    CutCellPoles cp;
    double eps_inf = 1;
    try {
        const CutCellResponse r = cut_cell_response(metal, f, p, h, a);
        cp = cut_cell_poles(r, scene_.dt_s);
        eps_inf = r.epsilon_inf + cp.eps_inf_shift;
    } catch (const std::exception& e) {
        throw RunError(std::string("run.subpixel_metal \"conformal\": ") + e.what());
    }
    const std::uint32_t set = add_set(std::move(cp.poles));
    return conformal_set_[key] = {set, eps_inf};
}

Project conformal_probe(const Project& project) {
    const double wl = 0.5 * (project.run.spectrum.wavelength_min + project.run.spectrum.wavelength_max);
    const double omega = 2 * units::pi * units::c0 / (wl * units::um);
    Project probe = project;
    for (Material& m : probe.materials) {
        m.epsilon_inf = std::max(std::abs(analytic_epsilon(m, omega)), 1e-12);
        m.conductivity = 0;
        m.poles.clear();
    }
    return probe;
}

int DispersionBuilder::label(const std::string& l) {
    auto it = label_of_.find(l);
    if (it != label_of_.end()) return it->second;
    labels_.push_back(l);
    min_eps_inf_.push_back(std::numeric_limits<double>::infinity());
    return label_of_[l] = static_cast<int>(labels_.size() - 1);
}

namespace {

/// The largest squared projection n_d^2 of a metal's surface normal on an E component's
/// axis for which the component counts as tangential at a cut sample (classify,
/// "tangential"): the normal within about 6 degrees of perpendicular to the component. Why so small: the
/// exact response of a cut cell to a component with normal part p is the Kottke mix
/// 1 / eps_dd = p / eps_normal + (1 - p) / eps_tangential; with the metal's |eps| up to
/// about 40 (gold in the near infrared) the normal part dominates as soon as p exceeds
/// about 1 / |eps_tangential|, and any fractional pole weight for such a component puts
/// the cell near Re eps = 0. Measured on a 2D gold cylinder in TEz (B-CALM gold, r = 40
/// nm, 2.5 nm cells, tests/solver/test_metal_subpixel.cpp study): a linear blend
/// (1 - p) f + p s gave absorption errors up to +426 %, a threshold of 0.1 up to +184 %,
/// 0.02 the staircase's 9.4 %.
constexpr double kTangentialNormalProjection = 0.01;

/// p = n_axis^2 of the surface of the material whose fractions are `f` at sample (i, j, k)
/// (DispersionBuilder::classify, "tangential"); 1 where no gradient is resolvable.
double normal_projection(const std::vector<float>& f, const DispersionBuilder::SampleShape& sh, int i, int j, int k) {
    const int n[3] = {sh.nx, sh.ny, sh.nz};
    const int at[3] = {i, j, k};
    auto value = [&](int a, int d) {
        int idx[3] = {at[0], at[1], at[2]};
        idx[a] = std::clamp(idx[a] + d, 0, n[a] - 1);
        return double(f[(std::size_t(idx[2]) * std::size_t(sh.ny) + std::size_t(idx[1])) * std::size_t(sh.nx) +
                        std::size_t(idx[0])]);
    };
    const double f0 = value(0, 0);
    double g2[3] = {0, 0, 0}, sum = 0;
    for (int a = 0; a < 3; ++a) {
        if (n[a] < 2) continue;
        const double dp = value(a, 1) - f0, dm = f0 - value(a, -1);
        g2[a] = 0.5 * (dp * dp + dm * dm);
        sum += g2[a];
    }
    if (!(sum > 1e-12)) return 1.0;
    return g2[sh.axis] / sum;
}

}  // namespace

DispersionBuilder::SampleSets DispersionBuilder::classify(const Coverage& cov, const SampleShape& shape,
                                                          const std::vector<std::pair<std::size_t, float>>* normal_sq) {
    const double dt = scene_.dt_s;
    const std::size_t nm = cov.material_ids.size();
    std::vector<const Material*> mats(nm);
    for (std::size_t q = 0; q < nm; ++q) mats[q] = project_.find_material(cov.material_ids[q]);
    auto dispersive = [&](std::size_t q) { return mats[q] && !mats[q]->poles.empty(); };
    const std::size_t ns = nm ? cov.fraction[0].size() : 0;
    if (ns != std::size_t(shape.nx) * std::size_t(shape.ny) * std::size_t(shape.nz))
        throw RunError("DispersionBuilder::classify: " + std::to_string(ns) + " samples for a " +
                       std::to_string(shape.nx) + " x " + std::to_string(shape.ny) + " x " + std::to_string(shape.nz) +
                       " grid");
    SampleSets out;
    out.set.assign(ns, -1);
    out.weight.assign(ns, 0.0);
    out.label.assign(ns, -1);
    bool any = false;
    for (std::size_t q = 0; q < nm; ++q) any = any || dispersive(q);
    if (!any) return out;
    const SubpixelMetal scheme = project_.run.subpixel_metal;
    std::vector<char> metal(nm, 0);
    for (std::size_t q = 0; q < nm; ++q) {
        if (!dispersive(q)) continue;
        auto it = metal_.find(mats[q]->id);
        if (it == metal_.end()) it = metal_.emplace(mats[q]->id, is_metal_in_band(project_, *mats[q])).first;
        metal[q] = it->second;
    }
    // "tangential": a metal whose every cut sample is tangential for this component keeps
    // the fractions; one with any other cut sample is staircased at all of them (a surface
    // half averaged and half staircased measured worse than staircasing: a 3D gold sphere,
    // 2.5 nm cells, absorption +74 % against +29 %).
    std::vector<char> tangential(nm, 1);
    const bool conformal = subpixel_ && scheme == SubpixelMetal::Conformal && normal_sq;
    std::vector<double> eps_inf(nm, 1.0);
    std::vector<char> plain(nm, 0);  // non-dispersive without conductivity
    for (std::size_t q = 0; q < nm; ++q)
        if (mats[q]) {
            eps_inf[q] = mats[q]->epsilon_inf;
            plain[q] = mats[q]->poles.empty() && mats[q]->conductivity == 0.0;
        }
    std::size_t cursor = 0;  // into *normal_sq, which is sorted by sample
    if (subpixel_ && (scheme == SubpixelMetal::Tangential || scheme == SubpixelMetal::Conformal))
        for (std::size_t q = 0; q < nm; ++q) {
            if (!dispersive(q) || !metal[q]) continue;
            const std::vector<float>& fq = cov.fraction[q];
            for (std::size_t k = 0; k < ns && tangential[q]; ++k) {
                if (!(fq[k] > 0.0f && fq[k] < 1.0f)) continue;
                const int i = int(k % std::size_t(shape.nx)), j = int((k / std::size_t(shape.nx)) % std::size_t(shape.ny)),
                          kk = int(k / (std::size_t(shape.nx) * std::size_t(shape.ny)));
                tangential[q] = normal_projection(fq, shape, i, j, kk) <= kTangentialNormalProjection;
            }
        }
    // "conformal": a metal whose every cut sample lies on a face normal to a grid axis (p,
    // from the probe's normals, within kTangentialNormalProjection of 0 or 1) takes the
    // exact cut-cell response at all of them. Any oblique cut sample (a curved or tilted
    // surface, a corner inside a cell) sends the whole metal to the tangential rule: the
    // response of (1) is the diagonal entry of a tensor whose off-diagonal part the poles do
    // not carry, and without it the oblique cells resonate (a 2D gold cylinder in TEz,
    // 2.5 nm cells: absorption +449 % with every cut cell exact, against +9.3 % staircased;
    // exact cells only where the normal is within 6 degrees of an axis: isolated resonant
    // cells, +9.6 % to +54 % depending on the threshold).
    std::vector<char> aligned(nm, 0);
    if (conformal)
        for (std::size_t q = 0; q < nm; ++q) {
            if (!dispersive(q) || !metal[q]) continue;
            aligned[q] = 1;
            const std::vector<float>& fq = cov.fraction[q];
            std::size_t at = 0;
            for (std::size_t k = 0; k < ns && aligned[q]; ++k) {
                if (!(fq[k] > 0.0f && fq[k] < 1.0f)) continue;
                while (at < normal_sq->size() && (*normal_sq)[at].first < k) ++at;
                const double p = at < normal_sq->size() && (*normal_sq)[at].first == k ? (*normal_sq)[at].second : 0.5;
                aligned[q] = p <= kTangentialNormalProjection || p >= 1.0 - kTangentialNormalProjection;
            }
        }
    std::vector<double> w(nm, 0.0);
    for (std::size_t k = 0; k < ns; ++k) {
        std::size_t best = 0;
        for (std::size_t q = 1; q < nm; ++q)
            if (cov.fraction[q][k] > cov.fraction[best][k]) best = q;
        if (!subpixel_) {
            if (dispersive(best)) {
                out.set[k] = material_set(*mats[best]);
                out.weight[k] = 1.0;
                out.label[k] = label(mats[best]->id);
            }
            continue;
        }
        if (conformal) {
            // one metal cut by the window, everything else plain: the exact cut-cell poles
            int metal_q = -1;
            bool simple = true;
            for (std::size_t q = 0; q < nm && simple; ++q) {
                const double f = cov.fraction[q][k];
                if (f <= 0.0) continue;
                if (dispersive(q)) {
                    simple = metal[q] && f < 1.0 && mats[q]->conductivity == 0.0 && metal_q < 0;
                    metal_q = int(q);
                } else {
                    simple = plain[q];
                }
            }
            while (cursor < normal_sq->size() && (*normal_sq)[cursor].first < k) ++cursor;
            if (simple && metal_q >= 0 && aligned[std::size_t(metal_q)] && cursor < normal_sq->size() &&
                (*normal_sq)[cursor].first == k) {
                double h = 0, a = 0;
                for (std::size_t q = 0; q < nm; ++q) {
                    const double f = cov.fraction[q][k];
                    if (int(q) == metal_q || f <= 0.0) continue;
                    h += f / eps_inf[q];
                    a += f * eps_inf[q];
                }
                const double p = std::clamp(double((*normal_sq)[cursor].second), 0.0, 1.0);
                const auto [set, eps_inf_cell] =
                    conformal_set(*mats[std::size_t(metal_q)], double(cov.fraction[std::size_t(metal_q)][k]), p, h, a);
                out.set[k] = int(set);
                out.weight[k] = 1.0;
                out.label[k] = label(mats[std::size_t(metal_q)]->id);
                out.eps_inf.emplace_back(k, eps_inf_cell);
                continue;
            }
        }
        int n_disp = 0;
        std::size_t last = 0;
        for (std::size_t q = 0; q < nm; ++q) {
            w[q] = 0.0;
            if (!dispersive(q)) continue;
            const double f = cov.fraction[q][k], s = q == best ? 1.0 : 0.0;
            if (f <= 0.0) continue;
            if (f >= 1.0 || scheme == SubpixelMetal::Fraction || !metal[q]) {
                w[q] = f;
            } else {
                w[q] = (scheme == SubpixelMetal::Tangential || scheme == SubpixelMetal::Conformal) && tangential[q] ? f : s;
            }
            if (w[q] >= 1e-7) {
                ++n_disp;
                last = q;
            }
        }
        if (n_disp == 0) continue;
        if (n_disp == 1) {
            out.set[k] = material_set(*mats[last]);
            out.weight[k] = std::min(1.0, w[last]);
            out.label[k] = label(mats[last]->id);
            continue;
        }
        PoleSet ps;
        std::vector<double> key;
        std::string lab;
        for (std::size_t q = 0; q < nm; ++q) {
            if (!dispersive(q) || w[q] < 1e-7) continue;
            for (const Pole& p : mats[q]->poles) {
                ps.poles.push_back(pole_coefficients(p, dt, w[q]));
                key.insert(key.end(), {ps.poles.back().c1, ps.poles.back().c2, ps.poles.back().c3});
            }
            lab += (lab.empty() ? "" : "+") + mats[q]->id;
        }
        auto it = mixed_set_.find(key);
        out.set[k] = it != mixed_set_.end() ? it->second : (mixed_set_[key] = add_set(std::move(ps)));
        out.weight[k] = 1.0;
        out.label[k] = label(lab);
    }
    return out;
}

void DispersionBuilder::add_warnings(std::vector<std::string>& warnings, int dimensions) const {
    for (int lab : in_pml_)
        warnings.push_back("dispersive material '" + labels_[std::size_t(lab)] +
                           "' reaches into the PML: the CPML is not designed for dispersive media "
                           "(expect weaker absorption or reflections there; check the results)");
    const double dt = scene_.dt_s, S = scene_.courant;
    for (const auto& [id, set] : pure_set_) {
        const Material* m = project_.find_material(id);
        for (std::size_t q = 0; q < m->poles.size(); ++q) {
            const Pole& p = m->poles[q];
            const double w0dt = (p.kind == PoleKind::Drude ? 0.0 : p.omega_0) * dt;
            if (w0dt >= 2.0)
                warnings.push_back("material '" + id + "' pole " + std::to_string(q) + ": omega_0 dt = " + fmt(w0dt) +
                                   " >= 2: the pole update is UNSTABLE; reduce the cell size or the Courant number");
            else if (w0dt > 1.0)
                warnings.push_back("material '" + id + "' pole " + std::to_string(q) + ": omega_0 dt = " + fmt(w0dt) +
                                   " > 1: the resonance is poorly resolved in time");
        }
        const auto lit = label_of_.find(id);
        const double e_cells =
            lit != label_of_.end() ? std::min(m->epsilon_inf, min_eps_inf_[std::size_t(lit->second)]) : m->epsilon_inf;
        const double g1 =
            amplification_factor(m->epsilon_inf, m->conductivity, scene_.pole_sets[set], 1.0, S, dimensions, dt);
        const double g2 = e_cells < m->epsilon_inf
                              ? amplification_factor(e_cells, 0.0, scene_.pole_sets[set], 1.0, S, dimensions, dt)
                              : g1;
        if (g1 > 1.0 + 1e-6 || g2 > 1.0 + 1e-6)
            warnings.push_back("dispersive material '" + id + "' is UNSTABLE at dt = " + fmt(dt / units::fs) +
                               " fs (Courant " + fmt(S) + ", " + std::to_string(dimensions) +
                               "D): amplification " + fmt(std::max(g1, g2)) + " per step" +
                               (g1 <= 1.0 + 1e-6 ? " at a boundary cell (averaged epsilon_inf " + fmt(e_cells) + ")"
                                                 : "") +
                               "; reduce the Courant number or the cell size (sum omega_p^2 dt^2 + " +
                               std::to_string(4 * dimensions) +
                               " S^2 must stay below about 4 epsilon_inf), or drop poles far above the "
                               "spectrum (e.g. UV resonances of a metal fit)");
    }
}

}  // namespace golightly::detail
