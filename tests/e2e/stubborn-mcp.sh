#!/bin/sh
# A stubborn MCP server for the end-to-end tests: it runs a real MCP server (node SCRIPT ARGS...)
# and neither this shell nor the node process ends on SIGTERM, SIGHUP or stdin EOF.
# node resets inherited signal dispositions at start-up (`trap '' TERM; exec node` does not
# survive SIGTERM), so the node side ignores them itself in stubborn-mcp.mjs; the shell stays as
# the parent so the process keeps the shebang shape opencode's command array names.
trap '' TERM HUP
node "$(dirname "$0")/stubborn-mcp.mjs" "$@"
# The server ended (stdin EOF): keep holding on, like the leaked servers seen in the field.
while :; do sleep 3600; done
