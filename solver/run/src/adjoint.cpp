// GoLightly: adjoint gradients over a design region's density (adjoint.hpp; the method and
// its formulas are in the header comment there).
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

#include <Eigen/Dense>

#include "golightly/dispersion.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/grid.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

namespace golightly::adjoint {

using namespace internal;

namespace {

/// eps_r of a component's table entry at a cell (cb / S for the reciprocity weight).
const EUpdateCoeffs& entry_of(const Scene& scene, Component c, CellIndex cell) {
    const auto& map = scene.material_index[int(c)];
    if (map.empty()) throw std::invalid_argument(std::string("adjoint: the scene has no material map for ") + component_name(c));
    return scene.table.at(map.at(std::size_t(cell)));
}

}  // namespace

void internal::check_scene(const Scene& scene) {
    for (int a = 0; a < 3; ++a) {
        if (scene.symmetry[a] != 0)
            throw std::invalid_argument("adjoint: mirror symmetry (domain.symmetry) is not supported; simulate the whole domain");
    }
    if (scene.has_bloch_phase() || scene.complex_fields)
        throw std::invalid_argument("adjoint: Bloch-periodic (complex) fields are not supported");
    for (std::size_t s = 0; s < scene.sources.size(); ++s)
        if (!std::isfinite(scene.sources[s].waveform.end_time_s()))
            throw std::invalid_argument("adjoint: source " + std::to_string(s) +
                                        " is continuous-wave; the adjoint needs pulsed sources (their DFTs must converge)");
    for (std::size_t s = 0; s < scene.tfsf.size(); ++s)
        if (!std::isfinite(scene.tfsf[s].waveform.end_time_s()))
            throw std::invalid_argument("adjoint: TF/SF source " + std::to_string(s) + " is continuous-wave");
}

namespace {

/// Time after which every source of the scene is off, s.
double sources_end_s(const Scene& scene) {
    double end = 0;
    for (const auto& s : scene.sources) end = std::max(end, s.waveform.end_time_s() + s.delay_s);
    for (const auto& s : scene.tfsf) end = std::max(end, s.waveform.end_time_s() + s.delay_s);
    return end;
}

struct RunOutput {
    std::vector<std::vector<std::complex<double>>> dft;  ///< per DFT set, engine layout
    long long steps = 0;
    double wall_s = 0;
};

/// Steps `scene` until its sources have ended and the energy has decayed (RunSettings).
RunOutput run_to_decay(const Scene& scene, const RunSettings& settings, std::vector<std::string>& warnings,
                       const char* which) {
    const auto t0 = std::chrono::steady_clock::now();
    // the chooser of ordinary runs, on the devices asked for (RunSettings::devices); its
    // warnings (e.g. the CPU subdomains' line) once per evaluation, not once per run
    std::vector<std::string> engine_warnings;
    auto engine = settings.engine_factory
                      ? settings.engine_factory(scene, which)
                      : make_engine(scene, settings.backend, settings.precision, settings.threads, settings.devices,
                                    engine_warnings);
    if (!engine) throw RunError(std::string("adjoint: RunSettings::engine_factory made no engine for the ") + which + " run");
    for (std::string& w : engine_warnings)
        if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(std::move(w));
    const double end_s = sources_end_s(scene);
    const int chunk = std::max(1, settings.check_every);
    double peak = 0;
    long long steps = 0;
    for (;;) {
        // before each chunk, as run_project's driver: a cancel waits for one chunk at most
        if (settings.cancel && settings.cancel->load()) throw Cancelled(which, steps);
        engine->step(chunk);
        steps += chunk;
        if (settings.on_progress) settings.on_progress(which, steps);
        const double e = engine->field_energy();
        if (!std::isfinite(e))
            throw RunError(std::string("adjoint: the ") + which + " run diverged after " + std::to_string(steps) + " steps");
        peak = std::max(peak, e);
        if (double(steps) * scene.dt_s > end_s && e <= settings.decay * peak) break;
        if (steps >= settings.max_steps)
            throw RunError(std::string("adjoint: the ") + which + " run did not decay to " + std::to_string(settings.decay) +
                           " of its peak energy within " + std::to_string(settings.max_steps) + " steps");
    }
    RunOutput out;
    out.steps = steps;
    for (std::size_t s = 0; s < scene.dft_sets.size(); ++s) out.dft.push_back(engine->dft(int(s)));
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

/// The DFT sets of the design sites: one per component, in the order of map_design (sites
/// grouped by component). first[c] is the first site of set c.
struct DesignSets {
    std::vector<DftSet> sets;
    std::vector<std::size_t> first;
};

DesignSets design_sets(const DesignSites& sites, const std::vector<double>& freqs) {
    DesignSets d;
    for (std::size_t s = 0; s < sites.size(); ++s) {
        if (d.sets.empty() || d.sets.back().component != sites.component[s]) {
            DftSet set;
            set.component = sites.component[s];
            set.frequencies_hz = freqs;
            d.sets.push_back(std::move(set));
            d.first.push_back(s);
        }
        DftSet& set = d.sets.back();
        set.cell0.push_back(sites.cell[s]);
        set.cell1.push_back(-1);
        set.w0.push_back(1.0);
        set.w1.push_back(0.0);
    }
    return d;
}

/// E_c(site s, f) from the design sets' accumulators (set `base` onwards).
std::complex<double> design_dft(const RunOutput& run, std::size_t base, const DesignSets& d, std::size_t s,
                                std::size_t f, std::size_t nf) {
    std::size_t k = d.first.size() - 1;
    while (d.first[k] > s) --k;
    return run.dft[base + k][(s - d.first[k]) * nf + f];
}

CompiledWaveform adjoint_waveform(const std::vector<double>& freqs) {
    const auto [lo, hi] = std::minmax_element(freqs.begin(), freqs.end());
    const double fc = 0.5 * (*lo + *hi);
    const double half = std::max(0.5 * (*hi - *lo), 0.2 * fc);
    // amplitude spectrum exp(-(w - wc)^2 tau^2 / 2) >= exp(-2) out to 1.25 half-bands
    CompiledWaveform w;
    w.type = WaveformType::GaussianPulse;
    w.omega = 2 * units::pi * fc;
    w.tau_s = 2.0 / (1.25 * 2 * units::pi * half);
    w.t0_s = 6.0 * w.tau_s;
    w.amplitude = 1.0;
    return w;
}

/// S(w) = sum_n s((n + 1/2) dt) exp(i w (n + 1) dt) dt over the run's steps (header comment).
std::complex<double> source_dft(const CompiledWaveform& w, double dt, long long steps, double f_hz) {
    const double omega = 2 * units::pi * f_hz;
    std::complex<double> sum = 0;
    for (long long n = 0; n < steps; ++n) {
        const double v = w.value((double(n) + 0.5) * dt);
        if (v != 0.0) sum += v * std::polar(1.0, omega * double(n + 1) * dt);
    }
    return sum * dt;
}

/// Adjoint sources for frequency-dependent weights: K = nf copies of the single broadband
/// pulse (adjoint_waveform) delayed by k delta, k = 0 .. K-1, and the inverse of
/// M[f][k] = S_k(w_f) = S(w_f) exp(i w_f k delta) (each copy's discrete DFT, as source_dft),
/// so that sources weighted alpha_k = sum_f inverse[k][f] w_f give the adjoint field at w_f
/// the spectrum of the weights w_f exactly. For evenly spaced frequencies and delta =
/// 2 pi / (K dw) M is S times a DFT matrix (condition number 1); delta starts at a tenth
/// of that and grows (x1.25 per try) until M's condition number is below 1e3, so that the
/// engine's rounding (1e-7 in float32) is amplified at most to 1e-4. The run is (K - 1)
/// delta longer than with one pulse, a fraction of a period of the frequency spacing:
/// shorter than K Gaussian pulses narrowed until they are told apart (measured on the
/// three-wavelength tests of test_adjoint.cpp: 1160 against 1380 adjoint steps).
struct AdjointBasis {
    std::vector<CompiledWaveform> pulses;
    std::vector<std::complex<double>> inverse;  ///< [k * nf + f]
};

AdjointBasis adjoint_basis(const std::vector<double>& freqs, double dt) {
    const std::size_t nf = freqs.size();
    const CompiledWaveform broad = adjoint_waveform(freqs);
    const auto [lo, hi] = std::minmax_element(freqs.begin(), freqs.end());
    const double dw = 2 * units::pi * (*hi - *lo) / double(std::max<std::size_t>(nf - 1, 1));
    if (!(dw > 0)) throw std::invalid_argument("adjoint: the frequencies of a functional must differ");
    double delta = 0.1 * 2 * units::pi / (double(nf) * dw);
    for (int attempt = 0; attempt < 40; ++attempt, delta *= 1.25) {
        AdjointBasis b;
        Eigen::MatrixXcd M(nf, nf);
        for (std::size_t k = 0; k < nf; ++k) {
            CompiledWaveform w = broad;
            w.t0_s = broad.t0_s + double(k) * delta;
            const long long steps = (long long)std::ceil((w.t0_s + 13.0 * w.tau_s) / dt);
            for (std::size_t f = 0; f < nf; ++f) M(Eigen::Index(f), Eigen::Index(k)) = source_dft(w, dt, steps, freqs[f]);
            b.pulses.push_back(w);
        }
        Eigen::JacobiSVD<Eigen::MatrixXcd> svd(M);
        const auto& sv = svd.singularValues();
        if (sv(sv.size() - 1) <= 0 || sv(0) / sv(sv.size() - 1) > 1e3) continue;
        const Eigen::MatrixXcd inv = M.inverse();
        b.inverse.resize(nf * nf);
        for (std::size_t k = 0; k < nf; ++k)
            for (std::size_t f = 0; f < nf; ++f) b.inverse[k * nf + f] = inv(Eigen::Index(k), Eigen::Index(f));
        return b;
    }
    throw std::invalid_argument("adjoint: the frequencies are too close together to be told apart by the adjoint sources");
}

}  // namespace

namespace {

struct Prepared {
    Scene forward;        ///< design applied, design + functional DFT sets
    DesignSites sites;
    /// the DFT sets of the sites, then of the cluster's sites outside the design
    /// (cluster_sample: from index sites.size() on)
    DesignSets design;
    /// the tensor-coupled design sites and every site coupled to them (adjoint_tensor.hpp;
    /// empty without couplings); cluster_sample[i]: the sample (design site or extra set
    /// sample) of cluster site i
    TensorCluster cluster;
    std::vector<std::size_t> cluster_sample;
    std::vector<double> rho_site;  ///< the density: rho~ per site
    /// functional m, sample p -> (DFT set, sample index)
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> sample_of;
};

void check_problem(const Problem& problem) {
    if (problem.frequencies_hz.empty()) throw std::invalid_argument("adjoint: no frequencies");
    for (double f : problem.frequencies_hz)
        if (!(f > 0) || !std::isfinite(f)) throw std::invalid_argument("adjoint: frequencies must be positive");
    if (problem.functionals.empty()) throw std::invalid_argument("adjoint: no field functional");
    if (!problem.objective) throw std::invalid_argument("adjoint: no objective");
}

void prepare_sets(const Problem& problem, Prepared& p, const DesignSites& sampled);

Prepared prepare(const Problem& problem, const std::vector<double>& rho) {
    check_problem(problem);
    Prepared p;
    p.forward = problem.scene;
    p.sites = map_design(p.forward, problem.region);
    p.rho_site = site_density(p.sites, problem.region, rho);
    apply_design(p.forward, p.sites, problem.region, p.rho_site);
    // the design sites that keep a sub-pixel coupling (header comment): their D~ = K^-1 E
    // needs E over their cluster, sampled too
    std::vector<SiteKey> seeds;
    for (std::size_t s = 0; s < p.sites.size(); ++s)
        if (tensor_listed(p.forward, int(p.sites.component[s]), p.sites.cell[s]))
            seeds.emplace_back(int(p.sites.component[s]), p.sites.cell[s]);
    DesignSites sampled = p.sites;
    if (!seeds.empty()) {
        p.cluster = tensor_cluster(p.forward, seeds);
        std::map<SiteKey, std::size_t> design_index;
        for (std::size_t s = 0; s < p.sites.size(); ++s) design_index[{int(p.sites.component[s]), p.sites.cell[s]}] = s;
        for (const SiteKey& key : p.cluster.sites) {
            const auto it = design_index.find(key);
            if (it != design_index.end()) {
                p.cluster_sample.push_back(it->second);
                continue;
            }
            p.cluster_sample.push_back(sampled.size());
            sampled.component.push_back(Component(key.first));
            sampled.cell.push_back(key.second);
        }
    }
    prepare_sets(problem, p, sampled);
    return p;
}

/// evaluate_sites' sites, checked (adjoint.hpp), on the scene as it is.
Prepared prepare_sites(const Problem& problem, const DesignSites& sites) {
    check_problem(problem);
    check_scene(problem.scene);
    const Scene& scene = problem.scene;
    const auto comps = scene_e_components(scene);
    std::unordered_set<CellIndex> source_cells[3];
    for (const auto& src : scene.sources)
        if (is_electric(src.component))
            for (CellIndex c : src.cells) source_cells[component_axis(src.component)].insert(c);
    auto fail = [](const std::string& m) { return std::invalid_argument("shape sites: " + m); };
    const auto n = grid_n(scene);
    if (sites.component.size() != sites.cell.size()) throw fail("components and cells differ in length");
    for (std::size_t s = 0; s < sites.size(); ++s) {
        const Component c = sites.component[s];
        const CellIndex cell = sites.cell[s];
        const std::string at = std::string(component_name(c)) + " site " + std::to_string(cell);
        if (std::find(comps.begin(), comps.end(), c) == comps.end() || cell < 0 || std::size_t(cell) >= scene.cells())
            throw fail(at + " is not an E site of the scene");
        if (s > 0 && c != sites.component[s - 1])
            for (std::size_t r = 0; r + 1 < s; ++r)
                if (sites.component[r] == c) throw fail("the sites of one component must be consecutive");
        if (source_cells[component_axis(c)].count(cell)) throw fail(at + " holds a source");
        const std::int64_t ijk[3] = {cell % n[0], (cell / n[0]) % n[1], cell / (n[0] * n[1])};
        for (int a = 0; a < (scene.dimensions == 3 ? 3 : 2); ++a)
            if (ijk[a] < scene.pml_lo[a] || ijk[a] >= n[a] - scene.pml_hi[a])
                throw fail(at + " lies in the PML along " + std::string(1, char('x' + a)) +
                           " (a boundary moves there): the CPML update is not reciprocal enough for the sensitivity "
                           "(a slab through the PML gave errors of 4 % to 170 %); keep moving boundaries outside it");
    }
    check_tfsf_faces(scene, sites, "shape sites: a moving boundary");
    Prepared p;
    p.forward = scene;
    p.sites = sites;
    prepare_sets(problem, p, sites);
    return p;
}

/// The DFT sets of `sampled` (the design sites first) and of the functionals.
void prepare_sets(const Problem& problem, Prepared& p, const DesignSites& sampled) {
    p.design = design_sets(sampled, problem.frequencies_hz);
    p.forward.dft_sets = p.design.sets;
    p.forward.time_probes.clear();
    auto comps = scene_e_components(p.forward);
    if (p.forward.dimensions == 3)
        comps.insert(comps.end(), {Component::Hx, Component::Hy, Component::Hz});
    else
        for (Component c : magnetic_components(p.forward.polarization)) comps.push_back(c);
    const std::size_t cells = p.forward.cells();
    for (const auto& fn : problem.functionals) {
        if (fn.component.size() != fn.cell.size() || fn.cell.size() != fn.weights.size() || fn.cell.empty())
            throw std::invalid_argument("adjoint: functional " + fn.name + ": components, cells and weights differ in length or are empty");
        if (!fn.weights_per_frequency.empty()) {
            if (fn.weights_per_frequency.size() != problem.frequencies_hz.size())
                throw std::invalid_argument("adjoint: functional " + fn.name + ": weights_per_frequency needs one row per frequency");
            for (const auto& row : fn.weights_per_frequency)
                if (row.size() != fn.cell.size())
                    throw std::invalid_argument("adjoint: functional " + fn.name + ": a weights_per_frequency row has the wrong length");
        }
        std::map<Component, std::size_t> set_of;
        std::vector<std::pair<std::size_t, std::size_t>> samples;
        for (std::size_t q = 0; q < fn.cell.size(); ++q) {
            const Component c = fn.component[q];
            if (std::find(comps.begin(), comps.end(), c) == comps.end())
                throw std::invalid_argument("adjoint: functional " + fn.name + " reads " + component_name(c) +
                                            ", which is not a field component of the scene");
            if (fn.cell[q] < 0 || std::size_t(fn.cell[q]) >= cells)
                throw std::invalid_argument("adjoint: functional " + fn.name + " has a cell outside the grid");
            auto it = set_of.find(c);
            if (it == set_of.end()) {
                DftSet set;
                set.component = c;
                set.frequencies_hz = problem.frequencies_hz;
                p.forward.dft_sets.push_back(std::move(set));
                it = set_of.emplace(c, p.forward.dft_sets.size() - 1).first;
            }
            DftSet& set = p.forward.dft_sets[it->second];
            samples.emplace_back(it->second, set.cell0.size());
            set.cell0.push_back(fn.cell[q]);
            set.cell1.push_back(-1);
            set.w0.push_back(1.0);
            set.w1.push_back(0.0);
        }
        p.sample_of.push_back(std::move(samples));
    }
}

Amplitudes amplitudes_of(const Problem& problem, const Prepared& p, const RunOutput& run) {
    const std::size_t nf = problem.frequencies_hz.size();
    Amplitudes a(problem.functionals.size(), std::vector<std::complex<double>>(nf, 0.0));
    for (std::size_t m = 0; m < problem.functionals.size(); ++m)
        for (std::size_t q = 0; q < p.sample_of[m].size(); ++q) {
            const auto [set, k] = p.sample_of[m][q];
            const FieldFunctional& fn = problem.functionals[m];
            for (std::size_t f = 0; f < nf; ++f)
                a[m][f] += (fn.weights_per_frequency.empty() ? fn.weights[q] : fn.weights_per_frequency[f][q]) *
                           run.dft[set][k * nf + f];
        }
    return a;
}

}  // namespace

namespace {

/// E at every design site and frequency, [s * nf + f], from a run's design sets (set 0 on).
std::vector<std::complex<double>> design_fields(const RunOutput& run, const DesignSets& d, std::size_t sites,
                                                std::size_t nf) {
    std::vector<std::complex<double>> out;
    for (std::size_t k = 0; k < d.sets.size() && out.size() < sites * nf; ++k)
        out.insert(out.end(), run.dft[k].begin(), run.dft[k].end());
    out.resize(sites * nf);  // the cluster's extra samples follow the design sites
    return out;
}

/// The fields whose products give d F / d eps_r at the design sites, [s * nf + f]: E, and
/// at the tensor-coupled design sites D~ / eps_r with D~ = K^-1 E over their cluster
/// (adjoint_tensor.hpp): there only the diagonal 1 / eps_r of K changes with the density,
/// dK = -d eps / eps_r^2, so (1 - z) D~_adj dK D~_fwd = -(1 - z) (D~_adj / eps_r) (D~_fwd /
/// eps_r) d eps, the plain formula with E -> D~ / eps_r (docs/inverse-design.md section 6).
std::vector<std::complex<double>> gradient_fields(const Prepared& p, const RunOutput& run, std::size_t nf) {
    std::vector<std::complex<double>> out = design_fields(run, p.design, p.sites.size(), nf);
    if (p.cluster.sites.empty()) return out;
    const std::size_t n = p.cluster.sites.size();
    std::vector<std::vector<std::complex<double>>> e(1, std::vector<std::complex<double>>(n * nf));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t f = 0; f < nf; ++f) e[0][i * nf + f] = design_dft(run, 0, p.design, p.cluster_sample[i], f, nf);
    const auto d = solve_tensor(p.cluster.k, n, nf, e);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t s = p.cluster_sample[i];
        if (s >= p.sites.size()) continue;
        const auto& [c, cell] = p.cluster.sites[i];
        const double eps = p.forward.table[p.forward.material_index[c][std::size_t(cell)]].eps_r;
        for (std::size_t f = 0; f < nf; ++f) out[s * nf + f] = d[0][i * nf + f] / eps;
    }
    return out;
}

/// Problem::per_frequency's values, checked (one per frequency; the gradient's shape).
std::vector<double> per_frequency_values(const Problem& problem, const Amplitudes& a, Amplitudes* g) {
    std::vector<double> v = problem.per_frequency(a, g);
    if (v.size() != problem.frequencies_hz.size())
        throw std::invalid_argument("adjoint: the per-frequency objective gave " + std::to_string(v.size()) +
                                    " values for " + std::to_string(problem.frequencies_hz.size()) + " frequencies");
    if (g && (g->size() != a.size() || (!a.empty() && (*g)[0].size() != a[0].size())))
        throw std::invalid_argument("adjoint: the per-frequency objective's gradient has the wrong shape");
    return v;
}

/// The forward run of `p`: fills the evaluation's steps, time and amplitudes.
RunOutput forward_run(const Problem& problem, const Prepared& p, Evaluation& ev) {
    RunOutput run = run_to_decay(p.forward, problem.settings, ev.warnings, "forward");
    ev.forward_steps = run.steps;
    ev.forward_s = run.wall_s;
    ev.amplitudes = amplitudes_of(problem, p, run);
    return run;
}

}  // namespace

