import { httpUrl } from '../lib/safe-url';

/** A stored URL: a link in a new tab when it is http(s), else its text only (see `httpUrl`). */
export const ExternalLink = ({ url }: { url: string | null | undefined }) => {
  const href = httpUrl(url);
  if (!url) return <>—</>;
  return href ? (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {url}
    </a>
  ) : (
    <span class="unsafe-url" title="Not an http(s) address: shown as text, not as a link">
      {url}
    </span>
  );
};
