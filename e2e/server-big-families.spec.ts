// Prompt mode with the server-only families GLM-4.6, Kimi K2 Thinking, MiniMax M2 and xLAM-2, as a
// person uses it against the local stand-in server (e2e/openai-server/server.ts, which speaks the
// OpenAI API but is no real model): the model's name picks the family's template, the model's
// call in its trained format runs, and the next prompt writes the call and its result back the
// way the family's official template does (src/engine/templates/parity-*.test.ts check those
// prompts byte for byte; here the whole app is in the path).
import { expect, test } from "@playwright/test";
import { startOpenAiTestServer, type OpenAiTestServer } from "./openai-server/server.ts";
import { send } from "./lab-helpers.ts";

const families = [
  {
    model: "zai-org/GLM-4.6",
    template: "glm45",
    protocol: "glm45",
    call: "<tool_call>calculator\n<arg_key>expression</arg_key>\n<arg_value>2 + 3</arg_value>\n</tool_call>",
    writtenBack: "<|assistant|>\n<think></think>\n<tool_call>calculator\n<arg_key>expression</arg_key>\n<arg_value>2 + 3</arg_value>\n</tool_call><|observation|>\n<tool_response>\n5\n</tool_response><|assistant|>",
  },
  {
    model: "moonshotai/Kimi-K2-Thinking",
    template: "kimi-k2-thinking",
    protocol: "kimi-k2",
    call: '<|tool_calls_section_begin|><|tool_call_begin|>functions.calculator:0<|tool_call_argument_begin|>{"expression": "2 + 3"}<|tool_call_end|><|tool_calls_section_end|>',
    writtenBack:
      '<|im_assistant|>assistant<|im_middle|><think></think><|tool_calls_section_begin|><|tool_call_begin|>functions.calculator:0<|tool_call_argument_begin|>{"expression": "2 + 3"}<|tool_call_end|><|tool_calls_section_end|><|im_end|><|im_system|>calculator<|im_middle|>## Return of functions.calculator:0\n5<|im_end|><|im_assistant|>assistant<|im_middle|>',
  },
  {
    model: "MiniMaxAI/MiniMax-M2",
    template: "minimax-m2",
    protocol: "minimax-m2",
    call: '<minimax:tool_call>\n<invoke name="calculator">\n<parameter name="expression">2 + 3</parameter>\n</invoke>\n</minimax:tool_call>',
    writtenBack: ']~b]ai\n\n<minimax:tool_call>\n<invoke name="calculator">\n<parameter name="expression">2 + 3</parameter>\n</invoke>\n</minimax:tool_call>[e~[\n]~b]tool\n<response>5</response>[e~[\n]~b]ai\n',
  },
  {
    model: "Salesforce/Llama-xLAM-2-8b-fc-r",
    template: "xlam-llama",
    protocol: "xlam",
    call: '[{"name": "calculator", "arguments": {"expression": "2 + 3"}}]',
    writtenBack:
      '<|start_header_id|>assistant<|end_header_id|>\n\n[{"name": "calculator", "arguments": {"expression": "2 + 3"}}]<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n5<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
  },
];

let server: OpenAiTestServer;
test.beforeAll(async () => {
  server = await startOpenAiTestServer({ models: families.map((f) => ({ id: f.model })) });
});
test.afterAll(() => server.close());
test.beforeEach(() => {
  server.requests.length = 0;
  server.set({ allowOrigin: "*", apiKey: undefined, noCompletions: false });
});

for (const family of families) {
  test(`${family.model}: its template, a call in its format runs, the call and result go back in the template's form`, async ({ page }) => {
    server.script({ text: [family.call.slice(0, 17), family.call.slice(17)] }, { text: ["2 + 3 = 5."] });
    await page.goto("/");
    await page.getByTestId("engine-select").selectOption("openai");
    await page.getByTestId("openai-base-url").fill(server.url);
    await page.getByTestId("openai-connect-button").click();
    await expect(page.getByTestId("engine-status")).toContainText(`the server lists ${families.length} models`);
    await page.getByTestId("openai-model-select").selectOption(family.model);
    await page.getByTestId("openai-mode").selectOption("prompt");
    await expect(page.getByTestId("engine-status")).toContainText(`with the ${family.template} template`);
    await page.getByTestId("protocol-select").selectOption(family.protocol);
    await send(page, "What is 2 + 3?");

    await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
    await expect(page.getByTestId("message-assistant").last()).toContainText("2 + 3 = 5.");
    const completions = server.requests.filter((r) => r.path === "/v1/completions");
    expect(completions).toHaveLength(2);
    expect(completions[0]!.body!.model).toBe(family.model);
    expect(String(completions[1]!.body!.prompt).endsWith(family.writtenBack)).toBe(true);
  });
}

test("the thinking switch shows for a family that declares one (GLM-4.6), not for one always thinking (Kimi K2 Thinking)", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("openai");
  await page.getByTestId("openai-base-url").fill(server.url);
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("engine-status")).toContainText(`the server lists ${families.length} models`);
  await page.getByTestId("openai-model-select").selectOption("zai-org/GLM-4.6");
  await page.getByTestId("openai-mode").selectOption("prompt");
  await expect(page.getByTestId("engine-status")).toContainText("with the glm45 template");
  await expect(page.getByTestId("server-thinking-toggle")).toBeVisible();
  await page.screenshot({ path: "e2e/.output/server-thinking-glm-1440.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the Model pane sits behind the header's "Model & settings" button.
  await page.getByTestId("side-toggle").click();
  await page.getByTestId("server-thinking-toggle").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "e2e/.output/server-thinking-glm-390.png" });
  await page.getByTestId("openai-model-select").selectOption("moonshotai/Kimi-K2-Thinking");
  await expect(page.getByTestId("engine-status")).toContainText("with the kimi-k2-thinking template");
  await expect(page.getByTestId("server-thinking-toggle")).toHaveCount(0);
});
