// Domain decomposition (partition.hpp) and the distributed engine (distributed.hpp) on CPU
// subdomains: a grid cut into 1, 2, 3 and 4 pieces steps to the same fields, DFT
// accumulators (spectra), time probes and energy as one domain, to rounding. The scenes
// put cuts through the PML, dispersive cells, sub-pixel tensor couplings, a TF/SF box,
// sources and flux monitors, and wrap a periodic axis across the first and last piece.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/distributed.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/partition.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "bloch_cases.hpp"
#include "partition_projects.hpp"

using namespace golightly;
using namespace golightly::test3d;
using namespace golightly::parttest;

namespace {
/// Steps the scene on one CPU engine and on `pieces` CPU subdomains (with `weights`) and
/// returns the largest relative difference of fields, DFTs, probes and energy.
double distributed_vs_single(const Scene& scene, int pieces, int steps, const std::vector<double>& weights = {}) {
    auto view = view_of(scene);
    auto one = make_cpu_engine(view, Precision::Float64, 1);
    std::vector<SubdomainDevice> devs(static_cast<std::size_t>(pieces));
    for (std::size_t s = 0; s < devs.size(); ++s) {
        devs[s].threads = 1;
        if (!weights.empty()) devs[s].weight = weights[s];
    }
    DistributedEngine many(view, Precision::Float64, devs);
    REQUIRE(many.partition().subs.size() == std::size_t(pieces));
    // In two calls: the exchange must also be right across step() boundaries.
    one->step(steps);
    many.step(steps / 2);
    many.step(steps - steps / 2);
    REQUIRE(many.steps_done() == steps);
    return engines_difference(scene, *one, many);
}

/// A halo exchange that holds engines to the split-step contract (subdomain.hpp): start()
/// takes the source planes as they are after step_begin() and fills the destination planes
/// with NaN (an asynchronous transfer leaves them undefined until it is done); finish()
/// counts the transfers whose source planes changed since start() (the interior wrote a
/// plane that a transfer reads) and lands the values taken at start(). An interior update
/// that reads a destination plane spreads NaN; one that writes a source plane is counted.
class StrictOverlapHalo final : public HaloExchange {
public:
    explicit StrictOverlapHalo(std::shared_ptr<int> violations) : violations_(std::move(violations)) {}
    std::string transport() const override { return "strict-test"; }
    void exchange(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        plain_->exchange(transfers, engines);
    }
    void start(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        taken_.clear();
        for (const HaloTransfer& t : transfers) {
            taken_.push_back(planes(t.from_plane, t.planes, engines.at(std::size_t(t.from))->field_storage()));
            const FieldStorage b = engines.at(std::size_t(t.to))->field_storage();
            for (int c = 0; c < FieldStorage::kArrays; ++c) {
                if (!b.field[c]) continue;
                unsigned char* dst = bytes_at(b, c, t.to_plane);
                const std::size_t n = std::size_t(t.planes * plane_cells(b));
                if (b.element_bytes == 8) std::fill_n(reinterpret_cast<double*>(dst), n, std::nan(""));
                else std::fill_n(reinterpret_cast<float*>(dst), n, std::nanf(""));
            }
        }
    }
    void finish(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        for (std::size_t k = 0; k < transfers.size(); ++k) {
            const HaloTransfer& t = transfers[k];
            if (planes(t.from_plane, t.planes, engines.at(std::size_t(t.from))->field_storage()) != taken_[k])
                ++*violations_;
            const FieldStorage b = engines.at(std::size_t(t.to))->field_storage();
            const std::size_t bytes = std::size_t(t.planes * plane_cells(b) * b.element_bytes);
            std::size_t at = 0;
            for (int c = 0; c < FieldStorage::kArrays; ++c) {
                if (!b.field[c]) continue;
                std::copy_n(taken_[k].data() + at, bytes, bytes_at(b, c, t.to_plane));
                at += bytes;
            }
        }
    }

private:
    static std::int64_t plane_cells(const FieldStorage& f) { return f.n[2] > 1 ? f.n[0] * f.n[1] : f.n[0]; }
    static unsigned char* bytes_at(const FieldStorage& f, int c, std::int64_t plane) {
        return static_cast<unsigned char*>(f.field[c]) + std::size_t(plane * plane_cells(f) * f.element_bytes);
    }
    static std::vector<unsigned char> planes(std::int64_t first, std::int64_t count, const FieldStorage& f) {
        std::vector<unsigned char> out;
        const std::size_t bytes = std::size_t(count * plane_cells(f) * f.element_bytes);
        for (int c = 0; c < FieldStorage::kArrays; ++c)
            if (f.field[c]) out.insert(out.end(), bytes_at(f, c, first), bytes_at(f, c, first) + bytes);
        return out;
    }
    std::unique_ptr<HaloExchange> plain_ = make_host_halo_exchange();
    std::vector<std::vector<unsigned char>> taken_;
    std::shared_ptr<int> violations_;
};

/// Steps the scene on one CPU engine and, in the overlap mode under StrictOverlapHalo, on
/// `pieces` CPU subdomains of `threads` threads each; returns the largest relative
/// difference of the fields and DFTs and sets `violations`.
double strict_overlap_vs_single(const Scene& scene, int pieces, int threads, int steps, int& violations) {
    auto view = view_of(scene);
    auto one = make_cpu_engine(view, Precision::Float64, 1);
    auto count = std::make_shared<int>(0);
    DistributedSetup setup;
    setup.devices.resize(std::size_t(pieces));
    for (auto& d : setup.devices) d.threads = threads;
    setup.halo = [count](const std::vector<SubdomainAccess*>&) { return std::make_unique<StrictOverlapHalo>(count); };
    DistributedEngine many(view, Precision::Float64, setup);
    REQUIRE(many.mode() == "overlap");
    one->step(steps);
    many.step(steps);
    double worst = 0;
    std::vector<double> a, b;
    for (Component c : components_of(scene)) {
        one->get_field(c, a);
        many.get_field(c, b);
        worst = std::max(worst, rel_diff(b, a));
    }
    for (std::size_t set = 0; set < scene.dft_sets.size(); ++set)
        worst = std::max(worst, rel_diff(many.dft(int(set)), one->dft(int(set))));
    if (!many.fields_finite()) worst = 1;
    violations = *count;
    return worst;
}

}  // namespace

