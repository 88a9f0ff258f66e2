// Token probabilities as a person meets them, against the local OpenAI-compatible stand-in
// (e2e/openai-server/server.ts, which sends scripted logprobs in llama.cpp's shape): the
// decision point in words, the tokens coloured with their alternatives on hover, "Continue with
// this token" running a branch whose prompt is the original plus that token, and a reply in
// another protocol's format named as drift. Screenshots at 1440 and 390 px.
import { expect, test, type Page } from "@playwright/test";
import { startOpenAiTestServer, type OpenAiTestServer } from "./openai-server/server.ts";
import { exportedConversation, send, shownPrompt } from "./lab-helpers.ts";

const SHOTS = "test-results/screenshots";
let server: OpenAiTestServer;
test.beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }] });
});
test.afterAll(() => server.close());
test.beforeEach(() => {
  server.requests.length = 0;
});

// llama.cpp's server writes one token per streamed event (server-task.cpp, probs_vector_to_json);
// a token has one id wherever it is listed (as the sampled token and among the alternatives).
const ids = new Map<string, number>();
const idOf = (token: string) => ids.get(token) ?? (ids.set(token, ids.size + 1), ids.size);
const piece = (token: string, p: number, ...top: Array<[string, number]>) => ({
  content: [{ id: idOf(token), token, bytes: [], logprob: Math.log(p), top_logprobs: top.map(([t, q]) => ({ id: idOf(t), token: t, bytes: [], logprob: Math.log(q) })) }],
});

async function connected(page: Page) {
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("openai");
  await page.getByTestId("openai-base-url").fill(server.url);
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("openai-model-select")).toHaveValue("Qwen/Qwen3-8B");
  await page.getByTestId("openai-mode").selectOption("prompt");
  await page.getByTestId("protocol-select").selectOption("hermes");
}

test("the decision point, the alternatives of a token, and forcing one as a branch", async ({ page }) => {
  server.script(
    {
      text: ["I", " think", " it is 5."],
      logprobs: [piece("I", 0.81, ["I", 0.81], ["The", 0.1], ["<tool_call>", 0.04]), piece(" think", 0.6, [" think", 0.6], [" am", 0.2]), piece(" it is 5.", 0.9)],
    },
    { text: ['\n{"name": "calculator", "arguments": {"expression": "2 + 3"}}\n</tool_call>'] },
  );
  await connected(page);
  await send(page, "What is 2 + 3?");
  await expect(page.getByTestId("message-assistant").last()).toContainText("it is 5.");
  const first = server.requests.find((r) => r.path === "/v1/completions")!;
  expect(first.body!.logprobs).toBe(5);

  await page.locator('[data-testid=step-item][data-status="final"]').first().click();
  await expect(page.getByTestId("decision-point")).toHaveText(
    "Decision point: the model answered without a call, starting with `I` (p = 0.81); a call would have opened with `<tool_call>` at p = 0.04.",
  );
  await page.getByTestId("probabilities-toggle").click();
  const tokens = page.getByTestId("tp-token");
  await expect(tokens).toHaveCount(3);
  await tokens.first().hover();
  const alternatives = page.getByTestId("tp-alternative");
  await expect(alternatives).toHaveCount(3);
  await expect(alternatives.nth(2)).toContainText("<tool_call>");
  await expect(alternatives.nth(2)).toContainText("0.04");
  // The recorded number itself (three significant digits), not the server's exp(log 0.04) = 0.04000000000000001.
  await expect(alternatives.nth(1).getByTestId("tp-alternative-p")).toHaveAttribute("title", "p = 0.1, as recorded");
  await expect(alternatives.nth(2).getByTestId("tp-alternative-p")).toHaveAttribute("title", "p = 0.04, as recorded");

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("token-probabilities").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/token-probabilities-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Focus (keyboard) shows the same, and Enter keeps it open.
  await tokens.first().focus();
  await page.keyboard.press("Enter");
  const originalPrompt = await (async () => {
    const sent = first.body!.prompt as string;
    return sent;
  })();
  await alternatives.nth(2).getByTestId("tp-force").click();
  await expect(page.getByTestId("force-status")).toContainText("under this step");
  const completions = server.requests.filter((r) => r.path === "/v1/completions");
  expect(completions).toHaveLength(2);
  expect(completions[1]!.body!.prompt).toBe(originalPrompt + "<tool_call>");

  // The branch: labelled with what was forced, its output the forced token and the continuation, its call parsed.
  const branch = page.locator('[data-testid=step-item][data-status="tool-calls"]');
  await expect(branch).toHaveCount(1);
  await branch.click();
  await expect(page.getByTestId("step-experiments")).toContainText("forced `<tool_call>` (p = 0.04) at token 1 in place of `I` (p = 0.81)");
  await expect(page.getByTestId("raw-output-view")).toContainText('<tool_call>\n{"name": "calculator"');
  expect(await shownPrompt(page)).toBe(originalPrompt + "<tool_call>");
  await page.screenshot({ path: `${SHOTS}/forced-branch-1440.png` });
});

