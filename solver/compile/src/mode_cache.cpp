// GoLightly: the cache of cross-section mode solves (mode_cache.hpp).
#include "golightly/mode_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <list>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"

#ifndef GOLIGHTLY_MODE_SOLVER_REVISION
#error "GOLIGHTLY_MODE_SOLVER_REVISION (solver/CMakeLists.txt) is not defined"
#endif

namespace golightly {

namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'G', 'L', 'M', 'O', 'D', 'E', 'S', '\0'};
// format 2: the solver revision is 16 hex digits (a hash of the solver's sources), not an int;
// format 3: each mode also holds pml_energy_fraction, bend_loss_resolved and outer_window_um
constexpr std::uint32_t kFileFormat = 3;
constexpr char kRevision[] = GOLIGHTLY_MODE_SOLVER_REVISION;
static_assert(sizeof kRevision == 17, "the mode solver revision is 16 hex digits");
constexpr std::uint64_t kMaxFileBytes = std::uint64_t(4) << 30;

/// Two independent 64-bit hashes over the same bytes: FNV-1a and a multiply-rotate lane
/// (different constants and mixing), 128 bits in all, so that a collision needs both.
struct Hasher {
    std::uint64_t a = 0xcbf29ce484222325ull, b = 0x9e3779b97f4a7c15ull;
    std::uint64_t n = 0;
    void bytes(const void* p, std::size_t len) {
        const auto* c = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < len; ++i) {
            a = (a ^ c[i]) * 0x100000001b3ull;
            b = ((b ^ c[i]) * 0xff51afd7ed558ccdull);
            b = (b << 29) | (b >> 35);
        }
        n += len;
    }
    template <class T> void value(const T& v) { bytes(&v, sizeof v); }
    void doubles(const std::vector<double>& v) {
        value(std::uint64_t(v.size()));
        if (!v.empty()) bytes(v.data(), v.size() * sizeof(double));
    }
    std::string hex() const {
        auto fin = [](std::uint64_t x) {  // splitmix64 finalizer
            x ^= x >> 30;
            x *= 0xbf58476d1ce4e5b9ull;
            x ^= x >> 27;
            x *= 0x94d049bb133111ebull;
            x ^= x >> 31;
            return x;
        };
        char buf[40];
        std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)fin(a ^ n),
                      (unsigned long long)fin(b + 0x632be59bd9b4e019ull * n));
        return buf;
    }
};

std::uint64_t fnv1a(const char* p, std::size_t len) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < len; ++i) h = (h ^ static_cast<unsigned char>(p[i])) * 0x100000001b3ull;
    return h;
}

using ModesPtr = std::shared_ptr<const std::vector<VectorMode>>;

std::size_t modes_bytes(const std::vector<VectorMode>& ms) {
    std::size_t b = sizeof(ms);
    for (const auto& m : ms) {
        b += sizeof(VectorMode);
        for (int d = 0; d < 3; ++d) b += (m.e[d].size() + m.h[d].size()) * sizeof(std::complex<double>);
    }
    return b;
}

struct Entry {
    ModesPtr modes;
    std::size_t bytes = 0;
    std::list<std::string>::iterator lru;
};

struct State {
    std::mutex mu;
    ModeCacheSettings settings;
    std::unordered_map<std::string, Entry> map;
    std::list<std::string> lru;  // front: most recently used
    std::size_t bytes = 0;
    std::unordered_map<std::string, std::shared_future<ModesPtr>> inflight;
    ModeCacheStats stats;
    bool warned_write = false;
    State() {
        const char* s = std::getenv("GOLIGHTLY_MODE_CACHE_STATS");
        if (s && *s && std::string(s) != "0") std::atexit(print_stats);
    }
    static void print_stats();
};

State& state() {
    static State s;
    return s;
}

