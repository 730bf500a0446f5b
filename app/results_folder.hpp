// GoLightly IDE: where a project's results go (issue 55). Next to the project
// (<stem>_results, <stem>_sparams, as golightly-cli), unless the project's folder cannot
// take them: a folder the user may not write, or an installed data folder (the package's
// examples under share/golightly: even where it is writable, root's runs must not litter
// a package's files). Then the results go to the user's documents:
// <Documents>/GoLightly/<stem>_results, so that an example opened from the installed
// location runs without a failure.
#pragma once

#include <QString>
#include <QStringList>

namespace golightly::app {

/// The installed data folders of GoLightly (share/golightly next to the executable's bin/,
/// and under every system data folder: /usr/share/golightly, /usr/local/share/golightly),
/// canonical, existing ones only.
QStringList installedDataFolders();
/// True when results must not be written into `dir`: it is (in) an installed data folder,
/// or it exists and is not writable.
bool isReadOnlyProjectFolder(const QString& dir);
/// <Documents>/GoLightly (QStandardPaths::DocumentsLocation; the home folder where the
/// desktop names none).
QString documentsResultsRoot();
/// The folder for the results of the project file `projectPath`: `<dir>/<stem><suffix>`,
/// or `<Documents>/GoLightly/<stem><suffix>` when isReadOnlyProjectFolder(dir);
/// `redirected` (optional) tells which.
QString resultsFolderFor(const QString& projectPath, const QString& suffix, bool* redirected = nullptr);

}  // namespace golightly::app