TEST_CASE("distributed engine (CPU subdomains): split steps keep off the planes in transit (overlap mode, "
          "2D and 3D, 1 and 3 threads per subdomain)",
          "[partition][distributed]") {
    std::vector<std::pair<std::string, CompiledProject>> cases;
    cases.emplace_back("3D", compile_project(project_3d(false), "part3d.glproj"));
    cases.emplace_back("3D periodic z", compile_project(project_3d(true), "part3d_periodic.glproj"));
    cases.emplace_back("2D TMz", compile_project(project_2d(Polarization::TMz, false), "part2d.glproj"));
    cases.emplace_back("2D TEz periodic y", compile_project(project_2d(Polarization::TEz, true), "part2d.glproj"));
    for (const auto& [name, c] : cases)
        for (int pieces : {2, 3})
            for (int threads : {1, 3}) {
                int violations = -1;
                const double d = strict_overlap_vs_single(c.scene, pieces, threads, 40, violations);
                std::printf("%s, %d pieces, %d threads, strict overlap: %.3g, %d transfers whose source changed\n",
                            name.c_str(), pieces, threads, d, violations);
                CHECK(d < 1e-12);
                CHECK(violations == 0);
            }
}

TEST_CASE("split_step_planes: the interior keeps off the planes in transit", "[partition][distributed]") {
    // n = 20, halos 2 and 2: transfers write [0, 1) and [19, 20), read [3, 4) and [16, 17).
    SplitPlanes p = split_step_planes(2, 2, 20, false);
    CHECK(p.h_begin == 4);
    CHECK(p.e_begin == 5);
    CHECK(p.end == 16);
    p = split_step_planes(0, 3, 20, false);  // the first piece: no lower halo
    CHECK((p.h_begin == 0 && p.e_begin == 0 && p.end == 14));
    p = split_step_planes(0, 0, 20, true);  // no halos: the whole axis
    CHECK((p.h_begin == 0 && p.e_begin == 0 && p.end == 20));
    p = split_step_planes(0, 2, 20, true);  // periodic: planes 0 and n-1 stay at the boundary
    CHECK((p.h_begin == 1 && p.e_begin == 2 && p.end == 16));
    p = split_step_planes(3, 3, 10, false);  // too thin: no interior
    CHECK(p.h_begin == p.end);
    CHECK_THROWS_AS(split_step_planes(-1, 0, 10, false), std::invalid_argument);
}

