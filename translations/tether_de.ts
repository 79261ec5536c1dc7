<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QCommandLineParser</name>
    <message>
        <source>Usage: %1</source>
        <translation>Aufruf: %1</translation>
    </message>
    <message>
        <source>[options]</source>
        <translation>[Optionen]</translation>
    </message>
    <message>
        <source>Options:</source>
        <translation>Optionen:</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>Argumente:</translation>
    </message>
    <message>
        <source>Displays help on commandline options.</source>
        <translation>Zeigt Hilfe zu den Kommandozeilenoptionen an.</translation>
    </message>
    <message>
        <source>Displays help including Qt specific options.</source>
        <translation>Zeigt Hilfe einschließlich Qt-spezifischer Optionen an.</translation>
    </message>
    <message>
        <source>Displays version information.</source>
        <translation>Zeigt Versionsinformation an.</translation>
    </message>
    <message>
        <source>Unknown option &apos;%1&apos;.</source>
        <translation>Unbekannte Option „%1“.</translation>
    </message>
    <message>
        <source>Unknown options: %1.</source>
        <translation>Unbekannte Optionen: %1.</translation>
    </message>
    <message>
        <source>Missing value after &apos;%1&apos;.</source>
        <translation>Nach „%1“ fehlt ein Wert.</translation>
    </message>
    <message>
        <source>Unexpected value after &apos;%1&apos;.</source>
        <translation>Unerwarteter Wert nach „%1“.</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>General</source>
        <translation>Allgemein</translation>
    </message>
    <message>
        <source>Service to &amp;run</source>
        <translation>Zu startender &amp;Dienst</translation>
    </message>
    <message>
        <source>What Tether starts and looks after. Automatic: opencode if it is installed, else Tether&apos;s demo service.</source>
        <translation>Was Tether startet und betreut. Automatisch: opencode, wenn es installiert ist, sonst der Demo-Dienst von Tether.</translation>
    </message>
    <message>
        <source>&amp;Program</source>
        <translation>&amp;Programm</translation>
    </message>
    <message>
        <source>Leave empty to find opencode on this computer (or, for the demo, to use Tether itself).</source>
        <translation>Leer lassen, um opencode auf diesem Computer zu finden (oder für die Demo Tether selbst zu verwenden).</translation>
    </message>
    <message>
        <source>Found automatically</source>
        <translation>Wird automatisch gefunden</translation>
    </message>
    <message>
        <source>Extra &amp;arguments</source>
        <translation>Zusätzliche &amp;Argumente</translation>
    </message>
    <message>
        <source>Separated by spaces; put quotes around one that contains spaces. For another program: its whole command line.</source>
        <translation>Durch Leerzeichen getrennt; ein Argument mit Leerzeichen in Anführungszeichen setzen. Für ein anderes Programm: seine ganze Befehlszeile.</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>P&amp;ort</source>
        <translation>P&amp;ort</translation>
    </message>
    <message>
        <source>Startup</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Servers &amp;found when Tether starts</source>
        <translation>Beim Start &amp;gefundene Server</translation>
    </message>
    <message>
        <source>MCP servers an earlier service left running before Tether started.</source>
        <translation>MCP-Server, die ein früherer Dienst laufen ließ, bevor Tether startete.</translation>
    </message>
    <message>
        <source>Show &amp;notifications</source>
        <translation>&amp;Benachrichtigungen anzeigen</translation>
    </message>
    <message>
        <source>When the service stops unexpectedly, cannot be restarted or needs you.</source>
        <translation>Wenn der Dienst unerwartet endet, nicht neu gestartet werden kann oder Sie braucht.</translation>
    </message>
    <message>
        <source>Stop the service &amp;when Tether quits</source>
        <translation>Dienst anhalten, &amp;wenn Tether beendet wird</translation>
    </message>
    <message>
        <source>Otherwise it keeps running and Tether finds it again next time.</source>
        <translation>Sonst läuft er weiter, und Tether findet ihn beim nächsten Mal wieder.</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>&amp;Memory warning above</source>
        <translation>Speicher&amp;warnung ab</translation>
    </message>
    <message>
        <source>Tether tells you when one MCP server uses more memory than this.</source>
        <translation>Tether sagt Bescheid, wenn ein MCP-Server mehr Speicher belegt.</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>&amp;Busy warning after</source>
        <translation>&amp;Belastungswarnung nach</translation>
    </message>
    <message>
        <source>Tether tells you when one MCP server keeps a processor busy this long.</source>
        <translation>Tether sagt Bescheid, wenn ein MCP-Server einen Prozessor so lange auslastet.</translation>
    </message>
    <message>
        <source> min</source>
        <translation> Min.</translation>
    </message>
    <message>
        <source>Servers left by a &amp;crashed service</source>
        <translation>Von einem &amp;abgestürzten Dienst hinterlassene Server</translation>
    </message>
    <message>
        <source>What to do with MCP servers still running after the service crashed or was replaced.</source>
        <translation>Was mit MCP-Servern geschieht, die noch laufen, nachdem der Dienst abgestürzt ist oder ersetzt wurde.</translation>
    </message>
    <message>
        <source>Recovery</source>
        <translation>Wiederherstellung</translation>
    </message>
    <message>
        <source>&amp;Wait for a busy service</source>
        <translation>Auf einen beschäftigten Dienst &amp;warten</translation>
    </message>
    <message>
        <source>How long the service may leave health checks unanswered before Tether replaces it.</source>
        <translation>Wie lange der Dienst Prüfungen unbeantwortet lassen darf, bevor Tether ihn ersetzt.</translation>
    </message>
    <message>
        <source>Restarts &amp;before giving up</source>
        <translation>Neustarts, &amp;bevor aufgegeben wird</translation>
    </message>
    <message>
        <source>After this many failed starts within the time below, Tether stops trying and tells you.</source>
        <translation>Nach so vielen misslungenen Starts innerhalb der Zeit darunter hört Tether auf und sagt Bescheid.</translation>
    </message>
    <message>
        <source>&amp;Counted within</source>
        <translation>&amp;Gezählt innerhalb von</translation>
    </message>
    <message>
        <source>The time over which failed starts add up.</source>
        <translation>Die Zeit, in der misslungene Starts zusammengezählt werden.</translation>
    </message>
    <message>
        <source>&amp;First restart after</source>
        <translation>&amp;Erster Neustart nach</translation>
    </message>
    <message>
        <source>The pause before the first restart; each further one waits twice as long.</source>
        <translation>Die Pause vor dem ersten Neustart; jeder weitere wartet doppelt so lange.</translation>
    </message>
    <message>
        <source>&amp;Longest pause</source>
        <translation>&amp;Längste Pause</translation>
    </message>
    <message>
        <source>Restarts never wait longer than this.</source>
        <translation>Neustarts warten nie länger als das.</translation>
    </message>
    <message>
        <source>Forget failures after &amp;running</source>
        <translation>Fehler vergessen nach Lauf&amp;zeit</translation>
    </message>
    <message>
        <source>Once the service has run this long without trouble, earlier failures no longer count.</source>
        <translation>Sobald der Dienst so lange ohne Störung lief, zählen frühere Fehler nicht mehr.</translation>
    </message>
    <message>
        <source>&amp;Time to stop cleanly</source>
        <translation>Zeit zum sa&amp;uberen Beenden</translation>
    </message>
    <message>
        <source>How long the service may take to stop before Tether ends it.</source>
        <translation>Wie lange der Dienst zum Beenden brauchen darf, bevor Tether ihn beendet.</translation>
    </message>
    <message>
        <source>Restart when a new &amp;version is installed</source>
        <translation>Neu starten, wenn eine neue &amp;Version installiert ist</translation>
    </message>
    <message>
        <source>Otherwise Tether shows that versions differ and you restart when it suits you.</source>
        <translation>Sonst zeigt Tether, dass die Versionen abweichen, und Sie starten neu, wann es passt.</translation>
    </message>
    <message>
        <source>Health checks</source>
        <translation>Prüfungen</translation>
    </message>
    <message>
        <source>Check &amp;every</source>
        <translation>Prüfen &amp;alle</translation>
    </message>
    <message>
        <source>How often Tether asks the service whether it is alive.</source>
        <translation>Wie oft Tether den Dienst fragt, ob er lebt.</translation>
    </message>
    <message>
        <source>&amp;Answer expected within</source>
        <translation>Antwort er&amp;wartet innerhalb von</translation>
    </message>
    <message>
        <source>A check not answered in this time is missed.</source>
        <translation>Eine in dieser Zeit unbeantwortete Prüfung gilt als verpasst.</translation>
    </message>
    <message>
        <source>&amp;Time to start</source>
        <translation>&amp;Zeit zum Starten</translation>
    </message>
    <message>
        <source>How long a starting service may take to answer its first check.</source>
        <translation>Wie lange ein startender Dienst für die Antwort auf seine erste Prüfung brauchen darf.</translation>
    </message>
    <message>
        <source>&amp;Health check address</source>
        <translation>Adresse der &amp;Prüfung</translation>
    </message>
    <message>
        <source>Another program only: the path Tether asks to see that it is alive.</source>
        <translation>Nur für ein anderes Programm: der Pfad, den Tether abfragt, um zu sehen, dass es lebt.</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Weiteres</translation>
    </message>
    <message>
        <source>Stop &amp;everything the service started with it</source>
        <translation>&amp;Alles, was der Dienst gestartet hat, mit ihm anhalten</translation>
    </message>
    <message>
        <source>The service and its MCP servers run as one group, so none is left behind when it stops.</source>
        <translation>Der Dienst und seine MCP-Server laufen als eine Gruppe, damit keiner zurückbleibt, wenn er endet.</translation>
    </message>
    <message>
        <source>Time for &amp;left-over servers to exit</source>
        <translation>Zeit zum Beenden für &amp;übrig gebliebene Server</translation>
    </message>
    <message>
        <source>How long a left-over MCP server may take to exit before Tether ends it.</source>
        <translation>Wie lange ein übrig gebliebener MCP-Server zum Beenden brauchen darf, bevor Tether ihn beendet.</translation>
    </message>
    <message>
        <source>opencode 2 state &amp;folder</source>
        <translation>Zustands&amp;ordner von opencode 2</translation>
    </message>
    <message>
        <source>Where opencode 2.x writes service.json. Leave empty for its usual place.</source>
        <translation>Wo opencode 2.x service.json schreibt. Leer lassen für den üblichen Ort.</translation>
    </message>
    <message>
        <source>Usual place</source>
        <translation>Üblicher Ort</translation>
    </message>
    <message>
        <source>Tray &amp;icon for</source>
        <translation>Tray-Sym&amp;bol für</translation>
    </message>
    <message>
        <source>Tether picks the icons for your panel by itself; choose here if they are hard to see on it.</source>
        <translation>Tether wählt die Symbole für Ihre Leiste selbst; wählen Sie hier, wenn sie darauf schlecht zu sehen sind.</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source>opencode 1.x</source>
        <translation>opencode 1.x</translation>
    </message>
    <message>
        <source>opencode 2.x</source>
        <translation>opencode 2.x</translation>
    </message>
    <message>
        <source>Another program</source>
        <translation>Ein anderes Programm</translation>
    </message>
    <message>
        <source>Tether&apos;s demo service</source>
        <translation>Demo-Dienst von Tether</translation>
    </message>
    <message>
        <source>A light panel</source>
        <translation>Eine helle Leiste</translation>
    </message>
    <message>
        <source>A dark panel</source>
        <translation>Eine dunkle Leiste</translation>
    </message>
    <message>
        <source>Ask me</source>
        <translation>Mich fragen</translation>
    </message>
    <message>
        <source>End them</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Leave them running</source>
        <translation>Weiterlaufen lassen</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>The local port the service listens on, on this computer only. opencode 2.x chooses its own (opencode service set port).</source>
        <translation>Der lokale Port, auf dem der Dienst lauscht, nur auf diesem Computer. opencode 2.x wählt seinen eigenen (opencode service set port).</translation>
    </message>
    <message>
        <source>opencode 2 c&amp;hannel</source>
        <translation>opencode-2-&amp;Kanal</translation>
    </message>
    <message>
        <source>The build channel of opencode 2.x (latest, beta, local...), which names its service file and port. Leave empty to take it from the installed version.</source>
        <translation>Der Build-Kanal von opencode 2.x (latest, beta, local …), nach dem seine Dienstdatei und sein Port benannt sind. Leer lassen, um ihn aus der installierten Version zu nehmen.</translation>
    </message>
    <message>
        <source>From the installed version</source>
        <translation>Wie installiert</translation>
    </message>
