// Derives chat templates' call formats off the page's thread (derivation-worker.ts keeps this
// worker between derivations): the probe renders of a large template take tens to hundreds of
// milliseconds (bench:derive-protocol). Only the format (plain data) goes back, with the time the
// derivation took here; the page builds the protocol from it (derive-off-thread.ts). A warm-up
// derives templates the lab ships, so that the interpreter is compiled before the person's: three
// of different shapes (JSON in tags; tagged arguments; a large template of channels and macros),
// since one alone left the paths others take cold (a quiet run of bench:derive-protocol -- --worker: median
// 20.5 ms after a Qwen 2.5 warm-up alone, 13.3 ms after these three).
import gptOssTemplate from "./llama-cpp-templates/openai-gpt-oss-120b.jinja?raw";
import qwen25Template from "./llama-cpp-templates/Qwen-Qwen2.5-7B-Instruct.jinja?raw";
import qwen3CoderTemplate from "./llama-cpp-templates/Qwen3-Coder.jinja?raw";
import { deriveFromTemplate } from "./derived-from-template.ts";
import type { FormatDerivation } from "./derive-off-thread.ts";
import type { DerivationWorkerReply, DerivationWorkerRequest } from "./derivation-worker.ts";

self.onmessage = (event: MessageEvent<DerivationWorkerRequest>) => {
  const request = event.data;
  const started = performance.now();
  let derivation: FormatDerivation;
  if (request.kind === "warm-up") {
    // Warm when any of them derived (one refused by the render bound on a busy machine does not
    // make the page end this worker).
    const results = [qwen25Template, qwen3CoderTemplate, gptOssTemplate].map((source) => derive(source, "warm-up"));
    derivation = results.find((result) => result.ok) ?? results[0]!;
  } else derivation = derive(request.source, request.name);
  const ms = performance.now() - started;
  self.postMessage({ id: request.id, derivation, ms } satisfies DerivationWorkerReply);
};

function derive(source: string, name: string): FormatDerivation {
  try {
    const derived = deriveFromTemplate(source, name);
    return derived.ok ? { ok: true, format: derived.format } : { ok: false, reason: derived.reason };
  } catch (error) {
    return { ok: false, reason: `cannot derive: ${error instanceof Error ? error.message : String(error)}` };
  }
}
