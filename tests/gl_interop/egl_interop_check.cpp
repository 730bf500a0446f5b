// Headless check of the CUDA-OpenGL interop path (gl_interop.hpp) and its cost, on a GPU
// server without a display: an EGL context on the NVIDIA device (EGL_EXT_platform_device,
// pbuffer surface, desktop OpenGL), a pixel buffer object filled by CudaGlFrameExchange,
// uploaded into a texture on the GPU, read back once and compared byte for byte with the
// engine's host frame (FrameSource::frame). Then the solver throughput on the benchmark scene
// with no frames, with interop frames at 30 frames/s, and with host frames at 30 frames/s
// (FrameSource::frame: the small image crosses to the host, glTexSubImage2D from host memory;
// and FrameSource::sample_field, the viewport's host upload path).
//
// Exit: 0 pass, 1 fail, 77 skipped (no CUDA device, no libEGL, no EGL device, GL not on a
// CUDA device). EGL and GL entry points are loaded at run time (dlopen libEGL.so.1,
// eglGetProcAddress), so the build needs only the headers.
//
// Usage: golightly_gl_interop_check [N (grid side, 4096)] [steps per mode (2000)] [fps (30)]
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "golightly/bench.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"
#include "golightly/gl_interop.hpp"

using namespace golightly;

namespace {

int skip(const char* why) {
    std::printf("SKIPPED: %s\n", why);
    return 77;
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Gl {
    PFNGLGENBUFFERSPROC GenBuffers;
    PFNGLBINDBUFFERPROC BindBuffer;
    PFNGLBUFFERDATAPROC BufferData;
    PFNGLDELETEBUFFERSPROC DeleteBuffers;
    void (*GenTextures)(GLsizei, GLuint*);
    void (*BindTexture)(GLenum, GLuint);
    void (*TexImage2D)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void*);
    void (*TexSubImage2D)(GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, const void*);
    void (*GetTexImage)(GLenum, GLint, GLenum, GLenum, void*);
    void (*TexParameteri)(GLenum, GLenum, GLint);
    void (*PixelStorei)(GLenum, GLint);
    void (*Finish)();
    GLenum (*GetError)();
    const GLubyte* (*GetString)(GLenum);
};

}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
    const int steps_per_mode = argc > 2 ? std::atoi(argv[2]) : 2000;
    const double fps = argc > 3 ? std::atof(argv[3]) : 30.0;
    if (!cuda_available()) return skip("no CUDA device");
    if (!cuda_gl_interop_compiled()) return skip("this build has no CUDA-OpenGL interop (no GL headers)");

    void* egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!egl) return skip("libEGL.so.1 not found");
    auto getProc = reinterpret_cast<PFNEGLGETPROCADDRESSPROC>(dlsym(egl, "eglGetProcAddress"));
    if (!getProc) return skip("eglGetProcAddress missing");
    auto egl_fn = [&](const char* name) {
        void* f = dlsym(egl, name);
        return f ? f : reinterpret_cast<void*>(getProc(name));
    };
#define EGLF(type, name) auto name = reinterpret_cast<type>(egl_fn(#name))
    EGLF(PFNEGLQUERYDEVICESEXTPROC, eglQueryDevicesEXT);
    EGLF(PFNEGLGETPLATFORMDISPLAYEXTPROC, eglGetPlatformDisplayEXT);
    EGLF(PFNEGLINITIALIZEPROC, eglInitialize);
    EGLF(PFNEGLCHOOSECONFIGPROC, eglChooseConfig);
    EGLF(PFNEGLBINDAPIPROC, eglBindAPI);
    EGLF(PFNEGLCREATEPBUFFERSURFACEPROC, eglCreatePbufferSurface);
    EGLF(PFNEGLCREATECONTEXTPROC, eglCreateContext);
    EGLF(PFNEGLMAKECURRENTPROC, eglMakeCurrent);
    EGLF(PFNEGLGETERRORPROC, eglGetError);
    EGLF(PFNEGLQUERYSTRINGPROC, eglQueryString);
    EGLF(PFNEGLTERMINATEPROC, eglTerminate);
