// Dispersive materials (multi-pole Lorentz / Drude, scene.hpp "Dispersive cells"):
// discrete eps(w) against the analytic model, a 1-cell periodic simulation against the
// z-transform of the documented recursion, zero-strength poles, float32/float64,
// stability (lossless Lorentz cavity, metal/dielectric averaged boundary), reflectance of
// half-spaces against Fresnel with n = sqrt(eps(w)), compile warnings, material library.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

#include "golightly/compile.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/engine.hpp"
#include "golightly/material_library.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

using namespace golightly;
using cd = std::complex<double>;

namespace {

double omega_of_um(double wavelength_um) { return 2 * units::pi * units::c0 / (wavelength_um * 1e-6); }

Pole lorentz(double wp, double w0, double g) {
    Pole p;
    p.kind = PoleKind::Lorentz;
    p.omega_p = wp;
    p.omega_0 = w0;
    p.gamma = g;
    return p;
}
Pole drude(double wp, double g) {
    Pole p;
    p.kind = PoleKind::Drude;
    p.omega_p = wp;
    p.gamma = g;
    return p;
}

/// Rakic 1998 LD gold (the bundled library's "au"), found through the library.
Material library_material(const std::string& id) {
    for (const LibraryMaterial& lm : load_material_library(bundled_material_library_path()))
        if (lm.material.id == id) return lm.material;
    FAIL("material " << id << " not in the bundled library");
    return {};
}

/// nx x ny periodic box filled with `background`, optional disk of `disk` at the centre.
Project box_project(Polarization pol, int n_cells, double dx, const Material& background, const Material* disk,
                    double disk_radius_um, BoundaryKind bc = BoundaryKind::Periodic) {
    Project p;
    p.name = "box";
    p.domain.dimensions = 2;
    p.domain.size = {n_cells * dx, n_cells * dx, 0.0};
    p.domain.cell_size = dx;
    p.domain.polarization = pol;
    p.domain.boundaries = {bc, bc, BoundaryKind::Pml};
    p.materials.push_back(background);
    p.domain.background = background.id;
    if (disk) {
        p.materials.push_back(*disk);
        Layer l;
        l.name = "disk";
        l.material = disk->id;
        Shape e;
        e.type = ShapeType::Ellipse;
        e.center = {0.5 * n_cells * dx, 0.5 * n_cells * dx};
        e.radii = {disk_radius_um, disk_radius_um};
        l.shapes.push_back(e);
        p.layers.push_back(l);
    }
    p.run.courant = 0.5;
    p.run.spectrum.wavelength_min = 0.5;
    p.run.spectrum.wavelength_max = 1.0;
    p.run.spectrum.points = 3;
    p.run.stop.max_time_fs = 10;
    return p;
}

void random_fields(Engine& e, const Scene& s, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    for (Component c : electric_components(s.polarization)) {
        std::vector<double> v(s.cells());
        for (auto& x : v) x = u(rng);
        e.set_field(c, v);
    }
    for (Component c : magnetic_components(s.polarization)) {
        std::vector<double> v(s.cells());
        for (auto& x : v) x = u(rng);
        e.set_field(c, v);
    }
}

}  // namespace

// -------------------------------------------------------------------------------- eps(w)

