// Help > About GoLightly: the version banner (version, git commit, CUDA compiled in or
// not) and the licences of the libraries GoLightly uses.
#pragma once

#include <QDialog>

namespace golightly::app {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);
};

}  // namespace golightly::app
