// GoLightly compiler internals shared by the 2D compiler (compile_project.cpp) and the 3D
// compiler (compile_3d.cpp). Not installed; only the compile target sees it.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/geometry.hpp"
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

/// Whether a material of `used` (material ids) has Lorentz/Drude poles.
bool any_dispersive(const Project& project, const std::set<std::string>& used);

/// The dispersive cells of a scene (scene.hpp "Dispersive cells"), shared by the 2D and 3D
/// compilers (top of compile_project.cpp, "Dispersive materials"): pole sets (one per
/// dispersive material, one per distinct mixture), each E sample's pole set and weight
/// from its coverage fractions, the cell lists, and the checks (warnings).
/// Use: classify() the coverage of each E component's samples, add_cell() every grid
/// cell that takes a dispersive sample, then add_warnings().
class DispersionBuilder {
public:
    /// `scene` must have dt_s and courant set; its pole_sets grow here. subpixel: the run's
    /// sub-pixel averaging (false: the material with the largest fraction takes the cell).
    DispersionBuilder(const Project& project, Scene& scene, bool subpixel)
        : project_(project), scene_(scene), subpixel_(subpixel) {}

    /// Per sample (the flat index of the Coverage arrays, 2D or 3D): the pole set (index
    /// into Scene::pole_sets, -1 for a non-dispersive sample), the weight, and the label
    /// of its dispersive material(s) (index into labels(): "au", or "au+ag" for a mixture).
    struct SampleSets {
        std::vector<int> set;
        std::vector<double> weight;
        std::vector<int> label;
    };
    /// One dispersive material in a sample: its own pole set, weight = its fraction (capped
    /// at 1); several: a pole set of the union of their poles with c3 scaled by each
    /// fraction, weight 1; fractions below 1e-7 are dropped. Staircase: the material of
    /// the largest fraction, weight 1. Throws RunError beyond 65535 pole sets.
    SampleSets classify(const Coverage& cov);

    /// Appends grid cell `cell` of E component `component` (0..2), which takes sample
    /// `sample` of `sets` (nothing when that sample is not dispersive); eps_inf_cell is
    /// the cell's averaged (table) eps_inf (for the stability check), in_pml whether the
    /// cell lies in a PML slab (for the PML warning).
    void add_cell(int component, std::int32_t cell, const SampleSets& sets, std::size_t sample, double eps_inf_cell,
                  bool in_pml) {
        const int set = sets.set[sample];
        if (set < 0) return;
        DispersiveCells& d = scene_.dispersive[component];
        d.cells.push_back(cell);
        d.pole_set.push_back(static_cast<std::uint16_t>(set));
        d.weight.push_back(sets.weight[sample]);
        const int lab = sets.label[sample];
        auto& e = min_eps_inf_[static_cast<std::size_t>(lab)];
        e = std::min(e, eps_inf_cell);
        if (in_pml) in_pml_.insert(lab);
    }

    /// The checks, as warnings: per dispersive material omega_0 dt >= 2 (unstable) or > 1
    /// (poorly resolved), and the amplification factor of the discrete update
    /// (dispersion.hpp amplification_factor on a `dimensions`-D grid at the scene's Courant
    /// number) with the material's eps_inf and conductivity and with eps_inf lowered to
    /// the smallest averaged eps_inf of its cells ("UNSTABLE", naming the material);
    /// dispersive materials reaching into the PML.
    void add_warnings(std::vector<std::string>& warnings, int dimensions) const;

    const std::vector<std::string>& labels() const { return labels_; }

private:
    const Project& project_;
    Scene& scene_;
    bool subpixel_;
    std::map<std::string, std::uint16_t> pure_set_;          ///< material id -> pole set
    std::map<std::vector<double>, std::uint16_t> mixed_set_;  ///< (c1, c2, c3)... -> pole set
    std::vector<std::string> labels_;
    std::map<std::string, int> label_of_;
    std::vector<double> min_eps_inf_;  ///< per label
    std::set<int> in_pml_;             ///< labels

    std::uint16_t add_set(PoleSet ps);
    std::uint16_t material_set(const Material& m);
    int label(const std::string& l);
};

/// compile_project() for domain.dimensions == 3 (compile_3d.cpp).
CompiledProject compile_project_3d(const Project& project, const std::string& file, const CompileOptions& options);

}  // namespace golightly::detail
