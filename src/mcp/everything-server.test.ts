// The connection against the reference server, @modelcontextprotocol/server-everything (npm),
// hosted on 127.0.0.1 by the tests' fixture: resources, templates, prompts, progress,
// cancellation, log messages, elicitation and sampling as the lab's client speaks them.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EVERYTHING_SERVER_NAME, startEverythingServer, type RunningEverythingServer } from "../../e2e/mcp-server/everything-server.ts";
import { connectMcp, type ConnectOptions, type McpConnection } from "./mcp-connection.ts";
import type { McpLogEntry } from "./mcp-features.ts";

let server: RunningEverythingServer;
let connection: McpConnection | null = null;

beforeEach(async () => {
  server = await startEverythingServer({ allowOrigin: "http://lab.test" });
});

afterEach(async () => {
  await connection?.close();
  connection = null;
  await server.stop();
});

function options(extra: Partial<ConnectOptions> = {}): ConnectOptions {
  return { url: server.url, headers: {}, origin: "http://lab.test", onToolsChanged: () => undefined, onDropped: () => undefined, ...extra };
}

function until(condition: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (condition() ? resolve() : setTimeout(check, 10));
    check();
  });
}

const textOf = (result: { content?: unknown }) => (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? "").join("");

describe("the reference server", () => {
  it("connects and says what it offers besides tools", async () => {
    connection = await connectMcp(options());
    expect(connection.serverName).toBe(EVERYTHING_SERVER_NAME);
    expect(connection.capabilities).toEqual({ resources: true, subscribe: true, prompts: true, logging: true });
    const echo = connection.tools.find((tool) => tool.name === "echo");
    expect(echo?.annotations?.readOnlyHint).toBe(true);
  });

  it("lists and reads resources, and expands a template into an address it can read", async () => {
    connection = await connectMcp(options());
    const resources = await connection.listResources();
    expect(resources.items.length).toBeGreaterThan(0);
    expect(resources.total).toBe(resources.items.length);
    const first = resources.items[0]!;
    const [read] = await connection.readResource(first.uri);
    expect(read?.uri).toBe(first.uri);
    expect(read?.text.length).toBeGreaterThan(0);

    const templates = await connection.listResourceTemplates();
    const text = templates.items.find((template) => template.uriTemplate.includes("/text/"));
    expect(text?.uriTemplate).toBe("demo://resource/dynamic/text/{resourceId}");
    const uri = connection.expandTemplate(text!.uriTemplate, { resourceId: "7" });
    expect(uri).toBe("demo://resource/dynamic/text/7");
    const [dynamic] = await connection.readResource(uri);
    expect(dynamic?.text).toMatch(/^Resource 7: This is a plaintext resource/);
  });

  it("lists prompts and gets one filled with its arguments", async () => {
    connection = await connectMcp(options());
    const prompts = await connection.listPrompts();
    const args = prompts.items.find((prompt) => (prompt.arguments ?? []).some((argument) => argument.name === "city"));
    expect(args).toBeDefined();
    const result = await connection.getPrompt(args!.name, { city: "Lyon", state: "Rhône" });
    expect(JSON.stringify(result.messages)).toContain("Lyon");
  });

  it("passes the server's progress notifications to the call", async () => {
    connection = await connectMcp(options());
    const progress: Array<{ progress: number; total?: number }> = [];
    const result = await connection.callTool("trigger-long-running-operation", { duration: 0.3, steps: 3 }, {
      signal: new AbortController().signal,
      timeoutMs: 30_000,
      onProgress: (p) => progress.push(p),
    });
    expect(textOf(result)).toContain("Long running operation completed");
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it("sends notifications/cancelled for a call that is stopped", async () => {
    connection = await connectMcp(options());
    const stop = new AbortController();
    const call = connection.callTool("trigger-long-running-operation", { duration: 30, steps: 30 }, { signal: stop.signal, timeoutMs: 60_000 });
    await until(() => server.received().some((message) => "method" in message && message.method === "tools/call"));
    stop.abort();
    await expect(call).rejects.toThrow();
    await until(() => server.received().some((message) => "method" in message && message.method === "notifications/cancelled"));
    const sentCall = server.received().find((message) => "method" in message && message.method === "tools/call") as unknown as { id: number };
    const cancel = server.received().find((message) => "method" in message && message.method === "notifications/cancelled") as unknown as { params: { requestId: number } };
    expect(cancel.params.requestId).toBe(sentCall.id);
  });

  it("hands the server's log messages to the panel", async () => {
    const log: McpLogEntry[] = [];
    connection = await connectMcp(options({ onLog: (entry) => log.push(entry) }));
    await connection.callTool("toggle-simulated-logging", {}, { signal: new AbortController().signal, timeoutMs: 30_000 });
    await until(() => log.length > 0);
    expect(log[0]?.text.length).toBeGreaterThan(0);
    expect(typeof log[0]?.level).toBe("string");
  });

  it("answers an elicitation with what the person chose (accept, decline, cancel)", async () => {
    const answers = [
      { action: "accept" as const, content: { name: "Ada" } },
      { action: "decline" as const },
      { action: "cancel" as const },
    ];
    const asked: string[] = [];
    connection = await connectMcp(
      options({
        onElicit: async (params) => {
          asked.push(params.message);
          return answers.shift()!;
        },
      }),
    );
    const call = () => connection!.callTool("trigger-elicitation-request", {}, { signal: new AbortController().signal, timeoutMs: 30_000 });
    expect(textOf(await call())).toContain("Ada");
    expect(textOf(await call())).toMatch(/declin/i);
    expect(textOf(await call())).toMatch(/cancel/i);
    expect(asked).toHaveLength(3);
  });

  it("runs a sampling request through the call's handler, and refuses one when the handler refuses", async () => {
    connection = await connectMcp(options());
    const requests: string[] = [];
    const result = await connection.callTool("trigger-sampling-request", { prompt: "Say hi", maxTokens: 20 }, {
      signal: new AbortController().signal,
      timeoutMs: 30_000,
      sample: async (params) => {
        requests.push(JSON.stringify(params.messages));
        return { role: "assistant", content: { type: "text", text: "hi from the lab" }, model: "test-model", stopReason: "endTurn" };
      },
    });
    expect(requests[0]).toContain("Say hi");
    expect(textOf(result)).toContain("hi from the lab");

    const refused = await connection.callTool("trigger-sampling-request", { prompt: "again", maxTokens: 20 }, {
      signal: new AbortController().signal,
      timeoutMs: 30_000,
      sample: async () => {
        throw new Error("The person refused this sampling request.");
      },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("refused");
  });
});
