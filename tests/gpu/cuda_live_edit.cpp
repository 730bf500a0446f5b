// Live edit on the CUDA engine (engine.hpp Engine::update_materials): an engine whose
// material map and table are replaced mid-run steps like a CUDA engine built with the
// edited scene and fed the same fields (float64: identical kernels, so equal to rounding
// of the same operations; float32 within 1e-6 of the field scale), including a table that
// outgrows its device buffer (the captured step graph is rebuilt) and a lossy edit; the
// CPU engine given the same edit agrees. Refused updates throw std::invalid_argument.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "golightly/engine.hpp"
#include "golightly/project.hpp"  // to_string(Polarization), to_string(Precision)
#include "golightly/scene.hpp"
#include "golightly/units.hpp"
#include "test_scenes.hpp"

using namespace golightly;

namespace {

template <class F>
Scene make_scene(Polarization pol, F eps_sigma) {
    // the shared builder (tests/common/test_scenes.hpp) with eps / sigma from eps_sigma(i, j)
    test::SceneSpec spec;
    spec.polarization = pol;
    spec.nx = 96;
    spec.ny = 80;
    spec.dx_um = 0.04;
    spec.courant = 0.5;
    spec.pml_cells = 10;
    spec.pml_grading_order = 3.0;
    spec.pml_target_reflection = 1e-8;
    spec.eps_r = [&](Component, int i, int j) { return eps_sigma(i, j).first; };
    spec.sigma_s_per_m = [&](Component, int i, int j) { return eps_sigma(i, j).second; };
    return test::make_scene(spec);
}

std::vector<Component> components(Polarization pol) {
    auto c = electric_components(pol);
    for (Component h : magnetic_components(pol)) c.push_back(h);
    return c;
}

void randomize(Engine& e, Polarization pol, std::size_t n) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    for (Component c : components(pol)) {
        std::vector<double> v(n);
        for (double& x : v) x = u(rng);
        e.set_field(c, v);
    }
}

double max_diff(Engine& a, Engine& b, Polarization pol) {
    double d = 0;
    std::vector<double> va, vb;
    for (Component c : components(pol)) {
        a.get_field(c, va);
        b.get_field(c, vb);
        for (std::size_t k = 0; k < va.size(); ++k) d = std::max(d, std::abs(va[k] - vb[k]));
    }
    return d;
}

}  // namespace

TEST_CASE("CUDA live edit: updated engine equals one built with the edited materials", "[cuda][live_edit][sanitize]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        for (Precision prec : {Precision::Float64, Precision::Float32}) {
            INFO(to_string(pol) << " " << to_string(prec));
            const Scene a = make_scene(pol, [](int i, int j) {
                return std::pair<double, double>{(i >= 30 && i < 40 && j >= 20 && j < 60) ? 4.0 : 1.0, 0.0};
            });
            // B: the block moved, a lossy patch, and a graded region with many table entries
            // (more than A's table buffer holds: the device table is reallocated).
            const Scene b = make_scene(pol, [](int i, int j) {
                if (i >= 50 && i < 60 && j >= 20 && j < 60) return std::pair<double, double>{4.0, 0.0};
                if (i >= 15 && i < 25 && j >= 15 && j < 25) return std::pair<double, double>{2.0, 3.0e4};
                if (j >= 62 && j < 68) return std::pair<double, double>{1.0 + 0.05 * i, 0.0};
                return std::pair<double, double>{1.0, 0.0};
            });
            REQUIRE(b.table.size() > a.table.size());
            auto edited = make_cuda_engine(a, prec);
            randomize(*edited, pol, a.cells());
            edited->step(70);  // graph launches and single steps; then the edit mid-run
            edited->update_materials(b);
            CHECK(edited->steps_done() == 70);
            auto edited0 = make_cuda_engine(a, prec);
            auto fresh0 = make_cuda_engine(b, prec);
            randomize(*edited0, pol, a.cells());
            randomize(*fresh0, pol, a.cells());
            edited0->update_materials(b);
            edited0->step(100);
            fresh0->step(100);
            const double tol = prec == Precision::Float64 ? 1e-12 : 1e-5;
            CHECK(max_diff(*edited0, *fresh0, pol) <= tol);
            CHECK(edited0->field_energy() == Approx(fresh0->field_energy()).epsilon(1e-6));
            // the CPU engine with the same edit agrees
            auto cpu = make_cpu_engine(a, prec, 1);
            randomize(*cpu, pol, a.cells());
            cpu->update_materials(b);
            cpu->step(100);
            CHECK(max_diff(*edited0, *cpu, pol) <= (prec == Precision::Float64 ? 1e-10 : 1e-4));
            // and the edit mattered
            auto unedited = make_cuda_engine(a, prec);
            randomize(*unedited, pol, a.cells());
            unedited->step(100);
            CHECK(max_diff(*edited0, *unedited, pol) > 1e-3);
            // mid-run (psi kept, graph rebuilt for the reallocated table): as the CPU engine
            // given the same edit at the same step
            edited->step(100);
            CHECK(edited->fields_finite());
            auto cpu_mid = make_cpu_engine(a, prec, 1);
            randomize(*cpu_mid, pol, a.cells());
            cpu_mid->step(70);
            cpu_mid->update_materials(b);
            cpu_mid->step(100);
            CHECK(max_diff(*edited, *cpu_mid, pol) <= (prec == Precision::Float64 ? 1e-10 : 1e-4));
        }
    }
}

TEST_CASE("CUDA live edit: refused updates throw", "[cuda][live_edit]") {
    const Scene a = make_scene(Polarization::TMz, [](int, int) { return std::pair<double, double>{1.0, 0.0}; });
    auto e = make_cuda_engine(a, Precision::Float32);
    Scene g = a;
    g.nx += 1;
    CHECK_THROWS_AS(e->update_materials(g), std::invalid_argument);
    Scene d = a;
    d.pole_sets.push_back(PoleSet{{PoleCoeffs{1.9, -0.95, 0.01}}});
    d.dispersive[2].cells = {500};
    d.dispersive[2].pole_set = {0};
    d.dispersive[2].weight = {1.0};
    CHECK_THROWS_AS(e->update_materials(d), std::invalid_argument);
    e->step(40);
    CHECK(e->fields_finite());
}
