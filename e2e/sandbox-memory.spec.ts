// A memory blow-up in run_javascript ends the call with a clear error, and the lab keeps
// working (issue 15: it used to crash the whole tab). The sandbox frame has a process of its
// own, so the browser ends that process, not the lab's; the page notices through its heartbeat.
//
// Playwright counts the crash of any frame's process as the crash of the page and stops
// driving it, although the page lives on. So this test launches its own browser with a
// DevTools port, waits for that crash, and then drives the same, living page over a fresh
// connection. It allocates a few GB for some seconds.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, expect, test } from "@playwright/test";
import { baseChromiumArgs, systemChromiumPath } from "./browser.ts";
import { send, serveTranscript } from "./lab-helpers.ts";

const call = (name: string, args: Record<string, unknown>) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

test("a memory blow-up ends the call with a clear error, and the next turn works", async ({ baseURL }) => {
  test.setTimeout(240_000);
  const profile = await mkdtemp(join(tmpdir(), "toolcall-lab-memory-"));
  const executablePath = systemChromiumPath();
  const context = await chromium.launchPersistentContext(profile, {
    ...(executablePath ? { executablePath } : {}),
    args: [...baseChromiumArgs, "--remote-debugging-port=0"],
    baseURL: baseURL!,
    viewport: { width: 1280, height: 800 },
  });
  let watcher: Awaited<ReturnType<typeof chromium.connectOverCDP>> | undefined;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const transcript = await serveTranscript(page, "memory-blow-up", {
      title: "e2e memory blow-up",
      protocol: "hermes",
      delayMs: 0,
      turns: [
        call("run_javascript", { code: "const a = [];\nfor (;;) a.push(new Array(1e6).fill(Math.random()));" }),
        "That used too much memory.",
        call("run_javascript", { code: "return 6 * 7" }),
        "Back in business.",
      ],
    });
    await page.goto(`/?engine=replay&transcript=${encodeURIComponent(transcript)}`);
    // Only running out of memory can end this call in time.
    await page.getByTestId("setting-tool-timeout").fill("600");
    await send(page, "Fill the memory.");
    const crashed = page.waitForEvent("crash", { timeout: 180_000 });
    await expect(page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]').first()).toHaveAttribute("data-status", "running");
    await crashed;

    const port = (await readFile(join(profile, "DevToolsActivePort"), "utf8")).split("\n")[0];
    watcher = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
    const lab = watcher.contexts().flatMap((c) => c.pages()).find((candidate) => candidate.url().startsWith(baseURL!));
    expect(lab, "the lab's page is still open").toBeDefined();
    const cards = lab!.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]');
    await expect(cards.first()).toHaveAttribute("data-status", "error", { timeout: 60_000 });
    await expect(cards.first()).toContainText("stopped responding");
    await expect(cards.first()).toContainText("too much memory");
    await expect(lab!.getByTestId("message-assistant").first()).toHaveAttribute("data-status", "final");

    await send(lab!, "Something small now.");
    await expect(lab!.getByTestId("message-assistant").nth(1)).toHaveAttribute("data-status", "final");
    await expect(cards.nth(1)).toHaveAttribute("data-status", "ok");
    await expect(cards.nth(1)).toContainText("42");
  } finally {
    await watcher?.close();
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
