// GoLightly: the values an objective reads from a results folder (objective.hpp,
// ObjectiveResults): spectra and S-parameter tables, DFT field maps (HDF5) and far fields,
// interpolated at a wavelength.
#include "golightly/objective.hpp"
#include "golightly/units.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/parameters.hpp"
#include "golightly/results.hpp"
#include "golightly/safe_read.hpp"
#include "golightly/sparams.hpp"
#include "golightly/sweep.hpp"
#include "sweep_internal.hpp"
#include "objective_internal.hpp"

#ifdef GOLIGHTLY_HAVE_HDF5
#include <hdf5.h>
#endif

namespace golightly {

namespace fs = std::filesystem;
using namespace objective_detail;

namespace {

// ------------------------------------------------------------------ tables

/// A CSV file of numbers with a header (spectra.csv, sparams.csv, far_field/<m>.csv).
struct Table {
    fs::path file;
    std::vector<std::string> header;
    std::vector<std::vector<double>> rows;
    int column(const std::string& name) const {
        for (std::size_t c = 0; c < header.size(); ++c)
            if (header[c] == name) return int(c);
        return -1;
    }
};

Table read_table(const fs::path& file, const std::string& what) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        throw std::runtime_error(file.string() + ": missing (" + what + ")");
    std::string text;
    try {
        text = read_regular_file(file, limits::kMaxProjectFileBytes * 16);
    } catch (const std::exception& e) {
        throw std::runtime_error(file.string() + ": " + e.what());
    }
    std::istringstream in(text);
    std::string line;
    Table t;
    t.file = file;
    while (std::getline(in, line)) {  // comment lines ("# ...") before the header
        if (!line.empty() && line[0] != '#') break;
    }
    if (line.empty()) throw std::runtime_error(file.string() + ": empty");
    t.header = detail::csv_split(line);
    std::size_t row = 1;
    while (std::getline(in, line)) {
        ++row;
        if (line.empty() || line[0] == '#') continue;
        const auto cells = detail::csv_split(line);
        if (cells.size() != t.header.size())
            throw std::runtime_error(file.string() + ": line " + std::to_string(row) + " has " +
                                     std::to_string(cells.size()) + " columns, the header " +
                                     std::to_string(t.header.size()));
        std::vector<double> v(cells.size());
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::string s = trim(cells[c]);
            if (s == "nan") {
                v[c] = std::nan("");
                continue;
            }
            std::size_t used = 0;
            try {
                v[c] = std::stod(s, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != s.size())
                throw std::runtime_error(file.string() + ": line " + std::to_string(row) + ", column " +
                                         limits::cap_text(t.header[c]) + ": " + quoted(s) + " is not a number");
        }
        t.rows.push_back(std::move(v));
    }
    return t;
}

/// Linear interpolation of samples (x[i], y[i]) (any order of x) at `at`; `what` names the
/// quantity in the error for a point outside the samples.
struct Bracket {
    std::size_t a = 0, b = 0;
    double t = 0;  ///< value = (1 - t) y[a] + t y[b]
};
Bracket bracket(const std::vector<double>& x, double at, const std::string& what, const std::string& source) {
    if (x.empty()) throw std::runtime_error(source + ": no rows");
    std::vector<std::size_t> order(x.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t p, std::size_t q) { return x[p] < x[q]; });
    const double lo = x[order.front()], hi = x[order.back()];
    const double eps = 1e-9 * std::max(std::fabs(lo), std::fabs(hi));
    if (!(at >= lo - eps && at <= hi + eps)) {
        std::string range = lo == hi ? "at " + csv_number(lo) + " um only"
                                     : "from " + csv_number(lo) + " to " + csv_number(hi) + " um";
        throw std::invalid_argument(what + ": " + csv_number(at) + " um is outside the wavelengths of " + source + " (" +
                                    range + ")");
    }
    Bracket br;
    if (order.size() == 1) return br;
    for (std::size_t k = 0; k + 1 < order.size(); ++k) {
        const double a = x[order[k]], b = x[order[k + 1]];
        if (at <= b + eps || k + 2 == order.size()) {
            br.a = order[k];
            br.b = order[k + 1];
            br.t = b > a ? std::clamp((at - a) / (b - a), 0.0, 1.0) : 0.0;
            return br;
        }
    }
    return br;
}

