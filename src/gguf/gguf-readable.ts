// Whether a file a person opened is a GGUF whose header can be read, and if not, where it broke.
// wllama resolves some failed loads (a file with the wrong magic, a truncated header, absurd
// counts) with no metadata, and the lab then said it "does not know this model's family": the
// lab's own header reader (bounded: gguf-metadata.ts) says what is really wrong.
import { GgufFormatError, ggufReaderForBlob, readGgufMetadata } from "./gguf-metadata.ts";

/** Why `file`'s GGUF header cannot be read (the reader's words, naming where), or undefined when it can. */
export async function unreadableGgufHeader(file: Blob): Promise<string | undefined> {
  try {
    await readGgufMetadata(ggufReaderForBlob(file));
    return undefined;
  } catch (error) {
    if (error instanceof GgufFormatError) return error.message;
    throw error;
  }
}
