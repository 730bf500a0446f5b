// GoLightly compiler internals shared by the 2D compiler (compile_project.cpp) and the 3D
// compiler (compile_3d.cpp). Not installed; only the compile target sees it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/grid.hpp"
#include "golightly/project.hpp"
#include "golightly/scene.hpp"

namespace golightly::detail {

/// Short decimal form of v for messages.
std::string fmt(double v);
/// "what[i]".
std::string idx_path(const char* what, std::size_t i);

/// Parses "+x", "-x", "+y", "-y" (and "+z", "-z" when allow_z) -> (axis, sign); axis -1
/// when invalid.
std::pair<int, int> parse_direction(const std::string& d, bool allow_z = false);

/// The waveform of a source (CompiledWaveform: omega in rad/s, times in s; gaussian pulse
/// tau from the span: spectral amplitude 1/e at the span's ends, t0 = 6 tau). Throws
/// ProjectError (file, path.waveform...) for a centre wavelength or span out of range.
CompiledWaveform compile_waveform(const Source& s, const std::string& path, const std::string& file);

/// The run spectrum (Hz), uniform in frequency between the spectrum's wavelengths,
/// increasing.
std::vector<double> compile_spectrum(const Project& project);

/// The frequencies (Hz) of a dft_field monitor's wavelengths (um), in their order. Throws
/// ProjectError naming path.wavelengths[k] for a wavelength <= 0, path.wavelengths when
/// there is none.
std::vector<double> dft_field_frequencies(const Monitor& m, const std::string& path, const std::string& file);

/// The DftSet of a dft_field monitor's component c: one sample per node of `box` (cells,
/// half-open; 2D: k in [0, 1)), in flat-index order of `grid` (x fastest), weight 1 and no
/// second cell; frequencies in Hz.
DftSet box_dft_set(const Grid& grid, const CellBox& box, Component c, const std::vector<double>& frequencies_hz);

/// One sample of a flux line (2D) or plane (3D): the tangential E at `e_cell` with weight
/// `w` (the node's covered fraction) into `es`, and H~ averaged (0.5 each) over `h_lo` and
/// `h_hi`, the h positions either side of the E node along the normal, into `hs`.
void add_flux_sample(DftSet& es, DftSet& hs, CellIndex e_cell, double w, CellIndex h_lo, CellIndex h_hi);

/// TF/SF source (2D and 3D; scene.hpp "TF/SF"): box min/max (um; z ignored in 2D) to the
/// inclusive integer positions of the total-field region (nearest e positions), direction
/// (+x .. -z, propagation) and the E polarization `component` (normal to the direction; in
/// 2D a component of the polarization). Checks the engine's requirements (one cell of
/// margin inside the grid and outside the PML on every axis not spanned periodically).
/// Throws ProjectError naming sources[i].min / .max / .direction / .component.
TfsfSource compile_tfsf(const Project& project, const Source& src, const std::string& path,
                        const std::string& file, const Scene& scene, const Grid& grid, const CompiledWaveform& wf);

/// The end of compiling, shared by 2D and 3D: the step limit (run.stop), the memory
/// estimate (engine_state_bytes; ProjectError naming the largest part when it exceeds the
/// machine's memory) and the resolution warning (cells per wavelength at the shortest
/// wavelength in the highest index).
void finish_compile(const Project& project, const std::string& file, CompiledProject& out);

/// Warnings for flux boxes that do not sit where their kind needs them when the project has
/// a tfsf source: a `scattering` box must enclose the total-field box (its faces in the
/// scattered-field region), an `absorption` box must lie inside it (total field). Boxes in
/// um; 2D compares x and y, 3D x, y and z (axes the tfsf box spans periodically skipped).
void warn_tfsf_flux_boxes(const Project& project, CompiledProject& out);

/// compile_project() for domain.dimensions == 3 (compile_3d.cpp).
CompiledProject compile_project_3d(const Project& project, const std::string& file, const CompileOptions& options);

}  // namespace golightly::detail
