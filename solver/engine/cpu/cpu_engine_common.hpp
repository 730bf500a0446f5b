// GoLightly CPU engines: what the engine classes of 2D (engine_cpu.cpp) and 3D
// (engine_cpu3d.cpp) share, written once: the thread count, team and device name, the CPML
// profile arrays of one axis, the extension set of a scene and its live-edit follow-up, the
// field copies of get_field / set_field and the field energy. Private to the solver
// library. (The row kernels and their sweeps stay per dimension: they are the hot loops,
// cpu_kernels*.inl.)
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cpu_common.hpp"
#include "cpu_extensions.hpp"
#include "cpu_team.hpp"
#include "cpu_tfsf.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"

namespace golightly::cpu {

/// The threads an engine made with `threads` runs on (0: one per core).
inline int engine_threads(int threads) {
    return threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
}

/// The engine's team (resolved: engine_threads(threads)). With the automatic thread count
/// (`threads` 0) grids of fewer than 2^18 cells run on one thread: waking the team costs more
/// than the work. An explicit count is honoured. At most `rows` members (the sweeps split
/// rows in 2D, z planes in 3D).
inline std::unique_ptr<Team> engine_team(int threads, int resolved, std::size_t cells, long long rows) {
    const bool parallel = resolved > 1 && (threads > 0 || cells >= (std::size_t(1) << 18));
    return std::make_unique<Team>(parallel ? int(std::min<long long>(resolved, rows)) : 1);
}

/// Engine::device() of a CPU engine: "<CPU model>, N thread(s)" and ", AVX2" when the AVX2
/// build of the row kernels runs.
inline std::string engine_device_name(int threads, bool avx2) {
    return cpu_model_name() + ", " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") +
           (avx2 ? ", AVX2" : "");
}

/// The CPML profile of one axis of n cells in the engine's precision (scene.hpp CpmlAxis):
/// b, c and 1/kappa at the E and H positions. An axis whose profile is absent (no PML
/// there, the arrays empty) gets the identity: b = c = 0, 1/kappa = 1.
template <typename Real>
struct CpmlProfile {
    std::vector<Real> be, ce, ike, bh, ch, ikh;

    static CpmlProfile of(const CpmlAxis& ax, int n) {
        auto conv = [n](const std::vector<double>& v, double dflt) {
            std::vector<Real> r(static_cast<std::size_t>(n), static_cast<Real>(dflt));
            if (v.size() == std::size_t(n))
                for (int i = 0; i < n; ++i) r[i] = Real(v[i]);
            return r;
        };
        CpmlProfile p;
        p.be = conv(ax.b_e, 0); p.ce = conv(ax.c_e, 0); p.ike = conv(ax.inv_kappa_e, 1);
        p.bh = conv(ax.b_h, 0); p.ch = conv(ax.c_h, 0); p.ikh = conv(ax.inv_kappa_h, 1);
        return p;
    }
};

/// Fills `ext` with the extensions of scene `sc` (components present: `has`), in scene.hpp's
/// order within each phase: dispersion, sources, TF/SF, walls (2D PEC/PMC, `walls`; the 3D
/// engine zeroes its faces itself), Mur faces, tensor couplings, monitors. Extensions with
/// nothing to do are left out, the monitors never. Returns the monitors extension (owned by
/// `ext`); `has_tensor` says whether tensor couplings were added.
template <typename Real>
Monitors<Real>* build_extensions(ExtensionSet<Real>& ext, const Scene& sc, const bool (&has)[6], bool walls,
                                 bool& has_tensor) {
    auto add_if = [&ext](auto e) {
        if (!e->empty()) ext.add(std::move(e));
    };
    add_if(std::make_unique<Dispersion<Real>>(sc, has));
    add_if(std::make_unique<Sources<Real>>(sc, has));
    add_if(std::make_unique<Tfsf<Real>>(sc, has));
    if (walls) add_if(std::make_unique<Walls<Real>>(sc));
    add_if(std::make_unique<MurFaces<Real>>(sc));
    auto tensor = std::make_unique<TensorCouplings<Real>>(sc);
    has_tensor = !tensor->empty();
    if (has_tensor) ext.add(std::move(tensor));
    auto mon = std::make_unique<Monitors<Real>>(sc, has);
    Monitors<Real>* monitors = mon.get();
    ext.add(std::move(mon));
    return monitors;
}

/// Live edit of the extensions (engine.hpp update_materials): sub-pixel tensor couplings
/// follow the edited interfaces (their state lives within one step only), so a coupling list
/// that was empty when `ext` was built gets its extension now; then every extension follows
/// the edited table (dispersive correction coefficients, couplings).
template <typename Real>
void follow_material_edit(ExtensionSet<Real>& ext, const Scene& edited, bool& has_tensor) {
    if (!edited.anisotropic.empty() && !has_tensor) {
        has_tensor = true;
        ext.add(std::make_unique<TensorCouplings<Real>>(edited));
    }
    ext.materials_changed(edited);
}

/// get_field: the values of `f` as doubles.
template <typename Real>
void copy_field_out(const SkewedArray<Real>& f, std::vector<double>& out) {
    out.resize(f.size());
    for (std::size_t k = 0; k < f.size(); ++k) out[k] = double(f[k]);
}

/// set_field: `values` into `f`; std::invalid_argument naming component c and the expected
/// count (`cells_name`, e.g. "nx*ny") when the size differs.
template <typename Real>
void copy_field_in(SkewedArray<Real>& f, const std::vector<double>& values, Component c, const char* cells_name) {
    if (values.size() != f.size())
        throw std::invalid_argument(std::string("set_field: ") + component_name(c) + " needs " + cells_name + " = " +
                                    std::to_string(f.size()) + " values, got " + std::to_string(values.size()));
    for (std::size_t k = 0; k < f.size(); ++k) f[k] = Real(values[k]);
}

/// field_energy (scene.hpp): 0.5 eps0 dx^dims sum (eps_r E^2 + H~^2) in J (per metre of z in
/// 2D), over the arrays f[c] != nullptr (weighted_sum_squares: reproducible order).
template <typename Real>
double field_energy(Team& team, const std::array<const Real*, 6>& f, const std::vector<std::uint16_t> (&idx)[3],
                    const std::vector<double>& eps_table, std::size_t cells, double dx_um, int dims) {
    const double dx = dx_um * units::um;
    const double sum = weighted_sum_squares(team, f, idx, eps_table.data(), cells);
    double e = 0.5 * units::eps0;  // 0.5 eps0 dx dx (dx) sum, multiplied left to right
    for (int d = 0; d < dims; ++d) e *= dx;
    return e * sum;
}

}  // namespace golightly::cpu
