import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { api, basePath, unwrap } from "../../api/client.ts";
import { useRefreshSession } from "../../app/session.tsx";
import { FormError } from "../../ui/forms.tsx";
import { AuthFrame } from "./AuthFrame.tsx";
import { EmailField, PasswordField } from "./fields.tsx";

export default function SignInPage() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const location = useLocation();
  const providers = useQuery({
    queryKey: ["sign-in-providers"],
    queryFn: () => unwrap(api.GET("/api/auth/providers")),
  });
  const signIn = useMutation({
    mutationFn: () => unwrap(api.POST("/api/auth/login", { body: { email, password } })),
    onSuccess: async () => {
      await refresh();
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from !== "/sign-in" ? from : "/agents", { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <AuthFrame title="Sign in">
      <form onSubmit={submit} className="form">
        <EmailField value={email} onChange={setEmail} />
        <PasswordField value={password} onChange={setPassword} kind="current" />
        <FormError error={signIn.error} />
        <button type="submit" className="button button-primary" disabled={signIn.isPending}>
          Sign in
        </button>
      </form>
      {providers.data?.sso.enabled && (
        <a className="button sso" href={`${basePath}/api/auth/oidc/login`}>
          Sign in with single sign-on
        </a>
      )}
      <p className="auth-links">
        <Link to="/reset-password">Forgot your password?</Link>
      </p>
    </AuthFrame>
  );
}
