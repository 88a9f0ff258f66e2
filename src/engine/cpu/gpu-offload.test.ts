import { describe, expect, it } from "vitest";
import { gpuOffloadOffer, gpuOutcome, gpuOutcomeWords } from "./gpu-offload.ts";

const adapter = { state: "available" as const, vendor: "nvidia", architecture: "ampere", device: "", description: "", shaderF16: true, isFallbackAdapter: false };

describe("gpuOffloadOffer", () => {
  it("offers the GPU for a hardware adapter, naming it", () => {
    expect(gpuOffloadOffer(adapter)).toEqual({ offer: true, adapter: "nvidia / ampere" });
  });

  it("says why not for a software adapter (a fallback one, or SwiftShader by name), and says nothing without WebGPU", () => {
    expect(gpuOffloadOffer({ ...adapter, isFallbackAdapter: true })).toMatchObject({ offer: false, why: expect.stringContaining("software one (nvidia / ampere)") });
    expect(gpuOffloadOffer({ ...adapter, vendor: "google", architecture: "swiftshader" })).toEqual({
      offer: false,
      why: "This browser's only WebGPU adapter is a software one (google / swiftshader): the model runs on the CPU.",
    });
    expect(gpuOffloadOffer({ state: "unavailable", reason: "no-adapter", message: "" })).toEqual({ offer: false, why: null });
    expect(gpuOffloadOffer({ state: "checking" })).toEqual({ offer: false, why: null });
  });
});

describe("gpuOutcome and its words", () => {
  it("takes llama.cpp's own count where it gave one", () => {
    const outcome = gpuOutcome(["load_tensors: offloading 30 repeating layers to GPU", "load_tensors: offloaded 31/31 layers to GPU", "load_tensors:   WebGPU model buffer size =    90.00 MiB", "load_tensors:   CPU_Mapped model buffer size =    20.25 MiB"]);
    expect(outcome).toEqual({ offloaded: { offloaded: 31, total: 31 }, buffers: ["WebGPU 90.00 MiB", "CPU_Mapped 20.25 MiB"] });
    expect(gpuOutcomeWords(outcome)).toBe("31 of 31 layers on the GPU (WebGPU)");
  });

  it("says the layers stayed on the CPU where its count is 0 or its only model buffer is the CPU's", () => {
    expect(gpuOutcomeWords(gpuOutcome(["load_tensors: offloaded 0/31 layers to GPU"]))).toBe("every layer asked on the GPU (WebGPU), but llama.cpp kept them on the CPU");
    expect(gpuOutcomeWords(gpuOutcome(["load_tensors:   CPU model buffer size =    92.10 MiB"]))).toBe("every layer asked on the GPU (WebGPU), but llama.cpp kept them on the CPU (model buffer: CPU 92.10 MiB)");
  });

  it("says it does not know where llama.cpp said nothing", () => {
    expect(gpuOutcomeWords(gpuOutcome([]))).toBe("every layer asked on the GPU (WebGPU), and llama.cpp did not say where it put them");
  });
});
