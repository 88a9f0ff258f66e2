// A GGUF whose own chat template is hostile, run on the real SmolLM2 (its weights, with a template
// of this test's own that writes no SmolLM2 turn tokens, so the lab renders the file's template
// as is). The template behaves only for certain words in the last message, so the model loads
// (llama.cpp's and the lab's load-time renders never see them). The file is dropped on the Model
// pane (a synthetic drop event: the same handler as the file picker).
//   HOSTILE_LOOP   a 90,000 × 90,000 loop: stopped at the time budget;
//   HOSTILE_DOUBLE doubles a string 40 times: stopped at the size bound;
//   HOSTILE_RANGE  range(300000000): refused before the list is made.
// Each says which bound in the chat, no step starts (nothing is sent to the model), and while the
// loop renders the page answers (the render runs in a worker). An ordinary message then runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { modelPath } from "../scripts/real-models/cache-dir.mjs";
import { cachedSmolLm2 } from "./real-model-cache.ts";
import { dropGgufWithTemplate } from "./gguf-rewrite.ts";
import { offerTheCalculatorAlone, send } from "./lab-helpers.ts";

const smollm2 = cachedSmolLm2("the hostile-template test needs the real SmolLM2 in CI");
test.describe.configure({ timeout: 600_000 });

const SHOTS = process.env.CPU_SHOTS ?? "test-results/screens";

const HOSTILE_TEMPLATE = [
  "{%- for m in messages -%}{{ m['role'] + ': ' + m['content'] + '\\n' }}{%- endfor -%}",
  "{%- set last = messages[messages|length - 1]['content'] -%}",
  "{%- if 'HOSTILE_LOOP' in last -%}{%- for i in range(90000) -%}{%- for j in range(90000) -%}{%- endfor -%}{%- endfor -%}",
  "{%- elif 'HOSTILE_DOUBLE' in last -%}{%- set s = namespace(v='ab') -%}{%- for i in range(40) -%}{%- set s.v = s.v + s.v -%}{%- endfor -%}{{ s.v }}",
  "{%- elif 'HOSTILE_RANGE' in last -%}{%- for i in range(300000000) -%}{%- endfor -%}",
  "{%- endif -%}",
  "{%- if add_generation_prompt -%}{{ 'assistant:' }}{%- endif -%}",
].join("");

/** The time budget for this page (?templateRenderMs): long enough to act on the page while the loop renders. */
const BUDGET_MS = 30_000;

test("a GGUF's hostile template: dropped, it loads; each bound is named, nothing is sent, and the page answers while a render runs", async ({ page }) => {
  const folder = mkdtempSync(join(tmpdir(), "hostile-gguf-"));
  try {
    await dropGgufWithTemplate(page, { model: modelPath(smollm2), file: join(folder, "hostile-smollm2.gguf"), template: HOSTILE_TEMPLATE, url: `/?cpuThreads=1&templateRenderMs=${BUDGET_MS}` });
    const panel = page.getByTestId("model-panel");
    await expect(panel).toContainText("own embedded chat template is used as is");
    await page.getByTestId("setting-temperature").fill("0");
    await page.getByTestId("setting-max-tokens").fill("4");
    await page.getByTestId("protocol-select").selectOption("hermes");
    // One tool keeps the prompt short for the ordinary message at the end (a few hundred tokens to read on the CPU).
    await offerTheCalculatorAlone(page);

    const steps = page.getByTestId("step-item");
    const lastReply = () => page.getByTestId("message-assistant").last();

    // The loop: while it renders (a worker), the page types, draws and answers.
    await send(page, "HOSTILE_LOOP please");
    await expect(lastReply()).toHaveAttribute("data-status", "running");
    const input = page.getByTestId("chat-input");
    await input.fill("typed while the template renders");
    await expect(input).toHaveValue("typed while the template renders");
    // Still rendering when the page answered: a render on the page's thread would have held every
    // command above until it ended, and the run would have ended (refused) by now.
    expect(await lastReply().getAttribute("data-status")).toBe("running");
    await expect(steps).toHaveCount(0);
    await expect(lastReply()).toContainText(`ran past its time budget of ${BUDGET_MS.toLocaleString("en-US")} ms`, { timeout: BUDGET_MS * 4 });
    await expect(lastReply()).toContainText("nothing was sent to the model");
    await page.screenshot({ path: `${SHOTS}/gguf-template-time-budget-1440.png` });

    await input.fill("");
    await send(page, "HOSTILE_DOUBLE please");
    await expect(lastReply()).toContainText("made a text longer than its bound of 2,000,000 characters", { timeout: 120_000 });
    await send(page, "HOSTILE_RANGE please");
    await expect(lastReply()).toContainText("asked for range() of 300,000,000 items, past its bound of 100,000", { timeout: 120_000 });
    // None of them reached the model: no step started.
    await expect(steps).toHaveCount(0);

    // The template's worker was stopped each time; an ordinary message renders in a fresh one and runs.
    await send(page, "Hello");
    await expect(steps).toHaveCount(1, { timeout: 240_000 });
    await expect(lastReply()).not.toHaveAttribute("data-status", /^(running|streaming)$/, { timeout: 240_000 });
    await expect(lastReply()).not.toHaveAttribute("data-status", "error");
    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: `${SHOTS}/gguf-template-after-refusals-390.png`, fullPage: false });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
