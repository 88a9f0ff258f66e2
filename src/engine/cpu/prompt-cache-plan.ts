// Which readings llama.cpp in the page keeps, and what to send so that it keeps more of them.
//
// The runtime is llama-server's own code with one slot and its RAM prompt cache. On each request
// it compares the new prompt with the slot's (the longest common prefix, LCP):
// - if the LCP is more than 10% of the new prompt and at least half of the slot's prompt, the
//   slot is simply reused from there: the rest of the slot's reading is overwritten, not saved;
// - otherwise the slot's reading is saved in the RAM cache, and the cached reading that gives
//   the new prompt the most (its LCP at least a quarter of that reading, and better than the
//   slot's) is restored into the slot and taken out of the cache.
// So two prompts that share a long start (hermes and xml share their tool preamble) overwrite
// each other, and a prompt asked after its sibling was restored finds nothing: the protocol
// table read every prompt again each time. Reading a prompt after another, this plan says what
// to send first, if anything:
// - "recall": a reading of this prompt (or of its start) was put aside, but the runtime would not
//   look for it: a one-token prompt sharing nothing ("aside") is read first, which saves the
//   slot's reading and makes the next request look its own up;
// - "set-aside": nothing is put aside for this prompt, and it would overwrite the slot's reading:
//   the slot's prompt cut to a third, with a few tokens of its own after it, is read first; that
//   keeps less than half, so the slot's reading is saved, and what the new prompt shares with it
//   stays in the slot, so the new prompt takes no sibling's reading out of the cache.
// The plan follows the runtime's choices on the prompts' text (characters for tokens): a wrong
// guess costs time, never a wrong result — the runtime decides what it reuses from the tokens.

/** llama-server's thresholds (server-context.cpp: slot_prompt_similarity, f_keep < 0.5; the cache's f_keep < 0.25). */
const SIMILAR = 0.1;
const KEEPS = 0.5;
const WORTH_RESTORING = 0.25;
/** How many readings the plan remembers as put aside (the runtime's own limit is far larger). */
const REMEMBERED = 32;

/** The one-token prompt that shares no start with any rendered prompt. */
export const ASIDE_PROMPT = "~";

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Whether the runtime reuses the slot's reading for `next` without saving it (and without looking in its cache). */
export function reusesSlot(slot: string, next: string): boolean {
  if (next.length === 0 || slot.length === 0) return false;
  const shared = commonPrefix(slot, next);
  return shared / next.length > SIMILAR && shared / slot.length >= KEEPS;
}

/** The prompt that makes the runtime save `slot`'s reading and keep a third of it in the slot. */
export function setAsidePrompt(slot: string): string {
  return `${slot.slice(0, Math.floor(slot.length / 3))} ~~~~~~~~`;
}

export type PlanStep = { send: "nothing" } | { send: "recall" | "set-aside"; prompt: string };

/** The runtime's slot and RAM cache as the engine's requests left them (as far as their text tells). */
export class PromptCachePlan {
  /** The prompt the slot last read (undefined: nothing, or not known). */
  private slot: string | undefined;
  /** Readings saved in the runtime's RAM cache, oldest first. */
  private readonly aside: string[] = [];

  /** What to send before `next` (the prompt as the runtime gets it) so that no reading is lost. */
  before(next: string): PlanStep {
    const slot = this.slot;
    // Nothing of the slot's reading is lost when the new prompt extends it, and the runtime saves it itself when it would not reuse it.
    if (slot === undefined || next.startsWith(slot) || !reusesSlot(slot, next)) return { send: "nothing" };
    const shared = commonPrefix(slot, next);
    if (this.aside.some((reading) => next.startsWith(reading) && reading.length > shared)) return { send: "recall", prompt: ASIDE_PROMPT };
    if (this.aside.includes(slot)) return { send: "nothing" };
    return { send: "set-aside", prompt: setAsidePrompt(slot) };
  }

  /** Told of every request as the runtime takes it, in order. */
  sent(next: string): void {
    const slot = this.slot;
    this.slot = next;
    if (slot === undefined || next.startsWith(slot) || reusesSlot(slot, next)) return;
    this.save(slot);
    this.restore(slot, next);
  }

  /** Readings believed put aside (for tests and the debugger's notes). */
  readingsAside(): readonly string[] {
    return this.aside;
  }

  private save(reading: string): void {
    if (reading === ASIDE_PROMPT) return;
    if (this.aside.some((kept) => kept.startsWith(reading))) return;
    for (let i = this.aside.length - 1; i >= 0; i--) if (reading.startsWith(this.aside[i]!)) this.aside.splice(i, 1);
    this.aside.push(reading);
    if (this.aside.length > REMEMBERED) this.aside.shift();
  }

  /** The reading the runtime would restore for `next` (taken out of its cache), as llama-server chooses it. */
  private restore(slot: string, next: string): void {
    const base = commonPrefix(slot, next);
    let bestKeep = base / slot.length;
    let bestSimilar = base / next.length;
    let best = -1;
    this.aside.forEach((reading, i) => {
      const shared = commonPrefix(reading, next);
      const keep = shared / reading.length;
      const similar = shared / next.length;
      if (keep < WORTH_RESTORING) return;
      if (keep > bestKeep && similar > bestSimilar) {
        bestKeep = keep;
        bestSimilar = similar;
        best = i;
      }
    });
    if (best >= 0) this.aside.splice(best, 1);
  }
}
