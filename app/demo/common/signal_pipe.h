// Delivers POSIX signals (SIGTERM, SIGINT, SIGHUP) into the Qt event loop through a self-pipe,
// so shutdown runs as ordinary code instead of inside a signal handler. On Windows, console
// control events instead: CTRL_BREAK_EVENT (how Tether asks a console service to stop; node and
// bun see it as SIGBREAK) arrives as SIGTERM, CTRL_C_EVENT as SIGINT.
#pragma once

#include <QList>
#include <QObject>

#include <initializer_list>

class QSocketNotifier;

namespace tether::demo {

class SignalPipe : public QObject {
    Q_OBJECT
public:
    // One instance per process; the handlers stay installed until it is destroyed.
    SignalPipe(std::initializer_list<int> signalNumbers, QObject *parent = nullptr);
    ~SignalPipe() override;

    // Back to the default action for the handled signals: for a frozen main thread, which can
    // no longer read the pipe but must still die on SIGTERM (Windows: on CTRL_BREAK).
    void restoreDefaults();
    // Ignore one from now on (SIG_IGN; on Windows the control event is swallowed): a service
    // that only a kill stops.
    void ignore(int signalNumber);

signals:
    void received(int signalNumber);

private:
    void drain();

    QList<int> signals_;
    QSocketNotifier *notifier_ = nullptr;
};

} // namespace tether::demo
