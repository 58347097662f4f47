/**
 * The response view's page: a strict content security policy (nothing by default; the
 * stylesheet from the extension's media folder; the one script by nonce; no network at all:
 * no connect-src, no remote images or fonts, no forms), and the script and
 * stylesheet of the extension's own bundle. Pure: the host gives the webview's URIs.
 */

export interface PageSources {
  /** `webview.cspSource`: where the webview may load the extension's own files from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  /** A fresh random value for each page. */
  nonce: string;
}

export function contentSecurityPolicy(p: Pick<PageSources, 'cspSource' | 'nonce'>): string {
  return [
    "default-src 'none'",
    `style-src ${p.cspSource}`,
    `script-src 'nonce-${p.nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function responsePage(p: PageSources): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(p))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${attr(p.styleUri)}">
<title>lpreq response</title>
</head>
<body>
<div id="app" class="app"><div class="empty-state">Waiting for the response…</div></div>
<script nonce="${attr(p.nonce)}" src="${attr(p.scriptUri)}"></script>
</body>
</html>
`;
}
