// The loop with an engine that does tool calling itself (native mode): it gets the conversation
// and tools instead of a prompt, its structured calls are checked like parsed ones and run, and
// the step records the request body it was sent.
import { describe, expect, it } from "vitest";
import { getProtocol } from "../protocols/registry.ts";
import { drive } from "../loop/test-support/drive.ts";
import { runToolLoop } from "../loop/run-tool-loop.ts";
import type { ChatMessage, Engine, EngineChunk, ExecutableTool, LoopEvent, NativeChatInput } from "../types.ts";
import { loopEventSchema } from "../event-log-schema.ts";
import { boundRecordedServerPrompt, boundServerPrompt, requestMessageTexts, requestToolNames, SERVER_PROMPT_CHARS, toolsLeftOut } from "./server-prompt.ts";

type Reply = EngineChunk[];

/** Plays one scripted reply per request and keeps what the loop asked for. */
function engineWith(replies: Reply[]): Engine & { inputs: NativeChatInput[] } {
  const inputs: NativeChatInput[] = [];
  let turn = 0;
  return {
    name: "native-scripted",
    inputs,
    generate: () => {
      throw new Error("a native engine is never given a prompt");
    },
    native: {
      request: (input) => {
        inputs.push(structuredClone(input));
        return { model: "m", messages: input.messages.length, tools: input.tools.map((t) => t.name) };
      },
      generate: async function* () {
        const reply = replies[turn++];
        if (!reply) throw new Error("no reply scripted");
        for (const chunk of reply) {
          await Promise.resolve();
          yield chunk;
        }
      },
    },
  };
}

const add: ExecutableTool = {
  name: "add",
  description: "Adds",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: async (args) => (args.a as number) + (args.b as number),
};
const user = (content: string): ChatMessage => ({ role: "user", content });
const delta = (index: number, argumentsDelta: string, name?: string): EngineChunk => ({ type: "tool-call-delta", index, argumentsDelta, ...(name ? { name } : {}) });

async function run(replies: Reply[]) {
  const engine = engineWith(replies);
  const { events, result } = await drive(runToolLoop({ engine, protocol: getProtocol("hermes")!, tools: [add], messages: [user("2+3?")], runId: "r" }));
  return { engine, events, result };
}
const ofType = <T extends LoopEvent["type"]>(events: LoopEvent[], type: T) => events.filter((e): e is Extract<LoopEvent, { type: T }> => e.type === type);

describe("native tool calling in the loop", () => {
  it("runs the server's streamed call, feeds the result back and records the request body", async () => {
    const { engine, events, result } = await run([
      [delta(0, "", "add"), delta(0, '{"a": 2,'), delta(0, ' "b": "3"}'), { type: "usage", usage: { finishReason: "tool_calls" } }],
      [{ type: "reasoning", text: "The sum is 5." }, { type: "text", text: "It is " }, { type: "text", text: "5." }],
    ]);
    expect(result.status).toBe("final");
    expect(result.messages.at(-1)).toMatchObject({ role: "assistant", content: "It is 5.", reasoning: "The sum is 5." });
    expect(result.finalText).toBe("It is 5.");
    const starts = ofType(events, "step-start");
    expect(starts.map((s) => [s.protocol, s.prompt, s.request])).toEqual([
      ["native", "", { model: "m", messages: 1, tools: ["add"] }],
      ["native", "", { model: "m", messages: 3, tools: ["add"] }],
    ]);
    expect(ofType(events, "run-start")[0]!.protocol).toBe("native");
    // The string "3" was coerced to the schema's number, and said so.
    expect(ofType(events, "parse").some((p) => p.event.type === "repair")).toBe(true);
    expect(ofType(events, "tool-end")[0]).toMatchObject({ name: "add", status: "ok", result: 5 });
    // The second request carries the call and its result as structured messages.
    const second = engine.inputs[1]!.messages;
    expect(second[1]).toMatchObject({ role: "assistant", toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] });
    expect(second[2]).toMatchObject({ role: "tool", name: "add", content: "5" });
  });

  it("treats a server's call to an unknown tool or with broken arguments as a parse error sent back to the model", async () => {
    const { events } = await run([
      [delta(0, '{"x": 1}', "subtract"), delta(1, '{"a": [', "add")],
      [{ type: "text", text: "Sorry." }],
    ]);
    const errors = ofType(events, "parse").map((p) => p.event).filter((e) => e.type === "parse-error");
    expect(errors.map((e) => e.type === "parse-error" && e.kind)).toEqual(["unknown-tool", "invalid-arguments"]);
    expect(ofType(events, "step-end")[0]!.status).toBe("parse-error");
    expect(ofType(events, "tool-start")).toHaveLength(0);
  });
});

