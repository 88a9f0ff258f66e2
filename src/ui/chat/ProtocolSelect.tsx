// The header's protocol switch: which tool-calling protocol the next turn teaches the model and
// parses its output with. Option values are the registry's protocol names, read from its light
// copy (names and labels only), so the header shows them before the protocols' code loads.
import { builtInProtocolNames } from "toolcall-middleware/protocols/built-in-protocol-names.ts";
import { useProtocolChoice } from "../../app/lab-stores-context.tsx";

export function ProtocolSelect() {
  const protocol = useProtocolChoice((s) => s.protocol);
  const setProtocol = useProtocolChoice((s) => s.setProtocol);
  const protocols = builtInProtocolNames;
  const known = protocols.some((p) => p.name === protocol);
  return (
    <label className="header-control" title="The protocol the next turn uses; each step records its own">
      <span>Protocol</span>
      <select data-testid="protocol-select" value={protocol} onChange={(event) => setProtocol(event.target.value)}>
        {!known && <option value={protocol}>{protocol.startsWith("template:") ? `Derived from the template of ${protocol.slice("template:".length)}` : `${protocol} (unknown)`}</option>}
        {protocols.map((p) => (
          <option key={p.name} value={p.name}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  );
}
