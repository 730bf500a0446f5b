// GoLightly CPU engine, 3D: the six-component Yee update of scene.hpp "3D scenes" (CPML on
// every face, periodic / PEC / PMC / Mur faces, sources, TF/SF plane waves, dispersive cells, DFT
// sets, time probes) in float or double.
//
// Layout: one array per component, flat index (k * ny + j) * nx + i (x fastest, 64-bit
// arithmetic); per E component a per-cell cb array (and ca when some material is lossy)
// expanded from the material table, and per x row a flag saying the row has one material
// (then the kernel takes scalars and reads no coefficient array). CPML psi arrays exist only
// inside the slabs, one per (component, derivative axis) pair: x slabs as [k][j][wx], y
// slabs as [k][wy][i], z slabs as [wz][j][i] (wx = pml_lo[0] + pml_hi[0] etc.).
//
// Work: rows of x (j, k); each row update is one branch-free kernel per component and x
// segment (cpu_kernels3d.inl; segments cut at the slab edges and at the boundary cell whose
// neighbour lies beyond the array), compiled twice (baseline x86-64 and AVX2+FMA).
// The fused sweep (sweep()) runs, per z-slab, H then E of each row, so each cell's fields
// pass through memory once per step; the team of threads (cpu_team.hpp) splits the slabs.
//
// Extensions (cpu_extensions.hpp: dispersion, sources, TF/SF, monitors) see the grid as
// ny * nz rows of nx cells (row r = k * ny + j); the PEC / PMC faces are applied here after
// the row phases (scene.hpp order: sources, then the wall zeroing); the first-order Mur
// faces (cpu_extensions.hpp MurFaces, shared with 2D) follow the whole E sweep. TEz tensor
// couplings have no 3D form: RunError.
//
// Complex fields (scene.hpp "Bloch-periodic axes"): as in 2D (engine_cpu.cpp), the imaginary
// copy's state lives in im_ and use_copy() exchanges it with the engine's members; both
// copies step in two passes (H of both, then E of both). Reads across a Bloch wrap take the
// rotated neighbour: along x the edge value of the row, along y and z ghost planes filled
// before each half-step (fill_ghosts).
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cpu_common.hpp"
#include "cpu_engine_base.hpp"
#include "cpu_engine_common.hpp"
#include "cpu_bloch.hpp"
#include "cpu_extensions.hpp"
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
#define GOLIGHTLY_CPU3D_AVX2 1
namespace cpu3d_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include "cpu_kernels3d.inl"
#pragma GCC pop_options
}  // namespace cpu3d_avx2
#endif

namespace cpu3d_generic {
#include "cpu_kernels3d.inl"
}  // namespace cpu3d_generic

