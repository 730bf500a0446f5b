// GoLightly IDE: a one-line label that shrinks below its text's width and shows "..."
// where the text is cut, the whole text in its tool tip. The status bar's run status (a
// results path can be 100 characters) and the tool hint share its width this way: neither
// pushes the other out (a plain QLabel's minimum width is its whole text).
#pragma once

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QStyleOption>

namespace golightly::app {

class ElidedLabel : public QLabel {
public:
    explicit ElidedLabel(QWidget* parent = nullptr) : QLabel(parent) {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        setMinimumWidth(40);
    }
    /// The width the whole text needs.
    int fullWidth() const { return fontMetrics().horizontalAdvance(text()) + 2 * margin() + 4; }
    QSize sizeHint() const override { return {fullWidth(), QLabel::sizeHint().height()}; }
    QSize minimumSizeHint() const override { return {40, QLabel::minimumSizeHint().height()}; }
    /// True when the whole text fits (nothing cut).
    bool showsAll() const { return fullWidth() <= contentsRect().width() + 4; }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        const QRect r = contentsRect().adjusted(margin(), 0, -margin(), 0);
        const QString shown = fontMetrics().elidedText(text(), Qt::ElideMiddle, r.width());
        style()->drawItemText(&p, r, int(alignment() | Qt::AlignVCenter), palette(), isEnabled(), shown, foregroundRole());
    }
    bool event(QEvent* e) override {
        // the whole text as a tool tip when it is cut
        if (e->type() == QEvent::ToolTip && !showsAll()) setToolTip(text());
        else if (e->type() == QEvent::ToolTip) setToolTip(QString());
        return QLabel::event(e);
    }
};

}  // namespace golightly::app
