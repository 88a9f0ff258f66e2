// After a replay's last recorded turn: the chat says the recording is over and offers what next
// (another transcript in the protocol chosen, a real model, a new conversation), instead of
// letting the next message end in the replay engine's error.
import { useEffect, useRef } from "react";
import { useConversation, useEngineState, useLabStores, useProtocolChoice, useRunState } from "../../app/lab-stores-context.tsx";
import { builtInTranscriptNames, builtInTranscripts } from "../../engine/replay/built-in-transcripts.ts";
import { replayTurnsLeft } from "../../store/replay-progress.ts";

/** At most this many other transcripts are offered. */
const OFFERED_TRANSCRIPTS = 3;

export function ReplayEnded() {
  const { engines, realModel, conversations, runController } = useLabStores();
  const kind = useEngineState((s) => s.kind);
  const transcript = useEngineState((s) => s.transcript);
  const source = useEngineState((s) => s.transcriptSource);
  const realLabel = useEngineState(realModel.label);
  const realUnavailable = useEngineState(realModel.unavailableReason);
  const protocol = useProtocolChoice((s) => s.protocol);
  const running = useRunState((s) => s.running);
  // Counted only where the panel may show: the count reads the whole log, and while a run
  // streams the selector ran on every append (20–50 ms each on a log of 240,000 events).
  const left = useConversation((s) => (kind === "replay" && !running && s.active && transcript ? replayTurnsLeft(transcript, s.active) : null));
  const notice = useRunState((s) => s.notice);
  const shown = kind === "replay" && transcript !== null && left === 0 && !running;
  const panel = useRef<HTMLElement>(null);
  // Brought into view when a message was refused because the recording is over (not when it
  // appears: a reader scrolled up in the reply keeps their place).
  useEffect(() => {
    if (shown && notice !== null) panel.current?.scrollIntoView({ block: "nearest" });
  }, [shown, notice]);
  if (!shown) return null;

  const others = builtInTranscriptNames.filter((name) => name !== source && builtInTranscripts[name].protocol === protocol).slice(0, OFFERED_TRANSCRIPTS);
  const count = transcript.turns.length;
  return (
    <section ref={panel} className="replay-ended" role="status" aria-label="The recording is over" data-testid="replay-ended">
      <p>
        <strong>The recording is over.</strong> “{transcript.title}” has played its {count === 1 ? "one recorded step" : `${count} recorded steps`}: a replay
        has nothing more to say. What next?
      </p>
      <div className="replay-ended-actions">
        {others.map((name) => (
          <button type="button" key={name} data-testid="replay-ended-transcript" data-transcript={name} onClick={() => void engines.selectReplay(name)}>
            Replay “{builtInTranscripts[name].title}”
          </button>
        ))}
        <button type="button" data-testid="replay-ended-real-model" disabled={realUnavailable !== null} onClick={realModel.start}>
          {realLabel}
        </button>
        <button
          type="button"
          data-testid="replay-ended-new"
          onClick={async () => {
            await runController.stopRunAndWait();
            await conversations.conversationActions.create();
          }}
        >
          New conversation
        </button>
      </div>
      {realUnavailable && (
        <p className="muted" data-testid="replay-ended-real-model-reason">
          {realUnavailable}
        </p>
      )}
    </section>
  );
}
