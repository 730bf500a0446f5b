// Tests of the dimension-independent Yee grid (grid.hpp): index order, Yee offsets, the
// nodes of lines, planes and boxes with their covered fractions, and agreement with the
// sample layout the compiler gives a flux line today.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "golightly/compile.hpp"
#include "golightly/grid.hpp"
#include "golightly/scene.hpp"

using namespace golightly;

namespace {

Grid grid_2d(std::int64_t nx, std::int64_t ny, double dx, int pml) {
    Grid g;
    g.n = {nx, ny, 1};
    g.dx_um = dx;
    g.pml_lo = {pml, pml, 0};
    g.pml_hi = {pml, pml, 0};
    return g;
}

}  // namespace

TEST_CASE("grid: flat index is x fastest, then y, then z, in 64 bits", "[grid]") {
    Grid g;
    g.n = {70000, 50000, 3};  // 1.05e10 cells: beyond 32-bit indices
    CHECK(g.dimensions() == 3);
    CHECK(g.cells() == 70000LL * 50000LL * 3LL);
    CHECK(g.flat(1, 0, 0) == 1);
    CHECK(g.flat(0, 1, 0) == 70000);
    CHECK(g.flat(0, 0, 1) == 70000LL * 50000LL);
    CHECK(g.flat(69999, 49999, 2) == g.cells() - 1);
}

TEST_CASE("grid: Yee offsets in 3D, whose x, y parts are the 2D positions", "[grid]") {
    // scene.hpp "Grid and index order": TMz Ez (i, j), Hx (i, j+1/2), Hy (i+1/2, j);
    // TEz Hz (i+1/2, j+1/2), Ex (i+1/2, j), Ey (i, j+1/2).
    const struct { Component c; Vec2 xy; double z; } table[] = {
        {Component::Ez, {0.0, 0.0}, 0.5}, {Component::Hx, {0.0, 0.5}, 0.5}, {Component::Hy, {0.5, 0.0}, 0.5},
        {Component::Hz, {0.5, 0.5}, 0.0}, {Component::Ex, {0.5, 0.0}, 0.0}, {Component::Ey, {0.0, 0.5}, 0.0},
    };
    for (const auto& row : table) {
        const Vec3 o = yee_offset(row.c);
        INFO(component_name(row.c));
        CHECK(o.x == row.xy.x);
        CHECK(o.y == row.xy.y);
        CHECK(o.z == row.z);
        // E components sit on cell edges (one half offset), H on faces (two half offsets) ...
        const int halves = int(2 * o.x) + int(2 * o.y) + int(2 * o.z);
        CHECK(halves == (is_electric(row.c) ? 1 : 2));
        // ... along their own axis for E, across it for H.
        CHECK(o[component_axis(row.c)] == (is_electric(row.c) ? 0.5 : 0.0));
    }
}

TEST_CASE("grid: axis nodes carry the covered fraction of each cell", "[grid]") {
    const Grid g = grid_2d(20, 10, 0.1, 4);
    // [0, 0.35] um over e positions (offset 0) at x = 0, 0.1, 0.2, ... (index 4 + x/dx),
    // windows x +- 0.05: node 4 (x = 0) half covered, nodes 5, 6, 7 whole, node 8 (window
    // [0.35, 0.45]) not at all.
    const auto nodes = g.axis_nodes(0, 0.35, 0.0, 0.0);  // reversed interval
    REQUIRE(nodes.size() == 4);
    CHECK(nodes[0].index == 4);
    CHECK(nodes[0].frac == Approx(0.5));
    CHECK(nodes[1].frac == Approx(1.0));
    CHECK(nodes[3].index == 7);
    CHECK(nodes[3].frac == Approx(1.0));
    CHECK(nodes[3].pos_um == Approx(0.3));
    double total = 0;
    for (const auto& nd : nodes) total += nd.frac * g.dx_um;
    CHECK(total == Approx(0.35));  // the interval's length
    // Zero length: the nearest node, whole.
    const auto point = g.axis_nodes(1, 0.26, 0.26, 0.5);
    REQUIRE(point.size() == 1);
    CHECK(point[0].index == g.nearest_index(1, 0.26, 0.5));
    CHECK(point[0].index == 6);  // (0.26 / 0.1 + 4 - 0.5) = 6.1
    CHECK(point[0].frac == 1.0);
}

TEST_CASE("grid: a periodic axis wraps nodes and indices", "[grid]") {
    Grid g = grid_2d(10, 10, 0.1, 0);
    g.boundary = {BoundaryKind::Periodic, BoundaryKind::Pml, BoundaryKind::Periodic};
    CHECK(g.wrap_or_clamp(0, -1) == 9);
    CHECK(g.wrap_or_clamp(0, 23) == 3);
    CHECK(g.wrap_or_clamp(1, -1) == 0);
    CHECK(g.wrap_or_clamp(1, 23) == 9);
    // [0.9, 1.0] on the periodic axis of length 1.0: node 9 (x = 0.9) is half covered, and
    // node 0 (x = 0, seen again at x = 1.0 across the wrap) the other half.
    const auto nodes = g.axis_nodes(0, 0.9, 1.0, 0.0);
    std::set<std::int64_t> idx;
    double total = 0;
    for (const auto& nd : nodes) idx.insert(nd.index), total += nd.frac * g.dx_um;
    CHECK(idx == std::set<std::int64_t>{0, 9});
    CHECK(total == Approx(0.1));
}

