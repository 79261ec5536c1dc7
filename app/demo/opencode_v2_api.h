// The opencode 2.x managed-service API subset a supervisor uses, as the demo service answers
// it with --protocol v2: GET /api/info, GET /api/health, GET /api/mcp,
// POST /api/mcp/{name}/connect|disconnect (204), GET /api/config (MCP commands; see the note
// in the .cpp). Basic auth opencode:<password from service.json> on every route.
#pragma once

#include "demo/mcp_fleet.h"
#include "demo/opencode1_api.h"
#include "demo/service_protocol.h"

#include <QByteArray>
#include <QString>

namespace tether::demo {

struct V2Identity {
    QString version;
    qint64 pid = 0;
    QString url;      // http://127.0.0.1:PORT
    QString stateDir; // reported in /api/info paths
};

class OpencodeV2Api : public ServiceProtocol {
public:
    OpencodeV2Api(V2Identity identity, HealthAnswer health, QByteArray password, McpFleet &fleet);
    HttpResponse handle(const HttpRequest &request) override;

private:
    HttpResponse info() const;
    HttpResponse mcpStatus() const;
    HttpResponse config() const;

    V2Identity identity_;
    HealthAnswer health_;
    QByteArray password_;
    McpFleet &fleet_;
};

// v2 MCP children each lead their own process group, as opencode 2.x starts them (pure).
QList<McpChildSpec> withOwnProcessGroups(QList<McpChildSpec> specs);

// `tether demo-service --protocol v2`: registers in <state dir>/service.json (temp file +
// rename, 0600), re-reads it every --registration-check-ms and shuts down cleanly (exit 0) when
// it no longer names this service, removes it on exit only while it still does.
int runDemoServiceV2(const DemoServiceOptions &options);

} // namespace tether::demo
