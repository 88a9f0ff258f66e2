// Input chosen by a model, a file or a link must not take the lab down, nor keep it down across
// a reload: deep Markdown, bad settings in an imported file, a conversation whose showing never
// finished, a transcript on another site, bidi controls, and a turn cut by a reload.
import { expect, test, type Page } from "@playwright/test";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";
import { RunLogBuilder } from "../src/ui/debugger/event-fixtures.ts";

const DEEP_QUOTE = ">".repeat(4000) + " deep";
const DEEP_LIST = "- ".repeat(4000) + "deeper";

/** An exported-conversation file with one turn whose answer is `answer`, and the given settings. */
function conversationFile(title: string, answer: string, settings?: unknown): string {
  const run = new RunLogBuilder("run-1").runStart();
  run
    .stepStart("s1", 1, "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n")
    .output("s1", answer, 0)
    .parse("s1", { type: "text", text: answer, span: { start: 0, end: answer.length } })
    .stepEnd("s1", "final")
    .runEnd();
  return JSON.stringify({ format: "toolcall-lab/conversation", version: 1, title, createdAt: 1, ...(settings === undefined ? {} : { settings }), events: run.events });
}

async function importFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId("import-file").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
}

async function expectLabUsable(page: Page): Promise<void> {
  await expect(page.locator(".fatal")).toHaveCount(0);
  await expect(page.getByTestId("session-list")).toBeVisible();
  await expect(page.getByTestId("chat-input")).toBeEditable();
}

test("a reply nested 4,000 deep renders, and the lab still works after a reload", async ({ page }) => {
  const url = await serveTranscript(page, "deep", { title: "Deep", protocol: "hermes", chunkChars: 4000, delayMs: 0, turns: [`${DEEP_QUOTE}\n\n${DEEP_LIST}`] });
  await openLab(page, url);
  await send(page, "nest");
  const answer = page.getByTestId("message-assistant");
  await expect(answer).toHaveAttribute("data-status", "final");
  await expect(answer).toContainText("deep");
  await expect(answer).toContainText("deeper");
  await expectLabUsable(page);

  await page.reload();
  await expect(page.getByTestId("message-assistant")).toContainText("deeper");
  await expectLabUsable(page);
});

test("an imported conversation with deep nesting and unusable settings opens, says which settings were reset, and Send works", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await importFile(
    page,
    "bad-settings.json",
    conversationFile("Bad settings", DEEP_QUOTE, { disabledTools: {}, systemPrompt: 5, maxSteps: "abc", temperature: 0.2 }),
  );
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await expect(page.getByTestId("message-assistant")).toContainText("deep");
  const notice = page.getByTestId("conversation-notice");
  await expect(notice).toContainText('Some settings of "Bad settings (imported)" were not usable and were reset');
  for (const field of ["maxSteps", "systemPrompt", "disabledTools"]) await expect(notice).toContainText(field);
  await expect(page.getByTestId("setting-max-steps")).toHaveValue("8");
  await expectLabUsable(page);

  // The next turn runs (it used to hang on "Generating…" with the typed message lost).
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", "final");
  await expect(page.getByTestId("chat-input")).toHaveAttribute("placeholder", /Ask something/);

  await page.reload();
  await expect(page.getByTestId("message-assistant").last()).toContainText("7,006,652");
  await expectLabUsable(page);
});

test("a conversation whose showing never finished is not reopened at start; it stays in the list", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  // What a page that died while showing this conversation leaves behind: its "opening" mark.
  await page.evaluate(() => localStorage.setItem("toolcall-lab:opening-conversation", localStorage.getItem("toolcall-lab:active-conversation") ?? ""));
  await page.reload();
  await expect(page.getByTestId("conversation-notice")).toContainText("was not reopened");
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await expectLabUsable(page);

  // Opened by hand it shows, and once shown the next start reopens it as usual.
  await page.getByTestId("session-item").filter({ hasText: "What is 1234" }).getByRole("button").first().click();
  await expect(page.getByTestId("message-assistant")).toContainText("7,006,652");
  await page.reload();
  await expect(page.getByTestId("message-assistant")).toContainText("7,006,652");
  await expect(page.getByTestId("conversation-notice")).toHaveCount(0);
});

test("a link to a transcript on another site loads it only after the person agrees", async ({ page }) => {
  const foreign = "http://transcripts.other-site.test/deep.json";
  let fetched = 0;
  await page.route(foreign, (route) => {
    fetched += 1;
    return route.fulfill({
      contentType: "application/json",
      headers: { "access-control-allow-origin": "*" },
      body: JSON.stringify({ title: "Foreign deep", protocol: "hermes", chunkChars: 4000, delayMs: 0, turns: [DEEP_QUOTE] }),
    });
  });
  await page.goto(`/?engine=replay&transcript=${encodeURIComponent(foreign)}`);
  const consent = page.getByTestId("transcript-consent");
  await expect(consent).toContainText(foreign);
  await expect(page.getByTestId("engine-label")).toContainText("Replay");
  await expect(page.getByTestId("engine-label")).not.toContainText("Foreign deep");
  await expectLabUsable(page);
  expect(fetched).toBe(0);

  // Refused: nothing fetched, nothing remembered for the next visit.
  await page.getByTestId("transcript-consent-refuse").click();
  await expect(consent).toHaveCount(0);
  await page.goto("/");
  await expect(page.getByTestId("session-list")).toBeVisible();
  await expect(page.getByTestId("engine-label")).not.toContainText("other-site");
  expect(fetched).toBe(0);

  // Agreed: it loads and plays.
  await page.goto(`/?engine=replay&transcript=${encodeURIComponent(foreign)}`);
  await page.getByTestId("transcript-consent-load").click();
  await expect(page.getByTestId("engine-label")).toContainText("Foreign deep");
  expect(fetched).toBe(1);
  await send(page, "go");
  await expect(page.getByTestId("message-assistant")).toContainText("deep");
  await expectLabUsable(page);
});

test("bidi control characters in a reply and a tool call's arguments are shown as marks", async ({ page }) => {
  const url = await serveTranscript(page, "bidi", {
    title: "Bidi",
    protocol: "hermes",
    turns: ['<tool_call>\n{"name": "calculator", "arguments": {"expression": "1+1 \u202e // 9*9"}}\n</tool_call>', "Open invoice\u202efdp.exe now."],
  });
  await openLab(page, url);
  await send(page, "bidi");
  const answer = page.getByTestId("message-assistant");
  await expect(answer).toHaveAttribute("data-status", "final");
  await expect(answer.getByTestId("bidi-mark").first()).toHaveText("⟨U+202E⟩");
  await expect(page.getByTestId("tool-call-card").getByTestId("bidi-mark").first()).toHaveText("⟨U+202E⟩");
  expect(await page.getByTestId("tool-call-card").innerText()).not.toContain("\u202e");
  expect(await answer.innerText()).not.toContain("\u202e");
});

test("after a reload mid-turn the debugger shows the cut step as interrupted, not streaming", async ({ page }) => {
  const words = Array.from({ length: 300 }, (_, i) => `Word ${i + 1}.`).join(" ");
  const url = await serveTranscript(page, "slow-debugger", { title: "Slow", protocol: "hermes", chunkChars: 8, delayMs: 30, turns: [words] });
  await openLab(page, url);
  await send(page, "count slowly");
  await expect(page.getByTestId("message-assistant")).toContainText("Word 40.");
  await page.reload();
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "interrupted");
  const step = page.getByTestId("step-item");
  await expect(step).toHaveCount(1);
  await expect(step).toContainText("interrupted");
  await expect(step).not.toContainText("streaming");
});
