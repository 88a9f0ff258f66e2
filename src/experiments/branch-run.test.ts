import { describe, expect, it } from "vitest";
import { loopEventSchema } from "toolcall-middleware/event-log-schema.ts";
import { renderPrompt } from "toolcall-middleware/loop/render-conversation.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { drive } from "toolcall-middleware/loop/test-support/drive.ts";
import { ScriptedEngine } from "toolcall-middleware/loop/test-support/scripted-engine.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { chatmlTemplate } from "toolcall-middleware/templates/chatml.ts";
import type { Engine, ExecutableTool, LoopEvent } from "toolcall-middleware/types.ts";
import { deriveChat } from "../store/derive-chat.ts";
import { countGenerations, deriveHistory } from "../store/derive-history.ts";
import { transcriptFromEvents } from "../store/conversation-export.ts";
import { StepFolder } from "../ui/debugger/build-steps.ts";
import { stepLabel } from "../ui/debugger/format.ts";
import { continueBranch, discardBranchEvent, GIVEN_OUTPUT_PIECE_CHARS, givenOutputEngine, runBranch, type BranchRequest } from "./branch-run.ts";

const hermes = getProtocol("hermes")!;
const add: ExecutableTool = {
  name: "add",
  description: "Adds",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: async (args) => Number(args.a) + Number(args.b),
};
const call = (a: number, b: number) => `<tool_call>\n{"name": "add", "arguments": {"a": ${a}, "b": ${b}}}\n</tool_call>`;

async function originalRun(): Promise<LoopEvent[]> {
  const engine = new ScriptedEngine([call(1, 2), "It is 3."]);
  const { events } = await drive(runToolLoop({ engine, protocol: hermes, tools: [add], messages: [{ role: "user", content: "1+2?" }], systemPrompt: "Be brief." }));
  return events;
}

function requestFor(events: LoopEvent[], systemPrompt: string): BranchRequest {
  const start = events.find((e): e is Extract<LoopEvent, { type: "step-start" }> => e.type === "step-start")!;
  const rendered = renderPrompt({ systemPrompt, tools: [add], protocol: hermes, messages: start.messages, template: chatmlTemplate });
  return {
    origin: { runId: start.runId, stepId: start.stepId },
    protocol: hermes,
    tools: [{ name: add.name, description: add.description, parameters: add.parameters }],
    messages: start.messages,
    prompt: rendered.prompt,
    templateMessages: rendered.templateMessages,
    template: chatmlTemplate,
    settings: start.settings,
    changes: ["system prompt"],
    toolTimeoutMs: 1000,
  };
}

