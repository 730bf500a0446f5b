// The distributed engine stepping in pairs (distributed.hpp "Two steps per pass"): two
// steps between halo exchanges with every halo plane exchanged (pair_halo_transfers). On
// CUDA subdomains each pair is one pass of update_he3_two (tests/gpu/
// cuda_distributed_two_step.cpp); here GOLIGHTLY_DIST_TWO_STEP=1 forces the same schedule
// on CPU subdomains, whose step(2) is two ordinary steps, so that the halo depth, the
// transfers and the rule on per-cell state (pair_state_refusal) are checked without a GPU:
// the fields, DFT accumulators, probes and energy must equal one CPU engine to rounding
// (float64, the bound of test_partition.cpp), for even and odd step counts split over two
// step() calls (an odd step runs one step per pass); and where a halo plane holds CPML or
// pole state, pairs would be wrong (shown below), so the engine refuses them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/distributed.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/partition.hpp"
#include "golightly/project.hpp"
#include "env_set.hpp"
#include "pair_projects.hpp"
#include "partition_projects.hpp"

using namespace golightly;
using namespace golightly::parttest;

namespace {

/// project_3d (partition_projects.hpp: CPML, a dispersive sphere, a dielectric box, TF/SF,
/// a dipole, flux boxes, a flux plane, a time probe, a DFT volume) without sub-pixel
/// averaging: no tensor couplings, so the partition's halos are 2 planes deep.
CompiledProject staircase_project_3d(bool periodic_z) {
    Project p = project_3d(periodic_z);
    p.run.subpixel_averaging = false;
    return compile_project(p, periodic_z ? "pairs3d_periodic.glproj" : "pairs3d.glproj");
}

/// Weights that keep the cuts of walled_project (pair_projects.hpp) off its
/// dispersive sphere (z planes 10-19 of 48) and dielectric box (32-36): cuts near plane 24
/// (2 pieces), 22 and 28 (3), 22, 26 and 30 (4).
std::vector<double> pair_weights(int pieces) {
    if (pieces == 2) return {1, 1};
    if (pieces == 3) return {22, 6, 20};
    return {22, 4, 4, 18};
}

/// Largest relative difference of fields, DFTs, probes and energy between one CPU engine
/// and `pieces` CPU subdomains stepped `first` then `steps - first` steps, with the halo
/// mode `mode` ("" the default). `kernel` gets the distributed engine's kernel().
double pairs_vs_single(const Scene& scene, int pieces, int steps, int first, const std::string& mode,
                       std::string& kernel, bool& pairs) {
    auto view = view_of(scene);
    auto one = make_cpu_engine(view, Precision::Float64, 1);
    std::vector<SubdomainDevice> devs(static_cast<std::size_t>(pieces));
    const std::vector<double> w = pair_weights(pieces);
    for (std::size_t k = 0; k < devs.size(); ++k) devs[k].threads = 1, devs[k].weight = w[k];
    DistributedEngine many(view, Precision::Float64, devs);
    if (!mode.empty()) many.set_mode(mode);
    kernel = many.kernel();
    pairs = many.steps_pairs();
    one->step(steps);
    many.step(first);
    many.step(steps - first);
    REQUIRE(many.steps_done() == steps);
    return engines_difference(scene, *one, many);
}

/// Global plane of local plane `k` of subdomain `sd` (cut axis of N planes; wraps).
std::int64_t global_plane(const Subdomain& sd, std::int64_t k, std::int64_t N) {
    return ((sd.owned_lo - sd.halo_lo + k) % N + N) % N;
}

}  // namespace

