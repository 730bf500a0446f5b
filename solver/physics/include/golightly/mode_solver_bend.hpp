// GoLightly: modes of a bent slab (a 2D project's line cross-section, bent about the z
// axis): complex n_eff (the bend's radiation loss) with PML on the line's ends.
//
// Method: the line is a cross-section window of the full-vector solver (mode_solver2d.hpp)
// one cell thick along the invariant axis v = z, periodic there (so d/dz = 0: the 2D
// problem exactly), u along the line, w the propagation direction; the bend is that
// solver's exact coordinate transformation about an axis along z (ModeSolveOptions::
// bend_radius_um, bend_axis u), PML at both ends of the line (pml_cells). The same
// solver and transformation are validated for ring slabs against Meep's resonances in
// cylindrical coordinates (tests/solver/test_mode_bend.cpp).
#pragma once

#include <complex>
#include <vector>

#include "golightly/project.hpp"

namespace golightly {

/// One mode of a bent slab.
struct BentSlabMode {
    double n_eff = 0;       ///< Re beta / k0, beta referred to the radius |R| at the reference line
    double n_eff_imag = 0;  ///< Im beta / k0 (> 0: the radiation loss of the bend)
    /// Power loss per 90 degrees of bend, dB: 20 log10(e) Im beta (pi |R| / 2)
    double loss_db_per_90deg = 0;
    double n_group = 0;  ///< the solver's energy-velocity group index (VectorMode::n_group)
    /// The line's tangential pair at the nodes x_j = j dx (complex: a radiating mode's
    /// phase varies across the line): TMz: e = Ez, h = eta0 H along the line; TEz: e = E
    /// along the line, h = eta0 Hz. Normalized as solve_modes_2d's modes (unit power per
    /// unit length along z, largest transverse E entry real positive).
    std::vector<std::complex<double>> e, h;
};

/// The modes of polarization `pol` of the line with eps_r at its n nodes (x_j = j dx, the
/// tangential E positions, as solve_slab_modes) and eps_r_midpoints (n + 1 values, between
/// nodes k-1 and k; empty: the mean of the neighbours, the end ones the end nodes'), bent
/// with signed radius bend_radius_um about a z axis on the line (R > 0: the centre of
/// curvature on the side of node 0, the outer side towards node n-1; R < 0 the other way),
/// the reference line (radius |R|) at reference_um from node 0, pml_cells cells of PML at
/// both ends of the line. Modes sorted by decreasing n_eff, at most max_modes, solved near
/// target_neff (<= 0: the straight slab's fundamental n_eff, solve_slab_modes); dropped:
/// modes of the other polarization, modes with more than half their |E|^2 inside the PML
/// (the PML's own modes) and modes with less than 5 % of it in the guide (nodes of eps
/// above the middle of the line's eps range: waves along the window's outer wall). A line
/// with several guides keeps each one's modes.
/// Throws std::invalid_argument (n < 3, dx <= 0, wavelength <= 0, bend_radius_um 0, the
/// centre of curvature on the line, 2 pml_cells >= n, max_modes < 1) and
/// std::runtime_error when the build has no 2D mode solver (Spectra) or it fails.
std::vector<BentSlabMode> solve_bent_slab_modes(const std::vector<double>& eps_r, double dx_um, double wavelength_um,
                                                Polarization pol, int max_modes, double bend_radius_um,
                                                double reference_um, int pml_cells, double target_neff = 0,
                                                const std::vector<double>& eps_r_midpoints = {});

}  // namespace golightly
