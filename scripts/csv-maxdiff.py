#!/usr/bin/env python3
"""The largest difference between the CSVs of two result folders, per column scale.

Usage: csv-maxdiff.py DIR_A DIR_B
For every *.csv under DIR_A and the file at the same path under DIR_B, each numeric value
pair (same row and column) is compared as |a - b| / max|a| over that column of DIR_A's file,
so a column of small numbers (a reflection near 1e-6) counts as much as one of large ones.
Prints one line, "max |a - b| / column max = X (FILE, column NAME)", or says which files
are missing or differ in shape. Used by scripts/gpu-compare.sh to tell a change of the
results from run-to-run rounding (two runs of one build compared the same way).
"""
import csv
import os
import sys


def rows(path):
    with open(path, newline="") as f:
        return [r for r in csv.reader(f) if r and not r[0].startswith("#")]


def main(a, b):
    worst, where, problems = 0.0, "", []
    for root, _, files in os.walk(a):
        for name in sorted(files):
            if not name.endswith(".csv"):
                continue
            pa = os.path.join(root, name)
            rel = os.path.relpath(pa, a)
            pb = os.path.join(b, rel)
            if not os.path.exists(pb):
                problems.append(f"{rel} missing in {b}")
                continue
            ra, rb = rows(pa), rows(pb)
            if len(ra) != len(rb) or (ra and ra[0] != rb[0]):
                problems.append(f"{rel}: {len(ra)} vs {len(rb)} rows or different headers")
                continue
            if len(ra) < 2:
                continue
            header, body_a, body_b = ra[0], ra[1:], rb[1:]
            scale = [0.0] * len(header)
            for r in body_a:
                for j, x in enumerate(r[: len(header)]):
                    try:
                        scale[j] = max(scale[j], abs(float(x)))
                    except ValueError:
                        pass
            for r1, r2 in zip(body_a, body_b):
                for j, (x, y) in enumerate(zip(r1[: len(header)], r2)):
                    try:
                        d = abs(float(x) - float(y)) / (scale[j] or 1.0)
                    except ValueError:
                        if x != y:
                            problems.append(f"{rel}: text differs in column {header[j]}")
                        continue
                    if d > worst:
                        worst, where = d, f"{rel}, column {header[j]}"
    line = f"max |a - b| / column max = {worst:.3g}" + (f" ({where})" if where else "")
    if problems:
        line += "; " + "; ".join(problems[:3])
    print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
