// GoLightly distributed engine (distributed.hpp): subdomain engines and the halo exchange.
#include "golightly/distributed.hpp"
#include "golightly/cuda_device.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "../cpu/cpu_common.hpp"
#include "golightly/errors.hpp"
#include "golightly/symmetric_engine.hpp"
#include "golightly/tuning.hpp"
#include "golightly/units.hpp"

namespace golightly {

namespace {

/// Cells per plane normal to the slowest axis of a FieldStorage (z in 3D, y in 2D).
std::int64_t storage_plane_cells(const FieldStorage& fs) { return fs.n[2] > 1 ? fs.n[0] * fs.n[1] : fs.n[0]; }

class HostHalo final : public HaloExchange {
public:
    std::string transport() const override { return "memcpy"; }
    bool moves_psi() const override { return true; }
    void exchange(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        for (const HaloTransfer& t : transfers) {
            SubdomainAccess* from = engines.at(std::size_t(t.from));
            SubdomainAccess* to = engines.at(std::size_t(t.to));
            if (!from || !to) throw RunError("halo exchange (memcpy): subdomain engine missing in this process");
            const FieldStorage a = from->field_storage(), b = to->field_storage();
            const std::int64_t plane = storage_plane_cells(a);
            const std::size_t eb = std::size_t(a.element_bytes);
            const std::size_t bytes = std::size_t(t.planes * plane) * eb;
            for (int c = 0; c < FieldStorage::kArrays; ++c) {
                if (!a.field[c] || !b.field[c]) continue;
                std::memcpy(static_cast<unsigned char*>(b.field[c]) + std::size_t(t.to_plane * plane) * eb,
                            static_cast<const unsigned char*>(a.field[c]) + std::size_t(t.from_plane * plane) * eb,
                            bytes);
            }
            for (int c = 0; c < 6 && with_psi; ++c)
                for (int x = 0; x < 2; ++x) {
                    const std::int64_t pb = a.psi_plane_bytes[c][x];
                    if (!a.psi[c][x] || !b.psi[c][x] || pb != b.psi_plane_bytes[c][x]) continue;
                    std::memcpy(static_cast<unsigned char*>(b.psi[c][x]) + std::size_t(t.to_plane * pb),
                                static_cast<const unsigned char*>(a.psi[c][x]) + std::size_t(t.from_plane * pb),
                                std::size_t(t.planes * pb));
                }
            apply_halo_phase(b, t.to_plane, t.planes, t.phase);
        }
    }
};

double seconds_now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

template <class T>
void apply_halo_phase(T* re, T* im, std::size_t count, double phase) {
    const double c = std::cos(phase), s = std::sin(phase);
    for (std::size_t k = 0; k < count; ++k) {
        const double r = double(re[k]), i = double(im[k]);
        re[k] = T(c * r - s * i);
        im[k] = T(s * r + c * i);
    }
}
template void apply_halo_phase<float>(float*, float*, std::size_t, double);
template void apply_halo_phase<double>(double*, double*, std::size_t, double);

void apply_halo_phase(const FieldStorage& fs, std::int64_t first, std::int64_t planes, double phase) {
    if (phase == 0) return;
    if (fs.cuda_device >= 0) return cuda_apply_halo_phase(fs, first, planes, phase);  // device memory
    if (fs.element_bytes != 4 && fs.element_bytes != 8)
        throw std::invalid_argument("apply_halo_phase: element_bytes " + std::to_string(fs.element_bytes) +
                                    ", not 4 or 8");
    const std::int64_t plane = storage_plane_cells(fs);
    const std::size_t offset = std::size_t(first * plane), count = std::size_t(planes * plane);
    for (int c = 0; c < 6; ++c) {
        if (!fs.field[c] || !fs.field[6 + c]) continue;
        if (fs.element_bytes == 8)
            apply_halo_phase(static_cast<double*>(fs.field[c]) + offset, static_cast<double*>(fs.field[6 + c]) + offset,
                             count, phase);
        else
            apply_halo_phase(static_cast<float*>(fs.field[c]) + offset, static_cast<float*>(fs.field[6 + c]) + offset,
                             count, phase);
    }
}

std::unique_ptr<HaloExchange> make_host_halo_exchange() { return std::make_unique<HostHalo>(); }

HaloExchangeFactory in_process_halo_factory() {
    return [](const std::vector<SubdomainAccess*>& engines) -> std::unique_ptr<HaloExchange> {
        for (SubdomainAccess* e : engines)
            if (e && e->field_storage().cuda_device >= 0) return make_cuda_peer_halo_exchange(engines);
        return make_host_halo_exchange();
    };
}

namespace {

class InProcessCommunicator final : public Communicator {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::string name() const override { return "in-process"; }
    void sum(double*, std::size_t) override {}
    bool all(bool value) override { return value; }
    void broadcast(std::vector<double>&, int root) override {
        if (root != 0)
            throw std::logic_error("in-process communicator: broadcast from rank " + std::to_string(root) +
                                   " of a single process");
    }
    std::vector<std::string> gather(const std::string& text) override { return {text}; }
};

}  // namespace

std::shared_ptr<Communicator> make_in_process_communicator() { return std::make_shared<InProcessCommunicator>(); }

std::vector<double> Communicator::gather_to(const std::vector<double>& values, int root) {
    std::vector<double> all;
    for (int r = 0; r < size(); ++r) {
        std::vector<double> v = r == rank() ? values : std::vector<double>{};
        if (size() > 1) broadcast(v, r);
        if (rank() == root) all.insert(all.end(), v.begin(), v.end());
    }
    return all;
}

bool dft_on_root(Engine& engine, const Scene& scene, const std::vector<int>& sets,
                 const std::vector<std::size_t>& freqs, std::vector<std::vector<std::complex<double>>>& out,
                 int root) {
    for (int set : sets) {
        if (set < 0 || std::size_t(set) >= scene.dft_sets.size())
            throw std::out_of_range("dft_on_root: no DFT set " + std::to_string(set));
        const std::size_t nf = scene.dft_sets[std::size_t(set)].frequencies_hz.size();
        for (std::size_t q : freqs)
            if (q >= nf)
                throw std::out_of_range("dft_on_root: DFT set " + std::to_string(set) + " has " + std::to_string(nf) +
                                        " frequencies, not index " + std::to_string(q));
    }
    if (auto* s = dynamic_cast<SymmetricEngine*>(&engine)) return s->dft_on_root(sets, freqs, root, out);
    if (auto* d = dynamic_cast<DistributedEngine*>(&engine)) return d->dft_on_root(sets, freqs, root, out);
    out.clear();
    const std::size_t nq = freqs.size();
    for (int set : sets) {
        const std::vector<std::complex<double>> all = engine.dft(set);
        const std::size_t nf = scene.dft_sets[std::size_t(set)].frequencies_hz.size();
        const std::size_t samples = nf > 0 ? all.size() / nf : 0;
        std::vector<std::complex<double>> cut(samples * nq);
        for (std::size_t k = 0; k < samples; ++k)
            for (std::size_t q = 0; q < nq; ++q) cut[k * nq + q] = all[k * nf + freqs[q]];
        out.push_back(std::move(cut));
    }
    return true;
}

DistributedEngine::DistributedEngine(SceneView global, Precision precision, const std::vector<SubdomainDevice>& devices)
    : DistributedEngine(std::move(global), precision, DistributedSetup{devices, nullptr, nullptr}) {}

DistributedEngine::DistributedEngine(SceneView global, Precision precision, DistributedSetup setup)
    : global_(std::move(global)), precision_(precision), devices_(std::move(setup.devices)),
      comm_(setup.comm ? std::move(setup.comm) : make_in_process_communicator()) {
    if (devices_.empty()) throw RunError("distributed engine: no devices given");
    const int me = comm_->rank();
    int cuda = -1;
    for (std::size_t s = 0; s < devices_.size(); ++s) {
        const SubdomainDevice& d = devices_[s];
        if (d.rank < 0 || d.rank >= comm_->size())
            throw RunError("distributed engine: subdomain " + std::to_string(s) + " names rank " +
                           std::to_string(d.rank) + " but there are " + std::to_string(comm_->size()) + " ranks");
        if (d.rank != me) continue;
        if (cuda < 0) cuda = d.cuda ? 1 : 0;
        else if (cuda != (d.cuda ? 1 : 0))
            throw RunError("distributed engine: the subdomains of one process must all be CPU or all CUDA");
    }
    if (cuda < 0)
        throw RunError("distributed engine: rank " + std::to_string(me) + " steps none of the " +
                       std::to_string(devices_.size()) + " subdomains");
    std::vector<double> weights;
    for (const SubdomainDevice& d : devices_) weights.push_back(d.weight);
    part_ = partition_scene(*global_, int(devices_.size()), weights);
    // A Bloch phase along the cut axis (HaloTransfer::phase) is rotated by every transport
    // where the wrap transfers land: memcpy and MPI into host arrays on the host, cuda-peer
    // and MPI into a CUDA engine's arrays by the device kernel (apply_halo_phase; verified
    // on a GPU by tests/gpu/cuda_bloch_cut.cpp and gpu-check.sh --mpi).
    allow_row_padding(part_);
    build_engines(setup.halo ? setup.halo : in_process_halo_factory());
    for (std::size_t s = 0; s < parts_.size(); ++s)
        if (parts_[s]) parts_[s]->set_split_margins(part_.subs[s].halo_lo, part_.subs[s].halo_hi);
    if (can_overlap()) mode_ = "overlap";
    else mode_ = cuda == 1 && comm_->size() == 1 ? "threads" : "events";
    if (const std::optional<std::string> m = DistributedTuning::from_environment().halo_mode) set_mode(*m);
    choose_pairs();
    slice_.normal_axis = 2;
    slice_.index = global_->nz / 2;
}

DistributedEngine::~DistributedEngine() {
    // Engines and the exchange release device resources on their own device.
    halo_.reset();
    for (std::size_t s = 0; s < engines_.size(); ++s) {
        if (!engines_[s]) continue;
        try {
            select(s);
        } catch (...) {
        }
        engines_[s].reset();
    }
}

void DistributedEngine::select(std::size_t s) const {
    if (devices_[s].cuda && engines_[s]) cuda_select_device(devices_[s].ordinal);
}

Engine* DistributedEngine::whole() const {
    if (engines_.size() != 1) return nullptr;
    select(0);  // a rank owns at least one subdomain: with one, it is local
    return engines_[0].get();
}

std::vector<double> DistributedEngine::gather_owned(
    std::size_t plane, const std::function<void(std::size_t, std::vector<double>&)>& read) const {
    std::vector<double> out(std::size_t(part_.global_n) * plane, 0.0);
    std::vector<double> local;
    for_each_local([&](std::size_t s) {
        read(s, local);
        const Subdomain& sd = part_.subs[s];
        std::copy_n(local.begin() + std::ptrdiff_t(std::size_t(sd.halo_lo) * plane),
                    std::size_t(sd.owned_hi - sd.owned_lo) * plane,
                    out.begin() + std::ptrdiff_t(std::size_t(sd.owned_lo) * plane));
    });
    comm_->sum(out);  // each plane has one owner: the other ranks add zeros
    return out;
}

Engine& DistributedEngine::first_local() const {
    for (const auto& e : engines_)
        if (e) return *e;
    throw std::logic_error("distributed engine: no subdomain in this process");
}

std::string DistributedEngine::local_device_label(std::size_t s) const {
    std::string label = engines_[s]->device();
    if (devices_[s].cuda) label += " (device " + std::to_string(devices_[s].ordinal) + ")";
    if (!devices_[s].host.empty()) label += " on " + devices_[s].host;
    return label;
}

void DistributedEngine::allow_row_padding(Partition& p) const {
    // CUDA engines pad rows to 32 cells (cuda_common.cuh padded_scene_view): without it an
    // nx that is not a multiple of 32 costs a quarter of the speed (H200, 407 x 407 x 206
    // float32: 35.0 against 26.6 Gcells/s). Only when no subdomain is a CPU engine, whose
    // planes would then have another layout.
    const bool all_cuda =
        std::all_of(devices_.begin(), devices_.end(), [](const SubdomainDevice& d) { return d.cuda; });
    for (Subdomain& s : p.subs) s.scene.window.row_padding = all_cuda && s.scene.window.active;
}

void DistributedEngine::build_engines(const HaloExchangeFactory& halo) {
    const std::size_t n = part_.subs.size();
    const int me = comm_->rank();
    engines_.resize(n);
    parts_.assign(n, nullptr);
    sub_scenes_.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        if (devices_[s].rank != me) {
            part_.subs[s].scene = Scene();  // another process steps it
            continue;
        }
        auto sc = std::make_shared<const Scene>(std::move(part_.subs[s].scene));
        part_.subs[s].scene = Scene();  // the engines' views are the one copy
        sub_scenes_[s] = sc;
        try {
            if (devices_[s].cuda)
                engines_[s] = make_cuda_engine(sc, precision_, devices_[s].ordinal);
            else
                engines_[s] = make_cpu_engine(sc, precision_, devices_[s].threads);
        } catch (const OutOfMemoryError& e) {
            throw OutOfMemoryError("subdomain " + std::to_string(s) + " of " + std::to_string(n) + ": " + e.what(),
                                   e.bytes_needed, e.bytes_available);
        } catch (const RunError& e) {
            throw RunError("subdomain " + std::to_string(s) + " of " + std::to_string(n) + ": " + e.what());
        }
        parts_[s] = engines_[s]->subdomain();
        if (!parts_[s])
            throw RunError("subdomain " + std::to_string(s) + " of " + std::to_string(n) + ": the " +
                           engines_[s]->backend() + " engine cannot run as a subdomain");
    }
    // Every rank's device labels, one line "s<TAB>label" per local subdomain.
    std::string mine;
    for (std::size_t s = 0; s < n; ++s)
        if (engines_[s]) mine += std::to_string(s) + '\t' + local_device_label(s) + '\n';
    device_labels_.assign(n, std::string());
    for (const std::string& text : comm_->gather(mine)) {
        std::istringstream in(text);
        std::string line;
        while (std::getline(in, line)) {
            const std::size_t tab = line.find('\t');
            if (tab == std::string::npos) continue;
            const std::size_t s = std::size_t(std::stoul(line.substr(0, tab)));
            if (s < n) device_labels_[s] = line.substr(tab + 1);
        }
    }
    if (n > 1) halo_ = halo(parts_);
}

std::string DistributedEngine::backend() const { return first_local().backend(); }

std::vector<HaloTransfer> pair_halo_transfers(const Partition& p) {
    std::vector<HaloTransfer> out;
    for (HaloTransfer t : p.transfers) {
        if (t.planes != p.halo - 1)
            throw std::logic_error("pair_halo_transfers: a transfer of " + std::to_string(t.planes) +
                                   " planes, not halo - 1 = " + std::to_string(p.halo - 1));
        // Into an upper halo (to_plane > 0: past the owned planes) the innermost halo plane
        // comes too, from the neighbour's first owned plane; into a lower halo (to_plane 0)
        // the planes just run one further.
        if (t.to_plane != 0) --t.from_plane, --t.to_plane;
        t.planes = p.halo;
        out.push_back(t);
    }
    return out;
}

std::string pair_state_refusal(const Scene& g, const Partition& p, bool psi_travels) {
    const int a = p.axis;
    const int dims = g.dimensions == 3 ? 3 : 2;
    psi_travels = psi_travels && dims == 3 && a == 2 && !g.complex_fields;
    for (int d = 0; d < dims; ++d) {
        if (d == a) continue;
        const std::string axis(1, "xyz"[d]);
        if ((g.pml_lo[d] > 0 || g.pml_hi[d] > 0) && !psi_travels)
            return "the " + axis + " PML puts CPML state (psi) on every halo plane, which the exchange does not move";
        if (g.boundary[d] == BoundaryKind::Mur)
            return "the Mur faces of " + axis + " keep state on every halo plane, which the exchange does not move";
    }
    const std::int64_t N = p.global_n;
    std::vector<char> halo(std::size_t(std::max<std::int64_t>(N, 0)), 0);
    for (const Subdomain& sd : p.subs) {
        for (std::int64_t k = sd.owned_lo - sd.halo_lo; k < sd.owned_lo; ++k) halo[std::size_t((k % N + N) % N)] = 1;
        for (std::int64_t k = sd.owned_hi; k < sd.owned_hi + sd.halo_hi; ++k) halo[std::size_t((k % N + N) % N)] = 1;
    }
    const std::string cut(1, "xyz"[a]);
    for (std::int64_t k = 0; k < N; ++k)
        if (halo[std::size_t(k)] && (k < g.pml_lo[a] || k >= N - g.pml_hi[a]))
            return "a halo plane lies in the " + cut + " PML (CPML state, which the exchange does not move)";
    const std::size_t plane = N > 0 ? g.cells() / std::size_t(N) : 1;
    for (int c = 0; c < 3; ++c)
        for (const CellIndex cell : g.dispersive[c].cells)
            if (halo[std::size_t(cell) / plane])
                return "dispersive cells lie on a halo plane (pole state, which the exchange does not move)";
    return "";
}

void DistributedEngine::choose_pairs() {
    const DistributedTuning tune = DistributedTuning::from_environment();
    const KnobSwitch knob = tune.two_step;
    std::string why;
    if (knob == KnobSwitch::Off)
        why = "GOLIGHTLY_DIST_TWO_STEP=0";
    else if (halo_ && !pair_halo_suffices(part_))
        why = "the halos are " + std::to_string(part_.halo) + " planes deep (sub-pixel tensor couplings) and two steps "
              "between exchanges spoil " + std::to_string(2 * (part_.halo - 1));
    else if (halo_)
        why = pair_state_refusal(*global_, part_, halo_->moves_psi());
    if (knob == KnobSwitch::On && !why.empty())
        throw RunError("distributed engine: GOLIGHTLY_DIST_TWO_STEP=1, but " + why);
    // Every subdomain engine must run two steps per pass (unless forced); collective, so
    // that every rank steps alike.
    std::string local;
    for (std::size_t s = 0; s < parts_.size() && local.empty(); ++s) {
        if (!parts_[s]) continue;
        const std::string r = parts_[s]->pair_step_refusal();
        if (!r.empty()) local = "subdomain " + std::to_string(s) + ": " + r;
    }
    const bool everywhere = comm_->all(local.empty());
    if (why.empty() && knob != KnobSwitch::On && !everywhere)
        why = local.empty() ? std::string("a subdomain of another process steps one step per pass") : local;
    pairs_ = why.empty();
    pair_why_ = why;
    if (!pairs_)
        for_each_local([&](std::size_t s) { parts_[s]->drop_pair_steps(why); });
    pair_transfers_ = pairs_ && halo_ ? pair_halo_transfers(part_) : std::vector<HaloTransfer>{};
}

namespace {
/// HaloExchange::with_psi on for one scope (the pairs' exchanges), off again also on a throw.
struct WithPsi {
    HaloExchange& h;
    explicit WithPsi(HaloExchange& x) : h(x) { h.with_psi = h.moves_psi(); }
    ~WithPsi() { h.with_psi = false; }
};
}  // namespace

std::string DistributedEngine::kernel() const {
    // An engine that names no bulk kernel (the CPU engines) keeps it so (summary.json has
    // no "kernel" then); pair_refusal() still says how it steps.
    const std::string k = first_local().kernel();
    if (!halo_ || k.empty()) return k;
    if (pairs_) return k + ", halo exchange every second step (" + std::to_string(part_.halo) + " planes)";
    return k + ", halo exchange every step (" + mode_ + "); two steps per pass: " + pair_why_;
}

std::string DistributedEngine::device() const {
    std::ostringstream os;
    os << engines_.size() << " subdomains: ";
    for (std::size_t s = 0; s < device_labels_.size(); ++s) {
        if (s) os << "; ";
        os << device_labels_[s];
    }
    return os.str();
}

void HaloExchange::exchange_into(int to, const std::vector<HaloTransfer>& transfers,
                                 const std::vector<SubdomainAccess*>& engines) {
    std::vector<HaloTransfer> mine;
    for (const HaloTransfer& t : transfers)
        if (t.to == to) mine.push_back(t);
    exchange(mine, engines);
    wait();
}

bool DistributedEngine::can_overlap() const {
    bool all = true;
    for (const SubdomainAccess* p : parts_)
        if (p && !p->supports_split_step()) all = false;
    return comm_->all(all);  // collective: every rank takes the same mode
}

void DistributedEngine::set_mode(const std::string& v) {
    if (v != "overlap" && v != "threads" && v != "events" && v != "sync")
        throw RunError("distributed engine: the halo mode (GOLIGHTLY_HALO_MODE) must be overlap, threads, events or "
                       "sync, not '" + v + "'");
    if (v != "events" && v != "overlap" && comm_->size() > 1)
        throw RunError("distributed engine: across processes the halo mode is overlap or events, not '" + v + "'");
    if (v == "overlap" && !can_overlap())
        throw RunError("distributed engine: halo mode 'overlap' needs engines that split their steps (the 3D CUDA "
                       "engine with its fused kernel)");
    mode_ = v;
}

// One step per iteration: every engine's step_begin (phase before the bulk), the transfers
// started, every engine's interior update queued while they run, the engines' streams made
// to wait for them, then every engine's end planes and the rest of its step (engine.hpp
// "Split time step"). After the last step the plain exchange fills the halos, as in the
// other modes, so that between step() calls every halo equals its neighbour's planes.
void DistributedEngine::step_overlap(int n_steps) {
    const std::vector<SubdomainAccess*>& eng = parts_;
    for (int k = 0; k < n_steps; ++k) {
        for_each_local([&](std::size_t s) { eng[s]->step_begin(); });
        if (exchange_on_) halo_->start(part_.transfers, eng);
        for_each_local([&](std::size_t s) { eng[s]->step_interior(); });
        if (exchange_on_) halo_->finish(part_.transfers, eng);
        for_each_local([&](std::size_t s) { eng[s]->step_boundary(); });
    }
    if (exchange_on_) halo_->exchange(part_.transfers, eng);
    select(0);
}

void DistributedEngine::step(int n_steps) {
    if (n_steps <= 0) return;
    if (!halo_) {  // one subdomain: its engine steps as it would alone
        for_each_local([&](std::size_t s) { engines_[s]->step(n_steps); });
        return;
    }
    const int pairs = pairs_ ? n_steps / 2 : 0;
    if (pairs > 0) step_pairs(pairs);
    if (n_steps > 2 * pairs) step_single(n_steps - 2 * pairs);
}

// Pairs: every engine's step(2) (two steps per pass), then every halo plane exchanged
// (pair_halo_transfers); the exchange is not overlapped with the steps (distributed.hpp).
void DistributedEngine::step_pairs(int n_pairs) {
    const WithPsi psi(*halo_);  // the x and y slabs' CPML psi of the halo planes travel too
    if (mode_ == "threads") {
        step_threads(n_pairs, 2, pair_transfers_);
        return;
    }
    for (int k = 0; k < n_pairs; ++k) {
        for_each_local([&](std::size_t s) { engines_[s]->step(2); });
        if (!exchange_on_) continue;
        if (mode_ == "sync") {
            synchronize();
            for (std::size_t s = 0; s < engines_.size(); ++s) halo_->exchange_into(int(s), pair_transfers_, parts_);
        } else {
            halo_->exchange(pair_transfers_, parts_);
        }
    }
    select(0);
}

void DistributedEngine::step_single(int n_steps) {
    if (mode_ == "overlap") {
        step_overlap(n_steps);
        return;
    }
    if (mode_ == "threads") {
        step_threads(n_steps, 1, part_.transfers);
        return;
    }
    for (int k = 0; k < n_steps; ++k) {
        for_each_local([&](std::size_t s) { engines_[s]->step(1); });
        if (!halo_ || !exchange_on_) continue;
        if (mode_ == "sync") {
            synchronize();
            for (std::size_t s = 0; s < engines_.size(); ++s) halo_->exchange_into(int(s), part_.transfers, parts_);
        } else {
            halo_->exchange(part_.transfers, parts_);
        }
    }
}

void DistributedEngine::step_threads(int n_exchanges, int steps_per_exchange, const std::vector<HaloTransfer>& transfers) {
    const std::ptrdiff_t n = std::ptrdiff_t(engines_.size());
    std::barrier<> sync(n);
    std::mutex m;
    std::exception_ptr error;
    std::atomic<bool> failed{false};
    const std::vector<SubdomainAccess*>& parts = parts_;
    // A worker that leaves (done, or after an error anywhere) drops out of the barrier, so
    // the others never wait for it.
    // Diagnosis knobs (tuning.hpp), read once per process as they always were.
    static const DistributedTuning diag = DistributedTuning::from_environment();
    static const bool profile = diag.profile;
    static const bool no_copy = diag.no_copy;  // diagnosis only: wrong fields
    auto worker = [&](std::size_t s) {
        double t_step = 0, t_wait = 0, t_bar = 0, t_xchg = 0;
        try {
            select(s);
            for (int k = 0; k < n_exchanges && !failed; ++k) {
                double t0 = profile ? seconds_now() : 0;
                engines_[s]->step(steps_per_exchange);
                if (profile) t_step += seconds_now() - t0;
                if (!exchange_on_) continue;
                if (profile) t0 = seconds_now();
                engines_[s]->synchronize();
                if (profile) t_wait += seconds_now() - t0, t0 = seconds_now();
                sync.arrive_and_wait();  // every subdomain has finished step k
                if (profile) t_bar += seconds_now() - t0, t0 = seconds_now();
                if (failed) break;
                if (!no_copy) halo_->exchange_into(int(s), transfers, parts);
                if (profile) t_xchg += seconds_now() - t0, t0 = seconds_now();
                sync.arrive_and_wait();  // every halo is filled before anyone steps on
                if (profile) t_bar += seconds_now() - t0;
            }
            if (!exchange_on_) engines_[s]->synchronize();
            const int steps = n_exchanges * steps_per_exchange;
            if (profile && steps > 8)
                std::fprintf(stderr, "dist profile: sub %zu, %d steps, per step ms: enqueue %.3f wait %.3f barrier %.3f copy %.3f\n",
                             s, steps, 1e3 * t_step / steps, 1e3 * t_wait / steps, 1e3 * t_bar / steps,
                             1e3 * t_xchg / steps);
        } catch (...) {
            std::lock_guard<std::mutex> lock(m);
            if (!error) error = std::current_exception();
            failed = true;
        }
        sync.arrive_and_drop();
    };
    std::vector<std::thread> threads;
    for (std::size_t s = 1; s < engines_.size(); ++s) threads.emplace_back(worker, s);
    worker(0);
    for (std::thread& t : threads) t.join();
    select(0);
    if (error) std::rethrow_exception(error);
}

std::int64_t DistributedEngine::steps_done() const { return first_local().steps_done(); }

void DistributedEngine::synchronize() {
    for_each_local([&](std::size_t s) { engines_[s]->synchronize(); });
}

double DistributedEngine::exchange_bytes() const {
    if (!halo_) return 0;
    if (!pairs_) return transfer_bytes(part_.transfers);
    // the pairs' exchange also carries the x and y slabs' CPML psi of its planes
    double psi_plane_bytes = 0;
    const FieldStorage fs = first_local().subdomain()->field_storage();
    for (int c = 0; c < 6 && halo_->moves_psi(); ++c)
        for (int a = 0; a < 2; ++a)
            if (fs.psi[c][a]) psi_plane_bytes += double(fs.psi_plane_bytes[c][a]);
    double psi = 0;
    for (const HaloTransfer& t : pair_transfers_) psi += double(t.planes) * psi_plane_bytes;
    return (transfer_bytes(pair_transfers_) + psi) / 2;
}

double DistributedEngine::transfer_bytes(const std::vector<HaloTransfer>& transfers) const {
    double bytes = 0;
    const std::int64_t plane = std::int64_t(global_->cells()) /
                               (part_.axis == 2 ? global_->nz : part_.axis == 1 ? global_->ny : global_->nx);
    int comps = 0;
    const FieldStorage fs = first_local().subdomain()->field_storage();
    for (int c = 0; c < FieldStorage::kArrays; ++c) comps += fs.field[c] ? 1 : 0;
    for (const HaloTransfer& t : transfers) bytes += double(t.planes) * double(plane) * comps * fs.element_bytes;
    return bytes;
}

double DistributedEngine::bytes_per_cell_update() const {
    double total = 0;
    for_each_local([&](std::size_t s) {
        total += engines_[s]->bytes_per_cell_update() * double(sub_scenes_[s]->cells());
    });
    total = comm_->sum(total);
    total += exchange_bytes();
    return total / double(global_->cells());
}

double DistributedEngine::field_energy() {
    double total = 0;
    const int dims = global_->dimensions == 3 ? 3 : 2;
    const double dx = global_->dx_um * units::um;
    const double scale = 0.5 * units::eps0 * std::pow(dx, dims);
    for_each_local([&](std::size_t s) {
        total += engines_[s]->field_energy();
        if (engines_.size() == 1) return;
        // Subtract the halo planes: after the exchange they duplicate a neighbour's owned planes.
        const Subdomain& sd = part_.subs[s];
        const Scene& sc = *sub_scenes_[s];
        const std::int64_t nl = sd.n_local();
        const std::int64_t plane = std::int64_t(sc.cells()) / nl;
        SubdomainAccess& part = *parts_[s];
        const FieldStorage fs = part.field_storage();
        const std::pair<std::int64_t, std::int64_t> ranges[2] = {{0, sd.halo_lo}, {nl - sd.halo_hi, sd.halo_hi}};
        double halo_sum = 0;
        std::vector<double> v;
        for (const auto& [first, count] : ranges) {
            if (count <= 0) continue;
            for (int c = 0; c < FieldStorage::kArrays; ++c) {  // complex fields: |F|^2 = F_re^2 + F_im^2
                if (!fs.field[c]) continue;
                part.read_planes(c, first, count, v);
                if (c % 6 < 3) {
                    // read_planes gives the storage layout: rows of fs.n[0] >= sc.nx values (CUDA
                    // engines pad rows, window.row_padding; the padding columns hold 0).
                    const auto& map = sc.material_index[c % 6];
                    const std::int64_t snx = fs.n[0];
                    for (std::size_t k = 0; k < v.size(); ++k) {
                        const std::int64_t i = std::int64_t(k) % snx, row = std::int64_t(k) / snx;
                        if (i >= sc.nx) continue;
                        const std::size_t cell = std::size_t(first * plane + row * sc.nx + i);
                        const double eps = cell < map.size() ? sc.table[map[cell]].eps_r : 1.0;
                        halo_sum += eps * v[k] * v[k];
                    }
                } else {
                    for (double h : v) halo_sum += h * h;
                }
            }
        }
        total -= scale * halo_sum;
    });
    return comm_->sum(total);
}

bool DistributedEngine::fields_finite() {
    bool ok = true;
    for_each_local([&](std::size_t s) { ok = engines_[s]->fields_finite() && ok; });
    return comm_->all(ok);
}

void DistributedEngine::get_field(Component c, std::vector<double>& out) {
    if (Engine* e = whole()) return e->get_field(c, out);
    out = gather_owned(global_->cells() / std::size_t(part_.global_n),
                       [&](std::size_t s, std::vector<double>& local) { engines_[s]->get_field(c, local); });
}

void DistributedEngine::set_field(Component c, const std::vector<double>& values) {
    if (values.size() != global_->cells())
        throw std::invalid_argument(std::string("set_field: ") + component_name(c) + " needs " +
                                    std::to_string(global_->cells()) + " values, got " +
                                    std::to_string(values.size()));
    if (Engine* e = whole()) return e->set_field(c, values);
    const std::int64_t N = part_.global_n;
    const std::int64_t plane = std::int64_t(global_->cells()) / N;
    for_each_local([&](std::size_t s) {
        const Subdomain& sd = part_.subs[s];
        const std::int64_t nl = sd.n_local(), origin = sd.owned_lo - sd.halo_lo;
        std::vector<double> local(std::size_t(nl * plane));
        for (std::int64_t p = 0; p < nl; ++p) {
            const std::int64_t g = ((origin + p) % N + N) % N;
            std::copy_n(values.begin() + g * plane, plane, local.begin() + p * plane);
        }
        engines_[s]->set_field(c, local);
    });
    // The wrap halos hold the global values unrotated: take the whole wrap halos from the
    // neighbour (owned planes, both copies) with their phase.
    if (!halo_) return;
    std::vector<HaloTransfer> wrap;
    const std::size_t last = part_.subs.size() - 1;
    for (const HaloTransfer& t : part_.transfers) {
        if (t.phase == 0) continue;
        const Subdomain& from = part_.subs[std::size_t(t.from)];
        const Subdomain& to = part_.subs[std::size_t(t.to)];
        const int h = part_.halo;
        if (std::size_t(t.to) == 0)  // from the last one's top owned planes into the lower halo
            wrap.push_back({t.from, t.to, from.halo_lo + (from.owned_hi - from.owned_lo) - h, 0, h, t.phase});
        else if (std::size_t(t.to) == last)  // from the first one's bottom owned planes into the upper halo
            wrap.push_back({t.from, t.to, from.halo_lo, to.n_local() - h, h, t.phase});
    }
    if (wrap.empty()) return;
    halo_->exchange(wrap, parts_);
    halo_->wait();
}

std::vector<std::complex<double>> DistributedEngine::dft(int set) {
    if (Engine* e = whole()) return e->dft(set);
    if (set < 0 || std::size_t(set) >= global_->dft_sets.size())
        throw std::out_of_range("dft: no DFT set " + std::to_string(set));
    const std::size_t nf = global_->dft_sets[std::size_t(set)].frequencies_hz.size();
    std::vector<std::complex<double>> out(std::size_t(part_.dft_set_samples[std::size_t(set)]) * nf);
    for_each_local([&](std::size_t s) {
        const auto& ids = part_.subs[s].dft_samples[std::size_t(set)];
        if (ids.empty()) return;
        const auto local = engines_[s]->dft(set);
        for (std::size_t k = 0; k < ids.size(); ++k)
            std::copy_n(local.begin() + std::ptrdiff_t(k * nf), nf, out.begin() + std::ptrdiff_t(std::size_t(ids[k]) * nf));
    });
    // Each sample has one owner: the sum over ranks adds exact zeros (complex<double> is two
    // doubles, [complex.numbers.general]).
    comm_->sum(reinterpret_cast<double*>(out.data()), 2 * out.size());
    return out;
}

bool DistributedEngine::dft_on_root(const std::vector<int>& sets, const std::vector<std::size_t>& freqs, int root,
                                    std::vector<std::vector<std::complex<double>>>& out) {
    out.clear();
    if (Engine* e = whole()) return golightly::dft_on_root(*e, *global_, sets, freqs, out, root);
    const std::size_t nq = freqs.size(), record = 2 + 2 * nq;
    // (set slot, global sample, re and im at each of freqs) for every sample owned here;
    // slots and samples are below 2^53, so doubles carry them exactly
    std::vector<double> mine;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const std::size_t set = std::size_t(sets[i]);
        const std::size_t nf = global_->dft_sets.at(set).frequencies_hz.size();
        for_each_local([&](std::size_t s) {
            const auto& ids = part_.subs[s].dft_samples[set];
            if (ids.empty()) return;
            const auto local = engines_[s]->dft(int(set));
            for (std::size_t k = 0; k < ids.size(); ++k) {
                mine.push_back(double(i));
                mine.push_back(double(ids[k]));
                for (std::size_t q : freqs) {
                    mine.push_back(local[k * nf + q].real());
                    mine.push_back(local[k * nf + q].imag());
                }
            }
        });
    }
    const std::vector<double> all = comm_->gather_to(mine, root);
    if (comm_->rank() != root) return false;
    out.resize(sets.size());
    for (std::size_t i = 0; i < sets.size(); ++i)
        out[i].assign(std::size_t(part_.dft_set_samples[std::size_t(sets[i])]) * nq, {});
    if (all.size() % record != 0)
        throw RunError("dft_on_root: gathered " + std::to_string(all.size()) + " values, not whole records of " +
                       std::to_string(record));
    for (std::size_t p = 0; p < all.size(); p += record) {
        const std::size_t i = std::size_t(all[p]), k = std::size_t(all[p + 1]);
        for (std::size_t q = 0; q < nq; ++q) out[i].at(k * nq + q) = {all[p + 2 + 2 * q], all[p + 3 + 2 * q]};
    }
    return true;
}

