#!/usr/bin/env bash
# Fails when a .ts file of translations/ is incomplete: runs lupdate over the current IDE
# sources into a temporary copy of each .ts file and fails if any message is unfinished
# (untranslated, or a source string that the .ts file lacks: lupdate adds those as
# unfinished). Strings the sources no longer have (vanished) are reported, not failed.
# Usage: check_ts.sh LUPDATE SOURCES_LIST TS_FILE...
set -euo pipefail
lupdate=$1; list=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
for ts in "$@"; do
  name=$(basename "$ts")
  cp "$ts" "$tmp/$name"
  if grep -q 'type="unfinished"' "$ts"; then
    echo "FAIL $name: unfinished messages in the committed file:"
    grep -B3 'type="unfinished"' "$ts" | grep '<source>' | head -20
    status=1
  fi
  "$lupdate" -silent -locations none "@$list" -ts "$tmp/$name" >"$tmp/lupdate.log" 2>&1 || {
    cat "$tmp/lupdate.log"; echo "FAIL $name: lupdate failed"; exit 1; }
  missing=$(grep -c 'type="unfinished"' "$tmp/$name" || true)
  vanished=$(grep -c 'type="vanished"\|type="obsolete"' "$tmp/$name" || true)
  total=$(grep -c '<source>' "$tmp/$name" || true)
  echo "$name: $total messages after lupdate, $missing unfinished or missing, $vanished no longer in the sources"
  if [ "$missing" != 0 ]; then
    echo "FAIL $name: source strings without a translation (run 'ninja update_translations' and translate them):"
    grep -B4 'type="unfinished"' "$tmp/$name" | grep '<source>' | head -40
    status=1
  fi
  [ "$vanished" = 0 ] || echo "note $name: $vanished translations of strings that are gone (ninja update_translations drops them)"
done
exit $status
