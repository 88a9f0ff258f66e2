// Derives a chat template's call format off the page's thread: the probe renders of a large
// template take hundreds of milliseconds (bench:derive-protocol). Only the format (plain data)
// goes back; the page builds the protocol from it (derive-off-thread.ts).
import { deriveFromTemplate } from "./derived-from-template.ts";
import type { FormatDerivation, FormatDerivationRequest } from "./derive-off-thread.ts";

self.onmessage = (event: MessageEvent<FormatDerivationRequest>) => {
  let reply: FormatDerivation;
  try {
    const derivation = deriveFromTemplate(event.data.source, event.data.name);
    reply = derivation.ok ? { ok: true, format: derivation.format } : { ok: false, reason: derivation.reason };
  } catch (error) {
    reply = { ok: false, reason: `cannot derive: ${error instanceof Error ? error.message : String(error)}` };
  }
  self.postMessage(reply);
};