TEST_CASE("partition: slabs, halos, transfers and clipped lists", "[partition]") {
    const CompiledProject c = compile_project(project_3d(false), "part3d.glproj");
    const Scene& s = c.scene;
    REQUIRE(s.is_anisotropic());
    REQUIRE(s.is_dispersive());
    REQUIRE(partition_halo(s) == 3);
    const Partition p = partition_scene(s, 3);
    REQUIRE(p.axis == 2);
    REQUIRE(p.subs.size() == 3);
    CHECK(p.subs[0].owned_lo == 0);
    CHECK(p.subs[2].owned_hi == s.nz);
    CHECK(p.subs[0].halo_lo == 0);
    CHECK(p.subs[2].halo_hi == 0);
    CHECK(p.subs[1].halo_lo == 3);
    CHECK(p.transfers.size() == 4);
    std::size_t dispersive = 0, dft = 0, planes = 0;
    for (const Subdomain& sd : p.subs) {
        CHECK(sd.scene.nz == sd.n_local());
        CHECK(sd.scene.nx == s.nx);
        CHECK(sd.scene.material_index[0].size() == sd.scene.cells());
        planes += std::size_t(sd.owned_hi - sd.owned_lo);
        for (int k = 0; k < 3; ++k) dispersive += sd.scene.dispersive[k].cells.size();
        for (const auto& ids : sd.dft_samples) dft += ids.size();
    }
    CHECK(planes == std::size_t(s.nz));
    std::size_t global_disp = 0, global_dft = 0;
    for (int k = 0; k < 3; ++k) global_disp += s.dispersive[k].cells.size();
    for (const DftSet& d : s.dft_sets) global_dft += d.cell0.size();
    CHECK(dispersive >= global_disp);  // halo planes hold copies
    CHECK(dft == global_dft);          // each sample on exactly one owner
    // Too many pieces for the planes: a clear error.
    CHECK_THROWS_AS(partition_scene(s, s.nz / 2), RunError);
    CHECK_THROWS_AS(partition_scene(s, 2, {1.0}), RunError);
    CHECK_THROWS_AS(partition_scene(p.subs[1].scene, 2), RunError);
}

// The cuts balance partition_plane_cost: a dispersive sample costs its pole update's bytes
// over a bulk cell's (1 + 1.46 per sample for 6-pole gold), so pieces holding the dispersive
// cells get fewer planes; without dispersive cells the cuts are round(N * share) as before.
TEST_CASE("partition: cuts balance the plane cost of dispersive cells", "[partition]") {
    const CompiledProject c = compile_project(project_3d(false), "part3d.glproj");
    Scene s = c.scene;
    REQUIRE(!s.pole_sets.empty());
    const std::int64_t N = s.nz, plane = std::int64_t(s.nx) * s.ny;
    auto piece_costs = [&](const Partition& p) {
        const std::vector<double> cost = partition_plane_cost(s);
        std::vector<double> out;
        for (const Subdomain& sd : p.subs)
            out.push_back(std::accumulate(cost.begin() + sd.owned_lo, cost.begin() + sd.owned_hi, 0.0));
        return out;
    };
    // No dispersive cells: the old plane shares.
    Scene plain = s;
    for (auto& d : plain.dispersive) d = DispersiveCells{};
    for (double v : partition_plane_cost(plain)) CHECK(v == double(plane));
    {
        const Partition p = partition_scene(plain, 3, {1.0, 2.0, 1.0});
        CHECK(p.subs[1].owned_lo == std::llround(double(N) * 1.0 / 4.0));
        CHECK(p.subs[2].owned_lo == std::llround(double(N) * 3.0 / 4.0));
    }
    // Every Ex sample of the lower quarter of the planes dispersive (pole set 0): piece 0
    // gets fewer planes, and the pieces' costs differ by at most one plane's cost.
    DispersiveCells& d = s.dispersive[0];
    d = DispersiveCells{};
    for (std::int64_t cell = 0; cell < plane * (N / 4); ++cell) {
        d.cells.push_back(CellIndex(cell));
        d.pole_set.push_back(0);
        d.weight.push_back(1.0);
    }
    const std::vector<double> cost = partition_plane_cost(s);
    double per_sample = 0;
    {
        double n = 0, nd = 0;
        for (const PoleCoeffs& pc : s.pole_sets[0].poles) n += 1, nd += pole_restoring(pc) == 0.0 ? 1 : 0;
        per_sample = ((4 * n - 2 * nd + 5) * 4 + 10) / (18.0 * 4 + 6);
    }
    CHECK(cost[0] == Approx(double(plane) * (1 + per_sample)));
    CHECK(cost[std::size_t(N - 1)] == double(plane));
    for (int pieces : {2, 3}) {
        const Partition p = partition_scene(s, pieces);
        const std::vector<double> pc = piece_costs(p);
        const double total = std::accumulate(pc.begin(), pc.end(), 0.0);
        INFO(pieces << " pieces");
        CHECK(p.subs[0].owned_hi - p.subs[0].owned_lo < p.subs.back().owned_hi - p.subs.back().owned_lo);
        for (double v : pc) CHECK(std::abs(v - total / pieces) <= *std::max_element(cost.begin(), cost.end()));
    }
    // The distributed CPU engine on such cuts still equals one domain (the real scene's
    // dispersive sphere moves the cuts by a few planes).
    CHECK(distributed_vs_single(c.scene, 3, 30) < 1e-12);
}

