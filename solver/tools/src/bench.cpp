// GoLightly benchmark (bench.hpp): synthetic scene, timed steps, copy roofline.
#include "golightly/bench.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/symmetric_engine.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/distributed.hpp"
#include "golightly/material_library.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "golightly/errors.hpp"
#include "golightly/units.hpp"

namespace golightly {

namespace {

std::uint32_t hash2(std::uint32_t i, std::uint32_t j) {
    std::uint32_t h = i * 0x9E3779B1u ^ (j * 0x85EBCA77u + 0x165667B1u);
    h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
    return h;
}

/// Multithreaded large-array copy: (read + write bytes) / time, GB/s (median of 9).
double cpu_copy_bandwidth_gbs(std::size_t bytes, int threads) {
    if (threads <= 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t n = bytes / sizeof(double);
    std::vector<double> a(n, 1.0), b(n, 2.0);
    std::vector<double> times;
    for (int r = 0; r < 9; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
                std::memcpy(b.data() + lo, a.data() + lo, (hi - lo) * sizeof(double));
            });
        for (auto& th : pool) th.join();
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        std::swap(a, b);
    }
    std::sort(times.begin(), times.end());
    return 2.0 * double(n * sizeof(double)) / times[times.size() / 2] / 1e9;
}

/// Material-table entry of relative permittivity eps_r and conductivity sigma (S/m) for
/// the scene's Courant number and time step (scene.hpp ca, cb; Taflove & Hagness eq. 3.31).
EUpdateCoeffs table_entry(const Scene& s, double eps_r, double sigma) {
    EUpdateCoeffs e;
    e.eps_r = eps_r; e.sigma = sigma;
    const double loss = sigma * s.dt_s / (2 * units::eps0 * eps_r);
    e.ca = (1 - loss) / (1 + loss);
    e.cb = (s.courant / eps_r) / (1 + loss);
    return e;
}

/// `poles` weak synthetic Lorentz poles (resonances 100, 150, ... THz, omega_p = omega_0 / 2,
/// gamma = omega_0 / 20) as ADE coefficients for the time step dt_s.
PoleSet synthetic_poles(int poles, double dt_s) {
    PoleSet ps;
    for (int q = 0; q < poles; ++q) {
        Pole p;
        p.kind = PoleKind::Lorentz;
        p.omega_0 = 2 * units::pi * (100e12 + 50e12 * q);
        p.omega_p = 0.5 * p.omega_0;
        p.gamma = 0.05 * p.omega_0;
        ps.poles.push_back(pole_coefficients(p, dt_s));
    }
    return ps;
}

/// The bench source's waveform: a 193 THz gaussian pulse, tau = 5 fs, t0 = 6 tau.
CompiledWaveform bench_pulse() {
    CompiledWaveform w;
    w.type = WaveformType::GaussianPulse;
    w.omega = 2 * units::pi * 193e12;
    w.tau_s = 5e-15;
    w.t0_s = 6 * w.tau_s;
    return w;
}

/// One flux sample at cell c: E at c, H~ averaged over c and the cell one row below (c - nx).
void add_flux_sample(DftSet& e, DftSet& h, CellIndex c, int nx) {
    e.cell0.push_back(c); e.cell1.push_back(-1); e.w0.push_back(1.0); e.w1.push_back(0.0);
    h.cell0.push_back(c); h.cell1.push_back(c - nx); h.w0.push_back(0.5); h.w1.push_back(0.5);
}

/// Gives the E and H sets of a flux line (plane) their frequencies and appends them.
void add_flux_sets(Scene& s, DftSet& e, DftSet& h, const std::vector<double>& freqs) {
    e.frequencies_hz = freqs;
    h.frequencies_hz = freqs;
    s.dft_sets.push_back(std::move(e));
    s.dft_sets.push_back(std::move(h));
}

/// The flux monitors' 101 frequencies, 150..250 THz.
std::vector<double> bench_frequencies() {
    std::vector<double> freqs;
    for (int f = 0; f <= 100; ++f) freqs.push_back(150e12 + f * 1e12);
    return freqs;
}

}  // namespace