test("'Force a call here' at the decision point: the branch's prompt is the original plus the opener, and it says what came of it", async ({ page }) => {
  server.script(
    {
      text: ["I", " think", " it is 5."],
      logprobs: [piece("I", 0.81, ["I", 0.81], ["The", 0.1]), piece(" think", 0.6, [" think", 0.6], [" am", 0.2]), piece(" it is 5.", 0.9)],
    },
    { text: ['\n{"name": "calculator", "arguments": {"expression": "2 + 3"}}\n</tool_call>'] },
  );
  await connected(page);
  await send(page, "What is 2 + 3?");
  await expect(page.getByTestId("message-assistant").last()).toContainText("it is 5.");
  const original = server.requests.find((r) => r.path === "/v1/completions")!.body!.prompt as string;
  await page.locator('[data-testid=step-item][data-status="final"]').first().click();
  // The stand-in is not llama.cpp: the opener cannot be measured, and the sentence says so beside the bound.
  await expect(page.getByTestId("decision-point")).toContainText("no call opener (`<tool_call>`) was among the 2 alternatives recorded (so p ≤ 0.10); not measured exactly: this engine");
  // The sampled alternative is marked and not offered.
  await page.getByTestId("probabilities-toggle").click();
  await page.getByTestId("tp-token").first().hover();
  await expect(page.locator('[data-testid=tp-alternative][data-sampled="true"]')).toHaveCount(1);
  await expect(page.locator('[data-testid=tp-alternative][data-sampled="true"]').getByTestId("tp-force")).toHaveCount(0);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("step-decision").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/force-decision-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByTestId("force-call").click();
  await expect(page.getByTestId("force-decision-status")).toContainText("under this step");
  const completions = server.requests.filter((r) => r.path === "/v1/completions");
  expect(completions).toHaveLength(2);
  expect(completions[1]!.body!.prompt).toBe(original + "<tool_call>");
  const branch = page.locator('[data-testid=step-item][data-branch="true"]');
  await expect(branch).toHaveCount(1);
  await expect(branch.getByTestId("branch-outcome-tag")).toHaveText("· call calculator");
  await branch.click();
  await expect(page.getByTestId("branch-outcome")).toHaveAttribute("data-outcome", "call");
  await expect(page.getByTestId("branch-outcome")).toContainText('a valid call: calculator({"expression":"2 + 3"})');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("branch-outcome").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/forced-call-outcome-${width}.png` });
  }
});

test("Esc stops a forced branch that is still generating, and Stop does too", async ({ page }) => {
  const reply = { text: ["I", " think", " it is 5."], logprobs: [piece("I", 0.81, ["I", 0.81], ["The", 0.1]), piece(" think", 0.6, [" think", 0.6], [" am", 0.2]), piece(" it is 5.", 0.9)] };
  server.script(reply, { text: ["\n{"], hold: true }, { text: ["\n{"], hold: true });
  await connected(page);
  await send(page, "What is 2 + 3?");
  await expect(page.getByTestId("message-assistant").last()).toContainText("it is 5.");
  await page.locator('[data-testid=step-item][data-status="final"]').first().click();
  await page.getByTestId("force-call").click();
  const branch = page.locator('[data-testid=step-item][data-branch="true"]');
  await expect(branch).toHaveCount(1);
  await expect(page.getByTestId("force-decision-stop")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(branch).toHaveAttribute("data-status", "aborted");
  await expect(page.getByTestId("force-decision-status")).toContainText("stopped");
  // Again, with the chat's Stop button.
  await page.locator('[data-testid=step-item][data-status="final"]').first().click();
  await page.getByTestId("force-call").click();
  await expect(branch).toHaveCount(2);
  await expect(page.getByTestId("stop-button")).toBeEnabled();
  await page.getByTestId("stop-button").click();
  await expect(branch.nth(1)).toHaveAttribute("data-status", "aborted");
});

test("a reply in another protocol's format is named as drift, with its calls", async ({ page }) => {
  const llama = '<|python_tag|>{"name": "calculator", "parameters": {"expression": "2 + 3"}}';
  server.script({ text: [llama], logprobs: [piece(llama, 0.3, ["I", 0.5])] });
  await connected(page);
  await send(page, "What is 2 + 3?");
  await page.locator("[data-testid=step-item]").first().click();
  await expect(page.getByTestId("format-drift")).toContainText("hermes found no call, but the model wrote calls in the llama3-json or xlam formats");
  await expect(page.getByTestId("format-drift").locator('[data-protocol="llama3-json"]')).toContainText('calculator({"expression":"2 + 3"})');
  await page.getByTestId("step-decision").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/format-drift-1440.png` });
});

