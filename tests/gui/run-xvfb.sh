#!/usr/bin/env bash
# Runs a GUI test executable on a virtual X server (Xvfb, through xvfb-run) with the xcb
# platform, so that the views take their OpenGL paths (Mesa's llvmpipe renders). CTest runs
# the tests of GOLIGHTLY_GUI_XVFB_TESTS (tests/gui/CMakeLists.txt) through it.
# A missing xvfb-run or xauth is a failure, not a skip: scripts/setup-deps.sh installs them
# (and Mesa with them), so their absence means the set-up is broken.
set -u
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "run-xvfb.sh: xvfb-run not found: install the packages xvfb and xauth (scripts/setup-deps.sh)" >&2
  exit 1
fi
if ! command -v xauth >/dev/null 2>&1; then
  echo "run-xvfb.sh: xauth not found (xvfb-run needs it): install xauth (scripts/setup-deps.sh)" >&2
  exit 1
fi
# -a: the first free display number (tests run in parallel); 24-bit colour so that the
# framebuffer holds the colours the test compares
exec xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp" env QT_QPA_PLATFORM=xcb "$@"
