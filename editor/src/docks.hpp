// GoLightly editor: the dock widgets. Every change made in a dock is one undoable
// EditorDocument edit; the docks refresh themselves from the document's signals.
// One header per dock; this one includes them all (the main window and the tests use it).
#pragma once

#include "layers_dock.hpp"
#include "materials_dock.hpp"
#include "properties_dock.hpp"
#include "run_setup_dock.hpp"