TEST_CASE("distributed engine (CPU subdomains): 3D equals one domain for 1-4 pieces, cuts through PML, "
          "dispersive cells, tensor couplings, a TF/SF box and monitors",
          "[partition][distributed]") {
    const CompiledProject c = compile_project(project_3d(false), "part3d.glproj");
    const Scene& s = c.scene;
    REQUIRE(!s.tfsf.empty());
    REQUIRE(s.nz >= 40);
    for (int pieces = 1; pieces <= 4; ++pieces) {
        const double d = distributed_vs_single(s, pieces, 70);
        std::printf("3D, %d pieces: max relative difference %.3g\n", pieces, d);
        CHECK(d < 1e-12);
    }
    // The other ways of driving the subdomains (one host thread each; host waits) agree.
    for (const char* mode : {"threads", "sync", "events"}) {
        auto view = view_of(s);
        auto one = make_cpu_engine(view, Precision::Float64, 1);
        std::vector<SubdomainDevice> devs(3);
        for (auto& dv : devs) dv.threads = 1;
        DistributedEngine many(view, Precision::Float64, devs);
        many.set_mode(mode);
        one->step(50);
        many.step(50);
        std::vector<double> a, b;
        double worst = 0;
        for (Component comp : components_of(s)) {
            one->get_field(comp, a);
            many.get_field(comp, b);
            worst = std::max(worst, rel_diff(b, a));
        }
        std::printf("3D, 3 pieces, mode %s: %.3g\n", mode, worst);
        CHECK(worst < 1e-12);
    }
    CHECK_THROWS_AS(DistributedEngine(view_of(s), Precision::Float64, std::vector<SubdomainDevice>(2)).set_mode("x"),
                    RunError);
    {
        // CPU engines split their steps (engine.hpp): their default mode is "overlap", and
        // "events" (whole steps, then the exchange) gives the same fields.
        DistributedEngine cpu(view_of(s), Precision::Float64, std::vector<SubdomainDevice>(2));
        CHECK(cpu.mode() == "overlap");
        cpu.set_mode("events");
        CHECK(cpu.mode() == "events");
    }
    // A cut inside the lower PML slab (8 cells): the first piece owns 6 planes.
    const double w = 6.5 / double(s.nz);
    const double d = distributed_vs_single(s, 3, 70, {w, 1.0 - 2 * w, w});
    std::printf("3D, cuts in both PML slabs: %.3g\n", d);
    CHECK(d < 1e-12);
}

TEST_CASE("distributed engine (CPU subdomains): a periodic cut axis wraps across the first and last piece",
          "[partition][distributed]") {
    const CompiledProject c = compile_project(project_3d(true), "part3d_periodic.glproj");
    REQUIRE(c.scene.boundary[2] == BoundaryKind::Periodic);
    for (int pieces : {2, 3}) {
        const Partition p = partition_scene(c.scene, pieces);
        CHECK(p.periodic);
        CHECK(p.subs[0].halo_lo == p.halo);
        CHECK(p.transfers.size() == std::size_t(2 * pieces));
        const double d = distributed_vs_single(c.scene, pieces, 60);
        std::printf("3D periodic z, %d pieces: %.3g\n", pieces, d);
        CHECK(d < 1e-12);
    }
}

