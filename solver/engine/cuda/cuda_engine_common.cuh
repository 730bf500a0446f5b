// GoLightly CUDA engines: the host-side pieces the 2D engine (cuda_engine.cu) and the 3D
// engine (cuda_engine3d.cu) share, written once: the device-memory check before any
// allocation, the CUDA graph of kGraphSteps steps that step() replays, and the energy /
// finiteness read-back. Host code only (no kernels): each engine passes its own step
// enqueuer and energy kernel.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>

#include "cuda_check.cuh"
#include "cuda_common.cuh"
#include "golightly/errors.hpp"

namespace golightly::cuda {
namespace {

/// Steps captured per CUDA graph (both engines): enough that the per-launch cost is paid
/// once per 32 steps on small grids; even, so that a graph of the 3D engine, whose fused
/// step alternates two buffer sets, leaves the buffer parity as it found it.
constexpr int kGraphSteps = 32;

/// Throws OutOfMemoryError (bytes needed and free) unless `need` plus 64 MiB of slack fit in
/// the device's free memory, capped by `limit` (GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES,
/// tuning.hpp: a GPU shared with other work; the out-of-memory fall-back test). `who`
/// names the engine in the message.
inline void check_device_memory(std::size_t need, std::optional<std::size_t> limit, int device, const char* who) {
    std::size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (limit) free_b = std::min<std::size_t>(free_b, *limit);
    if (need + (64u << 20) > free_b) {
        std::ostringstream os;
        os << who << ": the grid state needs " << need << " bytes (" << need / double(1 << 20) << " MiB) but only "
           << free_b << " bytes (" << free_b / double(1 << 20) << " MiB) are free on " << device_name(device);
        throw OutOfMemoryError(os.str(), need, free_b);
    }
}

/// One captured CUDA graph of kGraphSteps steps. The captured kernels hold their arguments
/// (buffer addresses, list sizes), so an engine resets the graph whenever one changes (live
/// edits, grown probe buffers) and the next step() captures it anew.
class StepGraph {
public:
    StepGraph() = default;
    StepGraph(const StepGraph&) = delete;
    StepGraph& operator=(const StepGraph&) = delete;
    ~StepGraph() { reset(); }

    bool ready() const { return exec_ != nullptr; }
    void reset() {
        if (exec_) cudaGraphExecDestroy(exec_);
        exec_ = nullptr;
    }
    /// Captures what enqueue() puts on `stream` (thread-local capture mode). On an error
    /// inside enqueue() the capture is ended and dropped before the exception goes on.
    template <class Enqueue> void capture(cudaStream_t stream, Enqueue&& enqueue) {
        reset();
        cudaGraph_t graph = nullptr;
        CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        try {
            enqueue();
        } catch (...) {
            cudaStreamEndCapture(stream, &graph);
            if (graph) cudaGraphDestroy(graph);
            throw;
        }
        CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
        const cudaError_t e = cudaGraphInstantiate(&exec_, graph, 0);
        cudaGraphDestroy(graph);
        CUDA_CHECK(e);
    }
    void launch(cudaStream_t stream) const { CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

private:
    cudaGraphExec_t exec_ = nullptr;
};

/// Graph sizes below kGraphSteps: kGraphSteps / 2, / 4, ... down to 4 steps. Every size is a
/// multiple of 4, so a graph flips the buffer sets of a fused or two-step engine an even
/// number of times (one flip per step or per pass of two) and leaves the parity as it found it.
constexpr int kGraphLevels = 4;  // 32, 16, 8 and 4 steps

/// The captured graphs of one buffer parity: level k holds kGraphSteps >> k steps.
struct StepGraphSet {
    StepGraph level[kGraphLevels];
    void reset() {
        for (StepGraph& g : level) g.reset();
    }
};

/// step(n) of both engines: whole graphs of kGraphSteps steps (captured from
/// enqueue(kGraphSteps) on first use), then with `remainder_graphs` the rest as graphs of 16,
/// 8 and 4 steps (each captured on first use), and the last 0-3 steps enqueued directly with
/// the same kernels. Without `remainder_graphs` (GOLIGHTLY_CUDA_GRAPH_REMAINDER=0) the whole
/// remainder below kGraphSteps is enqueued directly. The run driver steps in chunks of 50
/// between its checks, so without them 18 of every 50 steps were launched kernel by kernel,
/// a cost that runs sharing a GPU (sweep --concurrent) pay in the driver's launch path.
/// No host synchronization.
template <class Enqueue>
void enqueue_steps_graphed(StepGraphSet& graphs, cudaStream_t stream, int n_steps, bool remainder_graphs,
                           Enqueue&& enqueue) {
    int left = n_steps;
    for (int k = 0; k < (remainder_graphs ? kGraphLevels : 1); ++k) {
        const int size = kGraphSteps >> k;
        if (left < size) continue;
        StepGraph& graph = graphs.level[k];
        if (!graph.ready()) graph.capture(stream, [&] { enqueue(size); });
        for (; left >= size; left -= size) graph.launch(stream);
    }
    if (left > 0) enqueue(left);
}

/// The energy read-back behind field_energy() and fields_finite() of the 2D and 3D engines.
/// Two doubles of device memory: [0] the sum the engine's energy kernel adds to, [1] read as
/// an int, the flag it sets on a non-finite field value. Each engine has its own kernel
/// (the 2D slots, the 3D components); the buffer, its reset and the wait are here.
class EnergyReadback {
public:
    EnergyReadback() = default;
    EnergyReadback(const EnergyReadback&) = delete;
    EnergyReadback& operator=(const EnergyReadback&) = delete;
    ~EnergyReadback() { release(); }

    void allocate() { CUDA_CHECK(cudaMalloc(&d_, 2 * sizeof(double))); }
    void release() {
        if (d_) cudaFree(d_);
        d_ = nullptr;
    }
    /// Zeroes the pair, calls launch(double* sum, int* nonfinite_flag) to enqueue the energy
    /// kernel on `stream`, then waits for the pair. Throws std::runtime_error (CUDA_CHECK).
    template <class Launch> void read(cudaStream_t stream, Launch&& launch) {
        CUDA_CHECK(cudaMemsetAsync(d_, 0, 2 * sizeof(double), stream));
        launch(d_, reinterpret_cast<int*>(d_ + 1));
        CUDA_CHECK_LAUNCH();
        double h[2];
        CUDA_CHECK(cudaMemcpyAsync(h, d_, sizeof(h), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        int flag;
        std::memcpy(&flag, &h[1], sizeof(int));
        sum_ = h[0];
        nonfinite_ = flag != 0;
    }
    /// The last read's sum of eps_r E^2 + H^2 over the cells, and whether a value was not finite.
    double sum() const { return sum_; }
    bool nonfinite() const { return nonfinite_; }

private:
    double* d_ = nullptr;
    double sum_ = 0;
    bool nonfinite_ = false;
};

}  // namespace
}  // namespace golightly::cuda
