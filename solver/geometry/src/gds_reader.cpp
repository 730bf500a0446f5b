// GoLightly: the GDSII stream reader (gds::read; gds.hpp says why not libGDSII).
//
// Organised as KLayout's GDS2 reader: a record stream that checks each record's length,
// one reader per level of the stream (library, structure, element) that takes the records
// belonging there, one reader per element record, and one check per element kind at its
// ENDEL. A record of a level met at another is refused with the same message wherever it
// stands (`misplaced`); records GoLightly does not need (properties, text, library
// records) are passed over once the library has begun.
#include <cmath>
#include <set>
#include <string>

#include "golightly/gds.hpp"
#include "gds_internal.hpp"

namespace golightly::gds {

namespace {

using namespace detail;

constexpr std::size_t kMaxBytes = 64ull << 20;

std::string hex2(unsigned v) {
    const char* d = "0123456789ABCDEF";
    return std::string("0x") + d[(v >> 4) & 15] + d[v & 15];
}

[[noreturn]] void fail(std::size_t at, const std::string& msg) {
    throw GdsError("not a valid GDSII stream at byte " + std::to_string(at) + ": " + msg, "data");
}

/// One record: where it starts, its record and data types, its data.
struct Record {
    std::size_t at = 0;  ///< byte offset in the stream
    std::uint8_t type = 0, dtype = 0;
    const std::uint8_t* d = nullptr;
    std::size_t n = 0;  ///< data bytes

    void need(DType want, std::size_t min_bytes) const {
        if (dtype != want)
            fail(at, "record " + hex2(type) + " has data type " + std::to_string(dtype) + ", expected " + std::to_string(want));
        if (n < min_bytes) fail(at, "record " + hex2(type) + " is too short (" + std::to_string(n) + " data bytes)");
    }
    int i2(std::size_t k) const { return int(std::int16_t((d[2 * k] << 8) | d[2 * k + 1])); }
    std::int32_t i4(std::size_t k) const {
        return std::int32_t((std::uint32_t(d[4 * k]) << 24) | (std::uint32_t(d[4 * k + 1]) << 16) |
                            (std::uint32_t(d[4 * k + 2]) << 8) | std::uint32_t(d[4 * k + 3]));
    }
    std::string str() const {
        if (dtype != ASCII) fail(at, "record " + hex2(type) + " should hold a string");
        std::string s(reinterpret_cast<const char*>(d), n);
        while (!s.empty() && s.back() == '\0') s.pop_back();
        return s;
    }
};

/// The records of a stream in order, each checked against the stream's bounds.
class RecordStream {
public:
    explicit RecordStream(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}

