// Project parameters and expression strings (parameters.hpp), and the sweep machinery
// that needs no physics (sweep.hpp): argument parsing, the design grid, the device queue
// with a fake runner, resuming.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "golightly/errors.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "golightly/sweep.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

using namespace golightly;

namespace {

const char* kParamProject = R"JSON({"format": "golightly-project", "version": 1,
  "parameters": {"w": 0.5, "t": "220 nm", "n": 2, "d": "1.6 / (4 * n)", "N": 11},
  "domain": {"size": ["2 * w + 1", 1], "cell_size": "10 nm"},
  "materials": [{"id": "si", "epsilon_inf": "n^2"}],
  "layers": [{"name": "core", "material": "si", "shapes": [
      {"type": "rectangle", "min": [0.2, "0.5 - t/2"], "max": ["0.2 + d", "0.5 + t/2"]}]}],
  "sources": [{"type": "line", "from": [0.1, 0], "to": [0.1, 1]}],
  "monitors": [{"name": "T", "type": "flux", "from": [1.5, 0], "to": [1.5, 1]}],
  "run": {"spectrum": {"wavelength_min": 1.4, "wavelength_max": 1.8, "points": "N"}}})JSON";

std::string error_of(const std::string& text, const ParameterOverrides& o = {}) {
    try {
        parse_project(text, "p.glproj", o);
    } catch (const ProjectError& e) {
        return e.what();
    }
    return "";
}

std::string with_field(const std::string& params, const std::string& cell_size) {
    return R"({"format": "golightly-project", "version": 1, "parameters": )" + params +
           R"(, "domain": {"size": [2, 1], "cell_size": )" + cell_size + "}}";
}

}  // namespace

TEST_CASE("parameters: expressions in numeric fields, units, integer fields", "[parameters]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    const Project p = parse_project(kParamProject, "p.glproj");
    REQUIRE(p.parameters.size() == 5);
    CHECK(p.parameters[1].name == "t");
    CHECK(p.parameters[1].text == "220 nm");
    CHECK(p.parameters[1].value == Approx(0.22));
    CHECK(p.parameters[3].value == Approx(0.2));  // d = 1.6 / (4 n): earlier parameters are visible
    CHECK(p.domain.size[0] == Approx(2.0));
    CHECK(p.domain.cell_size == Approx(0.01));
    CHECK(p.materials[0].epsilon_inf == Approx(4.0));
    CHECK(p.layers[0].shapes[0].min.y == Approx(0.39));
    CHECK(p.layers[0].shapes[0].max.x == Approx(0.4));
    CHECK(p.run.spectrum.points == 11);
    // Every expression is kept beside its value, keyed by its JSON path.
    std::map<std::string, std::string> by_path;
    for (const auto& e : p.expressions) by_path[e.path] = e.text;
    CHECK(by_path.at("domain.size[0]") == "2 * w + 1");
    CHECK(by_path.at("layers[0].shapes[0].max[0]") == "0.2 + d");
    CHECK(by_path.at("run.spectrum.points") == "N");
    CHECK(p.expressions.size() == 7);
    std::printf("parameters: %zu parameters, %zu field expressions; d = %.6g um, t = %.6g um\n", p.parameters.size(),
                p.expressions.size(), p.parameters[3].value, p.parameters[1].value);
}

