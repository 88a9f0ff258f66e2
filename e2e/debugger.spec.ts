// The step debugger, used as a person would: a replayed conversation, then its steps inspected.
import { expect, test, type Page } from "@playwright/test";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

// Screenshots go to test-results/screens unless DEBUGGER_SHOTS names another folder (test-results
// is emptied by every Playwright run, including other people's on this machine).
const SHOTS = process.env.DEBUGGER_SHOTS ?? "test-results/screens";

/** The parse list is virtualized: scrolls it until a row matching `selector` is rendered. */
async function revealParseStep(page: Page, selector: string) {
  const list = page.getByTestId("parse-steps-view").locator(".dbg-vlist");
  const row = page.locator(selector).first();
  for (let i = 0; i < 200 && (await row.count()) === 0; i++) {
    const atEnd = await list.evaluate((el) => {
      const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      el.scrollTop += el.clientHeight * 0.8;
      return end;
    });
    // The list draws the rows for its new position after the scroll event: let it, before looking.
    await list.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    if (atEnd) break;
  }
  return row;
}

async function replayCalculatorTurn(page: Page) {
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 × 5678?");
  // Two steps: the call, then the answer.
  await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
  await expect(page.getByTestId("step-item")).toHaveCount(2);
}

test("selecting a parse step highlights its span in the raw output, and clicking the output selects the step", async ({ page }) => {
  await replayCalculatorTurn(page);
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();

  const raw = page.getByTestId("raw-output-view");
  await expect(raw).toContainText("I'll work that out with the calculator.");
  await expect(raw.locator("[data-highlighted=true]")).toHaveCount(0);

  // The event that closes the call covers the whole <tool_call> block.
  await (await revealParseStep(page, '[data-testid=parse-step][data-type="tool-call-end"]')).click();
  const lit = raw.locator("[data-highlighted=true]");
  await expect(lit.first()).toBeVisible();
  const litText = (await lit.allTextContents()).join("");
  expect(litText).toContain("<tool_call>");
  expect(litText).toContain('"calculator"');
  expect(litText).not.toContain("I'll work that out");
  await expect(page.getByTestId("parse-step-detail")).toContainText("1234 * 5678");

  // The routine events (prose and argument chunks) can be hidden, leaving the decisions.
  await page.getByLabel("calls, repairs and errors only").check();
  // The list re-renders after the toggle: wait for it rather than read it mid-way.
  const shownTypes = () => page.getByTestId("parse-step").evaluateAll((rows) => [...new Set(rows.map((row) => (row as HTMLElement).dataset.type))].sort());
  await expect.poll(shownTypes).toContain("tool-call-end");
  const types = await shownTypes();
  expect(types).not.toContain("text");
  expect(types).not.toContain("tool-call-delta");
  await page.getByLabel("calls, repairs and errors only").uncheck();

  // And back: a click on the prose selects the text event that covers it.
  await raw.locator('[data-kind="text"]').first().click();
  const selected = page.locator('[data-testid=parse-step][aria-pressed="true"]');
  await expect(selected).toHaveCount(1);
  await expect(selected).toHaveAttribute("data-type", "text");
  const proseLit = (await raw.locator("[data-highlighted=true]").allTextContents()).join("");
  expect("I'll work that out with the calculator.\n").toContain(proseLit);
  expect(proseLit.length).toBeGreaterThan(0);
});

test("the prompt shows control tokens as chips, folds the tool block, and can show only what changed", async ({ page }) => {
  await replayCalculatorTurn(page);
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
  const prompt = page.getByTestId("prompt-view");
  await expect(prompt.getByTestId("control-token").filter({ hasText: "<|im_start|>" }).first()).toBeVisible();
  await expect(prompt.getByTestId("control-token").filter({ hasText: "<|im_end|>" }).first()).toBeVisible();

  const toolBlock = prompt.getByTestId("prompt-tool-block");
  await expect(toolBlock).toHaveCount(1);
  await expect(toolBlock).not.toHaveAttribute("open");
  await toolBlock.locator("summary").click();
  await expect(toolBlock).toHaveAttribute("open");
  await expect(toolBlock).toContainText("calculator");

  // The answer step's prompt adds the call and its result to the first step's prompt.
  await page.locator('[data-testid=step-item][data-status="final"]').click();
  await expect(prompt).toContainText("What is 1234 × 5678?");
  await page.getByLabel("changes since previous step").check();
  await expect(page.getByTestId("prompt-diff-note")).toContainText("Hidden");
  await expect(prompt).not.toContainText("What is 1234 × 5678?");
  await expect(prompt).toContainText("7006652");
});

