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
// Dispersive cells (scene.hpp "Dispersive cells"): per E component the compact list is
// cut into runs of consecutive cells of one row with one pole set (Run); per cell only
// the correction coefficient weight * cb / S and a scratch dP; the pole state P~^n and
// P~^{n-1} lives in two arrays (state[steps & 1] holds P~^n, P~^{n+1} overwrites the
// other), pole-major within each run so the updates vectorize over cells.
// Per row of the sweep: a pre-pass over the row's runs reads E^n, advances every pole and
// keeps dP = sum (P~^{n+1} - P~^n); the ordinary row kernel runs over the whole row; a
// post-pass does E -= coef * dP; then the row's E sources. Non-dispersive cells pay
// nothing. Memory traffic per dispersive cell and step (float32, N poles): P 8N read +
// 4N written, coef 4 read, dP 4 written + 4 read (L1), E 4 read twice + 4 written (the
// row is in cache from the ordinary update): 12 N + 12 bytes from memory (6 poles: 84 B)
// on top of the ordinary 28 B; pole coefficients and runs are small tables.
// field_energy() counts eps_inf E^2 only (no polarization energy).
//
// Anisotropic cells (scene.hpp "Anisotropic cells", TEz sub-pixel tensor): E^n of the
// listed sites is saved before the step's sweep; after the whole step 2 (sources, pec,
// Mur) one serial pass forms dE = E - E^n per listed site, then adds the couplings
// sum weight * dE(neighbour). The lists hold only cut cells at oblique interfaces (a few
// per cell of perimeter), so the pass costs nothing next to the sweep; scenes without
// them skip it.
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

#include "cpu_kernels.hpp"
#include "cpu_team.hpp"
#include "golightly/colormap.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
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

constexpr int ci(Component c) { return static_cast<int>(c); }

std::string cpu_model_name() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            auto p = line.find(':');
            if (p != std::string::npos) {
                std::string s = line.substr(p + 1);
                s.erase(0, s.find_first_not_of(" \t"));
                return s;
            }
        }
    }
    return "CPU";
}

std::size_t available_memory_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::size_t value;
    std::string unit;
    while (in >> key >> value >> unit) {
        if (key == "MemAvailable:") return value * 1024;
    }
    return 0;
}

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