TEST_CASE("parameters: save keeps the expressions, with_parameters re-evaluates them", "[parameters]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    const Project p = parse_project(kParamProject, "p.glproj");
    const Json j = project_to_json(p);
    CHECK(j["parameters"]["t"] == "220 nm");
    CHECK(j["parameters"]["w"] == 0.5);
    CHECK(j["domain"]["size"][0] == "2 * w + 1");
    CHECK(j["layers"][0]["shapes"][0]["min"][1] == "0.5 - t/2");
    CHECK(j["run"]["spectrum"]["points"] == "N");
    const Project again = parse_project(j.dump(2), "again.glproj");
    CHECK(again == p);

    const Project q = with_parameters(p, {{"w", "0.75"}, {"n", "3"}}, "p.glproj");
    CHECK(q.domain.size[0] == Approx(2.5));
    CHECK(q.materials[0].epsilon_inf == Approx(9.0));
    CHECK(q.layers[0].shapes[0].max.x == Approx(0.2 + 1.6 / 12));  // d follows n
    CHECK(q.parameters[0].text.empty());
    CHECK(q.parameters[0].value == 0.75);
    CHECK(project_to_json(q)["domain"]["size"][0] == "2 * w + 1");
    // An override that is an expression, with a unit.
    const Project r = with_parameters(p, {{"t", "0.3um"}}, "p.glproj");
    CHECK(r.layers[0].shapes[0].min.y == Approx(0.35));

    // Re-evaluation goes through the in-memory JSON document (no file): cheap for the IDE.
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i) (void)with_parameters(p, {{"w", parameter_text(0.5 + 0.001 * i)}}, "p.glproj");
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / 100;
    std::printf("parameters: with_parameters re-evaluates %zu expressions in %.3f ms\n", p.expressions.size(), ms);
    // A field edited to another number keeps the number and drops the expression on save.
    Project edited = p;
    edited.domain.size[0] = 3.0;
    CHECK(project_to_json(edited)["domain"]["size"][0] == 3.0);
}

TEST_CASE("parameters: errors name the file, the JSON path and the expression's problem", "[parameters]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    auto contains = [](const std::string& s, const std::string& part) {
        INFO(s);
        CHECK(s.find(part) != std::string::npos);
    };
    const std::string unknown = error_of(with_field(R"({"w": 1})", R"("w / q")"));
    contains(unknown, "p.glproj: domain.cell_size: the expression \"w / q\": unknown parameter \"q\" (defined here: w)");
    contains(error_of(with_field(R"({"w": 1})", R"("w / 0")")), "domain.cell_size: the expression \"w / 0\": division by zero");
    contains(error_of(with_field(R"({"w": -1})", R"X("sqrt(w)")X")), "the value is not a number");
    contains(error_of(with_field(R"({"w": 1})", R"("w * (2")")), "domain.cell_size: the expression \"w * (2\"");
    contains(error_of(with_field(R"({"w": "1 / 0"})", "0.1")), "parameters.w: the expression \"1 / 0\": division by zero");
    contains(error_of(with_field(R"({"2w": 1})", "0.1")), "parameters.2w: invalid parameter name");
    contains(error_of(with_field(R"({"nm": 1})", "0.1")), "parameters.nm: invalid parameter name");
    contains(error_of(with_field(R"({"w": true})", "0.1")), "parameters.w: must be a number or an expression string");
    contains(error_of(with_field(R"({"a": "b + 1", "b": 1})", "0.1")), "parameters.a: the expression \"b + 1\": unknown parameter \"b\" (no parameter is defined here)");
    contains(error_of(with_field(R"({"w": 1})", "0.1"), {{"q", "2"}}), "parameters.q: is not a parameter of the project (it has: w)");
    // An integer field must get an integer.
    const std::string pts = error_of(R"({"format": "golightly-project", "version": 1, "parameters": {"N": 2.5},
        "domain": {"size": [2, 1], "cell_size": 0.1}, "run": {"spectrum": {"points": "N"}}})");
    contains(pts, "run.spectrum.points: the expression \"N\" must give an integer (it gives 2.5)");
    // Without a `parameters` member the number fields stay strict (format 1 as before).
    const std::string strict = error_of(R"({"format": "golightly-project", "version": 1,
        "domain": {"size": [2, 1], "cell_size": "0.1"}})");
    contains(strict, "domain.cell_size: must be a number (found a string; expression strings need a top-level \"parameters\" object");
    CHECK(parse_project(with_field("{}", R"("10 nm")"), "p.glproj").domain.cell_size == Approx(0.01));
    // The validator still runs on evaluated values.
    contains(error_of(with_field(R"({"w": 1})", R"("-w")")), "domain.cell_size");
    // A string where no scope applies (the material library) is still a type error.
    CHECK_THROWS_AS(material_from_json(Json::parse(R"({"id": "x", "epsilon_inf": "2"})"), "m", "lib.json"), ProjectError);
    std::printf("parameters: unknown-name error: %s\n", unknown.c_str());
}

