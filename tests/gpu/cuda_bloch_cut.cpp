// A Bloch phase along the cut axis (y in 2D, z in 3D) on CUDA subdomains (#51 item 5), and
// 3D Bloch mode sources and ports on the CUDA backend.
//
// Subdomains: the halo planes that cross the wrap between the last and the first subdomain
// carry exp(+-i phi) F (partition.hpp HaloTransfer::phase); cuda_halo.cu rotates them on the
// receiving stream after their peer copies (cuda_apply_halo_phase's kernel, the expression
// of the host transports' apply_halo_phase). 2 and 3 subdomains (on device 0 when one GPU is
// visible, else on devices 0, 1, 2 mod the count) against one CUDA engine of the same
// scene: the 2D Bloch-y cells of bloch_cases.hpp (TMz and TEz, with and without a Lorentz
// pole, sources on the wrap planes) and the 2D and 3D oblique projects of the MPI tests
// (tests/data/mpi/mpi{2,3}d_bloch_cut.glproj).
// Bounds. Every owned cell takes the one engine's operations but the reads across the
// wrap: the one engine forms exp(+-i phi) F in its kernel from cos and sin in T (cuda_common
// .cuh bloch_hi / bloch_lo, FMA contracted), the subdomains read the halo's value formed in
// double and rounded once to T. The two differ by at most 3 units of the rounding u of T
// (the rounding of cos and sin, of the products and the sum, against one rounding) of |F|;
// the differences enter each step at the wrap planes and the update, a stable linear map
// (Courant limit; PML and loss only damp), carries them without growth, so N steps add at
// most N of them: 3 N u of the field's scale, held to 8 N u for E and H of both copies.
// float64 (u = 2^-53): 8 N u < 1e-12 for these N; held to 1e-10 as the other complex
// subdomain case (the reductions over subdomains, probe sums and the energy's halo
// subtraction, add in another order too). float32 (u = 2^-24): 8 N u, 5.7e-5 at 120 steps,
// 1.4e-4 at 300, on the fields, the DFTs and probes (sums over the steps of those fields)
// and the energy. The CPU engine forms its wrap rotation in float likewise (cpu_bloch.hpp
// BlochRotation::row), and its subdomains measured 2.3e-7 to 5.3e-7 against one float32 CPU
// domain on these scenes, DFTs and probes included (tests/solver/test_distributed_bloch.cpp).
// Without the phase on the wrap (the exchange with every phase set to 0) the halo carries F
// instead of exp(+-i phi) F: an O(1) error (0.3 to 1.4 on CPU), > 1e-2.
//
// 3D Bloch ports: the 1 um slab array of test_bloch_mode_plane3d.cpp (Bloch k 0.25 along x,
// ports and mode planes across the period and the periodic z) on the CUDA backend against
// the CPU backend: the complex mode source, the plane mode monitor's amplitudes, the flux
// and the S-parameters of two ports, float64. The two engines take the same operations in
// another order (FMA contraction on the GPU): their fields agree to ~1e-12 relative (the
// engine-level 3D Bloch comparison of cuda_bloch.cpp bounds them at 1e-10); the results are
// DFT sums of those fields and their projections and ratios, held to 1e-6 of the largest
// value as the oblique-incidence example's spectra (cuda_bloch.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bloch_array_project.hpp"
#include "bloch_cases.hpp"
#include "field_deviation.hpp"
#include "golightly/compile.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/distributed.hpp"
#include "golightly/engine.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/partition.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/sparams.hpp"
#include "partition_projects.hpp"

using namespace golightly;
using namespace golightly::parttest;

