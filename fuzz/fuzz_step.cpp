// Fuzz target: STEP data as the import dialog and the compile read it: read_step, then
// the bounds and a section of every solid through the middle of the part.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "golightly/image_io.hpp"
#include "golightly/step_import.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    golightly::fuzz::set_limits();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace golightly;
    const std::vector<std::uint8_t> bytes(data, data + size);
    try {
        const StepModel m = read_step(bytes, "fuzz.step");
        Shape s;
        s.type = ShapeType::Step;
        s.file_name = "fuzz.step";
        s.data_base64 = base64_encode(bytes);
        s.scale = m.unit_um > 0 ? m.unit_um : 1.0;
        const auto b = step_bounds_um(s);
        const double extent = std::max(b[3] - b[0], b[4] - b[1]);
        step_section_solids(s, 0.5 * (b[2] + b[5]), std::max(1e-6, 1e-3 * extent));
    } catch (const std::exception&) {
    }
    return 0;
}
