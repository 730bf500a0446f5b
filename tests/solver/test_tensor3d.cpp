// The 3D sub-pixel tensor (scene.hpp "Anisotropic cells", 3D: the xy, xz and yz
// off-diagonal entries of the Farjadpour inverse tensor as couplings of Ex, Ey and Ez):
// - the entries at a sphere's cut cubes against n_d n_e (<1/eps> - 1/<eps>), n radial;
// - a z-invariant structure compiles to the 2D TEz couplings (Ex-Ey), with no Ez coupling,
//   and the 3D engine with nz = 1 and periodic z steps it exactly as the 2D TEz engine;
// - an eps = 12 sphere in a PEC box: the discrete energy of random fields stays bounded
//   over 1e4 steps with the couplings, and the same check catches couplings made
//   indefinite (scaled by 12).
// The accuracy gain (second-order convergence of a sphere's Mie cross-section, which the
// diagonal entries alone limit to about first order) is measured by test_mie3d.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/geometry.hpp"
#include "golightly/grid.hpp"
#include "golightly/units.hpp"

using namespace golightly;

namespace {

/// An empty project of `dims` dimensions with the materials "air" (background, eps 1) and
/// "core" (eps `eps`), one layer "core" of material core without shapes, cells dx um,
/// 8 PML cells where a face is pml, Courant 0.5, float64 on the CPU.
Project core_project(int dims, Vec3 size, double dx, double eps, std::array<BoundaryKind, 3> b) {
    Project p;
    p.name = "tensor3d";
    p.domain.dimensions = dims;
    p.domain.size = {size.x, size.y, size.z};
    p.domain.cell_size = dx;
    p.domain.polarization = Polarization::TEz;
    p.domain.boundaries = {b[0], b[1], b[2]};
    p.domain.pml.cells = 8;
    p.domain.background = "air";
    p.run.courant = 0.5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    Material air;
    air.id = "air";
    air.epsilon_inf = 1;
    Material core;
    core.id = "core";
    core.epsilon_inf = eps;
    p.materials = {air, core};
    Layer l;
    l.name = "core";
    l.material = "core";
    p.layers.push_back(l);
    return p;
}

/// A 3D project: a `sphere` of eps `eps` and radius r (um) centred at c in a cube of side L,
/// all faces `b`, no sources or monitors.
Project sphere_project(double L, double dx, Vec3 c, double r, double eps, BoundaryKind b) {
    Project p = core_project(3, {L, L, L}, dx, eps, {b, b, b});
    Shape s;
    s.type = ShapeType::Sphere;
    s.center_3d = c;
    s.radius = r;
    p.layers[0].shapes.push_back(s);
    return p;
}

/// A disc (ellipse of equal radii, extruded without z limits) of eps `eps` in a square of
/// side L (x, y: PML of 8 cells); 2D TEz, or 3D with one cell of periodic z.
Project disc_project(double L, double dx, Vec2 c, double r, double eps, int dims) {
    Project p = core_project(dims, {L, L, dims == 3 ? dx : 0.0}, dx, eps,
                             {BoundaryKind::Pml, BoundaryKind::Pml, BoundaryKind::Periodic});
    Shape s;
    s.type = ShapeType::Ellipse;
    s.center = c;
    s.radii = {r, r};
    p.layers[0].shapes.push_back(s);
    return p;
}

std::vector<double> random_field(std::size_t n, std::uint64_t seed) {
    std::vector<double> v(n);
    for (double& x : v) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        x = double(seed >> 11) / double(1ULL << 53) * 2 - 1;
    }
    return v;
}

}  // namespace

