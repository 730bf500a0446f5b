// GoLightly CPU engine extensions: the features of the time step that are not the bulk
// Yee update, each owning its data and plugged into named phases of the step
// (scene.hpp "One time step"). The bulk update (with its CPML, fused into the row kernels
// for bandwidth) stays in engine_cpu.cpp; everything here works on flat cell indices and
// rows of nx cells, so a 3D engine (rows of x over j and k) reuses it as it is.
//
// Phases, in the order of one step n -> n+1 (the engine calls each phase on every
// extension that declares it, in the order the extensions were added):
//   before_step  once, on the engine thread: step n begins (source waveform values)
//   after_h_row  per row j, on the thread sweeping that row, after its H update
//                (H sources, then PMC walls)
//   before_e     once, before the E sweep (save E^n: Mur faces, tensor couplings)
//   before_e_row per row j, before its E update (dispersion: advance the poles from E^n)
//   after_e_row  per row j, after its E update (dispersion correction, E sources, PEC)
//   after_e      once, after the E sweep (Mur, then the tensor couplings)
//   after_step   once (DFT sets and time probes sample the completed step)
// A 3D engine calls the row phases with the row index r = k * ny + j of its x rows
// (grid_rows, StepContext::ny = ny * nz), so the extensions run unchanged.
// Row phases run concurrently for different rows: an extension touches only the cells of
// the row it is called for. The order in which the engine adds extensions is
// dispersion, sources, TF/SF, walls, Mur faces, tensor couplings, monitors: this gives scene.hpp's order
// within each phase (dispersive correction before the E sources, sources before the PEC
// and PMC zeroing, Mur before the tensor couplings).
//
// Traffic: each extension states the bytes its passes move per step (bytes_per_step),
// which the engine adds to the bulk model in Engine::bytes_per_cell_update.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cpu_team.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"

