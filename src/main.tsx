import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { markActiveAsFailing } from "./store/conversation-store.ts";
import { App } from "./ui/App.tsx";
import { ErrorBoundary } from "./ui/ErrorBoundary.tsx";
import "./ui/styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <ErrorBoundary onError={markActiveAsFailing}>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