namespace {

using cpu::RowArgs3;
using cpu::SkewedArray;

// The row kernel's entry of each precision in the AVX2 + FMA build or the baseline build
// (engine_cpu.cpp's KernelTable, over this file's kernel namespaces).
template <typename Real>
struct Kernel3;
template <>
struct Kernel3<float> {
    static cpu::RunOp3F pick(bool avx2) {
#ifdef GOLIGHTLY_CPU3D_AVX2
        if (avx2) return &cpu3d_avx2::run_op3_f;
#endif
        (void)avx2;
        return &cpu3d_generic::run_op3_f;
    }
};
template <>
struct Kernel3<double> {
    static cpu::RunOp3D pick(bool avx2) {
#ifdef GOLIGHTLY_CPU3D_AVX2
        if (avx2) return &cpu3d_avx2::run_op3_d;
#endif
        (void)avx2;
        return &cpu3d_generic::run_op3_d;
    }
};

using Stencil = CurlStencil;
constexpr const auto& kStencil = kCurl;  // tfsf_plan.hpp: signs and components of each curl

using cpu::Segment;

template <typename Real>
class CpuEngine3D final : public cpu::CpuEngineBase<CpuEngine3D<Real>, Real> {
    using Base = cpu::CpuEngineBase<CpuEngine3D<Real>, Real>;
    using Base::sc_, Base::tune_, Base::two_pass_, Base::has_, Base::field_, Base::cb_, Base::ca_, Base::lossy_,
        Base::psi_, Base::team_, Base::ext_, Base::split_, Base::im_, Base::active_, Base::bloch_;

public:
    CpuEngine3D(SceneView scene, int threads) : Base(std::move(scene)) {
        n_[0] = sc_.nx;
        n_[1] = sc_.ny;
        n_[2] = sc_.nz;
        nx_ = n_[0];
        ny_ = n_[1];
        nz_ = n_[2];
        if (nx_ <= 0 || ny_ <= 0 || nz_ <= 0)
            throw RunError("CPU engine (3D): the scene has no cells (nx, ny, nz must be > 0)");
        for (int a = 0; a < 3; ++a) {
            plo_[a] = sc_.pml_lo[a];
            phi_[a] = sc_.pml_hi[a];
            if (plo_[a] < 0 || phi_[a] < 0 || plo_[a] + phi_[a] > n_[a])
                throw RunError("CPU engine (3D): PML cells exceed the grid along " + std::string(1, "xyz"[a]));
            w_[a] = plo_[a] + phi_[a];
        }
        this->make_team(threads);  // small grids: one thread
        run_op_ = Kernel3<Real>::pick(cpu::cpu_has_avx2(tune_.generic_kernels));
        for (bool& h : has_) h = true;  // all six components
        zero_row_.assign(std::size_t(nx_) + 1, Real(0));
        this->allocate_fields();  // fields, the eps table, the per-cell coefficients
        build_uniform_map();

        for (int a = 0; a < 3; ++a) {
            const CpmlAxis& ax = sc_.cpml[a];
            const int na = n_[a];
            if (w_[a] > 0 && (ax.b_e.size() != std::size_t(na) || ax.b_h.size() != std::size_t(na)))
                throw RunError(std::string("CPU engine (3D): the ") + "xyz"[a] +
                               " axis has PML cells but no CPML profile (Scene::cpml, build_cpml)");
            prof_[a] = cpu::CpmlProfile<Real>::of(ax, na);
        }
        const std::size_t slab_cells[3] = {std::size_t(w_[0]) * ny_ * nz_, std::size_t(w_[1]) * nx_ * nz_,
                                           std::size_t(w_[2]) * nx_ * ny_};
        for (int c = 0; c < 6; ++c)
            for (int d = 0; d < 3; ++d)
                if (kStencil[c].s[d] != 0 && w_[d] > 0) psi_[c][d].assign(slab_cells[d], Real(0));
        slice_.normal_axis = 2;  // default frame plane: xy through the middle of z
        slice_.index = nz_ / 2;
        split_.configure(0, 0, nz_, ny_, false);
        make_segments();
        // Dispersion, sources, TF/SF, Mur faces, tensor couplings, monitors; Bloch.
        this->finish_construction(run_op_ != Kernel3<Real>::pick(false));
    }

    /// Traffic model of the fused sweep (cpu_kernels3d.inl): the six fields read once and
    /// written once (12 R), cb of the three E components (3 R) and ca when lossy (3 R); rows
    /// of one material skip the coefficient streams, so this is an upper bound. CPML psi
    /// traffic (2 R per psi inside the slabs) is spread over the grid. Then each extension's
    /// own passes.
    double bytes_per_cell_update() const override {
        const double s = sizeof(Real);
        double bytes = 12 * s;
        for (int c = 0; c < 3; ++c) bytes += s * (lossy_[c] ? 2 : 1);
        double psi = 0;
        for (int c = 0; c < 6; ++c)
            for (int d = 0; d < 3; ++d) psi += double(psi_[c][d].size());
        bytes += 2 * s * psi / double(sc_.cells());
        return bytes + ext_.bytes_per_step() / double(sc_.cells());
    }

    void set_frame_slice(const FrameSlice& slice) override {
        if (slice.normal_axis < 0 || slice.normal_axis > 2)
            throw std::invalid_argument("set_frame_slice: normal_axis must be 0, 1 or 2, got " +
                                        std::to_string(slice.normal_axis));
        slice_ = slice;
        slice_.index = std::clamp<std::int64_t>(slice.index, 0, n_[slice.normal_axis] - 1);
    }

