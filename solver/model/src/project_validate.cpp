// GoLightly: validation of a project model (ranges, cross-references, stability limits).
//
// validate_project() reports the first problem as ProjectError(file, JSON path, message);
// the paths are those of the file format (project_to_json writes the same names), e.g.
// `layers[2].shapes[0].radii[1]`.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "project_io_internal.hpp"

namespace golightly {

using namespace detail;

namespace {

std::string fmt(double v) {
    std::ostringstream o;
    o.precision(6);
    o << v;
    return o.str();
}

std::string quoted(const std::string& s) { return "\"" + limits::cap_text(s) + "\""; }

class Validator {
public:
    Validator(const Project& p, const std::string& file) : p_(p), file_(file) {}

    void run() {
        check_finite(project_to_json(p_), "");
        domain();
        materials();
        for (std::size_t i = 0; i < p_.layers.size(); ++i) layer(p_.layers[i], index_path("layers", i));
        for (std::size_t i = 0; i < p_.sources.size(); ++i) source(p_.sources[i], index_path("sources", i));
        monitors();
        run_settings();
    }

private:
    [[noreturn]] void fail(const std::string& path, const std::string& msg) const {
        throw ProjectError(file_, path, msg);
    }

    /// Every number of the project, wherever it sits (model fields and kept extras).
    void check_finite(const Json& j, const std::string& path) const {
        if (j.is_number_float()) {
            if (!std::isfinite(j.get<double>())) fail(path, "must be a finite number");
        } else if (j.is_object()) {
            for (auto it = j.begin(); it != j.end(); ++it) check_finite(*it, key_path(path, it.key()));
        } else if (j.is_array()) {
            for (std::size_t i = 0; i < j.size(); ++i) check_finite(j[i], index_path(path, i));
        }
    }

    void positive(double v, const std::string& path) const {
        if (!(v > 0)) fail(path, "must be > 0 (found " + fmt(v) + ")");
    }
    void non_negative(double v, const std::string& path) const {
        if (!(v >= 0)) fail(path, "must be >= 0 (found " + fmt(v) + ")");
    }

    /// A coordinate or length of the geometry: |v| <= limits::kMaxCoordinateUm (docs/spec, "Limits").
    void bounded(double v, const std::string& path) const {
        if (!(std::abs(v) <= limits::kMaxCoordinateUm))
            fail(path, "must be within +-" + fmt(limits::kMaxCoordinateUm) + " um (found " + fmt(v) + ")");
    }
    void bounded(const Vec2& v, const std::string& path) const {
        bounded(v.x, index_path(path, 0));
        bounded(v.y, index_path(path, 1));
    }
    void bounded_points(const std::vector<Vec2>& pts, const std::string& path) const {
        if (pts.size() > limits::kMaxPoints)
            fail(path, "has " + std::to_string(pts.size()) + " points, more than the limit of " +
                           std::to_string(limits::kMaxPoints));
        for (std::size_t k = 0; k < pts.size(); ++k) bounded(pts[k], index_path(path, k));
    }

    int dims() const { return p_.domain.dimensions; }

    bool axis_used(int a) const { return a < dims(); }

    /// The field components a 2D polarization has: TMz: Ez, Hx, Hy; TEz: Hz, Ex, Ey.
    void component(Component c, const std::string& path) const {
        if (dims() == 3) return;
        const bool tm = p_.domain.polarization == Polarization::TMz;
        const bool ok = tm ? (c == Component::Ez || c == Component::Hx || c == Component::Hy)
                           : (c == Component::Hz || c == Component::Ex || c == Component::Ey);
        if (!ok)
            fail(path, "component " + to_string(c) + " does not exist in " + to_string(p_.domain.polarization) +
                           " polarization (it has " + (tm ? "Ez, Hx, Hy" : "Hz, Ex, Ey") + ")");
    }