namespace golightly::cpu {

/// Phase bits of Extension::phases().
enum Phase : unsigned {
    BeforeStep = 1u << 0,
    AfterHRow = 1u << 1,
    BeforeE = 1u << 2,
    BeforeERow = 1u << 3,
    AfterERow = 1u << 4,
    AfterE = 1u << 5,
    AfterStep = 1u << 6,
};

/// Rows of nx cells of the grid: ny in 2D, ny * nz in 3D (row r = k * ny + j holds the
/// cells r * nx + i). The row phases take this row index.
inline int grid_rows(const Scene& sc) { return sc.dimensions == 3 ? sc.ny * sc.nz : sc.ny; }

/// What an extension sees of the engine: the field arrays by component (index
/// Component; null where the polarization lacks one; flat index j * nx + i), the grid
/// rows, the scene, the thread team, and the step in progress (n of n -> n+1).
template <typename Real>
struct StepContext {
    Real* field[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    int nx = 0, ny = 0;
    const Scene* scene = nullptr;
    Team* team = nullptr;
    std::int64_t step = 0;
    Real* F(Component c) const { return field[int(c)]; }
};

template <typename Real>
class Extension {
public:
    virtual ~Extension() = default;
    /// The Phase bits this extension implements.
    virtual unsigned phases() const = 0;
    virtual void before_step(const StepContext<Real>&) {}
    virtual void after_h_row(const StepContext<Real>&, int /*j*/) {}
    /// State taken from E^n of the cells on grid rows [r0, r1) (flat index / nx), before any
    /// of those rows' E update; a step calls it once for every row, in one call or in pieces
    /// (the split step of a distributed run, subdomain.hpp).
    virtual void before_e(const StepContext<Real>&, int /*r0*/, int /*r1*/) {}
    virtual void before_e_row(const StepContext<Real>&, int /*j*/) {}
    virtual void after_e_row(const StepContext<Real>&, int /*j*/) {}
    virtual void after_e(const StepContext<Real>&) {}
    virtual void after_step(const StepContext<Real>&) {}
    /// Bytes this extension's passes move through memory per step (traffic model).
    virtual double bytes_per_step() const { return 0; }
    /// Live edit: the scene's material table and index maps (and tensor couplings) were
    /// replaced (Engine::update_materials); coefficients derived from them follow.
    virtual void materials_changed(const Scene&) {}
};

// ------------------------------------------------------------------------ dispersion

/// Multi-pole Lorentz/Drude ADE on the listed dispersive cells (scene.hpp "Dispersive
/// cells"; B-CALM, Wahl et al. 2013, eqs. 2-4). Per E component the compact list is cut
/// into runs: maximal sequences of consecutive cells of one row with one pole set. A run
/// of length L and np poles owns np * L values of each of two state arrays, pole-major (of
/// its k-th cell at state0 + q * L + k), so the pole update streams contiguous arrays and
/// vectorizes over the cells of the run. The state is the difference form of scene.hpp
/// (PoleCoeffs): state[0] = P~^n, state[1] = d^n = P~^n - P~^{n-1}, both updated in place;
/// a Drude pole (kr = 0) needs no P~ and steps d only. (Keeping P~^n and P~^{n-1} instead
/// and taking d as their difference loses d to the rounding of P~ in float32 once d is
/// small against P~: 1e-3 errors in E after 1e4 steps of B-CALM's gold Lorentz pole.)
/// Per cell only the correction coefficient weight * cb / S and a scratch dP.
/// Traffic per dispersive cell and step (N poles of which N_D Drude, R = sizeof(Real)):
/// P~ and d read and written (4 N - 2 N_D) R, the coefficient read, dP written and read
/// (3 R): E is in cache from the row's ordinary update. Float32, 1 Drude + 5 Lorentz poles:
/// 100 B on top of the bulk.
template <typename Real>
class Dispersion final : public Extension<Real> {
public:
    Dispersion(const Scene& sc, const bool (&has)[6]) {
        for (const PoleSet& ps : sc.pole_sets) {
            set_first_.push_back(std::uint32_t(coeffs_.size()));
            set_count_.push_back(std::uint32_t(ps.poles.size()));
            for (const PoleCoeffs& c : ps.poles)
                coeffs_.push_back({Real(pole_damping(c)), Real(pole_restoring(c)), Real(c.c3), Real(c.m0), Real(c.m1),
                                   plain_pole(c)});
            set_drude_.push_back(std::uint32_t(drude_poles(ps)));
        }
        const int nx = sc.nx, ny = grid_rows(sc);
        for (int c = 0; c < 3; ++c) {
            const DispersiveCells& d = sc.dispersive[c];
            PerComponent D;
            if (d.cells.empty()) continue;
            if (!has[c] || !is_electric(Component(c)))
                throw RunError(std::string("CPU engine: dispersive cells on ") + component_name(Component(c)) +
                               ", which is not an E component of this polarization");
            const std::size_t m = d.cells.size();
            if (d.pole_set.size() != m || d.weight.size() != m)
                throw RunError("CPU engine: dispersive cell arrays differ in length");
            D.comp = c;
            D.dp.assign(m, Real(0));
            std::size_t total = 0;
            for (std::size_t k = 0; k < m; ++k) {
                const CellIndex cell = d.cells[k];
                if (cell < 0 || std::size_t(cell) >= sc.cells())
                    throw RunError("CPU engine: dispersive cell index outside the grid");
                if (k > 0 && cell <= d.cells[k - 1])
                    throw RunError("CPU engine: dispersive cells must be sorted by increasing index, without repeats");
                if (d.pole_set[k] >= sc.pole_sets.size())
                    throw RunError("CPU engine: dispersive pole-set index out of range");
                const bool extend = !D.runs.empty() && D.runs.back().set == d.pole_set[k] &&
                                    cell == d.cells[k - 1] + 1 && cell / nx == d.cells[k - 1] / nx;
                if (extend) {
                    D.runs.back().len++;
                } else {
                    if (!D.runs.empty()) total += std::size_t(D.runs.back().len) * set_count_[D.runs.back().set];
                    Run r;
                    r.cell0 = cell;
                    r.len = 1;
                    r.set = d.pole_set[k];
                    r.k0 = k;
                    r.state0 = total;
                    D.runs.push_back(r);
                }
                bytes_ += (4.0 * double(set_count_[d.pole_set[k]]) - 2.0 * double(set_drude_[d.pole_set[k]]) + 3.0) *
                          sizeof(Real);
            }
            total += std::size_t(D.runs.back().len) * set_count_[D.runs.back().set];
            D.state[0].assign(total, Real(0));
            D.state[1].assign(total, Real(0));
            D.row_runs.assign(std::size_t(ny) + 1, 0);
            for (const Run& r : D.runs) D.row_runs[std::size_t(r.cell0 / nx) + 1]++;
            for (int j = 0; j < ny; ++j) D.row_runs[j + 1] += D.row_runs[j];
            comps_.push_back(std::move(D));
        }
        materials_changed(sc);
    }
    bool empty() const { return comps_.empty(); }
    unsigned phases() const override { return BeforeERow | AfterERow; }
    double bytes_per_step() const override { return bytes_; }

    /// The correction coefficient weight * cb / S follows the (edited) table.
    void materials_changed(const Scene& sc) override {
        const double S = sc.courant;
        for (PerComponent& D : comps_) {
            const DispersiveCells& d = sc.dispersive[D.comp];
            const auto& idx = sc.material_index[D.comp];
            D.coef.resize(d.cells.size());
            for (std::size_t k = 0; k < d.cells.size(); ++k)
                D.coef[k] = Real(d.weight[k] * sc.table[idx[std::size_t(d.cells[k])]].cb / S);
        }
    }

