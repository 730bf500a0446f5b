#pragma once
// CUDA device queries and copies: whether a device is present, which, its memory, a host
// copy ordered on an engine's stream, and the copy bandwidth bench measures against.
// Without CUDA compiled in (cuda_stub.cpp) they report no device and throw where a device is
// required. The CUDA engine factories stay with the CPU one in engine.hpp.
#include <cstddef>
#include <string>

namespace golightly {

/// True when the CUDA backend was compiled in and a CUDA device is present.
bool cuda_available();
/// The number of CUDA devices this process sees (cudaGetDeviceCount, i.e. after
/// CUDA_VISIBLE_DEVICES); 0 without CUDA support or a usable device.
int cuda_device_count();
/// A one-line description of the CUDA device (or why none is usable).
std::string cuda_device_description();
/// Makes CUDA device `ordinal` current for the calling thread (cudaSetDevice). Throws
/// RunError when it fails or CUDA is not compiled in.
void cuda_select_device(int ordinal);
/// The name of CUDA device `ordinal` (e.g. "NVIDIA H200"); "" when unavailable.
std::string cuda_device_name(int ordinal);
/// Bytes of device memory in use on CUDA device `ordinal` (cudaMemGetInfo: total - free, all
/// processes), 0 without CUDA or for a bad ordinal. bench takes the difference around an
/// engine's construction as that engine's device memory.
std::size_t cuda_memory_used(int ordinal);
/// Free bytes of device memory on CUDA device `ordinal` (cudaMemGetInfo), 0 without CUDA or
/// for a bad ordinal.
std::size_t cuda_memory_free(int ordinal);
/// Copies `bytes` bytes from device memory `src` on CUDA device `device` to host memory
/// `dst`, ordered on `stream` (a cudaStream_t of that device), and waits. Throws RunError.
void cuda_copy_to_host(void* dst, const void* src, std::size_t bytes, int device, void* stream);
/// Device-to-device copy bandwidth of the CUDA device, GB/s (1e9 B/s), counting bytes read
/// plus bytes written, for a copy of `bytes` bytes: the better of a 16-byte-access copy
/// kernel and cudaMemcpy device-to-device, each the median of 20 runs (bench's yardstick).
/// Throws RunError when CUDA is not compiled in or no device is present.
double cuda_copy_bandwidth_gbs(std::size_t bytes);

}  // namespace golightly