TEST_CASE("dispersion: discrete eps(w) from the compiled ADE coefficients matches the model to O((w dt)^2)",
          "[dispersive][physics]") {
    // Per pole kind: the coefficients the compiler puts in the scene, turned into eps_d(w)
    // by discrete_epsilon (z-transform of the recursion), against analytic_epsilon
    // (B-CALM eq. 1). Band 1.2 - 2.0 um, dx = 0.01 um, S = 0.5 (w dt ~ 0.02). The relative
    // error of the susceptibility must be < 1e-3 and fall by 4 (3..5) when dt halves.
    const double w0 = omega_of_um(1.55);
    Material lor;
    lor.id = "lor";
    lor.epsilon_inf = 2.0;
    lor.poles = {lorentz(w0, w0, 0.1 * w0)};
    Material dru;
    dru.id = "dru";
    dru.epsilon_inf = 1.0;
    dru.poles = {drude(1.37e16, 1.0e14)};
    Material cond;
    cond.id = "cond";
    cond.epsilon_inf = 4.0;
    cond.conductivity = 5000.0;
    cond.poles = {lorentz(0.5 * w0, 2 * w0, 0.3 * w0)};
    const Material au = library_material("au");
    for (const Material* m : std::vector<const Material*>{&lor, &dru, &cond, &au}) {
        double err_at[2] = {0, 0};
        for (int h = 0; h < 2; ++h) {
            const double dx = h == 0 ? 0.01 : 0.005;
            const Project p = box_project(Polarization::TMz, 4, dx, *m, nullptr, 0);
            const CompiledProject c = compile_project(p, "eps");
            const Scene& s = c.scene;
            REQUIRE(s.pole_sets.size() == 1);
            REQUIRE(s.dispersive[2].cells.size() == 16);
            CHECK(s.dispersive[2].weight[0] == 1.0);
            const EUpdateCoeffs& co = s.table[s.material_index[2][0]];
            CHECK(co.eps_r == m->epsilon_inf);
            for (int q = 0; q <= 20; ++q) {
                const double w = omega_of_um(1.2 + 0.04 * q);
                const cd ea = analytic_epsilon(*m, w);
                const cd ed = discrete_epsilon(co.eps_r, co.sigma, s.pole_sets[0], 1.0, w, s.dt_s);
                const double rel = std::abs(ed - ea) / std::abs(ea - m->epsilon_inf);
                INFO(m->id << " lambda " << 1.2 + 0.04 * q << " um: analytic " << ea << ", discrete " << ed);
                CHECK(rel < 1e-3);
                err_at[h] = std::max(err_at[h], rel);
            }
        }
        const double ratio = err_at[0] / err_at[1];
        INFO(m->id << ": max relative error " << err_at[0] << " (dx 0.01) / " << err_at[1] << " (dx 0.005)");
        CHECK(ratio > 3.0);
        CHECK(ratio < 5.0);
        std::printf("eps_d vs eps %s: max rel. error %.2e (dt), %.2e (dt/2), ratio %.2f\n", m->id.c_str(), err_at[0],
                    err_at[1], ratio);
    }
    // Gold (Rakic LD) at 600 nm: about -8.0 + 2.06i (Rakic's fit; Johnson & Christy -9.4 + 1.5i).
    const cd e600 = analytic_epsilon(au, omega_of_um(0.6));
    CHECK(e600.real() == Approx(-7.988).margin(0.01));
    CHECK(e600.imag() == Approx(2.062).margin(0.01));
}

TEST_CASE("dispersion: a 1-cell periodic simulation follows the z-transform of the ADE", "[dispersive][physics]") {
    // Uniform field in a periodic box: curl H = 0, so D = eps_inf E + sum P stays at its
    // initial value D0 = eps_inf E0 (P = 0 at the start; sigma = 0). The generating
    // function E(z) = sum_n E_n z^n then equals D0 / ((1 - z) eps_d(z)) with
    // eps_d(z) = eps_inf + sum c3 / (1/z - c1 - c2 z) (dispersion.hpp), z = r e^{i w dt}.
    const double w0 = omega_of_um(1.0);
    Material m;
    m.id = "two_poles";
    m.epsilon_inf = 1.5;
    m.poles = {lorentz(0.8 * w0, w0, 0.2 * w0), drude(1.2 * w0, 0.5 * w0)};
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const Project p = box_project(pol, 4, 0.02, m, nullptr, 0);
        const Scene s = compile_project(p, "cell").scene;
        auto eng = make_cpu_engine(s, Precision::Float64, 1);
        const Component ec = pol == Polarization::TMz ? Component::Ez : Component::Ex;
        eng->set_field(ec, std::vector<double>(s.cells(), 1.0));
        const int n_steps = 6000;
        std::vector<double> e_n{1.0};
        std::vector<double> f;
        for (int n = 0; n < n_steps; ++n) {
            eng->step(1);
            eng->get_field(ec, f);
            for (double v : f) REQUIRE(v == Approx(f[0]).epsilon(1e-12));
            e_n.push_back(f[0]);
        }
        const double r = 0.995;
        for (double lam : {0.6, 1.0, 1.7, 3.0}) {
            const double wdt = omega_of_um(lam) * s.dt_s;
            const cd z = r * std::exp(cd(0, wdt));
            cd sum = 0, zn = 1;
            for (double v : e_n) {
                sum += v * zn;
                zn *= z;
            }
            cd eps = m.epsilon_inf;
            for (const PoleCoeffs& c : s.pole_sets[0].poles) eps += c.c3 / (1.0 / z - c.c1 - c.c2 * z);
            const cd expect = m.epsilon_inf / ((1.0 - z) * eps);
            INFO("lambda " << lam << ": engine " << sum << ", z-transform " << expect);
            CHECK(std::abs(sum - expect) < 1e-8 * std::abs(expect));
        }
        // E relaxes: the Lorentz pole screens, the Drude pole drives E to 0 (D0 held by P).
        CHECK(std::abs(e_n.back()) < 1e-3);
    }
}

