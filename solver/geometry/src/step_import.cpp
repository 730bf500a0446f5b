// GoLightly: STEP import through OpenCASCADE (OCCT 7.6), and planar sections of the
// imported solids (step_import.hpp). The only file that includes OCCT headers.
// Meshes of the placed solids: step_mesh.cpp (through step_occt_internal.hpp: the parsed
// and placed files, their caches and the OCCT lock).
//
// Reading: STEPCAFControl_Reader (names and colours from the XCAF document), assemblies
// flattened with their locations. OCCT transfers geometry in its working unit (mm, the
// "xstep.cascade.unit" default); the file's own unit (STEPControl_Reader::FileUnits) is
// read so that a shape's `scale` applies to file units as the spec says.
// Sectioning: the Boolean common of each placed solid with a planar face z = z_um
// (BRepAlgoAPI_Common) gives the section faces with their outer and inner wires; each
// wire is discretized edge by edge (GCPnts_QuasiUniformDeflection, chordal deviation
// below the tolerance) and oriented CCW (outer) or CW (holes).
#include "golightly/step_import.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "golightly/image_io.hpp"
#include "golightly/isolate.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"
#include "step_isolation.hpp"
#include "step_occt_internal.hpp"

#ifdef GOLIGHTLY_HAVE_OCCT

#include <cctype>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <chrono>
#include <sstream>

#include <BRepAdaptor_Curve.hxx>
#include <BRepAlgoAPI_Common.hxx>
#include <BRepBndLib.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepBuilderAPI_MakeSolid.hxx>
#include <BRepBuilderAPI_Transform.hxx>
#include <BRepGProp.hxx>
#include <BRepTools.hxx>
#include <BRepTools_WireExplorer.hxx>
#include <BinTools.hxx>
#include <BRep_Builder.hxx>
#include <TopoDS_Compound.hxx>
#include <TopoDS_Iterator.hxx>
#include <BRep_Tool.hxx>
#include <Bnd_Box.hxx>
#include <GCPnts_QuasiUniformDeflection.hxx>
#include <GProp_GProps.hxx>
#include <IFSelect_ReturnStatus.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <Message_Printer.hxx>
#include <Message_ProgressIndicator.hxx>
#include <Message_ProgressScope.hxx>
#include <Quantity_Color.hxx>
#include <STEPCAFControl_Reader.hxx>
#include <STEPControl_Reader.hxx>
#include <StepData_StepModel.hxx>
#include <Standard_Failure.hxx>
#include <TColStd_SequenceOfAsciiString.hxx>
#include <TDF_Label.hxx>
#include <TDF_LabelSequence.hxx>
#include <TDataStd_Name.hxx>
#include <TDocStd_Document.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Edge.hxx>
#include <TopoDS_Face.hxx>
#include <TopoDS_Shell.hxx>
#include <TopoDS_Solid.hxx>
#include <TopoDS_Wire.hxx>
#include <XCAFApp_Application.hxx>
#include <XCAFDoc_ColorTool.hxx>
#include <XCAFDoc_DocumentTool.hxx>
#include <XCAFDoc_ShapeTool.hxx>
#include <gp_Ax1.hxx>
#include <gp_Pln.hxx>
#include <gp_Trsf.hxx>

#endif

