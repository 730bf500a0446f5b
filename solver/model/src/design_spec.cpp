// The `design` section's reader (design_spec.hpp; docs/spec/project-format.md "Inverse
// design"). It reads the JSON kept in Project::extra["design"]; each error names the file
// and the JSON path of the field, as the rest of the reader.
#include "golightly/design_spec.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <set>

#include "golightly/errors.hpp"
#include "golightly/parameters.hpp"

namespace golightly {

namespace {

std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

struct Reader {
    const std::string& file;
    bool references = true;  ///< check what depends on the rest of the project (design_spec.hpp)
    [[noreturn]] void fail(const std::string& path, const std::string& msg) const { throw ProjectError(file, path, msg); }

    const Json& object(const Json& j, const std::string& path) const {
        if (!j.is_object()) fail(path, "must be an object");
        return j;
    }
    double number(const Json& o, const std::string& path, const char* key, std::optional<double> fallback) const {
        const std::string p = path + "." + key;
        if (!o.contains(key)) {
            if (!fallback) fail(p, "is required");
            return *fallback;
        }
        const Json& v = o.at(key);
        if (!v.is_number()) fail(p, "must be a number");
        const double d = v.get<double>();
        if (!std::isfinite(d)) fail(p, "must be a finite number");
        return d;
    }
    double positive(const Json& o, const std::string& path, const char* key, std::optional<double> fallback) const {
        const double d = number(o, path, key, fallback);
        if (!(d > 0)) fail(path + "." + key, "must be > 0 (found " + num(d) + ")");
        return d;
    }
    int integer(const Json& o, const std::string& path, const char* key, int fallback, int lo) const {
        const std::string p = path + "." + key;
        if (!o.contains(key)) return fallback;
        const Json& v = o.at(key);
        if (!v.is_number_integer()) fail(p, "must be an integer");
        const long long i = v.get<long long>();
        if (i < lo || i > 1000000000) fail(p, "must be at least " + std::to_string(lo) + " (found " + std::to_string(i) + ")");
        return int(i);
    }
    std::string string(const Json& o, const std::string& path, const char* key, std::optional<std::string> fallback,
                       std::initializer_list<const char*> allowed = {}) const {
        const std::string p = path + "." + key;
        if (!o.contains(key)) {
            if (!fallback) fail(p, "is required");
            return *fallback;
        }
        const Json& v = o.at(key);
        if (!v.is_string()) fail(p, "must be a string");
        std::string s = v.get<std::string>();
        if (allowed.size()) {
            std::string list;
            for (const char* a : allowed) {
                if (s == a) return s;
                list += std::string(list.empty() ? "" : ", ") + a;
            }
            fail(p, "must be one of " + list + " (found \"" + s + "\")");
        }
        return s;
    }
    Vec3 point(const Json& o, const std::string& path, const char* key, int dims) const {
        const std::string p = path + "." + key;
        if (!o.contains(key)) fail(p, "is required");
        const Json& v = o.at(key);
        const std::size_t want = std::size_t(dims);
        if (!v.is_array() || !(v.size() == want || (dims == 2 && v.size() == 3)))
            fail(p, dims == 3 ? "must be [x, y, z] (um)" : "must be [x, y] (um)");
        Vec3 r;
        for (std::size_t a = 0; a < want; ++a) {
            if (!v[a].is_number() || !std::isfinite(v[a].get<double>())) fail(p + "[" + std::to_string(a) + "]", "must be a finite number");
            r[int(a)] = v[a].get<double>();
        }
        return r;
    }
};

void check_material(const Project& project, const Reader& rd, const std::string& path, const std::string& id) {
    const Material* m = project.find_material(id);
    if (!m) rd.fail(path, "unknown material id \"" + id + "\"");
    if (m->mu_r != 1)
        rd.fail(path, "material \"" + id +
                          "\" is magnetic (mu_r != 1): a design region maps between two materials of mu_r 1 (their "
                          "epsilon_inf, conductivity and poles are interpolated)");
}

const Monitor* mode_monitor(const Project& project, const Reader& rd, const std::string& path, const std::string& name) {
    for (const Monitor& m : project.monitors)
        if (m.name == name) {
            if (m.type != MonitorType::Flux || m.kind != "mode")
                rd.fail(path, "monitor \"" + name + "\" is not a mode monitor (a flux monitor with kind \"mode\")");
            return &m;
        }
    rd.fail(path, "unknown monitor \"" + name + "\"");
}

/// Refuses a mode monitor whose line (2D) or plane (3D) passes through the inside of a
/// design region: its modes are solved on the compiled structure, which does not hold the
/// design, so the overlap would use the mode of a guide that the optimization replaces.
/// Touching a face of the box is allowed (the samples then lie outside it or on its face).
void check_mode_monitor_outside(const Project& project, const Reader& rd, const std::string& path, const Monitor& m,
                                const std::vector<DesignRegionSpec>& regions) {
    const int dims = project.domain.dimensions;
    constexpr double tol = 1e-9;  // um
    static const char* axes[] = {"x", "y", "z"};
    for (const DesignRegionSpec& r : regions) {
        bool crosses = false;
        std::string where;
        if (m.size != Vec3{}) {  // a plane (3D; also accepted in 2D as a line's centre and size)
            int normal = -1;
            for (int a = 0; a < dims && normal < 0; ++a)
                if (m.size[a] == 0) normal = a;
            if (normal < 0) continue;  // not a plane: the project reader refuses it
            crosses = m.center[normal] > r.min[normal] + tol && m.center[normal] < r.max[normal] - tol;
            for (int a = 0; a < dims && crosses; ++a) {
                if (a == normal) continue;
                const double lo = m.center[a] - 0.5 * std::abs(m.size[a]), hi = m.center[a] + 0.5 * std::abs(m.size[a]);
                crosses = std::min(hi, r.max[a]) - std::max(lo, r.min[a]) > tol;
            }
            where = std::string(axes[normal]) + " = " + num(m.center[normal]) + " um, inside " + num(r.min[normal]) +
                    " .. " + num(r.max[normal]) + " um";
        } else {  // a 2D line from..to, clipped to the open box (Liang & Barsky)
            double t0 = 0, t1 = 1;
            const double p0[2] = {m.from.x, m.from.y}, d[2] = {m.to.x - m.from.x, m.to.y - m.from.y};
            crosses = true;
            for (int a = 0; a < 2 && crosses; ++a) {
                const double lo = r.min[a] + tol, hi = r.max[a] - tol;
                if (d[a] == 0) {
                    crosses = p0[a] > lo && p0[a] < hi;
                    continue;
                }
                double ta = (lo - p0[a]) / d[a], tb = (hi - p0[a]) / d[a];
                if (ta > tb) std::swap(ta, tb);
                t0 = std::max(t0, ta);
                t1 = std::min(t1, tb);
                crosses = t1 > t0;
            }
            where = "the line crosses the box";
        }
        if (crosses)
            rd.fail(path, "mode monitor \"" + m.name + "\" passes through design region \"" + r.name + "\" (" + where +
                              "): its modes are solved for the structure without the design; move it outside the box");
    }
}

/// `design.regions[i].fixed`: boxes inside the region, rho 0 or 1. Whether a box holds a
/// pixel centre is checked only with the references (`optimize --adjoint`): an edit of the
/// pixel edge in the IDE must not make the file unreadable.
void parse_fixed(const Reader& rd, const Json& list, const std::string& path, int dims, DesignRegionSpec& r) {
    if (!list.is_array()) rd.fail(path, "must be a list of boxes { \"min\", \"max\", \"rho\" }");
    static const char* axes[] = {"x", "y", "z"};
    constexpr double tol = 1e-9;  // um
    for (std::size_t k = 0; k < list.size(); ++k) {
        const std::string bp = path + "[" + std::to_string(k) + "]";
        const Json& b = rd.object(list[k], bp);
        DesignFixedBox box;
        box.min = rd.point(b, bp, "min", dims);
        box.max = rd.point(b, bp, "max", dims);
        if (dims == 2) box.min.z = box.max.z = 0;
        for (int a = 0; a < dims; ++a) {
            if (!(box.max[a] > box.min[a]))
                rd.fail(bp + ".max", std::string("must exceed min along ") + axes[a] + " (" + num(box.min[a]) +
                                         " um; found " + num(box.max[a]) + " um)");
            if (box.min[a] < r.min[a] - tol || box.max[a] > r.max[a] + tol)
                rd.fail(bp, std::string("the box must lie inside the design region (") + num(r.min[a]) + " .. " +
                                num(r.max[a]) + " um along " + axes[a] + "; found " + num(box.min[a]) + " .. " +
                                num(box.max[a]) + " um)");
        }
        if (!b.contains("rho")) rd.fail(bp + ".rho", "is required (0: held at the low material, 1: the high one)");
        const Json& v = b.at("rho");
        if (!v.is_number() || (v.get<double>() != 0 && v.get<double>() != 1))
            rd.fail(bp + ".rho", "must be 0 or 1 (found " + v.dump() + ")");
        box.rho = v.get<double>();
        r.fixed.push_back(box);
        if (rd.references) {
            DesignRegionSpec grid;  // the region's geometry with this box alone
            grid.min = r.min, grid.max = r.max, grid.pixel_um = r.pixel_um, grid.pixels = r.pixels;
            grid.fixed = {box};
            if (grid.fixed_pixels().empty())
                rd.fail(bp, "holds no pixel centre (pixels of " + num(r.pixel_um) +
                                " um: a pixel is fixed when its centre lies in the box)");
        }
    }
}

/// `design.shape_parameters`: [{"name", "min", "max", "step"?}], each name a project
/// parameter once; with the references, the parameter's value within [min, max].
void parse_shape_parameters(const Project& project, const Reader& rd, const Json& list, DesignSpec& s) {
    const std::string path = "design.shape_parameters";
    if (!list.is_array() || list.empty())
        rd.fail(path, "must be a non-empty list of {\"name\", \"min\", \"max\"} (project parameters to optimize)");
    std::set<std::string> seen;
    for (std::size_t k = 0; k < list.size(); ++k) {
        const std::string pp = path + "[" + std::to_string(k) + "]";
        const Json& o = rd.object(list[k], pp);
        DesignShapeParameter sp;
        sp.name = rd.string(o, pp, "name", std::nullopt);
        if (!seen.insert(sp.name).second) rd.fail(pp + ".name", "repeats parameter \"" + sp.name + "\"");
        sp.min = rd.number(o, pp, "min", std::nullopt);
        sp.max = rd.number(o, pp, "max", std::nullopt);
        if (!(sp.min < sp.max))
            rd.fail(pp + ".max", "must exceed min (" + num(sp.min) + "; found " + num(sp.max) + ")");
        if (o.contains("step")) {
            sp.step = rd.positive(o, pp, "step", std::nullopt);
            if (!(sp.step < 0.5 * (sp.max - sp.min)))
                rd.fail(pp + ".step", "must be below half of max - min (" + num(0.5 * (sp.max - sp.min)) + "; found " +
                                          num(sp.step) + ")");
        }
        if (rd.references) {
            const Parameter* par = nullptr;
            for (const Parameter& q : project.parameters)
                if (q.name == sp.name) par = &q;
            if (!par)
                rd.fail(pp + ".name", "\"" + sp.name + "\" is not a parameter of the project (top-level `parameters`)");
            if (par->value < sp.min || par->value > sp.max)
                rd.fail(pp, "the start value of \"" + sp.name + "\" (its parameter value, " + num(par->value) +
                                ") lies outside [min, max] = [" + num(sp.min) + ", " + num(sp.max) + "]");
        }
        s.shape_parameters.push_back(sp);
    }
}

DesignRegionSpec parse_region(const Project& project, const Reader& rd, const Json& j, const std::string& path) {
    rd.object(j, path);
    const int dims = project.domain.dimensions;
    DesignRegionSpec r;
    r.name = rd.string(j, path, "name", std::string("design"));
    r.min = rd.point(j, path, "min", dims);
    r.max = rd.point(j, path, "max", dims);
    if (dims == 2) r.min.z = r.max.z = 0;
    static const char* axes[] = {"x", "y", "z"};
    for (int a = 0; a < dims; ++a) {
        if (!(r.max[a] > r.min[a]))
            rd.fail(path + ".max", std::string("must exceed min along ") + axes[a] + " (" + num(r.min[a]) + " um)");
        if (rd.references && (r.min[a] < -1e-9 || r.max[a] > project.domain.size[std::size_t(a)] + 1e-9))
            rd.fail(path + ".min", std::string("the box must lie inside the domain (0 .. ") +
                                       num(project.domain.size[std::size_t(a)]) + " um along " + axes[a] + ")");
    }
    r.pixel_um = rd.positive(j, path, "pixel_um", std::nullopt);
    for (int a = 0; a < dims; ++a) {
        const double len = r.max[a] - r.min[a];
        const double n = std::round(len / r.pixel_um);
        if (n < 1 || std::abs(n * r.pixel_um - len) > 1e-6 * len)
            rd.fail(path + ".pixel_um", std::string("the box must be a whole number of pixels along ") + axes[a] + " (" +
                                            num(len) + " um / " + num(r.pixel_um) + " um = " + num(len / r.pixel_um) + ")");
        if (n > 100000) rd.fail(path + ".pixel_um", "too many pixels along " + std::string(axes[a]));
        r.pixels[std::size_t(a)] = int(n);
    }
    if (r.pixel_count() > 50000000ull) rd.fail(path + ".pixel_um", "too many pixels (" + std::to_string(r.pixel_count()) + ")");
    const std::string mp = path + ".materials";
    if (!j.contains("materials")) rd.fail(mp, "is required ([low, high] material ids)");
    const Json& mats = j.at("materials");
    if (!mats.is_array() || mats.size() != 2 || !mats[0].is_string() || !mats[1].is_string())
        rd.fail(mp, "must be [low, high]: two material ids");
    for (std::size_t k = 0; k < 2; ++k) {
        r.materials[k] = mats[k].get<std::string>();
        if (rd.references) check_material(project, rd, mp + "[" + std::to_string(k) + "]", r.materials[k]);
    }
    if (r.materials[0] == r.materials[1]) rd.fail(mp, "low and high must be two different materials");
    const std::string rp = path + ".rho";
    if (!j.contains("rho")) {
        r.rho_uniform = 0.5;
    } else {
        const Json& rho = j.at("rho");
        auto check01 = [&](double v, const std::string& p) {
            if (!std::isfinite(v) || v < 0 || v > 1) rd.fail(p, "must be in [0, 1] (found " + num(v) + ")");
        };
        if (rho.is_number()) {
            r.rho_uniform = rho.get<double>();
            check01(*r.rho_uniform, rp);
        } else if (rho.is_array()) {
            if (rho.size() != r.pixel_count())
                rd.fail(rp, "has " + std::to_string(rho.size()) + " values for " + std::to_string(r.pixel_count()) +
                                " pixels (" + std::to_string(r.pixels[0]) + " x " + std::to_string(r.pixels[1]) + " x " +
                                std::to_string(r.pixels[2]) + ", x fastest)");
            for (std::size_t i = 0; i < rho.size(); ++i) {
                const std::string p = rp + "[" + std::to_string(i) + "]";
                if (!rho[i].is_number()) rd.fail(p, "must be a number");
                r.rho_values.push_back(rho[i].get<double>());
                check01(r.rho_values.back(), p);
            }
        } else if (rho.is_string() && !rho.get<std::string>().empty()) {
            r.rho_file = rho.get<std::string>();
        } else {
            rd.fail(rp, "must be a number in [0, 1], a list of one per pixel, or a density file name (.csv or .h5)");
        }
    }
    if (j.contains("filter")) {
        const std::string fp = path + ".filter";
        const Json& f = rd.object(j.at("filter"), fp);
        r.filter_kind = rd.string(f, fp, "kind", std::string("conic"), {"conic", "gaussian"});
        r.filter_radius_um = rd.number(f, fp, "radius_um", std::nullopt);
        if (r.filter_radius_um < 0) rd.fail(fp + ".radius_um", "must be >= 0 (found " + num(r.filter_radius_um) + ")");
    }
    if (j.contains("projection")) {
        const std::string pp = path + ".projection";
        const Json& p = rd.object(j.at("projection"), pp);
        r.beta = rd.positive(p, pp, "beta", 8.0);
        r.eta = rd.number(p, pp, "eta", 0.5);
        if (r.eta < 0 || r.eta > 1) rd.fail(pp + ".eta", "must be in [0, 1] (found " + num(r.eta) + ")");
        r.beta_max = rd.number(p, pp, "beta_max", std::max(64.0, r.beta));
        if (!(r.beta_max >= r.beta)) rd.fail(pp + ".beta_max", "must be >= beta (" + num(r.beta) + ")");
        r.beta_every = rd.integer(p, pp, "beta_every", 20, 1);
        r.beta_factor = rd.number(p, pp, "beta_factor", 2.0);
        if (!(r.beta_factor >= 1)) rd.fail(pp + ".beta_factor", "must be >= 1 (found " + num(r.beta_factor) + ")");
        r.projection_kind = rd.string(p, pp, "kind", std::string("tanh"), {"tanh", "smoothed"});
        if (p.contains("betas")) {
            const std::string bp = pp + ".betas";
            const Json& b = p.at("betas");
            if (!b.is_array() || b.empty()) rd.fail(bp, "must be a non-empty list of betas (numbers > 0, or \"inf\" last)");
            for (std::size_t k = 0; k < b.size(); ++k) {
                const std::string ep = bp + "[" + std::to_string(k) + "]";
                double v = 0;
                if (b[k].is_string() && b[k].get<std::string>() == "inf") {
                    v = std::numeric_limits<double>::infinity();
                    if (r.projection_kind != "smoothed")
                        rd.fail(ep, "\"inf\" needs projection.kind \"smoothed\" (the tanh projection has no gradient at "
                                    "beta = infinity)");
                    if (k + 1 != b.size()) rd.fail(ep, "\"inf\" must be the last beta");
                } else if (b[k].is_number()) {
                    v = b[k].get<double>();
                    if (!(v > 0) || !std::isfinite(v)) rd.fail(ep, "must be > 0 (found " + num(v) + ")");
                } else {
                    rd.fail(ep, "must be a number > 0 or \"inf\"");
                }
                if (k > 0 && v < r.betas.back())
                    rd.fail(ep, "must not be below the beta before it (" + num(r.betas.back()) + ")");
                r.betas.push_back(v);
            }
        }
    }
    if (j.contains("fixed")) parse_fixed(rd, j.at("fixed"), path + ".fixed", dims, r);
    if (j.contains("min_length_um")) {
        r.min_length_um = rd.number(j, path, "min_length_um", 0.0);
        if (r.min_length_um < 0) rd.fail(path + ".min_length_um", "must be >= 0");
        if (r.min_length_um > 0 && (r.filter_kind != "conic" || r.filter_radius_um <= 0))
            rd.fail(path + ".min_length_um", "needs a conic filter (filter.kind \"conic\" with radius_um > 0)");
    }
    if (j.contains("min_length_from_beta")) {
        r.min_length_from_beta = rd.positive(j, path, "min_length_from_beta", std::nullopt);
        if (!(r.min_length_um > 0)) rd.fail(path + ".min_length_from_beta", "needs min_length_um > 0");
    }
    if (j.contains("min_length_relax_iterations")) {
        r.min_length_relax_iterations = rd.integer(j, path, "min_length_relax_iterations", 0, 0);
        if (!(r.min_length_um > 0)) rd.fail(path + ".min_length_relax_iterations", "needs min_length_um > 0");
    }
    if (j.contains("robust")) {
        const std::string rp = path + ".robust";
        const Json& rb = rd.object(j.at("robust"), rp);
        r.robust_eta_dilated = rd.number(rb, rp, "eta_dilated", 0.25);
        r.robust_eta_eroded = rd.number(rb, rp, "eta_eroded", 0.75);
        if (!(r.robust_eta_dilated > 0 && r.robust_eta_dilated < r.eta))
            rd.fail(rp + ".eta_dilated", "must lie between 0 and projection.eta (" + num(r.eta) + "), found " +
                                             num(r.robust_eta_dilated));
        if (!(r.robust_eta_eroded > r.eta && r.robust_eta_eroded < 1))
            rd.fail(rp + ".eta_eroded", "must lie between projection.eta (" + num(r.eta) + ") and 1, found " +
                                            num(r.robust_eta_eroded));
    }
    return r;
}

}  // namespace

std::vector<std::pair<std::size_t, double>> DesignRegionSpec::fixed_pixels() const {
    std::vector<std::pair<std::size_t, double>> out;
    if (fixed.empty()) return out;
    const std::size_t n = pixel_count();
    std::vector<signed char> value(n, -1);
    const int nx = pixels[0], ny = pixels[1], nz = pixels[2];
    const bool three = nz > 1 || max.z > min.z;
    for (const DesignFixedBox& b : fixed) {
        // the pixel index range whose centres min + (i + 1/2) h lie in [b.min, b.max]
        int lo[3] = {0, 0, 0}, hi[3] = {nx - 1, ny - 1, nz - 1};
        for (int a = 0; a < (three ? 3 : 2); ++a) {
            const double h = pixel_um;
            lo[a] = std::max(lo[a], int(std::ceil((b.min[a] - min[a]) / h - 0.5 - 1e-9)));
            hi[a] = std::min(hi[a], int(std::floor((b.max[a] - min[a]) / h - 0.5 + 1e-9)));
        }
        for (int k = lo[2]; k <= hi[2]; ++k)
            for (int j = lo[1]; j <= hi[1]; ++j)
                for (int i = lo[0]; i <= hi[0]; ++i)
                    value[std::size_t(i) + std::size_t(nx) * (std::size_t(j) + std::size_t(ny) * std::size_t(k))] =
                        b.rho > 0.5 ? 1 : 0;
    }
    for (std::size_t i = 0; i < n; ++i)
        if (value[i] >= 0) out.emplace_back(i, double(value[i]));
    return out;
}

namespace {

/// The port-modes of the top-level `ports` as golightly-cli sparams numbers them (port
/// order, then each port's `modes`, default [0]): labels "<name>:<mode>". Only what the
/// S-parameter terms need; the ports' own checks are parse_ports' (sparams.hpp), run by
/// `optimize --adjoint`.
std::vector<std::string> port_mode_labels_of(const Project& project, const Reader& rd, const std::string& path) {
    const auto it = project.extra.find("ports");
    if (it == project.extra.end() || !it->is_array() || it->empty())
        rd.fail(path, "the project has no `ports`: an S-parameter term reads the port-modes of the top-level `ports` "
                      "(project-format.md \"Ports and S-parameters\")");
    std::vector<std::string> labels;
    for (std::size_t p = 0; p < it->size(); ++p) {
        const Json& port = (*it)[p];
        const std::string name = port.is_object() && port.contains("name") && port["name"].is_string()
                                     ? port["name"].get<std::string>()
                                     : "ports[" + std::to_string(p) + "]";
        if (port.is_object() && port.contains("modes") && port["modes"].is_array()) {
            for (const Json& m : port["modes"]) labels.push_back(name + ":" + (m.is_number_integer() ? m.dump() : "?"));
        } else {
            labels.push_back(name + ":0");
        }
    }
    return labels;
}

/// A term `{"sparameter": "S<i><j>" or "S<i>_<j>", "weight": W}`: |S_ij|^2, i receiving, j
/// exciting, numbered from 1 as in sparams.csv. With the references: the project has
/// `ports`, both port-modes exist, and no port's plane passes through a design region.
void parse_sparameter_term(const Project& project, const Reader& rd, const Json& t, const std::string& path,
                           const std::vector<DesignRegionSpec>& regions, DesignObjectiveTerm& term) {
    const std::string sp = path + ".sparameter";
    term.sparameter = rd.string(t, path, "sparameter", std::nullopt);
    const std::string& v = term.sparameter;
    auto digits = [](const std::string& x) {
        return !x.empty() && x.size() <= 6 && std::all_of(x.begin(), x.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    int i = 0, j = 0;
    const std::size_t us = v.find('_');
    if (v.size() >= 3 && v[0] == 'S' && us != std::string::npos && digits(v.substr(1, us - 1)) && digits(v.substr(us + 1))) {
        i = std::stoi(v.substr(1, us - 1));
        j = std::stoi(v.substr(us + 1));
    } else if (v.size() == 3 && v[0] == 'S' && digits(v.substr(1))) {
        i = v[1] - '0';
        j = v[2] - '0';
    } else {
        rd.fail(sp, "must name an S-parameter as sparams.csv does: \"S<i><j>\" (e.g. \"S21\") or \"S<i>_<j>\", i the "
                    "receiving and j the exciting port-mode, from 1 (found \"" + v + "\")");
    }
    if (i < 1 || j < 1) rd.fail(sp, "port-modes are numbered from 1 (found \"" + v + "\")");
    term.s_receive = i - 1;
    term.s_excite = j - 1;
    if (!rd.references) return;
    const std::vector<std::string> labels = port_mode_labels_of(project, rd, sp);
    for (const int k : {i, j})
        if (std::size_t(k) > labels.size()) {
            std::string list;
            for (std::size_t q = 0; q < labels.size(); ++q) list += (q ? ", " : "") + std::to_string(q + 1) + " = " + labels[q];
            rd.fail(sp, "\"" + v + "\" names port-mode " + std::to_string(k) + ", but the project's ports have " +
                            std::to_string(labels.size()) + " (" + list + ")");
        }
    // a port's plane through a design region: its mode is solved without the design
    const auto& ports = project.extra.at("ports");
    for (std::size_t p = 0; p < ports.size(); ++p) {
        const Json& port = ports[p];
        if (!port.is_object() || !port.contains("center") || !port.contains("size")) continue;
        Monitor m;
        m.name = "port_" + port.value("name", std::string("?"));
        const Json &c = port["center"], &z = port["size"];
        if (!c.is_array() || !z.is_array()) continue;
        for (std::size_t a = 0; a < std::min<std::size_t>(3, std::min(c.size(), z.size())); ++a) {
            if (!c[a].is_number() || !z[a].is_number()) continue;
            m.center[int(a)] = c[a].get<double>();
            m.size[int(a)] = z[a].get<double>();
        }
        check_mode_monitor_outside(project, rd, "ports[" + std::to_string(p) + "]", m, regions);
    }
}

}  // namespace

namespace {

/// A term `{"far_field": NAME, "angle_deg": PHI, "weight": W}` (2D): the radiation
/// intensity of monitor NAME's far field towards PHI. With the references: NAME is a flux
/// line (not a mode monitor) or a flux_box with `far_field`, its `periods` 1.
void parse_far_field_term(const Project& project, const Reader& rd, const Json& t, const std::string& path,
                          DesignObjectiveTerm& term) {
    term.far_field = rd.string(t, path, "far_field", std::nullopt);
    if (project.domain.dimensions == 3) {
        // 3D (additive): the direction by theta_deg (from +z) and phi_deg (from +x towards +y)
        term.theta_deg = rd.number(t, path, "theta_deg", std::nullopt);
        term.phi_deg = rd.number(t, path, "phi_deg", std::nullopt);
        if (!std::isfinite(term.theta_deg)) rd.fail(path + ".theta_deg", "must be a finite angle in degrees");
        if (!std::isfinite(term.phi_deg)) rd.fail(path + ".phi_deg", "must be a finite angle in degrees");
        if (t.contains("angle_deg"))
            rd.fail(path + ".angle_deg", "is the 2D direction; a 3D far-field term takes theta_deg and phi_deg");
    } else {
        term.angle_deg = rd.number(t, path, "angle_deg", std::nullopt);
        if (!std::isfinite(term.angle_deg)) rd.fail(path + ".angle_deg", "must be a finite angle in degrees");
    }
    if (!rd.references) return;
    for (const Monitor& m : project.monitors) {
        if (m.name != term.far_field) continue;
        if (!((m.type == MonitorType::Flux && m.kind != "mode") || m.type == MonitorType::FluxBox))
            rd.fail(path + ".far_field", "monitor \"" + m.name + "\" is not a flux line or flux_box (the far field "
                                                                "projects a flux monitor's surface)");
        if (!m.far_field)
            rd.fail(path + ".far_field", "monitor \"" + m.name + "\" has no `far_field`: give it one (project-format.md "
                                                                "\"Far fields\")");
        if (m.far_field->periods[0] > 1 || m.far_field->periods[1] > 1)
            rd.fail(path + ".far_field", "monitor \"" + m.name + "\" has far_field.periods above 1, which far-field "
                                                                "terms do not take yet");
        return;
    }
    rd.fail(path + ".far_field", "unknown monitor \"" + term.far_field + "\"");
}

}  // namespace

std::optional<DesignSpec> design_spec(const Project& project, const std::string& file_label, bool check_references) {
    const auto it = project.extra.find("design");
    if (it == project.extra.end()) return std::nullopt;
    const Reader rd{file_label, check_references};
    const Json& d = rd.object(*it, "design");
    DesignSpec s;
    if (d.contains("shape_parameters")) {
        parse_shape_parameters(project, rd, d.at("shape_parameters"), s);
        if (d.contains("regions"))
            rd.fail("design.regions", "a design has either density `regions` or `shape_parameters`, not both (found both)");
    } else if (!d.contains("regions")) {
        rd.fail("design.regions", "is required (a list of design regions), unless the design has `shape_parameters`");
    }
    const Json regions = d.contains("regions") ? d.at("regions") : Json::array();  // none in a shape design
    if (s.shape_parameters.empty() && (!regions.is_array() || regions.empty()))
        rd.fail("design.regions", "must be a non-empty list");
    if (regions.size() > 1) rd.fail("design.regions", "one design region is supported for now (found " + std::to_string(regions.size()) + ")");
    std::set<std::string> names;
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const std::string path = "design.regions[" + std::to_string(i) + "]";
        s.regions.push_back(parse_region(project, rd, regions[i], path));
        if (!names.insert(s.regions.back().name).second) rd.fail(path + ".name", "repeats \"" + s.regions.back().name + "\"");
    }

    if (!d.contains("objective")) rd.fail("design.objective", "is required");
    const Json& o = rd.object(d.at("objective"), "design.objective");
    s.objective.maximize = rd.string(o, "design.objective", "goal", std::string("maximize"), {"maximize", "minimize"}) == "maximize";
    if (!o.contains("terms")) rd.fail("design.objective.terms", "is required");
    const Json& terms = o.at("terms");
    if (!terms.is_array() || terms.empty()) rd.fail("design.objective.terms", "must be a non-empty list");
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const std::string path = "design.objective.terms[" + std::to_string(i) + "]";
        const Json& t = rd.object(terms[i], path);
        DesignObjectiveTerm term;
        term.weight = rd.number(t, path, "weight", 1.0);
        const bool has_monitor = t.contains("monitor"), has_point = t.contains("point"), has_s = t.contains("sparameter"),
                   has_ff = t.contains("far_field");
        if (int(has_monitor) + int(has_point) + int(has_s) + int(has_ff) != 1)
            rd.fail(path, "needs exactly one of `monitor` (a mode monitor), `point`, `sparameter` (e.g. \"S21\") or "
                          "`far_field` (a monitor with a far field)");
        if (has_ff) {
            parse_far_field_term(project, rd, t, path, term);
        } else if (has_s) {
            parse_sparameter_term(project, rd, t, path, s.regions, term);
        } else if (has_monitor) {
            term.monitor = rd.string(t, path, "monitor", std::nullopt);
            term.mode = rd.integer(t, path, "mode", 0, 0);
            const Monitor* m = rd.references ? mode_monitor(project, rd, path + ".monitor", term.monitor) : nullptr;
            if (m) check_mode_monitor_outside(project, rd, path + ".monitor", *m, s.regions);
            std::size_t slots = 1;
            if (m)
                if (const auto mi = m->extra.find("modes"); mi != m->extra.end() && mi->is_array()) slots = mi->size();
            if (m && std::size_t(term.mode) >= slots)
                rd.fail(path + ".mode", "monitor \"" + term.monitor + "\" lists " + std::to_string(slots) +
                                            " mode(s); the slot must be below that (found " + std::to_string(term.mode) + ")");
            term.forward = rd.string(t, path, "direction", std::string("forward"), {"forward", "backward"}) == "forward";
        } else {
            term.point = rd.point(t, path, "point", project.domain.dimensions);
            const std::string c = rd.string(t, path, "component", std::string("Ez"), {"Ex", "Ey", "Ez"});
            term.component = c == "Ex" ? Component::Ex : c == "Ey" ? Component::Ey : Component::Ez;
            if (rd.references && project.domain.dimensions == 2) {
                const bool tmz = project.domain.polarization == Polarization::TMz;
                if (tmz != (term.component == Component::Ez))
                    rd.fail(path + ".component", std::string("the ") + (tmz ? "TMz" : "TEz") + " project has no " + c +
                                                     (tmz ? " (use Ez)" : " (use Ex or Ey)"));
            }
        }
        s.objective.terms.push_back(term);
    }
    // S-parameter terms: one excited port-mode (one forward run: the port-mode project of
    // golightly-cli sparams), which replaces the project's sources and mode monitors
    int excite = -1;
    for (std::size_t i = 0; i < s.objective.terms.size(); ++i) {
        const DesignObjectiveTerm& term = s.objective.terms[i];
        if (term.s_excite < 0) continue;
        const std::string path = "design.objective.terms[" + std::to_string(i) + "].sparameter";
        if (excite >= 0 && term.s_excite != excite)
            rd.fail(path, "excites port-mode " + std::to_string(term.s_excite + 1) + ", but an earlier term excites " +
                              std::to_string(excite + 1) + ": the S-parameter terms share one excited port-mode "
                              "(the column j of S_ij; one forward run per evaluation)");
        excite = term.s_excite;
    }
    if (excite >= 0)
        for (std::size_t i = 0; i < s.objective.terms.size(); ++i)
            if (!s.objective.terms[i].monitor.empty())
                rd.fail("design.objective.terms[" + std::to_string(i) + "].monitor",
                        "a mode-monitor term cannot join S-parameter terms: their run replaces the project's sources "
                        "and mode monitors with the excited port's mode source and the ports' monitors (as "
                        "golightly-cli sparams)");
    if (excite >= 0 && o.contains("normalize_by"))
        rd.fail("design.objective.normalize_by", "is not used with S-parameter terms: |S_ij|^2 is already relative to "
                                                 "the power launched into port-mode j");
    if (o.contains("wavelengths_um")) {
        const Json& w = o.at("wavelengths_um");
        if (!w.is_array() || w.empty()) rd.fail("design.objective.wavelengths_um", "must be a non-empty list of wavelengths (um)");
        for (std::size_t i = 0; i < w.size(); ++i) {
            const std::string p = "design.objective.wavelengths_um[" + std::to_string(i) + "]";
            if (!w[i].is_number() || !(w[i].get<double>() > 0) || !std::isfinite(w[i].get<double>()))
                rd.fail(p, "must be a positive wavelength (um)");
            s.objective.wavelengths_um.push_back(w[i].get<double>());
        }
    }
    s.objective.combine = rd.string(o, "design.objective", "combine", std::string("mean"), {"mean", "min", "expression"});
    if (s.objective.combine == "expression") {
        if (!o.contains("expression"))
            rd.fail("design.objective.expression", "is required with combine \"expression\" (e.g. \"min(F0, F1)\": F_k "
                                                   "is the value at wavelengths_um[k])");
        s.objective.expression = rd.string(o, "design.objective", "expression", std::nullopt);
        // the expression must evaluate with one variable per wavelength (all 1 here)
        std::vector<std::pair<std::string, double>> vars;
        for (std::size_t k = 0; k < std::max<std::size_t>(1, s.objective.wavelengths_um.size()); ++k)
        {
            std::string name = "F";  // (not "F" + to_string: GCC 12's false -Wrestrict)
            name += std::to_string(k);
            vars.emplace_back(name, 1.0);
        }
        try {
            const double v = evaluate_expression(s.objective.expression, vars, {});
            if (!std::isfinite(v)) throw std::invalid_argument("it is not finite with every F_k = 1");
        } catch (const std::invalid_argument& e) {
            rd.fail("design.objective.expression", std::string(e.what()) + " (the variables are F0 .. F" +
                                                       std::to_string(vars.size() - 1) + ", one per wavelength)");
        }
    } else if (o.contains("expression")) {
        rd.fail("design.objective.expression", "is used only with combine \"expression\" (found combine \"" +
                                                   s.objective.combine + "\")");
    }
    if (o.contains("normalize_by")) {
        s.objective.normalize_by = rd.string(o, "design.objective", "normalize_by", std::nullopt);
        if (rd.references) {
            const Monitor* m = mode_monitor(project, rd, "design.objective.normalize_by", s.objective.normalize_by);
            check_mode_monitor_outside(project, rd, "design.objective.normalize_by", *m, s.regions);
        }
    }

