// CUDA-OpenGL interop when the build has none (no CUDA, or no OpenGL headers at configure
// time): the viewport then uses the host upload path (gl_interop.hpp).
#include "golightly/gl_interop.hpp"

#ifndef GOLIGHTLY_HAVE_CUDA_GL
#include "golightly/errors.hpp"

namespace golightly {

bool cuda_gl_interop_compiled() { return false; }
bool cuda_gl_context_on_cuda_device(std::string* why) {
    if (why) *why = "this build has no CUDA-OpenGL interop (CUDA or the OpenGL headers were missing)";
    return false;
}

struct CudaGlFrameExchange::Impl {};
CudaGlFrameExchange::CudaGlFrameExchange() {
    throw RunError("this build has no CUDA-OpenGL interop (CUDA or the OpenGL headers were missing when it was built)");
}
CudaGlFrameExchange::~CudaGlFrameExchange() = default;
bool CudaGlFrameExchange::publish(FrameSource&, const FrameRequest&) { return false; }
std::uint64_t CudaGlFrameExchange::published() const { return 0; }
bool CudaGlFrameExchange::copy_to_gl_buffer(unsigned, std::size_t, int& w, int& h, std::uint64_t&) {
    w = h = 0;
    return false;
}
void CudaGlFrameExchange::unregister_gl_buffer() {}

}  // namespace golightly
#endif
