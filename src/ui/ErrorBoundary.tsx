import { Component, type ReactNode } from "react";

// A render error must never leave a blank screen: say what broke and offer a way back.
// Conversations live in IndexedDB, so reloading loses nothing.
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="fatal" role="alert">
        <h1>Something in the page broke</h1>
        <p>Your conversations are stored in this browser and are not lost.</p>
        <pre>{this.state.error.message}</pre>
        <button type="button" onClick={() => location.reload()}>
          Reload the page
        </button>
      </div>
    );
  }
}
