// GoLightly: STEP (ISO 10303-21, AP203/AP214/AP242) import through OpenCASCADE, and the
// planar sections of imported solids that 2D projects use as geometry.
//
// OpenCASCADE is optional: a build without it (GOLIGHTLY_HAVE_OCCT undefined) has these
// functions, and every one of them except step_import_available() throws
// std::runtime_error("... this build has no STEP support ...").
//
// Units: the STEP file's own length unit ("file units") on input; um everywhere else.
// A `step` shape (project.hpp) maps a point p of the file to
//     R_z(rz) R_y(ry) R_x(rx) (scale p) + translate        (rotations in degrees, CCW)
// as in spec/project-format.md.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "golightly/geometry.hpp"
#include "golightly/project.hpp"

namespace golightly {

/// True when this build reads STEP files (compiled with OpenCASCADE).
bool step_import_available();

/// Progress of a STEP import: fraction in [0, 1] and a short stage name ("reading",
/// "transferring", "solids"). Return false to cancel (read_step then throws
/// std::runtime_error("... cancelled")). Called from the importing thread.
using StepProgress = std::function<bool(double fraction, const std::string& stage)>;

/// One solid of a STEP file.
struct StepSolid {
    std::string name;                  ///< product / label name, "solid N" when the file has none
    bool has_color = false;
    std::array<double, 3> color_rgb{0.7, 0.7, 0.7};  ///< surface colour, sRGB in [0, 1]
    std::array<double, 3> bbox_min{0, 0, 0};         ///< axis-aligned bounds, file units
    std::array<double, 3> bbox_max{0, 0, 0};
    double volume = 0;                 ///< file units^3
};

/// What a STEP file holds, for the import dialog.
struct StepModel {
    std::vector<StepSolid> solids;     ///< in file order (assemblies flattened, locations applied)
    std::array<double, 3> bbox_min{0, 0, 0}, bbox_max{0, 0, 0};  ///< of all solids, file units
    std::string length_unit;           ///< the file's length unit as written ("mm", "m", "inch", ...)
    double unit_um = 1000;             ///< one file unit in um: the suggested `scale`
};

/// Reads a STEP file from memory. file_label names it in messages. Throws
/// std::runtime_error with a clear message when the data is not STEP, is truncated or
/// unreadable, or holds no solid (closed shells are promoted to solids).
StepModel read_step(const std::vector<std::uint8_t>& bytes, const std::string& file_label,
                    const StepProgress& progress = {});

/// A `step` shape embedding the file at `file` (base64), with the given placement.
/// Reads the file once to check that it imports (read_step's errors, plus
/// std::runtime_error when the file cannot be read).
Shape make_step_shape(const std::filesystem::path& file, double scale, const std::array<double, 3>& rotate_deg,
                      const std::array<double, 3>& translate, const StepProgress& progress = {});

/// The section of one solid by the plane z = z_um.
struct StepSolidSection {
    int solid = -1;          ///< index into StepModel::solids
    Outline outline;         ///< rings in um (x, y), outer boundaries CCW, holes CW
    double area_um2 = 0;     ///< area of the section faces (from OCCT, before discretizing)
};

/// Sections of the (placed) solids of a `step` shape by the plane z = z_um, curved edges
/// discretized to a chordal deviation below tolerance_um. Only the solids listed in
/// `solids` (indices into read_step's solids) when it is not empty; otherwise those in
/// shape.solids when not empty (or shape.extra["solids"], as older builds kept it), else all. Solids the plane misses are absent from
/// the result. Results are cached per (data, placement, solids, z, tolerance), the
/// parsed file per (data, placement). Throws std::runtime_error as read_step, and when
/// the placement is invalid (scale <= 0, non-finite values).
std::vector<StepSolidSection> step_section_solids(const Shape& step_shape, double z_um, double tolerance_um,
                                                  const std::vector<int>& solids = {});

/// All section rings of step_section_solids, concatenated (one Outline per solid hit).
/// Throws std::runtime_error when no selected solid crosses the plane, naming the file,
/// z_um and the z range the solids span.
std::vector<Outline> step_section(const Shape& step_shape, double z_um, double tolerance_um);

/// The import check of the editor (issue: "a solid that does not cross the slice plane
/// gives a clear message"): throws std::runtime_error naming every selected solid (as in
/// step_section_solids) that the plane z = z_um misses, with its z range in um; returns
/// the sections otherwise.
std::vector<StepSolidSection> step_import_sections(const Shape& step_shape, double z_um, double tolerance_um);

/// A closed triangle mesh of the placed solids of a `step` shape, for 3D coverage
/// (geometry_3d.cpp sections it by planes z = const).
struct StepMesh {
    std::vector<Vec3> vertices;                 ///< um (placed)
    std::vector<std::array<int, 3>> triangles;  ///< indices into vertices, CCW seen from outside
    struct Solid {
        int solid = -1;                  ///< index into StepModel::solids
        int first = 0, count = 0;        ///< its triangles: triangles[first .. first + count)
        std::array<double, 6> bounds{};  ///< {xmin, ymin, zmin, xmax, ymax, zmax} of its vertices, um
        double volume_um3 = 0;           ///< enclosed volume of its triangles (divergence theorem)
    };
    std::vector<Solid> solids;  ///< the selected solids (as step_section_solids selects them)
};

/// Tessellates the placed solids of a `step` shape (OpenCASCADE BRepMesh_IncrementalMesh,
/// linear deflection deflection_um, angular deflection 0.35 rad) in a child process
/// (isolate.hpp, step_isolation_limits()). Faces keep their orientation, so every solid's
/// triangles face outward (a solid whose mesh encloses a negative volume is flipped).
/// Cached per (data, placement, solids, deflection). Throws std::runtime_error as read_step,
/// when a face has no triangulation, and when the deflection is not > 0.
std::shared_ptr<const StepMesh> step_mesh(const Shape& step_shape, double deflection_um);

/// What the embedded file of a `step` shape holds (read_step's model; the file is parsed
/// once and cached by its data, as for step_section_solids). Throws as read_step.
StepModel step_shape_model(const Shape& step_shape);

/// Bounds (um) of the placed solids of a `step` shape: {xmin, ymin, zmin, xmax, ymax, zmax}.
std::array<double, 6> step_bounds_um(const Shape& step_shape);

/// The bytes a `step` shape embeds (base64-decoded data).
std::vector<std::uint8_t> step_shape_bytes(const Shape& step_shape);

}  // namespace golightly
