// CUDA backend placeholder: replaced by the real engine.
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
namespace golightly {
bool cuda_available() { return false; }
std::string cuda_device_description() { return "CUDA backend not implemented yet"; }
std::unique_ptr<Engine> make_cuda_engine(const Scene&, Precision) { throw RunError("CUDA backend not implemented yet"); }
}  // namespace golightly
