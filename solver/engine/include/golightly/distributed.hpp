// GoLightly distributed engine: one grid stepped as several subdomains (partition.hpp), each
// by an ordinary engine (CPU, or CUDA on its own device), behind the same Engine interface,
// so the run driver, the IDE and bench do not change.
//
// One step of the distributed engine: every subdomain engine of this process takes one step
// (on CUDA all of them queue their kernels on their own streams at once), then the halo
// exchange copies the owned planes next to every cut into the neighbour's halo planes
// (partition.hpp explains why the owned planes are then exact). The exchange is one
// interface (HaloExchange) with one implementation per transport: memcpy between host
// engines, CUDA peer copies between devices (ordered by events on the engines' streams, no
// host synchronization), and MPI between processes (engine/mpi, golightly/mpi.hpp, when
// built with MPI); the distributed engine does not know which it has: the caller passes a
// HaloExchangeFactory.
//
// Processes. A distributed engine holds the engines of the subdomains whose
// SubdomainDevice::rank is its communicator's rank (all of them in one process; one per rank
// under mpirun) and combines what the others hold through a Communicator (sums, logical
// and, broadcast, gather): in-process (make_in_process_communicator: nothing to combine) or
// MPI. Every reduction below is collective (every rank calls it, in the same order) and
// gives every rank the same bits, so a run driver on each rank takes the same decisions.
//
// Reductions: field_energy() is the sum of the subdomains' energies minus that of their
// halo planes (which duplicate a neighbour's owned planes after the exchange);
// fields_finite() holds when every subdomain's fields are finite; dft() gathers each
// subdomain's samples into their global order (Subdomain::dft_samples; the other entries
// are zero, so the sum over processes is exact); time_samples() adds the subdomains'
// weighted sums (partition.hpp); get_field() gathers the owned planes; frames and field
// samples come from the subdomain that holds a slice normal to the cut axis (broadcast from
// its rank), else from the owned rows of every subdomain assembled on the host. Every read
// walks the subdomains through one helper (for_each_local) and gathers owned planes through
// one other (gather_owned), so no read repeats the loop over subdomains.
//
// Two steps per pass. Where every subdomain engine runs two Yee steps per pass over memory
// (SubdomainAccess::pair_step_refusal "": the 3D CUDA engine's update_he3_two) the engine
// steps in pairs: every subdomain engine's step(2), then one exchange of every halo plane
// (pair_halo_transfers). Why two steps need no more than the one-step halo: in one step the
// wrong values a cut face causes reach halo - 1 planes inward (partition.hpp: 1 plane, 2
// with sub-pixel tensor couplings), so in two steps 2 (halo - 1); with halo 2 (no tensor
// couplings) that is the whole halo and no owned plane, and the exchange of the whole halo
// makes every halo plane exact again, as far as the fields go. Per-cell state (CPML psi,
// pole state) does not travel: in one step only the outermost halo plane goes wrong, and
// its wrong state touches nothing but that plane, whose fields its neighbours read after
// the exchange refreshed them; in a pair the halo plane next to it is read after the
// second step spoiled it, so its state goes wrong too, and next pair its own update spoils
// the plane further in, one plane more each pair until the owned planes are reached. So
// the pairs' exchange also moves the CPML psi of the x and y slabs on the halo planes
// (FieldStorage::psi, where HaloExchange::moves_psi: memcpy, cuda-peer and MPI), and
// pairs run only where no other state lies on a halo plane (pair_state_refusal: no
// dispersive cells there, the z PML off them). With tensor
// couplings (halo 3, 4 planes wrong after two steps) the engine keeps one exchange per
// step too. The pairs' exchange is not hidden
// behind the interior (the engines' step(2), then the exchange: events on CUDA streams,
// the MPI messages, or the threads mode's barriers); an odd step left over runs one step per
// pass by the mode below (mode()). Elsewhere (a subdomain engine that steps one step per
// pass, GOLIGHTLY_DIST_TWO_STEP=0, state on halo planes, tensor couplings) every subdomain steps one step per pass
// with an exchange after every step, and the engines drop their two-step state
// (SubdomainAccess::drop_pair_steps). kernel() says which. GOLIGHTLY_DIST_TWO_STEP=1 forces
// pairs on any engines (tests: CPU subdomains exchange every second step); unset (auto) the
// pairs run where they apply, and 0 turns them off (tuning.hpp).
//
// Seams (engine.hpp): the subdomain engines are reached as SubdomainAccess (field storage,
// split steps; the halo exchanges see nothing else) and FrameSource; the distributed engine
// is an Engine and its own FrameSource, and no subdomain itself (subdomain() is nullptr).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "golightly/engine.hpp"
#include "golightly/frame_source.hpp"
#include "golightly/subdomain.hpp"
#include "golightly/partition.hpp"

