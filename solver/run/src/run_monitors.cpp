// GoLightly run driver: the monitors' results from an engine's DFTs and samples (flux
// spectra and their normalization, time series, diffraction orders, far fields, DFT field
// maps, mode amplitudes).
#include "run_driver_internal.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <optional>
#include <vector>

#include "golightly/errors.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"
#include "diffraction_run.hpp"
#include "far_field_run.hpp"
#include "resonance_run.hpp"

namespace golightly {

std::vector<std::complex<double>> waveform_dft(const CompiledWaveform& w, double delay_s, double dt_s,
                                               double time_offset, const std::vector<double>& frequencies_hz,
                                               std::int64_t steps) {
    std::vector<std::complex<double>> x(frequencies_hz.size());
    // A pulse is zero beyond 12 tau (CompiledWaveform::value): stop there.
    if (w.type == WaveformType::GaussianPulse) {
        const double t_end = delay_s + w.t0_s + 12.0 * w.tau_s;
        steps = std::min<std::int64_t>(steps, std::int64_t(std::ceil(t_end / dt_s - time_offset)) + 1);
    }
    std::vector<std::complex<double>> rot(frequencies_hz.size()), ph(frequencies_hz.size());
    for (std::size_t f = 0; f < frequencies_hz.size(); ++f) {
        const double w_dt = 2 * units::pi * frequencies_hz[f] * dt_s;
        rot[f] = std::polar(1.0, w_dt);
        ph[f] = std::polar(1.0, w_dt * time_offset);
    }
    for (std::int64_t n = 0; n < steps; ++n) {
        const double v = w.value((double(n) + time_offset) * dt_s - delay_s) * dt_s;
        for (std::size_t f = 0; f < x.size(); ++f) {
            x[f] += v * ph[f];
            ph[f] *= rot[f];
        }
        if ((n & 1023) == 1023)  // keep the phasors on the unit circle
            for (std::size_t f = 0; f < x.size(); ++f)
                ph[f] = std::polar(1.0, 2 * units::pi * frequencies_hz[f] * dt_s * (double(n + 1) + time_offset));
    }
    return x;
}

std::vector<double> tfsf_incident_intensity(const Scene& scene, const std::vector<double>& frequencies_hz,
                                            std::int64_t steps) {
    if (scene.tfsf.empty()) throw RunError("tfsf_incident_intensity: the scene has no tfsf source");
    const TfsfSource& t = scene.tfsf.front();
    const auto e_inc = waveform_dft(t.waveform, t.delay_s, scene.dt_s, 1.0, frequencies_hz, steps);
    double eps = 1.0;
    const auto& map = scene.material_index[static_cast<int>(t.e_component)];
    const std::size_t corner = std::size_t((t.lo[2] * scene.ny + t.lo[1]) * scene.nx + t.lo[0]);
    if (corner < map.size()) eps = scene.table.at(map[corner]).eps_r;
    std::vector<double> out(frequencies_hz.size());
    for (std::size_t f = 0; f < out.size(); ++f) out[f] = std::sqrt(eps) * std::norm(e_inc[f]) / (2 * units::eta0);
    return out;
}

}  // namespace golightly

