// One HTTP/1.1 request to the service over a plain QTcpSocket of its own, its answer taken as it
// arrives: at most 64 KiB a turn of the event loop (the socket's read buffer; what Tether has not
// read waits in the kernel, and the service waits with it). Not Qt's HTTP stack: there a reply's
// read buffer bound did not hold for a request with upload data, and a reply aborted while that
// bound held kept its pooled connection for good (six of them and the manager answered nothing
// more). One connection per request, closed after it (loopback: cheap), so a hostile answer
// costs one socket and is gone with it. The framing is HttpStreamReader's.
#pragma once

#include "service/http_stream_reader.h"

#include <QByteArray>
#include <QObject>
#include <QUrl>

class QTcpSocket;

namespace tether {

class HttpExchange : public QObject {
    Q_OBJECT
public:
    struct Request {
        QByteArray method = "GET";
        QUrl url;
        QByteArray authorization; // the whole header value; empty: none
        QByteArray accept = "application/json";
    };
    explicit HttpExchange(Request request, QObject *parent = nullptr);
    ~HttpExchange() override; // closes the connection; no signal after it

    void start();
    // Ends it now, quietly: the connection closed, no signal after it (a caller that has heard
    // enough, e.g. a body past its cap).
    void cancel();

signals:
    // The status line and headers; contentLength -1 when the answer does not say.
    void head(int status, qint64 contentLength);
    // Body bytes as they arrive (decoded from chunks).
    void body(const QByteArray &bytes);
    // The end: complete when the whole answer came; else error says why, and refused is a
    // connection refused (nothing listens there). Once.
    void ended(bool complete, const QString &error, bool refused);

private:
    void onReadyRead();
    void finish(bool complete, const QString &error, bool refused = false);

    Request request_;
    QTcpSocket *socket_ = nullptr;
    HttpStreamReader reader_;
    bool headSeen_ = false;
    bool ended_ = false;
};

} // namespace tether
