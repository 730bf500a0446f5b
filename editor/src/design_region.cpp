#include "design_region.hpp"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "canvas.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"

namespace golightly::editor {

namespace {
const QColor kDesignPreview(120, 60, 200);

double num(const Json& o, const char* key, double fallback) {
    if (!o.is_object() || !o.contains(key) || !o[key].is_number()) return fallback;
    return o[key].get<double>();
}
}  // namespace

const Json* design_region(const Project& p) {
    auto it = p.extra.find("design");
    if (it == p.extra.end() || !it->is_object()) return nullptr;
    auto r = it->find("regions");
    if (r == it->end() || !r->is_array() || r->empty() || !(*r)[0].is_object()) return nullptr;
    return &(*r)[0];
}

bool design_box(const Project& p, Vec3& min, Vec3& max) {
    const Json* r = design_region(p);
    if (!r || !r->contains("min") || !r->contains("max")) return false;
    const Json &a = (*r)["min"], &b = (*r)["max"];
    if (!a.is_array() || !b.is_array() || a.size() < 2 || b.size() < 2) return false;
    for (int k = 0; k < 3; ++k) {
        min[k] = k < int(a.size()) && a[size_t(k)].is_number() ? a[size_t(k)].get<double>() : 0.0;
        max[k] = k < int(b.size()) && b[size_t(k)].is_number() ? b[size_t(k)].get<double>() : 0.0;
    }
    return true;
}

std::array<int, 3> design_pixels(const Project& p) {
    Vec3 a, b;
    const Json* r = design_region(p);
    if (!r || !design_box(p, a, b)) return {0, 0, 0};
    const double px = num(*r, "pixel_um", 0);
    if (!(px > 0)) return {0, 0, 0};
    std::array<int, 3> n{1, 1, 1};
    const int axes = p.domain.dimensions == 3 ? 3 : 2;
    for (int k = 0; k < axes; ++k) {
        const double q = (b[k] - a[k]) / px;
        const long long m = std::llround(q);
        if (m < 1 || std::abs(q - double(m)) > 1e-6 * std::max(1.0, q)) return {0, 0, 0};
        n[size_t(k)] = int(m);
    }
    return n;
}

QStringList mode_monitor_names(const Project& p) {
    QStringList names;
    for (const Monitor& m : p.monitors)
        if (m.type == MonitorType::Flux && m.kind == "mode") names << QString::fromStdString(m.name);
    return names;
}

Json& design_region_mut(Project& p) { return p.extra["design"]["regions"][0]; }

Json& design_objective_mut(Project& p) {
    Json& d = p.extra["design"];
    if (!d.contains("objective") || !d["objective"].is_object()) d["objective"] = Json::object();
    return d["objective"];
}

Json& design_optimizer_mut(Project& p) {
    Json& d = p.extra["design"];
    if (!d.contains("optimizer") || !d["optimizer"].is_object()) d["optimizer"] = Json::object();
    return d["optimizer"];
}

namespace {
/// The objective and optimizer a new design gets (set_design_box), where `design` has none:
/// the forward power in mode 0 of the last mode monitor, normalized by the first one (with
/// one mode monitor: unnormalized; with none or in 3D: |E|^2 at the domain's centre), MMA
/// for 50 iterations.
void add_default_objective(const Project& p, Json& design) {
    if (!design.contains("objective")) {
        const QStringList modes = mode_monitor_names(p);
        Json term = Json::object();
        Json objective = Json::object();
        if (!modes.isEmpty() && p.domain.dimensions == 2) {
            term["monitor"] = modes.last().toStdString();
            term["mode"] = 0;
            term["direction"] = "forward";
            term["weight"] = 1;
            if (modes.size() > 1) objective["normalize_by"] = modes.first().toStdString();
        } else {
            term["point"] = Json::array({p.domain.size[0] / 2, p.domain.size[1] / 2});
            if (p.domain.dimensions == 3) term["point"].push_back(p.domain.size[2] / 2);  // the reader wants [x, y, z]
            term["component"] = p.domain.dimensions == 2 && p.domain.polarization == Polarization::TEz ? "Ey" : "Ez";
            term["weight"] = 1;
        }
        objective["terms"] = Json::array({term});
        objective["goal"] = "maximize";
        design["objective"] = objective;
    }
    if (!design.contains("optimizer")) design["optimizer"] = Json{{"algorithm", "mma"}, {"max_iterations", 50}};
}
}  // namespace

bool set_design_box(Project& p, QPointF a, QPointF b) {
    const Json* existing = design_region(p);
    double px = existing ? num(*existing, "pixel_um", p.domain.cell_size) : p.domain.cell_size;
    if (!(px > 0)) px = 0.02;
    const double x0 = std::min(a.x(), b.x()), y0 = std::min(a.y(), b.y());
    // whole pixels from the first corner: the reader refuses a fractional count
    const long long nx = std::llround(std::abs(b.x() - a.x()) / px), ny = std::llround(std::abs(b.y() - a.y()) / px);
    if (nx < 1 || ny < 1) return false;
    const auto round9 = [](double v) { return std::round(v * 1e9) / 1e9; };
    Json min = Json::array({round9(x0), round9(y0)}), max = Json::array({round9(x0 + double(nx) * px), round9(y0 + double(ny) * px)});
    if (p.domain.dimensions == 3) {
        // in 3D the box spans the domain's z extent in whole pixels, centred
        const long long nz = std::max(1LL, (long long)std::floor(p.domain.size[2] / px));
        const double z0 = round9((p.domain.size[2] - double(nz) * px) / 2);
        min.push_back(z0);
        max.push_back(round9(z0 + double(nz) * px));
    }
    if (existing) {
        Json& r = design_region_mut(p);
        r["min"] = min;
        r["max"] = max;
        // a list of values of the old grid no longer fits: start uniform again
        if (r.contains("rho") && r["rho"].is_array()) r["rho"] = 0.5;
        clip_design_fixed(r, p.domain.dimensions);
        return true;
    }
    Json region = Json::object();
    region["name"] = "design";
    region["min"] = min;
    region["max"] = max;
    region["pixel_um"] = px;
    std::string low = p.domain.background, high;
    for (const Material& m : p.materials)
        if (m.id != low && m.poles.empty() && m.conductivity == 0 && m.mu_r == 1) {
            high = m.id;
            break;
        }
    if (high.empty()) high = p.materials.empty() ? std::string("si") : p.materials.back().id;
    region["materials"] = Json::array({low, high});
    region["rho"] = 0.5;
    region["filter"] = Json{{"kind", "conic"}, {"radius_um", std::round(4 * px * 1e9) / 1e9}};
    region["projection"] = Json{{"beta", 8}, {"eta", 0.5}, {"beta_max", 64}, {"beta_every", 20}, {"beta_factor", 2}};
    Json design = p.extra.contains("design") && p.extra["design"].is_object() ? p.extra["design"] : Json::object();
    design["regions"] = Json::array({region});
    // a design optimizes a density region or shape parameters, never both (the reader
    // refuses the project otherwise): the drawn region replaces the shape parameters, and
    // Undo brings them back
    design.erase("shape_parameters");
    add_default_objective(p, design);
    p.extra["design"] = design;
    return true;
}

void remove_design(Project& p) { p.extra.erase("design"); }

namespace {
bool read_vec(const Json& v, int axes, Vec3& out) {
    if (!v.is_array() || int(v.size()) < axes) return false;
    for (int k = 0; k < axes; ++k) {
        if (!v[size_t(k)].is_number()) return false;
        out[k] = v[size_t(k)].get<double>();
    }
    return true;
}
Json vec_json(const Vec3& v, int axes) {
    Json a = Json::array();
    for (int k = 0; k < axes; ++k) a.push_back(std::round(v[k] * 1e9) / 1e9);
    return a;
}
}  // namespace

std::vector<FixedDensityBox> design_fixed_boxes(const Project& p) {
    std::vector<FixedDensityBox> out;
    const Json* r = design_region(p);
    if (!r || !r->contains("fixed") || !(*r)["fixed"].is_array()) return out;
    const int axes = p.domain.dimensions == 3 ? 3 : 2;
    for (const Json& b : (*r)["fixed"]) {
        FixedDensityBox box;
        if (!b.is_object() || !b.contains("min") || !b.contains("max") || !read_vec(b["min"], axes, box.min) ||
            !read_vec(b["max"], axes, box.max))
            continue;
        box.rho = b.contains("rho") && b["rho"].is_number() && b["rho"].get<double>() == 0 ? 0 : 1;
        out.push_back(box);
    }
    return out;
}

bool add_design_fixed_box(Project& p, QPointF a, QPointF b, int rho) {
    Vec3 lo, hi;
    const Json* region = design_region(p);
    if (!region || !design_box(p, lo, hi)) return false;
    const double px = num(*region, "pixel_um", 0);
    if (!(px > 0)) return false;
    const int axes = p.domain.dimensions == 3 ? 3 : 2;
    Vec3 bmin{std::min(a.x(), b.x()), std::min(a.y(), b.y()), lo.z}, bmax{std::max(a.x(), b.x()), std::max(a.y(), b.y()), hi.z};
    for (int k = 0; k < 2; ++k) {
        // to the nearest pixel edges of the region's grid, inside the region
        const double n = std::round((hi[k] - lo[k]) / px);
        const double i0 = std::clamp(std::round((bmin[k] - lo[k]) / px), 0.0, n);
        const double i1 = std::clamp(std::round((bmax[k] - lo[k]) / px), 0.0, n);
        if (i1 - i0 < 1) return false;
        bmin[k] = lo[k] + i0 * px;
        bmax[k] = i1 >= n ? hi[k] : lo[k] + i1 * px;
    }
    Json box = Json::object();
    box["min"] = vec_json(bmin, axes);
    box["max"] = vec_json(bmax, axes);
    box["rho"] = rho == 0 ? 0 : 1;
    Json& r = design_region_mut(p);
    if (!r.contains("fixed") || !r["fixed"].is_array()) r["fixed"] = Json::array();
    r["fixed"].push_back(box);
    return true;
}

void clip_design_fixed(Json& r, int dimensions) {
    if (!r.is_object() || !r.contains("fixed") || !r["fixed"].is_array()) return;
    const int axes = dimensions == 3 ? 3 : 2;
    Vec3 lo, hi;
    if (!r.contains("min") || !r.contains("max") || !read_vec(r["min"], axes, lo) || !read_vec(r["max"], axes, hi)) return;
    Json kept = Json::array();
    for (const Json& b : r["fixed"]) {
        Vec3 bmin, bmax;
        if (!b.is_object() || !b.contains("min") || !b.contains("max") || !read_vec(b["min"], axes, bmin) ||
            !read_vec(b["max"], axes, bmax)) {
            kept.push_back(b);  // not a box: left for the reader to name
            continue;
        }
        bool empty = false, changed = false;
        for (int k = 0; k < axes; ++k) {
            if (bmin[k] < lo[k]) bmin[k] = lo[k], changed = true;
            if (bmax[k] > hi[k]) bmax[k] = hi[k], changed = true;
            empty = empty || !(bmax[k] > bmin[k]);
        }
        if (empty) continue;
        Json c = b;
        if (changed) {
            c["min"] = vec_json(bmin, axes);
            c["max"] = vec_json(bmax, axes);
        }
        kept.push_back(c);
    }
    if (kept.empty()) r.erase("fixed");
    else r["fixed"] = kept;
}

QImage density_image(const std::vector<double>& rho, int nx, int ny) {
    if (nx <= 0 || ny <= 0 || rho.size() < size_t(nx) * size_t(ny)) return {};
    QImage img(nx, ny, QImage::Format_Grayscale8);
    for (int j = 0; j < ny; ++j) {
        uchar* row = img.scanLine(ny - 1 - j);
        for (int i = 0; i < nx; ++i)
            row[i] = uchar(std::lround(255 * (1.0 - std::clamp(rho[size_t(j) * size_t(nx) + size_t(i)], 0.0, 1.0))));
    }
    return img;
}

QImage design_rho_image(const Project& p) {
    const Json* r = design_region(p);
    if (!r || !r->contains("rho") || !(*r)["rho"].is_array()) return {};
    const auto n = design_pixels(p);
    const Json& list = (*r)["rho"];
    if (n[0] == 0 || list.size() != size_t(n[0]) * size_t(n[1]) * size_t(n[2])) return {};
    std::vector<double> rho;
    rho.reserve(size_t(n[0]) * size_t(n[1]));
    for (size_t i = 0; i < size_t(n[0]) * size_t(n[1]); ++i) rho.push_back(list[i].is_number() ? list[i].get<double>() : 0.0);
    return density_image(rho, n[0], n[1]);
}

// ---------------------------------------------------------------- shape parameters

bool has_shape_parameters(const Project& p) {
    auto it = p.extra.find("design");
    return it != p.extra.end() && it->is_object() && it->contains("shape_parameters");
}

Json shape_parameters(const Project& p) {
    if (!has_shape_parameters(p)) return Json::array();
    const Json& list = p.extra.at("design").at("shape_parameters");
    return list.is_array() ? list : Json::array();
}

std::vector<QString> shape_parameter_problems(const Project& p, const std::string& file_label, bool check_references) {
    const Json list = shape_parameters(p);
    std::vector<QString> out(list.size());
    if (list.empty()) return out;
    // the reader stops at the first problem: each entry is read after the ones before it
    // that it takes, alone in a design of shape parameters, and its message renumbered
    Json taken = Json::array();
    Project probe = p;
    Json& design = probe.extra["design"];
    design.erase("regions");
    for (std::size_t k = 0; k < list.size(); ++k) {
        Json candidate = taken;
        candidate.push_back(list[k]);
        design["shape_parameters"] = candidate;
        const std::string at = "design.shape_parameters[" + std::to_string(taken.size()) + "]";
        try {
            design_spec(probe, file_label, check_references);
        } catch (const ProjectError& e) {
            const std::string& path = e.json_path();
            if (path.compare(0, at.size(), at) == 0) {
                const std::string renumbered = "design.shape_parameters[" + std::to_string(k) + "]" + path.substr(at.size());
                out[k] = QString::fromStdString(ProjectError(e.file(), renumbered, e.message()).what());
                continue;
            }
            // another field's problem (the objective, ...): not this entry's
        } catch (const std::exception&) {
        }
        taken.push_back(list[k]);
    }
    return out;
}

void set_shape_parameters(Project& p, const Json& list) {
    if (!list.is_array() || list.empty()) {
        remove_design(p);
        return;
    }
    Json design = p.extra.contains("design") && p.extra["design"].is_object() ? p.extra["design"] : Json::object();
    design["shape_parameters"] = list;
    add_default_objective(p, design);
    p.extra["design"] = design;
}

Json new_shape_parameter(const Project& p) {
    const Json list = shape_parameters(p);
    for (const Parameter& par : p.parameters) {
        bool listed = false;
        for (const Json& e : list)
            listed = listed || (e.is_object() && e.contains("name") && e["name"].is_string() && e["name"].get<std::string>() == par.name);
        if (listed) continue;
        // a tenth of the value either side (the value itself is the optimizer's start),
        // rounded to 9 digits as the IDE writes lengths
        const double half = std::abs(par.value) >= 1e-6 ? 0.1 * std::abs(par.value) : 0.1;
        const auto round9 = [](double v) { return std::round(v * 1e9) / 1e9; };
        return Json{{"name", par.name}, {"min", round9(par.value - half)}, {"max", round9(par.value + half)}};
    }
    return Json();
}

// ---------------------------------------------------------------- the tool

void DesignRegionTool::mousePress(QMouseEvent* e, QPointF w) {
    if (e->button() != Qt::LeftButton) return;
    a_ = b_ = canvas_->snap(w);
    drag_ = (e->modifiers() & Qt::ShiftModifier)     ? Mode::FixedSolid
            : (e->modifiers() & Qt::ControlModifier) ? Mode::FixedVoid
                                                     : mode_;
    active_ = true;
}

void DesignRegionTool::mouseMove(QMouseEvent*, QPointF w) {
    if (!active_) return;
    b_ = canvas_->snap(w);
    canvas_->update();
}

void DesignRegionTool::mouseRelease(QMouseEvent* e, QPointF w) {
    if (!active_ || e->button() != Qt::LeftButton) return;
    b_ = canvas_->snap(w);
    active_ = false;
    canvas_->update();
    if (drag_ == Mode::Region) drawBox(a_, b_);
    else drawFixedBox(a_, b_, drag_ == Mode::FixedSolid ? 1 : 0);
}

void DesignRegionTool::drawFixedBox(QPointF a, QPointF b, int rho) {
    Project copy = doc()->project();
    if (!design_region(copy)) {
        Q_EMIT message(tr("Draw the design region first: fixed boxes lie inside it."));
        return;
    }
    if (!add_design_fixed_box(copy, a, b, rho)) {
        Q_EMIT message(tr("A fixed box must hold at least one whole pixel of the design region."));
        return;
    }
    doc()->replaceProject(copy, rho ? tr("Add fixed solid box") : tr("Add fixed void box"));
    doc()->setSelection({ItemRef::Kind::Design, -1, 0});
}

void DesignRegionTool::drawBox(QPointF a, QPointF b) {
    const bool had = design_region(doc()->project()) != nullptr;
    Project copy = doc()->project();
    if (!set_design_box(copy, a, b)) {
        Q_EMIT message(tr("The design region must be at least one pixel across."));
        return;
    }
    doc()->replaceProject(copy, had ? tr("Move design region") : tr("Draw design region"));
    doc()->setSelection({ItemRef::Kind::Design, -1, 0});
}

void DesignRegionTool::paintOverlay(QPainter& p) {
    if (!active_) return;
    const QRectF r = QRectF(canvas_->toScreen(a_), canvas_->toScreen(b_)).normalized();
    if (drag_ == Mode::Region) {
        p.setPen(QPen(kDesignPreview, 1.5, Qt::DashLine));
        p.setBrush(QBrush(QColor(120, 60, 200, 90), Qt::BDiagPattern));
    } else {  // as Canvas draws fixed boxes: solid dark, void light
        p.setPen(QPen(kDesignPreview, 1.5, Qt::SolidLine));
        p.setBrush(QBrush(drag_ == Mode::FixedSolid ? QColor(30, 30, 30) : QColor(230, 120, 40), Qt::DiagCrossPattern));
    }
    p.drawRect(r);
}

}  // namespace golightly::editor