</context>
<context>
    <name>Tether</name>
    <message>
        <source>A tool call is running</source>
        <translation>Ein Werkzeugaufruf läuft</translation>
    </message>
    <message>
        <source>%1. Stopping now interrupts this work; add --force to stop anyway.</source>
        <translation>%1. Anhalten unterbricht diese Arbeit jetzt; mit --force trotzdem anhalten.</translation>
    </message>
    <message>
        <source>%1. Restarting now interrupts this work; add --force to restart anyway.</source>
        <translation>%1. Neu starten unterbricht diese Arbeit jetzt; mit --force trotzdem neu starten.</translation>
    </message>
    <message>
        <source>%1. Quitting stops the service and interrupts this work; add --force to quit anyway.</source>
        <translation>%1. Beenden hält den Dienst an und unterbricht diese Arbeit; mit --force trotzdem beenden.</translation>
    </message>
    <message>
        <source>No orphaned MCP processes.</source>
        <translation>Keine verwaisten MCP-Prozesse.</translation>
    </message>
    <message>
        <source>Tether is shutting down: it starts no service now.</source>
        <translation>Tether wird beendet: es startet jetzt keinen Dienst.</translation>
    </message>
    <message>
        <source>Name the MCP server.</source>
        <translation>Nennen Sie den MCP-Server.</translation>
    </message>
    <message>
        <source>tether: unknown verb %1

%2</source>
        <translation>tether: unbekanntes Verb %1

