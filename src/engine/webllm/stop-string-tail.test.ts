import { describe, expect, it } from "vitest";
import { StopStringTail } from "./stop-string-tail.ts";

const run = (stops: string[], chunks: string[], stopped: boolean) => {
  const tail = new StopStringTail(stops);
  const shown = chunks.map((c) => tail.push(c));
  return { shown, all: shown.join("") + tail.end(stopped) };
};

describe("holding back the start of a stop string", () => {
  it("drops what WebLLM streamed of a multi-token stop string it then cut at", () => {
    // What WebLLM 0.2.86 streams with stop ["</final>"]: the deltas before the cut.
    expect(run(["</final>"], ["Answer", ": 42 ", "</", "final"], true).all).toBe("Answer: 42 ");
  });

  it("lets text through once it is not a stop string after all", () => {
    const { shown, all } = run(["</final>", "<|im_end|>"], ["a <", "/b> c", "<tool_call>"], true);
    expect(shown).toEqual(["a ", "</b> c", "<tool_call>"]);
    expect(all).toBe("a </b> c<tool_call>");
  });

  it("keeps a held tail when the generation ended otherwise (max tokens, a stop)", () => {
    expect(run(["</final>"], ["x </fin"], false).all).toBe("x </fin");
  });

  it("passes everything through without stop strings", () => {
    expect(run([], ["a", "<", "b"], true).shown).toEqual(["a", "<", "b"]);
  });
});
