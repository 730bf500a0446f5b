// GoLightly: figures of merit over a results folder (objective.hpp): the catalogue of
// functions, parsing and evaluation. Reading the folder is objective_results.cpp.
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

namespace golightly {

namespace fs = std::filesystem;
using namespace objective_detail;

namespace {

bool is_mode_quantity(ObjectiveQuantity q) {
    return q == ObjectiveQuantity::ModePower || q == ObjectiveQuantity::ModeRe || q == ObjectiveQuantity::ModeIm ||
           q == ObjectiveQuantity::ModePhase || q == ObjectiveQuantity::ModeNeff;
}
bool is_s_quantity(ObjectiveQuantity q) {
    return q == ObjectiveQuantity::SPower || q == ObjectiveQuantity::SAbs || q == ObjectiveQuantity::SPhase ||
           q == ObjectiveQuantity::SRe || q == ObjectiveQuantity::SIm || q == ObjectiveQuantity::SdB;
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
                throw std::invalid_argument(where + csv_number(w) + " is not a wavelength (um, > 0)");
        spec.combine = combine;
        spec.expression = expr;
        spec.variable = name;
        spec.wavelengths_um = list.values;
        break;
    }
    return spec;
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
            throw std::invalid_argument(f.name + "(" + csv_number(wl) + "): " + csv_number(wl) +
                                        " um is outside the run's spectrum (" + csv_number(lo) + " to " +
                                        csv_number(hi) + " um)");
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
