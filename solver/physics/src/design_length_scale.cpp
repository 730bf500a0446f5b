// GoLightly design densities (design_density.hpp): the length scales of a binarized design,
// measured by morphology (opening and closing with a disc, and the brush length scale of the
// imageruler method); the filters, projections, constraints and contours are in
// design_density.cpp.
#include "golightly/design_density.hpp"
#include "design_density_internal.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace golightly::design {

namespace {

/// The cell offsets of a disc (ball) of diameter n cells on the active axes: centered on a
/// cell center for odd n, on the cell corner at +1/2 for even n.
std::vector<std::array<int, 3>> disc(const DensityGrid& g, int n) {
    const double c = n % 2 ? 0.0 : 0.5;
    const double r2 = 0.25 * n * n;
    const int lo = -(n / 2) - 1, hi = n / 2 + 1;
    std::vector<std::array<int, 3>> out;
    const int ai = g.nx > 1, aj = g.ny > 1, ak = g.nz > 1;
    for (int dk = ak ? lo : 0; dk <= (ak ? hi : 0); ++dk)
        for (int dj = aj ? lo : 0; dj <= (aj ? hi : 0); ++dj)
            for (int di = ai ? lo : 0; di <= (ai ? hi : 0); ++di) {
                const double x = ai ? di - c : 0, y = aj ? dj - c : 0, z = ak ? dk - c : 0;
                if (x * x + y * y + z * z <= r2 + 1e-9) out.push_back({di, dj, dk});
            }
    return out;
}

using Mask = std::vector<unsigned char>;

/// A disc as its rows along x: for each (dj, dk), the offsets di in [lo, hi] (a disc's rows
/// are intervals).
struct DiscRow {
    int dj, dk, lo, hi;
};

std::vector<DiscRow> disc_rows(const std::vector<std::array<int, 3>>& b) {
    std::vector<DiscRow> rows;
    for (const auto& o : b) {
        auto it = std::find_if(rows.begin(), rows.end(), [&](const DiscRow& r) { return r.dj == o[1] && r.dk == o[2]; });
        if (it == rows.end())
            rows.push_back({o[1], o[2], o[0], o[0]});
        else {
            it->lo = std::min(it->lo, o[0]);
            it->hi = std::max(it->hi, o[0]);
        }
    }
    return rows;
}

/// Erosion (all of the disc's cells set) or dilation (any set) of `a` by the disc `rows`,
/// reading outside the grid the nearest edge cell: erosion out[p] = AND_b a[clamp(p + b)],
/// dilation out[p] = OR_b a[clamp(p - b)], so that dilation(erosion(a)) is the opening and
/// erosion(dilation(a)) the closing. Each disc row is one interval along x, counted with
/// the row's prefix sums (clamping maps an interval onto the interval of its clamped ends):
/// cost cells x disc rows.
Mask morph(const DensityGrid& g, const Mask& a, const std::vector<DiscRow>& rows, bool erode) {
    const int nx = g.nx, ny = g.ny, nz = g.nz;
    std::vector<int> sums(static_cast<std::size_t>(nx + 1) * ny * nz);
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j) {
            const std::size_t row = static_cast<std::size_t>(k) * ny + j;
            int* s = &sums[row * (nx + 1)];
            s[0] = 0;
            for (int i = 0; i < nx; ++i) s[i + 1] = s[i] + a[row * nx + i];
        }
    Mask out(a.size());
    const int sg = erode ? 1 : -1;
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                bool v = erode;
                for (const DiscRow& r : rows) {
                    const std::size_t row =
                        static_cast<std::size_t>(clamp_index(k + sg * r.dk, nz)) * ny + clamp_index(j + sg * r.dj, ny);
                    const int lo = clamp_index(erode ? i + r.lo : i - r.hi, nx);
                    const int hi = clamp_index(erode ? i + r.hi : i - r.lo, nx);
                    const int* s = &sums[row * (nx + 1)];
                    const int count = s[hi + 1] - s[lo];
                    if (erode && count != hi - lo + 1) {
                        v = false;
                        break;
                    }
                    if (!erode && count > 0) {
                        v = true;
                        break;
                    }
                }
                out[(static_cast<std::size_t>(k) * ny + j) * nx + i] = v;
            }
    return out;
}

Mask binarize(const DensityGrid& g) {
    Mask m(g.size());
    for (std::size_t p = 0; p < m.size(); ++p) m[p] = g.rho[p] >= 0.5;
    return m;
}

