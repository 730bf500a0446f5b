// GoLightly CUDA backend, 3D: steps a 3D Scene (scene.hpp "3D scenes") on one GPU exactly as
// the CPU engine (engine_cpu3d.cpp) does, in float or double. Made by make_cuda_engine()
// (cuda_engine.cu) when scene.dimensions == 3.
//
// One translation unit, like cuda_engine.cu: it #includes cuda_bulk3d.cuh (the six-component
// bulk update, CPML psi in the slabs, PEC/PMC/periodic faces) and the dimension-agnostic
// extensions of the 2D engine, which see the grid through FieldArrays (cuda_common.cuh; 3D
// slots = Component order) and flat cell indices:
//   cuda_sources.cuh     Sources<T>: H and E source batches (cells held at 0 by PEC/PMC
//                        zeroing dropped, cuda_walls.cuh zeroed_cell)
//   cuda_dispersion.cuh  Dispersion<T>: multi-pole ADE on the listed dispersive cells
//   cuda_monitors.cuh    Monitors<T>: DFT sets and time probes
//   cuda_frames.cuh      Frames<T>: box averages / colour map of a 2D plane, here the plane
//                        of the FrameSlice copied out by slice_plane3 first
//   cuda_tensor.cuh      TensorCouplings<T>: sub-pixel tensor couplings of Ex, Ey, Ez
//   cuda_tfsf.cuh        Tfsf<T>: TF/SF plane waves (the CPU engine's plan, tfsf_plan.hpp)
//   cuda_engine_common.cuh  host code shared with the 2D engine: memory check, the step
//                        graphs (StepGraph), the energy read-back; knobs: tuning.hpp
// Not supported here (RunError naming the CPU backend): Mur faces (the CPU engine has them:
// cpu_extensions.hpp MurFaces). Live edits
// (update_materials) copy the edited maps and table to the device between step batches.
//
// One time step (n -> n+1) is a fixed kernel sequence on the engine's stream (no host
// synchronization inside step(); kGraphSteps steps replayed from a CUDA graph), enqueued by
// one step strategy (cuda_step3d.cuh: the seam, the step order all of them keep, and one
// header per strategy):
//   TwoStepPass3D  two steps per pass, update_he3_two (cuda_step3d_two.cuh): the default
//                  where it applies (float32 and float64, update_he3_tma's conditions, z not
//                  periodic, memory for the capture set; GOLIGHTLY_CUDA3D_TWO_STEP=0 opts
//                  out); a subdomain of the distributed engine keeps it where that engine
//                  steps pairs (distributed.hpp), else drop_pair_steps falls back to FusedStep3D
//   FusedStep3D    H + E in one kernel, update_he3_tma or update_he3 (cuda_step3d_fused.cuh):
//                  where update_he3_tma runs (sm_90, x and y not periodic, nx a multiple of
//                  8) and two steps per pass do not; forced by GOLIGHTLY_CUDA3D_FUSED=1
//   InPlaceStep3D  update_h3, update_e3 (cuda_step3d_inplace.cuh): elsewhere, or
//                  GOLIGHTLY_CUDA3D_FUSED=0
//   ComplexStep3D  two copies in place (cuda_step3d_complex.cuh): complex fields
// choose_step picks one and records why the faster ones do not run (step_reason()).
// Split steps (engine.hpp; the distributed engine's overlap mode) run SplitStep3D
// (cuda_step3d_split.cuh) on the fused or the in-place bulk, also where the bulk is set up
// for two steps per pass (the odd step of a distributed run that steps pairs).
//
// Traffic model: bytes_per_cell_update() = the bulk kernels' 18 s + 6 B per cell in place,
// 12 s + 6 B fused, 4 B less with one material map, half of the fused figure with two steps
// per pass (cuda_bulk3d.cuh, cuda_twostep3d.cuh) + (CPML psi traffic, halved with two steps,
// + the capture writes + the extensions' bytes_per_step()) / cells.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"

#include "cuda_common.cuh"
#include "cuda_engine_common.cuh"
#include "golightly/tuning.hpp"
#include "cuda_bulk3d.cuh"
#include "cuda_walls.cuh"
#include "cuda_sources.cuh"
#include "cuda_dispersion.cuh"
#include "cuda_tensor.cuh"
#include "cuda_tfsf.cuh"
#include "cuda_monitors.cuh"
#include "cuda_frames.cuh"
#include "cuda_step3d.cuh"
#include "cuda_step3d_inplace.cuh"
#include "cuda_step3d_fused.cuh"
#include "cuda_step3d_two.cuh"
#include "cuda_step3d_complex.cuh"
#include "cuda_step3d_split.cuh"
#include "../cpu/cpu_bloch.hpp"  // check_bloch_scene, combine_dft (host code)

