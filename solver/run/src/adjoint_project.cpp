// A project's design section as an adjoint problem, density files and the final design as
// plain shapes (adjoint_project.hpp).
#include "golightly/adjoint_project.hpp"
#include "golightly/atomic_file.hpp"
#include "golightly/units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "golightly/compile.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/errors.hpp"
#include "golightly/gds.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/parameters.hpp"
#include "golightly/sparams.hpp"
#include "golightly/far_field.hpp"
#include "far_field_run.hpp"
#include "sweep_internal.hpp"

#ifdef GOLIGHTLY_HAVE_HDF5
#include <hdf5.h>
#endif

namespace golightly::adjoint {

namespace fs = std::filesystem;

namespace {

/// The variables F0, F1, ... of design.objective.expression: F_k = F[pos[k]].
std::vector<std::pair<std::string, double>> expression_variables(const std::vector<double>& F,
                                                                 const std::vector<std::size_t>& pos) {
    std::vector<std::pair<std::string, double>> vars;
    for (std::size_t k = 0; k < pos.size(); ++k) {
        std::string name = "F";  // (not "F" + to_string: GCC 12's false -Wrestrict)
        name += std::to_string(k);
        vars.emplace_back(name, F.at(pos[k]));
    }
    return vars;
}

/// design.objective.expression at the per-frequency values F (parameters.hpp
/// evaluate_expression; the reader checked that it parses).
double expression_value(const std::string& text, const std::vector<double>& F, const std::vector<std::size_t>& pos) {
    return evaluate_expression(text, expression_variables(F, pos), {});
}

/// d expr / d F_f per frequency f (summed over the k with pos[k] = f), by central differences
/// of step h_k = 1e-6 max(|F_k|, 1e-3 max_j |F_j|): the expression is a formula of a few
/// values, and its O(h^2) truncation (~1e-12 relative for smooth formulas; a kink such as
/// min() gives one side's slope) is far below the 1e-2 the adjoint gradient is held to.
/// Empty when `wanted` is false.
std::vector<double> expression_partials(const std::string& text, const std::vector<double>& F,
                                        const std::vector<std::size_t>& pos, bool wanted) {
    if (!wanted) return {};
    double scale = 0;
    for (double v : F) scale = std::max(scale, std::abs(v));
    std::vector<double> d(F.size(), 0.0);
    for (std::size_t k = 0; k < pos.size(); ++k) {
        const double h = 1e-6 * std::max({std::abs(F[pos[k]]), 1e-3 * scale, 1e-300});
        auto vars = expression_variables(F, pos);
        vars[k].second = F[pos[k]] + h;
        const double up = evaluate_expression(text, vars, {});
        vars[k].second = F[pos[k]] - h;
        const double down = evaluate_expression(text, vars, {});
        d[pos[k]] += (up - down) / (2 * h);
    }
    return d;
}

/// The mode monitor `name` of the compiled project (monitors keep the project's order).
const ModeMonitorPlan& plan_of(const Project& compiled_from, const CompiledProject& cp, const std::string& name) {
    for (std::size_t i = 0; i < compiled_from.monitors.size(); ++i)
        if (compiled_from.monitors[i].name == name && cp.monitors.at(i).mode_plan) return *cp.monitors[i].mode_plan;
    throw std::invalid_argument("mode monitor '" + name + "' has no mode plan after compiling");
}

/// The functional of mode slot `slot` of a mode monitor's plan (adjoint.hpp
/// mode_functional), refused where the line or plane guides no such mode at one of the
/// objective's wavelengths: its weights would be 0 there and the term would silently read
/// nothing. `wl_um`: the wavelength of each of `fi`.
FieldFunctional checked_mode_functional(const CompiledProject& cp, const ModeMonitorPlan& plan, std::size_t slot,
                                        bool forward, const std::vector<std::size_t>& fi, const std::vector<double>& wl_um,
                                        const std::string& name, const std::string& monitor,
                                        const std::string& file_label, const std::string& json_path) {
    FieldFunctional fn = mode_functional(cp.scene, plan, slot, forward, fi, name);
    for (std::size_t r = 0; r < fn.weights_per_frequency.size(); ++r) {
        bool any = false;
        for (const auto& w : fn.weights_per_frequency[r]) any = any || w != 0.0;
        if (!any)
            throw ProjectError(file_label, json_path,
                               "monitor \"" + monitor + "\" guides no mode " + std::to_string(plan.mode_indices.at(slot)) +
                                   " (slot " + std::to_string(slot) + " of its `modes`) at " +
                                   detail::csv_number(wl_um.at(r)) + " um: the term would be 0 there");
    }
    return fn;
}

/// The E samples of a mode functional that lie on sub-pixel tensor-coupled sites (3D: a
/// strip's edges under run.subpixel_averaging; TEz: oblique interfaces): there the adjoint
/// source uses the site's diagonal coefficient only, so the gradient errs by about their
/// share of the overlap (adjoint.hpp mode_functional, 3D caveat).
std::size_t tensor_coupled_samples(const Scene& scene, const FieldFunctional& fn) {
    std::size_t n = 0;
    for (std::size_t q = 0; q < fn.cell.size(); ++q) {
        if (!is_electric(fn.component[q])) continue;
        const auto& list = scene.anisotropic.cells[int(fn.component[q])];
        if (std::binary_search(list.begin(), list.end(), fn.cell[q])) ++n;
    }
    return n;
}

std::size_t nearest(const std::vector<double>& freqs, double f) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < freqs.size(); ++i)
        if (std::abs(freqs[i] - f) < std::abs(freqs[best] - f)) best = i;
    return best;
}

