// The opencode 1.x HTTP API subset a supervisor uses, as the demo service answers it:
// GET /global/health, GET /mcp, POST /mcp/{name}/connect|disconnect, GET /config,
// GET /global/event (SSE), GET /session/status?directory=D, GET /session/{id}/message; and,
// for tests only,
// POST /demo/tool-call?tool=NAME&seconds=S[&directory=D], which starts a long "tool call".
#pragma once

#include "demo/activity.h"
#include "demo/common/event_stream.h"
#include "demo/common/mcp_fleet.h"
#include "demo/service_options.h"
#include "demo/common/service_protocol.h"

#include <QByteArray>
#include <QString>

namespace tether::demo {

struct HealthAnswer {
    QString version;
    int status = 200;
    HealthBody body = HealthBody::Json;
};

// The /global/health response, fault switches included (pure). With --health-status the body
// still says healthy: a supervisor must judge by the status code too.
HttpResponse healthResponse(const HealthAnswer &answer);

// 401 unless the request carries opencode's Basic credentials; null password = no auth (pure).
bool opencodeAuthorized(const HttpRequest &request, const QByteArray &password);
HttpResponse unauthorizedResponse();

class Opencode1Api : public ServiceProtocol {
public:
    // `password`: OPENCODE_SERVER_PASSWORD, or empty for an unsecured server (as opencode).
    Opencode1Api(HealthAnswer health, QByteArray password, McpFleet &fleet, EventStream &events,
                 DemoActivity &activity);
    HttpResponse handle(const HttpRequest &request) override;
    bool adoptStream(const HttpRequest &request, QTcpSocket *socket) override;

private:
    HttpResponse mcpStatus() const;
    HttpResponse config() const;
    HttpResponse sessionStatus(const HttpRequest &request) const;
    HttpResponse startToolCall(const HttpRequest &request);
    HttpResponse sessionMessages(const QString &sessionId) const;

    HealthAnswer health_;
    QByteArray password_;
    McpFleet &fleet_;
    EventStream &events_;
    DemoActivity &activity_;
};

// The `directory` query parameter, or the service's working directory as opencode defaults.
QString requestDirectory(const HttpRequest &request);

} // namespace tether::demo
