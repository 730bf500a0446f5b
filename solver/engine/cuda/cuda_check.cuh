// CUDA error checking for the GoLightly CUDA backend: every runtime call goes through
// CUDA_CHECK, every kernel launch is followed by CUDA_CHECK_LAUNCH(). A failure throws
// golightly::RunError naming the source file and line and the CUDA error (never aborts).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "golightly/errors.hpp"

namespace golightly::cuda_detail {

inline void check(cudaError_t status, const char* expr, const char* file, int line) {
    if (status == cudaSuccess) return;
    throw RunError(std::string("CUDA error at ") + file + ":" + std::to_string(line) + ": " + expr +
                   " returned " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

}  // namespace golightly::cuda_detail

#define CUDA_CHECK(expr) ::golightly::cuda_detail::check((expr), #expr, __FILE__, __LINE__)
#define CUDA_CHECK_LAUNCH() ::golightly::cuda_detail::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