// ------------------------------------------------------------------- engine equivalences

TEST_CASE("dispersion: poles of zero strength give the fields of the non-dispersive engine", "[dispersive][physics]") {
    Material bg;
    bg.id = "glass";
    bg.epsilon_inf = 2.25;
    Material metal;
    metal.id = "m";
    metal.epsilon_inf = 3.0;
    metal.conductivity = 100.0;
    Material zero = metal;
    zero.poles = {drude(0.0, 1e14), lorentz(0.0, 2e15, 1e14)};
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const Scene a = compile_project(box_project(pol, 40, 0.02, bg, &metal, 0.23), "plain").scene;
        const Scene b = compile_project(box_project(pol, 40, 0.02, bg, &zero, 0.23), "zero").scene;
        REQUIRE(!a.is_dispersive());
        REQUIRE(b.is_dispersive());
        auto ea = make_cpu_engine(a, Precision::Float64, 2);
        auto eb = make_cpu_engine(b, Precision::Float64, 2);
        random_fields(*ea, a, 7);
        random_fields(*eb, b, 7);
        ea->step(300);
        eb->step(300);
        for (Component c : electric_components(pol)) {
            std::vector<double> fa, fb;
            ea->get_field(c, fa);
            eb->get_field(c, fb);
            double d = 0;
            for (std::size_t k = 0; k < fa.size(); ++k) d = std::max(d, std::abs(fa[k] - fb[k]));
            CHECK(d <= 1e-13);
        }
    }
}

TEST_CASE("dispersion: float32 and float64 agree with gold", "[dispersive][physics]") {
    Material bg;
    bg.id = "glass";
    bg.epsilon_inf = 2.1;
    const Material au = library_material("au");
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const Scene s = compile_project(box_project(pol, 48, 0.01, bg, &au, 0.15), "f32").scene;
        REQUIRE(s.is_dispersive());
        auto e32 = make_cpu_engine(s, Precision::Float32, 2);
        auto e64 = make_cpu_engine(s, Precision::Float64, 1);
        random_fields(*e32, s, 3);
        random_fields(*e64, s, 3);
        e32->step(400);
        e64->step(400);
        for (Component c : electric_components(pol)) {
            std::vector<double> f32, f64;
            e32->get_field(c, f32);
            e64->get_field(c, f64);
            double d = 0, m = 0;
            for (std::size_t k = 0; k < f32.size(); ++k) {
                d = std::max(d, std::abs(f32[k] - f64[k]));
                m = std::max(m, std::abs(f64[k]));
            }
            INFO(to_string(c) << ": max |f32 - f64| " << d << " of max " << m);
            CHECK(m > 1e-3);
            CHECK(d < 2e-4 * m);
        }
    }
}

// ------------------------------------------------------------------------------ stability

