// GoLightly CUDA backend, 3D: one step in three calls (subdomain.hpp split steps: the
// distributed engine's halo overlap), on the fused bulk (update_fused over plane ranges) or
// the in-place pair (update_h3 / update_e3 over plane ranges), whichever the engine's bulk
// runs. CudaEngine3D::step_begin / step_interior / step_boundary call begin / interior /
// boundary; the engine counts the step. The shared phases: cuda_step3d.cuh.
//
// Fused: begin = before_bulk_h; interior = update_fused over [lo, nz - hi); boundary = the
// tensor sites' E^n, update_fused of the end planes, flip, after_bulk_e (the poles advance from
// the input set). update_fused reads nothing but its planes and the next one on either side and
// writes only into the other buffer set, so a transfer may fill the `lo` / `hi` end planes of
// the current set and read any other plane during the interior.
// In place: a transfer's source planes must not be rewritten during the interior and E^n must
// be read before it is overwritten: the interior is H over [a, b), E over [e, b) of
// split_step_planes (subdomain.hpp: a = 2 lo, since the neighbour below copies planes
// [lo + 1, 2 lo); e = a + 1, since E of plane a needs H of plane a - 1; b = nz - 2 hi); the
// pole advance and the tensor sites' E^n of the interior's E planes run before it, the
// others' after the transfers (the lists are in cell order). The ends: H over [0, a) and
// [b, nz), then E over [0, e) and [b, nz); then after_bulk_e.
#pragma once

#include <algorithm>
#include <cstdint>

#include "golightly/subdomain.hpp"  // split_step_planes

#include "cuda_step3d.cuh"

namespace golightly::cuda {
namespace {

template <class T> class SplitStep3D {
public:
    SplitStep3D(StepParts3D<T>& p, bool periodic_z) : p_(p), periodic_z_(periodic_z) {}

    void begin() {
        p_.rebind();
        p_.before_bulk_h(p_.at(0));
    }
    /// The planes away from the cut ends; lo, hi: the end planes (set_split_margins).
    void interior(int lo, int hi) {
        if (!p_.bulk.fused()) {
            const SplitPlanes s = planes(lo, hi);
            const std::int64_t plane = plane_cells();
            p_.dispersion.before_e_part(p_.at(0), s.e_begin * plane, s.end * plane, true);
            p_.tensor.before_e_part(p_.stream, s.e_begin * plane, s.end * plane, true);
            p_.bulk.update_h_range(p_.stream, s.h_begin, s.end);
            p_.bulk.update_e_range(p_.stream, s.e_begin, s.end);
            return;
        }
        int a = 0, b = 0;
        fused_range(lo, hi, a, b);
        p_.bulk.update_fused(p_.stream, a, b);
    }
    /// The end planes and everything after the bulk update (the step counter not included).
    void boundary(int lo, int hi) {
        const int nz = p_.bulk.nz();
        if (!p_.bulk.fused()) {
            const SplitPlanes s = planes(lo, hi);
            const std::int64_t plane = plane_cells();
            p_.dispersion.before_e_part(p_.at(0), s.e_begin * plane, s.end * plane, false);
            p_.tensor.before_e_part(p_.stream, s.e_begin * plane, s.end * plane, false);
            p_.bulk.update_h_range(p_.stream, 0, s.h_begin);
            p_.bulk.update_h_range(p_.stream, s.end, nz);
            p_.bulk.update_e_range(p_.stream, 0, s.e_begin);
            p_.bulk.update_e_range(p_.stream, s.end, nz);
            p_.after_bulk_e(p_.at(0), std::nullopt);
            return;
        }
        int a = 0, b = 0;
        fused_range(lo, hi, a, b);
        // E^n of the current set stays until the flip (the bulk writes the other set), so the
        // tensor sites' E^n come here, and the pole advance after the bulk (after_bulk_e, from
        // that set), both after the halo transfers: a halo plane's E^n is then its owner's
        // (before step_begin's transfers it is not).
        p_.tensor.before_e(p_.stream);
        p_.bulk.update_fused(p_.stream, 0, a);
        p_.bulk.update_fused(p_.stream, b, nz);
        p_.bulk.flip();
        p_.rebind();
        p_.after_bulk_e(p_.at(0), p_.bulk.previous_fields());
    }

private:
    SplitPlanes planes(int lo, int hi) const { return split_step_planes(lo, hi, p_.bulk.nz(), periodic_z_); }
    /// The fused interior [a, b) (margins clipped to the grid).
    void fused_range(int lo, int hi, int& a, int& b) const {
        a = std::min(lo, p_.bulk.nz());
        b = std::max(a, p_.bulk.nz() - hi);
    }
    std::int64_t plane_cells() const { return p_.bulk.plane_cells(); }

    StepParts3D<T>& p_;
    bool periodic_z_;
};

}  // namespace
}  // namespace golightly::cuda
