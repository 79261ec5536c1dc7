// The demo service's HTTP/1.1 listener: one request per connection, answered synchronously on
// the main thread (so a blocked event loop blocks every endpoint, as in the real service).
#pragma once

#include "demo/common/http_request.h"

#include <QHostAddress>
#include <QObject>

class QTcpServer;
class QTcpSocket;

namespace tether::demo {

class ServiceProtocol;

class HttpServer : public QObject {
    Q_OBJECT
public:
    explicit HttpServer(ServiceProtocol &protocol, QObject *parent = nullptr);

    enum class ListenResult { Ok, AddressInUse, OtherError };
    ListenResult listen(const QHostAddress &address, quint16 port, QString *error);

    static constexpr int kIdleTimeoutMs = 30000; // a silent client is dropped after this

private:
    void accept();
    void serve(QTcpSocket *socket);

    ServiceProtocol &protocol_;
    QTcpServer *server_;
    HttpLimits limits_;
};

} // namespace tether::demo
