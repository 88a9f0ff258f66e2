// The warm-up of a worker that derives chat templates' call formats (the page's kept derivation
// worker, derive-format.worker.ts, and the parser playground's worker): templates of the lab's
// own are derived there before the person's, so that @huggingface/jinja's parser and interpreter
// are compiled when the person's template comes. The first derivation in a fresh worker runs them
// cold (Apertus 121.6 ms against a warm 36.9 ms, bench:derive-protocol), and a warm-up on one or
// three model templates left the paths other templates take cold (Kimi K3, 53.5–56.8 ms on a
// quiet machine after three). So the warm-up is three shipped templates of different shapes (JSON
// in tags; tagged arguments; channels and macros) and a template of the lab's own that tours the
// constructs chat templates use (interpreter-tour.jinja: macros with defaults, recursion,
// dictsort, tojson with arguments, namespaces, set blocks, string methods, filters, tests, loop
// variables, slices), derived twice; none is a template the benchmark measures for being slow.
import tourTemplate from "./warm-up/interpreter-tour.jinja?raw";
import gptOssTemplate from "./llama-cpp-templates/openai-gpt-oss-120b.jinja?raw";
import qwen25Template from "./llama-cpp-templates/Qwen-Qwen2.5-7B-Instruct.jinja?raw";
import qwen3CoderTemplate from "./llama-cpp-templates/Qwen3-Coder.jinja?raw";
import { deriveFromTemplate } from "./derived-from-template.ts";
import type { FormatDerivation } from "./derive-off-thread.ts";

/** The warm-up's derivations, in order. */
export const WARM_UP_TEMPLATES: readonly string[] = [qwen25Template, qwen3CoderTemplate, gptOssTemplate, tourTemplate, tourTemplate];

/** A derivation as a worker sends it back (plain data), or why not; never throws. */
export function deriveInWorker(source: string, name: string): FormatDerivation {
  try {
    const derived = deriveFromTemplate(source, name);
    return derived.ok ? { ok: true, format: derived.format } : { ok: false, reason: derived.reason };
  } catch (error) {
    return { ok: false, reason: `cannot derive: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * One warm-up derivation of the lab's templates: the first that derived, else the first's reason
 * (the worker counts as warm when any derived: one refused by the render bound on a busy machine
 * does not make the page end it).
 */
export function warmUpDerivation(): FormatDerivation {
  const results = WARM_UP_TEMPLATES.map((source) => deriveInWorker(source, "warm-up"));
  return results.find((result) => result.ok) ?? results[0]!;
}

/**
 * The warm-up in steps, one template per task, started once (a worker that also answers other
 * requests: the parser playground's): a request that comes meanwhile waits for one step, not the
 * whole warm-up.
 */
export function stepwiseWarmUp(schedule: (step: () => void) => void = (step) => setTimeout(step, 0)): { start: () => void } {
  let started = false;
  return {
    start: () => {
      if (started) return;
      started = true;
      const run = (index: number) => {
        deriveInWorker(WARM_UP_TEMPLATES[index]!, "warm-up");
        if (index + 1 < WARM_UP_TEMPLATES.length) schedule(() => run(index + 1));
      };
      schedule(() => run(0));
    },
  };
}