Scene make_bench_scene(int nx, int ny, Polarization pol, int poles) {
    return make_bench_scene(nx, ny, pol, poles, 1.0, nullptr);
}

namespace {
/// A library material's pole set at the scene's time step, after shrinking s.dx_um (and
/// s.dt_s, Courant fixed) by 10 % steps until its explicit update is stable with margin in
/// `dims` dimensions (dispersion.hpp amplification_factor; at most 60 tries).
PoleSet stable_material_poles(Scene& s, const Material& material, int dims) {
    PoleSet ps;
    for (int tries = 0; tries < 60; ++tries) {
        ps.poles.clear();
        for (const Pole& p : material.poles) ps.poles.push_back(pole_coefficients(p, s.dt_s));
        double wp2 = 0;
        for (const Pole& p : material.poles) wp2 += p.omega_p * p.omega_p;
        const bool margin = wp2 * s.dt_s * s.dt_s + 4 * dims * s.courant * s.courant < 0.8 * 4 * material.epsilon_inf;
        if (margin && amplification_factor(material.epsilon_inf, material.conductivity, ps, 1.0, s.courant, dims,
                                           s.dt_s) <= 1.0 + 1e-6)
            break;
        s.dx_um *= 0.9;
        s.dt_s = s.courant * s.dx_um * 1e-6 / units::c0;
    }
    return ps;
}
}  // namespace

Scene make_bench_scene(int nx, int ny, Polarization pol, int poles, double fraction, const Material* material) {
    if (!(fraction >= 0.0 && fraction <= 1.0)) throw RunError("bench: the dispersive fraction must lie in [0, 1]");
    constexpr int kPml = 16;
    if (nx < 2 * kPml + 8 || ny < 2 * kPml + 8)
        throw RunError("bench: the grid must be at least " + std::to_string(2 * kPml + 8) + " cells along each axis");
    Scene s;
    s.polarization = pol;
    s.nx = nx; s.ny = ny;
    s.dx_um = 0.02;
    s.courant = 0.5;
    s.dt_s = s.courant * s.dx_um * 1e-6 / units::c0;
    // A library material: shrink the cell until its explicit update is stable with margin.
    const PoleSet material_poles = material ? stable_material_poles(s, *material, 2) : PoleSet{};
    s.boundary[0] = s.boundary[1] = BoundaryKind::Pml;
    s.pml_lo[0] = s.pml_hi[0] = s.pml_lo[1] = s.pml_hi[1] = kPml;
    build_cpml(s, 3.0, 1e-6);
    // Material table: vacuum, three dielectrics, one lossy entry (Taflove & Hagness eq. 3.31).
    const double eps_list[6] = {1.0, 2.1, 4.0, 12.0, 2.1, material ? material->epsilon_inf : 1.0};
    const double sigma_list[6] = {0, 0, 0, 0, 100.0, material ? material->conductivity : 0.0};
    for (int k = 0; k < (material ? 6 : 5); ++k) s.table.push_back(table_entry(s, eps_list[k], sigma_list[k]));
    std::vector<std::uint16_t> map(s.cells());
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            // blobs of 8x8 cells, about half of them vacuum
            const std::uint32_t h = hash2(std::uint32_t(i / 8), std::uint32_t(j / 8)) % 10;
            map[std::size_t(j) * nx + i] = std::uint16_t(h < 5 ? 0 : 1 + (h % 4));
        }
    // Dispersive blobs: a blob is dispersive when its second hash falls below the fraction.
    const bool dispersive = material != nullptr || poles > 0;
    std::vector<CellIndex> disp_cells;
    if (dispersive) {
        const std::uint32_t threshold = std::uint32_t(std::llround(fraction * 4294967295.0));
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const std::uint32_t h = hash2(std::uint32_t(i / 8) ^ 0x9e3779b9u, std::uint32_t(j / 8) + 0x7f4a7c15u);
                if (fraction >= 1.0 || (fraction > 0.0 && h <= threshold)) {
                    disp_cells.push_back(CellIndex(std::size_t(j) * nx + i));
                    if (material) map[std::size_t(j) * nx + i] = 5;
                }
            }
    }
    if (pol == Polarization::TMz) {
        s.material_index[2] = map;
    } else {
        s.material_index[0] = map;
        s.material_index[1] = map;
    }
    // Dispersion: the material's poles, or `poles` weak synthetic Lorentz poles (resonances
    // 100, 150, ... THz), on the dispersive cells of every E component.
    if (dispersive) {
        s.pole_sets.push_back(material ? material_poles : synthetic_poles(poles, s.dt_s));
        for (Component c : electric_components(pol)) {
            DispersiveCells& d = s.dispersive[static_cast<int>(c)];
            d.cells = disp_cells;
            d.pole_set.assign(disp_cells.size(), 0);
            d.weight.assign(disp_cells.size(), 1.0);
        }
    }
    // One line source across x at y = ny/4.
    SourceTerm src;
    src.component = pol == Polarization::TMz ? Component::Ez : Component::Ey;
    const int js = ny / 4;
    for (int i = kPml + 2; i < nx - kPml - 2; ++i) {
        src.cells.push_back(js * nx + i);
        src.weights.push_back(1.0);
    }
    src.waveform = bench_pulse();
    s.sources.push_back(src);
    // Two flux monitors (lines at y = ny/2 and 3ny/4): tangential E, and tangential H
    // averaged onto the E positions, 101 frequencies 150..250 THz.
    const std::vector<double> freqs = bench_frequencies();
    for (int line : {ny / 2, 3 * ny / 4}) {
        DftSet e, h;
        if (pol == Polarization::TMz) {
            e.component = Component::Ez;  // Ez (i, j);  Hx (i, j+1/2): average of j-1, j
            h.component = Component::Hx;
        } else {
            e.component = Component::Ex;  // Ex (i+1/2, j); Hz (i+1/2, j+1/2): average of j-1, j
            h.component = Component::Hz;
        }
        for (int i = kPml + 1; i < nx - kPml - 1; ++i) add_flux_sample(e, h, line * nx + i, nx);
        add_flux_sets(s, e, h, freqs);
    }
    return s;
}