test("tool executions and tool definitions of the selected step", async ({ page }) => {
  await replayCalculatorTurn(page);
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
  const exec = page.getByTestId("tool-exec-view");
  await expect(exec.getByTestId("tool-exec")).toHaveAttribute("data-status", "ok");
  await expect(exec).toContainText("1234 * 5678");
  await expect(exec).toContainText("7006652");

  await page.getByRole("tab", { name: "Tool definitions" }).click();
  await expect(page.getByTestId("tool-def-model")).toContainText("calculator");
  await expect(page.getByTestId("tool-def-openai")).toContainText('"type": "function"');
  await expect(page.getByTestId("tool-def-anthropic")).toContainText('"input_schema"');
  await expect(page.getByTestId("tool-def-gemini")).toContainText('"functionDeclarations"');

  // Copy puts exactly the shown definitions on the clipboard, and says so.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy the OpenAI definitions" }).click();
  await expect(page.getByText("Copied.")).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await page.getByTestId("tool-def-openai").textContent());
  expect(JSON.parse(copied)[0].function.name).toBeTruthy();
});

test("a sub-agent's steps appear indented under the step that started them", async ({ page }) => {
  await openLab(page, "deep-research");
  await send(page, "How long does sunlight take to reach Earth?");
  const nested = page.locator('[data-testid=step-item][data-depth="1"]');
  await expect(nested).toHaveCount(3, { timeout: 30_000 });
  await expect(page.locator('[data-testid=step-item][data-depth="0"]')).toHaveCount(2);
  // Timeline order: the delegating step, its sub-agent's steps, then the answer.
  const depths = await page.getByTestId("step-item").evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.depth));
  expect(depths).toEqual(["0", "1", "1", "1", "0"]);
  const parentBox = await page.getByTestId("step-item").first().locator(".dbg-step-title").boundingBox();
  const childBox = await nested.first().locator(".dbg-step-title").boundingBox();
  expect(childBox && parentBox && childBox.x > parentBox.x).toBe(true);
  await nested.first().click();
  await page.screenshot({ path: `${SHOTS}/debugger-nested-1280x800.png` });
});

test("the raw output is live while the model streams, and the step says it is running", async ({ page }) => {
  const slow = await serveTranscript(page, "debugger-slow", {
    title: "Slow prose",
    protocol: "hermes",
    turns: ["Counting slowly: one, two, three, four, five, six, seven, eight, nine, ten. Done."],
    chunkChars: 3,
    delayMs: 60,
  });
  await openLab(page, slow);
  await send(page, "Count to ten.");
  const running = page.locator('[data-testid=step-item][data-status="running"]');
  await expect(running).toHaveCount(1);
  const raw = page.getByTestId("raw-output-view");
  await expect(raw).toContainText("Counting");
  const early = (await raw.textContent()) ?? "";
  expect(early).not.toContain("Done.");
  await expect(raw).toContainText("Done.");
  await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
  await expect(running).toHaveCount(0);
});

for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`screenshot of the debugger on a multi-step run at ${size.width}x${size.height}`, async ({ page }) => {
    await page.setViewportSize(size);
    await openLab(page, "hermes-broken-json");
    await send(page, "Convert 72 °F to Celsius.");
    await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
    await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
    await (await revealParseStep(page, '[data-testid=parse-step][data-type="repair"]')).click();
    await page.getByTestId("debugger-pane").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/debugger-${size.width}x${size.height}.png` });
    await page.getByTestId("raw-output-view").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/debugger-output-${size.width}x${size.height}.png` });
  });
}
