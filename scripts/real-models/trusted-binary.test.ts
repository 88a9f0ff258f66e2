// What is run as llama-server must be the build this script made: this user's file in this user's
// folders, writable by no one else, with the sha256 recorded after the build. And the source
// tarball must have the integrity the manifest pins.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tarballIntegrity, untrustedBinary } from "./build-llama-server.mjs";
import { readManifest } from "./cache-dir.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function build(content = "#!/bin/sh\necho built\n") {
  const cache = mkdtempSync(join(tmpdir(), "lab-cache-"));
  dirs.push(cache);
  chmodSync(cache, 0o755);
  const bin = join(cache, "llama-server", "abc-123", "bin");
  mkdirSync(bin, { recursive: true, mode: 0o755 });
  const binary = join(bin, "llama-server");
  writeFileSync(binary, content, { mode: 0o755 });
  const record = () => writeFileSync(`${binary}.sha256.json`, JSON.stringify({ sha256: createHash("sha256").update(content).digest("hex"), size: Buffer.byteLength(content) }));
  return { cache, bin, binary, record };
}

describe("the llama-server that is run", () => {
  it("runs the recorded build in this user's folders", () => {
    const { cache, binary, record } = build();
    record();
    expect(untrustedBinary(binary, cache)).toBeUndefined();
  });

  it("does not run a binary with no recorded sha256 (a file placed at the path), or one whose content changed", () => {
    const { cache, binary, record } = build();
    expect(untrustedBinary(binary, cache)).toMatch(/^no sha256 was recorded for .* when it was built: run `npm run llama-server`$/);
    record();
    writeFileSync(binary, "#!/bin/sh\necho evil!\n", { mode: 0o755 });
    expect(untrustedBinary(binary, cache)).toMatch(/(has sha256 [0-9a-f]{64}, not the manifest's|bytes, not the manifest's).*\(recorded after its build\)$/);
  });

  it("does not run a binary in a folder others can write", () => {
    const { cache, bin, binary, record } = build();
    record();
    chmodSync(bin, 0o777);
    expect(untrustedBinary(binary, cache)).toBe(`${bin} can be written by others (mode 777)`);
    chmodSync(bin, 0o755);
    chmodSync(binary, 0o775);
    expect(untrustedBinary(binary, cache)).toBe(`${binary} can be written by others (mode 775)`);
  });

  it("pins the node-llama-cpp tarball by npm's sha512 integrity", () => {
    expect(readManifest().llamaServer.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    const dir = mkdtempSync(join(tmpdir(), "lab-tgz-"));
    dirs.push(dir);
    writeFileSync(join(dir, "p.tgz"), "tarball bytes");
    expect(tarballIntegrity(join(dir, "p.tgz"))).toBe(`sha512-${createHash("sha512").update("tarball bytes").digest("base64")}`);
  });
});
