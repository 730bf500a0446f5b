// golightly-probe-two-step-floor: the memory floor of a two-step pass (update_he3_two's loads
// and stores with no arithmetic) for tile shapes other than the engine's.
//
// Usage: golightly-probe-two-step-floor [N] [WxTYxSTxB ...]
//   N    cells per axis of the float32 grid (default 512, a multiple of 8; 6 fields in two sets
//        and one uint16 map: 50 N^3 B of device memory)
//   W    owned columns of a tile along x (a multiple of 32, at most 128)
//   TY   owned rows along y;  ST  tensor-copy stages;  B  blocks per SM at most (0: as many as
//        the shared memory of the design allows)
// Default list: the engine's shape (32x7x5x2) and the larger tiles of docs/performance.md.
// Exit 0; 1 on a CUDA error; 2 when no device is present.
//
// What a pass does here (update_he3_two's memory traffic, cuda_twostep3d.cuh, without its
// arithmetic, CPML psi, capture set and sources): a block owns W x TY columns of a z chunk of
// 48 planes and walks planes k0 - 2 .. k1 + 1. Each plane brings, by tensor copies into ST
// shared-memory stages, the six field boxes (W + 8) x rows from (i0 - 4, j0 - 2) (rows: TY + 4
// for Ex and Ez, TY + 3 for the others) and one uint16 material box (W + 16) x (TY + 2) from
// (i0 - 8, j0 - 1). After each plane's barrier thread 0 refills the stage read in the plane
// before. The owned cells of plane k - 2 are stored (six float32 fields, 128-byte lines per
// warp). Traffic per cell and pass at the model: 6 x 4 B read + 6 x 4 B written + 2 B map =
// 50 B, 25 B per cell update; everything above that is halo and chunk-edge re-reading, served
// by the L2 when neighbours run close in time. The block has 32 (TY + 3) threads, as the
// engine's, and asks for the design's shared memory: ST stages + the H1, E1 and H2 buffers
// (2 planes x 3 components x (TY + 3) x (W + 8) float32) + the CPML profiles, so the blocks
// per SM are those the design would get (or fewer, by B). The yardstick: cudaMemcpy device to
// device of 1 GiB (median of 20), one of the two copies `golightly-cli bench` takes the better of.
#include <cuda.h>  // CUtensorMap (the type); cuTensorMapEncodeTiled through cudaGetDriverEntryPointByVersion
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "probe_common.cuh"  // check, have_device, probe_name

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace golightly::probes;

namespace {


struct Maps {
    CUtensorMap f[6], mat;
    int slot[7];     // byte offset of each box in a stage
    unsigned bytes;  // bytes a stage receives
};
struct Pass {
    int n, W, TY, ST, chunk, stage_bytes;
    float* out[6];
};

[[maybe_unused]] __device__ __forceinline__ unsigned saddr(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void issue(const Maps& m, unsigned char* st, std::uint64_t* bar, int i0, int j0, int k) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(saddr(bar)), "r"(m.bytes) : "memory");
    for (int c = 0; c < 6; ++c)
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
                saddr(st + m.slot[c])),
            "l"(reinterpret_cast<std::uint64_t>(&m.f[c])), "r"(i0 - 4), "r"(j0 - 2), "r"(k), "r"(saddr(bar))
            : "memory");
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
            saddr(st + m.slot[6])),
        "l"(reinterpret_cast<std::uint64_t>(&m.mat)), "r"(i0 - 8), "r"(j0 - 1), "r"(k), "r"(saddr(bar))
        : "memory");
#endif
}

__device__ __forceinline__ void wait(std::uint64_t* bar, unsigned parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "{\n .reg .pred p;\nWAIT:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra WAIT;\n}\n" ::"r"(saddr(bar)),
        "r"(parity)
        : "memory");
#endif
}

