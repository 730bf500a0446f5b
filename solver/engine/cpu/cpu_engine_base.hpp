// GoLightly CPU engines: the engine class both dimensions derive from (CRTP), written once.
// It holds the state every CPU engine has (the scene views, the team, the field and
// coefficient arrays, the CPML psi slabs, the extension set, the split-step driver, the
// imaginary copy of a complex run) and implements the Engine methods whose code does not
// depend on the dimension: stepping (whole, split and complex steps), energy, finiteness,
// field storage and copies (SubdomainAccess), DFT and probe reads, live material edits. The derived engine
// (engine_cpu.cpp: 2D, engine_cpu3d.cpp: 3D) keeps what does: its constructor's grid checks,
// segments and psi slabs, the row kernels and their sweeps (the hot loops), frames.
//
// What the base asks of `Derived` (static dispatch, no virtual call in a step):
//   static constexpr int kDims;              2 or 3: the split axis is kDims - 1 (y in 2D, z in 3D)
//   static constexpr const char* kName;      "CPU engine" / "CPU engine (3D)", for messages
//   static constexpr const char* kCellsName; "nx*ny" / "nx*ny*nz" (set_field's size message)
//   static constexpr bool kWalls;            the extension set has the PEC/PMC walls (2D)
//   void rows_pass(ctx, bool h, int p0, int p1);   H or E of the planes [p0, p1)
//   void sweep(ctx, int a, int e, int b);          the fused sweep (cpu::SplitStep)
//   void fill_ghosts(bool h);                      the Bloch wrap ghosts before a half-step
//   void build_uniform_map();                      per row: one material (after an edit)
// A plane is a row of y in 2D and a z plane of ny rows in 3D (the unit the team splits).
// Private to the solver library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cpu_bloch.hpp"
#include "cpu_common.hpp"
#include "cpu_engine_common.hpp"
#include "cpu_extensions.hpp"
#include "cpu_team.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/tuning.hpp"

namespace golightly::cpu {

template <class Derived, typename Real>
class CpuEngineBase : public Engine, public FrameSource, public SubdomainAccess {
public:
    // The seams (engine.hpp): a CPU engine is its own frame source (the derived engine
    // renders the frames) and can be a subdomain of a distributed run.
    FrameSource& frames() override { return *this; }
    SubdomainAccess* subdomain() override { return this; }

    std::string backend() const override { return "cpu"; }
    std::string device() const override { return device_; }
    Precision precision() const override { return sizeof(Real) == 4 ? Precision::Float32 : Precision::Float64; }
    std::int64_t steps_done() const override { return steps_; }

    void step(int n_steps) override {
        if (im_) {
            for (int s = 0; s < n_steps; ++s) complex_step();
            return;
        }
        for (int s = 0; s < n_steps; ++s) {  // one step: the three parts without halo margins
            step_begin();
            step_interior();
            step_boundary();
        }
    }

    /// 0.5 eps0 dx^d sum (eps_r E^2 + H~^2), J: eps_inf E^2 only (no polarization energy).
    double field_energy() override {
        double e = cpu::field_energy(*team_, present_fields(), materials_->material_index, eps_table_, sc_.cells(),
                                     sc_.dx_um, Derived::kDims);
        if (im_) {  // |F|^2 = F_re^2 + F_im^2
            use_copy(1);
            e += cpu::field_energy(*team_, present_fields(), materials_->material_index, eps_table_, sc_.cells(),
                                   sc_.dx_um, Derived::kDims);
            use_copy(0);
        }
        return e;
    }

    bool fields_finite() override {
        bool ok = cpu::all_finite(*team_, present_fields(), sc_.cells());
        if (im_ && ok) {
            use_copy(1);
            ok = cpu::all_finite(*team_, present_fields(), sc_.cells());
            use_copy(0);
        }
        return ok;
    }

    FieldStorage field_storage() override {
        FieldStorage fs;
        for (int c = 0; c < 6; ++c) fs.field[c] = has_[c] ? static_cast<void*>(field_[c].data()) : nullptr;
        for (int c = 0; c < 6 && im_; ++c) fs.field[6 + c] = has_[c] ? static_cast<void*>(im_->field[c].data()) : nullptr;
        fs.element_bytes = int(sizeof(Real));
        fs.n[0] = sc_.nx;
        fs.n[1] = sc_.ny;
        fs.n[2] = Derived::kDims == 3 ? sc_.nz : 1;
        if (Derived::kDims == 3 && !im_)  // the x and y slabs span every z plane
            for (int c = 0; c < 6; ++c)
                for (int a = 0; a < 2; ++a)
                    if (!psi_[c][a].empty()) {
                        fs.psi[c][a] = psi_[c][a].data();
                        fs.psi_plane_bytes[c][a] = std::int64_t(psi_[c][a].size() / std::size_t(sc_.nz) * sizeof(Real));
                    }
        return fs;
    }