    /// Pre-pass of row j: advances the poles from E^n (before the row's E update) in the
    /// difference form of scene.hpp (PoleCoeffs): d^{n+1} = d - kd d + kr P~^n + c3 E^n,
    /// P~^{n+1} = P~^n + d^{n+1} (both in place), dp = sum of d^{n+1} per cell. Algebraically
    /// P~^{n+1} = c1 P~^n + c2 P~^{n-1} + c3 E^n; in float32 it keeps g dt and w0^2 dt^2,
    /// which c1 ~ 2 and c2 ~ -1 lose, and d, which P~^n - P~^{n-1} loses.
    void before_e_row(const StepContext<Real>& ctx, int j) override {
        for (PerComponent& D : comps_) {
            const Real* f = ctx.field[D.comp];
            Real* sp = D.state[0].data();
            Real* sd = D.state[1].data();
            for (std::size_t r = D.row_runs[j]; r < D.row_runs[j + 1]; ++r) {
                const Run& run = D.runs[r];
                const std::size_t L = run.len;
                const Real* __restrict e = f + run.cell0;
                Real* __restrict dp = D.dp.data() + run.k0;
                const Coeffs* pc = coeffs_.data() + set_first_[run.set];
                const std::uint32_t np = set_count_[run.set];
                for (std::size_t k = 0; k < L; ++k) dp[k] = 0;
                for (std::uint32_t q = 0; q < np; ++q) {
                    const Real kd = pc[q].kd, kr = pc[q].kr, c3 = pc[q].c3;
                    Real* __restrict p = sp + run.state0 + q * L;
                    Real* __restrict d = sd + run.state0 + q * L;
                    if (!pc[q].plain) {  // generalized pole: dP += m0 d^{n+1} + m1 (d^{n+1} - d^n)
                        const Real m0 = pc[q].m0, m1 = pc[q].m1;
                        for (std::size_t k = 0; k < L; ++k) {
                            const Real inc = (kr * p[k] + c3 * e[k]) - kd * d[k];  // d^{n+1} - d^n, not
                            const Real dn = d[k] + inc;                           // a difference of two
                            dp[k] += m0 * dn + m1 * inc;                          // rounded values
                            d[k] = dn;
                            p[k] += dn;
                        }
                        continue;
                    }
                    if (kr == Real(0)) {  // Drude: P~ does not enter
                        for (std::size_t k = 0; k < L; ++k) {
                            const Real dn = (d[k] - kd * d[k]) + c3 * e[k];
                            dp[k] += dn;
                            d[k] = dn;
                        }
                        continue;
                    }
                    for (std::size_t k = 0; k < L; ++k) {
                        const Real dn = (d[k] - kd * d[k]) + (kr * p[k] + c3 * e[k]);
                        dp[k] += dn;
                        d[k] = dn;
                        p[k] += dn;
                    }
                }
            }
        }
    }
    /// Post-pass of row j: E -= weight * cb / S * dP (after the ordinary row update).
    void after_e_row(const StepContext<Real>& ctx, int j) override {
        for (PerComponent& D : comps_) {
            Real* f = ctx.field[D.comp];
            for (std::size_t r = D.row_runs[j]; r < D.row_runs[j + 1]; ++r) {
                const Run& run = D.runs[r];
                Real* __restrict e = f + run.cell0;
                const Real* __restrict dp = D.dp.data() + run.k0;
                const Real* __restrict co = D.coef.data() + run.k0;
                for (std::size_t k = 0; k < run.len; ++k) e[k] -= co[k] * dp[k];
            }
        }
    }

private:
    struct Coeffs {
        Real kd, kr, c3;  ///< pole_damping, pole_restoring, c3 (scene.hpp PoleCoeffs)
        Real m0, m1;      ///< the generalized pole's numerator (scene.hpp PoleCoeffs)
        bool plain;       ///< m0 = 1, m1 = 0 (plain_pole)
    };
    struct Run {
        CellIndex cell0 = 0;      ///< flat index of the first cell
        std::uint32_t len = 0;    ///< cells
        std::uint32_t set = 0;    ///< pole set
        std::size_t k0 = 0;       ///< index of the first cell in the per-cell arrays
        std::size_t state0 = 0;   ///< first state value
    };
    struct PerComponent {
        int comp = 0;
        std::vector<Run> runs;
        std::vector<std::size_t> row_runs;  ///< runs of row j: [row_runs[j], row_runs[j+1])
        std::vector<Real> coef;             ///< per cell: weight * cb / S
        std::vector<Real> dp;               ///< per cell scratch: sum of the pole increments
        std::vector<Real> state[2];         ///< P~^n and d^n = P~^n - P~^{n-1} (difference form)
    };
    std::vector<PerComponent> comps_;
    std::vector<std::uint32_t> set_first_, set_count_, set_drude_;  ///< per pole set: first pole, poles, Drude poles (kr = 0)
    std::vector<Coeffs> coeffs_;
    double bytes_ = 0;
};

// ------------------------------------------------------------------------ sources

/// Sources (scene.hpp SourceTerm): F[cell] += weight * waveform.value(t - delay) on one
/// component, H sources at t = n dt, E sources at t = (n + 1/2) dt. The waveform values
/// are computed once per step; the source cells are filed under their rows so that each
/// row adds its own during the sweep. Traffic: one read-modify-write of each source cell.
template <typename Real>
class Sources final : public Extension<Real> {
public:
    Sources(const Scene& sc, const bool (&has)[6]) : nx_(sc.nx), ny_(grid_rows(sc)) {
        std::vector<RowSource> h, e;
        for (std::size_t k = 0; k < sc.sources.size(); ++k) {
            const SourceTerm& st = sc.sources[k];
            if (!has[int(st.component)])
                throw RunError(std::string("CPU engine: source on ") + component_name(st.component) +
                               ", which this polarization lacks");
            if (st.cells.size() != st.weights.size())
                throw RunError("CPU engine: source cells and weights differ in length");
            for (auto c : st.cells)
                if (c < 0 || std::size_t(c) >= sc.cells())
                    throw RunError("CPU engine: source cell index " + std::to_string(c) + " outside the grid");
            for (std::size_t q = 0; q < st.cells.size(); ++q) {
                RowSource r{st.cells[q], int(st.component), int(k), st.weights[q]};
                (is_electric(st.component) ? e : h).push_back(r);
            }
        }
        cells_ = h.size() + e.size();
        file(h, h_src_, h_src_row_);
        file(e, e_src_, e_src_row_);
        value_.assign(sc.sources.size(), 0.0);
    }
    bool empty() const { return cells_ == 0; }
    unsigned phases() const override { return BeforeStep | AfterHRow | AfterERow; }
    double bytes_per_step() const override { return 2.0 * sizeof(Real) * double(cells_); }

