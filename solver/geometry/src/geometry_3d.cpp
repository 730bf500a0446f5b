// GoLightly geometry in 3D (geometry.hpp, "3D"): volume fractions of layers, spheres, boxes
// and STEP solids on sample cubes, and the averaged permittivity per E component.
//
// Method. Within a sample cube [za, zb] in z, the material at (x, y, z) is decided by the
// 2D layer rules applied to the z-section of every layer's objects. The cube's fractions
// are therefore the z-mean of the 2D section fractions (exact polygon areas per sample
// window, layers composited by detail::Compositor, exactly where no layer holds a raster):
//     f_m(cube) = (1 / dx) integral_za^zb f_m^2D(z) dz.
// The window [za, zb] is split at every z where a section jumps (layer z limits, box faces,
// sphere poles, STEP solid limits, and where a sidewall edge parallel to x or y passes a
// window side, which makes that window's 2D normal step). On a piece where every object present has a constant
// section (vertical extrusions, boxes, rasters) one evaluation is exact; elsewhere
// (spheres, sidewalls, STEP meshes) 4-point Gauss-Legendre (Abramowitz & Stegun 25.4.30)
// integrates the section. A sphere's or a sidewall trapezoid's section area is a
// polynomial of degree 2 in z, so sums of fractions over a layer (volumes) are exact to the
// outline tolerance; single cut cells are exact to the quadrature error of their piecewise
// smooth z profile.
//
// Normals (subpixel averaging): the cube integral of grad eps_inf in cell units (divided by
// dx^2): x and y components are the z-means of the 2D section normals (geometry_medium.cpp);
// the z component is exact, the difference of the face means of eps_inf,
//     g_z = <eps>(x, y, zb) - <eps>(x, y, za)   (window means of the composited sections).
// A z-invariant stack thus gives g_z = 0 and exactly the 2D fractions and normals.
//
// Cost and memory traffic: one section evaluation is a 2D compute_coverage on the nx x ny
// plane (per sample: the compositor writes one float per material present, plus two
// float normals); accumulating it reads those and updates one double per material (and
// three normal doubles) per sample. A cube layer k costs 1 evaluation where nothing
// varies in z (cached by the set of objects present, so a z-invariant run evaluates each
// distinct stack once per thread), 8 per varying piece, plus 2 face evaluations for the
// normals (the bottom one shared with layer k - 1).
//
// STEP solids: a closed triangle mesh (step_mesh, BRepMesh in a child process, cached);
// the section at z is the set of segments where the triangles cross the plane, each
// directed z x n (n the outward normal), so the solid lies on its left: the segments of a
// closed mesh form the section's rings without being chained (the area accumulation adds
// edges one by one). Vertices exactly on the plane count as above it, so a shared edge is
// cut identically from both sides.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "geometry_internal.hpp"
#include "golightly/errors.hpp"
#include "golightly/step_import.hpp"

