#include "results_folder.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace golightly::app {

QStringList installedDataFolders() {
    QStringList candidates{QCoreApplication::applicationDirPath() + QStringLiteral("/../share/golightly")};
    const QString own = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    for (const QString& d : QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation))
        if (d != own) candidates << d + QStringLiteral("/golightly");  // system folders, not ~/.local/share
    candidates << QStringLiteral("/usr/share/golightly") << QStringLiteral("/usr/local/share/golightly");
    QStringList out;
    for (const QString& c : candidates) {
        const QString canonical = QFileInfo(c).canonicalFilePath();  // empty when missing
        if (!canonical.isEmpty() && !out.contains(canonical)) out << canonical;
    }
    return out;
}

bool isReadOnlyProjectFolder(const QString& dir) {
    const QFileInfo fi(dir);
    const QString canonical = fi.canonicalFilePath();
    if (!canonical.isEmpty())
        for (const QString& data : installedDataFolders())
            if (canonical == data || canonical.startsWith(data + QLatin1Char('/'))) return true;
    return fi.exists() && !fi.isWritable();
}

QString documentsResultsRoot() {
    QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (docs.isEmpty()) docs = QDir::homePath();
    return QDir(docs).filePath(QStringLiteral("GoLightly"));
}

QString resultsFolderFor(const QString& projectPath, const QString& suffix, bool* redirected) {
    const QFileInfo fi(projectPath);
    const QString name = fi.completeBaseName() + suffix;
    const bool away = isReadOnlyProjectFolder(fi.absolutePath());
    if (redirected) *redirected = away;
    return away ? QDir(documentsResultsRoot()).filePath(name) : fi.absoluteDir().filePath(name);
}

}  // namespace golightly::app
