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
// Memory traffic per cell (Real = 4 B float / 8 B double; R = sizeof(Real)), counting
// every array stream once (the shifted neighbour XU/XL of the same array and the row
// pair YU/YL of the same array hit cache, rows of 2048 cells fit in L1/L2):
//   TMz Hx (Y only):        read Ez, Hx; write Hx                      3R   (12 B float)
//   TMz Hy (X only):        read Ez, Hy; write Hy                      3R   (12 B)
//   TMz Ez (X, Y, E):       read Hy, Hx, Ez, cb; write Ez              5R   (20 B)
//                           (+R for ca when lossy)
//   TEz Hz (X, Y):          read Ey, Ex, Hz; write Hz                  4R   (16 B)
//   TEz Ex (Y, E), Ey (X,E) read Hz, F, cb; write F                    4R each (16 B)
//   inside PML slabs add: read/write psi (2R) and the 1D profile arrays (cached).
// So one TMz step moves ~11R = 44 B per cell in float32 (plus the second read of Ez in
// the Hy pass, which comes from cache when the Hx and Hy rows are processed back to back).

/// SX, SY in {-1, 0, +1}: sign of the x / y term, 0 when the component has none.
using cpu::RowArgs;
using cpu::RowOp;

template <typename Real, int SX, int SY, bool IS_E, bool PX, bool PY, bool LOSSY>
void row_kernel(const RowArgs<Real>& a) {
    const int n = a.n;
    Real* __restrict f = a.f;
    const Real* __restrict ca = a.ca;
    const Real* __restrict cb = a.cb;
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
            if constexpr (LOSSY) f[k] = ca[k] * f[k] + cb[k] * t;
            else f[k] = f[k] + cb[k] * t;
        } else {
            f[k] = f[k] + courant * t;
        }
    }
}

template <typename Real, int SX, int SY, bool IS_E>
void run_row(const RowArgs<Real>& a, bool px, bool py, bool lossy) {
    if (a.n <= 0) return;
    if (lossy && IS_E) {
        if (px) { if (py) row_kernel<Real, SX, SY, IS_E, true, true, true>(a);
                  else    row_kernel<Real, SX, SY, IS_E, true, false, true>(a); }
        else    { if (py) row_kernel<Real, SX, SY, IS_E, false, true, true>(a);
                  else    row_kernel<Real, SX, SY, IS_E, false, false, true>(a); }
    } else {
        if (px) { if (py) row_kernel<Real, SX, SY, IS_E, true, true, false>(a);
                  else    row_kernel<Real, SX, SY, IS_E, true, false, false>(a); }
        else    { if (py) row_kernel<Real, SX, SY, IS_E, false, true, false>(a);
                  else    row_kernel<Real, SX, SY, IS_E, false, false, false>(a); }
    }
}

template <typename Real>
void run_op(RowOp op, const RowArgs<Real>& a, bool px, bool py, bool lossy) {
    switch (op) {
        case RowOp::Hx: run_row<Real, 0, -1, false>(a, px, py, lossy); break;
        case RowOp::Hy: run_row<Real, 1, 0, false>(a, px, py, lossy); break;
        case RowOp::Ez: run_row<Real, 1, -1, true>(a, px, py, lossy); break;
        case RowOp::Hz: run_row<Real, -1, 1, false>(a, px, py, lossy); break;
        case RowOp::Ex: run_row<Real, 0, 1, true>(a, px, py, lossy); break;
        case RowOp::Ey: run_row<Real, -1, 0, true>(a, px, py, lossy); break;
    }
}

inline void run_op_f(RowOp op, const RowArgs<float>& a, bool px, bool py, bool lossy) {
    run_op<float>(op, a, px, py, lossy);
}
inline void run_op_d(RowOp op, const RowArgs<double>& a, bool px, bool py, bool lossy) {
    run_op<double>(op, a, px, py, lossy);
}
