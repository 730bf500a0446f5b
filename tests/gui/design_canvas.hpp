// A canvas over a document with the Design Region tool active, as the design-region GUI
// tests (tst_inverse_design, tst_design_fixed) draw on it.
#pragma once

#include <QPointF>

#include "canvas.hpp"
#include "design_region.hpp"
#include "editor_document.hpp"
#include "tools.hpp"

namespace golightly::test {

/// A 720 x 480 px canvas over `doc` with snapping off, viewed at `pixels_per_um` around
/// `centre_um` (um), the Design Region tool (drag: the region; Shift / Ctrl + drag: fixed
/// solid / void boxes) set on it.
struct DesignCanvas {
    golightly::editor::Canvas canvas;
    golightly::editor::ToolSettings settings;
    golightly::editor::DesignRegionTool tool;
    DesignCanvas(golightly::editor::EditorDocument* doc, double pixels_per_um, QPointF centre_um)
        : canvas(doc), tool(&canvas, &settings) {
        canvas.resize(720, 480);
        canvas.setSnapEnabled(false);
        canvas.setView(pixels_per_um, centre_um);
        canvas.setTool(&tool);
    }
};

}  // namespace golightly::test
