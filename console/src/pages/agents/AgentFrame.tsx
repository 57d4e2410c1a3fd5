import { Link, NavLink, Outlet, useLocation, useOutletContext, useParams } from "react-router";
import { PageHeader, useDocumentTitle } from "../../ui/forms.tsx";
import { ErrorNotice, Loading } from "../../ui/states.tsx";
import { type Agent, useAgent } from "./agent-api.ts";
import { VisibilityBadge } from "./VisibilityBadge.tsx";

const PAGES = [
  { path: "settings", label: "Settings" },
  { path: "playground", label: "Playground" },
  { path: "embed", label: "Embed" },
  { path: "channels", label: "Channels" },
  { path: "versions", label: "Versions" },
] as const;

/**
 * The page's title names the sub-page too ("Playground · Support · agentdesk"). Rendered after
 * the PageHeader, whose effect runs first and sets the agent's name alone.
 */
function DocumentTitle({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}

function Breadcrumb() {
  return (
    <p className="agent-breadcrumb">
      <Link to="/agents">Agents</Link>
    </p>
  );
}

/**
 * /agents/:agentId/*: the agent's name, its sub-navigation and the sub-page, which gets the
 * agent (one GET, shared through the query cache) from `useAgentOfPage`.
 */
export function AgentFrame() {
  const { agentId = "" } = useParams();
  const location = useLocation();
  const agent = useAgent(agentId);
  if (agent.isPending) return <Loading label="Loading the agent…" />;
  if (agent.isError) {
    return (
      <>
        <Breadcrumb />
        <PageHeader title="Agent not available" />
        <ErrorNotice error={agent.error} retry={() => agent.refetch()} />
      </>
    );
  }
  const current = PAGES.find((page) => location.pathname.endsWith(`/${page.path}`));
  return (
    <>
      <Breadcrumb />
      <PageHeader
        title={agent.data.name}
        description={
          <span className="agent-summary">
            <code>{agent.data.modelName}</code>{" "}
            <VisibilityBadge visibility={agent.data.visibility} />
            {agent.data.useConversationalMode && (
              <span className="badge badge-warn">Conversational mode</span>
            )}
          </span>
        }
      />
      {current && <DocumentTitle title={`${current.label} · ${agent.data.name}`} />}
      <nav aria-label="Agent" className="tabs-list agent-tabs">
        {PAGES.map((page) => (
          <NavLink key={page.path} to={`/agents/${agentId}/${page.path}`}>
            {page.label}
          </NavLink>
        ))}
      </nav>
      <Outlet context={agent.data satisfies Agent} />
    </>
  );
}

/** The agent of the frame a sub-page is shown in. */
export function useAgentOfPage(): Agent {
  return useOutletContext<Agent>();
}
