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
// One time step (n -> n+1) as a fixed kernel sequence on the engine's stream (no host
// synchronization inside step(); kGraphSteps steps replayed from a CUDA graph). With the
// fused bulk kernel (cuda_bulk3d.cuh designs 4 and 1; the default where design 4,
// update_he3_tma, runs: sm_90, x and y not periodic, nx a multiple of 8; forced by
// GOLIGHTLY_CUDA3D_FUSED=1):
//   0. tfsf.before_step     the TF/SF incident lines from n to n+1
//      sources.after_h      H sources at t = n dt, added to H^{n-1/2} (linear: the same sum
//      tfsf.after_h         as after the H update) and TF/SF H corrections (E_inc^n)
//      tensor.before_e      E^n of the tensor-coupled sites
//   1. bulk.update_fused    H^{n+1/2} and E^{n+1} into the other buffer set; flip; the
//                           extensions are rebound to the new current set
//   2. dispersion.after_e_from  poles advance from E^n of the input set (the other set
//                           now, unchanged by the bulk) and E -= weight cb / S dP, one kernel
//      sources.after_e ... monitors.after_step as below.
// In place (elsewhere, or GOLIGHTLY_CUDA3D_FUSED=0), scene.hpp's
// order but for the H sources and corrections, added to H^{n-1/2} before the H update as
// above (the same sum; split steps, engine.hpp, need them before the bulk update, and one
// order keeps one engine and a distributed one equal to the last bit):
//   0. tfsf.before_step     the TF/SF incident lines from n to n+1
//      sources.after_h      H sources at t = n dt
//      tfsf.after_h         TF/SF H corrections (E_inc^n)
//   1. bulk.update_h        H from E^n (CPML psi, pmc zeroing fused)
//   2. dispersion.before_e  poles advance from E^n
//      tensor.before_e      E^n of the tensor-coupled sites
//      bulk.update_e        E from H^{n+1/2} (table, CPML psi, pec zeroing fused)
//      dispersion.after_e   E -= weight cb / S dP
//      sources.after_e      E sources at t = (n+1/2) dt
//      tfsf.after_e         TF/SF E corrections (H~_inc^{n+1/2})
//      tensor.after_e       E += K dD~ of the coupled sites
//   3. monitors.after_step  DFT sets + time probes
//
// Two steps per pass (cuda_twostep3d.cuh; the default where update_he3_two applies: float32 and
// float64, design 4's conditions, z not periodic, memory for the capture set;
// GOLIGHTLY_CUDA3D_TWO_STEP=0 opts out): steps k and k + 1 as one pass (enqueue_pair; a
// remaining odd step as above):
//   0. tfsf.before_step     the TF/SF incident lines from n to n+1
//      sources.after_h      H sources of step k into H^{n-1/2}
//      tfsf.after_h         TF/SF H corrections of step k (E_inc^n) into H^{n-1/2}
//      tensor.before_e      E^n of the tensor sites
//      dispersion.advance_into  poles advance from E^n; weight cb / S dP into the correction
//                           arrays, which the pass subtracts from E1 (disp_advance_corr)
//   1. bulk.update_two      E^{n+2}, H^{n+3/2} into the other set; the owned E^{n+1}, H^{n+1/2}
//                           of the tile-planes holding monitor samples, tensor sites or
//                           dispersive cells into the capture set
//      two_step_sources     E sources of step k          (into the capture set and
//      two_step_tfsf        TF/SF E corrections of step k (H~_inc^{n+1/2})   carried into
//      two_step_aniso_*     tensor couplings of step k (dE from the capture set)  the output)
//      tfsf.before_step     the lines from n+1 to n+2
//      two_step_sources     H sources of step k + 1      (carried into the output)
//      two_step_tfsf        TF/SF H corrections of step k + 1 (E_inc^{n+1})
//      monitors.after_step  step k, on the capture set; flip; the extensions rebound
//   2. dispersion.after_e_from(the capture set): the poles advance from E1 and correct
//      E^{n+2}; sources.after_e ... monitors.after_step of step k + 1 as above.
// The distributed engine steps its subdomains one step at a time (one step per pass there;
// subdomain scenes get no capture set).
//
// Split steps (engine.hpp; the distributed engine's overlap mode): step_begin = phase 0's
// TF/SF lines and H sources and corrections, step_interior = the bulk update of the planes
// away from the cut ends, step_boundary = the rest (member comment at supports_split_step).
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
#include "../cpu/cpu_bloch.hpp"  // check_bloch_scene, imaginary_scene, combine_dft (host code)

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
            // The fused step is the default where update_he3_tma (tensor copies, sm_90) runs, in
            // one engine and in the distributed engine's subdomains alike (so that both add in
            // the same order): H200, bench 512^3 float32, 48.8-50.3 Gcells/s against 40.7 for the
            // in-place pair (docs/performance.md). Elsewhere the in-place pair
            // (update_he3, the fused kernel without tensor copies, gave 31.0).
            // GOLIGHTLY_CUDA3D_FUSED=1 / 0 forces the fused step / the pair.
            bool fused = tune_.fused_3d == KnobSwitch::On;
            if (tune_.fused_3d == KnobSwitch::Auto)
                fused = cuda::Bulk3<T>::tma_refusal(sc_.nx, sc_.boundary[0] == BoundaryKind::Periodic,
                                                   sc_.boundary[1] == BoundaryKind::Periodic, tune_.tma_3d)
                            .empty();
            // Complex fields (scene.hpp "Bloch-periodic axes"): two copies stepped in place,
            // each reading the other across the Bloch wraps (DevGrid3 "Complex fields").
            if (sc_.complex_fields) {
                cpu::check_bloch_scene(sc_, "CUDA engine (3D)");
                if (!sc_.tfsf.empty())
                    throw RunError("CUDA engine (3D): TF/SF sources cannot run with complex fields; use a one-way "
                                   "plane source with angle_deg");
                fused = false;
            }
            bulk_.setup(sc_, stream_, sms, fused, tune_);
            CUDA_CHECK(cudaMalloc(&d_step_, sizeof(long long)));
            CUDA_CHECK(cudaMemsetAsync(d_step_, 0, sizeof(long long), stream_));
            energy_.allocate();
            const cuda::FieldArrays<T> f = bulk_.fields();
            sources_.setup(sc_, f, stream_);
            monitors_.setup(sc_, f, stream_);
            dispersion_.setup(sc_, f, stream_);
            tensor_.setup(sc_, f, stream_);
            tfsf_.setup(sc_, f, stream_);
            if (sc_.complex_fields) setup_imaginary(sms);
            setup_two_step();
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
    std::string kernel() const override {
        if (two_step_) return "two steps per pass (update_he3_two)";
        if (im_) return "one step per pass, in place (update_h3, update_e3), two copies (complex fields)";
        if (!bulk_.fused()) return "one step per pass, in place (update_h3, update_e3)";
        return bulk_.tma() ? "one step per pass, fused (update_he3_tma)" : "one step per pass, fused (update_he3)";
    }
    Precision precision() const override { return precision_; }
    std::int64_t steps_done() const override { return steps_done_; }

    void step(int n_steps) override {
        if (n_steps <= 0) return;
        if (monitors_.ensure_probe_capacity(steps_done_ + n_steps, stream_)) destroy_graph();
        if (im_ && im_->monitors.ensure_probe_capacity(steps_done_ + n_steps, stream_)) destroy_graph();
        // One graph per buffer parity at its start: kGraphSteps is even, so a graph leaves the
        // parity as it found it and the remainder runs after the graphs.
        cuda::enqueue_steps_graphed(graph_[bulk_.parity()], stream_, n_steps, [this](int steps) { enqueue_steps(steps); });
        steps_done_ += n_steps;
    }
    void synchronize() override { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    /// Split step (subdomain.hpp), fused kernel only: step_begin = the TF/SF lines and the H
    /// sources and corrections of phase 0 (file comment), step_interior = update_fused over
    /// [lo, nz - hi), step_boundary = the pole advance and tensor E^n of phase 0, the end
    /// planes, the flip and phase 2. update_fused reads nothing but its planes and the next one on
    /// either side and writes only into the other buffer set, so a transfer may fill the
    /// `lo` / `hi` end planes of the current set and read any other plane during the interior.
    /// In place (update_h3 / update_e3), a transfer's source planes must not be rewritten
    /// during the interior and E^n must be read before it is overwritten: the interior is
    /// H over [a, b), E over [e, b) of split_step_planes (subdomain.hpp: a = 2 lo, since the
    /// neighbour below copies planes [lo + 1, 2 lo); e = a + 1, since E of plane a needs H
    /// of plane a - 1; b = nz - 2 hi); the pole advance and the tensor sites' E^n of the
    /// interior's E planes run before it, the others' after the transfers (the lists are in
    /// cell order). The ends: H over [0, a) and [b, nz), then E over [0, e) and [b, nz).
    bool supports_split_step() const override {
        if (im_) return false;  // complex fields: one engine only (partition_scene refuses them too)
        return bulk_.fused() || (dispersion_.sorted() && tensor_.sorted());
    }
    void set_split_margins(int lo, int hi) override {
        if (lo < 0 || hi < 0) throw std::invalid_argument("set_split_margins: margins must be >= 0");
        margin_lo_ = lo;
        margin_hi_ = hi;
        // A subdomain of the distributed engine steps one step at a time (setup_two_step
        // refuses scenes with an active window; this covers any other engine split this way).
        if (two_step_) {
            destroy_graph();
            two_step_ = false;
            bulk_.drop_two_step();
        }
    }
    void step_begin() override {
        if (!supports_split_step()) throw std::logic_error("CUDA engine (3D): this engine cannot split its steps");
        if (monitors_.ensure_probe_capacity(steps_done_ + 1, stream_)) destroy_graph();
        rebind();
        before_bulk_h(StepLaunch{stream_, d_step_, 0});
    }
    void step_interior() override {
        int a = 0, b = 0;
        if (!bulk_.fused()) {
            int e = 0;
            inplace_range(a, e, b);
            const std::int64_t plane = std::int64_t(sc_.nx) * sc_.ny;
            dispersion_.before_e_part(StepLaunch{stream_, d_step_, 0}, e * plane, b * plane, true);
            tensor_.before_e_part(stream_, e * plane, b * plane, true);
            bulk_.update_h_range(stream_, a, b);
            bulk_.update_e_range(stream_, e, b);
            return;
        }
        split_range(a, b);
        bulk_.update_fused(stream_, a, b);
    }
    void step_boundary() override {
        int a = 0, b = 0;
        if (!bulk_.fused()) {
            int e = 0;
            inplace_range(a, e, b);
            const std::int64_t plane = std::int64_t(sc_.nx) * sc_.ny;
            dispersion_.before_e_part(StepLaunch{stream_, d_step_, 0}, e * plane, b * plane, false);
            tensor_.before_e_part(stream_, e * plane, b * plane, false);
            bulk_.update_h_range(stream_, 0, a);
            bulk_.update_h_range(stream_, b, sc_.nz);
            bulk_.update_e_range(stream_, 0, e);
            bulk_.update_e_range(stream_, b, sc_.nz);
            finish_split_step();
            return;
        }
        split_range(a, b);
        // E^n of the current set stays until the flip (the bulk writes the other set), so the
        // tensor sites' E^n come here, and the pole advance after the bulk (after_bulk_e, from
        // that set), both after the halo transfers: a halo plane's E^n is then its owner's
        // (before step_begin's transfers it is not).
        tensor_.before_e(stream_);
        bulk_.update_fused(stream_, 0, a);
        bulk_.update_fused(stream_, b, sc_.nz);
        bulk_.flip();
        rebind();
        finish_split_step();
    }

private:
    /// Phase 2 of a split step and the step count.
    void finish_split_step() {
        after_bulk_e(StepLaunch{stream_, d_step_, 0});
        advance_step3<<<1, 1, 0, stream_>>>(d_step_, 1);
        CUDA_CHECK_LAUNCH();
        ++steps_done_;
    }

public:
    /// Bulk model (12 s + 6 B per cell fused, 18 s + 6 B in place: cuda_bulk3d.cuh) + (CPML psi
    /// + extensions) / cells.
    double bytes_per_cell_update() const override {
        double extra = bulk_.cpml_bytes_per_step() + bulk_.capture_bytes_per_step() + sources_.bytes_per_step() +
                       dispersion_.bytes_per_step(bulk_.fused(), two_step_, tensor_.total_sites() == 0) +
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
        if (tensor_.materials_changed(edited, bulk_.fields(), stream_) && two_step_)
            bulk_.set_captured_cells(captured_cells(), dispersion_.all_cells(), stream_);
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

    /// Two steps per pass (cuda_twostep3d.cuh) where update_he3_two applies: the
    /// bulk's conditions (Bulk3::two_step_refusal), a scene that is not a subdomain, and
    /// device memory for the capture set (and, with dispersive cells, the correction arrays).
    /// GOLIGHTLY_CUDA3D_TWO_STEP=0 keeps one step per pass; =require throws RunError (with
    /// the reason) where it does not apply (tests).
    void setup_two_step() {
        two_step_ = false;
        const bool require = tune_.two_step_3d == KnobSwitch::Require;
        std::string why = bulk_.two_step_refusal();
        // The distributed engine's subdomains (scene window active) step one step at a time
        // (set_split_margins): no capture set for them.
        if (why.empty() && sc_.window.active) why = "the scene is a subdomain of the distributed engine";
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
        if (!why.empty()) {
            if (require) throw RunError("CUDA engine (3D): GOLIGHTLY_CUDA3D_TWO_STEP=require, but " + why);
            return;
        }
        bulk_.setup_two_step(captured_cells(), dispersion_.all_cells(), stream_);
        two_step_ = true;
    }

    /// The cells whose tile-planes a two-step pass captures (E1 and H1) after its first step:
    /// every cell a monitor reads and every site of the tensor couplings (their first-step
    /// correction is formed from the captured E1, two_step_aniso_couple). The dispersive
    /// cells' tile-planes capture E1 (Bulk3::set_captured_cells: the second step's poles
    /// advance from it).
    std::vector<std::int64_t> captured_cells() const {
        std::vector<std::int64_t> cells = tensor_.site_cells();
        for (const auto& d : sc_.dft_sets) {
            cells.insert(cells.end(), d.cell0.begin(), d.cell0.end());
            cells.insert(cells.end(), d.cell1.begin(), d.cell1.end());
        }
        for (const auto& p : sc_.time_probes) cells.insert(cells.end(), p.cells.begin(), p.cells.end());
        return cells;
    }

    /// Enqueues steps k and k + 1 as one pass of update_he3_two (cuda_twostep3d.cuh). Before
    /// the pass: the TF/SF lines to n + 1, the H sources and TF/SF H corrections of step k into
    /// H^{n-1/2}, E^n of the tensor sites. After it, each carried into the output by
    /// two_step_carry (and the first step's E changes into the capture set): the E sources and
    /// TF/SF E corrections of step k, then its tensor couplings (dE from the captured E1); the
    /// TF/SF lines to n + 2; the H sources and TF/SF H corrections of step k + 1. Then the
    /// monitors of step k on the capture set, the flip, and the rest of step k + 1 in the file
    /// header's order (its E sources, TF/SF E corrections and tensor couplings).
    /// Dispersive cells: `corr_ready` when the pair before it, in the same enqueue_steps,
    /// already advanced the poles from E^n and wrote the corrections (disp_step_advance_corr);
    /// `next_pair`: another pair follows in the same enqueue_steps. Returns whether this pair
    /// did that for the next one (never with tensor couplings, whose second-step couplings
    /// must see the correction of E^{n+2} before the poles advance from it).
    bool enqueue_pair(int k, bool corr_ready = false, bool next_pair = false) {
        const StepLaunch a0{stream_, d_step_, k}, a1{stream_, d_step_, k + 1};
        rebind();
        before_bulk_h(a0);
        tensor_.before_e(stream_);
        T* corr[3] = {};
        bulk_.corrections(corr);
        // dispersive cells: the poles advance from E^n, the pass subtracts the correction from E1
        if (corr[0] && !corr_ready) dispersion_.advance_into(bulk_.fields(), corr, stream_);
        bulk_.update_two(stream_);
        const cuda::DevGrid3<T> g = bulk_.output_grid();
        const cuda::TwoStepCapture<T> cap = bulk_.capture();
        auto carry_sources = [&](int magnetic) {
            const cuda::SourceBatch<T> b = sources_.batch(magnetic);
            if (b.count == 0) return;
            cuda::two_step_sources<T><<<(b.count + 127) / 128, 128, 0, stream_>>>(g, b, cap, d_step_, magnetic ? k + 1 : k,
                                                                                 magnetic);
            CUDA_CHECK_LAUNCH();
        };
        auto carry_tfsf = [&](int magnetic) {
            const cuda::TfsfCorrDev<T>& c = magnetic ? tfsf_.h_corrections() : tfsf_.e_corrections();
            if (c.count == 0) return;
            cuda::two_step_tfsf<T><<<(c.count + 127) / 128, 128, 0, stream_>>>(g, c, cap, magnetic);
            CUDA_CHECK_LAUNCH();
        };
        carry_sources(0);
        carry_tfsf(0);
        if (const int sites = tensor_.total_sites(); sites > 0) {
            // On the capture set: dE = E1 - E^n, the couplings added to E1 and carried, then E1
            // (now E^{n+1}) saved as the E^n of step k + 1's couplings.
            const cuda::AnisoDev<T> a = tensor_.args_on(bulk_.capture_fields());
            const int blocks = (sites + 255) / 256;
            cuda::aniso_delta<T><<<blocks, 256, 0, stream_>>>(a);
            CUDA_CHECK_LAUNCH();
            cuda::two_step_aniso_couple<T><<<blocks, 256, 0, stream_>>>(g, a, cap);
            CUDA_CHECK_LAUNCH();
            cuda::aniso_save<T><<<blocks, 256, 0, stream_>>>(a);
            CUDA_CHECK_LAUNCH();
        }
        tfsf_.before_step(a1);
        carry_sources(1);
        carry_tfsf(1);
        monitors_.rebind(bulk_.capture_fields());
        monitors_.after_step(a0);
        bulk_.flip();
        rebind();
        // The second step's poles advance from E1; with a pair after this one, and no tensor
        // couplings, also on to the next pass's corrections.
        const bool merge = corr[0] && next_pair && tensor_.total_sites() == 0;
        after_bulk_e(a1, bulk_.capture_fields(), merge ? corr : nullptr);
        return merge;
    }

    /// Enqueues `steps` time steps on stream_ (also inside graph capture), file header order;
    /// pairs of steps as one pass where two steps per pass run (enqueue_pair).
    void enqueue_steps(int steps) {
        if (im_) {
            enqueue_complex_steps(steps);
            return;
        }
        int k = 0;
        if (two_step_) {
            bool corr_ready = false;
            for (; k + 1 < steps; k += 2) corr_ready = enqueue_pair(k, corr_ready, k + 3 < steps);
        }
        for (; k < steps; ++k) {
            const StepLaunch at{stream_, d_step_, k};
            if (bulk_.fused()) rebind();
            before_bulk_h(at);
            if (bulk_.fused()) {
                tensor_.before_e(stream_);
                bulk_.update_fused(stream_, 0, sc_.nz);
                bulk_.flip();
                rebind();
            } else {
                bulk_.update_h(stream_);
                dispersion_.before_e(at);
                tensor_.before_e(stream_);
                bulk_.update_e(stream_);
            }
            after_bulk_e(at);
        }
        advance_step3<<<1, 1, 0, stream_>>>(d_step_, steps);
        CUDA_CHECK_LAUNCH();
    }

    /// enqueue_steps of a complex run (in place, no TF/SF): each phase for the real copy, then
    /// the imaginary one. Both H updates read E^n of both copies (across a Bloch wrap), so
    /// both come before either E update, which reads H^{n+1/2} of both.
    void enqueue_complex_steps(int steps) {
        struct Copy {  // one copy's bulk and extensions (no TF/SF in a complex run)
            Bulk3<T>& bulk;
            Sources<T>& sources;
            Dispersion<T>& dispersion;
            cuda::TensorCouplings<T>& tensor;
            Monitors<T>& monitors;
        };
        ImaginaryCopy& im = *im_;
        Copy copies[2] = {{bulk_, sources_, dispersion_, tensor_, monitors_},
                          {im.bulk, im.sources, im.dispersion, im.tensor, im.monitors}};
        for (int k = 0; k < steps; ++k) {
            const StepLaunch at{stream_, d_step_, k};
            for (Copy& c : copies) {  // H sources into H^{n-1/2}, then H from E^n of both copies
                c.sources.after_h(at);
            }
            for (Copy& c : copies) c.bulk.update_h(stream_);
            for (Copy& c : copies) {
                c.dispersion.before_e(at);
                c.tensor.before_e(stream_);
            }
            for (Copy& c : copies) c.bulk.update_e(stream_);
            for (Copy& c : copies) {  // each copy's own E from here on
                c.dispersion.after_e(stream_);
                c.sources.after_e(at);
                c.tensor.after_e(stream_);
                c.monitors.after_step(at);
            }
        }
        advance_step3<<<1, 1, 0, stream_>>>(d_step_, steps);
        CUDA_CHECK_LAUNCH();
    }

    /// The imaginary copy of a complex run: the same grid stepped in place, its sources driven
    /// by the imaginary weights (cpu::imaginary_scene); the two bulks read each other across
    /// the Bloch wraps.
    void setup_imaginary(int sms) {
        im_ = std::make_unique<ImaginaryCopy>();
        im_->scene = SceneView(cpu::imaginary_scene(sc_));
        const Scene& si = *im_->scene;
        im_->bulk.setup(si, stream_, sms, false, tune_);
        const cuda::FieldArrays<T> f = im_->bulk.fields();
        im_->sources.setup(si, f, stream_);
        im_->monitors.setup(si, f, stream_);
        im_->dispersion.setup(si, f, stream_);
        im_->tensor.setup(si, f, stream_);
        bulk_.set_bloch_partner(im_->bulk, sc_.bloch_phase, 0);
        im_->bulk.set_bloch_partner(bulk_, sc_.bloch_phase, 1);
    }

    /// Phase 0's TF/SF lines and the H sources and corrections (added to H^{n-1/2}: file comment).
    void before_bulk_h(const StepLaunch& at) {
        tfsf_.before_step(at);
        sources_.after_h(at);
        tfsf_.after_h(stream_);
    }
    /// Everything after the E bulk update, in scene.hpp's order (phase 2 and the monitors).
    /// `disp_from`: where E^n of the step lies for the dispersive cells (the second step of a
    /// pair: the capture set's E1); by default the fused step's input set.
    /// `corr_next` (with `disp_from`; a scene without tensor couplings): the dispersive
    /// correction runs after the E sources and TF/SF corrections, fused with the next pass's
    /// pole advance (Dispersion::step_and_advance_into).
    void after_bulk_e(const StepLaunch& at, std::optional<cuda::FieldArrays<T>> disp_from = std::nullopt,
                      T* const* corr_next = nullptr) {
        // Fused: the poles advance from E^n of the step's input set (the other set after the
        // flip) and correct E^{n+1} in one kernel; in place they advanced before update_e.
        if (!corr_next) {  // with corr_next: after the TF/SF corrections, below
            if (disp_from)
                dispersion_.after_e_from(*disp_from, stream_);
            else if (bulk_.fused())
                dispersion_.after_e_from(bulk_.previous_fields(), stream_);
            else
                dispersion_.after_e(stream_);
        }
        sources_.after_e(at);
        tfsf_.after_e(stream_);
        if (corr_next) dispersion_.step_and_advance_into(*disp_from, corr_next, stream_);
        tensor_.after_e(stream_);
        monitors_.after_step(at);
    }

    /// In-place split (supports_split_step): H over [a, b), E over [e, b) in the interior.
    void inplace_range(int& a, int& e, int& b) const {
        const SplitPlanes p =
            split_step_planes(margin_lo_, margin_hi_, sc_.nz, sc_.boundary[2] == BoundaryKind::Periodic);
        a = p.h_begin;
        e = p.e_begin;
        b = p.end;
    }

    /// The interior planes [a, b) of a split step (margins clipped to the grid).
    void split_range(int& a, int& b) const {
        a = std::min(margin_lo_, sc_.nz);
        b = std::max(a, sc_.nz - margin_hi_);
    }

    /// Points every extension at the bulk's current buffer set.
    void rebind() {
        const cuda::FieldArrays<T> f = bulk_.fields();
        sources_.rebind(f);
        dispersion_.rebind(f);
        tensor_.rebind(f);
        tfsf_.rebind(f);
        monitors_.rebind(f);
    }

    void destroy_graph() {
        for (cuda::StepGraph& g : graph_) g.reset();
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
    cuda::StepGraph graph_[2];  ///< kGraphSteps steps by the buffer parity at their start (cuda_engine_common.cuh)
    std::int64_t steps_done_ = 0;
    long long* d_step_ = nullptr;
    cuda::EnergyReadback energy_;  ///< field_energy / fields_finite (cuda_engine_common.cuh)
    FrameSlice slice_;
    int margin_lo_ = 0, margin_hi_ = 0;  ///< split steps: end planes (set_split_margins)
    bool two_step_ = false;              ///< pairs of steps as one pass (setup_two_step)
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
    struct ImaginaryCopy {
        SceneView scene;  ///< cpu::imaginary_scene: the sources' imaginary weights
        Bulk3<T> bulk;
        Sources<T> sources;
        Dispersion<T> dispersion;
        cuda::TensorCouplings<T> tensor;
        Monitors<T> monitors;
    };
    std::unique_ptr<ImaginaryCopy> im_;  ///< null: real fields
};

}  // namespace

/// The 3D CUDA engine (cuda_engine.cu's make_cuda_engine calls it for dimensions == 3).
std::unique_ptr<Engine> make_cuda_engine3d(SceneView scene, Precision precision) {
    if (precision == Precision::Float64) return std::make_unique<CudaEngine3D<double>>(std::move(scene), precision);
    return std::make_unique<CudaEngine3D<float>>(std::move(scene), precision);
}

}  // namespace golightly
