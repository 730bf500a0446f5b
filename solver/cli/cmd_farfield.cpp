// golightly-cli farfield (cmd_farfield.hpp).
#include "cmd_farfield.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "golightly/cuda_device.hpp"
#include "golightly/cuda_far_field.hpp"
#include "golightly/engine.hpp"
#include "golightly/far_field.hpp"
#include "golightly/units.hpp"

namespace fs = std::filesystem;

namespace golightly::cli {

namespace {

constexpr int kExitOk = 0, kExitUsage = 1;

/// "a,b,c" or "START:STOP:POINTS" (both ends included) in degrees; false when malformed.
bool parse_angles(const std::string& text, std::vector<double>& out) {
    out.clear();
    try {
        if (text.find(':') != std::string::npos) {
            std::stringstream ss(text);
            std::string a, b, n;
            std::getline(ss, a, ':');
            std::getline(ss, b, ':');
            std::getline(ss, n, ':');
            const double lo = std::stod(a), hi = std::stod(b);
            const int pts = std::stoi(n);
            if (pts < 1 || pts > 100000) return false;
            for (int i = 0; i < pts; ++i) out.push_back(pts == 1 ? lo : lo + (hi - lo) * i / (pts - 1));
            return true;
        }
        std::stringstream ss(text);
        std::string item;
        while (std::getline(ss, item, ',')) out.push_back(std::stod(item));
    } catch (const std::exception&) {
        return false;
    }
    return !out.empty();
}

}  // namespace

FarFieldCommand* add_farfield_command(CLI::App& app) {
    static FarFieldCommand c;
    c.sub = app.add_subcommand("farfield", "Project a flux_box's saved surface fields to the far zone in any directions");
    c.sub->add_option("RESULTS", c.results, "Results folder of `run`, or a far_field/<name>_surface.csv")->required();
    c.sub->add_option("--monitor", c.monitor, "The flux_box monitor (needed with a results folder of several)");
    c.sub->add_option("--theta", c.theta, "Polar angles, degrees: a,b,c or START:STOP:POINTS (default 0:180:37; 3D)");
    c.sub->add_option("--phi", c.phi, "Azimuths from +x, degrees: a,b,c or START:STOP:POINTS (default 0)");
    c.sub->add_option("--wavelength", c.wavelength_um, "Only the saved wavelength nearest this, um")
        ->check(CLI::PositiveNumber);
    c.sub->add_flag("--json", c.json, "Print one JSON object");
    c.sub->add_option("--backend", c.backend, "Where the projection's sums run: auto (the GPU for large jobs), cpu, cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    return &c;
}

int run_farfield_command(const FarFieldCommand& c) {
    fs::path file(c.results);
    std::error_code ec;
    if (fs::is_directory(file, ec)) {
        std::vector<fs::path> found;
        if (fs::is_directory(file / "far_field", ec))
            for (const auto& e : fs::directory_iterator(file / "far_field")) {
                const std::string n = e.path().filename().string();
                if (n.size() > 12 && n.substr(n.size() - 12) == "_surface.csv" &&
                    (c.monitor.empty() || n == c.monitor + "_surface.csv"))
                    found.push_back(e.path());
            }
        if (found.size() != 1) {
            std::fprintf(stderr, "error: %s: %s\n", file.string().c_str(),
                         found.empty() ? "no far_field/<monitor>_surface.csv (no flux_box with far_field, or no such --monitor)"
                                       : "several far fields: name one with --monitor");
            return kExitUsage;
        }
        file = found[0];
    }
    std::ifstream in(file);
    if (!in) {
        std::fprintf(stderr, "error: %s: cannot be read\n", file.string().c_str());
        return kExitUsage;
    }
    std::vector<double> thetas, phis;
    if (!parse_angles(c.theta, thetas) || !parse_angles(c.phi, phis)) {
        std::fprintf(stderr, "error: --theta / --phi: expected a,b,c or START:STOP:POINTS in degrees\n");
        return kExitUsage;
    }
    std::string line;
    int dims = 3;
    Polarization pol = Polarization::TMz;
    std::getline(in, line);
    {
        std::stringstream ss(line);
        std::string hash, kd, kp, p;
        ss >> hash >> kd >> dims >> kp >> p;
        if (hash != "#" || kd != "dimensions" || (dims != 2 && dims != 3)) {
            std::fprintf(stderr, "error: %s: line 1: expected \"# dimensions D polarization P\"\n", file.string().c_str());
            return kExitUsage;
        }
        pol = p == "TEz" ? Polarization::TEz : Polarization::TMz;
    }
    std::getline(in, line);  // header
    std::map<double, SurfaceCurrents> by_freq;
    int n = 2;
    while (std::getline(in, line)) {
        ++n;
        std::stringstream ss(line);
        std::vector<double> v;
        std::string cell;
        while (std::getline(ss, cell, ',')) v.push_back(std::strtod(cell.c_str(), nullptr));
        if (v.size() != 17) {
            std::fprintf(stderr, "error: %s: line %d: expected 17 numbers\n", file.string().c_str(), n);
            return kExitUsage;
        }
        SurfaceCurrents& s = by_freq[v[0]];
        s.frequency_hz = v[0];
        s.dimensions = dims;
        s.polarization = pol;
        s.position_m.push_back(Vec3{v[1], v[2], v[3]});
        s.ds.push_back(v[4]);
        s.j.push_back({std::complex<double>(v[5], v[6]), {v[7], v[8]}, {v[9], v[10]}});
        s.m.push_back({std::complex<double>(v[11], v[12]), {v[13], v[14]}, {v[15], v[16]}});
    }
    if (by_freq.empty()) {
        std::fprintf(stderr, "error: %s: no samples\n", file.string().c_str());
        return kExitUsage;
    }
    std::vector<const SurfaceCurrents*> chosen;
    if (c.wavelength_um > 0) {
        const double f = units::wavelength_um_to_hz(c.wavelength_um);
        const SurfaceCurrents* best = nullptr;
        for (const auto& [fq, s] : by_freq)
            if (!best || std::fabs(fq - f) < std::fabs(best->frequency_hz - f)) best = &s;
        chosen.push_back(best);
    } else {
        for (const auto& [fq, s] : by_freq) chosen.push_back(&s);
    }
    std::vector<std::array<double, 2>> dirs;
    if (dims == 2) thetas = {90};
    for (double t : thetas)
        for (double p : phis) dirs.push_back({t * units::pi / 180, p * units::pi / 180});
    if (c.backend == "cuda" && !cuda_available()) {
        std::fprintf(stderr, "error: --backend cuda: %s\n", cuda_device_description().c_str());
        return kExitUsage;
    }
    const RadiationVectorsFn on_gpu = [](const SurfaceCurrents& s, const std::vector<std::array<double, 3>>& unit) {
        return cuda_radiation_vectors(2 * units::pi * s.frequency_hz / units::c0, s.dimensions == 2, s.position_m, s.j,
                                      s.m, s.ds, unit);
    };
    nlohmann::json out = {{"dimensions", dims}, {"directions", nlohmann::json::array()}};
    for (const SurfaceCurrents* s : chosen) {
        const double wl = units::hz_to_wavelength_um(s->frequency_hz);
        const bool gpu = c.backend == "cuda" ||
                         (c.backend == "auto" && double(s->position_m.size()) * double(dirs.size()) >= kFarFieldGpuWork &&
                          cuda_available());
        const auto ff = project_far_field(*s, dirs, gpu ? on_gpu : RadiationVectorsFn{});
        for (const FarFieldSample& x : ff) {
            const double th = x.theta_rad * 180 / units::pi, ph = x.phi_rad * 180 / units::pi;
            if (c.json)
                out["directions"].push_back({{"wavelength_um", wl}, {"theta_deg", th}, {"phi_deg", ph},
                                             {"intensity", x.intensity},
                                             {"e_theta", {x.e_theta.real(), x.e_theta.imag()}},
                                             {"e_phi", {x.e_phi.real(), x.e_phi.imag()}}});
            else
                std::printf("%.8g %8.3f %8.3f  %.6e  %+.6e %+.6e  %+.6e %+.6e\n", wl, th, ph, x.intensity,
                            x.e_theta.real(), x.e_theta.imag(), x.e_phi.real(), x.e_phi.imag());
        }
    }
    if (c.json) std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
}

}  // namespace golightly::cli