    void get_field(Component c, std::vector<double>& out) override {
        require(c);
        cpu::copy_field_out(field_[int(c)], out);
    }

    void set_field(Component c, const std::vector<double>& values) override {
        require(c);
        cpu::copy_field_in(field_[int(c)], values, c, Derived::kCellsName);
    }

    std::vector<std::complex<double>> dft(int set) override {
        if (!im_) return monitors_->dft(set);
        return cpu::combine_dft(monitors_->dft(set), im_->monitors->dft(set));
    }

    std::vector<double> time_samples(int probe) override { return monitors_->time_samples(probe); }

    /// Live edit (engine.hpp, update_materials): the material table and index maps of
    /// `edited` replace the running ones; the per-cell ca / cb arrays, the uniform-row map,
    /// the energy's eps table, the dispersive correction coefficients and the tensor
    /// couplings follow. Fields, psi, pole state, DFTs and probes stay. Throws
    /// std::invalid_argument (engine untouched) when check_material_update() refuses the scene.
    void update_materials(SceneView edited_view) override {
        const Scene& edited = *edited_view;
        check_material_update(sc_, edited);  // grid, map sizes, indices, poles
        // Build the new arrays first, so that an allocation failure leaves the engine as it was.
        SkewedArray<Real> cb[3], ca[3];
        bool lossy[3] = {false, false, false};
        fill_coefficients(edited, cb, ca, lossy);
        materials_ = std::move(edited_view);  // the engine's view of the materials from now on
        for (int c = 0; c < 3; ++c) {
            if (!has_[c]) continue;
            cb_[c] = std::move(cb[c]);
            ca_[c] = std::move(ca[c]);
            lossy_[c] = lossy[c];
        }
        eps_table_.resize(edited.table.size());
        for (std::size_t t = 0; t < edited.table.size(); ++t) eps_table_[t] = edited.table[t].eps_r;
        self().build_uniform_map();
        // Dispersive cells are unchanged (checked); their coefficient follows the new cb.
        // Sub-pixel tensor couplings follow the edited interfaces (their state lives within
        // one step only); a list that was empty at the start gets its extension now.
        cpu::follow_material_edit(ext_, edited, has_tensor_);
        if (im_) cpu::follow_material_edit(im_->ext, edited, im_->has_tensor);
    }

    /// Split step (subdomain.hpp): cpu::SplitStep over the planes. Not for complex fields
    /// (their step couples the two copies across the whole grid).
    bool supports_split_step() const override { return !im_; }
    /// A complex engine keeps no margins: a distributed run steps it whole (step(1)) and
    /// exchanges its halos between steps.
    void set_split_margins(int lo, int hi) override {
        if (im_) return;
        split_.configure(lo, hi, planes(), rows_per_plane(), sc_.boundary[kSplitAxis] == BoundaryKind::Periodic);
    }
    void step_begin() override {
        if (im_) throw RunError(std::string(Derived::kName) + ": complex fields (Bloch phase) cannot run as a split step");
        split_.begin(context(), ext_);
    }
    void step_interior() override {
        split_.interior(ext_, [this](const cpu::StepContext<Real>& c, int a, int e, int b) { self().sweep(c, a, e, b); });
    }
    void step_boundary() override {
        split_.boundary(ext_,
                        [this](const cpu::StepContext<Real>& c, bool h, int p0, int p1) { self().rows_pass(c, h, p0, p1); });
        ++steps_;
    }

protected:
    static constexpr int kSplitAxis = Derived::kDims - 1;

    explicit CpuEngineBase(SceneView scene) : scene_(std::move(scene)), materials_(scene_), sc_(*scene_) {}

    Derived& self() { return static_cast<Derived&>(*this); }

    /// Planes along the split axis and rows of nx cells per plane.
    int planes() const { return kSplitAxis == 1 ? sc_.ny : sc_.nz; }
    int rows_per_plane() const { return kSplitAxis == 1 ? 1 : sc_.ny; }

