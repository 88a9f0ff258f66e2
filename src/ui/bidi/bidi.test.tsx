// Bidi control characters in model output, tool arguments and parse errors are shown as marks,
// never applied: what the person reads is in the order the model wrote it.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createLabStores } from "../../app/lab-stores.ts";
import { LabStoresProvider } from "../../app/lab-stores-context.tsx";
import type { ToolCallCard as Card } from "../../store/derive-chat.ts";
import { ToolCallCard } from "../chat/ToolCallCard.tsx";
import { Markdown } from "../markdown/Markdown.tsx";
import { hasBidiControls, showBidiControls, showNameMarks, splitBidi, splitName, splitText } from "./bidi-controls.ts";
import { visibleText } from "./VisibleBidi.tsx";
import { TokenProbabilities } from "../debugger/TokenProbabilities.tsx";
import { ParseStepsView } from "../debugger/ParseStepsView.tsx";
import type { StepView } from "../debugger/build-steps.ts";

/** What a person reads: the text of the markup, attributes (data-*, never shown) left out. */
const shownText = (html: string) => html.replace(/<[^>]*>/g, "");

const RLO = "\u202e";
const controls = ["\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"];

describe("bidi controls", () => {
  it("finds every embedding, override, isolate and mark, and cuts the text at them with offsets", () => {
    for (const ch of controls) expect(hasBidiControls(`a${ch}b`), ch.codePointAt(0)!.toString(16)).toBe(true);
    expect(hasBidiControls("שלום and مرحبا")).toBe(false);
    expect(splitBidi(`run ${RLO}exe.txt`)).toEqual([
      { kind: "text", text: "run ", start: 0 },
      { kind: "control", code: "U+202E", name: "RIGHT-TO-LEFT OVERRIDE", start: 4 },
      { kind: "text", text: "exe.txt", start: 5 },
    ]);
    expect(showBidiControls(`a${RLO}b\u2066c`)).toBe("a⟨U+202E⟩b⟨U+2066⟩c");
  });

  it("shows them as marks in the chat's Markdown", () => {
    const html = renderToStaticMarkup(createElement(Markdown, { text: `Download **invoice${RLO}fdp.exe** and \`x${RLO}y\`` }));
    expect(html).not.toContain(RLO);
    expect(html.match(/class="bidi-mark"/g)).toHaveLength(2);
    expect(html).toContain("⟨U+202E⟩");
  });

  it("shows them as marks in a tool call card: name, arguments and result", () => {
    const card: Card = {
      callId: "c1",
      stepId: "s1",
      name: `calc${RLO}ulator`,
      argumentsText: "",
      arguments: { expression: `1+1${RLO} // 2*3` },
      status: "ok",
      content: `ok${RLO}2`,
      protocol: "hermes",
      nestedSteps: 0,
      repairs: 0,
    };
    const html = renderToStaticMarkup(createElement(LabStoresProvider, { stores: createLabStores() }, createElement(ToolCallCard, { card })));
    expect(shownText(html)).not.toContain(RLO);
    expect(html).toContain('title="ok⟨U+202E⟩2"');
    expect(html.match(/⟨U\+202E⟩/g)!.length).toBeGreaterThanOrEqual(3);
  });

  it("shows them as marks in the debugger's parse errors", () => {
    const step = {
      key: "k",
      id: "s1",
      status: "parse-error",
      parseEvents: [{ index: 0, event: { type: "parse-error", kind: "invalid-json", message: `Unexpected token ${RLO}}`, raw: `{"a":${RLO}}`, span: { start: 0, end: 5 } } }],
    } as unknown as StepView;
    const html = renderToStaticMarkup(createElement(ParseStepsView, { step, selectedParseIndex: 0, onSelectParseEvent: () => {} }));
    expect(shownText(html)).not.toContain(RLO);
    expect(html.match(/⟨U\+202E⟩/g)!.length).toBeGreaterThanOrEqual(2);
    expect(html).toContain("⟨U+202E⟩");
  });

  it("marks invisible characters in tool names (zero-width, word joiner, BOM, Mongolian vowel separator, tags), in the card and the debugger", () => {
    const invisible = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e", "\u00ad", "\u{E0041}"];
    for (const ch of invisible) {
      const pieces = splitName(`run${ch}_js`);
      expect(pieces.map((piece) => piece.kind), ch.codePointAt(0)!.toString(16)).toEqual(["text", "invisible", "text"]);
    }
    expect(showNameMarks("run_javascript\u200b")).toBe("run_javascript⟨U+200B⟩");
    expect(showNameMarks("tag\u{E0041}")).toBe("tag⟨U+E0041⟩");
    // Ordinary text keeps its joiners (emoji, Persian): only names are marked this way.
    expect(splitBidi("👨\u200d👩")).toEqual([{ kind: "text", text: "👨\u200d👩", start: 0 }]);

    const card: Card = { callId: "c1", stepId: "s1", name: "run_javascript\u200b", argumentsText: "", arguments: {}, status: "ok", content: "ok", protocol: "hermes", nestedSteps: 0, repairs: 0 };
    const html = renderToStaticMarkup(createElement(LabStoresProvider, { stores: createLabStores() }, createElement(ToolCallCard, { card })));
    expect(shownText(html)).not.toContain("\u200b");
    expect(html).toContain('data-testid="invisible-mark"');
    expect(shownText(html)).toContain("run_javascript⟨U+200B⟩");
  });
});

describe("invisible and control characters in the texts the debugger shows exactly", () => {
  const hidden = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e", "\udb40\udc41", "\u0000", "\u001b", "\u0007", "\u007f", "\u0085"];

  it("marks zero-width characters, tag characters, NUL, ESC and the other controls; tab, line feed, carriage return and emoji variation selectors stay as they are", () => {
    const text = `a${hidden.join("b")}c\t\n\r❤️`;
    const marks = splitText(text).filter((piece) => piece.kind !== "text");
    expect(marks.map((piece) => piece.code)).toEqual(["U+200B", "U+200C", "U+200D", "U+2060", "U+FEFF", "U+00AD", "U+180E", "U+E0041", "U+0000", "U+001B", "U+0007", "U+007F", "U+0085"]);
    expect(marks.find((piece) => piece.code === "U+001B")?.name).toBe("ESCAPE");
    expect(marks.find((piece) => piece.code === "U+0000")?.name).toBe("NULL");
    expect(splitText("plain\ttext\r\n❤️")).toEqual([{ kind: "text", text: "plain\ttext\r\n❤️", start: 0 }]);
  });

  it("draws them as marks in the prompt view's pieces, the token probabilities and the token view's labels", () => {
    const html = renderToStaticMarkup(createElement("div", null, visibleText(`x\u001b[2Jy\u200bz${RLO}`)));
    expect(shownText(html)).toBe("x⟨U+001B⟩[2Jy⟨U+200B⟩z⟨U+202E⟩");
    expect(html).toContain('title="ESCAPE: an invisible character in the text, shown so that it cannot hide"');
    const tokens = renderToStaticMarkup(
      createElement(TokenProbabilities, { tokens: [{ index: 0, start: 0, end: 2, token: { text: "\u0000\u200d", p: 0.5, top: [] } }] as never, controlTokens: [] }),
    );
    expect(shownText(tokens)).toContain("⟨U+0000⟩⟨U+200D⟩");
  });
});
