// A GGUF's own chat template renders in a worker (here: the in-process stand-in that answers as
// the worker does, and stand-ins for a worker that hangs or crashes). What is checked: the
// protocol (open, one render at a time, answers by kind), the page-side time budget that
// terminates a worker that does not answer, the worker stopped past a bound, the loop awaiting
// renders (settleRender) and ending a refused run saying which bound with nothing sent, and Stop
// ending the wait.
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { promptBeforeNextMessage, renderPrompt } from "toolcall-middleware/loop/render-conversation.ts";
import { drive } from "toolcall-middleware/loop/test-support/drive.ts";
import { RenderPending, settleRender } from "toolcall-middleware/templates/render-pending.ts";
import { PromptRenderRefused } from "toolcall-middleware/templates/render-refused.ts";
import type { Engine, LoopEvent } from "toolcall-middleware/types.ts";
import { openGgufEmbeddedChatTemplate } from "../cpu/gguf-chat-template.ts";
import { TEMPLATE_RENDER_BUDGET } from "../cpu/jinja-budget.ts";
import { OffThreadTemplate, spawnInProcess, type SpawnTemplateRenderer } from "./off-thread-template.ts";
import { answerTemplateRequest, type TemplateRenderRequest, type TemplateRenderSide } from "./template-render-protocol.ts";

const CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
const DOUBLING = `{% if messages[0]['role'] == 'system' %}{% set s = namespace(v='ab') %}{% for i in range(40) %}{% set s.v = s.v + s.v %}{% endfor %}{{ s.v }}{% endif %}${CHATML}`;
const HUGE_RANGE = `{% for i in range(300000000) %}{% endfor %}${CHATML}`;
const messages = [
  { role: "system" as const, content: "You are a lab." },
  { role: "user" as const, content: "Hi" },
];

/** The in-process stand-in, counting what it was asked and how often it was stopped. */
function countingSpawn(options: { hangOnRender?: boolean; crashOnRender?: boolean } = {}) {
  const seen = { spawned: 0, terminated: 0, requests: [] as TemplateRenderRequest[] };
  const spawn: SpawnTemplateRenderer = (onAnswer, onFailure) => {
    seen.spawned += 1;
    const side: TemplateRenderSide = {};
    let stopped = false;
    return {
      post: (request) => {
        seen.requests.push(request);
        if (request.type === "render" && options.hangOnRender) return; // a template stuck inside one call: no answer ever
        setTimeout(() => {
          if (stopped) return;
          if (request.type === "render" && options.crashOnRender) onFailure("out of memory");
          else onAnswer(answerTemplateRequest(side, request));
        }, 0);
      },
      terminate: () => {
        stopped = true;
        seen.terminated += 1;
      },
    };
  };
  return { spawn, seen };
}

async function settled(template: OffThreadTemplate, variables: Record<string, unknown>): Promise<string> {
  return settleRender(() => template.render(variables));
}

const variables = (content: string) => ({ messages: [{ role: "user", content }], add_generation_prompt: true, bos_token: "", eos_token: "" });

describe("the worker's answers (answerTemplateRequest)", () => {
  it("opens, renders, refuses past a bound and tells a template's own failure apart", () => {
    const side: TemplateRenderSide = {};
    expect(answerTemplateRequest(side, { type: "render", id: 1, variables: {} })).toMatchObject({ type: "failed", message: expect.stringContaining("not opened") });
    expect(answerTemplateRequest(side, { type: "open", source: "{% if %}", what: "T", budget: TEMPLATE_RENDER_BUDGET })).toMatchObject({ type: "open-failed" });
    expect(answerTemplateRequest(side, { type: "open", source: CHATML, what: "T", budget: TEMPLATE_RENDER_BUDGET })).toEqual({ type: "opened" });
    expect(answerTemplateRequest(side, { type: "render", id: 2, variables: variables("Hi") })).toEqual({ type: "rendered", id: 2, text: "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n" });
    answerTemplateRequest(side, { type: "open", source: HUGE_RANGE, what: "T", budget: TEMPLATE_RENDER_BUDGET });
    expect(answerTemplateRequest(side, { type: "render", id: 3, variables: variables("Hi") })).toMatchObject({ type: "refused", id: 3, message: expect.stringContaining("range() of 300,000,000 items") });
    answerTemplateRequest(side, { type: "open", source: "{{ raise_exception('no tools here') }}", what: "T", budget: TEMPLATE_RENDER_BUDGET });
    expect(answerTemplateRequest(side, { type: "render", id: 4, variables: {} })).toEqual({ type: "failed", id: 4, message: "no tools here" });
  });
});

