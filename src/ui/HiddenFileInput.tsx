// The hidden file input behind an "Open…" or "Import…" button: it hands on the one file chosen and
// forgets the choice, so choosing the same file again opens it again.
import type { RefObject } from "react";

export function HiddenFileInput({ inputRef, accept, testId, onFile }: { inputRef: RefObject<HTMLInputElement | null>; accept: string; testId: string; onFile: (file: File) => void }) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept={accept}
      hidden
      data-testid={testId}
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = "";
        if (file) onFile(file);
      }}
    />
  );
}
