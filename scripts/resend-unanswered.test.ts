import { describe, expect, it } from "vitest";
import { connectionErrorText, resendWhenUnanswered } from "./resend-unanswered.ts";

const closed = () => Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) });

describe("resendWhenUnanswered", () => {
  it("sends a request that got no answer again, and says why", async () => {
    const sent: string[] = [];
    const told: string[] = [];
    let calls = 0;
    const fetchImpl = (async (input: string, init?: RequestInit) => {
      sent.push(String(init?.body));
      calls += 1;
      if (calls === 1) throw closed();
      return new Response("ok");
    }) as typeof fetch;
    const response = await resendWhenUnanswered(fetchImpl, (url, why) => told.push(`${url} ${why}`))("http://127.0.0.1:1/v1/completions", { method: "POST", body: "{\"prompt\":\"p\"}" });
    expect(await response.text()).toBe("ok");
    expect(sent).toEqual(["{\"prompt\":\"p\"}", "{\"prompt\":\"p\"}"]);
    expect(told).toEqual(["http://127.0.0.1:1/v1/completions fetch failed: other side closed (UND_ERR_SOCKET)"]);
  });

  it("sends it again twice at most: a third failure is the caller's", async () => {
    let calls = 0;
    const told: string[] = [];
    const fetchImpl = (async () => {
      calls += 1;
      throw closed();
    }) as typeof fetch;
    await expect(resendWhenUnanswered(fetchImpl, (url) => told.push(url))("http://127.0.0.1:1/v1/completions", { method: "POST", body: "{}" })).rejects.toThrow("fetch failed");
    expect(calls).toBe(3);
    expect(told).toHaveLength(2);
    calls = 0;
    await expect(resendWhenUnanswered(fetchImpl, () => {}, 0)("http://127.0.0.1:1/v1/completions", { method: "POST" })).rejects.toThrow("fetch failed");
    expect(calls).toBe(1);
  });

  it("answers with the second resend where the first met a closed connection too", async () => {
    let calls = 0;
    const fetchImpl = (async () => {
      calls += 1;
      if (calls <= 2) throw closed();
      return new Response("ok");
    }) as typeof fetch;
    expect(await (await resendWhenUnanswered(fetchImpl, () => {})("http://127.0.0.1:1/v1/completions", { method: "POST" })).text()).toBe("ok");
    expect(calls).toBe(3);
  });

  it("never sends again a request that got a response (even an error), nor an aborted one", async () => {
    let calls = 0;
    const answered = (async () => {
      calls += 1;
      return new Response("busy", { status: 503 });
    }) as typeof fetch;
    expect((await resendWhenUnanswered(answered, () => {})("http://x/v1/completions", { method: "POST" })).status).toBe(503);
    expect(calls).toBe(1);

    const controller = new AbortController();
    controller.abort();
    let abortedCalls = 0;
    const aborted = (async () => {
      abortedCalls += 1;
      throw new DOMException("aborted", "AbortError");
    }) as typeof fetch;
    await expect(resendWhenUnanswered(aborted, () => {})("http://x/v1/completions", { method: "POST", signal: controller.signal })).rejects.toThrow("aborted");
    expect(abortedCalls).toBe(1);
  });

  it("names the socket's error under Node's 'fetch failed'", () => {
    expect(connectionErrorText(closed())).toBe("fetch failed: other side closed (UND_ERR_SOCKET)");
    expect(connectionErrorText(new TypeError("fetch failed"))).toBe("fetch failed");
    expect(connectionErrorText("x")).toBe("x");
  });
});
