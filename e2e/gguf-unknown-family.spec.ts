// A GGUF of a family the lab does not know, whose calls are read by the format derived from its own
// chat template: the real SmolLM2's weights with IBM Granite 4.0's template (a fixture from
// llama.cpp's models/templates, src/engine/templates/llama-cpp-templates/SOURCES.md) put in its
// header by the test at run time (never committed). Granite's template writes no SmolLM2 turn
// tokens, so the lab does not take the SmolLM2 family its name suggests: it renders the file's own
// template and derives the call format from it. Asserted on what the page shows (the derivation in
// words, the prompt in Granite's form, the step read by the derived protocol, its decision point
// measured at the derived opener, a call forced there as a branch with its outcome, unconstrained and
// constrained by the derived format's grammar), never on the
// words the model writes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { modelPath } from "../scripts/real-models/cache-dir.mjs";
import { cachedSmolLm2 } from "./real-model-cache.ts";
import { dropGgufWithTemplate } from "./gguf-rewrite.ts";
import { offerTheCalculatorAlone, send, shownPrompt } from "./lab-helpers.ts";

const smollm2 = cachedSmolLm2("the unknown-family test needs the real SmolLM2 in CI");
test.describe.configure({ timeout: 600_000 });

const GRANITE = readFileSync(new URL("../src/engine/templates/llama-cpp-templates/ibm-granite-granite-4.0.jinja", import.meta.url), "utf8");

test("a GGUF of an unknown family: its calls are read by the format derived from its own template, said in the pane and the debugger", async ({ page }) => {
  const folder = mkdtempSync(join(tmpdir(), "unknown-family-gguf-"));
  try {
    await dropGgufWithTemplate(page, { model: modelPath(smollm2), file: join(folder, "granite-shaped-smollm2.gguf"), template: GRANITE, url: "/?cpuThreads=1" });
    const panel = page.getByTestId("model-panel");
    await expect(panel).toContainText("Calls are read by the format derived from its template: A call is `<tool_call>` + JSON {name, arguments} + `</tool_call>`.");
    await page.getByTestId("setting-temperature").fill("0");
    // A branch keeps its step's settings: room enough for a whole constrained call (about 30 of SmolLM2's tokens).
    await page.getByTestId("setting-max-tokens").fill("48");
    await offerTheCalculatorAlone(page);

    await send(page, "What is 17 * 23?");
    const reply = page.getByTestId("message-assistant").last();
    await expect(reply).not.toHaveAttribute("data-status", /^(running|streaming)$/, { timeout: 300_000 });
    await expect(reply).not.toHaveAttribute("data-status", "error");
    await page.getByTestId("step-item").first().click();
    // The step says which format read it, and the prompt is Granite's (its role markers), with the tool in it.
    await expect(page.getByTestId("derived-protocol-note")).toContainText("Calls read by the format derived from the chat template of granite-shaped-smollm2.gguf");
    await expect(page.getByTestId("derived-protocol-note")).toContainText("A call is `<tool_call>` + JSON {name, arguments} + `</tool_call>`.");
    const prompt = await shownPrompt(page);
    expect(prompt).toContain("<|start_of_role|>");
    expect(prompt).toContain("calculator");
    expect(prompt).not.toContain("<|im_start|>");

    // The decision point measures the derived format's own opener (the step's probe, on the real runtime).
    await expect(page.getByTestId("step-decision")).toContainText(/a call would have opened with `<tool_call>` at p = [\d.e-]+ \(measured/, { timeout: 120_000 });

    // "Force a call here" is offered for the derived format too: it makes a branch that continues
    // after the derived opener, and the branch says what came of it.
    await page.getByTestId("force-call").click();
    const branch = page.locator('[data-testid=step-item][data-branch="true"]');
    await expect(branch).toHaveCount(1, { timeout: 300_000 });
    await expect(branch.getByTestId("branch-outcome-tag")).toHaveText(/· (call calculator|no call|invalid call|cut off)/, { timeout: 300_000 });

    // Constrained, the branch generates under the derived format's grammar for a required call, sent
    // with the raw prompt (the original plus the kept output) as llama.cpp's grammar: the branch says
    // so, and its outcome is a call (whole, or cut short by the token limit), never "no call" (it was,
    // when the constraint was dropped for want of chat turns).
    await page.locator('[data-testid=step-item]:not([data-branch="true"])').first().click();
    await page.getByTestId("force-call-constrained").check();
    await page.getByTestId("force-call").click();
    await expect(branch).toHaveCount(2, { timeout: 300_000 });
    const constrained = branch.nth(1);
    await expect(constrained.getByTestId("branch-outcome-tag")).toHaveText(/· (call calculator|invalid call|cut off)/, { timeout: 300_000 });
    await constrained.click();
    await expect(page.getByTestId("step-constraint")).toContainText("Constrained tool calls");
    await expect(page.getByTestId("step-constraint")).toContainText("structural tag sent as one GBNF grammar (llama.cpp's grammar field)");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
