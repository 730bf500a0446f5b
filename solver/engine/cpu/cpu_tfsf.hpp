// GoLightly CPU engine extension: total-field / scattered-field plane waves (scene.hpp
// "TF/SF", TfsfSource), 2D (TMz, TEz) and 3D. Private to the solver library.
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
// and -1 for the lower node of the difference. The corrections are listed once at
// construction (every node, component and derivative axis whose stencil straddles a face:
// the six faces, their edges and corners in 3D, the four sides in 2D), filed under their
// rows and added in the row phases right after the H sources (H) and the E sources (E).
//
// The incident wave: E_inc along e_component (axis ae), H~_inc along ah (the third axis),
// both functions of the position along `axis` only. They come from a 1D auxiliary line on
// the same dx, dt and S, which is exactly the main update for fields that vary along
// `axis` only:
//   h[m] += S * s_h * (e[m+1] - e[m])            (H~_ah at axis position p_first + m + 1/2)
//   e[m]  = ca e[m] + cb * s_e * (h[m] - h[m-1])   (E_ae at axis position p_first + m)
// with s_h, s_e the signs of the d_axis terms of H_ah and E_ae and ca, cb the table entry of
// E_ae at the box's lo corner (the background the faces sit in). Its numerical dispersion
// equals the main grid's for propagation along an axis, so the fields cancel outside the box
// to rounding (leakage ~1e-31 of the incident energy in float64). Line: the hard source
// e = waveform.value(t - delay_s) at t = (n+1) dt on the node 3 cells before the box (axis
// position lo - 3 for sign +1, hi + 3 for sign -1), the box, 3 cells beyond it, then a
// 48-cell matched absorber (electric and magnetic loss l = 0.25 (d/48)^3 per half step,
// equal for e and h, so the layer is matched) ended by E = 0. The line is stepped once per
// step in before_step: e^n is saved (the H corrections of the step use E_inc^n), then h to
// n+1/2 (the E corrections use H_inc^{n+1/2}), then e to n+1.
//
// Traffic per correction and step: the field value read and written (2R) and the entry
// (cell, component, line index, coefficient: 16 B + R).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cpu_extensions.hpp"
#include "golightly/errors.hpp"
#include "golightly/scene.hpp"

namespace golightly::cpu {

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

template <typename Real>
class Tfsf final : public Extension<Real> {
public:
    static constexpr int kMargin = 3;     ///< line cells before and after the box
    static constexpr int kAbsorber = 48;  ///< matched absorber cells at the far end
    static constexpr double kLossMax = 0.25;

