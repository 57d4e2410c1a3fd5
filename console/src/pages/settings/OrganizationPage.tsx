import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import { SESSION_KEY, useRefreshSession, useSession } from "../../app/session.tsx";
import { formatDay, formatInteger } from "../../ui/format.ts";
import { Field, FormError } from "../../ui/forms.tsx";
import { ErrorNotice, QueryView } from "../../ui/states.tsx";
import { SettingsPage } from "./SettingsPage.tsx";

type Organization = ApiData<"/api/organizations/{id}", "get">;

const MAX_RETENTION_DAYS = 36_500;

function retentionText(days: number | null): string {
  if (days === null) return "Kept forever";
  return `Erased after ${formatInteger(days)} ${days === 1 ? "day" : "days"} without a new message`;
}

/** The name and retention as read-only facts (viewers and members). */
function OrganizationFacts({ organization }: { organization: Organization }) {
  return (
    <dl className="settings-facts">
      <div>
        <dt>Name</dt>
        <dd>{organization.name}</dd>
      </div>
      <div>
        <dt>Conversations</dt>
        <dd>{retentionText(organization.conversationRetentionDays)}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>{formatDay(organization.createdAt)}</dd>
      </div>
    </dl>
  );
}

/** The name and retention, editable (owners and admins). */
function OrganizationForm({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(organization.name);
  const [keepForever, setKeepForever] = useState(organization.conversationRetentionDays === null);
  const [days, setDays] = useState(String(organization.conversationRetentionDays ?? 30));
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH("/api/organizations/{id}", {
          params: { path: { id: organization.id } },
          body: { name, conversationRetentionDays: keepForever ? null : Number(days) },
        }),
      ),
    onSuccess: async (saved) => {
      queryClient.setQueryData(["settings", "organization", organization.id], saved);
      // The top bar and the organization switcher show the name from the session.
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Organization settings">
      <Field label="Name">
        {(props) => (
          <input
            {...props}
            required
            maxLength={100}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              save.reset();
            }}
          />
        )}
      </Field>
      <fieldset className="fieldset">
        <legend>Conversation retention</legend>
        <label className="settings-choice">
          <input
            type="radio"
            name="retention"
            checked={keepForever}
            onChange={() => {
              setKeepForever(true);
              save.reset();
            }}
          />
          Keep conversations forever
        </label>
        <label className="settings-choice">
          <input
            type="radio"
            name="retention"
            checked={!keepForever}
            onChange={() => {
              setKeepForever(false);
              save.reset();
            }}
          />
          Erase conversations after a number of days without a new message
        </label>
        {!keepForever && (
          <Field
            label="Days kept"
            hint={`From 1 to ${formatInteger(MAX_RETENTION_DAYS)}. The daily sweep (03:15 UTC) erases idle conversations with their messages and annotations; the credit ledger is kept.`}
          >
            {(props) => (
              <input
                {...props}
                type="number"
                inputMode="numeric"
                className="settings-number"
                required
                min={1}
                max={MAX_RETENTION_DAYS}
                step={1}
                value={days}
                onChange={(event) => {
                  setDays(event.target.value);
                  save.reset();
                }}
              />
            )}
          </Field>
        )}
      </fieldset>
      <FormError error={save.error} />
      <div className="settings-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          Save changes
        </button>
        <span role="status" className="settings-saved">
          {save.isSuccess ? "Saved." : ""}
        </span>
      </div>
    </form>
  );
}

/** Any signed-in person may make an organization of their own, and then work in it. */
function NewOrganization() {
  const queryClient = useQueryClient();
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => unwrap(api.POST("/api/organizations", { body: { name } })),
    onSuccess: async () => {
      setName("");
      // The organization switcher lists the session's organizations.
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
  const switchTo = useMutation({
    mutationFn: (activeOrganizationId: string) =>
      unwrap(api.PATCH("/api/auth/session", { body: { activeOrganizationId } })),
    onSuccess: async () => {
      await refresh();
      navigate("/settings/organization");
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const created = create.data;
  return (
    <section className="card settings-section" aria-labelledby="new-organization">
      <h2 id="new-organization">New organization</h2>
      <p className="muted">
        Start a separate organization with its own agents, knowledge, members and credits. You will
        be its owner; this one stays as it is.
      </p>
      <form className="form" onSubmit={submit} aria-labelledby="new-organization">
        <Field label="Organization name">
          {(props) => (
            <input
              {...props}
              required
              maxLength={100}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </Field>
        <FormError error={create.error} />
        <div>
          <button type="submit" className="button" disabled={create.isPending}>
            Create organization
          </button>
        </div>
      </form>
      {created && (
        <div className="settings-notice" role="status">
          <p>
            <strong>{created.name}</strong> was created and you are its owner.
          </p>
          <button
            type="button"
            className="button button-primary"
            disabled={switchTo.isPending}
            onClick={() => switchTo.mutate(created.id)}
          >
            Switch to {created.name}
          </button>
          {switchTo.isError && <ErrorNotice error={switchTo.error} />}
        </div>
      )}
    </section>
  );
}

export default function OrganizationPage() {
  const session = useSession();
  const organization = useQuery({
    queryKey: ["settings", "organization", session.organizationId],
    queryFn: () =>
      unwrap(
        api.GET("/api/organizations/{id}", { params: { path: { id: session.organizationId } } }),
      ),
  });
  return (
    <SettingsPage
      title="Organization"
      description="The organization's name and how long its conversations are kept."
    >
      <section className="card settings-section" aria-labelledby="organization-settings">
        <h2 id="organization-settings">{session.organizationName}</h2>
        <QueryView query={organization} loadingLabel="Loading the organization…">
          {(data) =>
            session.canAdmin ? (
              <OrganizationForm key={data.id} organization={data} />
            ) : (
              <>
                <OrganizationFacts organization={data} />
                <p className="muted">
                  Only owners and admins can change these settings; your role is{" "}
                  <strong>{session.role}</strong>.
                </p>
              </>
            )
          }
        </QueryView>
      </section>
      <NewOrganization />
    </SettingsPage>
  );
}
