// GoLightly viewport: field frames and where the viewport gets them from.
//
// Host upload path: on the solver thread, make_field_frame() box-averages one quantity
// with FrameSource::sample_field (the CPU engine in place with its threads, the CUDA engine on
// the device: only the small map crosses to the host) and publishes it to a
// MailboxFrameSource (a mutex-guarded latest-wins slot: the solver never waits for the GUI,
// older frames are dropped). The FieldView polls the source on a timer, colour-maps the
// frame and uploads it as a texture.
//
// CUDA-OpenGL interop path (gl_interop.hpp): with the CUDA backend and a FieldView whose
// OpenGL context runs on the CUDA device, the solver thread renders the colour-mapped frame
// on the device into the view's CudaGlFrameExchange and publishes a FieldFrame with
// on_device = true and no values (geometry, step and time only); the view then copies the
// pixels device-to-device into its pixel buffer object and texture, with no host copy.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "golightly/engine.hpp"
#include "golightly/scene.hpp"

namespace golightly::viewport {

/// What the viewport shows: a field component or |E|^2 (sum of the squared E components).
enum class FieldQuantity { Ex, Ey, Ez, Hx, Hy, Hz, E2 };
/// "Ex" .. "Hz", "|E|^2".
std::string to_string(FieldQuantity q);
/// The default quantity of a polarization: TMz -> Ez, TEz -> Hz.
FieldQuantity default_quantity(Polarization p);

/// A downsampled field map. values[j * width + i], row j = 0 at the bottom (min y), x
/// fastest; sample (i, j) is the mean of a factor x factor box of Yee cells. The map covers
/// the world rectangle [x0_um, x0_um + width_um] x [y0_um, y0_um + height_um] (um, y up,
/// the editor's coordinates: origin at the interior lower-left corner).
struct FieldFrame {
    FieldQuantity quantity = FieldQuantity::Ez;
    int width = 0, height = 0, factor = 1;
    double x0_um = 0, y0_um = 0, width_um = 0, height_um = 0;
    std::vector<float> values;
    bool signed_values = true;  ///< false for |E|^2 (>= 0)
    float max_abs = 0;          ///< largest |value| of the frame
    std::int64_t step = 0;
    double time_fs = 0;
    /// The pixels are in the view's CudaGlFrameExchange (interop path), not in `values`.
    bool on_device = false;
    double scale = 0;           ///< on_device: the colour scale the device used (0: auto)
    /// 3D runs: the slice shown (scene.hpp FrameSlice): normal axis 2 = xy (columns x, rows
    /// y), 1 = xz (columns x, rows z), 0 = yz (columns y, rows z); x0_um / y0_um and the
    /// extents are then along those two axes. 2D: 2.
    int slice_normal = 2;
    double slice_position_um = 0;  ///< 3D: the slice's position along its normal, um
    bool three_d = false;          ///< the frame is a slice of a 3D grid
};

/// The in-plane axes of a slice normal to `normal_axis` (0, 1, 2): {columns, rows}:
/// xy -> {0, 1}, xz -> {0, 2}, yz -> {1, 2}.
std::pair<int, int> slice_axes(int normal_axis);
/// The node index along `slice.normal_axis` nearest to `position_um` (interior
/// coordinates, as Grid::nearest_index with offset 0), clamped to the grid.
FrameSlice slice_at(const Scene& scene, int normal_axis, double position_um);
/// The position (um) of a slice's node along its normal.
double slice_position_um(const Scene& scene, const FrameSlice& slice);

/// The geometry, step and time of the frame make_field_frame would make, without values
/// (the interop path's FieldFrame; on_device is left false for the caller to set).
/// `slice`: 3D scenes only, the plane the engine samples (FrameSource::set_frame_slice must have
/// been given the same slice); ignored in 2D.
FieldFrame field_frame_geometry(const Engine& engine, const Scene& scene, FieldQuantity q, int max_width,
                                int max_height, const FrameSlice& slice = {});

/// Reads `q` from the engine (solver thread) and box-averages it so that the frame fits
/// max_width x max_height: factor f = max(1, ceil(nx / max_width), ceil(ny / max_height)).
/// Throws std::invalid_argument when the polarization lacks the component.
/// 3D scenes: the plane `slice` (set on the engine beforehand with set_frame_slice); |E|^2
/// sums Ex, Ey and Ez.
FieldFrame make_field_frame(Engine& engine, const Scene& scene, FieldQuantity q, int max_width, int max_height,
                            std::vector<double>& scratch, const FrameSlice& slice = {});

enum class FrameSourceKind { HostUpload, GlInterop };

/// Where a FieldView takes its frames from.
class FrameSource {
public:
    virtual ~FrameSource() = default;
    virtual FrameSourceKind kind() const = 0;
    /// The newest frame when it is newer than `serial` (which is then updated), else null.
    virtual std::shared_ptr<const FieldFrame> takeLatest(std::uint64_t& serial) = 0;
};

/// Host upload path: a latest-wins slot, safe to publish from any thread.
class MailboxFrameSource : public FrameSource {
public:
    FrameSourceKind kind() const override { return FrameSourceKind::HostUpload; }
    void publish(std::shared_ptr<const FieldFrame> frame);
    std::shared_ptr<const FieldFrame> takeLatest(std::uint64_t& serial) override;
    void clear();
    /// Frames published so far.
    std::uint64_t published() const { return serial_.load(); }

private:
    std::mutex mutex_;
    std::shared_ptr<const FieldFrame> frame_;
    std::atomic<std::uint64_t> serial_{0};
};

}  // namespace golightly::viewport
