// A Bloch phase along the cut axis (y in 2D, z in 3D) on several CPU subdomains: the halo
// planes that cross the wrap between the last and the first subdomain carry the phase
// (partition.hpp HaloTransfer::phase: exp(-i phi) into the first one's lower halo, exp(+i
// phi) into the last one's upper halo), as the one-domain engine's wrapped read does
// (cpu_bloch.hpp BlochRotation, scene.hpp "Bloch-periodic axes"), and so do the complex
// weights of source cells on those halo planes. Float64, 2 and 3 pieces against one domain:
// fields (real copy), DFTs (X_re + i X_im: the imaginary copy), time probes and the energy
// (both copies). The same projects run on MPI ranks in tests/mpi (mpi_*_bloch_cut_*).
//
// Bound: the subdomains take the same floating-point operations as the one domain on every
// owned cell (the rotation (cos re - sin im, sin re + cos im) is the one-domain engine's
// expression); only the reductions (probe sums over subdomains, the energy's halo
// subtraction) add in another order, a few units of 2^-53 of the largest term, so 1e-12
// relative (as tests/solver/test_partition.cpp for real fields) holds with room. Without
// the phase on the wrap the halo carries F instead of exp(+-i phi) F, an O(1) error of
// |1 - exp(i phi)| = 2 sin(phi / 2) in the wave that crosses it. Float32 (its own bound,
// below): the same projects and cells in single precision.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bloch_cases.hpp"
#include "field_deviation.hpp"
#include "golightly/compile.hpp"
#include "golightly/distributed.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/partition.hpp"
#include "golightly/project.hpp"
#include "partition_projects.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::parttest;

namespace {

/// The host exchange with every transfer's phase set to 0 (the plain periodic wrap): the
/// defect the tests must catch.
class PhaseDroppingHalo final : public HaloExchange {
public:
    std::string transport() const override { return "memcpy without the wrap phase (test)"; }
    void exchange(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        std::vector<HaloTransfer> t = transfers;
        for (HaloTransfer& x : t) x.phase = 0;
        inner_->exchange(t, engines);
    }

private:
    std::unique_ptr<HaloExchange> inner_ = make_host_halo_exchange();
};

/// Steps `scene` on one CPU engine and on `pieces` CPU subdomains (the phase dropped from the
/// exchange when drop_phase) and returns the largest relative difference of every field
/// component, DFT set, time probe and the energy. With set_pattern, both first get their
/// first component (components_of) set to a pattern by set_field.
double bloch_cut_vs_single(const Scene& scene, int pieces, int steps, bool drop_phase, bool set_pattern = false,
                           Precision precision = Precision::Float64) {
    auto view = view_of(scene);
    auto one = make_cpu_engine(view, precision, 1);
    std::vector<SubdomainDevice> devs(static_cast<std::size_t>(pieces));
    for (SubdomainDevice& d : devs) d.threads = 1;
    DistributedSetup setup{devs, nullptr, nullptr};
    if (drop_phase)
        setup.halo = [](const std::vector<SubdomainAccess*>&) -> std::unique_ptr<HaloExchange> {
            return std::make_unique<PhaseDroppingHalo>();
        };
    DistributedEngine many(view, precision, setup);
    REQUIRE(many.partition().subs.size() == std::size_t(pieces));
    if (set_pattern) {
        const Component c = components_of(scene)[0];
        std::vector<double> v(scene.cells());
        for (std::size_t k = 0; k < v.size(); ++k) v[k] = std::sin(0.37 * double(k)) * std::cos(0.011 * double(k));
        one->set_field(c, v);
        many.set_field(c, v);
    }
    one->step(steps);
    many.step(steps / 2);  // in two calls: the exchange must also be right across step() calls
    many.step(steps - steps / 2);
    // Fields relative to the largest E (H) component's peak: a component that is zero but
    // for rounding (an s-polarized wave has no Ex, Ez, Hy) is compared at the field's scale.
    // DFT sets likewise relative to the largest E (H) set's peak
    double worst = std::max(test::field_deviation(*one, many, scene), test::dft_deviation(*one, many, scene));
    for (std::size_t q = 0; q < scene.time_probes.size(); ++q)
        worst = std::max(worst, rel_diff(many.time_samples(int(q)), one->time_samples(int(q))));
    const double e1 = one->field_energy(), e2 = many.field_energy();
    REQUIRE(e1 > 0);
    return std::max(worst, std::abs(e2 - e1) / e1);
}

}  // namespace

