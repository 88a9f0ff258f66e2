import { describe, expect, it } from "vitest";
import { cutAtSpans, findToolBlock, markMcpResources, promptChangesSince, promptOriginSpans, segmentPrompt, type PromptPiece } from "./prompt-segments.ts";

const flat = (pieces: PromptPiece[]): string[] =>
  pieces.flatMap((p) => (p.kind === "tools" ? [`[tools:${flat(p.pieces).join("")}]`] : p.kind === "token" ? [`{${p.text}}`] : [p.text]));

describe("segmentPrompt", () => {
  it("turns <|…|> tokens into chips and keeps the text between them", () => {
    const pieces = segmentPrompt("<|im_start|>user\nhi<|im_end|>\n<|start_header_id|>x<|eot_id|>");
    expect(flat(pieces)).toEqual(["{<|im_start|>}", "user\nhi", "{<|im_end|>}", "\n", "{<|start_header_id|>}", "x", "{<|eot_id|>}"]);
  });

  it("recognises a template's own control tokens in other spellings", () => {
    expect(flat(segmentPrompt("<s>[INST] hi [/INST]", ["<s>", "[INST]", "[/INST]"]))).toEqual(["{<s>}", "{[INST]}", " hi ", "{[/INST]}"]);
  });

  it("does not take a plain < | > sequence with spaces for a token", () => {
    expect(flat(segmentPrompt("a <| not a token |> b"))).toEqual(["a <| not a token |> b"]);
  });

  it("sets the protocol's tool section apart, found verbatim in the prompt", () => {
    const section = "# Tools\nUse these:\n<tools>\n{}\n</tools>";
    const prompt = `<|im_start|>system\nBe brief.\n\n${section}<|im_end|>\n`;
    expect(flat(segmentPrompt(prompt, [], section))).toEqual([
      "{<|im_start|>}",
      "system\nBe brief.\n\n",
      `[tools:${section}]`,
      "{<|im_end|>}",
      "\n",
    ]);
  });

  it("falls back to the <tools>…</tools> block, and offsets stay true to the prompt", () => {
    const prompt = "intro <tools>\n{\"name\":\"f\"}\n</tools> outro";
    const block = findToolBlock(prompt, "a section the prompt does not hold");
    expect(block && prompt.slice(block.start, block.end)).toBe('<tools>\n{"name":"f"}\n</tools>');
    const pieces = segmentPrompt(prompt);
    for (const piece of pieces) {
      if (piece.kind === "tools") expect(piece.start).toBe(6);
      else expect(prompt.slice(piece.start, piece.start + piece.text.length)).toBe(piece.text);
    }
  });

  it("finds no tool block in a prompt without one", () => {
    expect(findToolBlock("just text", null)).toBeNull();
  });
});

describe("promptChangesSince", () => {
  it("hides the shared lines and shows what the step added", () => {
    const previous = "sys\nuser: a\nassistant:";
    const current = "sys\nuser: a\nassistant: call\ntool: 4\nassistant:";
    const changes = promptChangesSince(previous, current);
    expect(changes.added).toBe("assistant: call\ntool: 4\nassistant:");
    expect(changes.hiddenChars).toBe("sys\nuser: a\n".length);
    expect(changes.hiddenLines).toBe(2);
    expect(changes.droppedChars).toBe(0);
  });

  it("counts what the previous prompt had that this one lost", () => {
    const changes = promptChangesSince("abc\nXYZ", "abc\nQ");
    expect(changes.added).toBe("Q");
    expect(changes.droppedChars).toBe(3);
  });

  it("shows nothing added for identical prompts", () => {
    expect(promptChangesSince("same", "same")).toEqual({ hiddenChars: 4, hiddenLines: 0, added: "", droppedChars: 0 });
  });
});

describe("markMcpResources", () => {
  it("finds an attached resource's markers and the server they name, leaving other text as it is", () => {
    const parts = markMcpResources('Before <mcp-resource server="a&quot;b" uri="x://1">\nbody\n</mcp-resource> after');
    expect(parts.map((part) => part.kind)).toEqual(["text", "resource-open", "text", "resource-close", "text"]);
    expect(parts[1]).toMatchObject({ server: 'a"b', uri: "x://1" });
    expect(parts.map((part) => part.text).join("")).toBe('Before <mcp-resource server="a&quot;b" uri="x://1">\nbody\n</mcp-resource> after');
  });

  it("leaves text without markers whole", () => {
    expect(markMcpResources("plain <|im_end|> text")).toEqual([{ kind: "text", text: "plain <|im_end|> text" }]);
  });
});

describe("promptOriginSpans and cutAtSpans", () => {
  const source = { server: "srv", prompt: "dialogue" };
  it("finds each marked message in order where the prompt holds it, skips unmarked and unfound ones, and cuts text pieces at the spans", () => {
    const prompt = "<|im_start|>user\nHi<|im_end|><|im_start|>assistant\nHi<|im_end|><|im_start|>user\nmine<|im_end|>";
    const spans = promptOriginSpans(prompt, [
      { role: "user", content: "Hi", source },
      { role: "assistant", content: "Hi", source },
      { role: "user", content: "mine" },
      { role: "user", content: "escaped away", source },
    ]);
    expect(spans.map((span) => [span.role, prompt.slice(span.start, span.end), span.start])).toEqual([
      ["user", "Hi", prompt.indexOf("Hi")],
      ["assistant", "Hi", prompt.lastIndexOf("Hi")],
    ]);
    // A text piece "\nHi" starting at offset 16 is cut into plain text and the span's part, which opens it.
    const parts = cutAtSpans("\nHi", spans[0]!.start - 1, spans);
    expect(parts).toEqual([
      { text: "\n", opens: false },
      { text: "Hi", span: spans[0], opens: true },
    ]);
  });
});
