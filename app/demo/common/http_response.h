// HTTP responses of the demo service as plain values, and their wire form (pure functions).
#pragma once

#include "demo/common/http_request.h"

#include <QByteArray>
#include <QJsonValue>

namespace tether::demo {

struct HttpResponse {
    int status = 200;
    HttpHeaders headers; // Content-Length and Connection are added by serializeHttpResponse
    QByteArray body;

    static HttpResponse json(int status, const QJsonValue &value);
    static HttpResponse text(int status, const QByteArray &body);
};

QByteArray reasonPhrase(int status);

// Status line, headers, Content-Length, "Connection: close" (one request per connection), body.
QByteArray serializeHttpResponse(const HttpResponse &response);

} // namespace tether::demo
