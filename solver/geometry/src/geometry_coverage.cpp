// GoLightly geometry: exact area coverage of outlines and rasters on sample windows.
//
// Outlines: the analytic signed-area accumulation of scanline font rasterizers (as in
// libart / FreeType's "gray" rasterizer / font-rs). In cell coordinates, where sample
// (i, j)'s window is [i, i+1] x [j, j+1], the winding number integrated over a window is
// the sum over edges of  s * integral over the row of clip(i + 1 - u_e(v), 0, 1) dv,
// u_e(v) the edge's abscissa, s = -1 for an upward edge, +1 downward (CCW outlines
// positive). Each edge piece inside one cell [k, k+1] x [j, j+1], with v extent dv and
// mean abscissa u_mid, contributes dv (k + 1 - u_mid) to cell k and dv to every cell
// right of it: deposited as  D[k] += dv (k + 1 - u_mid),  D[k+1] += dv (u_mid - k),
// and a prefix sum along the row yields the coverage. Exact for straight edges up to
// rounding; cost O(cells crossed by edges) + O(cells of the rows touched).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "geometry_internal.hpp"
#include "golightly/image_io.hpp"

namespace golightly {

namespace detail {

double coverage_tolerance_um(double dx_um) { return std::min(1e-5, 1e-4 * dx_um); }

AreaAccumulator::AreaAccumulator(const SampleGrid& grid)
    : grid_(grid), rows_(std::max(grid.ny, 0)), normals_(std::max(grid.ny, 0)) {
    if (!(grid.dx_um > 0) || grid.nx < 0 || grid.ny < 0) throw std::invalid_argument("SampleGrid: bad size");
}

void AreaAccumulator::add_outline(const Outline& outline) {
    const double inv_dx = 1.0 / grid_.dx_um;
    for (const auto& ring : outline) {
        const std::size_t n = ring.size();
        if (n < 2) continue;
        for (std::size_t k = 0; k < n; ++k) {
            const Vec2& a = ring[k];
            const Vec2& b = ring[(k + 1) % n];
            add_edge((a.x - grid_.x0_um) * inv_dx + 0.5, (a.y - grid_.y0_um) * inv_dx + 0.5,
                     (b.x - grid_.x0_um) * inv_dx + 0.5, (b.y - grid_.y0_um) * inv_dx + 0.5);
        }
    }
}

void AreaAccumulator::add_edge(double u0, double v0, double u1, double v1) {
    if (!std::isfinite(u0) || !std::isfinite(u1) || !std::isfinite(v0) || !std::isfinite(v1)) return;
    if (v0 == v1) {
        // No area, but an interface: its normal goes to the cells of row floor(v) it spans.
        const int j = int(std::floor(std::clamp(v0, -1.0, double(grid_.ny))));
        if (j < 0 || j >= grid_.ny || v0 < 0) return;
        const double lo = std::max(std::min(u0, u1), 0.0), hi = std::min(std::max(u0, u1), double(grid_.nx));
        if (!(hi > lo)) return;
        // tangent (u1 - u0, 0): left normal (0, u1 - u0), spread over the cells crossed
        const double s = u1 > u0 ? 1.0 : -1.0;
        // On the boundary between rows j - 1 and j it cuts neither (as in deposit()).
        if (std::abs(v0 - std::round(v0)) < 1e-9) return;  // within rounding of the boundary
        for (int k = int(std::floor(lo)); k < grid_.nx && k < hi; ++k) {
            const double len = std::min(hi, double(k + 1)) - std::max(lo, double(k));
            if (len > 0) normals_[j].push_back({k, 0.0, s * len});
        }
        return;
    }
    // Walk upwards; an upward edge deposits negative area (CCW interior positive).
    double sign = -1.0;
    if (v0 > v1) {
        std::swap(u0, u1);
        std::swap(v0, v1);
        sign = 1.0;
    }
    if (v1 <= 0 || v0 >= grid_.ny) return;
    const double dudv = (u1 - u0) / (v1 - v0);
    // (clamped in floating point first: far-away vertices must not overflow an int)
    const int j_lo = int(std::floor(std::max(v0, 0.0)));
    const int j_hi = int(std::ceil(std::min(v1, double(grid_.ny)))) - 1;
    for (int j = j_lo; j <= j_hi; ++j) {
        const double va = std::max(v0, double(j)), vb = std::min(v1, double(j + 1));
        if (vb <= va) continue;
        const double ua = va == v0 ? u0 : u0 + (va - v0) * dudv;
        const double ub = vb == v1 ? u1 : u0 + (vb - v0) * dudv;
        const double dv = sign * (vb - va);
        // The piece's tangent in the outline's own direction is -sign * (ub - ua, vb - va);
        // grad chi integrates to its left normal (-t_v, t_u) (interior on the left).
        const double tu = -sign * (ub - ua), tv = -sign * (vb - va);
        deposit(j, std::min(ua, ub), std::max(ua, ub), dv, -tv, tu);
    }
}

// Deposits a straight piece within row j spanning abscissae [u_lo, u_hi] and signed v
// extent dv (distributed along u in proportion, the piece being straight).
void AreaAccumulator::deposit(int j, double u_lo, double u_hi, double dv, double gx, double gy) {
    auto& row = rows_[j];
    const int nx = grid_.nx;
    if (u_lo >= nx) return;  // right of the grid: affects no sample
    auto put = [&](int k, double u_mid, double dvp) {
        if (u_mid <= 0 || k < 0) {  // left of the grid: full cover for every sample
            row.emplace_back(0, dvp);
            return;
        }
        if (k >= nx) return;
        row.emplace_back(k, dvp * (k + 1 - u_mid));
        row.emplace_back(k + 1, dvp * (u_mid - k));
        const double phi = dv != 0 ? dvp / dv : 1.0;  // the share of the piece in cell k
        // A piece lying on the boundary between cells k - 1 and k cuts neither, so it gives
        // neither a normal (as the 3D z faces, geometry_3d.cpp: "just inside the cube"):
        // attributing it to the cell on its right made the averaging differ under a mirror
        // of the grid (symmetry.hpp).
        if (std::abs(u_mid - std::round(u_mid)) < 1e-9) return;  // within rounding of the boundary
        normals_[j].push_back({k, phi * gx, phi * gy});
    };
    const double width = u_hi - u_lo;
    // Column indices from clamped abscissae (no int overflow for far-away vertices).
    const double fl_lo = std::floor(std::max(u_lo, -1.0)), fl_hi = std::floor(std::min(u_hi, nx + 1.0));
    int k_lo = int(fl_lo);
    if (width == 0 || fl_hi == fl_lo || (u_hi == fl_hi && fl_hi - 1 == fl_lo)) {
        put(k_lo, 0.5 * (u_lo + u_hi), dv);
        return;
    }
    // Part left of u = 0 lumped into one full-cover deposit.
    double u = u_lo;
    if (u < 0) {
        const double u_end = std::min(u_hi, 0.0);
        row.emplace_back(0, dv * (u_end - u) / width);
        u = u_end;
        k_lo = 0;
        if (u >= u_hi) return;
    }
    const double u_stop = std::min(u_hi, double(nx));  // the part right of nx affects nothing
    for (int k = k_lo; u < u_stop; ++k) {
        const double u_next = std::min(u_stop, double(k + 1));
        if (u_next > u) put(k, 0.5 * (u + u_next), dv * (u_next - u) / width);
        u = u_next;
    }
}

void AreaAccumulator::add_row_normals(int j, double* gx, double* gy) const {
    for (const NormalPiece& p : normals_[j]) {
        gx[p.k] += p.gx;
        gy[p.k] += p.gy;
    }
}

std::pair<int, int> AreaAccumulator::row_coverage(int j, double* out, double* scratch) const {
    const auto& row = rows_[j];
    if (row.empty()) return {0, 0};
    const int nx = grid_.nx;
    int lo = nx + 1, hi = 0;
    for (const auto& [k, d] : row) {
        lo = std::min(lo, k);
        hi = std::max(hi, k);
    }
    std::fill(scratch + lo, scratch + std::min(hi, nx) + 1, 0.0);
    for (const auto& [k, d] : row)
        if (k <= nx) scratch[k] += d;
    double s = 0;
    auto clamp01 = [](double x) {
        x = std::abs(x);
        if (x < 1e-12) return 0.0;
        if (x > 1.0 - 1e-12) return 1.0;
        return x;
    };
    const int last = std::min(hi, nx - 1);
    for (int i = lo; i <= last; ++i) {
        s += scratch[i];
        out[i] = clamp01(s);
    }
    // Right of the last deposit the coverage stays constant.
    const double tail = clamp01(s);
    if (tail == 0.0) return {lo, last + 1};
    for (int i = last + 1; i < nx; ++i) out[i] = tail;
    return {lo, nx};
}

// ---------------------------------------------------------------- union of a layer's shapes

UnionBuilder::UnionBuilder(const SampleGrid& grid) : grid_(grid), rows_(std::max(grid.ny, 0)) {
    if (!(grid.dx_um > 0) || grid.nx < 0 || grid.ny < 0) throw std::invalid_argument("SampleGrid: bad size");
}

void UnionBuilder::add_outline(const Outline& outline, int group) {
    for (const auto& ring : outline) {
        const std::size_t n = ring.size();
        if (n < 2) continue;
        for (std::size_t k = 0; k < n; ++k) add_segment(ring[k], ring[(k + 1) % n], group);
    }
}

void UnionBuilder::add_segment(Vec2 a, Vec2 b, int group) {
    const double inv_dx = 1.0 / grid_.dx_um;
    add_edge((a.x - grid_.x0_um) * inv_dx + 0.5, (a.y - grid_.y0_um) * inv_dx + 0.5, (b.x - grid_.x0_um) * inv_dx + 0.5,
             (b.y - grid_.y0_um) * inv_dx + 0.5, group);
}

void UnionBuilder::append(const UnionBuilder& other, int group_offset) {
    if (other.grid_.nx != grid_.nx || other.grid_.ny != grid_.ny)
        throw std::invalid_argument("UnionBuilder::append: a builder of another grid");
    for (std::size_t j = 0; j < rows_.size(); ++j)
        for (Piece p : other.rows_[j]) {
            p.group += group_offset;
            rows_[j].push_back(p);
        }
    if (!other.empty_) empty_ = false;
    groups_ = std::max(groups_, other.groups_ + group_offset);
}

void UnionBuilder::add_edge(double u0, double v0, double u1, double v1, int group) {
    if (!std::isfinite(u0) || !std::isfinite(u1) || !std::isfinite(v0) || !std::isfinite(v1)) return;
    groups_ = std::max(groups_, group + 1);
    if (v0 == v1) {  // horizontal: kept in row floor(v) for its normal (AreaAccumulator's rule)
        if (v0 < 0 || v0 >= grid_.ny) return;
        rows_[int(std::floor(v0))].push_back({u0, v0, u1, v1, group});
        empty_ = false;
        return;
    }
    const double vlo = std::min(v0, v1), vhi = std::max(v0, v1);
    if (vhi <= 0 || vlo >= grid_.ny) return;
    const double dudv = (u1 - u0) / (v1 - v0);
    const int j_lo = int(std::floor(std::max(vlo, 0.0)));
    const int j_hi = int(std::ceil(std::min(vhi, double(grid_.ny)))) - 1;
    for (int j = j_lo; j <= j_hi; ++j) {
        const double va = std::max(vlo, double(j)), vb = std::min(vhi, double(j + 1));
        if (vb <= va) continue;
        const double ua = va == v0 ? u0 : va == v1 ? u1 : u0 + (va - v0) * dudv;
        const double ub = vb == v0 ? u0 : vb == v1 ? u1 : u0 + (vb - v0) * dudv;
        // keep the edge's direction
        if (v1 > v0) rows_[j].push_back({ua, va, ub, vb, group});
        else rows_[j].push_back({ub, vb, ua, va, group});
        empty_ = false;
    }
}

void UnionBuilder::deposit(AreaAccumulator& acc) const {
    struct Range {
        double lo, hi;
        int group;
    };
    std::vector<Range> ranges;
    for (int j = 0; j < grid_.ny; ++j) {
        const auto& pieces = rows_[j];
        if (pieces.empty()) continue;
        // Do two groups overlap in this row? A group's region within the row lies between
        // its leftmost and rightmost pieces there.
        ranges.clear();
        for (const Piece& p : pieces) {
            const double lo = std::min(p.u0, p.u1), hi = std::max(p.u0, p.u1);
            auto it = std::find_if(ranges.begin(), ranges.end(), [&](const Range& r) { return r.group == p.group; });
            if (it == ranges.end()) ranges.push_back({lo, hi, p.group});
            else it->lo = std::min(it->lo, lo), it->hi = std::max(it->hi, hi);
        }
        bool overlap = false;
        if (ranges.size() > 1) {
            std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
            double reach = ranges[0].hi;
            for (std::size_t k = 1; k < ranges.size() && !overlap; ++k) {
                overlap = ranges[k].lo < reach;
                reach = std::max(reach, ranges[k].hi);
            }
        }
        if (!overlap) {
            for (const Piece& p : pieces) acc.add_edge(p.u0, p.v0, p.u1, p.v1);
        } else {
            deposit_union_row(j, pieces, acc);
        }
    }
}

void UnionBuilder::deposit_union_row(int j, const std::vector<Piece>& pieces, AreaAccumulator& acc) const {
    // Non-horizontal pieces, stored bottom to top with their winding step (crossing a
    // downward edge left to right enters a CCW region: +1).
    struct Up {
        double ulo, vlo, uhi, vhi;
        int delta;
    };
    std::vector<Up> up;
    std::vector<double> events{double(j), double(j + 1)};
    for (const Piece& p : pieces) {
        if (p.v0 == p.v1) {
            // horizontal edges on the row's lower limit keep their normal; inside the row the
            // strips' horizontal sides replace them
            if (p.v0 == double(j)) acc.add_edge(p.u0, p.v0, p.u1, p.v1);
            continue;
        }
        if (p.v0 < p.v1) up.push_back({p.u0, p.v0, p.u1, p.v1, -1});
        else up.push_back({p.u1, p.v1, p.u0, p.v0, +1});
        events.push_back(up.back().vlo);
        events.push_back(up.back().vhi);
    }
    auto u_at = [](const Up& e, double v) {
        if (v == e.vlo) return e.ulo;
        if (v == e.vhi) return e.uhi;
        return e.ulo + (v - e.vlo) * (e.uhi - e.ulo) / (e.vhi - e.vlo);
    };
    // Crossings of two pieces: sweep in u over the pieces' abscissa ranges.
    std::vector<int> order(up.size());
    for (std::size_t k = 0; k < up.size(); ++k) order[k] = int(k);
    auto umin = [&](int k) { return std::min(up[k].ulo, up[k].uhi); };
    auto umax = [&](int k) { return std::max(up[k].ulo, up[k].uhi); };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return umin(a) < umin(b); });
    for (std::size_t a = 0; a < order.size(); ++a) {
        const Up& ea = up[order[a]];
        const double ea_hi = umax(order[a]);
        for (std::size_t b = a + 1; b < order.size() && umin(order[b]) <= ea_hi; ++b) {
            const Up& eb = up[order[b]];
            const double lo = std::max(ea.vlo, eb.vlo), hi = std::min(ea.vhi, eb.vhi);
            if (!(hi > lo)) continue;
            const double d_lo = u_at(ea, lo) - u_at(eb, lo), d_hi = u_at(ea, hi) - u_at(eb, hi);
            if ((d_lo < 0 && d_hi > 0) || (d_lo > 0 && d_hi < 0)) {
                const double v = lo + (hi - lo) * d_lo / (d_lo - d_hi);
                if (v > lo && v < hi) events.push_back(v);
            }
        }
    }
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    struct Active {
        double ua, ub, key;
        int delta;
    };
    std::vector<Active> act;
    for (std::size_t s = 0; s + 1 < events.size(); ++s) {
        const double va = events[s], vb = events[s + 1];
        if (va < double(j) || vb > double(j + 1) || !(vb > va)) continue;
        act.clear();
        for (const Up& e : up)
            if (e.vlo <= va && e.vhi >= vb) {
                const double ua = u_at(e, va), ub = u_at(e, vb);
                act.push_back({ua, ub, ua + ub, e.delta});
            }
        if (act.empty()) continue;
        std::sort(act.begin(), act.end(), [](const Active& a, const Active& b) { return a.key < b.key; });
        int w = 0;
        const Active* left = nullptr;
        for (const Active& e : act) {
            const int w_next = w + e.delta;
            if (w == 0 && w_next != 0) left = &e;
            if (w != 0 && w_next == 0 && left) {
                // trapezoid between left and e, CCW
                acc.add_edge(left->ub, vb, left->ua, va);  // left side, downward
                acc.add_edge(e.ua, va, e.ub, vb);          // right side, upward
                if (va > double(j)) acc.add_edge(left->ua, va, e.ua, va);  // bottom, +u
                if (vb < double(j + 1)) acc.add_edge(e.ub, vb, left->ub, vb);  // top, -u
                left = nullptr;
            }
            w = w_next;
        }
    }
}

