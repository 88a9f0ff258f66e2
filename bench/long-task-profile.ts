// A CPU profile of the page's main thread (Chrome DevTools Protocol) over a measured phase, read
// against the Long Tasks API's entries: for each task over 200 ms, the functions with the most
// self time inside it. Used by bench/long-tasks.ts (LONG_TASKS_PROFILE=1) to find what to split;
// the figures are a guide (the sampling clock and the page's clock are matched at the start only).
import type { Page } from "@playwright/test";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split("/").pop() || "(native)";
  return `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
}

/** Starts a profile; `report` stops it and describes the long tasks seen since `since` (page clock, ms). */
export async function profileLongTasks(page: Page): Promise<{ report: (label: string, since: number) => Promise<string> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  const pageStart = await page.evaluate(() => performance.now());
  await cdp.send("Profiler.start");
  return {
    report: async (label, since) => {
      const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
      await cdp.detach();
      const tasks = await page.evaluate(
        (from) => ((window as unknown as { __longTasks?: { start: number; duration: number }[] }).__longTasks ?? []).filter((t) => t.start >= from && t.duration > 200),
        since,
      );
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const parent = new Map<number, number>();
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      // Sample times on the page's clock (ms).
      const times: number[] = [];
      let t = 0;
      for (const delta of profile.timeDeltas) times.push(pageStart + (t += delta) / 1000);
      const lines = [`    profile of "${label}": ${tasks.length} long tasks over 200 ms`];
      for (const task of tasks) {
        const self = new Map<string, number>();
        const inclusive = new Map<string, number>();
        for (let i = 0; i < profile.samples.length; i++) {
          const at = times[i]!;
          if (at < task.start || at > task.start + task.duration) continue;
          const weight = (profile.timeDeltas[i + 1] ?? 0) / 1000;
          const leaf = byId.get(profile.samples[i]!)!;
          self.set(frameName(leaf), (self.get(frameName(leaf)) ?? 0) + weight);
          const seen = new Set<string>();
          for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
            const name = frameName(byId.get(id)!);
            if (seen.has(name)) continue;
            seen.add(name);
            inclusive.set(name, (inclusive.get(name) ?? 0) + weight);
          }
        }
        const top = (m: Map<string, number>, n: number) =>
          [...m]
            .sort((a, b) => b[1] - a[1])
            .slice(0, n)
            .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`)
            .join("; ");
        lines.push(`    task at ${task.start.toFixed(0)} ms, ${task.duration.toFixed(0)} ms — self: ${top(self, 8)}`);
        lines.push(`      inclusive: ${top(inclusive, 14)}`);
      }
      return lines.join("\n");
    },
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
}

/**
 * A Chromium trace over a phase, its main-thread events summed by name inside each long task
 * (native work a CPU profile shows only as "(program)": style, layout, paint, observers).
 */
export async function traceLongTasks(page: Page): Promise<{ report: (label: string, since: number) => Promise<string> }> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "blink.user_timing", "v8"] });
  const marker = `long-task-trace-${Date.now()}`;
  const pageStart = await page.evaluate((name) => {
    performance.mark(name);
    return performance.now();
  }, marker);
  return {
    report: async (label, since) => {
      const buffer = await browser.stopTracing();
      const { traceEvents } = JSON.parse(buffer.toString("utf8")) as { traceEvents: TraceEvent[] };
      const mark = traceEvents.find((e) => e.name === marker);
      const tasks = await page.evaluate(
        (from) => ((window as unknown as { __longTasks?: { start: number; duration: number }[] }).__longTasks ?? []).filter((t) => t.start >= from && t.duration > 200),
        since,
      );
      if (!mark) return `    trace of "${label}": the page's mark was not in the trace`;
      const lines = [`    trace of "${label}": ${tasks.length} long tasks over 200 ms`];
      for (const task of tasks) {
        const from = mark.ts + (task.start - pageStart) * 1000;
        const to = from + task.duration * 1000;
        const byName = new Map<string, number>();
        for (const e of traceEvents) {
          if (e.pid !== mark.pid || e.tid !== mark.tid || e.ph !== "X" || e.dur === undefined || e.ts < from || e.ts > to) continue;
          byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
        }
        const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`).join("; ");
        lines.push(`    task at ${task.start.toFixed(0)} ms, ${task.duration.toFixed(0)} ms — ${top}`);
      }
      return lines.join("\n");
    },
  };
}
