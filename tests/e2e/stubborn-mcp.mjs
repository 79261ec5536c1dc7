// Runs the MCP server module given as the first argument, ignoring SIGTERM, SIGHUP and stdin EOF.
process.on('SIGTERM', () => {});
process.on('SIGHUP', () => {});
setInterval(() => {}, 1 << 30); // keeps the event loop alive after stdin closes
const [node, , server, ...rest] = process.argv;
process.argv = [node, server, ...rest]; // the server reads its own arguments from argv[2]
await import(server);