/// The opening (solid) or closing (void) of `a` with the disc of n cells. The operations run on the grid padded by the disc's reach and filled by edge
/// replication, so that the second operation reads the first's exact result on the
/// continued design (not a clamped copy of the in-grid one) wherever it needs it.
Mask open_or_close(const DensityGrid& g, const Mask& a, int n, bool solid) {
    const auto b = disc_rows(disc(g, n));
    const int pad = n / 2 + 1;
    const int pi = g.nx > 1 ? pad : 0, pj = g.ny > 1 ? pad : 0, pk = g.nz > 1 ? pad : 0;
    DensityGrid p;  // the padded grid (its rho is not used)
    p.nx = g.nx + 2 * pi;
    p.ny = g.ny + 2 * pj;
    p.nz = g.nz + 2 * pk;
    p.dx_um = g.dx_um;
    Mask ap(p.size());
    for (int k = 0; k < p.nz; ++k)
        for (int j = 0; j < p.ny; ++j)
            for (int i = 0; i < p.nx; ++i)
                ap[(static_cast<std::size_t>(k) * p.ny + j) * p.nx + i] =
                    a[(static_cast<std::size_t>(clamp_index(k - pk, g.nz)) * g.ny + clamp_index(j - pj, g.ny)) * g.nx +
                      clamp_index(i - pi, g.nx)];
    const Mask r = solid ? morph(p, morph(p, ap, b, true), b, false) : morph(p, morph(p, ap, b, false), b, true);
    Mask out(a.size());
    for (int k = 0; k < g.nz; ++k)
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i)
                out[(static_cast<std::size_t>(k) * g.ny + j) * g.nx + i] =
                    r[(static_cast<std::size_t>(k + pk) * p.ny + j + pj) * p.nx + i + pi];
    return out;
}

bool passes_cells(const DensityGrid& g, const Mask& a, int n, bool solid) {
    return open_or_close(g, a, n, solid) == a;
}

int cells_of(const DensityGrid& g, double length_um) {
    validate(g);
    if (!(length_um > 0) || !std::isfinite(length_um))
        throw std::invalid_argument(field("length scale (um)") + " must be positive and finite, got " +
                                    std::to_string(length_um));
    return std::max(1, static_cast<int>(std::lround(length_um / g.dx_um)));
}

double minimum_feature(const DensityGrid& g, bool solid, double search_up_to_um) {
    validate(g);
    if (!(search_up_to_um > 0))
        throw std::invalid_argument(field("minimum feature search limit (um)") + " must be positive, got " +
                                    std::to_string(search_up_to_um));
    const Mask a = binarize(g);
    const bool present = std::find(a.begin(), a.end(), solid ? 1 : 0) != a.end();
    const bool other = std::find(a.begin(), a.end(), solid ? 0 : 1) != a.end();
    if (!present || !other) return std::numeric_limits<double>::infinity();  // nothing to erode
    int largest = std::max({g.nx, g.ny, g.nz}) + 1;
    if (std::isfinite(search_up_to_um))
        largest = std::min(largest, std::max(1, static_cast<int>(std::floor(search_up_to_um / g.dx_um + 1e-9))));
    for (int n = 2; n <= largest; ++n)
        if (!passes_cells(g, a, n, solid)) return (n - 1) * g.dx_um;
    return std::numeric_limits<double>::infinity();
}

}  // namespace

bool solid_passes_length_scale(const DensityGrid& grid, double length_um) {
    const int n = cells_of(grid, length_um);
    return passes_cells(grid, binarize(grid), n, true);
}

bool void_passes_length_scale(const DensityGrid& grid, double length_um) {
    const int n = cells_of(grid, length_um);
    return passes_cells(grid, binarize(grid), n, false);
}

double minimum_solid_feature_um(const DensityGrid& grid, double search_up_to_um) {
    return minimum_feature(grid, true, search_up_to_um);
}

double minimum_void_feature_um(const DensityGrid& grid, double search_up_to_um) {
    return minimum_feature(grid, false, search_up_to_um);
}

namespace {

/// A 2D boolean image, row-major with x fastest: at(i, j) = v[j * nx + i].
struct Image {
    int nx = 0, ny = 0;
    std::vector<unsigned char> v;
    unsigned char at(int i, int j) const { return v[static_cast<std::size_t>(j) * nx + i]; }
    unsigned char& at(int i, int j) { return v[static_cast<std::size_t>(j) * nx + i]; }
};

/// `img` padded by `pad` cells on every side, with `fill` (0 or 1) or, for fill < 0, the
/// nearest edge cell.
Image padded(const Image& img, int pad, int fill) {
    Image p{img.nx + 2 * pad, img.ny + 2 * pad, {}};
    p.v.resize(static_cast<std::size_t>(p.nx) * p.ny);
    for (int j = 0; j < p.ny; ++j)
        for (int i = 0; i < p.nx; ++i) {
            const int si = i - pad, sj = j - pad;
            const bool inside = si >= 0 && si < img.nx && sj >= 0 && sj < img.ny;
            p.at(i, j) = inside ? img.at(si, sj)
                                : fill >= 0 ? static_cast<unsigned char>(fill)
                                            : img.at(clamp_index(si, img.nx), clamp_index(sj, img.ny));
        }
    return p;
}

Image cropped(const Image& p, int pad, int nx, int ny) {
    Image c{nx, ny, std::vector<unsigned char>(static_cast<std::size_t>(nx) * ny)};
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) c.at(i, j) = p.at(i + pad, j + pad);
    return c;
}

