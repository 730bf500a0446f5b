// GoLightly editor: checks of a project before it runs, in the user's words, and the
// one-click normalization set-up (issue 20).
#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include "golightly/project.hpp"

namespace golightly::editor {

class EditorDocument;

/// What keeps `project` from running (validate_project, check_runnable), one line each,
/// with the item named as the user sees it ("layer \"waveguide\", shape 1: width must be
/// > 0 (found 0)"). Empty: it can run.
QStringList run_problems(const Project& project);

/// Set-up mistakes that do not stop a run but spoil its results, one line each: a
/// reflection monitor behind the source it should measure (it sees the source's backward
/// wave, or nothing from a one-way source, instead of the incident flux).
QStringList setup_warnings(const Project& project);

/// With normalization on: one line per mode source whose reference (normalization) run has
/// no guide under it (reference_structure.hpp section_has_guide), saying what the run will
/// do (derive it when no reference layer is named, else fail) and how to fix it. Part of
/// setup_warnings.
QStringList reference_warnings(const Project& project);

/// True when the project has flux monitors (transmission or reflection) and normalization
/// is off: the spectra would be raw fluxes (W/m per DFT unit, ~1e-38), offer normalization.
bool offers_normalization(const Project& project);

/// Turns normalization on in one undo step with its reference structure
/// (reference_structure.hpp complete_reference_structure): with no reference layer named,
/// the reference-only layers; then, for each mode source with no guide in them, the input
/// waveguide under it derived as reference-only layers ("Reference: <source> guide"),
/// added to the project and named (a second call adds nothing). The incident monitor is
/// left to the solver's default (first reflection, else transmission monitor). Returns a
/// sentence saying what the reference run will contain.
QString set_up_normalization(EditorDocument* doc);

/// Translation context of these functions.
struct RunChecks {
    Q_DECLARE_TR_FUNCTIONS(golightly::editor::RunChecks)
};

}  // namespace golightly::editor
