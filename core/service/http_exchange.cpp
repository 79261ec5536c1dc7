#include "service/http_exchange.h"

#include <QTcpSocket>

namespace tether {

namespace {
constexpr qint64 kReadBytes = 64 * 1024;
}

HttpExchange::HttpExchange(Request request, QObject *parent)
    : QObject(parent)
    , request_(std::move(request)) {
}

HttpExchange::~HttpExchange() {
    if (!socket_) return;
    socket_->disconnect(this);
    socket_->abort();
}

void HttpExchange::start() {
    socket_ = new QTcpSocket(this);
    socket_->setReadBufferSize(kReadBytes);
    connect(socket_, &QTcpSocket::connected, this, [this] {
        const QUrl &u = request_.url;
        QByteArray target = u.path(QUrl::FullyEncoded).toUtf8();
        if (target.isEmpty()) target = "/";
        if (u.hasQuery()) target += '?' + u.query(QUrl::FullyEncoded).toUtf8();
        const QString host =
            u.host().contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(u.host()) : u.host();
        QByteArray out = request_.method + ' ' + target + " HTTP/1.1\r\nHost: " + host.toUtf8() +
                         ':' + QByteArray::number(u.port(80)) + "\r\nAccept: " + request_.accept +
                         "\r\nConnection: close\r\n";
        if (!request_.authorization.isEmpty())
            out += "Authorization: " + request_.authorization + "\r\n";
        if (request_.method != "GET" && request_.method != "HEAD") out += "Content-Length: 0\r\n";
        socket_->write(out + "\r\n");
    });
    connect(socket_, &QTcpSocket::readyRead, this, &HttpExchange::onReadyRead);
    connect(socket_, &QTcpSocket::disconnected, this, [this] {
        onReadyRead(); // what came with the close
        if (ended_) return;
        if (reader_.closed() == HttpStreamReader::State::Done)
            finish(true, {});
        else
            finish(false, headSeen_ ? reader_.error()
                                    : QStringLiteral("the connection closed without an answer"));
    });
    connect(socket_, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError e) {
        if (e == QAbstractSocket::RemoteHostClosedError) return; // disconnected() says the rest
        finish(false, socket_->errorString(), e == QAbstractSocket::ConnectionRefusedError);
    });
    socket_->connectToHost(request_.url.host(), quint16(request_.url.port(80)));
}

void HttpExchange::onReadyRead() {
    if (ended_ || !socket_) return;
    QByteArray bytes;
    const HttpStreamReader::State state = reader_.feed(socket_->readAll(), &bytes);
    if (!headSeen_ && reader_.status() != 0) {
        headSeen_ = true;
        emit head(reader_.status(), reader_.contentLength());
        if (ended_) return; // a receiver may cancel there (an answer declared too large)
    }
    if (!bytes.isEmpty()) emit body(bytes);
    if (ended_) return;
    if (state == HttpStreamReader::State::Done)
        finish(true, {});
    else if (state == HttpStreamReader::State::Failed)
        finish(false, reader_.error());
}

void HttpExchange::cancel() {
    ended_ = true;
    if (!socket_) return;
    socket_->disconnect(this);
    socket_->abort();
}

void HttpExchange::finish(bool complete, const QString &error, bool refused) {
    if (ended_) return;
    ended_ = true;
    if (socket_) {
        socket_->disconnect(this);
        socket_->abort();
    }
    emit ended(complete, error, refused);
}

} // namespace tether
