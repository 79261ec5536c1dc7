// The opencode 1.x HTTP API subset a supervisor uses, as the demo service answers it:
// GET /global/health, GET /mcp, POST /mcp/{name}/connect|disconnect, GET /config.
#pragma once

#include "demo/mcp_fleet.h"
#include "demo/service_options.h"
#include "demo/service_protocol.h"

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
    Opencode1Api(HealthAnswer health, QByteArray password, McpFleet &fleet);
    HttpResponse handle(const HttpRequest &request) override;

private:
    HttpResponse mcpStatus() const;
    HttpResponse config() const;

    HealthAnswer health_;
    QByteArray password_;
    McpFleet &fleet_;
};

} // namespace tether::demo
