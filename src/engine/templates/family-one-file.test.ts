// Adding a model family is one file plus one registry line (issue 28, "Also"). Two checks:
// 1. A made-up family, one object in a registry line, is picked up everywhere a family is looked
//    up: the WebLLM model picker, the WebLLM record lookup, the server-name lookup, the server
//    pane's thinking switch, the recommended protocol and render-prompt. To put it in a registry
//    line without editing registry.ts, the test replaces the module of one line (FunctionGemma's,
//    which nothing else imports) with one that exports the made-up family under that line's name,
//    and the light family index with the one scripts/write-family-index.ts writes from that registry.
// 2. No module outside families/ keeps a table keyed by family (which a new family would have to
//    extend): a grep over the sources, with a short allow-list.
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import type { ModelFamily } from "toolcall-middleware/families/types.ts";
import { families, familyOfServerModel, familyOfWebLlmModel, recommendedProtocol, sampleWebLlmModel, webllmModelRecords, webllmRecordOf } from "toolcall-middleware/families/registry.ts";
import { inferServerTemplate, serverTemplateHasThinkingSwitch, serverTemplateNames } from "toolcall-middleware/families/server-templates.ts";
import { buildCatalog, catalog, findModel } from "../webllm/model-catalog.ts";
import { renderPromptRequest } from "./prompt-request.ts";

