// GoLightly: figures of merit read from a finished run's results folder (issue 53 item 2;
// spec/cli.md "Objectives"; project-format.md "Outputs of a run").
//
// An objective is a muparser expression (parameters.hpp evaluate_expression) in which
// every quantity a run writes is a function of the vacuum wavelength in um, linearly
// interpolated between the recorded wavelengths:
//   M(wl)                    flux / flux_box monitor M: the spectra.csv column (normalized
//                            when normalization ran), as `optimize` always read it
//   M_flux(wl)               the raw flux column M_flux
//   M_m<k>_fwd_power(wl)     mode monitor M, mode k: |a_fwd|^2 (the power in the mode,
//   M_m<k>_bwd_power(wl)     in units of the incident power when normalized); likewise
//   M_m<k>_fwd_re|_im|_phase _re, _im and _phase (rad) of the amplitude, M_m<k>_neff
//   S21(wl)                  |S_21|^2 from sparams.csv (S<i>_<j> above 9 port-modes);
//   S21_abs|_phase|_re|_im|_dB  |S|, arg S (rad), Re, Im, 10 log10 |S|^2
//   M_intensity(wl)          dft_field monitor M: |E|^2 (the sum over its components) at
//                            the centre of its region (a monitor with min = max is a point)
//   M_intensity_mean(wl)     the mean of |E|^2 over the monitor's samples
//   M_U_<t>_<p>(wl)          far field of monitor M: the radiation intensity U at theta = t,
//   M_D_<t>_<p>(wl)          phi = p (whole degrees), and the directivity D there
// and it may be combined over a list of wavelengths:
//   mean(EXPR, wl=1.5:1.6:11)   the mean of EXPR over the wavelengths (wl the variable)
//   sum(EXPR, wl=1.53,1.55)     the sum
//   min(EXPR, wl=...)           the worst case (maximizing); max(EXPR, wl=...) (minimizing)
// A gradient-based optimizer treats min/max by the epigraph form: maximize t subject to
// t <= f_k for every wavelength k (t >= f_k for max), f_k the expression at wavelength k;
// evaluate_objective returns every f_k and the derivatives of each so that it can.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "golightly/project.hpp"

