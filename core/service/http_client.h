// Small HTTP calls to the supervised service: own deadline with abort, capped body, no
// redirects, no proxy (credentials go to the loopback URL and nowhere else). No request body:
// nothing Tether asks needs one, and Qt 6.4 starts a request with upload data before the read
// buffer's bound can apply (an endless answer to it grew Tether by 300 MB/s).
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QUrl>
#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

namespace tether {

struct HttpResult {
    bool transportOk = false; // a complete HTTP response arrived in time and under the cap
    int status = 0;           // HTTP status, 0 when none
    QByteArray body;
    qint64 latencyMs = 0;
    QString error;        // why transportOk is false, or empty
    bool refused = false; // connection refused: nothing listens at that address
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

// A manager set up for loopback calls: no proxy, no cookie jar, no cache.
QNetworkAccessManager *newLoopbackManager(QObject *parent);

// Calls done(result) exactly once, on the context's thread, unless context dies first. Qt
// holds at most 64 KiB of the answer at a time (its read buffer; it reads the socket only as
// the body is taken), so an endless or huge answer costs no more than the cap, and ends at it.
// Returns the reply, for a caller that may abort it (done is then called with its error).
QNetworkReply *sendHttp(QNetworkAccessManager *nam, const HttpCall &call, QObject *context,
                        std::function<void(const HttpResult &)> done);

} // namespace tether
