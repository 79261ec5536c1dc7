// The per-user control socket: the endpoint of the CLI verbs, behind the single-instance lock
// (control/instance_lock.h). Every client is bounded: its request lines (64 KiB), the answers
// queued for it (1 MiB: a client that does not read them is dropped), the answers being worked
// out for it, how many clients at once (64); and one request is answered per turn of the event
// loop, so no client holds up another, the probes or a hang-up.
#pragma once

#include "control/control_protocol.h"
#include "control/instance_lock.h"

#include <QHash>
#include <QLocalServer>
#include <QObject>
#include <functional>

class QLocalSocket;

namespace tether::control {

class ControlServer : public QObject {
    Q_OBJECT
public:
    // Handles one parsed request and calls reply() once with the reply line (okReply /
    // errorReply), now or later (a cleanup answers when its sweep is done).
    using Reply = std::function<void(const QByteArray &)>;
    using Handler = std::function<void(const Request &, Reply)>;

    explicit ControlServer(Handler handler, QObject *parent = nullptr);

    enum class Listen { Ok, AnotherInstance, Error };
    // Takes the single-instance lock, then the endpoint; AnotherInstance when a Tether holds the
    // lock, whether or not it answers now.
    Listen listen(QString *error);
    QString name() const { return server_.fullServerName(); }

    // Listening again if Qt closed the endpoint (QLocalServer closes it for good when accept()
    // fails, e.g. out of descriptors). Returns what was done, for the log; empty when nothing.
    QString keepListening();

signals:
    void clientDropped(const QString &why);

private:
    void onConnection();
    void serve(QLocalSocket *socket); // answers at most one request, then yields
    void drop(QLocalSocket *socket, const QString &why);

    InstanceLock lock_; // released last, once the endpoint is closed
    Handler handler_;
    QHash<QLocalSocket *, int> pending_; // per served client: answers being worked out
    int clients_ = 0;                    // connected, served or being refused
    QLocalServer server_;                // its sockets go first (they count in the two above)
};

} // namespace tether::control
