// A long prompt is drawn in runs of bounded size that together are the prompt, piece for piece.
import { describe, expect, it } from "vitest";
import { segmentPrompt, type PromptPiece } from "./prompt-segments.ts";
import { LONG_LINE_RUN_CHARS } from "./long-lines.ts";
import { PROMPT_RUN_CHARS, promptRuns, runText } from "./prompt-runs.ts";

const TOKENS = ["<|im_start|>", "<|im_end|>", "<tool_call>"];

/** The prompt's text as the pieces spell it (the tool block's pieces inside it). */
function spelled(pieces: readonly PromptPiece[]): string {
  return pieces.map((piece) => (piece.kind === "tools" ? spelled(piece.pieces) : piece.text)).join("");
}

describe("promptRuns", () => {
  it("a reply of 80,000 unfinished calls written back on one line: runs of at most LONG_LINE_RUN_CHARS, the prompt whole, every chip whole", () => {
    const prompt = `<|im_start|>user\nGo.<|im_end|>\n<|im_start|>assistant\n${"<tool_call>{".repeat(80_000)}<|im_end|>\n`;
    const pieces = segmentPrompt(prompt, TOKENS);
    const runs = promptRuns(pieces);
    expect(runs.map((run) => run.pieces.map((p) => (p.kind === "tools" ? "" : p.text)).join("")).join("")).toBe(prompt);
    // Bounded work per run (a chip may end a run past the bound by less than its own length).
    for (const run of runs) expect(run.chars).toBeLessThan(LONG_LINE_RUN_CHARS + "<tool_call>".length);
    expect(runs.length).toBeGreaterThanOrEqual(Math.floor(prompt.length / (LONG_LINE_RUN_CHARS + 11)));
    // Chips are never cut: the runs hold the same 80,000 + 4 tokens.
    const tokens = runs.flatMap((run) => run.pieces.filter((p) => p.kind === "token"));
    expect(tokens).toHaveLength(80_004);
    expect(tokens.every((t) => t.kind === "token" && TOKENS.includes(t.text))).toBe(true);
    // Each run starts where the one before ended, and its key is its offset.
    let at = 0;
    for (const run of runs) {
      expect(run.start).toBe(at);
      expect(runText(run)).toBe(prompt.slice(at, at + run.chars));
      at += run.chars;
    }
  });

  it("ends runs at line ends past PROMPT_RUN_CHARS, keeps the tool block whole, and never cuts a surrogate pair", () => {
    const line = `${"a".repeat(99)}\n`;
    const tools = `<tools>${line.repeat(30)}</tools>`;
    const prompt = `${line.repeat(50)}${tools}\n${line.repeat(50)}${"😀".repeat(20_000)}\n`;
    const pieces = segmentPrompt(prompt, TOKENS, { start: 5_000, end: 5_000 + tools.length });
    const runs = promptRuns(pieces);
    expect(spelled(runs.flatMap((run) => run.pieces))).toBe(prompt);
    expect(runs.flatMap((run) => run.pieces).filter((p) => p.kind === "tools")).toHaveLength(1);
    for (const run of runs.slice(0, -1)) {
      const text = run.pieces.at(-1)!;
      if (text.kind !== "text") continue;
      // A run ends at a line end, or (the long emoji line) at the long-line bound on a whole pair.
      const last = text.text.charCodeAt(text.text.length - 1);
      expect(last === 10 || (last >= 0xdc00 && last <= 0xdfff)).toBe(true);
      if (last === 10) expect(run.chars).toBeGreaterThanOrEqual(Math.min(PROMPT_RUN_CHARS, run.chars));
    }
    expect(Math.max(...runs.map((run) => run.chars))).toBeLessThanOrEqual(LONG_LINE_RUN_CHARS);
  });
});
