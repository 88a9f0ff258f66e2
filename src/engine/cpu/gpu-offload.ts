// Whether the CPU engine may offer to put a GGUF's layers on the GPU: llama.cpp in the page
// (wllama 3.13's wllama.wasm) holds llama.cpp's WebGPU backend, and `n_gpu_layers` asks it to put
// that many layers there. Offered only for a hardware adapter: on a software (fallback) adapter
// such as SwiftShader the backend is slower than the CPU, and in this project's runs llama.cpp put
// nothing on it anyway (docs/cpu-engine.md, "WebGPU for a GGUF").
import { adapterLabel, gpuIsMissingOrSoftware, type WebGpuStatus } from "../webgpu-probe.ts";

/** Every layer: llama.cpp takes the smaller of this and the model's layer count. */
export const ALL_LAYERS = 999;

export type GpuOffloadOffer = { offer: true; adapter: string } | { offer: false; why: string | null };

export function gpuOffloadOffer(gpu: WebGpuStatus): GpuOffloadOffer {
  if (gpu.state === "checking") return { offer: false, why: null };
  if (gpu.state === "unavailable") return { offer: false, why: null };
  if (gpuIsMissingOrSoftware(gpu)) return { offer: false, why: `This browser's only WebGPU adapter is a software one (${adapterLabel(gpu)}): the model runs on the CPU.` };
  return { offer: true, adapter: adapterLabel(gpu) };
}

/** What llama.cpp said of the layers asked on the GPU, from its load log: its count ("offloaded 31/31 layers to GPU"), else where it put the model's buffers. */
export interface GpuOutcome {
  /** llama.cpp's own count, where it gave one. */
  offloaded: { offloaded: number; total: number } | null;
  /** The model buffers it reported, by device ("CPU 92.10 MiB"). */
  buffers: string[];
}

export function gpuOutcome(lines: readonly string[]): GpuOutcome {
  let offloaded: GpuOutcome["offloaded"] = null;
  const buffers: string[] = [];
  for (const line of lines) {
    const count = /offloaded (\d+)\/(\d+) layers to GPU/.exec(line);
    if (count) offloaded = { offloaded: Number(count[1]), total: Number(count[2]) };
    const buffer = /(\S+) model buffer size\s*=\s*([\d.]+ [KMG]iB)/.exec(line);
    if (buffer && buffers.length < 8) buffers.push(`${buffer[1]} ${buffer[2]}`);
  }
  return { offloaded, buffers };
}

/** The outcome in words for the model pane. */
export function gpuOutcomeWords(outcome: GpuOutcome): string {
  if (outcome.offloaded && outcome.offloaded.offloaded > 0) return `${outcome.offloaded.offloaded} of ${outcome.offloaded.total} layers on the GPU (WebGPU)`;
  const onCpuOnly = outcome.buffers.length > 0 && outcome.buffers.every((b) => /^CPU/i.test(b));
  if (outcome.offloaded || onCpuOnly) return `every layer asked on the GPU (WebGPU), but llama.cpp kept them on the CPU${outcome.buffers.length ? ` (model buffer: ${outcome.buffers.join(", ")})` : ""}`;
  return `every layer asked on the GPU (WebGPU), and llama.cpp did not say where it put them${outcome.buffers.length ? ` (model buffer: ${outcome.buffers.join(", ")})` : ""}`;
}
