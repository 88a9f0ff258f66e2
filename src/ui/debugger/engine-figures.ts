// What the engine reported about a step, in words: how much of the prompt it prefilled and how
// much it kept in its KV cache from the step before (and why it could not), how fast, and for a
// constrained step what was sent and what the grammar cost. Only recorded figures are shown.
import type { EngineUsage, StepConstraint, ToolChoiceSetting } from "toolcall-middleware/types.ts";

const count = (n: number) => n.toLocaleString("en-US");
const tokens = (n: number) => `${count(n)} token${n === 1 ? "" : "s"}`;

/** "38 prefilled · 2,085 reused from the step before", or why the whole prompt was prefilled; null if unknown. */
export function formatPrefill(usage: EngineUsage): string | null {
  const { prefilledTokens: prefilled, reusedTokens: reused, fullPrefillReason: reason } = usage;
  if (prefilled === undefined) return null;
  // A hybrid model (Qwen3.5) carries a recurrent state beside its KV cache: reuse continues both.
  const kept = usage.kvState === "hybrid" ? "KV cache and recurrent state continued" : "KV cache";
  if (reused && reused > 0) return `${tokens(prefilled)} prefilled · ${count(reused)} reused from the step before (${kept})`;
  return `${tokens(prefilled)} prefilled (whole prompt${reason ? `: ${reason}` : ""})`;
}

/** "first token 0.84 s · prefill 1,204 tok/s · decode 31.2 tok/s", or null when the engine reported none. */
export function formatSpeed(usage: EngineUsage): string | null {
  const parts: string[] = [];
  if (usage.timeToFirstTokenMs !== undefined) parts.push(`first token ${formatSeconds(usage.timeToFirstTokenMs)}`);
  if (usage.prefillTokensPerSecond !== undefined) parts.push(`prefill ${count(Math.round(usage.prefillTokensPerSecond))} tok/s`);
  if (usage.decodeTokensPerSecond !== undefined) parts.push(`decode ${usage.decodeTokensPerSecond.toFixed(1)} tok/s`);
  return parts.length > 0 ? parts.join(" · ") : null;
}

export function describeToolChoice(choice: ToolChoiceSetting): string {
  if (typeof choice === "object") return `only ${choice.name}`;
  return { auto: "auto (text or calls)", required: "required (at least one call)", none: "none (no call)" }[choice];
}

/** The constraint line: what was asked, and either what the grammar cost or why there was none. */
export function formatConstraint(constraint: StepConstraint, usage: EngineUsage): string {
  const choice = `Constrained tool calls, ${describeToolChoice(constraint.toolChoice)}`;
  if (constraint.unsupported !== undefined) return `${choice}: not applied — ${constraint.unsupported}.`;
  const timing: string[] = [];
  if (usage.grammarInitMs !== undefined) timing.push(`grammar compiled in ${formatSeconds(usage.grammarInitMs)}`);
  if (usage.grammarPerTokenMs !== undefined) timing.push(`${usage.grammarPerTokenMs.toFixed(2)} ms per token`);
  // How it went (the engine says): the tag itself, or llama.cpp's GBNF grammar written from it.
  const sentAs = usage.constraintSentAs === "response_format" ? " as response_format" : usage.constraintSentAs === "grammar" ? " as one GBNF grammar (llama.cpp's grammar field)" : "";
  return `${choice}: structural tag sent${sentAs}${timing.length > 0 ? ` · ${timing.join(" · ")}` : " · the engine reported no grammar timing"}.`;
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
