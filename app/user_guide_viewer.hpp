// GoLightly IDE: the user guide in a window of its own (issue 55). The guide is Markdown
// (docs/user-guide.md, installed as share/doc/golightly/user-guide.md with its pictures);
// Qt renders it, so Help > User Guide, F1 and the start page's button work where no
// program opens .md files. Links to other local Markdown/HTML/text files are followed
// here (Back/Forward), links to the web and to other files go to the desktop's handler;
// pictures are scaled down to the window's width.
#pragma once

#include <QUrl>
#include <QWidget>

class QLabel;
class QLineEdit;
class QTextBrowser;
class QToolButton;

namespace golightly::app {

class UserGuideViewer : public QWidget {
    Q_OBJECT
public:
    /// A window (Qt::Window) owned by `parent`.
    explicit UserGuideViewer(QWidget* parent = nullptr);
    /// Shows the Markdown file `path`. An empty or unreadable path shows a page that names
    /// where the guide was looked for and links the online copy; returns false then.
    bool openGuide(const QString& path);
    /// The page shown (a local file URL; empty for the "not found" page).
    QUrl source() const;
    QTextBrowser* browser() const { return browser_; }
    QLineEdit* findField() const { return find_; }
    /// Selects the next occurrence of `text` after the cursor (wrapping at the end); false
    /// when the page has none.
    bool findNext(const QString& text);
    /// Where links go: local Markdown, HTML and text files (and anchors) open here; any
    /// other URL goes to the desktop (QDesktopServices). Public for the tests.
    void followLink(const QUrl& url);
    /// The URL of the last link handed to the desktop (tests).
    QUrl lastExternalUrl() const { return lastExternal_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitImages();
    QTextBrowser* browser_ = nullptr;
    QLineEdit* find_ = nullptr;
    QLabel* status_ = nullptr;
    QToolButton *back_ = nullptr, *forward_ = nullptr, *home_ = nullptr;
    QUrl homeUrl_;
    QUrl lastExternal_;
};

}  // namespace golightly::app