// ---------------------------------------------------------------- rasters

RasterResampler::RasterResampler(const Shape& raster, const SampleGrid& grid) : grid_(grid) {
    const std::vector<float> top_down = decode_raster_coverage(raster);
    width_px_ = raster.width_px;
    height_px_ = raster.height_px;
    pixel_ = raster.pixel_size;
    origin_x_ = raster.origin.x;
    origin_y_ = raster.origin.y;
    if (!(pixel_ > 0)) throw std::runtime_error("raster pixel_size must be > 0");
    coverage_bottom_up_.resize(top_down.size());
    for (int r = 0; r < height_px_; ++r)
        std::copy_n(top_down.data() + std::size_t(height_px_ - 1 - r) * width_px_, width_px_,
                    coverage_bottom_up_.data() + std::size_t(r) * width_px_);
    const double dx = grid.dx_um;
    // Sample windows overlapping the raster: window i spans x0 + (i - 1/2) dx .. + dx.
    // (clamped in floating point before the int conversion)
    auto first_window = [&](double lo, double x0, int n) {
        return int(std::clamp(std::floor((lo - x0) / dx + 0.5), 0.0, double(n)));
    };
    auto end_window = [&](double hi, double x0, int n) {
        return int(std::clamp(std::ceil((hi - x0) / dx + 0.5), 0.0, double(n)));
    };
    i0_ = first_window(origin_x_, grid.x0_um, grid.nx);
    i1_ = std::max(i0_, end_window(origin_x_ + width_px_ * pixel_, grid.x0_um, grid.nx));
    j0_ = first_window(origin_y_, grid.y0_um, grid.ny);
    j1_ = std::max(j0_, end_window(origin_y_ + height_px_ * pixel_, grid.y0_um, grid.ny));
    x_start_.push_back(0);
    for (int i = i0_; i < i1_; ++i) {
        const double wlo = grid.x0_um + (i - 0.5) * dx, whi = wlo + dx;
        const int p_lo = int(std::clamp(std::floor((wlo - origin_x_) / pixel_), 0.0, double(width_px_)));
        const int p_hi = int(std::clamp(std::floor((whi - origin_x_) / pixel_), -1.0, double(width_px_ - 1)));
        for (int p = p_lo; p <= p_hi; ++p) {
            const double plo = origin_x_ + p * pixel_, phi = plo + pixel_;
            const double overlap = std::min(whi, phi) - std::max(wlo, plo);
            if (overlap > 0) {
                x_pixel_.push_back(p);
                x_weight_.push_back(overlap / dx);
            }
        }
        x_start_.push_back(int(x_pixel_.size()));
    }
}

