import { useState } from "react";
import { Link } from "react-router";
import { basePath } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { CopyButton, Field } from "../../ui/forms.tsx";
import { useAgentOfPage } from "./AgentFrame.tsx";

type WidgetOptions = { position: "right" | "left"; color: string; greeting: string; lang: string };

const quoted = (value: string) => value.replaceAll("&", "&amp;").replaceAll('"', "&quot;");

/** The tag of docs/widget.md, with the optional attributes that differ from their defaults. */
function widgetTag(base: string, agentId: string, options: WidgetOptions): string {
  const attributes = [`src="${base}/widget.js"`, `data-agent-id="${quoted(agentId)}"`];
  if (options.position === "left") attributes.push('data-position="left"');
  if (options.color.trim()) attributes.push(`data-color="${quoted(options.color.trim())}"`);
  if (options.greeting) attributes.push(`data-greeting="${quoted(options.greeting)}"`);
  if (options.lang) attributes.push(`data-lang="${options.lang}"`);
  return `<script ${attributes.join(" ")} defer></script>`;
}

/** /agents/:agentId/embed: the widget's script tag and the chat page's link, to copy. */
export function EmbedPage() {
  const agent = useAgentOfPage();
  const { canWrite } = useSession();
  const [options, setOptions] = useState<WidgetOptions>({
    position: "right",
    color: "",
    greeting: "",
    lang: "",
  });
  const origin = window.location.origin;
  const base = `${origin}${basePath}`;
  const snippet = widgetTag(base, agent.id, options);
  const chatLink = `${base}/chat/${encodeURIComponent(agent.id)}`;
  const set = (patch: Partial<WidgetOptions>) =>
    setOptions((current) => ({ ...current, ...patch }));
  const restricted = agent.allowedOrigins.length > 0 && !agent.allowedOrigins.includes(origin);
  return (
    <section aria-labelledby="embed-title">
      <h2 className="agent-heading" id="embed-title">
        Embed
      </h2>
      {agent.visibility === "private" && (
        <div className="agent-notice" role="note">
          <p>
            This agent is <strong>private</strong>: the widget shows "This chat is not available."
            and the chat page is not found until its visibility is public.
          </p>
          {canWrite && (
            <Link to={`/agents/${agent.id}/settings`}>Change the visibility in Settings</Link>
          )}
        </div>
      )}
      <div className="card">
        <h3 className="agent-heading">Website widget</h3>
        <p className="muted">
          Paste this tag before <code>&lt;/body&gt;</code> on every page that should show the chat
          button. It loads everything from this service: no other site is contacted.
        </p>
        <pre className="agent-snippet">
          <code>{snippet}</code>
        </pre>
        <CopyButton text={snippet} label="Copy widget snippet" />
        <details className="agent-options">
          <summary>Widget options</summary>
          <div className="form">
            <div className="agent-columns">
              <Field label="Position">
                {(props) => (
                  <select
                    {...props}
                    value={options.position}
                    onChange={(event) =>
                      set({ position: event.target.value as WidgetOptions["position"] })
                    }
                  >
                    <option value="right">Bottom right (default)</option>
                    <option value="left">Bottom left</option>
                  </select>
                )}
              </Field>
              <Field label="Colour" hint="A CSS colour; blank: #2557d6.">
                {(props) => (
                  <input
                    {...props}
                    value={options.color}
                    onChange={(event) => set({ color: event.target.value })}
                  />
                )}
              </Field>
              <Field label="Language" hint="Of the built-in texts.">
                {(props) => (
                  <select
                    {...props}
                    value={options.lang}
                    onChange={(event) => set({ lang: event.target.value })}
                  >
                    <option value="">The page's language (default)</option>
                    <option value="en">English</option>
                    <option value="fr">French</option>
                  </select>
                )}
              </Field>
            </div>
            <Field
              label="Greeting"
              hint="The agent's first message, shown and not stored. Blank: the built-in greeting."
            >
              {(props) => (
                <input
                  {...props}
                  value={options.greeting}
                  onChange={(event) => set({ greeting: event.target.value })}
                />
              )}
            </Field>
          </div>
        </details>
      </div>
      <div className="card">
        <h3 className="agent-heading">Chat page</h3>
        <p className="muted">
          The same chat on a page of its own, to link to or to open in an iframe.
        </p>
        <p className="agent-link">
          <a href={chatLink} target="_blank" rel="noopener noreferrer">
            {chatLink}
          </a>
        </p>
        <CopyButton text={chatLink} label="Copy chat link" />
        {restricted && (
          <p className="field-hint">
            The agent's allowed origins do not include <code>{origin}</code>: add it in Settings for
            the chat page to answer.
          </p>
        )}
      </div>
    </section>
  );
}