TEST_CASE("dispersion: lossless Lorentz medium in a PEC cavity: energy stays bounded", "[dispersive][physics]") {
    // gamma = 0: the discrete system conserves a quadratic energy, of which field_energy()
    // sees the field part (eps_inf E^2 + H^2). Over 20 000 steps its maximum must not grow.
    // The same cavity with a Drude pole of wp dt = 2.5 > 2 sqrt(eps_inf) must blow up
    // (shows that the check can fail), and amplification_factor agrees on both.
    const double dx = 0.02;
    const double dt = 0.5 * dx * 1e-6 / units::c0;
    Material lor;
    lor.id = "lor";
    lor.epsilon_inf = 1.5;
    lor.poles = {lorentz(0.6 / dt, 0.3 / dt, 0.0), lorentz(0.2 / dt, 0.05 / dt, 0.0)};
    Material bad;
    bad.id = "bad";
    bad.epsilon_inf = 1.0;
    bad.poles = {drude(2.5 / dt, 0.0)};
    for (const Material* m : std::vector<const Material*>{&lor, &bad}) {
        const CompiledProject c = compile_project(box_project(Polarization::TMz, 24, dx, *m, nullptr, 0, BoundaryKind::Pec), "cav");
        const Scene& s = c.scene;
        const double g = amplification_factor(m->epsilon_inf, 0, s.pole_sets[0], 1.0, s.courant, 2, s.dt_s);
        auto e = make_cpu_engine(s, Precision::Float64, 1);
        random_fields(*e, s, 11);
        double first = 0, last = 0;
        bool grew = false;  // overflow or a factor 1e3 above the first steps
        for (int n = 0; n < 20000; ++n) {
            e->step(1);
            const double en = e->field_energy();
            if (n < 2000) first = std::max(first, en);
            if (n >= 18000) last = std::max(last, en);
            if (!std::isfinite(en) || (n >= 2000 && en > 1e3 * first)) {
                grew = true;
                break;
            }
        }
        std::printf("cavity %s: amplification %.9f, max energy first 2000 steps %.4e, last 2000 %.4e\n",
                    m->id.c_str(), g, first, last);
        bool warned = false;
        for (const auto& w : c.warnings) warned |= w.find("UNSTABLE") != std::string::npos;
        if (m == &lor) {
            CHECK(g < 1.0 + 1e-6);
            CHECK(e->fields_finite());
            CHECK(!grew);
            CHECK(last < 1.5 * first);
            CHECK(!warned);
        } else {
            CHECK(g > 1.01);
            CHECK(grew);
            CHECK(warned);
        }
    }
}

TEST_CASE("dispersion: averaged gold/glass boundary runs 20000 steps without growth (TMz, TEz)",
          "[dispersive][physics]") {
    Material bg;
    bg.id = "glass";
    bg.epsilon_inf = 2.1;
    const Material au = library_material("au");
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        Project p = box_project(pol, 32, 0.01, bg, &au, 0.093);
        p.run.subpixel_averaging = true;
        // the scheme with the most partial weights (the default keeps them only where E is
        // tangential to the gold: none on this coarse disc in TEz); every scheme's weights
        // lie in [0, 1], so its stability covers the others
        p.run.subpixel_metal = SubpixelMetal::Fraction;
        const Scene s = compile_project(p, "mixed").scene;
        int partial = 0;
        for (Component c : electric_components(pol))
            for (double w : s.dispersive[static_cast<int>(c)].weight) partial += w < 0.999;
        REQUIRE(partial > 20);  // the boundary cells are mixed
        auto e = make_cpu_engine(s, Precision::Float32, 1);
        random_fields(*e, s, 5);
        const double e0 = e->field_energy();
        double emax = 0;
        for (int n = 0; n < 20; ++n) {
            e->step(1000);
            emax = std::max(emax, e->field_energy());
        }
        std::printf("gold/glass %s: energy start %.4e, max over 20000 steps %.4e, end %.4e\n",
                    to_string(pol).c_str(), e0, emax, e->field_energy());
        CHECK(e->fields_finite());
        CHECK(emax < e0);
    }
}

// ------------------------------------------------------------------------- reflectance

