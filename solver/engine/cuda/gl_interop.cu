// GoLightly CUDA-OpenGL interop (gl_interop.hpp). Compiled only when the OpenGL headers
// exist (solver/CMakeLists.txt); no OpenGL library is linked: the CUDA driver talks to the
// GL driver itself.
#include <GL/gl.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <mutex>
#include <sstream>

#include "cuda_check.cuh"
#include "golightly/errors.hpp"
#include "golightly/gl_interop.hpp"

namespace golightly {

bool cuda_gl_interop_compiled() { return true; }

bool cuda_gl_context_on_cuda_device(std::string* why) {
    unsigned count = 0;
    int devices[4] = {0, 0, 0, 0};
    const cudaError_t e = cudaGLGetDevices(&count, devices, 4, cudaGLDeviceListAll);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();  // clear the sticky-free error
        if (why) *why = std::string("cudaGLGetDevices: ") + cudaGetErrorString(e);
        return false;
    }
    if (why) *why = count ? "CUDA device " + std::to_string(devices[0]) : "the OpenGL context is on no CUDA device";
    return count > 0;
}

struct CudaGlFrameExchange::Impl {
    std::mutex mutex;
    void* staging = nullptr;           // RGBA8 frame, device memory
    std::size_t staging_bytes = 0;
    int width = 0, height = 0;
    std::uint64_t published = 0;
    cudaGraphicsResource* resource = nullptr;
    unsigned registered_buffer = 0;
    std::size_t registered_bytes = 0;
};

CudaGlFrameExchange::CudaGlFrameExchange() : impl_(std::make_unique<Impl>()) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        (void)cudaGetLastError();
        throw RunError("CUDA-OpenGL interop: no CUDA device");
    }
}

CudaGlFrameExchange::~CudaGlFrameExchange() {
    if (impl_->resource) (void)cudaGraphicsUnregisterResource(impl_->resource);
    if (impl_->staging) (void)cudaFree(impl_->staging);
}

bool CudaGlFrameExchange::publish(FrameSource& frames, const FrameRequest& request) {
    int w = 0, h = 0;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (frames.frame_to_device(request, impl_->staging, impl_->staging_bytes, w, h)) {
        impl_->width = w, impl_->height = h;
        ++impl_->published;
        return true;
    }
    if (w <= 0 || h <= 0) return false;  // not a device engine
    // grow the staging buffer and render again
    if (impl_->staging) CUDA_CHECK(cudaFree(impl_->staging));
    impl_->staging = nullptr;
    impl_->staging_bytes = 0;
    CUDA_CHECK(cudaMalloc(&impl_->staging, std::size_t(w) * h * 4));
    impl_->staging_bytes = std::size_t(w) * h * 4;
    if (!frames.frame_to_device(request, impl_->staging, impl_->staging_bytes, w, h)) return false;
    impl_->width = w, impl_->height = h;
    ++impl_->published;
    return true;
}

std::uint64_t CudaGlFrameExchange::published() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return impl_->published;
}

void CudaGlFrameExchange::unregister_gl_buffer() {
    if (impl_->resource) CUDA_CHECK(cudaGraphicsUnregisterResource(impl_->resource));
    impl_->resource = nullptr;
    impl_->registered_buffer = 0;
    impl_->registered_bytes = 0;
}

bool CudaGlFrameExchange::copy_to_gl_buffer(unsigned gl_buffer, std::size_t buffer_bytes, int& width, int& height,
                                            std::uint64_t& serial) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    width = impl_->width, height = impl_->height;
    if (impl_->published == 0 || impl_->published == serial) return false;
    const std::size_t bytes = std::size_t(width) * height * 4;
    if (buffer_bytes < bytes) return false;
    if (!impl_->resource || impl_->registered_buffer != gl_buffer || impl_->registered_bytes != buffer_bytes) {
        if (impl_->resource) CUDA_CHECK(cudaGraphicsUnregisterResource(impl_->resource));
        impl_->resource = nullptr;
        CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&impl_->resource, gl_buffer, cudaGraphicsRegisterFlagsWriteDiscard));
        impl_->registered_buffer = gl_buffer;
        impl_->registered_bytes = buffer_bytes;
    }
    CUDA_CHECK(cudaGraphicsMapResources(1, &impl_->resource, 0));
    void* dst = nullptr;
    std::size_t mapped = 0;
    cudaError_t e = cudaGraphicsResourceGetMappedPointer(&dst, &mapped, impl_->resource);
    if (e == cudaSuccess && mapped >= bytes) e = cudaMemcpy(dst, impl_->staging, bytes, cudaMemcpyDeviceToDevice);
    const cudaError_t u = cudaGraphicsUnmapResources(1, &impl_->resource, 0);
    if (e != cudaSuccess || u != cudaSuccess) {
        std::ostringstream os;
        os << "CUDA-OpenGL interop: copying the frame into GL buffer " << gl_buffer << " failed: "
           << cudaGetErrorString(e != cudaSuccess ? e : u);
        throw RunError(os.str());
    }
    if (mapped < bytes) return false;
    serial = impl_->published;
    return true;
}

}  // namespace golightly
