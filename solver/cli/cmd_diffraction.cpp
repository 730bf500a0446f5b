// golightly-cli diffraction (cmd_diffraction.hpp).
#include "cmd_diffraction.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace golightly::cli {

namespace {

constexpr int kExitOk = 0, kExitUsage = 1;
using Json = nlohmann::json;

/// The columns the table shows, by header name (results_writer.cpp write_diffraction).
const char* const kColumns[] = {"wavelength_um", "order_x",  "order_y",          "order_z",
                                "theta_deg",     "phi_deg",  "power_fraction",   "power_s_fraction",
                                "power_p_fraction"};
constexpr std::size_t kNumColumns = sizeof kColumns / sizeof kColumns[0];

struct Row {
    double v[kNumColumns];
};

/// diffraction/<name>.csv: the rows, columns in kColumns order; throws std::runtime_error
/// naming the file and line.
std::vector<Row> read_orders(const fs::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error(file.string() + ": cannot be read");
    std::string line;
    if (!std::getline(in, line)) throw std::runtime_error(file.string() + ": empty");
    std::vector<std::string> header;
    for (std::stringstream ss(line); std::getline(ss, line, ',');) header.push_back(line);
    std::size_t col[kNumColumns];
    for (std::size_t c = 0; c < kNumColumns; ++c) {
        const auto it = std::find(header.begin(), header.end(), kColumns[c]);
        if (it == header.end())
            throw std::runtime_error(file.string() + ": line 1: no column " + kColumns[c] +
                                     " (not a diffraction monitor's CSV)");
        col[c] = std::size_t(it - header.begin());
    }
    std::vector<Row> rows;
    int n = 1;
    while (std::getline(in, line)) {
        ++n;
        if (line.empty()) continue;
        std::vector<double> cells;
        for (std::stringstream ss(line); std::getline(ss, line, ',');) cells.push_back(std::strtod(line.c_str(), nullptr));
        Row r{};
        for (std::size_t c = 0; c < kNumColumns; ++c) {
            if (col[c] >= cells.size())
                throw std::runtime_error(file.string() + ": line " + std::to_string(n) + ": too few columns");
            r.v[c] = cells[col[c]] + 0.0;  // -0 prints as 0
        }
        rows.push_back(r);
    }
    return rows;
}

}  // namespace

DiffractionCommand* add_diffraction_command(CLI::App& app) {
    static DiffractionCommand c;
    c.sub = app.add_subcommand("diffraction", "Show the diffraction (Floquet) orders of a run's diffraction monitors");
    c.sub->add_option("RESULTS", c.results, "Results folder of `run` (its diffraction/*.csv), or one such CSV")
        ->required();
    c.sub->add_option("--monitor", c.monitor, "Only this diffraction monitor");
    c.sub->add_option("--wavelength", c.wavelength_um, "Only the spectrum point nearest this vacuum wavelength, um")
        ->check(CLI::PositiveNumber);
    c.sub->add_flag("--json", c.json, "Print one JSON object instead of the table");
    return &c;
}

int run_diffraction_command(const DiffractionCommand& c) {
    const fs::path path(c.results);
    std::vector<fs::path> files;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        if (fs::is_directory(path / "diffraction", ec))
            for (const auto& e : fs::directory_iterator(path / "diffraction"))
                if (e.path().extension() == ".csv") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        if (files.empty()) {
            std::fprintf(stderr, "error: %s has no diffraction/*.csv (no diffraction monitor in the run)\n",
                         path.string().c_str());
            return kExitUsage;
        }
    } else if (fs::is_regular_file(path, ec)) {
        files.push_back(path);
    } else {
        std::fprintf(stderr, "error: %s: no such results folder or file\n", path.string().c_str());
        return kExitUsage;
    }
    if (!c.monitor.empty()) {
        std::vector<fs::path> keep;
        for (const fs::path& f : files)
            if (f.stem().string() == c.monitor) keep.push_back(f);
        if (keep.empty()) {
            std::fprintf(stderr, "error: no diffraction monitor '%s' in %s\n", c.monitor.c_str(), path.string().c_str());
            return kExitUsage;
        }
        files = keep;
    }
    Json all = Json::object();
    for (const fs::path& f : files) {
        std::vector<Row> rows;
        try {
            rows = read_orders(f);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "error: %s\n", e.what());
            return kExitUsage;
        }
        // the distinct wavelengths, in file order; --wavelength keeps the nearest
        std::vector<double> wls;
        for (const Row& r : rows)
            if (std::find(wls.begin(), wls.end(), r.v[0]) == wls.end()) wls.push_back(r.v[0]);
        if (c.wavelength_um > 0 && !wls.empty()) {
            double best = wls[0];
            for (double w : wls)
                if (std::fabs(w - c.wavelength_um) < std::fabs(best - c.wavelength_um)) best = w;
            wls = {best};
        }
        const std::string name = f.stem().string();
        Json mon = Json::array();
        if (!c.json) std::printf("monitor %s\n", name.c_str());
        for (double wl : wls) {
            double total = 0;
            Json orders = Json::array();
            if (!c.json)
                std::printf("  %-13s %4s %4s %4s %10s %10s %14s %10s %10s\n", "wavelength_um", "m_x", "m_y", "m_z",
                            "theta_deg", "phi_deg", "power_fraction", "s", "p");
            for (const Row& r : rows) {
                if (r.v[0] != wl) continue;
                total += r.v[6];
                if (c.json)
                    orders.push_back({{"order", {int(r.v[1]), int(r.v[2]), int(r.v[3])}},
                                      {"theta_deg", r.v[4]},
                                      {"phi_deg", r.v[5]},
                                      {"power_fraction", r.v[6]},
                                      {"power_s_fraction", r.v[7]},
                                      {"power_p_fraction", r.v[8]}});
                else
                    std::printf("  %-13.6g %4d %4d %4d %10.4f %10.4f %14.6g %10.4g %10.4g\n", r.v[0], int(r.v[1]),
                                int(r.v[2]), int(r.v[3]), r.v[4], r.v[5], r.v[6], r.v[7], r.v[8]);
            }
            if (c.json)
                mon.push_back({{"wavelength_um", wl}, {"total", total}, {"orders", orders}});
            else
                std::printf("  %-13.6g total %.6g\n", wl, total);
        }
        all[name] = mon;
    }
    if (c.json) std::printf("%s\n", all.dump(1).c_str());
    return kExitOk;
}

}  // namespace golightly::cli