TEST_CASE("grid: a plane in 3D is the product of its two in-plane axes", "[grid]") {
    Grid g;
    g.n = {30, 20, 16};
    g.dx_um = 0.05;
    g.pml_lo = g.pml_hi = {5, 5, 4};
    // A z-normal plane at z = 0.2 um covering x in [0.1, 0.4], y in [0.0, 0.25].
    const Box3 plane{{0.1, 0.0, 0.2}, {0.4, 0.25, 0.2}};
    CHECK(plane.flat_axes() == 1);
    const auto nodes = g.box_nodes(plane, Component::Ex);
    const auto nx = g.axis_nodes(0, 0.1, 0.4, 0.5).size(), ny = g.axis_nodes(1, 0.0, 0.25, 0.0).size();
    REQUIRE(nodes.size() == nx * ny);
    double area = 0;
    for (const auto& nd : nodes) {
        CHECK(nd.ijk[2] == g.nearest_index(2, 0.2, 0.0));
        CHECK(nd.cell == g.flat(nd.ijk[0], nd.ijk[1], nd.ijk[2]));
        area += nd.weight * g.dx_um * g.dx_um;
    }
    CHECK(area == Approx(0.3 * 0.25));
    // The faces of a box: six planes in 3D, each flat along its own axis.
    const auto faces = g.box_faces(Box3{{0, 0, 0}, {0.3, 0.2, 0.1}});
    REQUIRE(faces.size() == 6);
    for (int f = 0; f < 6; ++f) {
        CHECK(faces[f].flat_axes() == 1);
        CHECK(faces[f].lo[f / 2] == (f % 2 ? (f / 2 == 0 ? 0.3 : f / 2 == 1 ? 0.2 : 0.1) : 0.0));
    }
    CHECK(grid_2d(10, 10, 0.1, 0).box_faces(Box3{{0, 0, 0}, {0.5, 0.5, 0}}).size() == 4);
}

TEST_CASE("grid: the nodes of a 2D line equal the compiler's flux-line samples", "[grid]") {
    // A y-normal flux line as compile_project lays it out today (E samples at the e
    // positions along x with their covered fraction in w0): box_nodes of the same line
    // must give the same cells and weights, so the compiler can use it unchanged.
    Project p;
    p.name = "grid";
    p.domain.size = {2.0, 1.5, 0};
    p.domain.cell_size = 0.05;
    p.domain.pml.cells = 8;
    p.run.spectrum.points = 3;
    Source s;
    s.name = "src";
    s.type = SourceType::Point;
    s.at = {0.5, 0.5};
    p.sources.push_back(s);
    Monitor m;
    m.name = "T";
    m.type = MonitorType::Flux;
    m.from = {0.23, 1.1};
    m.to = {1.61, 1.1};
    m.direction = "+y";
    p.monitors.push_back(m);
    const CompiledProject cp = compile_project(p, "grid.glproj");
    REQUIRE(cp.monitors.size() == 1);
    const DftSet& e = cp.scene.dft_sets.at(cp.monitors[0].flux_terms.at(0).e_set);
    const Grid g = cp.scene.grid();
    CHECK(g.n[0] == cp.scene.nx);
    CHECK(g.n[1] == cp.scene.ny);
    CHECK(g.dimensions() == 2);
    const auto nodes = g.box_nodes(Box3{{0.23, 1.1, 0}, {1.61, 1.1, 0}}, e.component);
    REQUIRE(nodes.size() == e.cell0.size());
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        CHECK(nodes[k].cell == e.cell0[k]);
        CHECK(nodes[k].weight == e.w0[k]);
    }
}

TEST_CASE("permittivity_picture: Ez's entry in TMz, the mean of Ex and Ey in TEz", "[grid]") {
    Scene sc;
    sc.nx = 3;
    sc.ny = 2;
    sc.table = {EUpdateCoeffs{}, EUpdateCoeffs{}, EUpdateCoeffs{}};
    sc.table[0].eps_r = 1.0;
    sc.table[1].eps_r = 4.0;
    sc.table[2].eps_r = 12.0;
    sc.polarization = Polarization::TMz;
    sc.material_index[2] = {0, 1, 2, 2, 1, 0};
    double top = 0;
    const auto tm = permittivity_picture(sc, &top);
    CHECK(tm == std::vector<double>{1, 4, 12, 12, 4, 1});
    CHECK(top == 12.0);
    sc.polarization = Polarization::TEz;
    sc.material_index[2].clear();
    sc.material_index[0] = {0, 1, 2, 0, 0, 0};
    sc.material_index[1] = {1, 1, 1, 2, 0, 0};
    const auto te = permittivity_picture(sc, &top);
    CHECK(te == std::vector<double>{2.5, 4, 8, 6.5, 1, 1});
    CHECK(top == 8.0);
    sc.material_index[1].clear();  // a map missing: vacuum, eps_max at least 1
    CHECK(permittivity_picture(sc, &top) == std::vector<double>(6, 1.0));
    CHECK(top == 1.0);
}
