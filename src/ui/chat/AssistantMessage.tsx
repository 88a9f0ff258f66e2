// One assistant turn: the run's text (as sanitized Markdown), reasoning folded away, tool-call
// cards in the order they happened, and how the turn ended when it did not simply answer.
import { memo, useMemo, useState } from "react";
import { useDebuggerSelection } from "../../app/lab-stores-context.tsx";
import type { AssistantBlock, AssistantTurn } from "../../store/derive-chat.ts";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import { Markdown } from "../markdown/Markdown.tsx";
import { boundBlocks, hiddenBlocksNote, type HiddenBlocks } from "./bounded-blocks.ts";
import { ToolCallCard } from "./ToolCallCard.tsx";
import { readingPromptWords } from "./reading-prompt.ts";
import { turnEndNote } from "./turn-end-note.ts";

function Block({ block, streaming }: { block: AssistantBlock; streaming: boolean }) {
  switch (block.kind) {
    case "text":
      return <Markdown text={block.text} />;
    case "reasoning":
      return (
        <details className="reasoning">
          <summary>{streaming ? "Thinking…" : "Reasoning"} <span className="muted">({block.text.trim().length} chars)</span></summary>
          <div className="reasoning-text">{visibleBidi(block.text.trim())}</div>
        </details>
      );
    case "tool-call":
      return <ToolCallCard card={block.card} />;
    case "notice":
      return <div className={`chat-notice notice-${block.tone}`}>{visibleBidi(block.text)}</div>;
  }
}

/** What the chat left out of a turn, with a way to its step in the debugger (which lists everything). */
function HiddenBlocksNote({ hidden }: { hidden: HiddenBlocks }) {
  const selectStep = useDebuggerSelection((s) => s.selectStep);
  const { firstStepId } = hidden;
  return (
    <div className="chat-notice notice-info chat-hidden-blocks" data-testid="hidden-blocks-note" data-parse-errors={hidden.parseErrors} data-calls={hidden.calls} data-texts={hidden.texts}>
      {hiddenBlocksNote(hidden)}
      {firstStepId !== undefined && (
        <>
          {" "}
          <button type="button" className="chat-hidden-blocks-show" data-testid="hidden-blocks-show-step" onClick={() => selectStep(firstStepId)}>
            Show the step in the debugger
          </button>
        </>
      )}
    </div>
  );
}

/** While the model reads its prompt: how far, and about how long is left (the engine's reports). */
function ReadingPromptLine({ reading }: { reading: NonNullable<AssistantTurn["readingPrompt"]> }) {
  const words = readingPromptWords(reading);
  return (
    <div className="chat-reading-prompt" data-testid="reading-prompt" data-processed={reading.progress?.processedTokens} data-total={reading.progress?.totalTokens}>
      <span>{words.text}</span>
      {words.fraction !== undefined && <progress max={1} value={words.fraction} aria-label="Prompt read" />}
    </div>
  );
}

/** Copies the turn's text (Markdown source) to the clipboard, saying whether it worked. */
function CopyText({ text }: { text: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  if (!text) return null;
  return (
    <button
      type="button"
      className="msg-copy"
      title="Copy the reply's text (Markdown)"
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setState("copied"),
          () => setState("failed"),
        );
        setTimeout(() => setState("idle"), 1500);
      }}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
    </button>
  );
}

/** `replayNote`: said beside a replayed reply to a message its recording was not made for. */
export const AssistantMessage = memo(function AssistantMessage({ turn, replayNote }: { turn: AssistantTurn; replayNote?: string | undefined }) {
  const running = turn.status === "running";
  const note = turnEndNote(turn);
  // A failure already shown as a step notice is not repeated in the end note.
  const errorShown = turn.error !== undefined && turn.blocks.some((b) => b.kind === "notice" && b.text === turn.error);
  const { shown, hidden, noteAt } = useMemo(() => boundBlocks(turn.blocks), [turn.blocks]);
  const duration = turn.endedAt !== undefined ? turn.endedAt - turn.startedAt : undefined;
  return (
    <article className={`msg msg-assistant status-${turn.status}`} data-testid="message-assistant" data-status={turn.status} data-run-id={turn.runId}>
      <header className="msg-meta">
        <span className="msg-role">assistant</span>
        {turn.protocols.length > 0 && <span className="chip">{turn.protocols.join(" → ")}</span>}
        {turn.steps > 0 && <span>{turn.steps} step{turn.steps === 1 ? "" : "s"}</span>}
        {duration !== undefined && <span>{duration < 1000 ? `${duration} ms` : `${(duration / 1000).toFixed(1)} s`}</span>}
        {!running && <CopyText text={turn.blocks.flatMap((b) => (b.kind === "text" ? [b.text.trim()] : [])).join("\n\n")} />}
      </header>
      <div className="msg-body">
        {replayNote && (
          <div className="chat-notice notice-info" data-testid="replay-other-message">
            {visibleBidi(replayNote)}
          </div>
        )}
        {shown.slice(0, noteAt).map((block) => (
          <Block key={block.key} block={block} streaming={running && block === turn.blocks[turn.blocks.length - 1]} />
        ))}
        {hidden && <HiddenBlocksNote hidden={hidden} />}
        {shown.slice(noteAt).map((block) => (
          <Block key={block.key} block={block} streaming={running && block === turn.blocks[turn.blocks.length - 1]} />
        ))}
        {running && turn.readingPrompt && <ReadingPromptLine reading={turn.readingPrompt} />}
        {running && <span className="typing" aria-label="generating" />}
        {!running && turn.blocks.length === 0 && !note && <p className="muted">(empty reply)</p>}
        {note && !(note.tone === "error" && errorShown) && (
          <div className={`chat-notice notice-${note.tone}`} data-testid="turn-end-note" data-cut-off={turn.cutOff?.limit}>
            {visibleBidi(note.text)}
          </div>
        )}
      </div>
    </article>
  );
});
