// GoLightly project model: the in-memory form of a `.glproj` file
// (../shared/spec/project-format.md, format version 1).
//
// Qt-free. The editor edits this model through undo commands; the run driver compiles
// it into a Scene (scene.hpp). Every struct keeps the JSON members it does not know in
// `extra`, so a load-modify-save cycle loses nothing a newer version wrote.
//
// Units: lengths in micrometres (um), pole angular frequencies in rad/s, conductivity in
// S/m, times in femtoseconds (fs), wavelengths are vacuum wavelengths in um.
// Coordinates: origin at the lower-left corner of the interior domain, x right, y up.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "golightly/types.hpp"
#include "golightly/parameters.hpp"

namespace golightly {

using Json = nlohmann::ordered_json;

// ---------------------------------------------------------------- materials

enum class PoleKind { Drude, Lorentz };

/// One susceptibility pole: omega_p^2 / (omega_0^2 - w^2 - i w gamma), omega_0 = 0 for Drude.
/// All in rad/s (B-CALM, Wahl et al., PIER 138 (2013), eq. 1).
struct Pole {
    PoleKind kind = PoleKind::Lorentz;
    double omega_p = 0;  ///< plasma frequency, rad/s
    double omega_0 = 0;  ///< resonance frequency, rad/s (0 for Drude)
    double gamma = 0;    ///< damping rate, rad/s
    Json extra = Json::object();
    bool operator==(const Pole&) const = default;
};

struct Material {
    std::string id;
    std::string name;
    double epsilon_inf = 1.0;
    double mu_r = 1.0;
    double conductivity = 0.0;  ///< S/m
    std::vector<Pole> poles;
    std::string color;  ///< "#rrggbb", may be empty
    Json extra = Json::object();
    bool operator==(const Material&) const = default;
};

// ---------------------------------------------------------------- shapes

/// Sphere and Box (GoLightly 0.2, spec "3D projects") are solids with their own z; in 2D
/// they are cut at domain.slice_z (a disc, a rectangle).
/// Gds (GoLightly 0.3, spec "GDSII layouts"): the polygons, boxes and paths of one
/// layer/datatype of one cell of an embedded GDSII stream, references flattened.
enum class ShapeType { Rectangle, Polygon, Ellipse, Ring, Path, Raster, Step, Sphere, Box, Gds };

/// One shape. A flat struct: which fields matter depends on `type` (see the spec's table).
struct Shape {
    ShapeType type = ShapeType::Rectangle;
    // rectangle
    Vec2 min, max;
    double rotation_deg = 0;  ///< rectangle, ellipse: rotation about the centre, CCW
    // polygon, path
    std::vector<Vec2> points;
    // ellipse, ring
    Vec2 center;
    Vec2 radii;  ///< ellipse semi-axes (rx, ry)
    double inner_radius = 0, outer_radius = 0;
    // path
    double width = 0;
    std::optional<double> bend_radius;  ///< centre-line radius of the arc at each corner
    // raster: painted coverage, 8-bit grey PNG (0 empty .. 255 full), row 0 = top (max y)
    Vec2 origin;             ///< lower-left corner of the raster, um
    double pixel_size = 0;   ///< um
    int width_px = 0, height_px = 0;
    std::string png_base64;
    // step: embedded CAD
    std::string file_name;
    std::string data_base64;
    double scale = 1.0;
    std::array<double, 3> rotate_deg{0, 0, 0};
    std::array<double, 3> translate{0, 0, 0};
    /// step (GoLightly 0.1, additive): indices of the file's solids (read_step order) this
    /// shape places on its layer; empty = all solids. JSON key `solids`.
    std::vector<int> solids;
    // gds (GoLightly 0.3): file_name and data_base64 as step (the GDSII stream); JSON `cell`
    // (empty = the only top cell), `layer` [layer, datatype] (absent: the layer's
    // gds_layer), `translate` [x, y] (translate[0..1] here) and `rotate_deg` (a number,
    // kept in rotation_deg): each point p of the cell maps to R(rotate_deg) p + translate.
    std::string gds_cell;
    std::array<int, 2> gds_layer{0, 0};
    /// gds (additive, JSON `db_unit_um`): the database unit (um) the stream is read with,
    /// overriding its UNITS record (a file written with a wrong unit); absent = the file's.
    std::optional<double> gds_db_unit_um;
    // sphere (3D shape): JSON `center [x,y,z]`, `radius`
    Vec3 center_3d;
    double radius = 0;
    // box (3D shape): JSON `min [x,y,z]`, `max [x,y,z]`
    Vec3 box_min, box_max;

