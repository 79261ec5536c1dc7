#include "demo/demo_mcp_specs.h"

namespace tether::demo {

QList<McpChildSpec> demoMcpChildSpecs(const QString &program, const DemoServiceOptions &o) {
    QList<McpChildSpec> specs;
    for (int i = 1; i <= o.mcpCount; ++i) {
        McpChildSpec spec;
        spec.name = QStringLiteral("demo-%1").arg(i);
        spec.command = {program, QStringLiteral("demo-mcp"), QStringLiteral("--name"), spec.name};
        const auto every = [i](int k) { return k > 0 && i % k == 0; };
        if (o.mcpStubborn || every(o.mcpStubbornEvery))
            spec.command << QStringLiteral("--stubborn");
        if (o.mcpSetsidIndex == i || every(o.mcpSetsidEvery))
            spec.command << QStringLiteral("--setsid");
        if (o.mcpLeakKibPerSecond > 0)
            spec.command << QStringLiteral("--leak-kib-per-s")
                         << QString::number(o.mcpLeakKibPerSecond);
        if (!o.mcpLeakWhileFile.isEmpty())
            spec.command << QStringLiteral("--leak-while-file") << o.mcpLeakWhileFile;
        if (!o.mcpTag.isEmpty()) spec.command << QStringLiteral("--tag") << o.mcpTag;
        specs << spec;
    }
    return specs;
}

} // namespace tether::demo
