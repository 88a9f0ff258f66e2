// The Evaluate view against the project's OpenAI-compatible test server, which answers the eval
// questions itself (right, wrong or repairable): a small suite in prompt mode for two protocols
// and in native mode, the matrix, a case opened in the debugger, and a run resumed after a reload.
import { expect, test, type Page } from "@playwright/test";
import { evalAnswerer, type EvalBehaviour } from "./openai-server/eval-replies.ts";
import { startOpenAiTestServer, type OpenAiTestServer, type RecordedRequest } from "./openai-server/server.ts";
import { bfclCategory, bfclFile } from "../src/eval/bfcl-fixtures.test-helper.ts";
import { readCaseLog } from "../src/eval/case-log.ts";
import type { ResultsFile } from "../src/eval/results-file.ts";
import { openLab, send, shownPrompt } from "./lab-helpers.ts";

const cases = [...bfclCategory("simple_python"), ...bfclCategory("irrelevance"), ...bfclCategory("multiple")];
// simple_python_1: hermes gets a wrong answer, xml the right one (the protocols disagree);
// simple_python_2: repairable (pass, not strict); irrelevance_1: a call where none was wanted.
function behaviour(id: string, protocol: string): EvalBehaviour {
  if (id === "simple_python_1") return protocol === "xml" ? "right" : "wrong";
  if (id === "simple_python_2") return "repairable";
  if (id === "irrelevance_1") return "wrong";
  return "right";
}
const answer = evalAnswerer(cases, behaviour);
/** While set, replies to this case's question are held open (the run is mid-way). */
let holdCase: string | null = null;

let server: OpenAiTestServer;
test.beforeAll(async () => {
  server = await startOpenAiTestServer({
    models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }],
    answer: (request: RecordedRequest) => {
      const reply = answer(request);
      const question = holdCase ? cases.find((c) => c.id === holdCase)?.messages.at(-1)?.content : undefined;
      const text = JSON.stringify(request.body ?? {});
      return reply && question && text.includes(JSON.stringify(question).slice(1, -1)) ? { ...reply, hold: true } : reply;
    },
  });
});
test.afterAll(() => server.close());
test.beforeEach(() => {
  server.requests.length = 0;
  holdCase = null;
});

async function setUp(page: Page, options: { engine: "server-prompt" | "server-native"; protocols?: string[]; perCategory: number; categories: string[]; concurrency?: number }) {
  await page.goto("/#evaluate");
  await expect(page.getByTestId("evaluate-view")).toBeVisible();
  for (const category of ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"]) {
    await page.getByTestId(`eval-category-${category}`).setChecked(options.categories.includes(category));
  }
  await page.getByTestId("eval-per-category").fill(String(options.perCategory));
  await page.getByTestId("eval-engine").selectOption(options.engine);
  await page.getByTestId("eval-base-url").fill(server.url);
  await page.getByTestId("eval-model").fill("Qwen/Qwen3-8B");
  if (options.concurrency) await page.getByTestId("eval-concurrency").fill(String(options.concurrency));
  if (options.protocols) {
    for (const name of ["hermes", "xml", "qwen3-coder", "pythonic"]) await page.getByTestId(`eval-protocol-${name}`).setChecked(options.protocols.includes(name));
  }
}

function cell(page: Page, row: string, category: string) {
  return page.locator(`[data-testid="eval-matrix-row"][data-row="${row}"] [data-testid="eval-cell"][data-category="${category}"]`);
}

