// Kimi K2 with its trained kimi-k2 protocol. K2-Thinking against Moonshot's template
// (fixtures/moonshotai-Kimi-K2-Thinking.jinja) rendered by @huggingface/jinja from the same
// conversation, tools and add_generation_prompt: byte for byte. The conversations carry the ids
// a server returns for Kimi's calls (`functions.NAME:IDX`, IDX counting a turn's calls from 0)
// and the tool's name on each result, as Moonshot's tool-call guidance sends them.
// K2-Instruct: see its describe block for what is compared and what is not.
import { Template } from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { parseText } from "toolcall-middleware/parser/test-fixtures.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage } from "toolcall-middleware/types.ts";
import { familyOfServerModel } from "toolcall-middleware/families/registry.ts";
import { SYSTEM, call, callWithReasoning, commonScenarios, fixture, official, openAiMessages, ours, result, tools, type ParityScenario } from "./parity-harness.ts";

const THINKING = ["moonshotai/Kimi-K2-Thinking"];
const INSTRUCT = ["moonshotai/Kimi-K2-Instruct", "moonshotai/Kimi-K2-Instruct-0905"];

/** The conversation with Kimi's ids: each turn's calls `functions.NAME:0`, `:1`, …; each result its call's. */
function withKimiIds(messages: ChatMessage[]): ChatMessage[] {
  const ids = new Map<string, string>();
  return messages.map((message) => {
    if (message.role === "assistant" && message.toolCalls?.length) {
      return { ...message, toolCalls: message.toolCalls.map((c, i) => ({ ...c, id: ids.set(c.id, `functions.${c.name}:${i}`).get(c.id)! })) };
    }
    return message.role === "tool" ? { ...message, toolCallId: ids.get(message.toolCallId) ?? message.toolCallId } : message;
  });
}

const scenarios: ParityScenario[] = [...commonScenarios, ["reasoning, a call, result", callWithReasoning]];

describe("Kimi K2 Thinking: the kimi-k2 prompt is Moonshot's template's, tools included", () => {
  const template = fixture("moonshotai-Kimi-K2-Thinking.jinja");
  for (const [scenario, messagesFor] of scenarios) {
    for (const system of [SYSTEM, undefined]) {
      it(`${scenario}, ${system ? "a system prompt" : "no system prompt (Kimi's default one)"}`, () => {
        const messages = withKimiIds(messagesFor("kimi-k2"));
        const expected = official(template, messages, system, {});
        for (const model of THINKING) expect(ours(model, "kimi-k2", messages, system), model).toBe(expected);
      });
    }
  }

  it("reasoning is kept after the last answer without calls, and dropped (an empty think block) before it", () => {
    const messages: ChatMessage[] = withKimiIds([
      ...callWithReasoning("kimi-k2"),
      { role: "assistant", content: "7006652.", reasoning: "Done.", protocol: "kimi-k2" },
      { role: "user", content: "And 2^10?" },
      { role: "assistant", content: "", reasoning: "A power of two.", toolCalls: [call("c2", "calculator", { expression: "2^10" })], protocol: "kimi-k2" },
      result("c2", "calculator", "1024"),
    ]);
    const prompt = ours(THINKING[0]!, "kimi-k2", messages, undefined);
    expect(prompt).toBe(official(template, messages, undefined, {}));
    expect(prompt).not.toContain("I should use the calculator");
    expect(prompt).toContain("<think>A power of two.</think>");
  });

  it("the lab's own call ids (…:call_K) become functions.NAME:K-1, the same for a call and its result, as the template writes them", () => {
    const lab: ChatMessage[] = [
      { role: "user", content: "What time is it in Seoul, and what is 2^10?" },
      { role: "assistant", content: "", toolCalls: [call("r1:s1:call_1", "get_current_time", { timezone: "Asia/Seoul" }), call("r1:s1:call_2", "calculator", { expression: "2^10" })], protocol: "kimi-k2" },
      result("r1:s1:call_1", "get_current_time", "21:00"),
      result("r1:s1:call_2", "calculator", "1024"),
    ];
    const prompt = ours(THINKING[0]!, "kimi-k2", lab, undefined);
    expect(prompt).toBe(official(template, withKimiIds(lab), undefined, {}));
    expect(prompt).toContain("<|im_system|>calculator<|im_middle|>## Return of functions.calculator:1\n1024<|im_end|>");
  });

  it("a call written back reads back as the same call", () => {
    const prompt = ours(THINKING[0]!, "kimi-k2", withKimiIds(commonScenarios[2]![1]("kimi-k2")), undefined);
    const section = prompt.slice(prompt.indexOf("<|tool_calls_section_begin|>"), prompt.indexOf("<|tool_calls_section_end|>") + "<|tool_calls_section_end|>".length);
    const { calls } = parseText(getProtocol("kimi-k2")!, section, tools);
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([
      ["get_current_time", { timezone: "Asia/Seoul" }],
      ["calculator", { expression: "2^10" }],
    ]);
  });
});

