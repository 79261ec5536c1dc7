// The control socket's protocol: one JSON object per line each way. Pure parsing, so the
// socket code stays small and the parser can be fuzzed.
#pragma once

#include "control/verbs.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace tether::control {

inline constexpr qint64 kMaxLineBytes = 64 * 1024;

// The verbs a client may send are the rows of control/verbs.h; on the wire each is its name.
struct Request {
    Verb verb = Verb::Status;
    QJsonObject args; // e.g. {"name": "..."} for mcp-*, {"dryRun": true} for cleanup
};

struct ParsedRequest {
    bool ok = false;
    Request request;
    QString error;
};

ParsedRequest parseRequest(const QByteArray &line);
QByteArray serializeRequest(const Request &r);

QByteArray okReply(const QJsonObject &payload = {});
QByteArray errorReply(const QString &message);
// An error a script tells apart by `refused` (e.g. "busy": tool calls run, --force needed).
QByteArray refusedReply(const QString &message, const QString &refused);

// The per-user endpoint: a socket file in the private data dir (Unix) or a pipe name
// derived from it (Windows), so each user and each data dir has its own.
QString serverName();

} // namespace tether::control
