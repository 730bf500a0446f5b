// GoLightly CPU engine: helpers shared by the 2D and 3D engines (CPU model name, available
// memory, the AVX2 check, skewed per-cell arrays). Private to the solver library.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

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

/// True when the CPU has AVX2 and FMA and GOLIGHTLY_CPU_KERNELS is not "generic".
inline bool cpu_has_avx2() {
    const char* env = std::getenv("GOLIGHTLY_CPU_KERNELS");
    if (env && std::string(env) == "generic") return false;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)  // the engines' AVX2 kernel variant
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

}  // namespace golightly::cpu