void State::print_stats() {
    const ModeCacheStats st = mode_cache_stats();
    std::fprintf(stderr,
                 "golightly: mode cache: %ld solves (%.3f s), %ld from memory, %ld from disk, %ld written, %ld "
                 "rejected\n",
                 st.solves, st.solve_seconds, st.session_hits, st.disk_hits, st.disk_writes, st.disk_rejected);
}

void evict_locked(State& s) {
    while (s.bytes > s.settings.session_bytes && !s.lru.empty()) {
        const std::string k = s.lru.back();
        s.lru.pop_back();
        auto it = s.map.find(k);
        if (it != s.map.end()) {
            s.bytes -= it->second.bytes;
            s.map.erase(it);
        }
    }
}

// ---- the file format: little helpers over a byte buffer
struct Writer {
    std::string buf;
    template <class T> void value(const T& v) { buf.append(reinterpret_cast<const char*>(&v), sizeof v); }
    void cvec(const std::vector<std::complex<double>>& v) {
        value(std::uint64_t(v.size()));
        if (!v.empty()) buf.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(std::complex<double>));
    }
};

struct Reader {
    const std::string& buf;
    std::size_t pos = 0;
    bool ok = true;
    template <class T> T value() {
        T v{};
        if (pos + sizeof v > buf.size()) {
            ok = false;
            return v;
        }
        std::memcpy(&v, buf.data() + pos, sizeof v);
        pos += sizeof v;
        return v;
    }
    std::vector<std::complex<double>> cvec(std::size_t expected) {
        const auto n = value<std::uint64_t>();
        if (!ok || n != expected || pos + n * sizeof(std::complex<double>) > buf.size()) {
            ok = false;
            return {};
        }
        std::vector<std::complex<double>> v(n);
        if (n) std::memcpy(v.data(), buf.data() + pos, n * sizeof(std::complex<double>));
        pos += n * sizeof(std::complex<double>);
        return v;
    }
};

std::size_t shape_count(const std::array<int, 2>& s) { return std::size_t(std::max(s[0], 0)) * std::size_t(std::max(s[1], 0)); }

}  // namespace

void set_mode_cache_settings(const ModeCacheSettings& s) {
    State& st = state();
    std::lock_guard<std::mutex> lk(st.mu);
    st.settings = s;
    evict_locked(st);
}

ModeCacheSettings mode_cache_settings() {
    State& st = state();
    std::lock_guard<std::mutex> lk(st.mu);
    return st.settings;
}

ModeCacheSettings mode_cache_settings_from_environment() {
    ModeCacheSettings s;
    auto env = [](const char* n) -> std::string {
        const char* v = std::getenv(n);
        return v ? std::string(v) : std::string();
    };
    const std::string onoff = env("GOLIGHTLY_MODE_CACHE");
    if (onoff == "off" || onoff == "0" || onoff == "no" || onoff == "false") {
        s.enabled = false;
        return s;
    }
    if (const std::string mb = env("GOLIGHTLY_MODE_CACHE_MB"); !mb.empty()) {
        char* end = nullptr;
        const double v = std::strtod(mb.c_str(), &end);
        if (end && *end == '\0' && v >= 0 && v < 1e9) s.session_bytes = std::size_t(v * 1024.0 * 1024.0);
    }
    if (const std::string mb = env("GOLIGHTLY_MODE_CACHE_DISK_MB"); !mb.empty()) {
        char* end = nullptr;
        const double v = std::strtod(mb.c_str(), &end);
        if (end && *end == '\0' && v >= 0 && v < 1e12) s.disk_bytes = std::uint64_t(v * 1024.0 * 1024.0);
        else std::fprintf(stderr, "golightly: warning: GOLIGHTLY_MODE_CACHE_DISK_MB=%s is not a size in MiB; the default %llu MiB is used\n",
                          mb.c_str(), (unsigned long long)(kModeCacheDiskBytesDefault >> 20));
    }
    if (const std::string d = env("GOLIGHTLY_MODE_CACHE_DIR"); !d.empty()) {
        s.disk_dir = d;
    } else if (const std::string x = env("XDG_CACHE_HOME"); !x.empty() && x[0] == '/') {
        s.disk_dir = x + "/golightly/modes";
    } else if (const std::string h = env("HOME"); !h.empty()) {
        s.disk_dir = h + "/.cache/golightly/modes";
    }
    return s;
}

