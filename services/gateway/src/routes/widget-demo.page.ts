import { escapeHtmlAttribute } from './html-escape';

/** The demo page: a plain shop page with the one-line embed, using the demo publishable key. */
export const demoPage = (publishableKey: string | null, origin: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo Shop · Palaver widget</title>
<style>
  body { font-family: Georgia, serif; margin: 0; background: #fafaf9; color: #1c1917; }
  header { background: #1c1917; color: #fafaf9; padding: 18px 32px; font-size: 22px; }
  main { max-width: 620px; margin: 32px 48px; line-height: 1.6; }
  @media (max-width: 720px) { main { margin: 24px 16px; } }
  code { background: #e7e5e4; padding: 2px 6px; border-radius: 4px; font-size: 14px; word-break: break-all; }
</style>
</head>
<body>
<header>Demo Shop</header>
<main>
  <h1>Electronics, delivered.</h1>
  <p>This page embeds the Palaver widget with one line. Open the chat button in the corner and ask
  about opening hours, shipping, returns or the guarantee.</p>
  ${
    publishableKey
      ? `<p>The embed, one line before <code>&lt;/body&gt;</code>:</p>
  <p><code>&lt;script src="${escapeHtmlAttribute(origin)}/widget.js" data-key="${escapeHtmlAttribute(publishableKey)}" async&gt;&lt;/script&gt;</code></p>
  <script src="/widget.js" data-key="${escapeHtmlAttribute(publishableKey)}" async></script>`
      : `<p><strong>No demo key:</strong> start with <code>SEED_DEMO=true</code> (the default of <code>pnpm start</code>) or open <code>/demo?key=pk_…</code>.</p>`
  }
</main>
</body>
</html>
`;
