// Forcing the decision and the protocol table on the page's CPU engine: SmolLM2 135M on llama.cpp
// in WebAssembly, one thread, greedy. "Force no call here" bans the opener's first token at a
// call's decision point (llama.cpp's logit bias, in the page), and the protocol table measures
// each protocol's prompt with the opener probe, in the Lab's debugger and in the playground.
// Asserted on what the runtime reports (token ids, the probe's p), never on the model's words.
import { existsSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { modelPath, readManifest } from "../scripts/real-models/cache-dir.mjs";
import { loadSmolLm2OnTheCpu, send } from "./lab-helpers.ts";

const smollm2 = readManifest().models.find((m) => m.id === "smollm2-135m-instruct-q4_1")!;
// Four protocols' prompts of about 300 tokens each, prefilled on one thread of a shared 2-core machine: minutes.
test.describe.configure({ timeout: 1_500_000 });
const missing = existsSync(modelPath(smollm2)) ? undefined : "SmolLM2 is not in the model cache: run `npm run models`";
if (missing && process.env.CI) throw new Error(`the CPU engine's real-model tests must run in CI, but ${missing}`);
test.skip(missing !== undefined, missing);

const SHOTS = "test-results/screenshots";
const RUNNING = /^(running|streaming)$/;

/** Each row's p, as the table holds it (the probe's number, not its rounding on screen). */
async function rowPs(page: Page): Promise<Map<string, number>> {
  const rows = page.getByTestId("protocol-lean-row");
  const ps = new Map<string, number>();
  for (const row of await rows.all()) ps.set((await row.getAttribute("data-protocol"))!, Number(await row.getAttribute("data-p")));
  return ps;
}

/** Each row's prompt tokens as the runtime reported them: read now, and reused from its prompt cache. */
async function rowReads(page: Page): Promise<Array<{ protocol: string; prefilled: number; reused: number }>> {
  const out: Array<{ protocol: string; prefilled: number; reused: number }> = [];
  for (const row of await page.getByTestId("protocol-lean-row").all()) {
    out.push({ protocol: (await row.getAttribute("data-protocol"))!, prefilled: Number(await row.getAttribute("data-prefilled")), reused: Number(await row.getAttribute("data-reused")) });
  }
  return out;
}

test("on the CPU engine, the protocol table's row for the step's protocol equals the step's own probe, and every row is a probability", async ({ page }) => {
  await loadSmolLm2OnTheCpu(page);
  await send(page, "Hello! Who are you?");
  const step = page.getByTestId("step-item").last();
  await expect(step).not.toHaveAttribute("data-status", RUNNING, { timeout: 300_000 });
  await step.click();
  const decision = page.getByTestId("decision-point");
  await expect(decision).toHaveAttribute("data-kind", "no-call");
  await expect(decision).toHaveAttribute("data-opener-p", /\d/);
  const probed = Number(await decision.getAttribute("data-opener-p"));

  await page.getByTestId("protocol-lean-run").click();
  await expect(page.getByTestId("protocol-lean-note")).toContainText("Measured on", { timeout: 1_200_000 });
  const ps = await rowPs(page);
  expect([...ps.keys()]).toEqual(["hermes", "xml", "pythonic", "llama3-json"]);
  for (const p of ps.values()) {
    expect(Number.isFinite(p)).toBe(true);
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThanOrEqual(1);
  }
  // The same conversation in the same protocol is the step's own prompt: the table's probe of it
  // is the step's probe (both at three significant digits, so equal within that rounding).
  expect(Math.abs(ps.get("hermes")! - probed)).toBeLessThanOrEqual(probed * 0.005);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("protocol-lean").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/cpu-protocol-lean-${width}.png` });
  }
});

test("on the CPU engine, Force no call never writes the opener's first token at the call's decision point", async ({ page }) => {
  await loadSmolLm2OnTheCpu(page);
  // A required call under the protocol's grammar: the step opens a call whatever the model leans to.
  await page.getByTestId("setting-max-tokens").fill("24");
  await page.getByTestId("setting-constrain").check();
  await page.getByTestId("setting-tool-choice").selectOption("required");
  await send(page, "What is 6 times 7?");
  const step = page.getByTestId("step-item").first();
  await expect(step).not.toHaveAttribute("data-status", RUNNING, { timeout: 300_000 });
  await step.click();
  const decision = page.getByTestId("decision-point");
  await expect(decision).toHaveAttribute("data-kind", "call");
  const index = Number(await decision.getAttribute("data-token-index"));
  const opener = await decision.getAttribute("data-token-id");
  expect(opener).toMatch(/^\d+$/);

  await page.getByTestId("force-no-call").click();
  const branch = page.locator('[data-testid="step-item"][data-branch="true"]');
  await expect(branch).toHaveCount(1, { timeout: 120_000 });
  await expect(branch).not.toHaveAttribute("data-status", RUNNING, { timeout: 300_000 });
  await branch.click();
  await page.getByTestId("probabilities-toggle").click();
  const tokens = page.getByTestId("tp-token");
  await expect.poll(() => tokens.count(), { timeout: 30_000 }).toBeGreaterThan(index);
  // The branch's token at the decision point, with the id and probability the engine reported.
  const written = tokens.nth(index);
  await expect(written).toHaveAttribute("data-token-id", /^\d+$/);
  expect(await written.getAttribute("data-token-id")).not.toBe(opener);
  const p = Number(await written.getAttribute("data-p"));
  expect(p).toBeGreaterThan(0);
  expect(p).toBeLessThanOrEqual(1);
});

test("the playground loads the model on the CPU and measures which protocol it leans to", async ({ page }) => {
  await page.goto("/?view=playground&cpuThreads=1");
  await page.getByTestId("playground-protocol").selectOption("hermes");
  // One pasted tool keeps each protocol's prompt near 250 tokens (the eight built-in tools make about 1,300 each).
  await page.getByTestId("playground-tool-source").selectOption("pasted");
  await page.getByTestId("playground-tools").fill(JSON.stringify([{ name: "calculator", description: "Evaluate an arithmetic expression", parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] } }]));
  await page.getByTestId("playground-lean").locator("summary").click();
  await expect(page.getByTestId("playground-lean-engine")).toHaveAttribute("data-ready", "false");
  await expect(page.getByTestId("protocol-lean-run")).toBeDisabled();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("playground-lean").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/playground-lean-empty-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("playground-lean-load").click();
  await expect(page.getByTestId("playground-lean-engine")).toHaveAttribute("data-ready", "true", { timeout: 180_000 });
  await page.getByTestId("playground-lean-message").fill("What is 6 times 7?");
  await page.getByTestId("protocol-lean-run").click();
  await expect(page.getByTestId("protocol-lean-note")).toContainText("Measured on", { timeout: 1_200_000 });
  const ps = await rowPs(page);
  expect([...ps.keys()]).toEqual(["hermes", "xml", "pythonic", "llama3-json"]);
  for (const p of ps.values()) {
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThanOrEqual(1);
  }

  // Asked again, each row's prompt is brought back from llama.cpp's prompt cache instead of read
  // again: the runtime reports most of every row's prompt tokens reused and only a few read.
  await expect(page.getByTestId("protocol-lean")).toHaveAttribute("data-finished", "1");
  await page.getByTestId("protocol-lean-run").click();
  await expect(page.getByTestId("protocol-lean")).toHaveAttribute("data-finished", "2", { timeout: 600_000 });
  await expect(page.getByTestId("protocol-lean-note")).toContainText("Measured on");
  const again = await rowReads(page);
  expect(again.map((r) => r.protocol)).toEqual(["hermes", "xml", "pythonic", "llama3-json"]);
  for (const row of again) {
    expect(row.reused, row.protocol).toBeGreaterThan(0);
    expect(row.prefilled, row.protocol).toBeLessThan(row.reused / 10);
  }
  // The same prompts from a restored reading: the same probabilities within what llama.cpp's
  // batch shapes change (xml's prompt, read the first time from a 60-token start and then from its
  // restored reading, gave 7.26e-5 and 8.44e-5; hermes, read whole both times, the same p).
  // A wrong reading restored would be off by orders of magnitude.
  const psAgain = await rowPs(page);
  for (const [protocol, p] of ps) {
    if (p === 0) {
      expect(psAgain.get(protocol), protocol).toBe(0);
      continue;
    }
    const ratio = psAgain.get(protocol)! / p;
    expect(ratio, protocol).toBeGreaterThan(2 / 3);
    expect(ratio, protocol).toBeLessThan(1.5);
  }
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("protocol-lean-table").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/playground-lean-${width}.png` });
  }
});
