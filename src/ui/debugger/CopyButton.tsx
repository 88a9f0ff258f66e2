// Copies text to the clipboard and says whether it worked (a denied permission or an insecure
// page makes navigator.clipboard fail; the user should know the text did not land).
import { useState } from "react";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<{ kind: "idle" } | { kind: "copied" } | { kind: "failed"; reason: string }>({ kind: "idle" });
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error("this page has no clipboard access");
      await navigator.clipboard.writeText(text);
      setState({ kind: "copied" });
    } catch (error) {
      setState({ kind: "failed", reason: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <span className="dbg-copy">
      <button type="button" className="dbg-small-button" onClick={() => void copy()} aria-label={`Copy ${label}`}>
        Copy
      </button>
      <span role="status" className={state.kind === "failed" ? "dbg-error-text" : "dbg-hint"}>
        {state.kind === "copied" ? "Copied." : state.kind === "failed" ? `Copy failed: ${state.reason}. Select the text and copy it by hand.` : ""}
      </span>
    </span>
  );
}
