// GoLightly: base64 and PNG helpers (libpng) for raster shapes, embedded STEP data and
// output previews.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace golightly {

/// RFC 4648 base64 (standard alphabet, '=' padding). Decoding skips whitespace and throws
/// std::runtime_error on any other character outside the alphabet or a bad length.
std::string base64_encode(const std::uint8_t* data, std::size_t size);
std::string base64_encode(const std::vector<std::uint8_t>& data);
std::vector<std::uint8_t> base64_decode(const std::string& text);

/// An 8-bit image, rows top to bottom, `channels` interleaved bytes per pixel (1 grey, 3 RGB, 4 RGBA).
struct Image8 {
    int width = 0, height = 0, channels = 1;
    std::vector<std::uint8_t> pixels;  ///< size width * height * channels
};

/// Decodes PNG bytes of any colour type / bit depth into 8-bit grey (channels = 1) or
/// RGB(A) as stored (expand palette, strip 16-bit). Throws std::runtime_error on bad data.
Image8 decode_png(const std::vector<std::uint8_t>& png_bytes);
/// Decodes and converts to 8-bit grey (luminance for colour images).
Image8 decode_png_gray(const std::vector<std::uint8_t>& png_bytes);
/// Encodes an 8-bit image (1, 3 or 4 channels) as PNG bytes.
std::vector<std::uint8_t> encode_png(const Image8& image);
/// Writes an 8-bit image as a PNG file atomically. Throws std::runtime_error naming the file.
void write_png(const std::filesystem::path& file, const Image8& image);

}  // namespace golightly
