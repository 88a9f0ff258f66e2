// Derivation from renderers written here (plain functions standing in for a template), so each
// case is one format and one way a template can refuse: no Jinja involved.
import { describe, expect, it } from "vitest";
import { parseAll } from "../parser/collect.ts";
import type { ToolSpec } from "../types.ts";
import { deriveFormat } from "./derive-format.ts";
import { derivedProtocol, writeDerivedCalls } from "./derived-protocol.ts";
import { describeDerivedFormat } from "./describe-format.ts";
import type { TemplateRenderer } from "./probes.ts";
import { chunksOf1To4 } from "./round-trip.ts";

interface Message {
  role: string;
  content: string;
  reasoning_content?: string;
  tool_calls?: { id?: string; function: { name: string; arguments: Record<string, unknown> } }[];
}

/** A ChatML-like template whose calls are written by `writeCalls`. */
function chatTemplate(writeCalls: (calls: { name: string; arguments: Record<string, unknown> }[]) => string): TemplateRenderer {
  return (variables) => {
    const messages = variables.messages as Message[];
    let out = "";
    for (const m of messages) {
      const reasoning = m.reasoning_content ? `<think>\n${m.reasoning_content}\n</think>\n` : "";
      const calls = m.tool_calls ? writeCalls(m.tool_calls.map((c) => c.function)) : "";
      out += `<|im_start|>${m.role}\n${reasoning}${m.content}${calls}<|im_end|>\n`;
    }
    if (variables.tools && messages[0]?.role === "system") out = out.replace("<|im_end|>", `\n# Tools\n${JSON.stringify(variables.tools)}<|im_end|>`);
    if (variables.add_generation_prompt) out += "<|im_start|>assistant\n";
    return out;
  };
}

const hermesLike = chatTemplate((calls) => calls.map((c) => `\n<tool_call>\n${JSON.stringify({ name: c.name, arguments: c.arguments })}\n</tool_call>`).join(""));
const taggedLike = chatTemplate((calls) =>
  calls.map((c) => `\n<call name="${c.name}">${Object.entries(c.arguments).map(([k, v]) => `<arg name="${k}">${typeof v === "string" ? v : JSON.stringify(v)}</arg>`).join("")}</call>`).join(""),
);
/** Mistral Small 3.2's way: each call's id after its name (`[CALL_ID]` + the message's own id). */
const callIdLike: TemplateRenderer = (variables) => {
  const messages = variables.messages as Message[];
  let out = "";
  for (const m of messages) {
    const calls = (m.tool_calls ?? []).map((c) => `[TOOL_CALLS]${c.function.name}[CALL_ID]${c.id ?? ""}[ARGS]${JSON.stringify(c.function.arguments)}`).join("");
    out += `<|im_start|>${m.role}\n${m.content}${calls}<|im_end|>\n`;
  }
  if (variables.add_generation_prompt) out += "<|im_start|>assistant\n";
  return out;
};
const sectionLike = chatTemplate((calls) => `[[CALLS]]${calls.map((c, i) => `<<${c.name}:${i}>>${JSON.stringify(c.arguments)}<end>`).join("")}[[/CALLS]]`);

const tools: ToolSpec[] = [
  { name: "get_weather", description: "", parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } } },
  { name: "get_time", description: "", parameters: { type: "object", properties: { zone: { type: "string" }, exact: { type: "boolean" } } } },
];
const calls = [
  { id: "a", name: "get_weather", arguments: { city: "Paris", days: 3 } },
  { id: "b", name: "get_time", arguments: { zone: "UTC", exact: true } },
];

function derive(render: TemplateRenderer) {
  const derived = deriveFormat(render);
  if (!derived.ok) throw new Error(derived.reason);
  return derived.format;
}

