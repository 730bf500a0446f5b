// GoLightly CPU engine: the row kernels of the Yee update (scene.hpp header comment).
// Included by engine_cpu.cpp several times, each time inside its own namespace and, for
// the AVX2 variant, under `#pragma GCC target`, so that one source gives one code path
// per instruction set (chosen at run time). No include guard on purpose; the caller
// includes <cstddef> first.
//
// One call updates n consecutive cells of one row of one field component F:
//   t    = SX * X + SY * Y
//   X    = (XU[k] - XL[k]) * ikx[k] + psix[k]      psix = bx[k] psix + cx[k] (XU - XL)
//   Y    = (YU[k] - YL[k]) * iky    + psiy[k]      psiy = by psiy + cy (YU - YL)
//   H:   F[k] = F[k] + S * t                         (S: the Courant number)
//   E:   F[k] = ca[k] * F[k] + cb[k] * t              (ca omitted when lossless)
// Without PX (PY) the x (y) term is the bare difference (inv_kappa = 1, psi = 0).
// The branches below are all `if constexpr`: the loop body is branch-free and the
// pointers are restrict, so GCC vectorizes it.
//
// Memory traffic per cell update (R = sizeof(Real): 4 B float, 8 B double), counting each
// array stream once: the shifted neighbour XU/XL of the same array and the row pairs
// YU/YL come from L1/L2 (rows of a few thousand cells fit), and the engine's fused sweep
// (engine_cpu.cpp, one_step) runs H of row j right before E of row j, so the second read
// of a row just written or read is a cache hit.
//   TMz Hx (Y only):        read Ez(j+1), Hx; write Hx                 3R
//   TMz Hy (X only):        read Hy; write Hy (Ez row cached)          2R
//   TMz Ez (X, Y, E):       read Ez, cb; write Ez (Hx, Hy cached)      3R  (2R if UNIFORM)
//      -> TMz step: read Ez, Hx, Hy, cb + write Ez, Hx, Hy = 7R = 28 B float32
//         (24 B where a row segment has one material), 56 B / 48 B float64
//   TEz Hz (X, Y):          read Ey, Ex(j+1), Hz; write Hz             4R
//   TEz Ex (Y, E), Ey (X,E) read F, cb; write F (Hz cached)            3R each (2R UNIFORM)
//      -> TEz step: 8R = 32 B float32 (24 B uniform)
//   lossy: +R per E component for ca (not in UNIFORM segments).
//   inside PML slabs: + read/write psi (2R) per psi; the 1D profiles are cached.
// The two-pass step (GOLIGHTLY_CPU_UNFUSED=1) streams every field twice: ~40 B TMz float32.

using cpu::RowArgs;
using cpu::RowOp;

template <typename Real, int SX, int SY, bool IS_E, bool PX, bool PY, bool LOSSY, bool UNI>
void row_kernel(const RowArgs<Real>& a) {
    const int n = a.n;
    Real* __restrict f = a.f;
    const Real* __restrict ca = a.ca;
    const Real* __restrict cb = a.cb;
    const Real ca_s = a.ca_s, cb_s = a.cb_s;
    const Real courant = a.courant;
    const Real* __restrict xu = a.xu;
    const Real* __restrict xl = a.xl;
    const Real* __restrict ikx = a.ikx;
    const Real* __restrict bx = a.bx;
    const Real* __restrict cx = a.cx;
    Real* __restrict psix = a.psix;
    const Real* __restrict yu = a.yu;
    const Real* __restrict yl = a.yl;
    const Real iky = a.iky, by = a.by, cy = a.cy;
    Real* __restrict psiy = a.psiy;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
    for (int k = 0; k < n; ++k) {
        Real t = 0;
        if constexpr (SX != 0) {
            const Real d = xu[k] - xl[k];
            Real x;
            if constexpr (PX) {
                const Real p = bx[k] * psix[k] + cx[k] * d;
                psix[k] = p;
                x = d * ikx[k] + p;
            } else {
                x = d;
            }
            t = SX > 0 ? x : -x;
        }
        if constexpr (SY != 0) {
            const Real d = yu[k] - yl[k];
            Real y;
            if constexpr (PY) {
                const Real p = by * psiy[k] + cy * d;
                psiy[k] = p;
                y = d * iky + p;
            } else {
                y = d;
            }
            if constexpr (SX != 0) {
                t = SY > 0 ? t + y : t - y;
            } else {
                t = SY > 0 ? y : -y;
            }
        }
        if constexpr (IS_E) {
            Real cbk, cak = 1;
            if constexpr (UNI) { cbk = cb_s; cak = ca_s; }
            else { cbk = cb[k]; if constexpr (LOSSY) cak = ca[k]; }
            if constexpr (LOSSY) f[k] = cak * f[k] + cbk * t;
            else f[k] = f[k] + cbk * t;
        } else {
            f[k] = f[k] + courant * t;
        }
    }
}

template <typename Real, int SX, int SY, bool IS_E, int FL>
void row_kernel_flags(const RowArgs<Real>& a) {
    row_kernel<Real, SX, SY, IS_E, (FL & cpu::PX) != 0, (FL & cpu::PY) != 0, IS_E && (FL & cpu::LOSSY) != 0,
               IS_E && (FL & cpu::UNIFORM) != 0>(a);
}

template <typename Real, int SX, int SY, bool IS_E, int... FL>
constexpr std::array<void (*)(const RowArgs<Real>&), sizeof...(FL)> kernel_table(std::integer_sequence<int, FL...>) {
    return {&row_kernel_flags<Real, SX, SY, IS_E, FL>...};
}

/// Runs the kernel variant for `flags` (cpu::RowFlags); H ignores LOSSY and UNIFORM.
template <typename Real, int SX, int SY, bool IS_E>
void run_row(const RowArgs<Real>& a, int flags) {
    if (a.n <= 0) return;
    if constexpr (IS_E) {
        static constexpr auto table = kernel_table<Real, SX, SY, true>(std::make_integer_sequence<int, 16>());
        table[flags & 15](a);
    } else {
        static constexpr auto table = kernel_table<Real, SX, SY, false>(std::make_integer_sequence<int, 4>());
        table[flags & 3](a);
    }
}

template <typename Real>
void run_op(RowOp op, const RowArgs<Real>& a, int flags) {
    switch (op) {
        case RowOp::Hx: run_row<Real, 0, -1, false>(a, flags); break;
        case RowOp::Hy: run_row<Real, 1, 0, false>(a, flags); break;
        case RowOp::Ez: run_row<Real, 1, -1, true>(a, flags); break;
        case RowOp::Hz: run_row<Real, -1, 1, false>(a, flags); break;
        case RowOp::Ex: run_row<Real, 0, 1, true>(a, flags); break;
        case RowOp::Ey: run_row<Real, -1, 0, true>(a, flags); break;
    }
}

inline void run_op_f(RowOp op, const RowArgs<float>& a, int flags) { run_op<float>(op, a, flags); }
inline void run_op_d(RowOp op, const RowArgs<double>& a, int flags) { run_op<double>(op, a, flags); }
