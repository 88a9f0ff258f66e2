// A known family re-read by the format derived from its own chat template: the real SmolLM2 (the
// SmolLM2 family, read by the hand-written hermes) answers one turn at temperature 0; its step
// records the file's chat template, and the debugger's "Parse as… the format derived from its
// template" derives that template in the page's kept worker and sets its reading beside the
// recorded one. With Qwen 2.5's template in the file's header (a fixture from llama.cpp's
// models/templates, src/engine/templates/llama-cpp-templates/SOURCES.md; put there by the test at run
// time, never committed; it writes ChatML's turn tokens, so the file stays a SmolLM2) the format
// derives; with SmolLM2's own template, which writes no tool calls, the panel says why it cannot.
// Asserted on what the page shows, never on the words the model writes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { modelPath } from "../scripts/real-models/cache-dir.mjs";
import { cachedSmolLm2 } from "./real-model-cache.ts";
import { dropGgufWithTemplate } from "./gguf-rewrite.ts";
import { loadSmolLm2OnTheCpu, offerTheCalculatorAlone, send } from "./lab-helpers.ts";

const SHOTS = "e2e/.output";
const smollm2 = cachedSmolLm2("the derived-twin test needs the real SmolLM2 in CI");
test.describe.configure({ timeout: 600_000 });

const QWEN25 = readFileSync(new URL("../src/engine/templates/llama-cpp-templates/Qwen-Qwen2.5-7B-Instruct.jinja", import.meta.url), "utf8");

/** One turn at temperature 0 with the calculator, read by hermes; then the debugger on its step. */
async function oneTurnThenItsStep(page: Page): Promise<void> {
  await page.getByTestId("setting-temperature").fill("0");
  await page.getByTestId("setting-max-tokens").fill("48");
  await offerTheCalculatorAlone(page);
  await page.getByTestId("protocol-select").selectOption("hermes");
  await send(page, "What is 17 * 23?");
  const reply = page.getByTestId("message-assistant").last();
  await expect(reply).not.toHaveAttribute("data-status", /^(running|streaming)$/, { timeout: 300_000 });
  await expect(reply).not.toHaveAttribute("data-status", "error");
  await page.getByTestId("step-item").first().click();
}

test("a known family's step read by the format derived from its file's template, beside hermes", async ({ page }) => {
  const folder = mkdtempSync(join(tmpdir(), "derived-twin-gguf-"));
  try {
    await dropGgufWithTemplate(page, { model: modelPath(smollm2), file: join(folder, "SmolLM2-135M-Instruct.Q4_1.gguf"), template: QWEN25, url: "/?cpuThreads=1" });
    // Still the SmolLM2 family: the lab's own ChatML template and the header's protocol, not a derived one.
    await expect(page.getByTestId("model-panel")).toContainText("SmolLM2 family");
    await oneTurnThenItsStep(page);
    // The header offers the format derived from the file's own template beside the registry's,
    // without choosing it: the turn was read by hermes.
    const header = page.getByTestId("protocol-select");
    await expect(header.locator("option", { hasText: "Derived from the template of SmolLM2-135M-Instruct.Q4_1.gguf" })).toHaveCount(1, { timeout: 60_000 });
    await expect(header).toHaveValue("hermes");

    const steps = await page.getByTestId("step-item").count();
    const select = page.getByTestId("reparse-protocol");
    await expect(select.locator("option", { hasText: "the format derived from its template" })).toHaveCount(1);
    await select.selectOption({ label: "the format derived from its template" });
    // The derived format in words and markers, named, beside the recorded hermes.
    const words = page.getByTestId("derived-twin-words");
    await expect(words).toContainText("The format derived from the model's own chat template (template:the model's own), read beside the recorded hermes:", { timeout: 60_000 });
    await expect(words).toContainText("A call is <tool_call> + JSON {name, arguments} + </tool_call>.");
    await expect(words.locator("code", { hasText: "<tool_call>" }).first()).toBeVisible();
    // The two readings side by side: the recorded one and the derived twin's.
    const view = page.getByTestId("reparse-view");
    await expect(view.locator(".xp-side h4").nth(0)).toHaveText("recorded · hermes");
    await expect(view.locator(".xp-side h4").nth(1)).toHaveText("as template:the model's own");
    const explanation = page.getByTestId("reparse-explanation");
    await expect(explanation).toContainText(/^as template:the model's own: /);
    // Whatever the model wrote, the page says whether the twin's calls agree, or lists how they differ.
    const recordedCalls = Number(await page.getByTestId("reparse-recorded").getAttribute("data-count"));
    const derivedCalls = Number(await page.getByTestId("reparse-calls").getAttribute("data-count"));
    if ((await page.getByTestId("reparse-differences").count()) === 0) {
      await expect(explanation).toContainText("the same calls, errors and text as recorded");
      expect(derivedCalls).toBe(recordedCalls);
    } else {
      await expect(page.getByTestId("reparse-differences").locator("li").first()).toBeVisible();
      await expect(explanation).not.toContainText("the same calls, errors and text as recorded");
    }
    // A reading, not a step: nothing is kept, and no branch is offered for it.
    await expect(view).toContainText("Nothing is saved: this is a reading of the recorded output by the derived format, not a new step.");
    await expect(page.getByTestId("reparse-keep")).toHaveCount(0);
    await expect(page.getByTestId("step-item")).toHaveCount(steps);

    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await page.getByTestId("step-experiments").evaluate((element) => element.scrollIntoView({ block: "start" }));
      await page.screenshot({ path: `${SHOTS}/derived-twin-${size.width}.png` });
    }

    // Back to a registered protocol: the panel reads as before.
    await page.setViewportSize({ width: 1440, height: 900 });
    await select.selectOption("xml");
    await expect(page.getByTestId("reparse-explanation")).toContainText(/^as xml/);
    await expect(page.getByTestId("derived-twin-words")).toHaveCount(0);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("SmolLM2's own template writes no tool calls: the panel says it cannot derive, and the page goes on", async ({ page }) => {
  await loadSmolLm2OnTheCpu(page);
  await oneTurnThenItsStep(page);
  await page.getByTestId("reparse-protocol").selectOption({ label: "the format derived from its template" });
  const failure = page.getByTestId("derived-twin-failure");
  await expect(failure).toContainText("The model's own chat template gives no format to read this step with: cannot derive: the template writes nothing for a tool call", { timeout: 60_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  await failure.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/derived-twin-cannot-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
  // The rest of the page is unharmed: another reading works, and another turn runs.
  await page.getByTestId("reparse-protocol").selectOption("xml");
  await expect(page.getByTestId("reparse-explanation")).toContainText(/^as xml/);
  const steps = await page.getByTestId("step-item").count();
  await send(page, "And 2 + 2?");
  await expect(page.getByTestId("step-item")).not.toHaveCount(steps, { timeout: 120_000 });
  await expect(page.getByTestId("message-assistant").last()).not.toHaveAttribute("data-status", /^(running|streaming|error)$/, { timeout: 300_000 });
});