/// The structuring element as offsets (di, dj) from its placement's corner.
using Kernel = std::vector<std::array<int, 2>>;

/// The opening of `img` by `k` (the union of the placements of k that lie inside the
/// solid), on `img` as given (no padding: callers pad). Placements reaching outside the
/// image are not considered.
Image opening_of(const Image& img, const Kernel& k) {
    int w = 0, h = 0;
    for (const auto& o : k) w = std::max(w, o[0] + 1), h = std::max(h, o[1] + 1);
    Image out{img.nx, img.ny, std::vector<unsigned char>(img.v.size(), 0)};
    // row prefix sums: a kernel row's cells are counted as intervals
    std::vector<int> sums(static_cast<std::size_t>(img.nx + 1) * img.ny, 0);
    for (int j = 0; j < img.ny; ++j)
        for (int i = 0; i < img.nx; ++i)
            sums[static_cast<std::size_t>(j) * (img.nx + 1) + i + 1] = sums[static_cast<std::size_t>(j) * (img.nx + 1) + i] + img.at(i, j);
    struct Run {
        int dj, lo, hi;
    };
    std::vector<Run> runs;
    for (const auto& o : k) {
        bool merged = false;
        for (Run& r : runs)
            if (r.dj == o[1] && (o[0] == r.hi + 1 || o[0] == r.lo - 1)) {
                r.lo = std::min(r.lo, o[0]), r.hi = std::max(r.hi, o[0]);
                merged = true;
                break;
            }
        if (!merged) runs.push_back({o[1], o[0], o[0]});
    }
    for (int tj = 0; tj + h <= img.ny; ++tj)
        for (int ti = 0; ti + w <= img.nx; ++ti) {
            bool fits = true;
            for (const Run& r : runs) {
                const int* s = &sums[static_cast<std::size_t>(tj + r.dj) * (img.nx + 1)];
                if (s[ti + r.hi + 1] - s[ti + r.lo] != r.hi - r.lo + 1) {
                    fits = false;
                    break;
                }
            }
            if (fits)
                for (const auto& o : k) out.at(ti + o[0], tj + o[1]) = 1;
        }
    return out;
}

/// The brush of diameter n pixels of Chen et al. 2024 (imageruler): the n x n pixels whose
/// centers lie strictly within n / 2 of the square's center, for n > 2 opened by the
/// 3-pixel plus (so that the brush itself can be drawn with the smallest round brush).
Kernel brush(int n) {
    Image k{n, n, std::vector<unsigned char>(static_cast<std::size_t>(n) * n, 0)};
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const double x = i - 0.5 * n + 0.5, y = j - 0.5 * n + 0.5;
            k.at(i, j) = x * x + y * y < 0.25 * n * n;
        }
    if (n > 2) {
        const Kernel plus = {{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}};
        k = cropped(opening_of(padded(k, 3, 0), plus), 3, n, n);
    }
    Kernel out;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            if (k.at(i, j)) out.push_back({i, j});
    return out;
}

