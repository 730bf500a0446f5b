// The memory estimate of an adjoint gradient (compile.hpp design_dft_bytes) against what
// the runs' scene allocates (tests/common/adjoint_memory.hpp: engine_state_bytes of the
// scene with the design applied, less the compiled scene's, plus the host copies), for
// dispersive design materials: a pole set and a dispersive row per design site, and the
// growth of the scene's own dispersive cells when the design's pole sets are the widest.
// Exact equality: both sides count the same allocations.
#include <catch2/catch.hpp>

#include "adjoint_memory.hpp"
#include "adjoint_project_fixture.hpp"
#include "golightly/adjoint.hpp"
#include "golightly/compile.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/dispersion.hpp"

using namespace golightly;

namespace {

/// The tiny guide (adjoint_project_fixture.hpp) with a point source and no monitors (no
/// mode solver needed), the design between materials `lo` and `hi`, a Drude strip (one
/// pole) outside the box, at 1.5 and 1.6 um.
Project guide(const char* lo, const char* hi, const char* precision) {
    return test::edited_guide([&](Json& j) {
        j["materials"].push_back(Json::parse(R"({"id": "lor2", "epsilon_inf": 2.0, "poles": [
            {"kind": "lorentz", "omega_p": 1.5e15, "omega_0": 2.5e15, "gamma": 1e14},
            {"kind": "lorentz", "omega_p": 0.8e15, "omega_0": 4.0e15, "gamma": 2e14}]})"));
        j["layers"].push_back(Json::parse(R"({"name": "strip", "material": "drude",
            "shapes": [{"type": "rectangle", "min": [0.2, 0.2], "max": [0.6, 0.5]}]})"));
        j["sources"][0] = Json::parse(R"({"name": "in", "type": "point", "at": [0.8, 1.2], "component": "Ez",
            "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.3}})");
        j["monitors"] = Json::array();
        j["run"]["precision"] = precision;
        j["design"]["regions"][0]["materials"] = {lo, hi};
        j["design"]["objective"] = Json::parse(R"({"terms": [{"point": [2.6, 1.2], "component": "Ez"}],
            "wavelengths_um": [1.5, 1.6], "goal": "maximize"})");
    });
}

adjoint::DesignRegion region_of(const Project& project, const Scene& scene) {
    const DesignSpec spec = *design_spec(project, "guide.glproj", false);
    const DesignRegionSpec& rs = spec.regions.at(0);
    adjoint::DesignRegion r;
    r.lo_um = rs.min;
    r.hi_um = rs.max;
    r.n = rs.pixels;
    for (int side = 0; side < 2; ++side) {
        const Material* m = project.find_material(rs.materials[std::size_t(side)]);
        REQUIRE(m);
        (side == 0 ? r.eps_min : r.eps_max) = m->epsilon_inf;
        adjoint::DesignMedium& medium = side == 0 ? r.medium_min : r.medium_max;
        medium.sigma_s_per_m = m->conductivity;
        for (const Pole& p : m->poles) medium.poles.push_back(pole_coefficients(p, scene.dt_s));
    }
    return r;
}

}  // namespace

TEST_CASE("adjoint memory: the estimate counts a dispersive design's pole state per site", "[adjoint][memory]") {
    struct Case {
        const char* lo;
        const char* hi;
        const char* precision;
        std::size_t poles;
    };
    for (const Case& c : {Case{"air", "si", "float64", 0}, Case{"air", "drude", "float64", 1},
                          Case{"drude", "lor2", "float64", 3}, Case{"drude", "lor2", "float32", 3}}) {
        INFO(c.lo << " to " << c.hi << ", " << c.precision);
        const Project with = guide(c.lo, c.hi, c.precision);
        Project without = with;
        without.extra.erase("design");
        const CompiledProject a = compile_project(with, "guide.glproj");
        const CompiledProject b = compile_project(without, "guide.glproj");
        const adjoint::DesignRegion region = region_of(with, a.scene);
        CHECK(region.medium_min.poles.size() + region.medium_max.poles.size() == c.poles);
        const std::size_t allocated = test::design_bytes_allocated(a.scene, region, 2, with.run.precision);
        const std::size_t sites = adjoint::map_design(a.scene, region).size();
        INFO("sites " << sites << ", design_dft_bytes " << a.design_dft_bytes << ", allocated " << allocated);
        CHECK(a.design_dft_bytes == allocated);
        CHECK(a.memory_bytes - b.memory_bytes == allocated);
        // the DFT fields alone (the estimate before the pole state was counted) fall short
        // by the pole sets and rows: at least P (5 x 8 + 5 R) per site
        const std::size_t R = with.run.precision == Precision::Float32 ? 4 : 8;
        CHECK(allocated >= sites * (48 * 2 + 160) + sites * c.poles * 5 * (8 + R));
    }
}