%2</translation>
    </message>
    <message>
        <source>tether %1: name the MCP server.</source>
        <translation>tether %1: Nennen Sie den MCP-Server.</translation>
    </message>
    <message>
        <source>tether %1: Tether is running but not answering (%2); it may be busy: try again, or see its log.</source>
        <translation>tether %1: Tether läuft, antwortet aber nicht (%2); es ist vielleicht beschäftigt: versuchen Sie es erneut oder sehen Sie in sein Protokoll.</translation>
    </message>
    <message>
        <source>tether: not running (start it with `tether` or `tether --headless`).</source>
        <translation>tether: läuft nicht (starten Sie es mit `tether` oder `tether --headless`).</translation>
    </message>
    <message>
        <source>Click to see what to do.</source>
        <translation>Klicken Sie, um zu sehen, was zu tun ist.</translation>
    </message>
    <message>
        <source>Click to choose which to end.</source>
        <translation>Klicken Sie, um zu wählen, welche beendet werden.</translation>
    </message>
    <message>
        <source>Click to see the MCP servers.</source>
        <translation>Klicken Sie, um die MCP-Server zu sehen.</translation>
    </message>
    <message>
        <source>Tool calls it was running were cut short.</source>
        <translation>Laufende Werkzeugaufrufe wurden abgebrochen.</translation>
    </message>
    <message>
        <source>It ended with %1.</source>
        <translation>Beendet mit %1.</translation>
    </message>
    <message>
        <source>Tether is starting it again.</source>
        <translation>Tether startet ihn neu.</translation>
    </message>
    <message>
        <source>%1 stopped unexpectedly and was restarted</source>
        <translation>%1 endete unerwartet und wurde neu gestartet</translation>
    </message>
    <message>
        <source>It is running again.</source>
        <translation>Er läuft wieder.</translation>
    </message>
    <message>
        <source>It answers again.</source>
        <translation>Er antwortet wieder.</translation>
    </message>
    <message>
        <source>It runs %1; %2 is installed. Restart it when it suits you.</source>
        <translation>Es läuft %1; installiert ist %2. Starten Sie neu, wann es passt.</translation>
    </message>
    <message>
        <source>The process it named was gone or another program; nothing was stopped.</source>
        <translation>Der darin genannte Prozess war weg oder ein anderes Programm; nichts wurde angehalten.</translation>
    </message>
    <message numerus="yes">
        <source>%n MCP process(es) from an earlier service still running.</source>
        <translation>
            <numerusform>%n MCP-Prozess eines früheren Dienstes läuft noch.</numerusform>
            <numerusform>%n MCP-Prozesse eines früheren Dienstes laufen noch.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2.</source>
        <comment>an MCP server, then why it is flagged</comment>
        <translation>%1 %2.</translation>
    </message>
    <message>
        <source>Restart it from the menu when it suits you.</source>
        <translation>Starten Sie ihn über das Menü neu, wann es passt.</translation>
    </message>
    <message>
        <source>Restart them from the menu when it suits you.</source>
        <translation>Starten Sie sie über das Menü neu, wann es passt.</translation>
    </message>
    <message>
        <source>Work in progress was cut short.</source>
        <translation>Laufende Arbeit wurde abgebrochen.</translation>
    </message>
    <message>
        <source>The agent may need to be asked again.</source>
        <translation>Der Agent muss eventuell erneut gefragt werden.</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>Neu starten</translation>
    </message>
    <message>
        <source>Quit and stop</source>
        <translation>Beenden und anhalten</translation>
    </message>
    <message>
        <source>No system tray is available, so Tether shows this window instead. Closing it keeps Tether running; starting Tether again reopens it.</source>
        <translation>Es gibt keinen Infobereich, darum zeigt Tether stattdessen dieses Fenster. Schließen lässt Tether weiterlaufen; erneutes Starten von Tether öffnet es wieder.</translation>
    </message>
    <message>
        <source>Use a free port</source>
        <translation>Freien Port nutzen</translation>
    </message>
    <message>
        <source>Diagnostics copied</source>
        <translation>Diagnose kopiert</translation>
    </message>
    <message>
        <source>Paste them into your bug report. Passwords and tokens are removed.</source>
        <translation>Fügen Sie sie in Ihren Fehlerbericht ein. Passwörter und Tokens sind entfernt.</translation>
    </message>
    <message>
        <source>&amp;Open in browser</source>
        <translation>Im Bro&amp;wser öffnen</translation>
    </message>
    <message>
        <source>&amp;Try again</source>
        <translation>Erneut &amp;versuchen</translation>
    </message>
    <message>
        <source>Show &amp;log</source>
        <translation>&amp;Protokoll anzeigen</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>&amp;Anhalten</translation>
    </message>
    <message>
        <source>Open status &amp;window</source>
        <translation>Status&amp;fenster öffnen</translation>
    </message>
    <message>
        <source>Setti&amp;ngs…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>Trou&amp;bleshoot</source>
        <translation>Feh&amp;lersuche</translation>
    </message>
    <message>
        <source>Open &amp;logs folder</source>
        <translation>&amp;Protokollordner öffnen</translation>
    </message>
    <message>
        <source>&amp;Copy diagnostics</source>
        <translation>&amp;Diagnose kopieren</translation>
    </message>
    <message>
        <source>&amp;About Tether</source>
        <translation>&amp;Über Tether</translation>
    </message>
    <message>
        <source>&amp;Quit Tether</source>
        <translation>Tether &amp;beenden</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>an action, then the MCP server it acts on</comment>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 (running for %2)</source>
        <translation>%1 (läuft seit %2)</translation>
    </message>
    <message>
        <source>an unnamed tool</source>
        <translation>ein unbenanntes Werkzeug</translation>
    </message>
    <message numerus="yes">
        <source>%1 now? The service is running %n tool call(s), which will be interrupted:</source>
        <translation>
            <numerusform>%1? Der Dienst führt gerade %n Werkzeugaufruf aus, der dabei abgebrochen wird:</numerusform>
            <numerusform>%1? Der Dienst führt gerade %n Werkzeugaufrufe aus, die dabei abgebrochen werden:</numerusform>
        </translation>
    </message>
    <message>
        <source> · replaced in %1</source>
        <translation> · Ersatz in %1</translation>
    </message>
    <message>
        <source> · replaced unless it answers now</source>
        <translation> · Ersatz, falls er nicht gleich antwortet</translation>
    </message>
    <message>
        <source> · again in %1</source>
        <translation> · erneut in %1</translation>
    </message>
    <message>
        <source>port %1</source>
        <translation>Port %1</translation>
    </message>
    <message>
        <source>up %1</source>
        <translation>seit %1</translation>
    </message>
    <message>
        <source>less than a minute</source>
        <translation>weniger als eine Minute</translation>
    </message>
    <message>
        <source>just started</source>
        <translation>gerade gestartet</translation>
    </message>
    <message>
        <source>Tether: %1</source>
        <translation>Tether: %1</translation>
    </message>
    <message>
        <source>Version %1 is installed</source>
        <translation>Version %1 ist installiert</translation>
    </message>
    <message>
        <source>&amp;Restart</source>
        <translation>&amp;Neu starten</translation>
    </message>
    <message>
        <source>Use a &amp;free port (%1)</source>
        <translation>Freien P&amp;ort nutzen (%1)</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>Neu verbinden</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <comment>an MCP server, then its state</comment>
        <translation>%1 — %2</translation>
    </message>
    <message numerus="yes">
        <source>⚠ &amp;MCP servers (%n need(s) attention)</source>
        <translation>
            <numerusform>⚠ &amp;MCP-Server (%n zu prüfen)</numerusform>
            <numerusform>⚠ &amp;MCP-Server (%n zu prüfen)</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;MCP servers (%1)</source>
        <translation>&amp;MCP-Server (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n MCP server(s) over a limit</source>
        <translation>
            <numerusform>%n MCP-Server über einer Grenze</numerusform>
            <numerusform>%n MCP-Server über einer Grenze</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&amp;Clean up %n orphaned process(es)…</source>
        <translation>
            <numerusform>%n verwaisten Prozess a&amp;ufräumen…</numerusform>
            <numerusform>%n verwaiste Prozesse a&amp;ufräumen…</numerusform>
        </translation>
    </message>
    <message>
        <source>Start at &amp;login (off in System Settings)</source>
        <translation>Beim &amp;Anmelden starten (in den Systemeinstellungen aus)</translation>
    </message>
    <message>
        <source>Start at &amp;login (disabled in Windows Settings)</source>
        <translation>Beim &amp;Anmelden starten (in den Windows-Einstellungen deaktiviert)</translation>
    </message>
    <message>
        <source>Start at &amp;login</source>
        <translation>Beim &amp;Anmelden starten</translation>
    </message>
    <message>
        <source>Interrupt running tool calls?</source>
        <translation>Laufende Werkzeugaufrufe abbrechen?</translation>
    </message>
    <message>
        <source>%1 anyway</source>
        <comment>a button: stop, restart or quit even so</comment>
        <translation>Trotzdem: %1</translation>
    </message>
    <message>
        <source>&amp;Keep it running</source>
        <translation>&amp;Weiterlaufen lassen</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Angehalten</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Startet</translation>
    </message>
    <message>
        <source>Healthy</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Not responding</source>
        <translation>Antwortet nicht</translation>
    </message>
    <message>
        <source>Recovering</source>
        <translation>Wird ersetzt</translation>
    </message>
    <message>
        <source>Restarting</source>
        <translation>Startet neu</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>Wird angehalten</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 s</source>
        <comment>seconds</comment>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <comment>minutes</comment>
        <translation>%1 Min.</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <comment>hours and minutes</comment>
        <translation>%1 Std. %2 Min.</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <comment>days and hours</comment>
        <translation>%1 T. %2 Std.</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>The service is not running.</source>
        <translation>Der Dienst läuft nicht.</translation>
    </message>
    <message>
        <source>Waiting for the service&apos;s first answer.</source>
        <translation>Warte auf die erste Antwort des Dienstes.</translation>
    </message>
    <message>
        <source>It answers its health checks.</source>
        <translation>Er antwortet auf die Prüfungen.</translation>
    </message>
    <message>
        <source>The service does not answer. Tether waits for it.</source>
        <translation>Der Dienst antwortet nicht. Tether wartet auf ihn.</translation>
    </message>
    <message>
        <source>The service does not answer. Tether waits; it will be replaced in %1 if it stays silent.</source>
        <translation>Der Dienst antwortet nicht. Tether wartet; bleibt er still, wird er in %1 ersetzt.</translation>
    </message>
    <message>
        <source>The service does not answer. It will be replaced unless it answers now.</source>
        <translation>Der Dienst antwortet nicht. Er wird ersetzt, falls er nicht gleich antwortet.</translation>
    </message>
    <message>
        <source>It did not answer in time: Tether is replacing it.</source>
        <translation>Er antwortete nicht rechtzeitig: Tether ersetzt ihn.</translation>
    </message>
    <message>
        <source>It stopped; starting again in %1.</source>
        <translation>Er endete; neuer Start in %1.</translation>
    </message>
    <message>
        <source>It stopped; starting again.</source>
        <translation>Er endete; neuer Start.</translation>
    </message>
    <message>
        <source>Waiting for the service to exit.</source>
        <translation>Warte, bis der Dienst sich beendet.</translation>
    </message>
    <message>
        <source>Tether did not start it on a port in use. Use a free port, or stop the other program, then try again.</source>
        <translation>Tether hat ihn nicht auf einem belegten Port gestartet. Nutzen Sie einen freien Port oder halten Sie das andere Programm an, dann versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Tether did not retry: it would fail the same way until its arguments change.</source>
        <translation>Tether hat es nicht erneut versucht: Es würde genauso scheitern, bis sich seine Argumente ändern.</translation>
    </message>
    <message>
        <source>Tether did not retry: choose a program that can run, then try again.</source>
        <translation>Tether hat es nicht erneut versucht: Wählen Sie ein lauffähiges Programm und versuchen Sie es dann erneut.</translation>
    </message>
    <message>
        <source>Tether stopped restarting it. Fix the cause, then try again.</source>
        <translation>Tether startet ihn nicht mehr neu. Beheben Sie die Ursache und versuchen Sie es dann erneut.</translation>
    </message>
    <message>
        <source>Tether stopped trying to start it.</source>
        <translation>Tether versucht nicht mehr, ihn zu starten.</translation>
    </message>
    <message>
        <source>Version %1 is installed: restart to update.</source>
        <translation>Version %1 ist installiert: zum Aktualisieren neu starten.</translation>
    </message>
    <message>
        <source>The service is stopped.</source>
        <translation>Der Dienst ist angehalten.</translation>
    </message>
    <message>
        <source>Starting the service.</source>
        <translation>Der Dienst wird gestartet.</translation>
    </message>
    <message>
        <source>The service is running.</source>
        <translation>Der Dienst läuft.</translation>
    </message>
    <message>
        <source>The service stopped answering; Tether waits for it.</source>
        <translation>Der Dienst antwortet nicht mehr; Tether wartet auf ihn.</translation>
    </message>
    <message>
        <source>The service did not answer in time; Tether replaces it.</source>
        <translation>Der Dienst antwortete nicht rechtzeitig; Tether ersetzt ihn.</translation>
    </message>
    <message>
        <source>The service stopped; Tether starts it again.</source>
        <translation>Der Dienst endete; Tether startet ihn neu.</translation>
    </message>
    <message>
        <source>Stopping the service.</source>
        <translation>Der Dienst wird angehalten.</translation>
    </message>
    <message>
        <source>The service failed; Tether stopped trying.</source>
        <translation>Der Dienst ist fehlgeschlagen; Tether versucht es nicht mehr.</translation>
    </message>
    <message>
        <source>The service exited when asked.</source>
        <translation>Der Dienst hat sich auf Bitte beendet.</translation>
    </message>
    <message>
        <source>The service did not exit in time and was ended.</source>
        <translation>Der Dienst hat sich nicht rechtzeitig beendet und wurde beendet.</translation>
    </message>
    <message>
        <source>The service was already gone.</source>
        <translation>Der Dienst war schon weg.</translation>
    </message>
    <message>
        <source>The service started on port %1.</source>
        <translation>Der Dienst ist auf Port %1 gestartet.</translation>
    </message>
    <message>
        <source>Asking the service to exit.</source>
        <translation>Der Dienst wird gebeten, sich zu beenden.</translation>
    </message>
    <message numerus="yes">
        <source>Found %n MCP process(es) left running by an earlier service.</source>
        <translation>
            <numerusform>%n MCP-Prozess gefunden, den ein früherer Dienst laufen ließ.</numerusform>
            <numerusform>%n MCP-Prozesse gefunden, die ein früherer Dienst laufen ließ.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ended %n MCP process(es) the service left behind.</source>
        <translation>
            <numerusform>%n MCP-Prozess beendet, den der Dienst zurückließ.</numerusform>
            <numerusform>%n MCP-Prozesse beendet, die der Dienst zurückließ.</numerusform>
        </translation>
    </message>
    <message>
        <source>Tether %1 started: it looks after its demo service on port %2.</source>
        <translation>Tether %1 gestartet: Es betreut seinen Demo-Dienst auf Port %2.</translation>
    </message>
    <message>
        <source>Tether %1 started: it looks after your service on port %2.</source>
        <translation>Tether %1 gestartet: Es betreut Ihren Dienst auf Port %2.</translation>
    </message>
    <message>
        <source>Tether %1 started: it looks after opencode on port %2.</source>
        <translation>Tether %1 gestartet: Es betreut opencode auf Port %2.</translation>
    </message>
    <message>
        <source>Port %1 chosen: the service starts there.</source>
        <translation>Port %1 gewählt: Der Dienst startet dort.</translation>
    </message>
    <message>
        <source>Reconnected the MCP server %1.</source>
        <translation>MCP-Server %1 neu verbunden.</translation>
    </message>
    <message>
        <source>The computer woke up; Tether waits for a fresh answer before judging the service.</source>
        <translation>Der Computer ist aufgewacht; Tether wartet auf eine neue Antwort, bevor es den Dienst beurteilt.</translation>
    </message>
    <message>
        <source>Following what the service does.</source>
        <translation>Tether verfolgt, was der Dienst tut.</translation>
    </message>
    <message>
        <source>Tether no longer sees what the service does.</source>
        <translation>Tether sieht nicht mehr, was der Dienst tut.</translation>
    </message>
    <message>
        <source>New settings applied.</source>
        <translation>Neue Einstellungen übernommen.</translation>
    </message>
    <message>
        <source>Tether quit.</source>
        <translation>Tether wurde beendet.</translation>
    </message>
    <message>
        <source>&amp;Health, last hour</source>
        <translation>&amp;Zustand, letzte Stunde</translation>
    </message>
    <message>
        <source>&amp;Health, last %1 min</source>
        <translation>&amp;Zustand, letzte %1 Min.</translation>
    </message>
    <message>
        <source>“%1”</source>
        <comment>the service&apos;s own words, quoted</comment>
        <translation>„%1“</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <comment>the last two of a list</comment>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <comment>tools named, then the rest counted</comment>
        <translation>
            <numerusform>%1 und %n weiteres</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>Running a tool: %1 (%2)</source>
        <translation>Führt ein Werkzeug aus: %1 (%2)</translation>
    </message>
    <message numerus="yes">
        <source>Running %n tools: %1</source>
        <translation>
            <numerusform>Führt %n Werkzeug aus: %1</numerusform>
            <numerusform>Führt %n Werkzeuge aus: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Working on %n request(s)</source>
        <translation>
            <numerusform>Arbeitet an %n Anfrage</numerusform>
            <numerusform>Arbeitet an %n Anfragen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 was cut short at %2.</source>
        <translation>%1 wurde um %2 abgebrochen.</translation>
    </message>
    <message numerus="yes">
        <source>%n tool calls were cut short at %2: %1.</source>
        <translation>
            <numerusform>%n Werkzeugaufruf wurde um %2 abgebrochen: %1.</numerusform>
            <numerusform>%n Werkzeugaufrufe wurden um %2 abgebrochen: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) were cut short at %1.</source>
        <translation>
            <numerusform>%n Anfrage wurde um %1 abgebrochen.</numerusform>
            <numerusform>%n Anfragen wurden um %1 abgebrochen.</numerusform>
        </translation>
    </message>
    <message>
        <source>killed or crashed</source>
        <translation>beendet oder abgestürzt</translation>
    </message>
    <message>
        <source>it ended by itself, without an error</source>
        <translation>er endete von selbst, ohne Fehler</translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>exit code %1: %2</source>
        <translation>Exit-Code %1: %2</translation>
    </message>
    <message>
        <source>Port %1 is used by another program.</source>
        <translation>Port %1 wird von einem anderen Programm belegt.</translation>
    </message>
    <message>
        <source>Port %1 is used by %2.</source>
        <translation>Port %1 wird von %2 belegt.</translation>
    </message>
    <message>
        <source>Port %1 is used by a program Tether cannot see (another user&apos;s?).</source>
        <translation>Port %1 wird von einem Programm belegt, das Tether nicht sieht (das eines anderen Benutzers?).</translation>
    </message>
    <message>
        <source>Windows keeps port %1 for itself (ports %2).</source>
        <translation>Windows hält Port %1 für sich frei (Ports %2).</translation>
    </message>
    <message>
        <source>Port %1 may not be used on this computer.</source>
        <translation>Port %1 darf auf diesem Computer nicht genutzt werden.</translation>
    </message>
    <message>
        <source>%1 refused its arguments (%2).</source>
        <translation>%1 hat seine Argumente abgelehnt (%2).</translation>
    </message>
    <message>
        <source>bad arguments</source>
        <translation>falsche Argumente</translation>
    </message>
    <message>
        <source>%1 refused its arguments: %2</source>
        <translation>%1 hat seine Argumente abgelehnt: %2</translation>
    </message>
    <message>
        <source>%1 could not be started: its program did not run.</source>
        <translation>%1 konnte nicht gestartet werden: sein Programm lief nicht.</translation>
    </message>
    <message>
        <source>%1 could not be started: %2</source>
        <translation>%1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>It was killed or crashed.</source>
        <translation>Er wurde beendet oder ist abgestürzt.</translation>
    </message>
    <message>
        <source>It ended by itself, without an error.</source>
        <translation>Er endete von selbst, ohne Fehler.</translation>
    </message>
    <message numerus="yes">
        <source>It failed %n time(s) within %1.</source>
        <translation>
            <numerusform>Er ist %n-mal innerhalb von %1 gescheitert.</numerusform>
            <numerusform>Er ist %n-mal innerhalb von %1 gescheitert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Last it said: %1</source>
        <translation>Zuletzt sagte er: %1</translation>
    </message>
    <message>
        <source>Last: %1.</source>
        <translation>Zuletzt: %1.</translation>
    </message>
    <message>
        <source>%1 stopped (%2).</source>
        <translation>%1 endete (%2).</translation>
    </message>
    <message>
        <source>%1 stopped: %2 (%3)</source>
        <translation>%1 endete: %2 (%3)</translation>
    </message>
    <message>
        <source>Tether could not keep %1 running.</source>
        <translation>Tether konnte %1 nicht am Laufen halten.</translation>
    </message>
    <message>
        <source>Choose &amp;program…</source>
        <translation>Programm &amp;wählen…</translation>
    </message>
    <message>
        <source>no answer from the service</source>
        <translation>Dienst schweigt</translation>
    </message>
    <message>
        <source>waiting for the service</source>
        <translation>wartet auf den Dienst</translation>
    </message>
    <message>
        <source>memory over its limit</source>
        <translation>Speicher zu hoch</translation>
    </message>
    <message>
        <source>busy too long</source>
        <translation>zu lange ausgelastet</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>verbunden</translation>
    </message>
    <message>
        <source>turned off</source>
        <translation>ausgeschaltet</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>needs sign-in</source>
        <translation>Anmeldung nötig</translation>
    </message>
    <message>
        <source>needs registration</source>
        <translation>Registrierung nötig</translation>
    </message>
    <message>
        <source>state unknown</source>
        <translation>Zustand unbekannt</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a state, then the service&apos;s words</comment>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>uses %1, over its %2 limit</source>
        <translation>belegt %1, mehr als die Grenze von %2</translation>
    </message>
    <message>
        <source>has kept a processor busy for %1</source>
        <translation>lastet einen Prozessor seit %1 aus</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message numerus="yes">
        <source>%n orphaned MCP process(es)</source>
        <translation>
            <numerusform>%n verwaister MCP-Prozess</numerusform>
            <numerusform>%n verwaiste MCP-Prozesse</numerusform>
        </translation>
    </message>
    <message>
        <source>ended by SIGHUP</source>
        <translation>durch SIGHUP beendet</translation>
    </message>
    <message>
        <source>ended by SIGINT</source>
        <translation>durch SIGINT beendet</translation>
    </message>
    <message>
        <source>ended by SIGQUIT</source>
        <translation>durch SIGQUIT beendet</translation>
    </message>
    <message>
        <source>ended by SIGILL</source>
        <translation>durch SIGILL beendet</translation>
    </message>
    <message>
        <source>ended by SIGABRT</source>
        <translation>durch SIGABRT beendet</translation>
    </message>
    <message>
        <source>ended by SIGBUS</source>
        <translation>durch SIGBUS beendet</translation>
    </message>
    <message>
        <source>ended by SIGFPE</source>
        <translation>durch SIGFPE beendet</translation>
    </message>
    <message>
        <source>killed (SIGKILL; out of memory?)</source>
        <translation>abgeschossen (SIGKILL; Speicher voll?)</translation>
    </message>
    <message>
        <source>ended by SIGSEGV</source>
        <translation>durch SIGSEGV beendet</translation>
    </message>
    <message>
        <source>ended by SIGPIPE</source>
        <translation>durch SIGPIPE beendet</translation>
    </message>
    <message>
        <source>ended by SIGTERM</source>
        <translation>durch SIGTERM beendet</translation>
    </message>
    <message>
        <source>access violation (the program crashed)</source>
        <translation>Zugriffsverletzung (das Programm ist abgestürzt)</translation>
    </message>
    <message>
        <source>a DLL it needs was not found</source>
        <translation>eine benötigte DLL wurde nicht gefunden</translation>
    </message>
    <message>
        <source>an entry point was not found in a DLL (wrong DLL version)</source>
        <translation>ein Einsprungpunkt fehlt in einer DLL (falsche DLL-Version)</translation>
    </message>
    <message>
        <source>ended by Ctrl+C or Ctrl+Break</source>
        <translation>durch Strg+C oder Strg+Pause beendet</translation>
    </message>
    <message>
        <source>stack overflow</source>
        <translation>Stapelüberlauf</translation>
    </message>
    <message>
        <source>stack buffer overrun (the program aborted)</source>
        <translation>Stapelpufferüberlauf (das Programm hat abgebrochen)</translation>
    </message>
    <message>
        <source>the program could not initialise (DLL initialisation failed)</source>
        <translation>das Programm konnte nicht starten (DLL-Initialisierung fehlgeschlagen)</translation>
    </message>
    <message>
        <source>general error</source>
        <translation>allgemeiner Fehler</translation>
    </message>
    <message>
        <source>configuration error</source>
        <translation>Konfigurationsfehler</translation>
    </message>
    <message>
        <source>the program cannot be executed</source>
        <translation>das Programm kann nicht ausgeführt werden</translation>
    </message>
    <message>
        <source>command not found</source>
        <translation>Befehl nicht gefunden</translation>
    </message>
    <message>
        <source>The service</source>
        <translation>Der Dienst</translation>
    </message>
    <message>
        <source>The demo service</source>
        <translation>Der Demo-Dienst</translation>
    </message>
    <message>
        <source>%1 stopped unexpectedly; restarting it</source>
        <translation>%1 endete unerwartet und wird neu gestartet</translation>
    </message>
    <message>
        <source>%1 is running again</source>
        <translation>%1 läuft wieder</translation>
    </message>
    <message>
        <source>%1 keeps failing; Tether stopped restarting it</source>
        <translation>%1 scheitert immer wieder; Tether startet ihn nicht mehr neu</translation>
    </message>
    <message>
        <source>%1 cannot start: another program uses its port</source>
        <translation>%1 kann nicht starten: Ein anderes Programm belegt seinen Port</translation>
    </message>
    <message>
        <source>%1 cannot start with these settings</source>
        <translation>%1 kann mit diesen Einstellungen nicht starten</translation>
    </message>
    <message>
        <source>%1 runs another version than the one installed</source>
        <translation>%1 läuft in einer anderen als der installierten Version</translation>
    </message>
    <message>
        <source>Tether removed an outdated service record</source>
        <translation>Tether hat einen veralteten Dienst-Eintrag entfernt</translation>
    </message>
    <message>
        <source>MCP servers were left running</source>
        <translation>MCP-Server laufen noch</translation>
    </message>
    <message>
        <source>An MCP server uses a lot of resources</source>
        <translation>Ein MCP-Server belegt viele Ressourcen</translation>
    </message>
    <message>
        <source>Running tool calls were cut short</source>
        <translation>Laufende Werkzeugaufrufe wurden abgebrochen</translation>
    </message>
    <message>
        <source>not a whole number</source>
        <translation>keine ganze Zahl</translation>
    </message>
    <message>
        <source>must be between %1 and %2</source>
        <translation>muss zwischen %1 und %2 liegen</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>muss true oder false sein</translation>
    </message>
    <message>
        <source>must be one of %1</source>
        <translation>muss eins davon sein: %1</translation>
    </message>
    <message>
        <source>must be a single value</source>
        <translation>muss ein einzelner Wert sein</translation>
    </message>
    <message>
        <source>a quote (&quot;) is not closed</source>
        <translation>ein Anführungszeichen (&quot;) ist nicht geschlossen</translation>
    </message>
    <message>
        <source>the wait must be longer than the time a health check may take, or one slow answer would use it all up</source>
        <translation>das Warten muss länger sein als eine Prüfung dauern darf, sonst würde eine langsame Antwort es ganz aufbrauchen</translation>
    </message>
    <message>
        <source>the wait must not be shorter than the time between health checks, or one missed check would use it all up</source>
        <translation>das Warten darf nicht kürzer sein als die Zeit zwischen Prüfungen, sonst würde eine verpasste Prüfung es ganz aufbrauchen</translation>
    </message>
    <message>
        <source>the longest wait cannot be shorter than the first one</source>
        <translation>die längste Pause kann nicht kürzer sein als die erste</translation>
    </message>
    <message>
        <source> · started outside Tether</source>
        <translation> · außerhalb von Tether gestartet</translation>
    </message>
    <message>
        <source>Port %1 is free: set [service] port=%1 in the settings file, or choose “Use a free port” in the tray.</source>
        <translation>Port %1 ist frei: [service] port=%1 in der Einstellungsdatei setzen oder im Infobereich „Freien Port nutzen“ wählen.</translation>
    </message>
    <message>
        <source>Change [%1] %2 in the settings file (or in Settings in the tray), then `tether start`.</source>
        <translation>[%1] %2 in der Einstellungsdatei ändern (oder in den Einstellungen im Infobereich), dann `tether start`.</translation>
    </message>
    <message>
        <source>Version %1 is installed: `tether restart` updates it.</source>
        <translation>Version %1 ist installiert: `tether restart` aktualisiert.</translation>
    </message>
    <message>
        <source>Start at login: %1</source>
        <translation>Beim Anmelden starten: %1</translation>
    </message>
    <message>
        <source>%1: `tether cleanup` ends them.</source>
        <translation>%1: `tether cleanup` beendet sie.</translation>
    </message>
    <message>
        <source>Edit a&amp;rguments…</source>
        <translation>A&amp;rgumente bearbeiten…</translation>
    </message>
    <message>
        <source>&amp;Health, last minute</source>
        <translation>&amp;Zustand, letzte Minute</translation>
    </message>
    <message>
        <source>Port %1 is free: click to choose it.</source>
        <translation>Port %1 ist frei: Klicken Sie, um ihn zu wählen.</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Tether watches over it again.</source>
        <translation>Tether wacht wieder über ihn.</translation>
    </message>
    <message>
        <source>Tether leaves it stopped. Start it from the tray when you need it.</source>
        <translation>Tether lässt ihn gestoppt. Starten Sie ihn im Infobereich, wenn Sie ihn brauchen.</translation>
    </message>
    <message>
        <source>Its last good copy is kept. Free some space or fix the file, and Tether saves it again.</source>
        <translation>Die letzte gute Fassung bleibt erhalten. Schaffen Sie Platz oder reparieren Sie die Datei, dann speichert Tether sie erneut.</translation>
    </message>
    <message>
        <source>Not saved: %1.</source>
        <translation>Nicht gespeichert: %1.</translation>
    </message>
    <message>
        <source>%1 was started by another program</source>
        <translation>%1 wurde von einem anderen Programm gestartet</translation>
    </message>
    <message>
        <source>%1 was stopped by another program</source>
        <translation>%1 wurde von einem anderen Programm gestoppt</translation>
    </message>
    <message>
        <source>Tether cannot save its records</source>
        <translation>Tether kann seine Aufzeichnungen nicht speichern</translation>
    </message>
    <message>
        <source>%1 characters, more than the %2 a program can be given</source>
        <translation>%1 Zeichen, mehr als die %2, die ein Programm erhalten kann</translation>
    </message>
    <message>
        <source>&amp;Update and restart</source>
        <translation>A&amp;ktualisieren und neu starten</translation>
    </message>
    <message>
        <source>state, what it does or why it failed, MCP servers, orphans; --details: process IDs, paths</source>
        <translation>Zustand, was er tut oder warum er fehlschlug, MCP-Server, verwaiste Prozesse; --details: Prozess-IDs, Pfade</translation>
    </message>
    <message>
        <source>start the service</source>
        <translation>den Dienst starten</translation>
    </message>
    <message>
        <source>stop the service (identity verified; refused while tool calls run unless --force)</source>
        <translation>den Dienst anhalten (Identität geprüft; abgelehnt, solange Werkzeugaufrufe laufen, außer mit --force)</translation>
    </message>
    <message>
        <source>restart the service (identity verified; refused while tool calls run unless --force)</source>
        <translation>den Dienst neu starten (Identität geprüft; abgelehnt, solange Werkzeugaufrufe laufen, außer mit --force)</translation>
    </message>
    <message>
        <source>remove orphaned MCP processes (possible ones only with --yes); no Tether needed</source>
        <translation>verwaiste MCP-Prozesse entfernen (mögliche nur mit --yes); geht auch ohne laufendes Tether</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <source>connect an MCP server through the service</source>
        <translation>einen MCP-Server über den Dienst verbinden</translation>
    </message>
    <message>
        <source>disconnect an MCP server through the service</source>
        <translation>einen MCP-Server über den Dienst trennen</translation>
    </message>
    <message>
        <source>quit Tether (the service keeps running unless configured)</source>
        <translation>Tether beenden (der Dienst läuft weiter, wenn nicht anders eingestellt)</translation>
    </message>
    <message>
        <source>raise the running Tether&apos;s status window</source>
        <translation>das Statusfenster des laufenden Tether zeigen</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>DATEI</translation>
    </message>
    <message>
        <source>write one report to attach to a bug, secrets removed (- prints it); no Tether needed</source>
        <translation>einen Bericht für eine Fehlermeldung schreiben, ohne Geheimnisse (- gibt ihn aus); geht auch ohne laufendes Tether</translation>
    </message>
    <message>
        <source>Tray companion that supervises a local AI-agent service and its MCP servers.</source>
        <translation>Begleiter im Infobereich, der einen lokalen KI-Agenten-Dienst und seine MCP-Server überwacht.</translation>
    </message>
    <message>
        <source>Run the supervisor without a tray.</source>
        <translation>Die Überwachung ohne Symbol im Infobereich ausführen.</translation>
    </message>
    <message>
        <source>Started at login: quietly, no window.</source>
        <translation>Bei der Anmeldung gestartet: leise, ohne Fenster.</translation>
    </message>
    <message>
        <source>Use this settings file instead of the user&apos;s.</source>
        <translation>Diese Einstellungsdatei statt der des Benutzers verwenden.</translation>
    </message>
    <message>
        <source>file</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>tether-cli runs the verbs; start the tray with tether.exe.</source>
        <translation>tether-cli führt die Befehle aus; das Symbol im Infobereich startet tether.exe.</translation>
    </message>
    <message>
        <source>Verbs (talk to the running Tether):</source>
        <translation>Befehle (an das laufende Tether):</translation>
    </message>
    <message>
        <source>Exit codes: 0 done, 1 failed, 2 usage error, 3 refused: the service is running
