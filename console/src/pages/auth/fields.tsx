import { Field } from "../../ui/forms.tsx";
import { PASSWORD_HINT } from "./password.ts";

type TextProps = { value: string; onChange: (value: string) => void };

export function EmailField({ value, onChange }: TextProps) {
  return (
    <Field label="Email">
      {(props) => (
        <input
          {...props}
          type="email"
          autoComplete="username"
          required
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/**
 * A password: an account's own (`current`), a new one, which the service takes from 10
 * characters (the browser checks before sending), or either (`new-or-current`: an invitation
 * makes a new account or joins an existing one; the service alone knows which).
 */
export function PasswordField({
  value,
  onChange,
  label = "Password",
  kind,
}: TextProps & { label?: string; kind: "current" | "new" | "new-or-current" }) {
  return (
    <Field label={label} hint={kind === "current" ? undefined : PASSWORD_HINT}>
      {(props) => (
        <input
          {...props}
          type="password"
          autoComplete={kind === "current" ? "current-password" : "new-password"}
          required
          {...(kind === "new" ? { minLength: 10 } : {})}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
