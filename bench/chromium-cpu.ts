// CPU time the benchmarks' Chromium has used, from Linux's /proc: what a run costs, whatever else
// the machine runs (wall time depends on that; CPU time hardly does).
import { readdirSync, readFileSync } from "node:fs";

/** CPU time (ms) of every Chromium process under this one. */
export function chromiumCpuMs(): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  const chromium = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(entry), Number(fields[1]));
      cpu.set(Number(entry), ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      if (/chrom/i.test(readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")[0] ?? "")) chromium.add(Number(entry));
    } catch {
      // A process that ended while we looked.
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const pid of chromium) if (mine(pid)) total += cpu.get(pid) ?? 0;
  return total;
}

