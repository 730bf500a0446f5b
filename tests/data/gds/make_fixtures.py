#!/usr/bin/env python3
"""Writes the GDSII test fixtures of GoLightly's GDS import (tests/solver/test_gds.cpp)
with an independent tool, gdspy (1.4), and the tool's own figures for them.

Run from this folder:  python3 make_fixtures.py   (Debian: apt-get install python3-gdspy)
Writes layout.gds, two_tops.gds and layout.json, and units_5nm.gds, units_0p25nm.gds and
units.json (database units other than 1 nm, ABSMAG/ABSANGLE references; see units_fixture). No two elements of a layer overlap (checked with gdspy's boolean union), so
the areas are those of the layers' regions too. The .gds and .json files are committed,
so the tests need no gdspy; rerun this script only to change the fixtures.

layout.json: for each cell, for each "layer/datatype", the flattened polygons' total
area (um^2, gdspy's Cell.area(by_spec=True) of the file as gdspy reads it back), their
bounding box [[xmin, ymin], [xmax, ymax]] (um, from gdspy's get_polygons(by_spec=True))
and their count. Exceptions, marked "source": "analytic": round-ended paths (gdspy
approximates the half discs by polygons to its 0.01 um tolerance, so its figure is not
exact; the figure given is w L + pi w^2 / 4 per path and the exact bbox), and BOX elements
(gdspy neither writes nor reads them: they are appended to the stream here by hand, and
their rectangle's figures given).
"""
import json
import math
import struct

import gdspy

UNIT, PRECISION = 1e-6, 1e-9  # user unit 1 um, database unit 1 nm


def leaf_cell(lib):
    leaf = gdspy.Cell("LEAF", exclude_from_current=True)
    lib.add(leaf)
    # An L-shaped polygon (clockwise on purpose) and a triangle on another datatype.
    leaf.add(gdspy.Polygon([(0, 0), (0, 2), (0.5, 2), (0.5, 0.5), (1.5, 0.5), (1.5, 0)][::-1], layer=1, datatype=0))
    leaf.add(gdspy.Polygon([(2, 0), (3, 0), (2.5, 1.2)], layer=1, datatype=5))
    return leaf