double lerp(const Bracket& br, double ya, double yb) { return br.t == 0 ? ya : (1 - br.t) * ya + br.t * yb; }

/// Column `c` of `t` (first column: wavelength, um) interpolated linearly at `wl` (bracket's errors).
double interpolate_column(const Table& t, int c, double wl, const std::string& what, const std::string& source) {
    std::vector<double> wls, v;
    for (const auto& r : t.rows) {
        wls.push_back(r[0]);
        v.push_back(r[std::size_t(c)]);
    }
    const Bracket br = bracket(wls, wl, what, source);
    return lerp(br, v[br.a], v[br.b]);
}

// ------------------------------------------------------------------ fields (HDF5)

struct FieldMaps {
    std::vector<double> wavelength_um;
    int rank = 3, nz = 1, ny = 1, nx = 1;
    double dx = 0, ox = 0, oy = 0, oz = 0;
    /// E components: values[c][((f * nz + k) * ny + j) * nx + i]
    std::vector<std::vector<std::complex<double>>> e;
};

#ifdef GOLIGHTLY_HAVE_HDF5
std::vector<double> read_attr(hid_t obj, const char* name, const fs::path& file) {
    if (H5Aexists(obj, name) <= 0) throw std::runtime_error(file.string() + ": no attribute " + name);
    const hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    const hid_t sp = H5Aget_space(a);
    const hssize_t n = H5Sget_simple_extent_npoints(sp);
    std::vector<double> v(std::size_t(std::max<hssize_t>(n, 0)));
    const herr_t st = v.empty() ? herr_t(0) : H5Aread(a, H5T_NATIVE_DOUBLE, v.data());
    H5Sclose(sp);
    H5Aclose(a);
    if (st < 0) throw std::runtime_error(file.string() + ": cannot read attribute " + name);
    return v;
}
#endif

FieldMaps read_field_maps(const fs::path& file, const std::string& monitor) {
#ifndef GOLIGHTLY_HAVE_HDF5
    (void)monitor;
    throw std::runtime_error(file.string() + ": this build of GoLightly reads no HDF5 (dft_field objectives need it)");
#else
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        throw std::runtime_error(file.string() + ": missing (the dft_field monitor " + quoted(monitor) +
                                 "'s maps; a run without HDF5 writes none)");
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const hid_t h5 = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (h5 < 0) throw std::runtime_error(file.string() + ": not an HDF5 file");
    struct Close {
        hid_t h;
        ~Close() { H5Fclose(h); }
    } close{h5};
    FieldMaps m;
    m.wavelength_um = read_attr(h5, "wavelengths_um", file);
    const auto dx = read_attr(h5, "dx_um", file);
    const auto origin = read_attr(h5, "origin", file);
    if (dx.size() != 1 || origin.size() < 2) throw std::runtime_error(file.string() + ": bad dx_um or origin attribute");
    m.dx = dx[0];
    m.ox = origin[0];
    m.oy = origin[1];
    m.oz = origin.size() > 2 ? origin[2] : 0;
    for (const char* c : {"ex", "ey", "ez"}) {
        const std::string re = std::string(c) + ".r", im = std::string(c) + ".i";
        if (H5Lexists(h5, re.c_str(), H5P_DEFAULT) <= 0 || H5Lexists(h5, im.c_str(), H5P_DEFAULT) <= 0) continue;
        std::vector<double> part[2];
        for (int p = 0; p < 2; ++p) {
            const hid_t ds = H5Dopen2(h5, (p ? im : re).c_str(), H5P_DEFAULT);
            const hid_t sp = H5Dget_space(ds);
            hsize_t dims[4] = {1, 1, 1, 1};
            const int rank = H5Sget_simple_extent_ndims(sp);
            if (rank != 3 && rank != 4) {
                H5Sclose(sp);
                H5Dclose(ds);
                throw std::runtime_error(file.string() + ": dataset " + (p ? im : re) + " is not [wavelength][(z)][y][x]");
            }
            H5Sget_simple_extent_dims(sp, dims, nullptr);
            m.rank = rank;
            m.nz = rank == 4 ? int(dims[1]) : 1;
            m.ny = int(dims[rank - 2]);
            m.nx = int(dims[rank - 1]);
            if (dims[0] != m.wavelength_um.size()) {
                H5Sclose(sp);
                H5Dclose(ds);
                throw std::runtime_error(file.string() + ": dataset " + (p ? im : re) +
                                         " does not have one map per wavelength");
            }
            part[p].resize(std::size_t(dims[0]) * std::size_t(m.nz) * std::size_t(m.ny) * std::size_t(m.nx));
            const herr_t st = H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, part[p].data());
            H5Sclose(sp);
            H5Dclose(ds);
            if (st < 0) throw std::runtime_error(file.string() + ": cannot read dataset " + (p ? im : re));
        }
        std::vector<std::complex<double>> v(part[0].size());
        for (std::size_t q = 0; q < v.size(); ++q) v[q] = {part[0][q], part[1][q]};
        m.e.push_back(std::move(v));
    }
    if (m.e.empty())
        throw std::runtime_error(file.string() + ": the dft_field monitor " + quoted(monitor) +
                                 " records no E component (ex, ey or ez); |E|^2 needs one");
    return m;
