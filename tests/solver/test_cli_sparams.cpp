// golightly-cli sparams (cmd_sparams.cpp): usage and project errors (the S-parameter
// computation itself is tested through run_sparameters in test_sparams.cpp; the example
// examples/strip_sparams_3d.glproj runs it end to end).
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "golightly/project.hpp"

namespace fs = std::filesystem;

namespace {

struct Out {
    int code = -1;
    std::string err;
};

Out cli(const std::string& args, const fs::path& dir) {
    const fs::path err = dir / "err.txt";
    const std::string cmd = std::string("'") + GOLIGHTLY_CLI_PATH + "' " + args + " </dev/null >/dev/null 2>'" +
                            err.string() + "'";
    const int status = std::system(cmd.c_str());
    Out o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream f(err);
    std::stringstream ss;
    ss << f.rdbuf();
    o.err = ss.str();
    return o;
}

}  // namespace

TEST_CASE("cli: sparams exits 2 naming the ports entry of a bad project", "[cli][sparams]") {
    std::random_device rd;
    const fs::path dir = fs::temp_directory_path() / ("golightly_cli_sparams_" + std::to_string(rd()));
    fs::create_directories(dir);
    const fs::path example = fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "strip_sparams_3d.glproj";
    std::ifstream in(example);
    golightly::Json doc = golightly::Json::parse(in);
    doc["ports"][1]["direction"] = "+y";
    const fs::path bad = dir / "bad.glproj";
    std::ofstream(bad) << doc.dump(2);
    Out o = cli("sparams '" + bad.string() + "' --out '" + (dir / "o").string() + "'", dir);
    INFO(o.err);
    CHECK(o.code == 2);
    CHECK(o.err.find("ports[1].direction") != std::string::npos);
    doc.erase("ports");
    std::ofstream(bad) << doc.dump(2);
    o = cli("sparams '" + bad.string() + "'", dir);
    CHECK(o.code == 2);
    CHECK(o.err.find("ports") != std::string::npos);
    o = cli("sparams", dir);  // PROJECT is required
    CHECK(o.code == 1);
    fs::remove_all(dir);
}
