// golightly-cli modes (cmd_modes.hpp).
#include "cmd_modes.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "golightly/atomic_file.hpp"
#include "golightly/errors.hpp"
#include "golightly/colormap.hpp"
#include "golightly/compile.hpp"
#include "golightly/image_io.hpp"
#include "golightly/line_port_modes.hpp"
#include "golightly/mode_cache.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "golightly/units.hpp"

namespace fs = std::filesystem;

namespace golightly::cli {

namespace {

constexpr int kExitOk = 0, kExitUsage = 1, kExitRun = 3;

std::string fmt_g(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.10g", v);
    return b;
}

/// A port name as a file name stem: letters, digits, '-' and '_' kept, others '_'.
std::string file_stem(const std::string& name) {
    std::string s;
    for (char ch : name) s += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_') ? ch : '_';
    return s.empty() ? "port" : s;
}

const char* boundary_name(ModeBoundary b) {
    return b == ModeBoundary::pec ? "pec" : b == ModeBoundary::pmc ? "pmc" : "periodic";
}

/// A mode's fields (and the permittivity) at the window's cell centres (N_u x N_v, u fastest).
struct CentreFields {
    int nu = 0, nv = 0;
    std::vector<double> e[3];  ///< local u, v, w: E_u, E_v real parts, E_w imaginary part
    /// local u, v, w: the complex E (averaged as e; a Bloch port's CSV writes it whole)
    std::vector<std::complex<double>> ec[3];
    std::vector<double> eps;  ///< eps_u averaged like E_u (for the outline)
};

CentreFields centre_fields(const CrossSection& cs, const VectorMode& m) {
    const ModeGrid2D& g = cs.grid;
    // value of a component array at (half index or integer node) per axis
    auto node_index = [](ModeBoundary b, int n, int N) -> int {  // integer node n in 0..N -> array index, -1: zero
        if (b == ModeBoundary::pec) return (n <= 0 || n >= N) ? -1 : n - 1;
        if (b == ModeBoundary::pmc) return n;
        return ((n % N) + N) % N;
    };
    // complex value of a component array at (half index or integer node) per axis. A node
    // past the end of a periodic axis is node 0 of the next period: on a Bloch axis exp(i
    // phi) times it (the Bloch condition of ModeGrid2D::bloch_phase_u / _v).
    auto at_c = [&](const std::vector<std::complex<double>>& a, int comp, int iu, int iv) -> std::complex<double> {
        const auto shape = mode_component_shape_e(g, comp);
        // comp 0: u half, v node; comp 1: u node, v half; comp 2: both nodes
        const int ku = comp == 0 ? iu : node_index(g.boundary_u, iu, g.nu);
        const int kv = comp == 1 ? iv : node_index(g.boundary_v, iv, g.nv);
        if (ku < 0 || kv < 0) return 0.0;
        std::complex<double> v = a[std::size_t(kv) * std::size_t(shape[0]) + std::size_t(ku)];
        if (comp != 0 && g.boundary_u == ModeBoundary::periodic && iu >= g.nu) v *= std::polar(1.0, g.bloch_phase_u);
        if (comp != 1 && g.boundary_v == ModeBoundary::periodic && iv >= g.nv) v *= std::polar(1.0, g.bloch_phase_v);
        return v;
    };
    auto eps_at = [&](int iu, int iv) {  // eps_u at (half iu, node iv); PEC walls: the neighbour's
        const auto shape = mode_component_shape_e(g, 0);
        int kv = node_index(g.boundary_v, iv, g.nv);
        if (kv < 0) kv = iv <= 0 ? 0 : shape[1] - 1;
        return cs.medium.eps[0][std::size_t(kv) * std::size_t(shape[0]) + std::size_t(iu)];
    };
    CentreFields c;
    c.nu = g.nu;
    c.nv = g.nv;
    const std::size_t n = std::size_t(g.nu) * std::size_t(g.nv);
    for (auto& v : c.e) v.assign(n, 0.0);
    for (auto& v : c.ec) v.assign(n, 0.0);
    c.eps.assign(n, 1.0);
    for (int j = 0; j < g.nv; ++j)
        for (int i = 0; i < g.nu; ++i) {
            const std::size_t k = std::size_t(j) * std::size_t(g.nu) + std::size_t(i);
            c.ec[0][k] = 0.5 * (at_c(m.e[0], 0, i, j) + at_c(m.e[0], 0, i, j + 1));
            c.ec[1][k] = 0.5 * (at_c(m.e[1], 1, i, j) + at_c(m.e[1], 1, i + 1, j));
            c.ec[2][k] = 0.25 * (at_c(m.e[2], 2, i, j) + at_c(m.e[2], 2, i + 1, j) + at_c(m.e[2], 2, i, j + 1) +
                                 at_c(m.e[2], 2, i + 1, j + 1));
            c.e[0][k] = c.ec[0][k].real();
            c.e[1][k] = c.ec[1][k].real();
            c.e[2][k] = c.ec[2][k].imag();
            c.eps[k] = 0.5 * (eps_at(i, j) + eps_at(i, j + 1));
        }
    return c;
}

/// A field image: one block of `scale` pixels per cell, u to the right, v up; the
/// structure's outline (cells either side of the mid permittivity) in grey.
Image8 field_image(const CentreFields& c, const std::vector<double>& value, bool signed_map) {
    const int scale = std::max(1, 400 / std::max(c.nu, c.nv));
    Image8 img;
    img.width = c.nu * scale;
    img.height = c.nv * scale;
    img.channels = 3;
    img.pixels.assign(std::size_t(img.width) * std::size_t(img.height) * 3, 255);
    double vmax = 0;
    for (double v : value) vmax = std::max(vmax, std::abs(v));
    const auto [emin_it, emax_it] = std::minmax_element(c.eps.begin(), c.eps.end());
    const double mid = 0.5 * (*emin_it + *emax_it);
    const bool outline = *emax_it - *emin_it > 1e-6;
    auto above = [&](int i, int j) { return c.eps[std::size_t(j) * std::size_t(c.nu) + std::size_t(i)] > mid; };
    for (int py = 0; py < img.height; ++py)
        for (int px = 0; px < img.width; ++px) {
            const int i = px / scale, j = c.nv - 1 - py / scale;
            const double v = value[std::size_t(j) * std::size_t(c.nu) + std::size_t(i)] / (vmax > 0 ? vmax : 1.0);
            std::uint8_t r, gr, b;
            diverging_rgb(static_cast<float>(signed_map ? v : std::abs(v)), r, gr, b);
            const int su = px % scale, sv = scale - 1 - py % scale;  // position inside the cell block
            bool edge = false;
            if (outline) {
                if (su == 0 && i > 0 && above(i, j) != above(i - 1, j)) edge = true;
                if (sv == 0 && j > 0 && above(i, j) != above(i, j - 1)) edge = true;
            }
            if (edge) r = gr = b = 90;
            std::uint8_t* p = &img.pixels[(std::size_t(py) * std::size_t(img.width) + std::size_t(px)) * 3];
            p[0] = r;
            p[1] = gr;
            p[2] = b;
        }
    return img;
}

/// A 2D project's port line: its 1D slab modes as the port's mode source and the
/// S-parameter runs see them (compile_project of the port's line as a mode monitor alone in
/// the project, the plan's line_neff / line_e / line_h at the Yee scheme's numerical k0)
/// at three wavelengths wl (1 +- 1e-3) around wl, for n_group = n_eff + f dn_eff/df.
struct LineModes {
    std::vector<double> n_eff, n_group;  ///< [mode]; 0 where the line guides no such mode
    /// [mode]: a bent line's (bend_radius) Im n_eff, referred to the radius, and the loss it
    /// means (Im beta = k0~ Im n_eff, k0~ the numerical k0 the line is solved at); 0 when straight
    std::vector<double> n_eff_imag, loss_db_per_cm, loss_db_per_90deg;
    std::vector<std::vector<double>> e, h;  ///< [mode][node]
    /// [mode][node]: the imaginary parts of e, h on a line spanning a Bloch axis with nonzero
    /// k (its modes are complex Bloch supermodes, mode_solver_bloch.hpp); empty otherwise
    std::vector<std::vector<double>> e_im, h_im;
    bool bloch = false;          ///< the line spans a Bloch axis with nonzero k
    double bloch_k_per_um = 0;   ///< that axis's Bloch k (rad/um; the engine's phase k L over L = n dx)
    std::vector<double> s_um;              ///< the nodes' coordinate along the line
    std::string e_name, h_name, tan_name, normal_name;
};

LineModes solve_line_modes(const Project& project, const std::string& file, const Port& port, double wl, int count) {
    const CompiledProject cp = compile_line_port_modes(project, file, port, wl, count);
    const ModeMonitorPlan& plan = *cp.monitors[0].mode_plan;
    const std::size_t nf = plan.frequencies_hz.size(), mid = nf / 2;
    const int normal = port.direction[1] - 'x', tan = 1 - normal;
    const bool tm = project.domain.polarization == Polarization::TMz;
    const char* axis = "xyz";
    LineModes r;
    r.e_name = tm ? "Ez" : std::string("E") + axis[tan];
    r.h_name = tm ? std::string("eta0_H") + axis[tan] : "eta0_Hz";
    r.tan_name = std::string(1, axis[tan]);
    r.normal_name = std::string(1, axis[normal]);
    std::size_t nodes = 0;
    for (int k = 0; k < count; ++k) {
        const std::size_t kk = std::size_t(k);
        const double ne = plan.line_neff[mid][kk];
        double ng = 0;
        if (ne > 0 && nf >= 3 && plan.line_neff[0][kk] > 0 && plan.line_neff[nf - 1][kk] > 0)
            ng = ne + plan.frequencies_hz[mid] * (plan.line_neff[nf - 1][kk] - plan.line_neff[0][kk]) /
                          (plan.frequencies_hz[nf - 1] - plan.frequencies_hz[0]);
        r.n_eff.push_back(ne);
        r.n_group.push_back(ng);
        double ni = 0, per_cm = 0, per_90 = 0;
        if (ne > 0 && mid < plan.line_neff_imag.size()) {
            ni = plan.line_neff_imag[mid][kk];
            // the numerical k0~ = (2 / (c0 dt)) sin(omega dt / 2) of the line's solve (1/um)
            const double omega = 2 * M_PI * plan.frequencies_hz[mid];
            const double beta_imag = 2.0 / (units::c0 * plan.dt_s) * std::sin(0.5 * omega * plan.dt_s) * units::um * ni;
            per_cm = 20.0 / std::log(10.0) * beta_imag * 1e4;
            if (port.bend_radius_um != 0) per_90 = 20.0 / std::log(10.0) * beta_imag * (M_PI * std::abs(port.bend_radius_um) / 2);
        }
        r.n_eff_imag.push_back(ni);
        r.loss_db_per_cm.push_back(per_cm);
        r.loss_db_per_90deg.push_back(per_90);
        r.e.push_back(plan.line_e[mid][kk]);
        r.h.push_back(plan.line_h[mid][kk]);
        if (!plan.line_e_im.empty()) {
            r.e_im.push_back(plan.line_e_im[mid][kk]);
            r.h_im.push_back(plan.line_h_im[mid][kk]);
        }
        nodes = std::max(nodes, r.e.back().size());
    }
    r.bloch = !plan.line_e_im.empty();
    if (r.bloch) {
        const int n_tan = tan == 0 ? cp.scene.nx : cp.scene.ny;  // a Bloch axis has no PML: the period's cells
        r.bloch_k_per_um = cp.scene.bloch_phase[tan] / (double(n_tan) * cp.scene.dx_um);
    }
    // one node per cell the line covers (at least half), from its start along the line
    const double start = port.center[tan] - 0.5 * port.size[tan];
    for (std::size_t k = 0; k < nodes; ++k) r.s_um.push_back(start + (double(k) + 0.5) * plan.dx_um);
    return r;
}

/// `modes` of a 2D project (the ports' lines, 1D slab modes); files as the 3D case, without
/// the pictures: modes.csv, modes.json, <port>_mode<k>.csv (<t>_um,<E>,<eta0 H>).
int run_line_modes(const ModesCommand& c, const Project& project, const std::vector<Port>& ports,
                   const std::vector<std::size_t>& chosen, double wl, const fs::path& out) {
    std::ostringstream csv;
    csv << "port,mode,wavelength_um,n_eff,n_group,te_fraction,dominant,n_eff_imag,loss_db_per_cm,bend_radius_um,"
           "loss_db_per_90deg\n";
    Json doc;
    doc["project"] = c.project;
    doc["dimensions"] = 2;
    doc["polarization"] = to_string(project.domain.polarization);
    doc["wavelength_um"] = wl;
    doc["ports"] = Json::array();
    try {
        for (std::size_t p : chosen) {
            const Port& port = ports[p];
            int count = c.count;
            if (count <= 0)
                for (int m : port.modes) count = std::max(count, m + 1);
            LineModes lm;
            try {
                lm = solve_line_modes(project, c.project, port, wl, count);
            } catch (const ProjectError&) {
                throw;
            } catch (const std::exception& e) {
                std::fprintf(stderr, "error: %s: port %s: mode solver: %s\n", c.project.c_str(), port.name.c_str(), e.what());
                return kExitRun;
            }
            Json jp;
            jp["name"] = port.name;
            jp["normal"] = lm.normal_name;
            jp["axes"] = {lm.tan_name};
            if (lm.bloch) jp["bloch_k_per_um"] = lm.bloch_k_per_um;
            jp["modes"] = Json::array();
            int found = 0;
            for (int k = 0; k < count; ++k) {
                const std::size_t kk = std::size_t(k);
                if (!(lm.n_eff[kk] > 0)) continue;  // no such guided mode on the line
                ++found;
                const std::string stem = file_stem(port.name) + "_mode" + std::to_string(k);
                std::ostringstream fc;
                fc << lm.tan_name << "_um," << lm.e_name << ',' << lm.h_name;
                // a Bloch supermode is complex: the columns above are its real parts; the
                // imaginary parts, |E| and arg E (rad, 0 at the peak of |E|) follow
                if (lm.bloch)
                    fc << ',' << lm.e_name << "_im," << lm.h_name << "_im,abs_" << lm.e_name << ",arg_" << lm.e_name
                       << "_rad";
                fc << '\n';
                auto val = [](const std::vector<double>& v, std::size_t q) { return q < v.size() ? v[q] : 0.0; };
                for (std::size_t q = 0; q < lm.e[kk].size() && q < lm.s_um.size(); ++q) {
                    fc << fmt_g(lm.s_um[q]) << ',' << fmt_g(lm.e[kk][q]) << ',' << fmt_g(val(lm.h[kk], q));
                    if (lm.bloch) {
                        const std::complex<double> e(lm.e[kk][q], val(lm.e_im[kk], q));
                        fc << ',' << fmt_g(e.imag()) << ',' << fmt_g(val(lm.h_im[kk], q)) << ',' << fmt_g(std::abs(e))
                           << ',' << fmt_g(std::arg(e));
                    }
                    fc << '\n';
                }
                write_file_atomic(out / (stem + ".csv"), fc.str());
                csv << port.name << ',' << k << ',' << fmt_g(wl) << ',' << fmt_g(lm.n_eff[kk]) << ','
                    << fmt_g(lm.n_group[kk]) << ",," << lm.e_name << ',' << fmt_g(lm.n_eff_imag[kk]) << ','
                    << fmt_g(lm.loss_db_per_cm[kk]) << ',' << fmt_g(port.bend_radius_um) << ','
                    << fmt_g(lm.loss_db_per_90deg[kk]) << '\n';
                Json jm;
                jm["mode"] = k;
                jm["n_eff"] = lm.n_eff[kk];
                jm["n_eff_imag"] = lm.n_eff_imag[kk];
                jm["loss_db_per_cm"] = lm.loss_db_per_cm[kk];
                jm["n_group"] = lm.n_group[kk];
                if (port.bend_radius_um != 0) {
                    jm["bend_radius_um"] = port.bend_radius_um;
                    jm["loss_db_per_90deg"] = lm.loss_db_per_90deg[kk];
                }
                jm["dominant"] = lm.e_name;
                jm["csv"] = stem + ".csv";
                if (lm.bloch) jm["complex"] = true;
                jp["modes"].push_back(jm);
                if (port.bend_radius_um != 0)
                    std::printf("port %s mode %d: bend radius %g um: n_eff %.6f%+.3ei (referred to the radius), "
                                "bend loss %.4g dB/90deg (%.4g dB/cm), n_group %.5f (bent slab mode of the port line, %s)\n",
                                port.name.c_str(), k, port.bend_radius_um, lm.n_eff[kk], lm.n_eff_imag[kk],
                                lm.loss_db_per_90deg[kk], lm.loss_db_per_cm[kk], lm.n_group[kk], lm.e_name.c_str());
                else if (lm.bloch)
                    std::printf("port %s mode %d: n_eff %.6f, n_group %.5f (Bloch supermode of the port line across "
                                "the period, k %.6g rad/um along %s; %s complex: Re, Im, abs, arg in %s.csv)\n",
                                port.name.c_str(), k, lm.n_eff[kk], lm.n_group[kk], lm.bloch_k_per_um,
                                lm.tan_name.c_str(), lm.e_name.c_str(), stem.c_str());
                else
                    std::printf("port %s mode %d: n_eff %.6f, n_group %.5f (slab mode of the port line, %s)\n",
                                port.name.c_str(), k, lm.n_eff[kk], lm.n_group[kk], lm.e_name.c_str());
            }
            if (found < count)
                std::fprintf(stderr, "warning: port %s: %d guided mode(s) on the line, %d asked for\n", port.name.c_str(),
                             found, count);
            doc["ports"].push_back(jp);
        }
        write_file_atomic(out / "modes.csv", csv.str());
        write_file_atomic(out / "modes.json", doc.dump(2) + "\n");
    } catch (const ProjectError&) {
        throw;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s: %s\n", out.string().c_str(), e.what());
        return kExitRun;
    }
    std::printf("wrote %s and %s\n", (out / "modes.csv").string().c_str(), (out / "modes.json").string().c_str());
    return kExitOk;
}

}  // namespace

ModesCommand* add_modes_command(CLI::App& app) {
    static ModesCommand c;
    c.sub = app.add_subcommand("modes", "Solve the waveguide modes of the ports; writes n_eff, n_group, TE fraction and field maps");
    c.sub->add_option("PROJECT", c.project, "Project file (.glproj, 3D or 2D) with top-level \"ports\"")->required();
    c.sub->add_option("--port", c.port, "Only this port (default: every port)");
    c.sub->add_option("--wavelength", c.wavelength_um, "Vacuum wavelength, um (default: the spectrum's centre)")
        ->check(CLI::PositiveNumber);
    c.sub->add_option("--count", c.count, "Modes per port (default: the port's highest mode index + 1)")
        ->check(CLI::Range(1, 100));
    c.sub->add_option("--out", c.out, "Output folder (default: <project stem>_modes next to the project)");
    return &c;
}

int run_modes_command(const ModesCommand& c) {
    const fs::path file(c.project);
    const Project project = load_project(file);  // ProjectError -> exit 2 (caller)
    const std::vector<Port> ports = parse_ports(project, c.project);
    std::vector<std::size_t> chosen;
    for (std::size_t p = 0; p < ports.size(); ++p)
        if (c.port.empty() || ports[p].name == c.port) chosen.push_back(p);
    if (chosen.empty()) {
        std::string names;
        for (const Port& p : ports) names += (names.empty() ? "" : ", ") + p.name;
        std::fprintf(stderr, "error: --port %s: the project has no such port (ports: %s)\n", c.port.c_str(), names.c_str());
        return kExitUsage;
    }
    const double wl2 = c.wavelength_um > 0 ? c.wavelength_um
                                           : 0.5 * (project.run.spectrum.wavelength_min + project.run.spectrum.wavelength_max);
    const fs::path out2 = c.out.empty() ? file.parent_path() / (file.stem().string() + "_modes") : fs::path(c.out);
    if (project.domain.dimensions != 3) {  // the port lines' slab modes (no 2D cross-section solver needed)
        try {
            fs::create_directories(out2);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "error: cannot create %s: %s\n", out2.string().c_str(), e.what());
            return kExitRun;
        }
        return run_line_modes(c, project, ports, chosen, wl2, out2);
    }
    if (!have_mode_solver_2d()) {
        std::fprintf(stderr, "error: this build has no 2D mode solver (no Spectra)\n");
        return kExitRun;
    }
    const double wl = c.wavelength_um > 0 ? c.wavelength_um
                                          : 0.5 * (project.run.spectrum.wavelength_min + project.run.spectrum.wavelength_max);
    const fs::path out = c.out.empty() ? file.parent_path() / (file.stem().string() + "_modes") : fs::path(c.out);
    try {
        fs::create_directories(out);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: cannot create %s: %s\n", out.string().c_str(), e.what());
        return kExitRun;
    }
    std::ostringstream csv;
    csv << "port,mode,wavelength_um,n_eff,n_group,te_fraction,dominant,n_eff_imag,loss_db_per_cm,bend_radius_um,"
           "loss_db_per_90deg\n";
    Json doc;
    doc["project"] = c.project;
    doc["wavelength_um"] = wl;
    doc["ports"] = Json::array();
    const char* axis_name[3] = {"x", "y", "z"};
    try {
        // a port across a Bloch axis with nonzero k has the period's Bloch modes, as its
        // runs see them (apply_bloch_window): the scene's Bloch phases need the compiled project
        bool any_bloch = false;
        for (int a = 0; a < 3; ++a) any_bloch = any_bloch || project.domain.is_bloch(a);
        std::optional<CompiledProject> bloch_scene;
        if (any_bloch) bloch_scene = compile_project(project, c.project);
        for (std::size_t p : chosen) {
            const Port& port = ports[p];
            const std::string path = "ports[" + std::to_string(p) + "]";
            Json extra = Json::object();
            if (!port.mode_boundary.is_null()) extra["mode_boundary"] = port.mode_boundary;
            CrossSection cs = sample_cross_section(project, port.center, port.size, false, path, c.project, extra, wl);
            const bool bloch = bloch_scene && apply_bloch_window(project, bloch_scene->scene, cs, extra,
                                                                 "port '" + port.name + "'", path, c.project);
            ModeSolveOptions o;
            o.num_modes = c.count;
            if (o.num_modes <= 0)
                for (int m : port.modes) o.num_modes = std::max(o.num_modes, m + 1);
            // the port's selection: solve near its target_neff, keep its filter's modes
            const ModeFilter filter =
                port.filter == "te" ? ModeFilter::te : port.filter == "tm" ? ModeFilter::tm : ModeFilter::none;
            const int wanted = o.num_modes;
            {
                ModeSelection sel;
                sel.target_neff = port.target_neff;
                sel.bend_radius_um = port.bend_radius_um;
                sel.bend_axis = port.bend_axis.empty() ? -1 : port.bend_axis[0] - 'x';
                apply_mode_selection(cs, sel, port.center, o, path, c.project);  // ProjectError -> exit 2
            }
            o.num_modes = modes_to_solve(wanted, filter);
            check_mode_solve_limits(cs.grid, cs.medium, o, "port '" + port.name + "'", c.project, path + ".size");
            std::vector<VectorMode> modes;
            try {
                modes = filter_modes(cs, *cached_solve_modes_2d(cs.grid, cs.medium, wl, o), filter, o.target_neff);
                if (modes.size() > std::size_t(wanted)) modes.resize(std::size_t(wanted));
                o.num_modes = wanted;
            } catch (const std::exception& e) {
                std::fprintf(stderr, "error: %s: port %s: mode solver: %s\n", c.project.c_str(), port.name.c_str(), e.what());
                return kExitRun;
            }
            const int ax[3] = {cs.axis_u, cs.axis_v, cs.axis_w};
            // the wafer-plane axis across the port: u for an x-normal port (u = y), v for a
            // y-normal one (v = x), u for a z-normal one (u = x)
            const bool te_is_u = cs.axis_w != 1;
            Json jp;
            jp["name"] = port.name;
            jp["normal"] = axis_name[cs.axis_w];
            jp["axes"] = {axis_name[cs.axis_u], axis_name[cs.axis_v]};
            jp["window"] = {{"cells", {cs.grid.nu, cs.grid.nv}},
                            {"dx_um", cs.grid.dx_um},
                            {"origin_um", {cs.u0_um, cs.v0_um}},
                            {"boundary", {boundary_name(cs.grid.boundary_u), boundary_name(cs.grid.boundary_v)}}};
            if (bloch) {
                // the phases over the window's periods (rad/um along u and v; 0 on an axis without k)
                jp["bloch_k_per_um"] = {cs.grid.bloch_phase_u / (cs.grid.nu * cs.grid.dx_um),
                                        cs.grid.bloch_phase_v / (cs.grid.nv * cs.grid.dx_um)};
                std::fprintf(stderr,
                             "note: port %s spans a Bloch axis: its modes are the period's Bloch modes (n_eff as the "
                             "runs use them), complex: the per-mode CSV adds Ex_re .. Ez_im and arg of the dominant "
                             "component, abs_E is abs(E); Ex, Ey, Ez and the dominant-component picture show the real "
                             "parts (the longitudinal one its imaginary part)\n",
                             port.name.c_str());
            }
            jp["modes"] = Json::array();
            for (std::size_t k = 0; k < modes.size(); ++k) {
                const VectorMode& m = modes[k];
                const double te = te_is_u ? m.te_fraction : 1.0 - m.te_fraction;
                double power[3] = {0, 0, 0};
                for (int d = 0; d < 3; ++d)
                    for (const auto& v : m.e[d]) power[d] += std::norm(v);
                const int dom_local = int(std::max_element(power, power + 3) - power);
                const std::string dominant = std::string("E") + axis_name[ax[dom_local]];
                const CentreFields cf = centre_fields(cs, m);
                // components in project order, |E|, normalized to max |E| = 1
                const std::size_t n = cf.e[0].size();
                std::vector<double> absE(n);
                double amax = 0;
                for (std::size_t q = 0; q < n; ++q) {
                    // a Bloch mode is complex: abs(E) of the whole field, not of the real parts
                    absE[q] = bloch ? std::sqrt(std::norm(cf.ec[0][q]) + std::norm(cf.ec[1][q]) + std::norm(cf.ec[2][q]))
                                    : std::sqrt(cf.e[0][q] * cf.e[0][q] + cf.e[1][q] * cf.e[1][q] +
                                                cf.e[2][q] * cf.e[2][q]);
                    amax = std::max(amax, absE[q]);
                }
                const double sc = amax > 0 ? 1.0 / amax : 1.0;
                const std::vector<double>* by_axis[3] = {nullptr, nullptr, nullptr};
                const std::vector<std::complex<double>>* c_by_axis[3] = {nullptr, nullptr, nullptr};
                for (int d = 0; d < 3; ++d) {
                    by_axis[ax[d]] = &cf.e[d];
                    c_by_axis[ax[d]] = &cf.ec[d];
                }
                const std::string stem = file_stem(port.name) + "_mode" + std::to_string(k);
                std::ostringstream fc;
                fc << axis_name[cs.axis_u] << "_um," << axis_name[cs.axis_v] << "_um,abs_E,Ex,Ey,Ez";
                // a Bloch mode is complex (as a 2D Bloch line's): E whole, in the same scale, and
                // the phase of the dominant component (rad; the solver makes the largest
                // transverse entry real positive)
                if (bloch) fc << ",Ex_re,Ex_im,Ey_re,Ey_im,Ez_re,Ez_im,arg_" << dominant << "_rad";
                fc << '\n';
                for (int j = 0; j < cf.nv; ++j)
                    for (int i = 0; i < cf.nu; ++i) {
                        const std::size_t q = std::size_t(j) * std::size_t(cf.nu) + std::size_t(i);
                        fc << fmt_g(cs.u0_um + (i + 0.5) * cs.grid.dx_um) << ',' << fmt_g(cs.v0_um + (j + 0.5) * cs.grid.dx_um)
                           << ',' << fmt_g(absE[q] * sc);
                        for (int a = 0; a < 3; ++a) fc << ',' << fmt_g((*by_axis[a])[q] * sc);
                        if (bloch) {
                            for (int a = 0; a < 3; ++a)
                                fc << ',' << fmt_g((*c_by_axis[a])[q].real() * sc) << ','
                                   << fmt_g((*c_by_axis[a])[q].imag() * sc);
                            fc << ',' << fmt_g(std::arg(cf.ec[dom_local][q]));
                        }
                        fc << '\n';
                    }
                write_file_atomic(out / (stem + ".csv"), fc.str());
                write_png(out / (stem + "_absE.png"), field_image(cf, absE, false));
                write_png(out / (stem + "_" + dominant + ".png"), field_image(cf, cf.e[dom_local], true));
                csv << port.name << ',' << k << ',' << fmt_g(wl) << ',' << fmt_g(m.n_eff) << ',' << fmt_g(m.n_group) << ','
                    << fmt_g(te) << ',' << dominant << ',' << fmt_g(m.n_eff_imag) << ',' << fmt_g(m.loss_db_per_cm)
                    << ',' << fmt_g(o.bend_radius_um) << ',' << fmt_g(m.loss_db_per_90deg) << '\n';
                Json jm;
                jm["mode"] = k;
                jm["n_eff"] = m.n_eff;
                jm["n_eff_imag"] = m.n_eff_imag;
                jm["loss_db_per_cm"] = m.loss_db_per_cm;
                if (o.bend_radius_um != 0) {
                    jm["bend_radius_um"] = o.bend_radius_um;
                    jm["loss_db_per_90deg"] = m.loss_db_per_90deg;
                    jm["bend_loss_resolved"] = m.bend_loss_resolved;
                }
                jm["n_group"] = m.n_group;
                jm["te_fraction"] = te;
                jm["dominant"] = dominant;
                jm["csv"] = stem + ".csv";
                jm["png_abs"] = stem + "_absE.png";
                jm["png_dominant"] = stem + "_" + dominant + ".png";
                if (bloch) jm["complex"] = true;
                jp["modes"].push_back(jm);
                if (o.bend_radius_um != 0) {
                    std::printf("port %s mode %zu: bend radius %g um: n_eff %.6f%+.3ei (referred to the radius), "
                                "bend loss %.4g dB/90deg (%.4g dB/cm), n_group %.5f, TE fraction %.4f, dominant %s\n",
                                port.name.c_str(), k, o.bend_radius_um, m.n_eff, m.n_eff_imag, m.loss_db_per_90deg,
                                m.loss_db_per_cm, m.n_group, te, dominant.c_str());
                    if (!m.bend_loss_resolved)
                        std::fprintf(stderr,
                                     "warning: port %s mode %zu: the bend loss is not resolved: the window's PML on the "
                                     "outer side of the bend begins %.3g um from the guide, before the radiation caustic "
                                     "(where n_clad (1 + x/|R|) reaches n_eff: x = |R| (n_eff / n_clad - 1)); n_eff holds, "
                                     "the loss does not: widen ports[%zu].size along bend_axis on the outer side\n",
                                     port.name.c_str(), k, m.outer_window_um, p);
                } else if (m.n_eff_imag != 0) {
                    std::printf("port %s mode %zu: n_eff %.6f%+.3ei, loss %.4g dB/cm, n_group %.5f, TE fraction %.4f, "
                                "dominant %s\n",
                                port.name.c_str(), k, m.n_eff, m.n_eff_imag, m.loss_db_per_cm, m.n_group, te,
                                dominant.c_str());
                } else {
                    std::printf("port %s mode %zu: n_eff %.6f, n_group %.5f, TE fraction %.4f, dominant %s\n",
                                port.name.c_str(), k, m.n_eff, m.n_group, te, dominant.c_str());
                }
            }
            if (modes.size() < std::size_t(o.num_modes))
                std::fprintf(stderr, "warning: port %s: %zu mode(s) found near the highest index, %d asked for\n",
                             port.name.c_str(), modes.size(), o.num_modes);
            doc["ports"].push_back(jp);
        }
        write_file_atomic(out / "modes.csv", csv.str());
        write_file_atomic(out / "modes.json", doc.dump(2) + "\n");
    } catch (const ProjectError&) {
        throw;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s: %s\n", out.string().c_str(), e.what());
        return kExitRun;
    }
    std::printf("wrote %s and %s\n", (out / "modes.csv").string().c_str(), (out / "modes.json").string().c_str());
    return kExitOk;
}

}  // namespace golightly::cli
