// Experiments, used as a person would: the parser playground; re-parsing a step under another
// protocol; editing a step and re-running it as a branch; comparing two steps.
import { expect, test } from "@playwright/test";
import { listProtocols } from "toolcall-middleware/protocols/registry.ts";
import type { ToolCall } from "toolcall-middleware/types.ts";
import { importConversation } from "../src/store/conversation-export.ts";
import { exportedConversation, openLab, send, serveTranscript, shownPrompt } from "./lab-helpers.ts";

const SHOTS = "e2e/.output";

const timeCall: ToolCall = { id: "call_1", name: "get_current_time", arguments: { timezone: "Europe/Paris" } };

test("the playground parses a pasted output in every registered protocol, and every chunking agrees with one pass", async ({ page }) => {
  await page.goto("/?view=playground");
  const output = page.getByTestId("playground-output");
  await expect(output).toBeVisible();
  const protocols = listProtocols();
  expect(protocols.length).toBeGreaterThanOrEqual(8);
  for (const protocol of protocols) {
    const written = protocol.renderAssistant({ role: "assistant", content: "Checking the time.", toolCalls: [timeCall] });
    await page.getByTestId("playground-protocol").selectOption(protocol.name);
    await page.getByTestId("playground-chunking").selectOption("whole");
    await output.fill(written);
    const calls = page.getByTestId("playground-call");
    await expect(calls, `${protocol.name}: ${written}`).toHaveCount(1);
    await expect(calls.first()).toContainText("get_current_time");
    await expect(calls.first()).toContainText("Europe/Paris");
    for (const chunking of ["char", "random"]) {
      await page.getByTestId("playground-chunking").selectOption(chunking);
      await expect(page.getByTestId("playground-agreement")).toHaveAttribute("data-agrees", "true");
      await expect(page.getByTestId("playground-agreement")).toContainText("the same calls, text and errors as one pass");
      await expect(calls).toHaveCount(1);
    }
  }
  await page.screenshot({ path: `${SHOTS}/playground.png` });
});

