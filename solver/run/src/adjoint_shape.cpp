// Shape parameters as adjoint design variables (adjoint_shape.hpp: the method, its
// discrete boundary formula and its limits).
#include "golightly/adjoint_shape.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "golightly/atomic_file.hpp"
#include "golightly/compile.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/units.hpp"
#include "golightly/errors.hpp"
#include "golightly/parameters.hpp"

#include "adjoint_internal.hpp"

#ifdef GOLIGHTLY_HAVE_NLOPT
#include <nlopt.h>
#endif

namespace golightly::adjoint {

namespace fs = std::filesystem;

namespace {

std::string param_path(std::size_t k) { return "design.shape_parameters[" + std::to_string(k) + "]"; }

std::vector<Component> e_components(const Scene& s) {
    if (s.dimensions == 3) return {Component::Ex, Component::Ey, Component::Ez};
    return electric_components(s.polarization);
}

/// The project as compiled for the permittivity only: no monitors, no design section, no
/// normalization run.
Scene geometry_scene(const Project& at, const std::string& file_label) {
    Project q = at;
    q.extra.erase("design");
    q.monitors.clear();
    q.run.normalization = Normalization{};
    q.run.stop.monitor.reset();
    return compile_project(q, file_label).scene;
}

/// `at` with the layers, materials and parameter bookkeeping of `base`: equal to `base`
/// when the parameters changed nothing else.
bool only_geometry_differs(const Project& base, Project at) {
    at.layers = base.layers;
    at.materials = base.materials;
    at.parameters = base.parameters;
    at.expressions = base.expressions;
    return at == base;
}

}  // namespace

Project project_at(const Project& project, const std::vector<std::string>& names, const std::vector<double>& values,
                   const std::string& file_label) {
    if (names.size() != values.size()) throw std::invalid_argument("project_at: one value per parameter name");
    ParameterOverrides o;
    for (std::size_t k = 0; k < names.size(); ++k) o.emplace_back(names[k], parameter_text(values[k]));
    return with_parameters(project, o, file_label);
}

namespace {

/// What the update of E site (c, cell) is made of: the table's eps_r and sigma, and its
/// dispersive entry (pole set, weight; -1 when none).
struct SiteState {
    double eps_r = 1, sigma = 0;
    long long dispersive = -1;
};

SiteState site_state(const Scene& s, int c, CellIndex cell) {
    SiteState st;
    const EUpdateCoeffs& e = s.table[s.material_index[c][std::size_t(cell)]];
    st.eps_r = e.eps_r;
    st.sigma = e.sigma;
    const auto& dc = s.dispersive[c].cells;
    const auto it = std::lower_bound(dc.begin(), dc.end(), cell);
    if (it != dc.end() && *it == cell) st.dispersive = it - dc.begin();
    return st;
}

/// The discrete permittivity of a site at omega (dispersion.hpp): eps_r, the conductivity's
/// term and the pole susceptibility of its dispersive entry.
std::complex<double> site_epsilon(const Scene& s, int c, const SiteState& st, double omega) {
    std::complex<double> e = discrete_epsilon(st.eps_r, st.sigma, PoleSet{}, 0.0, omega, s.dt_s);
    if (st.dispersive >= 0) {
        const std::size_t k = std::size_t(st.dispersive);
        e += discrete_epsilon(0.0, 0.0, s.pole_sets[s.dispersive[c].pole_set[k]], s.dispersive[c].weight[k], omega, s.dt_s);
    }
    return e;
}

bool same_poles(const Scene& a, int c, const SiteState& sa, const Scene& b, const SiteState& sb) {
    if ((sa.dispersive < 0) != (sb.dispersive < 0)) return false;
    if (sa.dispersive < 0) return true;
    const std::size_t ka = std::size_t(sa.dispersive), kb = std::size_t(sb.dispersive);
    if (a.dispersive[c].weight[ka] != b.dispersive[c].weight[kb]) return false;
    const auto& pa = a.pole_sets[a.dispersive[c].pole_set[ka]].poles;
    const auto& pb = b.pole_sets[b.dispersive[c].pole_set[kb]].poles;
    if (pa.size() != pb.size()) return false;
    for (std::size_t m = 0; m < pa.size(); ++m)
        if (pa[m].c1 != pb[m].c1 || pa[m].c2 != pb[m].c2 || pa[m].c3 != pb[m].c3 || pa[m].m0 != pb[m].m0 ||
            pa[m].m1 != pb[m].m1)
            return false;
    return true;
}

}  // namespace

ShapeSensitivity shape_sensitivity(const Project& project, const DesignSpec& spec, const std::vector<double>& values,
                                   const Scene& scene, const std::string& file_label,
                                   const std::vector<double>& frequencies_hz) {
    const std::size_t np = spec.shape_parameters.size();
    const std::size_t nf = frequencies_hz.size();
    if (values.size() != np) throw std::invalid_argument("shape sensitivity: one value per shape parameter");
    if (!project.run.subpixel_averaging)
        throw ProjectError(file_label, "run.subpixel_averaging",
                           "shape parameters need sub-pixel averaging (true): a staircased permittivity does not change "
                           "continuously with a boundary's position, so it has no useful derivative");
    std::vector<std::string> names;
    for (const auto& sp : spec.shape_parameters) names.push_back(sp.name);
    const Project base = project_at(project, names, values, file_label);
    const auto comps = e_components(scene);
    const std::size_t cells = scene.cells();
    // (component, cell) -> per parameter: d eps_r / d p_k, and d eps_d(w_f) / d p_k
    struct Row {
        std::vector<double> d_eps;
        std::vector<std::complex<double>> d_eps_w;
        bool moving = false;
    };
    std::map<SiteKey, Row> moved;
    auto row_of = [&](const SiteKey& key) -> Row& {
        Row& r = moved[key];
        r.d_eps.resize(np, 0.0);
        r.d_eps_w.resize(np * nf, 0.0);
        return r;
    };
    // d K / d p_k between sites (keys), off-diagonal both orders and the coupled sites' diagonal
    std::vector<std::vector<std::tuple<SiteKey, SiteKey, double>>> d_tensor(np);
    ShapeSensitivity out;
    out.moved.assign(np, 0);
    out.frequencies_hz = frequencies_hz;
    for (std::size_t k = 0; k < np; ++k) {
        const DesignShapeParameter& sp = spec.shape_parameters[k];
        const double h = sp.step > 0 ? sp.step : 1e-4 * (sp.max - sp.min);
        std::vector<double> up = values, down = values;
        up[k] = std::min(values[k] + h, sp.max);
        down[k] = std::max(values[k] - h, sp.min);
        const double span = up[k] - down[k];
        const Project pu = project_at(project, names, up, file_label);
        const Project pd = project_at(project, names, down, file_label);
        for (const Project* side : {&pu, &pd})
            if (!only_geometry_differs(base, *side))
                throw ProjectError(file_label, param_path(k) + ".name",
                                   "parameter \"" + sp.name +
                                       "\" changes more than the layers and materials (a source, monitor, the domain or "
                                       "the run settings): only the permittivity's dependence on it is differentiated");
        const Scene su = geometry_scene(pu, file_label), sd = geometry_scene(pd, file_label);
        for (const Scene* s : {&su, &sd})
            if (s->nx != scene.nx || s->ny != scene.ny || s->nz != scene.nz)
                throw ProjectError(file_label, param_path(k) + ".name",
                                   "parameter \"" + sp.name + "\" changes the grid; a shape parameter may move shapes only");
        for (Component comp : comps) {
            const int c = int(comp);
            for (std::size_t cell = 0; cell < cells; ++cell) {
                const SiteState u = site_state(su, c, CellIndex(cell)), d = site_state(sd, c, CellIndex(cell));
                if (u.eps_r == d.eps_r && u.sigma == d.sigma && u.dispersive < 0 && d.dispersive < 0) continue;
                std::vector<std::complex<double>> eu(nf), ed(nf);
                bool differs = u.eps_r != d.eps_r || u.sigma != d.sigma;
                for (std::size_t f = 0; f < nf; ++f) {
                    const double w = 2 * units::pi * frequencies_hz[f];
                    eu[f] = site_epsilon(su, c, u, w);
                    ed[f] = site_epsilon(sd, c, d, w);
                    differs = differs || eu[f] != ed[f];
                }
                if (nf == 0) differs = differs || !same_poles(su, c, u, sd, d);
                if (!differs) continue;
                const SiteKey key{c, CellIndex(cell)};
                Row& row = row_of(key);
                row.moving = true;
                row.d_eps[k] = (u.eps_r - d.eps_r) / span;
                if (tensor_listed(scene, c, CellIndex(cell))) {
                    // its diagonal 1 / eps_r is an entry of K (tensor-coupled sites are lossless,
                    // non-dispersive: compile_internal.hpp build_tensor_couplings)
                    if (u.eps_r != d.eps_r) d_tensor[k].emplace_back(key, key, (1.0 / u.eps_r - 1.0 / d.eps_r) / span);
                } else {
                    for (std::size_t f = 0; f < nf; ++f) row.d_eps_w[k * nf + f] = (eu[f] - ed[f]) / span;
                }
                ++out.moved[k];
            }
        }
        // the off-diagonal couplings
        const auto ku = tensor_couplings(su), kd = tensor_couplings(sd);
        std::map<std::pair<SiteKey, SiteKey>, double> dk;
        for (const auto& [pair, v] : ku) dk[pair] += v / span;
        for (const auto& [pair, v] : kd) dk[pair] -= v / span;
        for (const auto& [pair, v] : dk) {
            if (v == 0.0) continue;
            d_tensor[k].emplace_back(pair.first, pair.second, v);
            for (const SiteKey& key : {pair.first, pair.second}) {
                Row& row = row_of(key);
                if (!row.moving) ++out.moved[k];
                row.moving = true;
            }
        }
    }
    // The sites whose D~ the tensor terms read: those coupled at p, closed under the
    // couplings at p (K^-1 couples every site of a connected cluster; adjoint_tensor.hpp).
    std::vector<SiteKey> seeds;
    for (const auto& terms : d_tensor)
        for (const auto& [a, b, v] : terms)
            for (const SiteKey& key : {a, b}) seeds.push_back(key);
    const TensorCluster cluster = tensor_cluster(scene, seeds);
    std::set<SiteKey> in_cluster(cluster.sites.begin(), cluster.sites.end());
    for (const SiteKey& key : cluster.sites) (void)row_of(key);
    const std::int64_t n[3] = {scene.nx, scene.ny, scene.dimensions == 3 ? scene.nz : 1};
    for (int a = 0; a < 3; ++a) out.box_lo[std::size_t(a)] = n[a], out.box_hi[std::size_t(a)] = -1;
    std::map<SiteKey, std::size_t> index;
    for (const auto& [key, row] : moved) {
        index[key] = out.sites.size();
        out.sites.component.push_back(Component(key.first));
        out.sites.cell.push_back(key.second);
        out.d_eps.insert(out.d_eps.end(), row.d_eps.begin(), row.d_eps.end());
        out.d_eps_w.insert(out.d_eps_w.end(), row.d_eps_w.begin(), row.d_eps_w.end());
        out.moving.push_back(row.moving ? 1 : 0);
        out.coupled.push_back(in_cluster.count(key) ? 1 : 0);
        out.eps_at.push_back(scene.table[scene.material_index[key.first][std::size_t(key.second)]].eps_r);
        const std::int64_t ijk[3] = {key.second % n[0], (key.second / n[0]) % n[1], key.second / (n[0] * n[1])};
        for (int a = 0; a < 3; ++a) {
            out.box_lo[std::size_t(a)] = std::min(out.box_lo[std::size_t(a)], ijk[a]);
            out.box_hi[std::size_t(a)] = std::max(out.box_hi[std::size_t(a)], ijk[a]);
        }
    }
    out.d_tensor.resize(np);
    for (std::size_t k = 0; k < np; ++k)
        for (const auto& [a, b, v] : d_tensor[k]) out.d_tensor[k].push_back({index.at(a), index.at(b), v});
    for (const TensorEntry& t : cluster.k)
        out.k_at.push_back({index.at(cluster.sites[t.a]), index.at(cluster.sites[t.b]), t.value});
    return out;
}

namespace {

struct ShapeAt {
    ProjectProblem pp;
    ShapeSensitivity sens;
};

/// The problem and (with the gradient) the sensitivity at `p`, checked: the objective's
/// E samples must not lie on moving sites.
ShapeAt shape_at(const ShapeProblem& sp, const std::vector<double>& p, bool with_gradient) {
    const std::size_t np = sp.names.size();
    if (p.size() != np)
        throw std::invalid_argument("shape parameters: " + std::to_string(p.size()) + " values for " + std::to_string(np) +
                                    " parameters");
    for (std::size_t k = 0; k < np; ++k)
        if (!(p[k] >= sp.lo[k] && p[k] <= sp.hi[k]))
            throw std::invalid_argument("shape parameters: " + sp.names[k] + " = " + parameter_text(p[k]) +
                                        " lies outside its bounds");
    ShapeAt at;
    const Project q = project_at(sp.project, sp.names, p, sp.file_label);
    at.pp = shape_problem_at(q, sp.file_label, sp.project_dir, sp.options, sp.normalization);
    if (!with_gradient) return at;
    at.sens = shape_sensitivity(sp.project, sp.spec, p, at.pp.problem.scene, sp.file_label, at.pp.problem.frequencies_hz);
    std::unordered_map<CellIndex, std::size_t> site_of[3];
    for (std::size_t s = 0; s < at.sens.sites.size(); ++s)
        if (at.sens.moving[s]) site_of[component_axis(at.sens.sites.component[s])].emplace(at.sens.sites.cell[s], s);
    for (std::size_t t = 0; t < at.pp.problem.functionals.size(); ++t) {
        const FieldFunctional& fn = at.pp.problem.functionals[t];
        for (std::size_t q2 = 0; q2 < fn.cell.size(); ++q2) {
            if (!is_electric(fn.component[q2])) continue;
            const auto it = site_of[component_axis(fn.component[q2])].find(fn.cell[q2]);
            if (it == site_of[component_axis(fn.component[q2])].end()) continue;
            std::size_t k = 0;
            while (k + 1 < np && at.sens.d_eps[it->second * np + k] == 0.0 &&
                   (at.sens.d_eps_w.empty() || at.sens.d_eps_w[(it->second * np + k) * at.sens.frequencies_hz.size()] == 0.0))
                ++k;
            throw ProjectError(sp.file_label, param_path(k) + ".name",
                               "parameter \"" + sp.names[k] + "\" moves the permittivity where design.objective.terms[" +
                                   std::to_string(t) + "] samples the field (" + fn.name +
                                   "): a mode's or a point's dependence on it is not differentiated; move the monitor "
                                   "or point off the moving boundary");
        }
    }
    return at;
}

}  // namespace

ShapeProblem shape_problem_from_project(const Project& project, const std::string& file_label, const fs::path& project_dir,
                                        const ProjectProblemOptions& options) {
    const std::optional<DesignSpec> spec = design_spec(project, file_label);
    if (!spec) throw ProjectError(file_label, "design", "the project has no `design` section to optimize");
    if (spec->shape_parameters.empty())
        throw ProjectError(file_label, "design.shape_parameters", "the design has a density region, not shape parameters");
    ShapeProblem sp;
    sp.project = project;
    sp.file_label = file_label;
    sp.project_dir = project_dir;
    sp.spec = *spec;
    sp.options = options;
    for (const DesignShapeParameter& s : spec->shape_parameters) {
        sp.names.push_back(s.name);
        sp.lo.push_back(s.min);
        sp.hi.push_back(s.max);
        for (const Parameter& q : project.parameters)
            if (q.name == s.name) sp.p0.push_back(q.value);
    }
    // the normalization at the start values (run here once; every evaluation reuses it)
    ProjectProblem pp = shape_problem_at(project, file_label, project_dir, options);
    sp.normalization = pp.normalization;
    sp.wavelengths_um = pp.wavelengths_um;
    sp.warnings = pp.warnings;
    // the refusals of the sensitivity, before any run of the optimizer
    (void)shape_at(sp, sp.p0, true);
    return sp;
}

namespace {

/// D~ = K^-1 E over the tensor-coupled sites of `sens` (k_at, closed under the couplings;
/// adjoint_tensor.hpp solve_tensor): the engine steps E^{n+1} - E^n = K (S curl H~ + J')
/// there (scene.hpp "Anisotropic cells"), so D~ = K^-1 E holds at every step and for the
/// DFTs. Fills D[v] at the coupled sites.
void solve_coupled(const ShapeSensitivity& sens, std::size_t nf,
                   const std::vector<const std::vector<std::complex<double>>*>& fields,
                   std::vector<std::vector<std::complex<double>>>& D) {
    std::vector<std::size_t> local(sens.sites.size(), std::size_t(-1)), global;
    for (std::size_t s = 0; s < sens.sites.size(); ++s)
        if (sens.coupled[s]) local[s] = global.size(), global.push_back(s);
    std::vector<TensorEntry> k;
    for (const TensorEntry& t : sens.k_at) k.push_back({local.at(t.a), local.at(t.b), t.value});
    std::vector<std::size_t> used;
    for (std::size_t v = 0; v < fields.size(); ++v)
        if (!fields[v]->empty()) used.push_back(v);
    std::vector<std::vector<std::complex<double>>> e(used.size(), std::vector<std::complex<double>>(global.size() * nf));
    for (std::size_t u = 0; u < used.size(); ++u)
        for (std::size_t i = 0; i < global.size(); ++i)
            for (std::size_t f = 0; f < nf; ++f) e[u][i * nf + f] = (*fields[used[u]])[global[i] * nf + f];
    const auto x = solve_tensor(k, global.size(), nf, e);
    for (std::size_t u = 0; u < used.size(); ++u)
        for (std::size_t i = 0; i < global.size(); ++i)
            for (std::size_t f = 0; f < nf; ++f) D[used[u]][global[i] * nf + f] = x[u][i * nf + f];
}

/// The view box of ShapeFields (its struct comment: the margins, the PML clip, the 3D
/// plane, the TF/SF and size caps); lo > hi on an axis when there is none.
std::array<std::array<std::int64_t, 3>, 2> view_box(const Scene& scene, const ShapeSensitivity& sens) {
    std::array<std::int64_t, 3> lo{0, 0, 0}, hi{-1, -1, -1};
    if (sens.sites.size() == 0 || sens.box_hi[0] < sens.box_lo[0]) return {lo, hi};
    const bool three = scene.dimensions == 3;
    const std::int64_t n[3] = {scene.nx, scene.ny, three ? scene.nz : 1};
    std::int64_t margin[2];
    for (int a = 0; a < 2; ++a)
        margin[a] = std::max(kShapeViewMarginCells, (sens.box_hi[std::size_t(a)] - sens.box_lo[std::size_t(a)] + 1) / 4);
    const std::int64_t plane = three ? (sens.box_lo[2] + sens.box_hi[2]) / 2 : 0;
    for (std::int64_t shrink = 0;; ++shrink) {
        for (int a = 0; a < 2; ++a) {
            const std::int64_t m = std::max<std::int64_t>(margin[a] - shrink, 0);
            lo[std::size_t(a)] = std::max<std::int64_t>(sens.box_lo[std::size_t(a)] - m, scene.pml_lo[a]);
            hi[std::size_t(a)] = std::min<std::int64_t>(sens.box_hi[std::size_t(a)] + m, n[a] - 1 - scene.pml_hi[a]);
        }
        lo[2] = hi[2] = plane;
        const bool last = shrink >= std::max(margin[0], margin[1]);
        const std::int64_t cells = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1);
        bool fits = cells <= kShapeViewMaxCells;
        if (fits && !scene.tfsf.empty()) {
            // the test evaluate_sites makes, on the bounding box of every site it will get:
            // the view's and the sensitivity's (in 3D the latter spans more z planes)
            DesignSites corners;
            for (int side = 0; side < 2; ++side) {
                std::int64_t c[3];
                for (std::size_t a = 0; a < 3; ++a)
                    c[a] = side == 0 ? std::min(lo[a], sens.box_lo[a]) : std::max(hi[a], sens.box_hi[a]);
                corners.component.push_back(Component::Ez);
                corners.cell.push_back(CellIndex(c[0] + n[0] * (c[1] + n[1] * c[2])));
            }
            try {
                internal::check_tfsf_faces(scene, corners, "view");
            } catch (const std::invalid_argument&) {
                fits = false;
            }
        }
        if (fits) return {lo, hi};
        if (last) return {std::array<std::int64_t, 3>{0, 0, 0}, std::array<std::int64_t, 3>{-1, -1, -1}};
    }
}

/// The sites evaluate_sites samples: the sensitivity's and, with a view, every view site
/// that holds no E source of its component, grouped by component in the scene's order
/// (cells increasing). of_sens[s]: the sample of sensitivity site s; of_view[v]: the
/// sample of view site v (ShapeFields' index without f), -1 when not sampled.
struct Sampled {
    DesignSites sites;
    std::vector<std::size_t> of_sens;
    std::vector<std::int64_t> of_view;
    std::array<std::int64_t, 3> lo{0, 0, 0}, hi{-1, -1, -1};
    std::vector<Component> components;
};

Sampled sampled_sites(const Scene& scene, const ShapeSensitivity& sens, bool view) {
    Sampled out;
    if (!view) {
        out.sites = sens.sites;
        out.of_sens.resize(sens.sites.size());
        for (std::size_t s = 0; s < sens.sites.size(); ++s) out.of_sens[s] = s;
        return out;
    }
    const auto box = view_box(scene, sens);
    out.lo = box[0], out.hi = box[1];
    out.components = e_components(scene);
    const std::int64_t n[2] = {scene.nx, scene.ny};
    const std::int64_t vx = std::max<std::int64_t>(out.hi[0] - out.lo[0] + 1, 0),
                       vy = std::max<std::int64_t>(out.hi[1] - out.lo[1] + 1, 0),
                       vz = std::max<std::int64_t>(out.hi[2] - out.lo[2] + 1, 0);
    const std::size_t per = std::size_t(vx * vy * vz);
    out.of_view.assign(per * out.components.size(), -1);
    out.of_sens.assign(sens.sites.size(), 0);
    std::unordered_set<CellIndex> source_cells[3];
    for (const auto& src : scene.sources)
        if (is_electric(src.component))
            for (CellIndex c : src.cells) source_cells[component_axis(src.component)].insert(c);
    for (std::size_t ci = 0; ci < out.components.size(); ++ci) {
        const Component comp = out.components[ci];
        // the two lists in increasing cell order (the sensitivity's sites of a component
        // are; the view's loops run x fastest), merged so that a cell is sampled once
        std::vector<std::pair<CellIndex, std::size_t>> from_sens;  // (cell, sensitivity site)
        for (std::size_t s = 0; s < sens.sites.size(); ++s)
            if (sens.sites.component[s] == comp) from_sens.emplace_back(sens.sites.cell[s], s);
        std::vector<std::pair<CellIndex, std::size_t>> from_view;  // (cell, view site)
        for (std::int64_t k = 0; k < vz; ++k)
            for (std::int64_t j = 0; j < vy; ++j)
                for (std::int64_t i = 0; i < vx; ++i) {
                    const CellIndex cell = CellIndex((out.lo[0] + i) + n[0] * ((out.lo[1] + j) + n[1] * (out.lo[2] + k)));
                    if (!source_cells[component_axis(comp)].count(cell))
                        from_view.emplace_back(cell, ci * per + std::size_t((k * vy + j) * vx + i));
                }
        std::size_t a = 0, b = 0;
        while (a < from_sens.size() || b < from_view.size()) {
            const CellIndex cell = b == from_view.size() || (a < from_sens.size() && from_sens[a].first <= from_view[b].first)
                                       ? from_sens[a].first
                                       : from_view[b].first;
            const std::size_t q = out.sites.size();
            out.sites.component.push_back(comp);
            out.sites.cell.push_back(cell);
            if (a < from_sens.size() && from_sens[a].first == cell) out.of_sens[from_sens[a++].second] = q;
            if (b < from_view.size() && from_view[b].first == cell) out.of_view[from_view[b++].second] = std::int64_t(q);
        }
    }
    return out;
}

/// values [q * nf + f] of the sampled sites at the samples `of` ([s] -> q), [s * nf + f].
std::vector<std::complex<double>> pick(const std::vector<std::complex<double>>& values, const std::vector<std::size_t>& of,
                                       std::size_t nf) {
    if (values.empty()) return {};
    std::vector<std::complex<double>> out(of.size() * nf);
    for (std::size_t s = 0; s < of.size(); ++s)
        for (std::size_t f = 0; f < nf; ++f) out[s * nf + f] = values[of[s] * nf + f];
    return out;
}

}  // namespace