#endif
}

/// |E|^2 of map f at (x, y, z) (um), the complex components interpolated (bi/trilinear).
double intensity_at(const FieldMaps& m, std::size_t f, double x, double y, double z, const std::string& what,
                    const fs::path& file) {
    const double u[3] = {(x - m.ox) / m.dx, (y - m.oy) / m.dx, m.rank == 4 ? (z - m.oz) / m.dx : 0.0};
    const int n[3] = {m.nx, m.ny, m.nz};
    int i0[3];
    double t[3];
    for (int a = 0; a < 3; ++a) {
        const double tol = 1e-6;
        if (u[a] < -tol || u[a] > double(n[a] - 1) + tol)
            throw std::invalid_argument(what + ": the point (" + csv_number(x) + ", " + csv_number(y) +
                                        (m.rank == 4 ? ", " + csv_number(z) : std::string()) + ") um is outside the maps of " +
                                        file.string());
        const double c = std::clamp(u[a], 0.0, double(n[a] - 1));
        i0[a] = std::min(int(std::floor(c)), std::max(0, n[a] - 2));
        t[a] = n[a] > 1 ? c - i0[a] : 0.0;
        if (n[a] == 1) i0[a] = 0;
    }
    double sum = 0;
    for (const auto& comp : m.e) {
        std::complex<double> v = 0;
        for (int dk = 0; dk < 2; ++dk)
            for (int dj = 0; dj < 2; ++dj)
                for (int di = 0; di < 2; ++di) {
                    const double w = (di ? t[0] : 1 - t[0]) * (dj ? t[1] : 1 - t[1]) * (dk ? t[2] : 1 - t[2]);
                    if (w == 0) continue;
                    const std::size_t i = std::size_t(i0[0] + di), j = std::size_t(i0[1] + dj), k = std::size_t(i0[2] + dk);
                    v += w * comp[((f * std::size_t(m.nz) + k) * std::size_t(m.ny) + j) * std::size_t(m.nx) + i];
                }
        sum += std::norm(v);
    }
    return sum;
}

double intensity_mean(const FieldMaps& m, std::size_t f) {
    const std::size_t cells = std::size_t(m.nx) * std::size_t(m.ny) * std::size_t(m.nz);
    double sum = 0;
    for (const auto& comp : m.e)
        for (std::size_t q = 0; q < cells; ++q) sum += std::norm(comp[f * cells + q]);
    return cells ? sum / double(cells) : 0.0;
}

// ------------------------------------------------------------------ far fields

struct FarField {
    fs::path file;
    std::vector<double> wavelength_um;          ///< distinct, file order
    std::vector<double> theta, phi;             ///< the grid's distinct values, increasing
    /// u[w][it * phi.size() + ip], d likewise
    std::vector<std::vector<double>> u, d;
};

std::vector<double> distinct_sorted(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::vector<double> out;
    for (double x : v)
        if (out.empty() || std::fabs(x - out.back()) > 1e-7 * std::max(1.0, std::fabs(x))) out.push_back(x);
    return out;
}

std::size_t index_of(const std::vector<double>& grid, double x) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < grid.size(); ++i)
        if (std::fabs(grid[i] - x) < std::fabs(grid[best] - x)) best = i;
    return best;
}

