// The debugger's words for a step read by a protocol derived from its model's own chat template:
// how the format was derived (what a call is, how calls sit together, the reasoning markers).
// After a reload the derivation is made again from the remembered template (derived-protocols.ts).
import { useEffect } from "react";
import { useStore } from "zustand";
import { useLabStores } from "../../app/lab-stores-context.tsx";
import { DERIVED_PROTOCOL_PREFIX, type DerivedProtocolEntry } from "../../store/derived-protocols.ts";

export function DerivedProtocolNote({ protocol }: { protocol: string }) {
  const { derivedProtocols } = useLabStores();
  const entry = useStore(derivedProtocols, (s) => s.entries[protocol]);
  const failure = useStore(derivedProtocols, (s) => s.failures[protocol]);
  const derived = protocol.startsWith(DERIVED_PROTOCOL_PREFIX);
  useEffect(() => {
    if (derived && !entry) void derivedProtocols.getState().restore(protocol);
  }, [derived, entry, protocol, derivedProtocols]);
  if (!derived) return null;
  const restoring = !entry && failure === undefined && derivedProtocols.getState().remembers(protocol);
  return <DerivedProtocolWords protocol={protocol} entry={entry} restoring={restoring} failure={failure} />;
}

export function DerivedProtocolWords({ protocol, entry, restoring = false, failure }: { protocol: string; entry: DerivedProtocolEntry | undefined; restoring?: boolean; failure?: string }) {
  const model = protocol.slice(DERIVED_PROTOCOL_PREFIX.length);
  return (
    <div className="dbg-step-note" role="status" data-testid="derived-protocol-note">
      {entry ? (
        <>
          Calls read by the format derived from the chat template of {model}:
          <ul className="dbg-derivation">
            {entry.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : restoring ? (
        <>This step's calls were read by the format derived from the chat template of {model}; deriving it again from the remembered template…</>
      ) : failure !== undefined ? (
        <>This step's calls were read by the format derived from the chat template of {model}; the remembered template no longer derives ({failure}).</>
      ) : (
        <>This step's calls were read by the format derived from the chat template of {model}; load that model again to see the derivation.</>
      )}
    </div>
  );
}