namespace {

/// The CUDA peer exchange with every transfer's phase set to 0 (the plain periodic wrap):
/// the defect the comparison must catch.
class PhaseDroppingCudaHalo final : public HaloExchange {
public:
    explicit PhaseDroppingCudaHalo(const std::vector<SubdomainAccess*>& engines)
        : inner_(make_cuda_peer_halo_exchange(engines)) {}
    std::string transport() const override { return "cuda-peer without the wrap phase (test)"; }
    void exchange(const std::vector<HaloTransfer>& t, const std::vector<SubdomainAccess*>& e) override {
        inner_->exchange(drop(t), e);
    }
    void wait() override { inner_->wait(); }
    void start(const std::vector<HaloTransfer>& t, const std::vector<SubdomainAccess*>& e) override {
        inner_->start(drop(t), e);
    }
    void finish(const std::vector<HaloTransfer>& t, const std::vector<SubdomainAccess*>& e) override {
        inner_->finish(drop(t), e);
    }
    void exchange_into(int to, const std::vector<HaloTransfer>& t, const std::vector<SubdomainAccess*>& e) override {
        inner_->exchange_into(to, drop(t), e);
    }

private:
    static std::vector<HaloTransfer> drop(std::vector<HaloTransfer> t) {
        for (HaloTransfer& x : t) x.phase = 0;
        return t;
    }
    std::unique_ptr<HaloExchange> inner_;
};

struct CutDeviation {
    double fields = 0;  ///< every component's field (real copy), relative to the E (H) peak
    double dft = 0;     ///< every DFT set (both copies), relative to the E (H) sets' peak
    double probes = 0;  ///< every time probe, relative to its peak
    double energy = 0;  ///< both copies' energy, relative
};

/// Steps `scene` on one CUDA engine and on `pieces` CUDA subdomains (devices 0, 1, ... mod
/// the visible count; the phase dropped from the exchange when drop_phase) and returns the
/// deviations of the subdomains from the one engine.
CutDeviation cut_vs_one(const Scene& scene, Precision precision, int pieces, int steps, bool drop_phase,
                        const std::string& mode = "") {
    auto view = view_of(scene);
    auto one = make_cuda_engine(view, precision, 0);
    const int visible = std::max(1, cuda_device_count());
    std::vector<SubdomainDevice> devs(static_cast<std::size_t>(pieces));
    for (std::size_t s = 0; s < devs.size(); ++s) {
        devs[s].cuda = true;
        devs[s].ordinal = int(s) % visible;
    }
    DistributedSetup setup{devs, nullptr, nullptr};
    if (drop_phase)
        setup.halo = [](const std::vector<SubdomainAccess*>& e) -> std::unique_ptr<HaloExchange> {
            return std::make_unique<PhaseDroppingCudaHalo>(e);
        };
    DistributedEngine many(view, precision, setup);
    REQUIRE(many.partition().subs.size() == std::size_t(pieces));
    REQUIRE(std::count_if(many.partition().transfers.begin(), many.partition().transfers.end(),
                          [](const HaloTransfer& t) { return t.phase != 0; }) == 2);
    REQUIRE(many.distribution().transport.find("cuda-peer") == 0);
    if (!mode.empty()) many.set_mode(mode);
    cuda_select_device(0);
    one->step(steps);
    many.step(steps / 2);  // in two calls: the exchange must also be right across step() calls
    many.step(steps - steps / 2);
    CHECK(many.fields_finite());
    CutDeviation d;
    const auto device0 = [] { cuda_select_device(0); };  // the one engine's device, before each read
    d.fields = test::field_deviation(*one, many, scene, device0);
    d.dft = test::dft_deviation(*one, many, scene, device0);
    for (std::size_t q = 0; q < scene.time_probes.size(); ++q) {
        cuda_select_device(0);
        const auto x = one->time_samples(int(q));
        d.probes = std::max(d.probes, rel_diff(many.time_samples(int(q)), x));
    }
    cuda_select_device(0);
    const double e1 = one->field_energy();
    const double e2 = many.field_energy();
    REQUIRE(e1 > 0);
    d.energy = std::abs(e2 - e1) / e1;
    return d;
}

struct CutCase {
    std::string name;
    Scene scene;
    int steps;
};

std::vector<CutCase> cut_cases() {
    std::vector<CutCase> out;
    for (const test::BlochCase& bc : test::all_2d_bloch_cases())
        if (bc.bloch_axis == 1) out.push_back({"2D cell, " + test::describe(bc), test::bloch_y_cut_cell(bc), 120});
    out.push_back({"mpi2d_bloch_cut.glproj", compile_mpi_data_project("mpi2d_bloch_cut.glproj").scene, 300});
    out.push_back({"mpi3d_bloch_cut.glproj", compile_mpi_data_project("mpi3d_bloch_cut.glproj").scene, 150});
    return out;
}

/// Largest |a - b| over the values of one result, relative to the largest |a|.
template <class V>
double result_deviation(const V& a, const V& b) {
    REQUIRE(a.size() == b.size());
    double scale = 0, dev = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        scale = std::max(scale, double(std::abs(a[k])));
        dev = std::max(dev, double(std::abs(a[k] - b[k])));
    }
    REQUIRE(scale > 0);
    return dev / scale;
}

}  // namespace

