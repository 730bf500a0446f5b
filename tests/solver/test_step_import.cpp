// STEP import: solids built with OpenCASCADE, written to STEP, read back and cut at a
// plane (section areas against the analytic values); the shared CAD files import and
// give non-empty sections; unreadable input gives clear errors.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <numbers>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/geometry.hpp"
#include "golightly/image_io.hpp"
#include "golightly/step_import.hpp"

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif
#else
constexpr bool kSanitizedBuild = false;
#endif

#ifdef GOLIGHTLY_HAVE_OCCT
#include <BRepAlgoAPI_Cut.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <BRepPrimAPI_MakeCylinder.hxx>
#include <BRepPrimAPI_MakeSphere.hxx>
#include <IFSelect_ReturnStatus.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <Message_Printer.hxx>
#include <Interface_Static.hxx>
#include <Quantity_Color.hxx>
#include <STEPCAFControl_Writer.hxx>
#include <STEPControl_Writer.hxx>
#include <TDataStd_Name.hxx>
#include <TDocStd_Document.hxx>
#include <XCAFApp_Application.hxx>
#include <XCAFDoc_ColorTool.hxx>
#include <XCAFDoc_DocumentTool.hxx>
#include <XCAFDoc_ShapeTool.hxx>
#include <gp_Ax2.hxx>
#include <gp_Pln.hxx>
#endif

using namespace golightly;
namespace fs = std::filesystem;

