// Until the CPU engine (branch cpu-engine) is merged, bench.cpp's reference to
// make_cpu_engine needs a definition in this executable. Weak: the real one wins as soon
// as the solver library provides it.
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"

namespace golightly {
__attribute__((weak)) std::unique_ptr<Engine> make_cpu_engine(const Scene&, Precision, int) {
    throw RunError("the CPU engine is not part of this build");
}
}  // namespace golightly
