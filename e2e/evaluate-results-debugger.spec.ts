// A case of a results file opened in the debugger, as a person does it: import the file the
// command wrote, click a case, read its step: the prompt, the output tokens coloured by
// probability with their alternatives on hover, the decision point. The fixture is a real run:
// `npm run eval -- --llama-server smollm2-135m-instruct-q4_1 --mode prompt --protocols xml
// --suite builtin --limit 1 --max-tokens 64` (SmolLM2 135M Instruct Q4_1 on llama.cpp's
// llama-server, temperature 0, top-5 probabilities; e2e/fixtures/README.md). Asserted: what the
// page shows against what the file recorded (prompt, token probabilities, decision point), never
// the model's words. A file without logs (as older files are) still opens, and says so per case;
// a damaged log says what is wrong. Screenshots at 1440 and 390 px.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { describeDecisionPoint, formatP } from "toolcall-middleware/probabilities/decision-point.ts";
import { stepDecisionPoint } from "toolcall-middleware/probabilities/step-decision.ts";
import { readCaseLog } from "../src/eval/case-log.ts";
import type { ResultsFile } from "../src/eval/results-file.ts";
import { shownPrompt } from "./lab-helpers.ts";

const SHOTS = "test-results/screenshots";
const FIXTURE = "eval-results-smollm2-with-logs.json";
const fixtureText = readFileSync(new URL(`./fixtures/${FIXTURE}`, import.meta.url), "utf8");
const fixture = JSON.parse(fixtureText) as ResultsFile;

/** The case where the model opened a call (its decision point is a call), as recorded in the file. */
const opened = fixture.results.find((r) => r.callP !== undefined && r.callP !== null)!;
const events = readCaseLog(opened.log!);
const stepStart = events.find((e) => e.type === "step-start")!;
const tokens = events.flatMap((e) => (e.type === "output-delta" ? (e.tokens ?? []) : []));

async function importFile(page: Page, name: string, text: string) {
  await page.getByTestId("eval-import-file").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
  await expect(page.getByTestId("eval-imported").filter({ hasText: name })).toBeVisible();
}

function verdict(page: Page, id: string) {
  return page.locator(`[data-testid="eval-case-row"][data-case="${id}"] [data-testid="eval-verdict"]`);
}