    void before_step(const StepContext<Real>& ctx) override {
        const double dt = ctx.scene->dt_s;
        const double tn = double(ctx.step) * dt;
        for (std::size_t k = 0; k < ctx.scene->sources.size(); ++k) {
            const SourceTerm& st = ctx.scene->sources[k];
            const double t = is_electric(st.component) ? tn + 0.5 * dt : tn;
            value_[k] = st.waveform.value(t - st.delay_s);
        }
    }
    void after_h_row(const StepContext<Real>& ctx, int j) override { add_row(ctx, h_src_, h_src_row_, j); }
    void after_e_row(const StepContext<Real>& ctx, int j) override { add_row(ctx, e_src_, e_src_row_, j); }

private:
    /// A source cell filed under its row.
    struct RowSource {
        CellIndex cell;
        int component;
        int source;
        double weight;
    };
    void file(std::vector<RowSource>& v, std::vector<RowSource>& out, std::vector<std::size_t>& rows) {
        std::stable_sort(v.begin(), v.end(),
                         [&](const RowSource& a, const RowSource& b) { return a.cell / nx_ < b.cell / nx_; });
        out = v;
        rows.assign(std::size_t(ny_) + 1, 0);
        for (const auto& r : out) rows[std::size_t(r.cell / nx_) + 1]++;
        for (int j = 0; j < ny_; ++j) rows[j + 1] += rows[j];
    }
    void add_row(const StepContext<Real>& ctx, const std::vector<RowSource>& src, const std::vector<std::size_t>& rows,
                 int j) {
        for (std::size_t k = rows[j]; k < rows[j + 1]; ++k) {
            const RowSource& r = src[k];
            ctx.field[r.component][r.cell] += Real(r.weight * value_[r.source]);
        }
    }
    int nx_ = 0, ny_ = 0;
    std::size_t cells_ = 0;
    std::vector<RowSource> h_src_, e_src_;
    std::vector<std::size_t> h_src_row_, e_src_row_;
    std::vector<double> value_;
};

// ------------------------------------------------------------------------ walls

/// The E component tangential to the walls normal to `axis` (PEC / Mur) of a 2D grid.
inline Component tangential_e(Polarization p, int axis) {
    if (p == Polarization::TMz) return Component::Ez;
    return axis == 0 ? Component::Ey : Component::Ex;
}
/// The H component tangential to the walls normal to `axis` (PMC) of a 2D grid.
inline Component tangential_h(Polarization p, int axis) {
    if (p == Polarization::TEz) return Component::Hz;
    return axis == 0 ? Component::Hy : Component::Hx;
}

/// PEC and PMC walls of a 2D grid (scene.hpp "Outer boundary"): PMC zeroes the tangential
/// H at h position n - 1/2 after the H update and sources; PEC zeroes the tangential E at
/// e position 0 after the E update and sources. (Mur: MurFaces; the 3D engine zeroes its
/// PEC / PMC faces itself.) Traffic: a few lines per step, nothing next to the sweep.
template <typename Real>
class Walls final : public Extension<Real> {
public:
    explicit Walls(const Scene& sc) : pol_(sc.polarization), nx_(sc.nx), ny_(sc.ny) {
        for (int a = 0; a < 2; ++a) kind_[a] = sc.boundary[a];
    }
    bool empty() const {
        for (BoundaryKind k : kind_)
            if (k == BoundaryKind::Pec || k == BoundaryKind::Pmc) return false;
        return true;
    }
    unsigned phases() const override { return AfterHRow | AfterERow; }

