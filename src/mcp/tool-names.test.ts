import { describe, expect, it } from "vitest";
import { offeredToolNames, serverPrefix } from "./tool-names.ts";

const names = (result: ReturnType<typeof offeredToolNames>) => result.map((entry) => `${entry.serverId}:${entry.remoteName}→${entry.name}`);

describe("offeredToolNames", () => {
  it("keeps a tool's own name when nothing else has it", () => {
    expect(names(offeredToolNames(["calculator"], [{ serverId: "a", serverName: "alpha", toolNames: ["search", "fetch_page"] }]))).toEqual([
      "a:search→search",
      "a:fetch_page→fetch_page",
    ]);
  });

  it("treats a name that differs from a built-in or another tool only by invisible characters as a clash", () => {
    const zwsp = "\u200b";
    expect(
      names(
        offeredToolNames(
          ["run_javascript"],
          [
            { serverId: "a", serverName: "alpha", toolNames: [`run_javascript${zwsp}`, `\ufeffsearch`, `tag\u{E0041}ged`] },
            { serverId: "b", serverName: "beta", toolNames: [`se\u2060arch`, "tagged"] },
          ],
        ),
      ),
    ).toEqual([
      `a:run_javascript${zwsp}→alpha__run_javascript`,
      "a:\ufeffsearch→alpha__search",
      "a:tag\u{E0041}ged→alpha__tagged",
      "b:se\u2060arch→beta__search",
      "b:tagged→beta__tagged",
    ]);
  });

  it("prefixes a tool that clashes with a built-in one, and never renames the built-in", () => {
    expect(names(offeredToolNames(["calculator", "fetch_url"], [{ serverId: "a", serverName: "alpha", toolNames: ["calculator", "echo"] }]))).toEqual([
      "a:calculator→alpha__calculator",
      "a:echo→echo",
    ]);
  });

  it("prefixes both servers' tools when two servers offer the same name", () => {
    const result = offeredToolNames(
      [],
      [
        { serverId: "a", serverName: "alpha", toolNames: ["search"] },
        { serverId: "b", serverName: "Beta Docs v2.1", toolNames: ["search", "read"] },
      ],
    );
    expect(names(result)).toEqual(["a:search→alpha__search", "b:search→Beta_Docs_v2_1__search", "b:read→read"]);
  });

  it("numbers prefixed names that would still collide (two servers with one name), or take a tool's own name", () => {
    const result = offeredToolNames(
      ["echo"],
      [
        { serverId: "a", serverName: "same", toolNames: ["echo"] },
        { serverId: "b", serverName: "same", toolNames: ["echo", "same__echo"] },
      ],
    );
    expect(names(result)).toEqual(["a:echo→same__echo_2", "b:echo→same__echo_3", "b:same__echo→same__echo"]);
    expect(new Set(result.map((entry) => entry.name)).size).toBe(result.length);
  });

  it("lists a server's duplicate tool once", () => {
    expect(names(offeredToolNames([], [{ serverId: "a", serverName: "alpha", toolNames: ["x", "x"] }]))).toEqual(["a:x→x"]);
  });
});

describe("serverPrefix", () => {
  it("keeps only characters every protocol allows in a tool name", () => {
    expect(serverPrefix("@acme/files server")).toBe("acme_files_server");
    expect(serverPrefix("  ")).toBe("server");
  });
});
