// Helpers shared by the GDSII tests (tests/solver/test_gds*.cpp): the gdspy fixtures
// (tests/data/gds), a small project, `gds` shapes, geometry comparisons and record
// surgery on streams. Header-only, namespace golightly::test::gds_files.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "golightly/gds.hpp"
#include "golightly/geometry.hpp"
#include "golightly/project.hpp"
#include "project_builders.hpp"

namespace golightly::test::gds_files {

namespace fs = std::filesystem;

inline fs::path data_dir() { return fs::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "gds"; }

inline std::vector<std::uint8_t> read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline nlohmann::json figures() {
    std::ifstream in(data_dir() / "layout.json");
    REQUIRE(in);
    return nlohmann::json::parse(in);
}

inline double ring_area(const std::vector<Vec2>& r) {
    double a = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
        const Vec2 p = r[k], q = r[(k + 1) % r.size()];
        a += p.x * q.y - p.y * q.x;
    }
    return 0.5 * a;
}

/// Polygons of a flattened geometry: boundaries and path outlines.
inline std::vector<std::vector<Vec2>> polygons_of(const gds::Geometry& g) {
    std::vector<std::vector<Vec2>> out = g.polygons;
    for (const auto& p : g.paths) out.push_back(gds::path_polygon(p));
    return out;
}

inline std::array<int, 2> parse_key(const std::string& key) {
    const auto slash = key.find('/');
    return {std::stoi(key.substr(0, slash)), std::stoi(key.substr(slash + 1))};
}

/// A project `name` of an lx x ly x lz um domain (dims 2 or 3), cell dx um, with the
/// materials air, si (eps 12) and sin (eps 4).
inline Project base_project(double lx, double ly, double lz, double dx, int dims,
                            const std::string& name = "gds test") {
    Project p;
    p.name = name;
    p.domain.dimensions = dims;
    p.domain.size = {lx, ly, lz};
    p.domain.cell_size = dx;
    p.materials = {material("air", 1.0), material("si", 12.0), material("sin", 4.0)};
    return p;
}

inline Shape gds_shape(const std::string& cell, std::array<int, 2> layer, Vec2 translate = {0, 0}) {
    Shape s = make_gds_shape(data_dir() / "layout.gds", cell, layer);
    s.translate = {translate.x, translate.y, 0};
    return s;
}

/// The vertices of two flattened geometries agree within tol (um), element by element.
inline double max_vertex_deviation(const gds::Geometry& a, const gds::Geometry& b) {
    REQUIRE(a.polygons.size() == b.polygons.size());
    REQUIRE(a.paths.size() == b.paths.size());
    double dev = 0;
    for (std::size_t k = 0; k < a.polygons.size(); ++k) {
        REQUIRE(a.polygons[k].size() == b.polygons[k].size());
        for (std::size_t v = 0; v < a.polygons[k].size(); ++v)
            dev = std::max({dev, std::abs(a.polygons[k][v].x - b.polygons[k][v].x),
                            std::abs(a.polygons[k][v].y - b.polygons[k][v].y)});
    }
    for (std::size_t k = 0; k < a.paths.size(); ++k) {
        REQUIRE(a.paths[k].points.size() == b.paths[k].points.size());
        CHECK(a.paths[k].pathtype == b.paths[k].pathtype);
        dev = std::max({dev, std::abs(a.paths[k].width - b.paths[k].width),
                        std::abs(a.paths[k].begin_extension - b.paths[k].begin_extension),
                        std::abs(a.paths[k].end_extension - b.paths[k].end_extension)});
        for (std::size_t v = 0; v < a.paths[k].points.size(); ++v)
            dev = std::max({dev, std::abs(a.paths[k].points[v].x - b.paths[k].points[v].x),
                            std::abs(a.paths[k].points[v].y - b.paths[k].points[v].y)});
    }
    return dev;
}

/// Big-endian u16 at byte `at`.
inline void put16(std::vector<std::uint8_t>& b, std::size_t at, unsigned v) {
    b[at] = std::uint8_t(v >> 8);
    b[at + 1] = std::uint8_t(v & 0xFF);
}

/// Byte offsets of every record of type `rt` in a well-formed stream.
inline std::vector<std::size_t> records(const std::vector<std::uint8_t>& b, std::uint8_t rt) {
    std::vector<std::size_t> out;
    for (std::size_t pos = 0; pos + 4 <= b.size();) {
        const std::size_t len = (std::size_t(b[pos]) << 8) | b[pos + 1];
        if (b[pos + 2] == rt) out.push_back(pos);
        if (b[pos + 2] == 0x04 || len < 4) break;
        pos += len;
    }
    return out;
}

inline std::string gds_error(const std::vector<std::uint8_t>& bytes) {
    try {
        const gds::Library lib = gds::read(bytes);
        for (const std::string& c : gds::top_cells(lib))
            for (const auto& l : gds::cell_layers(lib, c)) (void)polygons_of(gds::flatten(lib, c, l));
    } catch (const std::exception& e) {  // GdsError; std::invalid_argument from a degenerate path
        return e.what();
    }
    return "";
}

}  // namespace golightly::test::gds_files
