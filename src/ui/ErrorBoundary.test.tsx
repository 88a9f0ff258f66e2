// The boundaries' own logic, without a DOM (React's catching is React's contract; the e2e tests
// drive the real page): what the fallbacks say, and when a failed view is tried again.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorBoundary, PanelBoundary } from "./ErrorBoundary.tsx";

/** A boundary in the state React leaves it in after catching `error`, rendered. */
function renderFailed(element: ReturnType<typeof createElement>, error: Error): string {
  // PanelBoundary is a function component wrapping ErrorBoundary: unwrap it to the boundary.
  const boundaryElement = typeof element.type === "function" && element.type !== ErrorBoundary ? (element.type as (p: unknown) => ReturnType<typeof createElement>)(element.props) : element;
  const boundary = new ErrorBoundary(boundaryElement.props as ConstructorParameters<typeof ErrorBoundary>[0]);
  boundary.state = { ...boundary.state, ...ErrorBoundary.getDerivedStateFromError(error) };
  return renderToStaticMarkup(boundary.render() as ReturnType<typeof createElement>);
}

describe("error boundaries", () => {
  it("a panel's boundary names the panel and the error, and offers to try again", () => {
    const html = renderFailed(createElement(PanelBoundary, { name: "Debugger", children: null }), new TypeError("x.map is not a function"));
    expect(html).toContain('data-panel="Debugger"');
    expect(html).toContain("The Debugger panel could not be shown");
    expect(html).toContain("x.map is not a function");
    expect(html).toContain("Try again");
  });

  it("the page-wide boundary says nothing is lost and what the reload will do", () => {
    const html = renderFailed(createElement(ErrorBoundary, { children: null }), new RangeError("Maximum call stack size exceeded"));
    expect(html).toContain("Something in the page broke");
    expect(html).toContain("Maximum call stack size exceeded");
    expect(html).toContain("does not reopen the conversation that was showing");
  });

  it("turns a thrown non-Error into an error with its text", () => {
    expect(ErrorBoundary.getDerivedStateFromError("plain string")).toEqual({ error: new Error("plain string") });
  });

  it("tries the children again when its reset keys change (another conversation opened), not otherwise", () => {
    const failed = { error: new Error("bad"), keys: ["conversation-a"] as const };
    expect(ErrorBoundary.getDerivedStateFromProps({ children: null, resetKeys: ["conversation-a"] }, failed)).toBeNull();
    expect(ErrorBoundary.getDerivedStateFromProps({ children: null, resetKeys: ["conversation-b"] }, failed)).toEqual({ keys: ["conversation-b"], error: null });
  });
});
