// GoLightly results folder writer (results.hpp).
#include "golightly/results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "golightly/atomic_file.hpp"
#include "golightly/units.hpp"
#include "golightly/version.hpp"

#ifdef GOLIGHTLY_HAVE_HDF5
#include <hdf5.h>
#endif

namespace golightly {

namespace fs = std::filesystem;

std::string sanitize_file_name(const std::string& name) {
    std::string s = name.empty() ? std::string("unnamed") : name;
    for (char& c : s) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '_' || c == '-';
        if (!ok) c = '_';
    }
    if (s == "." || s == "..") s = "_";
    return s;
}

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string fmt(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

/// JSON number, or null for NaN / Inf (JSON has neither).
Json jnum(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + "\"";
}

void write_spectra(const fs::path& dir, const RunResult& r) {
    std::vector<std::size_t> order(r.frequency_hz.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return r.frequency_hz[a] < r.frequency_hz[b]; });
    std::ostringstream out;
    out << "wavelength_um,frequency_thz";
    for (const auto& s : r.spectra) out << ',' << csv_field(s.name);
    for (const auto& s : r.spectra) out << ',' << csv_field(s.name + "_flux");
    for (const auto& m : r.mode_coefficients) {  // spec "Mode sources and monitors"
        const std::string p = m.name + "_m" + std::to_string(m.mode_index);
        for (const char* c : {"_fwd_re", "_fwd_im", "_bwd_re", "_bwd_im", "_neff"}) out << ',' << csv_field(p + c);
    }
    out << '\n';
    for (std::size_t idx : order) {
        const double f = r.frequency_hz[idx];
        out << fmt(units::hz_to_wavelength_um(f)) << ',' << fmt(f / 1e12);
        for (const auto& s : r.spectra) {
            const auto& v = s.normalized.empty() ? s.flux : s.normalized;
            out << ',' << (idx < v.size() ? fmt(v[idx]) : std::string("nan"));
        }
        for (const auto& s : r.spectra) out << ',' << (idx < s.flux.size() ? fmt(s.flux[idx]) : std::string("nan"));
        for (const auto& m : r.mode_coefficients) {
            if (idx >= m.fwd.size()) {
                out << ",nan,nan,nan,nan,nan";
                continue;
            }
            out << ',' << fmt(m.fwd[idx].real()) << ',' << fmt(m.fwd[idx].imag()) << ',' << fmt(m.bwd[idx].real()) << ','
                << fmt(m.bwd[idx].imag()) << ',' << fmt(m.n_eff[idx]);
        }
        out << '\n';
    }
    write_file_atomic(dir / "spectra.csv", out.str());
}

void write_time_series(const fs::path& dir, const RunResult& r) {
    if (r.time_series.empty()) return;
    fs::create_directories(dir / "monitors");
    for (const auto& ts : r.time_series) {
        std::ostringstream out;
        out << "time_fs," << csv_field(ts.name) << '\n';
        for (std::size_t n = 0; n < ts.values.size(); ++n) out << fmt(ts.time_fs[n]) << ',' << fmt(ts.values[n]) << '\n';
        write_file_atomic(dir / "monitors" / (sanitize_file_name(ts.name) + ".csv"), out.str());
    }
}

/// resonances/<monitor>.csv: one row per mode (project-format.md "Resonances"); Q is
/// written "inf" for a mode with no decay.
void write_resonances(const fs::path& dir, const RunResult& r) {
    if (r.resonances.empty()) return;
    fs::create_directories(dir / "resonances");
    for (const ResonanceResult& rr : r.resonances) {
        std::ostringstream out;
        out << "frequency_thz,wavelength_um,q,decay_per_fs,amplitude,phase_rad,error\n";
        for (const Resonance& m : rr.modes)
            out << fmt(m.frequency_hz * 1e-12) << ',' << fmt(m.wavelength_um) << ','
                << (std::isfinite(m.q) ? fmt(m.q) : std::string(m.q > 0 ? "inf" : "-inf")) << ','
                << fmt(m.decay_per_s * 1e-15) << ',' << fmt(m.amplitude) << ',' << fmt(m.phase_rad) << ','
                << fmt(m.error) << '\n';
        write_file_atomic(dir / "resonances" / (sanitize_file_name(rr.name) + ".csv"), out.str());
    }
}

