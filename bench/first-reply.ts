// `npm run --silent bench:first-reply`: the first reply of a new visitor on the CPU engine, as a
// person gets it: the built page in Chromium, one click on "Run SmolLM2 135M on this computer's
// CPU", then a click on the suggested message as soon as it shows, until its first token is on
// the page. Twice: in a new browser profile (cold: the model file downloads from the lab's
// server) and, in the same profile after a reload (warm: the model from the browser's cache).
// The goal: ≤ 10 s warm, ≤ 15 s cold, on a quiet 2-core machine. Threads as the page
// chooses them (measured). Figures only.
import { loadavg } from "node:os";
import { chromium } from "@playwright/test";
import { baseChromiumArgs, systemChromiumPath, webGpuArgs } from "../e2e/browser.ts";
import { withAppBuilt } from "./ui-perf.ts";

const load = () => loadavg().map((x) => x.toFixed(1)).join(" ");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

console.log("== The first reply on the CPU engine: one click to the first token of the suggested message ==");
console.log(`load average ${load()} at the start`);
await withAppBuilt(async (_browser, base) => {
  // With WebGPU on, as the e2e tests run: this machine's adapter is a software one, so the first
  // screen offers the CPU model (without WebGPU at all the replay demo comes first).
  const browser = await chromium.launch({ executablePath: systemChromiumPath(), args: [...baseChromiumArgs, ...webGpuArgs] });
  const context = await browser.newContext();
  try {
    for (const label of ["cold: a new browser profile, the model downloads", "warm: the same profile after a reload, the model from the browser's cache"]) {
      const page = await context.newPage();
      await page.goto(`${base}/`);
      // The profile keeps the last conversation: a returning person starts a new one, which offers the model again.
      if (label.startsWith("warm")) await page.getByTestId("new-conversation").click();
      const offer = page.getByTestId("cpu-offer-button");
      await offer.waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
        await page.screenshot({ path: "/tmp/first-reply-fail.png" });
        throw error;
      });
      const clicked = Date.now();
      await offer.click();
      const suggestion = page.getByTestId("suggested-message");
      await suggestion.waitFor({ timeout: 600_000 });
      const ready = Date.now();
      await suggestion.click();
      const reply = page.getByTestId("message-assistant").last().locator(".md").first();
      await page.waitForFunction((element) => Boolean(element?.textContent?.trim()), await reply.elementHandle({ timeout: 600_000 }), { timeout: 600_000, polling: 50 });
      const firstToken = Date.now();
      const status = (await page.getByTestId("cpu-section").getByTestId("engine-status").textContent().catch(() => "")) ?? "";
      const threads = /(\d+ threads?(, chosen by measuring the cores \([^)]*\))?)/.exec(status)?.[1] ?? "?";
      console.log(`  ${label}: ${seconds(firstToken - clicked)} from the click to the first token (model ready and suggestion shown after ${seconds(ready - clicked)}, then ${seconds(firstToken - ready)} to the first token); ${threads}; load ${load()}`);
      await page.getByTestId("message-assistant").last().and(page.locator('[data-status]:not([data-status="running"]):not([data-status="streaming"])')).waitFor({ timeout: 600_000 });
      await page.close();
    }
  } finally {
    await context.close();
    await browser.close();
  }
});
console.log(`load average ${load()} at the end`);