    /// Validates Scene::tfsf and lists the corrections. Throws RunError naming tfsf[k] and
    /// the field for: an axis outside the grid's dimensions, a sign other than +-1, an E
    /// component that is not electric, lies along the axis, or is missing in this 2D
    /// polarization; lo > hi; a box (with one cell of margin) reaching into a PML slab or
    /// beyond the grid (a periodic axis may be spanned completely instead, not the
    /// propagation axis).
    Tfsf(const Scene& sc, const bool (&has)[6]) : nx_(sc.nx), rows_(grid_rows(sc)) {
        const bool three = sc.dimensions == 3;
        const int dims = three ? 3 : 2;
        const std::int64_t n[3] = {sc.nx, sc.ny, three ? sc.nz : 1};
        std::vector<Corr> hc, ec;
        for (std::size_t s = 0; s < sc.tfsf.size(); ++s) {
            const TfsfSource& t = sc.tfsf[s];
            const std::string where = "CPU engine: tfsf[" + std::to_string(s) + "]";
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
            Line L;
            L.src = s;
            bool full[3] = {false, false, false};
            std::int64_t lo[3], hi[3];
            for (int d = 0; d < 3; ++d) {
                lo[d] = t.lo[d];
                hi[d] = t.hi[d];
            }
            for (int d = 0; d < dims; ++d) {
                const std::string ax = std::string(1, "xyz"[d]);
                if (lo[d] > hi[d]) throw RunError(where + ": lo[" + ax + "] > hi[" + ax + "]");
                if (sc.boundary[d] == BoundaryKind::Periodic && lo[d] <= 0 && hi[d] >= n[d] - 1) {
                    if (d == a) throw RunError(where + ": the box spans the periodic propagation axis " + ax);
                    full[d] = true;
                    continue;
                }
                if (lo[d] - 1 < sc.pml_lo[d] || hi[d] + 1 > n[d] - 1 - sc.pml_hi[d])
                    throw RunError(where + ": the box " + ax + " range [" + std::to_string(lo[d]) + ", " +
                                   std::to_string(hi[d]) + "] with one cell of margin must lie inside the grid and "
                                   "outside the PML (cells " + std::to_string(sc.pml_lo[d]) + " .. " +
                                   std::to_string(n[d] - 1 - sc.pml_hi[d]) + ")");
            }
            // The 1D line and its coefficients.
            const std::int64_t len = hi[a] - lo[a] + 2 * kMargin + kAbsorber + 1;
            L.p_first = t.sign > 0 ? lo[a] - kMargin : lo[a] - kMargin - kAbsorber;
            L.m_src = t.sign > 0 ? 0 : len - 1;
            L.offset = line_size_;
            line_size_ += std::size_t(len);
            double ca = 1.0, cb = sc.courant;
            {
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
            L.s_e = kCurl[ce].s[a];
            L.s_h = kCurl[ch].s[a];
            L.len = len;
            L.ea.resize(len);
            L.eb.resize(len);
            L.ha.resize(len);
            L.hb.resize(len);
            const double abs_start = t.sign > 0 ? double(L.p_first + len - 1 - kAbsorber) : 0.0;
            const double abs_end = t.sign > 0 ? 0.0 : double(L.p_first + kAbsorber);
            auto loss = [&](double x) {
                double d = t.sign > 0 ? x - abs_start : abs_end - x;
                d = std::clamp(d / kAbsorber, 0.0, 1.0);
                return kLossMax * d * d * d;
            };
            for (std::int64_t m = 0; m < len; ++m) {
                const double le = loss(double(L.p_first + m)), lh = loss(double(L.p_first + m) + 0.5);
                L.ea[m] = ca * (1 - le) / (1 + le);
                L.eb[m] = cb * L.s_e / (1 + le);
                L.ha[m] = (1 - lh) / (1 + lh);
                L.hb[m] = S * L.s_h / (1 + lh);
            }
            lines_.push_back(std::move(L));
            const Line& line = lines_.back();

            // The corrections: every node of every component near the box whose stencil
            // reads an incident component across the boundary.
            auto inside = [&](const std::int64_t* p2) {
                for (int d = 0; d < dims; ++d)
                    if (!full[d] && (p2[d] < 2 * lo[d] || p2[d] > 2 * hi[d])) return false;
                return true;
            };
            std::int64_t r0[3], r1[3];
            for (int d = 0; d < 3; ++d) {
                if (d >= dims) { r0[d] = 0; r1[d] = 0; continue; }
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
                                    Corr c;
                                    c.cell = (k * n[1] + j) * n[0] + i;
                                    c.component = F;
                                    c.line = std::int32_t(line.offset + std::size_t(m));
                                    c.sign = double((in_q ? 1 : -1) * kCurl[F].s[d] * (up ? 1 : -1));
                                    (f_is_e ? ec : hc).push_back(c);
                                }
                            }
                        }
                }
            }
        }
        e_.assign(line_size_, 0.0);
        e_old_.assign(line_size_, 0.0);
        h_.assign(line_size_, 0.0);
        file(hc, h_corr_, h_row_);
        file(ec, e_corr_, e_row_);
        materials_changed(sc);
    }

    bool empty() const { return lines_.empty(); }
    unsigned phases() const override { return BeforeStep | AfterHRow | AfterERow; }
    double bytes_per_step() const override {
        return double(h_corr_.size() + e_corr_.size()) * (2.0 * sizeof(Real) + 16.0 + sizeof(Real)) +
               double(line_size_) * 10.0 * sizeof(double);
    }

    /// E corrections carry the cell's cb (follows live edits); H corrections carry S.
    void materials_changed(const Scene& sc) override {
        for (Corr& c : h_corr_) c.coef = Real(c.sign * sc.courant);
        for (Corr& c : e_corr_) {
            const auto& idx = sc.material_index[c.component];
            const double cb = std::size_t(c.cell) < idx.size() ? sc.table[idx[std::size_t(c.cell)]].cb : sc.courant;
            c.coef = Real(c.sign * cb);
        }
    }

    /// Steps every incident line from n to n+1 (e^n saved for this step's H corrections).
    void before_step(const StepContext<Real>& ctx) override {
        const double t_next = double(ctx.step + 1) * ctx.scene->dt_s;
        std::copy(e_.begin(), e_.end(), e_old_.begin());
        for (const Line& L : lines_) {
            double* e = e_.data() + L.offset;
            double* h = h_.data() + L.offset;
            const std::int64_t len = L.len;
            for (std::int64_t m = 0; m < len; ++m) h[m] = L.ha[m] * h[m] + L.hb[m] * ((m + 1 < len ? e[m + 1] : 0.0) - e[m]);
            for (std::int64_t m = 0; m < len; ++m) e[m] = L.ea[m] * e[m] + L.eb[m] * (h[m] - (m > 0 ? h[m - 1] : 0.0));
            const TfsfSource& t = ctx.scene->tfsf[L.src];
            e[L.m_src] = t.waveform.value(t_next - t.delay_s);
        }
    }
    void after_h_row(const StepContext<Real>& ctx, int r) override { apply(ctx, h_corr_, h_row_, e_old_, r); }
    void after_e_row(const StepContext<Real>& ctx, int r) override { apply(ctx, e_corr_, e_row_, h_, r); }

    /// The incident E (at t = n dt after n steps) along the line of source s, by axis position
    /// p: 0 outside the line (tests).
    double incident_e(std::size_t s, std::int64_t p) const {
        const Line& L = lines_.at(s);
        const std::int64_t m = p - L.p_first;
        return m >= 0 && m < L.len ? e_[L.offset + std::size_t(m)] : 0.0;
    }

