// CUDA vs CPU on TEz scenes with the sub-pixel tensor coupling (scene.hpp "Anisotropic
// cells"): an eps = 12 disc and a rotated eps = 4 bar, periodic along x (couplings wrap)
// and PML along y, random initial fields plus a pulsed Hz source; fields and DFT compared
// after 2000 steps, float32 and float64.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/project.hpp"

using namespace golightly;

namespace {

Project tensor_project() {
    Project p;
    p.name = "tensor";
    p.domain.dimensions = 2;
    p.domain.size = {2.0, 2.0, 0.0};
    p.domain.cell_size = 0.04;
    p.domain.polarization = Polarization::TEz;
    p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Pml, BoundaryKind::Pml};
    Material si;
    si.id = "si";
    si.epsilon_inf = 12.0;
    Material low;
    low.id = "low";
    low.epsilon_inf = 4.0;
    p.materials = {si, low};
    Layer bar;
    bar.name = "bar";
    bar.material = "low";
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {-0.3, 0.75};
    r.max = {2.3, 0.95};
    r.rotation_deg = 17;
    bar.shapes.push_back(r);
    Layer disc;
    disc.name = "disc";
    disc.material = "si";
    Shape e;
    e.type = ShapeType::Ellipse;
    e.center = {1.013, 1.087};
    e.radii = {0.45, 0.45};
    disc.shapes.push_back(e);
    p.layers = {bar, disc};
    Source src;
    src.name = "kick";
    src.type = SourceType::Point;
    src.at = {0.93, 1.12};
    src.component = Component::Hz;
    src.waveform.type = WaveformType::GaussianPulse;
    src.waveform.wavelength_center = 1.5;
    src.waveform.wavelength_span = 0.7;
    p.sources.push_back(src);
    Monitor m;
    m.name = "probe";
    m.type = MonitorType::Time;
    Shape probe;
    probe.type = ShapeType::Ellipse;
    probe.center = {1.0, 1.1};
    probe.radii = {0.2, 0.2};
    m.shape = probe;
    m.component = Component::Ex;
    m.reduce = Reduce::Mean;
    p.monitors.push_back(m);
    p.run.courant = 0.5;
    return p;
}

double rel_diff(const std::vector<double>& a, const std::vector<double>& b, bool& finite) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!std::isfinite(b[i])) finite = false;
        num += (a[i] - b[i]) * (a[i] - b[i]);
        den += a[i] * a[i];
    }
    return std::sqrt(num / std::max(den, 1e-300));
}

void compare(Precision prec, double tol) {
    const CompiledProject c = compile_project(tensor_project(), "tensor");
    REQUIRE(c.scene.is_anisotropic());
    auto cpu = make_cpu_engine(c.scene, prec, 0);
    auto gpu = make_cuda_engine(c.scene, prec);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (Component comp : {Component::Ex, Component::Ey, Component::Hz}) {
        std::vector<double> v(c.scene.cells());
        for (double& x : v) x = u(rng);
        cpu->set_field(comp, v);
        gpu->set_field(comp, v);
    }
    cpu->step(1000);
    gpu->step(1000);
    cpu->step(1000);
    gpu->step(1000);
    for (Component comp : {Component::Ex, Component::Ey, Component::Hz}) {
        std::vector<double> a, b(c.scene.cells(), std::numeric_limits<double>::quiet_NaN());
        cpu->get_field(comp, a);
        gpu->get_field(comp, b);
        bool finite = true;
        const double r = rel_diff(a, b, finite);
        INFO(to_string(prec) << " " << to_string(comp) << " rel diff " << r);
        CHECK(finite);
        CHECK(r < tol);
        // the coupled sites carry field (the comparison covers them)
        if (comp != Component::Hz) {
            double on_list = 0;
            for (int k : c.scene.anisotropic.cells[int(comp)]) on_list = std::max(on_list, std::abs(a[k]));
            CHECK(on_list > 0);
        }
    }
    const auto x = cpu->time_samples(0), y = gpu->time_samples(0);
    REQUIRE(x.size() == y.size());
    bool finite = true;
    CHECK(rel_diff(x, y, finite) < tol);
    CHECK(finite);
}

}  // namespace

TEST_CASE("CUDA TEz sub-pixel tensor coupling matches the CPU engine", "[gpu][cuda][subpixel][sanitize]") {
    compare(Precision::Float32, 1e-4);
    compare(Precision::Float64, 1e-10);
}
