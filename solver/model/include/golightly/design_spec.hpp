// GoLightly: the `design` section of a project (docs/spec/project-format.md "Inverse
// design"): the design regions of a topology optimization, its objective and optimizer.
//
// The section is stored in Project::extra["design"] as written in the file, so a load-save
// cycle keeps it (and unknown members inside it) unchanged; design_spec() reads and checks
// it. validate_project calls design_spec (without the cross-references), so a project
// whose `design` is malformed does not load.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "golightly/project.hpp"

namespace golightly {

/// A box of a design region whose pixels are held at a fixed density
/// (`design.regions[i].fixed[k]`): a pixel is fixed when its centre lies in the box
/// (edges included). Typical use: the continuation of a port's waveguide held solid, a
/// border held void.
struct DesignFixedBox {
    Vec3 min, max;    ///< um, inside the region's box; 2D: z entries 0
    double rho = 0;   ///< 0 (the low material) or 1 (the high one)
};

/// One design region: a box with a density grid of square (cubic) pixels, mapped between
/// two non-dispersive materials.
struct DesignRegionSpec {
    std::string name;
    Vec3 min, max;                  ///< um; 2D: z entries 0
    double pixel_um = 0;            ///< pixel edge
    std::array<int, 3> pixels{1, 1, 1};  ///< from the box and pixel_um (nz = 1 in 2D)
    std::array<std::string, 2> materials;  ///< [low (rho = 0), high (rho = 1)] material ids
    /// The start density: a uniform value, a list (x fastest), or a file (CSV or HDF5 as
    /// `optimize --adjoint` writes, relative to the project's folder). Exactly one is set.
    std::optional<double> rho_uniform;
    std::vector<double> rho_values;
    std::string rho_file;
    std::string filter_kind = "conic";  ///< conic | gaussian
    double filter_radius_um = 0;        ///< 0: no filter
    double beta = 8, eta = 0.5, beta_max = 64, beta_factor = 2;
    int beta_every = 20;
    /// projection.kind: "tanh" (default) or "smoothed" (the subpixel-smoothed projection)
    std::string projection_kind = "tanh";
    /// projection.betas: the schedule's betas in order (empty: the geometric schedule of
    /// beta, beta_factor, beta_max); +infinity (written "inf") only last, with "smoothed"
    std::vector<double> betas;
    double min_length_um = 0;  ///< 0: no length scale constraint
    /// min_length_from_beta: the constraints apply from this beta of the schedule on (0: the
    /// last two betas; adjoint_optimize.hpp OptimizerSettings::constraint_beta)
    double min_length_from_beta = 0;
    /// min_length_relax_iterations: the constraints' bound falls from the design's values to
    /// epsilon over this many iterations (0: a hard bound;
    /// OptimizerSettings::constraint_relax_evaluations)
    int min_length_relax_iterations = 0;
    /// robust.eta_dilated / robust.eta_eroded: the thresholds of the dilated and eroded
    /// designs of a robust (three-field) optimization, 0 < eta_dilated < eta < eta_eroded < 1
    /// (adjoint_optimize.hpp OptimizerSettings::robust_etas); both 0: no robust design
    double robust_eta_dilated = 0, robust_eta_eroded = 0;
    /// Boxes of pixels held at 0 or 1 (empty: every pixel is free); see fixed_pixels.
    std::vector<DesignFixedBox> fixed;
    /// The fixed pixels: (index i + nx (j + ny k), x fastest as `rho`, and the density),
    /// sorted by index, each once; where boxes overlap, the later box in `fixed` wins. A
    /// pixel's centre is min + (i + 1/2) pixel_um along each axis.
    std::vector<std::pair<std::size_t, double>> fixed_pixels() const;
    std::size_t pixel_count() const { return std::size_t(pixels[0]) * std::size_t(pixels[1]) * std::size_t(pixels[2]); }
};

/// One term of the objective: the power in a mode of a mode monitor (`monitor` set: a 2D
/// line or a 3D plane, outside the design region), |E_c|^2 at a point (`monitor`,
/// `far_field` empty, s_excite < 0), a 2D far-field intensity (`far_field`), or an S-parameter |S_ij|^2 (`sparameter` set: s_receive = i, s_excite =
/// j, port-mode indices from 0 in the order of the top-level `ports`, then their `modes`,
/// as golightly-cli sparams numbers them from 1).
struct DesignObjectiveTerm {
    std::string monitor;
    std::string sparameter;  ///< as written, e.g. "S21"; empty for other terms
    int s_receive = -1, s_excite = -1;
    /// A far-field term (2D): the name of a flux line or flux_box with `far_field`, whose
    /// radiation intensity U (per radian, as far_field/<name>.csv) in the direction
    /// angle_deg (from +x towards +y) is the value; empty for other terms.
    std::string far_field;
    double angle_deg = 0;
    /// 3D far-field terms (additive): the direction, polar angle from +z and azimuth from
    /// +x towards +y, degrees; the value is U = (|r E_theta|^2 + |r E_phi|^2) / (2 eta0), W/sr
    /// as far_field/<name>.csv's `intensity`
    double theta_deg = 0, phi_deg = 0;
    int mode = 0;            ///< slot in the monitor's `modes`
    bool forward = true;     ///< "forward" (the monitor's direction) or "backward"
    Vec3 point;              ///< point term, um
    Component component = Component::Ez;
    double weight = 1;
};

struct DesignObjective {
    std::vector<DesignObjectiveTerm> terms;
    std::vector<double> wavelengths_um;  ///< empty: the spectrum's centre
    std::string normalize_by;            ///< a mode monitor; empty: no normalization
    bool maximize = true;
    /// How the wavelengths combine: "mean" (the mean over them) or "min" (the worst one:
    /// its minimum when maximizing, its maximum when minimizing; the epigraph form, mma or
    /// ccsa only).
    std::string combine = "mean";
    /// combine "expression": a muparser expression of F0, F1, ... (F_k: the weighted sum of
    /// the terms at wavelengths_um[k], in the list's order; one wavelength, F0, without the
    /// list), e.g. "avg(F0, F1, F2) - 0.5 * abs(F0 - F2)"
    std::string expression;
};

/// A shape parameter (`design.shape_parameters[k]`): a project parameter (top-level
/// `parameters`) whose value the adjoint optimizer moves within [min, max]; its current
/// value is the start (adjoint_shape.hpp).
struct DesignShapeParameter {
    std::string name;
    double min = 0, max = 0;
    /// The half step of the central difference of the compiled permittivity, d eps / d p
    /// (parameter units; 0: 1e-4 (max - min), adjoint_shape.hpp).
    double step = 0;
};

struct DesignSpec {
    /// Density regions; empty in a design of shape parameters (one kind per design).
    std::vector<DesignRegionSpec> regions;
    /// Shape parameters; empty in a density design.
    std::vector<DesignShapeParameter> shape_parameters;
    DesignObjective objective;
    std::string algorithm = "mma";  ///< mma | ccsa | lbfgs
    int max_iterations = 50;
};

/// The design section of `project` (Project::extra["design"]), checked (types, ranges, a
/// whole number of pixels) and, with `check_references`, against the rest of the project
/// (material ids and their dispersion, monitor names, kinds and mode slots, mode monitors
/// (and normalize_by) whose line or plane does not pass through the design region, the box
/// inside the domain, point components for the polarization, S-parameter terms' port-modes
/// against the top-level `ports` and ports outside the design region, far-field terms'
/// monitors); nullopt when the project has
/// none. A design has either `regions` (density) or `shape_parameters` (each naming a
/// project parameter, min < max, the parameter's value within them: checked with the
/// references), not both.
/// Throws ProjectError naming `file_label` and the JSON path (e.g.
/// "design.regions[0].pixel_um").
/// validate_project checks the section without its references: an edit elsewhere (a
/// monitor deleted or renamed in the IDE, which does not edit the design section yet) must
/// not make the file unreadable; `optimize --adjoint` checks them.
std::optional<DesignSpec> design_spec(const Project& project, const std::string& file_label,
                                      bool check_references = true);

}  // namespace golightly