/// One pass; block (tile x, tile y, chunk). Warp w < TY owns row j0 + w; lane l the columns
/// i0 + l + 32 q, q < W / 32.
__global__ void floor_pass(const __grid_constant__ Maps m, Pass p) {
    extern __shared__ __align__(128) unsigned char smem[];
    std::uint64_t* bar = reinterpret_cast<std::uint64_t*>(smem + p.ST * p.stage_bytes);
    const int tid = int(threadIdx.x), lane = tid & 31, w = tid >> 5;
    const int i0 = int(blockIdx.x) * p.W, j0 = int(blockIdx.y) * p.TY;
    const int k0 = int(blockIdx.z) * p.chunk, k1 = min(p.n, k0 + p.chunk);
    const int kb = k0 - 2, n_planes = k1 + 2 - kb;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (tid == 0) {
        for (int s = 0; s < p.ST; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(saddr(bar + s)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
#endif
    __syncthreads();
    if (tid == 0)
        for (int t = 0; t < min(p.ST, n_planes); ++t) issue(m, smem + t * p.stage_bytes, bar + t, i0, j0, kb + t);
    const int j = j0 + w, cpt = p.W / 32, bw = p.W + 8;
    const bool row = w < p.TY && j < p.n;
    float acc[6][4] = {};
    wait(bar, 0);
    for (int t = 0, k = kb; k <= k1 + 1; ++t, ++k) {
        const unsigned char* st = smem + (t % p.ST) * p.stage_bytes;
        if (k <= k1) wait(bar + (t + 1) % p.ST, unsigned(((t + 1) / p.ST) & 1));
        if (k <= k1 && row)
#pragma unroll
            for (int q = 0; q < 4; ++q)
                if (q < cpt)
#pragma unroll
                    for (int c = 0; c < 6; ++c)
                        acc[c][q] = 0.5f * acc[c][q] + reinterpret_cast<const float*>(st + m.slot[c])[(w + 2) * bw + 4 + lane + 32 * q];
        __syncthreads();
        if (tid == 0 && t >= 1 && t - 1 + p.ST < n_planes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
            const int r = t - 1 + p.ST;
            issue(m, smem + (r % p.ST) * p.stage_bytes, bar + r % p.ST, i0, j0, kb + r);
        }
        if (k - 2 >= k0 && k - 2 < k1 && row) {
            const std::size_t base = (std::size_t(k - 2) * p.n + j) * p.n + i0 + lane;
#pragma unroll
            for (int q = 0; q < 4; ++q)
                if (q < cpt && i0 + lane + 32 * q < p.n)
#pragma unroll
                    for (int c = 0; c < 6; ++c) p.out[c][base + 32 * q] = acc[c][q];
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    probe_name = "golightly-probe-two-step-floor";
    if (!have_device()) return 2;
    int a0 = 1, n = 512;
    if (argc > 1 && std::string(argv[1]).find('x') == std::string::npos) n = std::atoi(argv[a0++]);
    std::vector<std::string> shapes(argv + a0, argv + argc);
    if (shapes.empty()) shapes = {"32x7x5x2", "32x7x5x1", "32x14x5x1", "64x4x5x2", "64x7x3x2", "64x7x5x1", "64x10x4x1", "64x14x4x1", "128x7x3x1"};
    if (n < 64 || n % 8) {  // tensor-map strides: multiples of 16 B (the uint16 map's rows)
        std::fprintf(stderr, "golightly-probe-two-step-floor: N = %d: at least 64 and a multiple of 8\n", n);
        return 1;
    }
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    if (prop.major < 9) {
        std::printf("golightly-probe-two-step-floor: SKIPPED (%s has no tensor copies: compute capability %d.%d, 9.0 needed)\n",
                    prop.name, prop.major, prop.minor);
        return 2;
    }
    PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&encode), 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !encode) {
        std::fprintf(stderr, "golightly-probe-two-step-floor: the driver has no cuTensorMapEncodeTiled\n");
        return 1;
    }
    const std::size_t cells = std::size_t(n) * n * n;
    cudaEvent_t e0, e1;
    check(cudaEventCreate(&e0), "cudaEventCreate");
    check(cudaEventCreate(&e1), "cudaEventCreate");
    double copy_gbs = 0;  // cudaMemcpy device to device, 1 GiB, median of 20
    {
        const std::size_t bytes = std::size_t(1) << 30;
        void *a = nullptr, *b = nullptr;
        check(cudaMalloc(&a, bytes), "cudaMalloc (copy)");
        check(cudaMalloc(&b, bytes), "cudaMalloc (copy)");
        check(cudaMemset(a, 0x3f, bytes), "cudaMemset");
        std::vector<float> ms;
        for (int r = 0; r < 23; ++r) {
            check(cudaEventRecord(e0), "cudaEventRecord");
            check(cudaMemcpyAsync(r % 2 ? a : b, r % 2 ? b : a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
            check(cudaEventRecord(e1), "cudaEventRecord");
            check(cudaEventSynchronize(e1), "copy");
            float m = 0;
            cudaEventElapsedTime(&m, e0, e1);
            if (r >= 3) ms.push_back(m);
        }
        std::sort(ms.begin(), ms.end());
        copy_gbs = 2.0 * double(bytes) / (double(ms[ms.size() / 2]) * 1e6);
        cudaFree(a);
        cudaFree(b);
    }
    std::printf("%s, %d^3 float32, copy %.0f GB/s\n", prop.name, n, copy_gbs);
    float* f[2][6];
    for (auto& set : f)
        for (float*& p : set) {
            check(cudaMalloc(&p, cells * 4), "cudaMalloc (fields)");
            check(cudaMemset(p, 0, cells * 4), "cudaMemset");
        }
    std::uint16_t* mat;
    check(cudaMalloc(&mat, cells * 2), "cudaMalloc (map)");
    check(cudaMemset(mat, 0, cells * 2), "cudaMemset");
    for (const std::string& shape : shapes) {
        int W = 0, TY = 0, ST = 0, B = 0;
        if (std::sscanf(shape.c_str(), "%dx%dx%dx%d", &W, &TY, &ST, &B) != 4 || W < 32 || W > 128 || W % 32 || TY < 1 ||
            TY > 29 || ST < 2 || ST > 8 || B < 0) {
            std::fprintf(stderr, "golightly-probe-two-step-floor: shape '%s': want WxTYxSTxB, W in 32, 64, 96, 128, TY 1-29, ST 2-8\n",
                         shape.c_str());
            return 1;
        }
        Maps m[2]{};
        int off = 0;
        unsigned bytes = 0;
        const cuuint64_t dims[3] = {cuuint64_t(n), cuuint64_t(n), cuuint64_t(n)};
        const cuuint64_t fstr[2] = {cuuint64_t(n) * 4, cuuint64_t(n) * n * 4}, mstr[2] = {cuuint64_t(n) * 2, cuuint64_t(n) * n * 2};
        const cuuint32_t unit[3] = {1, 1, 1};
        bool ok = true;
        for (int c = 0; c < 6; ++c) {
            const int rows = c == 0 || c == 2 ? TY + 4 : TY + 3;
            const cuuint32_t box[3] = {cuuint32_t(W + 8), cuuint32_t(rows), 1};
            for (int s = 0; s < 2; ++s) {
                ok = ok && encode(&m[s].f[c], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, f[s][c], dims, fstr, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
                m[s].slot[c] = off;
            }
            off += ((W + 8) * rows * 4 + 127) / 128 * 128;
            bytes += unsigned((W + 8) * rows * 4);
        }
        const cuuint32_t mbox[3] = {cuuint32_t(W + 16), cuuint32_t(TY + 2), 1};
        for (int s = 0; s < 2; ++s) {
            ok = ok && encode(&m[s].mat, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, mat, dims, mstr, mbox, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
            m[s].slot[6] = off;
        }
        off += ((W + 16) * (TY + 2) * 2 + 127) / 128 * 128;
        bytes += unsigned((W + 16) * (TY + 2) * 2);
        if (!ok) {
            std::fprintf(stderr, "golightly-probe-two-step-floor: shape %s: cuTensorMapEncodeTiled refused a map\n", shape.c_str());
            return 1;
        }
        for (Maps& x : m) x.bytes = bytes;
        const int design = ST * off + 64 + 3 * 2 * 3 * (TY + 3) * (W + 8) * 4 + 6 * (W + 3 + TY + 3 + 68) * 4;
        const int max_block = int(prop.sharedMemPerBlockOptin);
        int smem = design;
        if (B > 0) smem = std::max(smem, int(prop.sharedMemPerMultiprocessor) / B - int(prop.reservedSharedMemPerBlock) - 1024);
        smem = std::min(smem, std::max(design, max_block));
        if (design > max_block) {
            std::printf("W %3d TY %2d ST %d: %d B of shared memory per block, more than the %d a block may have\n", W, TY, ST, design,
                        max_block);
            continue;
        }
        check(cudaFuncSetAttribute(floor_pass, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "cudaFuncSetAttribute");
        const int threads = 32 * (TY + 3);
        int per_sm = 0;
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, floor_pass, threads, smem), "occupancy");
        const dim3 grid(unsigned((n + W - 1) / W), unsigned((n + TY - 1) / TY), unsigned((n + 47) / 48));
        auto run = [&](int s) {
            Pass p{n, W, TY, ST, 48, off, {}};
            for (int c = 0; c < 6; ++c) p.out[c] = f[s ^ 1][c];
            floor_pass<<<grid, threads, smem>>>(m[s], p);
        };
        run(0);
        run(1);
        check(cudaDeviceSynchronize(), "floor_pass");
        const int reps = 10;
        check(cudaEventRecord(e0), "cudaEventRecord");
        for (int r = 0; r < reps; ++r) run(r & 1);
        check(cudaEventRecord(e1), "cudaEventRecord");
        check(cudaEventSynchronize(e1), "floor_pass");
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        ms /= reps;
        const double rate = 2.0 * double(cells) / (double(ms) * 1e6);  // Gcells/s, two updates per pass
        std::printf("W %3d TY %2d ST %d: %6d B shared, %d blocks/SM, %2d warps/SM: pass %.3f ms, %.1f Gcells/s (two steps), "
                    "%.1f B per owned cell of boxes; at 25 B per cell update %.3f of copy\n",
                    W, TY, ST, smem, per_sm, per_sm * (TY + 3), ms, rate, double(bytes) / (W * TY), rate * 25.0 / copy_gbs);
    }
    return 0;
}
