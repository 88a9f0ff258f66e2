import { describe, expect, it } from "vitest";
import { ASIDE_PROMPT, PromptCachePlan, reusesSlot, setAsidePrompt } from "./prompt-cache-plan.ts";

// Four prompts shaped like the protocol table's: hermes and xml share a long start (their tool
// preamble), pythonic and llama3-json share only the chat template's first line with the others.
const head = "<|im_start|>system\nYou are a helpful assistant.\n\n";
const preamble = "# Tools\n\nYou may call one or more functions to assist with the user query. ".repeat(4);
const hermes = `${head}${preamble}<tools>{"name":"calculator"}</tools><|im_end|>\n<|im_start|>user\nWhat is 6 times 7?<|im_end|>\n<|im_start|>assistant\n`;
const xml = `${head}${preamble}Answer in XML: <function_calls><invoke name="calculator"><parameter name="expression">…</parameter></invoke></function_calls>. ${"Each parameter on its own line. ".repeat(12)}<|im_end|>\n<|im_start|>user\nWhat is 6 times 7?<|im_end|>\n<|im_start|>assistant\n`;
const pythonic = `${head}${"You are an expert in composing functions: [calculator(expression=...)]. ".repeat(6)}<|im_end|>\n<|im_start|>user\nWhat is 6 times 7?<|im_end|>\n<|im_start|>assistant\n`;
const llama3 = `${head}${"Given the following functions, respond with a JSON object for a function call. ".repeat(5)}<|im_end|>\n<|im_start|>user\nWhat is 6 times 7?<|im_end|>\n<|im_start|>assistant\n`;
const table = [hermes, xml, pythonic, llama3];

/** Runs a table through the plan as the engine does: what goes first (if anything), then the row's probe. */
function runTable(plan: PromptCachePlan): string[] {
  const sent: string[] = [];
  for (const prompt of table) {
    const step = plan.before(prompt);
    if (step.send !== "nothing") {
      plan.sent(step.prompt);
      sent.push(step.send);
    } else sent.push("-");
    plan.sent(prompt);
  }
  return sent;
}

describe("the prompt cache plan (llama-server's one slot and RAM cache, as the engine's requests leave them)", () => {
  it("reads the runtime's rule: a prompt sharing half of the slot's reading overwrites it, one sharing little saves it", () => {
    expect(reusesSlot(hermes, xml)).toBe(true);
    expect(reusesSlot(xml, hermes)).toBe(false);
    expect(reusesSlot(xml, pythonic)).toBe(false);
    expect(reusesSlot(hermes, `${hermes}<tool_call>`)).toBe(true);
    // The set-aside prompt keeps a third of the slot's reading: the runtime saves the rest.
    expect(reusesSlot(hermes, setAsidePrompt(hermes))).toBe(false);
  });

  it("the first table puts hermes aside before xml would overwrite it, and takes no sibling's reading out of the cache", () => {
    const plan = new PromptCachePlan();
    expect(runTable(plan)).toEqual(["-", "set-aside", "-", "-"]);
    // hermes (set aside), xml (saved when pythonic came), pythonic (saved when llama3-json came); llama3-json is in the slot.
    expect(plan.readingsAside()).toEqual([hermes, xml, pythonic]);
  });

  it("the second table brings each prompt back: hermes and the two others by themselves, xml after a one-token aside", () => {
    const plan = new PromptCachePlan();
    runTable(plan);
    expect(runTable(plan)).toEqual(["-", "recall", "-", "-"]);
    // Every reading is put aside again by the end, the last one in the slot.
    expect([...plan.readingsAside()].sort()).toEqual([hermes, xml, pythonic].sort());
    expect(runTable(plan)).toEqual(["-", "recall", "-", "-"]);
  });

  it("sends nothing before a prompt that extends the slot's reading (the next chat turn, a probe of the step's own prompt)", () => {
    const plan = new PromptCachePlan();
    plan.sent(hermes);
    expect(plan.before(hermes)).toEqual({ send: "nothing" });
    expect(plan.before(`${hermes}It is 42.<|im_end|>\n<|im_start|>user\nThanks<|im_end|>\n<|im_start|>assistant\n`)).toEqual({ send: "nothing" });
  });

  it("a prompt that extends a reading put aside is recalled when the slot would be reused instead", () => {
    const plan = new PromptCachePlan();
    runTable(plan);
    plan.sent(hermes); // hermes back in the slot
    const next = `${xml}<tool_call>`;
    expect(plan.before(next)).toEqual({ send: "recall", prompt: ASIDE_PROMPT });
  });

  it("a restored reading is taken out of the cache (llama-server moves it into the slot)", () => {
    const plan = new PromptCachePlan();
    plan.sent(hermes);
    plan.sent(pythonic); // shares little: hermes is saved
    expect(plan.readingsAside()).toEqual([hermes]);
    plan.sent(hermes); // pythonic saved, hermes restored
    expect(plan.readingsAside()).toEqual([pythonic]);
  });
});