tool calls (stop, restart and a quit that stops the service go ahead with --force),
4 Tether is not running, 5 Tether is running but did not answer in time.</source>
        <translation>Exit-Codes: 0 erledigt, 1 fehlgeschlagen, 2 falscher Aufruf, 3 abgelehnt: der Dienst führt
Werkzeugaufrufe aus (stop, restart und ein quit, das den Dienst anhält, gehen mit --force),
4 Tether läuft nicht, 5 Tether läuft, hat aber nicht rechtzeitig geantwortet.</translation>
    </message>
    <message>
        <source>On Windows run the verbs with tether-cli.exe: cmd and PowerShell wait for it and see
its exit code. tether.exe runs them too and prints to the same console, but the shell
does not wait for it (its prompt may come first, %ERRORLEVEL% is not its exit code).
tether-cli.exe without a verb only prints this help (`tether-cli --headless` runs the
supervisor in the console); the tray is tether.exe.</source>
        <translation>Unter Windows die Befehle mit tether-cli.exe ausführen: cmd und PowerShell warten darauf und
sehen seinen Exit-Code. tether.exe führt sie auch aus und schreibt in dieselbe Konsole, aber die
Shell wartet nicht darauf (ihre Eingabeaufforderung kann zuerst kommen, %ERRORLEVEL% ist nicht
sein Exit-Code). tether-cli.exe ohne Befehl gibt nur diese Hilfe aus (`tether-cli --headless`
führt die Überwachung in der Konsole aus); das Symbol im Infobereich ist tether.exe.</translation>
    </message>
    <message>
        <source>Service process ID: %1</source>
        <translation>Prozess-ID des Dienstes: %1</translation>
    </message>
    <message>
        <source>MCP server %1: process ID %2</source>
        <translation>MCP-Server %1: Prozess-ID %2</translation>
    </message>
    <message>
        <source>Failure, in the log&apos;s words: %1</source>
        <translation>Fehler, in den Worten des Protokolls: %1</translation>
    </message>
    <message>
        <source>Service log: %1</source>
        <translation>Protokoll des Dienstes: %1</translation>
    </message>
    <message>
        <source>Last error, in the log&apos;s words: %1</source>
        <translation>Letzter Fehler, in den Worten des Protokolls: %1</translation>
    </message>
    <message>
        <source>Activity, in the log&apos;s words: %1</source>
        <translation>Tätigkeit, in den Worten des Protokolls: %1</translation>
    </message>
    <message>
        <source>Possible orphan, process ID %1: %2</source>
        <translation>Möglicherweise verwaist, Prozess-ID %1: %2</translation>
    </message>
    <message>
        <source>Orphan, process ID %1: %2</source>
        <translation>Verwaist, Prozess-ID %1: %2</translation>
    </message>
    <message>
        <source>Talk to the running Tether.</source>
        <translation>Mit dem laufenden Tether sprechen.</translation>
    </message>
    <message>
        <source>verb</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>MCP server name (mcp-connect, mcp-disconnect)</source>
        <translation>Name des MCP-Servers (mcp-connect, mcp-disconnect)</translation>
    </message>
    <message>
        <source>Print JSON.</source>
        <translation>JSON ausgeben.</translation>
    </message>
    <message>
        <source>status: the process IDs, paths and the log&apos;s own words as well.</source>
        <translation>status: auch die Prozess-IDs, Pfade und die Worte des Protokolls.</translation>
    </message>
    <message>
        <source>cleanup: only list what would be removed.</source>
        <translation>cleanup: nur auflisten, was entfernt würde.</translation>
    </message>
    <message>
        <source>cleanup: remove possible orphans too (matched by their command only).</source>
        <translation>cleanup: auch mögliche verwaiste Prozesse entfernen (nur am Befehl erkannt).</translation>
    </message>
    <message>
        <source>Settings file (cleanup and diagnostics without a running Tether).</source>
        <translation>Einstellungsdatei (cleanup und diagnostics ohne laufendes Tether).</translation>
    </message>
    <message>
        <source>stop, restart, quit (when it stops the service): go ahead even though tool calls run (they are lost).</source>
        <translation>stop, restart, quit (wenn es den Dienst anhält): auch ausführen, wenn Werkzeugaufrufe laufen (sie gehen verloren).</translation>
    </message>
    <message numerus="yes">
        <source>You cleaned up %n orphaned MCP process(es).</source>
        <translation>
            <numerusform>Sie haben %n verwaisten MCP-Prozess beendet.</numerusform>
            <numerusform>Sie haben %n verwaiste MCP-Prozesse beendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>You cleaned up: no orphaned MCP process was left to end.</source>
        <translation>Sie haben aufgeräumt: Kein verwaister MCP-Prozess war mehr zu beenden.</translation>
    </message>
    <message numerus="yes">
        <source>%n could not be ended (Show details says why).</source>
        <translation>
            <numerusform>%n ließ sich nicht beenden („Details anzeigen“ sagt, warum).</numerusform>
            <numerusform>%n ließen sich nicht beenden („Details anzeigen“ sagt, warum).</numerusform>
        </translation>
    </message>
    <message>
        <source>The MCP server %1 uses %2, over its %3 limit: restart it from the menu when it suits you.</source>
        <translation>Der MCP-Server %1 belegt %2, über seiner Grenze von %3: Starten Sie ihn im Menü neu, wenn es Ihnen passt.</translation>
    </message>
    <message>
        <source>The MCP server %1 has kept a processor busy for %2: restart it from the menu when it suits you.</source>
        <translation>Der MCP-Server %1 hält seit %2 einen Prozessor beschäftigt: Starten Sie ihn im Menü neu, wenn es Ihnen passt.</translation>
    </message>
    <message>
        <source> · waiting for its first answer</source>
        <translation> · wartet auf die erste Antwort</translation>
    </message>
    <message>
        <source> · a new one starts next</source>
        <translation> · ein neuer startet gleich</translation>
    </message>
    <message>
        <source> · first answer within %1</source>
        <translation> · erste Antwort binnen %1</translation>
    </message>
