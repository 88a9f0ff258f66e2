// Browsers hide why a cross-origin request failed: a CORS refusal and a server that is not there
// both reject fetch with a bare TypeError. A second request without CORS tells them apart — its
// answer is opaque, but it arrives when anything answers at the address. Used by the MCP client
// and the OpenAI-compatible server engine to explain a failed connection.

/** Whether anything answers at `url`, asked without CORS. */
export async function probeReachable(url: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<boolean> {
  // HEAD, aborted once answered or after 5 s: a GET could open an event stream (an old SSE
  // server, a streaming endpoint) and never end.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5_000);
  try {
    await fetchImpl(url, { method: "HEAD", mode: "no-cors", cache: "no-store", signal: controller.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