namespace golightly {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// v rounded to float precision, returned as a double, through a volatile so that no
/// optimizer drops the rounding. GCC 12's SLP vectorizer (-O2, -O3) compiled
/// `double(float(s.gx[i]))` in average_medium_3d as `s.gx[i]` whenever that loop was
/// vectorized, so the 3D normals lost the float rounding the 2D ones have and a 3D run's
/// media moved by about 1e-9 with unrelated edits of this file (seen as a 8e-10 change of
/// a float64 strip run; -fno-tree-slp-vectorize restored the rounding).
double rounded_to_float(double v) {
    volatile float f = static_cast<float>(v);
    return f;
}

// 4-point Gauss-Legendre on [-1, 1] (Abramowitz & Stegun, table 25.4).
constexpr double kGaussX[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
constexpr double kGaussW[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};

/// Gauss pieces per interval where a section varies with z (4 points each).
constexpr int kSubPieces = 2;

/// One shape of a layer in 3D.
struct Object3 {
    enum Kind { Extruded, Sphere, Box, Mesh } kind = Extruded;
    double zlo = -kInf, zhi = kInf;  ///< where its section is not empty
    bool varies = false;             ///< section changes with z inside (zlo, zhi)
    Outline base;                    ///< extruded: outline at z_ref; box: its rectangle
    double z_ref = 0, tan_angle = 0;
    const Shape* shape = nullptr;
    std::shared_ptr<const StepMesh> mesh;
    int tri_first = 0, tri_count = 0;
    std::vector<std::vector<int>> buckets;  ///< mesh: triangles meeting sample layer k (global ids)
    int group = 0;
};

struct Layer3 {
    int material = 0;
    std::vector<Object3> objects;
    std::vector<detail::RasterResampler> rasters;
    double zlo = -kInf, zhi = kInf;  ///< the layer's own range (extruded shapes, rasters)
};

/// Composited fractions (and normals) of one z-section.
struct Section {
    std::vector<std::vector<float>> frac;  ///< [material], empty = 0 everywhere
    std::vector<float> gx, gy;
    std::vector<double> eps_mean;  ///< per sample, filled on demand
};

class Builder3 {
public:
    Builder3(const Project& project, const SampleGrid3& grid, bool reference_run, bool normals)
        : project_(project), grid_(grid), normals_(normals) {
        if (!(grid.dx_um > 0) || grid.nx <= 0 || grid.ny <= 0 || grid.nz <= 0)
            throw std::invalid_argument("compute_coverage_3d: empty sample grid");
        g2_.nx = grid.nx;
        g2_.ny = grid.ny;
        g2_.x0_um = grid.x0_um;
        g2_.y0_um = grid.y0_um;
        g2_.dx_um = grid.dx_um;
        const auto layers = select_layers(project, reference_run);
        mi_ = detail::index_materials(project, layers);
        tol_ = detail::coverage_tolerance_um(grid.dx_um);
        int group = 0;
        for (std::size_t l = 0; l < layers.size(); ++l) {
            const Layer* layer = layers[l];
            Layer3 L;
            L.material = mi_.layer_material[l];
            if (layer->z) {
                L.zlo = std::min((*layer->z)[0], (*layer->z)[1]);
                L.zhi = std::max((*layer->z)[0], (*layer->z)[1]);
            }
            const double z_ref = layer->z ? L.zlo : 0.0;
            const double tan_a = std::tan(layer->sidewall_angle_deg * M_PI / 180.0);
            for (std::size_t s = 0; s < layer->shapes.size(); ++s) {
                const Shape& shape = layer->shapes[s];
                const std::string path = detail::layer_path(project, layer) + ".shapes[" + std::to_string(s) + "]";
                try {
                    add_shape(L, shape, z_ref, tan_a, group);
                } catch (const ProjectError&) {
                    throw;
                } catch (const std::exception& e) {
                    throw ProjectError("", path, e.what());
                }
            }
            if (!L.objects.empty() || !L.rasters.empty()) layers_.push_back(std::move(L));
        }
        // z where some section jumps
        for (const Layer3& L : layers_) {
            for (const Object3& o : L.objects) {
                if (std::isfinite(o.zlo)) breaks_.push_back(o.zlo);
                if (std::isfinite(o.zhi)) breaks_.push_back(o.zhi);
            }
            if (!L.rasters.empty()) {
                if (std::isfinite(L.zlo)) breaks_.push_back(L.zlo);
                if (std::isfinite(L.zhi)) breaks_.push_back(L.zhi);
            }
        }
        for (const Layer3& L : layers_)
            for (const Object3& o : L.objects) {
                if (o.kind == Object3::Sphere) poles_.push_back(o.zlo), poles_.push_back(o.zhi);
                if (o.kind == Object3::Extruded && o.tan_angle != 0) add_wall_breaks(o);
            }
        std::sort(poles_.begin(), poles_.end());
        std::sort(breaks_.begin(), breaks_.end());
        breaks_.erase(std::unique(breaks_.begin(), breaks_.end()), breaks_.end());
    }

    const detail::MaterialIndex& materials() const { return mi_; }
    const SampleGrid& grid2() const { return g2_; }

    /// The fractions of sample layer k (per material, double, nx*ny; empty = all zero) and,
    /// with normals, gx, gy, gz. Not thread-safe (one Builder3 per thread; see Slabs).
    struct Slab {
        std::vector<std::vector<double>> frac;
        std::vector<double> gx, gy, gz;
    };

    /// Per-thread evaluation state.
    struct Worker {
        struct Cached {
            std::vector<int> key;
            std::shared_ptr<Section> section;
        };
        std::vector<Cached> cache;  ///< z-invariant sections by active set (most recent last)
        double last_z = std::nan("");
        std::shared_ptr<Section> last_section;  ///< the last varying section (faces shared by two cubes)
    };

    void slab(int k, Worker& w, Slab& out) const {
        const std::size_t n2 = std::size_t(g2_.nx) * g2_.ny;
        out.frac.resize(mi_.ids.size());
        for (auto& f : out.frac) f.clear();
        if (normals_) {
            out.gx.assign(n2, 0.0);
            out.gy.assign(n2, 0.0);
            out.gz.assign(n2, 0.0);
        }
        const double dx = grid_.dx_um;
        const double za = grid_.z0_um + (k - 0.5) * dx, zb = grid_.z0_um + (k + 0.5) * dx;
        // g_z: the face means of eps, just inside the cube where a section jumps at a face;
        // the bottom face first (it is the face the previous cube ended with)
        const double delta = 1e-9 * dx;
        auto near_break = [&](double z) {
            auto it = std::lower_bound(breaks_.begin(), breaks_.end(), z - delta);
            return it != breaks_.end() && *it <= z + delta;
        };
        std::vector<double> eps_bot;
        if (normals_) eps_bot = eps_mean(*section_at(near_break(za) ? za + delta : za, k, w));
        std::vector<double> cuts{za};
        for (double b : breaks_)  // a break within rounding of a face is at the face
            if (b > za + delta && b < zb - delta) cuts.push_back(b);
        cuts.push_back(zb);
        const bool single = cuts.size() == 2;
        for (std::size_t p = 0; p + 1 < cuts.size(); ++p) {
            const double a = cuts[p], b = cuts[p + 1];
            const double share = single ? 1.0 : (b - a) / (zb - za);
            const double zm = 0.5 * (a + b);
            if (!varies_at(zm)) {
                accumulate(*section_at(zm, k, w), share, out);
                continue;
            }
            // At a sphere's pole the section radius goes as sqrt(distance): z = pole -+ L s^2
            // makes the integrand smooth in s (and the area polynomial, integrated exactly).
            const bool pole_a = is_pole(a), pole_b = is_pole(b);
            auto gauss = [&](double lo, double hi, double w_piece) {
                for (int q = 0; q < 4; ++q)
                    accumulate(*section_at(0.5 * (lo + hi) + 0.5 * (hi - lo) * kGaussX[q], k, w), 0.5 * w_piece * kGaussW[q], out);
            };
            auto gauss_pole = [&](double pole, double other, double w_piece) {
                const double L = other - pole;  // signed
                for (int q = 0; q < 4; ++q) {
                    const double sq = 0.5 * (1 + kGaussX[q]);
                    accumulate(*section_at(pole + L * sq * sq, k, w), w_piece * kGaussW[q] * sq, out);
                }
            };
            // kSubPieces equal pieces per varying interval (the section's coverage of a cell
            // has kinks where an outline crosses the cell's corners: more points, smaller error)
            const int np = kSubPieces;
            for (int r = 0; r < np; ++r) {
                const double lo = a + (b - a) * r / np, hi = r + 1 == np ? b : a + (b - a) * (r + 1) / np;
                const double w_piece = share / np;
                const bool pa = r == 0 && pole_a, pb = r + 1 == np && pole_b;
                if (pa && pb) {
                    const double mid = 0.5 * (lo + hi);
                    gauss_pole(lo, mid, 0.5 * w_piece);
                    gauss_pole(hi, mid, 0.5 * w_piece);
                } else if (pa) {
                    gauss_pole(lo, hi, w_piece);
                } else if (pb) {
                    gauss_pole(hi, lo, w_piece);
                } else {
                    gauss(lo, hi, w_piece);
                }
            }
        }
        if (normals_) {
            const std::shared_ptr<Section> top = section_at(near_break(zb) ? zb - delta : zb, k, w);
            const std::vector<double>& eps_top = eps_mean(*top);
            for (std::size_t i = 0; i < n2; ++i) out.gz[i] = eps_top[i] - eps_bot[i];
        }
    }

private:
    void add_shape(Layer3& L, const Shape& shape, double z_ref, double tan_a, int& group) {
        Object3 o;
        o.shape = &shape;
        switch (shape.type) {
            case ShapeType::Raster:
                L.rasters.emplace_back(shape, g2_);
                return;
            case ShapeType::Sphere:
                if (!(shape.radius > 0) || !std::isfinite(shape.radius)) throw std::invalid_argument("sphere radius must be > 0");
                o.kind = Object3::Sphere;
                o.zlo = shape.center_3d.z - shape.radius;
                o.zhi = shape.center_3d.z + shape.radius;
                o.varies = true;
                break;
            case ShapeType::Box: {
                o.kind = Object3::Box;
                o.zlo = std::min(shape.box_min.z, shape.box_max.z);
                o.zhi = std::max(shape.box_min.z, shape.box_max.z);
                o.base = detail::solid_section_outline(shape, 0.5 * (o.zlo + o.zhi), tol_);
                if (o.base.empty()) return;  // no volume
                break;
            }
            case ShapeType::Step: {
                // chordal deflection: 2 % of a cell, but no finer than 1e-5 of the part
                const auto b = step_bounds_um(shape);
                const double size = std::max({b[3] - b[0], b[4] - b[1], b[5] - b[2]});
                auto mesh = step_mesh(shape, std::max(0.02 * grid_.dx_um, 1e-5 * size));
                for (const StepMesh::Solid& s : mesh->solids) {
                    Object3 m;
                    m.kind = Object3::Mesh;
                    m.shape = &shape;
                    m.mesh = mesh;
                    m.tri_first = s.first;
                    m.tri_count = s.count;
                    m.zlo = s.bounds[2];
                    m.zhi = s.bounds[5];
                    m.varies = true;
                    m.group = group++;
                    bucket_mesh(m);
                    L.objects.push_back(std::move(m));
                }
                return;
            }
            case ShapeType::Gds:  // one extruded object per GDSII element (they may overlap)
                for (auto& ring : shape_outline(shape, tol_)) {
                    Object3 g;
                    g.shape = &shape;
                    g.kind = Object3::Extruded;
                    g.base = Outline{std::move(ring)};
                    g.zlo = L.zlo;
                    g.zhi = L.zhi;
                    g.z_ref = z_ref;
                    g.tan_angle = tan_a;
                    g.varies = tan_a != 0;
                    g.group = group++;
                    L.objects.push_back(std::move(g));
                }
                return;
            default:
                o.kind = Object3::Extruded;
                o.base = shape_outline(shape, tol_);
                o.zlo = L.zlo;
                o.zhi = L.zhi;
                o.z_ref = z_ref;
                o.tan_angle = tan_a;
                o.varies = tan_a != 0;
                break;
        }
        o.group = group++;
        L.objects.push_back(std::move(o));
    }

    void bucket_mesh(Object3& m) const {
        m.buckets.assign(grid_.nz, {});
        const double dx = grid_.dx_um, margin = 1e-6 * dx;
        for (int t = m.tri_first; t < m.tri_first + m.tri_count; ++t) {
            const auto& tri = m.mesh->triangles[t];
            double lo = kInf, hi = -kInf;
            for (int c = 0; c < 3; ++c) {
                lo = std::min(lo, m.mesh->vertices[tri[c]].z);
                hi = std::max(hi, m.mesh->vertices[tri[c]].z);
            }
            if (hi == lo) continue;  // in a plane z = const: never cut
            const double klo = std::floor((lo - margin - grid_.z0_um) / dx + 0.5);
            const double khi = std::floor((hi + margin - grid_.z0_um) / dx + 0.5);
            const int k0 = int(std::max(klo, 0.0)), k1 = int(std::min(khi, double(grid_.nz - 1)));
            for (int k = k0; k <= k1; ++k) m.buckets[k].push_back(t);
        }
    }

    /// A sidewall edge parallel to x or y sweeps across the sample windows' sides: where
    /// it passes one, a window's 2D normal jumps (the whole piece leaves at once), so those
    /// z are breaks too (about tan(angle) per cube layer and edge).
    void add_wall_breaks(const Object3& o) {
        const double dx = grid_.dx_um;
        const double z_lo = std::max(o.zlo, grid_.z0_um - 0.5 * dx), z_hi = std::min(o.zhi, grid_.z0_um + (grid_.nz - 0.5) * dx);
        if (!(z_hi > z_lo)) return;
        for (const auto& ring : o.base) {
            const std::size_t n = ring.size();
            for (std::size_t k = 0; k < n; ++k) {
                const Vec2 a = ring[k], b = ring[(k + 1) % n];
                const double ex = b.x - a.x, ey = b.y - a.y, len = std::hypot(ex, ey);
                if (!(len > 0)) continue;
                int axis;  // the coordinate that moves
                if (std::abs(ey) <= 1e-12 * len) axis = 1;
                else if (std::abs(ex) <= 1e-12 * len) axis = 0;
                else continue;
                // left normal (-ey, ex)/len: the edge moves by d along it
                const double nrm = axis == 0 ? -ey / len : ex / len;
                const double pos0 = axis == 0 ? a.x : a.y;
                const double origin = axis == 0 ? grid_.x0_um : grid_.y0_um;
                const int count = axis == 0 ? grid_.nx : grid_.ny;
                // pos(z) = pos0 + nrm (z - z_ref) tan; window sides at origin + (m - 1/2) dx
                const double p_a = pos0 + nrm * (z_lo - o.z_ref) * o.tan_angle;
                const double p_b = pos0 + nrm * (z_hi - o.z_ref) * o.tan_angle;
                const double m_lo = std::ceil((std::min(p_a, p_b) - origin) / dx + 0.5);
                const double m_hi = std::floor((std::max(p_a, p_b) - origin) / dx + 0.5);
                for (double m = std::max(m_lo, 0.0); m <= std::min(m_hi, double(count)); m += 1.0) {
                    const double side = origin + (m - 0.5) * dx;
                    breaks_.push_back(o.z_ref + (side - pos0) / (nrm * o.tan_angle));
                }
            }
        }
    }

    bool is_pole(double z) const {
        const double eps = 1e-9 * grid_.dx_um;
        auto it = std::lower_bound(poles_.begin(), poles_.end(), z - eps);
        return it != poles_.end() && *it <= z + eps;
    }

    static bool active(const Object3& o, double z) { return o.zlo < z && z < o.zhi; }
    static bool raster_active(const Layer3& L, double z) { return L.zlo <= z && z <= L.zhi; }

    bool varies_at(double z) const {
        for (const Layer3& L : layers_)
            for (const Object3& o : L.objects)
                if (o.varies && active(o, z)) return true;
        return false;
    }

    std::vector<int> active_key(double z) const {
        std::vector<int> key;
        for (std::size_t l = 0; l < layers_.size(); ++l) {
            const Layer3& L = layers_[l];
            for (std::size_t s = 0; s < L.objects.size(); ++s)
                if (active(L.objects[s], z)) key.push_back(L.objects[s].group);
            if (!L.rasters.empty() && raster_active(L, z)) key.push_back(-1 - int(l));
        }
        return key;
    }

    /// The composited section at z (k: the sample layer holding z, for the mesh buckets).
    std::shared_ptr<Section> section_at(double z, int k, Worker& w) const {
        const bool varies = varies_at(z);
        std::vector<int> key;
        if (!varies) {
            key = active_key(z);
            for (auto it = w.cache.begin(); it != w.cache.end(); ++it)
                if (it->key == key) return it->section;
        } else if (w.last_section && z == w.last_z) {
            return w.last_section;
        }
        auto sec = std::make_shared<Section>(compute_section(z, k));
        if (!varies) {
            if (w.cache.size() >= 4) w.cache.erase(w.cache.begin());
            w.cache.push_back({std::move(key), sec});
        } else {
            w.last_z = z;
            w.last_section = sec;
        }
        return sec;
    }

    Section compute_section(double z, int k) const {
        detail::Compositor comp(g2_, mi_.eps, normals_);
        static const std::vector<detail::RasterResampler> no_rasters;
        struct Region {
            int material;
            bool rasters;
            std::unique_ptr<detail::UnionBuilder> uni;
            std::size_t layer = 0;
        };
        std::vector<Region> regions;
        bool any_raster = false;
        for (const Layer3& L : layers_) {
            detail::UnionBuilder uni(g2_);
            for (const Object3& o : L.objects) {
                if (!active(o, z)) continue;
                switch (o.kind) {
                    case Object3::Extruded:
                        if (o.tan_angle == 0) uni.add_outline(o.base, o.group);
                        else uni.add_outline(detail::offset_outline(o.base, (z - o.z_ref) * o.tan_angle), o.group);
                        break;
                    case Object3::Box:
                        uni.add_outline(o.base, o.group);
                        break;
                    case Object3::Sphere:
                        uni.add_outline(detail::solid_section_outline(*o.shape, z, tol_), o.group);
                        break;
                    case Object3::Mesh:
                        add_mesh_section(o, z, k, uni);
                        break;
                }
            }
            const bool rasters = !L.rasters.empty() && raster_active(L, z);
            if (uni.empty() && !rasters) continue;
            any_raster = any_raster || rasters;
            regions.push_back({L.material, rasters, std::make_unique<detail::UnionBuilder>(std::move(uni)),
                               std::size_t(&L - layers_.data())});
        }
        if (!any_raster) {  // exact (detail::Compositor::composite_exact)
            std::vector<std::pair<int, const detail::UnionBuilder*>> exact;
            for (const auto& r : regions) exact.push_back({r.material, r.uni.get()});
            comp.composite_exact(exact);
        } else {
            for (std::size_t q = 0; q < regions.size(); ++q) {
                detail::AreaAccumulator acc(g2_);
                regions[q].uni->deposit(acc);
                comp.add_layer(regions[q].material, acc, regions[q].rasters ? layers_[regions[q].layer].rasters : no_rasters);
            }
        }
        Section s;
        s.frac = std::move(comp.frac);
        s.gx = std::move(comp.normal_x);
        s.gy = std::move(comp.normal_y);
        return s;
    }

    void add_mesh_section(const Object3& o, double z, int k, detail::UnionBuilder& uni) const {
        const StepMesh& m = *o.mesh;
        k = std::clamp(k, 0, grid_.nz - 1);
        for (int t : o.buckets[k]) {
            const auto& tri = m.triangles[t];
            const Vec3* v[3] = {&m.vertices[tri[0]], &m.vertices[tri[1]], &m.vertices[tri[2]]};
            const bool up[3] = {v[0]->z >= z, v[1]->z >= z, v[2]->z >= z};
            if (up[0] == up[1] && up[1] == up[2]) continue;
            Vec2 pts[2];
            int np = 0;
            for (int e = 0; e < 3 && np < 2; ++e) {
                const Vec3* p = v[e];
                const Vec3* q = v[(e + 1) % 3];
                if (up[e] == up[(e + 1) % 3]) continue;
                if (up[e]) std::swap(p, q);  // p below, q above: the same arithmetic from both faces
                const double s = (z - p->z) / (q->z - p->z);
                pts[np++] = {p->x + s * (q->x - p->x), p->y + s * (q->y - p->y)};
            }
            if (np < 2) continue;
            // outward normal n = (b - a) x (c - a); the section edge runs along z x n
            const double ax = v[1]->x - v[0]->x, ay = v[1]->y - v[0]->y, az = v[1]->z - v[0]->z;
            const double bx = v[2]->x - v[0]->x, by = v[2]->y - v[0]->y, bz = v[2]->z - v[0]->z;
            const double nx = ay * bz - az * by, ny = az * bx - ax * bz;
            const double tx = -ny, ty = nx;
            if ((pts[1].x - pts[0].x) * tx + (pts[1].y - pts[0].y) * ty < 0) std::swap(pts[0], pts[1]);
            uni.add_segment(pts[0], pts[1], o.group);
        }
    }

    void accumulate(const Section& s, double w, Slab& out) const {
        const std::size_t n2 = std::size_t(g2_.nx) * g2_.ny;
        for (std::size_t q = 0; q < s.frac.size(); ++q) {
            if (s.frac[q].empty()) continue;
            auto& dst = out.frac[q];
            if (dst.empty()) dst.assign(n2, 0.0);
            const float* src = s.frac[q].data();
            for (std::size_t i = 0; i < n2; ++i) dst[i] += w * src[i];
        }
        if (normals_) {
            for (std::size_t i = 0; i < n2; ++i) {
                out.gx[i] += w * s.gx[i];
                out.gy[i] += w * s.gy[i];
            }
        }
    }

    const std::vector<double>& eps_mean(Section& s) const {
        if (s.eps_mean.empty()) {
            const std::size_t n2 = std::size_t(g2_.nx) * g2_.ny;
            s.eps_mean.assign(n2, 0.0);
            for (std::size_t q = 0; q < s.frac.size(); ++q) {
                if (s.frac[q].empty()) continue;
                for (std::size_t i = 0; i < n2; ++i) s.eps_mean[i] += double(s.frac[q][i]) * mi_.eps[q];
            }
        }
        return s.eps_mean;
    }

    const Project& project_;
    SampleGrid3 grid_;
    SampleGrid g2_;
    bool normals_;
    detail::MaterialIndex mi_;
    double tol_ = 0;
    std::vector<Layer3> layers_;
    std::vector<double> breaks_;
    std::vector<double> poles_;  ///< sorted z of the spheres' poles
};

/// Runs fn(k, slab) for every sample layer k, the layers split among threads (each with
/// its own evaluation state). fn must only touch data of layer k.
template <class Fn>
void for_each_slab(const Builder3& b, int nz, Fn&& fn) {
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const int nt = int(std::min<unsigned>(hw, unsigned(std::max(1, nz / 2))));
    auto run = [&](int t) {
        Builder3::Worker w;
        Builder3::Slab s;
        // contiguous blocks: neighbouring layers share cached sections and faces
        const int k0 = int(std::int64_t(nz) * t / nt), k1 = int(std::int64_t(nz) * (t + 1) / nt);
        for (int k = k0; k < k1; ++k) {
            b.slab(k, w, s);
            fn(k, s);
        }
    };
    if (nt <= 1) {
        run(0);
        return;
    }
    std::vector<std::thread> threads;
    std::vector<std::exception_ptr> errors(nt);
    for (int t = 0; t < nt; ++t)
        threads.emplace_back([&, t] {
            try {
                run(t);
            } catch (...) {
                errors[t] = std::current_exception();
            }
        });
    for (auto& th : threads) th.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace

Coverage compute_coverage_3d(const Project& project, const SampleGrid3& grid, bool reference_run) {
    const Builder3 b(project, grid, reference_run, false);
    const auto& mi = b.materials();
    const std::size_t n2 = std::size_t(grid.nx) * grid.ny, n3 = n2 * std::size_t(grid.nz);
    // a material's array is allocated when some layer k first holds it
    std::vector<std::vector<float>> frac(mi.ids.size());
    frac[0].assign(n3, 0.0f);
    std::mutex alloc;
    for_each_slab(b, grid.nz, [&](int k, const Builder3::Slab& s) {
        for (std::size_t q = 0; q < s.frac.size(); ++q) {
            if (s.frac[q].empty()) continue;
            float* dst;
            {
                std::lock_guard<std::mutex> lock(alloc);
                if (frac[q].empty()) frac[q].assign(n3, 0.0f);
                dst = frac[q].data() + std::size_t(k) * n2;
            }
            for (std::size_t i = 0; i < n2; ++i) dst[i] = float(s.frac[q][i]);
        }
    });
    Coverage out;
    for (std::size_t q = 0; q < mi.ids.size(); ++q) {
        if (frac[q].empty()) continue;
        out.material_ids.push_back(mi.ids[q]);
        out.fraction.push_back(std::move(frac[q]));
    }
    return out;
}

AveragedMedium average_medium_3d(const Project& project, const SampleGrid3& grid, Component e_component, bool subpixel,
                                 bool reference_run, const std::vector<std::string>& staircase_materials) {
    if (e_component != Component::Ex && e_component != Component::Ey && e_component != Component::Ez)
        throw std::invalid_argument("average_medium_3d: the component must be Ex, Ey or Ez");
    const Builder3 b(project, grid, reference_run, subpixel);
    const auto& mi = b.materials();
    const std::size_t nm = mi.ids.size();
    std::vector<double> eps(nm), sig(nm);
    for (std::size_t q = 0; q < nm; ++q) {
        const Material* mat = project.find_material(mi.ids[q]);
        eps[q] = mat->epsilon_inf;
        sig[q] = mat->conductivity;
    }
    const std::vector<char> stair = detail::staircase_flags(mi.ids, staircase_materials);
    const std::size_t n2 = std::size_t(grid.nx) * grid.ny, n3 = n2 * std::size_t(grid.nz);
    AveragedMedium out;
    out.eps_r.assign(n3, 0.0);
    out.sigma.assign(n3, 0.0);
    const int d = e_component == Component::Ex ? 0 : e_component == Component::Ey ? 1 : 2;
    const int e1 = d == 0 ? 1 : 0, e2 = d == 2 ? 1 : 2;  // the other axes, lower first
    std::vector<std::vector<AveragedMedium::OffDiagonal3>> off_per_k(subpixel ? std::size_t(grid.nz) : 0);
    std::vector<std::vector<std::pair<std::size_t, float>>> cut_per_k(subpixel ? std::size_t(grid.nz) : 0);
    for_each_slab(b, grid.nz, [&](int k, const Builder3::Slab& s) {
        double* er = out.eps_r.data() + std::size_t(k) * n2;
        double* sg = out.sigma.data() + std::size_t(k) * n2;
        // the fractions as compute_coverage_3d stores them (float), so that a z-invariant
        // stack reproduces the 2D medium bit for bit
        std::vector<int> present;
        for (std::size_t q = 0; q < nm; ++q)
            if (!s.frac[q].empty()) present.push_back(int(q));
        for (std::size_t i = 0; i < n2; ++i) {
            bool cut_stair = false;
            for (int q : present) {
                const float f = float(s.frac[q][i]);
                if (stair[std::size_t(q)] && f > 0.0f && f < 1.0f) cut_stair = true;
            }
            if (!subpixel || cut_stair) {
                // staircase: the material with the largest fraction (first on ties)
                int best = present[0];
                float fb = float(s.frac[best][i]);
                for (int q : present)
                    if (float(s.frac[q][i]) > fb) best = q, fb = float(s.frac[q][i]);
                er[i] = eps[best];
                sg[i] = sig[best];
                continue;
            }
            double mean = 0, inv_sum = 0, sigma = 0;
            int uniform = -1;
            for (int q : present) {
                const double f = float(s.frac[q][i]);
                if (f == 1.0) uniform = q;
                mean += f * eps[q];
                inv_sum += f / eps[q];
                sigma += f * sig[q];
            }
            if (uniform >= 0) {
                er[i] = eps[uniform];
                sg[i] = sig[uniform];
                continue;
            }
            sg[i] = sigma;
            // Farjadpour et al., Opt. Lett. 31, 2972 (2006), eq. 1: eps^-1 = P <1/eps> +
            // (1 - P) <eps>^-1 with P = n n^T; the diagonal entry for axis d is
            // n_d^2 a + (1 - n_d^2) b, a = <1/eps>, b = 1/<eps>. n from the cube integral of
            // grad eps (Builder3::slab), rounded to float as the 2D normals are.
            const double gx = rounded_to_float(s.gx[i]), gy = rounded_to_float(s.gy[i]),
                         gz = rounded_to_float(s.gz[i]);
            const double g2 = gx * gx + gy * gy + gz * gz;
            const double gd = e_component == Component::Ex ? gx : e_component == Component::Ey ? gy : gz;
            if (!(g2 > 1e-18 * mean * mean) || (e_component == Component::Ez && gz == 0.0)) {
                er[i] = mean;  // no resolvable normal, or Ez parallel to every interface (2D rule)
                cut_per_k[std::size_t(k)].emplace_back(std::size_t(k) * n2 + i, 0.0f);
                continue;
            }
            const double a = inv_sum, bb = 1.0 / mean;
            const double p = gd * gd / g2;
            cut_per_k[std::size_t(k)].emplace_back(std::size_t(k) * n2 + i, float(p));
            er[i] = 1.0 / (p * a + (1.0 - p) * bb);
            const double g[3] = {gx, gy, gz};
            const double o1 = gd * g[e1] / g2 * (a - bb), o2 = gd * g[e2] / g2 * (a - bb);
            if (o1 != 0.0 || o2 != 0.0) {
                AveragedMedium::OffDiagonal3 od;
                od.sample = std::size_t(k) * n2 + i;
                od.off[0] = o1;
                od.off[1] = o2;
                off_per_k[std::size_t(k)].push_back(od);
            }
        }
    });
    if (subpixel) {
        std::size_t total = 0;
        for (const auto& v : off_per_k) total += v.size();
        out.inv_eps_offdiag_3d.reserve(total);
        for (auto& v : off_per_k) {
            out.inv_eps_offdiag_3d.insert(out.inv_eps_offdiag_3d.end(), v.begin(), v.end());
            std::vector<AveragedMedium::OffDiagonal3>().swap(v);
        }
        total = 0;
        for (const auto& v : cut_per_k) total += v.size();
        out.cut_normal_sq.reserve(total);
        for (auto& v : cut_per_k) {
            out.cut_normal_sq.insert(out.cut_normal_sq.end(), v.begin(), v.end());
            std::vector<std::pair<std::size_t, float>>().swap(v);
        }
    }
    return out;
}

std::map<std::string, double> material_volumes_um3(const Project& project, double cell_um, bool reference_run) {
    if (!(cell_um > 0)) throw std::invalid_argument("material_volumes_um3: cell size must be > 0");
    SampleGrid3 grid;
    grid.dx_um = cell_um;
    grid.nx = std::max(1, int(std::lround(project.domain.size[0] / cell_um)));
    grid.ny = std::max(1, int(std::lround(project.domain.size[1] / cell_um)));
    grid.nz = std::max(1, int(std::lround(project.domain.size[2] / cell_um)));
    grid.x0_um = grid.y0_um = grid.z0_um = 0.5 * cell_um;
    const Builder3 b(project, grid, reference_run, false);
    const auto& mi = b.materials();
    std::vector<std::vector<double>> per_k(mi.ids.size(), std::vector<double>(grid.nz, 0.0));
    std::vector<char> used(mi.ids.size(), 0);
    for_each_slab(b, grid.nz, [&](int k, const Builder3::Slab& s) {
        for (std::size_t q = 0; q < s.frac.size(); ++q) {
            if (s.frac[q].empty()) continue;
            double sum = 0;
            for (double f : s.frac[q]) sum += float(f);
            per_k[q][k] = sum;
        }
    });
    std::map<std::string, double> out;
    const double cell = cell_um * cell_um * cell_um;
    for (std::size_t q = 0; q < mi.ids.size(); ++q) {
        double s = 0;
        for (double v : per_k[q]) s += v;
        if (q == 0 || s > 0) out[mi.ids[q]] += s * cell;
    }
    return out;
}

}  // namespace golightly