vi.mock("toolcall-middleware/families/functiongemma.ts", async () => {
  const { qwen3 } = await import("toolcall-middleware/families/qwen3.ts");
  const made: ModelFamily = {
    id: "acme-chat",
    label: "Acme Chat",
    templateName: "acme_chat",
    templateLabel: "Acme Chat (ChatML)",
    webllmIds: /^Acme-Chat-\d/i,
    webllmModels: {
      records: [
        { model_id: "Acme-Chat-2B-q4f16_1-MLC", model: "Acme-Chat-2B-q4f16_1-MLC", model_lib: "Acme-Chat-2B-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 1500.5, low_resource_required: true, overrides: { context_window_size: 4096 } },
        { model_id: "Acme-Chat-2B-q4f32_1-MLC", model: "Acme-Chat-2B-q4f32_1-MLC", model_lib: "Acme-Chat-2B-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 2100, low_resource_required: true, overrides: { context_window_size: 4096 }, paramsB: 2.2 },
      ],
      promptStart: "<|im_start|>system\n",
      endTokens: ["<|im_end|>"],
    },
    serverNames: /acme-?chat/i,
    conv: { template: { ...qwen3.conv!.template, name: "acme_chat" }, extras: qwen3.conv!.extras },
    thinking: { defaultOn: true, otherwiseFor: /-2B-/ },
    controlTokens: qwen3.controlTokens,
    protocol: { trained: "hermes", fallback: "xml", why: "Acme Chat was trained on Hermes-style <tool_call> JSON" },
    sampling: qwen3.sampling,
    kvState: "kv_cache",
    contextNotes: "made up for a test",
  };
  return { functionGemma: made };
});

// The light index the first screen reads (family-index-data.ts) as `npx tsx scripts/write-family-index.ts`
// writes it from this registry: the one step besides the file and the line.
vi.mock("toolcall-middleware/families/family-index-data.ts", async () => {
  const [{ families: registered }, { familyIndexEntry }] = await Promise.all([import("toolcall-middleware/families/registry.ts"), import("toolcall-middleware/families/family-index-entry.ts")]);
  return { familyIndexEntries: registered.map(familyIndexEntry) };
});

describe("a made-up family in one registry line", () => {
  const acme = () => families.find((f) => f.id === "acme-chat")!;

  it("is in the registry (standing in for FunctionGemma's line)", () => {
    expect(acme()).toBeDefined();
    expect(families.some((f) => f.id === "functiongemma")).toBe(false);
  });

  it("its WebLLM models are in the model picker, with what its records say", () => {
    const models = catalog.filter((m) => m.familyId === "acme-chat");
    expect(models.map((m) => m.id).sort()).toEqual(["Acme-Chat-2B-q4f16_1-MLC", "Acme-Chat-2B-q4f32_1-MLC"]);
    expect(findModel("Acme-Chat-2B-q4f16_1-MLC")).toMatchObject({ family: "Acme Chat", template: "acme_chat", vramMB: 1501, paramsB: 2, contextWindow: 4096, fitsToolPrompt: true, needsShaderF16: true });
    // A record's paramsB wins over the size the id spells.
    expect(findModel("Acme-Chat-2B-q4f32_1-MLC")?.paramsB).toBe(2.2);
    expect(buildCatalog()).toEqual(catalog);
  });

  it("its WebLLM records are found by model id", () => {
    expect(webllmModelRecords.filter((r) => r.model_id.startsWith("Acme-Chat-"))).toHaveLength(2);
    expect(webllmRecordOf("Acme-Chat-2B-q4f32_1-MLC")?.model_lib).toBe("Acme-Chat-2B-q4f32_1_cs1k-webgpu.wasm");
    expect(familyOfWebLlmModel("Acme-Chat-2B-q4f32_1-MLC")?.id).toBe("acme-chat");
    expect(sampleWebLlmModel(acme())).toBe("Acme-Chat-2B-q4f16_1-MLC");
  });

  it("a server's model name finds it, and the server pane offers its template and its thinking switch", () => {
    expect(familyOfServerModel("acme/Acme-Chat-7B-Instruct")?.id).toBe("acme-chat");
    expect(inferServerTemplate("acme/Acme-Chat-7B-Instruct")).toBe("acme_chat");
    expect(serverTemplateNames).toContain("acme_chat");
    expect(serverTemplateHasThinkingSwitch("acme_chat")).toBe(true);
    expect(recommendedProtocol("acme/acme-chat-7b").protocol).toBe("hermes");
  });

  it("render-prompt renders with it, the thinking default its own (off for the 2B, on for a 7B)", () => {
    const request = { messages: [{ role: "user", content: "Hi" }], systemPrompt: "S" };
    const small = renderPromptRequest({ ...request, model: "Acme-Chat-2B-q4f16_1-MLC" });
    expect(small.startsWith(acme().webllmModels!.promptStart)).toBe(true);
    expect(small.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
    const large = renderPromptRequest({ ...request, model: "acme/Acme-Chat-7B-Instruct" });
    expect(large.endsWith("<|im_start|>assistant\n")).toBe(true);
  });
});

/** The family names a source uses as table keys: an object key (`qwen3: …`, `"llama-3_1": …`) or the head of a row (`["llama-3_1", …]`). */
function familyKeys(source: string, names: ReadonlySet<string>): Set<string> {
  const keys = new Set<string>();
  for (const m of source.matchAll(/^\s*(?:"([^"\n]+)"|([A-Za-z_$][\w$.-]*))\s*:/gm)) if (names.has(m[1] ?? m[2]!)) keys.add(m[1] ?? m[2]!);
  for (const m of source.matchAll(/(?:^\s*|\[\s*)\[\s*"([^"\n]+)"\s*,/gm)) if (names.has(m[1]!)) keys.add(m[1]!);
  return keys;
}

describe("no per-family table outside families/", () => {
  /**
   * Files that may name families in a table, and why:
   * - the WebLLM stand-in (tests and benchmarks only) gives its scripted tokenizer the control
   *   token ids of the families whose WebLLM tests run on it; every other family gets Qwen's, so a
   *   new family needs no line there.
   */
  // derived-protocols.test.ts pairs hand-written protocols with llama.cpp's vendor template files
  // (fixtures) to test each against its derived twin: the names are protocols', not a family's behaviour.
  const ALLOWED = new Set(["src/engine/webllm/testing/stand-in-load.ts", "src/engine/templates/derived-protocols.test.ts"]);

  it("no source file keys a table by three or more family ids or template names", () => {
    const names = new Set(families.flatMap((f) => [f.id, f.templateName, ...(f.formerTemplateNames ?? [])]));
    // FunctionGemma's line holds the made-up family in this file; its real names count too.
    for (const name of ["functiongemma"]) names.add(name);
    const files = execFileSync("git", ["ls-files", "src", "scripts", "e2e", "packages/toolcall-middleware/src"], { encoding: "utf8" })
      .split("\n")
      .filter((file) => /\.tsx?$/.test(file) && !file.startsWith("packages/toolcall-middleware/src/families/"));
    expect(files.length).toBeGreaterThan(100);
    const tables: string[] = [];
    for (const file of files) {
      const keys = familyKeys(readFileSync(file, "utf8"), names);
      if (keys.size >= 3 && !ALLOWED.has(file)) tables.push(`${file}: ${[...keys].join(", ")}`);
    }
    expect(tables).toEqual([]);
  });

  it("the check finds the kinds of table this work removed (it can fail)", () => {
    const names = new Set(["qwen3", "llama-3_1", "chatml", "hermes3_llama-3_1"]);
    // chat-path.test.ts's model per template name, and its rows of framing cases, as they were.
    const keyed = 'const MODELS: Record<ConvTemplateName, string> = {\n  qwen3: "Qwen3-1.7B-q4f16_1-MLC",\n  "llama-3_1": "Llama-3.1-8B-Instruct-q4f32_1-MLC",\n  chatml: "SmolLM2-1.7B-Instruct-q4f16_1-MLC",\n};';
    const rows = 'const cases = [\n    ["llama-3_1", "llama3-json", "Environment"],\n    ["chatml", "hermes", "x"],\n    ["hermes3_llama-3_1", "hermes", "<|im_start|>tool"],\n  ];';
    expect([...familyKeys(keyed, names)]).toEqual(["qwen3", "llama-3_1", "chatml"]);
    expect([...familyKeys(rows, names)]).toEqual(["llama-3_1", "chatml", "hermes3_llama-3_1"]);
    // A template name in a value or in prose is no table.
    expect(familyKeys('const x = { template: "qwen3" }; // qwen3: the replay family', names).size).toBe(0);
  });
});
