// golightly-probe-l2-sides: which of the GPU's two L2 partitions each SM reads through.
//
// Usage: golightly-probe-l2-sides [device]   (prints one summary line and the side of each SM;
// exit 0, or 1 on a CUDA error, 2 when no device is present)
//
// Why (issue 15, docs/performance.md "The memory floor of the two-step pass"): the H100 and
// H200 split their L2 into two partitions joined by a link. An SM reads through the partition
// of its own GPCs; a line homed in the other partition crosses the link and is then kept on
// the near side as well, so later reads by SMs of the same side stay near ("each L2 partition
// localizes and caches data for memory accesses from SMs in the GPCs directly connected to
// the partition", NVIDIA A100 Tensor Core GPU Architecture whitepaper, 2020, "L2 cache").
//
// Method: one block (on whichever SM runs it: the reference) reads a buffer of 4 lines of 128 B
// per probe block with ld.global.cg, after a 2 x L2-size memset has evicted it. That puts each
// line into its home partition and into the reference's side. Then 4 blocks per SM each time a
// chain of 64 dependent loads (clock64) of their own lines. SMs of the reference's side hit near
// on every line; SMs of the other side miss near on the lines homed beyond the link (about half),
// so their mean latency is higher. The run is repeated with the reference on an SM of the other
// group, which must give the complement.
#include <cuda_runtime.h>

#include "probe_common.cuh"  // check, have_device, probe_name

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

using namespace golightly::probes;

