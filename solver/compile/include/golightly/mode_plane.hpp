// GoLightly: the cross-section of a 3D project on a plane (a mode source's, mode monitor's
// or port's plane), sampled for the full-vector mode solver (mode_solver2d.hpp) with the
// same sub-pixel averaged permittivity as the FDTD run.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "golightly/scene.hpp"

namespace golightly {

/// A plane's cross-section on the project's Yee grid. Local axes (u, v, w) are a cyclic
/// permutation of (x, y, z) with w the plane's normal: normal x -> (y, z, x), normal y ->
/// (z, x, y), normal z -> (x, y, z), so (u, v, w) is right-handed and the mode's E_u is the
/// FDTD's E along axis_u at the same Yee nodes.
/// The material makeup of a cross-section's samples, kept so that the medium can be
/// evaluated at any frequency (cross_section_medium) without re-sampling the geometry.
struct CrossSectionMakeup {
    std::vector<Material> materials;  ///< the materials present (compute_coverage_3d's order)
    /// fraction[d][q][k]: fraction of material q in the averaging cube of sample k of the
    /// E_d nodes (compute_coverage_3d, float as the FDTD medium uses them); an empty
    /// vector where material q is absent from that component's samples
    std::array<std::vector<std::vector<float>>, 3> fraction;
    /// projection[d][k]: n_d^2 of the Farjadpour et al. (Opt. Lett. 31, 2972 (2006), eq. 1)
    /// inverse tensor's diagonal entry 1/eps_dd = n_d^2 <1/eps> + (1 - n_d^2) / <eps> at
    /// sample k (n the sample's interface normal, as average_medium_3d finds it); 0 where
    /// the cube has no resolvable normal
    std::array<std::vector<double>, 3> projection;
    bool subpixel = true;  ///< false: staircase (the material with the largest fraction)
};

struct CrossSection {
    ModeGrid2D grid;      ///< the window, in cells of domain.cell_size
    /// eps at the E_u, E_v, E_w nodes (mode_solver2d.hpp shapes), evaluated at
    /// medium_wavelength_um (cross_section_medium)
    ModeMedium2D medium;
    double medium_wavelength_um = 0;  ///< the vacuum wavelength `medium` is evaluated at
    CrossSectionMakeup makeup;        ///< for cross_section_medium at other frequencies
    int axis_u = 0, axis_v = 1, axis_w = 2;
    /// Project coordinates (um) of the window's corner (u = 0, v = 0) along axis_u,
    /// axis_v, and the plane's position along axis_w (an integer node of the grid: the
    /// E_u, E_v nodes; E_w is sampled half a cell further, at its own Yee node).
    double u0_um = 0, v0_um = 0, w_um = 0;
    /// Grid index (interior numbering, node 0 at the domain's lower corner) of the window
    /// corner along axis_u, axis_v, and of the plane along axis_w.
    int i0_u = 0, i0_v = 0, i_w = 0;
};

/// The walls of a mode window on the plane with normal axis `normal` (0, 1, 2) spanning
/// `size` (um), for its in-plane axes (u, v) = ((normal + 1) % 3, (normal + 2) % 3).
/// `mode_boundary` (the port's, mode monitor's or mode source's JSON field; null when
/// absent): a string "pec" | "pmc" | "periodic" for both axes, or a list of three such
/// strings per project axis [x, y, z] (the entry along the normal is ignored). Absent
/// (per axis): the domain's boundary along that axis when the window spans the whole
/// domain along it (periodic -> periodic, pec -> pec, pmc -> pmc), else PEC (a guided mode
/// must have decayed at the window's edge). Throws ProjectError (json_path +
/// ".mode_boundary") for another value, and for "periodic" along an axis that the
/// window does not span whole in a periodic domain axis (a periodic window is one period
/// of the structure).
std::array<ModeBoundary, 2> mode_window_boundaries(const Project& project, int normal, const Vec3& size,
                                                   const Json& mode_boundary, const std::string& json_path,
                                                   const std::string& file_label);

/// Samples the cross-section of a 3D project (domain.dimensions 3) on the plane `center`,
/// `size` (um; exactly one entry of size is 0: the normal). The window is snapped to the
/// grid: corner at the nearest node of (center - size/2), N = round(size / dx) cells per
/// axis (at least 2), the plane at the nearest node of center along the normal.
/// Permittivity: the materials' eps(omega) (cross_section_medium) at `wavelength_um`
/// (vacuum wavelength; <= 0: the centre of the project's spectrum, (wavelength_min +
/// wavelength_max) / 2), mixed by the FDTD's sub-pixel rule of average_medium_3d
/// (geometry.hpp, when run.subpixel_averaging, else staircase) over the main run's layers
/// (reference_run false) or the reference run's, for E_u, E_v at the plane's nodes and
/// E_w half a cell above. The interface normals (projection) come from average_medium_3d
/// of the project with each material's eps replaced by |eps(omega)| at that wavelength
/// (so that a pole material with epsilon_inf equal to its neighbour's still has an
/// interface).
/// Window walls: mode_window_boundaries(project, normal, size, extra["mode_boundary"])
/// (`extra`: the object's unknown JSON members, e.g. Monitor::extra; by default PEC, or
/// the domain's boundary where the window spans the domain). Throws ProjectError
/// (json_path) for a 2D project, a size without exactly one zero entry, a window of fewer
/// than 2 cells along an axis, or a bad mode_boundary.
CrossSection sample_cross_section(const Project& project, const Vec3& center, const Vec3& size, bool reference_run,
                                  const std::string& json_path, const std::string& file_label,
                                  const Json& extra = Json::object(), double wavelength_um = 0);

/// The cross-section's permittivity at angular frequency omega_rad_s (> 0): each
/// material's eps(omega) = eps_inf + sum of its Lorentz/Drude pole susceptibilities
/// + i sigma / (omega eps0) (dispersion.hpp analytic_epsilon; time convention
/// exp(-i omega t), Im eps > 0 for loss), mixed per sample as the FDTD mixes epsilon_inf
/// (CrossSectionMakeup): a uniform cube takes its material's eps; sub-pixel: eps_dd =
/// 1 / (P <1/eps> + (1 - P) / <eps>) with the fractions and P = projection[d] (complex
/// arithmetic where eps is complex); staircase: the material with the largest fraction
/// (first on ties). Note: the FDTD mixes only epsilon_inf by this rule and adds the poles
/// by their fractions (metals: run.subpixel_metal), so at cut cells of a dispersive
/// interface the mode and the FDTD medium differ to first order in the cut cells' share
/// of the mode.
/// ModeMedium2D::eps_imag is filled (each eps[d]'s size) only when some material has
/// Im eps != 0 at omega, else left empty (the mode solver stays real). eps_group is filled
/// when some material has poles: d(omega Re eps_dd)/d omega of the mixed value, by the
/// central difference at omega (1 +- 1e-4) (truncation ~1e-8 relative).
/// Throws std::invalid_argument for omega <= 0.
ModeMedium2D cross_section_medium(const CrossSection& cs, double omega_rad_s);

/// Mode selection of a 3D port, mode monitor or mode source (spec "Mode sources and
/// monitors", additive): `target_neff` solves near that effective index instead of the
/// highest index of the cross-section; `filter` keeps only TE-like or TM-like modes before
/// `mode_index` / `modes` index them (modes stay sorted by decreasing Re n_eff).
enum class ModeFilter { none, te, tm };
/// `bend_radius` (um, signed, 0 = straight) and `bend_axis` ("x", "y" or "z": the axis of the
/// plane along which the bend's centre of curvature lies) make the plane the cross-section of
/// a bend (ModeSolveOptions::bend_radius_um: R > 0 puts the centre on the -bend_axis side of
/// the plane's centre, R < 0 on the + side; n_eff referred to the radius |R| at the plane's
/// centre; PML of kBendPmlCells cells at both ends of bend_axis gives the radiation loss).
struct ModeSelection {
    double target_neff = 0;  ///< > 0: the shift of the mode solver (ModeSolveOptions::target_neff)
    ModeFilter filter = ModeFilter::none;
    double bend_radius_um = 0;  ///< signed bend radius (um); 0 = straight
    int bend_axis = -1;         ///< project axis (0 x, 1 y, 2 z) of the centre of curvature; -1 when straight
};

/// PML cells at both ends of a bent plane's bend axis (ModeSolveOptions::pml_cells).
inline constexpr int kBendPmlCells = 12;

/// Reads the members `target_neff` (a number > 0), `filter` ("te", "tm" or "none"),
/// `bend_radius` (a finite number, um; 0 = straight) and `bend_axis` ("x", "y" or "z";
/// required when bend_radius != 0) of `obj` (Monitor::extra, Source::extra or a port's JSON
/// entry); absent members keep the defaults. Throws ProjectError(file_label, json_path +
/// ".target_neff", ".filter", ".bend_radius" or ".bend_axis").
ModeSelection parse_mode_selection(const Json& obj, const std::string& json_path, const std::string& file_label);

/// Copies the selection's target_neff and bend into `o` for the cross-section `cs` of a plane
/// centred at `center` (project um): bend_axis -> the window axis (u or v), the reference
/// line at center along it, kBendPmlCells of PML at both ends of that axis.
/// Throws ProjectError(file_label, json_path + ".bend_axis") when bend_axis is the plane's
/// normal, or json_path + ".size" when the window has <= 2 kBendPmlCells cells along it.
void apply_mode_selection(const CrossSection& cs, const ModeSelection& sel, const Vec3& center, ModeSolveOptions& o,
                          const std::string& json_path, const std::string& file_label);

/// The share of a mode's transverse sum |E|^2 along the wafer-plane axis across the
/// plane: the window's u axis for an x- or z-normal plane (y, x), v for a y-normal one (x)
/// (the TE fraction `golightly-cli modes` prints).
double wafer_te_fraction(const CrossSection& cs, const VectorMode& mode);

/// The modes kept by `filter` (te: wafer_te_fraction >= 0.5; tm: < 0.5; none: all), in the
/// solver's order (decreasing Re n_eff), or, with target_neff > 0, nearest the target first
/// (|Re n_eff - target_neff|, ties by decreasing Re n_eff): the solver returns the N modes
/// nearest the target, and sorted by n_eff mode 0 of a larger solve could be another than
/// mode 0 of a smaller one (a port's monitor solves more modes than its source).
std::vector<VectorMode> filter_modes(const CrossSection& cs, std::vector<VectorMode> modes, ModeFilter filter,
                                     double target_neff = 0);

/// How many modes to ask the solver for so that `wanted` modes are likely to pass
/// `filter`: wanted for none, 2 wanted + 2 for te / tm (TE and TM modes of a strip
/// alternate in n_eff, with at most a few of one kind in a row near the top).
int modes_to_solve(int wanted, ModeFilter filter);

/// Normalized overlap of two modes of one cross-section (fields at the same nodes):
/// sqrt(|sum (a.e x b.h)_w| |sum (b.e x a.h)_w| / (|sum (a.e x a.h)_w| |sum (b.e x b.h)_w|)),
/// unconjugated transverse products (the reciprocity form, valid for lossy modes): 1 for
/// the same mode (any phase), 0 for orthogonal modes. 0 when either mode is empty.
/// `conjugated`: the products conjugate the second factor, sum (x.e x y.h*)_w (the power
/// orthogonality of lossless modes). Complex Bloch modes of a window along a Bloch axis
/// (ModeGrid2D::bloch_phase_u/v != 0) need it: their unconjugated product pairs the mode
/// of wave vector k_t with that of -k_t, and a mode's product with itself sums
/// exp(2 i k_t u) over the period, which can vanish.
double mode_overlap(const VectorMode& a, const VectorMode& b, bool conjugated = false);

/// Where the window of `cs` (sampled by sample_cross_section) spans a Bloch axis of the
/// scene with a nonzero phase (Scene::bloch_phase, k L over the domain's period): sets
/// cs.grid.bloch_phase_u / _v to that phase, so that the solver returns the complex Bloch
/// modes of the period (mode_solver2d.hpp) and returns true; false (cs unchanged) when no
/// in-plane axis has a Bloch phase. Throws ProjectError(file_label, ...) naming the field
/// for what is not supported: json_path + ".size" when the window covers a Bloch axis of
/// nonzero k only in part (its mode is a Bloch mode of the whole period, as for 2D mode
/// lines), json_path + ".mode_boundary" when its wall there is not "periodic",
/// json_path + ".center" when the plane's normal is itself a Bloch axis of nonzero k (the
/// mode would propagate along an axis of imposed phase), json_path + ".bend_radius" for a
/// bent plane along a Bloch axis. `what` names the object ("mode monitor 'm'").
bool apply_bloch_window(const Project& project, const Scene& scene, CrossSection& cs, const Json& extra,
                        const std::string& what, const std::string& json_path, const std::string& file_label);

/// Below this overlap between the same tracked mode at neighbouring frequencies,
/// track_modes reports a warning (issue criterion).
inline constexpr double kModeTrackingOverlap = 0.9;

/// Follows modes across a spectrum by field overlap instead of by index, so that modes
/// that cross in n_eff keep their identity. candidates[f]: the modes solved at frequency f
/// (sorted by decreasing n_eff). At f = start the tracked modes are candidates[start]
/// [indices[m]] (empty VectorMode where there are fewer); from there outwards (start + 1
/// .. end, then start - 1 .. 0) each tracked mode takes the not yet taken candidate of
/// largest mode_overlap with its pick at the neighbouring frequency already done (an
/// empty pick there: by index again). Returns picked[f][m]. For each pick whose overlap
/// is below kModeTrackingOverlap a line "<label>: mode <indices[m]>: overlap <o> with the
/// neighbouring frequency at <f> Hz ..." is appended to `warnings`.
/// `conjugated`: mode_overlap's conjugated form (Bloch windows).
std::vector<std::vector<VectorMode>> track_modes(const std::vector<std::vector<VectorMode>>& candidates,
                                                 const std::vector<int>& indices, std::size_t start,
                                                 const std::vector<double>& frequencies_hz, const std::string& label,
                                                 std::vector<std::string>& warnings, bool conjugated = false);

/// A mode monitor (a 3D `flux` monitor with `kind: "mode"`, spec "Mode sources and
/// monitors"): the DFT sets of the tangential fields on its cross-section and the modes
/// solved at every spectrum frequency.
struct ModeMonitorPlan {
    /// 3: a plane of a 3D project (cs, modes); 2: a line of a 2D project (line_*: the 1D
    /// slab modes of mode_solver.hpp on the line's nodes, set_e[0] / set_h[0] the
    /// tangential pair of the polarization, DFT samples in node order)
    int dims = 3;
    CrossSection cs;
    int sign = 1;                    ///< the monitor's direction along axis_w (+1 / -1): "fwd"
    std::vector<int> mode_indices;   ///< the monitor's `modes` (0 = highest n_eff)
    /// DFT sets (Scene::dft_sets indices) of E_u, E_v (on the plane's E nodes, weight 1) and
    /// H~_u, H~_v (averaged from the h nodes half a cell either side), samples in the mode
    /// solver's node order (mode_component_shape_e/_h of cs.grid, u fastest).
    int set_e[2] = {-1, -1}, set_h[2] = {-1, -1};
    std::vector<double> frequencies_hz;
    /// modes[f][m]: mode mode_indices[m] at frequency f, solved at the Yee scheme's
    /// numerical vacuum wavenumber k0~ = (2 / (c0 dt)) sin(omega dt / 2) (the frequency
    /// the discrete time derivative sees), so that the solved profile is the FDTD grid's
    /// own mode, in the medium cross_section_medium(cs, omega) (the materials' eps at the
    /// physical omega); n_eff 0 (empty fields) where the cross-section has fewer modes.
    std::vector<std::vector<VectorMode>> modes;
    /// Tracking warnings (track_modes: a mode's overlap with its neighbour frequency's
    /// below kModeTrackingOverlap), one line each, naming the monitor; run_project adds
    /// them to the run's warnings.
    std::vector<std::string> warnings;
    /// true: `modes` interpolated from solves at solved_frequencies_hz (run.mode_interpolation
    /// "auto", mode_cache.hpp solve_modes_band); false: solved at every frequency
    bool interpolated = false;
    std::vector<double> solved_frequencies_hz;
    /// The largest solve's peak memory estimate (mode_cache.hpp mode_solve_peak_bytes), for
    /// CompiledProject::memory_bytes; 0 for 2D lines
    std::uint64_t solve_peak_bytes = 0;
    // ---- 2D lines
    double dx_um = 0, dt_s = 0;
    /// flux sign of the line's tangential pair: P = line_flux_sign 0.5/eta0 Re sum E H~* ds
    double line_flux_sign = 1;
    /// [f][m][node]: the mode's tangential E and H~ for propagation along +normal (empty
    /// where the line guides no such mode); line_neff[f][m] (0 there)
    std::vector<std::vector<std::vector<double>>> line_e, line_h;
    std::vector<std::vector<double>> line_neff;
    /// [f][m]: Im n_eff of a bent line's mode (bend_radius: the bend's radiation loss,
    /// referred to the radius |R| as line_neff); 0 for straight lines and missing modes
    std::vector<std::vector<double>> line_neff_imag;
    /// [f][m][node]: the imaginary parts of line_e, line_h where the line spans a Bloch axis
    /// with nonzero k (its modes are complex Bloch modes, mode_solver_bloch.hpp); empty for
    /// every other line. mode_amplitudes then projects onto the conjugated complex mode.
    std::vector<std::vector<std::vector<double>>> line_e_im, line_h_im;
    /// 3D planes: true when the window spans a Bloch axis with nonzero k
    /// (apply_bloch_window; cs.grid.bloch_phase_u/v): its modes are complex Bloch modes and
    /// mode_amplitudes projects onto the conjugated mode, as for 2D Bloch lines.
    bool bloch = false;
};

/// The `modes` member of a mode monitor (a JSON list of mode indices 0..99; default [0])
/// from Monitor::extra. Throws ProjectError (json_path + ".modes[k]").
std::vector<int> parse_mode_list(const Json& extra, const std::string& json_path, const std::string& file_label);

/// Plans a mode monitor of a 3D project: samples the cross-section of `monitor`'s plane
/// (sample_cross_section, the window walls of its `mode_boundary`), solves its modes at every frequency of
/// `spectrum_hz` (solve_modes_2d, max(modes) + 3 candidates (more with a filter), the Yee
/// dispersion above), picks the listed modes by index at the centre frequency
/// (spectrum_hz[n / 2]) and follows them across the spectrum by overlap (track_modes;
/// warnings into ModeMonitorPlan::warnings) -- or, with `run.mode_interpolation` "auto" (the
/// default) and more than 5 frequencies, solves at a few Chebyshev nodes of the band and
/// interpolates (mode_cache.hpp solve_modes_band; solves cached) --, and appends the four DFT sets to
/// scene.dft_sets. The plane is the nearest E node
/// plane; it needs a cell of room on the low side (the H~ average). The monitor's
/// `modes` (JSON list of mode indices, default [0]) is read from Monitor::extra, and its
/// `target_neff` and `filter` (parse_mode_selection; the indices count the filtered modes).
/// Throws ProjectError (json_path) for a bad `modes` list, a plane at the grid's edge, or
/// a build without the 2D mode solver.
ModeMonitorPlan compile_mode_monitor(const Project& project, Scene& scene, const Monitor& monitor,
                                     const std::vector<double>& spectrum_hz, bool reference_run,
                                     const std::string& json_path, const std::string& file_label);

/// A 3D `plane` source with `profile: "mode"` (spec "Mode sources and monitors"): the
/// eigenmode `mode_index` of the plane's cross-section (sample_cross_section, the window
/// walls of its `mode_boundary`;
/// optional `mode_solver: {"num_modes", "target_neff"}` from Source::extra, and its
/// `target_neff` and `filter` (parse_mode_selection; mode_index counts the filtered
/// modes; mode_solver.target_neff wins over target_neff)), solved at the
/// Yee scheme's numerical k0 of the waveform's carrier (medium: cross_section_medium at
/// the carrier's omega), injected one way along
/// `direction` (s = +-1 along the normal) by the TF/SF sheet pair of the one-way plane
/// sources (compile_internal.hpp add_one_way_terms, Taflove & Hagness 3rd ed. sec. 5.6),
/// once per tangential E component: E_u sheet with its H~_v partner and E_v with H~_u,
/// half a cell behind; incident fields e_inc = A e_t (the mode's E at the E node), h_inc =
/// s A h_t (the mode's H~ at the h node: the semi-discrete relation h = Q e / beta holds
/// between an E node and the h node half a cell away on the grid, whose phase is the
/// delay of half a cell at the lattice wavenumber (2/dx) asin(beta dx/2)). A = the
/// source's `amplitude`; with the mode normalized to (1/2) sum (e x h~*)_w dA = 1 um^2
/// the launched mode carries A^2 |F(omega)|^2 1e-12 / eta0 W (F the waveform's DFT).
/// Appends to scene.sources; returns the mode's n_eff. Throws ProjectError (json_path:
/// .direction not along the normal, .mode_index beyond the modes found, the plane without
/// a cell of room behind it, no 2D mode solver in this build).
/// `solve_peak_bytes` (when given) receives the solve's peak memory estimate
/// (mode_cache.hpp mode_solve_peak_bytes); a cross-section beyond the solver's limits is
/// refused before solving (check_mode_solve_limits: ProjectError json_path + ".size").
double add_mode_plane_source(const Project& project, Scene& scene, const Source& source, const CompiledWaveform& wf,
                             bool reference_run, const std::string& json_path, const std::string& file_label,
                             std::uint64_t* solve_peak_bytes = nullptr);

/// Forward / backward amplitudes of one mode at every frequency.
struct ModeAmplitudes {
    int mode_index = 0;
    std::vector<std::complex<double>> fwd, bwd;  ///< [f]
    std::vector<double> n_eff;                   ///< [f]
    /// [f]: Im n_eff (VectorMode::n_eff_imag; 2D lines: ModeMonitorPlan::line_neff_imag); 0 for
    /// lossless modes and straight lines
    std::vector<double> n_eff_imag;
};

/// Mode expansion of the DFT'd fields on a mode monitor's plane (`sets[s]`: the engine's
/// DFT of set_e[0], set_e[1], set_h[0], set_h[1], layout [sample * n_freq + f]). With the
/// mode's fields e, h (power-normalized: (1/2) sum (e x h~*)_w dA = 1, mode_solver2d.hpp)
/// and the FDTD's E, H~ (H~ the average of the two h nodes, which multiplies a discrete
/// mode's H by c = cos(beta_l dx / 2) = sqrt(1 - (beta dx / 2)^2), beta_l the lattice
/// wavenumber (2/dx) asin(beta dx / 2)), the decomposition E_t = (a+ + a-) e_t,
/// H~_t = c (a+ - a-) h_t (the standard forward/backward projection, e.g. Meep's
/// get_eigenmode_coefficients; Snyder & Love, Optical Waveguide Theory, ch. 31) gives
///   a+- = (c J1 +- J2) / (2 c N),  J1 = sum (E x h)_w dA,  J2 = sum (e x H~)_w dA,
///   N = sum (e x h)_w dA (unconjugated: the reciprocity orthogonality, valid for lossy
///   modes too; for a lossless mode e_t, h_t are real and N = 2, the conjugated form),
/// scaled by sqrt(c * 1e-12 / eta0) so that |a|^2 is the mode's power in the units of
/// the flux columns (W per (V/m s)^2, as the flux monitor measures it on the same grid).
/// "fwd" is along the monitor's direction. 2D lines (dims 2): the same projection with
/// the slab mode's tangential pair e, h on the line's nodes, N = sign sum e h ds and
/// a+- = (J1 +- J2 / c) / (2 N) scaled by sqrt(0.5 c N 1e-6 / eta0) (W/m per (V/m s)^2);
/// sets[1], sets[3] unused. A 2D line spanning a Bloch axis with nonzero k (line_e_im,
/// line_h_im set) has complex Bloch modes e = line_e + i line_e_im, h = line_h + i
/// line_h_im, orthogonal under the conjugated (Hermitian) product, so the projection
/// conjugates the mode: J1 = sign dx sum E conj(h), J2 = sign dx sum conj(e) H~,
/// N = sign dx Re sum e conj(h) (e conj(h) is real pointwise for a lossless mode, so
/// J1 = (a+ + a-) N and J2 = c (a+ - a-) N); for real modes this is the formula above.
/// A 3D plane along a Bloch axis (plan.bloch) likewise: J1 = sum (E x h*)_w dA,
/// J2 = sum (e* x H~)_w dA, N = sum (e x h*)_w dA (Re N = 2, the power normalization), so
/// that J1 = (a+ + a-) N, J2 = c (a+ - a-) N* and a+- = (J1 / N +- J2 / (c N*)) / 2 (the
/// backward Bloch mode of the same transverse k has the same e_t and -h_t, the mirror
/// image of the forward one in the w-invariant section). It assumes lossless modes (the
/// Hermitian orthogonality); with absorbing materials on such a plane the amplitudes
/// carry the modes' non-orthogonality, of the order of Im eps / Re eps.
/// Throws std::invalid_argument on size mismatch.
std::vector<ModeAmplitudes> mode_amplitudes(const ModeMonitorPlan& plan,
                                            const std::vector<std::complex<double>>* const sets[4]);

}  // namespace golightly
