// GoLightly CPU engine: the row kernel of the 3D Yee update (scene.hpp "3D scenes").
// Included by engine_cpu3d.cpp several times, each time inside its own namespace and, for
// the AVX2 variant, under `#pragma GCC target`, so that one source gives one code path per
// instruction set (chosen at run time). No include guard on purpose; the caller includes
// <array>, <cstddef> and <utility> first and defines cpu::RowArgs3 (cpu_kernels3d.hpp).
//
// One call updates n consecutive cells of one x row (fixed j, k) of one component F:
//   t  = SX * X + SY * Y + SZ * Z
//   X  = (XU[q] - XL[q]) * ikx[q] + psix[q]    psix = bx[q] psix + cx[q] (XU - XL)   (per cell)
//   Y  = (YU[q] - YL[q]) * iky    + psiy[q]    psiy = by psiy + cy (YU - YL)         (row scalars)
//   Z  = (ZU[q] - ZL[q]) * ikz    + psiz[q]    psiz = bz psiz + cz (ZU - ZL)         (row scalars)
//   H: F[q] += S * t;   E: F[q] = ca[q] F[q] + cb[q] t   (ca omitted when lossless; scalars
//      ca_s, cb_s when the row has one material: UNIFORM)
// Without PX (PY, PZ) that term is the bare difference (inv_kappa = 1, psi = 0). All
// branches are `if constexpr`: the loop body is branch-free and vectorizes.
//
// Memory traffic per cell and step of the fused sweep (engine_cpu3d.cpp, R = sizeof(Real)),
// each array stream counted once:
//   H row (j, k):  read Hx, Hy, Hz and write them (6R); read the E rows (j, k) [Ex, Ey, Ez],
//                  (j+1, k) [Ex, Ez] and (j, k+1) [Ex, Ey]: the (j+1, k) rows are the next
//                  row of the same slab (L1/L2), the (j, k+1) rows the same row of the next
//                  slab, first touched here and reused as the current row one slab later
//                  (a slab of 6 fields and 3 cb arrays is 9 R nx ny: 576 KiB at 128^2 in
//                  float32, so it stays in L2 on most cores and in L3 on all).
//   E row (j, k):  read Ex, Ey, Ez (already in cache from the H row) and write them (3R
//                  written), read cb of the three components (3R; 0 in UNIFORM rows), ca too
//                  when lossy (3R); the H rows (j, k) (just written), (j-1, k) (previous row)
//                  and (j, k-1) (previous slab) come from cache.
//   -> per cell: 6 fields read once and written once, 12 R, + 3 R of cb = 15 R = 60 B in
//      float32 (48 B in uniform rows), 120 B / 96 B in float64; lossy: + 3 R.
//   inside CPML slabs: + read and write of each psi of the slab's axis (2R per psi; four
//   psi per axis); the 1D profiles are cached. The E rows (j, k+1) and H rows (j, k-1) are
//   a second stream where a slab does not fit the caches: then ~+6R.

using cpu::RowArgs3;

