// A fake OpenAI-compatible model for end-to-end tests: no network, no real model. The first
// chat completion of a conversation streams ONE tool call; the next one (the request that carries
// the tool result) streams a short text and stops. opencode reaches it through a custom provider
// ("npm": "@ai-sdk/openai-compatible", "options": {"baseURL": "http://127.0.0.1:PORT/v1"}).
//
// Usage: node fake_model_server.mjs [--port N] [--tool NAME] [--args JSON] [--text TEXT]
// Port 0 (the default) picks a free one; the first stdout line is "listening PORT".
// Every request is logged to stderr as one line (method, path, whether it carried a tool result).
import http from 'node:http';

const opts = { port: 0, tool: 'everything_trigger-long-running-operation',
               args: '{"duration": 30, "steps": 3}', text: 'Done: the tool finished.' };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in opts) || process.argv[i + 1] === undefined) {
    process.stderr.write(`unknown or incomplete option ${process.argv[i]}\n`);
    process.exit(2);
  }
  opts[key] = key === 'port' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}
JSON.parse(opts.args); // fail at start, not mid-stream, on bad arguments

let calls = 0;
const sse = (res, obj) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
const chunk = (id, model, delta, finish = null) => ({
  id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model,
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', () => {
    if (req.method === 'GET' && req.url.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake', object: 'model' }] }));
      return;
    }
    if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    let request = {};
    try { request = JSON.parse(body); } catch { /* answered as a first turn */ }
    const messages = Array.isArray(request.messages) ? request.messages : [];
    // The turn's last message a tool result: the tool ran, so answer with text. Only the last
    // one counts, so each new prompt in the same session calls the tool again. opencode also
    // asks for a session title with a separate request that has no tools: answer it with text.
    const last = messages.length ? messages[messages.length - 1] : {};
    const hasToolResult = last.role === 'tool';
    const offersTools = Array.isArray(request.tools) && request.tools.length > 0;
    const callTool = offersTools && !hasToolResult;
    calls += 1;
    process.stderr.write(`request ${calls} ${req.method} ${req.url} stream=${!!request.stream} ` +
                         `tools=${offersTools ? request.tools.length : 0} toolResult=${hasToolResult} ` +
                         `-> ${callTool ? 'tool call' : 'text'}\n`);
    const id = `chatcmpl-fake-${calls}`;
    const model = request.model || 'fake';
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'chat.completion', model, choices: [{ index: 0,
        message: { role: 'assistant', content: opts.text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache',
                         connection: 'keep-alive' });
    if (callTool) {
      sse(res, chunk(id, model, { role: 'assistant', content: null, tool_calls: [{ index: 0,
        id: `call_fake_${calls}`, type: 'function',
        function: { name: opts.tool, arguments: '' } }] }));
      sse(res, chunk(id, model, { tool_calls: [{ index: 0, function: { arguments: opts.args } }] }));
      sse(res, chunk(id, model, {}, 'tool_calls'));
    } else {
      sse(res, chunk(id, model, { role: 'assistant', content: opts.text }));
      sse(res, chunk(id, model, {}, 'stop'));
    }
    sse(res, { ...chunk(id, model, {}), choices: [],
               usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    res.end('data: [DONE]\n\n');
  });
});
server.listen(opts.port, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
