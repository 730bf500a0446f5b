// GoLightly: the upper bounds on what a project, a CSV or an embedded file may ask for
// (docs/spec/project-format.md, "Limits"), and helpers that keep error messages short.
//
// Every limit is checked before the memory it guards is allocated, and a violation is a
// ProjectError naming the file and the JSON path (or CSV line) with the figure found and
// the limit, so nothing ends in std::bad_alloc, a signal or a machine out of memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace golightly::limits {

/// Largest project file read (bytes). A project with an embedded STEP file of
/// kMaxStepBytes is about 4/3 of that in base64.
inline constexpr std::uint64_t kMaxProjectFileBytes = 64ull << 20;
/// Largest optical-constants CSV (`materials fit`), bytes.
inline constexpr std::uint64_t kMaxCsvFileBytes = 64ull << 20;
/// Largest personal material library file, bytes.
inline constexpr std::uint64_t kMaxLibraryFileBytes = 16ull << 20;
/// Largest STEP file (decoded bytes, embedded or imported).
inline constexpr std::uint64_t kMaxStepBytes = 32ull << 20;
/// Deepest parenthesis nesting accepted in STEP data (real files nest fewer than 10).
inline constexpr int kMaxStepNesting = 200;
/// Largest raster image: pixels (width x height) and decoded bytes.
inline constexpr std::uint64_t kMaxPngPixels = 1ull << 26;  // 8192 x 8192
/// Points of run.spectrum.
inline constexpr int kMaxSpectrumPoints = 100000;
/// Poles of one material, and of all materials of a project together.
inline constexpr int kMaxPolesPerMaterial = 32;
inline constexpr int kMaxPolesPerProject = 128;
/// Wavelengths of one dft_field monitor.
inline constexpr int kMaxDftWavelengths = 100;
/// Largest |coordinate| and length of any shape, source or monitor, um (1 m).
inline constexpr double kMaxCoordinateUm = 1e6;
/// Cells along one axis (PML included) and in the whole grid.
inline constexpr double kMaxCellsPerAxis = 1 << 30;
inline constexpr double kMaxCells = 2.0e9;
/// Points of one polygon or path, and shapes in a project.
inline constexpr std::size_t kMaxPoints = 1000000;
/// Characters of user input quoted in a message, and of a whole message.
inline constexpr std::size_t kMaxQuotedChars = 120;
inline constexpr std::size_t kMaxMessageChars = 2000;

/// `text` cut to at most `max_chars` bytes (not inside a UTF-8 sequence) with
/// "... (N more bytes)" appended when cut; unchanged when short enough.
inline std::string cap_text(std::string_view text, std::size_t max_chars = kMaxQuotedChars) {
    if (text.size() <= max_chars) return std::string(text);
    std::size_t cut = max_chars;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 continuation byte
    return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size() - cut) + " more bytes)";
}

/// The host memory a run may plan for, bytes: MemTotal of /proc/meminfo, capped by
/// $GOLIGHTLY_HOST_MEMORY_BYTES when set (tests; the engine's own check of MemAvailable
/// uses $GOLIGHTLY_CPU_MEMORY_LIMIT_BYTES); 0 when unknown.
std::uint64_t host_memory_bytes();

/// "1.5 GiB", "12 MiB", "800 bytes".
std::string format_bytes(double bytes);

}  // namespace golightly::limits