    Record next() {
        if (pos_ + 4 > bytes_.size()) fail(pos_, "truncated: the stream ends before ENDLIB");
        const std::size_t len = (std::size_t(bytes_[pos_]) << 8) | bytes_[pos_ + 1];
        Record r;
        r.at = pos_;
        r.type = bytes_[pos_ + 2];
        r.dtype = bytes_[pos_ + 3];
        if (pos_ == 0 && (r.type != HEADER || len != 6)) fail(pos_, "no HEADER record: not a GDSII stream");
        if (len < 4 || len % 2) fail(pos_, "bad record length " + std::to_string(len) + " (record type " + hex2(r.type) + ")");
        if (pos_ + len > bytes_.size())
            fail(pos_, "truncated: record " + hex2(r.type) + " of " + std::to_string(len) + " bytes runs past the end of the file");
        r.d = bytes_.data() + pos_ + 4;
        r.n = len - 4;
        pos_ += len;
        return r;
    }

private:
    const std::vector<std::uint8_t>& bytes_;
    std::size_t pos_ = 0;
};

bool is_element_start(std::uint8_t t) {
    return t == BOUNDARY || t == PATH || t == SREF || t == AREF || t == BOX || t == TEXT || t == NODE;
}

/// The name an element record goes by in "... outside an element"; nullptr for a record
/// that is not an element's.
const char* element_record_name(std::uint8_t t) {
    switch (t) {
        case LAYER: return "LAYER";
        case DATATYPE: case BOXTYPE: return "DATATYPE";
        case WIDTH: return "WIDTH";
        case PATHTYPE: return "PATHTYPE";
        case BGNEXTN: return "BGNEXTN";
        case ENDEXTN: return "ENDEXTN";
        case XY: return "XY";
        case SNAME: return "SNAME";
        case COLROW: return "COLROW";
        case STRANS: return "STRANS";
        case MAG: return "MAG";
        case ANGLE: return "ANGLE";
        default: return nullptr;
    }
}

/// True for a record that belongs to one level of the stream (library, structure or
/// element): met at another level it is an error.
bool is_structural(std::uint8_t t) {
    return t == HEADER || t == BGNLIB || t == LIBNAME || t == UNITS || t == ENDLIB || t == BGNSTR || t == STRNAME ||
           t == ENDSTR || t == ENDEL || is_element_start(t) || element_record_name(t);
}

/// The error for a structural record met where it does not belong.
[[noreturn]] void misplaced(const Record& r) {
    switch (r.type) {
        case HEADER: fail(r.at, "HEADER twice");
        case BGNLIB: fail(r.at, "BGNLIB out of place");
        case LIBNAME: fail(r.at, "LIBNAME out of place");
        case UNITS: fail(r.at, "UNITS out of place");
        case ENDLIB: fail(r.at, "ENDLIB inside a structure");
        case BGNSTR: fail(r.at, "BGNSTR inside a structure (missing ENDSTR)");
        case STRNAME: fail(r.at, "STRNAME out of place");
        case ENDSTR: fail(r.at, "ENDSTR out of place");
        case ENDEL: fail(r.at, "ENDEL outside an element");
        default: break;
    }
    if (is_element_start(r.type))
        fail(r.at, "element " + hex2(r.type) + " outside a structure or inside another element");
    fail(r.at, std::string(element_record_name(r.type)) + " outside an element");
}

/// An element being read, with what its ENDEL check needs to know.
struct ElementDraft {
    Element el;
    bool skip = false;  ///< TEXT / NODE: read and dropped
    bool has_layer = false, has_colrow = false;
};

// ----------------------------------------------------------------------------- element records

void read_layer(const Record& r, ElementDraft& e) {
    r.need(INT2, 2);
    e.el.layer = r.i2(0) & 0xFFFF;
    e.has_layer = true;
}

void read_datatype(const Record& r, ElementDraft& e) {  // DATATYPE, BOXTYPE
    r.need(INT2, 2);
    e.el.datatype = r.i2(0) & 0xFFFF;
}

void read_width(const Record& r, ElementDraft& e) {
    r.need(INT4, 4);
    e.el.width = r.i4(0);
}

void read_pathtype(const Record& r, ElementDraft& e) {
    r.need(INT2, 2);
    e.el.pathtype = r.i2(0);
}

void read_extension(const Record& r, ElementDraft& e) {  // BGNEXTN, ENDEXTN
    r.need(INT4, 4);
    (r.type == BGNEXTN ? e.el.bgnextn : e.el.endextn) = r.i4(0);
}

void read_xy(const Record& r, ElementDraft& e) {
    r.need(INT4, 8);
    if (r.n % 8) fail(r.at, "XY record of " + std::to_string(r.n) + " bytes (not whole points)");
    for (std::size_t k = 0; k < r.n / 8; ++k) e.el.xy.push_back({r.i4(2 * k), r.i4(2 * k + 1)});
}

void read_sname(const Record& r, ElementDraft& e) { e.el.sname = r.str(); }

void read_colrow(const Record& r, ElementDraft& e) {
    r.need(INT2, 4);
    e.el.columns = r.i2(0);
    e.el.rows = r.i2(1);
    if (e.el.columns < 1 || e.el.rows < 1)
        fail(r.at, "COLROW " + std::to_string(e.el.columns) + " x " + std::to_string(e.el.rows) + " (must be 1..32767)");
    e.has_colrow = true;
}

void read_strans(const Record& r, ElementDraft& e) {
    r.need(BITARRAY, 2);
    const unsigned bits = (unsigned(r.d[0]) << 8) | r.d[1];
    e.el.reflect = bits & 0x8000;
    e.el.absmag = bits & 0x0004;
    e.el.absangle = bits & 0x0002;
}

void read_mag(const Record& r, ElementDraft& e) {
    r.need(REAL8, 8);
    e.el.mag = real8(r.d);
    if (!(e.el.mag > 0) || !(e.el.mag < 1e9)) fail(r.at, "MAG " + std::to_string(e.el.mag) + " (must be > 0)");
}

void read_angle(const Record& r, ElementDraft& e) {
    r.need(REAL8, 8);
    e.el.angle_deg = real8(r.d);
    if (!std::isfinite(e.el.angle_deg) || std::abs(e.el.angle_deg) > 1e6) fail(r.at, "ANGLE out of range");
}

/// Reads one element record into `e`; false when `r` is not an element record.
bool read_element_record(const Record& r, ElementDraft& e) {
    switch (r.type) {
        case LAYER: read_layer(r, e); return true;
        case DATATYPE: case BOXTYPE: read_datatype(r, e); return true;
        case WIDTH: read_width(r, e); return true;
        case PATHTYPE: read_pathtype(r, e); return true;
        case BGNEXTN: case ENDEXTN: read_extension(r, e); return true;
        case XY: read_xy(r, e); return true;
        case SNAME: read_sname(r, e); return true;
        case COLROW: read_colrow(r, e); return true;
        case STRANS: read_strans(r, e); return true;
        case MAG: read_mag(r, e); return true;
        case ANGLE: read_angle(r, e); return true;
        default: return false;
    }
}

// ----------------------------------------------------------------------------- element checks at ENDEL

const char* kind_name(Element::Kind k) {
    return k == Element::Boundary ? "BOUNDARY"
         : k == Element::PathEl   ? "PATH"
         : k == Element::Box      ? "BOX"
         : k == Element::Sref     ? "SREF"
                                  : "AREF";
}

/// Drops the points after the first n (there are at least n): the ones a BOX, SREF or
/// AREF does not use. (Not resize: GCC 12 warns about its growth path where n = 1.)
void keep_points(Element& el, std::size_t n) { el.xy.erase(el.xy.begin() + std::ptrdiff_t(n), el.xy.end()); }

[[noreturn]] void too_few_points(const Record& endel, const Element& el, std::size_t np) {
    fail(endel.at, std::string(kind_name(el.kind)) + " with " + std::to_string(np) + " points");
}

void finish_boundary(const Record& endel, Element& el) {
    const std::size_t np = el.xy.size();
    if (np && el.xy.front() == el.xy.back()) el.xy.pop_back();
    if (el.xy.size() < 3) too_few_points(endel, el, np);
}

void finish_box(const Record& endel, Element& el) {
    if (el.xy.size() < 4) too_few_points(endel, el, el.xy.size());
    keep_points(el, 4);
}

void finish_path(const Record& endel, Element& el) {
    if (el.xy.size() < 2) too_few_points(endel, el, el.xy.size());
    if (el.pathtype != 0 && el.pathtype != 1 && el.pathtype != 2 && el.pathtype != 4)
        fail(endel.at, "PATHTYPE " + std::to_string(el.pathtype) + " (must be 0, 1, 2 or 4)");
}

void finish_sref(const Record& endel, Element& el) {
    if (el.xy.empty()) fail(endel.at, "SREF without XY");
    keep_points(el, 1);
}

void finish_aref(const Record& endel, const ElementDraft& e, Element& el) {
    if (el.xy.size() < 3) fail(endel.at, "AREF with " + std::to_string(el.xy.size()) + " points (needs 3)");
    if (!e.has_colrow) fail(endel.at, "AREF without COLROW");
    keep_points(el, 3);
}

/// Checks an element at its ENDEL record and completes it (closing point dropped, XY cut
/// to the points its kind uses).
void finish_element(const Record& endel, ElementDraft& e) {
    Element& el = e.el;
    switch (el.kind) {
        case Element::Boundary: finish_boundary(endel, el); break;
        case Element::Box: finish_box(endel, el); break;
        case Element::PathEl: finish_path(endel, el); break;
        case Element::Sref: finish_sref(endel, el); break;
        case Element::Aref: finish_aref(endel, e, el); break;
    }
    const bool ref = el.kind == Element::Sref || el.kind == Element::Aref;
    if (ref && el.sname.empty()) fail(endel.at, std::string(kind_name(el.kind)) + " without SNAME");
    if (!ref && !e.has_layer) fail(endel.at, std::string(kind_name(el.kind)) + " without LAYER");
}

// ----------------------------------------------------------------------------- levels

class Reader {
public:
    explicit Reader(const std::vector<std::uint8_t>& bytes) : records_(bytes) {}

