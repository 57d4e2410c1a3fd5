import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useRefreshSession } from "../../app/session.tsx";
import { Field, FormError } from "../../ui/forms.tsx";
import { AuthFrame, tokenOfLink } from "./AuthFrame.tsx";
import { EmailField, PasswordField } from "./fields.tsx";

/** The first owner's page, reached by the one-time link the service prints at its first start. */
export default function SetupPage() {
  const token = tokenOfLink();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const setup = useMutation({
    mutationFn: () =>
      unwrap(api.POST("/api/auth/setup", { body: { token, email, name, password } })),
    onSuccess: async () => {
      await refresh();
      navigate("/agents", { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setup.mutate();
  };
  if (!token) {
    return (
      <AuthFrame title="Set up agentdesk">
        <p role="alert">
          This page needs the one-time setup link the service printed at its first start. Run{" "}
          <code>agentdesk setup-link</code> on the server to print it again.
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Set up agentdesk">
      <p>You will be the owner of the Default organization and the instance administrator.</p>
      <form onSubmit={submit} className="form">
        <EmailField value={email} onChange={setEmail} />
        <Field label="Name">
          {(props) => (
            <input
              {...props}
              autoComplete="name"
              required
              maxLength={100}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </Field>
        <PasswordField value={password} onChange={setPassword} kind="new" />
        <FormError error={setup.error} />
        <button type="submit" className="button button-primary" disabled={setup.isPending}>
          Create account
        </button>
      </form>
    </AuthFrame>
  );
}
