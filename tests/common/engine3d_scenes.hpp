// Hand-built 3D scenes for the 3D engine tests (test_engine3d.cpp, test_mur3d.cpp):
// Spec3 / make3 (vacuum or eps_r per E component, boundaries and CPML per axis), the flat
// index of a cell and random initial fields. Header-only, namespace golightly::test.
#pragma once

#include <initializer_list>

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "golightly/scene.hpp"
#include "golightly/units.hpp"

namespace golightly::test {

/// A 3D scene: nx * ny * nz cells (PML included), boundary kind per axis, `pml` CPML cells
/// on both faces of each Pml axis, cubic cells dx_um, Courant number.
struct Spec3 {
    int nx = 16, ny = 16, nz = 16;
    BoundaryKind b[3] = {BoundaryKind::Pml, BoundaryKind::Pml, BoundaryKind::Pml};
    int pml = 8;
    double dx_um = 0.02, courant = 0.5;
    /// optional eps_r(component, i, j, k) of the E components
    std::function<double(int, int, int, int)> eps;
};

/// The scene of a Spec3: material table (eps, no loss), CPML (grading 3, R = 1e-8).
inline Scene make3(const Spec3& p) {
    Scene s;
    s.dimensions = 3;
    s.nx = p.nx;
    s.ny = p.ny;
    s.nz = p.nz;
    s.dx_um = p.dx_um;
    s.courant = p.courant;
    s.dt_s = p.courant * p.dx_um * units::um / units::c0;
    for (int a = 0; a < 3; ++a) {
        s.boundary[a] = p.b[a];
        s.pml_lo[a] = s.pml_hi[a] = p.b[a] == BoundaryKind::Pml ? p.pml : 0;
    }
    std::vector<std::vector<double>> eps(3, std::vector<double>(s.cells(), 1.0)), sig(3);
    if (p.eps)
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < p.nz; ++k)
                for (int j = 0; j < p.ny; ++j)
                    for (int i = 0; i < p.nx; ++i)
                        eps[c][(std::size_t(k) * p.ny + j) * p.nx + i] = p.eps(c, i, j, k);
    build_material_table(s, eps, sig);
    build_cpml(s, 3.0, 1e-8);
    return s;
}

/// One unit-weight point source of `waveform` on `cell` for each of `components`.
inline void add_point_sources(Scene& s, std::initializer_list<Component> components, CellIndex cell,
                              const CompiledWaveform& waveform) {
    for (Component c : components) {
        SourceTerm t;
        t.component = c;
        t.cells = {cell};
        t.weights = {1.0};
        t.waveform = waveform;
        s.sources.push_back(t);
    }
}

/// Flat index (k ny + j) nx + i.
inline CellIndex cell3(const Scene& s, int i, int j, int k) {
    return (CellIndex(k) * s.ny + j) * s.nx + i;
}

/// n values uniform in [-1, 1) from seed.
inline std::vector<double> random_vector(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> v(n);
    for (double& x : v) x = u(rng);
    return v;
}

}  // namespace golightly::test