describe("the prompt a server says it rendered (native mode)", () => {
  const once: Reply[] = [[{ type: "text", text: "5." }]];
  async function firstStepStart(renderPrompt: NonNullable<Engine["native"]>["renderPrompt"]) {
    const engine = engineWith(once);
    const asked: Array<Record<string, unknown>> = [];
    engine.native!.renderPrompt = async (request, signal) => {
      asked.push(request);
      return renderPrompt!(request, signal);
    };
    const { events } = await drive(runToolLoop({ engine, protocol: getProtocol("hermes")!, tools: [add], messages: [user("2+3?")], runId: "r" }));
    const start = ofType(events, "step-start")[0]!;
    return { start, asked };
  }

  it("records the server's rendering of the very request sent", async () => {
    const { start, asked } = await firstStepStart(async () => "<|im_start|>user\n2+3?<|im_end|>");
    expect(asked).toEqual([start.request]);
    expect(start.serverPrompt).toEqual({ text: "<|im_start|>user\n2+3?<|im_end|>" });
  });

  it("records why the server could not say, and the step still runs", async () => {
    const { start } = await firstStepStart(async () => {
      throw new Error("http://127.0.0.1:1/apply-template answered HTTP 404");
    });
    expect(start.serverPrompt).toEqual({ error: "http://127.0.0.1:1/apply-template answered HTTP 404" });
  });

  it("keeps at most SERVER_PROMPT_CHARS of a server's rendering and records how much was left out", async () => {
    const flood = "\u202e".repeat(SERVER_PROMPT_CHARS + 12_345);
    const { start } = await firstStepStart(async () => flood);
    expect(start.serverPrompt).toEqual({ text: flood.slice(0, SERVER_PROMPT_CHARS), cutChars: 12_345 });
    expect(loopEventSchema.safeParse(start).success).toBe(true);
  });

  it("never cuts a recorded server prompt inside a surrogate pair, and adds a second cut to the first", () => {
    expect(boundServerPrompt("ab\u{1F600}", 3)).toEqual({ text: "ab", cutChars: 2 });
    expect(boundServerPrompt("abc", 3)).toEqual({ text: "abc" });
    expect(boundRecordedServerPrompt({ text: "abcdef", cutChars: 4 }, 2)).toEqual({ text: "ab", cutChars: 8 });
    expect(boundRecordedServerPrompt({ error: "x" }, 2)).toEqual({ error: "x" });
  });

  it("records nothing where the engine cannot say", async () => {
    const { events } = await drive(runToolLoop({ engine: engineWith(once), protocol: getProtocol("hermes")!, tools: [add], messages: [user("2+3?")], runId: "r" }));
    expect(ofType(events, "step-start")[0]!.serverPrompt).toBeUndefined();
  });

  it("names the tools a rendered prompt left out", () => {
    const request = { tools: [{ type: "function", function: { name: "add" } }, { type: "function", function: { name: "get_weather" } }, { type: "function" }] };
    expect(requestToolNames(request)).toEqual(["add", "get_weather"]);
    expect(requestToolNames({})).toEqual([]);
    expect(toolsLeftOut("You may call add(a, b).", ["add", "get_weather"])).toEqual(["get_weather"]);
    expect(toolsLeftOut("<|im_start|>user\nWeather?<|im_end|>", ["add", "get_weather"])).toEqual(["add", "get_weather"]);
    // A tool named in the user's own words is not in the prompt for that.
    const asked = { messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Use the calculator: 2+3?" }, { role: "user", content: [{ type: "text", text: "and add" }] }] };
    expect(requestMessageTexts(asked)).toEqual(["Be brief.", "Use the calculator: 2+3?", "and add"]);
    expect(toolsLeftOut("<|im_start|>user\nUse the calculator: 2+3?<|im_end|>and add", ["calculator", "add"], requestMessageTexts(asked))).toEqual(["calculator", "add"]);
    expect(toolsLeftOut("Tools: calculator(expression)\nUse the calculator: 2+3?", ["calculator"], requestMessageTexts(asked))).toEqual([]);
  });
});