/// far_field/<monitor>.csv (the theta x phi grid per wavelength) and
/// far_field/<monitor>_surface.csv (the equivalent currents, for golightly-cli farfield);
/// project-format.md "Far fields".
void write_far_fields(const fs::path& dir, const RunResult& r) {
    if (r.far_fields.empty()) return;
    fs::create_directories(dir / "far_field");
    for (const FarFieldResult& f : r.far_fields) {
        const bool tfsf = !f.i_inc.empty();
        const double full = f.dimensions == 3 ? 4 * units::pi : 2 * units::pi;  // sr or rad
        const double to_um = f.dimensions == 3 ? 1e12 : 1e6;                   // m^2 -> um^2, m -> um
        std::ostringstream out;
        out << "wavelength_um,theta_deg,phi_deg,intensity,directivity" << (tfsf ? ",dsigma_domega" : "")
            << ",e_theta_re,e_theta_im,e_phi_re,e_phi_im\n";
        for (std::size_t w = 0; w < f.samples.size(); ++w)
            for (const FarFieldSample& x : f.samples[w]) {
                out << fmt(f.wavelength_um[w]) << ',' << fmt(x.theta_rad * 180 / units::pi) << ','
                    << fmt(x.phi_rad * 180 / units::pi) << ',' << fmt(x.intensity) << ','
                    << fmt(f.power[w] > 0 ? full * x.intensity / f.power[w] : 0.0);
                if (tfsf) out << ',' << fmt(f.i_inc[w] > 0 ? x.intensity / f.i_inc[w] * to_um : 0.0);
                out << ',' << fmt(x.e_theta.real()) << ',' << fmt(x.e_theta.imag()) << ',' << fmt(x.e_phi.real())
                    << ',' << fmt(x.e_phi.imag()) << '\n';
            }
        const std::string stem = sanitize_file_name(f.name);
        write_file_atomic(dir / "far_field" / (stem + ".csv"), out.str());
        std::ostringstream sf;
        sf << "# dimensions " << f.dimensions << " polarization " << to_string(f.polarization) << "\n";
        sf << "frequency_hz,x_m,y_m,z_m,ds,jx_re,jx_im,jy_re,jy_im,jz_re,jz_im,mx_re,mx_im,my_re,my_im,mz_re,mz_im\n";
        for (const SurfaceCurrents& sc : f.surfaces)
            for (std::size_t q = 0; q < sc.position_m.size(); ++q) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.12g", sc.frequency_hz);
                sf << buf << ',' << fmt(sc.position_m[q].x) << ',' << fmt(sc.position_m[q].y) << ','
                   << fmt(sc.position_m[q].z) << ',' << fmt(sc.ds[q]);
                for (int a = 0; a < 3; ++a) sf << ',' << fmt(sc.j[q][a].real()) << ',' << fmt(sc.j[q][a].imag());
                for (int a = 0; a < 3; ++a) sf << ',' << fmt(sc.m[q][a].real()) << ',' << fmt(sc.m[q][a].imag());
                sf << '\n';
            }
        write_file_atomic(dir / "far_field" / (stem + "_surface.csv"), sf.str());
    }
}

/// summary.json "far_field": {monitor: {wavelength_um, power, max_directivity, theta_points, phi_points}}.
/// summary.json "bloch" (project-format.md "Bloch-periodic boundaries"): the "bloch" axes,
/// and for an oblique source (angle_deg at centre wavelength lambda_c) the fixed-k angle at
/// each spectrum wavelength, sin(theta) = sin(theta_c) lambda / lambda_c (the Bloch k is the
/// same at every wavelength; null where the wave is evanescent). Null without "bloch" axes.
Json bloch_json(const Project& project, const RunResult& r) {
    const Domain& d = project.domain;
    if (!d.is_bloch(0) && !d.is_bloch(1) && !d.is_bloch(2)) return Json(nullptr);
    Json b = Json::object();
    Json axes = Json::array();
    for (int a = 0; a < 3; ++a)
        if (d.is_bloch(a)) axes.push_back(std::string(1, "xyz"[a]));
    b["axes"] = axes;
    if (d.bloch_k) {
        b["bloch_k"] = Json::array({(*d.bloch_k)[0], (*d.bloch_k)[1], (*d.bloch_k)[2]});
        b["bloch_k_unit"] = d.bloch_k_unit;
    }
    for (const Source& s : project.sources) {
        if (s.angle_deg == 0) continue;
        const double lc = s.waveform.type == WaveformType::GaussianPulse ? s.waveform.wavelength_center
                                                                          : s.waveform.wavelength;
        const double sc = std::sin(s.angle_deg * units::pi / 180);
        b["source"] = s.name;
        b["angle_deg_at_center"] = s.angle_deg;
        b["wavelength_center_um"] = lc;
        Json wl = Json::array(), ang = Json::array();
        for (double f : r.frequency_hz) {
            const double l = units::hz_to_wavelength_um(f), sn = sc * l / lc;
            wl.push_back(jnum(l));
            ang.push_back(std::abs(sn) < 1 ? jnum(std::asin(sn) * 180 / units::pi) : Json(nullptr));
        }
        b["wavelength_um"] = wl;
        b["angle_deg"] = ang;
        break;
    }
    return b;
}