test("prompt mode, two protocols: the matrix, the cases, and a case opened in the debugger", async ({ page }) => {
  await setUp(page, { engine: "server-prompt", protocols: ["hermes", "xml"], perCategory: 3, categories: ["simple_python", "irrelevance"] });
  await page.getByTestId("eval-run").click();
  await expect(page.getByTestId("eval-progress-text")).toContainText("12 / 12");
  await expect(page.getByTestId("eval-progress-text")).toContainText("done");

  // hermes: simple 2 of 3 pass (1 wrong), 1 strict; xml: 3 of 3, 2 strict; irrelevance 2 of 3 each.
  await expect(cell(page, "hermes", "simple_python")).toContainText("67%");
  await expect(cell(page, "hermes", "simple_python")).toContainText("strict 33%");
  await expect(cell(page, "hermes", "simple_python")).toContainText("n=3");
  await expect(cell(page, "xml", "simple_python")).toContainText("100%");
  await expect(cell(page, "xml", "simple_python")).toHaveAttribute("data-best", "true");
  await expect(cell(page, "hermes", "irrelevance")).toContainText("67%");
  await expect(cell(page, "xml", "all")).toContainText("n=6");
  // Format drift: hermes failed twice, each time with a call of its own format (a wrong call), so no drift.
  await expect(page.locator('[data-testid=eval-matrix-row][data-row="hermes"] [data-testid=eval-drift]')).toHaveText("0 of 2 failed");
  // The prompts went to /v1/completions, rendered with Qwen3's template, in each protocol.
  const prompts = server.requests.filter((r) => r.path === "/v1/completions").map((r) => String(r.body?.prompt));
  expect(prompts).toHaveLength(12);
  expect(prompts.every((p) => p.startsWith("<|im_start|>system"))).toBe(true);
  await page.screenshot({ path: "e2e/.output/evaluate-matrix.png", fullPage: true });

  // Cases where the protocols disagree: only simple_python_1.
  await page.getByTestId("eval-filter-disagree").check();
  await expect(page.getByTestId("eval-case-row")).toHaveCount(1);
  const row = page.locator('[data-testid="eval-case-row"][data-case="simple_python_1"]');
  await expect(page.getByTestId("eval-case-row").first()).toHaveAttribute("data-case", "simple_python_1");
  await expect(row.locator('[data-protocol="hermes"]')).toHaveAttribute("data-pass", "false");
  await expect(row).toContainText("number: 6 is not one of [5]");
  await page.getByTestId("eval-filter-disagree").uncheck();
  await page.getByTestId("eval-filter-failed").check();
  await expect(page.getByTestId("eval-case-row")).toHaveCount(2);

  // The failed case's step in the debugger: its prompt, its raw output, the verdict's reason.
  await row.locator('[data-protocol="hermes"]').click();
  const debuggerView = page.getByTestId("eval-case-debugger");
  await expect(debuggerView.getByTestId("eval-opened-verdict")).toContainText("fail: number: 6 is not one of [5]");
  await expect(debuggerView.getByTestId("prompt-view")).toContainText("Calculate the factorial of 5 using math functions.");
  await expect(debuggerView).toContainText('"number": 6');
  await debuggerView.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "e2e/.output/evaluate-debugger.png", fullPage: true });
});

test("native mode: the tools go to chat completions; one row, 'native'", async ({ page }) => {
  await setUp(page, { engine: "server-native", perCategory: 2, categories: ["simple_python", "irrelevance"] });
  await page.getByTestId("eval-run").click();
  await expect(page.getByTestId("eval-progress-text")).toContainText("4 / 4");
  await expect(cell(page, "native", "simple_python")).toContainText("50%");
  await expect(cell(page, "native", "irrelevance")).toContainText("50%");
  const chats = server.requests.filter((r) => r.path === "/v1/chat/completions");
  expect(chats).toHaveLength(4);
  const names = chats.flatMap((r) => (r.body?.tools as Array<{ function: { name: string } }>).map((t) => t.function.name));
  expect(names).toContain("math_factorial");
});

