import { describe, expect, it } from "vitest";
import { GgufFormatError, ggufBoolean, ggufNumber, ggufNumbers, ggufReaderForBlob, ggufReaderForUrl, ggufString, ggufStrings, readGgufMetadata } from "./gguf-metadata.ts";
import { GgufBytes, ggufWith, readerOver } from "./testing/gguf-bytes.ts";
import { missingModel, realModel, withFileReader } from "../../scripts/real-models/model-files.ts";
import { ggufModelFacts } from "./gguf-model-facts.ts";

describe("readGgufMetadata on the real models", () => {
  const smol = realModel("smollm2-135m-instruct-q4_1");
  const gemma = realModel("gemma-3-270m-q4_k_m");

  it.skipIf(missingModel(smol))("reads SmolLM2's header: gpt2 vocabulary with merges, ChatML template", async () => {
    const metadata = await withFileReader(smol.path, (read) => readGgufMetadata(read));
    expect(metadata.version).toBe(3);
    expect(ggufString(metadata, "general.architecture")).toBe("llama");
    expect(ggufString(metadata, "general.basename")).toBe("smollm2");
    expect(ggufString(metadata, "tokenizer.ggml.model")).toBe("gpt2");
    expect(ggufString(metadata, "tokenizer.ggml.pre")).toBe("smollm");
    expect(ggufNumber(metadata, "llama.context_length")).toBe(8192);
    expect(ggufBoolean(metadata, "tokenizer.ggml.add_bos_token")).toBe(false);
    const tokens = ggufStrings(metadata, "tokenizer.ggml.tokens")!;
    expect(tokens).toHaveLength(49152);
    expect(tokens.slice(0, 3)).toEqual(["<|endoftext|>", "<|im_start|>", "<|im_end|>"]);
    expect(ggufStrings(metadata, "tokenizer.ggml.merges")![0]).toBe("Ġ t");
    expect(ggufNumbers(metadata, "tokenizer.ggml.token_type")).toHaveLength(49152);
    expect(ggufString(metadata, "tokenizer.chat_template")).toContain("<|im_start|>");
  });

  it.skipIf(missingModel(gemma))("reads Gemma 3's header: SentencePiece vocabulary with scores, no chat template", async () => {
    const metadata = await withFileReader(gemma.path, (read) => readGgufMetadata(read));
    expect(ggufString(metadata, "general.architecture")).toBe("gemma3");
    expect(ggufString(metadata, "general.name")).toBe("Gemma 3 270m");
    expect(ggufString(metadata, "tokenizer.ggml.model")).toBe("llama");
    expect(ggufBoolean(metadata, "tokenizer.ggml.add_bos_token")).toBe(true);
    expect(ggufBoolean(metadata, "tokenizer.ggml.add_space_prefix")).toBe(false);
    expect(ggufStrings(metadata, "tokenizer.ggml.tokens")).toHaveLength(262144);
    expect(ggufNumbers(metadata, "tokenizer.ggml.scores")).toBeInstanceOf(Float32Array);
    expect(ggufString(metadata, "tokenizer.chat_template")).toBeUndefined();
    expect(metadata.tensorCount).toBe(236);
  });
});

