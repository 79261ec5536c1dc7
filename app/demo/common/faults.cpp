#include "demo/common/faults.h"

#include <QThread>
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

} // namespace tether::demo