TEST_CASE("pair_halo_transfers: every halo plane, from the owner of the same global plane", "[partition][distributed]") {
    for (bool periodic : {false, true}) {
        const CompiledProject c = staircase_project_3d(periodic);
        REQUIRE(!c.scene.is_anisotropic());
        REQUIRE(partition_halo(c.scene) == 2);
        for (int pieces : {2, 3, 4}) {
            const Partition p = partition_scene(c.scene, pieces);
            CHECK(pair_halo_suffices(p));
            const std::vector<HaloTransfer> t = pair_halo_transfers(p);
            REQUIRE(t.size() == p.transfers.size());
            // Each halo plane of each subdomain is written exactly once, with the global
            // plane it stands for, read from an owned plane of the source.
            std::vector<std::vector<int>> written(p.subs.size());
            for (std::size_t s = 0; s < p.subs.size(); ++s) written[s].assign(std::size_t(p.subs[s].n_local()), 0);
            for (const HaloTransfer& x : t) {
                CHECK(x.planes == p.halo);
                const Subdomain& from = p.subs[std::size_t(x.from)];
                const Subdomain& to = p.subs[std::size_t(x.to)];
                for (int k = 0; k < x.planes; ++k) {
                    const std::int64_t fp = x.from_plane + k, tp = x.to_plane + k;
                    REQUIRE(fp >= from.halo_lo);
                    REQUIRE(fp < from.halo_lo + (from.owned_hi - from.owned_lo));
                    REQUIRE(tp >= 0);
                    REQUIRE(tp < to.n_local());
                    CHECK((tp < to.halo_lo || tp >= to.n_local() - to.halo_hi));
                    CHECK(global_plane(from, fp, p.global_n) == global_plane(to, tp, p.global_n));
                    ++written[std::size_t(x.to)][std::size_t(tp)];
                }
            }
            for (std::size_t s = 0; s < p.subs.size(); ++s) {
                const Subdomain& sd = p.subs[s];
                for (std::int64_t k = 0; k < sd.n_local(); ++k) {
                    const bool halo = k < sd.halo_lo || k >= sd.n_local() - sd.halo_hi;
                    CHECK(written[s][std::size_t(k)] == (halo ? 1 : 0));
                }
            }
        }
    }
    // Sub-pixel tensor couplings (halo 3): two steps would spoil 4 planes.
    const CompiledProject aniso = compile_project(project_3d(false), "part3d.glproj");
    REQUIRE(aniso.scene.is_anisotropic());
    CHECK(!pair_halo_suffices(partition_scene(aniso.scene, 2)));
}

TEST_CASE("pair_state_refusal: CPML psi, pole state and Mur faces on halo planes", "[partition][distributed]") {
    const CompiledProject cell = walled_project();
    const Scene& g = cell.scene;
    REQUIRE(g.nz == 48);
    for (int pieces : {2, 3, 4}) {
        const Partition p = partition_scene(g, pieces, pair_weights(pieces));
        INFO(pieces << " pieces");
        CHECK(pair_state_refusal(g, p) == "");
    }
    // Equal shares put the cuts of 3 pieces at planes 16 and 32, through the sphere and the box.
    CHECK(pair_state_refusal(g, partition_scene(g, 3)).find("dispersive cells") != std::string::npos);
    // A PML along x or y: psi on every plane, which a transport that moves it carries.
    const CompiledProject pml = walled_project(false, true);
    const Partition pp = partition_scene(pml.scene, 2);
    CHECK(pair_state_refusal(pml.scene, pp).find("the x PML") != std::string::npos);
    CHECK(pair_state_refusal(pml.scene, pp, true) == "");
    // A cut in the z PML.
    const Partition in_pml = partition_scene(g, 3, {7.0, 33.0, 8.0});
    CHECK(pair_state_refusal(g, in_pml).find("z PML") != std::string::npos);
}

