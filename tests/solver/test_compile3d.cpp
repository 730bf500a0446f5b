// Compiling 3D projects (compile_3d.cpp) and the 3D parts of the run driver: grid, point
// dipole weights, plane sheets (and the plane wave they radiate), tfsf boxes, flux planes
// and boxes, dft_field volumes, time points, frame slice, refusals; 2D tfsf; backend choice.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#ifdef GOLIGHTLY_TEST_HDF5
#include <hdf5.h>
#endif

#include "golightly/compile.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/results.hpp"
#include "golightly/run.hpp"
#include "test_3d_projects.hpp"
#include "test_files.hpp"

using namespace golightly;
using namespace golightly::test3d;

namespace {

Project small_project() {
    Project p = vacuum_project(1.0, 0.8, 0.6, 0.05, 6, 0.8, 1.2, 3);
    return p;
}

bool message_has(const std::function<void()>& f, const std::string& path, const std::string& text) {
    try {
        f();
    } catch (const ProjectError& e) {
        const std::string all = e.json_path() + ": " + e.message();
        INFO(all);
        return e.json_path() == path && all.find(text) != std::string::npos;
    }
    return false;
}

}  // namespace

TEST_CASE("compile 3D: grid, PML on every face, time step", "[compile3d][3d]") {
    const Project p = small_project();
    const CompiledProject c = compile_project(p, "t.glproj");
    const Scene& s = c.scene;
    CHECK(s.dimensions == 3);
    CHECK(s.nx == 20 + 12);
    CHECK(s.ny == 16 + 12);
    CHECK(s.nz == 12 + 12);
    for (int a = 0; a < 3; ++a) {
        CHECK(s.pml_lo[a] == 6);
        CHECK(s.pml_hi[a] == 6);
        CHECK(s.cpml[a].b_e.size() == std::size_t(a == 0 ? s.nx : a == 1 ? s.ny : s.nz));
        CHECK(s.material_index[a].size() == s.cells());
    }
    CHECK(s.dt_s == Approx(0.5 * 0.05e-6 / units::c0));
    CHECK(s.table.size() == 1);
    CHECK(s.table[0].eps_r == 1.0);
    CHECK(c.frame_slice.normal_axis == 2);
    CHECK(c.frame_slice.index == 6 + 6);  // z = 0.3 um: node 6 of the interior
}

TEST_CASE("compile 3D: point dipole weight 2 cb (1 um / dx)^2 on the nearest node", "[compile3d][3d]") {
    Project p = small_project();
    p.sources.push_back(point_dipole("d", Component::Ez, 0.5, 0.4, 0.325, pulse_for(0.8, 1.2)));
    p.sources.push_back(point_dipole("m", Component::Hx, 0.5, 0.425, 0.325, pulse_for(0.8, 1.2)));
    const CompiledProject c = compile_project(p, "t.glproj");
    const Scene& s = c.scene;
    const Grid g = s.grid();
    REQUIRE(s.sources.size() == 2);
    // Ez at (i, j, k + 1/2): x = 0.5 -> i = 10, y = 0.4 -> j = 8, z = 0.325 -> k = 6
    CHECK(s.sources[0].cells == std::vector<CellIndex>{g.flat(16, 14, 12)});
    CHECK(s.sources[0].weights[0] == Approx(2 * 0.5 / (0.05 * 0.05)));
    // Hx at (i, j + 1/2, k + 1/2)
    CHECK(s.sources[1].cells == std::vector<CellIndex>{g.flat(16, 14, 12)});
    CHECK(s.sources[1].component == Component::Hx);
    CHECK(s.sources[1].weights[0] == Approx(2 * 0.5 / (0.05 * 0.05)));
    CHECK(c.sources_end_s > 0);
    p.sources[0].at_z.reset();
    CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].at", "[x, y, z]"));
}

