// A template's call format derived in a worker where the page has workers (derive-format.worker.ts,
// through derivation-worker.ts), else here (Node, tests); then the protocol built from it on this side, with the template's own
// bounded renderer for its tool section. A worker that fails gives "cannot derive: …", never a
// failed model load.
import type { DerivedFormat } from "toolcall-middleware/derive/derive-format.ts";
import { derivedProtocol } from "toolcall-middleware/derive/derived-protocol.ts";
import type { Protocol } from "toolcall-middleware/types.ts";
import type { TemplateRenderer } from "toolcall-middleware/derive/probes.ts";

export type FormatDerivation = { ok: true; format: DerivedFormat } | { ok: false; reason: string };

/** One derivation in a worker of its own, ended after (cold: the page keeps a warm one, derivation-worker.ts). */
export async function deriveFormatOffThread(source: string, name: string): Promise<FormatDerivation> {
  const { DerivationWorker } = await import("./derivation-worker.ts");
  const worker = new DerivationWorker();
  try {
    const { ms: _ms, ...derivation } = await worker.derive(source, name);
    return derivation;
  } finally {
    worker.dispose();
  }
}

/**
 * The protocol of a derived format, its tool section written by the template itself through
 * `render` (a GGUF's: its worker, off-thread-template.ts).
 */
export function protocolOfDerivedFormat(format: DerivedFormat, names: { name: string; label: string }, render: TemplateRenderer): Protocol {
  return derivedProtocol(format, { ...names, render });
}