namespace golightly {

std::vector<std::uint8_t> step_shape_bytes(const Shape& step_shape) {
    if (step_shape.type != ShapeType::Step) throw std::runtime_error("not a step shape");
    try {
        return base64_decode(step_shape.data_base64);
    } catch (const std::exception& e) {
        throw std::runtime_error("the embedded STEP data of '" + step_shape.file_name + "' is not valid base64 (" +
                                 e.what() + ")");
    }
}

Shape make_step_shape(const std::filesystem::path& file, double scale, const std::array<double, 3>& rotate_deg,
                      const std::array<double, 3>& translate, const StepProgress& progress) {
    std::string text;
    try {
        text = read_regular_file(file, limits::kMaxStepBytes);
    } catch (const FileReadError& e) {
        throw std::runtime_error(file.string() + ": cannot open the file (" + e.what() + ")");
    }
    const std::vector<std::uint8_t> bytes(text.begin(), text.end());
    if (!(scale > 0) || !std::isfinite(scale)) throw std::runtime_error("STEP scale must be a finite number > 0");
    read_step(bytes, file.filename().string(), progress);  // throws when it does not import
    Shape s;
    s.type = ShapeType::Step;
    s.file_name = file.filename().string();
    s.data_base64 = base64_encode(bytes);
    s.scale = scale;
    s.rotate_deg = rotate_deg;
    s.translate = translate;
    return s;
}

std::vector<Outline> step_section(const Shape& step_shape, double z_um, double tolerance_um) {
    const auto sections = step_section_solids(step_shape, z_um, tolerance_um);
    if (sections.empty()) {
        const auto b = step_bounds_um(step_shape);
        char buf[256];
        std::snprintf(buf, sizeof buf, "no solid of '%s' crosses the plane z = %g um (the solids span z in [%g, %g] um)",
                      step_shape.file_name.c_str(), z_um, b[2], b[5]);
        throw std::runtime_error(buf);
    }
    std::vector<Outline> out;
    out.reserve(sections.size());
    for (const auto& s : sections) out.push_back(s.outline);
    return out;
}

#ifndef GOLIGHTLY_HAVE_OCCT

namespace {
[[noreturn]] void no_occt(const std::string& what) {
    throw std::runtime_error(what + ": this build has no STEP support (built without OpenCASCADE)");
}
}  // namespace

bool step_import_available() { return false; }
StepModel read_step(const std::vector<std::uint8_t>&, const std::string& file_label, const StepProgress&) {
    no_occt(file_label);
}
std::vector<StepSolidSection> step_section_solids(const Shape& s, double, double, const std::vector<int>&) {
    no_occt(s.file_name);
}
std::array<double, 6> step_bounds_um(const Shape& s) { no_occt(s.file_name); }
StepModel step_shape_model(const Shape& s) { no_occt(s.file_name); }
std::vector<StepSolidSection> step_import_sections(const Shape& s, double, double) { no_occt(s.file_name); }
std::shared_ptr<const StepMesh> step_mesh(const Shape& s, double) { no_occt(s.file_name); }

#else  // GOLIGHTLY_HAVE_OCCT

bool step_import_available() { return true; }

namespace step_occt {

/// Forwards OCCT's progress to a StepProgress over [lo, hi] of the overall fraction.
class ProgressForward : public Message_ProgressIndicator {
public:
    ProgressForward(const StepProgress& cb, double lo, double hi, std::string stage)
        : cb_(cb), lo_(lo), hi_(hi), stage_(std::move(stage)) {}
    Standard_Boolean UserBreak() override { return cancelled_; }
    void Show(const Message_ProgressScope&, const Standard_Boolean) override {
        if (!cb_ || cancelled_) return;
        const double p = std::clamp(GetPosition(), 0.0, 1.0);
        if (p < last_ + 0.01 && p < 1.0) return;  // at most ~100 calls
        last_ = p;
        if (!cb_(lo_ + (hi_ - lo_) * p, stage_)) cancelled_ = true;
    }
    bool cancelled() const { return cancelled_; }

private:
    const StepProgress& cb_;
    double lo_, hi_;
    std::string stage_;
    double last_ = -1;
    bool cancelled_ = false;
};

std::string occt_message(const Standard_Failure& f) {
    const char* m = f.GetMessageString();
    return std::string(f.DynamicType()->Name()) + (m && *m ? std::string(": ") + m : std::string());
}

/// One file unit in mm, from the unit names STEPControl_Reader::FileUnits reports.
bool unit_in_mm(std::string name, double& mm, std::string& label) {
    for (auto& ch : name) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    struct U { const char* key; double mm; const char* label; };
    static const U units[] = {
        {"millimetre", 1.0, "mm"}, {"millimeter", 1.0, "mm"}, {"mm", 1.0, "mm"},
        {"micrometre", 1e-3, "um"}, {"micrometer", 1e-3, "um"}, {"micron", 1e-3, "um"}, {"um", 1e-3, "um"},
        {"nanometre", 1e-6, "nm"}, {"nanometer", 1e-6, "nm"}, {"nm", 1e-6, "nm"},
        {"centimetre", 10.0, "cm"}, {"centimeter", 10.0, "cm"}, {"cm", 10.0, "cm"},
        {"kilometre", 1e6, "km"}, {"kilometer", 1e6, "km"}, {"km", 1e6, "km"},
        {"inch", 25.4, "inch"}, {"in", 25.4, "inch"}, {"foot", 304.8, "ft"}, {"ft", 304.8, "ft"},
        {"mil", 0.0254, "mil"}, {"thou", 0.0254, "mil"},
        {"metre", 1000.0, "m"}, {"meter", 1000.0, "m"}, {"m", 1000.0, "m"}};
    for (const U& u : units)
        if (name == u.key) {
            mm = u.mm;
            label = u.label;
            return true;
        }
    return false;
}

std::string label_name(const TDF_Label& label) {
    Handle(TDataStd_Name) n;
    if (label.IsNull() || !label.FindAttribute(TDataStd_Name::GetID(), n)) return {};
    TCollection_AsciiString a(n->Get());
    return a.ToCString();
}

bool label_color(const Handle(XCAFDoc_ColorTool)& ct, const TDF_Label& label, std::array<double, 3>& rgb) {
    Quantity_Color c;
    if (ct.IsNull()) return false;
    if (ct->GetColor(label, XCAFDoc_ColorSurf, c) || ct->GetColor(label, XCAFDoc_ColorGen, c)) {
        double r, g, b;
        c.Values(r, g, b, Quantity_TOC_sRGB);
        rgb = {r, g, b};
        return true;
    }
    return false;
}

/// Solids of a shape; closed shells (surface models) promoted to solids when there is
/// no solid.
std::vector<TopoDS_Shape> solids_of(const TopoDS_Shape& s) {
    std::vector<TopoDS_Shape> out;
    for (TopExp_Explorer ex(s, TopAbs_SOLID); ex.More(); ex.Next()) out.push_back(ex.Current());
    if (!out.empty()) return out;
    for (TopExp_Explorer ex(s, TopAbs_SHELL); ex.More(); ex.Next()) {
        const TopoDS_Shell& sh = TopoDS::Shell(ex.Current());
        if (!BRep_Tool::IsClosed(sh)) continue;
        BRepBuilderAPI_MakeSolid ms(sh);
        if (ms.IsDone()) out.push_back(ms.Solid());
    }
    return out;
}

/// The translation itself (OCCT's STEP reader): runs in a child process (parse_step).
ParsedFile parse_step_here(const std::vector<std::uint8_t>& bytes, const std::string& label, const StepProgress& progress) {
    auto report = [&](double f, const char* stage) {
        if (progress && !progress(f, stage)) throw std::runtime_error(label + ": STEP import cancelled");
    };
    // Cheap, clear checks first (OCCT's parser is lenient about both).
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const auto first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (bytes.empty() || first == std::string_view::npos || text.substr(first, 12) != "ISO-10303-21")
        throw std::runtime_error(label + ": not a STEP file (it does not start with ISO-10303-21;)");
    if (text.rfind("END-ISO-10303-21") == std::string_view::npos)
        throw std::runtime_error(label + ": the STEP file is truncated (no END-ISO-10303-21; at its end)");
    report(0.0, "reading");

    ParsedFile pf;
    try {
        // OCCT's translators print statistics through the default messenger: failures only
        for (const Handle(Message_Printer)& pr : Message::DefaultMessenger()->Printers()) pr->SetTraceLevel(Message_Fail);
        STEPCAFControl_Reader caf;
        caf.SetColorMode(true);
        caf.SetNameMode(true);
        caf.SetLayerMode(false);
        caf.SetPropsMode(false);
        STEPControl_Reader& reader = caf.ChangeReader();
        std::istringstream is(std::string(text), std::ios::binary);
        if (reader.ReadStream(label.c_str(), is) != IFSelect_RetDone)
            throw std::runtime_error(label + ": the STEP file could not be parsed (syntax error or truncated)");
        if (reader.NbRootsForTransfer() <= 0) throw std::runtime_error(label + ": the STEP file has no shape to import");
        report(0.25, "transferring");

        // The file's length unit.
        TColStd_SequenceOfAsciiString lu, au, su;
        reader.FileUnits(lu, au, su);
        pf.model.length_unit = "mm";
        bool unit_known = false;
        for (int k = 1; k <= lu.Length() && !unit_known; ++k) {
            double mm;
            std::string ul;
            if (unit_in_mm(lu.Value(k).ToCString(), mm, ul)) {
                pf.unit_mm = mm;
                pf.model.length_unit = ul;
                unit_known = true;
            }
        }

        Handle(TDocStd_Document) doc;
        XCAFApp_Application::GetApplication()->NewDocument("MDTV-XCAF", doc);
        Handle(ProgressForward) ind = new ProgressForward(progress, 0.25, 0.9, "transferring");
        const bool ok = caf.Transfer(doc, ind->Start());
        if (ind->cancelled()) throw std::runtime_error(label + ": STEP import cancelled");
        if (!ok) throw std::runtime_error(label + ": the STEP file could not be translated into shapes");
        report(0.9, "solids");
        if (!unit_known) {  // a unit name we do not know: the factor OCCT applied (mm per file unit)
            Handle(StepData_StepModel) sm = Handle(StepData_StepModel)::DownCast(reader.Model());
            if (!sm.IsNull() && sm->LocalLengthUnit() > 0) {
                pf.unit_mm = sm->LocalLengthUnit();
                pf.model.length_unit = std::to_string(pf.unit_mm) + " mm";
            }
        }
        pf.model.unit_um = pf.unit_mm * 1000.0;

        Handle(XCAFDoc_ShapeTool) st = XCAFDoc_DocumentTool::ShapeTool(doc->Main());
        Handle(XCAFDoc_ColorTool) ct = XCAFDoc_DocumentTool::ColorTool(doc->Main());
        struct Found { TopoDS_Shape s; std::string name; bool has_color; std::array<double, 3> rgb; };
        std::vector<Found> found;
        std::function<void(const TDF_Label&, const TopLoc_Location&, std::string, bool, std::array<double, 3>, int)>
            visit = [&](const TDF_Label& l, const TopLoc_Location& loc, std::string name, bool has_color,
                        std::array<double, 3> rgb, int depth) {
                if (depth > 64) return;
                const std::string own = label_name(l);
                if (name.empty()) name = own;
                std::array<double, 3> c;
                if (label_color(ct, l, c)) has_color = true, rgb = c;
                if (st->IsAssembly(l)) {
                    TDF_LabelSequence comps;
                    st->GetComponents(l, comps);
                    for (int k = 1; k <= comps.Length(); ++k) {
                        const TDF_Label& comp = comps.Value(k);
                        TDF_Label ref;
                        if (!st->GetReferredShape(comp, ref)) continue;
                        std::array<double, 3> cc = rgb;
                        bool hc = has_color;
                        if (label_color(ct, comp, c)) hc = true, cc = c;
                        const std::string cn = label_name(ref);
                        visit(ref, loc.Multiplied(st->GetLocation(comp)), cn.empty() ? label_name(comp) : cn, hc, cc,
                              depth + 1);
                    }
                    return;
                }
                const TopoDS_Shape s = st->GetShape(l);
                if (s.IsNull()) return;
                const auto sol = solids_of(s);
                for (std::size_t k = 0; k < sol.size(); ++k) {
                    std::array<double, 3> sc = rgb;
                    bool hs = has_color;
                    Quantity_Color q;
                    if (ct->GetColor(sol[k], XCAFDoc_ColorSurf, q) || ct->GetColor(sol[k], XCAFDoc_ColorGen, q)) {
                        double r, g, b;
                        q.Values(r, g, b, Quantity_TOC_sRGB);
                        sc = {r, g, b};
                        hs = true;
                    }
                    std::string nm = name;
                    if (sol.size() > 1 && !nm.empty()) nm += " #" + std::to_string(k + 1);
                    found.push_back({sol[k].Moved(loc), nm, hs, sc});
                }
            };
        TDF_LabelSequence roots;
        st->GetFreeShapes(roots);
        for (int k = 1; k <= roots.Length(); ++k) visit(roots.Value(k), TopLoc_Location(), {}, false, {0.7, 0.7, 0.7}, 0);
        if (found.empty()) {  // no XCAF structure: the plain shape
            for (const auto& s : solids_of(reader.OneShape())) found.push_back({s, {}, false, {0.7, 0.7, 0.7}});
        }
        if (found.empty())
            throw std::runtime_error(label + ": the STEP file holds no solid (only " +
                                     (roots.Length() > 0 ? std::string("open surfaces, curves or points")
                                                         : std::string("no shapes")) +
                                     "; GoLightly needs closed solids)");

        const double inv = 1.0 / pf.unit_mm;
        bool first_box = true;
        for (std::size_t k = 0; k < found.size(); ++k) {
            Solid3 s3;
            s3.shape = found[k].s;
            s3.info.name = found[k].name.empty() ? "solid " + std::to_string(k + 1) : found[k].name;
            s3.info.has_color = found[k].has_color;
            s3.info.color_rgb = found[k].rgb;
            Bnd_Box bb;
            BRepBndLib::Add(s3.shape, bb);
            if (!bb.IsVoid()) {
                double x0, y0, z0, x1, y1, z1;
                bb.Get(x0, y0, z0, x1, y1, z1);
                s3.info.bbox_min = {x0 * inv, y0 * inv, z0 * inv};
                s3.info.bbox_max = {x1 * inv, y1 * inv, z1 * inv};
                for (int a = 0; a < 3; ++a) {
                    pf.model.bbox_min[a] = first_box ? s3.info.bbox_min[a] : std::min(pf.model.bbox_min[a], s3.info.bbox_min[a]);
                    pf.model.bbox_max[a] = first_box ? s3.info.bbox_max[a] : std::max(pf.model.bbox_max[a], s3.info.bbox_max[a]);
                }
                first_box = false;
            }
            GProp_GProps props;
            BRepGProp::VolumeProperties(s3.shape, props);
            s3.info.volume = std::abs(props.Mass()) * inv * inv * inv;
            pf.model.solids.push_back(s3.info);
            pf.solids.push_back(std::move(s3));
        }
    } catch (const Standard_Failure& f) {
        throw std::runtime_error(label + ": OpenCASCADE failed to read the STEP file (" + occt_message(f) + ")");
    }
    report(1.0, "solids");
    return pf;
}

// ------------------------------------------------------------------ isolation

/// A ParsedFile as bytes: the model as JSON, a NUL, the solids as one OCCT binary BRep
/// compound (exact doubles, solids in order).
std::string encode_parsed(const ParsedFile& pf) {
    Json j = Json::object();
    j["unit_mm"] = pf.unit_mm;
    j["length_unit"] = pf.model.length_unit;
    j["unit_um"] = pf.model.unit_um;
    j["bbox"] = {pf.model.bbox_min[0], pf.model.bbox_min[1], pf.model.bbox_min[2],
                 pf.model.bbox_max[0], pf.model.bbox_max[1], pf.model.bbox_max[2]};
    Json solids = Json::array();
    for (const StepSolid& s : pf.model.solids)
        solids.push_back({{"name", limits::cap_text(s.name, 200)}, {"has_color", s.has_color}, {"rgb", s.color_rgb},
                          {"bbox", {s.bbox_min[0], s.bbox_min[1], s.bbox_min[2], s.bbox_max[0], s.bbox_max[1], s.bbox_max[2]}},
                          {"volume", s.volume}});
    j["solids"] = solids;
    BRep_Builder b;
    TopoDS_Compound c;
    b.MakeCompound(c);
    for (const Solid3& s3 : pf.solids) b.Add(c, s3.shape);
    std::ostringstream os(std::ios::binary);
    BinTools::Write(c, os, Standard_False, Standard_False, BinTools_FormatVersion_CURRENT);
    return j.dump(-1, ' ', false, Json::error_handler_t::replace) + std::string(1, '\0') + os.str();
}

ParsedFile decode_parsed(const std::string& blob, const std::string& label) {
    const auto nul = blob.find('\0');
    if (nul == std::string::npos) throw std::runtime_error(label + ": the STEP worker returned no result");
    const Json j = Json::parse(blob.substr(0, nul));
    ParsedFile pf;
    pf.unit_mm = j.at("unit_mm").get<double>();
    pf.model.length_unit = j.at("length_unit").get<std::string>();
    pf.model.unit_um = j.at("unit_um").get<double>();
    for (int a = 0; a < 3; ++a) {
        pf.model.bbox_min[a] = j.at("bbox").at(a).get<double>();
        pf.model.bbox_max[a] = j.at("bbox").at(a + 3).get<double>();
    }
    std::istringstream is(blob.substr(nul + 1), std::ios::binary);
    TopoDS_Shape c;
    BinTools::Read(c, is);
    std::vector<TopoDS_Shape> shapes;
    for (TopoDS_Iterator it(c); it.More(); it.Next()) shapes.push_back(it.Value());
    const Json& solids = j.at("solids");
    if (shapes.size() != solids.size()) throw std::runtime_error(label + ": the STEP worker returned an inconsistent result");
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        const Json& sj = solids[k];
        Solid3 s3;
        s3.shape = shapes[k];
        s3.info.name = sj.at("name").get<std::string>();
        s3.info.has_color = sj.at("has_color").get<bool>();
        for (int a = 0; a < 3; ++a) {
            s3.info.color_rgb[a] = sj.at("rgb").at(a).get<double>();
            s3.info.bbox_min[a] = sj.at("bbox").at(a).get<double>();
            s3.info.bbox_max[a] = sj.at("bbox").at(a + 3).get<double>();
        }
        s3.info.volume = sj.at("volume").get<double>();
        pf.model.solids.push_back(s3.info);
        pf.solids.push_back(std::move(s3));
    }
    return pf;
}

std::string encode_sections(const std::vector<StepSolidSection>& secs) {
    Json j = Json::array();
    for (const StepSolidSection& s : secs) {
        Json rings = Json::array();
        for (const auto& ring : s.outline) {
            Json r = Json::array();
            for (const Vec2& p : ring) {
                r.push_back(p.x);
                r.push_back(p.y);
            }
            rings.push_back(std::move(r));
        }
        j.push_back({{"solid", s.solid}, {"area", s.area_um2}, {"rings", std::move(rings)}});
    }
    return j.dump();
}

std::vector<StepSolidSection> decode_sections(const std::string& text) {
    std::vector<StepSolidSection> out;
    for (const Json& sj : Json::parse(text)) {
        StepSolidSection s;
        s.solid = sj.at("solid").get<int>();
        s.area_um2 = sj.at("area").get<double>();
        for (const Json& r : sj.at("rings")) {
            std::vector<Vec2> ring;
            ring.reserve(r.size() / 2);
            for (std::size_t k = 0; k + 1 < r.size(); k += 2) ring.push_back({r[k].get<double>(), r[k + 1].get<double>()});
            s.outline.push_back(std::move(ring));
        }
        out.push_back(std::move(s));
    }
    return out;
}

/// Reads a STEP file: checks what can be checked here (step_isolation.hpp), then
/// translates it in a child process with memory and time limits (isolate.hpp) and takes
/// over the solids as an OCCT BRep. A translator that crashes, loops or allocates without
/// bound makes the file invalid, not the process dead.
ParsedFile parse_step(const std::vector<std::uint8_t>& bytes, const std::string& label, const StepProgress& progress) {
    auto report = [&](double f, const char* stage) {
        if (progress && !progress(f, stage)) throw std::runtime_error(label + ": STEP import cancelled");
    };
    precheck_step_data(bytes, label);
    report(0.0, "reading");
    const auto t0 = std::chrono::steady_clock::now();
    double last = 0.0;
    const auto keep_going = [&]() {
        if (!progress) return true;
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double f = 0.05 + 0.8 * (1.0 - std::exp(-t / 4.0));  // no true fraction from the child
        if (f < last + 0.01) return true;
        last = f;
        return progress(f, "transferring");
    };
    std::string blob;
    try {
        blob = run_isolated([&] { return encode_parsed(parse_step_here(bytes, label, {})); }, step_isolation_limits(),
                            label + ": the STEP translator (OpenCASCADE)", keep_going);
    } catch (const IsolatedJobError& e) {
        if (!e.died) {
            const std::string w = e.what();
            if (w.size() >= 9 && w.compare(w.size() - 9, 9, "cancelled") == 0)
                throw std::runtime_error(label + ": STEP import cancelled");
            throw std::runtime_error(w);
        }
        throw std::runtime_error(std::string(e.what()) + ": the file is malformed or uses data it cannot translate");
    }
    report(0.9, "solids");
    ParsedFile pf;
    try {
        pf = decode_parsed(blob, label);
    } catch (const Standard_Failure& f) {
        throw std::runtime_error(label + ": cannot take over the translated solids (" + occt_message(f) + ")");
    } catch (const Json::exception& e) {
        throw std::runtime_error(label + ": the STEP worker returned a bad result (" + e.what() + ")");
    }
    report(1.0, "solids");
    return pf;
}

// ------------------------------------------------------------------ caches

std::mutex g_cache_mutex;
std::recursive_mutex g_occt_mutex;  // step_occt_internal.hpp says why
std::map<std::string, std::shared_ptr<const ParsedFile>> g_files;       // by data key
std::map<std::string, std::shared_ptr<const PlacedFile>> g_placed;      // by data + placement
std::map<std::string, std::vector<StepSolidSection>> g_sections;        // by all inputs

std::string data_key(const Shape& s) {
    return std::to_string(std::hash<std::string>{}(s.data_base64)) + ":" + std::to_string(s.data_base64.size());
}

std::string placement_key(const Shape& s) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "|%.17g|%.17g,%.17g,%.17g|%.17g,%.17g,%.17g", s.scale, s.rotate_deg[0], s.rotate_deg[1],
                  s.rotate_deg[2], s.translate[0], s.translate[1], s.translate[2]);
    return data_key(s) + buf;
}