</context>
<context>
    <name>tether</name>
    <message>
        <source>Starts at login (%1)</source>
        <translation>Startet beim Anmelden (%1)</translation>
    </message>
    <message>
        <source>Does not start at login: %1 starts another copy of Tether (%2); turn it on to start this one</source>
        <translation>Startet nicht beim Anmelden: %1 startet eine andere Kopie von Tether (%2); einschalten, um diese zu starten</translation>
    </message>
    <message>
        <source>Does not start at login</source>
        <translation>Startet nicht beim Anmelden</translation>
    </message>
    <message>
        <source>%1 starts another program (%2); Tether leaves it alone</source>
        <translation>%1 startet ein anderes Programm (%2); Tether lässt es in Ruhe</translation>
    </message>
    <message>
        <source>Start at login unknown: %1</source>
        <translation>Start beim Anmelden unbekannt: %1</translation>
    </message>
    <message>
        <source>Turned off in System Settings &gt; General &gt; Login Items (Allow in the Background): Tether does not start at login until it is allowed there (%1)</source>
        <translation>In Systemeinstellungen &gt; Allgemein &gt; Anmeldeobjekte (Im Hintergrund erlauben) ausgeschaltet: Tether startet beim Anmelden erst, wenn es dort erlaubt ist (%1)</translation>
    </message>
    <message>
        <source>Disabled in Windows Settings (Startup apps or Task Manager): Tether does not start at login. Turn it on here to start again (%1)</source>
        <translation>In den Windows-Einstellungen deaktiviert (Autostart-Apps oder Task-Manager): Tether startet nicht beim Anmelden. Hier einschalten, damit es wieder startet (%1)</translation>
    </message>
