import { escapeHtml } from "../../../lib/html.ts";

/**
 * GET /chat/{agentId}'s page: an empty shell that loads /widget.js in its full-page mode. The
 * title is the agent's name; everything else is the widget's, from the same origin.
 */
export function chatPage(agent: { id: string; name: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(agent.name)}</title>
<script src="/widget.js" data-agent-id="${escapeHtml(agent.id)}" data-mode="page" defer></script>
</head>
<body>
<noscript>${escapeHtml(agent.name)}: this chat needs JavaScript.</noscript>
</body>
</html>
`;
}

export function notFoundPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat not found</title>
</head>
<body>
<h1>Chat not found</h1>
<p>There is no public agent with this id.</p>
</body>
</html>
`;
}

/** Only the page's own origin, no inline script or style (the widget adopts its stylesheet). */
export const CHAT_PAGE_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "media-src 'self'; base-uri 'none'; form-action 'none'";
