// GoLightly CPU engine: the 2D Yee update of scene.hpp (TMz and TEz, CPML, periodic /
// PEC / PMC / Mur boundaries, sources, DFT sets, time probes) in float or double.
//
// Layout: one array per field component, row-major j*nx+i (scene.hpp). Per E component
// a per-cell cb array (and ca only when some material is lossy) expanded from the
// material table, so the inner loops stream contiguous arrays without gathers.
// CPML psi arrays exist only inside the slabs: x slabs as [j][kx] with kx over the
// pml_lo + pml_hi columns, y slabs as [ky][i].
//
// Work split: a persistent team of threads (cpu_team.hpp) over rows; a thread keeps
// its block of rows across steps. Within a row the x range is cut into segments at the slab
// edges and at the boundary cell whose neighbour lies beyond the array (i = 0 for the
// E update, i = nx-1 for H); each segment runs one branch-free, vectorizable kernel
// (cpu_kernels.inl), compiled twice: baseline x86-64 and AVX2+FMA, chosen at run time.
//
// Threads: make_cpu_engine(threads > 0) uses exactly that many (at most ny); threads <= 0
// uses all cores for grids of >= 2^18 cells and one thread below that.
//
// Everything of the step beyond the bulk update (dispersion, sources, PEC / PMC / Mur
// walls, the TEz tensor couplings, DFT sets and time probes) is an extension
// (cpu_extensions.hpp) that owns its data and plugs into the phases of the step; the
// sweep calls the row phases of the extensions for each row it updates. The bulk row
// kernels carry the CPML psi updates (fused for bandwidth). field_energy() counts
// eps_inf E^2 only (no polarization energy).
//
// Complex fields (scene.hpp "Bloch-periodic axes"): the imaginary copy's state (fields,
// psi, extensions with their pole state and DFT accumulators, its scene with the sources'
// imaginary weights) lives in im_; use_copy() exchanges it with the engine's own members
// (O(1) swaps of the arrays), so both copies run through the same row code, in two passes
// (all H of both copies, then all E of both). The reads across a Bloch wrap take the
// rotated neighbour: along x the single edge value of the row (h_row / e_row), along y a
// ghost row filled before each half-step (fill_ghosts).
//
// Environment (diagnostics): GOLIGHTLY_CPU_KERNELS=generic forces the baseline kernels;
// GOLIGHTLY_CPU_UNFUSED=1 selects the two-pass step.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cpu_bloch.hpp"
#include "cpu_extensions.hpp"
#include "cpu_kernels.hpp"
#include "cpu_common.hpp"
#include "cpu_engine_base.hpp"
#include "cpu_engine_common.hpp"
#include "cpu_kernels3d.hpp"
#include "cpu_team.hpp"
#include "cpu_tfsf.hpp"
#include "golightly/colormap.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/tuning.hpp"
#include "golightly/units.hpp"

namespace golightly {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GOLIGHTLY_CPU_AVX2 1
namespace cpu_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include "cpu_kernels.inl"
#pragma GCC pop_options
}  // namespace cpu_avx2
#endif

namespace cpu_generic {
#include "cpu_kernels.inl"
}  // namespace cpu_generic