namespace golightly {
namespace {

using cuda::Bulk3;
using cuda::DevBuf;
using cuda::Dispersion;
using cuda::Frames;
using cuda::Monitors;
using cuda::Sources;
using cuda::StepLaunch;

__global__ void advance_step3(long long* d_step, int steps) { *d_step += steps; }

// Energy and finiteness: sum over cells of eps_r(mat_c) E_c^2 + H_c^2 (double), and a flag
// for any NaN/Inf. Traffic per cell: six fields and three uint16 indices, read once.
template <class T>
__global__ void energy3(cuda::DevGrid3<T> g, const double* eps, double* out, int* nonfinite) {
    __shared__ double scratch[32];
    const std::size_t cells = std::size_t(g.n[0]) * g.n[1] * g.n[2];
    double s = 0;
    int bad = 0;
    for (std::size_t id = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; id < cells;
         id += std::size_t(gridDim.x) * blockDim.x) {
        for (int c = 0; c < 3; ++c) {
            const double e = g.E[c][id], h = g.H[c][id];
            if (!isfinite(e) || !isfinite(h)) bad = 1;
            s += eps[g.mat[c][id]] * e * e + h * h;
        }
    }
    if (bad) atomicOr(nonfinite, 1);
    s = cuda::block_sum(s, scratch);
    if (threadIdx.x == 0) atomicAdd(out, s);
}

// The plane of the frame slice: out[y * W + x] = F at idx[a] = p, idx[u] = x, idx[v] = y
// (u the first, v the second in-plane axis; engine_cpu3d.cpp slice_plane). Traffic: one
// gather of W * H values of F, W * H values written.
template <class T>
__global__ void slice_plane3(const T* F, int nx, int ny, int nz, int a, long long p, int W, int H, T* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    const int u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2;
    long long idx[3];
    idx[a] = p;
    idx[u] = x;
    idx[v] = y;
    (void)nz;
    out[std::size_t(y) * W + x] = F[(std::size_t(idx[2]) * ny + std::size_t(idx[1])) * nx + std::size_t(idx[0])];
}

template <class T>
class CudaEngine3D final : public Engine, public FrameSource, public SubdomainAccess {
public:
    // The seams (engine.hpp): its own frame source (slices made on the device) and a
    // subdomain of a distributed run (field storage, split steps).
    FrameSource& frames() override { return *this; }
    SubdomainAccess* subdomain() override { return this; }

    CudaEngine3D(SceneView scene, Precision precision)
        : tune_(CudaTuning::from_environment()),
          user_nx_(scene->nx),
          scene_(cuda::padded_scene_view(std::move(scene), tune_.pad_3d)),  // cuda_common.cuh
          materials_(scene_),
          sc_(*scene_),
          precision_(precision) {
        if (sc_.nx < 2 || sc_.ny < 2 || sc_.nz < 1)
            throw RunError("CUDA engine (3D): the grid needs at least 2 x 2 x 1 cells");
        for (int a = 0; a < 3; ++a)
            if (sc_.boundary[a] == BoundaryKind::Mur)
                throw RunError(std::string("CUDA engine (3D): the ") + "xyz"[a] +
                               " boundary is 'mur', which the 3D CUDA engine does not support yet: use the CPU "
                               "backend, or pml, pec, pmc or periodic");
        if (sc_.ny > 7 * 65535)
            throw RunError("CUDA engine (3D): at most " + std::to_string(7 * 65535) + " cells along y");
        CUDA_CHECK(cudaGetDevice(&device_));
        check_memory();  // first: a grid too large for the device gets the bytes needed and free
        if (sc_.cells() > cuda::kMaxDeviceCells)
            throw RunError("CUDA engine (3D): the grid has " + std::to_string(sc_.cells()) +
                           " cells, more than the 2^31 - 1 its 32-bit device cell lists can address; "
                           "use larger cells or the CPU backend");
        int sms = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device_));
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        try {
            if (sc_.complex_fields) {
                cpu::check_bloch_scene(sc_, "CUDA engine (3D)");
                if (!sc_.tfsf.empty())
                    throw RunError("CUDA engine (3D): TF/SF sources cannot run with complex fields; use a one-way "
                                   "plane source with angle_deg");
            }
            bulk_.setup(sc_, stream_, sms, fused_bulk(), tune_);
            CUDA_CHECK(cudaMalloc(&d_step_, sizeof(long long)));
            CUDA_CHECK(cudaMemsetAsync(d_step_, 0, sizeof(long long), stream_));
            energy_.allocate();
            const cuda::FieldArrays<T> f = bulk_.fields();
            sources_.setup(sc_, f, stream_);
            monitors_.setup(sc_, f, stream_);
            dispersion_.setup(sc_, f, stream_);
            tensor_.setup(sc_, f, stream_);
            tfsf_.setup(sc_, f, stream_);
            if (sc_.complex_fields) {
                im_ = std::make_unique<cuda::ImaginaryCopy3D<T>>();
                im_->setup(sc_, bulk_, stream_, sms, tune_);
            }
            choose_step();
            CUDA_CHECK(cudaStreamSynchronize(stream_));
        } catch (...) {
            release();
            throw;
        }
        slice_.normal_axis = 2;  // default frame plane: xy through the middle of z (as the CPU engine)
        slice_.index = sc_.nz / 2;
    }
    ~CudaEngine3D() override { release(); }