    /// The plane of the frame slice: columns along the first in-plane axis (x for xy and
    /// xz, y for yz), rows along the second; boxes as in 2D (frame_source.hpp).
    FieldSamples sample_field(Component c, int max_width, int max_height, bool squared) override {
        int W0 = 0, H0 = 0;
        const std::vector<Real> plane = slice_plane(c, W0, H0);
        FieldSamples out = cpu::box_samples(W0, H0, max_width, max_height);
        cpu::box_average(plane.data(), W0, H0, out.factor, squared, out.values.data());
        return out;
    }

    Image8 frame(const FrameRequest& req) override {
        const FieldSamples s = sample_field(req.component, req.max_width, req.max_height, false);
        return cpu::diverging_frame(s.values, s.width, s.height, req.scale, req.viewport_alpha);
    }
private:
    /// Per row and E component: whether ca and cb are one value along the row.
    void build_uniform_map() {
        const std::size_t rows = std::size_t(ny_) * nz_;
        for (int c = 0; c < 3; ++c) {
            uniform_[c].assign(rows, 0);
            for (std::size_t r = 0; r < rows; ++r) {
                const std::size_t row = r * nx_;
                bool uni = true;
                for (int i = 1; i < nx_ && uni; ++i) {
                    uni = cb_[c][row + i] == cb_[c][row];
                    if (lossy_[c]) uni = uni && ca_[c][row + i] == ca_[c][row];
                }
                uniform_[c][r] = uni;
            }
        }
    }

    std::vector<Real> slice_plane(Component c, int& W, int& H) const {
        const int a = slice_.normal_axis;
        const std::int64_t p = slice_.index;
        const int u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2;
        W = n_[u];
        H = n_[v];
        std::vector<Real> out(std::size_t(W) * H);
        const Real* f = field_[int(c)].data();
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                std::int64_t idx[3];
                idx[a] = p;
                idx[u] = x;
                idx[v] = y;
                out[std::size_t(y) * W + x] = f[(std::size_t(idx[2]) * ny_ + std::size_t(idx[1])) * nx_ + idx[0]];
            }
        return out;
    }

    bool in_slab(int axis, int i) const { return i < plo_[axis] || i >= n_[axis] - phi_[axis]; }
    int slab_index(int axis, int i) const { return i < plo_[axis] ? i : plo_[axis] + i - (n_[axis] - phi_[axis]); }

    void make_segments() {
        seg_e_ = cpu::row_segments({1, plo_[0], nx_ - phi_[0]}, nx_, plo_[0], phi_[0], true);
        seg_h_ = cpu::row_segments({nx_ - 1, plo_[0], nx_ - phi_[0]}, nx_, plo_[0], phi_[0], false);
    }

    /// Row (j, k) of component c, wrapped on periodic axes; the zero row beyond the array.
    /// Across a Bloch axis of a complex run: the ghost row (fill_ghosts).
    const Real* nb_row(int c, int j, int k) const {
        if (j < 0 || j >= ny_) {
            if (sc_.boundary[1] != BoundaryKind::Periodic) return zero_row_.data();
            if (bloch_.active[1]) return ghost_[c][1].data() + std::size_t(k) * nx_;
            j = (j + ny_) % ny_;
        }
        if (k < 0 || k >= nz_) {
            if (sc_.boundary[2] != BoundaryKind::Periodic) return zero_row_.data();
            if (bloch_.active[2]) return ghost_[c][2].data() + std::size_t(j) * nx_;
            k = (k + nz_) % nz_;
        }
        return field_[c].data() + (std::size_t(k) * ny_ + j) * nx_;
    }

