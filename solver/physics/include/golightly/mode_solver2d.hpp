// GoLightly: full-vector eigenmodes of a 2D cross-section (the plane of a port in 3D) on
// the Yee grid of the cross-section, for mode sources, mode monitors and ports.
//
// Method (finite differences on the Yee grid; the E-field form of Zhu & Brown, Opt.
// Express 10, 853 (2002) and Fallahkhair, Li & Murphy, J. Lightwave Technol. 26, 1423
// (2008), in the staggered-grid form used by Yee-grid solvers such as Tidy3D's):
// local axes (u, v, w), w the propagation direction, (u, v, w) right-handed. Fields
// ~ exp(i (beta w - omega t)), H~ = eta0 H, k0 = 2 pi / lambda. Maxwell's curl equations
// with d/dw = i beta, after eliminating E_w and H_w
//   E_w = (i / k0) eps_w^-1 (Db_u H_v - Db_v H_u),   H_w = (-i / k0) (Df_u E_v - Df_v E_u),
// give beta e = P h, beta h = Q e for e = [E_u; E_v], h = [H_u; H_v]:
//   P = [ -(1/k0) Df_u eps_w^-1 Db_v          k0 + (1/k0) Df_u eps_w^-1 Db_u ]
//       [ -k0 - (1/k0) Df_v eps_w^-1 Db_v     (1/k0) Df_v eps_w^-1 Db_u      ]
//   Q = [ (1/k0) Db_u Df_v                    -k0 eps_v - (1/k0) Db_u Df_u   ]
//       [ k0 eps_u + (1/k0) Db_v Df_v         -(1/k0) Db_v Df_u              ]
// and the eigenproblem  (P Q) e = beta^2 e  (size 2 N, sparse, real, non-symmetric),
// solved by Spectra's shift-invert Arnoldi (GenEigsRealShiftSolver, SparseLU of
// P Q - sigma I) around sigma = (k0 n_target)^2, n_target = the highest index of the
// cross-section unless given. Df are forward differences (integer nodes -> half nodes),
// Db = -Df^T backward differences (half nodes -> integer nodes).
//
// Yee positions in the cross-section (i along u, j along v; "h" = half node (i + 1/2) du,
// "n" = integer node i du), as in a 3D Yee cell whose w axis is the propagation axis:
//   E_u, H_v: (h, n)   E_v, H_u: (n, h)   E_w: (n, n)   H_w: (h, h)
// The window is [0, N_u du] x [0, N_v du] (N cells per axis). Half nodes: i = 0..N-1.
// Integer nodes depend on the axis boundary: PEC (tangential E = 0 on both walls): i =
// 1..N-1 (N-1 nodes); PMC (tangential H = 0 on both walls): i = 0..N (N+1 nodes);
// periodic: i = 0..N-1 (N nodes, node N = node 0).
// Arrays are indexed j * count_u + i (u fastest), i, j counted from the first node of
// the component's kind on each axis.
#pragma once

#include <array>
#include <complex>
#include <vector>