namespace golightly {

/// Moves halo planes between subdomain engines (partition.hpp HaloTransfer). engines[s] is
/// the engine of subdomain s, as its SubdomainAccess (subdomain.hpp: field storage, split
/// steps), nullptr when another process steps it (MPI).
class HaloExchange {
public:
    virtual ~HaloExchange() = default;
    /// "memcpy", "cuda-peer", "mpi", ...
    virtual std::string transport() const = 0;
    /// Starts every transfer after the engines' last step. Host transports finish before
    /// returning; CUDA orders the copies after each source engine's queued work and the
    /// engines' next work after the copies, on the engines' streams (no host wait).
    virtual void exchange(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) = 0;
    /// Waits until every transfer started so far has finished (timing).
    virtual void wait() {}
    /// Whether exchange() and exchange_into() can also move FieldStorage::psi of the
    /// transfers' planes (memcpy, cuda-peer and MPI: yes). Default false.
    virtual bool moves_psi() const { return false; }
    /// Set by the distributed engine around its pairs' exchanges (moves_psi() transports
    /// only): exchange() and exchange_into() then move the psi planes too.
    bool with_psi = false;
    /// Overlapped exchange (split steps, subdomain.hpp): start() begins every transfer after
    /// the engines' step_begin(), and may return before they are done; finish() makes the
    /// engines' next work (step_boundary()) wait for them, and the sources' later steps for
    /// the reads. Between the two the caller enqueues step_interior() of every engine.
    /// CUDA: copies on a copy stream per receiving device, ordered by events (no host
    /// wait); MPI: non-blocking sends and receives, completed in finish(). Defaults:
    /// start() = exchange(), finish() nothing.
    virtual void start(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) {
        exchange(transfers, engines);
    }
    virtual void finish(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) {
        (void)transfers, (void)engines;
    }
    /// Performs the transfers into subdomain `to` (transfer.to == to) and returns when they
    /// are done (the engines' earlier work must have finished: the caller synchronizes).
    /// Used by one host thread per subdomain. Default: exchange() of those transfers.
    virtual void exchange_into(int to, const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines);
};

/// The Bloch phase of a wrap transfer (partition.hpp HaloTransfer::phase) on its landed
/// planes: the `count` complex values re[k] + i im[k] (host memory, float or double) become
/// exp(i phase) (re[k] + i im[k]), i.e. (re, im) <- (cos re - sin im, sin re + cos im),
/// formed in double and rounded once (the one-device engines' wrapped read, cpu_bloch.hpp
/// BlochRotation, scene.hpp "Bloch-periodic axes"). Every host transport calls it on each
/// component c whose real (FieldStorage::field[c]) and imaginary (field[6 + c]) arrays are
/// both present, after both have landed.
template <class T>
void apply_halo_phase(T* re, T* im, std::size_t count, double phase);
/// apply_halo_phase on planes [first, first + planes) of every complex component of `fs`
/// (element_bytes 4 or 8, else std::invalid_argument). Nothing when phase is 0. Host
/// memory is rotated here; a CUDA engine's arrays (fs.cuda_device >= 0) by
/// cuda_apply_halo_phase, queued on fs.cuda_stream.
void apply_halo_phase(const FieldStorage& fs, std::int64_t first, std::int64_t planes, double phase);
/// The device twin of apply_halo_phase(fs, ...) for a CUDA engine's arrays: one kernel per
/// complex component over planes [first, first + planes), the same expression in double,
/// rounded once to the element type; queued on fs.cuda_stream of device fs.cuda_device
/// (made current), after the work already queued there (e.g. the host -> device copies of
/// the landed planes), and returns without waiting. Throws RunError for host arrays or
/// without the CUDA backend.
void cuda_apply_halo_phase(const FieldStorage& fs, std::int64_t first, std::int64_t planes, double phase);

/// memcpy between engines whose fields are in host memory (the CPU engines); transfers
/// with a phase (HaloTransfer::phase) are rotated after they land (apply_halo_phase).
std::unique_ptr<HaloExchange> make_host_halo_exchange();
/// cudaMemcpyPeerAsync between CUDA engines (peer access enabled between their devices
/// where the hardware allows it; otherwise the CUDA runtime stages the copy); a transfer
/// with a phase is rotated on the receiving stream after its copies (the kernel of
/// cuda_apply_halo_phase). Throws RunError without the CUDA backend.
std::unique_ptr<HaloExchange> make_cuda_peer_halo_exchange(const std::vector<SubdomainAccess*>& engines);

/// How one halo exchange is made once the engines of this process exist (engines[s]
/// nullptr for subdomains of other processes). Chosen by whoever builds the distributed
/// engine (in_process_halo_factory, or the MPI one of golightly/mpi.hpp).
using HaloExchangeFactory = std::function<std::unique_ptr<HaloExchange>(const std::vector<SubdomainAccess*>& engines)>;

/// The in-process transports: cuda-peer when the engines are CUDA engines
/// (make_cuda_peer_halo_exchange), else memcpy (make_host_halo_exchange).
HaloExchangeFactory in_process_halo_factory();

/// Reductions across the processes of a distributed run (one per rank under MPI). Every
/// call is collective: each process calls the same functions in the same order, and each
/// gets the same result, bit for bit (so that every rank's run driver decides alike).
class Communicator {
public:
    virtual ~Communicator() = default;
    /// This process's rank, 0 .. size() - 1.
    virtual int rank() const = 0;
    virtual int size() const = 0;
    /// "in-process", "mpi".
    virtual std::string name() const = 0;
    /// values[k] <- the sum over ranks of values[k], k < n (in place).
    virtual void sum(double* values, std::size_t n) = 0;
    /// True when `value` is true on every rank.
    virtual bool all(bool value) = 0;
    /// Every rank's `values` (the size too) <- rank `root`'s.
    virtual void broadcast(std::vector<double>& values, int root) = 0;
    /// Every rank's `text`, by rank.
    virtual std::vector<std::string> gather(const std::string& text) = 0;
    /// Rank `root` gets every rank's `values` concatenated in rank order; the other ranks get
    /// an empty vector. This default passes each rank's values to every rank (broadcast(),
    /// size() rounds); the MPI communicator sends each rank's to `root` alone (MPI_Gatherv).
    virtual std::vector<double> gather_to(const std::vector<double>& values, int root);

