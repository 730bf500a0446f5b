// Bloch-periodic test scenes shared by the CPU tests (tests/solver/test_bloch.cpp) and the
// CUDA tests (tests/gpu/cuda_bloch.cpp): a patterned lossy slab across a Bloch axis, as a
// one-period complex cell and as its real supercell.
#pragma once

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "engine3d_scenes.hpp"
#include "test_scenes.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"

namespace golightly::test {

struct BlochCase {
    Polarization pol = Polarization::TMz;
    int bloch_axis = 0;   ///< 0: x Bloch, y PML; 1: y Bloch, x PML
    int period = 18;      ///< cells along the Bloch axis
    int across = 56;      ///< cells along the other axis (PML included)
    int copies = 3;       ///< supercell length in periods: phi = 2 pi / copies
    bool dispersive = false;
};

/// (i, j) of a cell given its position `along` the Bloch axis and `across` it.
/// Every 2D case of the Bloch tests: TMz and TEz, a Bloch axis x and y, with and without a
/// Lorentz pole on the slab.
inline std::vector<BlochCase> all_2d_bloch_cases() {
    std::vector<BlochCase> out;
    for (Polarization pol : {Polarization::TMz, Polarization::TEz})
        for (int axis : {0, 1})
            for (bool disp : {false, true}) {
                BlochCase bc;
                bc.pol = pol;
                bc.bloch_axis = axis;
                bc.dispersive = disp;
                out.push_back(bc);
            }
    return out;
}

/// "TMz, axis x, dispersive" (messages).
inline std::string describe(const BlochCase& bc) {
    return std::string(bc.pol == Polarization::TMz ? "TMz" : "TEz") + ", axis " + "xy"[bc.bloch_axis] +
           (bc.dispersive ? ", dispersive" : "");
}

inline void ij(const BlochCase& bc, int along, int across, int& i, int& j) {
    i = bc.bloch_axis == 0 ? along : across;
    j = bc.bloch_axis == 0 ? across : along;
}

/// The scene of `copies` periods along the Bloch axis (copies = 1: the Bloch cell): a slab of
/// eps 3 (lossy) across the Bloch axis, optionally with a Lorentz pole on its E cells.
inline Scene bloch_case_scene(const BlochCase& bc, int copies) {
    SceneSpec s;
    s.polarization = bc.pol;
    s.pml_cells = 10;
    const int n_along = bc.period * copies;
    s.nx = bc.bloch_axis == 0 ? n_along : bc.across;
    s.ny = bc.bloch_axis == 0 ? bc.across : n_along;
    s.boundary_x = bc.bloch_axis == 0 ? BoundaryKind::Periodic : BoundaryKind::Pml;
    s.boundary_y = bc.bloch_axis == 0 ? BoundaryKind::Pml : BoundaryKind::Periodic;
    const int axis = bc.bloch_axis;
    const int period = bc.period;
    auto in_slab = [axis, period](int i, int j) {
        const int a = axis == 0 ? i : j, c = axis == 0 ? j : i;
        return c >= 30 && c < 36 && (a % period) >= 4 && (a % period) < 13;  // a patterned slab
    };
    s.eps_r = [in_slab](Component, int i, int j) { return in_slab(i, j) ? 3.0 : 1.0; };
    s.sigma_s_per_m = [in_slab](Component, int i, int j) { return in_slab(i, j) ? 2e3 : 0.0; };
    Scene sc = make_scene(s);
    if (bc.dispersive) {
        const double w0 = 0.1, g = 0.01, wp = 0.15;  // in units of 1/dt
        PoleCoeffs pc;
        pc.c1 = (2 - w0 * w0) / (1 + g / 2);
        pc.c2 = -(1 - g / 2) / (1 + g / 2);
        pc.c3 = wp * wp / (1 + g / 2);
        sc.pole_sets.push_back(PoleSet{{pc}});
        for (Component c : electric_components(bc.pol)) {
            DispersiveCells& d = sc.dispersive[int(c)];
            for (int j = 0; j < sc.ny; ++j)
                for (int i = 0; i < sc.nx; ++i)
                    if (in_slab(i, j)) {
                        d.cells.push_back(cell(sc, i, j));
                        d.pole_set.push_back(0);
                        d.weight.push_back(1.0);
                    }
        }
    }
    return sc;
}

/// Runs the Bloch cell (complex, phase 2 pi / copies) and its supercell (real) and returns
/// the largest deviation of Re F and Im F from the supercell's prediction, relative to the
/// largest |Re F|, over every component of the polarization.

/// The Bloch cell (complex fields, phase phi = 2 pi / copies along the Bloch axis) and its
/// real supercell of `copies` periods, with the same two sources (complex weights on an E
/// and an H component; the supercell's copies weighted Re(w e^{i m phi})) and DFT sets of
/// every component on three lines along the Bloch axis: the cell's one period, the
/// supercell's first two (X(x) and X(x + L)), at 0.9 and 1.1 f0 (f0: 0.6 um).
struct BlochPair {
    Scene cell, super;
    std::vector<Component> comps;  ///< the DFT sets' components, in set order
    double phi = 0;                ///< the Bloch phase (rad)
};

inline BlochPair make_bloch_pair(const BlochCase& bc) {
    const double phi = 2 * 3.14159265358979323846 / bc.copies;
    Scene cell1 = bloch_case_scene(bc, 1), super = bloch_case_scene(bc, bc.copies);
    cell1.complex_fields = true;
    cell1.bloch_phase[bc.bloch_axis] = phi;
    const double f0 = units::c0 / (0.6 * units::um), tau = 3.0 / f0;
    const CompiledWaveform w = gaussian_pulse(f0, tau);
    // two sources with complex weights on E and H components
    struct Src {
        Component c;
        int along, across;
        std::complex<double> weight;
    };
    const Component e0 = electric_components(bc.pol)[0], h0 = magnetic_components(bc.pol)[0];
    const std::vector<Src> srcs = {{e0, 3, 18, {1.0, 0.0}}, {h0, 11, 20, std::polar(0.7, 1.1)}};
    for (const Src& s : srcs) {
        int i, j;
        ij(bc, s.along, s.across, i, j);
        SourceTerm t;
        t.component = s.c;
        t.cells = {cell(cell1, i, j)};
        t.weights = {s.weight.real()};
        t.weights_im = {s.weight.imag()};
        t.waveform = w;
        cell1.sources.push_back(t);
        for (int m = 0; m < bc.copies; ++m) {
            ij(bc, s.along + m * bc.period, s.across, i, j);
            SourceTerm u;
            u.component = s.c;
            u.cells = {cell(super, i, j)};
            u.weights = {(s.weight * std::polar(1.0, m * phi)).real()};
            u.waveform = w;
            super.sources.push_back(u);
        }
    }
    // DFT sets of every component on three lines along the Bloch axis: the Bloch cell's
    // one period, the supercell's first two (X(x) and X(x + L)).
    std::vector<Component> comps = electric_components(bc.pol);
    for (Component c : magnetic_components(bc.pol)) comps.push_back(c);
    const int lines[3] = {18, 25, 33};
    for (Component c : comps) {
        DftSet da, db;
        da.component = db.component = c;
        da.frequencies_hz = db.frequencies_hz = {0.9 * f0, 1.1 * f0};
        for (int across : lines)
            for (int along = 0; along < 2 * bc.period; ++along) {
                int i, j;
                ij(bc, along, across, i, j);
                if (along < bc.period) {
                    da.cell0.push_back(cell(cell1, i, j));
                    da.w0.push_back(1.0);
                }
                db.cell0.push_back(cell(super, i, j));
                db.w0.push_back(1.0);
            }
        cell1.dft_sets.push_back(da);
        super.dft_sets.push_back(db);
    }
    return {std::move(cell1), std::move(super), comps, phi};
}

/// Period (cells) of the 3D Bloch cells of make_bloch_pair3.
constexpr int kBloch3Period = 6;

/// The 3D Bloch cell (phase 2 pi / 3 along axis a, a PML axis a + 1 and a plain periodic axis
/// a + 2, mod 3; a dielectric block eps 4 per period) and its real supercell of three
/// periods, with two sources (complex weights) and DFT sets of all six components on three
/// lines along the Bloch axis (the cell's period; the supercell's first two), at f0 (0.3 um).
inline BlochPair make_bloch_pair3(int a) {
    const int period = kBloch3Period, copies = 3, n_pml_axis = 20, n_plain = 5;
    const double phi = 2 * 3.14159265358979323846 / copies;
    const int pml_axis = (a + 1) % 3, plain_axis = (a + 2) % 3;
    auto spec = [&](int nper) {
        Spec3 sp;
        int n[3];
        n[a] = period * nper;
        n[pml_axis] = n_pml_axis;
        n[plain_axis] = n_plain;
        sp.nx = n[0];
        sp.ny = n[1];
        sp.nz = n[2];
        sp.b[a] = BoundaryKind::Periodic;
        sp.b[pml_axis] = BoundaryKind::Pml;
        sp.b[plain_axis] = BoundaryKind::Periodic;
        sp.pml = 5;
        sp.eps = [a, pml_axis](int, int i, int j, int k) {
            const int p[3] = {i, j, k};
            return (p[a] % 6 >= 1 && p[a] % 6 < 4 && p[pml_axis] >= 9 && p[pml_axis] < 12) ? 4.0 : 1.0;
        };
        return make3(sp);
    };
    Scene cell1 = spec(1), super = spec(copies);
    cell1.complex_fields = true;
    cell1.bloch_phase[a] = phi;
    const double f0 = units::c0 / (0.3 * units::um);
    const CompiledWaveform w = gaussian_pulse(f0, 3.0 / f0);
    auto at = [&](const Scene& s, int along, int across, int plain) {
        int p[3];
        p[a] = along;
        p[pml_axis] = across;
        p[plain_axis] = plain;
        return cell3(s, p[0], p[1], p[2]);
    };
    struct Src {
        Component c;
        int along, across, plain;
        std::complex<double> weight;
    };
    const std::vector<Src> srcs = {{Component(a), 2, 8, 1, {1.0, 0.0}},
                                   {Component(3 + pml_axis), 4, 10, 3, std::polar(0.6, 0.7)}};
    for (const Src& s : srcs) {
        SourceTerm t;
        t.component = s.c;
        t.cells = {at(cell1, s.along, s.across, s.plain)};
        t.weights = {s.weight.real()};
        t.weights_im = {s.weight.imag()};
        t.waveform = w;
        cell1.sources.push_back(t);
        for (int m = 0; m < copies; ++m) {
            SourceTerm u;
            u.component = s.c;
            u.cells = {at(super, s.along + m * period, s.across, s.plain)};
            u.weights = {(s.weight * std::polar(1.0, m * phi)).real()};
            u.waveform = w;
            super.sources.push_back(u);
        }
    }
    for (int c = 0; c < 6; ++c) {
        DftSet da, db;
        da.component = db.component = Component(c);
        da.frequencies_hz = db.frequencies_hz = {f0};
        for (int across : {7, 10, 13})
            for (int along = 0; along < 2 * period; ++along) {
                if (along < period) {
                    da.cell0.push_back(at(cell1, along, across, 2));
                    da.w0.push_back(1.0);
                }
                db.cell0.push_back(at(super, along, across, 2));
                db.w0.push_back(1.0);
            }
        cell1.dft_sets.push_back(da);
        super.dft_sets.push_back(db);
    }
    std::vector<Component> comps;
    for (int c = 0; c < 6; ++c) comps.push_back(Component(c));
    return {std::move(cell1), std::move(super), comps, phi};
}

/// The 2D Bloch cell of make_bloch_pair(bc) (bc.bloch_axis 1: its Bloch axis y, the 2D cut
/// axis of the distributed engine) with two more complex sources on the wrap planes (an E
/// source at (22, 0) and an H source at (27, ny - 1), in the wrap halos of the last and the
/// first subdomain, so that their weights there take the phase too): the cut-axis Bloch
/// cases of test_distributed_bloch.cpp and tests/gpu/cuda_bloch_cut.cpp.
inline Scene bloch_y_cut_cell(const BlochCase& bc) {
    Scene s = make_bloch_pair(bc).cell;
    SourceTerm a = s.sources.at(0), b = s.sources.at(0);
    a.component = electric_components(bc.pol)[0];
    a.cells = {cell(s, 22, 0)};
    a.weights = {0.4};
    a.weights_im = {-0.9};
    b.component = magnetic_components(bc.pol)[0];
    b.cells = {cell(s, 27, s.ny - 1)};
    b.weights = {-0.5};
    b.weights_im = {0.3};
    s.sources.push_back(a);
    s.sources.push_back(b);
    return s;
}

}  // namespace golightly::test
