// Prefix reuse and constrained tool calls through the app. WebLLM's own engine runs in the
// harness's worker with the scripted stand-in for the GPU (which counts what WebLLM prefills);
// the page is the app, talking to it with its own client. The replay part needs no harness.
import { expect, test, type Page } from "@playwright/test";
import type { ScriptedGeneration } from "../src/engine/webllm/testing/scripted-pipeline.ts";
import { hermesProtocol } from "toolcall-middleware/protocols/hermes/protocol.ts";
import type { ChatTurns, EngineChunk, ToolSpec } from "toolcall-middleware/types.ts";
import { openLab, send, shownPrompt } from "./lab-helpers.ts";
import { buildAndServeHarness, type HarnessServer } from "./webllm-harness/serve.ts";

const MODEL = "Qwen3-0.6B-q4f32_1-MLC";
const CALL = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "6 * 7"}}\n</tool_call>';

test.describe("WebLLM's chat path in the app", () => {
  let harness: HarnessServer;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    harness = await buildAndServeHarness();
  });
  test.afterAll(async () => {
    await harness?.close();
  });

  async function openApp(page: Page, scripts: ScriptedGeneration[]) {
    await page.goto(`${harness.url}?engine=webllm`);
    await page.waitForFunction(() => typeof window.harness === "object");
    await page.evaluate((s) => window.harness.script(s), scripts);
    await page.getByTestId("model-select").selectOption(MODEL);
    await page.getByTestId("load-model-button").click();
    await expect(page.getByTestId("engine-status")).toHaveAttribute("data-state", "ready");
  }

  test("step 2 of a tool loop prefills only its new part; the cache holds exactly the prompt the debugger shows, and the debugger says so", async ({ page }) => {
    const first = `<think>\nThe calculator can do it.\n</think>\n\n${CALL}`;
    await openApp(page, [{ output: first }, { output: "<think>\nDone.\n</think>\n\n6 × 7 = 42." }]);
    await send(page, "What is 6 × 7?");
    await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
    await expect(page.getByTestId("step-item")).toHaveCount(2);

    const state = await page.evaluate(() => window.harness.state());
    const [round1, round2] = state.records;
    expect(round2!.prefilledTokens).toBeLessThan(round1!.prefilledTokens / 4);
    // The new round begins with the end of the reply before it, which WebLLM's cache lacks.
    expect(round2!.prompt.startsWith("<|im_end|>\n<|im_start|>user\n<tool_response>")).toBe(true);

    await page.locator('[data-testid=step-item][data-status="final"]').click();
    await expect(page.getByTestId("step-prefill")).toContainText(`${round2!.prefilledTokens.toLocaleString("en-US")} tokens prefilled`);
    await expect(page.getByTestId("step-prefill")).toContainText("reused from the step before");
    await expect(page.getByTestId("step-speed")).toContainText("first token");
    // What the model's cache holds: round 1's prompt, the reply's tokens (not its stop token), round 2's prompt.
    expect(await shownPrompt(page)).toBe(round1!.prompt + first + round2!.prompt);

    await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
    await expect(page.getByTestId("step-prefill")).toContainText(`${round1!.prefilledTokens.toLocaleString("en-US")} tokens prefilled (whole prompt)`);
    expect(await shownPrompt(page)).toBe(round1!.prompt);
  });

  test("with Constrain tool calls on, each step sends the protocol's structural tag; the debugger shows it as JSON with the grammar's time", async ({ page }) => {
    await openApp(page, [{ output: CALL }, { output: "6 × 7 = 42." }]);
    await page.getByTestId("setting-constrain").check();
    await send(page, "What is 6 × 7?");
    await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
    await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
    await expect(page.getByTestId("step-constraint")).toContainText(/Constrained tool calls, auto \(text or calls\): structural tag sent as response_format · grammar compiled in \d+(?:\.\d+)? m?s/);
    await page.getByText("The structural tag, as JSON").click();
    const json = JSON.parse((await page.getByTestId("structural-tag-json").textContent()) ?? "null");
    expect(json).toMatchObject({ type: "structural_tag", format: { type: "triggered_tags", triggers: ["<tool_call>"] } });
    expect(json.format.tags.map((tag: { begin: string }) => tag.begin)).toContain('<tool_call>\n{"name": "calculator", "arguments": ');
    // Copy JSON puts exactly that JSON on the clipboard.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByTestId("copy-structural-tag").click();
    await expect(page.getByTestId("copy-structural-tag")).toHaveText("Copied");
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(json);
  });

  test("a constrained generation on WebLLM's own path: XGrammar accepts a call to an offered tool, token by token, and rejects a call to another", async ({ page }) => {
    const tools: ToolSpec[] = [{ name: "calculator", description: "Evaluates.", parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] } }];
    const tag = hermesProtocol.structuralTag!(tools, "required");
    const chat: ChatTurns = { system: "S", turns: [{ role: "user", content: "What is 6 * 7?" }], enableThinking: false, turnEnd: "<|im_end|>\n", userRole: "<|im_start|>user" };
    const rogue = '<tool_call>\n{"name": "rm_rf", "arguments": {"expression": "6 * 7"}}\n</tool_call>';
    await page.goto(`${harness.url}?engine=replay&transcript=hermes-calculator`);
    await page.waitForFunction(() => typeof window.harness === "object");
    // The stand-in's tokenizer hands out ids on first sight and XGrammar reads its table once, at
    // the first constrained request: both outputs are scripted (and so tokenized) before it, so
    // the rogue call is rejected by the grammar, not for a token the table lacks.
    await page.evaluate((s) => window.harness.script(s), [{ output: CALL }, { output: rogue }]);
    await page.evaluate((id) => window.harness.load(id), MODEL);
    type Run = { chunks: EngineChunk[]; done: boolean; error?: { message: string } };
    const generate = async (id: string): Promise<Run> => {
      await page.evaluate(([runId, c, t]) => window.harness.generate(runId, "(prompt)", { maxTokens: 64 }, { chat: c, controlStops: ["<|im_end|>"], structuralTag: t }), [id, chat, tag] as const);
      await expect.poll(() => page.evaluate((runId) => window.harness.run(runId)?.done, id)).toBe(true);
      return (await page.evaluate((runId) => window.harness.run(runId), id)) as Run;
    };
    const good = await generate("good");
    expect(good.error).toBeUndefined();
    expect(good.chunks.map((c) => (c.type === "text" ? c.text : "")).join("")).toBe(`<think>\n\n</think>\n\n${CALL}`);
    const usage = good.chunks.find((c): c is Extract<EngineChunk, { type: "usage" }> => c.type === "usage")?.usage;
    expect(usage?.grammarInitMs).toBeGreaterThanOrEqual(0);
    expect(usage?.finishReason).toBe("stop");
    const bad = await generate("bad");
    expect(bad.error?.message).toMatch(/Grammar matcher rejected/);
  });
});

test("with the replay engine, a constrained step records the setting and says the engine cannot constrain", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await page.getByTestId("setting-constrain").check();
  await page.getByTestId("setting-tool-choice").selectOption("required");
  await send(page, "What is 1234 × 5678?");
  await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
  await expect(page.getByTestId("step-constraint")).toContainText("Constrained tool calls, required (at least one call): not applied — the replay engine plays recorded output and cannot constrain it.");
  await expect(page.getByTestId("structural-tag-json")).toHaveCount(0);
});