namespace {

/// The forward run of a prepared problem (evaluate, evaluate_sites).
Evaluation forward_only(const Problem& problem, const Prepared& p) {
    Evaluation ev;
    const RunOutput fwd = forward_run(problem, p, ev);
    ev.objective = problem.objective(ev.amplitudes, nullptr);
    if (problem.per_frequency) ev.objective_per_frequency = per_frequency_values(problem, ev.amplitudes, nullptr);
    if (problem.settings.on_fields) {
        DesignFields fields;
        fields.sites = &p.sites;
        fields.frequencies_hz = problem.frequencies_hz;
        fields.forward = design_fields(fwd, p.design, p.sites.size(), problem.frequencies_hz.size());
        problem.settings.on_fields(fields);
    }
    return ev;
}

/// d F / d v per site to the gradient's variables (interpolation_transpose for the density,
/// v = rho~; the identity for evaluate_sites, v = eps_r), and the number of those variables.
using Chain = std::function<std::vector<double>(const std::vector<double>&)>;

/// The forward and adjoint runs of a prepared problem (evaluate_with_gradient, evaluate_sites).
/// d_eps_dv[f]: d eps_d(w_f) / d v of every site (the density: eps_d,max - eps_d,min; the
/// sites: 1); keep_fields: fill Evaluation::site_forward, site_adjoint(_per_frequency).
Evaluation with_adjoint(const Problem& problem, const Prepared& p, const Chain& chain, std::size_t variables,
                        const std::vector<std::complex<double>>& d_eps_dv, bool keep_fields) {
    Evaluation ev;
    const RunOutput fwd = forward_run(problem, p, ev);
    Amplitudes g;
    ev.objective = problem.objective(ev.amplitudes, &g);
    if (g.size() != ev.amplitudes.size()) throw std::invalid_argument("adjoint: the objective's gradient has the wrong shape");
    // the per-frequency values F_f and their gradients: gf[m][f] = d F_f / d a_mf
    const bool split = bool(problem.per_frequency);
    Amplitudes gf;
    if (split) ev.objective_per_frequency = per_frequency_values(problem, ev.amplitudes, &gf);

    const std::size_t nf = problem.frequencies_hz.size();
    const double dt = p.forward.dt_s;
    const std::vector<std::complex<double>> fwd_g = gradient_fields(p, fwd, nf);
    ev.d_eps.assign(p.sites.size(), 0.0);
    // d F_f / d rho: each (functional, frequency) term goes through the interpolation's
    // transpose at once, so that no per-frequency copy of the sites is held (the memory
    // estimate, compile.hpp design_dft_bytes, counts the DFT fields only)
    if (split) ev.gradient_per_frequency.assign(nf, std::vector<double>(variables, 0.0));
    std::vector<double> d_eps_mf(split ? p.sites.size() : 0);
    const CompiledWaveform wave = adjoint_waveform(problem.frequencies_hz);
    // the adjoint field of F for RunSettings::on_fields, [s * nf + f]
    const bool want_fields = bool(problem.settings.on_fields) || keep_fields;
    std::vector<std::complex<double>> adjoint_field(want_fields ? p.sites.size() * nf : 0, 0.0);
    std::vector<std::complex<double>> adjoint_field_f(keep_fields && split ? p.sites.size() * nf : 0, 0.0);
    std::vector<double> d_v(p.sites.size(), 0.0);  // d F / d v per site
    for (std::size_t m = 0; m < problem.functionals.size(); ++m) {
        bool any = false;
        for (const auto& v : g[m]) any = any || v != 0.0;
        if (split)
            for (const auto& v : gf[m]) any = any || v != 0.0;
        if (!any) continue;  // neither F nor an F_f depends on this functional
        const FieldFunctional& fn = problem.functionals[m];
        Scene adj = p.forward;
        adj.sources.clear();
        adj.tfsf.clear();
        adj.time_probes.clear();
        adj.dft_sets = p.design.sets;
        // The adjoint sources: one pulse carrying the weights when they do not depend on
        // the frequency; else one pulse per frequency (basis) with the weights alpha = M^-1 w
        // that give each frequency its own weights (AdjointBasis).
        const bool per_frequency = !fn.weights_per_frequency.empty() && nf > 1;
        std::vector<CompiledWaveform> pulses;
        std::vector<std::vector<std::complex<double>>> alpha;  // [pulse][sample]
        if (per_frequency) {
            const AdjointBasis basis = adjoint_basis(problem.frequencies_hz, dt);
            pulses = basis.pulses;
            alpha.assign(nf, std::vector<std::complex<double>>(fn.cell.size(), 0.0));
            for (std::size_t q = 0; q < fn.cell.size(); ++q)
                for (std::size_t k = 0; k < nf; ++k)
                    for (std::size_t f = 0; f < nf; ++f) alpha[k][q] += basis.inverse[k * nf + f] * fn.weights_per_frequency[f][q];
        } else {
            pulses = {wave};
            alpha = {fn.weights_per_frequency.empty() ? fn.weights : fn.weights_per_frequency[0]};
        }
        bool complex_weights = false;
        for (const auto& row : alpha)
            for (const auto& w : row) complex_weights = complex_weights || w.imag() != 0.0;
        for (std::size_t k = 0; k < pulses.size(); ++k) {
            std::map<Component, std::size_t> term_of;
            for (std::size_t q = 0; q < fn.cell.size(); ++q) {
                const Component c = fn.component[q];
                auto it = term_of.find(c);
                if (it == term_of.end()) {
                    SourceTerm t;
                    t.component = c;
                    t.waveform = pulses[k];
                    adj.sources.push_back(std::move(t));
                    it = term_of.emplace(c, adj.sources.size() - 1).first;
                }
                SourceTerm& t = adj.sources[it->second];
                // E: the curl source J' = u / cb; H~ (mu_r = 1): -u (header comment)
                const double scale = is_electric(c) ? entry_of(adj, c, fn.cell[q]).cb / adj.courant : -1.0;
                t.cells.push_back(fn.cell[q]);
                t.weights.push_back(alpha[k][q].real() * scale);
                if (complex_weights) t.weights_im.push_back(alpha[k][q].imag() * scale);
            }
        }
        adj.complex_fields = complex_weights;
        const RunOutput ar = run_to_decay(adj, problem.settings, ev.warnings, "adjoint");
        ev.adjoint_steps += ar.steps;
        ev.adjoint_s += ar.wall_s;
        const std::vector<std::complex<double>> adj_g = gradient_fields(p, ar, nf);
        for (std::size_t f = 0; f < nf; ++f) {
            const bool need_f = split && gf[m][f] != 0.0;
            if (g[m][f] == 0.0 && !need_f) continue;
            const double omega = 2 * units::pi * problem.frequencies_hz[f];
            // the basis already gives each frequency unit source spectrum; one pulse has S(w)
            const std::complex<double> S =
                per_frequency ? std::complex<double>(1.0) : source_dft(wave, dt, ar.steps, problem.frequencies_hz[f]);
            // d a / d eps(x) = -(1 - exp(i w dt)) E_fwd E_adj / S  (header comment)
            const std::complex<double> factor = -(1.0 - std::polar(1.0, omega * dt)) / S;
            const std::complex<double> gc = std::conj(g[m][f]);
            const std::complex<double> gcf = split ? std::conj(gf[m][f]) : 0.0;
            const std::complex<double> dv = d_eps_dv.at(f);
            for (std::size_t s = 0; s < p.sites.size(); ++s) {
                // d a_mf / d eps_d(s, w_f) (gradient_fields: E, or D~ / eps_r where coupled)
                const std::complex<double> da = factor * fwd_g[s * nf + f] * adj_g[s * nf + f];
                ev.d_eps[s] += std::real(gc * da);
                d_v[s] += std::real(gc * da * dv);
                if (need_f) d_eps_mf[s] = std::real(gcf * da * dv);
                if (!want_fields) continue;
                const std::complex<double> ea = design_dft(ar, 0, p.design, s, f, nf);  // E, for the pictures
                adjoint_field[s * nf + f] += gc * ea / S;
                if (!adjoint_field_f.empty()) adjoint_field_f[s * nf + f] += gcf * ea / S;
            }
            if (need_f) {
                const std::vector<double> term = chain(d_eps_mf);
                for (std::size_t k = 0; k < term.size(); ++k) ev.gradient_per_frequency[f][k] += term[k];
            }
        }
    }
    ev.gradient = chain(d_v);
    if (keep_fields) {
        ev.site_forward = design_fields(fwd, p.design, p.sites.size(), nf);
        ev.site_adjoint = adjoint_field;
        ev.site_adjoint_per_frequency = std::move(adjoint_field_f);
    }
    if (problem.settings.on_fields) {
        DesignFields fields;
        fields.sites = &p.sites;
        fields.frequencies_hz = problem.frequencies_hz;
        fields.forward = design_fields(fwd, p.design, p.sites.size(), nf);
        fields.adjoint = std::move(adjoint_field);
        problem.settings.on_fields(fields);
    }
    return ev;
}

}  // namespace

