// GoLightly compiled scene: everything an engine needs to step one 2D Yee grid, with
// no reference to the project file. Built by compile_scene() (run.hpp) from a Project;
// tests may also build one by hand.
//
// ----------------------------------------------------------------------------------
// Grid and index order
//   nx * ny Yee cells in total, PML cells included. Every field array is row-major with
//   x fastest: flat index = j * nx + i, i in [0, nx), j in [0, ny).
//   Positions in index units (multiply by dx; physical x_um = (pos - pml_lo[0]) * dx_um):
//     TMz:  Ez (i, j)       Hx (i, j+1/2)     Hy (i+1/2, j)
//     TEz:  Hz (i+1/2, j+1/2)   Ex (i+1/2, j)   Ey (i, j+1/2)
//   "e positions" along an axis are the integer ones, "h positions" the half-integer ones.
//
// Normalized fields: E in V/m and H~ = eta0 * H (V/m). With the Courant number
// S = c0 * dt / dx the updates are (Taflove & Hagness 3rd ed. eqs. 3.xx with CPML of
// Roden & Gedney, Microw. Opt. Tech. Lett. 27, 334 (2000), eqs. 7-8):
//   TMz
//     Hx(i,j) -= S * [ (Ez(i,j+1) - Ez(i,j)) * inv_kappa_h_y[j] + psi_hx_y ]
//     Hy(i,j) += S * [ (Ez(i+1,j) - Ez(i,j)) * inv_kappa_h_x[i] + psi_hy_x ]
//     Ez(i,j)  = ca * Ez + cb * [ (Hy(i,j) - Hy(i-1,j)) * inv_kappa_e_x[i] + psi_ez_x
//                               - (Hx(i,j) - Hx(i,j-1)) * inv_kappa_e_y[j] - psi_ez_y ]
//   TEz
//     Hz(i,j) -= S * [ (Ey(i+1,j) - Ey(i,j)) * inv_kappa_h_x[i] + psi_hz_x
//                    - (Ex(i,j+1) - Ex(i,j)) * inv_kappa_h_y[j] - psi_hz_y ]
//     Ex(i,j)  = ca * Ex + cb * [ (Hz(i,j) - Hz(i,j-1)) * inv_kappa_e_y[j] + psi_ex_y ]
//     Ey(i,j)  = ca * Ey - cb * [ (Hz(i,j) - Hz(i-1,j)) * inv_kappa_e_x[i] + psi_ey_x ]
//   each psi is updated before use from the same difference D it corrects:
//     psi = b[pos] * psi + c[pos] * D      (b, c of the axis of the derivative and the
//                                           position kind, e or h, of the updated field)
//   psi exists only inside the PML slabs: positions [0, pml_lo) and [n - pml_hi, n)
//   along that axis; outside them b = c = 0 and inv_kappa = 1, so the plain update holds.
//   ca, cb come from the coefficient table (material_index, below) and include S/eps_r
//   and the conductivity: cb = (S/eps_r) / (1 + sigma dt / (2 eps0 eps_r)),
//   ca = (1 - sigma dt / (2 eps0 eps_r)) / (1 + sigma dt / (2 eps0 eps_r)).
//
// Outer boundary per axis (fields beyond the array are zero unless said otherwise):
//   pml      the PML slabs above, terminated by the zero fields beyond the array.
//   periodic the index wraps: the neighbour of i = nx-1 is i = 0 and of i = 0 is nx-1
//            (period nx cells); same along y.
//   pec      walls at e positions 0 and n: the tangential E on the e position 0 (TMz: Ez
//            on i = 0 for x; TEz: Ey on i = 0 for x, Ex on j = 0 for y) is held at 0, and
//            the zero beyond the array is the wall at n.
//   pmc      walls at h positions -1/2 and n-1/2: the tangential H at h position n-1/2
//            (TMz: Hy on i = nx-1, Hx on j = ny-1; TEz: Hz on i = nx-1 / j = ny-1) is held
//            at 0, and the zero beyond the array is the wall at -1/2.
//   mur      first-order Mur (Mur 1981) on the tangential E of the outermost e positions:
//            E(0)^{n+1} = E(1)^n + (S-1)/(S+1) * (E(1)^{n+1} - E(0)^n), likewise at n-1.
//            Applied to the x walls first (every j), then to the y walls (every i), each
//            reading the E^{n+1} values present at that moment (so at a corner the y wall
//            uses the x-wall value of its neighbour).
//
// Bloch-periodic axes and complex fields (Scene::bloch_phase, Scene::complex_fields)
//   An axis a whose boundary is periodic may carry a Bloch phase phi_a = k_a * L_a (rad;
//   k_a the Bloch wavenumber along a, L_a = n_a * dx the period): the fields then obey
//   F(p + n_a e_a) = exp(+i phi_a) F(p), the Bloch theorem in the time convention
//   exp(-i w t) of this file (as Meep's k_point; a wave exp(i (k.r - w t)) travels along
//   +k). Such fields are complex. With complex_fields set the engine steps two real
//   copies, F = F_re + i F_im, each with the real update above (the same coefficients,
//   CPML, dispersion, walls); they couple only where an update reads across the wrap of a
//   Bloch axis: the neighbour beyond the upper end is
//     re: cos(phi) F_re(0) - sin(phi) F_im(0),   im: sin(phi) F_re(0) + cos(phi) F_im(0)
//   and the one beyond the lower end (n - 1 read from 0: the phase exp(-i phi))
//     re: cos(phi) F_re(n-1) + sin(phi) F_im(n-1),   im: -sin(phi) F_re(n-1) + cos(phi) F_im(n-1).
//   With phi = 0 the copies never mix. Both copies take the step below in lock-step (all
//   H of both, then all E of both), so every wrapped read sees the other copy at the same
//   time level. A source term adds weights * value to F_re and weights_im * value to
//   F_im (SourceTerm). DFT sets accumulate X_re + i X_im (the DFT of each copy as below),
//   so downstream formulas on complex amplitudes (flux Re(E x conj H), mode overlaps, far
//   fields) hold unchanged; time probes, frames, get_field / set_field and sample_field
//   see F_re; field_energy counts both copies (|F|^2). complex_fields without any Bloch
//   phase gives F_im = 0 when every weights_im is empty: the real run, at twice the cost.
//   The CPU engines refuse (RunError) a Bloch phase on an axis that is not periodic, a
//   nonzero phase without complex_fields, imaginary source weights in a real run, and, in
//   a complex run with a Bloch phase, TF/SF sources and sub-pixel tensor sites on the
//   wrapped edge of a Bloch axis (engine/cpu/cpu_bloch.hpp). Split steps refuse complex
//   fields; distributed and MPI runs exchange both copies' halos (FieldStorage), rotating
//   those across the wrap of a Bloch cut axis (partition.hpp HaloTransfer::phase; CPU only).
//
// One time step, n -> n+1 (t_n = n * dt), in this order:
//   1. H update from E^n; then the H sources at t = n*dt; then pmc zeroing.
//   2. E update from H^{n+1/2}; then the E sources at t = (n+1/2)*dt; then pec zeroing
//      and Mur.
//   3. DFT sets accumulate: E components sampled at t = (n+1)*dt, H components at
//      t = (n+1/2)*dt. Time probes record one value per step at those same times.
//   A source adds F[cell] += weight * waveform.value(t - delay_s).
//
// Dispersive cells (Scene::dispersive, Scene::pole_sets; empty for non-dispersive scenes)
//   Medium eps(w) = eps_inf + i sigma/(eps0 w) + sum_m wp_m^2 / (w0_m^2 - w^2 - i w g_m)
//   (B-CALM, Wahl et al., PIER 138 (2013), eq. 1; time convention exp(-i w t)).
//   D-formulation with the polarizations P_m (units of E: P_m / eps0) at integer steps, as
//   in Meep (Oskooi et al., Comput. Phys. Commun. 181, 687 (2010)) and Taflove & Hagness
//   3rd ed. sec. 9.4: the pole ODE  P'' + g P' + w0^2 P = wp^2 E  in central differences
//   at step n gives
//     P_m^{n+1} = c1 P_m^n + c2 P_m^{n-1} + c3 E^n,
//     c1 = (2 - w0^2 dt^2) / (1 + g dt/2),  c2 = -(1 - g dt/2) / (1 + g dt/2),
//     c3 = wp^2 dt^2 / (1 + g dt/2)                         (PoleCoeffs, per pole set),
//   and D = eps_inf E + sum P with eps0 dD/dt = curl H - sigma E (sigma semi-implicit):
//     E^{n+1} = [ (eps_inf - s/2) E^n + S curl H~^{n+1/2} - sum_m (P_m^{n+1} - P_m^n) ]
//               / (eps_inf + s/2),      s = sigma dt / eps0.
//   The material-table entry of a dispersive cell is the ordinary one of (eps_inf, sigma),
//   so the ordinary E update gives the first two terms exactly; an engine runs it over the
//   whole grid and then, for each listed cell k of E component c (cell = cells[k]):
//     E^n   = the value of E at the cell before this step's E update (after the previous
//             step's sources, pec zeroing and Mur);
//     dP    = sum_m [ P~_m^{n+1} - P~_m^n ],  P~_m^{n+1} = c1 P~_m^n + c2 P~_m^{n-1} + c3 E^n
//             over the poles of pole_sets[pole_set[k]];
//     E[cell] = E_ordinary[cell] - weight[k] * (cb / S) * dP
//   (the engines step the pole recursion in the difference form given at PoleCoeffs).
//   with cb the cell's table coefficient (cb / S = 1 / (eps_inf + s/2)). P~ = P / weight is
//   the polarization of the pure material: a cell cut by one dispersive material has the
//   weight w of run.subpixel_metal (the covered fraction f for a component tangential to
//   the surface, 0 or 1 for the normal one under the default "tangential"; its
//   susceptibility is w chi(w), i.e. each wp^2 weighted by w); a cell mixing several
//   dispersive materials gets a pole set of the union of their poles with c3 scaled by
//   each material's w, and weight 1. P~ starts at 0.
//   This E correction is part of step 2, before the E sources, pec zeroing and Mur.
//   The discrete susceptibility is exactly
//     chi_d(w) = wp^2 / (w0^2 - W^2 - i g W'),  W = (2/dt) sin(w dt/2), W' = sin(w dt)/dt
//   (dispersion.hpp: discrete_epsilon), i.e. chi(w) + O((w dt)^2).
//   Stability: per pole |c1| < 1 - c2 (w0 dt < 2); with the grid, see dispersion.hpp.
//
// Anisotropic cells (TEz in 2D, every 3D scene; Scene::anisotropic, empty otherwise)
//   Sub-pixel averaging gives each E site the inverse permittivity tensor of Farjadpour et
//   al., Opt. Lett. 31, 2972 (2006), eq. 1. Its diagonal entry is the site's table entry
//   (eps_r = 1 / (eps^-1)_dd); the off-diagonal entry couples Ex and Ey through D (units of
//   E: D~ = D / eps0, so E = eps^-1 D~), discretized as in Meep (Oskooi et al., Opt. Lett.
//   34, 2778 (2009)) with the four nearest sites of the other component, symmetrized:
//     Ex(p) = ixx(p) Dx(p) + sum_q K(p,q) Dy(q),  Ey(q) = iyy(q) Dy(q) + sum_p K(p,q) Dx(p),
//     K(p,q) = s_pq (ixy(p) + ixy(q)) / 8   (q one of the 4 nearest other-component sites
//   of p, ixy the off-diagonal entry at each site; K = 0 when p or q is not eligible, see
//   below; s_pq in (0, 1] a damping that only acts where the row sum of |K| would exceed
//   0.95 of the diagonal, top of compile_project.cpp). K is symmetric and diagonally
//   dominant, so E = K D~ is positive definite and the leapfrog conserves a discrete
//   energy; for smoothly varying tensors K's spectrum stays within that of the local
//   tensors (eigenvalues <1/eps> and 1/<eps>, <= 1 for eps >= 1), so the Courant limit is
//   the usual one (tested: 2e4 steps at S = 0.5, eps 12). The quadratic form D~.K D~
//   equals that of Meep's unsymmetric avg4 form, so accuracy is the same to first order.
//   Listed sites (AnisotropicCells) are those with any nonzero K; their neighbours through
//   K are listed too. Since K is constant, E^{n+1} - E^n = K (D~^{n+1} - D~^n), so no D~
//   is stored; the ordinary update (ca = 1, cb = S ixx) gives E_ord = E^n + ixx dDx, and
//   at the END of step 2 (after the E sources, pec zeroing and Mur) an engine applies,
//   for each component c in {Ex, Ey} and each listed site k (cell = cells[c][k]):
//     dE[c][k]  = E[cell] - E^n[cell]      (E^n: the value at the start of step 2, i.e.
//                                           after the previous step; saved by the engine)
//   then, once every dE is known (both components),
//     E[cell]  += sum_{m<4, nb = neighbour[c][4k+m] >= 0} weight[c][4k+m] * dE[1-c][nb]
//   In 3D all three components are coupled, pairwise as above: the Ex-Ey pair through the
//   xy entries, Ex-Ez through xz, Ey-Ez through yz, each pair's four nearest sites (for
//   Ex(i,j,k) and Ez: Ez(i,j,k-1), Ez(i+1,j,k-1), Ez(i,j,k), Ez(i+1,j,k)); every listed
//   site has 8 slots, 4 per other component (AnisotropicCells), and
//     E[cell]  += sum_{s<8, nb = neighbour[c][8k+s] >= 0} weight[c][8k+s] * dE[partner(c, s/4)][nb]
//   with the same eligibility and damping (compile_internal.hpp build_tensor_couplings).
//   with weight = K(p,q) * eps_r(q) (the table eps_r of the neighbour, so that
//   eps_r(q) dE = dD~(q)). A source on a listed site thus injects D~ = eps_r * its E
//   increment. Listed sites lie outside the PML slabs, off the outermost lines of
//   non-periodic axes (so pec and Mur never touch them), and are neither dispersive nor
//   conductive (those cells keep the diagonal entry only).
//
// 3D scenes (dimensions = 3)
//   nx * ny * nz cells, all six components, flat index (k * ny + j) * nx + i (x fastest,
//   then y, then z), stored as 64-bit CellIndex in the sparse lists below (2D and 3D; the
//   CUDA engine re-indexes them to int32 on upload and refuses more than 2^31 - 1 cells).
//   Yee positions (grid.hpp yee_offset):
//     Ex (i+1/2, j, k)  Ey (i, j+1/2, k)  Ez (i, j, k+1/2)
//     Hx (i, j+1/2, k+1/2)  Hy (i+1/2, j, k+1/2)  Hz (i+1/2, j+1/2, k)
//   so with nz = 1 and z periodic the updates reduce to TMz (Ez, Hx, Hy) and TEz (Hz, Ex,
//   Ey) at once. Updates (Taflove & Hagness 3rd ed. eqs. 3.19-3.20, normalized as above,
//   d_a f = f(.. +1 along a) - f(..) for H, f(..) - f(.. -1 along a) for E, each divided
//   by the kappa of its axis and corrected by its CPML psi exactly as in 2D):
//     Hx -= S [ d_y Ez - d_z Ey ]    Hy -= S [ d_z Ex - d_x Ez ]    Hz -= S [ d_x Ey - d_y Ex ]
//     Ex = ca Ex + cb [ d_y Hz - d_z Hy ]   Ey = ca Ey + cb [ d_z Hx - d_x Hz ]
//     Ez = ca Ez + cb [ d_x Hy - d_y Hx ]
//   material_index[c] holds all three E maps (nx*ny*nz each); the dispersive cells of each
//   E component follow the 2D formulation unchanged; sub-pixel averaging gives each E
//   component the diagonal entry of the Farjadpour tensor in the table and the off-diagonal
//   entries as the couplings of `anisotropic` ("Anisotropic cells", 8 slots per site). The
//   outer boundary kinds apply per axis as in 2D, to the components tangential to each
//   face (pec: Ey, Ez on i = 0 for x, Ex, Ez on j = 0, Ex, Ey on k = 0; pmc: Hy, Hz on
//   i = nx-1, Hx, Hz on j = ny-1, Hx, Hy on k = nz-1); cpml[2] is the z profile. mur: the
//   2D formula on both tangential E components of each face, E(0)^{n+1} = E(1)^n +
//   (S-1)/(S+1) (E(1)^{n+1} - E(0)^n) on the e plane 0 of the axis (likewise n-1 with
//   n-2), applied after the PEC zeroing, the x faces first, then y, then z, each reading
//   the E^{n+1} values present at that moment (Mur 1981 is itself 3D; first order, so
//   normal incidence only is absorbed well). The step order, sources, DFT sets and time probes are
//   those of 2D with 3D flat indices. field_energy() is then in J (a volume integral,
//   dx^3). frame() and sample_field() show the plane FrameSlice (FrameSource::set_frame_slice)
//   with the plane's first in-plane axis (x for xy and xz, y for yz) as image columns.
//
// TF/SF (Scene::tfsf, 2D and 3D; Taflove & Hagness 3rd ed. sec. 5.8-5.10; Schneider,
// "Understanding the FDTD method", sec. 3.10-3.12, 5.9, 9.4)
//   A 1D auxiliary grid along `axis` carries E_inc and H~_inc with the main grid's S,
//   stepped in lock-step with the main grid (its E and H at the same times as the main
//   grid's), fed at its start by the waveform, terminated at its far end by a matched
//   absorber. On every face of the total-field box the engine adds the incident field to
//   the update of each tangential field component whose curl stencil straddles the face
//   (H just outside, E on the face), so the field inside is total and outside scattered.
//   The incident field is zero at the start; in an empty domain the field outside the box
//   stays below 1e-4 of the incident power.
//   Exact convention (CPU engine, engine/cpu/cpu_tfsf.hpp):
//   - Regions: a node of any component is total-field when its Yee position p (index
//     units, grid.hpp yee_offset) has lo[a] <= p[a] <= hi[a] on every axis a (2D: x, y);
//     so E tangential to a face lies on it and is total, the H half a cell outside is
//     scattered. An axis that is periodic and spanned completely (lo <= 0, hi >= n-1) is
//     no boundary (a plane wave in a periodic cell); not allowed for `axis`.
//   - Corrections: for each update of F at node q whose difference along d reads G at node
//     q' with q, q' on different sides: F += coef * s_d * c' * (q total ? +1 : -1) *
//     G_inc(q'), coef = S (H) or the cell's cb (E), s_d the sign of the d term of F (the
//     update equations above), c' = +1 / -1 for the upper / lower node of the difference.
//     Only E_inc along e_component and H~_inc along the third axis are nonzero. They are
//     added after the H sources (H, with E_inc^n) and after the E sources (E, with
//     H_inc^{n+1/2}), before the PMC / PEC zeroing.
//   - Incident line: E_inc(p) at axis positions p, H~_inc(p + 1/2), updated as the main
//     grid's fields that vary along `axis` only (same S, signs, and the ca, cb of
//     e_component's table entry at the box's lo corner: the background), so its dispersion
//     is the grid's on axis and the fields cancel outside the box to rounding (~1e-31 of
//     the incident energy in float64, ~1e-14 in float32). The injection node is 3 cells
//     before the box (p = lo[axis] - 3 for sign +1, hi[axis] + 3 for sign -1), held at
//     E_inc = waveform.value(t - delay_s) at t = (n+1) dt; the line runs 3 cells past the
//     box into a 48-cell matched absorber (equal electric and magnetic loss, cubic grading)
//     ended by E = 0. The plane wave reaches the box face after ~3 dx / c.
//   - Requirements: the box with one cell of margin lies inside the grid and outside the
//     PML slabs on every axis that is not spanned periodically; e_component is an E
//     component normal to `axis` present in the (2D) polarization. Engines throw RunError
//     naming tfsf[k] otherwise. The CUDA engine refuses TF/SF (RunError: CPU backend).
// ----------------------------------------------------------------------------------
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "golightly/grid.hpp"
#include "golightly/types.hpp"
#include "golightly/units.hpp"

