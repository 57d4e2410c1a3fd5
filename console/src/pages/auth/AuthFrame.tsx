import type { ReactNode } from "react";
import { useDocumentTitle } from "../../ui/forms.tsx";

/** The frame of the pages before signing in: the product's name and one card. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <main id="main" className="auth">
      <div className="auth-card">
        <p className="brand">agentdesk</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** The `token` of a link the service mailed or printed (…?token=…). */
export const tokenOfLink = () => new URLSearchParams(window.location.search).get("token") ?? "";
