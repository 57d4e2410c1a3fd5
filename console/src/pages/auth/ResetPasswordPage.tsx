import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { FormError } from "../../ui/forms.tsx";
import { AuthFrame, tokenOfLink } from "./AuthFrame.tsx";
import { EmailField, PasswordField } from "./fields.tsx";

/** Without a token: ask for a reset link by e-mail. With the mailed link's token: a new password. */
export default function ResetPasswordPage() {
  const token = tokenOfLink();
  return token ? <NewPassword token={token} /> : <RequestLink />;
}

function RequestLink() {
  const [email, setEmail] = useState("");
  const request = useMutation({
    mutationFn: () => unwrap(api.POST("/api/auth/password-reset", { body: { email } })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate();
  };
  return (
    <AuthFrame title="Reset your password">
      {request.isSuccess ? (
        <p role="status">
          If an account has this e-mail, a link to choose a new password is on its way. It works
          once, within the hour.
        </p>
      ) : (
        <form onSubmit={submit} className="form">
          <EmailField value={email} onChange={setEmail} />
          <FormError error={request.error} />
          <button type="submit" className="button button-primary" disabled={request.isPending}>
            Send reset link
          </button>
        </form>
      )}
      <p className="auth-links">
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </AuthFrame>
  );
}

function NewPassword({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const reset = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/auth/password-reset/{token}", {
          params: { path: { token } },
          body: { password },
        }),
      ),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate();
  };
  return (
    <AuthFrame title="Choose a new password">
      {reset.isSuccess ? (
        <p role="status">
          Your password is changed and every session was signed out.{" "}
          <Link to="/sign-in">Sign in</Link> with the new one.
        </p>
      ) : (
        <form onSubmit={submit} className="form">
          <PasswordField label="New password" value={password} onChange={setPassword} kind="new" />
          <FormError error={reset.error} />
          <button type="submit" className="button button-primary" disabled={reset.isPending}>
            Set password
          </button>
        </form>
      )}
    </AuthFrame>
  );
}