    void after_h_row(const StepContext<Real>& ctx, int j) override {
        if (kind_[0] == BoundaryKind::Pmc) ctx.F(tangential_h(pol_, 0))[std::size_t(j) * nx_ + nx_ - 1] = 0;
        if (kind_[1] == BoundaryKind::Pmc && j == ny_ - 1) zero_row(ctx.F(tangential_h(pol_, 1)), j);
    }
    void after_e_row(const StepContext<Real>& ctx, int j) override {
        if (kind_[0] == BoundaryKind::Pec) ctx.F(tangential_e(pol_, 0))[std::size_t(j) * nx_] = 0;
        if (kind_[1] == BoundaryKind::Pec && j == 0) zero_row(ctx.F(tangential_e(pol_, 1)), 0);
    }

private:
    void zero_row(Real* f, int j) const { std::fill(f + std::size_t(j) * nx_, f + std::size_t(j + 1) * nx_, Real(0)); }
    Polarization pol_;
    int nx_, ny_;
    BoundaryKind kind_[2] = {BoundaryKind::Pml, BoundaryKind::Pml};
};

/// First-order Mur absorbing faces (Mur, IEEE Trans. EMC 23, 377 (1981), eq. 9 at normal
/// incidence; scene.hpp "Outer boundary ... mur"), 2D and 3D. On each `mur` axis a the E
/// components tangential to its faces (2D: tangential_e(polarization, a); 3D: the two E
/// components other than a) obey, on the outermost e planes 0 and n-1 of the axis,
///   E(0)^{n+1} = E(1)^n + (S-1)/(S+1) (E(1)^{n+1} - E(0)^n),   likewise at n-1 with n-2.
/// before_e saves E^n of the planes 0, 1, n-2, n-1 (before the E sweep); after_e (after
/// the sweep, its sources, TF/SF and PEC zeroing) sets planes 0 and n-1, axes in the order
/// x, y, z, each reading the E^{n+1} values present at that moment (at an edge the later
/// axis uses the earlier axis's value of its neighbour). A plane of axis a is the set of
/// cells with index p along a, walked with the flat strides 1, nx, nx ny (x fastest).
/// Throws RunError when a Mur axis has fewer than 2 cells. Traffic: 4 saved planes per
/// face component, small next to the sweep.
template <typename Real>
class MurFaces final : public Extension<Real> {
public:
    explicit MurFaces(const Scene& sc) : k_(Real((sc.courant - 1.0) / (sc.courant + 1.0))) {
        const int dims = sc.dimensions == 3 ? 3 : 2;
        const std::int64_t n[3] = {sc.nx, sc.ny, dims == 3 ? sc.nz : 1};
        const std::int64_t stride[3] = {1, n[0], n[0] * n[1]};
        for (int a = 0; a < dims; ++a) {
            if (sc.boundary[a] != BoundaryKind::Mur) continue;
            if (n[a] < 2)
                throw RunError(std::string("CPU engine: a Mur boundary needs at least 2 cells along its axis (") +
                               "xyz"[a] + ")");
            std::vector<Component> comps;
            if (dims == 3) comps = {Component((a + 1) % 3), Component((a + 2) % 3)};
            else comps = {tangential_e(sc.polarization, a)};
            const int b = a == 0 ? 1 : 0, c = a == 2 ? 1 : 2;  // the in-plane axes, b < c
            for (Component comp : comps) {
                Face f;
                f.component = comp;
                f.nb = n[b];
                f.nc = n[c];
                f.sb = stride[b];
                f.sc = stride[c];
                f.sa = stride[a];
                f.last = (n[a] - 1) * stride[a];
                f.saved.assign(4 * std::size_t(f.nb * f.nc), Real(0));
                faces_.push_back(std::move(f));
            }
        }
    }
    bool empty() const { return faces_.empty(); }
    unsigned phases() const override { return BeforeE | AfterE; }
    double bytes_per_step() const override {
        double b = 0;
        for (const Face& f : faces_) b += double(f.saved.size()) * 3 * sizeof(Real);
        return b;
    }

    /// E^n of planes 0, 1, n-1, n-2 of each face component (saved[4 m + 0..3], m the
    /// in-plane cell).
    /// Only the cells on rows [r0, r1) (each of the four saved cells on its own row).
    void before_e(const StepContext<Real>& ctx, int r0, int r1) override {
        const bool all = r0 <= 0 && r1 >= ctx.ny;
        const std::int64_t lo = std::int64_t(r0) * ctx.nx, hi = std::int64_t(r1) * ctx.nx;
        for (Face& f : faces_) {
            const Real* e = ctx.F(f.component);
            Real* sv = f.saved.data();
            const std::int64_t off[4] = {0, f.sa, f.last, f.last - f.sa};
            for (std::int64_t ic = 0; ic < f.nc; ++ic)
                for (std::int64_t ib = 0; ib < f.nb; ++ib, sv += 4) {
                    const std::int64_t q = ib * f.sb + ic * f.sc;
                    for (int m = 0; m < 4; ++m) {
                        const std::int64_t cell = q + off[m];
                        if (all || (cell >= lo && cell < hi)) sv[m] = e[cell];
                    }
                }
        }
    }
    void after_e(const StepContext<Real>& ctx) override {
        for (Face& f : faces_) {
            Real* e = ctx.F(f.component);
            const Real* sv = f.saved.data();
            for (std::int64_t ic = 0; ic < f.nc; ++ic)
                for (std::int64_t ib = 0; ib < f.nb; ++ib, sv += 4) {
                    const std::int64_t q = ib * f.sb + ic * f.sc;
                    e[q] = sv[1] + k_ * (e[q + f.sa] - sv[0]);
                    e[q + f.last] = sv[3] + k_ * (e[q + f.last - f.sa] - sv[2]);
                }
        }
    }

private:
    struct Face {
        Component component = Component::Ez;
        std::int64_t nb = 0, nc = 0, sb = 0, sc = 0, sa = 0, last = 0;
        std::vector<Real> saved;
    };
    Real k_;
    std::vector<Face> faces_;
};

// ------------------------------------------------------------------------ tensor couplings

/// Sub-pixel tensor couplings (scene.hpp "Anisotropic cells": TEz Ex/Ey in 2D, Ex/Ey/Ez
/// in 3D; Farjadpour et al. 2006, symmetrized Meep coupling): E^n of the listed sites is
/// saved before the E sweep; after the whole step 2 (sources, PEC, Mur) one serial pass
/// forms dE = E - E^n per listed site, then adds sum weight * dE(neighbour). The lists hold
/// only cut cells at oblique interfaces, so the pass costs little next to the sweep.
/// Traffic per listed site and step: E read twice and written once, S = 4 (2D) or 8 (3D)
/// weights and S neighbour dE reads (mostly cached), the saved E^n written and read twice:
/// (6 + S) reals.
template <typename Real>
class TensorCouplings final : public Extension<Real> {
public:
    explicit TensorCouplings(const Scene& sc) { materials_changed(sc); }
    bool empty() const { return sites_ == 0; }
    unsigned phases() const override { return BeforeE | AfterE; }
    double bytes_per_step() const override { return double(sites_) * (6.0 + slots_) * sizeof(Real); }

