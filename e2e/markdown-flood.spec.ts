// Model output alone could freeze the page: 50,000 short Markdown lines `row i _x_` in two
// chunks made React insert ~150,000 inline nodes into the live paragraph, one by one, and lay
// it all out (a 15–60 s task). Now a long paragraph is drawn in parts of 100 lines, each built
// off the page and inserted whole, finished parts are not redrawn, and parts out of view are not
// laid out. Checked here without timing: how many nodes are inserted into the live reply, and
// that all of it is shown. (The time figure is the UI bench's: bench/markdown-flood.ts.)
import { expect, test } from "@playwright/test";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

const LINES = 50_000;
const flood = Array.from({ length: LINES }, (_, i) => `row ${i} _x_`).join("\n");

test("a 50,000-line Markdown reply streams in two chunks without inserting its nodes one by one into the live page", async ({ page }) => {
  const path = await serveTranscript(page, "flood", { title: "flood", protocol: "hermes", turns: [flood], chunkChars: Math.ceil(flood.length / 2), delayMs: 50 });
  await openLab(page, path);
  // Nodes inserted into a reply that is already on the page (a new subtree counts once).
  await page.evaluate(() => {
    const counter = { inserted: 0 };
    (window as unknown as { __inserted: typeof counter }).__inserted = counter;
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.target instanceof Element && record.target.closest("[data-testid=message-assistant] .md")) counter.inserted += record.addedNodes.length;
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  await send(page, "List the rows.");
  const last = `row ${LINES - 1} x`;
  await page.waitForFunction(
    (last) => {
      const reply = document.querySelectorAll("[data-testid=message-assistant] .md");
      return reply[reply.length - 1]?.textContent?.endsWith(last) === true;
    },
    last,
    { polling: 250, timeout: 120_000 },
  );
  const shown = await page.evaluate(() => {
    const md = document.querySelector("[data-testid=message-assistant] .md")!;
    return { text: md.textContent ?? "", ems: md.querySelectorAll("em").length, parts: md.querySelectorAll(".md-part").length };
  });
  // Everything is there, emphasis included, in parts of 100 lines.
  expect(shown.ems).toBe(LINES);
  expect(shown.parts).toBe(LINES / 100);
  expect(shown.text.startsWith("row 0 xrow 1 x") || shown.text.startsWith("row 0 x\nrow 1 x")).toBe(true);
  // Before: the second chunk's ~75,000 inline nodes went into the live paragraph one at a time.
  const inserted = await page.evaluate(() => (window as unknown as { __inserted: { inserted: number } }).__inserted.inserted);
  expect(inserted).toBeLessThan(2_000);
  await page.screenshot({ path: "e2e/.output/markdown-flood.png" });
});