std::shared_ptr<const ParsedFile> parsed(const Shape& s) {
    const std::string key = data_key(s);
    {
        std::lock_guard<std::mutex> lock(g_cache_mutex);
        auto it = g_files.find(key);
        if (it != g_files.end()) return it->second;
    }
    std::lock_guard<std::recursive_mutex> occt(g_occt_mutex);
    auto pf = std::make_shared<const ParsedFile>(parse_step(step_shape_bytes(s), s.file_name, {}));
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    bound_cache(g_files, 8);
    g_files[key] = pf;
    return pf;
}

std::shared_ptr<const PlacedFile> placed(const Shape& s) {
    if (!(s.scale > 0) || !std::isfinite(s.scale))
        throw std::runtime_error("'" + s.file_name + "': scale must be a finite number > 0");
    for (int a = 0; a < 3; ++a)
        if (!std::isfinite(s.rotate_deg[a]) || !std::isfinite(s.translate[a]))
            throw std::runtime_error("'" + s.file_name + "': rotate_deg and translate must be finite");
    const std::string key = placement_key(s);
    {
        std::lock_guard<std::mutex> lock(g_cache_mutex);
        auto it = g_placed.find(key);
        if (it != g_placed.end()) return it->second;
    }
    std::lock_guard<std::recursive_mutex> occt(g_occt_mutex);
    auto pf = parsed(s);
    auto out = std::make_shared<PlacedFile>();
    out->file = pf;
    // p -> T R_z R_y R_x S p  (gp_Trsf::Multiply(B): this = this * B, i.e. B applied first)
    const double deg = M_PI / 180.0;
    gp_Trsf t, rx, ry, rz, sc;
    t.SetTranslation(gp_Vec(s.translate[0], s.translate[1], s.translate[2]));
    rx.SetRotation(gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(1, 0, 0)), s.rotate_deg[0] * deg);
    ry.SetRotation(gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(0, 1, 0)), s.rotate_deg[1] * deg);
    rz.SetRotation(gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(0, 0, 1)), s.rotate_deg[2] * deg);
    sc.SetScale(gp_Pnt(0, 0, 0), s.scale / pf->unit_mm);  // OCCT mm -> file units -> um
    gp_Trsf total = t;
    total.Multiply(rz);
    total.Multiply(ry);
    total.Multiply(rx);
    total.Multiply(sc);
    try {
        for (const Solid3& s3 : pf->solids) {
            BRepBuilderAPI_Transform tr(s3.shape, total, true);
            if (!tr.IsDone()) throw std::runtime_error("'" + s.file_name + "': the placement transform failed");
            out->solids.push_back(tr.Shape());
            Bnd_Box bb;
            BRepBndLib::Add(tr.Shape(), bb);
            std::array<double, 6> b{0, 0, 0, 0, 0, 0};
            if (!bb.IsVoid()) bb.Get(b[0], b[1], b[2], b[3], b[4], b[5]);
            out->bounds.push_back(b);
        }
    } catch (const Standard_Failure& f) {
        throw std::runtime_error("'" + s.file_name + "': OpenCASCADE failed to place the solids (" + occt_message(f) + ")");
    }
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    bound_cache(g_placed, 16);
    g_placed[key] = out;
    return out;
}

