// The bounded renderer a GGUF's own chat template runs in (in its worker: off-thread-template.ts):
// one that loops or blows up its output is stopped at its bounds (time, text size, range length),
// saying which. An ordinary template renders exactly as @huggingface/jinja's Template.render.
// The run ending with nothing sent is in off-thread-template.test.ts.
import { Template } from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import type { TemplateMessage } from "toolcall-middleware/types.ts";
import { renderWithinBudget, TEMPLATE_RENDER_BUDGET } from "./jinja-budget.ts";

/** The variables a GGUF's template gets, rendered within TEMPLATE_RENDER_BUDGET on this thread. */
function ggufEmbeddedChatTemplate(source: string, modelName: string) {
  const template = new Template(source);
  return {
    render: (messages: TemplateMessage[], { addGenerationPrompt }: { addGenerationPrompt: boolean }) =>
      renderWithinBudget(template, { messages, add_generation_prompt: addGenerationPrompt, bos_token: "", eos_token: "" }, TEMPLATE_RENDER_BUDGET, `The chat template embedded in ${modelName}`),
  };
}

const CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
const messages = [
  { role: "system" as const, content: "You are a lab." },
  { role: "user" as const, content: "Hi" },
];
/** Doubles a string 40 times (a 2^40-fold prompt), only when a system prompt is there: llama.cpp's load-time probe has none. */
const DOUBLING = `{% if messages[0]['role'] == 'system' %}{% set s = namespace(v='ab') %}{% for i in range(40) %}{% set s.v = s.v + s.v %}{% endfor %}{{ s.v }}{% endif %}${CHATML}`;
const NESTED_LOOPS = `{% for i in range(3000) %}{% for j in range(3000) %}{% endfor %}{% endfor %}${CHATML}`;
const HUGE_RANGE = `{% for i in range(300000000) %}{% endfor %}${CHATML}`;

describe("a GGUF's own chat template within its bounds", () => {
  it("renders an ordinary template exactly as Template.render does, globals included", () => {
    const source = `{{ strftime_now('%Y') }}|{{ range(3) | join(',') }}|{{ range(1, 7, 2) | join(',') }}|{{ True }}{{ none is none }}${CHATML}`;
    const items = { messages, add_generation_prompt: true, bos_token: "", eos_token: "" };
    expect(renderWithinBudget(new Template(source), items, TEMPLATE_RENDER_BUDGET, "t")).toBe(new Template(source).render(items));
    expect(ggufEmbeddedChatTemplate(CHATML, "m").render(messages, { addGenerationPrompt: true })).toBe("<|im_start|>system\nYou are a lab.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  });

  it("stops a template that doubles a string past the size bound, and only then (without a system prompt it renders)", () => {
    const template = ggufEmbeddedChatTemplate(DOUBLING, "evil.gguf");
    expect(() => template.render(messages, { addGenerationPrompt: true })).toThrow(
      "The chat template embedded in evil.gguf made a text longer than its bound of 2,000,000 characters: it was stopped and nothing was sent to the model.",
    );
    expect(template.render(messages.slice(1), { addGenerationPrompt: false })).toBe("<|im_start|>user\nHi<|im_end|>\n");
  });

  it("stops a 3,000 × 3,000 loop at the time budget", () => {
    expect(() => ggufEmbeddedChatTemplate(NESTED_LOOPS, "slow.gguf").render(messages, { addGenerationPrompt: true })).toThrow(
      /^The chat template embedded in slow\.gguf ran past its time budget of 150 ms \([\d,]+ steps\): it was stopped and nothing was sent to the model\.$/,
    );
  });

  it("refuses range() past its bound before the list is made", () => {
    expect(() => ggufEmbeddedChatTemplate(HUGE_RANGE, "range.gguf").render(messages, { addGenerationPrompt: true })).toThrow(
      "The chat template embedded in range.gguf asked for range() of 300,000,000 items, past its bound of 100,000: it was stopped and nothing was sent to the model.",
    );
    // At the bound it runs.
    expect(ggufEmbeddedChatTemplate(`{{ range(100000) | length }}`, "m").render([], { addGenerationPrompt: false })).toBe("100000");
  });
});
