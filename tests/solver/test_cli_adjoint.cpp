// golightly-cli optimize --adjoint, end to end on the tiny guide of
// adjoint_project_fixture.hpp (3 iterations, then 2 more resumed): the history, the
// densities, the final GDS and project, the exit codes of bad input.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "adjoint_project_fixture.hpp"
#include "golightly/gds.hpp"
#include "golightly/project.hpp"
#include "cli_runner.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;
using golightly::test::quote;
using golightly::test::slurp;

namespace {

using Cli = golightly::test::CliOut;
Cli cli(const fs::path& dir, const std::string& args) { return golightly::test::run_cli(args, dir); }

struct Row {
    int iteration = 0;
    double objective = 0;
};

std::vector<Row> history(const fs::path& file) {
    std::vector<Row> rows;
    std::istringstream in(slurp(file));
    std::string line;
    std::getline(in, line);
    // the fixture's one wavelength: one per-wavelength column, equal to the objective (the mean)
    CHECK(line == "iteration,beta,objective,gradient_norm,constraint_solid,constraint_void,steps,wall_s,objective@1.55");
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
        REQUIRE(cells.size() == 9);
        rows.push_back({std::stoi(cells[0]), std::stod(cells[2])});
        CHECK(std::stod(cells[8]) == Approx(rows.back().objective).epsilon(1e-12));
    }
    return rows;
}

}  // namespace

TEST_CASE("cli: optimize --adjoint writes the history, densities, final GDS and project, and resumes",
          "[cli][adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    golightly::test::Scratch dir("cli", "adjoint");
    const fs::path project = dir.path / "guide.glproj";
    std::ofstream(project) << golightly::test::kAdjointGuide;
    const fs::path out = dir.path / "opt";
    const Cli r = cli(dir.path, "optimize --adjoint " + quote(project.string()) + " --out " + quote(out.string()));
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("iteration 2: objective") != std::string::npos);
    CHECK(r.out.find("done: 3 iteration(s) from 0") != std::string::npos);
    const std::vector<Row> h = history(out / "history.csv");
    REQUIRE(h.size() == 3);
    for (int i = 0; i < 3; ++i) CHECK(h[std::size_t(i)].iteration == i);
    // MMA maximizes the transmission: the third design passes more than the first
    CHECK(h[2].objective > h[0].objective);
    CHECK(h[0].objective > 0);
    CHECK(h[2].objective < 1.0 + 1e-6);  // a transmission (normalized by the input's forward power)
    CHECK(fs::exists(out / "checkpoint.json"));
    CHECK(slurp(out / "density.csv").find("i,j,k,rho,rho_projected") != std::string::npos);

    // the final project: plain shapes, no design section, and it checks
    const golightly::Project fin = golightly::load_project(out / "final.glproj");
    CHECK_FALSE(fin.extra.contains("design"));
    bool has_region = false;
    for (const auto& l : fin.layers) has_region = has_region || l.name == "dr";
    CHECK(has_region);
    const Cli c = cli(dir.path, "check " + quote((out / "final.glproj").string()));
    INFO(c.out << c.err);
    CHECK(c.code == 0);
    // the GDS reads back, its polygons inside the design region on layer 1/0
    const std::string bytes = slurp(out / "final.gds");
    const auto lib = golightly::gds::read(std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
    const auto geo = golightly::gds::flatten(lib, golightly::gds::top_cells(lib).at(0), {1, 0});
    std::size_t solid_layers = 0;
    for (const auto& l : fin.layers)
        if (l.name == "dr_solid") solid_layers = l.shapes.size();
    CHECK(geo.polygons.size() == solid_layers);
    for (const auto& poly : geo.polygons)
        for (const auto& v : poly) {
            CHECK(v.x >= 1.5 - 1e-3);
            CHECK(v.x <= 2.1 + 1e-3);
            CHECK(v.y >= 0.9 - 1e-3);
            CHECK(v.y <= 1.5 + 1e-3);
        }

    // --resume continues the numbering and keeps the earlier rows
    const Cli r2 = cli(dir.path, "optimize --adjoint " + quote(project.string()) + " --out " + quote(out.string()) +
                                     " --resume --max-iterations 2");
    INFO(r2.out << r2.err);
    REQUIRE(r2.code == 0);
    const std::vector<Row> h2 = history(out / "history.csv");
    REQUIRE(h2.size() == 5);
    for (int i = 0; i < 5; ++i) CHECK(h2[std::size_t(i)].iteration == i);
    CHECK(h2[2].objective == h[2].objective);
}

