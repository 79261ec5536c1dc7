<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>Tether</name>
    <message numerus="yes">
        <source>%n MCP process(es) from an earlier service still running.</source>
        <translation>
            <numerusform>%n MCP process from an earlier service is still running.</numerusform>
            <numerusform>%n MCP processes from an earlier service are still running.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 now? The service is running %n tool call(s), which will be interrupted:</source>
        <translation>
            <numerusform>%1 now? The service is running %n tool call, which will be interrupted:</numerusform>
            <numerusform>%1 now? The service is running %n tool calls, which will be interrupted:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>⚠ &amp;MCP servers (%n need(s) attention)</source>
        <translation>
            <numerusform>⚠ &amp;MCP servers (%n needs attention)</numerusform>
            <numerusform>⚠ &amp;MCP servers (%n need attention)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n MCP server(s) over a limit</source>
        <translation>
            <numerusform>%n MCP server over a limit</numerusform>
            <numerusform>%n MCP servers over a limit</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&amp;Clean up %n orphaned process(es)…</source>
        <translation>
            <numerusform>&amp;Clean up %n orphaned process…</numerusform>
            <numerusform>&amp;Clean up %n orphaned processes…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Found %n MCP process(es) left running by an earlier service.</source>
        <translation>
            <numerusform>Found %n MCP process left running by an earlier service.</numerusform>
            <numerusform>Found %n MCP processes left running by an earlier service.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ended %n MCP process(es) the service left behind.</source>
        <translation>
            <numerusform>Ended %n MCP process the service left behind.</numerusform>
            <numerusform>Ended %n MCP processes the service left behind.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <comment>tools named, then the rest counted</comment>
        <translation>
            <numerusform>%1 and %n more</numerusform>
            <numerusform>%1 and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Running %n tools: %1</source>
        <translation>
            <numerusform>Running %n tool: %1</numerusform>
            <numerusform>Running %n tools: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Working on %n request(s)</source>
        <translation>
            <numerusform>Working on %n request</numerusform>
            <numerusform>Working on %n requests</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool calls were cut short at %2: %1.</source>
        <translation>
            <numerusform>%n tool call was cut short at %2: %1.</numerusform>
            <numerusform>%n tool calls were cut short at %2: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) were cut short at %1.</source>
        <translation>
            <numerusform>%n request was cut short at %1.</numerusform>
            <numerusform>%n requests were cut short at %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>It failed %n time(s) within %1.</source>
        <translation>
            <numerusform>It failed %n time within %1.</numerusform>
            <numerusform>It failed %n times within %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n orphaned MCP process(es)</source>
        <translation>
            <numerusform>%n orphaned MCP process</numerusform>
            <numerusform>%n orphaned MCP processes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>You cleaned up %n orphaned MCP process(es).</source>
        <translation>
            <numerusform>You cleaned up %n orphaned MCP process.</numerusform>
            <numerusform>You cleaned up %n orphaned MCP processes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n could not be ended (Show details says why).</source>
        <translation>
            <numerusform>%n could not be ended (Show details says why).</numerusform>
            <numerusform>%n could not be ended (Show details says why).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tether::ui::HealthTimeline</name>
    <message numerus="yes">
        <source>%n check(s) went unanswered.</source>
        <translation>
            <numerusform>%n check went unanswered.</numerusform>
            <numerusform>%n checks went unanswered.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tether::ui::OrphanDialog</name>
    <message numerus="yes">
        <source>%n process(es) ended.</source>
        <translation>
            <numerusform>%n process ended.</numerusform>
            <numerusform>%n processes ended.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n could not be ended: %1.</source>
        <translation>
            <numerusform>%n could not be ended: %1.</numerusform>
            <numerusform>%n could not be ended: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ending %n process(es)…</source>
        <translation>
            <numerusform>Ending %n process…</numerusform>
            <numerusform>Ending %n processes…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tether::ui::StatusWindow</name>
    <message numerus="yes">
        <source>⚠ %n orphaned MCP process(es)</source>
        <translation>
            <numerusform>⚠ %n orphaned MCP process</numerusform>
            <numerusform>⚠ %n orphaned MCP processes</numerusform>
        </translation>
    </message>
</context>
</TS>