std::vector<double> DistributedEngine::time_samples(int probe) {
    if (Engine* e = whole()) return e->time_samples(probe);
    if (probe < 0 || std::size_t(probe) >= part_.probe_reduce.size())
        throw std::out_of_range("time_samples: no time probe " + std::to_string(probe));
    std::vector<double> sum;
    for_each_local([&](std::size_t s) {
        const auto v = engines_[s]->time_samples(probe);
        if (sum.empty()) sum.assign(v.size(), 0.0);
        for (std::size_t k = 0; k < std::min(v.size(), sum.size()); ++k) sum[k] += v[k];
    });
    comm_->sum(sum);  // every rank has stepped as often: one sample per step
    if (part_.probe_reduce[std::size_t(probe)] == Reduce::Rms)
        for (double& x : sum) x = std::sqrt(std::max(0.0, x));
    return sum;
}

void DistributedEngine::set_frame_slice(const FrameSlice& slice) {
    if (slice.normal_axis < 0 || slice.normal_axis > 2)
        throw std::invalid_argument("set_frame_slice: normal_axis must be 0, 1 or 2, got " +
                                    std::to_string(slice.normal_axis));
    const std::int64_t n[3] = {global_->nx, global_->ny, global_->nz};
    slice_ = slice;
    slice_.index = std::clamp<std::int64_t>(slice.index, 0, n[slice.normal_axis] - 1);
    // Right for slices along the cut axis; sample_field re-sets it otherwise.
    for_each_local([&](std::size_t s) { engines_[s]->frames().set_frame_slice(slice_); });
}