/// The far field of flux monitor `name` (a 2D line or flux_box) towards angle_deg as a
/// functional: a_f = sqrt(rho) E_far(phi) / sqrt(2 eta0) (TMz: E_z; TEz: E_phi), so that
/// |a_f|^2 is the radiation intensity U per radian of far_field/<name>.csv. The projection
/// (far_field_run.hpp surface_currents: J = n x H, M = -n x E on the monitor's samples;
/// far_field.hpp project_far_field: the 2D far-zone Green's function) is linear in the
/// monitor's DFT set samples, and each set sample is w0 F(cell0) + w1 F(cell1) (scene.hpp
/// DftSet), so the weights are found by projecting each set sample alone (unit value):
/// the projection's own kernel, sample by sample, at each objective frequency.
///
/// 3D (direction theta_deg, angle_deg = phi): two functionals, a_f = r E_theta / sqrt(2
/// eta0) and r E_phi / sqrt(2 eta0), whose |a_f|^2 sum to the radiation intensity U (W/sr
/// per DFT unit squared) of far_field/<name>.csv; the surface currents of a flux_box's six
/// faces projected by the 3D far-zone integrals (far_field.hpp), sample by sample as in 2D.
/// 2D: one functional (theta_deg 90).
std::vector<FieldFunctional> far_field_functionals(const CompiledProject& cp, const Project& compiled_from,
                                                   const std::string& name, double angle_deg,
                                                   const std::vector<std::size_t>& fi, double theta_deg = 90.0) {
    const Scene& scene = cp.scene;
    const CompiledMonitor* m = nullptr;
    for (std::size_t i = 0; i < compiled_from.monitors.size(); ++i)
        if (compiled_from.monitors[i].name == name) m = &cp.monitors.at(i);
    if (!m || m->flux_terms.empty())
        throw std::invalid_argument("far-field monitor '" + name + "' has no flux surface after compiling");
    std::vector<int> ids;
    for (const FluxTerm& t : m->flux_terms)
        for (int id : {t.e_set, t.h_set})
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    std::map<int, std::vector<std::complex<double>>> sets;
    FieldFunctional fn;
    fn.name = "far_field:" + name;
    // the functional's samples: per set, per sample, its one or two nodes
    struct Slot {
        int set;
        std::size_t k, first;
        bool two;
    };
    std::vector<Slot> slots;
    for (int id : ids) {
        const DftSet& ds = scene.dft_sets.at(std::size_t(id));
        sets[id].assign(ds.cell0.size(), 0.0);
        for (std::size_t k = 0; k < ds.cell0.size(); ++k) {
            slots.push_back({id, k, fn.cell.size(), ds.cell1.at(k) >= 0});
            fn.component.push_back(ds.component);
            fn.cell.push_back(ds.cell0[k]);
            if (slots.back().two) {
                fn.component.push_back(ds.component);
                fn.cell.push_back(ds.cell1[k]);
            }
        }
    }
    const double phi = angle_deg * units::pi / 180.0, norm = 1.0 / std::sqrt(2.0 * units::eta0);
    const std::vector<std::array<double, 2>> dir = {{theta_deg * units::pi / 180.0, phi}};
    // 2D: TMz E_z in e_theta, TEz E_phi; 3D: both parts
    const bool three_d = scene.dimensions == 3;
    const bool tmz = scene.polarization == Polarization::TMz;
    FieldFunctional fn_phi = fn;
    if (three_d) fn.name += ":theta", fn_phi.name += ":phi";
    const std::vector<double>& set_freqs = scene.dft_sets.at(std::size_t(ids[0])).frequencies_hz;
    for (std::size_t f : fi) {
        const double want = cp.spectrum_hz.at(f);
        std::size_t jf = 0;
        for (std::size_t j = 1; j < set_freqs.size(); ++j)
            if (std::abs(set_freqs[j] - want) < std::abs(set_freqs[jf] - want)) jf = j;
        if (set_freqs.empty() || std::abs(set_freqs[jf] - want) > 1e-9 * want)
            throw std::invalid_argument("far-field monitor '" + name + "' holds no DFT at the objective's frequency");
        std::vector<std::complex<double>> row(fn.cell.size(), 0.0), row_phi(three_d ? fn.cell.size() : 0, 0.0);
        // The kernel of each set sample, linear in the samples: surface_currents makes one
        // current sample per flux term and E-set sample k, from that term's E and H set
        // values at k alone (far_field_run.cpp), so two calls with every E (then every H)
        // set value 1 give each current's response to its own unit sample; each current is
        // projected alone (the projection is a sum over the current samples) and added to
        // the kernel of the set sample that feeds it. (Projecting each unit set sample
        // through the whole surface was quadratic in the samples.)
        std::map<int, std::vector<std::complex<double>>> kernel, kernel_phi;
        for (int id : ids) kernel[id].assign(sets[id].size(), 0.0), kernel_phi[id].assign(sets[id].size(), 0.0);
        for (int pass = 0; pass < 2; ++pass) {  // 0: the E sets at 1, 1: the H sets at 1
            std::map<int, std::vector<std::complex<double>>> unit = sets;
            for (const FluxTerm& t : m->flux_terms) {
                std::fill(unit[t.e_set].begin(), unit[t.e_set].end(), pass == 0 ? 1.0 : 0.0);
                std::fill(unit[t.h_set].begin(), unit[t.h_set].end(), pass == 1 ? 1.0 : 0.0);
            }
            const SurfaceCurrents all = detail::surface_currents(scene, *m, jf, unit, 0, 1, nullptr);
            SurfaceCurrents one;
            one.frequency_hz = all.frequency_hz;
            one.dimensions = all.dimensions;
            one.polarization = all.polarization;
            one.position_m.resize(1), one.j.resize(1), one.m.resize(1), one.ds.resize(1);
            std::size_t q = 0;
            for (const FluxTerm& t : m->flux_terms) {
                const int id = pass == 0 ? t.e_set : t.h_set;
                const std::size_t n = scene.dft_sets.at(std::size_t(t.e_set)).cell0.size();
                if (q + n > all.position_m.size())
                    throw std::logic_error("far-field functional: surface_currents gave fewer currents than set samples");
                for (std::size_t k = 0; k < n; ++k, ++q) {
                    one.position_m[0] = all.position_m[q], one.j[0] = all.j[q], one.m[0] = all.m[q], one.ds[0] = all.ds[q];
                    const FarFieldSample ff = project_far_field(one, dir).at(0);
                    kernel[id].at(k) += (three_d || tmz ? ff.e_theta : ff.e_phi) * norm;
                    if (three_d) kernel_phi[id].at(k) += ff.e_phi * norm;
                }
            }
            if (q != all.position_m.size())
                throw std::logic_error("far-field functional: surface_currents gave more currents than set samples");
        }
        for (const Slot& sl : slots) {
            const DftSet& ds = scene.dft_sets.at(std::size_t(sl.set));
            const std::complex<double> k0 = kernel[sl.set][sl.k];
            row[sl.first] = k0 * ds.w0[sl.k];
            if (sl.two) row[sl.first + 1] = k0 * ds.w1[sl.k];
            if (three_d) {
                const std::complex<double> kp = kernel_phi[sl.set][sl.k];
                row_phi[sl.first] = kp * ds.w0[sl.k];
                if (sl.two) row_phi[sl.first + 1] = kp * ds.w1[sl.k];
            }
        }
        fn.weights_per_frequency.push_back(std::move(row));
        if (three_d) fn_phi.weights_per_frequency.push_back(std::move(row_phi));
    }
    fn.weights = fn.weights_per_frequency.at(0);  // (the per-frequency rows replace it)
    if (!three_d) return {fn};
    fn_phi.weights = fn_phi.weights_per_frequency.at(0);
    return {fn, fn_phi};
}

}  // namespace

