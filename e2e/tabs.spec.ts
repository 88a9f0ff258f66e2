// Two tabs of the lab (two pages of one browser context: same IndexedDB, Web Locks and
// BroadcastChannel) on one conversation. Tab A sends A1; tab B opens the conversation; A sends
// A2; B sends B2; A sends A3: every message is kept, in order, in both tabs and in storage.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { openLab, send, serveTranscript, type TestTranscript } from "./lab-helpers.ts";

const replies: TestTranscript = {
  title: "Four replies",
  protocol: "hermes",
  chunkChars: 16,
  delayMs: 1,
  turns: ["Reply one.", "Reply two.", "Reply three.", "Reply four."],
};

/** A reply long enough (2,000 chunks 50 ms apart: 100 s) to stream until the test stops it. */
const endless: TestTranscript = {
  title: "Endless",
  protocol: "hermes",
  chunkChars: 6,
  delayMs: 50,
  turns: [Array.from({ length: 1200 }, (_, i) => `Word ${i + 1}.`).join(" "), "Short reply."],
};

async function openTab(context: BrowserContext, name: string, transcript: TestTranscript): Promise<Page> {
  const page = await context.newPage();
  await openLab(page, await serveTranscript(page, name, transcript));
  return page;
}

/** Opens a conversation from the sessions list, once the other tab's save has put it there. */
async function openConversation(page: Page, title: string): Promise<void> {
  await page.getByTestId("session-item").filter({ hasText: title }).locator(".session-open").click();
  await expect(page.getByTestId("conversation-title")).toHaveText(title);
}

async function sendAndWait(page: Page, text: string, turn: number): Promise<void> {
  await send(page, text);
  await expect(page.getByTestId("message-assistant").nth(turn)).toHaveAttribute("data-status", "final");
}

async function expectLog(page: Page, users: string[], assistants: string[]): Promise<void> {
  await expect(page.getByTestId("message-user")).toHaveText(users);
  await expect(page.getByTestId("message-assistant")).toHaveText(assistants.map((text) => new RegExp(text.replace(".", "\\."))));
}

const everyMessage = ["A1", "A2", "B2", "A3"];

test("two tabs take turns in one conversation: each follows the other's saves, and every message is kept in order", async ({ context }) => {
  const a = await openTab(context, "four", replies);
  await sendAndWait(a, "A1", 0);

  const b = await openTab(context, "four", replies);
  await openConversation(b, "A1");
  await expectLog(b, ["A1"], ["Reply one."]);

  await sendAndWait(a, "A2", 1);
  await expectLog(b, ["A1", "A2"], ["Reply one.", "Reply two."]);

  await sendAndWait(b, "B2", 2);
  await expectLog(a, ["A1", "A2", "B2"], ["Reply one.", "Reply two.", "Reply three."]);

  await sendAndWait(a, "A3", 3);
  await expectLog(b, everyMessage, replies.turns);
  await expectLog(a, everyMessage, replies.turns);

  await b.reload();
  await expectLog(b, everyMessage, replies.turns);
});

test("a tab that missed the other tab's saves loads the latest log before it sends, and says so", async ({ context }) => {
  const a = await openTab(context, "four", replies);
  await sendAndWait(a, "A1", 0);

  // Tab B hears nothing from the other tabs (as a browser without BroadcastChannel would).
  const b = await context.newPage();
  await b.addInitScript(() => {
    Reflect.deleteProperty(window, "BroadcastChannel");
  });
  await openLab(b, await serveTranscript(b, "four", replies));
  await openConversation(b, "A1");
  await expectLog(b, ["A1"], ["Reply one."]);

  await sendAndWait(a, "A2", 1);
  await expectLog(a, ["A1", "A2"], ["Reply one.", "Reply two."]);

  // B's view still ends at A1; sending loads A2 first, and B2 goes after it.
  await send(b, "B2");
  await expect(b.getByTestId("message-assistant").nth(2)).toHaveAttribute("data-status", "final");
  await expectLog(b, ["A1", "A2", "B2"], ["Reply one.", "Reply two.", "Reply three."]);
  await expect(b.getByTestId("tab-notice-refreshed")).toContainText("older version");

  // A was not told either (B announces nothing): its send catches up the same way.
  await sendAndWait(a, "A3", 3);
  await expectLog(a, everyMessage, replies.turns);
  await expect(a.getByTestId("tab-notice-refreshed")).toBeVisible();

  await a.reload();
  await expectLog(a, everyMessage, replies.turns);
});

