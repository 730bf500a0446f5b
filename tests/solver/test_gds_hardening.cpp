// GDSII streams that are malformed (spec "GDSII layouts"): a clear error naming file, path
// and cause, never a crash; and the hardening corpus (tests/data/hardening/gds_*.gds).
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/gds.hpp"
#include "golightly/geometry.hpp"
#include "golightly/image_io.hpp"
#include "golightly/project.hpp"
#include "optional_features.hpp"
#include "project_builders.hpp"
#include "test_files.hpp"
#include "gds_test_files.hpp"

namespace fs = std::filesystem;
using namespace golightly;
using golightly::test::material;
using namespace golightly::test::gds_files;

TEST_CASE("GDS: malformed streams give a clear error, never a crash", "[gds][hardening]") {
    const std::vector<std::uint8_t> good = read_bytes(data_dir() / "layout.gds");
    REQUIRE(gds_error(good).empty());

    // every truncation
    int truncated = 0;
    for (std::size_t n = 0; n < good.size(); ++n) {
        const std::string e = gds_error({good.begin(), good.begin() + std::ptrdiff_t(n)});
        CHECK(!e.empty());
        truncated += e.find("truncated") != std::string::npos || e.find("empty") != std::string::npos;
    }
    std::printf("gds: %zu truncations refused (%d say 'truncated')\n", good.size(), truncated);

    // bad record lengths: below 4, odd, past the end
    const std::size_t xy = records(good, 0x10).at(0);
    for (unsigned len : {0u, 2u, 7u, 65534u}) {
        auto b = good;
        put16(b, xy, len);
        const std::string e = gds_error(b);
        INFO(e);
        CHECK(e.find("at byte") != std::string::npos);
    }
    // not GDSII at all
    CHECK(gds_error({'I', 'S', 'O', '-', '1', '0', '3', '0', '3'}).find("HEADER") != std::string::npos);

    // a reference to a cell the file lacks
    {
        auto b = good;
        const std::size_t sname = records(b, 0x12).at(0);
        b[sname + 4] = 'Q';  // "LEAF" -> "QEAF"
        CHECK(gds_error(b).find("does not define") != std::string::npos);
    }
    // huge counts: an AREF of 32767 x 32767 instances is refused before it is expanded
    {
        auto b = good;
        const std::size_t colrow = records(b, 0x13).at(0);
        put16(b, colrow + 4, 32767);
        put16(b, colrow + 6, 32767);
        const std::string e = gds_error(b);
        INFO(e);
        CHECK(e.find("limit of 20 million") != std::string::npos);
    }
    // a reference cycle: A -> B -> A
    {
        auto a = gds::write("A", {});
        // rebuild by hand: two cells referencing each other
        std::vector<std::uint8_t> b(a.begin(), a.end() - 8);  // drop ENDSTR, ENDLIB
        const auto rec = [&](std::uint8_t rt, std::uint8_t dt, std::vector<std::uint8_t> data) {
            const std::size_t len = data.size() + 4;
            b.push_back(std::uint8_t(len >> 8)), b.push_back(std::uint8_t(len)), b.push_back(rt), b.push_back(dt);
            b.insert(b.end(), data.begin(), data.end());
        };
        rec(0x0A, 0, {}), rec(0x12, 6, {'B', 0}), rec(0x10, 3, {0, 0, 0, 0, 0, 0, 0, 0}), rec(0x11, 0, {});
        rec(0x07, 0, {});
        rec(0x05, 2, std::vector<std::uint8_t>(24, 0)), rec(0x06, 6, {'B', 0});
        rec(0x0A, 0, {}), rec(0x12, 6, {'A', 0}), rec(0x10, 3, {0, 0, 0, 0, 0, 0, 0, 0}), rec(0x11, 0, {});
        rec(0x07, 0, {}), rec(0x04, 0, {});
        const gds::Library lib = gds::read(b);
        CHECK(gds::top_cells(lib).empty());
        CHECK_THROWS_WITH(gds::flatten(lib, "A", {1, 0}), Catch::Contains("cycle"));
    }
    // random byte corruption: an error or a result, never a crash
    std::mt19937 rng(22);
    int refused = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        auto b = good;
        for (int k = 0; k < 3; ++k) b[rng() % b.size()] = std::uint8_t(rng());
        refused += !gds_error(b).empty();
    }
    std::printf("gds: 2000 corrupted streams, %d refused with a message, the rest read\n", refused);

    // through a project: the JSON path of the shape's member, and the file's name
    Project p = base_project(50, 40, 0, 0.1, 2);
    Layer l;
    l.name = "wg";
    l.material = "si";
    l.shapes = {gds_shape("TOP", {1, 0})};
    p.layers = {l, l};
    p.layers[1].shapes[0].data_base64 = base64_encode(std::vector<std::uint8_t>(good.begin(), good.begin() + 500));
    const auto path_of = [&](const Project& q) {
        try {
            check_gds_shapes(q, "bad.glproj");
        } catch (const ProjectError& e) {
            CHECK(e.file() == "bad.glproj");
            CHECK(std::string(e.what()).find("layout.gds") != std::string::npos);
            return e.json_path();
        }
        return std::string("no error");
    };
    CHECK(path_of(p) == "layers[1].shapes[0].data");
    {  // a database unit of 0.5 m: the vertices lie beyond the spec's +-1e6 um
        auto b = good;
        const std::size_t units = records(b, 0x03).at(0);
        const std::uint8_t half[8] = {0x40, 0x80, 0, 0, 0, 0, 0, 0};  // 0.5 as a GDSII real
        std::copy(half, half + 8, b.begin() + std::ptrdiff_t(units + 12));
        REQUIRE(gds::read(b).metres_per_db == 0.5);
        p.layers[1].shapes[0].data_base64 = base64_encode(b);
        CHECK(path_of(p) == "layers[1].shapes[0].data");
    }
    p.layers[1].shapes[0] = gds_shape("TOP", {9, 0});  // missing layer
    CHECK(path_of(p) == "layers[1].shapes[0].layer");
    p.layers[1].shapes[0].gds_cell = "NOPE";  // unknown cell
    CHECK(path_of(p) == "layers[1].shapes[0].cell");
    p.layers[1].shapes[0].data_base64 = base64_encode(read_bytes(data_dir() / "two_tops.gds"));  // which top cell?
    p.layers[1].shapes[0].gds_cell = "";
    p.layers[1].shapes[0].gds_layer = {1, 0};
    CHECK(path_of(p) == "layers[1].shapes[0].cell");
    p.layers[1].shapes[0].gds_cell = "B";
    CHECK(path_of(p) == "no error");
    CHECK_THROWS_AS(make_gds_shape(data_dir() / "layout.gds", "NOPE", {1, 0}), gds::GdsError);
}

