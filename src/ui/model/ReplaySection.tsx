// Choosing a transcript for the replay engine: a built-in one, or any URL.
import { useState } from "react";
import { useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import { builtInTranscriptNames, builtInTranscripts, isBuiltInTranscriptName } from "../../engine/replay/built-in-transcripts.ts";
import { EngineErrorBox, StatusLine } from "./EngineStatusBox.tsx";

export function ReplaySection() {
  const { selectReplay } = useLabStores().engines;
  const source = useEngineState((s) => s.transcriptSource);
  const transcript = useEngineState((s) => s.transcript);
  const status = useEngineState((s) => s.replayStatus);
  const isBuiltIn = isBuiltInTranscriptName(source);
  const [url, setUrl] = useState(isBuiltIn ? "" : source);

  return (
    <div className="model-section">
      <label className="model-field">
        <span>Transcript</span>
        <select data-testid="transcript-select" value={isBuiltIn ? source : ""} onChange={(e) => e.target.value && void selectReplay(e.target.value)}>
          {!isBuiltIn && <option value="">From a URL</option>}
          {builtInTranscriptNames.map((name) => (
            <option key={name} value={name}>
              {builtInTranscripts[name].title}
            </option>
          ))}
        </select>
      </label>
      <form
        className="transcript-url"
        onSubmit={(e) => {
          e.preventDefault();
          if (url.trim()) void selectReplay(url.trim());
        }}
      >
        <input
          type="text"
          data-testid="transcript-url"
          placeholder="…or a transcript URL (JSON)"
          aria-label="Transcript URL"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <button type="submit" data-testid="transcript-load-button" disabled={!url.trim()}>
          Load
        </button>
      </form>
      {status.state === "loading" && <p className="engine-status" data-testid="engine-status" data-state="loading">Loading {status.what}…</p>}
      {status.state === "error" && <EngineErrorBox status={status} offerReplay={false} />}
      {status.state === "ready" && transcript && (
        <div className="transcript-info" data-testid="transcript-info">
          <p className="transcript-title">{transcript.title}</p>
          {transcript.description && <p className="model-hint">{transcript.description}</p>}
          {/* A transcript's entry is one model output, one loop step: named as the debugger names them. */}
          <p className="model-hint" data-testid="transcript-steps">
            {transcript.turns.length} recorded step{transcript.turns.length === 1 ? "" : "s"}
            {transcript.protocol ? ` · protocol ${transcript.protocol}` : ""}
          </p>
        </div>
      )}
      <StatusLine status={status} readyText="Replay engine ready: send a message to play its next recorded step." />
    </div>
  );
}