namespace golightly::driver {

/// Fetches the DFT sets a monitor's flux terms use.
void fetch_sets(Engine& engine, const CompiledMonitor& m, std::map<int, cvec>& sets) {
    for (const FluxTerm& t : m.flux_terms) {
        if (!sets.count(t.e_set)) sets[t.e_set] = engine.dft(t.e_set);
        if (!sets.count(t.h_set)) sets[t.h_set] = engine.dft(t.h_set);
    }
}

/// Flux spectrum of a monitor's terms (compile.hpp, FluxTerm):
///   P(f) = sum_terms sign * 0.5 / eta0 * Re sum_k E[k][f] conj(H~[k][f]) * ds_um * (1e-6)^ds_dims
/// (time-averaged Poynting flux 0.5 Re(E x H*), H = H~/eta0; W/m in 2D, W in 3D). `sets` holds the DFT
/// accumulators [k * n_freq + f]; `ref`, when given, is subtracted sample by sample first.
std::vector<double> flux_spectrum(const Scene& scene, const CompiledMonitor& m, std::size_t n_freq,
                                  const std::map<int, cvec>& sets, const std::map<int, cvec>* ref) {
    std::vector<double> p(n_freq, 0.0);
    for (const FluxTerm& t : m.flux_terms) {
        const cvec& e = sets.at(t.e_set);
        const cvec& h = sets.at(t.h_set);
        const cvec* er = ref ? &ref->at(t.e_set) : nullptr;
        const cvec* hr = ref ? &ref->at(t.h_set) : nullptr;
        const std::size_t nf_e = scene.dft_sets[t.e_set].frequencies_hz.size();
        const std::size_t nf_h = scene.dft_sets[t.h_set].frequencies_hz.size();
        if (nf_e != n_freq || nf_h != n_freq)
            throw RunError("monitor '" + m.name + "': DFT set frequencies do not match the run spectrum");
        const std::size_t ns = e.size() / n_freq;
        if (h.size() != e.size() || (er && (er->size() != e.size() || hr->size() != h.size())))
            throw RunError("monitor '" + m.name + "': DFT sample counts differ between E and H or between the "
                           "reference and the main run");
        const double scale = t.sign * 0.5 / units::eta0 * t.ds_um * std::pow(units::um, t.ds_dims);
        for (std::size_t k = 0; k < ns; ++k)
            for (std::size_t f = 0; f < n_freq; ++f) {
                std::complex<double> ev = e[k * n_freq + f], hv = h[k * n_freq + f];
                if (er) {
                    ev -= (*er)[k * n_freq + f];
                    hv -= (*hr)[k * n_freq + f];
                }
                p[f] += scale * (ev * std::conj(hv)).real();
            }
    }
    return p;
}

/// True for the monitors whose normalized value subtracts the reference run's fields
/// (flux "reflection", flux_box "scattering").
bool uses_reference_fields(const CompiledMonitor& m) {
    return (m.type == MonitorType::Flux && m.kind == "reflection") ||
           (m.type == MonitorType::FluxBox && m.kind == "scattering");
}

/// The spectrum of a flux or flux_box monitor from the DFTs the engine holds now: the raw
/// flux (W/m in 2D, W in 3D; flux_spectrum) and the normalized values
/// (FluxSpectrumResult::normalized):
/// - flux_box with a tfsf source in the scene (no reference run needed): the cross-section
///   sign * P / I_inc (um in 2D, um^2 in 3D), I_inc the TF/SF wave's intensity over the
///   steps done so far (tfsf_incident_intensity), P the raw net outward flux (outside the
///   TF box that is the scattered field's, inside the total field's);
/// - otherwise, when `norm` is given: flux monitors num / P_inc (dimensionless), flux boxes
///   the cross-section sign * num * L_inc / P_inc (L_inc the incident monitor's length or
///   area); num is the flux of the fields minus the reference run's (norm->ref_sets) for
///   reflection and scattering monitors, else the raw flux.
/// sign: +1 for scattering, -1 for absorption and flux (which count inward flux as
/// positive). `n_freq` is the run spectrum's length. Throws RunError (flux_spectrum).
FluxSpectrumResult flux_spectrum_result(Engine& engine, const Scene& scene, const CompiledMonitor& m,
                                        std::size_t n_freq, const SpectrumNormalization* norm) {
    FluxSpectrumResult s;
    s.name = m.name;
    s.type = m.type;
    s.kind = m.kind;
    std::map<int, cvec> sets;
    fetch_sets(engine, m, sets);
    s.flux = flux_spectrum(scene, m, n_freq, sets, nullptr);
    const double sign = m.kind == "scattering" ? 1.0 : -1.0;
    if (m.type == MonitorType::FluxBox && !scene.tfsf.empty()) {
        const std::vector<double>& freqs = scene.dft_sets.at(m.flux_terms.at(0).e_set).frequencies_hz;
        const std::vector<double> i_inc = tfsf_incident_intensity(scene, freqs, engine.steps_done());
        // W / (W/m^2) = m^2 (3D), (W/m) / (W/m^2) = m (2D); to um^2 / um
        const double to_um = scene.dimensions == 3 ? 1.0 / (units::um * units::um) : 1.0 / units::um;
        s.normalized.resize(n_freq);
        for (std::size_t f = 0; f < n_freq; ++f) s.normalized[f] = sign * s.flux[f] / i_inc[f] * to_um;
        return s;
    }
    if (!norm) return s;
    const std::vector<double>& p_inc = *norm->p_inc;
    const bool uses_ref = norm->ref_sets && uses_reference_fields(m);
    const std::vector<double> num = uses_ref ? flux_spectrum(scene, m, n_freq, sets, norm->ref_sets) : s.flux;
    s.normalized.resize(n_freq);
    for (std::size_t f = 0; f < n_freq; ++f) {
        if (m.type == MonitorType::Flux) {
            s.normalized[f] = num[f] / p_inc[f];
        } else {
            // cross-section (um, um^2): flux / (P_inc / L_inc)
            s.normalized[f] = sign * num[f] * norm->l_inc_um / p_inc[f];
        }
    }
    return s;
}

/// A time monitor's samples so far with their times (fs): E components are sampled at
/// (n + 1) dt, H components at (n + 1/2) dt (scene.hpp, step order).
TimeSeriesResult time_series_result(Engine& engine, const Scene& scene, const CompiledMonitor& m) {
    TimeSeriesResult ts;
    ts.name = m.name;
    ts.component = scene.time_probes.at(m.time_probe).component;
    ts.values = engine.time_samples(m.time_probe);
    const bool electric = ts.component == Component::Ex || ts.component == Component::Ey ||
                          ts.component == Component::Ez;
    ts.time_fs.resize(ts.values.size());
    for (std::size_t n = 0; n < ts.values.size(); ++n)
        ts.time_fs[n] = (double(n) + (electric ? 1.0 : 0.5)) * scene.dt_s / units::fs;
    return ts;
}

/// The Floquet orders of flux monitor `m` when the project declares it a diffraction
/// monitor (spectra normalized with `norm` when given, its reflected fields from the
/// reference run's), else nothing. Throws RunError as detail::diffraction_result.
std::optional<DiffractionResult> diffraction_of(Engine& engine, const Project& project, const CompiledProject& compiled,
                                                const CompiledMonitor& m, const SpectrumNormalization* norm,
                                                std::vector<std::string>& warnings) {
    if (m.type != MonitorType::Flux) return std::nullopt;
    const Scene& scene = compiled.scene;
    for (const Monitor& pm : project.monitors) {
        if (pm.name != m.name || pm.type != MonitorType::Flux || !pm.diffraction) continue;
        const bool ref = norm && norm->ref_sets && uses_reference_fields(m);
        // The run's in-plane Bloch k (rad/um along the plane's tangential axes t1 < t2):
        // bloch_phase = k L over the axis's period L = n dx (a periodic axis has no PML); 0
        // on plain periodic axes.
        std::array<double, 2> k_par{0.0, 0.0};
        if (!m.flux_terms.empty()) {
            const int normal = m.flux_terms.front().normal_axis;
            const int n_cells[3] = {scene.nx, scene.ny, scene.dimensions == 3 ? scene.nz : 1};
            int slot = 0;
            for (int a = 0; a < 3 && slot < 2; ++a) {
                if (a == normal) continue;
                k_par[std::size_t(slot++)] = scene.bloch_phase[a] / (double(n_cells[a]) * scene.dx_um);
            }
        }
        return detail::diffraction_result(engine, scene, m, *pm.diffraction, compiled.spectrum_hz,
                                          norm ? norm->p_inc : nullptr, ref ? norm->ref_sets : nullptr, k_par,
                                          warnings);
    }
    return std::nullopt;
}

std::optional<FarFieldResult> far_field_of(Engine& engine, const Project& project, const Scene& scene,
                                           const CompiledMonitor& m, const SpectrumNormalization* norm) {
    for (const Monitor& pm : project.monitors)
        if (pm.name == m.name && pm.type == m.type && pm.far_field && !m.flux_terms.empty()) {
            const auto& freqs = scene.dft_sets.at(std::size_t(m.flux_terms[0].e_set)).frequencies_hz;
            const std::vector<double> i_inc = scene.tfsf.empty()
                                                  ? std::vector<double>{}
                                                  : tfsf_incident_intensity(scene, freqs, engine.steps_done());
            const bool ref = norm && norm->ref_sets && uses_reference_fields(m);
            return detail::far_field_result(engine, scene, m, *pm.far_field, freqs, ref ? norm->ref_sets : nullptr,
                                            i_inc);
        }
    return std::nullopt;
}

/// A dft_field monitor's complex field maps (DftFieldResult: values[c][f * nx*ny + s],
/// origin of sample 0 in um, wavelengths in um). Throws RunError when the engine's sample
/// count does not match the monitor's region.
DftFieldResult dft_field_result(Engine& engine, const Scene& scene, const CompiledMonitor& m) {
    DftFieldResult d;
    d.name = m.name;
    d.nx = m.region_nx;
    d.ny = m.region_ny;
    d.nz = m.region_nz;
    d.dimensions = scene.dimensions;
    d.dx_um = scene.dx_um;
    d.components = m.dft_field_components;
    for (std::size_t c = 0; c < m.dft_field_sets.size(); ++c) {
        const int set = m.dft_field_sets[c];
        const DftSet& ds = scene.dft_sets.at(set);
        const std::size_t nfd = ds.frequencies_hz.size();
        if (c == 0) {
            d.frequency_hz = ds.frequencies_hz;
            for (double f : d.frequency_hz) d.wavelength_um.push_back(units::hz_to_wavelength_um(f));
            if (!ds.cell0.empty()) {
                const std::int64_t c0 = ds.cell0[0];
                const int i0 = int(c0 % scene.nx), j0 = int((c0 / scene.nx) % scene.ny);
                const int k0 = int(c0 / (std::int64_t(scene.nx) * scene.ny));
                const Vec3 off = yee_offset(ds.component);
                d.origin_um = {scene.position_um(0, i0 + off.x), scene.position_um(1, j0 + off.y)};
                d.origin_z_um = scene.dimensions == 3 ? scene.position_um(2, k0 + off.z) : 0.0;
            }
        }
        const cvec raw = engine.dft(set);
        const std::size_t ns = std::size_t(d.nx) * std::size_t(d.ny) * std::size_t(d.nz);
        if (raw.size() != ns * nfd)
            throw RunError("dft_field monitor '" + m.name + "': sample count does not match its region");
        cvec v(raw.size());
        for (std::size_t s = 0; s < ns; ++s)
            for (std::size_t f = 0; f < nfd; ++f) v[f * ns + s] = raw[s * nfd + f];
        d.values.push_back(std::move(v));
    }
    return d;
}

/// A mode monitor's amplitudes (mode_plane.hpp mode_amplitudes), divided by sqrt(P_inc(f))
/// when `p_inc` is given.
std::vector<ModeCoefficientsResult> mode_coefficients_result(Engine& engine, const CompiledMonitor& m,
                                                             const std::vector<double>* p_inc) {
    const ModeMonitorPlan& plan = *m.mode_plan;
    auto fetch = [&engine](int set) { return set >= 0 ? engine.dft(set) : cvec{}; };
    const cvec eu = fetch(plan.set_e[0]), ev = fetch(plan.set_e[1]);
    const cvec hu = fetch(plan.set_h[0]), hv = fetch(plan.set_h[1]);
    const cvec* const sets[4] = {&eu, &ev, &hu, &hv};
    std::vector<ModeCoefficientsResult> out;
    // a 2D line across a Bloch axis has complex modes: the conjugated projection
    for (ModeAmplitudes& a : mode_amplitudes(plan, sets)) {
        ModeCoefficientsResult r;
        r.name = m.name;
        r.mode_index = a.mode_index;
        r.fwd = std::move(a.fwd);
        r.bwd = std::move(a.bwd);
        r.n_eff = std::move(a.n_eff);
        r.n_eff_imag = std::move(a.n_eff_imag);
        if (p_inc)
            for (std::size_t f = 0; f < r.fwd.size() && f < p_inc->size(); ++f) {
                const double s = (*p_inc)[f] > 0 ? 1.0 / std::sqrt((*p_inc)[f]) : 0.0;
                r.fwd[f] *= s;
                r.bwd[f] *= s;
            }
        out.push_back(std::move(r));
    }
    return out;
}

/// Turns every monitor of the main run into its result (spectra normalized with `norm`
/// when given, time series and their resonances, dft_field maps), in the order of
/// main.monitors. Throws RunError (resonances in a build without Harminv).
void gather_monitors(Engine& engine, const Project& project, const CompiledProject& main,
                     const SpectrumNormalization* norm, RunResult& result,
                     std::optional<std::vector<FarFieldResult>> far_fields) {
    if (far_fields) result.far_fields = std::move(*far_fields);  // the last live snapshot's, at this step
    const Scene& scene = main.scene;
    const std::size_t nf = main.spectrum_hz.size();
    for (const CompiledMonitor& m : main.monitors) {
        if (m.mode_plan) {
            for (ModeCoefficientsResult& mc : mode_coefficients_result(engine, m, norm ? norm->p_inc : nullptr))
                result.mode_coefficients.push_back(std::move(mc));
            for (const std::string& w : m.mode_plan->warnings) result.warnings.push_back(w);
        }
        if (m.type == MonitorType::Flux || m.type == MonitorType::FluxBox) {
            result.spectra.push_back(flux_spectrum_result(engine, scene, m, nf, norm));
            if (!far_fields)
                if (std::optional<FarFieldResult> f = far_field_of(engine, project, scene, m, norm))
                    result.far_fields.push_back(std::move(*f));
            if (std::optional<DiffractionResult> d = diffraction_of(engine, project, main, m, norm, result.warnings))
                result.diffraction.push_back(std::move(*d));
        } else if (m.type == MonitorType::Time) {
            result.time_series.push_back(time_series_result(engine, scene, m));
            for (const Monitor& pm : project.monitors)
                if (pm.name == m.name && pm.type == MonitorType::Time && pm.resonances)
                    result.resonances.push_back(detail::resonances_of(result.time_series.back(), *pm.resonances,
                                                                      project, main.sources_end_s, scene.dt_s,
                                                                      result.warnings));
        } else if (m.type == MonitorType::DftField)
            result.dft_fields.push_back(dft_field_result(engine, scene, m));
    }
}

}  // namespace golightly::driver