    /// Validates and converts Scene::anisotropic (the couplings move with live edits).
    void materials_changed(const Scene& sc) override {
        const AnisotropicCells& a = sc.anisotropic;
        sites_ = 0;
        for (int c = 0; c < 3; ++c) cells_[c].clear(), neighbour_[c].clear(), weight_[c].clear(), old_[c].clear();
        if (a.empty()) return;
        dims_ = sc.dimensions == 3 ? 3 : 2;
        ncomp_ = dims_ == 3 ? 3 : 2;
        slots_ = anisotropic_slots(dims_);
        if (dims_ == 2 && sc.polarization != Polarization::TEz)
            throw RunError("CPU engine: anisotropic cells need the TEz polarization");
        if (dims_ == 2 && !a.cells[2].empty()) throw RunError("CPU engine: a 2D scene lists anisotropic Ez sites");
        for (int c = 0; c < ncomp_; ++c) {
            const std::size_t m = a.cells[c].size(), S = std::size_t(slots_);
            if (a.neighbour[c].size() != S * m || a.weight[c].size() != S * m)
                throw RunError("CPU engine: anisotropic neighbour/weight arrays must hold " + std::to_string(S) +
                               " entries per cell");
            for (std::size_t k = 0; k < m; ++k) {
                if (a.cells[c][k] < 0 || std::size_t(a.cells[c][k]) >= sc.cells())
                    throw RunError("CPU engine: anisotropic cell index outside the grid");
                for (int q = 0; q < slots_; ++q) {
                    const std::int32_t nb = a.neighbour[c][S * k + std::size_t(q)];
                    if (nb >= 0 && std::size_t(nb) >= a.cells[anisotropic_partner(c, q / 4, dims_)].size())
                        throw RunError("CPU engine: anisotropic neighbour index out of range");
                }
            }
        }
        for (int c = 0; c < ncomp_; ++c) {
            const std::size_t m = a.cells[c].size(), S = std::size_t(slots_);
            cells_[c] = a.cells[c];
            neighbour_[c] = a.neighbour[c];
            weight_[c].resize(S * m);
            for (std::size_t k = 0; k < S * m; ++k) weight_[c][k] = Real(a.weight[c][k]);
            old_[c].assign(m, Real(0));
            sites_ += m;
        }
    }
    /// E^n of the listed sites on rows [r0, r1) (before their E update).
    void before_e(const StepContext<Real>& ctx, int r0, int r1) override {
        const CellIndex lo = CellIndex(r0) * ctx.nx, hi = CellIndex(r1) * ctx.nx;
        for (int c = 0; c < ncomp_; ++c) {
            const Real* f = ctx.field[c];
            Real* o = old_[c].data();
            for (std::size_t k = 0; k < cells_[c].size(); ++k) {
                const CellIndex cell = cells_[c][k];
                if (cell >= lo && cell < hi) o[k] = f[cell];
            }
        }
    }
    /// End of step 2: dE = E - E^n for every listed site, then E += sum weight * dE(nb).
    void after_e(const StepContext<Real>& ctx) override {
        for (int c = 0; c < ncomp_; ++c) {
            const Real* f = ctx.field[c];
            Real* o = old_[c].data();
            for (std::size_t k = 0; k < cells_[c].size(); ++k) o[k] = f[cells_[c][k]] - o[k];  // now dE
        }
        const std::size_t S = std::size_t(slots_);
        for (int c = 0; c < ncomp_; ++c) {
            Real* f = ctx.field[c];
            const Real* w = weight_[c].data();
            const Real* de[2] = {old_[anisotropic_partner(c, 0, dims_)].data(),
                                 dims_ == 3 ? old_[anisotropic_partner(c, 1, dims_)].data() : nullptr};
            for (std::size_t k = 0; k < cells_[c].size(); ++k) {
                Real s = 0;
                for (std::size_t q = 0; q < S; ++q) {
                    const std::int32_t b = neighbour_[c][S * k + q];
                    if (b >= 0) s += w[S * k + q] * de[q / 4][b];
                }
                f[cells_[c][k]] += s;
            }
        }
    }

private:
    std::size_t sites_ = 0;
    int dims_ = 2, ncomp_ = 2, slots_ = 4;
    std::vector<CellIndex> cells_[3];
    std::vector<std::int32_t> neighbour_[3];
    std::vector<Real> weight_[3];  ///< Scene::anisotropic weights in Real
    std::vector<Real> old_[3];     ///< per listed site: E^n, then dE
};

// ------------------------------------------------------------------------ monitors

/// DFT sets and time probes (scene.hpp DftSet, TimeProbe): after each step, every DFT
/// sample k accumulates X[k][f] += sample * exp(+i 2 pi f t) dt at the component's sample
/// time (E at (n+1) dt, H at (n+1/2) dt), split over the team when large; every probe
/// appends one reduced value. Traffic per DFT sample and step: its one or two field
/// values and the accumulators read and written (32 B per frequency, in double).
template <typename Real>
class Monitors final : public Extension<Real> {
public:
    Monitors(const Scene& sc, const bool (&has)[6]) {
        const std::size_t n = sc.cells();
        for (const auto& d : sc.dft_sets) {
            if (!has[int(d.component)])
                throw RunError(std::string("CPU engine: DFT set on ") + component_name(d.component) +
                               ", which this polarization lacks");
            const std::size_t k = d.cell0.size();
            if (d.w0.size() != k || (!d.cell1.empty() && (d.cell1.size() != k || d.w1.size() != k)))
                throw RunError("CPU engine: DFT set arrays differ in length");
            for (auto c : d.cell0)
                if (c < 0 || std::size_t(c) >= n)
                    throw RunError("CPU engine: DFT cell index " + std::to_string(c) + " outside the grid");
            for (auto c : d.cell1)
                if (c >= 0 && std::size_t(c) >= n) throw RunError("CPU engine: DFT cell1 outside the grid");
            dft_.emplace_back(k * d.frequencies_hz.size(), std::complex<double>(0, 0));
            bytes_ += double(k) * (2.0 * sizeof(Real) + 32.0 * double(d.frequencies_hz.size()));
        }
        for (const auto& p : sc.time_probes) {
            if (!has[int(p.component)])
                throw RunError(std::string("CPU engine: time probe on ") + component_name(p.component) +
                               ", which this polarization lacks");
            if (p.cells.size() != p.weights.size())
                throw RunError("CPU engine: probe cells and weights differ in length");
            for (auto c : p.cells)
                if (c < 0 || std::size_t(c) >= n)
                    throw RunError("CPU engine: probe cell index " + std::to_string(c) + " outside the grid");
            probe_.emplace_back();
            bytes_ += double(p.cells.size()) * sizeof(Real);
        }
    }
    unsigned phases() const override { return AfterStep; }
    double bytes_per_step() const override { return bytes_; }