namespace {

/// Plane wave at normal incidence on a half-space of `m` from x = 1.505 um (dx = 0.005)
/// or 1.505 um (dx = 0.01); R against |(1-n)/(1+n)|^2, n = sqrt(eps(w)).
double half_space_reflectance(Polarization pol, const Material& m, double dx, double wl_min, double wl_max,
                              double wl_center, double wl_span) {
    const double ly = 4 * dx;
    Project p;
    p.name = "half-space";
    p.domain.dimensions = 2;
    p.domain.size = {3.0, ly, 0.0};
    p.domain.cell_size = dx;
    p.domain.polarization = pol;
    p.domain.boundaries = {BoundaryKind::Pml, BoundaryKind::Periodic, BoundaryKind::Pml};
    p.domain.pml.cells = 20;
    p.materials.push_back(m);
    Layer layer;
    layer.name = "half-space";
    layer.material = m.id;
    Shape half;
    half.type = ShapeType::Rectangle;
    half.min = {1.5 + 0.5 * dx, 0.0};  // between two rows of E samples: no mixed cells
    half.max = {3.0, ly};
    layer.shapes.push_back(half);
    p.layers.push_back(layer);
    Source s;
    s.name = "plane wave";
    s.type = SourceType::Line;
    s.from = {0.4, 0.0};
    s.to = {0.4, ly};
    s.component = pol == Polarization::TMz ? Component::Ez : Component::Ey;
    s.profile = SourceProfile::Uniform;
    s.waveform.type = WaveformType::GaussianPulse;
    s.waveform.wavelength_center = wl_center;
    s.waveform.wavelength_span = wl_span;
    p.sources.push_back(s);
    Monitor r;
    r.name = "R";
    r.type = MonitorType::Flux;
    r.from = {0.9, 0.0};
    r.to = {0.9, ly};
    r.direction = "-x";
    r.kind = "reflection";
    p.monitors.push_back(r);
    p.run.spectrum.wavelength_min = wl_min;
    p.run.spectrum.wavelength_max = wl_max;
    p.run.spectrum.points = 21;
    p.run.courant = 0.5;
    p.run.stop.decay_db = 60;
    p.run.stop.max_time_fs = 400;
    p.run.normalization.enabled = true;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    RunOptions opts;
    opts.backend = BackendChoice::Cpu;
    opts.threads = 2;
    const RunResult res = run_project(p, "half_space", opts);
    REQUIRE(res.normalized);
    REQUIRE(res.spectra.size() == 1);
    double max_dr = 0, r_min = 1, r_max = 0;
    for (std::size_t f = 0; f < res.frequency_hz.size(); ++f) {
        const double w = 2 * units::pi * res.frequency_hz[f];
        const cd n = std::sqrt(analytic_epsilon(m, w));
        const double R = std::norm((1.0 - n) / (1.0 + n));
        const double R_fd = res.spectra[0].normalized[f];
        INFO(m.id << " " << to_string(pol) << " lambda " << units::c0 / res.frequency_hz[f] * 1e6 << " um: R_fdtd "
                  << R_fd << ", R_fresnel " << R << " (n = " << n << ")");
        CHECK(R_fd == Approx(R).margin(0.01));
        max_dr = std::max(max_dr, std::abs(R_fd - R));
        r_min = std::min(r_min, R);
        r_max = std::max(r_max, R);
    }
    std::printf("half-space %s %s dx %.3g um: R_fresnel in [%.3f, %.3f], max|R_fdtd - R| %.2e (%lld steps, %.2f s)\n",
                m.id.c_str(), to_string(pol).c_str(), dx, r_min, r_max, max_dr, (long long)res.steps, res.wall_s);
    return r_max - r_min;
}

}  // namespace

TEST_CASE("dispersion: reflectance of a Lorentz half-space with its resonance in the band", "[dispersive][physics]") {
    // eps = 2 + w0^2 / (w0^2 - w^2 - i 0.1 w0 w), lambda0 = 1.55 um, band 1.2 - 2.0 um,
    // dx = 0.01 um (>= 30 cells per wavelength in the medium, |n| <= 3.4).
    const double w0 = omega_of_um(1.55);
    Material m;
    m.id = "lorentz";
    m.epsilon_inf = 2.0;
    m.poles = {lorentz(w0, w0, 0.1 * w0)};
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const double spread = half_space_reflectance(pol, m, 0.01, 1.2, 2.0, 1.55, 1.0);
        CHECK(spread > 0.2);  // R varies strongly across the resonance
    }
}

