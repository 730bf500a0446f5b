// The `solids` selection of a `step` shape (GoLightly 0.1, additive): a Shape field that
// project I/O reads and writes, with errors naming the JSON path.
#include <catch2/catch.hpp>

#include <string>

#include "golightly/errors.hpp"
#include "golightly/project.hpp"

using namespace golightly;

namespace {
std::string project_with_step(const std::string& solids_member) {
    return R"({"format": "golightly-project", "version": 1,
      "domain": {"dimensions": 2, "size": [10, 8, 0], "cell_size": 0.02},
      "materials": [{"id": "si", "epsilon_inf": 12.1}],
      "layers": [{"name": "part", "material": "si", "shapes": [
        {"type": "step", "file_name": "p.step", "data": "SVNPLTEwMzAzLTIxOw==", "scale": 1000,
         "rotate_deg": [0, 0, 0], "translate": [5, 4, 0])" +
           solids_member + R"(}]}], "sources": [], "monitors": []})";
}
}  // namespace

TEST_CASE("step shape solids: parsed as a field, written back, errors name the path", "[project][step]") {
    const Project p = parse_project(project_with_step(R"(, "solids": [0, 2])"), "mem.glproj");
    const Shape& s = p.layers.at(0).shapes.at(0);
    CHECK(s.solids == std::vector<int>{0, 2});
    CHECK_FALSE(s.extra.contains("solids"));
    const Json j = project_to_json(p);
    CHECK(j["layers"][0]["shapes"][0]["solids"] == Json::array({0, 2}));
    CHECK(parse_project(j.dump(), "again.glproj") == p);
    // absent = all solids, and not written
    const Project all = parse_project(project_with_step(""), "mem.glproj");
    CHECK(all.layers[0].shapes[0].solids.empty());
    CHECK_FALSE(project_to_json(all)["layers"][0]["shapes"][0].contains("solids"));
    // bad values
    for (const std::string& bad : {std::string(R"(, "solids": [0, -1])"), std::string(R"(, "solids": ["a"])"),
                                   std::string(R"(, "solids": 3)")}) {
        try {
            (void)parse_project(project_with_step(bad), "bad.glproj");
            FAIL("accepted " << bad);
        } catch (const ProjectError& e) {
            CHECK(std::string(e.what()).find("bad.glproj") != std::string::npos);
            CHECK(e.json_path().find("layers[0].shapes[0].solids") == 0);
        }
    }
}