Json far_fields_json(const RunResult& r) {
    Json all = Json::object();
    for (const FarFieldResult& f : r.far_fields) {
        const double full = f.dimensions == 3 ? 4 * units::pi : 2 * units::pi;
        Json wl = Json::array(), pw = Json::array(), dmax = Json::array();
        for (std::size_t w = 0; w < f.samples.size(); ++w) {
            double umax = 0;
            for (const FarFieldSample& x : f.samples[w]) umax = std::max(umax, x.intensity);
            wl.push_back(jnum(f.wavelength_um[w]));
            pw.push_back(jnum(f.power[w]));
            dmax.push_back(jnum(f.power[w] > 0 ? full * umax / f.power[w] : 0.0));
        }
        all[f.name] = {{"wavelength_um", wl}, {"power", pw}, {"max_directivity", dmax},
                       {"theta_points", f.n_theta}, {"phi_points", f.n_phi}};
    }
    return all;
}

/// diffraction/<monitor>.csv: one row per propagating Floquet order per spectrum point;
/// project-format.md "Diffraction monitors".
void write_diffraction(const fs::path& dir, const RunResult& r) {
    if (r.diffraction.empty()) return;
    fs::create_directories(dir / "diffraction");
    for (const DiffractionResult& d : r.diffraction) {
        std::ostringstream out;
        out << "wavelength_um,order_x,order_y,order_z,theta_deg,phi_deg,power_fraction,power_s_fraction,"
               "power_p_fraction,kx_per_um,ky_per_um,kz_per_um,power\n";
        for (std::size_t f = 0; f < d.orders.size(); ++f)
            for (std::size_t o = 0; o < d.orders[f].size(); ++o) {
                const FloquetOrder& q = d.orders[f][o];
                const double ref = d.reference_power[f];
                out << fmt(d.wavelength_um[f]) << ',' << q.order[0] << ',' << q.order[1] << ',' << q.order[2] << ','
                    << fmt(q.theta_rad * 180 / units::pi) << ',' << fmt(q.phi_rad * 180 / units::pi) << ','
                    << fmt(d.power_fraction(f, o)) << ',' << fmt(ref != 0 ? q.power_s / ref : 0.0) << ','
                    << fmt(ref != 0 ? q.power_p / ref : 0.0) << ',' << fmt(q.k_per_um[0]) << ','
                    << fmt(q.k_per_um[1]) << ',' << fmt(q.k_per_um[2]) << ',' << fmt(q.power) << '\n';
            }
        write_file_atomic(dir / "diffraction" / (sanitize_file_name(d.name) + ".csv"), out.str());
    }
}

/// summary.json "diffraction": {monitor: {kind, index, normalized, wavelength_um: [...],
/// total: [...] (sum of the propagating orders' power_fraction per wavelength), orders: [...]
/// (the number of propagating orders per wavelength)}}.
Json diffraction_json(const RunResult& r) {
    Json all = Json::object();
    for (const DiffractionResult& d : r.diffraction) {
        Json wl = Json::array(), total = Json::array(), count = Json::array();
        for (std::size_t f = 0; f < d.orders.size(); ++f) {
            double sum = 0;
            for (std::size_t o = 0; o < d.orders[f].size(); ++o) sum += d.power_fraction(f, o);
            wl.push_back(jnum(d.wavelength_um[f]));
            total.push_back(jnum(sum));
            count.push_back(d.orders[f].size());
        }
        all[d.name] = {{"kind", d.kind},   {"index", jnum(d.index)}, {"normalized", d.normalized},
                       {"wavelength_um", wl}, {"total", total},     {"orders", count}};
    }
    return all;
}

