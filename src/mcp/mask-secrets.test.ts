import { describe, expect, it } from "vitest";
import { MAX_LOGGED_STRING, maskHeaders, maskSecrets, maskUrl, secretsOf } from "./mask-secrets.ts";

describe("masking secrets for the event log", () => {
  it("masks header values, keeping the auth scheme", () => {
    expect(maskHeaders({ Authorization: "Bearer sk-live-123456", "X-Api-Key": "abcd1234" })).toEqual({ Authorization: "Bearer ••••", "X-Api-Key": "••••" });
  });

  it("masks a token wherever it appears in a message, and values under secret keys", () => {
    const secrets = secretsOf({ Authorization: "Bearer sk-live-123456" });
    const message = {
      jsonrpc: "2.0",
      id: 3,
      result: {
        content: [{ type: "text", text: "your token sk-live-123456 works" }],
        structuredContent: { api_key: "other-secret", nested: [{ password: "hunter22" }], count: 2 },
      },
    };
    expect(maskSecrets(message, secrets)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: {
        content: [{ type: "text", text: "your token •••• works" }],
        structuredContent: { api_key: "••••", nested: [{ password: "••••" }], count: 2 },
      },
    });
  });

  it("cuts strings too long for the log and says so", () => {
    const masked = maskSecrets({ data: "A".repeat(MAX_LOGGED_STRING + 1) }, []) as { data: string };
    expect(masked.data).toMatch(/^A{200}… \(400001 characters, too long to keep in the log\)$/);
  });

  it("masks secrets in an address: key-like query values and a user's password", () => {
    expect(maskUrl("https://mcp.example.com/mcp?api_key=abc123&region=eu&accessToken=xyz")).toBe("https://mcp.example.com/mcp?api_key=••••&region=eu&accessToken=••••");
    expect(maskUrl("http://user:pw@127.0.0.1:3000/mcp")).toBe("http://••••@127.0.0.1:3000/mcp");
    expect(maskUrl("http://127.0.0.1:3000/mcp")).toBe("http://127.0.0.1:3000/mcp");
  });
});
