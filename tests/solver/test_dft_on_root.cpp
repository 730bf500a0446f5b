// dft_on_root (distributed.hpp): the surface DFT samples a far-field projection needs,
// collected on one process. Whatever the engine (one domain, CPU subdomains in one
// process, a symmetric domain around either), its values must be Engine::dft()'s at the
// asked frequencies, sample for sample: they are copies, so the comparison is exact. The
// MPI path (one MPI_Gatherv to rank 0) is compared with one process by the CTest tests
// mpi_*_far_field_* (tests/mpi/mpi_run_test.sh).
#include <catch2/catch.hpp>

#include <complex>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/distributed.hpp"
#include "golightly/engine.hpp"
#include "golightly/project.hpp"
#include "golightly/symmetric_engine.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

using cvec = std::vector<std::complex<double>>;

CompiledProject compile_mpi_project(const std::string& name) {
    const fs::path file = fs::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "mpi" / name;
    return compile_project(load_project(file), file.string());
}

/// Every DFT set of `scene`, two frequencies (the last before the first, so that the
/// columns follow `freqs`, not the spectrum), checked against dft(): the number of
/// samples compared, for the caller to require some.
std::size_t check_against_dft(Engine& engine, const Scene& scene) {
    std::vector<int> sets;
    for (std::size_t s = 0; s < scene.dft_sets.size(); ++s) sets.push_back(int(s));
    REQUIRE(!sets.empty());
    const std::size_t nf = scene.dft_sets[0].frequencies_hz.size();
    REQUIRE(nf >= 2);
    const std::vector<std::size_t> freqs{nf - 1, 0};
    std::vector<cvec> got;
    REQUIRE(dft_on_root(engine, scene, sets, freqs, got));  // one process: always the root
    REQUIRE(got.size() == sets.size());
    std::size_t compared = 0, nonzero = 0;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const cvec all = engine.dft(sets[i]);
        const std::size_t n = scene.dft_sets[std::size_t(sets[i])].frequencies_hz.size();
        REQUIRE(all.size() % n == 0);
        const std::size_t samples = all.size() / n;
        REQUIRE(got[i].size() == samples * freqs.size());
        for (std::size_t k = 0; k < samples; ++k)
            for (std::size_t q = 0; q < freqs.size(); ++q) {
                const std::complex<double> want = all[k * n + freqs[q]];
                if (got[i][k * freqs.size() + q] != want) {
                    FAIL("set " << sets[i] << " sample " << k << " frequency " << freqs[q] << ": "
                                << got[i][k * freqs.size() + q] << " against dft() " << want);
                }
                ++compared;
                if (want != 0.0) ++nonzero;
            }
    }
    REQUIRE(nonzero > compared / 2);  // the fields reached the surfaces: a zero-for-zero match proves nothing
    return compared;
}

std::vector<SubdomainDevice> cpu_pieces(int n) {
    std::vector<SubdomainDevice> d(static_cast<std::size_t>(n));
    for (auto& x : d) x.threads = 1;
    return d;
}

}  // namespace

TEST_CASE("dft_on_root: one domain and CPU subdomains give dft() at the asked frequencies, 2D and 3D",
          "[distributed][far_field]") {
    for (const char* name : {"mpi2d_far_field.glproj", "mpi3d_far_field.glproj"}) {
        const CompiledProject c = compile_mpi_project(name);
        const Scene& s = c.scene;
        auto one = make_cpu_engine(view_of(s), Precision::Float64, 1);
        one->step(60);
        const std::size_t n1 = check_against_dft(*one, s);
        for (int pieces : {2, 3}) {
            DistributedEngine many(view_of(s), Precision::Float64, cpu_pieces(pieces));
            REQUIRE(many.partition().subs.size() == std::size_t(pieces));
            many.step(60);
            CHECK(check_against_dft(many, s) == n1);
        }
        std::printf("%s: %zu samples x frequencies equal\n", name, n1);
    }
}

TEST_CASE("dft_on_root: a symmetric domain expands its inner engine's samples as dft() does, on one domain and on "
          "CPU subdomains",
          "[distributed][far_field][symmetry]") {
    const CompiledProject c = compile_mpi_project("mpi3d_symmetry_far_field.glproj");
    const Scene& s = c.scene;
    REQUIRE((s.symmetry[0] != 0 || s.symmetry[1] != 0 || s.symmetry[2] != 0));
    auto plain = make_symmetric_engine(s, [](const Scene& r) { return make_cpu_engine(view_of(r), Precision::Float64, 1); });
    REQUIRE(dynamic_cast<SymmetricEngine*>(plain.get()) != nullptr);
    auto split = make_symmetric_engine(s, [](const Scene& r) {
        return std::make_unique<DistributedEngine>(view_of(r), Precision::Float64, cpu_pieces(2));
    });
    plain->step(60);
    split->step(60);
    const std::size_t n = check_against_dft(*plain, s);
    CHECK(check_against_dft(*split, s) == n);
}

TEST_CASE("dft_on_root: a set or frequency the scene lacks is refused, naming it", "[distributed][far_field]") {
    const CompiledProject c = compile_mpi_project("mpi2d_far_field.glproj");
    const Scene& s = c.scene;
    auto one = make_cpu_engine(view_of(s), Precision::Float64, 1);
    std::vector<cvec> out;
    const int bad_set = int(s.dft_sets.size());
    CHECK_THROWS_WITH(dft_on_root(*one, s, {bad_set}, {0}, out),
                      Catch::Contains("no DFT set " + std::to_string(bad_set)));
    const std::size_t nf = s.dft_sets[0].frequencies_hz.size();
    CHECK_THROWS_AS(dft_on_root(*one, s, {0}, {nf}, out), std::out_of_range);
    DistributedEngine many(view_of(s), Precision::Float64, cpu_pieces(2));
    CHECK_THROWS_WITH(dft_on_root(many, s, {0}, {nf}, out), Catch::Contains("not index " + std::to_string(nf)));
}
