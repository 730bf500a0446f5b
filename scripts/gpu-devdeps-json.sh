# Sourced by gpu-check.sh and gpu-compare.sh on the GPU server (root, a disposable machine):
# a system nlohmann-json in /usr/include that differs from DEVDEPS' makes some targets
# compile against one and some against the other, and the link fails on the mixed inline
# ABI namespaces (json_abi_v3_11_2 against json_abi_v3_11_3; seen when the H200 image gained
# nlohmann-json 3.11.3). The system copy is moved aside to /tmp unless KEEP_SYSTEM_JSON=1.
gpu_devdeps_json() {  # DEVDEPS
  local sys=/usr/include/nlohmann own="$1/usr/include/nlohmann"
  [ -d "$sys" ] && [ -d "$own" ] || return 0
  cmp -s "$sys/json.hpp" "$own/json.hpp" && return 0
  if [ "${KEEP_SYSTEM_JSON:-0}" = 1 ]; then
    echo "warning: $sys differs from $own: the link may fail on mixed json ABIs (KEEP_SYSTEM_JSON=1)"
  elif mv "$sys" "/tmp/system-nlohmann.$$"; then
    echo "note: moved $sys (another nlohmann-json than DEVDEPS') to /tmp/system-nlohmann.$$"
  fi
}