namespace {

using cpu::RowArgs;
using cpu::RowOp;
using cpu::available_memory_bytes;
using cpu::cpu_has_avx2;
using cpu::cpu_model_name;
using cpu::SkewedArray;

constexpr int ci(Component c) { return static_cast<int>(c); }

// The row kernel's entry of each precision in the AVX2 + FMA build or the baseline build
// (cpu_has_avx2 decides). engine_cpu3d.cpp's Kernel3 is the same shape over its own kernel
// namespaces: each engine file binds the two builds it compiles, so the pair stays per file.
template <typename Real>
struct KernelTable;
template <>
struct KernelTable<float> {
    static cpu::RunOpF pick(bool avx2) {
#ifdef GOLIGHTLY_CPU_AVX2
        if (avx2) return &cpu_avx2::run_op_f;
#endif
        (void)avx2;
        return &cpu_generic::run_op_f;
    }
};
template <>
struct KernelTable<double> {
    static cpu::RunOpD pick(bool avx2) {
#ifdef GOLIGHTLY_CPU_AVX2
        if (avx2) return &cpu_avx2::run_op_d;
#endif
        (void)avx2;
        return &cpu_generic::run_op_d;
    }
};

using cpu::Segment;

template <typename Real>
class CpuEngine final : public cpu::CpuEngineBase<CpuEngine<Real>, Real> {
    using Base = cpu::CpuEngineBase<CpuEngine<Real>, Real>;
    using Base::sc_, Base::threads_, Base::tune_, Base::two_pass_, Base::steps_, Base::has_, Base::field_, Base::cb_,
        Base::ca_, Base::lossy_, Base::psi_, Base::team_, Base::ext_, Base::split_, Base::im_, Base::active_,
        Base::bloch_, Base::require;

public:
    CpuEngine(SceneView scene, int threads) : Base(std::move(scene)) {
        nx_ = sc_.nx;
        ny_ = sc_.ny;
        if (nx_ <= 0 || ny_ <= 0) throw RunError("CPU engine: the scene has no cells (nx, ny must be > 0)");
        split_.configure(0, 0, ny_, 1, false);
        for (int a = 0; a < 2; ++a) {
            plo_[a] = sc_.pml_lo[a];
            phi_[a] = sc_.pml_hi[a];
            const int n = a == 0 ? nx_ : ny_;
            if (plo_[a] < 0 || phi_[a] < 0 || plo_[a] + phi_[a] > n)
                throw RunError("CPU engine: PML cells exceed the grid");
        }
        tm_ = sc_.polarization == Polarization::TMz;
        this->make_team(threads);  // small grids: one thread
        run_op_ = KernelTable<Real>::pick(cpu_has_avx2(tune_.generic_kernels));
        for (Component c : electric_components(sc_.polarization)) has_[ci(c)] = true;
        for (Component c : magnetic_components(sc_.polarization)) has_[ci(c)] = true;
        zero_row_.assign(std::size_t(nx_), Real(0));
        // Fields, the eps table and the coefficients per cell, from the material table.
        this->allocate_fields();

        // CPML profiles (identity arrays when absent).
        for (int a = 0; a < 2; ++a) prof_[a] = cpu::CpmlProfile<Real>::of(sc_.cpml[a], a == 0 ? nx_ : ny_);
        wx_ = plo_[0] + phi_[0];
        wy_ = plo_[1] + phi_[1];
        // psi per updated component and derivative axis
        const std::size_t px_size = std::size_t(wx_) * ny_, py_size = std::size_t(wy_) * nx_;
        if (tm_) {
            psi_[ci(Component::Hy)][0].assign(px_size, Real(0));
            psi_[ci(Component::Ez)][0].assign(px_size, Real(0));
            psi_[ci(Component::Hx)][1].assign(py_size, Real(0));
            psi_[ci(Component::Ez)][1].assign(py_size, Real(0));
        } else {
            psi_[ci(Component::Hz)][0].assign(px_size, Real(0));
            psi_[ci(Component::Ey)][0].assign(px_size, Real(0));
            psi_[ci(Component::Hz)][1].assign(py_size, Real(0));
            psi_[ci(Component::Ex)][1].assign(py_size, Real(0));
        }
        make_segments();
        build_uniform_map();
        // Dispersion, sources, walls, tensor couplings, monitors (validated there); Bloch.
        this->finish_construction(run_op_ != KernelTable<Real>::pick(false));
    }

    /// Traffic model of the fused single sweep (sweep()): each field value read once and
    /// written once per step (TMz Ez, Hx, Hy; TEz Ex, Ey, Hz: 6 values), plus the per-cell
    /// cb of each E component, and ca too when a material is lossy. Rows of one material
    /// skip the coefficient streams, so this is an upper bound for mixed rows. Then each
    /// extension's own passes (cpu_extensions.hpp: dispersion, sources, tensor couplings,
    /// DFT accumulators and probes), spread over the cells.
    double bytes_per_cell_update() const override {
        const double s = sizeof(Real);
        double bytes = 6 * s;
        for (Component c : electric_components(sc_.polarization)) bytes += s * (lossy_[ci(c)] ? 2 : 1);
        return bytes + ext_.bytes_per_step() / double(sc_.cells());
    }