test("a run survives a reload mid-way and resumes where it stopped; results can be exported", async ({ page }) => {
  holdCase = "simple_python_2";
  await setUp(page, { engine: "server-prompt", protocols: ["hermes"], perCategory: 4, categories: ["simple_python"], concurrency: 1 });
  await page.getByTestId("eval-run").click();
  // Two cases done, the third held open by the server: reload now.
  await expect(page.getByTestId("eval-progress-text")).toContainText("2 / 4");
  await expect.poll(() => server.requests.filter((r) => r.path === "/v1/completions").length).toBe(3);
  await page.reload();
  await expect(page.getByTestId("eval-progress-text")).toContainText("2 / 4");
  await expect(page.getByTestId("eval-progress-text")).toContainText("interrupted");
  await expect(cell(page, "hermes", "simple_python")).toContainText("n=2");

  holdCase = null;
  await page.getByTestId("eval-resume").click();
  await expect(page.getByTestId("eval-progress-text")).toContainText("4 / 4");
  await expect(page.getByTestId("eval-progress-text")).toContainText("done");
  await expect(cell(page, "hermes", "simple_python")).toContainText("n=4");
  // The two cases done before the reload were not asked again.
  const asked = server.requests.filter((r) => r.path === "/v1/completions").map((r) => String(r.body?.prompt));
  const count = (question: string) => asked.filter((p) => p.includes(question)).length;
  expect(count("Find the area of a triangle with a base of 10 units and height of 5 units.")).toBe(1);
  expect(asked).toHaveLength(5);

  const download = page.waitForEvent("download");
  await page.getByTestId("eval-export-json").click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray();
  const exportedText = Buffer.concat(text).toString("utf8");
  const exported = JSON.parse(exportedText) as ResultsFile;
  expect(exported.results).toHaveLength(4);
  expect(exported.summary[0]?.n).toBe(4);
  // Each case with its step's log (read back from IndexedDB, across the reload): the prompt it was sent.
  const prompts = exported.results.map((r) => readCaseLog(r.log!).find((e) => e.type === "step-start"));
  for (const stepStart of prompts) expect(stepStart?.type === "step-start" && asked.includes(stepStart.prompt)).toBe(true);
  // The exported file, imported again, opens its cases in the debugger.
  await page.getByTestId("eval-import-file").setInputFiles({ name: "exported.json", mimeType: "application/json", buffer: Buffer.from(exportedText) });
  await page.getByTestId("eval-cases-source").selectOption("exported.json");
  await page.locator('[data-testid="eval-case-row"][data-case="simple_python_0"] [data-testid="eval-verdict"]').click();
  await expect(page.getByTestId("eval-opened-source")).toContainText("exported.json");
  const recorded = prompts[exported.results.findIndex((r) => r.id === "simple_python_0")];
  expect(await shownPrompt(page)).toBe(recorded?.type === "step-start" ? recorded.prompt : "");
});