TEST_CASE("dispersion: reflectance of a gold half-space (6-pole Rakic model), 0.45 - 0.8 um", "[dispersive][physics]") {
    // dx = 0.005 um: ~5 cells per skin depth (~25 nm), w dt < 0.04.
    const Material au = library_material("au");
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const double spread = half_space_reflectance(pol, au, 0.005, 0.45, 0.8, 0.6, 0.45);
        CHECK(spread > 0.3);  // from ~0.4 at 450 nm to ~0.97 at 800 nm
    }
}

// ---------------------------------------------------------------------------- compile

TEST_CASE("dispersion: compile weights mixed cells and warns about unstable setups", "[dispersive]") {
    Material bg;
    bg.id = "glass";
    bg.epsilon_inf = 2.0;
    const Material au = library_material("au");
    // A rectangle over x in [0.03, 0.05] um, dx = 0.01: the Ez windows [x - dx/2, x + dx/2]
    // at x = 0.03 and 0.05 are half covered, the one at 0.04 fully (TMz, 10 rows).
    Project p = box_project(Polarization::TMz, 10, 0.01, bg, nullptr, 0);
    p.materials.push_back(au);
    Layer l;
    l.name = "bar";
    l.material = "au";
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {0.03, 0.0};
    r.max = {0.05, 1.0};
    l.shapes.push_back(r);
    p.layers.push_back(l);
    p.run.subpixel_averaging = true;
    const CompiledProject c = compile_project(p, "mix");
    const DispersiveCells& d = c.scene.dispersive[2];
    REQUIRE(!d.cells.empty());
    int half = 0, full = 0;
    for (std::size_t k = 0; k < d.cells.size(); ++k) {
        const double w = d.weight[k];
        half += std::abs(w - 0.5) < 1e-6;
        full += std::abs(w - 1.0) < 1e-12;
        const EUpdateCoeffs& co = c.scene.table[c.scene.material_index[2][d.cells[k]]];
        CHECK(co.eps_r == Approx(w * 1.0 + (1 - w) * 2.0));  // eps_inf averaged with the glass
    }
    CHECK(d.cells.size() == 30);
    CHECK(full == 10);
    CHECK(half == 20);
    for (const auto& w : c.warnings) CHECK(w.find("UNSTABLE") == std::string::npos);

    // A pole with omega_0 dt >= 2, epsilon_inf < 1 with S = 0.6 > sqrt(0.6 / 2), and gold
    // in the PML (gold itself stable at dx = 0.01 um, S = 0.6: sum wp^2 dt^2 = 0.45).
    Material fast;
    fast.id = "fast";
    fast.epsilon_inf = 0.6;
    const double dt = 0.6 * 0.01e-6 / units::c0;
    fast.poles = {lorentz(0.1 / dt, 2.5 / dt, 0.0)};
    Project q = box_project(Polarization::TMz, 10, 0.01, bg, &fast, 0.02, BoundaryKind::Pml);
    q.run.courant = 0.6;
    q.materials.push_back(au);
    Layer g;
    g.name = "gold into the pml";
    g.material = "au";
    Shape gr;
    gr.type = ShapeType::Rectangle;
    gr.min = {0.0, 0.0};
    gr.max = {0.02, 0.1};
    g.shapes.push_back(gr);
    q.layers.push_back(g);
    const CompiledProject cq = compile_project(q, "warn");
    std::string all;
    for (const auto& w : cq.warnings) all += w + "\n";
    INFO(all);
    CHECK(all.find("omega_0 dt = 2.5") != std::string::npos);
    CHECK(all.find("epsilon_inf = 0.6 < 1") != std::string::npos);
    CHECK(all.find("is UNSTABLE there") != std::string::npos);
    CHECK(all.find("'fast' is UNSTABLE") != std::string::npos);
    CHECK(all.find("'au' reaches into the PML") != std::string::npos);
    CHECK(all.find("'au' is UNSTABLE") == std::string::npos);
}

// ---------------------------------------------------------------------------- library

