// Optical-constants CSV reader and passive multi-pole fit (pole_fit.hpp).
#include "golightly/pole_fit.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "golightly/dispersion.hpp"
#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"
#include "golightly/units.hpp"

namespace golightly {

namespace {

std::string trim(std::string s) {
    auto issp = [](unsigned char c) { return std::isspace(c) || c == '"' || c == '\''; };
    while (!s.empty() && issp((unsigned char)s.back())) s.pop_back();
    size_t i = 0;
    while (i < s.size() && issp((unsigned char)s[i])) ++i;
    return s.substr(i);
}

std::string lower(std::string s) {
    for (auto& c : s) c = char(std::tolower((unsigned char)c));
    return s;
}

/// Splits on ',', ';', tab; falls back to blanks when none of those occurs.
std::vector<std::string> split_fields(const std::string& line) {
    std::vector<std::string> out;
    const bool delimited = line.find_first_of(",;\t") != std::string::npos;
    std::string cur;
    for (char c : line) {
        const bool sep = delimited ? (c == ',' || c == ';' || c == '\t') : (c == ' ');
        if (sep) {
            if (delimited || !cur.empty()) out.push_back(trim(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (delimited || !cur.empty()) out.push_back(trim(cur));
    if (!out.empty() && out.back().empty() && delimited && out.size() > 1) out.pop_back();  // trailing comma
    return out;
}

bool parse_number(const std::string& s, double& v) {
    if (s.empty()) return false;
    try {
        size_t pos = 0;
        v = std::stod(s, &pos);
        return pos == s.size() && std::isfinite(v);
    } catch (...) {
        return false;
    }
}

enum class Col { Wl, N, K, Other };

Col column_kind(const std::string& name) {
    const std::string l = lower(trim(name));
    if (l == "n") return Col::N;
    if (l == "k" || l == "kappa") return Col::K;
    if (l.rfind("wl", 0) == 0 || l.rfind("wavelength", 0) == 0 || l.rfind("lambda", 0) == 0) return Col::Wl;
    return Col::Other;
}

}  // namespace

OpticalData parse_refractive_index_csv(const std::string& text, const std::string& file_label) {
    struct Block {
        int n_col = -1, k_col = -1;
        int columns = 0;
        std::vector<std::array<double, 3>> rows;  // wl, n or nan, k or nan
    };
    std::vector<Block> blocks;
    std::istringstream in(text);
    std::string line;
    int line_no = 0;
    auto fail = [&](const std::string& msg) { throw ProjectError(file_label, "line " + std::to_string(line_no), msg); };
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line_no == 1 && line.size() >= 3 && (unsigned char)line[0] == 0xEF) line = line.substr(3);  // BOM
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#') continue;
        const auto fields = split_fields(t);
        double first = 0;
        if (!parse_number(fields[0], first)) {
            // a header
            Block b;
            b.columns = int(fields.size());
            for (int c = 0; c < int(fields.size()); ++c) {
                const Col kind = column_kind(fields[size_t(c)]);
                if (c == 0 && kind != Col::Wl) fail("expected a header \"wl,n[,k]\" or \"wl,k\", got \"" + limits::cap_text(t) + "\"");
                if (kind == Col::N) b.n_col = c;
                if (kind == Col::K) b.k_col = c;
            }
            if (b.n_col < 0 && b.k_col < 0) fail("the header \"" + limits::cap_text(t) + "\" names neither an n nor a k column");
            blocks.push_back(b);
            continue;
        }
        if (blocks.empty()) {
            Block b;  // headerless table: wl,n[,k]
            b.columns = int(fields.size());
            if (b.columns < 2 || b.columns > 3) fail("expected 2 or 3 columns (wl, n[, k]), got " + std::to_string(fields.size()));
            b.n_col = 1;
            b.k_col = b.columns == 3 ? 2 : -1;
            blocks.push_back(b);
        }
        Block& b = blocks.back();
        if (int(fields.size()) != b.columns)
            fail("expected " + std::to_string(b.columns) + " columns, got " + std::to_string(fields.size()));
        std::array<double, 3> row{0, std::nan(""), std::nan("")};
        std::vector<double> values(fields.size());
        for (size_t c = 0; c < fields.size(); ++c)
            if (!parse_number(fields[c], values[c])) fail("\"" + limits::cap_text(fields[c]) + "\" is not a number");
        row[0] = values[0];
        if (!(row[0] > 0)) fail("the wavelength must be > 0 um");
        if (b.n_col >= 0) row[1] = values[size_t(b.n_col)];
        if (b.k_col >= 0) {
            row[2] = values[size_t(b.k_col)];
            if (row[2] < 0) fail("k must be >= 0 (exp(-i w t) convention: k > 0 is loss)");
        }
        b.rows.push_back(row);
    }
    line_no = 0;
    // merge: n from the blocks with an n column, k from those with a k column
    std::vector<std::array<double, 2>> n_rows, k_rows;  // wl, value
    for (const auto& b : blocks) {
        for (const auto& r : b.rows) {
            if (b.n_col >= 0) n_rows.push_back({r[0], r[1]});
            if (b.k_col >= 0) k_rows.push_back({r[0], r[2]});
        }
    }
    if (n_rows.empty()) throw ProjectError(file_label, "", "no n data (expected \"wl,n,k\" rows or a \"wl,n\" block)");
    auto by_wl = [](const auto& a, const auto& b) { return a[0] < b[0]; };
    std::stable_sort(n_rows.begin(), n_rows.end(), by_wl);
    std::stable_sort(k_rows.begin(), k_rows.end(), by_wl);
    OpticalData data;
    data.has_k = !k_rows.empty();
    for (const auto& nr : n_rows) {
        OpticalSample s;
        s.wavelength_um = nr[0];
        s.n = nr[1];
        if (data.has_k) {
            auto it = std::lower_bound(k_rows.begin(), k_rows.end(), nr, by_wl);
            if (it == k_rows.end()) continue;
            if ((*it)[0] == nr[0]) {
                s.k = (*it)[1];
            } else {
                if (it == k_rows.begin()) continue;
                const auto& hi = *it;
                const auto& lo = *(it - 1);
                const double t = (nr[0] - lo[0]) / (hi[0] - lo[0]);
                s.k = lo[1] + t * (hi[1] - lo[1]);
            }
        }
        data.samples.push_back(s);
    }
    if (data.samples.empty()) throw ProjectError(file_label, "", "the n and k blocks share no wavelengths");
    return data;
}

OpticalData read_refractive_index_csv(const std::filesystem::path& file) {
    std::string text;
    try {  // regular files only, at most limits::kMaxCsvFileBytes
        text = read_regular_file(file, limits::kMaxCsvFileBytes);
    } catch (const FileReadError& e) {
        throw ProjectError(file.string(), "", std::string("cannot read the file: ") + e.what());
    }
    return parse_refractive_index_csv(text, file.string());
}

std::complex<double> epsilon_from_nk(double n, double k) {
    const std::complex<double> nk(n, k);
    return nk * nk;
}

std::complex<double> nk_from_epsilon(std::complex<double> eps) {
    std::complex<double> r = std::sqrt(eps);
    if (r.real() < 0) r = -r;
    return r;
}

std::complex<double> model_epsilon(double epsilon_inf, double sigma_s_per_m, const std::vector<Pole>& poles,
                                   double omega_rad_s) {
    Material m;
    m.epsilon_inf = epsilon_inf;
    m.conductivity = sigma_s_per_m;
    m.poles = poles;
    return analytic_epsilon(m, omega_rad_s);
}

double wavelength_um_to_omega(double wavelength_um) {
    return 2.0 * units::pi * units::c0 / (wavelength_um * units::um);
}

// ---------------------------------------------------------------- fit

namespace {

using cd = std::complex<double>;

/// The normalized model: frequencies in units of omega_scale; parameters
/// theta = [a, (b, [c,] d) per pole], eps_inf = 1 + a^2, P = b^2, W = c^2 (0 for Drude), G = d^2.
struct Model {
    int poles = 0;
    bool drude = false;
    int params() const { return 1 + 3 * poles - (drude ? 1 : 0); }

    cd eval(const Eigen::VectorXd& th, double w, Eigen::VectorXcd* grad) const {
        cd eps = 1.0 + th[0] * th[0];
        if (grad) (*grad)[0] = 2.0 * th[0];
        int j = 1;
        for (int m = 0; m < poles; ++m) {
            const bool isDrude = drude && m == 0;
            const double b = th[j];
            const double c = isDrude ? 0.0 : th[j + 1];
            const double d = th[isDrude ? j + 1 : j + 2];
            const double P = b * b, W = c * c, G = d * d;
            const cd D(W - w * w, -w * G);
            const cd invD = 1.0 / D;
            eps += P * invD;
            if (grad) {
                (*grad)[j] = 2.0 * b * invD;
                const cd invD2 = invD * invD;
                if (!isDrude) (*grad)[j + 1] = -P * invD2 * (2.0 * c);
                (*grad)[isDrude ? j + 1 : j + 2] = P * cd(0, w) * invD2 * (2.0 * d);
            }
            j += isDrude ? 2 : 3;
        }
        return eps;
    }
};

struct Problem {
    Model model;
    std::vector<double> w;    // normalized omega
    std::vector<cd> eps;      // data
    std::vector<double> inv;  // 1 / |eps|

    double cost(const Eigen::VectorXd& th, Eigen::VectorXd* r, Eigen::MatrixXd* J) const {
        const int n = int(w.size());
        const int p = model.params();
        if (r) r->resize(2 * n);
        if (J) J->resize(2 * n, p);
        Eigen::VectorXcd g(p);
        double F = 0;
        for (int i = 0; i < n; ++i) {
            const cd e = model.eval(th, w[size_t(i)], J ? &g : nullptr);
            const cd d = (e - eps[size_t(i)]) * inv[size_t(i)];
            F += std::norm(d);
            if (r) {
                (*r)[2 * i] = d.real();
                (*r)[2 * i + 1] = d.imag();
            }
            if (J)
                for (int k = 0; k < p; ++k) {
                    (*J)(2 * i, k) = g[k].real() * inv[size_t(i)];
                    (*J)(2 * i + 1, k) = g[k].imag() * inv[size_t(i)];
                }
        }
        return F;
    }
};

/// Levenberg-Marquardt (Madsen, Nielsen & Tingleff 2004, alg. 3.16); returns the final cost.
double levenberg_marquardt(const Problem& pr, Eigen::VectorXd& th, int max_iterations) {
    Eigen::VectorXd r;
    Eigen::MatrixXd J;
    double F = pr.cost(th, &r, &J);
    Eigen::MatrixXd A = J.transpose() * J;
    Eigen::VectorXd g = J.transpose() * r;
    double mu = 1e-3 * A.diagonal().maxCoeff();
    double nu = 2;
    const int p = int(th.size());
    for (int it = 0; it < max_iterations; ++it) {
        if (g.lpNorm<Eigen::Infinity>() < 1e-15 || F < 1e-30) break;
        Eigen::MatrixXd M = A;
        for (int k = 0; k < p; ++k) M(k, k) += mu * (1.0 + A(k, k));
        const Eigen::VectorXd h = M.ldlt().solve(-g);
        if (!h.allFinite()) break;
        if (h.norm() <= 1e-14 * (th.norm() + 1e-14)) break;
        const Eigen::VectorXd trial = th + h;
        const double Fn = pr.cost(trial, nullptr, nullptr);
        Eigen::VectorXd dmu(p);
        for (int k = 0; k < p; ++k) dmu[k] = mu * (1.0 + A(k, k)) * h[k];
        const double predicted = 0.5 * h.dot(dmu - g);
        const double rho = predicted > 0 ? 0.5 * (F - Fn) / predicted : -1;  // costs are sums of squares
        if (std::isfinite(Fn) && Fn < F) {
            th = trial;
            F = pr.cost(th, &r, &J);
            A = J.transpose() * J;
            g = J.transpose() * r;
            mu *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * std::min(rho, 1.0) - 1.0, 3));
            nu = 2;
        } else {
            mu *= nu;
            nu *= 2;
            if (mu > 1e30) break;
        }
    }
    return F;
}

}  // namespace

PoleFitResult fit_poles(const std::vector<OpticalSample>& samples, const PoleFitOptions& options) {
    const std::string label = "pole fit";
    if (options.poles < 1 || options.poles > 12) throw ProjectError(label, "", "the number of poles must be 1..12");
    const bool band = options.wavelength_max_um > 0;
    if (band && !(options.wavelength_min_um < options.wavelength_max_um))
        throw ProjectError(label, "", "the band's lower wavelength must be below its upper one");
    Problem pr;
    pr.model.poles = options.poles;
    pr.model.drude = options.drude;
    std::vector<double> omegas;
    for (const auto& s : samples) {
        if (band && (s.wavelength_um < options.wavelength_min_um || s.wavelength_um > options.wavelength_max_um)) continue;
        const cd e = epsilon_from_nk(s.n, s.k);
        if (!(std::abs(e) > 0)) continue;
        omegas.push_back(wavelength_um_to_omega(s.wavelength_um));
        pr.eps.push_back(e);
        pr.inv.push_back(1.0 / std::abs(e));
    }
    const int np = pr.model.params();
    const int n = int(omegas.size());
    if (2 * n < np)
        throw ProjectError(label, "", "only " + std::to_string(n) + " samples in the band for " + std::to_string(np) +
                                          " parameters: choose fewer poles or a wider band");
    // Tens of thousands of samples add nothing to a fit of at most 36 parameters but time
    // (each Levenberg-Marquardt step is linear in the samples): the fit uses at most
    // kMaxFitSamples of them, evenly spread in order; the errors are reported over all.
    constexpr int kMaxFitSamples = 1000;
    const std::vector<cd> eps_all = pr.eps;
    const std::vector<double> inv_all = pr.inv;
    std::vector<double> omegas_fit = omegas;
    if (n > kMaxFitSamples) {
        omegas_fit.clear();
        pr.eps.clear();
        pr.inv.clear();
        for (int k = 0; k < kMaxFitSamples; ++k) {
            const std::size_t i = std::size_t(std::llround(double(k) * (n - 1) / (kMaxFitSamples - 1)));
            omegas_fit.push_back(omegas[i]);
            pr.eps.push_back(eps_all[i]);
            pr.inv.push_back(inv_all[i]);
        }
    }
    const int nfit = int(omegas_fit.size());
    const double wmin = *std::min_element(omegas.begin(), omegas.end());
    const double wmax = *std::max_element(omegas.begin(), omegas.end());
    const double scale = std::sqrt(wmin * wmax);
    for (double o : omegas_fit) pr.w.push_back(o / scale);
    const double lo = wmin / scale, hi = std::max(wmax / scale, lo * 1.0001);

    // data statistics for the initial guesses
    double mean_abs = 0, drude_p = 0;
    int drude_n = 0;
    for (int i = 0; i < nfit; ++i) {
        mean_abs += std::abs(pr.eps[size_t(i)]);
        const double est = (1.0 - pr.eps[size_t(i)].real()) * pr.w[size_t(i)] * pr.w[size_t(i)];
        if (est > 0) {
            drude_p += est;
            ++drude_n;
        }
    }
    mean_abs /= nfit;
    drude_p = drude_n > 0 ? drude_p / drude_n : 0.1 * lo * lo;
    const int nl = options.poles - (options.drude ? 1 : 0);

    std::mt19937 rng(12345u);
    std::uniform_real_distribution<double> U(0.0, 1.0);
    Eigen::VectorXd best;
    double bestF = std::numeric_limits<double>::infinity();
    const int starts = std::max(1, options.starts);
    for (int s = 0; s < starts; ++s) {
        Eigen::VectorXd th(np);
        th[0] = s == 0 ? 1.0 : 0.3 + 1.5 * U(rng);
        int j = 1;
        if (options.drude) {
            const double P = drude_p * (s == 0 ? 1.0 : 0.3 + 1.5 * U(rng));
            const double G = lo * (s == 0 ? 0.05 : 0.01 + 0.3 * U(rng));
            th[j] = std::sqrt(std::max(P, 1e-6));
            th[j + 1] = std::sqrt(G);
            j += 2;
        }
        // Lorentz resonances: start 0 evenly inside the band, others log-uniform in [lo/3, 3 hi]
        std::vector<double> w0(size_t(std::max(nl, 0)));
        for (int m = 0; m < nl; ++m) {
            if (s == 0) w0[size_t(m)] = lo * std::pow(hi / lo, (m + 0.5) / nl);
            else w0[size_t(m)] = (lo / 3) * std::pow(9 * hi / lo, U(rng));
        }
        std::sort(w0.begin(), w0.end());
        for (int m = 0; m < nl; ++m) {
            const double W = w0[size_t(m)] * w0[size_t(m)];
            const double P = W * std::max(mean_abs, 1.0) / std::max(nl, 1) * (s == 0 ? 0.5 : 0.1 + 1.5 * U(rng));
            const double G = w0[size_t(m)] * (s == 0 ? 0.2 : 0.05 + 0.6 * U(rng));
            th[j] = std::sqrt(P);
            th[j + 1] = w0[size_t(m)];
            th[j + 2] = std::sqrt(G);
            j += 3;
        }
        const double F = levenberg_marquardt(pr, th, std::max(1, options.max_iterations));
        if (std::isfinite(F) && F < bestF) {
            bestF = F;
            best = th;
        }
    }
    if (best.size() == 0) throw ProjectError(label, "", "the fit did not converge from any start");
    // polish the best start
    levenberg_marquardt(pr, best, 4 * std::max(1, options.max_iterations));

    PoleFitResult result;
    result.epsilon_inf = 1.0 + best[0] * best[0];
    int j = 1;
    for (int m = 0; m < options.poles; ++m) {
        const bool isDrude = options.drude && m == 0;
        Pole p;
        p.kind = isDrude ? PoleKind::Drude : PoleKind::Lorentz;
        p.omega_p = std::abs(best[j]) * scale;  // sqrt(b^2) = |b|
        p.omega_0 = isDrude ? 0.0 : std::abs(best[j + 1]) * scale;
        p.gamma = best[isDrude ? j + 1 : j + 2] * best[isDrude ? j + 1 : j + 2] * scale;
        result.poles.push_back(p);
        j += isDrude ? 2 : 3;
    }
    // Lorentz poles by increasing omega_0 (Drude stays first)
    std::stable_sort(result.poles.begin() + (options.drude ? 1 : 0), result.poles.end(),
                     [](const Pole& a, const Pole& b) { return a.omega_0 < b.omega_0; });
    double sum = 0, mx = 0;
    for (int i = 0; i < n; ++i) {
        const cd e = model_epsilon(result.epsilon_inf, 0.0, result.poles, omegas[size_t(i)]);
        const double rel = std::abs(e - eps_all[size_t(i)]) * inv_all[size_t(i)];
        sum += rel * rel;
        mx = std::max(mx, rel);
    }
    result.rms_relative_error = std::sqrt(sum / n);
    result.max_relative_error = mx;
    result.samples_used = n;
    return result;
}

Material material_from_fit(const PoleFitResult& fit, const std::string& id, const std::string& name) {
    Material m;
    m.id = id;
    m.name = name;
    m.epsilon_inf = fit.epsilon_inf;
    m.poles = fit.poles;
    return m;
}

}  // namespace golightly
