// GoLightly IDE: the start page (issue 20) shown in the centre when GoLightly starts
// without a project: new project, the bundled examples with pictures, recent files, the
// user guide.
#pragma once

#include <QString>
#include <QStringList>
#include <QRectF>
#include <QWidget>

#include <utility>
#include <vector>

class QGridLayout;
class QVBoxLayout;

namespace golightly::app {

/// The folder of the bundled examples (GOLIGHTLY_EXAMPLES, the install's
/// share/golightly/examples, the source tree), or empty.
QString examplesDirectory();
/// The title of example `path` in the user's language: the bundled examples by their file
/// names (the 3D ones marked " (3D)"), another file by its name.
QString exampleTitle(const QString& path);
/// The user guide (docs/user-guide.md of the install or the source tree), or empty.
QString userGuidePath();

class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);
    /// Lists `recent` (absolute paths; missing files are left out).
    void setRecentFiles(const QStringList& recent);
    /// The example files shown (absolute paths), in order.
    QStringList examples() const { return examples_; }
    /// A picture of an example project (its canvas as the editor draws it). `labels`, when
    /// given, receives the item names drawn and their rectangles in the picture (pixels);
    /// none covers another (Canvas::drawnLabels).
    static QImage renderExample(const QString& path, QSize size,
                                std::vector<std::pair<QString, QRectF>>* labels = nullptr);

Q_SIGNALS:
    void newProjectRequested();
    void openRequested();
    void openFileRequested(const QString& path);
    void userGuideRequested();

private:
    QStringList examples_;
    QVBoxLayout* recentLayout_ = nullptr;
    QGridLayout* examplesGrid_ = nullptr;
};

}  // namespace golightly::app