bool cpu_has_avx2() {
    const char* env = std::getenv("GOLIGHTLY_CPU_KERNELS");
    if (env && std::string(env) == "generic") return false;
#ifdef GOLIGHTLY_CPU_AVX2
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

/// A per-cell array whose first element sits `skew` x 64 bytes into its allocation. Large
/// allocations come page aligned, so without a skew every field, coefficient array and
/// psi stream would start at the same address modulo 4 KiB, and the loads of one stream
/// would falsely alias the stores of another (4K aliasing).
template <typename Real>
class SkewedArray {
public:
    void assign(std::size_t n, Real v, int skew) {
        off_ = std::size_t(skew) * 64 / sizeof(Real);
        buf_.assign(n + off_, v);
        n_ = n;
    }
    void resize(std::size_t n, int skew) { assign(n, Real(0), skew); }
    Real* data() { return buf_.data() + off_; }
    const Real* data() const { return buf_.data() + off_; }
    Real& operator[](std::size_t k) { return buf_[off_ + k]; }
    const Real& operator[](std::size_t k) const { return buf_[off_ + k]; }
    std::size_t size() const { return n_; }

private:
    std::vector<Real> buf_;
    std::size_t off_ = 0, n_ = 0;
};

/// A run of cells [i0, i1) of a row that is either wholly inside an x PML slab or
/// wholly outside, and that either is the boundary cell (edge) or not.
struct Segment {
    int i0 = 0, i1 = 0;
    bool px = false;
    bool edge = false;
};

template <typename Real>
class CpuEngine final : public Engine {
public:
    CpuEngine(const Scene& scene, int threads) : sc_(scene) {
        nx_ = sc_.nx;
        ny_ = sc_.ny;
        if (nx_ <= 0 || ny_ <= 0) throw RunError("CPU engine: the scene has no cells (nx, ny must be > 0)");
        for (int a = 0; a < 2; ++a) {
            plo_[a] = sc_.pml_lo[a];
            phi_[a] = sc_.pml_hi[a];
            const int n = a == 0 ? nx_ : ny_;
            if (plo_[a] < 0 || phi_[a] < 0 || plo_[a] + phi_[a] > n)
                throw RunError("CPU engine: PML cells exceed the grid");
            if (sc_.boundary[a] == BoundaryKind::Mur && n < 2)
                throw RunError("CPU engine: a Mur boundary needs at least 2 cells along its axis");
        }
        threads_ = threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
        tm_ = sc_.polarization == Polarization::TMz;
        // With the automatic thread count, small grids run on one thread: waking the team
        // costs more than the work. An explicit thread count is honoured.
        parallel_ = threads_ > 1 && (threads > 0 || sc_.cells() >= (std::size_t(1) << 18));
        team_ = std::make_unique<cpu::Team>(parallel_ ? std::min(threads_, ny_) : 1);
        run_op_ = KernelTable<Real>::pick(cpu_has_avx2());
        const std::size_t n = sc_.cells();

        for (Component c : electric_components(sc_.polarization)) has_[ci(c)] = true;
        for (Component c : magnetic_components(sc_.polarization)) has_[ci(c)] = true;
        for (int c = 0; c < 6; ++c)
            if (has_[c]) field_[c].assign(n, Real(0), c);
        zero_row_.assign(std::size_t(nx_), Real(0));

        // Coefficients per cell, from the material table.
        eps_table_.resize(sc_.table.size());
        for (std::size_t t = 0; t < sc_.table.size(); ++t) eps_table_[t] = sc_.table[t].eps_r;
        for (Component c : electric_components(sc_.polarization)) {
            const auto& idx = sc_.material_index[ci(c)];
            if (idx.size() != n)
                throw RunError(std::string("CPU engine: material_index of ") + component_name(c) +
                               " must hold nx*ny entries");
            bool lossy = false;
            for (const auto& e : sc_.table) lossy |= e.ca != 1.0;
            cb_[ci(c)].resize(n, 6 + ci(c));
            if (lossy) ca_[ci(c)].resize(n, 9 + ci(c));
            lossy_[ci(c)] = lossy;
            for (std::size_t k = 0; k < n; ++k) {
                const std::uint16_t m = idx[k];
                if (m >= sc_.table.size())
                    throw RunError("CPU engine: material index out of range of the table");
                cb_[ci(c)][k] = Real(sc_.table[m].cb);
                if (lossy) ca_[ci(c)][k] = Real(sc_.table[m].ca);
            }
        }

        // CPML profiles (identity arrays when absent).
        for (int a = 0; a < 2; ++a) {
            const int na = a == 0 ? nx_ : ny_;
            const CpmlAxis& ax = sc_.cpml[a];
            auto conv = [&](const std::vector<double>& v, double dflt) {
                std::vector<Real> r(static_cast<std::size_t>(na), static_cast<Real>(dflt));
                if (v.size() == std::size_t(na))
                    for (int i = 0; i < na; ++i) r[i] = Real(v[i]);
                return r;
            };
            prof_[a].be = conv(ax.b_e, 0); prof_[a].ce = conv(ax.c_e, 0); prof_[a].ike = conv(ax.inv_kappa_e, 1);
            prof_[a].bh = conv(ax.b_h, 0); prof_[a].ch = conv(ax.c_h, 0); prof_[a].ikh = conv(ax.inv_kappa_h, 1);
        }
        wx_ = plo_[0] + phi_[0];
        wy_ = plo_[1] + phi_[1];
        // psi per updated component and derivative axis
        const std::size_t px_size = std::size_t(wx_) * ny_, py_size = std::size_t(wy_) * nx_;
        if (tm_) {
            psi_x_[ci(Component::Hy)].assign(px_size, Real(0));
            psi_x_[ci(Component::Ez)].assign(px_size, Real(0));
            psi_y_[ci(Component::Hx)].assign(py_size, Real(0));
            psi_y_[ci(Component::Ez)].assign(py_size, Real(0));
        } else {
            psi_x_[ci(Component::Hz)].assign(px_size, Real(0));
            psi_x_[ci(Component::Ey)].assign(px_size, Real(0));
            psi_y_[ci(Component::Hz)].assign(py_size, Real(0));
            psi_y_[ci(Component::Ex)].assign(py_size, Real(0));
        }
        make_segments();
        build_uniform_map();
        build_dispersive();
        build_anisotropic();

        // Validate sources and monitors.
        auto check_cells = [&](const std::vector<std::int32_t>& cells, const char* what) {
            for (auto c : cells)
                if (c < 0 || std::size_t(c) >= n)
                    throw RunError(std::string("CPU engine: ") + what + " cell index " + std::to_string(c) +
                                   " outside the grid");
        };
        for (const auto& s : sc_.sources) {
            if (!has_[ci(s.component)])
                throw RunError(std::string("CPU engine: source on ") + component_name(s.component) +
                               ", which this polarization lacks");
            if (s.cells.size() != s.weights.size())
                throw RunError("CPU engine: source cells and weights differ in length");
            check_cells(s.cells, "source");
        }
        for (const auto& d : sc_.dft_sets) {
            if (!has_[ci(d.component)])
                throw RunError(std::string("CPU engine: DFT set on ") + component_name(d.component) +
                               ", which this polarization lacks");
            const std::size_t k = d.cell0.size();
            if (d.w0.size() != k || (!d.cell1.empty() && (d.cell1.size() != k || d.w1.size() != k)))
                throw RunError("CPU engine: DFT set arrays differ in length");
            check_cells(d.cell0, "DFT");
            for (auto c : d.cell1)
                if (c >= 0 && std::size_t(c) >= n) throw RunError("CPU engine: DFT cell1 outside the grid");
            dft_.emplace_back(k * d.frequencies_hz.size(), std::complex<double>(0, 0));
        }
        for (const auto& p : sc_.time_probes) {
            if (!has_[ci(p.component)])
                throw RunError(std::string("CPU engine: time probe on ") + component_name(p.component) +
                               ", which this polarization lacks");
            if (p.cells.size() != p.weights.size())
                throw RunError("CPU engine: probe cells and weights differ in length");
            check_cells(p.cells, "probe");
            probe_.emplace_back();
        }
        build_row_sources();
        if (const char* env = std::getenv("GOLIGHTLY_CPU_UNFUSED")) two_pass_ = std::string(env) == "1";
        // Mur scratch: old values of the two outermost lines at each end.
        mur_x_.assign(4 * std::size_t(ny_), Real(0));
        mur_y_.assign(4 * std::size_t(nx_), Real(0));
        device_ = cpu_model_name() + ", " + std::to_string(threads_) + " thread" + (threads_ == 1 ? "" : "s") +
                  (run_op_ == KernelTable<Real>::pick(false) ? "" : ", AVX2");
    }

    std::string backend() const override { return "cpu"; }
    std::string device() const override { return device_; }
    Precision precision() const override {
        return sizeof(Real) == 4 ? Precision::Float32 : Precision::Float64;
    }
    std::int64_t steps_done() const override { return steps_; }

    /// Traffic model of the fused single sweep (one_step): each field value read once and
    /// written once per step (TMz Ez, Hx, Hy; TEz Ex, Ey, Hz: 6 values), plus the per-cell
    /// cb of each E component, and ca too when a material is lossy. Rows of one material
    /// skip the coefficient streams, so this is an upper bound for mixed rows. Dispersive
    /// pass (header comment): per listed cell and pole P~ read at two levels and written
    /// once, plus the cell's coefficient and the dP scratch (write + read): (3 N + 3) R.
    double bytes_per_cell_update() const override {
        const double s = sizeof(Real);
        const auto e_components = electric_components(sc_.polarization);
        double bytes = 6 * s;
        for (Component c : e_components) bytes += s * (lossy_[ci(c)] ? 2 : 1);
        double dispersive = 0;
        for (const DispersiveCells& d : sc_.dispersive)
            for (std::uint16_t set : d.pole_set) dispersive += s * (3.0 * double(sc_.pole_sets[set].poles.size()) + 3.0);
        return bytes + dispersive / double(sc_.cells());
    }

    void step(int n_steps) override {
        for (int s = 0; s < n_steps; ++s) one_step();
    }

    double field_energy() override {
        const std::size_t n = sc_.cells();
        std::vector<double> part(std::size_t(team_->size()), 0.0);
        auto job = [&](int t) {
            long long b, e;
            cpu::Team::split((long long)n, t, team_->size(), b, e);
            double sum = 0;
            for (int c = 0; c < 6; ++c) {
                if (!has_[c]) continue;
                const Real* f = field_[c].data();
                if (is_electric(Component(c))) {
                    const std::uint16_t* idx = sc_.material_index[c].data();
                    const double* eps = eps_table_.data();
                    for (long long k = b; k < e; ++k) sum += eps[idx[k]] * double(f[k]) * double(f[k]);
                } else {
                    for (long long k = b; k < e; ++k) sum += double(f[k]) * double(f[k]);
                }
            }
            part[t] = sum;
        };
        team_->run(job);
        double sum = 0;
        for (double p : part) sum += p;
        const double dx = sc_.dx_um * units::um;
        return 0.5 * units::eps0 * dx * dx * sum;
    }

    bool fields_finite() override {
        const std::size_t n = sc_.cells();
        std::vector<int> bad(std::size_t(team_->size()), 0);
        auto job = [&](int t) {
            long long b, e;
            cpu::Team::split((long long)n, t, team_->size(), b, e);
            for (int c = 0; c < 6; ++c) {
                if (!has_[c]) continue;
                const Real* f = field_[c].data();
                Real acc = 0;  // x * 0 is NaN exactly for NaN and Inf
                for (long long k = b; k < e; ++k) acc += f[k] * Real(0);
                if (!std::isfinite(acc)) bad[t] = 1;
            }
        };
        team_->run(job);
        for (int v : bad)
            if (v) return false;
        return true;
    }

    void get_field(Component c, std::vector<double>& out) override {
        require(c);
        const auto& f = field_[ci(c)];
        out.resize(f.size());
        for (std::size_t k = 0; k < f.size(); ++k) out[k] = double(f[k]);
    }

    void set_field(Component c, const std::vector<double>& values) override {
        require(c);
        auto& f = field_[ci(c)];
        if (values.size() != f.size())
            throw std::invalid_argument(std::string("set_field: ") + component_name(c) + " needs nx*ny = " +
                                        std::to_string(f.size()) + " values, got " +
                                        std::to_string(values.size()));
        for (std::size_t k = 0; k < f.size(); ++k) f[k] = Real(values[k]);
    }

    std::vector<std::complex<double>> dft(int set) override {
        if (set < 0 || set >= int(dft_.size())) throw std::out_of_range("dft: no DFT set " + std::to_string(set));
        return dft_[set];
    }

    std::vector<double> time_samples(int probe) override {
        if (probe < 0 || probe >= int(probe_.size()))
            throw std::out_of_range("time_samples: no time probe " + std::to_string(probe));
        return probe_[probe];
    }

    FieldSamples sample_field(Component c, int max_width, int max_height, bool squared) override {
        require(c);
        FieldSamples out;
        const int fac = frame_factor(nx_, ny_, max_width, max_height);
        out.factor = fac;
        out.width = (nx_ + fac - 1) / fac;
        out.height = (ny_ + fac - 1) / fac;
        out.values.assign(std::size_t(out.width) * out.height, 0.f);
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
        double scale = req.scale;
        if (!(scale > 0)) {
            scale = 0;
            for (double v : avg)
                if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
            if (!(scale > 0)) scale = 1;
        }
        Image8 img;
        img.width = W;
        img.height = H;
        img.channels = 4;
        img.pixels.resize(std::size_t(W) * H * 4);
        const float inv = float(1.0 / scale);
        for (int by = 0; by < H; ++by) {
            std::uint8_t* row = img.pixels.data() + std::size_t(H - 1 - by) * W * 4;
            for (int bx = 0; bx < W; ++bx) {
                double v = avg[std::size_t(by) * W + bx];
                if (!std::isfinite(v)) v = 0;
                diverging_rgb(float(v) * inv, row[4 * bx], row[4 * bx + 1], row[4 * bx + 2]);
                row[4 * bx + 3] = req.viewport_alpha ? viewport_alpha_byte(float(v) * inv) : std::uint8_t(255);
            }
        }
        return img;
    }

    /// Live edit (engine.hpp, update_materials): the material table and index maps of
    /// `edited` replace the running ones; the per-cell ca / cb arrays, the uniform-row map,
    /// the energy's eps table and the dispersive correction coefficients follow. Fields,
    /// psi, pole state, DFTs and probes stay. Throws std::invalid_argument (engine
    /// untouched) when check_material_update() refuses the scene.
    void update_materials(const Scene& edited) override {
        check_material_update(sc_, edited);
        const std::size_t n = sc_.cells();
        bool lossy = false;
        for (const auto& e : edited.table) lossy |= e.ca != 1.0;
        // Build the new arrays first, so that an allocation failure leaves the engine as it was.
        SkewedArray<Real> cb[3], ca[3];
        for (Component comp : electric_components(sc_.polarization)) {
            const int c = ci(comp);
            const auto& idx = edited.material_index[c];
            cb[c].resize(n, 6 + c);
            if (lossy) ca[c].resize(n, 9 + c);
            for (std::size_t k = 0; k < n; ++k) {
                const EUpdateCoeffs& m = edited.table[idx[k]];
                cb[c][k] = Real(m.cb);
                if (lossy) ca[c][k] = Real(m.ca);
            }
        }
        sc_.table = edited.table;
        for (Component comp : electric_components(sc_.polarization)) {
            const int c = ci(comp);
            sc_.material_index[c] = edited.material_index[c];
            cb_[c] = std::move(cb[c]);
            ca_[c] = std::move(ca[c]);
            lossy_[c] = lossy;
        }
        // TEz sub-pixel tensor couplings follow the edited interfaces (their state lives
        // within one step only).
        if (!same_anisotropic(sc_.anisotropic, edited.anisotropic)) {
            sc_.anisotropic = edited.anisotropic;
            any_anisotropic_ = false;
            build_anisotropic();
        }
        eps_table_.resize(sc_.table.size());
        for (std::size_t t = 0; t < sc_.table.size(); ++t) eps_table_[t] = sc_.table[t].eps_r;
        build_uniform_map();
        // Dispersive cells are unchanged (checked); their coefficient follows the new cb.
        const double S = sc_.courant;
        for (int c : disp_components_) {
            const DispersiveCells& d = sc_.dispersive[c];
            const auto& idx = sc_.material_index[c];
            for (std::size_t k = 0; k < d.cells.size(); ++k)
                disp_[c].coef[k] = Real(d.weight[k] * sc_.table[idx[std::size_t(d.cells[k])]].cb / S);
        }
    }

private:
    void require(Component c) const {
        if (!has_[ci(c)])
            throw std::invalid_argument(std::string("component ") + component_name(c) +
                                        " does not exist in this polarization");
    }

    bool in_slab(int axis, int i) const {
        const int n = axis == 0 ? nx_ : ny_;
        return i < plo_[axis] || i >= n - phi_[axis];
    }
    int slab_index(int axis, int i) const {
        const int n = axis == 0 ? nx_ : ny_;
        return i < plo_[axis] ? i : plo_[axis] + i - (n - phi_[axis]);
    }

    void make_segments() {
        auto build = [&](std::vector<int> cuts, bool edge_left) {
            cuts.push_back(0);
            cuts.push_back(nx_);
            std::sort(cuts.begin(), cuts.end());
            cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
            std::vector<Segment> segs;
            for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
                const int a = cuts[k], b = cuts[k + 1];
                if (a < 0 || b > nx_ || a >= b) continue;
                Segment s;
                s.i0 = a;
                s.i1 = b;
                s.px = in_slab(0, a);
                s.edge = edge_left ? a == 0 : b == nx_;
                segs.push_back(s);
            }
            return segs;
        };
        seg_e_ = build({1, plo_[0], nx_ - phi_[0]}, true);
        seg_h_ = build({nx_ - 1, plo_[0], nx_ - phi_[0]}, false);
    }

    Real* F(Component c) { return field_[ci(c)].data(); }
    /// Row j+1 of component c: the next row, row 0 when y is periodic, else zeros.
    const Real* row_above(Component c, int j) const {
        if (j + 1 < ny_) return field_[ci(c)].data() + std::size_t(j + 1) * nx_;
        if (sc_.boundary[1] == BoundaryKind::Periodic) return field_[ci(c)].data();
        return zero_row_.data();
    }
    /// Row j-1 of component c: the previous row, row ny-1 when y is periodic, else zeros.
    const Real* row_below(Component c, int j) const {
        if (j > 0) return field_[ci(c)].data() + std::size_t(j - 1) * nx_;
        if (sc_.boundary[1] == BoundaryKind::Periodic) return field_[ci(c)].data() + std::size_t(ny_ - 1) * nx_;
        return zero_row_.data();
    }
    bool periodic_x() const { return sc_.boundary[0] == BoundaryKind::Periodic; }

    void set_py(RowArgs<Real>& a, Component owner, int j, bool e_pos, int i0) {
        const auto& p = prof_[1];
        a.iky = e_pos ? p.ike[j] : p.ikh[j];
        a.by = e_pos ? p.be[j] : p.bh[j];
        a.cy = e_pos ? p.ce[j] : p.ch[j];
        a.psiy = psi_y_[ci(owner)].data() + std::size_t(slab_index(1, j)) * nx_ + i0;
    }
    void set_px(RowArgs<Real>& a, Component owner, int j, bool e_pos, int i0) {
        const auto& p = prof_[0];
        a.ikx = (e_pos ? p.ike : p.ikh).data() + i0;
        a.bx = (e_pos ? p.be : p.bh).data() + i0;
        a.cx = (e_pos ? p.ce : p.ch).data() + i0;
        a.psix = psi_x_[ci(owner)].data() + std::size_t(j) * wx_ + slab_index(0, i0);
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

    /// Dispersive state of one E component (see the file comment). The compact list is
    /// cut into runs: maximal sequences of consecutive cells of one row with one pole set.
    /// A run of length L and np poles owns np * L state values per time level, pole-major
    /// (P~_q of its k-th cell at state0 + q * L + k), so the pole update streams
    /// contiguous arrays and vectorizes over the cells of the run.
    struct Run {
        std::int32_t cell0 = 0;   ///< flat index of the first cell
        std::uint32_t len = 0;    ///< cells
        std::uint32_t set = 0;    ///< pole set
        std::size_t k0 = 0;       ///< index of the first cell in the per-cell arrays
        std::size_t state0 = 0;   ///< first state value
    };
    struct Dispersive {
        std::vector<Run> runs;
        std::vector<std::size_t> row_runs;  ///< runs of row j: [row_runs[j], row_runs[j+1])
        std::vector<Real> coef;             ///< per cell: weight * cb / S
        std::vector<Real> dp;               ///< per cell scratch: sum of the pole increments
        std::vector<Real> state[2];         ///< state[steps & 1] holds P~^n
    };
    struct PoleCoeffsR {
        Real c1, c2, c3;
    };

    void build_dispersive() {
        set_first_.clear();
        set_count_.clear();
        coeffs_.clear();
        for (const PoleSet& ps : sc_.pole_sets) {
            set_first_.push_back(std::uint32_t(coeffs_.size()));
            set_count_.push_back(std::uint32_t(ps.poles.size()));
            for (const PoleCoeffs& c : ps.poles) coeffs_.push_back({Real(c.c1), Real(c.c2), Real(c.c3)});
        }
        const double S = sc_.courant;
        for (int c = 0; c < 3; ++c) {
            const DispersiveCells& d = sc_.dispersive[c];
            Dispersive& D = disp_[c];
            if (d.cells.empty()) continue;
            if (!has_[c] || !is_electric(Component(c)))
                throw RunError(std::string("CPU engine: dispersive cells on ") + component_name(Component(c)) +
                               ", which is not an E component of this polarization");
            const std::size_t m = d.cells.size();
            if (d.pole_set.size() != m || d.weight.size() != m)
                throw RunError("CPU engine: dispersive cell arrays differ in length");
            D.coef.resize(m);
            D.dp.assign(m, Real(0));
            const auto& idx = sc_.material_index[c];
            std::size_t total = 0;
            for (std::size_t k = 0; k < m; ++k) {
                const std::int32_t cell = d.cells[k];
                if (cell < 0 || std::size_t(cell) >= sc_.cells())
                    throw RunError("CPU engine: dispersive cell index outside the grid");
                if (k > 0 && cell <= d.cells[k - 1])
                    throw RunError("CPU engine: dispersive cells must be sorted by increasing index, without repeats");
                if (d.pole_set[k] >= sc_.pole_sets.size())
                    throw RunError("CPU engine: dispersive pole-set index out of range");
                D.coef[k] = Real(d.weight[k] * sc_.table[idx[std::size_t(cell)]].cb / S);
                const bool extend = !D.runs.empty() && D.runs.back().set == d.pole_set[k] &&
                                    cell == d.cells[k - 1] + 1 && cell / nx_ == d.cells[k - 1] / nx_;
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
            }
            total += std::size_t(D.runs.back().len) * set_count_[D.runs.back().set];
            D.state[0].assign(total, Real(0));
            D.state[1].assign(total, Real(0));
            D.row_runs.assign(std::size_t(ny_) + 1, 0);
            for (const Run& r : D.runs) D.row_runs[std::size_t(r.cell0 / nx_) + 1]++;
            for (int j = 0; j < ny_; ++j) D.row_runs[j + 1] += D.row_runs[j];
            any_dispersive_ = true;
            disp_components_.push_back(c);
        }
    }

    /// Validates and converts Scene::anisotropic (scene.hpp "Anisotropic cells").
    void build_anisotropic() {
        const AnisotropicCells& a = sc_.anisotropic;
        if (a.empty()) return;
        if (tm_) throw RunError("CPU engine: anisotropic cells need the TEz polarization");
        for (int c = 0; c < 2; ++c) {
            const std::size_t m = a.cells[c].size();
            if (a.neighbour[c].size() != 4 * m || a.weight[c].size() != 4 * m)
                throw RunError("CPU engine: anisotropic neighbour/weight arrays must hold 4 entries per cell");
            for (std::size_t k = 0; k < m; ++k) {
                if (a.cells[c][k] < 0 || std::size_t(a.cells[c][k]) >= sc_.cells())
                    throw RunError("CPU engine: anisotropic cell index outside the grid");
                for (int q = 0; q < 4; ++q) {
                    const std::int32_t nb = a.neighbour[c][4 * k + q];
                    if (nb >= 0 && std::size_t(nb) >= a.cells[1 - c].size())
                        throw RunError("CPU engine: anisotropic neighbour index out of range");
                }
            }
            an_weight_[c].resize(4 * m);
            for (std::size_t k = 0; k < 4 * m; ++k) an_weight_[c][k] = Real(a.weight[c][k]);
            an_old_[c].assign(m, Real(0));
        }
        any_anisotropic_ = true;
    }
    /// E^n of the listed sites (before the step's E update).
    void anisotropic_save() {
        for (int c = 0; c < 2; ++c) {
            const Real* f = field_[c].data();
            const auto& cells = sc_.anisotropic.cells[c];
            Real* o = an_old_[c].data();
            for (std::size_t k = 0; k < cells.size(); ++k) o[k] = f[cells[k]];
        }
    }
    /// End of step 2: dE = E - E^n for every listed site, then E += sum weight * dE(nb).
    void anisotropic_apply() {
        for (int c = 0; c < 2; ++c) {
            const Real* f = field_[c].data();
            const auto& cells = sc_.anisotropic.cells[c];
            Real* o = an_old_[c].data();
            for (std::size_t k = 0; k < cells.size(); ++k) o[k] = f[cells[k]] - o[k];  // now dE
        }
        for (int c = 0; c < 2; ++c) {
            Real* f = field_[c].data();
            const auto& cells = sc_.anisotropic.cells[c];
            const auto& nb = sc_.anisotropic.neighbour[c];
            const Real* w = an_weight_[c].data();
            const Real* de = an_old_[1 - c].data();
            for (std::size_t k = 0; k < cells.size(); ++k) {
                Real s = 0;
                for (int q = 0; q < 4; ++q) {
                    const std::int32_t b = nb[4 * k + q];
                    if (b >= 0) s += w[4 * k + q] * de[b];
                }
                f[cells[k]] += s;
            }
        }
    }

    /// Pre-pass of row j: advances the poles from E^n (before the row's E update):
    /// P~^{n+1} = c1 P~^n + c2 P~^{n-1} + c3 E^n into the P~^{n-1} slot, dp = sum of
    /// P~^{n+1} - P~^n per cell.
    void dispersive_pre(int j) {
        const int cur = int(steps_ & 1);
        for (int c : disp_components_) {
            Dispersive& D = disp_[c];
            const Real* f = field_[c].data();
            const Real* scur = D.state[cur].data();
            Real* sold = D.state[1 - cur].data();
            for (std::size_t r = D.row_runs[j]; r < D.row_runs[j + 1]; ++r) {
                const Run& run = D.runs[r];
                const std::size_t L = run.len;
                const Real* __restrict e = f + run.cell0;
                Real* __restrict dp = D.dp.data() + run.k0;
                const PoleCoeffsR* pc = coeffs_.data() + set_first_[run.set];
                const std::uint32_t np = set_count_[run.set];
                for (std::size_t k = 0; k < L; ++k) dp[k] = 0;
                for (std::uint32_t q = 0; q < np; ++q) {
                    const Real c1 = pc[q].c1, c2 = pc[q].c2, c3 = pc[q].c3;
                    const Real* __restrict pn = scur + run.state0 + q * L;
                    Real* __restrict po = sold + run.state0 + q * L;
                    for (std::size_t k = 0; k < L; ++k) {
                        const Real nw = c1 * pn[k] + c2 * po[k] + c3 * e[k];
                        dp[k] += nw - pn[k];
                        po[k] = nw;
                    }
                }
            }
        }
    }
    /// Post-pass of row j: E -= weight * cb / S * dP (after the ordinary row update).
    void dispersive_post(int j) {
        for (int c : disp_components_) {
            Dispersive& D = disp_[c];
            Real* f = field_[c].data();
            for (std::size_t r = D.row_runs[j]; r < D.row_runs[j + 1]; ++r) {
                const Run& run = D.runs[r];
                Real* __restrict e = f + run.cell0;
                const Real* __restrict dp = D.dp.data() + run.k0;
                const Real* __restrict co = D.coef.data() + run.k0;
                for (std::size_t k = 0; k < run.len; ++k) e[k] -= co[k] * dp[k];
            }
        }
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
                Real nb = periodic_x() ? ez[0] : Real(0);
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
                Real nb = periodic_x() ? ey[0] : Real(0);
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
                Real nb = periodic_x() ? hy[nx_ - 1] : Real(0);
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
                Real nb = periodic_x() ? hz[nx_ - 1] : Real(0);
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

    void apply_sources(bool electric, double t) {
        for (const auto& s : sc_.sources) {
            if (is_electric(s.component) != electric) continue;
            const double v = s.waveform.value(t - s.delay_s);
            if (v == 0.0) continue;
            Real* f = F(s.component);
            for (std::size_t k = 0; k < s.cells.size(); ++k) f[s.cells[k]] += Real(s.weights[k] * v);
        }
    }

    /// Zeroes column i (axis 0) or row i (axis 1) of component c.
    void zero_line(Component c, int axis, int i) {
        Real* f = F(c);
        if (axis == 0)
            for (int j = 0; j < ny_; ++j) f[std::size_t(j) * nx_ + i] = 0;
        else
            std::fill(f + std::size_t(i) * nx_, f + std::size_t(i + 1) * nx_, Real(0));
    }

    /// The E component tangential to the walls normal to `axis` (PEC / Mur).
    Component tangential_e(int axis) const {
        if (tm_) return Component::Ez;
        return axis == 0 ? Component::Ey : Component::Ex;
    }
    /// The H component tangential to the walls normal to `axis` (PMC).
    Component tangential_h(int axis) const {
        if (!tm_) return Component::Hz;
        return axis == 0 ? Component::Hy : Component::Hx;
    }

    void save_mur() {
        for (int a = 0; a < 2; ++a) {
            if (sc_.boundary[a] != BoundaryKind::Mur) continue;
            const Real* f = F(tangential_e(a));
            if (a == 0) {
                for (int j = 0; j < ny_; ++j) {
                    const Real* r = f + std::size_t(j) * nx_;
                    mur_x_[4 * j + 0] = r[0];
                    mur_x_[4 * j + 1] = r[1];
                    mur_x_[4 * j + 2] = r[nx_ - 1];
                    mur_x_[4 * j + 3] = r[nx_ - 2];
                }
            } else {
                std::copy(f, f + nx_, mur_y_.begin());
                std::copy(f + nx_, f + 2 * std::size_t(nx_), mur_y_.begin() + nx_);
                std::copy(f + std::size_t(ny_ - 1) * nx_, f + std::size_t(ny_) * nx_, mur_y_.begin() + 2 * nx_);
                std::copy(f + std::size_t(ny_ - 2) * nx_, f + std::size_t(ny_ - 1) * nx_, mur_y_.begin() + 3 * nx_);
            }
        }
    }

    void apply_mur() {
        const Real k = Real((sc_.courant - 1.0) / (sc_.courant + 1.0));
        for (int a = 0; a < 2; ++a) {
            if (sc_.boundary[a] != BoundaryKind::Mur) continue;
            Real* f = F(tangential_e(a));
            if (a == 0) {
                for (int j = 0; j < ny_; ++j) {
                    Real* r = f + std::size_t(j) * nx_;
                    r[0] = mur_x_[4 * j + 1] + k * (r[1] - mur_x_[4 * j + 0]);
                    r[nx_ - 1] = mur_x_[4 * j + 3] + k * (r[nx_ - 2] - mur_x_[4 * j + 2]);
                }
            } else {
                Real* r0 = f;
                const Real* r1 = f + nx_;
                Real* rn = f + std::size_t(ny_ - 1) * nx_;
                const Real* rn2 = f + std::size_t(ny_ - 2) * nx_;
                for (int i = 0; i < nx_; ++i) {
                    r0[i] = mur_y_[nx_ + i] + k * (r1[i] - mur_y_[i]);
                    rn[i] = mur_y_[3 * nx_ + i] + k * (rn2[i] - mur_y_[2 * nx_ + i]);
                }
            }
        }
    }

    double sample_dft(const DftSet& d, std::size_t k, const Real* f) const {
        double v = d.w0[k] * double(f[d.cell0[k]]);
        if (!d.cell1.empty() && d.cell1[k] >= 0) v += d.w1[k] * double(f[d.cell1[k]]);
        return v;
    }

    void accumulate_monitors() {
        const double dt = sc_.dt_s;
        const double n = double(steps_);  // step being completed: n -> n+1
        for (std::size_t s = 0; s < sc_.dft_sets.size(); ++s) {
            const DftSet& d = sc_.dft_sets[s];
            const double t = is_electric(d.component) ? (n + 1.0) * dt : (n + 0.5) * dt;
            const std::size_t nf = d.frequencies_hz.size();
            phasor_.resize(nf);
            for (std::size_t q = 0; q < nf; ++q) phasor_[q] = std::polar(dt, 2.0 * units::pi * d.frequencies_hz[q] * t);
            const Real* f = F(d.component);
            auto* X = dft_[s].data();
            const std::size_t nk = d.cell0.size();
            const std::complex<double>* ph = phasor_.data();
            auto range = [&](std::size_t b, std::size_t e) {
                for (std::size_t k = b; k < e; ++k) {
                    const double v = sample_dft(d, k, f);
                    std::complex<double>* x = X + k * nf;
                    for (std::size_t q = 0; q < nf; ++q) x[q] += v * ph[q];
                }
            };
            auto job = [&](int t) {
                long long b, e;
                cpu::Team::split((long long)nk, t, team_->size(), b, e);
                range(std::size_t(b), std::size_t(e));
            };
            if ((long long)nk * (long long)nf > 16384) team_->run(job);
            else range(0, nk);
        }
        for (std::size_t p = 0; p < sc_.time_probes.size(); ++p) {
            const TimeProbe& tp = sc_.time_probes[p];
            const Real* f = F(tp.component);
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

    /// Two-pass step (all H rows, then all E rows): the plain reading of scene.hpp, kept
    /// as the reference for the fused sweep (GOLIGHTLY_CPU_UNFUSED=1 selects it).
    void one_step_two_pass() {
        const double dt = sc_.dt_s;
        const double tn = double(steps_) * dt;
        // 1. H from E^n, H sources at t = n dt, PMC zeroing
        auto h_job = [&](int t) {
            long long b, e;
            cpu::Team::split(ny_, t, team_->size(), b, e);
            for (int j = int(b); j < int(e); ++j) h_row(j);
        };
        team_->run(h_job);
        apply_sources(false, tn);
        for (int a = 0; a < 2; ++a)
            if (sc_.boundary[a] == BoundaryKind::Pmc) zero_line(tangential_h(a), a, (a == 0 ? nx_ : ny_) - 1);
        // 2. E from H^{n+1/2}, E sources at t = (n+1/2) dt, PEC zeroing, Mur
        if (any_anisotropic_) anisotropic_save();
        save_mur();
        auto e_job = [&](int t) {
            long long b, e;
            cpu::Team::split(ny_, t, team_->size(), b, e);
            for (int j = int(b); j < int(e); ++j) {
                if (any_dispersive_) dispersive_pre(j);
                e_row(j);
                if (any_dispersive_) dispersive_post(j);
            }
        };
        team_->run(e_job);
        apply_sources(true, tn + 0.5 * dt);
        for (int a = 0; a < 2; ++a)
            if (sc_.boundary[a] == BoundaryKind::Pec) zero_line(tangential_e(a), a, 0);
        apply_mur();
        if (any_anisotropic_) anisotropic_apply();
        // 3. monitors
        accumulate_monitors();
        ++steps_;
    }

    /// H row j complete: update, the H sources of the row (values in src_value_), PMC.
    void h_row_full(int j) {
        h_row(j);
        for (std::size_t k = h_src_row_[j]; k < h_src_row_[j + 1]; ++k) {
            const RowSource& r = h_src_[k];
            field_[r.component][r.cell] += Real(r.weight * src_value_[r.source]);
        }
        if (sc_.boundary[0] == BoundaryKind::Pmc) F(tangential_h(0))[std::size_t(j) * nx_ + nx_ - 1] = 0;
        if (sc_.boundary[1] == BoundaryKind::Pmc && j == ny_ - 1) zero_line(tangential_h(1), 1, j);
    }
    /// E row j complete: update, the E sources of the row, PEC (Mur comes after the sweep).
    void e_row_full(int j) {
        if (any_dispersive_) dispersive_pre(j);
        e_row(j);
        if (any_dispersive_) dispersive_post(j);
        for (std::size_t k = e_src_row_[j]; k < e_src_row_[j + 1]; ++k) {
            const RowSource& r = e_src_[k];
            field_[r.component][r.cell] += Real(r.weight * src_value_[r.source]);
        }
        if (sc_.boundary[0] == BoundaryKind::Pec) F(tangential_e(0))[std::size_t(j) * nx_] = 0;
        if (sc_.boundary[1] == BoundaryKind::Pec && j == 0) zero_line(tangential_e(1), 1, 0);
    }

    /// One step as a single sweep over rows per thread (same numbers as the two-pass
    /// step up to the order of source additions on a shared cell). Thread t owns rows
    /// [j0, j1). H of row j needs E rows j, j+1 at step n; E of row j needs H rows j, j-1
    /// at n+1/2. So each thread first updates H of its last row (whose E row j1 belongs
    /// to the next thread and is still at step n), then, after one barrier, sweeps
    /// j = j0.. doing H(j) (except the last row) then E(j). Each cell's fields stream
    /// through memory once per step instead of twice: TMz float32 moves
    /// read Ez, Hx, Hy, cb + write Ez, Hx, Hy = 28 B per cell (two-pass: ~40 B).
    void one_step() {
        if (two_pass_) { one_step_two_pass(); return; }
        const double dt = sc_.dt_s;
        const double tn = double(steps_) * dt;
        for (std::size_t k = 0; k < sc_.sources.size(); ++k) {
            const SourceTerm& st = sc_.sources[k];
            const double t = is_electric(st.component) ? tn + 0.5 * dt : tn;
            src_value_[k] = st.waveform.value(t - st.delay_s);
        }
        if (any_anisotropic_) anisotropic_save();
        save_mur();
        auto sweep = [&](int tid) {
            const int nt = team_->size();
            const int j0 = int((long long)ny_ * tid / nt), j1 = int((long long)ny_ * (tid + 1) / nt);
            if (j1 > j0) h_row_full(j1 - 1);
            team_->barrier();
            for (int j = j0; j < j1; ++j) {
                if (j < j1 - 1) h_row_full(j);
                e_row_full(j);
            }
        };
        team_->run(sweep);
        apply_mur();
        if (any_anisotropic_) anisotropic_apply();
        accumulate_monitors();
        ++steps_;
    }

    /// A source cell filed under its row.
    struct RowSource {
        std::int32_t cell;
        int component;
        int source;
        double weight;
    };
    void build_row_sources() {
        std::vector<RowSource> h, e;
        for (std::size_t k = 0; k < sc_.sources.size(); ++k) {
            const SourceTerm& st = sc_.sources[k];
            for (std::size_t q = 0; q < st.cells.size(); ++q) {
                RowSource r{st.cells[q], ci(st.component), int(k), st.weights[q]};
                (is_electric(st.component) ? e : h).push_back(r);
            }
        }
        auto file = [&](std::vector<RowSource>& v, std::vector<RowSource>& out, std::vector<std::size_t>& rows) {
            std::stable_sort(v.begin(), v.end(), [&](const RowSource& a, const RowSource& b) {
                return a.cell / nx_ < b.cell / nx_;
            });
            out = v;
            rows.assign(std::size_t(ny_) + 1, 0);
            for (const auto& r : out) rows[std::size_t(r.cell / nx_) + 1]++;
            for (int j = 0; j < ny_; ++j) rows[j + 1] += rows[j];
        };
        file(h, h_src_, h_src_row_);
        file(e, e_src_, e_src_row_);
        src_value_.assign(sc_.sources.size(), 0.0);
    }

    Scene sc_;
    int nx_ = 0, ny_ = 0, threads_ = 1;
    bool tm_ = true;
    bool parallel_ = false;
    bool two_pass_ = false;
    std::vector<RowSource> h_src_, e_src_;
    std::vector<std::size_t> h_src_row_, e_src_row_;
    std::vector<double> src_value_;
    std::int64_t steps_ = 0;
    void (*run_op_)(RowOp, const RowArgs<Real>&, int) = nullptr;
    bool has_[6] = {false, false, false, false, false, false};
    SkewedArray<Real> field_[6];
    SkewedArray<Real> cb_[3], ca_[3];
    bool lossy_[3] = {false, false, false};
    std::vector<double> eps_table_;
    struct Profile {
        std::vector<Real> be, ce, ike, bh, ch, ikh;
    } prof_[2];
    int plo_[2] = {0, 0}, phi_[2] = {0, 0};
    int wx_ = 0, wy_ = 0;
    std::vector<Real> psi_x_[6], psi_y_[6];
    std::vector<Segment> seg_e_, seg_h_;
    std::vector<std::uint8_t> uniform_[3];
    Dispersive disp_[3];
    bool any_dispersive_ = false;
    std::vector<int> disp_components_;
    bool any_anisotropic_ = false;
    std::vector<Real> an_weight_[2];  ///< Scene::anisotropic weights in Real
    std::vector<Real> an_old_[2];     ///< per listed site: E^n, then dE
    std::vector<std::uint32_t> set_first_, set_count_;
    std::vector<PoleCoeffsR> coeffs_;
    std::vector<Real> zero_row_;
    std::vector<Real> mur_x_, mur_y_;
    std::vector<std::vector<std::complex<double>>> dft_;
    std::vector<std::complex<double>> phasor_;
    std::unique_ptr<cpu::Team> team_;
    std::vector<std::vector<double>> probe_;
    std::string device_;
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine(const Scene& scene, Precision precision, int threads) {
    // Refuse before allocating when the state cannot fit: with Linux overcommit a too-large
    // allocation may succeed and the process be killed later instead of a bad_alloc.
    // GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES caps the memory counted as available (tests).
    {
        const std::size_t need = engine_state_bytes(scene, precision);
        std::size_t avail = available_memory_bytes();
        if (const char* cap = std::getenv("GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES"))
            avail = std::min<std::size_t>(avail ? avail : SIZE_MAX, std::strtoull(cap, nullptr, 10));
        if (avail > 0 && need > avail) {
            std::ostringstream os;
            os << "CPU engine: out of host memory for a " << scene.nx << " x " << scene.ny << " grid: the fields, "
               << "coefficients and PML need " << need << " bytes (" << need / (1024 * 1024) << " MiB) but only "
               << avail << " bytes (" << avail / (1024 * 1024) << " MiB) are available (MemAvailable)";
            throw OutOfMemoryError(os.str(), need, avail);
        }
    }
    try {
        if (precision == Precision::Float32) return std::make_unique<CpuEngine<float>>(scene, threads);
        return std::make_unique<CpuEngine<double>>(scene, threads);
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
