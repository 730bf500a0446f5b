// GoLightly CUDA-OpenGL interop: field frames from a CUDA engine to an OpenGL pixel
// buffer object without a host copy (issue: run from the IDE, viewport).
//
// Data flow, two threads:
//   solver thread:  CudaGlFrameExchange::publish(engine, request)
//                   -> FrameSource::frame_to_device renders the colour-mapped RGBA8 frame
//                      (engine.hpp, frame()) into the exchange's device staging buffer
//   GL thread:      CudaGlFrameExchange::copy_to_gl_buffer(pbo, ...)  (GL context current)
//                   -> cudaGraphicsMapResources on the registered PBO, device-to-device
//                      copy staging -> PBO, unmap; the caller then updates its texture
//                      from the bound GL_PIXEL_UNPACK_BUFFER (glTexSubImage2D with a null
//                      pointer), which stays on the GPU.
// A mutex guards the staging buffer (held for one device copy of w*h*4 bytes on either
// side), so the solver never waits on the GUI for longer than that copy, and the latest
// frame wins (older ones are overwritten unread).
//
// Built when CUDA and the OpenGL headers were found (cuda_gl_interop_compiled()); the
// viewport falls back to the host upload path otherwise, and when the OpenGL context is not
// on the CUDA device (cudaGLGetDevices finds none: Mesa, a remote display).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "golightly/frame_source.hpp"

namespace golightly {

/// True when this build has the CUDA-OpenGL interop path.
bool cuda_gl_interop_compiled();

/// True when the OpenGL context current on the calling thread runs on a CUDA device
/// (cudaGLGetDevices). False without a context, without CUDA, or on another vendor's GL.
bool cuda_gl_context_on_cuda_device(std::string* why = nullptr);

class CudaGlFrameExchange {
public:
    /// Throws RunError when the build has no interop path or no CUDA device is present.
    CudaGlFrameExchange();
    ~CudaGlFrameExchange();
    CudaGlFrameExchange(const CudaGlFrameExchange&) = delete;
    CudaGlFrameExchange& operator=(const CudaGlFrameExchange&) = delete;

    /// Solver thread: renders an engine's frame (`frames` = Engine::frames(),
    /// FrameSource::frame_to_device) into the device staging buffer (grown as needed).
    /// Returns false when the engine is not a CUDA engine (nothing published). Throws
    /// RunError on a CUDA error.
    bool publish(FrameSource& frames, const FrameRequest& request);
    /// Frames published so far (0: none yet).
    std::uint64_t published() const;

    /// GL thread, context current: copies the latest frame (RGBA8, rows top first, width x
    /// height) into the OpenGL buffer object `gl_buffer` of `buffer_bytes` bytes, registering
    /// it with CUDA on first use (again when the id or size changes). Returns false when
    /// there is no frame newer than `serial`, or the buffer is too small (width and height
    /// are set so that the caller can grow it); updates serial on success. Throws RunError
    /// on a CUDA error (e.g. the context is not on a CUDA device).
    bool copy_to_gl_buffer(unsigned gl_buffer, std::size_t buffer_bytes, int& width, int& height,
                           std::uint64_t& serial);

    /// The GL side turns the exchange off after a failure; the solver side then publishes
    /// host frames instead (thread-safe).
    void set_enabled(bool on) { enabled_.store(on); }
    bool enabled() const { return enabled_.load(); }

    /// Drops the CUDA registration of the GL buffer (GL thread, context current; also done
    /// by the destructor, which must then run with the context current).
    void unregister_gl_buffer();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::atomic<bool> enabled_{true};
};

}  // namespace golightly
