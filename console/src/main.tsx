import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ApiError } from "./api/client.ts";
import { App } from "./app/App.tsx";
import { preloadPageOf } from "./app/areas.tsx";
import { SESSION_KEY } from "./app/session.tsx";
import "./styles.css";
import "./areas.css";

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    // A session that ended (signed out elsewhere, password changed) leads back to sign-in.
    onError: (error, query) => {
      if (error instanceof ApiError && error.status === 401 && query.queryKey[0] !== "session") {
        void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      }
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refusal (4xx) is the answer; only failures of the network or the service are retried.
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiError && error.status < 500),
    },
  },
});

preloadPageOf(window.location.pathname);

const root = document.getElementById("root");
if (!root) throw new Error("the console page has no #root element");
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
