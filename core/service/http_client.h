// Small HTTP calls to the supervised service: own deadline, capped body taken as it arrives, one
// connection of its own each (service/http_exchange.h: not Qt's HTTP stack), no redirects, no
// proxy (credentials go to the loopback URL and nowhere else), no request body (nothing Tether
// asks needs one).
#pragma once

#include "service/http_exchange.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>
#include <functional>

namespace tether {

struct HttpResult {
    bool transportOk = false; // a complete HTTP response arrived in time and under the cap
    int status = 0;           // HTTP status, 0 when none
    QByteArray body;
    qint64 latencyMs = 0;
    QString error;         // why transportOk is false, or empty
    bool refused = false;  // connection refused: nothing listens at that address
    bool tooLarge = false; // the body passed maxBodyBytes (declared or as it arrived)
};

struct HttpCall {
    QByteArray method = "GET";
    QUrl url;
    QByteArray authorization; // full header value, e.g. "Basic ..."; empty: none
    int timeoutMs = 2000;
    qint64 maxBodyBytes = 64 * 1024;
};

QByteArray basicAuth(const QString &user, const QString &password);

// Calls done(result) exactly once, on the context's thread, unless the context dies first (the
// call goes with it) or the returned exchange is cancelled. An endless or huge answer ends at
// the cap, or at the deadline, and costs no more than the cap meanwhile.
QPointer<HttpExchange> sendHttp(const HttpCall &call, QObject *context,
                                std::function<void(const HttpResult &)> done);

} // namespace tether