describe("deriveFormat", () => {
  it("reads JSON calls in per-call tags, and the reasoning tags, from a Hermes-like template", () => {
    const format = derive(hermesLike);
    expect(format).toMatchObject({ sectionOpen: "", callOpen: "<tool_call>", callClose: "</tool_call>", call: { kind: "json-object", nameKey: "name", argumentsKey: "arguments" }, reasoning: { open: "<think>", close: "</think>" } });
    expect(describeDerivedFormat(format)[0]).toBe("A call is `<tool_call>` + JSON {name, arguments} + `</tool_call>`.");
  });

  it("reads a name in the call's tag and tagged arguments, with JSON for values that are not strings", () => {
    const format = derive(taggedLike);
    expect(format.callOpen).toBe('<call name="');
    expect(format.call).toMatchObject({ kind: "name-then-tagged", afterName: '">', keyOpen: '<arg name="', keyValue: '">', valueClose: "</arg>", values: "json" });
  });

  it("reads a section around the calls and a call index after the name", () => {
    const format = derive(sectionLike);
    expect(format).toMatchObject({ sectionOpen: "[[CALLS]]", sectionClose: "[[/CALLS]]", callOpen: "<<", callClose: "<end>", call: { kind: "name-then-json", afterName: ">>", nameIndex: ":{index}" } });
  });

  it("reads a call id the template writes after the name as any id, not as the probes' own (Mistral Small 3.2's [CALL_ID])", () => {
    const format = derive(callIdLike);
    expect(format.call).toMatchObject({ kind: "name-then-json", afterName: "[ARGS]", nameIndex: "[CALL_ID]{id}" });
    const protocol = derivedProtocol(format, { name: "template:call-id" });
    const parsed = parseAll(protocol, tools, ['[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"city": "Paris", "days": 3}[TOOL_CALLS]get_time[CALL_ID]000000002[ARGS]{"zone": "UTC"}']);
    expect(parsed.errors).toEqual([]);
    expect(parsed.calls.map((c) => [c.name, c.arguments])).toEqual([
      ["get_weather", { city: "Paris", days: 3 }],
      ["get_time", { zone: "UTC" }],
    ]);
    // Written back (the history, a forced call) in the probes' form, nine letters and digits as Mistral's templates require.
    expect(writeDerivedCalls(format, calls)).toContain("[TOOL_CALLS]get_weather[CALL_ID]call00000[ARGS]");
  });

  for (const [label, render] of [
    ["JSON calls in tags", hermesLike],
    ["tagged arguments", taggedLike],
    ["a section with indexed calls", sectionLike],
    ["a call id after each name", callIdLike],
  ] as const) {
    it(`a protocol derived from ${label} reads what it writes, whole and in chunks of 1–4 characters`, () => {
      const format = derive(render);
      const protocol = derivedProtocol(format, { name: "template:test" });
      const output = `Checking.\n${writeDerivedCalls(format, calls)}`;
      for (const chunks of [[output], chunksOf1To4(output)]) {
        const result = parseAll(protocol, tools, chunks);
        expect(result.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(calls.map(({ name, arguments: a }) => ({ name, arguments: a })));
        expect(result.text.trim()).toBe("Checking.");
        expect(result.errors).toEqual([]);
      }
    });
  }

  it("validates as every protocol does: an unknown tool is a parse error, not a call", () => {
    const protocol = derivedProtocol(derive(hermesLike), { name: "template:test" });
    const result = parseAll(protocol, tools, ['<tool_call>\n{"name": "rm_rf", "arguments": {}}\n</tool_call>']);
    expect(result.calls).toEqual([]);
    expect(result.errors.map((e) => e.kind)).toContain("unknown-tool");
  });

  it("takes its tool section from the template when given the renderer", () => {
    const protocol = derivedProtocol(derive(hermesLike), { name: "template:test", render: hermesLike });
    const section = protocol.systemPrompt(tools);
    expect(section).toContain("# Tools");
    expect(section).toContain('"get_weather"');
  });
});

/**
 * DeepSeek V3.2's way, with Cohere's framing: no reasoning in the history, the generation prompt
 * opens `<think>` with thinking on and writes `</think>` in its place with thinking off, a reply
 * sits between `<|START_TEXT|>` and `<|END_TEXT|>`, a turn ends with `<|END_OF_TURN|>`.
 */
function thinkingSwitchLike(variables: Record<string, unknown>): string {
  const messages = variables.messages as Message[];
  let out = "";
  for (const m of messages) {
    if (m.role !== "assistant") out += `<|${m.role}|>${m.content}<|END_OF_TURN|>`;
    else if (m.tool_calls) out += `<|assistant|></think><|START_ACTION|>${m.tool_calls.map((c) => JSON.stringify({ name: c.function.name, arguments: c.function.arguments })).join(",")}<|END_ACTION|><|END_OF_TURN|>`;
    else out += `<|assistant|></think><|START_TEXT|>${m.content}<|END_TEXT|><|END_OF_TURN|>`;
  }
  if (variables.add_generation_prompt) out += variables.enable_thinking ? "<|assistant|><think>" : "<|assistant|></think>";
  return out;
}

describe("deriveFormat learns the reasoning and the reply's framing from the template's own renders", () => {
  it("reasoning markers from the generation prompt with thinking on and off, where the history writes none", () => {
    const format = derive(thinkingSwitchLike);
    expect(format.reasoning).toEqual({ open: "<think>", close: "</think>", generationPromptOpens: true });
  });

  it("the reply's framing and the turn's end, read as neither text nor calls", () => {
    const format = derive(thinkingSwitchLike);
    expect(format.framing).toEqual(expect.arrayContaining(["<|START_TEXT|>", "<|END_TEXT|>", "<|END_TEXT|><|END_OF_TURN|>"]));
    const protocol = derivedProtocol(format, { name: "template:switch" });
    const output = `<think>Let me see.</think><|START_TEXT|>It is sunny.<|END_TEXT|>`;
    for (const chunks of [[output], chunksOf1To4(output)]) {
      const result = parseAll(protocol, tools, chunks);
      expect(result.text.trim()).toBe("It is sunny.");
      expect(result.reasoning?.trim()).toBe("Let me see.");
      expect(result.errors).toEqual([]);
    }
  });

  it("reasoning markers from a reply whose content holds a reasoning part, where nothing else shows them (Mistral's [THINK])", () => {
    const partsLike: TemplateRenderer = (variables) => {
      const messages = variables.messages as { role: string; content: string | { type: string; thinking?: string; text?: string }[]; tool_calls?: Message["tool_calls"] }[];
      let out = "";
      for (const m of messages) {
        const content = typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "thinking" ? `[THINK]${p.thinking}[/THINK]` : (p.text ?? ""))).join("");
        const calls = (m.tool_calls ?? []).map((c) => `[TOOL_CALLS]${c.function.name}[ARGS]${JSON.stringify(c.function.arguments)}`).join("");
        out += m.role === "user" ? `[INST]${content}[/INST]` : `${content}${calls}</s>`;
      }
      return out;
    };
    expect(derive(partsLike).reasoning).toEqual({ open: "[THINK]", close: "[/THINK]", generationPromptOpens: false });
  });

  it("no reasoning where thinking on opens a block and thinking off writes nothing: its close is not seen", () => {
    const opensOnly: TemplateRenderer = (variables) => {
      const text = hermesLikeNoReasoning(variables);
      return variables.add_generation_prompt && variables.enable_thinking ? `${text}<think>\n` : text;
    };
    expect(derive(opensOnly).reasoning).toBeUndefined();
  });
});

