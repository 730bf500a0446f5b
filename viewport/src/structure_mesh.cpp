#include "structure_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "golightly/geometry.hpp"
#include "golightly/step_import.hpp"

namespace golightly::viewport {

namespace {

double cross(Vec2 o, Vec2 a, Vec2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

double ring_area(const std::vector<Vec2>& r) {
    double a = 0;
    for (size_t i = 0; i < r.size(); ++i) {
        const Vec2 p = r[i], q = r[(i + 1) % r.size()];
        a += p.x * q.y - q.x * p.y;
    }
    return 0.5 * a;
}

bool point_in_ring(Vec2 p, const std::vector<Vec2>& r) {
    bool in = false;
    for (size_t i = 0, j = r.size() - 1; i < r.size(); j = i++) {
        if (((r[i].y > p.y) != (r[j].y > p.y)) &&
            (p.x < (r[j].x - r[i].x) * (p.y - r[i].y) / (r[j].y - r[i].y) + r[i].x))
            in = !in;
    }
    return in;
}

bool segments_cross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0)) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0;
}

/// Merges the holes into the outer ring with zero-width bridges (Eberly, "Triangulation by
/// ear clipping", sec. 3): from each hole's rightmost vertex to the nearest outer vertex the
/// bridge to which crosses no edge. Holes are taken rightmost first.
std::vector<Vec2> bridge_holes(std::vector<Vec2> outer, std::vector<std::vector<Vec2>> holes) {
    std::sort(holes.begin(), holes.end(), [](const auto& a, const auto& b) {
        auto mx = [](const std::vector<Vec2>& r) {
            double m = -std::numeric_limits<double>::infinity();
            for (auto v : r) m = std::max(m, v.x);
            return m;
        };
        return mx(a) > mx(b);
    });
    for (const auto& hole : holes) {
        if (hole.size() < 3) continue;
        size_t hm = 0;
        for (size_t i = 1; i < hole.size(); ++i)
            if (hole[i].x > hole[hm].x) hm = i;
        const Vec2 m = hole[hm];
        size_t best = 0;
        double bestD = std::numeric_limits<double>::infinity();
        bool found = false;
        for (int pass = 0; pass < 2 && !found; ++pass)
            for (size_t i = 0; i < outer.size(); ++i) {
                const Vec2 v = outer[i];
                const double d = (v.x - m.x) * (v.x - m.x) + (v.y - m.y) * (v.y - m.y);
                if (d >= bestD) continue;
                bool clear = true;
                if (pass == 0) {  // second pass: the nearest vertex, visible or not
                    for (size_t k = 0; k < outer.size() && clear; ++k)
                        clear = !segments_cross(m, v, outer[k], outer[(k + 1) % outer.size()]);
                    for (size_t k = 0; k < hole.size() && clear; ++k)
                        clear = !segments_cross(m, v, hole[k], hole[(k + 1) % hole.size()]);
                }
                if (clear) {
                    best = i;
                    bestD = d;
                    found = true;
                }
            }
        std::vector<Vec2> merged;
        merged.reserve(outer.size() + hole.size() + 2);
        merged.insert(merged.end(), outer.begin(), outer.begin() + long(best) + 1);
        for (size_t k = 0; k <= hole.size(); ++k) merged.push_back(hole[(hm + k) % hole.size()]);
        merged.push_back(outer[best]);
        merged.insert(merged.end(), outer.begin() + long(best) + 1, outer.end());
        outer = std::move(merged);
    }
    return outer;
}

