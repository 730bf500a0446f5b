// GoLightly: measured optical constants (refractiveindex.info CSV exports) and a passive
// multi-pole Lorentz/Drude fit of them, for the material editor and `golightly-cli`.
//
// Model (dispersion.hpp, B-CALM, Wahl et al., PIER 138 (2013), eq. 1), time convention
// exp(-i w t), so a lossy medium has Im eps > 0 and k >= 0:
//   eps(w) = eps_inf + sum_m omega_p,m^2 / (omega_0,m^2 - w^2 - i w gamma_m),
// omega_0 = 0 for the Drude pole. Units: wavelengths in um, angular frequencies in rad/s.
// Qt-free.
#pragma once

#include <complex>
#include <filesystem>
#include <string>
#include <vector>

#include "golightly/project.hpp"

namespace golightly {

/// One measured point: vacuum wavelength (um), refractive index n and extinction k
/// (k = 0 when the file gives none).
struct OpticalSample {
    double wavelength_um = 0;
    double n = 1;
    double k = 0;
};

/// The content of one optical-constants file, sorted by increasing wavelength.
struct OpticalData {
    std::vector<OpticalSample> samples;
    bool has_k = false;  ///< the file has a k column or a k block
};

/// Parses a refractiveindex.info CSV export. Accepted layouts (comma, semicolon, tab or
/// blank separated; blank lines and lines starting with '#' ignored; quotes stripped):
///   (a) one table: header "wl,n,k" (or "wl,n") then rows "wavelength_um,n[,k]";
///       a file whose first line is numeric is read as this table without header;
///   (b) two blocks: header "wl,n", rows "wavelength_um,n", then header "wl,k", rows
///       "wavelength_um,k". k is interpolated linearly onto the n wavelengths (samples
///       outside the k block's range are dropped).
/// `file_label` names the file in errors. Throws ProjectError(file_label, "line N", ...)
/// for a row that is not numbers, has the wrong column count, a wavelength <= 0 or
/// k < 0, for a header without an n column, and for a file without data.
OpticalData parse_refractive_index_csv(const std::string& text, const std::string& file_label);

/// Reads `file` and parses it (parse_refractive_index_csv). Throws ProjectError when the
/// file cannot be read or does not parse.
OpticalData read_refractive_index_csv(const std::filesystem::path& file);

/// eps = (n + i k)^2 = n^2 - k^2 + 2 i n k (exp(-i w t): k >= 0 is loss, Im eps >= 0).
std::complex<double> epsilon_from_nk(double n, double k);
/// The root n + i k = sqrt(eps) with n >= 0 (principal branch; k >= 0 when Im eps >= 0).
std::complex<double> nk_from_epsilon(std::complex<double> eps);

/// eps(w) of eps_inf, conductivity and poles (analytic_epsilon of dispersion.hpp on a
/// temporary Material). omega_rad_s > 0.
std::complex<double> model_epsilon(double epsilon_inf, double sigma_s_per_m, const std::vector<Pole>& poles,
                                   double omega_rad_s);

/// Angular frequency (rad/s) of a vacuum wavelength (um): 2 pi c0 / lambda.
double wavelength_um_to_omega(double wavelength_um);

struct PoleFitOptions {
    int poles = 3;              ///< total number of poles, >= 1
    bool drude = true;          ///< one of them is a Drude pole (omega_0 = 0)
    double wavelength_min_um = 0;  ///< band; 0/0 = all samples
    double wavelength_max_um = 0;
    int starts = 24;            ///< multi-start initial guesses (deterministic)
    int max_iterations = 400;   ///< Levenberg-Marquardt iterations per start
};

struct PoleFitResult {
    double epsilon_inf = 1;
    std::vector<Pole> poles;          ///< rad/s; Drude first when requested
    /// sqrt( (1/N) sum_i |eps_fit(w_i) - eps_i|^2 / |eps_i|^2 ) over the N samples in the band.
    double rms_relative_error = 0;
    /// max_i |eps_fit(w_i) - eps_i| / |eps_i|.
    double max_relative_error = 0;
    int samples_used = 0;
};

/// Fits eps_inf and `options.poles` poles to the samples inside the band by least squares
/// on the relative complex error (eps_fit - eps_i) / |eps_i| (real and imaginary parts),
/// with a small Levenberg-Marquardt solver (Marquardt 1963; Madsen, Nielsen & Tingleff,
/// "Methods for non-linear least squares problems", 2004, alg. 3.16) from `starts`
/// initial guesses spread log-uniformly over (and around) the band; the best is returned.
/// Passive by construction: the parameters are eps_inf = 1 + a^2, omega_p^2 = b^2,
/// omega_0^2 = c^2, gamma = d^2, so eps_inf >= 1 (keeps the vacuum Courant limit valid,
/// dispersion.hpp amplification_factor), omega_p^2 >= 0 and gamma >= 0, hence
/// Im eps(w) >= 0 for every w > 0. Throws ProjectError("pole fit", "", ...) when fewer
/// samples than parameters lie in the band or the options are invalid.
PoleFitResult fit_poles(const std::vector<OpticalSample>& samples, const PoleFitOptions& options);

/// A project-format material of a fit result (conductivity 0, mu_r 1).
Material material_from_fit(const PoleFitResult& fit, const std::string& id, const std::string& name);

}  // namespace golightly
