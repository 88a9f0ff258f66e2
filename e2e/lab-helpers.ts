// Shared steps for the lab's end-to-end tests: open the page on the replay engine with a
// transcript (built-in, or one served by the test), and send a message as a person would.
import { expect, type Locator, type Page } from "@playwright/test";

export interface TestTranscript {
  title: string;
  protocol?: string;
  turns: string[];
  chunkChars?: number;
  delayMs?: number;
  usage?: ({ promptTokens?: number; completionTokens?: number } | null)[];
  cutOff?: ("max-tokens" | "context-window" | null)[];
  contextWindow?: number;
}

/** Serves a transcript at a same-origin URL and returns that URL. */
export async function serveTranscript(page: Page, name: string, transcript: TestTranscript): Promise<string> {
  const path = `/e2e-transcripts/${name}.json`;
  await page.route(`**${path}`, (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(transcript) }));
  return path;
}

/** Opens the lab on the replay engine, in a fresh conversation. */
export async function openLab(page: Page, transcript: string): Promise<void> {
  await page.goto(`/?engine=replay&transcript=${encodeURIComponent(transcript)}`);
  await expect(page.getByTestId("engine-label")).toContainText("Replay");
  await expect(page.getByTestId("engine-label")).not.toContainText(transcript.startsWith("/") ? transcript : "\u0000");
  await expect(page.getByTestId("session-list")).toBeVisible();
}

export async function send(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("chat-input");
  await input.fill(text);
  await input.press("Enter");
}

/**
 * Stops the page's clock (installed with `page.clock.install()` before the page opened): a
 * replay then streams only when the test moves the clock, so a reply stays open while it looks.
 */
export async function holdClock(page: Page): Promise<void> {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
}

/** Moves a held clock a few frames at a time, without waiting for the page, until `shown` is in the DOM. */
export async function streamUntil(page: Page, shown: Locator): Promise<void> {
  while ((await shown.count()) === 0) {
    for (let frame = 0; frame < 6; frame++) await page.clock.runFor(16);
  }
}

/** Opens the lab and imports an exported session holding one step, as a person would (the file input). */
export async function importOneStepSession(page: Page, file: object): Promise<void> {
  await openLab(page, "hermes-calculator");
  await page.getByTestId("import-file").setInputFiles({ name: "session.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(file)) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await expect(page.getByTestId("step-item")).toHaveCount(1);
}

/** The prompt as the debugger shows it: its text, tool block included, without the block's summary line (the view's label, not prompt text). */
export function shownPrompt(page: Page): Promise<string> {
  return page.getByTestId("prompt-view").evaluate((view) => {
    const copy = view.cloneNode(true) as HTMLElement;
    for (const summary of copy.querySelectorAll("summary")) summary.remove();
    return copy.textContent ?? "";
  });
}

/** Clicks the header's Export button and returns the downloaded file: its name and its text. */
export async function exportedConversation(page: Page): Promise<{ name: string; text: string }> {
  const download = page.waitForEvent("download");
  await page.getByTestId("export-json").click();
  const file = await download;
  const chunks: Buffer[] = [];
  for await (const chunk of (await file.createReadStream()) as AsyncIterable<Buffer>) chunks.push(chunk);
  return { name: file.suggestedFilename(), text: Buffer.concat(chunks).toString("utf8") };
}

/** SmolLM2 loaded on the page's CPU engine (one thread), temperature 0, 8 tokens, the calculator alone, Hermes. */
export async function loadSmolLm2OnTheCpu(page: Page): Promise<void> {
  await page.goto("/?cpuThreads=1");
  await page.getByTestId("cpu-offer-button").click();
  await expect(page.getByTestId("engine-label")).toContainText("CPU: SmolLM2 135M", { timeout: 180_000 });
  await page.getByTestId("setting-temperature").fill("0");
  await page.getByTestId("setting-max-tokens").fill("8");
  await offerTheCalculatorAlone(page);
  await page.getByTestId("protocol-select").selectOption("hermes");
}

/** The settings' tool list with the calculator on and every other tool off. */
export async function offerTheCalculatorAlone(page: Page): Promise<void> {
  for (const toggle of await page.locator('[data-testid^="tool-toggle-"]').all()) {
    const wanted = (await toggle.getAttribute("data-testid")) === "tool-toggle-calculator";
    if ((await toggle.isChecked()) !== wanted) await toggle.setChecked(wanted);
  }
}
