// GoLightly: compile a Project into a Scene plus monitor bookkeeping (compile.hpp).
// 2D here (3D: compile_3d.cpp). The compiler class is compile2d_internal.hpp; this file
// holds the grid, medium, dispersion and shape phases and their order, the sources are
// compile_sources_2d.cpp and the monitors compile_monitors_2d.cpp.
//
// Conventions chosen here (documented for the driver, the GUI and the tests):
//
// Grid. Interior cells n = round(L / cell_size) per axis; PML cells (domain.pml.cells) on
// both sides of each "pml" axis. Physical x_um = (index position - pml_lo) * dx, so the
// integer (e) node i = pml_lo sits at x = 0. dt = courant * dx / c0.
//
// Medium. Each E component is sampled at its own Yee positions (average_medium). Sample
// windows must lie inside the interior: positions closer than dx/2 to the interior edge
// (and all PML positions) copy the nearest inside sample along that axis, so geometry that
// reaches the interior edge continues unchanged through the PML (spec: domain).
//
// Sub-pixel tensor (TEz, scene.hpp "Anisotropic cells"): the off-diagonal entries of
// average_medium become Scene::anisotropic; rules and damping at build_tensor_couplings
// (compile_internal.hpp, shared with 3D).
//
// Dispersive materials (scene.hpp "Dispersive cells"). The table entry of every cell is
// the averaged (eps_inf, sigma) of average_medium; the poles come on top. With sub-pixel
// averaging a cell covered by fractions f_q of materials q gets the susceptibility
// sum_q w_q chi_q(w), the weights w_q of a metal (Re eps < 0 somewhere in the band; other
// dispersive materials keep w = f) by run.subpixel_metal (DispersionBuilder::classify):
// "tangential" (default) w = f for E tangential to the metal's whole surface (the
// arithmetic mean of eps that E parallel to an interface sees exactly; Ez in 2D always)
// and the staircase value otherwise; "fraction" w = f for every
// component (puts the normal component of cut metal cells near Re eps = 0, where it
// absorbs spuriously); "staircase" the whole cell staircased, eps_inf and sigma included.
// One dispersive material in the cell: its own pole set, weight w; several: a pole set of
// the union with c3 scaled by each w, weight 1. Without averaging (staircase) the material
// with the largest fraction takes the whole cell (weight 1). Slivers with w < 1e-7 are
// dropped. Checks (warnings): per used dispersive material the amplification factor of the
// discrete update (dispersion.hpp) with its eps_inf and with eps_inf lowered to the
// smallest averaged eps_inf of its cells; omega_0 dt >= 2 (unstable) or > 1 (poorly
// resolved); eps_inf < 1 with the Courant limit sqrt(eps_inf / 2) it implies; dispersive
// cells inside the PML.
//
// Source amplitude ("weight convention"). A source is an electric current J (on an E
// component) or a magnetic current M (on an H~ = eta0 H component) whose strength is set
// so that `amplitude` is a field amplitude, independent of the resolution:
//   line (sheet current K = -(2/eta0) A f(t)):  E += 2 cb A f per node (each node weighted
//        by the fraction of its dx the line covers); an infinite uniform line radiates a
//        plane wave E = A f(t - |x|/c) / n on both sides (vacuum: A).
//   point (TMz: a line current I = -(2/eta0) A f * 1 um, i.e. the 1 um of a line source):
//        E += 2 cb A (1 um / dx) f on the nearest node of the component.
//   region (current density J = -(2/eta0) A f / 1 um times the coverage c of the shape):
//        E += 2 cb A c (dx / 1 um) f.
//   On a magnetic component (Hz in TEz) the same with cb -> S (H~ += 2 S A f ...): the
//   radiated H~ = eta0 H then has amplitude A in vacuum.
//   Derivation: eps0 eps_r dE/dt = curl H - J gives E += -(dt / (eps0 eps_r)) J =
//   -cb eta0 dx J (cb = S / eps_r); a sheet current K radiates E = -eta0 K / 2 each side.
//
// One-way sources (profile "mode", and uniform/gaussian lines that give a `direction`,
// which must be normal to the line; without one, a line radiates both ways): a total-field/scattered-field plane at the E nodes of the line
// (Taflove & Hagness 3rd ed. sec. 5.6, 1D TF/SF): with the incident field e_inc, h_inc
// (tangential E and H~ of the mode, e.g. Ez and Hy for TMz along x) and s = +-1 the
// direction along the normal axis,
//   E term on e(k_s):           weight -s sigma_e cb h_inc   (h_inc at k_s - s/2)
//   H term on h(k_s - (s>0)):   weight -s sigma_h S  e_inc   (e_inc at k_s)
// sigma_e / sigma_h are the signs with which the normal derivative enters the e / h update
// (scene.hpp), h_inc = -sigma_h s n_eff e_inc (n_eff = beta~ / k0~ of the discrete mode),
// TEz: e_inc = -sigma_e s n_eff h_inc / eps. The incident field is referenced to the
// point half a cell upstream of the plane at the E-source time, so the E term has delay 0
// and the H term the half-cell travel time dx / (2 v_phase) at the centre frequency.
// Power then goes along `direction`, nothing backwards (up to the pulse's dispersion).
// The sheet pair, the plane-wave incident fields and the delay are built by
// compile_common.cpp (add_one_way_terms, plane_wave_incident, half_cell_delay_s), shared
// with the 3D one-way plane source (compile_3d.cpp).
//
// Flux monitors. Tangential E on the E nodes of the line (the nearest e position along the
// normal), H~ averaged from the two H nodes either side (DftSet cell0/cell1, 0.5 each).
// Each E sample's weight w0 is the fraction of its dx the line covers (end nodes), so
// FluxTerm::ds_um = dx for every sample. Sign: Sx = -Ez Hy, Sy = Ez Hx (TMz),
// Sx = Ey Hz, Sy = -Ex Hz (TEz), times +-1 for the monitor's direction.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include "compile2d_internal.hpp"