double ring_area(const std::vector<Vec2>& r) {
    double a = 0;
    for (std::size_t k = 0, n = r.size(); k < n; ++k) {
        const Vec2& p = r[k];
        const Vec2& q = r[(k + 1) % n];
        a += p.x * q.y - q.x * p.y;
    }
    return 0.5 * a;
}

/// The wire's vertices in order, curved edges discretized to chordal deviation tol.
std::vector<Vec2> discretize_wire(const TopoDS_Wire& wire, const TopoDS_Face& face, double tol) {
    std::vector<Vec2> ring;
    auto push = [&](double x, double y) {
        if (!ring.empty() && std::abs(ring.back().x - x) <= 1e-9 * (1 + std::abs(x)) &&
            std::abs(ring.back().y - y) <= 1e-9 * (1 + std::abs(y)))
            return;
        ring.push_back({x, y});
    };
    for (BRepTools_WireExplorer we(wire, face); we.More(); we.Next()) {
        const TopoDS_Edge& e = we.Current();
        if (BRep_Tool::Degenerated(e)) continue;
        BRepAdaptor_Curve c(e);
        std::vector<gp_Pnt> pts;
        const double u0 = c.FirstParameter(), u1 = c.LastParameter();
        if (c.GetType() == GeomAbs_Line) {
            pts = {c.Value(u0), c.Value(u1)};
        } else {
            GCPnts_QuasiUniformDeflection d(c, tol, u0, u1);
            if (d.IsDone() && d.NbPoints() >= 2) {
                for (int k = 1; k <= d.NbPoints(); ++k) pts.push_back(d.Value(k));
            } else {  // fallback: uniform parameter steps
                const int n = 256;
                for (int k = 0; k <= n; ++k) pts.push_back(c.Value(u0 + (u1 - u0) * k / n));
            }
        }
        if (e.Orientation() == TopAbs_REVERSED) std::reverse(pts.begin(), pts.end());
        for (const gp_Pnt& p : pts) push(p.X(), p.Y());
    }
    while (ring.size() > 1 && std::abs(ring.back().x - ring.front().x) <= 1e-9 * (1 + std::abs(ring.front().x)) &&
           std::abs(ring.back().y - ring.front().y) <= 1e-9 * (1 + std::abs(ring.front().y)))
        ring.pop_back();
    return ring;
}

}  // namespace step_occt

