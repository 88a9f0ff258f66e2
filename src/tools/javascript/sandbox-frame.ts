// The page's handle on one sandbox: a hidden iframe (opaque origin, no network, a process of its
// own in Chromium) whose worker runs one piece of code. Removing the frame ends everything in it,
// however busy or stuck. The frame's crash is noticed by a heartbeat: the page gets no event.
import { startHeartbeat, type Heartbeat, type HeartbeatOptions } from "./heartbeat.ts";
import type { SandboxWorker } from "./sandbox-host.ts";
import { randomNonce, sandboxFrameDocument } from "./sandbox-frame-document.ts";
import type { FrameToPage, PageToFrame } from "./sandbox-frame-script.ts";
import type { SandboxRequest } from "./sandbox-protocol.ts";

export const SANDBOX_HEARTBEAT: HeartbeatOptions = { intervalMs: 1000, silentAfterMs: 5000 };

/** Said after "The JavaScript sandbox failed: ". */
export const SANDBOX_NOT_STARTED_MESSAGE =
  "it never started: its frame did not answer (does the page's Content-Security-Policy keep the frame's script from running?)";

export const SANDBOX_CRASHED_MESSAGE =
  "The JavaScript sandbox stopped responding: its process was most likely ended by the browser because the code used too much memory. The lab itself is unaffected; later calls start a fresh sandbox.";

export function createSandboxFrame(container: HTMLElement = document.body, heartbeatOptions: HeartbeatOptions = SANDBOX_HEARTBEAT): SandboxWorker {
  const iframe = document.createElement("iframe");
  // allow-scripts without allow-same-origin: an opaque origin.
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.hidden = true;
  iframe.title = "run_javascript sandbox";
  iframe.srcdoc = sandboxFrameDocument(randomNonce());
  const channel = new MessageChannel();
  const port = channel.port1;
  let request: SandboxRequest | undefined;
  let connected = false;
  let ready = false;
  let ended = false;
  let heartbeat: Heartbeat | undefined;
  const send = (message: PageToFrame) => port.postMessage(message);

  const sandbox: SandboxWorker = {
    onmessage: null,
    onerror: null,
    postMessage(message) {
      request = message;
      if (connected) send({ type: "run", code: message.code });
    },
    terminate() {
      ended = true;
      heartbeat?.stop();
      port.close();
      iframe.remove();
    },
  };

  port.onmessage = ({ data }: MessageEvent<FrameToPage>) => {
    if (ended || typeof data !== "object" || data === null) return;
    if (data.type === "ready") ready = true;
    if (data.type === "pong" || data.type === "ready") heartbeat?.answered();
    else if (data.type === "reply") sandbox.onmessage?.({ data: data.reply });
    else if (data.type === "failed") sandbox.onerror?.({ message: data.message });
  };
  iframe.addEventListener(
    "load",
    () => {
      if (ended || !iframe.contentWindow) return;
      connected = true;
      // An opaque origin can only be addressed as "*"; the port is what ties the two together.
      iframe.contentWindow.postMessage({ type: "connect" }, "*", [channel.port2]);
      heartbeat = startHeartbeat(
        () => send({ type: "ping" }),
        () => {
          if (!ended) sandbox.onerror?.(ready ? { message: SANDBOX_CRASHED_MESSAGE, crashed: true } : { message: SANDBOX_NOT_STARTED_MESSAGE });
        },
        heartbeatOptions,
      );
      if (request) send({ type: "run", code: request.code });
    },
    { once: true },
  );
  container.append(iframe);
  return sandbox;
}
