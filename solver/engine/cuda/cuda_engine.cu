// GoLightly CUDA backend: steps a 2D Scene on one GPU exactly as scene.hpp specifies.
//
// One translation unit: this file #includes the feature headers below, so every kernel,
// the launch sequence and the CUDA graph capture live in one object file (no relocatable
// device code). Files:
//   cuda_common.cuh      DevGrid (what the bulk kernels see), DevBuf/upload, field slots,
//                        StepLaunch (stream + device step counter), block_sum
//   cuda_bulk.cuh        Bulk<T>: fields, material maps and table, CPML; the four bulk
//                        kernels (TMz/TEz H and E) and their 16-byte vector variants
//   cuda_sources.cuh     Sources<T>: H and E source batches, waveforms on the device
//   cuda_walls.cuh       Walls<T>: Mur walls (PEC/PMC zeroing is fused into the bulk)
//   cuda_dispersion.cuh  Dispersion<T>: multi-pole ADE on the listed dispersive cells
//   cuda_tensor.cuh      TensorCouplings<T>: TEz off-diagonal sub-pixel couplings
//   cuda_tfsf.cuh        Tfsf<T>: TF/SF plane waves (the CPU engine's plan, tfsf_plan.hpp)
//   cuda_monitors.cuh    Monitors<T>: DFT sets and time probes
//   cuda_frames.cuh      energy reduction, Frames<T> (box averages, colour map)
//   cuda_engine_common.cuh  host code shared with the 3D engine: memory check, the step
//                        graph (StepGraph), the energy read-back; knobs: tuning.hpp
// Each extension (sources, walls, dispersion, tensor couplings, monitors) owns its device
// buffers and host data, is set up from the Scene, enqueues its kernels from methods
// named after the phases of the CPU engine's extensions (cpu_extensions.hpp: after_h,
// before_e, after_e, after_step; on the GPU a phase is whole-grid, there are no row
// phases), states its traffic (bytes_per_step) and follows live edits
// (materials_changed).
//
// One time step (n -> n+1) is a fixed sequence of kernels on the engine's stream
// (enqueue_steps); no host synchronization happens inside step(): the step number lives
// on the device (d_step), the source waveforms are evaluated on the device, and runs of
// kGraphSteps steps are replayed from a CUDA graph so small grids are not bound by launch
// latency. In scene.hpp's order:
//   0. tfsf.before_step     tfsf_lines_step: the TF/SF incident lines from n to n+1
//   1. bulk.update_h        H from E^n (CPML psi, pmc zeroing fused)
//      sources.after_h      H sources at t = n dt (cells on pmc walls dropped: zeroing wins)
//      tfsf.after_h         tfsf_correct: TF/SF H corrections with E_inc^n
//   2. walls.before_e       mur_save: E^n on the two outermost e lines per Mur wall
//      dispersion.before_e  disp_advance: the poles advance from E^n
//      tensor.before_e      aniso_save: E^n of the coupled sites
//      bulk.update_e        E from H^{n+1/2} (material table, CPML psi, pec zeroing fused)
//      dispersion.after_e   disp_correct: E -= weight cb / S dP, before the E sources
//      sources.after_e      E sources at t = (n+1/2) dt (cells on pec walls dropped)
//      tfsf.after_e         tfsf_correct: TF/SF E corrections with H~_inc^{n+1/2}
//      walls.after_e        mur_apply: Mur (1981) first order on the outermost e lines
//      tensor.after_e       aniso_delta, aniso_couple: TEz tensor coupling
//   3. monitors.after_step  DFT samples to the ring (gathers only the sample cells), every
//                           16th step the ring into the accumulators; time probes
//   (advance_step: d_step += steps, once per launched run of steps)
// Two steps per pass (cuda_twostep2d.cuh; the default where update_two2d applies, see
// setup_two_step; GOLIGHTLY_CUDA_TWO_STEP=0 opts out): steps k and k + 1 as one pass
// (enqueue_pair; an odd step left over as above, in place on the current set):
//      dispersion.before_e  the poles advance from E^n (unless the pair before did it)
//      update_two2d         H1 + H sources of step k, E1 - coef dP + E sources of step k,
//                           H2 + H sources of step k + 1, E2 into the other field set; E1, H1
//                           of the monitors' tiles and E1 of the dispersive cells captured
//      monitors.after_step  step k, on the capture set; flip; the extensions rebound
//      dispersion.after_e_from (the captured E1), sources.after_e, monitors.after_step:
//                           step k + 1 (with a pair after it: the E sources first, then
//                           Dispersion::step_and_advance, which also advances the poles
//                           for the next pass)
//
// Traffic model: bytes_per_cell_update() = the bulk kernels' bytes per cell (cuda_bulk.cuh:
// 5 s + 4 s + 2 TMz, 4 s + 5 s + 4 TEz, s = sizeof(T)) + (CPML psi traffic + the sum of
// the extensions' bytes_per_step()) / cells; the extensions count DFT samples and
// accumulators (cuda_monitors.cuh: the gather and ring per sample, 32 B per accumulator
// every 16 steps) and dispersive cells ((4 N + 5) s + 10 B each). Nsight Compute DRAM counters agree
// within 3 % (docs/performance.md). When nx is a multiple of 16 / sizeof(T) the bulk
// kernels use 16-byte vector accesses (the *_vec kernels). Two steps per pass: (6 s + 2 B) / 2
// TMz, (6 s + 4 B) / 2 TEz per cell update, psi s per value and step, plus the capture and
// dispersive-list traffic (cuda_twostep2d.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "golightly/cuda_device.hpp"
#include "golightly/scene.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"

