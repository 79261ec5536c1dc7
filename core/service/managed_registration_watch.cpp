#include "service/managed_registration_watch.h"

#include "service/managed_registration.h"
#include "service/registration_store.h"
#include "settings/storage.h"

namespace tether {

ManagedRegistrationWatch::ManagedRegistrationWatch(std::function<QString()> path,
                                                   std::function<qint64()> launchedPid,
                                                   QObject *parent)
    : QObject(parent)
    , path_(std::move(path))
    , launchedPid_(std::move(launchedPid)) {
    connect(&timer_, &QTimer::timeout, this, &ManagedRegistrationWatch::look);
}

void ManagedRegistrationWatch::follow(int everyMs) {
    if (everyMs == 0) {
        timer_.stop();
        watch_.forget();
        return;
    }
    if (!timer_.isActive() || timer_.interval() != everyMs) timer_.start(everyMs);
}

void ManagedRegistrationWatch::look() {
    if (!timer_.isActive()) return; // not watched (any more)
    QByteArray content;             // a FIFO in its place must not block: read as storage reads
    storage::readSmallFile(path_(), kManagedRegistrationMaxBytes, &content, nullptr);
    const std::string stamp = content.toStdString();
    if (!watch_.needsJudging(stamp)) return; // unchanged and judged: nothing to do
    const ManagedRegistrationRead read = parseManagedRegistration(content);
    if (read.status != ManagedRegistrationRead::Status::Ok) {
        watch_.judged(stamp, policy::ManagedFacts::Verdict::Invalid);
        return;
    }
    const policy::ManagedFacts facts = judgeManagedRegistration(read, launchedPid_());
    watch_.judged(stamp, facts.verdict);
    emit changed(facts);
}

} // namespace tether
