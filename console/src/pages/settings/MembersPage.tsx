import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import { type Role, useRefreshSession, useSession } from "../../app/session.tsx";
import { formatDateTime, formatDay } from "../../ui/format.ts";
import { ConfirmButton, CopyButton, Field, FormError } from "../../ui/forms.tsx";
import { Empty, ErrorNotice, QueryView } from "../../ui/states.tsx";
import { SettingsPage } from "./SettingsPage.tsx";

type Member = ApiData<"/api/organizations/{id}/members", "get">["data"][number];
type Invitation = ApiData<"/api/organizations/{id}/invitations", "get">["data"][number];
type Issued = ApiData<"/api/organizations/{id}/invitations", "post">;

const ROLES: { role: Role; label: string; may: string }[] = [
  { role: "owner", label: "Owner", may: "everything, billing included" },
  { role: "admin", label: "Admin", may: "members, keys, channels, settings" },
  { role: "member", label: "Member", may: "agents, knowledge, conversations, annotations" },
  { role: "viewer", label: "Viewer", may: "reads only" },
];

/** The roles the acting person may give: only an owner makes owners. */
const grantable = (acting: Role) =>
  ROLES.filter(({ role }) => role !== "owner" || acting === "owner");

const whoOf = (member: Pick<Member, "name" | "email" | "userId">) =>
  member.name ?? member.email ?? member.userId;

function roleBadge(role: Role) {
  return <span className={role === "owner" ? "badge badge-info" : "badge"}>{role}</span>;
}

function membersKey(organizationId: string) {
  return ["settings", "members", organizationId] as const;
}

function invitationsKey(organizationId: string) {
  return ["settings", "invitations", organizationId] as const;
}