test("Stop holds the run, Resume finishes it; a results file imported beside it is compared in the matrix; the chat stays usable", async ({ page }) => {
  holdCase = "simple_python_1";
  await setUp(page, { engine: "server-prompt", protocols: ["hermes"], perCategory: 3, categories: ["simple_python"], concurrency: 1 });
  await page.getByTestId("eval-run").click();
  await expect(page.getByTestId("eval-progress-text")).toContainText("1 / 3");
  await page.getByTestId("eval-stop").click();
  await expect(page.getByTestId("eval-progress")).toHaveAttribute("data-status", "stopped");
  await expect(page.getByTestId("eval-progress-text")).toContainText("1 / 3 · pass 100% · stopped");

  // Meanwhile the lab is one click away, its chat untouched.
  await page.getByTestId("view-lab").click();
  await expect(page.getByTestId("chat-input")).toBeVisible();
  await page.getByTestId("view-evaluate").click();

  holdCase = null;
  await page.getByTestId("eval-resume").click();
  await expect(page.getByTestId("eval-progress-text")).toContainText("3 / 3");
  await expect(cell(page, "hermes", "simple_python")).toContainText("n=3");

  // Another model's results (the command's file) beside this run's.
  const other = {
    results: ["simple_python_0", "simple_python_1", "simple_python_2"].map((id, i) => ({ id, protocol: "hermes", mode: "prompt", constrained: false, pass: i === 0, strictPass: i === 0, reason: i === 0 ? "" : "made 0 calls, expected 1", calls: [] })),
    summary: [],
  };
  await page.getByTestId("eval-import-file").setInputFiles({ name: "small-model.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(other)) });
  await expect(page.getByTestId("eval-imported")).toContainText("small-model.json (3)");
  await expect(page.getByTestId("eval-matrix-row")).toHaveCount(2);
  const imported = page.locator('[data-testid="eval-matrix-row"][data-row="small-model.json · hermes"] [data-category="simple_python"]');
  await expect(imported).toContainText("33%");
  await expect(imported).toContainText("n=3");
  await page.screenshot({ path: "e2e/.output/evaluate-compare.png", fullPage: true });

  // A file that is not a results file is refused with a message.
  await page.getByTestId("eval-import-file").setInputFiles({ name: "nonsense.json", mimeType: "application/json", buffer: Buffer.from('{"results": [{"id": 3}]}') });
  await expect(page.getByTestId("eval-error")).toContainText("nonsense.json: not an eval results file: results.0.id");
});

test("a suite in BFCL's own files is imported (a broken line refused with its number) and run", async ({ page }) => {
  await setUp(page, { engine: "server-prompt", protocols: ["hermes"], perCategory: 10, categories: ["simple_python"] });
  const questions = bfclFile("multiple.questions.jsonl").split("\n").slice(0, 3);
  const file = (name: string, text: string) => ({ name, mimeType: "application/jsonl", buffer: Buffer.from(text) });

  await page.getByTestId("eval-suite-questions").setInputFiles(file("mine.jsonl", [questions[0], "{not json", questions[1]].join("\n")));
  await page.getByTestId("eval-suite-answers").setInputFiles(file("mine-answers.jsonl", bfclFile("multiple.answers.jsonl")));
  await page.getByTestId("eval-suite-import").click();
  await expect(page.getByTestId("eval-error")).toContainText("mine.jsonl line 2: not JSON");
  await expect(page.getByTestId("eval-suite-imported")).toHaveCount(0);

  await page.getByTestId("eval-suite-questions").setInputFiles(file("mine.jsonl", questions.join("\n")));
  await page.getByTestId("eval-suite-import").click();
  await expect(page.getByTestId("eval-suite-imported")).toHaveText("mine.jsonl: 3 cases");
  await page.getByTestId("eval-run").click();
  await expect(page.getByTestId("eval-progress-text")).toContainText("3 / 3");
  await expect(cell(page, "hermes", "multiple")).toContainText("100%");
  await expect(cell(page, "hermes", "multiple")).toContainText("n=3");
  await expect(page.locator('[data-testid="eval-cell"][data-category="simple_python"]')).toHaveCount(0);
});

test("Save as eval case: a chat turn with the call marked right becomes a case that runs as a suite", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
  await page.getByTestId("view-evaluate").click();
  await page.getByTestId("eval-save-turns").locator("summary").click();
  const turn = page.getByTestId("eval-turn").first();
  await expect(turn).toContainText("What is 1234 * 5678?");
  await expect(turn.getByTestId("eval-turn-call")).toBeChecked();
  await turn.getByTestId("eval-turn-save").click();
  await expect(page.getByTestId("eval-turn-saved")).toHaveText("Saved as saved_1.");
  await page.getByTestId("eval-saved-run").click();
  await expect(page.getByTestId("eval-suite-imported")).toHaveText("saved cases: 1 cases");

  // The server answers the saved question once right (hermes), once wrong (xml).
  const question = "What is 1234 * 5678?";
  const calls = { hermes: '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1234 * 5678"}}\n</tool_call>', xml: "<tool_call>\n<tool_name>calculator</tool_name>\n<expression>1234 * 5679</expression>\n</tool_call>" };
  for (const protocol of ["hermes", "xml"] as const) server.script({ text: [calls[protocol]] });
  await page.getByTestId("eval-engine").selectOption("server-prompt");
  await page.getByTestId("eval-base-url").fill(server.url);
  await page.getByTestId("eval-model").fill("Qwen/Qwen3-8B");
  await page.getByTestId("eval-concurrency").fill("1");
  await page.getByTestId("eval-protocol-hermes").setChecked(true);
  await page.getByTestId("eval-protocol-xml").setChecked(true);
  await page.getByTestId("eval-run").click();
  await expect(page.getByTestId("eval-progress-text")).toContainText("2 / 2");
  expect(server.requests.filter((r) => String(r.body?.prompt ?? "").includes(question))).toHaveLength(2);
  await expect(cell(page, "hermes", "saved")).toContainText("100%");
  await expect(cell(page, "xml", "saved")).toContainText("0%");
  await expect(page.locator('[data-testid="eval-case-row"][data-case="saved_1"]')).toContainText('expression: "1234 * 5679" is not one of ["1234 * 5678"]');
  await page.screenshot({ path: "e2e/.output/evaluate-saved-case.png", fullPage: true });
});
