// Fuzz target: GDSII streams as `gds` shapes and the import dialog read them: gds::read,
// the top cells and their layers, flattening (at most 100,000 vertices, so one input stays
// within the fuzzer's time budget) and the path outlines.
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
            }
    } catch (const std::exception&) {
    }
    return 0;
}