TEST_CASE("parameters: evaluate_expression and --param assignments", "[parameters]") {
    if (expressions_available()) {
        CHECK(evaluate_expression("2 * pi", {}) == Approx(6.283185307));
        CHECK(evaluate_expression("1.55 um + 10nm", {}) == Approx(1.56));
        CHECK(evaluate_expression("2 ps", {}) == Approx(2000));
        CHECK(evaluate_expression("T(1.5) * 2", {}, {{"T", [](double wl) { return wl + 1; }}}) == Approx(5.0));
        CHECK(evaluate_expression("w > 1 ? 3 : 4", {{"w", 2}}) == 3);
        CHECK_THROWS_AS(evaluate_expression(std::string(1200, '1'), {}), std::invalid_argument);
    } else {
        CHECK_THROWS_AS(evaluate_expression("1 + 1", {}), std::invalid_argument);
    }
    CHECK(evaluate_expression(" 0.25 ", {}) == 0.25);  // plain numbers need no parser
    const auto o = parse_parameter_assignments({"w=0.4", "t=250 nm"});
    REQUIRE(o.size() == 2);
    CHECK(o[1] == std::pair<std::string, std::string>("t", "250 nm"));
    CHECK_THROWS_AS(parse_parameter_assignments({"w"}), std::invalid_argument);
    CHECK_THROWS_AS(parse_parameter_assignments({"1w=2"}), std::invalid_argument);
    CHECK_THROWS_AS(parse_parameter_assignments({"w="}), std::invalid_argument);
}

TEST_CASE("sweep: --param grammar and the design grid", "[sweep]") {
    const auto a = parse_sweep_parameter("w=0.4:0.6:11");
    REQUIRE(a.values.size() == 11);
    CHECK(a.values[0] == 0.4);
    CHECK(a.values[5] == Approx(0.5));
    CHECK(a.values[10] == 0.6);
    const auto b = parse_sweep_parameter("n=1.5,2,3");
    CHECK(b.values == std::vector<double>{1.5, 2, 3});
    CHECK(parse_sweep_parameter("x=1:2:1").values == std::vector<double>{1});
    CHECK_THROWS_AS(parse_sweep_parameter("w=0.4:0.6"), std::invalid_argument);
    CHECK_THROWS_AS(parse_sweep_parameter("w=0.4:0.6:0"), std::invalid_argument);
    CHECK_THROWS_AS(parse_sweep_parameter("w=a:0.6:3"), std::invalid_argument);
    const auto bound = parse_bound_parameter("d=0.1..0.3");
    CHECK(bound.lo == 0.1);
    CHECK(bound.hi == 0.3);
    CHECK_THROWS_AS(parse_bound_parameter("d=0.3..0.1"), std::invalid_argument);
    CHECK_THROWS_AS(parse_bound_parameter("d=0.3"), std::invalid_argument);

    const auto grid = sweep_grid({{"a", {1, 2}}, {"b", {10, 20, 30}}});
    REQUIRE(grid.size() == 6);
    CHECK(grid[0] == std::vector<double>{1, 10});
    CHECK(grid[1] == std::vector<double>{1, 20});  // last parameter fastest
    CHECK(grid[5] == std::vector<double>{2, 30});
}

TEST_CASE("sweep: the device queue runs one job per worker at a time and uses every worker", "[sweep]") {
    constexpr int kWorkers = 3;
    constexpr std::size_t kJobs = 20;
    std::mutex m;
    std::atomic<int> busy[kWorkers] = {};
    std::atomic<int> max_busy{0}, overlap_violations{0};
    std::vector<int> done_by(kJobs, -1);
    std::vector<int> jobs_per_worker(kWorkers, 0);
    run_job_queue(kJobs, kWorkers, [&](std::size_t job, int worker) {
        REQUIRE(worker >= 0);
        REQUIRE(worker < kWorkers);
        if (busy[worker].fetch_add(1) != 0) ++overlap_violations;  // the fake "device" is already busy
        int total = 0;
        for (auto& b : busy) total += b.load();
        int prev = max_busy.load();
        while (total > prev && !max_busy.compare_exchange_weak(prev, total)) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5 + 3 * int(job % 4)));
        busy[worker].fetch_sub(1);
        std::lock_guard<std::mutex> lock(m);
        done_by[job] = worker;
        ++jobs_per_worker[worker];
    });
    for (int w : done_by) CHECK(w >= 0);  // every job ran once
    CHECK(overlap_violations == 0);
    for (int n : jobs_per_worker) CHECK(n > 0);
    CHECK(max_busy.load() <= kWorkers);
    CHECK(max_busy.load() >= 2);  // the devices ran in parallel
    std::printf("queue: %zu jobs on %d workers: %d/%d/%d jobs each, at most %d at once\n", kJobs, kWorkers,
                jobs_per_worker[0], jobs_per_worker[1], jobs_per_worker[2], max_busy.load());

    // An exception escaping a job stops the queue and is rethrown.
    std::atomic<int> started{0};
    CHECK_THROWS_AS(run_job_queue(50, 2,
                                  [&](std::size_t job, int) {
                                      ++started;
                                      if (job == 3) throw std::runtime_error("boom");
                                      std::this_thread::sleep_for(std::chrono::milliseconds(2));
                                  }),
                    std::runtime_error);
    CHECK(started.load() < 50);
}

