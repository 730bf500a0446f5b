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

/// True when the project has flux monitors (transmission or reflection) and normalization
/// is off: the spectra would be raw fluxes (W/m per DFT unit, ~1e-38), offer normalization.
bool offers_normalization(const Project& project);

/// Turns normalization on in one undo step: the reference run uses the reference-only
/// layers (none: the background alone, i.e. the source in the empty domain); the incident
/// monitor is left to the solver's default (first reflection, else transmission monitor).
/// Returns a sentence saying what was set.
QString set_up_normalization(EditorDocument* doc);

/// Translation context of these functions.
struct RunChecks {
    Q_DECLARE_TR_FUNCTIONS(golightly::editor::RunChecks)
};

}  // namespace golightly::editor
