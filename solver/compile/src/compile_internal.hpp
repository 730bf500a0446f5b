// GoLightly compiler internals shared by the 2D compiler (compile_project.cpp) and the 3D
// compiler (compile_3d.cpp). Not installed; only the compile target sees it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/geometry.hpp"
#include "golightly/grid.hpp"
#include "golightly/project.hpp"
#include "golightly/scene.hpp"

namespace golightly::detail {

/// Short decimal form of v for messages.
std::string fmt(double v);
/// "what[i]".
std::string idx_path(const char* what, std::size_t i);

/// Parses "+x", "-x", "+y", "-y" (and "+z", "-z" when allow_z) -> (axis, sign); axis -1
/// when invalid.
std::pair<int, int> parse_direction(const std::string& d, bool allow_z = false);

/// The waveform of a source (CompiledWaveform: omega in rad/s, times in s; gaussian pulse
/// tau from the span: spectral amplitude 1/e at the span's ends, t0 = 6 tau). Throws
/// ProjectError (file, path.waveform...) for a centre wavelength or span out of range.
CompiledWaveform compile_waveform(const Source& s, const std::string& path, const std::string& file);

/// The run spectrum (Hz), uniform in frequency between the spectrum's wavelengths,
/// increasing.
std::vector<double> compile_spectrum(const Project& project);

/// The frequencies (Hz) of a dft_field monitor's wavelengths (um), in their order. Throws
/// ProjectError naming path.wavelengths[k] for a wavelength <= 0, path.wavelengths when
/// there is none.
std::vector<double> dft_field_frequencies(const Monitor& m, const std::string& path, const std::string& file);

/// The DftSet of a dft_field monitor's component c: one sample per node of `box` (cells,
/// half-open; 2D: k in [0, 1)), in flat-index order of `grid` (x fastest), weight 1 and no
/// second cell; frequencies in Hz.
DftSet box_dft_set(const Grid& grid, const CellBox& box, Component c, const std::vector<double>& frequencies_hz);

/// One sample of a flux line (2D) or plane (3D): the tangential E at `e_cell` with weight
/// `w` (the node's covered fraction) into `es`, and H~ averaged (0.5 each) over `h_lo` and
/// `h_hi`, the h positions either side of the E node along the normal, into `hs`.
void add_flux_sample(DftSet& es, DftSet& hs, CellIndex e_cell, double w, CellIndex h_lo, CellIndex h_hi);

/// TF/SF source (2D and 3D; scene.hpp "TF/SF"): box min/max (um; z ignored in 2D) to the
/// inclusive integer positions of the total-field region (nearest e positions), direction
/// (+x .. -z, propagation) and the E polarization `component` (normal to the direction; in
/// 2D a component of the polarization). Checks the engine's requirements (one cell of
/// margin inside the grid and outside the PML on every axis not spanned periodically).
/// Throws ProjectError naming sources[i].min / .max / .direction / .component.
TfsfSource compile_tfsf(const Project& project, const Source& src, const std::string& path,
                        const std::string& file, const Scene& scene, const Grid& grid, const CompiledWaveform& wf);

/// Numerical vacuum wavenumber of the Yee scheme at angular frequency omega (rad/s):
/// k0~ = 2/(c0 dt) sin(omega dt/2), in 1/um (Taflove & Hagness 3rd ed. eq. 4.12 with the
/// time difference only; the space part is half_cell_delay_s's asin).
double numerical_k0_per_um(double omega, double dt_s);

/// Travel time (s) of a plane wave of discrete index n_disc along a grid axis over half a
/// cell at omega (rad/s): 0.5 dx / v_phase with the lattice wavenumber
/// beta = (2/dx) asin(n_disc k0~ dx/2) (Taflove & Hagness 3rd ed. eq. 4.12, normal
/// incidence). dx in um, dt in s.
double half_cell_delay_s(double n_disc, double omega, double dx_um, double dt_s);

/// Tangential field pair of a plane normal to an axis (one-way sources, 2D flux lines):
/// the E component e, its H~ partner h (the third axis's component: the in-plane H~ whose
/// normal derivative enters e's update), sigma_e the sign of the normal h-difference in e's
/// update and sigma_h that of the normal e-difference in h's update (scene.hpp updates).
struct TangentialPair {
    Component e, h;
    double sigma_e;
    double sigma_h;
};

/// The pair of the in-plane E component `e` on a plane normal to `normal` in 3D (scene.hpp
/// "3D scenes": the H partner is the component of the third axis; sigma = +1 when
/// normal = e's axis + 1 (cyclic), -1 when normal = e's axis + 2). Precondition: e electric
/// and not along `normal`.
TangentialPair tangential_pair_3d(int normal, Component e);

/// Incident fields of a one-way plane-wave sheet at one node (field units per unit source
/// amplitude): the source component carries the profile value `prof`, its partner follows
/// from the local index n_local (e_inc = prof, h_inc = -sigma_h s n e_inc for an electric
/// source component; h_inc = prof, e_inc = -sigma_e s h_inc / n for a magnetic one); s = +-1
/// the direction along the normal (top of compile_project.cpp, "One-way sources").
void plane_wave_incident(bool electric_source, double prof, double n_local, const TangentialPair& tp, int s,
                         double& e_inc, double& h_inc);

/// One node of a one-way (TF/SF) sheet pair: the E node of tp.e on the source plane
/// (e position k_s along the normal), its H partner node of tp.h half a cell behind
/// (h position k_s - s/2, index k_s - 1 for s = +1, k_s for s = -1; same tangential
/// indices), the covered fraction of the node's dx (2D) or dx^2 (3D), the incident fields
/// and the H term's delay (s).
struct OneWayNode {
    CellIndex e_cell = 0, h_cell = 0;
    double frac = 0;
    double e_inc = 0, h_inc = 0, delay_h_s = 0;
};

/// One-way injection (2D and 3D; top of compile_project.cpp, "One-way sources"; Taflove &
/// Hagness 3rd ed. sec. 5.6): appends to scene.sources one E term on tp.e (weight
/// -s sigma_e cb h_inc frac, cb of the node's table entry, delay 0) and H terms on tp.h
/// (weight -s sigma_h S e_inc frac), one per distinct delay. Zero weights are skipped.
void add_one_way_terms(Scene& scene, const TangentialPair& tp, int s, const std::vector<OneWayNode>& nodes,
                       const CompiledWaveform& wf);

/// Merges the source terms scene.sources[first, mid) (the real part of a complex injection)
/// and [mid, end) (its imaginary part) into one term per (component, delay) whose cells
/// carry weights re + i im (SourceTerm::weights_im), with waveform wf. Why: the two parts'
/// terms may list different cells (zero weights are skipped).
void merge_complex_source_terms(Scene& scene, std::size_t first, std::size_t mid, const CompiledWaveform& wf);

/// One E site whose sub-pixel inverse permittivity tensor has a nonzero off-diagonal entry
/// in its row: its flat cell index and (eps^-1)_{a,b} for the partner component b of each
/// slot group g (scene.hpp anisotropic_partner; 2D TEz: off[0] = (eps^-1)_xy, off[1]
/// unused).
struct TensorSeed {
    CellIndex cell = 0;
    double off[2] = {0, 0};
};

/// Scene::anisotropic from the seeds of each E component (2D TEz: seeds[0], seeds[1]; 3D:
/// all three), shared by the 2D and 3D compilers (top of compile_project.cpp, "Sub-pixel
/// tensor"). A site is eligible when it lies outside the PML slabs and off the outermost
/// lines of non-periodic axes (pec, Mur), is not dispersive and not conductive (table ca ==
/// 1, sigma == 0); other sites keep the diagonal entry only (their off-diagonal entries
/// taken as 0, and no coupling to them). Eligible seeds with |off| > 1e-6 (eps^-1)_aa couple
/// each pair of eligible sites p (component a), q (component b) that are nearest neighbours
/// (AnisotropicCells slot order) with K(p,q) = (off_ab(p) + off_ba(q)) / 8, the symmetrized
/// avg4 form of Meep (Oskooi et al., Opt. Lett. 34, 2778 (2009)). Damping for positive
/// definiteness: with R(p) = sum_q |K(p,q)| and d(p) = (eps^-1)_aa(p) (table 1 / eps_r),
/// s(p) = min(1, 0.95 d(p) / R(p)) and K(p,q) *= min(s(p), s(q)), so every row of the
/// symmetric operator is strictly diagonally dominant (Gershgorin). Needs the scene's grid,
/// boundaries, pml_lo/hi, material table and maps and dispersive lists. Sorts the seeds.
/// Memory: O(seeds + listed sites), never per grid cell. Returns the number of damped
/// couplings.
std::size_t build_tensor_couplings(Scene& scene, std::vector<TensorSeed> (&seeds)[3]);

/// The end of compiling, shared by 2D and 3D: the step limit (run.stop), the memory
/// estimate (engine_state_bytes; ProjectError naming the largest part when it exceeds the
/// machine's memory) and the resolution warning (cells per wavelength at the shortest
/// wavelength in the highest index).
void finish_compile(const Project& project, const std::string& file, CompiledProject& out);

/// The nodes of a point source's component along one axis, as (index, weight share): the
/// nearest node (share 1), or, when domain.symmetry sets a plane on the axis, the point lies
/// on it (within a thousandth of a cell) and the component has no node there, the two nodes
/// either side with share 1/2 each, so that a source centred on the plane is its own mirror
/// image (project-format.md "Symmetry"; Meep spreads a point source over its neighbours).
std::vector<std::pair<std::int64_t, double>> point_source_nodes(const Project& project, const Grid& grid, int axis,
                                                                double x_um, double offset);

/// Warnings for flux boxes that do not sit where their kind needs them when the project has
/// a tfsf source: a `scattering` box must enclose the total-field box (its faces in the
/// scattered-field region), an `absorption` box must lie inside it (total field). Boxes in
/// um; 2D compares x and y, 3D x, y and z (axes the tfsf box spans periodically skipped).
void warn_tfsf_flux_boxes(const Project& project, CompiledProject& out);

/// Whether a material of `used` (material ids) has Lorentz/Drude poles.
bool any_dispersive(const Project& project, const std::set<std::string>& used);
/// Whether `m` is a metal for run.subpixel_metal: dispersive, with Re eps(omega) < 0
/// somewhere in the run's band (analytic_epsilon at 33 frequencies evenly spaced between
/// those of run.spectrum's wavelength_max and wavelength_min). Only such a material can
/// put a cut cell near Re eps = 0 when its poles are weighted by a fraction: between two
/// materials with Re eps > 0 every weighting stays positive.
bool is_metal_in_band(const Project& project, const Material& m);

/// The ids of the metals (is_metal_in_band) among `used` when run.subpixel_metal is
/// "staircase" (they are staircased whole where they cut a cell: average_medium's
/// staircase_materials), else none.
std::vector<std::string> staircased_metals(const Project& project, const std::set<std::string>& used);

/// The dispersive cells of a scene (scene.hpp "Dispersive cells"), shared by the 2D and 3D
/// compilers (top of compile_project.cpp, "Dispersive materials"): pole sets (one per
/// dispersive material, one per distinct mixture), each E sample's pole set and weight
/// from its coverage fractions, the cell lists, and the checks (warnings).
/// Use: classify() the coverage of each E component's samples, add_cell() every grid
/// cell that takes a dispersive sample, then add_warnings().
class DispersionBuilder {
public:
    /// `scene` must have dt_s and courant set; its pole_sets grow here. subpixel: the run's
    /// sub-pixel averaging (false: the material with the largest fraction takes the cell).
    DispersionBuilder(const Project& project, Scene& scene, bool subpixel)
        : project_(project), scene_(scene), subpixel_(subpixel) {}

