// GoLightly engines (engine.hpp, frame_source.hpp, subdomain.hpp): the parts every backend shares.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"

namespace golightly {

int frame_factor(int nx, int ny, int max_width, int max_height) {
    const int mw = std::max(1, max_width), mh = std::max(1, max_height);
    return std::max({1, (nx + mw - 1) / mw, (ny + mh - 1) / mh});
}

// Engines without a traffic model (test doubles) say so.
double Engine::bytes_per_cell_update() const {
    throw std::logic_error("Engine::bytes_per_cell_update: no traffic model in the " + backend() + " engine");
}

// Frame sources that do not sample their fields (test doubles) say so.
FieldSamples FrameSource::sample_field(Component, int, int, bool) {
    throw std::logic_error("FrameSource::sample_field: not implemented by this engine");
}

// Engines that do not split their steps never get these calls from the distributed engine
// (it splits only when every subdomain's engine supports it); a call is a programming error.
void SubdomainAccess::step_begin() {
    throw std::logic_error("SubdomainAccess::step_begin: this engine does not split its steps");
}
void SubdomainAccess::step_interior() {
    throw std::logic_error("SubdomainAccess::step_interior: this engine does not split its steps");
}
void SubdomainAccess::step_boundary() {
    throw std::logic_error("SubdomainAccess::step_boundary: this engine does not split its steps");
}

void SubdomainAccess::read_planes(int array, std::int64_t first, std::int64_t planes, std::vector<double>& out) {
    const FieldStorage fs = field_storage();
    const void* base = array >= 0 && array < FieldStorage::kArrays ? fs.field[array] : nullptr;
    if (!base)
        throw std::invalid_argument(std::string("read_planes: the engine has no ") +
                                    (array >= 0 && array < FieldStorage::kArrays ? component_name(Component(array % 6))
                                                                                 : "such") +
                                    (array >= 6 ? " imaginary-copy" : "") + " array");
    const int slow = fs.n[2] > 1 ? 2 : 1;  // z in 3D, y in 2D
    const std::int64_t plane = fs.n[0] * (slow == 2 ? fs.n[1] : 1);
    if (first < 0 || planes < 0 || first + planes > fs.n[slow])
        throw std::invalid_argument("read_planes: planes [" + std::to_string(first) + ", " +
                                    std::to_string(first + planes) + ") outside the grid's " +
                                    std::to_string(fs.n[slow]));
    const std::size_t count = std::size_t(planes * plane), eb = std::size_t(fs.element_bytes);
    std::vector<unsigned char> raw(count * eb);
    const auto* src = static_cast<const unsigned char*>(base) + std::size_t(first * plane) * eb;
    if (fs.cuda_device < 0)
        std::memcpy(raw.data(), src, raw.size());
    else
        cuda_copy_to_host(raw.data(), src, raw.size(), fs.cuda_device, fs.cuda_stream);
    out.resize(count);
    if (eb == 4) {
        const float* f = reinterpret_cast<const float*>(raw.data());
        for (std::size_t k = 0; k < count; ++k) out[k] = f[k];
    } else {
        const double* d = reinterpret_cast<const double*>(raw.data());
        for (std::size_t k = 0; k < count; ++k) out[k] = d[k];
    }
}

}  // namespace golightly

namespace golightly {

SplitPlanes split_step_planes(int lo, int hi, int n, bool periodic) {
    if (lo < 0 || hi < 0)
        throw std::invalid_argument("split_step_planes: halo margins must be >= 0, got " + std::to_string(lo) +
                                    " and " + std::to_string(hi));
    SplitPlanes p;
    if (n <= 0) return p;
    if (lo == 0 && hi == 0) {  // no halos: the whole axis is interior
        p.end = n;
        return p;
    }
    int a = 2 * lo, b = n - 2 * hi;
    if (periodic) a = std::max(a, 1), b = std::min(b, n - 1);
    a = std::min(a, n);
    b = std::max(a, b);
    p.h_begin = a;
    p.e_begin = a > 0 ? std::min(a + 1, b) : a;
    p.end = b;
    return p;
}

}  // namespace golightly
