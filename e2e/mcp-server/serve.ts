// Runs the tests' MCP server by hand, to try the lab's MCP panel:
//   npx tsx e2e/mcp-server/serve.ts --origin http://localhost:5173 --port 3000
// --origin is the page origin CORS allows ("none" sends no CORS headers, to see the refusal);
// --token makes it require "Authorization: Bearer <token>"; --sse serves the old HTTP+SSE transport.
import { parseArgs } from "node:util";
import { startTestServer } from "./test-server.ts";

const { values } = parseArgs({
  options: {
    origin: { type: "string", default: "http://localhost:5173" },
    port: { type: "string", default: "3000" },
    token: { type: "string" },
    sse: { type: "boolean", default: false },
  },
});

const server = await startTestServer({
  port: Number(values.port),
  allowOrigin: values.origin === "none" ? null : values.origin,
  ...(values.token ? { token: values.token } : {}),
  transport: values.sse ? "sse" : "streamable-http",
});
console.log(`MCP test server at ${server.url} (CORS: ${values.origin}${values.token ? ", token required" : ""}${values.sse ? ", HTTP+SSE" : ""}). Ctrl+C stops it.`);
process.on("SIGINT", () => void server.stop().then(() => process.exit(0)));
