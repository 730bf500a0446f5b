// Physical constants (SI) and unit conversions used across the solver.
#pragma once

namespace golightly::units {

inline constexpr double c0 = 299792458.0;               ///< speed of light, m/s
inline constexpr double mu0 = 1.25663706212e-6;         ///< vacuum permeability, H/m
inline constexpr double eps0 = 1.0 / (mu0 * c0 * c0);   ///< vacuum permittivity, F/m
inline constexpr double eta0 = mu0 * c0;                ///< vacuum impedance, ohm
inline constexpr double pi = 3.14159265358979323846;
inline constexpr double um = 1e-6;                      ///< metres per micrometre
inline constexpr double fs = 1e-15;                     ///< seconds per femtosecond

/// Vacuum wavelength (um) to frequency (Hz).
inline constexpr double wavelength_um_to_hz(double wl_um) { return c0 / (wl_um * um); }
/// Frequency (Hz) to vacuum wavelength (um).
inline constexpr double hz_to_wavelength_um(double f_hz) { return c0 / f_hz / um; }

}  // namespace golightly::units
