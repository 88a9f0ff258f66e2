import "./resilience.css";
import { Component, type ErrorInfo, type ReactNode } from "react";

interface BoundaryProps {
  children: ReactNode;
  /** What to show instead of the children that failed; the page-wide message when absent. */
  fallback?: (error: Error, retry: () => void) => ReactNode;
  /** When any of these change (another conversation opened, say), the children are tried again. */
  resetKeys?: readonly unknown[];
  /** Told of each error caught (besides the console). */
  onError?: (error: Error) => void;
}

interface BoundaryState {
  error: Error | null;
  keys: readonly unknown[] | undefined;
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

const sameKeys = (a: readonly unknown[] | undefined, b: readonly unknown[] | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((value, i) => Object.is(value, b[i])));

// A render error must never leave a blank screen: say what broke and offer a way back. The lab
// puts one around each panel and each chat message, so one bad message or view takes only
// itself down; this one, around everything, is the last resort. Conversations live in
// IndexedDB, so reloading loses nothing (and lab startup does not reopen a conversation whose
// showing never finished — see render-guard.ts).
export class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, keys: this.props.resetKeys };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: asError(error) };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (sameKeys(props.resetKeys, state.keys)) return null;
    return { keys: props.resetKeys, error: null };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Kept in the console for whoever debugs it; the person sees the fallback.
    console.error("A view failed to render:", error, info.componentStack);
    this.props.onError?.(asError(error));
  }

  private retry = () => this.setState({ error: null });

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (this.props.fallback) return this.props.fallback(error, this.retry);
    return (
      <div className="fatal" role="alert">
        <h1>Something in the page broke</h1>
        <p>
          Your conversations are stored in this browser and are not lost. After a reload the lab does not reopen the conversation that was showing: it
          starts on an empty one, and that conversation stays in the Conversations list.
        </p>
        <pre>{error.message}</pre>
        <button type="button" onClick={() => location.reload()}>
          Reload the page
        </button>
      </div>
    );
  }
}

/** A panel's own boundary: the panel says it failed and can be retried; the rest of the page goes on. */
export function PanelBoundary({ name, children, resetKeys }: { name: string; children: ReactNode; resetKeys?: readonly unknown[] }) {
  return (
    <ErrorBoundary
      resetKeys={resetKeys}
      fallback={(error, retry) => (
        <div className="notice notice-err panel-failed" role="alert" data-testid="panel-error" data-panel={name}>
          <p>
            The {name} panel could not be shown: <span className="mono">{error.message || error.name}</span>
          </p>
          <p className="muted">The rest of the lab still works; nothing stored was changed.</p>
          <button type="button" onClick={retry}>
            Try again
          </button>
        </div>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
