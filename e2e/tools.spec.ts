// The in-browser tools end to end: the replay engine plays scripted model output, the app runs
// the real tools (the calculator's parser, the JavaScript sandbox worker, IndexedDB, the
// deep_research sub-agent) and the chat and debugger show what happened. Each test serves its
// own transcript, so the model's text never contains the values the tools must produce.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";

const call = (name: string, args: Record<string, unknown>) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

/** Serves a replay transcript at /e2e-transcripts/<name>.json and opens the app with it. */
async function openWithTranscript(page: Page, name: string, turns: string[]): Promise<void> {
  const path = `/e2e-transcripts/${name}.json`;
  await page.route(`**${path}`, (route) =>
    route.fulfill({ contentType: "application/json", body: JSON.stringify({ title: `e2e ${name}`, protocol: "hermes", turns, delayMs: 0 }) }),
  );
  await page.goto(`/?engine=replay&transcript=${encodeURIComponent(path)}`);
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId("chat-input").fill(text);
  await page.getByTestId("send-button").click();
}

/** Waits until the n-th assistant turn (1-based) has finished. */
async function turnDone(page: Page, n: number) {
  const turn = page.getByTestId("message-assistant").nth(n - 1);
  await expect(turn).toHaveAttribute("data-status", "final");
  return turn;
}

test("the model calls calculator and gets the value computed in the page", async ({ page }) => {
  await openWithTranscript(page, "calculator", [call("calculator", { expression: "(1234 * 5678 - 2) / 5" }), "Computed it."]);
  await send(page, "What is (1234 × 5678 − 2) / 5?");
  await turnDone(page, 1);
  const card = page.locator('[data-testid="tool-call-card"][data-tool="calculator"]');
  await expect(card).toHaveAttribute("data-status", "ok");
  await expect(card).toContainText("1401330");
});

test("run_javascript: an endless loop is killed at the tool timeout, and the next call runs in a fresh sandbox", async ({ page }) => {
  await openWithTranscript(page, "javascript", [
    call("run_javascript", { code: "let n = 0;\nwhile (true) { n++; }" }),
    "That never finished.",
    call("run_javascript", {
      code: [
        "console.log('hello from the sandbox');",
        "const attempt = async (f) => { try { await f(); return 'allowed'; } catch (e) { return e.message; } };",
        "return {",
        "  doubled: [1, 2, 3].map((x) => x * 2),",
        "  dom: typeof document,",
        "  net: await attempt(() => fetch('/')),",
        "  netViaPrototype: await attempt(() => WorkerGlobalScope.prototype.fetch.call(self, '/')),",
        "  xhr: await attempt(() => new XMLHttpRequest()),",
        "  compile: await attempt(() => (function () {}).constructor('return 1')()),",
        "};",
      ].join("\n"),
    }),
    "Done.",
  ]);
  // A short timeout keeps the test quick; the loop is killed by it, not by the test.
  await page.getByTestId("setting-tool-timeout").fill("2");
  await send(page, "Run an endless loop.");
  await turnDone(page, 1);
  const endless = page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]').first();
  await expect(endless).toHaveAttribute("data-status", "timeout");
  // The page stayed responsive while the worker spun, and is still.
  await expect(page.getByTestId("chat-input")).toBeEditable();

  await send(page, "Now double 1, 2, 3.");
  await turnDone(page, 2);
  const second = page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]').nth(1);
  await expect(second).toHaveAttribute("data-status", "ok");
  await expect(second).toContainText('"doubled":[2,4,6]');
  await expect(second).toContainText("hello from the sandbox");
  await expect(second).toContainText('"dom":"undefined"');
  await expect(second).toContainText('"net":"fetch: Network access is disabled');
  await expect(second).toContainText('"netViaPrototype":"fetch: Network access is disabled');
  await expect(second).toContainText('"xhr":"XMLHttpRequest: Network access is disabled');
  await expect(second).toContainText('"compile":"Function constructor: compiling code from strings is disabled');
});

test("run_javascript: a huge result is cut with a note the model and the person see, and the conversation still saves", async ({ page }) => {
  await openWithTranscript(page, "javascript-huge", [call("run_javascript", { code: 'return "x".repeat(50e6)' }), "That was long."]);
  await send(page, "Make a very long string.");
  await turnDone(page, 1);
  const card = page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]').first();
  await expect(card).toHaveAttribute("data-status", "ok");
  await expect(card).toContainText("cut at 10000 characters: the result had 50000000");
  // The debugger shows the same note.
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
  await expect(page.getByTestId("tool-exec-view")).toContainText("cut at 10000 characters: the result had 50000000");
  // What was saved is small enough to save: after a reload the conversation comes back whole.
  await page.reload();
  await expect(card).toContainText("cut at 10000 characters: the result had 50000000");
  await expect(page.getByTestId("message-assistant").first()).toContainText("That was long.");
});

test("run_javascript: a thrown Proxy whose traps throw is reported as an error, not waited out", async ({ page }) => {
  const code = "const trap = () => { throw new Error('trap'); };\nthrow new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });";
  await openWithTranscript(page, "javascript-proxy", [call("run_javascript", { code }), "It threw."]);
  // A long timeout: only the sandbox's answer can end this call in time.
  await page.getByTestId("setting-tool-timeout").fill("300");
  await send(page, "Throw something strange.");
  await turnDone(page, 1);
  const card = page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]').first();
  await expect(card).toHaveAttribute("data-status", "error");
  await expect(card).toContainText("a value that cannot be read");
});