    FieldSamples sample_field(Component c, int max_width, int max_height, bool squared) override {
        require(c);
        FieldSamples out = cpu::box_samples(nx_, ny_, max_width, max_height);
        const int fac = out.factor;
        const Real* f = field_[ci(c)].data();
        const int nx = nx_, ny = ny_, W = out.width, H = out.height;
        float* dst = out.values.data();
        // Box rows split over the team. Each grid row is added into a row accumulator of
        // the engine's precision (a whole-row, vectorizable sweep: the pass is bound by
        // reading the component once), then the row's boxes are summed once per box row.
        auto job = [&](int t) {
            long long b0, b1;
            cpu::Team::split(H, t, team_->size(), b0, b1);
            std::vector<Real> acc(static_cast<std::size_t>(nx), Real(0));
            for (int by = int(b0); by < int(b1); ++by) {
                std::fill(acc.begin(), acc.end(), Real(0));
                const int j0 = by * fac, j1 = std::min(ny, j0 + fac);
                Real* __restrict a = acc.data();
                for (int j = j0; j < j1; ++j) {
                    const Real* __restrict row = f + std::size_t(j) * nx;
                    if (squared)
                        for (int i = 0; i < nx; ++i) a[i] += row[i] * row[i];
                    else
                        for (int i = 0; i < nx; ++i) a[i] += row[i];
                }
                for (int bx = 0; bx < W; ++bx) {
                    const int i0 = bx * fac, i1 = std::min(nx, i0 + fac);
                    double sum = 0;
                    for (int i = i0; i < i1; ++i) sum += double(a[i]);
                    dst[std::size_t(by) * W + bx] = float(sum / double((i1 - i0) * (j1 - j0)));
                }
            }
        };
        team_->run(job);
        return out;
    }

    Image8 frame(const FrameRequest& req) override {
        require(req.component);
        const int maxw = std::max(1, req.max_width), maxh = std::max(1, req.max_height);
        const int fac = std::max({1, (nx_ + maxw - 1) / maxw, (ny_ + maxh - 1) / maxh});
        const int W = (nx_ + fac - 1) / fac, H = (ny_ + fac - 1) / fac;
        std::vector<double> avg(std::size_t(W) * H);
        const Real* f = field_[ci(req.component)].data();
        const int nx = nx_, ny = ny_;
        auto job = [&](int t) {
        long long b0, b1;
        cpu::Team::split(H, t, team_->size(), b0, b1);
        for (int by = int(b0); by < int(b1); ++by) {
            const int j0 = by * fac, j1 = std::min(ny, j0 + fac);
            for (int bx = 0; bx < W; ++bx) {
                const int i0 = bx * fac, i1 = std::min(nx, i0 + fac);
                double s = 0;
                for (int j = j0; j < j1; ++j)
                    for (int i = i0; i < i1; ++i) s += double(f[std::size_t(j) * nx + i]);
                avg[std::size_t(by) * W + bx] = s / double((j1 - j0) * (i1 - i0));
            }
        }
        };
        team_->run(job);
        return cpu::diverging_frame(avg, W, H, req.scale, req.viewport_alpha);
    }

private:
    bool in_slab(int axis, int i) const {
        const int n = axis == 0 ? nx_ : ny_;
        return i < plo_[axis] || i >= n - phi_[axis];
    }
    int slab_index(int axis, int i) const {
        const int n = axis == 0 ? nx_ : ny_;
        return i < plo_[axis] ? i : plo_[axis] + i - (n - phi_[axis]);
    }

    void make_segments() {
        seg_e_ = cpu::row_segments({1, plo_[0], nx_ - phi_[0]}, nx_, plo_[0], phi_[0], true);
        seg_h_ = cpu::row_segments({nx_ - 1, plo_[0], nx_ - phi_[0]}, nx_, plo_[0], phi_[0], false);
    }

