// The Evaluate view runs its cases on the page's main thread, each chunk of a reply parsed as it
// arrives. A server's reply can come in large pieces (or many at once from one network read):
// 5 MB replies of unfinished calls held the page 1–1.8 s at a time. Paced, a text or reasoning
// chunk is handed on in pieces of at most PACED_PIECE_CHARS, and before each piece the page may
// get a turn (`pause`, e.g. a yield point that yields once ~16 ms of work have passed).
import { piecesOutsidePairs } from "toolcall-middleware/text/surrogate-pairs.ts";
import type { Engine, EngineChunk } from "toolcall-middleware/types.ts";
import { wrapEngineStreams } from "./engine-streams.ts";

export const PACED_PIECE_CHARS = 4_096;

export function pacedEngine(engine: Engine, pause: () => Promise<void>): Engine {
  return wrapEngineStreams(engine, (start, signal) => paced(start(signal), pause));
}

async function* paced(source: AsyncIterable<EngineChunk>, pause: () => Promise<void>): AsyncGenerator<EngineChunk> {
  for await (const chunk of source) {
    if ((chunk.type === "text" || chunk.type === "reasoning") && chunk.text.length > PACED_PIECE_CHARS) {
      for (const piece of pieces(chunk.text)) {
        await pause();
        yield { type: chunk.type, text: piece };
      }
      continue;
    }
    await pause();
    yield chunk;
  }
}

/** The text in pieces of at most PACED_PIECE_CHARS, never splitting a surrogate pair. */
const pieces = (text: string) => piecesOutsidePairs(text, PACED_PIECE_CHARS);