    /// Per sample (the flat index of the Coverage arrays, 2D or 3D): the pole set (index
    /// into Scene::pole_sets, -1 for a non-dispersive sample), the weight, and the label
    /// of its dispersive material(s) (index into labels(): "au", or "au+ag" for a mixture).
    struct SampleSets {
        std::vector<int> set;
        std::vector<double> weight;
        std::vector<int> label;
        /// "conformal" only: (sample, eps_inf) for the samples whose cell eps_inf must be
        /// set to that of their cut-cell response plus its discretization shift
        /// (conformal_metal.hpp: CutCellResponse::epsilon_inf + CutCellPoles::eps_inf_shift,
        /// with the probe's normal rather than the eps_inf average's), sorted by sample
        std::vector<std::pair<std::size_t, double>> eps_inf;
    };
    /// The shape of a Coverage's sample grid: fraction index (k * ny + j) * nx + i (nz = 1
    /// in 2D), and the axis (0 x, 1 y, 2 z) of the E component sampled there.
    struct SampleShape {
        int nx = 1, ny = 1, nz = 1;
        int axis = 2;
    };
    /// Pole weights w_q per dispersive material q of a sample, by run.subpixel_metal
    /// (project.hpp SubpixelMetal), f_q its covered fraction, s_q = 1 when q has the
    /// largest fraction of the sample (first on ties), else 0:
    /// These rules apply to metals (is_metal_in_band); a dispersive material with Re eps > 0
    /// over the whole band (a fitted dielectric) keeps w_q = f_q under every scheme.
    ///   fraction:   w_q = f_q;
    ///   staircase:  w_q = s_q (the geometry staircases eps_inf and sigma there too);
    ///   tangential: w_q = f_q where the component is tangential to the whole surface of
    ///               q (p <= 0.01 at every cut sample of q, kTangentialNormalProjection in
    ///               compile_common.cpp), else s_q at every sample; p = n_d^2 the squared
    ///               projection of the surface normal of q on
    ///               the component's axis d, estimated from the fraction field of q: n_a^2
    ///               proportional to the mean of the squared one-sided differences of f_q
    ///               along axis a (one-sided so that a film thinner than a cell still
    ///               shows its normal); p = 1 (staircase) where f_q has no resolvable
    ///               gradient. E parallel to every interface (Ez in 2D) has p = 0: the
    ///               exact arithmetic mean of chi.
    ///   conformal:  for a metal q all of whose cut samples have p (from `normal_sq`, the
    ///               probe's AveragedMedium::cut_normal_sq of the same samples:
    ///               conformal_probe) within 0.01 of 0 or 1, a sample cut by q alone,
    ///               without conductivity, its other materials non-dispersive and without
    ///               conductivity: its own pole set, the partial fractions of the
    ///               anisotropic average of the full eps(omega) (conformal_metal.hpp
    ///               cut_cell_response), weight 1, and the cell's eps_inf
    ///               (SampleSets::eps_inf); any other sample as tangential.
    /// One dispersive material with w >= 1e-7 in a sample: its own pole set, weight w
    /// (capped at 1); several: a pole set of the union of their poles with c3 scaled by
    /// each w, weight 1. subpixel off: the material of the largest fraction, weight 1.
    /// Throws RunError beyond 2^31 - 1 pole sets, or when a cut cell's response has an
    /// unstable pole (not possible for passive materials: conformal_metal.hpp).
    SampleSets classify(const Coverage& cov, const SampleShape& shape,
                        const std::vector<std::pair<std::size_t, float>>* normal_sq = nullptr);