#include "cuda_common.cuh"
#include "cuda_engine_common.cuh"
#include "golightly/tuning.hpp"
#include "cuda_bulk.cuh"
#include "cuda_walls.cuh"
#include "cuda_sources.cuh"
#include "cuda_dispersion.cuh"
#include "cuda_tensor.cuh"
#include "cuda_tfsf.cuh"
#include "cuda_monitors.cuh"
#include "cuda_frames.cuh"
#include "cuda_twostep2d.cuh"
#include "../cpu/cpu_bloch.hpp"  // check_bloch_scene, imaginary_scene, combine_dft (host code)

namespace golightly {
namespace {

using cuda::Bulk;
using cuda::DevGrid;
using cuda::Dispersion;
using cuda::Frames;
using cuda::Monitors;
using cuda::Sources;
using cuda::StepLaunch;
using cuda::TensorCouplings;
using cuda::Walls;
using cuda::device_name;
using cuda::energy_kernel;
using cuda::field_slot;

__global__ void advance_step(long long* d_step, int steps) { *d_step += steps; }

// ---------------------------------------------------------------------------------------
// Copy roofline kernel: each thread moves 4 x 16 bytes, all four loads issued before the
// stores (bytes in flight), one pass, no grid-stride loop. Traffic: 32 B per 16 B moved.
__global__ void __launch_bounds__(256) copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
    const std::size_t base = (blockIdx.x * std::size_t(blockDim.x)) * 4 + threadIdx.x;
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
        const std::size_t k = base + std::size_t(u) * blockDim.x;
        if (k < n) v[u] = in[k];
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
        const std::size_t k = base + std::size_t(u) * blockDim.x;
        if (k < n) out[k] = v[u];
    }
}

// ---------------------------------------------------------------------------------------
template <class T>
class CudaEngine final : public Engine, public FrameSource, public SubdomainAccess {
public:
    // The seams (engine.hpp): its own frame source (frames made on the device) and a
    // subdomain of a distributed run (field storage; no split step).
    FrameSource& frames() override { return *this; }
    SubdomainAccess* subdomain() override { return this; }

    CudaEngine(SceneView scene, Precision precision)
        : tune_(CudaTuning::from_environment()),
          user_nx_(scene->nx),
          scene_(cuda::padded_scene_view(std::move(scene), tune_.pad_2d)),  // cuda_common.cuh
          materials_(scene_),
          sc_(*scene_),
          precision_(precision) {
        if (sc_.nx < 2 || sc_.ny < 2) throw RunError("CUDA engine: the grid needs at least 2 x 2 cells");
        CUDA_CHECK(cudaGetDevice(&device_));
        check_memory();  // first: a grid too large for the device gets the bytes needed and free
        if (sc_.cells() > cuda::kMaxDeviceCells)
            throw RunError("CUDA engine: the grid has " + std::to_string(sc_.cells()) +
                           " cells, more than the 2^31 - 1 its 32-bit device cell lists can address; "
                           "use larger cells or the CPU backend");
        // Rows go to blockIdx.y (at most 65535 blocks of 4 rows).
        if (sc_.ny > 4 * 65535)
            throw RunError("CUDA engine: at most " + std::to_string(4 * 65535) + " cells along y (got " +
                           std::to_string(sc_.ny) + "); rotate the domain so that the long axis is x");
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        try {
            allocate();
        } catch (...) {
            release();
            throw;
        }
    }
    ~CudaEngine() override { release(); }

    std::string backend() const override { return "cuda"; }
    std::string device() const override { return device_name(device_); }
    std::string kernel() const override {
        if (two_step_) return "two steps per pass (update_two2d)";
        const char* k = sc_.polarization == Polarization::TMz ? "tmz_h_update, tmz_e_update" : "tez_h_update, tez_e_update";
        std::string s = std::string("one step per pass (") + k + (sc_.nx % (16 / int(sizeof(T))) == 0 ? ", 16-byte)" : ")");
        if (im_) s += ", two copies (complex fields)";
        return s;
    }
    /// Why two steps per pass do not run (empty when they do; cuda_twostep2d.cuh).
    const std::string& two_step_refusal() const { return two_step_why_; }
    Precision precision() const override { return precision_; }
    std::int64_t steps_done() const override { return steps_done_; }

