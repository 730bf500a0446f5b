// GoLightly: reading input files defensively (issue 19): only regular files, never more
// than a size limit, never blocking on a FIFO or reading a device such as /dev/zero.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace golightly {

/// Why a file could not be read; what() is a phrase without the file name: strerror
/// ("No such file or directory"), "it is a FIFO (named pipe), not a regular file ...",
/// "it is 80.0 MiB, larger than the limit of 64.0 MiB".
class FileReadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The whole content of the regular file `file`, at most `max_bytes` bytes.
/// Opens with O_NONBLOCK (a FIFO never blocks) and checks the opened descriptor with
/// fstat: directories, FIFOs, sockets and devices are refused, as are files larger than
/// max_bytes (also when one grows while being read). Symbolic links are followed.
/// Throws FileReadError with the reason (strerror for open/read failures).
std::string read_regular_file(const std::filesystem::path& file, std::uint64_t max_bytes);

}  // namespace golightly
