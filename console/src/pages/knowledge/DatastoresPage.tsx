import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link, useNavigate } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime } from "../../ui/format.ts";
import { Field, FormError, PageHeader } from "../../ui/forms.tsx";
import { Empty, QueryView } from "../../ui/states.tsx";
import { type Datastore, knowledgeKeys } from "./knowledge-api.ts";

/** The organization's datastores, and a form to create one (members and above). */
export default function DatastoresPage() {
  const { canWrite } = useSession();
  const datastores = useQuery({
    queryKey: knowledgeKeys.datastores,
    queryFn: () => unwrap(api.GET("/api/datastores")),
  });
  return (
    <>
      <PageHeader
        title="Knowledge"
        description="Datastores hold the documents and web pages your agents answer from."
      />
      <QueryView
        query={datastores}
        loadingLabel="Loading datastores…"
        isEmpty={(list) => list.length === 0}
        empty={
          <Empty title="No datastore yet">
            <p>
              {canWrite
                ? "Create one below, then upload files or add web pages to it."
                : "A member of the organization can create one."}
            </p>
          </Empty>
        }
      >
        {(list) => <DatastoreList datastores={list} />}
      </QueryView>
      {canWrite && <CreateDatastore />}
    </>
  );
}

function DatastoreList({ datastores }: { datastores: Datastore[] }) {
  return (
    <div className="table-wrap">
      <table className="knowledge-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Visibility</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {datastores.map((datastore) => (
            <tr key={datastore.id}>
              <th scope="row">
                <Link to={`/knowledge/${datastore.id}`}>{datastore.name}</Link>
              </th>
              <td className="datastore-description">
                {datastore.description || <span className="muted">—</span>}
              </td>
              <td>{datastore.visibility}</td>
              <td>{formatDateTime(datastore.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CreateDatastore() {
  const headingId = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [visibility, setVisibility] = useState<Datastore["visibility"]>("private");
  const [embeddingModel, setEmbeddingModel] = useState("");
  const [dimensions, setDimensions] = useState("");
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/datastores", {
          body: {
            name,
            description,
            visibility,
            ...(embeddingModel.trim() ? { embeddingModel: embeddingModel.trim() } : {}),
            ...(dimensions ? { dimensions: Number(dimensions) } : {}),
          },
        }),
      ),
    onSuccess: async (datastore) => {
      queryClient.setQueryData(knowledgeKeys.datastore(datastore.id), datastore);
      await queryClient.invalidateQueries({ queryKey: knowledgeKeys.datastores });
      navigate(`/knowledge/${datastore.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section className="card knowledge-card create-datastore" aria-labelledby={headingId}>
      <h2 id={headingId}>Create a datastore</h2>
      <form className="form" onSubmit={submit}>
        <Field label="Name">
          {(props) => (
            <input
              {...props}
              required
              maxLength={200}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </Field>
        <Field label="Description" hint="What it holds; agents' builders read it.">
          {(props) => (
            <textarea
              {...props}
              maxLength={10_000}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
            />
          )}
        </Field>
        <VisibilityField value={visibility} onChange={setVisibility} />
        <details className="knowledge-advanced">
          <summary>Embedding model</summary>
          <EmbedderFields
            model={embeddingModel}
            dimensions={dimensions}
            onModel={setEmbeddingModel}
            onDimensions={setDimensions}
            hint="Leave empty for the service's default."
          />
        </details>
        <FormError error={create.error} />
        <div>
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            Create datastore
          </button>
        </div>
      </form>
    </section>
  );
}

export function VisibilityField({
  value,
  onChange,
}: {
  value: Datastore["visibility"];
  onChange: (value: Datastore["visibility"]) => void;
}) {
  return (
    <Field
      label="Visibility"
      hint="Anyone can query a public datastore, without a key; everything else about it stays private."
    >
      {(props) => (
        <select
          {...props}
          value={value}
          onChange={(event) => onChange(event.target.value as Datastore["visibility"])}
        >
          <option value="private">Private</option>
          <option value="public">Public</option>
        </select>
      )}
    </Field>
  );
}

export function EmbedderFields({
  model,
  dimensions,
  onModel,
  onDimensions,
  hint,
}: {
  model: string;
  dimensions: string;
  onModel: (value: string) => void;
  onDimensions: (value: string) => void;
  hint: string;
}) {
  return (
    <div className="form">
      <Field label="Model" hint={`provider:model, e.g. openai:text-embedding-3-small. ${hint}`}>
        {(props) => (
          <input
            {...props}
            pattern="[a-z0-9\-]+:\S+"
            maxLength={200}
            value={model}
            onChange={(event) => onModel(event.target.value)}
          />
        )}
      </Field>
      <Field label="Dimensions" hint="Vector size of the model (16 to 16,000).">
        {(props) => (
          <input
            {...props}
            type="number"
            min={16}
            max={16_000}
            value={dimensions}
            onChange={(event) => onDimensions(event.target.value)}
          />
        )}
      </Field>
    </div>
  );
}