    Real* F(Component c) { return field_[ci(c)].data(); }
    /// Row j+1 of component c: the next row, row 0 when y is periodic, else zeros.
    const Real* row_above(Component c, int j) const {
        if (j + 1 < ny_) return field_[ci(c)].data() + std::size_t(j + 1) * nx_;
        if (bloch_.active[1]) return ghost_[ci(c)].data();  // fill_ghosts
        if (sc_.boundary[1] == BoundaryKind::Periodic) return field_[ci(c)].data();
        return zero_row_.data();
    }
    /// Row j-1 of component c: the previous row, row ny-1 when y is periodic, else zeros.
    const Real* row_below(Component c, int j) const {
        if (j > 0) return field_[ci(c)].data() + std::size_t(j - 1) * nx_;
        if (bloch_.active[1]) return ghost_[ci(c)].data();  // fill_ghosts
        if (sc_.boundary[1] == BoundaryKind::Periodic) return field_[ci(c)].data() + std::size_t(ny_ - 1) * nx_;
        return zero_row_.data();
    }
    bool periodic_x() const { return sc_.boundary[0] == BoundaryKind::Periodic; }
    /// The neighbour across the x wrap of row `row` (flat index of its first cell): for
    /// an H update (upper = true) the E of i = 0 seen from i = nx-1, for an E update the H
    /// of i = nx-1 seen from i = 0; Bloch-rotated with the other copy in a complex run.
    Real wrap_x(Component c, std::size_t row, bool upper) const {
        const std::size_t k = row + (upper ? 0 : std::size_t(nx_ - 1));
        const Real v = field_[ci(c)][k];
        if (!bloch_.active[0]) return v;
        const Real o = im_->field[ci(c)][k];
        return upper ? bloch_.upper(0, active_, v, o) : bloch_.lower(0, active_, v, o);
    }
    /// Ghost rows of the y wrap for the active copy (complex runs with a Bloch phase along
    /// y): before the H pass (h = true) the E components of row 0 as seen from row ny-1,
    /// before the E pass the H components of row ny-1 as seen from row 0.
    void fill_ghosts(bool h) {
        if (!bloch_.active[1]) return;
        const std::vector<Component> comps = h ? electric_components(sc_.polarization)
                                               : magnetic_components(sc_.polarization);
        const std::size_t row = h ? 0 : std::size_t(ny_ - 1) * nx_;
        for (Component c : comps) {
            ghost_[ci(c)].resize(std::size_t(nx_));
            bloch_.row(h, 1, active_, field_[ci(c)].data() + row, im_->field[ci(c)].data() + row,
                       ghost_[ci(c)].data(), nx_);
        }
    }

    void set_py(RowArgs<Real>& a, Component owner, int j, bool e_pos, int i0) {
        const auto& p = prof_[1];
        a.iky = e_pos ? p.ike[j] : p.ikh[j];
        a.by = e_pos ? p.be[j] : p.bh[j];
        a.cy = e_pos ? p.ce[j] : p.ch[j];
        a.psiy = psi_[ci(owner)][1].data() + std::size_t(slab_index(1, j)) * nx_ + i0;
    }
    void set_px(RowArgs<Real>& a, Component owner, int j, bool e_pos, int i0) {
        const auto& p = prof_[0];
        a.ikx = (e_pos ? p.ike : p.ikh).data() + i0;
        a.bx = (e_pos ? p.be : p.bh).data() + i0;
        a.cx = (e_pos ? p.ce : p.ch).data() + i0;
        a.psix = psi_[ci(owner)][0].data() + std::size_t(j) * wx_ + slab_index(0, i0);
    }

    /// Segments of the E update of component c: Ex (no x derivative) has one, the full row.
    std::size_t e_segments(int c) const { return c == ci(Component::Ex) ? 1 : seg_e_.size(); }

