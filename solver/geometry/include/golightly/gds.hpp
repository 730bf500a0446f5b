// GoLightly: GDSII stream layouts (spec/project-format.md, "GDSII layouts").
//
// An own reader and writer of the GDSII stream format (Calma GDSII Stream Format Manual,
// release 6.0, 1987: records of a 2-byte length, a record type and a data type byte, then
// big-endian 2/4-byte integers, 8-byte excess-64 base-16 reals or ASCII strings). Why not
// libGDSII (the reader Meep uses): it flattens by layer only (datatypes merged), gives the
// cells' union with no choice of cell, skips BOX elements, ignores path end types and
// builds path outlines without miter joins, drops the rotation, magnification and
// reflection of AREF elements, reads only from a file name, and calls exit() on a
// reference to an unknown cell; it has no writer. The record format is small; this file
// reads what the issue needs and refuses everything malformed with a message.
//
// Units: database units (the file's integers) on input; um everywhere else (the UNITS
// record's metres per database unit times 1e6). Transformations of SREF/AREF elements
// (GDSII manual, "STRANS"): a point p of the referenced cell maps to
//     origin + R(angle) * mag * F p,   F = diag(1, -1) when reflected about x (applied first),
// and an AREF's instance (c, r) sits at origin + c (P1 - P0) / columns + r (P2 - P0) / rows,
// P0..P2 its three XY points (the lattice vectors are given in the parent's coordinates).
// ABSMAG / ABSANGLE: the magnification / angle is not combined with the parent's.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "golightly/geometry.hpp"
#include "golightly/project.hpp"

