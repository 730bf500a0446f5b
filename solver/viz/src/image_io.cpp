// GoLightly: base64 (RFC 4648) and PNG encode/decode through libpng's classic API.
#include "golightly/image_io.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "golightly/atomic_file.hpp"
#include "golightly/limits.hpp"

namespace golightly {

// ---------------------------------------------------------------- base64

namespace {
constexpr char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int base64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}
}  // namespace

std::string base64_encode(const std::uint8_t* data, std::size_t size) {
    std::string out;
    out.reserve((size + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= size; i += 3) {
        const std::uint32_t v = (std::uint32_t(data[i]) << 16) | (std::uint32_t(data[i + 1]) << 8) | data[i + 2];
        out += kBase64Alphabet[(v >> 18) & 63];
        out += kBase64Alphabet[(v >> 12) & 63];
        out += kBase64Alphabet[(v >> 6) & 63];
        out += kBase64Alphabet[v & 63];
    }
    const std::size_t rest = size - i;
    if (rest == 1) {
        const std::uint32_t v = std::uint32_t(data[i]) << 16;
        out += kBase64Alphabet[(v >> 18) & 63];
        out += kBase64Alphabet[(v >> 12) & 63];
        out += "==";
    } else if (rest == 2) {
        const std::uint32_t v = (std::uint32_t(data[i]) << 16) | (std::uint32_t(data[i + 1]) << 8);
        out += kBase64Alphabet[(v >> 18) & 63];
        out += kBase64Alphabet[(v >> 12) & 63];
        out += kBase64Alphabet[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

std::string base64_encode(const std::vector<std::uint8_t>& data) { return base64_encode(data.data(), data.size()); }

std::vector<std::uint8_t> base64_decode(const std::string& text) {
    // Collect the significant characters (whitespace skipped), then decode quads.
    std::string s;
    s.reserve(text.size());
    for (unsigned char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\v') continue;
        if (base64_value(c) < 0 && c != '=')
            throw std::runtime_error("base64: invalid character (code " + std::to_string(int(c)) + ")");
        s += char(c);
    }
    if (s.size() % 4 != 0) throw std::runtime_error("base64: length is not a multiple of 4");
    std::vector<std::uint8_t> out;
    out.reserve(s.size() / 4 * 3);
    for (std::size_t q = 0; q < s.size(); q += 4) {
        const bool last = q + 4 == s.size();
        int pad = 0;
        int v[4];
        for (int k = 0; k < 4; ++k) {
            const char c = s[q + k];
            if (c == '=') {
                // '=' only at the end of the last quad, in positions 2-3.
                if (!last || k < 2) throw std::runtime_error("base64: misplaced '=' padding");
                ++pad;
                v[k] = 0;
            } else {
                if (pad > 0) throw std::runtime_error("base64: data after '=' padding");
                v[k] = base64_value(static_cast<unsigned char>(c));
            }
        }
        const std::uint32_t bits = (std::uint32_t(v[0]) << 18) | (std::uint32_t(v[1]) << 12) |
                                   (std::uint32_t(v[2]) << 6) | std::uint32_t(v[3]);
        out.push_back(std::uint8_t((bits >> 16) & 0xFF));
        if (pad < 2) out.push_back(std::uint8_t((bits >> 8) & 0xFF));
        if (pad < 1) out.push_back(std::uint8_t(bits & 0xFF));
    }
    return out;
}

// ---------------------------------------------------------------- PNG

namespace {

struct ReadState {
    const std::uint8_t* data;
    std::size_t size;
    std::size_t pos;
};

// libpng callbacks: errors longjmp back to the setjmp in the calling function. These
// functions hold no objects with destructors, so the jump skips none.
void png_read_from_memory(png_structp png, png_bytep out, png_size_t length) {
    auto* st = static_cast<ReadState*>(png_get_io_ptr(png));
    if (st->pos + length > st->size) png_error(png, "truncated PNG data");
    std::memcpy(out, st->data + st->pos, length);
    st->pos += length;
}

void png_write_to_vector(png_structp png, png_bytep data, png_size_t length) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
    out->insert(out->end(), data, data + length);
}
void png_flush_noop(png_structp) {}

void png_error_to_buffer(png_structp png, png_const_charp msg) {
    auto* message = static_cast<char*>(png_get_error_ptr(png));
    std::strncpy(message, msg ? msg : "libpng error", 255);
    message[255] = '\0';
    png_longjmp(png, 1);
}
void png_warning_ignore(png_structp, png_const_charp) {}

}  // namespace

Image8 decode_png(const std::vector<std::uint8_t>& png_bytes) {
    if (png_bytes.size() < 8 || png_sig_cmp(png_bytes.data(), 0, 8) != 0)
        throw std::runtime_error("PNG: not PNG data (bad signature)");
    // Everything with a destructor lives before setjmp.
    Image8 image;
    std::vector<png_bytep> rows;
    char message[256] = "libpng error";
    ReadState state{png_bytes.data(), png_bytes.size(), 0};

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, message, png_error_to_buffer, png_warning_ignore);
    if (!png) throw std::runtime_error("PNG: cannot create the libpng read struct");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        throw std::runtime_error("PNG: cannot create the libpng info struct");
    }
    bool too_large = false;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw std::runtime_error(std::string("PNG: ") + message);
    }
    png_set_read_fn(png, &state, png_read_from_memory);
    // libpng refuses larger images and ancillary chunks (decompression bombs) itself.
    png_set_user_limits(png, 65536, 65536);
    png_set_chunk_malloc_max(png, 8u << 20);
    png_read_info(png, info);
    const png_uint_32 width = png_get_image_width(png, info);
    const png_uint_32 height = png_get_image_height(png, info);
    const int color_type = png_get_color_type(png, info);
    const int bit_depth = png_get_bit_depth(png, info);
    if (bit_depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    // Grey + alpha is returned as RGBA (the image types are 1, 3 or 4 channels).
    if (color_type == PNG_COLOR_TYPE_GRAY_ALPHA ||
        (color_type == PNG_COLOR_TYPE_GRAY && png_get_valid(png, info, PNG_INFO_tRNS)))
        png_set_gray_to_rgb(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    const int channels = png_get_channels(png, info);
    bool too_many = std::uint64_t(width) * height > limits::kMaxPngPixels;  // before allocating
    if (too_many || width == 0 || height == 0 || std::uint64_t(width) * height > (std::uint64_t(1) << 31) ||
        (channels != 1 && channels != 3 && channels != 4) || png_get_rowbytes(png, info) != std::size_t(width) * channels) {
        too_large = true;
    } else {
        image.width = int(width);
        image.height = int(height);
        image.channels = channels;
        image.pixels.resize(std::size_t(width) * height * channels);
        rows.resize(height);
        for (png_uint_32 r = 0; r < height; ++r) rows[r] = image.pixels.data() + std::size_t(r) * width * channels;
        png_read_image(png, rows.data());
        png_read_end(png, nullptr);
    }
    png_destroy_read_struct(&png, &info, nullptr);
    if (too_many)
        throw std::runtime_error("PNG: the image is " + std::to_string(width) + " x " + std::to_string(height) +
                                 " pixels, more than the limit of " + std::to_string(limits::kMaxPngPixels) + " pixels");
    if (too_large) throw std::runtime_error("PNG: unsupported size or pixel layout");
    return image;
}

Image8 decode_png_gray(const std::vector<std::uint8_t>& png_bytes) {
    Image8 image = decode_png(png_bytes);
    if (image.channels == 1) return image;
    Image8 grey;
    grey.width = image.width;
    grey.height = image.height;
    grey.channels = 1;
    const std::size_t n = std::size_t(image.width) * image.height;
    grey.pixels.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint8_t* p = &image.pixels[k * image.channels];
        // Rec. 601 luma; with alpha, transparent pixels count as empty (luma * alpha).
        double y = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
        if (image.channels == 4) y *= p[3] / 255.0;
        grey.pixels[k] = std::uint8_t(std::lround(std::min(255.0, std::max(0.0, y))));
    }
    return grey;
}

std::vector<std::uint8_t> encode_png(const Image8& image) {
    if (image.width <= 0 || image.height <= 0) throw std::runtime_error("PNG: empty image");
    if (image.channels != 1 && image.channels != 3 && image.channels != 4)
        throw std::runtime_error("PNG: channels must be 1, 3 or 4");
    if (image.pixels.size() != std::size_t(image.width) * image.height * image.channels)
        throw std::runtime_error("PNG: pixel buffer size does not match width x height x channels");
    std::vector<std::uint8_t> out;
    std::vector<png_bytep> rows(image.height);
    for (int r = 0; r < image.height; ++r)
        rows[r] = const_cast<png_bytep>(image.pixels.data() + std::size_t(r) * image.width * image.channels);
    char message[256] = "libpng error";
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, png_error_to_buffer, png_warning_ignore);
    if (!png) throw std::runtime_error("PNG: cannot create the libpng write struct");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        throw std::runtime_error("PNG: cannot create the libpng info struct");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw std::runtime_error(std::string("PNG: ") + message);
    }
    const int color_type = image.channels == 1 ? PNG_COLOR_TYPE_GRAY
                           : image.channels == 3 ? PNG_COLOR_TYPE_RGB
                                                 : PNG_COLOR_TYPE_RGB_ALPHA;
    png_set_write_fn(png, &out, png_write_to_vector, png_flush_noop);
    png_set_IHDR(png, info, png_uint_32(image.width), png_uint_32(image.height), 8, color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_rows(png, info, rows.data());
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, nullptr);
    png_destroy_write_struct(&png, &info);
    return out;
}

void write_png(const std::filesystem::path& file, const Image8& image) {
    const std::vector<std::uint8_t> bytes = encode_png(image);
    write_file_atomic(file, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace golightly
