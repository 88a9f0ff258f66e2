// What a re-run changed against its original: the raw outputs as a word diff split into the
// two sides (the original's words the branch dropped, the branch's words it added), the calls
// matched by tool, and a line saying it in words. Pure: the re-run panel marks both outputs.
import type { ToolCall } from "toolcall-middleware/types.ts";
import { compareCalls, type CallChange } from "./compare-steps.ts";
import { diffWords, type DiffOp } from "./text-diff.ts";

export interface RerunDifference {
  /** The original's output: its unchanged runs and what the branch dropped ("delete"). */
  original: DiffOp[];
  /** The branch's output: its unchanged runs and what it added ("insert"). */
  branch: DiffOp[];
  calls: CallChange[];
  /** In words: "The same output and calls as the original." or what differs. */
  summary: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

export function rerunDifference(original: { rawOutput: string; calls: readonly ToolCall[] }, branch: { rawOutput: string; calls: readonly ToolCall[] }): RerunDifference {
  const diff = diffWords(original.rawOutput, branch.rawOutput);
  const calls = compareCalls(original.calls, branch.calls);
  const parts: string[] = [];
  // The diff's items are words and the spaces between them: only words are counted.
  const words = (type: DiffOp["type"]) => diff.ops.reduce((n, op) => (op.type === type ? n + op.items.filter((item) => item.trim() !== "").length : n), 0);
  const [added, dropped] = [words("insert"), words("delete")];
  if ((diff.inserted > 0 || diff.deleted > 0) && added + dropped === 0) parts.push("output spacing");
  else if (diff.inserted > 0 || diff.deleted > 0) parts.push(`output +${added.toLocaleString("en")} −${dropped.toLocaleString("en")} words${diff.bounded ? " (past the diff's bound, the rest as one block)" : ""}`);
  const count = (kind: CallChange["kind"]) => calls.filter((c) => c.kind === kind).length;
  const changedCalls = [
    count("added") > 0 ? `${plural(count("added"), "call")} added` : "",
    count("removed") > 0 ? `${plural(count("removed"), "call")} removed` : "",
    count("arguments-changed") > 0 ? `${plural(count("arguments-changed"), "call")} with other arguments` : "",
  ].filter(Boolean);
  if (changedCalls.length > 0) parts.push(changedCalls.join(", "));
  return {
    original: diff.ops.filter((op) => op.type !== "insert"),
    branch: diff.ops.filter((op) => op.type !== "delete"),
    calls,
    summary: parts.length === 0 ? "The same output and calls as the original." : `Changed: ${parts.join("; ")}.`,
  };
}