namespace {

constexpr double kPi = std::numbers::pi;

std::vector<std::uint8_t> read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Shape shape_from_bytes(const std::vector<std::uint8_t>& bytes, const std::string& name, double scale) {
    Shape s;
    s.type = ShapeType::Step;
    s.file_name = name;
    s.data_base64 = base64_encode(bytes);
    s.scale = scale;
    return s;
}

double outline_area(const Outline& o) {
    double a = 0;
    for (const auto& r : o)
        for (std::size_t k = 0; k < r.size(); ++k) {
            const Vec2& p = r[k];
            const Vec2& q = r[(k + 1) % r.size()];
            a += 0.5 * (p.x * q.y - q.x * p.y);
        }
    return a;
}

double total_area(const std::vector<Outline>& v) {
    double a = 0;
    for (const auto& o : v) a += outline_area(o);
    return a;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

#ifdef GOLIGHTLY_HAVE_OCCT

namespace {

/// Writes `shape` (OCCT units, mm) to a STEP file and returns its bytes.
std::vector<std::uint8_t> write_step(const TopoDS_Shape& shape, const fs::path& file) {
    for (const Handle(Message_Printer)& pr : Message::DefaultMessenger()->Printers()) pr->SetTraceLevel(Message_Fail);  // keep the writer's statistics out of the log
    STEPControl_Writer w;
    REQUIRE(w.Transfer(shape, STEPControl_AsIs) == IFSelect_RetDone);
    REQUIRE(w.Write(file.string().c_str()) == IFSelect_RetDone);
    return read_bytes(file);
}

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("golightly_step_" + std::to_string(::getpid()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

}  // namespace

TEST_CASE("STEP round trip: box, cylinder, sphere and tube sections match the analytic areas", "[step]") {
    TempDir tmp;
    // Solids in mm (OCCT's unit); scale 1 maps a file unit (mm) to 1 um here, so the
    // numbers below read directly in um.
    const TopoDS_Shape box = BRepPrimAPI_MakeBox(gp_Pnt(-1.0, -2.0, -3.0), 2.0, 3.0, 4.0).Shape();
    const TopoDS_Shape cyl = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(0.3, -0.2, -2.0), gp_Dir(0, 0, 1)), 1.5, 4.0).Shape();
    const TopoDS_Shape sph = BRepPrimAPI_MakeSphere(gp_Pnt(0, 0, 0), 2.0).Shape();
    const TopoDS_Shape outer = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(0, 0, -1), gp_Dir(0, 0, 1)), 2.0, 2.0).Shape();
    const TopoDS_Shape inner = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(0, 0, -2), gp_Dir(0, 0, 1)), 1.2, 4.0).Shape();
    const TopoDS_Shape tube = BRepAlgoAPI_Cut(outer, inner).Shape();

    const double tol = 1e-4;
    struct Case { const char* name; TopoDS_Shape s; double z; double area; };
    const std::vector<Case> cases = {
        {"box", box, 0.5, 2.0 * 3.0},
        {"cylinder", cyl, 1.1, kPi * 1.5 * 1.5},
        {"sphere", sph, 0.7, kPi * (4.0 - 0.49)},
        {"tube", tube, 0.3, kPi * (4.0 - 1.44)},
    };
    for (const auto& c : cases) {
        const auto bytes = write_step(c.s, tmp.path / (std::string(c.name) + ".step"));
        const StepModel m = read_step(bytes, c.name);
        CHECK(m.solids.size() == 1);
        CHECK(m.length_unit == "mm");
        CHECK(m.unit_um == Approx(1000.0));
        const Shape sh = shape_from_bytes(bytes, c.name, 1.0);
        const auto secs = step_section_solids(sh, c.z, tol);
        REQUIRE(secs.size() == 1);
        const double a = outline_area(secs[0].outline);
        std::printf("[step] %s section at z = %.2f: outline %.8f, OCCT face %.8f, analytic %.8f um^2 (rel %.1e)\n",
                    c.name, c.z, a, secs[0].area_um2, c.area, std::abs(a - c.area) / c.area);
        CHECK(std::abs(a - c.area) / c.area < 1e-3);
        CHECK(std::abs(secs[0].area_um2 - c.area) / c.area < 1e-6);
        // holes CW: the tube has one CCW and one CW ring
        if (std::string(c.name) == "tube") {
            REQUIRE(secs[0].outline.size() == 2);
            double a0 = outline_area({secs[0].outline[0]}), a1 = outline_area({secs[0].outline[1]});
            CHECK(std::min(a0, a1) == Approx(-kPi * 1.44).epsilon(1e-3));
            CHECK(std::max(a0, a1) == Approx(kPi * 4.0).epsilon(1e-3));
        }
        // a plane that misses the solid: a clear message with the z range
        try {
            step_section(sh, 10.0, tol);
            FAIL("no error for a plane above the solid");
        } catch (const std::runtime_error& e) {
            CHECK(std::string(e.what()).find("crosses the plane z = 10") != std::string::npos);
        }
    }

    // Placement: p -> R_z R_y R_x (scale p) + t. The cylinder (radius 1.5, z in [-2, 2],
    // axis through (0.3, -0.2)) scaled 2x, turned 90 deg about x, moved by (10, 20, 5):
    // its axis runs along y at x = 10.6, z = 4.6, y in [16, 24], radius 3; the plane
    // z = 5.6 cuts it in an 8 um long strip of width 2 sqrt(3^2 - 1^2).
    {
        const auto bytes = read_bytes(tmp.path / "cylinder.step");
        Shape sh = shape_from_bytes(bytes, "cylinder", 2.0);
        sh.rotate_deg = {90.0, 0.0, 0.0};
        sh.translate = {10.0, 20.0, 5.0};
        // after scale: axis through (0.6, -0.4, z), radius 3, z in [-4, 4]; R_x(90):
        // (x, y, z) -> (x, -z, y): axis along y at height z' = -0.4, x = 0.6, y in [-4, 4]
        const double z = 5.0 + 0.6;  // 1.0 above the axis (at 5 - 0.4)
        const double chord = 2.0 * std::sqrt(9.0 - 1.0);
        const auto b = step_bounds_um(sh);
        CHECK(b[2] == Approx(5.0 - 0.4 - 3.0).margin(1e-3));
        CHECK(b[5] == Approx(5.0 - 0.4 + 3.0).margin(1e-3));
        const auto v = step_section(sh, z, 1e-4);
        CHECK(total_area(v) == Approx(chord * 8.0).epsilon(1e-6));
        double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
        for (const auto& o : v)
            for (const auto& r : o)
                for (const Vec2& p : r) {
                    xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
                    ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
                }
        CHECK(xmin == Approx(10.6 - 0.5 * chord).margin(1e-6));
        CHECK(xmax == Approx(10.6 + 0.5 * chord).margin(1e-6));
        CHECK(ymin == Approx(16.0).margin(1e-6));
        CHECK(ymax == Approx(24.0).margin(1e-6));
    }

    // A project: the sphere on a layer; `check`'s material areas count it.
    {
        const auto bytes = read_bytes(tmp.path / "sphere.step");
        Project p;
        p.domain.size = {6.0, 6.0, 0.0};
        p.domain.cell_size = 0.05;
        p.domain.slice_z = 0.7;
        Material si;
        si.id = "si";
        si.epsilon_inf = 12.0;
        p.materials.push_back(si);
        Layer l;
        l.name = "cad";
        l.material = "si";
        Shape sh = shape_from_bytes(bytes, "sphere.step", 1.0);
        sh.translate = {3.0, 3.0, 0.0};
        l.shapes.push_back(sh);
        p.layers.push_back(l);
        const auto areas = material_areas_um2(p, 0.05, false);
        CHECK(areas.at("si") == Approx(kPi * (4.0 - 0.49)).epsilon(1e-4));
        p.domain.slice_z = 3.0;  // above the sphere
        try {
            material_areas_um2(p, 0.05, false);
            FAIL("no error for a slice that misses the STEP solids");
        } catch (const ProjectError& e) {
            CHECK(e.json_path() == "layers[0].shapes[0]");
            CHECK(std::string(e.what()).find("sphere.step") != std::string::npos);
        }
    }
}

