// GoLightly engines: the TF/SF plan (scene.hpp "TF/SF", TfsfSource), shared by the CPU
// extension (engine/cpu/cpu_tfsf.hpp) and the CUDA engines (engine/cuda/cuda_tfsf.cuh):
// the 1D incident lines with their coefficients and the list of corrections. Header-only
// (the CUDA library links neither the CPU engine nor this header's users).
//
// Method (Taflove & Hagness 3rd ed. sec. 5.8-5.10; Schneider, "Understanding the FDTD
// method", sec. 3.10-3.12 (1D), 5.9 (2D) and 9.4 (3D)): each Yee node is in the total-field
// region when its position p (in index units, half-integer where the component is
// staggered) satisfies lo[a] <= p[a] <= hi[a] on every axis a (2D: x and y). Every update
// whose curl stencil reads a node on the other side of that boundary is corrected by the
// incident field of that node:
//   node total, neighbour scattered:  add the incident value where the neighbour enters
//   node scattered, neighbour total:  subtract it
// i.e. F += coef * s_d * c' * (+-) G_inc(neighbour), with coef = S for H and the cell's cb
// for E, s_d the sign of the derivative term (scene.hpp "3D scenes"), c' = +1 for the upper
// and -1 for the lower node of the difference. The corrections are listed once (every
// node, component and derivative axis whose stencil straddles a face: the six faces, their
// edges and corners in 3D, the four sides in 2D); engines add them right after the H
// sources (H, with E_inc^n) and the E sources (E, with H_inc^{n+1/2}).
//
// The incident wave: E_inc along e_component (axis ae), H~_inc along ah (the third axis),
// both functions of the position along `axis` only. They come from a 1D auxiliary line on
// the same dx, dt and S, which is exactly the main update for fields that vary along
// `axis` only:
//   h[m] = ha[m] h[m] + hb[m] (e[m+1] - e[m])      (H~_ah at axis position p_first + m + 1/2)
//   e[m] = ea[m] e[m] + eb[m] (h[m] - h[m-1])      (E_ae at axis position p_first + m)
// with hb = S s_h, eb = cb s_e inside the line (s_h, s_e the signs of the d_axis terms of
// H_ah and E_ae; ca, cb the table entry of E_ae at the box's lo corner, the background the
// faces sit in). Its numerical dispersion equals the main grid's for propagation along an
// axis, so the fields cancel outside the box to rounding (leakage ~1e-31 of the incident
// energy in float64). Line: the hard source e = waveform.value(t - delay_s) at t = (n+1) dt
// on the node 3 cells before the box (axis position lo - 3 for sign +1, hi + 3 for sign
// -1), the box, 3 cells beyond it, then a 48-cell matched absorber (electric and magnetic
// loss l = 0.25 (d/48)^3 per half step, equal for e and h, so the layer is matched) ended
// by E = 0 (e beyond the last node and h before the first read as 0). Each step, before
// the H update: e^n is saved (the H corrections of the step use E_inc^n), then h to n+1/2
// (the E corrections use H_inc^{n+1/2}), then e to n+1, then the hard source.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "golightly/errors.hpp"
#include "golightly/scene.hpp"

