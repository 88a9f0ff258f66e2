// An imported file is the attacker's: one output delta whose offset claims a gap of hundreds of
// millions of characters made the debugger pad the raw output with spaces when its step opened
// (2e8: a 200 MB string and a frozen tab; 6e8: "Invalid string length", the debugger pane broken
// for that conversation). The import refuses it and says where; the lab goes on working.
import { expect, test } from "@playwright/test";
import { openLab } from "./lab-helpers.ts";

function session(offset: number) {
  const base = { runId: "r", at: 1_700_000_000_000 };
  const user = { role: "user", content: "Hi" };
  const answer = { role: "assistant", content: "Hello", protocol: "hermes" };
  return {
    format: "toolcall-lab/conversation",
    version: 1,
    title: "Gap",
    events: [
      { ...base, type: "run-start", protocol: "hermes", messages: [user], tools: [], limits: { maxSteps: 4, toolTimeoutMs: 1000 } },
      { ...base, type: "step-start", stepId: "s1", index: 1, protocol: "hermes", messages: [user], templateMessages: [], prompt: "P", template: "qwen3", settings: {} },
      { ...base, type: "output-delta", stepId: "s1", text: "Hel", offset: 0 },
      { ...base, type: "output-delta", stepId: "s1", text: "lo", offset },
      { ...base, type: "parse", stepId: "s1", event: { type: "text", text: "Hello", span: { start: 0, end: 5 } } },
      { ...base, type: "step-end", stepId: "s1", status: "final", durationMs: 5 },
      { ...base, type: "message", message: answer },
      { ...base, type: "run-end", status: "final", messages: [user, answer] },
    ],
  };
}

test("an imported output delta whose offset leaves a huge gap is refused with the event named, and the lab keeps working", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  const input = page.getByTestId("import-file");
  for (const offset of [2e8, 6e8]) {
    await input.setInputFiles({ name: "gap.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(session(offset))) });
    await expect(page.getByTestId("import-message")).toContainText(`events.3.offset: ${offset} is past the end of its step's output so far (3 characters)`);
  }
  await page.screenshot({ path: "e2e/.output/hostile-import-offset.png" });
  // The same file with the offset where the text ends imports and shows its step.
  await input.setInputFiles({ name: "ok.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(session(3))) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await expect(page.getByTestId("step-item")).toHaveCount(1);
  await expect(page.getByTestId("raw-output-view")).toContainText("Hello");
});