/** Hermes-like without reasoning in the history. */
const hermesLikeNoReasoning: TemplateRenderer = (variables) =>
  hermesLike({ ...variables, messages: (variables.messages as Message[]).map(({ reasoning_content: _dropped, ...m }) => m) });

describe("deriveFormat says why it cannot derive, and guesses nothing", () => {
  const cases: [string, TemplateRenderer, RegExp][] = [
    ["a template that renders nothing", () => "", /renders nothing/],
    [
      "a template that throws for tool calls",
      (v) => {
        if ((v.messages as Message[]).some((m) => m.tool_calls)) throw new Error("tool calls are not supported");
        return hermesLike(v);
      },
      /throws for a tool call: tool calls are not supported/,
    ],
    ["a template without tool calls", chatTemplate(() => ""), /writes nothing for a tool call/],
    [
      "a template that loops (its renderer stops it)",
      () => {
        throw new Error("The chat template ran past its time budget of 150 ms");
      },
      /does not render a plain conversation: .*time budget/,
    ],
    ["a template whose calls have no marker and no JSON", chatTemplate((cs) => cs.map((c) => ` ${c.name} ${Object.values(c.arguments).join(" ")}`).join("")), /cannot derive: /],
  ];
  for (const [label, render, reason] of cases) {
    it(label, () => {
      const derived = deriveFormat(render);
      expect(derived.ok).toBe(false);
      if (!derived.ok) {
        expect(derived.reason).toMatch(/^cannot derive: /);
        expect(derived.reason).toMatch(reason);
      }
    });
  }
});
