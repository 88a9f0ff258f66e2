// A step of hundreds of thousands of tokens with their probabilities (a server streaming one-
// character tokens with logprobs, or an imported file): "Probabilities" drew every token, one
// element each (300,000: 5 s frozen; 2,000,000: a minute). It draws them in blocks of
// TOKEN_BLOCK, each block's tokens only once it comes near the view; the rest is plain text.
import { expect, test } from "@playwright/test";
import { openLab } from "./lab-helpers.ts";

const TOKENS = 40_000;
const PER_DELTA = 10_000;

function floodSession() {
  const base = { runId: "r", at: 1_700_000_000_000 };
  const user = { role: "user", content: "Hi" };
  const deltas = Array.from({ length: TOKENS / PER_DELTA }, (_, d) => {
    const tokens = Array.from({ length: PER_DELTA }, (_, i) => ({ text: String((d * PER_DELTA + i) % 10), p: 0.5, top: [{ text: "x", p: 0.25 }] }));
    return { ...base, type: "output-delta", stepId: "s1", text: tokens.map((t) => t.text).join(""), offset: d * PER_DELTA, tokens };
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

test("a step of 40,000 tokens draws only the blocks near the view in Probabilities, and a block scrolled to is drawn", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await page.getByTestId("import-file").setInputFiles({ name: "tokens.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(floodSession())) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await page.getByTestId("probabilities-toggle").click();
  const view = page.getByTestId("token-probabilities");
  await expect(view.getByTestId("tp-token").first()).toBeVisible();
  const blocks = view.locator(".tp-block");
  expect(await blocks.count()).toBe(TOKENS / 400);
  expect(await view.locator('.tp-block[data-drawn="true"]').count()).toBeLessThan(12);
  expect(await view.getByTestId("tp-token").count()).toBeLessThan(12 * 400);
  // The last block, scrolled to, gets its tokens; hovering its last token shows its alternatives.
  const last = blocks.last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toHaveAttribute("data-drawn", "true");
  await last.getByTestId("tp-token").last().hover();
  await expect(page.getByTestId("tp-alternatives")).toContainText(`Token ${TOKENS} `);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await view.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/.output/token-flood-${width}.png` });
  }
});