    /// Updates component c on row (j, k) (scene.hpp "3D scenes"; before sources and walls).
    void update_row(int c, int j, int k) {
        const Stencil& st = kStencil[c];
        const bool is_e = c < 3;
        const std::size_t r = std::size_t(k) * ny_ + j, row = r * nx_;
        RowArgs3<Real> a;
        a.courant = Real(sc_.courant);
        int fl = 0;
        if (st.s[1] != 0) {
            const int g = st.g[1];
            a.yu = is_e ? field_[g].data() + row : nb_row(g, j + 1, k);
            a.yl = is_e ? nb_row(g, j - 1, k) : field_[g].data() + row;
            if (in_slab(1, j)) {
                fl |= cpu::PY3;
                const auto& p = prof_[1];
                a.iky = is_e ? p.ike[j] : p.ikh[j];
                a.by = is_e ? p.be[j] : p.bh[j];
                a.cy = is_e ? p.ce[j] : p.ch[j];
                a.psiy = psi_[c][1].data() + (std::size_t(k) * w_[1] + slab_index(1, j)) * nx_;
            }
        }
        if (st.s[2] != 0) {
            const int g = st.g[2];
            a.zu = is_e ? field_[g].data() + row : nb_row(g, j, k + 1);
            a.zl = is_e ? nb_row(g, j, k - 1) : field_[g].data() + row;
            if (in_slab(2, k)) {
                fl |= cpu::PZ3;
                const auto& p = prof_[2];
                a.ikz = is_e ? p.ike[k] : p.ikh[k];
                a.bz = is_e ? p.be[k] : p.bh[k];
                a.cz = is_e ? p.ce[k] : p.ch[k];
                a.psiz = psi_[c][2].data() + (std::size_t(slab_index(2, k)) * ny_ + j) * nx_;
            }
        }
        if (is_e) {
            if (lossy_[c]) fl |= cpu::LOSSY3;
            if (uniform_[c][r]) {
                fl |= cpu::UNIFORM3;
                a.cb_s = cb_[c][row];
                a.ca_s = lossy_[c] ? ca_[c][row] : Real(1);
            } else {
                a.cb = cb_[c].data() + row;
                if (lossy_[c]) a.ca = ca_[c].data() + row;
            }
        }
        Real* f = field_[c].data() + row;
        if (st.s[0] == 0) {
            a.n = nx_;
            a.f = f;
            run_op_(c, a, fl);
            return;
        }
        const Real* g = field_[st.g[0]].data() + row;
        const bool periodic_x = sc_.boundary[0] == BoundaryKind::Periodic;
        const std::vector<Segment>& segs = is_e ? seg_e_ : seg_h_;
        for (const Segment& s : segs) {
            RowArgs3<Real> b = a;
            const int i0 = s.i0;
            b.n = s.i1 - i0;
            b.f = f + i0;
            if (b.cb) b.cb += i0;
            if (b.ca) b.ca += i0;
            if (b.yu) b.yu += i0, b.yl += i0;
            if (b.zu) b.zu += i0, b.zl += i0;
            if (b.psiy) b.psiy += i0;
            if (b.psiz) b.psiz += i0;
            Real nb;
            if (is_e) {  // G(i) - G(i-1); G(-1) wraps or is 0
                nb = periodic_x ? g[nx_ - 1] : Real(0);
                if (bloch_.active[0]) nb = bloch_.lower(0, active_, nb, im_->field[st.g[0]][row + nx_ - 1]);
                b.xu = g + i0;
                b.xl = s.edge ? &nb : g + i0 - 1;
            } else {     // G(i+1) - G(i); G(nx) wraps or is 0
                nb = periodic_x ? g[0] : Real(0);
                if (bloch_.active[0]) nb = bloch_.upper(0, active_, nb, im_->field[st.g[0]][row]);
                b.xu = s.edge ? &nb : g + i0 + 1;
                b.xl = g + i0;
            }
            int sf = fl;
            if (s.px) {
                sf |= cpu::PX3;
                const auto& p = prof_[0];
                b.ikx = (is_e ? p.ike : p.ikh).data() + i0;
                b.bx = (is_e ? p.be : p.bh).data() + i0;
                b.cx = (is_e ? p.ce : p.ch).data() + i0;
                b.psix = psi_[c][0].data() + r * w_[0] + slab_index(0, i0);
            }
            run_op_(c, b, sf);
        }
    }