namespace golightly::gds {

/// What the GDS functions throw: a std::runtime_error whose `field` names the member of a
/// `gds` shape at fault: "data" (the stream), "cell" or "layer".
struct GdsError : std::runtime_error {
    GdsError(const std::string& what, std::string field_name) : std::runtime_error(what), field(std::move(field_name)) {}
    std::string field;
};

/// A path element after flattening: centre line in um, its full width (um), GDSII
/// PATHTYPE (0 flush, 1 round, 2 square ends extended by width/2, 4 custom extensions)
/// and the extensions of pathtype 4 (um, along the end segments; may be negative).
struct Path {
    std::vector<Vec2> points;
    double width = 0;
    int pathtype = 0;
    double begin_extension = 0, end_extension = 0;
    bool operator==(const Path&) const = default;
};

/// The flattened content of one layer/datatype of one cell, um.
struct Geometry {
    std::vector<std::vector<Vec2>> polygons;  ///< boundaries and boxes, open rings (no repeated closing vertex)
    std::vector<Path> paths;
};

/// One element of a cell, as stored (database units).
struct Element {
    enum Kind { Boundary, PathEl, Box, Sref, Aref } kind = Boundary;
    int layer = 0, datatype = 0;  ///< datatype: BOXTYPE for boxes
    std::vector<std::array<std::int32_t, 2>> xy;
    std::int32_t width = 0;       ///< paths; < 0: absolute width (not magnified)
    int pathtype = 0;
    std::int32_t bgnextn = 0, endextn = 0;
    std::string sname;            ///< references
    int columns = 1, rows = 1;    ///< AREF
    bool reflect = false, absmag = false, absangle = false;
    double mag = 1, angle_deg = 0;
};

struct Cell {
    std::string name;
    std::vector<Element> elements;
};

/// A GDSII library as read.
struct Library {
    std::string name;
    double user_units_per_db = 1e-3;  ///< UNITS[0]
    double metres_per_db = 1e-9;      ///< UNITS[1]
    std::vector<Cell> cells;
    double um_per_db() const { return metres_per_db * 1e6; }
};

/// Reads a GDSII stream from memory. Throws std::runtime_error naming what is wrong and
/// the byte offset: not a GDSII stream (no HEADER), truncated, a record length below 4,
/// odd or past the end, a record where it does not belong, a data type not matching the
/// record, invalid UNITS, COLROW out of 1..32767, an XY record with too few points, a
/// reference to a cell the library lacks, a cell defined twice. Limits: 64 MiB of data.
Library read(const std::vector<std::uint8_t>& bytes);

/// Cells no other cell references, in file order.
std::vector<std::string> top_cells(const Library& lib);

/// The [layer, datatype] pairs holding boundaries, paths or boxes in `cell` or the cells
/// it references (directly or not), sorted. Throws std::runtime_error for an unknown cell.
std::vector<std::array<int, 2>> cell_layers(const Library& lib, const std::string& cell);

/// The boundaries, boxes and paths of layer/datatype `layer` in `cell`, references and
/// arrays flattened with their transformations, in um. Throws std::runtime_error for an
/// unknown cell, a reference cycle, references nested deeper than 64, or a result of more
/// than `max_vertices` vertices (default 20 million; counted before anything is expanded,
/// so a huge AREF is refused at once).
Geometry flatten(const Library& lib, const std::string& cell, std::array<int, 2> layer, double max_vertices = 2e7);

/// The filled outline of a path (um): one simple ring, CCW, miter joins (the offset lines'
/// intersections), the ends as PATHTYPE says: flush, extended by begin/end extension
/// (pathtype 2: width/2 each), or round: half discs of 256 chords whose vertex radius is
/// set so the cap's area is exactly pi w^2 / 8 (the chord endpoints at the path's edges).
/// Throws std::invalid_argument for fewer than two distinct points, width <= 0, or a
/// 180-degree reversal.
std::vector<Vec2> path_polygon(const Path& path);

/// One layer/datatype's content for write().
struct WriteLayer {
    int layer = 0, datatype = 0;
    std::vector<std::vector<Vec2>> polygons;  ///< um, open rings
    std::vector<Path> paths;                  ///< um
};

/// The most vertices of a GDSII boundary: an XY record holds at most 8191 points, the
/// closing point repeating the first (GDSII manual, "XY").
constexpr std::size_t kMaxBoundaryVertices = 8190;

/// A GDSII stream of one cell `cell` holding `layers`, user unit 1 um, database unit
/// `db_unit_um` um (UNITS db_unit_um, db_unit_um * 1e-6 m; default 1e-3: 1 nm).
/// Coordinates are rounded to the nearest database unit; consecutive repeated vertices
/// are dropped and rings left with fewer than 3 vertices are skipped. A polygon of more
/// than kMaxBoundaryVertices vertices is written as the pieces of split_polygon; a path
/// of more than 8191 points as its outline (path_polygon), split likewise. Throws
/// std::runtime_error when a coordinate exceeds the 32-bit range (+-2147 um at 1 nm), the
/// database unit is outside 1e-6 (1 pm) to 1 um, or the cell name is empty.
std::vector<std::uint8_t> write(const std::string& cell, const std::vector<WriteLayer>& layers, double db_unit_um = 1e-3);

/// Splits a simple polygon (integer coordinates, open ring, either orientation) into
/// simple pieces of at most `max_vertices` (>= 8) vertices each that tile it: it is cut
/// recursively along a vertical or horizontal line (across the longer side of the box,
/// at a free integer coordinate nearest the median vertex, so no vertex lies on the cut),
/// each cut's crossings rounded to the nearest integer and shared by the pieces on both
/// sides. The pieces keep the ring's orientation; their areas add up to the ring's up to
/// the rounding of the crossings (at most half a unit times the crossing's edge length
/// each). Throws std::invalid_argument for max_vertices < 8, std::runtime_error when no
/// free cut line exists (a vertex on every integer line of its box), when a cut shows the
/// ring crossing itself (a piece would take chains from both sides of the cut line: its
/// pieces would not shrink), or after 64 rounds or 64 (ring + max_vertices) vertices in all.
std::vector<std::vector<std::array<std::int64_t, 2>>> split_polygon(const std::vector<std::array<std::int64_t, 2>>& ring,
                                                                    std::size_t max_vertices);

/// One entry of a layer map: a name for a GDSII layer/datatype.
struct LayerName {
    std::string name;
    int layer = 0, datatype = 0;
    bool operator==(const LayerName&) const = default;
};

/// Reads a layer map naming GDSII layers (gds_layer_map.cpp):
/// - a KLayout layer-properties file (`.lyp`, XML, read with pugixml; entities decoded):
///   every <properties> entry and, for groups, every <group-members> entry (nested to any
///   depth; a "*" layer or datatype is taken from the group parent) with a concrete
///   <source> layer spec ("1/0", "1/0@1", "POLY 2/0@1", "POLY (2/0)", "17" = 17/0; layout
///   index, transformations and selectors ignored; ranges skipped). The name is <name>
///   without a trailing " l/d" / " (l/d)" of the same layer (gdsfactory's layer_in_name);
///   an entry without a name takes the source's layer name, else "l/d". Several tabs
///   (<layer-properties-tabs>) are read in order.
/// - YAML (any other file; `.yaml`/`.yml` always; read with yaml-cpp): gdsfactory's
///   layer_views.yaml (LayerViews: NAME: {layer: [l, d], ..., group_members: {NAME: {...}}};
///   a view's `name` member, when present, wins over its key) and plain layer maps
///   NAME: [l, d] (or "l/d", "(l, d)"), at the top or in a nested mapping such as `layers:`.
/// Entries come in file order; exact repeats are dropped. Layer and datatype 0..65535.
/// Throws std::runtime_error naming the file: unreadable (safe_read, 16 MiB limit), not
/// valid XML/YAML (with the byte offset or line), nothing named, or the format's library
/// missing from this build (the message names the Debian package).
std::vector<LayerName> read_layer_map(const std::filesystem::path& file);

/// True when this build reads KLayout .lyp layer maps (pugixml compiled in).
bool lyp_layer_maps_available();
/// True when this build reads YAML layer maps (yaml-cpp compiled in).
bool yaml_layer_maps_available();

}  // namespace golightly::gds

