import { afterEach, describe, expect, it, vi } from "vitest";
import { createTabLink, writeLockName, type TabLink, type TabMessage } from "./tab-link.ts";

/** A LockManager with exclusive locks and ifAvailable, the part of Web Locks the link uses. */
function fakeLocks(): LockManager {
  const held = new Set<string>();
  return {
    async request(name: string, options: LockOptions, callback: LockGrantedCallback<unknown>) {
      if (held.has(name)) {
        expect(options.ifAvailable).toBe(true);
        return callback(null);
      }
      held.add(name);
      try {
        return await callback({ name, mode: "exclusive" } as Lock);
      } finally {
        held.delete(name);
      }
    },
    query: async () => ({ held: [...held].map((name) => ({ name, mode: "exclusive" as const, clientId: "x" })), pending: [] }),
  } as unknown as LockManager;
}

const links: TabLink[] = [];
afterEach(() => {
  for (const link of links.splice(0)) link.close();
});

function open(locks: LockManager | null = null): TabLink {
  const link = createTabLink({ channel: new BroadcastChannel("tab-link-test"), locks });
  links.push(link);
  return link;
}

describe("the tab link", () => {
  it("tells the other tabs, not itself, and ignores messages it does not know", async () => {
    const a = open();
    const b = open();
    const heardByA: TabMessage[] = [];
    const heardByB: TabMessage[] = [];
    a.subscribe((m) => heardByA.push(m));
    b.subscribe((m) => heardByB.push(m));
    const stranger = new BroadcastChannel("tab-link-test");
    stranger.postMessage({ kind: "saved", conversationId: 5 });
    stranger.postMessage("hello");
    a.announce({ kind: "saved", conversationId: "c1", eventCount: 3 });
    a.announce({ kind: "deleted", conversationId: "c1" });
    await vi.waitFor(() => expect(heardByB).toHaveLength(2));
    expect(heardByB).toEqual([
      { kind: "saved", conversationId: "c1", eventCount: 3 },
      { kind: "deleted", conversationId: "c1" },
    ]);
    expect(heardByA).toEqual([]);
    stranger.close();
  });

  it("lets one tab at a time claim a conversation, and says when another holds it", async () => {
    const locks = fakeLocks();
    const a = open(locks);
    const b = open(locks);
    const claim = await a.claim("c1");
    expect(claim).not.toBeNull();
    expect(await b.claim("c1")).toBeNull();
    expect(await b.claim("c2")).not.toBeNull(); // another conversation is free
    expect(await b.heldElsewhere("c1")).toBe(true);
    expect(await a.heldElsewhere("c1")).toBe(false); // held here, not elsewhere
    claim!.release();
    await vi.waitFor(async () => expect(await b.heldElsewhere("c1")).toBe(false));
    expect(await b.claim("c1")).not.toBeNull();
  });

  it("a Web Locks failure does not stop a turn: the claim is granted", async () => {
    const refusing = { request: () => Promise.reject(new DOMException("denied", "SecurityError")), query: () => Promise.reject(new Error("no")) };
    const a = open(refusing as unknown as LockManager);
    expect(await a.claim("c1")).not.toBeNull();
  });

  it("without Web Locks, claims are granted (storage still refuses a write over another tab's)", async () => {
    const a = open(null);
    expect(await a.claim("c1")).not.toBeNull();
    expect(await a.heldElsewhere("c1")).toBe(false);
    expect(writeLockName("c1")).toBe("toolcall-lab:write:c1");
  });
});