using namespace step_occt;

StepModel read_step(const std::vector<std::uint8_t>& bytes, const std::string& file_label, const StepProgress& progress) {
    std::lock_guard<std::recursive_mutex> occt(g_occt_mutex);
    auto pf = std::make_shared<const ParsedFile>(parse_step(bytes, file_label, progress));
    // keep it: the step shape made from these bytes is sectioned next (make_step_shape)
    Shape probe;
    probe.data_base64 = base64_encode(bytes);
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    bound_cache(g_files, 8);
    g_files[data_key(probe)] = pf;
    return pf->model;
}

StepModel step_shape_model(const Shape& step_shape) {
    std::lock_guard<std::recursive_mutex> occt(g_occt_mutex);
    return parsed(step_shape)->model;
}

std::array<double, 6> step_bounds_um(const Shape& step_shape) {
    auto pf = placed(step_shape);
    std::array<double, 6> b{0, 0, 0, 0, 0, 0};
    for (std::size_t k = 0; k < pf->bounds.size(); ++k)
        for (int a = 0; a < 3; ++a) {
            b[a] = k == 0 ? pf->bounds[k][a] : std::min(b[a], pf->bounds[k][a]);
            b[a + 3] = k == 0 ? pf->bounds[k][a + 3] : std::max(b[a + 3], pf->bounds[k][a + 3]);
        }
    return b;
}

