// A phone and a narrow window: nothing scrolls sideways, the panes stack (chat, then debugger,
// then the side column behind the header's button), every control is reachable. Screenshots
// at 390 and 768 px go to docs/images/ for a person to look at (and for the docs).
import { expect, test, type Page } from "@playwright/test";
import { send } from "./lab-helpers.ts";

const imagePath = (name: string) => new URL(`../docs/images/${name}.png`, import.meta.url).pathname;

/** Opens the lab on a replay transcript; in a narrow window the conversation list is behind the button, so the chat box says it is ready. */
async function openLab(page: Page, transcript: string): Promise<void> {
  await page.goto(`/?engine=replay&transcript=${transcript}`);
  await expect(page.getByTestId("engine-label")).toContainText("Replay");
  await expect(page.getByTestId("chat-input")).toBeVisible();
}

/** How far the page is wider than the window (0 when nothing scrolls sideways). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The elements wider than the window's right edge (by their test ids or tags), to name the culprit. */
const pastTheEdge = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((element) => element.getClientRects().length > 0 && element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((element) => getComputedStyle(element).position !== "fixed")
      .slice(0, 8)
      .map((element) => element.dataset.testid ?? `${element.tagName.toLowerCase()}.${element.className}`),
  );

for (const width of [390, 768]) {
  test(`at ${width} px the lab fits the width, chat above the debugger, the side column behind a button`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await openLab(page, "hermes-calculator");
    await page.screenshot({ path: imagePath(`lab-empty-${width}`) });
    expect(await pastTheEdge(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    // The side column waits behind the header's button.
    await expect(page.getByTestId("engine-select")).toBeHidden();
    const toggle = page.getByTestId("side-toggle");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");

    // The chat box is whole: its right edge is inside the window.
    const input = page.getByTestId("chat-input");
    await expect(input).toBeVisible();
    const box = (await input.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);

    await send(page, "What is 1234 * 5678?");
    await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
    await page.getByTestId("tool-call-card").first().click();
    const chat = (await page.getByRole("region", { name: "Chat" }).boundingBox())!;
    const debuggerPane = (await page.getByRole("region", { name: "Debugger" }).boundingBox())!;
    if (width <= 700) expect(debuggerPane.y).toBeGreaterThanOrEqual(chat.y + chat.height - 1);
    else expect(debuggerPane.x).toBeGreaterThanOrEqual(chat.x + chat.width - 1);
    await page.getByTestId("prompt-view").scrollIntoViewIfNeeded();
    // The raw output box is as tall as its five short lines, not a fixed, mostly empty box.
    expect(await page.getByTestId("raw-output-view").evaluate((box) => box.clientHeight)).toBeLessThan(190);
    await page.screenshot({ path: imagePath(`lab-debugger-${width}`) });
    expect(await pastTheEdge(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByTestId("engine-select")).toBeInViewport();
    // The transcript counts its entries as the debugger does: steps.
    await expect(page.getByTestId("transcript-steps")).toHaveText("2 recorded steps · protocol hermes");
    await page.screenshot({ path: imagePath(`lab-side-${width}`) });
    expect(await pastTheEdge(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
}

test("at 1440 px the side column shows without a button", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, "hermes-calculator");
  await expect(page.getByTestId("engine-select")).toBeVisible();
  await expect(page.getByTestId("side-toggle")).toBeHidden();
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
});

test("at 390 px Evaluate and the playground fit the width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/#evaluate");
  await expect(page.getByTestId("view-evaluate")).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator(".eval-view")).toBeVisible();
  // The header's protocol applies to the lab's chat; Evaluate picks its own protocols.
  await expect(page.getByTestId("protocol-select")).toHaveCount(0);
  await page.screenshot({ path: imagePath("evaluate-390"), fullPage: true });
  expect(await pastTheEdge(page)).toEqual([]);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

  await page.goto("/?view=playground");
  await expect(page.getByTestId("playground-call")).toHaveCount(1);
  // Its sample says what its call does (it once said "the weather" and asked for the time).
  await expect(page.getByTestId("playground-output")).toHaveValue(/^I will look up the time in Paris\.\n<tool_call>/);
  await page.screenshot({ path: imagePath("playground-390"), fullPage: true });
  expect(await pastTheEdge(page)).toEqual([]);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
});