/// summary.json "resonances": {monitor: {t0_fs, samples, band_um, modes: [...]}}.
Json resonances_json(const RunResult& r) {
    Json all = Json::object();
    for (const ResonanceResult& rr : r.resonances) {
        Json modes = Json::array();
        for (const Resonance& m : rr.modes)
            modes.push_back({{"frequency_thz", jnum(m.frequency_hz * 1e-12)},
                             {"wavelength_um", jnum(m.wavelength_um)},
                             {"q", std::isfinite(m.q) ? jnum(m.q) : Json(m.q > 0 ? "inf" : "-inf")},
                             {"decay_per_fs", jnum(m.decay_per_s * 1e-15)},
                             {"amplitude", jnum(m.amplitude)},
                             {"phase_rad", jnum(m.phase_rad)},
                             {"error", jnum(m.error)}});
        all[rr.name] = {{"t0_fs", jnum(rr.t0_fs)},
                        {"samples", rr.samples},
                        {"band_um", Json::array({jnum(rr.wavelength_min_um), jnum(rr.wavelength_max_um)})},
                        {"modes", modes}};
    }
    return all;
}

/// |E|^2 over the monitor's components at its first wavelength, grey, max -> white; 3D:
/// the middle z slice of the region.
Image8 dft_preview(const DftFieldResult& d) {
    Image8 img;
    img.width = d.nx;
    img.height = d.ny;
    img.channels = 1;
    const std::size_t ns = std::size_t(d.nx) * std::size_t(d.ny);
    const std::size_t first = std::size_t(std::max(d.nz, 1) / 2) * ns;  // middle slice of wavelength 0
    std::vector<double> p(ns, 0.0);
    for (const auto& comp : d.values)
        for (std::size_t s = 0; s < ns && first + s < comp.size(); ++s) p[s] += std::norm(comp[first + s]);
    double mx = 0;
    for (double v : p)
        if (std::isfinite(v)) mx = std::max(mx, v);
    img.pixels.resize(ns);
    for (int j = 0; j < d.ny; ++j)
        for (int i = 0; i < d.nx; ++i) {
            const double v = p[std::size_t(j) * d.nx + i];
            const double t = (mx > 0 && std::isfinite(v)) ? v / mx : 0.0;
            img.pixels[std::size_t(d.ny - 1 - j) * d.nx + i] = std::uint8_t(std::lround(255.0 * std::clamp(t, 0.0, 1.0)));
        }
    return img;
}

#ifdef GOLIGHTLY_HAVE_HDF5
void write_attr(hid_t obj, const char* name, const std::vector<double>& v) {
    const hsize_t n = v.size();
    const hid_t space = H5Screate_simple(1, &n, nullptr);
    const hid_t attr = H5Acreate2(obj, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t st = -1;
    if (attr >= 0) {
        st = H5Awrite(attr, H5T_NATIVE_DOUBLE, v.data());
        H5Aclose(attr);
    }
    H5Sclose(space);
    if (st < 0) throw std::runtime_error(std::string("HDF5: cannot write attribute ") + name);
}

/// fields/<name>.h5: datasets "<comp>.r"/"<comp>.i", [n_wavelengths][ny][nx] float64 (2D)
/// or [n_wavelengths][nz][ny][nx] (3D: nz > 1 or a 3D run's plane).
void write_h5(const fs::path& file, const DftFieldResult& d) {
    const fs::path tmp = file.string() + ".tmp";
    const hid_t h5 = H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (h5 < 0) throw std::runtime_error(file.string() + ": cannot create the HDF5 file");
    bool ok = true;
    try {
        const bool three = d.dimensions == 3;
        const hsize_t dims3[3] = {hsize_t(d.frequency_hz.size()), hsize_t(d.ny), hsize_t(d.nx)};
        const hsize_t dims4[4] = {hsize_t(d.frequency_hz.size()), hsize_t(d.nz), hsize_t(d.ny), hsize_t(d.nx)};
        const int rank = three ? 4 : 3;
        const hsize_t* dims = three ? dims4 : dims3;
        const std::size_t total = std::size_t(dims[0] * dims[1] * dims[2] * (three ? dims[3] : 1));
        std::vector<double> part(total);
        for (std::size_t c = 0; c < d.components.size() && c < d.values.size(); ++c) {
            const std::string base = lower(to_string(d.components[c]));
            for (int ri = 0; ri < 2; ++ri) {
                for (std::size_t k = 0; k < total && k < d.values[c].size(); ++k)
                    part[k] = ri == 0 ? d.values[c][k].real() : d.values[c][k].imag();
                const std::string name = base + (ri == 0 ? ".r" : ".i");
                const hid_t space = H5Screate_simple(rank, dims, nullptr);
                const hid_t ds = H5Dcreate2(h5, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
                herr_t st = -1;
                if (ds >= 0) {
                    st = H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, part.data());
                    H5Dclose(ds);
                }
                H5Sclose(space);
                if (st < 0) throw std::runtime_error(file.string() + ": cannot write dataset " + name);
            }
        }
        write_attr(h5, "wavelengths_um", d.wavelength_um);
        write_attr(h5, "frequencies_hz", d.frequency_hz);
        write_attr(h5, "dx_um", {d.dx_um});
        if (three) write_attr(h5, "origin", {d.origin_um.x, d.origin_um.y, d.origin_z_um});
        else write_attr(h5, "origin", {d.origin_um.x, d.origin_um.y});
    } catch (...) {
        ok = false;
        H5Fclose(h5);
        std::error_code ec;
        fs::remove(tmp, ec);
        throw;
    }
    if (H5Fclose(h5) < 0) ok = false;
    std::error_code ec;
    if (ok) fs::rename(tmp, file, ec);
    if (!ok || ec) {
        fs::remove(tmp, ec);
        throw std::runtime_error(file.string() + ": cannot finish the HDF5 file");
    }
}
#endif

Json base_summary(const Project& project) {
    Json j = Json::object();
    j["version"] = kVersion;
    j["commit"] = kGitCommit;
    j["project"] = project.name;
    return j;
}

}  // namespace

