// The debugger's words for a step read by a protocol derived from its model's own chat template:
// how the format was derived (what a call is, how calls sit together, the reasoning markers).
import { useStore } from "zustand";
import { useLabStores } from "../../app/lab-stores-context.tsx";
import { DERIVED_PROTOCOL_PREFIX, type DerivedProtocolEntry } from "../../store/derived-protocols.ts";

export function DerivedProtocolNote({ protocol }: { protocol: string }) {
  const { derivedProtocols } = useLabStores();
  const entry = useStore(derivedProtocols, (s) => s.entries[protocol]);
  if (!protocol.startsWith(DERIVED_PROTOCOL_PREFIX)) return null;
  return <DerivedProtocolWords protocol={protocol} entry={entry} />;
}

export function DerivedProtocolWords({ protocol, entry }: { protocol: string; entry: DerivedProtocolEntry | undefined }) {
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
      ) : (
        <>This step's calls were read by the format derived from the chat template of {model}; load that model again to see the derivation.</>
      )}
    </div>
  );
}
