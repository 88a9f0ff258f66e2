// The lab as a person uses it, with the replay engine standing in for a model.
import { expect, test } from "@playwright/test";
import { exportedConversation, holdClock, openLab, send, serveTranscript, streamUntil } from "./lab-helpers.ts";
import { longSession } from "../src/ui/debugger/event-fixtures.ts";

test("a replayed conversation with a tool call, end to end", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await expect(page.getByTestId("protocol-select")).toHaveValue("hermes");
  await send(page, "What is 1234 * 5678?");

  await expect(page.getByTestId("message-user")).toHaveText("What is 1234 * 5678?");
  const card = page.getByTestId("tool-call-card");
  await expect(card).toHaveAttribute("data-status", "ok");
  await expect(card).toHaveAttribute("data-tool", "calculator");
  await expect(card).toContainText("1234 * 5678");
  await expect(card).toContainText("7006652");
  const answer = page.getByTestId("message-assistant");
  await expect(answer).toHaveAttribute("data-status", "final");
  await expect(answer.locator("strong")).toHaveText("7,006,652");
  await expect(answer).toContainText("I'll work that out with the calculator.");
  await expect(page.getByTestId("chat-input")).toHaveValue("");

  // The card opens its step in the debugger: the step that made the call.
  await card.getByRole("button").first().click();
  await expect(card).toHaveClass(/is-selected/);
  await expect(page.getByTestId("prompt-view")).toContainText("What is 1234 * 5678?");
  await expect(page.getByTestId("raw-output-view")).toContainText("<tool_call>");
});

test("Shift+Enter makes a new line and Enter sends", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  const input = page.getByTestId("chat-input");
  await input.fill("first line");
  await input.press("Shift+Enter");
  await input.pressSequentially("second line");
  await expect(input).toHaveValue("first line\nsecond line");
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await input.press("Enter");
  await expect(page.getByTestId("message-user")).toHaveText("first line\nsecond line");
});

test("the protocol toggle changes the next step's prompt, and each step records its protocol", async ({ page }) => {
  const url = await serveTranscript(page, "two-protocols", {
    title: "Hermes then XML",
    protocol: "hermes",
    chunkChars: 16,
    delayMs: 1,
    turns: [
      '<tool_call>\n{"name": "calculator", "arguments": {"expression": "6 * 7"}}\n</tool_call>',
      "6 × 7 = 42.",
      "<tool_call>\n<tool_name>convert_units</tool_name>\n<value>5</value>\n<from>kg</from>\n<to>lb</to>\n</tool_call>",
      "5 kg is about 11.02 lb.",
    ],
  });
  await openLab(page, url);
  await expect(page.getByTestId("protocol-select")).toHaveValue("hermes");
  const xmlWording = "write the call in XML within <tool_call></tool_call> tags";

  await send(page, "6 times 7?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  await expect(page.getByTestId("prompt-view")).not.toContainText(xmlWording);

  await page.getByTestId("protocol-select").selectOption("xml");
  await send(page, "5 kg in pounds?");
  await expect(page.getByTestId("message-assistant").nth(1)).toHaveAttribute("data-status", "final");
  await expect(page.getByTestId("tool-call-card").nth(1)).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("tool-call-card").nth(1)).toContainText("11.02");
  // The debugger follows the latest step: the XML run's last prompt carries the XML wording.
  await expect(page.getByTestId("prompt-view")).toContainText(xmlWording);

  // The exported event log says which protocol each step used.
  const exported = JSON.parse((await exportedConversation(page)).text) as { events: { type: string; protocol?: string }[] };
  const stepProtocols = exported.events.filter((e) => e.type === "step-start").map((e) => e.protocol);
  expect(stepProtocols).toEqual(["hermes", "hermes", "xml", "xml"]);
});