std::vector<std::string> write_results(const fs::path& dir, const Project& project, const RunResult& r,
                                       const std::vector<std::string>& extra_warnings) {
    std::vector<std::string> own;
    fs::create_directories(dir);
    write_spectra(dir, r);
    write_time_series(dir, r);
    write_resonances(dir, r);
    write_far_fields(dir, r);
    write_diffraction(dir, r);

    fs::create_directories(dir / "fields");
    for (const auto& d : r.dft_fields) {
        const std::string stem = sanitize_file_name(d.name);
#ifdef GOLIGHTLY_HAVE_HDF5
        write_h5(dir / "fields" / (stem + ".h5"), d);
#else
        own.push_back("dft_field monitor '" + d.name + "': HDF5 support is not compiled in, no " + stem + ".h5 written");
#endif
        if (d.nx > 0 && d.ny > 0 && !d.frequency_hz.empty()) write_png(dir / "fields" / (stem + ".png"), dft_preview(d));
    }
    if (r.final_frame.width > 0 && r.final_frame.height > 0) write_png(dir / "fields" / "final_frame.png", r.final_frame);

    Json j = base_summary(project);
    j["steps"] = r.steps;
    j["time_fs"] = jnum(r.time_fs);
    j["wall_s"] = jnum(r.wall_s);
    j["cells"] = r.cells;
    if (r.symmetry != std::array<int, 3>{0, 0, 0}) {
        j["symmetry"] = {r.symmetry[0], r.symmetry[1], r.symmetry[2]};
        j["simulated_cells"] = r.simulated_cells;
    }
    j["dimensions"] = r.dimensions;
    j["mcells_per_s"] = jnum(r.mcells_per_s);
    j["backend"] = r.backend;
    j["device"] = r.device;
    if (!r.kernel.empty()) j["kernel"] = r.kernel;
    if (!r.subdomains.empty()) {  // project-format.md "Runs on several GPUs and hosts"
        Json devs = Json::array(), subs = Json::array();
        for (const std::string& d : r.devices) devs.push_back(d);
        for (const SubdomainInfo& sd : r.subdomains) {
            Json o;
            o["rank"] = sd.rank;
            o["device"] = sd.device;
            o["min_cell"] = Json::array({sd.min_cell[0], sd.min_cell[1], sd.min_cell[2]});
            o["max_cell"] = Json::array({sd.max_cell[0], sd.max_cell[1], sd.max_cell[2]});
            subs.push_back(o);
        }
        j["devices"] = devs;
        j["subdomains"] = subs;
    }
    if (!r.halo_mode.empty()) j["halo_exchange"] = Json{{"transport", r.halo_transport}, {"mode", r.halo_mode}};
    j["precision"] = to_string(r.precision);
    j["stop_reason"] = to_string(r.stop_reason);
    if (!r.resonances.empty()) j["resonances"] = resonances_json(r);
    if (!r.far_fields.empty()) j["far_field"] = far_fields_json(r);
    if (!r.diffraction.empty()) j["diffraction"] = diffraction_json(r);
    if (Json b = bloch_json(project, r); !b.is_null()) j["bloch"] = b;
    Json w = Json::array();
    for (const auto& s : r.warnings) w.push_back(s);
    for (const auto& s : extra_warnings) w.push_back(s);
    for (const auto& s : own) w.push_back(s);
    j["warnings"] = w;
    Json n = Json::object();
    n["enabled"] = project.run.normalization.enabled;
    n["ran"] = r.normalized;
    if (r.tfsf_cross_sections) n["tfsf_cross_sections"] = true;
    if (!r.incident_monitor.empty()) n["incident_monitor"] = r.incident_monitor;
    if (r.reference_stop_reason) {
        n["reference_steps"] = r.reference_steps;
        n["reference_wall_s"] = jnum(r.reference_wall_s);
        n["reference_stop_reason"] = to_string(*r.reference_stop_reason);
    }
    j["normalization"] = n;
    // GoLightly extension (live edit, issue 5): edits applied to the running main run.
    j["live_edits"] = r.live_edits;
    if (r.live_edits > 0)
        j["live_edit_note"] = "spectra not comparable: the structure was edited during the run";
    if (r.divergence) {
        const auto& d = *r.divergence;
        j["divergence"] = {{"phase", d.phase},           {"step", d.step},
                           {"time_fs", jnum(d.time_fs)}, {"component", to_string(d.component)},
                           {"cell", r.dimensions == 3 ? Json{d.i, d.j, d.k} : Json{d.i, d.j}},
                           {"position_um", r.dimensions == 3 ? Json{jnum(d.x_um), jnum(d.y_um), jnum(d.z_um)}
                                                             : Json{jnum(d.x_um), jnum(d.y_um)}},
                           {"nonfinite_values", d.nonfinite_values},
                           {"max_abs_finite", jnum(d.max_abs_finite)}};
        // GoLightly extension (issue 49, "divergence explained"): how it was detected, the
        // cell box of the growing fields, the region and the likely cause.
        Json& dj = j["divergence"];
        const bool three = r.dimensions == 3;
        dj["detected_by"] = d.detected_by;
        if (d.energy_growth > 0) dj["energy_growth"] = jnum(d.energy_growth);
        if (d.box_max[0] >= d.box_min[0]) {
            dj["cell_box"] = {{"min", three ? Json{d.box_min[0], d.box_min[1], d.box_min[2]} : Json{d.box_min[0], d.box_min[1]}},
                              {"max", three ? Json{d.box_max[0], d.box_max[1], d.box_max[2]} : Json{d.box_max[0], d.box_max[1]}}};
            dj["box_um"] = {{"min", three ? Json{jnum(d.box_min_um[0]), jnum(d.box_min_um[1]), jnum(d.box_min_um[2])}
                                          : Json{jnum(d.box_min_um[0]), jnum(d.box_min_um[1])}},
                            {"max", three ? Json{jnum(d.box_max_um[0]), jnum(d.box_max_um[1]), jnum(d.box_max_um[2])}
                                          : Json{jnum(d.box_max_um[0]), jnum(d.box_max_um[1])}}};
        }
        dj["region"] = {{"kind", d.region_kind}, {"name", d.region_name}, {"layer", d.layer}, {"material", d.material}};
        dj["cause"] = d.cause;
        dj["cause_text"] = d.cause_text;
    }
    write_file_atomic(dir / "summary.json", j.dump(2) + "\n");
    return own;
}

void write_failure_summary(const fs::path& dir, const Project& project, const std::string& error,
                           const std::vector<std::string>& warnings) {
    fs::create_directories(dir);
    Json j = base_summary(project);
    j["steps"] = 0;
    j["time_fs"] = 0.0;
    j["wall_s"] = 0.0;
    j["cells"] = 0;
    j["mcells_per_s"] = 0.0;
    j["backend"] = "";
    j["device"] = "";
    j["precision"] = to_string(project.run.precision);
    j["stop_reason"] = "failed";
    j["error"] = error;
    Json w = Json::array();
    for (const auto& s : warnings) w.push_back(s);
    j["warnings"] = w;
    write_file_atomic(dir / "summary.json", j.dump(2) + "\n");
}

}  // namespace golightly