test("a case of a results file opens in the debugger: its prompt, its tokens by probability with alternatives, its decision point", async ({ page }) => {
  expect(stepStart.type === "step-start" && stepStart.probabilities?.topK).toBe(5);
  expect(tokens.length).toBeGreaterThan(10);
  await page.goto("/#evaluate");
  await importFile(page, FIXTURE, fixtureText);
  // The file's cases are listed (no run of this page: they are the list), each one openable.
  await expect(page.getByTestId("eval-case-row")).toHaveCount(fixture.results.length);
  await verdict(page, opened.id).click();

  const debuggerSection = page.getByTestId("eval-case-debugger");
  await expect(debuggerSection).toBeVisible();
  await expect(page.getByTestId("eval-opened-source")).toContainText(FIXTURE);
  // The prompt as recorded.
  if (stepStart.type !== "step-start") throw new Error("no step-start");
  expect(await shownPrompt(page)).toBe(stepStart.prompt);
  // The decision point the recorded tokens make, in the page's words.
  const point = stepDecisionPoint(events, stepStart.runId, stepStart.stepId);
  expect(point.kind).toBe("call");
  await expect(page.getByTestId("decision-point")).toHaveAttribute("data-kind", "call");
  await expect(page.getByTestId("decision-point")).toHaveText(`Decision point: the model ${describeDecisionPoint(point)}.`);

  // Every recorded token, coloured by its probability; hovering shows its recorded alternatives.
  await page.getByTestId("probabilities-toggle").click();
  const shown = page.getByTestId("tp-token");
  await expect(shown).toHaveCount(tokens.length);
  expect(await shown.evaluateAll((spans) => spans.map((span) => Number(span.getAttribute("data-p"))))).toEqual(tokens.map((t) => t.p));
  const colours = await shown.evaluateAll((spans) => spans.map((span) => getComputedStyle(span).backgroundColor));
  expect(new Set(colours).size).toBeGreaterThan(1);
  const lowest = tokens.reduce((low, t, i) => (t.p < tokens[low]!.p ? i : low), 0);
  await shown.nth(lowest).hover();
  const alternatives = page.getByTestId("tp-alternative");
  await expect(alternatives).toHaveCount(tokens[lowest]!.top!.length);
  for (const [i, alternative] of tokens[lowest]!.top!.entries()) await expect(alternatives.nth(i).locator("td").first()).toHaveText(formatP(alternative.p));

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("token-probabilities").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/evaluate-results-case-${width}.png` });
    // docs/evaluate.md shows the wide one.
    if (width === 1440) await page.screenshot({ path: new URL("../docs/images/evaluate-results-case-1440.png", import.meta.url).pathname });
  }
});

test("a results file without logs still opens; each case says the file holds no log for it; a damaged log says what is wrong", async ({ page }) => {
  await page.goto("/#evaluate");
  // As files were written before they kept logs.
  const old = { ...fixture, results: fixture.results.map(({ log: _log, ...rest }) => rest) };
  await importFile(page, "old-results.json", JSON.stringify(old, null, 2));
  await expect(page.getByTestId("eval-matrix-row")).toHaveCount(1);
  await verdict(page, opened.id).click();
  await expect(page.getByTestId("eval-opened-note")).toHaveText(/^This results file holds no log for this case/);
  await expect(page.getByTestId("step-item")).toHaveCount(0);

  // A second file: the list can show either file's cases; the damaged log is refused with its place.
  const damaged = { ...fixture, results: fixture.results.map((r) => (r === opened ? { ...r, log: { ...r.log!, events: r.log!.events.map((record, i) => (i === 1 ? { ...(record as object), prompt: { $: "str", n: 42 } } : record)) } } : r)) };
  await importFile(page, "damaged.json", JSON.stringify(damaged));
  await page.getByTestId("eval-cases-source").selectOption("damaged.json");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.getByTestId("eval-cases-source").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/evaluate-results-cases-390.png` });
  await verdict(page, opened.id).click();
  await expect(page.getByTestId("eval-opened-note")).toHaveText(/^This case cannot be shown: its log could not be read: event record 1\.prompt: /);
  // Another case of the same file still opens.
  const other = fixture.results.find((r) => r !== opened && r.log)!;
  await verdict(page, other.id).click();
  await expect(page.getByTestId("eval-case-debugger").getByTestId("step-item")).toHaveCount(1);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("eval-case-debugger").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/evaluate-results-old-file-1440.png` });
});

test("every case of a file with more than 200 stays reachable: the list shows 200, then the rest on request, and the last one opens", async ({ page }) => {
  // 230 questions, as a results file of the whole suite has 250 (each a copy of the recorded case under its own id).
  const many = { ...fixture, results: Array.from({ length: 230 }, (_, i) => ({ ...opened, id: `simple_python_${i}`, category: "simple_python" })) };
  await page.goto("/#evaluate");
  await importFile(page, "many.json", JSON.stringify(many));
  await expect(page.getByTestId("eval-case-row")).toHaveCount(200);
  await expect(page.getByText("230 of 230 cases (first 200 shown)")).toBeVisible();
  await page.getByTestId("eval-case-more").click();
  await expect(page.getByTestId("eval-case-row")).toHaveCount(230);
  await expect(page.getByTestId("eval-case-more")).toHaveCount(0);
  await verdict(page, "simple_python_229").click();
  await expect(page.getByTestId("eval-case-debugger")).toBeVisible();
  if (stepStart.type !== "step-start") throw new Error("no step-start");
  expect(await shownPrompt(page)).toBe(stepStart.prompt);
});