Evaluation evaluate(const Problem& problem, const std::vector<double>& rho) {
    return forward_only(problem, prepare(problem, rho));
}

Evaluation evaluate_with_gradient(const Problem& problem, const std::vector<double>& rho) {
    const Prepared p = prepare(problem, rho);
    const auto chain = [&](const std::vector<double>& d_rho) {
        return interpolation_transpose(p.sites, problem.region, d_rho);
    };
    // d eps_d / d rho~ at each objective frequency (header comment; eps_max - eps_min when lossless)
    std::vector<std::complex<double>> d_eps_dv;
    for (double f : problem.frequencies_hz)
        d_eps_dv.push_back(problem.region.lossless()
                               ? std::complex<double>(problem.region.eps_max - problem.region.eps_min)
                               : design_epsilon(problem.region, 1.0, 2 * units::pi * f, p.forward.dt_s) -
                                     design_epsilon(problem.region, 0.0, 2 * units::pi * f, p.forward.dt_s));
    return with_adjoint(problem, p, chain, problem.region.pixels(), d_eps_dv, false);
}

Evaluation evaluate_sites(const Problem& problem, const DesignSites& sites, bool with_gradient) {
    const Prepared p = prepare_sites(problem, sites);
    if (!with_gradient) return forward_only(problem, p);
    return with_adjoint(problem, p, [](const std::vector<double>& d_eps) { return d_eps; }, sites.size(),
                        std::vector<std::complex<double>>(problem.frequencies_hz.size(), 1.0), true);
}

}  // namespace golightly::adjoint
