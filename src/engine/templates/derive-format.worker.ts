// Derives chat templates' call formats off the page's thread (derivation-worker.ts keeps this
// worker between derivations): the probe renders of a large template take tens to hundreds of
// milliseconds (bench:derive-protocol). Only the format (plain data) goes back, with the time the
// derivation took here; the page builds the protocol from it (derive-off-thread.ts). A warm-up
// derives a template the lab ships, so that the interpreter is compiled before the person's.
import warmUpTemplate from "./llama-cpp-templates/Qwen-Qwen2.5-7B-Instruct.jinja?raw";
import { deriveFromTemplate } from "./derived-from-template.ts";
import type { FormatDerivation } from "./derive-off-thread.ts";
import type { DerivationWorkerReply, DerivationWorkerRequest } from "./derivation-worker.ts";

self.onmessage = (event: MessageEvent<DerivationWorkerRequest>) => {
  const request = event.data;
  const [source, name] = request.kind === "warm-up" ? [warmUpTemplate, "warm-up"] : [request.source, request.name];
  let derivation: FormatDerivation;
  const started = performance.now();
  try {
    const derived = deriveFromTemplate(source, name);
    derivation = derived.ok ? { ok: true, format: derived.format } : { ok: false, reason: derived.reason };
  } catch (error) {
    derivation = { ok: false, reason: `cannot derive: ${error instanceof Error ? error.message : String(error)}` };
  }
  const ms = performance.now() - started;
  self.postMessage({ id: request.id, derivation, ms } satisfies DerivationWorkerReply);
};