describe("Kimi K2 Instruct: K2-Thinking's framing without think blocks, the tool list compact", () => {
  // The fixture of K2-Instruct's template (llama.cpp de3ff815's moonshotai-Kimi-K2.jinja, a
  // template llama.cpp keeps for its tests) writes calls and results, but not as Moonshot's: a
  // result's header ends in a backslash and an "n" (`## Return of ID\n` in template text, which
  // Jinja writes as it stands; see the case below), the arguments `tojson`ed, "You are a helpful
  // assistant" as the default. So the reference for calls here is K2-Thinking's template rendered
  // from the same inputs, its think blocks taken out and its tool list written compactly (as
  // K2-Instruct's current template is described to write it; not checked on that file); the
  // fixture is compared for turns without calls only.
  const thinkingTemplate = fixture("moonshotai-Kimi-K2-Thinking.jinja");
  const compactTools = (prompt: string) =>
    prompt.replace(/(<\|im_system\|>tool_declare<\|im_middle\|>)(.*?)(<\|im_end\|>)/, (_, open: string, json: string, close: string) => open + JSON.stringify(JSON.parse(json)) + close);
  for (const [scenario, messagesFor] of scenarios) {
    for (const system of [SYSTEM, undefined]) {
      it(`${scenario}, ${system ? "a system prompt" : "no system prompt"}`, () => {
        const messages = withKimiIds(messagesFor("kimi-k2"));
        const expected = compactTools(official(thinkingTemplate, messages, system, {}).replace(/<think>[\s\S]*?<\/think>/g, ""));
        for (const model of INSTRUCT) expect(ours(model, "kimi-k2", messages, system), model).toBe(expected);
      });
    }
  }

  it("without tools or calls, with a system prompt, the turns are the early K2-Instruct template's byte for byte", () => {
    const plain: ChatMessage[] = [{ role: "user", content: "Hello" }, { role: "assistant", content: "Hi!", protocol: "kimi-k2" }, { role: "user", content: "What is 2 + 2?" }];
    const early = new Template(fixture("moonshotai-Kimi-K2.jinja")).render({ messages: openAiMessages(plain, SYSTEM), add_generation_prompt: true });
    const prompt = ours(INSTRUCT[0]!, "kimi-k2", plain, SYSTEM).replace(/^<\|im_system\|>tool_declare<\|im_middle\|>.*?<\|im_end\|>/, "");
    expect(prompt).toBe(early);
  });

  it("the fixture's result header holds a backslash and an n, not a line break: why it is not the reference for calls", () => {
    const messages = withKimiIds(commonScenarios[0]![1]("kimi-k2"));
    const theirs = new Template(fixture("moonshotai-Kimi-K2.jinja")).render({ messages: openAiMessages(messages, SYSTEM), add_generation_prompt: true });
    expect(theirs).toMatch(/## Return of functions\.calculator:0\\n7006652<\|im_end\|>/);
    expect(ours(INSTRUCT[0]!, "kimi-k2", messages, SYSTEM)).toContain("## Return of functions.calculator:0\n7006652<|im_end|>");
  });

  it("names: the Thinking model and the Instruct ones resolve to their own templates", () => {
    expect(familyOfServerModel("moonshotai/Kimi-K2-Thinking")?.id).toBe("kimi-k2-thinking");
    for (const model of INSTRUCT) expect(familyOfServerModel(model)?.id, model).toBe("kimi-k2");
  });
});
