// deep_research: a sub-agent. It runs its own tool loop on the calling run's engine, protocol
// and template, with its own system prompt, the other tools and a step budget, and returns its
// final answer as the deliverable. Every event of the sub-run is forwarded to the calling run
// (ctx.emit), which stamps it with the calling step and call, so the debugger nests it there.
import { z } from "zod";
import type { RunToolLoopOptions, LoopResult } from "toolcall-middleware/loop/run-tool-loop.ts";
import { defineTool } from "toolcall-middleware/tools/define-tool.ts";
import type { LoopEvent, Protocol, ToolContext } from "toolcall-middleware/types.ts";
import { DELIVERABLE_FORMATS, DELIVERABLE_INSTRUCTIONS, DeliverableError, parseJsonOutline, type DeliverableFormat } from "./deliverable.ts";

export const DEEP_RESEARCH_NAME = "deep_research";
export const DEEP_RESEARCH_SAFE_ERROR = "deep_research failed. Please retry later.";
export const DEFAULT_RESEARCH_SYSTEM_PROMPT =
  "You are a careful researcher. Break the question down, use the tools to check facts, and answer in the user's language.";
export const DEFAULT_RESEARCH_TIMEOUT_MS = 120_000;
export const DEFAULT_RESEARCH_MAX_STEPS = 6;

export interface DeepResearchSettings {
  /** Persona, language and format of the sub-agent; used only while deep_research runs. */
  systemPrompt?: string;
  /** The format when the model does not pass deliverable_format (its argument wins). */
  fallbackFormat?: DeliverableFormat;
  /** The whole research run's limit, separate from the ordinary tool timeout. */
  timeoutMs?: number;
  /** Model generations the sub-agent may use. */
  maxSteps?: number;
}

export interface DeepResearchDependencies {
  runToolLoop?: (options: RunToolLoopOptions) => AsyncGenerator<LoopEvent, LoopResult>;
  getProtocol?: (name: string) => Protocol | undefined;
}

export class DeepResearchError extends Error {
  override name = "DeepResearchError";
}

export const deepResearchParameters = z.object({
  query: z.string().trim().min(1, "the query may not be empty").describe("The question to research"),
  deliverable_format: z
    .enum(DELIVERABLE_FORMATS as [DeliverableFormat, ...DeliverableFormat[]])
    .optional()
    .describe("markdown_brief (short), markdown_report (sections) or json_outline (a JSON object)"),
});

export function researchSystemPrompt(settings: DeepResearchSettings, format: DeliverableFormat): string {
  const persona = settings.systemPrompt?.trim() || DEFAULT_RESEARCH_SYSTEM_PROMPT;
  return `${persona}\n\n${DELIVERABLE_INSTRUCTIONS[format]}\nYour final message (the one without tool calls) is the deliverable; nothing else is passed on.`;
}

function failure(result: LoopResult, events: LoopEvent[], maxSteps: number): DeepResearchError {
  const runEnd = events.findLast((event): event is Extract<LoopEvent, { type: "run-end" }> => event.type === "run-end");
  switch (result.status) {
    case "max-steps":
      return new DeepResearchError(`the research sub-agent used all ${maxSteps} of its steps without a final answer`);
    case "engine-error":
      return new DeepResearchError(`the research sub-agent's engine failed: ${runEnd?.error ?? "unknown error"}`);
    default:
      return new DeepResearchError(`the research sub-agent ended with status "${result.status}"`);
  }
}

export function createDeepResearchTool(settings: DeepResearchSettings = {}, dependencies: DeepResearchDependencies = {}) {
  const maxSteps = settings.maxSteps ?? DEFAULT_RESEARCH_MAX_STEPS;

  const execute = async (
    { query, deliverable_format }: { query: string; deliverable_format?: DeliverableFormat | undefined },
    context: ToolContext,
  ) => {
    const format = deliverable_format ?? settings.fallbackFormat ?? "markdown_brief";
    // The loop and the protocols load when the tool first runs, not with the page's tool list.
    const runToolLoop = dependencies.runToolLoop ?? (await import("toolcall-middleware/loop/run-tool-loop.ts")).runToolLoop;
    const getProtocol = dependencies.getProtocol ?? (await import("toolcall-middleware/protocols/registry.ts")).getProtocol;
    const { promptEscaper } = await import("toolcall-middleware/protocols/escape-tool-definitions.ts");
    const protocol = getProtocol(context.run.protocol);
    if (!protocol) throw new DeepResearchError(`the calling run's protocol "${context.run.protocol}" is not registered`);
    const generator = runToolLoop({
      engine: context.run.engine,
      protocol,
      template: context.run.template,
      generation: context.run.generation,
      // The sub-agent may not start research of its own: no unbounded recursion.
      tools: context.run.tools.filter((tool) => tool.name !== DEEP_RESEARCH_NAME),
      // The query is the model's own text, made the sub-agent's user turn: escaped like a tool
      // result, so that it cannot write a control token or a marker into that prompt.
      messages: [{ role: "user", content: `${promptEscaper(context.run.template.controlTokens, protocol)(query)}\n\n(Deliverable format: ${format})` }],
      systemPrompt: researchSystemPrompt(settings, format),
      maxSteps,
      signal: context.signal,
      depth: context.run.depth + 1,
      idPrefix: "research",
      // No `parent` here: the calling loop stamps every forwarded event that has none with
      // {runId, stepId, callId} of this call — it alone knows its own run id.
    });
    const events: LoopEvent[] = [];
    let next = await generator.next();
    while (!next.done) {
      events.push(next.value);
      context.emit(next.value);
      next = await generator.next();
    }
    const result = next.value;
    if (result.status === "aborted") {
      context.signal.throwIfAborted();
      throw new DeepResearchError("the research sub-agent was stopped");
    }
    if (result.status !== "final") throw failure(result, events, maxSteps);
    const deliverable = result.finalText.trim();
    if (!deliverable) throw new DeepResearchError("the research sub-agent gave an empty answer");
    if (format !== "json_outline") return deliverable;
    try {
      return parseJsonOutline(deliverable);
    } catch (error) {
      if (error instanceof DeliverableError) throw new DeepResearchError(error.message);
      throw error;
    }
  };

  return defineTool({
    name: DEEP_RESEARCH_NAME,
    description:
      "Research a question in depth with a sub-agent that can use the other tools over several steps, and get back a deliverable: " +
      "markdown_brief (short), markdown_report (with sections) or json_outline (a JSON object). Slower than the other tools; use it for questions that need several look-ups or calculations.",
    parameters: deepResearchParameters,
    timeoutMs: settings.timeoutMs ?? DEFAULT_RESEARCH_TIMEOUT_MS,
    safeErrorMessage: DEEP_RESEARCH_SAFE_ERROR,
    execute,
  });
}
