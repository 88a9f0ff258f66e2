import { createContext, runInContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { randomNonce, sandboxContentSecurityPolicy, sandboxFrameDocument } from "./sandbox-frame-document.ts";
import type { FrameToPage } from "./sandbox-frame-script.ts";
import { SANDBOX_LIMITS } from "./sandbox-protocol.ts";

describe("sandboxFrameDocument", () => {
  it("carries a policy without network, then one inline script allowed by its nonce", () => {
    const nonce = randomNonce();
    const html = sandboxFrameDocument(nonce);
    const policy = sandboxContentSecurityPolicy(nonce);
    expect(policy).toMatch(/^default-src 'none'; /);
    expect(policy).not.toMatch(/https?:|\*|'self'|data:/);
    // The policy comes first, before any script.
    expect(html.indexOf(`<meta http-equiv="Content-Security-Policy" content="${policy}">`)).toBeGreaterThan(0);
    expect(html.indexOf("<meta")).toBeLessThan(html.indexOf("<script"));
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="${nonce}">`);
  });

  it("refuses a nonce that could break out of the attribute", () => {
    expect(() => sandboxFrameDocument('x" onload="alert(1)')).toThrow(/nonce/);
  });
});

/** Runs the frame document's script in an empty context with a stand-in parent and Worker. */
function loadFrameScript() {
  const html = sandboxFrameDocument("bm9uY2U=");
  const script = /<script nonce="[^"]+">([\s\S]*)<\/script>/.exec(html)?.[1] ?? "";
  const listeners: ((event: unknown) => void)[] = [];
  const workers: FakeWorker[] = [];
  class FakeWorker {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    posted: unknown[] = [];
    constructor(readonly url: string) {
      workers.push(this);
    }
    postMessage(message: unknown) {
      this.posted.push(message);
    }
  }
  const parent = {};
  const context = createContext({
    parent,
    addEventListener: (_type: string, listener: (event: unknown) => void) => listeners.push(listener),
    Worker: FakeWorker,
    Blob: class {},
    URL: { createObjectURL: () => "blob:null/1" },
  });
  runInContext(script, context);
  const toPage: FrameToPage[] = [];
  const port = { onmessage: null as ((event: { data: unknown }) => void) | null, postMessage: (message: FrameToPage) => toPage.push(JSON.parse(JSON.stringify(message))) };
  for (const listener of listeners) listener({ source: parent, ports: [port] });
  return { port, toPage, workers, listeners };
}

describe("the frame's script", () => {
  it("answers pings, starts one worker for a run and relays its reply", () => {
    const { port, toPage, workers } = loadFrameScript();
    expect(toPage).toEqual([{ type: "ready" }]);
    port.onmessage?.({ data: { type: "ping" } });
    expect(toPage).toEqual([{ type: "ready" }, { type: "pong" }]);
    port.onmessage?.({ data: { type: "run", code: "1 + 1" } });
    port.onmessage?.({ data: { type: "run", code: "again" } });
    expect(workers).toHaveLength(1);
    expect(workers[0]?.posted).toEqual([{ code: "1 + 1" }]);
    workers[0]?.onmessage?.({ data: { ok: true, result: 2, logs: ["hi"] } });
    expect(toPage.at(-1)).toEqual({ type: "reply", reply: { ok: true, result: 2, logs: ["hi"] } });
  });

  it("takes its port only from the page that made it, and only once", () => {
    const { listeners, port, workers } = loadFrameScript();
    const intruder = { onmessage: null as unknown, postMessage: () => undefined };
    for (const listener of listeners) listener({ source: {}, ports: [intruder] });
    for (const listener of listeners) listener({ source: undefined, ports: [intruder] });
    expect(intruder.onmessage).toBeNull();
    port.onmessage?.({ data: { type: "run", code: "1" } });
    expect(workers).toHaveLength(1);
  });

  it("cuts an oversized reply again, whatever the worker's own code did", () => {
    const { port, toPage, workers } = loadFrameScript();
    port.onmessage?.({ data: { type: "run", code: "x" } });
    workers[0]?.onmessage?.({ data: { ok: true, result: "x".repeat(1e6), logs: Array.from({ length: 1000 }, () => "y".repeat(1000)), extra: "dropped" } });
    const message = toPage.at(-1) as Extract<FrameToPage, { type: "reply" }>;
    expect(message.type).toBe("reply");
    expect(JSON.stringify(message).length).toBeLessThan(SANDBOX_LIMITS.maxResultChars + SANDBOX_LIMITS.maxLogChars + 2_000);
    expect(message.reply).toMatchObject({ ok: true, resultTruncated: true, logsTruncated: true, result: expect.stringMatching(/\[cut at 10000 characters: the result had 1000002\]$/) });
    expect(message.reply).not.toHaveProperty("extra");

    const second = loadFrameScript();
    second.port.onmessage?.({ data: { type: "run", code: "x" } });
    second.workers[0]?.onmessage?.({ data: { ok: false, error: { name: "Error", message: "m".repeat(1e6) }, logs: [] } });
    expect(JSON.stringify(second.toPage.at(-1)).length).toBeLessThan(SANDBOX_LIMITS.maxErrorChars + 500);
  });

  it("reports a reply in an unknown shape as a failure", () => {
    const { port, toPage, workers } = loadFrameScript();
    port.onmessage?.({ data: { type: "run", code: "x" } });
    workers[0]?.onmessage?.({ data: "forged" });
    expect(toPage.at(-1)).toEqual({ type: "failed", message: "the sandbox sent back a reply in an unknown shape" });
  });
});