    /// The thread count and team (at most one member per row of nx cells: cpu::engine_team).
    void make_team(int threads) {
        threads_ = cpu::engine_threads(threads);
        team_ = cpu::engine_team(threads, threads_, sc_.cells(), (long long)planes() * rows_per_plane());
    }

    /// Zero fields of the present components (has_), the energy's eps table, the per-cell
    /// coefficients; checks the index maps' sizes.
    void allocate_fields() {
        const std::size_t n = sc_.cells();
        for (int c = 0; c < 6; ++c)
            if (has_[c]) field_[c].assign(n, Real(0), c);
        eps_table_.resize(sc_.table.size());
        for (std::size_t t = 0; t < sc_.table.size(); ++t) eps_table_[t] = sc_.table[t].eps_r;
        for (int c = 0; c < 3; ++c)
            if (has_[c] && sc_.material_index[c].size() != n)
                throw RunError(std::string(Derived::kName) + ": material_index of " + component_name(Component(c)) +
                               " must hold " + Derived::kCellsName + " = " + std::to_string(n) + " entries, has " +
                               std::to_string(sc_.material_index[c].size()));
        fill_coefficients(sc_, cb_, ca_, lossy_);
    }

    /// Per-cell cb (and ca when a table entry is lossy) of the present E components of `s`.
    void fill_coefficients(const Scene& s, SkewedArray<Real> (&cb)[3], SkewedArray<Real> (&ca)[3],
                           bool (&lossy)[3]) const {
        const std::size_t n = sc_.cells();
        bool any_lossy = false;
        for (const auto& e : s.table) any_lossy |= e.ca != 1.0;
        for (int c = 0; c < 3; ++c) {
            if (!has_[c]) continue;
            const auto& idx = s.material_index[c];
            cb[c].resize(n, 6 + c);
            if (any_lossy) ca[c].resize(n, 9 + c);
            lossy[c] = any_lossy;
            for (std::size_t k = 0; k < n; ++k) {
                const std::uint16_t m = idx[k];
                if (m >= s.table.size())
                    throw RunError(std::string(Derived::kName) + ": material index of " + component_name(Component(c)) +
                                   " at cell " + std::to_string(k) + " is beyond the table");
                cb[c][k] = Real(s.table[m].cb);
                if (any_lossy) ca[c][k] = Real(s.table[m].ca);
            }
        }
    }

    /// The end of a derived constructor, once fields, psi slabs and segments exist: the
    /// extensions (cpu_engine_common.hpp build_extensions), the Bloch checks and rotation,
    /// the imaginary copy of a complex run, the sweep choice and the device name.
    void finish_construction(bool avx2) {
        monitors_ = cpu::build_extensions(ext_, sc_, has_, Derived::kWalls, has_tensor_);
        cpu::check_bloch_scene(sc_, Derived::kName);
        bloch_ = cpu::BlochRotation(sc_);
        if (sc_.complex_fields) build_imaginary_copy();
        two_pass_ = tune_.unfused;
        device_ = cpu::engine_device_name(threads_, avx2);
    }

    void require(Component c) const {
        if (!has_[int(c)])
            throw std::invalid_argument(std::string("component ") + component_name(c) +
                                        " does not exist in this polarization");
    }

    /// The field arrays by Component, nullptr where the polarization lacks the component.
    std::array<const Real*, 6> present_fields() const {
        std::array<const Real*, 6> f{};
        for (int c = 0; c < 6; ++c) f[c] = has_[c] ? field_[c].data() : nullptr;
        return f;
    }

    /// The step context handed to the extensions (field pointers are stable); rows r of nx
    /// cells, r = k * ny + j in 3D (cpu_extensions.hpp grid_rows).
    cpu::StepContext<Real> context() {
        cpu::StepContext<Real> c;
        for (int k = 0; k < 6; ++k) c.field[k] = has_[k] ? field_[k].data() : nullptr;
        c.nx = sc_.nx;
        c.ny = planes() * rows_per_plane();
        c.scene = &sc_;
        c.team = team_.get();
        c.step = steps_;
        return c;
    }

