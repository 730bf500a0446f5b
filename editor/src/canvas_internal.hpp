// GoLightly editor: a helper shared by the canvas's source files (canvas_*.cpp) only.
#pragma once

#include <QPointF>

#include "golightly/types.hpp"

namespace golightly::editor {

/// A world point (um) as a QPointF.
inline QPointF qp(const Vec2& v) { return {v.x, v.y}; }

}  // namespace golightly::editor
