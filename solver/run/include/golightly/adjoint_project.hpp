// GoLightly: a project's `design` section (design_spec.hpp) as an adjoint optimization
// problem (adjoint.hpp, adjoint_optimize.hpp), the density files of `golightly-cli optimize
// --adjoint` and the final design as plain shapes (docs/spec/cli.md "optimize --adjoint").
//
// The problem: the project compiled with its spectrum set to the objective's wavelengths
// (one wavelength: that one; several: run.spectrum from the shortest to the longest with as
// many points, each term read at the nearest point), the monitors the objective does not
// name dropped. The design region's box and pixel edge give the density grid, the two
// materials' epsilon_inf give eps_min and eps_max, their conductivity and poles (for the
// compiled time step) medium_min and medium_max (adjoint.hpp DesignMedium). The value at
// wavelength f is
//     F_f = sum_t w_t |a_t(f)|^2 / N(f)          (Problem::per_frequency)
// (a 3D far-field term is two functionals, r E_theta and r E_phi, each |a|^2 with w_t)
// and the figure of merit combines them (design.objective.combine): "mean" (default)
//     F = (1 / N_w) sum_f F_f,
// or "min", the worst wavelength: F = min_f F_f (max_f F_f for goal minimize), which the
// optimizer takes in the epigraph form (settings.epigraph; adjoint_optimize.hpp).
// a_t is the forward or backward amplitude of a mode of a mode monitor (a 2D line: |a|^2
// in W/m; a 3D plane: |a|^2 in W; adjoint.hpp mode_functional) or the E component at a point, and N(f) = |a_in(f)|^2 the forward power in mode 0 of
// the `normalize_by` monitor for the start density (one forward run; 1 without it, and
// for point terms), so that a mode term is a transmission. An S-parameter term
// (design_spec.hpp DesignObjectiveTerm::sparameter, |S_ij|^2) is a mode term of the run of
// port-mode j as golightly-cli sparams makes it (sparams.hpp port_mode_project, which then
// replaces the project's sources and monitors): the backward amplitude of port-mode i's
// slot in the monitor "port_<name>" of port i, with N(f) the forward power of port-mode
// j's slot at port j's monitor, taken for the start design as normalize_by's. A far-field
// term (2D; DesignObjectiveTerm::far_field) is sqrt(rho) E_far(phi) / sqrt(2 eta0) of a
// flux line's or flux_box's far field (far_field.hpp), a linear functional of the
// monitor's DFT samples with the projection's kernel as weights, |a|^2 the intensity U per
// radian; like point terms it is not normalized.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "golightly/adjoint.hpp"
#include "golightly/adjoint_optimize.hpp"
#include "golightly/design_spec.hpp"