TEST_CASE("CUDA: a Bloch phase along the cut axis on 2 and 3 subdomains equals one engine (2D y, 3D z, float64)",
          "[gpu][cuda][bloch][distributed]") {
    for (const CutCase& c : cut_cases()) {
        INFO(c.name);
        const int axis = partition_axis(c.scene);
        REQUIRE(c.scene.complex_fields);
        REQUIRE(c.scene.bloch_phase[axis] != 0);
        for (int pieces : {2, 3}) {
            const CutDeviation d = cut_vs_one(c.scene, Precision::Float64, pieces, c.steps, false);
            std::printf("[bloch] CUDA Bloch %c = cut axis, %s, %d subdomains vs 1, float64, %d steps: fields %.2g, "
                        "DFTs %.2g, probes %.2g, energy %.2g\n",
                        "xyz"[axis], c.name.c_str(), pieces, c.steps, d.fields, d.dft, d.probes, d.energy);
            CHECK(d.fields < 1e-10);
            CHECK(d.dft < 1e-10);
            CHECK(d.probes < 1e-10);
            CHECK(d.energy < 1e-10);
        }
        // sensitivity: the wrap halos without their phase
        const CutDeviation d0 = cut_vs_one(c.scene, Precision::Float64, 2, c.steps, true);
        std::printf("[bloch] CUDA Bloch cut axis, %s, wrap phase dropped: fields %.2g, DFTs %.2g\n", c.name.c_str(),
                    d0.fields, d0.dft);
        CHECK(std::max(d0.fields, d0.dft) > 1e-2);
    }
}

// The rotation is queued by each way of driving the subdomains: "threads" (the default of
// CUDA subdomains with complex fields, exchange_into on the receiving stream), "events"
// (exchange: copies ordered by events) and "sync".
TEST_CASE("CUDA: a Bloch phase along the cut axis equals one engine in every halo mode",
          "[gpu][cuda][bloch][distributed]") {
    for (const CutCase& c : cut_cases()) {
        if (c.name.find("glproj") == std::string::npos) continue;  // the 2D and 3D projects
        for (const char* mode : {"threads", "events", "sync"}) {
            const CutDeviation d = cut_vs_one(c.scene, Precision::Float64, 3, c.steps, false, mode);
            std::printf("[bloch] CUDA Bloch cut axis, %s, 3 subdomains, mode %s: fields %.2g, DFTs %.2g\n",
                        c.name.c_str(), mode, d.fields, d.dft);
            CHECK(d.fields < 1e-10);
            CHECK(d.dft < 1e-10);
            CHECK(d.probes < 1e-10);
            CHECK(d.energy < 1e-10);
        }
    }
}

TEST_CASE("CUDA: a Bloch phase along the cut axis on 2 and 3 subdomains equals one engine (float32)",
          "[gpu][cuda][bloch][distributed]") {
    const double u = std::ldexp(1.0, -24);
    for (const CutCase& c : cut_cases()) {
        INFO(c.name);
        const double bound = 8.0 * c.steps * u;
        for (int pieces : {2, 3}) {
            const CutDeviation d = cut_vs_one(c.scene, Precision::Float32, pieces, c.steps, false);
            std::printf("[bloch] CUDA Bloch cut axis, %s, %d subdomains vs 1, float32, %d steps: fields %.2g, DFTs "
                        "%.2g, probes %.2g, energy %.2g (bound 8 N u = %.2g)\n",
                        c.name.c_str(), pieces, c.steps, d.fields, d.dft, d.probes, d.energy, bound);
            CHECK(d.fields < bound);
            CHECK(d.dft < bound);
            CHECK(d.probes < bound);
            CHECK(d.energy < bound);
        }
        const CutDeviation d0 = cut_vs_one(c.scene, Precision::Float32, 2, c.steps, true);
        std::printf("[bloch] CUDA Bloch cut axis, %s, float32, wrap phase dropped: fields %.2g\n", c.name.c_str(),
                    d0.fields);
        CHECK(std::max(d0.fields, d0.dft) > 1e-2);
    }
}

