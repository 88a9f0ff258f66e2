import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseByteRange, serveModelRequest } from "./serve-models.ts";

describe("byte ranges", () => {
  it("reads closed, open and suffix ranges, and refuses what lies past the file", () => {
    expect(parseByteRange(undefined, 100)).toBeNull();
    expect(parseByteRange("bytes=0-9", 100)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange("bytes=90-", 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange("bytes=-10", 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange("bytes=95-200", 100)).toEqual({ start: 95, end: 99 });
    expect(parseByteRange("bytes=100-", 100)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=0-1,5-6", 100)).toBe("unsatisfiable");
  });
});

describe("the models route of the dev and preview servers", () => {
  let cache: string;
  let server: Server;
  let base: string;
  const previous = process.env.TOOLCALL_LAB_CACHE;
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

  beforeAll(async () => {
    cache = mkdtempSync(join(tmpdir(), "lab-cache-"));
    process.env.TOOLCALL_LAB_CACHE = cache;
    // SmolLM2's file is "present" (a stand-in of 256 bytes); Gemma's is missing.
    mkdirSync(join(cache, "models", "smollm2-135m-instruct-q4_1"), { recursive: true });
    writeFileSync(join(cache, "models", "smollm2-135m-instruct-q4_1", "SmolLM2-135M-Instruct.Q4_1.gguf"), bytes);
    // The stand-in is served as if its sha256 were checked; the check itself is tested below.
    server = createServer((req, res) => {
      const check = req.headers["x-check"] === "sha256" ? undefined : () => undefined;
      if (!serveModelRequest(req, res, check)) {
        res.statusCode = 418;
        res.end("next");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(cache, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TOOLCALL_LAB_CACHE;
    else process.env.TOOLCALL_LAB_CACHE = previous;
  });

  it("serves a cached model whole, and in parts", async () => {
    const whole = await fetch(`${base}/models/smollm2-135m-instruct-q4_1.gguf`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
    const part = await fetch(`${base}/models/smollm2-135m-instruct-q4_1.gguf`, { headers: { Range: "bytes=10-19" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 10-19/256");
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20));
    const head = await fetch(`${base}/models/smollm2-135m-instruct-q4_1.gguf`, { method: "HEAD" });
    expect(head.headers.get("content-length")).toBe("256");
  });

  it("says to run `npm run models` for a model not fetched yet, and names what it does not know", async () => {
    const missing = await fetch(`${base}/models/gemma-3-270m-q4_k_m.gguf`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Run `npm run models`");
    const unknown = await fetch(`${base}/models/nope.gguf`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('No model "nope"');
  });

  it("serves a cached file only once its sha256 is the manifest's: a stand-in of another content is refused, saying so", async () => {
    const refused = await fetch(`${base}/models/smollm2-135m-instruct-q4_1.gguf`, { headers: { "x-check": "sha256" } });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toMatch(/^The cached file of SmolLM2 135M Instruct \(Q4_1\) is not the manifest's \(.* is 256 bytes, not the manifest's 98362432\)\. Run `npm run models`/);
  });

  it("leaves every other address to the next handler", async () => {
    expect((await fetch(`${base}/index.html`)).status).toBe(418);
  });
});