    /// The imaginary copy (engine_cpu.cpp header comment "Complex fields"): zero fields and
    /// psi, the extensions of the imaginary scene.
    void build_imaginary_copy() {
        im_ = std::make_unique<ImaginaryCopy>();
        im_->scene = cpu::imaginary_scene(sc_);
        for (int c = 0; c < 6; ++c) {
            if (has_[c]) im_->field[c].assign(sc_.cells(), Real(0), c);
            for (int d = 0; d < 3; ++d) im_->psi[c][d].assign(psi_[c][d].size(), Real(0));
        }
        im_->monitors = cpu::build_extensions(im_->ext, *im_->scene, has_, Derived::kWalls, im_->has_tensor);
    }
    /// Makes copy `k` (0 re, 1 im) the one in the engine's members: O(1) swaps of the arrays.
    void use_copy(int k) {
        if (k == active_) return;
        for (int c = 0; c < 6; ++c) {
            std::swap(field_[c], im_->field[c]);
            for (int d = 0; d < 3; ++d) std::swap(psi_[c][d], im_->psi[c][d]);
        }
        std::swap(ext_, im_->ext);
        std::swap(monitors_, im_->monitors);
        std::swap(has_tensor_, im_->has_tensor);
        active_ = k;
    }
    /// The step context of the active copy (its scene: the imaginary one holds the
    /// sources' imaginary weights).
    cpu::StepContext<Real> copy_context() {
        cpu::StepContext<Real> c = context();
        if (active_ == 1) c.scene = im_->scene.get();
        return c;
    }
    /// One step of a complex run: the phases of scene.hpp's step for both copies, H of both
    /// before E of either.
    void complex_step() {
        const int np = planes();
        for (int k = 0; k < 2; ++k) {
            use_copy(k);
            const cpu::StepContext<Real> c = copy_context();
            ext_.before_step(c);
            ext_.before_e_rows(c, 0, np * rows_per_plane());
        }
        for (int k = 0; k < 2; ++k) {
            use_copy(k);
            self().fill_ghosts(true);
            self().rows_pass(copy_context(), true, 0, np);
        }
        for (int k = 0; k < 2; ++k) {
            use_copy(k);
            self().fill_ghosts(false);
            self().rows_pass(copy_context(), false, 0, np);
        }
        for (int k = 0; k < 2; ++k) {
            use_copy(k);
            const cpu::StepContext<Real> c = copy_context();
            ext_.after_e(c);
            ext_.after_step(c);
        }
        use_copy(0);
        ++steps_;
    }

    SceneView scene_;      ///< the compiled scene (grid, sources, monitors, dispersive cells)
    SceneView materials_;  ///< the current materials (table, index maps, tensor couplings): scene_ until a live edit
    const Scene& sc_;      ///< *scene_
    int threads_ = 1;
    const CpuTuning tune_ = CpuTuning::from_environment();  ///< the GOLIGHTLY_CPU_* knobs as this engine was made
    bool two_pass_ = false;  ///< GOLIGHTLY_CPU_UNFUSED=1 (tuning.hpp): the two-pass sweep
    std::int64_t steps_ = 0;
    bool has_[6] = {false, false, false, false, false, false};  ///< the components of the grid
    SkewedArray<Real> field_[6];
    SkewedArray<Real> cb_[3], ca_[3];
    bool lossy_[3] = {false, false, false};
    std::vector<double> eps_table_;
    /// CPML psi of (component, derivative axis), inside the slabs only (the derived
    /// engine's header comment gives the layout); empty elsewhere.
    std::vector<Real> psi_[6][3];
    std::unique_ptr<cpu::Team> team_;
    cpu::ExtensionSet<Real> ext_;              ///< cpu_extensions.hpp
    cpu::Monitors<Real>* monitors_ = nullptr;  ///< the monitors extension (owned by ext_)
    bool has_tensor_ = false;                  ///< a TensorCouplings extension is in ext_
    std::string device_;
    cpu::SplitStep<Real> split_;  ///< the parts of a step (set_split_margins; default: no halos)
    /// The swapped-out copy of a complex run (use_copy).
    struct ImaginaryCopy {
        SkewedArray<Real> field[6];
        std::vector<Real> psi[6][3];
        cpu::ExtensionSet<Real> ext;
        cpu::Monitors<Real>* monitors = nullptr;
        bool has_tensor = false;
        std::unique_ptr<Scene> scene;  ///< sc_ with the sources' imaginary weights
    };
    std::unique_ptr<ImaginaryCopy> im_;  ///< null: real fields
    int active_ = 0;                     ///< the copy in the engine's members (0 re, 1 im)
    cpu::BlochRotation bloch_;
};

}  // namespace golightly::cpu