TEST_CASE("STEP import errors: not STEP, truncated, no solids", "[step]") {
    TempDir tmp;
    auto message_of = [](const std::vector<std::uint8_t>& b) {
        try {
            read_step(b, "bad.step");
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string png = "\x89PNG\r\n\x1a\n....";
    CHECK(message_of({png.begin(), png.end()}).find("not a STEP file") != std::string::npos);
    CHECK(message_of({}).find("not a STEP file") != std::string::npos);
    const auto good = write_step(BRepPrimAPI_MakeBox(1.0, 1.0, 1.0).Shape(), tmp.path / "box.step");
    const std::vector<std::uint8_t> half(good.begin(), good.begin() + good.size() / 2);
    CHECK(message_of(half).find("truncated") != std::string::npos);
    const TopoDS_Shape face = BRepBuilderAPI_MakeFace(gp_Pln(gp_Pnt(0, 0, 0), gp_Dir(0, 0, 1)), 0, 1, 0, 1).Face();
    const auto surf = write_step(face, tmp.path / "face.step");
    CHECK(message_of(surf).find("no solid") != std::string::npos);
    CHECK(message_of(good).empty());
    // make_step_shape: unreadable path
    CHECK_THROWS_WITH(make_step_shape(tmp.path / "missing.step", 1000, {0, 0, 0}, {0, 0, 0}),
                      Catch::Contains("cannot open"));
    const Shape ok = make_step_shape(tmp.path / "box.step", 1000, {0, 0, 0}, {0, 0, 0});
    CHECK(ok.file_name == "box.step");
    CHECK(step_shape_bytes(ok) == good);
}

namespace {

/// The example part (examples/step_ring.step): an all-pass ring filter, two named and
/// coloured solids written through XCAF in micrometres. Ring: centre (4, 3.6), radii
/// 1.6 / 2.0; bus: x in [-1, 9], y in [1.05, 1.45]; both z in [-0.11, 0.11] um.
void write_example_ring(const fs::path& file) {
    // OCCT 7.6's writer labels the file with write.step.unit without converting the
    // coordinates: build directly in um.
    const double mm = 1.0;
    const double zc = -0.11, h = 0.22;
    const TopoDS_Shape outer =
        BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(4.0 * mm, 3.6 * mm, zc * mm), gp_Dir(0, 0, 1)), 2.0 * mm, h * mm).Shape();
    const TopoDS_Shape inner =
        BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(4.0 * mm, 3.6 * mm, (zc - 0.1) * mm), gp_Dir(0, 0, 1)), 1.6 * mm,
                                 (h + 0.2) * mm)
            .Shape();
    const TopoDS_Shape ring = BRepAlgoAPI_Cut(outer, inner).Shape();
    const TopoDS_Shape bus = BRepPrimAPI_MakeBox(gp_Pnt(-1.0 * mm, 1.05 * mm, zc * mm), 10.0 * mm, 0.4 * mm, h * mm).Shape();
    Handle(TDocStd_Document) doc;
    XCAFApp_Application::GetApplication()->NewDocument("MDTV-XCAF", doc);
    Handle(XCAFDoc_ShapeTool) st = XCAFDoc_DocumentTool::ShapeTool(doc->Main());
    Handle(XCAFDoc_ColorTool) ct = XCAFDoc_DocumentTool::ColorTool(doc->Main());
    const TDF_Label lr = st->AddShape(ring, false);
    TDataStd_Name::Set(lr, "ring");
    ct->SetColor(lr, Quantity_Color(0.8, 0.2, 0.1, Quantity_TOC_sRGB), XCAFDoc_ColorSurf);
    const TDF_Label lb = st->AddShape(bus, false);
    TDataStd_Name::Set(lb, "bus");
    ct->SetColor(lb, Quantity_Color(0.1, 0.3, 0.8, Quantity_TOC_sRGB), XCAFDoc_ColorSurf);
    STEPCAFControl_Writer w;  // (initializes the STEP controller's defaults first)
    Interface_Static::SetCVal("write.step.unit", "UM");
    REQUIRE(w.Transfer(doc, STEPControl_AsIs));
    REQUIRE(w.Write(file.string().c_str()) == IFSelect_RetDone);
    Interface_Static::SetCVal("write.step.unit", "MM");
}

}  // namespace