    double sum(double value) {
        sum(&value, 1);
        return value;
    }
    void sum(std::vector<double>& values) { sum(values.data(), values.size()); }
};

/// One process: rank 0 of 1; sum, all and broadcast leave their arguments as they are.
std::shared_ptr<Communicator> make_in_process_communicator();

/// Where one subdomain runs.
struct SubdomainDevice {
    bool cuda = false;  ///< false: CPU engine
    int ordinal = 0;    ///< CUDA device ordinal (cuda = true)
    int threads = 0;    ///< CPU threads (cuda = false; <= 0: all cores)
    double weight = 1;  ///< share of the grid's plane cost (partition_scene weights)
    /// The process (Communicator rank) that steps it: the distributed engine makes engines
    /// only for its own rank's subdomains; the other entries give the weight alone.
    int rank = 0;
    /// Host name (MPI ranks): the device reads "... on HOST" in subdomains(); empty: none.
    std::string host;
};

/// The DFT accumulators of scene.dft_sets[sets[i]] at the frequency indices `freqs`,
/// collected on one process: out[i][sample * freqs.size() + q] equals
/// engine.dft(sets[i])[sample * nf + freqs[q]] (nf the set's frequencies, the samples in the
/// scene's order). `scene` is the scene `engine` runs. For a reader that needs a few
/// frequencies of a few sets on one process only (the far-field projection,
/// far_field_run.cpp); Engine::dft instead sums every frequency of one set over the
/// processes and gives the sum to each of them:
///   DistributedEngine  every process sends the samples its subdomains own, for all the
///                      sets at once, to rank `root` alone (Communicator::gather_to: one
///                      MPI_Gatherv under MPI);
///   SymmetricEngine    its inner engine's, expanded to the whole domain on `root`;
///   any other engine   dft() of each set (one process).
/// Collective: every process calls it with the same arguments. Returns true where `out`
/// holds the values (rank `root`; any engine of a run in one process), false on the other
/// ranks (out empty). Throws std::out_of_range for a set or a frequency index that `scene`
/// does not have.
bool dft_on_root(Engine& engine, const Scene& scene, const std::vector<int>& sets,
                 const std::vector<std::size_t>& freqs, std::vector<std::vector<std::complex<double>>>& out,
                 int root = 0);

/// The halo transfers of a distributed engine that steps in pairs (file comment, "Two steps
/// per pass"): p.transfers with every halo plane moving, the innermost one included (each
/// transfer `p.halo` planes: into a lower halo from the same first plane, into an upper halo
/// from one plane lower), so that after two steps every halo plane again equals the global
/// field there; the Bloch phases as in p.transfers. Throws std::logic_error for a transfer
/// of p.transfers that is not halo - 1 planes deep.
std::vector<HaloTransfer> pair_halo_transfers(const Partition& p);
/// Whether a partition's halos are deep enough for two steps between exchanges: the planes
/// two steps spoil, 2 (halo - 1), fit the halo (true for halo 2; false for the halo 3 of
/// sub-pixel tensor couplings).
inline bool pair_halo_suffices(const Partition& p) { return 2 * (p.halo - 1) <= p.halo; }
/// Why two steps between exchanges would not stay exact for `global` cut as `p` ("" where
/// they do): a halo plane holds per-cell state that the exchange does not move: CPML psi (a
/// PML along an axis other than the cut axis puts psi on every plane, unless `psi_travels`:
/// the transport moves FieldStorage::psi, 3D real fields cut along z; the cut axis's PML
/// slabs on the halo planes they reach), pole state (dispersive cells on a halo plane) or
/// Mur faces on an axis other than the cut axis. (In a pair the second step
/// spoils halo planes whose state then stays wrong after their fields are refreshed, and
/// the wrong state spreads one plane further each pair: file comment, "Two steps per pass".)
std::string pair_state_refusal(const Scene& global, const Partition& p, bool psi_travels = false);

/// Everything a distributed engine takes beyond the scene and precision.
struct DistributedSetup {
    std::vector<SubdomainDevice> devices;  ///< one per subdomain, in cut-axis order
    std::shared_ptr<Communicator> comm;    ///< null: make_in_process_communicator()
    HaloExchangeFactory halo;              ///< null: in_process_halo_factory()
};

class DistributedEngine final : public Engine, public FrameSource {
public:
    /// Cuts `global` into one subdomain per entry of `devices` (partition_scene with their
    /// weights) and makes an engine for each, in this process, exchanging halos in-process.
    /// All entries must be CPU or all CUDA. Throws RunError (partition, device, memory
    /// errors naming the subdomain and device). A Bloch phase along the cut axis runs on CPU
    /// and CUDA subdomains alike (the wrap transfers' rotation: apply_halo_phase).
    DistributedEngine(SceneView global, Precision precision, const std::vector<SubdomainDevice>& devices);
    /// As above for the subdomains whose SubdomainDevice::rank is setup.comm's rank (the
    /// others are stepped by other processes, which construct their engine at the same time:
    /// the constructor is collective), with setup.halo's exchange. This process's entries
    /// must be all CPU or all CUDA; it must own at least one subdomain.
    DistributedEngine(SceneView global, Precision precision, DistributedSetup setup);
    ~DistributedEngine() override;