TEST_CASE("material library: bundled materials with sources, personal library merged", "[dispersive]") {
    const auto bundled = load_material_library(bundled_material_library_path());
    std::vector<std::string> ids;
    for (const auto& lm : bundled) {
        ids.push_back(lm.material.id);
        CHECK(!lm.source.empty());
    }
    for (const char* id : {"au", "ag", "al", "cu", "cr", "si", "sio2", "si3n4", "inp", "gaas"})
        CHECK(std::find(ids.begin(), ids.end(), id) != ids.end());
    // Silver (Rakic LD) at 1.55 um: about -103 + 8.1i; silicon n = 3.476.
    const cd ag = analytic_epsilon(library_material("ag"), omega_of_um(1.55));
    CHECK(ag.real() == Approx(-103.33).margin(0.1));
    CHECK(ag.imag() == Approx(8.13).margin(0.05));
    CHECK(std::sqrt(library_material("si").epsilon_inf) == Approx(3.476).margin(1e-6));

    const auto dir = std::filesystem::temp_directory_path() / ("golightly_lib_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "golightly");
    {
        std::ofstream f(dir / "golightly" / "materials.json");
        f << R"({"materials": [ {"id": "au", "name": "my gold", "epsilon_inf": 9.5, "source": "me"},
                                {"id": "polymer", "epsilon_inf": 2.4} ]})";
    }
    const char* old = std::getenv("XDG_DATA_HOME");
    const std::string saved = old ? old : "";
    ::setenv("XDG_DATA_HOME", dir.string().c_str(), 1);
    const auto lib = material_library();
    if (old) ::setenv("XDG_DATA_HOME", saved.c_str(), 1);
    else ::unsetenv("XDG_DATA_HOME");
    std::filesystem::remove_all(dir);
    CHECK(lib.size() == bundled.size() + 1);
    CHECK(lib[0].material.id == "au");
    CHECK(lib[0].material.name == "my gold");
    CHECK(lib[0].personal);
    CHECK(lib.back().material.id == "polymer");
}

// ------------------------------------------------------------------------------ benchmark

