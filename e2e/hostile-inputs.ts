// The inputs of hardening round 3 (issue 29) that froze the page, made the same way for the e2e
// tests (which check what the page says) and the UI bench (which prints the long tasks).
import type { Page } from "@playwright/test";
import { createConversation } from "../src/domain/conversation.ts";
import { exportConversation } from "../src/store/conversation-export.ts";

/**
 * A version-2 export whose every step's prompt is the one before it twice, by reference ("billion
 * laughs"): `steps` steps from a 300-character first prompt. 18 steps: a few kilobytes that stood
 * for 78 million characters.
 */
export function laughsFile(steps = 18): string {
  const head = exportConversation({ ...createConversation(5), title: "Laughs", events: [] });
  const records: unknown[] = [{ type: "run-start", runId: "r", at: 1, protocol: "hermes", messages: [{ role: "user", content: "hi" }], tools: [], limits: { maxSteps: 40, toolTimeoutMs: 1000 } }];
  let length = 300;
  for (let i = 0; i < steps; i++) {
    const prompt = i === 0 ? "P".repeat(length) : { $: "prefix", n: i - 1, keep: length / 2, plus: [{ $: "str", n: i - 1 }] };
    records.push({ type: "step-start", runId: "r", at: 2 + i, stepId: `s${i}`, index: i, protocol: "hermes", messages: [{ role: "user", content: "hi" }], templateMessages: [], prompt, template: "chatml", settings: {} });
    records.push({ type: "step-end", runId: "r", at: 2 + i, stepId: `s${i}`, status: "final", durationMs: 1 });
    length *= 2;
  }
  return JSON.stringify({ ...head, events: records });
}

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
}

function base64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A playground link hash (#pg=…) made by hand from any state, bypassing the page's own bounds. */
export async function playgroundHash(state: Record<string, unknown>): Promise<string> {
  return `#pg=${base64Url(await deflateRaw(new TextEncoder().encode(JSON.stringify(state))))}`;
}

const playgroundState = { output: "", protocol: "hermes", toolSource: "built-in", pastedTools: "", chunking: { kind: "whole" } };

/** A link of about 31 KB whose state inflates to 24 MB of output. */
export function linkBomb(): Promise<string> {
  return playgroundHash({ ...playgroundState, output: "x".repeat(24_000_000) });
}

/** A link whose pasted tool schema nests `levels` deep. */
export function deepSchemaLink(levels = 100_000): Promise<string> {
  const schema = `{"type": "object", "properties": {"a": ${'{"type": "array", "items": '.repeat(levels)}{"type": "string"}${"}".repeat(levels)}}}`;
  return playgroundHash({ ...playgroundState, toolSource: "pasted", pastedTools: `{"name": "deep", "description": "", "parameters": ${schema}}`, output: '<tool_call>\n{"name": "deep", "arguments": {}}\n</tool_call>' });
}

/** A reply of about `chars` characters of unfinished calls, the kind "Parse as…" took seconds on. */
export function pathologicalOutput(chars = 1_000_000): string {
  const unit = '<tool_call>{"name": "calculator", "arguments": {"expression": "1';
  return `${unit}}}</tool_call>\n${"<tool_call>{\n".repeat(Math.floor(chars / 13))}`;
}

/** A results file of `n` results, each with its own protocol and category. */
export function distinctResultsFile(n: number): string {
  const results = Array.from({ length: n }, (_, i) => ({ id: `cat${i}_0`, category: `cat${i}`, repeat: 0, protocol: `proto${i}`, mode: "prompt", constrained: false, pass: i % 3 !== 0, strictPass: i % 2 === 0, reason: "", calls: [] }));
  return JSON.stringify({ results, summary: [] });
}

interface LongTaskWindow {
  __longTasks?: { start: number; duration: number }[];
}

/** Installed before the page loads: every main-thread long task, with its start. */
export async function recordLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const store: { start: number; duration: number }[] = [];
    (window as LongTaskWindow).__longTasks = store;
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) store.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: "longtask", buffered: true });
    } catch {
      // No Long Tasks API: figures say "unavailable".
    }
  });
}

export interface LongTasks {
  over200: number;
  longestMs: number;
}

/** Long tasks since `since` (performance.now() on the page); null without the Long Tasks API. */
export async function longTasksSince(page: Page, since: number): Promise<LongTasks | null> {
  return page.evaluate((from) => {
    const tasks = (window as LongTaskWindow).__longTasks;
    if (!tasks || !PerformanceObserver.supportedEntryTypes?.includes("longtask")) return null;
    const after = tasks.filter((t) => t.start >= from);
    return { over200: after.filter((t) => t.duration > 200).length, longestMs: Math.round(Math.max(0, ...after.map((t) => t.duration))) };
  }, since);
}

