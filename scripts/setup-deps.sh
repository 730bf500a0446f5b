#!/usr/bin/env bash
# Installs the Debian 12 packages GoLightly needs, and only those, skipping what is there.
# Usage: scripts/setup-deps.sh [--solver-only] [--with-meep] [--with-sanitizers]
#   --solver-only  only what the Qt-free solver and its tests need (servers, GPU nodes);
#                  also the default while the tree has no GUI sources yet (app/*.cpp)
#   --with-meep    also python3-meep, used only to cross-check and benchmark against Meep
#   --with-sanitizers  also clang and its runtimes (ASan, UBSan, libFuzzer) for
#                  scripts/sanitize-fuzz.sh (CI runs it)
set -euo pipefail
solver_only=0; with_meep=0; with_san=0
cd "$(dirname "$0")/.."
compgen -G "app/*.cpp" >/dev/null || solver_only=1
for a in "$@"; do
  case "$a" in
    --solver-only) solver_only=1 ;;
    --with-meep) with_meep=1 ;;
    --with-sanitizers) with_san=1 ;;
    *) echo "setup-deps.sh: unknown option $a" >&2; exit 1 ;;
  esac
done
# OpenCASCADE (STEP import), muparser (parameter expressions), NLopt (optimize), pugixml
# and yaml-cpp (KLayout .lyp and gdsfactory YAML layer maps) are optional for the solver
# build but part of the solver list; so is Open MPI (golightly-cli under mpirun, its tests
# run mpiexec: docs/cluster.md).
# ccache: the top-level CMakeLists.txt uses it as the compiler launcher when present, so
# that a rebuild, or a fresh clone of the same sources, reuses earlier compiles. Harminv
# (libharminv-dev) extracts resonances (frequency, Q) from time series.
pkgs=(build-essential cmake ninja-build pkg-config git ccache libharminv-dev
      nlohmann-json3-dev catch2 libcli11-dev libeigen3-dev libhdf5-dev libpng-dev zlib1g-dev
      libocct-data-exchange-dev libocct-modeling-algorithms-dev libocct-modeling-data-dev
      libocct-foundation-dev libocct-ocaf-dev libocct-visualization-dev libtbb-dev
      libmuparser-dev libnlopt-cxx-dev libspectra-dev libpugixml-dev libyaml-cpp-dev
      libopenmpi-dev openmpi-bin)
if [ "$solver_only" = 0 ]; then
  pkgs+=(qt6-base-dev libqt6opengl6-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
         libqcustomplot-dev qt6-svg-dev libgl-dev xvfb xauth)
fi
[ "$with_meep" = 1 ] && pkgs+=(python3-meep python3-numpy python3-matplotlib python3-h5py)
[ "$with_san" = 1 ] && pkgs+=(clang libclang-rt-14-dev)
pkgs+=(dpkg-dev file)  # cpack .deb: dpkg-shlibdeps and file compute the package dependencies
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then echo "setup-deps: all ${#pkgs[@]} packages present"; exit 0; fi
echo "setup-deps: installing ${missing[*]}"
sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
