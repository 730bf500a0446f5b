// GoLightly CPU engine: argument block and operation names of the row kernels
// (cpu_kernels.inl). Private to the solver library.
#pragma once

namespace golightly::cpu {

template <typename Real>
struct RowArgs {
    int n = 0;
    Real* f = nullptr;                 // updated component, cell k of the segment
    const Real* ca = nullptr;          // E only, lossy
    const Real* cb = nullptr;          // E only
    Real ca_s = 1, cb_s = 0;           // E only, UNIFORM: the segment's single ca, cb
    Real courant = 0;                  // H only
    const Real* xu = nullptr;          // x difference XU - XL
    const Real* xl = nullptr;
    const Real* ikx = nullptr;         // PX: 1/kappa, b, c per cell of the segment
    const Real* bx = nullptr;
    const Real* cx = nullptr;
    Real* psix = nullptr;
    const Real* yu = nullptr;          // y difference YU - YL
    const Real* yl = nullptr;
    Real iky = 1, by = 0, cy = 0;      // PY: scalars of the row
    Real* psiy = nullptr;
};

/// The six component updates (signs from scene.hpp):
///   TMz Hx -= S [Y]       -> SX 0,  SY -1
///   TMz Hy += S [X]       -> SX +1, SY 0
///   TMz Ez  = ca Ez + cb [X - Y]
///   TEz Hz -= S [X - Y]   -> SX -1, SY +1
///   TEz Ex  = ca Ex + cb [Y]
///   TEz Ey  = ca Ey - cb [X]
enum class RowOp { Hx, Hy, Ez, Hz, Ex, Ey };

/// Kernel variant flags: the segment lies in an x PML slab (PX), the row in a y slab (PY),
/// the E component has lossy cells (LOSSY), the segment's ca/cb are one value (UNIFORM:
/// ca_s, cb_s are used and the per-cell arrays are not read).
enum RowFlags : int { PX = 1, PY = 2, LOSSY = 4, UNIFORM = 8 };

using RunOpF = void (*)(RowOp, const RowArgs<float>&, int flags);
using RunOpD = void (*)(RowOp, const RowArgs<double>&, int flags);

}  // namespace golightly::cpu
