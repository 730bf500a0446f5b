// Diverging colour map shared by every frame producer (CPU, CUDA, viewport), so a
// frame looks the same whichever backend made it.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define GOLIGHTLY_HD __host__ __device__
#else
#define GOLIGHTLY_HD
#endif

namespace golightly {

/// Maps v in [-1, 1] (clamped) to RGB: -1 deep blue (0.23,0.30,0.75), 0 white, +1 deep red
/// (0.71,0.02,0.15), linear in each half (a simplified "cool-warm" of Moreland 2009).
GOLIGHTLY_HD inline void diverging_rgb(float v, std::uint8_t& r, std::uint8_t& g, std::uint8_t& b) {
    v = v < -1.f ? -1.f : (v > 1.f ? 1.f : v);
    float cr, cg, cb;
    if (v < 0.f) {
        const float t = -v;  // 0 white .. 1 blue
        cr = 1.f + t * (0.23f - 1.f); cg = 1.f + t * (0.30f - 1.f); cb = 1.f + t * (0.75f - 1.f);
    } else {
        const float t = v;   // 0 white .. 1 red
        cr = 1.f + t * (0.71f - 1.f); cg = 1.f + t * (0.02f - 1.f); cb = 1.f + t * (0.15f - 1.f);
    }
    r = static_cast<std::uint8_t>(cr * 255.f + 0.5f);
    g = static_cast<std::uint8_t>(cg * 255.f + 0.5f);
    b = static_cast<std::uint8_t>(cb * 255.f + 0.5f);
}

/// The field view's opacity over the structure for a scaled value t = value / scale: weak
/// field lets the structure show through, alpha = clamp(0.3 + 1.4 |t|, 0, 0.92), as a byte.
GOLIGHTLY_HD inline std::uint8_t viewport_alpha_byte(float t) {
    float a = 0.3f + 1.4f * (t < 0.f ? -t : t);
    a = a > 0.92f ? 0.92f : a;
    return static_cast<std::uint8_t>(a * 255.f);
}

}  // namespace golightly
