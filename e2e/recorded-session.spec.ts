// The debugger shows what a run recorded, not what today's code would write: an imported session
// whose protocol wrote its tool section differently shows the recorded text; an older log that
// did not record it is shown with today's code and says so.
import { expect, test } from "@playwright/test";
import { importOneStepSession } from "./lab-helpers.ts";

const OLD_SECTION = "# Tools (as an older hermes wrote it)\nCall a tool inside <tool_call></tool_call>.\n<tools>\n{\"name\": \"calculator\"}\n</tools>";
const PROMPT = `<|im_start|>system\nBe brief.\n\n${OLD_SECTION}<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n`;
const tools = [{ name: "calculator", description: "Evaluates arithmetic.", parameters: { type: "object", properties: { expression: { type: "string" } } } }];

function session(recorded: boolean) {
  const base = { runId: "old-run", at: 1_700_000_000_000 };
  const user = { role: "user", content: "What is 2+2?" };
  const answer = { role: "assistant", content: "4", protocol: "hermes" };
  const at = PROMPT.indexOf(OLD_SECTION);
  return {
    format: "toolcall-lab/conversation",
    version: 1,
    title: recorded ? "Recorded" : "Older log",
    createdAt: 1,
    events: [
      { ...base, type: "run-start", protocol: "hermes", messages: [user], tools, limits: { maxSteps: 4, toolTimeoutMs: 1000 }, ...(recorded ? { toolSection: OLD_SECTION } : {}) },
      {
        ...base,
        type: "step-start",
        stepId: "old-run-s1",
        index: 1,
        protocol: "hermes",
        messages: [user],
        templateMessages: [],
        prompt: PROMPT,
        template: "qwen3",
        settings: { maxTokens: 1024, temperature: 0.6 },
        ...(recorded ? { toolSectionAt: { start: at, end: at + OLD_SECTION.length }, controlTokens: ["<|im_start|>", "<|im_end|>"] } : {}),
      },
      { ...base, type: "output-delta", stepId: "old-run-s1", text: "4", offset: 0 },
      { ...base, type: "parse", stepId: "old-run-s1", event: { type: "text", text: "4", span: { start: 0, end: 1 } } },
      { ...base, type: "step-end", stepId: "old-run-s1", status: "final", durationMs: 5 },
      { ...base, type: "message", message: answer },
      { ...base, type: "run-end", status: "final", messages: [user, answer] },
    ],
  };
}

test("a recorded session whose protocol text differs from today's code shows its recorded text", async ({ page }) => {
  await importOneStepSession(page, session(true));
  const block = page.getByTestId("prompt-tool-block");
  await expect(block).toHaveCount(1);
  await block.locator("summary").click();
  await expect(block).toContainText("as an older hermes wrote it");
  await expect(page.getByTestId("prompt-not-recorded-note")).toHaveCount(0);
  // The step recorded no budget: the debugger says so rather than inventing one.
  await expect(page.getByTestId("step-budget")).toContainText("not recorded");

  await page.getByRole("tab", { name: "Tool definitions" }).click();
  await expect(page.getByTestId("tool-def-model")).toHaveText(OLD_SECTION);
  await expect(page.getByTestId("tool-def-model")).toHaveAttribute("data-recorded", "true");
  await expect(page.getByTestId("tool-def-not-recorded")).toHaveCount(0);
});

test("an older log without recorded tool sections still displays, with today's code and a note saying so", async ({ page }) => {
  await importOneStepSession(page, session(false));
  await expect(page.getByTestId("prompt-not-recorded-note")).toContainText("made before the lab recorded the tool section and the control tokens");
  await expect(page.getByTestId("prompt-view")).toContainText("What is 2+2?");
  await page.getByRole("tab", { name: "Tool definitions" }).click();
  await expect(page.getByTestId("tool-def-not-recorded")).toBeVisible();
  await expect(page.getByTestId("tool-def-model")).toHaveAttribute("data-recorded", "false");
  await expect(page.getByTestId("tool-def-model")).not.toHaveText(OLD_SECTION);
  await expect(page.getByTestId("tool-def-model")).toContainText("calculator");
});