namespace {

/// problem_from_project and shape_problem_at: `shape` the design of shape parameters (no
/// density region); `given_normalization` non-empty: N(f), no normalization run.
ProjectProblem build_problem(const Project& project, const std::string& file_label, const fs::path& project_dir,
                             const ProjectProblemOptions& options, bool shape,
                             const std::vector<double>& given_normalization) {
    const std::optional<DesignSpec> spec = design_spec(project, file_label);
    if (!spec) throw ProjectError(file_label, "design", "the project has no `design` section to optimize");
    ProjectProblem pp;
    pp.spec = *spec;
    pp.dimensions = project.domain.dimensions;
    if (shape != pp.spec.regions.empty())
        throw ProjectError(file_label, shape ? "design.regions" : "design.shape_parameters",
                           shape ? "the design has a density region, not shape parameters"
                                 : "the design has shape parameters, not a density region (adjoint_shape.hpp)");
    const DesignRegionSpec rs = shape ? DesignRegionSpec{} : pp.spec.regions.at(0);
    const DesignObjective& obj = pp.spec.objective;

    // S-parameter terms (|S_ij|^2): the run is that of the excited port-mode j as
    // golightly-cli sparams makes it (sparams.hpp port_mode_project: port j's mode source,
    // a mode monitor "port_<name>" 2 cells inside every port, pointing into the device);
    // each term reads the backward (outgoing) amplitude b_i of port-mode i's slot there and
    // is normalized by the forward (incident) power |a_j|^2 at port j's monitor, taken once
    // like normalize_by (a one-way source's launched wave does not depend on the design).
    // The reference-plane phase of sparameter_column has modulus 1 for the guided (real
    // n_eff) modes of a port, so |b_i / a_j|^2 = |S_ij|^2.
    std::vector<DesignObjectiveTerm> terms = obj.terms;
    std::string norm_monitor = obj.normalize_by, norm_path = "design.objective.normalize_by";
    std::size_t norm_slot = 0;
    Project source = project;
    int excite = -1;
    for (std::size_t t = 0; t < terms.size(); ++t)
        if (terms[t].s_excite >= 0 && excite < 0) {
            excite = terms[t].s_excite;
            norm_path = "design.objective.terms[" + std::to_string(t) + "].sparameter";
        }
    if (excite >= 0) {
        const std::vector<Port> ports = parse_ports(project, file_label);
        const std::vector<PortMode> pm = port_modes(ports);
        // port-mode k: its monitor and its slot in that monitor's `modes` (the port's)
        auto monitor_of = [&](int k, const std::string& path) -> std::pair<std::string, std::size_t> {
            if (k < 0 || std::size_t(k) >= pm.size())
                throw ProjectError(file_label, path, "port-mode " + std::to_string(k + 1) + " does not exist (the ports have " +
                                                         std::to_string(pm.size()) + ")");
            std::size_t slot = 0;
            for (int q2 = k - 1; q2 >= 0 && pm[std::size_t(q2)].port == pm[std::size_t(k)].port; --q2) ++slot;
            return {"port_" + ports[std::size_t(pm[std::size_t(k)].port)].name, slot};
        };
        source = port_mode_project(project, file_label, std::size_t(excite));
        for (std::size_t t = 0; t < terms.size(); ++t) {
            if (terms[t].s_excite < 0) continue;
            const auto [name, slot] = monitor_of(terms[t].s_receive, "design.objective.terms[" + std::to_string(t) + "].sparameter");
            terms[t].monitor = name;
            terms[t].mode = int(slot);
            terms[t].forward = false;  // leaving the device: against the port's direction
        }
        std::tie(norm_monitor, norm_slot) = monitor_of(excite, norm_path);
    }

    // The project as compiled: the spectrum at the objective's wavelengths, only the
    // monitors the objective reads, no normalization run.
    Project q = source;
    q.extra.erase("design");
    std::vector<double> wl = obj.wavelengths_um;
    if (wl.empty()) {
        const double fc = 0.5 * (units::c0 / project.run.spectrum.wavelength_min + units::c0 / project.run.spectrum.wavelength_max);
        wl = {units::c0 / fc};
    }
    const auto [wmin, wmax] = std::minmax_element(wl.begin(), wl.end());
    q.run.spectrum.wavelength_min = *wmin;
    q.run.spectrum.wavelength_max = *wmax;
    q.run.spectrum.points = *wmin == *wmax ? 1 : int(wl.size());
    std::set<std::string> used;
    for (const auto& t : terms) {
        if (!t.monitor.empty()) used.insert(t.monitor);
        if (!t.far_field.empty()) used.insert(t.far_field);
    }
    if (!norm_monitor.empty()) used.insert(norm_monitor);
    q.monitors.erase(std::remove_if(q.monitors.begin(), q.monitors.end(),
                                    [&](const Monitor& m) { return !used.count(m.name); }),
                     q.monitors.end());
    q.run.normalization = Normalization{};
    q.run.stop.monitor.reset();
    const CompiledProject cp = compile_project(q, file_label);
    pp.warnings = cp.warnings;

    // the frequencies: the spectrum point nearest each wavelength, each once
    std::vector<std::size_t> fi;
    for (double w : wl) {
        const std::size_t i = nearest(cp.spectrum_hz, units::c0 / (w * 1e-6));
        if (std::find(fi.begin(), fi.end(), i) == fi.end()) fi.push_back(i);
    }
    std::sort(fi.begin(), fi.end());
    Problem& p = pp.problem;
    p.scene = cp.scene;
    for (std::size_t i : fi) {
        p.frequencies_hz.push_back(cp.spectrum_hz[i]);
        pp.wavelengths_um.push_back(units::c0 / cp.spectrum_hz[i] * 1e6);
    }

    // the design region
    if (!shape) {
        p.region.lo_um = rs.min;
        p.region.hi_um = rs.max;
        p.region.n = rs.pixels;
        // eps_inf, conductivity and poles of both materials (adjoint.hpp DesignMedium: the
        // susceptibilities are interpolated), the poles for the compiled time step
        for (int side = 0; side < 2; ++side) {
            const Material* mat = project.find_material(rs.materials[std::size_t(side)]);
            DesignMedium& medium = side == 0 ? p.region.medium_min : p.region.medium_max;
            (side == 0 ? p.region.eps_min : p.region.eps_max) = mat->epsilon_inf;
            medium.sigma_s_per_m = mat->conductivity;
            for (const Pole& pole : mat->poles) medium.poles.push_back(pole_coefficients(pole, cp.scene.dt_s));
        }
        // The design's materials are not in the compiled layers, so the compiler's stability
        // check of dispersive media has not seen them: the amplification factor of the update
        // (dispersion.hpp) at rho~ = 0, 1/2 and 1 (a mixture of passive poles stays passive;
        // the check catches a time step too long for a material's poles).
        for (double r : {0.0, 0.5, 1.0}) {
            PoleSet ps;
            // a material of weight 0 contributes no poles (undriven, they stay 0 in the engine)
            if (r < 1.0)
                for (PoleCoeffs pc : p.region.medium_min.poles) pc.c3 *= 1.0 - r, ps.poles.push_back(pc);
            if (r > 0.0)
                for (PoleCoeffs pc : p.region.medium_max.poles) pc.c3 *= r, ps.poles.push_back(pc);
            if (ps.poles.empty()) continue;
            const double e = (1.0 - r) * p.region.eps_min + r * p.region.eps_max;
            const double sigma = (1.0 - r) * p.region.medium_min.sigma_s_per_m + r * p.region.medium_max.sigma_s_per_m;
            const double a = amplification_factor(e, sigma, ps, 1.0, cp.scene.courant, pp.dimensions, cp.scene.dt_s);
            if (!(a <= 1.0 + 1e-6))
                throw ProjectError(file_label, "design.regions[0].materials",
                                   "the update is unstable for the design material at rho = " + detail::csv_number(r) +
                                       " ('" + rs.materials[0] + "' to '" + rs.materials[1] +
                                       "'; amplification factor " + detail::csv_number(a) +
                                       " per step): a pole is too fast for the time step; refine the grid or lower "
                                       "run.courant");
        }
        try {  // the design region's refusals (PML, sources, dispersion), named by the region's path
            (void)map_design(p.scene, p.region);
        } catch (const std::invalid_argument& e) {
            throw ProjectError(file_label, "design.regions[0]", e.what());
        }
        pp.settings.mapping.kind = rs.filter_kind == "gaussian" ? design::FilterKind::Gaussian : design::FilterKind::Conic;
        pp.settings.mapping.radius_um = rs.filter_radius_um;
        pp.settings.mapping.beta = rs.beta;
        pp.settings.mapping.eta = rs.eta;
        pp.settings.beta_max = rs.beta_max;
        pp.settings.beta_every = rs.beta_every;
        pp.settings.beta_factor = rs.beta_factor;
        pp.settings.mapping.smoothed = rs.projection_kind == "smoothed";
        pp.settings.betas = rs.betas;
        pp.settings.min_length_um = rs.min_length_um;
        pp.settings.constraint_beta = rs.min_length_from_beta;
        pp.settings.constraint_relax_evaluations = rs.min_length_relax_iterations;
        if (rs.robust_eta_eroded > 0) pp.settings.robust_etas = {rs.robust_eta_dilated, rs.robust_eta_eroded};
        pp.settings.algorithm = pp.spec.algorithm;
        pp.settings.maximize = obj.maximize;
        pp.settings.max_iterations = pp.spec.max_iterations;
        for (const auto& [index, rho] : rs.fixed_pixels()) pp.settings.fixed.push_back({index, rho});

        // the start density
        const std::string rho_path = "design.regions[0].rho";
        if (rs.rho_uniform) {
            pp.rho0.assign(rs.pixel_count(), *rs.rho_uniform);
        } else if (!rs.rho_values.empty()) {
            pp.rho0 = rs.rho_values;
        } else {
            const fs::path f = fs::path(rs.rho_file).is_absolute() ? fs::path(rs.rho_file) : project_dir / rs.rho_file;
            try {
                pp.rho0 = read_density_file(f, rs.pixel_count());
            } catch (const std::exception& e) {
                throw ProjectError(file_label, rho_path, e.what());
            }
        }
        for (const FixedPixel& f : pp.settings.fixed) pp.rho0[f.index] = f.rho;  // also what the normalization sees
    } else {
        pp.settings.algorithm = pp.spec.algorithm;
        pp.settings.maximize = obj.maximize;
        pp.settings.max_iterations = pp.spec.max_iterations;
    }

    // the run settings
    p.settings.backend = options.backend.value_or(project.run.backend);
    p.settings.precision = options.precision.value_or(project.run.precision);
    p.settings.devices = options.devices ? *options.devices : project_devices(project, file_label);
    p.settings.threads = options.threads;
    p.settings.cancel = options.cancel;
    p.settings.on_progress = options.on_progress;
    p.settings.engine_factory = options.engine_factory;
    p.settings.decay = std::min(p.settings.decay, std::pow(10.0, -project.run.stop.decay_db / 10.0));
    if (cp.max_steps > 0) p.settings.max_steps = cp.max_steps;

    // the functionals, one per term (two for a 3D far-field term: E_theta and E_phi);
    // functional_term[m]: the term of functional m
    std::vector<std::size_t> functional_term;
    for (std::size_t t = 0; t < terms.size(); ++t) {
        const DesignObjectiveTerm& term = terms[t];
        const std::string path = "design.objective.terms[" + std::to_string(t) + "]";
        try {
            if (!term.far_field.empty() && pp.dimensions == 3) {
                // U = |a_theta|^2 + |a_phi|^2: two functionals of the term, each |a|^2 with its weight
                for (FieldFunctional& fn : far_field_functionals(cp, q, term.far_field, term.phi_deg, fi, term.theta_deg)) {
                    p.functionals.push_back(std::move(fn));
                    functional_term.push_back(t);
                }
                continue;
            } else if (!term.far_field.empty()) {
                p.functionals.push_back(far_field_functionals(cp, q, term.far_field, term.angle_deg, fi).at(0));
            } else if (!term.monitor.empty()) {
                const ModeMonitorPlan& plan = plan_of(q, cp, term.monitor);
                p.functionals.push_back(checked_mode_functional(
                    cp, plan, std::size_t(term.mode), term.forward, fi, pp.wavelengths_um,
                    term.s_excite >= 0 ? term.sparameter : term.monitor + (term.forward ? "+" : "-"), term.monitor,
                    file_label, path + (term.s_excite >= 0 ? ".sparameter" : ".mode")));
                if (const std::size_t n = tensor_coupled_samples(cp.scene, p.functionals.back()); n > 0)
                    pp.warnings.push_back(path + ": mode monitor \"" + term.monitor + "\" samples " +
                                          std::to_string(n) +
                                          " sub-pixel tensor-coupled E site(s): the gradient there is approximate "
                                          "(about their share of the overlap); run.subpixel_averaging false gives "
                                          "the exact gradient of the staircased structure");
            } else {
                p.functionals.push_back(point_functional(cp.scene, term.component, term.point, "point"));
            }
        } catch (const std::invalid_argument& e) {
            throw ProjectError(file_label, path, e.what());
        }
        functional_term.push_back(t);
    }

    // the normalization: |a_in|^2 forward in mode slot 0 of normalize_by (S-parameter terms: port j's
    // monitor, port-mode j's slot), for the start density
    const std::size_t nf = fi.size();
    pp.normalization.assign(nf, 1.0);
    if (!given_normalization.empty()) {
        if (given_normalization.size() != nf)
            throw std::invalid_argument("adjoint: " + std::to_string(given_normalization.size()) +
                                        " normalization values for " + std::to_string(nf) + " wavelengths");
        pp.normalization = given_normalization;
    } else if (!norm_monitor.empty() && options.normalize) {
        Problem pn;
        pn.scene = p.scene;
        pn.region = p.region;
        pn.frequencies_hz = p.frequencies_hz;
        pn.settings = p.settings;  // the cancel flag too: a Stop during this run ends it within a chunk of steps
        if (options.on_progress)
            pn.settings.on_progress = [&options](const char*, long long steps) { options.on_progress("normalization", steps); };
        pn.functionals = {checked_mode_functional(cp, plan_of(q, cp, norm_monitor), norm_slot, true, fi, pp.wavelengths_um,
                                                  norm_monitor, norm_monitor, file_label, norm_path)};
        pn.objective = intensity_objective();
        design::DensityGrid g;
        if (!shape) g = density_grid(p.region, pp.dimensions);
        g.rho = pp.rho0;
        Evaluation ev;
        try {
            ev = shape ? evaluate_sites(pn, DesignSites{}, false) : evaluate(pn, design::map_density(g, pp.settings.mapping));
        } catch (const Cancelled& c) {
            throw Cancelled("normalization", c.steps);
        }
        for (std::size_t f = 0; f < nf; ++f) {
            const double n = std::norm(ev.amplitudes.at(0).at(f));
            if (!(n > 0))
                throw ProjectError(file_label, norm_path,
                                   "monitor \"" + norm_monitor + "\" sees no forward power at " +
                                       detail::csv_number(pp.wavelengths_um[f]) + " um");
            pp.normalization[f] = n;
        }
    }

    // F_f = sum_t w_t |a_tf|^2 / N(f) (mode terms; point terms without N), one per wavelength
    std::vector<std::vector<double>> coef(functional_term.size(), std::vector<double>(nf));
    for (std::size_t m = 0; m < functional_term.size(); ++m) {
        const DesignObjectiveTerm& term = terms[functional_term[m]];
        for (std::size_t f = 0; f < nf; ++f) coef[m][f] = term.weight / (term.monitor.empty() ? 1.0 : pp.normalization[f]);
    }
    p.per_frequency = [coef, nf](const Amplitudes& a, Amplitudes* g) {
        std::vector<double> F(nf, 0.0);
        if (g) *g = a;
        for (std::size_t t = 0; t < coef.size(); ++t)
            for (std::size_t f = 0; f < nf; ++f) {
                F[f] += coef[t][f] * std::norm(a[t][f]);
                if (g) (*g)[t][f] = 2.0 * coef[t][f] * a[t][f];
            }
        return F;
    };
    if (obj.combine == "min") {
        // the worst wavelength (what the epigraph form optimizes); its gradient is the worst
        // wavelength's (a subgradient where two tie)
        const bool maximize = obj.maximize;
        const FrequencyObjective per = p.per_frequency;
        p.objective = [per, maximize](const Amplitudes& a, Amplitudes* g) {
            const std::vector<double> F = per(a, g);
            const auto worst = maximize ? std::min_element(F.begin(), F.end()) : std::max_element(F.begin(), F.end());
            const std::size_t w = std::size_t(worst - F.begin());
            if (g)
                for (auto& row : *g)
                    for (std::size_t f = 0; f < row.size(); ++f)
                        if (f != w) row[f] = 0.0;
            return *worst;
        };
        pp.settings.epigraph = true;
    } else if (obj.combine == "expression") {
        // F = expr(F0, F1, ...), F_k the value at the user's wavelengths_um[k] (spectrum
        // point fi[pos[k]]); its gradient: each frequency's F_f gradient times
        // sum_{k: pos[k] = f} d expr / d F_k
        std::vector<std::size_t> pos;
        for (double w : wl) {
            const std::size_t i = nearest(cp.spectrum_hz, units::c0 / (w * 1e-6));
            pos.push_back(std::size_t(std::find(fi.begin(), fi.end(), i) - fi.begin()));
        }
        p.objective = [per = p.per_frequency, pos, text = obj.expression](const Amplitudes& a, Amplitudes* g) {
            const std::vector<double> F = per(a, g);
            const std::vector<double> d = expression_partials(text, F, pos, g != nullptr);
            if (g)
                for (auto& row : *g)
                    for (std::size_t f = 0; f < row.size(); ++f) row[f] *= d[f];
            return expression_value(text, F, pos);
        };
    } else {
        // F = (1 / N_w) sum_f F_f
        const FrequencyObjective per = p.per_frequency;
        p.objective = [per, nf](const Amplitudes& a, Amplitudes* g) {
            const std::vector<double> F = per(a, g);
            if (g)
                for (auto& row : *g)
                    for (auto& v : row) v /= double(nf);
            double sum = 0;
            for (double v : F) sum += v;
            return sum / double(nf);
        };
    }
    return pp;
}

}  // namespace

