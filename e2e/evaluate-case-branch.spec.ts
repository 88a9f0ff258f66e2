// A token forced in Evaluate's debugger stays with that case: the branch runs on the current
// engine (the OpenAI-compatible stand-in, e2e/openai-server/) from the case's recorded prompt,
// shows under the case's step, and never enters the Lab's conversation; Esc, and the Stop beside
// the force buttons, each end a branch whose stream the server holds open. The case is the real SmolLM2 run of the results fixture
// (e2e/fixtures/README.md). Asserted on what was sent and what the page shows.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { readCaseLog } from "../src/eval/case-log.ts";
import type { ResultsFile } from "../src/eval/results-file.ts";
import { startOpenAiTestServer, type OpenAiTestServer } from "./openai-server/server.ts";

const FIXTURE = "eval-results-smollm2-with-logs.json";
const fixtureText = readFileSync(new URL(`./fixtures/${FIXTURE}`, import.meta.url), "utf8");
const fixture = JSON.parse(fixtureText) as ResultsFile;
const opened = fixture.results.find((r) => r.callP !== undefined && r.callP !== null)!;
const events = readCaseLog(opened.log!);
const stepStart = events.find((e) => e.type === "step-start")!;

let server: OpenAiTestServer;
test.beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }] });
});
test.afterAll(() => server.close());

test("a branch forced in a case's debugger stays with the case, and Esc or Stop stops it", async ({ page }) => {
  if (stepStart.type !== "step-start") throw new Error("no step-start");
  server.script({ text: [" and so on."] }, { text: [" more"], hold: true }, { text: [" still more"], hold: true });
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("openai");
  await page.getByTestId("openai-base-url").fill(server.url);
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("openai-model-select")).toHaveValue("Qwen/Qwen3-8B");
  await page.getByTestId("openai-mode").selectOption("prompt");
  await page.getByRole("button", { name: "Evaluate" }).click();
  await page.getByTestId("eval-import-file").setInputFiles({ name: FIXTURE, mimeType: "application/json", buffer: Buffer.from(fixtureText) });
  await page.locator(`[data-testid="eval-case-row"][data-case="${opened.id}"] [data-testid="eval-verdict"]`).click();
  const caseDebugger = page.getByTestId("eval-case-debugger");
  await expect(caseDebugger).toBeVisible();

  await caseDebugger.getByTestId("probabilities-toggle").click();
  const first = caseDebugger.getByTestId("tp-token").first();
  await first.hover();
  await first.click();
  const offered = caseDebugger.locator('[data-testid=tp-alternative]:not([data-sampled="true"])').first();
  await offered.getByTestId("tp-force").click();
  const branches = caseDebugger.locator('[data-testid=step-item][data-branch="true"]');
  await expect(branches).toHaveCount(1);
  await expect(branches.first()).not.toHaveAttribute("data-status", /running/);
  const sent = server.requests.filter((r) => r.path === "/v1/completions");
  expect(sent).toHaveLength(1);
  // The case's recorded prompt, then the forced alternative (the first token's place is the output's start).
  expect(String(sent[0]!.body!.prompt).startsWith(stepStart.prompt.replace(/^<bos>/, ""))).toBe(true);

  // A second one, held open by the server: Esc ends it.
  await caseDebugger.locator("[data-testid=step-item]:not([data-branch])").first().click();
  if ((await caseDebugger.getByTestId("tp-token").count()) === 0) await caseDebugger.getByTestId("probabilities-toggle").click();
  await first.hover();
  await caseDebugger.locator('[data-testid=tp-alternative]:not([data-sampled="true"])').first().getByTestId("tp-force").click();
  await expect(branches).toHaveCount(2);
  await expect(caseDebugger.getByTestId("force-stop")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(branches.nth(1)).toHaveAttribute("data-status", "aborted");

  // A third, held open too: the Stop button beside the force buttons ends it.
  await caseDebugger.locator("[data-testid=step-item]:not([data-branch])").first().click();
  if ((await caseDebugger.getByTestId("tp-token").count()) === 0) await caseDebugger.getByTestId("probabilities-toggle").click();
  await first.hover();
  await caseDebugger.locator('[data-testid=tp-alternative]:not([data-sampled="true"])').first().getByTestId("tp-force").click();
  await expect(branches).toHaveCount(3);
  await caseDebugger.getByTestId("force-stop").click();
  await expect(branches.nth(2)).toHaveAttribute("data-status", "aborted");
  await expect(caseDebugger.getByTestId("force-stop")).toHaveCount(0);
  expect(server.requests.filter((r) => r.path === "/v1/completions")).toHaveLength(3);

  // The Lab's conversation has none of it.
  await page.getByRole("button", { name: "Lab" }).click();
  await expect(page.locator('[data-testid=step-item][data-branch="true"]')).toHaveCount(0);
});
