#include "service/exit_notifier.h"

#ifdef Q_OS_WIN
#include <QWinEventNotifier>
#else
#include <QSocketNotifier>
#endif

namespace tether {

std::unique_ptr<ExitNotifier> ExitNotifier::open(const os::Identity &id, std::string *why) {
    std::unique_ptr<os::ExitWatch> watch = os::ExitWatch::open(id, why);
    if (!watch) return nullptr;
    return std::unique_ptr<ExitNotifier>(new ExitNotifier(id, std::move(watch)));
}

ExitNotifier::ExitNotifier(const os::Identity &id, std::unique_ptr<os::ExitWatch> watch)
    : id_(id)
    , watch_(std::move(watch)) {
#ifdef Q_OS_WIN
    auto *n = new QWinEventNotifier(watch_->handle(), this);
    connect(n, &QWinEventNotifier::activated, this, [this, n] {
        n->setEnabled(false); // once is enough: the handle stays signalled
        emit exited(id_);
    });
#else
    auto *n = new QSocketNotifier(qintptr(watch_->fd()), QSocketNotifier::Read, this);
    connect(n, &QSocketNotifier::activated, this, [this, n] {
        n->setEnabled(false); // once is enough: the fd stays readable
        emit exited(id_);
    });
#endif
    notifier_ = n;
}

ExitNotifier::~ExitNotifier() {
    delete notifier_; // before the watch closes the fd / handle it listens on
}

} // namespace tether