#undef EGLF
    if (!eglQueryDevicesEXT || !eglGetPlatformDisplayEXT || !eglInitialize)
        return skip("EGL lacks EGL_EXT_device_enumeration / EGL_EXT_platform_device");

    EGLDeviceEXT devices[8];
    EGLint n_devices = 0;
    if (!eglQueryDevicesEXT(8, devices, &n_devices) || n_devices == 0) return skip("no EGL device");
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLint major = 0, minor = 0;
    for (int d = 0; d < n_devices && display == EGL_NO_DISPLAY; ++d) {
        EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[d], nullptr);
        if (dpy != EGL_NO_DISPLAY && eglInitialize(dpy, &major, &minor)) display = dpy;
    }
    if (display == EGL_NO_DISPLAY) return skip("no EGL device display initializes");
    std::printf("EGL %d.%d, vendor %s, %d device(s)\n", major, minor, eglQueryString(display, EGL_VENDOR), n_devices);
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config;
    EGLint n_config = 0;
    if (!eglChooseConfig(display, config_attribs, &config, 1, &n_config) || n_config < 1)
        return skip("no EGL config with desktop OpenGL and a pbuffer");
    const EGLint pbuffer_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface surface = eglCreatePbufferSurface(display, config, pbuffer_attribs);
    if (!eglBindAPI(EGL_OPENGL_API)) return skip("eglBindAPI(EGL_OPENGL_API) failed");
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, nullptr);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, surface, surface, context)) {
        std::printf("EGL error 0x%x\n", eglGetError());
        return skip("no current OpenGL context through EGL");
    }
    Gl gl{};
#define GLF(member, name) gl.member = reinterpret_cast<decltype(gl.member)>(getProc(name))
    GLF(GenBuffers, "glGenBuffers"); GLF(BindBuffer, "glBindBuffer"); GLF(BufferData, "glBufferData");
    GLF(DeleteBuffers, "glDeleteBuffers"); GLF(GenTextures, "glGenTextures"); GLF(BindTexture, "glBindTexture");
    GLF(TexImage2D, "glTexImage2D"); GLF(TexSubImage2D, "glTexSubImage2D"); GLF(GetTexImage, "glGetTexImage");
    GLF(TexParameteri, "glTexParameteri"); GLF(PixelStorei, "glPixelStorei"); GLF(Finish, "glFinish");
    GLF(GetError, "glGetError"); GLF(GetString, "glGetString");
