import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { createLabStores } from "./app/lab-stores.ts";
import { LabStoresProvider } from "./app/lab-stores-context.tsx";
import { startLab } from "./store/lab-startup.ts";
import { App } from "./ui/App.tsx";
import { ErrorBoundary } from "./ui/ErrorBoundary.tsx";
import "./ui/styles.css";
// After every other rule it adjusts: the layout of narrow windows and phones.
import "./ui/narrow.css";

// The parser playground is a page of its own: its code loads only there.
const Playground = lazy(() => import("./ui/playground/Playground.tsx").then((m) => ({ default: m.Playground })));

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
// The page's one set of stores: made here, handed down by the provider.
const stores = createLabStores();
// The parser playground is a page of its own: no conversation, and no engine until its protocol table loads the CPU one.
const playground = new URLSearchParams(location.search).get("view") === "playground";
if (!playground) startLab(stores);
createRoot(root).render(
  <StrictMode>
    <LabStoresProvider stores={stores}>
      <ErrorBoundary onError={stores.conversations.markActiveAsFailing}>
        {playground ? (
          <Suspense fallback={<p className="empty">Loading the parser playground…</p>}>
            <Playground />
          </Suspense>
        ) : (
          <App />
        )}
      </ErrorBoundary>
    </LabStoresProvider>
  </StrictMode>,
);