// Regenerates examples/step_ring.step (hidden: run with [.generate]).
TEST_CASE("generate the example STEP file", "[.generate]") {
    write_example_ring(fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "step_ring.step");
}

TEST_CASE("names, colours and micrometre units survive an XCAF round trip", "[step]") {
    TempDir tmp;
    write_example_ring(tmp.path / "ring.step");
    const StepModel m = read_step(read_bytes(tmp.path / "ring.step"), "ring.step");
    REQUIRE(m.solids.size() == 2);
    CHECK(m.length_unit == "um");
    CHECK(m.unit_um == Approx(1.0));
    CHECK(m.solids[0].name == "ring");
    CHECK(m.solids[1].name == "bus");
    CHECK(m.solids[0].has_color);
    CHECK(m.solids[0].color_rgb[0] == Approx(0.8).margin(0.01));
    CHECK(m.solids[1].color_rgb[2] == Approx(0.8).margin(0.01));
    CHECK(m.solids[1].bbox_min[0] == Approx(-1.0).margin(1e-3));  // (Bnd_Box adds the tolerance)
    CHECK(m.solids[1].bbox_max[0] == Approx(9.0).margin(1e-3));
    CHECK(m.solids[0].volume == Approx(kPi * (4.0 - 2.56) * 0.22).epsilon(1e-6));
    // per-solid selection
    Shape sh = shape_from_bytes(read_bytes(tmp.path / "ring.step"), "ring.step", 1.0);
    CHECK(total_area(step_section_solids(sh, 0.0, 1e-5, {0}).size() == 1 ? std::vector<Outline>{step_section_solids(sh, 0.0, 1e-5, {0})[0].outline} : std::vector<Outline>{}) ==
          Approx(kPi * (4.0 - 2.56)).epsilon(1e-4));
    sh.extra["solids"] = Json::array({1});
    CHECK(total_area(step_section(sh, 0.0, 1e-5)) == Approx(4.0).epsilon(1e-9));
    // the import check names the solids the plane misses
    sh.extra.erase("solids");
    sh.translate = {0.0, 0.0, 0.0};
    CHECK(step_import_sections(sh, 0.05, 1e-4).size() == 2);
    Shape lifted = sh;
    lifted.rotate_deg = {0.0, 90.0, 0.0};  // on its side, (x, y, z) -> (z, y, -x): ring z -6 .. -2, bus -9 .. 1
    CHECK(step_import_sections(lifted, -4.0, 1e-4).size() == 2);
    CHECK_THROWS_WITH(step_import_sections(lifted, -7.0, 1e-4),
                      Catch::Contains("solid 'ring'") && Catch::Contains("does not cross the slice plane z = -7 um"));
}

#endif  // GOLIGHTLY_HAVE_OCCT

