import { describe, expect, it } from "vitest";
import { buildSteps, latestStep, previousStepInRun, resolveSelectedStep, selectionIdFor, StepFolder, stepKey } from "./build-steps.ts";
import { longSession, RunLogBuilder, toolCallStepEvents } from "./event-fixtures.ts";

describe("buildSteps", () => {
  it("folds a step: prompt, raw output, parse events, usage, status, duration and its tool execution", () => {
    const run = new RunLogBuilder("r1").runStart();
    const callId = toolCallStepEvents(run, "a", 0, "PROMPT");
    const model = buildSteps(run.events);
    const step = model.steps.get(stepKey("r1", "a"));
    expect(step).toBeDefined();
    expect(step?.prompt).toBe("PROMPT");
    expect(step?.rawOutput).toBe(
      'Let me check.\n<tool_call>\n{"name": "calculator", "arguments": {"expression": "2+2"}}\n</tool_call>',
    );
    expect(step?.parseEvents.map((p) => [p.index, p.event.type])).toEqual([
      [0, "text"],
      [1, "tool-call-start"],
      [2, "tool-call-end"],
    ]);
    expect(step?.usage).toEqual({ promptTokens: 120, completionTokens: 30 });
    expect(step?.status).toBe("tool-calls");
    expect(step?.durationMs).toBe(10);
    expect(step?.toolExecutions).toEqual([
      expect.objectContaining({ callId, name: "calculator", arguments: { expression: "2+2" }, status: "ok", content: "4", durationMs: 5 }),
    ]);
  });

  it("keeps what a tool exchanged with the outside (an MCP call's JSON-RPC) on its execution", () => {
    const run = new RunLogBuilder("r1").runStart();
    const callId = toolCallStepEvents(run, "a", 0, "PROMPT");
    const trace = [
      { direction: "sent" as const, at: 1, message: { jsonrpc: "2.0", id: 0, method: "tools/call" }, label: "POST http://127.0.0.1/mcp" },
      { direction: "received" as const, at: 2, message: { jsonrpc: "2.0", id: 0, result: { content: [] } } },
    ];
    const end = run.events.findLast((event) => event.type === "tool-end");
    if (end?.type === "tool-end") end.trace = trace;
    const [execution] = buildSteps(run.events).steps.get(stepKey("r1", "a"))?.toolExecutions ?? [];
    expect(execution).toMatchObject({ callId, trace });
  });

  it("marks a step without a step-end as running, and as aborted when its run was aborted", () => {
    const run = new RunLogBuilder("r1").runStart().stepStart("a", 0, "P").output("a", "partial", 0);
    expect(buildSteps(run.events).steps.get(stepKey("r1", "a"))?.status).toBe("running");
    run.runEnd("aborted");
    expect(buildSteps(run.events).steps.get(stepKey("r1", "a"))?.status).toBe("aborted");
  });

  it("places output deltas by their offsets", () => {
    const run = new RunLogBuilder("r1").runStart().stepStart("a", 0, "P").output("a", "abc", 0).output("a", "XY", 1);
    expect(buildSteps(run.events).steps.get(stepKey("r1", "a"))?.rawOutput).toBe("aXY");
  });

  it("never sizes the raw output from a recorded offset: a delta past the end is placed at the end, not padded", () => {
    // An offset of 6e8 asked for 600 million spaces ("Invalid string length"), 2e8 for 200 MB.
    for (const offset of [6e8, 2 ** 53, 2e8, -5, 1.5]) {
      const run = new RunLogBuilder("r1").runStart().stepStart("a", 0, "P").output("a", "abc", 0).output("a", "XY", offset);
      expect(buildSteps(run.events).steps.get(stepKey("r1", "a"))?.rawOutput).toBe("abcXY");
    }
  });

  it("nests a sub-agent's steps under the step and call they ran under, in timeline order", () => {
    const main = new RunLogBuilder("main").runStart();
    main.stepStart("m0", 0, "P0").toolStart("m0", { id: "c1", name: "deep_research", arguments: { query: "q" } });
    const sub = new RunLogBuilder("sub", { runId: "main", stepId: "m0", callId: "c1" }).runStart();
    toolCallStepEvents(sub, "s0", 0, "SP0");
    sub.stepStart("s1", 1, "SP1").stepEnd("s1", "final").runEnd();
    main.forward(sub.events).toolEnd("m0", "c1", "deep_research", "ok", "answer").stepEnd("m0", "tool-calls");
    main.stepStart("m1", 1, "P1").stepEnd("m1", "final").runEnd();

    const model = buildSteps(main.events);
    expect(model.order).toEqual([stepKey("main", "m0"), stepKey("sub", "s0"), stepKey("sub", "s1"), stepKey("main", "m1")]);
    expect(model.order.map((k) => model.steps.get(k)?.depth)).toEqual([0, 1, 1, 0]);
    expect(model.order.map((k) => model.steps.get(k)?.turn)).toEqual([1, 1, 1, 1]);
    const parent = model.steps.get(stepKey("main", "m0"));
    expect(parent?.childStepKeys).toEqual([stepKey("sub", "s0"), stepKey("sub", "s1")]);
    expect(parent?.toolExecutions[0]?.childStepKeys).toEqual([stepKey("sub", "s0"), stepKey("sub", "s1")]);
    expect(model.steps.get(stepKey("sub", "s0"))?.parent).toEqual({ runId: "main", stepId: "m0", callId: "c1" });
  });

  it("reads only new events when the log grows, and keeps unchanged steps' objects", () => {
    const run = new RunLogBuilder("r1").runStart();
    toolCallStepEvents(run, "a", 0, "PA");
    run.stepStart("b", 1, "PB").output("b", "hel", 0);
    const folder = new StepFolder();
    const first = folder.update([...run.events]);
    const a1 = first.steps.get(stepKey("r1", "a"));
    const b1 = first.steps.get(stepKey("r1", "b"));
    run.output("b", "lo", 3);
    const second = folder.update([...run.events]);
    expect(second.steps.get(stepKey("r1", "a"))).toBe(a1);
    expect(second.steps.get(stepKey("r1", "b"))).not.toBe(b1);
    expect(second.steps.get(stepKey("r1", "b"))?.rawOutput).toBe("hello");
    expect(b1?.rawOutput).toBe("hel");
  });

  it("rebuilds when given a different log", () => {
    const folder = new StepFolder();
    const one = new RunLogBuilder("r1").runStart().stepStart("a", 0, "P").events;
    const two = new RunLogBuilder("r2").runStart().stepStart("x", 0, "Q").events;
    folder.update(one);
    const model = folder.update(two);
    expect([...model.steps.keys()]).toEqual([stepKey("r2", "x")]);
    expect(model.order).toEqual([stepKey("r2", "x")]);
  });

  it("gives the same model folded incrementally, event by event, as in one go", () => {
    const events = longSession(5);
    const folder = new StepFolder();
    let incremental = folder.update([]);
    for (let i = 1; i <= events.length; i++) incremental = folder.update(events.slice(0, i));
    const whole = buildSteps(events);
    expect(incremental.order).toEqual(whole.order);
    for (const key of whole.order) expect(incremental.steps.get(key)).toEqual(whole.steps.get(key));
  });
});