namespace golightly {
namespace compile2d {

// ----------------------------------------------------------------------------- grid

void Compiler::compile_grid() {
    const Domain& d = project_.domain;
    Scene& s = sc();
    dx_ = d.cell_size;
    if (!(dx_ > 0)) throw ProjectError(file_, "domain.cell_size", "must be > 0");
    s.polarization = d.polarization;
    s.dx_um = dx_;
    s.courant = project_.run.courant;
    s.dt_s = s.courant * dx_ * units::um / c0;
    for (int a = 0; a < 2; ++a) {
        L_[a] = d.size[a];
        const double cells = L_[a] / dx_;
        if (!(cells <= limits::kMaxCellsPerAxis))  // before lround: no overflow into a wrong grid
            throw ProjectError(file_, "domain.cell_size", "gives " + fmt(cells) + " cells along " +
                                                              std::string(a == 0 ? "x" : "y") + ", more than the limit of " +
                                                              fmt(limits::kMaxCellsPerAxis));
        const long n = std::lround(cells);
        if (n < 1)
            throw ProjectError(file_, "domain.size", "the interior must span at least one cell along " +
                                                         std::string(a == 0 ? "x" : "y"));
        if (std::abs(cells - double(n)) > 1e-6 * std::max(1.0, cells))
            out_.warnings.push_back(std::string("domain size along ") + (a == 0 ? "x" : "y") + " (" +
                                    fmt(L_[a]) + " um) is not a multiple of the cell size " + fmt(dx_) +
                                    " um: using " + std::to_string(n) + " cells (" + fmt(n * dx_) + " um)");
        n_int_[a] = static_cast<int>(n);
        L_[a] = n * dx_;  // the interior actually simulated
        s.boundary[a] = d.boundaries[a];
        const int p = d.boundaries[a] == BoundaryKind::Pml ? d.pml.cells : 0;
        s.pml_lo[a] = s.pml_hi[a] = p;
        N_[a] = n_int_[a] + 2 * p;
    }
    s.nx = N_[0];
    s.ny = N_[1];
    grid_ = s.grid();
    if (static_cast<double>(s.nx) * s.ny > 2.0e9)
        throw ProjectError(file_, "domain.cell_size", "the grid (" + std::to_string(s.nx) + " x " +
                                                          std::to_string(s.ny) + " cells) is too large");
    // Refuse before compiling the medium (which allocates per cell) what the machine cannot
    // hold: fields, material maps and the compiler's per-cell scratch.
    const double bp = project_.run.precision == Precision::Float32 ? 4 : 8;
    const double need = double(s.cells()) * (3 * bp + 4 + 16);
    if (const double host = double(limits::host_memory_bytes()); host > 0 && need > host)
        throw ProjectError(file_, "domain.cell_size",
                           "the grid of " + std::to_string(s.nx) + " x " + std::to_string(s.ny) + " cells needs about " +
                               limits::format_bytes(need) + ", more than this machine's memory (" +
                               limits::format_bytes(host) + "); use larger cells or a smaller domain");
}

// ----------------------------------------------------------------------------- medium

void Compiler::compile_medium() {
    Scene& s = sc();
    const bool reference = options_.reference_run;
    const auto layers = select_layers(project_, reference);
    const std::set<std::string> used = used_material_ids(layers);
    for (std::size_t m = 0; m < project_.materials.size(); ++m) {
        const Material& mat = project_.materials[m];
        if (used.count(mat.id) && mat.epsilon_inf < 1.0) {
            const double smax = std::sqrt(std::max(0.0, mat.epsilon_inf) / 2.0);
            out_.warnings.push_back("material '" + mat.id + "': epsilon_inf = " + fmt(mat.epsilon_inf) +
                                    " < 1 lowers the 2D Courant limit to sqrt(epsilon_inf / 2) = " + fmt(smax) +
                                    (project_.run.courant > smax ? ": the Courant number " + fmt(project_.run.courant) +
                                                                       " is UNSTABLE there"
                                                                 : " (the Courant number " +
                                                                       fmt(project_.run.courant) + " is below it)"));
        }
    }

    const bool subpixel = options_.subpixel_averaging.value_or(project_.run.subpixel_averaging);
    std::vector<std::vector<double>> eps3(3), sig3(3);
    std::vector<double> offdiag[2];  // TEz: (eps^-1)_xy at the Ex / Ey sites (whole grid)
    const std::vector<std::string> stair = detail::staircased_metals(project_, used);
    std::vector<std::pair<std::size_t, float>> normal_sq[3];  // run.subpixel_metal "conformal"
    for (Component c : electric_components(s.polarization)) {
        const InteriorSamples is = interior_samples(c);
        const AveragedMedium med = average_medium(project_, is.grid, c, subpixel, reference, stair);
        if (subpixel && project_.run.subpixel_metal == SubpixelMetal::Conformal &&
            detail::any_dispersive(project_, used))
            normal_sq[static_cast<int>(c)] =
                average_medium(detail::conformal_probe(project_), is.grid, c, true, reference).cut_normal_sq;
        std::vector<double>& e = eps3[static_cast<int>(c)];
        std::vector<double>& sg = sig3[static_cast<int>(c)];
        e.resize(s.cells());
        sg.resize(s.cells());
        const bool has_off = !med.inv_eps_offdiag.empty() && static_cast<int>(c) < 2;
        if (has_off) offdiag[static_cast<int>(c)].assign(s.cells(), 0.0);
        for_each_cell_sample(is, [&](int i, int j, std::size_t src) {
            e[std::size_t(flat(i, j))] = med.eps_r[src];
            sg[std::size_t(flat(i, j))] = med.sigma.empty() ? 0.0 : med.sigma[src];
            if (has_off) offdiag[static_cast<int>(c)][std::size_t(flat(i, j))] = med.inv_eps_offdiag[src];
        });
    }
    compile_dispersion(layers, subpixel, eps3, normal_sq);
    build_material_table(s, eps3, sig3);
    for (int c = 0; c < 3; ++c) eps_[c] = std::move(eps3[c]);
    if (s.polarization == Polarization::TEz && !offdiag[0].empty() && !offdiag[1].empty())
        compile_anisotropic(offdiag);
    build_cpml(s, project_.domain.pml.grading_order, project_.domain.pml.target_reflection);

    // Interior area per material: coverage on the interior cell grid.
    out_.material_area_um2 = material_areas_um2(project_, dx_, reference);
}

// ----------------------------------------------------------------------------- anisotropic

// TEz off-diagonal coupling (scene.hpp "Anisotropic cells"): the seeds are the Ex and Ey
// sites with a nonzero (eps^-1)_xy; build_tensor_couplings (compile_common.cpp) applies the
// eligibility rules, the symmetrized couplings and the damping. For a smooth interface in
// eps = 12 the damping never acts (|ixy| <= ixx there); it guards very high contrast and
// crowded corners.
void Compiler::compile_anisotropic(const std::vector<double> (&offdiag)[2]) {
    std::vector<TensorSeed> seeds[3];
    for (int c = 0; c < 2; ++c)
        for (std::size_t k = 0; k < offdiag[c].size(); ++k)
            if (offdiag[c][k] != 0.0) {
                TensorSeed t;
                t.cell = CellIndex(k);
                t.off[0] = offdiag[c][k];
                seeds[c].push_back(t);
            }
    const std::size_t damped = build_tensor_couplings(sc(), seeds);
    anisotropic_damped_ = damped;
    if (damped > 0)
        out_.warnings.push_back("sub-pixel averaging: " + std::to_string(damped) +
                                " off-diagonal (TEz tensor) couplings damped to keep the update stable "
                                "(high permittivity contrast at oblique interfaces)");
}

// ----------------------------------------------------------------------------- dispersion

void Compiler::compile_dispersion(const std::vector<const Layer*>& layers, bool subpixel,
                                  std::vector<std::vector<double>>& eps3,
                                  const std::vector<std::pair<std::size_t, float>> (&normal_sq)[3]) {
    Scene& s = sc();
    if (!detail::any_dispersive(project_, used_material_ids(layers))) return;
    detail::DispersionBuilder builder(project_, s, subpixel);
    for (Component c : electric_components(s.polarization)) {
        const int ic = static_cast<int>(c);
        const InteriorSamples is = interior_samples(c);  // the samples compile_medium averaged
        const auto sets = builder.classify(compute_coverage(project_, is.grid, options_.reference_run),
                                           {is.grid.nx, is.grid.ny, 1, component_axis(c)}, &normal_sq[ic]);
        // Whole grid, PML copies the nearest interior sample (as compile_medium).
        for_each_cell_sample(is, [&](int i, int j, std::size_t src) {
            const CellIndex cell = flat(i, j);
            const bool pml = (s.pml_lo[0] + s.pml_hi[0] > 0 && (i < pml_lo(0) || i >= N_[0] - pml_hi(0))) ||
                             (s.pml_lo[1] + s.pml_hi[1] > 0 && (j < pml_lo(1) || j >= N_[1] - pml_hi(1)));
            if (sets.set[src] >= 0 && !sets.eps_inf.empty())
                detail::apply_sample_eps_inf(sets, src, eps3[ic][std::size_t(cell)]);
            builder.add_cell(ic, cell, sets, src, eps3[ic][std::size_t(cell)], pml);
        });
    }
    builder.add_warnings(out_.warnings, 2);
}

// ----------------------------------------------------------------------------- spectrum

void Compiler::compile_spectrum() { out_.spectrum_hz = detail::compile_spectrum(project_); }

// ----------------------------------------------------------------------------- shapes

std::vector<double> Compiler::shape_coverage(const Shape& shape, Component c, const std::string& path) {
    if (shape.type == ShapeType::Step)
        throw ProjectError(file_, path, "a STEP shape cannot be used as a source or monitor region");
    // Bounding box of the shape, um.
    double x0, y0, x1, y1;
    if (shape.type == ShapeType::Raster) {
        x0 = shape.origin.x;
        y0 = shape.origin.y;
        x1 = x0 + shape.width_px * shape.pixel_size;
        y1 = y0 + shape.height_px * shape.pixel_size;
    } else {
        Outline o;
        try {
            o = shape_outline(shape, 0.05 * dx_);
        } catch (const std::exception& e) {
            throw ProjectError(file_, path, e.what());
        }
        x0 = y0 = std::numeric_limits<double>::infinity();
        x1 = y1 = -x0;
        for (const auto& ring : o)
            for (const Vec2& v : ring) {
                x0 = std::min(x0, v.x), x1 = std::max(x1, v.x);
                y0 = std::min(y0, v.y), y1 = std::max(y1, v.y);
            }
        if (!std::isfinite(x0)) throw ProjectError(file_, path, "the shape is empty");
    }
    const Vec3 off = yee_offset(c);
    int lo[2], hi[2];
    const double box_lo[2] = {x0, y0}, box_hi[2] = {x1, y1};
    for (int a = 0; a < 2; ++a) {
        const double o = axis_of(off, a);
        lo[a] = std::max(0, static_cast<int>(std::floor(box_lo[a] / dx_ + pml_lo(a) - o)) - 1);
        hi[a] = std::min(N_[a] - 1, static_cast<int>(std::ceil(box_hi[a] / dx_ + pml_lo(a) - o)) + 1);
    }
    std::vector<double> full(sc().cells(), 0.0);
    if (lo[0] > hi[0] || lo[1] > hi[1])
        throw ProjectError(file_, path, "the shape lies outside the simulation domain");
    SampleGrid g;
    g.nx = hi[0] - lo[0] + 1;
    g.ny = hi[1] - lo[1] + 1;
    g.x0_um = pos_um(0, lo[0], off.x);
    g.y0_um = pos_um(1, lo[1], off.y);
    g.dx_um = dx_;
    Project tmp;
    tmp.domain = project_.domain;
    tmp.domain.background = "air";
    Material m;
    m.id = "__region__";
    m.epsilon_inf = 2.0;
    tmp.materials = {m};
    Layer layer;
    layer.name = "region";
    layer.material = m.id;
    layer.shapes = {shape};
    tmp.layers = {layer};
    Coverage cov;
    try {
        cov = compute_coverage(tmp, g, false);
    } catch (const ProjectError&) {
        throw;
    } catch (const std::exception& e) {
        throw ProjectError(file_, path, e.what());
    }
    std::size_t mi = cov.material_ids.size();
    for (std::size_t k = 0; k < cov.material_ids.size(); ++k)
        if (cov.material_ids[k] == m.id) mi = k;
    if (mi == cov.material_ids.size()) return full;
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i)
            full[std::size_t(flat(lo[0] + i, lo[1] + j))] = cov.fraction[mi][std::size_t(j) * g.nx + i];
    return full;
}

// ----------------------------------------------------------------------------- finish

void Compiler::finish() {
    detail::warn_tfsf_flux_boxes(project_, out_);
    detail::finish_compile(project_, file_, out_);
    for (const std::string& w : pml_warned_) out_.warnings.push_back(w + " lies inside the PML");
}

CompiledProject Compiler::run() {
    compile_grid();
    compile_medium();
    compile_spectrum();
    resolve_bloch();
    for (std::size_t i = 0; i < project_.sources.size(); ++i) compile_source(i);
    for (std::size_t i = 0; i < project_.monitors.size(); ++i) compile_monitor(i);
    finish();
    return std::move(out_);
}

}  // namespace compile2d

CompiledProject compile_project(const Project& project, const std::string& file_label, const CompileOptions& options) {
    compile2d::Compiler c(project, file_label, options);
    check_gds_shapes(project, file_label);  // embedded GDSII files: errors name layers[i].shapes[k].data
    try {
        if (project.domain.dimensions == 3) return detail::compile_project_3d(project, file_label, options);
        return c.run();
    } catch (const ProjectError& e) {  // geometry (compute_coverage) does not know the file
        if (!e.file().empty()) throw;
        throw ProjectError(file_label, e.json_path(), e.message());
    }
}

}  // namespace golightly
