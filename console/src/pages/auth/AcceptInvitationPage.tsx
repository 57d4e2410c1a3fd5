import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useRefreshSession, useSessionQuery } from "../../app/session.tsx";
import { Field, FormError } from "../../ui/forms.tsx";
import { AuthFrame, tokenOfLink } from "./AuthFrame.tsx";
import { PasswordField } from "./fields.tsx";

/**
 * The invitation link's page. Signed in, one button joins; otherwise a new person sets a name
 * and a password, and someone who already has an account types its password.
 */
export default function AcceptInvitationPage() {
  const token = tokenOfLink();
  const session = useSessionQuery();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const signedIn = Boolean(session.data);
  const accept = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/auth/invitations/{token}/accept", {
          params: { path: { token } },
          body: signedIn ? {} : { password, ...(name.trim() ? { name } : {}) },
        }),
      ),
    onSuccess: async () => {
      await refresh();
      navigate("/agents", { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate();
  };
  if (!token) {
    return (
      <AuthFrame title="Accept invitation">
        <p role="alert">This page needs the link of an invitation e-mail.</p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Accept invitation">
      <form onSubmit={submit} className="form">
        {signedIn ? (
          <p>
            You are signed in as {session.data?.user.email}. Joining adds the organization to your
            account.
          </p>
        ) : (
          <>
            <p>New here? Choose your name and a password. Have an account? Type its password.</p>
            <Field label="Name" hint="For a new account.">
              {(props) => (
                <input
                  {...props}
                  autoComplete="name"
                  maxLength={100}
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                />
              )}
            </Field>
            <PasswordField value={password} onChange={setPassword} kind="new-or-current" />
          </>
        )}
        <FormError error={accept.error} />
        <button type="submit" className="button button-primary" disabled={accept.isPending}>
          Accept invitation
        </button>
      </form>
    </AuthFrame>
  );
}
