// A cached model is used, served to the page or handed to llama-server only once its sha256 is
// the manifest's: a file of the right size (98 MB of zeros, a link) was taken for SmolLM2. Hashing
// 250 MB each time would slow every test, so a good hash is remembered beside the file, keyed by
// the file's identity (device, inode), size and modification time: a file replaced or rewritten
// is hashed again. A link is never followed, and a file that is not a regular file is refused.
import { createHash } from "node:crypto";
import { lstatSync, readFileSync, writeFileSync, openSync, readSync, closeSync } from "node:fs";

const HASH_CHUNK = 4 * 1024 * 1024;

/** The file's sha256, read synchronously in chunks (a cached model, once per identity). */
export function sha256OfFile(path) {
  const hash = createHash("sha256");
  const buffer = Buffer.alloc(HASH_CHUNK);
  const fd = openSync(path, "r");
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, HASH_CHUNK, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

function identityOf(stat) {
  return { dev: Number(stat.dev), ino: Number(stat.ino), size: stat.size, mtimeMs: stat.mtimeMs };
}

function memoPath(path) {
  return `${path}.verified.json`;
}

/**
 * Why the file at `path` may not be used as the one with this sha256 and size, or undefined when it
 * may. Checked once per file identity and modification time (remembered in `<file>.verified.json`).
 */
export function unverifiedFile(path, { sha256, size }) {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return `${path} does not exist`;
  }
  if (stat.isSymbolicLink()) return `${path} is a link, not the file itself: it is not followed`;
  if (!stat.isFile()) return `${path} is not a regular file`;
  if (stat.size !== size) return `${path} is ${stat.size} bytes, not the manifest's ${size}`;
  const identity = identityOf(stat);
  try {
    const memo = JSON.parse(readFileSync(memoPath(path), "utf8"));
    if (memo.sha256 === sha256 && ["dev", "ino", "size", "mtimeMs"].every((key) => memo[key] === identity[key])) return undefined;
  } catch {
    // No memo (or an unreadable one): hash the file.
  }
  const digest = sha256OfFile(path);
  if (digest !== sha256) return `${path} has sha256 ${digest}, not the manifest's ${sha256}`;
  try {
    writeFileSync(memoPath(path), `${JSON.stringify({ sha256, ...identity })}\n`);
  } catch {
    // A read-only cache: the file is still good, it is only hashed again next time.
  }
  return undefined;
}
