// GoLightly: adjoint gradients of a figure of merit with respect to a design region's
// density (issue 53 item 4; docs/inverse-design.md "Adjoint gradients").
//
// The method is the frequency-domain adjoint of Meep's meep.adjoint and Tidy3D (Hughes et
// al., ACS Photonics 5, 4781 (2018); Hammond et al., Opt. Express 30, 4467 (2022)), written
// for the discrete Yee system the engines step, so that it is the exact derivative of the
// DFT amplitudes the engines report (up to the fields' decay at the end of each run):
//
//   Forward run: the scene with the design applied; DFT of the E components at every
//   design site (x, component c) and at the objective's sample sites, at the objective's
//   frequencies w_f. The objective reads linear functionals of those DFT amplitudes,
//     a_mf = sum_p c_mp E_{c_p}(p, w_f)                    (FieldFunctional m)
//   and F = F(a) is any real function of them with its Wirtinger gradient
//     g_mf = dF/dRe(a_mf) + i dF/dIm(a_mf),  so that  dF = sum Re(conj(g_mf) da_mf).
//   Adjoint run m: the same scene, no other sources, an E source on each E sample site p of
//   functional m with weight c_mp cb(p) / S (cb the site's table coefficient, S the Courant
//   number: c_mp / eps_r(p) where lossless; complex weights make a complex run) and the
//   waveform s(t) (a Gaussian pulse covering the frequencies); DFT of E at the design sites.
//   H samples (H~ = eta0 H) in a functional take an H source of weight -c_mp instead: in
//   Lorentz reciprocity, E_a.J_b - H_a.M_b = E_b.J_a - H_b.M_a, the magnetic current enters
//   with the opposite sign (mu_r = 1 everywhere; the sign and the absence of a half-step
//   phase between the E and H sample times were confirmed against finite differences,
//   tests/solver/test_adjoint.cpp). So the overlap integrals of mode amplitudes (E and H)
//   are functionals too.
//   Gradient: changing eps_r of design site x by d eps changes its E increment per step by
//   -(d eps / eps_r(x)) (E^{n+1} - E^n) (the update E^{n+1} = E^n + (S / eps_r) curl H), a
//   source whose DFT is -(d eps / eps_r(x)) (1 - exp(i w dt)) E(x, w). Reciprocity of the
//   discrete system (written for the curl source J' of E^{n+1} = ca E^n + cb (curl H~ + J'),
//   the operator is a diagonal plus the symmetric curl-curl; a source that adds u to E is
//   J' = u / cb) turns the response of every a_mf to that source into the adjoint field:
//     d a_mf / d eps(x) = -(1 - exp(i w_f dt)) E_fwd(x, w_f) E_adj,m(x, w_f) / S(w_f),
//     S(w) = sum_n s((n + 1/2) dt) exp(i w (n + 1) dt) dt   (the adjoint source's DFT, with
//   the sample times of scene.hpp "One time step": E sources at (n + 1/2) dt, E samples at
//   (n + 1) dt), and dF/d eps(x) = sum_mf Re(conj(g_mf) d a_mf / d eps(x)). The adjoint
//   runs do not depend on g, so the same runs give the gradient of any other function of
//   a, e.g. of each frequency's own value F_f (Problem::per_frequency). The CPML makes
//   the operator only nearly symmetric (stretched coordinates); fields that reach the PML
//   and return are below its reflection, so the error stays at that level.
//
// Design region: a box (um, physical coordinates as Scene::position_um) with a density
// grid rho of n[0] x n[1] x n[2] pixels (index (k * n[1] + j) * n[0] + i, x fastest; n[2] = 1
// in 2D) over it, values in [0, 1] at the pixel centres, interpolated (bilinear in 2D,
// trilinear in 3D, clamped at the box's faces) to every E Yee site inside the box (lo <= x
// < hi per axis), where eps_r = eps_min + rho~ (eps_max - eps_min) (Meep's MaterialGrid
// with linear interpolation). Every site gets its own material-table entry; when the table
// has fewer free entries than sites (65535 in all), rho~ is rounded to as many evenly
// spaced levels as are free (the gradient is that of the unrounded rho~).
//
// Dispersive and lossy design materials (DesignRegion::medium_min, medium_max): the
// susceptibilities are interpolated, as eps_inf is: a site of rho~ gets eps_inf(rho~),
// sigma(rho~) = (1 - rho~) sigma_min + rho~ sigma_max and a pole set of both materials'
// poles with c3 scaled by 1 - rho~ and rho~ (scene.hpp "Dispersive cells", a mixture),
// so that its discrete permittivity (dispersion.hpp discrete_epsilon) is
//   eps_d(rho~, w) = (1 - rho~) eps_d,min(w) + rho~ eps_d,max(w)
// at every frequency. The E update at a site in frequency form is
// (1 - exp(i w dt)) eps_d(w) E = S curl H~ + J' (the conductivity's semi-implicit term and
// the pole recursion included), so the perturbation of the lossless case carries over
// with d eps -> d eps_d(w): d a_mf / d rho~(x) = -(1 - exp(i w_f dt)) E_fwd E_adj / S(w_f)
// * (eps_d,max(w_f) - eps_d,min(w_f)), a complex factor per frequency (the DFT fields are
// at w_f, so it is the materials' eps at the objective's frequency that enters). The
// operator stays a complex diagonal plus the symmetric curl-curl, so reciprocity holds.
//
// Sub-pixel tensor couplings (TEz and 3D, scene.hpp "Anisotropic cells": an oblique
// interface of another structure, or a 3D box's edge, reaching into the box under
// run.subpixel_averaging): the design replaces the material at every site in the box and
// the density is isotropic per site, so apply_design removes the couplings between two
// design sites; a design site p coupled to a site q outside the box keeps K(p, q) of the
// compiled tensor (the stored weights rescaled to the new eps_r), damped by
// s_p = min(1, 0.95 / (max(eps_min, eps_max) sum_q |K(p, q)|)), a factor independent of the
// density that keeps p's row of K diagonally dominant (K positive definite) at every
// density. Only the diagonal 1 / eps_r(p) then moves with rho, dK = -d eps / eps_r^2, and
// the exact adjoint of the tensor update (adjoint_tensor.hpp) is the formula above with
// E -> D~ / eps_r at those sites, D~ = K^-1 E solved over their coupled cluster (whose
// DFT fields the runs sample too):
//   d a_mf / d eps(p) = -(1 - exp(i w_f dt)) (D~_fwd(p) / eps_r) (D~_adj,m(p) / eps_r) / S(w_f).
//
// Requirements (std::invalid_argument naming them otherwise): the design sites lie outside
// the PML slabs and hold no source; a lossy or dispersive design keeps no tensor coupling
// to the outside (the engines step tensor-coupled sites lossless and non-dispersive only;
// the message names the site); the scene has no symmetry plane, no Bloch phase and no
// complex fields; every source is pulsed. A dispersive material of the scene under the box
// is replaced by the design's, like any other.
#pragma once