TEST_CASE("compile 3D: plane sheet sources and what 3D refuses", "[compile3d][3d]") {
    Project p = small_project();
    Source s;
    s.name = "sheet";
    s.type = SourceType::Plane;
    s.component = Component::Ex;
    s.center = {0.5, 0.4, 0.3};
    s.size = {0.5, 0.4, 0};
    s.waveform = pulse_for(0.8, 1.2);
    p.sources.push_back(s);
    CompiledProject c = compile_project(p, "t.glproj");
    REQUIRE(c.scene.sources.size() == 1);
    double sum = 0;
    for (double w : c.scene.sources[0].weights) sum += w;
    // 2 S per node times the covered area in cells: 2 * 0.5 * (0.5 * 0.4) / 0.05^2
    CHECK(sum == Approx(2 * 0.5 * 0.2 / 0.0025));
    // gaussian: weights follow exp(-(r / waist)^2)
    p.sources[0].profile = SourceProfile::Gaussian;
    p.sources[0].waist = 0.1;
    c = compile_project(p, "t.glproj");
    double wmax = 0, sum_g = 0;
    for (double w : c.scene.sources[0].weights) wmax = std::max(wmax, w), sum_g += w;
    CHECK(wmax <= 2 * 0.5 + 1e-12);
    // integral of exp(-r^2 / w^2) over the plane = pi w^2 (the plane is much larger than w)
    CHECK(sum_g * 0.0025 / (2 * 0.5) == Approx(units::pi * 0.01).epsilon(0.02));
    p.sources[0].profile = SourceProfile::Uniform;
    p.sources[0].component = Component::Ez;
    CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].component", "in the plane"));
    p.sources[0].component = Component::Ex;
    p.sources[0].extra["direction"] = "+z";  // one-way: an E and an H sheet (test_oneway3d.cpp)
    CHECK(compile_project(p, "t.glproj").scene.sources.size() == 2);
    p.sources[0].extra["direction"] = "+y";
    CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].direction", "normal to its plane"));
    p.sources[0].extra = Json::object();
    p.sources[0].profile = SourceProfile::Mode;
    // mode plane sources compile in 3D since GoLightly 0.3 (test_mode_monitor3d.cpp); the
    // direction must be the plane's normal
    p.sources[0].direction = "+x";
    if (have_mode_solver_2d())
        CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].direction", "normal to the plane"));
    else
        CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].profile", "mode solver"));
    p.sources[0].profile = SourceProfile::Uniform;
    p.sources[0].size = {0.5, 0, 0};
    CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].size", "exactly one zero"));
    p.sources[0].type = SourceType::Region;
    CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].type", "region"));
}

TEST_CASE("compile 3D: a uniform sheet across a periodic cell radiates a plane wave of amplitude A",
          "[compile3d][3d]") {
    // x, y periodic 0.2 um; z PML. E = A f(t - |z - z0| / c) on both sides: the flux through
    // the cell above the sheet is |A F|^2 / (2 eta0) * area, F the DFT of the source's
    // waveform (E sources at t = (n + 1/2) dt), times the lattice factor 1 / cos(k~ dx/2)
    // (test_3d_projects.hpp: the sheet radiates A / cos, the flux plane measures |E|^2 cos).
    const double wl_min = 0.8, wl_max = 1.2;
    Project p = vacuum_project(0.2, 0.2, 2.0, 0.05, 12, wl_min, wl_max, 3);
    p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Periodic, BoundaryKind::Pml};
    Source s;
    s.name = "sheet";
    s.type = SourceType::Plane;
    s.component = Component::Ey;
    s.amplitude = 2.0;
    s.center = {0.1, 0.1, 0.6};
    s.size = {0.2, 0.2, 0};
    s.waveform = pulse_for(wl_min, wl_max);
    p.sources.push_back(s);
    p.monitors.push_back(flux_plane("up", {0.1, 0.1, 1.5}, {0.2, 0.2, 0}, "+z"));
    p.monitors.push_back(flux_plane("down", {0.1, 0.1, 0.2}, {0.2, 0.2, 0}, "-z"));
    Monitor d;
    d.name = "field";
    d.type = MonitorType::DftField;
    d.min = Vec2{0, 0};
    d.max = Vec2{0.2, 0.2};
    d.min_z = 0.5;
    d.max_z = 0.7;
    d.wavelengths = {1.0};
    d.components = {Component::Ey};
    p.monitors.push_back(d);
    const CompiledProject c = compile_project(p, "t.glproj");
    CHECK(c.monitors[0].flux_terms.size() == 2);
    CHECK(c.monitors[0].flux_terms[0].ds_dims == 2);
    CHECK(c.monitors[0].extent_um == Approx(0.04));
    CHECK(c.monitors[2].region_nx == 4);
    CHECK(c.monitors[2].region_ny == 4);
    CHECK(c.monitors[2].region_nz == 4);
    const RunResult r = run_project(p, "t.glproj");
    REQUIRE(r.spectra.size() == 2);
    const auto F = waveform_dft(c.scene.sources[0].waveform, 0, c.scene.dt_s, 0.5, r.frequency_hz, r.steps);
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        // F includes the amplitude (CompiledWaveform::amplitude = A = 2)
        const double expect = std::norm(F[f]) / (2 * units::eta0) * 0.04e-12 /
                              half_cell_cos(r.frequency_hz[f], 0.05, 0.5);
        INFO("wl " << units::hz_to_wavelength_um(r.frequency_hz[f]));
        CHECK(r.spectra[0].flux[f] / expect == Approx(1.0).margin(0.002));
        CHECK(r.spectra[1].flux[f] / expect == Approx(1.0).margin(0.002));
    }
    REQUIRE(r.dft_fields.size() == 1);
    CHECK(r.dft_fields[0].nz == 4);
    CHECK(r.dft_fields[0].dimensions == 3);
    CHECK(r.dft_fields[0].values[0].size() == 64);
    CHECK(r.dft_fields[0].origin_z_um == Approx(0.5));
    // the results folder: dimensions and cells in summary.json
    const test::Scratch scratch("compile3d", "results");  // its own folder: the Release and ASan suites may run at once
    const auto dir = scratch.path / "out";
    write_results(dir, p, r);
    std::ifstream in(dir / "summary.json");
    const Json j = Json::parse(in);
    CHECK(j["dimensions"] == 3);
    CHECK(j["cells"] == 4 * 4 * 64);
    CHECK_FALSE(j.contains("kernel"));  // the CPU engine names no bulk kernel
    {  // an engine that names one (the CUDA 3D engine, Engine::kernel): summary.json "kernel"
        RunResult named = r;
        named.kernel = "two steps per pass (update_he3_two)";
        const auto dir2 = scratch.path / "out_kernel";
        write_results(dir2, p, named);
        std::ifstream in2(dir2 / "summary.json");
        CHECK(Json::parse(in2)["kernel"] == "two steps per pass (update_he3_two)");
    }
