// golightly-cli resonances (cmd_resonances.hpp).
#include "cmd_resonances.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "golightly/errors.hpp"
#include "golightly/resonance_finder.hpp"
#include "golightly/units.hpp"

namespace fs = std::filesystem;

namespace golightly::cli {

namespace {

constexpr int kExitOk = 0, kExitUsage = 1, kExitRun = 3;
using Json = nlohmann::json;

struct Series {
    std::string name;
    std::vector<double> t_fs, v;
};

/// A monitor CSV (`time_fs,<name>` then rows); throws std::runtime_error naming the file
/// and line.
Series read_series(const fs::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error(file.string() + ": cannot be read");
    Series s;
    std::string line;
    if (!std::getline(in, line) || line.rfind("time_fs,", 0) != 0)
        throw std::runtime_error(file.string() + ": line 1: expected the header time_fs,<monitor>");
    s.name = line.substr(8);
    if (s.name.size() >= 2 && s.name.front() == '"' && s.name.back() == '"') s.name = s.name.substr(1, s.name.size() - 2);
    int n = 1;
    while (std::getline(in, line)) {
        ++n;
        if (line.empty()) continue;
        const auto comma = line.find(',');
        char* end = nullptr;
        const double t = std::strtod(line.c_str(), &end);
        const double v = comma == std::string::npos ? NAN : std::strtod(line.c_str() + comma + 1, nullptr);
        if (comma == std::string::npos || end != line.c_str() + comma || !std::isfinite(t) || !std::isfinite(v))
            throw std::runtime_error(file.string() + ": line " + std::to_string(n) + ": expected time_fs,value numbers");
        s.t_fs.push_back(t);
        s.v.push_back(v);
    }
    return s;
}

bool parse_band(const std::string& text, double& lo, double& hi) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) return false;
    try {
        lo = std::stod(text.substr(0, colon));
        hi = std::stod(text.substr(colon + 1));
    } catch (const std::exception&) {
        return false;
    }
    return lo > 0 && hi > lo;
}

std::string q_text(double q) {
    if (!std::isfinite(q)) return q > 0 ? "inf" : "-inf";
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", q);
    return b;
}

}  // namespace

ResonancesCommand* add_resonances_command(CLI::App& app) {
    static ResonancesCommand c;
    c.sub = app.add_subcommand("resonances", "Find the resonances (frequency, Q) of a run's time monitors with Harminv");
    c.sub->add_option("RESULTS", c.results, "Results folder of `run` (its monitors/*.csv), or one monitor CSV")
        ->required();
    c.sub->add_option("--monitor", c.monitor, "Only this time monitor");
    c.sub->add_option("--band", c.band, "MIN:MAX vacuum wavelengths, um (default: the band the run used)");
    c.sub->add_option("--after", c.after_fs,
                      "Analyse the samples after this time, fs (default: where the run's analysis started, else all)");
    c.sub->add_option("--q-min", c.q_min, "Drop modes with |Q| at or below this (default 50)")
        ->check(CLI::NonNegativeNumber);
    c.sub->add_flag("--json", c.json, "Print one JSON object in summary.json's \"resonances\" form");
    return &c;
}

