#!/usr/bin/env node
// Builds chat-reference (chat-reference.cpp: llama.cpp's own template rendering and output parsing
// as JSON) from the same llama.cpp source as llama-server (node-llama-cpp's bundle), once per
// machine, into the per-user cache keyed by the source's commit, the processor and the tool's own
// source. Only the targets it needs are built (llama-common, llama, ggml, the tool). The build
// folder is kept, so a change to chat-reference.cpp rebuilds the tool alone.
// Prints the binary's absolute path on stdout; progress goes to stderr.
// Usage: node scripts/chat-reference/build-chat-reference.mjs [--if-llama-server]
//   --if-llama-server: build only when llama-server is built on this machine (npm test's way:
//   a machine that runs the llama-server checks runs this reference too); otherwise say so and exit 0.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { labCacheDir } from "../real-models/cache-dir.mjs";
import { bundleCommit, cpuKey, findLlamaServer, recordBinary, sourceBundle, untrustedBinary } from "../real-models/build-llama-server.mjs";

const log = (...args) => console.error("chat-reference:", ...args);
const here = fileURLToPath(new URL(".", import.meta.url));
const TOOL_FILES = ["chat-reference.cpp", "CMakeLists.txt"];

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...options });
  if (result.error) throw new Error(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${result.status}`);
}

/** The tool's own source, hashed: a changed chat-reference.cpp is a different binary. */
function toolKey() {
  const hash = createHash("sha256");
  for (const file of TOOL_FILES) hash.update(file).update("\0").update(readFileSync(join(here, file))).update("\0");
  return hash.digest("hex").slice(0, 12);
}

export function chatReferenceRoot() {
  return join(labCacheDir(), "chat-reference");
}

function paths(commit) {
  const root = join(chatReferenceRoot(), `${commit}-${cpuKey()}`);
  return { root, source: join(root, "llama.cpp"), build: join(root, "build"), binary: join(root, `bin-${toolKey()}`, "chat-reference") };
}

/** The built reference for the pinned source, this processor and this chat-reference.cpp, without building anything. */
export function findChatReference() {
  const llamaServer = findLlamaServer();
  if (!llamaServer) return undefined;
  const { binary } = paths(llamaServer.commit);
  if (!existsSync(binary)) return undefined;
  const untrusted = untrustedBinary(binary);
  return { binary, commit: llamaServer.commit, ...(untrusted ? { untrusted } : {}) };
}

export function ensureChatReference() {
  const bundle = sourceBundle();
  const commit = bundleCommit(bundle);
  const { root, source, build, binary } = paths(commit);
  if (existsSync(binary)) {
    const untrusted = untrustedBinary(binary);
    if (untrusted) throw new Error(`${untrusted}: not run. Remove ${root} and run \`npm run chat-reference\` again to rebuild it.`);
    return { binary, commit };
  }
  mkdirSync(root, { recursive: true, mode: 0o755 });
  if (!existsSync(join(source, ".git"))) {
    rmSync(source, { recursive: true, force: true });
    log(`checking out llama.cpp ${commit}`);
    run("git", ["clone", "--quiet", bundle, source]);
    run("git", ["-c", "advice.detachedHead=false", "checkout", "--quiet", commit], { cwd: source });
  }
  log(`building chat-reference against llama.cpp ${commit} (llama-common and what it needs: about 10 minutes on 2 cores the first time)`);
  run("cmake", [
    "-S", here, "-B", build,
    `-DLLAMA_SOURCE=${source}`,
    "-DCMAKE_BUILD_TYPE=Release",
    // As for llama-server: not -march=native (AMX crashes on some VMs), x86-64-v3 defaults.
    "-DBUILD_SHARED_LIBS=OFF", "-DGGML_NATIVE=OFF",
    `-DLLAMA_BUILD_COMMIT=${commit.slice(0, 12)}`,
  ]);
  const jobs = String(Math.max(1, Math.min(2, cpus().length)));
  run("cmake", ["--build", build, "-j", jobs, "-t", "chat-reference"]);
  const built = join(build, "chat-reference");
  const staged = `${binary}.staging`;
  mkdirSync(join(binary, ".."), { recursive: true, mode: 0o755 });
  rmSync(staged, { force: true });
  renameSync(built, staged);
  renameSync(staged, binary);
  recordBinary(binary);
  writeFileSync(join(root, "commit"), `${commit}\n`);
  return { binary, commit };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    if (process.argv.includes("--if-llama-server") && !findLlamaServer()) {
      log("llama-server is not built on this machine: chat-reference not built (its tests skip)");
      process.exit(0);
    }
    console.log(ensureChatReference().binary);
  } catch (error) {
    log(error.message);
    process.exit(1);
  }
}