def main():
    lib = gdspy.GdsLibrary(unit=UNIT, precision=PRECISION)
    leaf = leaf_cell(lib)

    paths = gdspy.Cell("PATHS", exclude_from_current=True)
    lib.add(paths)
    pts = [(0, 0), (4, 0), (4, 3), (6, 5)]  # a 90 degree and a 45 degree corner
    paths.add(gdspy.FlexPath(pts, 0.5, ends="flush", gdsii_path=True, layer=2, datatype=0))
    paths.add(gdspy.FlexPath([(p[0], p[1] + 10) for p in pts], 0.4, ends="extended", gdsii_path=True, layer=2, datatype=1))
    paths.add(gdspy.FlexPath([(p[0], p[1] + 20) for p in pts], 0.6, ends=(0.3, 0.1), gdsii_path=True, layer=2, datatype=2))
    round_pts = [(0, 30), (5, 30)]
    paths.add(gdspy.FlexPath(round_pts, 0.8, ends="round", gdsii_path=True, layer=3, datatype=0))

    mid = gdspy.Cell("MID", exclude_from_current=True)
    lib.add(mid)
    mid.add(gdspy.CellArray(leaf, 3, 2, (4, 3), origin=(0, 0), rotation=90))
    mid.add(gdspy.Rectangle((0.5, -1), (1, 7), layer=1, datatype=0))

    top = gdspy.Cell("TOP", exclude_from_current=True)
    lib.add(top)
    top.add(gdspy.CellReference(leaf, origin=(10, 0), rotation=30, magnification=1.5, x_reflection=True))
    top.add(gdspy.CellReference(mid, origin=(20, 5), rotation=-45))
    # AREF rotations are multiples of 90 degrees: the lattice points of the file then lie on
    # the nm grid (gdspy reads an AREF back by dropping the off-axis part of its rounded
    # lattice vectors, which moves instances by up to 0.06 nm at other angles)
    top.add(gdspy.CellArray(leaf, 2, 3, (5, 4), origin=(30, -10), rotation=270, magnification=2, x_reflection=True))
    top.add(gdspy.CellReference(paths, origin=(0, 40)))
    lib.write_gds("layout.gds")

    # The BOX element (gdspy has none): appended to cell PATHS on layer 4, boxtype 0.
    box = [(1.0, -3.0), (3.5, -3.0), (3.5, -2.0), (1.0, -2.0), (1.0, -3.0)]
    rec = lambda rtype, dtype, payload=b"": struct.pack(">HBB", 4 + len(payload), rtype, dtype) + payload
    box_bytes = (rec(0x2D, 0x00) + rec(0x0D, 0x02, struct.pack(">h", 4)) + rec(0x2E, 0x02, struct.pack(">h", 0))
                 + rec(0x10, 0x03, b"".join(struct.pack(">ii", round(x / PRECISION * UNIT), round(y / PRECISION * UNIT)) for x, y in box))
                 + rec(0x11, 0x00))
    data = open("layout.gds", "rb").read()
    name = b"PATHS"
    start = data.index(struct.pack(">HBB", 4 + len(name) + (len(name) % 2), 0x06, 0x06) + name)
    endstr = data.index(struct.pack(">HBB", 4, 0x07, 0x00), start)
    data = data[:endstr] + box_bytes + data[endstr:]
    open("layout.gds", "wb").write(data)

    # Figures: read the file back with gdspy and flatten.
    back = gdspy.GdsLibrary(infile="layout.gds")
    figures = {}
    for cname in ("LEAF", "PATHS", "MID", "TOP"):
        cell = back.cell_dict[cname]
        areas = cell.area(by_spec=True)
        polys = cell.get_polygons(by_spec=True)
        out = {}
        for (layer, dt), plist in sorted(polys.items()):
            # no two elements overlap: the sum of the areas is the union's (coverage takes unions)
            union = gdspy.boolean(plist, None, "or", precision=1e-6)
            assert abs(union.area() - areas[(layer, dt)]) < 1e-6 * areas[(layer, dt)], (cname, layer, dt, union.area(), areas[(layer, dt)])
            xs = [p[0] for poly in plist for p in poly]
            ys = [p[1] for poly in plist for p in poly]
            out[f"{layer}/{dt}"] = {"area": float(areas[(layer, dt)]), "count": len(plist),
                                    "bbox": [[min(xs), min(ys)], [max(xs), max(ys)]], "source": "gdspy"}
        figures[cname] = out

    # Analytic figures where gdspy has none or an approximate one (see the docstring).
    def round_path(x0, y0, x1, y1, w, dy=0.0):
        L = math.hypot(x1 - x0, y1 - y0)
        h = w / 2
        return {"area": w * L + math.pi * w * w / 4, "count": 1, "source": "analytic",
                "bbox": [[min(x0, x1) - h, y0 + dy - h], [max(x0, x1) + h, y0 + dy + h]]}
    figures["PATHS"]["3/0"] = round_path(0, 30, 5, 30, 0.8)
    figures["TOP"]["3/0"] = round_path(0, 30, 5, 30, 0.8, dy=40)
    figures["PATHS"]["4/0"] = {"area": 2.5, "count": 1, "source": "analytic", "bbox": [[1.0, -3.0], [3.5, -2.0]]}
    figures["TOP"]["4/0"] = {"area": 2.5, "count": 1, "source": "analytic", "bbox": [[1.0, 37.0], [3.5, 38.0]]}

    with open("layout.json", "w") as f:
        json.dump({"unit": UNIT, "precision": PRECISION, "file": "layout.gds", "cells": figures}, f, indent=1, sort_keys=True)
        f.write("\n")

    # Two top cells (a gds shape without `cell` must refuse it).
    lib2 = gdspy.GdsLibrary(unit=UNIT, precision=PRECISION)
    a = gdspy.Cell("A", exclude_from_current=True)
    lib2.add(a)
    a.add(gdspy.Rectangle((0, 0), (1, 1), layer=1))
    b = gdspy.Cell("B", exclude_from_current=True)
    lib2.add(b)
    b.add(gdspy.Rectangle((0, 0), (2, 1), layer=1))
    lib2.write_gds("two_tops.gds")