#include <array>
#include <atomic>
#include <complex>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/scene.hpp"

namespace golightly {
struct ModeMonitorPlan;  // mode_plane.hpp
}

namespace golightly::adjoint {

/// The loss and dispersion of one of a design's two materials (header comment): its
/// permittivity is eps_inf + i sigma / (eps0 w) + sum of the poles' susceptibilities, with
/// eps_inf DesignRegion::eps_min or eps_max. Default: lossless, non-dispersive.
struct DesignMedium {
    double sigma_s_per_m = 0.0;    ///< conductivity, S/m (>= 0)
    /// ADE coefficients of the poles for the scene's time step, weight 1
    /// (dispersion.hpp pole_coefficients(pole, scene.dt_s))
    std::vector<PoleCoeffs> poles;
    bool lossless() const { return sigma_s_per_m == 0.0 && poles.empty(); }
};

/// The design region (header comment).
struct DesignRegion {
    Vec3 lo_um, hi_um;            ///< the box, um; z ignored in 2D
    std::array<int, 3> n{1, 1, 1};  ///< density pixels per axis (n[2] = 1 in 2D)
    double eps_min = 1.0;         ///< eps_r (eps_inf) at rho = 0
    double eps_max = 1.0;         ///< eps_r (eps_inf) at rho = 1
    DesignMedium medium_min;      ///< conductivity and poles at rho = 0
    DesignMedium medium_max;      ///< conductivity and poles at rho = 1
    std::size_t pixels() const { return std::size_t(n[0]) * std::size_t(n[1]) * std::size_t(n[2]); }
    bool lossless() const { return medium_min.lossless() && medium_max.lossless(); }
};

/// The discrete permittivity (dispersion.hpp discrete_epsilon: what the engines step at
/// time step dt_s) of the design material at density rho (in [0, 1]) and angular frequency
/// omega_rad_s: (1 - rho) eps_d,min + rho eps_d,max (header comment). Dimensionless.
std::complex<double> design_epsilon(const DesignRegion& region, double rho, double omega_rad_s, double dt_s);

/// The E Yee sites of a scene inside a design region and their interpolation from the
/// density grid: site s is component[s] at flat cell[s]; its rho~ is sum_t weight[8s+t] *
/// rho[pixel[8s+t]] (8 taps; unused taps have weight 0 and pixel 0).
struct DesignSites {
    std::vector<Component> component;
    std::vector<CellIndex> cell;
    std::vector<std::int32_t> pixel;  ///< 8 per site
    std::vector<double> weight;       ///< 8 per site, summing to 1
    std::size_t size() const { return cell.size(); }
};

/// The design sites of `scene` (every E component of the scene: Ez in TMz, Ex and Ey in
/// TEz, all three in 3D). Throws std::invalid_argument (message starting "design region: ")
/// for an empty or inverted box, pixel counts below 1, eps_min or eps_max below 1e-3 or not
/// finite, a box with no site, or a site that breaks a requirement of the header comment
/// (a lossy or dispersive design at a site coupled to the outside: "design region: its
/// <component> site at cell <n> keeps a sub-pixel tensor coupling ...").
DesignSites map_design(const Scene& scene, const DesignRegion& region);

/// eps_r of every site for the density `rho` (region.pixels() values in [0, 1]; values
/// outside are clamped). Throws std::invalid_argument for a wrong count or a NaN.
std::vector<double> site_permittivity(const DesignSites& sites, const DesignRegion& region,
                                      const std::vector<double>& rho);

/// The interpolated density rho~ of every site (sum of its taps; rho clamped to [0, 1]),
/// one per site. Throws as site_permittivity.
std::vector<double> site_density(const DesignSites& sites, const DesignRegion& region, const std::vector<double>& rho);

/// Gives each site of `scene` the material eps_r = eps[s] (lossless), appending table
/// entries (rounded to the free entries when there are too few, header comment), and the
/// sites' sub-pixel couplings as the header comment says (damped for the largest eps[s]).
void apply_design(Scene& scene, const DesignSites& sites, const std::vector<double>& eps);

/// Gives each site of `scene` the design material at its density rho_site[s] (site_density):
/// eps_inf and sigma interpolated in the table entry and, when a design material has poles,
/// a pole set of its own (header comment); a dispersive entry the scene had at a site is
/// replaced; the sites' sub-pixel couplings as the header comment says. Rounds rho~ to
/// evenly spaced levels when the table has too few free entries.
/// Throws std::invalid_argument for a wrong count, RunError when the table is full.
void apply_design(Scene& scene, const DesignSites& sites, const DesignRegion& region, const std::vector<double>& rho_site);

/// Chain rule from d F / d eps_r per site to d F / d rho per pixel (the transpose of the
/// interpolation, times eps_max - eps_min).
std::vector<double> pixel_gradient(const DesignSites& sites, const DesignRegion& region,
                                   const std::vector<double>& d_eps);

/// The transpose of the interpolation alone: from d F / d rho~ per site to d F / d rho per
/// pixel (region.pixels() values).
std::vector<double> interpolation_transpose(const DesignSites& sites, const DesignRegion& region,
                                            const std::vector<double>& d_rho_site);

/// A linear functional of the DFT fields: a(w) = sum_p weights[p] * F_{component[p]}(cell[p], w)
/// (E in V/m, H as H~ = eta0 H in V/m, at the components' own Yee positions).
struct FieldFunctional {
    std::string name;
    std::vector<Component> component;  ///< any component of the scene
    std::vector<CellIndex> cell;
    std::vector<std::complex<double>> weights;
    /// Optional frequency-dependent weights (a mode overlap with the mode of each
    /// frequency): [f][p], one row per Problem::frequencies_hz; when set they replace
    /// `weights`. The adjoint run then uses K delayed copies of its pulse with weights that
    /// give each frequency its own (adjoint.cpp AdjointBasis): a run longer by about one
    /// period of the frequency spacing.
    std::vector<std::vector<std::complex<double>>> weights_per_frequency;
};

/// The functional of one E component at the grid site nearest to `position_um`
/// (E(x0, w), weight 1). Throws std::invalid_argument for a component the scene lacks or a
/// point outside the grid.
FieldFunctional point_functional(const Scene& scene, Component component, const Vec3& position_um,
                                 const std::string& name = "point");

/// The forward (or backward) amplitude of mode slot `mode` (index into the plan's
/// mode_indices) of a mode monitor (a 2D line or a 3D plane), as mode_amplitudes
/// (mode_plane.hpp) computes it from the plan's DFT sets in `compiled` (the compiled scene
/// holding them), at the plan's frequencies `frequency_indices` (one weights_per_frequency
/// row each, in that order): the same linear combination of E and H~ samples, written out
/// sample by sample (H~ as its two h nodes with the set's weights), so that a = sum w F
/// equals mode_amplitudes' value (2D: sqrt(W/m), 3D: sqrt(W) per DFT unit). 3D: the
/// unconjugated overlap of the plane's E_u, E_v, H~_u, H~_v with the mode's transverse
/// h and e (docs/inverse-design.md, section 6). A frequency where the line or plane guides
/// no such mode gets zero weights. Throws std::invalid_argument for a slot or frequency
/// index out of range, or sets missing from `compiled`.
/// 3D caveat: the adjoint source of an E sample uses the site's diagonal update
/// coefficient, so a plane crossing sub-pixel tensor couplings (an oblique interface, the
/// edges of a strip with run.subpixel_averaging) gives a gradient whose error is of the
/// order of those cells' share of the overlap; the amplitude itself is exact.
FieldFunctional mode_functional(const Scene& compiled, const ModeMonitorPlan& plan, std::size_t mode, bool forward,
                                const std::vector<std::size_t>& frequency_indices, const std::string& name = "mode");

/// amplitudes[m][f]: functional m at frequency f.
using Amplitudes = std::vector<std::vector<std::complex<double>>>;
/// The figure of merit: returns F(a); when `gradient` is not null, fills it (same shape as
/// a) with the Wirtinger gradient g = dF/dRe a + i dF/dIm a (header comment).
using Objective = std::function<double(const Amplitudes& a, Amplitudes* gradient)>;

/// The figure of merit at each frequency separately: returns F_f(a) for f = 0 .. N_w - 1
/// (N_w = Problem::frequencies_hz.size()), where F_f reads the amplitudes at frequency f
/// only (a[m][f], every m); when `gradient` is not null, fills it (same shape as a) with
/// g[m][f] = dF_f/dRe a_mf + i dF_f/dIm a_mf: since each F_f has its own column of a, one
/// array holds all their Wirtinger gradients. (A mean over wavelengths is then
/// (1/N_w) sum_f F_f; the worst wavelength min_f F_f: adjoint_optimize.hpp epigraph.)
using FrequencyObjective = std::function<std::vector<double>(const Amplitudes& a, Amplitudes* gradient)>;

/// F = sum_mf weights[m][f] * |a_mf|^2 (g = 2 weights a). weights empty: all 1.
Objective intensity_objective(std::vector<std::vector<double>> weights = {});

/// What evaluate() and evaluate_with_gradient() throw when RunSettings::cancel was set: a
/// requested end, not an error of the problem or the run (adjoint_optimize.cpp turns it
/// into a clean stop). `run` is "forward" or "adjoint", `steps` the steps that run had made.
struct Cancelled : std::runtime_error {
    Cancelled(std::string run_name, long long steps_done)
        : std::runtime_error("adjoint: the " + run_name + " run was cancelled"), run(std::move(run_name)),
          steps(steps_done) {}
    std::string run;
    long long steps = 0;
};

/// The design region's E fields of one evaluation, for a live picture (RunSettings::on_fields).
/// Values per design site s (DesignSites order: sites grouped by component, x fastest) and
/// frequency f, index [s * nf + f], nf = frequencies_hz.size().
struct DesignFields {
    const DesignSites* sites = nullptr;   ///< valid during the call only
    std::vector<double> frequencies_hz;   ///< Problem::frequencies_hz
    /// The forward run's DFT of E at the sites (the engine's DFT units, Engine::dft).
    std::vector<std::complex<double>> forward;
    /// The adjoint field of F: sum_m conj(g_mf) E_adj,m(s, w_f) / S_m(w_f) (header comment;
    /// S_m = 1 for a per-frequency basis), so that
    ///   d F / d eps_r(s) = sum_f Re(-(1 - exp(i w_f dt)) forward[s, f] adjoint[s, f]).
    /// Empty after evaluate() (no adjoint run).
    std::vector<std::complex<double>> adjoint;
};

/// How the runs are made.
struct RunSettings {
    BackendChoice backend = BackendChoice::Cpu;
    Precision precision = Precision::Float64;
    int threads = 0;
    /// A run stops once every source has ended and the field energy has fallen to this
    /// fraction of its peak (the DFTs then hold the whole response).
    double decay = 1e-10;
    long long max_steps = 1000000;  ///< RunError beyond
    int check_every = 20;           ///< steps between energy checks
    /// Set to true (from any thread) to end an evaluation: every run checks it before each
    /// chunk of check_every steps and ends there; evaluate() and evaluate_with_gradient()
    /// then throw Cancelled. Null: no cancelling.
    const std::atomic<bool>* cancel = nullptr;
    /// Called on the evaluating thread after each complete evaluation (not a cancelled or
    /// failed one) with the design region's fields; copy what is needed and return (an
    /// IDE's live picture). Null: the fields are not gathered.
    std::function<void(const DesignFields&)> on_fields;
    /// Called on the running thread after each chunk of check_every steps of a forward or
    /// adjoint run with the run's name ("forward", "adjoint") and the steps it has made so
    /// far: a progress display, or a test that sets `cancel` at a known step. Keep it
    /// short. Null: not called.
    std::function<void(const char* run, long long steps)> on_progress;
    /// The devices of every forward and adjoint run (run.hpp DeviceSelection: the project's
    /// `run.devices`, `optimize --adjoint --devices`), made by the one chooser of ordinary
    /// runs, make_engine(scene, backend, precision, threads, devices, warnings): auto (the
    /// default) is one CPU engine, or the CUDA devices auto gives a grid that size; a count
    /// or list of several cuts each run's grid into that many subdomains along its slowest
    /// axis (distributed.hpp; on the CPU backend in this process, a check of the
    /// decomposition without speed-up, and a warning line in Evaluation::warnings). The
    /// design region's DFT sets are ordinary DFT sets: each sample is accumulated on the
    /// subdomain that owns its cell and gathered into the global order (Engine::dft), so the
    /// gradient equals the one-device gradient to rounding (tests/solver/test_adjoint_devices.cpp).
    /// What the distributed engine cannot cut is refused by it (RunError, naming the reason:
    /// a piece owning fewer than 2 halo widths of planes, a count above the visible CUDA
    /// devices); nothing falls back to one device silently.
    DeviceSelection devices;
    /// Makes the engine of each run ("forward" or "adjoint"; `scene` outlives the engine)
    /// instead of make_engine() with the settings above: the seam RunOptions::engine_factory
    /// gives ordinary runs, e.g. several CUDA subdomains on one device in a test
    /// (tests/gpu/cuda_adjoint_devices.cpp), or this MPI rank's subdomain under `mpirun
    /// golightly-cli optimize --adjoint` (golightly/mpi.hpp make_rank_engine: collective, and
    /// the engine's field_energy and dft reductions give every rank the same bits, so every
    /// rank computes the same objective and gradient). Null: make_engine().
    std::function<std::unique_ptr<Engine>(const Scene& scene, const char* run)> engine_factory;
};

/// A problem: the forward scene (sources, materials; its design region's materials are
/// replaced), the design, the functionals, the frequencies and the objective.
struct Problem {
    Scene scene;
    DesignRegion region;
    std::vector<FieldFunctional> functionals;
    std::vector<double> frequencies_hz;
    Objective objective;
    /// Optional: the per-frequency values F_f (FrequencyObjective). When set, evaluate()
    /// also gives Evaluation::objective_per_frequency and evaluate_with_gradient() also
    /// Evaluation::gradient_per_frequency, from the same forward and adjoint runs (the DFT
    /// fields at each frequency are independent, so d F_f / d eps(x) is the frequency-f term
    /// of the sum over frequencies in the header comment). `objective` stays the combined
    /// figure of merit (what Evaluation::objective and ::gradient report).
    FrequencyObjective per_frequency;
    RunSettings settings;
};

struct Evaluation {
    double objective = 0;
    Amplitudes amplitudes;            ///< a[m][f]
    std::vector<double> gradient;     ///< d F / d rho, one per pixel (empty without adjoint)
    /// d F / d eps_r, one per design site: the sensitivity to the site's real eps_inf
    /// (lossless, non-dispersive: to its eps_r), sum_f Re(-(1 - exp(i w_f dt)) E_fwd lambda);
    /// at a density's design site that keeps a tensor coupling, with E -> D~ / eps_r (header
    /// comment: the exact sensitivity); evaluate_sites: the diagonal formula everywhere
    std::vector<double> d_eps;
    /// evaluate_sites with the gradient only: the fields that give the sensitivity to any
    /// change of the sites' update, [s * nf + f] (site order of the DesignSites, nf =
    /// frequencies_hz.size()): the forward DFT of E (the engine's DFT units) and the
    /// adjoint field of F, lambda = sum_m conj(g_mf) E_adj,m / S_m(w_f) (DesignFields::adjoint),
    /// so that for a change d eps_d(s, w) of a site's discrete permittivity
    ///   d F = sum_{s,f} Re(-(1 - exp(i w_f dt)) site_forward[s, f] site_adjoint[s, f] d eps_d(s, w_f))
    /// and, for a change dK of the inverse-permittivity tensor of tensor-coupled sites (scene.hpp
    /// "Anisotropic cells"; D~ = K^-1 E, adjoint_shape.cpp),
    ///   d F = sum_f Re((1 - exp(i w_f dt)) D~_adj^T dK D~_fwd) with D~_adj from site_adjoint.
    /// site_adjoint_per_frequency: the same with the F_f's gradients (Problem::per_frequency).
    std::vector<std::complex<double>> site_forward, site_adjoint, site_adjoint_per_frequency;
    /// F_f, one per frequency (Problem::frequencies_hz order); empty without
    /// Problem::per_frequency.
    std::vector<double> objective_per_frequency;
    /// d F_f / d rho: [f][pixel], N_w rows of region.pixels() values (pixel index as
    /// `gradient`), in F_f's units per unit density; empty without Problem::per_frequency
    /// or without adjoint. For F = sum_f c_f F_f (a weighted mean: c_f = w_f / N_w),
    /// gradient = sum_f c_f gradient_per_frequency[f] to rounding.
    std::vector<std::vector<double>> gradient_per_frequency;
    long long forward_steps = 0, adjoint_steps = 0;  ///< adjoint: all adjoint runs together
    double forward_s = 0, adjoint_s = 0;             ///< wall time, s
    std::vector<std::string> warnings;               ///< from the engine choice
};

/// The forward run only: F and the amplitudes. Throws std::invalid_argument (problem),
/// RunError (the run diverged or did not decay within max_steps), Cancelled (settings.cancel).
Evaluation evaluate(const Problem& problem, const std::vector<double>& rho);

/// The forward run and one adjoint run per functional that F or one of the F_f depends on:
/// F, the amplitudes and d F / d rho (and the F_f with their gradients when
/// Problem::per_frequency is set). Throws as evaluate(), and std::invalid_argument when
/// an objective's gradient or the per-frequency values have the wrong shape.
Evaluation evaluate_with_gradient(const Problem& problem, const std::vector<double>& rho);

/// The runs of evaluate() (with_gradient false) or evaluate_with_gradient() (true) on
/// problem.scene as it is: no density is applied (problem.region is unused), and the
/// gradient is taken with respect to eps_r at the E Yee sites `sites` (any sites of the
/// scene, those of one component consecutive; pixel and weight unused; empty: the forward
/// run only), e.g. the sites whose permittivity a shape parameter moves (adjoint_shape.hpp).
/// The same forward and adjoint runs and the same sensitivity d F / d eps_r(s) as the
/// density (header comment). Fills objective, amplitudes, the steps and times, and with
/// the gradient d_eps (one per site, F per unit eps_r) and gradient = d_eps; with
/// Problem::per_frequency objective_per_frequency and gradient_per_frequency as [f][site]
/// (d F_f / d eps_r). Throws as evaluate_with_gradient, and std::invalid_argument (message
/// starting "shape sites: ") for a site that is not an E site of the scene, lies on a
/// source, in the PML, or next to a TF/SF face: there the sensitivity of the header
/// comment does not hold (in the PML: measured errors of 4 % to 170 % for a slab through
/// it, docs/inverse-design.md section 8). Dispersive, conductive and tensor-coupled
/// sites are accepted: d_eps is then the sensitivity to eps_inf (at a tensor-coupled site
/// only its diagonal approximation), and site_forward and site_adjoint give the exact
/// sensitivity to any change of the sites' update (Evaluation).
Evaluation evaluate_sites(const Problem& problem, const DesignSites& sites, bool with_gradient);

}  // namespace golightly::adjoint
