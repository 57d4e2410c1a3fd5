import { escapeHtml } from "../../../lib/html.ts";

/**
 * What a browser refused at the end of single sign-on sees: why, in plain words, and the way
 * back to the sign-in page. A page, not JSON: the provider sent a person here, not a program.
 */
export function oidcRefusalPage(message: string, signInUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in refused · agentdesk</title>
</head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1>You could not be signed in</h1>
<p>${escapeHtml(message)}</p>
<p><a href="${escapeHtml(signInUrl)}">Back to sign-in</a></p>
</body>
</html>
`;
}
