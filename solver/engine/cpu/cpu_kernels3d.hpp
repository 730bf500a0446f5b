// GoLightly CPU engine: argument block, flags and the factory of the 3D engine
// (cpu_kernels3d.inl, engine_cpu3d.cpp). Private to the solver library.
#pragma once

#include <memory>

#include "golightly/engine.hpp"

namespace golightly::cpu {

template <typename Real>
struct RowArgs3 {
    int n = 0;
    Real* f = nullptr;                 // updated component, cell q of the segment
    const Real* ca = nullptr;          // E only, lossy
    const Real* cb = nullptr;          // E only
    Real ca_s = 1, cb_s = 0;           // E only, UNIFORM3: the row's single ca, cb
    Real courant = 0;                  // H only
    const Real* xu = nullptr;          // x difference XU - XL, per-cell profile
    const Real* xl = nullptr;
    const Real* ikx = nullptr;
    const Real* bx = nullptr;
    const Real* cx = nullptr;
    Real* psix = nullptr;
    const Real* yu = nullptr;          // y difference, row scalars
    const Real* yl = nullptr;
    Real iky = 1, by = 0, cy = 0;
    Real* psiy = nullptr;
    const Real* zu = nullptr;          // z difference, row scalars
    const Real* zl = nullptr;
    Real ikz = 1, bz = 0, cz = 0;
    Real* psiz = nullptr;
};

/// Kernel variant flags: the segment lies in an x / y / z CPML slab, the E component has
/// lossy cells, the row has one material (ca_s, cb_s used, per-cell arrays not read).
enum RowFlags3 : int { PX3 = 1, PY3 = 2, PZ3 = 4, LOSSY3 = 8, UNIFORM3 = 16 };

using RunOp3F = void (*)(int, const RowArgs3<float>&, int flags);
using RunOp3D = void (*)(int, const RowArgs3<double>&, int flags);

}  // namespace golightly::cpu

namespace golightly {
/// The 3D CPU engine (engine_cpu3d.cpp): make_cpu_engine() calls it for dimensions == 3
/// after its memory check.
std::unique_ptr<Engine> make_cpu_engine3d(SceneView scene, Precision precision, int threads);
}  // namespace golightly