    std::string backend() const override;
    std::string device() const override;
    /// The subdomains' kernel and how often the halos are exchanged (file comment, "Two steps
    /// per pass"): with pairs, the subdomain engine's kernel ("two steps per pass
    /// (update_he3_two)" on CUDA), then ", halo exchange every second step (H planes)";
    /// otherwise the subdomain engine's kernel ("one step per pass, ..." on CUDA), then
    /// ", halo exchange every step (MODE); two steps per pass: REASON". One subdomain: its
    /// engine's kernel. An engine that names no kernel (CPU): "" (see pair_refusal()).
    std::string kernel() const override;
    /// True when step() advances the subdomains in pairs (file comment).
    bool steps_pairs() const { return pairs_; }
    /// Why step() does not step pairs ("" when it does).
    const std::string& pair_refusal() const { return pair_why_; }
    Precision precision() const override { return precision_; }
    /// Pairs (steps_pairs()): n_steps / 2 times every subdomain's step(2) and the exchange of
    /// pair_halo_transfers; an odd step left over by mode(). Otherwise every step by mode().
    void step(int n_steps) override;
    std::int64_t steps_done() const override;
    void synchronize() override;
    /// Subdomain engines' models weighted by their cells (halo planes included), plus the
    /// exchanged bytes, per global cell (summed over ranks: collective).
    double bytes_per_cell_update() const override;
    double field_energy() override;
    bool fields_finite() override;
    void get_field(Component c, std::vector<double>& out) override;
    /// Engine::set_field on every subdomain (halo planes included). With a Bloch phase along
    /// the cut axis the wrap halos then take the rotated planes of their neighbour (a halo
    /// exchange of the whole wrap halos: collective under MPI).
    void set_field(Component c, const std::vector<double>& values) override;
    std::vector<std::complex<double>> dft(int set) override;
    /// dft_on_root (below) of this engine: each process packs the samples its subdomains
    /// own as (set slot, global sample, the values at `freqs`) and the communicator's
    /// gather_to brings them to `root`, which puts them in place. Collective.
    bool dft_on_root(const std::vector<int>& sets, const std::vector<std::size_t>& freqs, int root,
                     std::vector<std::vector<std::complex<double>>>& out);
    std::vector<double> time_samples(int probe) override;
    void update_materials(SceneView edited) override;
    /// Its own frame source (the frames below); no subdomain of another distributed run.
    FrameSource& frames() override { return *this; }
    /// subdomains(), transport() and mode().
    DistributionInfo distribution() const override { return {subdomains(), transport(), mode_}; }

