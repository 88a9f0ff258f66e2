// The GGUF tokenizer's parts on small made-up vocabularies (the ids against llama.cpp itself are
// checked in gguf-tokenizer.llama-server.test.ts with the real models).
import { describe, expect, it } from "vitest";
import { readGgufMetadata } from "../../gguf/gguf-metadata.ts";
import { ggufWith, readerOver, type TestValue } from "../../gguf/testing/gguf-bytes.ts";
import { byteLevelSymbols, preTokenize } from "./byte-level-bpe.ts";
import { GgufTokenizer } from "./gguf-tokenizer.ts";
import { GgufVocabularyError, TOKEN_TYPE } from "./gguf-vocabulary.ts";

async function tokenizerOf(entries: Record<string, TestValue>): Promise<GgufTokenizer> {
  return GgufTokenizer.fromMetadata(await readGgufMetadata(readerOver(ggufWith(entries))));
}

describe("the SMOLLM pre-tokenizer (digits alone, then GPT-2's split)", () => {
  const words = (text: string) => preTokenize(text, "smollm");
  it("splits words, contractions, digits one by one, punctuation and whitespace as llama.cpp does", () => {
    expect(words("Hello world")).toEqual(["Hello", " world"]);
    expect(words("it's 2024!")).toEqual(["it", "'s", " ", "2", "0", "2", "4", "!"]);
    expect(words("a   b")).toEqual(["a", "  ", " b"]);
    expect(words("end  ")).toEqual(["end", "  "]);
    expect(words("x\n\ny")).toEqual(["x", "\n", "\n", "y"]);
    expect(words(" ({[")).toEqual([" ({["]);
    expect(words("日本語 テスト")).toEqual(["日本語", " テスト"]);
    // No-break spaces are whitespace to llama.cpp; U+FEFF (whitespace to JavaScript's \s) is not.
    expect(words("\u00a0\u00a0x")).toEqual(["\u00a0", "\u00a0", "x"]);
    expect(words("a\ufeff\ufeffb")).toEqual(["a", "\ufeff\ufeff", "b"]);
  });
  it("writes bytes in GPT-2's alphabet", () => {
    expect(byteLevelSymbols(" é\n").join("")).toBe("ĠÃ©Ċ");
  });
});

/** A byte-level vocabulary: the 256 byte characters, a few merges, and two control tokens. */
function byteLevelEntries(): Record<string, TestValue> {
  // GPT-2's byte alphabet: printable bytes as themselves, the others from U+0100 on.
  const singles: string[] = [];
  let next = 256;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
    singles.push(String.fromCodePoint(printable ? byte : next++));
  }
  const tokens = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", ...singles, "Ġw", "or", "Ġwor", "ld", "Ġworld", "he", "ll", "hell", "hello"];
  return {
    "tokenizer.ggml.model": { type: "string", value: "gpt2" },
    "tokenizer.ggml.pre": { type: "string", value: "smollm" },
    "tokenizer.ggml.tokens": { type: "strings", value: tokens },
    "tokenizer.ggml.token_type": { type: "i32s", value: tokens.map((_, id) => (id < 3 ? TOKEN_TYPE.control : TOKEN_TYPE.normal)) },
    "tokenizer.ggml.merges": { type: "strings", value: ["Ġ w", "o r", "Ġw or", "l d", "Ġwor ld", "h e", "l l", "he ll", "hell o"] },
    "tokenizer.ggml.bos_token_id": { type: "u32", value: 1 },
    "tokenizer.ggml.add_bos_token": { type: "bool", value: false },
  };
}

describe("byte-level BPE from a GGUF vocabulary", () => {
  it("merges by rank, parses control tokens' text as their ids, and leaves them text without parse_special", async () => {
    const tokenizer = await tokenizerOf(byteLevelEntries());
    const id = (text: string) => tokenizer.vocabulary.idOf.get(text)!;
    expect(Array.from(tokenizer.encode("hello world"))).toEqual([id("hello"), id("Ġworld")]);
    expect(Array.from(tokenizer.encode("<|im_start|>hello<|im_end|>"))).toEqual([1, id("hello"), 2]);
    const asText = Array.from(tokenizer.encode("<|im_start|>", { parseSpecial: false }));
    expect(asText).not.toContain(1);
    expect(asText.length).toBeGreaterThan(1);
    expect(Array.from(tokenizer.encode("hello", { addSpecial: true }))).toEqual([id("hello")]); // add_bos false
  });

  it("spells bytes of characters it has no merge for, and places every token in the text", async () => {
    const tokenizer = await tokenizerOf(byteLevelEntries());
    const viewed = tokenizer.tokenize("<|im_start|>é 🙂 hello");
    expect(viewed.ids.length).toBe(1 + 2 + 1 + 5 + 1);
    expect(Array.from(viewed.control)).toEqual([1, ...new Array(viewed.ids.length - 1).fill(0)]);
    expect(viewed.spans).not.toBeNull();
    expect([viewed.spans!.starts[0], viewed.spans!.ends[0]]).toEqual([0, 12]);
    expect(viewed.spans!.ends[viewed.ids.length - 1]).toBe("<|im_start|>é 🙂 hello".length);
  });
});

