// GoLightly CPU engine: helpers shared by the 2D and 3D engines (CPU model name, available
// memory, the AVX2 check, row segments, skewed per-cell arrays). Private to the solver library.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "cpu_team.hpp"
#include "golightly/colormap.hpp"
#include "golightly/engine.hpp"
#include "golightly/image_io.hpp"

namespace golightly::cpu {

inline std::string cpu_model_name() {
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

inline std::size_t available_memory_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::size_t value;
    std::string unit;
    while (in >> key >> value >> unit) {
        if (key == "MemAvailable:") return value * 1024;
    }
    return 0;
}

/// True when the CPU has AVX2 and FMA and `generic` (GOLIGHTLY_CPU_KERNELS=generic,
/// tuning.hpp) does not ask for the baseline kernels.
inline bool cpu_has_avx2(bool generic) {
    if (generic) return false;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)  // the engines' AVX2 kernel variant
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

/// A run of cells [i0, i1) of a row that is either wholly inside an x PML slab or
/// wholly outside (px), and that either is the boundary cell (edge) or not.
struct Segment {
    int i0 = 0, i1 = 0;
    bool px = false;
    bool edge = false;
};

/// The segments of a row of nx cells with x PML slabs [0, plo) and [nx - phi, nx), cut at
/// 0, nx and `cuts` (entries outside [0, nx] and empty runs are dropped), in increasing i.
/// `edge` marks the segment that starts at i = 0 (edge_left: the E updates, whose left
/// neighbour of i = 0 lies beyond the array) or ends at nx (the H updates' right one).
inline std::vector<Segment> row_segments(std::vector<int> cuts, int nx, int plo, int phi, bool edge_left) {
    cuts.push_back(0);
    cuts.push_back(nx);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<Segment> segs;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        const int a = cuts[k], b = cuts[k + 1];
        if (a < 0 || b > nx || a >= b) continue;
        Segment s;
        s.i0 = a;
        s.i1 = b;
        s.px = a < plo || a >= nx - phi;
        s.edge = edge_left ? a == 0 : b == nx;
        segs.push_back(s);
    }
    return segs;
}

/// sum over the components c with f[c] != nullptr and the cells k < n of w f[c][k]^2, with
/// w = eps[idx[c][k]] (the table eps_r) for the E components c < 3 and 1 for H, in double:
/// the field energy (scene.hpp field_energy) divided by eps0 dV / 2. Split over the team
/// in a fixed order (per thread, components in order), so the sum is reproducible.
template <typename Real>
double weighted_sum_squares(Team& team, const std::array<const Real*, 6>& f, const std::vector<std::uint16_t> (&idx)[3],
                            const double* eps, std::size_t n) {
    std::vector<double> part(std::size_t(team.size()), 0.0);
    auto job = [&](int t) {
        long long b, e;
        Team::split((long long)n, t, team.size(), b, e);
        double sum = 0;
        for (int c = 0; c < 6; ++c) {
            if (!f[c]) continue;
            const Real* fc = f[c];
            if (c < 3) {
                const std::uint16_t* ic = idx[c].data();
                for (long long k = b; k < e; ++k) sum += eps[ic[k]] * double(fc[k]) * double(fc[k]);
            } else {
                for (long long k = b; k < e; ++k) sum += double(fc[k]) * double(fc[k]);
            }
        }
        part[t] = sum;
    };
    team.run(job);
    double sum = 0;
    for (double p : part) sum += p;
    return sum;
}

/// True when every value of the arrays f[c] != nullptr (n values each) is finite.
template <typename Real>
bool all_finite(Team& team, const std::array<const Real*, 6>& f, std::size_t n) {
    std::vector<int> bad(std::size_t(team.size()), 0);
    auto job = [&](int t) {
        long long b, e;
        Team::split((long long)n, t, team.size(), b, e);
        for (int c = 0; c < 6; ++c) {
            if (!f[c]) continue;
            const Real* fc = f[c];
            Real acc = 0;  // x * 0 is NaN exactly for NaN and Inf
            for (long long k = b; k < e; ++k) acc += fc[k] * Real(0);
            if (!std::isfinite(acc)) bad[t] = 1;
        }
    };
    team.run(job);
    for (int v : bad)
        if (v) return false;
    return true;
}

/// The zeroed FieldSamples of a W0 x H0 plane sampled into at most max_width x
/// max_height boxes: factor = frame_factor (frame_source.hpp), width and height the box counts.
inline FieldSamples box_samples(int W0, int H0, int max_width, int max_height) {
    FieldSamples out;
    const int fac = frame_factor(W0, H0, max_width, max_height);
    out.factor = fac;
    out.width = (W0 + fac - 1) / fac;
    out.height = (H0 + fac - 1) / fac;
    out.values.assign(std::size_t(out.width) * out.height, 0.f);
    return out;
}

/// FrameSource::sample_field's boxes of a W0 x H0 plane (row-major): box (bx, by) of `fac` x
/// `fac` cells (clipped at the plane's edge) gets the mean of its values (of their squares
/// when `squared`), summed in double; `dst` holds ceil(W0 / fac) x ceil(H0 / fac) floats.
template <typename T>
void box_average(const T* plane, int W0, int H0, int fac, bool squared, float* dst) {
    const int W = (W0 + fac - 1) / fac, H = (H0 + fac - 1) / fac;
    for (int by = 0; by < H; ++by)
        for (int bx = 0; bx < W; ++bx) {
            const int i0 = bx * fac, i1 = std::min(W0, i0 + fac), j0 = by * fac, j1 = std::min(H0, j0 + fac);
            double s = 0;
            for (int j = j0; j < j1; ++j)
                for (int i = i0; i < i1; ++i) {
                    const double v = double(plane[std::size_t(j) * W0 + i]);
                    s += squared ? v * v : v;
                }
            dst[std::size_t(by) * W + bx] = float(s / double((i1 - i0) * (j1 - j0)));
        }
}

/// The RGBA frame of W x H field values (row-major, row 0 at the bottom of the picture) in
/// the diverging colour map (colormap.hpp) of value / scale; scale <= 0 (or NaN) picks the
/// largest finite |value| (1 for an all-zero field); non-finite values show as 0. Alpha is
/// viewport_alpha_byte when `viewport_alpha`, else opaque. (FrameSource::frame.)
template <typename V>
Image8 diverging_frame(const std::vector<V>& values, int W, int H, double scale, bool viewport_alpha) {
    if (!(scale > 0)) {
        scale = 0;
        for (V v : values)
            if (std::isfinite(v)) scale = std::max(scale, double(std::abs(v)));
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
            V v = values[std::size_t(by) * W + bx];
            if (!std::isfinite(v)) v = 0;
            diverging_rgb(float(v) * inv, row[4 * bx], row[4 * bx + 1], row[4 * bx + 2]);
            row[4 * bx + 3] = viewport_alpha ? viewport_alpha_byte(float(v) * inv) : std::uint8_t(255);
        }
    }
    return img;
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

}  // namespace golightly::cpu
