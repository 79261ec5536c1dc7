#include "ui/format.h"

#include <QCoreApplication>

namespace tether::ui {

QString stateLabel(policy::State s) {
    using policy::State;
    switch (s) {
    case State::Stopped:
        return QCoreApplication::translate("tether", "Stopped");
    case State::Starting:
        return QCoreApplication::translate("tether", "Starting");
    case State::Healthy:
        return QCoreApplication::translate("tether", "Healthy");
    case State::NotResponding:
        return QCoreApplication::translate("tether", "Not responding");
    case State::Recovering:
        return QCoreApplication::translate("tether", "Recovering");
    case State::Restarting:
        return QCoreApplication::translate("tether", "Restarting");
    case State::Stopping:
        return QCoreApplication::translate("tether", "Stopping");
    case State::Failed:
        return QCoreApplication::translate("tether", "Failed");
    }
    return QString();
}

QString durationText(qint64 ms) {
    const qint64 s = qMax<qint64>(ms, 0) / 1000;
    if (s < 60) return QStringLiteral("%1 s").arg(s);
    if (s < 3600) return QStringLiteral("%1 min").arg(s / 60);
    if (s < 86400)
        return QStringLiteral("%1 h %2 min")
            .arg(s / 3600)
            .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}

QString memoryText(quint64 kib) {
    if (kib < 1024) return QStringLiteral("%1 KiB").arg(kib);
    if (kib < 1024 * 1024) return QStringLiteral("%1 MiB").arg(double(kib) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 GiB").arg(double(kib) / (1024.0 * 1024.0), 0, 'f', 1);
}

} // namespace tether::ui
