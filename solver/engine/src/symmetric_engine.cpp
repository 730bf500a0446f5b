// SymmetricEngine (symmetric_engine.hpp): the whole domain's view of a reduced run.
#include "golightly/symmetric_engine.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "../cpu/cpu_common.hpp"
#include "golightly/distributed.hpp"
#include "golightly/grid.hpp"

namespace golightly {

namespace {

double offset_along(Component c, int axis) {
    const Vec3 o = yee_offset(c);
    return axis == 0 ? o.x : axis == 1 ? o.y : o.z;
}

int plane_sign(const MirrorMap& m, int axis) {
    for (const MirrorPlane& p : m.planes)
        if (p.axis == axis) return p.sign;
    return 0;
}

}  // namespace

SymmetricEngine::SymmetricEngine(SceneView full, MirrorMap map, std::shared_ptr<const Scene> reduced,
                                 ReducedMonitors monitors, std::unique_ptr<Engine> inner)
    : full_(std::move(full)), map_(std::move(map)), reduced_(std::move(reduced)), monitors_(std::move(monitors)),
      inner_(std::move(inner)) {
    if (!inner_ || !reduced_ || !full_) throw std::invalid_argument("SymmetricEngine: missing scene or engine");
    if (reduced_->nx != map_.n_half[0] || reduced_->ny != map_.n_half[1] ||
        (reduced_->dimensions == 3 ? reduced_->nz : 1) != map_.n_half[2])
        throw std::invalid_argument("SymmetricEngine: the reduced scene does not match the mirror map");
}

void SymmetricEngine::get_field(Component c, std::vector<double>& out) {
    std::vector<double> half;
    inner_->get_field(c, half);
    const auto& n = map_.n_full;
    out.assign(std::size_t(n[0] * n[1] * n[2]), 0.0);
    std::size_t k = 0;
    for (std::int64_t z = 0; z < n[2]; ++z)
        for (std::int64_t y = 0; y < n[1]; ++y)
            for (std::int64_t x = 0; x < n[0]; ++x, ++k) {
                const MirrorMap::Site s = map_.map(c, {x, y, z});
                if (s.cell >= 0) out[k] = s.factor * half[std::size_t(s.cell)];
            }
}

void SymmetricEngine::set_field(Component c, const std::vector<double>& values) {
    const auto& n = map_.n_full;
    if (values.size() != std::size_t(n[0] * n[1] * n[2]))
        throw std::invalid_argument("set_field: expected the whole domain's cells");
    std::vector<double> half(std::size_t(map_.n_half[0] * map_.n_half[1] * map_.n_half[2]), 0.0);
    std::array<std::int64_t, 3> first{0, 0, 0};
    for (const MirrorPlane& p : map_.planes) first[p.axis] = p.first;
    std::size_t k = 0;
    for (std::int64_t z = first[2]; z < n[2]; ++z)
        for (std::int64_t y = first[1]; y < n[1]; ++y)
            for (std::int64_t x = first[0]; x < n[0]; ++x)
                half[k++] = values[std::size_t((z * n[1] + y) * n[0] + x)];
    inner_->set_field(c, half);
}

std::vector<double> SymmetricEngine::time_samples(int probe) {
    std::vector<double> v = inner_->time_samples(probe);
    if (std::find(monitors_.rms_probes.begin(), monitors_.rms_probes.end(), probe) != monitors_.rms_probes.end())
        for (double& x : v) x = std::sqrt(std::max(0.0, x));
    return v;
}

std::vector<std::complex<double>> SymmetricEngine::dft(int set) {
    const std::vector<std::complex<double>> u = inner_->dft(set);
    if (set < 0 || std::size_t(set) >= monitors_.dft_samples.size()) return u;
    const auto& expand = monitors_.dft_samples[std::size_t(set)];
    const std::size_t nf = full_->dft_sets[std::size_t(set)].frequencies_hz.size();
    std::vector<std::complex<double>> out(expand.size() * nf);
    for (std::size_t k = 0; k < expand.size(); ++k) {
        const std::int64_t e = expand[k];
        if (e == 0) continue;
        const std::size_t from = std::size_t(std::llabs(e) - 1) * nf;
        const double sign = e > 0 ? 1.0 : -1.0;
        for (std::size_t f = 0; f < nf; ++f) out[k * nf + f] = sign * u[from + f];
    }
    return out;
}

bool SymmetricEngine::dft_on_root(const std::vector<int>& sets, const std::vector<std::size_t>& freqs, int root,
                                  std::vector<std::vector<std::complex<double>>>& out) {
    std::vector<std::vector<std::complex<double>>> u;
    out.clear();
    if (!golightly::dft_on_root(*inner_, *reduced_, sets, freqs, u, root)) return false;
    const std::size_t nq = freqs.size();
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const int set = sets[i];
        if (set < 0 || std::size_t(set) >= monitors_.dft_samples.size()) {
            out.push_back(std::move(u[i]));
            continue;
        }
        const auto& expand = monitors_.dft_samples[std::size_t(set)];
        std::vector<std::complex<double>> whole(expand.size() * nq);
        for (std::size_t k = 0; k < expand.size(); ++k) {
            const std::int64_t e = expand[k];
            if (e == 0) continue;
            const std::size_t from = std::size_t(std::llabs(e) - 1) * nq;
            const double sign = e > 0 ? 1.0 : -1.0;
            for (std::size_t q = 0; q < nq; ++q) whole[k * nq + q] = sign * u[i][from + q];
        }
        out.push_back(std::move(whole));
    }
    return true;
}