std::pair<int, int> RasterResampler::add_row(int j, double* out) const {
    if (j < j0_ || j >= j1_ || i0_ >= i1_) return {0, 0};
    const double dx = grid_.dx_um;
    const double wlo = grid_.y0_um + (j - 0.5) * dx, whi = wlo + dx;
    const int r_lo = int(std::clamp(std::floor((wlo - origin_y_) / pixel_), 0.0, double(height_px_)));
    const int r_hi = int(std::clamp(std::floor((whi - origin_y_) / pixel_), -1.0, double(height_px_ - 1)));
    for (int r = r_lo; r <= r_hi; ++r) {
        const double plo = origin_y_ + r * pixel_, phi = plo + pixel_;
        const double wy = (std::min(whi, phi) - std::max(wlo, plo)) / dx;
        if (!(wy > 0)) continue;
        const float* c = coverage_bottom_up_.data() + std::size_t(r) * width_px_;
        for (int i = i0_; i < i1_; ++i) {
            double s = 0;
            for (int k = x_start_[i - i0_]; k < x_start_[i - i0_ + 1]; ++k) s += x_weight_[k] * c[x_pixel_[k]];
            out[i] += wy * s;
        }
    }
    return {i0_, i1_};
}

}  // namespace detail

std::vector<double> outline_coverage(const std::vector<Outline>& outlines, const SampleGrid& grid) {
    detail::AreaAccumulator acc(grid);
    for (const auto& o : outlines) acc.add_outline(o);
    std::vector<double> cov(std::size_t(grid.nx) * grid.ny, 0.0);
    std::vector<double> scratch(grid.nx + 2);
    for (int j = 0; j < grid.ny; ++j) acc.row_coverage(j, cov.data() + std::size_t(j) * grid.nx, scratch.data());
    return cov;
}