#undef GLF
    if (!gl.GenBuffers || !gl.TexSubImage2D || !gl.GetTexImage || !gl.GetString) return skip("GL entry points missing");
    std::printf("GL vendor %s, renderer %s, version %s\n", gl.GetString(GL_VENDOR), gl.GetString(GL_RENDERER),
                gl.GetString(GL_VERSION));
    std::string why;
    if (!cuda_gl_context_on_cuda_device(&why)) {
        std::printf("the GL context is not on a CUDA device: %s\n", why.c_str());
        return skip("GL context not on a CUDA device");
    }
    std::printf("GL context on %s\n", why.c_str());

    int failures = 0;
    // ---- correctness: interop frame == host frame, byte for byte
    const Scene scene = make_bench_scene(n, n, Polarization::TMz);
    auto engine = make_cuda_engine(scene, Precision::Float32);
    engine->step(600);  // the pulse is on the grid
    FrameRequest req;
    req.component = Component::Ez;
    req.max_width = req.max_height = 1024;
    CudaGlFrameExchange exchange;
    if (!exchange.publish(engine->frames(), req)) { std::printf("FAIL: publish returned false for a CUDA engine\n"); return 1; }
    const Image8 host = engine->frames().frame(req);
    const int w = host.width, h = host.height;
    const std::size_t bytes = std::size_t(w) * h * 4;
    GLuint pbo = 0, tex = 0;
    gl.GenBuffers(1, &pbo);
    gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
    gl.BufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_DRAW);
    gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    gl.GenTextures(1, &tex);
    gl.BindTexture(GL_TEXTURE_2D, tex);
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl.PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    gl.PixelStorei(GL_PACK_ALIGNMENT, 4);
    gl.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    auto upload_from_pbo = [&] {
        gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
        gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);  // GPU-side copy
        gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    };
    std::uint64_t serial = 0;
    int fw = 0, fh = 0;
    if (!exchange.copy_to_gl_buffer(pbo, bytes, fw, fh, serial) || fw != w || fh != h) {
        std::printf("FAIL: copy_to_gl_buffer (frame %d x %d, expected %d x %d)\n", fw, fh, w, h);
        return 1;
    }
    upload_from_pbo();
    std::vector<std::uint8_t> back(bytes, 0);
    gl.GetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, back.data());
    const GLenum err = gl.GetError();
    std::size_t differ = 0, non_white = 0;
    for (std::size_t k = 0; k < bytes; ++k) differ += back[k] != host.pixels[k];
    for (std::size_t k = 0; k < bytes; k += 4) non_white += host.pixels[k] != 255 || host.pixels[k + 1] != 255;
    std::printf("interop frame %d x %d: %zu of %zu bytes differ from FrameSource::frame, %zu non-white pixels, GL error 0x%x\n",
                w, h, differ, bytes, non_white, err);
    if (differ != 0 || err != GL_NO_ERROR) ++failures;
    if (non_white < 100) { std::printf("FAIL: the frame shows no field\n"); ++failures; }
    // a second publish without a new frame: nothing to copy
    if (exchange.copy_to_gl_buffer(pbo, bytes, fw, fh, serial)) { std::printf("FAIL: stale frame copied twice\n"); ++failures; }

    // ---- cost: throughput with no frames, interop frames, host frames at `fps`
    std::vector<std::uint8_t> upload(bytes);
    int batch = 1;
    auto run_mode = [&](int mode) {  // 0 none, 1 interop, 2 host frame(), 3 host sample_field
        const double interval = 1.0 / fps;
        // As the IDE's solver thread: steps in batches of about 2 ms of device work, waiting
        // for each batch (so a frame shows the state of its step, not one queued far ahead),
        // a frame whenever 1/fps has passed. ms/frame times the frame work alone.
        (void)engine->dft(0);  // sync
        const auto t0 = Clock::now();
        auto last = t0;
        int done = 0, frames = 0;
        double frame_s = 0;
        while (done < steps_per_mode) {
            engine->step(batch);
            done += batch;
            cudaDeviceSynchronize();
            if (mode != 0 && seconds_since(last) >= interval) {
                const auto f0 = Clock::now();
                if (mode == 1) {
                    exchange.publish(engine->frames(), req);  // solver thread side
                    if (exchange.copy_to_gl_buffer(pbo, bytes, fw, fh, serial)) upload_from_pbo();  // GL side
                } else if (mode == 2) {
                    const Image8 im = engine->frames().frame(req);
                    gl.BindTexture(GL_TEXTURE_2D, tex);
                    gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, im.pixels.data());
                } else {
                    const auto fs = engine->frames().sample_field(Component::Ez, req.max_width, req.max_height);
                    (void)fs;
                }
                gl.Finish();
                frame_s += seconds_since(f0);
                ++frames;
                last = Clock::now();
            }
        }
        (void)engine->dft(0);  // wait for the device
        const double sec = seconds_since(t0);
        struct R { double steps_per_s, frames_per_s, ms_per_frame; };
        return R{done / sec, frames / sec, frames ? 1e3 * frame_s / frames : 0.0};
    };
    const char* names[4] = {"no frames", "interop frames (device -> PBO -> texture)",
                            "host frames (FrameSource::frame, glTexSubImage2D from host)",
                            "host samples (FrameSource::sample_field, w*h floats to host)"};
    // batch: about 2 ms of device work (from a timed probe), at least 1 step
    {
        (void)engine->dft(0);
        const auto p0 = Clock::now();
        engine->step(64);
        (void)engine->dft(0);
        const double per_step = seconds_since(p0) / 64;
        batch = std::max(1, int(2e-3 / per_step));
    }
    double base = 0;
    std::printf("batches of %d steps; ", batch);
    std::printf("cost at %d x %d cells float32 TMz, frames %d x %d, target %.0f frames/s, %d steps per mode:\n", n, n,
                w, h, fps, steps_per_mode);
    for (int mode = 0; mode < 4; ++mode) {
        const auto r = run_mode(mode);
        if (mode == 0) base = r.steps_per_s;
        std::printf("  %-58s %9.1f steps/s (%.2f Gcells/s)  %5.1f frames/s  %6.3f ms/frame  throughput %.1f %% of none\n",
                    names[mode], r.steps_per_s, r.steps_per_s * double(n) * n / 1e9, r.frames_per_s, r.ms_per_frame,
                    100.0 * r.steps_per_s / base);
        if (mode == 1 && r.steps_per_s < 0.9 * base) {
            std::printf("FAIL: interop frames cost more than 10 %% of the throughput\n");
            ++failures;
        }
    }
    exchange.unregister_gl_buffer();
    gl.DeleteBuffers(1, &pbo);
    eglTerminate(display);
    std::printf(failures ? "FAILED (%d)\n" : "PASSED\n", failures);
    return failures ? 1 : 0;
}
