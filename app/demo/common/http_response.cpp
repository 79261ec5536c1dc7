#include "demo/common/http_response.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace tether::demo {

HttpResponse HttpResponse::json(int status, const QJsonValue &value) {
    QByteArray body;
    if (value.isObject())
        body = QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    else if (value.isArray())
        body = QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    else // scalars (opencode answers `true` to connect/disconnect): wrap, then unwrap
        body = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    return {status, {{"Content-Type", "application/json"}}, body};
}

HttpResponse HttpResponse::text(int status, const QByteArray &body) {
    return {status, {{"Content-Type", "text/plain; charset=utf-8"}}, body};
}

QByteArray reasonPhrase(int status) {
    switch (status) {
    case 200:
        return "OK";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Status";
    }
}

QByteArray serializeHttpResponse(const HttpResponse &r) {
    QByteArray out;
    out.reserve(r.body.size() + 256);
    out += "HTTP/1.1 " + QByteArray::number(r.status) + ' ' + reasonPhrase(r.status) + "\r\n";
    for (const auto &h : r.headers)
        out += h.first + ": " + h.second + "\r\n";
    out += "Content-Length: " + QByteArray::number(r.body.size()) + "\r\n";
    out += "Connection: close\r\n\r\n";
    out += r.body;
    return out;
}

} // namespace tether::demo