#ifdef GOLIGHTLY_TEST_HDF5
    {  // fields/field.h5: ey.r of shape [n_wl][nz][ny][nx] = [1][4][4][4], origin x, y, z
        const hid_t h5 = H5Fopen((dir / "fields" / "field.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        REQUIRE(h5 >= 0);
        const hid_t ds = H5Dopen2(h5, "ey.r", H5P_DEFAULT);
        REQUIRE(ds >= 0);
        const hid_t space = H5Dget_space(ds);
        hsize_t dims[4] = {0, 0, 0, 0};
        CHECK(H5Sget_simple_extent_ndims(space) == 4);
        H5Sget_simple_extent_dims(space, dims, nullptr);
        CHECK(dims[0] == 1);
        CHECK(dims[1] == 4);
        CHECK(dims[2] == 4);
        CHECK(dims[3] == 4);
        H5Sclose(space);
        H5Dclose(ds);
        const hid_t at = H5Aopen(h5, "origin", H5P_DEFAULT);
        REQUIRE(at >= 0);
        const hid_t as = H5Aget_space(at);
        CHECK(H5Sget_simple_extent_npoints(as) == 3);
        H5Sclose(as);
        H5Aclose(at);
        H5Fclose(h5);
    }
#endif
    // normalization with a reference run (3D grids compared with nz): the empty domain
    // transmits everything; the incident monitor's area normalizes flux boxes
    p.monitors[0].kind = "transmission";
    p.monitors.pop_back();
    p.monitors.push_back(flux_box("box", {0.0, 0.0, 1.0}, {0.2, 0.2, 1.2}, "absorption"));
    p.run.normalization.enabled = true;
    const RunResult rn = run_project(p, "t.glproj");
    REQUIRE(rn.normalized);
    CHECK(rn.incident_monitor == "up");
    CHECK(rn.reference_stop_reason.has_value());
    REQUIRE(rn.spectra.size() == 3);
    for (std::size_t f = 0; f < rn.frequency_hz.size(); ++f) {
        CHECK(rn.spectra[0].normalized[f] == Approx(1.0).margin(1e-9));
        // the plane wave crosses the box: no net flux, cross-section ~0 (um^2)
        CHECK(std::abs(rn.spectra[2].normalized[f]) < 1e-4 * 0.04);
    }
}

TEST_CASE("compile 3D: tfsf box, flux planes and boxes, time points, dft volumes, frames", "[compile3d][3d]") {
    Project p = small_project();
    p.sources.push_back(tfsf("pw", {0.2, 0.2, 0.15}, {0.8, 0.6, 0.45}, "-z", Component::Ey, pulse_for(0.8, 1.2)));
    p.monitors.push_back(flux_box("box", {0.1, 0.1, 0.1}, {0.9, 0.7, 0.5}, "scattering"));
    p.monitors.push_back(flux_plane("plane", {0.5, 0.4, 0.3}, {0.3, 0, 0.2}, "+y"));
    Monitor t;
    t.name = "probe";
    t.type = MonitorType::Time;
    t.component = Component::Hy;
    t.at = Vec2{0.5, 0.4};
    t.at_z = 0.3;
    p.monitors.push_back(t);
    Monitor d;
    d.name = "vol";
    d.type = MonitorType::DftField;
    d.wavelengths = {1.0, 1.1};
    p.monitors.push_back(d);
    p.run.frames.plane = "xz";
    p.run.frames.position = 0.4;
    const CompiledProject c = compile_project(p, "t.glproj");
    const Scene& s = c.scene;
    REQUIRE(s.tfsf.size() == 1);
    const TfsfSource& tf = s.tfsf[0];
    CHECK(tf.axis == 2);
    CHECK(tf.sign == -1);
    CHECK(tf.e_component == Component::Ey);
    CHECK(tf.lo == std::array<std::int64_t, 3>{6 + 4, 6 + 4, 6 + 3});
    CHECK(tf.hi == std::array<std::int64_t, 3>{6 + 16, 6 + 12, 6 + 9});
    REQUIRE(c.monitors.size() == 4);
    CHECK(c.monitors[0].flux_terms.size() == 12);  // 6 faces x 2 tangential pairs
    for (const FluxTerm& ft : c.monitors[0].flux_terms) {
        CHECK(ft.ds_um == Approx(0.0025));
        CHECK(ft.ds_dims == 2);
        // E and H samples pair up
        CHECK(s.dft_sets[ft.e_set].cell0.size() == s.dft_sets[ft.h_set].cell0.size());
    }
    // face -x of the box: Ey nodes over y [0.1, 0.7] (12 cells + end halves = 13 nodes),
    // z [0.1, 0.5] (8 cells at e positions: 9 nodes): the covered fractions sum to the area
    double area = 0;
    for (double w : s.dft_sets[c.monitors[0].flux_terms[0].e_set].w0) area += w;
    CHECK(area * 0.0025 == Approx(0.6 * 0.4));
    // the plane normal to y: terms (Ez, Hx, +1) and (Ex, Hz, -1)
    CHECK(c.monitors[1].flux_terms.size() == 2);
    CHECK(s.dft_sets[c.monitors[1].flux_terms[0].e_set].component == Component::Ez);
    CHECK(s.dft_sets[c.monitors[1].flux_terms[0].h_set].component == Component::Hx);
    CHECK(c.monitors[1].flux_terms[0].sign == 1.0);
    CHECK(s.dft_sets[c.monitors[1].flux_terms[1].e_set].component == Component::Ex);
    CHECK(c.monitors[1].flux_terms[1].sign == -1.0);
    CHECK(c.monitors[1].extent_um == Approx(0.06));
    // time probe: Hy (i + 1/2, j, k + 1/2) nearest (0.5, 0.4, 0.3) -> (9 or 10, 8, 5 or 6)
    REQUIRE(s.time_probes.size() == 1);
    CHECK(s.time_probes[0].cells.size() == 1);
    // dft volume: the whole interior, Ex Ey Ez
    CHECK(c.monitors[3].region_nx == 20);
    CHECK(c.monitors[3].region_ny == 16);
    CHECK(c.monitors[3].region_nz == 12);
    CHECK(c.monitors[3].dft_field_components.size() == 3);
    CHECK(s.dft_sets[c.monitors[3].dft_field_sets[0]].cell0.size() == 20u * 16u * 12u);
    CHECK(c.frame_slice.normal_axis == 1);
    CHECK(c.frame_slice.index == 6 + 8);
    CHECK(c.warnings.empty());
    // a scattering box inside the total-field box: warned
    p.monitors[0].min = Vec2{0.3, 0.3};
    {
        const CompiledProject w = compile_project(p, "t.glproj");
        REQUIRE(w.warnings.size() == 1);
        CHECK(w.warnings[0].find("does not enclose the tfsf total-field box") != std::string::npos);
    }
    p.monitors[0].min = Vec2{0.1, 0.1};
    // refusals
    p.sources[0].box_max = {0.8, 0.6, 0.58};  // z: no cell of room before the PML
    CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].max", "one cell of room"));
    p.sources[0].box_max = {0.8, 0.6, 0.45};
    p.sources[0].component = Component::Ez;
    CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].component", "normal to the direction"));
    p.sources[0].component = Component::Ey;
    p.monitors[1].direction = "+x";
    CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "monitors[1].direction", "normal to the plane"));
}