Scene make_bench_scene3(int nx, int ny, int nz, int poles, double fraction, const Material* material) {
    constexpr int kPml = 16;
    if (!(fraction >= 0.0 && fraction <= 1.0)) throw RunError("bench: the dispersive fraction must lie in [0, 1]");
    if (nx < 2 * kPml + 8 || ny < 2 * kPml + 8 || nz < 2 * kPml + 8)
        throw RunError("bench: a 3D grid must be at least " + std::to_string(2 * kPml + 8) + " cells along each axis");
    Scene s;
    s.dimensions = 3;
    s.nx = nx; s.ny = ny; s.nz = nz;
    s.dx_um = 0.02;
    s.courant = 0.5;
    s.dt_s = s.courant * s.dx_um * 1e-6 / units::c0;
    for (int a = 0; a < 3; ++a) {
        s.boundary[a] = BoundaryKind::Pml;
        s.pml_lo[a] = s.pml_hi[a] = kPml;
    }
    // A library material: shrink the cell until its explicit update is stable with margin.
    const PoleSet material_poles = material ? stable_material_poles(s, *material, 3) : PoleSet{};
    build_cpml(s, 3.0, 1e-6);
    const double eps_list[6] = {1.0, 2.1, 4.0, 12.0, 2.1, material ? material->epsilon_inf : 1.0};
    const double sigma_list[6] = {0, 0, 0, 0, 100.0, material ? material->conductivity : 0.0};
    for (int k = 0; k < (material ? 6 : 5); ++k) s.table.push_back(table_entry(s, eps_list[k], sigma_list[k]));
    std::vector<std::uint16_t> map(s.cells());
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                // blobs of 8x8x8 cells, about half of them vacuum
                const std::uint32_t h = hash2(std::uint32_t(i / 8) + 0x1000u * std::uint32_t(k / 8), std::uint32_t(j / 8)) % 10;
                map[(std::size_t(k) * ny + j) * nx + i] = std::uint16_t(h < 5 ? 0 : 1 + (h % 4));
            }
    if (poles > 0 || material) {
        // Dispersive blobs of 8x8x8 cells: a blob is dispersive when its second hash falls
        // below the fraction (as the 2D bench scene); all cells at fraction 1.
        const std::uint32_t threshold = std::uint32_t(std::llround(fraction * 4294967295.0));
        std::vector<CellIndex> cells;
        for (int k = 0; k < nz; ++k)
            for (int j = 0; j < ny; ++j)
                for (int i = 0; i < nx; ++i) {
                    const std::uint32_t h = hash2((std::uint32_t(i / 8) + 0x1000u * std::uint32_t(k / 8)) ^ 0x9e3779b9u,
                                                  std::uint32_t(j / 8) + 0x7f4a7c15u);
                    if (fraction >= 1.0 || (fraction > 0.0 && h <= threshold)) {
                        cells.push_back(CellIndex((std::size_t(k) * ny + j) * nx + i));
                        if (material) map[cells.back()] = 5;
                    }
                }
        s.pole_sets.push_back(material ? material_poles : synthetic_poles(poles, s.dt_s));
        for (int c = 0; c < 3; ++c) {
            DispersiveCells& d = s.dispersive[c];
            d.cells = cells;
            d.pole_set.assign(cells.size(), 0);
            d.weight.assign(cells.size(), 1.0);
        }
    }
    for (int c = 0; c < 3; ++c) s.material_index[c] = map;
    // One Ey plane source across x and z at y = ny / 4.
    SourceTerm src;
    src.component = Component::Ey;
    const int js = ny / 4;
    for (int k = kPml + 2; k < nz - kPml - 2; ++k)
        for (int i = kPml + 2; i < nx - kPml - 2; ++i) {
            src.cells.push_back(CellIndex((std::size_t(k) * ny + js) * nx + i));
            src.weights.push_back(1.0);
        }
    src.waveform = bench_pulse();
    s.sources.push_back(src);
    // One flux plane at y = ny / 2: Ex (i+1/2, j, k) and Hz (i+1/2, j+1/2, k) averaged over j-1, j.
    const std::vector<double> freqs = bench_frequencies();
    DftSet e, h;
    e.component = Component::Ex;
    h.component = Component::Hz;
    const int line = ny / 2;
    for (int k = kPml + 1; k < nz - kPml - 1; ++k)
        for (int i = kPml + 1; i < nx - kPml - 1; ++i)
            add_flux_sample(e, h, CellIndex((std::size_t(k) * ny + line) * nx + i), nx);
    add_flux_sets(s, e, h, freqs);
    // One flux box (issue 15's bench case) of side n/8 around the centre of the grid, at the
    // same 101 frequencies: on each of its six faces the two tangential E components (one
    // cell) and the two tangential H components (averaged over the cell and its neighbour
    // along the normal), as a closed-surface Poynting flux monitor samples them.
    const int b[3] = {nx / 8, ny / 8, nz / 8};
    const int c0[3] = {nx / 2 - b[0] / 2, ny / 2 - b[1] / 2, nz / 2 - b[2] / 2};
    const std::size_t stride[3] = {1, std::size_t(nx), std::size_t(nx) * ny};
    for (int normal = 0; normal < 3; ++normal) {
        const int u = normal == 0 ? 1 : 0, v = normal == 2 ? 1 : 2;
        for (int side = 0; side < 2; ++side) {
            DftSet sets[4];
            sets[0].component = Component(u);
            sets[1].component = Component(v);
            sets[2].component = Component(3 + u);
            sets[3].component = Component(3 + v);
            const int p = c0[normal] + side * b[normal];
            for (int q = 0; q < b[v]; ++q)
                for (int r = 0; r < b[u]; ++r) {
                    std::size_t cell = std::size_t(p) * stride[normal] + std::size_t(c0[u] + r) * stride[u] +
                                       std::size_t(c0[v] + q) * stride[v];
                    for (int m = 0; m < 4; ++m) {
                        DftSet& d = sets[m];
                        d.cell0.push_back(CellIndex(cell));
                        d.cell1.push_back(m < 2 ? -1 : CellIndex(cell - stride[normal]));
                        d.w0.push_back(m < 2 ? 1.0 : 0.5);
                        d.w1.push_back(m < 2 ? 0.0 : 0.5);
                    }
                }
            for (DftSet& d : sets) {
                d.frequencies_hz = freqs;
                s.dft_sets.push_back(std::move(d));
            }
        }
    }
    return s;
}