FarField read_far_field(const fs::path& file, const std::string& monitor) {
    const Table t = read_table(file, "the far field of monitor " + quoted(monitor));
    const int cw = t.column("wavelength_um"), ct = t.column("theta_deg"), cp = t.column("phi_deg"),
              cu = t.column("intensity"), cd = t.column("directivity");
    if (cw < 0 || ct < 0 || cp < 0 || cu < 0 || cd < 0)
        throw std::runtime_error(file.string() + ": not a GoLightly far-field CSV (header)");
    FarField ff;
    ff.file = file;
    std::vector<double> all_t, all_p, all_w;
    for (const auto& r : t.rows) {
        all_t.push_back(r[std::size_t(ct)]);
        all_p.push_back(r[std::size_t(cp)]);
        all_w.push_back(r[std::size_t(cw)]);
    }
    ff.theta = distinct_sorted(all_t);
    ff.phi = distinct_sorted(all_p);
    ff.wavelength_um = distinct_sorted(all_w);
    const std::size_t cells = ff.theta.size() * ff.phi.size();
    ff.u.assign(ff.wavelength_um.size(), std::vector<double>(cells, std::nan("")));
    ff.d = ff.u;
    for (const auto& r : t.rows) {
        const std::size_t w = index_of(ff.wavelength_um, r[std::size_t(cw)]);
        const std::size_t q = index_of(ff.theta, r[std::size_t(ct)]) * ff.phi.size() + index_of(ff.phi, r[std::size_t(cp)]);
        ff.u[w][q] = r[std::size_t(cu)];
        ff.d[w][q] = r[std::size_t(cd)];
    }
    for (const auto& w : ff.u)
        for (double v : w)
            if (std::isnan(v)) throw std::runtime_error(file.string() + ": the (theta, phi) grid is incomplete");
    return ff;
}

/// Bilinear in (theta, phi) on map `w`, phi periodic over 360 degrees.
double far_field_at(const FarField& ff, const std::vector<double>& map, double theta, double phi, const std::string& what) {
    const auto& th = ff.theta;
    std::size_t t0 = 0, t1 = 0;
    double tt = 0;
    if (th.size() == 1) {
        if (std::fabs(theta - th[0]) > 1e-6)
            throw std::invalid_argument(what + ": this far field has theta = " + csv_number(th[0]) + " degrees only (" +
                                        ff.file.string() + ")");
    } else {
        if (theta < th.front() - 1e-6 || theta > th.back() + 1e-6)
            throw std::invalid_argument(what + ": theta = " + csv_number(theta) + " degrees is outside " + csv_number(th.front()) +
                                        " to " + csv_number(th.back()) + " (" + ff.file.string() + ")");
        const double c = std::clamp(theta, th.front(), th.back());
        while (t1 + 1 < th.size() && th[t1] < c) ++t1;
        t0 = t1 > 0 ? t1 - 1 : 0;
        if (t1 == 0) t1 = 1, t0 = 0;
        tt = th[t1] > th[t0] ? (c - th[t0]) / (th[t1] - th[t0]) : 0.0;
    }
    const auto& ph = ff.phi;
    std::size_t p0 = 0, p1 = 0;
    double tp = 0;
    if (ph.size() > 1) {
        double p = std::fmod(phi, 360.0);
        if (p < 0) p += 360;
        if (p < ph.front()) p += 360;
        // intervals [ph[k], ph[k+1]] and the wrap [ph.back(), ph.front() + 360]
        p0 = ph.size() - 1;
        for (std::size_t k = 0; k + 1 < ph.size(); ++k)
            if (p >= ph[k] && p <= ph[k + 1]) {
                p0 = k;
                break;
            }
        p1 = p0 + 1 < ph.size() ? p0 + 1 : 0;
        const double a = ph[p0], b = p0 + 1 < ph.size() ? ph[p0 + 1] : ph.front() + 360;
        tp = b > a ? std::clamp((p - a) / (b - a), 0.0, 1.0) : 0.0;
    }
    const std::size_t np = ph.size();
    auto at = [&](std::size_t it, std::size_t ip) { return map[it * np + ip]; };
    return (1 - tt) * ((1 - tp) * at(t0, p0) + tp * at(t0, p1)) + tt * ((1 - tp) * at(t1, p0) + tp * at(t1, p1));
}