TEST_CASE("distributed Bloch cut axis: 2D cells with the Bloch phase along y equal one domain, 2 and 3 pieces",
          "[distributed][bloch]") {
    for (const test::BlochCase& bc : test::all_2d_bloch_cases()) {
        if (bc.bloch_axis != 1) continue;  // y: the 2D cut axis
        const Scene s = test::bloch_y_cut_cell(bc);
        REQUIRE(s.complex_fields);
        REQUIRE(s.bloch_phase[1] != 0);
        for (int pieces : {2, 3}) {
            const Partition p = partition_scene(s, pieces);
            REQUIRE(p.periodic);
            int wraps = 0;
            for (const HaloTransfer& t : p.transfers)
                if (t.phase != 0) {
                    ++wraps;
                    // into the first one's lower halo: -phi; into the last one's upper halo: +phi
                    CHECK(t.phase == (t.to == 0 ? -s.bloch_phase[1] : s.bloch_phase[1]));
                }
            CHECK(wraps == 2);
            for (const Subdomain& sd : p.subs) CHECK(sd.scene.bloch_phase[1] == 0);
            const double d = bloch_cut_vs_single(s, pieces, 120, false);
            const double d0 = bloch_cut_vs_single(s, pieces, 120, true);
            std::printf("2D Bloch y (cut axis), %s, %d pieces: %.3g; wrap phase dropped: %.3g\n",
                        test::describe(bc).c_str(), pieces, d, d0);
            CHECK(d < 1e-12);
            CHECK(d0 > 1e-2);
        }
    }
}

TEST_CASE("distributed Bloch cut axis: set_field fills the wrap halos with the phase", "[distributed][bloch]") {
    test::BlochCase bc;
    bc.bloch_axis = 1;
    const Scene s = test::bloch_y_cut_cell(bc);
    const double d = bloch_cut_vs_single(s, 3, 40, false, true);
    std::printf("2D Bloch y, set_field then 40 steps, 3 pieces: %.3g\n", d);
    CHECK(d < 1e-12);
}

TEST_CASE("distributed Bloch cut axis: the 2D and 3D oblique projects of the MPI tests equal one domain",
          "[distributed][bloch]") {
    struct Case {
        const char* file;
        int axis, steps;
    };
    for (const Case& c : {Case{"mpi2d_bloch_cut.glproj", 1, 300}, Case{"mpi3d_bloch_cut.glproj", 2, 150}}) {
        const CompiledProject cp = compile_mpi_data_project(c.file);
        const Scene& s = cp.scene;
        REQUIRE(s.complex_fields);
        REQUIRE(s.bloch_phase[c.axis] != 0);
        REQUIRE(partition_axis(s) == c.axis);
        for (int pieces : {2, 3}) {
            const double d = bloch_cut_vs_single(s, pieces, c.steps, false);
            const double d0 = bloch_cut_vs_single(s, pieces, c.steps, true);
            std::printf("%s, %d pieces: %.3g; wrap phase dropped: %.3g\n", c.file, pieces, d, d0);
            CHECK(d < 1e-12);
            CHECK(d0 > 1e-2);
        }
    }
}

TEST_CASE("distributed Bloch cut axis: refusals name the axis and the reason", "[distributed][bloch]") {
    test::BlochCase bc;
    bc.bloch_axis = 1;
    const Scene s = test::bloch_y_cut_cell(bc);
    // the phase needs the wrap and complex fields; TF/SF cannot run with it
    Scene pml = s;
    pml.boundary[1] = BoundaryKind::Pml;
    CHECK_THROWS_WITH(partition_scene(pml, 2), Catch::Contains("a Bloch phase along y") &&
                                                   Catch::Contains("periodic boundary"));
    Scene real = s;
    real.complex_fields = false;
    CHECK_THROWS_WITH(partition_scene(real, 2), Catch::Contains("needs complex fields"));
    Scene tfsf = s;
    tfsf.tfsf.emplace_back();
    CHECK_THROWS_WITH(partition_scene(tfsf, 2), Catch::Contains("TF/SF"));
    // a tensor coupling site on the wrapped edge (the one-domain engines refuse it too)
    Scene an = s;
    an.anisotropic.cells[0].push_back(test::cell(an, 20, an.ny - 1));
    CHECK_THROWS_WITH(partition_scene(an, 2), Catch::Contains("wrapped edge"));
    // a DFT sample whose second cell lies across the wrap (an H average at y = 0)
    Scene dft = s;
    DftSet d;
    d.component = Component::Hx;
    d.frequencies_hz = {1e14};
    d.cell0 = {test::cell(dft, 20, dft.ny - 1)};
    d.cell1 = {test::cell(dft, 20, 0)};
    d.w0 = d.w1 = {0.5};
    dft.dft_sets.push_back(d);
    CHECK_THROWS_WITH(partition_scene(dft, 2), Catch::Contains("across the wrap"));
    // one piece is the scene itself, phase and all
    CHECK(partition_scene(s, 1).subs.at(0).scene.bloch_phase[1] == s.bloch_phase[1]);
    // CUDA subdomains take the phase too (the device rotation, tests/gpu/cuda_bloch_cut.cpp):
    // the constructor goes on to the devices; without a GPU it fails there, for another
    // reason than the phase.
    std::vector<SubdomainDevice> gpus(2);
    for (SubdomainDevice& g : gpus) g.cuda = true;
    try {
        DistributedEngine e(view_of(s), Precision::Float64, gpus);
        CHECK(e.partition().subs.size() == 2);
    } catch (const std::exception& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("Bloch") == std::string::npos);
    }
}