TEST_CASE("distributed engine (CPU subdomains): 2D TMz and TEz, PML and periodic y", "[partition][distributed]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz})
        for (bool periodic : {false, true}) {
            const CompiledProject c = compile_project(project_2d(pol, periodic), "part2d.glproj");
            const Scene& s = c.scene;
            REQUIRE(!s.tfsf.empty());
            if (pol == Polarization::TEz) REQUIRE(s.is_anisotropic());
            for (int pieces : {2, 3, 4}) {
                const double d = distributed_vs_single(s, pieces, 120);
                std::printf("2D %s %s, %d pieces: %.3g\n", pol == Polarization::TMz ? "TMz" : "TEz",
                            periodic ? "periodic y" : "PML y", pieces, d);
                CHECK(d < 1e-12);
            }
        }
}

// Complex fields (Bloch phase 2 pi / 3, complex source weights) cut along an axis without
// a Bloch phase: each subdomain steps both copies, the exchange moves both copies' halos
// (FieldStorage's imaginary arrays), and the Bloch wrap stays inside every subdomain. The
// DFTs (X_re + i X_im) and the energy (both copies) check the imaginary copy, the fields
// the real one, to rounding as for real runs. A Bloch phase along the cut axis:
// test_distributed_bloch.cpp.
TEST_CASE("distributed engine (CPU subdomains): complex Bloch fields equal one domain, cut across the Bloch axis",
          "[partition][distributed][bloch]") {
    for (const test::BlochCase& bc : test::all_2d_bloch_cases()) {
        const Scene cell = test::make_bloch_pair(bc).cell;
        REQUIRE(cell.complex_fields);
        if (bc.bloch_axis == 1) continue;  // y: the 2D cut axis (test_distributed_bloch.cpp)
        for (int pieces : {2, 3}) {
            const double d = distributed_vs_single(cell, pieces, 120);
            std::printf("2D Bloch %s, %d pieces: %.3g\n", test::describe(bc).c_str(), pieces, d);
            CHECK(d < 1e-12);
        }
    }
    // 3D: the Bloch phase along y, PML along z (the cut axis), a plain periodic x
    const Scene cell3 = test::make_bloch_pair3(1).cell;
    REQUIRE(cell3.complex_fields);
    const double d3 = distributed_vs_single(cell3, 2, 60);
    std::printf("3D Bloch y, 2 pieces along z: %.3g\n", d3);
    CHECK(d3 < 1e-12);
}

TEST_CASE("distributed engine: frames and samples are assembled from the subdomains, live edits reach every "
          "subdomain",
          "[partition][distributed]") {
    const CompiledProject c = compile_project(project_3d(false), "part3d.glproj");
    const Scene& s = c.scene;
    auto view = view_of(s);
    auto one = make_cpu_engine(view, Precision::Float64, 1);
    DistributedEngine many(view, Precision::Float64, std::vector<SubdomainDevice>(3));
    one->step(60);
    many.step(60);
    for (int axis = 0; axis < 3; ++axis) {
        const FrameSlice sl{axis, axis == 2 ? s.nz / 3 + 1 : s.nx / 2};
        one->frames().set_frame_slice(sl);
        many.set_frame_slice(sl);
        for (int max : {1000, 17}) {
            const auto a = one->frames().sample_field(Component::Ez, max, max, false);
            const auto b = many.sample_field(Component::Ez, max, max, false);
            REQUIRE(a.width == b.width);
            REQUIRE(a.height == b.height);
            double worst = 0, peak = 0;
            for (std::size_t k = 0; k < a.values.size(); ++k) {
                worst = std::max(worst, double(std::abs(a.values[k] - b.values[k])));
                peak = std::max(peak, double(std::abs(a.values[k])));
            }
            REQUIRE(peak > 0);
            CHECK(worst <= 1e-6 * peak);  // float samples
        }
        const Image8 img = many.frame({Component::Ez, 64, 64, 0, false});
        CHECK(img.width > 0);
    }
    const auto subs = many.subdomains();
    REQUIRE(subs.size() == 3);
    CHECK(subs[0].min_cell[2] == 0);
    CHECK(subs[2].max_cell[2] == s.nz - 1);
    CHECK(subs[1].min_cell[2] == subs[0].max_cell[2] + 1);

    // Live edit: the dielectric box becomes eps 2 on both engines.
    Project p = project_3d(false);
    p.materials[1].epsilon_inf = 2.0;
    const CompiledProject edited = compile_project(p, "part3d.glproj");
    REQUIRE(!same_materials(s, edited.scene));
    one->update_materials(edited.scene);
    many.update_materials(std::make_shared<const Scene>(edited.scene));
    one->step(40);
    many.step(40);
    std::vector<double> a, b;
    double worst = 0;
    for (Component comp : components_of(s)) {
        one->get_field(comp, a);
        many.get_field(comp, b);
        worst = std::max(worst, rel_diff(b, a));
    }
    std::printf("3D live edit on 3 pieces: %.3g\n", worst);
    CHECK(worst < 1e-12);
}