/// Pixels whose violations are not counted (imageruler's "large feature edges, strict"):
/// solid pixels on an edge of the solid (a side with three void neighbours, or a diagonal
/// corner with its three neighbours on that side void) that are within the 5-pixel plus of
/// an interior pixel (one whose 3 x 3 neighbourhood is solid), i.e. the pixel-scale steps
/// of a digitized boundary of a large feature, not small features.
Image ignored_edges(const Image& x) {
    const Image e = padded(x, 2, -1);  // edge replication, as imageruler's neighbourhoods
    auto solid = [&](int i, int j) { return e.at(i + 2, j + 2) != 0; };
    Image interior{x.nx, x.ny, std::vector<unsigned char>(x.v.size(), 0)};
    for (int j = 0; j < x.ny; ++j)
        for (int i = 0; i < x.nx; ++i) {
            bool all = true;
            for (int dj = -1; dj <= 1 && all; ++dj)
                for (int di = -1; di <= 1 && all; ++di) all = solid(i + di, j + dj);
            interior.at(i, j) = all;
        }
    const Image ip = padded(interior, 2, -1);
    Image out{x.nx, x.ny, std::vector<unsigned char>(x.v.size(), 0)};
    for (int j = 0; j < x.ny; ++j)
        for (int i = 0; i < x.nx; ++i) {
            if (!x.at(i, j) || interior.at(i, j)) continue;
            bool near_interior = false;  // the 5 x 5 plus (the square without its corners)
            for (int dj = -2; dj <= 2 && !near_interior; ++dj)
                for (int di = -2; di <= 2 && !near_interior; ++di)
                    if (std::abs(di) + std::abs(dj) < 4 && !(std::abs(di) == 2 && std::abs(dj) == 2))
                        near_interior = ip.at(i + di + 2, j + dj + 2) != 0;
            if (!near_interior) continue;
            auto v = [&](int di, int dj) { return !solid(i + di, j + dj); };
            const bool edge = (v(-1, -1) && v(0, -1) && v(1, -1)) || (v(-1, 1) && v(0, 1) && v(1, 1)) ||
                              (v(-1, -1) && v(-1, 0) && v(-1, 1)) || (v(1, -1) && v(1, 0) && v(1, 1)) ||
                              (v(0, -1) && v(1, -1) && v(1, 0)) || (v(0, -1) && v(-1, -1) && v(-1, 0)) ||
                              (v(0, 1) && v(1, 1) && v(1, 0)) || (v(0, 1) && v(-1, 1) && v(-1, 0));
            out.at(i, j) = edge;
        }
    return out;
}

/// The largest brush diameter (pixels) that draws the solid of `x`, by the method of Chen
/// et al. 2024 (see measure_length_scale).
int brush_length_scale(const Image& x) {
    constexpr int gap = 10;  // feasibility gap allowance: a violation must persist up to n + 9
    const Image ignored = ignored_edges(x);
    auto feasible = [&](int n) {
        std::vector<unsigned char> violated(x.v.size(), 1);
        for (int m = n; m < n + gap; ++m) {
            const Image o = cropped(opening_of(padded(x, m, 1), brush(m)), m, x.nx, x.ny);
            bool any = false;
            for (std::size_t p = 0; p < x.v.size(); ++p) {
                violated[p] = violated[p] && x.v[p] && !o.v[p] && !ignored.v[p];
                any = any || violated[p];
            }
            if (!any) return true;
        }
        return false;
    };
    // the search for the largest feasible n of a nearly monotonic test: doubling from below,
    // each step trying `gap` candidates (imageruler's maximum_true_arg)
    int lo = 1, hi = std::max(x.nx, x.ny), best = 0;
    while (lo <= hi) {
        const int start = std::min(lo * 2, hi), stop = std::min(start + gap, hi + 1);
        int found = 0;
        for (int n = start; n < stop && !found; ++n)
            if (feasible(n)) found = n;
        if (found) {
            lo = found + 1;
            best = std::max(best, found);
        } else {
            hi = start - 1;
        }
    }
    return best;
}

/// 1D runs: the shortest interior run of each phase (the first and last runs continue
/// beyond the line and are not counted).
std::pair<int, int> run_length_scale(const std::vector<unsigned char>& line) {
    std::vector<std::pair<unsigned char, int>> runs;
    for (unsigned char c : line)
        if (!runs.empty() && runs.back().first == c) ++runs.back().second;
        else runs.push_back({c, 1});
    const int n = static_cast<int>(line.size());
    int solid = n, voids = n;
    for (std::size_t r = 1; r + 1 < runs.size(); ++r)
        (runs[r].first ? solid : voids) = std::min(runs[r].first ? solid : voids, runs[r].second);
    return {solid, voids};
}

}  // namespace

MeasuredLengthScale measure_length_scale(const DensityGrid& grid) {
    validate(grid);
    if (grid.nz > 1)
        throw std::invalid_argument(field("length scale measurement") + ": 2D designs only (nz = 1), got nz = " +
                                    std::to_string(grid.nz));
    const Mask m = binarize(grid);
    MeasuredLengthScale out;
    if (grid.nx == 1 || grid.ny == 1) {
        const auto [s, v] = run_length_scale(m);
        out.solid_um = s * grid.dx_um, out.void_um = v * grid.dx_um;
        return out;
    }
    Image x{grid.nx, grid.ny, m};
    Image y = x;
    for (auto& c : y.v) c = !c;
    out.solid_um = brush_length_scale(x) * grid.dx_um;
    out.void_um = brush_length_scale(y) * grid.dx_um;
    return out;
}

double minimum_feature_um(const DensityGrid& grid, double search_up_to_um) {
    return std::min(minimum_feature(grid, true, search_up_to_um), minimum_feature(grid, false, search_up_to_um));
}

}  // namespace golightly::design