/** A SentencePiece vocabulary: bytes, pieces with scores, user-defined whitespace runs, control tokens. */
function sentencePieceEntries(addSpacePrefix: boolean): Record<string, TestValue> {
  const pieces: Array<[string, number, number]> = [
    ["<pad>", 0, TOKEN_TYPE.control],
    ["<eos>", 0, TOKEN_TYPE.control],
    ["<bos>", 0, TOKEN_TYPE.control],
    ["<unk>", 0, TOKEN_TYPE.unknown],
    ["<start_of_turn>", 0, TOKEN_TYPE.control],
    ["\n", 0, TOKEN_TYPE.userDefined],
    ["\n\n", 0, TOKEN_TYPE.userDefined],
    ["  ", 0, TOKEN_TYPE.userDefined],
    ...Array.from({ length: 256 }, (_, byte) => [`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`, 0, TOKEN_TYPE.byte] as [string, number, number]),
    ["▁", -1, TOKEN_TYPE.normal],
    ["h", -2, TOKEN_TYPE.normal],
    ["e", -2, TOKEN_TYPE.normal],
    ["l", -2, TOKEN_TYPE.normal],
    ["o", -2, TOKEN_TYPE.normal],
    ["he", -3, TOKEN_TYPE.normal],
    ["ll", -4, TOKEN_TYPE.normal],
    ["llo", -5, TOKEN_TYPE.normal],
    ["hello", -6, TOKEN_TYPE.normal],
    ["▁hello", -7, TOKEN_TYPE.normal],
    ["el", -1, TOKEN_TYPE.normal],
  ];
  return {
    "tokenizer.ggml.model": { type: "string", value: "llama" },
    "tokenizer.ggml.tokens": { type: "strings", value: pieces.map(([text]) => text) },
    "tokenizer.ggml.scores": { type: "f32s", value: pieces.map(([, score]) => score) },
    "tokenizer.ggml.token_type": { type: "i32s", value: pieces.map(([, , type]) => type) },
    "tokenizer.ggml.bos_token_id": { type: "u32", value: 2 },
    "tokenizer.ggml.add_bos_token": { type: "bool", value: true },
    "tokenizer.ggml.add_space_prefix": { type: "bool", value: addSpacePrefix },
  };
}

describe("SentencePiece from a GGUF vocabulary", () => {
  it("merges the highest score first (el before he, so hello is not reached), spells unknown characters as bytes", async () => {
    const tokenizer = await tokenizerOf(sentencePieceEntries(false));
    const id = (text: string) => tokenizer.vocabulary.idOf.get(text)!;
    // "el" (-1) merges before "he" (-3) and "ll" (-4): h + el + l + o.
    expect(Array.from(tokenizer.encode("hello"))).toEqual([id("h"), id("el"), id("l"), id("o")]);
    expect(Array.from(tokenizer.encode("é"))).toEqual([id("<0xC3>"), id("<0xA9>")]);
    expect(Array.from(tokenizer.encode("h", { addSpecial: true }))).toEqual([2, id("h")]);
  });

  it("splits at user-defined tokens even without parse_special, longest first, and at control tokens only with it", async () => {
    const tokenizer = await tokenizerOf(sentencePieceEntries(false));
    const id = (text: string) => tokenizer.vocabulary.idOf.get(text)!;
    expect(Array.from(tokenizer.encode("h\n\n\nh"))).toEqual([id("h"), id("\n\n"), id("\n"), id("h")]);
    expect(Array.from(tokenizer.encode("h  h", { parseSpecial: false }))).toEqual([id("h"), id("  "), id("h")]);
    expect(Array.from(tokenizer.encode("<start_of_turn>h"))).toEqual([4, id("h")]);
    expect(Array.from(tokenizer.encode("<start_of_turn>", { parseSpecial: false }))).not.toContain(4);
  });

  it("with add_space_prefix, a text after a special token (or at the start) gets a leading ▁", async () => {
    const tokenizer = await tokenizerOf(sentencePieceEntries(true));
    const id = (text: string) => tokenizer.vocabulary.idOf.get(text)!;
    expect(Array.from(tokenizer.encode("h"))).toEqual([id("▁"), id("h")]);
    expect(Array.from(tokenizer.encode("<start_of_turn>h"))).toEqual([4, id("▁"), id("h")]);
  });
});

describe("vocabularies the tokenizer does not read", () => {
  it("says which tokenizer model or pre-tokenizer it lacks", async () => {
    await expect(tokenizerOf({ "tokenizer.ggml.model": { type: "string", value: "bert" }, "tokenizer.ggml.tokens": { type: "strings", value: ["a"] } })).rejects.toThrow(GgufVocabularyError);
    await expect(tokenizerOf({ ...byteLevelEntries(), "tokenizer.ggml.pre": { type: "string", value: "qwen2" } })).rejects.toThrow(/this file's is "qwen2"/);
    await expect(tokenizerOf({ "tokenizer.ggml.model": { type: "string", value: "gpt2" } })).rejects.toThrow(/no vocabulary/);
  });
});
