// The HTTP face of the opencode 2.x managed service, as the stand-in answers it: the start-up
// gate over every route [R17], Basic auth [R23], and the routes a supervisor uses.
#pragma once

#include "demo/common/service_protocol.h"

#include <QByteArray>
#include <QString>

#include <functional>

namespace tether::demo {
class EventStream;
}

namespace tether::standin_v2 {

class McpServers;
class Sessions;

// The states of service-status.ts [R17] [R56].
enum class ServiceState { Starting, Ready, Failed, Stopping };

struct ServiceIdentity {
    QString id; // the registration id, also the instance id of a PTY handoff [R9]
    QString version;
    qint64 pid = 0;
    QString url;
    QString password;
    QString location; // the service's working directory: $HOME in --service mode [R9]
    QString tmp;      // Global.Path.tmp, reported in /api/info paths
    bool ptyHandoff = true;
};

class Api : public demo::ServiceProtocol {
public:
    // `say` prints one stdout line (the PTY routes announce what they did).
    Api(ServiceIdentity identity, McpServers &mcp, Sessions &sessions, demo::EventStream &events,
        std::function<void(const QString &)> say);

    void setState(ServiceState state) { state_ = state; }
    ServiceState state() const { return state_; }

    demo::HttpResponse handle(const demo::HttpRequest &request) override;
    bool adoptStream(const demo::HttpRequest &request, QTcpSocket *socket) override;

    // `opencode:<password>` as a Basic header's or an auth_token's base64 [R23].
    static bool authorized(const demo::HttpRequest &request, const QByteArray &password);

private:
    bool ready() const { return state_ == ServiceState::Ready; }
    demo::HttpResponse info(int status) const;
    demo::HttpResponse route(const demo::HttpRequest &request);
    demo::HttpResponse mcpList(const demo::HttpRequest &request) const;
    demo::HttpResponse toolCall(const demo::HttpRequest &request);

    ServiceIdentity identity_;
    McpServers &mcp_;
    Sessions &sessions_;
    demo::EventStream &events_;
    std::function<void(const QString &)> say_;
    ServiceState state_ = ServiceState::Starting;
};

} // namespace tether::standin_v2
