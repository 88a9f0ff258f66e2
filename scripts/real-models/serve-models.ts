// A Vite plugin for the dev and preview servers: serves each model of models/models.json from the
// per-user cache at /models/<id>.gguf, so the page loads real weights without any in git. Range
// requests are answered (a loader may read a GGUF in parts); a model not fetched yet is a 404
// whose text says how to fetch it.
import { createReadStream, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Plugin } from "vite";
import { cachedModelProblem, modelPath, readManifest, type ManifestModel } from "./cache-dir.mjs";

export const MODELS_URL_PREFIX = "/models/";

/** Parses one `bytes=a-b` range (suffix and open ranges too) against a file's size; null when unsatisfiable or absent. */
export function parseByteRange(header: string | undefined, size: number): { start: number; end: number } | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return "unsatisfiable";
  const [, from, to] = match;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.end(text);
}

/** Answers a request for /models/<id>.gguf; returns false for any other address. */
/** `check` says why a cached model may not be served (default: its sha256, once per file identity and time). */
export function serveModelRequest(req: IncomingMessage, res: ServerResponse, check: (model: ManifestModel) => string | undefined = cachedModelProblem): boolean {
  const path = (req.url ?? "").split("?")[0] ?? "";
  if (!path.startsWith(MODELS_URL_PREFIX) || !path.endsWith(".gguf")) return false;
  const id = decodeURIComponent(path.slice(MODELS_URL_PREFIX.length, -".gguf".length));
  const model = readManifest().models.find((m) => m.id === id);
  if (!model) {
    sendText(res, 404, `No model "${id}" in models/models.json.`);
    return true;
  }
  const file = modelPath(model);
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    sendText(res, 404, `The model ${model.label} is not downloaded on this machine (expected at ${file}). Run \`npm run models\` to fetch it, then load it again.`);
    return true;
  }
  // Served only once its sha256 is the manifest's (hashed once per file identity and time).
  const problem = check(model);
  if (problem) {
    sendText(res, 409, `The cached file of ${model.label} is not the manifest's (${problem}). Run \`npm run models\` to fetch it again, then load it again.`);
    return true;
  }
  res.setHeader("Accept-Ranges", "bytes");
  res.setHeader("Content-Type", "application/octet-stream");
  // The page may be cross-origin isolated (COEP): a same-origin resource says it may be embedded.
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  const range = parseByteRange(req.headers.range, size);
  if (range === "unsatisfiable") {
    res.setHeader("Content-Range", `bytes */${size}`);
    sendText(res, 416, "Range not satisfiable.");
    return true;
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  res.statusCode = range ? 206 : 200;
  if (range) res.setHeader("Content-Range", `bytes ${start}-${end}/${size}`);
  res.setHeader("Content-Length", String(end - start + 1));
  if (req.method === "HEAD") {
    res.end();
    return true;
  }
  const stream = createReadStream(file, { start, end });
  stream.on("error", (error) => res.destroy(error));
  stream.pipe(res);
  return true;
}

export function serveModels(): Plugin {
  const middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!serveModelRequest(req, res)) next();
  };
  return {
    name: "toolcall-lab:serve-models",
    configureServer(server) {
      server.middlewares.use(middleware);
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware);
    },
  };
}