ModeCacheStats mode_cache_stats() {
    State& st = state();
    std::lock_guard<std::mutex> lk(st.mu);
    return st.stats;
}

void clear_mode_cache() {
    State& st = state();
    std::lock_guard<std::mutex> lk(st.mu);
    st.map.clear();
    st.lru.clear();
    st.bytes = 0;
    st.stats = ModeCacheStats{};
}

std::string mode_solve_key(const ModeGrid2D& g, const ModeMedium2D& m, double wl, const ModeSolveOptions& o) {
    Hasher h;
    const char tag[] = "golightly-mode-solve";
    h.bytes(tag, sizeof tag);
    h.bytes(kRevision, 16);
    h.value(std::int32_t(kFileFormat));
    h.value(std::int32_t(g.nu));
    h.value(std::int32_t(g.nv));
    h.value(g.dx_um);
    h.value(std::int32_t(g.boundary_u));
    h.value(std::int32_t(g.boundary_v));
    for (int d = 0; d < 3; ++d) {
        h.doubles(m.eps[std::size_t(d)]);
        h.doubles(m.eps_imag[std::size_t(d)]);
        h.doubles(m.eps_group[std::size_t(d)]);
    }
    h.value(wl);
    h.value(std::int32_t(o.num_modes));
    h.value(o.target_neff);
    h.value(o.bend_radius_um);
    h.value(std::int32_t(o.bend_axis));
    h.value(o.bend_reference_um);
    h.value(std::int32_t(o.pml_cells[0]));
    h.value(std::int32_t(o.pml_cells[1]));
    // the Bloch phases of a window along a Bloch axis (mode_solver2d.hpp); hashed only when
    // set, so that the keys of every other window stay those already on disk
    if (g.bloch_phase_u != 0 || g.bloch_phase_v != 0) {
        const char bloch[] = "bloch";
        h.bytes(bloch, sizeof bloch);
        h.value(g.bloch_phase_u);
        h.value(g.bloch_phase_v);
    }
    return h.hex();
}

bool write_mode_cache_file(const std::string& path, const std::string& key, const ModeGrid2D& grid,
                           const std::vector<VectorMode>& modes, std::string& why) {
    Writer w;
    w.buf.append(kMagic, sizeof kMagic);
    w.value(kFileFormat);
    w.buf.append(kRevision, 16);
    if (key.size() != 32) {
        why = "the key is not 32 hex digits";
        return false;
    }
    w.buf.append(key);
    w.value(std::int32_t(grid.nu));
    w.value(std::int32_t(grid.nv));
    w.value(std::uint32_t(modes.size()));
    for (const VectorMode& m : modes) {
        for (double v : {m.beta_per_um, m.n_eff, m.n_eff_imag, m.loss_db_per_cm, m.loss_db_per_90deg, m.n_group,
                         m.te_fraction, m.pml_energy_fraction, m.bend_loss_resolved ? 1.0 : 0.0, m.outer_window_um})
            w.value(v);
        for (int d = 0; d < 3; ++d) w.cvec(m.e[std::size_t(d)]);
        for (int d = 0; d < 3; ++d) w.cvec(m.h[std::size_t(d)]);
    }
    w.value(fnv1a(w.buf.data(), w.buf.size()));
    std::error_code ec;
    const fs::path target(path);
    fs::create_directories(target.parent_path(), ec);
    static std::atomic<unsigned> counter{0};
    const fs::path tmp = target.parent_path() /
                         ("." + target.filename().string() + "." + std::to_string(::getpid()) + "." +
                          std::to_string(counter.fetch_add(1)) + ".tmp");
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) {
            why = "cannot create " + tmp.string();
            return false;
        }
        f.write(w.buf.data(), std::streamsize(w.buf.size()));
        f.flush();
        if (!f) {
            f.close();
            fs::remove(tmp, ec);
            why = "cannot write " + tmp.string();
            return false;
        }
    }
    fs::rename(tmp, target, ec);
    if (ec) {
        fs::remove(tmp, ec);
        why = "cannot rename " + tmp.string() + " to " + target.string();
        return false;
    }
    return true;
}