/// Ear clipping of one simple CCW polygon; indices are offset by `base`.
void ear_clip(const std::vector<Vec2>& poly, int base, std::vector<std::array<int, 3>>& out) {
    std::vector<int> idx(poly.size());
    for (size_t i = 0; i < poly.size(); ++i) idx[i] = int(i);
    auto inside = [&](Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
        return cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
    };
    size_t guard = 0;
    while (idx.size() > 3 && guard < 4 * poly.size() * poly.size() + 16) {
        bool clipped = false;
        for (size_t k = 0; k < idx.size(); ++k, ++guard) {
            const int ia = idx[(k + idx.size() - 1) % idx.size()], ib = idx[k], ic = idx[(k + 1) % idx.size()];
            const Vec2 a = poly[size_t(ia)], b = poly[size_t(ib)], c = poly[size_t(ic)];
            if (cross(a, b, c) <= 0) continue;  // reflex or degenerate
            bool ear = true;
            for (int j : idx) {
                if (j == ia || j == ib || j == ic) continue;
                const Vec2 p = poly[size_t(j)];
                if ((p.x == a.x && p.y == a.y) || (p.x == b.x && p.y == b.y) || (p.x == c.x && p.y == c.y)) continue;
                if (inside(p, a, b, c)) {
                    ear = false;
                    break;
                }
            }
            if (!ear) continue;
            out.push_back({base + ia, base + ib, base + ic});
            idx.erase(idx.begin() + long(k));
            clipped = true;
            break;
        }
        if (!clipped) break;
    }
    // what is left (3 vertices, or a knot ear clipping could not untie): a fan
    for (size_t k = 1; k + 1 < idx.size(); ++k) out.push_back({base + idx[0], base + idx[k], base + idx[k + 1]});
}

std::array<float, 4> rgba(std::array<float, 3> c, float a = 1.f) { return {c[0], c[1], c[2], a}; }