FieldSamples DistributedEngine::sample_field(Component c, int max_width, int max_height, bool squared) {
    if (Engine* e = whole()) {
        e->frames().set_frame_slice(slice_);
        return e->frames().sample_field(c, max_width, max_height, squared);
    }
    const bool three = global_->dimensions == 3;
    const int a = part_.axis;
    if (three && slice_.normal_axis == a) {  // the slice lies in one subdomain: its rank samples it
        for (std::size_t s = 0; s < engines_.size(); ++s) {
            const Subdomain& sd = part_.subs[s];
            if (slice_.index < sd.owned_lo || slice_.index >= sd.owned_hi) continue;
            std::vector<double> packed;  // width, height, factor, values
            if (engines_[s]) {
                FrameSlice local = slice_;
                local.index = slice_.index - sd.owned_lo + sd.halo_lo;
                select(s);
                FrameSource& frames = engines_[s]->frames();
                frames.set_frame_slice(local);
                FieldSamples r = frames.sample_field(c, max_width, max_height, squared);
                if (comm_->size() == 1) return r;
                packed = {double(r.width), double(r.height), double(r.factor)};
                packed.insert(packed.end(), r.values.begin(), r.values.end());
            }
            comm_->broadcast(packed, devices_[s].rank);
            if (packed.size() < 3) throw RunError("distributed engine: no field samples from subdomain " + std::to_string(s));
            FieldSamples r;
            r.width = int(packed[0]);
            r.height = int(packed[1]);
            r.factor = int(packed[2]);
            r.values.assign(packed.begin() + 3, packed.end());  // floats, exact as doubles
            return r;
        }
    }
    // The plane contains the cut axis as its rows (3D xz / yz, 2D xy): the owned rows of
    // every subdomain at full resolution (gather_owned, a row per plane of the cut axis),
    // then the box averages of frame_source.hpp.
    const int u = three ? (slice_.normal_axis == 0 ? 1 : 0) : 0;
    const std::int64_t n[3] = {global_->nx, global_->ny, global_->nz};
    const int W0 = int(n[u]), H0 = int(part_.global_n);
    const std::vector<double> plane =
        gather_owned(std::size_t(W0), [&](std::size_t s, std::vector<double>& local) {
            const int rows = int(part_.subs[s].n_local());
            FrameSource& frames = engines_[s]->frames();
            frames.set_frame_slice(slice_);
            const FieldSamples part = frames.sample_field(c, W0, rows, false);
            if (part.factor != 1 || part.width != W0 || part.height != rows)
                throw RunError("distributed engine: subdomain " + std::to_string(s) + " sampled its slice at factor " +
                               std::to_string(part.factor));
            local.assign(part.values.begin(), part.values.end());  // floats, exact as doubles
        });
    FieldSamples out = cpu::box_samples(W0, H0, max_width, max_height);
    cpu::box_average(plane.data(), W0, H0, out.factor, squared, out.values.data());
    return out;
}

