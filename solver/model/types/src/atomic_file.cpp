// GoLightly: files written whole or not at all (atomic_file.hpp).
#include "golightly/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace golightly {

std::filesystem::path atomic_temporary(const std::filesystem::path& file) {
    static std::atomic<unsigned> counter{0};  // two threads writing one file
    return file.string() + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
}

void replace_file_atomic(const std::filesystem::path& tmp, const std::filesystem::path& file) {
    std::error_code ec;
    std::filesystem::rename(tmp, file, ec);
    if (ec) {
        const std::string why = ec.message();
        std::filesystem::remove(tmp, ec);
        throw std::runtime_error(file.string() + ": cannot replace the file: " + why);
    }
}

void write_file_atomic(const std::filesystem::path& file, std::string_view bytes) {
    const std::filesystem::path tmp = atomic_temporary(file);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error(file.string() + ": cannot open for writing");
        out.write(bytes.data(), std::streamsize(bytes.size()));
        out.flush();
        if (!out) {  // disk full: leave no torn temporary file behind
            out.close();
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
            throw std::runtime_error(file.string() + ": write failed (disk full?)");
        }
    }
    replace_file_atomic(tmp, file);
}

}  // namespace golightly