    void zero_row(int c, std::size_t r) {
        Real* f = field_[c].data() + r * nx_;
        std::fill(f, f + nx_, Real(0));
    }

    /// H of row (j, k): update, then the after-H-row phase (H sources, TF/SF), then PMC:
    /// tangential H at h position n - 1/2 (x: Hy, Hz at i = nx-1; y: Hx, Hz at j = ny-1;
    /// z: Hx, Hy at k = nz-1).
    void h_row_full(const cpu::StepContext<Real>& ctx, int j, int k) {
        for (int c = 3; c < 6; ++c) update_row(c, j, k);
        const std::size_t r = std::size_t(k) * ny_ + j;
        ext_.after_h_row(ctx, int(r));
        if (sc_.boundary[0] == BoundaryKind::Pmc) {
            field_[4][r * nx_ + nx_ - 1] = 0;
            field_[5][r * nx_ + nx_ - 1] = 0;
        }
        if (sc_.boundary[1] == BoundaryKind::Pmc && j == ny_ - 1) zero_row(3, r), zero_row(5, r);
        if (sc_.boundary[2] == BoundaryKind::Pmc && k == nz_ - 1) zero_row(3, r), zero_row(4, r);
    }
    /// E of row (j, k): the before-E-row phase (dispersion), the update, the after-E-row
    /// phase (dispersive correction, E sources, TF/SF), then PEC: tangential E at e position
    /// 0 (x: Ey, Ez at i = 0; y: Ex, Ez at j = 0; z: Ex, Ey at k = 0).
    void e_row_full(const cpu::StepContext<Real>& ctx, int j, int k) {
        const std::size_t r = std::size_t(k) * ny_ + j;
        ext_.before_e_row(ctx, int(r));
        for (int c = 0; c < 3; ++c) update_row(c, j, k);
        ext_.after_e_row(ctx, int(r));
        if (sc_.boundary[0] == BoundaryKind::Pec) {
            field_[1][r * nx_] = 0;
            field_[2][r * nx_] = 0;
        }
        if (sc_.boundary[1] == BoundaryKind::Pec && j == 0) zero_row(0, r), zero_row(2, r);
        if (sc_.boundary[2] == BoundaryKind::Pec && k == 0) zero_row(0, r), zero_row(1, r);
    }

    /// H (h = true) or E rows of planes [k0, k1), the rows split over the team.
    void rows_pass(const cpu::StepContext<Real>& ctx, bool h, int k0, int k1) {
        if (k1 <= k0) return;
        const long long r0 = (long long)k0 * ny_, rows = (long long)(k1 - k0) * ny_;
        auto job = [&](int t) {
            long long b, e;
            cpu::Team::split(rows, t, team_->size(), b, e);
            for (long long r = r0 + b; r < r0 + e; ++r) {
                if (h) h_row_full(ctx, int(r % ny_), int(r / ny_));
                else e_row_full(ctx, int(r % ny_), int(r / ny_));
            }
        };
        team_->run(job);
    }