TEST_CASE("compile 2D: a tfsf source fills Scene::tfsf", "[compile3d][tfsf]") {
    Project p;
    p.domain.dimensions = 2;
    p.domain.polarization = Polarization::TEz;
    p.domain.size = {2.0, 1.0, 0};
    p.domain.cell_size = 0.05;
    p.domain.boundaries = {BoundaryKind::Pml, BoundaryKind::Periodic, BoundaryKind::Periodic};
    p.domain.pml.cells = 8;
    p.sources.push_back(tfsf("pw", {0.5, 0, 0}, {1.5, 1.0, 0}, "+x", Component::Ey, pulse_for(1.0, 1.5)));
    const CompiledProject c = compile_project(p, "t.glproj");
    REQUIRE(c.scene.tfsf.size() == 1);
    const TfsfSource& t = c.scene.tfsf[0];
    CHECK(t.axis == 0);
    CHECK(t.sign == 1);
    CHECK(t.lo == std::array<std::int64_t, 3>{8 + 10, 0, 0});
    CHECK(t.hi == std::array<std::int64_t, 3>{8 + 30, 19, 0});  // periodic y spanned: whole axis
    CHECK(c.sources_end_s > 0);
    p.sources[0].component = Component::Ez;  // not a TEz field
    CHECK(message_has([&] { compile_project(p, "t.glproj"); }, "sources[0].component", "not a field of TEz"));
}

