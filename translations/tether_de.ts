<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>SettingsDialog</name>
    <message>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service to &amp;run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What Tether starts and looks after. Automatic: opencode if it is installed, else Tether&apos;s demo service.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave empty to find opencode on this computer (or, for the demo, to use Tether itself).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Found automatically</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extra &amp;arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Separated by spaces; put quotes around one that contains spaces. For another program: its whole command line.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;ort</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The local port the service listens on, on this computer only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Startup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Servers &amp;found when Tether starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP servers an earlier service left running before Tether started.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the service stops unexpectedly, cannot be restarted or needs you.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the service &amp;when Tether quits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Otherwise it keeps running and Tether finds it again next time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Memory warning above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether tells you when one MCP server uses more memory than this.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Busy warning after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether tells you when one MCP server keeps a processor busy this long.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Servers left by a &amp;crashed service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do with MCP servers still running after the service crashed or was replaced.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Wait for a busy service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long the service may leave health checks unanswered before Tether replaces it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarts &amp;before giving up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After this many failed starts within the time below, Tether stops trying and tells you.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Counted within</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The time over which failed starts add up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;First restart after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The pause before the first restart; each further one waits twice as long.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Longest pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarts never wait longer than this.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget failures after &amp;running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Once the service has run this long without trouble, earlier failures no longer count.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Time to stop cleanly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long the service may take to stop before Tether ends it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart when a new &amp;version is installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Otherwise Tether shows that versions differ and you restart when it suits you.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health checks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check &amp;every</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How often Tether asks the service whether it is alive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Answer expected within</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A check not answered in this time is missed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Time to start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long a starting service may take to answer its first check.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Health check address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another program only: the path Tether asks to see that it is alive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop &amp;everything the service started with it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service and its MCP servers run as one group, so none is left behind when it stops.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time for &amp;left-over servers to exit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long a left-over MCP server may take to exit before Tether ends it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>opencode 2 state &amp;folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where opencode 2.x writes service.json. Leave empty for its usual place.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usual place</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tray &amp;icon for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether picks the icons for your panel by itself; choose here if they are hard to see on it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>opencode 1.x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>opencode 2.x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether&apos;s demo service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A light panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A dark panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave them running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Tether</name>
    <message>
        <source>Click to see what to do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click to choose which to end.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click to see the MCP servers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool calls it was running were cut short.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It ended with %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether is starting it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 stopped unexpectedly and was restarted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It is running again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It answers again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click to use port %1 instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It runs %1; %2 is installed. Restart it when it suits you.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The process it named was gone or another program; nothing was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n MCP process(es) from an earlier service still running.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2.</source>
        <comment>an MCP server, then why it is flagged</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart it from the menu when it suits you.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work in progress was cut short.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent may need to be asked again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit and stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No system tray is available, so Tether shows this window instead. Closing it keeps Tether running; starting Tether again reopens it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use a free port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnostics copied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste them into your bug report. Passwords and tokens are removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open in browser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Try again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open status &amp;window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setti&amp;ngs…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trou&amp;bleshoot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;logs folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy diagnostics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Tether</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit Tether</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>an action, then the MCP server it acts on</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (running for %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an unnamed tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 now? The service is running %n tool call(s), which will be interrupted:</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source> · replaced in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · replaced unless it answers now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · again in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>port %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>up %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version %1 is installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Restart to update to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use a &amp;free port (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <comment>an MCP server, then its state</comment>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>⚠ &amp;MCP servers (%n need(s) attention)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;MCP servers (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n MCP server(s) over a limit</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&amp;Clean up %n orphaned process(es)…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Start at &amp;login (off in System Settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start at &amp;login (disabled in Windows Settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start at &amp;login</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interrupt running tool calls?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 anyway</source>
        <comment>a button: stop, restart or quit even so</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keep it running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Healthy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not responding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <comment>seconds</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <comment>minutes</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <comment>hours and minutes</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <comment>days and hours</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service is not running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the service&apos;s first answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It answers its health checks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service does not answer. Tether waits for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service does not answer. Tether waits; it will be replaced in %1 if it stays silent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service does not answer. It will be replaced unless it answers now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It did not answer in time: Tether is replacing it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It stopped; starting again in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It stopped; starting again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the service to exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether did not start it on a port in use. Use a free port, or stop the other program, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether did not retry: it would fail the same way until its arguments change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether did not retry: choose a program that can run, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether stopped restarting it. Fix the cause, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether stopped trying to start it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version %1 is installed: restart to update.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service is stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the service.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service stopped answering; Tether waits for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service did not answer in time; Tether replaces it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service stopped; Tether starts it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping the service.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service failed; Tether stopped trying.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service exited when asked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service did not exit in time and was ended.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service was already gone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service started on port %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the service to exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Found %n MCP process(es) left running by an earlier service.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ended %n MCP process(es) the service left behind.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Tether %1 started: it looks after its demo service on port %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether %1 started: it looks after your service on port %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether %1 started: it looks after opencode on port %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port %1 chosen: the service starts there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnected the MCP server %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The computer woke up; Tether waits for a fresh answer before judging the service.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Following what the service does.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether no longer sees what the service does.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New settings applied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether quit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health, last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health, last %1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1”</source>
        <comment>the service&apos;s own words, quoted</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <comment>the last two of a list</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <comment>tools named, then the rest counted</comment>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Running a tool: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Running %n tools: %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Working on %n request(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 was cut short at %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n tool calls were cut short at %2: %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) were cut short at %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>killed or crashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it ended by itself, without an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exit code %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port %1 is used by another program.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port %1 is used by %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port %1 is used by a program Tether cannot see (another user&apos;s?).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Windows keeps port %1 for itself (ports %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port %1 may not be used on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 refused its arguments (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 refused its arguments: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether cannot start the program of %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether cannot start the program of %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>It failed %n time(s) within %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Last it said: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 stopped (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 stopped: %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether could not keep %1 running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit &amp;arguments…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose &amp;program…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer from the service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for the service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory over its limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>busy too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turned off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs sign-in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs registration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>state unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a state, then the service&apos;s words</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>uses %1, over its %2 limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has kept a processor busy for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; </source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n orphaned MCP process(es)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>ended by SIGHUP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by SIGINT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by SIGQUIT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by SIGILL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by SIGABRT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by SIGBUS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by SIGFPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>killed (SIGKILL; out of memory?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by SIGSEGV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by SIGPIPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by SIGTERM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>access violation (the program crashed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a DLL it needs was not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an entry point was not found in a DLL (wrong DLL version)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended by Ctrl+C or Ctrl+Break</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stack overflow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stack buffer overrun (the program aborted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the program could not initialise (DLL initialisation failed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>general error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>configuration error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the program cannot be executed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>command not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 stopped unexpectedly; restarting it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is running again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keeps failing; Tether stopped restarting it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot start: another program uses its port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot start with these settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs another version than the one installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether removed an outdated service record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP servers were left running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An MCP server uses a lot of resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running tool calls were cut short</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a whole number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be between %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be one of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a single value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a quote (&quot;) is not closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the wait must be longer than the time a health check may take, or one slow answer would use it all up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the wait must not be shorter than the time between health checks, or one missed check would use it all up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the longest wait cannot be shorter than the first one</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>tether</name>
    <message>
        <source>Starts at login (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not start at login: %1 starts another copy of Tether (%2); turn it on to start this one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not start at login</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 starts another program (%2); Tether leaves it alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start at login unknown: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turned off in System Settings &gt; General &gt; Login Items (Allow in the Background): Tether does not start at login until it is allowed there (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disabled in Windows Settings (Startup apps or Task Manager): Tether does not start at login. Turn it on here to start again (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>tether::ui::AboutDialog</name>
    <message>
        <source>About Tether</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether&apos;s icon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keeps a local AI agent service and its MCP servers running, without ending one that is only busy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether&apos;s website: news, help and the source code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether&apos;s website</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Licences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether&apos;s licence and the notice for Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether is free software under the MIT licence:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether uses the Qt toolkit, version %1, under the GNU Lesser General Public License version 3 (LGPLv3). You may replace the Qt libraries Tether uses with your own build of them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qt&apos;s licence and source code: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>tether::ui::FailurePanel</name>
    <message>
        <source>Why it failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service&apos;s last output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Try again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;log</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>tether::ui::HealthTimeline</name>
    <message>
        <source>Health timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No checks yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <comment>a state, then how long</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n check(s) went unanswered.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Slowest answer: %1 ms.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 answer time  %2 no answer  %3 state (its colour)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No checks yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>tether::ui::OrphanDialog</name>
    <message>
        <source>(unknown program)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n process(es) ended.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n could not be ended: %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>MCP servers left running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Process ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clean up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Ignore</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Ending %n process(es)…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>looks like one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>left by a crashed service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No MCP servers are left running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These MCP servers were started by a service that is no longer running. Checked ones are ended when you click Clean up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These processes look like MCP servers left by an earlier service, but Tether did not start them. Check only the ones you recognise; they are ended when you click Clean up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These MCP servers were started by a service that is no longer running. Checked ones are ended when you click Clean up. Those that only look like one are not checked: check them only if you recognise them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>tether::ui::SettingsDialog</name>
    <message>
        <source>Tether settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Restart it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether starts, quietly in the tray, when you log in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fine tuning: the defaults suit most people and services.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In tether.ini: [%1] %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>:</source>
        <comment>after a setting&apos;s name</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show advanced settin&amp;gs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovery, health checks and other tuning most people never change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1”</source>
        <comment>a setting&apos;s name, quoted</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2): %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> and </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These changes restart the service (it stops now and starts again with the new settings). Continue?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>tether::ui::StatusWindow</name>
    <message>
        <source>Tether</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tether status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What happens next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarts:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Process ID:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Process ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open in browser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Process IDs, and the events as the log has them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details of the service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;MCP servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · started outside Tether</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (installed: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;MCP servers (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service has no MCP servers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service is not running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>an action, then the MCP server it acts on</comment>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