BenchReport run_bench(const BenchOptions& o) {
    if (o.dims != 2 && o.dims != 3) throw RunError("bench: --dims must be 2 or 3");
    if (o.steps <= 0) throw RunError("bench: --steps must be > 0");
    if (o.poles < 0) throw RunError("bench: --poles must be >= 0");
    if (o.poles > 0 && o.backend == "cuda" && !cuda_supports_dispersion())
        throw RunError("bench: the CUDA backend of this build does not support dispersive poles yet (use --backend cpu)");
    std::optional<Material> material;
    if (!o.dispersive_material.empty()) {
        auto lower = [](std::string t) {
            for (char& ch : t) ch = char(std::tolower(static_cast<unsigned char>(ch)));
            return t;
        };
        for (const LibraryMaterial& lm : material_library())  // ids compare case-insensitively
            if (lower(lm.material.id) == lower(o.dispersive_material)) material = lm.material;
        if (!material) throw RunError("bench: no material '" + o.dispersive_material + "' in the material library (see golightly-cli materials)");
        if (material->poles.empty())
            throw RunError("bench: material '" + o.dispersive_material + "' has no dispersion poles");
        if (o.poles > 0)
            throw RunError("bench: give either --poles or --dispersive-material, not both");
    }
    // 3D: the fused sweep moves, per cell and step, the six fields read and written (12 R),
    // cb of Ex, Ey, Ez (3 R; rows of one material skip it, ca too where lossy), plus the
    // CPML psi inside the slabs; the E neighbour rows (j+1), (k+1) and the H rows (j-1),
    // (k-1) come from cache (cpu_kernels3d.inl). Engine::bytes_per_cell_update states it.
    Scene scene = o.dims == 3 ? make_bench_scene3(o.nx, o.ny, o.nz, o.poles, o.dispersive_fraction,
                                                        material ? &*material : nullptr)
                                    : make_bench_scene(o.nx, o.ny, o.polarization, o.poles, o.dispersive_fraction,
                                                       material ? &*material : nullptr);
    for (int a = 0; a < 3; ++a) scene.symmetry[a] = o.symmetry[std::size_t(a)];
    if (!o.monitors) scene.dft_sets.clear();
    std::size_t dispersive_cells = 0;
    for (const DispersiveCells& d : scene.dispersive) dispersive_cells += d.cells.size();
    const int n_poles = scene.pole_sets.empty() ? 0 : int(scene.pole_sets[0].poles.size());
    std::unique_ptr<Engine> engine;
    BenchReport r;
    DistributedEngine* dist = nullptr;
    const int mem_devices = o.backend == "cuda" ? (o.same_device ? 1 : std::max(1, o.devices)) : 0;
    auto device_memory = [&]() {
        double used = 0;
        for (int k = 0; k < mem_devices; ++k) used += double(cuda_memory_used(k));
        return used;
    };
    // The copy kernel is timed before the engine exists and again after it is freed; the
    // better of the two is the yardstick. After a long compute-bound run the H200 copied
    // 3.8 TB/s where it had copied 4.2 before (one such run), which would have flattered the
    // fraction of copy.
    auto copy_bandwidth = [&]() {
        return o.backend == "cuda" ? cuda_copy_bandwidth_gbs(std::size_t(1) << 30)
                                   : cpu_copy_bandwidth_gbs(std::size_t(1) << 28, o.threads);
    };
    const double copy_before = copy_bandwidth();
    const double memory_before = device_memory();
    double stepped_cells = double(scene.cells());
    auto make_one = [&](const Scene& sc) -> std::unique_ptr<Engine> {
        stepped_cells = double(sc.cells());
        if (o.devices > 1) {
            if (o.backend != "cuda" && o.backend != "cpu")
                throw RunError("bench: unknown backend '" + o.backend + "' (cuda or cpu)");
            std::vector<SubdomainDevice> devs(std::size_t(o.devices));
            for (int k = 0; k < o.devices; ++k) {
                devs[std::size_t(k)].cuda = o.backend == "cuda";
                devs[std::size_t(k)].ordinal = o.same_device ? 0 : k;
                devs[std::size_t(k)].threads = o.threads;
            }
            auto d = std::make_unique<DistributedEngine>(view_of(sc), o.precision, devs);
            dist = d.get();
            return d;
        }
        if (o.backend == "cuda") return make_cuda_engine(view_of(sc), o.precision);
        if (o.backend == "cpu") return make_cpu_engine(view_of(sc), o.precision, o.threads);
        throw RunError("bench: unknown backend '" + o.backend + "' (cuda or cpu)");
    };
    engine = make_symmetric_engine(scene, make_one);  // the reduced scene lives in the engine
    r.bytes_per_cell_update = engine->bytes_per_cell_update();
    engine->synchronize();
    r.state_bytes_per_cell = (mem_devices > 0 ? device_memory() - memory_before
                                              : double(engine_state_bytes(scene, o.precision)) * stepped_cells /
                                                    double(scene.cells())) /
                             double(scene.cells());
    // Untimed warm-up (graph capture, caches, first-touch), then the timed run, which ends
    // when the device has finished (synchronize). Reading the DFT accumulators back is not
    // timed: at 768^3 the bench's flux plane holds 0.9 GB of them, whose copy and (in the
    // distributed engine) gather took as long as 60 steps.
    engine->step(std::min(o.steps, 64));
    engine->synchronize();
    using Clock = std::chrono::steady_clock;
    auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
    int frames = 0;
    double frame_s = 0, sec = 0;
    if (o.frames_per_s <= 0) {
        const auto t0 = Clock::now();
        engine->step(o.steps);
        engine->synchronize();
        sec = since(t0);
    } else {
        // Batches of about 2 ms with a wait after each, as the IDE's solver thread (so a
        // frame shows its own step); a frame whenever 1/frames_per_s s have passed.
        const auto p0 = Clock::now();
        engine->step(16);
        engine->synchronize();
        const int batch = std::max(1, int(2e-3 / (since(p0) / 16)));
        const Component c = o.dims == 3 || o.polarization == Polarization::TEz ? Component::Ey : Component::Ez;
        const auto t0 = Clock::now();
        auto last = t0;
        for (int done = 0; done < o.steps;) {
            const int n = std::min(batch, o.steps - done);
            engine->step(n);
            engine->synchronize();
            done += n;
            if (since(last) >= 1.0 / o.frames_per_s) {
                const auto f0 = Clock::now();
                (void)engine->frames().sample_field(c, o.frame_size, o.frame_size);
                frame_s += since(f0);
                ++frames;
                last = Clock::now();
            }
        }
        engine->synchronize();
        sec = since(t0);
    }
    if (!engine->fields_finite()) throw RunError("bench: the fields diverged (NaN/Inf)");
    if (dist) {
        // The exchange's cost: the same steps with the exchange off (compute alone), and the
        // exchange on its own. What the timed step takes beyond the compute is exposed; the
        // rest of the exchange's own time was hidden behind the compute.
        r.devices = o.devices;
        r.transport = dist->transport() + "/" + dist->mode();
        r.exchange_bytes_per_step = dist->exchange_bytes();
        const int n = std::max(16, o.steps / 2);
        dist->set_exchange_enabled(false);
        const auto c0 = Clock::now();
        engine->step(n);
        engine->synchronize();
        r.compute_s_per_step = since(c0) / n;
        dist->set_exchange_enabled(true);
        r.exchange_s = dist->time_exchange(21);
        r.exchange_exposed_s = std::max(0.0, sec / o.steps - r.compute_s_per_step);
        r.exchange_hidden_s = std::max(0.0, r.exchange_s - r.exchange_exposed_s);
    }
    r.backend = engine->backend();
    r.device = engine->device();
    r.kernel = engine->kernel();
    r.dims = o.dims;
    r.nx = o.nx; r.ny = o.ny;
    r.nz = o.dims == 3 ? o.nz : 1;
    r.steps = o.steps;
    r.precision = o.precision == Precision::Float64 ? "float64" : "float32";
    r.polarization = o.dims == 3 ? "3D" : o.polarization == Polarization::TMz ? "TMz" : "TEz";
    r.dx_um = scene.dx_um;
    r.poles = n_poles;
    r.dispersive_material = o.dispersive_material;
    r.frames_per_s = frames / sec;
    r.frame_ms = frames ? 1e3 * frame_s / frames : 0.0;
    r.frame_time_fraction = frame_s / sec;
    r.dispersive_cell_fraction =
        double(dispersive_cells) / double(scene.cells()) /
        double(o.dims == 3 ? 3 : o.polarization == Polarization::TMz ? 1 : 2);
    r.seconds = sec;
    r.cells_per_s = double(scene.cells()) * o.steps / sec;
    r.steps_per_s = o.steps / sec;
    r.symmetry = o.symmetry;
    r.monitors = o.monitors;
    r.simulated_cells = stepped_cells;
    r.simulated_cells_per_s = stepped_cells * o.steps / sec;
    r.bandwidth_gbs = r.simulated_cells_per_s * r.bytes_per_cell_update / 1e9;
    engine.reset();
    r.copy_bandwidth_gbs = std::max(copy_before, copy_bandwidth());
    // Several CUDA devices: each has its own memory, so the yardstick is the sum of their
    // copy bandwidths (one device's, times the count: the devices are alike). CPU
    // subdomains share one memory.
    if (o.backend == "cuda" && o.devices > 1 && !o.same_device) r.copy_bandwidth_gbs *= o.devices;
    r.fraction_of_copy = r.bandwidth_gbs / r.copy_bandwidth_gbs;
    return r;
}

