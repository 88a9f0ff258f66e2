// Protocols derived from a model's own chat template (a GGUF whose family the lab does not know):
// not in the registry (which holds the hand-written ones), kept here by name (`template:<model>`)
// for the page's turns to resolve, with the derivation in words for the debugger.
//
// The templates they came from are remembered in localStorage (the last few), so that after a
// reload the conversation's turns, the header's choice and the debugger still find their
// protocol: it is derived again from the remembered template (in a worker) the first time it is
// asked for. What is remembered is only the template's text; a remembered record that is not
// what this file writes is dropped, and a template that no longer derives says why.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { Protocol } from "toolcall-middleware/types.ts";
import type { DerivationWorker } from "../engine/templates/derivation-worker.ts";
import type { FormatDerivation } from "../engine/templates/derive-off-thread.ts";
import type { DerivedFormat } from "toolcall-middleware/derive/derive-format.ts";

export const DERIVED_PROTOCOL_PREFIX = "template:";

export interface DerivedProtocolEntry {
  protocol: Protocol;
  /** The derived format in words (describeDerivedFormat). */
  lines: string[];
  /** The chat template it was derived from (remembered, to derive it again after a reload). */
  template: string;
}

export interface DerivedProtocols {
  entries: Readonly<Record<string, DerivedProtocolEntry>>;
  /** Why a remembered template did not derive again, by protocol name. */
  failures: Readonly<Record<string, string>>;
  add: (entry: DerivedProtocolEntry) => void;
  /** Whether a template is remembered for this protocol name (derivable again after a reload). */
  remembers: (name: string) => boolean;
  /** The protocol, derived again from its remembered template when this page has not derived it yet; undefined when none is remembered or it does not derive. */
  restore: (name: string) => Promise<Protocol | undefined>;
  /**
   * Derives the protocol `name` from a model's own template and adds it (the header then offers
   * it), or keeps why not in `failures`; the protocol, or undefined. For a known family's GGUF,
   * whose calls the family's protocol reads: its derived twin is offered beside it.
   */
  offer: (template: string, name: string) => Promise<Protocol | undefined>;
  /**
   * The call format derived from a recorded step's model chat template (the debugger's "Parse as…
   * the format derived from its template"), with its words, or why it cannot be derived. Derived
   * in the page's kept worker; the same template asks once (the last few are kept).
   */
  twinOf: (template: string) => Promise<TwinDerivation>;
}

/** A step's model template derived for a re-read: the format (plain data, for the re-read's worker) and its words. */
export type TwinDerivation = { ok: true; format: DerivedFormat; lines: string[] } | { ok: false; reason: string };

/** Derives a template's call format (the page's: in its kept worker), or says why not. */
export type DeriveFormat = (template: string, name: string) => Promise<FormatDerivation>;

/** How many templates' twin derivations are kept (a conversation has one model, or a few). */
export const KEPT_TWINS = 4;

export type DerivedProtocolStore = StoreApi<DerivedProtocols>;

/** Derives the protocol `name` from `template` (the page's: in a worker), or says why not. */
export type DeriveEntry = (template: string, name: string) => Promise<DerivedProtocolEntry | { reason: string }>;

export const REMEMBERED_TEMPLATES_KEY = "toolcall-lab:derived-templates";
/** Templates are tens of kilobytes: the last few models' are enough to reopen their conversations. */
export const REMEMBERED_TEMPLATES = 4;

interface RememberedTemplate {
  name: string;
  template: string;
}

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

const pageStorage = (): Storage | undefined => {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
};

function isRemembered(value: unknown): value is RememberedTemplate {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.name === "string" && record.name.startsWith(DERIVED_PROTOCOL_PREFIX) && typeof record.template === "string" && record.template.trim() !== "";
}

function recall(storage: Storage | undefined): RememberedTemplate[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(REMEMBERED_TEMPLATES_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isRemembered).slice(0, REMEMBERED_TEMPLATES) : [];
  } catch {
    return [];
  }
}

/** Writes the newest first; when the storage is full, the oldest go until it fits (or none is kept: the page still works). */
function remember(storage: Storage | undefined, records: RememberedTemplate[]): RememberedTemplate[] {
  for (let kept = Math.min(records.length, REMEMBERED_TEMPLATES); kept >= 0; kept--) {
    try {
      storage?.setItem(REMEMBERED_TEMPLATES_KEY, JSON.stringify(records.slice(0, kept)));
      return records.slice(0, kept);
    } catch {
      // Over the quota: try with one fewer.
    }
  }
  return [];
}

/**
 * The page's derivation: the format in the page's kept derivation worker (or, without one, a
 * worker of its own), the protocol and its words here (code loaded on demand); the protocol's
 * tool section is the template's own rendering, made in a worker of its own that stays open with
 * the protocol (the page's thread never runs a file's template).
 */