template <typename Real, int SX, int SY, int SZ, bool IS_E, bool PX, bool PY, bool PZ, bool LOSSY, bool UNI>
void row_kernel3(const RowArgs3<Real>& a) {
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
    const Real* __restrict zu = a.zu;
    const Real* __restrict zl = a.zl;
    const Real ikz = a.ikz, bz = a.bz, cz = a.cz;
    Real* __restrict psiz = a.psiz;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
    for (int q = 0; q < n; ++q) {
        Real t = 0;
        if constexpr (SX != 0) {
            const Real d = xu[q] - xl[q];
            Real x;
            if constexpr (PX) {
                const Real p = bx[q] * psix[q] + cx[q] * d;
                psix[q] = p;
                x = d * ikx[q] + p;
            } else {
                x = d;
            }
            t = SX > 0 ? x : -x;
        }
        if constexpr (SY != 0) {
            const Real d = yu[q] - yl[q];
            Real y;
            if constexpr (PY) {
                const Real p = by * psiy[q] + cy * d;
                psiy[q] = p;
                y = d * iky + p;
            } else {
                y = d;
            }
            if constexpr (SX != 0) t = SY > 0 ? t + y : t - y;
            else t = SY > 0 ? y : -y;
        }
        if constexpr (SZ != 0) {
            const Real d = zu[q] - zl[q];
            Real z;
            if constexpr (PZ) {
                const Real p = bz * psiz[q] + cz * d;
                psiz[q] = p;
                z = d * ikz + p;
            } else {
                z = d;
            }
            t = SZ > 0 ? t + z : t - z;  // every 3D component has two terms: t is set here
        }
        if constexpr (IS_E) {
            Real cbq, caq = 1;
            if constexpr (UNI) { cbq = cb_s; caq = ca_s; }
            else { cbq = cb[q]; if constexpr (LOSSY) caq = ca[q]; }
            if constexpr (LOSSY) f[q] = caq * f[q] + cbq * t;
            else f[q] = f[q] + cbq * t;
        } else {
            f[q] = f[q] + courant * t;
        }
    }
}

template <typename Real, int SX, int SY, int SZ, bool IS_E, int FL>
void row_kernel3_flags(const RowArgs3<Real>& a) {
    row_kernel3<Real, SX, SY, SZ, IS_E, (FL & cpu::PX3) != 0, (FL & cpu::PY3) != 0, (FL & cpu::PZ3) != 0,
                IS_E && (FL & cpu::LOSSY3) != 0, IS_E && (FL & cpu::UNIFORM3) != 0>(a);
}

template <typename Real, int SX, int SY, int SZ, bool IS_E, int... FL>
constexpr std::array<void (*)(const RowArgs3<Real>&), sizeof...(FL)> kernel3_table(
    std::integer_sequence<int, FL...>) {
    return {&row_kernel3_flags<Real, SX, SY, SZ, IS_E, FL>...};
}

template <typename Real, int SX, int SY, int SZ, bool IS_E>
void run_row3(const RowArgs3<Real>& a, int flags) {
    if (a.n <= 0) return;
    if constexpr (IS_E) {
        static constexpr auto table = kernel3_table<Real, SX, SY, SZ, true>(std::make_integer_sequence<int, 32>());
        table[flags & 31](a);
    } else {
        static constexpr auto table = kernel3_table<Real, SX, SY, SZ, false>(std::make_integer_sequence<int, 8>());
        table[flags & 7](a);
    }
}

/// Component c (Component order Ex, Ey, Ez, Hx, Hy, Hz) with the signs of scene.hpp:
///   Hx -= S [d_y Ez - d_z Ey]   Hy -= S [d_z Ex - d_x Ez]   Hz -= S [d_x Ey - d_y Ex]
///   Ex += cb [d_y Hz - d_z Hy]  Ey += cb [d_z Hx - d_x Hz]  Ez += cb [d_x Hy - d_y Hx]
template <typename Real>
void run_op3(int c, const RowArgs3<Real>& a, int flags) {
    switch (c) {
        case 0: run_row3<Real, 0, 1, -1, true>(a, flags); break;
        case 1: run_row3<Real, -1, 0, 1, true>(a, flags); break;
        case 2: run_row3<Real, 1, -1, 0, true>(a, flags); break;
        case 3: run_row3<Real, 0, -1, 1, false>(a, flags); break;
        case 4: run_row3<Real, 1, 0, -1, false>(a, flags); break;
        default: run_row3<Real, -1, 1, 0, false>(a, flags); break;
    }
}

inline void run_op3_f(int c, const RowArgs3<float>& a, int flags) { run_op3<float>(c, a, flags); }
inline void run_op3_d(int c, const RowArgs3<double>& a, int flags) { run_op3<double>(c, a, flags); }