describe("OffThreadTemplate", () => {
  it("throws RenderPending for a text not made yet, then gives it; one worker serves every render", async () => {
    const { spawn, seen } = countingSpawn();
    const template = await OffThreadTemplate.open(CHATML, "The chat template T", { spawn });
    let pending: unknown;
    try {
      template.render(variables("Hi"));
    } catch (error) {
      pending = error;
    }
    expect(pending).toBeInstanceOf(RenderPending);
    await (pending as RenderPending).ready;
    expect(template.render(variables("Hi"))).toBe("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
    expect(await settled(template, variables("Again"))).toContain("Again");
    expect(seen.spawned).toBe(1);
    expect(seen.requests.map((r) => r.type)).toEqual(["open", "render", "render"]);
  });

  it("a template that is not valid Jinja fails to open with the parser's words, and its worker is stopped", async () => {
    const { spawn, seen } = countingSpawn();
    await expect(OffThreadTemplate.open("{% for %}", "T", { spawn })).rejects.toThrow(/./);
    expect(seen.terminated).toBe(1);
  });

  it("past its time budget, a worker that does not answer is terminated and the render refused naming the budget", async () => {
    const { spawn, seen } = countingSpawn({ hangOnRender: true });
    const template = await OffThreadTemplate.open(CHATML, "The chat template embedded in slow.gguf", { spawn, budget: { ...TEMPLATE_RENDER_BUDGET, milliseconds: 20 } });
    const refusal = await settled(template, variables("Hi")).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PromptRenderRefused);
    expect((refusal as Error).message).toBe("The chat template embedded in slow.gguf ran past its time budget of 20 ms: its worker was stopped and nothing was sent to the model.");
    expect(seen.terminated).toBe(1);
    // The next render starts a fresh worker (and is refused the same way: it still hangs).
    await expect(settled(template, variables("Hi"))).rejects.toThrow("ran past its time budget of 20 ms");
    expect(seen.spawned).toBe(2);
  });

  it("past the size bound the worker is stopped and the render refused; without the trigger the same template renders", async () => {
    const { spawn, seen } = countingSpawn();
    const { template } = await openGgufEmbeddedChatTemplate(DOUBLING, "evil.gguf", { spawn });
    await expect(settleRender(() => template.render(messages, { addGenerationPrompt: true }))).rejects.toThrow(
      "The chat template embedded in evil.gguf made a text longer than its bound of 2,000,000 characters: it was stopped and nothing was sent to the model.",
    );
    expect(seen.terminated).toBe(1);
    expect(await settleRender(() => template.render(messages.slice(1), { addGenerationPrompt: false }))).toBe("<|im_start|>user\nHi<|im_end|>\n");
    expect(seen.spawned).toBe(2);
  });

  it("a refusal is told once: asked again, the template renders again", async () => {
    const { spawn, seen } = countingSpawn();
    const template = await OffThreadTemplate.open(HUGE_RANGE, "T", { spawn });
    await expect(settled(template, variables("Hi"))).rejects.toThrow("range() of 300,000,000 items");
    await expect(settled(template, variables("Hi"))).rejects.toThrow("range() of 300,000,000 items");
    expect(seen.requests.filter((r) => r.type === "render")).toHaveLength(2);
  });

  it("a worker that crashes fails the render in words and is replaced", async () => {
    const { spawn, seen } = countingSpawn({ crashOnRender: true });
    const template = await OffThreadTemplate.open(CHATML, "The chat template embedded in m.gguf", { spawn });
    await expect(settled(template, variables("Hi"))).rejects.toThrow("The worker rendering the chat template embedded in m.gguf failed (out of memory).");
    expect(seen.terminated).toBe(1);
  });

  it("after dispose, renders fail saying the model was unloaded", async () => {
    const template = await OffThreadTemplate.open(CHATML, "The chat template T", { spawn: spawnInProcess });
    template.dispose();
    await expect(settled(template, variables("Hi"))).rejects.toThrow("no longer open");
  });

  it("renderPrompt and promptBeforeNextMessage settle through it and equal the same template rendered in place", async () => {
    const { template } = await openGgufEmbeddedChatTemplate(CHATML, "m.gguf", { spawn: spawnInProcess });
    const input = { tools: [], protocol: getProtocol("hermes")!, messages: [{ role: "user" as const, content: "Hi" }], systemPrompt: "You are a lab." };
    const chatml = (await import("toolcall-middleware/templates/chatml.ts")).chatmlTemplate;
    const inPlace = { ...chatml, stop: [], controlTokens: [] };
    expect((await settleRender(() => renderPrompt({ ...input, template }))).prompt).toBe(renderPrompt({ ...input, template: inPlace }).prompt);
    expect(await settleRender(() => promptBeforeNextMessage({ ...input, template }))).toBe(promptBeforeNextMessage({ ...input, template: inPlace }));
  });
});

