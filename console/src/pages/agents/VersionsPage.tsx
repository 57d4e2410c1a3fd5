import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime, formatInteger } from "../../ui/format.ts";
import { FormError } from "../../ui/forms.tsx";
import { QueryView } from "../../ui/states.tsx";
import { useAgentOfPage } from "./AgentFrame.tsx";
import { agentKeys } from "./agent-api.ts";

type Version = ApiData<"/api/agents/{id}/versions", "get">["versions"][number];

const PROMPT_EXCERPT = 140;

function authorOf(version: Version): string {
  if (!version.author) return "Before versions were kept";
  return version.author.type === "user" ? "A signed-in person" : "An API key";
}

function promptExcerpt(text: string): string {
  if (!text.trim()) return "—";
  return text.length > PROMPT_EXCERPT ? `${text.slice(0, PROMPT_EXCERPT).trimEnd()}…` : text;
}

/**
 * /agents/:agentId/versions: every change of the fields that decide the answers made a version;
 * restoring one makes a new version with its fields (docs/agents.md, "Versions").
 */
export function VersionsPage() {
  const agent = useAgentOfPage();
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const versions = useQuery({
    queryKey: agentKeys.versions(agent.id),
    queryFn: () =>
      unwrap(api.GET("/api/agents/{id}/versions", { params: { path: { id: agent.id } } })),
  });
  const restore = useMutation({
    mutationFn: (version: number) =>
      unwrap(
        api.POST("/api/agents/{id}/versions/{version}/restore", {
          params: { path: { id: agent.id, version: String(version) } },
        }),
      ),
    onSuccess: (restored) => {
      queryClient.setQueryData(agentKeys.detail(agent.id), restored);
      void queryClient.invalidateQueries({ queryKey: agentKeys.versions(agent.id) });
      void queryClient.invalidateQueries({ queryKey: agentKeys.list });
    },
  });
  return (
    <section aria-labelledby="versions-title">
      <h2 className="agent-heading" id="versions-title">
        Versions
      </h2>
      <p className="muted">
        A version is made by each change of the model, the temperature, the prompts, the datastores
        or super retrieval. Restoring one makes a new version with its fields; the name, visibility
        and delivery settings stay as they are.
      </p>
      <FormError error={restore.error} />
      <QueryView query={versions} loadingLabel="Loading the versions…">
        {({ versions: list }) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Versions of {agent.name}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col" className="number">
                    Version
                  </th>
                  <th scope="col">Made</th>
                  <th scope="col">By</th>
                  <th scope="col">Model</th>
                  <th scope="col" className="number">
                    Temperature
                  </th>
                  <th scope="col">Prompt type</th>
                  <th scope="col">System prompt</th>
                  <th scope="col" className="number">
                    Datastores
                  </th>
                  <th scope="col">Super retrieval</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((version) => (
                  <tr key={version.version}>
                    <td className="number">{formatInteger(version.version)}</td>
                    <td className="agent-nowrap">{formatDateTime(version.createdAt)}</td>
                    <td>{authorOf(version)}</td>
                    <td>
                      <code>{version.fields.modelName}</code>
                    </td>
                    <td className="number">{version.fields.temperature}</td>
                    <td>{version.fields.promptType}</td>
                    <td className="version-prompt">{promptExcerpt(version.fields.systemPrompt)}</td>
                    <td className="number">
                      {formatInteger(
                        version.fields.tools.filter((tool) => tool.type === "datastore").length,
                      )}
                    </td>
                    <td>{version.fields.useSuperRetrieval ? "On" : "Off"}</td>
                    <td>
                      {version.version === agent.version ? (
                        <span className="badge badge-ok">Current</span>
                      ) : (
                        canWrite && (
                          <button
                            type="button"
                            className="button"
                            disabled={restore.isPending}
                            onClick={() => restore.mutate(version.version)}
                          >
                            Restore
                            <span className="visually-hidden"> version {version.version}</span>
                          </button>
                        )
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </section>
  );
}
