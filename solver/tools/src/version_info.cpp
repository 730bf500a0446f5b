#include "golightly/version_info.hpp"

#include "golightly/version.hpp"

namespace golightly {
std::string version_banner(const std::string& program) {
    return program + " " + kVersion + " (commit " + kGitCommit + ", CUDA: " +
           (kCudaCompiledIn ? "compiled in" : "not compiled in") + ")";
}
}  // namespace golightly
