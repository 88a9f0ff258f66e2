// Derives chat templates' call formats off the page's thread (derivation-worker.ts keeps this
// worker between derivations): the probe renders of a large template take tens to hundreds of
// milliseconds (bench:derive-protocol). Only the format (plain data) goes back, with the time the
// derivation took here; the page builds the protocol from it (derive-off-thread.ts). A warm-up
// derives templates of the lab's own first (derivation-warm-up.ts), so that the interpreter is
// compiled before the person's template comes.
import { deriveInWorker, warmUpDerivation } from "./derivation-warm-up.ts";
import type { FormatDerivation } from "./derive-off-thread.ts";
import type { DerivationWorkerReply, DerivationWorkerRequest } from "./derivation-worker.ts";

self.onmessage = (event: MessageEvent<DerivationWorkerRequest>) => {
  const request = event.data;
  const started = performance.now();
  const derivation: FormatDerivation = request.kind === "warm-up" ? warmUpDerivation() : deriveInWorker(request.source, request.name);
  const ms = performance.now() - started;
  self.postMessage({ id: request.id, derivation, ms } satisfies DerivationWorkerReply);
};