namespace golightly {

/// The placed polygons of a `gds` shape (um): every boundary, box and path (its outline,
/// gds::path_polygon) of the shape's layer/datatype in its cell, flattened, mapped by
/// R(rotation_deg) p + translate, each an open ring oriented CCW (one ring per GDSII
/// element: they may overlap; coverage takes their union). Cached per (data, cell, layer,
/// placement). Throws std::runtime_error as gds::read / gds::flatten (the message names
/// the embedded file), and when the shape names no cell and the file has several top cells.
Outline gds_shape_polygons(const Shape& gds_shape);

/// The flattened geometry of a `gds` shape with its placement applied (um), paths kept as
/// paths (for export). Errors as gds_shape_polygons.
gds::Geometry gds_shape_geometry(const Shape& gds_shape);

/// A `gds` shape embedding `file` (base64), cell `cell` ("" = the only top cell), layer
/// `layer`. Reads the file to check it. Throws std::runtime_error as gds::read, for an
/// unknown cell, or when the file cannot be read.
Shape make_gds_shape(const std::filesystem::path& file, const std::string& cell, std::array<int, 2> layer);

/// The result of export_gds.
struct GdsExport {
    std::vector<std::uint8_t> bytes;    ///< the GDSII stream
    std::vector<std::string> warnings;  ///< e.g. STEP shapes left out
    int polygons = 0, paths = 0;        ///< elements written (before splitting polygons over 8190 vertices)
    double db_unit_um = 1e-3;           ///< the database unit written
};

/// The layers export_gds writes, in order: those that are not reference_only and hold a
/// shape with a GDSII form (any but `step`).
std::vector<std::size_t> gds_export_layers(const Project& project);

/// The layers of gds_export_layers without `gds_layer`: export_gds refuses them (the IDE
/// asks for their numbers first).
std::vector<std::size_t> gds_layers_without_number(const Project& project);

/// Writes the shapes of gds_export_layers into one GDSII cell `cell` (spec "GDSII
/// layouts"), each layer on its `gds_layer` (reference-only layers are left out, with a
/// warning naming them; a layer without gds_layer is refused: ProjectError naming
/// "layers[i].gds_layer"): rectangles, polygons, ellipses and rings as polygons
/// (ellipses and rings discretized to a sagitta below 1e-3 of domain.cell_size; a ring's
/// hole joined to its outside by a zero-width cut, GDSII having no holes); paths as GDSII
/// paths (flush ends) when they have no bend_radius, else their outline; `gds` shapes as
/// their flattened boundaries and paths; painted rasters traced at the cell resolution
/// (the raster's coverage on the grid of domain.cell_size, windows covered at least half,
/// as rectangles: runs of a row merged with equal runs of the rows above); spheres and
/// boxes in 2D as their cut at domain.slice_z, in 3D as their footprint within the
/// layer's z range (default 0 to the domain's height): a box's rectangle where the ranges
/// overlap, a sphere's largest section in the range (with a warning), nothing (with a
/// warning) when the solid lies outside the range; `step` shapes are left out with a
/// warning. A `gds` shape's `db_unit_um` counts as its file's database unit.
/// Database unit: `db_unit_um` when > 0, else the project's: the finest database unit
/// of its embedded GDS files (a warning when they differ and the finest is not a divisor
/// of the others), else 1 nm. Polygons of more than 8190 vertices become several
/// boundaries (gds::split_polygon).
/// Throws ProjectError (file_label, "layers[i].shapes[k]") when a shape cannot be written
/// (gds::write's limits, unreadable embedded GDS).
GdsExport export_gds(const Project& project, const std::string& cell, const std::string& file_label,
                     double db_unit_um = 0);

/// Reads every `gds` shape of the project once (gds_shape_polygons), so that a malformed
/// or mismatched embedded file is reported before a run: ProjectError(file_label,
/// "layers[i].shapes[k].data" / ".cell" / ".layer", message naming the embedded file).
/// compile_project and compile_project_3d call it.
void check_gds_shapes(const Project& project, const std::string& file_label);

}  // namespace golightly