describe("readGgufMetadata on made-up and hostile bytes", () => {
  it("reads every value type it writes, in order", async () => {
    const bytes = ggufWith({
      "general.architecture": { type: "string", value: "llama" },
      "x.count": { type: "u32", value: 7 },
      "x.signed": { type: "i32", value: -3 },
      "x.ratio": { type: "f32", value: 0.5 },
      "x.flag": { type: "bool", value: true },
      "x.words": { type: "strings", value: ["a", "ü", ""] },
      "x.types": { type: "i32s", value: [1, 3, -1] },
    });
    const metadata = await readGgufMetadata(readerOver(bytes));
    expect([...metadata.values.keys()]).toEqual(["general.architecture", "x.count", "x.signed", "x.ratio", "x.flag", "x.words", "x.types"]);
    expect(ggufNumber(metadata, "x.signed")).toBe(-3);
    expect(ggufNumber(metadata, "x.ratio")).toBe(0.5);
    expect(ggufStrings(metadata, "x.words")).toEqual(["a", "ü", ""]);
    expect(Array.from(ggufNumbers(metadata, "x.types")!)).toEqual([1, 3, -1]);
    expect(metadata.metadataBytes).toBe(bytes.length);
  });

  it("reads values that cross the reader's chunk boundaries", async () => {
    const long = "x".repeat(3 * 1024 * 1024 + 17);
    const bytes = ggufWith({ a: { type: "string", value: long }, b: { type: "strings", value: Array.from({ length: 5000 }, (_, i) => `t${i}`) } });
    const metadata = await readGgufMetadata(readerOver(bytes));
    expect(ggufString(metadata, "a")).toHaveLength(long.length);
    expect(ggufStrings(metadata, "b")![4999]).toBe("t4999");
  });

  const refusals: Array<[string, Uint8Array, RegExp]> = [
    ["not GGUF", new TextEncoder().encode("PK\u0003\u0004 a zip, not a model"), /does not start with "GGUF"/],
    ["too short", new TextEncoder().encode("GG"), /shorter than a GGUF header/],
    ["version 1", new GgufBytes().header(0, 1).toBytes(), /version 1/],
    ["absurd key count", new GgufBytes().bytes(new TextEncoder().encode("GGUF")).u32(3).u64(0).u64(1n << 40n).toBytes(), /key\/value count is 1099511627776/],
    ["absurd array", new GgufBytes().header(1).string("tokenizer.ggml.tokens").u32(9).u32(8).u64(1n << 60n).toBytes(), /element count of "tokenizer.ggml.tokens" is/],
    ["absurd string", new GgufBytes().header(1).string("tokenizer.chat_template").u32(8).u64(1n << 62n).toBytes(), /length of value of "tokenizer.chat_template"/],
    ["unknown type", new GgufBytes().header(1).string("x").u32(99).toBytes(), /"x" has an unknown value type 99/],
    ["bad boolean", new GgufBytes().header(1).string("x").u32(7).bytes([5]).toBytes(), /"x" holds 5/],
    ["bad UTF-8", new GgufBytes().header(1).string("x").u32(8).u64(2).bytes([0xc3, 0x28]).toBytes(), /not valid UTF-8/],
    ["duplicate key", new GgufBytes().header(2).entry("x", { type: "u32", value: 1 }).entry("x", { type: "u32", value: 2 }).toBytes(), /"x" appears twice/],
  ];
  it.each(refusals)("refuses %s with a message naming what is wrong", async (_name, bytes, message) => {
    const error = await readGgufMetadata(readerOver(bytes)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GgufFormatError);
    expect((error as Error).message).toMatch(message);
  });

  it("says a truncated file is truncated, naming the key it was reading", async () => {
    const whole = ggufWith({ "general.name": { type: "string", value: "n" }, "tokenizer.ggml.tokens": { type: "strings", value: ["a", "b", "c", "d"] } });
    for (let cut = 24; cut < whole.length; cut++) {
      const error = await readGgufMetadata(readerOver(whole.slice(0, cut))).catch((caught: unknown) => caught);
      expect(error, `cut at ${cut}`).toBeInstanceOf(GgufFormatError);
      expect((error as Error).message).toMatch(/truncated/);
    }
    const error = await readGgufMetadata(readerOver(whole.slice(0, whole.length - 1))).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/"tokenizer.ggml.tokens"/);
  });

  it("stops at the metadata size limit instead of reading on", async () => {
    const bytes = ggufWith({ a: { type: "string", value: "y".repeat(5000) } });
    await expect(readGgufMetadata(readerOver(bytes), { maxMetadataBytes: 1000 })).rejects.toThrow(/larger than 1000 bytes/);
  });

  it("a typed look-up of the wrong type throws, naming the key", async () => {
    const metadata = await readGgufMetadata(readerOver(ggufWith({ "general.name": { type: "u32", value: 1 } })));
    expect(() => ggufString(metadata, "general.name")).toThrow(/"general.name" should hold text/);
  });
});

describe("readers", () => {
  it("a Blob reader reads only the slices asked for", async () => {
    const bytes = ggufWith({ "general.architecture": { type: "string", value: "gemma3" } });
    const metadata = await readGgufMetadata(ggufReaderForBlob(new Blob([bytes.slice(), new Uint8Array(10_000)])));
    expect(ggufString(metadata, "general.architecture")).toBe("gemma3");
  });

  it("a URL reader sends Range requests and refuses a server that ignores them", async () => {
    const bytes = ggufWith({ "general.architecture": { type: "string", value: "llama" } });
    const ranges: string[] = [];
    const ranged = (async (_url: string, init?: RequestInit) => {
      const range = new Headers(init?.headers).get("Range")!;
      ranges.push(range);
      const [from, to] = range.replace("bytes=", "").split("-").map(Number);
      return new Response(bytes.slice(from, to! + 1), { status: 206 });
    }) as typeof fetch;
    const metadata = await readGgufMetadata(ggufReaderForUrl("/models/x.gguf", ranged));
    expect(ggufString(metadata, "general.architecture")).toBe("llama");
    expect(ranges[0]).toBe(`bytes=0-${1024 * 1024 - 1}`);
    const whole = (async () => new Response(bytes, { status: 200 })) as typeof fetch;
    await expect(readGgufMetadata(ggufReaderForUrl("/models/x.gguf", whole))).rejects.toThrow(/does not answer byte-range requests/);
    const missing = (async () => new Response("no", { status: 404, statusText: "Not Found" })) as typeof fetch;
    await expect(readGgufMetadata(ggufReaderForUrl("/models/x.gguf", missing))).rejects.toThrow(/404 Not Found/);
  });
});

describe("ggufModelFacts", () => {
  it.each([
    ["smollm2-135m-instruct-q4_1", { contextLength: 8192, bosToken: "<|im_start|>", eosToken: "<|im_end|>", addsBos: false }],
    ["gemma-3-270m-q4_k_m", { contextLength: 32768, bosToken: "<bos>", eosToken: "<eos>", addsBos: true, chatTemplate: undefined }],
  ])("%s", async (id, expected) => {
    const model = realModel(id);
    if (missingModel(model)) return;
    const facts = ggufModelFacts(await withFileReader(model.path, (read) => readGgufMetadata(read)));
    expect(facts).toMatchObject(expected);
  });
});

describe("strings as written", () => {
  it("keeps a leading byte-order mark (Gemma 3 has both \"\\uFEFF//\" and \"//\" as tokens)", async () => {
    const metadata = await readGgufMetadata(readerOver(ggufWith({ t: { type: "strings", value: ["\uFEFF//", "//"] } })));
    expect(ggufStrings(metadata, "t")).toEqual(["\uFEFF//", "//"]);
  });
});