    /// H of planes [a, b) and E of planes [e, b) (e = a or a + 1; split_step_planes), with the
    /// rows' phases; the extensions' before_e of those E rows must have run.
    ///
    /// As a single sweep per thread over its z-slabs [k0, k1) of [a, b) (same numbers as two
    /// passes). H(j, k) needs E at (j, k), (j+1, k), (j, k+1) at step n; E(j, k) needs H at
    /// (j, k), (j-1, k), (j, k-1) at n+1/2. Each thread first updates H of its whole last
    /// slab (its E neighbours k1 belong to the next thread, or lie beyond b, and are still at
    /// step n; with z periodic and [a, b) the whole axis the last slab's k+1 is slab 0,
    /// likewise untouched before the barrier); after one barrier it sweeps its slabs in
    /// order, and within slab k first H of row ny-1 (its y-periodic neighbour is row 0, still
    /// at step n), then j = 0.. with H(j) before E(j). Fewer slabs than threads, or
    /// GOLIGHTLY_CPU_UNFUSED=1: two passes over the rows (the plain reading of scene.hpp).
    void sweep(const cpu::StepContext<Real>& ctx, int a, int e, int b) {
        if (b <= a) return;
        if (two_pass_ || b - a < team_->size()) {
            rows_pass(ctx, true, a, b);
            rows_pass(ctx, false, e, b);
            return;
        }
        auto job = [&](int tid) {
            const int nt = team_->size();
            const int k0 = a + int((long long)(b - a) * tid / nt), k1 = a + int((long long)(b - a) * (tid + 1) / nt);
            if (k1 > k0)
                for (int j = 0; j < ny_; ++j) h_row_full(ctx, j, k1 - 1);
            team_->barrier();
            for (int k = k0; k < k1; ++k) {
                const bool h_done = k == k1 - 1, do_e = k >= e;
                if (!h_done) h_row_full(ctx, ny_ - 1, k);
                for (int j = 0; j < ny_; ++j) {
                    if (!h_done && j < ny_ - 1) h_row_full(ctx, j, k);
                    if (do_e) e_row_full(ctx, j, k);
                }
            }
        };
        team_->run(job);
    }

    /// Ghost planes of the y and z wraps for the active copy (complex runs with a Bloch
    /// phase there): before the H pass (h = true) the E components of the planes j = 0 /
    /// k = 0 as seen from ny-1 / nz-1, before the E pass the H components of the planes
    /// j = ny-1 / k = nz-1 as seen from 0. ghost_[c][1] holds nz rows (by k), ghost_[c][2]
    /// ny rows (by j).
    void fill_ghosts(bool h) {
        for (int c = h ? 0 : 3; c < (h ? 3 : 6); ++c) {
            if (bloch_.active[1]) {
                ghost_[c][1].resize(std::size_t(nz_) * nx_);
                const int j = h ? 0 : ny_ - 1;
                for (int k = 0; k < nz_; ++k) {
                    const std::size_t row = (std::size_t(k) * ny_ + j) * nx_;
                    bloch_.row(h, 1, active_, field_[c].data() + row, im_->field[c].data() + row,
                               ghost_[c][1].data() + std::size_t(k) * nx_, nx_);
                }
            }
            if (bloch_.active[2]) {
                ghost_[c][2].resize(std::size_t(ny_) * nx_);
                const int k = h ? 0 : nz_ - 1;
                for (int j = 0; j < ny_; ++j) {
                    const std::size_t row = (std::size_t(k) * ny_ + j) * nx_;
                    bloch_.row(h, 2, active_, field_[c].data() + row, im_->field[c].data() + row,
                               ghost_[c][2].data() + std::size_t(j) * nx_, nx_);
                }
            }
        }
    }

    // The CRTP base (cpu_engine_base.hpp) reaches the sweeps and hooks above.
    friend Base;
    static constexpr int kDims = 3;
    static constexpr const char* kName = "CPU engine (3D)";
    static constexpr const char* kCellsName = "nx*ny*nz";
    static constexpr bool kWalls = false;  ///< the faces' PEC/PMC zeroing is this engine's own (h/e_row_full)

    int n_[3] = {0, 0, 0};
    int nx_ = 0, ny_ = 0, nz_ = 0;
    void (*run_op_)(int, const RowArgs3<Real>&, int) = nullptr;
    std::vector<std::uint8_t> uniform_[3];
    cpu::CpmlProfile<Real> prof_[3];
    int plo_[3] = {0, 0, 0}, phi_[3] = {0, 0, 0}, w_[3] = {0, 0, 0};
    std::vector<Segment> seg_e_, seg_h_;
    std::vector<Real> zero_row_;
    FrameSlice slice_;
    std::vector<Real> ghost_[6][3];  ///< y (index 1) and z (2) wrap ghost planes
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine3d(SceneView view, Precision precision, int threads) {
    if (precision == Precision::Float32) return std::make_unique<CpuEngine3D<float>>(std::move(view), threads);
    return std::make_unique<CpuEngine3D<double>>(std::move(view), threads);
}

}  // namespace golightly
