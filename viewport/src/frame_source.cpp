#include "frame_source.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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

FieldFrame make_field_frame(Engine& engine, const Scene& scene, FieldQuantity q, int max_width, int max_height,
                            std::vector<double>& scratch) {
    const int nx = scene.nx, ny = scene.ny;
    FieldFrame fr;
    fr.quantity = q;
    const int f = std::max({1, (nx + std::max(1, max_width) - 1) / std::max(1, max_width),
                            (ny + std::max(1, max_height) - 1) / std::max(1, max_height)});
    fr.factor = f;
    fr.width = (nx + f - 1) / f;
    fr.height = (ny + f - 1) / f;
    fr.values.assign(std::size_t(fr.width) * std::size_t(fr.height), 0.f);
    std::vector<Component> comps;
    if (q == FieldQuantity::E2) {
        comps = electric_components(scene.polarization);
        fr.signed_values = false;
    } else {
        comps = {Component(int(q))};  // FieldQuantity Ex..Hz has Component's order
    }
    std::vector<double> acc(fr.values.size(), 0.0);
    for (Component c : comps) {
        engine.get_field(c, scratch);
        for (int j = 0; j < ny; ++j) {
            const double* row = scratch.data() + std::size_t(j) * std::size_t(nx);
            double* out = acc.data() + std::size_t(j / f) * std::size_t(fr.width);
            if (fr.signed_values)
                for (int i = 0; i < nx; ++i) out[i / f] += row[i];
            else
                for (int i = 0; i < nx; ++i) out[i / f] += row[i] * row[i];
        }
    }
    float mx = 0;
    for (int by = 0; by < fr.height; ++by)
        for (int bx = 0; bx < fr.width; ++bx) {
            const int cw = std::min(nx, bx * f + f) - bx * f, ch = std::min(ny, by * f + f) - by * f;
            const std::size_t k = std::size_t(by) * std::size_t(fr.width) + std::size_t(bx);
            const float v = float(acc[k] / double(cw * ch));
            fr.values[k] = v;
            mx = std::max(mx, std::abs(v));
        }
    fr.max_abs = mx;
    // Cell (i, j) spans [i - pml_lo - 1/2, i - pml_lo + 1/2] dx (as the editor's structure preview).
    fr.x0_um = (-scene.pml_lo[0] - 0.5) * scene.dx_um;
    fr.y0_um = (-scene.pml_lo[1] - 0.5) * scene.dx_um;
    fr.width_um = double(fr.width * f) * scene.dx_um;
    fr.height_um = double(fr.height * f) * scene.dx_um;
    fr.step = engine.steps_done();
    fr.time_fs = double(fr.step) * scene.dt_s * 1e15;
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
