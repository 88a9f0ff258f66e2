// Messages between the harness page and its scripted model worker (tests only).
import type { GenerationRecord, ScriptedGeneration } from "../../src/engine/webllm/testing/scripted-pipeline.ts";

export type HarnessRequest =
  | { kind: "harness:script"; uuid: string; content: { generations: ScriptedGeneration[]; contextWindowSize?: number } }
  | { kind: "harness:release"; uuid: string; content: null }
  | { kind: "harness:loseDevice"; uuid: string; content: null }
  | { kind: "harness:interrupt"; uuid: string; content: null }
  | { kind: "harness:state"; uuid: string; content: null };

export interface HarnessState {
  loaded: boolean;
  held: "prefill" | "decode" | null;
  disposed: boolean;
  records: GenerationRecord[];
  prefilledTokens: number;
  seeds: number[];
  /** Generations WebLLM's lock is running or holding (its request lock is taken). */
  lockTaken: boolean;
}

export const HARNESS_REPLY = "harness:reply";