ShapeEvaluation evaluate_shape(const ShapeProblem& sp, const std::vector<double>& p, bool with_gradient) {
    const auto t0 = std::chrono::steady_clock::now();
    ShapeAt at = shape_at(sp, p, with_gradient);
    // with on_fields, the view's sites are sampled in the same runs (ShapeFields); their
    // sensitivity is computed by evaluate_sites and not used
    const bool view = sp.on_fields && with_gradient;
    const Sampled sampled = sampled_sites(at.pp.problem.scene, at.sens, view);
    Evaluation ev = evaluate_sites(at.pp.problem, sampled.sites, with_gradient);
    std::vector<std::complex<double>> all_forward, all_adjoint;  // of every sampled site (view)
    if (view) {
        const std::size_t nf = at.pp.problem.frequencies_hz.size();
        all_forward = std::move(ev.site_forward);
        all_adjoint = std::move(ev.site_adjoint);
        ev.site_forward = pick(all_forward, sampled.of_sens, nf);
        ev.site_adjoint = pick(all_adjoint, sampled.of_sens, nf);
        ev.site_adjoint_per_frequency = pick(ev.site_adjoint_per_frequency, sampled.of_sens, nf);
    }
    ShapeEvaluation out;
    out.objective = ev.objective;
    out.objective_per_frequency = ev.objective_per_frequency;
    out.sites = at.sens.sites.size();
    out.steps = ev.forward_steps + ev.adjoint_steps;
    out.warnings = ev.warnings;
    if (with_gradient) {
        const std::size_t np = sp.names.size();
        const std::vector<double>& freqs = at.pp.problem.frequencies_hz;
        const std::size_t nf = freqs.size(), ns = at.sens.sites.size();
        if (ev.site_forward.size() != ns * nf || ev.site_adjoint.size() != ns * nf || at.sens.d_eps_w.size() != ns * np * nf)
            throw std::invalid_argument("shape parameters: the sites' fields have the wrong size");
        const bool split = !ev.site_adjoint_per_frequency.empty();
        // D~ = K^-1 E at the sites (eps_r E where not tensor-coupled): forward, adjoint, per-frequency adjoint
        const std::vector<const std::vector<std::complex<double>>*> fields = {&ev.site_forward, &ev.site_adjoint,
                                                                              &ev.site_adjoint_per_frequency};
        std::vector<std::vector<std::complex<double>>> D(3);
        for (std::size_t v = 0; v < 3; ++v) {
            if (fields[v]->empty()) continue;
            D[v] = *fields[v];
            for (std::size_t s = 0; s < ns; ++s)
                for (std::size_t f = 0; f < nf; ++f) D[v][s * nf + f] *= at.sens.eps_at[s];
        }
        if (!at.sens.k_at.empty()) solve_coupled(at.sens, nf, fields, D);
        out.gradient.assign(np, 0.0);
        if (split) out.gradient_per_frequency.assign(nf, std::vector<double>(np, 0.0));
        for (std::size_t f = 0; f < nf; ++f) {
            const std::complex<double> one_minus_z = 1.0 - std::polar(1.0, 2 * units::pi * freqs[f] * at.pp.problem.scene.dt_s);
            // the diagonal (adjoint.hpp Evaluation): dF = Re(-(1 - z) E_fwd lambda d eps_d)
            for (std::size_t s = 0; s < ns; ++s) {
                const std::complex<double> a = -one_minus_z * ev.site_forward[s * nf + f] * ev.site_adjoint[s * nf + f];
                const std::complex<double> af =
                    split ? -one_minus_z * ev.site_forward[s * nf + f] * ev.site_adjoint_per_frequency[s * nf + f] : 0.0;
                for (std::size_t k = 0; k < np; ++k) {
                    const std::complex<double> de = at.sens.d_eps_w[(s * np + k) * nf + f];
                    if (de == 0.0) continue;
                    out.gradient[k] += std::real(a * de);
                    if (split) out.gradient_per_frequency[f][k] += std::real(af * de);
                }
            }
            // the tensor: dF = Re((1 - z) D~_adj^T dK D~_fwd)
            for (std::size_t k = 0; k < np; ++k)
                for (const TensorEntry& t : at.sens.d_tensor[k]) {
                    out.gradient[k] += std::real(one_minus_z * D[1][t.a * nf + f] * t.value * D[0][t.b * nf + f]);
                    if (split)
                        out.gradient_per_frequency[f][k] +=
                            std::real(one_minus_z * D[2][t.a * nf + f] * t.value * D[0][t.b * nf + f]);
                }
        }
    }
    if (view) {
        const Scene& scene = at.pp.problem.scene;
        const std::size_t nf = at.pp.problem.frequencies_hz.size();
        ShapeFields f;
        f.sites = &at.sens.sites;
        f.moving = at.sens.moving;
        f.grid = {scene.nx, scene.ny, scene.dimensions == 3 ? scene.nz : 1};
        f.box_lo = at.sens.box_lo;
        f.box_hi = at.sens.box_hi;
        f.p = p;
        f.frequencies_hz = at.pp.problem.frequencies_hz;
        f.forward = ev.site_forward;
        f.adjoint = ev.site_adjoint;
        f.view_lo = sampled.lo;
        f.view_hi = sampled.hi;
        f.view_components = sampled.components;
        f.view_forward.assign(sampled.of_view.size() * nf, 0.0);
        f.view_adjoint.assign(all_adjoint.empty() ? 0 : sampled.of_view.size() * nf, 0.0);
        f.view_sampled.assign(sampled.of_view.size(), 0);
        for (std::size_t v = 0; v < sampled.of_view.size(); ++v) {
            const std::int64_t q = sampled.of_view[v];
            if (q < 0) continue;
            f.view_sampled[v] = 1;
            for (std::size_t k = 0; k < nf; ++k) {
                f.view_forward[v * nf + k] = all_forward[std::size_t(q) * nf + k];
                if (!all_adjoint.empty()) f.view_adjoint[v * nf + k] = all_adjoint[std::size_t(q) * nf + k];
            }
        }
        sp.on_fields(f);
    }
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

// ------------------------------------------------------------------ checkpoint

namespace {

constexpr const char* kCheckpointFormat = "golightly-shape-checkpoint";

/// What a checkpoint must agree on to be resumed by `problem`: the project as read (FNV-1a
/// of its JSON text: any edit of the geometry, sources or design changes the values the
/// recorded evaluations hold), the parameters, bounds and the optimizer's settings.
Json problem_identity(const ShapeProblem& problem) {
    const std::string text = project_to_json(problem.project).dump();
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a 64
    for (unsigned char ch : text) h = (h ^ ch) * 1099511628211ull;
    char hex[20];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    Json j;
    j["project_fnv1a"] = hex;
    j["parameters"] = problem.names;
    j["p0"] = problem.p0;
    j["min"] = problem.lo;
    j["max"] = problem.hi;
    j["algorithm"] = problem.spec.algorithm;
    j["goal"] = problem.spec.objective.maximize ? "maximize" : "minimize";
    j["combine"] = problem.spec.objective.combine;
    j["precision"] = to_string(problem.options.precision.value_or(problem.project.run.precision));
    return j;
}

Json iteration_json(const ShapeIteration& it) {
    Json j;
    j["p"] = it.p;
    j["objective"] = it.objective;
    j["objective_per_frequency"] = it.objective_per_frequency;
    j["gradient"] = it.gradient;
    j["gradient_per_frequency"] = it.gradient_per_frequency;
    j["steps"] = it.steps;
    j["wall_s"] = it.wall_s;
    return j;
}

void write_shape_checkpoint(const fs::path& file, const Json& identity, const std::vector<ShapeIteration>& history) {
    Json j;
    j["format"] = kCheckpointFormat;
    j["problem"] = identity;
    Json ev = Json::array();
    for (const ShapeIteration& it : history) ev.push_back(iteration_json(it));
    j["evaluations"] = ev;
    // nlohmann writes doubles with 17 significant digits: they read back exactly
    write_file_atomic(file, j.dump() + "\n");
}

/// The evaluations of `file` (none when it does not exist), checked against `identity`.
std::vector<ShapeIteration> read_shape_checkpoint(const fs::path& file, const Json& identity, std::size_t np) {
    std::vector<ShapeIteration> out;
    if (file.empty() || !fs::exists(file)) return out;
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string name = file.string();
    try {
        const Json j = Json::parse(ss.str());
        if (!j.is_object() || j.value("format", "") != kCheckpointFormat || !j.contains("problem") ||
            !j.contains("evaluations") || !j["evaluations"].is_array())
            throw std::invalid_argument(name + ": not a GoLightly shape-parameter checkpoint");
        const Json& id = j["problem"];
        for (const auto& [key, value] : identity.items())
            if (!id.contains(key) || id[key] != value)
                throw std::invalid_argument(name + ": the checkpoint is of another problem (its " + key + " differs: " +
                                            (id.contains(key) ? id[key].dump() : std::string("missing")) + " against " +
                                            value.dump() + "); start afresh without resuming");
        for (const Json& e : j["evaluations"]) {
            ShapeIteration it;
            it.index = int(out.size());
            it.p = e.at("p").get<std::vector<double>>();
            it.objective = e.at("objective").get<double>();
            it.objective_per_frequency = e.at("objective_per_frequency").get<std::vector<double>>();
            it.gradient = e.at("gradient").get<std::vector<double>>();
            it.gradient_per_frequency = e.at("gradient_per_frequency").get<std::vector<std::vector<double>>>();
            it.steps = e.at("steps").get<long long>();
            it.wall_s = e.at("wall_s").get<double>();
            if (it.p.size() != np || it.gradient.size() != np)
                throw std::invalid_argument(name + ": evaluation " + std::to_string(it.index) + " has " +
                                            std::to_string(it.p.size()) + " values for " + std::to_string(np) +
                                            " parameters");
            for (const double g : it.gradient) it.gradient_norm += g * g;
            it.gradient_norm = std::sqrt(it.gradient_norm);
            it.replayed = true;
            out.push_back(std::move(it));
        }
    } catch (const Json::exception& e) {
        throw std::invalid_argument(name + ": not a readable shape-parameter checkpoint (" + e.what() + ")");
    }
    return out;
}

}  // namespace

#ifdef GOLIGHTLY_HAVE_NLOPT
namespace {

struct OptContext {
    const ShapeProblem* problem = nullptr;
    const std::function<bool(const ShapeIteration&)>* on_iteration = nullptr;
    ShapeOptimizeResult* result = nullptr;
    nlopt_opt opt = nullptr;
    bool maximize = true;
    bool epigraph = false;  ///< combine "min": the variables are p and t
    /// NLopt sees F / s, s the largest of |F| and the |F_f| at the first evaluation: MMA's
    /// tolerances are absolute, and F in DFT units may be 1e-29 (as optimize_density)
    double scale = 0;
    bool cancelled = false, stopped = false;
    /// max_iterations counts new evaluations (distinct points run here), not NLopt's
    /// function calls: the epigraph form's first point is evaluated before NLopt starts
    /// and NLopt may call again at a cached point, so its own count runs ahead of the
    /// history by a build-dependent amount and a resumed run would stop early.
    int budget = 0, fresh = 0;
    bool budget_hit = false;
    std::exception_ptr error;
    std::vector<ShapeIteration> replay;  ///< the checkpoint's evaluations, fed back in order
    fs::path checkpoint;
    Json identity;
    /// the last evaluation's p: the epigraph's constraints read the objective's evaluation
    /// at the same point (F does not depend on t)
    std::vector<double> cached_p;
    bool cached_ok = false;

    /// The iteration at x[0 .. np) (evaluated, replayed or the last one again); nullptr when
    /// the evaluation failed or was cancelled (NLopt is then stopped).
    const ShapeIteration* evaluate(const double* x) {
        const std::size_t np = problem->names.size();
        if (!cached_p.empty() && std::equal(x, x + np, cached_p.begin()))
            return cached_ok ? &result->history.back() : nullptr;
        cached_p.assign(x, x + np);
        cached_ok = false;
        std::vector<double> p = cached_p;
        // NLopt's moves stay within the bounds up to rounding
        for (std::size_t k = 0; k < np; ++k) p[k] = std::clamp(p[k], problem->lo[k], problem->hi[k]);
        const std::size_t index = result->history.size();
        ShapeIteration it;
        if (index < replay.size()) {
            // NLopt is deterministic: it asks again for the recorded point (exactly, since the
            // values fed back are the recorded ones); another point means another problem
            it = replay[index];
            for (std::size_t k = 0; k < np; ++k)
                if (std::abs(it.p[k] - p[k]) > 1e-12 * (problem->hi[k] - problem->lo[k])) {
                    error = std::make_exception_ptr(std::invalid_argument(
                        checkpoint.string() + ": evaluation " + std::to_string(index) + " was made at " +
                        problem->names[k] + " = " + parameter_text(it.p[k]) + " but the resumed optimizer asks for " +
                        parameter_text(p[k]) + "; the checkpoint is of other settings; start afresh without resuming"));
                    if (opt) nlopt_force_stop(opt);
                    return nullptr;
                }
        } else {
            if (budget > 0 && fresh >= budget) {
                budget_hit = true;
                if (opt) nlopt_force_stop(opt);
                return nullptr;
            }
            ++fresh;
            ShapeEvaluation ev;
            try {
                ev = evaluate_shape(*problem, p, true);
                if (epigraph && ev.gradient_per_frequency.size() != ev.objective_per_frequency.size())
                    throw std::invalid_argument("shape parameters: the per-frequency gradients are missing");
            } catch (const Cancelled&) {
                cancelled = true;
                if (opt) nlopt_force_stop(opt);
                return nullptr;
            } catch (...) {
                error = std::current_exception();
                if (opt) nlopt_force_stop(opt);
                return nullptr;
            }
            it.objective = ev.objective;
            it.objective_per_frequency = ev.objective_per_frequency;
            it.p = p;
            it.gradient = ev.gradient;
            it.gradient_per_frequency = ev.gradient_per_frequency;
            for (double g : ev.gradient) it.gradient_norm += g * g;
            it.gradient_norm = std::sqrt(it.gradient_norm);
            it.steps = ev.steps;
            it.wall_s = ev.wall_s;
        }
        it.index = int(index);
        if (scale == 0) {
            double s = std::abs(it.objective);
            for (double v : it.objective_per_frequency) s = std::max(s, std::abs(v));
            scale = s > 0 ? 1.0 / s : 1.0;
        }
        const bool better = result->history.empty() ||
                            (maximize ? it.objective > result->objective : it.objective < result->objective);
        if (better) result->p = it.p, result->objective = it.objective;
        result->history.push_back(it);
        if (!checkpoint.empty() && !it.replayed) {
            try {
                write_shape_checkpoint(checkpoint, identity, result->history);
            } catch (...) {
                error = std::current_exception();
                if (opt) nlopt_force_stop(opt);
                return nullptr;
            }
        }
        cached_ok = true;
        if (*on_iteration && !(*on_iteration)(result->history.back())) {
            stopped = true;
            if (opt) nlopt_force_stop(opt);
        }
        return &result->history.back();
    }
};

double shape_objective(unsigned n, const double* x, double* grad, void* data) {
    auto& c = *static_cast<OptContext*>(data);
    const ShapeIteration* it = c.evaluate(x);
    if (!it) return c.result->history.empty() ? 0.0 : c.result->history.back().objective * c.scale;
    if (grad)
        for (std::size_t k = 0; k < n; ++k) grad[k] = it->gradient[k] * c.scale;
    return it->objective * c.scale;
}

/// The epigraph form's objective: t, the last variable. The point's evaluation is made
/// here, where MMA and CCSA look first, and read by the constraints below.
double epigraph_objective(unsigned n, const double* x, double* grad, void* data) {
    auto& c = *static_cast<OptContext*>(data);
    (void)c.evaluate(x);
    if (grad) {
        std::fill(grad, grad + n, 0.0);
        grad[n - 1] = 1.0;
    }
    return x[n - 1];
}

/// One constraint per wavelength: t - F_f / s <= 0 (maximize), F_f / s - t <= 0
/// (minimize); gradient row f of m x n, row-major (NLopt's mconstraint layout).
void epigraph_constraints(unsigned m, double* out, unsigned n, const double* x, double* grad, void* data) {
    auto& c = *static_cast<OptContext*>(data);
    const ShapeIteration* it = c.evaluate(x);
    if (!it || it->objective_per_frequency.size() != m || it->gradient_per_frequency.size() != m) {
        std::fill(out, out + m, std::nan(""));
        if (grad) std::fill(grad, grad + std::size_t(m) * n, 0.0);
        return;
    }
    const double sign = c.maximize ? 1.0 : -1.0, t = x[n - 1];
    for (unsigned f = 0; f < m; ++f) {
        out[f] = sign * (t - it->objective_per_frequency[f] * c.scale);
        if (!grad) continue;
        double* row = grad + std::size_t(f) * n;
        for (std::size_t k = 0; k + 1 < n; ++k) row[k] = -sign * it->gradient_per_frequency[f][k] * c.scale;
        row[n - 1] = sign;
    }
}

}  // namespace
#endif

ShapeOptimizeResult optimize_shape(const ShapeProblem& problem, int max_iterations,
                                   const std::function<bool(const ShapeIteration&)>& on_iteration,
                                   const fs::path& checkpoint) {
#ifndef GOLIGHTLY_HAVE_NLOPT
    (void)problem, (void)max_iterations, (void)on_iteration, (void)checkpoint;
    throw std::runtime_error("this build has no optimizer (NLopt)");
#else
    const unsigned np = unsigned(problem.names.size());
    nlopt_algorithm alg;
    if (problem.spec.algorithm == "mma") alg = NLOPT_LD_MMA;
    else if (problem.spec.algorithm == "ccsa") alg = NLOPT_LD_CCSAQ;
    else if (problem.spec.algorithm == "lbfgs") alg = NLOPT_LD_LBFGS;
    else throw std::invalid_argument("optimize: unknown algorithm \"" + problem.spec.algorithm + "\" (mma, ccsa, lbfgs)");
    const bool epigraph = problem.spec.objective.combine == "min";
    if (epigraph && alg == NLOPT_LD_LBFGS)
        throw std::invalid_argument("optimize: the worst-wavelength objective (epigraph form: one constraint per "
                                    "wavelength) needs mma or ccsa");
    ShapeOptimizeResult result;
    result.p = problem.p0;
    OptContext c;
    c.problem = &problem;
    c.on_iteration = &on_iteration;
    c.result = &result;
    c.maximize = problem.spec.objective.maximize;
    c.epigraph = epigraph;
    c.checkpoint = checkpoint;
    if (!checkpoint.empty()) {
        c.identity = problem_identity(problem);
        c.replay = read_shape_checkpoint(checkpoint, c.identity, np);
    }
    const int budget = max_iterations > 0 ? max_iterations : problem.spec.max_iterations;
    c.budget = budget;

    std::vector<double> x = problem.p0, lo = problem.lo, hi = problem.hi;
    if (epigraph) {
        // t starts at the worst F_f of p0 (a feasible start); this evaluation is NLopt's
        // first (the cache), so it costs nothing extra
        const ShapeIteration* first = c.evaluate(problem.p0.data());
        if (c.error) std::rethrow_exception(c.error);
        if (!first) {
            result.stop = "cancelled";
            return result;
        }
        if (c.stopped) {
            result.stop = "stopped by the caller";
            return result;
        }
        const auto& v = first->objective_per_frequency;
        if (v.empty()) throw std::invalid_argument("optimize: the worst-wavelength objective needs the per-frequency values");
        x.push_back((c.maximize ? *std::min_element(v.begin(), v.end()) : *std::max_element(v.begin(), v.end())) * c.scale);
        lo.push_back(-HUGE_VAL);
        hi.push_back(HUGE_VAL);
    }
    c.opt = nlopt_create(alg, unsigned(x.size()));
    if (!c.opt) throw std::runtime_error("optimize: NLopt could not create the optimizer");
    nlopt_set_lower_bounds(c.opt, lo.data());
    nlopt_set_upper_bounds(c.opt, hi.data());
    const nlopt_func fn = epigraph ? epigraph_objective : shape_objective;
    if (c.maximize)
        nlopt_set_max_objective(c.opt, fn, &c);
    else
        nlopt_set_min_objective(c.opt, fn, &c);
    if (epigraph)
        nlopt_add_inequality_mconstraint(c.opt, unsigned(problem.wavelengths_um.size()), epigraph_constraints, &c, nullptr);
    // the budget is enforced in OptContext::evaluate (new evaluations only); NLopt's own
    // count is only a guard against a method that keeps calling at cached points
    nlopt_set_maxeval(c.opt, 10 * (budget + int(c.replay.size())) + 100);
    nlopt_set_xtol_rel(c.opt, 1e-6);
    double f = 0;
    const nlopt_result r = nlopt_optimize(c.opt, x.data(), &f);
    nlopt_destroy(c.opt);
    c.opt = nullptr;
    if (c.error) std::rethrow_exception(c.error);
    if (c.cancelled) result.stop = "cancelled";
    else if (c.stopped) result.stop = "stopped by the caller";
    else if (c.budget_hit) result.stop = "max_iterations reached";
    else if (r == NLOPT_MAXEVAL_REACHED) result.stop = "max_iterations reached";
    else if (r == NLOPT_XTOL_REACHED) result.stop = "converged (parameters change by less than 1e-6 relative)";
    else if (r == NLOPT_FTOL_REACHED || r == NLOPT_SUCCESS || r == NLOPT_STOPVAL_REACHED) result.stop = "converged";
    else if (r == NLOPT_ROUNDOFF_LIMITED) result.stop = "roundoff limited (NLopt)";
    else result.stop = "NLopt stopped (code " + std::to_string(int(r)) + ")";
    return result;
#endif
}

}  // namespace golightly::adjoint
