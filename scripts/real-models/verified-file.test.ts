// A cached model is trusted by its sha256, not its size: a file of the right size with other
// bytes, or a link, is refused; a good hash is remembered for the file's identity and time, and a
// file rewritten in place is hashed again. A killed fetch's staging folder is removed by the next.
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeStaleStaging } from "./fetch-models.mjs";
import { sha256OfFile, unverifiedFile } from "./verified-file.mjs";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "lab-verified-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const good = Buffer.from("the real weights");
const expected = { sha256: createHash("sha256").update(good).digest("hex"), size: good.length };

describe("a cached model checked by its sha256", () => {
  it("accepts the right file and remembers it for its identity and time", () => {
    const file = join(tempDir(), "m.gguf");
    writeFileSync(file, good);
    expect(unverifiedFile(file, expected)).toBeUndefined();
    expect(existsSync(`${file}.verified.json`)).toBe(true);
    expect(sha256OfFile(file)).toBe(expected.sha256);
  });

  it("refuses zeros of the right size, and a file rewritten in place after it was remembered", () => {
    const file = join(tempDir(), "m.gguf");
    writeFileSync(file, Buffer.alloc(good.length));
    expect(unverifiedFile(file, expected)).toMatch(/has sha256 [0-9a-f]{64}, not the manifest's/);
    writeFileSync(file, good);
    expect(unverifiedFile(file, expected)).toBeUndefined();
    // Same size, same inode, new content and a new time: hashed again, refused.
    writeFileSync(file, Buffer.alloc(good.length, 1));
    const later = new Date(statSync(file).mtimeMs + 5_000);
    utimesSync(file, later, later);
    expect(unverifiedFile(file, expected)).toMatch(/not the manifest's/);
  });

  it("never follows a link, even to the right file; refuses a folder and a wrong size", () => {
    const dir = tempDir();
    const real = join(dir, "real.gguf");
    writeFileSync(real, good);
    const link = join(dir, "m.gguf");
    symlinkSync(real, link);
    expect(unverifiedFile(link, expected)).toMatch(/is a link, not the file itself/);
    mkdirSync(join(dir, "folder.gguf"));
    expect(unverifiedFile(join(dir, "folder.gguf"), expected)).toMatch(/is not a regular file/);
    writeFileSync(join(dir, "short.gguf"), "x");
    expect(unverifiedFile(join(dir, "short.gguf"), expected)).toMatch(/is 1 bytes, not the manifest's 16/);
    expect(unverifiedFile(join(dir, "none.gguf"), expected)).toMatch(/does not exist/);
  });
});

describe("staging folders of a fetch", () => {
  it("removes one whose fetch is gone (or without a pid, older than a day), keeps a live fetch's and a fresh one", () => {
    const models = tempDir();
    const folder = (name: string, pid?: number) => {
      const path = join(models, name);
      mkdirSync(path);
      writeFileSync(join(path, "part.gguf"), "half");
      if (pid !== undefined) writeFileSync(join(path, "pid"), String(pid));
      return path;
    };
    const killed = folder(".fetch-a-1", 111);
    const live = folder(".fetch-a-2", 222);
    const old = folder(".fetch-b-3");
    const fresh = folder(".fetch-b-4");
    const model = folder("smollm2");
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(old, dayAgo, dayAgo);
    const removed = removeStaleStaging(models, (pid) => pid === 222);
    expect(removed.sort()).toEqual([killed, old].sort());
    expect([live, fresh, model].every((path) => existsSync(path))).toBe(true);
    expect(existsSync(killed)).toBe(false);
  });
});
