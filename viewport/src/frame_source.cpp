#include "frame_source.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace golightly::viewport {

std::string to_string(FieldQuantity q) {
    switch (q) {
    case FieldQuantity::Ex: return "Ex";
    case FieldQuantity::Ey: return "Ey";
    case FieldQuantity::Ez: return "Ez";
    case FieldQuantity::Hx: return "Hx";
    case FieldQuantity::Hy: return "Hy";
    case FieldQuantity::Hz: return "Hz";
    case FieldQuantity::E2: return "|E|^2";
    }
    return "?";
}

FieldQuantity default_quantity(Polarization p) { return p == Polarization::TMz ? FieldQuantity::Ez : FieldQuantity::Hz; }

std::pair<int, int> slice_axes(int normal_axis) {
    if (normal_axis == 0) return {1, 2};
    if (normal_axis == 1) return {0, 2};
    return {0, 1};
}

FrameSlice slice_at(const Scene& scene, int normal_axis, double position_um) {
    FrameSlice s;
    s.normal_axis = std::clamp(normal_axis, 0, 2);
    if (scene.dimensions != 3) return s;
    s.index = scene.grid().nearest_index(s.normal_axis, position_um, 0.0);
    const int n = s.normal_axis == 0 ? scene.nx : s.normal_axis == 1 ? scene.ny : scene.nz;
    s.index = std::clamp<std::int64_t>(s.index, 0, n - 1);
    return s;
}

double slice_position_um(const Scene& scene, const FrameSlice& slice) {
    const int a = std::clamp(slice.normal_axis, 0, 2);
    return double(slice.index - scene.pml_lo[a]) * scene.dx_um;
}

FieldFrame field_frame_geometry(const Engine& engine, const Scene& scene, FieldQuantity q, int max_width,
                                int max_height, const FrameSlice& slice) {
    FieldFrame fr;
    fr.quantity = q;
    int ax = 0, ay = 1;
    if (scene.dimensions == 3) {
        std::tie(ax, ay) = slice_axes(slice.normal_axis);
        fr.three_d = true;
        fr.slice_normal = slice.normal_axis;
        fr.slice_position_um = slice_position_um(scene, slice);
    }
    const int n[3] = {scene.nx, scene.ny, scene.nz};
    const int W = n[ax], H = n[ay];
    const int f = frame_factor(W, H, max_width, max_height);
    fr.factor = f;
    fr.width = (W + f - 1) / f;
    fr.height = (H + f - 1) / f;
    fr.signed_values = q != FieldQuantity::E2;
    fr.x0_um = (-scene.pml_lo[ax] - 0.5) * scene.dx_um;
    fr.y0_um = (-scene.pml_lo[ay] - 0.5) * scene.dx_um;
    fr.width_um = double(fr.width * f) * scene.dx_um;
    fr.height_um = double(fr.height * f) * scene.dx_um;
    fr.step = engine.steps_done();
    fr.time_fs = double(fr.step) * scene.dt_s * 1e15;
    return fr;
}

FieldFrame make_field_frame(Engine& engine, const Scene& scene, FieldQuantity q, int max_width, int max_height,
                            std::vector<double>& scratch, const FrameSlice& slice) {
    FieldFrame fr = field_frame_geometry(engine, scene, q, max_width, max_height, slice);
    fr.values.assign(std::size_t(fr.width) * std::size_t(fr.height), 0.f);
    std::vector<Component> comps;
    if (q == FieldQuantity::E2)
        comps = scene.dimensions == 3 ? std::vector<Component>{Component::Ex, Component::Ey, Component::Ez}
                                      : electric_components(scene.polarization);
    else comps = {Component(int(q))};  // FieldQuantity Ex..Hz has Component's order
    // The engine averages where its fields live (CPU threads in place, CUDA on the device):
    // only width x height floats per component cross to this thread.
    (void)scratch;
    std::vector<double> acc(fr.values.size(), 0.0);
    for (Component c : comps) {
        const FieldSamples s = engine.frames().sample_field(c, max_width, max_height, !fr.signed_values);
        if (s.width != fr.width || s.height != fr.height || s.values.size() != acc.size())
            throw std::logic_error("make_field_frame: the engine's samples do not match the frame size");
        for (std::size_t k = 0; k < acc.size(); ++k) acc[k] += double(s.values[k]);
    }
    float mx = 0;
    for (std::size_t k = 0; k < acc.size(); ++k) {
        const float v = float(acc[k]);
        fr.values[k] = v;
        mx = std::max(mx, std::abs(v));
    }
    fr.max_abs = mx;
    return fr;
}

void MailboxFrameSource::publish(std::shared_ptr<const FieldFrame> frame) {
    std::lock_guard<std::mutex> lock(mutex_);
    frame_ = std::move(frame);
    ++serial_;
}

std::shared_ptr<const FieldFrame> MailboxFrameSource::takeLatest(std::uint64_t& serial) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::uint64_t s = serial_.load();
    if (!frame_ || s == serial) return nullptr;
    serial = s;
    return frame_;
}

void MailboxFrameSource::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    frame_.reset();
}

}  // namespace golightly::viewport
