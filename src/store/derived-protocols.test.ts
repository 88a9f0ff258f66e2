// Derived protocols survive a reload: the template each came from is remembered, and a new page's
// store (the same storage) derives the protocol again when a turn, the header or the debugger asks.
import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import { createDerivedProtocolStore, deriveEntryInThePage, KEPT_TWINS, REMEMBERED_TEMPLATES, REMEMBERED_TEMPLATES_KEY, type DeriveEntry } from "./derived-protocols.ts";

const QWEN = readFileSync(new URL("../engine/templates/llama-cpp-templates/Qwen-Qwen2.5-7B-Instruct.jinja", import.meta.url), "utf8");
const TOOLS = [{ name: "get_time", description: "", parameters: { type: "object", properties: { zone: { type: "string" } } } }];
const CALL = '<tool_call>\n{"name": "get_time", "arguments": {"zone": "UTC"}}\n</tool_call>';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}

async function derived(name: string, template = QWEN) {
  const entry = await deriveEntryInThePage(template, name);
  if ("reason" in entry) throw new Error(entry.reason);
  return entry;
}

describe("derived protocols across a reload", () => {
  it("a new page's store derives the protocol again from the remembered template, and it reads the same calls", async () => {
    const storage = memoryStorage();
    const before = createDerivedProtocolStore({ storage });
    before.getState().add(await derived("template:mystery.gguf"));

    const after = createDerivedProtocolStore({ storage });
    expect(after.getState().entries).toEqual({});
    expect(after.getState().remembers("template:mystery.gguf")).toBe(true);
    const protocol = await after.getState().restore("template:mystery.gguf");
    expect(protocol?.name).toBe("template:mystery.gguf");
    expect(parseAll(protocol!, TOOLS, [CALL]).calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual([{ name: "get_time", arguments: { zone: "UTC" } }]);
    expect(after.getState().entries["template:mystery.gguf"]?.lines[0]).toBe("A call is `<tool_call>` + JSON {name, arguments} + `</tool_call>`.");
  });

  it("a name nothing was derived for is not a derived protocol (the registry answers it)", async () => {
    const store = createDerivedProtocolStore({ storage: memoryStorage() });
    expect(await store.getState().restore("hermes")).toBeUndefined();
    expect(await store.getState().restore("template:never-seen.gguf")).toBeUndefined();
  });

  it(`remembers the last ${REMEMBERED_TEMPLATES} models' templates, the newest first`, async () => {
    const storage = memoryStorage();
    const store = createDerivedProtocolStore({ storage });
    const entry = await derived("template:m0.gguf");
    for (let i = 0; i <= REMEMBERED_TEMPLATES; i++) store.getState().add({ ...entry, protocol: { ...entry.protocol, name: `template:m${i}.gguf` } });
    const names = (JSON.parse(storage.items.get(REMEMBERED_TEMPLATES_KEY)!) as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(Array.from({ length: REMEMBERED_TEMPLATES }, (_, i) => `template:m${REMEMBERED_TEMPLATES - i}.gguf`));
    expect(createDerivedProtocolStore({ storage }).getState().remembers("template:m0.gguf")).toBe(false);
  });

  it("a remembered record that is not what the page writes is dropped, and the store still works", async () => {
    for (const stored of ["{not json", '{"name": "template:x"}', '[{"name": "hermes", "template": "x"}, {"name": "template:y", "template": 42}, null]']) {
      const store = createDerivedProtocolStore({ storage: memoryStorage({ [REMEMBERED_TEMPLATES_KEY]: stored }) });
      expect(store.getState().remembers("template:x") || store.getState().remembers("template:y") || store.getState().remembers("hermes")).toBe(false);
      expect(await store.getState().restore("template:y")).toBeUndefined();
    }
  });

  it("a remembered template that no longer derives resolves to nothing and says why", async () => {
    const storage = memoryStorage({ [REMEMBERED_TEMPLATES_KEY]: JSON.stringify([{ name: "template:plain.gguf", template: "{% for m in messages %}{{ m.content }}{% endfor %}" }]) });
    const store = createDerivedProtocolStore({ storage });
    expect(await store.getState().restore("template:plain.gguf")).toBeUndefined();
    expect(store.getState().failures["template:plain.gguf"]).toMatch(/^cannot derive: /);
  });

  it("a derivation that throws is a reason, not a rejected turn", async () => {
    const storage = memoryStorage({ [REMEMBERED_TEMPLATES_KEY]: JSON.stringify([{ name: "template:x.gguf", template: "anything" }]) });
    const store = createDerivedProtocolStore({ storage, derive: () => Promise.reject(new Error("worker gone")) });
    expect(await store.getState().restore("template:x.gguf")).toBeUndefined();
    expect(store.getState().failures["template:x.gguf"]).toBe("cannot derive: worker gone");
  });

  it("asks for one derivation when several turns ask at once", async () => {
    const storage = memoryStorage({ [REMEMBERED_TEMPLATES_KEY]: JSON.stringify([{ name: "template:mystery.gguf", template: QWEN }]) });
    const derive = vi.fn<DeriveEntry>(deriveEntryInThePage);
    const store = createDerivedProtocolStore({ storage, derive });
    const [a, b] = await Promise.all([store.getState().restore("template:mystery.gguf"), store.getState().restore("template:mystery.gguf")]);
    expect(a).toBe(b);
    expect(derive).toHaveBeenCalledTimes(1);
  });

  it("when the storage is full, the protocol still works on this page and nothing half-written is kept", async () => {
    const storage = { getItem: () => null, setItem: () => { throw new DOMException("quota", "QuotaExceededError"); } };
    const store = createDerivedProtocolStore({ storage });
    store.getState().add(await derived("template:mystery.gguf"));
    expect(await store.getState().restore("template:mystery.gguf")).toBeDefined();
    expect(store.getState().remembers("template:mystery.gguf")).toBe(false);
  });
});

describe("the kept derivation worker after a reload", () => {
  /** The page's DerivationWorker over a worker that records what it is asked (and never answers). */
  async function keptWorker() {
    const { DerivationWorker } = await import("../engine/templates/derivation-worker.ts");
    const posted: unknown[] = [];
    const worker = new DerivationWorker(() => ({ postMessage: (message: unknown) => void posted.push(message), terminate: () => undefined, onmessage: null, onerror: null, onmessageerror: null }));
    return { worker, posted };
  }

  it("warms up as the page's store opens when a template is remembered, so its derivation runs warm", async () => {
    const storage = memoryStorage();
    createDerivedProtocolStore({ storage }).getState().add(await derived("template:mystery.gguf"));
    const { worker, posted } = await keptWorker();
    createDerivedProtocolStore({ storage, derivationWorker: worker });
    expect(posted).toEqual([{ id: 1, kind: "warm-up" }]);
  });

  it("starts no worker when nothing is remembered", async () => {
    const { worker, posted } = await keptWorker();
    createDerivedProtocolStore({ storage: memoryStorage(), derivationWorker: worker });
    expect(posted).toEqual([]);
  });
});

describe("a step's model template derived for a re-read (Parse as… the format derived from its template)", () => {
  const format = async (template: string) => {
    const { deriveFromTemplate } = await import("../engine/templates/derived-from-template.ts");
    const derivation = deriveFromTemplate(template, "test");
    return derivation.ok ? { ok: true as const, format: derivation.format } : { ok: false as const, reason: derivation.reason };
  };

  it("derives the format and its words once per template, through the given derivation", async () => {
    const deriveFormat = vi.fn(format);
    const store = createDerivedProtocolStore({ storage: memoryStorage(), deriveFormat });
    const [first, second] = await Promise.all([store.getState().twinOf(QWEN), store.getState().twinOf(QWEN)]);
    expect(first).toBe(second);
    expect(await store.getState().twinOf(QWEN)).toBe(first);
    expect(deriveFormat).toHaveBeenCalledTimes(1);
    if (!first.ok) throw new Error(first.reason);
    expect(first.lines[0]).toBe("A call is `<tool_call>` + JSON {name, arguments} + `</tool_call>`.");
    expect(first.format.callOpen).toBe("<tool_call>");
    // The twin is not a protocol of the page's: nothing is added or remembered.
    expect(store.getState().entries).toEqual({});
  });

  it("a template that writes no calls says cannot derive, and is derived again when asked again", async () => {
    const smollm2 = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
    const deriveFormat = vi.fn(format);
    const store = createDerivedProtocolStore({ storage: memoryStorage(), deriveFormat });
    const result = await store.getState().twinOf(smollm2);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^cannot derive: the template writes nothing for a tool call/) });
    await store.getState().twinOf(smollm2);
    expect(deriveFormat).toHaveBeenCalledTimes(2);
  });

  it("a derivation that throws, or a reason worded otherwise, still reads cannot derive: …", async () => {
    const store = createDerivedProtocolStore({
      storage: memoryStorage(),
      deriveFormat: async (template) => {
        if (template === "throws") throw new Error("the worker went away");
        return { ok: false, reason: "no markers" };
      },
    });
    expect(await store.getState().twinOf("throws")).toEqual({ ok: false, reason: "cannot derive: the worker went away" });
    expect(await store.getState().twinOf("plain")).toEqual({ ok: false, reason: "cannot derive: no markers" });
  });

  it(`keeps the last ${KEPT_TWINS} templates' derivations: an older one is derived again`, async () => {
    const deriveFormat = vi.fn(format);
    const store = createDerivedProtocolStore({ storage: memoryStorage(), deriveFormat });
    const variant = (i: number) => `${QWEN}${" ".repeat(i + 1)}`;
    await store.getState().twinOf(QWEN);
    for (let i = 0; i < KEPT_TWINS; i++) await store.getState().twinOf(variant(i));
    expect(deriveFormat).toHaveBeenCalledTimes(1 + KEPT_TWINS);
    await store.getState().twinOf(variant(KEPT_TWINS - 1));
    expect(deriveFormat).toHaveBeenCalledTimes(1 + KEPT_TWINS);
    await store.getState().twinOf(QWEN);
    expect(deriveFormat).toHaveBeenCalledTimes(2 + KEPT_TWINS);
  });
});

describe("a known family's derived protocol offered in the header (offer)", () => {
  it("derives and adds it (remembered for a reload), or keeps why not; the page's choice is not changed here", async () => {
    const storage = memoryStorage();
    const store = createDerivedProtocolStore({ storage });
    const protocol = await store.getState().offer(QWEN, "template:smol.gguf");
    expect(protocol?.name).toBe("template:smol.gguf");
    expect(store.getState().entries["template:smol.gguf"]?.protocol).toBe(protocol);
    expect(createDerivedProtocolStore({ storage }).getState().remembers("template:smol.gguf")).toBe(true);

    expect(await store.getState().offer("{{ messages[0].content }}", "template:plain.gguf")).toBeUndefined();
    expect(store.getState().failures["template:plain.gguf"]).toMatch(/^cannot derive: /);
    const throwing = createDerivedProtocolStore({ storage: memoryStorage(), derive: () => Promise.reject(new Error("the worker went away")) });
    expect(await throwing.getState().offer(QWEN, "template:x.gguf")).toBeUndefined();
    expect(throwing.getState().failures["template:x.gguf"]).toBe("cannot derive: the worker went away");
  });
});