def units_fixture(name, unit, precision, scale, figures):
    """A library with user unit `unit` m and database unit `precision` m (coordinates given
    in um, times `scale` user units per um), and an SREF with ABSMAG and ABSANGLE set.

    Cells: ULEAF (an L polygon and a triangle with coordinates off the database grid,
    which gdspy rounds when writing; a flush path on 2/0), UMID (ULEAF placed with rotation
    30 and magnification 1.5; placed again at origin (-2, 4) reflected, with rotation 10 and
    magnification 0.5 marked absolute; a 2 x 2 AREF), UTOP (UMID at rotation 45,
    magnification 2). gdspy has no absolute flags: the file is written with the plain values
    and the STRANS bits 0x0004 (ABSMAG) and 0x0002 (ABSANGLE) of that SREF are set here.
    Figures: ULEAF and UMID as gdspy reads the file (the flags change nothing when UMID is
    the top: its parent transformation is the identity); UTOP from an equivalent library in
    which the absolute SREF carries the relative values that give the same absolute ones,
    rotation 10 - 45 and magnification 0.5 / 2 (the parent UMID sits in UTOP unreflected at
    45 degrees and magnification 2; the SREF's origin is in UMID's frame either way).
    Areas in um^2 and boxes in um (user units / scale)."""
    def build(abs_rotation, abs_mag):
        lib = gdspy.GdsLibrary(unit=unit, precision=precision)
        leaf = gdspy.Cell("ULEAF", exclude_from_current=True)
        lib.add(leaf)
        L = [(0, 0), (1.50137, 0), (1.50137, 0.5), (0.5, 0.5), (0.5, 2.00371), (0, 2.00371)]
        leaf.add(gdspy.Polygon([(x * scale, y * scale) for x, y in L], layer=1, datatype=0))
        leaf.add(gdspy.Polygon([(2 * scale, 0), (3.0013 * scale, 0), (2.5 * scale, 1.2007 * scale)], layer=1, datatype=5))
        leaf.add(gdspy.FlexPath([(0, 3 * scale), (2 * scale, 3 * scale), (2 * scale, 4.5 * scale)], 0.25 * scale,
                                ends="flush", gdsii_path=True, layer=2, datatype=0))
        mid = gdspy.Cell("UMID", exclude_from_current=True)
        lib.add(mid)
        mid.add(gdspy.CellReference(leaf, origin=(3 * scale, 1 * scale), rotation=30, magnification=1.5))
        mid.add(gdspy.CellReference(leaf, origin=(-2 * scale, 4 * scale), rotation=abs_rotation, magnification=abs_mag,
                                    x_reflection=True))
        mid.add(gdspy.CellArray(leaf, 2, 2, (4 * scale, 5 * scale), origin=(0, -8 * scale)))
        top = gdspy.Cell("UTOP", exclude_from_current=True)
        lib.add(top)
        top.add(gdspy.CellReference(mid, origin=(10 * scale, 5 * scale), rotation=45, magnification=2))
        return lib

    def figures_of(path, cells):
        back = gdspy.GdsLibrary(infile=path)
        out = {}
        for cname in cells:
            cell = back.cell_dict[cname]
            areas = cell.area(by_spec=True)
            polys = cell.get_polygons(by_spec=True)
            res = {}
            for (layer, dt), plist in sorted(polys.items()):
                xs = [p[0] / scale for poly in plist for p in poly]
                ys = [p[1] / scale for poly in plist for p in poly]
                res[f"{layer}/{dt}"] = {"area": float(areas[(layer, dt)]) / scale ** 2, "count": len(plist),
                                        "bbox": [[min(xs), min(ys)], [max(xs), max(ys)]], "source": "gdspy"}
            out[cname] = res
        return out

    build(10, 0.5).write_gds(name)
    data = bytearray(open(name, "rb").read())
    # The second SREF of UMID: set ABSMAG | ABSANGLE in its STRANS.
    pos, in_mid, srefs, patched = 0, False, 0, False
    while pos < len(data):
        length, rtype = struct.unpack(">HB", data[pos:pos + 3])
        if rtype == 0x06:  # STRNAME
            in_mid = data[pos + 4:pos + length].rstrip(b"\0") == b"UMID"
        if in_mid and rtype == 0x0A:  # SREF
            srefs += 1
        if in_mid and srefs == 2 and rtype == 0x1A and not patched:  # STRANS
            bits = struct.unpack(">H", data[pos + 4:pos + 6])[0]
            assert bits & 0x8000
            data[pos + 4:pos + 6] = struct.pack(">H", bits | 0x0004 | 0x0002)
            patched = True
        pos += length
    assert patched
    open(name, "wb").write(bytes(data))
    out = figures_of(name, ("ULEAF", "UMID"))
    equivalent = name + ".equivalent.tmp"
    build(10 - 45, 0.5 / 2).write_gds(equivalent)
    out.update(figures_of(equivalent, ("UTOP",)))
    import os
    os.remove(equivalent)
    figures[name] = {"unit": unit, "precision": precision, "um_per_db": precision * 1e6, "cells": out}


def main_units():
    figures = {}
    units_fixture("units_5nm.gds", 1e-9, 5e-9, 1000.0, figures)     # user unit 1 nm, database unit 5 nm
    units_fixture("units_0p25nm.gds", 1e-6, 0.25e-9, 1.0, figures)  # user unit 1 um, database unit 0.25 nm
    with open("units.json", "w") as f:
        json.dump(figures, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    import sys
    if "--units-only" not in sys.argv:
        main()
    main_units()
