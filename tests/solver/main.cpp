// The Catch2 main of the solver tests (compiled once).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
