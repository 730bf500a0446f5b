// GoLightly editor: the project's ports (top-level `ports`, project-format.md "Ports and
// S-parameters"; solver: sparams.hpp parse_ports) as editable items. The model keeps them
// in Project::extra["ports"] (a JSON array, read and written by the solver's sparams code);
// these helpers read one entry leniently (what the editor can show) and write the known
// members back into the same JSON object, so members a newer version wrote are kept.
// Every change goes through EditorDocument::editProject (one undo step).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "golightly/project.hpp"

namespace golightly::editor {

/// One port as the editor shows it. 2D projects: a line, `center` and `size` use x, y
/// (z is 0 and not written); 3D: a plane, size with one zero entry.
struct PortData {
    std::string name;
    Vec3 center{0, 0, 0}, size{0, 0, 0};
    std::string direction = "+x";  ///< along the normal, into the device
    std::vector<int> modes{0};
    bool operator==(const PortData&) const = default;
};

/// Number of entries of `ports` (0 when absent or not an array).
int port_count(const Project& project);
/// Entry `index`, read leniently (missing members take the defaults above); nullopt when
/// there is no such entry or it is not an object.
std::optional<PortData> port_at(const Project& project, int index);
/// Writes `port` into entry `index` (keeps the entry's other members); center and size
/// get 2 entries in a 2D project, 3 in 3D. False when there is no such entry.
bool set_port(Project& project, int index, const PortData& port);
/// Appends a port (creates `ports` when absent). Returns its index.
int add_port(Project& project, const PortData& port);
/// Removes entry `index` (and `ports` when it becomes empty). False when there is none.
bool remove_port(Project& project, int index);
/// The names of all ports (for unique names).
std::vector<std::string> port_names(const Project& project);

/// A port drawn in the xy editor from a to b (um): a line (2D) or a plane through the line
/// normal to the axis along which it is shortest, spanning [0, Lz] (3D), its direction
/// + that axis. `name` as given.
PortData port_from_line(const Project& project, Vec2 a, Vec2 b, const std::string& name);

/// The xy footprint of a port: true and the segment a-b for a line or a plane normal to x
/// or y; false and the rectangle's corners for a plane normal to z.
bool port_footprint(const PortData& port, Vec2& a, Vec2& b);

}  // namespace golightly::editor
