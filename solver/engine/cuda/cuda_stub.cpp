// Used when the CUDA backend is not compiled in (no nvcc at configure time).
#include <stdexcept>

#include "golightly/cuda_device.hpp"
#include "golightly/cuda_far_field.hpp"
#include "golightly/distributed.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"

namespace golightly {

bool cuda_available() { return false; }
int cuda_device_count() { return 0; }
bool cuda_supports_dispersion() { return false; }
std::string cuda_device_description() { return "CUDA support not compiled in"; }
std::unique_ptr<Engine> make_cuda_engine(SceneView, Precision) {
    throw RunError("this build of GoLightly has no CUDA backend (nvcc was not found when it was built)");
}
std::unique_ptr<Engine> make_cuda_engine(SceneView, Precision, int) {
    throw RunError("this build of GoLightly has no CUDA backend (nvcc was not found when it was built)");
}
void cuda_select_device(int) {
    throw RunError("this build of GoLightly has no CUDA backend (nvcc was not found when it was built)");
}
std::string cuda_device_name(int) { return ""; }
std::size_t cuda_memory_used(int) { return 0; }
std::size_t cuda_memory_free(int) { return 0; }
void cuda_copy_to_host(void*, const void*, std::size_t, int, void*) {
    throw RunError("this build of GoLightly has no CUDA backend (nvcc was not found when it was built)");
}
std::unique_ptr<HaloExchange> make_cuda_peer_halo_exchange(const std::vector<SubdomainAccess*>&) {
    throw RunError("this build of GoLightly has no CUDA backend (nvcc was not found when it was built)");
}
void cuda_apply_halo_phase(const FieldStorage&, std::int64_t, std::int64_t, double) {
    throw RunError("this build of GoLightly has no CUDA backend (nvcc was not found when it was built)");
}
double cuda_copy_bandwidth_gbs(std::size_t) {
    throw RunError("this build of GoLightly has no CUDA backend (nvcc was not found when it was built)");
}

std::vector<std::array<std::complex<double>, 6>> cuda_radiation_vectors(
    double, bool, const std::vector<Vec3>& position_m, const std::vector<std::array<std::complex<double>, 3>>& j,
    const std::vector<std::array<std::complex<double>, 3>>& m, const std::vector<double>& ds,
    const std::vector<std::array<double, 3>>&) {
    const std::size_t n = position_m.size();
    if (j.size() != n || m.size() != n || ds.size() != n)
        throw std::invalid_argument("cuda_radiation_vectors: positions, currents and ds differ in length");
    return {};
}

}  // namespace golightly
