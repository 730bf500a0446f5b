// The CPU engine refuses a grid larger than the available memory before allocating it
// (engine.hpp make_cpu_engine: OutOfMemoryError with the bytes needed and available).
#include <catch2/catch.hpp>

#include <cstdlib>

#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/units.hpp"

using namespace golightly;

TEST_CASE("CPU engine: a grid larger than the memory throws OutOfMemoryError before allocating", "[engine][oom]") {
    Scene s;  // 400 000 x 400 000 cells: about 3 TB of fields; no per-cell arrays are built
    s.nx = 400000;
    s.ny = 400000;
    s.dx_um = 0.01;
    s.dt_s = 0.5 * s.dx_um * units::um / units::c0;
    s.table.push_back(EUpdateCoeffs{});
    try {
        make_cpu_engine(s, Precision::Float32, 1);
        FAIL("no OutOfMemoryError");
    } catch (const OutOfMemoryError& e) {
        CHECK(e.bytes_needed >= std::size_t(3) * s.cells() * 4);
        CHECK(e.bytes_available > 0);
        CHECK(e.bytes_available < e.bytes_needed);
        CHECK_THAT(e.what(), Catch::Contains("400000 x 400000") && Catch::Contains("bytes"));
    }
}

TEST_CASE("CPU engine: GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES caps the memory counted as available", "[engine][oom]") {
    Scene s;
    s.nx = 64;
    s.ny = 64;
    s.dx_um = 0.04;
    s.dt_s = 0.5 * s.dx_um * units::um / units::c0;
    s.table.push_back(EUpdateCoeffs{});
    s.material_index[2].assign(s.cells(), 0);
    setenv("GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES", "1000", 1);
    try {
        make_cpu_engine(s, Precision::Float32, 1);
        unsetenv("GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES");
        FAIL("no OutOfMemoryError");
    } catch (const OutOfMemoryError& e) {
        unsetenv("GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES");
        CHECK(e.bytes_available == 1000);
        CHECK(e.bytes_needed > 1000);
    }
    CHECK_NOTHROW(make_cpu_engine(s, Precision::Float32, 1));
}
