// Bloch-periodic boundaries and oblique plane waves in the compilers (2D and 3D):
// project-format.md "Bloch-periodic boundaries" and "Oblique plane waves"; the scene side
// is scene.hpp "Bloch-periodic axes and complex fields".
//
// The Bloch wave vector is fixed across the band (as Meep's k_point and Tidy3D's
// BlochBoundary): an oblique source of polar angle theta at its centre wavelength lambda_c
// in a medium of index n sets k_par = n (2 pi / lambda_c) sin(theta); at another vacuum
// wavelength lambda the same k_par is the angle asin(k_par lambda / (2 pi n)).
#include <cmath>
#include <string>

#include "compile_internal.hpp"
#include "golightly/errors.hpp"
#include "golightly/units.hpp"

namespace golightly::detail {

namespace {
const char* const kAxis[3] = {"x", "y", "z"};

double centre_wavelength_um(const Source& s) {
    return s.waveform.type == WaveformType::GaussianPulse ? s.waveform.wavelength_center : s.waveform.wavelength;
}
}  // namespace

int source_plane_normal(const Source& src, int dimensions) {
    if (dimensions == 3) {
        if (src.type != SourceType::Plane) return -1;
        for (int a = 0; a < 3; ++a)
            if (src.size[a] == 0) return a;
        return -1;
    }
    if (src.type != SourceType::Line && src.type != SourceType::Plane) return -1;
    if (std::abs(src.from.x - src.to.x) <= 1e-12) return 0;
    if (std::abs(src.from.y - src.to.y) <= 1e-12) return 1;
    return -1;
}

std::array<double, 3> resolve_bloch_k(const Project& project, const std::string& file,
                                       const std::array<double, 3>& period_um,
                                       const std::function<double(std::size_t)>& n_at_source) {
    const Domain& d = project.domain;
    const int dims = d.dimensions == 3 ? 3 : 2;
    std::array<double, 3> k{0, 0, 0};
    bool from_domain = false;
    if (d.bloch_k) {
        for (int a = 0; a < 3; ++a) {
            const double v = (*d.bloch_k)[a];
            if (v == 0) continue;
            if (a >= dims)
                throw ProjectError(file, "domain.bloch_k", "a 2D domain has no Bloch k along z (give [kx, ky])");
            if (!d.is_bloch(a))
                throw ProjectError(file, "domain.bloch_k",
                                   std::string("a Bloch k along ") + kAxis[a] + " needs domain.boundaries." + kAxis[a] +
                                       ": \"bloch\"");
            k[a] = d.bloch_k_unit == "1/um" ? v : 2 * units::pi * v / period_um[a];
        }
        from_domain = true;
    }
    bool have_angle = false;
    std::array<double, 3> ka{0, 0, 0};
    std::string first_path;
    for (std::size_t i = 0; i < project.sources.size(); ++i) {
        const Source& s = project.sources[i];
        if (s.angle_deg == 0 && s.azimuth_deg == 0) continue;
        const std::string path = idx_path("sources", i);
        const int normal = source_plane_normal(s, dims);
        if (normal < 0)
            throw ProjectError(file, path + ".angle_deg",
                               dims == 3 ? "an oblique plane wave is a plane source (center, size with one zero entry)"
                                         : "an oblique plane wave is an axis-aligned line source");
        if (s.profile == SourceProfile::Mode)
            throw ProjectError(file, path + ".angle_deg", "a mode source has no angle (its mode sets the direction)");
        if (!(std::abs(s.angle_deg) < 90))
            throw ProjectError(file, path + ".angle_deg", "must lie strictly between -90 and 90 degrees");
        const double lc = centre_wavelength_um(s);
        if (!(lc > 0)) throw ProjectError(file, path + ".waveform", "needs a centre wavelength > 0");
        const double n = n_at_source(i);
        const double kp = n * 2 * units::pi / lc * std::sin(s.angle_deg * units::pi / 180);
        std::array<double, 3> kv{0, 0, 0};
        if (dims == 2) {
            kv[1 - normal] = kp;
        } else {
            const double phi = s.azimuth_deg * units::pi / 180;
            kv[(normal + 1) % 3] = kp * std::cos(phi);
            kv[(normal + 2) % 3] = kp * std::sin(phi);
        }
        for (int a = 0; a < dims; ++a) {
            if (std::abs(kv[a]) <= 1e-12 * std::abs(kp)) {
                kv[a] = 0;
                continue;
            }
            if (!d.is_bloch(a))
                throw ProjectError(file, path + ".angle_deg",
                                   std::string("an oblique plane wave with a wave vector along ") + kAxis[a] +
                                       " needs domain.boundaries." + kAxis[a] + ": \"bloch\"");
        }
        auto differs = [](const std::array<double, 3>& u, const std::array<double, 3>& v) {
            for (int a = 0; a < 3; ++a)
                if (std::abs(u[a] - v[a]) > 1e-9 * (1 + std::abs(u[a]) + std::abs(v[a]))) return true;
            return false;
        };
        if (from_domain && differs(kv, k))
            throw ProjectError(file, path + ".angle_deg",
                               "this angle's in-plane wave vector differs from domain.bloch_k; give one of the two");
        if (have_angle && differs(kv, ka))
            throw ProjectError(file, path + ".angle_deg",
                               "the in-plane wave vector differs from that of " + first_path +
                                   " (all oblique sources of a run share one Bloch k)");
        if (!have_angle) first_path = path;
        have_angle = true;
        ka = kv;
    }
    if (!from_domain && have_angle) k = ka;
    return k;
}

double oblique_normal_index(double eps, double k0_tilde_per_um, const std::array<double, 3>& k_per_um, int normal,
                            double dx_um) {
    double kt2 = 0;
    for (int a = 0; a < 3; ++a) {
        if (a == normal || k_per_um[a] == 0) continue;
        const double kt = 2.0 / dx_um * std::sin(0.5 * k_per_um[a] * dx_um);
        kt2 += kt * kt;
    }
    const double q = eps * k0_tilde_per_um * k0_tilde_per_um - kt2;
    if (!(q > 0)) return NAN;
    return std::sqrt(q) / k0_tilde_per_um;
}

void apply_bloch_phase(Scene& scene, std::size_t first_term, const std::array<double, 3>& k_per_um) {
    const std::int64_t nx = scene.nx, ny = scene.ny;
    for (std::size_t t = first_term; t < scene.sources.size(); ++t) {
        SourceTerm& st = scene.sources[t];
        const Vec3 off = yee_offset(st.component);
        st.weights_im.assign(st.weights.size(), 0.0);
        for (std::size_t q = 0; q < st.cells.size(); ++q) {
            const std::int64_t c = st.cells[q];
            const std::int64_t idx[3] = {c % nx, (c / nx) % ny, c / (nx * ny)};
            double ph = 0;
            for (int a = 0; a < 3; ++a)
                if (k_per_um[a] != 0) ph += k_per_um[a] * (double(idx[a]) + off[a]) * scene.dx_um;
            const double w = st.weights[q];
            st.weights[q] = w * std::cos(ph);
            st.weights_im[q] = w * std::sin(ph);
        }
    }
}

}  // namespace golightly::detail
