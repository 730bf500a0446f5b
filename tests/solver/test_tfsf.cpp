// TF/SF plane waves (scene.hpp "TF/SF", cpu_tfsf.hpp): with an empty total-field box the
// scattered-field region stays empty to rounding (2D TMz, 2D TEz, 3D, both directions,
// float64 and float32); the incident wave inside the box has the waveform's amplitude,
// travels in the direction of `sign` at c; a scatterer inside gives a scattered field; bad
// boxes are refused.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

Scene vacuum3(int nx, int ny, int nz, int pml) {
    Scene s;
    s.dimensions = 3;
    s.nx = nx; s.ny = ny; s.nz = nz;
    s.dx_um = 0.02;
    s.courant = 0.5;
    s.dt_s = s.courant * s.dx_um * units::um / units::c0;
    for (int a = 0; a < 3; ++a) {
        s.boundary[a] = BoundaryKind::Pml;
        s.pml_lo[a] = s.pml_hi[a] = pml;
    }
    std::vector<std::vector<double>> eps(3, std::vector<double>(s.cells(), 1.0)), sig(3);
    build_material_table(s, eps, sig);
    build_cpml(s, 3.0, 1e-8);
    return s;
}

/// Twice the Yee offset of component c along axis a (E_c staggered along c, H_c along the others).
int off2(int c, int a) { return c < 3 ? (a == c ? 1 : 0) : (a == c - 3 ? 0 : 1); }

struct Energies {
    double tf = 0, sf = 0;
};

/// Sum of squares of every field node inside (tf) and outside (sf) the total-field box, by
/// the node rule of scene.hpp (lo <= position <= hi on every axis; 2D: x and y).
Energies split_energy(Engine& e, const Scene& s, const TfsfSource& t) {
    const int dims = s.dimensions == 3 ? 3 : 2;
    std::vector<Component> comps;
    if (dims == 3) {
        for (int c = 0; c < 6; ++c) comps.push_back(Component(c));
    } else {
        comps = electric_components(s.polarization);
        for (Component c : magnetic_components(s.polarization)) comps.push_back(c);
    }
    Energies out;
    std::vector<double> f;
    for (Component comp : comps) {
        const int c = int(comp);
        e.get_field(comp, f);
        for (int k = 0; k < s.nz; ++k)
            for (int j = 0; j < s.ny; ++j)
                for (int i = 0; i < s.nx; ++i) {
                    const int idx[3] = {i, j, k};
                    bool in = true;
                    for (int a = 0; a < dims; ++a) {
                        const long p2 = 2L * idx[a] + off2(c, a);
                        in = in && p2 >= 2 * t.lo[a] && p2 <= 2 * t.hi[a];
                    }
                    const double v = f[(std::size_t(k) * s.ny + j) * s.nx + i];
                    (in ? out.tf : out.sf) += v * v;
                }
    }
    return out;
}

/// Runs `steps` steps, checking every `every`; returns max sf / max tf.
double leakage(Engine& e, const Scene& s, int steps, int every, double* tf_max_out = nullptr) {
    double tf_max = 0, sf_max = 0;
    for (int n = 0; n < steps; n += every) {
        e.step(every);
        const Energies en = split_energy(e, s, s.tfsf[0]);
        tf_max = std::max(tf_max, en.tf);
        sf_max = std::max(sf_max, en.sf);
    }
    if (tf_max_out) *tf_max_out = tf_max;
    return sf_max / tf_max;
}

TfsfSource plane(int axis, int sign, Component e, std::array<std::int64_t, 3> lo, std::array<std::int64_t, 3> hi,
                 double f0) {
    TfsfSource t;
    t.axis = axis;
    t.sign = sign;
    t.e_component = e;
    t.lo = lo;
    t.hi = hi;
    t.waveform = gaussian_pulse(f0, 1.0 / (2 * units::pi * f0));
    return t;
}

}  // namespace

TEST_CASE("TF/SF 2D: an empty total-field box leaks nothing into the scattered-field region (TMz, TEz, both "
          "directions)", "[tfsf][physics]") {
    struct Case {
        Polarization pol;
        int axis, sign;
        Component e;
    };
    for (const Case& c : {Case{Polarization::TMz, 0, 1, Component::Ez}, Case{Polarization::TMz, 1, -1, Component::Ez},
                          Case{Polarization::TEz, 0, -1, Component::Ey}, Case{Polarization::TEz, 1, 1, Component::Ex}}) {
        Scene s = make_vacuum_pml_scene(80, 72, c.pol, 10);
        const double f0 = units::c0 / (20 * s.dx_um * units::um);
        s.tfsf.push_back(plane(c.axis, c.sign, c.e, {22, 18, 0}, {57, 51, 0}, f0));
        for (Precision prec : {Precision::Float64, Precision::Float32}) {
            auto e = make_cpu_engine(s, prec, 1);
            double tf = 0;
            const double r = leakage(*e, s, 360, 20, &tf);
            std::printf("[tfsf] 2D %s axis %d sign %+d %s: sf/tf energy %.3e\n",
                        c.pol == Polarization::TMz ? "TMz" : "TEz", c.axis, c.sign,
                        prec == Precision::Float64 ? "float64" : "float32", r);
            INFO("axis " << c.axis << " sign " << c.sign);
            REQUIRE(tf > 1.0);  // the pulse did enter the box (amplitude 1: tens of cells of E^2 + H^2 ~ 1)
            CHECK(r < (prec == Precision::Float64 ? 1e-20 : 1e-9));
        }
    }
}