test("stopping the turn during an endless loop aborts the call, and the next call runs", async ({ page }) => {
  await openWithTranscript(page, "javascript-stop", [
    call("run_javascript", { code: "while (true) {}" }),
    call("run_javascript", { code: "return 6 * 7" }),
    "Back in business.",
  ]);
  // A long timeout: only the stop button can end this run in time.
  await page.getByTestId("setting-tool-timeout").fill("300");
  await send(page, "Spin forever.");
  const endless = page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]').first();
  await expect(endless).toHaveAttribute("data-status", "running");
  await page.getByTestId("stop-button").click();
  await expect(endless).toHaveAttribute("data-status", "aborted");
  await expect(page.getByTestId("message-assistant").first()).toHaveAttribute("data-status", "aborted");

  await send(page, "Try something quick.");
  await turnDone(page, 2);
  const quick = page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]').nth(1);
  await expect(quick).toHaveAttribute("data-status", "ok");
  await expect(quick).toContainText("42");
});

test("remember, then recall after a reload: the note lives in IndexedDB", async ({ page }) => {
  await openWithTranscript(page, "remember", [call("remember", { key: "favourite_colour", value: "teal green" }), "Noted."]);
  await send(page, "Remember that my favourite colour is teal green.");
  await turnDone(page, 1);
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="remember"]')).toHaveAttribute("data-status", "ok");

  // A reload, and a new conversation with a transcript that only recalls: the value can only
  // come from the note store.
  await page.unroute("**/e2e-transcripts/remember.json");
  await openWithTranscript(page, "recall", [call("recall", { key: "favourite_colour" }), "There you are."]);
  await page.getByTestId("new-conversation").click();
  await send(page, "What is my favourite colour?");
  await turnDone(page, 1);
  const recall = page.locator('[data-testid="tool-call-card"][data-tool="recall"]');
  await expect(recall).toHaveAttribute("data-status", "ok");
  await expect(recall).toContainText("teal green");
});

test("deep_research runs a sub-agent whose steps show nested under the calling step in the debugger", async ({ page }) => {
  await openWithTranscript(page, "research", [
    // Main agent, step 1: delegates.
    call("deep_research", { query: "How long does sunlight take to reach Earth?", deliverable_format: "markdown_brief" }),
    // Sub-agent, step 1: computes.
    call("calculator", { expression: "149597870.7 / 299792.458" }),
    // Sub-agent, step 2: its deliverable.
    "About **499 s** (8 min 19 s): 1 au divided by the speed of light.",
    // Main agent, step 2: answers.
    "Here is what the research found.",
  ]);
  await send(page, "Research: how long does sunlight take to reach Earth?");
  await turnDone(page, 1);

  const research = page.locator('[data-testid="tool-call-card"][data-tool="deep_research"]');
  await expect(research).toHaveAttribute("data-status", "ok");
  await expect(research).toContainText("499 s");

  const steps = page.getByTestId("step-item");
  await expect(steps.and(page.locator('[data-depth="0"]'))).toHaveCount(2);
  await expect(steps.and(page.locator('[data-depth="1"]'))).toHaveCount(2);
  // Nested steps come right after the step that called deep_research.
  const depths = await steps.evaluateAll((items) => items.map((item) => item.getAttribute("data-depth")));
  expect(depths).toEqual(["0", "1", "1", "0"]);

  // The sub-agent's own calculator call ran for real.
  await expect(research).toContainText("2 sub-steps");
  await steps.and(page.locator('[data-depth="1"]')).first().click();
  await expect(page.getByTestId("tool-exec-view")).toContainText("499.0047");
});

test("fetch_url reads a page's text in the browser, and explains a site that refuses to be read (CORS)", async ({ page, baseURL }) => {
  await page.route("**/e2e-pages/tides.html", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: "<html><head><title>Tides</title><script>window.secret = 1</script><style>p { color: red }</style></head><body><h1>High tide</h1><p>At <b>06:40</b> today.</p></body></html>",
    }),
  );
  // A real cross-origin server (another port) that sends no Access-Control-Allow-Origin: the
  // browser withholds its answer from the page. (Playwright's route.fulfill skips CORS.)
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<p>private</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const foreign = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
  try {
    await openWithTranscript(page, "fetch", [
      call("fetch_url", { url: `${baseURL}/e2e-pages/tides.html` }),
      "Read it.",
      call("fetch_url", { url: foreign }),
      "Could not read it.",
    ]);
    await send(page, "When is high tide?");
    await turnDone(page, 1);
    const first = page.locator('[data-testid="tool-call-card"][data-tool="fetch_url"]').first();
    await expect(first).toHaveAttribute("data-status", "ok");
    await expect(first).toContainText("High tide");
    await expect(first).toContainText("At 06:40 today.");
    await expect(first).not.toContainText("window.secret");
    await expect(first).not.toContainText("color: red");

    await send(page, "And that other page?");
    await turnDone(page, 2);
    const second = page.locator('[data-testid="tool-call-card"][data-tool="fetch_url"]').nth(1);
    await expect(second).toHaveAttribute("data-status", "error");
    await expect(second).toContainText("does not allow reading it from a browser page (CORS)");
    await expect(second).not.toContainText("private");
  } finally {
    server.close();
  }
});