TEST_CASE("sweep: resumes, skipping designs whose folder holds a complete run", "[sweep]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    test::Scratch scratch("sweep", "resume");
    const Project p = parse_project(kParamProject, "p.glproj");
    // A fake runner: T(wl) = w * wl, written as run_project's results would be.
    std::atomic<int> calls{0};
    std::atomic<int> fail_at{-1};
    DesignRunner fake = [&](const Project& design, const std::string&, const ParameterOverrides& o,
                            const std::filesystem::path& dir, int) {
        const int call = calls++;
        if (call == fail_at.load()) throw RunError("fake failure");
        REQUIRE(o.at(0).first == "w");
        const double w = design.parameters[0].value;
        std::ofstream(dir / "spectra.csv") << "wavelength_um,frequency_thz,T,T_flux\n"
                                           << "1.8,166.5,"
                                           << w * 1.8 << ",0\n1.4,214.1," << w * 1.4 << ",0\n";
        std::ofstream(dir / "summary.json") << R"({"stop_reason": "decay"})";
    };
    SweepOptions o;
    o.out = scratch.path;
    o.runner = fake;
    o.at_um = {1.6, 1.5};
    fail_at = 2;
    const auto first = run_sweep(p, "p.glproj", {parse_sweep_parameter("w=1:4:4")}, o);
    CHECK(first.designs == 4);
    CHECK(first.ran == 3);
    CHECK(first.failed == 1);
    CHECK(calls.load() == 4);
    REQUIRE(first.columns == std::vector<std::string>{"design", "w", "T@1.6", "T@1.5", "status"});
    CHECK(first.rows[1][0] == Approx(2 * 1.6));  // interpolated between the rows
    CHECK(first.rows[3][1] == Approx(4 * 1.5));
    const std::string csv = test::slurp(scratch.path / "sweep.csv");
    CHECK(csv.find("design,w,T@1.6,T@1.5,status\n0,1,1.6,1.5,ok\n") == 0);
    CHECK(csv.find("2,3,nan,nan,failed: fake failure") != std::string::npos);

    // The re-run runs only the failed design.
    fail_at = -1;
    calls = 0;
    const auto second = run_sweep(p, "p.glproj", {parse_sweep_parameter("w=1:4:4")}, o);
    CHECK(calls.load() == 1);
    CHECK(second.skipped == 3);
    CHECK(second.ran == 1);
    CHECK(second.rows[2][0] == Approx(3 * 1.6));
    // A different grid reuses nothing whose design differs (same folder names, other values).
    calls = 0;
    run_sweep(p, "p.glproj", {parse_sweep_parameter("w=1,2,5,4")}, o);
    CHECK(calls.load() == 1);  // only design 2 (w = 5) changed
    // An interrupted design (no summary.json) runs again.
    std::filesystem::remove(scratch.path / "design_0001" / "summary.json");
    calls = 0;
    run_sweep(p, "p.glproj", {parse_sweep_parameter("w=1,2,5,4")}, o);
    CHECK(calls.load() == 1);
    // A wavelength outside the spectrum is a usage error.
    o.at_um = {2.5};
    CHECK_THROWS_AS(run_sweep(p, "p.glproj", {parse_sweep_parameter("w=1:4:4")}, o), std::invalid_argument);
    std::printf("sweep resume: first run %zu ran, %zu failed; second run %zu reused, %zu ran\n", first.ran, first.failed,
                second.skipped, second.ran);
}