TEST_CASE("cli: optimize --adjoint refuses bad input with exit 2", "[cli][adjoint]") {
    golightly::test::Scratch dir("cli", "adjoint_bad");
    golightly::Json j = golightly::Json::parse(golightly::test::kAdjointGuide);
    j.erase("design");
    const fs::path plain = dir.path / "plain.glproj";
    std::ofstream(plain) << j.dump();
    const Cli r = cli(dir.path, "optimize --adjoint " + quote(plain.string()) + " --out " + quote((dir.path / "o").string()));
    CHECK(r.code == 2);
    CHECK(r.err.find("design: the project has no `design` section") != std::string::npos);
    const fs::path project = dir.path / "guide.glproj";
    std::ofstream(project) << golightly::test::kAdjointGuide;
    const Cli r2 = cli(dir.path, "optimize --adjoint " + quote(project.string()) + " --out " +
                                     quote((dir.path / "o2").string()) + " --resume");
    CHECK(r2.code == 2);
    CHECK(r2.err.find("nothing to resume") != std::string::npos);
    // the design region over the source: refused before any run, naming the region
    j = golightly::Json::parse(golightly::test::kAdjointGuide);
    j["design"]["regions"][0]["min"] = {0.6, 0.9};
    j["design"]["regions"][0]["max"] = {1.2, 1.5};
    const fs::path over = dir.path / "over.glproj";
    std::ofstream(over) << j.dump();
    const Cli r4 = cli(dir.path, "optimize --adjoint " + quote(over.string()) + " --out " + quote((dir.path / "o4").string()));
    CHECK(r4.code == 2);
    CHECK(r4.err.find("design.regions[0]: design region: a source lies inside it") != std::string::npos);
    const Cli r3 = cli(dir.path, "optimize --adjoint " + quote(project.string()));
    CHECK(r3.code == 1);  // --out is required
}

TEST_CASE("cli: optimize --adjoint with combine min writes each wavelength, and Ctrl-C cancels the run under way",
          "[cli][adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    golightly::test::Scratch dir("cli", "adjoint_sigint");
    golightly::Json j = golightly::Json::parse(golightly::test::kAdjointGuide);
    j["design"]["objective"]["wavelengths_um"] = {1.5, 1.6};
    j["design"]["objective"]["combine"] = "min";
    const fs::path project = dir.path / "guide.glproj";
    std::ofstream(project) << j.dump();
    const fs::path out = dir.path / "opt";
    // in the background, SIGINT once iteration 1 is printed (the CLI is then in iteration 2)
    const std::string script = "cd " + quote(dir.path.string()) + " && { '" + std::string(GOLIGHTLY_CLI_PATH) +
                               "' optimize --adjoint " + quote(project.string()) + " --out " + quote(out.string()) +
                               " --max-iterations 1000 </dev/null >out.txt 2>err.txt & pid=$!; i=0; "
                               "while [ $i -lt 1200 ] && ! grep -q 'iteration 1:' out.txt; do sleep 0.05; i=$((i+1)); done; "
                               "kill -INT $pid; wait $pid; echo $? >rc.txt; }";
    REQUIRE(std::system(script.c_str()) == 0);
    const std::string stdout_text = slurp(dir.path / "out.txt");
    INFO(stdout_text << slurp(dir.path / "err.txt"));
    CHECK(std::stoi(slurp(dir.path / "rc.txt")) == 3);
    // the solver's cancel flag stopped a forward or adjoint run (not the end of an iteration)
    CHECK(stdout_text.find("(cancelled)") != std::string::npos);
    CHECK(stdout_text.find("mma, maximize the worst wavelength (epigraph form)") != std::string::npos);
    // history: the completed iterations, each with its wavelengths' values and their worst
    std::istringstream in(slurp(out / "history.csv"));
    std::string line;
    std::getline(in, line);
    // the wavelengths in the order of the runs' frequencies (ascending), as printed
    CHECK(line ==
          "iteration,beta,objective,gradient_norm,constraint_solid,constraint_void,steps,wall_s,objective@1.6,objective@1.5");
    int rows = 0;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
        REQUIRE(cells.size() == 10);
        CHECK(std::stoi(cells[0]) == rows);
        CHECK(std::stod(cells[2]) == std::min(std::stod(cells[8]), std::stod(cells[9])));
        ++rows;
    }
    CHECK(rows >= 2);
    // the checkpoint holds the last completed iteration: a resumed run continues after it
    const golightly::Json cp = golightly::Json::parse(slurp(out / "checkpoint.json"));
    CHECK(cp.at("next_iteration").get<int>() == rows);
    CHECK(fs::exists(out / "density.csv"));
    CHECK(fs::exists(out / "final.glproj"));
}