    /// Marks, per row and E segment, whether ca and cb are one value there, so the kernel
    /// takes scalars and skips the coefficient arrays (vacuum / cladding rows: TMz float32
    /// then moves 24 B per cell instead of 28).
    void build_uniform_map() {
        for (Component comp : electric_components(sc_.polarization)) {
            const int c = ci(comp);
            const std::size_t ns = e_segments(c);
            uniform_[c].assign(std::size_t(ny_) * ns, 0);
            for (int j = 0; j < ny_; ++j)
                for (std::size_t si = 0; si < ns; ++si) {
                    const int i0 = ns == 1 && c == ci(Component::Ex) ? 0 : seg_e_[si].i0;
                    const int i1 = ns == 1 && c == ci(Component::Ex) ? nx_ : seg_e_[si].i1;
                    const std::size_t row = std::size_t(j) * nx_;
                    bool uni = true;
                    for (int i = i0 + 1; i < i1 && uni; ++i) {
                        uni = cb_[c][row + i] == cb_[c][row + i0];
                        if (lossy_[c]) uni = uni && ca_[c][row + i] == ca_[c][row + i0];
                    }
                    uniform_[c][std::size_t(j) * ns + si] = uni;
                }
        }
    }
    /// The LOSSY / UNIFORM flags of an E segment; fills the scalars when uniform.
    int e_coeff_flags(RowArgs<Real>& a, int c, int j, std::size_t si, std::size_t first_cell) const {
        int fl = lossy_[c] ? cpu::LOSSY : 0;
        if (uniform_[c][std::size_t(j) * e_segments(c) + si]) {
            fl |= cpu::UNIFORM;
            a.cb_s = cb_[c][first_cell];
            a.ca_s = lossy_[c] ? ca_[c][first_cell] : Real(1);
        }
        return fl;
    }

    /// H update of row j (scene.hpp step 1, before sources).
    void h_row(int j) {
        const std::size_t row = std::size_t(j) * nx_;
        const bool py = in_slab(1, j);
        const Real S = Real(sc_.courant);
        if (tm_) {
            {   // Hx -= S [ (Ez(i,j+1) - Ez(i,j)) / kappa_h_y + psi_hx_y ]
                RowArgs<Real> a;
                a.n = nx_;
                a.f = F(Component::Hx) + row;
                a.courant = S;
                a.yu = row_above(Component::Ez, j);
                a.yl = F(Component::Ez) + row;
                if (py) set_py(a, Component::Hx, j, false, 0);
                run_op_(RowOp::Hx, a, py ? cpu::PY : 0);
            }
            const Real* ez = F(Component::Ez) + row;
            for (const Segment& s : seg_h_) {  // Hy += S [ (Ez(i+1,j) - Ez(i,j)) / kappa_h_x + psi_hy_x ]
                RowArgs<Real> a;
                Real nb = periodic_x() ? wrap_x(Component::Ez, row, true) : Real(0);
                a.n = s.i1 - s.i0;
                a.f = F(Component::Hy) + row + s.i0;
                a.courant = S;
                a.xu = s.edge ? &nb : ez + s.i0 + 1;
                a.xl = ez + s.i0;
                if (s.px) set_px(a, Component::Hy, j, false, s.i0);
                run_op_(RowOp::Hy, a, s.px ? cpu::PX : 0);
            }
        } else {
            const Real* ey = F(Component::Ey) + row;
            const Real* ex = F(Component::Ex) + row;
            const Real* ex_up = row_above(Component::Ex, j);
            for (const Segment& s : seg_h_) {
                // Hz -= S [ (Ey(i+1)-Ey(i))/kx + psi_hz_x - (Ex(j+1)-Ex(j))/ky - psi_hz_y ]
                RowArgs<Real> a;
                Real nb = periodic_x() ? wrap_x(Component::Ey, row, true) : Real(0);
                a.n = s.i1 - s.i0;
                a.f = F(Component::Hz) + row + s.i0;
                a.courant = S;
                a.xu = s.edge ? &nb : ey + s.i0 + 1;
                a.xl = ey + s.i0;
                a.yu = ex_up + s.i0;
                a.yl = ex + s.i0;
                if (s.px) set_px(a, Component::Hz, j, false, s.i0);
                if (py) set_py(a, Component::Hz, j, false, s.i0);
                run_op_(RowOp::Hz, a, (s.px ? cpu::PX : 0) | (py ? cpu::PY : 0));
            }
        }
    }