test("HTML and script in model output are rendered inert", async ({ page }) => {
  const url = await serveTranscript(page, "xss", {
    title: "Hostile output",
    protocol: "hermes",
    chunkChars: 32,
    delayMs: 1,
    turns: [
      'Look: <img src=x onerror="window.__xss = 1"> and <script>window.__xss = 2</script> ' +
        '[click me](javascript:window.__xss=3) <iframe src="javascript:window.__xss=4"></iframe> **done**',
    ],
  });
  await openLab(page, url);
  await send(page, "say something nasty");
  const message = page.getByTestId("message-assistant");
  await expect(message).toHaveAttribute("data-status", "final");
  await expect(message).toContainText('<img src=x onerror="window.__xss = 1">');
  await expect(message).toContainText("<script>window.__xss = 2</script>");
  await expect(message.locator("strong")).toHaveText("done");
  await expect(message.locator("img, script, iframe")).toHaveCount(0);
  await expect(message.locator("a")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator("img[src=x], script:not([src]):text('__xss')").count()).toBe(0);
});

test("a reload keeps the conversation", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  await page.getByTestId("session-rename").first().click();
  await page.getByTestId("session-rename-input").fill("Big multiplication");
  await page.getByTestId("session-rename-input").press("Enter");
  await expect(page.getByTestId("conversation-title")).toHaveText("Big multiplication");

  await page.reload();
  await expect(page.getByTestId("message-user")).toHaveText("What is 1234 * 5678?");
  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("message-assistant")).toContainText("7,006,652");
  await expect(page.getByTestId("conversation-title")).toHaveText("Big multiplication");
  await expect(page.getByTestId("step-item")).toHaveCount(2);
});

test("a reload while a reply streams keeps what had streamed, and says the run was cut short", async ({ page }) => {
  const words = Array.from({ length: 300 }, (_, i) => `Word ${i + 1}.`).join(" ");
  const url = await serveTranscript(page, "slow", { title: "Slow", protocol: "hermes", chunkChars: 8, delayMs: 30, turns: [words] });
  await openLab(page, url);
  await send(page, "count slowly");
  const message = page.getByTestId("message-assistant");
  await expect(message).toContainText("Word 40.");
  // Saves are throttled to one a second while streaming; leaving the page saves at once.
  const shown = await message.innerText();
  await page.reload();
  await expect(page.getByTestId("message-user")).toHaveText("count slowly");
  await expect(message).toHaveAttribute("data-status", "interrupted");
  await expect(message).toContainText("Interrupted: the page was closed or reloaded");
  const kept = await message.innerText();
  const lastShown = shown.match(/Word (\d+)\./g)?.at(-1);
  expect(lastShown).toBeDefined();
  expect(kept).toContain(lastShown as string);
});

test("stop mid-stream keeps the partial output and says it was stopped", async ({ page }) => {
  const long = "This answer streams slowly so that it can be stopped halfway through. ".repeat(12);
  const url = await serveTranscript(page, "slow", { title: "Slow", protocol: "hermes", chunkChars: 3, delayMs: 40, turns: [long, "unused"] });
  await openLab(page, url);
  await send(page, "talk for a while");
  const message = page.getByTestId("message-assistant");
  await expect(message).toContainText("streams slowly");
  await expect(page.getByTestId("stop-button")).toBeEnabled();
  await page.getByTestId("stop-button").click();
  await expect(message).toHaveAttribute("data-status", "aborted");
  await expect(message.getByTestId("turn-end-note")).toContainText("Stopped");
  const kept = (await message.locator(".md").first().textContent()) ?? "";
  expect(kept.length).toBeGreaterThan(10);
  expect(long.startsWith(kept.trim())).toBe(true);
  expect(kept.trim().length).toBeLessThan(long.trim().length);
  await expect(page.getByTestId("send-button")).toBeDisabled(); // empty input
  await expect(page.getByTestId("stop-button")).toBeDisabled();
});

test("Esc stops a running turn", async ({ page }) => {
  const long = "Streaming on and on. ".repeat(40);
  const url = await serveTranscript(page, "slow-esc", { title: "Slow", protocol: "hermes", chunkChars: 2, delayMs: 40, turns: [long] });
  await openLab(page, url);
  await send(page, "go");
  const message = page.getByTestId("message-assistant");
  await expect(message).toContainText("Streaming on");
  await page.keyboard.press("Escape");
  await expect(message).toHaveAttribute("data-status", "aborted");
});