TEST_CASE("GDS: the hardening corpus (tests/data/hardening/gds_*.gds) names file, path and cause", "[gds][hardening]") {
    const fs::path dir = fs::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "hardening";
    const struct {
        const char* file;
        const char* field;
        const char* says;
    } cases[] = {{"gds_truncated.gds", "data", "truncated"},
                 {"gds_bad_record_length.gds", "data", "bad record length 2"},
                 {"gds_huge_aref.gds", "cell", "more than the limit of 20 million"},
                 {"gds_unknown_cell.gds", "data", "does not define"}};
    for (const auto& c : cases) {
        Project p = base_project(50, 40, 0, 0.1, 2);
        Layer l;
        l.name = "wg";
        l.material = "si";
        Shape s;
        s.type = ShapeType::Gds;
        s.file_name = c.file;
        s.data_base64 = base64_encode(read_bytes(dir / c.file));
        s.gds_layer = {1, 0};
        l.shapes = {s};
        p.layers = {l};
        try {
            check_gds_shapes(p, "h.glproj");
            FAIL(c.file << ": no error");
        } catch (const ProjectError& e) {
            std::printf("%s -> %s\n", c.file, e.what());
            CHECK(e.json_path() == std::string("layers[0].shapes[0].") + c.field);
            CHECK(std::string(e.what()).find(c.file) != std::string::npos);
            CHECK(std::string(e.what()).find(c.says) != std::string::npos);
        }
    }
}