/** One member's row: their role, changeable and removable as the acting role allows. */
function MemberRow({ member, onError }: { member: Member; onError: (error: unknown) => void }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const [role, setRole] = useState<Role>(member.role);
  const self = member.userId === session.view.user.id;
  const who = whoOf(member);
  // Only an owner may change or remove an owner (the API's rule, shown before it refuses).
  const manageable = session.canAdmin && (member.role !== "owner" || session.role === "owner");
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: membersKey(session.organizationId) });
  const change = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH("/api/organizations/{id}/members/{userId}", {
          params: { path: { id: session.organizationId, userId: member.userId } },
          body: { role },
        }),
      ),
    onMutate: () => onError(null),
    onSuccess: async () => {
      await invalidate();
      // One's own role changed: what the console shows changes with it.
      if (self) await refresh();
    },
    onError: (error) => {
      setRole(member.role);
      onError(error);
    },
  });
  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE("/api/organizations/{id}/members/{userId}", {
          params: { path: { id: session.organizationId, userId: member.userId } },
        }),
      ),
    onMutate: () => onError(null),
    onSuccess: async () => {
      if (self) {
        await refresh();
        navigate("/agents");
        return;
      }
      await invalidate();
    },
    onError,
  });
  const options = grantable(session.role);
  return (
    <tr>
      <td>
        {member.name ?? <span className="muted">No name</span>}
        {self && <span className="muted"> (you)</span>}
      </td>
      <td className="settings-break">{member.email ?? "—"}</td>
      <td>
        {manageable ? (
          <div className="settings-role">
            <label className="visually-hidden" htmlFor={`role-${member.userId}`}>
              Role of {who}
            </label>
            <select
              id={`role-${member.userId}`}
              value={role}
              disabled={change.isPending}
              onChange={(event) => setRole(event.target.value as Role)}
            >
              {options.map((option) => (
                <option key={option.role} value={option.role}>
                  {option.label}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button"
              disabled={role === member.role || change.isPending}
              onClick={() => change.mutate()}
            >
              Save<span className="visually-hidden"> role of {who}</span>
            </button>
          </div>
        ) : (
          roleBadge(member.role)
        )}
      </td>
      <td className="settings-nowrap">{formatDay(member.joinedAt)}</td>
      {session.canAdmin && (
        <td>
          {manageable ? (
            <ConfirmButton
              label={self ? "Leave" : `Remove ${who}`}
              title={self ? "Leave this organization?" : `Remove ${who}?`}
              description={
                self ? (
                  <p>
                    You will no longer see {session.organizationName}. Only another invitation
                    brings you back.
                  </p>
                ) : (
                  <p>
                    {who} loses access to {session.organizationName} at once. The keys they made
                    keep working until revoked.
                  </p>
                )
              }
              confirmLabel={self ? "Leave" : "Remove"}
              disabled={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          ) : (
            <span className="muted">Only an owner can change an owner</span>
          )}
        </td>
      )}
    </tr>
  );
}

function MembersTable({ members }: { members: Member[] }) {
  const session = useSession();
  const [error, setError] = useState<unknown>(null);
  return (
    <>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="table-wrap settings-table">
        <table>
          <caption className="visually-hidden">Members of {session.organizationName}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {session.canAdmin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              // Keyed by the role too: a role changed elsewhere resets the row's choice.
              <MemberRow
                key={`${member.userId}:${member.role}`}
                member={member}
                onError={setError}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

const MAIL_TEXT: Record<Issued["mail"], string> = {
  sent: "It was mailed to them; you can also pass the link on yourself.",
  failed: "The mail server refused the message: the invitation stands, send the link yourself.",
  disabled: "This server sends no mail (no SMTP_URL): send the link yourself.",
};

/** The link of an invitation just made: shown only now, as the API shows it only once. */
function IssuedInvitation({ issued }: { issued: Issued }) {
  return (
    <div className="settings-notice" role="status">
      <p>
        <strong>{issued.email}</strong> is invited as {issued.role} until{" "}
        {formatDateTime(issued.expiresAt)}. {MAIL_TEXT[issued.mail]}
      </p>
      <Field label="Invitation link" hint="Single use. It is not shown again after you leave.">
        {(props) => (
          <input
            {...props}
            readOnly
            className="settings-secret"
            value={issued.acceptUrl}
            onFocus={(event) => event.target.select()}
          />
        )}
      </Field>
      <CopyButton text={issued.acceptUrl} label="Copy link" />
    </div>
  );
}

function InviteForm() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const invite = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/organizations/{id}/invitations", {
          params: { path: { id: session.organizationId } },
          body: { email, role },
        }),
      ),
    onSuccess: async () => {
      setEmail("");
      await queryClient.invalidateQueries({ queryKey: invitationsKey(session.organizationId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <section className="card settings-section" aria-labelledby="invite">
      <h3 id="invite">Invite someone</h3>
      <form className="form settings-inline-form" onSubmit={submit} aria-labelledby="invite">
        <Field label="E-mail address">
          {(props) => (
            <input
              {...props}
              type="email"
              required
              maxLength={254}
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <Field label="Role">
          {(props) => (
            <select
              {...props}
              value={role}
              onChange={(event) => setRole(event.target.value as Role)}
            >
              {grantable(session.role).map((option) => (
                <option key={option.role} value={option.role}>
                  {option.label}: {option.may}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div>
          <button type="submit" className="button button-primary" disabled={invite.isPending}>
            Create invitation
          </button>
        </div>
      </form>
      <FormError error={invite.error} />
      {invite.data && <IssuedInvitation issued={invite.data} />}
    </section>
  );
}

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE("/api/organizations/{id}/invitations/{invitationId}", {
          params: { path: { id: session.organizationId, invitationId: invitation.id } },
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: invitationsKey(session.organizationId) }),
  });
  return (
    <tr>
      <td className="settings-break">{invitation.email}</td>
      <td>{roleBadge(invitation.role)}</td>
      <td className="settings-nowrap">{formatDateTime(invitation.createdAt)}</td>
      <td className="settings-nowrap">{formatDateTime(invitation.expiresAt)}</td>
      {session.canAdmin && (
        <td>
          <ConfirmButton
            label={`Revoke invitation of ${invitation.email}`}
            title="Revoke this invitation?"
            description={<p>The link sent to {invitation.email} stops working at once.</p>}
            confirmLabel="Revoke"
            disabled={revoke.isPending}
            onConfirm={() => revoke.mutate()}
          />
          {revoke.isError && <ErrorNotice error={revoke.error} />}
        </td>
      )}
    </tr>
  );
}

function Invitations({ invitations }: { invitations: Invitation[] }) {
  const session = useSession();
  if (invitations.length === 0) {
    return (
      <Empty title="No pending invitations">
        <p>Invitations that were accepted, revoked or expired are not listed.</p>
      </Empty>
    );
  }
  return (
    <div className="table-wrap settings-table">
      <table>
        <caption className="visually-hidden">Pending invitations</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Invited</th>
            <th scope="col">Expires</th>
            {session.canAdmin && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <InvitationRow key={invitation.id} invitation={invitation} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function MembersPage() {
  const session = useSession();
  const path = { params: { path: { id: session.organizationId } } };
  const members = useQuery({
    queryKey: membersKey(session.organizationId),
    queryFn: () => unwrap(api.GET("/api/organizations/{id}/members", path)),
  });
  const invitations = useQuery({
    queryKey: invitationsKey(session.organizationId),
    queryFn: () => unwrap(api.GET("/api/organizations/{id}/invitations", path)),
  });
  return (
    <SettingsPage
      title="Members"
      description="Who works in this organization, with which role, and who is invited."
    >
      {!session.canAdmin && (
        <p className="muted">
          Only owners and admins invite people and change roles; your role is{" "}
          <strong>{session.role}</strong>.
        </p>
      )}
      <QueryView query={members} loadingLabel="Loading the members…">
        {(data) => <MembersTable members={data.data} />}
      </QueryView>
      <details className="settings-roles">
        <summary>What each role may do</summary>
        <ul>
          {ROLES.map((option) => (
            <li key={option.role}>
              <strong>{option.label}</strong>: {option.may}
              {option.role === "owner" ? "; the last owner cannot leave or be demoted" : ""}
            </li>
          ))}
        </ul>
      </details>
      <h2>Invitations</h2>
      {session.canAdmin && <InviteForm />}
      <QueryView query={invitations} loadingLabel="Loading the invitations…">
        {(data) => <Invitations invitations={data.data} />}
      </QueryView>
    </SettingsPage>
  );
}