    if (d.contains("optimizer")) {
        const Json& opt = rd.object(d.at("optimizer"), "design.optimizer");
        s.algorithm = rd.string(opt, "design.optimizer", "algorithm", std::string("mma"), {"mma", "ccsa", "lbfgs"});
        s.max_iterations = rd.integer(opt, "design.optimizer", "max_iterations", 50, 1);
    }
    if (s.algorithm == "lbfgs")
        for (std::size_t i = 0; i < s.regions.size(); ++i)
            if (s.regions[i].min_length_um > 0)
                rd.fail("design.optimizer.algorithm",
                        "lbfgs takes no constraints: design.regions[" + std::to_string(i) + "].min_length_um needs mma or ccsa");
    if (s.algorithm == "lbfgs")
        for (std::size_t i = 0; i < s.regions.size(); ++i)
            if (s.regions[i].robust_eta_eroded > 0)
                rd.fail("design.optimizer.algorithm", "lbfgs takes no constraints: design.regions[" + std::to_string(i) +
                                                          "].robust (the worst of three designs, in the epigraph form) "
                                                          "needs mma or ccsa");
    if (s.algorithm == "lbfgs" && s.objective.combine == "min")
        rd.fail("design.objective.combine", "\"min\" (the worst wavelength, in the epigraph form: one constraint per "
                                            "wavelength) needs design.optimizer.algorithm mma or ccsa (found lbfgs)");
    return s;
}

}  // namespace golightly
