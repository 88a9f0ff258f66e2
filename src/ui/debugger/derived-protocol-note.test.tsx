// The debugger's words for a step read by a protocol derived from its model's template.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { deriveFormat } from "toolcall-middleware/derive/derive-format.ts";
import { derivedProtocol } from "toolcall-middleware/derive/derived-protocol.ts";
import { describeDerivedFormat } from "toolcall-middleware/derive/describe-format.ts";
import { boundedTemplateRenderer } from "../../engine/templates/derived-from-template.ts";
import { DerivedProtocolWords } from "./DerivedProtocolNote.tsx";

const TEMPLATE =
  "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% for c in m.tool_calls or [] %}<tool_call>{{ {'name': c.function.name, 'arguments': c.function.arguments} | tojson }}</tool_call>{% endfor %}<|end|>{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}";

describe("the debugger's note on a derived protocol", () => {
  it("says how the format was derived, in words and markers", () => {
    const derived = deriveFormat(boundedTemplateRenderer(TEMPLATE, "test"));
    if (!derived.ok) throw new Error(derived.reason);
    const entry = { protocol: derivedProtocol(derived.format, { name: "template:mystery.gguf" }), lines: describeDerivedFormat(derived.format), template: TEMPLATE };
    const html = renderToStaticMarkup(createElement(DerivedProtocolWords, { protocol: "template:mystery.gguf", entry }));
    expect(html).toContain("Calls read by the format derived from the chat template of mystery.gguf:");
    expect(html).toContain("<li>A call is `&lt;tool_call&gt;` + JSON {name, arguments} + `&lt;/tool_call&gt;`.</li>");
    expect(html).toContain("<li>Several calls follow one another, each with its own markers.</li>");
  });

  it("after a reload, when the derivation is gone, says where it came from and how to see it again", () => {
    const html = renderToStaticMarkup(createElement(DerivedProtocolWords, { protocol: "template:mystery.gguf", entry: undefined }));
    expect(html).toContain("load that model again to see the derivation");
  });

  it("while a remembered template is derived again, says so; when it no longer derives, says why", () => {
    expect(renderToStaticMarkup(createElement(DerivedProtocolWords, { protocol: "template:mystery.gguf", entry: undefined, restoring: true }))).toContain("deriving it again from the remembered template");
    const html = renderToStaticMarkup(createElement(DerivedProtocolWords, { protocol: "template:mystery.gguf", entry: undefined, failure: "cannot derive: the template is empty" }));
    expect(html).toContain("the remembered template no longer derives (cannot derive: the template is empty)");
  });
});
