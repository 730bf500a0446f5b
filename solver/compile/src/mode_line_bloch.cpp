// GoLightly: mode amplitudes on a 2D mode line spanning a Bloch axis (mode_plane.hpp
// mode_amplitudes_bloch_line): the conjugated projection onto complex Bloch modes.
#include <cmath>
#include <complex>
#include <stdexcept>

#include "golightly/mode_plane.hpp"
#include "golightly/units.hpp"

namespace golightly {

std::vector<ModeAmplitudes> mode_amplitudes_bloch_line(const ModeMonitorPlan& plan,
                                                       const std::vector<std::complex<double>>* const sets[4]) {
    using cd = std::complex<double>;
    const std::size_t nf = plan.frequencies_hz.size();
    if (plan.dims != 2 || plan.line_e_im.size() != nf || plan.line_h_im.size() != nf || plan.line_e.size() != nf ||
        plan.line_h.size() != nf)
        throw std::invalid_argument("mode_amplitudes_bloch_line: not a 2D line with complex (Bloch) modes");
    const std::size_t nn = sets[0]->size() / std::max<std::size_t>(nf, 1);
    if (sets[0]->size() != nn * nf || sets[2]->size() != nn * nf)
        throw std::invalid_argument("mode_amplitudes_bloch_line: DFT set sizes do not match the line");
    std::vector<ModeAmplitudes> out;
    for (std::size_t m = 0; m < plan.mode_indices.size(); ++m) {
        ModeAmplitudes a;
        a.mode_index = plan.mode_indices[m];
        a.fwd.assign(nf, 0.0);
        a.bwd.assign(nf, 0.0);
        a.n_eff.assign(nf, 0.0);
        a.n_eff_imag.assign(nf, 0.0);
        for (std::size_t f = 0; f < nf; ++f) {
            const auto &er = plan.line_e[f][m], &hr = plan.line_h[f][m];
            const auto &ei = plan.line_e_im[f][m], &hi = plan.line_h_im[f][m];
            if (er.size() != nn || hr.size() != nn || ei.size() != nn || hi.size() != nn) continue;
            const double ne = plan.line_neff[f][m];
            a.n_eff[f] = ne;
            const double w = 2 * M_PI * plan.frequencies_hz[f];
            const double k0n = 2.0 / (units::c0 * plan.dt_s) * std::sin(0.5 * w * plan.dt_s) * units::um;
            const double half = 0.5 * ne * k0n * plan.dx_um;
            const double c = std::sqrt(std::max(1.0 - half * half, 1e-12));
            cd j1 = 0, j2 = 0;
            double nrm = 0;
            for (std::size_t k = 0; k < nn; ++k) {
                const cd e(er[k], ei[k]), h(hr[k], hi[k]);
                j1 += (*sets[0])[k * nf + f] * std::conj(h);
                j2 += std::conj(e) * (*sets[2])[k * nf + f];
                nrm += (e * std::conj(h)).real();
            }
            const double sg = plan.line_flux_sign * plan.dx_um;
            j1 *= sg;
            j2 *= sg;
            nrm *= sg;
            if (!(nrm > 0)) continue;
            const double scale = std::sqrt(0.5 * c * nrm * 1e-6 / units::eta0) / (2 * nrm);
            const cd ap = (j1 + j2 / c) * scale, am = (j1 - j2 / c) * scale;
            a.fwd[f] = plan.sign > 0 ? ap : am;
            a.bwd[f] = plan.sign > 0 ? am : ap;
        }
        out.push_back(std::move(a));
    }
    return out;
}

}  // namespace golightly
