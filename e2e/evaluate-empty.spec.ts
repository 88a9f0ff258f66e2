// Evaluate before anything has run: it says what each engine needs and offers the one that works in
// this browser.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { readCaseLog } from "../src/eval/case-log.ts";
import type { ResultsFile } from "../src/eval/results-file.ts";

test("Evaluate's empty state says what each engine needs, and its choices lead somewhere", async ({ page }) => {
  await page.goto("/#evaluate");
  const empty = page.getByTestId("eval-empty");
  await expect(empty).toBeVisible();
  await expect(empty.getByTestId("eval-needs-webllm")).toContainText(/WebGPU/);
  await expect(empty.getByTestId("eval-needs-server")).toContainText("/v1");
  await expect(empty.getByTestId("eval-needs-real-model")).toBeVisible();

  // A server: its fields show and the first is focused.
  await page.getByTestId("eval-use-server").click();
  await expect(page.getByTestId("eval-engine")).toHaveValue("server-prompt");
  await expect(page.getByTestId("eval-base-url")).toBeFocused();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: new URL("../docs/images/evaluate-empty-1440.png", import.meta.url).pathname });
});

test("the real-model offer leads to the Lab's Model pane with that engine chosen", async ({ page }) => {
  await page.goto("/?engine=replay&transcript=hermes-calculator#evaluate");
  // Headless Chromium here has only SwiftShader's software WebGPU adapter: the offer is the CPU model.
  await expect(page.getByTestId("eval-needs-real-model")).toContainText("Run SmolLM2 135M on this computer's CPU");
  await page.getByTestId("eval-real-model").click();
  await expect(page.getByTestId("view-lab")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("engine-select")).toHaveValue("cpu");
});

test("before any run, the bundled example results of the real models open as a matrix", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/#evaluate");
  await page.getByTestId("eval-open-examples").click();
  const smollm2 = "example: SmolLM2 135M Instruct (llama-server)";
  const gemma = "example: Gemma 3 270M base (llama-server)";
  for (const source of [smollm2, gemma]) {
    for (const row of ["hermes", "xml + constrained", "pythonic", "llama3-json + constrained"]) {
      await expect(page.locator(`[data-testid=eval-matrix-row][data-row="${source} · ${row}"]`)).toBeVisible();
    }
  }
  // Each row's "all" cell counts the file's cases: SmolLM2 2 per category × 5 categories.
  await expect(page.locator(`[data-testid=eval-matrix-row][data-row="${smollm2} · hermes"] [data-testid=eval-cell][data-category="all"]`)).toContainText("n=10");
  await expect(page.getByTestId("eval-imported").filter({ hasText: smollm2 })).toHaveCount(1);
  await expect(page.getByTestId("eval-error")).toHaveCount(0);

  // Every example case opens: its verdicts are enabled (each holds its log). One opens in the
  // debugger with the tokens' probabilities as the file recorded them.
  const verdicts = page.getByTestId("eval-verdict");
  expect(await verdicts.count()).toBeGreaterThan(0);
  expect(await verdicts.evaluateAll((buttons) => buttons.filter((b) => (b as HTMLButtonElement).disabled).length)).toBe(0);
  const file = JSON.parse(readFileSync(new URL("../public/eval/examples/smollm2-135m-instruct-q4_1.json", import.meta.url), "utf8")) as ResultsFile;
  const example = file.results.find((r) => r.id === "simple_python_0" && r.protocol === "xml" && !r.constrained)!;
  const tokens = readCaseLog(example.log!).flatMap((e) => (e.type === "output-delta" ? (e.tokens ?? []) : []));
  expect(tokens.length).toBeGreaterThan(0);
  await page.locator('[data-testid="eval-case-row"][data-case="simple_python_0"] [data-testid="eval-verdict"][data-protocol="xml"]').first().click();
  await expect(page.getByTestId("eval-opened-source")).toContainText(smollm2);
  await expect(page.getByTestId("decision-point")).toBeVisible();
  await page.getByTestId("probabilities-toggle").click();
  const shown = page.getByTestId("tp-token");
  await expect(shown).toHaveCount(tokens.length);
  expect(await shown.evaluateAll((spans) => spans.map((span) => Number(span.getAttribute("data-p"))))).toEqual(tokens.map((t) => t.p));

  // With results shown, what Evaluate needs (the way to choose an engine) is one click away.
  await expect(page.getByTestId("eval-empty")).toHaveCount(0);
  await page.getByTestId("eval-show-needs").click();
  await expect(page.getByTestId("eval-empty")).toBeVisible();
  await page.getByTestId("eval-use-server").click();
  await expect(page.getByTestId("eval-engine")).toHaveValue("server-prompt");
  await expect(page.getByTestId("eval-base-url")).toBeFocused();
  await expect(page.getByTestId("eval-show-needs")).toBeVisible();
  await page.getByTestId("eval-matrix").first().scrollIntoViewIfNeeded();
  // The view beside the Lab's look at the three widths: its top, the matrix, the opened case.
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("evaluate-view").evaluate((view) => view.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/screens/evaluate-top-${width}.png` });
    await page.getByTestId("eval-matrix").first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/evaluate-matrix-${width}.png` });
    await page.getByTestId("eval-case-debugger").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/evaluate-debugger-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: new URL("../docs/images/evaluate-examples-1440.png", import.meta.url).pathname, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("eval-matrix").scrollIntoViewIfNeeded();
  await page.screenshot({ path: new URL("../docs/images/evaluate-examples-390.png", import.meta.url).pathname });
});