    // FrameSource: the slice is the global one; frames gathered as the file comment says.
    Image8 frame(const FrameRequest& request) override;
    FieldSamples sample_field(Component component, int max_width, int max_height, bool squared) override;
    void set_frame_slice(const FrameSlice& slice) override;

    /// Every subdomain (all ranks), its device and owned cells, in cut-axis order.
    std::vector<SubdomainInfo> subdomains() const;

    // Timing helpers for bench (not for runs).
    /// false: step() skips the exchange (wrong fields; bench times the compute alone).
    void set_exchange_enabled(bool on) { exchange_on_ = on; }
    /// Wall seconds of the exchange per step on its own: the median of `reps` exchanges as
    /// step() makes them (pair_halo_transfers when it steps pairs), each synchronized,
    /// divided by the steps between exchanges (2 with pairs).
    double time_exchange(int reps);
    /// Bytes the exchange moves per step (all transfers, every component): one exchange of
    /// Partition::transfers, or with pairs half an exchange of pair_halo_transfers together
    /// with the CPML psi planes it carries (HaloExchange::moves_psi).
    double exchange_bytes() const;
    const Partition& partition() const { return part_; }
    std::string transport() const { return halo_ ? halo_->transport() : "none"; }
    /// True when this process steps subdomain s.
    bool is_local(std::size_t s) const { return engines_.at(s) != nullptr; }
    const Communicator& communicator() const { return *comm_; }
    /// How step() drives the subdomains: "overlap", "threads", "events" or "sync" (mode_ below).
    const std::string& mode() const { return mode_; }
    /// Sets the mode ("overlap", "threads", "events", "sync"); throws RunError for another
    /// name, for "overlap" when a local engine cannot split its steps, and for "threads" or
    /// "sync" across processes (communicator size > 1: the transport orders the copies).
    void set_mode(const std::string& mode);

private:
    void select(std::size_t s) const;
    void build_engines(const HaloExchangeFactory& halo);
    Engine& first_local() const;
    /// The engine of a one-subdomain grid, its device current (every read passes straight
    /// through); nullptr when the grid has several subdomains.
    Engine* whole() const;
    /// Calls f(s) for every subdomain s this process steps, in cut-axis order, with its
    /// device current: the one loop over the subdomains.
    template <class F>
    void for_each_local(F&& f) const {
        for (std::size_t s = 0; s < engines_.size(); ++s)
            if (engines_[s]) select(s), f(s);
    }
    /// A global array of part_.global_n planes of `plane` values along the cut axis from
    /// the subdomains' local arrays: read(s, local) fills subdomain s's n_local planes
    /// (halo planes included, local flat order), and its owned planes land at their global
    /// place; the result is summed over ranks (each plane has one owner, the others add
    /// zeros), so every rank gets it whole. Collective.
    std::vector<double> gather_owned(std::size_t plane,
                                     const std::function<void(std::size_t, std::vector<double>&)>& read) const;
    /// Subdomain s's engine device, with " (device k)" and " on HOST" (subdomains()).
    std::string local_device_label(std::size_t s) const;