test("the playground reads pasted tool definitions, and its state travels in a link", async ({ page }) => {
  await page.goto("/?view=playground");
  await page.getByTestId("playground-tool-source").selectOption("pasted");
  const definitions = [{ type: "function", function: { name: "lookup", description: "Looks up", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } } }];
  await page.getByTestId("playground-tools").fill("{not json");
  await expect(page.getByTestId("playground-tools-error")).toContainText("not JSON");
  await page.getByTestId("playground-tools").fill(JSON.stringify(definitions));
  await expect(page.getByTestId("playground-tools-error")).toHaveCount(0);
  await page.getByTestId("playground-protocol").selectOption("xml");
  await page.getByTestId("playground-output").fill("<tool_call><tool_name>lookup</tool_name><q>moon</q></tool_call>");
  await expect(page.getByTestId("playground-call")).toHaveCount(1);
  await expect(page.getByTestId("playground-call")).toContainText("lookup");
  await page.getByTestId("playground-chunking").selectOption("random");
  await page.getByTestId("playground-seed").fill("42");
  await page.getByTestId("playground-share").click();
  await expect(page.getByTestId("playground-link-message")).toContainText(/characters/);
  const link = page.url();
  expect(link).toMatch(/#pg=[A-Za-z0-9_-]+$/);

  const other = await page.context().newPage();
  await other.goto(link);
  await expect(other.getByTestId("playground-output")).toHaveValue("<tool_call><tool_name>lookup</tool_name><q>moon</q></tool_call>");
  await expect(other.getByTestId("playground-protocol")).toHaveValue("xml");
  await expect(other.getByTestId("playground-seed")).toHaveValue("42");
  await expect(other.getByTestId("playground-call")).toContainText("moon");
  await expect(other.getByTestId("playground-agreement")).toHaveAttribute("data-agrees", "true");

  // An unknown tool is a parse error, shown as such.
  await other.getByTestId("playground-output").fill("<tool_call><tool_name>nope</tool_name></tool_call>");
  await expect(other.getByTestId("playground-problems")).toContainText("unknown-tool");

  // A dropped file replaces the output.
  await other.getByTestId("playground-output").evaluate((box) => {
    const data = new DataTransfer();
    data.items.add(new File(["<tool_call><tool_name>lookup</tool_name><q>from a file</q></tool_call>"], "output.txt", { type: "text/plain" }));
    box.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(other.getByTestId("playground-call")).toContainText("from a file");

  // A damaged link is reported, not thrown.
  await other.goto("/?view=playground#pg=AAAA");
  await expect(other.getByTestId("playground-link-message")).toContainText("could not be read");
});

test("Parse as…: a Hermes step re-read as xml; strictly it has no call, and the step says why", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 × 5678?");
  await expect(page.getByTestId("step-item")).toHaveCount(2);
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();

  await page.getByTestId("reparse-protocol").selectOption("xml");
  // xml reads a JSON body inside <tool_call> leniently: the call is found, and the re-read says how.
  await expect(page.getByTestId("reparse-calls")).toHaveAttribute("data-count", "1");
  await expect(page.getByTestId("reparse-explanation")).toContainText("Read leniently: the <tool_call> body is JSON");
  // The marker is shown as code, not as Markdown backticks.
  await expect(page.getByTestId("reparse-explanation").locator("code").first()).toHaveText("<tool_call>");

  await page.getByTestId("reparse-strict").check();
  await expect(page.getByTestId("reparse-calls")).toHaveAttribute("data-count", "0");
  await expect(page.getByTestId("reparse-recorded")).toHaveAttribute("data-count", "1");
  await expect(page.getByTestId("reparse-explanation")).toContainText("as xml (strict): no call; the <tool_call> body is JSON, which xml reads only as a lenient fallback");
  await expect(page.getByTestId("reparse-differences")).toContainText("no calculator(");
  await page.screenshot({ path: `${SHOTS}/reparse-xml-strict.png` });

  // A protocol without the marker reads it as text.
  await page.getByTestId("reparse-strict").uncheck();
  await page.getByTestId("reparse-protocol").selectOption("llama3-json");
  await expect(page.getByTestId("reparse-explanation")).toContainText("<tool_call> is not a marker of llama3-json, which reads it as text");
  // Nothing was saved: the timeline still has the two recorded steps.
  await expect(page.getByTestId("step-item")).toHaveCount(2);
  // Unless asked: kept, the re-read is a branch under the step.
  await page.getByTestId("reparse-protocol").selectOption("xml");
  await page.getByTestId("reparse-keep").click();
  await expect(page.getByTestId("step-item")).toHaveCount(3);
  await expect(page.getByTestId("step-item").nth(1)).toHaveAttribute("data-branch", "true");
  await expect(page.getByTestId("step-item").nth(1)).toContainText("xml");
});

test("edit step 1's system prompt and re-run: a branch beside the original, kept by export, import and reload, and continued", async ({ page }) => {
  const calculatorCall = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1234 * 5678"}}\n</tool_call>';
  const url = await serveTranscript(page, "branching", {
    title: "Calculator, then a third turn",
    protocol: "hermes",
    chunkChars: 16,
    delayMs: 1,
    turns: [`I'll work that out.\n${calculatorCall}`, "1234 × 5678 = 7,006,652.", "The branch's answer: 2 + 3 = 5."],
  });
  await openLab(page, url);
  await send(page, "What is 1234 × 5678?");
  await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
  await page.getByTestId("step-item").first().click();

  await page.getByTestId("step-rerun").click();
  await expect(page.getByTestId("rerun-prompt")).toHaveValue(/calculator/);
  await expect(page.getByTestId("rerun-seed-note")).toContainText("replay engine has no model");
  // The output to use: the recorded one by default; edited to call with other arguments.
  await expect(page.getByTestId("rerun-output")).toHaveValue(`I'll work that out.\n${calculatorCall}`);
  await page.getByTestId("rerun-output").fill('Trying the edit.\n<tool_call>\n{"name": "calculator", "arguments": {"expression": "2 + 3"}}\n</tool_call>');
  const system = page.getByTestId("rerun-system");
  await system.fill(`${await system.inputValue()}\nAlways answer in French.`);
  await expect(page.getByTestId("rerun-prompt")).toHaveValue(/Always answer in French\./);
  await expect(page.getByTestId("rerun-changes")).toContainText("system prompt");
  await page.getByTestId("rerun-run").click();

  // Beside the original: its output, parsed.
  await expect(page.getByTestId("rerun-branch-calls")).toHaveAttribute("data-count", "1");
  await expect(page.getByTestId("rerun-branch-calls")).toContainText("2 + 3");
  await expect(page.getByTestId("rerun-original-calls")).toContainText("1234 * 5678");
  await expect(page.getByTestId("rerun-branch-parse-count")).toContainText(/\d+ parse events, [1-9]\d* decisions/);
  await page.getByTestId("rerun-panel").screenshot({ path: `${SHOTS}/rerun-panel.png` });

  // The timeline shows the branch under step 1; the chat is unchanged.
  const items = page.getByTestId("step-item");
  await expect(items).toHaveCount(3);
  await expect(items.nth(1)).toHaveAttribute("data-branch", "true");
  await expect(items.nth(1)).toContainText("Branch of step 1");
  await expect(page.getByTestId("message-assistant")).toHaveCount(1);
  await items.nth(1).click();
  expect(await shownPrompt(page)).toContain("Always answer in French.");
  await expect(page.getByTestId("branch-note")).toContainText("Changed: system prompt; output edited");
  // Compare the branch with its original: the prompt diff shows the edit, the calls what changed.
  const originalKey = await page.getByTestId("compare-with").locator("option", { hasText: "the original:" }).getAttribute("value");
  await page.getByTestId("compare-with").selectOption(originalKey!);
  await expect(page.getByTestId("step-compare-prompt").getByTestId("diff-insert")).toHaveText(["+Always answer in French."]);
  await expect(page.getByTestId("step-compare-prompt").getByTestId("diff-delete")).toHaveCount(0);
  await expect(page.getByTestId("step-compare-calls")).toContainText('calculator: arguments changed (expression): {"expression":"1234 * 5678"} → {"expression":"2 + 3"}');
  await expect(page.getByTestId("step-compare-output").locator(".xp-insert").first()).toBeVisible();
  await page.getByTestId("step-compare").screenshot({ path: `${SHOTS}/compare-branch.png` });
  await page.getByTestId("compare-with").selectOption("");
  await items.nth(0).click();
  expect(await shownPrompt(page)).not.toContain("Always answer in French.");

  // Export holds both runs.
  const exportedText = (await exportedConversation(page)).text;
  // The file writes each long text once (a prompt as the previous one's start plus the rest): read it as an import does.
  const exported = await importConversation(exportedText);
  const starts = exported.events.filter((e) => e.type === "step-start");
  expect(starts).toHaveLength(3);
  expect(starts.filter((e) => e.prompt.includes("Always answer in French."))).toHaveLength(1);
  const branchStart = exported.events.find((e) => e.type === "run-start" && e.branch !== undefined);
  expect(branchStart?.type === "run-start" ? branchStart.branch?.changes : undefined).toEqual(["system prompt", "output edited"]);

  // A reload keeps both.
  await page.reload();
  await expect(page.getByTestId("step-item")).toHaveCount(3);
  await expect(page.getByTestId("step-item").nth(1)).toHaveAttribute("data-branch", "true");

  // Continuing from the branch runs its call, and the loop goes on (the script's next turn).
  await page.getByTestId("step-item").nth(1).click();
  await page.getByTestId("rerun-continue").click();
  await expect(page.getByTestId("branch-message")).toContainText("ended: final");
  await expect(page.getByTestId("step-item")).toHaveCount(4);
  await expect(page.getByTestId("step-item").nth(2)).toContainText("Branch of step 1 · step 2");
  await page.getByTestId("step-item").nth(1).click();
  await expect(page.getByTestId("tool-exec")).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("tool-exec")).toContainText("5");
  await page.getByTestId("step-item").nth(2).click();
  await expect(page.getByTestId("raw-output-view")).toContainText("The branch's answer");
  // The loop went on with the branch's edit, not the conversation's system prompt.
  expect(await shownPrompt(page)).toContain("Always answer in French.");
  // Still one assistant turn in the chat: a branch never rewrites the conversation.
  await expect(page.getByTestId("message-assistant")).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/rerun-continued.png`, fullPage: true });

  // Import keeps both too.
  await page.getByTestId("import-file").setInputFiles({ name: "branching.json", mimeType: "application/json", buffer: Buffer.from(exportedText) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await expect(page.getByTestId("step-item")).toHaveCount(3);
  await expect(page.getByTestId("step-item").nth(1)).toHaveAttribute("data-branch", "true");

  // Compare across two conversations: the imported copy's step 1 against the first conversation's branch.
  await page.getByTestId("step-item").first().click();
  const otherConversation = await page.getByTestId("compare-conversation").locator("option", { hasNotText: "this conversation" }).first().getAttribute("value");
  await page.getByTestId("compare-conversation").selectOption(otherConversation!);
  const branchOption = page.getByTestId("compare-with").locator("option", { hasText: /Branch of step 1 · hermes/ });
  await expect(branchOption).toHaveCount(1);
  await page.getByTestId("compare-with").selectOption((await branchOption.getAttribute("value"))!);
  await expect(page.getByTestId("step-compare-prompt").getByTestId("diff-delete")).toHaveText(["−Always answer in French."]);
});

test("a re-run without an engine says so and does not run", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 × 5678?");
  await expect(page.getByTestId("step-item")).toHaveCount(2);
  await page.getByTestId("step-item").first().click();
  // WebLLM with no model loaded: nothing to re-run on.
  await page.getByTestId("engine-select").selectOption("webllm");
  await page.getByTestId("step-rerun").click();
  await expect(page.getByTestId("rerun-engine-note")).toContainText("No engine:");
  await expect(page.getByTestId("rerun-run")).toBeDisabled();
  await expect(page.getByTestId("rerun-output")).toHaveCount(0);
});
