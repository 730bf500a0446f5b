// CUDA vs CPU on dispersive scenes (6-pole Rakic gold, scene.hpp "Dispersive cells"):
// the compiled gold-grating example in TEz and the same structure in TMz, float32 and
// float64, fields compared cell by cell after a pulse has entered the metal.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/project.hpp"

using namespace golightly;

namespace {

double rel_diff(const std::vector<double>& a, const std::vector<double>& b, bool& all_finite) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!std::isfinite(b[i])) all_finite = false;
        num += (a[i] - b[i]) * (a[i] - b[i]);
        den += a[i] * a[i];
    }
    return std::sqrt(num / std::max(den, 1e-300));
}

void compare(Polarization pol, Precision prec, double tol) {
    Project p = load_project(std::string(GOLIGHTLY_SOURCE_DIR) + "/examples/gold_grating.glproj");
    p.domain.polarization = pol;
    for (auto& s : p.sources) s.component = pol == Polarization::TMz ? Component::Ez : Component::Ey;
    for (auto& m : p.monitors)
        if (m.type == MonitorType::Time) m.component = pol == Polarization::TMz ? Component::Ez : Component::Ey;
    const CompiledProject c = compile_project(p, "gold_grating.glproj");
    REQUIRE(c.scene.is_dispersive());
    auto cpu = make_cpu_engine(c.scene, prec, 0);
    auto gpu = make_cuda_engine(c.scene, prec);
    const int steps = 1500;  // the pulse reaches the film (x = 1.0 um from the source) well before
    cpu->step(steps);
    gpu->step(steps);
    for (Component comp : electric_components(pol)) {
        std::vector<double> a, b(c.scene.cells(), std::numeric_limits<double>::quiet_NaN());
        cpu->get_field(comp, a);
        gpu->get_field(comp, b);
        bool finite = true;
        const double r = rel_diff(a, b, finite);
        INFO(to_string(pol) << " " << to_string(prec) << " " << to_string(comp) << " rel diff " << r);
        CHECK(finite);
        CHECK(r < tol);
        // The field inside the gold is not zero (the poles are active there).
        double inside = 0;
        for (int k : c.scene.dispersive[int(comp)].cells) inside = std::max(inside, std::abs(a[k]));
        CHECK(inside > 0);
    }
    for (Component comp : magnetic_components(pol)) {
        std::vector<double> a, b(c.scene.cells(), std::numeric_limits<double>::quiet_NaN());
        cpu->get_field(comp, a);
        gpu->get_field(comp, b);
        bool finite = true;
        CHECK(rel_diff(a, b, finite) < tol);
        CHECK(finite);
    }
    for (std::size_t set = 0; set < c.scene.dft_sets.size(); ++set) {
        const auto x = cpu->dft(int(set)), y = gpu->dft(int(set));
        double num = 0, den = 0;
        for (std::size_t i = 0; i < x.size(); ++i) { num += std::norm(x[i] - y[i]); den += std::norm(x[i]); }
        CHECK(std::sqrt(num / std::max(den, 1e-300)) < tol);
    }
}

}  // namespace

TEST_CASE("CUDA dispersive cells match the CPU engine (gold, 6 poles)", "[dispersive][sanitize]") {
    compare(Polarization::TEz, Precision::Float32, 1e-4);
    compare(Polarization::TMz, Precision::Float32, 1e-4);
    compare(Polarization::TEz, Precision::Float64, 1e-10);
    compare(Polarization::TMz, Precision::Float64, 1e-10);
}
