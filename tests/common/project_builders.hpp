// Builders of the parts of a Project that many tests write out: shapes, materials and
// layers with the fields a test sets, every other field at its model default
// (project.hpp). Header-only, namespace golightly::test.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "golightly/project.hpp"

namespace golightly::test {

/// A rectangle from corner `lo` to corner `hi` (um), turned by `rot` degrees.
inline Shape rectangle(Vec2 lo, Vec2 hi, double rot = 0) {
    Shape s;
    s.type = ShapeType::Rectangle;
    s.min = lo;
    s.max = hi;
    s.rotation_deg = rot;
    return s;
}

/// A polygon through `pts` (um).
inline Shape polygon(std::vector<Vec2> pts) {
    Shape s;
    s.type = ShapeType::Polygon;
    s.points = std::move(pts);
    return s;
}

/// An ellipse at `c` with radii `rx`, `ry` (um), turned by `rot` degrees.
inline Shape ellipse(Vec2 c, double rx, double ry, double rot = 0) {
    Shape s;
    s.type = ShapeType::Ellipse;
    s.center = c;
    s.radii = {rx, ry};
    s.rotation_deg = rot;
    return s;
}

/// A ring at `c` between radii `r_in` and `r_out` (um).
inline Shape ring(Vec2 c, double r_in, double r_out) {
    Shape s;
    s.type = ShapeType::Ring;
    s.center = c;
    s.inner_radius = r_in;
    s.outer_radius = r_out;
    return s;
}

/// A non-dispersive material `id` (also its name): eps_inf `eps`, conductivity `sigma` (S/m).
inline Material material(const std::string& id, double eps, double sigma = 0) {
    Material m;
    m.id = id;
    m.name = id;
    m.epsilon_inf = eps;
    m.conductivity = sigma;
    return m;
}

/// A layer `name` of material id `mat` holding `shapes`.
inline Layer layer(const std::string& name, const std::string& mat, std::vector<Shape> shapes) {
    Layer l;
    l.name = name;
    l.material = mat;
    l.shapes = std::move(shapes);
    return l;
}

}  // namespace golightly::test
