#pragma once
// Floquet (diffraction-order) decomposition of the DFT fields on a plane (a line in 2D)
// spanning one period of a periodic or Bloch-periodic structure.
//
// A field periodic up to the Bloch phase, E(r + a_u e_u) = exp(i k_b,u a_u) E(r), is a sum
// of plane-wave (Floquet) orders (Petit, Electromagnetic Theory of Gratings, 1980, ch. 1;
// Moharam & Gaylord, JOSA 71, 811 (1981), eq. 2):
//     E(u, v) = sum_{m,n} E_mn exp(i (k_u,m u + k_v,n v)),
//     k_u,m = k_b,u + 2 pi m / a_u,  k_v,n = k_b,v + 2 pi n / a_v.
// Sampled at N_u x N_v points spaced a_u / N_u, a_v / N_v, the amplitudes are the
// discrete Fourier transform
//     E_mn = 1 / (N_u N_v) sum_{i,j} E(u_i, v_j) exp(-i (k_u,m u_i + k_v,n v_j))      (1)
// (m, n over N_u, N_v consecutive integers centred on 0), and Parseval's theorem makes the
// discrete flux sum over the period exactly the sum over orders:
//     sum_{i,j} Re(E_ij x conj(H_ij)) . n ds = sum_{m,n} A Re(E_mn x conj(H_mn)) . n,   (2)
// A = a_u a_v (a_u in 2D), provided E and H of each product are sampled at the same points.
// So the power of order (m, n) is P_mn = 0.5 / eta0 A Re(E_mn x conj(H~_mn)) . n, in the
// flux spectrum's units (H~ = eta0 H, time-averaged Poynting vector 0.5 Re(E x H*)). Orders
// with |k_par| >= n_medium k0 are evanescent and omitted (they carry no net power; their
// share of (2) is round-off and grid-dispersion small).
// The split into s (TE: E normal to the plane of k and the plane normal) and p (TM):
// with u_p = k_par / |k_par| (the first tangential axis when k_par = 0) and
// u_s = n x u_p, E x H* . n = E_p H_s* - E_s H_p*, so P_p = Re(E_p H~_s*) and
// P_s = -Re(E_s H~_p*) (same factor), exactly, whatever the mix.
// Angles: k = k_par + k_n n with k_n = sqrt((n_medium k0)^2 - |k_par|^2) along the
// monitor's positive direction; theta = asin(|k_par| / (n_medium k0)) from that direction;
// phi = atan2(k_t2, k_t1), t1 < t2 the tangential axes in x, y, z order (normal z: from x
// towards y; normal y: from x towards z; normal x: from y towards z).
// Time convention exp(-i omega t), as the engine's DFT.
#include <array>
#include <complex>
#include <vector>

namespace golightly {

/// The tangential DFT fields on one period of a plane normal to `normal_axis`.
///
/// Tangential axes: t1 < t2, the two axes other than the normal in x, y, z order (2D: the
/// line's tangential axis and z, whichever comes first; the z extent is one sample).
/// Arrays e[c], h[c] hold the field component along t_c (c = 0: t1, c = 1: t2) at
/// n[0] x n[1] samples, index [j * n[0] + i] (t1 fastest), sample (i, j) at position
/// origin_um[pair] + (i, j) * spacing (um along t1, t2), spacing = period_um / n.
/// The products are paired as the Poynting vector pairs them: pair 0 = (e[0], h[1]),
/// pair 1 = (e[1], h[0]); each pair must be sampled at the same points (the H of a
/// pair averaged onto its E nodes, as the flux monitors' DFT sets are). A component that
/// does not exist (2D: TMz has no E along the line; TEz no H along it) is an empty vector.
/// Units: E in V/m s, H~ = eta0 H in V/m s (the engine's DFT accumulators); the resulting
/// powers are in the flux spectrum's units: W per (V/m s)^2 of DFT units in 3D, W/m (per
/// metre along z) in 2D.
struct FloquetPlaneFields {
    int dimensions = 3;       ///< 2 or 3
    int normal_axis = 2;      ///< 0 x, 1 y, 2 z
    int direction = 1;        ///< +1 / -1: the monitor's positive power direction along the normal
    std::array<int, 2> n{1, 1};              ///< samples per period along t1, t2
    std::array<double, 2> period_um{0, 0};   ///< a along t1, t2 (the z entry of a 2D plane: 1 um, unused)
    std::array<std::array<double, 2>, 2> origin_um{};  ///< per pair, the position of sample (0, 0)
    std::array<std::vector<std::complex<double>>, 2> e, h;
};

/// One propagating Floquet order at one frequency.
struct FloquetOrder {
    std::array<int, 3> order{0, 0, 0};       ///< m along x, y, z (0 along the normal; 2D: 0 along z)
    std::array<double, 3> k_per_um{0, 0, 0}; ///< the order's wave vector (rad/um), its normal part along `direction`
    double theta_rad = 0;                    ///< from the monitor's positive direction, [0, pi/2)
    double phi_rad = 0;                      ///< azimuth of k_par from t1 towards t2, (-pi, pi]
    double power = 0;                        ///< P_mn, flux units (header, eq. 2)
    double power_s = 0, power_p = 0;         ///< the s and p parts of `power` (they sum to it)
};

/// The propagating Floquet orders of `fields` at vacuum wavelength `wavelength_um` in a
/// medium of (real) index `n_medium` at the plane, with Bloch in-plane wave vector
/// `k_bloch_per_um` (rad/um along t1, t2; zero for a periodic domain with real fields).
/// `total_power`, when given, receives the sum over every order (propagating and
/// evanescent), i.e. the plane's whole discrete flux (eq. 2).
/// Orders come sorted by (order along t2, order along t1). Cost O(N (M_1 + M_2)) for N
/// samples and M_a bins along axis a that can hold a propagating order (only those are
/// transformed); `total_power` is the direct discrete sum, O(N).
/// Throws std::invalid_argument for inconsistent shapes, a non-positive wavelength,
/// index or period, or a 2D plane with n[1] != 1 along z.
std::vector<FloquetOrder> floquet_orders(const FloquetPlaneFields& fields, double wavelength_um, double n_medium,
                                         std::array<double, 2> k_bloch_per_um = {0.0, 0.0},
                                         double* total_power = nullptr);

}  // namespace golightly