    /// E update of row j (scene.hpp step 2, before sources).
    void e_row(int j) {
        const std::size_t row = std::size_t(j) * nx_;
        const bool py = in_slab(1, j);
        if (tm_) {
            const int c = ci(Component::Ez);
            const Real* hy = F(Component::Hy) + row;
            const Real* hx = F(Component::Hx) + row;
            const Real* hx_dn = row_below(Component::Hx, j);
            for (std::size_t si = 0; si < seg_e_.size(); ++si) {
                // Ez = ca Ez + cb [ (Hy(i)-Hy(i-1))/kx + psi_x - (Hx(j)-Hx(j-1))/ky - psi_y ]
                const Segment& s = seg_e_[si];
                RowArgs<Real> a;
                Real nb = periodic_x() ? wrap_x(Component::Hy, row, false) : Real(0);
                a.n = s.i1 - s.i0;
                a.f = F(Component::Ez) + row + s.i0;
                a.cb = cb_[c].data() + row + s.i0;
                if (lossy_[c]) a.ca = ca_[c].data() + row + s.i0;
                a.xu = hy + s.i0;
                a.xl = s.edge ? &nb : hy + s.i0 - 1;
                a.yu = hx + s.i0;
                a.yl = hx_dn + s.i0;
                if (s.px) set_px(a, Component::Ez, j, true, s.i0);
                if (py) set_py(a, Component::Ez, j, true, s.i0);
                run_op_(RowOp::Ez, a, (s.px ? cpu::PX : 0) | (py ? cpu::PY : 0) | e_coeff_flags(a, c, j, si, row + s.i0));
            }
        } else {
            const Real* hz = F(Component::Hz) + row;
            {   // Ex = ca Ex + cb [ (Hz(j)-Hz(j-1))/ky + psi_ex_y ]
                const int c = ci(Component::Ex);
                RowArgs<Real> a;
                a.n = nx_;
                a.f = F(Component::Ex) + row;
                a.cb = cb_[c].data() + row;
                if (lossy_[c]) a.ca = ca_[c].data() + row;
                a.yu = hz;
                a.yl = row_below(Component::Hz, j);
                if (py) set_py(a, Component::Ex, j, true, 0);
                run_op_(RowOp::Ex, a, (py ? cpu::PY : 0) | e_coeff_flags(a, c, j, 0, row));
            }
            const int c = ci(Component::Ey);
            for (std::size_t si = 0; si < seg_e_.size(); ++si) {  // Ey = ca Ey - cb [ (Hz(i)-Hz(i-1))/kx + psi_ey_x ]
                const Segment& s = seg_e_[si];
                RowArgs<Real> a;
                Real nb = periodic_x() ? wrap_x(Component::Hz, row, false) : Real(0);
                a.n = s.i1 - s.i0;
                a.f = F(Component::Ey) + row + s.i0;
                a.cb = cb_[c].data() + row + s.i0;
                if (lossy_[c]) a.ca = ca_[c].data() + row + s.i0;
                a.xu = hz + s.i0;
                a.xl = s.edge ? &nb : hz + s.i0 - 1;
                if (s.px) set_px(a, Component::Ey, j, true, s.i0);
                run_op_(RowOp::Ey, a, (s.px ? cpu::PX : 0) | e_coeff_flags(a, c, j, si, row + s.i0));
            }
        }
    }


    /// H row j complete: update, then the extensions' after-H-row phase (H sources, PMC).
    void h_row_full(const cpu::StepContext<Real>& ctx, int j) {
        h_row(j);
        ext_.after_h_row(ctx, j);
    }
    /// E row j complete: the extensions' before-E-row phase (dispersion pre-pass), the
    /// update, then the after-E-row phase (dispersive correction, E sources, PEC).
    void e_row_full(const cpu::StepContext<Real>& ctx, int j) {
        ext_.before_e_row(ctx, j);
        e_row(j);
        ext_.after_e_row(ctx, j);
    }

    /// H (h = true) or E rows [j0, j1) with their phases, the rows split in blocks over the team.
    void rows_pass(const cpu::StepContext<Real>& ctx, bool h, int j0, int j1) {
        if (j1 <= j0) return;
        auto job = [&](int t) {
            long long b, e;
            cpu::Team::split(j1 - j0, t, team_->size(), b, e);
            for (int j = j0 + int(b); j < j0 + int(e); ++j) {
                if (h) h_row_full(ctx, j);
                else e_row_full(ctx, j);
            }
        };
        team_->run(job);
    }