std::vector<StepSolidSection> step_section_solids(const Shape& step_shape, double z_um, double tolerance_um,
                                                  const std::vector<int>& solids_in) {
    if (!(tolerance_um > 0)) throw std::invalid_argument("step_section: tolerance must be > 0");
    std::vector<int> solids = solids_in;
    if (solids.empty()) solids = step_shape.solids;
    if (solids.empty() && step_shape.extra.is_object() && step_shape.extra.contains("solids") &&
        step_shape.extra["solids"].is_array())
        for (const auto& v : step_shape.extra["solids"])
            if (v.is_number_integer()) solids.push_back(v.get<int>());
    std::string key = placement_key(step_shape);
    {
        char buf[96];
        std::snprintf(buf, sizeof buf, "|z%.17g|t%.17g|", z_um, tolerance_um);
        key += buf;
        for (int k : solids) key += std::to_string(k) + ",";
    }
    {
        std::lock_guard<std::mutex> lock(g_cache_mutex);
        auto it = g_sections.find(key);
        if (it != g_sections.end()) return it->second;
    }
    std::lock_guard<std::recursive_mutex> occt(g_occt_mutex);
    auto pf = placed(step_shape);
    const int n = int(pf->solids.size());
    if (solids.empty())
        for (int k = 0; k < n; ++k) solids.push_back(k);
    // The Boolean section runs in a child process (isolate.hpp), as the translation does:
    // OCCT's algorithms on hostile geometry may crash or run away.
    const auto section_here = [&]() {
    std::vector<StepSolidSection> out;
    try {
        for (int k : solids) {
            if (k < 0 || k >= n)
                throw std::runtime_error("'" + step_shape.file_name + "': solid index " + std::to_string(k) +
                                         " out of range (the file has " + std::to_string(n) + " solids)");
            const auto& b = pf->bounds[k];
            if (z_um < b[2] || z_um > b[5]) continue;
            const double pad = 1.0 + 0.1 * std::max(b[3] - b[0], b[4] - b[1]);
            // A chordal tolerance far below the solid's size (cell_size 1e-12 um with a mm
            // part) would discretize its curves into billions of points.
            const double tol = std::max(tolerance_um, 1e-6 * std::max({b[3] - b[0], b[4] - b[1], b[5] - b[2]}));
            const gp_Pln plane(gp_Pnt(0, 0, z_um), gp_Dir(0, 0, 1));
            // plane parameters (u, v) = (x, y) for this placement of the plane
            BRepBuilderAPI_MakeFace mf(plane, b[0] - pad, b[3] + pad, b[1] - pad, b[4] + pad);
            if (!mf.IsDone()) throw std::runtime_error("'" + step_shape.file_name + "': cannot build the slice plane");
            BRepAlgoAPI_Common common(pf->solids[k], mf.Face());
            if (!common.IsDone() || common.HasErrors())
                throw std::runtime_error("'" + step_shape.file_name + "': the section of solid " + std::to_string(k + 1) +
                                         " at z = " + std::to_string(z_um) + " um failed (OpenCASCADE Boolean error)");
            StepSolidSection sec;
            sec.solid = k;
            for (TopExp_Explorer fx(common.Shape(), TopAbs_FACE); fx.More(); fx.Next()) {
                const TopoDS_Face& f = TopoDS::Face(fx.Current());
                GProp_GProps props;
                BRepGProp::SurfaceProperties(f, props);
                sec.area_um2 += std::abs(props.Mass());
                const TopoDS_Wire outer = BRepTools::OuterWire(f);
                for (TopExp_Explorer wx(f, TopAbs_WIRE); wx.More(); wx.Next()) {
                    const TopoDS_Wire& w = TopoDS::Wire(wx.Current());
                    std::vector<Vec2> ring = discretize_wire(w, f, tol);
                    if (ring.size() < 3) continue;
                    const double a = ring_area(ring);
                    const bool is_outer = w.IsSame(outer);
                    if ((is_outer && a < 0) || (!is_outer && a > 0)) std::reverse(ring.begin(), ring.end());
                    sec.outline.push_back(std::move(ring));
                }
            }
            if (!sec.outline.empty()) out.push_back(std::move(sec));
        }
    } catch (const Standard_Failure& f) {
        throw std::runtime_error("'" + step_shape.file_name + "': OpenCASCADE failed to cut the solids at z = " +
                                 std::to_string(z_um) + " um (" + occt_message(f) + ")");
    }
    return out;
    };
    std::vector<StepSolidSection> out;
    try {
        out = decode_sections(run_isolated([&] { return encode_sections(section_here()); }, step_isolation_limits(),
                                           "'" + limits::cap_text(step_shape.file_name) + "': the STEP section (OpenCASCADE)"));
    } catch (const IsolatedJobError& e) {
        if (!e.died) throw std::runtime_error(e.what());
        throw std::runtime_error(std::string(e.what()) + " at z = " + std::to_string(z_um) +
                                 " um: the solids are malformed or cannot be cut");
    }
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    bound_cache(g_sections, 64);
    g_sections[key] = out;
    return out;
}

