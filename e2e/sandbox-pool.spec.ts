// One reply with many run_javascript calls (issue 18, item 12): at most 4 sandboxes exist at once,
// at most "max calls per step" calls run, and each call past the limit shows as an error card
// saying why — in the built app in Chromium, with the real sandbox frames.
import { expect, test } from "@playwright/test";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

const call = (code: string) => `<tool_call>\n${JSON.stringify({ name: "run_javascript", arguments: { code } })}\n</tool_call>`;

test("40 run_javascript calls in one reply: 16 run, never more than 4 sandboxes at once, 24 refused", async ({ page }) => {
  test.setTimeout(180_000);
  // Counts the sandbox frames alive at once, from the first frame on.
  await page.addInitScript(() => {
    const w = window as unknown as { mostSandboxes: number };
    w.mostSandboxes = 0;
    new MutationObserver(() => {
      w.mostSandboxes = Math.max(w.mostSandboxes, document.querySelectorAll('iframe[sandbox="allow-scripts"]').length);
    }).observe(document, { childList: true, subtree: true });
  });
  const calls = Array.from({ length: 40 }, (_, i) => call(`await new Promise((r) => setTimeout(r, 50)); return ${i} * 2`));
  const transcript = await serveTranscript(page, "many-sandboxes", { title: "e2e many sandboxes", protocol: "hermes", delayMs: 0, chunkChars: 4000, turns: [calls.join("\n"), "All done."] });
  await openLab(page, transcript);
  await send(page, "Run them all.");

  await expect(page.getByTestId("message-assistant").first()).toHaveAttribute("data-status", "final", { timeout: 120_000 });
  const cards = page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]');
  await expect(cards).toHaveCount(40);
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"][data-status="ok"]')).toHaveCount(16);
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"][data-status="error"]')).toHaveCount(24);
  await expect(cards.nth(15)).toContainText("30");
  await expect(cards.nth(16)).toContainText("at most 16 are run per step");
  const most = await page.evaluate(() => (window as unknown as { mostSandboxes: number }).mostSandboxes);
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(4);
  // Every sandbox is gone once its call ended.
  await expect(page.locator('iframe[sandbox="allow-scripts"]')).toHaveCount(0);
});

test("the max calls per step setting decides how many of a reply's calls run", async ({ page }) => {
  test.setTimeout(120_000);
  const calls = Array.from({ length: 5 }, (_, i) => call(`return ${i} + 100`));
  const transcript = await serveTranscript(page, "calls-limit-setting", { title: "e2e call limit", protocol: "hermes", delayMs: 0, chunkChars: 4000, turns: [calls.join("\n"), "Done."] });
  await openLab(page, transcript);
  const field = page.getByTestId("setting-max-calls-per-step");
  await expect(field).toHaveValue("16");
  await field.fill("3");
  await field.blur();
  await page.getByTestId("settings-panel").screenshot({ path: "e2e/.output/settings-max-calls-per-step.png" });
  await send(page, "Run five.");
  await expect(page.getByTestId("message-assistant").first()).toHaveAttribute("data-status", "final", { timeout: 60_000 });
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"][data-status="ok"]')).toHaveCount(3);
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"][data-status="error"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]').nth(3)).toContainText("at most 3 are run per step");
});
