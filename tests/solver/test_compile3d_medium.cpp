// 3D projects with geometry (compile_3d.cpp "Medium": average_medium_3d per E component):
// a box layer's permittivity on each component's nodes (inside, outside, half-covered cubes
// normal and tangential to a face, PML continuation). The sphere shape through run_project
// is in test_mie3d.cpp.
#include <catch2/catch.hpp>

#include <cmath>

#include "golightly/compile.hpp"
#include "test_3d_projects.hpp"

using namespace golightly;
using namespace golightly::test3d;

TEST_CASE("compile 3D: a box layer's permittivity on the E nodes, continued through the PML", "[compile3d][3d]") {
    Project p = vacuum_project(1.0, 1.0, 1.0, 0.05, 6, 0.8, 1.2, 3);
    Material m;
    m.id = "si";
    m.epsilon_inf = 12.0;
    p.materials.push_back(m);
    Layer l;
    l.name = "block";
    l.material = "si";
    Shape b;
    b.type = ShapeType::Box;
    b.box_min = {0.225, 0.3, 0.0};  // touches z = 0: continues into the lower z PML
    b.box_max = {0.625, 0.7, 0.4};
    l.shapes.push_back(b);
    p.layers.push_back(l);
    const CompiledProject c = compile_project(p, "t.glproj");
    const Scene& s = c.scene;
    const Grid g = s.grid();
    auto eps = [&](Component comp, int i, int j, int k) {
        return s.table[s.material_index[int(comp)][std::size_t(g.flat(i + 6, j + 6, k + 6))]].eps_r;
    };
    // well inside (x 0.4, y 0.5, z 0.2) and well outside (x 0.8)
    for (Component comp : {Component::Ex, Component::Ey, Component::Ez}) {
        CHECK(eps(comp, 8, 10, 4) == Approx(12.0));
        CHECK(eps(comp, 16, 10, 4) == Approx(1.0));
        CHECK(eps(comp, 8, 10, -3) == Approx(12.0));  // the PML below z = 0 continues the block
    }
    // half-covered cubes (Farjadpour diagonal): Ex at x = 0.225 is normal to the x face:
    // harmonic mean; Ez at y = 0.3 is tangential to the y face: arithmetic mean
    CHECK(eps(Component::Ex, 4, 10, 4) == Approx(1.0 / (0.5 / 12.0 + 0.5)).epsilon(1e-3));
    CHECK(eps(Component::Ez, 8, 6, 4) == Approx(6.5).epsilon(1e-3));
    CHECK(eps(Component::Ey, 4, 10, 4) == Approx(1.0));  // Ey at x = 0.2: its cube ends at the face
}
