// An MCP server's sampling request (`sampling/createMessage`), once the person approved it, run
// as a nested run under the tool call the server is serving — as deep_research's sub-agent runs:
// the calling run's engine, protocol and template, no tools, one generation; every event goes to
// the calling run (which stamps it with the step and call), so the debugger shows the nested
// run's prompt, raw output and parse steps under that call.
import type { CreateMessageRequest, CreateMessageResult } from "@modelcontextprotocol/sdk/types.js";
import type { ChatMessage, ToolContext } from "toolcall-middleware/types.ts";

/** A request larger than this (all its text) is refused: it would not fit a small model's context anyway. */
export const MAX_SAMPLING_CHARS = 50_000;
/** Tokens a sampling request may ask for, at most (the server's maxTokens is kept when smaller). */
export const MAX_SAMPLING_TOKENS = 2_048;

export class SamplingRefused extends Error {
  override name = "SamplingRefused";
}

/** The text of a sampling message's content (a block or, since 2025-11-25, a list of blocks). */
export function samplingText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block: { type?: string; text?: string }) => (block?.type === "text" && typeof block.text === "string" ? block.text : `[${block?.type ?? "unknown"} content: not given to the model]`))
    .join("\n");
}

export function samplingSize(params: CreateMessageRequest["params"]): number {
  return params.messages.reduce((sum, message) => sum + samplingText(message.content).length, params.systemPrompt?.length ?? 0);
}

export async function runSampling(params: CreateMessageRequest["params"], context: ToolContext, signal: AbortSignal): Promise<CreateMessageResult> {
  const size = samplingSize(params);
  if (size > MAX_SAMPLING_CHARS) throw new SamplingRefused(`The sampling request is ${size.toLocaleString("en-US")} characters; the lab runs at most ${MAX_SAMPLING_CHARS.toLocaleString("en-US")}.`);
  const { runToolLoop } = await import("toolcall-middleware/loop/run-tool-loop.ts");
  const { getProtocol } = await import("toolcall-middleware/protocols/registry.ts");
  const { promptEscaper } = await import("toolcall-middleware/protocols/escape-tool-definitions.ts");
  const protocol = getProtocol(context.run.protocol);
  if (!protocol) throw new SamplingRefused(`the calling run's protocol "${context.run.protocol}" is not registered`);
  // The server's text is escaped like a tool result: it cannot write a control token into the prompt.
  const escape = promptEscaper(context.run.template.controlTokens, protocol);
  const messages: ChatMessage[] = params.messages.map((message) =>
    message.role === "assistant" ? { role: "assistant", content: escape(samplingText(message.content)) } : { role: "user", content: escape(samplingText(message.content)) },
  );
  if (messages.at(-1)?.role !== "user") messages.push({ role: "user", content: "Continue." });
  const both = new AbortController();
  const stop = () => both.abort();
  if (signal.aborted || context.signal.aborted) stop();
  signal.addEventListener("abort", stop, { once: true });
  context.signal.addEventListener("abort", stop, { once: true });
  try {
    const generator = runToolLoop({
      engine: context.run.engine,
      protocol,
      template: context.run.template,
      generation: {
        ...context.run.generation,
        maxTokens: Math.min(params.maxTokens, MAX_SAMPLING_TOKENS, context.run.generation.maxTokens ?? MAX_SAMPLING_TOKENS),
        ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
        ...(params.stopSequences?.length ? { stop: params.stopSequences.slice(0, 8) } : {}),
      },
      tools: [],
      messages,
      ...(params.systemPrompt ? { systemPrompt: escape(params.systemPrompt) } : {}),
      maxSteps: 1,
      signal: both.signal,
      depth: context.run.depth + 1,
      idPrefix: "sampling",
    });
    let next = await generator.next();
    while (!next.done) {
      context.emit(next.value);
      next = await generator.next();
    }
    const result = next.value;
    if (result.status === "aborted") throw new SamplingRefused("the sampling run was stopped");
    if (result.status !== "final") throw new SamplingRefused(`the sampling run ended with status "${result.status}"`);
    return { role: "assistant", content: { type: "text", text: result.finalText }, model: context.run.engine.name, stopReason: "endTurn" };
  } finally {
    signal.removeEventListener("abort", stop);
    context.signal.removeEventListener("abort", stop);
  }
}
