// GoLightly: writing `.glproj` project files (spec/project-format.md, v1): the JSON of
// each item, exactly the members project_io.cpp's reader asks for (optional members only
// when set) followed by the item's `extra`, so load -> save -> load gives an equal Project
// and a second save is byte-identical to the first; the atomic save.
#include "project_io_internal.hpp"
#include "project_expressions_internal.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <unordered_map>
#include <sstream>
#include <tuple>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"

namespace golightly {

using namespace detail;

namespace {

Json vec2_json(const Vec2& v) { return Json::array({v.x, v.y}); }

Json array3_json(const std::array<double, 3>& a) { return Json::array({a[0], a[1], a[2]}); }

Json vec3_json(const Vec3& v) { return Json::array({v.x, v.y, v.z}); }

/// [x, y] or, with a z entry, [x, y, z].
Json point23_json(const Vec2& v, const std::optional<double>& z) {
    return z ? Json::array({v.x, v.y, *z}) : vec2_json(v);
}

/// Appends the kept unknown members after the known ones (a known member wins on a clash).
void append_extra(Json& j, const Json& extra) {
    if (!extra.is_object()) return;
    for (auto it = extra.begin(); it != extra.end(); ++it)
        if (!j.contains(it.key())) j[it.key()] = *it;
}

/// The embedded files of a project being written: each distinct base64 text of its layers'
/// step and gds shapes once, in order of first use, with its id (16 hex digits of the
/// FNV-1a 64-bit hash of the text; "-2", "-3" ... appended in the unlikely case that two
/// different files hash alike).
class EmbeddedTable {
public:
    explicit EmbeddedTable(const Project& p) {
        for (const Layer& l : p.layers)
            for (const Shape& s : l.shapes)
                if ((s.type == ShapeType::Step || s.type == ShapeType::Gds) && !s.data_base64.empty()) add(s);
    }
    /// The id of a shape's data; nullptr when the table does not hold it (shapes outside layers).
    const std::string* id_of(const Shape& s) const {
        const auto it = by_text_.find(std::string_view(s.data_base64));
        return it == by_text_.end() ? nullptr : &entries_[it->second].id;
    }
    Json json() const {
        Json out = Json::array();
        for (const Entry& e : entries_) {
            Json j = Json::object();
            j["id"] = e.id;
            j["file_name"] = e.shape->file_name;
            j["data"] = e.shape->data_base64;
            out.push_back(std::move(j));
        }
        return out;
    }
    bool empty() const { return entries_.empty(); }

private:
    struct Entry {
        std::string id;
        const Shape* shape;  ///< the first shape holding the text (its file_name names the entry)
    };
    static std::uint64_t fnv1a(std::string_view t) {
        std::uint64_t h = 14695981039346656037ull;
        for (const char c : t) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        return h;
    }
    void add(const Shape& s) {
        const std::string_view text(s.data_base64);
        if (by_text_.count(text)) return;
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
        std::string id = buf;
        for (int k = 2; ids_.count(id); ++k) id = std::string(buf) + "-" + std::to_string(k);
        ids_.insert(id);
        by_text_.emplace(text, entries_.size());
        entries_.push_back({id, &s});
    }
    std::vector<Entry> entries_;
    std::unordered_map<std::string_view, std::size_t> by_text_;  ///< views into the project's shapes
    std::set<std::string> ids_;
};

/// A step or gds shape's data: `file` (its embedded_files id) when the table holds it, else inline.
void embedded_json(Json& j, const Shape& s, const EmbeddedTable* table) {
    if (const std::string* id = table ? table->id_of(s) : nullptr)
        j["file"] = *id;
    else
        j["data"] = s.data_base64;
}

Json shape_json(const Shape& s, const EmbeddedTable* table = nullptr) {
    Json j = Json::object();
    j["type"] = to_string(s.type);
    switch (s.type) {
        case ShapeType::Rectangle:
            j["min"] = vec2_json(s.min);
            j["max"] = vec2_json(s.max);
            j["rotation_deg"] = s.rotation_deg;
            break;
        case ShapeType::Polygon: {
            Json pts = Json::array();
            for (const auto& p : s.points) pts.push_back(vec2_json(p));
            j["points"] = pts;
            break;
        }
        case ShapeType::Ellipse:
            j["center"] = vec2_json(s.center);
            j["radii"] = vec2_json(s.radii);
            j["rotation_deg"] = s.rotation_deg;
            break;
        case ShapeType::Ring:
            j["center"] = vec2_json(s.center);
            j["inner_radius"] = s.inner_radius;
            j["outer_radius"] = s.outer_radius;
            break;
        case ShapeType::Path: {
            Json pts = Json::array();
            for (const auto& p : s.points) pts.push_back(vec2_json(p));
            j["points"] = pts;
            j["width"] = s.width;
            if (s.bend_radius) j["bend_radius"] = *s.bend_radius;
            break;
        }
        case ShapeType::Raster:
            j["origin"] = vec2_json(s.origin);
            j["pixel_size"] = s.pixel_size;
            j["width"] = s.width_px;
            j["height"] = s.height_px;
            j["png"] = s.png_base64;
            break;
        case ShapeType::Step:
            j["file_name"] = s.file_name;
            embedded_json(j, s, table);
            j["scale"] = s.scale;
            j["rotate_deg"] = array3_json(s.rotate_deg);
            j["translate"] = array3_json(s.translate);
            if (!s.solids.empty()) j["solids"] = s.solids;
            break;
        case ShapeType::Sphere:
            j["center"] = vec3_json(s.center_3d);
            j["radius"] = s.radius;
            break;
        case ShapeType::Box:
            j["min"] = vec3_json(s.box_min);
            j["max"] = vec3_json(s.box_max);
            break;
        case ShapeType::Gds:
            j["file_name"] = s.file_name;
            embedded_json(j, s, table);
            if (!s.gds_cell.empty()) j["cell"] = s.gds_cell;
            j["layer"] = Json::array({s.gds_layer[0], s.gds_layer[1]});
            if (s.translate[0] != 0 || s.translate[1] != 0) j["translate"] = Json::array({s.translate[0], s.translate[1]});
            if (s.rotation_deg != 0) j["rotate_deg"] = s.rotation_deg;
            if (s.gds_db_unit_um) j["db_unit_um"] = *s.gds_db_unit_um;
            break;
    }
    append_extra(j, s.extra);
    return j;
}

Json material_json(const Material& m) {
    Json j = Json::object();
    j["id"] = m.id;
    j["name"] = m.name;
    j["epsilon_inf"] = m.epsilon_inf;
    j["mu_r"] = m.mu_r;
    j["conductivity"] = m.conductivity;
    Json poles = Json::array();
    for (const auto& p : m.poles) {
        Json pj = Json::object();
        pj["kind"] = to_string(p.kind);
        pj["omega_p"] = p.omega_p;
        if (p.kind == PoleKind::Lorentz) pj["omega_0"] = p.omega_0;
        pj["gamma"] = p.gamma;
        append_extra(pj, p.extra);
        poles.push_back(pj);
    }
    j["poles"] = poles;
    j["color"] = m.color;
    append_extra(j, m.extra);
    return j;
}

Json layer_json(const Layer& l, const EmbeddedTable& table) {
    Json j = Json::object();
    j["name"] = l.name;
    j["material"] = l.material;
    j["visible"] = l.visible;
    j["locked"] = l.locked;
    if (l.z) j["z"] = Json::array({(*l.z)[0], (*l.z)[1]});
    if (l.sidewall_angle_deg != 0) j["sidewall_angle_deg"] = l.sidewall_angle_deg;
    j["reference_only"] = l.reference_only;
    if (l.gds_layer) j["gds_layer"] = Json::array({(*l.gds_layer)[0], (*l.gds_layer)[1]});
    Json shapes = Json::array();
    for (const auto& s : l.shapes) shapes.push_back(shape_json(s, &table));
    j["shapes"] = shapes;
    append_extra(j, l.extra);
    return j;
}

Json waveform_json(const Waveform& w) {
    Json j = Json::object();
    j["type"] = to_string(w.type);
    if (w.type == WaveformType::GaussianPulse) {
        j["wavelength_center"] = w.wavelength_center;
        j["wavelength_span"] = w.wavelength_span;
    } else {
        j["wavelength"] = w.wavelength;
        j["ramp_periods"] = w.ramp_periods;
    }
    append_extra(j, w.extra);
    return j;
}

Json source_json(const Source& s) {
    Json j = Json::object();
    j["name"] = s.name;
    j["type"] = to_string(s.type);
    switch (s.type) {
        case SourceType::Point: j["at"] = point23_json(s.at, s.at_z); break;
        case SourceType::Line:
            j["from"] = vec2_json(s.from);
            j["to"] = vec2_json(s.to);
            break;
        case SourceType::Region:
            j["shape"] = s.shape ? shape_json(*s.shape) : Json::object();
            break;
        case SourceType::Plane:
            j["center"] = vec3_json(s.center);
            j["size"] = vec3_json(s.size);
            break;
        case SourceType::Tfsf:
            j["min"] = vec3_json(s.box_min);
            j["max"] = vec3_json(s.box_max);
            j["direction"] = s.direction;
            break;
    }
    j["component"] = to_string(s.component);
    if (s.type == SourceType::Line || s.type == SourceType::Plane) {
        j["profile"] = to_string(s.profile);
        if (s.profile == SourceProfile::Gaussian) j["waist"] = s.waist;
        if (s.profile == SourceProfile::Mode) {
            j["mode_index"] = s.mode_index;
            j["direction"] = s.direction;
        }
    }
    j["amplitude"] = s.amplitude;
    j["phase_deg"] = s.phase_deg;
    if (s.angle_deg != 0) j["angle_deg"] = s.angle_deg;
    if (s.azimuth_deg != 0) j["azimuth_deg"] = s.azimuth_deg;
    if (!s.polarization.empty()) j["polarization"] = s.polarization;
    j["waveform"] = waveform_json(s.waveform);
    append_extra(j, s.extra);
    return j;
}

/// A `far_field` object; `plane3d`: a 3D flux plane (periods as [n1, n2]).
Json far_field_json(const FarFieldSettings& s, bool plane3d) {
    Json ff = Json::object();
    if (!s.wavelengths.empty()) {
        Json wl = Json::array();
        for (double w : s.wavelengths) wl.push_back(w);
        ff["wavelengths"] = wl;
    }
    ff["theta_points"] = s.theta_points;
    if (s.phi_points > 0) ff["phi_points"] = s.phi_points;
    if (s.periods[0] != 1 || s.periods[1] != 1)
        ff["periods"] = plane3d ? Json::array({s.periods[0], s.periods[1]}) : Json(s.periods[0]);
    append_extra(ff, s.extra);
    return ff;
}

Json monitor_json(const Monitor& m) {
    Json j = Json::object();
    j["name"] = m.name;
    j["type"] = to_string(m.type);
    switch (m.type) {
        case MonitorType::Flux:
            if (m.size != Vec3{}) {  // a plane (a valid plane has a nonzero extent)
                j["center"] = vec3_json(m.center);
                j["size"] = vec3_json(m.size);
            } else {
                j["from"] = vec2_json(m.from);
                j["to"] = vec2_json(m.to);
            }
            j["direction"] = m.direction;
            j["kind"] = m.kind;
            if (m.far_field) j["far_field"] = far_field_json(*m.far_field, m.size != Vec3{});
            if (m.diffraction) {
                j["type"] = "diffraction";
                if (m.diffraction->index) j["index"] = *m.diffraction->index;
            }
            break;
        case MonitorType::FluxBox:
            j["min"] = point23_json(m.min.value_or(Vec2{}), m.min_z);
            j["max"] = point23_json(m.max.value_or(Vec2{}), m.max_z);
            j["kind"] = m.kind;
            if (m.far_field) j["far_field"] = far_field_json(*m.far_field, false);
            break;
        case MonitorType::Time:
            if (m.at) j["at"] = point23_json(*m.at, m.at_z);
            if (m.shape) j["shape"] = shape_json(*m.shape);
            j["component"] = to_string(m.component);
            j["reduce"] = to_string(m.reduce);
            if (m.resonances) {
                Json rs = Json::object();
                if (m.resonances->wavelength_min || m.resonances->wavelength_max)
                    rs["band"] = Json::array({m.resonances->wavelength_min.value_or(0.0),
                                              m.resonances->wavelength_max.value_or(0.0)});
                rs["after_source"] = m.resonances->after_source;
                rs["q_min"] = m.resonances->q_min;
                append_extra(rs, m.resonances->extra);
                j["resonances"] = rs;
            }
            break;
        case MonitorType::DftField: {
            Json wl = Json::array();
            for (double w : m.wavelengths) wl.push_back(w);
            j["wavelengths"] = wl;
            Json comps = Json::array();
            for (Component c : m.components) comps.push_back(to_string(c));
            j["components"] = comps;
            if (m.min) j["min"] = point23_json(*m.min, m.min_z);
            if (m.max) j["max"] = point23_json(*m.max, m.max_z);
            break;
        }
    }
    append_extra(j, m.extra);
    return j;
}

Json domain_json(const Domain& d) {
    Json j = Json::object();
    j["dimensions"] = d.dimensions;
    j["size"] = array3_json(d.size);
    j["cell_size"] = d.cell_size;
    j["polarization"] = to_string(d.polarization);
    j["slice_z"] = d.slice_z;
    Json b = Json::object();
    b["x"] = d.is_bloch(0) ? "bloch" : to_string(d.boundaries[0]);
    b["y"] = d.is_bloch(1) ? "bloch" : to_string(d.boundaries[1]);
    b["z"] = d.is_bloch(2) ? "bloch" : to_string(d.boundaries[2]);
    append_extra(b, d.boundaries_extra);
    j["boundaries"] = b;
    if (d.symmetry != std::array<int, 3>{0, 0, 0}) {  // written only when set: older files stay byte-identical
        Json sy = Json::array();
        for (int a = 0; a < (d.dimensions == 3 ? 3 : 2); ++a) sy.push_back(d.symmetry[std::size_t(a)]);
        j["symmetry"] = sy;
    }
    if (d.bloch_k) j["bloch_k"] = Json::array({(*d.bloch_k)[0], (*d.bloch_k)[1], (*d.bloch_k)[2]});
    if (d.bloch_k_unit != "2pi/a") j["bloch_k_unit"] = d.bloch_k_unit;
    Json pml = Json::object();
    pml["cells"] = d.pml.cells;
    pml["grading_order"] = d.pml.grading_order;
    pml["target_reflection"] = d.pml.target_reflection;
    append_extra(pml, d.pml.extra);
    j["pml"] = pml;
    j["background"] = d.background;
    append_extra(j, d.extra);
    return j;
}

Json run_json(const RunSettings& r, int dimensions) {
    Json j = Json::object();
    Json spectrum = Json::object();
    spectrum["wavelength_min"] = r.spectrum.wavelength_min;
    spectrum["wavelength_max"] = r.spectrum.wavelength_max;
    spectrum["points"] = r.spectrum.points;
    append_extra(spectrum, r.spectrum.extra);
    j["spectrum"] = spectrum;
    j["courant"] = r.courant;
    Json stop = Json::object();
    stop["decay_db"] = r.stop.decay_db;
    stop["max_time_fs"] = r.stop.max_time_fs;
    if (r.stop.max_steps) stop["max_steps"] = *r.stop.max_steps;
    if (r.stop.monitor) stop["monitor"] = *r.stop.monitor;
    if (r.stop.resonances) stop["resonances"] = true;
    append_extra(stop, r.stop.extra);
    j["stop"] = stop;
    Json norm = Json::object();
    norm["enabled"] = r.normalization.enabled;
    norm["reference_layers"] = r.normalization.reference_layers;
    if (r.normalization.incident_monitor) norm["incident_monitor"] = *r.normalization.incident_monitor;
    append_extra(norm, r.normalization.extra);
    j["normalization"] = norm;
    j["subpixel_averaging"] = r.subpixel_averaging;
    // written only when chosen, so projects saved before the field existed stay byte-identical
    if (r.subpixel_metal != SubpixelMetal::Tangential) j["subpixel_metal"] = to_string(r.subpixel_metal);
    j["precision"] = to_string(r.precision);
    j["backend"] = to_string(r.backend);
    Json frames = Json::object();
    frames["every_steps"] = r.frames.every_steps;
    frames["component"] = to_string(r.frames.component);
    if (dimensions == 3 || r.frames.plane != "xy") frames["plane"] = r.frames.plane;
    if (r.frames.position) frames["position"] = *r.frames.position;
    append_extra(frames, r.frames.extra);
    j["frames"] = frames;
    append_extra(j, r.extra);
    return j;
}

[[noreturn]] void save_failure(const std::filesystem::path& file, const std::string& what, int err) {
    std::string msg = "cannot save \"" + file.string() + "\": " + what;
    if (err) msg += ": " + std::string(std::strerror(err));
    throw std::runtime_error(msg + " (the existing file, if any, is unchanged)");
}

}  // namespace

Json project_to_json(const Project& project) {
    Json j = Json::object();
    j["format"] = kFormatName;
    j["version"] = kFormatVersion;
    j["name"] = project.name;
    // expression strings read back only in a project with a `parameters` member, even when
    // they name no parameter ("2 * 220nm")
    if (!project.parameters.empty() || !project.expressions.empty()) j["parameters"] = parameters_json(project.parameters);
    j["domain"] = domain_json(project.domain);
    Json materials = Json::array();
    for (const auto& m : project.materials) materials.push_back(material_json(m));
    j["materials"] = materials;
    const EmbeddedTable table(project);  // each embedded file once, however many shapes use it
    Json layers = Json::array();
    for (const auto& l : project.layers) layers.push_back(layer_json(l, table));
    j["layers"] = layers;
    Json sources = Json::array();
    for (const auto& s : project.sources) sources.push_back(source_json(s));
    j["sources"] = sources;
    Json monitors = Json::array();
    for (const auto& m : project.monitors) monitors.push_back(monitor_json(m));
    j["monitors"] = monitors;
    j["run"] = run_json(project.run, project.domain.dimensions);
    if (!table.empty()) j["embedded_files"] = table.json();  // last: the bulk of the file after what people read
    append_extra(j, project.extra);
    restore_expressions(j, project.expressions);  // expression strings back where the model keeps them
    return j;
}

namespace {

std::string project_text(const Project& project) { return project_to_json(project).dump(2) + "\n"; }

/// save_size_problem's message for a file of `bytes`.
std::string size_problem_text(const Project& project, std::uint64_t bytes) {
    if (bytes <= limits::kMaxProjectFileBytes) return {};
    // the embedded files, largest first, with the layers that use them
    struct File {
        std::string name;
        std::size_t bytes = 0;
        std::vector<std::string> layers;
    };
    std::vector<File> files;
    std::unordered_map<std::string_view, std::size_t> index;
    for (const Layer& l : project.layers)
        for (const Shape& s : l.shapes) {
            if ((s.type != ShapeType::Step && s.type != ShapeType::Gds) || s.data_base64.empty()) continue;
            auto [it, added] = index.emplace(std::string_view(s.data_base64), files.size());
            if (added) files.push_back({s.file_name.empty() ? std::string("(unnamed)") : s.file_name, s.data_base64.size(), {}});
            auto& names = files[it->second].layers;
            if (std::find(names.begin(), names.end(), l.name) == names.end()) names.push_back(l.name);
        }
    std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.bytes > b.bytes; });
    std::string msg = "the project would be " + limits::format_bytes(double(bytes)) + ", more than the " +
                      limits::format_bytes(double(limits::kMaxProjectFileBytes)) +
                      " GoLightly opens, so it is not saved (the file on disk, if any, is unchanged)";
    if (!files.empty()) {
        msg += ". Embedded files (each stored once, base64):";
        for (std::size_t k = 0; k < files.size() && k < 5; ++k) {
            std::string layers;
            for (std::size_t i = 0; i < files[k].layers.size() && i < 6; ++i)
                layers += (i ? ", " : "") + ("'" + files[k].layers[i] + "'");
            if (files[k].layers.size() > 6) layers += ", ...";
            msg += (k ? "; " : " ") + files[k].name + " " + limits::format_bytes(double(files[k].bytes)) + " (layers " + layers + ")";
        }
        msg += ". Remove the shapes of a file you no longer need, or import a smaller cell of a layout (or a STEP "
               "file with fewer parts) instead of the whole file";
    } else {
        msg += ". Make painted rasters, polygons and paths smaller, or split the project";
    }
    return msg;
}

}  // namespace