void SymmetricEngine::set_frame_slice(const FrameSlice& slice) {
    if (slice.normal_axis < 0 || slice.normal_axis > 2)
        throw std::invalid_argument("set_frame_slice: normal_axis must be 0, 1 or 2, got " +
                                    std::to_string(slice.normal_axis));
    slice_ = slice;
    slice_.index = std::clamp<std::int64_t>(slice.index, 0, map_.n_full[std::size_t(slice.normal_axis)] - 1);
    inner_->frames().set_frame_slice(slice_);  // corrected per component in sample_field
}

FieldSamples SymmetricEngine::sample_field(Component c, int max_width, int max_height, bool squared) {
    const bool three = map_.n_full[2] > 1;
    const int nrm = three ? slice_.normal_axis : 2;
    const int u = nrm == 0 ? 1 : 0, v = nrm == 2 ? 1 : 2;
    double sign = 1;
    if (three) {  // the slice of the reduced domain that holds this one (or its image)
        FrameSlice s = slice_;
        int sg = 1;
        const std::int64_t h = map_.map_index(nrm, slice_.index, offset_along(c, nrm),
                                              plane_sign(map_, nrm) ? mirror_parity(c, nrm, plane_sign(map_, nrm)) : 1,
                                              &sg);
        s.index = h < 0 ? 0 : h;
        sign = h < 0 ? 0.0 : double(sg);
        inner_->frames().set_frame_slice(s);
    }
    const std::int64_t W0 = map_.n_full[std::size_t(u)], H0 = map_.n_full[std::size_t(v)];
    const std::int64_t Wh = map_.n_half[std::size_t(u)], Hh = map_.n_half[std::size_t(v)];
    const int mw = std::max(1, int(std::ceil(double(max_width) * double(Wh) / double(W0))));
    const int mh = std::max(1, int(std::ceil(double(max_height) * double(Hh) / double(H0))));
    const FieldSamples in = inner_->frames().sample_field(c, mw, mh, squared);
    FieldSamples out;
    const int f = frame_factor(int(W0), int(H0), max_width, max_height);
    out.factor = f;
    out.width = int((W0 + f - 1) / f);
    out.height = int((H0 + f - 1) / f);
    out.values.assign(std::size_t(out.width) * std::size_t(out.height), 0.f);
    const int pu = plane_sign(map_, u), pv = plane_sign(map_, v);
    const int par_u = pu ? mirror_parity(c, u, pu) : 1, par_v = pv ? mirror_parity(c, v, pv) : 1;
    for (int by = 0; by < out.height; ++by) {
        const std::int64_t jv = std::min<std::int64_t>(std::int64_t(by) * f + f / 2, H0 - 1);
        int sv = 1;
        const std::int64_t hv = map_.map_index(v, jv, offset_along(c, v), par_v, &sv);
        if (hv < 0 || hv >= Hh) continue;
        const int py = std::min<int>(int(hv / in.factor), in.height - 1);
        for (int bx = 0; bx < out.width; ++bx) {
            const std::int64_t iu = std::min<std::int64_t>(std::int64_t(bx) * f + f / 2, W0 - 1);
            int su = 1;
            const std::int64_t hu = map_.map_index(u, iu, offset_along(c, u), par_u, &su);
            if (hu < 0 || hu >= Wh) continue;
            const int px = std::min<int>(int(hu / in.factor), in.width - 1);
            const double s = squared ? (sign != 0 ? 1.0 : 0.0) : sign * su * sv;
            out.values[std::size_t(by) * std::size_t(out.width) + std::size_t(bx)] =
                float(s * in.values[std::size_t(py) * std::size_t(in.width) + std::size_t(px)]);
        }
    }
    return out;
}

Image8 SymmetricEngine::frame(const FrameRequest& req) {
    const FieldSamples s = sample_field(req.component, req.max_width, req.max_height, false);
    return cpu::diverging_frame(s.values, s.width, s.height, req.scale, req.viewport_alpha);
}

void SymmetricEngine::update_materials(SceneView edited) {
    const MirrorMap m = mirror_map(*edited);
    if (m.n_full != map_.n_full || m.n_half != map_.n_half)
        throw std::invalid_argument("live edit: the edited project changes the symmetry planes: restart the run");
    auto reduced = std::make_shared<const Scene>(reduce_by_symmetry(*edited, m));
    inner_->update_materials(std::move(reduced));
    full_ = std::move(edited);
}

}  // namespace golightly