    /// H of rows [a, b) and E of rows [e, b) (e = a or a + 1; split_step_planes), with the
    /// rows' phases; the extensions' before_e of those E rows must have run.
    ///
    /// As a single sweep over rows per thread (same numbers as two passes). Thread t owns
    /// rows [j0, j1) of [a, b). H of row j needs E rows j, j+1 at step n; E of row j needs
    /// H rows j, j-1 at n+1/2. So each thread first updates H of its last row (whose E row
    /// j1 belongs to the next thread or lies beyond b, and is still at step n), then, after
    /// one barrier, sweeps j = j0.. doing H(j) (except the last row) then E(j). Each cell's
    /// fields stream through memory once per step instead of twice: TMz float32 moves read
    /// Ez, Hx, Hy, cb + write Ez, Hx, Hy = 28 B per cell (two passes: ~40 B).
    /// GOLIGHTLY_CPU_UNFUSED=1 selects two passes (all H rows, then all E rows: the plain
    /// reading of scene.hpp, kept as the reference of the sweep).
    void sweep(const cpu::StepContext<Real>& ctx, int a, int e, int b) {
        if (b <= a) return;
        if (two_pass_) {
            rows_pass(ctx, true, a, b);
            rows_pass(ctx, false, e, b);
            return;
        }
        auto job = [&](int tid) {
            const int nt = team_->size();
            const int j0 = a + int((long long)(b - a) * tid / nt), j1 = a + int((long long)(b - a) * (tid + 1) / nt);
            if (j1 > j0) h_row_full(ctx, j1 - 1);
            team_->barrier();
            for (int j = j0; j < j1; ++j) {
                if (j < j1 - 1) h_row_full(ctx, j);
                if (j >= e) e_row_full(ctx, j);
            }
        };
        team_->run(job);
    }

    // The CRTP base (cpu_engine_base.hpp) reaches the sweeps and hooks below.
    friend Base;
    static constexpr int kDims = 2;
    static constexpr const char* kName = "CPU engine";
    static constexpr const char* kCellsName = "nx*ny";
    static constexpr bool kWalls = true;  ///< the PEC/PMC walls are an extension in 2D

    int nx_ = 0, ny_ = 0;
    bool tm_ = true;
    void (*run_op_)(RowOp, const RowArgs<Real>&, int) = nullptr;
    cpu::CpmlProfile<Real> prof_[2];
    int plo_[2] = {0, 0}, phi_[2] = {0, 0};
    int wx_ = 0, wy_ = 0;
    std::vector<Segment> seg_e_, seg_h_;
    std::vector<std::uint8_t> uniform_[3];
    std::vector<Real> zero_row_;
    std::vector<Real> ghost_[6];  ///< y-wrap ghost rows (fill_ghosts)
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine(SceneView view, Precision precision, int threads) {
    const Scene& scene = *view;
    // Refuse before allocating when the state cannot fit: with Linux overcommit a too-large
    // allocation may succeed and the process be killed later instead of a bad_alloc.
    // GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES (tuning.hpp) caps the memory counted as available (tests).
    {
        const std::size_t need = engine_state_bytes(scene, precision);
        std::size_t avail = available_memory_bytes();
        if (const std::optional<std::size_t> cap = CpuTuning::from_environment().memory_limit_bytes)
            avail = std::min<std::size_t>(avail ? avail : SIZE_MAX, *cap);
        if (avail > 0 && need > avail) {
            std::ostringstream os;
            os << "CPU engine: out of host memory for a " << scene.nx << " x " << scene.ny << " grid: the fields, "
               << "coefficients and PML need " << need << " bytes (" << need / (1024 * 1024) << " MiB) but only "
               << avail << " bytes (" << avail / (1024 * 1024) << " MiB) are available (MemAvailable)";
            throw OutOfMemoryError(os.str(), need, avail);
        }
    }
    try {
        if (scene.dimensions == 3) return make_cpu_engine3d(view, precision, threads);
        if (precision == Precision::Float32) return std::make_unique<CpuEngine<float>>(view, threads);
        return std::make_unique<CpuEngine<double>>(view, threads);
    } catch (const std::bad_alloc&) {
        const std::size_t need = engine_state_bytes(scene, precision);
        const std::size_t avail = available_memory_bytes();
        std::ostringstream os;
        os << "CPU engine: out of host memory for a " << scene.nx << " x " << scene.ny << " grid: needs about "
           << need / (1024 * 1024) << " MiB, " << avail / (1024 * 1024) << " MiB available";
        throw OutOfMemoryError(os.str(), need, avail);
    }
}

}  // namespace golightly
