// The pole recursion of the CUDA engine in float32 (cuda_dispersion.cuh, the difference form
// of scene.hpp PoleCoeffs): the k = 0 mode of a periodic box of B-CALM's gold poles against
// the recursion stepped in double (tests/common/pole_rounding.hpp; the CPU engine's test is
// tests/solver/test_pole_rounding.cpp, which says why).
#include <catch2/catch.hpp>

#include <vector>

#include "golightly/engine.hpp"
#include "pole_rounding.hpp"

using namespace golightly;
using namespace golightly::test;

TEST_CASE("CUDA float32 poles: the k = 0 mode of B-CALM's Drude and first Lorentz pole follows the double "
          "recursion", "[dispersive][3d][pole_rounding]") {
    struct Case { Pole pole; double r; std::vector<int> checkpoints; };
    const std::vector<int> drude_at = {2000, 5000, 10000, 20000}, lorentz_at = {5000, 10000, 20000, 40000};
    const std::vector<Case> cases = {{drude_bcalm(), 40.5, drude_at},      {drude_bcalm(), 40.75, drude_at},
                                     {drude_bcalm(), 80.5, drude_at},      {drude_bcalm(), 120.0, drude_at},
                                     {lorentz_bcalm_1(), 80.0, lorentz_at}, {lorentz_bcalm_1(), 120.0, lorentz_at}};
    for (const Case& c : cases) {
        const Scene s = uniform_pole_box(c.pole, 0.04 / c.r);
        INFO((c.pole.kind == PoleKind::Drude ? "Drude" : "Lorentz") << " pole, dx = 0.04 / " << c.r << " um");
        for (Precision p : {Precision::Float32, Precision::Float64}) {
            auto engine = make_cuda_engine(s, p);
            const std::vector<double> err = uniform_pole_errors(s, *engine, c.checkpoints);
            for (std::size_t i = 0; i < err.size(); ++i) {
                INFO((p == Precision::Float32 ? "float32" : "float64") << ", step " << c.checkpoints[i]);
                CHECK(err[i] < (p == Precision::Float32 ? 5e-5 : 1e-9));
            }
        }
    }
}