ProjectProblem problem_from_project(const Project& project, const std::string& file_label, const fs::path& project_dir,
                                    const ProjectProblemOptions& options) {
    return build_problem(project, file_label, project_dir, options, false, {});
}

ProjectProblem shape_problem_at(const Project& project, const std::string& file_label, const fs::path& project_dir,
                                const ProjectProblemOptions& options, const std::vector<double>& normalization) {
    return build_problem(project, file_label, project_dir, options, true, normalization);
}

// ------------------------------------------------------------------ density files

void write_density_csv(const fs::path& file, const DesignRegion& region, double pixel_um, const std::vector<double>& rho,
                       const std::vector<double>& rho_projected) {
    const fs::path tmp = file.string() + ".tmp";
    {
        std::ofstream out(tmp);
        if (!out) throw std::runtime_error(file.string() + ": cannot create the file");
        out << "# golightly density nx=" << region.n[0] << " ny=" << region.n[1] << " nz=" << region.n[2]
            << " pixel_um=" << detail::csv_number(pixel_um) << " origin_um=" << detail::csv_number(region.lo_um.x)
            << "," << detail::csv_number(region.lo_um.y) << "," << detail::csv_number(region.lo_um.z) << "\n";
        out << "i,j,k,rho,rho_projected\n";
        std::size_t idx = 0;
        char buf[96];
        for (int k = 0; k < region.n[2]; ++k)
            for (int j = 0; j < region.n[1]; ++j)
                for (int i = 0; i < region.n[0]; ++i, ++idx) {
                    std::snprintf(buf, sizeof buf, "%d,%d,%d,%.17g,%.17g\n", i, j, k, rho.at(idx), rho_projected.at(idx));
                    out << buf;
                }
        out.flush();
        if (!out) throw std::runtime_error(file.string() + ": cannot write the file");
    }
    replace_file_atomic(tmp, file);
}