namespace golightly {

/// Boundary of one axis of a mode cross-section window.
enum class ModeBoundary { pec, pmc, periodic };

/// The cross-section window: N_u x N_v cells of size dx_um (square cells, as the FDTD grid).
struct ModeGrid2D {
    int nu = 0, nv = 0;
    double dx_um = 0;
    ModeBoundary boundary_u = ModeBoundary::pec, boundary_v = ModeBoundary::pec;
    /// Bloch phase k L (rad) of a periodic axis (L = N dx its period): the fields obey
    /// F(node + N) = exp(i phase) F(node) (the Bloch theorem F(x + L) = exp(+i k L) F(x),
    /// time convention exp(-i omega t)): the forward difference across the wrap reads
    /// exp(i phase) times node 0, the backward difference is minus its conjugate transpose,
    /// and a nonzero phase makes the operator complex (the complex shift-invert path, as
    /// for a lossy medium; fields complex). 0 = periodic; must be 0 on PEC and PMC axes
    /// (std::invalid_argument). The 3D compiler sets it on a mode plane that spans a Bloch
    /// axis of k != 0 (mode_plane.hpp apply_bloch_window; mode_cache.cpp's key holds it).
    double bloch_phase_u = 0, bloch_phase_v = 0;
};

/// Field / permittivity component of the cross-section: 0 = u, 1 = v, 2 = w.
/// Number of nodes of component `comp` (0, 1, 2 of E; the H component at the same place
/// has the shape of E's (1 - comp) for comp < 2, see mode_component_shape_h) along u and v.
std::array<int, 2> mode_component_shape_e(const ModeGrid2D& g, int comp);
/// Shape of H_u (comp 0), H_v (1), H_w (2).
std::array<int, 2> mode_component_shape_h(const ModeGrid2D& g, int comp);
/// Position (um, from the window's corner (0, 0)) of node (i, j) of E component comp
/// (h ? H : E). u = (i + first_u + offset) dx, with offset 1/2 on half-node axes.
std::array<double, 2> mode_node_position(const ModeGrid2D& g, int comp, bool h, int i, int j);

/// Relative permittivity of the cross-section at the E positions (eps[d] sampled at E_d's
/// nodes, shapes mode_component_shape_e(g, d)); diagonal tensor (the sub-pixel averaged
/// inverse-tensor diagonal of the FDTD medium), evaluated at the solve frequency
/// (mode_plane.hpp cross_section_medium).
/// eps_imag: the imaginary parts at the same nodes (time convention exp(-i omega t): a
/// lossy medium has Im eps > 0), either all empty (lossless) or each of eps[d]'s size.
/// When max |eps_imag| <= kLosslessImagRatio * max |eps| the medium counts as lossless and
/// the real solver runs; otherwise the complex (non-Hermitian) one.
/// eps_group: d(omega Re eps)/d omega at the same nodes (the energy density factor of a
/// dispersive medium, Landau & Lifshitz, Electrodynamics of Continuous Media, sec. 80),
/// either all empty (non-dispersive: eps itself is used) or each of eps[d]'s size; it
/// enters only n_group.
struct ModeMedium2D {
    std::array<std::vector<double>, 3> eps;
    std::array<std::vector<double>, 3> eps_imag;
    std::array<std::vector<double>, 3> eps_group;
};

/// Below this ratio max |Im eps| / max |eps| a cross-section is solved as lossless (the
/// imaginary parts dropped): the induced n_eff_imag would be below ~1e-12 n_eff.
inline constexpr double kLosslessImagRatio = 1e-12;

/// Options of solve_modes_2d.
struct ModeSolveOptions {
    int num_modes = 1;
    /// Shift of the shift-invert iteration, as an effective index; <= 0: the highest
    /// sqrt(Re eps) of the medium. Modes closest to the target are found; for plasmonic
    /// cross-sections (Re eps < 0 somewhere) give a target near the expected n_eff
    /// (e.g. the surface plasmon's Re sqrt(eps_m eps_d / (eps_m + eps_d))).
    /// Bent guides (bend_radius_um != 0) without a target are continued from the straight
    /// guide: the straight cross-section is solved first (without PML), the bend near the
    /// straight fundamental's n_eff (and near the first unmatched straight mode's, at most
    /// three solves), and bent mode k is the one whose transverse E overlaps
    /// straight mode k most (above 0.5), the unmatched ones following by Re n_eff.
    double target_neff = 0;
    /// Bend radius (um) of a bent waveguide; 0 = straight. The cross-section is the plane
    /// phi = const of a bend about an axis normal to bend_axis and to w; the bend is solved as
    /// the equivalent straight guide of the exact coordinate transformation (Shyroki, IEEE
    /// Trans. Microw. Theory Tech. 56, 414 (2008); the full-vector form of Heiblum & Harris,
    /// IEEE J. Quantum Electron. 11, 75 (1975), whose scalar conformal map gives
    /// eps'(x) = eps(x) (1 + x/R)^2; Tidy3D's and Lumerical MODE's bend modes use the same
    /// transformation): with x = (coordinate along bend_axis) - bend_reference_um and the
    /// metric factor h(x) = 1 + x / R (the arc length along the bend at x per unit arc length
    /// on the reference line),
    ///   eps'_t = eps_t h,  eps'_w = eps_w / h,  mu'_t = h,  mu'_w = 1 / h   (t = u, v),
    /// each evaluated at its own Yee node. Signed: R > 0 puts the centre of curvature at
    /// x = -R (on the -bend_axis side: the outer side of the bend is +bend_axis), R < 0 at
    /// x = +|R|. beta (and n_eff = Re beta / k0) are referred to the reference line: beta |R|
    /// is the angular propagation constant (exp(i beta |R| phi)); Im beta > 0 is the bend's
    /// radiation loss when the window has PML (pml_cells) on its outer side. The returned
    /// transverse fields are the physical ones; E_w, H_w are divided by h (physical).
    /// Throws std::invalid_argument when h <= 0 somewhere in the window (the centre of
    /// curvature inside it) or bend_axis is not 0 or 1.
    double bend_radius_um = 0;
    /// Cross-section axis (0 = u, 1 = v) along which the centre of curvature lies.
    int bend_axis = 0;
    /// Coordinate (um, from the window's corner, along bend_axis) of the reference line at
    /// radius |R| from the centre of curvature (normally the waveguide's centre).
    double bend_reference_um = 0;
    /// Perfectly matched layers inside the window: pml_cells[a] cells at both ends of axis a
    /// (0 = u, 1 = v), 0 = none. Complex coordinate stretching s(d) = 1 + i sigma_max
    /// (d / L)^3 (d: depth into the layer, L = pml_cells dx; Berenger / Chew & Weedon, with
    /// exp(-i omega t)), applied as the equivalent anisotropic eps and mu (uniaxial PML:
    /// eps'_a = eps_a s_u s_v s_w / s_a^2, mu' likewise), sigma_max from a normal-incidence
    /// reflection 1e-8 in vacuum: sigma_max = 4 ln(1e8) / (2 k0 L). Makes the problem
    /// complex (the lossy path). Throws std::invalid_argument when 2 pml_cells[a] >= the
    /// axis' cell count.
    std::array<int, 2> pml_cells{0, 0};
};

/// One full-vector mode of a cross-section.
struct VectorMode {
    double beta_per_um = 0;  ///< propagation constant (1/um) of the semi-discrete problem: Re beta
    double n_eff = 0;        ///< Re beta / k0
    /// Im beta / k0 (>= 0 for a mode decaying along +w, exp(i (beta w - omega t)); 0 on the
    /// lossless path)
    double n_eff_imag = 0;
    /// Power loss along the propagation direction in dB/cm: 20 log10(e) Im beta, Im beta in
    /// 1/cm (= 10 log10(e) * 2 Im beta: the power decays as exp(-2 Im beta w)).
    double loss_db_per_cm = 0;
    /// Bent guides (ModeSolveOptions::bend_radius_um != 0): the power loss per 90 degrees of
    /// bend in dB, 20 log10(e) Im beta (pi |R| / 2) (beta referred to the radius R); 0 when
    /// straight.
    double loss_db_per_90deg = 0;
    /// Bent guides: whether the window resolves the bend's radiation loss: it has PML on the
    /// outer side of the bend, and the equivalent straight guide's local index sqrt|eps| h
    /// at that layer's inner edge reaches n_eff (the radiation caustic, x_c = |R| (n_eff /
    /// n_clad - 1) from the reference line for a uniform cladding n_clad, lies inside the
    /// window). When false the PML sits in the evanescent tail: n_eff holds, but Im n_eff
    /// and the losses are not the bend's (they may even come out negative); widen the
    /// window on the outer side past the caustic. True for straight guides.
    bool bend_loss_resolved = true;
    /// Bent guides with PML on the outer side: the distance (um) from the reference line to
    /// that layer's inner edge; 0 otherwise.
    double outer_window_um = 0;
    /// Group index c / v_g = (1/2) sum (eps_g |E|^2 + |H~|^2) dA / Re sum (E x H~*)_w dA,
    /// eps_g = d(omega eps)/d omega (ModeMedium2D::eps_group; eps without material
    /// dispersion) (energy velocity = group velocity of a lossless guide; the discrete
    /// sums are the ones of the semi-discrete operator, so this agrees with n_eff -
    /// lambda d n_eff / d lambda of the same grid; tested).
    double n_group = 0;
    /// sum |E_u|^2 / sum (|E_u|^2 + |E_v|^2): 1 for a mode polarized along u ("TE" when u
    /// is the wafer plane's in-plane axis), 0 along v.
    double te_fraction = 0;
    /// Windows with PML (ModeSolveOptions::pml_cells): the share of the electric energy
    /// sum |eps| |E|^2 on nodes inside the layers; 0 without PML. solve_modes_2d drops the
    /// modes above kMaxPmlEnergyFraction: they are modes of the absorber (complex n_eff of
    /// any sign, often above the guide's), not of the waveguide; a radiating bend mode
    /// decays into its layer and keeps a small share in a window wide enough for it.
    double pml_energy_fraction = 0;
    /// Fields at their Yee nodes (shapes mode_component_shape_e / _h), E in arbitrary
    /// units and H~ = eta0 H in the same units, normalized so that the mode's power
    /// (1/2) Re sum_nodes (E_u H~_v* - E_v H~_u*) dx^2 = 1 (products taken at the shared
    /// nodes: E_u with H_v at (h, n), E_v with H_u at (n, h)), and phased so that the
    /// largest transverse E entry is real positive. Lossless path: E_u, E_v, H_u, H_v are
    /// real; E_w, H_w are imaginary (90 degrees ahead) for exp(i (beta w - omega t)).
    /// Lossy path: all components complex (H = Q e / beta with complex beta).
    std::array<std::vector<std::complex<double>>, 3> e, h;
};

/// solve_modes_2d drops modes with more than this share of their electric energy inside the
/// window's PML (VectorMode::pml_energy_fraction); when that leaves none it solves once more
/// asking for twice as many more as it dropped, at most kPmlSpareModes (so a higher mode
/// index may find fewer modes than asked where the PML's modes crowd the target).
inline constexpr double kMaxPmlEnergyFraction = 0.5;
inline constexpr int kPmlSpareModes = 8;

/// Whether this build has the sparse eigen-solver (Spectra); without it solve_modes_2d
/// throws std::runtime_error.
bool have_mode_solver_2d();

/// Full-vector modes of the cross-section (method in this header's comment), in order of
/// decreasing n_eff (index 0 = the fundamental, closest below the target). Returns at
/// most options.num_modes modes with Re beta^2 > 0 (evanescent solutions dropped; with PML,
/// modes of the absorbing layers dropped too: VectorMode::pml_energy_fraction).
/// Lossless media (ModeMedium2D::eps_imag empty or negligible): real P Q, Spectra's
/// real shift-invert Arnoldi. Lossy media: complex P Q (eps complex), a shift-invert
/// Arnoldi with explicit restarts on Eigen's complex SparseLU of P Q - sigma I
/// (Saad, Numerical Methods for Large Eigenvalue Problems, 2nd ed., sec. 6.2 and 7.2),
/// beta = the principal sqrt of the eigenvalue (Im beta >= 0 for Im eps >= 0).
/// n_group uses ModeMedium2D::eps_group where given (material dispersion included), else
/// Re eps; it is the group index of lossless guides (for lossy ones, the energy velocity).
/// Cost: one sparse LU of a 2N x 2N matrix (N = N_u N_v) plus Arnoldi iterations.
/// Throws std::invalid_argument for an empty grid, dx <= 0, wavelength <= 0, eps arrays
/// (or eps_imag arrays neither empty nor of eps's size) or num_modes < 1;
/// std::runtime_error when the eigen-solver fails to converge or the build has no Spectra.
std::vector<VectorMode> solve_modes_2d(const ModeGrid2D& grid, const ModeMedium2D& medium, double wavelength_um,
                                       const ModeSolveOptions& options);

}  // namespace golightly
