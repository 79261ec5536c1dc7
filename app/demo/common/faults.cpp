#include "demo/common/faults.h"

#include "demo/common/signal_pipe.h"

#include <QThread>
#include <QTimer>
#include <QtGlobal>

#include <csignal>
#include <cstdlib>

#ifdef Q_OS_WIN
#include <windows.h>
#endif

namespace tether::demo {

void crashNow() {
#ifdef Q_OS_WIN
    ::TerminateProcess(::GetCurrentProcess(), 9);
#else
    std::raise(SIGKILL);
#endif
    std::abort(); // not reached
}

void blockMainThreadFor(int ms) {
    QThread::msleep(static_cast<unsigned long>(ms));
}

void freezeForever() {
    for (;;)
        QThread::sleep(1);
}

void scheduleFaults(const FaultSchedule &f, SignalPipe &signalPipe) {
    if (f.busyAfterMs >= 0)
        QTimer::singleShot(f.busyAfterMs, Qt::PreciseTimer,
                           [ms = f.busyForMs] { blockMainThreadFor(ms); });
    if (f.crashAfterMs >= 0)
        QTimer::singleShot(f.crashAfterMs, Qt::PreciseTimer, [] { crashNow(); });
    if (f.freezeAfterMs >= 0)
        QTimer::singleShot(
            f.freezeAfterMs, Qt::PreciseTimer, [&signalPipe, ignoreTerm = f.ignoreTerm] {
                signalPipe.restoreDefaults(); // a hung process still dies on SIGTERM...
                if (ignoreTerm)               // ...unless it ignores it: only SIGKILL helps then
                    signalPipe.ignore(SIGTERM);
                freezeForever();
            });
}

} // namespace tether::demo
