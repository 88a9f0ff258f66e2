import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { markActiveAsFailing } from "./store/conversation-store.ts";
import { App } from "./ui/App.tsx";
import { ErrorBoundary } from "./ui/ErrorBoundary.tsx";
import { Playground } from "./ui/playground/Playground.tsx";
import "./ui/styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <ErrorBoundary onError={markActiveAsFailing}>
      {/* The parser playground is a page of its own: no engine, no conversation. */}
      {new URLSearchParams(location.search).get("view") === "playground" ? <Playground /> : <App />}
    </ErrorBoundary>
  </StrictMode>,
);
