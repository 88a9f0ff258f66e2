// The quick run on the CPU: one click runs a few chosen cases on the model in this page (loading
// SmolLM2 135M first when no model is loaded on the CPU), and what it will take is said before it
// starts: the cases' prompt and reply tokens at the rates this page's CPU engine last reached.
import { useEffect, useMemo } from "react";
import { useConversation, useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import { DEFAULT_CPU_MODEL_ID } from "../../engine/cpu/cpu-models.ts";
import { formatDuration, formatRate } from "../../eval/progress.ts";
import { QUICK_CPU_PRESET, quickPresetEstimate, type MeasuredRates } from "../../eval/quick-preset.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { useEvalState, useEvaluation } from "./use-evaluation.ts";

/** The rates of the Lab's last reply on the CPU engine (llama.cpp's own timings), if any. */
function labRates(events: readonly LoopEvent[] | undefined): MeasuredRates | null {
  if (!events) return null;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type !== "usage") continue;
    const { prefillTokensPerSecond, decodeTokensPerSecond, prefilledTokens } = event.usage;
    if (prefillTokensPerSecond && decodeTokensPerSecond && prefilledTokens !== undefined) return { prefillTokensPerSecond, decodeTokensPerSecond, source: "the Lab's last reply" };
  }
  return null;
}

export function EvalQuickRun() {
  const { startQuickCpuRun, warmQuickCpuRun } = useEvaluation();
  const { cpuEngine } = useLabStores();
  const status = useEvalState((s) => s.status);
  const evalRates = useEvalState((s) => s.measuredRates);
  const engine = useEngineState((s) => s.cpuEngine);
  const loaded = engine !== null;
  const warm = useEvalState((s) => s.quickWarm);
  // With a model ready, its first case's prompt start is read while the panel waits for the click.
  useEffect(() => {
    if (!engine) return;
    const controller = new AbortController();
    void warmQuickCpuRun(controller.signal);
    return () => controller.abort();
  }, [engine, warmQuickCpuRun]);
  const loading = useEngineState((s) => s.cpuStatus.state === "loading");
  const events = useConversation((s) => s.active?.events);
  const fromLab = useMemo(() => (loaded ? labRates(events) : null), [loaded, events]);
  const rates = evalRates ?? fromLab;
  const busy = status === "running" || status === "starting" || status === "stopping";
  const estimate = rates ? quickPresetEstimate(rates) : null;
  const cases = QUICK_CPU_PRESET.cases;
  const run = async () => {
    if (!loaded) await cpuEngine.loadCpuModel(DEFAULT_CPU_MODEL_ID);
    await startQuickCpuRun();
  };
  return (
    <section className="eval-quick" aria-label="Quick run on this computer's CPU" data-testid="eval-quick">
      <h3 className="eval-heading">Quick run on this computer's CPU</h3>
      <p className="eval-muted">
        {cases.length} built-in cases on {loaded ? "the model loaded on the CPU" : "SmolLM2 135M (loaded first, ≈ 98 MB)"}, {QUICK_CPU_PRESET.protocol}, temperature {QUICK_CPU_PRESET.temperature}, at most {QUICK_CPU_PRESET.maxTokens} tokens a reply. No server, no GPU. What SmolLM2
        did on them before:
      </p>
      <ul className="eval-quick-cases">
        {cases.map((c) => (
          <li key={c.id}>
            <span className="mono">{c.id}</span>: {c.shows}
          </li>
        ))}
      </ul>
      <p className="eval-quick-estimate" data-testid="eval-quick-estimate" data-measured={estimate ? "yes" : "no"}>
        {estimate && rates ? (
          <>
            <strong>What it will take: at most {formatDuration(estimate.total)}</strong> ({cases.length} cases: {estimate.promptTokens} prompt tokens at {formatRate(rates.prefillTokensPerSecond)} tokens/s ={" "}
            {formatDuration(estimate.prefill)} of prefill, up to {estimate.replyTokens} reply tokens at {formatRate(rates.decodeTokensPerSecond)} tokens/s = {formatDuration(estimate.decode)} of decode; rates measured in{" "}
            {rates.source}).
          </>
        ) : (
          <>What it will take is not known yet: no reply on this computer's CPU has been timed in this page. The time left shows once the first case ends.</>
        )}
      </p>
      {warm && (
        <p className="eval-muted" data-testid="eval-quick-warm" data-state={warm.state} {...(warm.state === "ready" ? { "data-tokens": warm.tokens } : {})}>
          {warm.state === "warming"
            ? `Reading ${warm.caseId}'s prompt start (the template and its tool) into the model's cache…`
            : warm.state === "ready"
              ? `${warm.caseId}'s prompt start (${warm.tokens} tokens) is in the model's cache: it will prefill only its message.`
              : `The prompt start could not be read ahead (${warm.message}); the run prefills it.`}
        </p>
      )}
      <button type="button" data-testid="eval-quick-run" disabled={busy || loading} onClick={() => void run()}>
        {loading ? "Loading SmolLM2 135M…" : loaded ? `Run the ${cases.length} cases` : `Load SmolLM2 135M and run the ${cases.length} cases`}
      </button>
    </section>
  );
}
