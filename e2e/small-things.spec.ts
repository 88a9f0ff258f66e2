// Issue 30's smaller things, as a person meets them: parse steps that list text in one row, a
// step header that shows the counted tokens, a branch nested under the step it came from, a
// re-run that marks what changed, and the playground's strict switch.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

const SHOTS = "e2e/.output";
const calculatorCall = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1234 * 5678"}}\n</tool_call>';

async function twoStepTurn(page: Page) {
  const url = await serveTranscript(page, "small-things", {
    title: "Calculator",
    protocol: "hermes",
    chunkChars: 4,
    delayMs: 1,
    turns: [`I'll work that out for you now.\n${calculatorCall}`, "1234 × 5678 = 7,006,652, which is the product."],
  });
  await openLab(page, url);
  await send(page, "What is 1234 × 5678?");
  await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
}

/** Screenshots at 1440 and 390 px wide: of the part that changed, and of the page around it. */
async function shoot(page: Page, name: string, part: Locator) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await part.first().scrollIntoViewIfNeeded();
    await part.first().screenshot({ path: `${SHOTS}/small-${name}-${width}.png` });
    await page.screenshot({ path: `${SHOTS}/small-${name}-page-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("parse steps show a streamed text as one row, and the header shows the tokens once counted", async ({ page }) => {
  await twoStepTurn(page);
  await page.getByTestId("step-item").nth(1).click();
  const rows = page.getByTestId("parse-step");
  // The answer streamed in 4-character chunks: many text events, one row.
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-type", "text");
  await expect(rows.first()).toHaveAttribute("data-last-index", /^[1-9]\d*$/);
  await expect(rows.first()).toContainText("1234 × 5678 = 7,006,652");
  await rows.first().click();
  await expect(page.getByTestId("parse-step-detail")).toContainText("1234 × 5678 = 7,006,652, which is the product.");

  // The replay reports no usage: "tokens —" until the lab counts, then the lab's count.
  const header = page.getByTestId("step-tokens");
  await expect(header).toHaveText("tokens —");
  await page.getByTestId("count-tokens").click();
  await expect(header).toHaveText(/^lab: [1-9]\d* in · [1-9]\d* out$/, { timeout: 60_000 });
  await shoot(page, "step-tokens", page.locator(".dbg-step-head"));
  await shoot(page, "parse-rows", page.locator('section[aria-label="Parse steps"]'));
});

test("a branch of step 2 sits under step 2, and a re-run marks what changed", async ({ page }) => {
  await twoStepTurn(page);
  const items = page.getByTestId("step-item");
  // Re-run step 1, then step 2, each with an edited output.
  await items.nth(0).click();
  await page.getByTestId("step-rerun").click();
  await page.getByTestId("rerun-output").fill(`I'll work that out.\n${calculatorCall.replace("1234 * 5678", "2 + 3")}`);
  await page.getByTestId("rerun-run").click();
  await expect(page.getByTestId("rerun-difference")).toContainText("Changed: output +");
  await expect(page.getByTestId("rerun-difference")).toContainText("1 call with other arguments");
  await expect(page.getByTestId("rerun-original-output").locator("[data-diff=delete]").first()).toBeVisible();
  await expect(page.getByTestId("rerun-branch-output").locator("[data-diff=insert]").first()).toBeVisible();
  await expect(page.getByTestId("rerun-branch-output").locator("[data-diff=insert]")).toContainText(["\"2"]);
  await shoot(page, "rerun-marked", page.getByTestId("rerun-result"));
  await expect(items).toHaveCount(3);

  await items.nth(2).click();
  await expect(items.nth(2)).toContainText("Turn 1 · step 2");
  // "Edit and re-run" stays open from step 1's re-run; opened for step 2 if it is not.
  if (!(await page.getByTestId("rerun-output").isVisible())) await page.getByTestId("step-rerun").click();
  await page.getByTestId("rerun-output").fill("The product is 7,006,652.");
  await page.getByTestId("rerun-run").click();
  await expect(page.getByTestId("rerun-difference")).toContainText("Changed: output +");
  await expect(items).toHaveCount(4);

  // Each branch right under the step it came from, saying which step that is and what came of it
  // (the recorded reply: step 1's re-run calls the calculator again, step 2's answers in text).
  const rowsOf = () => items.evaluateAll((rows) => rows.map((row) => `${(row as HTMLElement).dataset.depth} ${row.querySelector(".dbg-step-title")?.textContent ?? ""}`));
  expect(await rowsOf()).toEqual(["0 Turn 1 · step 1", "1 Branch of step 1 · call calculator", "0 Turn 1 · step 2", "1 Branch of step 2 · no call"]);
  await shoot(page, "branches", page.getByTestId("step-timeline"));
});

test("the playground's strict switch refuses a repaired call, as the debugger's re-parse does", async ({ page }) => {
  await page.goto("/?view=playground");
  await page.getByTestId("playground-protocol").selectOption("hermes");
  await page.getByTestId("playground-output").fill('<tool_call>\n{"name": "get_current_time", "arguments": {"timezone": "Europe/Paris",}}\n</tool_call>');
  await expect(page.getByTestId("playground-call")).toHaveCount(1);
  await page.getByTestId("playground-strict").check();
  await expect(page.getByTestId("playground-call")).toHaveCount(0);
  await expect(page.getByTestId("playground-problems")).toContainText(/strict — the get_current_time call needed a repair/);
  await expect(page.getByTestId("playground-agreement")).toContainText("strictly");
  // The switch travels in the link.
  await page.getByTestId("playground-share").click();
  // The link is made asynchronously (compressed): read the address once the page says it is there.
  await expect(page.getByTestId("playground-link-message")).toContainText(/characters/);
  expect(page.url()).toMatch(/#pg=[A-Za-z0-9_-]+$/);
  const other = await page.context().newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("playground-strict")).toBeChecked();
  await expect(other.getByTestId("playground-call")).toHaveCount(0);
  await shoot(page, "playground-strict", page.locator(".pg-body"));
});
