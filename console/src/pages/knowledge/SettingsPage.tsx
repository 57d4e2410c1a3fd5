import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime, formatInteger } from "../../ui/format.ts";
import { ConfirmButton, Field, FormError } from "../../ui/forms.tsx";
import { Loading } from "../../ui/states.tsx";
import { EmbedderFields, VisibilityField } from "./DatastoresPage.tsx";
import { type Datastore, knowledgeKeys, useDatastore } from "./knowledge-api.ts";

/** The datastore's fields: edited by members and above, read by viewers; and its deletion. */
export default function SettingsPage() {
  const { datastoreId = "" } = useParams();
  const { canWrite } = useSession();
  // The frame has loaded it; this reads the same cache entry.
  const datastore = useDatastore(datastoreId);
  if (!datastore.data) return <Loading />;
  return canWrite ? (
    <>
      <EditDatastore datastore={datastore.data} />
      <DeleteDatastore datastore={datastore.data} />
    </>
  ) : (
    <DatastoreFacts datastore={datastore.data} />
  );
}

function DatastoreFacts({ datastore }: { datastore: Datastore }) {
  return (
    <section className="card knowledge-card">
      <h2>Settings</h2>
      <p className="muted">Your role (viewer) reads the datastore; members and above change it.</p>
      <dl className="knowledge-facts">
        <dt>Name</dt>
        <dd>{datastore.name}</dd>
        <dt>Description</dt>
        <dd>{datastore.description || "—"}</dd>
        <dt>Visibility</dt>
        <dd>{datastore.visibility}</dd>
        <dt>Embedding model</dt>
        <dd>
          {datastore.embeddingModel} ({formatInteger(datastore.dimensions)} dimensions)
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(datastore.createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(datastore.updatedAt)}</dd>
      </dl>
    </section>
  );
}

function EditDatastore({ datastore }: { datastore: Datastore }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(datastore.name);
  const [description, setDescription] = useState(datastore.description);
  const [visibility, setVisibility] = useState(datastore.visibility);
  const [embeddingModel, setEmbeddingModel] = useState(datastore.embeddingModel);
  const [dimensions, setDimensions] = useState(String(datastore.dimensions));
  const [saved, setSaved] = useState(false);
  const embedderChanged =
    embeddingModel.trim() !== datastore.embeddingModel ||
    Number(dimensions) !== datastore.dimensions;
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH("/api/datastores/{id}", {
          params: { path: { id: datastore.id } },
          body: {
            name,
            description,
            visibility,
            // Sent only when changed: a new embedder re-embeds every datasource.
            ...(embedderChanged
              ? { embeddingModel: embeddingModel.trim(), dimensions: Number(dimensions) }
              : {}),
          },
        }),
      ),
    onSuccess: async () => {
      setSaved(true);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: knowledgeKeys.datastore(datastore.id) }),
        queryClient.invalidateQueries({ queryKey: knowledgeKeys.datastores }),
        queryClient.invalidateQueries({ queryKey: knowledgeKeys.datasources(datastore.id) }),
      ]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate();
  };
  return (
    <section className="card knowledge-card">
      <h2>Settings</h2>
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
        <Field label="Description">
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
        <fieldset className="fieldset">
          <legend>Embedding model</legend>
          <EmbedderFields
            model={embeddingModel}
            dimensions={dimensions}
            onModel={setEmbeddingModel}
            onDimensions={setDimensions}
            hint="Changing it syncs every datasource again and embeds all its text anew."
          />
        </fieldset>
        <FormError error={save.error} />
        <p className="knowledge-success" role="status">
          {saved && "Saved."}
        </p>
        <div>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            Save changes
          </button>
        </div>
      </form>
    </section>
  );
}

function DeleteDatastore({ datastore }: { datastore: Datastore }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE("/api/datastores/{id}", { params: { path: { id: datastore.id } } })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: knowledgeKeys.datastore(datastore.id) });
      queryClient.removeQueries({ queryKey: knowledgeKeys.datasources(datastore.id) });
      await queryClient.invalidateQueries({ queryKey: knowledgeKeys.datastores });
      navigate("/knowledge");
    },
  });
  return (
    <section className="card knowledge-card">
      <h2>Delete this datastore</h2>
      <p>
        Its datasources, uploaded files and chunks are removed; agents that use it stop finding
        them.
      </p>
      <FormError error={remove.error} />
      <ConfirmButton
        label="Delete datastore"
        title={`Delete ${datastore.name}?`}
        description="Every datasource, upload and chunk of the datastore is removed. This cannot be undone."
        confirmLabel="Delete datastore"
        disabled={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </section>
  );
}
