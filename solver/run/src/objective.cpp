// GoLightly: figures of merit over a results folder (objective.hpp).
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

#ifdef GOLIGHTLY_HAVE_HDF5
#include <hdf5.h>
#endif

namespace golightly {

namespace fs = std::filesystem;

namespace {

std::string num(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}

std::string quoted(const std::string& text) { return "\"" + limits::cap_text(text) + "\""; }

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
        std::string range = lo == hi ? "at " + num(lo) + " um only" : "from " + num(lo) + " to " + num(hi) + " um";
        throw std::invalid_argument(what + ": " + num(at) + " um is outside the wavelengths of " + source + " (" +
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
            throw std::invalid_argument(what + ": the point (" + num(x) + ", " + num(y) +
                                        (m.rank == 4 ? ", " + num(z) : std::string()) + ") um is outside the maps of " +
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
            throw std::invalid_argument(what + ": this far field has theta = " + num(th[0]) + " degrees only (" +
                                        ff.file.string() + ")");
    } else {
        if (theta < th.front() - 1e-6 || theta > th.back() + 1e-6)
            throw std::invalid_argument(what + ": theta = " + num(theta) + " degrees is outside " + num(th.front()) +
                                        " to " + num(th.back()) + " (" + ff.file.string() + ")");
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

bool is_mode_quantity(ObjectiveQuantity q) {
    return q == ObjectiveQuantity::ModePower || q == ObjectiveQuantity::ModeRe || q == ObjectiveQuantity::ModeIm ||
           q == ObjectiveQuantity::ModePhase || q == ObjectiveQuantity::ModeNeff;
}
bool is_s_quantity(ObjectiveQuantity q) {
    return q == ObjectiveQuantity::SPower || q == ObjectiveQuantity::SAbs || q == ObjectiveQuantity::SPhase ||
           q == ObjectiveQuantity::SRe || q == ObjectiveQuantity::SIm || q == ObjectiveQuantity::SdB;
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

std::string s_name(int i, int j, int n) {
    return n > 9 ? "S" + std::to_string(i) + "_" + std::to_string(j) : "S" + std::to_string(i) + std::to_string(j);
}

}  // namespace

// ------------------------------------------------------------------ the catalogue

std::vector<ObjectiveFunction> objective_functions(const Project& project, const std::string& expression,
                                                   const std::string& file_label) {
    std::vector<ObjectiveFunction> out;
    std::set<std::string> taken;
    auto add = [&](ObjectiveFunction f) {
        if (!valid_parameter_name(f.name) || taken.count(f.name)) return;
        taken.insert(f.name);
        out.push_back(std::move(f));
    };
    std::vector<const Monitor*> flux;
    for (const auto& m : project.monitors)
        if (m.type == MonitorType::Flux || m.type == MonitorType::FluxBox) flux.push_back(&m);
    for (const Monitor* m : flux) add({.name = m->name, .quantity = ObjectiveQuantity::Flux, .monitor = m->name});
    for (const Monitor* m : flux)
        add({.name = m->name + "_flux", .quantity = ObjectiveQuantity::FluxRaw, .monitor = m->name});
    for (std::size_t i = 0; i < project.monitors.size(); ++i) {
        const Monitor& m = project.monitors[i];
        if (m.type != MonitorType::Flux || m.kind != "mode") continue;
        std::vector<int> modes = {0};
        try {
            modes = parse_mode_list(m.extra, "monitors[" + std::to_string(i) + "]", file_label);
        } catch (const std::exception&) {
        }
        for (int k : modes) {
            const std::string p = m.name + "_m" + std::to_string(k);
            for (bool fwd : {true, false}) {
                const std::string d = fwd ? "_fwd" : "_bwd";
                const std::pair<const char*, ObjectiveQuantity> kinds[] = {{"_power", ObjectiveQuantity::ModePower},
                                                                           {"_re", ObjectiveQuantity::ModeRe},
                                                                           {"_im", ObjectiveQuantity::ModeIm},
                                                                           {"_phase", ObjectiveQuantity::ModePhase}};
                for (const auto& [suffix, q] : kinds)
                    add({.name = p + d + suffix, .quantity = q, .monitor = m.name, .mode = k, .forward = fwd});
            }
            add({.name = p + "_neff", .quantity = ObjectiveQuantity::ModeNeff, .monitor = m.name, .mode = k});
        }
    }
    if (project.extra.contains("ports")) {
        std::size_t n = 0;
        try {
            n = port_modes(parse_ports(project, file_label)).size();
        } catch (const std::exception&) {
        }
        const std::pair<const char*, ObjectiveQuantity> kinds[] = {
            {"", ObjectiveQuantity::SPower}, {"_abs", ObjectiveQuantity::SAbs}, {"_phase", ObjectiveQuantity::SPhase},
            {"_re", ObjectiveQuantity::SRe}, {"_im", ObjectiveQuantity::SIm},   {"_dB", ObjectiveQuantity::SdB}};
        for (const auto& [suffix, q] : kinds)
            for (std::size_t i = 1; i <= n; ++i)
                for (std::size_t j = 1; j <= n; ++j) {
                    const std::string s = s_name(int(i), int(j), int(n));
                    add({.name = s + suffix, .quantity = q, .monitor = s, .receive = int(i), .excite = int(j)});
                }
    }
    for (const auto& m : project.monitors) {
        if (m.type != MonitorType::DftField) continue;
        add({.name = m.name + "_intensity", .quantity = ObjectiveQuantity::Intensity, .monitor = m.name});
        add({.name = m.name + "_intensity_mean", .quantity = ObjectiveQuantity::IntensityMean, .monitor = m.name});
    }
    if (!expression.empty()) {
        static const std::regex far(R"(([A-Za-z_][A-Za-z0-9_]*)_(U|D)_([0-9]{1,3})_([0-9]{1,3}))");
        for (std::sregex_iterator it(expression.begin(), expression.end(), far), end; it != end; ++it) {
            const std::smatch& mt = *it;
            if (mt.position(0) > 0) {  // a whole identifier only
                const char c = expression[std::size_t(mt.position(0)) - 1];
                if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') continue;
            }
            const std::string mon = mt[1].str();
            const auto m = std::find_if(project.monitors.begin(), project.monitors.end(),
                                        [&](const Monitor& x) { return x.name == mon && x.far_field.has_value(); });
            if (m == project.monitors.end()) continue;
            add({.name = mt[0].str(),
                 .quantity = mt[2].str() == "U" ? ObjectiveQuantity::FarFieldU : ObjectiveQuantity::FarFieldD,
                 .monitor = mon,
                 .theta_deg = std::stod(mt[3].str()),
                 .phi_deg = std::stod(mt[4].str())});
        }
    }
    return out;
}

// ------------------------------------------------------------------ parsing

ObjectiveSpec parse_objective(const std::string& text_in, const std::vector<std::pair<std::string, double>>& variables) {
    ObjectiveSpec spec;
    spec.text = text_in;
    const std::string text = trim(text_in);
    const std::string where = "objective " + quoted(text_in) + ": ";
    if (text.empty()) throw std::invalid_argument(where + "the expression is empty");
    spec.expression = text;
    const std::pair<const char*, ObjectiveSpec::Combine> heads[] = {{"mean", ObjectiveSpec::Combine::Mean},
                                                                    {"sum", ObjectiveSpec::Combine::Sum},
                                                                    {"min", ObjectiveSpec::Combine::Min},
                                                                    {"max", ObjectiveSpec::Combine::Max}};
    for (const auto& [head, combine] : heads) {
        const std::string h = head;
        if (text.rfind(h, 0) != 0) continue;
        std::size_t open = h.size();
        while (open < text.size() && (text[open] == ' ' || text[open] == '\t')) ++open;
        if (open >= text.size() || text[open] != '(' || text.back() != ')') continue;
        // the parenthesis must close at the end of the text
        int depth = 0;
        std::size_t close = std::string::npos;
        for (std::size_t i = open; i < text.size(); ++i) {
            if (text[i] == '(') ++depth;
            if (text[i] == ')' && --depth == 0) {
                close = i;
                break;
            }
        }
        if (close != text.size() - 1) continue;
        const std::string inner = text.substr(open + 1, close - open - 1);
        // the first top-level ", NAME=" (not "==") starts the wavelengths
        depth = 0;
        std::size_t split = std::string::npos;
        for (std::size_t i = 0; i < inner.size() && split == std::string::npos; ++i) {
            if (inner[i] == '(') ++depth;
            if (inner[i] == ')') --depth;
            if (depth != 0 || inner[i] != ',') continue;
            std::size_t k = i + 1;
            while (k < inner.size() && inner[k] == ' ') ++k;
            std::size_t e = k;
            while (e < inner.size() && (std::isalnum(static_cast<unsigned char>(inner[e])) || inner[e] == '_')) ++e;
            std::size_t q = e;
            while (q < inner.size() && inner[q] == ' ') ++q;
            if (e > k && q < inner.size() && inner[q] == '=' && (q + 1 >= inner.size() || inner[q + 1] != '=')) split = i;
        }
        if (split == std::string::npos) continue;  // muparser's own min(a, b) / sum(a, b, ...)
        const std::string expr = trim(inner.substr(0, split)), assignment = trim(inner.substr(split + 1));
        const std::string name = trim(assignment.substr(0, assignment.find('=')));
        if (expr.empty()) throw std::invalid_argument(where + "the expression before " + name + "= is empty");
        if (!valid_parameter_name(name))
            throw std::invalid_argument(where + quoted(name) + " is not a valid variable name");
        for (const auto& [v, value] : variables)
            if (v == name)
                throw std::invalid_argument(where + "the wavelength variable " + quoted(name) +
                                            " is a parameter of the project; name it otherwise (e.g. wl_)");
        SweepParameter list;
        try {
            list = parse_sweep_parameter(assignment, variables);
        } catch (const std::invalid_argument& e) {
            std::string msg = e.what();
            if (msg.rfind("--param ", 0) == 0) msg = msg.substr(8);
            throw std::invalid_argument(where + "the wavelengths " + msg);
        }
        for (double w : list.values)
            if (!(w > 0) || !std::isfinite(w))
                throw std::invalid_argument(where + num(w) + " is not a wavelength (um, > 0)");
        spec.combine = combine;
        spec.expression = expr;
        spec.variable = name;
        spec.wavelengths_um = list.values;
        break;
    }
    return spec;
}

// ------------------------------------------------------------------ results

struct ObjectiveResults::Cache {
    std::optional<Table> spectra, sparams;
    std::map<std::string, FieldMaps> fields;
    std::map<std::string, FarField> far;
};

ObjectiveResults::ObjectiveResults(fs::path dir) : dir_(std::move(dir)), cache_(std::make_unique<Cache>()) {}
ObjectiveResults::~ObjectiveResults() = default;

double ObjectiveResults::read(const ObjectiveFunction& f, double wl) {
    const std::string what = f.name + "(" + num(wl) + ")";
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

// ------------------------------------------------------------------ evaluation

namespace {

/// Evaluates one expression (one f_k), recording the terms it reads.
struct TermRecorder {
    const std::vector<ObjectiveFunction>* functions = nullptr;
    std::function<double(const ObjectiveFunction&, double)> read;
    std::vector<std::size_t> fn;     ///< per term: index into *functions
    std::vector<double> wl, value;   ///< per term
    bool recording = true;
    std::ptrdiff_t perturb = -1;
    double delta = 0;

    double call(std::size_t f, double w) {
        for (std::size_t t = 0; t < fn.size(); ++t)
            if (fn[t] == f && wl[t] == w) return value[t] + (std::ptrdiff_t(t) == perturb ? delta : 0.0);
        const double v = read((*functions)[f], w);
        if (recording) {
            fn.push_back(f);
            wl.push_back(w);
            value.push_back(v);
        }
        return v;
    }
    std::vector<std::pair<std::string, std::function<double(double)>>> bindings() {
        std::vector<std::pair<std::string, std::function<double(double)>>> list;
        for (std::size_t f = 0; f < functions->size(); ++f)
            list.emplace_back((*functions)[f].name, [this, f](double w) { return call(f, w); });
        return list;
    }
};

std::string function_list(const std::vector<ObjectiveFunction>& functions) {
    std::string known;
    for (const auto& f : functions) known += (known.empty() ? "" : ", ") + f.name;
    return known.empty() ? std::string("none") : limits::cap_text(known, 600);
}

bool non_finite_message(const std::string& m) {
    return m.rfind("division by zero", 0) == 0 || m.rfind("the value is not a number", 0) == 0;
}

/// Evaluates f_k (or the plain expression) and, with `derivatives`, d f_k / d term.
struct Local {
    double value = 0;
    std::vector<std::size_t> fn;
    std::vector<double> wl, term_value, derivative;
};

Local evaluate_one(const std::string& expression, const std::vector<ObjectiveFunction>& functions,
                   const std::function<double(const ObjectiveFunction&, double)>& read,
                   const std::vector<std::pair<std::string, double>>& variables, bool derivatives) {
    TermRecorder rec;
    rec.functions = &functions;
    rec.read = read;
    const auto list = rec.bindings();
    Local out;
    out.value = evaluate_expression(expression, variables, list);
    out.fn = rec.fn;
    out.wl = rec.wl;
    out.term_value = rec.value;
    out.derivative.assign(rec.fn.size(), 0.0);
    if (!derivatives) return out;
    rec.recording = false;
    for (std::size_t t = 0; t < rec.fn.size(); ++t) {
        const double v = rec.value[t];
        const double h = v != 0 ? 1e-6 * std::fabs(v) : 1e-8;
        double fp = 0, fm = 0;
        try {
            rec.perturb = std::ptrdiff_t(t);
            rec.delta = h;
            fp = evaluate_expression(expression, variables, list);
            rec.delta = -h;
            fm = evaluate_expression(expression, variables, list);
            out.derivative[t] = (fp - fm) / (2 * h);
        } catch (const std::invalid_argument&) {
            out.derivative[t] = std::nan("");  // the expression is not finite next to this value
        }
    }
    return out;
}

std::vector<std::pair<std::string, double>> with_variable(std::vector<std::pair<std::string, double>> variables,
                                                          const std::string& name, double value) {
    variables.emplace_back(name, value);
    return variables;
}

}  // namespace

ObjectiveEvaluation evaluate_objective(const ObjectiveSpec& spec, const std::vector<ObjectiveFunction>& functions,
                                       ObjectiveResults& results,
                                       const std::vector<std::pair<std::string, double>>& variables, bool derivatives) {
    const auto read = [&results](const ObjectiveFunction& f, double wl) { return results.read(f, wl); };
    ObjectiveEvaluation ev;
    auto add_terms = [&](const Local& l, int k, double weight) {
        for (std::size_t t = 0; t < l.fn.size(); ++t) {
            ObjectiveTerm term;
            term.function = functions[l.fn[t]];
            term.wavelength_um = l.wl[t];
            term.value = l.term_value[t];
            term.wavelength_index = k;
            term.local_derivative = l.derivative[t];
            term.derivative = weight * l.derivative[t];
            ev.terms.push_back(std::move(term));
        }
    };
    if (spec.combine == ObjectiveSpec::Combine::None) {
        const Local l = evaluate_one(spec.expression, functions, read, variables, derivatives);
        ev.value = l.value;
        add_terms(l, -1, 1.0);
        return ev;
    }
    std::vector<Local> locals;
    for (double w : spec.wavelengths_um) {
        locals.push_back(evaluate_one(spec.expression, functions, read, with_variable(variables, spec.variable, w),
                                      derivatives));
        ev.per_wavelength.push_back(locals.back().value);
    }
    const std::size_t n = locals.size();
    using C = ObjectiveSpec::Combine;
    if (spec.combine == C::Mean || spec.combine == C::Sum) {
        double s = 0;
        for (double v : ev.per_wavelength) s += v;
        const double weight = spec.combine == C::Mean ? 1.0 / double(n) : 1.0;
        ev.value = s * weight;
        for (std::size_t k = 0; k < n; ++k) add_terms(locals[k], int(k), weight);
    } else {
        std::size_t best = 0;
        for (std::size_t k = 1; k < n; ++k)
            if (spec.combine == C::Min ? ev.per_wavelength[k] < ev.per_wavelength[best]
                                       : ev.per_wavelength[k] > ev.per_wavelength[best])
                best = k;
        ev.value = ev.per_wavelength[best];
        ev.active = int(best);
        for (std::size_t k = 0; k < n; ++k) add_terms(locals[k], int(k), k == best ? 1.0 : 0.0);
    }
    return ev;
}

void check_objective(const ObjectiveSpec& spec, const std::vector<ObjectiveFunction>& functions, const Project& project,
                     const std::vector<std::pair<std::string, double>>& variables) {
    objective_terms(spec, functions, project, variables);
}

std::vector<ObjectiveTerm> objective_terms(const ObjectiveSpec& spec, const std::vector<ObjectiveFunction>& functions,
                                           const Project& project,
                                           const std::vector<std::pair<std::string, double>>& variables) {
    std::vector<ObjectiveTerm> terms;
    const double lo = project.run.spectrum.wavelength_min, hi = project.run.spectrum.wavelength_max;
    const auto read = [&](const ObjectiveFunction& f, double wl) {
        const bool spectral = f.quantity == ObjectiveQuantity::Flux || f.quantity == ObjectiveQuantity::FluxRaw ||
                              is_mode_quantity(f.quantity) || is_s_quantity(f.quantity);
        const double eps = 1e-9 * hi;
        if (spectral && !(wl >= lo - eps && wl <= hi + eps))
            throw std::invalid_argument(f.name + "(" + num(wl) + "): " + num(wl) + " um is outside the run's spectrum (" +
                                        num(lo) + " to " + num(hi) + " um)");
        return 0.5;  // no results yet: any value in (0, 1)
    };
    const std::string where = "objective " + quoted(spec.text) + ": ";
    // The terms are taken as read (a non-finite value of the placeholders still read them).
    int k = -1;
    const auto record = [&](const ObjectiveFunction& f, double wl) {
        const double v = read(f, wl);
        const bool seen = std::any_of(terms.begin(), terms.end(), [&](const ObjectiveTerm& t) {
            return t.function.name == f.name && t.wavelength_um == wl && t.wavelength_index == k;
        });
        if (!seen) {
            ObjectiveTerm t;
            t.function = f;
            t.wavelength_um = wl;
            t.wavelength_index = k;
            terms.push_back(std::move(t));
        }
        return v;
    };
    auto one = [&](const std::vector<std::pair<std::string, double>>& vars) {
        try {
            evaluate_one(spec.expression, functions, record, vars, false);
        } catch (const std::invalid_argument& e) {
            if (non_finite_message(e.what())) return;  // the placeholder values, not the expression
            throw std::invalid_argument(where + e.what() + " (monitor functions: " + function_list(functions) + ")");
        }
    };
    if (spec.combine == ObjectiveSpec::Combine::None) {
        one(variables);
    } else {
        for (std::size_t w = 0; w < spec.wavelengths_um.size(); ++w) {
            k = int(w);
            one(with_variable(variables, spec.variable, spec.wavelengths_um[w]));
        }
    }
    return terms;
}

}  // namespace golightly