bool write_density_h5(const fs::path& file, const DesignRegion& region, double pixel_um, const std::vector<double>& rho,
                      const std::vector<double>& rho_projected) {
#ifdef GOLIGHTLY_HAVE_HDF5
    const fs::path tmp = file.string() + ".tmp";
    const hid_t h5 = H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (h5 < 0) throw std::runtime_error(file.string() + ": cannot create the HDF5 file");
    bool ok = true;
    const hsize_t dims[3] = {hsize_t(region.n[2]), hsize_t(region.n[1]), hsize_t(region.n[0])};
    auto dataset = [&](const char* name, const std::vector<double>& v) {
        const hid_t space = H5Screate_simple(3, dims, nullptr);
        const hid_t ds = H5Dcreate2(h5, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (ds < 0 || H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0) ok = false;
        if (ds >= 0) H5Dclose(ds);
        H5Sclose(space);
    };
    auto attribute = [&](const char* name, const std::vector<double>& v) {
        const hsize_t n = v.size();
        const hid_t space = H5Screate_simple(1, &n, nullptr);
        const hid_t a = H5Acreate2(h5, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
        if (a < 0 || H5Awrite(a, H5T_NATIVE_DOUBLE, v.data()) < 0) ok = false;
        if (a >= 0) H5Aclose(a);
        H5Sclose(space);
    };
    if (rho.size() != region.pixels() || rho_projected.size() != region.pixels()) ok = false;
    if (ok) {
        dataset("rho", rho);
        dataset("rho_projected", rho_projected);
        attribute("pixel_um", {pixel_um});
        attribute("origin_um", {region.lo_um.x, region.lo_um.y, region.lo_um.z});
    }
    if (H5Fclose(h5) < 0) ok = false;
    if (!ok) {
        std::error_code ec;
        fs::remove(tmp, ec);
        throw std::runtime_error(file.string() + ": cannot write the HDF5 file");
    }
    replace_file_atomic(tmp, file);
    return true;
#else
    (void)file, (void)region, (void)pixel_um, (void)rho, (void)rho_projected;
    return false;
#endif
}

std::vector<double> read_density_file(const fs::path& file, std::size_t pixels) {
    std::vector<double> rho;
    std::string ext = file.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".h5" || ext == ".hdf5") {
#ifdef GOLIGHTLY_HAVE_HDF5
        const hid_t h5 = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        if (h5 < 0) throw std::runtime_error(file.string() + ": cannot open the HDF5 density file");
        const hid_t ds = H5Dopen2(h5, "rho", H5P_DEFAULT);
        bool ok = ds >= 0;
        if (ok) {
            const hid_t space = H5Dget_space(ds);
            const hssize_t n = H5Sget_simple_extent_npoints(space);
            H5Sclose(space);
            if (n == hssize_t(pixels)) {
                rho.resize(pixels);
                ok = H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, rho.data()) >= 0;
            } else {
                H5Dclose(ds);
                H5Fclose(h5);
                throw std::runtime_error(file.string() + ": dataset rho has " + std::to_string(n) + " values for " +
                                         std::to_string(pixels) + " pixels");
            }
            H5Dclose(ds);
        }
        H5Fclose(h5);
        if (!ok) throw std::runtime_error(file.string() + ": no readable dataset rho");
#else
        throw std::runtime_error(file.string() + ": this build has no HDF5 support (use a .csv density file)");
#endif
    } else {
        std::ifstream in(file);
        if (!in) throw std::runtime_error(file.string() + ": cannot read the density file");
        std::string line;
        int column = -1;
        std::size_t line_no = 0;
        while (std::getline(in, line)) {
            ++line_no;
            if (line.empty() || line[0] == '#') continue;
            std::vector<std::string> cells;
            std::stringstream ss(line);
            for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
            if (column < 0) {  // the header names the column
                for (std::size_t c = 0; c < cells.size(); ++c)
                    if (cells[c] == "rho" || cells[c] == "rho\r") column = int(c);
                if (column < 0) throw std::runtime_error(file.string() + ": the header has no column \"rho\"");
                continue;
            }
            try {
                rho.push_back(std::stod(cells.at(std::size_t(column))));
            } catch (const std::exception&) {
                throw std::runtime_error(file.string() + ": line " + std::to_string(line_no) + ": no number in column rho");
            }
        }
        if (rho.size() != pixels)
            throw std::runtime_error(file.string() + ": " + std::to_string(rho.size()) + " densities for " +
                                     std::to_string(pixels) + " pixels");
    }
    for (double v : rho)
        if (!std::isfinite(v) || v < 0 || v > 1)
            throw std::runtime_error(file.string() + ": a density outside [0, 1] (" + detail::csv_number(v) + ")");
    return rho;
}