std::string bench_report_json(const BenchReport& r) {
    Json j;
    j["backend"] = r.backend;
    j["device"] = r.device;
    if (!r.kernel.empty()) j["kernel"] = r.kernel;
    j["dims"] = r.dims;
    if (r.dims == 3) j["size"] = {r.nx, r.ny, r.nz};
    else j["size"] = {r.nx, r.ny};
    j["steps"] = r.steps;
    j["precision"] = r.precision;
    j["polarization"] = r.polarization;
    j["cells_per_s"] = r.cells_per_s;
    if (!r.monitors) j["monitors"] = false;
    if (r.symmetry != std::array<int, 3>{0, 0, 0}) {
        j["symmetry"] = {r.symmetry[0], r.symmetry[1], r.symmetry[2]};
        j["simulated_cells"] = r.simulated_cells;
        j["simulated_cells_per_s"] = r.simulated_cells_per_s;
    }
    j["steps_per_s"] = r.steps_per_s;
    j["bytes_per_cell_update"] = r.bytes_per_cell_update;
    j["state_bytes_per_cell"] = r.state_bytes_per_cell;
    j["bandwidth_gbs"] = r.bandwidth_gbs;
    j["copy_bandwidth_gbs"] = r.copy_bandwidth_gbs;
    j["fraction_of_copy"] = r.fraction_of_copy;
    if (r.devices > 1) {
        j["devices"] = r.devices;
        j["transport"] = r.transport;
        j["exchange_bytes_per_step"] = r.exchange_bytes_per_step;
        j["exchange_s"] = r.exchange_s;
        j["compute_s_per_step"] = r.compute_s_per_step;
        j["exchange_exposed_s"] = r.exchange_exposed_s;
        j["exchange_hidden_s"] = r.exchange_hidden_s;
    }
    if (r.frames_per_s > 0) {
        j["frames_per_s"] = r.frames_per_s;
        j["frame_ms"] = r.frame_ms;
        j["frame_time_fraction"] = r.frame_time_fraction;
    }
    if (r.poles > 0) {
        j["poles"] = r.poles;
        if (!r.dispersive_material.empty()) j["dispersive_material"] = r.dispersive_material;
        j["dispersive_cell_fraction"] = r.dispersive_cell_fraction;
        j["dx_um"] = r.dx_um;
    }
    return j.dump();
}

}  // namespace golightly
