// The sandbox frame's document, written whole into `srcdoc`. The frame is sandboxed without
// allow-same-origin, so it has an opaque origin: no cookies, storage or file system of the app's
// origin, and Chromium gives it a process of its own. Its Content-Security-Policy allows no
// network at all; the worker it starts from a blob inherits that policy, and so does every
// worker that one could start.
import { SANDBOX_LIMITS, type SandboxLimits } from "./sandbox-protocol.ts";
import { sandboxFrameMain } from "./sandbox-frame-script.ts";
import { sandboxWorkerScript } from "./sandbox-runtime.ts";

/**
 * default-src 'none' refuses every fetch (fetch, XHR, WebSocket, EventSource, fonts, images,
 * import(), importScripts, beacons). Scripts: only the document's own inline script (by its
 * nonce), and 'unsafe-eval' because the worker compiles the user's code from a string.
 */
export function sandboxContentSecurityPolicy(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}' 'unsafe-eval'; worker-src blob:; base-uri 'none'; form-action 'none'`;
}

export function sandboxFrameDocument(nonce: string, limits: SandboxLimits = SANDBOX_LIMITS): string {
  if (!/^[A-Za-z0-9+/=_-]+$/.test(nonce)) throw new Error("The sandbox's nonce must be base64 text.");
  const script = `(${sandboxFrameMain.toString()})(${JSON.stringify(sandboxWorkerScript(limits))}, ${JSON.stringify(limits)});`;
  // Either would end or confuse the inline script in the HTML parser.
  if (/<\/script|<!--/i.test(script)) throw new Error("The sandbox's script contains text that cannot stand inside an HTML script element.");
  return [
    "<!doctype html><html><head>",
    `<meta http-equiv="Content-Security-Policy" content="${sandboxContentSecurityPolicy(nonce)}">`,
    `<script nonce="${nonce}">${script}</script>`,
    "</head><body></body></html>",
  ].join("");
}

/** A fresh random nonce for one frame. */
export function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
