import { describe, expect, it } from "vitest";
import { rerunDifference } from "./rerun-difference.ts";

const call = (expression: string) => ({ id: "c1", name: "calculator", arguments: { expression } });
const joined = (ops: { items: string[] }[]) => ops.map((op) => op.items.join("")).join("");

describe("rerun difference", () => {
  it("marks the words the branch dropped on the original's side and the words it added on its own", () => {
    const diff = rerunDifference({ rawOutput: "The answer is 4.", calls: [] }, { rawOutput: "The answer is 5 today.", calls: [] });
    // Each side spells its own output back.
    expect(joined(diff.original)).toBe("The answer is 4.");
    expect(joined(diff.branch)).toBe("The answer is 5 today.");
    expect(diff.original.filter((op) => op.type === "delete").map((op) => op.items.join(""))).toEqual(["4."]);
    expect(diff.branch.filter((op) => op.type === "insert").map((op) => op.items.join(""))).toEqual(["5 today."]);
    expect(diff.original.some((op) => op.type === "insert")).toBe(false);
    expect(diff.branch.some((op) => op.type === "delete")).toBe(false);
    // Words, not the spaces between them: "5", "today." added; "4." dropped.
    expect(diff.summary).toBe("Changed: output +2 −1 words.");
  });

  it("says when nothing changed, and names changed calls", () => {
    const same = rerunDifference({ rawOutput: "x", calls: [call("1+1")] }, { rawOutput: "x", calls: [call("1+1")] });
    expect(same.summary).toBe("The same output and calls as the original.");
    expect(same.original.every((op) => op.type === "equal")).toBe(true);
    const other = rerunDifference({ rawOutput: "x", calls: [call("1+1")] }, { rawOutput: "x", calls: [call("2+3"), { id: "c2", name: "clock", arguments: {} }] });
    expect(other.summary).toBe("Changed: 1 call added, 1 call with other arguments.");
    expect(rerunDifference({ rawOutput: "a b", calls: [] }, { rawOutput: "a  b", calls: [] }).summary).toBe("Changed: output spacing.");
  });
});
