// GoLightly: triangle meshes of the placed solids of a step shape (step_mesh,
// step_import.hpp), for the 3D medium and the IDE's 3D view: BRepMesh_IncrementalMesh per
// solid in an isolated worker (step_isolation.hpp), cached by the shape's data, placement,
// deflection and selected solids. The parsed and placed files come from step_import.cpp
// (step_occt_internal.hpp).
#include "golightly/step_import.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "golightly/isolate.hpp"
#include "golightly/limits.hpp"
#include "step_isolation.hpp"
#include "step_occt_internal.hpp"

#ifdef GOLIGHTLY_HAVE_OCCT

#include <BRepMesh_IncrementalMesh.hxx>
#include <BRep_Tool.hxx>
#include <Poly_Triangulation.hxx>
#include <Standard_Failure.hxx>
#include <TopExp_Explorer.hxx>
#include <TopLoc_Location.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Face.hxx>
#include <TopoDS_Shape.hxx>
#include <gp_Pnt.hxx>
#include <gp_Trsf.hxx>

namespace golightly {

using namespace step_occt;

namespace {

std::map<std::string, std::shared_ptr<const StepMesh>> g_meshes;  // by all inputs

/// The solids a step shape places (step_section_solids' rule).
std::vector<int> selected_solids(const Shape& s, int n) {
    std::vector<int> solids = s.solids;
    if (solids.empty() && s.extra.is_object() && s.extra.contains("solids") && s.extra["solids"].is_array())
        for (const auto& v : s.extra["solids"])
            if (v.is_number_integer()) solids.push_back(v.get<int>());
    if (solids.empty())
        for (int k = 0; k < n; ++k) solids.push_back(k);
    for (int k : solids)
        if (k < 0 || k >= n)
            throw std::runtime_error("'" + s.file_name + "': solid index " + std::to_string(k) + " out of range (the file has " +
                                     std::to_string(n) + " solids)");
    return solids;
}

template <class T>
void put_raw(std::string& out, const T& v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class T>
T get_raw(const std::string& in, std::size_t& pos) {
    if (pos + sizeof(T) > in.size()) throw std::runtime_error("the STEP mesh worker returned a truncated result");
    T v;
    std::memcpy(&v, in.data() + pos, sizeof v);
    pos += sizeof v;
    return v;
}

}  // namespace

std::shared_ptr<const StepMesh> step_mesh(const Shape& step_shape, double deflection_um) {
    if (!(deflection_um > 0) || !std::isfinite(deflection_um)) throw std::invalid_argument("step_mesh: deflection must be > 0");
    std::string key = placement_key(step_shape);
    {
        char buf[64];
        std::snprintf(buf, sizeof buf, "|mesh%.17g|", deflection_um);
        key += buf;
        for (int k : step_shape.solids) key += std::to_string(k) + ",";
        if (step_shape.extra.is_object() && step_shape.extra.contains("solids")) key += step_shape.extra["solids"].dump();
    }
    {
        std::lock_guard<std::mutex> lock(g_cache_mutex);
        auto it = g_meshes.find(key);
        if (it != g_meshes.end()) return it->second;
    }
    std::lock_guard<std::recursive_mutex> occt(g_occt_mutex);
    auto pf = placed(step_shape);
    const std::vector<int> solids = selected_solids(step_shape, int(pf->solids.size()));
    // Binary result: per solid its index, node and triangle counts, nodes (3 doubles),
    // triangles (3 int32, 0-based into the solid's nodes, outward as the faces are oriented).
    const auto mesh_here = [&]() {
        std::string out;
        try {
            put_raw(out, std::int32_t(solids.size()));
            for (int k : solids) {
                const TopoDS_Shape& solid = pf->solids[k];
                BRepMesh_IncrementalMesh mesher(solid, deflection_um, Standard_False, 0.35, Standard_False);
                std::vector<gp_Pnt> nodes;
                std::vector<std::array<std::int32_t, 3>> tris;
                for (TopExp_Explorer fx(solid, TopAbs_FACE); fx.More(); fx.Next()) {
                    const TopoDS_Face& f = TopoDS::Face(fx.Current());
                    TopLoc_Location loc;
                    const Handle(Poly_Triangulation) tri = BRep_Tool::Triangulation(f, loc);
                    if (tri.IsNull())
                        throw std::runtime_error("'" + step_shape.file_name + "': a face of solid " + std::to_string(k + 1) +
                                                 " could not be meshed (OpenCASCADE BRepMesh)");
                    const gp_Trsf tr = loc.Transformation();
                    const std::int32_t base = std::int32_t(nodes.size());
                    for (int i = 1; i <= tri->NbNodes(); ++i) nodes.push_back(tri->Node(i).Transformed(tr));
                    const bool reversed = f.Orientation() == TopAbs_REVERSED;
                    for (int i = 1; i <= tri->NbTriangles(); ++i) {
                        int a, b, c;
                        tri->Triangle(i).Get(a, b, c);
                        if (reversed) std::swap(b, c);
                        tris.push_back({base + a - 1, base + b - 1, base + c - 1});
                    }
                }
                put_raw(out, std::int32_t(k));
                put_raw(out, std::int32_t(nodes.size()));
                put_raw(out, std::int32_t(tris.size()));
                for (const gp_Pnt& p : nodes) {
                    put_raw(out, p.X());
                    put_raw(out, p.Y());
                    put_raw(out, p.Z());
                }
                for (const auto& t : tris) out.append(reinterpret_cast<const char*>(t.data()), sizeof t);
            }
        } catch (const Standard_Failure& f) {
            throw std::runtime_error("'" + step_shape.file_name + "': OpenCASCADE failed to mesh the solids (" +
                                     occt_message(f) + ")");
        }
        return out;
    };
    std::string blob;
    // Appended, not "'" + name: GCC 12 warns (-Wrestrict) on that inlined concatenation here.
    std::string job = "'";
    job += limits::cap_text(step_shape.file_name);
    job += "': the STEP mesh (OpenCASCADE)";
    try {
        blob = run_isolated(mesh_here, step_isolation_limits(), job);
    } catch (const IsolatedJobError& e) {
        if (!e.died) throw std::runtime_error(e.what());
        throw std::runtime_error(std::string(e.what()) + ": the solids are malformed or cannot be meshed");
    }
    auto mesh = std::make_shared<StepMesh>();
    std::size_t pos = 0;
    const int ns = get_raw<std::int32_t>(blob, pos);
    for (int s = 0; s < ns; ++s) {
        StepMesh::Solid sol;
        sol.solid = get_raw<std::int32_t>(blob, pos);
        const int nn = get_raw<std::int32_t>(blob, pos), nt = get_raw<std::int32_t>(blob, pos);
        if (nn < 0 || nt < 0) throw std::runtime_error("the STEP mesh worker returned a bad result");
        const int base = int(mesh->vertices.size());
        for (int i = 0; i < nn; ++i) {
            Vec3 v;
            v.x = get_raw<double>(blob, pos);
            v.y = get_raw<double>(blob, pos);
            v.z = get_raw<double>(blob, pos);
            mesh->vertices.push_back(v);
        }
        sol.first = int(mesh->triangles.size());
        sol.count = nt;
        double vol = 0;
        for (int i = 0; i < nt; ++i) {
            std::array<int, 3> t;
            for (int c = 0; c < 3; ++c) {
                const int idx = get_raw<std::int32_t>(blob, pos);
                if (idx < 0 || idx >= nn) throw std::runtime_error("the STEP mesh worker returned a bad triangle");
                t[c] = base + idx;
            }
            const Vec3& a = mesh->vertices[t[0]];
            const Vec3& b = mesh->vertices[t[1]];
            const Vec3& c = mesh->vertices[t[2]];
            // signed volume of the tetrahedron (origin, a, b, c): a . (b x c) / 6
            vol += (a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)) / 6.0;
            mesh->triangles.push_back(t);
        }
        if (vol < 0) {  // inward faces: flip the whole solid
            for (int i = sol.first; i < sol.first + nt; ++i) std::swap(mesh->triangles[i][1], mesh->triangles[i][2]);
            vol = -vol;
        }
        sol.volume_um3 = vol;
        sol.bounds = {1e300, 1e300, 1e300, -1e300, -1e300, -1e300};
        for (int i = base; i < base + nn; ++i)
            for (int a = 0; a < 3; ++a) {
                sol.bounds[a] = std::min(sol.bounds[a], mesh->vertices[i][a]);
                sol.bounds[a + 3] = std::max(sol.bounds[a + 3], mesh->vertices[i][a]);
            }
        mesh->solids.push_back(sol);
    }
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    bound_cache(g_meshes, 8);
    g_meshes[key] = mesh;
    return mesh;
}

}  // namespace golightly

#endif  // GOLIGHTLY_HAVE_OCCT