/// Reads a complex quantity (re, im columns) or a real one of a table at `wl`: the value
/// the quantity asks for, interpolated (power and dB: |z|^2 interpolated; phase: the arg
/// of the interpolated z).
double complex_quantity(const Table& t, int cre, int cim, ObjectiveQuantity q, double wl, const std::string& what) {
    std::vector<double> wls;
    const int cw = t.column("wavelength_um");
    for (const auto& r : t.rows) wls.push_back(r[std::size_t(cw)]);
    const Bracket br = bracket(wls, wl, what, t.file.string());
    const std::complex<double> za(t.rows[br.a][std::size_t(cre)], t.rows[br.a][std::size_t(cim)]);
    const std::complex<double> zb(t.rows[br.b][std::size_t(cre)], t.rows[br.b][std::size_t(cim)]);
    const std::complex<double> z = br.t == 0 ? za : (1 - br.t) * za + br.t * zb;
    switch (q) {
        case ObjectiveQuantity::ModePower:
        case ObjectiveQuantity::SPower: return lerp(br, std::norm(za), std::norm(zb));
        case ObjectiveQuantity::SAbs: return lerp(br, std::abs(za), std::abs(zb));
        case ObjectiveQuantity::SdB: return 10 * std::log10(lerp(br, std::norm(za), std::norm(zb)));
        case ObjectiveQuantity::ModeRe:
        case ObjectiveQuantity::SRe: return z.real();
        case ObjectiveQuantity::ModeIm:
        case ObjectiveQuantity::SIm: return z.imag();
        default: return std::arg(z);
    }
}

}  // namespace

// ------------------------------------------------------------------ results

struct ObjectiveResults::Cache {
    std::optional<Table> spectra, sparams;
    std::map<std::string, FieldMaps> fields;
    std::map<std::string, FarField> far;
};

ObjectiveResults::ObjectiveResults(fs::path dir) : dir_(std::move(dir)), cache_(std::make_unique<Cache>()) {}
ObjectiveResults::~ObjectiveResults() = default;

