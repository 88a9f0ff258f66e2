// Hardening round 3 (issue 29), as a person meets it in the page: each attack's input, and what
// the page shows for it.
import { expect, test } from "@playwright/test";
import { deepSchemaLink, describeLongTasks, distinctResultsFile, dropFile, laughsFile, linkBomb, longTasksSince, pathologicalOutput, recordLongTasks } from "./hostile-inputs.ts";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";
import { startOpenAiTestServer } from "./openai-server/server.ts";

const SHOTS = "e2e/.output";

test("edit and re-run: an edited assistant message is what the prompt says, not its recorded output", async ({ page }) => {
  const calculatorCall = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1234 * 5678"}}\n</tool_call>';
  const url = await serveTranscript(page, "edited-reply", {
    title: "Calculator",
    protocol: "hermes",
    turns: [`I'll work that out.\n${calculatorCall}`, "1234 × 5678 = 7,006,652."],
  });
  await openLab(page, url);
  await send(page, "What is 1234 × 5678?");
  await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
  await expect(page.getByTestId("step-item")).toHaveCount(2);
  await page.getByTestId("step-item").nth(1).click();
  await page.getByTestId("step-rerun").click();
  await expect(page.getByTestId("rerun-prompt")).toHaveValue(/I'll work that out\./);
  // Message 2 is the model's reply that made the call.
  const reply = page.getByTestId("rerun-message").nth(1);
  await expect(reply).toHaveValue(/^I'll work that out\./);
  await reply.fill("I will estimate instead.");
  await expect(page.getByTestId("rerun-changes")).toContainText("message 2");
  await expect(page.getByTestId("rerun-prompt")).toHaveValue(/I will estimate instead\./);
  await expect(page.getByTestId("rerun-prompt")).not.toHaveValue(/I'll work that out\./);
});

test("an import whose references expand past the bound (billion laughs) is refused with the place and the bound, and nothing is kept", async ({ page }) => {
  await recordLongTasks(page);
  await openLab(page, "hermes-calculator");
  const sessions = await page.getByTestId("session-item").count();
  const since = await page.evaluate(() => performance.now());
  await dropFile(page, "import-file", "laughs.json", laughsFile());
  await expect(page.getByTestId("import-message")).toContainText(/events\.\d+\.prompt: the references of this file stand for more text than the lab reads from one file \([\d,]+ characters: 256 times the file's [\d,]+ characters/);
  console.log(describeLongTasks("import of a 7 KB billion-laughs file", await longTasksSince(page, since)));
  await expect(page.getByTestId("session-item")).toHaveCount(sessions);
  // A reload finds nothing of it.
  await page.reload();
  await expect(page.getByTestId("session-item")).toHaveCount(sessions);
});

test("a playground link that inflates past the bound is not opened, says why, and the playground works", async ({ page }) => {
  await recordLongTasks(page);
  await page.goto("/?view=playground");
  await expect(page.getByTestId("playground-output")).toBeVisible();
  const since = await page.evaluate(() => performance.now());
  const hash = await linkBomb();
  expect(hash.length).toBeLessThan(32_000);
  await page.goto(`/?view=playground${hash}`);
  await expect(page.getByTestId("playground-link-message")).toHaveText("The link's state inflates to more than 1,048,576 bytes, the most a playground link may hold; it was not opened.");
  console.log(describeLongTasks(`opening a ${Math.round(hash.length / 1000)} KB link bomb`, await longTasksSince(page, since)));
  await page.getByTestId("playground-output").fill('<tool_call>\n{"name": "get_current_time", "arguments": {"timezone": "UTC"}}\n</tool_call>');
  await expect(page.getByTestId("playground-call")).toHaveCount(1);
});

test("a playground link with a tool schema nested 100,000 (or 20,000) deep says so, and the playground parses again", async ({ page }) => {
  // 100,000 levels are more than a link's state may inflate to; 20,000 fit, and the schema is refused.
  await page.goto(`/?view=playground${await deepSchemaLink(100_000)}`);
  await expect(page.getByTestId("playground-link-message")).toContainText("inflates to more than 1,048,576 bytes");
  await page.goto("/");
  await page.goto(`/?view=playground${await deepSchemaLink(20_000)}`);
  await expect(page.getByTestId("playground-tools-error")).toContainText("nested more than 64 levels deep");
  await page.getByTestId("playground-tool-source").selectOption("built-in");
  await page.getByTestId("playground-output").fill('<tool_call>\n{"name": "get_current_time", "arguments": {"timezone": "UTC"}}\n</tool_call>');
  await expect(page.getByTestId("playground-call")).toHaveCount(1);
  await expect(page.getByTestId("playground-call").first()).toContainText("get_current_time");
});

test("Parse as… on a 1 MB pathological output reads it in a worker and lists a bounded part of its errors", async ({ page }) => {
  // Three waits of up to a minute each on a busy machine (the replayed step, the panel, the worker's
  // reading): the test's own limit holds them all.
  test.setTimeout(240_000);
  const output = pathologicalOutput(1_000_000);
  // Recorded as mistral, for which it is text (a quick run); read again as hermes, for which every line opens a call.
  const url = await serveTranscript(page, "pathological", { title: "Pathological", protocol: "mistral", turns: [output], chunkChars: 65_536, delayMs: 1 });
  await recordLongTasks(page);
  await openLab(page, url);
  await send(page, "Go.");
  await expect(page.locator("[data-testid=step-item][data-status]:not([data-status=running])")).toHaveCount(1, { timeout: 60_000 });
  await page.getByTestId("step-item").first().click();
  const since = await page.evaluate(() => performance.now());
  await page.getByTestId("reparse-protocol").selectOption("hermes");
  // The panel loads on demand, then says it is reading until the worker answers: on a busy machine
  // the first of these may take longer than the default wait, and "reading" may be brief.
  await expect(page.getByTestId("reparse-pending").or(page.getByTestId("reparse-explanation"))).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("reparse-explanation")).toContainText(/^as hermes/, { timeout: 60_000 });
  console.log(describeLongTasks("Parse as hermes on a 1 MB pathological output", await longTasksSince(page, since)));
  await expect(page.getByTestId("reparse-calls-errors")).toHaveAttribute("data-count", /^\d{5,}$/);
  await expect(page.getByTestId("reparse-calls-errors").locator("li")).toHaveCount(51);
  const explanation = (await page.getByTestId("reparse-explanation").textContent()) ?? "";
  expect(explanation.length).toBeLessThan(3_000);
  expect(await page.getByTestId("reparse-differences").locator("li").count()).toBeLessThanOrEqual(60);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("reparse-view").screenshot({ path: `${SHOTS}/reparse-pathological-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("reparse-view").screenshot({ path: `${SHOTS}/reparse-pathological-390.png` });
});

test("importing 2,000 results with distinct protocols and categories draws a bounded matrix and says what it leaves out", async ({ page }) => {
  await recordLongTasks(page);
  await page.goto("/?engine=replay#evaluate");
  await expect(page.getByTestId("eval-import")).toBeVisible();
  const since = await page.evaluate(() => performance.now());
  await dropFile(page, "eval-import-file", "results-2000.json", distinctResultsFile(2_000));
  await expect(page.getByTestId("eval-matrix-omitted")).toHaveText(/^Not drawn: 1,940 more rows and 1,976 more categories/, { timeout: 60_000 });
  console.log(describeLongTasks("importing 2,000 distinct results into the matrix", await longTasksSince(page, since)));
  await expect(page.getByTestId("eval-matrix-row")).toHaveCount(60);
  // The protocol, 24 categories, "all", then the format-drift and call-p columns.
  await expect(page.getByTestId("eval-matrix").locator("thead th")).toHaveCount(1 + 24 + 1 + 2);
  // The file's case list is bounded too: its first 24 protocol columns, the first 200 cases.
  await expect(page.getByTestId("eval-case-table").locator("thead th")).toHaveCount(1 + 24);
  await expect(page.getByTestId("eval-case-row")).toHaveCount(200);
  await expect(page.getByTestId("eval-case-columns-omitted")).toHaveText(/^1,976 more protocol rows not shown as columns/);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("eval-matrix-omitted").screenshot({ path: `${SHOTS}/matrix-omitted-1440.png` });
  await page.screenshot({ path: `${SHOTS}/matrix-2000-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/matrix-2000-390.png` });
});

test("Evaluate against a server replying 5 MB of unfinished calls: the cases end cut off and the page keeps getting turns", async ({ page }) => {
  test.setTimeout(240_000);
  // Every reply: "<tool_call>{" over and over, in 64 KB pieces, 5 MB in all.
  const piece = "<tool_call>{".repeat(Math.floor(65_536 / 12));
  const server = await startOpenAiTestServer({ models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }], noRecording: true, answer: () => ({ text: Array.from({ length: Math.ceil(5_000_000 / piece.length) }, () => piece) }) });
  try {
    await recordLongTasks(page);
    await page.goto("/#evaluate");
    await expect(page.getByTestId("evaluate-view")).toBeVisible();
    for (const category of ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"]) await page.getByTestId(`eval-category-${category}`).setChecked(category === "simple_python");
    await page.getByTestId("eval-per-category").fill("2");
    await page.getByTestId("eval-engine").selectOption("server-prompt");
    await page.getByTestId("eval-base-url").fill(server.url);
    await page.getByTestId("eval-model").fill("Qwen/Qwen3-8B");
    for (const name of ["hermes", "xml", "qwen3-coder", "pythonic"]) await page.getByTestId(`eval-protocol-${name}`).setChecked(name === "hermes");
    const since = await page.evaluate(() => performance.now());
    await page.getByTestId("eval-run").click();
    await expect(page.getByTestId("eval-progress-text")).toContainText("done", { timeout: 200_000 });
    console.log(describeLongTasks("Evaluate, 2 cases of 5 MB replies of <tool_call>{", await longTasksSince(page, since)));
    await expect(page.getByTestId("eval-progress-text")).toContainText("2 / 2");
    await expect(page.getByTestId("eval-verdict")).toHaveCount(2);
    for (const verdict of await page.getByTestId("eval-verdict").all()) await expect(verdict).toHaveAttribute("data-pass", "false");
  } finally {
    await server.close();
  }
});

test("a transcript link spelled /\\host, \\\\host or /<TAB>/host waits for the consent question and fetches nothing", async ({ page }) => {
  let fetched = 0;
  await page.route("http://127.0.0.1:4361/**", (route) => {
    fetched += 1;
    return route.fulfill({ contentType: "application/json", headers: { "access-control-allow-origin": "*" }, body: JSON.stringify({ title: "Foreign", protocol: "hermes", turns: ["hi"] }) });
  });
  for (const spelled of ["/\\127.0.0.1:4361/b.json", "\\\\127.0.0.1:4361/b.json", "/\t/127.0.0.1:4361/b.json"]) {
    await page.goto(`/?engine=replay&transcript=${encodeURIComponent(spelled)}`);
    await expect(page.getByTestId("transcript-consent"), spelled).toContainText("127.0.0.1:4361");
    await expect(page.getByTestId("engine-label")).toContainText("Replay");
    await expect(page.getByTestId("engine-label")).not.toContainText("Foreign");
    await page.getByTestId("transcript-consent-refuse").click();
  }
  expect(fetched).toBe(0);
});