std::optional<std::vector<VectorMode>> read_mode_cache_file(const std::string& path, const std::string& key,
                                                            const ModeGrid2D& grid, std::string& why) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        why = "missing";
        return std::nullopt;
    }
    const auto size = fs::file_size(path, ec);
    if (ec || size > kMaxFileBytes) {
        why = "unreadable or too large";
        return std::nullopt;
    }
    std::string buf(size, '\0');
    {
        std::ifstream f(path, std::ios::binary);
        if (!f.read(buf.data(), std::streamsize(size))) {
            why = "unreadable";
            return std::nullopt;
        }
    }
    if (buf.size() < sizeof kMagic + 4 + 16 + 32 + 8 || std::memcmp(buf.data(), kMagic, sizeof kMagic) != 0) {
        why = "not a GoLightly mode cache file";
        return std::nullopt;
    }
    std::uint64_t stored = 0;
    std::memcpy(&stored, buf.data() + buf.size() - sizeof stored, sizeof stored);
    if (fnv1a(buf.data(), buf.size() - sizeof stored) != stored) {
        why = "checksum mismatch (truncated or corrupt)";
        return std::nullopt;
    }
    Reader r{buf};
    r.pos = sizeof kMagic;
    if (r.value<std::uint32_t>() != kFileFormat || buf.compare(r.pos, 16, kRevision, 16) != 0) {
        why = "another format or solver revision";
        return std::nullopt;
    }
    r.pos += 16;
    if (buf.compare(r.pos, 32, key) != 0) {
        why = "written for another key";
        return std::nullopt;
    }
    r.pos += 32;
    const auto nu = r.value<std::int32_t>(), nv = r.value<std::int32_t>();
    const auto count = r.value<std::uint32_t>();
    if (!r.ok || nu != grid.nu || nv != grid.nv || count > 10000) {
        why = "another window shape";
        return std::nullopt;
    }
    std::vector<VectorMode> modes(count);
    for (VectorMode& m : modes) {
        double resolved = 1;
        for (double* v : {&m.beta_per_um, &m.n_eff, &m.n_eff_imag, &m.loss_db_per_cm, &m.loss_db_per_90deg,
                          &m.n_group, &m.te_fraction, &m.pml_energy_fraction, &resolved, &m.outer_window_um})
            *v = r.value<double>();
        m.bend_loss_resolved = resolved != 0;
        for (int d = 0; d < 3; ++d) m.e[std::size_t(d)] = r.cvec(shape_count(mode_component_shape_e(grid, d)));
        for (int d = 0; d < 3; ++d) m.h[std::size_t(d)] = r.cvec(shape_count(mode_component_shape_h(grid, d)));
        if (!r.ok) break;
    }
    if (!r.ok || r.pos + sizeof stored != buf.size()) {
        why = "field arrays of another shape or length";
        return std::nullopt;
    }
    return modes;
}