// Farjadpour et al. (2006) eq. 1 in 3D: at a cube cut by a sphere the row of E_d holds
// (eps^-1)_de = n_d n_e (a - b), a = <1/eps>, b = 1/<eps>, n the radial direction at the cube
// (the cube integral of grad eps; curvature moves it by O(dx / r); average_medium_3d takes
// its x, y parts from a z quadrature of the 2D section normals, rough near the z poles).
TEST_CASE("3D sub-pixel tensor: off-diagonal entries follow the sphere's normal", "[physics][subpixel][3d]") {
    const double r = 0.5, eps = 3.0, dx = r / 20, L = 1.4;
    const Vec3 c{0.7123, 0.6829, 0.7031};
    const Project p = sphere_project(L, dx, c, r, eps, BoundaryKind::Pec);
    for (int d = 0; d < 3; ++d) {
        const Component comp = static_cast<Component>(d);
        SampleGrid3 g;
        g.nx = g.ny = g.nz = int(L / dx);
        g.dx_um = dx;
        g.x0_um = d == 0 ? 0.5 * dx : 0.0;  // E_d-like samples
        g.y0_um = d == 1 ? 0.5 * dx : 0.0;
        g.z0_um = d == 2 ? 0.5 * dx : 0.0;
        const AveragedMedium m = average_medium_3d(p, g, comp, true, false);
        const AveragedMedium st = average_medium_3d(p, g, comp, false, false);
        CHECK(st.inv_eps_offdiag_3d.empty());
        const Coverage cov = compute_coverage_3d(p, g, false);
        const int core = cov.material_ids[0] == "core" ? 0 : 1;
        const int e1 = d == 0 ? 1 : 0, e2 = d == 2 ? 1 : 2;
        int checked = 0;
        double worst = 0, sum2 = 0;
        std::vector<double> devs;
        std::size_t prev = 0;
        bool sorted = true;
        for (std::size_t q = 0; q < m.inv_eps_offdiag_3d.size(); ++q) {
            const auto& od = m.inv_eps_offdiag_3d[q];
            if (q > 0) sorted = sorted && od.sample > prev;
            prev = od.sample;
            const double f = cov.fraction[core][od.sample];
            REQUIRE(f > 0.0);
            REQUIRE(f < 1.0);
            if (f <= 0.02 || f >= 0.98) continue;
            const int i = int(od.sample % std::size_t(g.nx)), j = int((od.sample / std::size_t(g.nx)) % std::size_t(g.ny)),
                      k = int(od.sample / (std::size_t(g.nx) * std::size_t(g.ny)));
            const double x[3] = {g.x0_um + i * dx - c.x, g.y0_um + j * dx - c.y, g.z0_um + k * dx - c.z};
            const double rr = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            const double a = f / eps + (1 - f), b = 1.0 / (f * eps + (1 - f));
            const double o1 = x[d] * x[e1] / (rr * rr) * (a - b), o2 = x[d] * x[e2] / (rr * rr) * (a - b);
            const double dev = std::max(std::abs(od.off[0] - o1), std::abs(od.off[1] - o2)) / (a - b);
            worst = std::max(worst, dev);
            devs.push_back(dev);
            sum2 += dev * dev;
            ++checked;
        }
        // every cut cube off the axis planes through the centre has an entry
        std::size_t cut = 0;
        for (std::size_t s = 0; s < cov.fraction[core].size(); ++s) cut += cov.fraction[core][s] > 0.02 && cov.fraction[core][s] < 0.98;
        std::sort(devs.begin(), devs.end());
        const double p99 = devs.empty() ? 1.0 : devs[devs.size() * 99 / 100];
        std::printf("[tensor3d] E%c: %zu entries, %zu cut cubes, %d checked; deviation from the radial normal's "
                    "entries in units of (a - b): rms %.4f, 99th percentile %.4f, worst %.3f\n",
                    "xyz"[d], m.inv_eps_offdiag_3d.size(), cut, checked, std::sqrt(sum2 / std::max(1, checked)), p99,
                    worst);
        CHECK(sorted);
        CHECK(checked > 0.9 * double(cut));
        CHECK(checked > 2000);
        // the cube normal comes from the z quadrature of the section normals: exact enough
        // almost everywhere; near the poles along z (sections of a few cells, kinked z
        // profile) the normal's x, y parts can be off by a few tenths of (a - b) on a few
        // cubes (O(1 / dx) of O(1 / dx^2) cut cubes, a second-order contribution)
        CHECK(std::sqrt(sum2 / std::max(1, checked)) < 0.015);
        CHECK(p99 < 0.06);
        CHECK(worst < 0.25);
    }
}

