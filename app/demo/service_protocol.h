// What a protocol of the demo service does: answer one parsed HTTP request. The opencode 1.x
// protocol is the only one today; a 2.x "managed service" protocol (service.json, /api/*) can be
// another implementation chosen in demo_service.cpp, reusing the server, auth and MCP fleet.
#pragma once

#include "demo/http_request.h"
#include "demo/http_response.h"

class QTcpSocket;

namespace tether::demo {

class ServiceProtocol {
public:
    virtual ~ServiceProtocol() = default;
    virtual HttpResponse handle(const HttpRequest &request) = 0;
    // A streaming endpoint (an event stream) takes the connection over and returns true; the
    // server then leaves it open. False: answered by handle(), then closed.
    virtual bool adoptStream(const HttpRequest &, QTcpSocket *) { return false; }
};

} // namespace tether::demo
