// A long reply is saved and exported with its text once (the shared-text encoding): the stored
// log and the exported file are about the reply's size, and both read back to the same chat.
import { expect, test, type Page } from "@playwright/test";
import { exportedConversation, openLab, send, serveTranscript } from "./lab-helpers.ts";

const REPLY_CHARS = 200_000;

function longReply(): string {
  let text = "";
  for (let i = 0; text.length < REPLY_CHARS; i += 1) text += `Sentence ${i} of a long reply, number ${(i * 7919) % 10007}. `;
  return `${text.slice(0, REPLY_CHARS - 12)} The end 4242`;
}

/** What the page's IndexedDB holds of conversations' events, as JSON characters. */
function storedEventChars(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("toolcall-lab");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction("eventChunks", "readonly").objectStore("eventChunks").getAll();
          request.onsuccess = () => {
            open.result.close();
            // A chunk's records are stored as a Blob of their JSON: counted by its text.
            const chunks = request.result as { eventsBlob?: Blob }[];
            void Promise.all(chunks.map(async ({ eventsBlob, ...chunk }) => (eventsBlob ? { ...chunk, events: JSON.parse(await eventsBlob.text()) as unknown } : chunk))).then(
              (read) => resolve(JSON.stringify(read).length),
              reject,
            );
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

test("a 200,000-character reply is stored and exported about once, and reloads and imports back", async ({ page }) => {
  const reply = longReply();
  const url = await serveTranscript(page, "long-reply", { title: "Long reply", protocol: "hermes", chunkChars: 2_000, delayMs: 1, turns: [reply] });
  await openLab(page, url);
  await send(page, "Write at length.");
  const message = page.getByTestId("message-assistant");
  await expect(message).toHaveAttribute("data-status", "final", { timeout: 30_000 });
  await expect(message).toContainText("The end 4242");

  // Saved: the stored chunks (every event of the run) take about the reply's size.
  await expect.poll(() => storedEventChars(page), { timeout: 15_000 }).toBeGreaterThan(REPLY_CHARS);
  const stored = await storedEventChars(page);
  expect(stored).toBeLessThan(1.3 * REPLY_CHARS);

  const { name: fileName, text } = await exportedConversation(page);
  expect(text.length).toBeLessThan(1.3 * REPLY_CHARS);
  expect(JSON.parse(text)).toMatchObject({ format: "toolcall-lab/conversation", version: 2 });

  await page.reload();
  await expect(page.getByTestId("message-assistant")).toContainText("The end 4242");
  await expect(page.getByTestId("step-item")).toHaveCount(1);

  await page.getByTestId("new-conversation").click();
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await page.getByTestId("import-file").setInputFiles({ name: fileName, mimeType: "application/json", buffer: Buffer.from(text) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await expect(page.getByTestId("message-user")).toHaveText("Write at length.");
  await expect(page.getByTestId("message-assistant")).toContainText("The end 4242");
  await expect(page.getByTestId("step-item")).toHaveCount(1);
});