describe("a branch (edit and re-run)", () => {
  it("records the edited prompt and its parsed output beside the original, which it leaves as it was", async () => {
    const original = await originalRun();
    const request = requestFor(original, "Be very brief.");
    const { events: branchEvents, result } = await drive(runBranch(request, { output: call(2, 2) }, new AbortController().signal));
    for (const event of branchEvents) expect(loopEventSchema.safeParse(event).success).toBe(true);
    const start = branchEvents[0]!;
    expect(start).toMatchObject({ type: "run-start", branch: { runId: request.origin.runId, stepId: request.origin.stepId, changes: ["system prompt"] } });
    const stepStart = branchEvents.find((e) => e.type === "step-start")!;
    expect(stepStart.type === "step-start" && stepStart.prompt).toContain("Be very brief.");
    expect(result.output.calls).toEqual([expect.objectContaining({ name: "add", arguments: { a: 2, b: 2 } })]);
    expect(result.status).toBe("tool-calls");
    expect(result.parseEvents.filter((e) => e.type === "tool-call-end")).toHaveLength(1);

    const log = [...original, ...branchEvents];
    // The conversation (chat, next turn's history, replay position) is the original's.
    expect(deriveHistory(log)).toEqual(deriveHistory(original));
    expect(deriveChat(log)).toEqual(deriveChat(original));
    expect(countGenerations(log)).toBe(countGenerations(original));
    // The timeline shows the branch under the step it re-runs.
    const model = new StepFolder().update(log);
    expect(model.order).toHaveLength(3);
    const branchStep = model.steps.get(model.order[1]!)!;
    expect(branchStep.branch).toEqual({ fromKey: model.order[0], changes: ["system prompt"], fromIndex: 1 });
    expect(branchStep.depth).toBe(1);
    expect(stepLabel(branchStep)).toBe("Branch of step 1");
  });

  it("continues: the branch's calls run, the loop goes on in a run that names the branch, and the branch ends", async () => {
    const original = await originalRun();
    const request = requestFor(original, "Be very brief.");
    const { events: branchEvents, result } = await drive(runBranch(request, { output: call(2, 2) }, new AbortController().signal));
    const engine: Engine = new ScriptedEngine(["It is 4."]);
    const { events: more, result: status } = await drive(
      continueBranch({ branch: { ...result, protocol: hermes, messages: request.messages, toolTimeoutMs: 1000, systemPrompt: "Be very brief.", toolSpecs: [{ ...request.tools[0]!, description: "Adds two numbers" }] }, tools: [add], engine, template: chatmlTemplate, generation: {}, maxSteps: 3, signal: new AbortController().signal }),
    );
    for (const event of more) expect(loopEventSchema.safeParse(event).success).toBe(true);
    expect(status).toBe("final");
    expect(more.find((e) => e.type === "tool-end")).toMatchObject({ runId: result.runId, stepId: result.stepId, status: "ok", content: "4" });
    expect(more.find((e) => e.type === "run-start")).toMatchObject({ branch: { runId: result.runId, stepId: result.stepId, continues: true } });
    expect(more.at(-1)).toMatchObject({ type: "run-end", runId: result.runId, status: "final" });
    // The continuation keeps the branch's edits: its system prompt and its tool descriptions.
    const next = more.find((e) => e.type === "step-start");
    expect(next?.type === "step-start" && next.prompt).toContain("Be very brief.");
    expect(next?.type === "step-start" && next.prompt).toContain("Adds two numbers");

    const log = [...original, ...branchEvents, ...more];
    expect(deriveHistory(log)).toEqual(deriveHistory(original));
    // A replay transcript made from the log plays the conversation, not its branches.
    expect(transcriptFromEvents(log, "t").turns).toEqual(transcriptFromEvents(original, "t").turns);
    const model = new StepFolder().update(log);
    const labels = model.order.map((key) => stepLabel(model.steps.get(key)!));
    // The continuation goes on beside the branch's step, not nested under it as a branch of a branch.
    expect(labels).toEqual(["Turn 1 · step 1", "Branch of step 1", "Branch of step 1 · step 2", "Turn 1 · step 2"]);
    expect(model.order.map((key) => model.steps.get(key)!.depth)).toEqual([0, 1, 1, 0]);
    const branchStep = model.steps.get(model.order[1]!)!;
    expect(branchStep.toolExecutions[0]).toMatchObject({ name: "add", status: "ok" });
  });

  it("refuses an edited prompt larger than the context window before sending, with the counts", async () => {
    const original = await originalRun();
    const request = requestFor(original, "Be brief. ".repeat(50));
    const engine = new ScriptedEngine([]);
    const small: Engine = { name: "small", contextWindowSize: 100, countPromptTokens: async (prompt) => prompt.length, generate: engine.generate.bind(engine) };
    const { result } = await drive(runBranch(request, { engine: small }, new AbortController().signal));
    expect(engine.requests).toHaveLength(0);
    expect(result.refused).toMatch(/^Not sent: the prompt \(1,\d{3} tokens\) .*100/);
  });

  it("a discarded branch stays in the log but leaves the timeline", async () => {
    const original = await originalRun();
    const { events: branchEvents, result } = await drive(runBranch(requestFor(original, "x"), { output: "No." }, new AbortController().signal));
    const discard = discardBranchEvent(result.runId, []);
    expect(loopEventSchema.safeParse(discard).success).toBe(true);
    const model = new StepFolder().update([...original, ...branchEvents, discard]);
    expect(model.order).toHaveLength(2);
  });

  it("hands a given (replay) output to the parser in pieces, with a turn for the page between them", async () => {
    // A 1 MB output went to the parser in one piece: one task of 1.8 s on the page.
    const text = `${"😀".repeat(20_000)}${"x".repeat(1_000_000)}`;
    const pieces: string[] = [];
    let pageHadATurn = true;
    const turns: boolean[] = [];
    for await (const chunk of givenOutputEngine(text).generate("", {}, new AbortController().signal)) {
      if (chunk.type !== "text") continue;
      turns.push(pageHadATurn);
      pageHadATurn = false;
      setTimeout(() => (pageHadATurn = true), 0);
      pieces.push(chunk.text);
    }
    expect(pieces.join("")).toBe(text);
    expect(pieces.length).toBeGreaterThan(60);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(GIVEN_OUTPUT_PIECE_CHARS);
    expect(turns.every(Boolean)).toBe(true);
    for (const piece of pieces) expect(/[\uD800-\uDBFF]$/.test(piece)).toBe(false);
  });
});