test("after a recording's last reply, the next message is kept and the chat says the recording is over and offers what next", async ({ page }) => {
  const url = await serveTranscript(page, "one-turn", { title: "One turn", protocol: "hermes", delayMs: 1, turns: ["Only one answer."] });
  await openLab(page, url);
  await send(page, "first");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  const ended = page.getByTestId("replay-ended");
  await expect(ended).toContainText("The recording is over");
  // Other recordings in the protocol chosen (Hermes), a real model, a new conversation.
  await expect(ended.getByTestId("replay-ended-transcript").first()).toHaveAttribute("data-transcript", /^hermes-/);
  // No usable GPU here (SwiftShader only): the real model offered is SmolLM2 on the CPU.
  await expect(ended.getByTestId("replay-ended-real-model")).toContainText("on this computer's CPU");
  await send(page, "second");
  await expect(page.getByTestId("send-notice")).toContainText('The recording "One turn" is over');
  await expect(page.getByTestId("chat-input")).toHaveValue("second");
  await expect(page.getByTestId("message-assistant")).toHaveCount(1);
  await expect(page.getByTestId("message-user")).toHaveCount(1);

  // Another recording plays from its first turn in the same conversation.
  await ended.getByTestId("replay-ended-transcript").first().click();
  await expect(ended).toHaveCount(0);
  await page.getByTestId("chat-input").press("Enter");
  await expect(page.getByTestId("message-assistant").nth(1)).toHaveAttribute("data-status", /final|tool-calls|max-steps|cut-off/);
  await expect(page.getByTestId("message-assistant").nth(1)).not.toHaveAttribute("data-status", "engine-error");
});

test("a finished recording offers a new conversation", async ({ page }) => {
  const url = await serveTranscript(page, "one-turn-new", { title: "One turn", protocol: "hermes", delayMs: 1, turns: ["Only one answer."] });
  await openLab(page, url);
  await send(page, "first");
  await page.getByTestId("replay-ended-new").click();
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await expect(page.getByTestId("session-list").locator("li")).toHaveCount(2);
});

test("importing a file that is not an export says what is wrong", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await page.getByTestId("import-file").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello": "world"}') });
  await expect(page.getByTestId("import-message")).toContainText("Could not import notes.json");
  await expect(page.getByTestId("import-message")).toContainText("format");
});

test("a storage failure is shown in a banner, and the conversation stays on the page", async ({ page }) => {
  await page.addInitScript(() => {
    // Chunks of events are written with add (new ones) and put (placeholders): both fail.
    for (const method of ["put", "add"] as const) {
      const real = IDBObjectStore.prototype[method];
      IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["put"]>) {
        if (this.name === "eventChunks") throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        return real.apply(this, args);
      };
    }
  });
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  const banner = page.getByTestId("storage-error");
  await expect(banner).toContainText("Could not save the conversation");
  await expect(banner).toContainText("QuotaExceededError");
  await expect(page.getByTestId("message-assistant")).toContainText("7,006,652");
});

test("a tool switched off in Settings is not offered to the model", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await page.getByTestId("tool-toggle-calculator").uncheck();
  await page.getByTestId("setting-max-steps").fill("2");
  await send(page, "What is 1234 * 5678?");
  // The parser knows only the offered tools: the call is refused and the model is told which exist.
  const message = page.getByTestId("message-assistant");
  await expect(message).toHaveAttribute("data-status", "final");
  await expect(message).toContainText('Parse error (unknown-tool): there is no tool named "calculator"');
  await expect(message).toContainText("available: get_current_time");
  await expect(page.getByTestId("tool-call-card")).toHaveCount(0);
  // Reopened after a reload, the conversation keeps its settings.
  await page.reload();
  await expect(page.getByTestId("tool-toggle-calculator")).not.toBeChecked();
  await expect(page.getByTestId("setting-max-steps")).toHaveValue("2");
});