describe("the loop with a template rendered in a worker", () => {
  const engineCounting = () => {
    const seen = { sent: 0 };
    const engine: Engine = {
      name: "counting",
      // eslint-disable-next-line require-yield
      generate: async function* () {
        seen.sent += 1;
        return;
      },
    };
    return { engine, seen };
  };

  it("a render past a bound ends the run saying which, with nothing sent to the engine", async () => {
    const { engine, seen } = engineCounting();
    const { template } = await openGgufEmbeddedChatTemplate(DOUBLING, "evil.gguf", { spawn: spawnInProcess });
    const { events } = await drive(runToolLoop({ engine, protocol: getProtocol("hermes")!, tools: [], messages: [{ role: "user", content: "Hi" }], systemPrompt: "You are a lab.", template, runId: "r" }));
    expect(seen.sent).toBe(0);
    const end = events.find((e) => e.type === "run-end");
    expect(end).toMatchObject({ status: "engine-error", error: expect.stringContaining("The chat template embedded in evil.gguf made a text longer than its bound") });
    expect(end && "error" in end && end.error).not.toMatch(/^Internal error/);
    expect(events.some((e) => e.type === "step-start")).toBe(false);
  });

  it("an ordinary render reaches the engine with the template's prompt", async () => {
    const prompts: string[] = [];
    const engine: Engine = {
      name: "recording",
      // eslint-disable-next-line require-yield
      generate: async function* (prompt) {
        prompts.push(prompt);
        return;
      },
    };
    const { template } = await openGgufEmbeddedChatTemplate(CHATML, "m.gguf", { spawn: spawnInProcess });
    const { events } = await drive(runToolLoop({ engine, protocol: getProtocol("hermes")!, tools: [], messages: [{ role: "user", content: "Hi" }], systemPrompt: "You are a lab.", template, runId: "r" }));
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
    const start = events.find((e): e is Extract<LoopEvent, { type: "step-start" }> => e.type === "step-start");
    expect(start?.prompt).toBe(prompts[0]);
  });

  it("Stop while the template renders ends the run as stopped, with nothing sent", async () => {
    const { engine, seen } = engineCounting();
    const { spawn } = countingSpawn({ hangOnRender: true });
    const { template } = await openGgufEmbeddedChatTemplate(CHATML, "slow.gguf", { spawn, milliseconds: 60_000 });
    const abort = new AbortController();
    const run = drive(runToolLoop({ engine, protocol: getProtocol("hermes")!, tools: [], messages: [{ role: "user", content: "Hi" }], template, runId: "r", signal: abort.signal }), (event) => {
      if (event.type === "run-start") setTimeout(() => abort.abort(), 10);
    });
    const { events } = await run;
    expect(seen.sent).toBe(0);
    expect(events.find((e) => e.type === "run-end")).toMatchObject({ status: "aborted" });
  });
});
