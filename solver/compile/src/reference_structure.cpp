// The normalization run's structure for mode sources (reference_structure.hpp).
#include "golightly/reference_structure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "golightly/errors.hpp"
#include "golightly/geometry.hpp"

namespace golightly {

namespace {

const char* axis_name(int a) { return a == 0 ? "x" : a == 1 ? "y" : "z"; }

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", std::abs(v) < 5e-13 ? 0.0 : v);
    return b;
}

std::string quoted_list(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t k = 0; k < names.size(); ++k) s += (k ? ", '" : "'") + names[k] + "'";
    return s;
}

/// The section sampled on a square grid: fraction[m][iv * nu + iu] of material ids[m]
/// (the background first), sample (iu, iv) centred at u0 + (iu + 0.5) du, v0 + (iv + 0.5) du.
struct SectionSamples {
    std::vector<std::string> ids;
    std::vector<std::vector<float>> fraction;
    int nu = 0, nv = 1;
    double du = 0;
};

SectionSamples sample_section(const Project& p, const SourceSection& s, bool reference_run) {
    SectionSamples out;
    const double cell = p.domain.cell_size > 0 ? p.domain.cell_size : 0.01;
    const double lu = std::max(0.0, s.u1 - s.u0);
    if (s.v_axis < 0) {
        // 2D: the pitch that tiles the line exactly, about one cell
        out.nu = std::max(1, int(std::lround(lu / cell)));
        out.du = lu > 0 ? lu / out.nu : cell;
        SampleGrid g;
        g.dx_um = out.du;
        if (s.u_axis == 0) {
            g.nx = out.nu, g.ny = 1;
            g.x0_um = s.u0 + 0.5 * out.du, g.y0_um = s.position_um;
        } else {
            g.nx = 1, g.ny = out.nu;
            g.x0_um = s.position_um, g.y0_um = s.u0 + 0.5 * out.du;
        }
        Coverage c = compute_coverage(p, g, reference_run);
        out.ids = std::move(c.material_ids);
        out.fraction = std::move(c.fraction);
        return out;
    }
    // 3D: one cell's pitch along both in-section axes
    out.du = cell;
    out.nu = std::max(1, int(std::lround(lu / cell)));
    out.nv = std::max(1, int(std::lround(std::max(0.0, s.v1 - s.v0) / cell)));
    int n[3];
    double o[3];
    n[s.axis] = 1, o[s.axis] = s.position_um;
    n[s.u_axis] = out.nu, o[s.u_axis] = s.u0 + 0.5 * cell;
    n[s.v_axis] = out.nv, o[s.v_axis] = s.v0 + 0.5 * cell;
    SampleGrid3 g;
    g.nx = n[0], g.ny = n[1], g.nz = n[2];
    g.x0_um = o[0], g.y0_um = o[1], g.z0_um = o[2];
    g.dx_um = cell;
    Coverage c = compute_coverage_3d(p, g, reference_run);
    out.ids = std::move(c.material_ids);
    out.fraction.assign(out.ids.size(), std::vector<float>(std::size_t(out.nu) * std::size_t(out.nv), 0.f));
    for (int iv = 0; iv < out.nv; ++iv)
        for (int iu = 0; iu < out.nu; ++iu) {
            int c3[3];
            c3[s.axis] = 0, c3[s.u_axis] = iu, c3[s.v_axis] = iv;
            const std::size_t src = (std::size_t(c3[2]) * std::size_t(g.ny) + std::size_t(c3[1])) * std::size_t(g.nx) +
                                    std::size_t(c3[0]);
            for (std::size_t m = 0; m < out.ids.size(); ++m)
                out.fraction[m][std::size_t(iv) * std::size_t(out.nu) + std::size_t(iu)] = c.fraction[m][src];
        }
    return out;
}

double eps_of(const Project& p, const std::string& id) {
    const Material* m = p.find_material(id);
    if (!m && id == "air") return 1.0;  // "air" is implicit (project.hpp)
    return m ? m->epsilon_inf : 1.0;
}

}  // namespace

bool mode_source_section(const Project& project, std::size_t index, SourceSection& out) {
    if (index >= project.sources.size()) return false;
    const Source& src = project.sources[index];
    if (src.profile != SourceProfile::Mode) return false;
    out = SourceSection{};
    out.source_index = index;
    if (project.domain.dimensions == 3) {
        if (src.type != SourceType::Plane) return false;
        int axis = -1;
        for (int a = 0; a < 3; ++a)
            if (src.size[a] == 0) axis = a;
        if (axis < 0) return false;
        out.axis = axis;
        out.position_um = src.center[axis];
        out.u_axis = axis == 0 ? 1 : 0;
        out.v_axis = axis == 2 ? 1 : 2;
        out.u0 = src.center[out.u_axis] - 0.5 * std::abs(src.size[out.u_axis]);
        out.u1 = src.center[out.u_axis] + 0.5 * std::abs(src.size[out.u_axis]);
        out.v0 = src.center[out.v_axis] - 0.5 * std::abs(src.size[out.v_axis]);
        out.v1 = src.center[out.v_axis] + 0.5 * std::abs(src.size[out.v_axis]);
        return out.u1 > out.u0 && out.v1 > out.v0;
    }
    if (src.type != SourceType::Line) return false;
    const double dx = std::abs(src.to.x - src.from.x), dy = std::abs(src.to.y - src.from.y);
    if (dx == 0 && dy > 0) {  // vertical line: propagation along x
        out.axis = 0, out.u_axis = 1;
        out.position_um = src.from.x;
        out.u0 = std::min(src.from.y, src.to.y), out.u1 = std::max(src.from.y, src.to.y);
        return true;
    }
    if (dy == 0 && dx > 0) {
        out.axis = 1, out.u_axis = 0;
        out.position_um = src.from.y;
        out.u0 = std::min(src.from.x, src.to.x), out.u1 = std::max(src.from.x, src.to.x);
        return true;
    }
    return false;  // oblique: validation refuses it for mode profiles
}

