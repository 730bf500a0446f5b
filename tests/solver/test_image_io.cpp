// Tests of base64 and PNG I/O (image_io.hpp).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include "golightly/image_io.hpp"
#include "test_files.hpp"

using namespace golightly;

namespace {
std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }
std::string string_of(const std::vector<std::uint8_t>& b) { return {b.begin(), b.end()}; }
}  // namespace

TEST_CASE("base64 matches the RFC 4648 test vectors and round-trips", "[image_io]") {
    const std::pair<const char*, const char*> vectors[] = {
        {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
    for (const auto& [plain, coded] : vectors) {
        CHECK(base64_encode(bytes_of(plain)) == coded);
        CHECK(string_of(base64_decode(coded)) == plain);
    }
    // All byte values, lengths 0..3 mod 3, whitespace skipped.
    std::vector<std::uint8_t> all(256);
    for (int k = 0; k < 256; ++k) all[k] = std::uint8_t(k);
    for (std::size_t len : {255u, 256u, 257u}) {
        std::vector<std::uint8_t> d(all.begin(), all.begin() + std::min<std::size_t>(len, 256));
        if (len == 257) d.push_back(0xFF);
        std::string text = base64_encode(d);
        text.insert(10, "\n  ");
        text.insert(3, "\r\n\t");
        CHECK(base64_decode(text) == d);
    }
}

TEST_CASE("base64 rejects characters outside the alphabet and bad lengths", "[image_io]") {
    CHECK_THROWS_AS(base64_decode("Zm9v*mFy"), std::runtime_error);
    CHECK_THROWS_AS(base64_decode("Zm9-"), std::runtime_error);   // URL-safe alphabet not accepted
    CHECK_THROWS_AS(base64_decode("Zm9vY"), std::runtime_error);  // length not a multiple of 4
    CHECK_THROWS_AS(base64_decode("Zg==Zm8="), std::runtime_error);  // padding in the middle
    CHECK_THROWS_AS(base64_decode("Z==="), std::runtime_error);
}

TEST_CASE("PNG round trip for grey, RGB and RGBA images", "[image_io]") {
    std::mt19937 rng(7);
    for (int channels : {1, 3, 4}) {
        Image8 img;
        img.width = 37;
        img.height = 11;
        img.channels = channels;
        img.pixels.resize(std::size_t(img.width) * img.height * channels);
        for (auto& p : img.pixels) p = std::uint8_t(rng() & 0xFF);
        const auto png = encode_png(img);
        REQUIRE(png.size() > 8);
        CHECK(png[1] == 'P');
        const Image8 back = decode_png(png);
        CHECK(back.width == img.width);
        CHECK(back.height == img.height);
        CHECK(back.channels == channels);
        CHECK(back.pixels == img.pixels);
    }
}

TEST_CASE("decode_png_gray converts colour to luminance", "[image_io]") {
    Image8 img;
    img.width = 3;
    img.height = 1;
    img.channels = 3;
    img.pixels = {255, 255, 255, 255, 0, 0, 0, 0, 0};
    const Image8 g = decode_png_gray(encode_png(img));
    REQUIRE(g.channels == 1);
    REQUIRE(g.pixels.size() == 3);
    CHECK(int(g.pixels[0]) == 255);
    CHECK(int(g.pixels[1]) == 76);  // 0.299 * 255
    CHECK(int(g.pixels[2]) == 0);
}

TEST_CASE("corrupted PNG data throws", "[image_io]") {
    Image8 img;
    img.width = 16;
    img.height = 16;
    img.channels = 1;
    img.pixels.assign(256, 0);
    for (int k = 0; k < 256; ++k) img.pixels[k] = std::uint8_t(k * 7);
    auto png = encode_png(img);
    CHECK_THROWS_AS(decode_png({png.begin(), png.begin() + png.size() / 2}), std::runtime_error);  // truncated
    auto bad = png;
    for (std::size_t k = 40; k < bad.size() - 12; k += 3) bad[k] ^= 0x5A;  // damaged data (CRC fails)
    CHECK_THROWS_AS(decode_png(bad), std::runtime_error);
    CHECK_THROWS_AS(decode_png(bytes_of("not a png at all")), std::runtime_error);
    CHECK_THROWS_AS(decode_png({}), std::runtime_error);
}

TEST_CASE("write_png writes a readable file", "[image_io]") {
    Image8 img;
    img.width = 4;
    img.height = 2;
    img.channels = 1;
    img.pixels = {0, 10, 20, 30, 40, 50, 60, 70};
    const test::Scratch scratch("test", "write_png");  // its own folder: the Release and ASan suites may run at once
    const auto file = scratch.path / "write_png.png";
    write_png(file, img);
    std::ifstream is(file, std::ios::binary);
    std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
    CHECK(decode_png(data).pixels == img.pixels);
    CHECK_THROWS_AS(write_png("/nonexistent-dir/x.png", img), std::runtime_error);
}
