// An evaluation's jobs (cases × protocols × constrained on/off × repeats) run with a
// concurrency limit (a server takes several at once; WebLLM one), skipping jobs already done (a
// resumed run), until all are done or the run is stopped. Each finished job is handed on at once,
// so results are stored, and progress shown, as they come.
import type { EvalMode } from "./run-case.ts";
import type { EvalCase } from "./suite.ts";

export interface EvalJob {
  /** Unique within a run: case, protocol, constraint and repeat. */
  key: string;
  testCase: EvalCase;
  protocol: string;
  mode: EvalMode;
  constrained: boolean;
  repeat: number;
}

export interface MatrixPlan {
  cases: EvalCase[];
  mode: EvalMode;
  /** Protocol names (prompt mode); native mode has one row, "native". */
  protocols: string[];
  /** Which constraint settings to run: [false], [true] or both. */
  constrained: boolean[];
  repeats: number;
}

export function jobKey(job: Pick<EvalJob, "protocol" | "mode" | "constrained" | "repeat"> & { id: string }): string {
  return `${job.mode}|${job.protocol}|${job.constrained ? "c" : "f"}|${job.repeat}|${job.id}`;
}

/** The jobs of a plan, case by case within each row so that early results already cover every row. */
export function planJobs(plan: MatrixPlan): EvalJob[] {
  const protocols = plan.mode === "native" ? ["native"] : plan.protocols;
  const constraint = plan.mode === "native" ? [false] : plan.constrained;
  const jobs: EvalJob[] = [];
  for (let repeat = 0; repeat < Math.max(1, plan.repeats); repeat += 1) {
    for (const testCase of plan.cases) {
      for (const protocol of protocols) {
        for (const constrained of constraint) {
          jobs.push({ key: jobKey({ id: testCase.id, protocol, mode: plan.mode, constrained, repeat }), testCase, protocol, mode: plan.mode, constrained, repeat });
        }
      }
    }
  }
  return jobs;
}

export interface RunJobsOptions<R> {
  jobs: EvalJob[];
  /**
   * Runs one job; undefined when it was stopped (it is not done). `worker` (0 … concurrency − 1)
   * says which of the workers runs it, so a caller with several servers can give each worker its own.
   */
  run: (job: EvalJob, signal: AbortSignal, worker: number) => Promise<R | undefined>;
  concurrency: number;
  signal: AbortSignal;
  /** Jobs already done (by key), skipped. */
  done?: ReadonlySet<string>;
  onDone: (job: EvalJob, result: R) => void;
  /**
   * Jobs next to each other in the list with the same key here run one after the other on the
   * same worker (one of the `concurrency` connections), not side by side: a case's constrained
   * and free runs send the same prompt, and the second one, sent when the first is done, finds
   * it in the server's prompt cache instead of prefilling it again in another slot.
   */
  together?: (job: EvalJob) => string;
}

/** The pending jobs as units a worker runs in turn: each a run of neighbours with the same `together` key (each job alone without one). */
function units(pending: readonly EvalJob[], together: ((job: EvalJob) => string) | undefined): EvalJob[][] {
  const result: EvalJob[][] = [];
  for (const job of pending) {
    const last = result.at(-1);
    if (together && last && together(last[0]!) === together(job)) last.push(job);
    else result.push([job]);
  }
  return result;
}

/** The key that keeps a case's runs under each constraint together (same case, protocol, mode and repeat: the same prompt). */
export function samePrompt(job: EvalJob): string {
  return `${job.mode}|${job.protocol}|${job.repeat}|${job.testCase.id}`;
}

/** Runs the jobs not yet done, at most `concurrency` at a time; returns when all are done or the signal stops them. */
export async function runJobs<R>(options: RunJobsOptions<R>): Promise<void> {
  const pending = units(options.jobs.filter((job) => !options.done?.has(job.key)), options.together);
  let next = 0;
  const worker = async (index: number) => {
    while (!options.signal.aborted && next < pending.length) {
      const unit = pending[next]!;
      next += 1;
      for (const job of unit) {
        if (options.signal.aborted) return;
        const result = await options.run(job, options.signal, index);
        if (result !== undefined && !options.signal.aborted) options.onDone(job, result);
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(Math.floor(options.concurrency), pending.length)) }, (_, index) => worker(index));
  await Promise.all(workers);
}