TEST_CASE("run.devices and --devices: parsing, errors naming run.devices, a CPU-subdomain run equal to one domain "
          "with summary subdomains",
          "[partition][distributed][run]") {
    CHECK(parse_device_selection("auto").kind == DeviceSelection::Kind::Auto);
    CHECK(parse_device_selection("all").kind == DeviceSelection::Kind::All);
    const DeviceSelection three = parse_device_selection("3");
    CHECK(three.kind == DeviceSelection::Kind::Count);
    CHECK(three.count == 3);
    const DeviceSelection list = parse_device_selection("0,2");
    CHECK(list.kind == DeviceSelection::Kind::List);
    CHECK(list.ordinals == std::vector<int>{0, 2});
    for (const char* bad : {"", "0", "-1", "two", "1,1", "0,,1", "1.5"})
        CHECK_THROWS_AS(parse_device_selection(bad), std::invalid_argument);

    Project p = project_2d(Polarization::TMz, false);
    p.run.extra["devices"] = Json::array({1, 0});
    CHECK(project_devices(p, "d.glproj").ordinals == std::vector<int>{1, 0});
    p.run.extra["devices"] = Json::array({1});
    CHECK(project_devices(p, "d.glproj").kind == DeviceSelection::Kind::List);
    CHECK(project_devices(p, "d.glproj").ordinals == std::vector<int>{1});
    p.run.extra["devices"] = 2;
    CHECK(project_devices(p, "d.glproj").count == 2);
    p.run.extra["devices"] = "many";
    try {
        project_devices(p, "d.glproj");
        FAIL("run.devices \"many\" was accepted");
    } catch (const ProjectError& e) {
        CHECK(std::string(e.what()).find("run.devices") != std::string::npos);
        CHECK(std::string(e.what()).find("d.glproj") != std::string::npos);
    }

    p.run.extra.erase("devices");
    p.run.stop.max_steps = 600;
    RunOptions one_opts;
    one_opts.threads = 1;
    const RunResult one = run_project(p, "d.glproj", one_opts);
    RunOptions many_opts = one_opts;
    many_opts.devices = parse_device_selection("3");
    const RunResult many = run_project(p, "d.glproj", many_opts);
    CHECK(one.subdomains.empty());
    REQUIRE(many.subdomains.size() == 3);
    CHECK(many.subdomains[0].min_cell[1] == 0);
    CHECK(many.subdomains[2].max_cell[1] == std::int64_t(compile_project(p, "d").scene.ny) - 1);
    CHECK(many.steps == one.steps);
    REQUIRE(many.spectra.size() == one.spectra.size());
    double worst = 0;
    for (std::size_t m = 0; m < one.spectra.size(); ++m)
        worst = std::max(worst, rel_diff(many.spectra[m].flux, one.spectra[m].flux));
    std::printf("run_project on 3 CPU subdomains vs one: spectra differ by %.3g\n", worst);
    CHECK(worst < 1e-12);
    CHECK(std::count_if(many.warnings.begin(), many.warnings.end(),
                        [](const std::string& w) { return w.find("subdomains") != std::string::npos; }) == 1);
}