namespace golightly::adjoint {

struct ProjectProblem {
    Problem problem;
    DesignSpec spec;
    int dimensions = 2;
    std::vector<double> rho0;             ///< the start density (region.pixels() values)
    OptimizerSettings settings;           ///< mapping, schedule, algorithm, goal; no checkpoint
    std::vector<double> wavelengths_um;   ///< where the terms are read (the spectrum points used)
    std::vector<double> normalization;    ///< N(f) per wavelength (1 without normalize_by)
    std::vector<std::string> warnings;    ///< from the compile
};

struct ProjectProblemOptions {
    std::optional<BackendChoice> backend;    ///< unset: run.backend
    std::optional<Precision> precision;      ///< unset: run.precision
    /// Unset: the project's run.devices (auto when absent; a bad value is a ProjectError
    /// naming run.devices). RunSettings::devices of every run (the normalization run too).
    std::optional<DeviceSelection> devices;
    int threads = 0;
    /// Run the normalization's forward run now (normalize_by); false leaves N(f) = 1.
    bool normalize = true;
    /// The cancel flag of the runs (RunSettings::cancel): the normalization run checks it
    /// before each chunk of steps, and the problem's runs get it too
    /// (ProjectProblem::problem.settings.cancel), so that one flag stops the whole
    /// optimization. Null: no cancelling.
    const std::atomic<bool>* cancel = nullptr;
    /// RunSettings::on_progress of the normalization run and of the problem's runs (the
    /// normalization run reports as "normalization"). Null: not called.
    std::function<void(const char* run, long long steps)> on_progress;
    /// RunSettings::engine_factory of the normalization run and of the problem's runs (e.g.
    /// one subdomain per MPI rank under `mpirun golightly-cli optimize --adjoint`,
    /// golightly/mpi.hpp make_rank_engine). Null: make_engine() with the settings above.
    std::function<std::unique_ptr<Engine>(const Scene& scene, const char* run)> engine_factory;
};

/// The problem of `project`'s design section (a density region; a design of shape
/// parameters is refused with a ProjectError at "design.shape_parameters": shape_problem_at). `project_dir`: where a `rho` file name is
/// looked up. Throws ProjectError (no design section, a bad field, an unreadable density
/// file, a mode term's or normalize_by's monitor that guides no such mode at one of the
/// wavelengths: naming file_label and the JSON path), std::invalid_argument (adjoint.hpp's
/// refusals of the design region), RunError (the normalization run). A mode monitor whose
/// E samples sit on sub-pixel tensor-coupled sites adds a line to `warnings` (the gradient
/// is approximate there: adjoint.hpp mode_functional, 3D caveat). Throws Cancelled (its
/// `run` "normalization", `steps` the steps that run had made) when options.cancel is set
/// during the normalization run: the optimization ends cancelled before its first
/// iteration, as optimize_density's stop "cancelled" after one.
ProjectProblem problem_from_project(const Project& project, const std::string& file_label,
                                    const std::filesystem::path& project_dir, const ProjectProblemOptions& options = {});

/// The problem of a design of shape parameters (`design.shape_parameters`, no density
/// region; adjoint_shape.hpp) at the project's current parameter values: as
/// problem_from_project with region, rho0 and the density settings unused (the optimizer
/// settings algorithm, maximize and max_iterations set); the normalization run (at these
/// values) only when `normalization` is empty, else N(f) = normalization[f] (one per
/// objective wavelength). Throws as problem_from_project, and ProjectError
/// ("design.regions") for a density design.
ProjectProblem shape_problem_at(const Project& project, const std::string& file_label,
                                const std::filesystem::path& project_dir, const ProjectProblemOptions& options,
                                const std::vector<double>& normalization = {});

/// Densities as `optimize --adjoint` writes them: `rho` and `rho_projected`, x fastest.
/// CSV: a comment line "# golightly density nx=.. ny=.. nz=.. pixel_um=.. origin_um=x,y,z",
/// the header "i,j,k,rho,rho_projected" and one row per pixel. Written atomically.
void write_density_csv(const std::filesystem::path& file, const DesignRegion& region, double pixel_um,
                       const std::vector<double>& rho, const std::vector<double>& rho_projected);
/// HDF5: datasets /rho and /rho_projected of shape [nz][ny][nx] (float64) with the
/// attributes pixel_um and origin_um. Returns false (nothing written) without HDF5 support.
bool write_density_h5(const std::filesystem::path& file, const DesignRegion& region, double pixel_um,
                      const std::vector<double>& rho, const std::vector<double>& rho_projected);
/// `rho` of a density file (.csv or .h5, as written above) of `pixels` values. Throws
/// std::runtime_error naming the file (unreadable, wrong count, values outside [0, 1]).
std::vector<double> read_density_file(const std::filesystem::path& file, std::size_t pixels);

/// The loops of a 2D design at beta = infinity, in project coordinates (um): the level eta
/// of the filtered density rho~ = filter(rho) (pp.settings.mapping's filter and eta;
/// design_density.hpp density_contours at that level), which is what both projections make
/// at beta = infinity, with the interfaces placed between the pixels (the contours of the
/// thresholded density at 1/2 put them on pixel midpoints: at 40 nm pixels the converter's
/// shapes then lost up to 0.7 dB against its density). `rho`: the design variables
/// (region.pixels() values, x fastest, in [0, 1]), not the projected density.
std::vector<design::ContourLoop> design_contours(const ProjectProblem& pp, const std::vector<double>& rho);

/// The loops as simple GDS boundaries: each hole cut into the outer loop around it (the
/// smallest that contains it) by a keyhole: a slit from the hole's rightmost vertex along
/// +x to the nearest edge of that outer loop (holes taken rightmost first, each slit ending
/// on the loop with the holes merged so far, so that no slit crosses another hole), the
/// slit walked there and back. Outer loops keep their counter-clockwise order; the signed
/// area of each polygon is its outer loop's plus its holes' (negative). A hole that no
/// outer loop contains (not produced by density_contours) is dropped.
std::vector<std::vector<Vec2>> keyhole_polygons(const std::vector<design::ContourLoop>& loops);

/// A 2D design as a GDSII stream (what `optimize --adjoint` writes as final.gds and the
/// IDE exports): the loops of design_contours as boundaries in one cell (the project's name,
/// or "design"), on the GDS layer/datatype of the first layer of the high material that
/// has one, else 1/0; holes cut in by keyhole_polygons, or, where the writer cannot take
/// such a polygon (over its vertex limit), every loop as its own boundary with the holes on
/// datatype + 1 (subtract them from the solid).
struct DesignGds {
    std::vector<std::uint8_t> bytes;
    std::array<int, 2> layer{1, 0};   ///< layer, datatype of the solid
    std::size_t polygons = 0;         ///< boundaries on `layer`
    std::size_t holes = 0;            ///< holes among the loops
    bool holes_separate = false;      ///< the holes are on datatype + 1, not cut in
};
/// Throws what design_contours and the GDS writer throw (std::invalid_argument: a 3D design).
DesignGds design_gds(const Project& project, const ProjectProblem& pp, const std::vector<double>& rho);

/// `project` with the design section removed and the design region replaced by plain
/// shapes, as three layers appended on top: "<region>" filled with the low material (a
/// rectangle over the box), "<region>_solid" (the high material: the outer loops as
/// polygons) and, when there are holes, "<region>_holes" (the low material: the holes as
/// polygons); "<region>" gets a suffix " 2", " 3", ... where the project has a layer of one
/// of these names. 2D only: throws std::invalid_argument for a 3D project.
Project project_with_design_shapes(const Project& project, const ProjectProblem& pp, const std::vector<double>& rho);

}  // namespace golightly::adjoint