Image8 DistributedEngine::frame(const FrameRequest& req) {
    if (Engine* e = whole()) {
        e->frames().set_frame_slice(slice_);
        return e->frames().frame(req);
    }
    const FieldSamples s = sample_field(req.component, req.max_width, req.max_height, false);
    return cpu::diverging_frame(s.values, s.width, s.height, req.scale, req.viewport_alpha);
}

void DistributedEngine::update_materials(SceneView edited) {
    check_material_update(*global_, *edited);
    Partition p = repartition_like(part_, *edited);
    allow_row_padding(p);
    // Check every subdomain of this process before touching any engine.
    for_each_local([&](std::size_t s) { check_material_update(*sub_scenes_[s], p.subs[s].scene); });
    for_each_local([&](std::size_t s) {
        auto sc = std::make_shared<const Scene>(std::move(p.subs[s].scene));
        engines_[s]->update_materials(sc);
        sub_scenes_[s] = sc;
    });
    global_ = std::move(edited);
}

std::vector<SubdomainInfo> DistributedEngine::subdomains() const {
    std::vector<SubdomainInfo> out;
    const std::int64_t n[3] = {global_->nx, global_->ny, global_->nz};
    for (std::size_t s = 0; s < engines_.size(); ++s) {
        SubdomainInfo i;
        i.rank = int(s);
        i.device = device_labels_.at(s);
        for (int d = 0; d < 3; ++d) {
            i.min_cell[d] = 0;
            i.max_cell[d] = n[d] - 1;
        }
        i.min_cell[part_.axis] = part_.subs[s].owned_lo;
        i.max_cell[part_.axis] = part_.subs[s].owned_hi - 1;
        out.push_back(i);
    }
    return out;
}

double DistributedEngine::time_exchange(int reps) {
    if (!halo_) return 0;
    synchronize();
    std::vector<double> t;
    const std::vector<HaloTransfer>& transfers = pairs_ ? pair_transfers_ : part_.transfers;
    std::optional<WithPsi> psi;
    if (pairs_) psi.emplace(*halo_);
    for (int r = 0; r < std::max(1, reps); ++r) {
        const double t0 = seconds_now();
        halo_->exchange(transfers, parts_);
        halo_->wait();
        t.push_back(seconds_now() - t0);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2] / (pairs_ ? 2.0 : 1.0);
}

std::unique_ptr<Engine> make_distributed_engine(SceneView global, Precision precision,
                                                const std::vector<SubdomainDevice>& devices) {
    return std::make_unique<DistributedEngine>(std::move(global), precision, devices);
}

std::unique_ptr<Engine> make_distributed_engine(SceneView global, Precision precision, DistributedSetup setup) {
    return std::make_unique<DistributedEngine>(std::move(global), precision, std::move(setup));
}

}  // namespace golightly
