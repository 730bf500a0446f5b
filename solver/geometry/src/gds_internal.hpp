// GoLightly: what the GDSII reader, flattener, writer and polygon splitter share (not
// public; gds.hpp is the interface).
//
// Record layout (GDSII Stream Format Manual 6.0): u16 total length (>= 4, even), u8 record
// type, u8 data type, then the data, big-endian. Reals: 8-byte excess-64 base-16 floats,
// value = (-1)^s * (mantissa / 2^56) * 16^(exponent - 64).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace golightly::gds::detail {

/// The record types GoLightly reads or writes.
enum Rec : std::uint8_t {
    HEADER = 0x00, BGNLIB = 0x01, LIBNAME = 0x02, UNITS = 0x03, ENDLIB = 0x04, BGNSTR = 0x05, STRNAME = 0x06,
    ENDSTR = 0x07, BOUNDARY = 0x08, PATH = 0x09, SREF = 0x0A, AREF = 0x0B, TEXT = 0x0C, LAYER = 0x0D,
    DATATYPE = 0x0E, WIDTH = 0x0F, XY = 0x10, ENDEL = 0x11, SNAME = 0x12, COLROW = 0x13, NODE = 0x15,
    STRANS = 0x1A, MAG = 0x1B, ANGLE = 0x1C, PATHTYPE = 0x21, BOX = 0x2D, BOXTYPE = 0x2E, BGNEXTN = 0x30,
    ENDEXTN = 0x31
};
/// The data types of a record's payload.
enum DType : std::uint8_t { NODATA = 0, BITARRAY = 1, INT2 = 2, INT4 = 3, REAL4 = 4, REAL8 = 5, ASCII = 6 };

/// References nested deeper than this are refused (flattening and the layer listing).
constexpr int kMaxDepth = 64;

/// The 8-byte GDSII real at `p`.
inline double real8(const std::uint8_t* p) {
    const int sign = (p[0] & 0x80) ? -1 : 1;
    const int exponent = (p[0] & 0x7F) - 64;
    std::uint64_t mant = 0;
    for (int k = 1; k < 8; ++k) mant = (mant << 8) | p[k];
    return sign * std::ldexp(double(mant), 4 * exponent - 56);
}

/// Appends `v` as an 8-byte GDSII real (0 for 0 and non-finite values).
inline void put_real8(std::vector<std::uint8_t>& out, double v) {
    std::uint8_t b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (v != 0 && std::isfinite(v)) {
        const bool neg = v < 0;
        double a = std::abs(v);
        int e = 0;  // a = f * 16^e with 1/16 <= f < 1
        while (a >= 1) { a /= 16; ++e; }
        while (a < 1.0 / 16) { a *= 16; --e; }
        std::uint64_t mant = std::uint64_t(std::llround(std::ldexp(a, 56)));
        if (mant >= (std::uint64_t(1) << 56)) { mant >>= 4; ++e; }
        b[0] = std::uint8_t((neg ? 0x80 : 0) | ((e + 64) & 0x7F));
        for (int k = 7; k >= 1; --k) { b[k] = std::uint8_t(mant & 0xFF); mant >>= 8; }
    }
    out.insert(out.end(), b, b + 8);
}

/// A ring of integer (database-unit) vertices, open.
using Ring64 = std::vector<std::array<std::int64_t, 2>>;

/// `r` with consecutive repeats (and a closing repeat of the first point) removed
/// (gds_split.cpp).
Ring64 dedupe(Ring64 r);

}  // namespace golightly::gds::detail
