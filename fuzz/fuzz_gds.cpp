// Fuzz target: GDSII streams as `gds` shapes and the import dialog read them: gds::read,
// the top cells and their layers, flattening (at most 100,000 vertices, so one input stays
// within the fuzzer's time budget) and the path outlines; then the export's writer at the
// file's database unit and split_polygon (pieces of at most 8 vertices) on the flattened,
// possibly self-intersecting polygons of up to 2000 vertices.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_common.hpp"
#include "golightly/gds.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    golightly::fuzz::set_limits();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace golightly;
    try {
        const gds::Library lib = gds::read(std::vector<std::uint8_t>(data, data + size));
        for (const auto& cell : gds::top_cells(lib))
            for (const auto& layer : gds::cell_layers(lib, cell)) {
                const gds::Geometry g = gds::flatten(lib, cell, layer, 1e5);
                for (const auto& p : g.paths)
                    if (p.width > 0) (void)gds::path_polygon(p);
                try {
                    (void)gds::write("F", {{layer[0], layer[1], g.polygons, g.paths}},
                                     std::min(1.0, std::max(1e-6, lib.um_per_db())));
                } catch (const std::exception&) {
                }
                for (const auto& poly : g.polygons) {
                    if (poly.size() > 2000) continue;
                    std::vector<std::array<std::int64_t, 2>> ring;
                    bool small = true;
                    for (const auto& v : poly) {
                        small = small && std::abs(v.x) < 1e9 && std::abs(v.y) < 1e9;  // int64 after * 1e3
                        if (small) ring.push_back({std::int64_t(v.x * 1e3), std::int64_t(v.y * 1e3)});
                    }
                    if (!small) continue;
                    try {
                        (void)gds::split_polygon(ring, 8);
                    } catch (const std::exception&) {
                    }
                }
            }
    } catch (const std::exception&) {
    }
    return 0;
}
