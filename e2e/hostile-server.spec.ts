// An OpenAI-compatible server the person connects is not trusted to keep its replies small: the
// stand-in (e2e/openai-server/server.ts) turns hostile on cue. A reply or a reasoning stream that
// ignores max_tokens is stopped at the step's output limit (the request is cancelled, what fits
// is kept, the turn says why); one `data:` line that never ends is refused at the SSE reader's
// bound. The page stays usable after each.
//
// The floods never end (and are written only as fast as the client reads: back-pressure): the
// response can only end by the lab cancelling it, so "the request was stopped" holds by what is
// checked, not by whether a busy machine let the server finish a 20 MB flood first (it did once,
// at load 10: closedEarly() 0).
import { expect, test, type Page } from "@playwright/test";
import { startOpenAiTestServer, type OpenAiTestServer } from "./openai-server/server.ts";
import { send } from "./lab-helpers.ts";

let server: OpenAiTestServer;
test.beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }] });
});
test.afterAll(() => server.close());

/** A flood without end: only the client going away ends it. */
const ENDLESS = Number.POSITIVE_INFINITY;

async function connected(page: Page, mode: "prompt" | "native") {
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("openai");
  await page.getByTestId("openai-base-url").fill(server.url);
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("openai-model-select")).toHaveValue("Qwen/Qwen3-8B");
  await page.getByTestId("openai-mode").selectOption(mode);
  await expect(page.getByTestId("engine-label")).toContainText(`(${mode})`);
}

/** The next turn works: the lab was not left frozen or "running". */
async function stillWorks(page: Page) {
  server.script({ text: ["Fine."] });
  await send(page, "Still there?");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Fine.");
}

test("a reply that ignores max_tokens and never ends is cut at the step's limit, the request is stopped, the turn says so", async ({ page }) => {
  const before = server.closedEarly();
  server.script({ text: ["Here it comes: "], flood: { kind: "text", chars: ENDLESS } });
  await connected(page, "prompt");
  await send(page, "Say something");
  const reply = page.getByTestId("message-assistant").last();
  await expect(reply).toHaveAttribute("data-status", "cut-off", { timeout: 60_000 });
  const note = reply.getByTestId("turn-end-note");
  await expect(note).toHaveAttribute("data-cut-off", "output-limit");
  await expect(note).toContainText("passed the lab's limit of 1,000,000 characters for one step");
  await page.screenshot({ path: "e2e/.output/hostile-server-huge-reply.png" });
  // The lab cancelled the request: the endless response ended only because the client went away.
  await expect.poll(() => server.closedEarly()).toBe(before + 1);
  expect(server.floodSent()).toBeGreaterThanOrEqual(1_000_000 - "Here it comes: ".length);
  // The debugger holds exactly the limit's worth of raw output.
  await expect(page.getByTestId("step-item")).toHaveCount(1);
  const rawLength = await page.getByTestId("raw-output-view").evaluate((view) => (view.textContent ?? "").length);
  expect(rawLength).toBeGreaterThanOrEqual(1_000_000);
  expect(rawLength).toBeLessThan(1_001_000);
  // The saved conversation exports (an 80 MB one failed to), at a few times the limit: the log
  // still holds the text in several events (deltas, parse events, the message, the run's end).
  const download = page.waitForEvent("download");
  await page.getByTestId("export-json").click();
  let bytes = 0;
  for await (const chunk of await (await download).createReadStream()) bytes += (chunk as Buffer).length;
  console.log(`exported log of the cut endless reply: ${(bytes / 1e6).toFixed(1)} MB`);
  expect(bytes).toBeLessThan(8_000_000);
  await stillWorks(page);
});

test("endless reasoning is cut at the reasoning limit, and the request stopped", async ({ page }) => {
  const before = server.closedEarly();
  server.script({ text: [], flood: { kind: "reasoning", chars: ENDLESS } });
  await connected(page, "native");
  await send(page, "Think hard");
  const reply = page.getByTestId("message-assistant").last();
  await expect(reply).toHaveAttribute("data-status", "cut-off", { timeout: 60_000 });
  await expect(reply.getByTestId("turn-end-note")).toContainText("reasoning passed the lab's limit of 1,000,000 characters");
  await expect.poll(() => server.closedEarly()).toBe(before + 1);
  await stillWorks(page);
});

test("one endless data: line is refused at the stream reader's bound with a clear error", async ({ page }) => {
  server.script({ text: ["Before the line. "], flood: { kind: "endless-line", chars: 200_000_000, pieceChars: 64_000 } });
  await connected(page, "native");
  await send(page, "Hello");
  const reply = page.getByTestId("message-assistant").last();
  await expect(reply).toHaveAttribute("data-status", "engine-error", { timeout: 60_000 });
  await expect(reply).toContainText("a stream line of more than 1,000,000 characters without ending it");
  await expect(reply).toContainText("Before the line.");
  await page.screenshot({ path: "e2e/.output/hostile-server-endless-line.png" });
  expect(server.floodSent()).toBeLessThan(200_000_000);
  await stillWorks(page);
});
