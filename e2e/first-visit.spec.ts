// A newcomer's first minute: with no model downloaded, the empty chat offers a recorded demo that
// needs no download beside downloading a model; the demo suggests the message its recording answers.
import { expect, test } from "@playwright/test";

test("a first visit offers a recorded demo beside download-and-load, and the demo plays in one click, at a pace a person can watch", async ({ page }) => {
  await page.goto("/");
  const empty = page.getByTestId("chat-empty");
  await expect(empty).toHaveAttribute("data-offer", "first-visit");
  await expect(page.getByTestId("engine-label")).toContainText("no model loaded");
  const load = page.getByTestId("empty-load-model-button");
  await expect(load).toHaveText("Download and load");
  await expect(empty).toContainText("Qwen3 1.7B");

  await page.getByTestId("try-demo-button").click();
  await expect(page.getByTestId("engine-label")).toContainText("Replay: Calculator (Hermes)");
  await expect(page.getByTestId("message-user")).toHaveText("What is 1234 * 5678?");
  // The reply streams: it is seen unfinished first (the demo's pace is about 60 characters a second).
  const answer = page.getByTestId("message-assistant");
  await expect(answer).toHaveAttribute("data-status", "running");
  // The person goes on typing where they left off: the chat box, not <body>.
  await expect(page.getByTestId("chat-input")).toBeFocused();
  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
  await expect(answer).toHaveAttribute("data-status", "final");
  await expect(answer).toContainText("7,006,652");
  await expect(page.getByTestId("chat-empty")).toHaveCount(0);
});

test("a transcript's suggested message is an offer, not a message already sent, and sending it keeps focus in the chat box", async ({ page }) => {
  await page.goto("/?engine=replay&transcript=hermes-calculator");
  const suggestion = page.getByTestId("suggested-message");
  await expect(suggestion).toHaveText("What is 1234 * 5678?");
  // Left-aligned and outlined, unlike a sent message (right-aligned, filled).
  const look = await suggestion.evaluate((button) => {
    const style = getComputedStyle(button);
    return { align: style.alignSelf, background: style.backgroundColor, border: style.borderStyle };
  });
  expect(look).toEqual({ align: "flex-start", background: "rgba(0, 0, 0, 0)", border: "dashed" });
  await suggestion.click();
  await expect(page.getByTestId("message-user")).toHaveText("What is 1234 * 5678?");
  await expect(page.getByTestId("chat-input")).toBeFocused();
});

test("the empty chat's download-and-load starts the same load as the Model pane", async ({ page, context }) => {
  // No model can be downloaded here: the load starts, then fails with the pane's download error.
  await context.route((url) => !["127.0.0.1", "localhost"].includes(url.hostname), (route) => route.abort("internetdisconnected"));
  await page.goto("/?engine=webllm");
  await page.getByTestId("empty-load-model-button").click();
  await expect(page.getByTestId("load-progress").or(page.getByTestId("engine-error")).first()).toBeVisible();
  await expect(page.getByTestId("engine-error")).toBeVisible({ timeout: 60_000 });
  // Still no model: the empty chat keeps offering both ways in.
  await expect(page.getByTestId("chat-empty")).toHaveAttribute("data-offer", "first-visit");
});

test("a transcript without a suggested message still says how to play it, and a real model is one click away", async ({ page }) => {
  await page.route("**/e2e-transcripts/plain.json", (route) =>
    route.fulfill({ contentType: "application/json", body: JSON.stringify({ title: "Plain", turns: ["Hello."] }) }),
  );
  await page.goto(`/?engine=replay&transcript=${encodeURIComponent("/e2e-transcripts/plain.json")}`);
  const empty = page.getByTestId("chat-empty");
  await expect(empty).toHaveAttribute("data-offer", "suggestion");
  await expect(empty).toContainText("Send a message to play its next turn.");
  await expect(page.getByTestId("suggested-message")).toHaveCount(0);
  await page.getByTestId("empty-use-webllm").click();
  await expect(page.getByTestId("engine-select")).toHaveValue("webllm");
  await expect(empty).toHaveAttribute("data-offer", "first-visit");
});
