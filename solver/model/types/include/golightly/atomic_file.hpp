// GoLightly: files written whole or not at all. Every result, history, density, cache and
// picture file is written to a temporary file in the target's folder and renamed over the
// target, so that a reader (the IDE's results view, a resumed optimization, a second
// process sharing the mode cache) sees the old file or the new one, never a torn one, and
// a full disk leaves no partial file behind. The project save (project_write.cpp) has its
// own, stronger path: fsync of the file and its folder, and the old file's permissions.
#pragma once

#include <filesystem>
#include <string_view>

namespace golightly {

/// Writes `bytes` to `file`: first to a temporary file in the same folder (atomic_temporary), then a rename
/// over `file`. The temporary file is removed on every failure. Throws std::runtime_error
/// whose message starts with the file's path: "cannot open for writing", "write failed
/// (disk full?)", "cannot replace the file: <reason>".
void write_file_atomic(const std::filesystem::path& file, std::string_view bytes);

/// The last step of write_file_atomic for a temporary file another writer filled (HDF5,
/// image encoders): renames `tmp` over `file`; on failure removes `tmp` and throws
/// std::runtime_error "<file>: cannot replace the file: <reason>".
void replace_file_atomic(const std::filesystem::path& tmp, const std::filesystem::path& file);

/// A new temporary file name for `file`, "<file>.tmp<pid>.<n>" (n counts the calls in this
/// process), so that two processes or two threads writing one file never share one.
std::filesystem::path atomic_temporary(const std::filesystem::path& file);

}  // namespace golightly
