// How many threads the page's llama.cpp should run on, chosen by measuring the cores as they are
// now rather than by counting them. llama.cpp's threads split each operation of a token and meet
// at a barrier after it, spinning while they wait; when another program holds a core, one of them
// is descheduled for a time slice (milliseconds) while the others spin, and two threads then run
// far slower than one (docs/cpu-engine.md: 0.4 tok/s on two threads under load, against several
// on one). A count of cores cannot see that; a short run of the same pattern can.
//
// The probe: workers split a fixed piece of work (about as long as one of a small model's
// operations) and meet at a spinning barrier after each piece, as llama.cpp's threads do, for a
// fixed time; pieces per second with n workers against one is what n threads would gain (the best
// of three rounds for each count). Run in
// workers, so the page never blocks; needs SharedArrayBuffer (a cross-origin isolated page), as
// llama.cpp's threads do.

/** Pieces per second of one probe run with this many workers. */
export interface ThreadProbeRun {
  threads: number;
  piecesPerSecond: number;
}

export interface ThreadChoice {
  threads: number;
  /** In words, with the figures: why this count. */
  note: string;
  runs: ThreadProbeRun[];
}

/** More threads are used only where they were measured this much faster than one. */
export const THREAD_GAIN_NEEDED = 1.2;

/** The count to run on, from the probe's runs (one of them with one worker): the fastest, if it gains enough over one. */
export function chooseThreads(runs: ThreadProbeRun[]): ThreadChoice {
  const one = runs.find((r) => r.threads === 1);
  if (!one || !(one.piecesPerSecond > 0)) return { threads: 1, note: "1 thread (the measurement of the cores failed)", runs };
  let best = one;
  for (const run of runs) if (run.threads > 1 && run.piecesPerSecond >= THREAD_GAIN_NEEDED * one.piecesPerSecond && run.piecesPerSecond > best.piecesPerSecond) best = run;
  const gains = runs.filter((r) => r.threads > 1).map((r) => `${r.threads} at once ${(r.piecesPerSecond / one.piecesPerSecond).toFixed(2)}×`);
  const measured = gains.length ? `measured against one: ${gains.join(", ")}` : "one core";
  if (best === one) return { threads: 1, note: `1 thread, chosen by measuring the cores (${measured}; other programs may be using them)`, runs };
  return { threads: best.threads, note: `${best.threads} threads, chosen by measuring the cores (${measured})`, runs };
}

// The workers' code. Flags in shared memory: [0] workers arrived at the barrier, [1] the barrier's
// generation, [2] stop. The last to arrive resets the count, decides whether time is up and opens
// the barrier; the others spin on the generation, as ggml's threads do.
const PROBE_WORKER = `
onmessage = (event) => {
  const { shared, count, work, milliseconds } = event.data;
  const flags = new Int32Array(shared);
  let value = 1;
  let deadline = 0;
  const barrier = () => {
    const generation = Atomics.load(flags, 1);
    if (Atomics.add(flags, 0, 1) === count - 1) {
      Atomics.store(flags, 0, 0);
      if (deadline && Date.now() >= deadline) Atomics.store(flags, 2, 1);
      Atomics.add(flags, 1, 1);
    } else {
      while (Atomics.load(flags, 1) === generation) {}
    }
  };
  barrier();
  const started = Date.now();
  deadline = started + milliseconds;
  let pieces = 0;
  while (!Atomics.load(flags, 2)) {
    for (let i = 0; i < work; i++) value = (Math.imul(value, 1664525) + 1013904223) | 0;
    barrier();
    pieces++;
  }
  postMessage({ pieces, elapsed: Date.now() - started, value });
};`;

/** One piece of work for all workers together: about 100 µs on one core of a 2020s machine. */
const PIECE_WORK = 200_000;

async function probeRun(workerUrl: string, threads: number, milliseconds: number): Promise<ThreadProbeRun> {
  const shared = new SharedArrayBuffer(12);
  const workers = Array.from({ length: threads }, () => new Worker(workerUrl));
  try {
    const replies = await Promise.all(
      workers.map(
        (worker) =>
          new Promise<{ pieces: number; elapsed: number }>((resolve, reject) => {
            worker.onmessage = (event: MessageEvent<{ pieces: number; elapsed: number }>) => resolve(event.data);
            worker.onerror = (event) => reject(new Error(event.message || "the thread probe's worker failed"));
            worker.postMessage({ shared, count: threads, work: Math.ceil(PIECE_WORK / threads), milliseconds });
          }),
      ),
    );
    const { pieces, elapsed } = replies[0]!;
    return { threads, piecesPerSecond: elapsed > 0 ? (pieces * 1000) / elapsed : 0 };
  } finally {
    for (const worker of workers) worker.terminate();
  }
}

/**
 * Measures one worker, then 2, 4, 8 … up to `maxThreads` at once, three rounds in turn, and
 * chooses from each count's best round (about 100 ms a run): the page is often busy for a moment
 * while a model loads (its first screen, the tokenizer's worker), and one run caught in such a
 * moment would speak for that moment only. One thread without measuring where the page cannot
 * share memory between threads.
 */
export async function measureThreads(maxThreads: number, milliseconds = 100, rounds = 3): Promise<ThreadChoice> {
  if (maxThreads <= 1 || typeof SharedArrayBuffer === "undefined" || !globalThis.crossOriginIsolated || typeof Worker === "undefined") {
    return { threads: 1, note: "1 thread", runs: [] };
  }
  const workerUrl = URL.createObjectURL(new Blob([PROBE_WORKER], { type: "text/javascript" }));
  try {
    const counts = [1];
    for (let n = 2; n <= maxThreads; n *= 2) counts.push(n);
    if (counts.at(-1) !== maxThreads) counts.push(maxThreads);
    const best = new Map<number, ThreadProbeRun>();
    for (let round = 0; round < rounds; round++)
      for (const threads of counts) {
        const run = await probeRun(workerUrl, threads, milliseconds);
        if (run.piecesPerSecond > (best.get(threads)?.piecesPerSecond ?? -1)) best.set(threads, run);
      }
    return chooseThreads(counts.map((threads) => best.get(threads)!));
  } catch (error) {
    return { threads: 1, note: `1 thread (the cores could not be measured: ${error instanceof Error ? error.message : String(error)})`, runs: [] };
  } finally {
    URL.revokeObjectURL(workerUrl);
  }
}