    Json extra = Json::object();
    bool operator==(const Shape&) const = default;
};

struct Layer {
    std::string name;
    std::string material;  ///< material id
    bool visible = true;
    bool locked = false;
    std::optional<std::array<double, 2>> z;  ///< extrusion range um; absent = whole domain
    bool reference_only = false;
    /// Sidewall angle (degrees, spec "3D projects"): > 0 makes each extruded 2D shape
    /// shrink with height, every edge moving inward by (z - z0) tan(angle); 0 = vertical.
    double sidewall_angle_deg = 0;
    /// GDSII layer/datatype of this layer (GoLightly 0.3, JSON `gds_layer`): where a GDS
    /// export writes its shapes, and the default `layer` of its `gds` shapes.
    std::optional<std::array<int, 2>> gds_layer;
    std::vector<Shape> shapes;
    Json extra = Json::object();
    bool operator==(const Layer&) const = default;
};

// ---------------------------------------------------------------- sources

struct Waveform {
    WaveformType type = WaveformType::GaussianPulse;
    double wavelength_center = 1.55;  ///< gaussian_pulse, um
    double wavelength_span = 0.4;     ///< gaussian_pulse: full width at 1/e of the peak spectral amplitude, um
    double wavelength = 1.55;         ///< cw, um
    double ramp_periods = 5;          ///< cw: smooth turn-on length, in periods
    Json extra = Json::object();
    bool operator==(const Waveform&) const = default;
};

enum class SourceType { Point, Line, Region, Plane, Tfsf };
enum class SourceProfile { Uniform, Gaussian, Mode };

struct Source {
    std::string name;
    SourceType type = SourceType::Point;
    Vec2 at;                   ///< point
    std::optional<double> at_z;  ///< point: the third entry of `at` (3D; ignored in 2D)
    Vec2 from, to;             ///< line
    Vec3 center, size;         ///< plane (3D): JSON `center`, `size` (exactly one zero entry)
    Vec3 box_min, box_max;     ///< tfsf: JSON `min`, `max` (2D: z entries absent, 0)
    std::optional<Shape> shape;  ///< region
    Component component = Component::Ez;
    SourceProfile profile = SourceProfile::Uniform;
    double waist = 1.0;        ///< gaussian profile, um (1/e amplitude radius)
    int mode_index = 0;
    std::string direction = "+x";  ///< one-way injection direction (line/plane), propagation (tfsf)
    double amplitude = 1.0;
    double phase_deg = 0.0;
    /// Oblique plane wave (line/plane sources spanning Bloch axes; project-format.md
    /// "Oblique plane waves"): polar angle from the propagation axis and (3D) azimuth, in
    /// degrees; 0, 0: normal incidence (as before).
    double angle_deg = 0.0;
    double azimuth_deg = 0.0;
    /// 3D oblique plane waves: "s" (E normal to the plane of incidence) or "p"; empty: the
    /// `component` gives the E direction (normal incidence). 2D: TMz is s, TEz is p.
    std::string polarization;
    Waveform waveform;
    Json extra = Json::object();
    bool operator==(const Source&) const = default;
};

// ---------------------------------------------------------------- monitors

enum class MonitorType { Flux, FluxBox, Time, DftField };

/// A flux_box's near-to-far-field projection (project-format.md "Far fields"): the box's
/// surface DFT fields (already taken for its spectrum) projected to the far zone by the
/// surface equivalence principle.
struct FarFieldSettings {
    /// Vacuum wavelengths (um) to project at: each is taken at the nearest run.spectrum
    /// point; empty: the spectrum point nearest the band's centre.
    std::vector<double> wavelengths;
    int theta_points = 37;  ///< 3D: polar angles 0..180 degrees, both included
    int phi_points = 0;     ///< azimuths 0..360 degrees, 360 excluded; 0: 72 in 3D, 360 in 2D
    /// A flux line or plane on a periodic (or Bloch) domain: the number of periods its
    /// surface stands for along each tangential axis (2D: [0], the one axis; 3D: the two
    /// tangential axes in x, y, z order), each copy shifted by one period and multiplied by
    /// the Bloch phase, as Meep's near2far `nperiods`. 1: the plane alone.
    std::array<int, 2> periods{1, 1};
    Json extra = Json::object();
    bool operator==(const FarFieldSettings&) const = default;
};

/// A time monitor's resonance analysis (project-format.md "Resonances"): Harminv's filter
/// diagonalization of the monitor's signal (golightly/resonance_finder.hpp).
struct ResonanceSettings {
    /// Band as vacuum wavelengths, um (`band`: [min, max]); unset: run.spectrum's band.
    std::optional<double> wavelength_min, wavelength_max;
    bool after_source = true;  ///< analyse only the samples after every source has ended
    double q_min = 50;         ///< modes with |Q| <= q_min are dropped (Meep's Q_thresh)
    Json extra = Json::object();
    bool operator==(const ResonanceSettings&) const = default;
};

/// A diffraction monitor (project-format.md "Diffraction monitors"): written
/// `"type": "diffraction"` in the file and held as a flux monitor (line or plane, the same
/// DFT sets, kinds and normalization) that also reports its Floquet orders
/// (golightly/diffraction.hpp).
struct DiffractionSettings {
    /// Refractive index of the medium at the monitor (real); unset: from the compiled
    /// permittivity at the monitor's E samples.
    std::optional<double> index;
    bool operator==(const DiffractionSettings&) const = default;
};

struct Monitor {
    std::string name;
    MonitorType type = MonitorType::Flux;
    // flux: a line from..to; direction "+x".."-y": positive flux direction
    Vec2 from, to;
    Vec3 center, size;  ///< flux on a plane (3D): JSON `center`, `size` (one zero entry)
    std::string direction = "+x";
    std::string kind = "flux";  ///< flux: transmission|reflection|flux; flux_box: absorption|scattering|flux
    // flux_box, dft_field (optional region)
    std::optional<Vec2> min, max;
    std::optional<double> min_z, max_z;  ///< third entries of `min` / `max` (3D)
    // time
    std::optional<Vec2> at;
    std::optional<double> at_z;  ///< third entry of `at` (3D)
    std::optional<Shape> shape;
    Component component = Component::Ez;
    Reduce reduce = Reduce::Value;
    std::optional<ResonanceSettings> resonances;  ///< time: find the signal's resonances
    std::optional<FarFieldSettings> far_field;    ///< flux_box: project its fields to the far zone
    std::optional<DiffractionSettings> diffraction;  ///< flux written as type "diffraction": Floquet orders
    // dft_field
    std::vector<double> wavelengths;     ///< um
    std::vector<Component> components;
    Json extra = Json::object();
    bool operator==(const Monitor&) const = default;
};

// ---------------------------------------------------------------- domain and run

struct PmlSettings {
    int cells = 16;
    double grading_order = 3;
    double target_reflection = 1e-8;
    Json extra = Json::object();
    bool operator==(const PmlSettings&) const = default;
};

struct Domain {
    int dimensions = 2;
    std::array<double, 3> size{0, 0, 0};  ///< interior size, um
    double cell_size = 0;                 ///< um
    Polarization polarization = Polarization::TMz;
    double slice_z = 0;
    std::array<BoundaryKind, 3> boundaries{BoundaryKind::Pml, BoundaryKind::Pml, BoundaryKind::Pml};
    /// Mirror symmetry through the interior's centre plane per axis (project-format.md
    /// "Symmetry"): 0 none, +1 even (PMC plane), -1 odd (PEC plane); the parity of E taken
    /// as a vector, as Tidy3D's `symmetry` and Meep's mirror_sym phase.
    std::array<int, 3> symmetry{0, 0, 0};
    PmlSettings pml;
    std::string background = "air";
    Json boundaries_extra = Json::object();  ///< unknown members of the `boundaries` object
    /// `boundaries.<axis>: "bloch"` (project-format.md "Bloch-periodic boundaries"): the
    /// axis is periodic (boundaries[a] == Periodic) with the Bloch wave vector below.
    std::array<bool, 3> bloch{false, false, false};
    /// `bloch_k` [kx, ky, kz] in bloch_k_unit; unset: from a plane source's angle_deg (or 0).
    std::optional<std::array<double, 3>> bloch_k;
    /// `bloch_k_unit`: "2pi/a" (k_a in units of 2 pi / L_a, L_a the axis's interior period;
    /// the default) or "1/um" (rad/um).
    std::string bloch_k_unit = "2pi/a";
    /// Axis a is Bloch-periodic: flagged "bloch" and still periodic (an editor that sets
    /// another boundary kind ends it).
    bool is_bloch(int a) const { return bloch[a] && boundaries[a] == BoundaryKind::Periodic; }
    Json extra = Json::object();
    bool operator==(const Domain&) const = default;
};

struct Spectrum {
    double wavelength_min = 1.3, wavelength_max = 1.8;  ///< um
    int points = 101;
    Json extra = Json::object();
    bool operator==(const Spectrum&) const = default;
};

struct StopCriteria {
    double decay_db = 40;
    double max_time_fs = 10000;
    std::optional<long long> max_steps;
    std::optional<std::string> monitor;  ///< decay measured on this time monitor instead of the energy
    /// Also stop when the resonances of every time monitor with `resonances` have
    /// converged (run.hpp, run_project: stop reason "resonances").
    bool resonances = false;
    Json extra = Json::object();
    bool operator==(const StopCriteria&) const = default;
};

struct Normalization {
    bool enabled = false;
    std::vector<std::string> reference_layers;
    std::optional<std::string> incident_monitor;
    Json extra = Json::object();
    bool operator==(const Normalization&) const = default;
};

enum class BackendChoice { Auto, Cuda, Cpu };

/// How cells cut by a metal get their pole strengths when run.subpixel_averaging is on
/// (spec "run.subpixel_metal"; docs/user-guide.md "Metals at cut cells"). A metal here is a
/// dispersive (Lorentz/Drude) material with Re eps < 0 somewhere in the run's band;
/// dispersive materials with Re eps > 0 over the band keep the fill-fraction weighting
/// under every scheme. eps_inf and sigma keep the anisotropic average, except under
/// Staircase.
/// - Tangential (default): per E component and metal, the pole weight is the covered
///   fraction f where the component is tangential to the metal's whole surface (the
///   normal within about 6 degrees of perpendicular to it at every cut cell: Ez in 2D,
///   E along a film), else the staircase value (1 where the metal has the largest
///   fraction of the cell, else 0) at every cut cell (Tidy3D's volumetric averaging with
///   a staircased normal component). Never puts a cut cell's normal field near Re eps = 0.
/// - Staircase: cells cut by a dispersive material take the material of the largest
///   fraction whole (eps_inf, sigma and poles), as Lumerical and Tidy3D's default do.
/// - Fraction: the pole weight is the covered fraction for every component (the
///   arithmetic mean of chi; exact for E parallel to every interface, wrong for the
///   normal component of a metal: kept for shape derivatives and comparison).
/// - Conformal: per E component and metal whose every cut cell lies on a face normal to a
///   grid axis (films, slabs, the flat faces of boxes with their edges on cell
///   boundaries): the full eps(omega) of the metal enters the anisotropic average of the
///   cut cell, 1 / eps_dd(omega) = p <1/eps(omega)> + (1 - p) / <eps(omega)> (p = n_d^2,
///   0 or 1 there: the harmonic mean for the normal component, the arithmetic one for the
///   tangential), realized exactly in the ADE by the cell's own poles
///   (conformal_metal.hpp), where the cell holds one metal and otherwise non-dispersive
///   materials without conductivity. A metal with an oblique cut cell (curved or tilted
///   surfaces), and cut cells with two metals or a conductivity, as Tangential: the
///   diagonal entry alone, without the tensor's frequency-dependent off-diagonal part,
///   makes oblique cut cells resonate (docs/user-guide.md "Metals at cut cells").
enum class SubpixelMetal { Tangential, Staircase, Fraction, Conformal };

struct Frames {
    int every_steps = 20;
    Component component = Component::Ez;
    /// 3D (spec "3D projects"): the slice shown, "xy", "xz" or "yz", at `position` um along
    /// the plane's normal (absent: the domain centre).
    std::string plane = "xy";
    std::optional<double> position;
    Json extra = Json::object();
    bool operator==(const Frames&) const = default;
};

struct RunSettings {
    Spectrum spectrum;
    double courant = 0.5;
    StopCriteria stop;
    Normalization normalization;
    bool subpixel_averaging = true;
    SubpixelMetal subpixel_metal = SubpixelMetal::Tangential;
    Precision precision = Precision::Float32;
    BackendChoice backend = BackendChoice::Auto;
    Frames frames;
    Json extra = Json::object();
    bool operator==(const RunSettings&) const = default;
};

struct Project {
    std::string name;
    Domain domain;
    std::vector<Material> materials;  ///< as in the file; "air" is implicit if absent
    std::vector<Layer> layers;
    std::vector<Source> sources;
    std::vector<Monitor> monitors;
    RunSettings run;
    /// `parameters` (GoLightly 0.3, parameters.hpp), file order; and the numeric fields
    /// given as expression strings over them (their text beside the evaluated value).
    std::vector<Parameter> parameters;
    std::vector<FieldExpression> expressions;
    Json extra = Json::object();
    bool operator==(const Project&) const = default;