// A z-invariant structure: the 3D compile's Ex and Ey couplings are the 2D TEz compile's
// (same sites, the 2D slots in group 0, group 1 (Ez) empty), there is no Ez coupling, and
// the 3D engine with nz = 1 and periodic z steps Ex, Ey, Hz as the 2D TEz engine does.
TEST_CASE("3D sub-pixel tensor: a z-invariant disc compiles and runs as the 2D TEz tensor", "[physics][subpixel][3d]") {
    const double L = 1.6, dx = 0.05, r = 0.43;
    const Vec2 c{0.8123, 0.7829};
    const CompiledProject c2 = compile_project(disc_project(L, dx, c, r, 12.0, 2), "disc2d.glproj");
    const CompiledProject c3 = compile_project(disc_project(L, dx, c, r, 12.0, 3), "disc3d.glproj");
    const Scene& s2 = c2.scene;
    const Scene& s3 = c3.scene;
    REQUIRE(s3.dimensions == 3);
    REQUIRE(s3.nz == 1);
    REQUIRE(s2.cells() == s3.cells());
    REQUIRE(s2.is_anisotropic());
    CHECK(s3.anisotropic.cells[2].empty());
    double worst = 0;
    for (int comp = 0; comp < 2; ++comp) {
        const auto& a2 = s2.anisotropic;
        const auto& a3 = s3.anisotropic;
        REQUIRE(a2.cells[comp] == a3.cells[comp]);
        const std::size_t m = a2.cells[comp].size();
        REQUIRE(a3.neighbour[comp].size() == 8 * m);
        for (std::size_t k = 0; k < m; ++k)
            for (int q = 0; q < 4; ++q) {
                CHECK(a3.neighbour[comp][8 * k + q] == a2.neighbour[comp][4 * k + q]);
                CHECK(a3.neighbour[comp][8 * k + 4 + q] == -1);
                const double w2 = a2.weight[comp][4 * k + q], w3 = a3.weight[comp][8 * k + q];
                worst = std::max(worst, std::abs(w3 - w2) / std::max(1e-300, std::abs(w2)));
            }
    }
    std::printf("[tensor3d] z-invariant disc: %zu Ex + %zu Ey coupled sites, weights 3D vs 2D within %.2e\n",
                s2.anisotropic.cells[0].size(), s2.anisotropic.cells[1].size(), worst);
    CHECK(worst < 1e-9);

    auto e2 = make_cpu_engine(s2, Precision::Float64, 1);
    auto e3 = make_cpu_engine(s3, Precision::Float64, 1);
    for (Component comp : {Component::Ex, Component::Ey, Component::Hz}) {
        const auto v = random_field(s2.cells(), 7 + int(comp));
        e2->set_field(comp, v);
        e3->set_field(comp, v);
    }
    e2->step(300);
    e3->step(300);
    for (Component comp : {Component::Ex, Component::Ey, Component::Hz}) {
        std::vector<double> a, b;
        e2->get_field(comp, a);
        e3->get_field(comp, b);
        double d = 0, mx = 0;
        for (std::size_t k = 0; k < a.size(); ++k) {
            d = std::max(d, std::abs(a[k] - b[k]));
            mx = std::max(mx, std::abs(a[k]));
        }
        std::printf("[tensor3d] nz = 1 vs 2D TEz with the tensor, %s after 300 steps: max diff %.2e of %.2e\n",
                    component_name(comp), d, mx);
        CHECK(mx > 0.01);
        CHECK(d <= 1e-9 * mx);
    }
}

namespace {
/// Energy of random fields in a PEC box holding an eps = 12 sphere (radius 0.5 um, centre off
/// the grid's symmetry), with the sphere's couplings scaled by `scale`, over `steps` steps:
/// {initial, max over the first tenth, max over the last tenth, peak}.
std::array<double, 4> sphere_energy(double cells_per_radius, double scale, int steps, std::size_t* sites = nullptr) {
    const double r = 0.5;
    const Project p = sphere_project(1.4, r / cells_per_radius, {0.7123, 0.6829, 0.7031}, r, 12.0, BoundaryKind::Pec);
    CompiledProject cp = compile_project(p, "sphere.glproj");
    Scene& s = cp.scene;
    REQUIRE(s.is_anisotropic());
    REQUIRE(!s.anisotropic.cells[2].empty());
    for (const std::string& w : cp.warnings) CHECK(w.find("damped") == std::string::npos);
    if (sites) *sites = s.anisotropic.cells[0].size() + s.anisotropic.cells[1].size() + s.anisotropic.cells[2].size();
    for (int c = 0; c < 3; ++c)
        for (double& w : s.anisotropic.weight[c]) w *= scale;
    auto e = make_cpu_engine(s, Precision::Float64, 1);
    for (int c = 0; c < 6; ++c) e->set_field(static_cast<Component>(c), random_field(s.cells(), 100 + c));
    const double e0 = e->field_energy();
    double early = 0, late = 0, peak = 0;
    const int chunks = 100, per = steps / chunks;
    for (int k = 0; k < chunks; ++k) {
        e->step(per);
        const double en = e->field_energy();
        if (!std::isfinite(en)) return {e0, early, late, std::numeric_limits<double>::infinity()};
        peak = std::max(peak, en);
        if (k < chunks / 10) early = std::max(early, en);
        if (k >= chunks - chunks / 10) late = std::max(late, en);
    }
    return {e0, early, late, peak};
}
}  // namespace

TEST_CASE("3D sub-pixel tensor: energy stays bounded over 1e4 steps (eps 12 sphere, PEC box)",
          "[physics][subpixel][3d][slow]") {
    for (double cpr : {4.3, 7.7}) {
        std::size_t sites = 0;
        const auto en = sphere_energy(cpr, 1.0, 10000, &sites);
        std::printf("[tensor3d] R/dx = %.1f: %zu coupled sites; energy initial %.4e, early max %.4e, late max %.4e, "
                    "peak %.4e\n",
                    cpr, sites, en[0], en[1], en[2], en[3]);
        CHECK(en[3] < 3 * en[0]);
        CHECK(en[2] <= 1.05 * en[1]);
    }
}

// The check above can fail: couplings scaled by 12 (K no longer positive definite) grow.
TEST_CASE("3D sub-pixel tensor: an indefinite coupling is caught by the energy check", "[physics][subpixel][3d]") {
    const auto en = sphere_energy(4.3, 12.0, 10000);
    std::printf("[tensor3d] couplings x12: energy %.3e -> peak %.3e\n", en[0], en[3]);
    CHECK(!(en[3] < 3 * en[0]));
}
