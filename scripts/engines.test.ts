// The Node versions package.json promises (`engines.node`) are versions every installed package
// accepts: otherwise `npm install` on the oldest promised Node prints EBADENGINE warnings (as
// eventsource-parser 4, which wants Node 22.12, did on Node 20.20). Read from package-lock.json,
// so a dependency bumped past the promise fails here.
import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

interface LockedPackage {
  engines?: { node?: string } | string[];
}
const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), "utf8")) as T;
const promised = read<{ engines: { node: string } }>("package.json").engines.node;
const locked = read<{ packages: Record<string, LockedPackage> }>("package-lock.json").packages;

describe("package.json engines", () => {
  it("promises a Node range with a lowest version", () => {
    expect(semver.minVersion(promised)?.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("every locked package accepts the lowest promised Node", () => {
    const lowest = semver.minVersion(promised)!;
    const refusing = Object.entries(locked)
      .filter(([path]) => path !== "")
      .flatMap(([path, entry]) => {
        const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return wanted && !semver.satisfies(lowest, wanted) ? [`${path} wants node ${wanted}`] : [];
      });
    expect(refusing).toEqual([]);
  });

  it("the middleware package promises the same Node", () => {
    const middleware = read<{ engines?: { node?: string } }>("packages/toolcall-middleware/package.json");
    expect(middleware.engines?.node ?? promised).toBe(promised);
  });
});