private:
    struct Line {
        std::size_t src = 0;
        std::int64_t p_first = 0, len = 0, m_src = 0;
        std::size_t offset = 0;
        int s_e = 1, s_h = 1;
        std::vector<double> ea, eb, ha, hb;
    };
    struct Corr {
        CellIndex cell = 0;
        int component = 0;
        std::int32_t line = 0;
        double sign = 0;
        Real coef = 0;
    };
    void file(std::vector<Corr>& v, std::vector<Corr>& out, std::vector<std::size_t>& rows) {
        std::stable_sort(v.begin(), v.end(), [&](const Corr& x, const Corr& y) { return x.cell < y.cell; });
        out = std::move(v);
        rows.assign(std::size_t(rows_) + 1, 0);
        for (const Corr& c : out) rows[std::size_t(c.cell / nx_) + 1]++;
        for (int j = 0; j < rows_; ++j) rows[j + 1] += rows[j];
    }
    static void apply(const StepContext<Real>& ctx, const std::vector<Corr>& corr, const std::vector<std::size_t>& rows,
                      const std::vector<double>& inc, int r) {
        for (std::size_t k = rows[r]; k < rows[r + 1]; ++k) {
            const Corr& c = corr[k];
            ctx.field[c.component][c.cell] += c.coef * Real(inc[std::size_t(c.line)]);
        }
    }
    int nx_ = 0, rows_ = 0;
    std::vector<Line> lines_;
    std::size_t line_size_ = 0;
    std::vector<double> e_, e_old_, h_;
    std::vector<Corr> h_corr_, e_corr_;
    std::vector<std::size_t> h_row_, e_row_;
};

}  // namespace golightly::cpu