    SceneView global_;
    Precision precision_;
    std::vector<SubdomainDevice> devices_;
    Partition part_;
    std::vector<std::shared_ptr<const Scene>> sub_scenes_;
    std::vector<std::unique_ptr<Engine>> engines_;
    std::vector<SubdomainAccess*> parts_;  ///< engines_[s]->subdomain(); nullptr for other ranks' subdomains
    std::unique_ptr<HaloExchange> halo_;
    std::shared_ptr<Communicator> comm_;
    std::vector<std::string> device_labels_;  ///< per subdomain, gathered from every rank
    bool exchange_on_ = true;
    /// How step() drives the subdomains: "overlap" (one thread; per step every engine's
    /// step_begin, HaloExchange::start, every step_interior, finish, every step_boundary:
    /// the exchange hidden behind the interior update, B-CALM; engines that split their
    /// steps: the 3D CUDA engine), "threads" (one host thread per subdomain: step,
    /// synchronize, barrier, copies into its halo, barrier), "events" (one thread; the
    /// copies ordered by CUDA events, no host wait) or "sync" (one thread: step all, wait
    /// for all, copy). GOLIGHTLY_HALO_MODE overrides the default (overlap where every local
    /// engine splits its steps, else threads on CUDA and events on the CPU, where the
    /// copies are host memcpy anyway).
    std::string mode_;
    /// Sets window.row_padding of every subdomain scene of `p` when all subdomains run on CUDA.
    void allow_row_padding(Partition& p) const;
    /// Threads mode: one host thread per subdomain, each `n_exchanges` times engine step(
    /// steps_per_exchange), synchronize, barrier, the copies of `transfers` into it, barrier.
    void step_threads(int n_exchanges, int steps_per_exchange, const std::vector<HaloTransfer>& transfers);
    void step_overlap(int n_steps);
    /// n_pairs pairs (step()): threads mode as step_threads, else every engine's step(2), then
    /// the exchange of pair_transfers_ (sync: host waits and exchange_into).
    void step_pairs(int n_pairs);
    /// Every step by mode_, one exchange per step (step()).
    void step_single(int n_steps);
    /// Decides pairs_ and pair_why_ (collective), drops the engines' two-step state where the
    /// engine does not step pairs. Throws RunError for GOLIGHTLY_DIST_TWO_STEP=1 where the
    /// halos are too shallow.
    void choose_pairs();
    /// Bytes one exchange of `transfers` moves.
    double transfer_bytes(const std::vector<HaloTransfer>& transfers) const;
    bool pairs_ = false;
    std::string pair_why_;
    std::vector<HaloTransfer> pair_transfers_;  ///< pair_halo_transfers(part_)
    bool can_overlap() const;
    FrameSlice slice_;
};

/// The distributed engine as an Engine (make_distributed_engine(global, p, devices) ==
/// std::make_unique<DistributedEngine>(...)).
std::unique_ptr<Engine> make_distributed_engine(SceneView global, Precision precision,
                                                const std::vector<SubdomainDevice>& devices);
std::unique_ptr<Engine> make_distributed_engine(SceneView global, Precision precision, DistributedSetup setup);

}  // namespace golightly