TEST_CASE("distributed engine (CPU subdomains) in pairs: two steps between exchanges equal one domain, even and "
          "odd step counts, CPML, dispersive cells and monitors",
          "[partition][distributed]") {
    const CompiledProject c = walled_project();
    REQUIRE(!c.scene.is_anisotropic());
    REQUIRE(c.scene.is_dispersive());
    REQUIRE(!c.scene.dft_sets.empty());
    REQUIRE(!c.scene.time_probes.empty());
    {
        // Unset (auto) CPU subdomains step one step per pass: one exchange per step.
        std::string kernel;
        bool pairs = true;
        const double d = pairs_vs_single(c.scene, 2, 20, 7, "", kernel, pairs);
        CHECK(!pairs);
        CHECK(kernel.empty());  // the CPU engine names no bulk kernel (summary.json has none)
        CHECK(d < 1e-12);
        // unset, auto is the default (tuning.hpp): the CPU engines refuse the pairs
        DistributedEngine many(view_of(c.scene), Precision::Float64, std::vector<SubdomainDevice>(2));
        CHECK(!many.steps_pairs());
        CHECK(many.pair_refusal() == "subdomain 0: the engine steps one step per pass");
        golightly::test::EnvSet autoset("GOLIGHTLY_DIST_TWO_STEP", "auto");
        DistributedEngine cpu(view_of(c.scene), Precision::Float64, std::vector<SubdomainDevice>(2));
        CHECK(!cpu.steps_pairs());
        CHECK(cpu.pair_refusal() == "subdomain 0: the engine steps one step per pass");
    }
    golightly::test::EnvSet on("GOLIGHTLY_DIST_TWO_STEP", "1");
    struct Case {
        int pieces, steps, first;
        const char* mode;
    };
    // (first odd: an odd step, then pairs; a total odd: a last single step)
    for (const Case& k : {Case{2, 60, 20, ""}, Case{3, 61, 20, ""}, Case{3, 47, 15, ""}, Case{4, 60, 31, ""},
                          Case{3, 47, 15, "threads"}, Case{3, 47, 15, "events"}, Case{3, 47, 15, "sync"}}) {
        std::string kernel;
        bool pairs = false;
        const double d = pairs_vs_single(c.scene, k.pieces, k.steps, k.first, k.mode, kernel, pairs);
        std::printf("3D pairs on CPU, %d pieces, %d steps (%d + %d), mode '%s': %.3g\n", k.pieces, k.steps,
                    k.first, k.steps - k.first, k.mode, d);
        CHECK(pairs);
        CHECK(kernel.empty());
        CHECK(d < 1e-12);
    }
    // A PML across x and y: the CPML psi of the halo planes travels with their fields
    // (HaloExchange::with_psi); without it (below) pairs are wrong.
    const CompiledProject pml = walled_project(false, true);
    REQUIRE(pml.scene.pml_lo[0] > 0);
    for (int pieces : {2, 3}) {
        std::string kernel;
        bool pairs = false;
        const double d = pairs_vs_single(pml.scene, pieces, 47, 15, "", kernel, pairs);
        std::printf("3D pairs on CPU, PML across x and y, %d pieces: %.3g\n", pieces, d);
        CHECK(pairs);
        CHECK(d < 1e-12);
    }
    {
        // exchange_bytes per step: the pairs move the same field planes per step as one step
        // per pass (2 planes every second step against 1 every step) plus the psi planes
        double one_step = 0, paired = 0;
        {
            golightly::test::EnvSet off("GOLIGHTLY_DIST_TWO_STEP", "0");
            one_step = DistributedEngine(view_of(pml.scene), Precision::Float64, std::vector<SubdomainDevice>(2))
                           .exchange_bytes();
        }
        DistributedEngine two(view_of(pml.scene), Precision::Float64, std::vector<SubdomainDevice>(2));
        REQUIRE(two.steps_pairs());
        paired = two.exchange_bytes();
        std::printf("3D pairs on CPU, PML across x and y: exchange bytes per step %.0f (one step per pass %.0f)\n",
                    paired, one_step);
        CHECK(one_step > 0);
        CHECK(paired > one_step);        // the psi planes counted
        CHECK(paired < 2 * one_step);  // 8-cell slabs on 48-cell planes: psi below the fields
    }
    // Periodic z: the wrap transfers move whole halos too.
    const CompiledProject per = walled_project(true);
    REQUIRE(per.scene.boundary[2] == BoundaryKind::Periodic);
    REQUIRE(pair_state_refusal(per.scene, partition_scene(per.scene, 2)) == "");
    std::string kernel;
    bool pairs = false;
    const double d = pairs_vs_single(per.scene, 2, 41, 13, "", kernel, pairs);
    std::printf("3D pairs on CPU, periodic z, 2 pieces: %.3g\n", d);
    CHECK(pairs);
    CHECK(d < 1e-12);
}

// The schedule is not right by accident: a transport that moves only the one-step transfers'
// planes (halo - 1, the innermost halo plane left as the subdomain computed it) every second
// step leaves wrong values in the halos, which reach the owned planes.
class ShallowHalo final : public HaloExchange {
public:
    std::string transport() const override { return "shallow-test"; }
    void exchange(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        std::vector<HaloTransfer> shallow;
        for (HaloTransfer t : transfers) {
            if (t.to_plane != 0) ++t.from_plane, ++t.to_plane;  // pair_halo_transfers, undone
            t.planes -= 1;
            shallow.push_back(t);
        }
        plain_->exchange(shallow, engines);
    }

private:
    std::unique_ptr<HaloExchange> plain_ = make_host_halo_exchange();
};

