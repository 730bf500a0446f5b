#!/usr/bin/env python3
"""Checks that no #include in solver/ runs from a lower layer's folder to a higher one.

Each file belongs to the layer of its folder (docs/architecture.md "Solver layout"); a
header `golightly/x.hpp` belongs to the layer whose include/ folder holds it. An include is
upward when the header's layer is neither the file's own nor one the file's layer links
(directly or through other layers). LINKS mirrors the target_link_libraries of
solver/CMakeLists.txt (the build enforces it for headers on include paths; this script also
sees relative includes such as "../cpu/x.hpp"). KNOWN lists the upward includes the
architecture note explains; they are printed but do not fail the check.

Usage: scripts/check-layers.py [SOLVER_DIR]   (exit 1 on an upward include not in KNOWN)
"""
import os
import re
import sys

LINKS = {
    "model/types": [],
    "model": ["model/types"],
    "viz": ["model/types"],
    "scene": ["model/types"],
    "geometry": ["model", "viz"],
    "physics": ["model", "scene"],
    "compile": ["model", "scene", "geometry", "physics"],
    "engine/cuda": ["scene", "viz"],
    "engine": ["scene", "viz", "engine/cuda"],
    "engine/mpi": ["engine"],
    "run": ["compile", "engine", "viz", "physics", "geometry"],
    "tools": ["run", "engine", "model", "physics"],
    "cli": ["tools", "run", "compile", "physics", "geometry", "model", "engine", "viz", "scene", "engine/mpi"],
}
# (file's layer, folder of the header): why it is let through (docs/architecture.md).
KNOWN = {
    ("engine/cuda", "engine/include"): "engine/include holds the interface both backends implement "
                                       "(CMake gives it to golightly_engine_cuda)",
    ("engine/cuda", "engine/cpu"): "the CUDA engines include ../cpu/cpu_bloch.hpp (host helpers of "
                                   "complex runs): to move below both backends, on the CUDA side",
}


def layer_of(path):
    for prefix in ("model/types", "engine/cuda", "engine/mpi"):
        if path.startswith(prefix + "/"):
            return prefix
    return path.split("/")[0]


def closure(layer, seen=None):
    seen = set() if seen is None else seen
    for x in LINKS.get(layer, []):
        if x not in seen:
            seen.add(x)
            closure(x, seen)
    return seen


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "solver")
    root = os.path.normpath(root)
    files = []
    for d, _, names in os.walk(root):
        for n in names:
            if re.search(r"\.(cpp|hpp|cu|cuh|inl|h)$", n):
                files.append(os.path.relpath(os.path.join(d, n), root))
    owner = {}  # golightly/x.hpp -> the folder that holds it
    for f in files:
        m = re.search(r"(?:^|/)include/(golightly/[^/]+)$", f)
        if m:
            owner[m.group(1)] = os.path.dirname(os.path.dirname(f))
    checked = upward = known = 0
    seen_known = {}
    for f in sorted(files):
        layer = layer_of(f)
        allowed = closure(layer) | {layer}
        text = open(os.path.join(root, f), errors="replace").read()
        for m in re.finditer(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', text, re.M):
            inc = m.group(1)
            checked += 1
            if inc.startswith("../") or inc.startswith("./"):
                folder = os.path.dirname(os.path.normpath(os.path.join(os.path.dirname(f), inc)))
            else:
                folder = owner.get(inc)
            if folder is None:
                continue
            to = layer_of(folder + "/")
            if to in allowed:
                continue
            if (layer, folder) in KNOWN:
                known += 1
                seen_known[(layer, folder)] = seen_known.get((layer, folder), 0) + 1
                continue
            upward += 1
            print(f"upward: {f} ({layer}) includes {inc} ({to})")
    print(f"{checked} includes checked in {len(files)} files: {upward} upward, {known} known")
    for (layer, folder), n in sorted(seen_known.items()):
        print(f"  known: {n} from {layer} into {folder}: {KNOWN[(layer, folder)]}")
    return 1 if upward else 0


if __name__ == "__main__":
    sys.exit(main())