    std::string backend() const override { return "cuda"; }
    std::string device() const override { return cuda::device_name(device_); }
    std::string kernel() const override { return step_->kernel(); }
    /// Why the engine steps as kernel() says and not by a faster strategy ("" for two steps
    /// per pass; choose_step).
    const std::string& step_reason() const { return step_reason_; }
    Precision precision() const override { return precision_; }
    std::int64_t steps_done() const override { return steps_done_; }

    void step(int n_steps) override {
        if (n_steps <= 0) return;
        if (monitors_.ensure_probe_capacity(steps_done_ + n_steps, stream_)) destroy_graph();
        if (im_ && im_->monitors.ensure_probe_capacity(steps_done_ + n_steps, stream_)) destroy_graph();
        // Graphs kept per buffer parity at their start: every graph size is a multiple of 4, so
        // a graph leaves the parity as it found it and the last 0-3 steps run after the graphs.
        cuda::enqueue_steps_graphed(graph_[bulk_.parity()], stream_, n_steps, tune_.graph_remainder, [this](int steps) { enqueue_steps(steps); });
        steps_done_ += n_steps;
    }
    void synchronize() override { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    /// Split step (subdomain.hpp) on the fused or the in-place bulk: SplitStep3D
    /// (cuda_step3d_split.cuh) says which planes each call updates and why.
    bool supports_split_step() const override {
        if (im_) return false;  // complex fields: one engine only (partition_scene refuses them too)
        return bulk_.fused() || (dispersion_.sorted() && tensor_.sorted());
    }
    void set_split_margins(int lo, int hi) override {
        if (lo < 0 || hi < 0) throw std::invalid_argument("set_split_margins: margins must be >= 0");
        margin_lo_ = lo;
        margin_hi_ = hi;
        // Split steps run on the fused bulk (SplitStep3D), which two steps per pass keep
        // (their odd step is fused too): a subdomain whose distributed engine steps pairs
        // takes the pairs by step(2) and a remaining odd step split. Where the distributed
        // engine does not step pairs it calls drop_pair_steps.
    }
    /// "" where step(2) runs update_he3_two (choose_step), else step_reason().
    std::string pair_step_refusal() const override {
        if (bulk_.two_step()) return "";
        return step_reason_.empty() ? std::string("the engine steps one step per pass") : step_reason_;
    }
    void drop_pair_steps(const std::string& why) override {
        if (!bulk_.two_step()) return;
        destroy_graph();
        CUDA_CHECK(cudaStreamSynchronize(stream_));  // queued passes may still read the capture set
        bulk_.drop_two_step();
        step_ = std::make_unique<cuda::FusedStep3D<T>>(parts_);
        step_reason_ = "two steps per pass: " + why;
    }
    void step_begin() override {
        if (!supports_split_step()) throw std::logic_error("CUDA engine (3D): this engine cannot split its steps");
        if (monitors_.ensure_probe_capacity(steps_done_ + 1, stream_)) destroy_graph();
        split_.begin();
    }
    void step_interior() override { split_.interior(margin_lo_, margin_hi_); }
    void step_boundary() override {
        split_.boundary(margin_lo_, margin_hi_);
        advance_step3<<<1, 1, 0, stream_>>>(d_step_, 1);
        CUDA_CHECK_LAUNCH();
        ++steps_done_;
    }

public:
    /// Bulk model (12 s + 6 B per cell fused, 18 s + 6 B in place: cuda_bulk3d.cuh) + (CPML psi
    /// + extensions) / cells.
    double bytes_per_cell_update() const override {
        double extra = bulk_.cpml_bytes_per_step() + bulk_.capture_bytes_per_step() + sources_.bytes_per_step() +
                       dispersion_.bytes_per_step(bulk_.fused(), bulk_.two_step(), tensor_.total_sites() == 0) +
                       tensor_.bytes_per_step() + tfsf_.bytes_per_step() + monitors_.bytes_per_step();
        double bulk = bulk_.bytes_per_cell() * double(sc_.cells());
        if (im_) {  // the imaginary copy moves the same again (its wrap reads hit L2)
            extra += im_->bulk.cpml_bytes_per_step() + im_->sources.bytes_per_step() +
                     im_->dispersion.bytes_per_step(false, false, im_->tensor.total_sites() == 0) +
                     im_->tensor.bytes_per_step() + im_->monitors.bytes_per_step();
            bulk *= 2;
        }
        return (bulk + extra) / double(user_cells());
    }

    /// 0.5 eps0 dx^3 sum (eps_r E^2 + H~^2), J (scene.hpp "3D scenes").
    double field_energy() override {
        reduce();
        const double dx = sc_.dx_um * units::um;
        return 0.5 * units::eps0 * dx * dx * dx * energy_.sum();
    }
    bool fields_finite() override {
        reduce();
        return !energy_.nonfinite();
    }

    FieldStorage field_storage() override {
        FieldStorage fs;
        for (int c = 0; c < 6; ++c) fs.field[c] = bulk_.field(Component(c));
        for (int c = 0; c < 6 && im_; ++c) fs.field[6 + c] = im_->bulk.field(Component(c));
        fs.element_bytes = int(sizeof(T));
        fs.n[0] = sc_.nx;
        fs.n[1] = sc_.ny;
        fs.n[2] = sc_.nz;
        fs.cuda_device = device_;
        fs.cuda_stream = stream_;
        if (!im_)  // the x and y slabs span every z plane
            for (int c = 0; c < 6; ++c)
                for (int a = 0; a < 2; ++a)
                    if (T* p = bulk_.psi_current(c, a); p && bulk_.psi_bytes(c, a) > 0) {
                        fs.psi[c][a] = p;
                        fs.psi_plane_bytes[c][a] = std::int64_t(bulk_.psi_bytes(c, a) / std::size_t(sc_.nz));
                    }
        return fs;
    }

    /// In the scene's own layout (without the padding columns).
    void get_field(Component c, std::vector<double>& out) override {
        std::vector<T> tmp(user_cells());
        CUDA_CHECK(cudaMemcpy2DAsync(tmp.data(), std::size_t(user_nx_) * sizeof(T), bulk_.field(c),
                                     std::size_t(sc_.nx) * sizeof(T), std::size_t(user_nx_) * sizeof(T), rows(),
                                     cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        out.assign(tmp.begin(), tmp.end());
    }
    void set_field(Component c, const std::vector<double>& values) override {
        if (values.size() != user_cells())
            throw std::invalid_argument(std::string("set_field: ") + component_name(c) + " needs nx*ny*nz = " +
                                        std::to_string(user_cells()) + " values, got " + std::to_string(values.size()));
        std::vector<T> tmp(values.begin(), values.end());
        // (the padding columns keep their zeros)
        CUDA_CHECK(cudaMemcpy2DAsync(bulk_.field(c), std::size_t(sc_.nx) * sizeof(T), tmp.data(),
                                     std::size_t(user_nx_) * sizeof(T), std::size_t(user_nx_) * sizeof(T), rows(),
                                     cudaMemcpyHostToDevice, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    std::vector<std::complex<double>> dft(int set) override {
        if (!im_) return monitors_.dft(set, steps_done_, stream_);
        return cpu::combine_dft(monitors_.dft(set, steps_done_, stream_), im_->monitors.dft(set, steps_done_, stream_));
    }
    std::vector<double> time_samples(int probe) override { return monitors_.time_samples(probe, steps_done_, stream_); }

    void set_frame_slice(const FrameSlice& slice) override {
        if (slice.normal_axis < 0 || slice.normal_axis > 2)
            throw std::invalid_argument("set_frame_slice: normal_axis must be 0, 1 or 2, got " +
                                        std::to_string(slice.normal_axis));
        const int n[3] = {user_nx_, sc_.ny, sc_.nz};
        slice_ = slice;
        slice_.index = std::clamp<std::int64_t>(slice.index, 0, n[slice.normal_axis] - 1);
    }

    /// The plane of the frame slice, columns along its first in-plane axis (x for xy and
    /// xz, y for yz): copied into a plane buffer on the device, then box-averaged there.
    FieldSamples sample_field(Component c, int max_width, int max_height, bool squared) override {
        int W = 0, H = 0;
        const T* plane = extract(c, W, H);
        return frames_.sample(plane, W, H, max_width, max_height, squared, stream_);
    }

    Image8 frame(const FrameRequest& req) override {
        int W = 0, H = 0, w = 0, h = 0;
        const T* plane = extract(req.component, W, H);
        const std::uint8_t* rgba = frames_.render(plane, W, H, req, nullptr, w, h, stream_);
        Image8 img;
        img.width = w; img.height = h; img.channels = 4;
        img.pixels.resize(std::size_t(w) * h * 4);
        CUDA_CHECK(cudaMemcpyAsync(img.pixels.data(), rgba, img.pixels.size(), cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return img;
    }

    bool frame_to_device(const FrameRequest& req, void* device_rgba, std::size_t capacity, int& width,
                         int& height) override {
        int W = 0, H = 0;
        plane_size(W, H);
        const int f = frame_factor(W, H, req.max_width, req.max_height);
        width = (W + f - 1) / f;
        height = (H + f - 1) / f;
        if (!device_rgba || capacity < std::size_t(width) * height * 4) return false;
        const T* plane = extract(req.component, W, H);
        frames_.render(plane, W, H, req, static_cast<std::uint8_t*>(device_rgba), width, height, stream_);
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return true;
    }

    /// Live edit (engine.hpp): the three uint16 maps, the (ca, cb) table and the energy's
    /// eps table of `edited` replace the running ones (new device buffers, so the captured
    /// step graph is rebuilt on the next step()); unchanged dispersive cells get weight cb / S
    /// anew. Fields, psi, pole state, DFTs and probes stay. Throws std::invalid_argument
    /// (engine untouched) for a changed grid or dispersive cells, as the CPU engine.
    void update_materials(SceneView edited_view) override {
        edited_view = cuda::padded_edit(std::move(edited_view), user_nx_, sc_.nx);  // the running layout
        const Scene& edited = *edited_view;
        check_material_update(sc_, edited);  // grid (z included), map sizes, indices, poles
        destroy_graph();
        bulk_.upload_materials(edited, stream_);
        dispersion_.materials_changed(edited, stream_);
        if (im_) {  // the imaginary copy has the same materials
            im_->bulk.upload_materials(edited, stream_);
            im_->dispersion.materials_changed(edited, stream_);
        }
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        if (im_) im_->tensor.materials_changed(edited, im_->bulk.fields(), stream_);
        // (the graph is rebuilt anyway); two steps per pass capture the new sites' tile-planes
        if (tensor_.materials_changed(edited, bulk_.fields(), stream_) && bulk_.two_step())
            bulk_.set_captured_cells(cuda::TwoStepPass3D<T>::captured_cells(sc_, tensor_), dispersion_.all_cells(),
                                     stream_);
        tfsf_.materials_changed(edited, stream_);  // E corrections carry cb
        materials_ = std::move(edited_view);  // the engine's view of the materials from now on
    }

private:
    std::size_t user_cells() const { return std::size_t(user_nx_) * std::size_t(sc_.ny) * std::size_t(sc_.nz); }
    std::size_t rows() const { return std::size_t(sc_.ny) * std::size_t(sc_.nz); }

    void plane_size(int& W, int& H) const {
        const int n[3] = {user_nx_, sc_.ny, sc_.nz};
        const int a = slice_.normal_axis;
        W = n[a == 0 ? 1 : 0];
        H = n[a == 2 ? 1 : 2];
    }

    /// Copies the slice plane of component c into plane_ (asynchronous on stream_).
    const T* extract(Component c, int& W, int& H) {
        plane_size(W, H);
        const std::size_t need = std::size_t(W) * H * sizeof(T);
        if (plane_.bytes() < need) plane_.alloc(need);
        const dim3 blk(32, 8), grd(unsigned((W + 31) / 32), unsigned((H + 7) / 8));
        slice_plane3<T><<<grd, blk, 0, stream_>>>(bulk_.field(c), sc_.nx, sc_.ny, sc_.nz, slice_.normal_axis, slice_.index,
                                                  W, H, plane_.template as<T>());
        CUDA_CHECK_LAUNCH();
        return plane_.template as<T>();
    }

    void check_memory() {
        cuda::check_device_memory(engine_state_bytes(sc_, sizeof(T) == 4 ? Precision::Float32 : Precision::Float64),
                                  tune_.memory_limit_bytes, device_, "CUDA engine (3D)");
    }

    /// Whether the bulk keeps two buffer sets for a fused step (Bulk3::setup; decided before
    /// any strategy, which needs the bulk set up). The fused step is the default where
    /// update_he3_tma (tensor copies, sm_90) runs, in one engine and in the distributed
    /// engine's subdomains alike (so that both add in the same order): H200, bench 512^3
    /// float32, 48.8-50.3 Gcells/s against 40.7 for the in-place pair (docs/performance.md).
    /// Elsewhere the in-place pair (update_he3, the fused kernel without tensor copies, gave
    /// 31.0). GOLIGHTLY_CUDA3D_FUSED=1 / 0 forces the fused step / the pair. Complex fields
    /// step two copies in place.
    bool fused_bulk() const {
        if (sc_.complex_fields) return false;
        if (tune_.fused_3d != KnobSwitch::Auto) return tune_.fused_3d == KnobSwitch::On;
        return cuda::Bulk3<T>::tma_refusal(sc_.nx, sc_.boundary[0] == BoundaryKind::Periodic,
                                           sc_.boundary[1] == BoundaryKind::Periodic, tune_.tma_3d)
            .empty();
    }

    /// The step strategy (cuda_step3d.cuh), once the bulk and the extensions are set up: two
    /// steps per pass where two_step_refusal() finds nothing against them, else the bulk's one
    /// step per pass (fused or in place), complex fields always two copies in place.
    /// step_reason_ says why the faster strategies do not run. GOLIGHTLY_CUDA3D_TWO_STEP=require
    /// throws RunError (with the reason) where two steps per pass do not apply (tests).
    void choose_step() {
        const std::string two_why = two_step_refusal();
        if (!two_why.empty() && tune_.two_step_3d == KnobSwitch::Require)
            throw RunError("CUDA engine (3D): GOLIGHTLY_CUDA3D_TWO_STEP=require, but " + two_why);
        if (im_) {
            step_ = std::make_unique<cuda::ComplexStep3D<T>>(parts_, *im_);
            step_reason_ = "complex fields step two copies in place";
        } else if (two_why.empty()) {
            bulk_.setup_two_step(cuda::TwoStepPass3D<T>::captured_cells(sc_, tensor_), dispersion_.all_cells(), stream_);
            step_ = std::make_unique<cuda::TwoStepPass3D<T>>(parts_);
            step_reason_.clear();
        } else if (bulk_.fused()) {
            step_ = std::make_unique<cuda::FusedStep3D<T>>(parts_);
            step_reason_ = "two steps per pass: " + two_why;
        } else {
            step_ = std::make_unique<cuda::InPlaceStep3D<T>>(parts_);
            step_reason_ = tune_.fused_3d == KnobSwitch::Off
                               ? std::string("GOLIGHTLY_CUDA3D_FUSED=0")
                               : "fused step: " + bulk_.tma_refusal(sc_.nx, sc_.boundary[0] == BoundaryKind::Periodic,
                                                                    sc_.boundary[1] == BoundaryKind::Periodic,
                                                                    tune_.tma_3d);
        }
    }

    /// Why update_he3_two (cuda_twostep3d.cuh) cannot run here ("" where it can): the bulk's
    /// conditions (Bulk3::two_step_refusal) and device memory for the capture set (and, with
    /// dispersive cells, the correction arrays).
    std::string two_step_refusal() const {
        std::string why = bulk_.two_step_refusal();
        // Where the distributed engine will not step pairs (its knob off) a subdomain sets up
        // no second field set or capture set at all, as before pairs existed: they would only
        // take device memory from the other subdomains.
        if (why.empty() && sc_.window.active && DistributedTuning::from_environment().two_step == KnobSwitch::Off)
            why = "the scene is a subdomain of the distributed engine, which steps one step per pass "
                  "(GOLIGHTLY_DIST_TWO_STEP=0)";
        // A subdomain of the distributed engine (scene window active) keeps two steps per
        // pass here: the distributed engine steps it in pairs where every subdomain can (and
        // the halos are deep enough), else it calls drop_pair_steps.
        bool dispersive = false;
        for (int c = 0; c < 3; ++c) dispersive = dispersive || !sc_.dispersive[c].cells.empty();
        if (why.empty()) {
            std::size_t free_b = 0, total_b = 0;
            CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
            const std::size_t need = bulk_.two_step_device_bytes(dispersive) + (std::size_t(512) << 20);
            if (free_b < need)
                why = "the capture set needs " + std::to_string(need) + " bytes of device memory, " + std::to_string(free_b) +
                      " are free";
        }
        return why;
    }

    /// Enqueues `steps` time steps on stream_ (also inside graph capture) by the chosen
    /// strategy, then advances the device step counter.
    void enqueue_steps(int steps) {
        step_->enqueue_steps(steps);
        advance_step3<<<1, 1, 0, stream_>>>(d_step_, steps);
        CUDA_CHECK_LAUNCH();
    }

    void destroy_graph() {
        for (cuda::StepGraphSet& g : graph_) g.reset();
    }

    void reduce() {
        const int blocks = int(std::min<std::size_t>(4096, (sc_.cells() + 255) / 256));
        energy_.read(stream_, [&](double* sum, int* flag) {
            energy3<T><<<blocks, 256, 0, stream_>>>(bulk_.grid(), bulk_.eps_table(), sum, flag);
            if (im_)  // |F|^2 = F_re^2 + F_im^2
                energy3<T><<<blocks, 256, 0, stream_>>>(im_->bulk.grid(), im_->bulk.eps_table(), sum, flag);
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
    SceneView scene_;      ///< the scene the device runs (cuda::padded_scene_view)
    SceneView materials_;  ///< the materials on the device: scene_ until a live edit
    const Scene& sc_;
    Precision precision_;
    int device_ = 0;
    cudaStream_t stream_ = nullptr;
    cuda::StepGraphSet graph_[2];  ///< the step graphs by the buffer parity at their start (cuda_engine_common.cuh)
    std::int64_t steps_done_ = 0;
    long long* d_step_ = nullptr;
    cuda::EnergyReadback energy_;  ///< field_energy / fields_finite (cuda_engine_common.cuh)
    FrameSlice slice_;
    int margin_lo_ = 0, margin_hi_ = 0;  ///< split steps: end planes (set_split_margins)
    Bulk3<T> bulk_;
    Sources<T> sources_;
    Dispersion<T> dispersion_;
    cuda::TensorCouplings<T> tensor_;
    cuda::Tfsf<T> tfsf_;
    Monitors<T> monitors_;
    Frames<T> frames_;
    DevBuf plane_;
    /// The imaginary copy of a complex run (scene.hpp "Bloch-periodic axes"); frames, fields
    /// and time probes show the real copy, DFTs combine both.
    std::unique_ptr<cuda::ImaginaryCopy3D<T>> im_;  ///< null: real fields
    /// The bulk and the extensions as the step strategies see them (cuda_step3d.cuh).
    cuda::StepParts3D<T> parts_{bulk_, sources_, dispersion_, tensor_, tfsf_, monitors_, stream_, d_step_};
    std::unique_ptr<cuda::StepStrategy3D<T>> step_;  ///< how step() steps (choose_step)
    std::string step_reason_;                        ///< why not a faster strategy (choose_step)
    cuda::SplitStep3D<T> split_{parts_, sc_.boundary[2] == BoundaryKind::Periodic};  ///< step_begin .. step_boundary
};

}  // namespace

/// The 3D CUDA engine (cuda_engine.cu's make_cuda_engine calls it for dimensions == 3).
std::unique_ptr<Engine> make_cuda_engine3d(SceneView scene, Precision precision) {
    if (precision == Precision::Float64) return std::make_unique<CudaEngine3D<double>>(std::move(scene), precision);
    return std::make_unique<CudaEngine3D<float>>(std::move(scene), precision);
}

}  // namespace golightly
