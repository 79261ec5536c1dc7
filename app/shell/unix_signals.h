// SIGTERM / SIGINT / SIGHUP turned into a Qt signal (self-pipe), so quitting runs the same
// orderly path as the Quit menu item.
#pragma once

#include <QObject>

namespace tether {

class QuitSignals : public QObject {
    Q_OBJECT
public:
    explicit QuitSignals(QObject *parent = nullptr);
signals:
    void quitRequested(int signalNumber);
};

} // namespace tether
