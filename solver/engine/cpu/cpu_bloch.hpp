// GoLightly CPU engines: complex fields over Bloch-periodic axes (scene.hpp "Bloch-periodic
// axes and complex fields"), the parts the 2D and 3D engines share. The engines step two
// real copies (real and imaginary parts) with their ordinary real update; this header gives
// the imaginary copy's scene (the sources' imaginary weights), the checks of a complex
// scene, the Bloch rotation of a wrapped neighbour and the complex DFT of the two copies.
// Private to the solver library.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "golightly/errors.hpp"
#include "golightly/scene.hpp"

namespace golightly::cpu {

/// cos and sin of each axis's Bloch phase (Scene::bloch_phase): the rotation a neighbour
/// read across the wrap of that axis takes.
struct BlochRotation {
    double c[3] = {1, 1, 1}, s[3] = {0, 0, 0};
    bool active[3] = {false, false, false};  ///< a Bloch phase on the axis (a wrap that mixes the copies)

    explicit BlochRotation(const Scene& sc) {
        for (int a = 0; a < 3; ++a) {
            c[a] = std::cos(sc.bloch_phase[a]);
            s[a] = std::sin(sc.bloch_phase[a]);
            active[a] = sc.complex_fields && sc.bloch_phase[a] != 0;
        }
    }
    BlochRotation() = default;
    /// The neighbour beyond the upper end of axis a, read by copy `self` (0 re, 1 im) from
    /// the value v_self of its own copy and v_other of the other copy at the lower end:
    /// Re / Im of exp(+i phi) (re + i im).
    template <typename Real>
    Real upper(int a, int self, Real v_self, Real v_other) const {
        const double sg = self == 0 ? -1.0 : 1.0;
        return Real(c[a] * double(v_self) + sg * s[a] * double(v_other));
    }
    /// The neighbour beyond the lower end: Re / Im of exp(-i phi) (re + i im).
    template <typename Real>
    Real lower(int a, int self, Real v_self, Real v_other) const {
        const double sg = self == 0 ? -1.0 : 1.0;
        return Real(c[a] * double(v_self) - sg * s[a] * double(v_other));
    }
    /// A whole row of upper (lower = false: lower) neighbours into out[0..n).
    template <typename Real>
    void row(bool upper_end, int a, int self, const Real* v_self, const Real* v_other, Real* out, int n) const {
        const double sg = (self == 0 ? -1.0 : 1.0) * (upper_end ? 1.0 : -1.0);
        const Real cc = Real(c[a]), ss = Real(sg * s[a]);
        for (int i = 0; i < n; ++i) out[i] = cc * v_self[i] + ss * v_other[i];
    }
};

/// Checks a scene for a CPU engine's complex run (scene.hpp "Bloch-periodic axes"):
/// RunError for a Bloch phase on a non-periodic axis, a phase without complex fields,
/// imaginary source weights in a real run or of the wrong length, TF/SF sources in a
/// complex run with a Bloch phase, and sub-pixel tensor sites on the wrapped lines of a
/// Bloch axis. `engine` names the engine in messages ("CPU engine", "3D CPU engine").
inline void check_bloch_scene(const Scene& sc, const std::string& engine) {
    static const char* axis_name[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
        if (sc.bloch_phase[a] == 0) continue;
        if (!std::isfinite(sc.bloch_phase[a]))
            throw RunError(engine + ": the Bloch phase along " + axis_name[a] + " is not finite");
        if (sc.boundary[a] != BoundaryKind::Periodic)
            throw RunError(engine + ": a Bloch phase along " + axis_name[a] + " needs a periodic boundary there");
        if (!sc.complex_fields)
            throw RunError(engine + ": a Bloch phase along " + axis_name[a] +
                           " needs complex fields (Scene::complex_fields)");
    }
    for (std::size_t k = 0; k < sc.sources.size(); ++k) {
        const SourceTerm& t = sc.sources[k];
        if (t.weights_im.empty()) continue;
        if (!sc.complex_fields)
            throw RunError(engine + ": source " + std::to_string(k) +
                           " has imaginary weights but the run has real fields");
        if (t.weights_im.size() != t.cells.size())
            throw RunError(engine + ": source " + std::to_string(k) + " has weights_im of another length than cells");
    }
    if (!sc.complex_fields || !sc.has_bloch_phase()) return;
    if (!sc.tfsf.empty())
        throw RunError(engine + ": TF/SF sources inject at normal incidence and cannot run with a Bloch phase; "
                                "use a one-way plane source with angle_deg");
    const int n[3] = {sc.nx, sc.ny, sc.nz};
    for (int c = 0; c < 3; ++c)
        for (CellIndex cell : sc.anisotropic.cells[c]) {
            const std::int64_t i = cell % sc.nx, j = (cell / sc.nx) % sc.ny, k = cell / (std::int64_t(sc.nx) * sc.ny);
            const std::int64_t p[3] = {i, j, k};
            for (int a = 0; a < 3; ++a)
                if (sc.bloch_phase[a] != 0 && (p[a] == 0 || p[a] == n[a] - 1))
                    throw RunError(engine + ": sub-pixel tensor couplings on the wrapped edge of the Bloch axis " +
                                   axis_name[a] + " are not supported; move the interface off the cell's edge or "
                                   "set run.subpixel off");
        }
}

/// The scene of the imaginary copy: `sc` with every source's weights replaced by its
/// weights_im (zeros where empty), so that the copy's extensions (sources, dispersion,
/// walls, monitors) are built by the ordinary code. The source list keeps its order.
inline std::unique_ptr<Scene> imaginary_scene(const Scene& sc) {
    auto im = std::make_unique<Scene>(sc);
    for (SourceTerm& t : im->sources) {
        if (t.weights_im.empty())
            t.weights.assign(t.cells.size(), 0.0);
        else
            t.weights = t.weights_im;
        t.weights_im.clear();
    }
    return im;
}

/// One complex DFT from the two copies' DFTs of a set: X_re + i X_im (each the complex DFT
/// of a real signal, scene.hpp DftSet).
inline std::vector<std::complex<double>> combine_dft(const std::vector<std::complex<double>>& re,
                                                     const std::vector<std::complex<double>>& im) {
    std::vector<std::complex<double>> out(re.size());
    const std::complex<double> I(0, 1);
    for (std::size_t k = 0; k < re.size(); ++k) out[k] = re[k] + I * im[k];
    return out;
}

}  // namespace golightly::cpu