double ObjectiveResults::read(const ObjectiveFunction& f, double wl) {
    const std::string what = f.name + "(" + csv_number(wl) + ")";
    auto spectra = [&]() -> const Table& {
        if (!cache_->spectra) cache_->spectra = read_table(dir_ / "spectra.csv", "the run's spectra");
        if (cache_->spectra->column("wavelength_um") != 0)
            throw std::runtime_error((dir_ / "spectra.csv").string() + ": not a GoLightly spectra.csv (header)");
        return *cache_->spectra;
    };
    switch (f.quantity) {
        case ObjectiveQuantity::Flux:
        case ObjectiveQuantity::FluxRaw: {
            const Table& t = spectra();
            // the normalized column is the first one of that name, the raw one `<name>_flux`
            // after all of them (a monitor named "X_flux" never shadows X's raw column)
            int c = -1;
            if (f.quantity == ObjectiveQuantity::Flux) {
                for (std::size_t k = 2; k < t.header.size() && c < 0; ++k)
                    if (t.header[k] == f.monitor) c = int(k);
            } else {
                for (std::size_t k = t.header.size(); k-- > 2;)
                    if (t.header[k] == f.monitor + "_flux") {
                        c = int(k);
                        break;
                    }
            }
            if (c < 0)
                throw std::runtime_error((dir_ / "spectra.csv").string() + ": no column for monitor " + quoted(f.monitor));
            return interpolate_column(t, c, wl, what, (dir_ / "spectra.csv").string());
        }
        case ObjectiveQuantity::ModePower:
        case ObjectiveQuantity::ModeRe:
        case ObjectiveQuantity::ModeIm:
        case ObjectiveQuantity::ModePhase:
        case ObjectiveQuantity::ModeNeff: {
            const Table& t = spectra();
            const std::string p = f.monitor + "_m" + std::to_string(f.mode);
            if (f.quantity == ObjectiveQuantity::ModeNeff) {
                const int c = t.column(p + "_neff");
                if (c < 0)
                    throw std::runtime_error((dir_ / "spectra.csv").string() + ": no column " + p +
                                             "_neff (mode " + std::to_string(f.mode) + " of monitor " + quoted(f.monitor) +
                                             ")");
                return interpolate_column(t, c, wl, what, (dir_ / "spectra.csv").string());
            }
            const std::string d = f.forward ? "_fwd" : "_bwd";
            const int cre = t.column(p + d + "_re"), cim = t.column(p + d + "_im");
            if (cre < 0 || cim < 0)
                throw std::runtime_error((dir_ / "spectra.csv").string() + ": no columns " + p + d +
                                         "_re/_im (mode " + std::to_string(f.mode) + " of monitor " +
                                         quoted(f.monitor) + ")");
            return complex_quantity(t, cre, cim, f.quantity, wl, what);
        }
        case ObjectiveQuantity::SPower:
        case ObjectiveQuantity::SAbs:
        case ObjectiveQuantity::SPhase:
        case ObjectiveQuantity::SRe:
        case ObjectiveQuantity::SIm:
        case ObjectiveQuantity::SdB: {
            if (!cache_->sparams)
                cache_->sparams = read_table(dir_ / "sparams.csv", "S-parameters: written by golightly-cli sparams, or "
                                                                   "run with run.sparameters");
            const Table& t = *cache_->sparams;
            if (t.column("wavelength_um") < 0)
                throw std::runtime_error((dir_ / "sparams.csv").string() + ": not a GoLightly sparams.csv (header)");
            const int cre = t.column(f.monitor + "_re"), cim = t.column(f.monitor + "_im");
            if (cre < 0 || cim < 0)
                throw std::runtime_error((dir_ / "sparams.csv").string() + ": no columns " + f.monitor +
                                         "_re/_im (port-modes " + std::to_string(f.receive) + " and " +
                                         std::to_string(f.excite) + ")");
            return complex_quantity(t, cre, cim, f.quantity, wl, what);
        }
        case ObjectiveQuantity::Intensity:
        case ObjectiveQuantity::IntensityMean: {
            const fs::path file = dir_ / "fields" / (sanitize_file_name(f.monitor) + ".h5");
            auto it = cache_->fields.find(f.monitor);
            if (it == cache_->fields.end()) it = cache_->fields.emplace(f.monitor, read_field_maps(file, f.monitor)).first;
            const FieldMaps& m = it->second;
            const Bracket br = bracket(m.wavelength_um, wl, what, file.string());
            auto one = [&](std::size_t w) {
                if (f.quantity == ObjectiveQuantity::IntensityMean) return intensity_mean(m, w);
                double x = m.ox + 0.5 * (m.nx - 1) * m.dx, y = m.oy + 0.5 * (m.ny - 1) * m.dx,
                       z = m.oz + 0.5 * (m.nz - 1) * m.dx;
                if (f.at_point) x = f.x_um, y = f.y_um, z = f.z_um;
                return intensity_at(m, w, x, y, z, what, file);
            };
            const double a = one(br.a);
            return br.t == 0 ? a : lerp(br, a, one(br.b));
        }
        case ObjectiveQuantity::FarFieldU:
        case ObjectiveQuantity::FarFieldD: {
            const fs::path file = dir_ / "far_field" / (sanitize_file_name(f.monitor) + ".csv");
            auto it = cache_->far.find(f.monitor);
            if (it == cache_->far.end()) it = cache_->far.emplace(f.monitor, read_far_field(file, f.monitor)).first;
            const FarField& ff = it->second;
            double at = wl;
            // A far field exists at the spectrum points nearest its `wavelengths`: a
            // wavelength whose nearest spectrum point is one of them reads that one.
            const double lo = ff.wavelength_um.front(), hi = ff.wavelength_um.back();
            if ((wl < lo || wl > hi) && fs::is_regular_file(dir_ / "spectra.csv")) {
                const Table& t = spectra();
                double nearest = wl, dist = HUGE_VAL;
                for (const auto& r : t.rows)
                    if (std::fabs(r[0] - wl) < dist) dist = std::fabs(r[0] - wl), nearest = r[0];
                for (double w : ff.wavelength_um)
                    if (std::fabs(w - nearest) <= 1e-9 * w) at = w;
            }
            const Bracket br = bracket(ff.wavelength_um, at, what, file.string());
            const auto& maps = f.quantity == ObjectiveQuantity::FarFieldU ? ff.u : ff.d;
            const double a = far_field_at(ff, maps[br.a], f.theta_deg, f.phi_deg, what);
            return br.t == 0 ? a : lerp(br, a, far_field_at(ff, maps[br.b], f.theta_deg, f.phi_deg, what));
        }
    }
    throw std::logic_error("objective: unknown quantity");
}

}  // namespace golightly