describe("step selection", () => {
  const main = new RunLogBuilder("main").runStart();
  toolCallStepEvents(main, "a", 0, "PA");
  toolCallStepEvents(main, "b", 1, "PA+B");
  const model = buildSteps(main.events);

  it("follows the latest step when nothing is selected, and finds a step by id or key", () => {
    expect(resolveSelectedStep(model, null)?.id).toBe("b");
    expect(latestStep(model)?.id).toBe("b");
    expect(resolveSelectedStep(model, "a")?.id).toBe("a");
    expect(resolveSelectedStep(model, stepKey("main", "a"))?.id).toBe("a");
    expect(resolveSelectedStep(model, "gone")?.id).toBe("b");
  });

  it("finds the previous step of the same run", () => {
    const b = model.steps.get(stepKey("main", "b"));
    expect(b && previousStepInRun(model, b)?.id).toBe("a");
    const a = model.steps.get(stepKey("main", "a"));
    expect(a && previousStepInRun(model, a)).toBeUndefined();
  });

  it("takes the previous turn's last step as the predecessor of a turn's first step", () => {
    const next = new RunLogBuilder("next", undefined, 1_900_000_000_000).runStart();
    toolCallStepEvents(next, "n0", 0, "PA+B+C");
    const both = buildSteps([...main.events, ...next.events]);
    const n0 = both.steps.get(stepKey("next", "n0"));
    expect(n0 && previousStepInRun(both, n0)?.id).toBe("b");
  });

  it("selects by the loop's step id unless two runs share it", () => {
    const a = model.steps.get(stepKey("main", "a"));
    expect(a && selectionIdFor(model, a)).toBe("a");
    const second = new RunLogBuilder("other", undefined, 1_800_000_000_000).runStart();
    toolCallStepEvents(second, "a", 0, "Q");
    const both = buildSteps([...main.events, ...second.events]);
    expect(both.order.map((k) => both.steps.get(k)?.turn)).toEqual([1, 1, 2]);
    const firstA = both.steps.get(stepKey("main", "a"));
    expect(firstA && selectionIdFor(both, firstA)).toBe(stepKey("main", "a"));
    expect(resolveSelectedStep(both, stepKey("main", "a"))?.runId).toBe("main");
  });
});

describe("a long session", () => {
  it("folds 1,000 steps into 1,000 timeline rows, one turn per two steps", () => {
    const model = buildSteps(longSession(1000));
    expect(model.order).toHaveLength(1000);
    const last = model.steps.get(model.order[999] as string);
    expect(last?.turn).toBe(500);
    expect(last?.status).toBe("final");
  });
});

describe("a cut-off step", () => {
  it("carries the limit its step-end recorded", () => {
    const base = { runId: "r", at: 1 };
    const model = buildSteps([
      { ...base, type: "step-start", stepId: "s1", index: 1, protocol: "hermes", messages: [], templateMessages: [], prompt: "p", template: "t", settings: { maxTokens: 64 } },
      { ...base, type: "step-end", stepId: "s1", status: "cut-off", durationMs: 1, cutOff: "context-window" },
    ]);
    expect([...model.steps.values()][0]).toMatchObject({ status: "cut-off", cutOff: "context-window" });
  });
});
