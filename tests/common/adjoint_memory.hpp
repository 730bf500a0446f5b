// What an adjoint gradient allocates per design site, from the allocations themselves:
// the engine's memory model (scene.hpp engine_state_bytes) of the runs' scene with the
// design applied (adjoint.hpp apply_design: table entries, pole sets, dispersive rows)
// and the design's DFT sets, less that of the compiled scene, plus the two host copies of
// the design's DFT fields (the forward run's, the adjoint run's copied out). The tests
// compare compile.hpp design_dft_bytes with it. Header-only, namespace golightly::test.
#pragma once

#include <cstddef>
#include <vector>

#include "golightly/adjoint.hpp"
#include "golightly/scene.hpp"

namespace golightly::test {

inline std::size_t design_bytes_allocated(const Scene& compiled, const adjoint::DesignRegion& region,
                                          std::size_t wavelengths, Precision precision) {
    Scene d = compiled;
    const adjoint::DesignSites sites = adjoint::map_design(d, region);
    adjoint::apply_design(d, sites, region, std::vector<double>(sites.size(), 0.5));
    // the design's DFT samples (adjoint.cpp design_sets: one set per component; the model
    // counts per sample)
    DftSet set;
    set.component = sites.component.at(0);
    set.frequencies_hz.assign(wavelengths, 2e14);
    for (CellIndex c : sites.cell) set.cell0.push_back(c), set.cell1.push_back(-1), set.w0.push_back(1), set.w1.push_back(0);
    d.dft_sets.push_back(set);
    const std::size_t host = 2 * sites.size() * wavelengths * 2 * sizeof(double);
    return engine_state_bytes(d, precision) - engine_state_bytes(compiled, precision) + host;
}

}  // namespace golightly::test
