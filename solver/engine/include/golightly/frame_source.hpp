// GoLightly engines, the frame seam: what a viewer asks of a running engine (colour-mapped
// frames, box-averaged field samples, the 3D slice they show, frames rendered into device
// memory for CUDA-OpenGL interop). An engine gives its FrameSource through
// Engine::frames() (engine.hpp); the stepping core knows nothing of frames.
#pragma once

#include <cstddef>
#include <vector>

#include "golightly/image_io.hpp"
#include "golightly/scene.hpp"

namespace golightly {

/// A colour-mapped, downsampled frame of one component for the viewport
/// (FrameSource::frame): the grid is box-averaged by an integer factor so that the frame
/// fits max_width x max_height, then mapped with diverging_rgb (colormap.hpp) of value /
/// scale. RGBA8, rows top (max y) first, alpha 255. The factor is f = max(1, ceil(nx /
/// max_width), ceil(ny / max_height)) (frame_factor); the frame is ceil(nx / f) x ceil(ny /
/// f) pixels, pixel (bx, by) averaging cells i in [bx f, min(nx, bx f + f)), j likewise (the
/// last column/row of boxes may hold fewer cells). Values at the component's own Yee
/// positions; auto scale 0 (all-zero frame) maps everything to white. On CUDA the frame is
/// made on the device and only the small image crosses to the host.
struct FrameRequest {
    Component component = Component::Ez;
    int max_width = 1024, max_height = 1024;
    double scale = 0;  ///< colour-scale half range; <= 0: auto (max |value| of the frame)
    /// false: alpha 255. true: the viewport's blend over the structure, alpha =
    /// 255 * clamp(0.3 + 1.4 |value / scale|, 0, 0.92) (straight, not premultiplied).
    bool viewport_alpha = false;
};

/// Box-averaged samples of one component (FrameSource::sample_field): the same factor and
/// boxes as a frame, values[by * width + bx] (width x height floats) with row by = 0 at the
/// bottom (min y), each the mean of value or of value^2 over its box.
struct FieldSamples {
    int width = 0, height = 0, factor = 1;
    std::vector<float> values;
};

/// The frame factor of FrameSource::frame / sample_field: f = max(1, ceil(nx / max_width),
/// ceil(ny / max_height)) (max_* clamped to >= 1).
int frame_factor(int nx, int ny, int max_width, int max_height);

/// The viewer's view of an engine's fields. Calls follow the engine's rules (between step()
/// calls, on the engine's thread); every read reflects the last step.
class FrameSource {
public:
    virtual ~FrameSource() = default;

    /// The frame of FrameRequest for the current fields (3D: of the slice set by
    /// set_frame_slice). Throws std::invalid_argument for a component the polarization lacks.
    virtual Image8 frame(const FrameRequest& request) = 0;

    /// Box-averaged samples of one component for a viewport that colour-maps itself
    /// (FieldSamples): the mean of value (squared = false) or of value^2 (squared = true, for
    /// |E|^2 sums) over each box, as float. Only width * height floats leave the engine: the
    /// CPU engine averages in place with its threads, the CUDA engine on the device. Throws
    /// std::invalid_argument for a component the polarization lacks; the default throws
    /// std::logic_error (sources that do not implement it: test doubles).
    virtual FieldSamples sample_field(Component component, int max_width, int max_height, bool squared = false);

    /// 3D scenes: the plane frame() and sample_field() show from now on (scene.hpp
    /// FrameSlice; "3D scenes" for the image axes). The default (and 2D engines) ignore it.
    virtual void set_frame_slice(const FrameSlice& slice) { (void)slice; }

    /// The frame() image rendered into device memory, for CUDA-OpenGL interop
    /// (gl_interop.hpp): writes width * height * 4 RGBA8 bytes (layout as frame()) to
    /// `device_rgba` (a CUDA device pointer of capacity_bytes) and waits for the engine's
    /// stream. Sets width and height in every case. Returns false and writes nothing when
    /// the engine has no device memory (CPU) or capacity_bytes is too small.
    virtual bool frame_to_device(const FrameRequest& request, void* device_rgba, std::size_t capacity_bytes,
                                 int& width, int& height) {
        (void)request, (void)device_rgba, (void)capacity_bytes;
        width = height = 0;
        return false;
    }
};

}  // namespace golightly
