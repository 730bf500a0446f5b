// GoLightly: step_isolation.hpp.
#include "step_isolation.hpp"

#include <stdexcept>
#include <string_view>

#include "golightly/limits.hpp"

namespace golightly {

void precheck_step_data(const std::vector<std::uint8_t>& bytes, const std::string& label) {
    if (bytes.size() > limits::kMaxStepBytes)
        throw std::runtime_error(label + ": the STEP file is " + limits::format_bytes(double(bytes.size())) +
                                 ", larger than the limit of " + limits::format_bytes(double(limits::kMaxStepBytes)));
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const auto first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (bytes.empty() || first == std::string_view::npos || text.substr(first, 12) != "ISO-10303-21")
        throw std::runtime_error(label + ": not a STEP file (it does not start with ISO-10303-21;)");
    int depth = 0;
    std::size_t line = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
        } else if (c == '\'') {  // a string; '' is an escaped quote
            for (++i; i < text.size(); ++i) {
                if (text[i] == '\n') ++line;
                if (text[i] == '\'') {
                    if (i + 1 < text.size() && text[i + 1] == '\'') ++i;
                    else break;
                }
            }
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {  // a comment
            const auto end = text.find("*/", i + 2);
            for (std::size_t k = i; k < (end == std::string_view::npos ? text.size() : end); ++k) line += text[k] == '\n';
            if (end == std::string_view::npos) break;
            i = end + 1;
        } else if (c == '(') {
            if (++depth > limits::kMaxStepNesting)
                throw std::runtime_error(label + ": line " + std::to_string(line) + ": parentheses nested more than " +
                                         std::to_string(limits::kMaxStepNesting) +
                                         " levels deep: this is not a STEP file GoLightly reads");
        } else if (c == ')') {
            if (depth > 0) --depth;
        } else if (c == ';') {
            depth = 0;  // an entity ends: a missing ')' does not carry into the next one
        }
    }
}

}  // namespace golightly