    void step(int n_steps) override {
        if (n_steps <= 0) return;
        if (monitors_.ensure_probe_capacity(steps_done_ + n_steps, stream_)) destroy_graph();  // kernel arguments changed
        if (im_ && im_->monitors.ensure_probe_capacity(steps_done_ + n_steps, stream_)) destroy_graph();
        // Graphs kept per buffer parity at their start (two steps per pass flip the sets; every
        // graph size is a multiple of 4, so a graph flips them an even number of times).
        cuda::enqueue_steps_graphed(graph_[bulk_.parity()], stream_, n_steps, tune_.graph_remainder, [this](int steps) { enqueue_steps(steps); });
        steps_done_ += n_steps;
    }

    double field_energy() override {
        reduce();
        return 0.5 * units::eps0 * (sc_.dx_um * 1e-6) * (sc_.dx_um * 1e-6) * energy_.sum();
    }
    bool fields_finite() override {
        reduce();
        return !energy_.nonfinite();
    }

    FieldStorage field_storage() override {
        FieldStorage fs;
        for (int c = 0; c < 6; ++c) {
            const int slot = field_slot(sc_.polarization, Component(c));
            fs.field[c] = slot >= 0 ? static_cast<void*>(bulk_.field(slot)) : nullptr;
            if (im_) fs.field[6 + c] = slot >= 0 ? static_cast<void*>(im_->bulk.field(slot)) : nullptr;
        }
        fs.element_bytes = int(sizeof(T));
        fs.n[0] = sc_.nx;
        fs.n[1] = sc_.ny;
        fs.n[2] = 1;
        fs.cuda_device = device_;
        fs.cuda_stream = stream_;
        return fs;
    }

