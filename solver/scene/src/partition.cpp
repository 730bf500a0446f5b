// Domain decomposition (partition.hpp): subdomain scenes with halo planes.
#include "golightly/partition.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <numeric>
#include <string>
#include <utility>

#include "golightly/errors.hpp"

namespace golightly {

int partition_halo(const Scene& scene) { return scene.is_anisotropic() ? 3 : 2; }

namespace {

std::int64_t axis_cells(const Scene& s, int a) { return a == 0 ? s.nx : a == 1 ? s.ny : s.nz; }

/// Cells per plane normal to the cut axis (the cut axis is the slowest one present, so a
/// plane is one contiguous block of this many cells).
std::int64_t plane_cells(const Scene& s, int a) { return std::int64_t(s.cells()) / axis_cells(s, a); }

struct Layout {
    int axis = 2, halo = 2;
    std::int64_t N = 0;
    bool periodic = false;
    std::vector<std::int64_t> lo, hi;  // owned ranges
};

/// Maps global flat cells onto one subdomain's local cells.
struct CellMap {
    const GridWindow* win = nullptr;
    std::int64_t plane = 1, n_local = 0;
    /// Local flat index of global `cell`, -1 when its plane is not in the subdomain.
    std::int64_t local(CellIndex cell) const {
        const std::int64_t gp = cell / plane, r = cell % plane;
        const std::int64_t lp = win->local_plane(gp, n_local);
        return lp < 0 ? -1 : lp * plane + r;
    }
    std::int64_t local_plane(CellIndex cell) const { return win->local_plane(cell / plane, n_local); }
};

template <class V>
V slice_planes(const V& global, const CellMap& m) {
    if (global.empty()) return global;
    V out(std::size_t(m.plane * m.n_local));
    const std::int64_t N = m.win->global_n;
    for (std::int64_t p = 0; p < m.n_local; ++p) {
        std::int64_t g = m.win->origin + p;
        g = ((g % N) + N) % N;
        std::copy_n(global.begin() + g * m.plane, m.plane, out.begin() + p * m.plane);
    }
    return out;
}

template <class V>
V slice_axis(const V& global, const GridWindow& w, std::int64_t n_local) {
    if (global.empty()) return global;
    V out(static_cast<std::size_t>(n_local));
    const std::int64_t N = w.global_n;
    for (std::int64_t p = 0; p < n_local; ++p) {
        std::int64_t g = w.origin + p;
        g = ((g % N) + N) % N;
        out[std::size_t(p)] = global[std::size_t(g)];
    }
    return out;
}

/// The background (ca, cb) of a TF/SF line: make_tfsf_plan's rule (tfsf_plan.hpp) on the
/// global scene, so that every subdomain steps the same incident line.
void fill_line_coefficients(const Scene& g, TfsfSource& t) {
    if (std::isfinite(t.line_ca) && std::isfinite(t.line_cb)) return;
    const int dims = g.dimensions == 3 ? 3 : 2;
    const std::int64_t n[3] = {g.nx, g.ny, g.dimensions == 3 ? g.nz : 1};
    std::int64_t corner[3] = {0, 0, 0};
    for (int d = 0; d < dims; ++d) {
        const bool full = g.boundary[d] == BoundaryKind::Periodic && t.lo[d] <= 0 && t.hi[d] >= n[d] - 1;
        corner[d] = full ? 0 : t.lo[d];
    }
    t.line_ca = 1.0;
    t.line_cb = g.courant;
    const std::size_t cell = std::size_t((corner[2] * n[1] + corner[1]) * n[0] + corner[0]);
    const auto& idx = g.material_index[int(t.e_component)];
    if (cell < idx.size() && idx[cell] < g.table.size()) {
        t.line_ca = g.table[idx[cell]].ca;
        t.line_cb = g.table[idx[cell]].cb;
    }
}

Subdomain make_sub(const Scene& g, const Layout& L, int p, const std::vector<double>& probe_weight_sum) {
    const int a = L.axis;
    const int pieces = int(L.lo.size());
    Subdomain sd;
    sd.index = p;
    sd.owned_lo = L.lo[std::size_t(p)];
    sd.owned_hi = L.hi[std::size_t(p)];
    sd.halo_lo = (p > 0 || L.periodic) ? L.halo : 0;
    sd.halo_hi = (p < pieces - 1 || L.periodic) ? L.halo : 0;
    const std::int64_t nl = sd.n_local();

    Scene& s = sd.scene;
    s.dimensions = g.dimensions;
    s.polarization = g.polarization;
    s.nx = g.nx;
    s.ny = g.ny;
    s.nz = g.nz;
    (a == 0 ? s.nx : a == 1 ? s.ny : s.nz) = int(nl);
    s.dx_um = g.dx_um;
    s.dt_s = g.dt_s;
    s.courant = g.courant;
    s.complex_fields = g.complex_fields;
    for (int d = 0; d < 3; ++d) {
        // Along the cut axis the wrap is the halo exchange's (HaloTransfer::phase): a
        // subdomain's cut faces do not wrap.
        s.bloch_phase[d] = d == a ? 0.0 : g.bloch_phase[d];
        s.boundary[d] = g.boundary[d];
        s.pml_lo[d] = g.pml_lo[d];
        s.pml_hi[d] = g.pml_hi[d];
        s.cpml[d] = g.cpml[d];
    }
    GridWindow& w = s.window;
    w.active = true;
    w.axis = a;
    w.origin = sd.owned_lo - sd.halo_lo;
    w.global_n = L.N;
    w.global_pml_lo = g.pml_lo[a];
    w.global_pml_hi = g.pml_hi[a];
    w.global_boundary = g.boundary[a];
    if (L.periodic) {
        // The cut faces read zero beyond the array (the halo planes absorb the error).
        s.boundary[a] = BoundaryKind::Pml;
        s.pml_lo[a] = s.pml_hi[a] = 0;
    } else {
        s.pml_lo[a] = int(std::clamp<std::int64_t>(g.pml_lo[a] - w.origin, 0, nl));
        s.pml_hi[a] = int(std::clamp<std::int64_t>(w.origin + nl - (L.N - g.pml_hi[a]), 0, nl));
        if (s.pml_lo[a] + s.pml_hi[a] > nl)
            throw RunError("partition: subdomain " + std::to_string(p) + " lies in both PML slabs of the " +
                           std::string(1, "xyz"[a]) + " axis");
    }
    {
        CpmlAxis& c = s.cpml[a];
        const CpmlAxis& gc = g.cpml[a];
        c.b_e = slice_axis(gc.b_e, w, nl);
        c.c_e = slice_axis(gc.c_e, w, nl);
        c.inv_kappa_e = slice_axis(gc.inv_kappa_e, w, nl);
        c.b_h = slice_axis(gc.b_h, w, nl);
        c.c_h = slice_axis(gc.c_h, w, nl);
        c.inv_kappa_h = slice_axis(gc.inv_kappa_h, w, nl);
    }

    CellMap m;
    m.win = &w;
    m.plane = plane_cells(g, a);
    m.n_local = nl;

    s.table = g.table;
    for (int c = 0; c < 3; ++c) s.material_index[c] = slice_planes(g.material_index[c], m);

    // Dispersive cells: every listed cell on a local plane, sorted by local index.
    s.pole_sets = g.pole_sets;
    for (int c = 0; c < 3; ++c) {
        const DispersiveCells& gd = g.dispersive[c];
        std::vector<std::pair<std::int64_t, std::size_t>> keep;
        for (std::size_t k = 0; k < gd.cells.size(); ++k) {
            const std::int64_t l = m.local(gd.cells[k]);
            if (l >= 0) keep.emplace_back(l, k);
        }
        std::sort(keep.begin(), keep.end());
        DispersiveCells& d = s.dispersive[c];
        for (const auto& [l, k] : keep) {
            d.cells.push_back(l);
            d.pole_set.push_back(gd.pole_set[k]);
            d.weight.push_back(gd.weight[k]);
        }
    }

    // Tensor couplings: sites on local planes except the outermost halo planes; slots to a
    // site that is not kept become -1.
    {
        const AnisotropicCells& ga = g.anisotropic;
        const int S = anisotropic_slots(g.dimensions);
        std::vector<std::int32_t> to_local[3];
        std::vector<std::pair<std::int64_t, std::size_t>> keep[3];
        for (int c = 0; c < 3; ++c) {
            to_local[c].assign(ga.cells[c].size(), -1);
            for (std::size_t k = 0; k < ga.cells[c].size(); ++k) {
                const std::int64_t lp = m.local_plane(ga.cells[c][k]);
                if (lp < 0) continue;
                if ((lp == 0 && sd.halo_lo > 0) || (lp == nl - 1 && sd.halo_hi > 0)) continue;
                keep[c].emplace_back(m.local(ga.cells[c][k]), k);
            }
            std::sort(keep[c].begin(), keep[c].end());
            for (std::size_t q = 0; q < keep[c].size(); ++q) to_local[c][keep[c][q].second] = std::int32_t(q);
        }
        AnisotropicCells& an = s.anisotropic;
        for (int c = 0; c < 3; ++c) {
            for (const auto& [l, k] : keep[c]) {
                an.cells[c].push_back(l);
                for (int slot = 0; slot < S; ++slot) {
                    const std::size_t gs = k * std::size_t(S) + std::size_t(slot);
                    const std::int32_t nb = ga.neighbour[c][gs];
                    std::int32_t local_nb = -1;
                    if (nb >= 0) {
                        const int partner = anisotropic_partner(c, slot / 4, g.dimensions);
                        local_nb = to_local[partner][std::size_t(nb)];
                    }
                    an.neighbour[c].push_back(local_nb);
                    an.weight[c].push_back(ga.weight[c][gs]);
                }
            }
        }
    }

    // Sources: every cell on a local plane (halo planes included, so they stay close to the
    // global field between exchanges). On a halo plane across the wrap of a Bloch cut axis
    // the field is exp(+-i phi) F (HaloTransfer::phase), and so is the source's complex weight.
    const double wrap_phi = L.periodic && g.complex_fields ? g.bloch_phase[a] : 0.0;
    for (const SourceTerm& gsrc : g.sources) {
        SourceTerm t;
        t.component = gsrc.component;
        t.waveform = gsrc.waveform;
        t.delay_s = gsrc.delay_s;
        bool rotated = false;
        for (std::size_t k = 0; k < gsrc.cells.size(); ++k) {
            const std::int64_t l = m.local(gsrc.cells[k]);
            if (l < 0) continue;
            const std::int64_t unwrapped = w.origin + l / m.plane;  // global plane before the wrap
            const double phase = unwrapped < 0 ? -wrap_phi : unwrapped >= L.N ? wrap_phi : 0.0;
            std::complex<double> wt(gsrc.weights[k], gsrc.weights_im.empty() ? 0.0 : gsrc.weights_im[k]);
            if (phase != 0) {
                wt *= std::polar(1.0, phase);
                rotated = true;
            }
            t.cells.push_back(l);
            t.weights.push_back(wt.real());
            t.weights_im.push_back(wt.imag());
        }
        if (gsrc.weights_im.empty() && !rotated) t.weights_im.clear();
        if (!t.cells.empty()) s.sources.push_back(std::move(t));
    }

    // TF/SF: the global box; the engines' plans keep the corrections on local planes.
    s.tfsf = g.tfsf;
    for (TfsfSource& t : s.tfsf) fill_line_coefficients(g, t);

    // DFT samples on the subdomain that owns their first cell.
    sd.dft_samples.resize(g.dft_sets.size());
    for (std::size_t set = 0; set < g.dft_sets.size(); ++set) {
        const DftSet& gs = g.dft_sets[set];
        DftSet ds;
        ds.component = gs.component;
        ds.frequencies_hz = gs.frequencies_hz;
        for (std::size_t k = 0; k < gs.cell0.size(); ++k) {
            const std::int64_t gp = gs.cell0[k] / m.plane;
            if (gp < sd.owned_lo || gp >= sd.owned_hi) continue;
            ds.cell0.push_back(m.local(gs.cell0[k]));
            // cell1 and w1 may be empty: no second cell for any sample (a scene built by hand)
            const std::int64_t g1 = k < gs.cell1.size() ? gs.cell1[k] : -1;
            std::int64_t c1 = -1;
            if (g1 >= 0) {
                c1 = m.local(g1);
                if (c1 < 0)
                    throw RunError("partition: DFT set " + std::to_string(set) + " sample " + std::to_string(k) +
                                   " reads a cell more than the halo away from its owner");
                // Its second cell across the wrap of a Bloch cut axis: the halo holds exp(+-i phi)
                // F there, the one-domain engine reads F (a real weight cannot undo the phase).
                const std::int64_t unwrapped = w.origin + c1 / m.plane;
                if (wrap_phi != 0 && (unwrapped < 0 || unwrapped >= L.N))
                    throw RunError(std::string("partition: a monitor's DFT sample (set ") + std::to_string(set) +
                                   ", sample " + std::to_string(k) + ") averages across the wrap of the Bloch axis " +
                                   "xyz"[a] + " (the cut axis of a run on several devices or MPI ranks); move the "
                                   "monitor off the domain's edge along " + "xyz"[a] + ", or run on one device");
            }
            ds.cell1.push_back(c1);
            ds.w0.push_back(gs.w0[k]);
            ds.w1.push_back(k < gs.w1.size() ? gs.w1[k] : 0.0);
            sd.dft_samples[set].push_back(std::int64_t(k));
        }
        s.dft_sets.push_back(std::move(ds));
    }

    // Time probes: owned cells, as weighted sums.
    for (std::size_t q = 0; q < g.time_probes.size(); ++q) {
        const TimeProbe& gp = g.time_probes[q];
        TimeProbe tp;
        tp.component = gp.component;
        const bool normalize = gp.reduce == Reduce::Mean || gp.reduce == Reduce::Rms;
        tp.reduce = (gp.reduce == Reduce::Rms || gp.reduce == Reduce::SumSquares) ? Reduce::SumSquares : Reduce::Value;
        const double W = probe_weight_sum[q];
        for (std::size_t k = 0; k < gp.cells.size(); ++k) {
            const std::int64_t plane = gp.cells[k] / m.plane;
            if (plane < sd.owned_lo || plane >= sd.owned_hi) continue;
            tp.cells.push_back(m.local(gp.cells[k]));
            tp.weights.push_back(normalize ? (W != 0 ? gp.weights[k] / W : 0.0) : gp.weights[k]);
        }
        s.time_probes.push_back(std::move(tp));
    }
    return sd;
}

Partition build(const Scene& g, const Layout& L) {
    Partition P;
    P.dimensions = g.dimensions;
    P.axis = L.axis;
    P.halo = L.halo;
    P.global_n = L.N;
    P.periodic = L.periodic;
    for (const DftSet& s : g.dft_sets) P.dft_set_samples.push_back(std::int64_t(s.cell0.size()));
    std::vector<double> wsum;
    for (const TimeProbe& t : g.time_probes) {
        P.probe_reduce.push_back(t.reduce);
        wsum.push_back(std::accumulate(t.weights.begin(), t.weights.end(), 0.0));
    }
    const int pieces = int(L.lo.size());
    for (int p = 0; p < pieces; ++p) P.subs.push_back(make_sub(g, L, p, wsum));
    for (int p = 0; p < pieces; ++p) {
        const bool last = p == pieces - 1;
        if (last && !L.periodic) break;
        const int q = last ? 0 : p + 1;
        const Subdomain& a = P.subs[std::size_t(p)];
        const Subdomain& b = P.subs[std::size_t(q)];
        // Only the outer halo - 1 planes of each halo go wrong in a step (partition.hpp); the
        // innermost halo plane is computed exactly by its own subdomain. a's top owned planes
        // -> the outer planes of b's lower halo; b's bottom owned planes (past the first) ->
        // the outer planes of a's upper halo.
        // Across the wrap (last -> first) the planes take the Bloch phase of the cut axis:
        // b's lower halo holds global planes -x.. = exp(-i phi) F(N - x..), a's upper halo
        // global planes N + 1.. = exp(+i phi) F(1..) (scene.hpp "Bloch-periodic axes").
        const int x = L.halo - 1;
        const double phi = last && g.complex_fields ? g.bloch_phase[L.axis] : 0.0;
        P.transfers.push_back({p, q, a.halo_lo + (a.owned_hi - a.owned_lo) - L.halo, 0, x, -phi});
        P.transfers.push_back({q, p, b.halo_lo + 1, a.n_local() - x, x, +phi});
    }
    return P;
}

}  // namespace

std::vector<double> partition_plane_cost(const Scene& g) {
    const int a = partition_axis(g);
    const std::int64_t N = axis_cells(g, a), plane = plane_cells(g, a);
    std::vector<double> cost(std::size_t(std::max<std::int64_t>(0, N)), double(plane));
    // One bulk cell update: 18 s + 6 B; one listed dispersive sample of N poles, N_D of
    // them Drude: (4N - 2N_D + 5) s + 10 B (cuda_bulk3d.cuh, cuda_dispersion.cuh; s = 4).
    constexpr double s4 = 4.0, bulk = 18.0 * s4 + 6.0;
    std::vector<double> set_cost(g.pole_sets.size(), 0.0);
    for (std::size_t q = 0; q < g.pole_sets.size(); ++q) {
        const double n = double(g.pole_sets[q].poles.size()), nd = double(drude_poles(g.pole_sets[q]));
        set_cost[q] = ((4.0 * n - 2.0 * nd + 5.0) * s4 + 10.0) / bulk;
    }
    // Diagnosis (docs/performance.md): GOLIGHTLY_PARTITION_PLANES=1 counts planes only.
    const char* planes_only = std::getenv("GOLIGHTLY_PARTITION_PLANES");
    if (plane <= 0 || (planes_only && std::string(planes_only) == "1")) return cost;
    for (int c = 0; c < 3; ++c) {
        const DispersiveCells& d = g.dispersive[c];
        for (std::size_t k = 0; k < d.cells.size(); ++k) {
            const std::int64_t pl = std::int64_t(d.cells[k]) / plane;
            const std::size_t set = k < d.pole_set.size() ? d.pole_set[k] : 0;
            if (pl >= 0 && pl < N && set < set_cost.size()) cost[std::size_t(pl)] += set_cost[set];
        }
    }
    return cost;
}

Partition partition_scene(const Scene& g, int pieces, const std::vector<double>& weights) {
    if (g.window.active) throw RunError("partition: the scene already is a subdomain");
    if (pieces < 1) throw RunError("partition: pieces must be >= 1, got " + std::to_string(pieces));
    // Complex fields (scene.hpp "Bloch-periodic axes"): the halo exchange moves both copies
    // (FieldStorage's imaginary arrays); a Bloch wrap across the other axes stays inside
    // each subdomain, and one along the cut axis is the phase of the wrap transfers (build).
    // That phase needs the wrap, i.e. a periodic cut axis (the one-domain engines refuse a
    // phase on another boundary; the subdomains no longer see it, so refuse it here).
    // The subdomain engines' own checks (cpu_bloch.hpp check_bloch_scene) cover the other
    // axes; for the cut axis they are repeated here.
    if (pieces > 1 && g.bloch_phase[partition_axis(g)] != 0) {
        const int a = partition_axis(g);
        const std::string along = std::string("partition: a Bloch phase along ") + "xyz"[a] +
                                  " (the cut axis of a run on several devices or MPI ranks)";
        if (!std::isfinite(g.bloch_phase[a])) throw RunError(along + " is not finite");
        if (g.boundary[a] != BoundaryKind::Periodic) throw RunError(along + " needs a periodic boundary there");
        if (!g.complex_fields) throw RunError(along + " needs complex fields (Scene::complex_fields)");
        if (!g.tfsf.empty())
            throw RunError(along + ": TF/SF sources inject at normal incidence and cannot run with a Bloch phase; "
                                   "use a one-way plane source with angle_deg");
        const std::int64_t N = axis_cells(g, a), plane = plane_cells(g, a);
        for (int c = 0; c < 3; ++c)
            for (CellIndex cell : g.anisotropic.cells[c]) {
                const std::int64_t k = cell / plane;
                if (k == 0 || k == N - 1)
                    throw RunError(along + ": sub-pixel tensor couplings on the wrapped edge of the Bloch axis are "
                                           "not supported; move the interface off the cell's edge or set run.subpixel "
                                           "off");
            }
    }
    if (!weights.empty() && int(weights.size()) != pieces)
        throw RunError("partition: " + std::to_string(weights.size()) + " weights for " + std::to_string(pieces) +
                       " pieces");
    for (double w : weights)
        if (!(w > 0) || !std::isfinite(w)) throw RunError("partition: weights must be positive");
    Layout L;
    L.axis = partition_axis(g);
    L.halo = partition_halo(g);
    L.N = axis_cells(g, L.axis);
    L.periodic = pieces > 1 && g.boundary[L.axis] == BoundaryKind::Periodic;
    if (pieces == 1) {
        Partition P;
        P.dimensions = g.dimensions;
        P.axis = L.axis;
        P.halo = 0;
        P.global_n = L.N;
        for (const DftSet& s : g.dft_sets) P.dft_set_samples.push_back(std::int64_t(s.cell0.size()));
        for (const TimeProbe& t : g.time_probes) P.probe_reduce.push_back(t.reduce);
        Subdomain sd;
        sd.owned_lo = 0;
        sd.owned_hi = L.N;
        sd.scene = g;
        for (const DftSet& s : g.dft_sets) {
            std::vector<std::int64_t> ids(s.cell0.size());
            std::iota(ids.begin(), ids.end(), 0);
            sd.dft_samples.push_back(std::move(ids));
        }
        // The single piece sums as the global probes do (no division by the weight sum).
        P.subs.push_back(std::move(sd));
        return P;
    }
    const std::int64_t min_owned = 2 * L.halo;
    if (L.N < std::int64_t(pieces) * min_owned || (L.periodic && L.N < min_owned + 2 * L.halo))
        throw RunError("partition: " + std::to_string(L.N) + " cells along " + std::string(1, "xyz"[L.axis]) +
                       " cannot be cut into " + std::to_string(pieces) + " pieces of at least " +
                       std::to_string(min_owned) + " planes each (halo " + std::to_string(L.halo) +
                       "); use fewer devices or a larger grid");
    std::vector<double> w = weights.empty() ? std::vector<double>(std::size_t(pieces), 1.0) : weights;
    const double W = std::accumulate(w.begin(), w.end(), 0.0);
    // Cuts where the cumulative plane cost reaches each piece's share of the weights
    // (partition_plane_cost): with no dispersive cells every plane costs the same and the cut
    // is round(N * share) planes; each piece keeps at least min_owned planes.
    const std::vector<double> cost = partition_plane_cost(g);
    std::vector<double> prefix(cost.size() + 1, 0.0);
    for (std::size_t k = 0; k < cost.size(); ++k) prefix[k + 1] = prefix[k] + cost[k];
    const double C = prefix.back();
    double acc = 0;
    L.lo.push_back(0);
    for (int p = 0; p < pieces - 1; ++p) {
        acc += w[std::size_t(p)];
        const double target = C * acc / W;
        // the plane j where the cumulative cost crosses target, interpolated inside it
        const std::size_t j = std::size_t(std::max<std::ptrdiff_t>(
            0, std::upper_bound(prefix.begin(), prefix.end(), target) - prefix.begin() - 1));
        double at = double(j);
        if (j < cost.size() && cost[j] > 0) at += (target - prefix[j]) / cost[j];
        std::int64_t cut = std::int64_t(std::llround(std::min(at, double(L.N))));
        cut = std::max(cut, L.lo.back() + min_owned);
        cut = std::min(cut, L.N - std::int64_t(pieces - 1 - p) * min_owned);
        L.lo.push_back(cut);
    }
    for (int p = 0; p < pieces; ++p) L.hi.push_back(p + 1 < pieces ? L.lo[std::size_t(p) + 1] : L.N);
    for (int p = 0; p < pieces; ++p) {
        const std::int64_t own = L.hi[std::size_t(p)] - L.lo[std::size_t(p)];
        const std::int64_t nl = own + 2 * L.halo;
        if (own < min_owned || (L.periodic && nl > L.N))
            throw RunError("partition: piece " + std::to_string(p) + " would own " + std::to_string(own) +
                           " planes along " + std::string(1, "xyz"[L.axis]) + ", fewer than the " +
                           std::to_string(min_owned) + " it needs; use fewer devices or more even weights");
    }
    return build(g, L);
}

Partition repartition_like(const Partition& layout, const Scene& edited) {
    if (layout.subs.size() == 1) return partition_scene(edited, 1);
    const int a = layout.axis;
    if (axis_cells(edited, a) != layout.global_n || edited.dimensions != layout.dimensions)
        throw RunError("live edit: the edited scene has another grid than the partitioned run (restart the run)");
    Layout L;
    L.axis = a;
    L.halo = layout.halo;
    L.N = layout.global_n;
    L.periodic = layout.periodic;
    if (partition_halo(edited) > L.halo)
        throw RunError("live edit: the edit adds sub-pixel tensor couplings, which need wider halos than this "
                       "distributed run has (restart the run)");
    for (const Subdomain& s : layout.subs) {
        L.lo.push_back(s.owned_lo);
        L.hi.push_back(s.owned_hi);
    }
    return build(edited, L);
}


int padded_nx(const Scene& scene, int multiple) {
    if (multiple <= 1 || (scene.window.active && !scene.window.row_padding)) return scene.nx;
    if (scene.boundary[0] != BoundaryKind::Pml && scene.boundary[0] != BoundaryKind::Pec) return scene.nx;
    if (scene.table.size() >= 65535) return scene.nx;
    const int r = scene.nx % multiple;
    return r == 0 ? scene.nx : scene.nx + (multiple - r);
}

Scene pad_scene_x(const Scene& scene, int multiple) {
    const int nx = scene.nx, np = padded_nx(scene, multiple);
    if (np == nx) return scene;
    const int pad = np - nx;
    Scene s = scene;
    s.nx = np;
    if (s.pml_hi[0] > 0) s.pml_hi[0] += pad;  // the slab keeps its cells, now with the padding
    {
        CpmlAxis& c = s.cpml[0];
        for (std::vector<double>* v : {&c.b_e, &c.c_e, &c.b_h, &c.c_h})
            if (!v->empty()) v->resize(std::size_t(np), 0.0);
        for (std::vector<double>* v : {&c.inv_kappa_e, &c.inv_kappa_h})
            if (!v->empty()) v->resize(std::size_t(np), 1.0);
    }
    EUpdateCoeffs dead;
    dead.ca = 0.0;
    dead.cb = 0.0;
    dead.eps_r = 1.0;
    dead.sigma = 0.0;
    const std::uint16_t dead_index = static_cast<std::uint16_t>(s.table.size());
    s.table.push_back(dead);
    const std::size_t rows = std::size_t(scene.ny) * std::size_t(scene.nz);
    for (int c = 0; c < 3; ++c) {
        const std::vector<std::uint16_t>& m = scene.material_index[c];
        if (m.empty()) continue;
        std::vector<std::uint16_t>& o = s.material_index[c];
        o.assign(rows * std::size_t(np), dead_index);
        for (std::size_t r = 0; r < rows; ++r)
            std::copy(m.begin() + std::ptrdiff_t(r * std::size_t(nx)), m.begin() + std::ptrdiff_t((r + 1) * std::size_t(nx)),
                      o.begin() + std::ptrdiff_t(r * std::size_t(np)));
    }
    auto remap = [&](std::vector<CellIndex>& v) {
        for (CellIndex& cell : v)
            if (cell >= 0) cell = pad_cell_x(cell, nx, np);
    };
    for (SourceTerm& t : s.sources) remap(t.cells);
    for (DftSet& d : s.dft_sets) {
        remap(d.cell0);
        remap(d.cell1);  // -1: no second cell
    }
    for (TimeProbe& p : s.time_probes) remap(p.cells);
    for (int c = 0; c < 3; ++c) {
        remap(s.dispersive[c].cells);
        remap(s.anisotropic.cells[c]);
    }
    return s;
}
}  // namespace golightly