namespace golightly {

/// E-update coefficients of one material-table entry (see the header comment).
struct EUpdateCoeffs {
    double ca = 1.0;     ///< E^n multiplier (1 for lossless)
    double cb = 0.5;     ///< curl multiplier: (S / eps_r) / (1 + sigma dt / (2 eps0 eps_r))
    double eps_r = 1.0;  ///< the averaged relative permittivity (energy, frames)
    double sigma = 0.0;  ///< conductivity, S/m
};

/// CPML profile along one axis (Roden & Gedney 2000). Arrays of length n (cells along
/// the axis): index i holds the value at e position i and at h position i+1/2.
struct CpmlAxis {
    std::vector<double> b_e, c_e, inv_kappa_e;
    std::vector<double> b_h, c_h, inv_kappa_h;
};

/// Time dependence of a source: value(t) with t in seconds.
/// gaussian_pulse: amplitude * exp(-((t - t0)/tau)^2 / 2) * cos(omega * (t - t0) + phase)
/// cw:             amplitude * ramp(t) * sin(omega * t + phase), ramp a smooth 0 -> 1
///                 turn-on over ramp_s (raised cosine).
struct CompiledWaveform {
    WaveformType type = WaveformType::GaussianPulse;
    double omega = 0;      ///< carrier angular frequency, rad/s
    double t0_s = 0;       ///< pulse centre, s
    double tau_s = 0;      ///< pulse 1/e^(1/2) half-width, s
    double ramp_s = 0;     ///< cw turn-on time, s
    double amplitude = 1;
    double phase_rad = 0;
    /// Time after which the source is off (pulse: t0 + 6 tau; cw: never, +inf).
    double end_time_s() const {
        return type == WaveformType::GaussianPulse ? t0_s + 6.0 * tau_s : INFINITY;
    }
    double value(double t) const {
        if (type == WaveformType::GaussianPulse) {
            const double u = (t - t0_s) / tau_s;
            if (std::abs(u) > 12.0) return 0.0;
            return amplitude * std::exp(-0.5 * u * u) * std::cos(omega * (t - t0_s) + phase_rad);
        }
        if (t <= 0) return 0.0;
        const double r = (t >= ramp_s || ramp_s <= 0) ? 1.0
                                                       : 0.5 * (1.0 - std::cos(units::pi * t / ramp_s));
        return amplitude * r * std::sin(omega * t + phase_rad);
    }
};

/// A source as the engine applies it: F[cells[k]] += weights[k] * waveform.value(t - delay_s)
/// on one component. Electric currents act on E components, magnetic currents on H.
struct SourceTerm {
    Component component = Component::Ez;
    std::vector<CellIndex> cells;     ///< flat indices j*nx+i
    std::vector<double> weights;      ///< same length as cells
    CompiledWaveform waveform;
    double delay_s = 0;
    /// The project source this term comes from (index into Project::sources), for
    /// messages; -1 where none (tests, synthetic scenes).
    int origin = -1;
    /// Imaginary parts of the weights (header comment "Bloch-periodic axes"): in a complex
    /// run F_im[cells[k]] += weights_im[k] * value. Empty: a real source (0). Same length
    /// as cells otherwise; engines of real runs refuse a nonempty one.
    std::vector<double> weights_im;
};

/// A set of DFT samples of one component. Sample k is
///   w0[k] * F[cell0[k]] + (cell1[k] >= 0 ? w1[k] * F[cell1[k]] : 0)
/// (two cells so H can be averaged onto E positions). The engine accumulates, for each
/// sample k and frequency f of `frequencies_hz`,
///   X[k][f] = sum_n sample_k(t_n) * exp(+i 2 pi f t_n) * dt        (V/m * s)
/// with t_n the sample time of the component (step order above).
struct DftSet {
    Component component = Component::Ez;
    std::vector<CellIndex> cell0, cell1;
    std::vector<double> w0, w1;
    std::vector<double> frequencies_hz;
};

/// A time probe: one value per step from the weighted cells of one component:
///   value: sum w F;  mean: sum w F / sum w;  rms: sqrt(sum w F^2 / sum w);
///   sum_squares: sum w F^2.
struct TimeProbe {
    Component component = Component::Ez;
    std::vector<CellIndex> cells;
    std::vector<double> weights;
    Reduce reduce = Reduce::Value;
};

/// ADE coefficients of one pole (header comment: P^{n+1} = c1 P^n + c2 P^{n-1} + c3 E^n).
struct PoleCoeffs {
    double c1 = 2.0, c2 = -1.0, c3 = 0.0;
    /// The pole's share of the polarization (dimensionless; 1 and 0 for every Lorentz or
    /// Drude pole of a material): P^{n+1} = m0 P~^{n+1} + m1 (P~^{n+1} - P~^n), so that
    /// dP = m0 d^{n+1} + m1 (d^{n+1} - d^n). m1 != 0 realizes a numerator linear in
    /// s = -i w, (b0 + b1 s) / (s^2 + g s + w0^2): the generalized poles of a metal's cut
    /// cell under run.subpixel_metal "conformal" (conformal_metal.hpp, which derives m0 and
    /// m1 and the cell's eps_inf shift that make the discrete response
    /// (b0 + b1 s_d) / (w0^2 - W^2 + g s_d), s_d = -i sin(w dt) / dt, second order).
    double m0 = 1.0, m1 = 0.0;
};

/// Whether a pole has the plain numerator (m0 = 1, m1 = 0): the engines add its d^{n+1}
/// to dP as is, and only generalized poles pay for the m0 / m1 terms.
inline bool plain_pole(const PoleCoeffs& c) { return c.m0 == 1.0 && c.m1 == 0.0; }

// The engines step the same recursion in difference form: with d^n = P^n - P^{n-1},
//   d^{n+1} = d^n - kd d^n + kr P^n + c3 E^n,   P^{n+1} = P^n + d^{n+1},
//   kd = 1 + c2 = g dt / (1 + g dt/2)           (pole_damping),
//   kr = c1 + c2 - 1 = -w0^2 dt^2 / (1 + g dt/2) (pole_restoring; 0 for a Drude pole),
// algebraically identical. Why: in float32, c1 ~ 2 and c2 ~ -1 keep the small quantities
// g dt and w0^2 dt^2 only to ulp(2) = 2.4e-7. A Drude pole's root z = 1 of
// z^2 - c1 z - c2 then moves to 1 - (1 - c1 - c2) / (2 - c1), i.e. by up to 1.2e-7 / (g dt)
// per step (B-CALM's gold at 1 nm cells: g dt = 1.3e-4, so up to 9e-4 per step): the run
// grows without bound or the pole's DC response is damped, depending on how c1 and c2
// happen to round; and a Lorentz pole with w0 dt ~ 1e-3 gets its w0^2 dt^2 ~ 1e-6 wrong by
// up to 10 %. kd and kr stored in float32 keep their own relative precision (6e-8).

/// kd = 1 + c2 = g dt / (1 + g dt/2) of a pole (dimensionless): the difference form above.
inline double pole_damping(const PoleCoeffs& c) { return 1.0 + c.c2; }
/// kr = c1 + c2 - 1 = -w0^2 dt^2 / (1 + g dt/2) of a pole (dimensionless; exactly 0 for a
/// Drude pole, whose c1 + c2 - 1 is 0 up to double rounding): the difference form above.
inline double pole_restoring(const PoleCoeffs& c) {
    const double kr = c.c1 + c.c2 - 1.0;
    return std::abs(kr) <= 8.0 * 2.220446049250313e-16 * std::abs(c.c1) ? 0.0 : kr;
}

/// The poles of one dispersive medium (or mixture), any count.
struct PoleSet {
    std::vector<PoleCoeffs> poles;
};

/// The Drude poles of a set (pole_restoring 0: their P~ does not enter the update).
inline int drude_poles(const PoleSet& ps) {
    int n = 0;
    for (const PoleCoeffs& c : ps.poles) n += pole_restoring(c) == 0.0 ? 1 : 0;
    return n;
}

/// Compact list of the dispersive cells of one E component, sorted by increasing flat
/// index (j*nx+i); three arrays of one length.
struct DispersiveCells {
    std::vector<CellIndex> cells;         ///< flat index j*nx+i
    /// index into Scene::pole_sets (32 bits: run.subpixel_metal "conformal" gives each cut
    /// cell of a metal its own pole set)
    std::vector<std::uint32_t> pole_set;
    std::vector<double> weight;           ///< susceptibility weight (run.subpixel_metal), (0, 1]
};

/// Off-diagonal inverse-permittivity coupling of E sites (header comment "Anisotropic
/// cells"): TEz in 2D (Ex, Ey), all three E components in 3D. Index c: the sites of
/// component c (Ex 0, Ey 1, Ez 2; cells[2] empty in 2D).
struct AnisotropicCells {
    /// listed sites of each component, flat index (k*ny+j)*nx+i (2D: j*nx+i), sorted by
    /// increasing index
    std::vector<CellIndex> cells[3];
    /// anisotropic_slots(dimensions) per listed site k (entries S*k .. S*k+S-1): index into
    /// cells[c'] of a coupled site of another component c' = anisotropic_partner(c, g, dim)
    /// for slot 4g+m (g = 0 in 2D; 0, 1 in 3D: the lower, then the higher other axis), or
    /// -1. With a = c's axis and b = c''s axis, the 4 slots m of group g are the nearest c'
    /// sites at index offsets o_a in {0, +1} and o_b in {-1, 0} (all other offsets 0),
    /// m = 2 * (bit of the higher axis) + (bit of the lower axis), bit 0 for the first
    /// listed offset. 2D: for Ex(i,j): Ey(i,j-1), Ey(i+1,j-1), Ey(i,j), Ey(i+1,j); for Ey(i,j):
    /// Ex(i-1,j), Ex(i,j), Ex(i-1,j+1), Ex(i,j+1). Indices wrap on periodic axes; the slot of
    /// the partner's view of the same pair is 3 - m in its own group for c.
    std::vector<std::int32_t> neighbour[3];
    /// one per slot: K(p,q) * eps_r(q), dimensionless
    std::vector<double> weight[3];
    bool empty() const { return cells[0].empty() && cells[1].empty() && cells[2].empty(); }
};

/// Slots per listed site in AnisotropicCells: 4 in 2D (the one other TEz component), 8 in
/// 3D (4 for each of the two other components).
constexpr int anisotropic_slots(int dimensions) { return dimensions == 3 ? 8 : 4; }
/// The component coupled through group g of component c's slots: 2D (TEz) 1 - c; 3D the
/// g-th (0: lower, 1: higher) of the two axes other than c.
constexpr int anisotropic_partner(int c, int g, int dimensions) {
    return dimensions == 3 ? (g < c ? g : g + 1) : 1 - c;
}
/// The group of c's slots that couples to component p (inverse of anisotropic_partner).
constexpr int anisotropic_group(int c, int p, int dimensions) {
    return dimensions == 3 ? (p < c ? p : p - 1) : 0;
}

/// Total-field / scattered-field plane wave (header comment "3D scenes", TF/SF). The
/// total-field region is the set of integer index positions lo[a] <= p <= hi[a] on every
/// axis a (in 2D lo[2] = hi[2] = 0); outside it the engine holds the scattered field.
/// The incident wave travels along `axis` in the direction `sign` (+1 / -1) with its E
/// along component_axis(e_component) (normal to `axis`), E_inc at the injection plane =
/// waveform.value(t - delay_s) (V/m); it is propagated on a 1D auxiliary grid with the
/// main grid's dx, dt and Courant number so that it follows the grid's own dispersion.
/// The injection node lies 3 cells before the box (axis position lo[axis] - 3 for sign
/// +1, hi[axis] + 3 for sign -1); header comment "TF/SF" for the exact convention.
struct TfsfSource {
    std::array<std::int64_t, 3> lo{0, 0, 0}, hi{0, 0, 0};  ///< TF region, inclusive integer positions
    int axis = 0;                                          ///< propagation axis 0..2
    int sign = +1;                                         ///< +1: towards +axis
    Component e_component = Component::Ez;                 ///< E polarization
    CompiledWaveform waveform;
    double delay_s = 0;
    /// (ca, cb) of the background the incident line runs in. NaN (the default): the table
    /// entry of e_component at the box's lo corner. partition_scene() fills them from the
    /// global scene, since a subdomain need not hold that corner.
    double line_ca = NAN, line_cb = NAN;
    /// Per axis: the TF region continues below the grid's first plane (a mirror symmetry
    /// plane of a reduced scene lies there, symmetry.hpp): that face has no corrections and
    /// lo[a] is not used. Never the propagation axis.
    std::array<bool, 3> open_lo{false, false, false};
};

/// Where a subdomain scene (partition.hpp) lies in the global grid it was cut from, along
/// the one cut axis: local plane p is global plane (origin + p) wrapped into [0, global_n)
/// (a periodic global axis wraps; otherwise origin + p stays inside it). Engines that build
/// global-coordinate plans (the TF/SF corrections, tfsf_plan.hpp) check them against the
/// global grid and keep the entries on local planes. Inactive (active = false) for an
/// ordinary scene.
struct GridWindow {
    bool active = false;
    int axis = 2;                 ///< the cut axis (0, 1, 2)
    std::int64_t origin = 0;      ///< global plane of local plane 0 (may be negative: periodic wrap)
    std::int64_t global_n = 0;    ///< global cells along the axis
    int global_pml_lo = 0, global_pml_hi = 0;
    BoundaryKind global_boundary = BoundaryKind::Pml;
    /// pad_scene_x may pad this subdomain's rows (partition.hpp padded_nx). The distributed
    /// engine sets it when every subdomain runs on CUDA, so that the halo planes of all
    /// subdomains keep one layout (a CPU subdomain's rows are never padded).
    bool row_padding = false;
    /// Local plane of global plane g, or -1 when g is not in this scene's n_local planes.
    std::int64_t local_plane(std::int64_t g, std::int64_t n_local) const {
        std::int64_t p = g - origin;
        if (global_boundary == BoundaryKind::Periodic) p = ((p % global_n) + global_n) % global_n;
        return (p >= 0 && p < n_local) ? p : -1;
    }
};

/// Which slice of a 3D grid frames and field samples show (FrameSource::frame,
/// FrameSource::sample_field, frame_source.hpp): the plane normal to `normal_axis` at node index `index`
/// (clamped to the grid). Ignored in 2D.
struct FrameSlice {
    int normal_axis = 2;
    std::int64_t index = 0;
};

struct Scene {
    /// 2: one cell along z (nz = 1), the polarization picks the components (header
    /// comment). 3: all six components on nx * ny * nz cells (header comment "3D scenes").
    int dimensions = 2;
    Polarization polarization = Polarization::TMz;  ///< 2D only
    int nx = 0, ny = 0;              ///< total cells, PML included
    int nz = 1;                      ///< total cells along z, PML included (1 in 2D)
    double dx_um = 0;                ///< Yee cell edge, um
    double dt_s = 0;                 ///< time step, s
    double courant = 0.5;            ///< S = c0 dt / dx
    /// x, y, z; z is unused in 2D (periodic with period 1).
    BoundaryKind boundary[3] = {BoundaryKind::Pml, BoundaryKind::Pml, BoundaryKind::Periodic};
    int pml_lo[3] = {0, 0, 0}, pml_hi[3] = {0, 0, 0};  ///< PML cells per side (x, y, z)
    /// Mirror symmetry about the interior's centre plane per axis: 0 none, +1 even (PMC
    /// plane), -1 odd (PEC plane) (symmetry.hpp). The scene is the whole domain; engines
    /// step reduce_by_symmetry() of it (make_engine does).
    int symmetry[3] = {0, 0, 0};
    /// Bloch phase per axis, phi_a = k_a * n_a * dx (rad), on periodic axes only (header
    /// comment "Bloch-periodic axes"); 0: plain periodic (or not periodic).
    double bloch_phase[3] = {0, 0, 0};
    /// Two real field copies (real and imaginary parts): set when any bloch_phase or any
    /// source's weights_im is nonzero, or to force complex fields at phase 0.
    bool complex_fields = false;
    bool has_bloch_phase() const { return bloch_phase[0] != 0 || bloch_phase[1] != 0 || bloch_phase[2] != 0; }
    CpmlAxis cpml[3];                ///< x, y, z profiles (identity where no PML; z only in 3D)

