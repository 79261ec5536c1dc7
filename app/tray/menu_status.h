// The top of the tray menu: the state and what happens next, version/port/uptime, and what the
// service is doing, in normal text. Disabled menu items drew it grey on white (about 1.9:1),
// and the menu's width followed the line's length from state to state; this widget has one
// width in every state (kMenuStatusChars, or the facts line at its longest in this language)
// and wraps what is longer.
#pragma once

#include "tray/tray_menu_model.h"

#include <QColor>
#include <QWidget>

class QLabel;

namespace tether {

class MenuStatusWidget : public QWidget {
    Q_OBJECT
public:
    explicit MenuStatusWidget(QWidget *parent = nullptr);
    void setModel(const TrayMenuModel &m, const QColor &stateColour);
    // Its one width, and the height its wrapped lines take at that width (the menu asks this).
    QSize sizeHint() const override;

    QString statusText() const; // what the lines say, in plain text (tests, screen readers)
    QLabel *statusLabel() const { return status_; }
    QLabel *detailLabel() const { return detail_; } // version · port · uptime

private:
    void ensureLaidOut();
    void fitToFont();
    void showModel();
    QString stateLine_, detailLine_, thirdLine_, updateLine_;
    QColor stateColour_;
    bool laidOut_ = false;
    QLabel *status_ = nullptr;
    QLabel *detail_ = nullptr;
    QLabel *activity_ = nullptr;
    QLabel *update_ = nullptr;
};

} // namespace tether
