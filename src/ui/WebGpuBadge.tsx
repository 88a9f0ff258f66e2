import { adapterLabel, type WebGpuStatus } from "../engine/webgpu-probe.ts";

export function WebGpuBadge({ status }: { status: WebGpuStatus }) {
  if (status.state === "checking") {
    return (
      <span className="badge badge-muted" data-testid="webgpu-badge" data-state="checking">
        Checking WebGPU…
      </span>
    );
  }
  if (status.state === "unavailable") {
    return (
      <span className="badge badge-warn" data-testid="webgpu-badge" data-state="unavailable" title={status.message}>
        No WebGPU
      </span>
    );
  }
  const label = adapterLabel(status);
  return (
    <span
      className="badge badge-ok"
      data-testid="webgpu-badge"
      data-state="available"
      data-vendor={status.vendor}
      data-architecture={status.architecture}
      data-shader-f16={String(status.shaderF16)}
      title={status.description || label}
    >
      WebGPU: {label} · {status.shaderF16 ? "shader-f16" : "no shader-f16 (f32 models)"}
    </span>
  );
}