</context>
<context>
    <name>tether::ui::AboutDialog</name>
    <message>
        <source>About Tether</source>
        <translation>Über Tether</translation>
    </message>
    <message>
        <source>Version %1</source>
        <translation>Version %1</translation>
    </message>
    <message>
        <source>Tether&apos;s icon</source>
        <translation>Symbol von Tether</translation>
    </message>
    <message>
        <source>Keeps a local AI agent service and its MCP servers running, without ending one that is only busy.</source>
        <translation>Hält einen lokalen KI-Agenten-Dienst und seine MCP-Server am Laufen, ohne einen zu beenden, der nur beschäftigt ist.</translation>
    </message>
    <message>
        <source>Tether&apos;s website: news, help and the source code</source>
        <translation>Website von Tether: Neuigkeiten, Hilfe und Quellcode</translation>
    </message>
    <message>
        <source>Tether&apos;s website</source>
        <translation>Website von Tether</translation>
    </message>
    <message>
        <source>Licences</source>
        <translation>Lizenzen</translation>
    </message>
    <message>
        <source>Tether&apos;s licence and the notice for Qt</source>
        <translation>Die Lizenz von Tether und der Hinweis zu Qt</translation>
    </message>
    <message>
        <source>Tether</source>
        <translation>Tether</translation>
    </message>
    <message>
        <source>Tether is free software under the MIT licence:</source>
        <translation>Tether ist freie Software unter der MIT-Lizenz:</translation>
    </message>
    <message>
        <source>Qt</source>
        <translation>Qt</translation>
    </message>
    <message>
        <source>Tether uses the Qt toolkit, version %1, under the GNU Lesser General Public License version 3 (LGPLv3). You may replace the Qt libraries Tether uses with your own build of them.</source>
        <translation>Tether nutzt das Qt-Toolkit, Version %1, unter der GNU Lesser General Public License Version 3 (LGPLv3). Sie dürfen die von Tether genutzten Qt-Bibliotheken durch eigene Builds ersetzen.</translation>
    </message>
    <message>
        <source>Qt&apos;s licence and source code: %1</source>
        <translation>Lizenz und Quellcode von Qt: %1</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Schließen</translation>
    </message>