namespace golightly {

/// What an objective function reads.
enum class ObjectiveQuantity {
    Flux,          ///< spectra.csv <monitor> (normalized, or raw when not normalized)
    FluxRaw,       ///< spectra.csv <monitor>_flux
    ModePower,     ///< |a|^2 of a mode monitor's amplitude
    ModeRe,
    ModeIm,
    ModePhase,     ///< arg a, rad
    ModeNeff,      ///< the mode's effective index
    SPower,        ///< |S_ij|^2
    SAbs,          ///< |S_ij|
    SPhase,        ///< arg S_ij, rad
    SRe,
    SIm,
    SdB,           ///< 10 log10 |S_ij|^2
    Intensity,     ///< dft_field: |E|^2 at a point (the region's centre)
    IntensityMean, ///< dft_field: mean |E|^2 over the region
    FarFieldU,     ///< far field: radiation intensity at (theta, phi)
    FarFieldD,     ///< far field: directivity at (theta, phi)
};

/// One function of the wavelength an objective may call.
struct ObjectiveFunction {
    std::string name;          ///< as written in the expression, e.g. "out_m0_fwd_power"
    ObjectiveQuantity quantity = ObjectiveQuantity::Flux;
    std::string monitor;       ///< the monitor's name; S-parameters: "S21" (the sparams.csv stem)
    int mode = 0;              ///< mode monitors: the mode index k
    bool forward = true;       ///< mode monitors: fwd (along `direction`) or bwd
    int receive = 0, excite = 0;  ///< S-parameters: i and j, 1-based port-mode numbers
    double theta_deg = 0, phi_deg = 0;  ///< far field
    /// dft_field Intensity: the point (um; z only in 3D) when `at_point`, else the centre of
    /// the recorded region.
    bool at_point = false;
    double x_um = 0, y_um = 0, z_um = 0;
    bool operator==(const ObjectiveFunction&) const = default;
};

/// The functions `expression` may call for `project`: every flux / flux_box monitor, mode
/// monitor mode, port-mode pair (the top-level `ports`), dft_field monitor, and the far
/// field names the expression itself uses (M_U_<t>_<p>, M_D_<t>_<p> of a monitor with
/// `far_field`). Only names that are valid parameter names are listed; when two
/// objects give the same name, the first (in the order above) keeps it.
std::vector<ObjectiveFunction> objective_functions(const Project& project, const std::string& expression = {},
                                                   const std::string& file_label = {});

/// A parsed objective (spec/cli.md "Objectives").
struct ObjectiveSpec {
    enum class Combine { None, Mean, Sum, Min, Max };
    std::string text;                 ///< as given
    std::string expression;           ///< the muparser expression (of `variable` when combined)
    Combine combine = Combine::None;
    std::string variable;             ///< the wavelength variable ("wl") of a combined form
    std::vector<double> wavelengths_um;  ///< the combined form's wavelengths, as listed
};

/// Parses "EXPR" or "mean|sum|min|max(EXPR, NAME=WAVELENGTHS)", WAVELENGTHS as a sweep's
/// --param values (LO:HI:N or V1,V2,..., units and `variables` allowed). Throws
/// std::invalid_argument quoting the objective: an empty expression, a wavelength <= 0,
/// a variable NAME that is a project parameter.
ObjectiveSpec parse_objective(const std::string& text, const std::vector<std::pair<std::string, double>>& variables = {});

/// One quantity the objective read, with its derivatives.
struct ObjectiveTerm {
    ObjectiveFunction function;
    double wavelength_um = 0;
    double value = 0;
    /// Combined forms: the index k of the wavelength whose f_k read it (a quantity read by
    /// several f_k is one term per k); -1 for a plain expression.
    int wavelength_index = -1;
    double local_derivative = 0;  ///< d f_k / d term (plain expression: d objective / d term)
    double derivative = 0;        ///< d objective / d term (min/max: 0 unless k is the active one)
};

struct ObjectiveEvaluation {
    double value = 0;
    std::vector<double> per_wavelength;  ///< combined forms: f_k per wavelength of the spec
    int active = -1;                     ///< min/max: the k giving the value
    std::vector<ObjectiveTerm> terms;    ///< in the order first read
};

/// Reads the quantities of one results folder (lazily, each file once).
class ObjectiveResults {
public:
    explicit ObjectiveResults(std::filesystem::path dir);
    ~ObjectiveResults();
    ObjectiveResults(const ObjectiveResults&) = delete;
    ObjectiveResults& operator=(const ObjectiveResults&) = delete;
    /// The function's value at `wavelength_um`. Throws std::invalid_argument naming the
    /// function and the wavelength when it lies outside the recorded ones (and the range
    /// recorded), std::runtime_error naming the file when it is missing or malformed.
    double read(const ObjectiveFunction& function, double wavelength_um);
    const std::filesystem::path& dir() const { return dir_; }

private:
    struct Cache;
    std::filesystem::path dir_;
    std::unique_ptr<Cache> cache_;
};

/// Evaluates `spec` over `results` (the variables: the design's parameters). With
/// `derivatives` each term's d objective / d term is found by central differences of the
/// expression (relative step 1e-6 of the term's value), exact up to rounding for
/// expressions linear or quadratic in each term. Throws std::invalid_argument (the
/// expression's problem, a wavelength outside the results), std::runtime_error (I/O).
ObjectiveEvaluation evaluate_objective(const ObjectiveSpec& spec, const std::vector<ObjectiveFunction>& functions,
                                       ObjectiveResults& results,
                                       const std::vector<std::pair<std::string, double>>& variables,
                                       bool derivatives = true);

/// The terms `spec` reads (function, wavelength, and for combined forms the index k),
/// found before any run by evaluating it on placeholder values (0.5), so that a run can
/// record what the objective needs (e.g. the adjoint's DFT wavelengths and monitors).
/// A branch of `c ? a : b` that the placeholders do not take is not seen. Values and
/// derivatives are left 0. Throws as check_objective.
std::vector<ObjectiveTerm> objective_terms(const ObjectiveSpec& spec, const std::vector<ObjectiveFunction>& functions,
                                           const Project& project,
                                           const std::vector<std::pair<std::string, double>>& variables);

/// Checks `spec` before any run: syntax, unknown names (the message lists the functions
/// of `functions`), and that every flux and mode term's wavelength lies in the project's
/// spectrum. Throws std::invalid_argument quoting the objective.
void check_objective(const ObjectiveSpec& spec, const std::vector<ObjectiveFunction>& functions, const Project& project,
                     const std::vector<std::pair<std::string, double>>& variables);

}  // namespace golightly