    /// In the scene's own layout (without the padding columns).
    void get_field(Component c, std::vector<double>& out) override {
        const int slot = checked_slot(c);
        std::vector<T> tmp(user_cells());
        CUDA_CHECK(cudaMemcpy2DAsync(tmp.data(), std::size_t(user_nx_) * sizeof(T), bulk_.field(slot),
                                     std::size_t(sc_.nx) * sizeof(T), std::size_t(user_nx_) * sizeof(T),
                                     std::size_t(sc_.ny), cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        out.assign(tmp.begin(), tmp.end());
    }
    void set_field(Component c, const std::vector<double>& values) override {
        const int slot = checked_slot(c);
        if (values.size() != user_cells())
            throw std::invalid_argument("set_field: expected nx*ny = " + std::to_string(user_cells()) + " values");
        std::vector<T> tmp(values.begin(), values.end());
        // (the padding columns keep their zeros)
        CUDA_CHECK(cudaMemcpy2DAsync(bulk_.field(slot), std::size_t(sc_.nx) * sizeof(T), tmp.data(),
                                     std::size_t(user_nx_) * sizeof(T), std::size_t(user_nx_) * sizeof(T),
                                     std::size_t(sc_.ny), cudaMemcpyHostToDevice, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    std::vector<std::complex<double>> dft(int set) override {
        if (!im_) return monitors_.dft(set, steps_done_, stream_);
        return cpu::combine_dft(monitors_.dft(set, steps_done_, stream_), im_->monitors.dft(set, steps_done_, stream_));
    }
    std::vector<double> time_samples(int probe) override { return monitors_.time_samples(probe, steps_done_, stream_); }

    Image8 frame(const FrameRequest& req) override {
        int w = 0, h = 0;
        const std::uint8_t* rgba = render_frame(req, nullptr, w, h);
        Image8 img;
        img.width = w; img.height = h; img.channels = 4;
        img.pixels.resize(std::size_t(w) * h * 4);
        CUDA_CHECK(cudaMemcpyAsync(img.pixels.data(), rgba, img.pixels.size(), cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return img;
    }

    void synchronize() override { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    bool frame_to_device(const FrameRequest& req, void* device_rgba, std::size_t capacity, int& width,
                         int& height) override {
        const int f = frame_factor(user_nx_, sc_.ny, req.max_width, req.max_height);
        width = (user_nx_ + f - 1) / f;
        height = (sc_.ny + f - 1) / f;
        if (!device_rgba || capacity < std::size_t(width) * height * 4) return false;
        render_frame(req, static_cast<std::uint8_t*>(device_rgba), width, height);
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return true;
    }

    // Box averages on the device: w*h floats (a few KB to MB) cross to the host, never the grid.
    FieldSamples sample_field(Component c, int max_width, int max_height, bool squared) override {
        const int slot = checked_slot(c);
        return frames_.sample(compact(slot), user_nx_, sc_.ny, max_width, max_height, squared, stream_);
    }

    /// Bytes moved per cell update by the kernels of one step: the bulk model per cell
    /// plus, per cell, the CPML psi traffic and the traffic each extension states (model
    /// in the file header).
    double bytes_per_cell_update() const override {
        if (two_step_) {  // cuda_twostep2d.cuh: every field and map once per pass, psi once per pass
            const double s = sizeof(T);
            const double bulk = (sc_.polarization == Polarization::TMz ? 6 * s + 2 : 6 * s + 4) / 2 * double(sc_.cells());
            const double extra = bulk_.psi_values() * s + two_.bytes_per_step() + sources_.bytes_per_step() +
                                 dispersion_.bytes_per_step_2d(true) + monitors_.bytes_per_step();
            return (bulk + extra) / double(user_cells());
        }
        double extra = bulk_.cpml_bytes_per_step() + sources_.bytes_per_step() + walls_.bytes_per_step() +
                       dispersion_.bytes_per_step() + tensor_.bytes_per_step() + tfsf_.bytes_per_step() +
                       monitors_.bytes_per_step();
        double bulk = bulk_.bytes_per_cell() * double(sc_.cells());
        if (im_) {  // the imaginary copy moves the same again (its wrap reads hit L2)
            extra += im_->bulk.cpml_bytes_per_step() + im_->sources.bytes_per_step() + im_->walls.bytes_per_step() +
                     im_->dispersion.bytes_per_step() + im_->tensor.bytes_per_step() + im_->monitors.bytes_per_step();
            bulk *= 2;
        }
        return (bulk + extra) / double(user_cells());
    }

private:
    /// Averages and colour-maps one component into `dst` (a device buffer) or, when dst
    /// is null, into the engine's frame buffer; returns the RGBA8 pointer (rows top
    /// first). Asynchronous on stream_.
    const std::uint8_t* render_frame(const FrameRequest& req, std::uint8_t* dst, int& w, int& h) {
        const int slot = checked_slot(req.component);
        return frames_.render(compact(slot), user_nx_, sc_.ny, req, dst, w, h, stream_);
    }

    std::size_t user_cells() const { return std::size_t(user_nx_) * std::size_t(sc_.ny); }
    /// The field of `slot` without the padding columns: the device array itself when there
    /// are none, else a copy in plane_ (asynchronous on stream_; frames and samples only).
    const T* compact(int slot) {
        if (sc_.nx == user_nx_) return bulk_.field(slot);
        const std::size_t need = user_cells() * sizeof(T);
        if (plane_.bytes() < need) plane_.alloc(need);
        CUDA_CHECK(cudaMemcpy2DAsync(plane_.template as<T>(), std::size_t(user_nx_) * sizeof(T), bulk_.field(slot),
                                     std::size_t(sc_.nx) * sizeof(T), std::size_t(user_nx_) * sizeof(T),
                                     std::size_t(sc_.ny), cudaMemcpyDeviceToDevice, stream_));
        return plane_.template as<T>();
    }

    int checked_slot(Component c) const {
        const int slot = field_slot(sc_.polarization, c);
        if (slot < 0) throw std::invalid_argument("component not present in this polarization");
        return slot;
    }

    /// Device bytes the grid state will take (engine_state_bytes, scene.hpp: the one memory model).
    std::size_t planned_bytes() const {
        return engine_state_bytes(sc_, sizeof(T) == 4 ? Precision::Float32 : Precision::Float64);
    }

    void check_memory() { cuda::check_device_memory(planned_bytes(), tune_.memory_limit_bytes, device_, "CUDA engine"); }

    void allocate() {
        if (sc_.complex_fields) {
            cpu::check_bloch_scene(sc_, "CUDA engine");
            if (!sc_.tfsf.empty())
                throw RunError("CUDA engine: TF/SF sources cannot run with complex fields; use a one-way plane "
                               "source with angle_deg");
        }
        bulk_.setup(sc_, stream_);
        CUDA_CHECK(cudaMalloc(&d_step_, sizeof(long long)));
        CUDA_CHECK(cudaMemsetAsync(d_step_, 0, sizeof(long long), stream_));
        energy_.allocate();
        const DevGrid<T>& g = bulk_.grid();
        sources_.setup(sc_, g, stream_);
        walls_.setup(sc_, g);
        monitors_.setup(sc_, g, stream_);
        dispersion_.setup(sc_, g, stream_);
        tensor_.setup(sc_, cuda::fields_of(g), stream_);
        tfsf_.setup(sc_, cuda::fields_of(g), stream_);
        if (sc_.complex_fields) {
            // The imaginary copy (scene.hpp "Bloch-periodic axes"): the same grid stepped by
            // the same kernels, its sources driven by the imaginary weights; the two bulks
            // read each other across the Bloch wraps (DevGrid "Complex fields").
            im_ = std::make_unique<ImaginaryCopy>();
            im_->scene = SceneView(cpu::imaginary_scene(sc_));
            const Scene& si = *im_->scene;
            im_->bulk.setup(si, stream_);
            const DevGrid<T>& gi = im_->bulk.grid();
            im_->sources.setup(si, gi, stream_);
            im_->walls.setup(si, gi);
            im_->monitors.setup(si, gi, stream_);
            im_->dispersion.setup(si, gi, stream_);
            im_->tensor.setup(si, cuda::fields_of(gi), stream_);
            const double phase[2] = {sc_.bloch_phase[0], sc_.bloch_phase[1]};
            bulk_.set_bloch_partner(im_->bulk, phase, 0);
            im_->bulk.set_bloch_partner(bulk_, phase, 1);
        }
        setup_two_step();
        CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    /// Two steps per pass (cuda_twostep2d.cuh) where they apply: real fields, no periodic
    /// axis, no Mur wall, no TF/SF, no tensor couplings, not a subdomain, 1/kappa = 1 outside
    /// the CPML slabs, device memory for the second set and the capture set; by default also
    /// a grid larger than the L2 cache. GOLIGHTLY_CUDA_TWO_STEP=0 keeps
    /// one step per pass; =require throws RunError with the reason where they do not apply.
    void setup_two_step() {
        two_step_ = false;
        std::string& why = two_step_why_;
        why.clear();
        if (tune_.two_step_2d == KnobSwitch::Off) why = "GOLIGHTLY_CUDA_TWO_STEP=0";
        else if (sc_.window.active) why = "the scene is a subdomain of the distributed engine (one step between halo exchanges)";
        else if (sc_.complex_fields) why = "complex fields (Bloch-periodic axes) step one step per pass";
        else if (sc_.boundary[0] == BoundaryKind::Periodic || sc_.boundary[1] == BoundaryKind::Periodic)
            why = "a periodic axis (the pass reads no wrap)";
        else if (sc_.boundary[0] == BoundaryKind::Mur || sc_.boundary[1] == BoundaryKind::Mur) why = "Mur walls";
        else if (!sc_.tfsf.empty()) why = "TF/SF sources";
        else if (tensor_.total_sites() > 0) why = "sub-pixel tensor couplings";
        if (why.empty() && tune_.two_step_2d == KnobSwitch::Auto) {
            // A grid whose fields and maps fit in L2 is not bound by DRAM with one step per
            // pass, and there two steps per pass were slower (H200: 1024^2 42.6 against 54.3
            // Gcells/s, 512^2 12.3 against 18.5; 2048^2, 56 MB, 86.9 against 68.2).
            int l2 = 0;
            CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device_));
            const std::size_t maps = sc_.polarization == Polarization::TMz ? 2 : 4;
            const std::size_t state = sc_.cells() * (3 * sizeof(T) + maps);
            if (state <= std::size_t(l2))
                why = "the grid's fields and material maps (" + std::to_string(state) + " bytes) fit in the " +
                      std::to_string(l2) + "-byte L2 cache, where one step per pass is faster";
        }
        if (why.empty()) {
            const int n[2] = {sc_.nx, sc_.ny};
            for (int a = 0; a < 2 && why.empty(); ++a) {
                const CpmlAxis& c = sc_.cpml[a];
                for (const std::vector<double>* v : {&c.inv_kappa_e, &c.inv_kappa_h}) {
                    if (v->empty()) continue;
                    for (int q = sc_.pml_lo[a]; q < n[a] - sc_.pml_hi[a]; ++q)
                        if ((*v)[q] != 1.0) {
                            why = "CPML kappa differs from 1 outside the slabs";
                            break;
                        }
                }
            }
        }
        if (why.empty()) {
            std::size_t free_b = 0, total_b = 0;
            CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
            if (tune_.memory_limit_bytes) free_b = std::min(free_b, *tune_.memory_limit_bytes);
            const std::size_t need = bulk_.second_set_bytes() + cuda::TwoStep2D<T>::device_bytes(sc_) +
                                     (std::size_t(256) << 20);
            if (free_b < need)
                why = "the second field set and the capture set need " + std::to_string(need) + " bytes of device memory, " +
                      std::to_string(free_b) + " are free";
        }
        if (!why.empty()) {
            if (tune_.two_step_2d == KnobSwitch::Require)
                throw RunError("CUDA engine: GOLIGHTLY_CUDA_TWO_STEP=require, but two steps per pass cannot run: " + why);
            return;
        }
        bulk_.setup_second_set(stream_);
        std::vector<std::int64_t> captured;
        for (const auto& d : sc_.dft_sets) {
            captured.insert(captured.end(), d.cell0.begin(), d.cell0.end());
            captured.insert(captured.end(), d.cell1.begin(), d.cell1.end());
        }
        for (const auto& p : sc_.time_probes) captured.insert(captured.end(), p.cells.begin(), p.cells.end());
        two_.setup(sc_, captured, dispersion_, stream_);
        two_step_ = true;
    }

    /// Steps k and k + 1 as one pass of update_two2d (cuda_twostep2d.cuh): before it the
    /// dispersive cells' poles advance from E^n (unless the pair before did it: `dp_ready`);
    /// the pass does the H sources, dispersive correction and E sources of step k and the H
    /// sources of step k + 1; then the monitors of step k read the capture set, the sets flip,
    /// and step k + 1 ends as one step per pass ends it: the dispersive correction (poles from
    /// the captured E1), the E sources, the monitors. With another pair after this one
    /// (`next_pair`), the E sources come before the correction, whose kernel also advances
    /// the poles for the next pass (Dispersion::step_and_advance); returns whether it did.
    bool enqueue_pair(int k, bool dp_ready, bool next_pair) {
        const StepLaunch a0{stream_, d_step_, k}, a1{stream_, d_step_, k + 1};
        const bool dispersive = dispersion_.lists() > 0;
        if (dispersive && !dp_ready) dispersion_.before_e(a0);
        two_.launch(bulk_.grid(), bulk_.output_grid(), d_step_, k, stream_);
        monitors_.rebind(two_.capture());
        monitors_.after_step(a0);
        bulk_.flip();
        rebind();
        const bool merge = dispersive && next_pair;
        if (merge) {
            sources_.after_e(a1);
            dispersion_.step_and_advance(two_.capture(), stream_);
        } else {
            dispersion_.after_e_from(two_.capture(), stream_);
            sources_.after_e(a1);
        }
        monitors_.after_step(a1);
        return merge;
    }

    /// Points the extensions at the bulk's current set (two steps per pass flip the sets).
    void rebind() {
        const cuda::FieldArrays<T> f = cuda::fields_of(bulk_.grid());
        sources_.rebind(f);
        dispersion_.rebind(f);
        monitors_.rebind(f);
        tensor_.rebind(f);
        tfsf_.rebind(f);
    }

    /// Live edit (engine.hpp, update_materials): the bulk copies the edited uint16
    /// material map(s), the coefficient table and the energy's eps table to the device on
    /// the engine's stream, ordered after the steps already enqueued and before the next
    /// ones (the map buffers keep their size and address; a table that outgrows its
    /// buffer is reallocated, and then the captured step graph, which holds the table's
    /// address, is rebuilt). Unchanged dispersive cells get their coefficient
    /// weight * cb / S anew; the tensor couplings follow the edited interfaces. The engine
    /// keeps `edited` as its view of the materials.
    void update_materials(SceneView edited_view) override {
        edited_view = cuda::padded_edit(std::move(edited_view), user_nx_, sc_.nx);  // the running layout
        const Scene& edited = *edited_view;
        check_material_update(sc_, edited);
        const bool table_moved = bulk_.materials_changed(edited, stream_);
        if (table_moved) destroy_graph();  // rebuilt with the new address on the next step()
        dispersion_.materials_changed(edited, stream_);
        if (im_) {  // the imaginary copy has the same materials
            if (im_->bulk.materials_changed(edited, stream_)) destroy_graph();
            im_->dispersion.materials_changed(edited, stream_);
            CUDA_CHECK(cudaStreamSynchronize(stream_));
            if (im_->tensor.materials_changed(edited, cuda::fields_of(im_->bulk.grid()), stream_)) destroy_graph();
        }
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        tfsf_.materials_changed(edited, stream_);  // E corrections carry cb (rewritten in place)
        if (tensor_.materials_changed(edited, cuda::fields_of(bulk_.grid()), stream_))
            destroy_graph();  // the captured graph holds the old lists' arguments
        if (two_step_ && tensor_.total_sites() > 0) {  // the pass has no tensor couplings: one step per pass from here
            two_step_ = false;
            two_step_why_ = "sub-pixel tensor couplings (brought by a live edit)";
            rebind();
            destroy_graph();
        }
        materials_ = std::move(edited_view);  // the engine's view of the materials from now on
    }

    /// Enqueues `steps` time steps on stream_ (also used inside graph capture), each in
    /// scene.hpp's order (file header).
    void enqueue_steps(int steps) {
        if (im_) {
            enqueue_complex_steps(steps);
            return;
        }
        int k0 = 0;
        if (two_step_) {
            bool dp_ready = false;
            for (; k0 + 1 < steps; k0 += 2) dp_ready = enqueue_pair(k0, dp_ready, k0 + 3 < steps);
            rebind();  // a remaining step runs in place on the current set
        }
        for (int k = k0; k < steps; ++k) {
            const StepLaunch at{stream_, d_step_, k};
            tfsf_.before_step(at);  // the TF/SF incident lines from n to n+1
            // 1. H half step.
            bulk_.update_h(stream_);
            sources_.after_h(at);
            tfsf_.after_h(stream_);
            // 2. E half step.
            walls_.before_e(stream_);
            dispersion_.before_e(at);
            tensor_.before_e(stream_);
            bulk_.update_e(stream_);
            dispersion_.after_e(stream_);
            sources_.after_e(at);
            tfsf_.after_e(stream_);
            walls_.after_e(stream_);
            tensor_.after_e(stream_);
            // 3. Monitors sample the completed step.
            monitors_.after_step(at);
        }
        advance_step<<<1, 1, 0, stream_>>>(d_step_, steps);
        CUDA_CHECK_LAUNCH();
    }

    /// enqueue_steps of a complex run: each phase for the real copy, then the imaginary one.
    /// The H updates of both copies read E^n of both (across a Bloch wrap), so both H
    /// updates (and H sources) come before either E update, which reads H^{n+1/2} of both.
    /// A deliberate twin of the 3D ComplexStep3D (cuda_step3d_complex.cuh): the same
    /// interleaving of two copies, but each follows its own engine's real-field step order
    /// (2D: H sources after the H update, Mur walls around E; 3D: H sources before it, no
    /// walls), and the two engines' part types differ (Bulk / Walls against Bulk3 /
    /// StepParts3D). A shared template would need both step orders as parameters.
    void enqueue_complex_steps(int steps) {
        struct Copy {  // one copy's bulk and extensions
            Bulk<T>& bulk;
            Sources<T>& sources;
            Walls<T>& walls;
            Dispersion<T>& dispersion;
            TensorCouplings<T>& tensor;
            Monitors<T>& monitors;
        };
        ImaginaryCopy& im = *im_;
        Copy copies[2] = {{bulk_, sources_, walls_, dispersion_, tensor_, monitors_},
                          {im.bulk, im.sources, im.walls, im.dispersion, im.tensor, im.monitors}};
        for (int k = 0; k < steps; ++k) {
            const StepLaunch at{stream_, d_step_, k};
            for (Copy& c : copies) c.bulk.update_h(stream_);
            for (Copy& c : copies) c.sources.after_h(at);
            for (Copy& c : copies) {  // E^n of each copy, before either E update
                c.walls.before_e(stream_);
                c.dispersion.before_e(at);
                c.tensor.before_e(stream_);
            }
            for (Copy& c : copies) c.bulk.update_e(stream_);
            for (Copy& c : copies) {  // each copy's own E from here on
                c.dispersion.after_e(stream_);
                c.sources.after_e(at);
                c.walls.after_e(stream_);
                c.tensor.after_e(stream_);
                c.monitors.after_step(at);
            }
        }
        advance_step<<<1, 1, 0, stream_>>>(d_step_, steps);
        CUDA_CHECK_LAUNCH();
    }

    void destroy_graph() {
        for (cuda::StepGraphSet& g : graph_) g.reset();
    }

    void reduce() {
        const int blocks = int(std::min<std::size_t>(4096, (sc_.cells() + 255) / 256));
        const bool tez = sc_.polarization == Polarization::TEz;
        energy_.read(stream_, [&](double* sum, int* flag) {
            energy_kernel<T><<<blocks, 256, 0, stream_>>>(bulk_.grid(), bulk_.eps_table(), tez, sum, flag);
            if (im_)  // |F|^2 = F_re^2 + F_im^2
                energy_kernel<T><<<blocks, 256, 0, stream_>>>(im_->bulk.grid(), im_->bulk.eps_table(), tez, sum, flag);
        });
    }

    void release() {
        if (stream_) cudaStreamSynchronize(stream_);
        destroy_graph();
        if (d_step_) cudaFree(d_step_);
        energy_.release();
        d_step_ = nullptr;
        if (stream_) cudaStreamDestroy(stream_);
        stream_ = nullptr;
    }

    const CudaTuning tune_;  ///< the GOLIGHTLY_CUDA* knobs as this engine was made (tuning.hpp)
    int user_nx_;          ///< nx of the scene as given (sc_.nx: with the padding columns)
    SceneView scene_;      ///< the compiled scene, rows padded (cuda::padded_scene_view)
    SceneView materials_;  ///< the materials on the device: scene_ until a live edit
    const Scene& sc_;      ///< *scene_
    Precision precision_;
    int device_ = 0;
    cudaStream_t stream_ = nullptr;
    cuda::StepGraphSet graph_[2];  ///< the step graphs by the buffer parity at their start (cuda_engine_common.cuh)
    std::int64_t steps_done_ = 0;
    long long* d_step_ = nullptr;
    cuda::EnergyReadback energy_;  ///< field_energy / fields_finite (cuda_engine_common.cuh)
    // The bulk update and the extensions, in the order of the step.
    Bulk<T> bulk_;
    Sources<T> sources_;
    Walls<T> walls_;
    Dispersion<T> dispersion_;
    TensorCouplings<T> tensor_;
    cuda::Tfsf<T> tfsf_;
    Monitors<T> monitors_;
    Frames<T> frames_;
    cuda::TwoStep2D<T> two_;      ///< two steps per pass: tile plan, capture set (cuda_twostep2d.cuh)
    bool two_step_ = false;       ///< pairs of steps as one pass (setup_two_step)
    std::string two_step_why_;    ///< why not, when two_step_ is false
    cuda::DevBuf plane_;  ///< compact() copies (padded grids only)
    /// The imaginary copy of a complex run (scene.hpp "Bloch-periodic axes"); frames,
    /// fields and time probes show the real copy, DFTs combine both.
    struct ImaginaryCopy {
        SceneView scene;  ///< cpu::imaginary_scene: the sources' imaginary weights
        Bulk<T> bulk;
        Sources<T> sources;
        Walls<T> walls;
        Dispersion<T> dispersion;
        TensorCouplings<T> tensor;
        Monitors<T> monitors;
    };
    std::unique_ptr<ImaginaryCopy> im_;  ///< null: real fields
};

}  // namespace

bool cuda_available() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return n > 0;
}

int cuda_device_count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

std::string cuda_device_description() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return std::string("no usable CUDA device: ") + cudaGetErrorString(e);
    }
    if (n == 0) return "no CUDA device present";
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) return "CUDA device " + std::to_string(dev) + " (properties unavailable)";
    std::ostringstream os;
    os << p.name << " (compute " << p.major << "." << p.minor << ", " << p.multiProcessorCount << " SMs, "
       << p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0) << " GiB)";
    return os.str();
}

bool cuda_supports_dispersion() { return true; }

std::unique_ptr<Engine> make_cuda_engine3d(SceneView scene, Precision precision);  // cuda_engine3d.cu

void cuda_select_device(int ordinal) {
    const cudaError_t e = cudaSetDevice(ordinal);
    if (e != cudaSuccess) {
        cudaGetLastError();
        throw RunError("CUDA device " + std::to_string(ordinal) + " cannot be selected: " + cudaGetErrorString(e) +
                       " (" + std::to_string(cuda_device_count()) + " devices visible)");
    }
}

namespace {
/// cudaMemGetInfo on device `ordinal` (the current device restored): false without CUDA or
/// for a bad ordinal.
bool memory_info(int ordinal, std::size_t& free_b, std::size_t& total_b) {
    int current = 0;
    if (cudaGetDevice(&current) != cudaSuccess || cudaSetDevice(ordinal) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    const cudaError_t e = cudaMemGetInfo(&free_b, &total_b);
    cudaSetDevice(current);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return true;
}
}  // namespace

std::size_t cuda_memory_used(int ordinal) {
    std::size_t free_b = 0, total_b = 0;
    return memory_info(ordinal, free_b, total_b) ? total_b - free_b : 0;
}

std::size_t cuda_memory_free(int ordinal) {
    std::size_t free_b = 0, total_b = 0;
    return memory_info(ordinal, free_b, total_b) ? free_b : 0;
}

std::string cuda_device_name(int ordinal) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, ordinal) != cudaSuccess) {
        cudaGetLastError();
        return "";
    }
    return p.name;
}