std::vector<double> raster_coverage(const Shape& raster, const SampleGrid& grid) {
    detail::RasterResampler rs(raster, grid);
    std::vector<double> cov(std::size_t(grid.nx) * grid.ny, 0.0);
    for (int j = rs.j_begin(); j < rs.j_end(); ++j) {
        double* row = cov.data() + std::size_t(j) * grid.nx;
        const auto [lo, hi] = rs.add_row(j, row);
        for (int i = lo; i < hi; ++i) row[i] = std::clamp(row[i], 0.0, 1.0);
    }
    return cov;
}

std::vector<float> decode_raster_coverage(const Shape& raster) {
    if (raster.type != ShapeType::Raster) throw std::runtime_error("decode_raster_coverage: not a raster shape");
    const Image8 img = decode_png_gray(base64_decode(raster.png_base64));
    if (img.width != raster.width_px || img.height != raster.height_px)
        throw std::runtime_error("raster PNG is " + std::to_string(img.width) + " x " + std::to_string(img.height) +
                                 " pixels, the shape says " + std::to_string(raster.width_px) + " x " +
                                 std::to_string(raster.height_px));
    std::vector<float> c(img.pixels.size());
    for (std::size_t k = 0; k < c.size(); ++k) c[k] = float(img.pixels[k]) / 255.0f;
    return c;
}

}  // namespace golightly
