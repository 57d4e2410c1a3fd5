import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useLocation, useNavigate } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { ConfirmButton, FormError, PageHeader } from "../../ui/forms.tsx";
import { Empty } from "../../ui/states.tsx";
import { AgentForm } from "./AgentForm.tsx";
import { useAgentOfPage } from "./AgentFrame.tsx";
import { type AgentNotice, agentKeys } from "./agent-api.ts";

/** /agents/:agentId/settings: every field, the delete button. */
export function AgentSettingsPage() {
  const agent = useAgentOfPage();
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notice = (useLocation().state as AgentNotice | null)?.notice;
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE("/api/agents/{id}", { params: { path: { id: agent.id } } })),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: agentKeys.detail(agent.id) });
      void queryClient.invalidateQueries({ queryKey: agentKeys.list });
      navigate("/agents", {
        state: { notice: `${agent.name} was deleted.` } satisfies AgentNotice,
      });
    },
  });
  return (
    <>
      {notice && (
        <p className="agent-notice agent-notice-ok" role="status">
          {notice} <Link to={`/agents/${agent.id}/playground`}>Try it in the playground</Link>
        </p>
      )}
      <AgentForm key={agent.id} agent={agent} />
      {canWrite && (
        <section className="card agent-danger" aria-labelledby="agent-delete">
          <h2 className="agent-heading" id="agent-delete">
            Delete the agent
          </h2>
          <p>Its conversations, messages, channels and versions are deleted with it.</p>
          <FormError error={remove.error} />
          <ConfirmButton
            label="Delete agent"
            title={`Delete ${agent.name}?`}
            description={
              <p>
                The agent, its conversations and messages, its channels and its versions are
                deleted. This cannot be undone.
              </p>
            }
            confirmLabel="Delete agent"
            disabled={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </section>
      )}
    </>
  );
}

/** /agents/new: the same form, empty with the API's defaults. */
export function NewAgentPage() {
  const { canWrite } = useSession();
  const navigate = useNavigate();
  return (
    <>
      <p className="agent-breadcrumb">
        <Link to="/agents">Agents</Link>
      </p>
      <PageHeader
        title="New agent"
        description="Only the name is needed; everything else can be changed later."
      />
      {canWrite ? (
        <AgentForm
          agent={null}
          onSaved={(created) =>
            navigate(`/agents/${created.id}/settings`, {
              state: { notice: `${created.name} was created.` } satisfies AgentNotice,
            })
          }
        />
      ) : (
        <Empty title="Viewers cannot create agents">
          <p>A member, admin or owner of the organization can.</p>
        </Empty>
      )}
    </>
  );
}
