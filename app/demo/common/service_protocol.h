// What a protocol of a demo service does: answer one parsed HTTP request (the opencode 1.x
// demo, the opencode 2.x stand-in), on the shared server, event stream and MCP fleet.
#pragma once

#include "demo/common/http_request.h"
#include "demo/common/http_response.h"

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
