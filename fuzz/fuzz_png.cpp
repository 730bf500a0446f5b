// Fuzz target: the PNG of a raster shape (base64 in the project) as the compile decodes it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "golightly/image_io.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    golightly::fuzz::set_limits();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace golightly;
    try {
        const std::vector<std::uint8_t> bytes(data, data + size);
        decode_png_gray(bytes);
        decode_png(base64_decode(std::string(bytes.begin(), bytes.end())));
    } catch (const std::exception&) {
    }
    return 0;
}