test("while one tab runs a turn, another showing the conversation is told and cannot send; it can once the turn ends", async ({ context }) => {
  const a = await openTab(context, "endless", endless);
  await send(a, "count for a long time");
  await expect(a.getByTestId("message-assistant")).toContainText("Word 5.");

  const b = await openTab(context, "endless", endless);
  await openConversation(b, "count for a long time");
  await expect(b.getByTestId("message-user")).toHaveText(["count for a long time"]);
  await expect(b.getByTestId("tab-writing-elsewhere")).toContainText("being written in another tab");
  await send(b, "me too");
  await expect(b.getByTestId("send-notice")).toContainText("being written in another tab");
  await expect(b.getByTestId("chat-input")).toHaveValue("me too"); // the message is kept
  await expect(b.getByTestId("message-user")).toHaveCount(1);

  // B follows what A streams.
  await expect(b.getByTestId("message-assistant")).toContainText("Word 30.");

  await a.getByTestId("stop-button").click();
  await expect(a.getByTestId("message-assistant")).toHaveAttribute("data-status", "aborted");
  await expect(b.getByTestId("tab-writing-elsewhere")).toHaveCount(0);
  await expect(b.getByTestId("message-assistant")).toHaveAttribute("data-status", "aborted");

  await b.getByTestId("chat-input").press("Enter");
  await expect(b.getByTestId("message-assistant").nth(1)).toHaveAttribute("data-status", "final");
  await expect(b.getByTestId("message-user")).toHaveText(["count for a long time", "me too"]);
  await expect(a.getByTestId("message-user")).toHaveText(["count for a long time", "me too"]);
  await expect(a.getByTestId("message-assistant").nth(1)).toHaveText(/Short reply\./);
});

test("a conversation deleted in one tab while another streams into it stays deleted; the streaming tab says so and can keep its copy", async ({ context }) => {
  test.setTimeout(120_000);
  const a = await openTab(context, "endless", endless);
  await send(a, "count slowly");
  const reply = a.getByTestId("message-assistant");
  await expect(reply).toContainText("Word 5.");

  const b = await openTab(context, "endless", endless);
  await openConversation(b, "count slowly");
  b.on("dialog", (dialog) => void dialog.accept());
  await b.getByTestId("session-item").filter({ hasText: "count slowly" }).getByTestId("session-delete").click();
  await expect(b.getByTestId("session-item").filter({ hasText: "count slowly" })).toHaveCount(0);

  // A keeps streaming in view, and its saves no longer bring the conversation back.
  const shown = await reply.innerText();
  const lastShown = Number(shown.match(/Word (\d+)\./g)?.at(-1)?.match(/\d+/)?.[0]);
  await expect(reply).toContainText(`Word ${lastShown + 30}.`); // well past a throttled save (1/s)
  await b.reload();
  await expect(b.getByTestId("session-list")).toBeVisible();
  await expect(b.getByTestId("message-user")).toHaveCount(0);
  await expect(b.getByTestId("session-item").filter({ hasText: "count slowly" })).toHaveCount(0);
  // And A says what happened.
  await expect(a.getByTestId("tab-notice-deleted")).toContainText("was deleted in another tab");

  // Kept as a new conversation: all of it, from its first word, and what streams after.
  await a.getByTestId("tab-keep-as-new").click();
  await expect(a.getByTestId("tab-notice-deleted")).toHaveCount(0);
  await expect(a.getByTestId("conversation-title")).toHaveText("count slowly (kept)");
  await a.getByTestId("stop-button").click();
  await expect(reply).toHaveAttribute("data-status", "aborted");
  const kept = await reply.locator(".md").first().innerText();

  await expect(b.getByTestId("session-item").filter({ hasText: "count slowly (kept)" })).toHaveCount(1);
  await b.getByTestId("session-item").filter({ hasText: "count slowly (kept)" }).locator(".session-open").click();
  await expect(b.getByTestId("message-user")).toHaveText(["count slowly"]);
  const copy = b.getByTestId("message-assistant");
  await expect(copy).toHaveAttribute("data-status", "aborted");
  await expect(copy.locator(".md").first()).toHaveText(kept);
  expect(kept.startsWith("Word 1. Word 2.")).toBe(true);
  await expect(b.getByTestId("step-item")).toHaveCount(1);
});

test.afterEach(async ({ context }) => {
  // No tab met a storage failure on the way.
  for (const page of context.pages()) await expect(page.getByTestId("storage-error")).toHaveCount(0);
});
