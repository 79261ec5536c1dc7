// The 1.x demo service's MCP children, as its --mcp options describe them (pure).
#pragma once

#include "demo/common/mcp_fleet.h"
#include "demo/service_options.h"

namespace tether::demo {

// demo-1..demo-N running `program demo-mcp --name demo-i [--stubborn] [--setsid]
// [--leak-kib-per-s K]` (pure: the same options always give the same argv).
QList<McpChildSpec> demoMcpChildSpecs(const QString &program, const DemoServiceOptions &options);

} // namespace tether::demo