</context>
<context>
    <name>tether::ui::FailurePanel</name>
    <message>
        <source>Why it failed</source>
        <translation>Warum es fehlschlug</translation>
    </message>
    <message>
        <source>The service&apos;s last output</source>
        <translation>Letzte Ausgabe des Dienstes</translation>
    </message>
    <message>
        <source>&amp;Try again</source>
        <translation>Erneut &amp;versuchen</translation>
    </message>
    <message>
        <source>Show &amp;log</source>
        <translation>&amp;Protokoll anzeigen</translation>
    </message>
</context>
<context>
    <name>tether::ui::HealthTimeline</name>
    <message>
        <source>Health timeline</source>
        <translation>Verlauf der Prüfungen</translation>
    </message>
    <message>
        <source>No checks yet.</source>
        <translation>Noch keine Prüfungen.</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <comment>a state, then how long</comment>
        <translation>%1 für %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message numerus="yes">
        <source>%n check(s) went unanswered.</source>
        <translation>
            <numerusform>%n Prüfung blieb unbeantwortet.</numerusform>
            <numerusform>%n Prüfungen blieben unbeantwortet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Slowest answer: %1 ms.</source>
        <translation>Langsamste Antwort: %1 ms.</translation>
    </message>
    <message>
        <source>%1 answer time  %2 no answer  %3 state (its colour)</source>
        <translation>%1 Antwortzeit  %2 keine Antwort  %3 Zustand (seine Farbe)</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>vor %1</translation>
    </message>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>No checks yet</source>
        <translation>Noch keine Prüfungen</translation>
    </message>
