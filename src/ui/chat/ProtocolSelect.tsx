// The header's protocol switch: which tool-calling protocol the next turn teaches the model and
// parses its output with. Option values are the registry's protocol names, read from its light
// copy (names and labels only), so the header shows them before the protocols' code loads.
import { useStore } from "zustand";
import { builtInProtocolNames } from "toolcall-middleware/protocols/built-in-protocol-names.ts";
import { useLabStores, useProtocolChoice } from "../../app/lab-stores-context.tsx";
import { DERIVED_PROTOCOL_PREFIX } from "../../store/derived-protocols.ts";

export function ProtocolSelect() {
  const protocol = useProtocolChoice((s) => s.protocol);
  const setProtocol = useProtocolChoice((s) => s.setProtocol);
  const protocols = builtInProtocolNames;
  // Protocols derived in this page from a model's own template (an unknown family's, or a known
  // family's twin): offered beside the registry's.
  const derivedEntries = useStore(useLabStores().derivedProtocols, (s) => s.entries);
  const derived = Object.keys(derivedEntries).filter((name) => name !== protocol);
  const known = protocols.some((p) => p.name === protocol);
  return (
    <label className="header-control" title="The protocol the next turn uses; each step records its own">
      <span>Protocol</span>
      <select data-testid="protocol-select" value={protocol} onChange={(event) => setProtocol(event.target.value)}>
        {!known && <option value={protocol}>{protocol.startsWith(DERIVED_PROTOCOL_PREFIX) ? derivedLabel(protocol) : `${protocol} (unknown)`}</option>}
        {derived.map((name) => (
          <option key={name} value={name}>
            {derivedLabel(name)}
          </option>
        ))}
        {protocols.map((p) => (
          <option key={p.name} value={p.name}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function derivedLabel(name: string): string {
  return `Derived from the template of ${name.slice(DERIVED_PROTOCOL_PREFIX.length)}`;
}
