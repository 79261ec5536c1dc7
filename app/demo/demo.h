// The bundled demo service (opencode 1.x subset, fault switches; --protocol v2: the opencode
// 2.x stand-in) and its MCP-like children.
#pragma once

namespace tether::demo {

// argv[0] is the verb ("demo-service" / "demo-mcp"); the options follow.
int runDemoService(int argc, char **argv);
int runDemoMcp(int argc, char **argv);

} // namespace tether::demo