</context>
<context>
    <name>tether::ui::OrphanDialog</name>
    <message>
        <source>(unknown program)</source>
        <translation>(unbekanntes Programm)</translation>
    </message>
    <message numerus="yes">
        <source>%n process(es) ended.</source>
        <translation>
            <numerusform>%n Prozess beendet.</numerusform>
            <numerusform>%n Prozesse beendet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n could not be ended: %1.</source>
        <translation>
            <numerusform>%n konnte nicht beendet werden: %1.</numerusform>
            <numerusform>%n konnten nicht beendet werden: %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>MCP servers left running</source>
        <translation>Noch laufende MCP-Server</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>Programm</translation>
    </message>
    <message>
        <source>Running for</source>
        <translation>Läuft seit</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Process ID</source>
        <translation>Prozess-ID</translation>
    </message>
    <message>
        <source>Found</source>
        <translation>Gefunden</translation>
    </message>
    <message>
        <source>&amp;Clean up</source>
        <translation>&amp;Aufräumen</translation>
    </message>
    <message>
        <source>&amp;Ignore</source>
        <translation>&amp;Ignorieren</translation>
    </message>
    <message numerus="yes">
        <source>Ending %n process(es)…</source>
        <translation>
            <numerusform>%n Prozess wird beendet…</numerusform>
            <numerusform>%n Prozesse werden beendet…</numerusform>
        </translation>
    </message>
    <message>
        <source>looks like one</source>
        <translation>sieht so aus</translation>
    </message>
    <message>
        <source>left by a crashed service</source>
        <translation>von einem abgestürzten Dienst</translation>
    </message>
    <message>
        <source>No MCP servers are left running.</source>
        <translation>Es laufen keine MCP-Server mehr.</translation>
    </message>
    <message>
        <source>These MCP servers were started by a service that is no longer running. Checked ones are ended when you click Clean up.</source>
        <translation>Diese MCP-Server wurden von einem Dienst gestartet, der nicht mehr läuft. Die angehakten werden beendet, wenn Sie auf „Aufräumen“ klicken.</translation>
    </message>
    <message>
        <source>These processes look like MCP servers left by an earlier service, but Tether did not start them. Check only the ones you recognise; they are ended when you click Clean up.</source>
        <translation>Diese Prozesse sehen aus wie MCP-Server eines früheren Dienstes, aber Tether hat sie nicht gestartet. Haken Sie nur die an, die Sie erkennen; sie werden beendet, wenn Sie auf „Aufräumen“ klicken.</translation>
    </message>
    <message>
        <source>These MCP servers were started by a service that is no longer running. Checked ones are ended when you click Clean up. Those that only look like one are not checked: check them only if you recognise them.</source>
        <translation>Diese MCP-Server wurden von einem Dienst gestartet, der nicht mehr läuft. Die angehakten werden beendet, wenn Sie auf „Aufräumen“ klicken. Solche, die nur danach aussehen, sind nicht angehakt: Haken Sie sie nur an, wenn Sie sie erkennen.</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Schließen</translation>
    </message>
    <message>
        <source>Process %1: %2</source>
        <translation>Prozess %1: %2</translation>
    </message>
</context>
<context>
    <name>tether::ui::SettingsDialog</name>
    <message>
        <source>Tether settings</source>
        <translation>Tether-Einstellungen</translation>
    </message>
    <message>
        <source>&amp;Restart it</source>
        <translation>&amp;Neu starten</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Abbrechen</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Seiten</translation>
    </message>
    <message>
        <source>Tether starts, quietly in the tray, when you log in.</source>
        <translation>Tether startet beim Anmelden, still im Infobereich.</translation>
    </message>
    <message>
        <source>Fine tuning: the defaults suit most people and services.</source>
        <translation>Feinabstimmung: Die Vorgaben passen für die meisten Menschen und Dienste.</translation>
    </message>
    <message>
        <source>In tether.ini: [%1] %2</source>
        <translation>In tether.ini: [%1] %2</translation>
    </message>
    <message>
        <source>:</source>
        <comment>after a setting&apos;s name</comment>
        <translation>:</translation>
    </message>
    <message>
        <source>Show advanced settin&amp;gs</source>
        <translation>&amp;Mehr Einstellungen zeigen</translation>
    </message>
    <message>
        <source>Recovery, health checks and other tuning most people never change</source>
        <translation>Wiederherstellung, Prüfungen und weitere Feinheiten, die die meisten nie ändern</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>“%1”</source>
        <comment>a setting&apos;s name, quoted</comment>
        <translation>„%1“</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>a setting&apos;s name and its page</comment>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1: %2.</source>
        <translation>%1: %2.</translation>
    </message>
    <message>
        <source> and </source>
        <translation> und </translation>
    </message>
    <message>
        <source>These changes restart the service (it stops now and starts again with the new settings). Continue?</source>
        <translation>Diese Änderungen starten den Dienst neu (er hält jetzt an und startet mit den neuen Einstellungen). Fortfahren?</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>Beim Anmelden starten</translation>
    </message>
</context>
<context>
    <name>tether::ui::StatusWindow</name>
    <message>
        <source>Tether</source>
        <translation>Tether</translation>
    </message>
    <message>
        <source>Tether status</source>
        <translation>Tether-Status</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>What happens next</source>
        <translation>Was als Nächstes geschieht</translation>
    </message>
    <message>
        <source>Version:</source>
        <translation>Version:</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>Port:</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Up for:</source>
        <translation>Läuft seit:</translation>
    </message>
    <message>
        <source>Up for</source>
        <translation>Läuft seit</translation>
    </message>
    <message>
        <source>Restarts:</source>
        <translation>Neustarts:</translation>
    </message>
    <message>
        <source>Restarts</source>
        <translation>Neustarts</translation>
    </message>
    <message>
        <source>Process ID:</source>
        <translation>Prozess-ID:</translation>
    </message>
    <message>
        <source>Process ID</source>
        <translation>Prozess-ID</translation>
    </message>
    <message>
        <source>Activity</source>
        <translation>Tätigkeit</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>&amp;Anhalten</translation>
    </message>
    <message>
        <source>&amp;Open in browser</source>
        <translation>Im Bro&amp;wser öffnen</translation>
    </message>
    <message>
        <source>Show &amp;details</source>
        <translation>&amp;Details anzeigen</translation>
    </message>
    <message>
        <source>Process IDs, and the events as the log has them</source>
        <translation>Prozess-IDs, und die Ereignisse so, wie das Protokoll sie hat</translation>
    </message>
    <message>
        <source>Details of the service</source>
        <translation>Einzelheiten zum Dienst</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>&amp;MCP servers</source>
        <translation>&amp;MCP-Server</translation>
    </message>
    <message>
        <source>&amp;Health</source>
        <translation>&amp;Zustand</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>&amp;Ereignisse</translation>
    </message>
    <message>
        <source> · started outside Tether</source>
        <translation> · außerhalb von Tether gestartet</translation>
    </message>
    <message>
        <source>&amp;MCP servers (%1)</source>
        <translation>&amp;MCP-Server (%1)</translation>
    </message>
    <message>
        <source>The service has no MCP servers.</source>
        <translation>Der Dienst hat keine MCP-Server.</translation>
    </message>
    <message>
        <source>The service is not running.</source>
        <translation>Der Dienst läuft nicht.</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>Neu verbinden</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>an action, then the MCP server it acts on</comment>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Its MCP servers show here once it answers.</source>
        <translation>Seine MCP-Server erscheinen hier, sobald er antwortet.</translation>
    </message>
    <message>
        <source>⚠ &amp;MCP servers (%1)</source>
        <translation>⚠ &amp;MCP-Server (%1)</translation>
    </message>
    <message>
        <source>Clean &amp;up…</source>
        <translation>A&amp;ufräumen…</translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n orphaned MCP process(es)</source>
        <translation>
            <numerusform>⚠ %n verwaister MCP-Prozess</numerusform>
            <numerusform>⚠ %n verwaiste MCP-Prozesse</numerusform>
        </translation>
    </message>
    <message>
        <source>Update and &amp;restart</source>
        <translation>A&amp;ktualisieren und neu starten</translation>
    </message>
</context>
</TS>