TEST_CASE("the example project embeds a STEP ring filter and compiles", "[step]") {
    const fs::path file = fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "step_import.glproj";
    const Project p = load_project(file);
    REQUIRE(p.layers.size() >= 1);
    REQUIRE(p.layers[0].shapes.at(0).type == ShapeType::Step);
    if (!step_import_available()) {
        WARN("this build has no STEP support: compile not checked");
        return;
    }
    // ring + bus section areas at slice_z = 0 (the bus inside the interior: x in [0, 8])
    const auto areas = material_areas_um2(p, p.domain.cell_size, false);
    CHECK(areas.at("si_eff") == Approx(kPi * (4.0 - 2.56) + 8.0 * 0.4).epsilon(1e-4));
}

TEST_CASE("the shared STEP files import and give sections", "[step]") {
    if (!step_import_available()) {
        WARN("this build has no STEP support: skipped");
        CHECK_THROWS_WITH(read_step({}, "x.step"), Catch::Contains("no STEP support"));
        return;
    }
    // shared/ lies beside the repository (CI) or where GOLIGHTLY_SHARED_DIR points
    const char* env = std::getenv("GOLIGHTLY_SHARED_DIR");
    const fs::path dir = (env && *env ? fs::path(env) : fs::path(GOLIGHTLY_SOURCE_DIR) / ".." / "shared") / "data" / "step";
    if (!fs::is_directory(dir)) {
        WARN("no shared STEP files at " << dir.string() << ": skipped");
        return;
    }
    for (const char* name : {"linkrods.step", "screw.step", "unit_sphere.stp", "Crystal_SMD_4P_2520.step"}) {
        const fs::path file = dir / name;
        REQUIRE(fs::exists(file));
        const auto bytes = read_bytes(file);
        int calls = 0;
        double last = -1;
        bool monotone = true;
        const auto t0 = std::chrono::steady_clock::now();
        const StepModel m = read_step(bytes, name, [&](double f, const std::string&) {
            monotone = monotone && f >= last - 1e-12;
            last = f;
            ++calls;
            return true;
        });
        const double t_read = seconds_since(t0);
        REQUIRE(!m.solids.empty());
        CHECK(calls >= 2);
        CHECK(monotone);
        CHECK(last == Approx(1.0));
        // the file's placement in um; a plane through the middle of the bounding box
        const Shape sh = shape_from_bytes(bytes, name, m.unit_um);
        const auto t1 = std::chrono::steady_clock::now();
        const auto b = step_bounds_um(sh);
        const double z = 0.5 * (b[2] + b[5]);
        const double tol = 1e-4 * std::max(b[3] - b[0], b[4] - b[1]);  // a tenth of a cell of 1/1000 of the part
        const auto secs = step_section_solids(sh, z, tol);
        const double t_cut = seconds_since(t1);
        double a = 0, a_occt = 0;
        for (const auto& s : secs) a += outline_area(s.outline), a_occt += s.area_um2;
        std::printf("[step] %s: %zu solids, unit %s, bbox z [%g, %g] um; read %.2f s (%d progress calls), "
                    "placed + cut at z = %g um in %.2f s: %zu sections, area %.6g um^2 (faces %.6g)\n",
                    name, m.solids.size(), m.length_unit.c_str(), b[2], b[5], t_read, calls, z, t_cut, secs.size(),
                    a, a_occt);
        CHECK(!secs.empty());
        CHECK(a > 0);
        CHECK(std::abs(a - a_occt) < 1e-2 * a_occt);
#ifdef NDEBUG
        if (!kSanitizedBuild) CHECK(t_read + t_cut < 10.0);  // ASan+UBSan (scripts/sanitize-fuzz.sh) are slower
#endif
    }
}

// ---------------------------------------------------------------- STEP solids in 3D

namespace {

Project step_project_3d(const Shape& sh, double margin_um, double cells_across, double& dx) {
    const auto b = step_bounds_um(sh);
    Project p;
    p.domain.dimensions = 3;
    Material a;
    a.id = "a";
    a.name = "a";
    a.epsilon_inf = 4.0;
    p.materials = {a};
    const double size = std::max({b[3] - b[0], b[4] - b[1], b[5] - b[2]});
    dx = size / cells_across;
    p.domain.size = {b[3] - b[0] + 2 * margin_um, b[4] - b[1] + 2 * margin_um, b[5] - b[2] + 2 * margin_um};
    Shape placed = sh;
    for (int ax = 0; ax < 3; ++ax) placed.translate[ax] += margin_um - b[ax];  // the part inside [0, L]
    Layer l;
    l.name = "part";
    l.material = "a";
    l.shapes = {placed};
    p.layers = {l};
    return p;
}

}  // namespace