std::vector<StepSolidSection> step_import_sections(const Shape& step_shape, double z_um, double tolerance_um) {
    auto sections = step_section_solids(step_shape, z_um, tolerance_um);
    auto pf = placed(step_shape);
    std::vector<int> wanted = step_shape.solids;
    if (wanted.empty() && step_shape.extra.is_object() && step_shape.extra.contains("solids") && step_shape.extra["solids"].is_array())
        for (const auto& v : step_shape.extra["solids"])
            if (v.is_number_integer()) wanted.push_back(v.get<int>());
    if (wanted.empty())
        for (int k = 0; k < int(pf->solids.size()); ++k) wanted.push_back(k);
    std::string missing;
    int n_missing = 0;
    for (int k : wanted) {
        bool hit = false;
        for (const auto& s : sections) hit = hit || s.solid == k;
        if (hit) continue;
        char buf[160];
        std::snprintf(buf, sizeof buf, " (z %g .. %g um)", pf->bounds[k][2], pf->bounds[k][5]);
        missing += (n_missing++ ? ", '" : "'") + pf->file->model.solids[k].name + "'" + buf;
    }
    if (n_missing > 0) {
        char buf[96];
        std::snprintf(buf, sizeof buf, " not cross the slice plane z = %g um", z_um);
        throw std::runtime_error("'" + step_shape.file_name + "': " + (n_missing > 1 ? "solids " : "solid ") + missing +
                                 (n_missing > 1 ? " do" : " does") + buf +
                                 "; move the part (translate z), change domain.slice_z or leave those solids out");
    }
    return sections;
}

#endif  // GOLIGHTLY_HAVE_OCCT

}  // namespace golightly
