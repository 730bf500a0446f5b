// The imageruler measure of a filtered density's level set on a common grid (tests of the
// minimum length scale at several pixel sizes).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "golightly/design_density.hpp"

namespace golightly::test {

/// The imageruler length scales (design_density.hpp measure_length_scale) of the level set
/// rho~ >= eta of a filtered density (n x n pixels of dx_um, x fastest; smooth on the filter's
/// scale) bilinearly interpolated onto pixels of fine_dx_um over the same square (the edge
/// pixels continued outward): the design at beta = infinity measured on a common grid,
/// whatever its own pixels, since the measure's allowances (its edge and feasibility-gap
/// rules) are counted in pixels.
inline design::MeasuredLengthScale measure_resampled(const std::vector<double>& filtered, int n, double dx_um,
                                                     double fine_dx_um, double eta) {
    const int nf = int(std::lround(n * dx_um / fine_dx_um));
    design::DensityGrid fg;
    fg.nx = fg.ny = nf;
    fg.dx_um = fine_dx_um;
    fg.rho.resize(std::size_t(nf) * nf);
    auto at = [&](int i, int j) {
        return filtered[std::size_t(std::clamp(j, 0, n - 1)) * n + std::size_t(std::clamp(i, 0, n - 1))];
    };
    for (int j = 0; j < nf; ++j)
        for (int i = 0; i < nf; ++i) {
            const double u = (i + 0.5) * fine_dx_um / dx_um - 0.5, v = (j + 0.5) * fine_dx_um / dx_um - 0.5;
            const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
            const double a = u - i0, c = v - j0;
            const double val = (1 - a) * (1 - c) * at(i0, j0) + a * (1 - c) * at(i0 + 1, j0) +
                               (1 - a) * c * at(i0, j0 + 1) + a * c * at(i0 + 1, j0 + 1);
            fg.rho[std::size_t(j) * nf + i] = val >= eta ? 1.0 : 0.0;
        }
    return design::measure_length_scale(fg);
}

}  // namespace golightly::test
