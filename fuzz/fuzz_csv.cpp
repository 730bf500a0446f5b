// Fuzz target: an optical-constants CSV as `golightly-cli materials fit` reads and fits it
// (fewer starts and iterations than the CLI, so that one input stays fast).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "golightly/pole_fit.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    golightly::fuzz::set_limits();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace golightly;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const OpticalData d = parse_refractive_index_csv(text, "fuzz.csv");
        PoleFitOptions o;
        o.poles = 2;
        o.starts = 2;
        o.max_iterations = 20;
        fit_poles(d.samples, o);
    } catch (const std::exception&) {
    }
    return 0;
}