    Library read() {
        read_header();
        read_library();
        check_references();
        return std::move(lib_);
    }

private:
    /// HEADER, then anything up to BGNLIB (nothing GoLightly passes over may come first).
    void read_header() {
        records_.next();  // the stream checks that the first record is a HEADER
        for (;;) {
            const Record r = records_.next();
            if (r.type == BGNLIB) return;
            if (is_structural(r.type)) misplaced(r);
            fail(r.at, "record " + hex2(r.type) + " before BGNLIB");
        }
    }

    /// The library's records and structures, up to ENDLIB.
    void read_library() {
        for (;;) {
            const Record r = records_.next();
            switch (r.type) {
                case LIBNAME: lib_.name = r.str(); break;
                case UNITS: read_units(r); break;
                case BGNSTR: read_structure(); break;
                case ENDLIB: return;
                default:
                    if (is_structural(r.type)) misplaced(r);
                    break;  // properties and library records GoLightly does not need
            }
        }
    }

    void read_units(const Record& r) {
        r.need(REAL8, 16);
        lib_.user_units_per_db = real8(r.d);
        lib_.metres_per_db = real8(r.d + 8);
        if (!(lib_.metres_per_db > 0) || !(lib_.metres_per_db < 1) || !std::isfinite(lib_.user_units_per_db))
            fail(r.at, "invalid UNITS (database unit " + std::to_string(lib_.metres_per_db) + " m)");
    }