namespace golightly {

/// The curl stencil of each component (index Component: Ex, Ey, Ez, Hx, Hy, Hz), scene.hpp
/// "3D scenes": the sign s[d] of the difference along x, y, z and the component g[d]
/// differentiated (-1: none):
///   H += S * sum_d s[d] (G(idx + e_d) - G(idx)),  E = ca E + cb sum_d s[d] (G(idx) - G(idx - e_d)).
/// The 2D updates are the x, y terms of the same table.
struct CurlStencil {
    int s[3];
    int g[3];
};
inline constexpr CurlStencil kCurl[6] = {
    {{0, 1, -1}, {-1, 5, 4}},   // Ex += cb [d_y Hz - d_z Hy]
    {{-1, 0, 1}, {5, -1, 3}},   // Ey += cb [d_z Hx - d_x Hz]
    {{1, -1, 0}, {4, 3, -1}},   // Ez += cb [d_x Hy - d_y Hx]
    {{0, -1, 1}, {-1, 2, 1}},   // Hx -= S [d_y Ez - d_z Ey]
    {{1, 0, -1}, {2, -1, 0}},   // Hy -= S [d_z Ex - d_x Ez]
    {{-1, 1, 0}, {1, 0, -1}},   // Hz -= S [d_x Ey - d_y Ex]
};

/// Twice the Yee offset of component c along axis a (grid.hpp yee_offset): E_c is staggered
/// along its own axis, H_c along the two others.
inline int yee_offset2(int c, int a) { return c < 3 ? (a == c ? 1 : 0) : (a == c - 3 ? 0 : 1); }

/// The incident line of one TfsfSource (file comment): `len` nodes at axis positions
/// p_first .. p_first + len - 1, its values at offset .. offset + len - 1 of the engine's
/// concatenated line arrays, the hard source at node m_src, and per node the update
/// coefficients (double).
struct TfsfLine {
    std::size_t src = 0;  ///< index into Scene::tfsf
    std::int64_t p_first = 0, len = 0, m_src = 0;
    std::size_t offset = 0;
    std::vector<double> ea, eb, ha, hb;
};

/// One correction: field[component][cell] += coef(sign) * incident[line], coef = sign * S
/// for H components, sign * cb(cell) for E components (cb of the cell's table entry).
struct TfsfCorrection {
    CellIndex cell = 0;
    int component = 0;   ///< Component index 0..5 (Ex..Hz)
    std::int32_t line = 0;  ///< index into the concatenated line arrays (E_inc for H, H~_inc for E)
    double sign = 0;     ///< +-1 (several corrections may name one cell: edges, corners)
};

struct TfsfPlan {
    std::vector<TfsfLine> lines;
    std::size_t line_size = 0;           ///< total nodes of all lines
    std::vector<TfsfCorrection> h, e;    ///< H and E corrections, stably sorted by cell
};

/// The plan of every Scene::tfsf source. has[c]: the components the engine steps (3D all;
/// 2D those of the polarization). `engine` names the engine in errors. Throws RunError
/// naming tfsf[k] and the field for: an axis outside the grid's dimensions, a sign other
/// than +-1, an E component that is not electric, lies along the axis, or is missing in
/// this 2D polarization; lo > hi; a box (with one cell of margin) reaching into a PML slab
/// or beyond the grid (a periodic axis may be spanned completely instead, not the
/// propagation axis).
inline TfsfPlan make_tfsf_plan(const Scene& sc, const bool (&has)[6], const std::string& engine) {
    constexpr int kMargin = 3;     // line cells before and after the box
    constexpr int kAbsorber = 48;  // matched absorber cells at the far end
    constexpr double kLossMax = 0.25;
    TfsfPlan plan;
    const bool three = sc.dimensions == 3;
    const int dims = three ? 3 : 2;
    // Plans are made in global coordinates: a subdomain scene (Scene::window, partition.hpp)
    // checks the box against the global grid and keeps the corrections on its own planes.
    const GridWindow& win = sc.window;
    const std::int64_t nl[3] = {sc.nx, sc.ny, three ? sc.nz : 1};  // local cells per axis
    std::int64_t n[3] = {nl[0], nl[1], nl[2]};                       // global cells per axis
    int pml_lo[3] = {sc.pml_lo[0], sc.pml_lo[1], sc.pml_lo[2]}, pml_hi[3] = {sc.pml_hi[0], sc.pml_hi[1], sc.pml_hi[2]};
    BoundaryKind boundary[3] = {sc.boundary[0], sc.boundary[1], sc.boundary[2]};
    if (win.active) {
        n[win.axis] = win.global_n;
        pml_lo[win.axis] = win.global_pml_lo;
        pml_hi[win.axis] = win.global_pml_hi;
        boundary[win.axis] = win.global_boundary;
    }
    for (std::size_t s = 0; s < sc.tfsf.size(); ++s) {
        const TfsfSource& t = sc.tfsf[s];
        const std::string where = engine + ": tfsf[" + std::to_string(s) + "]";
        const int a = t.axis;
        if (a < 0 || a >= dims)
            throw RunError(where + ".axis = " + std::to_string(a) + " must be 0.." + std::to_string(dims - 1));
        if (t.sign != 1 && t.sign != -1) throw RunError(where + ".sign must be +1 or -1");
        const int ce = int(t.e_component);
        if (ce > 2) throw RunError(where + ".e_component must be Ex, Ey or Ez");
        const int ae = component_axis(t.e_component);
        if (ae == a) throw RunError(where + ".e_component lies along the propagation axis");
        const int ah = 3 - a - ae;
        const int ch = 3 + ah;
        if (!has[ce] || !has[ch])
            throw RunError(where + ": the plane wave (" + component_name(t.e_component) + ", " +
                           component_name(Component(ch)) + ") needs components this polarization lacks");
        TfsfLine L;
        L.src = s;
        bool full[3] = {false, false, false};
        std::int64_t lo[3], hi[3];
        for (int d = 0; d < 3; ++d) {
            lo[d] = t.lo[d];
            hi[d] = t.hi[d];
        }
        for (int d = 0; d < dims; ++d) {
            const std::string ax = std::string(1, "xyz"[d]);
            if (t.open_lo[d]) {  // a mirror plane below the grid: no lower face (scene.hpp TfsfSource)
                if (d == a) throw RunError(where + ": the box is open along its propagation axis " + ax);
                lo[d] = -2 * n[d] - 4;  // below every node and every correction's neighbour
                if (hi[d] + 1 > n[d] - 1 - pml_hi[d])
                    throw RunError(where + ": the box's upper " + ax + " face " + std::to_string(hi[d]) +
                                   " with one cell of margin must lie outside the PML (below cell " +
                                   std::to_string(n[d] - 1 - pml_hi[d]) + ")");
                continue;
            }
            if (lo[d] > hi[d]) throw RunError(where + ": lo[" + ax + "] > hi[" + ax + "]");
            if (boundary[d] == BoundaryKind::Periodic && lo[d] <= 0 && hi[d] >= n[d] - 1) {
                if (d == a) throw RunError(where + ": the box spans the periodic propagation axis " + ax);
                full[d] = true;
                continue;
            }
            if (lo[d] - 1 < pml_lo[d] || hi[d] + 1 > n[d] - 1 - pml_hi[d])
                throw RunError(where + ": the box " + ax + " range [" + std::to_string(lo[d]) + ", " +
                               std::to_string(hi[d]) + "] with one cell of margin must lie inside the grid and "
                               "outside the PML (cells " + std::to_string(pml_lo[d]) + " .. " +
                               std::to_string(n[d] - 1 - pml_hi[d]) + ")");
        }
        // The 1D line and its coefficients.
        const std::int64_t len = hi[a] - lo[a] + 2 * kMargin + kAbsorber + 1;
        L.p_first = t.sign > 0 ? lo[a] - kMargin : lo[a] - kMargin - kAbsorber;
        L.m_src = t.sign > 0 ? 0 : len - 1;
        L.offset = plan.line_size;
        plan.line_size += std::size_t(len);
        double ca = 1.0, cb = sc.courant;
        if (std::isfinite(t.line_ca) && std::isfinite(t.line_cb)) {
            ca = t.line_ca;
            cb = t.line_cb;
        } else if (!win.active) {
            std::int64_t corner[3] = {0, 0, 0};
            for (int d = 0; d < dims; ++d) corner[d] = full[d] ? 0 : lo[d];
            const std::size_t cell = std::size_t((corner[2] * n[1] + corner[1]) * n[0] + corner[0]);
            const auto& idx = sc.material_index[ce];
            if (cell < idx.size() && idx[cell] < sc.table.size()) {
                ca = sc.table[idx[cell]].ca;
                cb = sc.table[idx[cell]].cb;
            }
        }
        const double S = sc.courant;
        const int s_e = kCurl[ce].s[a], s_h = kCurl[ch].s[a];
        L.len = len;
        L.ea.resize(std::size_t(len));
        L.eb.resize(std::size_t(len));
        L.ha.resize(std::size_t(len));
        L.hb.resize(std::size_t(len));
        const double abs_start = t.sign > 0 ? double(L.p_first + len - 1 - kAbsorber) : 0.0;
        const double abs_end = t.sign > 0 ? 0.0 : double(L.p_first + kAbsorber);
        auto loss = [&](double x) {
            double d = t.sign > 0 ? x - abs_start : abs_end - x;
            d = std::clamp(d / kAbsorber, 0.0, 1.0);
            return kLossMax * d * d * d;
        };
        for (std::int64_t m = 0; m < len; ++m) {
            const double le = loss(double(L.p_first + m)), lh = loss(double(L.p_first + m) + 0.5);
            L.ea[std::size_t(m)] = ca * (1 - le) / (1 + le);
            L.eb[std::size_t(m)] = cb * s_e / (1 + le);
            L.ha[std::size_t(m)] = (1 - lh) / (1 + lh);
            L.hb[std::size_t(m)] = S * s_h / (1 + lh);
        }
        plan.lines.push_back(std::move(L));
        const TfsfLine& line = plan.lines.back();

        // The corrections: every node of every component near the box whose stencil
        // reads an incident component across the boundary.
        auto inside = [&](const std::int64_t* p2) {
            for (int d = 0; d < dims; ++d)
                if (!full[d] && (p2[d] < 2 * lo[d] || p2[d] > 2 * hi[d])) return false;
            return true;
        };
        std::int64_t r0[3], r1[3];
        for (int d = 0; d < 3; ++d) {
            if (d >= dims) {
                r0[d] = 0;
                r1[d] = 0;
                continue;
            }
            r0[d] = full[d] ? 0 : std::max<std::int64_t>(0, lo[d] - 2);
            r1[d] = full[d] ? n[d] - 1 : std::min<std::int64_t>(n[d] - 1, hi[d] + 2);
        }
        auto interior = [&](int d, std::int64_t i) {
            return d >= dims || full[d] || (i >= lo[d] + 2 && i <= hi[d] - 2);
        };
        std::vector<std::int64_t> band, all;
        for (std::int64_t i = r0[0]; i <= r1[0]; ++i) {
            all.push_back(i);
            if (!full[0] && (i <= lo[0] + 2 || i >= hi[0] - 2)) band.push_back(i);
        }
        for (int F = 0; F < 6; ++F) {
            if (!has[F]) continue;
            const bool f_is_e = F < 3;
            for (int d = 0; d < dims; ++d) {
                const int G = kCurl[F].g[d];
                if (kCurl[F].s[d] == 0 || (G != ce && G != ch)) continue;
                for (std::int64_t k = r0[2]; k <= r1[2]; ++k)
                    for (std::int64_t j = r0[1]; j <= r1[1]; ++j) {
                        const bool row_inner = interior(1, j) && interior(2, k);
                        const std::vector<std::int64_t>& is = row_inner ? band : all;
                        for (std::int64_t i : is) {
                            const std::int64_t idx[3] = {i, j, k};
                            std::int64_t p2[3], q2[3];
                            for (int b = 0; b < 3; ++b) p2[b] = 2 * idx[b] + yee_offset2(F, b);
                            const bool in_q = inside(p2);
                            for (int up = 0; up < 2; ++up) {
                                std::int64_t nb[3] = {i, j, k};
                                if (f_is_e) nb[d] -= up ? 0 : 1;
                                else nb[d] += up ? 1 : 0;
                                for (int b = 0; b < 3; ++b) q2[b] = 2 * nb[b] + yee_offset2(G, b);
                                if (inside(q2) == in_q) continue;
                                const std::int64_t m = nb[a] - line.p_first;
                                if (m < 0 || m >= line.len)
                                    throw RunError(where + ": internal error, incident line too short");
                                TfsfCorrection c;
                                std::int64_t loc[3] = {i, j, k};
                                if (win.active) {
                                    loc[win.axis] = win.local_plane(loc[win.axis], nl[win.axis]);
                                    if (loc[win.axis] < 0) continue;  // another subdomain's plane
                                }
                                c.cell = (loc[2] * nl[1] + loc[1]) * nl[0] + loc[0];
                                c.component = F;
                                c.line = std::int32_t(line.offset + std::size_t(m));
                                c.sign = double((in_q ? 1 : -1) * kCurl[F].s[d] * (up ? 1 : -1));
                                (f_is_e ? plan.e : plan.h).push_back(c);
                            }
                        }
                    }
            }
        }
    }
    auto by_cell = [](const TfsfCorrection& x, const TfsfCorrection& y) { return x.cell < y.cell; };
    std::stable_sort(plan.h.begin(), plan.h.end(), by_cell);
    std::stable_sort(plan.e.begin(), plan.e.end(), by_cell);
    return plan;
}

}  // namespace golightly