int run_resonances_command(const ResonancesCommand& c) {
    const fs::path path(c.results);
    std::vector<fs::path> files;
    Json summary = Json::object();
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        if (std::ifstream sf(path / "summary.json"); sf) {
            try {
                summary = Json::parse(sf);
            } catch (const std::exception&) {
                summary = Json::object();  // the CSVs are still usable
            }
        }
        if (fs::is_directory(path / "monitors", ec))
            for (const auto& e : fs::directory_iterator(path / "monitors"))
                if (e.path().extension() == ".csv") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        if (files.empty()) {
            std::fprintf(stderr, "error: %s has no monitors/*.csv (no time monitor in the run)\n", path.string().c_str());
            return kExitUsage;
        }
    } else if (fs::is_regular_file(path, ec)) {
        files.push_back(path);
    } else {
        std::fprintf(stderr, "error: %s: no such results folder or file\n", path.string().c_str());
        return kExitUsage;
    }
    double band_lo = 0, band_hi = 0;
    const bool band_given = !c.band.empty();
    if (band_given && !parse_band(c.band, band_lo, band_hi)) {
        std::fprintf(stderr, "error: --band %s: expected MIN:MAX, two wavelengths in um with 0 < MIN < MAX\n",
                     c.band.c_str());
        return kExitUsage;
    }
    if (!resonance_finder_available()) {
        std::fprintf(stderr, "error: this build has no Harminv (Debian libharminv-dev): no resonance finder\n");
        return kExitRun;
    }
    const Json* run_res = summary.contains("resonances") ? &summary["resonances"] : nullptr;
    Json out = Json::object();
    bool found = false;
    for (const fs::path& f : files) {
        Series s;
        try {
            s = read_series(f);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "error: %s\n", e.what());
            return kExitUsage;
        }
        if (!c.monitor.empty() && s.name != c.monitor) continue;
        found = true;
        const Json* mine = run_res && run_res->contains(s.name) ? &(*run_res)[s.name] : nullptr;
        double lo = band_lo, hi = band_hi;
        if (!band_given) {
            if (!mine || !(*mine)["band_um"].is_array()) {
                std::fprintf(stderr, "error: monitor %s: no band: give --band MIN:MAX (um); the run searched none\n",
                             s.name.c_str());
                return kExitUsage;
            }
            lo = (*mine)["band_um"][0].get<double>();
            hi = (*mine)["band_um"][1].get<double>();
        }
        double after = c.after_fs;
        if (after < 0 && mine && (*mine)["t0_fs"].is_number() && s.t_fs.size() > 1)  // the run's first analysed sample
            after = (*mine)["t0_fs"].get<double>() - 0.5 * (s.t_fs.back() - s.t_fs.front()) / double(s.t_fs.size() - 1);
        std::size_t first = 0;
        while (after >= 0 && first < s.t_fs.size() && s.t_fs[first] <= after) ++first;
        const std::size_t n = s.v.size() - first;
        if (n < 8) {
            std::fprintf(stderr, "error: monitor %s: only %zu samples after %g fs\n", s.name.c_str(), n, after);
            return kExitUsage;
        }
        // Uniform samples: dt from the whole span (the CSV holds 10 significant digits).
        const double dt_fs = (s.t_fs.back() - s.t_fs[first]) / double(n - 1);
        for (std::size_t k = first + 1; k < s.t_fs.size(); ++k)
            if (std::fabs(s.t_fs[k] - s.t_fs[k - 1] - dt_fs) > 1e-6 * dt_fs + 1e-9 * std::fabs(s.t_fs[k])) {
                std::fprintf(stderr, "error: %s: the samples are not evenly spaced in time (line %zu)\n",
                             f.string().c_str(), k + 2);
                return kExitUsage;
            }
        ResonanceOptions o;
        o.f_min_hz = units::wavelength_um_to_hz(hi);
        o.f_max_hz = std::min(units::wavelength_um_to_hz(lo), 0.95 * 0.5 / (dt_fs * units::fs));
        o.q_min = c.q_min;
        if (!(o.f_max_hz > o.f_min_hz)) {
            std::fprintf(stderr, "error: monitor %s: the band lies beyond the sampling limit of %g fs samples\n",
                         s.name.c_str(), dt_fs);
            return kExitUsage;
        }
        const std::vector<double> signal(s.v.begin() + std::ptrdiff_t(first), s.v.end());
        const std::vector<Resonance> modes = find_resonances(signal, dt_fs * units::fs, o);
        Json jm = Json::array();
        for (const Resonance& m : modes) {
            jm.push_back({{"frequency_thz", m.frequency_hz * 1e-12},
                          {"wavelength_um", m.wavelength_um},
                          {"q", std::isfinite(m.q) ? Json(m.q) : Json(m.q > 0 ? "inf" : "-inf")},
                          {"decay_per_fs", m.decay_per_s * 1e-15},
                          {"amplitude", m.amplitude},
                          {"phase_rad", m.phase_rad},
                          {"error", m.error}});
            if (!c.json)
                std::printf("%-16s %14.9g THz %12.8g um  Q %-12s decay %-11.4g /fs amp %-11.4g phase %+.4f err %.2g\n",
                            s.name.c_str(), m.frequency_hz * 1e-12, m.wavelength_um, q_text(m.q).c_str(),
                            m.decay_per_s * 1e-15, m.amplitude, m.phase_rad, m.error);
        }
        if (!c.json && modes.empty())
            std::printf("%-16s no resonances in %g-%g um (%zu samples)\n", s.name.c_str(), lo, hi, n);
        out[s.name] = {{"t0_fs", s.t_fs[first]}, {"samples", n}, {"band_um", Json::array({lo, hi})}, {"modes", jm}};
    }
    if (!found) {
        std::fprintf(stderr, "error: --monitor %s: no such time monitor in %s\n", c.monitor.c_str(),
                     path.string().c_str());
        return kExitUsage;
    }
    if (c.json) std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
}

}  // namespace golightly::cli
