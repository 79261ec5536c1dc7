#include "service/adopted_exit_watch.h"

namespace tether {

namespace {
QString exitedWhy(const os::Identity &id) {
    return QStringLiteral("pid %1 exited").arg(id.pid);
}
} // namespace

AdoptedExitWatch::AdoptedExitWatch(QObject *parent)
    : QObject(parent) {
    connect(&look_, &QTimer::timeout, this, [this] {
        if (os::alive(watched_) != os::Liveness::Gone) return;
        look_.stop(); // once; the identity stays watched, so that asking again changes nothing
        emit exited(watched_, exitedWhy(watched_));
    });
}

void AdoptedExitWatch::stop() {
    notifier_.reset();
    look_.stop();
    watched_ = {};
}

void AdoptedExitWatch::watch(const std::optional<os::Identity> &id, int lookEveryMs) {
    if (id && *id == watched_) return;
    stop();
    if (!id) return;
    watched_ = *id;
    std::string why;
    notifier_ = ExitNotifier::open(*id, &why);
    if (notifier_) {
        connect(notifier_.get(), &ExitNotifier::exited, this, [this](const os::Identity &gone) {
            notifier_.release()->deleteLater(); // we are inside its own signal
            emit exited(gone, exitedWhy(gone));
        });
        emit logLine(
            QStringLiteral("watching pid %1 for its exit (kernel notification)").arg(id->pid));
        return;
    }
    emit logLine(QStringLiteral("no exit notification for pid %1 (%2): looking every %3 ms")
                     .arg(id->pid)
                     .arg(QString::fromStdString(why))
                     .arg(lookEveryMs));
    look_.start(lookEveryMs);
}

} // namespace tether
