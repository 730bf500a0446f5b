// GoLightly version banner for --version and the About dialog.
#pragma once
#include <string>
namespace golightly {
/// "golightly 0.1.0 (commit abc123, CUDA: compiled in|not compiled in)".
std::string version_banner(const std::string& program);
}  // namespace golightly