TEST_CASE("run driver: 3D scenes (TF/SF included) run on CUDA where a device is present, 3D Mur stays on the CPU",
          "[compile3d][3d]") {
    Project p = small_project();
    const CompiledProject c = compile_project(p, "t.glproj");
    std::vector<std::string> warnings;
    auto e = make_engine(c.scene, BackendChoice::Auto, Precision::Float32, 1, warnings);
    CHECK(e->backend() == (cuda_available() ? "cuda" : "cpu"));
    CHECK(warnings.empty());
    if (cuda_available()) {
        CHECK(make_engine(c.scene, BackendChoice::Cuda, Precision::Float32, 1, warnings)->backend() == "cuda");
    } else {
        CHECK_THROWS_AS(make_engine(c.scene, BackendChoice::Cuda, Precision::Float32, 1, warnings), RunError);
    }
    // A TF/SF source runs where the rest does (the CUDA engines have the TF/SF extension).
    Scene t = c.scene;
    TfsfSource box;  // a valid box outside the 6-cell PML, +x, Ez
    box.lo = {10, 10, 10};
    box.hi = {20, 18, 16};
    box.e_component = Component::Ez;
    box.waveform = c.scene.sources.empty() ? CompiledWaveform{} : c.scene.sources[0].waveform;
    t.tfsf.push_back(box);
    e = make_engine(t, BackendChoice::Auto, Precision::Float32, 1, warnings);
    CHECK(e->backend() == (cuda_available() ? "cuda" : "cpu"));
    CHECK(warnings.empty());
    // Mur faces in 3D: auto runs on the CPU with a warning, an explicit cuda is refused.
    Scene m = c.scene;
    m.boundary[2] = BoundaryKind::Mur;
    m.pml_lo[2] = m.pml_hi[2] = 0;
    build_cpml(m, 3.0, 1e-8);
    e = make_engine(m, BackendChoice::Auto, Precision::Float32, 1, warnings);
    CHECK(e->backend() == "cpu");
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("3D runs with mur boundaries use the CPU") != std::string::npos);
    try {
        make_engine(m, BackendChoice::Cuda, Precision::Float32, 1, warnings);
        FAIL("cuda accepted a 3D Mur scene");
    } catch (const RunError& err) {
        CHECK(std::string(err.what()).find("3D runs with mur boundaries") != std::string::npos);
    }
}
