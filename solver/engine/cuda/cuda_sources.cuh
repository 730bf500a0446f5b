// GoLightly CUDA backend: sources (scene.hpp SourceTerm). F[cell] += weight *
// waveform(t - delay) with the waveform evaluated on the device from the CompiledWaveform
// parameters and the device step counter, so no host synchronization happens inside a
// step and the launches can be captured into the step graph. Sources<T> files the source
// cells into an H batch (phase after_h, t = n dt) and an E batch (phase after_e, t =
// (n+1/2) dt, after the dispersive correction); cells that PEC/PMC zeroing holds at 0 are
// dropped (zeroing after the source wins, cuda_walls.cuh zeroed_cell).
#pragma once

#include <cstddef>
#include <vector>

#include "cuda_common.cuh"
#include "cuda_walls.cuh"

namespace golightly::cuda {
namespace {

struct DevWaveform {
    int type;  // 0 gaussian pulse, 1 cw
    double omega, t0, tau, ramp, amplitude, phase, delay;
};

__device__ double waveform_value(const DevWaveform& w, double t) {
    t -= w.delay;
    if (w.type == 0) {
        const double u = (t - w.t0) / w.tau;
        if (fabs(u) > 12.0) return 0.0;
        return w.amplitude * exp(-0.5 * u * u) * cos(w.omega * (t - w.t0) + w.phase);
    }
    if (t <= 0) return 0.0;
    const double r = (t >= w.ramp || w.ramp <= 0) ? 1.0 : 0.5 * (1.0 - cos(3.14159265358979323846 * t / w.ramp));
    return w.amplitude * r * sin(w.omega * t + w.phase);
}

template <class T> struct SourceBatch {
    int count;
    const int* cell;
    const double* weight;
    const int* field;   // slot of FieldArrays (cuda_common.cuh): 0..2 in 2D, 0..5 in 3D
    const int* source;  // index into waveforms
    const DevWaveform* waveforms;
    T* f[6];
    double half;        // 0 for H sources (t = n dt), 0.5 for E sources
    double dt;
};

// Traffic per source cell: its cell, weight, field and source entries (20 B), an atomic
// read-modify-write of F (2 s); the waveform parameters stay in L1/L2.
template <class T>
__global__ void apply_sources(SourceBatch<T> b, const long long* d_step, int step_offset) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= b.count) return;
    const double t = (double(*d_step + step_offset) + b.half) * b.dt;
    const double v = b.weight[k] * waveform_value(b.waveforms[b.source[k]], t);
    atomicAdd(b.f[b.field[k]] + b.cell[k], T(v));
}

/// The H and E source batches of a scene.
template <class T>
class Sources {
public:
    void setup(const Scene& sc, const DevGrid<T>& grid, cudaStream_t stream) { setup(sc, fields_of(grid), stream); }
    /// The same for any grid (2D or 3D): `fields` by slot (FieldArrays).
    void setup(const Scene& sc, const FieldArrays<T>& fields, cudaStream_t stream) {
        std::vector<DevWaveform> wf;
        for (const auto& src : sc.sources) {
            const auto& w = src.waveform;
            wf.push_back({w.type == WaveformType::GaussianPulse ? 0 : 1, w.omega, w.t0_s, w.tau_s, w.ramp_s,
                          w.amplitude, w.phase_rad, src.delay_s});
        }
        upload(waveforms_, wf, stream);
        for (int h = 0; h < 2; ++h) {  // h = 1: magnetic sources
            std::vector<int> cell, field, source;
            std::vector<double> weight;
            for (std::size_t q = 0; q < sc.sources.size(); ++q) {
                const SourceTerm& src = sc.sources[q];
                if (int(is_magnetic(src.component)) != h) continue;
                const int slot = field_slot(sc, src.component);
                if (slot < 0) throw RunError("CUDA engine: a source on a component this polarization lacks");
                if (src.cells.size() != src.weights.size()) throw RunError("CUDA engine: source cells/weights differ in length");
                for (std::size_t k = 0; k < src.cells.size(); ++k) {
                    const CellIndex c = src.cells[k];
                    if (c < 0 || std::size_t(c) >= sc.cells()) throw RunError("CUDA engine: source cell out of range");
                    if (zeroed_cell(sc, src.component, int(c))) continue;  // zeroing after the source wins
                    cell.push_back(int(c)); field.push_back(slot); source.push_back(int(q)); weight.push_back(src.weights[k]);
                }
            }
            SrcSet& ss = src_[h];
            ss.count = int(cell.size());
            upload(ss.cell, cell, stream); upload(ss.field, field, stream);
            upload(ss.source, source, stream); upload(ss.weight, weight, stream);
        }
        for (int q = 0; q < 6; ++q) f_[q] = fields.f[q];
        dt_ = sc.dt_s;
    }

    /// Phase after_h: the H sources at t = n dt.
    void after_h(const StepLaunch& l) const { launch(1, l); }
    /// The field arrays the next launches read and write (the 3D engine's two buffer sets
    /// alternate between steps, cuda_bulk3d.cuh).
    void rebind(const FieldArrays<T>& fields) { for (int q = 0; q < 6; ++q) f_[q] = fields.f[q]; }

    /// Phase after_e: the E sources at t = (n + 1/2) dt.
    void after_e(const StepLaunch& l) const { launch(0, l); }

    /// Not in the traffic model (as before the split into extensions): per source cell
    /// 20 B + 2 s per step.
    double bytes_per_step() const { return 0; }

    /// The electric (magnetic = 0) or magnetic (1) batch as apply_sources receives it
    /// (count 0: none); cuda_twostep3d.cuh's two_step_sources reads it too.
    SourceBatch<T> batch(int magnetic) const {
        const SrcSet& ss = src_[magnetic];
        SourceBatch<T> b{};
        b.count = ss.count;
        b.cell = ss.cell.template as<int>(); b.weight = ss.weight.template as<double>();
        b.field = ss.field.template as<int>(); b.source = ss.source.template as<int>();
        b.waveforms = waveforms_.template as<DevWaveform>();
        for (int q = 0; q < 6; ++q) b.f[q] = f_[q];
        b.half = magnetic ? 0.0 : 0.5;
        b.dt = dt_;
        return b;
    }

private:
    void launch(int magnetic, const StepLaunch& l) const {
        const SrcSet& ss = src_[magnetic];
        if (ss.count == 0) return;
        const SourceBatch<T> b = batch(magnetic);
        apply_sources<T><<<(ss.count + 127) / 128, 128, 0, l.stream>>>(b, l.d_step, l.k);
        CUDA_CHECK_LAUNCH();
    }

    struct SrcSet {
        int count = 0;
        DevBuf cell, weight, field, source;
    };
    DevBuf waveforms_;
    SrcSet src_[2];
    T* f_[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    double dt_ = 0;
};

}  // namespace
}  // namespace golightly::cuda
