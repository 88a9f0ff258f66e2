// The Mistral families against mistral-common's own encoders (InstructTokenizerV3/V7/V11/V13, the
// code Mistral AI tokenizes its training and serving conversations with), not only against the
// Jinja templates it generates: scripts/reference/mistral-common-render.py rendered the
// conversations of scripts/reference/mistral-common-cases.json with mistral-common and wrote the
// token ids back as text (fixtures/mistral-common-rendered.json, versions inside); this test
// renders the same conversations with the lab (renderModelPrompt, the loop's own rendering) and
// compares. Where they differ the difference is stated below and checked to be exactly that.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage, ToolSpec } from "toolcall-middleware/types.ts";
import { MINISTRAL3_REASONING_SYSTEM } from "toolcall-middleware/families/ministral3-reasoning.ts";

interface Cases {
  tools: ToolSpec[];
  conversations: Record<string, ChatMessage[]>;
}
interface Rendering {
  tokenizer: string;
  model: string;
  conversation: string;
  system: string | null;
  text?: string;
  refused?: string;
}

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8")) as unknown;
const cases = read("../../../scripts/reference/mistral-common-cases.json") as Cases;
const reference = read("../../../packages/toolcall-middleware/src/families/fixtures/mistral-common-rendered.json") as { mistral_common: string; rendered: Rendering[] };

function lab(rendering: Rendering): string {
  const messages = cases.conversations[rendering.conversation]!.map((m) => (m.role === "assistant" ? { ...m, protocol: "mistral" } : m));
  const usesTools = messages.some((m) => m.role === "assistant" && m.toolCalls?.length);
  return renderModelPrompt({ modelId: rendering.model, protocol: getProtocol("mistral")!, tools: usesTools ? cases.tools : [], messages, systemPrompt: rendering.system ?? "" }).prompt;
}

/**
 * The one stated difference: Ministral 3 Reasoning without a system prompt. The model's own chat
 * template (and mistral-common's v13_think.jinja) writes Mistral's default reasoning system prompt
 * then, and so does the lab (MINISTRAL3_REASONING_SYSTEM); mistral-common's encoder writes no
 * system prompt it was not given. Given a system prompt, the two are equal (the cases above).
 */
function withStatedDifference(rendering: Rendering): (text: string) => string {
  if (rendering.tokenizer === "v13-think" && rendering.system === null) return (text) => text.replace(/^<s>/, `<s>[SYSTEM_PROMPT]${MINISTRAL3_REASONING_SYSTEM}[/SYSTEM_PROMPT]`);
  return (text) => text;
}

describe(`the Mistral families against mistral-common ${reference.mistral_common}'s encoders`, () => {
  it("every case was rendered (the encoder refused none)", () => {
    expect(reference.rendered.filter((r) => r.refused)).toEqual([]);
    expect(reference.rendered.length).toBeGreaterThanOrEqual(40);
  });

  for (const rendering of reference.rendered) {
    const stated = rendering.tokenizer === "v13-think" && rendering.system === null ? " (the lab writes the model's default reasoning system prompt)" : "";
    const name = `${rendering.tokenizer} (${rendering.model}): ${rendering.conversation}, ${rendering.system ? "a system prompt" : "no system prompt"}${stated}`;
    it(name, () => {
      expect(lab(rendering)).toBe(withStatedDifference(rendering)(rendering.text!));
    });
  }
});