namespace {

__device__ unsigned smid() {
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}
__device__ unsigned load_cg(const unsigned* p) {
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/// The first block on SM `target` (any SM when target < 0) to claim `claim` reads `lines` lines.
__global__ void reference(const unsigned* buf, int lines, int target, int* claim, unsigned* ref_sm, unsigned* sink) {
    __shared__ int mine;
    if (threadIdx.x == 0) mine = (target < 0 || smid() == unsigned(target)) && atomicCAS(claim, 0, 1) == 0;
    __syncthreads();
    if (!mine) return;
    unsigned s = 0;
    for (int l = int(threadIdx.x); l < lines; l += int(blockDim.x)) s += load_cg(buf + std::size_t(l) * 32);
    if (threadIdx.x == 0) *ref_sm = smid();
    if (s == 0xdeadbeefu) *sink = s;
}

/// Block b: cycles of `per` dependent loads of lines b * per .. (b + 1) * per - 1 (the buffer
/// holds zeros, so each value only orders the next load).
__global__ void probe(const unsigned* buf, int per, unsigned* sm, unsigned long long* cycles) {
    if (threadIdx.x != 0) return;
    const unsigned* base = buf + std::size_t(blockIdx.x) * per * 32;
    unsigned v = 0;
    const long long t0 = clock64();
    for (int q = 0; q < per; ++q) v = load_cg(base + std::size_t(q) * 32 + v);
    const long long t1 = clock64();
    sm[blockIdx.x] = smid();
    cycles[blockIdx.x] = static_cast<unsigned long long>(t1 - t0) + (v == 0xdeadbeefu ? 1 : 0);
}

}  // namespace

int main(int argc, char** argv) {
    probe_name = "golightly-probe-l2-sides";
    if (!have_device()) return 2;
    const int dev = argc > 1 ? std::atoi(argv[1]) : 0;
    check(cudaSetDevice(dev), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
    const int nsm = prop.multiProcessorCount, blocks = 4 * nsm, per = 64, lines = blocks * per;
    const std::size_t flush_bytes = 2 * std::size_t(std::max(prop.l2CacheSize, 1 << 20));
    unsigned *buf, *flush, *sm, *misc;
    unsigned long long* cyc;
    check(cudaMalloc(&buf, std::size_t(lines) * 128), "cudaMalloc");
    check(cudaMalloc(&flush, flush_bytes), "cudaMalloc");
    check(cudaMalloc(&sm, blocks * sizeof(unsigned)), "cudaMalloc");
    check(cudaMalloc(&cyc, blocks * sizeof(unsigned long long)), "cudaMalloc");
    check(cudaMalloc(&misc, 4 * sizeof(unsigned)), "cudaMalloc");
    check(cudaMemset(buf, 0, std::size_t(lines) * 128), "cudaMemset");
    // One measurement: mean latency per %smid with the reference on `target` (-1: any SM).
    auto measure = [&](int target, unsigned& ref) {
        check(cudaMemset(flush, 1, flush_bytes), "cudaMemset");
        check(cudaMemset(misc, 0, 4 * sizeof(unsigned)), "cudaMemset");
        reference<<<target < 0 ? 1 : 2 * nsm, 256>>>(buf, lines, target, reinterpret_cast<int*>(misc), misc + 1, misc + 2);
        probe<<<blocks, 32>>>(buf, per, sm, cyc);
        check(cudaDeviceSynchronize(), "probe kernels");
        std::vector<unsigned> s(blocks);
        std::vector<unsigned long long> c(blocks);
        check(cudaMemcpy(s.data(), sm, s.size() * sizeof(unsigned), cudaMemcpyDeviceToHost), "cudaMemcpy");
        check(cudaMemcpy(c.data(), cyc, c.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost), "cudaMemcpy");
        check(cudaMemcpy(&ref, misc + 1, sizeof(unsigned), cudaMemcpyDeviceToHost), "cudaMemcpy");
        std::map<unsigned, std::pair<double, int>> acc;
        for (int b = 0; b < blocks; ++b) {
            acc[s[b]].first += double(c[b]) / per;
            ++acc[s[b]].second;
        }
        std::map<unsigned, double> lat;
        for (const auto& [id, e] : acc) lat[id] = e.first / e.second;
        return lat;
    };
    // The split at the widest gap of the sorted latencies: the SMs above it (the far side).
    auto split = [](const std::map<unsigned, double>& lat, double& gap, double& lo_max, double& hi_min,
                    double& lo_min, double& hi_max) {
        std::vector<std::pair<double, unsigned>> v;
        for (const auto& [id, l] : lat) v.push_back({l, id});
        std::sort(v.begin(), v.end());
        std::size_t cut = 1;
        for (std::size_t q = 1; q < v.size(); ++q)
            if (v[q].first - v[q - 1].first > v[cut].first - v[cut - 1].first) cut = q;
        gap = v[cut].first - v[cut - 1].first;
        lo_min = v.front().first;
        lo_max = v[cut - 1].first;
        hi_min = v[cut].first;
        hi_max = v.back().first;
        std::vector<unsigned> far;
        for (std::size_t q = cut; q < v.size(); ++q) far.push_back(v[q].second);
        std::sort(far.begin(), far.end());
        return far;
    };
    unsigned ref1 = 0, ref2 = 0;
    const auto lat1 = measure(-1, ref1);
    double gap, lo_max, hi_min, lo_min, hi_max;
    const std::vector<unsigned> far1 = split(lat1, gap, lo_max, hi_min, lo_min, hi_max);
    const bool clear = gap >= 0.08 * lo_min && gap > std::max(lo_max - lo_min, hi_max - hi_min);
    // Again with the reference on a far SM: the sides must swap.
    const auto lat2 = measure(int(far1.front()), ref2);
    double gap2, a, b, c2, d;
    const std::vector<unsigned> far2 = split(lat2, gap2, a, b, c2, d);
    std::vector<unsigned> near1;
    for (const auto& [id, l] : lat1)
        if (!std::binary_search(far1.begin(), far1.end(), id)) near1.push_back(id);
    const bool complement = far2 == near1;
    std::printf("L2 sides (%s, %d SMs, %d seen): %zu near SMs %.0f-%.0f cycles per load, %zu far %.0f-%.0f (reference SM %u); "
                "%s split; reference on SM %u: %s\n",
                prop.name, nsm, int(lat1.size()), lat1.size() - far1.size(), lo_min, lo_max, far1.size(), hi_min, hi_max, ref1,
                clear ? "a clear" : "no clear", ref2, complement ? "the complement" : "NOT the complement");
    std::printf("side of each SM (%%smid:side, 1 = the far side of SM %u):", ref1);
    for (const auto& [id, l] : lat1) std::printf(" %u:%d", id, int(std::binary_search(far1.begin(), far1.end(), id)));
    std::printf("\n");
    return 0;
}