#ifdef GOLIGHTLY_HAVE_OCCT
TEST_CASE("STEP solids in 3D: volume fractions of a tube and a sphere match the analytic volumes", "[step][geometry3d]") {
    TempDir tmp;
    const TopoDS_Shape outer = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(0, 0, -1), gp_Dir(0, 0, 1)), 2.0, 2.0).Shape();
    const TopoDS_Shape inner = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(0, 0, -2), gp_Dir(0, 0, 1)), 1.2, 4.0).Shape();
    const TopoDS_Shape tube = BRepAlgoAPI_Cut(outer, inner).Shape();
    const TopoDS_Shape sph = BRepPrimAPI_MakeSphere(gp_Pnt(0, 0, 0), 2.0).Shape();
    struct Case { const char* name; TopoDS_Shape s; double volume; };
    for (const Case& c : {Case{"tube", tube, kPi * (4.0 - 1.44) * 2.0}, Case{"sphere", sph, 4.0 / 3.0 * kPi * 8.0}}) {
        const auto bytes = write_step(c.s, tmp.path / (std::string(c.name) + ".step"));
        const Shape sh = shape_from_bytes(bytes, c.name, 1.0);  // mm -> um 1:1
        double dx = 0;
        const Project p = step_project_3d(sh, 0.37, 40, dx);
        const auto vols = material_volumes_um3(p, dx, false);
        const auto mesh = step_mesh(p.layers[0].shapes[0], 0.02 * dx);
        REQUIRE(mesh->solids.size() == 1);
        std::printf("[step3d] %s: dx %.3f um, volume fractions %.6f um^3, mesh %.6f, analytic %.6f (rel %.1e)\n", c.name,
                    dx, vols.at("a"), mesh->solids[0].volume_um3, c.volume, vols.at("a") / c.volume - 1);
        // the mesh is inscribed (chordal deflection 2 % of a cell): it loses about
        // deflection * area; the fractions integrate that mesh's sections
        CHECK(vols.at("a") == Approx(c.volume).epsilon(2e-3));
        CHECK(vols.at("a") == Approx(mesh->solids[0].volume_um3).epsilon(1e-4));
        double cells = 1;  // the interior cell grid of material_volumes_um3
        for (int ax = 0; ax < 3; ++ax) cells *= std::max(1.0, double(std::lround(p.domain.size[ax] / dx)));
        CHECK(vols.at("a") + vols.at("air") == Approx(cells * dx * dx * dx).epsilon(1e-9));
    }
}
#endif

TEST_CASE("the shared STEP files in 3D: volume fractions match OpenCASCADE's volumes", "[step][geometry3d]") {
    if (!step_import_available()) {
        WARN("this build has no STEP support: skipped");
        return;
    }
    const char* env = std::getenv("GOLIGHTLY_SHARED_DIR");
    const fs::path dir = (env && *env ? fs::path(env) : fs::path(GOLIGHTLY_SOURCE_DIR) / ".." / "shared") / "data" / "step";
    if (!fs::is_directory(dir)) {
        WARN("no shared STEP files at " << dir.string() << ": skipped");
        return;
    }
    for (const char* name : {"unit_sphere.stp", "screw.step", "Crystal_SMD_4P_2520.step"}) {
        const auto bytes = read_bytes(dir / name);
        const StepModel m = read_step(bytes, name);
        const Shape sh = shape_from_bytes(bytes, name, m.unit_um);
        double gprop = 0;  // GProp volumes, file units^3 -> um^3
        for (const StepSolid& s : m.solids) gprop += s.volume * std::pow(m.unit_um, 3);
        double dx = 0;
        const Project p = step_project_3d(sh, 0.0, 60, dx);
        const auto t0 = std::chrono::steady_clock::now();
        const auto vols = material_volumes_um3(p, dx, false);
        const double t = seconds_since(t0);
        double mesh_vol = 0;
        for (const auto& s : step_mesh(p.layers[0].shapes[0], 0.02 * dx)->solids) mesh_vol += s.volume_um3;
        std::printf("[step3d] %s: %zu solids, 60 cells across (dx %.4g um): fractions %.6g um^3, mesh %.6g, GProp %.6g "
                    "(rel %.1e) in %.2f s\n",
                    name, m.solids.size(), dx, vols.at("a"), mesh_vol, gprop, vols.at("a") / gprop - 1, t);
        CHECK(vols.at("a") == Approx(gprop).epsilon(5e-3));
        CHECK(vols.at("a") == Approx(mesh_vol).epsilon(1e-3));
    }
}

