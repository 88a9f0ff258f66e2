// The watchdog every llama-server runs under: a server that ignores TERM (llama-server once hung
// in its shutdown during an eval run) is killed all the same, whichever way it is told to stop.
// No llama-server needed: a shell loop that ignores TERM stands in for a hung one.
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { spawnUnderWatchdog, WATCHDOG } from "./llama-server-process.ts";

/** A process that ignores TERM, under the watchdog; resolves with its pid once it runs. */
async function stubbornServer() {
  const child = spawnUnderWatchdog("/bin/sh", ["-c", "trap '' TERM; echo $$; while :; do sleep 0.2; done"], process.env);
  const [first] = (await once(child.stdout!, "data")) as [Buffer];
  return { child, pid: Number(first.toString("utf8").trim()) };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the process is gone; false if it is still there after `seconds` (a bound on a hang, not a speed). */
async function goneWithin(pid: number, seconds: number): Promise<boolean> {
  for (const end = Date.now() + seconds * 1000; Date.now() < end; ) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !alive(pid);
}

describe.skipIf(process.platform === "win32")("the llama-server watchdog", () => {
  it("kills a server that ignores TERM when told to stop (TERM to the watchdog, its stdin closed), as stop() does", { timeout: 60_000 }, async () => {
    const { child, pid } = await stubbornServer();
    expect(alive(pid)).toBe(true);
    const exited = once(child, "exit");
    child.stdin!.end();
    child.kill("SIGTERM");
    await exited;
    expect(await goneWithin(pid, 30)).toBe(true);
  });

  // A stop can come at any moment after the start. A TERM that came after the server was running
  // but before the watchdog had set its trap killed the shell alone and left the server running
  // (a CI run beside an eval, the machine loaded). Here the watchdog is held up for 0.3 s right
  // after it starts the server, as a loaded machine may, and stopped the moment the server speaks.
  it("leaves no server behind when the stop comes right after the server started", { timeout: 60_000 }, async () => {
    const start = '"$0" "$@" </dev/null &\n';
    expect(WATCHDOG).toContain(start);
    const heldUp = WATCHDOG.replace(start, `${start}sleep 0.3\n`);
    const child = spawnUnderWatchdog("/bin/sh", ["-c", "trap '' TERM; echo $$; while :; do sleep 0.2; done"], process.env, heldUp);
    const [first] = (await once(child.stdout!, "data")) as [Buffer];
    const pid = Number(first.toString("utf8").trim());
    const exited = once(child, "exit");
    child.stdin!.end();
    child.kill("SIGTERM");
    await exited;
    expect(await goneWithin(pid, 30)).toBe(true);
  });

  it("kills it when the process that started it is gone (its end of the pipe closed, no signal)", { timeout: 60_000 }, async () => {
    const { child, pid } = await stubbornServer();
    const exited = once(child, "exit");
    child.stdin!.destroy();
    expect(await goneWithin(pid, 30)).toBe(true);
    await exited;
  });
});
