#include "tray_host.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QTest>

namespace tether::test {

QString shotsDir() {
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/ui-shots");
    QDir().mkpath(dir);
    return dir;
}

bool waitFor(const std::function<bool()> &condition, int timeoutMs, int pollMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (condition()) return true;
        QTest::qWait(pollMs);
    }
    return condition();
}

void startTrayer(QProcess &trayer, int width, int height) {
    trayer.start(QStringLiteral("trayer"),
                 {QStringLiteral("--edge"), QStringLiteral("top"), QStringLiteral("--align"),
                  QStringLiteral("right"), QStringLiteral("--widthtype"), QStringLiteral("pixel"),
                  QStringLiteral("--width"), QString::number(width), QStringLiteral("--height"),
                  QString::number(height), QStringLiteral("--SetDockType"),
                  QStringLiteral("true")});
}

void stopTrayer(QProcess &trayer) {
    trayer.terminate();
    if (!trayer.waitForFinished(3000)) {
        trayer.kill();
        trayer.waitForFinished();
    }
}

} // namespace tether::test
