#include "service/terminal_handoff.h"

#include "service/http_client.h"
#include "service/managed_registration.h"
#include "service/pty_handoff.h"
#include "settings/storage.h"

#include <QDateTime>
#include <QFile>

namespace tether {

TerminalHandoff::TerminalHandoff(QObject *parent)
    : QObject(parent) {
}

void TerminalHandoff::prepare(policy::Terminals t, const QString &managedPath,
                              const std::string &managedId, const QString &authUser,
                              std::function<void()> done) {
    const QString sidecar = ptyHandoffSidecarPath(managedPath);
    const ManagedRegistrationRead reg = readManagedRegistration(managedPath);
    // Only the service service.json names is asked, and only with its own password.
    const bool named = reg.status == ManagedRegistrationRead::Status::Ok && !managedId.empty() &&
                       reg.registration.id.toStdString() == managedId;
    if (t == policy::Terminals::Clear || !named) {
        QFile::remove(sidecar);
        done();
        return;
    }
    const ManagedRegistration source = reg.registration;
    auto post = [this, source, authUser](const char *route,
                                         std::function<void(const HttpResult &)> then) {
        HttpCall call;
        call.method = "POST";
        call.url = source.url.resolved(QUrl(QString::fromLatin1(route)));
        call.authorization = basicAuth(authUser, source.password);
        call.timeoutMs = 2000; // the clients' requestTimeout
        sendHttp(call, this, std::move(then));
    };
    auto publish = [this, sidecar, source](const PtyHandoffAnswer &answer) {
        QString error;
        if (!storage::writePrivateFile(
                sidecar, ptyHandoffSidecar(source, answer, QDateTime::currentMSecsSinceEpoch()),
                &error))
            emit logLine(QStringLiteral("persistent terminals: %1").arg(error));
    };
    auto shutDown = [this, post, sidecar](std::function<void()> then) {
        post(kPtyShutdownRoute, [this, then](const HttpResult &r) {
            emit logLine(
                r.transportOk && (r.status == 204 || r.status == 200)
                    ? QStringLiteral("persistent terminals shut down by the service")
                    : QStringLiteral("persistent terminals: the shutdown request got %1")
                          .arg(r.transportOk ? QStringLiteral("HTTP %1").arg(r.status) : r.error));
            then();
        });
    };
    if (t == policy::Terminals::ShutDown) {
        QFile::remove(sidecar);
        shutDown(done);
        return;
    }
    post(kPtyHandoffRoute, [this, done, shutDown, publish](const HttpResult &r) {
        if (r.transportOk && r.status == 404) { // an older service: end them, hand over nothing
            shutDown([done, publish] {
                PtyHandoffAnswer none;
                none.ok = true;
                none.handoff = "null";
                publish(none);
                done();
            });
            return;
        }
        const PtyHandoffAnswer answer =
            r.transportOk && r.status == 200
                ? parsePtyHandoffAnswer(r.body, QDateTime::currentMSecsSinceEpoch())
                : PtyHandoffAnswer{};
        if (answer.ok) {
            publish(answer);
            emit logLine(answer.handoff == "null"
                             ? QStringLiteral("persistent terminals: none to hand over")
                             : QStringLiteral("persistent terminals handed over to the next "
                                              "service"));
        } else {
            emit logLine(QStringLiteral("persistent terminals could not be handed over (%1): "
                                        "they end with the service")
                             .arg(!r.transportOk           ? r.error
                                  : answer.error.isEmpty() ? QStringLiteral("HTTP %1").arg(r.status)
                                                           : answer.error));
        }
        done();
    });
}

void TerminalHandoff::complete(const QString &managedPath) {
    const QString sidecar = ptyHandoffSidecarPath(managedPath);
    QByteArray bytes;
    if (storage::readSmallFile(sidecar, 64 * 1024, &bytes, nullptr) != storage::ReadStatus::Ok)
        return;
    const ManagedRegistrationRead reg = readManagedRegistration(managedPath);
    if (reg.status == ManagedRegistrationRead::Status::Ok &&
        ptyHandoffDone(bytes, reg.registration))
        QFile::remove(sidecar);
}

} // namespace tether