// ------------------------------------------------------------------ the final design

std::vector<design::ContourLoop> design_contours(const ProjectProblem& pp, const std::vector<double>& rho) {
    if (pp.dimensions != 2) throw std::invalid_argument("design contours: 2D designs only (a 3D design has no contours yet)");
    design::DensityGrid g = density_grid(pp.problem.region, 2);
    g.rho = rho;
    const design::DesignMapping& m = pp.settings.mapping;
    if (m.radius_um > 0) g.rho = design::filter(g, m.kind, m.radius_um);
    // eta at the ends of [0, 1] has no level set inside the grid: the nearest one that has
    const double level = std::clamp(m.eta, 1e-6, 1 - 1e-6);
    return design::density_contours(g, pp.problem.region.lo_um.x, pp.problem.region.lo_um.y, level);
}

namespace {

bool inside(const std::vector<std::array<double, 2>>& ring, double x, double y) {
    bool in = false;
    for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
        const auto& a = ring[i];
        const auto& b = ring[j];
        if ((a[1] > y) != (b[1] > y) && x < (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]) + a[0]) in = !in;
    }
    return in;
}

double area(const std::vector<std::array<double, 2>>& ring) {
    double s = 0;
    for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++)
        s += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
    return 0.5 * s;
}

}  // namespace

