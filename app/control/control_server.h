// The per-user control socket: single-instance lock and the endpoint of the CLI verbs.
#pragma once

#include "control/control_protocol.h"

#include <QLocalServer>
#include <QObject>
#include <functional>

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
    // Takes the endpoint; AnotherInstance when a live Tether already answers on it.
    Listen listen(QString *error);
    QString name() const { return server_.fullServerName(); }

private:
    void onConnection();

    Handler handler_;
    QLocalServer server_;
};

} // namespace tether::control
