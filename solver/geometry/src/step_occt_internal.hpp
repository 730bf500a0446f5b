// GoLightly: what step_import.cpp (reading, placing, sections) and step_mesh.cpp (meshes)
// share of the OCCT side of STEP import (not public): the parsed and placed files, the
// cache lock, the one OCCT lock and the placement cache. Only these two files include it
// (and OCCT headers).
#pragma once

#ifdef GOLIGHTLY_HAVE_OCCT

#include <array>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <Standard_Failure.hxx>
#include <TopoDS_Shape.hxx>

#include "golightly/step_import.hpp"

namespace golightly::step_occt {

struct Solid3 {
    TopoDS_Shape shape;  ///< OCCT units (mm), locations applied
    StepSolid info;      ///< bounds and volume in file units
};

struct ParsedFile {
    std::vector<Solid3> solids;
    StepModel model;
    double unit_mm = 1.0;  ///< one file unit in OCCT's working unit (mm)
};

struct PlacedFile {
    std::shared_ptr<const ParsedFile> file;
    std::vector<TopoDS_Shape> solids;  ///< placed, um
    std::vector<std::array<double, 6>> bounds;  ///< per solid, um
};

/// Guards the caches (step_import.cpp's parsed, placed and section caches, step_mesh.cpp's
/// meshes).
extern std::mutex g_cache_mutex;
/// OCCT work (reading, placing, cutting, meshing) runs one at a time: the XCAF application
/// and the translators' static parameters are process-wide.
extern std::recursive_mutex g_occt_mutex;

/// OCCT's message of a failure.
std::string occt_message(const Standard_Failure& f);
/// The cache key of a step shape's data and placement.
std::string placement_key(const Shape& s);
/// The placed solids of a step shape (um), parsed and placed once per data and placement.
std::shared_ptr<const PlacedFile> placed(const Shape& s);

/// Keeps a cache small: cleared once it holds more than n entries.
template <class M>
void bound_cache(M& m, std::size_t n) {
    if (m.size() > n) m.clear();
}

}  // namespace golightly::step_occt

#endif  // GOLIGHTLY_HAVE_OCCT