void cuda_copy_to_host(void* dst, const void* src, std::size_t bytes, int device, void* stream) {
    cuda_select_device(device);
    auto s = static_cast<cudaStream_t>(stream);
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
}

std::unique_ptr<Engine> make_cuda_engine(SceneView scene, Precision precision, int device) {
    const int n = cuda_device_count();
    if (device < 0 || device >= n)
        throw RunError("CUDA device " + std::to_string(device) + " does not exist (" + std::to_string(n) +
                       " devices visible)");
    cuda_select_device(device);
    return make_cuda_engine(std::move(scene), precision);
}

std::unique_ptr<Engine> make_cuda_engine(SceneView scene, Precision precision) {
    if (scene->dimensions == 3) {  // the 3D engine (cuda_engine3d.cu)
        if (!cuda_available()) throw RunError("CUDA backend: " + cuda_device_description());
        return make_cuda_engine3d(std::move(scene), precision);
    }
    if (!cuda_available()) throw RunError("CUDA backend: " + cuda_device_description());
    if (precision == Precision::Float64) return std::make_unique<CudaEngine<double>>(std::move(scene), precision);
    return std::make_unique<CudaEngine<float>>(std::move(scene), precision);
}

double cuda_copy_bandwidth_gbs(std::size_t bytes) {
    if (!cuda_available()) throw RunError("CUDA backend: " + cuda_device_description());
    const std::size_t n = std::max<std::size_t>(1, bytes / sizeof(float4));
    float4 *a = nullptr, *b = nullptr;
    CUDA_CHECK(cudaMalloc(&a, n * sizeof(float4)));
    cudaError_t e = cudaMalloc(&b, n * sizeof(float4));
    if (e != cudaSuccess) { cudaFree(a); CUDA_CHECK(e); }
    double best = 0;
    try {
        CUDA_CHECK(cudaMemset(a, 0x3f, n * sizeof(float4)));  // non-zero data
        // The better of the copy kernel and cudaMemcpy device-to-device, median of 20 each.
        const unsigned blocks = unsigned((n + 1023) / 1024);
        cudaEvent_t t0, t1;
        CUDA_CHECK(cudaEventCreate(&t0));
        CUDA_CHECK(cudaEventCreate(&t1));
        for (int variant = 0; variant < 2; ++variant) {
            std::vector<float> ms;
            for (int r = 0; r < 23; ++r) {
                float4* src = r % 2 ? b : a;
                float4* dst = r % 2 ? a : b;
                CUDA_CHECK(cudaEventRecord(t0));
                if (variant == 0) {
                    copy_kernel<<<blocks, 256>>>(src, dst, n);
                    CUDA_CHECK_LAUNCH();
                } else {
                    CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(float4), cudaMemcpyDeviceToDevice));
                }
                CUDA_CHECK(cudaEventRecord(t1));
                CUDA_CHECK(cudaEventSynchronize(t1));
                float m = 0;
                CUDA_CHECK(cudaEventElapsedTime(&m, t0, t1));
                if (r >= 3) ms.push_back(m);  // warm-up excluded
            }
            std::sort(ms.begin(), ms.end());
            const double med = ms[ms.size() / 2] * 1e-3;
            best = std::max(best, 2.0 * double(n * sizeof(float4)) / med / 1e9);
        }
        cudaEventDestroy(t0);
        cudaEventDestroy(t1);
    } catch (...) {
        cudaFree(a); cudaFree(b);
        throw;
    }
    cudaFree(a);
    cudaFree(b);
    return best;
}

}  // namespace golightly
