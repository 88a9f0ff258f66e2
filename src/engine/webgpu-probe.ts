// Asks the browser for a real WebGPU adapter and reports what it is. The model runtime needs
// one; whether it has `shader-f16` decides between q4f16 and q4f32 model variants.

export type WebGpuStatus =
  | { state: "checking" }
  | { state: "unavailable"; reason: "no-api" | "no-adapter" | "error"; message: string }
  | {
      state: "available";
      vendor: string;
      architecture: string;
      device: string;
      description: string;
      shaderF16: boolean;
      isFallbackAdapter: boolean;
    };

export async function probeWebGpu(gpu: GPU | undefined = globalThis.navigator?.gpu): Promise<WebGpuStatus> {
  if (!gpu) {
    return {
      state: "unavailable",
      reason: "no-api",
      message:
        "This browser has no WebGPU, which WebLLM models need. Run a model on this computer's CPU instead (llama.cpp in the page: Model pane), use a recent Chrome or Edge (or Firefox/Safari with WebGPU enabled), or play a recorded transcript.",
    };
  }
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) {
      return {
        state: "unavailable",
        reason: "no-adapter",
        message:
          "WebGPU is present but no GPU adapter was offered, so WebLLM models cannot run. Run a model on this computer's CPU instead (llama.cpp in the page: Model pane), or check that hardware acceleration is on and the GPU driver is current.",
      };
    }
    const info = adapter.info;
    return {
      state: "available",
      vendor: info?.vendor ?? "",
      architecture: info?.architecture ?? "",
      device: info?.device ?? "",
      description: info?.description ?? "",
      shaderF16: adapter.features.has("shader-f16"),
      isFallbackAdapter: Boolean((info as { isFallbackAdapter?: boolean } | undefined)?.isFallbackAdapter),
    };
  } catch (error) {
    return {
      state: "unavailable",
      reason: "error",
      message: `Asking for a WebGPU adapter failed: ${error instanceof Error ? error.message : String(error)}. Use the replay engine meanwhile.`,
    };
  }
}

/** A short human name for an available adapter, e.g. "google / swiftshader". */
export function adapterLabel(status: Extract<WebGpuStatus, { state: "available" }>): string {
  const parts = [status.vendor, status.architecture].filter(Boolean);
  return parts.length ? parts.join(" / ") : status.description || "unknown adapter";
}

/** No usable GPU: no WebGPU, or only a software adapter (SwiftShader) that would crawl through a GPU model. */
export function gpuIsMissingOrSoftware(gpu: WebGpuStatus): boolean {
  return gpu.state === "unavailable" || (gpu.state === "available" && (gpu.isFallbackAdapter || /swiftshader/i.test(`${gpu.vendor} ${gpu.architecture} ${gpu.description}`)));
}
