// The quick run on the CPU: a few built-in cases a person starts with one click on the model in
// the page (SmolLM2 135M on llama.cpp in WebAssembly), chosen from what SmolLM2 did on them in the
// committed results (eval-results/smollm2-135m-instruct-q4_1.hermes.constrained-off.json, at
// temperature 0 on llama-server): an irrelevance case it passes in 13 tokens, a call case it fails
// by writing no call in 20, and an irrelevance case that runs on and is cut at the budget. Hermes
// (the shortest prompts of the four protocols run: about 250 tokens with one tool), constraint
// off, temperature 0 and a low max tokens keep it to a few minutes on a 2-core machine. The page's
// engine may still write other words than llama-server did (other kernels): what each case shows
// is what this run wrote.
import { settleRender } from "toolcall-middleware/templates/render-pending.ts";
import { promptBeforeNextMessage } from "toolcall-middleware/loop/render-conversation.ts";
import type { ChatTemplate, Protocol } from "toolcall-middleware/types.ts";
import { expectedSeconds } from "./progress.ts";
import type { EvalCase } from "./suite.ts";

export interface QuickCase {
  id: string;
  /** What SmolLM2 did on it in the committed results, said before the run. */
  shows: string;
  /** Its prompt's tokens as llama.cpp counted them for SmolLM2 (the committed results' usage). */
  promptTokens: number;
}

export const QUICK_CPU_PRESET = {
  protocol: "hermes",
  maxTokens: 32,
  temperature: 0,
  cases: [
    { id: "irrelevance_28", shows: "an irrelevance case (no tool fits) it answered in text: a pass", promptTokens: 250 },
    { id: "simple_python_8", shows: "a call case it answered without a call: a fail", promptTokens: 245 },
    { id: "irrelevance_0", shows: "an irrelevance case it goes on writing: cut off at max tokens", promptTokens: 249 },
  ] satisfies QuickCase[],
} as const;

export interface MeasuredRates {
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
  /** Where the rates were measured, in words ("the Lab's last reply", "the last Evaluate case"). */
  source: string;
}

/** What the preset will take at the measured rates: every prompt prefilled whole and every reply to its budget (an upper bound). */
export function quickPresetEstimate(rates: MeasuredRates): { prefill: number; decode: number; total: number; promptTokens: number; replyTokens: number } {
  const promptTokens = QUICK_CPU_PRESET.cases.reduce((sum, c) => sum + c.promptTokens, 0);
  const replyTokens = QUICK_CPU_PRESET.cases.length * QUICK_CPU_PRESET.maxTokens;
  const cases = QUICK_CPU_PRESET.cases.length;
  return { ...expectedSeconds({ cases, promptTokens: promptTokens / cases, replyTokens: replyTokens / cases }, rates), promptTokens, replyTokens };
}

/**
 * What a case's prompt holds before its last message (the template's start, the protocol's tool
 * section for the case's tools, any earlier turns), rendered as the loop renders the case
 * (promptBeforeNextMessage). Read into the CPU engine's prompt cache while nothing runs (the
 * quick run's panel, before the click), it leaves the case to prefill only its own message.
 */
export function casePromptStart(testCase: Pick<EvalCase, "tools" | "messages">, protocol: Protocol, template: ChatTemplate, signal?: AbortSignal): Promise<string> {
  const tools = testCase.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  // Awaited: a GGUF's own template renders in a worker.
  return settleRender(() => promptBeforeNextMessage({ tools, protocol, messages: testCase.messages.slice(0, -1), template }), signal);
}
