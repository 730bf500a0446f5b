// GoLightly: reading and writing `.glproj` project files (spec/project-format.md, v1).
//
// Parsing is field-driven: for every JSON object the reader asks for the members it knows
// (which ones depends on the object's `type`, a source's `profile` ...); every member it
// did not ask for is kept, in file order, in the struct's `extra` and written back after
// the known members. The writer writes exactly the members the reader asks for (optional
// members only when set), so load -> save -> load gives an equal Project and a second save
// is byte-identical to the first.
//
// This file: the enum names and the reading; the JSON reader it uses is
// project_reader_internal.hpp, the writer project_write.cpp.
#include "project_io_internal.hpp"
#include "project_expressions_internal.hpp"
#include "project_reader_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"

namespace golightly {

// ------------------------------------------------------------------ enum names

namespace detail {

const EnumEntry<Component> kComponents[6] = {{Component::Ex, "Ex"}, {Component::Ey, "Ey"},
                                             {Component::Ez, "Ez"}, {Component::Hx, "Hx"},
                                             {Component::Hy, "Hy"}, {Component::Hz, "Hz"}};
const EnumEntry<Polarization> kPolarizations[2] = {{Polarization::TMz, "TMz"},
                                                   {Polarization::TEz, "TEz"}};
const EnumEntry<BoundaryKind> kBoundaries[5] = {{BoundaryKind::Pml, "pml"},
                                                {BoundaryKind::Periodic, "periodic"},
                                                {BoundaryKind::Pec, "pec"},
                                                {BoundaryKind::Pmc, "pmc"},
                                                {BoundaryKind::Mur, "mur"}};
const EnumEntry<Precision> kPrecisions[2] = {{Precision::Float32, "float32"},
                                             {Precision::Float64, "float64"}};
const EnumEntry<BackendChoice> kBackends[3] = {
    {BackendChoice::Auto, "auto"}, {BackendChoice::Cuda, "cuda"}, {BackendChoice::Cpu, "cpu"}};
const EnumEntry<SubpixelMetal> kSubpixelMetals[4] = {{SubpixelMetal::Tangential, "tangential"},
                                                    {SubpixelMetal::Staircase, "staircase"},
                                                    {SubpixelMetal::Fraction, "fraction"},
                                                    {SubpixelMetal::Conformal, "conformal"}};
const EnumEntry<ShapeType> kShapeTypes[10] = {
    {ShapeType::Rectangle, "rectangle"}, {ShapeType::Polygon, "polygon"},
    {ShapeType::Ellipse, "ellipse"},     {ShapeType::Ring, "ring"},
    {ShapeType::Path, "path"},           {ShapeType::Raster, "raster"},
    {ShapeType::Step, "step"},           {ShapeType::Sphere, "sphere"},
    {ShapeType::Box, "box"},             {ShapeType::Gds, "gds"}};
const EnumEntry<PoleKind> kPoleKinds[2] = {{PoleKind::Drude, "drude"},
                                           {PoleKind::Lorentz, "lorentz"}};
const EnumEntry<WaveformType> kWaveformTypes[2] = {{WaveformType::GaussianPulse, "gaussian_pulse"},
                                                   {WaveformType::Cw, "cw"}};
const EnumEntry<SourceType> kSourceTypes[5] = {{SourceType::Point, "point"},
                                               {SourceType::Line, "line"},
                                               {SourceType::Region, "region"},
                                               {SourceType::Plane, "plane"},
                                               {SourceType::Tfsf, "tfsf"}};
const EnumEntry<SourceProfile> kProfiles[3] = {{SourceProfile::Uniform, "uniform"},
                                               {SourceProfile::Gaussian, "gaussian"},
                                               {SourceProfile::Mode, "mode"}};
const EnumEntry<MonitorType> kMonitorTypes[4] = {{MonitorType::Flux, "flux"},
                                                 {MonitorType::FluxBox, "flux_box"},
                                                 {MonitorType::Time, "time"},
                                                 {MonitorType::DftField, "dft_field"}};
const EnumEntry<Reduce> kReduces[4] = {{Reduce::Value, "value"},
                                       {Reduce::Mean, "mean"},
                                       {Reduce::Rms, "rms"},
                                       {Reduce::SumSquares, "sum_squares"}};

std::string key_path(const std::string& base, std::string_view key) {
    if (base.empty()) return std::string(key);
    return base + "." + std::string(key);
}

std::string index_path(const std::string& base, std::size_t i) {
    return base + "[" + std::to_string(i) + "]";
}

Component default_component(Polarization p) {
    return p == Polarization::TEz ? Component::Hz : Component::Ez;
}

Component default_tfsf_component(int dimensions, Polarization p, const std::string& direction) {
    const bool along_z = direction.size() == 2 && direction[1] == 'z';
    if (dimensions == 3) return along_z ? Component::Ex : Component::Ez;
    if (p == Polarization::TMz) return Component::Ez;
    const bool along_y = direction.size() == 2 && direction[1] == 'y';
    return along_y ? Component::Ex : Component::Ey;
}

int plane_normal_axis(const Vec3& size) {
    int zeros = 0, axis = -1;
    for (int a = 0; a < 3; ++a)
        if (size[a] == 0) {
            ++zeros;
            axis = a;
        }
    return zeros == 1 ? axis : -1;
}

}  // namespace detail

using namespace detail;

std::string to_string(Component c) { return enum_name(kComponents, c); }
std::string to_string(Polarization p) { return enum_name(kPolarizations, p); }
std::string to_string(BoundaryKind b) { return enum_name(kBoundaries, b); }
std::string to_string(Precision p) { return enum_name(kPrecisions, p); }
std::string to_string(BackendChoice b) { return enum_name(kBackends, b); }
std::string to_string(SubpixelMetal m) { return enum_name(kSubpixelMetals, m); }
std::string to_string(ShapeType t) { return enum_name(kShapeTypes, t); }
std::string to_string(PoleKind k) { return enum_name(kPoleKinds, k); }
std::string to_string(WaveformType t) { return enum_name(kWaveformTypes, t); }
std::string to_string(SourceType t) { return enum_name(kSourceTypes, t); }
std::string to_string(SourceProfile p) { return enum_name(kProfiles, p); }
std::string to_string(MonitorType t) { return enum_name(kMonitorTypes, t); }
std::string to_string(Reduce r) { return enum_name(kReduces, r); }

// ------------------------------------------------------------------ reading

namespace {

/// A GDSII [layer, datatype] pair (each 0..65535; GDSII stores them as 16-bit integers).
std::array<int, 2> gds_layer_pair(ObjectReader& r, std::string_view key) {
    const Json& v = r.require(key);
    const std::string p = r.path(key);
    if (!v.is_array() || v.size() != 2)
        r.conv().fail(p, "must be [layer, datatype], two integers (found " + describe(v) + ")");
    return {int(r.conv().integer(v[0], index_path(p, 0), 0, 65535)), int(r.conv().integer(v[1], index_path(p, 1), 0, 65535))};
}

/// The base64 data of a step or gds shape: its own `data` (every writer before the
/// `embedded_files` table, and still accepted), or the `embedded_files` entry its `file`
/// names (spec "Embedded files").
std::string embedded_data(ObjectReader& r, const ReadContext& file) {
    if (!r.find("file")) {
        if (r.find("data")) return r.string("data");
        r.conv().fail(r.path("data"), "is required but missing (the base64 file, or `file`: the id of an entry of the "
                                      "project's embedded_files)");
    }
    const std::string id = r.string("file");
    if (r.find("data"))
        r.conv().fail(r.path("data"), "and `file` are both given: a shape holds its data or names an embedded_files entry, "
                                      "not both");
    if (file.embedded) {
        const auto it = file.embedded->find(id);
        if (it != file.embedded->end()) return it->second;
    }
    std::string have;
    if (file.embedded)
        for (const auto& [k, v] : *file.embedded) have += (have.empty() ? "" : ", ") + k;
    r.conv().fail(r.path("file"), "names \"" + limits::cap_text(id) + "\", which the project's embedded_files does not hold (" +
                                      (have.empty() ? std::string("it is empty or missing") : "it holds: " + limits::cap_text(have)) +
                                      ")");
}

/// The top-level `embedded_files`: [{"id", "file_name", "data"}], ids unique and not empty,
/// each decoded file within limits::kMaxStepBytes.
std::map<std::string, std::string> parse_embedded_files(ObjectReader& top, const ReadContext& file) {
    std::map<std::string, std::string> out;
    const Json* v = top.find("embedded_files");
    if (!v) return out;
    top.conv().array(*v, "embedded_files");
    for (std::size_t i = 0; i < v->size(); ++i) {
        const std::string path = index_path("embedded_files", i);
        ObjectReader e((*v)[i], path, file);
        const std::string id = e.string("id");
        if (id.empty()) e.conv().fail(e.path("id"), "must not be empty");
        (void)e.string("file_name", "");
        std::string data = e.string("data");
        if (data.size() / 4 * 3 > limits::kMaxStepBytes)
            e.conv().fail(e.path("data"), "holds " + limits::format_bytes(double(data.size() / 4 * 3)) +
                                              ", larger than the limit of " + limits::format_bytes(double(limits::kMaxStepBytes)) +
                                              " for an embedded file");
        if (!out.emplace(id, std::move(data)).second)
            e.conv().fail(e.path("id"), "\"" + limits::cap_text(id) + "\" is used by an earlier entry too (ids must be unique)");
    }
    return out;
}

Shape parse_shape(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Shape s;
    s.type = r.enumeration(kShapeTypes, "type");
    switch (s.type) {
        case ShapeType::Rectangle:
            s.min = r.vec2("min");
            s.max = r.vec2("max");
            s.rotation_deg = r.number("rotation_deg", 0.0);
            break;
        case ShapeType::Polygon:
            s.points = r.points("points");
            break;
        case ShapeType::Ellipse:
            s.center = r.vec2("center");
            s.radii = r.vec2("radii");
            s.rotation_deg = r.number("rotation_deg", 0.0);
            break;
        case ShapeType::Ring:
            s.center = r.vec2("center");
            s.inner_radius = r.number("inner_radius");
            s.outer_radius = r.number("outer_radius");
            break;
        case ShapeType::Path:
            s.points = r.points("points");
            s.width = r.number("width");
            s.bend_radius = r.optional_number("bend_radius");
            break;
        case ShapeType::Raster:
            s.origin = r.vec2("origin");
            s.pixel_size = r.number("pixel_size");
            s.width_px = r.integer("width");
            s.height_px = r.integer("height");
            s.png_base64 = r.string("png");
            break;
        case ShapeType::Step:
            s.file_name = r.string("file_name", "");
            s.data_base64 = embedded_data(r, file);
            s.scale = r.number("scale", 1.0);
            s.rotate_deg = r.array3("rotate_deg", {0, 0, 0});
            s.translate = r.array3("translate", {0, 0, 0});
            if (const Json* sj = r.find("solids")) {
                if (!sj->is_array()) r.conv().fail(r.path("solids"), "must be an array of solid indices");
                for (std::size_t k = 0; k < sj->size(); ++k)
                    s.solids.push_back(static_cast<int>(
                        r.conv().integer((*sj)[k], r.path("solids") + "[" + std::to_string(k) + "]", 0, 1000000000)));
            }
            break;
        case ShapeType::Sphere:
            s.center_3d = r.vec3("center");
            s.radius = r.number("radius");
            break;
        case ShapeType::Box:
            s.box_min = r.vec3("min");
            s.box_max = r.vec3("max");
            break;
        case ShapeType::Gds: {
            s.file_name = r.string("file_name", "");
            s.data_base64 = embedded_data(r, file);
            s.gds_cell = r.string("cell", "");
            // layer: [layer, datatype]; absent = the layer's gds_layer (parse_layer), -1 here
            s.gds_layer = {-1, -1};
            if (r.find("layer")) s.gds_layer = gds_layer_pair(r, "layer");
            const Vec2 t = r.optional_vec2("translate").value_or(Vec2{0, 0});
            s.translate = {t.x, t.y, 0};
            s.rotation_deg = r.number("rotate_deg", 0.0);
            s.gds_db_unit_um = r.optional_number("db_unit_um");
            break;
        }
    }
    s.extra = r.extras();
    return s;
}

Pole parse_pole(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Pole p;
    p.kind = r.enumeration(kPoleKinds, "kind");
    p.omega_p = r.number("omega_p");
    if (p.kind == PoleKind::Lorentz) {
        p.omega_0 = r.number("omega_0");
    } else {
        p.omega_0 = r.number("omega_0", 0.0);
        if (p.omega_0 != 0.0)
            r.conv().fail(r.path("omega_0"), "a drude pole has omega_0 = 0; use \"kind\": \"lorentz\" for a resonance");
    }
    p.gamma = r.number("gamma", 0.0);
    p.extra = r.extras();
    return p;
}

Material parse_material(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Material m;
    m.id = r.string("id");
    m.name = r.string("name", "");
    m.epsilon_inf = r.number("epsilon_inf", 1.0);
    m.mu_r = r.number("mu_r", 1.0);
    m.conductivity = r.number("conductivity", 0.0);
    if (const Json* poles = r.find("poles")) {
        r.conv().array(*poles, r.path("poles"));
        for (std::size_t i = 0; i < poles->size(); ++i)
            m.poles.push_back(parse_pole((*poles)[i], index_path(r.path("poles"), i), file));
    }
    m.color = r.string("color", "");
    m.extra = r.extras();
    return m;
}

Layer parse_layer(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Layer l;
    l.name = r.string("name", "");
    l.material = r.string("material");
    l.visible = r.boolean("visible", true);
    l.locked = r.boolean("locked", false);
    if (const Json* z = r.find("z")) {
        const Vec2 zz = r.conv().vec2(*z, r.path("z"));
        l.z = std::array<double, 2>{zz.x, zz.y};
    }
    l.sidewall_angle_deg = r.number("sidewall_angle_deg", 0.0);
    l.reference_only = r.boolean("reference_only", false);
    if (r.find("gds_layer")) l.gds_layer = gds_layer_pair(r, "gds_layer");
    if (const Json* shapes = r.find("shapes")) {
        r.conv().array(*shapes, r.path("shapes"));
        for (std::size_t i = 0; i < shapes->size(); ++i) {
            l.shapes.push_back(parse_shape((*shapes)[i], index_path(r.path("shapes"), i), file));
            Shape& s = l.shapes.back();
            if (s.type == ShapeType::Gds && s.gds_layer[0] < 0) {  // `layer` absent: the layer's gds_layer
                if (!l.gds_layer)
                    r.conv().fail(index_path(r.path("shapes"), i) + ".layer",
                                  "is required (a gds shape needs [layer, datatype], or its layer a gds_layer)");
                s.gds_layer = *l.gds_layer;
            }
        }
    }
    l.extra = r.extras();
    return l;
}

Waveform parse_waveform(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Waveform w;
    w.type = r.enumeration(kWaveformTypes, "type", WaveformType::GaussianPulse);
    if (w.type == WaveformType::GaussianPulse) {
        w.wavelength_center = r.number("wavelength_center", w.wavelength_center);
        w.wavelength_span = r.number("wavelength_span", w.wavelength_span);
    } else {
        w.wavelength = r.number("wavelength", w.wavelength);
        w.ramp_periods = r.number("ramp_periods", w.ramp_periods);
    }
    w.extra = r.extras();
    return w;
}

Source parse_source(const Json& j, const std::string& path, const ReadContext& file, const Domain& domain) {
    const Polarization pol = domain.polarization;
    ObjectReader r(j, path, file);
    Source s;
    s.name = r.string("name", "");
    s.type = r.enumeration(kSourceTypes, "type");
    Component default_comp = default_component(pol);
    switch (s.type) {
        case SourceType::Point: std::tie(s.at, s.at_z) = r.point23("at"); break;
        case SourceType::Line:
            s.from = r.vec2("from");
            s.to = r.vec2("to");
            break;
        case SourceType::Region:
            s.shape = parse_shape(r.require("shape"), r.path("shape"), file);
            break;
        case SourceType::Plane:
            s.center = r.vec3("center");
            s.size = r.vec3("size");
            break;
        case SourceType::Tfsf: {
            // min/max: [x, y] or [x, y, z] (z entries 0 when absent: a 2D box).
            const auto [lo, lo_z] = r.point23("min");
            const auto [hi, hi_z] = r.point23("max");
            s.box_min = {lo.x, lo.y, lo_z.value_or(0.0)};
            s.box_max = {hi.x, hi.y, hi_z.value_or(0.0)};
            s.direction = r.string("direction", "+x");
            default_comp = default_tfsf_component(domain.dimensions, pol, s.direction);
            break;
        }
    }
    s.component = r.enumeration(kComponents, "component", default_comp);
    if (s.type == SourceType::Line || s.type == SourceType::Plane) {
        s.profile = r.enumeration(kProfiles, "profile", SourceProfile::Uniform);
        if (s.profile == SourceProfile::Gaussian) s.waist = r.number("waist", s.waist);
        if (s.profile == SourceProfile::Mode) {
            s.mode_index = r.integer("mode_index", 0);
            s.direction = r.string("direction", "+x");
        }
    }
    s.amplitude = r.number("amplitude", 1.0);
    s.phase_deg = r.number("phase_deg", 0.0);
    if (s.type == SourceType::Line || s.type == SourceType::Plane) {  // oblique plane waves
        s.angle_deg = r.number("angle_deg", 0.0);
        s.azimuth_deg = r.number("azimuth_deg", 0.0);
        s.polarization = r.string("polarization", "");
        if (!s.polarization.empty() && s.polarization != "s" && s.polarization != "p")
            r.conv().fail(r.path("polarization"), "must be \"s\" or \"p\" (found \"" + s.polarization + "\")");
    }
    {
        const Json* w = r.find("waveform");
        s.waveform = parse_waveform(w ? *w : Json::object(), r.path("waveform"), file);
    }
    s.extra = r.extras();
    return s;
}

/// A monitor's `far_field` object (flux_box; flux lines and planes also take `periods`: a
/// number (2D) or [n1, n2] (3D)).
FarFieldSettings parse_far_field(ObjectReader& r, const ReadContext& file, bool plane) {
    FarFieldSettings ff;
    with_object(r, "far_field", file, [&](ObjectReader& o) {
        if (const Json* wl = o.find("wavelengths")) {
            o.conv().array(*wl, o.path("wavelengths"));
            for (std::size_t i = 0; i < wl->size(); ++i)
                ff.wavelengths.push_back(o.conv().number((*wl)[i], index_path(o.path("wavelengths"), i)));
        }
        ff.theta_points = o.integer("theta_points", ff.theta_points);
        ff.phi_points = o.integer("phi_points", ff.phi_points);
        if (const Json* per = plane ? o.find("periods") : nullptr) {
            if (per->is_array()) {
                if (per->size() < 1 || per->size() > 2)
                    throw ProjectError(file.label, o.path("periods"), "expected a number or [n1, n2]");
                for (std::size_t i = 0; i < per->size(); ++i)
                    ff.periods[i] = int(o.conv().number((*per)[i], index_path(o.path("periods"), i)));
            } else {
                ff.periods[0] = int(o.conv().number(*per, o.path("periods")));
            }
        }
        ff.extra = o.extras();
    });
    return ff;
}

Monitor parse_monitor(const Json& j, const std::string& path, const ReadContext& file, const Domain& domain) {
    const Polarization pol = domain.polarization;
    ObjectReader r(j, path, file);
    Monitor m;
    m.name = r.string("name");
    // "diffraction" is a flux monitor with its Floquet orders (DiffractionSettings)
    const Json* type_json = r.find("type");
    if (type_json && type_json->is_string() && type_json->get<std::string>() == "diffraction") {
        m.type = MonitorType::Flux;
        m.diffraction = DiffractionSettings{r.optional_number("index")};
    } else {
        try {
            m.type = r.enumeration(kMonitorTypes, "type");
        } catch (const ProjectError& e) {  // the list of types names "diffraction" too
            if (e.message().find("unknown value") != 0) throw;
            throw ProjectError(e.file(), e.json_path(), e.message() + ", \"diffraction\"");
        }
    }
    switch (m.type) {
        case MonitorType::Flux:
            // A plane (`center`, `size`: 3D, read in 2D too) or a 2D line (`from`, `to`); the
            // validator says which one the domain needs.
            if (r.find("center") || r.find("size")) {
                m.center = r.vec3("center");
                m.size = r.vec3("size");
            } else {
                m.from = r.vec2("from");
                m.to = r.vec2("to");
            }
            m.direction = r.string("direction", "+x");
            m.kind = r.string("kind", "flux");
            if (r.find("far_field")) m.far_field = parse_far_field(r, file, true);
            break;
        case MonitorType::FluxBox:
            std::tie(m.min, m.min_z) = r.point23("min");
            std::tie(m.max, m.max_z) = r.point23("max");
            m.kind = r.string("kind", "flux");
            if (r.find("far_field")) m.far_field = parse_far_field(r, file, false);
            break;
        case MonitorType::Time:
            std::tie(m.at, m.at_z) = r.optional_point23("at");
            if (const Json* shape = r.find("shape")) m.shape = parse_shape(*shape, r.path("shape"), file);
            m.component = r.enumeration(kComponents, "component", default_component(pol));
            m.reduce = r.enumeration(kReduces, "reduce", Reduce::Value);
            if (r.find("resonances")) {
                ResonanceSettings rs;
                with_object(r, "resonances", file, [&](ObjectReader& o) {
                    if (const Json* band = o.find("band")) {
                        const std::string bp = o.path("band");
                        if (!band->is_array() || band->size() != 2)
                            o.conv().fail(bp, "must be [wavelength_min, wavelength_max] in um, two numbers (found " +
                                                  describe(*band) + ")");
                        rs.wavelength_min = o.conv().number((*band)[0], index_path(bp, 0));
                        rs.wavelength_max = o.conv().number((*band)[1], index_path(bp, 1));
                    }
                    rs.after_source = o.boolean("after_source", rs.after_source);
                    rs.q_min = o.number("q_min", rs.q_min);
                    rs.extra = o.extras();
                });
                m.resonances = rs;
            }
            break;
        case MonitorType::DftField: {
            const Json& wl = r.conv().array(r.require("wavelengths"), r.path("wavelengths"));
            for (std::size_t i = 0; i < wl.size(); ++i)
                m.wavelengths.push_back(r.conv().number(wl[i], index_path(r.path("wavelengths"), i)));
            if (const Json* comps = r.find("components")) {
                r.conv().array(*comps, r.path("components"));
                for (std::size_t i = 0; i < comps->size(); ++i)
                    m.components.push_back(
                        r.conv().enumeration(kComponents, (*comps)[i], index_path(r.path("components"), i)));
            } else {
                m.components = {default_component(pol)};
            }
            std::tie(m.min, m.min_z) = r.optional_point23("min");
            std::tie(m.max, m.max_z) = r.optional_point23("max");
            break;
        }
    }
    m.extra = r.extras();
    return m;
}

Domain parse_domain(const Json& j, const std::string& path, const ReadContext& file) {
    ObjectReader r(j, path, file);
    Domain d;
    d.dimensions = r.integer("dimensions", 2);
    {
        const Json& size = r.require("size");
        const std::string sp = r.path("size");
        if (!size.is_array() || size.size() < 2 || size.size() > 3)
            r.conv().fail(sp, "must be an array [Lx, Ly, Lz] of numbers (um)");
        if (size.size() == 2 && d.dimensions == 3) r.conv().fail(sp, "a 3D domain needs [Lx, Ly, Lz]");
        for (std::size_t i = 0; i < size.size(); ++i) d.size[i] = r.conv().number(size[i], index_path(sp, i));
    }
    d.cell_size = r.number("cell_size");
    d.polarization = r.enumeration(kPolarizations, "polarization", Polarization::TMz);
    d.slice_z = r.number("slice_z", 0.0);
    if (const Json* b = r.find("boundaries")) {
        ObjectReader br(*b, r.path("boundaries"), file);
        static const char* const axes[3] = {"x", "y", "z"};
        for (int a = 0; a < 3; ++a) {
            // "bloch": a periodic axis with the Bloch wave vector domain.bloch_k
            const Json* v = br.find(axes[a]);
            d.bloch[a] = v && v->is_string() && v->get<std::string>() == "bloch";
            d.boundaries[a] = d.bloch[a] ? BoundaryKind::Periodic : br.enumeration(kBoundaries, axes[a], BoundaryKind::Pml);
        }
        d.boundaries_extra = br.extras();
    }
    if (const Json* sy = r.find("symmetry")) {
        const std::string sp = r.path("symmetry");
        if (!sy->is_array() || sy->size() < 2 || sy->size() > 3)
            r.conv().fail(sp, "must be an array [sx, sy, sz] of -1, 0 or 1 (the parity of E under each mirror)");
        for (std::size_t i = 0; i < sy->size(); ++i) {
            const long long v = r.conv().integer((*sy)[i], index_path(sp, i), -1, 1);
            d.symmetry[i] = int(v);
        }
    }
    if (const Json* k = r.find("bloch_k")) {
        const std::string kp = r.path("bloch_k");
        if (!k->is_array() || k->size() < 2 || k->size() > 3)
            r.conv().fail(kp, "must be an array [kx, ky] or [kx, ky, kz] of numbers");
        std::array<double, 3> kv{0, 0, 0};
        for (std::size_t i = 0; i < k->size(); ++i) kv[i] = r.conv().number((*k)[i], index_path(kp, i));
        d.bloch_k = kv;
    }
    d.bloch_k_unit = r.string("bloch_k_unit", "2pi/a");
    if (d.bloch_k_unit != "2pi/a" && d.bloch_k_unit != "1/um")
        r.conv().fail(r.path("bloch_k_unit"), "must be \"2pi/a\" or \"1/um\" (found \"" + d.bloch_k_unit + "\")");
    if (const Json* p = r.find("pml")) {
        ObjectReader pr(*p, r.path("pml"), file);
        d.pml.cells = pr.integer("cells", 16);
        d.pml.grading_order = pr.number("grading_order", 3.0);
        d.pml.target_reflection = pr.number("target_reflection", 1e-8);
        d.pml.extra = pr.extras();
    }
    d.background = r.string("background", "air");
    d.extra = r.extras();
    return d;
}

RunSettings parse_run(const Json& j, const std::string& path, const ReadContext& file, Polarization pol) {
    ObjectReader r(j, path, file);
    RunSettings run;
    with_object(r, "spectrum", file, [&](ObjectReader& s) {
        run.spectrum.wavelength_min = s.number("wavelength_min", run.spectrum.wavelength_min);
        run.spectrum.wavelength_max = s.number("wavelength_max", run.spectrum.wavelength_max);
        run.spectrum.points = s.integer("points", run.spectrum.points);
        run.spectrum.extra = s.extras();
    });
    run.courant = r.number("courant", run.courant);
    with_object(r, "stop", file, [&](ObjectReader& s) {
        run.stop.decay_db = s.number("decay_db", run.stop.decay_db);
        run.stop.max_time_fs = s.number("max_time_fs", run.stop.max_time_fs);
        if (const Json* ms = s.find("max_steps"))
            run.stop.max_steps = s.conv().integer(*ms, s.path("max_steps"), 1, std::numeric_limits<long long>::max());
        run.stop.monitor = s.optional_string("monitor");
        run.stop.resonances = s.boolean("resonances", false);
        run.stop.extra = s.extras();
    });
    with_object(r, "normalization", file, [&](ObjectReader& n) {
        run.normalization.enabled = n.boolean("enabled", false);
        if (const Json* refs = n.find("reference_layers")) {
            n.conv().array(*refs, n.path("reference_layers"));
            for (std::size_t i = 0; i < refs->size(); ++i)
                run.normalization.reference_layers.push_back(
                    n.conv().string((*refs)[i], index_path(n.path("reference_layers"), i)));
        }
        run.normalization.incident_monitor = n.optional_string("incident_monitor");
        run.normalization.extra = n.extras();
    });
    run.subpixel_averaging = r.boolean("subpixel_averaging", true);
    run.subpixel_metal = r.enumeration(kSubpixelMetals, "subpixel_metal", SubpixelMetal::Tangential);
    run.precision = r.enumeration(kPrecisions, "precision", Precision::Float32);
    run.backend = r.enumeration(kBackends, "backend", BackendChoice::Auto);
    with_object(r, "frames", file, [&](ObjectReader& f) {
        run.frames.every_steps = f.integer("every_steps", run.frames.every_steps);
        run.frames.component = f.enumeration(kComponents, "component", default_component(pol));
        run.frames.plane = f.string("plane", "xy");
        run.frames.position = f.optional_number("position");
        run.frames.extra = f.extras();
    });
    run.extra = r.extras();
    return run;
}

template <class T, class Fn>
std::vector<T> parse_list(ObjectReader& r, std::string_view key, Fn&& fn) {
    std::vector<T> out;
    const Json* v = r.find(key);
    if (!v) return out;
    r.conv().array(*v, r.path(key));
    for (std::size_t i = 0; i < v->size(); ++i) out.push_back(fn((*v)[i], index_path(r.path(key), i)));
    return out;
}

Project parse_document(const Json& doc, const std::string& file_label, const ParameterOverrides& overrides) {
    ReadContext file{file_label};
    reject_non_finite(doc, "", file_label);
    ObjectReader r(doc, "", file);
    {
        const Json* f = r.find("format");
        if (!f)
            r.conv().fail("format", "is missing: this is not a GoLightly project (expected \"format\": \"golightly-project\")");
        if (!f->is_string() || f->get<std::string>() != kFormatName)
            r.conv().fail("format", "must be \"golightly-project\" (this is not a GoLightly project file)");
    }
    {
        const Json& v = r.require("version");
        const long long version = r.conv().integer(v, "version", std::numeric_limits<int>::min(),
                                                   std::numeric_limits<int>::max());
        if (version > kFormatVersion)
            r.conv().fail("version", "the file has format version " + std::to_string(version) +
                                         ", written by a newer GoLightly; this version reads format version " +
                                         std::to_string(kFormatVersion) + " (update GoLightly)");
        if (version < 1)
            r.conv().fail("version", "unsupported format version " + std::to_string(version) + " (expected 1)");
    }
    ExpressionScope expressions(r.find("parameters"), file_label, overrides);  // parameters first: fields may use them
    file.expressions = &expressions;
    Project p;
    p.name = r.string("name", "");
    const std::map<std::string, std::string> embedded = parse_embedded_files(r, file);  // before the shapes naming them
    file.embedded = &embedded;
    p.domain = parse_domain(r.require("domain"), "domain", file);
    const Polarization pol = p.domain.polarization;
    p.materials = parse_list<Material>(r, "materials", [&](const Json& j, const std::string& path) {
        return parse_material(j, path, file);
    });
    p.layers = parse_list<Layer>(r, "layers", [&](const Json& j, const std::string& path) {
        return parse_layer(j, path, file);
    });
    p.sources = parse_list<Source>(r, "sources", [&](const Json& j, const std::string& path) {
        return parse_source(j, path, file, p.domain);
    });
    p.monitors = parse_list<Monitor>(r, "monitors", [&](const Json& j, const std::string& path) {
        return parse_monitor(j, path, file, p.domain);
    });
    if (const Json* run = r.find("run"))
        p.run = parse_run(*run, "run", file, pol);
    else
        p.run = parse_run(Json::object(), "run", file, pol);
    p.extra = r.extras();
    expressions.finish(p);
    return p;
}

}  // namespace

// ------------------------------------------------------------------ public API

Project parse_project(const std::string& text, const std::string& file_label) {
    return parse_project(text, file_label, ParameterOverrides{});
}

Project parse_project(const std::string& text, const std::string& file_label, const ParameterOverrides& overrides) {
    std::string_view body(text);
    if (body.size() >= 3 && body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);  // UTF-8 BOM
    DomBuilder builder;
    const bool ok = Json::sax_parse(body.begin(), body.end(), &builder);
    if (!ok || builder.failed) {
        if (builder.error_id == 406) {
            // A number too large for a double (1e999): nlohmann refuses it; name its place.
            const auto [line, column] = line_column(body, builder.error_position);
            throw ProjectError(file_label, builder.error_path,
                               "number out of range: " + builder.error_token + " (line " + std::to_string(line) +
                                   ", column " + std::to_string(column) + ") must be a finite number");
        }
        // builder.error_what: "[json.exception.parse_error.101] parse error at line L, column C: ..."
        std::string what = builder.error_what.empty() ? std::string("parse error") : builder.error_what;
        if (what.rfind("[json.exception.", 0) == 0)
            if (const auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
        throw ProjectError(file_label, "", "not valid JSON: " + what);
    }
    Project p = parse_document(builder.root, file_label, overrides);
    validate_project(p, file_label);
    return p;
}

Project load_project(const std::filesystem::path& file) { return load_project_with(file, ParameterOverrides{}); }

Project load_project_with(const std::filesystem::path& file, const ParameterOverrides& overrides) {
    const std::string label = file.string();
    std::string text;
    try {  // regular files only, at most limits::kMaxProjectFileBytes (a FIFO or /dev/zero is refused)
        text = read_regular_file(file, limits::kMaxProjectFileBytes);
    } catch (const FileReadError& e) {
        std::error_code ec;
        if (std::filesystem::is_directory(file, ec))
            throw ProjectError(label, "", "cannot read the project: it is a directory");
        throw ProjectError(label, "", std::string("cannot read the project: ") + e.what());
    }
    return parse_project(text, label, overrides);
}
Material material_from_json(const Json& j, const std::string& json_path, const std::string& file_label) {
    return parse_material(j, json_path, ReadContext{file_label});
}

const Material* Project::find_material(const std::string& id) const {
    for (const auto& m : materials)
        if (m.id == id) return &m;
    if (id == "air") {
        static const Material kAir = [] {
            Material m;
            m.id = "air";
            m.name = "Air";
            m.epsilon_inf = 1.0;
            m.color = "#ffffff";
            return m;
        }();
        return &kAir;
    }
    return nullptr;
}

}  // namespace golightly