    /// Appends grid cell `cell` of E component `component` (0..2), which takes sample
    /// `sample` of `sets` (nothing when that sample is not dispersive); eps_inf_cell is
    /// the cell's averaged (table) eps_inf (for the stability check), in_pml whether the
    /// cell lies in a PML slab (for the PML warning).
    void add_cell(int component, CellIndex cell, const SampleSets& sets, std::size_t sample, double eps_inf_cell,
                  bool in_pml) {
        const int set = sets.set[sample];
        if (set < 0) return;
        DispersiveCells& d = scene_.dispersive[component];
        d.cells.push_back(cell);
        d.pole_set.push_back(static_cast<std::uint32_t>(set));
        d.weight.push_back(sets.weight[sample]);
        const int lab = sets.label[sample];
        auto& e = min_eps_inf_[static_cast<std::size_t>(lab)];
        e = std::min(e, eps_inf_cell);
        if (in_pml) in_pml_.insert(lab);
    }

    /// The checks, as warnings: per dispersive material omega_0 dt >= 2 (unstable) or > 1
    /// (poorly resolved), and the amplification factor of the discrete update
    /// (dispersion.hpp amplification_factor on a `dimensions`-D grid at the scene's Courant
    /// number) with the material's eps_inf and conductivity and with eps_inf lowered to
    /// the smallest averaged eps_inf of its cells ("UNSTABLE", naming the material);
    /// dispersive materials reaching into the PML.
    void add_warnings(std::vector<std::string>& warnings, int dimensions) const;