std::vector<std::vector<Vec2>> keyhole_polygons(const std::vector<design::ContourLoop>& loops) {
    std::vector<std::vector<std::array<double, 2>>> outers;
    std::vector<std::vector<std::size_t>> holes_of;  // per outer: indices into loops
    for (const auto& l : loops)
        if (!l.hole && l.xy_um.size() >= 3) outers.push_back(l.xy_um);
    holes_of.resize(outers.size());
    for (std::size_t h = 0; h < loops.size(); ++h) {
        if (!loops[h].hole || loops[h].xy_um.size() < 3) continue;
        // the smallest outer loop around the hole's first vertex (loops do not cross)
        const auto& v = loops[h].xy_um[0];
        std::size_t best = outers.size();
        for (std::size_t o = 0; o < outers.size(); ++o)
            if (inside(outers[o], v[0], v[1]) && (best == outers.size() || area(outers[o]) < area(outers[best]))) best = o;
        if (best < outers.size()) holes_of[best].push_back(h);
    }
    std::vector<std::vector<Vec2>> out;
    for (std::size_t o = 0; o < outers.size(); ++o) {
        std::vector<std::array<double, 2>> poly = outers[o];
        // rightmost vertex of each hole, holes rightmost first
        struct Hole {
            std::vector<std::array<double, 2>> ring;
            std::size_t right = 0;
        };
        std::vector<Hole> hs;
        for (std::size_t h : holes_of[o]) {
            Hole hole{loops[h].xy_um, 0};
            for (std::size_t k = 1; k < hole.ring.size(); ++k)
                if (hole.ring[k][0] > hole.ring[hole.right][0]) hole.right = k;
            hs.push_back(std::move(hole));
        }
        std::sort(hs.begin(), hs.end(), [](const Hole& a, const Hole& b) { return a.ring[a.right][0] > b.ring[b.right][0]; });
        for (const Hole& hole : hs) {
            const double hx = hole.ring[hole.right][0], hy = hole.ring[hole.right][1];
            // the nearest crossing of the ray y = hy, x > hx with an edge of poly
            std::size_t edge = poly.size();
            double px = 0;
            for (std::size_t i = 0; i < poly.size(); ++i) {
                const auto& a = poly[i];
                const auto& b = poly[(i + 1) % poly.size()];
                if ((a[1] > hy) == (b[1] > hy)) continue;
                const double x = a[0] + (b[0] - a[0]) * (hy - a[1]) / (b[1] - a[1]);
                if (x >= hx && (edge == poly.size() || x < px)) edge = i, px = x;
            }
            if (edge == poly.size()) continue;  // cannot happen for a hole inside poly
            std::vector<std::array<double, 2>> merged(poly.begin(), poly.begin() + std::ptrdiff_t(edge) + 1);
            merged.push_back({px, hy});
            for (std::size_t k = 0; k <= hole.ring.size(); ++k) merged.push_back(hole.ring[(hole.right + k) % hole.ring.size()]);
            merged.push_back({px, hy});
            merged.insert(merged.end(), poly.begin() + std::ptrdiff_t(edge) + 1, poly.end());
            poly = std::move(merged);
        }
        std::vector<Vec2> ring;
        for (const auto& v : poly) ring.push_back({v[0], v[1]});
        out.push_back(std::move(ring));
    }
    return out;
}