struct Builder {
    StructureMesh m;
    void tri(Vec3 a, Vec3 b, Vec3 c, std::array<float, 4> col, std::vector<MeshVertex>* into = nullptr) {
        const double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z, vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
        double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
        if (len > 0) {
            nx /= len;
            ny /= len;
            nz /= len;
        } else {
            nz = 1;
        }
        auto& dst = into ? *into : m.triangles;
        for (const Vec3& p : {a, b, c})
            dst.push_back({{float(p.x), float(p.y), float(p.z)}, {float(nx), float(ny), float(nz)}, {col[0], col[1], col[2], col[3]}});
    }
    void line(Vec3 a, Vec3 b, std::array<float, 4> col) {
        for (const Vec3& p : {a, b}) m.lines.push_back({{float(p.x), float(p.y), float(p.z)}, {0, 0, 1}, {col[0], col[1], col[2], col[3]}});
    }
    void box_lines(Vec3 lo, Vec3 hi, std::array<float, 4> col) {
        const Vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z},
                           {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
        const int e[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
        for (auto& k : e) line(c[k[0]], c[k[1]], col);
    }
    void box_faces(Vec3 lo, Vec3 hi, std::array<float, 4> col, std::vector<MeshVertex>* into = nullptr) {
        const Vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z},
                           {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
        const int f[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {3, 0, 4, 7}};
        for (auto& q : f) {
            tri(c[q[0]], c[q[1]], c[q[2]], col, into);
            tri(c[q[0]], c[q[2]], c[q[3]], col, into);
        }
    }
    void cross_mark(Vec3 p, double r, std::array<float, 4> col) {
        line({p.x - r, p.y, p.z}, {p.x + r, p.y, p.z}, col);
        line({p.x, p.y - r, p.z}, {p.x, p.y + r, p.z}, col);
        line({p.x, p.y, p.z - r}, {p.x, p.y, p.z + r}, col);
    }
    /// A point dipole of component `comp`: an arrow of length 2r through `p` along the
    /// component's axis, a four-line head at +r, and for a magnetic dipole (Hx, Hy, Hz) a
    /// ring of radius r/2 around the axis (the current loop); the label at the tip.
    void dipole_mark(Vec3 p, double r, Component comp, std::array<float, 4> col) {
        const int a = int(comp) % 3, u = (a + 1) % 3, v = (a + 2) % 3;
        Vec3 tail = p, tip = p;
        tail[a] -= r;
        tip[a] += r;
        line(tail, tip, col);
        for (int k = 0; k < 4; ++k) {
            Vec3 h = tip;
            h[a] -= 0.35 * r;
            (k < 2 ? h[u] : h[v]) += (k % 2 ? -0.18 : 0.18) * r;
            line(tip, h, col);
        }
        if (int(comp) >= 3) {
            const int n = 16;
            for (int k = 0; k < n; ++k) {
                Vec3 q0 = p, q1 = p;
                const double t0 = 2 * M_PI * k / n, t1 = 2 * M_PI * (k + 1) / n;
                q0[u] += 0.5 * r * std::cos(t0);
                q0[v] += 0.5 * r * std::sin(t0);
                q1[u] += 0.5 * r * std::cos(t1);
                q1[v] += 0.5 * r * std::sin(t1);
                line(q0, q1, col);
            }
        }
        m.labels.push_back({{float(tip.x), float(tip.y), float(tip.z)}, component_name(comp), {col[0], col[1], col[2], col[3]}});
    }
    /// A plane (one zero entry of size) as a rectangle outline.
    void plane_lines(Vec3 c, Vec3 s, std::array<float, 4> col) {
        box_lines({c.x - s.x / 2, c.y - s.y / 2, c.z - s.z / 2}, {c.x + s.x / 2, c.y + s.y / 2, c.z + s.z / 2}, col);
    }
};

Box3 bounds_of(const std::vector<MeshVertex>& v, size_t from) {
    Box3 b{{1e300, 1e300, 1e300}, {-1e300, -1e300, -1e300}};
    for (size_t k = from; k < v.size(); ++k)
        for (int a = 0; a < 3; ++a) {
            b.lo[a] = std::min(b.lo[a], double(v[k].p[a]));
            b.hi[a] = std::max(b.hi[a], double(v[k].p[a]));
        }
    return b;
}

/// Offsets a ring (filled side on the left of each edge) by d into the fill (mitred).
std::vector<Vec2> inset_ring(const std::vector<Vec2>& r, double d) {
    const size_t n = r.size();
    std::vector<Vec2> out(n);
    for (size_t i = 0; i < n; ++i) {
        const Vec2 p = r[(i + n - 1) % n], q = r[i], s = r[(i + 1) % n];
        auto leftNormal = [](Vec2 a, Vec2 b) {
            const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
            return len > 0 ? Vec2{-dy / len, dx / len} : Vec2{0, 0};
        };
        const Vec2 n1 = leftNormal(p, q), n2 = leftNormal(q, s);
        const double denom = std::max(0.2, 1 + n1.x * n2.x + n1.y * n2.y);
        out[i] = {q.x + d * (n1.x + n2.x) / denom, q.y + d * (n1.y + n2.y) / denom};
    }
    return out;
}

}  // namespace

std::array<float, 3> material_rgb(const Project& p, const std::string& id) {
    if (const Material* m = p.find_material(id); m && m->color.size() == 7 && m->color[0] == '#') {
        const unsigned v = unsigned(std::stoul(m->color.substr(1), nullptr, 16));
        return {float((v >> 16) & 255) / 255.f, float((v >> 8) & 255) / 255.f, float(v & 255) / 255.f};
    }
    if (id == "air") return {0.92f, 0.94f, 0.96f};
    const size_t h = std::hash<std::string>{}(id);
    const float hue = float(h % 360) / 60.f;  // HSV(h, 0.55, 0.78)
    const float v = 0.78f, s = 0.55f, c = v * s, x = c * (1 - std::fabs(std::fmod(hue, 2.f) - 1)), mm = v - c;
    const int k = int(hue);
    float r = 0, g = 0, b = 0;
    if (k == 0) r = c, g = x; else if (k == 1) r = x, g = c; else if (k == 2) g = c, b = x;
    else if (k == 3) g = x, b = c; else if (k == 4) r = x, b = c; else r = c, b = x;
    return {r + mm, g + mm, b + mm};
}

