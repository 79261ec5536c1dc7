// About Tether: its version, what it is, its licence (MIT) in full, Qt's licence notice (Tether
// uses Qt under the LGPL version 3) with Qt's own About, and a link to the project's page.
#pragma once

#include <QDialog>

class QTextBrowser;

namespace tether::ui {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);

    QString versionText() const; // "Version 0.1.0"
    QString licenceText() const; // the whole of what the licence pane says (tests)

private:
    QTextBrowser *licences_ = nullptr;
    QString version_;
};

} // namespace tether::ui