Project project_with_design_shapes(const Project& project, const ProjectProblem& pp, const std::vector<double>& rho) {
    const std::vector<design::ContourLoop> loops = design_contours(pp, rho);
    const DesignRegionSpec& rs = pp.spec.regions.at(0);
    Project out = project;
    out.extra.erase("design");
    // the region's name, made unique among the layers' (a suffix " 2", " 3", ...)
    auto taken = [&](const std::string& n) {
        for (const Layer& l : project.layers)
            if (l.name == n || l.name == n + "_solid" || l.name == n + "_holes") return true;
        return false;
    };
    std::string name = rs.name;
    for (int k = 2; taken(name); ++k) name = rs.name + " " + std::to_string(k);
    Layer base;
    base.name = name;
    base.material = rs.materials[0];
    Shape box;
    box.type = ShapeType::Rectangle;
    box.min = {rs.min.x, rs.min.y};
    box.max = {rs.max.x, rs.max.y};
    base.shapes = {box};
    Layer solid;
    solid.name = name + "_solid";
    solid.material = rs.materials[1];
    Layer holes;
    holes.name = name + "_holes";
    holes.material = rs.materials[0];
    for (const auto& loop : loops) {
        Shape s;
        s.type = ShapeType::Polygon;
        for (const auto& v : loop.xy_um) s.points.push_back({v[0], v[1]});
        (loop.hole ? holes : solid).shapes.push_back(std::move(s));
    }
    // the solid's GDS layer: that of a layer of the high material, if any
    for (const Layer& l : project.layers)
        if (l.material == rs.materials[1] && l.gds_layer) {
            solid.gds_layer = l.gds_layer;
            break;
        }
    out.layers.push_back(std::move(base));
    if (!solid.shapes.empty()) out.layers.push_back(std::move(solid));
    if (!holes.shapes.empty()) out.layers.push_back(std::move(holes));
    return out;
}

DesignGds design_gds(const Project& project, const ProjectProblem& pp, const std::vector<double>& rho) {
    const auto loops = design_contours(pp, rho);
    DesignGds out;
    for (const Layer& l : project.layers)
        if (l.material == pp.spec.regions[0].materials[1] && l.gds_layer) {
            out.layer = *l.gds_layer;
            break;
        }
    const std::string cell = project.name.empty() ? std::string("design") : project.name;
    gds::WriteLayer solid, holes;
    solid.layer = holes.layer = out.layer[0];
    solid.datatype = out.layer[1];
    holes.datatype = out.layer[1] + 1;
    solid.polygons = keyhole_polygons(loops);
    for (const auto& loop : loops) out.holes += loop.hole ? 1 : 0;
    try {
        out.bytes = gds::write(cell, {solid});
    } catch (const std::exception&) {  // a keyholed polygon over the writer's vertex limit
        out.holes_separate = true;
        solid.polygons.clear();
        for (const auto& loop : loops) {
            std::vector<Vec2> ring;
            for (const auto& v : loop.xy_um) ring.push_back({v[0], v[1]});
            (loop.hole ? holes : solid).polygons.push_back(std::move(ring));
        }
        std::vector<gds::WriteLayer> layers = {solid};
        if (!holes.polygons.empty()) layers.push_back(holes);
        out.bytes = gds::write(cell, layers);
    }
    out.polygons = solid.polygons.size();
    return out;
}

}  // namespace golightly::adjoint