TEST_CASE("pad_scene_x: dead columns give the same fields, DFTs, probes and energy on the original cells",
          "[partition][pad]") {
    // Row padding for aligned device rows (partition.hpp): the 3D scene of the distributed
    // tests (PML, dispersive cells, tensor couplings, TF/SF, sources, flux monitors) and the
    // same with a PEC x boundary, and the 2D TMz and TEz scenes, padded to a multiple of 32
    // (and of 8) x cells, step to the same values as the original on its cells.
    Project pr = project_3d(false);
    pr.domain.size[0] += 3 * pr.domain.cell_size;  // nx off the multiples of 8
    const CompiledProject c = compile_project(pr, "part3d.glproj");
    Scene pec = c.scene;
    pec.boundary[0] = BoundaryKind::Pec;
    std::vector<Scene> scenes = {c.scene, pec};
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {  // 2D (tensor couplings in TEz)
        Project p2 = project_2d(pol, false);
        p2.domain.size[0] += 3 * p2.domain.cell_size;
        scenes.push_back(compile_project(p2, "part2d.glproj").scene);
    }
    // Subdomains (window active) are padded only with window.row_padding (the distributed
    // engine sets it when every subdomain runs on CUDA); padded, they step as unpadded.
    for (std::size_t q = 0, n0 = scenes.size(); q < n0; q += 2) {  // 3D PML x, 2D TMz
        Partition part = partition_scene(scenes[q], 2);
        for (Subdomain& sd : part.subs) {
            REQUIRE(sd.scene.window.active);
            CHECK(padded_nx(sd.scene, 32) == sd.scene.nx);
            CHECK(pad_scene_x(sd.scene, 32).nx == sd.scene.nx);
            sd.scene.window.row_padding = true;
            scenes.push_back(std::move(sd.scene));
        }
    }
    for (const Scene& s : scenes) {
        REQUIRE(s.nx % 8 != 0);
        for (int multiple : {32, 8}) {
            const Scene p = pad_scene_x(s, multiple);
            INFO("x boundary " << to_string(s.boundary[0]) << ", multiple " << multiple << ", subdomain "
                               << (s.window.active ? "yes" : "no"));
            REQUIRE(p.nx == padded_nx(s, multiple));
            REQUIRE(p.nx % multiple == 0);
            REQUIRE(p.nx > s.nx);
            CHECK(p.cells() == std::size_t(p.nx) * p.ny * p.nz);
            auto a = make_cpu_engine(view_of(s), Precision::Float64, 2);
            auto b = make_cpu_engine(view_of(p), Precision::Float64, 2);
            a->step(60);
            b->step(60);
            double worst = 0;
            std::vector<double> fa, fb;
            for (Component comp : components_of(s)) {
                a->get_field(comp, fa);
                b->get_field(comp, fb);
                REQUIRE(fb.size() == p.cells());
                std::vector<double> back(fa.size());
                double dead = 0;
                for (std::size_t k = 0; k < fb.size(); ++k) {
                    const std::int64_t i = std::int64_t(k % std::size_t(p.nx)), row = std::int64_t(k / std::size_t(p.nx));
                    if (i < s.nx) back[std::size_t(row * s.nx + i)] = fb[k];
                    else dead = std::max(dead, std::abs(fb[k]));
                }
                CHECK(dead == 0.0);
                worst = std::max(worst, rel_diff(back, fa));
            }
            for (std::size_t set = 0; set < s.dft_sets.size(); ++set)
                worst = std::max(worst, rel_diff(b->dft(int(set)), a->dft(int(set))));
            for (std::size_t q = 0; q < s.time_probes.size(); ++q)
                worst = std::max(worst, rel_diff(b->time_samples(int(q)), a->time_samples(int(q))));
            worst = std::max(worst, std::abs(b->field_energy() / a->field_energy() - 1));
            std::printf("pad_scene_x: %dD nx %d -> %d (%s x), max relative difference %.3g\n", s.dimensions, s.nx, p.nx,
                        to_string(s.boundary[0]).c_str(), worst);
            CHECK(worst < 1e-10);
        }
    }
    // Not padded: periodic or pmc x (their wrap and wall sit at nx - 1), a multiple of 1.
    Scene per = c.scene;
    per.boundary[0] = BoundaryKind::Periodic;
    CHECK(padded_nx(per, 32) == per.nx);
    per.boundary[0] = BoundaryKind::Pmc;
    CHECK(padded_nx(per, 32) == per.nx);
    CHECK(padded_nx(c.scene, 1) == c.scene.nx);
    CHECK(pad_scene_x(per, 32).nx == per.nx);
}