    const std::vector<std::complex<double>>& dft(int set) const {
        if (set < 0 || set >= int(dft_.size())) throw std::out_of_range("dft: no DFT set " + std::to_string(set));
        return dft_[set];
    }
    const std::vector<double>& time_samples(int probe) const {
        if (probe < 0 || probe >= int(probe_.size()))
            throw std::out_of_range("time_samples: no time probe " + std::to_string(probe));
        return probe_[probe];
    }

    void after_step(const StepContext<Real>& ctx) override {
        const Scene& sc = *ctx.scene;
        const double dt = sc.dt_s;
        const double n = double(ctx.step);  // step being completed: n -> n+1
        for (std::size_t s = 0; s < sc.dft_sets.size(); ++s) {
            const DftSet& d = sc.dft_sets[s];
            const double t = is_electric(d.component) ? (n + 1.0) * dt : (n + 0.5) * dt;
            const std::size_t nf = d.frequencies_hz.size();
            phasor_.resize(nf);
            for (std::size_t q = 0; q < nf; ++q) phasor_[q] = std::polar(dt, 2.0 * units::pi * d.frequencies_hz[q] * t);
            const Real* f = ctx.F(d.component);
            auto* X = dft_[s].data();
            const std::size_t nk = d.cell0.size();
            const std::complex<double>* ph = phasor_.data();
            auto range = [&](std::size_t b, std::size_t e) {
                for (std::size_t k = b; k < e; ++k) {
                    double v = d.w0[k] * double(f[d.cell0[k]]);
                    if (!d.cell1.empty() && d.cell1[k] >= 0) v += d.w1[k] * double(f[d.cell1[k]]);
                    std::complex<double>* x = X + k * nf;
                    for (std::size_t q = 0; q < nf; ++q) x[q] += v * ph[q];
                }
            };
            auto job = [&](int t) {
                long long b, e;
                Team::split((long long)nk, t, ctx.team->size(), b, e);
                range(std::size_t(b), std::size_t(e));
            };
            if ((long long)nk * (long long)nf > 16384) ctx.team->run(job);
            else range(0, nk);
        }
        for (std::size_t p = 0; p < sc.time_probes.size(); ++p) {
            const TimeProbe& tp = sc.time_probes[p];
            const Real* f = ctx.F(tp.component);
            double sw = 0, sf = 0, sf2 = 0;
            for (std::size_t k = 0; k < tp.cells.size(); ++k) {
                const double v = double(f[tp.cells[k]]);
                sw += tp.weights[k];
                sf += tp.weights[k] * v;
                sf2 += tp.weights[k] * v * v;
            }
            double out = 0;
            switch (tp.reduce) {
                case Reduce::Value: out = sf; break;
                case Reduce::Mean: out = sw != 0 ? sf / sw : 0; break;
                case Reduce::Rms: out = sw != 0 ? std::sqrt(std::max(0.0, sf2 / sw)) : 0; break;
                case Reduce::SumSquares: out = sf2; break;
            }
            probe_[p].push_back(out);
        }
    }

private:
    std::vector<std::vector<std::complex<double>>> dft_;
    std::vector<std::vector<double>> probe_;
    std::vector<std::complex<double>> phasor_;
    double bytes_ = 0;
};

// ------------------------------------------------------------------------ the set

/// The extensions of one engine and, per phase, the ones that act in it (empty ones are
/// never added, so a scene without dispersion pays nothing for it).
template <typename Real>
class ExtensionSet {
public:
    void add(std::unique_ptr<Extension<Real>> e) {
        Extension<Real>* p = e.get();
        all_.push_back(std::move(e));
        const unsigned ph = p->phases();
        if (ph & BeforeStep) before_step_.push_back(p);
        if (ph & AfterHRow) after_h_row_.push_back(p);
        if (ph & BeforeE) before_e_.push_back(p);
        if (ph & BeforeERow) before_e_row_.push_back(p);
        if (ph & AfterERow) after_e_row_.push_back(p);
        if (ph & AfterE) after_e_.push_back(p);
        if (ph & AfterStep) after_step_.push_back(p);
    }
    void before_step(const StepContext<Real>& c) { for (auto* e : before_step_) e->before_step(c); }
    void after_h_row(const StepContext<Real>& c, int j) { for (auto* e : after_h_row_) e->after_h_row(c, j); }
    void before_e_rows(const StepContext<Real>& c, int r0, int r1) {
        if (r1 > r0)
            for (auto* e : before_e_) e->before_e(c, r0, r1);
    }
    void before_e_row(const StepContext<Real>& c, int j) { for (auto* e : before_e_row_) e->before_e_row(c, j); }
    void after_e_row(const StepContext<Real>& c, int j) { for (auto* e : after_e_row_) e->after_e_row(c, j); }
    void after_e(const StepContext<Real>& c) { for (auto* e : after_e_) e->after_e(c); }
    void after_step(const StepContext<Real>& c) { for (auto* e : after_step_) e->after_step(c); }
    void materials_changed(const Scene& s) { for (auto& e : all_) e->materials_changed(s); }
    double bytes_per_step() const {
        double b = 0;
        for (const auto& e : all_) b += e->bytes_per_step();
        return b;
    }

private:
    std::vector<std::unique_ptr<Extension<Real>>> all_;
    std::vector<Extension<Real>*> before_step_, after_h_row_, before_e_, before_e_row_, after_e_row_, after_e_,
        after_step_;
};

// ------------------------------------------------------------------------ split steps

/// The time step of the CPU engines (2D and 3D) in the three parts of a split step
/// (subdomain.hpp "Split time step"; split_step_planes): planes along the slowest axis (z rows
/// of ny rows in 3D, single rows of y in 2D), `rows_per_plane` grid rows each.
///   begin     the before-step phase (source waveforms, TF/SF incident lines: no grid cell);
///   interior  the E^n state (Mur faces, tensor sites) of the interior E rows, then the
///             engine's sweep of H over [h_begin, end) and E over [e_begin, end);
///   boundary  the E^n state of the other rows, H of the end planes, then their E, then the
///             after-E (Mur, tensor couplings) and after-step (monitors) phases.
/// Every per-row phase (sources, TF/SF corrections, walls, the pole advance from the row's
/// own E^n) runs with its row, so a halo row is read only after the transfers. Without
/// margins the interior is the whole axis and the three parts are the ordinary step.
template <typename Real>
class SplitStep {
public:
    /// Halo margins lo, hi of an axis of `planes` planes (split_step_planes).
    void configure(int lo, int hi, int planes, int rows_per_plane, bool periodic) {
        p_ = split_step_planes(lo, hi, planes, periodic);
        planes_ = planes;
        rows_ = rows_per_plane;
    }
    void begin(const StepContext<Real>& ctx, ExtensionSet<Real>& ext) {
        ctx_ = ctx;
        ext.before_step(ctx_);
    }
    /// sweep(ctx, h_begin, e_begin, end): the engine's update of those planes with their rows' phases.
    template <class Sweep>
    void interior(ExtensionSet<Real>& ext, Sweep&& sweep) {
        ext.before_e_rows(ctx_, p_.e_begin * rows_, p_.end * rows_);
        sweep(ctx_, p_.h_begin, p_.e_begin, p_.end);
    }
    /// pass(ctx, h, first, last): H (h = true) or E rows of planes [first, last) with their phases.
    template <class Pass>
    void boundary(ExtensionSet<Real>& ext, Pass&& pass) {
        ext.before_e_rows(ctx_, 0, p_.e_begin * rows_);
        ext.before_e_rows(ctx_, p_.end * rows_, planes_ * rows_);
        pass(ctx_, true, 0, p_.h_begin);
        pass(ctx_, true, p_.end, planes_);
        pass(ctx_, false, 0, p_.e_begin);
        pass(ctx_, false, p_.end, planes_);
        ext.after_e(ctx_);
        ext.after_step(ctx_);
    }

private:
    SplitPlanes p_;
    int planes_ = 0, rows_ = 1;
    StepContext<Real> ctx_;  ///< the step in progress, from begin to boundary
};

}  // namespace golightly::cpu