TEST_CASE("STEP 3D coverage of a large assembly (timing)", "[.][bench]") {
    const char* env = std::getenv("GOLIGHTLY_SHARED_DIR");
    const fs::path dir = (env && *env ? fs::path(env) : fs::path(GOLIGHTLY_SOURCE_DIR) / ".." / "shared") / "data" / "step";
    const char* name = std::getenv("GOLIGHTLY_BENCH_STEP") ? std::getenv("GOLIGHTLY_BENCH_STEP") : "linkrods.step";
    const int cells = std::getenv("GOLIGHTLY_BENCH_CELLS") ? std::atoi(std::getenv("GOLIGHTLY_BENCH_CELLS")) : 400;
    const auto bytes = read_bytes(dir / name);
    const StepModel m = read_step(bytes, name);
    const Shape sh = shape_from_bytes(bytes, name, m.unit_um);
    double gprop = 0;
    for (const StepSolid& s : m.solids) gprop += s.volume * std::pow(m.unit_um, 3);
    double dx = 0;
    Project p = step_project_3d(sh, 0.0, cells, dx);
    for (int ax = 0; ax < 3; ++ax) p.domain.size[ax] = cells * dx;  // a cells^3 grid over the part
    auto t0 = std::chrono::steady_clock::now();
    const auto mesh = step_mesh(p.layers[0].shapes[0], 0.02 * dx);
    const double t_mesh = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    SampleGrid3 g;
    g.nx = g.ny = g.nz = cells;
    g.dx_um = dx;
    g.x0_um = g.y0_um = g.z0_um = 0.5 * dx;
    const Coverage cov = compute_coverage_3d(p, g, false);
    const double t_cov = seconds_since(t0);
    std::map<std::string, double> vols;
    for (std::size_t q = 0; q < cov.material_ids.size(); ++q) {
        double sum = 0;
        for (float f : cov.fraction[q]) sum += f;
        vols[cov.material_ids[q]] = sum * dx * dx * dx;
    }
    t0 = std::chrono::steady_clock::now();
    const AveragedMedium med = average_medium_3d(p, g, Component::Ex, true, false);
    const double t_avg = seconds_since(t0);
    std::printf("[step3d] subpixel medium for Ex on the same grid: %.2f s (%zu samples)\n", t_avg, med.eps_r.size());
    std::printf("[step3d] %s: %zu solids, %zu triangles, grid %d cells across (%.0f x %.0f x %.0f): mesh %.2f s, "
                "coverage %.2f s; volume %.6g um^3 vs GProp %.6g (rel %.1e)\n",
                name, m.solids.size(), mesh->triangles.size(), cells, p.domain.size[0] / dx, p.domain.size[1] / dx,
                p.domain.size[2] / dx, t_mesh, t_cov, vols.at("a"), gprop, vols.at("a") / gprop - 1);
    // The whole 3D compile of that project (issue 14: "a 400^3 grid of one STEP part compiles
    // in under a minute on 2 cores"): mesh, the averaged medium of Ex, Ey and Ez, the
    // material table and CPML, as `golightly-cli check` and `run` do it (interior cells^3,
    // periodic faces so the grid is exactly that).
    p.domain.cell_size = dx;
    p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Periodic, BoundaryKind::Periodic};
    p.run.spectrum.wavelength_min = 20 * dx;
    p.run.spectrum.wavelength_max = 40 * dx;
    t0 = std::chrono::steady_clock::now();
    const CompiledProject cp = compile_project(p, name);
    const double t_compile = seconds_since(t0);
    std::printf("[step3d] %s: compile_project of the %d^3 grid (%zu cells): %.1f s\n", name, cells,
                cp.scene.cells(), t_compile);
}