export const deriveEntryThrough = (derivationWorker?: DerivationWorker): DeriveEntry => async (template, name) => {
  const [{ deriveFormatOffThread, protocolOfDerivedFormat }, { describeDerivedFormat }, { OffThreadTemplate }] = await Promise.all([
    import("../engine/templates/derive-off-thread.ts"),
    import("toolcall-middleware/derive/describe-format.ts"),
    import("../engine/templates/off-thread-template.ts"),
  ]);
  const model = name.slice(DERIVED_PROTOCOL_PREFIX.length);
  const derivation = derivationWorker ? await derivationWorker.derive(template, model) : await deriveFormatOffThread(template, model);
  if (!derivation.ok) return { reason: derivation.reason };
  const renderer = await OffThreadTemplate.open(template, `The chat template of ${model}`);
  const protocol = protocolOfDerivedFormat(derivation.format, { name, label: `Derived from the template of ${model}` }, (variables) => renderer.render(variables));
  return { protocol, lines: describeDerivedFormat(derivation.format), template };
};

/** The page's derivation in a worker of its own (tests; the page passes its kept one: deriveEntryThrough). */
export const deriveEntryInThePage: DeriveEntry = deriveEntryThrough();

/** The format alone, in the page's kept derivation worker (or, without one, a worker of its own). */
export const deriveFormatThrough =
  (derivationWorker?: DerivationWorker): DeriveFormat =>
  async (template, name) => {
    if (derivationWorker) {
      const { ms: _ms, ...derivation } = await derivationWorker.derive(template, name);
      return derivation;
    }
    const { deriveFormatOffThread } = await import("../engine/templates/derive-off-thread.ts");
    return deriveFormatOffThread(template, name);
  };

/** "cannot derive: …", however the reason was worded. */
function cannotDerive(reason: string): string {
  return /^cannot derive\b/i.test(reason) ? reason : `cannot derive: ${reason}`;
}

export function createDerivedProtocolStore({
  storage = pageStorage(),
  derivationWorker,
  derive = deriveEntryThrough(derivationWorker),
  deriveFormat = deriveFormatThrough(derivationWorker),
}: { storage?: Storage; derivationWorker?: DerivationWorker; derive?: DeriveEntry; deriveFormat?: DeriveFormat } = {}): DerivedProtocolStore {
  let remembered = recall(storage);
  // A remembered template is derived again when it is asked for, often soon after the page opens:
  // the kept worker warms up now (off the page's thread), so that derivation runs warm.
  if (remembered.length > 0) void derivationWorker?.warmUp();
  const pending = new Map<string, Promise<Protocol | undefined>>();
  // Twin derivations by template text, the newest last (a Map keeps the order of insertion).
  const twins = new Map<string, Promise<TwinDerivation>>();
  return createStore<DerivedProtocols>()((set, get) => ({
    entries: {},
    failures: {},
    add: (entry) => {
      const name = entry.protocol.name;
      remembered = remember(storage, [{ name, template: entry.template }, ...remembered.filter((r) => r.name !== name)]);
      set((state) => ({ entries: { ...state.entries, [name]: entry } }));
    },
    remembers: (name) => remembered.some((r) => r.name === name),
    restore: (name) => {
      const live = get().entries[name];
      if (live) return Promise.resolve(live.protocol);
      const record = remembered.find((r) => r.name === name);
      if (!record) return Promise.resolve(undefined);
      let restoring = pending.get(name);
      if (!restoring) {
        restoring = derive(record.template, name)
          .catch((error: unknown) => ({ reason: `cannot derive: ${error instanceof Error ? error.message : String(error)}` }))
          .then((result) => {
            pending.delete(name);
            if ("reason" in result) {
              set((state) => ({ failures: { ...state.failures, [name]: result.reason } }));
              return undefined;
            }
            // Added as it was: the same template, so the same place among the remembered ones.
            set((state) => ({ entries: { ...state.entries, [name]: result } }));
            return result.protocol;
          });
        pending.set(name, restoring);
      }
      return restoring;
    },
    offer: async (template, name) => {
      const result = await derive(template, name).catch((error: unknown) => ({ reason: cannotDerive(error instanceof Error ? error.message : String(error)) }));
      if ("reason" in result) {
        set((state) => ({ failures: { ...state.failures, [name]: cannotDerive(result.reason) } }));
        return undefined;
      }
      get().add(result);
      return result.protocol;
    },
    twinOf: (template) => {
      const kept = twins.get(template);
      if (kept) {
        twins.delete(template);
        twins.set(template, kept);
        return kept;
      }
      const twin = (async (): Promise<TwinDerivation> => {
        const derivation = await deriveFormat(template, "the step's model template");
        if (!derivation.ok) return { ok: false, reason: cannotDerive(derivation.reason) };
        const { describeDerivedFormat } = await import("toolcall-middleware/derive/describe-format.ts");
        return { ok: true, format: derivation.format, lines: describeDerivedFormat(derivation.format) };
      })().catch((error: unknown): TwinDerivation => ({ ok: false, reason: cannotDerive(error instanceof Error ? error.message : String(error)) }));
      twins.set(template, twin);
      // A failure is not kept: asked again, it derives again (a busy worker's refusal may pass next time).
      void twin.then((result) => {
        if (!result.ok && twins.get(template) === twin) twins.delete(template);
      });
      while (twins.size > KEPT_TWINS) twins.delete(twins.keys().next().value!);
      return twin;
    },
  }));
}

/** The protocol name of a model's derived protocol. */
export function derivedProtocolName(modelName: string): string {
  return `${DERIVED_PROTOCOL_PREFIX}${modelName}`;
}