// Float32: the subdomains still take the one domain's operations on every owned cell but
// one: a value read across the wrap is the halo's exp(+-i phi) F, formed in double and
// rounded once to float (apply_halo_phase), where the one-domain engine forms it from cos
// and sin rounded to float, in float (cpu_bloch.hpp BlochRotation::row): the two differ by
// at most 3 units of u = 2^-24 of |F| (the rounding of cos and sin, of the two products and
// the sum, against one rounding). These differences enter each step at the wrap planes; the
// update is a stable linear map (the Courant limit; PML and the slab's loss only damp), so a
// perturbation is carried without growth and N steps add at most N of them: 3 N u of the
// field's scale, held to 8 N u for the E and H of both copies (the DFTs, sums over the steps
// of those fields with unit weights at the band's frequencies, and the energy, quadratic
// in them, inherit the bound relative to their own scales while the pulse is within the
// run): 5.7e-5 at 120 steps, 1.4e-4 at 300 (measured: 2.3e-7 to 5.3e-7, a few u). Without
// the phase the error is O(1) (> 1e-2; measured 0.3 to 1.4).
TEST_CASE("distributed Bloch cut axis: float32 on 2 and 3 pieces equals one float32 domain to float32 rounding",
          "[distributed][bloch]") {
    const double u = std::ldexp(1.0, -24);
    struct Case {
        std::string name;
        Scene scene;
        int steps;
    };
    std::vector<Case> cases;
    for (const test::BlochCase& bc : test::all_2d_bloch_cases())
        if (bc.bloch_axis == 1 && bc.dispersive == (bc.pol == Polarization::TEz))  // TMz plain, TEz dispersive
            cases.push_back({test::describe(bc), test::bloch_y_cut_cell(bc), 120});
    cases.push_back({"mpi2d_bloch_cut.glproj", compile_mpi_data_project("mpi2d_bloch_cut.glproj").scene, 300});
    cases.push_back({"mpi3d_bloch_cut.glproj", compile_mpi_data_project("mpi3d_bloch_cut.glproj").scene, 150});
    for (const Case& c : cases) {
        REQUIRE(c.scene.complex_fields);
        const double bound = 8.0 * c.steps * u;
        for (int pieces : {2, 3}) {
            const double d = bloch_cut_vs_single(c.scene, pieces, c.steps, false, false, Precision::Float32);
            std::printf("float32 Bloch cut axis, %s, %d pieces, %d steps: %.3g (bound 8 N u = %.3g)\n", c.name.c_str(),
                        pieces, c.steps, d, bound);
            CHECK(d < bound);
        }
        const double d0 = bloch_cut_vs_single(c.scene, 2, c.steps, true, false, Precision::Float32);
        std::printf("float32 Bloch cut axis, %s, wrap phase dropped: %.3g\n", c.name.c_str(), d0);
        CHECK(d0 > 1e-2);
    }
}

TEST_CASE("apply_halo_phase: exp(i phase) times re + i im, float and double", "[distributed][bloch]") {
    const double phase = 2.1;
    std::vector<double> re = {1.0, 0.0, -0.3}, im = {0.0, 1.0, 0.7};
    std::vector<float> ref = {1.0f, 0.0f, -0.3f}, imf = {0.0f, 1.0f, 0.7f};
    std::vector<std::complex<double>> want;
    for (std::size_t k = 0; k < re.size(); ++k) want.push_back(std::polar(1.0, phase) * std::complex<double>(re[k], im[k]));
    apply_halo_phase(re.data(), im.data(), re.size(), phase);
    apply_halo_phase(ref.data(), imf.data(), ref.size(), phase);
    for (std::size_t k = 0; k < re.size(); ++k) {
        CHECK(re[k] == Approx(want[k].real()).margin(1e-15));
        CHECK(im[k] == Approx(want[k].imag()).margin(1e-15));
        CHECK(ref[k] == Approx(want[k].real()).margin(2e-7));
        CHECK(imf[k] == Approx(want[k].imag()).margin(2e-7));
    }
}