/// The largest relative field difference after `steps` steps between one CPU engine and two
/// CPU subdomains stepping in pairs (GOLIGHTLY_DIST_TWO_STEP=1) whose halo exchange is
/// `Halo`: the tests below give it transports that leave something out on purpose.
template <class Halo> double pairs_with_halo(const Scene& scene, int steps) {
    golightly::test::EnvSet on("GOLIGHTLY_DIST_TWO_STEP", "1");
    auto view = view_of(scene);
    auto one = make_cpu_engine(view, Precision::Float64, 1);
    DistributedSetup setup;
    setup.devices.resize(2);
    for (auto& d : setup.devices) d.threads = 1;
    setup.halo = [](const std::vector<SubdomainAccess*>&) -> std::unique_ptr<HaloExchange> {
        return std::make_unique<Halo>();
    };
    DistributedEngine many(view, Precision::Float64, setup);
    REQUIRE(many.steps_pairs());
    one->step(steps);
    many.step(steps);
    std::vector<double> a, b;
    double worst = 0;
    for (Component comp : components_of(scene)) {
        one->get_field(comp, a);
        many.get_field(comp, b);
        worst = std::max(worst, rel_diff(b, a));
    }
    return worst;
}

TEST_CASE("distributed engine (CPU subdomains) in pairs: the one-step transfers every second step are wrong",
          "[partition][distributed]") {
    const double worst = pairs_with_halo<ShallowHalo>(walled_project().scene, 60);
    std::printf("3D pairs on CPU with one-step transfers only: %.3g (wrong on purpose)\n", worst);
    CHECK(worst > 1e-6);
}

// Why psi travels: a transport that claims to move it (HaloExchange::moves_psi) but moves
// the fields alone leaves the owned planes wrong on a scene with a PML across x and y.
class FieldsOnlyHalo final : public HaloExchange {
public:
    std::string transport() const override { return "fields-only-test"; }
    bool moves_psi() const override { return true; }
    void exchange(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        plain_->exchange(transfers, engines);  // plain_->with_psi stays false
    }

private:
    std::unique_ptr<HaloExchange> plain_ = make_host_halo_exchange();
};

TEST_CASE("distributed engine (CPU subdomains) in pairs: without the CPML psi of the halo planes the owned planes go "
          "wrong",
          "[partition][distributed]") {
    const double worst = pairs_with_halo<FieldsOnlyHalo>(walled_project(false, true).scene, 120);
    std::printf("3D pairs on CPU, PML across x and y, psi not moved: %.3g (wrong on purpose)\n", worst);
    CHECK(worst > 1e-6);
}

TEST_CASE("distributed engine: GOLIGHTLY_DIST_TWO_STEP=1 refuses halos too shallow for two steps or holding state",
          "[partition][distributed]") {
    const CompiledProject c = compile_project(project_3d(false), "part3d.glproj");
    REQUIRE(c.scene.is_anisotropic());
    {
        golightly::test::EnvSet autoset("GOLIGHTLY_DIST_TWO_STEP", "auto");
        DistributedEngine many(view_of(c.scene), Precision::Float64, std::vector<SubdomainDevice>(2));
        CHECK(!many.steps_pairs());
        CHECK(many.pair_refusal().find("tensor couplings") != std::string::npos);
        CHECK(many.pair_refusal().find("the halos are 3 planes deep") != std::string::npos);
    }
    golightly::test::EnvSet on("GOLIGHTLY_DIST_TWO_STEP", "1");
    try {
        DistributedEngine many(view_of(c.scene), Precision::Float64, std::vector<SubdomainDevice>(2));
        FAIL("no RunError");
    } catch (const RunError& e) {
        CHECK(std::string(e.what()).find("GOLIGHTLY_DIST_TWO_STEP=1") != std::string::npos);
    }
    const CompiledProject disp = staircase_project_3d(false);  // the dispersive sphere across the cut
    try {
        DistributedEngine many(view_of(disp.scene), Precision::Float64, std::vector<SubdomainDevice>(2));
        FAIL("no RunError");
    } catch (const RunError& e) {
        CHECK(std::string(e.what()).find("pole state") != std::string::npos);
    }
    golightly::test::EnvSet off("GOLIGHTLY_DIST_TWO_STEP", "0");
    DistributedEngine many(view_of(walled_project().scene), Precision::Float64, std::vector<SubdomainDevice>(2));
    CHECK(!many.steps_pairs());
    CHECK(many.pair_refusal() == "GOLIGHTLY_DIST_TWO_STEP=0");
}