std::uint64_t saved_project_bytes(const Project& project) { return project_text(project).size(); }

std::string save_size_problem(const Project& project) { return size_problem_text(project, saved_project_bytes(project)); }

void save_project(const Project& project, const std::filesystem::path& file) {
    std::string text;
    try {
        text = project_text(project);
    } catch (const Json::exception& e) {
        save_failure(file, std::string("cannot write the project as JSON: ") + e.what(), 0);
    }
    // never write a file load_project refuses (limits::kMaxProjectFileBytes)
    if (const std::string problem = size_problem_text(project, text.size()); !problem.empty()) {
        text.clear();
        text.shrink_to_fit();
        throw std::runtime_error("cannot save \"" + file.string() + "\": " + problem);
    }

    const std::filesystem::path dir = file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
    // Appended, not "." + name: GCC 12 warns (-Wrestrict) on that inlined concatenation.
    std::string tmp_name(".");
    tmp_name += file.filename().string();
    tmp_name += ".tmp-XXXXXX";
    std::string tmpl = (dir / tmp_name).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) save_failure(file, "cannot create a temporary file in \"" + dir.string() + "\"", errno);
    const std::string tmp(name.data());
    auto abandon = [&](const std::string& what, int err) {
        ::close(fd);
        ::unlink(tmp.c_str());
        save_failure(file, what, err);
    };

    // Keep the permissions of the file being replaced; a new file gets rw-r--r--.
    struct stat st {};
    const mode_t mode = ::stat(file.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
    if (::fchmod(fd, mode) != 0) abandon("cannot set the permissions of the temporary file", errno);

    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            abandon("cannot write the temporary file \"" + tmp + "\"", errno);
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) abandon("cannot flush the temporary file \"" + tmp + "\" to disk", errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        save_failure(file, "cannot close the temporary file \"" + tmp + "\"", err);
    }
    if (::rename(tmp.c_str(), file.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        save_failure(file, "cannot replace the file with the temporary file", err);
    }
    // Make the rename itself durable (best effort: some file systems refuse fsync on a folder).
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

Json material_to_json(const Material& m) { return material_json(m); }

}  // namespace golightly