TEST_CASE("dispersion: CPU throughput with 0, 10 and 100 % gold cells (2048^2 TMz, float32)", "[.bench]") {
    // Hidden (run with "[.bench]"): Mcells/s of whole steps (all cells counted once).
    // Gold in the columns i < fraction * nx of every row (each thread gets its share).
    const Material au = library_material("au");
    const int n = 2048;
    for (double fraction : {0.0, 0.1, 1.0}) {
        Scene s;
        s.polarization = Polarization::TMz;
        s.nx = s.ny = n;
        s.dx_um = 0.01;
        s.courant = 0.5;
        s.dt_s = s.courant * s.dx_um * 1e-6 / units::c0;
        s.boundary[0] = s.boundary[1] = BoundaryKind::Periodic;
        build_material_table(s, {{}, {}, std::vector<double>(s.cells(), 1.0)},
                             {{}, {}, std::vector<double>(s.cells(), 0.0)});
        PoleSet ps;
        for (const Pole& p : au.poles) ps.poles.push_back(pole_coefficients(p, s.dt_s));
        s.pole_sets.push_back(ps);
        const int ng = int(fraction * n);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < ng; ++i) {
                s.dispersive[2].cells.push_back(j * n + i);
                s.dispersive[2].pole_set.push_back(0);
                s.dispersive[2].weight.push_back(1.0);
            }
        auto e = make_cpu_engine(s, Precision::Float32, 2);
        random_fields(*e, s, 1);
        e->step(3);
        const int steps = 20;  // best of 5 (the machine is shared)
        double sec = 1e30;
        for (int rep = 0; rep < 5; ++rep) {
            const auto t0 = std::chrono::steady_clock::now();
            e->step(steps);
            sec = std::min(sec, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::printf("2048^2 TMz float32, 2 threads, %3.0f %% gold (6 poles): %.1f Mcells/s\n", fraction * 100,
                    double(s.cells()) * steps / sec * 1e-6);
        CHECK(e->fields_finite());
    }
}

TEST_CASE("golightly-cli materials lists the library (text and --json)", "[dispersive][cli]") {
    auto run = [](const std::string& args) {
        std::string out;
        FILE* p = ::popen((std::string(GOLIGHTLY_CLI_PATH) + " " + args + " 2>&1").c_str(), "r");
        REQUIRE(p != nullptr);
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
        const int rc = ::pclose(p);
        return std::make_pair(rc, out);
    };
    const auto [rc, text] = run("materials");
    CHECK(rc == 0);
    CHECK(text.find("Gold (Rakic 1998") != std::string::npos);
    CHECK(text.find("Rakic et al., Appl. Opt. 37, 5271 (1998)") != std::string::npos);
    const auto [rcj, js] = run("materials --json");
    CHECK(rcj == 0);
    const Json j = Json::parse(js);
    REQUIRE(j["materials"].is_array());
    CHECK(j["materials"].size() >= 10);
    CHECK(j["materials"][0]["id"] == "au");
    CHECK(j["materials"][0]["poles"].size() == 6);
    CHECK(!j["materials"][0]["source"].get<std::string>().empty());
}

TEST_CASE("dispersion: a cell mixing two dispersive materials gets the weighted union of their poles",
          "[dispersive][physics]") {
    const Material au = library_material("au");
    const Material ag = library_material("ag");
    Project p = box_project(Polarization::TMz, 24, 0.01, ag, &au, 0.077);
    p.run.subpixel_averaging = true;
    const CompiledProject c = compile_project(p, "au_in_ag");
    const Scene& s = c.scene;
    REQUIRE(s.dispersive[2].cells.size() == s.cells());  // every cell has silver or gold
    int mixed = 0;
    const double w = omega_of_um(0.7);
    for (std::size_t k = 0; k < s.cells(); ++k) {
        const PoleSet& ps = s.pole_sets[s.dispersive[2].pole_set[k]];
        if (ps.poles.size() != 12) continue;
        ++mixed;
        CHECK(s.dispersive[2].weight[k] == 1.0);
        // Silver (background, first in the coverage) then gold; fractions from the c3 ratios.
        const double f_ag = ps.poles[0].c3 / pole_coefficients(ag.poles[0], s.dt_s).c3;
        const double f = ps.poles[6].c3 / pole_coefficients(au.poles[0], s.dt_s).c3;
        REQUIRE(f > 0.0);
        REQUIRE(f < 1.0);
        CHECK(f + f_ag == Approx(1.0).margin(1e-6));
        const cd chi = discrete_epsilon(0.0, 0.0, ps, 1.0, w, s.dt_s);
        const cd expect = f * (analytic_epsilon(au, w) - 1.0) + (1 - f) * (analytic_epsilon(ag, w) - 1.0);
        CHECK(std::abs(chi - expect) < 2e-3 * std::abs(expect));
    }
    CHECK(mixed > 10);
    auto e = make_cpu_engine(s, Precision::Float32, 2);
    random_fields(*e, s, 9);
    const double e0 = e->field_energy();
    e->step(5000);
    CHECK(e->fields_finite());
    CHECK(e->field_energy() < e0);
}

TEST_CASE("dispersion: fused sweep equals the two-pass step with gold, 1..3 threads", "[dispersive][physics]") {
    Material bg;
    bg.id = "glass";
    bg.epsilon_inf = 2.1;
    const Material au = library_material("au");
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const Scene s = compile_project(box_project(pol, 40, 0.01, bg, &au, 0.12), "fused").scene;
        ::setenv("GOLIGHTLY_CPU_UNFUSED", "1", 1);
        auto ref = make_cpu_engine(s, Precision::Float64, 1);
        ::unsetenv("GOLIGHTLY_CPU_UNFUSED");
        random_fields(*ref, s, 21);
        ref->step(200);
        for (int threads = 1; threads <= 3; ++threads) {
            auto e = make_cpu_engine(s, Precision::Float64, threads);
            random_fields(*e, s, 21);
            e->step(200);
            for (Component c : electric_components(pol)) {
                std::vector<double> a, b;
                e->get_field(c, a);
                ref->get_field(c, b);
                double d = 0, m = 0;
                for (std::size_t k = 0; k < a.size(); ++k) {
                    d = std::max(d, std::abs(a[k] - b[k]));
                    m = std::max(m, std::abs(b[k]));
                }
                CHECK(d <= 1e-13 * m);
            }
        }
    }
}