export function describeLongTasks(label: string, tasks: LongTasks | null): string {
  return `${label}: ${tasks === null ? "long tasks unavailable (no Long Tasks API)" : `${tasks.over200} long tasks over 200 ms (longest ${tasks.longestMs} ms)`}`;
}

/** Hands a file to a page's file input from a same-origin URL (no base64 decoding on the page's main thread). */
export async function dropFile(page: Page, inputTestId: string, name: string, body: string): Promise<void> {
  const path = `/__hostile/${name}`;
  await page.route((url) => url.pathname === path, (route) => route.fulfill({ contentType: "application/json", body }));
  await page.evaluate(
    async ({ path, name, inputTestId }) => {
      const bytes = await (await fetch(path)).blob();
      const input = document.querySelector<HTMLInputElement>(`[data-testid=${inputTestId}]`);
      if (!input) throw new Error(`no input ${inputTestId}`);
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: "application/json" }));
      input.files = transfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    },
    { path, name, inputTestId },
  );
}

/** An imported native-mode conversation of one step whose server-rendered prompt is `serverPromptText`. */
export function nativeServerPromptSession(serverPromptText: string) {
  const base = { runId: "flood-run", at: 1_700_000_000_000 };
  const user = { role: "user", content: "Hi" };
  const answer = { role: "assistant", content: "Hello", protocol: "native" };
  const request = { model: "m", messages: [{ role: "user", content: "Hi" }], tools: [{ type: "function", function: { name: "calculator", parameters: { type: "object" } } }] };
  return {
    format: "toolcall-lab/conversation",
    version: 1,
    title: "Server prompt flood",
    events: [
      { ...base, type: "run-start", protocol: "native", messages: [user], tools: [], limits: { maxSteps: 4, toolTimeoutMs: 1000 } },
      {
        ...base,
        type: "step-start",
        stepId: "s1",
        index: 0,
        protocol: "native",
        messages: [user],
        templateMessages: [],
        prompt: "",
        template: "server template (native tool calling)",
        settings: {},
        request,
        serverPrompt: { text: serverPromptText },
      },
      { ...base, type: "output-delta", stepId: "s1", text: "Hello", offset: 0 },
      { ...base, type: "parse", stepId: "s1", event: { type: "text", text: "Hello", span: { start: 0, end: 5 } } },
      { ...base, type: "step-end", stepId: "s1", status: "final", durationMs: 5 },
      { ...base, type: "message", message: answer },
      { ...base, type: "run-end", status: "final", messages: [user, answer] },
    ],
  };
}

/** An imported conversation of one step of `count` one-character tokens with their probabilities, `perDelta` to an output delta. */
export function tokenFloodSession(count: number, perDelta: number, alternatives = true) {
  const base = { runId: "r", at: 1_700_000_000_000 };
  const user = { role: "user", content: "Hi" };
  const deltas = Array.from({ length: Math.ceil(count / perDelta) }, (_, d) => {
    const tokens = Array.from({ length: Math.min(perDelta, count - d * perDelta) }, (_, i) => ({ text: String((d * perDelta + i) % 10), p: 0.5, ...(alternatives ? { top: [{ text: "x", p: 0.25 }] } : {}) }));
    return { ...base, type: "output-delta", stepId: "s1", text: tokens.map((t) => t.text).join(""), offset: d * perDelta, tokens };
  });
  const text = deltas.map((d) => d.text).join("");
  const answer = { role: "assistant", content: text, protocol: "hermes" };
  return {
    format: "toolcall-lab/conversation",
    version: 1,
    title: "Token flood",
    events: [
      { ...base, type: "run-start", protocol: "hermes", messages: [user], tools: [], limits: { maxSteps: 4, toolTimeoutMs: 1000 } },
      { ...base, type: "step-start", stepId: "s1", index: 0, protocol: "hermes", messages: [user], templateMessages: [], prompt: "P", template: "chatml", settings: {}, probabilities: { topK: 1 } },
      ...deltas,
      { ...base, type: "parse", stepId: "s1", event: { type: "text", text, span: { start: 0, end: text.length } } },
      { ...base, type: "step-end", stepId: "s1", status: "final", durationMs: 5 },
      { ...base, type: "message", message: answer },
      { ...base, type: "run-end", status: "final", messages: [user, answer] },
    ],
  };
}
