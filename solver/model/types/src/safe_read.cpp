// GoLightly: safe_read.hpp and the helpers of limits.hpp.
#include "golightly/safe_read.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golightly/limits.hpp"

namespace golightly {

namespace limits {

std::uint64_t host_memory_bytes() {
    std::uint64_t total = 0;
    {
        std::ifstream in("/proc/meminfo");
        std::string key, unit;
        std::uint64_t value = 0;
        while (in >> key >> value >> unit)
            if (key == "MemTotal:") {
                total = value * 1024;
                break;
            }
    }
    if (const char* cap = std::getenv("GOLIGHTLY_HOST_MEMORY_BYTES")) {
        const std::uint64_t c = std::strtoull(cap, nullptr, 10);
        if (c > 0) total = total ? std::min(total, c) : c;
    }
    return total;
}

std::string format_bytes(double bytes) {
    char buf[64];
    if (bytes >= 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    else if (bytes >= 1024.0 * 1024) std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024));
    else if (bytes >= 1024.0) std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024.0);
    else std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
    return buf;
}

}  // namespace limits

namespace {

const char* kind_of(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    return "not a regular file";
}

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

std::string read_regular_file(const std::filesystem::path& file, std::uint64_t max_bytes) {
    Fd f;
    do {
        f.fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    } while (f.fd < 0 && errno == EINTR);
    if (f.fd < 0) throw FileReadError(std::strerror(errno));
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) throw FileReadError(std::string("fstat: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw FileReadError(std::string("it is ") + kind_of(st.st_mode) + ", not a regular file (only regular files are read)");
    const auto too_large = [&](std::uint64_t size) {
        return FileReadError("it is " + limits::format_bytes(double(size)) + ", larger than the limit of " +
                             limits::format_bytes(double(max_bytes)));
    };
    if (std::uint64_t(st.st_size) > max_bytes) throw too_large(std::uint64_t(st.st_size));
    std::string out;
    out.resize(std::size_t(st.st_size));
    std::size_t got = 0;
    char extra[4096];
    for (;;) {
        char* dst = got < out.size() ? out.data() + got : extra;
        const std::size_t room = got < out.size() ? out.size() - got : sizeof extra;
        const ssize_t n = ::read(f.fd, dst, room);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw FileReadError(std::string("read error: ") + std::strerror(errno));
        }
        if (n == 0) break;
        if (dst == extra) {  // the file grew while being read
            if (got + std::size_t(n) > max_bytes) throw too_large(got + std::size_t(n));
            out.append(extra, std::size_t(n));
        }
        got += std::size_t(n);
    }
    out.resize(got);
    return out;
}

}  // namespace golightly