test("a conversation exported as JSON imports back, and its run becomes a replay transcript", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");

  const readDownload = async (button: string) => {
    const download = page.waitForEvent("download");
    await page.getByTestId(button).click();
    const file = await download;
    const chunks: Buffer[] = [];
    for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
    return { name: file.suggestedFilename(), text: Buffer.concat(chunks).toString("utf8") };
  };

  const transcript = JSON.parse((await readDownload("export-transcript")).text) as { protocol: string; turns: string[] };
  expect(transcript.protocol).toBe("hermes");
  // The raw outputs of the run's two steps: exactly what the replayed model said.
  expect(transcript.turns).toEqual([
    'I\'ll work that out with the calculator.\n<tool_call>\n{"name":"calculator","arguments":{"expression":"1234 * 5678"}}\n</tool_call>',
    "1234 × 5678 = **7,006,652**.",
  ]);

  const exported = await readDownload("export-json");
  expect(exported.name).toMatch(/\.toolcall-lab\.json$/);
  await page.getByTestId("new-conversation").click();
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await page.getByTestId("import-file").setInputFiles({ name: exported.name, mimeType: "application/json", buffer: Buffer.from(exported.text) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await expect(page.getByTestId("conversation-title")).toContainText("(imported)");
  await expect(page.getByTestId("message-user")).toHaveText("What is 1234 * 5678?");
  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("step-item")).toHaveCount(2);
  await expect(page.getByTestId("session-item")).toHaveCount(3);
});

test("a long imported conversation opens at its newest turn, keeps only turns near the view in the page, and scrolls back to its first", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  const file = { format: "toolcall-lab/conversation", version: 1, title: "Long", createdAt: 1, events: longSession(300) };
  await page.getByTestId("import-file").setInputFiles({ name: "long.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(file)) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  const turns = page.getByTestId("message-assistant");
  await expect(turns.last()).toContainText("It is 151.");
  await expect(turns.last()).toBeInViewport();
  // 150 turns, a screenful of them (and some either side) rendered.
  const rendered = await turns.count();
  expect(rendered).toBeGreaterThan(2);
  expect(rendered).toBeLessThan(60);
  await page.screenshot({ path: "test-results/screens/lab-long-conversation-bottom.png" });

  const log = page.getByTestId("chat-log");
  await log.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(turns.first()).toContainText("It is 2.");
  await expect(turns.first()).toBeInViewport();
  await page.screenshot({ path: "test-results/screens/lab-long-conversation-top.png" });
  // Scrolling down step by step meets a turn wherever it stops, never blank space.
  for (const fraction of [0.25, 0.5, 0.75]) {
    await log.evaluate((el, f) => el.scrollTo({ top: (el.scrollHeight - el.clientHeight) * f }), fraction);
    await expect.poll(() => log.evaluate((el) => {
      const view = el.getBoundingClientRect();
      return [...el.querySelectorAll("[data-testid=message-assistant]")].some((m) => {
        const r = m.getBoundingClientRect();
        return r.bottom > view.top + view.height / 2 && r.top < view.top + view.height / 2 + 60;
      });
    })).toBe(true);
  }
  await page.screenshot({ path: "test-results/screens/lab-long-conversation-middle.png" });
});

test("a transcript's recorded token counts show on the steps it replays", async ({ page }) => {
  const url = await serveTranscript(page, "counted", {
    title: "Counted",
    protocol: "hermes",
    delayMs: 0,
    turns: ['<tool_call>\n{"name": "calculator", "arguments": {"expression": "6 * 7"}}\n</tool_call>', "It is 42."],
    usage: [{ promptTokens: 812, completionTokens: 31 }, null],
  });
  await openLab(page, url);
  await send(page, "6 times 7?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  const steps = page.getByTestId("step-item");
  await expect(steps).toHaveCount(2);
  await expect(steps.first()).toContainText("812 in · 31 out");
  await expect(steps.last()).toContainText("tokens —");
});

test("a transcript's own protocol is picked in the header", async ({ page }) => {
  await openLab(page, "xml-convert-units");
  await expect(page.getByTestId("protocol-select")).toHaveValue("xml");
  await send(page, "5 kg in pounds?");
  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("message-assistant").locator(".chip").first()).toHaveText("xml");
});

test("conversations can be started, switched and deleted", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  await page.getByTestId("new-conversation").click();
  await expect(page.getByTestId("session-item")).toHaveCount(2);
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  // A new conversation replays its transcript from the first turn again.
  await send(page, "Again: 1234 * 5678?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");

  await page.getByTestId("session-item").filter({ hasText: "What is 1234" }).locator(".session-open").click();
  await expect(page.getByTestId("message-user")).toHaveText("What is 1234 * 5678?");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("session-item").filter({ hasText: "What is 1234" }).getByTestId("session-delete").click();
  await expect(page.getByTestId("session-item")).toHaveCount(1);
  await expect(page.getByTestId("message-user")).toHaveText("Again: 1234 * 5678?");
  await page.reload();
  await expect(page.getByTestId("session-item")).toHaveCount(1);
  await expect(page.getByTestId("message-user")).toHaveText("Again: 1234 * 5678?");
});