TEST_CASE("TF/SF 3D: an empty total-field box leaks nothing, the incident pulse inside has the waveform's "
          "amplitude and moves along sign at c", "[tfsf][physics]") {
    struct Case {
        int axis, sign;
        Component e;
    };
    for (const Case& c : {Case{2, 1, Component::Ex}, Case{0, -1, Component::Ez}, Case{1, 1, Component::Ez}}) {
        Scene s = vacuum3(44, 40, 46, 8);
        const double f0 = units::c0 / (16 * s.dx_um * units::um);
        s.tfsf.push_back(plane(c.axis, c.sign, c.e, {13, 12, 14}, {30, 27, 31}, f0));
        // Probes of the E component at two points of the box on the propagation axis.
        std::array<int, 3> p1 = {20, 19, 22}, p2 = p1;
        p1[c.axis] = int(s.tfsf[0].lo[c.axis]) + 2;
        p2[c.axis] = int(s.tfsf[0].hi[c.axis]) - 2;
        for (auto p : {p1, p2}) {
            TimeProbe pr;
            pr.component = c.e;
            pr.cells = {(CellIndex(p[2]) * s.ny + p[1]) * s.nx + p[0]};
            pr.weights = {1.0};
            s.time_probes.push_back(pr);
        }
        auto e = make_cpu_engine(s, Precision::Float64, 2);
        double tf = 0;
        const double r = leakage(*e, s, 180, 20, &tf);
        std::printf("[tfsf] 3D axis %d sign %+d %s: sf/tf energy %.3e\n", c.axis, c.sign, component_name(c.e), r);
        INFO("axis " << c.axis << " sign " << c.sign);
        REQUIRE(tf > 1.0);
        CHECK(r < 1e-20);
        // Peak times at the two probes: the pulse reaches the lo-side probe first for sign +1.
        const auto a = e->time_samples(0), b = e->time_samples(1);
        auto peak = [](const std::vector<double>& v, double& amp) {
            std::size_t at = 0;
            amp = 0;
            for (std::size_t q = 0; q < v.size(); ++q)
                if (std::abs(v[q]) > amp) amp = std::abs(v[q]), at = q;
            return double(at);
        };
        double amp_a, amp_b;
        const double ta = peak(a, amp_a), tb = peak(b, amp_b);
        const double cells = double(p2[c.axis] - p1[c.axis]);
        const double expected_steps = cells / s.courant;  // c0 dt = S dx
        const double travel = c.sign > 0 ? tb - ta : ta - tb;
        std::printf("[tfsf]   peaks %.4f, %.4f; travel %.0f steps (c: %.0f)\n", amp_a, amp_b, travel, expected_steps);
        CHECK(std::abs(travel - expected_steps) <= 0.08 * expected_steps);  // 16 cells per wavelength: slow by ~1 %
        CHECK(amp_a == Approx(1.0).epsilon(0.05));
        CHECK(amp_b == Approx(1.0).epsilon(0.05));
    }
}

TEST_CASE("TF/SF 3D: a dielectric cube inside the box scatters, float32 leaks little, bad boxes are refused",
          "[tfsf]") {
    Scene s = vacuum3(36, 34, 38, 6);
    const double f0 = units::c0 / (12 * s.dx_um * units::um);
    s.tfsf.push_back(plane(0, 1, Component::Ey, {10, 9, 11}, {25, 24, 26}, f0));
    {
        auto e = make_cpu_engine(s, Precision::Float32, 1);
        const double r = leakage(*e, s, 140, 20);
        std::printf("[tfsf] 3D float32: sf/tf energy %.3e\n", r);
        CHECK(r < 1e-9);
    }
    Scene d = s;
    std::vector<std::vector<double>> eps(3, std::vector<double>(d.cells(), 1.0)), sig(3);
    for (int c = 0; c < 3; ++c)
        for (int k = 16; k < 21; ++k)
            for (int j = 15; j < 19; ++j)
                for (int i = 15; i < 20; ++i) eps[c][(std::size_t(k) * d.ny + j) * d.nx + i] = 4.0;
    build_material_table(d, eps, sig);
    {
        auto e = make_cpu_engine(d, Precision::Float64, 1);
        const double r = leakage(*e, d, 140, 20);
        std::printf("[tfsf] 3D with a dielectric cube: sf/tf energy %.3e\n", r);
        CHECK(r > 1e-4);
    }
    Scene bad = s;
    bad.tfsf[0].lo[1] = 5;  // reaches the PML (6 cells)
    CHECK_THROWS_AS(make_cpu_engine(bad, Precision::Float64, 1), RunError);
    bad = s;
    bad.tfsf[0].e_component = Component::Ex;  // along the propagation axis
    CHECK_THROWS_AS(make_cpu_engine(bad, Precision::Float64, 1), RunError);
    bad = s;
    bad.tfsf[0].sign = 0;
    CHECK_THROWS_AS(make_cpu_engine(bad, Precision::Float64, 1), RunError);
}
