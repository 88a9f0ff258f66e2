// A template's call format derived in a worker where the page has workers (derive-format.worker.ts),
// else here (Node, tests); then the protocol built from it on this side, with the template's own
// bounded renderer for its tool section. A worker that fails gives "cannot derive: …", never a
// failed model load.
import type { DerivedFormat } from "toolcall-middleware/derive/derive-format.ts";
import { derivedProtocol } from "toolcall-middleware/derive/derived-protocol.ts";
import type { Protocol } from "toolcall-middleware/types.ts";
import type { TemplateRenderer } from "toolcall-middleware/derive/probes.ts";
import { deriveFromTemplate } from "./derived-from-template.ts";

export interface FormatDerivationRequest {
  source: string;
  name: string;
}

export type FormatDerivation = { ok: true; format: DerivedFormat } | { ok: false; reason: string };

export async function deriveFormatOffThread(source: string, name: string): Promise<FormatDerivation> {
  if (typeof Worker === "undefined") {
    const derivation = deriveFromTemplate(source, name);
    return derivation.ok ? { ok: true, format: derivation.format } : { ok: false, reason: derivation.reason };
  }
  const worker = new Worker(new URL("./derive-format.worker.ts", import.meta.url), { type: "module", name: "template derivation" });
  try {
    return await new Promise<FormatDerivation>((resolve) => {
      worker.onmessage = (event: MessageEvent<FormatDerivation>) => resolve(event.data);
      worker.onerror = (event) => resolve({ ok: false, reason: `cannot derive: the derivation's worker failed (${event.message || "script error"})` });
      worker.onmessageerror = () => resolve({ ok: false, reason: "cannot derive: the derivation's worker sent a message the page could not read" });
      worker.postMessage({ source, name } satisfies FormatDerivationRequest);
    });
  } finally {
    worker.terminate();
  }
}

/**
 * The protocol of a derived format, its tool section written by the template itself through
 * `render` (a GGUF's: its worker, off-thread-template.ts).
 */
export function protocolOfDerivedFormat(format: DerivedFormat, names: { name: string; label: string }, render: TemplateRenderer): Protocol {
  return derivedProtocol(format, { ...names, render });
}
