// A server on 127.0.0.1 that records everything that reaches it: every TCP connection, every
// HTTP request, every WebSocket upgrade. It answers generously (CORS allowed, a JavaScript module
// for *.js), so a request that is sent at all would succeed; a sandbox that holds leaves it
// with nothing recorded.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordingServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** What reached the server, in order: "connection", "GET /path", "upgrade /path". */
  hits: string[];
  close: () => Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    const isScript = /\.js(\?|$)/.test(request.url ?? "");
    response.writeHead(200, { "content-type": isScript ? "text/javascript" : "text/plain", "access-control-allow-origin": "*" });
    response.end(isScript ? 'export const x = "LEAKED"; self.leaked = true;' : "LEAKED");
  });
  server.on("connection", (socket) => {
    hits.push("connection");
    socket.on("error", () => undefined);
  });
  server.on("upgrade", (request, socket) => {
    hits.push(`upgrade ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
