// GoLightly distributed engine: one grid stepped as several subdomains (partition.hpp), each
// by an ordinary engine (CPU, or CUDA on its own device), behind the same Engine interface,
// so the run driver, the IDE and bench do not change.
//
// One step of the distributed engine: every subdomain engine takes one step (on CUDA all of
// them queue their kernels on their own streams at once), then the halo exchange copies
// the owned planes next to every cut into the neighbour's halo planes (partition.hpp
// explains why the owned planes are then exact). The exchange is one interface
// (HaloExchange) with one implementation per transport: memcpy between host engines,
// CUDA peer copies between devices (ordered by events on the engines' streams, no host
// synchronization), and MPI between processes (mpi_halo.hpp, when built with MPI); the
// distributed engine does not know which it has.
//
// Reductions: field_energy() is the sum of the subdomains' energies minus that of their
// halo planes (which duplicate a neighbour's owned planes after the exchange);
// fields_finite() holds when every subdomain's fields are finite; dft() gathers each
// subdomain's samples into their global order (Subdomain::dft_samples); time_samples() adds
// the subdomains' weighted sums (partition.hpp); get_field() gathers the owned planes;
// frames and field samples come from the subdomain that holds a slice normal to the cut
// axis, else from the owned rows of every subdomain assembled on the host.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "golightly/engine.hpp"
#include "golightly/partition.hpp"

namespace golightly {

/// Moves halo planes between subdomain engines (partition.hpp HaloTransfer). engines[s] is
/// the engine of subdomain s, nullptr when another process steps it (MPI).
class HaloExchange {
public:
    virtual ~HaloExchange() = default;
    /// "memcpy", "cuda-peer", "mpi", ...
    virtual std::string transport() const = 0;
    /// Starts every transfer after the engines' last step. Host transports finish before
    /// returning; CUDA orders the copies after each source engine's queued work and the
    /// engines' next work after the copies, on the engines' streams (no host wait).
    virtual void exchange(const std::vector<HaloTransfer>& transfers, const std::vector<Engine*>& engines) = 0;
    /// Waits until every transfer started so far has finished (timing).
    virtual void wait() {}
    /// Performs the transfers into subdomain `to` (transfer.to == to) and returns when they
    /// are done (the engines' earlier work must have finished: the caller synchronizes).
    /// Used by one host thread per subdomain. Default: exchange() of those transfers.
    virtual void exchange_into(int to, const std::vector<HaloTransfer>& transfers, const std::vector<Engine*>& engines);
};

/// memcpy between engines whose fields are in host memory (the CPU engines).
std::unique_ptr<HaloExchange> make_host_halo_exchange();
/// cudaMemcpyPeerAsync between CUDA engines (peer access enabled between their devices
/// where the hardware allows it; otherwise the CUDA runtime stages the copy). Throws
/// RunError without the CUDA backend.
std::unique_ptr<HaloExchange> make_cuda_peer_halo_exchange(const std::vector<Engine*>& engines);

/// Where one subdomain runs.
struct SubdomainDevice {
    bool cuda = false;  ///< false: CPU engine
    int ordinal = 0;    ///< CUDA device ordinal (cuda = true)
    int threads = 0;    ///< CPU threads (cuda = false; <= 0: all cores)
    double weight = 1;  ///< share of the grid's planes (partition_scene weights)
};

class DistributedEngine final : public Engine {
public:
    /// Cuts `global` into one subdomain per entry of `devices` (partition_scene with their
    /// weights) and makes an engine for each. All entries must be CPU or all CUDA. Throws
    /// RunError (partition, device, memory errors naming the subdomain and device).
    DistributedEngine(SceneView global, Precision precision, const std::vector<SubdomainDevice>& devices);
    ~DistributedEngine() override;

    std::string backend() const override;
    std::string device() const override;
    Precision precision() const override { return precision_; }
    void step(int n_steps) override;
    std::int64_t steps_done() const override;
    void synchronize() override;
    /// Subdomain engines' models weighted by their cells (halo planes included), plus the
    /// exchanged bytes, per global cell.
    double bytes_per_cell_update() const override;
    double field_energy() override;
    bool fields_finite() override;
    void get_field(Component c, std::vector<double>& out) override;
    void set_field(Component c, const std::vector<double>& values) override;
    std::vector<std::complex<double>> dft(int set) override;
    std::vector<double> time_samples(int probe) override;
    Image8 frame(const FrameRequest& request) override;
    FieldSamples sample_field(Component component, int max_width, int max_height, bool squared) override;
    void set_frame_slice(const FrameSlice& slice) override;
    void update_materials(SceneView edited) override;
    std::vector<SubdomainInfo> subdomains() const override;

    // Timing helpers for bench (not for runs).
    /// false: step() skips the exchange (wrong fields; bench times the compute alone).
    void set_exchange_enabled(bool on) { exchange_on_ = on; }
    /// Wall seconds of one exchange on its own (the median of `reps`, each synchronized).
    double time_exchange(int reps);
    /// Bytes one exchange moves (all transfers, every component).
    double exchange_bytes() const;
    const Partition& partition() const { return part_; }
    std::string transport() const { return halo_ ? halo_->transport() : "none"; }
    /// How step() drives the subdomains: "threads", "events" or "sync" (mode_ below).
    const std::string& mode() const { return mode_; }
    /// Sets the mode ("threads", "events", "sync"); throws RunError for another name.
    void set_mode(const std::string& mode);

private:
    void select(std::size_t s) const;
    void build_engines(const std::vector<SubdomainDevice>& devices);
    std::vector<Engine*> raw() const;

    SceneView global_;
    Precision precision_;
    std::vector<SubdomainDevice> devices_;
    Partition part_;
    std::vector<std::shared_ptr<const Scene>> sub_scenes_;
    std::vector<std::unique_ptr<Engine>> engines_;
    std::unique_ptr<HaloExchange> halo_;
    bool exchange_on_ = true;
    /// How step() drives the subdomains: "threads" (one host thread per subdomain: step,
    /// synchronize, barrier, copies into its halo, barrier), "events" (one thread; the
    /// copies ordered by CUDA events, no host wait) or "sync" (one thread: step all, wait
    /// for all, copy). GOLIGHTLY_HALO_MODE overrides the default (threads on CUDA, events
    /// on the CPU, where the copies are host memcpy anyway).
    std::string mode_;
    void step_threads(int n_steps);
    FrameSlice slice_;
};

/// The distributed engine as an Engine (make_distributed_engine(global, p, devices) ==
/// std::make_unique<DistributedEngine>(...)).
std::unique_ptr<Engine> make_distributed_engine(SceneView global, Precision precision,
                                                const std::vector<SubdomainDevice>& devices);

}  // namespace golightly
