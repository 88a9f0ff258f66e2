import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadServers, parseHeaderLines, saveServers } from "./saved-servers.ts";
import { checkServerUrl } from "./mcp-servers.ts";

/** A Storage in memory, as the browser's localStorage and sessionStorage behave. */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

let local: MemoryStorage;
let session: MemoryStorage;

beforeEach(() => {
  local = new MemoryStorage();
  session = new MemoryStorage();
  Object.assign(globalThis, { localStorage: local, sessionStorage: session });
});

afterEach(() => {
  Reflect.deleteProperty(globalThis, "localStorage");
  Reflect.deleteProperty(globalThis, "sessionStorage");
});

describe("the MCP server list in the browser", () => {
  it("keeps tokens only in the tab's session storage unless asked to keep them", () => {
    saveServers([
      { id: "a", url: "http://a/mcp", keepHeaders: false, headers: { Authorization: "Bearer tab-only" } },
      { id: "b", url: "http://b/mcp", keepHeaders: true, headers: { Authorization: "Bearer kept" } },
    ]);
    const stored = local.getItem("toolcall-lab.mcp-servers") ?? "";
    expect(stored).not.toContain("tab-only");
    expect(stored).toContain("kept");
    expect(loadServers()).toEqual([
      { id: "a", url: "http://a/mcp", keepHeaders: false, headers: { Authorization: "Bearer tab-only" } },
      { id: "b", url: "http://b/mcp", keepHeaders: true, headers: { Authorization: "Bearer kept" } },
    ]);
    // A new tab (or browser session) has the list, without the tab-only token.
    session.clear();
    expect(loadServers()[0]).toEqual({ id: "a", url: "http://a/mcp", keepHeaders: false, headers: {} });
  });

  it("keeps an address's credentials (?api_key=, user:password@) for this tab only, like headers, unless asked to keep them", () => {
    saveServers([
      { id: "a", url: "http://a/mcp?api_key=tab-only-key&team=lab", keepHeaders: false, headers: {} },
      { id: "b", url: "http://user:tab-only-password@b/mcp", keepHeaders: false, headers: {} },
      { id: "c", url: "http://c/mcp?token=kept-token", keepHeaders: true, headers: {} },
    ]);
    const stored = local.getItem("toolcall-lab.mcp-servers") ?? "";
    expect(stored).not.toContain("tab-only");
    expect(stored).toContain("kept-token");
    expect(loadServers().map((server) => server.url)).toEqual(["http://a/mcp?api_key=tab-only-key&team=lab", "http://user:tab-only-password@b/mcp", "http://c/mcp?token=kept-token"]);
    // A new tab has the addresses without them.
    session.clear();
    expect(loadServers().map((server) => server.url)).toEqual(["http://a/mcp?team=lab", "http://b/mcp", "http://c/mcp?token=kept-token"]);
  });

  it("ignores a damaged list instead of failing", () => {
    local.setItem("toolcall-lab.mcp-servers", "{not json");
    expect(loadServers()).toEqual([]);
    local.setItem("toolcall-lab.mcp-servers", JSON.stringify([{ id: 1 }, { id: "ok", url: "http://ok/mcp" }]));
    expect(loadServers()).toEqual([{ id: "ok", url: "http://ok/mcp", keepHeaders: false, headers: {} }]);
  });

  it("says when the browser refuses to store the list", () => {
    local.setItem = () => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
    expect(saveServers([{ id: "a", url: "http://a/mcp", keepHeaders: false, headers: {} }])).toBe(
      "The MCP server list could not be saved in this browser: The quota has been exceeded.",
    );
  });
});

describe("what the person types", () => {
  it("reads header lines and names a line that is not a header", () => {
    expect(parseHeaderLines("Authorization: Bearer abc\n\n X-Team : lab ")).toEqual({ headers: { Authorization: "Bearer abc", "X-Team": "lab" } });
    expect(parseHeaderLines("Bearer abc")).toEqual({ error: '"Bearer abc" is not a header: write one "Name: value" per line.' });
    expect(parseHeaderLines("Authorization: Bearer abc…")).toEqual({
      error: "The value of Authorization has characters an HTTP header cannot carry (only Latin-1 is allowed).",
    });
  });

  it("accepts http(s) addresses only, in full", () => {
    expect(checkServerUrl(" http://127.0.0.1:3000/mcp ")).toEqual({ url: "http://127.0.0.1:3000/mcp" });
    expect(checkServerUrl("ftp://example.org/mcp")).toEqual({ error: "MCP servers are reached over http:// or https://." });
    expect(checkServerUrl("localhost mcp")).toMatchObject({ error: expect.stringContaining("is not an address") });
  });
});