    void direction(const std::string& d, const std::string& path) const {
        static const char* kAll[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
        const bool three = dims() == 3;
        for (std::size_t i = 0; i < (three ? 6u : 4u); ++i)
            if (d == kAll[i]) return;
        fail(path, "unknown direction " + quoted(d) + "; expected one of \"+x\", \"-x\", \"+y\", \"-y\"" +
                       (three ? ", \"+z\", \"-z\"" : ""));
    }

    void material_id(const std::string& id, const std::string& path) const {
        if (p_.find_material(id)) return;
        std::string known = "\"air\"";
        for (const auto& m : p_.materials)
            if (m.id != "air") known += ", " + quoted(m.id);
        fail(path, "unknown material " + quoted(id) + " (defined: " + known + ")");
    }

    /// A box given by its corners: max must exceed min on both axes (reported at max[i]).
    void box(const Vec2& min, const Vec2& max, const std::string& max_path) const {
        if (!(max.x > min.x)) fail(index_path(max_path, 0), "must be > min x (" + fmt(min.x) + ")");
        if (!(max.y > min.y)) fail(index_path(max_path, 1), "must be > min y (" + fmt(min.y) + ")");
    }

    void bounded(const Vec3& v, const std::string& path) const {
        for (int a = 0; a < 3; ++a) bounded(v[a], index_path(path, a));
    }

    static std::string vec3_text(const Vec3& v) {
        return "[" + fmt(v.x) + ", " + fmt(v.y) + ", " + fmt(v.z) + "]";
    }

    /// A 3D box: max must exceed min on every axis (reported at max[i]).
    void box3(const Vec3& min, const Vec3& max, const std::string& max_path) const {
        for (int a = 0; a < 3; ++a)
            if (!(max[a] > min[a]))
                fail(index_path(max_path, a), std::string("must be > min ") + "xyz"[a] + " (" + fmt(min[a]) + ")");
    }

    /// The `size` of a plane (a flux plane, a plane source): entries >= 0, exactly one of
    /// them zero (the normal axis). Returns the normal axis.
    int plane_size(const Vec3& size, const std::string& path, const char* what) const {
        bounded(size, path);
        for (int a = 0; a < 3; ++a) non_negative(size[a], index_path(path, a));
        const int axis = plane_normal_axis(size);
        if (axis < 0)
            fail(path, std::string("a ") + what + " needs exactly one zero entry (the plane's normal axis; found " +
                           vec3_text(size) + ")");
        return axis;
    }

    /// `direction` (already a valid direction) must be along the normal `axis` of a plane.
    void along_normal(const std::string& d, int axis, const Vec3& size, const std::string& path,
                      const std::string& what) const {
        if (d[1] == "xyz"[axis]) return;
        const std::string n(1, "xyz"[axis]);
        fail(path, "direction " + d + " is parallel to the " + what + " of size " + vec3_text(size) +
                       "; it must be normal to it (+" + n + " or -" + n + ")");
    }

    /// The third entry of a point or box corner, required in 3D.
    void needs_z(const std::optional<double>& z, const std::string& path, const char* what) const {
        if (dims() == 3 && !z) fail(path, std::string("a 3D domain needs ") + what + " [x, y, z] (found [x, y])");
        if (z) bounded(*z, index_path(path, 2));
    }

    /// An E polarization normal to the propagation axis `axis` (tfsf, plane sources).
    void e_polarization(Component c, int axis, const std::string& path, const std::string& what) const {
        const bool is_e = c == Component::Ex || c == Component::Ey || c == Component::Ez;
        const int c_axis = c == Component::Ex ? 0 : c == Component::Ey ? 1 : 2;
        if (is_e && c_axis != axis) return;
        std::string allowed;
        const bool tm = p_.domain.polarization == Polarization::TMz;
        for (int a = 0; a < 3; ++a) {
            const bool exists = dims() == 3 || (tm ? a == 2 : a < 2);  // 2D: the polarization's E components
            if (a != axis && exists) allowed += std::string(allowed.empty() ? "" : " or ") + "E" + "xyz"[a];
        }
        fail(path, "the E polarization of " + what + " must be an E component normal to " +
                       std::string(1, "xyz"[axis]) + " (" + allowed + "; found " + to_string(c) + ")");
    }

    // ---------------------------------------------------------------- domain

    void domain() const {
        const Domain& d = p_.domain;
        if (d.dimensions != 2 && d.dimensions != 3)
            fail("domain.dimensions", "must be 2 or 3 (found " + std::to_string(d.dimensions) + ")");
        for (int a = 0; a < dims(); ++a) positive(d.size[a], index_path("domain.size", a));
        positive(d.cell_size, "domain.cell_size");
        for (int a = 0; a < dims(); ++a) bounded(d.size[a], index_path("domain.size", a));
        bounded(d.slice_z, "domain.slice_z");
        {  // cells before anything is allocated (integer overflow, runaway memory)
            double total = 1;
            for (int a = 0; a < dims(); ++a) {
                const double n = d.size[a] / d.cell_size;
                if (!(n <= limits::kMaxCellsPerAxis))
                    fail("domain.cell_size", "gives " + fmt(n) + " cells along " + std::string(1, "xyz"[a]) +
                                                 ", more than the limit of " + fmt(limits::kMaxCellsPerAxis) +
                                                 " (domain.size[" + std::to_string(a) + "] = " + fmt(d.size[a]) + " um)");
                total *= n;
            }
            if (!(total <= limits::kMaxCells))
                fail("domain.cell_size", "gives " + fmt(total) + " cells, more than the limit of " +
                                             fmt(limits::kMaxCells) + " (make the cells larger or the domain smaller)");
        }
        for (int a = 0; a < dims(); ++a)
            if (d.cell_size > d.size[a])
                fail("domain.cell_size", "must not exceed the domain size along " + std::string(1, "xyz"[a]) + " (" +
                                             fmt(d.size[a]) + " um)");
        bool pml_used = false;
        for (int a = 0; a < dims(); ++a) pml_used |= d.boundaries[a] == BoundaryKind::Pml;
        if (pml_used) {
            if (d.pml.cells < 1 || d.pml.cells > 200)
                fail("domain.pml.cells", "must be between 1 and 200 (found " + std::to_string(d.pml.cells) + ")");
            if (!(d.pml.grading_order > 0) || d.pml.grading_order > 20)
                fail("domain.pml.grading_order", "must be > 0 and <= 20 (found " + fmt(d.pml.grading_order) + ")");
            if (!(d.pml.target_reflection > 0) || !(d.pml.target_reflection < 1))
                fail("domain.pml.target_reflection",
                     "must be between 0 and 1, exclusive (found " + fmt(d.pml.target_reflection) + ")");
        }
        for (int a = 0; a < 3; ++a) {
            if (d.symmetry[std::size_t(a)] == 0) continue;
            const std::string path = "domain.symmetry[" + std::to_string(a) + "]";
            if (a >= dims()) fail(path, "a 2D domain has no mirror symmetry in z (set it to 0)");
            else if (d.boundaries[std::size_t(a)] != BoundaryKind::Pml)
                fail(path, std::string("a symmetry plane needs domain.boundaries.") + "xyz"[a] +
                               " = \"pml\" (the plane replaces the lower half of the axis)");
        }
        material_id(d.background, "domain.background");
    }

    // ---------------------------------------------------------------- materials

    static bool is_hex_color(const std::string& c) {
        if (c.size() != 7 || c[0] != '#') return false;
        for (std::size_t i = 1; i < 7; ++i)
            if (!std::isxdigit(static_cast<unsigned char>(c[i]))) return false;
        return true;
    }

    void materials() const {
        std::set<std::string> ids;
        std::size_t total_poles = 0;
        for (std::size_t i = 0; i < p_.materials.size(); ++i) {
            const Material& m = p_.materials[i];
            const std::string path = index_path("materials", i);
            if (m.id.empty()) fail(path + ".id", "must not be empty");
            if (!ids.insert(m.id).second) fail(path + ".id", "duplicate material id " + quoted(m.id));
            positive(m.epsilon_inf, path + ".epsilon_inf");
            // n = 1000, far above any optical material; beyond it the mode solvers' eigenvalue
            // iterations fail (seen at 9e18): docs/spec/project-format.md "Limits"
            constexpr double kMaxEpsilonInf = 1e6;
            if (!(m.epsilon_inf <= kMaxEpsilonInf))
                fail(path + ".epsilon_inf", "must be at most " + fmt(kMaxEpsilonInf) + " (found " + fmt(m.epsilon_inf) + ")");
            if (m.mu_r != 1.0)
                fail(path + ".mu_r", "magnetic materials are not supported yet (mu_r must be 1, found " +
                                         fmt(m.mu_r) + ")");
            non_negative(m.conductivity, path + ".conductivity");
            if (m.poles.size() > std::size_t(limits::kMaxPolesPerMaterial))
                fail(path + ".poles", "has " + std::to_string(m.poles.size()) + " poles, more than the limit of " +
                                          std::to_string(limits::kMaxPolesPerMaterial) + " per material");
            total_poles += m.poles.size();
            if (total_poles > std::size_t(limits::kMaxPolesPerProject))
                fail(path + ".poles", "brings the project to " + std::to_string(total_poles) +
                                          " poles, more than the limit of " +
                                          std::to_string(limits::kMaxPolesPerProject) + " for all materials together");
            for (std::size_t k = 0; k < m.poles.size(); ++k) {
                const Pole& pole = m.poles[k];
                const std::string pp = index_path(path + ".poles", k);
                non_negative(pole.omega_p, pp + ".omega_p");
                non_negative(pole.omega_0, pp + ".omega_0");
                if (pole.kind == PoleKind::Drude && pole.omega_0 != 0)
                    fail(pp + ".omega_0", "a drude pole has omega_0 = 0; use kind \"lorentz\" for a resonance");
                non_negative(pole.gamma, pp + ".gamma");
            }
            if (!m.color.empty() && !is_hex_color(m.color))
                fail(path + ".color", "must be a colour \"#rrggbb\" (found " + quoted(m.color) + ")");
        }
    }

    // ---------------------------------------------------------------- shapes and layers

    void shape(const Shape& s, const std::string& path) const {
        switch (s.type) {
            case ShapeType::Rectangle:
                bounded(s.min, path + ".min");
                bounded(s.max, path + ".max");
                box(s.min, s.max, path + ".max");
                break;
            case ShapeType::Polygon:
                bounded_points(s.points, path + ".points");
                if (s.points.size() < 3)
                    fail(path + ".points", "a polygon needs at least 3 points (found " +
                                               std::to_string(s.points.size()) + ")");
                break;
            case ShapeType::Ellipse:
                bounded(s.center, path + ".center");
                bounded(s.radii, path + ".radii");
                positive(s.radii.x, path + ".radii[0]");
                positive(s.radii.y, path + ".radii[1]");
                break;
            case ShapeType::Ring:
                bounded(s.center, path + ".center");
                bounded(s.outer_radius, path + ".outer_radius");
                non_negative(s.inner_radius, path + ".inner_radius");
                positive(s.outer_radius, path + ".outer_radius");
                if (!(s.inner_radius < s.outer_radius))
                    fail(path + ".inner_radius", "must be < outer_radius (" + fmt(s.outer_radius) + ")");
                break;
            case ShapeType::Path:
                bounded_points(s.points, path + ".points");
                bounded(s.width, path + ".width");
                if (s.bend_radius) bounded(*s.bend_radius, path + ".bend_radius");
                if (s.points.size() < 2)
                    fail(path + ".points", "a path needs at least 2 points (found " +
                                               std::to_string(s.points.size()) + ")");
                for (std::size_t k = 1; k < s.points.size(); ++k)
                    if (s.points[k] == s.points[k - 1])
                        fail(index_path(path + ".points", k), "repeats the previous point");
                positive(s.width, path + ".width");
                if (s.bend_radius) positive(*s.bend_radius, path + ".bend_radius");
                break;
            case ShapeType::Raster:
                positive(s.pixel_size, path + ".pixel_size");
                if (s.width_px < 1 || s.width_px > 65536)
                    fail(path + ".width", "must be between 1 and 65536 pixels (found " + std::to_string(s.width_px) + ")");
                if (s.height_px < 1 || s.height_px > 65536)
                    fail(path + ".height",
                         "must be between 1 and 65536 pixels (found " + std::to_string(s.height_px) + ")");
                if (s.png_base64.empty()) fail(path + ".png", "must hold a base64 PNG image (found an empty string)");
                bounded(s.origin, path + ".origin");
                bounded(s.pixel_size, path + ".pixel_size");
                if (std::uint64_t(s.width_px) * std::uint64_t(s.height_px) > limits::kMaxPngPixels)
                    fail(path + ".width", "the image has " + std::to_string(std::uint64_t(s.width_px) * std::uint64_t(s.height_px)) +
                                              " pixels, more than the limit of " + std::to_string(limits::kMaxPngPixels));
                break;
            case ShapeType::Step:
                if (s.data_base64.empty()) fail(path + ".data", "must hold the base64 STEP file (found an empty string)");
                if (s.data_base64.size() / 4 * 3 > limits::kMaxStepBytes)
                    fail(path + ".data", "the embedded STEP file is about " +
                                             limits::format_bytes(double(s.data_base64.size() / 4 * 3)) +
                                             ", larger than the limit of " + limits::format_bytes(double(limits::kMaxStepBytes)));
                positive(s.scale, path + ".scale");
                if (!(s.scale <= 1e12)) fail(path + ".scale", "must be <= 1e12 (found " + fmt(s.scale) + ")");
                for (int a = 0; a < 3; ++a) {
                    bounded(s.translate[a], index_path(path + ".translate", a));
                    if (!(std::abs(s.rotate_deg[a]) <= 1e6)) fail(index_path(path + ".rotate_deg", a), "must be within +-1e6 degrees");
                }
                for (std::size_t k = 0; k < s.solids.size(); ++k)
                    if (s.solids[k] < 0)
                        fail(path + ".solids[" + std::to_string(k) + "]",
                             "must be a solid index >= 0 (found " + std::to_string(s.solids[k]) + ")");
                break;
            case ShapeType::Sphere:
                bounded(s.center_3d, path + ".center");
                bounded(s.radius, path + ".radius");
                positive(s.radius, path + ".radius");
                break;
            case ShapeType::Box:
                bounded(s.box_min, path + ".min");
                bounded(s.box_max, path + ".max");
                box3(s.box_min, s.box_max, path + ".max");
                break;
            case ShapeType::Gds:
                // the stream itself is read (and its errors reported) by the geometry (gds.hpp)
                if (s.data_base64.empty()) fail(path + ".data", "must hold the base64 GDSII stream (found an empty string)");
                if (s.data_base64.size() / 4 * 3 > limits::kMaxStepBytes)
                    fail(path + ".data", "the embedded GDSII file is about " +
                                             limits::format_bytes(double(s.data_base64.size() / 4 * 3)) +
                                             ", larger than the limit of " + limits::format_bytes(double(limits::kMaxStepBytes)));
                bounded(s.translate[0], path + ".translate[0]");
                bounded(s.translate[1], path + ".translate[1]");
                if (!(std::abs(s.rotation_deg) <= 1e6)) fail(path + ".rotate_deg", "must be within +-1e6 degrees");
                // a database unit GDSII can hold (gds::write's range), 1 pm to 1 mm
                if (s.gds_db_unit_um && !(*s.gds_db_unit_um >= 1e-6 && *s.gds_db_unit_um <= 1e3))
                    fail(path + ".db_unit_um", "must be between 1e-06 and 1000 um (found " + fmt(*s.gds_db_unit_um) + ")");
                break;
        }
    }

    void layer(const Layer& l, const std::string& path) const {
        material_id(l.material, path + ".material");
        if (l.z && !((*l.z)[1] > (*l.z)[0]))
            fail(path + ".z[1]", "must be > z[0] (" + fmt((*l.z)[0]) + ")");
        if (l.z) {
            bounded((*l.z)[0], path + ".z[0]");
            bounded((*l.z)[1], path + ".z[1]");
        }
        if (!(std::abs(l.sidewall_angle_deg) < 90))
            fail(path + ".sidewall_angle_deg",
                 "must be between -90 and 90 degrees, exclusive (0 = vertical walls; found " +
                     fmt(l.sidewall_angle_deg) + ")");
        for (std::size_t k = 0; k < l.shapes.size(); ++k) shape(l.shapes[k], index_path(path + ".shapes", k));
        if (dims() == 3) inside_domain_3d(l, path);
    }

    /// 3D only: a layer whose z range, or a shape whose bounding box, lies wholly outside
    /// the domain interior [0, size] (um; closed, so touching counts as inside) is an error:
    /// it would vanish from the run without a word. Partly outside is fine (geometry runs on
    /// through the PML). STEP shapes are checked by the compiler (their extent needs the file).
    void inside_domain_3d(const Layer& l, const std::string& path) const {
        const auto& L = p_.domain.size;
        auto outside = [&](const std::array<double, 3>& lo, const std::array<double, 3>& hi) {
            for (int a = 0; a < 3; ++a)
                if (hi[a] < 0 || lo[a] > L[a]) return true;
            return false;
        };
        const std::string domain = "the domain interior [0, " + fmt(L[0]) + "] x [0, " + fmt(L[1]) + "] x [0, " +
                                   fmt(L[2]) + "] um";
        if (l.z && ((*l.z)[1] < 0 || (*l.z)[0] > L[2]))
            fail(path + ".z", "the layer's z range [" + fmt((*l.z)[0]) + ", " + fmt((*l.z)[1]) +
                                  "] um lies wholly outside " + domain);
        const double z0 = l.z ? (*l.z)[0] : 0, z1 = l.z ? (*l.z)[1] : L[2];
        for (std::size_t k = 0; k < l.shapes.size(); ++k) {
            const Shape& s = l.shapes[k];
            // a bounding box (um) of the shape, generous where the exact one needs geometry
            double x0 = 0, y0 = 0, x1 = 0, y1 = 0, r = 0;
            std::array<double, 3> lo{0, 0, z0}, hi{0, 0, z1};
            auto points = [&](const std::vector<Vec2>& pts, double pad) {
                if (pts.empty()) return false;
                x0 = x1 = pts[0].x;
                y0 = y1 = pts[0].y;
                for (const Vec2& q : pts) {
                    x0 = std::min(x0, q.x), x1 = std::max(x1, q.x);
                    y0 = std::min(y0, q.y), y1 = std::max(y1, q.y);
                }
                x0 -= pad, y0 -= pad, x1 += pad, y1 += pad;
                return true;
            };
            switch (s.type) {
                case ShapeType::Rectangle: {
                    const double cx = 0.5 * (s.min.x + s.max.x), cy = 0.5 * (s.min.y + s.max.y);
                    r = 0.5 * std::hypot(s.max.x - s.min.x, s.max.y - s.min.y);
                    x0 = cx - r, x1 = cx + r, y0 = cy - r, y1 = cy + r;
                    break;
                }
                case ShapeType::Ellipse:
                    r = std::max(s.radii.x, s.radii.y);
                    x0 = s.center.x - r, x1 = s.center.x + r, y0 = s.center.y - r, y1 = s.center.y + r;
                    break;
                case ShapeType::Ring:
                    r = s.outer_radius;
                    x0 = s.center.x - r, x1 = s.center.x + r, y0 = s.center.y - r, y1 = s.center.y + r;
                    break;
                case ShapeType::Polygon:
                    if (!points(s.points, 0)) continue;
                    break;
                case ShapeType::Path:
                    if (!points(s.points, s.width + s.bend_radius.value_or(0))) continue;
                    break;
                case ShapeType::Raster:
                    x0 = s.origin.x, y0 = s.origin.y;
                    x1 = x0 + s.width_px * s.pixel_size, y1 = y0 + s.height_px * s.pixel_size;
                    break;
                case ShapeType::Step:
                case ShapeType::Gds: continue;
                case ShapeType::Sphere:
                    lo = {s.center_3d.x - s.radius, s.center_3d.y - s.radius, s.center_3d.z - s.radius};
                    hi = {s.center_3d.x + s.radius, s.center_3d.y + s.radius, s.center_3d.z + s.radius};
                    break;
                case ShapeType::Box:
                    lo = {s.box_min.x, s.box_min.y, s.box_min.z};
                    hi = {s.box_max.x, s.box_max.y, s.box_max.z};
                    break;
            }
            if (s.type != ShapeType::Sphere && s.type != ShapeType::Box) {
                // extruded: a sloped sidewall widens the base by at most |tan(angle)| * height
                const double pad = std::abs(std::tan(l.sidewall_angle_deg * 3.14159265358979323846 / 180)) * (z1 - z0);
                lo = {x0 - pad, y0 - pad, z0};
                hi = {x1 + pad, y1 + pad, z1};
            }
            if (outside(lo, hi))
                fail(index_path(path + ".shapes", k),
                     "the shape lies wholly outside " + domain + " (its extent is [" + fmt(lo[0]) + ", " + fmt(hi[0]) +
                         "] x [" + fmt(lo[1]) + ", " + fmt(hi[1]) + "] x [" + fmt(lo[2]) + ", " + fmt(hi[2]) + "] um)");
        }
    }

    // ---------------------------------------------------------------- sources

    void source(const Source& s, const std::string& path) const {
        bounded(s.at, path + ".at");
        bounded(s.from, path + ".from");
        bounded(s.to, path + ".to");
        bounded(s.waist, path + ".waist");
        int plane_axis = -1;
        switch (s.type) {
            case SourceType::Point: needs_z(s.at_z, path + ".at", "a point"); break;
            case SourceType::Line:
                if (dims() == 3)
                    fail(path + ".type", "a line source needs a 2D domain; in 3D use a plane source (center, size)");
                if (s.from == s.to) fail(path + ".to", "must differ from \"from\" (a line source needs a length)");
                break;
            case SourceType::Region:
                if (!s.shape) fail(path + ".shape", "is required but missing");
                shape(*s.shape, path + ".shape");
                break;
            case SourceType::Plane:
                bounded(s.center, path + ".center");
                plane_axis = plane_size(s.size, path + ".size", "plane source");
                break;
            case SourceType::Tfsf: {
                bounded(s.box_min, path + ".min");
                bounded(s.box_max, path + ".max");
                if (dims() == 3) {
                    box3(s.box_min, s.box_max, path + ".max");
                } else {
                    box(Vec2{s.box_min.x, s.box_min.y}, Vec2{s.box_max.x, s.box_max.y}, path + ".max");
                }
                direction(s.direction, path + ".direction");
                const int axis = s.direction[1] - 'x';
                e_polarization(s.component, axis, path + ".component", "a tfsf wave along " + s.direction);
                break;
            }
        }
        component(s.component, path + ".component");
        if (s.type == SourceType::Line || s.type == SourceType::Plane) {
            if (s.profile == SourceProfile::Gaussian) positive(s.waist, path + ".waist");
            if (s.profile == SourceProfile::Mode) {
                if (s.mode_index < 0) fail(path + ".mode_index", "must be >= 0 (0 is the fundamental mode)");
                direction(s.direction, path + ".direction");
            }
        }
        if (s.type == SourceType::Plane) {
            // One-way injection: `direction` (mode: its own; uniform/gaussian: optional).
            if (s.profile != SourceProfile::Mode) {
                const auto it = s.extra.find("direction");
                if (it != s.extra.end()) {
                    if (!it->is_string())
                        fail(path + ".direction", "must be a direction string such as \"+x\"");
                    direction(it->get<std::string>(), path + ".direction");
                }
            }
            const std::string d = one_way_direction(s);
            if (!d.empty()) along_normal(d, plane_axis, s.size, path + ".direction", "plane source");
            if (s.profile != SourceProfile::Mode && dims() == 3)
                e_polarization(s.component, plane_axis, path + ".component",
                               "a plane source normal to " + std::string(1, "xyz"[plane_axis]));
        }
        const Waveform& w = s.waveform;
        const std::string wp = path + ".waveform";
        if (w.type == WaveformType::GaussianPulse) {
            positive(w.wavelength_center, wp + ".wavelength_center");
            positive(w.wavelength_span, wp + ".wavelength_span");
            if (!(w.wavelength_span < 2 * w.wavelength_center))
                fail(wp + ".wavelength_span", "must be < 2 x wavelength_center (" + fmt(2 * w.wavelength_center) +
                                                  " um): the pulse's shortest wavelength must stay > 0");
        } else {
            positive(w.wavelength, wp + ".wavelength");
            non_negative(w.ramp_periods, wp + ".ramp_periods");
        }
    }

    // ---------------------------------------------------------------- monitors

    const Monitor* monitor_named(const std::string& name) const {
        for (const auto& m : p_.monitors)
            if (m.name == name) return &m;
        return nullptr;
    }

    /// A diffraction monitor (project-format.md "Diffraction monitors"): a flux line or
    /// plane whose tangential axes are periodic and which spans the whole period along them
    /// (the Floquet orders are those of the period).
    void diffraction_monitor(const Monitor& m, const std::string& path) const {
        if (m.kind == "mode")
            fail(path + ".kind", "a diffraction monitor's kind is \"transmission\", \"reflection\" or \"flux\"");
        if (m.diffraction->index && !(*m.diffraction->index > 0))
            fail(path + ".index", "must be > 0 (the refractive index at the monitor)");
        const bool plane = m.size != Vec3{};
        const int normal = plane ? (m.size.x == 0 ? 0 : m.size.y == 0 ? 1 : 2) : (m.direction[1] == 'x' ? 0 : 1);
        static const char* const kAxis[3] = {"x", "y", "z"};
        for (int a = 0; a < dims(); ++a) {
            if (a == normal) continue;
            if (p_.domain.boundaries[std::size_t(a)] != BoundaryKind::Periodic)
                fail(path + ".type", std::string("a diffraction monitor needs a periodic domain along its plane: "
                                                 "domain.boundaries.") + kAxis[a] + " is \"" +
                                         to_string(p_.domain.boundaries[std::size_t(a)]) + "\", not \"periodic\"");
            const double extent = plane ? (a == 0 ? m.size.x : a == 1 ? m.size.y : m.size.z)
                                        : std::abs(a == 0 ? m.to.x - m.from.x : m.to.y - m.from.y);
            const double period = p_.domain.size[std::size_t(a)];
            if (extent < period - 1e-9 * std::max(1.0, period))
                fail(path + (plane ? ".size" : ".to"),
                     std::string("a diffraction monitor spans the whole period along ") + kAxis[a] + " (" +
                         fmt(period) + " um); it spans " + fmt(extent) + " um");
        }
    }

    /// A `far_field` object at `fp`; `flux` (a flux line or plane, else a flux_box) may
    /// take `periods` along its tangential axes, each a periodic (or Bloch) axis the
    /// monitor spans whole.
    void far_field(const FarFieldSettings& ff, const std::string& fp, const Monitor* flux) const {
        for (std::size_t k = 0; k < ff.wavelengths.size(); ++k)
            positive(ff.wavelengths[k], index_path(fp + ".wavelengths", k));
        if (ff.theta_points < 2 || ff.theta_points > 3601)
            fail(fp + ".theta_points", "must be 2 .. 3601 (found " + std::to_string(ff.theta_points) + ")");
        if (ff.phi_points < 0 || ff.phi_points > 7200)
            fail(fp + ".phi_points", "must be 1 .. 7200, or 0 for the default (found " + std::to_string(ff.phi_points) + ")");
        if (!flux) return;
        const Monitor& m = *flux;
        if (m.kind == "mode") fail(fp, "a mode monitor has no far field: use a flux monitor (kind \"flux\")");
        const bool plane = m.size != Vec3{};
        const int normal = plane ? (m.size.x == 0 ? 0 : m.size.y == 0 ? 1 : 2) : (m.direction[1] == 'x' ? 0 : 1);
        static const char* const kAxis[3] = {"x", "y", "z"};
        int slot = 0;
        for (int a = 0; a < dims() && slot < 2; ++a) {
            if (a == normal) continue;
            const int n = ff.periods[std::size_t(slot)];
            const std::string pp = dims() == 3 ? index_path(fp + ".periods", std::size_t(slot)) : fp + ".periods";
            ++slot;
            if (n < 1 || n > 1000) fail(pp, "must be 1 .. 1000 (found " + std::to_string(n) + ")");
            if (n == 1) continue;
            if (p_.domain.boundaries[std::size_t(a)] != BoundaryKind::Periodic)
                fail(pp, std::string("copies of the plane need a periodic (or Bloch) domain along ") + kAxis[a] +
                             ": domain.boundaries." + kAxis[a] + " is \"" +
                             to_string(p_.domain.boundaries[std::size_t(a)]) + "\"");
            const double extent = plane ? (a == 0 ? m.size.x : a == 1 ? m.size.y : m.size.z)
                                        : std::abs(a == 0 ? m.to.x - m.from.x : m.to.y - m.from.y);
            const double period = p_.domain.size[std::size_t(a)];
            if (extent < period - 1e-9 * std::max(1.0, period))
                fail(fp + ".periods", std::string("copies of the plane need it to span the whole period along ") +
                                          kAxis[a] + " (" + fmt(period) + " um); it spans " + fmt(extent) + " um");
        }
        if (dims() == 2 && ff.periods[1] != 1) fail(fp + ".periods", "a 2D flux line has one tangential axis: one number");
    }

    void monitors() const {
        std::set<std::string> names;
        for (std::size_t i = 0; i < p_.monitors.size(); ++i) {
            const Monitor& m = p_.monitors[i];
            const std::string path = index_path("monitors", i);
            if (m.name.empty()) fail(path + ".name", "must not be empty (it names the output column/file)");
            if (!names.insert(m.name).second) fail(path + ".name", "duplicate monitor name " + quoted(m.name));
            bounded(m.from, path + ".from");
            bounded(m.to, path + ".to");
            if (m.min) bounded(*m.min, path + ".min");
            if (m.max) bounded(*m.max, path + ".max");
            if (m.at) bounded(*m.at, path + ".at");
            switch (m.type) {
                case MonitorType::Flux: {
                    const bool plane = m.size != Vec3{};
                    if (dims() == 3 && !plane)
                        fail(path + ".size", "a flux monitor in a 3D domain is a plane: give \"center\" and \"size\" "
                                             "[sx, sy, sz] with exactly one zero entry (\"from\"/\"to\" give a 2D line)");
                    if (plane) {
                        bounded(m.center, path + ".center");
                        const int axis = plane_size(m.size, path + ".size", "flux plane");
                        direction(m.direction, path + ".direction");
                        along_normal(m.direction, axis, m.size, path + ".direction", "monitor plane");
                    } else {
                        if (m.from == m.to) fail(path + ".to", "must differ from \"from\" (a flux line needs a length)");
                        direction(m.direction, path + ".direction");
                        const char axis = m.direction[1];
                        if ((axis == 'x' && m.from.y == m.to.y) || (axis == 'y' && m.from.x == m.to.x))
                            fail(path + ".direction", "direction " + m.direction + " is parallel to the monitor line: no flux crosses it");
                    }
                    if (m.kind != "transmission" && m.kind != "reflection" && m.kind != "flux" &&
                        m.kind != "mode")  // mode: spec "Mode sources and monitors"
                        fail(path + ".kind", "unknown kind " + quoted(m.kind) +
                                                 "; expected one of \"transmission\", \"reflection\", \"flux\", "
                                                 "\"mode\"");
                    if (m.diffraction) diffraction_monitor(m, path);
                    if (m.far_field) far_field(*m.far_field, path + ".far_field", &m);
                    break;
                }
                case MonitorType::FluxBox:
                    if (!m.min) fail(path + ".min", "is required but missing");
                    if (!m.max) fail(path + ".max", "is required but missing");
                    needs_z(m.min_z, path + ".min", "a box corner");
                    needs_z(m.max_z, path + ".max", "a box corner");
                    box(*m.min, *m.max, path + ".max");
                    if (dims() == 3 && !(*m.max_z > *m.min_z))
                        fail(path + ".max[2]", "must be > min z (" + fmt(*m.min_z) + ")");
                    if (m.kind != "absorption" && m.kind != "scattering" && m.kind != "flux")
                        fail(path + ".kind", "unknown kind " + quoted(m.kind) +
                                                 "; expected one of \"absorption\", \"scattering\", \"flux\"");
                    if (m.far_field) far_field(*m.far_field, path + ".far_field", nullptr);
                    break;
                case MonitorType::Time:
                    if (m.at && m.shape) fail(path + ".shape", "give either \"at\" (a point) or \"shape\" (a region), not both");
                    if (!m.at && !m.shape) fail(path + ".at", "is required: a time monitor needs \"at\" (a point) or \"shape\" (a region)");
                    if (m.at) needs_z(m.at_z, path + ".at", "a point");
                    if (m.shape) shape(*m.shape, path + ".shape");
                    component(m.component, path + ".component");
                    if (m.resonances) {
                        const ResonanceSettings& rs = *m.resonances;
                        const std::string rp = path + ".resonances";
                        if (rs.wavelength_min) positive(*rs.wavelength_min, index_path(rp + ".band", 0));
                        if (rs.wavelength_max) positive(*rs.wavelength_max, index_path(rp + ".band", 1));
                        if (rs.wavelength_min && rs.wavelength_max && !(*rs.wavelength_max > *rs.wavelength_min))
                            fail(index_path(rp + ".band", 1), "must be > the band's first wavelength (" +
                                                                  fmt(*rs.wavelength_min) + " um)");
                        if (!(rs.q_min >= 0)) fail(rp + ".q_min", "must be >= 0 (found " + fmt(rs.q_min) + ")");
                    }
                    break;
                case MonitorType::DftField:
                    if (m.wavelengths.empty()) fail(path + ".wavelengths", "must list at least one wavelength (um)");
                    if (m.wavelengths.size() > std::size_t(limits::kMaxDftWavelengths))
                        fail(path + ".wavelengths", "lists " + std::to_string(m.wavelengths.size()) +
                                                        " wavelengths, more than the limit of " +
                                                        std::to_string(limits::kMaxDftWavelengths));
                    for (std::size_t k = 0; k < m.wavelengths.size(); ++k)
                        positive(m.wavelengths[k], index_path(path + ".wavelengths", k));
                    if (m.components.empty()) fail(path + ".components", "must list at least one field component");
                    for (std::size_t k = 0; k < m.components.size(); ++k)
                        component(m.components[k], index_path(path + ".components", k));
                    if (m.min.has_value() != m.max.has_value())
                        fail(path + (m.min ? ".max" : ".min"), "\"min\" and \"max\" go together (a region), or neither");
                    if (m.min && dims() == 3) {
                        // A volume or a plane: max >= min on every axis, at most one flat axis.
                        needs_z(m.min_z, path + ".min", "a box corner");
                        needs_z(m.max_z, path + ".max", "a box corner");
                        const Vec3 lo{m.min->x, m.min->y, *m.min_z}, hi{m.max->x, m.max->y, *m.max_z};
                        int flat = 0;
                        for (int a = 0; a < 3; ++a) {
                            if (!(hi[a] >= lo[a]))
                                fail(index_path(path + ".max", a),
                                     std::string("must be >= min ") + "xyz"[a] + " (" + fmt(lo[a]) + ")");
                            flat += hi[a] == lo[a];
                        }
                        if (flat > 1)
                            fail(path + ".max", "the region must be a volume or a plane (at most one of its extents "
                                                "zero; found " + vec3_text(Vec3{hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}) + ")");
                    } else if (m.min) {
                        box(*m.min, *m.max, path + ".max");
                    }
                    break;
            }
        }
    }

    // ---------------------------------------------------------------- run

    void run_settings() const {
        const RunSettings& r = p_.run;
        positive(r.spectrum.wavelength_min, "run.spectrum.wavelength_min");
        if (r.spectrum.points < 1)
            fail("run.spectrum.points", "must be >= 1 (found " + std::to_string(r.spectrum.points) + ")");
        if (r.spectrum.points > limits::kMaxSpectrumPoints)
            fail("run.spectrum.points", "must be at most " + std::to_string(limits::kMaxSpectrumPoints) + " (found " +
                                            std::to_string(r.spectrum.points) + ")");
        if (r.spectrum.points == 1 ? !(r.spectrum.wavelength_max >= r.spectrum.wavelength_min)
                                   : !(r.spectrum.wavelength_max > r.spectrum.wavelength_min))
            fail("run.spectrum.wavelength_max", "must be > wavelength_min (" + fmt(r.spectrum.wavelength_min) + " um)");

        const double limit = 1.0 / std::sqrt(static_cast<double>(dims() == 3 ? 3 : 2));
        positive(r.courant, "run.courant");
        if (!(r.courant < limit))
            fail("run.courant", "must be below 1/sqrt(" + std::to_string(dims() == 3 ? 3 : 2) + ") = " + fmt(limit) +
                                    " for a " + std::to_string(dims()) +
                                    "D Yee grid (Courant stability limit; found " + fmt(r.courant) + ")");

        positive(r.stop.decay_db, "run.stop.decay_db");
        positive(r.stop.max_time_fs, "run.stop.max_time_fs");
        if (r.stop.max_steps && *r.stop.max_steps < 1) fail("run.stop.max_steps", "must be >= 1");
        if (r.stop.monitor) {
            const Monitor* m = monitor_named(*r.stop.monitor);
            if (!m) fail("run.stop.monitor", "unknown monitor " + quoted(*r.stop.monitor));
            if (m->type != MonitorType::Time)
                fail("run.stop.monitor", "monitor " + quoted(*r.stop.monitor) +
                                             " is not a time monitor (the decay is measured on a time series)");
        }
        if (r.stop.resonances) {
            bool any = false;
            for (const Monitor& m : p_.monitors) any = any || (m.type == MonitorType::Time && m.resonances);
            if (!any)
                fail("run.stop.resonances", "needs a time monitor with \"resonances\" (the stop rule waits for "
                                            "their estimates to converge)");
        }

        const Normalization& n = r.normalization;
        for (std::size_t k = 0; k < n.reference_layers.size(); ++k) {
            bool found = false;
            for (const auto& l : p_.layers) found |= l.name == n.reference_layers[k];
            if (!found)
                fail(index_path("run.normalization.reference_layers", k),
                     "unknown layer " + quoted(n.reference_layers[k]));
        }
        if (n.incident_monitor) {
            const Monitor* m = monitor_named(*n.incident_monitor);
            if (!m) fail("run.normalization.incident_monitor", "unknown monitor " + quoted(*n.incident_monitor));
            if (m->type != MonitorType::Flux)
                fail("run.normalization.incident_monitor",
                     "monitor " + quoted(*n.incident_monitor) + " is not a flux monitor");
        }

        if (r.frames.every_steps < 1)
            fail("run.frames.every_steps", "must be >= 1 (found " + std::to_string(r.frames.every_steps) + ")");
        component(r.frames.component, "run.frames.component");
        if (r.frames.plane != "xy" && r.frames.plane != "xz" && r.frames.plane != "yz")
            fail("run.frames.plane", "unknown plane " + quoted(r.frames.plane) + "; expected one of \"xy\", \"xz\", \"yz\"");
        if (r.frames.position) bounded(*r.frames.position, "run.frames.position");
    }

    const Project& p_;
    const std::string& file_;
};

}  // namespace

void validate_project(const Project& project, const std::string& file_label) {
    Validator(project, file_label).run();
    // the `design` section's own fields; its references to materials and monitors are
    // checked where it is used (design_spec.hpp)
    (void)design_spec(project, file_label, false);
}

void check_runnable(const Project& project, const std::string& file_label) {
    // Everything the 3D CPU path cannot run yet, in one place: delete a check here when
    // the compiler/engines gain the feature (and its line in project.hpp and the user guide).
    if (project.domain.dimensions != 3) return;
    auto refuse = [&](const std::string& path, const std::string& msg) {
        throw ProjectError(file_label, path, msg);
    };
    // The 3D CUDA engine (cuda_engine3d.cu) runs everything below except Mur faces.
    if (project.run.backend == BackendChoice::Cuda) {
        for (int a = 0; a < 3; ++a)
            if (project.domain.boundaries[a] == BoundaryKind::Mur)
                refuse("run.backend", std::string("3D runs with a 'mur' boundary (domain.boundaries.") + "xyz"[a] +
                                          ") are not supported by the CUDA backend yet: use the CPU backend "
                                          "(\"backend\": \"cpu\" or \"auto\", or golightly-cli run --backend cpu)");
    }
    for (std::size_t i = 0; i < project.sources.size(); ++i) {
        const Source& s = project.sources[i];
        const std::string path = index_path("sources", i);
        if (s.type == SourceType::Region)
            refuse(path + ".type", "region sources are not supported in 3D yet (use a point, plane or tfsf source)");
        if (s.type == SourceType::Line && s.profile == SourceProfile::Mode)
            refuse(path + ".type", "line sources are 2D: a 3D mode source is a plane (center, size)");
    }
}

std::string one_way_direction(const Source& source) {
    if (source.type != SourceType::Line && source.type != SourceType::Plane) return "";
    if (source.profile == SourceProfile::Mode) return source.direction;
    const auto it = source.extra.find("direction");
    return (it != source.extra.end() && it->is_string()) ? it->get<std::string>() : "";
}

}  // namespace golightly