    /// One structure after its BGNSTR, up to ENDSTR.
    void read_structure() {
        lib_.cells.emplace_back();
        for (;;) {
            const Record r = records_.next();
            if (r.type == STRNAME) {
                read_strname(r);
            } else if (r.type == ENDSTR) {
                if (lib_.cells.back().name.empty()) fail(r.at, "structure without STRNAME");
                return;
            } else if (is_element_start(r.type)) {
                read_element(r);
            } else if (is_structural(r.type)) {
                misplaced(r);
            }
        }
    }

    void read_strname(const Record& r) {
        std::string name = r.str();
        if (name.empty()) fail(r.at, "empty structure name");
        if (!names_.insert(name).second) fail(r.at, "structure '" + name + "' is defined twice");
        lib_.cells.back().name = std::move(name);
    }

    /// One element from its first record up to ENDEL; kept unless it is a TEXT or NODE.
    void read_element(const Record& start) {
        ElementDraft e;
        e.skip = start.type == TEXT || start.type == NODE;
        e.el.kind = start.type == BOUNDARY ? Element::Boundary
                  : start.type == PATH     ? Element::PathEl
                  : start.type == SREF     ? Element::Sref
                  : start.type == AREF     ? Element::Aref
                                           : Element::Box;
        Record r = records_.next();
        for (; r.type != ENDEL; r = records_.next())
            if (!read_element_record(r, e) && is_structural(r.type)) misplaced(r);
        if (e.skip) return;
        finish_element(r, e);  // errors name the ENDEL's offset
        lib_.cells.back().elements.push_back(std::move(e.el));
    }

    /// Every reference names a structure of the library.
    void check_references() const {
        for (const Cell& c : lib_.cells)
            for (const Element& e : c.elements)
                if ((e.kind == Element::Sref || e.kind == Element::Aref) && !names_.count(e.sname))
                    throw GdsError("cell '" + c.name + "' references cell '" + e.sname + "', which the file does not define",
                                   "data");
    }

    RecordStream records_;
    Library lib_;
    std::set<std::string> names_;
};

}  // namespace

Library read(const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() > kMaxBytes) throw GdsError("the GDSII file is larger than 64 MiB", "data");
    if (bytes.size() < 4) fail(0, "the file is empty or truncated (" + std::to_string(bytes.size()) + " bytes)");
    return Reader(bytes).read();
}

}  // namespace golightly::gds
