// Tags for the test cases that need an optional feature of the build (a library found at
// configure time, solver/CMakeLists.txt). tests/CMakeLists.txt defines
// GOLIGHTLY_TEST_HAVE_<FEATURE> for each feature the build has and registers the tagged
// cases as CTest tests labelled `optional` and the feature's name; such a test must fail,
// not pass, when it cannot run (REQUIRE the feature). Without the feature the tag is
// hidden ("[.]"), so the test executable passes over those cases, and one disabled CTest
// test per feature stands for them (CTest: "Not Run (Disabled)").
//
// Use: TEST_CASE("name", "[parameters]" GOLIGHTLY_NEEDS_MUPARSER) { REQUIRE(expressions_available()); ... }
#pragma once

#ifdef GOLIGHTLY_TEST_HAVE_MUPARSER
#define GOLIGHTLY_NEEDS_MUPARSER "[muparser]"
#else
#define GOLIGHTLY_NEEDS_MUPARSER "[.][muparser]"
#endif

#ifdef GOLIGHTLY_TEST_HAVE_NLOPT
#define GOLIGHTLY_NEEDS_NLOPT "[nlopt]"
#else
#define GOLIGHTLY_NEEDS_NLOPT "[.][nlopt]"
#endif

#ifdef GOLIGHTLY_TEST_HAVE_SPECTRA
#define GOLIGHTLY_NEEDS_SPECTRA "[spectra]"
#else
#define GOLIGHTLY_NEEDS_SPECTRA "[.][spectra]"
#endif

#ifdef GOLIGHTLY_TEST_HAVE_PUGIXML
#define GOLIGHTLY_NEEDS_PUGIXML "[pugixml]"
#else
#define GOLIGHTLY_NEEDS_PUGIXML "[.][pugixml]"
#endif

#ifdef GOLIGHTLY_TEST_HAVE_YAML_CPP
#define GOLIGHTLY_NEEDS_YAML_CPP "[yaml-cpp]"
#else
#define GOLIGHTLY_NEEDS_YAML_CPP "[.][yaml-cpp]"
#endif

#ifdef GOLIGHTLY_TEST_HAVE_HARMINV
#define GOLIGHTLY_NEEDS_HARMINV "[harminv]"
#else
#define GOLIGHTLY_NEEDS_HARMINV "[.][harminv]"
#endif