std::vector<std::array<int, 3>> triangulate_outline(const std::vector<std::vector<Vec2>>& outline, std::vector<Vec2>& points) {
    std::vector<std::array<int, 3>> tris;
    points.clear();
    std::vector<std::vector<Vec2>> outers, holes;
    for (const auto& r : outline) {
        if (r.size() < 3) continue;
        (ring_area(r) >= 0 ? outers : holes).push_back(r);
    }
    for (const auto& outer : outers) {
        std::vector<std::vector<Vec2>> mine;
        for (const auto& h : holes)
            if (point_in_ring(h.front(), outer)) mine.push_back(h);
        const std::vector<Vec2> poly = bridge_holes(outer, mine);
        const int base = int(points.size());
        points.insert(points.end(), poly.begin(), poly.end());
        ear_clip(poly, base, tris);
    }
    return tris;
}

StructureMesh build_structure_mesh(const Project& p, const StructureMeshOptions& o) {
    Builder b;
    const double lx = p.domain.size[0], ly = p.domain.size[1], lz = p.domain.size[2] > 0 ? p.domain.size[2] : 1.0;
    const double diag = std::sqrt(lx * lx + ly * ly + lz * lz);
    const double tol = std::max(1e-4, 2e-3 * diag);
    const std::array<float, 4> selColor{1.f, 0.85f, 0.1f, 1.f};
    for (size_t li = 0; li < p.layers.size(); ++li) {
        const Layer& L = p.layers[li];
        if (!L.visible) continue;
        const std::array<double, 2> z = L.z ? *L.z : std::array<double, 2>{0.0, lz};
        const auto col = rgba(material_rgb(p, L.material), L.reference_only ? 0.999f : 1.f);
        const double inset = (z[1] - z[0]) * std::tan(L.sidewall_angle_deg * M_PI / 180);
        for (size_t si = 0; si < L.shapes.size(); ++si) {
            const Shape& s = L.shapes[si];
            const size_t first = b.m.triangles.size();
            MeshPick pick;
            bool hasBounds = false;
            pick.kind = 1;
            pick.layer = int(li);
            pick.index = int(si);
            try {
                switch (s.type) {
                case ShapeType::Sphere: {
                    const int nu = 32, nv = 18;
                    auto at = [&](int i, int j) {
                        const double th = M_PI * j / nv, ph = 2 * M_PI * i / nu;
                        return Vec3{s.center_3d.x + s.radius * std::sin(th) * std::cos(ph),
                                    s.center_3d.y + s.radius * std::sin(th) * std::sin(ph), s.center_3d.z + s.radius * std::cos(th)};
                    };
                    for (int j = 0; j < nv; ++j)
                        for (int i = 0; i < nu; ++i) {
                            const Vec3 a = at(i, j), c = at(i + 1, j), d = at(i + 1, j + 1), e = at(i, j + 1);
                            if (j > 0) b.tri(a, e, c, col);
                            if (j < nv - 1) b.tri(c, e, d, col);
                        }
                    pick.sphere = true;
                    pick.radius = s.radius;
                    break;
                }
                case ShapeType::Box: b.box_faces(s.box_min, s.box_max, col); break;
                case ShapeType::Step: {
                    const auto mesh = step_mesh(s, tol);
                    for (const auto& t : mesh->triangles)
                        b.tri(mesh->vertices[size_t(t[0])], mesh->vertices[size_t(t[1])], mesh->vertices[size_t(t[2])], col);
                    break;
                }
                case ShapeType::Raster: {  // the painted area's frame at the layer's z range
                    const Vec3 lo{s.origin.x, s.origin.y, z[0]};
                    const Vec3 hi{s.origin.x + s.width_px * s.pixel_size, s.origin.y + s.height_px * s.pixel_size, z[1]};
                    b.box_lines(lo, hi, col);
                    pick.bounds = {lo, hi};
                    hasBounds = true;
                    break;
                }
                default: {
                    const Outline outline = shape_outline(s, tol);
                    std::vector<Vec2> pts;
                    const auto tris = triangulate_outline(outline, pts);
                    // the same merged vertex list for the top cap, inset by the sidewall
                    std::vector<Vec2> top = pts;
                    if (std::abs(inset) > 0) {
                        // inset each original ring (the merged list repeats bridge vertices)
                        for (const auto& ring : outline) {
                            if (ring.size() < 3) continue;
                            const auto in = inset_ring(ring, inset);
                            for (size_t k = 0; k < pts.size(); ++k)
                                for (size_t r = 0; r < ring.size(); ++r)
                                    if (pts[k].x == ring[r].x && pts[k].y == ring[r].y) top[k] = in[r];
                        }
                    }
                    for (const auto& t : tris) {
                        auto B = [&](int i) { return Vec3{pts[size_t(i)].x, pts[size_t(i)].y, z[0]}; };
                        auto T = [&](int i) { return Vec3{top[size_t(i)].x, top[size_t(i)].y, z[1]}; };
                        b.tri(B(t[0]), B(t[2]), B(t[1]), col);
                        b.tri(T(t[0]), T(t[1]), T(t[2]), col);
                    }
                    for (const auto& ring : outline) {
                        if (ring.size() < 3) continue;
                        const auto in = std::abs(inset) > 0 ? inset_ring(ring, inset) : ring;
                        for (size_t k = 0; k < ring.size(); ++k) {
                            const size_t k1 = (k + 1) % ring.size();
                            const Vec3 a{ring[k].x, ring[k].y, z[0]}, c{ring[k1].x, ring[k1].y, z[0]};
                            const Vec3 d{in[k1].x, in[k1].y, z[1]}, e{in[k].x, in[k].y, z[1]};
                            b.tri(a, c, d, col);
                            b.tri(a, d, e, col);
                        }
                    }
                    break;
                }
                }
            } catch (const std::exception& e) {
                b.m.warnings.push_back("layer \"" + L.name + "\", shape " + std::to_string(si + 1) + ": " + e.what());
            }
            if (b.m.triangles.size() > first) {
                pick.bounds = bounds_of(b.m.triangles, first);
                hasBounds = true;
            }
            if (!hasBounds) continue;
            b.m.picks.push_back(pick);
            const bool selected = o.selected_kind == 1 && o.selected_layer == int(li) && o.selected_index == int(si);
            if (selected) b.box_lines(pick.bounds.lo, pick.bounds.hi, selColor);
        }
    }
    // the domain and the PML band
    const Vec3 dlo{0, 0, 0}, dhi{lx, ly, lz};
    b.box_lines(dlo, dhi, {0.85f, 0.85f, 0.85f, 1.f});
    Vec3 plo = dlo, phi = dhi;
    const double pw = p.domain.pml.cells * p.domain.cell_size;
    for (int a = 0; a < 3; ++a)
        if (p.domain.boundaries[size_t(a)] == BoundaryKind::Pml) {
            plo[a] -= pw;
            phi[a] += pw;
        }
    b.box_lines(plo, phi, {0.85f, 0.55f, 0.2f, 1.f});
    // Symmetry planes (domain.symmetry): the lower half of each symmetric axis is not
    // simulated (the engine mirrors it), as on the canvas. It is veiled as disjoint boxes
    // (axis k's lower half, the upper halves of the symmetric axes before it), the mirror
    // planes drawn in the parity's colour (+1 green, -1 violet), and the simulated part
    // outlined.
    {
        const double L[3] = {lx, ly, lz};
        Vec3 sim_lo = dlo;
        bool any = false;
        for (int a = 0; a < 3; ++a) {
            const int sym = p.domain.symmetry[size_t(a)];
            if (sym == 0 || (a == 2 && p.domain.dimensions != 3)) continue;
            any = true;
            Vec3 lo = sim_lo, hi = dhi;
            hi[a] = 0.5 * L[a];
            b.box_faces(lo, hi, {0.5f, 0.5f, 0.55f, 0.16f}, &b.m.translucent);
            Vec3 q[4];
            const int u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2;
            for (int k = 0; k < 4; ++k) {
                q[k] = dlo;
                q[k][a] = 0.5 * L[a];
                q[k][u] = (k == 1 || k == 2) ? dhi[u] : dlo[u];
                q[k][v] = (k >= 2) ? dhi[v] : dlo[v];
            }
            const std::array<float, 4> plane = sym > 0 ? std::array<float, 4>{0.3f, 0.75f, 0.35f, 0.3f}
                                                       : std::array<float, 4>{0.6f, 0.35f, 0.85f, 0.3f};
            b.tri(q[0], q[1], q[2], plane, &b.m.translucent);
            b.tri(q[0], q[2], q[3], plane, &b.m.translucent);
            for (int k = 0; k < 4; ++k) b.line(q[k], q[(k + 1) % 4], {plane[0], plane[1], plane[2], 1.f});
            sim_lo[a] = 0.5 * L[a];
        }
        if (any) b.box_lines(sim_lo, dhi, {0.2f, 0.7f, 0.75f, 1.f});
    }
    if (o.highlight) b.box_lines(o.highlight->lo, o.highlight->hi, {0.84f, 0.12f, 0.12f, 1.f});
    const double mark = 0.03 * diag;
    const std::array<float, 4> srcColor{1.f, 0.59f, 0.16f, 1.f}, monColor{0.24f, 0.86f, 0.43f, 1.f};
    auto addPick = [&](int kind, int index, Box3 box) {
        for (int a = 0; a < 3; ++a)
            if (box.hi[a] - box.lo[a] < mark) {  // planes and points get some thickness to be hit
                box.lo[a] -= 0.5 * mark;
                box.hi[a] += 0.5 * mark;
            }
        b.m.picks.push_back({kind, -1, index, box, false, 0});
        if (o.selected_kind == kind && o.selected_index == index) b.box_lines(box.lo, box.hi, selColor);
    };
    for (size_t i = 0; i < p.sources.size(); ++i) {
        const Source& s = p.sources[i];
        if (s.type == SourceType::Point) {
            const Vec3 at{s.at.x, s.at.y, s.at_z.value_or(0.5 * lz)};
            b.dipole_mark(at, 1.5 * mark, s.component, srcColor);
            addPick(2, int(i), {at, at});
        } else if (s.type == SourceType::Plane) {
            b.plane_lines(s.center, s.size, srcColor);
            addPick(2, int(i), {{s.center.x - s.size.x / 2, s.center.y - s.size.y / 2, s.center.z - s.size.z / 2},
                                {s.center.x + s.size.x / 2, s.center.y + s.size.y / 2, s.center.z + s.size.z / 2}});
        } else if (s.type == SourceType::Tfsf) {
            b.box_lines(s.box_min, s.box_max, srcColor);
            addPick(2, int(i), {s.box_min, s.box_max});
        } else if (s.type == SourceType::Line) {
            const Vec3 a{s.from.x, s.from.y, 0}, c{s.to.x, s.to.y, lz};
            b.box_lines(a, c, srcColor);
            addPick(2, int(i), {{std::min(a.x, c.x), std::min(a.y, c.y), 0}, {std::max(a.x, c.x), std::max(a.y, c.y), lz}});
        }
    }
    for (size_t i = 0; i < p.monitors.size(); ++i) {
        const Monitor& m = p.monitors[i];
        if (m.type == MonitorType::Flux && m.size != Vec3{}) {
            b.plane_lines(m.center, m.size, monColor);
            addPick(3, int(i), {{m.center.x - m.size.x / 2, m.center.y - m.size.y / 2, m.center.z - m.size.z / 2},
                                {m.center.x + m.size.x / 2, m.center.y + m.size.y / 2, m.center.z + m.size.z / 2}});
        } else if ((m.type == MonitorType::FluxBox || m.type == MonitorType::DftField) && m.min && m.max) {
            const Vec3 lo{m.min->x, m.min->y, m.min_z.value_or(0)}, hi{m.max->x, m.max->y, m.max_z.value_or(lz)};
            b.box_lines(lo, hi, m.type == MonitorType::DftField ? std::array<float, 4>{0.7f, 0.4f, 0.95f, 1.f} : monColor);
            addPick(3, int(i), {lo, hi});
        } else if (m.type == MonitorType::Time && m.at) {
            const Vec3 at{m.at->x, m.at->y, m.at_z.value_or(0.5 * lz)};
            b.cross_mark(at, mark, monColor);
            addPick(3, int(i), {at, at});
        }
    }
    // ports (top-level `ports`, read leniently: entries without a centre and size are
    // skipped): their plane (3D) or line (2D, spanning [0, Lz] here) outlined, pick kind 4
    if (const auto it = p.extra.find("ports"); it != p.extra.end() && it->is_array()) {
        const std::array<float, 4> portColor{0.f, 0.75f, 0.8f, 1.f};
        for (size_t i = 0; i < it->size(); ++i) {
            const Json& e = (*it)[i];
            if (!e.is_object() || !e.contains("center") || !e.contains("size") || !e["center"].is_array() ||
                !e["size"].is_array())
                continue;
            Vec3 c{0, 0, 0.5 * lz}, sz{0, 0, lz};  // 2D ports ([x, y]): the whole height
            bool ok = true;
            for (size_t a = 0; a < 3; ++a) {
                const Json& cj = e["center"];
                const Json& sj = e["size"];
                if (a < cj.size()) {
                    ok = ok && cj[a].is_number();
                    if (cj[a].is_number()) c[int(a)] = cj[a].get<double>();
                }
                if (a < sj.size()) {
                    ok = ok && sj[a].is_number();
                    if (sj[a].is_number()) sz[int(a)] = sj[a].get<double>();
                }
            }
            if (!ok) continue;
            const Vec3 lo{c.x - sz.x / 2, c.y - sz.y / 2, c.z - sz.z / 2}, hi{c.x + sz.x / 2, c.y + sz.y / 2, c.z + sz.z / 2};
            b.box_lines(lo, hi, portColor);
            addPick(4, int(i), {lo, hi});
        }
    }
    // the slice plane
    if (o.slice_normal >= 0 && o.slice_normal <= 2) {
        Vec3 lo = plo, hi = phi;
        lo[o.slice_normal] = hi[o.slice_normal] = o.slice_position;
        const std::array<float, 4> c{0.35f, 0.6f, 1.f, 0.28f};
        Vec3 q[4];
        const int u = o.slice_normal == 0 ? 1 : 0, v = o.slice_normal == 2 ? 1 : 2;
        for (int k = 0; k < 4; ++k) {
            q[k] = lo;
            q[k][u] = (k == 1 || k == 2) ? hi[u] : lo[u];
            q[k][v] = (k >= 2) ? hi[v] : lo[v];
        }
        b.tri(q[0], q[1], q[2], c, &b.m.translucent);
        b.tri(q[0], q[2], q[3], c, &b.m.translucent);
        for (int k = 0; k < 4; ++k) b.line(q[k], q[(k + 1) % 4], {0.45f, 0.7f, 1.f, 1.f});
    }
    b.m.bounds = bounds_of(b.m.lines, 0);
    return std::move(b.m);
}

}  // namespace golightly::viewport