test("a reply's token probabilities survive a reload and an exported file, which holds them compactly", async ({ page }) => {
  server.script({
    text: ["I", " think", " it is 5."],
    logprobs: [piece("I", 0.81, ["I", 0.81], ["The", 0.1], ["<tool_call>", 0.04]), piece(" think", 0.6, [" think", 0.6], [" am", 0.2]), piece(" it is 5.", 0.9)],
  });
  await connected(page);
  await send(page, "What is 2 + 3?");
  await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", "final");

  const shownAlternatives = async () => {
    await page.locator('[data-testid=step-item][data-status="final"]').first().click();
    await expect(page.getByTestId("decision-point")).toContainText("a call would have opened with `<tool_call>` at p = 0.04");
    await page.getByTestId("probabilities-toggle").click();
    await expect(page.getByTestId("tp-token")).toHaveCount(3);
    await page.getByTestId("tp-token").first().hover();
    const alternatives = page.getByTestId("tp-alternative");
    await expect(alternatives).toHaveCount(3);
    return alternatives.allInnerTexts();
  };
  const before = await shownAlternatives();
  expect(before.join(" ")).toContain("0.81");

  // Saved to IndexedDB through the shared-text codec, read back after a reload.
  await page.reload();
  await expect(page.getByTestId("message-assistant").last()).toContainText("it is 5.");
  expect(await shownAlternatives()).toEqual(before);

  const { name: fileName, text } = await exportedConversation(page);
  // The tokens are in the file, written compactly: no {text, p, id} objects per alternative.
  expect(text).toContain("<tool_call>");
  expect(text).not.toContain('"top"');

  await page.getByTestId("new-conversation").click();
  await page.getByTestId("import-file").setInputFiles({ name: fileName, mimeType: "application/json", buffer: Buffer.from(text) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await expect(page.getByTestId("conversation-title")).toContainText("(imported)");
  expect(await shownAlternatives()).toEqual(before);
  await page.screenshot({ path: `${SHOTS}/probabilities-imported-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/probabilities-imported-390.png` });
});
