#include "service/http_client.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>
#include <memory>

namespace tether {

namespace {
constexpr qint64 kReadBufferBytes = 64 * 1024;
}

QByteArray basicAuth(const QString &user, const QString &password) {
    return "Basic " + (user + QLatin1Char(':') + password).toUtf8().toBase64();
}

QNetworkAccessManager *newLoopbackManager(QObject *parent) {
    auto *nam = new QNetworkAccessManager(parent);
    nam->setProxy(QNetworkProxy::NoProxy);
    nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    nam->setCookieJar(nullptr);
    return nam;
}

QNetworkReply *sendHttp(QNetworkAccessManager *nam, const HttpCall &call, QObject *context,
                        std::function<void(const HttpResult &)> done) {
    QNetworkRequest request(call.url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    if (!call.authorization.isEmpty()) request.setRawHeader("Authorization", call.authorization);
    if (call.method != "GET") request.setHeader(QNetworkRequest::ContentLengthHeader, 0);

    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    // Without upload data Qt starts the request on its next turn, after the bound below.
    QNetworkReply *reply =
        nam->sendCustomRequest(request, call.method, static_cast<QIODevice *>(nullptr));
    reply->setReadBufferSize(kReadBufferBytes);

    struct State {
        HttpResult result;
        bool finished = false;
    };
    auto state = std::make_shared<State>();
    QPointer<QObject> guard(context);
    auto finish = [=](HttpResult r) {
        if (state->finished) return;
        state->finished = true;
        r.latencyMs = timer->elapsed();
        reply->disconnect(); // no later signal may call back
        reply->abort();
        reply->deleteLater();
        if (guard) done(r);
    };

    auto *deadline = new QTimer(reply);
    deadline->setSingleShot(true);
    QObject::connect(deadline, &QTimer::timeout, reply, [=] {
        HttpResult r;
        r.error = QStringLiteral("no answer within %1 ms").arg(call.timeoutMs);
        finish(r);
    });
    deadline->start(call.timeoutMs);

    // An answer that declares a body over the cap is refused as soon as its headers arrive.
    QObject::connect(reply, &QNetworkReply::metaDataChanged, reply, [=] {
        const qint64 declared = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong();
        if (declared > call.maxBodyBytes) {
            HttpResult r;
            r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            r.error = QStringLiteral("response body of %1 bytes is larger than %2 bytes")
                          .arg(declared)
                          .arg(call.maxBodyBytes);
            r.tooLarge = true;
            finish(r);
        }
    });
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [=] {
        state->result.body += reply->readAll();
        if (state->result.body.size() > call.maxBodyBytes) {
            HttpResult r;
            r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            r.error = QStringLiteral("response body larger than %1 bytes").arg(call.maxBodyBytes);
            r.tooLarge = true;
            finish(r);
        }
    });
    QObject::connect(reply, &QNetworkReply::finished, reply, [=] {
        HttpResult r = state->result;
        r.body += reply->readAll();
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (r.body.size() > call.maxBodyBytes) {
            r.body.clear();
            r.error = QStringLiteral("response body larger than %1 bytes").arg(call.maxBodyBytes);
            r.tooLarge = true;
        } else if (r.status == 0) {
            r.error = reply->errorString();
            r.refused = reply->error() == QNetworkReply::ConnectionRefusedError;
        } else {
            r.transportOk = true; // HTTP errors (401, 500) are answers: the caller judges them
        }
        finish(r);
    });
    return reply;
}

} // namespace tether
