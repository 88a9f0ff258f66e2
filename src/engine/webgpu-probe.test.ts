import { describe, expect, it } from "vitest";
import { adapterLabel, probeWebGpu } from "./webgpu-probe.ts";

function fakeGpu(adapter: unknown): GPU {
  return { requestAdapter: async () => adapter } as unknown as GPU;
}

describe("probeWebGpu", () => {
  it("says there is no WebGPU when the API is missing", async () => {
    const status = await probeWebGpu(undefined);
    expect(status).toMatchObject({ state: "unavailable", reason: "no-api" });
  });

  it("says there is no adapter when the browser offers none", async () => {
    const status = await probeWebGpu(fakeGpu(null));
    expect(status).toMatchObject({ state: "unavailable", reason: "no-adapter" });
  });

  it("reports vendor, architecture and shader-f16 of the adapter", async () => {
    const status = await probeWebGpu(
      fakeGpu({ info: { vendor: "google", architecture: "swiftshader", device: "", description: "" }, features: new Set(["timestamp-query"]) }),
    );
    expect(status).toMatchObject({ state: "available", vendor: "google", architecture: "swiftshader", shaderF16: false });
    if (status.state === "available") expect(adapterLabel(status)).toBe("google / swiftshader");
  });

  it("turns a throwing requestAdapter into a message, not an exception", async () => {
    const gpu = { requestAdapter: async () => Promise.reject(new Error("driver crashed")) } as unknown as GPU;
    const status = await probeWebGpu(gpu);
    expect(status.state).toBe("unavailable");
    if (status.state === "unavailable") expect(status.message).toContain("driver crashed");
  });
});
