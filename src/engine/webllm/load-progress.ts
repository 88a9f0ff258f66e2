// Reads WebLLM's load progress reports ({progress, timeElapsed, text}) into what a progress bar
// shows: percent, what is being fetched, bytes where the text says them, and time left.
import type { InitProgressReport } from "@mlc-ai/web-llm";

export interface LoadProgress {
  /** 0..1 */
  fraction: number;
  percent: number;
  /** WebLLM's own description of the step. */
  text: string;
  phase: LoadPhase;
  fetchedMB?: number;
  /** Shards done / total, e.g. "12/40", when the text says so. */
  shard?: { done: number; total: number };
  elapsedSeconds: number;
  /** Estimated from the pace so far; undefined until there is a pace to go by. */
  secondsLeft?: number;
}

/**
 * The phases WebLLM 0.2.86 reports, by their texts: "Start to fetch params", "Fetching param
 * cache[i/n]", "Loading model from cache[i/n]", "Loading GPU shader modules[i/n]", and
 * "Finish loading on <GPU>" when the model is ready.
 */
export type LoadPhase = "starting" | "fetching" | "loading-from-cache" | "compiling" | "finished" | "reading-file" | "loading-runtime";

const PHASE_LABELS: Record<LoadPhase, string> = {
  starting: "Starting",
  fetching: "Downloading weights",
  "loading-from-cache": "Loading weights from the browser cache",
  compiling: "Preparing GPU shaders",
  finished: "Loaded",
  // The CPU engine's (llama.cpp in WebAssembly): a file opened from this computer, and the weights handed to llama.cpp.
  "reading-file": "Reading the file from this computer",
  "loading-runtime": "Loading the weights into llama.cpp",
};

export function phaseLabel(phase: LoadPhase): string {
  return PHASE_LABELS[phase];
}

export function readLoadProgress(report: Pick<InitProgressReport, "progress" | "timeElapsed" | "text">): LoadProgress {
  const fraction = clamp01(report.progress);
  const text = report.text ?? "";
  const out: LoadProgress = {
    fraction,
    percent: Math.round(fraction * 1000) / 10,
    text,
    phase: phaseOf(text),
    elapsedSeconds: report.timeElapsed ?? 0,
  };
  const mb = /([\d.]+)\s*MB\s+(?:fetched|loaded)/i.exec(text);
  if (mb?.[1]) out.fetchedMB = Number(mb[1]);
  const shard = /\[(\d+)\s*\/\s*(\d+)\]/.exec(text);
  if (shard?.[1] && shard[2]) out.shard = { done: Number(shard[1]), total: Number(shard[2]) };
  if (fraction > 0.01 && fraction < 1 && out.elapsedSeconds > 0) {
    out.secondsLeft = Math.round((out.elapsedSeconds * (1 - fraction)) / fraction);
  }
  return out;
}

function phaseOf(text: string): LoadPhase {
  // "Finish loading on WebGPU - <adapter>" names the GPU: test it before the shader phase.
  if (/^finish loading/i.test(text)) return "finished";
  if (/from cache/i.test(text)) return "loading-from-cache";
  if (/fetch|download/i.test(text)) return "fetching";
  if (/shader|compil/i.test(text)) return "compiling";
  return "starting";
}

function clamp01(n: number | undefined): number {
  return typeof n === "number" && Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m < 60 ? `${m} min ${s} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}
