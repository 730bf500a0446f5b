// GoLightly live edit (issue 5): the checks shared by the engines' update_materials()
// (engine.hpp) and the default implementation for backends without it.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "golightly/engine.hpp"
#include "golightly/errors.hpp"

namespace golightly {

namespace {

bool close(double a, double b) { return a == b || std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

std::string grid_text(const Scene& s) {
    std::ostringstream os;
    if (s.dimensions == 3) {
        os << s.nx << " x " << s.ny << " x " << s.nz << " cells of " << s.dx_um << " um, dt " << s.dt_s << " s, PML "
           << s.pml_lo[0] << "/" << s.pml_hi[0] << " x " << s.pml_lo[1] << "/" << s.pml_hi[1] << " x " << s.pml_lo[2]
           << "/" << s.pml_hi[2];
        return os.str();
    }
    os << s.nx << " x " << s.ny << " cells of " << s.dx_um << " um, dt " << s.dt_s << " s, "
       << (s.polarization == Polarization::TMz ? "TMz" : "TEz") << ", PML " << s.pml_lo[0] << "/" << s.pml_hi[0]
       << " x " << s.pml_lo[1] << "/" << s.pml_hi[1];
    return os.str();
}

/// The E components with material maps: the polarization's in 2D, Ex, Ey, Ez in 3D.
std::vector<Component> mapped_components(const Scene& s) {
    return s.dimensions == 3 ? std::vector<Component>{Component::Ex, Component::Ey, Component::Ez}
                             : electric_components(s.polarization);
}


bool same_poles(const Scene& a, const Scene& b) {
    if (a.pole_sets.size() != b.pole_sets.size()) return false;
    for (std::size_t k = 0; k < a.pole_sets.size(); ++k) {
        const auto& pa = a.pole_sets[k].poles;
        const auto& pb = b.pole_sets[k].poles;
        if (pa.size() != pb.size()) return false;
        for (std::size_t q = 0; q < pa.size(); ++q)
            if (pa[q].c1 != pb[q].c1 || pa[q].c2 != pb[q].c2 || pa[q].c3 != pb[q].c3 || pa[q].m0 != pb[q].m0 ||
                pa[q].m1 != pb[q].m1)
                return false;
    }
    for (int c = 0; c < 3; ++c) {
        const DispersiveCells& da = a.dispersive[c];
        const DispersiveCells& db = b.dispersive[c];
        if (da.cells != db.cells || da.pole_set != db.pole_set || da.weight != db.weight) return false;
    }
    return true;
}

}  // namespace

void Engine::update_materials(SceneView) {
    throw RunError("the " + backend() + " engine does not support live edits");
}

void check_material_update(const Scene& running, const Scene& edited) {
    const bool three = running.dimensions == 3;
    bool same_grid = running.dimensions == edited.dimensions && running.nz == edited.nz &&
                     (three || running.polarization == edited.polarization) && running.nx == edited.nx &&
                     running.ny == edited.ny && close(running.dx_um, edited.dx_um) &&
                     close(running.dt_s, edited.dt_s) && close(running.courant, edited.courant);
    for (int a = 0; a < (three ? 3 : 2); ++a)
        same_grid = same_grid && running.boundary[a] == edited.boundary[a] && running.pml_lo[a] == edited.pml_lo[a] &&
                    running.pml_hi[a] == edited.pml_hi[a];
    if (!same_grid)
        throw std::invalid_argument("live edit: the edit changes the grid (running: " + grid_text(running) +
                                    "; edited: " + grid_text(edited) +
                                    "); domain, cell size, polarization, boundaries and PML cannot change during a "
                                    "run: restart the run");
    if (edited.table.empty()) throw std::invalid_argument("live edit: the edited scene has no material table");
    for (Component comp : mapped_components(edited)) {
        const auto& idx = edited.material_index[int(comp)];
        if (idx.size() != edited.cells())
            throw std::invalid_argument("live edit: the edited material map of " + std::string(component_name(comp)) + " has " +
                                        std::to_string(idx.size()) + " entries, not " +
                                        (three ? "nx*ny*nz = " : "nx*ny = ") + std::to_string(edited.cells()));
        for (std::uint16_t m : idx)
            if (m >= edited.table.size())
                throw std::invalid_argument("live edit: a material index of " + std::string(component_name(comp)) +
                                            " lies beyond the coefficient table");
    }
    if (!same_poles(running, edited))
        throw std::invalid_argument(
            "live edit: the edit changes dispersive (Lorentz/Drude) cells or their poles; their polarization "
            "state cannot start mid-run: restart the run (moving or painting non-dispersive materials away from "
            "dispersive ones is applied live)");
}

bool same_anisotropic(const AnisotropicCells& a, const AnisotropicCells& b) {
    for (int c = 0; c < 3; ++c)
        if (a.cells[c] != b.cells[c] || a.neighbour[c] != b.neighbour[c] || a.weight[c] != b.weight[c]) return false;
    return true;
}

bool same_materials(const Scene& a, const Scene& b) {
    if (a.dimensions != b.dimensions || (a.dimensions != 3 && a.polarization != b.polarization) ||
        a.cells() != b.cells())
        return false;
    if (!same_anisotropic(a.anisotropic, b.anisotropic)) return false;
    for (Component comp : mapped_components(a)) {
        const auto& ia = a.material_index[int(comp)];
        const auto& ib = b.material_index[int(comp)];
        if (ia.size() != ib.size()) return false;
        for (std::size_t k = 0; k < ia.size(); ++k) {
            if (ia[k] >= a.table.size() || ib[k] >= b.table.size()) return false;
            const EUpdateCoeffs& ea = a.table[ia[k]];
            const EUpdateCoeffs& eb = b.table[ib[k]];
            if (ea.ca != eb.ca || ea.cb != eb.cb || ea.eps_r != eb.eps_r || ea.sigma != eb.sigma) return false;
        }
    }
    return true;
}

}  // namespace golightly