TEST_CASE("CUDA 3D: a Bloch mode source, plane mode monitor and ports across the period give the CPU run's results",
          "[gpu][cuda][bloch]") {
    REQUIRE(have_mode_solver_2d());
    constexpr double kDx = 0.025;
    constexpr int kNz = 4;
    Project p = test::bloch_coupled_array(3, Polarization::TMz, kDx, kNz * kDx);
    p.run.normalization.enabled = false;
    p.run.stop.max_time_fs = 300;  // the comparison needs no decay: both backends stop at the same step
    // the mode source (mode 2: the second E_z supermode, whose phase varies across the period)
    p.sources = {test::bloch_array_mode_source(2, kNz * kDx)};
    const Monitor m = test::bloch_array_mode_monitor(3, "T", 2.6, "+y", {0, 1, 2, 3}, kNz * kDx);
    Monitor flux = m;
    flux.name = "T flux";
    flux.kind = "flux";
    flux.extra = Json::object();
    p.monitors = {m, flux};

    RunOptions o;
    o.backend = BackendChoice::Cpu;
    const RunResult cpu = run_project(p, "array3d.glproj", o);
    o.backend = BackendChoice::Cuda;
    const RunResult gpu = run_project(p, "array3d.glproj", o);
    CHECK(gpu.backend == "cuda");
    CHECK(gpu.kernel.find("complex") != std::string::npos);
    CHECK(gpu.steps == cpu.steps);
    REQUIRE(cpu.mode_coefficients.size() == 4);
    REQUIRE(gpu.mode_coefficients.size() == 4);
    REQUIRE(cpu.spectra.size() == gpu.spectra.size());
    REQUIRE(cpu.spectra.size() == 2);
    std::vector<std::complex<double>> a_cpu, a_gpu;
    for (std::size_t q = 0; q < 4; ++q) {
        const ModeCoefficientsResult &x = cpu.mode_coefficients[q], &y = gpu.mode_coefficients[q];
        a_cpu.insert(a_cpu.end(), x.fwd.begin(), x.fwd.end());
        a_cpu.insert(a_cpu.end(), x.bwd.begin(), x.bwd.end());
        a_gpu.insert(a_gpu.end(), y.fwd.begin(), y.fwd.end());
        a_gpu.insert(a_gpu.end(), y.bwd.begin(), y.bwd.end());
        REQUIRE(x.n_eff.size() == y.n_eff.size());
        for (std::size_t f = 0; f < x.n_eff.size(); ++f) CHECK(y.n_eff[f] == Approx(x.n_eff[f]).epsilon(1e-10));  // the same solve
    }
    const double dev_modes = result_deviation(a_cpu, a_gpu);
    const double dev_flux = result_deviation(cpu.spectra[1].flux, gpu.spectra[1].flux);
    // the launched mode carries the power: a physical check that the run is not empty
    const auto& a2 = cpu.mode_coefficients[2];
    for (std::size_t f = 0; f < cpu.frequency_hz.size(); ++f) CHECK(std::norm(a2.fwd[f]) > 0.9 * cpu.spectra[1].flux[f]);
    std::printf("[bloch] CUDA 3D Bloch mode source and plane mode monitor vs CPU (float64, %lld steps): mode amplitudes "
                "%.2g, flux %.2g; kernel %s\n",
                (long long)gpu.steps, dev_modes, dev_flux, gpu.kernel.c_str());
    CHECK(dev_modes < 1e-6);
    CHECK(dev_flux < 1e-6);

    // two ports across the period: the S-parameters
    Project q = p;
    q.sources.clear();
    q.monitors.clear();
    q.extra["ports"] = Json::parse(R"([
        {"name": "a", "center": [0.5, 1.2, 0.05], "size": [1.0, 0, 0.1], "direction": "+y"},
        {"name": "b", "center": [0.5, 2.6, 0.05], "size": [1.0, 0, 0.1], "direction": "-y"}])");
    o.backend = BackendChoice::Cpu;
    const SParameters sc = run_sparameters(q, "ports3d.glproj", o);
    o.backend = BackendChoice::Cuda;
    const SParameters sg = run_sparameters(q, "ports3d.glproj", o);
    REQUIRE(sc.labels == sg.labels);
    REQUIRE(sc.labels.size() == 2);
    REQUIRE(sg.runs.size() == 2);
    for (const RunResult& r : sg.runs) CHECK(r.backend == "cuda");
    std::vector<std::complex<double>> s_cpu, s_gpu;
    for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t j = 0; j < 2; ++j) {
            s_cpu.insert(s_cpu.end(), sc.s[i][j].begin(), sc.s[i][j].end());
            s_gpu.insert(s_gpu.end(), sg.s[i][j].begin(), sg.s[i][j].end());
        }
    const double dev_s = result_deviation(s_cpu, s_gpu);
    for (std::size_t f = 0; f < sc.frequency_hz.size(); ++f) CHECK(std::abs(sc.s[1][0][f]) > 0.9);  // it transmits
    std::printf("[bloch] CUDA 3D Bloch ports across the period vs CPU (float64): S-parameters %.2g\n", dev_s);
    CHECK(dev_s < 1e-6);
}
