#!/usr/bin/env node
// Builds llama.cpp's llama-server from the source the npm package node-llama-cpp carries
// (llama/gitRelease.bundle, a git bundle), once per machine, into the per-user cache keyed by the
// source's commit. Prints the binary's absolute path on stdout; progress goes to stderr.
// Usage: node scripts/real-models/build-llama-server.mjs [--print-commit]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { cpus } from "node:os";
import { labCacheDir, readManifest } from "./cache-dir.mjs";
import { sha256OfFile, unverifiedFile } from "./verified-file.mjs";

const log = (...args) => console.error("llama-server:", ...args);

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...options });
  if (result.error) throw new Error(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${result.status}`);
}

export function llamaServerRoot() {
  return join(labCacheDir(), "llama-server");
}

/** The source bundle, unpacked from the pinned node-llama-cpp tarball (npm pack), cached. */
export function sourceBundle() {
  const { llamaServer } = readManifest();
  const dir = join(llamaServerRoot(), "source", `${llamaServer.package}-${llamaServer.version}`);
  const bundle = join(dir, "gitRelease.bundle");
  if (existsSync(bundle)) return bundle;
  mkdirSync(join(llamaServerRoot(), "source"), { recursive: true });
  const staging = mkdtempSync(join(llamaServerRoot(), "source", ".fetch-"));
  try {
    log(`fetching ${llamaServer.package}@${llamaServer.version} from the npm registry`);
    try {
      execFileSync("npm", ["pack", `${llamaServer.package}@${llamaServer.version}`, "--silent"], { cwd: staging, stdio: ["ignore", "pipe", "inherit"] });
    } catch (error) {
      throw new Error(`could not fetch ${llamaServer.package}@${llamaServer.version} from the npm registry (npm pack): ${error.message}`, { cause: error });
    }
    const tarball = readdirSync(staging).find((name) => name.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack ${llamaServer.package}@${llamaServer.version} wrote no tarball`);
    // Pinned like the weights: the tarball must be the one the manifest names.
    const integrity = tarballIntegrity(join(staging, tarball));
    if (llamaServer.integrity && integrity !== llamaServer.integrity) {
      throw new Error(`${llamaServer.package}@${llamaServer.version}'s tarball has integrity ${integrity}, not the manifest's ${llamaServer.integrity}: not unpacked`);
    }
    run("tar", ["xzf", tarball, "package/llama/gitRelease.bundle"], { cwd: staging });
    mkdirSync(dir, { recursive: true });
    renameSync(join(staging, "package/llama/gitRelease.bundle"), bundle);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return bundle;
}

/** A tarball's integrity as npm writes it: sha512, base64. */
export function tarballIntegrity(path) {
  return `sha512-${createHash("sha512").update(readFileSync(path)).digest("base64")}`;
}

/** Where the binary's sha256 and size were recorded right after it was built. */
function recordPath(binary) {
  return `${binary}.sha256.json`;
}

export function recordBinary(binary) {
  const size = lstatSync(binary).size;
  writeFileSync(recordPath(binary), `${JSON.stringify({ sha256: sha256OfFile(binary), size })}\n`);
}

/**
 * Why the binary at `binary` may not be run, or undefined: it and every folder from the cache down
 * to it must be this user's and writable by no one else (a file placed there by another user is
 * not run), it must not be a link, and its sha256 must be the one recorded after the build.
 */
export function untrustedBinary(binary, cacheRoot = labCacheDir()) {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const chain = [];
  for (let path = dirname(binary); path.startsWith(cacheRoot) && path.length >= cacheRoot.length; path = dirname(path)) {
    chain.push(path);
    if (path === cacheRoot) break;
  }
  for (const path of [binary, ...chain]) {
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return `${path} does not exist`;
    }
    if (uid !== undefined && stat.uid !== uid) return `${path} belongs to user ${stat.uid}, not to this user (${uid})`;
    if ((stat.mode & 0o022) !== 0) return `${path} can be written by others (mode ${(stat.mode & 0o777).toString(8)})`;
  }
  let record;
  try {
    record = JSON.parse(readFileSync(recordPath(binary), "utf8"));
  } catch {
    return `no sha256 was recorded for ${binary} when it was built: run \`npm run llama-server\``;
  }
  const why = unverifiedFile(binary, record);
  return why ? `${why} (recorded after its build)` : undefined;
}

export function bundleCommit(bundle) {
  const heads = execFileSync("git", ["bundle", "list-heads", bundle], { encoding: "utf8" });
  const commit = heads.split("\n").find((line) => line.trim())?.split(" ")[0];
  if (!commit || !/^[0-9a-f]{40}$/.test(commit)) throw new Error(`no commit in ${bundle}`);
  return commit;
}