std::shared_ptr<const std::vector<VectorMode>> cached_solve_modes_2d(const ModeGrid2D& grid,
                                                                     const ModeMedium2D& medium,
                                                                     double wavelength_um,
                                                                     const ModeSolveOptions& options) {
    State& st = state();
    auto timed_solve = [&]() {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = std::make_shared<const std::vector<VectorMode>>(solve_modes_2d(grid, medium, wavelength_um, options));
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::lock_guard<std::mutex> lk(st.mu);
        ++st.stats.solves;
        st.stats.solve_seconds += s;
        return r;
    };
    ModeCacheSettings settings;
    {
        std::lock_guard<std::mutex> lk(st.mu);
        settings = st.settings;
    }
    if (!settings.enabled) return timed_solve();
    const std::string key = mode_solve_key(grid, medium, wavelength_um, options);
    std::promise<ModesPtr> promise;
    {
        std::unique_lock<std::mutex> lk(st.mu);
        if (auto it = st.map.find(key); it != st.map.end()) {
            st.lru.splice(st.lru.begin(), st.lru, it->second.lru);
            ++st.stats.session_hits;
            return it->second.modes;
        }
        if (auto it = st.inflight.find(key); it != st.inflight.end()) {
            std::shared_future<ModesPtr> fut = it->second;
            ++st.stats.session_hits;
            lk.unlock();
            return fut.get();  // the same solve running in another thread
        }
        st.inflight.emplace(key, promise.get_future().share());
    }
    try {
        ModesPtr result;
        const std::string file = settings.disk_dir.empty() ? std::string() : settings.disk_dir + "/" + key + ".bin";
        if (!file.empty()) {
            std::string why;
            if (auto got = read_mode_cache_file(file, key, grid, why)) {
                result = std::make_shared<const std::vector<VectorMode>>(std::move(*got));
                std::error_code ec;  // the file's time is its last use: the pruning's order
                fs::last_write_time(file, fs::file_time_type::clock::now(), ec);
                std::lock_guard<std::mutex> lk(st.mu);
                ++st.stats.disk_hits;
            } else if (why != "missing") {
                std::fprintf(stderr, "golightly: warning: mode cache file %s ignored (%s); solving again\n",
                             file.c_str(), why.c_str());
                std::lock_guard<std::mutex> lk(st.mu);
                ++st.stats.disk_rejected;
            }
        }
        if (!result) {
            result = timed_solve();
            if (!file.empty()) {
                std::string why;
                const bool ok = write_mode_cache_file(file, key, grid, *result, why);
                const std::size_t pruned =
                    ok && settings.disk_bytes > 0 ? prune_mode_cache_dir(settings.disk_dir, settings.disk_bytes, key + ".bin") : 0;
                std::lock_guard<std::mutex> lk(st.mu);
                st.stats.disk_pruned += long(pruned);
                if (ok) {
                    ++st.stats.disk_writes;
                } else if (!st.warned_write) {
                    st.warned_write = true;
                    std::fprintf(stderr, "golightly: warning: mode cache: %s (modes are solved, not saved)\n",
                                 why.c_str());
                }
            }
        }
        {
            std::lock_guard<std::mutex> lk(st.mu);
            st.lru.push_front(key);
            Entry e;
            e.modes = result;
            e.bytes = modes_bytes(*result);
            e.lru = st.lru.begin();
            st.bytes += e.bytes;
            st.map[key] = std::move(e);
            evict_locked(st);
            st.inflight.erase(key);
        }
        promise.set_value(result);
        return result;
    } catch (...) {
        {
            std::lock_guard<std::mutex> lk(st.mu);
            st.inflight.erase(key);
        }
        promise.set_exception(std::current_exception());
        throw;
    }
}

std::string mode_solver_revision() { return std::string(kRevision, 16); }

std::size_t prune_mode_cache_dir(const std::string& dir, std::uint64_t max_bytes, const std::string& keep) {
    struct File {
        fs::path path;
        std::uint64_t bytes;
        fs::file_time_type time;
    };
    std::vector<File> files;
    std::uint64_t total = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        // only the cache's own files: 32 hex digits + ".bin"
        if (name.size() != 36 || name.compare(32, 4, ".bin") != 0 ||
            name.find_first_not_of("0123456789abcdef") != 32)
            continue;
        std::error_code e2;
        if (!it->is_regular_file(e2)) continue;
        const std::uint64_t b = it->file_size(e2);
        if (e2) continue;
        const fs::file_time_type t = it->last_write_time(e2);
        if (e2) continue;
        total += b;
        if (name != keep) files.push_back({it->path(), b, t});
    }
    if (total <= max_bytes) return 0;
    std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.time < b.time; });
    std::size_t removed = 0;
    for (const File& f : files) {
        if (total <= max_bytes) break;
        std::error_code e2;
        // another process may have removed it already: its bytes are gone all the same
        if (fs::remove(f.path, e2) || !fs::exists(f.path, e2)) {
            total -= std::min(total, f.bytes);
            ++removed;
        }
    }
    return removed;
}

