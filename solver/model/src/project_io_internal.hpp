// GoLightly: helpers shared by project_io.cpp and project_validate.cpp (not public).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "golightly/project.hpp"

namespace golightly::detail {

/// The format name and version a project file declares (`format`, `version`): the reader
/// checks them, the writer writes them.
inline constexpr const char* kFormatName = "golightly-project";
inline constexpr int kFormatVersion = 1;

/// One enumerator and its name in the file format.
template <class E>
struct EnumEntry {
    E value;
    const char* name;
};

extern const EnumEntry<Component> kComponents[6];
extern const EnumEntry<Polarization> kPolarizations[2];
extern const EnumEntry<BoundaryKind> kBoundaries[5];
extern const EnumEntry<Precision> kPrecisions[2];
extern const EnumEntry<BackendChoice> kBackends[3];
extern const EnumEntry<SubpixelMetal> kSubpixelMetals[4];
extern const EnumEntry<ShapeType> kShapeTypes[10];
extern const EnumEntry<PoleKind> kPoleKinds[2];
extern const EnumEntry<WaveformType> kWaveformTypes[2];
extern const EnumEntry<SourceType> kSourceTypes[5];
extern const EnumEntry<SourceProfile> kProfiles[3];
extern const EnumEntry<MonitorType> kMonitorTypes[4];
extern const EnumEntry<Reduce> kReduces[4];

/// The file-format name of `v` ("?" for a value outside the table, e.g. a cast int).
template <class E, std::size_t N>
std::string enum_name(const EnumEntry<E> (&table)[N], E v) {
    for (const auto& e : table)
        if (e.value == v) return e.name;
    return "?";
}

/// "a.b" from ("a", "b"); "b" from ("", "b").
std::string key_path(const std::string& base, std::string_view key);
/// "a[3]" from ("a", 3).
std::string index_path(const std::string& base, std::size_t i);

/// The field component a polarization's sources, probes and frames default to:
/// Ez for TMz, Hz for TEz.
Component default_component(Polarization p);

/// The E polarization a `tfsf` source defaults to: 3D: Ez (Ex for a wave along z);
/// 2D TMz: Ez; 2D TEz: the in-plane E axis normal to `direction` (Ey along x, Ex along y).
Component default_tfsf_component(int dimensions, Polarization p, const std::string& direction);

/// The normal axis (0 x, 1 y, 2 z) of a plane given by its `size` with exactly one zero
/// entry; -1 when the number of zero entries is not one.
int plane_normal_axis(const Vec3& size);

}  // namespace golightly::detail
