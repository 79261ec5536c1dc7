#include "service/http_client.h"

#include <QElapsedTimer>
#include <QTimer>
#include <memory>

namespace tether {

QByteArray basicAuth(const QString &user, const QString &password) {
    return "Basic " + (user + QLatin1Char(':') + password).toUtf8().toBase64();
}

QPointer<HttpExchange> sendHttp(const HttpCall &call, QObject *context,
                                std::function<void(const HttpResult &)> done) {
    auto *exchange =
        new HttpExchange({call.method, call.url, call.authorization, "application/json"}, context);
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    struct State {
        HttpResult result;
        bool finished = false;
    };
    auto state = std::make_shared<State>();
    auto finish = [=](HttpResult r) {
        if (state->finished) return;
        state->finished = true;
        r.latencyMs = timer->elapsed();
        exchange->cancel(); // nothing more is heard from it
        exchange->deleteLater();
        done(r);
    };
    const auto tooLarge = [=](const QString &why) {
        HttpResult r;
        r.status = state->result.status;
        r.error = why;
        r.tooLarge = true;
        finish(r);
    };

    auto *deadline = new QTimer(exchange);
    deadline->setSingleShot(true);
    QObject::connect(deadline, &QTimer::timeout, exchange, [=] {
        HttpResult r;
        r.error = QStringLiteral("no answer within %1 ms").arg(call.timeoutMs);
        finish(r);
    });
    deadline->start(call.timeoutMs);
    // An answer that declares a body over the cap is refused as soon as its head arrives.
    QObject::connect(exchange, &HttpExchange::head, exchange, [=](int status, qint64 length) {
        state->result.status = status;
        if (length > call.maxBodyBytes)
            tooLarge(QStringLiteral("response body of %1 bytes is larger than %2 bytes")
                         .arg(length)
                         .arg(call.maxBodyBytes));
    });
    QObject::connect(exchange, &HttpExchange::body, exchange, [=](const QByteArray &bytes) {
        state->result.body += bytes;
        if (state->result.body.size() > call.maxBodyBytes)
            tooLarge(QStringLiteral("response body larger than %1 bytes").arg(call.maxBodyBytes));
    });
    QObject::connect(exchange, &HttpExchange::ended, exchange,
                     [=](bool complete, const QString &error, bool refused) {
                         HttpResult r = state->result;
                         // HTTP errors (401, 500) are answers: the caller judges them.
                         r.transportOk = complete;
                         if (!complete) {
                             r.body.clear();
                             r.error = error;
                             r.refused = refused;
                         }
                         finish(r);
                     });
    exchange->start();
    return exchange;
}

} // namespace tether