test("sending before any engine is ready explains why and keeps the message", async ({ page }) => {
  await page.goto("/?engine=webllm");
  await expect(page.getByTestId("engine-label")).toContainText("no model loaded");
  const input = page.getByTestId("chat-input");
  await input.fill("Hello?");
  await input.press("Enter");
  await expect(page.getByTestId("send-notice")).toContainText("Load a model first");
  await expect(input).toHaveValue("Hello?");
  await expect(page.getByTestId("message-user")).toHaveCount(0);
});

test("a long streamed reply keeps its newest line in view while it streams, on a slow machine too", async ({ page }) => {
  const lines = Array.from({ length: 200 }, (_, i) => `Line ${i + 1} of a long answer.`);
  const url = await serveTranscript(page, "long", { title: "Long", protocol: "hermes", chunkChars: 60, delayMs: 16, turns: [lines.join("\n\n")] });
  // The page's clock is the test's: the replay streams a chunk per 16 ms of that clock, so the
  // reply grows only when the test moves it, and is still streaming whenever the test looks.
  await page.clock.install();
  await openLab(page, url);
  // A slow CPU (CI's was one) lets the stream grow the content between the view's own scroll to
  // the bottom and that scroll's event; the view must still count as following.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  await holdClock(page);
  await send(page, "write a lot");
  const message = page.getByTestId("message-assistant");
  const log = page.getByTestId("chat-log");
  const newestInView = () =>
    log.evaluate((el) => {
      const newest = el.querySelectorAll("[data-testid=message-assistant] p");
      const last = newest[newest.length - 1];
      if (!last) return "no paragraph yet";
      const view = el.getBoundingClientRect();
      const box = last.getBoundingClientRect();
      return box.top < view.bottom && box.bottom > view.top ? "in view" : "out of view";
    });

  for (const line of ["Line 40 of a long answer.", "Line 150 of a long answer."]) {
    await streamUntil(page, message.getByText(line, { exact: true }));
    // The clock stands still: the reply is held open while the view catches up with its newest paragraph.
    await expect(message).toHaveAttribute("data-status", "running");
    await expect.poll(newestInView).toBe("in view");
    await expect(message).toHaveAttribute("data-status", "running");
  }
  // The rest streams at the page's own pace, on a CPU at full speed again.
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await page.clock.resume();
  await expect(message).toHaveAttribute("data-status", "final");
  await expect(message.getByText("Line 200 of a long answer.")).toBeInViewport();
  await expect(page.getByTestId("message-user")).not.toBeInViewport();
});

test("a reader who scrolls up while a reply streams keeps their place", async ({ page }) => {
  const lines = Array.from({ length: 200 }, (_, i) => `Line ${i + 1} of a long answer.`);
  const url = await serveTranscript(page, "long", { title: "Long", protocol: "hermes", chunkChars: 60, delayMs: 16, turns: [lines.join("\n\n")] });
  await page.clock.install();
  await openLab(page, url);
  await holdClock(page);
  await send(page, "write a lot");
  const message = page.getByTestId("message-assistant");
  await streamUntil(page, message.getByText("Line 100 of a long answer.", { exact: true }));
  const reading = message.getByText("Line 20 of a long answer.", { exact: true });
  await reading.evaluate((el) => el.scrollIntoView({ block: "start" }));
  const topOf = () => reading.evaluate((el) => Math.round(el.getBoundingClientRect().top));
  const readingTop = await topOf();
  // Held open by the clock: more of the reply streams in below the reader.
  await expect(message).toHaveAttribute("data-status", "running");
  await streamUntil(page, message.getByText("Line 150 of a long answer.", { exact: true }));
  await expect(message).toHaveAttribute("data-status", "running");
  expect(await topOf()).toBe(readingTop);
  await page.clock.resume();
  await expect(message).toHaveAttribute("data-status", "final");
  expect(await topOf()).toBe(readingTop);
  await expect(reading).toBeInViewport();
  await expect(message.getByText("Line 200 of a long answer.")).not.toBeInViewport();
});