std::uint64_t mode_solve_peak_bytes(const ModeGrid2D& g, const ModeMedium2D& medium, const ModeSolveOptions& o) {
    bool complex = o.pml_cells[0] > 0 || o.pml_cells[1] > 0 || o.bend_radius_um != 0 || g.bloch_phase_u != 0 ||
                   g.bloch_phase_v != 0;
    for (const auto& v : medium.eps_imag) complex = complex || !v.empty();
    const double cells = std::max(1.0, double(std::max(g.nu, 0)) * double(std::max(g.nv, 0)));
    const double n = 2 * cells;  // unknowns: E_u and E_v
    // bytes per unknown: the LU factors' fill (nested dissection on a 2D grid: ~ n log2 n
    // entries) plus the operator's assembly, the Arnoldi basis and the fields (~ n each);
    // constants fitted to measured peaks with a margin (docs/modes-cache.md, "Limits")
    const double real_bytes = n * (kModeSolvePeakBytesPerLogUnknown * std::log2(std::max(n, 2.0)) + kModeSolvePeakBytesPerUnknown);
    return std::uint64_t((complex ? 2.0 : 1.0) * real_bytes) + (std::uint64_t(64) << 20);
}

void check_mode_solve_limits(const ModeGrid2D& g, const ModeMedium2D& medium, const ModeSolveOptions& o,
                             const std::string& what, const std::string& file_label, const std::string& json_path) {
    const long long cells = (long long)std::max(g.nu, 0) * (long long)std::max(g.nv, 0);
    char dx[32];
    std::snprintf(dx, sizeof dx, "%g", g.dx_um);
    const std::string size = std::to_string(g.nu) + " x " + std::to_string(g.nv) + " cells of " + dx + " um";
    if (cells > kModeSolveMaxCells)
        throw ProjectError(file_label, json_path,
                           what + ": its mode cross-section is " + size + " (" + std::to_string(cells) +
                               " cells), more than the mode solver's limit of " + std::to_string(kModeSolveMaxCells) +
                               " cells: make the plane smaller or the cells larger (domain.cell_size)");
    const std::uint64_t need = mode_solve_peak_bytes(g, medium, o);
    if (const std::uint64_t host = limits::host_memory_bytes(); host > 0 && need > host)
        throw ProjectError(file_label, json_path,
                           what + ": solving the modes of its cross-section (" + size + ") needs about " +
                               limits::format_bytes(double(need)) + " of memory, more than the " +
                               limits::format_bytes(double(host)) +
                               " of this machine: make the plane smaller or the cells larger (domain.cell_size)");
}

ModeInterpolation parse_mode_interpolation(const Project& project, const std::string& file_label) {
    const Json& x = project.run.extra;
    if (!x.is_object() || !x.contains("mode_interpolation")) return ModeInterpolation::automatic;
    const Json& v = x["mode_interpolation"];
    if (v.is_string()) {
        if (v.get<std::string>() == "auto") return ModeInterpolation::automatic;
        if (v.get<std::string>() == "exact") return ModeInterpolation::exact;
    }
    throw ProjectError(file_label, "run.mode_interpolation",
                       "must be \"auto\" (modes solved at a few frequencies of the band and interpolated) or "
                       "\"exact\" (solved at every spectrum frequency)");
}

}  // namespace golightly
