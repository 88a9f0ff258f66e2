import { describe, expect, it } from "vitest";
import { renderPrompt } from "toolcall-middleware/loop/render-conversation.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { chatmlTemplate } from "toolcall-middleware/templates/chatml.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { describeChanges, partsOf, renderParts, toolsOf, userSystemPrompt, withMessageEdited, type StepInputs } from "./rerun-draft.ts";

const hermes = getProtocol("hermes")!;
const tool: ToolSpec = { name: "add", description: "Adds", parameters: { type: "object", properties: { a: { type: "number" } } } };
const messages = [{ role: "user" as const, content: "1+1?" }];
const rendered = renderPrompt({ systemPrompt: "Be brief.", tools: [tool], protocol: hermes, messages, template: chatmlTemplate });
const inputs: StepInputs = { prompt: rendered.prompt, templateMessages: rendered.templateMessages, messages, protocol: "hermes", settings: { temperature: 0.6, seed: 7 }, constrained: false };
const section = hermes.systemPrompt([tool]);

describe("rerun draft", () => {
  it("takes the user's system prompt out of the recorded system turn, and the parts render the recorded prompt again", async () => {
    expect(userSystemPrompt(rendered.templateMessages, section)).toBe("Be brief.");
    const parts = partsOf(inputs, [tool], section);
    const tools = toolsOf(parts);
    if ("error" in tools) throw new Error(tools.error);
    expect((await renderParts(parts, tools.tools, hermes, chatmlTemplate)).prompt).toBe(rendered.prompt);
  });

  it("lists what changed in words, and names a schema that is not JSON", () => {
    const parts = partsOf(inputs, [tool], section);
    const edited = { ...parts, systemPrompt: "Be very brief.", tools: [{ ...parts.tools[0]!, description: "Sums" }] };
    const changes = describeChanges(inputs, parts, "out", { prompt: "", promptEditedDirectly: false, parts: edited, protocol: "xml", settings: { temperature: 0.2, seed: 7 }, constrained: true, output: "other" });
    expect(changes).toEqual(["system prompt", "tool add: description", "protocol hermes → xml", "temperature 0.6 → 0.2", "constrained on", "output edited"]);
    expect(describeChanges(inputs, parts, "out", { prompt: rendered.prompt, promptEditedDirectly: false, parts, protocol: "hermes", settings: inputs.settings, constrained: false, output: "out" })).toEqual([]);
    expect(toolsOf({ ...parts, tools: [{ ...parts.tools[0]!, schema: "{" }] })).toEqual({ error: expect.stringMatching(/^The schema of add is not JSON/) });
    const deep = `{"type": "object", "properties": {"a": ${'{"type": "array", "items": '.repeat(100_000)}{"type": "string"}${"}".repeat(100_000)}}}`;
    expect(toolsOf({ ...parts, tools: [{ ...parts.tools[0]!, schema: deep }] })).toEqual({ error: "The schema of add is nested more than 64 levels deep." });
  });

  it("an edited assistant message is rendered with its new text, not what it was recorded as", async () => {
    const recorded = '<tool_call>\n{"name": "add", "arguments": {"a": 1}}\n</tool_call>';
    const history = [
      { role: "user" as const, content: "1+1?" },
      { role: "assistant" as const, content: "I will add.", rawOutput: `I will add.\n${recorded}`, protocol: "hermes", toolCalls: [{ id: "c1", name: "add", arguments: { a: 1 } }] },
      { role: "tool" as const, toolCallId: "c1", name: "add", content: "2" },
    ];
    const step = renderPrompt({ systemPrompt: "", tools: [tool], protocol: hermes, messages: history, template: chatmlTemplate });
    const parts = partsOf({ ...inputs, prompt: step.prompt, templateMessages: step.templateMessages, messages: history }, [tool], section);
    expect((await renderParts(parts, [tool], hermes, chatmlTemplate)).prompt).toContain("I will add.");
    const edited = withMessageEdited(parts, 1, "I will subtract.");
    const prompt = (await renderParts(edited, [tool], hermes, chatmlTemplate)).prompt;
    expect(prompt).toContain("I will subtract.");
    expect(prompt).not.toContain("I will add.");
    // The calls it made stay (they are written from toolCalls); the branch gets the same messages.
    expect(prompt).toContain('"name": "add"');
    expect(edited.messages[1]).not.toHaveProperty("rawOutput");
    expect(describeChanges(inputs, parts, "out", { prompt, promptEditedDirectly: false, parts: edited, protocol: "hermes", settings: inputs.settings, constrained: false, output: null })).toEqual(["message 2 (assistant)"]);
  });
});
