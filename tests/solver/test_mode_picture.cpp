// The project of a resonance's field picture (golightly/mode_picture.hpp, issue 52): narrow
// sources at the resonance, one dft_field there (3D: one z plane), the rest of the
// project's monitors and the resonance machinery out of the way.
#include <catch2/catch.hpp>

#include <cmath>

#include "golightly/mode_picture.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "far_field_projects.hpp"

using namespace golightly;

TEST_CASE("Mode picture project of a 3D PEC box: one dft_field plane at the resonance", "[mode_picture][3d]") {
    Project p = parse_project(test::pec_box_project_json("cpu"), "box.glproj");
    p.run.frames.plane = "xy";
    p.run.frames.position = 0.35;
    const double wl = 1.4;
    const Project q = mode_picture_project(p, units::wavelength_um_to_hz(wl), 2000);
    REQUIRE(q.sources.size() == 2);
    for (const Source& s : q.sources) {
        CHECK(s.waveform.type == WaveformType::GaussianPulse);
        CHECK(s.waveform.wavelength_center == Approx(wl).epsilon(1e-12));
        CHECK(s.waveform.wavelength_span == Approx(wl * 4.0 / 2000).epsilon(1e-12));  // 4 / Q
    }
    CHECK_FALSE(q.run.stop.resonances);
    REQUIRE(q.monitors.size() == 2);
    CHECK_FALSE(q.monitors[0].resonances);
    const Monitor& f = q.monitors[1];
    CHECK(f.name == kModePictureMonitor);
    CHECK(f.type == MonitorType::DftField);
    REQUIRE(f.min_z);
    CHECK(*f.min_z == 0.35);
    CHECK(*f.max_z == 0.35);
    // it runs (a few steps) and gives one plane of Ex, Ey, Ez at the resonance
    RunOptions o;
    o.threads = 1;
    o.max_steps = 40;
    const RunResult r = run_project(q, "box.glproj", o);
    REQUIRE(r.dft_fields.size() == 1);
    const DftFieldResult& d = r.dft_fields[0];
    CHECK(d.dimensions == 3);
    CHECK(d.nz == 1);
    CHECK(d.origin_z_um == Approx(0.35).margin(0.5 * 0.05 + 1e-9));
    CHECK(d.components.size() == 3);
    REQUIRE(d.wavelength_um.size() == 1);
    CHECK(d.wavelength_um[0] == Approx(wl).epsilon(1e-9));
    CHECK(d.nx * d.ny > 100);

    // no source: said so
    Project none = p;
    none.sources.clear();
    CHECK_THROWS_WITH(mode_picture_project(none, 2e14, 100), Catch::Contains("no source"));
    CHECK_THROWS_WITH(mode_picture_project(p, -1, 100), Catch::Contains("frequency"));
}
