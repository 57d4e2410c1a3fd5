import { useQuery } from "@tanstack/react-query";
import { Link, useLocation } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime } from "../../ui/format.ts";
import { PageHeader } from "../../ui/forms.tsx";
import { Empty, QueryView } from "../../ui/states.tsx";
import { type AgentNotice, agentKeys } from "./agent-api.ts";
import { VisibilityBadge } from "./VisibilityBadge.tsx";

/** /agents: the organization's agents, in the order the API lists them (oldest first). */
export function AgentListPage() {
  const { canWrite } = useSession();
  const notice = (useLocation().state as AgentNotice | null)?.notice;
  const agents = useQuery({
    queryKey: agentKeys.list,
    queryFn: () => unwrap(api.GET("/api/agents")),
  });
  const newAgent = canWrite ? (
    <Link to="/agents/new" className="button button-primary">
      New agent
    </Link>
  ) : null;
  return (
    <>
      <PageHeader
        title="Agents"
        description="Each agent answers customers with its model, its prompts and the knowledge of its datastores."
        actions={newAgent}
      />
      {notice && (
        <p className="agent-notice agent-notice-ok" role="status">
          {notice}
        </p>
      )}
      <QueryView
        query={agents}
        loadingLabel="Loading the agents…"
        isEmpty={(list) => list.length === 0}
        empty={
          <Empty title="No agents yet">
            {canWrite ? (
              <>
                <p>Create your first agent, give it a datastore, then try it in its playground.</p>
                <Link to="/agents/new" className="button button-primary">
                  Create your first agent
                </Link>
              </>
            ) : (
              <p>A member, admin or owner of the organization can create one.</p>
            )}
          </Empty>
        }
      >
        {(list) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">The organization's agents</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Model</th>
                  <th scope="col">Visibility</th>
                  <th scope="col">Conversational mode</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {list.map((agent) => (
                  <tr key={agent.id}>
                    <td>
                      <Link to={`/agents/${agent.id}/settings`} className="agent-name">
                        {agent.name}
                      </Link>
                      {agent.description && (
                        <span className="agent-description muted">{agent.description}</span>
                      )}
                    </td>
                    <td>
                      <code>{agent.modelName}</code>
                    </td>
                    <td>
                      <VisibilityBadge visibility={agent.visibility} />
                    </td>
                    <td>
                      {agent.useConversationalMode ? (
                        <span className="badge badge-warn">On: answers by webhook</span>
                      ) : (
                        <span className="muted">Off</span>
                      )}
                    </td>
                    <td>{formatDateTime(agent.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </>
  );
}