    /// Material table and, per E component, the table index of every cell (nx*ny).
    /// TMz uses material_index[2] (Ez); TEz uses [0] (Ex) and [1] (Ey). Unused: empty.
    std::vector<EUpdateCoeffs> table;
    std::vector<std::uint16_t> material_index[3];

    /// Dispersive cells per E component (same index as material_index) and the pole-set
    /// table; empty when the scene has no dispersive material (header comment).
    std::vector<PoleSet> pole_sets;
    DispersiveCells dispersive[3];
    bool is_dispersive() const {
        return !dispersive[0].cells.empty() || !dispersive[1].cells.empty() || !dispersive[2].cells.empty();
    }

    /// TEz off-diagonal coupling (header comment); empty without sub-pixel averaging, for
    /// TMz and when no cut cell has an oblique interface.
    AnisotropicCells anisotropic;
    bool is_anisotropic() const { return !anisotropic.empty(); }

    std::vector<SourceTerm> sources;
    std::vector<TfsfSource> tfsf;    ///< TF/SF plane waves (2D and 3D)
    std::vector<DftSet> dft_sets;
    std::vector<TimeProbe> time_probes;
    /// Set on the subdomain scenes of partition_scene() (partition.hpp); inactive otherwise.
    GridWindow window;

    /// nx * ny * nz.
    std::size_t cells() const { return std::size_t(nx) * std::size_t(ny) * std::size_t(nz); }
    /// The grid as a Grid of any dimension (grid.hpp): n = {nx, ny, nz}, the same
    /// boundaries and PML cells (2D: nz = 1, z periodic).
    Grid grid() const;
    /// Physical position (um) of index-unit position p along axis a.
    double position_um(int axis, double p) const { return (p - pml_lo[axis]) * dx_um; }
};

/// The E component(s) of a polarization: TMz -> {Ez}; TEz -> {Ex, Ey}.
std::vector<Component> electric_components(Polarization p);
/// The H component(s): TMz -> {Hx, Hy}; TEz -> {Hz}.
std::vector<Component> magnetic_components(Polarization p);

/// Memory (bytes) an engine needs for the run state of `scene` at `precision` (R = 4
/// bytes per real in float32, 8 in float64): the one estimate with which the CPU and CUDA
/// engines refuse a grid before allocating it (OutOfMemoryError) and that the compiler
/// reports (CompiledProject::memory_bytes, `golightly-cli check`). Each item counts the
/// larger of the two backends' layouts, so it is an upper bound for both:
///   fields           3 R per cell (3D: 6 R)
///   materials        per cell and E component (3D: three): the uint16 table index (scene copy, CUDA
///                    map) and the CPU's per-cell ca, cb (2 R); per table entry its
///                    EUpdateCoeffs, the device (ca, cb) pair and eps_r
///   CPML             psi: 2 R per PML cell-row of each axis (one E, one H array); 3D: 4 R
///                    per cell of each axis's slabs (two E, two H arrays);
///                    profiles: 6 R per cell along each axis
///   DFT sets         per sample two cell indices, two weights and 16 doubles (the CUDA
///                    DFT ring), and one complex double accumulator per frequency
///   time probes      per cell its index and weight; 8 bytes per recorded step
///                    (`recorded_steps`: the run length when known, else 0)
///   sources          per cell its index and weight
///   TF/SF            per source its 1D line (8 doubles per cell, box length + 80) and 4
///                    corrections (cell, indices, coefficients: 32 B) per node of the box
///                    surface grown by 3 cells
///   dispersive cells per cell its index, pole-set index and weight, and (2 + 2 P) R of
///                    polarization state and scratch, P the largest pole count of any set;
///                    per pole its coefficients (double and R); per set two offsets
///   anisotropic      per listed site its cell, S neighbours and S weights (double), and
///                    1 + S R of engine weights and scratch (S = 4 in 2D, 8 in 3D)
///   complex fields   (Scene::complex_fields) the fields, psi, dispersive state and DFT
///                    accumulators once more (the imaginary copy), and a second copy of
///                    the scene's sources for its weights
/// Reads only the array sizes (a scene with nx * ny set and no per-cell arrays is fine).
std::size_t engine_state_bytes(const Scene& scene, Precision precision, long long recorded_steps = 0);

/// The relative permittivity of every cell for pictures of the structure (the editor's
/// preview, the field view's background): nx*ny values, index j*nx+i; the table eps_r of
/// Ez in TMz, the mean of the Ex and Ey entries in TEz, 1 where a map is missing.
/// `eps_max` (optional) receives the largest value, at least 1.
std::vector<double> permittivity_picture(const Scene& scene, double* eps_max = nullptr);

/// Builds the coefficient table and index maps from per-cell eps_r and sigma (S/m) of
/// each E component, merging equal entries. 2D: the components of the polarization; 3D
/// (dimensions = 3): Ex, Ey, Ez, nx*ny*nz values each (three vectors, by component).
/// Entries equal after rounding eps_r and sigma to 1e-7 relative share one table entry;
/// when more than 65535 remain (sub-pixel averaging of a large 3D grid), the rounding
/// coarsens to 1e-6, 1e-5, then 1e-4 relative. Throws RunError for an invalid value (eps_r
/// <= 0, sigma < 0, not finite) and when 1e-4 still leaves more than 65535 entries.
void build_material_table(Scene& scene, const std::vector<std::vector<double>>& eps_r_per_component,
                          const std::vector<std::vector<double>>& sigma_per_component);

/// Fills scene.cpml[axis] for the given PML thicknesses (Roden & Gedney 2000 with
/// polynomial grading of order m: sigma = sigma_max (d/L)^m, kappa = 1 + (kappa_max - 1)
/// (d/L)^m, alpha = alpha_max (1 - d/L); sigma_max from the target normal-incidence
/// reflection R: sigma_max = -(m+1) ln(R) / (2 eta0 L)). Requires nx, ny, dx_um, dt_s (and
/// nz in 3D). Fills x and y; in 3D (dimensions = 3) z as well.
/// Depth d (cells) is measured from the interior edge, e position pml_lo (low side) or
/// n - pml_hi (high side): e position i has d = pml_lo - i resp. i - (n - pml_hi), h position
/// i+1/2 has d = pml_lo - i - 1/2 resp. i + 1/2 - (n - pml_hi); L = that side's cells.
/// alpha_max < 0 (the default) selects the grid-scaled alpha_max = eps0 c0 / (100 dx).
/// Throws RunError for PML cells exceeding the grid or parameters out of range.
void build_cpml(Scene& scene, double grading_order, double target_reflection,
                double kappa_max = 1.0, double alpha_max_s_per_m = -1.0);

}  // namespace golightly
