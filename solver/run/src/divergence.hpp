// GoLightly run driver, divergence (run.hpp run_project "Divergence"): the growth watch
// on the field energy, and where and why the fields blew up (DivergenceInfo).
#pragma once

#include <string>

#include "golightly/engine.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/scene.hpp"

namespace golightly::detail {

/// The growth rule on the field energy, fed at every check of a phase. The reference is
/// the largest energy (J/m in 2D, J in 3D) seen up to and including the first check
/// after every source ended (the first positive one, when all were 0); from then on the
/// watch fires when an energy exceeds kDivergenceGrowth times it.
class GrowthWatch {
public:
    /// Takes the energy of a check (finite, >= 0) and whether every source has ended by
    /// then. Returns true when the growth rule fires.
    bool diverged(double energy, bool sources_off);
    /// A live edit changed the materials at this energy: the reference becomes at least it.
    void rebase(double energy);
    /// The last energy over the reference; 0 before the watch is armed.
    double growth() const { return armed_ && reference_ > 0 ? last_ / reference_ : 0.0; }

private:
    double reference_ = 0;
    double last_ = 0;
    bool armed_ = false;
};

/// Locates a divergence on `engine` (stepped from `scene`, compiled from `project`;
/// `reference_run`: the reference phase's layers): the component and cell of the
/// non-finite values (their centroid, for the component with most of them) or, when all
/// are finite, of the largest |value|; the cell box (DivergenceInfo::box_min); then
/// classify_divergence (run.hpp). Reads every component once (get_field, O(cells)).
DivergenceInfo locate_divergence(Engine& engine, const Scene& scene, const Project& project,
                                 const std::string& phase, bool reference_run);

}  // namespace golightly::detail