bool section_has_guide(const Project& project, const SourceSection& section, bool reference_run) {
    const SectionSamples s = sample_section(project, section, reference_run);
    std::vector<double> eps_m(s.ids.size());
    for (std::size_t m = 0; m < s.ids.size(); ++m) eps_m[m] = eps_of(project, s.ids[m]);
    double inner = -1e300, border = -1e300;
    for (int iv = 0; iv < s.nv; ++iv)
        for (int iu = 0; iu < s.nu; ++iu) {
            const std::size_t k = std::size_t(iv) * std::size_t(s.nu) + std::size_t(iu);
            double e = 0;
            for (std::size_t m = 0; m < s.ids.size(); ++m) e += double(s.fraction[m][k]) * eps_m[m];
            const bool edge = iu == 0 || iu == s.nu - 1 || (section.v_axis >= 0 && (iv == 0 || iv == s.nv - 1));
            (edge ? border : inner) = std::max(edge ? border : inner, e);
        }
    return inner > border * (1 + 1e-9);
}

std::vector<Layer> derive_reference_layers(const Project& project, std::size_t index) {
    SourceSection sec;
    if (!mode_source_section(project, index, sec)) return {};
    const SectionSamples s = sample_section(project, sec, false);
    const Source& src = project.sources[index];
    const double cell = project.domain.cell_size > 0 ? project.domain.cell_size : s.du;
    // along the axis: the whole domain, the PML (and a margin) included
    const double ext = (project.domain.pml.cells + 2) * cell;
    const double a0 = -ext, a1 = project.domain.size[std::size_t(sec.axis)] + ext;
    const std::string& bg = project.domain.background;

    std::map<std::string, std::vector<Shape>> shapes;  // by material id
    std::vector<std::string> order;                    // materials in the order found
    auto add = [&](const std::string& id, Shape sh) {
        if (!shapes.count(id)) order.push_back(id);
        shapes[id].push_back(std::move(sh));
    };
    if (sec.v_axis < 0) {
        for (std::size_t m = 0; m < s.ids.size(); ++m) {
            if (s.ids[m] == bg) continue;
            const auto& f = s.fraction[m];
            for (int a = 0; a < s.nu;) {
                if (!(f[std::size_t(a)] > 1e-6f)) { ++a; continue; }
                int b = a;
                double covered = 0;
                while (b < s.nu && f[std::size_t(b)] > 1e-6f) covered += f[std::size_t(b++)];
                --b;
                if (covered >= 1e-3) {
                    double lo, hi;
                    if (a == b) {
                        const double c = sec.u0 + (a + 0.5) * s.du;
                        lo = c - 0.5 * f[std::size_t(a)] * s.du, hi = c + 0.5 * f[std::size_t(a)] * s.du;
                    } else {  // the material fills each end sample from the run's inside
                        lo = sec.u0 + (a + 1) * s.du - f[std::size_t(a)] * s.du;
                        hi = sec.u0 + b * s.du + f[std::size_t(b)] * s.du;
                    }
                    Shape r;
                    r.type = ShapeType::Rectangle;
                    if (sec.axis == 0) r.min = {a0, lo}, r.max = {a1, hi};
                    else r.min = {lo, a0}, r.max = {hi, a1};
                    add(s.ids[m], r);
                }
                a = b + 1;
            }
        }
    } else {
        // the material covering most of each sample, then rectangles: runs along u merged
        // with the identical run of the row below
        std::vector<int> label(std::size_t(s.nu) * std::size_t(s.nv), 0);
        for (std::size_t k = 0; k < label.size(); ++k) {
            int best = 0;
            for (std::size_t m = 1; m < s.ids.size(); ++m)
                if (s.fraction[m][k] > s.fraction[std::size_t(best)][k]) best = int(m);
            label[k] = s.ids[std::size_t(best)] == bg ? -1 : best;
        }
        struct Rect { int m, u0, u1, v0, v1; };
        std::vector<Rect> open, done;
        for (int iv = 0; iv < s.nv; ++iv) {
            std::vector<Rect> row;
            for (int a = 0; a < s.nu;) {
                const int m = label[std::size_t(iv) * std::size_t(s.nu) + std::size_t(a)];
                int b = a;
                while (b < s.nu && label[std::size_t(iv) * std::size_t(s.nu) + std::size_t(b)] == m) ++b;
                if (m >= 0) row.push_back({m, a, b, iv, iv + 1});
                a = b;
            }
            std::vector<Rect> next;
            for (Rect r : row) {
                auto it = std::find_if(open.begin(), open.end(),
                                       [&](const Rect& o) { return o.m == r.m && o.u0 == r.u0 && o.u1 == r.u1; });
                if (it != open.end()) {
                    r.v0 = it->v0;
                    open.erase(it);
                }
                next.push_back(r);
            }
            done.insert(done.end(), open.begin(), open.end());
            open = std::move(next);
        }
        done.insert(done.end(), open.begin(), open.end());
        std::sort(done.begin(), done.end(), [](const Rect& x, const Rect& y) {
            return std::tie(x.m, x.v0, x.u0) < std::tie(y.m, y.v0, y.u0);
        });
        for (const Rect& r : done) {
            Shape b;
            b.type = ShapeType::Box;
            b.box_min[sec.axis] = a0, b.box_max[sec.axis] = a1;
            b.box_min[sec.u_axis] = sec.u0 + r.u0 * s.du, b.box_max[sec.u_axis] = sec.u0 + r.u1 * s.du;
            b.box_min[sec.v_axis] = sec.v0 + r.v0 * s.du, b.box_max[sec.v_axis] = sec.v0 + r.v1 * s.du;
            add(s.ids[std::size_t(r.m)], b);
        }
    }
    std::vector<Layer> out;
    for (const std::string& id : order) {
        Layer l;
        l.name = "Reference: " + src.name + " guide" + (order.size() > 1 ? " (" + id + ")" : "");
        l.material = id;
        l.visible = true;
        l.reference_only = true;
        l.shapes = std::move(shapes[id]);
        out.push_back(std::move(l));
    }
    return out;
}