    /// The material with this id, including the implicit "air" (eps 1); nullptr if unknown.
    const Material* find_material(const std::string& id) const;
};

// ---------------------------------------------------------------- I/O

/// Parses a project from JSON text. `file_label` names the file in error messages.
/// Fills defaults for absent optional fields and validates (validate_project below).
/// Throws ProjectError naming the file and the JSON path of the offending field.
Project parse_project(const std::string& text, const std::string& file_label);

/// Reads and parses a `.glproj` file. Throws ProjectError (unreadable file, bad JSON, invalid).
Project load_project(const std::filesystem::path& file);

/// The JSON document of a project (known fields, then the kept unknown ones).
Json project_to_json(const Project& project);

/// Writes the project atomically: a temporary file in the same folder, flushed, then
/// renamed over `file`. Throws std::runtime_error naming the file on I/O failure, and
/// before writing anything when the file would be larger than load_project reads
/// (limits::kMaxProjectFileBytes: the message is save_size_problem's); the old file is
/// untouched then. Embedded STEP and GDSII data is written once per distinct file, in
/// the top-level `embedded_files` table that shapes name by `file` (spec "Embedded files").
void save_project(const Project& project, const std::filesystem::path& file);

/// The size in bytes of the file save_project writes for `project`.
std::uint64_t saved_project_bytes(const Project& project);

/// Empty when save_project can write `project` as a file that load_project reads back;
/// otherwise a message giving the size the file would have, the limit, the largest
/// embedded files (with the layers using them) and what to do about it.
std::string save_size_problem(const Project& project);

/// One material object of the file format ("materials" entries), parsed and checked as in
/// parse_project (unknown keys go to `extra`). json_path names the object in errors.
/// Throws ProjectError. Used by the material library (material_library.hpp).
Material material_from_json(const Json& j, const std::string& json_path, const std::string& file_label);
/// The file-format object of a material (as save_project writes it).
Json material_to_json(const Material& m);

/// Checks ranges and cross-references (material ids, monitor names, Courant limit
/// 1/sqrt(dimensions), finite coordinates, ...). Throws ProjectError with the JSON path.
void validate_project(const Project& project, const std::string& file_label);

/// Checks what this build can run, beyond validity: throws ProjectError naming the field
/// for the first feature the 3D CPU path cannot run yet. The list (one place, so that it
/// shrinks as the compiler and engines learn; docs/user-guide.md "3D" repeats it):
///   3D `mur` faces with `run.backend` "cuda" (run.backend: use the CPU backend; the 3D
///   CUDA engine runs the rest, TF/SF included),
///   3D `mode` profiles (sources[i].profile), 3D `region` sources (sources[i].type).
/// TF/SF sources, one-way plane sources (uniform/gaussian with a `direction`), dispersive
/// materials and `mur` boundaries run in 2D and 3D on the CPU. 2D projects pass. The editor opens every valid file
/// (parse_project accepts them); `golightly-cli run` and `check` and the IDE's run
/// checks call this.
void check_runnable(const Project& project, const std::string& file_label);

/// The direction ("+x" .. "-z") a line or plane source injects one way along, or "" for a
/// two-way source: a `mode` profile's `direction`; for `uniform` and `gaussian` profiles
/// the optional `direction` member (GoLightly 0.1, additive), which the reader keeps in
/// `Source::extra` (absent there = two-way). "" for point, region and tfsf sources.
std::string one_way_direction(const Source& source);

// Names as written in the file format ("TMz", "pml", "Ez", ...), both ways.
std::string to_string(Component c);
std::string to_string(Polarization p);
std::string to_string(BoundaryKind b);
std::string to_string(Precision p);
std::string to_string(BackendChoice b);
std::string to_string(SubpixelMetal m);
std::string to_string(ShapeType t);
std::string to_string(PoleKind k);
std::string to_string(WaveformType t);
std::string to_string(SourceType t);
std::string to_string(SourceProfile p);
std::string to_string(MonitorType t);
std::string to_string(Reduce r);

}  // namespace golightly