    const std::vector<std::string>& labels() const { return labels_; }

private:
    const Project& project_;
    Scene& scene_;
    bool subpixel_;
    std::map<std::string, bool> metal_;                       ///< material id -> is_metal_in_band
    std::map<std::string, std::uint32_t> pure_set_;          ///< material id -> pole set
    std::map<std::vector<double>, std::uint32_t> mixed_set_;  ///< (c1, c2, c3)... -> pole set
    std::vector<std::string> labels_;
    std::map<std::string, int> label_of_;
    std::vector<double> min_eps_inf_;  ///< per label
    std::set<int> in_pml_;             ///< labels

    std::uint32_t add_set(PoleSet ps);
    std::uint32_t material_set(const Material& m);
    /// The pole set and eps_inf shift of a cut cell under "conformal" (cached by its inputs).
    std::pair<std::uint32_t, double> conformal_set(const Material& metal, double f, double p, double h, double a);  ///< (set, eps_inf)
    std::map<std::vector<double>, std::pair<std::uint32_t, double>> conformal_set_;  ///< (metal index, f, p, h, a)
    std::map<std::string, double> metal_index_;
    int label(const std::string& l);
};

/// Sets `eps` to the eps_inf of sample `sample` in sets.eps_inf, when it has one.
inline void apply_sample_eps_inf(const DispersionBuilder::SampleSets& sets, std::size_t sample, double& eps) {
    const auto it = std::lower_bound(sets.eps_inf.begin(), sets.eps_inf.end(), sample,
                                     [](const std::pair<std::size_t, double>& e, std::size_t k) { return e.first < k; });
    if (it != sets.eps_inf.end() && it->first == sample) eps = it->second;
}

/// run.subpixel_metal "conformal": the project whose materials are the constants |eps(omega)|
/// at the centre of run.spectrum (no poles, no conductivity), so that average_medium's
/// interface normals (the window integral of grad eps) see a metal's surface also where its
/// epsilon_inf equals its neighbour's (B-CALM's gold, eps_inf 1, in air); its
/// AveragedMedium::cut_normal_sq gives p for DispersionBuilder::classify. As the mode
/// planes' probe (mode_plane.cpp).
Project conformal_probe(const Project& project);

/// compile_project() for domain.dimensions == 3 (compile_3d.cpp).
CompiledProject compile_project_3d(const Project& project, const std::string& file, const CompileOptions& options);

// ---------------------------------------------------------------- Bloch (compile_bloch.cpp)

/// The Bloch wave vector of a project, rad/um per axis (project-format.md "Bloch-periodic
/// boundaries"): domain.bloch_k in its unit (2 pi / L_a with L_a = period_um[a], or 1/um),
/// else the in-plane wave vector of the line/plane sources with angle_deg != 0 at their
/// centre wavelength, k_par = n k0 sin(angle) along (cos azimuth, sin azimuth) of the
/// plane's two in-plane axes (2D: the line's one axis); n = n_at_source(i), the index
/// at source i. 0 on axes that are not Bloch. Throws ProjectError (file, path) for a k on
/// an axis that is not "bloch", z entries in 2D, an angle on a source that is not a line /
/// plane or is a mode source, an angle out of (-90, 90) degrees, angled sources that
/// disagree, an angle whose k_par lies along an axis that is not "bloch", and a bloch_k
/// that disagrees with a source's angle.
std::array<double, 3> resolve_bloch_k(const Project& project, const std::string& file,
                                       const std::array<double, 3>& period_um,
                                       const std::function<double(std::size_t)>& n_at_source);

/// The normal axis of a line (2D) or plane (3D) source, -1 for other source types.
int source_plane_normal(const Source& src, int dimensions);

/// The discrete normal index of an oblique plane wave on the Yee grid: n_perp =
/// sqrt(eps k0~^2 - kt~^2) / k0~ with k0~ = numerical k0 (1/um) and kt~^2 = sum over the
/// in-plane axes of ((2/dx) sin(k_a dx / 2))^2 (the Yee dispersion relation, Taflove &
/// Hagness 3rd ed. eq. 4.12). Equals sqrt(eps) at k_t = 0. Returns NaN when the wave is
/// evanescent (kt~ >= sqrt(eps) k0~).
double oblique_normal_index(double eps, double k0_tilde_per_um, const std::array<double, 3>& k_per_um, int normal,
                            double dx_um);

/// Multiplies the weights of the source terms [first_term, end) by exp(i k . r) (r the Yee
/// position of each term's cell and component, um; only the axes with k != 0): weights
/// become w cos(k.r), weights_im w sin(k.r) (scene.hpp SourceTerm, "Bloch-periodic axes").
void apply_bloch_phase(Scene& scene, std::size_t first_term, const std::array<double, 3>& k_per_um);

}  // namespace golightly::detail