ReferenceSetup complete_reference_structure(Project& project) {
    ReferenceSetup r;
    auto& refs = project.run.normalization.reference_layers;
    if (refs.empty())
        for (const Layer& l : project.layers)
            if (l.reference_only) refs.push_back(l.name);
    for (std::size_t i = 0; i < project.sources.size(); ++i) {
        SourceSection sec;
        if (!mode_source_section(project, i, sec) || section_has_guide(project, sec, true)) continue;
        for (Layer& l : derive_reference_layers(project, i)) {
            const bool exists = std::any_of(project.layers.begin(), project.layers.end(),
                                            [&](const Layer& o) { return o.name == l.name; });
            if (std::find(refs.begin(), refs.end(), l.name) == refs.end()) refs.push_back(l.name);
            if (!exists) {
                r.added_layers.push_back(l.name);
                project.layers.push_back(std::move(l));
            }
        }
        if (!section_has_guide(project, sec, true)) r.unguided_sources.push_back(project.sources[i].name);
    }
    r.reference_layers = refs;
    return r;
}

Project reference_run_project(const Project& project, const std::string& file_label, std::vector<std::string>* notes) {
    const auto& named = project.run.normalization.reference_layers;
    for (std::size_t i = 0; i < project.sources.size(); ++i) {
        SourceSection sec;
        if (!mode_source_section(project, i, sec) || section_has_guide(project, sec, true)) continue;
        // this mode source would find no guided mode in the reference run
        const Source& src = project.sources[i];
        const std::string where = "the reference (normalization) run has no guide under mode source '" + src.name +
                                  "' at " + axis_name(sec.axis) + " = " + num(sec.position_um) + " um";
        if (named.empty()) {
            Project q = project;
            const ReferenceSetup setup = complete_reference_structure(q);
            if (!setup.unguided_sources.empty()) {
                // the main structure has no guide there either: nothing to derive from
                throw ProjectError(file_label, "run.normalization.reference_layers",
                                   where + " and the structure has none there to derive it from: draw the input "
                                           "waveguide under the source, or add a reference-only layer with it and "
                                           "name it in run.normalization.reference_layers");
            }
            if (notes)
                notes->push_back(
                    "normalization: no reference layer is named, so the reference run uses " +
                    (setup.added_layers.empty()
                         ? "the reference-only layers " + quoted_list(setup.reference_layers)
                         : (setup.added_layers == setup.reference_layers
                                ? std::string("the derived layers ")
                                : "the layers " + quoted_list(setup.reference_layers) + ", of which derived ") +
                               quoted_list(setup.added_layers) +
                               " (the input waveguide under each mode source, extended through the domain)"));
            return q;
        }
        throw ProjectError(file_label, "run.normalization.reference_layers",
                           where + " (its reference structure is the layers " + quoted_list(named) +
                               "): add a reference-only layer with the input waveguide and name it in "
                               "run.normalization.reference_layers, or leave reference_layers empty to let Normalize "
                               "derive it");
    }
    return project;
}

}  // namespace golightly
