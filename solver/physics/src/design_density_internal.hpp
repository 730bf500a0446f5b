#pragma once
// Helpers shared by design_density.cpp and design_length_scale.cpp.
#include <string>

namespace golightly::design {

/// The prefix of every error message about a design density's parameters.
inline std::string field(const char* name) { return std::string("design density: ") + name; }

/// i clamped to [0, n - 1]: the filters and morphology treat cells beyond the grid's edge as
/// copies of the edge cell.
inline int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

}  // namespace golightly::design