/**
 * The build needs the processor's vector instructions (AVX2 and friends), so the cache key names
 * its instruction set too: a cache copied to another kind of machine builds anew instead of crashing.
 */
export function cpuKey() {
  let flags = "unknown";
  try {
    flags = readFileSync("/proc/cpuinfo", "utf8").split("\n").find((line) => line.startsWith("flags"))?.split(":")[1]?.trim() ?? flags;
  } catch {
    // Not Linux: the architecture alone keys the build.
  }
  return createHash("sha256").update(`${process.arch} ${flags}`).digest("hex").slice(0, 8);
}

function buildDir(commit) {
  return join(llamaServerRoot(), `${commit}-${cpuKey()}`);
}

/** The built binary for the pinned source on this processor, without fetching or building anything. */
export function findLlamaServer() {
  const { llamaServer } = readManifest();
  const bundle = join(llamaServerRoot(), "source", `${llamaServer.package}-${llamaServer.version}`, "gitRelease.bundle");
  if (!existsSync(bundle)) return undefined;
  const commit = bundleCommit(bundle);
  const binary = join(buildDir(commit), "bin", "llama-server");
  if (!existsSync(binary)) return undefined;
  const untrusted = untrustedBinary(binary);
  return { binary, commit, templates: join(buildDir(commit), "templates"), ...(untrusted ? { untrusted } : {}) };
}

export function ensureLlamaServer() {
  const bundle = sourceBundle();
  const commit = bundleCommit(bundle);
  const target = buildDir(commit);
  const binary = join(target, "bin", "llama-server");
  if (existsSync(binary)) {
    // A build made before hashes were recorded is recorded now, once (it was this script's build).
    if (!existsSync(recordPath(binary))) {
      log(`recording the sha256 of the existing build ${binary}`);
      recordBinary(binary);
    }
    const untrusted = untrustedBinary(binary);
    if (untrusted) throw new Error(`${untrusted}: not run. Remove ${target} and run \`npm run llama-server\` again to rebuild it.`);
    return { binary, commit, templates: join(target, "templates") };
  }
  const work = mkdtempSync(join(llamaServerRoot(), `.build-${commit.slice(0, 12)}-`));
  try {
    log(`building llama-server from llama.cpp ${commit} (takes about 8 minutes on 2 cores)`);
    run("git", ["clone", "--quiet", bundle, "src"], { cwd: work });
    run("git", ["-c", "advice.detachedHead=false", "checkout", "--quiet", commit], { cwd: join(work, "src") });
    run("cmake", [
      "-S", "src", "-B", "build",
      "-DCMAKE_BUILD_TYPE=Release",
      "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF", "-DLLAMA_CURL=OFF",
      // Not -march=native: on VMs whose processor reports AMX, native builds crash in the AMX
      // kernels (the guest may not use the tiles). AVX2/FMA/F16C/BMI2 (ggml's defaults without
      // GGML_NATIVE) are fast here and portable to any x86-64-v3 machine.
      "-DBUILD_SHARED_LIBS=OFF", "-DGGML_NATIVE=OFF",
      // No web UI: its build would try to download prebuilt assets, and tests use the HTTP API only.
      "-DLLAMA_BUILD_UI=OFF", "-DLLAMA_USE_PREBUILT_UI=OFF",
      `-DLLAMA_BUILD_COMMIT=${commit.slice(0, 12)}`,
    ], { cwd: work });
    run("cmake", ["--build", "build", "-j", String(Math.max(1, cpus().length)), "-t", "llama-server"], { cwd: work });
    const staged = join(work, "out");
    mkdirSync(join(staged, "bin"), { recursive: true });
    renameSync(join(work, "build", "bin", "llama-server"), join(staged, "bin", "llama-server"));
    recordBinary(join(staged, "bin", "llama-server"));
    writeFileSync(join(staged, "commit"), `${commit}\n`);
    // The reference templates llama.cpp carries, for checks that render with a vendor's own template.
    run("cp", ["-r", join(work, "src", "models", "templates"), join(staged, "templates")]);
    rmSync(target, { recursive: true, force: true });
    renameSync(staged, target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { binary, commit, templates: join(target, "templates") };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const { binary, commit } = ensureLlamaServer();
    console.log(process.argv.includes("--print-commit") ? commit : binary);
  } catch (error) {
    log(error.message);
    process.exit(1);
  }
}
