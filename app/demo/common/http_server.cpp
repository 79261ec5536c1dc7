#include "demo/common/http_server.h"

#include "demo/common/http_response.h"
#include "demo/common/service_protocol.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace tether::demo {

namespace {
constexpr char kIdleTimerName[] = "tetherIdle";
}

HttpServer::HttpServer(ServiceProtocol &protocol, QObject *parent)
    : QObject(parent)
    , protocol_(protocol)
    , server_(new QTcpServer(this)) {
    connect(server_, &QTcpServer::newConnection, this, &HttpServer::accept);
}

HttpServer::ListenResult HttpServer::listen(const QHostAddress &address, quint16 port,
                                            QString *error) {
    if (server_->listen(address, port)) return ListenResult::Ok;
    if (error) *error = server_->errorString();
    return server_->serverError() == QAbstractSocket::AddressInUseError ? ListenResult::AddressInUse
                                                                        : ListenResult::OtherError;
}

void HttpServer::accept() {
    while (QTcpSocket *socket = server_->nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        auto *idle = new QTimer(socket);
        idle->setObjectName(QString::fromLatin1(kIdleTimerName));
        idle->setSingleShot(true);
        connect(idle, &QTimer::timeout, socket, &QTcpSocket::abort);
        idle->start(kIdleTimeoutMs);
        // A slow reader of a large body is not idle: every write progress restarts the clock.
        connect(socket, &QTcpSocket::bytesWritten, idle, [idle] { idle->start(); });
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { serve(socket); });
        if (socket->bytesAvailable() > 0) serve(socket);
    }
}

void HttpServer::serve(QTcpSocket *socket) {
    // The bytes received so far live on the socket itself until the request is complete.
    QByteArray buffer = socket->property("tetherBuffer").toByteArray() + socket->readAll();
    const HttpParseResult parsed = parseHttpRequest(buffer, limits_);
    if (parsed.status == HttpParseResult::Status::NeedMore) {
        socket->setProperty("tetherBuffer", buffer);
        return;
    }
    socket->setProperty("tetherBuffer", QVariant());
    disconnect(socket, &QTcpSocket::readyRead, this, nullptr); // one request per connection

    if (parsed.status == HttpParseResult::Status::Complete &&
        protocol_.adoptStream(parsed.request, socket)) {
        // An event stream is silent between heartbeats by design: no idle limit. A client
        // that vanishes is noticed by the stream's own bound on unsent bytes.
        delete socket->findChild<QTimer *>(QString::fromLatin1(kIdleTimerName),
                                           Qt::FindDirectChildrenOnly);
        return;
    }
    const HttpResponse response =
        parsed.status == HttpParseResult::Status::Complete
            ? protocol_.handle(parsed.request)
            : HttpResponse::text(parsed.errorStatus, reasonPhrase(parsed.errorStatus));
    socket->write(serializeHttpResponse(response));
    socket->disconnectFromHost(); // after the pending bytes are written
}

} // namespace tether::demo
